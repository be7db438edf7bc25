//! `needl-bench --only store`: command throughput against plain inserts, feed-to-projection lag
//! under a steady load, and commit-to-WebSocket delivery with many sockets. Prints figures; passes
//! or fails nothing.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use api::app::Server;
use api::config::ServeArgs;
use commands::feed::{Cursor, FeedSignal};
use commands::{args, CommandBus, Db};
use domain::session::SessionCommand;
use domain::user::UserCommand;
use domain::EventMetadata;
use hdrhistogram::Histogram;
use projections::Projections;

pub struct Scale {
    commands: usize,
    lag_seconds: u64,
    sockets: usize,
    pushes: usize,
}

impl Scale {
    pub fn new(quick: bool) -> Self {
        if quick {
            Scale { commands: 400, lag_seconds: 3, sockets: 200, pushes: 40 }
        } else {
            Scale { commands: 3000, lag_seconds: 10, sockets: 1000, pushes: 200 }
        }
    }
}

fn meta() -> EventMetadata {
    EventMetadata::system("bench", uuid::Uuid::new_v4().to_string())
}

fn ms(h: &Histogram<u64>, q: f64) -> f64 {
    h.value_at_quantile(q) as f64 / 1000.0
}

pub async fn measure(backend: &str, db: Db, dir: &std::path::Path, scale: &Scale) -> anyhow::Result<()> {
    println!("\n[{backend}]");
    db.execute(
        "CREATE TABLE bench_rows (aggregate_type TEXT NOT NULL, aggregate_id TEXT NOT NULL, sequence BIGINT NOT NULL, \
         event_type TEXT NOT NULL, event_version TEXT NOT NULL, payload TEXT NOT NULL, metadata TEXT NOT NULL, \
         PRIMARY KEY (aggregate_type, aggregate_id, sequence))",
        vec![],
    )
    .await?;
    let bus = Arc::new(CommandBus::new(db.clone(), FeedSignal::default()));
    for clients in [1usize, 16] {
        let started = Instant::now();
        run_clients(clients, scale.commands, {
            let bus = bus.clone();
            move |i| {
                let bus = bus.clone();
                async move {
                    let id = format!("bench-{clients}-{i}");
                    bus.execute(
                        &bus.sessions,
                        &id,
                        SessionCommand::Start {
                            user_id: "bench".into(),
                            expires_at: chrono::Utc::now(),
                            rotated_from: None,
                        },
                        &meta(),
                    )
                    .await
                    .map(|_| ())
                    .map_err(|e| anyhow::anyhow!("{e}"))
                }
            }
        })
        .await?;
        let commands_rate = scale.commands as f64 / started.elapsed().as_secs_f64();
        let started = Instant::now();
        run_clients(clients, scale.commands, {
            let db = db.clone();
            move |i| {
                let db = db.clone();
                async move {
                    let payload = r#"{"SessionStarted":{"user_id":"bench"}}"#;
                    let metadata = serde_json::to_string(&meta().to_map())?;
                    db.execute(
                        "INSERT INTO bench_rows VALUES ($1, $2, 1, 'SessionStarted', '1', $3, $4)",
                        args!["session", format!("row-{clients}-{i}"), payload, metadata],
                    )
                    .await?;
                    Ok(())
                }
            }
        })
        .await?;
        let insert_rate = scale.commands as f64 / started.elapsed().as_secs_f64();
        println!(
            "commands, {clients:>2} client(s): {commands_rate:>8.0}/s   plain inserts: {insert_rate:>8.0}/s   ratio {:.2}",
            commands_rate / insert_rate
        );
    }
    projection_lag(&db, scale).await?;
    live_delivery(db, dir, scale).await?;
    Ok(())
}

/// Runs `total` calls of `f` split over `clients` concurrent tasks.
pub(crate) async fn run_clients<F, Fut>(clients: usize, total: usize, f: F) -> anyhow::Result<()>
where
    F: Fn(usize) -> Fut + Clone + Send + 'static,
    Fut: std::future::Future<Output = anyhow::Result<()>> + Send,
{
    let mut tasks = Vec::new();
    for c in 0..clients {
        let f = f.clone();
        tasks.push(tokio::spawn(async move {
            let mut i = c;
            while i < total {
                f(i).await?;
                i += clients;
            }
            anyhow::Ok(())
        }));
    }
    for t in tasks {
        t.await??;
    }
    Ok(())
}

