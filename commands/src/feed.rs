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

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use tokio::sync::watch;

use crate::personal::{self, EventFields};
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

/// One event as the feed hands it out: its payload upcast to the newest version of its type
/// (`domain::upcast`), and `event_version` that version.
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

    /// The payload as its event type, read in place (no copy of the JSON tree).
    pub fn decode<T: serde::de::DeserializeOwned>(&self) -> serde_json::Result<T> {
        T::deserialize(&self.payload)
    }

    /// When the event happened: the metadata's `time`, else when it was recorded.
    pub fn time(&self) -> &str {
        self.metadata["time"].as_str().unwrap_or(&self.recorded_at)
    }
}

/// One event as stored. On SQLite a batch of them comes packed in one JSON array
/// ([`sqlite_rows`]), each row an array of these fields in this order.
#[derive(sqlx::FromRow, Deserialize)]
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

/// Turns rows into events: their personal fields opened ([`personal::open`], one query for a
/// batch that has any), then upcast.
async fn into_events(db: &Db, rows: Vec<FeedRow>) -> sqlx::Result<Vec<StoredEvent>> {
    let mut payloads: Vec<serde_json::Value> =
        rows.iter().map(|row| serde_json::from_str(&row.payload).unwrap_or(serde_json::Value::Null)).collect();
    let mut fields: Vec<EventFields<'_>> = rows
        .iter()
        .zip(payloads.iter_mut())
        .map(|(row, payload)| EventFields {
            aggregate_type: &row.aggregate_type,
            aggregate_id: &row.aggregate_id,
            event_type: &row.event_type,
            payload,
        })
        .collect();
    personal::open(db, &mut fields).await?;
    Ok(rows.into_iter().zip(payloads).map(|(row, payload)| row.into_event(payload)).collect())
}

