//! Sources: RSS feeds, catalogue entries and websites followed and unfollowed, fetched in the
//! background from servers on 127.0.0.1, a source that never answers holding up no other, the
//! category index and the RSS topics.

use crate::support::*;

api_test!(following_an_rss_feed_lists_it_and_its_priority_can_change, |app: TestApp| async move {
    let app = &app;
    let s = app.sign_up("rss").await;
    let (status, source) =
        app.post("/api/connect/rss", &s.token, json!({"url": "https://news.example.com/feed.xml#x"})).await;
    assert_eq!(status, StatusCode::OK, "{source}");
    assert_eq!(source["priority"], "MEDIUM");
    assert_eq!(source["label"], "news.example.com");
    let id = source["source_id"].as_str().unwrap().to_string();
    let (status, again) =
        app.post("/api/connect/rss", &s.token, json!({"url": "https://news.example.com/feed.xml"})).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(again["source_id"], id.as_str(), "one address is one source");
    let (status, body) = app.post("/api/connect/rss", &s.token, json!({"url": "file:///etc/passwd"})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    let (status, changed) = app.put(&format!("/api/source/rss/{id}"), &s.token, json!({"priority": "HIGH"})).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(changed["priority"], "HIGH");
    let (_, list) = app.get("/api/source/rss", &s.token).await;
    assert_eq!(list["results"].as_array().unwrap().len(), 1);
    let (status, body) = app.put("/api/source/rss/rss_unknown", &s.token, json!({"priority": "LOW"})).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    let too_many: Vec<String> = (0..51).map(|i| format!("s{i}")).collect();
    let (status, body) =
        app.put("/api/source/rss/priority", &s.token, json!({"source_ids": too_many, "priority": "LOW"})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(body["message"], "Please select 50 or less sources to proceed");
    let (status, bulk) =
        app.put("/api/source/rss/priority", &s.token, json!({"source_ids": [id], "priority": "LOW"})).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(bulk["results"][0]["priority"], "LOW");
});

api_test!(public_sources_are_followed_and_unfollowed_by_key, |app: TestApp| async move {
    let app = &app;
    let s = app.sign_up("pub").await;
    let (status, body) = app.post("/api/connect/public", &s.token, json!({"key": "bse_filings"})).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, _) = app.post("/api/connect/public?delink=true", &s.token, json!({"key": "bse_filings"})).await;
    assert_eq!(status, StatusCode::OK);
    let (status, body) = app.post("/api/connect/public?delink=true", &s.token, json!({"key": "bse_filings"})).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "unfollowing what is not followed: {body}");
    let (status, many) = app
        .post("/api/connect/public/multiple", &s.token, json!({"keys": ["nzx_filings", "earnings_conf_calls"]}))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(many.as_array().unwrap().len(), 2);
    let (_, catalogue) = app.get("/api/source/public", &s.token).await;
    let entries = catalogue["results"].as_array().unwrap();
    let nzx = entries.iter().find(|e| e["key"] == "nzx_filings").unwrap();
    assert_eq!(nzx["following"], true);
    let bse = entries.iter().find(|e| e["key"] == "bse_filings").unwrap();
    assert_eq!(bse["following"], false);
    assert_eq!(bse["group"], "Indian Capital Markets");
    assert_eq!(bse["kind"], "source");
    let custom = entries.iter().find(|e| e["key"] == "websitecrawl").unwrap();
    assert_eq!((&custom["title"], &custom["kind"]), (&json!("Custom URL"), &json!("app")));
    let apps: Vec<&str> = entries.iter().filter(|e| e["kind"] == "app").map(|e| e["key"].as_str().unwrap()).collect();
    assert_eq!(apps.len(), 7, "mail, chats, drives, clipped reports, Custom URL and Notebooks: {apps:?}");
    assert!(entries.iter().all(|e| e["kind"] == "app" || e["kind"] == "source"), "{entries:?}");
    let (status, _) = app.post("/api/connect/public", &s.token, json!({"key": "../../etc"})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);

    // An app's entry is connected under Apps, never followed; with it, a batch follows nothing.
    let (status, body) = app.post("/api/connect/public", &s.token, json!({"key": "websitecrawl"})).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("app_key")), "{body}");
    let (_, before) = app.get("/api/source/public", &s.token).await;
    let batch = json!({"keys": ["bse_annual_reports", "websitecrawl"]});
    let (status, body) = app.post("/api/connect/public/multiple", &s.token, batch).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("app_key")), "{body}");
    let (_, after) = app.get("/api/source/public", &s.token).await;
    assert_eq!(after, before, "nothing of the batch was followed");
});

