//! Comments on documents in channels over HTTP: list, add, edit (the author), delete (the author
//! or an owner), counts and last seen per document, a channel's comments tab, and the global
//! comments view of every channel the user sees. The rules and reads are in
//! [`service::comments`].
//!
//! A channel's comments are its members' (and, for a channel published to the organisation,
//! everyone's in it): anyone else gets 404 for every call, as for a channel that does not exist.
//! Writing needs the `comments` flag (403 without it). Mentions name members by user id and are
//! refused in published channels; cards from chats cannot be commented upon (the spec's text).

use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::app::AppState;
use crate::auth::AuthUser;
use crate::error::{ApiJson, ApiResult, ErrorBody};
use crate::paging::Paging;
use service::comments::{self, CommentCountResult, CommentList, CommentPage, CommentResult, LastSeenResult};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_comments, add_comment))
        .routes(routes!(edit_comment, delete_comment))
        .routes(routes!(comment_count))
        .routes(routes!(last_seen, mark_seen))
        .routes(routes!(channel_comments))
        .routes(routes!(all_comments))
}

/// The comments on a document in a channel, the oldest first.
#[utoipa::path(get, path = "/channels/{id}/comments/{deeplink}", tag = "comments", security(("token" = [])),
    params(("id" = String, Path, description = "the channel's id"), ("deeplink" = String, Path)),
    responses((status = 200, body = CommentList), (status = 404, body = ErrorBody)))]
async fn list_comments(
    State(state): State<AppState>,
    user: AuthUser,
    Path((channel_id, deeplink)): Path<(String, String)>,
) -> ApiResult<ApiJson<CommentList>> {
    Ok(ApiJson(comments::list(&state, &user, &channel_id, &deeplink).await?))
}

/// A mention as clients send it: the member's user id, or the spec's `{mention_uuid, mention_value}`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(untagged)]
pub enum MentionIn {
    Id(String),
    Mention {
        mention_uuid: String,
        #[allow(dead_code)]
        mention_value: Option<String>,
    },
}

impl MentionIn {
    fn user_id(self) -> String {
        match self {
            MentionIn::Id(id) | MentionIn::Mention { mention_uuid: id, .. } => id.trim().to_string(),
        }
    }
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CommentBody {
    /// The comment's text (`text` works too); saved only when not empty. Line breaks stay.
    #[serde(default, alias = "text")]
    pub comment: String,
    /// The members the comment mentions; refused in channels published to the organisation.
    #[serde(default)]
    pub mentions: Vec<MentionIn>,
}

impl CommentBody {
    /// The text and the mentioned user ids.
    fn into_parts(self) -> (String, Vec<String>) {
        (self.comment, self.mentions.into_iter().map(MentionIn::user_id).collect())
    }
}

/// Comments on a document in a channel (one the caller can read there). 422 `comment cannot be
/// empty`, `Cards originating from chats cannot be commented upon`, `only members of this channel
/// can be mentioned`, or for a published channel `mentions are allowed only in channels that are
/// not published to the organization`.
#[utoipa::path(post, path = "/channels/{id}/comments/{deeplink}", tag = "comments", security(("token" = [])),
    params(("id" = String, Path, description = "the channel's id"), ("deeplink" = String, Path)), request_body = CommentBody,
    responses((status = 200, body = CommentResult), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 422, body = ErrorBody)))]
async fn add_comment(
    State(state): State<AppState>,
    user: AuthUser,
    Path((channel_id, deeplink)): Path<(String, String)>,
    ApiJson(body): ApiJson<CommentBody>,
) -> ApiResult<ApiJson<CommentResult>> {
    let (text, mentions) = body.into_parts();
    Ok(ApiJson(comments::add(&state, &user, &channel_id, &deeplink, text, mentions).await?))
}

/// Edits a comment (its author only) with the same rules as a new one; an edit that changes
/// nothing records nothing.
#[utoipa::path(put, path = "/channels/{id}/comments/{deeplink}/{commentId}", tag = "comments", security(("token" = [])),
    params(("id" = String, Path, description = "the channel's id"), ("deeplink" = String, Path), ("commentId" = String, Path)),
    request_body = CommentBody,
    responses((status = 200, body = CommentResult), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 422, body = ErrorBody)))]
