//! Following websites by address. The ingestion loop reads a site's advertised feed when it has
//! one, else crawls its pages to a bounded depth (see `ingest::WebConnector`).

use axum::extract::State;
use commands::args;
use domain::source::{SourceCommand, SourceKind};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::app::AppState;
use crate::auth::AuthUser;
use crate::error::{ApiJson, ApiQuery, ApiResult, AppError, ErrorBody};
use crate::routes::sources::{canonical_feed_url, check_fetchable, follow, unfollow, url_source_id, DelinkQuery};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(connect_website, list_websites))
}

/// Returns the source id of a site: the same address is the same source for every user.
pub fn website_source_id(url: &url::Url) -> String {
    url_source_id("web", url)
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct WebsiteBody {
    /// The site's address (to follow).
    pub url: Option<String>,
    /// The followed site (to unfollow with `delink=true`).
    pub source_id: Option<String>,
    /// A name to show; the site's host when absent.
    pub label: Option<String>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema, sqlx::FromRow)]
pub struct Website {
    pub source_id: String,
    pub label: String,
    pub url: String,
    pub priority: String,
    pub followed_at: String,
    /// When the site was last read successfully.
    pub last_fetched_at: Option<String>,
    /// Why the last reads failed, while they keep failing.
    pub last_error: Option<String>,
    /// When the site is read next; while reads fail, later each time (from a minute up to six
    /// hours).
    pub next_attempt_at: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct WebsiteList {
    pub results: Vec<Website>,
}

async fn websites(state: &AppState, user_id: &str, only: Option<&str>) -> ApiResult<Vec<Website>> {
    Ok(state
        .db
        .fetch_all(
            "SELECT s.source_id, s.label, s.url, sub.priority, sub.followed_at, f.last_fetched_at, f.last_error, \
             f.next_attempt_at \
             FROM subscriptions_view sub JOIN sources_view s ON s.source_id = sub.source_id \
             LEFT JOIN source_fetch_state f ON f.source_id = s.source_id \
             WHERE sub.user_id = $1 AND s.kind = 'website' AND ($2 = '' OR s.source_id = $2) ORDER BY s.label",
            args![user_id, only.unwrap_or("")],
        )
        .await?)
}

/// The websites the user follows, with how their last reads went.
#[utoipa::path(get, path = "/connect/website", tag = "sources", security(("token" = [])),
    responses((status = 200, body = WebsiteList)))]
async fn list_websites(State(state): State<AppState>, user: AuthUser) -> ApiResult<ApiJson<WebsiteList>> {
    Ok(ApiJson(WebsiteList { results: websites(&state, &user.user_id, None).await? }))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct WebsiteChange {
    pub source_id: String,
    pub following: bool,
    pub label: Option<String>,
    pub url: Option<String>,
}

/// Follows a website by address; with `delink=true` and `source_id`, unfollows it.
#[utoipa::path(post, path = "/connect/website", tag = "sources", security(("token" = [])),
    params(DelinkQuery), request_body = WebsiteBody,
    responses((status = 200, body = WebsiteChange), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn connect_website(
    State(state): State<AppState>,
    user: AuthUser,
    ApiQuery(query): ApiQuery<DelinkQuery>,
    ApiJson(body): ApiJson<WebsiteBody>,
) -> ApiResult<ApiJson<WebsiteChange>> {
    if query.delink.unwrap_or(false) {
        let source_id = match (&body.source_id, &body.url) {
            (Some(id), _) => id.trim().to_string(),
            (None, Some(url)) => website_source_id(&canonical_feed_url(url)?),
            (None, None) => return Err(AppError::invalid("source_required", "name the website to unfollow")),
        };
        let cursor = unfollow(&state, &user, &source_id).await?;
        state.settle(cursor).await;
        return Ok(ApiJson(WebsiteChange { source_id, following: false, label: None, url: None }));
    }
    let raw = body
        .url
        .as_deref()
        .filter(|u| !u.trim().is_empty())
        .ok_or_else(|| AppError::invalid("url_required", "enter the website's address"))?;
    // People type `example.com`; a site without a scheme is taken as https.
    let raw = if raw.contains("://") { raw.trim().to_string() } else { format!("https://{}", raw.trim()) };
    let url = canonical_feed_url(&raw).map_err(|e| match e.code.as_str() {
        "invalid_url" => AppError::invalid("invalid_url", "the website address must be a valid http(s) URL"),
        _ => e,
    })?;
    check_fetchable(&state, &url)?;
    let source_id = website_source_id(&url);
    let label = body
        .label
        .filter(|l| !l.trim().is_empty())
        .unwrap_or_else(|| url.host_str().unwrap_or(url.as_str()).trim_start_matches("www.").to_string());
    state
        .bus
        .execute(
            &state.bus.sources,
            &source_id,
            SourceCommand::Register {
                kind: SourceKind::Website,
                key: url.to_string(),
                url: Some(url.to_string()),
                label,
            },
            &user.metadata(),
        )
        .await?;
    let cursor = follow(&state, &user, &source_id).await?;
    state.settle(cursor).await;
    let site = websites(&state, &user.user_id, Some(&source_id))
        .await?
        .pop()
        .ok_or_else(|| AppError::internal("a followed website is missing from its views"))?;
    Ok(ApiJson(WebsiteChange { source_id, following: true, label: Some(site.label), url: Some(site.url) }))
}
