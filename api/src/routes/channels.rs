//! Channels (the spec's groups): create and list them, their info, members and roles,
//! publishing to the organisation, documents shared into them, feeds (boards) shared into them,
//! their shared tags, and each member's starred status and last visit. Comments are in
//! [`crate::routes::comments`].
//!
//! Who sees what: a channel's members see everything about it; when it is published to the
//! organisation, every user of the organisation sees it as a member would. Anyone else gets 404
//! for every call about it, exactly as for a channel that does not exist. Only owners manage a
//! channel (403 for other members).

use std::collections::{BTreeSet, HashMap};

use axum::extract::{Path, State};
use axum::http::StatusCode;
use commands::args;
use commands::store::Arg;
use domain::channel::{
    directory_id, publish_title, reader_id, valid_name, BoardDefinition, Channel, ChannelCommand, ChannelDirectory,
    ChannelError, DirectoryCommand, ReaderCommand, Role, MAX_MEMBERS_PER_CHANNEL, ORGANIZATION_ID,
};
use domain::channel_document::{channel_document_id, ChannelDocumentCommand};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::app::AppState;
use crate::auth::AuthUser;
use crate::error::{ApiJson, ApiQuery, ApiResult, AppError, ErrorBody};
use crate::paging::Paging;
use service::channels::{now, placeholders, ChannelRow, SEEN_CHANNELS};
use service::documents::{DocumentCard, DocumentRow, ANY};
use service::platform::organization_of;
use service::policy::{readable, visible_channel};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_channels, create_channel))
        .routes(routes!(channel_info, update_channel))
        .routes(routes!(list_members, add_members))
        .routes(routes!(organization_users))
        .routes(routes!(my_membership, update_my_membership))
        .routes(routes!(my_membership_self, leave_channel))
        .routes(routes!(change_role, remove_member))
        .routes(routes!(list_items, share_item))
        .routes(routes!(unshare_item))
        .routes(routes!(channel_tags))
        .routes(routes!(list_boards, share_board))
        .routes(routes!(unshare_board))
        .routes(routes!(create_and_share_board))
}

/// The pseudo channel id the group settings page uses while a channel is being created.
pub const CREATE_GROUP: &str = "create group";
/// How many people one call may add.
const MAX_ADDED_AT_ONCE: usize = 100;
/// How many channels one `create_and_share_board` may share into.
const MAX_CHANNELS_PER_SHARE: usize = 20;

/// Answers what the channel aggregate would, for a refusal the api sees before sending a command.
fn refused(error: ChannelError) -> AppError {
    AppError::from(commands::CommandError::Domain(error))
}

fn user_not_found() -> AppError {
    AppError::new(StatusCode::NOT_FOUND, "user_not_found", "user not found")
}

#[derive(Debug, Serialize, ToSchema)]
pub struct OrganizationRef {
    pub id: i64,
    pub domain: String,
    pub name: String,
}

/// A member of a channel.
#[derive(Debug, Serialize, ToSchema, sqlx::FromRow)]
pub struct Member {
    pub user_id: String,
    pub username: String,
    /// `member` or `owner`.
    pub role: String,
    pub added_at: String,
}

/// A channel, with the spec's fields.
#[derive(Debug, Serialize, ToSchema)]
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

#[derive(Debug, Serialize, ToSchema)]
pub struct ChannelResult {
    pub channel: ChannelInfo,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ChannelList {
    /// Starred first, then by name.
    pub channels: Vec<ChannelInfo>,
}

fn info_of(
    row: ChannelRow,
    organization: &service::platform::Organization,
    members: Option<Vec<Member>>,
) -> ChannelInfo {
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

async fn members_of(state: &AppState, channel_id: &str) -> ApiResult<Vec<Member>> {
    let mut members: Vec<Member> = state
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

async fn channel_answer(state: &AppState, user: &AuthUser, channel_id: &str) -> ApiResult<ChannelResult> {
    let access = visible_channel(state, &user.user_id, channel_id).await?;
    let organization = organization_of(state, user).await?;
    let members = members_of(state, channel_id).await?;
    Ok(ChannelResult { channel: info_of(access.channel, &organization, Some(members)) })
}

/// Answers 404 unless every id of `user_ids` is a user's; returns them without duplicates.
async fn existing_users(state: &AppState, user_ids: Vec<String>) -> ApiResult<Vec<String>> {
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
        "SELECT CAST(COUNT(*) AS BIGINT) AS n FROM users_view WHERE user_id IN ({})",
        placeholders(1, ids.len())
    );
    let found: Option<Row> = state.db.fetch_optional(&sql, ids.iter().map(Arg::from).collect()).await?;
    if found.map_or(0, |r| r.n) as usize != ids.len() {
        return Err(user_not_found());
    }
    Ok(ids)
}

/// The channels the user sees: those they are a member of, and those published to the
/// organisation (`/channels` in the navigation).
#[utoipa::path(get, path = "/channels", tag = "channels", security(("token" = [])),
    responses((status = 200, body = ChannelList)))]
