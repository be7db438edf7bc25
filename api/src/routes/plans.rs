//! Plans and pricing gates: the plans, the signed-in user's plan and usage, the eligibility map
//! the browser's pricing prompt reads, and an administrator's plan assignment. The rules are
//! [`service::plans`].

use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde::Deserialize;
use service::plans::{self, EligibilityMap, MyPlan, PlanList};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::app::AppState;
use crate::auth::AuthUser;
use crate::error::{ApiJson, ApiResult, ErrorBody};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_plans))
        .routes(routes!(my_plan))
        .routes(routes!(pricing_eligibility))
        .routes(routes!(assign_plan))
}

/// The plans an administrator can assign, cheapest first, and the one a user is on until then.
#[utoipa::path(get, path = "/plans", tag = "plans", security(("token" = [])),
    responses((status = 200, body = PlanList), (status = 401, body = ErrorBody)))]
async fn list_plans(State(state): State<AppState>, _user: AuthUser) -> ApiResult<ApiJson<PlanList>> {
    Ok(ApiJson(plans::plans(&state)))
}

/// The signed-in user's plan, what they use of its limits, whether plans apply to them (their
/// `is_pricing` flag), and where they manage billing (`null`: ask an administrator).
#[utoipa::path(get, path = "/user/plan", tag = "plans", security(("token" = [])),
    responses((status = 200, body = MyPlan), (status = 401, body = ErrorBody)))]
async fn my_plan(State(state): State<AppState>, user: AuthUser) -> ApiResult<ApiJson<MyPlan>> {
    Ok(ApiJson(plans::mine(&state, &user).await?))
}

/// Each pricing key's eligibility for the signed-in user, with the prompt (header, message,
/// subtext, footer action) to show instead of a gated action. All eligible when plans do not
/// apply to the user.
#[utoipa::path(get, path = "/messaging/pricing", tag = "plans", security(("token" = [])),
    responses((status = 200, body = EligibilityMap), (status = 401, body = ErrorBody)))]
async fn pricing_eligibility(State(state): State<AppState>, user: AuthUser) -> ApiResult<ApiJson<EligibilityMap>> {
    Ok(ApiJson(plans::eligibility(&state, &user).await?))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PlanChoice {
    /// A plan's id, as `GET /plans` lists them.
    pub plan: String,
}

/// Puts a user on a plan (administrators). A smaller plan deletes nothing: writes beyond it are
/// refused with `plan_required`.
#[utoipa::path(put, path = "/admin/users/{user_id}/plan", tag = "admin", security(("token" = [])),
    params(("user_id" = String, Path)), request_body = PlanChoice,
    responses((status = 204), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 422, body = ErrorBody)))]
async fn assign_plan(
    State(state): State<AppState>,
    admin: AuthUser,
    Path(user_id): Path<String>,
    ApiJson(body): ApiJson<PlanChoice>,
) -> ApiResult<StatusCode> {
    plans::assign(&state, &admin, &user_id, body.plan).await?;
    Ok(StatusCode::NO_CONTENT)
}
