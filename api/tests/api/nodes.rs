//! Two `needl` processes on one Postgres and one S3-compatible bucket (moto), sharing no disk:
//! what one node records, the other serves. The first step of the scale-out the operations guide
//! describes; each node keeps only caches (its blob cache, its search index) on its own disk.

use std::time::Instant;

use futures::StreamExt;
use tokio_tungstenite::tungstenite::Message;

use crate::support::*;

/// A fresh schema on the test Postgres, as a `DATABASE_URL` both nodes connect with.
async fn shared_database() -> String {
    let (url, schema) = (testkit::db::postgres_url(), testkit::db::postgres_schema().await);
    let joiner = if url.contains('?') { '&' } else { '?' };
    format!("{url}{joiner}options=-c%20search_path%3D{schema}")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_nodes_on_one_postgres_and_one_bucket_serve_what_either_recorded() {
    let bucket = "needl-nodes";
    let Some(s3) = moto_with_bucket(bucket).await else { return };
    let client = reqwest::Client::new();
    let mut env = s3.env();
    env.push(("DATABASE_URL", shared_database().await));
    // What nodes must share besides storage: the token secret and the audit key.
    env.push(("NEEDL_TOKEN_SECRET", "two-nodes-share-this-secret-of-32-chars".into()));
    env.push(("NEEDL_AUDIT_KEY", "42".repeat(32)));
    let storage = format!("s3://{bucket}");
    let args = ["--storage", &storage, "--metrics-token", "scrape-both"];
    let a = spawn_binary(&args, &env).await;
    let b = spawn_binary(&args, &env).await;
    let (on_a, on_b) = (Api::new(a.addr), Api::new(b.addr));

    // Signed up on A; the token works on B.
    let s = on_a.sign_up("nodes").await;
    let mut socket_on_b = on_b.connect_live(&s.token, None).await;

    // Uploaded through B: the file goes to the bucket, its text to the bucket's blobs.
    let text = "The refinery expansion at Jamnagar adds two hundred thousand barrels a day.";
    let files = json!([{"id": "memo", "name": "memo.txt", "size": text.len()}]);
    let init: Value = on_b.post_as("/api/upload/init", &s.token, json!({"source": "needldrive", "files": files})).await;
    let link = init["upload_configs"][0]["upload_link"].as_str().unwrap();
    assert!(client.put(link).body(text).send().await.unwrap().status().is_success());
    let done: Value = on_b.post_as("/api/upload/complete", &s.token, complete_body(&init)).await;
    assert_eq!(done["files"][0]["status"], "PROCESSING", "{done}");
    let status = &on_b.settled_uploads(&s.token, &["memo"]).await[0];
    assert_eq!(status["status"], "COMPLETED", "{status}");
    let listed = client.get(format!("{}/{bucket}?list-type=2&prefix=blobs/", s3.endpoint())).send().await.unwrap();
    let listing = listed.text().await.unwrap();
    assert!(listing.contains("<Key>blobs/"), "the extracted text is in the bucket: {listing}");

    // Searched on A, whose index was filled from the shared feed with text from the bucket.
    let deadline = Instant::now() + Duration::from_secs(30);
    let found = loop {
        let (_, page) = on_a.post("/api/search", &s.token, json!({"q": "Jamnagar refinery"})).await;
        if page["count"].as_u64().unwrap_or(0) > 0 || Instant::now() > deadline {
            break page;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    assert_eq!(found["count"], 1, "node A finds what node B ingested: {found}");
    let html = found["results"][0]["highlights"][0]["html"].as_str().unwrap_or_default();
    assert!(html.contains("<em>Jamnagar</em>"), "with its text: {found}");

    // A change made on A reaches the socket held on B.
    let (status, _) = on_a.patch("/api/user/preferences", &s.token, json!({"askneedl_pro": true})).await;
    assert_eq!(status, StatusCode::OK);
    next_of_type(&mut socket_on_b, "PreferencesChanged").await;

    // Signing out on A closes the session's socket on B.
    assert!(on_a.sign_out(&s.token).await.is_success());
    let deadline = tokio::time::Instant::now() + Duration::from_secs(15);
    loop {
        match tokio::time::timeout_at(deadline, socket_on_b.next()).await.expect("B closes the socket") {
            Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
            Some(Ok(_)) => continue,
        }
    }
    let (status, _) = on_b.get("/api/user", &s.token).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "and B refuses the token");

    // A scrape of each node reports that node's own projection lag.
    for node in [&a, &b] {
        let res = client.get(format!("http://{}/metrics", node.addr)).bearer_auth("scrape-both").send().await.unwrap();
        let text = res.text().await.unwrap();
        assert!(text.contains("needl_projection_feed_lag_events{projection=\"documents\"}"), "{text}");
    }
}

/// Two nodes with fetching on share one followed feed: it is fetched again and again, never by
/// both at once (a fetch is leased to one node), and its items are recorded once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_nodes_fetch_a_followed_feed_one_at_a_time_and_record_its_items_once() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;
    let (in_flight, most, served) =
        (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    let counters = (in_flight.clone(), most.clone(), served.clone());
    let feed = axum::Router::new().route(
        "/feed.xml",
        axum::routing::get(move || {
            let (in_flight, most, served) = counters.clone();
            async move {
                let now = in_flight.fetch_add(1, Ordering::SeqCst) + 1;
                most.fetch_max(now, Ordering::SeqCst);
                // Slow enough that two nodes fetching together would overlap here.
                tokio::time::sleep(Duration::from_millis(300)).await;
                in_flight.fetch_sub(1, Ordering::SeqCst);
                served.fetch_add(1, Ordering::SeqCst);
                ([("content-type", "application/rss+xml")], THREE_ITEMS)
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let server = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, feed).await.unwrap() });

    let env = [
        ("DATABASE_URL", shared_database().await),
        ("NEEDL_TOKEN_SECRET", "two-nodes-share-this-secret-of-32-chars".into()),
        ("NEEDL_FETCH_ALLOW", "127.0.0.1".into()),
    ];
    let fetching = ["--fetch-enabled", "true", "--fetch-interval-seconds", "1"];
    let a = spawn_binary(&fetching, &env).await;
    let _b = spawn_binary(&fetching, &env).await;
    let on_a = Api::new(a.addr);
    let s = on_a.sign_up("follower").await;
    let (status, body) =
        on_a.post("/api/connect/rss", &s.token, json!({"url": format!("http://{server}/feed.xml")})).await;
    assert_eq!(status, StatusCode::OK, "{body}");

    let deadline = Instant::now() + Duration::from_secs(40);
    while served.load(Ordering::SeqCst) < 6 {
        assert!(Instant::now() < deadline, "the feed was fetched {} times", served.load(Ordering::SeqCst));
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert_eq!(most.load(Ordering::SeqCst), 1, "never two fetches of the feed at once");
    let (_, page) = on_a.get("/api/documents", &s.token).await;
    assert_eq!(page["results"].as_array().map(Vec::len), Some(3), "each item once: {page}");
}

const THREE_ITEMS: &str = r#"<?xml version="1.0"?><rss version="2.0"><channel><title>Shared</title>
<item><title>One</title><link>https://news.example.com/1</link><guid>1</guid></item>
<item><title>Two</title><link>https://news.example.com/2</link><guid>2</guid></item>
<item><title>Three</title><link>https://news.example.com/3</link><guid>3</guid></item>
</channel></rss>"#;

/// The sign-in throttle is the instance's, not a node's: guesses spread over two nodes are
/// counted together, and once the account is under attack from an address, both nodes refuse
/// that address.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_nodes_count_sign_in_failures_together() {
    let env = [
        ("DATABASE_URL", shared_database().await),
        ("NEEDL_TOKEN_SECRET", "two-nodes-share-this-secret-of-32-chars".into()),
    ];
    let a = spawn_binary(&[], &env).await;
    let b = spawn_binary(&[], &env).await;
    let nodes = [Api::new(a.addr), Api::new(b.addr)];
    nodes[0].sign_up("guarded").await;
    // Five failures are free per account, the sixth starts the wait: three on each node.
    for i in 0..6 {
        let (status, body) = nodes[i % 2].sign_in("guarded@example.com", "not the password at all").await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "guess {i}: {body}");
    }
    for node in &nodes {
        let (status, body) = node.sign_in("guarded@example.com", "not the password at all").await;
        assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
        assert_eq!(body["code"], "too_many_attempts", "{body}");
    }
}