async fn list_channels(State(state): State<AppState>, user: AuthUser) -> ApiResult<ApiJson<ChannelList>> {
    let organization = organization_of(&state, &user).await?;
    let rows: Vec<ChannelRow> =
        state.db.fetch_all(SEEN_CHANNELS, args![user.user_id.as_str(), ORGANIZATION_ID]).await?;
    let mut channels: Vec<ChannelInfo> = rows.into_iter().map(|row| info_of(row, &organization, None)).collect();
    // Sorted here, not in SQL: the two backends order text differently.
    channels.sort_by_cached_key(|c| (!c.starred, c.name.to_lowercase(), c.id.clone()));
    Ok(ApiJson(ChannelList { channels }))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateChannelBody {
    /// Required; letters (a-z), digits, hyphen, underscore and spaces, with at least one letter
    /// or digit; unique in the organisation whatever its case.
    #[serde(default)]
    pub name: String,
    /// Publishes the channel to the whole organisation (needs canPublishChannels).
    #[serde(default)]
    pub publish: bool,
    /// User ids of the first members besides the creator, who becomes the owner.
    #[serde(default)]
    pub members: Vec<String>,
}

/// Creates a channel; the caller becomes its owner. Names follow the spec's rules with its
/// messages: 422 `Group Name is required` / `Sorry, only letters (a-z), numbers (0-9), hyphen (-)
/// and underscore (_) are allowed.`, 409 `Group Name already exists in your organization!`.
#[utoipa::path(post, path = "/channels", tag = "channels", security(("token" = [])), request_body = CreateChannelBody,
    responses((status = 200, body = ChannelResult), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn create_channel(
    State(state): State<AppState>,
    user: AuthUser,
    ApiJson(body): ApiJson<CreateChannelBody>,
) -> ApiResult<ApiJson<ChannelResult>> {
    // Everything the channel would refuse is checked before the name is reserved, so a refused
    // create leaves no name taken.
    let name = valid_name(&body.name).map_err(refused)?;
    if body.publish && !user.is_admin {
        return Err(refused(ChannelError::PublishNotAllowed));
    }
    if body.members.len() > MAX_MEMBERS_PER_CHANNEL {
        return Err(refused(ChannelError::TooManyMembers));
    }
    let members = existing_users(&state, body.members).await?;
    if members.iter().filter(|m| **m != user.user_id).count() + 1 > MAX_MEMBERS_PER_CHANNEL {
        return Err(refused(ChannelError::TooManyMembers));
    }
    let channel_id = uuid::Uuid::now_v7().to_string();
    let metadata = user.metadata();
    // The name's reservation and the channel are one decision: a channel that cannot be created
    // leaves its name free.
    let ((), cursor) = state
        .bus
        .execute_together(&metadata, |mut unit| {
            let (channel_id, name, members) = (channel_id.clone(), name.clone(), members.clone());
            let (created_by, publish, can_publish) = (user.user_id.clone(), body.publish, user.is_admin);
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
                Ok::<_, AppError>((unit, ()))
            }
        })
        .await?;
    state.settle(cursor).await;
    Ok(ApiJson(channel_answer(&state, &user, &channel_id).await?))
}

/// One channel the caller sees, with its members (`GET group info`).
#[utoipa::path(get, path = "/channels/{id}", tag = "channels", security(("token" = [])),
    params(("id" = String, Path, description = "the channel's id")),
    responses((status = 200, body = ChannelResult), (status = 404, body = ErrorBody)))]
