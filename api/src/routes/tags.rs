//! Tags and bookmarks: a user's tags (create, list, rename, delete), the tags on a document (the
//! user's own, and a channel's shared ones), bookmarks, and the documents under a tag.
//!
//! Everything here is private to its user: commands go to the user's own tag book and document
//! tags, so another user's tag id is simply not found. A document the user cannot read is not
//! found either (the documents route's visibility rule). A channel's shared tags are its
//! members': for anyone else the channel is not found (404).

use std::collections::{BTreeSet, HashSet};

use axum::extract::{Path, State};
use axum::http::StatusCode;
use commands::args;
use domain::tag::{document_tags_id, shared_tags_id, TagChange, TagCommand, TagDocument, BOOKMARK_TAG_ID};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::app::AppState;
use crate::auth::AuthUser;
use crate::error::{ApiJson, ApiQuery, ApiResult, AppError, ErrorBody};
use crate::paging::Paging;
use service::documents::DocumentPage;
use service::documents::{DocumentCard, DocumentRow, VISIBLE};
use service::input::scope_id;
use service::policy::{readable, require_flag, visible_channel};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(tag_index, create_tag))
        .routes(routes!(user_tags))
        .routes(routes!(rename_tag, tag_document))
        .routes(routes!(delete_tags))
        .routes(routes!(tagged_documents))
        .routes(routes!(bookmarks))
        .routes(routes!(bookmark, unbookmark))
}