/// Paces single-event commands at 1,000/s and measures, for each, the time from its commit to the
/// moment every projection has applied it.
async fn projection_lag(db: &Db, scale: &Scale) -> anyhow::Result<()> {
    let signal = FeedSignal::default();
    signal.listen_postgres(db);
    let (projections, tasks) = Projections::start(db, &signal, projections::all()).await?;
    let head = commands::feed::head(db).await?;
    projections.wait_for(head, Duration::from_secs(120)).await;
    let bus = Arc::new(CommandBus::new(db.clone(), signal));
    let lags = Arc::new(Mutex::new(Histogram::<u64>::new(3)?));
    let total = scale.lag_seconds as usize * 1000;
    let started = Instant::now();
    let mut interval = tokio::time::interval(Duration::from_millis(1));
    interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Burst);
    let in_flight = Arc::new(tokio::sync::Semaphore::new(12));
    let mut waits = Vec::with_capacity(total);
    for i in 0..total {
        interval.tick().await;
        let permit = in_flight.clone().acquire_owned().await?;
        let (bus, projections, lags) = (bus.clone(), projections.clone(), lags.clone());
        waits.push(tokio::spawn(async move {
            let cursor = bus
                .execute(
                    &bus.sessions,
                    &format!("lag-{i}"),
                    SessionCommand::Start {
                        user_id: "bench".into(),
                        expires_at: chrono::Utc::now(),
                        rotated_from: None,
                    },
                    &meta(),
                )
                .await
                .map_err(|e| anyhow::anyhow!("{e}"))?;
            drop(permit);
            let committed = Instant::now();
            if let Some(c) = cursor {
                projections.wait_for(c, Duration::from_secs(60)).await;
            }
            lags.lock().unwrap().record(committed.elapsed().as_micros() as u64)?;
            anyhow::Ok(())
        }));
    }
    for w in waits {
        w.await??;
    }
    let rate = total as f64 / started.elapsed().as_secs_f64();
    let h = lags.lock().unwrap();
    println!(
        "feed-to-projection lag at {rate:.0} events/s offered 1000/s: p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms ({} events)",
        ms(&h, 0.5), ms(&h, 0.99), h.max() as f64 / 1000.0, h.len()
    );
    for t in tasks {
        t.abort();
    }
    Ok(())
}

/// Opens many sockets for one user, commits changes, and measures commit-to-receive per socket.
async fn live_delivery(db: Db, dir: &std::path::Path, scale: &Scale) -> anyhow::Result<()> {
    let mut config = ServeArgs::for_tests();
    config.max_body_bytes = 1024 * 1024;
    // Every socket comes from this one loopback address.
    config.max_connections_per_address = 0;
    let server = Server::start_with(db.clone(), dir, config).await?;
    let client = reqwest::Client::new();
    let base = format!("http://{}", server.addr);
    let signed: serde_json::Value = client
        .post(format!("{base}/api/auth/signup"))
        .json(&serde_json::json!({"email": format!("bench-{}@example.com", uuid::Uuid::new_v4().simple()), "password": "store bench: plum kettle orbit 97", "username": "bench"}))
        .send()
        .await?
        .json()
        .await?;
    let token = signed["token"].as_str().ok_or_else(|| anyhow::anyhow!("sign-up failed: {signed}"))?.to_string();
    let user_id = signed["user"]["id"].as_str().unwrap_or_default().to_string();
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<((), String, Instant)>();
    let mut readers = Vec::new();
    for _ in 0..scale.sockets {
        let url = format!("ws://{}/api/live?token={token}", server.addr);
        readers.push(crate::client::hear_preferences(&url, (), tx.clone()).await?);
    }
    drop(tx);
    let bus = server.state.bus.clone();
    let mut committed: HashMap<String, Instant> = HashMap::new();
    for i in 0..scale.pushes {
        let cursor: Option<Cursor> = bus
            .execute(
                &bus.users,
                &user_id,
                UserCommand::ChangePreferences { nav_state: None, askneedl_pro: Some(i % 2 == 0) },
                &meta(),
            )
            .await
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        let at = Instant::now();
        if let Some(c) = cursor {
            committed.insert(c.to_string(), at);
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let expected = committed.len() * scale.sockets;
    let mut h = Histogram::<u64>::new(3)?;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    while (h.len() as usize) < expected {
        match tokio::time::timeout_at(deadline, rx.recv()).await {
            Ok(Some(((), cursor, at))) => {
                if let Some(c) = committed.get(&cursor) {
                    h.record(at.saturating_duration_since(*c).as_micros() as u64)?;
                }
            }
            _ => break,
        }
    }
    println!(
        "commit to WebSocket delivery, {} sockets: p50 {:.2} ms, p99 {:.2} ms ({} of {} deliveries)",
        scale.sockets,
        ms(&h, 0.5),
        ms(&h, 0.99),
        h.len(),
        expected
    );
    for r in readers {
        r.abort();
    }
    server.stop().await?;
    Ok(())
}