async fn channel_info(
    State(state): State<AppState>,
    user: AuthUser,
    Path(channel_id): Path<String>,
) -> ApiResult<ApiJson<ChannelResult>> {
    Ok(ApiJson(channel_answer(&state, &user, &channel_id).await?))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct UpdateChannelBody {
    /// A new name, with the same rules as a new channel's.
    pub name: Option<String>,
    /// Publishes the channel to the organisation (needs canPublishChannels) or takes it back.
    pub publish: Option<bool>,
}

/// Renames a channel or publishes it to the organisation (owners only).
#[utoipa::path(put, path = "/channels/{id}", tag = "channels", security(("token" = [])),
    params(("id" = String, Path, description = "the channel's id")), request_body = UpdateChannelBody,
    responses((status = 200, body = ChannelResult), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn update_channel(
    State(state): State<AppState>,
    user: AuthUser,
    Path(channel_id): Path<String>,
    ApiJson(body): ApiJson<UpdateChannelBody>,
) -> ApiResult<ApiJson<ChannelResult>> {
    let access = visible_channel(&state, &user.user_id, &channel_id).await?;
    access.require_owner()?;
    let metadata = user.metadata();
    let mut cursor = None;
    if let Some(name) = body.name {
        let command = DirectoryCommand::Rename {
            channel_id: channel_id.clone(),
            name,
            actor: user.user_id.clone(),
            actor_is_owner: access.role == Role::Owner,
        };
        cursor = state
            .bus
            .execute(&state.bus.channel_directories, &directory_id(ORGANIZATION_ID), command, &metadata)
            .await?;
    }
    if let Some(publish) = body.publish {
        let command = ChannelCommand::SetPublished { actor: user.user_id.clone(), publish, can_publish: user.is_admin };
        cursor = state.bus.execute(&state.bus.channels, &channel_id, command, &metadata).await?.or(cursor);
    }
    state.settle(cursor).await;
    Ok(ApiJson(channel_answer(&state, &user, &channel_id).await?))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct MemberList {
    /// Owners first, then by name.
    pub results: Vec<Member>,
}

/// A channel's members.
#[utoipa::path(get, path = "/channels/{id}/users", tag = "channels", security(("token" = [])),
    params(("id" = String, Path, description = "the channel's id")),
    responses((status = 200, body = MemberList), (status = 404, body = ErrorBody)))]
async fn list_members(
    State(state): State<AppState>,
    user: AuthUser,
    Path(channel_id): Path<String>,
) -> ApiResult<ApiJson<MemberList>> {
    visible_channel(&state, &user.user_id, &channel_id).await?;
    Ok(ApiJson(MemberList { results: members_of(&state, &channel_id).await? }))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AddMembersBody {
    /// The users to add, at most 100 at once; those already members keep their role.
    pub user_ids: Vec<String>,
    /// `member` (the default) or `owner`.
    pub role: Option<String>,
}

fn role_of(role: Option<&str>) -> ApiResult<Role> {
    match role {
        None => Ok(Role::Member),
        Some(role) => Role::parse(role)
            .ok_or_else(|| AppError::invalid("invalid_role", format!("{role} is not a role: use member or owner"))),
    }
}

/// Adds people to a channel (owners only) and answers its members.
#[utoipa::path(post, path = "/channels/{id}/users", tag = "channels", security(("token" = [])),
    params(("id" = String, Path, description = "the channel's id")), request_body = AddMembersBody,
    responses((status = 200, body = MemberList), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 422, body = ErrorBody)))]
