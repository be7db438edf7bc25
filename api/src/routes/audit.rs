//! Audit: the global feed with metadata, paged, and one aggregate's history. For
//! administrators and auditors; the reads are [`service::audit`].

use axum::extract::{Path, State};
use serde::Deserialize;
use service::audit::{self, EventPage};
use utoipa::IntoParams;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::app::AppState;
use crate::auth::AuthUser;
use crate::error::{ApiJson, ApiQuery, ApiResult, ErrorBody};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(events)).routes(routes!(aggregate_history))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct EventsQuery {
    /// Start after this cursor; from the beginning when absent.
    pub after: Option<String>,
    /// Page size, 1 to 1000 (default 100).
    pub limit: Option<i64>,
}

/// Pages the global feed in feed order, with each event's metadata.
#[utoipa::path(get, path = "/audit/events", tag = "audit", security(("token" = [])), params(EventsQuery),
    responses((status = 200, body = EventPage), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn events(
    State(state): State<AppState>,
    user: AuthUser,
    ApiQuery(query): ApiQuery<EventsQuery>,
) -> ApiResult<ApiJson<EventPage>> {
    Ok(ApiJson(audit::events(&state, &user, query.after.as_deref(), query.limit).await?))
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
    Ok(ApiJson(audit::aggregate_history(&state, &user, &aggregate_type, &aggregate_id).await?))
}
