//! The event history as people outside the store may see it, for administrators and auditors,
//! with secrets redacted: the global feed with metadata, filtered and paged ([`events`]) or
//! streamed whole ([`export`]); one aggregate's history and its state at any point of it
//! ([`history`]); and read models as they stood at a point ([`as_of`]).
//!
//! Every entry point checks the viewer first and validates all its input before reading. The
//! `*_in` variants take the database and the present time instead of a context and a viewer: the
//! operator's command line uses them.

pub mod as_of;
pub mod history;

use std::collections::HashMap;

use chrono::{DateTime, SecondsFormat, Utc};
use commands::feed::{self, Cursor, FeedFilter, StoredEvent};
use commands::Db;
use futures::stream::BoxStream;
use serde::Serialize;

use crate::context::Context;
use crate::error::{Error, Result};
use crate::input::{feed_cursor, MAX_SCOPE_ID_CHARS};
use crate::viewer::Viewer;

/// Fields never shown outside the store.
const REDACTED_FIELDS: &[&str] = &["password_hash", "token_hash", "api_key"];

/// Replaces secrets anywhere in `value` (an event's payload, an aggregate's state).
pub fn redact(value: &mut serde_json::Value) {
    match value {
        serde_json::Value::Object(map) => {
            for (key, v) in map.iter_mut() {
                if REDACTED_FIELDS.contains(&key.as_str()) {
                    *v = serde_json::Value::String("[redacted]".into());
                } else {
                    redact(v);
                }
            }
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(redact),
        _ => {}
    }
}

/// Returns the event with secrets in its payload replaced.
pub fn redacted(mut event: StoredEvent) -> StoredEvent {
    redact(&mut event.payload);
    event
}

pub(crate) fn require_auditor(viewer: &Viewer) -> Result<()> {
    if viewer.is_admin || viewer.is_auditor {
        Ok(())
    } else {
        Err(Error::forbidden("only administrators and auditors may read the audit log"))
    }
}

/// An event as auditors read it: redacted, with the acting user's name beside their id.
#[derive(Debug, Clone, Serialize)]
pub struct AuditEvent {
    #[serde(flatten)]
    pub event: StoredEvent,
    /// The acting user's display name (their email when they have none); null for `system`
    /// and for ids no user has.
    pub actor_name: Option<String>,
}

/// Display names of users, read once each from the users read model.
#[derive(Default)]
pub(crate) struct Names {
    known: HashMap<String, Option<String>>,
}

impl Names {
    /// The display name of `user_id`: their username, or their email when the name is empty.
    pub(crate) async fn of(&mut self, db: &Db, user_id: &str) -> Result<Option<String>> {
        if user_id == domain::metadata::SYSTEM_USER {
            return Ok(None);
        }
        if let Some(name) = self.known.get(user_id) {
            return Ok(name.clone());
        }
        let name = projections::queries::user_by_id(db, user_id).await?.map(|u| {
            if u.username.trim().is_empty() {
                u.email
            } else {
                u.username
            }
        });
        self.known.insert(user_id.to_string(), name.clone());
        Ok(name)
    }

    /// Redacts `events` and names their actors.
    pub(crate) async fn events(&mut self, db: &Db, events: Vec<StoredEvent>) -> Result<Vec<AuditEvent>> {
        let mut out = Vec::with_capacity(events.len());
        for event in events {
            let actor_name = match event.actor() {
                Some(actor) => self.of(db, actor).await?,
                None => None,
            };
            out.push(AuditEvent { event: redacted(event), actor_name });
        }
        Ok(out)
    }
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct EventPage {
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<Object>))]
    pub events: Vec<AuditEvent>,
    /// Where the next page starts, to pass back with the same filters. Oldest first: as `after`,
    /// null only when this page is empty (newer events may still come). Newest first: as
    /// `before`, null when no older event is left.
    pub next: Option<String>,
}

impl EventPage {
    /// A page in feed order, going on after its last event.
    fn of(events: Vec<AuditEvent>) -> Self {
        let next = events.last().map(|e| e.event.cursor.to_string());
        EventPage { events, next }
    }
}

/// The largest page of events.
pub const MAX_EVENTS_PER_PAGE: i64 = 1000;
/// The page size when none is asked for.
pub const DEFAULT_EVENTS_PER_PAGE: i64 = 100;
/// How many events one page of an export reads.
const EXPORT_PAGE_EVENTS: i64 = 500;

