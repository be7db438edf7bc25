use std::convert::Infallible;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::{Body, Bytes};
use axum::extract::Path;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::get;
use axum::Router;
use ingest::fetch::BlockReason;
use ingest::{FetchError, FetchPolicy, FetchResponse, FetchState, Fetcher};

use crate::support::{local_fetcher, local_policy, serve, serve_on, url};

const FEED: &str =
    "<rss version=\"2.0\"><channel><title>t</title><item><guid>1</guid><title>a</title></item></channel></rss>";

fn fetched(r: Result<FetchResponse, FetchError>) -> ingest::Fetched {
    match r {
        Ok(FetchResponse::Fetched(f)) => f,
        other => panic!("expected a body, got {other:?}"),
    }
}

#[tokio::test]
async fn a_304_answer_is_reported_as_not_modified() {
    async fn feed(headers: HeaderMap) -> Response {
        let etag = "\"v1\"";
        let lm = "Wed, 21 Oct 2015 07:28:00 GMT";
        if headers.get(header::IF_NONE_MATCH).is_some_and(|v| v == etag) {
            return StatusCode::NOT_MODIFIED.into_response();
        }
        ([(header::ETAG, etag), (header::LAST_MODIFIED, lm), (header::CONTENT_TYPE, "application/rss+xml")], FEED)
            .into_response()
    }
    let addr = serve(Router::new().route("/feed", get(feed))).await;
    let fetcher = local_fetcher();
    let first = fetched(fetcher.get(&url(addr, "/feed"), &FetchState::default()).await);
    assert_eq!(first.body, FEED.as_bytes());
    assert_eq!(first.state.etag.as_deref(), Some("\"v1\""));
    assert_eq!(first.state.last_modified.as_deref(), Some("Wed, 21 Oct 2015 07:28:00 GMT"));
    let second = fetcher.get(&url(addr, "/feed"), &first.state).await.unwrap();
    assert!(matches!(second, FetchResponse::NotModified), "{second:?}");
    let stale = FetchState { etag: Some("\"v0\"".into()), last_modified: None };
    assert!(matches!(fetcher.get(&url(addr, "/feed"), &stale).await.unwrap(), FetchResponse::Fetched(_)));
}

#[tokio::test]
async fn a_direct_fetch_of_a_loopback_address_is_refused_without_the_allow_list() {
    let addr = serve(Router::new().route("/feed", get(|| async { FEED }))).await;
    let fetcher = Fetcher::new(FetchPolicy::default()).unwrap();
    let err = fetcher.get(&url(addr, "/feed"), &FetchState::default()).await.unwrap_err();
    assert!(matches!(err, FetchError::Blocked { reason: BlockReason::Loopback, .. }), "{err:?}");
    assert!(err.to_string().contains("loopback"), "{err}");
    // A name is checked after resolution.
    let by_name = url::Url::parse(&format!("http://localhost:{}/feed", addr.port())).unwrap();
    let err = fetcher.get(&by_name, &FetchState::default()).await.unwrap_err();
    assert!(matches!(err, FetchError::Blocked { reason: BlockReason::Loopback, .. }), "{err:?}");
    // Other schemes never go out.
    let file = url::Url::parse("file:///etc/passwd").unwrap();
    assert!(matches!(fetcher.get(&file, &FetchState::default()).await, Err(FetchError::InvalidUrl { .. })));
}