/// A followed feed on an allow-listed address is fetched in the background; its items become
/// documents once, and a conditional refetch adds nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_followed_feed_is_fetched_and_its_items_become_documents_once() {
    let (feed, hits) = serve_feed(FEED.to_string()).await;
    let mut config = ServeArgs::for_tests();
    config.fetch_enabled = true;
    config.fetch_interval_seconds = 1;
    config.fetch_allow = vec!["127.0.0.1".into()];
    let app = spawn_app_with(Backend::Sqlite, config).await;
    let s = app.sign_up("follower").await;
    let mut socket = app.connect_live(&s.token, None).await;
    let (status, body) = app
        .post("/api/connect/rss", &s.token, json!({"url": format!("http://{feed}/feed.xml"), "label": "Local news"}))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    next_of_type(&mut socket, "DocumentIngested").await;
    let page = poll_documents(&app, &s.token, 3).await;
    let mut titles: Vec<&str> =
        page["results"].as_array().unwrap().iter().map(|d| d["title"].as_str().unwrap()).collect();
    titles.sort();
    assert_eq!(titles, vec!["Exports rise", "New listing", "Rates held steady"]);
    // Wait for at least one conditional refetch, then check nothing was added twice.
    let seen = hits.load(std::sync::atomic::Ordering::SeqCst);
    let deadline = tokio::time::Instant::now() + Duration::from_secs(15);
    while hits.load(std::sync::atomic::Ordering::SeqCst) <= seen && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert!(hits.load(std::sync::atomic::Ordering::SeqCst) > seen, "the feed is fetched again");
    let (_, page) = app.get("/api/documents", &s.token).await;
    assert_eq!(page["results"].as_array().unwrap().len(), 3);
    let (_, sources) = app.get("/api/source/rss", &s.token).await;
    assert!(sources["results"][0]["last_fetched_at"].is_string());
    assert_eq!(sources["results"][0]["last_error"], Value::Null);
}

/// Without the operator's allow-list, a feed on a loopback address is refused when followed (the
/// address alone tells); a name that resolves there is refused when fetched, see
/// `input_checks::a_source_whose_address_is_refused_when_fetched_shows_why_and_backs_off`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_feed_on_a_loopback_address_is_refused_unless_allow_listed() {
    let (feed, hits) = serve_feed(FEED.to_string()).await;
    let mut config = ServeArgs::for_tests();
    config.fetch_enabled = true;
    config.fetch_interval_seconds = 1;
    let app = spawn_app_with(Backend::Sqlite, config).await;
    let s = app.sign_up("careful").await;
    let (status, body) =
        app.post("/api/connect/rss", &s.token, json!({"url": format!("http://{feed}/feed.xml")})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(body["code"], "address_not_allowed");
    assert_eq!(body["message"], "this server does not fetch 127.0.0.1: it is a loopback address");
    assert!(app.get("/api/source/rss", &s.token).await.1["results"].as_array().unwrap().is_empty());
    assert_eq!(hits.load(std::sync::atomic::Ordering::SeqCst), 0, "no request reached the server");
}

