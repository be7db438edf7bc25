//! The global feed: every event of every aggregate in one commit-consistent order.
//!
//! cqrs-es orders events only within an aggregate. Consumers (projections, the live hub, audit
//! and exports) need one order over all of them in which nothing ever appears behind a cursor
//! they have passed.
//!
//! - SQLite: one writer, so the trigger-assigned `global_position` grows in commit order.
//! - Postgres: `global_position` is assigned at insert, not commit, so a slow transaction can
//!   commit a smaller position after a reader passed it. Rows are read only when their
//!   transaction is older than every running transaction (`pg_snapshot_xmin`) and ordered by
//!   `(transaction_id, global_position)`; every transaction behind that fence has finished, and
//!   any later one gets a larger id, so the order never grows behind a reader.

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use tokio::sync::watch;

use crate::store::{Arg, Db};

/// A position in the global feed. On SQLite `tx` is always 0.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cursor {
    pub tx: i64,
    pub pos: i64,
}

impl Cursor {
    pub const START: Cursor = Cursor { tx: 0, pos: 0 };
}

impl fmt::Display for Cursor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.tx, self.pos)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a cursor looks like 0-42 (two non-negative numbers joined by a dash)")]
pub struct BadCursor;

impl FromStr for Cursor {
    type Err = BadCursor;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (tx, pos) = s.split_once('-').ok_or(BadCursor)?;
        let tx: i64 = tx.parse().map_err(|_| BadCursor)?;
        let pos: i64 = pos.parse().map_err(|_| BadCursor)?;
        if tx < 0 || pos < 0 {
            return Err(BadCursor);
        }
        Ok(Cursor { tx, pos })
    }
}

impl Serialize for Cursor {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Cursor {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// One event as the feed hands it out.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StoredEvent {
    pub cursor: Cursor,
    pub aggregate_type: String,
    pub aggregate_id: String,
    pub sequence: i64,
    pub event_type: String,
    pub event_version: String,
    pub payload: serde_json::Value,
    pub metadata: serde_json::Value,
    pub recorded_at: String,
}

impl StoredEvent {
    /// The acting user from the metadata, if any.
    pub fn actor(&self) -> Option<&str> {
        self.metadata.get("user_id").and_then(|v| v.as_str())
    }

