//! Platform calls from the spec: feature config, the user, status, preferences, organisation,
//! onboarding and client debug logs.

use std::collections::BTreeMap;

use axum::extract::State;
use axum::http::StatusCode;
use domain::user::{NavState, ProfileChange, UserCommand};
use projections::queries::{self, UserRow};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::app::AppState;
use crate::auth::AuthUser;
use crate::error::{ApiJson, ApiResult, AppError, ErrorBody};
use service::platform::{
    current_user, feature_config as feature_config_of, organization_of, FeatureConfig, Organization,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(feature_config))
        .routes(routes!(feature_index))
        .routes(routes!(get_user, update_user))
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
    Ok(ApiJson(feature_config_of(&state, &user.user_id).await?))
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct FeatureIndex {
    /// Flag name to its stored value.
    pub results: BTreeMap<String, String>,
}

/// The signed-in user's feature flags as stored values (the index form).
#[utoipa::path(get, path = "/feature/index", tag = "platform", security(("token" = [])),
    responses((status = 200, body = FeatureIndex), (status = 401, body = ErrorBody)))]
async fn feature_index(State(state): State<AppState>, user: AuthUser) -> ApiResult<ApiJson<FeatureIndex>> {
    let values = queries::flag_values(&state.db, &user.user_id).await?;
    Ok(ApiJson(FeatureIndex { results: values.into_iter().collect() }))
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct UserProfile {
    pub id: String,
    pub email_id: String,
    pub username: String,
    pub industry: Option<String>,
    pub profession: Option<String>,
    pub whatsapp_number: Option<String>,
}

impl From<UserRow> for UserProfile {
    fn from(row: UserRow) -> Self {
        UserProfile {
            id: row.user_id,
            email_id: row.email,
            username: row.username,
            industry: row.industry,
            profession: row.profession,
            whatsapp_number: row.whatsapp_number,
        }
    }
}

/// The signed-in user's profile.
#[utoipa::path(get, path = "/user", tag = "platform", security(("token" = [])),
    responses((status = 200, body = UserProfile), (status = 401, body = ErrorBody)))]
async fn get_user(State(state): State<AppState>, user: AuthUser) -> ApiResult<ApiJson<UserProfile>> {
    Ok(ApiJson(current_user(&state, &user).await?.into()))
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
    state
        .command(
            &state.bus.users,
            &user.user_id,
            UserCommand::UpdateProfile(ProfileChange {
                username: patch.username,
                industry: patch.industry,
                profession: patch.profession,
                whatsapp_number: patch.whatsapp_number,
            }),
            &user.metadata(),
        )
        .await?;
    Ok(ApiJson(current_user(&state, &user).await?.into()))
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct UserStatus {
    /// `new` until onboarding is done, then `active`.
    pub user_status: String,
}

#[utoipa::path(get, path = "/user/status", tag = "platform", security(("token" = [])),
    responses((status = 200, body = UserStatus)))]
async fn user_status(State(state): State<AppState>, user: AuthUser) -> ApiResult<ApiJson<UserStatus>> {
    let row = current_user(&state, &user).await?;
    Ok(ApiJson(UserStatus { user_status: if row.onboarded { "active" } else { "new" }.to_string() }))
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct Preferences {
    /// The side navigation's saved state: `opened`, `closed`, or null when never set.
    pub nav_state: Option<String>,
    pub askneedl_pro: bool,
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PreferencesPatch {
    #[schema(value_type = Option<String>)]
    pub nav_state: Option<NavState>,
    pub askneedl_pro: Option<bool>,
}

fn preferences_of(row: &UserRow) -> Preferences {
    Preferences { nav_state: row.nav_state.clone(), askneedl_pro: row.askneedl_pro }
}

#[utoipa::path(get, path = "/user/preferences", tag = "platform", security(("token" = [])),
    responses((status = 200, body = Preferences)))]
async fn get_preferences(State(state): State<AppState>, user: AuthUser) -> ApiResult<ApiJson<Preferences>> {
    Ok(ApiJson(preferences_of(&current_user(&state, &user).await?)))
}

