//! Notifications: the user's list (20 a page, the newest first), the unread count, and marking
//! one or all read.
//!
//! Everything here is the caller's own. What a notification shows is decided when it is read:
//! one from a channel the user no longer sees (removed, or never a member of an unpublished one)
//! is left out; a document the user cannot read now is not named (a new item of a source they no
//! longer follow is left out altogether).

use axum::extract::{Path, State};
use axum::http::StatusCode;
use commands::args;
use domain::notification::{InboxCommand, NotificationKind};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::app::AppState;
use crate::auth::AuthUser;
use crate::error::{ApiJson, ApiResult, AppError, ErrorBody};
use crate::paging::PageNumber;
use service::access::Purpose;
use service::documents::READABLE;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_notifications))
        .routes(routes!(unread_count))
        .routes(routes!(mark_read))
        .routes(routes!(mark_all_read))
}

/// The spec's page size: a full page means more may exist.
pub const PAGE_SIZE: i64 = 20;

fn notification_not_found() -> AppError {
    AppError::new(StatusCode::NOT_FOUND, "notification_not_found", "notification not found")
}

#[derive(Debug, Serialize, ToSchema)]
pub struct NotificationActor {
    pub user_id: String,
    pub username: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct NotificationChannel {
    pub id: String,
    pub name: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct NotificationDocument {
    pub deeplink: String,
    pub title: String,
    /// The document's source (the `{source}` of `/doc/{source}`).
    pub source: String,
    /// Sent back with `deeplink` when the app opens the document.
    pub access_key: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct NotificationSource {
    pub id: String,
    pub label: String,
}

/// One notification.
#[derive(Debug, Serialize, ToSchema)]
pub struct Notification {
    pub id: String,
    /// mention, comment or source_item (summary_ready and report_ready are reserved).
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
    /// A comment's text, or a new item's summary, cut to 200 characters.
    pub excerpt: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct NotificationPage {
    /// The newest first; a page of 20 means more may exist.
    pub results: Vec<Notification>,
    pub page: i64,
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

/// The condition that notification `n` is one user `$1` may see now: not from a channel they no
/// longer see, and not a new item of a source they can no longer read.
fn visible() -> String {
    format!(
        "n.user_id = $1 \
         AND (n.channel_id IS NULL OR c.published OR EXISTS (SELECT 1 FROM channel_members_view m \
              WHERE m.channel_id = n.channel_id AND m.user_id = $1)) \
         AND (n.kind <> '{source_item}' OR EXISTS ({READABLE} AND d.deeplink = n.deeplink))",
        source_item = NotificationKind::SourceItem.as_str()
    )
}

fn select() -> String {
    format!(
        "SELECT n.notification_id, n.kind, n.channel_id, c.name AS channel_name, n.deeplink, n.comment_id, \
         n.source_id, src.label AS source_label, n.actor, u.username AS actor_name, n.title, n.excerpt, \
         n.created_at, n.read_at, doc.title AS document_title, doc.source_id AS document_source, \
         CASE WHEN n.deeplink IS NOT NULL AND EXISTS ({READABLE} AND d.deeplink = n.deeplink) \
         THEN TRUE ELSE FALSE END AS readable \
         FROM notifications_view n \
         LEFT JOIN channels_view c ON c.channel_id = n.channel_id \
         LEFT JOIN sources_view src ON src.source_id = n.source_id \
         LEFT JOIN users_view u ON u.user_id = n.actor \
         LEFT JOIN documents_view doc ON doc.deeplink = n.deeplink \
         WHERE {}",
        visible()
    )
}

fn notification_of(state: &AppState, row: NotificationRow) -> Notification {
    let document = match (row.readable, row.deeplink, row.document_source) {
        (true, Some(deeplink), Some(source)) => Some(NotificationDocument {
            access_key: state.access.key(Purpose::Access, &deeplink),
            title: row.document_title.or(row.title).unwrap_or_default(),
            deeplink,
            source,
        }),
        _ => None,
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
        source: row
            .source_id
            .map(|id| NotificationSource { label: row.source_label.unwrap_or_else(|| id.clone()), id }),
        excerpt: row.excerpt,
    }
}

/// The user's notifications, the newest first, 20 a page; a full page means more may exist.
#[utoipa::path(get, path = "/notifications", tag = "notifications", security(("token" = [])),
    params(PageNumber),
    responses((status = 200, body = NotificationPage), (status = 400, body = ErrorBody)))]
async fn list_notifications(
    State(state): State<AppState>,
    user: AuthUser,
    PageNumber(page): PageNumber,
) -> ApiResult<ApiJson<NotificationPage>> {
    let rows: Vec<NotificationRow> = state
        .db
        .fetch_all(
            &format!("{} ORDER BY n.position DESC LIMIT $2 OFFSET $3", select()),
            args![user.user_id.as_str(), PAGE_SIZE, page * PAGE_SIZE],
        )
        .await?;
    let results = rows.into_iter().map(|row| notification_of(&state, row)).collect();
    Ok(ApiJson(NotificationPage { results, page }))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct UnreadCount {
    /// How many of the user's notifications are unread (the web badge shows 99+ past 99).
    pub count: i64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct UnreadCountResult {
    pub results: UnreadCount,
}

#[derive(sqlx::FromRow)]
struct CountRow {
    count: i64,
}

async fn count_unread(state: &AppState, user_id: &str) -> ApiResult<i64> {
    let row: Option<CountRow> = state
        .db
        .fetch_optional(
            &format!(
                "SELECT CAST(COUNT(*) AS BIGINT) AS count FROM notifications_view n \
                 LEFT JOIN channels_view c ON c.channel_id = n.channel_id \
                 WHERE {} AND n.read_at IS NULL",
                visible()
            ),
            args![user_id],
        )
        .await?;
    Ok(row.map_or(0, |r| r.count))
}

/// How many of the user's notifications are unread.
#[utoipa::path(get, path = "/notifications/unread_count", tag = "notifications", security(("token" = [])),
    responses((status = 200, body = UnreadCountResult)))]
async fn unread_count(State(state): State<AppState>, user: AuthUser) -> ApiResult<ApiJson<UnreadCountResult>> {
    Ok(ApiJson(UnreadCountResult { results: UnreadCount { count: count_unread(&state, &user.user_id).await? } }))
}

#[derive(sqlx::FromRow)]
struct ReadRow {
    read_at: Option<String>,
}

/// Marks one of the user's notifications read (marking it again changes nothing); answers the
/// unread count after it. Anyone else's is not found.
#[utoipa::path(put, path = "/notifications/{id}/read", tag = "notifications", security(("token" = [])),
    params(("id" = String, Path, description = "the notification's id")),
    responses((status = 200, body = UnreadCountResult), (status = 404, body = ErrorBody)))]
async fn mark_read(
    State(state): State<AppState>,
    user: AuthUser,
    Path(notification_id): Path<String>,
) -> ApiResult<ApiJson<UnreadCountResult>> {
    let row: Option<ReadRow> = state
        .db
        .fetch_optional(
            "SELECT read_at FROM notifications_view WHERE user_id = $1 AND notification_id = $2",
            args![user.user_id.as_str(), notification_id.as_str()],
        )
        .await?;
    if row.ok_or_else(notification_not_found)?.read_at.is_none() {
        let command = InboxCommand::MarkRead { user_id: user.user_id.clone(), notification_id };
        state.command(&state.bus.notification_inboxes, &user.user_id, command, &user.metadata()).await?;
    }
    Ok(ApiJson(UnreadCountResult { results: UnreadCount { count: count_unread(&state, &user.user_id).await? } }))
}

#[derive(sqlx::FromRow)]
struct NewestRow {
    newest: Option<i64>,
}

/// Marks every notification the user has read; answers the unread count after it.
#[utoipa::path(put, path = "/notifications/read_all", tag = "notifications", security(("token" = [])),
    responses((status = 200, body = UnreadCountResult)))]
async fn mark_all_read(State(state): State<AppState>, user: AuthUser) -> ApiResult<ApiJson<UnreadCountResult>> {
    let row: Option<NewestRow> = state
        .db
        .fetch_optional(
            "SELECT MAX(position) AS newest FROM notifications_view WHERE user_id = $1 AND read_at IS NULL",
            args![user.user_id.as_str()],
        )
        .await?;
    if let Some(upto) = row.and_then(|r| r.newest) {
        let command = InboxCommand::MarkAllRead { user_id: user.user_id.clone(), upto };
        state.command(&state.bus.notification_inboxes, &user.user_id, command, &user.metadata()).await?;
    }
    Ok(ApiJson(UnreadCountResult { results: UnreadCount { count: count_unread(&state, &user.user_id).await? } }))
}
