//! Reading documents: one document, the user's document list, and read marks.

use std::collections::BTreeMap;

use axum::extract::{Path, Query, State};
use commands::args;
use domain::document::{read_mark_id, MarkDocument, ReadState};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::app::AppState;
use crate::auth::AuthUser;
use crate::error::{ApiJson, ApiResult, AppError, ErrorBody};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(read_status_list))
        .routes(routes!(set_read_status))
        .routes(routes!(list_documents))
        .routes(routes!(get_document))
}

#[derive(Debug, sqlx::FromRow)]
struct DocumentRow {
    deeplink: String,
    source_id: String,
    link: Option<String>,
    title: String,
    author: Option<String>,
    published_at: Option<String>,
    summary: Option<String>,
    metadata: String,
    ingested_at: String,
    is_read: bool,
}

/// A document as cards and previews show it.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct DocumentCard {
    pub deeplink: String,
    pub source: String,
    pub link: Option<String>,
    pub title: String,
    pub author: Option<String>,
    pub published_at: Option<String>,
    pub summary: Option<String>,
    /// Detail tags and file metadata.
    pub metadata: BTreeMap<String, String>,
    pub ingested_at: String,
    pub read: bool,
}

impl From<DocumentRow> for DocumentCard {
    fn from(row: DocumentRow) -> Self {
        DocumentCard {
            deeplink: row.deeplink,
            source: row.source_id,
            link: row.link,
            title: row.title,
            author: row.author,
            published_at: row.published_at,
            summary: row.summary,
            metadata: serde_json::from_str(&row.metadata).unwrap_or_default(),
            ingested_at: row.ingested_at,
            read: row.is_read,
        }
    }
}

/// The documents a user may read: their own, and those of shared sources that are public or
/// that they follow. `$1` is the user.
const VISIBLE: &str = "SELECT d.deeplink, d.source_id, d.link, d.title, d.author, d.published_at, d.summary, \
    d.metadata, d.ingested_at, \
    CASE WHEN r.deeplink IS NULL THEN FALSE ELSE TRUE END AS is_read \
    FROM documents_view d \
    LEFT JOIN read_marks_view r ON r.deeplink = d.deeplink AND r.user_id = $1 \
    LEFT JOIN sources_view s ON s.source_id = d.source_id \
    WHERE (d.owner = $1 OR (d.owner IS NULL AND (s.kind = 'public' OR EXISTS \
      (SELECT 1 FROM subscriptions_view sub WHERE sub.user_id = $1 AND sub.source_id = d.source_id))))";

async fn visible_document(state: &AppState, user_id: &str, deeplink: &str) -> ApiResult<DocumentCard> {
    let row: Option<DocumentRow> = state
        .db
        .fetch_optional(&format!("{VISIBLE} AND d.deeplink = $2"), args![user_id, deeplink])
        .await?;
    row.map(DocumentCard::from)
        .ok_or_else(|| AppError::not_found("document not found"))
}

#[derive(Debug, Deserialize, IntoParams)]
pub struct DocQuery {
    pub deeplink: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct DocumentResults {
    pub results: Vec<DocumentCard>,
}

/// One document the user may read.
#[utoipa::path(get, path = "/doc/{source}", tag = "documents", security(("token" = [])),
    params(("source" = String, Path), DocQuery),
    responses((status = 200, body = DocumentResults), (status = 404, body = ErrorBody)))]
async fn get_document(
    State(state): State<AppState>,
    user: AuthUser,
    Path(source): Path<String>,
    Query(query): Query<DocQuery>,
) -> ApiResult<ApiJson<DocumentResults>> {
    let card = visible_document(&state, &user.user_id, &query.deeplink).await?;
    if card.source != source {
        return Err(AppError::not_found("document not found"));
    }
    Ok(ApiJson(DocumentResults { results: vec![card] }))
}

#[derive(Debug, Deserialize, IntoParams)]
pub struct ListQuery {
    /// Only this source's documents.
    pub source_id: Option<String>,
    /// Page number from 0.
    pub page: Option<i64>,
    /// Page size, 1 to 100 (default 20).
    pub limit: Option<i64>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct DocumentPage {
    pub results: Vec<DocumentCard>,
    pub page: i64,
    pub has_more: bool,
}

/// The user's documents, newest first: My Data, or one source's with `source_id`.
#[utoipa::path(get, path = "/documents", tag = "documents", security(("token" = [])), params(ListQuery),
    responses((status = 200, body = DocumentPage), (status = 400, body = ErrorBody)))]
async fn list_documents(
    State(state): State<AppState>,
    user: AuthUser,
    Query(query): Query<ListQuery>,
) -> ApiResult<ApiJson<DocumentPage>> {
    let limit = query.limit.unwrap_or(20);
    let page = query.page.unwrap_or(0);
    if !(1..=100).contains(&limit) || page < 0 {
        return Err(AppError::bad_request("bad_page", "page must be 0 or more and limit 1 to 100"));
    }
    let rows: Vec<DocumentRow> = state
        .db
        .fetch_all(
            &format!(
                "{VISIBLE} AND ($2 = '' OR d.source_id = $2) \
                 ORDER BY COALESCE(d.published_at, d.ingested_at) DESC, d.deeplink LIMIT $3 OFFSET $4"
            ),
            args![user.user_id.as_str(), query.source_id.unwrap_or_default(), limit + 1, page * limit],
        )
        .await?;
    let has_more = rows.len() as i64 > limit;
    Ok(ApiJson(DocumentPage {
        results: rows.into_iter().take(limit as usize).map(DocumentCard::from).collect(),
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
    Ok(ApiJson(ReadList {
        results: rows.into_iter().map(|r| r.deeplink).collect(),
    }))
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

/// Marks a document read or unread for the user.
#[utoipa::path(put, path = "/doc/read_status/{deeplink}", tag = "documents", security(("token" = [])),
    params(("deeplink" = String, Path)), request_body = ReadStatusBody,
    responses((status = 200, body = ReadStatus), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn set_read_status(
    State(state): State<AppState>,
    user: AuthUser,
    Path(deeplink): Path<String>,
    ApiJson(body): ApiJson<ReadStatusBody>,
) -> ApiResult<ApiJson<ReadStatus>> {
    visible_document(&state, &user.user_id, &deeplink).await?;
    let cursor = state
        .bus
        .execute(
            &state.bus.read_marks,
            &read_mark_id(&user.user_id, &deeplink),
            MarkDocument {
                user_id: user.user_id.clone(),
                deeplink: deeplink.clone(),
                state: body.status,
            },
            &user.metadata(),
        )
        .await?;
    state.settle(cursor).await;
    Ok(ApiJson(ReadStatus {
        deeplink,
        status: body.status,
    }))
}
