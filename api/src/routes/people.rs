//! Contacts (people) over HTTP: the user's people (list, one, edit their name and priority) and
//! resolving the person behind a card's contacts, which adds the person at first sight. The
//! rules and reads are in [`service::people`].
//!
//! A contact book is its user's alone: commands go to the user's own book, and reads filter by
//! the user, so another user's person id is simply not found (404).

use axum::extract::{Path, State};
use domain::person::Priority;
use serde::Deserialize;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::app::AppState;
use crate::auth::AuthUser;
use crate::error::{ApiJson, ApiQuery, ApiResult, ErrorBody};
use crate::paging::Paging;
use service::people::{self, PeoplePage, PersonResult};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_people))
        .routes(routes!(contact_info))
        .routes(routes!(get_person))
        .routes(routes!(edit_person))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PeopleQuery {
    /// Only people whose name contains this, whatever its case.
    pub q: Option<String>,
    /// Only people of this priority: HIGH, MEDIUM or LOW.
    pub priority: Option<String>,
}

/// The user's people by name, a page at a time, optionally filtered by name and priority.
#[utoipa::path(get, path = "/people", tag = "people", security(("token" = [])), params(PeopleQuery, Paging),
    responses((status = 200, body = PeoplePage), (status = 400, body = ErrorBody)))]
async fn list_people(
    State(state): State<AppState>,
    user: AuthUser,
    ApiQuery(query): ApiQuery<PeopleQuery>,
    Paging { page, limit }: Paging,
) -> ApiResult<ApiJson<PeoplePage>> {
    Ok(ApiJson(people::list(&state, &user, query.q.as_deref(), query.priority.as_deref(), page, limit).await?))
}

/// One of the user's people.
#[utoipa::path(get, path = "/people/{id}", tag = "people", security(("token" = [])),
    params(("id" = String, Path, description = "the person's people_id")),
    responses((status = 200, body = PersonResult), (status = 404, body = ErrorBody)))]
async fn get_person(
    State(state): State<AppState>,
    user: AuthUser,
    Path(people_id): Path<String>,
) -> ApiResult<ApiJson<PersonResult>> {
    Ok(ApiJson(people::person(&state, &user, &people_id).await?))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct EditPersonBody {
    /// The new name: trimmed, 1 to 100 characters.
    pub name: Option<String>,
    /// HIGH, MEDIUM or LOW.
    #[schema(value_type = Option<String>)]
    pub priority: Option<Priority>,
}

/// Renames one of the user's people and/or changes their priority. 422 `name is required`,
/// `name must be at most 100 characters`, `name or priority is required`; 404 for anyone else's.
#[utoipa::path(post, path = "/people/edit/{id}", tag = "people", security(("token" = [])),
    params(("id" = String, Path, description = "the person's people_id")), request_body = EditPersonBody,
    responses((status = 200, body = PersonResult), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn edit_person(
    State(state): State<AppState>,
    user: AuthUser,
    Path(people_id): Path<String>,
    ApiJson(body): ApiJson<EditPersonBody>,
) -> ApiResult<ApiJson<PersonResult>> {
    Ok(ApiJson(people::edit(&state, &user, &people_id, body.name, body.priority).await?))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ContactInfoQuery {
    /// The card's contacts as JSON: a list of `{contact_id, contact_name, contact_source}` (the
    /// name and source optional), or of plain ids.
    pub contacts: String,
    /// The source the contacts come from, for those that do not name their own.
    pub source: Option<String>,
}

/// The person behind a card's contacts (a document's author or sender). The first sight of a
/// contact adds its person to the user's contact book (MEDIUM priority, named after the first
/// contact); contacts seen together with a known one are linked to its person.
#[utoipa::path(get, path = "/people/contact_info", tag = "people", security(("token" = [])), params(ContactInfoQuery),
    responses((status = 200, body = PersonResult), (status = 422, body = ErrorBody)))]
async fn contact_info(
    State(state): State<AppState>,
    user: AuthUser,
    ApiQuery(query): ApiQuery<ContactInfoQuery>,
) -> ApiResult<ApiJson<PersonResult>> {
    let source = query.source.as_deref().unwrap_or("");
    Ok(ApiJson(people::behind_contacts(&state, &user, &query.contacts, source).await?))
}
