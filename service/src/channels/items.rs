//! Documents shared into a channel: list them (all, or those carrying a shared tag), share one
//! the viewer can read, take one out, and the channel's shared tags.

use std::collections::HashMap;

use commands::args;
use commands::store::Arg;
use domain::channel_document::{channel_document_id, ChannelDocumentCommand};
use serde::Serialize;

use crate::context::Context;
use crate::documents::{DocumentCard, DocumentRow, ANY};
use crate::error::{Error, Result};
use crate::policy::{readable, visible_channel};
use crate::sql::placeholders;
use crate::viewer::Viewer;

/// A document shared into a channel.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ChannelItem {
    #[serde(flatten)]
    pub document: DocumentCard,
    pub channel_id: String,
    pub shared_by: String,
    pub shared_at: String,
    pub comment_count: i64,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ChannelItemPage {
    pub results: Vec<ChannelItem>,
    pub page: i64,
    pub has_more: bool,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
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

/// The shared items of `$1`, with their comment counts.
const ITEMS: &str = "SELECT i.deeplink, i.shared_by, i.shared_at, \
     (SELECT COUNT(*) FROM comments_view cm WHERE cm.channel_id = i.channel_id AND cm.deeplink = i.deeplink) \
     AS comment_count FROM channel_items_view i WHERE i.channel_id = $1";

/// The channel's items of `rows` as cards, in that order; documents gone meanwhile are left out.
/// Any document shared into a channel the user sees is one they may read (the policy's rule 3),
/// so the cards are read without a further check.
async fn items_of(ctx: &Context, user_id: &str, channel_id: &str, rows: Vec<ItemRow>) -> Result<Vec<ChannelItem>> {
    if rows.is_empty() {
        return Ok(vec![]);
    }
    let sql = format!("{ANY} AND d.deeplink IN ({})", placeholders(2, rows.len()));
    let mut params = args![user_id];
    params.extend(rows.iter().map(|r| Arg::from(&r.deeplink)));
    let cards: Vec<DocumentRow> = ctx.db.fetch_all(&sql, params).await?;
    let mut cards: HashMap<String, DocumentCard> = cards
        .into_iter()
        .map(|row| DocumentCard::from_row(row, &ctx.access))
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

/// The documents shared into a channel the viewer sees, the most recently shared first, `limit`
/// a page; with a `tag_id`, those carrying that shared tag.
pub async fn list(
    ctx: &Context,
    viewer: &Viewer,
    channel_id: &str,
    tag_id: Option<&str>,
    page: i64,
    limit: i64,
) -> Result<ChannelItemPage> {
    visible_channel(ctx, &viewer.user_id, channel_id).await?;
    let tag = tag_id.unwrap_or_default();
    let rows: Vec<ItemRow> = ctx
        .db
        .fetch_all(
            &format!(
                "{ITEMS} AND ($2 = '' OR EXISTS (SELECT 1 FROM document_tags_view dt WHERE dt.scope_kind = 'channel' \
                 AND dt.scope_id = i.channel_id AND dt.deeplink = i.deeplink AND dt.tag_id = $2)) \
                 ORDER BY i.position DESC, i.deeplink LIMIT $3 OFFSET $4"
            ),
            args![channel_id, tag.trim(), limit + 1, page * limit],
        )
        .await?;
    let has_more = rows.len() as i64 > limit;
    let rows = rows.into_iter().take(limit as usize).collect();
    Ok(ChannelItemPage { results: items_of(ctx, &viewer.user_id, channel_id, rows).await?, page, has_more })
}

/// Shares a document the viewer can read into a channel they see, so every member can read it;
/// sharing it again changes nothing. Answers the shared item.
pub async fn share(ctx: &Context, viewer: &Viewer, channel_id: &str, deeplink: &str) -> Result<ChannelItemResult> {
    let access = visible_channel(ctx, &viewer.user_id, channel_id).await?;
    let deeplink = deeplink.trim();
    readable(ctx, &viewer.user_id, deeplink, None).await?;
    let command = ChannelDocumentCommand::Share {
        channel_id: channel_id.to_string(),
        deeplink: deeplink.to_string(),
        actor: access.actor(&viewer.user_id),
    };
    ctx.command(&ctx.bus.channel_documents, &channel_document_id(channel_id, deeplink), command, &viewer.metadata())
        .await?;
    let rows: Vec<ItemRow> =
        ctx.db.fetch_all(&format!("{ITEMS} AND i.deeplink = $2"), args![channel_id, deeplink]).await?;
    let item = items_of(ctx, &viewer.user_id, channel_id, rows).await?.into_iter().next();
    Ok(ChannelItemResult { results: item.ok_or_else(|| Error::not_found("document not found"))? })
}

/// Takes a document out of a channel (whoever shared it, or an owner); its comments stay.
pub async fn unshare(ctx: &Context, viewer: &Viewer, channel_id: &str, deeplink: &str) -> Result<()> {
    let access = visible_channel(ctx, &viewer.user_id, channel_id).await?;
    let command = ChannelDocumentCommand::Unshare {
        channel_id: channel_id.to_string(),
        deeplink: deeplink.to_string(),
        actor: access.actor(&viewer.user_id),
    };
    ctx.command(&ctx.bus.channel_documents, &channel_document_id(channel_id, deeplink), command, &viewer.metadata())
        .await?;
    Ok(())
}

/// A shared tag of a channel, and how many of its shared documents carry it.
#[derive(Debug, Serialize, sqlx::FromRow)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ChannelTag {
    pub id: String,
    pub name: String,
    pub count: i64,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ChannelTagList {
    /// By name.
    pub results: Vec<ChannelTag>,
}

/// The shared tags on the documents of a channel the viewer sees, with counts, by name.
pub async fn tags(ctx: &Context, viewer: &Viewer, channel_id: &str) -> Result<ChannelTagList> {
    visible_channel(ctx, &viewer.user_id, channel_id).await?;
    let mut tags: Vec<ChannelTag> = ctx
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
    Ok(ChannelTagList { results: tags })
}
