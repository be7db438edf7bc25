//! Comments on documents in channels: list, add, edit (the author), delete (the author or an
//! owner), counts and last seen per document, a channel's comments, and the comments of every
//! channel the viewer sees.
//!
//! A channel's comments are for those who see the channel (the read policy's
//! [`visible_channel`]); anyone else is told the channel does not exist. Writing needs the
//! `comments` flag. Mentions name members by user id and are refused in published channels;
//! cards from chats cannot be commented upon (the spec's text). The channel-document aggregate
//! decides; this module reads what its decisions need.

use std::collections::{BTreeSet, HashMap};

use commands::args;
use commands::store::Arg;
use domain::channel::{reader_id, ReaderCommand, Role, ORGANIZATION_ID};
use domain::channel_document::{channel_document_id, is_chat_source, ChannelDocumentCommand, CommentContext};
use serde::Serialize;

use crate::channels::ChannelAccess;
use crate::context::Context;
use crate::error::{Error, Kind, Result};
use crate::policy::{readable, require_flag, seen_channel_condition, visible_channel};
use crate::sql::placeholders;
use crate::viewer::Viewer;

const FLAG_OFF: &str = "comments are turned off for you";

fn comment_not_found() -> Error {
    Error::new(Kind::NotFound, "comment_not_found", "comment not found")
}

/// A mention, with the spec's field names.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Mention {
    /// The mentioned member's user id.
    pub mention_uuid: String,
    /// Their name as it shows.
    pub mention_value: String,
}

/// A comment as lists show it.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
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

/// Comments with their channel `c`, author and document, and the caller's (`$1`) role in the
/// channel.
const COMMENTS: &str = "SELECT cm.comment_id, cm.channel_id, c.name AS channel_name, cm.deeplink, \
     d.title AS document_title, cm.author, u.username, cm.text, cm.mentioned, cm.created_at, cm.edited_at, m.role \
     FROM comments_view cm JOIN channels_view c ON c.channel_id = cm.channel_id \
     LEFT JOIN users_view u ON u.user_id = cm.author \
     LEFT JOIN documents_view d ON d.deeplink = cm.deeplink \
     LEFT JOIN channel_members_view m ON m.channel_id = cm.channel_id AND m.user_id = $1";

