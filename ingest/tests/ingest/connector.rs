use std::path::PathBuf;
use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use ingest::{
    Connector, FeedConnector, FeedError, FetchOutcome, FetchState, IngestError, SourceDef, SourceKind, WebConnector,
};

use crate::support::{local_fetcher, serve, shared_data, url};

fn items(outcome: FetchOutcome) -> (Vec<ingest::IngestedItem>, FetchState) {
    match outcome {
        FetchOutcome::Fetched { items, state, .. } => (items, state),
        FetchOutcome::NotModified => panic!("expected items"),
    }
}

/// Serves files under `root` with an ETag, answering 304 to a matching If-None-Match.
async fn file(State(root): State<PathBuf>, Path(path): Path<String>, headers: HeaderMap) -> Response {
    if path.contains("..") {
        return StatusCode::BAD_REQUEST.into_response();
    }
    let Ok(bytes) = std::fs::read(root.join(&path)) else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let etag = format!("\"{}-{}\"", bytes.len(), bytes.iter().map(|b| *b as u64).sum::<u64>());
    if headers.get(header::IF_NONE_MATCH).is_some_and(|v| v.as_bytes() == etag.as_bytes()) {
        return StatusCode::NOT_MODIFIED.into_response();
    }
    ([(header::ETAG, etag)], bytes).into_response()
}

#[tokio::test]
async fn the_feed_connector_reads_real_feed_files_over_http_then_gets_not_modified() {
    let Some(data) = shared_data() else { return };
    let addr = serve(Router::new().route("/{*path}", get(file)).with_state(data.join("feeds"))).await;
    let mut connector = FeedConnector::new(Arc::new(local_fetcher()));
    // Real feeds link to real sites; this test stays on 127.0.0.1.
    connector.max_articles = 0;
    let mut total = 0;
    for format in ["rss2", "rss1", "atom", "jsonfeed"] {
        for path in crate::support::files_in(&data.join("feeds").join(format)) {
            let name = format!("{format}/{}", path.file_name().unwrap().to_string_lossy());
            let source = SourceDef { key: "real".into(), kind: SourceKind::Feed, url: url(addr, &format!("/{name}")) };
            let (items, state) =
                items(connector.fetch(&source, &FetchState::default()).await.unwrap_or_else(|e| panic!("{name}: {e}")));
            assert!(!items.is_empty(), "{name}");
            assert!(state.etag.is_some());
            total += items.len();
            let again = connector.fetch(&source, &state).await.unwrap();
            assert_eq!(again, FetchOutcome::NotModified, "{name}");
        }
    }
    println!("served feeds: {total} items");
}

const ARTICLE_PARA: &str = "Shares of the company rose after it reported quarterly revenue above analyst estimates and raised its guidance for the full year. ";

#[tokio::test]
async fn the_feed_connector_fills_full_text_from_linked_articles() {
    let app = Router::new()
        .route(
            "/feed",
            get(|| async {
                "<rss version=\"2.0\"><channel><title>t</title>\
                 <item><guid>a</guid><title>Results</title><link>/article</link><description>Short teaser.</description></item>\
                 <item><guid>b</guid><title>Missing</title><link>/missing</link><description>Gone.</description></item>\
                 </channel></rss>"
            }),
        )
        .route(
            "/article",
            get(|| async {
                Html(format!(
                    "<html><head><title>Results</title></head><body><nav><a href='/'>Home</a> <a href='/login'>Log in</a></nav>\
                     <article><p>{0}</p><p>{0}</p><p>{0}</p></article></body></html>",
                    ARTICLE_PARA
                ))
            }),
        );
    let addr = serve(app).await;
    let connector = FeedConnector::new(Arc::new(local_fetcher()));
    let source = SourceDef { key: "k".into(), kind: SourceKind::Feed, url: url(addr, "/feed") };
    let (items, _) = items(connector.fetch(&source, &FetchState::default()).await.unwrap());
    let text = items[0].full_text.as_deref().expect("full text from the article");
    assert!(text.contains("quarterly revenue above analyst estimates"), "{text}");
    assert!(!text.contains("Log in"));
    assert_eq!(items[0].summary.as_deref(), Some("Short teaser."));
    assert_eq!(items[1].full_text, None, "a missing article leaves the item as the feed gave it");
}