/// A source whose host accepts connections and never answers does not hold up the others.
macro_rules! hanging_source_test {
    ($name:ident, $backend:expr) => {
        #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
        async fn $name() {
            let silent = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            let silent_addr = silent.local_addr().unwrap();
            tokio::spawn(async move {
                let mut held = Vec::new();
                while let Ok((socket, _)) = silent.accept().await {
                    held.push(socket);
                }
            });
            let (feed, _) = serve_feed(FEED.to_string()).await;
            let mut config = ServeArgs::for_tests();
            config.fetch_enabled = true;
            config.fetch_interval_seconds = 60;
            config.fetch_allow = vec!["127.0.0.1".into()];
            let app = spawn_app_with($backend, config).await;
            let s = app.sign_up("patient").await;
            app.post("/api/connect/rss", &s.token, json!({"url": format!("http://{silent_addr}/feed.xml")})).await;
            tokio::time::sleep(Duration::from_millis(1500)).await;
            app.post("/api/connect/rss", &s.token, json!({"url": format!("http://{feed}/feed.xml")})).await;
            let started = std::time::Instant::now();
            let page = poll_documents(&app, &s.token, 3).await;
            assert_eq!(page["results"].as_array().unwrap().len(), 3, "the answering feed was fetched");
            assert!(started.elapsed() < Duration::from_secs(15), "it was not held up: {:?}", started.elapsed());
        }
    };
}
hanging_source_test!(a_source_that_never_answers_holds_up_no_other_on_sqlite, Backend::Sqlite);
hanging_source_test!(a_source_that_never_answers_holds_up_no_other_on_postgres, Backend::Postgres);

api_test!(websites_are_followed_by_address_and_unfollowed, |app: TestApp| async move {
    let app = &app;
    let s = app.sign_up("surfer").await;
    let (status, body) = app.post("/api/connect/website", &s.token, json!({"url": "www.example.org/news"})).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["url"], "https://www.example.org/news");
    assert_eq!(body["label"], "example.org");
    let (_, list) = app.get("/api/connect/website", &s.token).await;
    assert_eq!(list["results"].as_array().unwrap().len(), 1);
    assert!(list["results"][0]["last_error"].is_null());
    let (status, bad) = app.post("/api/connect/website", &s.token, json!({"url": "ftp://example.org"})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{bad}");
    let source_id = body["source_id"].as_str().unwrap();
    let (status, _) = app.post("/api/connect/website?delink=true", &s.token, json!({"source_id": source_id})).await;
    assert_eq!(status, StatusCode::OK);
    assert!(app.get("/api/connect/website", &s.token).await.1["results"].as_array().unwrap().is_empty());
});

/// Fetching on, every second, with the test servers on 127.0.0.1 allowed.
fn fetching_config() -> ServeArgs {
    let mut config = ServeArgs::for_tests();
    config.fetch_enabled = true;
    config.fetch_interval_seconds = 1;
    config.fetch_allow = vec!["127.0.0.1".into()];
    config
}

/// A site at `/` that advertises `/feed.xml` by `<link rel="alternate">`, and that feed.
async fn serve_site() -> std::net::SocketAddr {
    let (feed, _) = serve_feed(FEED.to_string()).await;
    let home = format!(
        r#"<html><head><title>Local news</title><link rel="alternate" type="application/rss+xml" href="http://{feed}/feed.xml"></head><body><p>News.</p></body></html>"#
    );
    let app = axum::Router::new().route("/", axum::routing::get(move || async move { axum::response::Html(home) }));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    addr
}

/// A followed website is read through the feed its home page advertises.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_followed_website_is_read_through_its_advertised_feed() {
    let site = serve_site().await;
    let app = spawn_app_with(Backend::Sqlite, fetching_config()).await;
    let s = app.sign_up("reader").await;
    let (status, body) = app.post("/api/connect/website", &s.token, json!({"url": format!("http://{site}/")})).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let page = poll_documents(&app, &s.token, 3).await;
    assert_eq!(page["results"].as_array().unwrap().len(), 3, "{page}");
    let (_, list) = app.get("/api/connect/website", &s.token).await;
    assert!(list["results"][0]["last_fetched_at"].is_string(), "{list}");
}

