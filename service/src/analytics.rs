//! The analytics feed: named consumers that read the event history in batches and acknowledge
//! how far they got, so a nightly job resumes where it stopped and never misses or repeats an
//! event; and event counts.
//!
//! Administrators and auditors read events whole (secrets redacted, as in the audit log);
//! analysts read every event's type, aggregate, time and metadata, never its payload. The
//! consumers' own events (registering, acknowledging) are left out of the feed they read.

use commands::feed::{self, Cursor, StoredEvent};
use cqrs_es::Aggregate;
use domain::analytics::{AnalyticsConsumer, ConsumerCommand};
use serde::Serialize;

use crate::audit::{format_time, parse_time};
use crate::context::Context;
use crate::error::{Error, Result};
use crate::input::feed_cursor;
use crate::viewer::Viewer;

/// The largest page of events.
pub const MAX_EVENTS_PER_PAGE: i64 = 1000;
/// The page size when none is asked for.
pub const DEFAULT_EVENTS_PER_PAGE: i64 = 500;

fn require_analytics(viewer: &Viewer) -> Result<()> {
    if viewer.is_admin || viewer.is_auditor || viewer.is_analyst {
        Ok(())
    } else {
        Err(Error::forbidden("only administrators, auditors and analysts may read the analytics feed"))
    }
}

/// Whether the viewer may read events' payloads.
fn reads_content(viewer: &Viewer) -> bool {
    viewer.is_admin || viewer.is_auditor
}

/// A named consumer and how far it has read.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Consumer {
    pub name: String,
    /// The acknowledged feed cursor: the next read starts after it (`0-0`: from the start).
    pub acknowledged: String,
    pub registered_by: String,
    pub registered_at: String,
    pub acknowledged_at: Option<String>,
}

#[derive(sqlx::FromRow)]
struct ConsumerRow {
    name: String,
    cursor_tx: i64,
    cursor_pos: i64,
    registered_by: String,
    registered_at: String,
    acknowledged_at: Option<String>,
}

impl From<ConsumerRow> for Consumer {
    fn from(row: ConsumerRow) -> Self {
        Consumer {
            name: row.name,
            acknowledged: Cursor { tx: row.cursor_tx, pos: row.cursor_pos }.to_string(),
            registered_by: row.registered_by,
            registered_at: row.registered_at,
            acknowledged_at: row.acknowledged_at,
        }
    }
}

const CONSUMER_COLUMNS: &str = "name, cursor_tx, cursor_pos, registered_by, registered_at, acknowledged_at";

async fn consumer(ctx: &Context, name: &str) -> Result<Consumer> {
    let row: Option<ConsumerRow> = ctx
        .db
        .fetch_optional(
            &format!("SELECT {CONSUMER_COLUMNS} FROM analytics_consumers_view WHERE name = $1"),
            vec![name.into()],
        )
        .await?;
    row.map(Consumer::from).ok_or_else(|| {
        Error::new(
            crate::error::Kind::NotFound,
            "unknown_consumer",
            "there is no analytics consumer by that name; register it first",
        )
    })
}

/// Every consumer, by name.
pub async fn consumers(ctx: &Context, viewer: &Viewer) -> Result<Vec<Consumer>> {
    require_analytics(viewer)?;
    let rows: Vec<ConsumerRow> = ctx
        .db
        .fetch_all(&format!("SELECT {CONSUMER_COLUMNS} FROM analytics_consumers_view ORDER BY name"), vec![])
        .await?;
    Ok(rows.into_iter().map(Consumer::from).collect())
}

/// Registers a consumer that will read from the start of the history.
pub async fn register(ctx: &Context, viewer: &Viewer, name: &str) -> Result<Consumer> {
    require_analytics(viewer)?;
    let command = ConsumerCommand::Register { name: name.to_string(), actor: viewer.user_id.clone() };
    ctx.command(&ctx.bus.analytics_consumers, name, command, &viewer.metadata()).await?;
    consumer(ctx, name).await
}

/// Deletes a consumer; registering the name again starts from the beginning.
pub async fn delete(ctx: &Context, viewer: &Viewer, name: &str) -> Result<()> {
    require_analytics(viewer)?;
    let command = ConsumerCommand::Delete { actor: viewer.user_id.clone() };
    ctx.command(&ctx.bus.analytics_consumers, name, command, &viewer.metadata()).await?;
    Ok(())
}

/// Moves the consumer's acknowledged position to `cursor` (a cursor this feed handed out).
pub async fn acknowledge(ctx: &Context, viewer: &Viewer, name: &str, cursor: &str) -> Result<Consumer> {
    require_analytics(viewer)?;
    let cursor = feed_cursor(cursor)?;
    consumer(ctx, name).await?;
    if cursor > feed::head(&ctx.db).await? {
        return Err(Error::malformed(
            "cursor_ahead",
            "that cursor is ahead of the history; acknowledge one you were given",
        ));
    }
    let command = ConsumerCommand::Acknowledge { tx: cursor.tx, pos: cursor.pos, actor: viewer.user_id.clone() };
    ctx.command(&ctx.bus.analytics_consumers, name, command, &viewer.metadata()).await?;
    consumer(ctx, name).await
}