async fn add_members(
    State(state): State<AppState>,
    user: AuthUser,
    Path(channel_id): Path<String>,
    ApiJson(body): ApiJson<AddMembersBody>,
) -> ApiResult<ApiJson<MemberList>> {
    let access = visible_channel(&state, &user.user_id, &channel_id).await?;
    access.require_owner()?;
    let role = role_of(body.role.as_deref())?;
    if body.user_ids.len() > MAX_ADDED_AT_ONCE {
        return Err(AppError::invalid("too_many_at_once", format!("add at most {MAX_ADDED_AT_ONCE} people at once")));
    }
    let user_ids = existing_users(&state, body.user_ids).await?;
    let command = ChannelCommand::AddMembers { actor: user.user_id.clone(), user_ids, role };
    state.command(&state.bus.channels, &channel_id, command, &user.metadata()).await?;
    Ok(ApiJson(MemberList { results: members_of(&state, &channel_id).await? }))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct UsersQuery {
    /// Only people whose name or email contains this, whatever its case.
    pub q: Option<String>,
    /// At most this many, 1 to 200 (default 50).
    pub limit: Option<i64>,
}

/// A person of the organisation, and whether they are in the channel.
#[derive(Debug, Serialize, ToSchema, sqlx::FromRow)]
pub struct OrganizationUser {
    pub user_id: String,
    pub username: String,
    /// Shown to administrators, to the person themselves and to people who share a channel with
    /// them; `null` to everyone else, so no member can list the organisation's addresses.
    pub email: Option<String>,
    /// Their role in the channel; `null` when they are not in it.
    pub role: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct OrganizationUserList {
    pub results: Vec<OrganizationUser>,
}

/// The people of the organisation, with their role in the channel, for choosing members. The
/// settings page's pseudo id `create group` answers them for a channel being created.
#[utoipa::path(get, path = "/channels/{id}/users/all", tag = "channels", security(("token" = [])),
    params(("id" = String, Path, description = "the channel's id, or `create group`"), UsersQuery),
    responses((status = 200, body = OrganizationUserList), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn organization_users(
    State(state): State<AppState>,
    user: AuthUser,
    Path(channel_id): Path<String>,
    ApiQuery(query): ApiQuery<UsersQuery>,
) -> ApiResult<ApiJson<OrganizationUserList>> {
    if channel_id != CREATE_GROUP {
        visible_channel(&state, &user.user_id, &channel_id).await?;
    }
    let limit = query.limit.unwrap_or(50);
    if !(1..=200).contains(&limit) {
        return Err(AppError::bad_request("bad_page", "limit must be 1 to 200"));
    }
    let needle = format!("%{}%", query.q.unwrap_or_default().trim().to_lowercase());
    // Whether the caller ($4, an administrator when $5) may see u's email; a hidden email is not
    // searched either, or `q` would find it out a letter at a time.
    let email_seen = "($5 OR u.user_id = $4 OR EXISTS (SELECT 1 FROM channel_members_view mine \
         JOIN channel_members_view theirs ON theirs.channel_id = mine.channel_id \
         WHERE mine.user_id = $4 AND theirs.user_id = u.user_id))";
    let mut users: Vec<OrganizationUser> = state
        .db
        .fetch_all(
            &format!(
                "SELECT u.user_id, u.username, CASE WHEN {email_seen} THEN u.email END AS email, m.role \
                 FROM users_view u \
                 LEFT JOIN channel_members_view m ON m.user_id = u.user_id AND m.channel_id = $1 \
                 WHERE LOWER(u.username) LIKE $2 OR ({email_seen} AND LOWER(u.email) LIKE $2) \
                 ORDER BY u.created_at, u.user_id LIMIT $3"
            ),
            args![channel_id, needle, limit, user.user_id.as_str(), user.is_admin],
        )
        .await?;
    users.sort_by_cached_key(|u| (u.username.to_lowercase(), u.user_id.clone()));
    Ok(ApiJson(OrganizationUserList { results: users }))
}

/// The caller in a channel: their role, and their own starred status and last visit.
#[derive(Debug, Serialize, ToSchema)]
pub struct Membership {
    pub channel_id: String,
    pub user_id: String,
    pub role: String,
    /// Whether they are a member in their own right, not only through publishing.
    pub member: bool,
    pub starred: bool,
    pub last_seen: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct MembershipResult {
    pub results: Membership,
}

async fn membership(state: &AppState, user: &AuthUser, channel_id: &str) -> ApiResult<MembershipResult> {
    let access = visible_channel(state, &user.user_id, channel_id).await?;
    Ok(MembershipResult {
        results: Membership {
            channel_id: channel_id.to_string(),
            user_id: user.user_id.clone(),
            role: access.role.as_str().to_string(),
            member: access.member,
            starred: access.channel.starred.unwrap_or(false),
            last_seen: access.channel.seen_at,
        },
    })
}

/// The caller's role, starred status and last visit in a channel.
#[utoipa::path(get, path = "/channels/{id}/users/me", tag = "channels", security(("token" = [])),
    params(("id" = String, Path, description = "the channel's id")),
    responses((status = 200, body = MembershipResult), (status = 404, body = ErrorBody)))]
async fn my_membership(
    State(state): State<AppState>,
    user: AuthUser,
    Path(channel_id): Path<String>,
) -> ApiResult<ApiJson<MembershipResult>> {
    Ok(ApiJson(membership(&state, &user, &channel_id).await?))
}

/// The same as `GET /channels/{id}/users/me`.
#[utoipa::path(get, path = "/channels/{id}/users/self", tag = "channels", security(("token" = [])),
    params(("id" = String, Path, description = "the channel's id")),
    responses((status = 200, body = MembershipResult), (status = 404, body = ErrorBody)))]
async fn my_membership_self(
    State(state): State<AppState>,
    user: AuthUser,
    Path(channel_id): Path<String>,
) -> ApiResult<ApiJson<MembershipResult>> {
    Ok(ApiJson(membership(&state, &user, &channel_id).await?))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MembershipBody {
    /// Stars or unstars the channel for the caller.
    pub starred: Option<bool>,
    /// `true` records that the caller looked at the channel now (its last seen).
    pub seen: Option<bool>,
}

/// Stars or unstars a channel for the caller, or records their visit.
#[utoipa::path(put, path = "/channels/{id}/users/me", tag = "channels", security(("token" = [])),
    params(("id" = String, Path, description = "the channel's id")), request_body = MembershipBody,
    responses((status = 200, body = MembershipResult), (status = 404, body = ErrorBody)))]
async fn update_my_membership(
    State(state): State<AppState>,
    user: AuthUser,
    Path(channel_id): Path<String>,
    ApiJson(body): ApiJson<MembershipBody>,
) -> ApiResult<ApiJson<MembershipResult>> {
    visible_channel(&state, &user.user_id, &channel_id).await?;
    let id = reader_id(&channel_id, &user.user_id);
    let metadata = user.metadata();
    let mut cursor = None;
    if let Some(starred) = body.starred {
        let command = ReaderCommand::Star { channel_id: channel_id.clone(), user_id: user.user_id.clone(), starred };
        cursor = state.bus.execute(&state.bus.channel_readers, &id, command, &metadata).await?.or(cursor);
    }
    if body.seen == Some(true) {
        let command =
            ReaderCommand::MarkSeen { channel_id: channel_id.clone(), user_id: user.user_id.clone(), at: now() };
        cursor = state.bus.execute(&state.bus.channel_readers, &id, command, &metadata).await?.or(cursor);
    }
    state.settle(cursor).await;
    Ok(ApiJson(membership(&state, &user, &channel_id).await?))
}

