//! `needl-bench --only filings`: companies followed on SEC EDGAR, against a local server that
//! answers as EDGAR does (`testkit::edgar`: company list, Atom feeds, filing indexes,
//! inline-XBRL documents).
//! Prints figures; passes or fails nothing.
//!
//! - **Filings ingested per minute**: companies followed through the API, from the first follow
//!   to every filing being a document, with the node's request cap (10 a second) and the busiest
//!   second the local EDGAR saw.
//! - **Filing to searchable**: a new filing added to a followed company's feed (and to EDGAR's
//!   latest filings) at a random moment of the check interval, until a search finds a word only it
//!   holds; at the default check interval, printed beside it.
//!
//! ```sh
//! cargo build --release -p bench && ./target/release/needl-bench --data-dir /tmp/b --only filings
//! ```

use std::path::Path;
use std::time::{Duration, Instant};

use api::app::Server;
use api::config::ServeArgs;
use commands::Db;
use reqwest::Method;
use serde_json::json;
use testkit::edgar::{FakeCompany, FakeEdgar, FakeFiling};

use crate::client::Api;

fn cik_of(i: usize) -> u64 {
    1_000_100 + i as u64
}

pub async fn run(data_dir: &Path, quick: bool) -> anyhow::Result<()> {
    let (companies, per_company, samples) = if quick { (4, 5, 2) } else { (20, 15, 10) };
    let edgar = FakeEdgar::start(
        (0..companies)
            .map(|i| {
                let cik = cik_of(i);
                let filings = (0..per_company).map(|n| FakeFiling::numbered(cik, n)).collect();
                FakeCompany::new(cik, &format!("BCH{i}"), &format!("BENCH COMPANY {i} INC"), filings)
            })
            .collect(),
    )
    .await;
    let dir = data_dir.join(format!("bench-filings-{}", uuid::Uuid::new_v4().simple()));
    std::fs::create_dir_all(&dir)?;
    let defaults = ServeArgs::for_tests();
    let config = ServeArgs {
        fetch_enabled: true,
        fetch_allow: vec!["127.0.0.1".into()],
        edgar_contact: Some("Needl bench bench@example.com".into()),
        edgar_url: edgar.url(),
        ..defaults
    };
    let interval = config.edgar_poll_seconds;
    let cap = config.edgar_requests_per_second;
    let db = Db::open_sqlite(&dir).await?;
    let server = Server::start_with(db, &dir, config).await?;
    let result = measure(&server, &edgar, companies, per_company, samples, interval).await;
    server.stop().await?;
    let _ = std::fs::remove_dir_all(&dir);
    let (per_minute, took, busiest, latencies) = result?;
    println!(
        "  filings ingested: {} from {companies} companies in {:.1} s, {per_minute:.0} filings/min \
         (cap {cap} requests/s per node; busiest second at the local EDGAR: {busiest} requests; sqlite)",
        companies * per_company,
        took.as_secs_f64()
    );
    let mut sorted = latencies.clone();
    sorted.sort();
    let median = sorted.get(sorted.len() / 2).copied().unwrap_or_default();
    let worst = sorted.last().copied().unwrap_or_default();
    println!(
        "  filing to searchable at the default check interval ({interval} s): median {:.1} s, worst {:.1} s \
         over {} filings (goal: under 60 s)",
        median.as_secs_f64(),
        worst.as_secs_f64(),
        sorted.len()
    );
    Ok(())
}

type Measured = (f64, Duration, usize, Vec<Duration>);

async fn measure(
    server: &Server,
    edgar: &FakeEdgar,
    companies: usize,
    per_company: usize,
    samples: usize,
    interval: u64,
) -> anyhow::Result<Measured> {
    let api = Api::new(format!("http://{}", server.addr));
    let token = api.sign_up("filings", "filings bench: amber lantern 42").await?;
    let t = Some(token.as_str());
    let started = Instant::now();
    for i in 0..companies {
        api.call(Method::POST, "/connect/edgar", t, json!({"company": format!("BCH{i}")})).await?;
    }
    let want = (companies * per_company) as i64;
    let deadline = Instant::now() + Duration::from_secs(600);
    loop {
        let overview = api.call(Method::GET, "/connect/edgar", t, json!(null)).await?;
        let got: i64 =
            overview["companies"].as_array().map_or(0, |c| c.iter().filter_map(|c| c["filings"].as_i64()).sum());
        if got >= want {
            break;
        }
        anyhow::ensure!(Instant::now() < deadline, "only {got} of {want} filings arrived in 10 minutes: {overview}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let took = started.elapsed();
    let per_minute = want as f64 / took.as_secs_f64() * 60.0;
    let busiest = edgar.busiest_second();
    let mut latencies = Vec::new();
    for n in 0..samples {
        // At a random moment of the check interval, as filings come: one published right after
        // the last was found would always wait the whole interval.
        let pause = rand::random::<f64>() * interval as f64;
        tokio::time::sleep(Duration::from_secs_f64(pause)).await;
        let cik = cik_of(n % companies);
        let filing = FakeFiling::numbered(cik, 1000 + n);
        edgar.publish(cik, filing.clone());
        let published = Instant::now();
        let deadline = published + Duration::from_secs(300);
        loop {
            let found = api.call(Method::POST, "/search", t, json!({"q": filing.marker, "num_docs": 1})).await?;
            if found["count"].as_u64().unwrap_or(0) > 0 {
                latencies.push(published.elapsed());
                break;
            }
            anyhow::ensure!(Instant::now() < deadline, "filing {} never became searchable", filing.accession);
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }
    Ok((per_minute, took, busiest, latencies))
}
