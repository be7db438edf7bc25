//! Tags and bookmarks: a user's tags (create, list, rename, delete), the tags on a document (the
//! user's own, and a channel's shared ones), bookmarks, and the documents under a tag.
//!
//! Everything here is private to its user: commands go to the user's own tag book and document
//! tags, so another user's tag id is simply not found. A document the user cannot read is not
//! found either (the read policy). A channel's shared tags are its members': for anyone else the
//! channel is not found.

use std::collections::{BTreeSet, HashSet};

use commands::args;
use domain::tag::{document_tags_id, shared_tags_id, TagChange, TagCommand, TagDocument, BOOKMARK_TAG_ID};
use serde::{Deserialize, Serialize};

use crate::context::Context;
use crate::documents::{DocumentPage, DocumentRow, VISIBLE};
use crate::error::{Error, Kind, Result};
use crate::input::scope_id;
use crate::policy::{readable, require_flag, visible_channel};
use crate::viewer::Viewer;

const TAGS_OFF: &str = "tags are turned off for you";
const BOOKMARKS_OFF: &str = "bookmarks are turned off for you";

/// A tag as lists and documents show it.
#[derive(Debug, Clone, Serialize, Deserialize, sqlx::FromRow)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Tag {
    pub id: String,
    pub name: String,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DocumentTagSets {
    /// The user's own tags on the document, in the order they were put on.
    pub user_tags: Vec<Tag>,
    /// The channel's shared tags on it (empty without `channel_id`).
    pub shared_tags: Vec<Tag>,
    /// Whether the user bookmarked it.
    pub bookmarked: bool,
}

fn tag_not_found() -> Error {
    Error::new(Kind::NotFound, "tag_not_found", "tag not found")
}

/// The user's tags by name, whatever its case; the bookmark tag is never among them.
pub async fn tags_of(ctx: &Context, user_id: &str) -> Result<Vec<Tag>> {
    let mut tags: Vec<Tag> =
        ctx.db.fetch_all("SELECT tag_id AS id, name FROM tags_view WHERE user_id = $1", args![user_id]).await?;
    // Sorted here, not in SQL: the two backends order text differently.
    tags.sort_by_cached_key(|t| (t.name.to_lowercase(), t.id.clone()));
    Ok(tags)
}

async fn own_tag(ctx: &Context, user_id: &str, tag_id: &str) -> Result<Tag> {
    ctx.db
        .fetch_optional(
            "SELECT tag_id AS id, name FROM tags_view WHERE user_id = $1 AND tag_id = $2",
            args![user_id, tag_id],
        )
        .await?
        .ok_or_else(tag_not_found)
}

#[derive(sqlx::FromRow)]
struct TagOn {
    tag_id: String,
    name: Option<String>,
}

/// The tags on a document in a scope, in the order they were put on; the bookmark tag has no
/// name row.
async fn tags_on(ctx: &Context, kind: &str, scope_id: &str, deeplink: &str) -> Result<Vec<TagOn>> {
    Ok(ctx
        .db
        .fetch_all(
            "SELECT dt.tag_id, t.name FROM document_tags_view dt LEFT JOIN tags_view t ON t.tag_id = dt.tag_id \
             WHERE dt.scope_kind = $1 AND dt.scope_id = $2 AND dt.deeplink = $3 ORDER BY dt.position",
            args![kind, scope_id, deeplink],
        )
        .await?)
}

fn named(tags: Vec<TagOn>) -> Vec<Tag> {
    tags.into_iter().filter_map(|t| t.name.map(|name| Tag { id: t.tag_id, name })).collect()
}

async fn index_of(ctx: &Context, user_id: &str, deeplink: &str, channel_id: Option<&str>) -> Result<DocumentTagSets> {
    let own = tags_on(ctx, "user", user_id, deeplink).await?;
    let bookmarked = own.iter().any(|t| t.tag_id == BOOKMARK_TAG_ID);
    let shared = match channel_id {
        Some(channel) => named(tags_on(ctx, "channel", channel, deeplink).await?),
        None => vec![],
    };
    Ok(DocumentTagSets { user_tags: named(own), shared_tags: shared, bookmarked })
}

