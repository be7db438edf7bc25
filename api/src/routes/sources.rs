//! Following sources over HTTP: catalogue entries, RSS URLs, and their priorities. The rules are
//! `service::sources`'.

use axum::extract::{Path, State};
use domain::source::Priority;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::app::AppState;
use crate::auth::AuthUser;
use crate::error::{ApiJson, ApiQuery, ApiResult, ErrorBody};
use service::sources::{self, Followed, PublicSource, RssSource, SuggestedFeeds, TopicSummary};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(connect_public))
        .routes(routes!(connect_public_multiple))
        .routes(routes!(connect_rss))
        .routes(routes!(list_rss))
        .routes(routes!(set_rss_priority))
        .routes(routes!(set_rss_priorities))
        .routes(routes!(retry_rss))
        .routes(routes!(list_public))
        .routes(routes!(rss_topics))
        .routes(routes!(rss_by_topic))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct TopicList {
    pub results: Vec<TopicSummary>,
}

/// The topics under which RSS feeds are suggested.
#[utoipa::path(get, path = "/rss/topics", tag = "sources", security(("token" = [])),
    responses((status = 200, body = TopicList)))]
async fn rss_topics(State(state): State<AppState>, _user: AuthUser) -> ApiResult<ApiJson<TopicList>> {
    Ok(ApiJson(TopicList { results: sources::topics(&state) }))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct TopicQuery {
    pub topic: String,
}

/// The RSS feeds suggested under a topic, with which the user already follows; follow one with
/// `POST /connect/rss`.
#[utoipa::path(get, path = "/rss", tag = "sources", security(("token" = [])), params(TopicQuery),
    responses((status = 200, body = SuggestedFeeds), (status = 404, body = ErrorBody)))]
async fn rss_by_topic(
    State(state): State<AppState>,
    user: AuthUser,
    ApiQuery(query): ApiQuery<TopicQuery>,
) -> ApiResult<ApiJson<SuggestedFeeds>> {
    Ok(ApiJson(sources::suggested(&state, &user.user_id, &query.topic).await?))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PublicList {
    pub results: Vec<PublicSource>,
}

/// The public source catalogue, with what the user follows.
#[utoipa::path(get, path = "/source/public", tag = "sources", security(("token" = [])),
    responses((status = 200, body = PublicList)))]
async fn list_public(State(state): State<AppState>, user: AuthUser) -> ApiResult<ApiJson<PublicList>> {
    Ok(ApiJson(PublicList { results: sources::catalogue(&state, &user.user_id).await? }))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct PublicKey {
    pub key: String,
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct DelinkQuery {
    /// `true` unfollows instead.
    pub delink: Option<bool>,
}

/// Follows a public source by key; with `delink=true`, unfollows it.
#[utoipa::path(post, path = "/connect/public", tag = "sources", security(("token" = [])),
    params(DelinkQuery), request_body = PublicKey,
    responses((status = 200, body = Followed), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn connect_public(
    State(state): State<AppState>,
    user: AuthUser,
    ApiQuery(query): ApiQuery<DelinkQuery>,
    ApiJson(body): ApiJson<PublicKey>,
) -> ApiResult<ApiJson<Followed>> {
    Ok(ApiJson(sources::connect_public(&state, &user, &body.key, query.delink.unwrap_or(false)).await?))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct PublicKeys {
    pub keys: Vec<String>,
}

/// Follows several public sources at once.
#[utoipa::path(post, path = "/connect/public/multiple", tag = "sources", security(("token" = [])),
    request_body = PublicKeys, responses((status = 200, body = Vec<Followed>), (status = 422, body = ErrorBody)))]
async fn connect_public_multiple(
    State(state): State<AppState>,
    user: AuthUser,
    ApiJson(body): ApiJson<PublicKeys>,
) -> ApiResult<ApiJson<Vec<Followed>>> {
    Ok(ApiJson(sources::connect_public_many(&state, &user, body.keys).await?))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AddRss {
    /// The feed's address (RSS, Atom or JSON Feed).
    pub url: String,
    /// A name to show; the address when absent.
    pub label: Option<String>,
}

/// Adds an RSS, Atom or JSON Feed address and follows it.
#[utoipa::path(post, path = "/connect/rss", tag = "sources", security(("token" = [])), request_body = AddRss,
    responses((status = 200, body = RssSource), (status = 422, body = ErrorBody)))]
async fn connect_rss(
    State(state): State<AppState>,
    user: AuthUser,
    ApiJson(body): ApiJson<AddRss>,
) -> ApiResult<ApiJson<RssSource>> {
    Ok(ApiJson(sources::follow_rss(&state, &user, &body.url, body.label).await?))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct RssList {
    pub results: Vec<RssSource>,
}

/// The RSS sources the user follows.
#[utoipa::path(get, path = "/source/rss", tag = "sources", security(("token" = [])),
    responses((status = 200, body = RssList)))]
async fn list_rss(State(state): State<AppState>, user: AuthUser) -> ApiResult<ApiJson<RssList>> {
    Ok(ApiJson(RssList { results: sources::rss_sources(&state, &user.user_id, None).await? }))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PriorityBody {
    /// HIGH, MEDIUM or LOW.
    #[schema(value_type = String)]
    pub priority: Priority,
}

/// Changes how prominently one followed source shows.
#[utoipa::path(put, path = "/source/rss/{source_id}", tag = "sources", security(("token" = [])),
    params(("source_id" = String, Path)), request_body = PriorityBody,
    responses((status = 200, body = RssSource), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn set_rss_priority(
    State(state): State<AppState>,
    user: AuthUser,
    Path(source_id): Path<String>,
    ApiJson(body): ApiJson<PriorityBody>,
) -> ApiResult<ApiJson<RssSource>> {
    Ok(ApiJson(sources::set_priority(&state, &user, &source_id, body.priority).await?))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct BulkPriority {
    pub source_ids: Vec<String>,
    #[schema(value_type = String)]
    pub priority: Priority,
}

/// Changes the priority of 1 to 50 followed sources at once.
#[utoipa::path(put, path = "/source/rss/priority", tag = "sources", security(("token" = [])),
    request_body = BulkPriority,
    responses((status = 200, body = RssList), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn set_rss_priorities(
    State(state): State<AppState>,
    user: AuthUser,
    ApiJson(body): ApiJson<BulkPriority>,
) -> ApiResult<ApiJson<RssList>> {
    Ok(ApiJson(RssList { results: sources::set_priorities(&state, &user, &body.source_ids, body.priority).await? }))
}

/// Fetches a followed feed again now instead of at its next scheduled attempt (after failures,
/// up to six hours away). The fetch follows within seconds; its outcome shows in the list.
#[utoipa::path(post, path = "/source/rss/{source_id}/retry", tag = "sources", security(("token" = [])),
    params(("source_id" = String, Path)),
    responses((status = 200, body = RssSource), (status = 404, body = ErrorBody)))]
async fn retry_rss(
    State(state): State<AppState>,
    user: AuthUser,
    Path(source_id): Path<String>,
) -> ApiResult<ApiJson<RssSource>> {
    Ok(ApiJson(sources::retry(&state, &user, &source_id).await?))
}
