//! Appending a command's events: one statement, and the feed cursor it reached; and the
//! appends of commands running at the same time written together (group commit).
//!
//! cqrs-es's repositories write a command's events in an explicit transaction (BEGIN, one
//! INSERT per event, COMMIT), after which the bus asked the store again for the cursor of the
//! aggregate's newest event, so that callers can wait for the read models. Here the events go in
//! as one multi-row INSERT, which is atomic on its own, and the cursor comes back with it:
//!
//! - Postgres: `INSERT ... RETURNING` the rows' transaction ids and positions, one round trip.
//! - SQLite: the INSERT and then the last row's position (assigned by the chaining trigger after
//!   the insert, which RETURNING would not show), both on the one write connection, held between
//!   the two so that no other write comes in between.
//!
//! Commands that append while another batch is being written wait in [`Appender`]'s queue and are
//! then written as one batch: on Postgres one multi-row INSERT for all of them (one round trip,
//! one commit); on SQLite one transaction on the write connection with each command's INSERT in
//! turn (one commit). Each command still gets its own answer: a command that lost the race on its
//! aggregate is told so, and the others in its batch are written all the same.
//!
//! A second writer of the same aggregate sequence fails on the primary key, which is the
//! optimistic-lock conflict the bus retries. Loading stays with the cqrs-es repositories.
//!
//! The cursor reaches [`crate::bus::CommandBus::execute`] through a task-local slot set around
//! one command: cqrs-es's `execute` answers nothing but success.

use std::cell::Cell;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use cqrs_es::persist::{PersistenceError, SerializedEvent};
use sqlx::Row;
use tokio::sync::oneshot;

use crate::feed::Cursor;
use crate::store::Db;

tokio::task_local! {
    /// The cursor of the last event appended by the command running in this task.
    static APPENDED: Cell<Option<Cursor>>;
}

/// Runs `command` (one cqrs-es execution) and returns its result with the cursor of the last
/// event it appended, when it appended any through [`append`].
pub(crate) async fn tracking<T>(command: impl std::future::Future<Output = T>) -> (T, Option<Cursor>) {
    APPENDED
        .scope(Cell::new(None), async move {
            let out = command.await;
            (out, APPENDED.with(Cell::get))
        })
        .await
}

/// A clash on the primary key is the optimistic-lock conflict the bus retries, as in
/// [`crate::unit::Unit`]'s commit; a broken connection is a connection error; the rest keeps its
/// typed error for [`crate::StoreError`] to classify.
fn persistence(error: sqlx::Error) -> PersistenceError {
    match error {
        sqlx::Error::Database(db_error) if db_error.is_unique_violation() => PersistenceError::OptimisticLockError,
        sqlx::Error::Io(_) | sqlx::Error::PoolTimedOut | sqlx::Error::PoolClosed | sqlx::Error::Tls(_) => {
            PersistenceError::ConnectionError(Box::new(error))
        }
        other => PersistenceError::UnknownError(Box::new(other)),
    }
}

/// The multi-row INSERT for `n` events. With `shared_type`, `$1` is the aggregate type of all of
/// them and six values follow per event; without, seven values per event, its type first.
fn insert_sql(n: usize, shared_type: bool, returning: &str) -> String {
    let mut sql = String::from(
        "INSERT INTO events (aggregate_type, aggregate_id, sequence, event_type, event_version, payload, metadata) VALUES ",
    );
    for i in 0..n {
        if i > 0 {
            sql.push_str(", ");
        }
        let (first, next) = if shared_type { (1, 2 + i * 6) } else { (1 + i * 7, 2 + i * 7) };
        sql.push_str(&format!("(${first}"));
        for k in next..next + 6 {
            sql.push_str(&format!(", ${k}"));
        }
        sql.push(')');
    }
    sql.push_str(returning);
    sql
}

macro_rules! bind_events {
    ($query:expr, $aggregate_type:expr, $events:expr) => {{
        let mut q = $query.bind($aggregate_type);
        for event in $events {
            q = q
                .bind(event.aggregate_id.as_str())
                .bind(event.sequence as i64)
                .bind(event.event_type.as_str())
                .bind(event.event_version.as_str())
                .bind(&event.payload)
                .bind(&event.metadata);
        }
        q
    }};
}

