//! Audit, for administrators and auditors: the global feed with metadata, filtered and paged or
//! exported as NDJSON; one aggregate's history and its state at any point; read models as they
//! stood at a point. The reads are [`service::audit`]'s.

use axum::body::Body;
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::Response;
use futures::TryStreamExt;
use serde::Deserialize;
use service::audit::as_of::{self, ChannelAsOf, DocumentTagsAsOf, UserSourcesAsOf};
use service::audit::history::{self, AggregateState, PointInput};
use service::audit::{self, EventPage, Filters, Paging};
use utoipa::IntoParams;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::app::AppState;
use crate::auth::AuthUser;
use crate::error::{ApiJson, ApiQuery, ApiResult, AppError, ErrorBody};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(events))
        .routes(routes!(export))
        .routes(routes!(aggregate_history))
        .routes(routes!(aggregate_state))
        .routes(routes!(channel_as_of))
        .routes(routes!(document_tags_as_of))
        .routes(routes!(user_sources_as_of))
}

/// A point of the history: exactly one of the two.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PointQuery {
    /// A feed cursor: the history up to and including the event there.
    pub at: Option<String>,
    /// An RFC 3339 time: the history recorded up to then.
    pub time: Option<String>,
}

impl From<PointQuery> for PointInput {
    fn from(q: PointQuery) -> Self {
        PointInput { at: q.at, time: q.time }
    }
}

/// Pages the global feed, with each event's metadata and actor's name, narrowed by the filters
/// given: in feed order (`after`), or newest first (`before`, `order=newest`).
#[utoipa::path(get, path = "/audit/events", tag = "audit", security(("token" = [])), params(Paging, Filters),
    responses((status = 200, body = EventPage), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn events(
    State(state): State<AppState>,
    user: AuthUser,
    ApiQuery(paging): ApiQuery<Paging>,
    ApiQuery(filters): ApiQuery<Filters>,
) -> ApiResult<ApiJson<EventPage>> {
    Ok(ApiJson(audit::events(&state, &user, &paging, &filters).await?))
}

/// Streams the events the filters select, up to the feed's head when the export starts, as
/// NDJSON (one event a line, as `/audit/events` shows them).
#[utoipa::path(get, path = "/audit/export", tag = "audit", security(("token" = [])), params(Filters),
    responses((status = 200, description = "one event a line", content_type = "application/x-ndjson", body = String),
        (status = 400, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn export(
    State(state): State<AppState>,
    user: AuthUser,
    ApiQuery(filters): ApiQuery<Filters>,
) -> ApiResult<Response> {
    let export = audit::export(&state, &user, &filters).await?;
    let lines = export.lines.map_ok(axum::body::Bytes::from).inspect_err(|error| {
        tracing::warn!(%error, "audit export stopped");
    });
    Response::builder()
        .header(header::CONTENT_TYPE, "application/x-ndjson")
        .header(header::CONTENT_DISPOSITION, format!("attachment; filename=\"{}\"", export.filename))
        .body(Body::from_stream(lines))
        .map_err(AppError::internal)
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

/// The aggregate rebuilt from its events up to a cursor or a time, with those events.
#[utoipa::path(get, path = "/audit/aggregates/{aggregate_type}/{aggregate_id}/state", tag = "audit",
    security(("token" = [])), params(("aggregate_type" = String, Path), ("aggregate_id" = String, Path), PointQuery),
    responses((status = 200, body = AggregateState), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
async fn aggregate_state(
    State(state): State<AppState>,
    user: AuthUser,
    Path((aggregate_type, aggregate_id)): Path<(String, String)>,
    ApiQuery(query): ApiQuery<PointQuery>,
) -> ApiResult<ApiJson<AggregateState>> {
    Ok(ApiJson(history::state(&state, &user, &aggregate_type, &aggregate_id, &query.into()).await?))
}

/// A channel's members and its documents' comments as they stood at a cursor or a time.
#[utoipa::path(get, path = "/audit/as-of/channels/{channel_id}", tag = "audit", security(("token" = [])),
    params(("channel_id" = String, Path), PointQuery),
    responses((status = 200, body = ChannelAsOf), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
async fn channel_as_of(
    State(state): State<AppState>,
    user: AuthUser,
    Path(channel_id): Path<String>,
    ApiQuery(query): ApiQuery<PointQuery>,
) -> ApiResult<ApiJson<ChannelAsOf>> {
    Ok(ApiJson(as_of::channel(&state, &user, &channel_id, &query.into()).await?))
}

/// A document's tags in every scope (its users' own, channels' shared) as they stood at a
/// cursor or a time. The deeplink is one path segment: percent-encode its slashes.
#[utoipa::path(get, path = "/audit/as-of/documents/{deeplink}/tags", tag = "audit", security(("token" = [])),
    params(("deeplink" = String, Path), PointQuery),
    responses((status = 200, body = DocumentTagsAsOf), (status = 400, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn document_tags_as_of(
    State(state): State<AppState>,
    user: AuthUser,
    Path(deeplink): Path<String>,
    ApiQuery(query): ApiQuery<PointQuery>,
) -> ApiResult<ApiJson<DocumentTagsAsOf>> {
    Ok(ApiJson(as_of::document_tags(&state, &user, &deeplink, &query.into()).await?))
}

/// The sources a user followed, with their priorities, at a cursor or a time.
#[utoipa::path(get, path = "/audit/as-of/users/{user_id}/sources", tag = "audit", security(("token" = [])),
    params(("user_id" = String, Path), PointQuery),
    responses((status = 200, body = UserSourcesAsOf), (status = 400, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn user_sources_as_of(
    State(state): State<AppState>,
    user: AuthUser,
    Path(user_id): Path<String>,
    ApiQuery(query): ApiQuery<PointQuery>,
) -> ApiResult<ApiJson<UserSourcesAsOf>> {
    Ok(ApiJson(as_of::user_sources(&state, &user, &user_id, &query.into()).await?))
}
