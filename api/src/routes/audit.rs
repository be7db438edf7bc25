//! Audit: the global feed with metadata, paged, and one aggregate's history. For
//! administrators and auditors.

use axum::extract::{Path, State};
use commands::feed::{self, Cursor, StoredEvent};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::app::AppState;
use crate::auth::AuthUser;
use crate::error::{ApiJson, ApiQuery, ApiResult, AppError, ErrorBody};
use service::audit::redacted;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(events)).routes(routes!(aggregate_history))
}

fn require_auditor(user: &AuthUser) -> Result<(), AppError> {
    if user.is_admin || user.is_auditor {
        Ok(())
    } else {
        Err(AppError::forbidden("only administrators and auditors may read the audit log"))
    }
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct EventsQuery {
    /// Start after this cursor; from the beginning when absent.
    pub after: Option<String>,
    /// Page size, 1 to 1000 (default 100).
    pub limit: Option<i64>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct EventPage {
    #[schema(value_type = Vec<Object>)]
    pub events: Vec<StoredEvent>,
    /// Pass as `after` for the next page; null when this page is empty.
    pub next: Option<String>,
}

/// Pages the global feed in feed order, with each event's metadata.
#[utoipa::path(get, path = "/audit/events", tag = "audit", security(("token" = [])), params(EventsQuery),
    responses((status = 200, body = EventPage), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn events(
    State(state): State<AppState>,
    user: AuthUser,
    ApiQuery(query): ApiQuery<EventsQuery>,
) -> ApiResult<ApiJson<EventPage>> {
    require_auditor(&user)?;
    let after = match query.after.as_deref() {
        Some(s) => s.parse::<Cursor>().map_err(|e| AppError::bad_request("bad_cursor", e.to_string()))?,
        None => Cursor::START,
    };
    let limit = query.limit.unwrap_or(100);
    if !(1..=1000).contains(&limit) {
        return Err(AppError::bad_request("bad_limit", "limit must be between 1 and 1000"));
    }
    let events: Vec<StoredEvent> = feed::read_after(&state.db, after, limit).await?.into_iter().map(redacted).collect();
    let next = events.last().map(|e| e.cursor.to_string());
    Ok(ApiJson(EventPage { events, next }))
}

/// One aggregate's whole history in sequence order.
#[utoipa::path(get, path = "/audit/aggregates/{aggregate_type}/{aggregate_id}", tag = "audit", security(("token" = [])),
    params(("aggregate_type" = String, Path), ("aggregate_id" = String, Path)),
    responses((status = 200, body = EventPage), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn aggregate_history(
    State(state): State<AppState>,
    user: AuthUser,
    Path((aggregate_type, aggregate_id)): Path<(String, String)>,
) -> ApiResult<ApiJson<EventPage>> {
    require_auditor(&user)?;
    let events: Vec<StoredEvent> =
        feed::read_aggregate(&state.db, &aggregate_type, &aggregate_id).await?.into_iter().map(redacted).collect();
    if events.is_empty() {
        return Err(AppError::not_found("no events for that aggregate"));
    }
    let next = events.last().map(|e| e.cursor.to_string());
    Ok(ApiJson(EventPage { events, next }))
}
