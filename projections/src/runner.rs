//! Projection runners: one per read model, each following the global feed from its checkpoint.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use commands::feed::{self, Cursor, FeedSignal, StoredEvent};
use commands::store::{Arg, Backend, Db, Tx};
use tokio::sync::watch;
use tokio::task::JoinHandle;

/// A read model built from the feed.
#[async_trait]
pub trait Projection: Send + Sync + 'static {
    /// The checkpoint's name; also the name `needl rebuild` takes.
    fn name(&self) -> &'static str;
    /// The tables this projection owns; a rebuild empties them.
    fn tables(&self) -> &'static [&'static str];
    /// Writes what one event changes. Events it does not care about are skipped here.
    async fn apply(&self, tx: &mut Tx, event: &StoredEvent) -> anyhow::Result<()>;
}

/// How many events one transaction applies at most.
pub const DEFAULT_BATCH: i64 = 500;

#[derive(sqlx::FromRow)]
struct CheckpointRow {
    tx: i64,
    pos: i64,
}

/// Reads a projection's checkpoint without locking it.
pub async fn checkpoint(db: &Db, name: &str) -> sqlx::Result<Cursor> {
    let row: Option<CheckpointRow> = db
        .fetch_optional(
            "SELECT transaction_id AS tx, position AS pos FROM projection_checkpoints WHERE name = $1",
            vec![name.into()],
        )
        .await?;
    Ok(row.map(|r| Cursor { tx: r.tx, pos: r.pos }).unwrap_or_default())
}

/// Applies at most one batch of events after the projection's checkpoint, in one transaction
/// with the checkpoint's update. Returns the new checkpoint and how many events it applied.
///
/// On Postgres the projection is locked with a transaction-scoped advisory lock, so when several
/// nodes run the same projection only one advances it at a time. The lock and the reads before
/// the first write take no transaction id: an open transaction with an id holds back every feed
/// reader's fence (`pg_snapshot_xmin`), so this one gets its id only once it starts writing.
pub async fn step(db: &Db, projection: &dyn Projection, batch: i64) -> anyhow::Result<(Cursor, usize)> {
    let name = projection.name();
    let mut tx = db.begin().await?;
    match db.backend() {
        Backend::Postgres => {
            tx.execute(
                "SELECT pg_advisory_xact_lock(hashtextextended('needl.projection.' || $1, 0))",
                vec![name.into()],
            )
            .await?;
        }
        Backend::Sqlite => {
            // A write first takes SQLite's write lock up front, so the transaction never has to
            // upgrade a read lock (which fails at once when another process wrote meanwhile).
            tx.execute(
                "INSERT INTO projection_checkpoints (name) VALUES ($1) ON CONFLICT (name) DO NOTHING",
                vec![name.into()],
            )
            .await?;
        }
    }
    let row: Option<CheckpointRow> = tx
        .fetch_optional(
            "SELECT transaction_id AS tx, position AS pos FROM projection_checkpoints WHERE name = $1",
            vec![name.into()],
        )
        .await?;
    let row = row.unwrap_or(CheckpointRow { tx: 0, pos: 0 });
    let from = Cursor { tx: row.tx, pos: row.pos };
    let events = feed::read_after(db, from, batch).await?;
    let Some(last) = events.last().map(|e| e.cursor) else {
        return Ok((from, 0));
    };
    for event in &events {
        projection.apply(&mut tx, event).await.map_err(|error| {
            anyhow::anyhow!(
                "projection {name} failed on event {} ({} {}/{}): {error:#}",
                event.cursor,
                event.event_type,
                event.aggregate_type,
                event.aggregate_id
            )
        })?;
    }
    tx.execute(
        "INSERT INTO projection_checkpoints (name, transaction_id, position, updated_at) \
         VALUES ($1, $2, $3, $4) ON CONFLICT (name) DO UPDATE SET \
         transaction_id = excluded.transaction_id, position = excluded.position, \
         updated_at = excluded.updated_at",
        vec![
            name.into(),
            Arg::Int(last.tx),
            Arg::Int(last.pos),
            Arg::Text(chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true)),
        ],
    )
    .await?;
    if db.backend() == Backend::Postgres {
        // This transaction's id held back every feed reader's fence (pg_snapshot_xmin) while it
        // was open; events committed meanwhile become readable only now, so wake the readers.
        tx.execute("SELECT pg_notify('needl_events', '')", vec![]).await?;
    }
    tx.commit().await?;
    if let Some(recorded) = events.last().and_then(|e| chrono::DateTime::parse_from_rfc3339(&e.recorded_at).ok()) {
        let lag = (chrono::Utc::now() - recorded.with_timezone(&chrono::Utc)).num_microseconds();
        metrics::histogram!("needl_projection_lag_seconds", "projection" => name).record(lag.unwrap_or(0) as f64 / 1e6);
    }
    metrics::counter!("needl_projection_events_total", "projection" => name).increment(events.len() as u64);
    Ok((last, events.len()))
}

