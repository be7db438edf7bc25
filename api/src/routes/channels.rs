//! Channels (the spec's groups) over HTTP: create and list them, their info, members and roles,
//! publishing to the organisation, documents shared into them, feeds (boards) shared into them,
//! their shared tags, and each member's starred status and last visit. The rules and reads are
//! in [`service::channels`]; comments are in the comments routes.
//!
//! Who sees what: a channel's members see everything about it; when it is published to the
//! organisation, every user of the organisation sees it as a member would. Anyone else gets 404
//! for every call about it, exactly as for a channel that does not exist. Only owners manage a
//! channel (403 for other members).

use axum::extract::{Path, State};
use axum::http::StatusCode;
use domain::channel::BoardDefinition;
use serde::Deserialize;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::app::AppState;
use crate::auth::AuthUser;
use crate::error::{ApiJson, ApiQuery, ApiResult, ErrorBody};
use crate::paging::Paging;
use service::channels::boards::{self, BoardList, BoardResult, CreatedBoardResult};
use service::channels::items::{self, ChannelItemPage, ChannelItemResult, ChannelTagList};
use service::channels::members::{self, MemberList, MembershipResult, OrganizationUserList};
use service::channels::{self, ChannelList, ChannelResult};

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

/// The channels the user sees: those they are a member of, and those published to the
/// organisation (`/channels` in the navigation).
#[utoipa::path(get, path = "/channels", tag = "channels", security(("token" = [])),
    responses((status = 200, body = ChannelList)))]
async fn list_channels(State(state): State<AppState>, user: AuthUser) -> ApiResult<ApiJson<ChannelList>> {
    Ok(ApiJson(channels::list(&state, &user).await?))
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
    Ok(ApiJson(channels::create(&state, &user, &body.name, body.publish, body.members).await?))
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
    Ok(ApiJson(channels::channel(&state, &user, &channel_id).await?))
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
    Ok(ApiJson(channels::update(&state, &user, &channel_id, body.name, body.publish).await?))
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
    Ok(ApiJson(members::list(&state, &user, &channel_id).await?))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AddMembersBody {
    /// The users to add, at most 100 at once; those already members keep their role.
    pub user_ids: Vec<String>,
    /// `member` (the default) or `owner`.
    pub role: Option<String>,
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
    Ok(ApiJson(members::add(&state, &user, &channel_id, body.user_ids, body.role.as_deref()).await?))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct UsersQuery {
    /// Only people whose name or email contains this, whatever its case.
    pub q: Option<String>,
    /// At most this many, 1 to 200 (default 50).
    pub limit: Option<i64>,
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
    Ok(ApiJson(members::organization_users(&state, &user, &channel_id, query.q.as_deref(), query.limit).await?))
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
    Ok(ApiJson(members::membership(&state, &user, &channel_id).await?))
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
    Ok(ApiJson(members::membership(&state, &user, &channel_id).await?))
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
    let seen = body.seen == Some(true);
    Ok(ApiJson(members::update_membership(&state, &user, &channel_id, body.starred, seen).await?))
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
    members::remove(&state, &user, &channel_id, &user.user_id).await?;
    Ok(StatusCode::NO_CONTENT)
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
    Ok(ApiJson(members::change_role(&state, &user, &channel_id, &user_id, &body.role).await?))
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
    members::remove(&state, &user, &channel_id, &user_id).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ItemsQuery {
    /// Only documents carrying this shared tag of the channel.
    pub tag_id: Option<String>,
}

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
    Paging { page, limit }: Paging,
) -> ApiResult<ApiJson<ChannelItemPage>> {
    Ok(ApiJson(items::list(&state, &user, &channel_id, query.tag_id.as_deref(), page, limit).await?))
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
    Ok(ApiJson(items::share(&state, &user, &channel_id, &body.deeplink).await?))
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
    items::unshare(&state, &user, &channel_id, &deeplink).await?;
    Ok(StatusCode::NO_CONTENT)
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
    Ok(ApiJson(items::tags(&state, &user, &channel_id).await?))
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
    Ok(ApiJson(boards::list(&state, &user, &channel_id).await?))
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
    Ok(ApiJson(boards::share(&state, &user, &channel_id, body.board_id, body.definition).await?))
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
    boards::unshare(&state, &user, &channel_id, &board_id).await?;
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
    Ok(ApiJson(boards::create_and_share(&state, &user, body.channel_ids, body.definition).await?))
}