/// The tags on one document the user can read: their own, whether they bookmarked it, and with
/// `channel_id` (a channel they see) the channel's shared tags.
pub async fn document_tags(
    ctx: &Context,
    user_id: &str,
    deeplink: &str,
    channel_id: Option<String>,
) -> Result<DocumentTagSets> {
    let channel_id = scope_id("channel_id", channel_id)?;
    if let Some(channel) = &channel_id {
        visible_channel(ctx, user_id, channel).await?;
    }
    readable(ctx, user_id, deeplink, None).await?;
    index_of(ctx, user_id, deeplink, channel_id.as_deref()).await
}

/// Creates a tag named `name` for the viewer.
pub async fn create(ctx: &Context, viewer: &Viewer, name: String) -> Result<Tag> {
    require_flag(ctx, viewer, "tags", TAGS_OFF).await?;
    let tag_id = uuid::Uuid::now_v7().to_string();
    ctx.command(
        &ctx.bus.tag_books,
        &viewer.user_id,
        TagCommand::Create { user_id: viewer.user_id.clone(), tag_id: tag_id.clone(), name },
        &viewer.metadata(),
    )
    .await?;
    own_tag(ctx, &viewer.user_id, &tag_id).await
}

/// Renames one of the viewer's tags. The bookmark tag cannot be renamed.
pub async fn rename(ctx: &Context, viewer: &Viewer, tag_id: String, name: String) -> Result<Tag> {
    require_flag(ctx, viewer, "tags", TAGS_OFF).await?;
    ctx.command(
        &ctx.bus.tag_books,
        &viewer.user_id,
        TagCommand::Rename { user_id: viewer.user_id.clone(), tag_id: tag_id.clone(), name },
        &viewer.metadata(),
    )
    .await?;
    own_tag(ctx, &viewer.user_id, &tag_id).await
}

/// Deletes tags of the viewer (all of them, or none when one is not found); each comes off every
/// document it was on.
pub async fn delete(ctx: &Context, viewer: &Viewer, tag_ids: Vec<String>) -> Result<()> {
    require_flag(ctx, viewer, "tags", TAGS_OFF).await?;
    ctx.command(
        &ctx.bus.tag_books,
        &viewer.user_id,
        TagCommand::Delete { user_id: viewer.user_id.clone(), tag_ids },
        &viewer.metadata(),
    )
    .await?;
    Ok(())
}

// The tags a document should carry, as the app asks for them.
#[derive(Debug, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct TagDocumentBody {
    /// The tag ids the document should carry.
    pub tags: Vec<String>,
    /// The feed the user tagged from, recorded with the change.
    pub feed_id: Option<String>,
    /// Sets the channel's shared tags instead of the user's own: a channel the user is a member
    /// of (404 otherwise).
    pub channel_id: Option<String>,
    /// The tag ids the client showed before the user chose `tags`. With it, only the user's own
    /// changes are made (tags others put on or took off meanwhile stay so); without it `tags`
    /// replaces the set. The bookmark stays unless named: use `/bookmarks/{deeplink}`.
    pub base: Option<Vec<String>>,
}

/// Sets the tags on a document the viewer can read: their own, or with `channel_id` the
/// channel's shared tags. A user puts on their own tags; in a channel, also keeps tags other
/// members put on. Returns the document's tags after the change.
pub async fn tag_document(
    ctx: &Context,
    viewer: &Viewer,
    deeplink: &str,
    body: TagDocumentBody,
) -> Result<DocumentTagSets> {
    require_flag(ctx, viewer, "tags", TAGS_OFF).await?;
    let channel_id = scope_id("channel_id", body.channel_id)?;
    let feed_id = scope_id("feed_id", body.feed_id)?;
    if let Some(channel) = &channel_id {
        visible_channel(ctx, &viewer.user_id, channel).await?;
    }
    readable(ctx, &viewer.user_id, deeplink, None).await?;
    let mut allowed: HashSet<String> = tags_of(ctx, &viewer.user_id).await?.into_iter().map(|t| t.id).collect();
    allowed.insert(BOOKMARK_TAG_ID.to_string());
    if let Some(channel) = &channel_id {
        allowed.extend(tags_on(ctx, "channel", channel, deeplink).await?.into_iter().map(|t| t.tag_id));
    }
    let chosen: BTreeSet<String> = body.tags.into_iter().collect();
    let change = match body.base {
        Some(base) => TagChange::from_base(base.into_iter().collect(), chosen),
        None => TagChange::Replace(chosen),
    };
    let added = match &change {
        TagChange::Replace(tags) => tags,
        TagChange::Apply { add, .. } => add,
    };
    if added.iter().any(|t| !allowed.contains(t)) {
        return Err(tag_not_found());
    }
    let id = match &channel_id {
        Some(channel) => shared_tags_id(channel, deeplink),
        None => document_tags_id(&viewer.user_id, deeplink),
    };
    let command = TagDocument {
        user_id: viewer.user_id.clone(),
        deeplink: deeplink.to_string(),
        channel_id: channel_id.clone(),
        feed_id,
        change,
    };
    ctx.command(&ctx.bus.document_tags, &id, command, &viewer.metadata()).await?;
    index_of(ctx, &viewer.user_id, deeplink, channel_id.as_deref()).await
}

