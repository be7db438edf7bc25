//! The signed-in person's own records and settings: their user row, profile, preferences, feature
//! flags, onboarding and organisation, and the diagnostics their client sends.

use std::collections::BTreeMap;

use domain::user::{NavState, ProfileChange, UserCommand};
use projections::queries::{self, UserRow};
use serde::{Deserialize, Serialize};

use crate::context::Context;
use crate::error::{Error, Result};
use crate::viewer::Viewer;

pub async fn current_user(ctx: &Context, viewer: &Viewer) -> Result<UserRow> {
    queries::user_by_id(&ctx.db, &viewer.user_id).await?.ok_or_else(|| Error::not_found("user not found"))
}

#[derive(Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FeatureConfig {
    /// Flag name to whether it is on (its stored value is exactly `on`).
    pub features: BTreeMap<String, bool>,
}

/// `user_id`'s feature flags as booleans.
pub async fn feature_config(ctx: &Context, user_id: &str) -> Result<FeatureConfig> {
    let values = queries::flag_values(&ctx.db, user_id).await?;
    Ok(FeatureConfig { features: values.into_iter().map(|(f, v)| (f, domain::flags::is_on(&v))).collect() })
}

#[derive(Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct OrganizationPermissions {
    /// Whether the user may publish channels to the whole organisation.
    pub can_publish_channels: bool,
}

#[derive(Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Organization {
    pub id: i64,
    pub name: String,
    pub domain: String,
    pub permissions: OrganizationPermissions,
}

/// The organisation as `viewer` sees it: its domain is the one of their email address.
/// Administrators may publish channels to it.
pub async fn organization_of(ctx: &Context, viewer: &Viewer) -> Result<Organization> {
    let row = current_user(ctx, viewer).await?;
    let domain = row.email.split_once('@').map(|(_, d)| d.to_string()).unwrap_or_default();
    Ok(Organization {
        id: domain::channel::ORGANIZATION_ID,
        name: ctx.settings.org_name.clone(),
        domain,
        permissions: OrganizationPermissions { can_publish_channels: viewer.is_admin },
    })
}

#[derive(Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FeatureIndex {
    /// Flag name to its stored value.
    pub results: BTreeMap<String, String>,
}

/// `user_id`'s feature flags as stored values (the index form).
pub async fn feature_index(ctx: &Context, user_id: &str) -> Result<FeatureIndex> {
    let values = queries::flag_values(&ctx.db, user_id).await?;
    Ok(FeatureIndex { results: values.into_iter().collect() })
}

#[derive(Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
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

/// The viewer's profile.
pub async fn profile(ctx: &Context, viewer: &Viewer) -> Result<UserProfile> {
    Ok(current_user(ctx, viewer).await?.into())
}

/// Changes the viewer's profile fields (absent ones stay as they are); returns the profile.
pub async fn update_profile(ctx: &Context, viewer: &Viewer, change: ProfileChange) -> Result<UserProfile> {
    ctx.command(&ctx.bus.users, &viewer.user_id, UserCommand::UpdateProfile(change), &viewer.metadata()).await?;
    profile(ctx, viewer).await
}

#[derive(Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct UserStatus {
    /// `new` until onboarding is done, then `active`.
    pub user_status: String,
}

/// Whether the viewer has finished onboarding.
pub async fn user_status(ctx: &Context, viewer: &Viewer) -> Result<UserStatus> {
    let row = current_user(ctx, viewer).await?;
    Ok(UserStatus { user_status: if row.onboarded { "active" } else { "new" }.to_string() })
}

#[derive(Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Preferences {
    /// The side navigation's saved state: `opened`, `closed`, or null when never set.
    pub nav_state: Option<String>,
    pub askneedl_pro: bool,
}

/// The viewer's preferences.
pub async fn preferences(ctx: &Context, viewer: &Viewer) -> Result<Preferences> {
    let row = current_user(ctx, viewer).await?;
    Ok(Preferences { nav_state: row.nav_state, askneedl_pro: row.askneedl_pro })
}

/// Changes the viewer's preferences (absent ones stay as they are); returns them.
pub async fn change_preferences(
    ctx: &Context,
    viewer: &Viewer,
    nav_state: Option<NavState>,
    askneedl_pro: Option<bool>,
) -> Result<Preferences> {
    let change = UserCommand::ChangePreferences { nav_state, askneedl_pro };
    ctx.command(&ctx.bus.users, &viewer.user_id, change, &viewer.metadata()).await?;
    preferences(ctx, viewer).await
}

#[derive(Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct OnboardingFlags {
    /// Ask for industry and profession: the user is new and has not given them.
    pub show_attributes_form: bool,
    /// Offer the search introduction: the user has not finished onboarding.
    pub show_search_modal: bool,
}

/// What the app offers the viewer while they are new.
pub async fn onboarding_flags(ctx: &Context, viewer: &Viewer) -> Result<OnboardingFlags> {
    let row = current_user(ctx, viewer).await?;
    Ok(OnboardingFlags {
        show_attributes_form: !row.onboarded && (row.industry.is_none() || row.profession.is_none()),
        show_search_modal: !row.onboarded,
    })
}

/// Records the viewer's industry and profession (both required) and completes onboarding.
pub async fn complete_onboarding(
    ctx: &Context,
    viewer: &Viewer,
    industry: &str,
    profession: &str,
) -> Result<UserStatus> {
    if industry.trim().is_empty() || profession.trim().is_empty() {
        return Err(Error::invalid("invalid_attributes", "industry and profession are required fields"));
    }
    let attributes = ProfileChange {
        industry: Some(industry.trim().to_string()),
        profession: Some(profession.trim().to_string()),
        ..Default::default()
    };
    ctx.bus
        .execute(&ctx.bus.users, &viewer.user_id, UserCommand::UpdateProfile(attributes), &viewer.metadata())
        .await?;
    ctx.command(&ctx.bus.users, &viewer.user_id, UserCommand::CompleteOnboarding, &viewer.metadata()).await?;
    Ok(UserStatus { user_status: "active".to_string() })
}

/// Largest accepted debug log entry, in bytes of JSON.
pub const MAX_DEBUG_LOG_BYTES: usize = 16 * 1024;
/// How many entries are kept per user; older ones are pruned.
pub const DEBUG_LOGS_KEPT: i64 = 200;

/// Stores a client diagnostic from the viewer, bounded in size; only the newest
/// [`DEBUG_LOGS_KEPT`] entries per user are kept.
pub async fn record_debug_log(ctx: &Context, viewer: &Viewer, log_data: &serde_json::Value) -> Result<()> {
    let data = log_data.to_string();
    if data.len() > MAX_DEBUG_LOG_BYTES {
        return Err(Error::too_large(
            "log_too_large",
            format!("a debug log entry may be at most {MAX_DEBUG_LOG_BYTES} bytes"),
        ));
    }
    ctx.db
        .execute(
            "INSERT INTO debug_logs (user_id, request_id, log_data) VALUES ($1, $2, $3)",
            commands::args![viewer.user_id.as_str(), viewer.origin.request_id.as_str(), data],
        )
        .await?;
    ctx.db
        .execute(
            "DELETE FROM debug_logs WHERE user_id = $1 AND id NOT IN \
             (SELECT id FROM debug_logs WHERE user_id = $1 ORDER BY id DESC LIMIT $2)",
            commands::args![viewer.user_id.as_str(), DEBUG_LOGS_KEPT],
        )
        .await?;
    Ok(())
}
