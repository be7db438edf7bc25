//! Comments on documents in channels: list, add, edit (the author), delete (the author or an
//! owner), counts and last seen per document, a channel's comments tab, and the global comments
//! view of every channel the user sees.
//!
//! A channel's comments are its members' (and, for a channel published to the organisation,
//! everyone's in it): anyone else gets 404 for every call, as for a channel that does not exist.
//! Writing needs the `comments` flag (403 without it). Mentions name members by user id and are
//! refused in published channels; cards from chats cannot be commented upon (the spec's text).

use std::collections::{BTreeSet, HashMap};

use axum::extract::{Path, State};
use axum::http::StatusCode;
use commands::args;
use commands::store::Arg;
use domain::channel::{reader_id, ReaderCommand, Role};
use domain::channel_document::{channel_document_id, is_chat_source, ChannelDocumentCommand, CommentContext};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::app::AppState;
use crate::auth::AuthUser;
use crate::error::{ApiJson, ApiResult, AppError, ErrorBody};
use crate::paging::Paging;
use service::channels::{placeholders, ChannelAccess};
use service::policy::require_flag;
use service::policy::{readable, visible_channel};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_comments, add_comment))
        .routes(routes!(edit_comment, delete_comment))
        .routes(routes!(comment_count))
        .routes(routes!(last_seen, mark_seen))
        .routes(routes!(channel_comments))
        .routes(routes!(all_comments))
}

const FLAG_OFF: &str = "comments are turned off for you";

fn comment_not_found() -> AppError {
    AppError::new(StatusCode::NOT_FOUND, "comment_not_found", "comment not found")
}

/// A mention, with the spec's field names.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Mention {
    /// The mentioned member's user id.
    pub mention_uuid: String,
    /// Their name as it shows.
    pub mention_value: String,
}

/// A comment as lists show it.
#[derive(Debug, Serialize, ToSchema)]
pub struct Comment {
    pub comment_id: String,
    pub channel_id: String,
    pub channel_name: String,
    pub deeplink: String,
    /// The commented document's title, when it is still there.
    pub document_title: Option<String>,
    /// The author.
    pub user_id: String,
    pub username: String,
    pub comment: String,
    pub mentions: Vec<Mention>,
    pub created_at: String,
    /// When it was last edited; `null` if never.
    pub edited_at: Option<String>,
    /// Whether the caller may edit it (its author).
    pub can_edit: bool,
    /// Whether the caller may delete it (its author, or an owner of the channel).
    pub can_delete: bool,
}

#[derive(sqlx::FromRow)]
struct CommentRow {
    comment_id: String,
    channel_id: String,
    channel_name: String,
    deeplink: String,
    document_title: Option<String>,
    author: String,
    username: Option<String>,
    text: String,
    mentioned: String,
    created_at: String,
    edited_at: Option<String>,
    /// The caller's role in the comment's channel.
    role: Option<String>,
}

/// Comments with their channel, author and document, and the caller's (`$1`) role in the channel.
const COMMENTS: &str = "SELECT cm.comment_id, cm.channel_id, c.name AS channel_name, cm.deeplink, \
     d.title AS document_title, cm.author, u.username, cm.text, cm.mentioned, cm.created_at, cm.edited_at, m.role \
     FROM comments_view cm JOIN channels_view c ON c.channel_id = cm.channel_id \
     LEFT JOIN users_view u ON u.user_id = cm.author \
     LEFT JOIN documents_view d ON d.deeplink = cm.deeplink \
     LEFT JOIN channel_members_view m ON m.channel_id = cm.channel_id AND m.user_id = $1";

