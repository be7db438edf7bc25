//! The analytics feed: named consumers, their batches and acknowledgements, and event counts.
//! For administrators, auditors and analysts; the use cases are [`service::analytics`].

use std::sync::OnceLock;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use service::analytics::{self, AnalyticsPage, Consumer, CountBy, Counts};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::app::AppState;
use crate::auth::AuthUser;
use crate::error::{ApiJson, ApiQuery, ApiResult, ErrorBody};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_consumers, register_consumer))
        .routes(routes!(delete_consumer))
        .routes(routes!(analytics_events))
        .routes(routes!(acknowledge))
        .routes(routes!(event_counts))
        .routes(routes!(event_schemas))
}

/// Every analytics consumer and how far it has read.
#[utoipa::path(get, path = "/analytics/consumers", tag = "analytics", security(("token" = [])),
    responses((status = 200, body = Vec<Consumer>), (status = 403, body = ErrorBody)))]
async fn list_consumers(State(state): State<AppState>, user: AuthUser) -> ApiResult<ApiJson<Vec<Consumer>>> {
    Ok(ApiJson(analytics::consumers(&state, &user).await?))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RegisterBody {
    /// 1 to 64 lower-case letters, digits, dashes or underscores.
    pub name: String,
}

/// Registers a consumer; it reads from the start of the history.
#[utoipa::path(post, path = "/analytics/consumers", tag = "analytics", security(("token" = [])),
    request_body = RegisterBody,
    responses((status = 201, body = Consumer), (status = 403, body = ErrorBody), (status = 409, body = ErrorBody),
        (status = 422, body = ErrorBody)))]
async fn register_consumer(
    State(state): State<AppState>,
    user: AuthUser,
    ApiJson(body): ApiJson<RegisterBody>,
) -> ApiResult<(StatusCode, ApiJson<Consumer>)> {
    Ok((StatusCode::CREATED, ApiJson(analytics::register(&state, &user, &body.name).await?)))
}

/// Deletes a consumer; registering the name again starts from the beginning.
#[utoipa::path(delete, path = "/analytics/consumers/{name}", tag = "analytics", security(("token" = [])),
    params(("name" = String, Path)),
    responses((status = 204), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn delete_consumer(
    State(state): State<AppState>,
    user: AuthUser,
    Path(name): Path<String>,
) -> ApiResult<StatusCode> {
    analytics::delete(&state, &user, &name).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct EventsQuery {
    /// The consumer's name.
    pub consumer: String,
    /// Batch size, 1 to 1000 (default 500).
    pub limit: Option<i64>,
}

/// The next batch after the consumer's acknowledged cursor; reading does not move it.
#[utoipa::path(get, path = "/analytics/events", tag = "analytics", security(("token" = [])), params(EventsQuery),
    responses((status = 200, body = AnalyticsPage), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
async fn analytics_events(
    State(state): State<AppState>,
    user: AuthUser,
    ApiQuery(query): ApiQuery<EventsQuery>,
) -> ApiResult<ApiJson<AnalyticsPage>> {
    Ok(ApiJson(analytics::events(&state, &user, &query.consumer, query.limit).await?))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AckBody {
    pub consumer: String,
    /// A batch's `next`.
    pub cursor: String,
}

/// Moves the consumer's acknowledged cursor forward, once a batch is stored.
#[utoipa::path(post, path = "/analytics/events/ack", tag = "analytics", security(("token" = [])),
    request_body = AckBody,
    responses((status = 200, body = Consumer), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn acknowledge(
    State(state): State<AppState>,
    user: AuthUser,
    ApiJson(body): ApiJson<AckBody>,
) -> ApiResult<ApiJson<Consumer>> {
    Ok(ApiJson(analytics::acknowledge(&state, &user, &body.consumer, &body.cursor).await?))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct CountsQuery {
    /// `event_type` (default), `aggregate_type` or `day` (UTC).
    pub by: Option<String>,
    /// From this time (RFC 3339), inclusive.
    pub from: Option<String>,
    /// Up to this time, exclusive.
    pub to: Option<String>,
}

/// How many events were recorded, grouped by type, aggregate type or day.
#[utoipa::path(get, path = "/analytics/counts", tag = "analytics", security(("token" = [])), params(CountsQuery),
    responses((status = 200, body = Counts), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn event_counts(
    State(state): State<AppState>,
    user: AuthUser,
    ApiQuery(query): ApiQuery<CountsQuery>,
) -> ApiResult<ApiJson<Counts>> {
    let by = CountBy::parse(query.by.as_deref().unwrap_or("event_type"))?;
    Ok(ApiJson(analytics::counts(&state, &user, by, query.from.as_deref(), query.to.as_deref()).await?))
}

/// The JSON Schema of one event type's payload, at the version new events are written at.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct EventSchema {
    pub aggregate_type: String,
    pub event_type: String,
    pub event_version: String,
    /// A JSON Schema (draft 2020-12) of the payload as stored and exported: `{"EventType":
    /// {fields}}`, or `"EventType"` for an event without fields.
    #[schema(value_type = Object)]
    pub schema: serde_json::Value,
}

/// Every event type's payload schema.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct EventSchemas {
    pub events: Vec<EventSchema>,
}

/// The JSON Schema of every event type's payload, per aggregate type, event type and version,
/// generated from the event types. Public, as this document is: it describes types, not data. A
/// type's schema changes only with its version, and exports hand out every payload upcast to the
/// version listed here.
#[utoipa::path(get, path = "/analytics/schema", tag = "analytics",
    responses((status = 200, body = EventSchemas)))]
async fn event_schemas() -> ApiJson<EventSchemas> {
    static SCHEMAS: OnceLock<EventSchemas> = OnceLock::new();
    let schemas = SCHEMAS.get_or_init(|| EventSchemas {
        events: domain::schema::catalogue()
            .into_iter()
            .map(|s| EventSchema {
                aggregate_type: s.aggregate_type.to_string(),
                event_type: s.event_type.to_string(),
                event_version: s.event_version.to_string(),
                schema: s.schema,
            })
            .collect(),
    });
    ApiJson(schemas.clone())
}
