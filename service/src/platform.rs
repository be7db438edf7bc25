//! The signed-in person's own records: their user row, flags and organisation.

use std::collections::BTreeMap;

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