/// What an auditor narrows the feed to, as the request gave it: every field optional, an empty
/// one ignored. The audit calls read it from their query string.
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::IntoParams), into_params(parameter_in = Query))]
pub struct Filters {
    /// The acting user's id (`system` for the server's own work).
    pub user: Option<String>,
    pub aggregate_type: Option<String>,
    pub aggregate_id: Option<String>,
    pub event_type: Option<String>,
    /// Recorded at or after this RFC 3339 time.
    pub from: Option<String>,
    /// Recorded at or before this RFC 3339 time.
    pub to: Option<String>,
    pub request_id: Option<String>,
}

/// Parses an RFC 3339 time given as `field`.
pub(crate) fn parse_time(field: &str, value: &str) -> Result<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(value.trim()).map(|t| t.with_timezone(&Utc)).map_err(|_| {
        Error::malformed("bad_time", format!("{field} must be an RFC 3339 time, such as 2025-01-31T09:30:00Z"))
    })
}

/// Formats a time the way the feed spells `recorded_at`.
pub(crate) fn format_time(time: DateTime<Utc>) -> String {
    time.to_rfc3339_opts(SecondsFormat::Millis, true)
}

/// Returns `value` trimmed, `None` when empty; refuses values past the length of an id.
fn filter_text(field: &str, value: &Option<String>) -> Result<Option<String>> {
    let value = value.as_deref().map(str::trim).filter(|v| !v.is_empty());
    if value.is_some_and(|v| v.chars().count() > MAX_SCOPE_ID_CHARS) {
        return Err(Error::malformed("bad_filter", format!("{field} must be at most {MAX_SCOPE_ID_CHARS} characters")));
    }
    Ok(value.map(str::to_string))
}

impl Filters {
    /// Checks every filter and returns the feed's form of them.
    pub fn validate(&self) -> Result<FeedFilter> {
        let from = filter_text("from", &self.from)?.map(|t| parse_time("from", &t)).transpose()?;
        let to = filter_text("to", &self.to)?.map(|t| parse_time("to", &t)).transpose()?;
        if let (Some(from), Some(to)) = (from, to) {
            if from > to {
                return Err(Error::malformed("bad_time_range", "from must not be later than to"));
            }
        }
        Ok(FeedFilter {
            user_id: filter_text("user", &self.user)?,
            aggregate_type: filter_text("aggregate_type", &self.aggregate_type)?,
            aggregate_id: filter_text("aggregate_id", &self.aggregate_id)?,
            event_type: filter_text("event_type", &self.event_type)?,
            request_id: filter_text("request_id", &self.request_id)?,
            from,
            to,
            ..FeedFilter::default()
        })
    }
}

/// Parses a cursor a client sent back and refuses one past the feed's head: no event was ever
/// there, so it can come only from another database or a made-up value.
pub(crate) async fn known_cursor(db: &Db, cursor: &str) -> Result<Cursor> {
    let cursor = feed_cursor(cursor)?;
    if cursor > feed::head(db).await? {
        return Err(Error::malformed("cursor_ahead", "that cursor is ahead of the history"));
    }
    Ok(cursor)
}

/// Which way a page of the feed runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum Order {
    /// The feed order, as exports and consumers read it: from the beginning, or after a cursor.
    Oldest,
    /// The feed order reversed, as an auditor reads a timeline: from the newest, or before a
    /// cursor.
    Newest,
}

/// Where a page of the feed starts and which way it runs, as the request gave it. `after` pages
/// oldest first and `before` newest first; without either, `order` says where to start.
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::IntoParams), into_params(parameter_in = Query))]
pub struct Paging {
    /// Oldest first, from just after this cursor (a page's `next`).
    pub after: Option<String>,
    /// Newest first, from just before this cursor (a newest-first page's `next`).
    pub before: Option<String>,
    /// `oldest` (the default; from the beginning) or `newest` (from the newest event); `after`
    /// implies `oldest` and `before` implies `newest`.
    #[cfg_attr(feature = "openapi", param(inline))]
    pub order: Option<Order>,
    /// Page size, 1 to 1000 (default 100).
    pub limit: Option<i64>,
}

/// Where a checked page starts.
enum Start {
    After(Cursor),
    /// Before this cursor, or from the newest event when `None`.
    Before(Option<Cursor>),
}

