//! The EDGAR client against a local server: the declared User-Agent, the node-wide rate, and the
//! pause for everyone after a 429 or 503.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::routing::get;
use axum::Router;
use ingest::edgar::{EdgarClient, EdgarConfig, EdgarError};

use crate::support::{serve, url};

fn config(base: std::net::SocketAddr) -> EdgarConfig {
    EdgarConfig {
        base: url(base, "/"),
        allow: vec!["127.0.0.1/32".parse().unwrap()],
        first_backoff: Duration::from_millis(200),
        ..EdgarConfig::new("Research Desk ops@example.com")
    }
}

#[derive(Default)]
struct Seen {
    agents: Mutex<Vec<String>>,
    times: Mutex<Vec<Instant>>,
    refusals_left: AtomicUsize,
}

async fn answer(State(seen): State<Arc<Seen>>, headers: HeaderMap) -> (StatusCode, &'static str) {
    let agent = headers.get("user-agent").and_then(|v| v.to_str().ok()).unwrap_or_default().to_string();
    seen.agents.lock().unwrap().push(agent);
    seen.times.lock().unwrap().push(Instant::now());
    let refuse = seen.refusals_left.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1)).is_ok();
    if refuse {
        (StatusCode::TOO_MANY_REQUESTS, "slow down")
    } else {
        (StatusCode::OK, "{}")
    }
}

async fn server(refusals: usize) -> (std::net::SocketAddr, Arc<Seen>) {
    let seen = Arc::new(Seen { refusals_left: AtomicUsize::new(refusals), ..Seen::default() });
    let router = Router::new().route("/files/company_tickers.json", get(answer)).with_state(seen.clone());
    (serve(router).await, seen)
}

#[tokio::test]
async fn every_request_declares_the_operators_contact() {
    let (addr, seen) = server(0).await;
    let client = EdgarClient::new(config(addr)).unwrap();
    client.get(&client.company_list_url()).await.unwrap();
    let agents = seen.agents.lock().unwrap().clone();
    assert_eq!(agents.len(), 1);
    assert!(agents[0].starts_with("Needl/") && agents[0].ends_with("Research Desk ops@example.com"), "{agents:?}");
}

#[tokio::test]
async fn a_client_without_a_contact_address_is_refused() {
    for contact in ["", "   ", "Research Desk"] {
        let refused = EdgarClient::new(EdgarConfig::new(contact)).err();
        assert_eq!(refused, Some(EdgarError::NoContact), "{contact:?}");
    }
}

#[tokio::test]
async fn concurrent_followers_share_one_rate() {
    let (addr, seen) = server(0).await;
    let client = Arc::new(EdgarClient::new(EdgarConfig { requests_per_second: 20, ..config(addr) }).unwrap());
    let started = Instant::now();
    let tasks: Vec<_> = (0..21)
        .map(|_| {
            let client = client.clone();
            tokio::spawn(async move { client.get(&client.company_list_url()).await.map(|_| ()) })
        })
        .collect();
    for task in tasks {
        task.await.unwrap().unwrap();
    }
    // 21 requests at 20 a second: the last leaves a second after the first, whoever sends them.
    assert!(started.elapsed() >= Duration::from_millis(990), "{:?}", started.elapsed());
    let times = seen.times.lock().unwrap().clone();
    let busiest =
        times.iter().map(|t| times.iter().filter(|u| **u >= *t && **u < *t + Duration::from_millis(500)).count());
    assert!(busiest.max().unwrap() <= 11, "more than 20 a second reached the server");
}

#[tokio::test]
async fn a_429_pauses_and_doubles_then_the_request_succeeds() {
    let (addr, seen) = server(2).await;
    let client = EdgarClient::new(config(addr)).unwrap();
    let started = Instant::now();
    client.get(&client.company_list_url()).await.unwrap();
    // Paused 200 ms, then 400 ms.
    assert!(started.elapsed() >= Duration::from_millis(600), "{:?}", started.elapsed());
    let times = seen.times.lock().unwrap().clone();
    assert_eq!(times.len(), 3);
    assert!(times[2] - times[1] >= (times[1] - times[0]) + Duration::from_millis(150), "{times:?}");
}

#[tokio::test]
async fn a_server_that_keeps_refusing_fails_the_fetch_as_throttled() {
    let (addr, seen) = server(usize::MAX).await;
    let client =
        EdgarClient::new(EdgarConfig { max_retries: 2, first_backoff: Duration::from_millis(20), ..config(addr) })
            .unwrap();
    let error = client.get(&client.company_list_url()).await.unwrap_err();
    assert_eq!(error, EdgarError::Throttled { status: 429, tries: 3 });
    assert!(error.is_transient());
    assert_eq!(seen.times.lock().unwrap().len(), 3);
}
