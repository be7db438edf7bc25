//! Portfolios: each user's named lists of holdings (company, ISIN, quantity). The rules are
//! [`service::portfolios`] and the portfolio aggregate.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use service::portfolios::{self, PortfolioBody, PortfolioList, PortfolioView};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::app::AppState;
use crate::auth::AuthUser;
use crate::error::{ApiJson, ApiResult, ErrorBody};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(list_portfolios, create_portfolio)).routes(routes!(
        get_portfolio,
        update_portfolio,
        delete_portfolio
    ))
}

/// The signed-in user's portfolios, the most recently changed first.
#[utoipa::path(get, path = "/portfolios", tag = "portfolios", security(("token" = [])),
    responses((status = 200, body = PortfolioList), (status = 401, body = ErrorBody)))]
async fn list_portfolios(State(state): State<AppState>, user: AuthUser) -> ApiResult<ApiJson<PortfolioList>> {
    Ok(ApiJson(portfolios::list(&state, &user).await?))
}

/// Makes a portfolio. Every row is checked first (a company name, an ISIN with a valid check
/// digit, each ISIN once, a quantity above zero); a refusal names the row.
#[utoipa::path(post, path = "/portfolios", tag = "portfolios", security(("token" = [])),
    request_body = PortfolioBody,
    responses((status = 201, body = PortfolioView), (status = 422, body = ErrorBody)))]
async fn create_portfolio(
    State(state): State<AppState>,
    user: AuthUser,
    ApiJson(body): ApiJson<PortfolioBody>,
) -> ApiResult<(StatusCode, ApiJson<PortfolioView>)> {
    Ok((StatusCode::CREATED, ApiJson(portfolios::create(&state, &user, body).await?)))
}

#[utoipa::path(get, path = "/portfolios/{portfolio_id}", tag = "portfolios", security(("token" = [])),
    params(("portfolio_id" = String, Path)),
    responses((status = 200, body = PortfolioView), (status = 404, body = ErrorBody)))]
async fn get_portfolio(
    State(state): State<AppState>,
    user: AuthUser,
    Path(portfolio_id): Path<String>,
) -> ApiResult<ApiJson<PortfolioView>> {
    Ok(ApiJson(portfolios::get(&state, &user, &portfolio_id).await?))
}

/// Replaces a portfolio's name and every holding, checked as when it was made.
#[utoipa::path(put, path = "/portfolios/{portfolio_id}", tag = "portfolios", security(("token" = [])),
    params(("portfolio_id" = String, Path)), request_body = PortfolioBody,
    responses((status = 200, body = PortfolioView), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn update_portfolio(
    State(state): State<AppState>,
    user: AuthUser,
    Path(portfolio_id): Path<String>,
    ApiJson(body): ApiJson<PortfolioBody>,
) -> ApiResult<ApiJson<PortfolioView>> {
    Ok(ApiJson(portfolios::update(&state, &user, &portfolio_id, body).await?))
}

#[utoipa::path(delete, path = "/portfolios/{portfolio_id}", tag = "portfolios", security(("token" = [])),
    params(("portfolio_id" = String, Path)),
    responses((status = 204), (status = 404, body = ErrorBody)))]
async fn delete_portfolio(
    State(state): State<AppState>,
    user: AuthUser,
    Path(portfolio_id): Path<String>,
) -> ApiResult<StatusCode> {
    portfolios::delete(&state, &user, &portfolio_id).await?;
    Ok(StatusCode::NO_CONTENT)
}