/// A tag as lists and documents show it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, sqlx::FromRow)]
pub struct Tag {
    pub id: String,
    pub name: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct TagResult {
    pub results: Tag,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct TagList {
    /// The user's tags by name, whatever its case; the bookmark tag is never among them.
    pub results: Vec<Tag>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct DocumentTagSets {
    /// The user's own tags on the document, in the order they were put on.
    pub user_tags: Vec<Tag>,
    /// The channel's shared tags on it (empty without `channel_id`).
    pub shared_tags: Vec<Tag>,
    /// Whether the user bookmarked it.
    pub bookmarked: bool,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct DocumentTagIndex {
    pub results: DocumentTagSets,
}

fn tag_not_found() -> AppError {
    AppError::new(StatusCode::NOT_FOUND, "tag_not_found", "tag not found")
}

async fn own_tags(state: &AppState, user_id: &str) -> ApiResult<Vec<Tag>> {
    let mut tags: Vec<Tag> =
        state.db.fetch_all("SELECT tag_id AS id, name FROM tags_view WHERE user_id = $1", args![user_id]).await?;
    // Sorted here, not in SQL: the two backends order text differently.
    tags.sort_by_cached_key(|t| (t.name.to_lowercase(), t.id.clone()));
    Ok(tags)
}

async fn own_tag(state: &AppState, user_id: &str, tag_id: &str) -> ApiResult<Tag> {
    state
        .db
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
async fn tags_on(state: &AppState, kind: &str, scope_id: &str, deeplink: &str) -> ApiResult<Vec<TagOn>> {
    Ok(state
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

async fn index_of(
    state: &AppState,
    user_id: &str,
    deeplink: &str,
    channel_id: Option<&str>,
) -> ApiResult<DocumentTagSets> {
    let own = tags_on(state, "user", user_id, deeplink).await?;
    let bookmarked = own.iter().any(|t| t.tag_id == BOOKMARK_TAG_ID);
    let shared = match channel_id {
        Some(channel) => named(tags_on(state, "channel", channel, deeplink).await?),
        None => vec![],
    };
    Ok(DocumentTagSets { user_tags: named(own), shared_tags: shared, bookmarked })
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct TagIndexQuery {
    /// The document's deeplink (`deeplink` works too).
    #[serde(alias = "deeplink")]
    pub deep_link: String,
    /// A channel whose shared tags to include: one the user is a member of (404 otherwise).
    pub channel_id: Option<String>,
}

/// The tags on one document: the user's own, whether they bookmarked it, and with `channel_id`
/// the channel's shared tags.
#[utoipa::path(get, path = "/tag", tag = "tags", security(("token" = [])), params(TagIndexQuery),
    responses((status = 200, body = DocumentTagIndex), (status = 404, body = ErrorBody)))]
async fn tag_index(
    State(state): State<AppState>,
    user: AuthUser,
    ApiQuery(query): ApiQuery<TagIndexQuery>,
) -> ApiResult<ApiJson<DocumentTagIndex>> {
    let channel_id = scope_id("channel_id", query.channel_id)?;
    if let Some(channel) = &channel_id {
        visible_channel(&state, &user.user_id, channel).await?;
    }
    readable(&state, &user.user_id, &query.deep_link, None).await?;
    let results = index_of(&state, &user.user_id, &query.deep_link, channel_id.as_deref()).await?;
    Ok(ApiJson(DocumentTagIndex { results }))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateTagBody {
    /// The new tag's name (`name` works too): trimmed, 1 to 50 characters, unique among the
    /// user's tags whatever its case.
    #[serde(alias = "name")]
    pub tag: String,
}

/// Creates a tag for the user and answers it, so a tag made inline can be selected at once.
#[utoipa::path(post, path = "/tag", tag = "tags", security(("token" = [])), request_body = CreateTagBody,
    responses((status = 200, body = TagResult), (status = 403, body = ErrorBody), (status = 409, body = ErrorBody),
        (status = 422, body = ErrorBody)))]
async fn create_tag(
    State(state): State<AppState>,
    user: AuthUser,
    ApiJson(body): ApiJson<CreateTagBody>,
) -> ApiResult<ApiJson<TagResult>> {
    require_flag(&state, &user, "tags", "tags are turned off for you").await?;
    let tag_id = uuid::Uuid::now_v7().to_string();
    state
        .command(
            &state.bus.tag_books,
            &user.user_id,
            TagCommand::Create { user_id: user.user_id.clone(), tag_id: tag_id.clone(), name: body.tag },
            &user.metadata(),
        )
        .await?;
    Ok(ApiJson(TagResult { results: own_tag(&state, &user.user_id, &tag_id).await? }))
}

/// The user's tags, by name.
#[utoipa::path(get, path = "/tag/user-tags", tag = "tags", security(("token" = [])),
    responses((status = 200, body = TagList)))]
async fn user_tags(State(state): State<AppState>, user: AuthUser) -> ApiResult<ApiJson<TagList>> {
    Ok(ApiJson(TagList { results: own_tags(&state, &user.user_id).await? }))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RenameTagBody {
    /// The new name, with the same rules as a new tag's.
    pub name: String,
}

/// Renames one of the user's tags (`id` is the tag's id). The bookmark tag cannot be renamed.
#[utoipa::path(put, path = "/tag/{id}", tag = "tags", security(("token" = [])),
    params(("id" = String, Path, description = "the tag's id")), request_body = RenameTagBody,
    responses((status = 200, body = TagResult), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn rename_tag(
    State(state): State<AppState>,
    user: AuthUser,
    Path(tag_id): Path<String>,
    ApiJson(body): ApiJson<RenameTagBody>,
) -> ApiResult<ApiJson<TagResult>> {
    require_flag(&state, &user, "tags", "tags are turned off for you").await?;
    state
        .command(
            &state.bus.tag_books,
            &user.user_id,
            TagCommand::Rename { user_id: user.user_id.clone(), tag_id: tag_id.clone(), name: body.name },
            &user.metadata(),
        )
        .await?;
    Ok(ApiJson(TagResult { results: own_tag(&state, &user.user_id, &tag_id).await? }))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DeleteTagsBody {
    /// The ids of the tags to delete: all of them are deleted, or none when one is not found.
    pub tag_ids: Vec<String>,
}

/// Deletes tags of the user; each comes off every document it was on.
#[utoipa::path(post, path = "/tag/delete", tag = "tags", security(("token" = [])), request_body = DeleteTagsBody,
    responses((status = 204), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 422, body = ErrorBody)))]
async fn delete_tags(
    State(state): State<AppState>,
    user: AuthUser,
    ApiJson(body): ApiJson<DeleteTagsBody>,
) -> ApiResult<StatusCode> {
    require_flag(&state, &user, "tags", "tags are turned off for you").await?;
    state
        .command(
            &state.bus.tag_books,
            &user.user_id,
            TagCommand::Delete { user_id: user.user_id.clone(), tag_ids: body.tag_ids },
            &user.metadata(),
        )
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Debug, Deserialize, ToSchema)]
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

/// Sets the tags on a document (`id` is the document's deeplink): the user's own, or with
/// `channel_id` the channel's shared tags. Answers the document's tags after the change.
#[utoipa::path(post, path = "/tag/{id}", tag = "tags", security(("token" = [])),
    params(("id" = String, Path, description = "the document's deeplink")), request_body = TagDocumentBody,
    responses((status = 200, body = DocumentTagIndex), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn tag_document(
    State(state): State<AppState>,
    user: AuthUser,
    Path(deeplink): Path<String>,
    ApiJson(body): ApiJson<TagDocumentBody>,
) -> ApiResult<ApiJson<DocumentTagIndex>> {
    require_flag(&state, &user, "tags", "tags are turned off for you").await?;
    let channel_id = scope_id("channel_id", body.channel_id)?;
    let feed_id = scope_id("feed_id", body.feed_id)?;
    if let Some(channel) = &channel_id {
        visible_channel(&state, &user.user_id, channel).await?;
    }
    readable(&state, &user.user_id, &deeplink, None).await?;
    // A user puts on their own tags; in a channel, also keeps tags other members put on.
    let mut allowed: HashSet<String> = own_tags(&state, &user.user_id).await?.into_iter().map(|t| t.id).collect();
    allowed.insert(BOOKMARK_TAG_ID.to_string());
    if let Some(channel) = &channel_id {
        allowed.extend(tags_on(&state, "channel", channel, &deeplink).await?.into_iter().map(|t| t.tag_id));
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
        Some(channel) => shared_tags_id(channel, &deeplink),
        None => document_tags_id(&user.user_id, &deeplink),
    };
    let command = TagDocument {
        user_id: user.user_id.clone(),
        deeplink: deeplink.clone(),
        channel_id: channel_id.clone(),
        feed_id,
        change,
    };
    state.command(&state.bus.document_tags, &id, command, &user.metadata()).await?;
    let results = index_of(&state, &user.user_id, &deeplink, channel_id.as_deref()).await?;
    Ok(ApiJson(DocumentTagIndex { results }))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct TaggedQuery {
    /// Only documents with this tag of the user's; without it, documents with any of them.
    pub tag_id: Option<String>,
}

/// A page of the documents the user can read that carry their tag `tag` (the empty string: any
/// of their tags but the bookmark), the most recently tagged first.
async fn documents_tagged(state: &AppState, user_id: &str, tag: &str, paging: Paging) -> ApiResult<DocumentPage> {
    let Paging { page, limit } = paging;
    let mine = "FROM document_tags_view t WHERE t.scope_kind = 'user' AND t.scope_id = $1 \
         AND t.deeplink = d.deeplink AND (t.tag_id = $2 OR ($2 = '' AND t.tag_id <> $5))";
    let rows: Vec<DocumentRow> = state
        .db
        .fetch_all(
            &format!(
                "{VISIBLE} AND EXISTS (SELECT 1 {mine}) \
                 ORDER BY (SELECT MAX(t.position) {mine}) DESC, d.deeplink LIMIT $3 OFFSET $4"
            ),
            args![user_id, tag, limit + 1, paging.offset(), BOOKMARK_TAG_ID],
        )
        .await?;
    let has_more = rows.len() as i64 > limit;
    Ok(DocumentPage {
        results: rows.into_iter().take(limit as usize).map(|r| DocumentCard::from_row(r, &state.access)).collect(),
        page,
        has_more,
    })
}

/// The documents under the user's tags (`/needlbox/tags/all`), or under one tag with `tag_id`,
/// the most recently tagged first.
#[utoipa::path(get, path = "/tag/documents", tag = "tags", security(("token" = [])), params(TaggedQuery, Paging),
    responses((status = 200, body = DocumentPage), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn tagged_documents(
    State(state): State<AppState>,
    user: AuthUser,
    ApiQuery(query): ApiQuery<TaggedQuery>,
    paging: Paging,
) -> ApiResult<ApiJson<DocumentPage>> {
    let tag = query.tag_id.filter(|t| !t.is_empty()).unwrap_or_default();
    if !tag.is_empty() && tag != BOOKMARK_TAG_ID {
        own_tag(&state, &user.user_id, &tag).await?;
    }
    Ok(ApiJson(documents_tagged(&state, &user.user_id, &tag, paging).await?))
}

/// The documents the user bookmarked (`/needlbox/bookmarks/all`), the most recent first.
#[utoipa::path(get, path = "/bookmarks", tag = "tags", security(("token" = [])), params(Paging),
    responses((status = 200, body = DocumentPage), (status = 400, body = ErrorBody)))]
async fn bookmarks(State(state): State<AppState>, user: AuthUser, paging: Paging) -> ApiResult<ApiJson<DocumentPage>> {
    Ok(ApiJson(documents_tagged(&state, &user.user_id, BOOKMARK_TAG_ID, paging).await?))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct BookmarkState {
    pub deeplink: String,
    pub bookmarked: bool,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct BookmarkResult {
    pub results: BookmarkState,
}

/// Puts the bookmark tag on or takes it off a document the user can read.
async fn set_bookmark(state: &AppState, user: &AuthUser, deeplink: String, on: bool) -> ApiResult<BookmarkResult> {
    require_flag(state, user, "bookmarks", "bookmarks are turned off for you").await?;
    readable(state, &user.user_id, &deeplink, None).await?;
    let bookmark = BTreeSet::from([BOOKMARK_TAG_ID.to_string()]);
    let change = if on {
        TagChange::Apply { add: bookmark, remove: BTreeSet::new() }
    } else {
        TagChange::Apply { add: BTreeSet::new(), remove: bookmark }
    };
    let command = TagDocument {
        user_id: user.user_id.clone(),
        deeplink: deeplink.clone(),
        channel_id: None,
        feed_id: None,
        change,
    };
    state
        .command(&state.bus.document_tags, &document_tags_id(&user.user_id, &deeplink), command, &user.metadata())
        .await?;
    Ok(BookmarkResult { results: BookmarkState { deeplink, bookmarked: on } })
}

/// Bookmarks a document; bookmarking it again changes nothing.
#[utoipa::path(put, path = "/bookmarks/{deeplink}", tag = "tags", security(("token" = [])),
    params(("deeplink" = String, Path)),
    responses((status = 200, body = BookmarkResult), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn bookmark(
    State(state): State<AppState>,
    user: AuthUser,
    Path(deeplink): Path<String>,
) -> ApiResult<ApiJson<BookmarkResult>> {
    Ok(ApiJson(set_bookmark(&state, &user, deeplink, true).await?))
}

/// Takes a document's bookmark off; a document not bookmarked stays so.
#[utoipa::path(delete, path = "/bookmarks/{deeplink}", tag = "tags", security(("token" = [])),
    params(("deeplink" = String, Path)),
    responses((status = 200, body = BookmarkResult), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn unbookmark(
    State(state): State<AppState>,
    user: AuthUser,
    Path(deeplink): Path<String>,
) -> ApiResult<ApiJson<BookmarkResult>> {
    Ok(ApiJson(set_bookmark(&state, &user, deeplink, false).await?))
}
