//! Notifications over HTTP: the user's list (20 a page, the newest first), the unread count, and
//! marking one or all read. The rules and reads are in [`service::notifications`].
//!
//! Everything here is the caller's own. What a notification shows is decided when it is read:
//! one from a channel the user no longer sees (removed, or never a member of an unpublished one)
//! is left out; a document the user cannot read now is not named (a new item of a source they no
//! longer follow is left out altogether).

use axum::extract::{Path, State};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::app::AppState;
use crate::auth::AuthUser;
use crate::error::{ApiJson, ApiResult, ErrorBody};
use crate::paging::PageNumber;
use service::notifications::{self, NotificationPage, UnreadCountResult};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_notifications))
        .routes(routes!(unread_count))
        .routes(routes!(mark_read))
        .routes(routes!(mark_all_read))
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
    Ok(ApiJson(notifications::list(&state, &user, page).await?))
}

/// How many of the user's notifications are unread.
#[utoipa::path(get, path = "/notifications/unread_count", tag = "notifications", security(("token" = [])),
    responses((status = 200, body = UnreadCountResult)))]
async fn unread_count(State(state): State<AppState>, user: AuthUser) -> ApiResult<ApiJson<UnreadCountResult>> {
    Ok(ApiJson(notifications::unread_count(&state, &user).await?))
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
    Ok(ApiJson(notifications::mark_read(&state, &user, &notification_id).await?))
}

/// Marks every notification the user has read; answers the unread count after it.
#[utoipa::path(put, path = "/notifications/read_all", tag = "notifications", security(("token" = [])),
    responses((status = 200, body = UnreadCountResult)))]
async fn mark_all_read(State(state): State<AppState>, user: AuthUser) -> ApiResult<ApiJson<UnreadCountResult>> {
    Ok(ApiJson(notifications::mark_all_read(&state, &user).await?))
}