/// Turns rows into comments, naming each mentioned member once for the whole list.
async fn comments_of(state: &AppState, user_id: &str, rows: Vec<CommentRow>) -> ApiResult<Vec<Comment>> {
    let mentioned: Vec<(String, Vec<String>)> = rows
        .iter()
        .map(|r| Ok((r.comment_id.clone(), serde_json::from_str(&r.mentioned)?)))
        .collect::<Result<_, serde_json::Error>>()
        .map_err(|e| AppError::internal(format!("comment mentions: {e}")))?;
    let ids: Vec<&String> = mentioned.iter().flat_map(|(_, m)| m).collect::<BTreeSet<_>>().into_iter().collect();
    let mut names = HashMap::new();
    if !ids.is_empty() {
        #[derive(sqlx::FromRow)]
        struct Name {
            user_id: String,
            username: String,
        }
        let sql = format!("SELECT user_id, username FROM users_view WHERE user_id IN ({})", placeholders(1, ids.len()));
        let found: Vec<Name> = state.db.fetch_all(&sql, ids.into_iter().map(Arg::from).collect()).await?;
        names.extend(found.into_iter().map(|n| (n.user_id, n.username)));
    }
    let mut mentioned: HashMap<String, Vec<String>> = mentioned.into_iter().collect();
    Ok(rows
        .into_iter()
        .map(|row| {
            let mine = row.author == user_id;
            let owner = row.role.as_deref() == Some(Role::Owner.as_str());
            let mentions = mentioned
                .remove(&row.comment_id)
                .unwrap_or_default()
                .into_iter()
                .map(|id| Mention { mention_value: names.get(&id).cloned().unwrap_or_default(), mention_uuid: id })
                .collect();
            Comment {
                comment_id: row.comment_id,
                channel_id: row.channel_id,
                channel_name: row.channel_name,
                deeplink: row.deeplink,
                document_title: row.document_title,
                user_id: row.author,
                username: row.username.unwrap_or_default(),
                comment: row.text,
                mentions,
                created_at: row.created_at,
                edited_at: row.edited_at,
                can_edit: mine,
                can_delete: mine || owner,
            }
        })
        .collect())
}

