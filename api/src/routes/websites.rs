//! Following websites by address over HTTP. The rules are `service::websites`'.

use axum::extract::State;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::app::AppState;
use crate::auth::AuthUser;
use crate::error::{ApiJson, ApiQuery, ApiResult, ErrorBody};
use service::websites::{self, Website, WebsiteChange};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(connect_website, list_websites))
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

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct DelinkQuery {
    /// `true` unfollows instead.
    pub delink: Option<bool>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct WebsiteList {
    pub results: Vec<Website>,
}

/// The websites the user follows, with how their last reads went.
#[utoipa::path(get, path = "/connect/website", tag = "sources", security(("token" = [])),
    responses((status = 200, body = WebsiteList)))]
async fn list_websites(State(state): State<AppState>, user: AuthUser) -> ApiResult<ApiJson<WebsiteList>> {
    Ok(ApiJson(WebsiteList { results: websites::websites(&state, &user.user_id, None).await? }))
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
    let change = if query.delink.unwrap_or(false) {
        websites::unfollow(&state, &user, body.source_id.as_deref(), body.url.as_deref()).await?
    } else {
        websites::follow(&state, &user, body.url.as_deref(), body.label).await?
    };
    Ok(ApiJson(change))
}
