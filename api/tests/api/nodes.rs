//! Several `needl` processes on one Postgres and one S3-compatible bucket (moto), sharing no disk,
//! some behind a round-robin proxy: what one node records, the others serve; a node killed
//! mid-work leaves its work to another. The scale-out the operations guide describes; each node
//! keeps only caches (its blob cache, its search index) on its own disk.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Instant;

use futures::StreamExt;
use tokio_tungstenite::tungstenite::Message;

use crate::support::*;

/// A fresh schema on the test Postgres, as a `DATABASE_URL` both nodes connect with.
async fn shared_database() -> String {
    testkit::db::in_schema(&testkit::db::postgres_url(), &testkit::db::postgres_schema().await)
}

/// What nodes must share besides the database and the bucket: the token secret and the audit key.
fn shared_secrets(database: String) -> Vec<(&'static str, String)> {
    vec![
        ("DATABASE_URL", database),
        ("NEEDL_TOKEN_SECRET", "nodes-share-this-secret-of-32-chars!".into()),
        ("NEEDL_AUDIT_KEY", "42".repeat(32)),
    ]
}

/// Nodes sharing one bucket (on a local S3 server) and one fresh Postgres schema: the server
/// (kept while the test runs), the environment every node starts with, and its `--storage`
/// value. `None` where the S3 server is not installed.
async fn shared_storage(bucket: &str) -> Option<(testkit::s3::Moto, Vec<(&'static str, String)>, String)> {
    let s3 = moto_with_bucket(bucket).await?;
    let mut env = s3.env();
    env.extend(shared_secrets(shared_database().await));
    Some((s3, env, format!("s3://{bucket}")))
}

/// Writes an executable shell script `name` holding `body` into `dir` and returns its path, for
/// a node's `--extract-worker`.
fn worker_script(dir: &std::path::Path, name: &str, body: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}")).unwrap();
    std::fs::set_permissions(&path, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    path.display().to_string()
}

/// Sends `text` as the file `name` through `api` and reports it transferred; returns the init
/// answer without waiting for the file to be extracted.
async fn send_text(api: &Api, token: &str, id: &str, name: &str, text: &str) -> Value {
    let init = api.upload(token, &[(id, name, text.as_bytes())]).await;
    let done: Value = api.post_as("/api/upload/complete", token, complete_body(&init)).await;
    assert_eq!(done["files"][0]["status"], "PROCESSING", "{done}");
    init
}

/// [`send_text`], then waits until the file is extracted; returns its document's deeplink.
async fn upload_text(api: &Api, token: &str, id: &str, name: &str, text: &str) -> String {
    send_text(api, token, id, name, text).await;
    let status = &api.settled_uploads(token, &[id]).await[0];
    assert_eq!(status["status"], "COMPLETED", "{status}");
    status["deeplink"].as_str().unwrap().to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_nodes_behind_a_round_robin_proxy_serve_what_any_of_them_recorded() {
    let bucket = "needl-nodes";
    let Some((s3, env, storage)) = shared_storage(bucket).await else { return };
    let client = reqwest::Client::new();
    let args = ["--storage", &storage, "--metrics-token", "scrape-all"];
    let (a, b, c) = (spawn_binary(&args, &env).await, spawn_binary(&args, &env).await, spawn_binary(&args, &env).await);
    let (on_a, on_b, on_c) = (Api::new(a.addr), Api::new(b.addr), Api::new(c.addr));
    let proxy = RoundRobin::start(vec![a.addr, b.addr, c.addr]).await;

    // Signed up on A; the token works on B and C.
    let s = on_a.sign_up("nodes").await;
    let mut socket_on_b = on_b.connect_live(&s.token, None).await;
    let mut socket_on_c = on_c.connect_live(&s.token, None).await;

    // Uploaded through B: the file goes to the bucket, its text to the bucket's blobs.
    let text = "The refinery expansion at Jamnagar adds two hundred thousand barrels a day.";
    let deeplink = upload_text(&on_b, &s.token, "memo", "memo.txt", text).await;
    let listed = client.get(format!("{}/{bucket}?list-type=2&prefix=blobs/", s3.endpoint())).send().await.unwrap();
    let listing = listed.text().await.unwrap();
    assert!(listing.contains("<Key>blobs/"), "the extracted text is in the bucket: {listing}");

    // Searched on C, whose index was filled from the shared feed with text from the bucket.
    let deadline = Instant::now() + Duration::from_secs(30);
    let found = loop {
        let (_, page) = on_c.post("/api/search", &s.token, json!({"q": "Jamnagar refinery"})).await;
        if page["count"].as_u64().unwrap_or(0) > 0 || Instant::now() > deadline {
            break page;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    assert_eq!(found["count"], 1, "node C finds what node B ingested: {found}");
    let html = found["results"][0]["highlights"][0]["html"].as_str().unwrap_or_default();
    assert!(html.contains("<em>Jamnagar</em>"), "with its text: {found}");
    // And asked on C: the answer cites the file B extracted.
    let prompt = "How many barrels a day does the Jamnagar refinery expansion add?";
    let (status, answer) = on_c.post("/api/ml/ask-needl", &s.token, json!({"prompt": prompt, "stream": false})).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let cited: Vec<&str> = answer["retrieved_results"]
        .as_array()
        .map(|r| r.iter().filter_map(|c| c["document_id"].as_str()).collect())
        .unwrap_or_default();
    assert!(cited.contains(&deeplink.as_str()), "the answer cites the upload: {answer}");

    // A comment posted on A reaches the socket held on C.
    let (status, body) = on_a.post("/api/channels", &s.token, json!({"name": "Refining", "members": []})).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let channel = body["channel"]["id"].as_str().unwrap().to_string();
    let (status, body) =
        on_a.post(&format!("/api/channels/{channel}/items"), &s.token, json!({"deeplink": deeplink})).await;
    assert!(status.is_success(), "{body}");
    let thread = format!("/api/channels/{channel}/comments/{}", urlencode(&deeplink));
    let (status, body) = on_a.post(&thread, &s.token, json!({"comment": "Capacity up by a fifth"})).await;
    assert!(status.is_success(), "{body}");
    next_of_type(&mut socket_on_c, "CommentAdded").await;

    // Through the proxy, each request on a new connection: every node answers in turn.
    let balanced = proxy.api();
    for _ in 0..6 {
        let (status, page) = balanced.post("/api/search", &s.token, json!({"q": "Jamnagar"})).await;
        assert_eq!((status, &page["count"]), (StatusCode::OK, &json!(1)), "{page}");
        let (status, body) = balanced.get(&format!("/api/channels/{channel}/items"), &s.token).await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }
    let given = proxy.given();
    assert!(given.iter().all(|&n| n >= 3), "every node served its share: {given:?}");

    // Signing out on A closes the session's sockets on B and C.
    assert!(on_a.sign_out(&s.token).await.is_success());
    for socket in [&mut socket_on_b, &mut socket_on_c] {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(15);
        loop {
            match tokio::time::timeout_at(deadline, socket.next()).await.expect("the node closes the socket") {
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                Some(Ok(_)) => continue,
            }
        }
    }
    let (status, _) = on_b.get("/api/user", &s.token).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "and B refuses the token");

    // A scrape of each node reports that node's own projection lag.
    for node in [&a, &b, &c] {
        let res = client.get(format!("http://{}/metrics", node.addr)).bearer_auth("scrape-all").send().await.unwrap();
        let text = res.text().await.unwrap();
        assert!(text.contains("needl_projection_feed_lag_events{projection=\"documents\"}"), "{text}");
    }
}

/// A node killed (SIGKILL) while it extracts a file leaves the file to another node, which takes
/// it once the dead node's lease runs out and finishes it; the time from the kill to the file
/// being ready is printed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_killed_mid_extraction_leaves_the_file_to_another() {
    let Some((_s3, env, storage)) = shared_storage("needl-kill").await else { return };
    // Node A's extraction worker says it started, then hangs: A is killed in the middle of it.
    let scratch = tempfile::tempdir().unwrap();
    let started = scratch.path().join("started");
    let worker_arg =
        worker_script(scratch.path(), "hanging-worker", &format!("touch '{}'\nexec sleep 20\n", started.display()));
    let lease = ["--job-lease-seconds", "3"];
    let mut a =
        spawn_binary(&[&["--storage", &storage, "--extract-worker", &worker_arg][..], &lease].concat(), &env).await;
    let on_a = Api::new(a.addr);
    let s = on_a.sign_up("killed").await;
    send_text(&on_a, &s.token, "dredging", "dredging.txt", "Dredging of the Kandla channel resumes after the monsoon.")
        .await;
    let deadline = Instant::now() + Duration::from_secs(30);
    while !started.exists() {
        assert!(Instant::now() < deadline, "node A started extracting the file");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    a.child.kill().unwrap();
    a.child.wait().unwrap();
    let killed = Instant::now();
    let b = spawn_binary(&[&["--storage", &storage][..], &lease].concat(), &env).await;
    let on_b = Api::new(b.addr);
    let deadline = Instant::now() + Duration::from_secs(60);
    let status = loop {
        let (_, body) = on_b.get("/api/upload/status?ids=dredging", &s.token).await;
        let status = body["results"][0].clone();
        if status["status"] != "PROCESSING" || Instant::now() > deadline {
            break status;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert_eq!(status["status"], "COMPLETED", "node B finished the file: {status}");
    eprintln!("node killed mid-extraction: the file was ready on another node {:?} after the kill", killed.elapsed());
    let (_, page) = on_b.get("/api/documents", &s.token).await;
    assert_eq!(page["results"].as_array().map(Vec::len), Some(1), "recorded once: {page}");
}

/// Two nodes with fetching on share one followed feed: it is fetched again and again, never by
/// both at once (a fetch is leased to one node), and its items are recorded once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_nodes_fetch_a_followed_feed_one_at_a_time_and_record_its_items_once() {
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

    let mut env = shared_secrets(shared_database().await);
    env.push(("NEEDL_FETCH_ALLOW", "127.0.0.1".into()));
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
    let env = shared_secrets(shared_database().await);
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

/// An extraction that outlasts the lease keeps it: the node working on the file renews the lease,
/// so the other node never takes the file meanwhile and the file is extracted once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_long_extraction_renews_its_lease_and_no_other_node_takes_the_file() {
    let bucket = "needl-renew";
    let Some(s3) = moto_with_bucket(bucket).await else { return };
    let mut env = s3.env();
    env.extend(shared_secrets(shared_database().await));
    let storage = format!("s3://{bucket}");
    // Every extraction, on either node, is counted and takes twice the lease before it starts.
    let scratch = tempfile::tempdir().unwrap();
    let runs = scratch.path().join("runs");
    let worker = scratch.path().join("slow-worker");
    let script = format!(
        "#!/bin/sh\necho run >> '{}'\nsleep 6\nexec '{}' \"$@\"\n",
        runs.display(),
        env!("CARGO_BIN_EXE_needl")
    );
    std::fs::write(&worker, script).unwrap();
    std::fs::set_permissions(&worker, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let worker_arg = worker.display().to_string();
    let args = ["--storage", &storage, "--extract-worker", &worker_arg, "--job-lease-seconds", "3"];
    let a = spawn_binary(&args, &env).await;
    let _b = spawn_binary(&args, &env).await;
    let on_a = Api::new(a.addr);
    let s = on_a.sign_up("patient").await;
    upload_text(&on_a, &s.token, "slow", "slow.txt", "Ore shipments from Port Hedland rose in October.").await;
    let runs = std::fs::read_to_string(&runs).unwrap_or_default();
    assert_eq!(runs.lines().count(), 1, "the file was extracted once, by the node that held its lease");
}

/// A chat-completions server standing in for the model reports are written with: it answers the
/// first `budget` requests at once and holds later ones until [`Gate::open`]. Each answer restates
/// the first sentence of source [1], citing it, so the support check keeps it.
struct Gate {
    url: String,
    served: Arc<AtomicUsize>,
    open: Arc<tokio::sync::Semaphore>,
}

impl Gate {
    async fn start(budget: usize) -> Gate {
        use tokio::io::AsyncWriteExt;
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/v1", listener.local_addr().unwrap());
        let (served, open) = (Arc::new(AtomicUsize::new(0)), Arc::new(tokio::sync::Semaphore::new(budget)));
        let (count, permits) = (served.clone(), open.clone());
        tokio::spawn(async move {
            while let Ok((mut socket, _)) = listener.accept().await {
                let (count, permits) = (count.clone(), permits.clone());
                tokio::spawn(async move {
                    let body = testkit::http::read_request(&mut socket).await;
                    let Ok(permit) = permits.acquire().await else { return };
                    permit.forget();
                    let request: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
                    let prompt = request["messages"][1]["content"].as_str().unwrap_or_default();
                    let content = format!("{} [1]", crate::reports_engine::first_sentence_of_source_one(prompt));
                    let reply =
                        json!({"choices": [{"index": 0, "message": {"role": "assistant", "content": content}}]});
                    let reply = testkit::http::json_reply("200 OK", &reply.to_string());
                    if socket.write_all(reply.as_bytes()).await.is_ok() {
                        count.fetch_add(1, Ordering::SeqCst);
                    }
                    let _ = socket.shutdown().await;
                });
            }
        });
        Gate { url, served, open }
    }

    /// Answers every request from now on, those held included.
    fn open(&self) {
        self.open.add_permits(1_000);
    }
}

/// A node killed (SIGKILL) while it writes a report leaves the report to another node, which
/// resumes after the sections already written, leaving them as they were; the time from the kill
/// to the finished report is printed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_killed_mid_report_leaves_the_report_to_another_which_resumes_it() {
    use crate::reports::{OVERVIEW, RESULTS};
    let Some((_s3, env, storage)) = shared_storage("needl-report-kill").await else { return };
    let gate = Gate::start(2).await;
    let args = [
        "--storage",
        &storage,
        "--assistant-url",
        &gate.url,
        "--assistant-model",
        "stand-in",
        "--job-lease-seconds",
        "3",
    ];
    let mut a = spawn_binary(&args, &env).await;
    let on_a = Api::new(a.addr);
    let s = on_a.sign_up("reporter").await;
    let overview = upload_text(&on_a, &s.token, "overview", "acme-overview.txt", OVERVIEW).await;
    let results = upload_text(&on_a, &s.token, "results", "acme-results.txt", RESULTS).await;
    let body = json!({"report_type": "initiation_coverage", "name": "Acme", "files": [overview, results]});
    let (status, report) = on_a.post("/api/ml/report/init", &s.token, body).await;
    assert_eq!(status, StatusCode::OK, "{report}");
    let id = report["results"]["id"].as_str().unwrap().to_string();
    let (status, started) = on_a.post("/api/ml/report/generate", &s.token, json!({ "report_id": id })).await;
    assert_eq!(status, StatusCode::OK, "{started}");

    // A writes sections until the model holds its third request; then A is killed.
    let deadline = Instant::now() + Duration::from_secs(60);
    let before = loop {
        let (_, detail) = on_a.get(&format!("/api/ml/report/{id}"), &s.token).await;
        let sections = detail["results"]["sections"].as_array().cloned().unwrap_or_default();
        let written: Vec<Value> = sections.into_iter().take_while(|s| s["status"] == "COMPLETED").collect();
        if gate.served.load(Ordering::SeqCst) == 2 && written.len() >= 2 {
            // What A recorded after the model's second answer has had time to land.
            tokio::time::sleep(Duration::from_millis(500)).await;
            let (_, detail) = on_a.get(&format!("/api/ml/report/{id}"), &s.token).await;
            let sections = detail["results"]["sections"].as_array().cloned().unwrap_or_default();
            break sections.into_iter().take_while(|s| s["status"] == "COMPLETED").collect::<Vec<Value>>();
        }
        assert!(Instant::now() < deadline, "node A wrote two sections: {detail}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    a.child.kill().unwrap();
    a.child.wait().unwrap();
    let killed = Instant::now();
    gate.open();

    let b = spawn_binary(&args, &env).await;
    let on_b = Api::new(b.addr);
    let deadline = Instant::now() + Duration::from_secs(90);
    let detail = loop {
        let (_, detail) = on_b.get(&format!("/api/ml/report/{id}"), &s.token).await;
        if !matches!(detail["results"]["status"].as_str(), Some("QUEUED" | "RUNNING")) || Instant::now() > deadline {
            break detail["results"].clone();
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    assert_eq!(detail["status"], "COMPLETED", "node B finished the report: {detail}");
    eprintln!("node killed mid-report: the report was finished on another node {:?} after the kill", killed.elapsed());
    let after = detail["sections"].as_array().unwrap();
    assert!(after.len() > before.len(), "B had sections left to write: {detail}");
    assert_eq!(&after[..before.len()], &before[..], "the sections A wrote are unchanged");
    assert!(after.iter().all(|s| s["status"] == "COMPLETED"), "{detail}");
    assert!(gate.served.load(Ordering::SeqCst) > 2, "B wrote the rest with the model");
}
