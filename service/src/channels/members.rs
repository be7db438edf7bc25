//! A channel's people: its members and their roles, the organisation's people to choose members
//! from, and the viewer's own place in a channel (role, starred status, last visit).

use std::collections::BTreeSet;

use commands::args;
use commands::store::Arg;
use domain::channel::{reader_id, ChannelCommand, ReaderCommand, Role};
use serde::Serialize;

use crate::context::Context;
use crate::error::{Error, Kind, Result};
use crate::policy::{email_seen_condition, visible_channel};
use crate::sql::{now, placeholders};
use crate::viewer::Viewer;

/// The pseudo channel id the group settings page uses while a channel is being created.
pub const CREATE_GROUP: &str = "create group";
/// How many people one call may add.
const MAX_ADDED_AT_ONCE: usize = 100;

fn user_not_found() -> Error {
    Error::new(Kind::NotFound, "user_not_found", "user not found")
}

/// A member of a channel.
#[derive(Debug, Serialize, sqlx::FromRow)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Member {
    pub user_id: String,
    pub username: String,
    /// `member` or `owner`.
    pub role: String,
    pub added_at: String,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MemberList {
    /// Owners first, then by name.
    pub results: Vec<Member>,
}

/// A channel's members, owners first, then by name. The caller has checked the channel is seen.
pub(crate) async fn members_of(ctx: &Context, channel_id: &str) -> Result<Vec<Member>> {
    let mut members: Vec<Member> = ctx
        .db
        .fetch_all(
            "SELECT m.user_id, COALESCE(u.username, '') AS username, m.role, m.added_at FROM channel_members_view m \
             LEFT JOIN users_view u ON u.user_id = m.user_id WHERE m.channel_id = $1",
            args![channel_id],
        )
        .await?;
    members.sort_by_cached_key(|m| (m.role != "owner", m.username.to_lowercase(), m.user_id.clone()));
    Ok(members)
}

/// `user_not_found` unless every id of `user_ids` is a user's; returns them without duplicates.
pub(crate) async fn existing_users(ctx: &Context, user_ids: Vec<String>) -> Result<Vec<String>> {
    let ids: Vec<String> =
        user_ids.into_iter().map(|id| id.trim().to_string()).collect::<BTreeSet<_>>().into_iter().collect();
    if ids.is_empty() {
        return Ok(ids);
    }
    #[derive(sqlx::FromRow)]
    struct Row {
        n: i64,
    }
    let sql = format!(
        "SELECT CAST(COUNT(*) AS BIGINT) AS n FROM users_view WHERE erased_at IS NULL AND user_id IN ({})",
        placeholders(1, ids.len())
    );
    let found: Option<Row> = ctx.db.fetch_optional(&sql, ids.iter().map(Arg::from).collect()).await?;
    if found.map_or(0, |r| r.n) as usize != ids.len() {
        return Err(user_not_found());
    }
    Ok(ids)
}

/// The role a name gives; absent, `member`.
fn role_of(role: Option<&str>) -> Result<Role> {
    match role {
        None => Ok(Role::Member),
        Some(role) => Role::parse(role)
            .ok_or_else(|| Error::invalid("invalid_role", format!("{role} is not a role: use member or owner"))),
    }
}

/// The members of a channel the viewer sees.
pub async fn list(ctx: &Context, viewer: &Viewer, channel_id: &str) -> Result<MemberList> {
    visible_channel(ctx, &viewer.user_id, channel_id).await?;
    Ok(MemberList { results: members_of(ctx, channel_id).await? })
}

/// Adds people to a channel as `role` (default `member`; owners only, at most 100 at once);
/// those already members keep their role. Answers the members after it.
pub async fn add(
    ctx: &Context,
    viewer: &Viewer,
    channel_id: &str,
    user_ids: Vec<String>,
    role: Option<&str>,
) -> Result<MemberList> {
    let access = visible_channel(ctx, &viewer.user_id, channel_id).await?;
    access.require_owner()?;
    let role = role_of(role)?;
    if user_ids.len() > MAX_ADDED_AT_ONCE {
        return Err(Error::invalid("too_many_at_once", format!("add at most {MAX_ADDED_AT_ONCE} people at once")));
    }
    let user_ids = existing_users(ctx, user_ids).await?;
    let command = ChannelCommand::AddMembers { actor: viewer.user_id.clone(), user_ids, role };
    ctx.command(&ctx.bus.channels, channel_id, command, &viewer.metadata()).await?;
    Ok(MemberList { results: members_of(ctx, channel_id).await? })
}

/// Changes a member's role (owners only; the channel refuses to lose its last owner). Answers
/// the members after it.
pub async fn change_role(
    ctx: &Context,
    viewer: &Viewer,
    channel_id: &str,
    user_id: &str,
    role: &str,
) -> Result<MemberList> {
    let access = visible_channel(ctx, &viewer.user_id, channel_id).await?;
    access.require_owner()?;
    let role = role_of(Some(role))?;
    let command = ChannelCommand::ChangeRole { actor: viewer.user_id.clone(), user_id: user_id.to_string(), role };
    ctx.command(&ctx.bus.channels, channel_id, command, &viewer.metadata()).await?;
    Ok(MemberList { results: members_of(ctx, channel_id).await? })
}

