//! `needl-bench --only store`: command throughput against plain inserts, feed-to-projection lag
//! under a steady load, commit-to-WebSocket delivery with many sockets, and how fast every read
//! model rebuilds from a long history. Prints figures; passes or fails nothing.
//!
//! Delivery to 10,000 sockets needs more descriptors than one process may hold here (a socket's
//! two ends in one process): `--only nodes` measures it with the server in processes of its own.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use api::app::Server;
use api::config::ServeArgs;
use commands::feed::{Cursor, FeedSignal};
use commands::{args, CommandBus, Db};
use domain::session::SessionCommand;
use domain::tag::TagCommand;
use domain::user::UserCommand;
use domain::EventMetadata;
use hdrhistogram::Histogram;
use projections::Projections;

pub struct Scale {
    commands: usize,
    lag_seconds: u64,
    sockets: usize,
    pushes: usize,
    /// Events in the history every read model is rebuilt from.
    rebuild_events: i64,
}

impl Scale {
    pub fn new(quick: bool) -> Self {
        if quick {
            Scale { commands: 400, lag_seconds: 3, sockets: 200, pushes: 40, rebuild_events: 20_000 }
        } else {
            Scale { commands: 3000, lag_seconds: 10, sockets: 1000, pushes: 200, rebuild_events: 1_000_000 }
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
        // Sessions started as sign-in starts them: under an id just minted, whose empty history
        // is not read (`commands::just_named`); and, for comparison, with the history read first.
        let mut start_rates = Vec::new();
        for load_first in [false, true] {
            let started = Instant::now();
            run_clients(clients, scale.commands, {
                let bus = bus.clone();
                move |i| {
                    let bus = bus.clone();
                    async move {
                        let id = format!("bench-{clients}-{load_first}-{i}");
                        let start = SessionCommand::Start {
                            user_id: "bench".into(),
                            expires_at: chrono::Utc::now(),
                            rotated_from: None,
                        };
                        let done = match load_first {
                            false => commands::just_named(bus.execute(&bus.sessions, &id, start, &meta())).await,
                            true => bus.execute(&bus.sessions, &id, start, &meta()).await,
                        };
                        done.map(|_| ()).map_err(|e| anyhow::anyhow!("{e}"))
                    }
                }
            })
            .await?;
            start_rates.push(scale.commands as f64 / started.elapsed().as_secs_f64());
        }
        let (commands_rate, loading_rate) = (start_rates[0], start_rates[1]);
        // The same sessions signed out: a command on an aggregate with a history, read first.
        let started = Instant::now();
        run_clients(clients, scale.commands, {
            let bus = bus.clone();
            move |i| {
                let bus = bus.clone();
                async move {
                    let sign_out = SessionCommand::SignOut { at: chrono::Utc::now() };
                    bus.execute(&bus.sessions, &format!("bench-{clients}-false-{i}"), sign_out, &meta())
                        .await
                        .map(|_| ())
                        .map_err(|e| anyhow::anyhow!("{e}"))
                }
            }
        })
        .await?;
        let loaded_rate = scale.commands as f64 / started.elapsed().as_secs_f64();
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
        println!(
            "  the same starts with the empty history read first: {loading_rate:>8.0}/s   ratio {:.2}",
            loading_rate / insert_rate
        );
        println!(
            "  sign-outs of those sessions (a history of one event, read first): {loaded_rate:>8.0}/s   ratio {:.2}",
            loaded_rate / insert_rate
        );
    }
    for rate in [1_000, 2_000] {
        projection_lag(&db, scale, rate).await?;
    }
    live_delivery(db.clone(), dir, scale).await?;
    rebuild(&db, scale).await?;
    Ok(())
}

/// Grows the history to at least `scale.rebuild_events` events of the kinds people write most
/// (sign-ups, sessions, preference changes, tags: copies of one real round of commands, renamed),
/// then empties every read model and rebuilds them all in one pass, as `needl rebuild --all` does.
pub(crate) async fn rebuild(db: &Db, scale: &Scale) -> anyhow::Result<()> {
    #[derive(sqlx::FromRow)]
    struct Count {
        n: i64,
    }
    let count = |db: Db| async move {
        let row: Option<Count> = db.fetch_optional("SELECT COUNT(*) AS n FROM events", vec![]).await?;
        anyhow::Ok(row.map_or(0, |r| r.n))
    };
    // One round of real commands under a name found nowhere else, copied with the name replaced.
    let name = format!("tpl{}", uuid::Uuid::new_v4().simple());
    let bus = CommandBus::new(db.clone(), FeedSignal::default());
    let meta = meta();
    let sign_up = UserCommand::SignUp {
        email: format!("{name}@example.com"),
        username: name.clone(),
        password_hash: "$argon2id$bench".into(),
        is_admin: false,
    };
    bus.execute(&bus.users, &name, sign_up, &meta).await.map_err(|e| anyhow::anyhow!("{e}"))?;
    let session = SessionCommand::Start { user_id: name.clone(), expires_at: chrono::Utc::now(), rotated_from: None };
    bus.execute(&bus.sessions, &format!("s-{name}"), session, &meta).await.map_err(|e| anyhow::anyhow!("{e}"))?;
    let preferences = UserCommand::ChangePreferences { nav_state: None, askneedl_pro: Some(true) };
    bus.execute(&bus.users, &name, preferences, &meta).await.map_err(|e| anyhow::anyhow!("{e}"))?;
    for tag in ["Mining", "Rates"] {
        let create = TagCommand::Create { user_id: name.clone(), tag_id: format!("{name}-{tag}"), name: tag.into() };
        bus.execute(&bus.tag_books, &name, create, &meta).await.map_err(|e| anyhow::anyhow!("{e}"))?;
    }
    let round: i64 = 5;
    let copy = match db {
        Db::Sqlite { .. } => {
            "WITH RECURSIVE s(i) AS (SELECT $1 UNION ALL SELECT i + 1 FROM s WHERE i < $2) \
             INSERT INTO events (aggregate_type, aggregate_id, sequence, event_type, event_version, payload, metadata) \
             SELECT t.aggregate_type, replace(t.aggregate_id, $3, 'r' || s.i), t.sequence, t.event_type, \
             t.event_version, replace(t.payload, $3, 'r' || s.i), t.metadata FROM s, events t \
             WHERE instr(t.aggregate_id, $3) > 0 ORDER BY s.i, t.global_position"
        }
        Db::Postgres(_) => {
            "INSERT INTO events (aggregate_type, aggregate_id, sequence, event_type, event_version, payload, metadata) \
             SELECT t.aggregate_type, replace(t.aggregate_id, $3, 'r' || i), t.sequence, t.event_type, \
             t.event_version, replace(t.payload::text, $3, 'r' || i)::json, t.metadata \
             FROM generate_series($1::bigint, $2::bigint) AS i, events t \
             WHERE strpos(t.aggregate_id, $3) > 0 ORDER BY i, t.transaction_id, t.global_position"
        }
    };
    let rounds = (scale.rebuild_events - count(db.clone()).await?).max(0) / round + 1;
    let started = Instant::now();
    let mut from = 1;
    while from <= rounds {
        let to = (from + 2_000 - 1).min(rounds);
        db.execute(copy, args![from, to, name.as_str()]).await?;
        from = to + 1;
    }
    let events = count(db.clone()).await?;
    println!("rebuild: a history of {events} events ({} written in {:.1?})", rounds * round, started.elapsed());
    // Postgres chains after commit; what is pending would be chained beside the rebuild.
    commands::chain::advance(db).await?;

    let chosen = projections::all();
    let together: Vec<&dyn projections::runner::Projection> = chosen.iter().map(|p| p.as_ref()).collect();
    let started = Instant::now();
    projections::runner::rebuild(db, &together).await?;
    let elapsed = started.elapsed().as_secs_f64();
    println!(
        "rebuild of every read model ({} of them) in one pass: {events} events in {elapsed:.1} s = {:.0} events/s",
        together.len(),
        events as f64 / elapsed
    );
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

/// Paces single-event commands at `rate` a second and measures, for each, the time from its commit
/// to the moment every projection has applied it, and the rate achieved.
async fn projection_lag(db: &Db, scale: &Scale, rate: u64) -> anyhow::Result<()> {
    let signal = FeedSignal::default();
    signal.listen_postgres(db);
    let (projections, tasks) = Projections::start(db, &signal, projections::all()).await?;
    let head = commands::feed::head(db).await?;
    projections.wait_for(head, Duration::from_secs(120)).await;
    let bus = Arc::new(CommandBus::new(db.clone(), signal));
    let lags = Arc::new(Mutex::new(Histogram::<u64>::new(3)?));
    let total = (scale.lag_seconds * rate) as usize;
    let started = Instant::now();
    let mut interval = tokio::time::interval(Duration::from_micros(1_000_000 / rate));
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
                    &format!("lag-{rate}-{i}"),
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
    let achieved = total as f64 / started.elapsed().as_secs_f64();
    let h = lags.lock().unwrap();
    println!(
        "feed-to-projection lag at {achieved:.0} events/s offered {rate}/s: p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms ({} events)",
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
