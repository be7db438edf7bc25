//! Notifications: the viewer's list (20 a page, the newest first), the unread count, and
//! marking one or all read.
//!
//! Everything here is the viewer's own. What a notification shows is decided when it is read,
//! by the read policy: one from a channel the viewer no longer sees (removed, or never a member
//! of an unpublished one) is left out; a document the viewer cannot read now is not named (a new
//! item of a source they no longer follow is left out altogether).

use commands::args;
use domain::notification::{InboxCommand, NotificationKind};
use serde::Serialize;

use crate::access::Purpose;
use crate::context::Context;
use crate::error::{Error, Kind, Result};
use crate::policy::{readable_condition, SEEN_CHANNEL};
use crate::viewer::Viewer;

/// The spec's page size: a full page means more may exist.
pub const PAGE_SIZE: i64 = 20;

fn notification_not_found() -> Error {
    Error::new(Kind::NotFound, "notification_not_found", "notification not found")
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NotificationActor {
    pub user_id: String,
    pub username: String,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NotificationChannel {
    pub id: String,
    pub name: String,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NotificationDocument {
    pub deeplink: String,
    pub title: String,
    /// The document's source (the `{source}` of `/doc/{source}`).
    pub source: String,
    /// Sent back with `deeplink` when the app opens the document.
    pub access_key: String,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NotificationSource {
    pub id: String,
    pub label: String,
}

/// One notification.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Notification {
    pub id: String,
    /// mention, comment, source_item, feed_match or feed_digest (summary_ready and report_ready
    /// are reserved).
    #[serde(rename = "type")]
    pub kind: String,
    pub read: bool,
    pub created_at: String,
    /// Who caused it (a comment's author).
    pub actor: Option<NotificationActor>,
    /// The channel a comment was made in.
    pub channel: Option<NotificationChannel>,
    /// The document it is about, when the user may read it.
    pub document: Option<NotificationDocument>,
    /// The comment it is about.
    pub comment_id: Option<String>,
    /// The high-priority source a new item came from.
    pub source: Option<NotificationSource>,
    /// The feed that matched new documents (feed_match) or whose digest this is (feed_digest),
    /// while it exists: `id` is its board_id, `label` its name.
    pub feed: Option<NotificationSource>,
    /// A comment's text, or a new item's summary, cut to 200 characters.
    pub excerpt: Option<String>,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NotificationPage {
    /// The newest first; a page of 20 means more may exist.
    pub results: Vec<Notification>,
    pub page: i64,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct UnreadCount {
    /// How many of the user's notifications are unread (the web badge shows 99+ past 99).
    pub count: i64,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct UnreadCountResult {
    pub results: UnreadCount,
}

#[derive(sqlx::FromRow)]
struct NotificationRow {
    notification_id: String,
    kind: String,
    channel_id: Option<String>,
    channel_name: Option<String>,
    deeplink: Option<String>,
    comment_id: Option<String>,
    source_id: Option<String>,
    source_label: Option<String>,
    feed_name: Option<String>,
    actor: Option<String>,
    actor_name: Option<String>,
    title: Option<String>,
    excerpt: Option<String>,
    created_at: String,
    read_at: Option<String>,
    document_title: Option<String>,
    document_source: Option<String>,
    readable: bool,
}

/// SQL: user `$1` may read the document notification `n` is about (the policy's rule).
const READABLE_DOCUMENT: &str = concat!(
    "EXISTS (SELECT 1 FROM documents_view d LEFT JOIN sources_view s ON s.source_id = d.source_id \
     WHERE d.deeplink = n.deeplink AND ",
    readable_condition!(),
    ")"
);

/// The condition that notification `n` (with its channel `c`) is one user `$1` may see now: not
/// from a channel they no longer see, and not a new item of a source they can no longer read.
fn shown() -> String {
    format!(
        "n.user_id = $1 AND (n.channel_id IS NULL OR {SEEN_CHANNEL}) \
         AND (n.kind NOT IN ('{source_item}', '{feed_match}') OR {READABLE_DOCUMENT})",
        source_item = NotificationKind::SourceItem.as_str(),
        feed_match = NotificationKind::FeedMatch.as_str()
    )
}

fn select() -> String {
    format!(
        "SELECT n.notification_id, n.kind, n.channel_id, c.name AS channel_name, n.deeplink, n.comment_id, \
         n.source_id, src.label AS source_label, bv.name AS feed_name, n.actor, u.username AS actor_name, n.title, n.excerpt, \
         n.created_at, n.read_at, doc.title AS document_title, doc.source_id AS document_source, \
         CASE WHEN n.deeplink IS NOT NULL AND {READABLE_DOCUMENT} THEN TRUE ELSE FALSE END AS readable \
         FROM notifications_view n \
         LEFT JOIN channels_view c ON c.channel_id = n.channel_id \
         LEFT JOIN sources_view src ON src.source_id = n.source_id \
         LEFT JOIN boards_view bv ON bv.board_id = n.source_id AND bv.user_id = n.user_id \
         LEFT JOIN users_view u ON u.user_id = n.actor \
         LEFT JOIN documents_view doc ON doc.deeplink = n.deeplink \
         WHERE {}",
        shown()
    )
}

fn notification_of(ctx: &Context, row: NotificationRow) -> Notification {
    let document = match (row.readable, row.deeplink, row.document_source) {
        (true, Some(deeplink), Some(source)) => Some(NotificationDocument {
            access_key: ctx.access.key(Purpose::Access, &deeplink),
            title: row.document_title.or(row.title).unwrap_or_default(),
            deeplink,
            source,
        }),
        _ => None,
    };
    let is_feed =
        [NotificationKind::FeedMatch.as_str(), NotificationKind::FeedDigest.as_str()].contains(&row.kind.as_str());
    let (source_id, feed) = match (is_feed, row.source_id) {
        (true, Some(id)) => (None, row.feed_name.map(|label| NotificationSource { id, label })),
        (_, source_id) => (source_id, None),
    };
    Notification {
        id: row.notification_id,
        kind: row.kind,
        read: row.read_at.is_some(),
        created_at: row.created_at,
        actor: row.actor.map(|user_id| NotificationActor { user_id, username: row.actor_name.unwrap_or_default() }),
        channel: row.channel_id.map(|id| NotificationChannel { id, name: row.channel_name.unwrap_or_default() }),
        document,
        comment_id: row.comment_id,
        source: source_id.map(|id| NotificationSource { label: row.source_label.unwrap_or_else(|| id.clone()), id }),
        feed,
        excerpt: row.excerpt,
    }
}

/// The viewer's notifications, the newest first, [`PAGE_SIZE`] a page.
pub async fn list(ctx: &Context, viewer: &Viewer, page: i64) -> Result<NotificationPage> {
    let rows: Vec<NotificationRow> = ctx
        .db
        .fetch_all(
            &format!("{} ORDER BY n.position DESC LIMIT $2 OFFSET $3", select()),
            args![viewer.user_id.as_str(), PAGE_SIZE, page * PAGE_SIZE],
        )
        .await?;
    let results = rows.into_iter().map(|row| notification_of(ctx, row)).collect();
    Ok(NotificationPage { results, page })
}

#[derive(sqlx::FromRow)]
struct CountRow {
    count: i64,
}

/// How many of the viewer's notifications are unread.
pub async fn unread_count(ctx: &Context, viewer: &Viewer) -> Result<UnreadCountResult> {
    let row: Option<CountRow> = ctx
        .db
        .fetch_optional(
            &format!(
                "SELECT CAST(COUNT(*) AS BIGINT) AS count FROM notifications_view n \
                 LEFT JOIN channels_view c ON c.channel_id = n.channel_id \
                 WHERE {} AND n.read_at IS NULL",
                shown()
            ),
            args![viewer.user_id.as_str()],
        )
        .await?;
    Ok(UnreadCountResult { results: UnreadCount { count: row.map_or(0, |r| r.count) } })
}

#[derive(sqlx::FromRow)]
struct ReadRow {
    read_at: Option<String>,
}

/// Marks one of the viewer's notifications read (marking it again changes nothing); answers
/// the unread count after it. Anyone else's is not found.
pub async fn mark_read(ctx: &Context, viewer: &Viewer, notification_id: &str) -> Result<UnreadCountResult> {
    let row: Option<ReadRow> = ctx
        .db
        .fetch_optional(
            "SELECT read_at FROM notifications_view WHERE user_id = $1 AND notification_id = $2",
            args![viewer.user_id.as_str(), notification_id],
        )
        .await?;
    if row.ok_or_else(notification_not_found)?.read_at.is_none() {
        let command =
            InboxCommand::MarkRead { user_id: viewer.user_id.clone(), notification_id: notification_id.to_string() };
        ctx.command(&ctx.bus.notification_inboxes, &viewer.user_id, command, &viewer.metadata()).await?;
    }
    unread_count(ctx, viewer).await
}

#[derive(sqlx::FromRow)]
struct NewestRow {
    newest: Option<i64>,
}

/// Marks every notification of the viewer's read; answers the unread count after it.
pub async fn mark_all_read(ctx: &Context, viewer: &Viewer) -> Result<UnreadCountResult> {
    let row: Option<NewestRow> = ctx
        .db
        .fetch_optional(
            "SELECT MAX(position) AS newest FROM notifications_view WHERE user_id = $1 AND read_at IS NULL",
            args![viewer.user_id.as_str()],
        )
        .await?;
    if let Some(upto) = row.and_then(|r| r.newest) {
        let command = InboxCommand::MarkAllRead { user_id: viewer.user_id.clone(), upto };
        ctx.command(&ctx.bus.notification_inboxes, &viewer.user_id, command, &viewer.metadata()).await?;
    }
    unread_count(ctx, viewer).await
}
