//! The HTTP edge: limits on slow and oversized requests, per-address connections, the request
//! id, security headers, user files served inert, the web app's deep links, and metrics kept
//! from the public.

use std::net::SocketAddr;
use std::time::Instant;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::support::*;

/// Reads from `stream` until the server closes it; returns what it sent, or `None` when it is
/// still open after `wait`.
async fn read_until_closed(stream: &mut TcpStream, wait: Duration) -> Option<String> {
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    let deadline = tokio::time::Instant::now() + wait;
    loop {
        match tokio::time::timeout_at(deadline, stream.read(&mut buf)).await {
            Err(_) => return None,
            Ok(Ok(0)) | Ok(Err(_)) => return Some(String::from_utf8_lossy(&got).into_owned()),
            Ok(Ok(n)) => got.extend_from_slice(&buf[..n]),
        }
    }
}

async fn spawn_edge_app(configure: impl FnOnce(&mut ServeArgs)) -> TestApp {
    let mut config = ServeArgs::for_tests();
    configure(&mut config);
    spawn_app_with(Backend::Sqlite, config).await
}

/// Raises this process's open-file limit to its hard limit (the slow-client test holds 2,000
/// sockets).
fn raise_open_file_limit() {
    // SAFETY: getrlimit and setrlimit only read and write the struct passed.
    unsafe {
        let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) == 0 && limit.rlim_cur < limit.rlim_max {
            limit.rlim_cur = limit.rlim_max;
            libc::setrlimit(libc::RLIMIT_NOFILE, &limit);
        }
    }
}

/// The resident memory of process `pid`, in KiB.
fn resident_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

/// 2,000 clients that send half a request head and then nothing neither stop a normal request
/// nor keep their connections (and the memory they hold) past the header timeout.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_clients_are_closed_after_the_header_timeout_and_their_memory_returns() {
    raise_open_file_limit();
    let server = spawn_binary(&["--header-timeout-seconds", "3", "--max-connections-per-address", "0"], &[]).await;
    let pid = server.child.id();
    let client = reqwest::Client::new();
    for _ in 0..20 {
        client.get(format!("http://{}/readyz", server.addr)).send().await.unwrap();
    }
    let before = resident_kib(pid);
    let mut slow = Vec::with_capacity(2000);
    for _ in 0..2000 {
        let mut stream = TcpStream::connect(server.addr).await.unwrap();
        stream.write_all(b"GET /healthz HTTP/1.1\r\nHost: needl\r\nX-Slow: aaaa").await.unwrap();
        slow.push(stream);
    }
    let opened = Instant::now();
    let started = Instant::now();
    let res = reqwest::Client::new().get(format!("http://{}/healthz", server.addr)).send().await.unwrap();
    let answered = started.elapsed();
    assert_eq!(res.status(), StatusCode::OK);
    assert!(answered < Duration::from_millis(100), "a normal request took {answered:?} beside 2,000 slow ones");
    let held = resident_kib(pid);
    let closed = futures::future::join_all(
        slow.iter_mut().map(|stream| async move { read_until_closed(stream, Duration::from_secs(20)).await }),
    )
    .await;
    let still_open = closed.iter().filter(|c| c.is_none()).count();
    assert_eq!(still_open, 0, "every slow connection is closed by the server");
    assert!(opened.elapsed() >= Duration::from_secs(2), "not before the timeout: {:?}", opened.elapsed());
    drop(slow);
    // Freed memory goes back to the system in the allocator's own time: poll briefly.
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut after = resident_kib(pid);
    while after as f64 > before as f64 * 1.2 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(250)).await;
        after = resident_kib(pid);
    }
    eprintln!("resident: {before} KiB at start, {held} KiB with 2,000 slow clients, {after} KiB after; normal request {answered:?}");
    assert!(after as f64 <= before as f64 * 1.2, "resident {after} KiB after, {before} KiB before");
}

