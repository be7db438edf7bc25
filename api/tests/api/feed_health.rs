//! Feeds that cannot be read say so: their error and when they were last tried, a retry that
//! fetches at once instead of after the back-off, and a feed followed without a name taking its
//! own title once read (a name somebody gave stays).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use crate::support::*;

/// Fetching on, every second, with the test servers on 127.0.0.1 allowed.
fn fetching(config: &mut ServeArgs) {
    config.fetch_enabled = true;
    config.fetch_interval_seconds = 1;
    config.fetch_allow = vec!["127.0.0.1".into()];
}

/// A feed at `/feed.xml` that answers 404 until `fixed` is set, and text that is no feed at
/// `/broken.xml`. Returns its address and the switch.
async fn flaky_feed() -> (std::net::SocketAddr, Arc<AtomicBool>) {
    use axum::http::StatusCode as S;
    let fixed = Arc::new(AtomicBool::new(false));
    let switch = fixed.clone();
    let app = axum::Router::new()
        .route(
            "/feed.xml",
            axum::routing::get(move || {
                let fixed = switch.clone();
                async move {
                    if fixed.load(Ordering::SeqCst) {
                        (S::OK, FEED.to_string())
                    } else {
                        (S::NOT_FOUND, "gone".to_string())
                    }
                }
            }),
        )
        .route("/broken.xml", axum::routing::get(|| async { "<html><body>not a feed</body></html" }));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (addr, fixed)
}

/// Polls the user's RSS sources until `source_id`'s row satisfies `done` (or 20 s pass).
async fn poll_source(app: &TestApp, token: &str, source_id: &str, done: impl Fn(&Value) -> bool) -> Value {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    loop {
        let (_, list) = app.get("/api/source/rss", token).await;
        let row = list["results"].as_array().unwrap().iter().find(|r| r["source_id"] == source_id).cloned();
        if let Some(row) = row {
            if done(&row) {
                return row;
            }
            assert!(tokio::time::Instant::now() < deadline, "the source never got there: {row}");
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

api_test_with!(
    a_feed_that_cannot_be_fetched_shows_why_and_when_and_a_retry_fetches_it_at_once,
    fetching,
    |app: TestApp| async move {
        let app = &app;
        let (server, fixed) = flaky_feed().await;
        let s = app.sign_up("retrier").await;
        let (status, source) =
            app.post("/api/connect/rss", &s.token, json!({"url": format!("http://{server}/feed.xml")})).await;
        assert_eq!(status, StatusCode::OK, "{source}");
        assert_eq!(source["label"], "127.0.0.1", "named by its host until it is read");
        assert!(source["last_attempt_at"].is_null(), "not tried yet: {source}");
        let id = source["source_id"].as_str().unwrap().to_string();

        let failed = poll_source(app, &s.token, &id, |r| r["last_error"].is_string()).await;
        assert!(failed["last_error"].as_str().unwrap().contains("404"), "{failed}");
        let tried = failed["last_attempt_at"].as_str().expect("the failed attempt's time").to_string();
        let next = failed["next_attempt_at"].as_str().unwrap().to_string();
        assert!(next > tried, "the next attempt is backed off: {failed}");
        assert!(failed["last_fetched_at"].is_null());
        assert_eq!(failed["label"], "127.0.0.1", "a failed fetch gives no title");

        // Fixed on the far side; without a retry the next attempt is a minute or more away.
        fixed.store(true, Ordering::SeqCst);
        let (status, retried) = app.post(&format!("/api/source/rss/{id}/retry"), &s.token, json!({})).await;
        assert_eq!(status, StatusCode::OK, "{retried}");
        assert!(retried["next_attempt_at"].as_str().unwrap() < next.as_str(), "due now: {retried}");
        let started = std::time::Instant::now();
        let fetched = poll_source(app, &s.token, &id, |r| r["last_fetched_at"].is_string()).await;
        assert!(started.elapsed() < Duration::from_secs(20));
        assert!(fetched["last_error"].is_null(), "{fetched}");
        let page = poll_documents(app, &s.token, 3).await;
        assert_eq!(page["results"].as_array().unwrap().len(), 3);
        // Named now by the title the feed gives itself, as an event of the source.
        let renamed = poll_source(app, &s.token, &id, |r| r["label"] == "Local news").await;
        assert_eq!(renamed["label"], "Local news");
        assert_eq!(event_types(app, "source", &id).await, ["SourceRegistered", "SourceRenamed"]);
        assert!(event_types(app, "subscription", &format!("{}/{id}", s.id()))
            .await
            .contains(&"SourceFetchRequested".to_string()));

        // Only a follower may ask; an unfollowed feed is not found.
        let (status, body) = app.post("/api/source/rss/rss_unknown/retry", &s.token, json!({})).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
        let other = app.sign_up("bystander").await;
        let (status, _) = app.post(&format!("/api/source/rss/{id}/retry"), &other.token, json!({})).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
    }
);

api_test_with!(
    a_feed_that_is_not_a_feed_says_so_and_a_name_given_to_a_feed_stays,
    fetching,
    |app: TestApp| async move {
        let app = &app;
        let (server, fixed) = flaky_feed().await;
        fixed.store(true, Ordering::SeqCst);
        let s = app.sign_up("namer").await;
        let (_, broken) =
            app.post("/api/connect/rss", &s.token, json!({"url": format!("http://{server}/broken.xml")})).await;
        let broken =
            poll_source(app, &s.token, broken["source_id"].as_str().unwrap(), |r| r["last_error"].is_string()).await;
        assert!(broken["last_error"].as_str().unwrap().contains("is not a feed"), "{broken}");
        assert!(broken["last_attempt_at"].is_string());

        let (_, named) = app
            .post(
                "/api/connect/rss",
                &s.token,
                json!({"url": format!("http://{server}/feed.xml"), "label": "  My markets "}),
            )
            .await;
        assert_eq!(named["label"], "My markets");
        let id = named["source_id"].as_str().unwrap();
        let fetched = poll_source(app, &s.token, id, |r| r["last_fetched_at"].is_string()).await;
        assert_eq!(fetched["label"], "My markets", "the given name stays: {fetched}");
        assert_eq!(event_types(app, "source", id).await, ["SourceRegistered"]);

        let long = "x".repeat(201);
        let (status, body) = app
            .post("/api/connect/rss", &s.token, json!({"url": "https://example.com/other.xml", "label": long}))
            .await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    }
);
