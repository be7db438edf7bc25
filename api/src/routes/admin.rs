//! Administration: users, their feature flags and roles. Administrators only; the rules are
//! [`service::admin`].

use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde::Deserialize;
use service::admin::{self, AdminUser};
use service::erasure;
use service::password_reset::{self, ResetLink};
use service::platform::FeatureConfig;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::app::AppState;
use crate::auth::AuthUser;
use crate::error::{ApiJson, ApiResult, ErrorBody};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_users))
        .routes(routes!(erase_user))
        .routes(routes!(set_flag))
        .routes(routes!(grant_role, revoke_role))
        .routes(routes!(reset_link))
}

#[utoipa::path(get, path = "/admin/users", tag = "admin", security(("token" = [])),
    responses((status = 200, body = Vec<AdminUser>), (status = 403, body = ErrorBody)))]
async fn list_users(State(state): State<AppState>, user: AuthUser) -> ApiResult<ApiJson<Vec<AdminUser>>> {
    Ok(ApiJson(admin::list_users(&state, &user).await?))
}

/// Erases a user's account: their sessions end, and their name, email, password and comment
/// texts become unreadable for good (the key they were sealed with is destroyed). Their events
/// stay, reading "Erased user". Not for the administrator's own account (`DELETE /user`).
#[utoipa::path(delete, path = "/admin/users/{user_id}", tag = "admin", security(("token" = [])),
    params(("user_id" = String, Path)),
    responses((status = 204), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 422, body = ErrorBody)))]
async fn erase_user(
    State(state): State<AppState>,
    admin: AuthUser,
    Path(user_id): Path<String>,
) -> ApiResult<StatusCode> {
    erasure::erase_user(&state, &admin, &user_id).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct FlagValue {
    /// `on` or `off`.
    pub value: String,
}

/// Sets one feature flag of one user.
#[utoipa::path(put, path = "/admin/users/{user_id}/flags/{flag}", tag = "admin", security(("token" = [])),
    params(("user_id" = String, Path), ("flag" = String, Path)), request_body = FlagValue,
    responses((status = 200, body = FeatureConfig), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn set_flag(
    State(state): State<AppState>,
    admin: AuthUser,
    Path((user_id, flag)): Path<(String, String)>,
    ApiJson(body): ApiJson<FlagValue>,
) -> ApiResult<ApiJson<FeatureConfig>> {
    Ok(ApiJson(admin::set_flag(&state, &admin, &user_id, flag, body.value).await?))
}

#[utoipa::path(put, path = "/admin/users/{user_id}/roles/{role}", tag = "admin", security(("token" = [])),
    params(("user_id" = String, Path), ("role" = String, Path)),
    responses((status = 200, body = AdminUser), (status = 403, body = ErrorBody)))]
async fn grant_role(
    State(state): State<AppState>,
    admin: AuthUser,
    Path((user_id, role)): Path<(String, String)>,
) -> ApiResult<ApiJson<AdminUser>> {
    Ok(ApiJson(admin::grant_role(&state, &admin, &user_id, &role).await?))
}

#[utoipa::path(delete, path = "/admin/users/{user_id}/roles/{role}", tag = "admin", security(("token" = [])),
    params(("user_id" = String, Path), ("role" = String, Path)),
    responses((status = 200, body = AdminUser), (status = 403, body = ErrorBody)))]
async fn revoke_role(
    State(state): State<AppState>,
    admin: AuthUser,
    Path((user_id, role)): Path<(String, String)>,
) -> ApiResult<ApiJson<AdminUser>> {
    Ok(ApiJson(admin::revoke_role(&state, &admin, &user_id, &role).await?))
}

/// Issues a one-time password reset link for a user, to pass on by hand (the way to reset a
/// password on a server that sends no mail). The link is shown once; it replaces any earlier
/// link of the user and works for `--reset-link-minutes`. Recorded as the administrator's act.
#[utoipa::path(post, path = "/admin/users/{user_id}/reset-link", tag = "admin", security(("token" = [])),
    params(("user_id" = String, Path)),
    responses((status = 200, body = ResetLink), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn reset_link(
    State(state): State<AppState>,
    admin: AuthUser,
    Path(user_id): Path<String>,
) -> ApiResult<ApiJson<ResetLink>> {
    Ok(ApiJson(password_reset::admin_reset_link(&state, &admin, &user_id).await?))
}
