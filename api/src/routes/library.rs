//! What the user's data is made of, over HTTP: the category index behind My Data's tabs, and the
//! private and personal-store (needlbox) sources. The counts are `service::library`'s.

use axum::extract::State;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::app::AppState;
use crate::auth::AuthUser;
use crate::error::{ApiJson, ApiResult};
use service::library::{self, Category, SubCategory};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(categories)).routes(routes!(private_sources)).routes(routes!(needlbox_sources))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CategoryIndex {
    pub results: Vec<Category>,
}

/// The category index: My Data's sub-categories with counts and whether each is connected, so
/// the app lands on the first connected one; and the apps (the drive).
#[utoipa::path(get, path = "/categories", tag = "sources", security(("token" = [])),
    responses((status = 200, body = CategoryIndex)))]
async fn categories(State(state): State<AppState>, user: AuthUser) -> ApiResult<ApiJson<CategoryIndex>> {
    Ok(ApiJson(CategoryIndex { results: library::categories(&state, &user.user_id).await? }))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct SourceList {
    pub results: Vec<SubCategory>,
}

/// Sources only the user reads: their drive, and their assistant attachments when they have any.
#[utoipa::path(get, path = "/source/private", tag = "sources", security(("token" = [])),
    responses((status = 200, body = SourceList)))]
async fn private_sources(State(state): State<AppState>, user: AuthUser) -> ApiResult<ApiJson<SourceList>> {
    Ok(ApiJson(SourceList { results: library::private_sources(&state, &user.user_id).await? }))
}

/// The personal store's sources: the drive (bookmarks, tags and comments join it with the
/// organising features).
#[utoipa::path(get, path = "/source/needlbox", tag = "sources", security(("token" = [])),
    responses((status = 200, body = SourceList)))]
async fn needlbox_sources(State(state): State<AppState>, user: AuthUser) -> ApiResult<ApiJson<SourceList>> {
    Ok(ApiJson(SourceList { results: library::needlbox_sources(&state, &user.user_id).await? }))
}
