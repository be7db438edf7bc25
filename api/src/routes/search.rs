//! Search over HTTP: category tabs with counts, result pages with highlights, and facets. The
//! searches themselves, and what they may reach, are in [`service::search`].

use axum::extract::{Path, State};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::app::AppState;
use crate::auth::AuthUser;
use crate::error::{ApiJson, ApiResult, ErrorBody};
use service::search::{self as searching, ExchangeFacetAnswer, SearchAnswer, SearchBody, TagFacetAnswer};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(search_all))
        .routes(routes!(search_in))
        .routes(routes!(exchange_facets))
        .routes(routes!(tag_facets))
}

/// Searches all the data the request's `search_type` reaches.
#[utoipa::path(post, path = "/search", tag = "search", security(("token" = [])), request_body = SearchBody,
    responses((status = 200, body = SearchAnswer), (status = 400, body = ErrorBody)))]
async fn search_all(
    State(state): State<AppState>,
    user: AuthUser,
    ApiJson(body): ApiJson<SearchBody>,
) -> ApiResult<ApiJson<SearchAnswer>> {
    Ok(ApiJson(searching::search(&state, &user.user_id, None, body).await?))
}

/// Searches within a sub-category (`rss_news`, `exchanges`, `drives`, ...), the current feed
/// (`today`, with `board_id`), or one source by id.
#[utoipa::path(post, path = "/search/{source}", tag = "search", security(("token" = [])), request_body = SearchBody,
    params(("source" = String, Path)),
    responses((status = 200, body = SearchAnswer), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn search_in(
    State(state): State<AppState>,
    user: AuthUser,
    Path(source): Path<String>,
    ApiJson(body): ApiJson<SearchBody>,
) -> ApiResult<ApiJson<SearchAnswer>> {
    Ok(ApiJson(searching::search(&state, &user.user_id, Some(&source), body).await?))
}

/// With `type: "filter"`: companies in exchange filings, with how many filings each has
/// (`filter.exchanges.Country` narrows to India and/or the US). Otherwise a search within the
/// exchange filings, as `/search/{source}` answers.
#[utoipa::path(post, path = "/search/exchanges", tag = "search", security(("token" = [])), request_body = SearchBody,
    responses((status = 200, body = ExchangeSearchAnswer), (status = 400, body = ErrorBody)))]
async fn exchange_facets(
    State(state): State<AppState>,
    user: AuthUser,
    ApiJson(body): ApiJson<SearchBody>,
) -> ApiResult<ApiJson<ExchangeSearchAnswer>> {
    if body.kind.as_deref() != Some("filter") {
        let page = searching::search(&state, &user.user_id, Some("exchanges"), body).await?;
        return Ok(ApiJson(ExchangeSearchAnswer::Results(page)));
    }
    Ok(ApiJson(ExchangeSearchAnswer::Facets(searching::exchange_facets(&state, &user.user_id, &body).await?)))
}

/// What `/search/exchanges` answers: the companies (`type: "filter"`) or a page of results.
#[derive(serde::Serialize, utoipa::ToSchema)]
#[serde(untagged)]
enum ExchangeSearchAnswer {
    Facets(ExchangeFacetAnswer),
    Results(SearchAnswer),
}

/// The user's tags with how many of the documents they can still read carry each, most used
/// first.
#[utoipa::path(post, path = "/search/tags", tag = "search", security(("token" = [])), request_body = SearchBody,
    responses((status = 200, body = TagFacetAnswer), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn tag_facets(
    State(state): State<AppState>,
    user: AuthUser,
    ApiJson(body): ApiJson<SearchBody>,
) -> ApiResult<ApiJson<TagFacetAnswer>> {
    Ok(ApiJson(searching::tag_facets(&state, &user.user_id, body.channel_id.as_deref()).await?))
}
