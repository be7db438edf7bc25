//! Appending a command's events: one statement, and the feed cursor it reached.
//!
//! cqrs-es's repositories write a command's events in an explicit transaction (BEGIN, one
//! INSERT per event, COMMIT), after which the bus asked the store again for the cursor of the
//! aggregate's newest event, so that callers can wait for the read models. Here the events go in
//! as one multi-row INSERT, which is atomic on its own, and the cursor comes back with it:
//!
//! - Postgres: `INSERT ... RETURNING` the rows' transaction ids and positions, one round trip.
//! - SQLite: the INSERT and then the last row's position (assigned by the chaining trigger after
//!   the insert, which RETURNING would not show), sent as one query of two statements on the one
//!   write connection, so that no other write comes in between.
//!
//! A second writer of the same aggregate sequence fails on the primary key, which is the
//! optimistic-lock conflict the bus retries. Loading stays with the cqrs-es repositories.
//!
//! The cursor reaches [`crate::bus::CommandBus::execute`] through a task-local slot set around
//! one command: cqrs-es's `execute` answers nothing but success.

use std::cell::Cell;

use cqrs_es::persist::{PersistenceError, SerializedEvent};
use sqlx::Row;

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

/// A multi-row INSERT of `n` events after one parameter every row shares (`$1`): `row(b)` writes
/// one event's seven values, its own six numbered from `$b`. Units use it too
/// ([`crate::unit`]), sharing the metadata instead of the aggregate type.
pub(crate) fn events_insert_sql(n: usize, row: impl Fn(usize) -> String) -> String {
    let rows: Vec<String> = (0..n).map(|i| row(2 + i * 6)).collect();
    format!(
        "INSERT INTO events (aggregate_type, aggregate_id, sequence, event_type, event_version, payload, metadata) \
         VALUES {}",
        rows.join(", ")
    )
}

/// The multi-row INSERT for `n` events of one aggregate type; `$1` is the aggregate type, then six
/// values per event.
fn insert_sql(n: usize, returning: &str) -> String {
    let row = |b: usize| format!("($1, ${b}, ${}, ${}, ${}, ${}, ${})", b + 1, b + 2, b + 3, b + 4, b + 5);
    events_insert_sql(n, row) + returning
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
pub(crate) const ONE_STATEMENT: usize = 1_000;

/// Appends `events` (already sealed) of one aggregate of type `aggregate_type`, all or none, and
/// records the cursor of the last for [`tracking`].
pub(crate) async fn append(db: &Db, aggregate_type: &str, events: &[SerializedEvent]) -> Result<(), PersistenceError> {
    if events.is_empty() {
        return Ok(());
    }
    let cursor = match db {
        Db::Postgres(pool) => {
            const RETURNING: &str = " RETURNING transaction_id::text::bigint AS tx, global_position AS pos";
            let mut rows = Vec::with_capacity(events.len());
            if events.len() <= ONE_STATEMENT {
                let sql = insert_sql(events.len(), RETURNING);
                rows = bind_events!(sqlx::query(&sql), aggregate_type, events)
                    .fetch_all(pool)
                    .await
                    .map_err(persistence)?;
            } else {
                let mut tx = pool.begin().await.map_err(persistence)?;
                for chunk in events.chunks(ONE_STATEMENT) {
                    let sql = insert_sql(chunk.len(), RETURNING);
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
            const LAST: &str = "SELECT global_position AS pos FROM events WHERE rowid = last_insert_rowid()";
            let row = if events.len() <= ONE_STATEMENT {
                // Both statements in one query: the connection's worker thread runs them back to
                // back, so one hand-over to it, not two.
                let sql = format!("{}; {LAST}", insert_sql(events.len(), ""));
                bind_events!(sqlx::query(&sql), aggregate_type, events)
                    .fetch_optional(write)
                    .await
                    .map_err(persistence)?
            } else {
                let mut tx = write.begin().await.map_err(persistence)?;
                for chunk in events.chunks(ONE_STATEMENT) {
                    let sql = insert_sql(chunk.len(), "");
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
    };
    let _ = APPENDED.try_with(|slot| slot.set(cursor));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_insert_numbers_six_values_per_event_after_the_shared_type() {
        assert_eq!(
            insert_sql(2, ""),
            "INSERT INTO events (aggregate_type, aggregate_id, sequence, event_type, event_version, payload, \
             metadata) VALUES ($1, $2, $3, $4, $5, $6, $7), ($1, $8, $9, $10, $11, $12, $13)"
        );
    }
}
