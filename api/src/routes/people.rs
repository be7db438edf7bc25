//! Contacts (people): the user's people (list, one, edit their name and priority) and resolving
//! the person behind a card's contacts, which adds the person at first sight.
//!
//! A contact book is its user's alone: commands go to the user's own book, and reads filter by
//! the user, so another user's person id is simply not found (404).

use std::collections::HashMap;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use commands::args;
use commands::store::Arg;
use domain::person::{contact_key, name_key, Contact, ContactBookCommand, Priority};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::app::AppState;
use crate::auth::AuthUser;
use crate::error::{ApiJson, ApiQuery, ApiResult, AppError, ErrorBody};
use crate::paging::Paging;
use service::channels::placeholders;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_people))
        .routes(routes!(contact_info))
        .routes(routes!(get_person))
        .routes(routes!(edit_person))
}

fn person_not_found() -> AppError {
    AppError::new(StatusCode::NOT_FOUND, "person_not_found", "person not found")
}

/// One way of reaching a person, with the spec's field names.
#[derive(Debug, Clone, Serialize, ToSchema, sqlx::FromRow)]
pub struct ContactOut {
    pub contact_id: String,
    pub contact_name: String,
    pub contact_source: String,
}

/// A person, with the spec's field names.
#[derive(Debug, Serialize, ToSchema)]
pub struct Person {
    pub people_id: String,
    pub people_name: String,
    /// HIGH, MEDIUM or LOW.
    pub people_priority: String,
    /// The contacts behind the person, in the order they were seen.
    pub contacts: Vec<ContactOut>,
    pub created_at: String,
    pub updated_at: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PersonResult {
    pub results: Person,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PeoplePage {
    /// By name, whatever its case.
    pub results: Vec<Person>,
    pub page: i64,
    pub has_more: bool,
}

#[derive(sqlx::FromRow)]
struct PersonRow {
    people_id: String,
    name: String,
    priority: String,
    created_at: String,
    updated_at: String,
}

#[derive(sqlx::FromRow)]
struct ContactRow {
    people_id: String,
    contact_id: String,
    contact_name: String,
    contact_source: String,
}

const PEOPLE: &str = "SELECT people_id, name, priority, created_at, updated_at FROM people_view";

/// Completes rows with their contacts, in one read for the whole list.
async fn with_contacts(state: &AppState, rows: Vec<PersonRow>) -> ApiResult<Vec<Person>> {
    let mut contacts: HashMap<String, Vec<ContactOut>> = HashMap::new();
    if !rows.is_empty() {
        let sql = format!(
            "SELECT people_id, contact_id, contact_name, contact_source FROM people_contacts_view \
             WHERE people_id IN ({}) ORDER BY position, contact_key",
            placeholders(1, rows.len())
        );
        let found: Vec<ContactRow> =
            state.db.fetch_all(&sql, rows.iter().map(|r| Arg::from(&r.people_id)).collect()).await?;
        for c in found {
            contacts.entry(c.people_id).or_default().push(ContactOut {
                contact_id: c.contact_id,
                contact_name: c.contact_name,
                contact_source: c.contact_source,
            });
        }
    }
    Ok(rows
        .into_iter()
        .map(|r| Person {
            contacts: contacts.remove(&r.people_id).unwrap_or_default(),
            people_id: r.people_id,
            people_name: r.name,
            people_priority: r.priority,
            created_at: r.created_at,
            updated_at: r.updated_at,
        })
        .collect())
}

/// The user's person `people_id`; anyone else's is not found.
async fn own_person(state: &AppState, user_id: &str, people_id: &str) -> ApiResult<Person> {
    let row: Option<PersonRow> = state
        .db
        .fetch_optional(&format!("{PEOPLE} WHERE user_id = $1 AND people_id = $2"), args![user_id, people_id])
        .await?;
    let row = row.ok_or_else(person_not_found)?;
    Ok(with_contacts(state, vec![row]).await?.pop().expect("one person in, one out"))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PeopleQuery {
    /// Only people whose name contains this, whatever its case.
    pub q: Option<String>,
    /// Only people of this priority: HIGH, MEDIUM or LOW.
    pub priority: Option<String>,
}

/// Escapes `%`, `_` and `\` for a `LIKE ... ESCAPE '\'` pattern.
fn like_escaped(text: &str) -> String {
    text.chars()
        .flat_map(|c| match c {
            '%' | '_' | '\\' => vec!['\\', c],
            c => vec![c],
        })
        .collect()
}

/// The user's people by name, a page at a time, optionally filtered by name and priority.
#[utoipa::path(get, path = "/people", tag = "people", security(("token" = [])), params(PeopleQuery, Paging),
    responses((status = 200, body = PeoplePage), (status = 400, body = ErrorBody)))]
async fn list_people(
    State(state): State<AppState>,
    user: AuthUser,
    ApiQuery(query): ApiQuery<PeopleQuery>,
    paging: Paging,
) -> ApiResult<ApiJson<PeoplePage>> {
    let Paging { page, limit } = paging;
    let priority = match query.priority.as_deref().map(str::trim).filter(|p| !p.is_empty()) {
        None => String::new(),
        Some(p @ ("HIGH" | "MEDIUM" | "LOW")) => p.to_string(),
        Some(_) => return Err(AppError::bad_request("bad_priority", "priority must be HIGH, MEDIUM or LOW")),
    };
    let q = like_escaped(&name_key(query.q.as_deref().unwrap_or("")));
    let rows: Vec<PersonRow> = state
        .db
        .fetch_all(
            &format!(
                "{PEOPLE} WHERE user_id = $1 AND ($2 = '' OR priority = $2) \
                 AND name_key LIKE '%' || $3 || '%' ESCAPE '\\' \
                 ORDER BY name_key, people_id LIMIT $4 OFFSET $5"
            ),
            args![user.user_id.as_str(), priority, q, limit + 1, page * limit],
        )
        .await?;
    let has_more = rows.len() as i64 > limit;
    let rows = rows.into_iter().take(limit as usize).collect();
    Ok(ApiJson(PeoplePage { results: with_contacts(&state, rows).await?, page, has_more }))
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
    Ok(ApiJson(PersonResult { results: own_person(&state, &user.user_id, &people_id).await? }))
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
    let command = ContactBookCommand::Edit {
        user_id: user.user_id.clone(),
        people_id: people_id.clone(),
        name: body.name,
        priority: body.priority,
    };
    state.command(&state.bus.contact_books, &user.user_id, command, &user.metadata()).await?;
    Ok(ApiJson(PersonResult { results: own_person(&state, &user.user_id, &people_id).await? }))
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

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum ContactIn {
    Id(String),
    Contact {
        contact_id: String,
        #[serde(default)]
        contact_name: Option<String>,
        #[serde(default)]
        contact_source: Option<String>,
    },
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum ContactsIn {
    Many(Vec<ContactIn>),
    One(ContactIn),
}

/// Reads the `contacts` parameter; `source` stands in for a contact's missing source.
fn parse_contacts(json: &str, source: &str) -> ApiResult<Vec<Contact>> {
    let parsed: ContactsIn = serde_json::from_str(json).map_err(|_| {
        AppError::invalid(
            "invalid_contacts",
            "contacts must be a JSON list of {contact_id, contact_name, contact_source}",
        )
    })?;
    let list = match parsed {
        ContactsIn::Many(list) => list,
        ContactsIn::One(one) => vec![one],
    };
    Ok(list
        .into_iter()
        .map(|c| match c {
            ContactIn::Id(contact_id) => {
                Contact { contact_name: contact_id.clone(), contact_id, contact_source: source.to_string() }
            }
            ContactIn::Contact { contact_id, contact_name, contact_source } => Contact {
                contact_name: contact_name.unwrap_or_else(|| contact_id.clone()),
                contact_id,
                contact_source: contact_source.filter(|s| !s.trim().is_empty()).unwrap_or_else(|| source.to_string()),
            },
        })
        .collect())
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
    let contacts = parse_contacts(&query.contacts, query.source.as_deref().unwrap_or("").trim())?;
    let key = contacts.first().map(|c| contact_key(&c.contact_source, &c.contact_id));
    let command = ContactBookCommand::Resolve {
        user_id: user.user_id.clone(),
        people_id: uuid::Uuid::now_v7().to_string(),
        contacts,
    };
    state.command(&state.bus.contact_books, &user.user_id, command, &user.metadata()).await?;
    #[derive(sqlx::FromRow)]
    struct Found {
        people_id: String,
    }
    let found: Option<Found> = state
        .db
        .fetch_optional(
            "SELECT people_id FROM people_contacts_view WHERE user_id = $1 AND contact_key = $2",
            args![user.user_id.as_str(), key.unwrap_or_default()],
        )
        .await?;
    let people_id = found.ok_or_else(person_not_found)?.people_id;
    Ok(ApiJson(PersonResult { results: own_person(&state, &user.user_id, &people_id).await? }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contacts_read_as_objects_plain_ids_or_one_object_and_take_the_calls_source() {
        let list = parse_contacts(r#"[{"contact_id":"ada@x.com","contact_name":"Ada"},"bob"]"#, "gmail").unwrap();
        assert_eq!(list[0].contact_source, "gmail");
        assert_eq!(list[0].contact_name, "Ada");
        assert_eq!(list[1].contact_id, "bob");
        let one = parse_contacts(r#"{"contact_id":"x","contact_source":"rss_news"}"#, "gmail").unwrap();
        assert_eq!(one[0].contact_source, "rss_news");
        assert!(parse_contacts("not json", "gmail").is_err());
    }

    #[test]
    fn like_patterns_escape_their_wildcards() {
        assert_eq!(like_escaped("50%_a\\b"), "50\\%\\_a\\\\b");
    }
}
