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
    /// The aggregate types whose events it reads. The runners and a rebuild hand it no event of
    /// another type (its checkpoint passes over them), so most of the feed costs it nothing.
    fn reads(&self) -> &'static [&'static str];
    /// Writes what one event of a type it reads changes; events of those types it does not care
    /// about are skipped here. Writes go through [`Tx::write`], which a rebuild holds back and
    /// sends in bulk ([`Tx::hold_writes`]).
    async fn apply(&self, tx: &mut Tx, event: &StoredEvent) -> anyhow::Result<()>;
}

/// How many events one transaction applies at most.
pub const DEFAULT_BATCH: i64 = 500;

/// How many events one transaction of a rebuild applies at most: nobody waits on a rebuild's
/// commits, so fewer, larger ones.
pub const REBUILD_BATCH: i64 = 5_000;

#[derive(sqlx::FromRow)]
struct CheckpointRow {
    tx: i64,
    pos: i64,
}

#[derive(sqlx::FromRow)]
struct NamedCheckpointRow {
    name: String,
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
pub async fn step(db: &Db, projection: &dyn Projection, batch: i64) -> anyhow::Result<(Cursor, usize)> {
    let stepped = step_together(db, &[projection], batch).await?;
    let (at, applied) = stepped.reached[0];
    Ok((at, applied))
}

/// What one [`step_together`] did.
#[derive(Debug, Clone)]
pub struct Stepped {
    /// Each projection's checkpoint after the step and how many events it applied, in the order
    /// the projections were given.
    pub reached: Vec<(Cursor, usize)>,
    /// Whether the feed read was a full batch, so more events may be waiting.
    pub full: bool,
}

/// Applies at most one batch of the feed to several projections in one transaction, with their
/// checkpoints: the feed is read once, from the checkpoint furthest behind, and each projection
/// applies the events after its own checkpoint, in feed order. All of them advance or none does,
/// so a failure in one rolls the others back too; the runner then steps each alone
/// ([`Projections::start`]) so that the others go on.
///
/// On Postgres each projection is locked with a transaction-scoped advisory lock, always in
/// order of name, so when several nodes run the same projections only one advances each at a
/// time and no two nodes deadlock. The locks and the reads before the first write take no
/// transaction id: an open transaction with an id holds back every feed reader's fence
/// (`pg_snapshot_xmin`), so this one gets its id only once it starts writing.
pub async fn step_together(db: &Db, projections: &[&dyn Projection], batch: i64) -> anyhow::Result<Stepped> {
    if projections.is_empty() {
        return Ok(Stepped { reached: Vec::new(), full: false });
    }
    let names = checked_names(projections)?;
    // The feed is read before the write lock is taken: on SQLite the one write connection, which
    // every command's append waits for, and on Postgres a transaction that holds back every feed
    // reader's fence once it writes. It is read from the checkpoints as they are now, and when
    // there is nothing to apply no lock is taken at all.
    let guess = checkpoints_now(db, projections, &names).await?;
    let oldest = guess.iter().copied().min().unwrap_or_default();
    let events = feed::read_after(db, oldest, batch).await?;
    if events.is_empty() {
        return Ok(Stepped { reached: guess.into_iter().map(|at| (at, 0)).collect(), full: false });
    }
    let mut tx = db.begin().await?;
    lock(&mut tx, db.backend(), &names, CHECKPOINTS).await?;
    let (reached, events) = apply_batch(&mut tx, db, projections, &names, batch, Some((oldest, events))).await?;
    let full = events.len() as i64 >= batch;
    if reached.iter().all(|(_, applied)| *applied == 0) {
        return Ok(Stepped { reached, full });
    }
    if db.backend() == Backend::Postgres {
        // This transaction's id held back every feed reader's fence (pg_snapshot_xmin) while it
        // was open; events committed meanwhile become readable only now, so wake the readers.
        tx.execute("SELECT pg_notify('needl_events', '')", vec![]).await?;
    }
    tx.commit().await?;
    record_metrics(projections, &reached, &events);
    Ok(Stepped { reached, full })
}

/// One batch in `tx`: each projection's checkpoint as `tx` sees it, the feed after the oldest of
/// them (`read_ahead`, read from a cursor, when it covers that), applied and recorded. Returns
/// what each projection reached and the events read.
pub(crate) async fn apply_batch(
    tx: &mut Tx,
    db: &Db,
    projections: &[&dyn Projection],
    names: &[&'static str],
    batch: i64,
    read_ahead: Option<(Cursor, Vec<StoredEvent>)>,
) -> anyhow::Result<(Vec<(Cursor, usize)>, Vec<StoredEvent>)> {
    let from = checkpoints_in(tx, projections, names).await?;
    let oldest = from.iter().copied().min().unwrap_or_default();
    let events = match read_ahead {
        // Under the lock a checkpoint can only have moved on (another node's runner), and the
        // events read cover it: each projection applies those after its own checkpoint.
        Some((read_from, events)) if oldest >= read_from => events,
        // None read, or a checkpoint moved back (a reset): read from it.
        _ => feed::read_after(db, oldest, batch).await?,
    };
    let reached = apply_and_record(tx, projections, &from, &events).await?;
    Ok((reached, events))
}

/// Applies `events`, read from the feed after `read_from`, to each projection after its own
/// checkpoint as `tx` sees it, and records the checkpoints. For a reader of the feed that runs
/// ahead of the writers ([`crate::rebuild`]): none of the checkpoints may be behind `read_from`,
/// or events between them would be missed.
pub(crate) async fn apply_read(
    tx: &mut Tx,
    projections: &[&dyn Projection],
    names: &[&'static str],
    read_from: Cursor,
    events: &[StoredEvent],
) -> anyhow::Result<Vec<(Cursor, usize)>> {
    let from = checkpoints_in(tx, projections, names).await?;
    anyhow::ensure!(
        from.iter().all(|at| *at >= read_from),
        "a checkpoint is behind {read_from}, where the events given to apply start"
    );
    apply_and_record(tx, projections, &from, events).await
}

/// The table the projections keep their checkpoints in.
pub(crate) const CHECKPOINTS: &str = "projection_checkpoints";

/// Whether `name` (of a projection or a table) is lower-case letters, digits and underscores:
/// such names are compile-time constants spliced into statements.
pub(crate) fn plain_name(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
}

/// `names` as a list of SQL strings, for `IN (...)`.
pub(crate) fn quoted_list(names: &[&'static str]) -> String {
    names.iter().map(|n| format!("'{n}'")).collect::<Vec<_>>().join(", ")
}

/// The projections' names, checked ([`plain_name`]) and sorted.
pub(crate) fn checked_names(projections: &[&dyn Projection]) -> anyhow::Result<Vec<&'static str>> {
    let mut names: Vec<&'static str> = projections.iter().map(|p| p.name()).collect();
    for name in &names {
        anyhow::ensure!(
            plain_name(name),
            "a projection's name must be lower-case letters, digits and underscores: {name:?}"
        );
    }
    names.sort_unstable();
    names.dedup();
    anyhow::ensure!(names.len() == projections.len(), "a projection was given twice");
    Ok(names)
}

/// Takes the projections' write locks for the rest of `tx`: `names` sorted ([`checked_names`]).
/// On SQLite the lock is the database's write lock, taken by a write to `checkpoints` (the
/// checkpoint table, schema-qualified where another of that name could be found first).
pub(crate) async fn lock(
    tx: &mut Tx,
    backend: Backend,
    names: &[&'static str],
    checkpoints: &str,
) -> anyhow::Result<()> {
    match backend {
        Backend::Postgres => {
            // One statement; its select list is evaluated left to right, in order of name.
            let locks = names
                .iter()
                .map(|n| format!("pg_advisory_xact_lock(hashtextextended('needl.projection.{n}', 0))"))
                .collect::<Vec<_>>()
                .join(", ");
            tx.execute(&format!("SELECT {locks}"), vec![]).await?;
        }
        Backend::Sqlite => {
            // A write first takes SQLite's write lock up front, so the transaction never has to
            // upgrade a read lock (which fails at once when another process wrote meanwhile).
            let rows = names.iter().map(|n| format!("('{n}')")).collect::<Vec<_>>().join(", ");
            tx.execute(
                &format!("INSERT INTO {checkpoints} (name) VALUES {rows} ON CONFLICT (name) DO NOTHING"),
                vec![],
            )
            .await?;
        }
    }
    Ok(())
}

/// Each projection's checkpoint as committed now, without a lock, in the order given.
async fn checkpoints_now(
    db: &Db,
    projections: &[&dyn Projection],
    names: &[&'static str],
) -> anyhow::Result<Vec<Cursor>> {
    Ok(in_order(projections, db.fetch_all(&checkpoints_sql(names), vec![]).await?))
}

/// Each projection's checkpoint as `tx` sees it, in the order the projections were given.
async fn checkpoints_in(
    tx: &mut Tx,
    projections: &[&dyn Projection],
    names: &[&'static str],
) -> anyhow::Result<Vec<Cursor>> {
    Ok(in_order(projections, tx.fetch_all(&checkpoints_sql(names), vec![]).await?))
}

fn checkpoints_sql(names: &[&'static str]) -> String {
    format!(
        "SELECT name, transaction_id AS tx, position AS pos FROM {CHECKPOINTS} WHERE name IN ({})",
        quoted_list(names)
    )
}

fn in_order(projections: &[&dyn Projection], rows: Vec<NamedCheckpointRow>) -> Vec<Cursor> {
    let checkpoints: HashMap<String, Cursor> =
        rows.into_iter().map(|r| (r.name, Cursor { tx: r.tx, pos: r.pos })).collect();
    projections.iter().map(|p| checkpoints.get(p.name()).copied().unwrap_or_default()).collect()
}

/// Applies `events` to each projection after its own checkpoint (`from`, in the same order), in
/// feed order, and writes the checkpoints that moved. Returns each one's new checkpoint and how
/// many events it passed (applied, or of a type it does not read).
async fn apply_and_record(
    tx: &mut Tx,
    projections: &[&dyn Projection],
    from: &[Cursor],
    events: &[StoredEvent],
) -> anyhow::Result<Vec<(Cursor, usize)>> {
    let mut reached = Vec::with_capacity(projections.len());
    for (projection, start) in projections.iter().zip(from) {
        let mut applied = 0;
        let mut at = *start;
        let reads = projection.reads();
        for event in events.iter().filter(|e| e.cursor > *start) {
            applied += 1;
            at = event.cursor;
            if !reads.contains(&event.aggregate_type.as_str()) {
                continue;
            }
            projection.apply(tx, event).await.map_err(|error| {
                anyhow::anyhow!(
                    "projection {} failed on event {} ({} {}/{}): {error:#}",
                    projection.name(),
                    event.cursor,
                    event.event_type,
                    event.aggregate_type,
                    event.aggregate_id
                )
            })?;
        }
        reached.push((at, applied));
    }
    let moved: Vec<(&dyn Projection, Cursor)> = projections
        .iter()
        .zip(&reached)
        .filter(|(_, (_, applied))| *applied > 0)
        .map(|(p, (at, _))| (*p, *at))
        .collect();
    if moved.is_empty() {
        return Ok(reached);
    }
    // Every moved checkpoint in one statement: a round trip each was most of a small batch's time.
    let now = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
    let mut args = Vec::with_capacity(1 + 3 * moved.len());
    args.push(Arg::Text(now));
    let rows: Vec<String> = moved
        .iter()
        .enumerate()
        .map(|(i, (projection, at))| {
            args.extend([projection.name().into(), Arg::Int(at.tx), Arg::Int(at.pos)]);
            format!("(${}, ${}, ${}, $1)", 2 + 3 * i, 3 + 3 * i, 4 + 3 * i)
        })
        .collect();
    tx.execute(
        &format!(
            "INSERT INTO projection_checkpoints (name, transaction_id, position, updated_at) VALUES {} \
             ON CONFLICT (name) DO UPDATE SET transaction_id = excluded.transaction_id, \
             position = excluded.position, updated_at = excluded.updated_at",
            rows.join(", ")
        ),
        args,
    )
    .await?;
    Ok(reached)
}

fn record_metrics(projections: &[&dyn Projection], reached: &[(Cursor, usize)], events: &[StoredEvent]) {
    let lag = events
        .last()
        .and_then(|e| chrono::DateTime::parse_from_rfc3339(&e.recorded_at).ok())
        .and_then(|recorded| (chrono::Utc::now() - recorded.with_timezone(&chrono::Utc)).num_microseconds());
    for (projection, (_, applied)) in projections.iter().zip(reached) {
        if *applied == 0 {
            continue;
        }
        let name = projection.name();
        if let Some(lag) = lag {
            metrics::histogram!("needl_projection_lag_seconds", "projection" => name).record(lag as f64 / 1e6);
        }
        metrics::counter!("needl_projection_events_total", "projection" => name).increment(*applied as u64);
    }
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

/// Rebuilds `projections` from zero, beside the live read models, and swaps the new ones in
/// ([`crate::rebuild`]): a running server answers from the old ones meanwhile. Returns the cursor
/// reached.
pub async fn rebuild(db: &Db, projections: &[&dyn Projection]) -> anyhow::Result<Cursor> {
    crate::rebuild::beside_and_swap(db, projections).await
}

/// Applies batches until the projection has reached the feed's head as of the call.
pub async fn catch_up(db: &Db, projection: &dyn Projection, batch: i64) -> anyhow::Result<Cursor> {
    catch_up_together(db, &[projection], batch).await
}

/// Applies batches to several projections together ([`step_together`]) until each has reached
/// the feed's head as of the call. Returns the cursor the one furthest behind reached.
pub async fn catch_up_together(db: &Db, projections: &[&dyn Projection], batch: i64) -> anyhow::Result<Cursor> {
    let target = feed::head(db).await?;
    loop {
        let stepped = step_together(db, projections, batch).await?;
        let behind = stepped.reached.iter().map(|(at, _)| *at).min().unwrap_or_default();
        if !stepped.full || behind >= target {
            return Ok(behind);
        }
    }
}

/// The running projections of this process and what each has applied.
#[derive(Clone)]
pub struct Projections {
    applied: Arc<HashMap<&'static str, watch::Receiver<Cursor>>>,
}

impl Projections {
    /// Starts the task that runs every projection, woken by `signal` and at least every 250 ms.
    /// The projections advance together ([`step_together`]): one feed read and one transaction
    /// per batch for all of them, not one each. One task, not one per projection: on Postgres a
    /// runner's open transaction fences the feed for every reader, and on SQLite every write
    /// waits for the one writer, so runners in parallel would mostly wait on each other.
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
        let mut tasks = vec![tokio::spawn(run(db.clone(), runners, signal.clone()))];
        if db.backend() == Backend::Postgres {
            tasks.push(tokio::spawn(chain(db.clone())));
        }
        Ok((Projections { applied: Arc::new(applied) }, tasks))
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
        let now = tokio::time::Instant::now();
        let ready: Vec<usize> = (0..runners.len()).filter(|&i| runners[i].retry_at.is_none_or(|t| now >= t)).collect();
        let together: Vec<&dyn Projection> = ready.iter().map(|&i| runners[i].projection.as_ref()).collect();
        let mut more = false;
        // Every projection resting after a failure: nothing to step until the first may retry.
        let outcome =
            if together.is_empty() { Ok(None) } else { step_together(&db, &together, DEFAULT_BATCH).await.map(Some) };
        match outcome {
            Ok(None) => {}
            Ok(Some(stepped)) => {
                for (&i, &(at, _)) in ready.iter().zip(&stepped.reached) {
                    runners[i].advanced(at);
                }
                more = stepped.full;
            }
            // One of them failed (or the store did): each alone, so the others go on and only
            // the one that fails rests.
            Err(_) if ready.len() > 1 => {
                for &i in &ready {
                    let runner = &mut runners[i];
                    match step(&db, runner.projection.as_ref(), DEFAULT_BATCH).await {
                        Ok((at, n)) => {
                            runner.advanced(at);
                            more |= n as i64 == DEFAULT_BATCH;
                        }
                        Err(error) => runner.failed(&error),
                    }
                }
            }
            Err(error) => {
                if let Some(&i) = ready.first() {
                    runners[i].failed(&error);
                }
            }
        }
        if more {
            continue;
        }
        let resting = runners.iter().filter_map(|r| r.retry_at).min();
        let wait = resting
            .map(|t| t.saturating_duration_since(tokio::time::Instant::now()))
            .unwrap_or(IDLE_WAIT)
            .min(IDLE_WAIT);
        let _ = tokio::time::timeout(wait, wake.changed()).await;
    }
}

/// How long the runner sleeps without a wake-up before it looks at the feed anyway (another
/// node's events on SQLite, a missed notification on Postgres).
const IDLE_WAIT: Duration = Duration::from_millis(250);

impl Runner {
    fn advanced(&mut self, at: Cursor) {
        self.failures = 0;
        self.retry_at = None;
        self.applied.send_if_modified(|c| {
            let moved = *c != at;
            *c = at;
            moved
        });
    }

    fn failed(&mut self, error: &anyhow::Error) {
        self.failures += 1;
        let backoff = backoff(self.failures);
        self.retry_at = Some(tokio::time::Instant::now() + backoff);
        tracing::error!(
            projection = self.projection.name(),
            error = %format!("{error:#}"),
            retry_in_ms = backoff.as_millis() as u64,
            "projection step failed"
        );
    }
}

/// Postgres chains events just after their commit (`commands::chain`): this task does it every
/// [`CHAIN_EVERY`], beside the read models rather than between their rounds. Not on every
/// commit: each call writes under a transaction id, which holds back every feed reader's fence
/// until it commits, so a few larger calls cost the read models far less than many small ones.
async fn chain(db: Db) {
    let mut failures = 0u32;
    loop {
        let wait = match commands::chain::advance(&db).await {
            Ok(_) => {
                failures = 0;
                CHAIN_EVERY
            }
            Err(error) => {
                failures += 1;
                let wait = backoff(failures);
                tracing::warn!(%error, retry_in_ms = wait.as_millis() as u64, "chaining new events failed");
                wait
            }
        };
        tokio::time::sleep(wait).await;
    }
}

/// How long a projection, or the chaining, rests after `failures` failures in a row: 200 ms,
/// doubling, at most 6.4 s.
fn backoff(failures: u32) -> Duration {
    Duration::from_millis(100 * 2u64.pow(failures.min(6)))
}

/// How often Postgres chains the events committed since the last time.
const CHAIN_EVERY: Duration = Duration::from_millis(500);