#[tokio::test]
async fn a_redirect_to_a_loopback_address_is_refused_unless_allow_listed() {
    let hidden = Arc::new(AtomicUsize::new(0));
    let counter = hidden.clone();
    let inner = serve_on(
        "127.0.0.2",
        Router::new().route(
            "/secret",
            get(move || {
                counter.fetch_add(1, Ordering::SeqCst);
                async { FEED }
            }),
        ),
    )
    .await;
    let target = format!("http://{inner}/secret");
    let outer = serve(Router::new().route("/go", get(move || async move { Redirect::temporary(&target) }))).await;

    let only_outer = local_fetcher();
    let err = only_outer.get(&url(outer, "/go"), &FetchState::default()).await.unwrap_err();
    assert!(
        matches!(err, FetchError::Blocked { addr, reason: BlockReason::Loopback, .. } if addr.to_string() == "127.0.0.2"),
        "{err:?}"
    );
    assert_eq!(hidden.load(Ordering::SeqCst), 0, "the refused host was never contacted");

    let both =
        Fetcher::new(FetchPolicy { allow: vec!["127.0.0.0/8".parse().unwrap()], ..FetchPolicy::default() }).unwrap();
    let ok = fetched(both.get(&url(outer, "/go"), &FetchState::default()).await);
    assert_eq!(ok.url.as_str(), format!("http://{inner}/secret"));
    assert_eq!(hidden.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn a_response_that_never_ends_stops_at_the_size_cap() {
    let endless = || async {
        let chunk = Bytes::from(vec![b'x'; 8192]);
        let stream = futures::stream::repeat_with(move || Ok::<_, Infallible>(chunk.clone()));
        ([(header::CONTENT_TYPE, "application/rss+xml")], Body::from_stream(stream))
    };
    let addr = serve(Router::new().route("/forever", get(endless))).await;
    let fetcher = Fetcher::new(FetchPolicy { max_body_bytes: 64 * 1024, ..local_policy() }).unwrap();
    let started = Instant::now();
    let err = fetcher.get(&url(addr, "/forever"), &FetchState::default()).await.unwrap_err();
    assert_eq!(err, FetchError::TooLarge { limit: 65536 });
    assert_eq!(err.to_string(), "response larger than 65536 bytes");
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[tokio::test]
async fn a_declared_oversized_body_is_refused_before_reading() {
    let addr = serve(Router::new().route("/big", get(|| async { "y".repeat(10_000) }))).await;
    let fetcher = Fetcher::new(FetchPolicy { max_body_bytes: 1000, ..local_policy() }).unwrap();
    let err = fetcher.get(&url(addr, "/big"), &FetchState::default()).await.unwrap_err();
    assert_eq!(err, FetchError::TooLarge { limit: 1000 });
}

#[tokio::test]
async fn a_slow_server_hits_the_time_cap() {
    let slow = || async {
        tokio::time::sleep(Duration::from_secs(20)).await;
        FEED
    };
    let trickle = || async {
        let stream = futures::stream::unfold(0u32, |n| async move {
            tokio::time::sleep(Duration::from_millis(100)).await;
            Some((Ok::<_, Infallible>(Bytes::from_static(b"<")), n + 1))
        });
        Body::from_stream(stream)
    };
    let addr = serve(Router::new().route("/slow", get(slow)).route("/trickle", get(trickle))).await;
    let fetcher = Fetcher::new(FetchPolicy { total_timeout: Duration::from_millis(400), ..local_policy() }).unwrap();
    for path in ["/slow", "/trickle"] {
        let started = Instant::now();
        let err = fetcher.get(&url(addr, path), &FetchState::default()).await.unwrap_err();
        assert!(matches!(err, FetchError::Timeout { .. }), "{path}: {err:?}");
        assert!(started.elapsed() < Duration::from_secs(3), "{path}: {:?}", started.elapsed());
        assert!(err.is_transient());
    }
}

#[tokio::test]
async fn too_many_redirects_are_refused() {
    let hop = |Path(n): Path<u32>| async move { Redirect::temporary(&format!("/hop/{}", n + 1)) };
    let addr = serve(Router::new().route("/hop/{n}", get(hop))).await;
    let fetcher = Fetcher::new(FetchPolicy { max_redirects: 3, ..local_policy() }).unwrap();
    let err = fetcher.get(&url(addr, "/hop/0"), &FetchState::default()).await.unwrap_err();
    assert_eq!(err, FetchError::TooManyRedirects { max: 3 });
    assert_eq!(err.to_string(), "more than 3 redirects");

    let three = |Path(n): Path<u32>| async move {
        if n < 3 {
            Redirect::temporary(&format!("/three/{}", n + 1)).into_response()
        } else {
            FEED.into_response()
        }
    };
    let addr = serve(Router::new().route("/three/{n}", get(three))).await;
    let ok = fetched(fetcher.get(&url(addr, "/three/0"), &FetchState::default()).await);
    assert!(ok.url.path().ends_with("/three/3"));
}

#[tokio::test]
async fn the_per_host_limit_bounds_concurrent_requests() {
    let in_flight = Arc::new(AtomicUsize::new(0));
    let peak = Arc::new(AtomicUsize::new(0));
    let (f, p) = (in_flight.clone(), peak.clone());
    let handler = move || {
        let (f, p) = (f.clone(), p.clone());
        async move {
            let now = f.fetch_add(1, Ordering::SeqCst) + 1;
            p.fetch_max(now, Ordering::SeqCst);
            tokio::time::sleep(Duration::from_millis(150)).await;
            f.fetch_sub(1, Ordering::SeqCst);
            FEED
        }
    };
    let addr = serve(Router::new().route("/feed", get(handler))).await;
    let fetcher = Arc::new(Fetcher::new(FetchPolicy { per_host_concurrency: 2, ..local_policy() }).unwrap());
    let tasks: Vec<_> = (0..8)
        .map(|_| {
            let fetcher = fetcher.clone();
            tokio::spawn(async move { fetcher.get(&url(addr, "/feed"), &FetchState::default()).await.is_ok() })
        })
        .collect();
    for t in tasks {
        assert!(t.await.unwrap());
    }
    let peak = peak.load(Ordering::SeqCst);
    assert!(peak <= 2, "peak {peak} over the limit");
    assert_eq!(peak, 2, "the limit is used, not undershot");
}

#[tokio::test]
async fn an_error_status_is_reported_with_its_code() {
    let addr = serve(Router::new().route("/gone", get(|| async { StatusCode::NOT_FOUND }))).await;
    let err = local_fetcher().get(&url(addr, "/gone"), &FetchState::default()).await.unwrap_err();
    assert_eq!(err, FetchError::Status { status: 404 });
    assert_eq!(err.to_string(), "the server answered 404");
    assert!(!err.is_transient());
}

#[test]
fn an_address_is_judged_from_the_url_alone_when_its_host_is_a_literal_or_localhost() {
    use ingest::fetch::{check_url, AddressGuard};
    let none = AddressGuard::default();
    let loopback_allowed = AddressGuard::new(vec!["127.0.0.1/32".parse().unwrap()]);
    let judged = |raw: &str, guard: &AddressGuard| check_url(&url::Url::parse(raw).unwrap(), guard);
    for (raw, reason) in [
        ("http://127.0.0.1:8080/feed", BlockReason::Loopback),
        ("http://[::1]/feed", BlockReason::Loopback),
        ("http://localhost/feed", BlockReason::Loopback),
        ("http://LOCALHOST./feed", BlockReason::Loopback),
        ("http://feeds.localhost/feed", BlockReason::Loopback),
        ("http://10.0.0.7/feed", BlockReason::Private),
        ("http://169.254.169.254/latest", BlockReason::Metadata),
        ("http://0x7f000001/feed", BlockReason::Loopback),
    ] {
        match judged(raw, &none) {
            Err(FetchError::Blocked { reason: got, .. }) => assert_eq!(got, reason, "{raw}"),
            other => panic!("{raw}: {other:?}"),
        }
    }
    assert_eq!(judged("http://127.0.0.1:8080/feed", &loopback_allowed), Ok(()));
    assert_eq!(judged("http://localhost/feed", &loopback_allowed), Ok(()));
    assert!(judged("http://10.0.0.7/feed", &loopback_allowed).is_err());
    // A name other than localhost is known only once resolved.
    assert_eq!(judged("https://news.example.org/feed", &none), Ok(()));
    assert!(matches!(judged("ftp://example.org/f", &none), Err(FetchError::InvalidUrl { .. })));
}