/// Turns rows into comments, naming each mentioned member once for the whole list.
async fn comments_of(ctx: &Context, user_id: &str, rows: Vec<CommentRow>) -> Result<Vec<Comment>> {
    let mentioned: Vec<(String, Vec<String>)> = rows
        .iter()
        .map(|r| Ok((r.comment_id.clone(), serde_json::from_str(&r.mentioned)?)))
        .collect::<Result<_, serde_json::Error>>()
        .map_err(|e| Error::internal(format!("comment mentions: {e}")))?;
    let ids: Vec<&String> = mentioned.iter().flat_map(|(_, m)| m).collect::<BTreeSet<_>>().into_iter().collect();
    let mut names = HashMap::new();
    if !ids.is_empty() {
        #[derive(sqlx::FromRow)]
        struct Name {
            user_id: String,
            username: String,
        }
        let sql = format!("SELECT user_id, username FROM users_view WHERE user_id IN ({})", placeholders(1, ids.len()));
        let found: Vec<Name> = ctx.db.fetch_all(&sql, ids.into_iter().map(Arg::from).collect()).await?;
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
    ctx: &Context,
    user_id: &str,
    channel_id: &str,
    deeplink: &str,
    comment_id: &str,
) -> Result<Comment> {
    let rows: Vec<CommentRow> = ctx
        .db
        .fetch_all(
            &format!("{COMMENTS} WHERE cm.channel_id = $2 AND cm.deeplink = $3 AND cm.comment_id = $4"),
            args![user_id, channel_id, deeplink, comment_id],
        )
        .await?;
    comments_of(ctx, user_id, rows).await?.into_iter().next().ok_or_else(comment_not_found)
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CommentList {
    /// Oldest first.
    pub results: Vec<Comment>,
    pub count: i64,
}

/// The comments on a document in a channel the viewer sees, the oldest first.
pub async fn list(ctx: &Context, viewer: &Viewer, channel_id: &str, deeplink: &str) -> Result<CommentList> {
    visible_channel(ctx, &viewer.user_id, channel_id).await?;
    let rows: Vec<CommentRow> = ctx
        .db
        .fetch_all(
            &format!("{COMMENTS} WHERE cm.channel_id = $2 AND cm.deeplink = $3 ORDER BY cm.position, cm.comment_id"),
            args![viewer.user_id.as_str(), channel_id, deeplink],
        )
        .await?;
    let results = comments_of(ctx, &viewer.user_id, rows).await?;
    Ok(CommentList { count: results.len() as i64, results })
}

/// Reads what a comment decision needs: whether the channel is published, which mentioned users
/// are members, and whether the document came from a chat.
async fn context_of(
    ctx: &Context,
    access: &ChannelAccess,
    deeplink: &str,
    mentions: &[String],
) -> Result<CommentContext> {
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
        let rows: Vec<Row> = ctx.db.fetch_all(&sql, params).await?;
        members.extend(rows.into_iter().map(|r| r.user_id));
    }
    #[derive(sqlx::FromRow)]
    struct Origin {
        source_id: String,
        key: Option<String>,
    }
    let origin: Option<Origin> = ctx
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

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CommentResult {
    pub results: Comment,
}

/// Comments `text` on a document the viewer can read, in a channel they see, mentioning the
/// members `mentions` (user ids). Answers the new comment.
pub async fn add(
    ctx: &Context,
    viewer: &Viewer,
    channel_id: &str,
    deeplink: &str,
    text: String,
    mentions: Vec<String>,
) -> Result<CommentResult> {
    let access = visible_channel(ctx, &viewer.user_id, channel_id).await?;
    require_flag(ctx, viewer, "comments", FLAG_OFF).await?;
    readable(ctx, &viewer.user_id, deeplink, None).await?;
    let context = context_of(ctx, &access, deeplink, &mentions).await?;
    let comment_id = uuid::Uuid::now_v7().to_string();
    let command = ChannelDocumentCommand::AddComment {
        channel_id: channel_id.to_string(),
        deeplink: deeplink.to_string(),
        comment_id: comment_id.clone(),
        actor: access.actor(&viewer.user_id),
        text,
        mentions,
        context,
    };
    ctx.command(&ctx.bus.channel_documents, &channel_document_id(channel_id, deeplink), command, &viewer.metadata())
        .await?;
    Ok(CommentResult { results: one_comment(ctx, &viewer.user_id, channel_id, deeplink, &comment_id).await? })
}

/// Edits a comment (its author only) with the same rules as a new one; an edit that changes
/// nothing records nothing. Answers the comment after it.
pub async fn edit(
    ctx: &Context,
    viewer: &Viewer,
    channel_id: &str,
    deeplink: &str,
    comment_id: &str,
    text: String,
    mentions: Vec<String>,
) -> Result<CommentResult> {
    let access = visible_channel(ctx, &viewer.user_id, channel_id).await?;
    require_flag(ctx, viewer, "comments", FLAG_OFF).await?;
    let mut context = context_of(ctx, &access, deeplink, &mentions).await?;
    // A comment made before its card was known to come from a chat may still be corrected.
    context.from_chat = false;
    let command = ChannelDocumentCommand::EditComment {
        channel_id: channel_id.to_string(),
        deeplink: deeplink.to_string(),
        comment_id: comment_id.to_string(),
        actor: access.actor(&viewer.user_id),
        text,
        mentions,
        context,
    };
    ctx.command(&ctx.bus.channel_documents, &channel_document_id(channel_id, deeplink), command, &viewer.metadata())
        .await?;
    Ok(CommentResult { results: one_comment(ctx, &viewer.user_id, channel_id, deeplink, comment_id).await? })
}

/// Deletes a comment (its author, or an owner of the channel).
pub async fn delete(ctx: &Context, viewer: &Viewer, channel_id: &str, deeplink: &str, comment_id: &str) -> Result<()> {
    let access = visible_channel(ctx, &viewer.user_id, channel_id).await?;
    require_flag(ctx, viewer, "comments", FLAG_OFF).await?;
    let command = ChannelDocumentCommand::DeleteComment {
        channel_id: channel_id.to_string(),
        deeplink: deeplink.to_string(),
        comment_id: comment_id.to_string(),
        actor: access.actor(&viewer.user_id),
    };
    ctx.command(&ctx.bus.channel_documents, &channel_document_id(channel_id, deeplink), command, &viewer.metadata())
        .await?;
    Ok(())
}

/// How many comments a document has in a channel, and how many of them others wrote since the
/// caller last saw them.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CommentCount {
    pub count: i64,
    pub unseen: i64,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CommentCountResult {
    pub results: CommentCount,
}

/// The caller's last sight of a document's comments in a channel.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LastSeen {
    /// The time of the newest comment the caller has seen; `null` if none.
    pub last_seen: Option<String>,
    /// Comments by others after it.
    pub unseen: i64,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
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

impl Counts {
    fn last_seen(self) -> LastSeenResult {
        LastSeenResult { results: LastSeen { last_seen: self.seen_at, unseen: self.unseen } }
    }
}

async fn counts(ctx: &Context, user_id: &str, channel_id: &str, deeplink: &str) -> Result<Counts> {
    let row: Option<Counts> = ctx
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

/// How many comments a document has in a channel the viewer sees, and how many are unseen.
pub async fn count(ctx: &Context, viewer: &Viewer, channel_id: &str, deeplink: &str) -> Result<CommentCountResult> {
    visible_channel(ctx, &viewer.user_id, channel_id).await?;
    let c = counts(ctx, &viewer.user_id, channel_id, deeplink).await?;
    Ok(CommentCountResult { results: CommentCount { count: c.count, unseen: c.unseen } })
}

/// When the viewer last saw a document's comments in a channel, and how many came since.
pub async fn last_seen(ctx: &Context, viewer: &Viewer, channel_id: &str, deeplink: &str) -> Result<LastSeenResult> {
    visible_channel(ctx, &viewer.user_id, channel_id).await?;
    Ok(counts(ctx, &viewer.user_id, channel_id, deeplink).await?.last_seen())
}

/// Records that the viewer has seen a document's comments in a channel, up to the newest there
/// is; nothing is recorded when there is nothing new. Answers their last sight after it.
pub async fn mark_seen(ctx: &Context, viewer: &Viewer, channel_id: &str, deeplink: &str) -> Result<LastSeenResult> {
    visible_channel(ctx, &viewer.user_id, channel_id).await?;
    let c = counts(ctx, &viewer.user_id, channel_id, deeplink).await?;
    if let Some(newest) = c.newest.filter(|newest| c.seen_at.as_ref().is_none_or(|seen| seen < newest)) {
        let command = ReaderCommand::MarkCommentsSeen {
            channel_id: channel_id.to_string(),
            user_id: viewer.user_id.clone(),
            deeplink: deeplink.to_string(),
            at: newest,
        };
        let id = reader_id(channel_id, &viewer.user_id);
        ctx.command(&ctx.bus.channel_readers, &id, command, &viewer.metadata()).await?;
    }
    Ok(counts(ctx, &viewer.user_id, channel_id, deeplink).await?.last_seen())
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CommentPage {
    /// The newest first.
    pub results: Vec<Comment>,
    pub page: i64,
    pub has_more: bool,
}

/// A page of the comments meeting `condition` (on [`COMMENTS`], with `$2` bound to `scope`),
/// the newest first.
async fn comment_page(
    ctx: &Context,
    user_id: &str,
    condition: &str,
    scope: &str,
    page: i64,
    limit: i64,
) -> Result<CommentPage> {
    let rows: Vec<CommentRow> = ctx
        .db
        .fetch_all(
            &format!("{COMMENTS} WHERE {condition} ORDER BY cm.position DESC, cm.comment_id DESC LIMIT $3 OFFSET $4"),
            args![user_id, scope, limit + 1, page * limit],
        )
        .await?;
    let has_more = rows.len() as i64 > limit;
    let rows = rows.into_iter().take(limit as usize).collect();
    Ok(CommentPage { results: comments_of(ctx, user_id, rows).await?, page, has_more })
}

/// A channel's comments on all its documents, the newest first, `limit` a page.
pub async fn of_channel(
    ctx: &Context,
    viewer: &Viewer,
    channel_id: &str,
    page: i64,
    limit: i64,
) -> Result<CommentPage> {
    visible_channel(ctx, &viewer.user_id, channel_id).await?;
    comment_page(ctx, &viewer.user_id, "cm.channel_id = $2", channel_id, page, limit).await
}

/// The comments in every channel the viewer sees, the newest first, `limit` a page.
pub async fn everywhere(ctx: &Context, viewer: &Viewer, page: i64, limit: i64) -> Result<CommentPage> {
    let condition = concat!(seen_channel_condition!(), " AND CAST(c.organization_id AS TEXT) = $2");
    comment_page(ctx, &viewer.user_id, condition, &ORGANIZATION_ID.to_string(), page, limit).await
}
