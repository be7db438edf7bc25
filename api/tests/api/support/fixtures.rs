//! Set-ups that tests of several features share: documents recorded straight through the command
//! bus, a local RSS server, uploads, and the tags, notebooks and channels other features build
//! on.

use super::*;

/// Records a document through the command bus and waits for the read models.
pub async fn record_document(
    app: &TestApp,
    deeplink: &str,
    source_id: &str,
    title: &str,
    content_hash: String,
    owner: Option<&str>,
) -> Option<commands::feed::Cursor> {
    let fields = domain::document::DocumentFields {
        source_id: source_id.to_string(),
        guid: deeplink.to_string(),
        link: Some(format!("https://example.com/{deeplink}")),
        title: title.to_string(),
        content_hash,
        owner: owner.map(str::to_string),
        ..Default::default()
    };
    let bus = app.server.state.bus.clone();
    let cursor = bus
        .execute(
            &bus.documents,
            deeplink,
            domain::document::DocumentCommand::Ingest(fields),
            &domain::EventMetadata::system("test", "r"),
        )
        .await
        .unwrap();
    app.server.state.settle(cursor).await;
    cursor
}

/// Records a document of a source (or, with `owner`, an upload) and waits for the read models.
pub async fn ingest(app: &TestApp, deeplink: &str, source_id: &str, title: &str, owner: Option<&str>) {
    record_document(app, deeplink, source_id, title, format!("hash-{deeplink}"), owner).await;
}

