//! Channels (the spec's groups), seen by one person: what the read models hold about them, and
//! what people do with them.
//!
//! Who sees what is the read policy's ([`crate::policy::visible_channel`]): a channel's members
//! see everything about it; when it is published to the organisation, everyone in it sees it as
//! a member would; anyone else is told it does not exist. Only owners manage a channel.
//!
//! This module holds the channels themselves (list, create, info, rename, publish); its
//! submodules hold the rest: [`members`] (members, roles, the organisation's people, the
//! viewer's own starred status and last visit), [`items`] (documents shared into a channel and
//! their shared tags) and [`boards`] (feeds shared into a channel). Comments are in
//! [`crate::comments`].

pub mod boards;
pub mod items;
pub mod members;

use commands::args;
use domain::channel::{
    directory_id, publish_title, valid_name, Channel, ChannelCommand, ChannelDirectory, ChannelError, DirectoryCommand,
    Role, MAX_MEMBERS_PER_CHANNEL, ORGANIZATION_ID,
};
use domain::channel_document::Actor;
use serde::Serialize;

use crate::context::Context;
use crate::error::{from_domain, Error, Result};
use crate::platform::{organization_of, Organization};
use crate::policy::{seen_channel_condition, visible_channel};
use crate::viewer::Viewer;
use members::{existing_users, members_of, Member};

/// A channel as the views hold it, with the viewer's role and reader state.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ChannelRow {
    pub channel_id: String,
    pub name: String,
    pub published: bool,
    pub created_by: String,
    pub created_at: String,
    pub updated_at: String,
    /// The viewer's role; `None` when they see a published channel without being in it.
    pub role: Option<String>,
    pub starred: Option<bool>,
    pub seen_at: Option<String>,
    pub member_count: i64,
    pub board_count: i64,
}

/// The channels the user `$1` sees in organisation `$2`.
pub const SEEN_CHANNELS: &str = concat!(
    "SELECT c.channel_id, c.name, c.published, c.created_by, c.created_at, c.updated_at, \
     me.role, r.starred, r.seen_at, \
     (SELECT COUNT(*) FROM channel_members_view x WHERE x.channel_id = c.channel_id) AS member_count, \
     (SELECT COUNT(*) FROM channel_boards_view b WHERE b.channel_id = c.channel_id) AS board_count \
     FROM channels_view c \
     LEFT JOIN channel_members_view me ON me.channel_id = c.channel_id AND me.user_id = $1 \
     LEFT JOIN channel_readers_view r ON r.channel_id = c.channel_id AND r.user_id = $1 \
     WHERE c.organization_id = $2 AND ",
    seen_channel_condition!()
);

/// A channel the user sees, and what they are in it.
#[derive(Debug, Clone)]
pub struct ChannelAccess {
    pub channel: ChannelRow,
    /// The user's role; someone who sees a published channel without being in it acts as a member.
    pub role: Role,
    /// Whether the user is a member in their own right (not only through publishing).
    pub member: bool,
}

impl ChannelAccess {
    pub fn actor(&self, user_id: &str) -> Actor {
        Actor { user_id: user_id.to_string(), role: self.role }
    }

    /// `forbidden` unless the user owns the channel.
    pub fn require_owner(&self) -> Result<()> {
        if self.role == Role::Owner {
            Ok(())
        } else {
            Err(from_domain(&ChannelError::NotOwner))
        }
    }
}

