//! What the user's data is made of: the category index behind My Data's tabs, and the private
//! and personal-store (needlbox) sources.

use axum::extract::State;
use commands::args;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::app::AppState;
use crate::auth::AuthUser;
use crate::error::{ApiJson, ApiResult};
use service::documents::{sub_category_condition, ASK_SOURCE, DRIVE_SOURCE, SUB_CATEGORIES};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(categories)).routes(routes!(private_sources)).routes(routes!(needlbox_sources))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct SubCategory {
    pub key: String,
    pub label: String,
    /// Documents the user can read in it (for `notes`, the user's notes).
    pub count: i64,
    /// Whether the user has a source of this kind (followed feeds, uploads, ...).
    pub connected: bool,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Category {
    pub key: String,
    pub label: String,
    pub sources: Vec<SubCategory>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CategoryIndex {
    pub results: Vec<Category>,
}

#[derive(sqlx::FromRow)]
struct Count {
    n: i64,
}

async fn count(state: &AppState, sql: &str, user_id: &str) -> ApiResult<i64> {
    let row: Option<Count> = state.db.fetch_optional(sql, args![user_id]).await?;
    Ok(row.map_or(0, |r| r.n))
}

/// Documents of a sub-category the user can read.
async fn documents_in(state: &AppState, user_id: &str, condition: &str) -> ApiResult<i64> {
    let sql = format!(
        "SELECT CAST(COUNT(*) AS BIGINT) AS n FROM documents_view d LEFT JOIN sources_view s ON s.source_id = d.source_id \
         WHERE ({condition}) AND (d.owner = $1 OR (d.owner IS NULL AND EXISTS \
           (SELECT 1 FROM subscriptions_view sub WHERE sub.user_id = $1 AND sub.source_id = d.source_id)))"
    );
    count(state, &sql, user_id).await
}

/// The user's notes, in all their notebooks (a deleted notebook's notes are gone with it).
async fn notes_of(state: &AppState, user_id: &str) -> ApiResult<i64> {
    count(state, "SELECT CAST(COUNT(*) AS BIGINT) AS n FROM notes_view WHERE user_id = $1", user_id).await
}

/// Whether the user follows a source of one of `kinds`.
async fn follows_kind(state: &AppState, user_id: &str, kinds: &str) -> ApiResult<bool> {
    let sql = format!(
        "SELECT CAST(COUNT(*) AS BIGINT) AS n FROM subscriptions_view sub JOIN sources_view s ON s.source_id = sub.source_id \
         WHERE sub.user_id = $1 AND s.kind IN ({kinds})"
    );
    Ok(count(state, &sql, user_id).await? > 0)
}

/// The category index: My Data's sub-categories with counts and whether each is connected, so
/// the app lands on the first connected one; and the apps (the drive).
#[utoipa::path(get, path = "/categories", tag = "sources", security(("token" = [])),
    responses((status = 200, body = CategoryIndex)))]
async fn categories(State(state): State<AppState>, user: AuthUser) -> ApiResult<ApiJson<CategoryIndex>> {
    let mut feeds = Vec::new();
    for (key, label) in SUB_CATEGORIES {
        let count = match (*key, sub_category_condition(key)) {
            // Notes are not documents: the tab counts the user's own notes.
            ("notes", _) => notes_of(&state, &user.user_id).await?,
            (_, Some(condition)) => documents_in(&state, &user.user_id, &condition).await?,
            (_, None) => 0,
        };
        let connected = match *key {
            "rss_news" => follows_kind(&state, &user.user_id, "'rss', 'website'").await?,
            "exchanges" => follows_kind(&state, &user.user_id, "'public'").await?,
            "drives" | "notes" => count > 0,
            _ => false,
        };
        feeds.push(SubCategory { key: key.to_string(), label: label.to_string(), count, connected });
    }
    let drive = drive_entry(&state, &user.user_id).await?;
    Ok(ApiJson(CategoryIndex {
        results: vec![
            Category { key: "feeds".into(), label: "My Data".into(), sources: feeds },
            Category { key: "apps".into(), label: "Apps".into(), sources: vec![drive] },
        ],
    }))
}

async fn owned_in(state: &AppState, user_id: &str, source: &str) -> ApiResult<i64> {
    documents_in(state, user_id, &format!("d.owner = $1 AND d.source_id = '{source}'")).await
}

async fn drive_entry(state: &AppState, user_id: &str) -> ApiResult<SubCategory> {
    // The drive is always there to upload to.
    Ok(SubCategory {
        key: DRIVE_SOURCE.into(),
        label: "Needl Drive".into(),
        count: owned_in(state, user_id, DRIVE_SOURCE).await?,
        connected: true,
    })
}

#[derive(Debug, Serialize, ToSchema)]
pub struct SourceList {
    pub results: Vec<SubCategory>,
}

/// Sources only the user reads: their drive, and their assistant attachments when they have any.
#[utoipa::path(get, path = "/source/private", tag = "sources", security(("token" = [])),
    responses((status = 200, body = SourceList)))]
async fn private_sources(State(state): State<AppState>, user: AuthUser) -> ApiResult<ApiJson<SourceList>> {
    let mut results = vec![drive_entry(&state, &user.user_id).await?];
    let attachments = owned_in(&state, &user.user_id, ASK_SOURCE).await?;
    if attachments > 0 {
        results.push(SubCategory {
            key: ASK_SOURCE.into(),
            label: "AskNeedl attachments".into(),
            count: attachments,
            connected: true,
        });
    }
    Ok(ApiJson(SourceList { results }))
}

/// The personal store's sources: the drive (bookmarks, tags and comments join it with the
/// organising features).
#[utoipa::path(get, path = "/source/needlbox", tag = "sources", security(("token" = [])),
    responses((status = 200, body = SourceList)))]
async fn needlbox_sources(State(state): State<AppState>, user: AuthUser) -> ApiResult<ApiJson<SourceList>> {
    Ok(ApiJson(SourceList { results: vec![drive_entry(&state, &user.user_id).await?] }))
}
