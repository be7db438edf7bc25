//! The event history as people outside the store may see it: the global feed with metadata,
//! paged, and one aggregate's history, for administrators and auditors, with secrets redacted.

use commands::feed::{self, Cursor, StoredEvent};
use serde::Serialize;

use crate::context::Context;
use crate::error::{Error, Result};
use crate::input::feed_cursor;
use crate::viewer::Viewer;

/// Fields never shown outside the store.
const REDACTED_FIELDS: &[&str] = &["password_hash", "token_hash", "api_key"];

/// Returns the event with secrets in its payload replaced.
pub fn redacted(mut event: StoredEvent) -> StoredEvent {
    fn walk(value: &mut serde_json::Value) {
        match value {
            serde_json::Value::Object(map) => {
                for (key, v) in map.iter_mut() {
                    if REDACTED_FIELDS.contains(&key.as_str()) {
                        *v = serde_json::Value::String("[redacted]".into());
                    } else {
                        walk(v);
                    }
                }
            }
            serde_json::Value::Array(items) => items.iter_mut().for_each(walk),
            _ => {}
        }
    }
    walk(&mut event.payload);
    event
}

fn require_auditor(viewer: &Viewer) -> Result<()> {
    if viewer.is_admin || viewer.is_auditor {
        Ok(())
    } else {
        Err(Error::forbidden("only administrators and auditors may read the audit log"))
    }
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct EventPage {
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<Object>))]
    pub events: Vec<StoredEvent>,
    /// Pass as `after` for the next page; null when this page is empty.
    pub next: Option<String>,
}

impl EventPage {
    fn of(events: Vec<StoredEvent>) -> Self {
        let next = events.last().map(|e| e.cursor.to_string());
        EventPage { events, next }
    }
}

/// The largest page of events.
pub const MAX_EVENTS_PER_PAGE: i64 = 1000;
/// The page size when none is asked for.
pub const DEFAULT_EVENTS_PER_PAGE: i64 = 100;

/// A page of the global feed in feed order after cursor `after` (from the beginning when
/// absent), with each event's metadata.
pub async fn events(ctx: &Context, viewer: &Viewer, after: Option<&str>, limit: Option<i64>) -> Result<EventPage> {
    require_auditor(viewer)?;
    let after = after.map(feed_cursor).transpose()?.unwrap_or(Cursor::START);
    let limit = limit.unwrap_or(DEFAULT_EVENTS_PER_PAGE);
    if !(1..=MAX_EVENTS_PER_PAGE).contains(&limit) {
        return Err(Error::malformed("bad_limit", "limit must be between 1 and 1000"));
    }
    let events = feed::read_after(&ctx.db, after, limit).await?.into_iter().map(redacted).collect();
    Ok(EventPage::of(events))
}

/// One aggregate's whole history in sequence order.
pub async fn aggregate_history(
    ctx: &Context,
    viewer: &Viewer,
    aggregate_type: &str,
    aggregate_id: &str,
) -> Result<EventPage> {
    require_auditor(viewer)?;
    let events: Vec<StoredEvent> =
        feed::read_aggregate(&ctx.db, aggregate_type, aggregate_id).await?.into_iter().map(redacted).collect();
    if events.is_empty() {
        return Err(Error::not_found("no events for that aggregate"));
    }
    Ok(EventPage::of(events))
}