/// At most this many events go in one statement (Postgres takes 65,535 parameters, SQLite
/// 32,766); a command that decides more is written in one transaction of several statements.
const ONE_STATEMENT: usize = 1_000;

/// What one command's append is answered: the cursor of its last event.
type Appended = Result<Option<Cursor>, PersistenceError>;

/// One command's events waiting in the queue, and where its answer goes.
struct Pending {
    aggregate_type: &'static str,
    events: Vec<SerializedEvent>,
    answer: oneshot::Sender<Appended>,
}

/// Group commit: a command that finds nobody writing writes its events itself, the single
/// statement it always was; one that finds a write under way queues them, and one task at a time
/// writes what is queued as one batch, so N commands that arrive together cost one commit.
///
/// A batch is written by a spawned task, not by one of its commands: a command whose caller
/// goes away (a closed request) must not take the others' writes down with it.
pub(crate) struct Appender {
    db: Db,
    queue: Mutex<Vec<Pending>>,
    /// Held while a batch is written.
    writing: tokio::sync::Mutex<()>,
}

/// A batch's failure, shared by each of its commands' answers; the typed error stays reachable
/// as the source, for [`crate::StoreFailure::of`].
#[derive(Debug)]
struct Shared(Arc<sqlx::Error>);

impl std::fmt::Display for Shared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for Shared {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&*self.0)
    }
}

/// `error` answered to each command of a failed batch, classified as [`persistence`] does.
fn shared_persistence(error: &Arc<sqlx::Error>) -> PersistenceError {
    match &**error {
        sqlx::Error::Database(db_error) if db_error.is_unique_violation() => PersistenceError::OptimisticLockError,
        sqlx::Error::Io(_) | sqlx::Error::PoolTimedOut | sqlx::Error::PoolClosed | sqlx::Error::Tls(_) => {
            PersistenceError::ConnectionError(Box::new(Shared(error.clone())))
        }
        _ => PersistenceError::UnknownError(Box::new(Shared(error.clone()))),
    }
}

/// At most this many events are written in one batch (the rest wait for the next).
const BATCH_EVENTS: usize = ONE_STATEMENT;

impl Appender {
    pub(crate) fn new(db: Db) -> Arc<Self> {
        Arc::new(Self { db, queue: Mutex::new(Vec::new()), writing: tokio::sync::Mutex::new(()) })
    }

    /// Appends `events` (already sealed) of one aggregate of type `aggregate_type`, all or none,
    /// and records the cursor of the last for [`tracking`].
    pub(crate) async fn append(
        self: &Arc<Self>,
        aggregate_type: &'static str,
        events: &[SerializedEvent],
    ) -> Result<(), PersistenceError> {
        if events.is_empty() {
            return Ok(());
        }
        let idle = || {
            let writing = self.writing.try_lock().ok()?;
            self.queue.lock().unwrap_or_else(|e| e.into_inner()).is_empty().then_some(writing)
        };
        let cursor = if events.len() > BATCH_EVENTS {
            alone(&self.db, aggregate_type, events).await?
        } else if let Some(_writing) = idle() {
            // Nobody is writing and nothing waits: written here, without a hand-over to a
            // writer task. Whoever queues meanwhile is written once this is done.
            alone(&self.db, aggregate_type, events).await?
        } else {
            let (answer, answered) = oneshot::channel();
            let first = {
                let mut queue = self.queue.lock().unwrap_or_else(|e| e.into_inner());
                queue.push(Pending { aggregate_type, events: events.to_vec(), answer });
                queue.len() == 1
            };
            // Whoever queues into an empty queue starts a writer; until that writer takes the
            // queue, everything queued after is its to write.
            if first {
                let this = self.clone();
                tokio::spawn(async move { this.write_queued().await });
            }
            answered
                .await
                .map_err(|_| PersistenceError::UnknownError("the append was dropped before it was written".into()))??
        };
        let _ = APPENDED.try_with(|slot| slot.set(cursor));
        Ok(())
    }

