//! Reading documents: one document, the user's document list, and read marks.

use axum::extract::{Path, State};
use commands::args;
use domain::document::{read_mark_id, DocumentCommand, MarkDocument, ReadState};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::app::AppState;
use crate::auth::AuthUser;
use crate::error::{ApiJson, ApiQuery, ApiResult, AppError, ErrorBody};
use crate::paging::Paging;
use service::access::Purpose;
use service::documents::{sub_category_condition, DocumentCard, DocumentRow, SUB_CATEGORIES, VISIBLE};
use service::policy::readable;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(read_status_list))
        .routes(routes!(set_read_status))
        .routes(routes!(list_documents))
        .routes(routes!(get_document, delete_document))
        .routes(routes!(document_file))
        .routes(routes!(document_layout))
}

/// The document `deeplink` of `source` if the user may read it.
async fn document_in(
    state: &AppState,
    user_id: &str,
    source: &str,
    deeplink: &str,
    public_access_key: Option<&str>,
) -> ApiResult<DocumentCard> {
    let card = readable(state, user_id, deeplink, public_access_key).await?;
    if card.source != source {
        return Err(AppError::not_found("document not found"));
    }
    Ok(card)
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct DocQuery {
    pub deeplink: String,
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SharedDocQuery {
    pub deeplink: String,
    /// A shared link's key, for someone who reads the document through the link.
    pub public_access_key: Option<String>,
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct OpenQuery {
    pub deeplink: String,
    /// The card's `access_key`; a wrong one answers 404.
    pub access_key: Option<String>,
    /// A shared link's key: opens the document for anyone signed in.
    pub public_access_key: Option<String>,
    /// `true` makes (and records) a shared link: the answer carries its `public_access_key`.
    pub share: Option<bool>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct DocumentResults {
    pub results: Vec<DocumentCard>,
}

/// One document the user may read.
#[utoipa::path(get, path = "/doc/{source}", tag = "documents", security(("token" = [])),
    params(("source" = String, Path), OpenQuery),
    responses((status = 200, body = DocumentResults), (status = 404, body = ErrorBody)))]
async fn get_document(
    State(state): State<AppState>,
    user: AuthUser,
    Path(source): Path<String>,
    ApiQuery(query): ApiQuery<OpenQuery>,
) -> ApiResult<ApiJson<DocumentResults>> {
    let not_found = || AppError::not_found("document not found");
    if query.access_key.as_deref().is_some_and(|k| !state.access.verify(Purpose::Access, &query.deeplink, k)) {
        return Err(not_found());
    }
    let mut card =
        document_in(&state, &user.user_id, &source, &query.deeplink, query.public_access_key.as_deref()).await?;
    if query.share.unwrap_or(false) {
        let flags = projections::queries::flag_values(&state.db, &user.user_id).await?;
        if !flags.iter().any(|(flag, value)| flag == "doc_share" && domain::flags::is_on(value)) {
            return Err(AppError::forbidden("sharing documents is turned off for you"));
        }
        state
            .bus
            .execute(
                &state.bus.documents,
                &card.deeplink,
                DocumentCommand::Share { user_id: user.user_id.clone() },
                &user.metadata(),
            )
            .await?;
        card.public_access_key = Some(state.access.key(Purpose::Public, &card.deeplink));
    }
    Ok(ApiJson(DocumentResults { results: vec![card] }))
}

/// Deletes a document the user uploaded (documents of shared sources cannot be deleted), with
/// its stored file.
#[utoipa::path(delete, path = "/doc/{source}", tag = "documents", security(("token" = [])),
    params(("source" = String, Path), DocQuery),
    responses((status = 204), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn delete_document(
    State(state): State<AppState>,
    user: AuthUser,
    Path(source): Path<String>,
    ApiQuery(query): ApiQuery<DocQuery>,
) -> ApiResult<axum::http::StatusCode> {
    let card = document_in(&state, &user.user_id, &source, &query.deeplink, None).await?;
    if !card.owned {
        return Err(AppError::forbidden("only documents you uploaded can be deleted"));
    }
    state.command(&state.bus.documents, &card.deeplink, DocumentCommand::Delete, &user.metadata()).await?;
    if let Some(key) = card.internal.get("object_key") {
        if let Err(error) = state.storage.delete(key).await {
            tracing::warn!(%key, error = %format!("{error:#}"), "a deleted document's file stays in storage");
        }
    }
    Ok(axum::http::StatusCode::NO_CONTENT)
}

/// Sends an uploaded document's original file.
#[utoipa::path(get, path = "/doc/{source}/file", tag = "documents", security(("token" = [])),
    params(("source" = String, Path), SharedDocQuery),
    responses((status = 200, description = "the file", content_type = "application/octet-stream"), (status = 404, body = ErrorBody)))]
async fn document_file(
    State(state): State<AppState>,
    user: AuthUser,
    Path(source): Path<String>,
    ApiQuery(query): ApiQuery<SharedDocQuery>,
) -> ApiResult<axum::response::Response> {
    let card = document_in(&state, &user.user_id, &source, &query.deeplink, query.public_access_key.as_deref()).await?;
    let key = card.internal.get("object_key").ok_or_else(|| AppError::not_found("this document has no stored file"))?;
    let stream =
        state.storage.read(key).await.map_err(|_| AppError::not_found("this document's file is no longer stored"))?;
    let mime = card.metadata.get("mime_type").cloned().unwrap_or_else(|| "application/octet-stream".into());
    let name = card.metadata.get("original_file_name").cloned().unwrap_or_else(|| "document".into());
    // The app reads files through fetch; opened directly, a file must not act as a page of the
    // app's origin (an uploaded HTML or SVG page with script would run as the signed-in user).
    let mut response = axum::response::Response::builder();
    for (header, value) in crate::web::user_file_headers(&mime, &name) {
        response = response.header(header, value);
    }
    response.body(axum::body::Body::from_stream(stream)).map_err(AppError::internal)
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct LayoutBlock {
    pub text: String,
    /// x0, y0, x1, y1 in PDF points from the page's top left.
    pub bbox: [f32; 4],
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct LayoutPage {
    pub number: u32,
    pub width: f32,
    pub height: f32,
    pub blocks: Vec<LayoutBlock>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Layout {
    pub pages: Vec<LayoutPage>,
}

/// The document's pages with their text blocks and boxes, so a passage can be drawn on its page.
#[utoipa::path(get, path = "/doc/{source}/layout", tag = "documents", security(("token" = [])),
    params(("source" = String, Path), SharedDocQuery),
    responses((status = 200, body = Layout), (status = 404, body = ErrorBody)))]
async fn document_layout(
    State(state): State<AppState>,
    user: AuthUser,
    Path(source): Path<String>,
    ApiQuery(query): ApiQuery<SharedDocQuery>,
) -> ApiResult<ApiJson<Layout>> {
    let card = document_in(&state, &user.user_id, &source, &query.deeplink, query.public_access_key.as_deref()).await?;
    let hash =
        card.internal.get("layout_blob").ok_or_else(|| AppError::not_found("this document has no page layout"))?;
    let blobs = service::ingestion::BlobStore::new(state.data_dir.join("blobs"));
    let stored =
        blobs.get(hash).await.ok_or_else(|| AppError::not_found("this document's page layout is no longer stored"))?;
    let extracted: extract::Extracted = serde_json::from_str(&stored).map_err(AppError::internal)?;
    Ok(ApiJson(Layout {
        pages: extracted
            .pages
            .into_iter()
            .map(|p| LayoutPage {
                number: p.number,
                width: p.width,
                height: p.height,
                blocks: p.blocks.into_iter().map(|b| LayoutBlock { text: b.text, bbox: b.bbox }).collect(),
            })
            .collect(),
    }))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// Only this source's documents.
    pub source_id: Option<String>,
    /// Only one of My Data's sub-categories: rss_news, exchanges, drives, ...
    pub sub_category: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct DocumentPage {
    pub results: Vec<DocumentCard>,
    pub page: i64,
    pub has_more: bool,
}

/// The user's documents, newest first: My Data, or one source's with `source_id`.
#[utoipa::path(get, path = "/documents", tag = "documents", security(("token" = [])), params(ListQuery, Paging),
    responses((status = 200, body = DocumentPage), (status = 400, body = ErrorBody)))]
async fn list_documents(
    State(state): State<AppState>,
    user: AuthUser,
    ApiQuery(query): ApiQuery<ListQuery>,
    paging: Paging,
) -> ApiResult<ApiJson<DocumentPage>> {
    let Paging { page, limit } = paging;
    // A sub-category no connector fills yet is simply empty.
    let sub_category = match query.sub_category.as_deref().filter(|c| !c.is_empty()) {
        None => "TRUE".to_string(),
        Some(key) if SUB_CATEGORIES.iter().any(|(k, _)| *k == key) => {
            sub_category_condition(key).unwrap_or_else(|| "FALSE".to_string())
        }
        Some(other) => return Err(AppError::bad_request("unknown_sub_category", format!("no sub-category {other}"))),
    };
    let rows: Vec<DocumentRow> = state
        .db
        .fetch_all(
            &format!(
                "{VISIBLE} AND ($2 = '' OR d.source_id = $2) AND ({sub_category}) \
                 ORDER BY COALESCE(d.published_at, d.ingested_at) DESC, d.deeplink LIMIT $3 OFFSET $4"
            ),
            args![user.user_id.as_str(), query.source_id.unwrap_or_default(), limit + 1, paging.offset()],
        )
        .await?;
    let has_more = rows.len() as i64 > limit;
    Ok(ApiJson(DocumentPage {
        results: rows.into_iter().take(limit as usize).map(|r| DocumentCard::from_row(r, &state.access)).collect(),
        page,
        has_more,
    }))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ReadList {
    /// Deeplinks of the documents the user has read.
    pub results: Vec<String>,
}

#[derive(sqlx::FromRow)]
struct Deeplink {
    deeplink: String,
}

/// The documents the user has read.
#[utoipa::path(get, path = "/doc/read_status", tag = "documents", security(("token" = [])),
    responses((status = 200, body = ReadList)))]