/// A connection that sends nothing, and a kept-alive one gone idle, end at the header timeout.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn silent_and_idle_connections_end_at_the_header_timeout() {
    let app = spawn_edge_app(|c| c.header_timeout_seconds = 1).await;
    let mut silent = TcpStream::connect(app.server.addr).await.unwrap();
    let started = Instant::now();
    assert!(read_until_closed(&mut silent, Duration::from_secs(5)).await.is_some(), "a silent client is let go");
    assert!(started.elapsed() >= Duration::from_millis(900), "{:?}", started.elapsed());

    let mut idle = TcpStream::connect(app.server.addr).await.unwrap();
    idle.write_all(b"GET /healthz HTTP/1.1\r\nHost: needl\r\n\r\n").await.unwrap();
    let answer = read_until_closed(&mut idle, Duration::from_secs(5)).await.expect("an idle connection ends");
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
}

/// A request head over `--max-header-bytes` gets 431; one under it is served.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_head_over_the_limit_gets_431() {
    let app = spawn_edge_app(|c| c.max_header_bytes = 16 * 1024).await;
    let big = "a".repeat(20 * 1024);
    let res = app.client.get(app.url("/healthz")).header("x-padding", &big).send().await;
    match res {
        Ok(res) => assert_eq!(res.status(), StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE),
        Err(error) => panic!("expected 431, the connection failed: {error}"),
    }
    let res = app.client.get(app.url("/healthz")).header("x-padding", "a".repeat(4 * 1024)).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::OK);
}

/// A client's request id is echoed when it is short and printable, and replaced otherwise.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_a_short_printable_request_id_is_echoed() {
    let app = spawn_edge_app(|c| c.max_header_bytes = 128 * 1024).await;
    let echoed = |id: String| {
        let app = &app;
        async move {
            let res = app.client.get(app.url("/healthz")).header("x-request-id", id).send().await.unwrap();
            assert_eq!(res.status(), StatusCode::OK);
            res.headers()["x-request-id"].to_str().unwrap().to_string()
        }
    };
    assert_eq!(echoed("trace-42.a:b".into()).await, "trace-42.a:b");
    for unfit in ["x".repeat(60 * 1024), "x".repeat(129), "two words".into(), "caf\u{e9}".into()] {
        let back = echoed(unfit.clone()).await;
        assert_ne!(back, unfit);
        assert!(uuid::Uuid::parse_str(&back).is_ok(), "a fresh id replaces it: {back}");
    }
}

