//! Contacts (people): the viewer's people (list, one, edit their name and priority) and the
//! person behind a card's contacts, which adds the person at first sight.
//!
//! A contact book is its user's alone: commands go to the viewer's own book, and reads filter by
//! the viewer, so another user's person id is simply not found.

use std::collections::HashMap;

use commands::args;
use commands::store::Arg;
use domain::person::{contact_key, name_key, Contact, ContactBookCommand, Priority};
use serde::{Deserialize, Serialize};

use crate::context::Context;
use crate::error::{Error, Kind, Result};
use crate::sql::placeholders;
use crate::viewer::Viewer;

fn person_not_found() -> Error {
    Error::new(Kind::NotFound, "person_not_found", "person not found")
}

/// One way of reaching a person, with the spec's field names.
#[derive(Debug, Clone, Serialize, sqlx::FromRow)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ContactOut {
    pub contact_id: String,
    pub contact_name: String,
    pub contact_source: String,
}

/// A person, with the spec's field names.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
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

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PersonResult {
    pub results: Person,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
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
async fn with_contacts(ctx: &Context, rows: Vec<PersonRow>) -> Result<Vec<Person>> {
    let mut contacts: HashMap<String, Vec<ContactOut>> = HashMap::new();
    if !rows.is_empty() {
        let sql = format!(
            "SELECT people_id, contact_id, contact_name, contact_source FROM people_contacts_view \
             WHERE people_id IN ({}) ORDER BY position, contact_key",
            placeholders(1, rows.len())
        );
        let found: Vec<ContactRow> =
            ctx.db.fetch_all(&sql, rows.iter().map(|r| Arg::from(&r.people_id)).collect()).await?;
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

/// The viewer's person `people_id`; anyone else's is not found.
async fn own_person(ctx: &Context, user_id: &str, people_id: &str) -> Result<Person> {
    let row: Option<PersonRow> = ctx
        .db
        .fetch_optional(&format!("{PEOPLE} WHERE user_id = $1 AND people_id = $2"), args![user_id, people_id])
        .await?;
    let row = row.ok_or_else(person_not_found)?;
    Ok(with_contacts(ctx, vec![row]).await?.pop().expect("one person in, one out"))
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

/// The viewer's people by name, `limit` a page; only those whose name contains `q` (whatever
/// its case) and, with a `priority` (HIGH, MEDIUM or LOW), of that priority.
pub async fn list(
    ctx: &Context,
    viewer: &Viewer,
    q: Option<&str>,
    priority: Option<&str>,
    page: i64,
    limit: i64,
) -> Result<PeoplePage> {
    let priority = match priority.map(str::trim).filter(|p| !p.is_empty()) {
        None => String::new(),
        Some(p @ ("HIGH" | "MEDIUM" | "LOW")) => p.to_string(),
        Some(_) => return Err(Error::malformed("bad_priority", "priority must be HIGH, MEDIUM or LOW")),
    };
    let q = like_escaped(&name_key(q.unwrap_or("")));
    let rows: Vec<PersonRow> = ctx
        .db
        .fetch_all(
            &format!(
                "{PEOPLE} WHERE user_id = $1 AND ($2 = '' OR priority = $2) \
                 AND name_key LIKE '%' || $3 || '%' ESCAPE '\\' \
                 ORDER BY name_key, people_id LIMIT $4 OFFSET $5"
            ),
            args![viewer.user_id.as_str(), priority, q, limit + 1, page * limit],
        )
        .await?;
    let has_more = rows.len() as i64 > limit;
    let rows = rows.into_iter().take(limit as usize).collect();
    Ok(PeoplePage { results: with_contacts(ctx, rows).await?, page, has_more })
}

/// One of the viewer's people; anyone else's is not found.
pub async fn person(ctx: &Context, viewer: &Viewer, people_id: &str) -> Result<PersonResult> {
    Ok(PersonResult { results: own_person(ctx, &viewer.user_id, people_id).await? })
}

/// Renames one of the viewer's people and/or changes their priority. Answers the person after it.
pub async fn edit(
    ctx: &Context,
    viewer: &Viewer,
    people_id: &str,
    name: Option<String>,
    priority: Option<Priority>,
) -> Result<PersonResult> {
    let command =
        ContactBookCommand::Edit { user_id: viewer.user_id.clone(), people_id: people_id.to_string(), name, priority };
    ctx.command(&ctx.bus.contact_books, &viewer.user_id, command, &viewer.metadata()).await?;
    person(ctx, viewer, people_id).await
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

/// Reads a card's contacts as JSON (a list of `{contact_id, contact_name, contact_source}`, the
/// name and source optional, or of plain ids, or one of either); `source` stands in for a
/// contact's missing source.
fn parse_contacts(json: &str, source: &str) -> Result<Vec<Contact>> {
    let parsed: ContactsIn = serde_json::from_str(json).map_err(|_| {
        Error::invalid("invalid_contacts", "contacts must be a JSON list of {contact_id, contact_name, contact_source}")
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

/// The person behind a card's `contacts` (JSON, as [`parse_contacts`] reads it; `source` for
/// those that name none). The first sight of a contact adds its person to the viewer's contact
/// book (MEDIUM priority, named after the first contact); contacts seen together with a known
/// one are linked to its person.
pub async fn behind_contacts(ctx: &Context, viewer: &Viewer, contacts: &str, source: &str) -> Result<PersonResult> {
    let contacts = parse_contacts(contacts, source.trim())?;
    let key = contacts.first().map(|c| contact_key(&c.contact_source, &c.contact_id));
    let command = ContactBookCommand::Resolve {
        user_id: viewer.user_id.clone(),
        people_id: uuid::Uuid::now_v7().to_string(),
        contacts,
    };
    ctx.command(&ctx.bus.contact_books, &viewer.user_id, command, &viewer.metadata()).await?;
    #[derive(sqlx::FromRow)]
    struct Found {
        people_id: String,
    }
    let found: Option<Found> = ctx
        .db
        .fetch_optional(
            "SELECT people_id FROM people_contacts_view WHERE user_id = $1 AND contact_key = $2",
            args![viewer.user_id.as_str(), key.unwrap_or_default()],
        )
        .await?;
    let people_id = found.ok_or_else(person_not_found)?.people_id;
    person(ctx, viewer, &people_id).await
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
