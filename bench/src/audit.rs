//! `needl-bench --only audit`: what the event hash chain costs single-event commands (with and
//! without the chaining, in the same run on the same database), how fast `audit verify`
//! walks a long history, and how fast `needl events export` writes that history as Parquet
//! against NDJSON, with the size of each. Prints figures; passes or fails nothing.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Instant;

use commands::chain;
use commands::feed::{Cursor, FeedSignal};
use commands::{CommandBus, Db};
use domain::session::SessionCommand;
use domain::EventMetadata;

/// The feed-position trigger the chain replaced (SQLite), or the chaining trigger disabled
/// (Postgres): the "without" side of the comparison.
const SQLITE_WITHOUT: &[&str] = &[
    "DROP TRIGGER events_assign_global_position",
    "CREATE TRIGGER events_assign_global_position AFTER INSERT ON events FOR EACH ROW BEGIN \
     UPDATE events SET global_position = (SELECT COALESCE(MAX(global_position), 0) + 1 FROM events) \
     WHERE rowid = NEW.rowid; END",
];
/// The chaining trigger as migration 0017 creates it; the head moves past the unchained events.
const SQLITE_WITH: &[&str] = &[
    "DROP TRIGGER events_assign_global_position",
    "CREATE TRIGGER events_assign_global_position AFTER INSERT ON events FOR EACH ROW BEGIN \
     UPDATE event_chain_head SET position = position + 1, hash = needl_chain_link(hash, position + 1, \
     NEW.aggregate_type, NEW.aggregate_id, NEW.sequence, NEW.event_type, NEW.event_version, NEW.payload, \
     NEW.metadata) WHERE id = 1; \
     UPDATE events SET (global_position, chain_hash) = (SELECT position, hash FROM event_chain_head WHERE id = 1) \
     WHERE rowid = NEW.rowid; END",
    "UPDATE event_chain_head SET position = (SELECT COALESCE(MAX(global_position), 0) FROM events) WHERE id = 1",
];
/// Postgres chains after commit (migration 0026): "with" runs a chainer beside the commands, as
/// a server's projection runner does; "without" runs none.
const PG_WITHOUT: &[&str] = &[];
const PG_WITH: &[&str] = &[];

fn meta() -> EventMetadata {
    EventMetadata::system("bench", uuid::Uuid::new_v4().to_string())
}

async fn set_chain(db: &Db, on: bool) -> anyhow::Result<()> {
    let statements = match (db, on) {
        (Db::Sqlite { .. }, true) => SQLITE_WITH,
        (Db::Sqlite { .. }, false) => SQLITE_WITHOUT,
        (Db::Postgres(_), true) => PG_WITH,
        (Db::Postgres(_), false) => PG_WITHOUT,
    };
    let mut tx = db.begin().await?;
    for statement in statements {
        tx.execute(statement, vec![]).await?;
    }
    tx.commit().await?;
    Ok(())
}

/// Session starts (one event each) from `clients` tasks; returns commands per second.
async fn command_rate(bus: &Arc<CommandBus>, clients: usize, total: usize, tag: &str) -> anyhow::Result<f64> {
    let chainer = tag.starts_with("on").then(|| {
        let db = bus.db.clone();
        tokio::spawn(async move {
            // As a server's runner does (projections::runner): every half second.
            loop {
                let _ = chain::advance(&db).await;
                tokio::time::sleep(std::time::Duration::from_millis(500)).await;
            }
        })
    });
    let started = Instant::now();
    let (bus, tag) = (bus.clone(), tag.to_string());
    crate::store::run_clients(clients, total, move |i| {
        let (bus, id) = (bus.clone(), format!("chain-{tag}-{clients}-{i}"));
        async move {
            let command =
                SessionCommand::Start { user_id: "bench".into(), expires_at: chrono::Utc::now(), rotated_from: None };
            bus.execute(&bus.sessions, &id, command, &meta()).await.map(|_| ()).map_err(|e| anyhow::anyhow!("{e}"))
        }
    })
    .await?;
    let rate = total as f64 / started.elapsed().as_secs_f64();
    if let Some(chainer) = chainer {
        chainer.abort();
    }
    Ok(rate)
}

