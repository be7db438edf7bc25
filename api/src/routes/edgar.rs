//! Following companies' SEC filings on EDGAR. The rules are [`service::filings::edgar`]; the
//! filings arrive through the ingestion loop as documents of the company's source.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde::Deserialize;
use service::filings::edgar::{self, CompanyMatches, EdgarOverview, FollowCompanyBody, FollowedCompany};
use utoipa::IntoParams;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::app::AppState;
use crate::auth::AuthUser;
use crate::error::{ApiJson, ApiQuery, ApiResult, ErrorBody};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(overview, follow_company))
        .routes(routes!(search_companies))
        .routes(routes!(unfollow_company))
        .routes(routes!(refresh_company))
}

/// Whether companies can be followed here (and why not), the forms a follow can be narrowed to,
/// and the companies the user follows with how their last checks went.
#[utoipa::path(get, path = "/connect/edgar", tag = "sources", security(("token" = [])),
    responses((status = 200, body = EdgarOverview), (status = 401, body = ErrorBody)))]
async fn overview(State(state): State<AppState>, user: AuthUser) -> ApiResult<ApiJson<EdgarOverview>> {
    Ok(ApiJson(edgar::overview(&state, &user).await?))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct CompanyQuery {
    /// The start of a ticker or of a company's name.
    #[serde(default)]
    pub q: String,
}

/// Companies on EDGAR whose ticker or name starts like `q`, at most ten, for a type-ahead.
#[utoipa::path(get, path = "/connect/edgar/companies", tag = "sources", security(("token" = [])),
    params(CompanyQuery),
    responses((status = 200, body = CompanyMatches), (status = 422, body = ErrorBody), (status = 503, body = ErrorBody)))]
async fn search_companies(
    State(state): State<AppState>,
    _user: AuthUser,
    ApiQuery(query): ApiQuery<CompanyQuery>,
) -> ApiResult<ApiJson<CompanyMatches>> {
    Ok(ApiJson(edgar::search_companies(&state, &query.q).await?))
}

/// Follows a company's filings by ticker, CIK or name, every form or those given. The company is
/// found before anything is recorded; its first check follows at once.
#[utoipa::path(post, path = "/connect/edgar", tag = "sources", security(("token" = [])),
    request_body = FollowCompanyBody,
    responses((status = 200, body = FollowedCompany), (status = 422, body = ErrorBody), (status = 503, body = ErrorBody)))]
async fn follow_company(
    State(state): State<AppState>,
    user: AuthUser,
    ApiJson(body): ApiJson<FollowCompanyBody>,
) -> ApiResult<ApiJson<FollowedCompany>> {
    Ok(ApiJson(edgar::follow(&state, &user, body).await?))
}

/// Stops following a company; the filings already brought in stay.
#[utoipa::path(delete, path = "/connect/edgar/{source_id}", tag = "sources", security(("token" = [])),
    params(("source_id" = String, Path, description = "The followed company's source")),
    responses((status = 204), (status = 404, body = ErrorBody)))]
async fn unfollow_company(
    State(state): State<AppState>,
    user: AuthUser,
    Path(source_id): Path<String>,
) -> ApiResult<StatusCode> {
    edgar::unfollow(&state, &user, &source_id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Asks for the company's filings to be checked now rather than at the next check.
#[utoipa::path(post, path = "/connect/edgar/{source_id}/refresh", tag = "sources", security(("token" = [])),
    params(("source_id" = String, Path, description = "The followed company's source")),
    responses((status = 200, body = FollowedCompany), (status = 404, body = ErrorBody)))]
async fn refresh_company(
    State(state): State<AppState>,
    user: AuthUser,
    Path(source_id): Path<String>,
) -> ApiResult<ApiJson<FollowedCompany>> {
    Ok(ApiJson(edgar::refresh(&state, &user, &source_id).await?))
}