/// Changes preferences; absent fields stay as they are.
#[utoipa::path(patch, path = "/user/preferences", tag = "platform", security(("token" = [])),
    request_body = PreferencesPatch, responses((status = 200, body = Preferences), (status = 422, body = ErrorBody)))]
async fn update_preferences(
    State(state): State<AppState>,
    user: AuthUser,
    ApiJson(patch): ApiJson<PreferencesPatch>,
) -> ApiResult<ApiJson<Preferences>> {
    state
        .command(
            &state.bus.users,
            &user.user_id,
            UserCommand::ChangePreferences { nav_state: patch.nav_state, askneedl_pro: patch.askneedl_pro },
            &user.metadata(),
        )
        .await?;
    Ok(ApiJson(preferences_of(&current_user(&state, &user).await?)))
}

/// The organisation of this instance and what the user may do in it. Administrators may
/// publish channels to the organisation.
#[utoipa::path(get, path = "/organizations/self", tag = "platform", security(("token" = [])),
    responses((status = 200, body = Organization)))]
async fn organization_self(State(state): State<AppState>, user: AuthUser) -> ApiResult<ApiJson<Organization>> {
    Ok(ApiJson(organization_of(&state, &user).await?))
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct OnboardingFlags {
    /// Ask for industry and profession: the user is new and has not given them.
    pub show_attributes_form: bool,
    /// Offer the search introduction: the user has not finished onboarding.
    pub show_search_modal: bool,
}

#[utoipa::path(get, path = "/onboarding/flags", tag = "platform", security(("token" = [])),
    responses((status = 200, body = OnboardingFlags)))]
async fn onboarding_flags(State(state): State<AppState>, user: AuthUser) -> ApiResult<ApiJson<OnboardingFlags>> {
    let row = current_user(&state, &user).await?;
    Ok(ApiJson(OnboardingFlags {
        show_attributes_form: !row.onboarded && (row.industry.is_none() || row.profession.is_none()),
        show_search_modal: !row.onboarded,
    }))
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
    if body.industry.trim().is_empty() || body.profession.trim().is_empty() {
        return Err(AppError::invalid("invalid_attributes", "industry and profession are required fields"));
    }
    state
        .bus
        .execute(
            &state.bus.users,
            &user.user_id,
            UserCommand::UpdateProfile(ProfileChange {
                industry: Some(body.industry.trim().to_string()),
                profession: Some(body.profession.trim().to_string()),
                ..Default::default()
            }),
            &user.metadata(),
        )
        .await?;
    state.command(&state.bus.users, &user.user_id, UserCommand::CompleteOnboarding, &user.metadata()).await?;
    Ok(ApiJson(UserStatus { user_status: "active".to_string() }))
}

/// Largest accepted debug log entry, in bytes of JSON.
pub const MAX_DEBUG_LOG_BYTES: usize = 16 * 1024;
/// How many entries are kept per user; older ones are pruned.
pub const DEBUG_LOGS_KEPT: i64 = 200;

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
    let data = body.log_data.to_string();
    if data.len() > MAX_DEBUG_LOG_BYTES {
        return Err(AppError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "log_too_large",
            format!("a debug log entry may be at most {MAX_DEBUG_LOG_BYTES} bytes"),
        ));
    }
    state
        .db
        .execute(
            "INSERT INTO debug_logs (user_id, request_id, log_data) VALUES ($1, $2, $3)",
            commands::args![user.user_id.as_str(), user.origin.request_id.as_str(), data],
        )
        .await?;
    state
        .db
        .execute(
            "DELETE FROM debug_logs WHERE user_id = $1 AND id NOT IN \
             (SELECT id FROM debug_logs WHERE user_id = $1 ORDER BY id DESC LIMIT $2)",
            commands::args![user.user_id.as_str(), DEBUG_LOGS_KEPT],
        )
        .await?;
    Ok(StatusCode::NO_CONTENT)
}