impl FeedRow {
    fn into_event(self, payload: serde_json::Value) -> StoredEvent {
        let (event_version, payload) = domain::upcast::upcast(&self.event_type, &self.event_version, payload);
        StoredEvent {
            cursor: Cursor { tx: self.tx, pos: self.pos },
            aggregate_type: self.aggregate_type,
            aggregate_id: self.aggregate_id,
            sequence: self.sequence,
            event_type: self.event_type,
            event_version,
            payload,
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

/// SQLite: the rows `select` (a query of [`SQLITE_COLUMNS`]) reads, in the order of `order`
/// (`pos` or `pos DESC`).
///
/// They come packed in one JSON array, as one value of one row. SQLite's connection runs on a
/// thread of its own that hands every row of a result to the caller's task separately, waking it
/// each time: for a batch of thousands (a rebuild reads 5,000 at a time) that hand-over, and the
/// copying of every column into a row of its own, cost more than reading the events. A batch too
/// long for one SQLite string (a gigabyte) is read row by row instead.
async fn sqlite_rows(db: &Db, select: &str, order: &str, args: Vec<Arg>) -> sqlx::Result<Vec<FeedRow>> {
    #[derive(sqlx::FromRow)]
    struct Packed {
        rows: String,
    }
    let packed = format!(
        "SELECT json_group_array(json_array(tx, pos, aggregate_type, aggregate_id, sequence, event_type, \
         event_version, payload, metadata, recorded_at) ORDER BY {order}) AS rows FROM ({select})"
    );
    match db.fetch_optional::<Packed>(&packed, args.clone()).await {
        Ok(Some(Packed { rows })) => serde_json::from_str(&rows).map_err(|error| sqlx::Error::Decode(Box::new(error))),
        Ok(None) => Ok(Vec::new()),
        Err(error) if error.as_database_error().and_then(|e| e.code()).as_deref() == Some(SQLITE_TOOBIG) => {
            db.fetch_all(select, args).await
        }
        Err(error) => Err(error),
    }
}

/// SQLite's result code for a string or blob longer than its limit.
const SQLITE_TOOBIG: &str = "18";

/// Only transactions that finished before every running one are safe to read.
const PG_FENCE: &str = "transaction_id < pg_snapshot_xmin(pg_current_snapshot())";

/// Reads up to `limit` events after `after`, in feed order.
pub async fn read_after(db: &Db, after: Cursor, limit: i64) -> sqlx::Result<Vec<StoredEvent>> {
    let rows: Vec<FeedRow> = match db {
        Db::Sqlite { .. } => {
            sqlite_rows(
                db,
                &format!(
                    "SELECT {SQLITE_COLUMNS} FROM events WHERE global_position > $1 \
                     ORDER BY global_position LIMIT $2"
                ),
                "pos",
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
    into_events(db, rows).await
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
    into_events(db, rows).await
}

/// What a reader narrows the feed to. Every field is optional; those given must all hold.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FeedFilter {
    /// The acting user's id (`metadata.user_id`), `system` included.
    pub user_id: Option<String>,
    pub aggregate_type: Option<String>,
    pub aggregate_id: Option<String>,
    /// Aggregate ids that start with this: the documents of a channel (`channel/...`), the
    /// subscriptions of a user (`user/...`).
    pub aggregate_id_prefix: Option<String>,
    pub event_type: Option<String>,
    /// Recorded at or after this time.
    pub from: Option<DateTime<Utc>>,
    /// Recorded at or before this time.
    pub to: Option<DateTime<Utc>>,
    /// The request that caused the event (`metadata.request_id`).
    pub request_id: Option<String>,
    /// A field of the event's own payload (inside its variant) equal to a value. The field name
    /// is written into the SQL, so it is a constant of the caller's, never input.
    pub payload_field: Option<(&'static str, String)>,
    /// Only events at or before this cursor.
    pub upto: Option<Cursor>,
}

/// Returns a time as SQLite's `recorded_at` spells it (milliseconds, UTC, `Z`). Stored times have
/// millisecond precision, so a lower bound is rounded up and an upper bound down: a bound between
/// two milliseconds then admits exactly the events on its side of it. (Postgres keeps
/// microseconds; there times are compared truncated to the millisecond the feed shows, so a
/// bound copied from an event's `recorded_at` admits that event on both backends.)
fn sqlite_time(time: DateTime<Utc>, lower_bound: bool) -> String {
    let sub_milli = time.timestamp_subsec_nanos() % 1_000_000;
    let time = if lower_bound && sub_milli != 0 {
        time + chrono::Duration::nanoseconds(i64::from(1_000_000 - sub_milli))
    } else {
        time
    };
    time.format("%Y-%m-%dT%H:%M:%S%.3fZ").to_string()
}

/// SQL conditions (joined with AND, each starting with ` AND `) and their arguments for `filter`,
/// numbering placeholders from `$first`.
fn filter_sql(db: &Db, filter: &FeedFilter, first: usize) -> (String, Vec<Arg>) {
    let pg = matches!(db, Db::Postgres(_));
    let mut sql = String::new();
    let mut args = Vec::new();
    let next = |args: &mut Vec<Arg>, value: Arg| {
        args.push(value);
        format!("${}", first + args.len() - 1)
    };
    let text = if pg { "::text" } else { "" };
    let json_field = |column: &str, field: &str| {
        if pg {
            format!("{column}->>'{field}'")
        } else {
            format!("json_extract({column}, '$.{field}')")
        }
    };
    if let Some(user_id) = &filter.user_id {
        let p = next(&mut args, Arg::from(user_id));
        sql.push_str(&format!(" AND {} = {p}", json_field("metadata", "user_id")));
    }
    if let Some(request_id) = &filter.request_id {
        let p = next(&mut args, Arg::from(request_id));
        sql.push_str(&format!(" AND {} = {p}", json_field("metadata", "request_id")));
    }
    if let Some(aggregate_type) = &filter.aggregate_type {
        let p = next(&mut args, Arg::from(aggregate_type));
        sql.push_str(&format!(" AND aggregate_type = {p}"));
    }
    if let Some(aggregate_id) = &filter.aggregate_id {
        let p = next(&mut args, Arg::from(aggregate_id));
        sql.push_str(&format!(" AND aggregate_id = {p}"));
    }
    if let Some(prefix) = &filter.aggregate_id_prefix {
        let p = next(&mut args, Arg::from(prefix));
        sql.push_str(&format!(" AND substr(aggregate_id, 1, length({p}{text})) = {p}{text}"));
    }
    if let Some(event_type) = &filter.event_type {
        let p = next(&mut args, Arg::from(event_type));
        sql.push_str(&format!(" AND event_type = {p}"));
    }
    if let Some((field, value)) = &filter.payload_field {
        let p = next(&mut args, Arg::from(value));
        if pg {
            sql.push_str(&format!(" AND payload -> event_type ->> '{field}' = {p}"));
        } else {
            sql.push_str(&format!(" AND json_extract(payload, '$.' || event_type || '.{field}') = {p}"));
        }
    }
    for (bound, op, lower) in [(filter.from, ">=", true), (filter.to, "<=", false)] {
        let Some(time) = bound else { continue };
        if pg {
            let p = next(&mut args, Arg::Text(time.to_rfc3339()));
            sql.push_str(&format!(" AND date_trunc('milliseconds', recorded_at) {op} {p}::timestamptz"));
        } else {
            let p = next(&mut args, Arg::Text(sqlite_time(time, lower)));
            sql.push_str(&format!(" AND recorded_at {op} {p}"));
        }
    }
    if let Some(upto) = filter.upto {
        if pg {
            let tx = next(&mut args, Arg::Text(upto.tx.to_string()));
            let pos = next(&mut args, Arg::Int(upto.pos));
            sql.push_str(&format!(" AND (transaction_id, global_position) <= ({tx}::text::xid8, {pos})"));
        } else {
            let pos = next(&mut args, Arg::Int(upto.pos));
            sql.push_str(&format!(" AND global_position <= {pos}"));
        }
    }
    (sql, args)
}

/// Reads up to `limit` events after `after` that pass `filter`, in feed order.
pub async fn read_filtered(db: &Db, after: Cursor, filter: &FeedFilter, limit: i64) -> sqlx::Result<Vec<StoredEvent>> {
    let rows: Vec<FeedRow> = match db {
        Db::Sqlite { .. } => {
            let (conditions, mut args) = filter_sql(db, filter, 3);
            let mut all = vec![Arg::Int(after.pos), Arg::Int(limit)];
            all.append(&mut args);
            sqlite_rows(
                db,
                &format!(
                    "SELECT {SQLITE_COLUMNS} FROM events WHERE global_position > $1{conditions} \
                     ORDER BY global_position LIMIT $2"
                ),
                "pos",
                all,
            )
            .await?
        }
        Db::Postgres(_) => {
            let (conditions, mut args) = filter_sql(db, filter, 4);
            let mut all = vec![Arg::Text(after.tx.to_string()), Arg::Int(after.pos), Arg::Int(limit)];
            all.append(&mut args);
            db.fetch_all(
                &format!(
                    "SELECT {PG_COLUMNS} FROM events \
                     WHERE (transaction_id, global_position) > ($1::text::xid8, $2) AND {PG_FENCE}{conditions} \
                     ORDER BY transaction_id, global_position LIMIT $3"
                ),
                all,
            )
            .await?
        }
    };
    into_events(db, rows).await
}

/// Reads up to `limit` events before `before` (from the newest when `None`) that pass `filter`,
/// newest first: the feed order reversed. Paging back with the last event's cursor never skips
/// one, on Postgres too: an event that becomes readable later is past every one read now.
pub async fn read_filtered_before(
    db: &Db,
    before: Option<Cursor>,
    filter: &FeedFilter,
    limit: i64,
) -> sqlx::Result<Vec<StoredEvent>> {
    let rows: Vec<FeedRow> = match db {
        Db::Sqlite { .. } => {
            let mut all = vec![Arg::Int(limit)];
            let position = match before {
                Some(before) => {
                    all.push(Arg::Int(before.pos));
                    "global_position < $2"
                }
                None => "global_position IS NOT NULL",
            };
            let (conditions, mut args) = filter_sql(db, filter, all.len() + 1);
            all.append(&mut args);
            sqlite_rows(
                db,
                &format!(
                    "SELECT {SQLITE_COLUMNS} FROM events WHERE {position}{conditions} \
                     ORDER BY global_position DESC LIMIT $1"
                ),
                "pos DESC",
                all,
            )
            .await?
        }
        Db::Postgres(_) => {
            let mut all = vec![Arg::Int(limit)];
            let position = match before {
                Some(before) => {
                    all.push(Arg::Text(before.tx.to_string()));
                    all.push(Arg::Int(before.pos));
                    " AND (transaction_id, global_position) < ($2::text::xid8, $3)"
                }
                None => "",
            };
            let (conditions, mut args) = filter_sql(db, filter, all.len() + 1);
            all.append(&mut args);
            db.fetch_all(
                &format!(
                    "SELECT {PG_COLUMNS} FROM events WHERE {PG_FENCE}{position}{conditions} \
                     ORDER BY transaction_id DESC, global_position DESC LIMIT $1"
                ),
                all,
            )
            .await?
        }
    };
    into_events(db, rows).await
}

/// Reads every event that passes `filter`, in feed order, a page at a time. For selections
/// known to be small (one aggregate's history, one channel's documents).
pub async fn read_all_filtered(db: &Db, filter: &FeedFilter) -> sqlx::Result<Vec<StoredEvent>> {
    const PAGE: i64 = 1000;
    let mut events: Vec<StoredEvent> = Vec::new();
    let mut after = Cursor::START;
    loop {
        let page = read_filtered(db, after, filter, PAGE).await?;
        let full = page.len() as i64 == PAGE;
        if let Some(last) = page.last() {
            after = last.cursor;
        }
        events.extend(page);
        if !full {
            return Ok(events);
        }
    }
}

/// The cursor of the last event, in feed order, recorded at or before `time`; `None` when the
/// feed has none so old. On Postgres an event's time is its transaction's start, so two events a
/// moment apart may be timed in the other order than the feed's; the feed order wins, and the
/// history as of a time is the feed up to this cursor.
pub async fn cursor_at_time(db: &Db, time: DateTime<Utc>) -> sqlx::Result<Option<Cursor>> {
    let row: Option<CursorRow> = match db {
        Db::Sqlite { .. } => {
            db.fetch_optional(
                "SELECT 0 AS tx, global_position AS pos FROM events \
                 WHERE global_position IS NOT NULL AND recorded_at <= $1 \
                 ORDER BY global_position DESC LIMIT 1",
                vec![Arg::Text(sqlite_time(time, false))],
            )
            .await?
        }
        Db::Postgres(_) => {
            db.fetch_optional(
                &format!(
                    "SELECT transaction_id::text::bigint AS tx, global_position AS pos FROM events \
                     WHERE {PG_FENCE} AND date_trunc('milliseconds', recorded_at) <= $1::timestamptz \
                     ORDER BY transaction_id DESC, global_position DESC LIMIT 1"
                ),
                vec![Arg::Text(time.to_rfc3339())],
            )
            .await?
        }
    };
    Ok(row.map(|r| Cursor { tx: r.tx, pos: r.pos }))
}

#[derive(sqlx::FromRow)]
struct TimeRow {
    recorded_at: String,
}

/// When the event at `cursor` was recorded, as the feed spells it; `None` when no event is there.
pub async fn recorded_at(db: &Db, cursor: Cursor) -> sqlx::Result<Option<String>> {
    let row: Option<TimeRow> = match db {
        Db::Sqlite { .. } => {
            db.fetch_optional("SELECT recorded_at FROM events WHERE global_position = $1", vec![Arg::Int(cursor.pos)])
                .await?
        }
        Db::Postgres(_) => {
            db.fetch_optional(
                "SELECT to_char(recorded_at AT TIME ZONE 'utc', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"') AS recorded_at \
                 FROM events WHERE global_position = $1 AND transaction_id = $2::text::xid8",
                vec![Arg::Int(cursor.pos), Arg::Text(cursor.tx.to_string())],
            )
            .await?
        }
    };
    Ok(row.map(|r| r.recorded_at))
}

#[derive(sqlx::FromRow)]
struct CursorRow {
    tx: i64,
    pos: i64,
}

/// The cursor of the newest event a feed reader can see now.
pub async fn head(db: &Db) -> sqlx::Result<Cursor> {
    newest(db, true).await
}

/// The cursor of the newest committed event, whether or not feed readers can see it yet: on
/// Postgres the [`head`] stops short of the oldest transaction still open anywhere in the
/// cluster, which may have begun before the last commits. Not a place to read from; for waiting,
/// once every writer has finished, until the read models include everything written.
pub async fn newest_committed(db: &Db) -> sqlx::Result<Cursor> {
    newest(db, false).await
}

/// The newest event's cursor, behind the Postgres fence or not (SQLite has none).
async fn newest(db: &Db, fenced: bool) -> sqlx::Result<Cursor> {
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
            let fence = if fenced { PG_FENCE } else { "TRUE" };
            db.fetch_optional(
                &format!(
                    "SELECT transaction_id::text::bigint AS tx, global_position AS pos FROM events \
                     WHERE {fence} ORDER BY transaction_id DESC, global_position DESC LIMIT 1"
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
///
/// On Postgres ([`FeedSignal::listen_postgres`]) it also carries commits between nodes: a
/// `NOTIFY needl_events` after this node's commits ([`FeedSignal::committed`]), sent by a task of
/// its own and coalesced while one is on its way, and every node's NOTIFYs forwarded to the
/// local counter. The NOTIFY is sent after the commit, not inside the writing transaction:
/// NOTIFY takes a lock at commit that would make every event writer wait for the one before it.
#[derive(Clone)]
pub struct FeedSignal {
    tx: Arc<watch::Sender<u64>>,
    /// Wakes the task that tells the other nodes, once [`FeedSignal::listen_postgres`] started it.
    publish: Arc<std::sync::OnceLock<Arc<tokio::sync::Notify>>>,
}

impl Default for FeedSignal {
    fn default() -> Self {
        let (tx, _) = watch::channel(0);
        Self { tx: Arc::new(tx), publish: Arc::default() }
    }
}

impl FeedSignal {
    /// Wakes this process's feed consumers.
    pub fn notify(&self) {
        self.tx.send_modify(|n| *n = n.wrapping_add(1));
    }

    /// Events were committed here: wakes this process's consumers and, on Postgres, the other
    /// nodes'.
    pub fn committed(&self) {
        self.notify();
        if let Some(publish) = self.publish.get() {
            publish.notify_one();
        }
    }

    pub fn subscribe(&self) -> watch::Receiver<u64> {
        self.tx.subscribe()
    }

    /// On Postgres, forwards `NOTIFY needl_events` from other nodes (and this one) to the
    /// signal, and sends one after this node's commits. Reconnects after a failure; ends with the
    /// process.
    pub fn listen_postgres(&self, db: &Db) {
        let Some(pool) = db.pg_pool().cloned() else {
            return;
        };
        let publish = Arc::new(tokio::sync::Notify::new());
        if self.publish.set(publish.clone()).is_err() {
            return; // Already listening.
        }
        let sender = pool.clone();
        tokio::spawn(async move {
            loop {
                // A permit stored while a NOTIFY was on its way sends one more: none is lost,
                // and a burst of commits costs one or two.
                publish.notified().await;
                if let Err(error) = sqlx::query("SELECT pg_notify('needl_events', '')").execute(&sender).await {
                    tracing::warn!(%error, "NOTIFY needl_events failed; other nodes will see the events at their next poll");
                }
            }
        });
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
    fn time_bounds_are_spelled_as_sqlite_records_them_rounded_away_from_the_events_they_exclude() {
        let t = |s: &str| DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc);
        assert_eq!(sqlite_time(t("2025-01-31T09:30:00.1234+01:00"), true), "2025-01-31T08:30:00.124Z");
        assert_eq!(sqlite_time(t("2025-01-31T09:30:00.1234+01:00"), false), "2025-01-31T08:30:00.123Z");
        assert_eq!(sqlite_time(t("2025-01-31T09:30:00Z"), true), "2025-01-31T09:30:00.000Z");
    }

    #[test]
    fn malformed_cursors_are_refused() {
        for bad in ["", "12", "a-b", "-1-2", "1-", "1-2-3"] {
            assert_eq!(bad.parse::<Cursor>(), Err(BadCursor), "{bad:?}");
        }
    }
}