/// Removes `user_id` from the channel as `user` (an owner, or the member themselves).
async fn remove(state: &AppState, user: &AuthUser, channel_id: &str, user_id: &str) -> ApiResult<StatusCode> {
    let access = visible_channel(state, &user.user_id, channel_id).await?;
    if user_id != user.user_id {
        access.require_owner()?;
    }
    let command = ChannelCommand::RemoveMember { actor: user.user_id.clone(), user_id: user_id.to_string() };
    state.command(&state.bus.channels, channel_id, command, &user.metadata()).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Leaves a channel. The last owner cannot leave (422 `last_channel_owner`): make another member
/// an owner first.
#[utoipa::path(delete, path = "/channels/{id}/users/self", tag = "channels", security(("token" = [])),
    params(("id" = String, Path, description = "the channel's id")),
    responses((status = 204), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn leave_channel(
    State(state): State<AppState>,
    user: AuthUser,
    Path(channel_id): Path<String>,
) -> ApiResult<StatusCode> {
    let user_id = user.user_id.clone();
    remove(&state, &user, &channel_id, &user_id).await
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RoleBody {
    /// `member` or `owner`.
    pub role: String,
}

/// Changes a member's role (owners only). The last owner cannot step down.
#[utoipa::path(put, path = "/channels/{id}/users/{userId}", tag = "channels", security(("token" = [])),
    params(("id" = String, Path, description = "the channel's id"), ("userId" = String, Path)), request_body = RoleBody,
    responses((status = 200, body = MemberList), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 422, body = ErrorBody)))]
async fn change_role(
    State(state): State<AppState>,
    user: AuthUser,
    Path((channel_id, user_id)): Path<(String, String)>,
    ApiJson(body): ApiJson<RoleBody>,
) -> ApiResult<ApiJson<MemberList>> {
    let access = visible_channel(&state, &user.user_id, &channel_id).await?;
    access.require_owner()?;
    let role = role_of(Some(&body.role))?;
    let command = ChannelCommand::ChangeRole { actor: user.user_id.clone(), user_id, role };
    state.command(&state.bus.channels, &channel_id, command, &user.metadata()).await?;
    Ok(ApiJson(MemberList { results: members_of(&state, &channel_id).await? }))
}

/// Removes a member (owners; any member may remove themselves). The last owner cannot be removed.
#[utoipa::path(delete, path = "/channels/{id}/users/{userId}", tag = "channels", security(("token" = [])),
    params(("id" = String, Path, description = "the channel's id"), ("userId" = String, Path)),
    responses((status = 204), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 422, body = ErrorBody)))]
