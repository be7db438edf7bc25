//! Part of `needl-bench --only feeds`: how long a new match takes to reach its feed's owner. A
//! server in this process (SQLite), one user following one source, a keyword feed that alerts at
//! once (HIGH); documents that match are ingested one at a time (the ingestion command, as the
//! fetcher records them), and each is timed from the command to (a) the `BoardMatched` message on
//! the owner's live socket and (b) its `feed_match` notification in the bell
//! (`GET /api/notifications`, polled every 10 ms). p50, p95 and max; goal p95 ≤ 5 s. Run without
//! the embedding model, then with it when `scripts/setup` fetched it (each batch is embedded
//! before it is matched, so the model's cost is in the path).

use std::path::Path;
use std::time::{Duration, Instant};

use api::app::Server;
use api::config::ServeArgs;
use commands::Db;
use domain::document::{DocumentCommand, DocumentFields};
use domain::EventMetadata;
use futures::{SinkExt, StreamExt};
use serde_json::{json, Value};
use sha2::Digest;
use tokio_tungstenite::tungstenite::Message;

use crate::client::Api;

pub async fn run(data_dir: &Path, quick: bool) -> anyhow::Result<()> {
    let n = if quick { 20 } else { 100 };
    let mut configs = vec![("without the model", ServeArgs::for_tests())];
    if let Some(dir) = embed::locate(None) {
        configs.push((
            "with the model",
            ServeArgs { embedding_model: Some(dir), no_embedding_model: false, ..ServeArgs::for_tests() },
        ));
    }
    for (name, config) in configs {
        let dir = data_dir.join(format!("bench-alerts-{}", uuid::Uuid::new_v4().simple()));
        std::fs::create_dir_all(&dir)?;
        let db = Db::open_sqlite(&dir).await?;
        let server = Server::start_with(db, &dir, config).await?;
        let result = measure(&server, &dir, n).await;
        server.stop().await?;
        let _ = std::fs::remove_dir_all(&dir);
        println!("  alert latency, {name} ({n} matches one at a time, sqlite): {}", result?);
    }
    Ok(())
}

async fn measure(server: &Server, dir: &Path, n: usize) -> anyhow::Result<String> {
    use reqwest::Method;
    let api = Api::new(format!("http://{}", server.addr));
    let token = api.sign_up("alerts", "alert bench: plum kettle orbit 97").await?;
    let t = Some(token.as_str());
    let source = api.call(Method::POST, "/connect/rss", t, json!({"url": "https://example.com/rates.xml"})).await?;
    let source = source["source_id"].as_str().unwrap_or_default().to_string();
    let definition = json!({"name": "Inflation", "keywords": {"include": [{"keyword": "inflation", "valid": true}]}});
    let board = api.call(Method::POST, "/boards/v2", t, json!({"definition": definition})).await?;
    let board_id = board["results"]["board_id"].as_str().unwrap_or_default().to_string();
    api.call(Method::PUT, &format!("/boards/{board_id}/alerts"), t, json!({"alerts": "immediate", "priority": "HIGH"}))
        .await?;
    let socket = crate::client::open_live(&format!("ws://{}/api/live?token={token}", server.addr)).await?;
    let (mut write, mut read) = socket.split();
    let blobs = service::ingestion::BlobStore::new(dir.join("blobs"));
    let bus = server.state.bus.clone();
    let (mut socket_ms, mut bell_ms) = (Vec::new(), Vec::new());
    for i in 0..n {
        let deeplink = format!("alert-{i}");
        let text = format!(
            "Inflation report {i}: consumer prices rose 0.{i} per cent in the month, the statistics office said."
        );
        let hash = hex::encode(sha2::Sha256::digest(text.as_bytes()));
        blobs.put(&hash, &text).await?;
        let fields = DocumentFields {
            source_id: source.clone(),
            guid: deeplink.clone(),
            title: format!("Inflation update {i}"),
            content_hash: hash,
            ..Default::default()
        };
        let started = Instant::now();
        bus.execute(
            &bus.documents,
            &deeplink,
            DocumentCommand::Ingest(fields),
            &EventMetadata::system("bench", "alerts"),
        )
        .await?;
        // (a) the live socket.
        let deadline = started + Duration::from_secs(60);
        loop {
            let message = tokio::time::timeout_at(deadline.into(), read.next())
                .await
                .map_err(|_| anyhow::anyhow!("no BoardMatched for {deeplink} within 60 s"))?;
            match message {
                Some(Ok(Message::Text(text))) => {
                    let event: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
                    if event["type"] == "BoardMatched" {
                        break;
                    }
                }
                Some(Ok(Message::Ping(data))) => write.send(Message::Pong(data)).await?,
                Some(Ok(_)) => {}
                _ => anyhow::bail!("the live socket closed"),
            }
        }
        socket_ms.push(started.elapsed().as_secs_f64() * 1000.0);
        // (b) the bell.
        loop {
            let bell = api.call(Method::GET, "/notifications?page=0", t, Value::Null).await?;
            let listed = bell["results"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|n| n["document"]["deeplink"] == deeplink.as_str());
            if listed {
                break;
            }
            anyhow::ensure!(Instant::now() < deadline, "no notification for {deeplink} within 60 s");
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        bell_ms.push(started.elapsed().as_secs_f64() * 1000.0);
    }
    Ok(format!("live socket {}; bell {} (goal: p95 <= 5000 ms)", spread(&mut socket_ms), spread(&mut bell_ms)))
}

fn spread(ms: &mut [f64]) -> String {
    ms.sort_by(f64::total_cmp);
    let at = |q: f64| ms[((ms.len() - 1) as f64 * q).round() as usize];
    format!("p50 {:.0} ms, p95 {:.0} ms, max {:.0} ms", at(0.5), at(0.95), at(1.0))
}
