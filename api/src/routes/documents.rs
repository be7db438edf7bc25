//! Reading documents: one document, the user's document list, and read marks. The rules are
//! `service::documents`'; this module adds the HTTP shapes and streams stored files.

use axum::extract::{Path, State};
use domain::document::ReadState;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::app::AppState;
use crate::auth::AuthUser;
use crate::error::{ApiJson, ApiQuery, ApiResult, AppError, ErrorBody};
use crate::paging::Paging;
use service::documents::{self, DocumentCard, DocumentPage, Layout, Opening, ReadList, ReadStatus};
use service::tables::{self, TableList};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(read_status_list))
        .routes(routes!(set_read_status))
        .routes(routes!(list_documents))
        .routes(routes!(get_document, delete_document))
        .routes(routes!(document_file))
        .routes(routes!(document_layout))
        .routes(routes!(document_tables))
        .routes(routes!(download_tables))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct TablesQuery {
    pub deeplink: String,
    /// `csv` (every table, one after another) or `xlsx` (a sheet per table).
    pub format: String,
}

/// The tables found on a PDF document's pages (flag `doc_table_extraction`); 422 `not_a_pdf`
/// for any other document.
#[utoipa::path(get, path = "/doc/{source}/tables", tag = "documents", security(("token" = [])),
    params(("source" = String, Path), DocQuery),
    responses((status = 200, body = TableList), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 422, body = ErrorBody)))]
async fn document_tables(
    State(state): State<AppState>,
    user: AuthUser,
    Path(source): Path<String>,
    ApiQuery(query): ApiQuery<DocQuery>,
) -> ApiResult<ApiJson<TableList>> {
    Ok(ApiJson(tables::list(&state, &user, &source, &query.deeplink).await?))
}

/// A PDF document's tables as one CSV or XLSX file; 404 `no_tables_found` when it has none.
#[utoipa::path(get, path = "/doc/{source}/tables/download", tag = "documents", security(("token" = [])),
    params(("source" = String, Path), TablesQuery),
    responses((status = 200, description = "the tables", content_type = "application/octet-stream"),
        (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn download_tables(
    State(state): State<AppState>,
    user: AuthUser,
    Path(source): Path<String>,
    ApiQuery(query): ApiQuery<TablesQuery>,
) -> ApiResult<axum::response::Response> {
    use axum::response::IntoResponse;
    let file = tables::download(&state, &user, &source, &query.deeplink, &query.format).await?;
    Ok((crate::web::generated_file_headers(file.format.mime_type(), &file.file_name, false), file.bytes)
        .into_response())
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
    let opening = Opening {
        access_key: query.access_key.as_deref(),
        public_access_key: query.public_access_key.as_deref(),
        share: query.share.unwrap_or(false),
    };
    let card = documents::open(&state, &user, &source, &query.deeplink, opening).await?;
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
    documents::delete(&state, &user, &source, &query.deeplink).await?;
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
    let file =
        documents::file(&state, &user.user_id, &source, &query.deeplink, query.public_access_key.as_deref()).await?;
    let stream = state
        .storage
        .read(&file.key)
        .await
        .map_err(|_| AppError::not_found("this document's file is no longer stored"))?;
    // The app reads files through fetch; opened directly, a file must not act as a page of the
    // app's origin (an uploaded HTML or SVG page with script would run as the signed-in user).
    let mut response = axum::response::Response::builder();
    for (header, value) in crate::web::user_file_headers(&file.mime_type, &file.file_name) {
        response = response.header(header, value);
    }
    response.body(axum::body::Body::from_stream(stream)).map_err(AppError::internal)
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
    let key = query.public_access_key.as_deref();
    Ok(ApiJson(documents::layout(&state, &user.user_id, &source, &query.deeplink, key).await?))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// Only this source's documents.
    pub source_id: Option<String>,
    /// Only one of My Data's sub-categories: rss_news, exchanges, drives, ...
    pub sub_category: Option<String>,
}

/// The user's documents, newest first: My Data, or one source's with `source_id`.
#[utoipa::path(get, path = "/documents", tag = "documents", security(("token" = [])), params(ListQuery, Paging),
    responses((status = 200, body = DocumentPage), (status = 400, body = ErrorBody)))]
async fn list_documents(
    State(state): State<AppState>,
    user: AuthUser,
    ApiQuery(query): ApiQuery<ListQuery>,
    Paging { page, limit }: Paging,
) -> ApiResult<ApiJson<DocumentPage>> {
    let source_id = query.source_id.unwrap_or_default();
    let sub_category = query.sub_category.as_deref();
    Ok(ApiJson(documents::list(&state, &user.user_id, &source_id, sub_category, page, limit).await?))
}

/// The documents the user has read.
#[utoipa::path(get, path = "/doc/read_status", tag = "documents", security(("token" = [])),
    responses((status = 200, body = ReadList)))]
async fn read_status_list(State(state): State<AppState>, user: AuthUser) -> ApiResult<ApiJson<ReadList>> {
    Ok(ApiJson(documents::read_list(&state, &user.user_id).await?))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ReadStatusBody {
    /// `read` or `unread`.
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
    let key = query.public_access_key.as_deref();
    Ok(ApiJson(documents::mark(&state, &user, deeplink, key, body.status).await?))
}