impl Paging {
    /// Checks the page size, that the cursors and the order agree, and that a cursor is one the
    /// feed has reached.
    async fn validate(&self, db: &Db) -> Result<(Start, i64)> {
        let limit = self.limit.unwrap_or(DEFAULT_EVENTS_PER_PAGE);
        if !(1..=MAX_EVENTS_PER_PAGE).contains(&limit) {
            return Err(Error::malformed("bad_limit", "limit must be between 1 and 1000"));
        }
        let conflict = |message: &str| Err(Error::malformed("bad_order", message.to_string()));
        let start = match (self.after.as_deref(), self.before.as_deref(), self.order) {
            (Some(_), Some(_), _) => return conflict("give after or before, not both"),
            (Some(_), None, Some(Order::Newest)) => {
                return conflict("after pages oldest first; page newest first with before")
            }
            (None, Some(_), Some(Order::Oldest)) => {
                return conflict("before pages newest first; page oldest first with after")
            }
            (Some(after), None, _) => Start::After(known_cursor(db, after).await?),
            (None, Some(before), _) => Start::Before(Some(known_cursor(db, before).await?)),
            (None, None, Some(Order::Newest)) => Start::Before(None),
            (None, None, _) => Start::After(Cursor::START),
        };
        Ok((start, limit))
    }
}

/// A page of the global feed narrowed by `filters`, with each event's metadata and actor's name:
/// in feed order from the beginning or after a cursor, or newest first from the newest event or
/// before a cursor ([`Paging`]).
pub async fn events(ctx: &Context, viewer: &Viewer, paging: &Paging, filters: &Filters) -> Result<EventPage> {
    require_auditor(viewer)?;
    let filter = filters.validate()?;
    let (start, limit) = paging.validate(&ctx.db).await?;
    let mut names = Names::default();
    match start {
        Start::After(after) => {
            let events = feed::read_filtered(&ctx.db, after, &filter, limit).await?;
            Ok(EventPage::of(names.events(&ctx.db, events).await?))
        }
        Start::Before(before) => {
            // One more than the page tells whether an older page is left.
            let mut events = feed::read_filtered_before(&ctx.db, before, &filter, limit + 1).await?;
            let more = events.len() as i64 > limit;
            events.truncate(limit as usize);
            let next = if more { events.last().map(|e| e.cursor.to_string()) } else { None };
            Ok(EventPage { events: names.events(&ctx.db, events).await?, next })
        }
    }
}

/// One aggregate's whole history in sequence order.
pub async fn aggregate_history(
    ctx: &Context,
    viewer: &Viewer,
    aggregate_type: &str,
    aggregate_id: &str,
) -> Result<EventPage> {
    require_auditor(viewer)?;
    let events = feed::read_aggregate(&ctx.db, aggregate_type, aggregate_id).await?;
    if events.is_empty() {
        return Err(Error::not_found("no events for that aggregate"));
    }
    Ok(EventPage::of(Names::default().events(&ctx.db, events).await?))
}

/// A filtered selection of the feed as NDJSON, ready to stream.
pub struct Export {
    /// A file name that says when the export was taken.
    pub filename: String,
    /// Chunks of whole lines, one event a line, in feed order.
    pub lines: BoxStream<'static, Result<String>>,
}

/// The events that pass `filters`, up to the feed's head when the export starts, as NDJSON
/// (the same event shape as [`events`]). Reads a page at a time, so memory stays bounded
/// however long the history is.
pub async fn export(ctx: &Context, viewer: &Viewer, filters: &Filters) -> Result<Export> {
    require_auditor(viewer)?;
    let mut filter = filters.validate()?;
    filter.upto = Some(feed::head(&ctx.db).await?);
    let filename = format!("needl-audit-{}.ndjson", ctx.clock.now().format("%Y%m%dT%H%M%SZ"));
    let start = ExportState { db: ctx.db.clone(), filter, after: Cursor::START, names: Names::default() };
    let lines = futures::stream::try_unfold(start, export_page);
    Ok(Export { filename, lines: Box::pin(lines) })
}

/// Where an export has reached.
struct ExportState {
    db: Db,
    filter: FeedFilter,
    after: Cursor,
    names: Names,
}

/// The next page of an export as NDJSON lines, and the state after it; `None` at the end.
async fn export_page(mut state: ExportState) -> Result<Option<(String, ExportState)>> {
    let page = feed::read_filtered(&state.db, state.after, &state.filter, EXPORT_PAGE_EVENTS).await?;
    let Some(last) = page.last().map(|e| e.cursor) else {
        return Ok(None);
    };
    let mut chunk = String::new();
    for event in state.names.events(&state.db, page).await? {
        chunk.push_str(&serde_json::to_string(&event).map_err(Error::internal)?);
        chunk.push('\n');
    }
    state.after = last;
    Ok(Some((chunk, state)))
}
