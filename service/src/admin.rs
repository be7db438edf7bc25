//! Administration below HTTP: users, their feature flags and roles. Administrators only.

use domain::user::{Role, UserCommand};
use projections::queries::{self, UserRow};
use serde::{Deserialize, Serialize};

use crate::context::Context;
use crate::error::{Error, Result};
use crate::platform::{feature_config, FeatureConfig};
use crate::viewer::Viewer;

/// The role a name gives: `admin` or `auditor`.
pub fn parse_role(role: &str) -> Result<Role> {
    match role {
        "admin" => Ok(Role::Admin),
        "auditor" => Ok(Role::Auditor),
        "analyst" => Ok(Role::Analyst),
        _ => Err(Error::invalid("unknown_role", "a role is admin, auditor or analyst")),
    }
}

#[derive(Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AdminUser {
    pub id: String,
    pub email_id: String,
    pub username: String,
    pub is_admin: bool,
    pub is_auditor: bool,
    pub is_analyst: bool,
    pub created_at: String,
    /// The plan's id (`free` when none was assigned).
    pub plan: String,
}

impl From<UserRow> for AdminUser {
    fn from(u: UserRow) -> Self {
        AdminUser {
            id: u.user_id,
            email_id: u.email,
            username: u.username,
            is_admin: u.is_admin,
            is_auditor: u.is_auditor,
            is_analyst: u.is_analyst,
            created_at: u.created_at,
            plan: domain::plan::plan_or_default(u.plan.as_deref()).id.to_string(),
        }
    }
}

/// Every user of the instance (erased accounts are gone from the list).
pub async fn list_users(ctx: &Context, admin: &Viewer) -> Result<Vec<AdminUser>> {
    admin.require_admin()?;
    let users = queries::all_users(&ctx.db).await?;
    Ok(users.into_iter().filter(|u| u.erased_at.is_none()).map(AdminUser::from).collect())
}

async fn existing_user(ctx: &Context, user_id: &str) -> Result<UserRow> {
    queries::user_by_id(&ctx.db, user_id).await?.ok_or_else(|| Error::not_found("user not found"))
}

/// Sets one feature flag of one user; returns that user's flags.
pub async fn set_flag(
    ctx: &Context,
    admin: &Viewer,
    user_id: &str,
    flag: String,
    value: String,
) -> Result<FeatureConfig> {
    admin.require_admin()?;
    existing_user(ctx, user_id).await?;
    ctx.command(&ctx.bus.users, user_id, UserCommand::SetFeatureFlag { flag, value }, &admin.metadata()).await?;
    feature_config(ctx, user_id).await
}

async fn change_role(ctx: &Context, admin: &Viewer, user_id: &str, command: UserCommand) -> Result<AdminUser> {
    admin.require_admin()?;
    existing_user(ctx, user_id).await?;
    ctx.command(&ctx.bus.users, user_id, command, &admin.metadata()).await?;
    Ok(existing_user(ctx, user_id).await?.into())
}

/// Grants the role named `role` to a user; returns the user.
pub async fn grant_role(ctx: &Context, admin: &Viewer, user_id: &str, role: &str) -> Result<AdminUser> {
    let role = parse_role(role)?;
    change_role(ctx, admin, user_id, UserCommand::GrantRole(role)).await
}

/// Revokes the role named `role` from a user; returns the user. An administrator cannot remove
/// their own admin role, so an instance is never left without one by its last administrator.
pub async fn revoke_role(ctx: &Context, admin: &Viewer, user_id: &str, role: &str) -> Result<AdminUser> {
    let role = parse_role(role)?;
    if role == Role::Admin && user_id == admin.user_id {
        return Err(Error::invalid("last_admin", "an administrator cannot remove their own admin role"));
    }
    change_role(ctx, admin, user_id, UserCommand::RevokeRole(role)).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_role_is_admin_or_auditor() {
        assert_eq!(parse_role("admin"), Ok(Role::Admin));
        assert_eq!(parse_role("auditor"), Ok(Role::Auditor));
        assert_eq!(parse_role("owner").unwrap_err().code, "unknown_role");
    }
}