    /// Writes what is queued, batch after batch, until the queue is empty.
    async fn write_queued(&self) {
        let _writing = self.writing.lock().await;
        loop {
            let batch = {
                let mut queue = self.queue.lock().unwrap_or_else(|e| e.into_inner());
                let mut events = 0;
                let take = queue
                    .iter()
                    .take_while(|p| {
                        events += p.events.len();
                        events <= BATCH_EVENTS
                    })
                    .count()
                    .max(1);
                let take = take.min(queue.len());
                queue.drain(..take).collect::<Vec<_>>()
            };
            if batch.is_empty() {
                return;
            }
            let answers = self.write(&batch).await;
            for (pending, answer) in batch.into_iter().zip(answers) {
                let _ = pending.answer.send(answer);
            }
        }
    }

    /// Writes `batch`, answering each of its commands in order.
    async fn write(&self, batch: &[Pending]) -> Vec<Appended> {
        if let [one] = batch {
            return vec![alone(&self.db, one.aggregate_type, &one.events).await];
        }
        let written = match &self.db {
            Db::Postgres(pool) => postgres_batch(pool, batch).await,
            Db::Sqlite { write, .. } => sqlite_batch(write, batch).await,
        };
        match written {
            Ok(answers) => answers,
            Err(error) => {
                let error = Arc::new(error);
                batch.iter().map(|_| Err(shared_persistence(&error))).collect()
            }
        }
    }
}

/// Writes one command's events on their own and answers the cursor of the last.
async fn alone(db: &Db, aggregate_type: &str, events: &[SerializedEvent]) -> Appended {
    Ok(match db {
        Db::Postgres(pool) => {
            const RETURNING: &str = " RETURNING transaction_id::text::bigint AS tx, global_position AS pos";
            let mut rows = Vec::with_capacity(events.len());
            if events.len() <= ONE_STATEMENT {
                let sql = insert_sql(events.len(), true, RETURNING);
                rows = bind_events!(sqlx::query(&sql), aggregate_type, events)
                    .fetch_all(pool)
                    .await
                    .map_err(persistence)?;
            } else {
                let mut tx = pool.begin().await.map_err(persistence)?;
                for chunk in events.chunks(ONE_STATEMENT) {
                    let sql = insert_sql(chunk.len(), true, RETURNING);
                    let got = bind_events!(sqlx::query(&sql), aggregate_type, chunk)
                        .fetch_all(&mut *tx)
                        .await
                        .map_err(persistence)?;
                    rows.extend(got);
                }
                tx.commit().await.map_err(persistence)?;
            }
            rows.iter().map(|r| Cursor { tx: r.get("tx"), pos: r.get("pos") }).max()
        }
        Db::Sqlite { write, .. } => {
            let row = if events.len() <= ONE_STATEMENT {
                let sql = insert_sql(events.len(), true, "");
                let mut conn = write.acquire().await.map_err(persistence)?;
                bind_events!(sqlx::query(&sql), aggregate_type, events)
                    .execute(&mut *conn)
                    .await
                    .map_err(persistence)?;
                sqlx::query(LAST).fetch_optional(&mut *conn).await.map_err(persistence)?
            } else {
                let mut tx = write.begin().await.map_err(persistence)?;
                for chunk in events.chunks(ONE_STATEMENT) {
                    let sql = insert_sql(chunk.len(), true, "");
                    bind_events!(sqlx::query(&sql), aggregate_type, chunk)
                        .execute(&mut *tx)
                        .await
                        .map_err(persistence)?;
                }
                let row = sqlx::query(LAST).fetch_optional(&mut *tx).await.map_err(persistence)?;
                tx.commit().await.map_err(persistence)?;
                row
            };
            row.and_then(|r| r.get::<Option<i64>, _>("pos")).map(|pos| Cursor { tx: 0, pos })
        }
    })
}

/// The position of the row the write connection inserted last (SQLite).
const LAST: &str = "SELECT global_position AS pos FROM events WHERE rowid = last_insert_rowid()";