async fn one_comment(
    state: &AppState,
    user_id: &str,
    channel_id: &str,
    deeplink: &str,
    comment_id: &str,
) -> ApiResult<Comment> {
    let rows: Vec<CommentRow> = state
        .db
        .fetch_all(
            &format!("{COMMENTS} WHERE cm.channel_id = $2 AND cm.deeplink = $3 AND cm.comment_id = $4"),
            args![user_id, channel_id, deeplink, comment_id],
        )
        .await?;
    comments_of(state, user_id, rows).await?.into_iter().next().ok_or_else(comment_not_found)
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CommentList {
    /// Oldest first.
    pub results: Vec<Comment>,
    pub count: i64,
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
    visible_channel(&state, &user.user_id, &channel_id).await?;
    let rows: Vec<CommentRow> = state
        .db
        .fetch_all(
            &format!("{COMMENTS} WHERE cm.channel_id = $2 AND cm.deeplink = $3 ORDER BY cm.position, cm.comment_id"),
            args![user.user_id.as_str(), channel_id, deeplink],
        )
        .await?;
    let results = comments_of(&state, &user.user_id, rows).await?;
    Ok(ApiJson(CommentList { count: results.len() as i64, results }))
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

/// Reads what a comment decision needs: whether the channel is published, which mentioned users
/// are members, and whether the document came from a chat.
async fn context_of(
    state: &AppState,
    access: &ChannelAccess,
    deeplink: &str,
    mentions: &[String],
) -> ApiResult<CommentContext> {
    let mut members = BTreeSet::new();
    let asked: BTreeSet<&String> = mentions.iter().collect();
    if !asked.is_empty() && asked.len() <= domain::channel_document::MAX_MENTIONS {
        #[derive(sqlx::FromRow)]
        struct Row {
            user_id: String,
        }
        let sql = format!(
            "SELECT user_id FROM channel_members_view WHERE channel_id = $1 AND user_id IN ({})",
            placeholders(2, asked.len())
        );
        let mut params = args![access.channel.channel_id.as_str()];
        params.extend(asked.iter().map(|id| Arg::from(*id)));
        let rows: Vec<Row> = state.db.fetch_all(&sql, params).await?;
        members.extend(rows.into_iter().map(|r| r.user_id));
    }
    #[derive(sqlx::FromRow)]
    struct Origin {
        source_id: String,
        key: Option<String>,
    }
    let origin: Option<Origin> = state
        .db
        .fetch_optional(
            "SELECT d.source_id, s.key FROM documents_view d LEFT JOIN sources_view s ON s.source_id = d.source_id \
             WHERE d.deeplink = $1",
            args![deeplink],
        )
        .await?;
    let from_chat =
        origin.is_some_and(|o| is_chat_source(&o.source_id) || o.key.as_deref().is_some_and(is_chat_source));
    Ok(CommentContext { published: access.channel.published, members, from_chat })
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CommentResult {
    pub results: Comment,
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
    let access = visible_channel(&state, &user.user_id, &channel_id).await?;
    require_flag(&state, &user, "comments", FLAG_OFF).await?;
    readable(&state, &user.user_id, &deeplink, None).await?;
    let mentions: Vec<String> = body.mentions.into_iter().map(MentionIn::user_id).collect();
    let context = context_of(&state, &access, &deeplink, &mentions).await?;
    let comment_id = uuid::Uuid::now_v7().to_string();
    let command = ChannelDocumentCommand::AddComment {
        channel_id: channel_id.clone(),
        deeplink: deeplink.clone(),
        comment_id: comment_id.clone(),
        actor: access.actor(&user.user_id),
        text: body.comment,
        mentions,
        context,
    };
    state
        .command(&state.bus.channel_documents, &channel_document_id(&channel_id, &deeplink), command, &user.metadata())
        .await?;
    Ok(ApiJson(CommentResult {
        results: one_comment(&state, &user.user_id, &channel_id, &deeplink, &comment_id).await?,
    }))
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
    let access = visible_channel(&state, &user.user_id, &channel_id).await?;
    require_flag(&state, &user, "comments", FLAG_OFF).await?;
    let mentions: Vec<String> = body.mentions.into_iter().map(MentionIn::user_id).collect();
    let mut context = context_of(&state, &access, &deeplink, &mentions).await?;
    // A comment made before its card was known to come from a chat may still be corrected.
    context.from_chat = false;
    let command = ChannelDocumentCommand::EditComment {
        channel_id: channel_id.clone(),
        deeplink: deeplink.clone(),
        comment_id: comment_id.clone(),
        actor: access.actor(&user.user_id),
        text: body.comment,
        mentions,
        context,
    };
    state
        .command(&state.bus.channel_documents, &channel_document_id(&channel_id, &deeplink), command, &user.metadata())
        .await?;
    Ok(ApiJson(CommentResult {
        results: one_comment(&state, &user.user_id, &channel_id, &deeplink, &comment_id).await?,
    }))
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
    let access = visible_channel(&state, &user.user_id, &channel_id).await?;
    require_flag(&state, &user, "comments", FLAG_OFF).await?;
    let command = ChannelDocumentCommand::DeleteComment {
        channel_id: channel_id.clone(),
        deeplink: deeplink.clone(),
        comment_id,
        actor: access.actor(&user.user_id),
    };
    state
        .command(&state.bus.channel_documents, &channel_document_id(&channel_id, &deeplink), command, &user.metadata())
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// How many comments a document has in a channel, and how many of them others wrote since the
/// caller last saw them.
#[derive(Debug, Serialize, ToSchema)]
pub struct CommentCount {
    pub count: i64,
    pub unseen: i64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CommentCountResult {
    pub results: CommentCount,
}

/// The caller's last sight of a document's comments in a channel.
#[derive(Debug, Serialize, ToSchema)]
pub struct LastSeen {
    /// The time of the newest comment the caller has seen; `null` if none.
    pub last_seen: Option<String>,
    /// Comments by others after it.
    pub unseen: i64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct LastSeenResult {
    pub results: LastSeen,
}

#[derive(sqlx::FromRow)]
struct Counts {
    count: i64,
    unseen: i64,
    newest: Option<String>,
    seen_at: Option<String>,
}

async fn counts(state: &AppState, user_id: &str, channel_id: &str, deeplink: &str) -> ApiResult<Counts> {
    let row: Option<Counts> = state
        .db
        .fetch_optional(
            "SELECT CAST(COUNT(cm.comment_id) AS BIGINT) AS count, \
             CAST(COALESCE(SUM(CASE WHEN cm.author <> $1 AND (r.seen_at IS NULL OR cm.created_at > r.seen_at) \
             THEN 1 ELSE 0 END), 0) AS BIGINT) AS unseen, MAX(cm.created_at) AS newest, MAX(r.seen_at) AS seen_at \
             FROM (SELECT CAST($2 AS TEXT) AS channel_id, CAST($3 AS TEXT) AS deeplink) k \
             LEFT JOIN comments_view cm ON cm.channel_id = k.channel_id AND cm.deeplink = k.deeplink \
             LEFT JOIN comment_reads_view r ON r.channel_id = k.channel_id AND r.deeplink = k.deeplink AND r.user_id = $1",
            args![user_id, channel_id, deeplink],
        )
        .await?;
    Ok(row.unwrap_or(Counts { count: 0, unseen: 0, newest: None, seen_at: None }))
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
    visible_channel(&state, &user.user_id, &channel_id).await?;
    let c = counts(&state, &user.user_id, &channel_id, &deeplink).await?;
    Ok(ApiJson(CommentCountResult { results: CommentCount { count: c.count, unseen: c.unseen } }))
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
    visible_channel(&state, &user.user_id, &channel_id).await?;
    let c = counts(&state, &user.user_id, &channel_id, &deeplink).await?;
    Ok(ApiJson(LastSeenResult { results: LastSeen { last_seen: c.seen_at, unseen: c.unseen } }))
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
    visible_channel(&state, &user.user_id, &channel_id).await?;
    let c = counts(&state, &user.user_id, &channel_id, &deeplink).await?;
    if let Some(newest) = c.newest.filter(|newest| c.seen_at.as_ref().is_none_or(|seen| seen < newest)) {
        let command = ReaderCommand::MarkCommentsSeen {
            channel_id: channel_id.clone(),
            user_id: user.user_id.clone(),
            deeplink: deeplink.clone(),
            at: newest,
        };
        let id = reader_id(&channel_id, &user.user_id);
        state.command(&state.bus.channel_readers, &id, command, &user.metadata()).await?;
    }
    let c = counts(&state, &user.user_id, &channel_id, &deeplink).await?;
    Ok(ApiJson(LastSeenResult { results: LastSeen { last_seen: c.seen_at, unseen: c.unseen } }))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CommentPage {
    /// The newest first.
    pub results: Vec<Comment>,
    pub page: i64,
    pub has_more: bool,
}

async fn comment_page(
    state: &AppState,
    user_id: &str,
    condition: &str,
    scope: &str,
    paging: Paging,
) -> ApiResult<CommentPage> {
    let Paging { page, limit } = paging;
    let rows: Vec<CommentRow> = state
        .db
        .fetch_all(
            &format!("{COMMENTS} WHERE {condition} ORDER BY cm.position DESC, cm.comment_id DESC LIMIT $3 OFFSET $4"),
            args![user_id, scope, limit + 1, paging.offset()],
        )
        .await?;
    let has_more = rows.len() as i64 > limit;
    let rows = rows.into_iter().take(limit as usize).collect();
    Ok(CommentPage { results: comments_of(state, user_id, rows).await?, page, has_more })
}

/// A channel's comments on all its documents, the newest first (the channel's comments tab).
#[utoipa::path(get, path = "/channels/{id}/comments", tag = "comments", security(("token" = [])),
    params(("id" = String, Path, description = "the channel's id"), Paging),
    responses((status = 200, body = CommentPage), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn channel_comments(
    State(state): State<AppState>,
    user: AuthUser,
    Path(channel_id): Path<String>,
    paging: Paging,
) -> ApiResult<ApiJson<CommentPage>> {
    visible_channel(&state, &user.user_id, &channel_id).await?;
    Ok(ApiJson(comment_page(&state, &user.user_id, "cm.channel_id = $2", &channel_id, paging).await?))
}

/// The comments in every channel the caller sees, the newest first (`/needlbox/comments/all`).
#[utoipa::path(get, path = "/comments", tag = "comments", security(("token" = [])), params(Paging),
    responses((status = 200, body = CommentPage), (status = 400, body = ErrorBody)))]
async fn all_comments(
    State(state): State<AppState>,
    user: AuthUser,
    paging: Paging,
) -> ApiResult<ApiJson<CommentPage>> {
    let condition = "(m.user_id IS NOT NULL OR c.published) AND CAST(c.organization_id AS TEXT) = $2";
    Ok(ApiJson(
        comment_page(&state, &user.user_id, condition, &domain::channel::ORGANIZATION_ID.to_string(), paging).await?,
    ))
}
