//! Platform calls from the spec: feature config, the user, status, preferences, organisation,
//! onboarding and client debug logs. The records and rules are [`service::platform`].

use axum::extract::State;
use axum::http::StatusCode;
use domain::user::{NavState, ProfileChange};
use serde::Deserialize;
use service::erasure;
use service::platform::{
    self, FeatureConfig, FeatureIndex, OnboardingFlags, Organization, Preferences, UserProfile, UserStatus,
};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::app::AppState;
use crate::auth::AuthUser;
use crate::error::{ApiJson, ApiResult, ErrorBody};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(feature_config))
        .routes(routes!(feature_index))
        .routes(routes!(get_user, update_user, erase_account))
        .routes(routes!(user_status))
        .routes(routes!(get_preferences, update_preferences))
        .routes(routes!(organization_self))
        .routes(routes!(onboarding_flags))
        .routes(routes!(onboarding_attributes))
        .routes(routes!(debug_logs))
}

/// The signed-in user's feature flags as booleans.
#[utoipa::path(get, path = "/feature/config", tag = "platform", security(("token" = [])),
    responses((status = 200, body = FeatureConfig), (status = 401, body = ErrorBody)))]
async fn feature_config(State(state): State<AppState>, user: AuthUser) -> ApiResult<ApiJson<FeatureConfig>> {
    Ok(ApiJson(platform::feature_config(&state, &user.user_id).await?))
}

/// The signed-in user's feature flags as stored values (the index form).
#[utoipa::path(get, path = "/feature/index", tag = "platform", security(("token" = [])),
    responses((status = 200, body = FeatureIndex), (status = 401, body = ErrorBody)))]
async fn feature_index(State(state): State<AppState>, user: AuthUser) -> ApiResult<ApiJson<FeatureIndex>> {
    Ok(ApiJson(platform::feature_index(&state, &user.user_id).await?))
}

/// The signed-in user's profile.
#[utoipa::path(get, path = "/user", tag = "platform", security(("token" = [])),
    responses((status = 200, body = UserProfile), (status = 401, body = ErrorBody)))]
async fn get_user(State(state): State<AppState>, user: AuthUser) -> ApiResult<ApiJson<UserProfile>> {
    Ok(ApiJson(platform::profile(&state, &user).await?))
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ProfilePatch {
    pub username: Option<String>,
    pub industry: Option<String>,
    pub profession: Option<String>,
    pub whatsapp_number: Option<String>,
}

/// Changes profile fields; absent fields stay as they are.
#[utoipa::path(patch, path = "/user", tag = "platform", security(("token" = [])), request_body = ProfilePatch,
    responses((status = 200, body = UserProfile), (status = 422, body = ErrorBody)))]
async fn update_user(
    State(state): State<AppState>,
    user: AuthUser,
    ApiJson(patch): ApiJson<ProfilePatch>,
) -> ApiResult<ApiJson<UserProfile>> {
    let ProfilePatch { username, industry, profession, whatsapp_number } = patch;
    let change = ProfileChange { username, industry, profession, whatsapp_number };
    Ok(ApiJson(platform::update_profile(&state, &user, change).await?))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct EraseAccount {
    /// The account's current password, asked again because nothing undoes an erasure.
    pub password: String,
}

/// Erases the signed-in user's account: every session ends, and their name, email, password
/// and comment texts become unreadable for good (the key they were sealed with is destroyed).
/// `wrong_password` when the password is not right; `last_admin` for the only administrator.
#[utoipa::path(delete, path = "/user", tag = "platform", security(("token" = [])), request_body = EraseAccount,
    responses((status = 204), (status = 401, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn erase_account(
    State(state): State<AppState>,
    user: AuthUser,
    ApiJson(body): ApiJson<EraseAccount>,
) -> ApiResult<StatusCode> {
    erasure::erase_own_account(&state, &user, body.password).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[utoipa::path(get, path = "/user/status", tag = "platform", security(("token" = [])),
    responses((status = 200, body = UserStatus)))]
async fn user_status(State(state): State<AppState>, user: AuthUser) -> ApiResult<ApiJson<UserStatus>> {
    Ok(ApiJson(platform::user_status(&state, &user).await?))
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PreferencesPatch {
    #[schema(value_type = Option<String>)]
    pub nav_state: Option<NavState>,
    pub askneedl_pro: Option<bool>,
}

#[utoipa::path(get, path = "/user/preferences", tag = "platform", security(("token" = [])),
    responses((status = 200, body = Preferences)))]
async fn get_preferences(State(state): State<AppState>, user: AuthUser) -> ApiResult<ApiJson<Preferences>> {
    Ok(ApiJson(platform::preferences(&state, &user).await?))
}

/// Changes preferences; absent fields stay as they are.
#[utoipa::path(patch, path = "/user/preferences", tag = "platform", security(("token" = [])),
    request_body = PreferencesPatch, responses((status = 200, body = Preferences), (status = 422, body = ErrorBody)))]
async fn update_preferences(
    State(state): State<AppState>,
    user: AuthUser,
    ApiJson(patch): ApiJson<PreferencesPatch>,
) -> ApiResult<ApiJson<Preferences>> {
    Ok(ApiJson(platform::change_preferences(&state, &user, patch.nav_state, patch.askneedl_pro).await?))
}

/// The organisation of this instance and what the user may do in it. Administrators may
/// publish channels to the organisation.
#[utoipa::path(get, path = "/organizations/self", tag = "platform", security(("token" = [])),
    responses((status = 200, body = Organization)))]
async fn organization_self(State(state): State<AppState>, user: AuthUser) -> ApiResult<ApiJson<Organization>> {
    Ok(ApiJson(platform::organization_of(&state, &user).await?))
}

#[utoipa::path(get, path = "/onboarding/flags", tag = "platform", security(("token" = [])),
    responses((status = 200, body = OnboardingFlags)))]
async fn onboarding_flags(State(state): State<AppState>, user: AuthUser) -> ApiResult<ApiJson<OnboardingFlags>> {
    Ok(ApiJson(platform::onboarding_flags(&state, &user).await?))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct OnboardingAttributes {
    pub industry: String,
    pub profession: String,
}

/// Records the onboarding attributes and completes onboarding.
#[utoipa::path(post, path = "/onboarding/attributes", tag = "platform", security(("token" = [])),
    request_body = OnboardingAttributes, responses((status = 200, body = UserStatus), (status = 422, body = ErrorBody)))]
async fn onboarding_attributes(
    State(state): State<AppState>,
    user: AuthUser,
    ApiJson(body): ApiJson<OnboardingAttributes>,
) -> ApiResult<ApiJson<UserStatus>> {
    Ok(ApiJson(platform::complete_onboarding(&state, &user, &body.industry, &body.profession).await?))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DebugLog {
    /// Anything the client wants to report, as JSON.
    #[schema(value_type = Object)]
    pub log_data: serde_json::Value,
}

/// Stores a client diagnostic. Bounded in size; only the newest entries per user are kept.
#[utoipa::path(post, path = "/debug-logs", tag = "platform", security(("token" = [])), request_body = DebugLog,
    responses((status = 204), (status = 413, body = ErrorBody)))]
async fn debug_logs(
    State(state): State<AppState>,
    user: AuthUser,
    ApiJson(body): ApiJson<DebugLog>,
) -> ApiResult<StatusCode> {
    platform::record_debug_log(&state, &user, &body.log_data).await?;
    Ok(StatusCode::NO_CONTENT)
}