    /// The payload's fields: cqrs-es stores an enum variant as `{"Variant": {fields}}`.
    pub fn fields(&self) -> &serde_json::Value {
        match &self.payload {
            serde_json::Value::Object(map) if map.len() == 1 => map.values().next().unwrap_or(&serde_json::Value::Null),
            other => other,
        }
    }
}

#[derive(sqlx::FromRow)]
struct FeedRow {
    tx: i64,
    pos: i64,
    aggregate_type: String,
    aggregate_id: String,
    sequence: i64,
    event_type: String,
    event_version: String,
    payload: String,
    metadata: String,
    recorded_at: String,
}

impl FeedRow {
    fn into_event(self) -> StoredEvent {
        StoredEvent {
            cursor: Cursor { tx: self.tx, pos: self.pos },
            aggregate_type: self.aggregate_type,
            aggregate_id: self.aggregate_id,
            sequence: self.sequence,
            event_type: self.event_type,
            event_version: self.event_version,
            payload: serde_json::from_str(&self.payload).unwrap_or(serde_json::Value::Null),
            metadata: serde_json::from_str(&self.metadata).unwrap_or(serde_json::Value::Null),
            recorded_at: self.recorded_at,
        }
    }
}

const SQLITE_COLUMNS: &str = "0 AS tx, global_position AS pos, aggregate_type, aggregate_id, \
     sequence, event_type, event_version, payload, metadata, recorded_at";
const PG_COLUMNS: &str = "transaction_id::text::bigint AS tx, global_position AS pos, \
     aggregate_type, aggregate_id, sequence, event_type, event_version, payload::text AS payload, \
     metadata::text AS metadata, \
     to_char(recorded_at AT TIME ZONE 'utc', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"') AS recorded_at";
/// Only transactions that finished before every running one are safe to read.
const PG_FENCE: &str = "transaction_id < pg_snapshot_xmin(pg_current_snapshot())";

/// Reads up to `limit` events after `after`, in feed order.
pub async fn read_after(db: &Db, after: Cursor, limit: i64) -> sqlx::Result<Vec<StoredEvent>> {
    let rows: Vec<FeedRow> = match db {
        Db::Sqlite { .. } => {
            db.fetch_all(
                &format!(
                    "SELECT {SQLITE_COLUMNS} FROM events WHERE global_position > $1 \
                     ORDER BY global_position LIMIT $2"
                ),
                vec![Arg::Int(after.pos), Arg::Int(limit)],
            )
            .await?
        }
        Db::Postgres(_) => {
            db.fetch_all(
                &format!(
                    "SELECT {PG_COLUMNS} FROM events \
                     WHERE (transaction_id, global_position) > ($1::text::xid8, $2) AND {PG_FENCE} \
                     ORDER BY transaction_id, global_position LIMIT $3"
                ),
                vec![Arg::Text(after.tx.to_string()), Arg::Int(after.pos), Arg::Int(limit)],
            )
            .await?
        }
    };
    Ok(rows.into_iter().map(FeedRow::into_event).collect())
}

/// Reads one aggregate's history in sequence order, with feed cursors.
pub async fn read_aggregate(db: &Db, aggregate_type: &str, aggregate_id: &str) -> sqlx::Result<Vec<StoredEvent>> {
    let columns = match db {
        Db::Sqlite { .. } => SQLITE_COLUMNS,
        Db::Postgres(_) => PG_COLUMNS,
    };
    let rows: Vec<FeedRow> = db
        .fetch_all(
            &format!(
                "SELECT {columns} FROM events WHERE aggregate_type = $1 AND aggregate_id = $2 \
                 ORDER BY sequence"
            ),
            vec![aggregate_type.into(), aggregate_id.into()],
        )
        .await?;
    Ok(rows.into_iter().map(FeedRow::into_event).collect())
}

#[derive(sqlx::FromRow)]
struct CursorRow {
    tx: i64,
    pos: i64,
}

/// The cursor of the newest event a feed reader can see now.
pub async fn head(db: &Db) -> sqlx::Result<Cursor> {
    let row: Option<CursorRow> = match db {
        Db::Sqlite { .. } => {
            db.fetch_optional(
                "SELECT 0 AS tx, global_position AS pos FROM events \
                 WHERE global_position IS NOT NULL ORDER BY global_position DESC LIMIT 1",
                vec![],
            )
            .await?
        }
        Db::Postgres(_) => {
            db.fetch_optional(
                &format!(
                    "SELECT transaction_id::text::bigint AS tx, global_position AS pos FROM events \
                     WHERE {PG_FENCE} ORDER BY transaction_id DESC, global_position DESC LIMIT 1"
                ),
                vec![],
            )
            .await?
        }
    };
    Ok(row.map(|r| Cursor { tx: r.tx, pos: r.pos }).unwrap_or_default())
}

/// The cursor of an aggregate's newest event, to wait for read models to include it.
pub async fn last_of_aggregate(db: &Db, aggregate_type: &str, aggregate_id: &str) -> sqlx::Result<Option<Cursor>> {
    let sql = match db {
        Db::Sqlite { .. } => {
            "SELECT 0 AS tx, global_position AS pos FROM events \
             WHERE aggregate_type = $1 AND aggregate_id = $2 ORDER BY sequence DESC LIMIT 1"
        }
        Db::Postgres(_) => {
            "SELECT transaction_id::text::bigint AS tx, global_position AS pos FROM events \
             WHERE aggregate_type = $1 AND aggregate_id = $2 ORDER BY sequence DESC LIMIT 1"
        }
    };
    let row: Option<CursorRow> = db.fetch_optional(sql, vec![aggregate_type.into(), aggregate_id.into()]).await?;
    Ok(row.map(|r| Cursor { tx: r.tx, pos: r.pos }))
}

/// Wakes feed consumers when events may have been appended. A counter in a watch channel, so a
/// consumer that was busy when the signal came still sees it on its next wait.
#[derive(Clone)]
pub struct FeedSignal {
    tx: Arc<watch::Sender<u64>>,
}

impl Default for FeedSignal {
    fn default() -> Self {
        let (tx, _) = watch::channel(0);
        Self { tx: Arc::new(tx) }
    }
}

impl FeedSignal {
    pub fn notify(&self) {
        self.tx.send_modify(|n| *n = n.wrapping_add(1));
    }

    pub fn subscribe(&self) -> watch::Receiver<u64> {
        self.tx.subscribe()
    }

    /// On Postgres, forwards `NOTIFY needl_events` from other nodes (and this one) to the
    /// signal. Reconnects after a failure; ends with the process.
    pub fn listen_postgres(&self, db: &Db) {
        let Some(pool) = db.pg_pool().cloned() else {
            return;
        };
        let signal = self.clone();
        tokio::spawn(async move {
            loop {
                match sqlx::postgres::PgListener::connect_with(&pool).await {
                    Ok(mut listener) => {
                        if let Err(error) = listener.listen("needl_events").await {
                            tracing::warn!(%error, "LISTEN needl_events failed");
                        } else {
                            while listener.recv().await.is_ok() {
                                signal.notify();
                            }
                        }
                    }
                    Err(error) => tracing::warn!(%error, "feed listener cannot connect"),
                }
                tokio::time::sleep(std::time::Duration::from_secs(1)).await;
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursors_order_by_transaction_then_position() {
        let a = Cursor { tx: 5, pos: 100 };
        let b = Cursor { tx: 6, pos: 3 };
        assert!(a < b);
        assert!(Cursor { tx: 6, pos: 4 } > b);
    }

    #[test]
    fn a_cursor_survives_a_round_trip_through_text() {
        let c = Cursor { tx: 812, pos: 17 };
        assert_eq!(c.to_string().parse::<Cursor>(), Ok(c));
    }

    #[test]
    fn malformed_cursors_are_refused() {
        for bad in ["", "12", "a-b", "-1-2", "1-", "1-2-3"] {
            assert_eq!(bad.parse::<Cursor>(), Err(BadCursor), "{bad:?}");
        }
    }
}