#[tokio::test]
async fn the_web_connector_follows_a_site_through_its_advertised_feed() {
    let app = Router::new()
        .route(
            "/",
            get(|| async {
                Html("<html><head><link rel='alternate' type='application/atom+xml' href='/broken.xml'>\
                      <link rel='alternate' type='application/rss+xml' href='feed.xml'></head><body>Home</body></html>")
            }),
        )
        .route("/broken.xml", get(|| async { StatusCode::INTERNAL_SERVER_ERROR }))
        .route(
            "/feed.xml",
            get(|| async {
                ([(header::ETAG, "\"f1\"")], "<rss version=\"2.0\"><channel><title>t</title><item><guid>1</guid><title>From the feed</title><link>/p/1</link></item></channel></rss>")
            }),
        );
    let addr = serve(app).await;
    let mut connector = WebConnector::new(Arc::new(local_fetcher()));
    connector.feeds.max_articles = 0;
    let source = SourceDef { key: "websitecrawl".into(), kind: SourceKind::Website, url: url(addr, "/") };
    let (items, state) = items(connector.fetch(&source, &FetchState::default()).await.unwrap());
    assert_eq!(items.len(), 1);
    assert_eq!(items[0].title.as_deref(), Some("From the feed"));
    assert_eq!(items[0].link.as_ref().unwrap().as_str(), format!("http://{addr}/p/1"));
    assert_eq!(items[0].source_key, "websitecrawl");
    assert_eq!(state.etag.as_deref(), Some("\"f1\""));
}

#[tokio::test]
async fn the_web_connector_crawls_a_site_without_feeds() {
    let page = |title: &'static str, links: &'static str| {
        move || async move {
            Html(format!("<html><head><title>{title}</title></head><body><h1>{title}</h1><p>Text of {title} about earnings.</p>{links}</body></html>"))
        }
    };
    let app = Router::new()
        .route("/", get(page("Home", "<a href='/one'>one</a> <a href='/two'>two</a>")))
        .route("/one", get(page("One", "")))
        .route("/two", get(page("Two", "")));
    let addr = serve(app).await;
    let connector = WebConnector::new(Arc::new(local_fetcher()));
    let source = SourceDef { key: "websitecrawl".into(), kind: SourceKind::Website, url: url(addr, "/") };
    let (items, _) = items(connector.fetch(&source, &FetchState::default()).await.unwrap());
    let mut guids: Vec<&str> = items.iter().map(|i| i.guid.as_str()).collect();
    guids.sort();
    assert_eq!(guids, vec![format!("http://{addr}/"), format!("http://{addr}/one"), format!("http://{addr}/two")]);
    assert!(items.iter().all(|i| i.full_text.as_deref().is_some_and(|t| t.contains("about earnings"))));
}

#[tokio::test]
async fn a_source_that_fails_says_what_is_wrong() {
    let app = Router::new()
        .route("/page", get(|| async { Html("<html><body><p>I am not a feed</p></body></html>") }))
        .route("/gone", get(|| async { StatusCode::GONE }));
    let addr = serve(app).await;
    let connector = FeedConnector::new(Arc::new(local_fetcher()));
    let source = |path: &str| SourceDef { key: "k".into(), kind: SourceKind::Feed, url: url(addr, path) };
    let err = connector.fetch(&source("/page"), &FetchState::default()).await.unwrap_err();
    assert!(matches!(&err, IngestError::Feed { reason: FeedError::HtmlPage, .. }), "{err:?}");
    assert_eq!(err.to_string(), format!("http://{addr}/page is not a feed: the document is an HTML page, not a feed"));
    let err = connector.fetch(&source("/gone"), &FetchState::default()).await.unwrap_err();
    assert_eq!(err.to_string(), format!("could not fetch http://{addr}/gone: the server answered 410"));
    // The reason is in the message, not chained after it: a chain printed whole (a feed's last
    // error) says it once.
    assert!(std::error::Error::source(&err).is_none());
    let website = SourceDef { key: "w".into(), kind: SourceKind::Website, url: url(addr, "/page") };
    assert!(matches!(connector.fetch(&website, &FetchState::default()).await, Err(IngestError::WrongKind { .. })));
}