async fn edit_comment(
    State(state): State<AppState>,
    user: AuthUser,
    Path((channel_id, deeplink, comment_id)): Path<(String, String, String)>,
    ApiJson(body): ApiJson<CommentBody>,
) -> ApiResult<ApiJson<CommentResult>> {
    let (text, mentions) = body.into_parts();
    Ok(ApiJson(comments::edit(&state, &user, &channel_id, &deeplink, &comment_id, text, mentions).await?))
}

/// Deletes a comment (its author, or an owner of the channel).
#[utoipa::path(delete, path = "/channels/{id}/comments/{deeplink}/{commentId}", tag = "comments", security(("token" = [])),
    params(("id" = String, Path, description = "the channel's id"), ("deeplink" = String, Path), ("commentId" = String, Path)),
    responses((status = 204), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn delete_comment(
    State(state): State<AppState>,
    user: AuthUser,
    Path((channel_id, deeplink, comment_id)): Path<(String, String, String)>,
) -> ApiResult<StatusCode> {
    comments::delete(&state, &user, &channel_id, &deeplink, &comment_id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// How many comments a document has in a channel (`results.count`), and how many are unseen.
#[utoipa::path(get, path = "/channels/{id}/comments/{deeplink}/count", tag = "comments", security(("token" = [])),
    params(("id" = String, Path, description = "the channel's id"), ("deeplink" = String, Path)),
    responses((status = 200, body = CommentCountResult), (status = 404, body = ErrorBody)))]
async fn comment_count(
    State(state): State<AppState>,
    user: AuthUser,
    Path((channel_id, deeplink)): Path<(String, String)>,
) -> ApiResult<ApiJson<CommentCountResult>> {
    Ok(ApiJson(comments::count(&state, &user, &channel_id, &deeplink).await?))
}

/// When the caller last saw a document's comments in a channel, and how many came since.
#[utoipa::path(get, path = "/channels/{id}/comments/{deeplink}/last_seen", tag = "comments", security(("token" = [])),
    params(("id" = String, Path, description = "the channel's id"), ("deeplink" = String, Path)),
    responses((status = 200, body = LastSeenResult), (status = 404, body = ErrorBody)))]
async fn last_seen(
    State(state): State<AppState>,
    user: AuthUser,
    Path((channel_id, deeplink)): Path<(String, String)>,
) -> ApiResult<ApiJson<LastSeenResult>> {
    Ok(ApiJson(comments::last_seen(&state, &user, &channel_id, &deeplink).await?))
}

/// Records that the caller has seen a document's comments in a channel, up to the newest there
/// is; nothing is recorded when there is nothing new.
#[utoipa::path(put, path = "/channels/{id}/comments/{deeplink}/last_seen", tag = "comments", security(("token" = [])),
    params(("id" = String, Path, description = "the channel's id"), ("deeplink" = String, Path)),
    responses((status = 200, body = LastSeenResult), (status = 404, body = ErrorBody)))]
async fn mark_seen(
    State(state): State<AppState>,
    user: AuthUser,
    Path((channel_id, deeplink)): Path<(String, String)>,
) -> ApiResult<ApiJson<LastSeenResult>> {
    Ok(ApiJson(comments::mark_seen(&state, &user, &channel_id, &deeplink).await?))
}

/// A channel's comments on all its documents, the newest first (the channel's comments tab).
#[utoipa::path(get, path = "/channels/{id}/comments", tag = "comments", security(("token" = [])),
    params(("id" = String, Path, description = "the channel's id"), Paging),
    responses((status = 200, body = CommentPage), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn channel_comments(
    State(state): State<AppState>,
    user: AuthUser,
    Path(channel_id): Path<String>,
    Paging { page, limit }: Paging,
) -> ApiResult<ApiJson<CommentPage>> {
    Ok(ApiJson(comments::of_channel(&state, &user, &channel_id, page, limit).await?))
}

/// The comments in every channel the caller sees, the newest first (`/needlbox/comments/all`).
#[utoipa::path(get, path = "/comments", tag = "comments", security(("token" = [])), params(Paging),
    responses((status = 200, body = CommentPage), (status = 400, body = ErrorBody)))]
async fn all_comments(
    State(state): State<AppState>,
    user: AuthUser,
    Paging { page, limit }: Paging,
) -> ApiResult<ApiJson<CommentPage>> {
    Ok(ApiJson(comments::everywhere(&state, &user, page, limit).await?))
}