/// One event as the analytics feed gives it.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AnalyticsEvent {
    pub cursor: String,
    pub aggregate_type: String,
    pub aggregate_id: String,
    pub sequence: i64,
    pub event_type: String,
    pub event_version: String,
    pub recorded_at: String,
    /// Who, from where, in which request.
    #[cfg_attr(feature = "openapi", schema(value_type = Object))]
    pub metadata: serde_json::Value,
    /// The event's content, secrets redacted; absent for analysts.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Object>))]
    pub payload: Option<serde_json::Value>,
}

impl AnalyticsEvent {
    fn of(event: StoredEvent, with_content: bool) -> Self {
        let event = crate::audit::redacted(event);
        AnalyticsEvent {
            cursor: event.cursor.to_string(),
            aggregate_type: event.aggregate_type,
            aggregate_id: event.aggregate_id,
            sequence: event.sequence,
            event_type: event.event_type,
            event_version: event.event_version,
            recorded_at: event.recorded_at,
            metadata: event.metadata,
            payload: with_content.then_some(event.payload),
        }
    }
}

/// A batch for a consumer.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AnalyticsPage {
    pub consumer: String,
    /// Where this batch started: the consumer's acknowledged cursor.
    pub after: String,
    pub events: Vec<AnalyticsEvent>,
    /// Acknowledge this once the batch is stored; null when there was nothing new.
    pub next: Option<String>,
}

/// The events after the consumer's acknowledged cursor, in feed order. Reading does not move
/// the consumer: a batch read twice (the job died before storing it) is the same batch.
pub async fn events(ctx: &Context, viewer: &Viewer, name: &str, limit: Option<i64>) -> Result<AnalyticsPage> {
    require_analytics(viewer)?;
    let limit = limit.unwrap_or(DEFAULT_EVENTS_PER_PAGE);
    if !(1..=MAX_EVENTS_PER_PAGE).contains(&limit) {
        return Err(Error::malformed("bad_limit", "limit must be between 1 and 1000"));
    }
    let consumer = consumer(ctx, name).await?;
    let after = feed_cursor(&consumer.acknowledged)?;
    let with_content = reads_content(viewer);
    let mut events = Vec::new();
    let mut next = None;
    let mut at = after;
    // Consumers' own events (an acknowledgement is one) are skipped, and a batch of nothing but
    // those ends the reading with `next` null: acknowledging it would only write another. A long
    // stretch of them is read past, up to a bound, after which `next` lets the consumer move on.
    for pages in 1..=100 {
        let page = feed::read_after(&ctx.db, at, limit).await?;
        let Some(last) = page.last() else { break };
        at = last.cursor;
        let full = page.len() as i64 == limit;
        events.extend(
            page.into_iter()
                .filter(|e| e.aggregate_type != AnalyticsConsumer::TYPE)
                .map(|e| AnalyticsEvent::of(e, with_content)),
        );
        if !events.is_empty() || (full && pages == 100) {
            next = Some(at.to_string());
        }
        if !events.is_empty() || !full {
            break;
        }
    }
    Ok(AnalyticsPage { consumer: consumer.name, after: consumer.acknowledged, events, next })
}

/// What counts are grouped by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CountBy {
    EventType,
    AggregateType,
    Day,
}

impl CountBy {
    pub fn parse(text: &str) -> Result<Self> {
        match text {
            "event_type" => Ok(CountBy::EventType),
            "aggregate_type" => Ok(CountBy::AggregateType),
            "day" => Ok(CountBy::Day),
            _ => Err(Error::malformed("bad_group", "by is event_type, aggregate_type or day")),
        }
    }
}

#[derive(Debug, Serialize, sqlx::FromRow)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Count {
    pub key: String,
    pub count: i64,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Counts {
    pub by: String,
    pub total: i64,
    pub counts: Vec<Count>,
}

/// How many events were recorded in `[from, to)` (RFC 3339 times), grouped.
pub async fn counts(
    ctx: &Context,
    viewer: &Viewer,
    by: CountBy,
    from: Option<&str>,
    to: Option<&str>,
) -> Result<Counts> {
    require_analytics(viewer)?;
    let from = from.map(|t| parse_time("from", t)).transpose()?;
    let to = to.map(|t| parse_time("to", t)).transpose()?;
    if let (Some(from), Some(to)) = (from, to) {
        if from > to {
            return Err(Error::malformed("bad_range", "from must not be after to"));
        }
    }
    let postgres = matches!(ctx.db, commands::Db::Postgres(_));
    let key = match (by, postgres) {
        (CountBy::EventType, _) => "event_type",
        (CountBy::AggregateType, _) => "aggregate_type",
        (CountBy::Day, false) => "substr(recorded_at, 1, 10)",
        (CountBy::Day, true) => "to_char(recorded_at AT TIME ZONE 'utc', 'YYYY-MM-DD')",
    };
    let (from_sql, to_sql) = if postgres { ("$1::timestamptz", "$2::timestamptz") } else { ("$1", "$2") };
    let sql = format!(
        "SELECT {key} AS key, COUNT(*) AS count FROM events \
         WHERE ($1 IS NULL OR recorded_at >= {from_sql}) AND ($2 IS NULL OR recorded_at < {to_sql}) \
         GROUP BY 1 ORDER BY 1"
    );
    let counts: Vec<Count> =
        ctx.db.fetch_all(&sql, vec![from.map(format_time).into(), to.map(format_time).into()]).await?;
    let total = counts.iter().map(|c| c.count).sum();
    let by = match by {
        CountBy::EventType => "event_type",
        CountBy::AggregateType => "aggregate_type",
        CountBy::Day => "day",
    };
    Ok(Counts { by: by.to_string(), total, counts })
}