/// Serves `body` as an RSS feed on 127.0.0.1, answering 304 when the client sends the ETag.
pub async fn serve_feed(body: String) -> (std::net::SocketAddr, std::sync::Arc<std::sync::atomic::AtomicUsize>) {
    use axum::http::{header, HeaderMap, StatusCode as S};
    let hits = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counter = hits.clone();
    let app = axum::Router::new().route(
        "/feed.xml",
        axum::routing::get(move |headers: HeaderMap| {
            let body = body.clone();
            let counter = counter.clone();
            async move {
                counter.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                if headers.get(header::IF_NONE_MATCH).is_some_and(|v| v == "\"v1\"") {
                    return (S::NOT_MODIFIED, [(header::ETAG, "\"v1\"")], String::new());
                }
                (S::OK, [(header::ETAG, "\"v1\"")], body)
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (addr, hits)
}

/// A feed of three items, for `serve_feed`.
pub const FEED: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>Local news</title><link>http://example.invalid/</link>
<description>test</description>
<item><title>Rates held steady</title><guid>item-1</guid><description>The central bank kept rates unchanged.</description></item>
<item><title>Exports rise</title><guid>item-2</guid><description>Exports grew for the third month.</description></item>
<item><title>New listing</title><guid>item-3</guid><description>A company listed its shares today.</description></item>
</channel></rss>"#;

/// Polls the user's documents until there are `want` (or 20 s pass); returns the last page.
pub async fn poll_documents(app: &TestApp, token: &str, want: usize) -> Value {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    loop {
        let (_, page) = app.get("/api/documents", token).await;
        if page["results"].as_array().map(Vec::len) == Some(want) || tokio::time::Instant::now() > deadline {
            return page;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

pub use testkit::pdf::{pdf_page, tiny_pdf};

impl Api {
    /// Asks for upload links for `files` (id, name, bytes) and sends each file to its link: this
    /// server's own storage (a path, answered 201) or a bucket (a full address, answered 200).
    pub async fn upload(&self, token: &str, files: &[(&str, &str, &[u8])]) -> Value {
        let declared: Vec<Value> =
            files.iter().map(|(id, name, bytes)| json!({"id": id, "name": name, "size": bytes.len()})).collect();
        let (status, init) =
            self.post("/api/upload/init", token, json!({"source": "needldrive", "files": declared})).await;
        assert_eq!(status, StatusCode::OK, "{init}");
        for (config, (_, _, bytes)) in init["upload_configs"].as_array().unwrap().iter().zip(files) {
            let link = config["upload_link"].as_str().unwrap();
            if link.starts_with("http") {
                let res = self.client.put(link).body(bytes.to_vec()).send().await.unwrap();
                assert!(res.status().is_success(), "{}", res.text().await.unwrap());
            } else {
                let res = self.client.put(self.url(link)).body(bytes.to_vec()).send().await.unwrap();
                assert_eq!(res.status(), StatusCode::CREATED, "{}", res.text().await.unwrap());
            }
        }
        init
    }

    /// Polls the status of `ids` until none is PROCESSING (or 30 s pass).
    pub async fn settled_uploads(&self, token: &str, ids: &[&str]) -> Vec<Value> {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
        loop {
            let (_, body) = self.get(&format!("/api/upload/status?ids={}", ids.join(",")), token).await;
            let results = body["results"].as_array().cloned().unwrap_or_default();
            if results.iter().all(|r| r["status"] != "PROCESSING" && r["status"] != "UPLOADING")
                || tokio::time::Instant::now() > deadline
            {
                return results;
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }
}

/// The body that reports every file of an upload's `init` answer as sent.
pub fn complete_body(init: &Value) -> Value {
    let files: Vec<Value> = init["upload_configs"].as_array().unwrap().iter().map(|c| json!({
        "bucket": c["metadata_fields"]["bucket"], "key": c["metadata_fields"]["key"], "metadata": {"id": c["id"]},
    })).collect();
    json!({"source": "needldrive", "files": files})
}

/// Percent-encodes `s` for a query string.
pub fn urlencode(s: &str) -> String {
    s.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

/// Creates a tag for the session's user; returns its id.
pub async fn create_tag(app: &TestApp, token: &str, name: &str) -> String {
    let (status, body) = app.post("/api/tag", token, json!({"tag": name})).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body["results"]["id"].as_str().unwrap().to_string()
}

/// The names of a tag list (`[{id, name}]`).
pub fn names_of(tags: &Value) -> Vec<String> {
    tags.as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap().to_string()).collect()
}

/// The deeplinks of a document page.
pub fn deeplinks_of(page: &Value) -> Vec<String> {
    page["results"].as_array().unwrap().iter().map(|d| d["deeplink"].as_str().unwrap().to_string()).collect()
}

/// Follows an RSS feed and ingests documents into it; returns the source id.
pub async fn followed_source_with(app: &TestApp, token: &str, url: &str, deeplinks: &[&str]) -> String {
    let (status, source) = app.post("/api/connect/rss", token, json!({"url": url})).await;
    assert_eq!(status, StatusCode::OK, "{source}");
    let source_id = source["source_id"].as_str().unwrap().to_string();
    for deeplink in deeplinks {
        ingest(app, deeplink, &source_id, &format!("Title of {deeplink}"), None).await;
    }
    source_id
}

/// A rich-text document (Tiptap's JSON) with one paragraph of `text`.
pub fn doc(text: &str) -> Value {
    json!({"type": "doc", "content": [{"type": "paragraph", "content": [{"type": "text", "text": text}]}]})
}

/// Creates a notebook for the session's user; returns its id.
pub async fn create_notebook(app: &TestApp, token: &str, name: &str) -> String {
    let (status, body) = app.put("/api/notebook", token, json!({"name": name})).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body["results"]["notebookId"].as_str().unwrap().to_string()
}

/// Creates a note in a notebook; returns the note as answered.
pub async fn create_note(app: &TestApp, token: &str, notebook_id: &str, name: &str, body: Value) -> Value {
    let path = format!("/api/note/create/{notebook_id}");
    let (status, note) = app.put(&path, token, json!({"name": name, "body": body})).await;
    assert_eq!(status, StatusCode::OK, "{note}");
    note["results"].clone()
}

/// The ids of the events of one aggregate, by type.
pub async fn event_types(app: &TestApp, aggregate_type: &str, id: &str) -> Vec<String> {
    commands::feed::read_aggregate(&app.server.state.db, aggregate_type, id)
        .await
        .unwrap()
        .into_iter()
        .map(|e| e.event_type)
        .collect()
}

/// Creates a channel as the session's user with `members` (user ids); returns its id.
pub async fn create_channel(app: &TestApp, token: &str, name: &str, members: &[&str]) -> String {
    let (status, body) = app.post("/api/channels", token, json!({"name": name, "members": members})).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body["channel"]["id"].as_str().unwrap().to_string()
}

/// Records a document with real text (its blob stored where the index reads it) and waits until
/// the search index includes it.
pub async fn ingest_text(app: &TestApp, deeplink: &str, source_id: &str, title: &str, text: &str, owner: Option<&str>) {
    use sha2::Digest;
    let hash = hex::encode(sha2::Sha256::digest(text.as_bytes()));
    app.server.state.blobs.put(&hash, text).await.unwrap();
    let cursor =
        record_document(app, deeplink, source_id, title, hash, owner).await.expect("a new document is an event");
    assert!(app.server.state.search.wait_for(cursor, Duration::from_secs(20)).await, "the index caught up");
}

/// Follows a feed by URL (not fetched in tests) and returns its source id.
pub async fn follow_feed(app: &TestApp, token: &str, url: &str) -> String {
    let (status, source) = app.post("/api/connect/rss", token, json!({ "url": url })).await;
    assert_eq!(status, StatusCode::OK, "{source}");
    source["source_id"].as_str().unwrap().to_string()
}

/// The test server's settings with the embedding model, when `scripts/setup` fetched it.
pub fn with_model() -> Option<ServeArgs> {
    let Some(dir) = embed::locate(None) else {
        eprintln!("SKIPPED: no embedding model (run scripts/setup, or set NEEDL_EMBEDDING_MODEL)");
        return None;
    };
    Some(ServeArgs { embedding_model: Some(dir), no_embedding_model: false, ..ServeArgs::for_tests() })
}

/// Waits until the server has embedded and stored each of `deeplinks`.
pub async fn wait_for_vectors(app: &TestApp, deeplinks: &[&str]) {
    let semantic = app.server.state.semantic.clone().expect("the server loaded the model");
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    while deeplinks.iter().any(|d| semantic.vector(d).is_none()) {
        assert!(tokio::time::Instant::now() < deadline, "documents were not embedded in time");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// A local S3 server (moto) holding an empty `bucket`, or `None`, said on stderr, where moto is
/// not installed (the test then skips).
pub async fn moto_with_bucket(bucket: &str) -> Option<testkit::s3::Moto> {
    let Some(s3) = testkit::s3::Moto::start().await else {
        eprintln!("skipped: moto_server (pip install 'moto[server]') is not installed");
        return None;
    };
    // moto takes any credentials; the bucket is made with a plain request.
    let made = reqwest::Client::new().put(format!("{}/{bucket}", s3.endpoint())).send().await.unwrap();
    assert!(made.status().is_success(), "moto made the bucket {bucket}");
    Some(s3)
}