/// Several commands' events in one multi-row INSERT. When one of them lost the race on its
/// aggregate the statement fails as a whole and writes nothing; each command is then written on
/// its own, so that only the loser is told.
async fn postgres_batch(pool: &sqlx::PgPool, batch: &[Pending]) -> Result<Vec<Appended>, sqlx::Error> {
    let rows: usize = batch.iter().map(|p| p.events.len()).sum();
    let sql = insert_sql(
        rows,
        false,
        " RETURNING aggregate_type, aggregate_id, sequence, transaction_id::text::bigint AS tx, global_position AS pos",
    );
    let mut query = sqlx::query(&sql);
    for pending in batch {
        for event in &pending.events {
            query = query
                .bind(pending.aggregate_type)
                .bind(event.aggregate_id.as_str())
                .bind(event.sequence as i64)
                .bind(event.event_type.as_str())
                .bind(event.event_version.as_str())
                .bind(&event.payload)
                .bind(&event.metadata);
        }
    }
    let written = match query.fetch_all(pool).await {
        Ok(written) => written,
        Err(sqlx::Error::Database(e)) if e.is_unique_violation() => {
            let mut answers = Vec::with_capacity(batch.len());
            for pending in batch {
                answers.push(alone(&Db::Postgres(pool.clone()), pending.aggregate_type, &pending.events).await);
            }
            return Ok(answers);
        }
        Err(other) => return Err(other),
    };
    let mut cursors: HashMap<(String, String, i64), Cursor> = HashMap::with_capacity(written.len());
    for row in &written {
        cursors.insert(
            (row.get("aggregate_type"), row.get("aggregate_id"), row.get("sequence")),
            Cursor { tx: row.get("tx"), pos: row.get("pos") },
        );
    }
    Ok(batch
        .iter()
        .map(|pending| {
            Ok(pending
                .events
                .iter()
                .filter_map(|e| {
                    cursors
                        .get(&(pending.aggregate_type.to_string(), e.aggregate_id.clone(), e.sequence as i64))
                        .copied()
                })
                .max())
        })
        .collect())
}

/// Several commands' events in one transaction on the write connection, each command's INSERT
/// in turn. An INSERT that lost the race on its aggregate is undone alone (SQLite undoes the
/// failing statement and keeps the transaction), and the rest commit together.
async fn sqlite_batch(write: &sqlx::SqlitePool, batch: &[Pending]) -> Result<Vec<Appended>, sqlx::Error> {
    let mut tx = write.begin().await?;
    let mut answers = Vec::with_capacity(batch.len());
    for pending in batch {
        let sql = insert_sql(pending.events.len(), true, "");
        match bind_events!(sqlx::query(&sql), pending.aggregate_type, &pending.events).execute(&mut *tx).await {
            Ok(_) => {
                let row = sqlx::query(LAST).fetch_optional(&mut *tx).await?;
                let cursor = row.and_then(|r| r.get::<Option<i64>, _>("pos")).map(|pos| Cursor { tx: 0, pos });
                answers.push(Ok(cursor));
            }
            Err(sqlx::Error::Database(e)) if e.is_unique_violation() => {
                answers.push(Err(PersistenceError::OptimisticLockError))
            }
            Err(other) => return Err(other),
        }
    }
    tx.commit().await?;
    Ok(answers)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_insert_numbers_six_values_per_event_after_the_shared_type() {
        assert_eq!(
            insert_sql(2, true, ""),
            "INSERT INTO events (aggregate_type, aggregate_id, sequence, event_type, event_version, payload, \
             metadata) VALUES ($1, $2, $3, $4, $5, $6, $7), ($1, $8, $9, $10, $11, $12, $13)"
        );
    }

    #[test]
    fn a_batch_of_several_types_numbers_seven_values_per_event() {
        assert_eq!(
            insert_sql(2, false, " RETURNING 1"),
            "INSERT INTO events (aggregate_type, aggregate_id, sequence, event_type, event_version, payload, \
             metadata) VALUES ($1, $2, $3, $4, $5, $6, $7), ($8, $9, $10, $11, $12, $13, $14) RETURNING 1"
        );
    }
}