/// A catalogue entry the operator gave a feed is fetched once someone follows it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_followed_catalogue_entry_with_a_feed_is_fetched() {
    let (feed, _) = serve_feed(FEED.to_string()).await;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("catalogue.toml");
    std::fs::write(
        &file,
        format!("[[source]]\nkey = \"local_regulator\"\ngroup = \"\"\nfeed_urls = [\"http://{feed}/feed.xml\"]\n"),
    )
    .unwrap();
    let mut config = fetching_config();
    config.catalogue = Some(file);
    let app = spawn_app_with(Backend::Sqlite, config).await;
    let s = app.sign_up("analyst").await;
    let (_, sources) = app.get("/api/source/public", &s.token).await;
    let entry = sources["results"].as_array().unwrap().iter().find(|e| e["key"] == "local_regulator").cloned().unwrap();
    assert_eq!(entry["title"], "Local regulator");
    assert_eq!(entry["fetchable"], true);
    app.post("/api/connect/public", &s.token, json!({"key": "local_regulator"})).await;
    let page = poll_documents(&app, &s.token, 3).await;
    assert_eq!(page["results"].as_array().unwrap().len(), 3, "{page}");
    assert!(page["results"].as_array().unwrap().iter().all(|d| d["source"] == "local_regulator"));
}

api_test!(the_category_index_counts_each_kind_of_source_and_lists_filter_by_it, |app: TestApp| async move {
    let app = &app;
    let s = app.sign_up("sorter").await;
    let (_, empty) = app.get("/api/categories", &s.token).await;
    let feeds = &empty["results"][0];
    assert_eq!(feeds["key"], "feeds");
    assert!(feeds["sources"].as_array().unwrap().iter().all(|c| c["connected"] == false), "{empty}");
    ingest(app, "filing-1", "bse_filings", "A filing", None).await;
    app.post("/api/connect/public", &s.token, json!({"key": "bse_filings"})).await;
    let user_id = s.id();
    ingest(app, "upload-1", "needldrive", "My memo", Some(user_id)).await;
    let (_, index) = app.get("/api/categories", &s.token).await;
    let sub = |key: &str| {
        index["results"][0]["sources"].as_array().unwrap().iter().find(|c| c["key"] == key).cloned().unwrap()
    };
    assert_eq!(sub("exchanges")["count"], 1, "{index}");
    assert_eq!(sub("exchanges")["connected"], true);
    assert_eq!(sub("drives")["count"], 1);
    assert_eq!(sub("rss_news")["connected"], false);
    let (_, drives) = app.get("/api/documents?sub_category=drives", &s.token).await;
    assert_eq!(drives["results"].as_array().unwrap().len(), 1);
    assert_eq!(drives["results"][0]["title"], "My memo");
    let (_, chats) = app.get("/api/documents?sub_category=chats", &s.token).await;
    assert!(chats["results"].as_array().unwrap().is_empty());
    assert_eq!(app.get("/api/documents?sub_category=nonsense", &s.token).await.0, StatusCode::BAD_REQUEST);
    let (_, private) = app.get("/api/source/private", &s.token).await;
    assert_eq!(private["results"][0]["key"], "needldrive");
    assert_eq!(private["results"][0]["count"], 1);
});

api_test!(rss_topics_suggest_feeds_and_show_which_are_followed, |app: TestApp| async move {
    let app = &app;
    let s = app.sign_up("topical").await;
    let (_, topics) = app.get("/api/rss/topics", &s.token).await;
    let first = topics["results"][0]["key"].as_str().unwrap().to_string();
    let (status, feeds) = app.get(&format!("/api/rss?topic={first}"), &s.token).await;
    assert_eq!(status, StatusCode::OK);
    let url = feeds["results"][0]["url"].as_str().unwrap().to_string();
    assert_eq!(feeds["results"][0]["following"], false);
    app.post("/api/connect/rss", &s.token, json!({"url": url})).await;
    let (_, feeds) = app.get(&format!("/api/rss?topic={first}"), &s.token).await;
    assert_eq!(feeds["results"][0]["following"], true, "{feeds}");
    assert_eq!(app.get("/api/rss?topic=no_such_topic", &s.token).await.0, StatusCode::NOT_FOUND);
    let (status, body) = app.get("/api/rss", &s.token).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["code"], "invalid_query", "query-string mistakes answer in the error shape: {body}");
});
