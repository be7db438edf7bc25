//! Administration: users, their feature flags and roles. Administrators only.

use axum::extract::{Path, State};
use domain::user::{Role, UserCommand};
use projections::queries;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::app::AppState;
use crate::auth::AuthUser;
use crate::error::{ApiJson, ApiResult, AppError, ErrorBody};
use service::admin::parse_role;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(list_users)).routes(routes!(set_flag)).routes(routes!(grant_role, revoke_role))
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct AdminUser {
    pub id: String,
    pub email_id: String,
    pub username: String,
    pub is_admin: bool,
    pub is_auditor: bool,
    pub created_at: String,
}

impl From<queries::UserRow> for AdminUser {
    fn from(u: queries::UserRow) -> Self {
        AdminUser {
            id: u.user_id,
            email_id: u.email,
            username: u.username,
            is_admin: u.is_admin,
            is_auditor: u.is_auditor,
            created_at: u.created_at,
        }
    }
}

#[utoipa::path(get, path = "/admin/users", tag = "admin", security(("token" = [])),
    responses((status = 200, body = Vec<AdminUser>), (status = 403, body = ErrorBody)))]
async fn list_users(State(state): State<AppState>, user: AuthUser) -> ApiResult<ApiJson<Vec<AdminUser>>> {
    user.require_admin()?;
    let users = queries::all_users(&state.db).await?;
    Ok(ApiJson(users.into_iter().map(AdminUser::from).collect()))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct FlagValue {
    /// `on` or `off`.
    pub value: String,
}

async fn existing_user(state: &AppState, user_id: &str) -> ApiResult<()> {
    queries::user_by_id(&state.db, user_id).await?.map(|_| ()).ok_or_else(|| AppError::not_found("user not found"))
}

/// Sets one feature flag of one user.
#[utoipa::path(put, path = "/admin/users/{user_id}/flags/{flag}", tag = "admin", security(("token" = [])),
    params(("user_id" = String, Path), ("flag" = String, Path)), request_body = FlagValue,
    responses((status = 200, body = service::platform::FeatureConfig), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn set_flag(
    State(state): State<AppState>,
    admin: AuthUser,
    Path((user_id, flag)): Path<(String, String)>,
    ApiJson(body): ApiJson<FlagValue>,
) -> ApiResult<ApiJson<service::platform::FeatureConfig>> {
    admin.require_admin()?;
    existing_user(&state, &user_id).await?;
    state
        .command(&state.bus.users, &user_id, UserCommand::SetFeatureFlag { flag, value: body.value }, &admin.metadata())
        .await?;
    let values = queries::flag_values(&state.db, &user_id).await?;
    Ok(ApiJson(service::platform::FeatureConfig {
        features: values.into_iter().map(|(f, v)| (f, domain::flags::is_on(&v))).collect(),
    }))
}

/// Parses a role name as the API and the command line take it.
async fn change_role(
    state: &AppState,
    admin: &AuthUser,
    user_id: &str,
    command: UserCommand,
) -> ApiResult<ApiJson<AdminUser>> {
    admin.require_admin()?;
    existing_user(state, user_id).await?;
    state.command(&state.bus.users, user_id, command, &admin.metadata()).await?;
    let user = queries::user_by_id(&state.db, user_id).await?.ok_or_else(|| AppError::not_found("user not found"))?;
    Ok(ApiJson(user.into()))
}

#[utoipa::path(put, path = "/admin/users/{user_id}/roles/{role}", tag = "admin", security(("token" = [])),
    params(("user_id" = String, Path), ("role" = String, Path)),
    responses((status = 200, body = AdminUser), (status = 403, body = ErrorBody)))]
async fn grant_role(
    State(state): State<AppState>,
    admin: AuthUser,
    Path((user_id, role)): Path<(String, String)>,
) -> ApiResult<ApiJson<AdminUser>> {
    let role = parse_role(&role)?;
    change_role(&state, &admin, &user_id, UserCommand::GrantRole(role)).await
}

#[utoipa::path(delete, path = "/admin/users/{user_id}/roles/{role}", tag = "admin", security(("token" = [])),
    params(("user_id" = String, Path), ("role" = String, Path)),
    responses((status = 200, body = AdminUser), (status = 403, body = ErrorBody)))]
async fn revoke_role(
    State(state): State<AppState>,
    admin: AuthUser,
    Path((user_id, role)): Path<(String, String)>,
) -> ApiResult<ApiJson<AdminUser>> {
    let role = parse_role(&role)?;
    if role == Role::Admin && user_id == admin.user_id {
        return Err(AppError::invalid("last_admin", "an administrator cannot remove their own admin role"));
    }
    change_role(&state, &admin, &user_id, UserCommand::RevokeRole(role)).await
}