async fn read_status_list(State(state): State<AppState>, user: AuthUser) -> ApiResult<ApiJson<ReadList>> {
    let rows: Vec<Deeplink> = state
        .db
        .fetch_all(
            "SELECT deeplink FROM read_marks_view WHERE user_id = $1 ORDER BY read_at DESC",
            args![user.user_id.as_str()],
        )
        .await?;
    Ok(ApiJson(ReadList { results: rows.into_iter().map(|r| r.deeplink).collect() }))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ReadStatusBody {
    /// `read` or `unread`.
    #[schema(value_type = String)]
    pub status: ReadState,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ReadStatus {
    pub deeplink: String,
    #[schema(value_type = String)]
    pub status: ReadState,
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ReadKeyQuery {
    /// A shared link's key, for someone who reads the document through the link.
    pub public_access_key: Option<String>,
}

/// Marks a document read or unread for the user.
#[utoipa::path(put, path = "/doc/read_status/{deeplink}", tag = "documents", security(("token" = [])),
    params(("deeplink" = String, Path), ReadKeyQuery), request_body = ReadStatusBody,
    responses((status = 200, body = ReadStatus), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn set_read_status(
    State(state): State<AppState>,
    user: AuthUser,
    Path(deeplink): Path<String>,
    ApiQuery(query): ApiQuery<ReadKeyQuery>,
    ApiJson(body): ApiJson<ReadStatusBody>,
) -> ApiResult<ApiJson<ReadStatus>> {
    readable(&state, &user.user_id, &deeplink, query.public_access_key.as_deref()).await?;
    state
        .command(
            &state.bus.read_marks,
            &read_mark_id(&user.user_id, &deeplink),
            MarkDocument { user_id: user.user_id.clone(), deeplink: deeplink.clone(), state: body.status },
            &user.metadata(),
        )
        .await?;
    Ok(ApiJson(ReadStatus { deeplink, status: body.status }))
}