pub async fn measure(backend: &str, db: Db, quick: bool) -> anyhow::Result<()> {
    println!("\n[{backend}] audit: the event hash chain");
    let bus = Arc::new(CommandBus::new(db.clone(), FeedSignal::default()));
    let total = if quick { 300 } else { 3000 };
    for clients in [1usize, 16] {
        // Alternating rounds, so drift in the machine's load falls on both sides alike.
        let (mut with, mut without) = (Vec::new(), Vec::new());
        for round in 0..2 {
            set_chain(&db, false).await?;
            without.push(command_rate(&bus, clients, total, &format!("off{round}")).await?);
            set_chain(&db, true).await?;
            // What the "without" round left unchained is not the next round's work.
            chain::advance(&db).await?;
            with.push(command_rate(&bus, clients, total, &format!("on{round}")).await?);
        }
        let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
        let (with, without) = (mean(&with), mean(&without));
        println!(
            "commands, {clients:>2} client(s): {with:>8.0}/s with the chain   {without:>8.0}/s without   ratio {:.2}",
            with / without
        );
    }
    // A clean history for the walk: the comparison left unchained events behind.
    db.execute("DELETE FROM events", vec![]).await?;
    db.execute(
        "UPDATE event_chain_head SET position = 0, hash = $1 WHERE id = 1",
        vec![commands::Arg::Text(chain::GENESIS.into())],
    )
    .await?;
    if let Db::Postgres(_) = db {
        db.execute("DELETE FROM event_chain", vec![]).await?;
        db.execute("UPDATE event_chain_head SET transaction_id = NULL, global_position = NULL WHERE id = 1", vec![])
            .await?;
    }

    let events = if quick { 20_000 } else { 1_000_000 };
    let started = Instant::now();
    bulk_insert(&db, events).await?;
    // Postgres chains after commit: the chaining is part of writing them.
    chain::advance(&db).await?;
    let written = started.elapsed().as_secs_f64();
    let started = Instant::now();
    let v = chain::verify(&db, None, &BTreeMap::new()).await?;
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "audit verify: {} events in {seconds:.1} s, {:.0} events/s ({}; {events} chained inserts took {written:.1} s)",
        v.events_checked,
        v.events_checked as f64 / seconds,
        if v.intact() { "intact" } else { "BROKEN" }
    );
    export_rates(&db).await
}

/// Exports the history as NDJSON and as Parquet, one after the other in this run, to files in a
/// temporary folder, and prints each one's rate and size and their ratios.
async fn export_rates(db: &Db) -> anyhow::Result<()> {
    let dir = std::env::temp_dir().join(format!("needl-bench-export-{}", uuid::Uuid::new_v4().simple()));
    std::fs::create_dir_all(&dir)?;
    let ndjson_path = dir.join("events.ndjson");
    let started = Instant::now();
    let mut file = std::io::BufWriter::new(std::fs::File::create(&ndjson_path)?);
    let events = api::export::ndjson(db, Cursor::START, &mut file).await?;
    drop(file);
    let ndjson_seconds = started.elapsed().as_secs_f64();
    let ndjson_bytes = std::fs::metadata(&ndjson_path)?.len();

    let started = Instant::now();
    let summary = api::export::parquet(db, Cursor::START, &dir.join("parquet")).await?;
    let parquet_seconds = started.elapsed().as_secs_f64();
    let parquet_bytes = summary.bytes();
    std::fs::remove_dir_all(&dir)?;

    let mib = |bytes: u64| bytes as f64 / (1024.0 * 1024.0);
    println!(
        "export, {events} events: NDJSON {:>8.0} events/s {:>8.1} MiB   Parquet {:>8.0} events/s {:>8.1} MiB in {} file(s)   \
         rate ratio {:.2}, size ratio {:.2}",
        events as f64 / ndjson_seconds,
        mib(ndjson_bytes),
        summary.events as f64 / parquet_seconds,
        mib(parquet_bytes),
        summary.files.len(),
        (summary.events as f64 / parquet_seconds) / (events as f64 / ndjson_seconds),
        parquet_bytes as f64 / ndjson_bytes as f64,
    );
    Ok(())
}

/// Inserts `n` small events, in transactions of 10,000 (chained by the trigger on SQLite).
async fn bulk_insert(db: &Db, n: i64) -> anyhow::Result<()> {
    let sql = match db {
        Db::Sqlite { .. } => {
            "WITH RECURSIVE s(i) AS (SELECT $1 UNION ALL SELECT i + 1 FROM s WHERE i < $2) \
             INSERT INTO events (aggregate_type, aggregate_id, sequence, event_type, event_version, payload, metadata) \
             SELECT 'probe', 'bulk-' || i, 1, 'Probed', '1', '{\"Probed\":{\"n\":' || i || '}}', \
             '{\"user_id\":\"system\",\"app_type\":\"bench\"}' FROM s"
        }
        Db::Postgres(_) => {
            "INSERT INTO events (aggregate_type, aggregate_id, sequence, event_type, event_version, payload, metadata) \
             SELECT 'probe', 'bulk-' || i, 1, 'Probed', '1', ('{\"Probed\":{\"n\":' || i || '}}')::json, \
             '{\"user_id\":\"system\",\"app_type\":\"bench\"}'::json FROM generate_series($1::bigint, $2::bigint) AS i"
        }
    };
    let batch = 10_000;
    let mut from = 1;
    while from <= n {
        let to = (from + batch - 1).min(n);
        db.execute(sql, vec![commands::Arg::Int(from), commands::Arg::Int(to)]).await?;
        from = to + 1;
    }
    Ok(())
}
