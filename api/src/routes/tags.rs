//! Tags and bookmarks over HTTP: a user's tags, the tags on a document, bookmarks, and the
//! documents under a tag. The rules (privacy, the read policy, channels' shared tags) are
//! `service::tags`'.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::app::AppState;
use crate::auth::AuthUser;
use crate::error::{ApiJson, ApiQuery, ApiResult, ErrorBody};
use crate::paging::Paging;
use service::documents::DocumentPage;
use service::tags::{self, BookmarkState, DocumentTagSets, Tag, TagDocumentBody};

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
pub struct DocumentTagIndex {
    pub results: DocumentTagSets,
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
    let results = tags::document_tags(&state, &user.user_id, &query.deep_link, query.channel_id).await?;
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
    Ok(ApiJson(TagResult { results: tags::create(&state, &user, body.tag).await? }))
}

/// The user's tags, by name.
#[utoipa::path(get, path = "/tag/user-tags", tag = "tags", security(("token" = [])),
    responses((status = 200, body = TagList)))]
async fn user_tags(State(state): State<AppState>, user: AuthUser) -> ApiResult<ApiJson<TagList>> {
    Ok(ApiJson(TagList { results: tags::tags_of(&state, &user.user_id).await? }))
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
    Ok(ApiJson(TagResult { results: tags::rename(&state, &user, tag_id, body.name).await? }))
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
    tags::delete(&state, &user, body.tag_ids).await?;
    Ok(StatusCode::NO_CONTENT)
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
    Ok(ApiJson(DocumentTagIndex { results: tags::tag_document(&state, &user, &deeplink, body).await? }))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct TaggedQuery {
    /// Only documents with this tag of the user's; without it, documents with any of them.
    pub tag_id: Option<String>,
}

/// The documents under the user's tags (`/needlbox/tags/all`), or under one tag with `tag_id`,
/// the most recently tagged first.
#[utoipa::path(get, path = "/tag/documents", tag = "tags", security(("token" = [])), params(TaggedQuery, Paging),
    responses((status = 200, body = DocumentPage), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn tagged_documents(
    State(state): State<AppState>,
    user: AuthUser,
    ApiQuery(query): ApiQuery<TaggedQuery>,
    Paging { page, limit }: Paging,
) -> ApiResult<ApiJson<DocumentPage>> {
    Ok(ApiJson(tags::tagged(&state, &user.user_id, query.tag_id, page, limit).await?))
}

/// The documents the user bookmarked (`/needlbox/bookmarks/all`), the most recent first.
#[utoipa::path(get, path = "/bookmarks", tag = "tags", security(("token" = [])), params(Paging),
    responses((status = 200, body = DocumentPage), (status = 400, body = ErrorBody)))]
async fn bookmarks(
    State(state): State<AppState>,
    user: AuthUser,
    Paging { page, limit }: Paging,
) -> ApiResult<ApiJson<DocumentPage>> {
    Ok(ApiJson(tags::bookmarked(&state, &user.user_id, page, limit).await?))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct BookmarkResult {
    pub results: BookmarkState,
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
    Ok(ApiJson(BookmarkResult { results: tags::set_bookmark(&state, &user, deeplink, true).await? }))
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
    Ok(ApiJson(BookmarkResult { results: tags::set_bookmark(&state, &user, deeplink, false).await? }))
}