/// Answers what the channel aggregate would, for a refusal seen before sending a command.
fn refused(error: ChannelError) -> Error {
    from_domain(&error)
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct OrganizationRef {
    pub id: i64,
    pub domain: String,
    pub name: String,
}

/// A channel, with the spec's fields.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ChannelInfo {
    pub id: String,
    pub name: String,
    /// The caller's role: `member` or `owner` (someone who sees a published channel without being
    /// in it is a `member`).
    pub role: String,
    /// Whether the caller is a member in their own right, not only through publishing.
    pub member: bool,
    /// Whether the channel is published to the whole organisation.
    pub publish: bool,
    pub organization: OrganizationRef,
    /// What the publish option is called: `ALL` for organisation 2, else the organisation's
    /// domain, or its name, or `your`.
    pub publish_title: String,
    /// Whether settings show the publish option (the spec's rule: the channel is published, or
    /// the caller owns it and may publish channels).
    pub show_publish_option: bool,
    /// Whether exactly one feed is shared into the channel.
    pub singlefeed: bool,
    /// Whether the provider published the channel (never, on a self-hosted instance).
    pub needl_feed: bool,
    pub starred: bool,
    /// When the caller last looked at the channel.
    pub last_seen: Option<String>,
    pub member_count: i64,
    pub board_count: i64,
    pub created_by: String,
    pub created_at: String,
    pub updated_at: String,
    /// The members (the channel's info only; lists leave them out).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub members: Option<Vec<Member>>,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ChannelResult {
    pub channel: ChannelInfo,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ChannelList {
    /// Starred first, then by name.
    pub channels: Vec<ChannelInfo>,
}

fn info_of(row: ChannelRow, organization: &Organization, members: Option<Vec<Member>>) -> ChannelInfo {
    let role = row.role.as_deref().and_then(Role::parse);
    let can_publish = organization.permissions.can_publish_channels;
    ChannelInfo {
        show_publish_option: row.published || (role == Some(Role::Owner) && can_publish),
        role: role.unwrap_or(Role::Member).as_str().to_string(),
        member: role.is_some(),
        publish: row.published,
        organization: OrganizationRef {
            id: organization.id,
            domain: organization.domain.clone(),
            name: organization.name.clone(),
        },
        publish_title: publish_title(organization.id, &organization.domain, &organization.name),
        singlefeed: row.board_count == 1,
        needl_feed: false,
        starred: row.starred.unwrap_or(false),
        last_seen: row.seen_at,
        member_count: row.member_count,
        board_count: row.board_count,
        id: row.channel_id,
        name: row.name,
        created_by: row.created_by,
        created_at: row.created_at,
        updated_at: row.updated_at,
        members,
    }
}

/// One channel the viewer sees, with its members; `channel_not_found` for any other.
pub async fn channel(ctx: &Context, viewer: &Viewer, channel_id: &str) -> Result<ChannelResult> {
    let access = visible_channel(ctx, &viewer.user_id, channel_id).await?;
    let organization = organization_of(ctx, viewer).await?;
    let members = members_of(ctx, channel_id).await?;
    Ok(ChannelResult { channel: info_of(access.channel, &organization, Some(members)) })
}

/// The channels the viewer sees: those they are a member of, and those published to the
/// organisation; starred first, then by name.
pub async fn list(ctx: &Context, viewer: &Viewer) -> Result<ChannelList> {
    let organization = organization_of(ctx, viewer).await?;
    let rows: Vec<ChannelRow> =
        ctx.db.fetch_all(SEEN_CHANNELS, args![viewer.user_id.as_str(), ORGANIZATION_ID]).await?;
    let mut channels: Vec<ChannelInfo> = rows.into_iter().map(|row| info_of(row, &organization, None)).collect();
    // Sorted here, not in SQL: the two backends order text differently.
    channels.sort_by_cached_key(|c| (!c.starred, c.name.to_lowercase(), c.id.clone()));
    Ok(ChannelList { channels })
}

/// Creates a channel named `name`, owned by the viewer, with `members` besides them; publishes
/// it to the organisation when `publish` (administrators only). Answers the new channel.
pub async fn create(
    ctx: &Context,
    viewer: &Viewer,
    name: &str,
    publish: bool,
    members: Vec<String>,
) -> Result<ChannelResult> {
    // Everything the channel would refuse is checked before the name is reserved, so a refused
    // create leaves no name taken.
    let name = valid_name(name).map_err(refused)?;
    if publish && !viewer.is_admin {
        return Err(refused(ChannelError::PublishNotAllowed));
    }
    if members.len() > MAX_MEMBERS_PER_CHANNEL {
        return Err(refused(ChannelError::TooManyMembers));
    }
    let members = existing_users(ctx, members).await?;
    if members.iter().filter(|m| **m != viewer.user_id).count() + 1 > MAX_MEMBERS_PER_CHANNEL {
        return Err(refused(ChannelError::TooManyMembers));
    }
    let channel_id = uuid::Uuid::now_v7().to_string();
    // The name's reservation and the channel are one decision: a channel that cannot be created
    // leaves its name free.
    let ((), cursor) = ctx
        .bus
        .execute_together(&viewer.metadata(), |mut unit| {
            let (channel_id, name, members) = (channel_id.clone(), name.clone(), members.clone());
            let (created_by, can_publish) = (viewer.user_id.clone(), viewer.is_admin);
            async move {
                let reserve = DirectoryCommand::Reserve { channel_id: channel_id.clone(), name: name.clone() };
                unit.execute::<ChannelDirectory>(&directory_id(ORGANIZATION_ID), reserve).await?;
                let create = ChannelCommand::Create {
                    channel_id: channel_id.clone(),
                    name,
                    created_by,
                    publish,
                    can_publish,
                    members,
                };
                unit.execute::<Channel>(&channel_id, create).await?;
                Ok::<_, Error>((unit, ()))
            }
        })
        .await?;
    ctx.settle(cursor).await;
    channel(ctx, viewer, &channel_id).await
}

/// Renames a channel and/or publishes it to the organisation or takes it back (owners only;
/// publishing needs an administrator). Answers the channel after it.
pub async fn update(
    ctx: &Context,
    viewer: &Viewer,
    channel_id: &str,
    name: Option<String>,
    publish: Option<bool>,
) -> Result<ChannelResult> {
    let access = visible_channel(ctx, &viewer.user_id, channel_id).await?;
    access.require_owner()?;
    let metadata = viewer.metadata();
    let mut cursor = None;
    if let Some(name) = name {
        let command = DirectoryCommand::Rename {
            channel_id: channel_id.to_string(),
            name,
            actor: viewer.user_id.clone(),
            actor_is_owner: access.role == Role::Owner,
        };
        cursor =
            ctx.bus.execute(&ctx.bus.channel_directories, &directory_id(ORGANIZATION_ID), command, &metadata).await?;
    }
    if let Some(publish) = publish {
        let command =
            ChannelCommand::SetPublished { actor: viewer.user_id.clone(), publish, can_publish: viewer.is_admin };
        cursor = ctx.bus.execute(&ctx.bus.channels, channel_id, command, &metadata).await?.or(cursor);
    }
    ctx.settle(cursor).await;
    channel(ctx, viewer, channel_id).await
}