/// Empties a projection's tables and resets its checkpoint, in one transaction.
pub async fn reset(db: &Db, projection: &dyn Projection) -> anyhow::Result<()> {
    let mut tx = db.begin().await?;
    for table in projection.tables() {
        tx.execute(&format!("DELETE FROM {table}"), vec![]).await?;
    }
    tx.execute("DELETE FROM projection_checkpoints WHERE name = $1", vec![projection.name().into()]).await?;
    tx.commit().await?;
    Ok(())
}

/// Applies batches until the projection has reached the feed's head as of the call.
pub async fn catch_up(db: &Db, projection: &dyn Projection, batch: i64) -> anyhow::Result<Cursor> {
    let target = feed::head(db).await?;
    loop {
        let (at, applied) = step(db, projection, batch).await?;
        if applied == 0 || at >= target {
            return Ok(at);
        }
    }
}

/// The running projections of this process and what each has applied.
#[derive(Clone)]
pub struct Projections {
    applied: Arc<HashMap<&'static str, watch::Receiver<Cursor>>>,
}

impl Projections {
    /// Starts the task that runs every projection in turn, woken by `signal` and at least every
    /// second. One task, not one per projection: on Postgres a runner's open transaction fences
    /// the feed for every reader, so runners in parallel would mostly wait on each other.
    pub async fn start(
        db: &Db,
        signal: &FeedSignal,
        projections: Vec<Arc<dyn Projection>>,
    ) -> anyhow::Result<(Projections, Vec<JoinHandle<()>>)> {
        let mut applied = HashMap::new();
        let mut runners = Vec::new();
        for projection in projections {
            let start = checkpoint(db, projection.name()).await?;
            let (tx, rx) = watch::channel(start);
            applied.insert(projection.name(), rx);
            runners.push(Runner { projection, applied: tx, failures: 0, retry_at: None });
        }
        let task = tokio::spawn(run(db.clone(), runners, signal.clone()));
        Ok((Projections { applied: Arc::new(applied) }, vec![task]))
    }

    /// The cursor every projection has reached: events up to it are in every read model.
    pub fn applied(&self) -> Cursor {
        self.applied.values().map(|rx| *rx.borrow()).min().unwrap_or_default()
    }

    /// Each projection's checkpoint, for metrics and the readiness check.
    pub fn checkpoints(&self) -> Vec<(&'static str, Cursor)> {
        let mut all: Vec<_> = self.applied.iter().map(|(n, rx)| (*n, *rx.borrow())).collect();
        all.sort();
        all
    }

    /// Waits until every read model includes the event at `cursor`, or `timeout` passes.
    /// Returns whether they caught up.
    pub async fn wait_for(&self, cursor: Cursor, timeout: Duration) -> bool {
        let waits =
            self.applied.values().cloned().map(|mut rx| async move { rx.wait_for(|at| *at >= cursor).await.is_ok() });
        tokio::time::timeout(timeout, futures::future::join_all(waits))
            .await
            .map(|done| done.into_iter().all(|ok| ok))
            .unwrap_or(false)
    }

    /// A receiver that changes whenever any projection advances.
    pub fn watchers(&self) -> Vec<watch::Receiver<Cursor>> {
        self.applied.values().cloned().collect()
    }
}

struct Runner {
    projection: Arc<dyn Projection>,
    applied: watch::Sender<Cursor>,
    failures: u32,
    /// After a failure the projection rests until then; the others go on.
    retry_at: Option<tokio::time::Instant>,
}

async fn run(db: Db, mut runners: Vec<Runner>, signal: FeedSignal) {
    let mut wake = signal.subscribe();
    loop {
        wake.borrow_and_update();
        let mut more = false;
        for runner in runners.iter_mut() {
            if runner.retry_at.is_some_and(|t| tokio::time::Instant::now() < t) {
                continue;
            }
            match step(&db, runner.projection.as_ref(), DEFAULT_BATCH).await {
                Ok((at, n)) => {
                    runner.failures = 0;
                    runner.retry_at = None;
                    runner.applied.send_if_modified(|c| {
                        let moved = *c != at;
                        *c = at;
                        moved
                    });
                    more |= n as i64 == DEFAULT_BATCH;
                }
                Err(error) => {
                    runner.failures += 1;
                    let backoff = Duration::from_millis(100 * 2u64.pow(runner.failures.min(6)));
                    runner.retry_at = Some(tokio::time::Instant::now() + backoff);
                    tracing::error!(
                        projection = runner.projection.name(),
                        error = %format!("{error:#}"),
                        retry_in_ms = backoff.as_millis() as u64,
                        "projection step failed"
                    );
                }
            }
        }
        if more {
            continue;
        }
        let _ = tokio::time::timeout(Duration::from_millis(250), wake.changed()).await;
    }
}