/// One address holds at most `--max-connections-per-address`; a closed one frees a place.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_past_the_per_address_cap_are_closed_at_once() {
    let app = spawn_edge_app(|c| c.max_connections_per_address = 3).await;
    let mut held = Vec::new();
    for _ in 0..3 {
        let mut stream = TcpStream::connect(app.server.addr).await.unwrap();
        stream.write_all(b"GET /healthz HTTP/1.1\r\nHost: needl\r\n\r\n").await.unwrap();
        let mut buf = [0u8; 12];
        stream.read_exact(&mut buf).await.unwrap();
        assert_eq!(&buf, b"HTTP/1.1 200");
        held.push(stream);
    }
    let mut fourth = TcpStream::connect(app.server.addr).await.unwrap();
    let _ = fourth.write_all(b"GET /healthz HTTP/1.1\r\nHost: needl\r\n\r\n").await;
    let answer = read_until_closed(&mut fourth, Duration::from_secs(2)).await.expect("closed at once");
    assert!(answer.is_empty(), "no answer: {answer}");
    held.pop();
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let res = reqwest::Client::new().get(app.url("/healthz")).send().await;
        if res.as_ref().is_ok_and(|r| r.status() == StatusCode::OK) {
            break;
        }
        assert!(Instant::now() < deadline, "a place was freed: {res:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// A body trickled under the minimum rate fails with 408 soon after its head start.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_trickled_request_body_gets_408() {
    let app = spawn_edge_app(|c| {
        c.body_timeout_seconds = 1;
        c.body_min_bytes_per_second = 1000;
    })
    .await;
    let mut stream = TcpStream::connect(app.server.addr).await.unwrap();
    let head = "POST /api/auth/signin HTTP/1.1\r\nHost: needl\r\ncontent-type: application/json\r\ncontent-length: 50000\r\n\r\n";
    stream.write_all(head.as_bytes()).await.unwrap();
    let started = Instant::now();
    let (mut read, mut write) = stream.into_split();
    let trickle = tokio::spawn(async move {
        for _ in 0..100 {
            if write.write_all(b" ").await.is_err() {
                return;
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    });
    let mut answer = Vec::new();
    let mut buf = [0u8; 1024];
    while !String::from_utf8_lossy(&answer).contains("\r\n\r\n{") {
        let n = tokio::time::timeout(Duration::from_secs(10), read.read(&mut buf)).await.expect("answered").unwrap();
        if n == 0 {
            break;
        }
        answer.extend_from_slice(&buf[..n]);
    }
    trickle.abort();
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("\"code\":\"request_timeout\""), "{answer}");
    assert!(started.elapsed() < Duration::from_secs(5), "{:?}", started.elapsed());
}

/// Handlers can read the client's address as axum's `ConnectInfo`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn handlers_see_the_peer_address_as_connect_info() {
    use axum::extract::ConnectInfo;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let app = axum::Router::new()
        .route("/", axum::routing::get(|ConnectInfo(peer): ConnectInfo<SocketAddr>| async move { peer.to_string() }));
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let limits = api::edge::EdgeLimits::from_config(&ServeArgs::for_tests());
    let serving = tokio::spawn(api::edge::serve(listener, app, limits, stopped));
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let local = stream.local_addr().unwrap();
    stream.write_all(b"GET / HTTP/1.1\r\nHost: needl\r\nConnection: close\r\n\r\n").await.unwrap();
    let answer = read_until_closed(&mut stream, Duration::from_secs(5)).await.unwrap();
    assert!(answer.ends_with(&local.to_string()), "{answer}");
    stop.send(true).unwrap();
    tokio::time::timeout(Duration::from_secs(5), serving).await.expect("stops").unwrap().unwrap();
}

/// A built web app in a temporary directory: index.html and one asset.
fn web_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("index.html"), "<!doctype html><div id=\"root\"></div>").unwrap();
    std::fs::create_dir(dir.path().join("assets")).unwrap();
    std::fs::write(dir.path().join("assets/app.js"), "console.log('app')").unwrap();
    dir
}

fn assert_security_headers(res: &reqwest::Response, what: &str) {
    let headers = res.headers();
    let csp = headers.get("content-security-policy").unwrap_or_else(|| panic!("{what}: no CSP")).to_str().unwrap();
    assert!(csp.contains("frame-ancestors 'none'"), "{what}: {csp}");
    if let Some(scripts) = csp.split(';').map(str::trim).find(|d| d.starts_with("script-src")) {
        let unsafe_source = |t: &str| t == "'unsafe-inline'" || t == "'unsafe-eval'" || t == "*" || t == "data:";
        assert!(!scripts.split_whitespace().any(unsafe_source), "{what}: {scripts}");
    }
    assert_eq!(headers["x-content-type-options"], "nosniff", "{what}");
    assert!(headers.contains_key("referrer-policy"), "{what}");
}

/// The app, its assets and the API carry a policy without inline script and without framing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_app_its_assets_and_the_api_carry_security_headers() {
    let web = web_dir();
    let app = spawn_edge_app(|c| c.web_dir = web.path().to_path_buf()).await;
    for path in ["/", "/notifications", "/assets/app.js", "/api/user", "/api/openapi.json", "/api/no/such/route"] {
        let res = app.client.get(app.url(path)).send().await.unwrap();
        assert_security_headers(&res, path);
    }
    let page = app.client.get(app.url("/")).send().await.unwrap();
    let csp = page.headers()["content-security-policy"].to_str().unwrap().to_string();
    assert!(csp.contains("script-src 'self'") && csp.contains("connect-src 'self' ws: wss:"), "{csp}");
}

