//! The live feed below the socket: whom a socket serves, the pages of what it missed, and what
//! the end of its session means for it. The WebSocket itself is HTTP's (`api/`).

use chrono::{DateTime, Utc};
use commands::feed::Cursor;
use projections::live::{self, LiveEvent};

use crate::context::Context;
use crate::error::Result;
use crate::sessions::{current_session_state, SessionState};
use crate::viewer::Viewer;

/// How many feed events one page of missed events reads.
const MISSED_PAGE_EVENTS: i64 = 500;

/// Whom a socket opened by `viewer` serves.
pub fn listener(viewer: &Viewer) -> live::Viewer {
    live::Viewer { user_id: viewer.user_id.clone(), is_admin: viewer.is_admin }
}

/// How often at most an auditor's socket is told that the history grew: appends in between are
/// told once, with the newest cursor.
pub const AUDIT_NOTICE_EVERY: std::time::Duration = std::time::Duration::from_millis(250);

/// Whether a socket opened by `viewer` is told of every append to the history (administrators
/// and auditors, whose audit timeline refetches on it).
pub fn hears_audit(viewer: &Viewer) -> bool {
    viewer.is_admin || viewer.is_auditor
}

/// The message that tells an auditor's socket the history now reaches `head`:
/// `{"type": "audit", "head": CURSOR}`. It names no event, so it reveals nothing an auditor
/// could not page anyway.
pub fn audit_notice(head: Cursor) -> String {
    serde_json::json!({"type": "audit", "head": head}).to_string()
}

/// A page of what a socket missed.
pub struct MissedPage {
    /// The messages `listener` may see, in feed order.
    pub messages: Vec<String>,
    /// The cursor the page reached: the next page starts after it.
    pub reached: Cursor,
}

/// The next page of what `listener` may see after `sent`, up to what the hub has published;
/// `None` once `sent` is there.
pub async fn missed(ctx: &Context, listener: &live::Viewer, sent: Cursor) -> Result<Option<MissedPage>> {
    let upto = ctx.hub.published();
    if sent >= upto {
        return Ok(None);
    }
    let (events, reached) = live::page(&ctx.db, listener, sent, upto, MISSED_PAGE_EVENTS).await?;
    let messages = events.iter().flat_map(|event| event.messages_for(listener).map(str::to_string)).collect();
    Ok(Some(MissedPage { messages, reached }))
}

/// Whether `event` revokes session `session_id` (a sign-out or a rotation).
pub fn revokes(event: &LiveEvent, session_id: &str) -> bool {
    event.event_type == "SessionRevoked" && event.aggregate_id == session_id
}

/// When a socket of session `session_id`, just revoked, must close: at the end of its grace when
/// the session was rotated (the page has its new token by then and reconnects), or `None` for
/// now (signed out, or rotated with no grace left).
pub async fn open_until(ctx: &Context, session_id: &str) -> Option<DateTime<Utc>> {
    match current_session_state(ctx, session_id).await {
        Ok(SessionState::InGrace { until }) => Some(until),
        _ => None,
    }
}

/// How long until `at` by the context's clock; zero once it has passed.
pub fn time_until(ctx: &Context, at: DateTime<Utc>) -> std::time::Duration {
    (at - ctx.clock.now()).to_std().unwrap_or_default()
}