/// A page of the documents the user can read that carry their tag `tag` (the empty string: any
/// of their tags but the bookmark), the most recently tagged first.
async fn documents_tagged(ctx: &Context, user_id: &str, tag: &str, page: i64, limit: i64) -> Result<DocumentPage> {
    let mine = "FROM document_tags_view t WHERE t.scope_kind = 'user' AND t.scope_id = $1 \
         AND t.deeplink = d.deeplink AND (t.tag_id = $2 OR ($2 = '' AND t.tag_id <> $5))";
    let rows: Vec<DocumentRow> = ctx
        .db
        .fetch_all(
            &format!(
                "{VISIBLE} AND EXISTS (SELECT 1 {mine}) \
                 ORDER BY (SELECT MAX(t.position) {mine}) DESC, d.deeplink LIMIT $3 OFFSET $4"
            ),
            args![user_id, tag, limit + 1, page * limit, BOOKMARK_TAG_ID],
        )
        .await?;
    Ok(DocumentPage::from_rows(rows, page, limit, &ctx.access))
}

/// The documents under the user's tags, or under one of their tags with `tag_id`, the most
/// recently tagged first.
pub async fn tagged(
    ctx: &Context,
    user_id: &str,
    tag_id: Option<String>,
    page: i64,
    limit: i64,
) -> Result<DocumentPage> {
    let tag = tag_id.filter(|t| !t.is_empty()).unwrap_or_default();
    if !tag.is_empty() && tag != BOOKMARK_TAG_ID {
        own_tag(ctx, user_id, &tag).await?;
    }
    documents_tagged(ctx, user_id, &tag, page, limit).await
}

/// The documents the user bookmarked, the most recent first.
pub async fn bookmarked(ctx: &Context, user_id: &str, page: i64, limit: i64) -> Result<DocumentPage> {
    documents_tagged(ctx, user_id, BOOKMARK_TAG_ID, page, limit).await
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BookmarkState {
    pub deeplink: String,
    pub bookmarked: bool,
}

/// Puts the bookmark tag on (`on`) or takes it off a document the viewer can read; doing it
/// twice changes nothing.
pub async fn set_bookmark(ctx: &Context, viewer: &Viewer, deeplink: String, on: bool) -> Result<BookmarkState> {
    require_flag(ctx, viewer, "bookmarks", BOOKMARKS_OFF).await?;
    readable(ctx, &viewer.user_id, &deeplink, None).await?;
    let bookmark = BTreeSet::from([BOOKMARK_TAG_ID.to_string()]);
    let change = if on {
        TagChange::Apply { add: bookmark, remove: BTreeSet::new() }
    } else {
        TagChange::Apply { add: BTreeSet::new(), remove: bookmark }
    };
    let command = TagDocument {
        user_id: viewer.user_id.clone(),
        deeplink: deeplink.clone(),
        channel_id: None,
        feed_id: None,
        change,
    };
    ctx.command(&ctx.bus.document_tags, &document_tags_id(&viewer.user_id, &deeplink), command, &viewer.metadata())
        .await?;
    Ok(BookmarkState { deeplink, bookmarked: on })
}