/// Removes `user_id` from the channel: an owner may remove anyone, any member themselves (the
/// channel refuses to lose its last owner).
pub async fn remove(ctx: &Context, viewer: &Viewer, channel_id: &str, user_id: &str) -> Result<()> {
    let access = visible_channel(ctx, &viewer.user_id, channel_id).await?;
    if user_id != viewer.user_id {
        access.require_owner()?;
    }
    let command = ChannelCommand::RemoveMember { actor: viewer.user_id.clone(), user_id: user_id.to_string() };
    ctx.command(&ctx.bus.channels, channel_id, command, &viewer.metadata()).await?;
    Ok(())
}

/// A person of the organisation, and whether they are in the channel.
#[derive(Debug, Serialize, sqlx::FromRow)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct OrganizationUser {
    pub user_id: String,
    pub username: String,
    /// Shown to administrators, to the person themselves and to people who share a channel with
    /// them; `null` to everyone else, so no member can list the organisation's addresses.
    pub email: Option<String>,
    /// Their role in the channel; `null` when they are not in it.
    pub role: Option<String>,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct OrganizationUserList {
    pub results: Vec<OrganizationUser>,
}

/// The people of the organisation whose name (or email, where the viewer may see it) contains
/// `q`, with their role in the channel, for choosing members; at most `limit` (1 to 200, default
/// 50). [`CREATE_GROUP`] stands for a channel being created.
pub async fn organization_users(
    ctx: &Context,
    viewer: &Viewer,
    channel_id: &str,
    q: Option<&str>,
    limit: Option<i64>,
) -> Result<OrganizationUserList> {
    if channel_id != CREATE_GROUP {
        visible_channel(ctx, &viewer.user_id, channel_id).await?;
    }
    let limit = limit.unwrap_or(50);
    if !(1..=200).contains(&limit) {
        return Err(Error::malformed("bad_page", "limit must be 1 to 200"));
    }
    let needle = format!("%{}%", q.unwrap_or_default().trim().to_lowercase());
    // A hidden email is not searched either, or `q` would find it out a letter at a time.
    let email_seen = email_seen_condition(viewer);
    let mut users: Vec<OrganizationUser> = ctx
        .db
        .fetch_all(
            &format!(
                "SELECT u.user_id, u.username, CASE WHEN {email_seen} THEN u.email END AS email, m.role \
                 FROM users_view u \
                 LEFT JOIN channel_members_view m ON m.user_id = u.user_id AND m.channel_id = $2 \
                 WHERE u.erased_at IS NULL AND (LOWER(u.username) LIKE $3 OR ({email_seen} AND LOWER(u.email) LIKE $3)) \
                 ORDER BY u.created_at, u.user_id LIMIT $4"
            ),
            args![viewer.user_id.as_str(), channel_id, needle, limit],
        )
        .await?;
    users.sort_by_cached_key(|u| (u.username.to_lowercase(), u.user_id.clone()));
    Ok(OrganizationUserList { results: users })
}

/// The viewer in a channel: their role, and their own starred status and last visit.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Membership {
    pub channel_id: String,
    pub user_id: String,
    pub role: String,
    /// Whether they are a member in their own right, not only through publishing.
    pub member: bool,
    pub starred: bool,
    pub last_seen: Option<String>,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MembershipResult {
    pub results: Membership,
}

/// The viewer's role, starred status and last visit in a channel they see.
pub async fn membership(ctx: &Context, viewer: &Viewer, channel_id: &str) -> Result<MembershipResult> {
    let access = visible_channel(ctx, &viewer.user_id, channel_id).await?;
    Ok(MembershipResult {
        results: Membership {
            channel_id: channel_id.to_string(),
            user_id: viewer.user_id.clone(),
            role: access.role.as_str().to_string(),
            member: access.member,
            starred: access.channel.starred.unwrap_or(false),
            last_seen: access.channel.seen_at,
        },
    })
}

/// Stars or unstars a channel for the viewer (`starred`), and/or records their visit now
/// (`seen`). Answers their membership after it.
pub async fn update_membership(
    ctx: &Context,
    viewer: &Viewer,
    channel_id: &str,
    starred: Option<bool>,
    seen: bool,
) -> Result<MembershipResult> {
    visible_channel(ctx, &viewer.user_id, channel_id).await?;
    let id = reader_id(channel_id, &viewer.user_id);
    let metadata = viewer.metadata();
    let mut cursor = None;
    if let Some(starred) = starred {
        let command =
            ReaderCommand::Star { channel_id: channel_id.to_string(), user_id: viewer.user_id.clone(), starred };
        cursor = ctx.bus.execute(&ctx.bus.channel_readers, &id, command, &metadata).await?.or(cursor);
    }
    if seen {
        let command =
            ReaderCommand::MarkSeen { channel_id: channel_id.to_string(), user_id: viewer.user_id.clone(), at: now() };
        cursor = ctx.bus.execute(&ctx.bus.channel_readers, &id, command, &metadata).await?.or(cursor);
    }
    ctx.settle(cursor).await;
    membership(ctx, viewer, channel_id).await
}