async fn remove_member(
    State(state): State<AppState>,
    user: AuthUser,
    Path((channel_id, user_id)): Path<(String, String)>,
) -> ApiResult<StatusCode> {
    remove(&state, &user, &channel_id, &user_id).await
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ItemsQuery {
    /// Only documents carrying this shared tag of the channel.
    pub tag_id: Option<String>,
}

/// A document shared into a channel.
#[derive(Debug, Serialize, ToSchema)]
pub struct ChannelItem {
    #[serde(flatten)]
    pub document: DocumentCard,
    pub channel_id: String,
    pub shared_by: String,
    pub shared_at: String,
    pub comment_count: i64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ChannelItemPage {
    pub results: Vec<ChannelItem>,
    pub page: i64,
    pub has_more: bool,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ChannelItemResult {
    pub results: ChannelItem,
}

#[derive(sqlx::FromRow)]
struct ItemRow {
    deeplink: String,
    shared_by: String,
    shared_at: String,
    comment_count: i64,
}

/// The channel's items of `rows` as cards, in that order; documents gone meanwhile are left out.
async fn items_of(
    state: &AppState,
    user_id: &str,
    channel_id: &str,
    rows: Vec<ItemRow>,
) -> ApiResult<Vec<ChannelItem>> {
    if rows.is_empty() {
        return Ok(vec![]);
    }
    let sql = format!("{ANY} AND d.deeplink IN ({})", placeholders(2, rows.len()));
    let mut params = args![user_id];
    params.extend(rows.iter().map(|r| Arg::from(&r.deeplink)));
    let cards: Vec<DocumentRow> = state.db.fetch_all(&sql, params).await?;
    let mut cards: HashMap<String, DocumentCard> = cards
        .into_iter()
        .map(|row| DocumentCard::from_row(row, &state.access))
        .map(|card| (card.deeplink.clone(), card))
        .collect();
    Ok(rows
        .into_iter()
        .filter_map(|row| {
            cards.remove(&row.deeplink).map(|document| ChannelItem {
                document,
                channel_id: channel_id.to_string(),
                shared_by: row.shared_by,
                shared_at: row.shared_at,
                comment_count: row.comment_count,
            })
        })
        .collect())
}

/// The shared items of `$1`, with their comment counts.
const ITEMS: &str = "SELECT i.deeplink, i.shared_by, i.shared_at, \
     (SELECT COUNT(*) FROM comments_view cm WHERE cm.channel_id = i.channel_id AND cm.deeplink = i.deeplink) \
     AS comment_count FROM channel_items_view i WHERE i.channel_id = $1";

/// The documents shared into a channel, the most recently shared first (with `tag_id`, those
/// carrying that shared tag).
#[utoipa::path(get, path = "/channels/{id}/items", tag = "channels", security(("token" = [])),
    params(("id" = String, Path, description = "the channel's id"), ItemsQuery, Paging),
    responses((status = 200, body = ChannelItemPage), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn list_items(
    State(state): State<AppState>,
    user: AuthUser,
    Path(channel_id): Path<String>,
    ApiQuery(query): ApiQuery<ItemsQuery>,
    paging: Paging,
) -> ApiResult<ApiJson<ChannelItemPage>> {
    visible_channel(&state, &user.user_id, &channel_id).await?;
    let Paging { page, limit } = paging;
    let tag = query.tag_id.unwrap_or_default();
    let rows: Vec<ItemRow> = state
        .db
        .fetch_all(
            &format!(
                "{ITEMS} AND ($2 = '' OR EXISTS (SELECT 1 FROM document_tags_view dt WHERE dt.scope_kind = 'channel' \
                 AND dt.scope_id = i.channel_id AND dt.deeplink = i.deeplink AND dt.tag_id = $2)) \
                 ORDER BY i.position DESC, i.deeplink LIMIT $3 OFFSET $4"
            ),
            args![channel_id.as_str(), tag.trim(), limit + 1, paging.offset()],
        )
        .await?;
    let has_more = rows.len() as i64 > limit;
    let rows = rows.into_iter().take(limit as usize).collect();
    Ok(ApiJson(ChannelItemPage { results: items_of(&state, &user.user_id, &channel_id, rows).await?, page, has_more }))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ShareItemBody {
    /// The document to share: one the caller can read.
    pub deeplink: String,
}

/// Shares a document the caller can read into a channel, so every member can read it; sharing it
/// again changes nothing.
#[utoipa::path(post, path = "/channels/{id}/items", tag = "channels", security(("token" = [])),
    params(("id" = String, Path, description = "the channel's id")), request_body = ShareItemBody,
    responses((status = 200, body = ChannelItemResult), (status = 404, body = ErrorBody)))]
async fn share_item(
    State(state): State<AppState>,
    user: AuthUser,
    Path(channel_id): Path<String>,
    ApiJson(body): ApiJson<ShareItemBody>,
) -> ApiResult<ApiJson<ChannelItemResult>> {
    let access = visible_channel(&state, &user.user_id, &channel_id).await?;
    let deeplink = body.deeplink.trim().to_string();
    readable(&state, &user.user_id, &deeplink, None).await?;
    let command = ChannelDocumentCommand::Share {
        channel_id: channel_id.clone(),
        deeplink: deeplink.clone(),
        actor: access.actor(&user.user_id),
    };
    state
        .command(&state.bus.channel_documents, &channel_document_id(&channel_id, &deeplink), command, &user.metadata())
        .await?;
    let rows: Vec<ItemRow> = state
        .db
        .fetch_all(&format!("{ITEMS} AND i.deeplink = $2"), args![channel_id.as_str(), deeplink.as_str()])
        .await?;
    let item = items_of(&state, &user.user_id, &channel_id, rows).await?.into_iter().next();
    Ok(ApiJson(ChannelItemResult { results: item.ok_or_else(|| AppError::not_found("document not found"))? }))
}

/// Takes a document out of a channel (whoever shared it, or an owner); its comments stay.
#[utoipa::path(delete, path = "/channels/{id}/items/{deeplink}", tag = "channels", security(("token" = [])),
    params(("id" = String, Path, description = "the channel's id"), ("deeplink" = String, Path)),
    responses((status = 204), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn unshare_item(
    State(state): State<AppState>,
    user: AuthUser,
    Path((channel_id, deeplink)): Path<(String, String)>,
) -> ApiResult<StatusCode> {
    let access = visible_channel(&state, &user.user_id, &channel_id).await?;
    let command = ChannelDocumentCommand::Unshare {
        channel_id: channel_id.clone(),
        deeplink: deeplink.clone(),
        actor: access.actor(&user.user_id),
    };
    state
        .command(&state.bus.channel_documents, &channel_document_id(&channel_id, &deeplink), command, &user.metadata())
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// A shared tag of a channel, and how many of its shared documents carry it.
#[derive(Debug, Serialize, ToSchema, sqlx::FromRow)]
pub struct ChannelTag {
    pub id: String,
    pub name: String,
    pub count: i64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ChannelTagList {
    /// By name.
    pub results: Vec<ChannelTag>,
}

/// The shared tags on a channel's documents (`/channels/{channelId}/tags`), with counts; filter
/// the items with `tag_id`.
#[utoipa::path(get, path = "/channels/{id}/tags", tag = "channels", security(("token" = [])),
    params(("id" = String, Path, description = "the channel's id")),
    responses((status = 200, body = ChannelTagList), (status = 404, body = ErrorBody)))]
async fn channel_tags(
    State(state): State<AppState>,
    user: AuthUser,
    Path(channel_id): Path<String>,
) -> ApiResult<ApiJson<ChannelTagList>> {
    visible_channel(&state, &user.user_id, &channel_id).await?;
    let mut tags: Vec<ChannelTag> = state
        .db
        .fetch_all(
            "SELECT dt.tag_id AS id, t.name, CAST(COUNT(*) AS BIGINT) AS count FROM document_tags_view dt \
             JOIN tags_view t ON t.tag_id = dt.tag_id \
             JOIN channel_items_view i ON i.channel_id = dt.scope_id AND i.deeplink = dt.deeplink \
             WHERE dt.scope_kind = 'channel' AND dt.scope_id = $1 GROUP BY dt.tag_id, t.name",
            args![channel_id],
        )
        .await?;
    tags.sort_by_cached_key(|t| (t.name.to_lowercase(), t.id.clone()));
    Ok(ApiJson(ChannelTagList { results: tags }))
}

/// A feed shared into a channel, with the spec's fields.
#[derive(Debug, Serialize, ToSchema)]
pub struct Board {
    pub board_id: String,
    pub board_name: String,
    pub channel_id: String,
    pub created_at: String,
    pub updated_at: String,
    /// Shared feeds are always on.
    pub enabled: bool,
    /// Whether the feed was shared today (UTC).
    #[serde(rename = "isNew")]
    pub is_new: bool,
    pub shared_by: String,
    /// The feed's definition: name, description, keywords {include, exclude}, sources,
    /// secondary_sources, common, date_range, group, and for AI feeds companies, attributes,
    /// topics, currentTopic, type.
    #[schema(value_type = Object)]
    pub definition: Value,
}

#[derive(sqlx::FromRow)]
struct BoardRow {
    board_id: String,
    name: String,
    channel_id: String,
    definition: String,
    shared_by: String,
    created_at: String,
    updated_at: String,
}

impl BoardRow {
    fn into_board(self, today: &str) -> ApiResult<Board> {
        Ok(Board {
            is_new: self.created_at.starts_with(today),
            definition: serde_json::from_str(&self.definition)
                .map_err(|e| AppError::internal(format!("board: {e}")))?,
            board_id: self.board_id,
            board_name: self.name,
            channel_id: self.channel_id,
            created_at: self.created_at,
            updated_at: self.updated_at,
            enabled: true,
            shared_by: self.shared_by,
        })
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct BoardList {
    /// The first shared first.
    pub results: Vec<Board>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct BoardResult {
    pub results: Board,
}

const BOARDS: &str = "SELECT board_id, name, channel_id, definition, shared_by, created_at, updated_at \
     FROM channel_boards_view WHERE channel_id = $1";

async fn boards_of(state: &AppState, channel_id: &str, board_id: Option<&str>) -> ApiResult<Vec<Board>> {
    let rows: Vec<BoardRow> = state
        .db
        .fetch_all(
            &format!("{BOARDS} AND ($2 = '' OR board_id = $2) ORDER BY position, board_id"),
            args![channel_id, board_id.unwrap_or_default()],
        )
        .await?;
    let today = chrono::Utc::now().format("%Y-%m-%d").to_string();
    rows.into_iter().map(|row| row.into_board(&today)).collect()
}

/// The feeds shared into a channel.
#[utoipa::path(get, path = "/channels/{id}/boards", tag = "channels", security(("token" = [])),
    params(("id" = String, Path, description = "the channel's id")),
    responses((status = 200, body = BoardList), (status = 404, body = ErrorBody)))]
async fn list_boards(
    State(state): State<AppState>,
    user: AuthUser,
    Path(channel_id): Path<String>,
) -> ApiResult<ApiJson<BoardList>> {
    visible_channel(&state, &user.user_id, &channel_id).await?;
    Ok(ApiJson(BoardList { results: boards_of(&state, &channel_id, None).await? }))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ShareBoardBody {
    /// The feed's id: a feed shared before is replaced; without it a new feed is made.
    pub board_id: Option<String>,
    /// The feed's definition: `name` (required), `description`, `keywords` {`include`,
    /// `exclude`: [{`keyword`, `valid`}]} (each a valid keyword expression), `sources`,
    /// `secondary_sources`, `common`, `date_range` (a shorthand), `group`, `companies`,
    /// `attributes`, `topics`, `currentTopic`, `type`.
    #[schema(value_type = Object)]
    pub definition: BoardDefinition,
}

async fn share_board_into(
    state: &AppState,
    user: &AuthUser,
    channel_id: &str,
    board_id: &str,
    definition: BoardDefinition,
) -> ApiResult<Option<commands::Cursor>> {
    let command = ChannelCommand::ShareBoard {
        actor: user.user_id.clone(),
        board_id: board_id.to_string(),
        definition: Box::new(definition),
    };
    Ok(state.bus.execute(&state.bus.channels, channel_id, command, &user.metadata()).await?)
}

/// Shares a feed into a channel, or replaces the definition of one shared before (owners only).
#[utoipa::path(post, path = "/channels/{id}/boards", tag = "channels", security(("token" = [])),
    params(("id" = String, Path, description = "the channel's id")), request_body = ShareBoardBody,
    responses((status = 200, body = BoardResult), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 422, body = ErrorBody)))]
async fn share_board(
    State(state): State<AppState>,
    user: AuthUser,
    Path(channel_id): Path<String>,
    ApiJson(body): ApiJson<ShareBoardBody>,
) -> ApiResult<ApiJson<BoardResult>> {
    let access = visible_channel(&state, &user.user_id, &channel_id).await?;
    access.require_owner()?;
    let board_id =
        service::input::scope_id("board_id", body.board_id)?.unwrap_or_else(|| uuid::Uuid::now_v7().to_string());
    let cursor = share_board_into(&state, &user, &channel_id, &board_id, body.definition).await?;
    state.settle(cursor).await;
    let board = boards_of(&state, &channel_id, Some(&board_id)).await?.into_iter().next();
    Ok(ApiJson(BoardResult { results: board.ok_or_else(|| AppError::internal("a shared feed is not in the view"))? }))
}

/// Takes a feed out of a channel (owners only).
#[utoipa::path(delete, path = "/channels/{id}/boards/{boardId}", tag = "channels", security(("token" = [])),
    params(("id" = String, Path, description = "the channel's id"), ("boardId" = String, Path)),
    responses((status = 204), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn unshare_board(
    State(state): State<AppState>,
    user: AuthUser,
    Path((channel_id, board_id)): Path<(String, String)>,
) -> ApiResult<StatusCode> {
    let access = visible_channel(&state, &user.user_id, &channel_id).await?;
    access.require_owner()?;
    let command = ChannelCommand::UnshareBoard { actor: user.user_id.clone(), board_id };
    state.command(&state.bus.channels, &channel_id, command, &user.metadata()).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateAndShareBody {
    /// The channels to share the new feed into (the caller must own each), 1 to 20.
    pub channel_ids: Vec<String>,
    /// The feed's definition, as for `POST /channels/{id}/boards`.
    #[schema(value_type = Object)]
    pub definition: BoardDefinition,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CreatedBoard {
    pub board_id: String,
    pub board_name: String,
    pub channel_ids: Vec<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CreatedBoardResult {
    pub results: CreatedBoard,
}

/// Makes a feed from a definition and shares it into channels the caller owns. Every channel is
/// checked before anything is shared.
#[utoipa::path(post, path = "/channels/create_and_share_board", tag = "channels", security(("token" = [])),
    request_body = CreateAndShareBody,
    responses((status = 200, body = CreatedBoardResult), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 422, body = ErrorBody)))]
async fn create_and_share_board(
    State(state): State<AppState>,
    user: AuthUser,
    ApiJson(body): ApiJson<CreateAndShareBody>,
) -> ApiResult<ApiJson<CreatedBoardResult>> {
    let channel_ids: Vec<String> = body.channel_ids.into_iter().collect::<BTreeSet<_>>().into_iter().collect();
    if channel_ids.is_empty() || channel_ids.len() > MAX_CHANNELS_PER_SHARE {
        return Err(AppError::invalid(
            "invalid_body",
            format!("name 1 to {MAX_CHANNELS_PER_SHARE} channels to share the feed into"),
        ));
    }
    let definition = body.definition.cleaned().map_err(|e| refused(ChannelError::Board(e)))?;
    for channel_id in &channel_ids {
        visible_channel(&state, &user.user_id, channel_id).await?.require_owner()?;
    }
    let board_id = uuid::Uuid::now_v7().to_string();
    let mut cursor = None;
    for channel_id in &channel_ids {
        cursor = share_board_into(&state, &user, channel_id, &board_id, definition.clone()).await?.or(cursor);
    }
    state.settle(cursor).await;
    Ok(ApiJson(CreatedBoardResult { results: CreatedBoard { board_id, board_name: definition.name, channel_ids } }))
}