/// The app's pages answer 200 with the app, unknown addresses 404 with the app, unknown API
/// routes the JSON 404.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deep_links_to_app_pages_answer_200_and_unknown_addresses_404() {
    let web = web_dir();
    let app = spawn_edge_app(|c| c.web_dir = web.path().to_path_buf()).await;
    let index = std::fs::read_to_string(web.path().join("index.html")).unwrap();
    for (path, status) in [
        ("/notifications", StatusCode::OK),
        ("/auth/signin", StatusCode::OK),
        ("/settings/channels/c-1/members", StatusCode::OK),
        ("/preview/needl_rss/some-deeplink", StatusCode::OK),
        ("/needlbox/bookmarks/anything", StatusCode::OK),
        ("/no/such/page", StatusCode::NOT_FOUND),
        ("/notifications/extra", StatusCode::NOT_FOUND),
    ] {
        let res = app.client.get(app.url(path)).send().await.unwrap();
        assert_eq!(res.status(), status, "{path}");
        assert!(res.headers()["content-type"].to_str().unwrap().starts_with("text/html"), "{path}");
        assert_eq!(res.text().await.unwrap(), index, "{path}");
    }
    let asset = app.client.get(app.url("/assets/app.js")).send().await.unwrap();
    assert_eq!(asset.status(), StatusCode::OK);
    assert_eq!(asset.text().await.unwrap(), "console.log('app')");
    let (status, body) = app.send(reqwest::Method::GET, "/api/no/such/route", None, None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(body["code"], "not_found");
}

api_test!(uploaded_html_and_svg_are_never_served_as_active_content, |app: TestApp| async move {
    let app = &app;
    let s = app.sign_up("filer").await;
    let html = b"<html><body><p>Quarterly notes</p><script>fetch('/api/user')</script></body></html>";
    let svg = b"<svg xmlns=\"http://www.w3.org/2000/svg\"><script>alert(1)</script><text>logo</text></svg>";
    let declared = json!([
        {"id": "f-html", "name": "notes.html", "size": html.len()},
        {"id": "f-svg", "name": "logo.html", "size": svg.len(), "mime_type": "image/svg+xml"},
        {"id": "f-pdf", "name": "plain.pdf", "size": 0},
    ]);
    let pdf = tiny_pdf("Plain text inside");
    let mut declared = declared;
    declared[2]["size"] = json!(pdf.len());
    let (status, init) =
        app.post("/api/upload/init", &s.token, json!({"source": "needldrive", "files": declared})).await;
    assert_eq!(status, StatusCode::OK, "{init}");
    for (config, bytes) in init["upload_configs"].as_array().unwrap().iter().zip([&html[..], &svg[..], &pdf[..]]) {
        let link = config["upload_link"].as_str().unwrap();
        let res = app.client.put(app.url(link)).body(bytes.to_vec()).send().await.unwrap();
        assert_eq!(res.status(), StatusCode::CREATED);
    }
    let (status, done) = app.post("/api/upload/complete", &s.token, complete_body(&init)).await;
    assert_eq!(status, StatusCode::OK, "{done}");
    let states = app.settled_uploads(&s.token, &["f-html", "f-svg", "f-pdf"]).await;
    for id in ["f-html", "f-svg", "f-pdf"] {
        let state = states.iter().find(|r| r["id"] == id).unwrap_or_else(|| panic!("{id}: {states:?}"));
        assert_eq!(state["status"], "COMPLETED", "{state}");
        let deeplink = state["deeplink"].as_str().unwrap();
        let path = format!("/api/doc/needldrive/file?deeplink={}", urlencode(deeplink));
        let res = app.request(reqwest::Method::GET, &path, Some(&s.token)).send().await.unwrap();
        assert_eq!(res.status(), StatusCode::OK, "{id}");
        let headers = res.headers().clone();
        let csp = headers["content-security-policy"].to_str().unwrap();
        assert!(csp.split(';').any(|d| d.trim() == "sandbox"), "{id}: {csp}");
        assert!(csp.contains("default-src 'none'"), "{id}: {csp}");
        assert_eq!(headers["x-content-type-options"], "nosniff", "{id}");
        let disposition = headers["content-disposition"].to_str().unwrap();
        if id == "f-pdf" {
            assert!(disposition.starts_with("inline"), "the preview may show a PDF: {disposition}");
        } else {
            assert!(disposition.starts_with("attachment"), "{id}: {disposition}");
        }
        let bytes = res.bytes().await.unwrap();
        assert!(!bytes.is_empty(), "{id}: the file itself still comes back");
    }
});

