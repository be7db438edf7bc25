//! An aggregate as it stood at a point of the history: rebuilt from its events up to a feed
//! cursor, or up to the last event recorded by a time.

use chrono::{DateTime, Utc};
use commands::feed::{self, Cursor, FeedFilter, StoredEvent};
use commands::replay::{self, ReplayError};
use commands::Db;
use serde::Serialize;

use super::{format_time, known_cursor, parse_time, redact, require_auditor, AuditEvent, Names};
use crate::context::Context;
use crate::error::{Error, Result};
use crate::viewer::Viewer;

/// A point of the history as a request names it: exactly one of the two.
#[derive(Debug, Clone, Default)]
pub struct PointInput {
    /// A feed cursor: everything up to and including the event there.
    pub at: Option<String>,
    /// An RFC 3339 time: everything recorded up to then.
    pub time: Option<String>,
}

/// A point of the history, resolved.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Point {
    /// The feed cursor the history is read up to (`0-0` before the first event).
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub cursor: Cursor,
    /// The time asked for, or when the event at the cursor was recorded; null at `0-0`.
    pub time: Option<String>,
}

impl Point {
    /// How a message names this point: the time when one was asked for, else the cursor.
    fn describe(&self, asked_by_time: bool) -> String {
        match (&self.time, asked_by_time) {
            (Some(time), true) => time.clone(),
            _ => self.cursor.to_string(),
        }
    }
}

/// Resolves `input` against the feed: a malformed cursor or time is `bad_cursor` or `bad_time`,
/// a cursor past the feed's head `cursor_ahead`, a time after `now` `time_ahead`. Returns the
/// point and whether it was asked for by time.
pub(crate) async fn resolve(db: &Db, now: DateTime<Utc>, input: &PointInput) -> Result<(Point, bool)> {
    let at = input.at.as_deref().map(str::trim).filter(|s| !s.is_empty());
    let time = input.time.as_deref().map(str::trim).filter(|s| !s.is_empty());
    match (at, time) {
        (Some(at), None) => {
            let cursor = known_cursor(db, at).await?;
            let time = if cursor == Cursor::START { None } else { feed::recorded_at(db, cursor).await? };
            Ok((Point { cursor, time }, false))
        }
        (None, Some(time)) => {
            let time = parse_time("time", time)?;
            if time > now {
                return Err(Error::malformed("time_ahead", "that time is ahead of the history"));
            }
            let cursor = feed::cursor_at_time(db, time).await?.unwrap_or(Cursor::START);
            Ok((Point { cursor, time: Some(format_time(time)) }, true))
        }
        _ => Err(Error::malformed("bad_point", "give exactly one of at (a feed cursor) or time (an RFC 3339 time)")),
    }
}

/// The events of the aggregates `filter` selects up to `point`, or why there are none:
/// `not_found` (`what` never had an event) or `not_yet` (its first event came later).
pub(crate) async fn events_until(
    db: &Db,
    filter: FeedFilter,
    point: &Point,
    by_time: bool,
    what: &str,
) -> Result<Vec<StoredEvent>> {
    let events = feed::read_all_filtered(db, &FeedFilter { upto: Some(point.cursor), ..filter.clone() }).await?;
    if !events.is_empty() {
        return Ok(events);
    }
    if feed::read_filtered(db, Cursor::START, &filter, 1).await?.is_empty() {
        return Err(Error::not_found(format!("no events for that {what}")));
    }
    Err(Error::new(
        crate::error::Kind::NotFound,
        "not_yet",
        format!("that {what} did not exist yet at {}", point.describe(by_time)),
    ))
}

/// Rebuilds an aggregate of `aggregate_type` from `events` (sorted here by sequence) and
/// redacts its state.
pub(crate) fn rebuild(aggregate_type: &str, events: &mut [StoredEvent]) -> Result<serde_json::Value> {
    events.sort_by_key(|e| e.sequence);
    let mut state = replay::rebuild(aggregate_type, events).map_err(|e| match e {
        ReplayError::UnknownType(_) => unknown_type(aggregate_type),
        other => Error::internal(other),
    })?;
    redact(&mut state);
    Ok(state)
}

fn unknown_type(aggregate_type: &str) -> Error {
    let known: Vec<&str> = replay::known_types().collect();
    Error::malformed(
        "unknown_aggregate_type",
        format!("no aggregate type is named {aggregate_type}; known: {}", known.join(", ")),
    )
}

/// An aggregate as it stood at a point, with the events that led there.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AggregateState {
    pub aggregate_type: String,
    pub aggregate_id: String,
    pub as_of: Point,
    /// The sequence number of the last event applied.
    pub sequence: i64,
    /// The aggregate serialised as JSON, secrets redacted.
    #[cfg_attr(feature = "openapi", schema(value_type = Object))]
    pub state: serde_json::Value,
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<Object>))]
    pub events: Vec<AuditEvent>,
}

/// Aggregate `aggregate_type`/`aggregate_id` rebuilt from its events up to `point`.
pub async fn state(
    ctx: &Context,
    viewer: &Viewer,
    aggregate_type: &str,
    aggregate_id: &str,
    point: &PointInput,
) -> Result<AggregateState> {
    require_auditor(viewer)?;
    state_in(&ctx.db, ctx.clock.now(), aggregate_type, aggregate_id, point).await
}

/// [`state`] without a viewer, for the operator.
pub async fn state_in(
    db: &Db,
    now: DateTime<Utc>,
    aggregate_type: &str,
    aggregate_id: &str,
    point: &PointInput,
) -> Result<AggregateState> {
    if !replay::is_known(aggregate_type) {
        return Err(unknown_type(aggregate_type));
    }
    let (point, by_time) = resolve(db, now, point).await?;
    let filter = FeedFilter {
        aggregate_type: Some(aggregate_type.to_string()),
        aggregate_id: Some(aggregate_id.to_string()),
        ..FeedFilter::default()
    };
    let mut events = events_until(db, filter, &point, by_time, "aggregate").await?;
    let state = rebuild(aggregate_type, &mut events)?;
    let sequence = events.last().map(|e| e.sequence).unwrap_or_default();
    Ok(AggregateState {
        aggregate_type: aggregate_type.to_string(),
        aggregate_id: aggregate_id.to_string(),
        as_of: point,
        sequence,
        state,
        events: Names::default().events(db, events).await?,
    })
}