/// Metrics: not on the public address without the token; with it, and on the metrics address;
/// every metric they name is in the operations guide.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_are_refused_on_the_public_address_without_the_token() {
    let closed = spawn_edge_app(|_| {}).await;
    let res = closed.client.get(closed.url("/metrics")).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
    assert!(!res.text().await.unwrap().contains("needl_"), "no metric leaks");

    let app = spawn_edge_app(|c| {
        c.metrics_token = Some("scrape-secret".into());
        c.metrics_addr = Some("127.0.0.1:0".parse().unwrap());
    })
    .await;
    let s = app.sign_up("metered").await;
    let _socket = app.connect_live(&s.token, None).await;
    for auth in [None, Some("Bearer wrong"), Some("scrape-secret"), Some("Bearer scrape-secre")] {
        let mut req = app.client.get(app.url("/metrics"));
        if let Some(auth) = auth {
            req = req.header("authorization", auth);
        }
        let res = req.send().await.unwrap();
        assert_eq!(res.status(), StatusCode::UNAUTHORIZED, "{auth:?}");
        assert!(!res.text().await.unwrap().contains("needl_"), "no metric leaks");
    }
    let res = app.client.get(app.url("/metrics")).bearer_auth("scrape-secret").send().await.unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    let public = res.text().await.unwrap();
    assert!(public.contains("needl_http_request_duration_seconds"), "{public}");

    let metrics_addr = app.server.metrics_addr.expect("a metrics listener");
    let deadline = Instant::now() + Duration::from_secs(10);
    let scraped = loop {
        let text = app.client.get(format!("http://{metrics_addr}/metrics")).send().await.unwrap().text().await.unwrap();
        if text.contains("needl_live_connections") || Instant::now() > deadline {
            break text;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let guide = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/operations.md")).unwrap();
    let mut names: Vec<&str> = scraped
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split(['{', ' ']).next())
        .filter(|n| n.starts_with("needl_"))
        .map(|n| n.trim_end_matches("_sum").trim_end_matches("_count").trim_end_matches("_bucket"))
        .collect();
    names.sort();
    names.dedup();
    for expected in ["needl_live_connections", "needl_live_subscribers", "needl_http_request_duration_seconds"] {
        assert!(names.contains(&expected), "{expected} in {names:?}");
    }
    for name in names {
        assert!(guide.contains(&format!("`{name}")), "docs/operations.md names {name}");
    }
}

// Readiness: the database and the object store are named with their state, and how far the
// slowest read model is behind the feed, which settles at zero once the projections have caught
// up. (A store that stops answering is in the S3 upload test.)
api_test!(readiness_names_the_database_the_object_store_and_the_projections_lag, |app: TestApp| async move {
    app.sign_up("ready").await;
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let res = app.client.get(app.url("/readyz")).send().await.unwrap();
        assert_eq!(res.status(), StatusCode::OK);
        let body: Value = res.json().await.unwrap();
        assert_eq!(body["status"], "ready", "{body}");
        assert_eq!(body["database"]["ok"], true, "{body}");
        assert_eq!(body["storage"], json!({"ok": true, "kind": "local"}), "{body}");
        let behind = body["projections"]["behind_events"].as_u64().expect("a count of events");
        if behind == 0 {
            assert_eq!(body["projections"]["slowest"], Value::Null, "{body}");
            break;
        }
        assert!(body["projections"]["slowest"].is_string(), "a lagging projection is named: {body}");
        assert!(Instant::now() < deadline, "the projections never caught up: {body}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
});
