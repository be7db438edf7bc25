//! Contacts (people).
//!
//! A [`ContactBook`] is one user's people (the aggregate id is the user id). A person is who
//! stands behind one or more contacts (an author's name in a feed, a sender's address in a mail
//! source), with a name and a priority the user chooses. Nobody else reads or changes another
//! user's book. The book guards that one contact is one person for its user: a card's contacts
//! are resolved here, and the first sight of a contact adds its person, so two browsers opening
//! the same author at once race on one aggregate and the loser then finds the person made.

use std::collections::BTreeMap;

use cqrs_es::Aggregate;
use serde::{Deserialize, Serialize};

use crate::error::{DomainError, ErrorKind};
pub use crate::source::Priority;

/// The longest person name, in characters.
pub const MAX_PERSON_NAME_CHARS: usize = 100;
/// The longest contact id or contact name, in characters.
pub const MAX_CONTACT_CHARS: usize = 320;
/// How many contacts one resolution may name.
pub const MAX_CONTACTS_PER_CALL: usize = 20;
/// How many people one user's book holds. Every resolution loads the book's history, so it is
/// bounded; a book past this would want a snapshot or per-contact reservations.
pub const MAX_PEOPLE_PER_USER: usize = 10_000;

/// One way of reaching a person, in one source.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Contact {
    /// The contact's id in its source: an address, a handle, or an author's name.
    pub contact_id: String,
    /// The name the source gives it.
    pub contact_name: String,
    /// The source it comes from (a source key, e.g. `rss_news`, `gmail`).
    pub contact_source: String,
}

/// Returns the key under which a contact is one person for its user: source and id, trimmed and
/// lowercased.
pub fn contact_key(contact_source: &str, contact_id: &str) -> String {
    format!("{}\n{}", contact_source.trim().to_lowercase(), contact_id.trim().to_lowercase())
}

/// Returns a name as it is kept: trimmed, with runs of white space made one space.
pub fn clean_name(name: &str) -> String {
    name.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Returns the form under which names sort and filter.
pub fn name_key(name: &str) -> String {
    clean_name(name).to_lowercase()
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum ContactBookCommand {
    /// Finds the person behind `contacts`: the one any of them already belongs to (the others
    /// are linked to it), or a new person named after the first contact, with id `people_id`
    /// (chosen by the caller, a fresh UUID).
    Resolve { user_id: String, people_id: String, contacts: Vec<Contact> },
    /// Renames a person and/or changes their priority.
    Edit { user_id: String, people_id: String, name: Option<String>, priority: Option<Priority> },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum ContactBookEvent {
    PersonAdded {
        user_id: String,
        people_id: String,
        name: String,
        priority: Priority,
        contacts: Vec<Contact>,
    },
    /// Contacts first seen together with a known one: they are the same person.
    ContactsLinked {
        user_id: String,
        people_id: String,
        contacts: Vec<Contact>,
    },
    /// `from` is the name before, for whoever reads the history.
    PersonRenamed {
        user_id: String,
        people_id: String,
        from: String,
        name: String,
    },
    PersonPriorityChanged {
        user_id: String,
        people_id: String,
        priority: Priority,
    },
}

crate::impl_domain_event! {
    ContactBookEvent, versions {
        PersonAdded: "1",
        ContactsLinked: "1",
        PersonRenamed: "1",
        PersonPriorityChanged: "1",
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ContactBookError {
    #[error("name is required")]
    NameRequired,
    #[error("name must be at most {MAX_PERSON_NAME_CHARS} characters")]
    NameTooLong,
    #[error("name cannot contain control characters")]
    ControlCharacters,
    #[error("name or priority is required")]
    NothingToEdit,
    #[error("name at least one contact")]
    NoContacts,
    #[error("a contact needs a contact_id and a source")]
    ContactIncomplete,
    #[error("a contact's id, name and source must be at most {MAX_CONTACT_CHARS} characters")]
    ContactTooLong,
    #[error("name at most {MAX_CONTACTS_PER_CALL} contacts at a time")]
    TooManyContacts,
    #[error("you can have at most {MAX_PEOPLE_PER_USER} people")]
    TooManyPeople,
    #[error("person not found")]
    NotFound,
    #[error("this person id is taken")]
    IdTaken,
}

impl DomainError for ContactBookError {
    fn kind(&self) -> ErrorKind {
        match self {
            ContactBookError::NotFound => ErrorKind::NotFound,
            ContactBookError::IdTaken => ErrorKind::Conflict,
            _ => ErrorKind::Invalid,
        }
    }

    fn code(&self) -> &'static str {
        match self {
            ContactBookError::NameRequired => "person_name_required",
            ContactBookError::NameTooLong => "person_name_too_long",
            ContactBookError::ControlCharacters => "person_name_invalid",
            ContactBookError::NothingToEdit => "nothing_to_edit",
            ContactBookError::NoContacts => "no_contacts",
            ContactBookError::ContactIncomplete => "contact_incomplete",
            ContactBookError::ContactTooLong => "contact_too_long",
            ContactBookError::TooManyContacts => "too_many_contacts",
            ContactBookError::TooManyPeople => "too_many_people",
            ContactBookError::NotFound => "person_not_found",
            ContactBookError::IdTaken => "person_id_taken",
        }
    }
}

/// Returns the cleaned name, or why it cannot be a person's name.
pub fn valid_name(name: &str) -> Result<String, ContactBookError> {
    let name = clean_name(name);
    if name.is_empty() {
        return Err(ContactBookError::NameRequired);
    }
    if name.chars().count() > MAX_PERSON_NAME_CHARS {
        return Err(ContactBookError::NameTooLong);
    }
    if name.chars().any(char::is_control) {
        return Err(ContactBookError::ControlCharacters);
    }
    Ok(name)
}

/// Returns the contacts trimmed, without repeats (by [`contact_key`]), a missing name taken from
/// the id; or why they are refused.
fn valid_contacts(contacts: Vec<Contact>) -> Result<Vec<Contact>, ContactBookError> {
    if contacts.is_empty() {
        return Err(ContactBookError::NoContacts);
    }
    if contacts.len() > MAX_CONTACTS_PER_CALL {
        return Err(ContactBookError::TooManyContacts);
    }
    let mut seen = std::collections::BTreeSet::new();
    let mut out = Vec::new();
    for contact in contacts {
        let contact_id = contact.contact_id.trim().to_string();
        let contact_source = contact.contact_source.trim().to_string();
        let contact_name = match clean_name(&contact.contact_name) {
            name if name.is_empty() => clean_name(&contact_id),
            name => name,
        };
        if contact_id.is_empty() || contact_source.is_empty() {
            return Err(ContactBookError::ContactIncomplete);
        }
        if [&contact_id, &contact_name, &contact_source].iter().any(|s| s.chars().count() > MAX_CONTACT_CHARS) {
            return Err(ContactBookError::ContactTooLong);
        }
        if [&contact_id, &contact_name, &contact_source].iter().any(|s| s.chars().any(char::is_control)) {
            return Err(ContactBookError::ContactIncomplete);
        }
        if seen.insert(contact_key(&contact_source, &contact_id)) {
            out.push(Contact { contact_id, contact_name, contact_source });
        }
    }
    Ok(out)
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Person {
    name: String,
    priority: Priority,
}

/// One user's people by id, and which person each contact is.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ContactBook {
    people: BTreeMap<String, Person>,
    /// [`contact_key`] to person id.
    contacts: BTreeMap<String, String>,
}

impl ContactBook {
    pub fn decide(&self, command: ContactBookCommand) -> Result<Vec<ContactBookEvent>, ContactBookError> {
        match command {
            ContactBookCommand::Resolve { user_id, people_id, contacts } => {
                let contacts = valid_contacts(contacts)?;
                let known = contacts
                    .iter()
                    .find_map(|c| self.contacts.get(&contact_key(&c.contact_source, &c.contact_id)).cloned());
                let unknown: Vec<Contact> = contacts
                    .iter()
                    .filter(|c| !self.contacts.contains_key(&contact_key(&c.contact_source, &c.contact_id)))
                    .cloned()
                    .collect();
                if let Some(people_id) = known {
                    return Ok(if unknown.is_empty() {
                        vec![]
                    } else {
                        vec![ContactBookEvent::ContactsLinked { user_id, people_id, contacts: unknown }]
                    });
                }
                if self.people.contains_key(&people_id) {
                    return Err(ContactBookError::IdTaken);
                }
                if self.people.len() >= MAX_PEOPLE_PER_USER {
                    return Err(ContactBookError::TooManyPeople);
                }
                // The first contact names the person, cut to the longest name a person may have.
                let name: String = contacts[0].contact_name.chars().take(MAX_PERSON_NAME_CHARS).collect();
                let name = valid_name(&name).unwrap_or_else(|_| "Unknown".to_string());
                Ok(vec![ContactBookEvent::PersonAdded {
                    user_id,
                    people_id,
                    name,
                    priority: Priority::Medium,
                    contacts,
                }])
            }
            ContactBookCommand::Edit { user_id, people_id, name, priority } => {
                if name.is_none() && priority.is_none() {
                    return Err(ContactBookError::NothingToEdit);
                }
                let person = self.people.get(&people_id).ok_or(ContactBookError::NotFound)?;
                let name = name.as_deref().map(valid_name).transpose()?;
                let mut events = Vec::new();
                if let Some(name) = name.filter(|n| *n != person.name) {
                    events.push(ContactBookEvent::PersonRenamed {
                        user_id: user_id.clone(),
                        people_id: people_id.clone(),
                        from: person.name.clone(),
                        name,
                    });
                }
                if let Some(priority) = priority.filter(|p| *p != person.priority) {
                    events.push(ContactBookEvent::PersonPriorityChanged { user_id, people_id, priority });
                }
                Ok(events)
            }
        }
    }
}

impl Aggregate for ContactBook {
    const TYPE: &'static str = "contact_book";
    type Command = ContactBookCommand;
    type Event = ContactBookEvent;
    type Error = ContactBookError;
    type Services = ();

    crate::handle_by_deciding!();

    fn apply(&mut self, event: Self::Event) {
        match event {
            ContactBookEvent::PersonAdded { people_id, name, priority, contacts, .. } => {
                for c in contacts {
                    self.contacts.insert(contact_key(&c.contact_source, &c.contact_id), people_id.clone());
                }
                self.people.insert(people_id, Person { name, priority });
            }
            ContactBookEvent::ContactsLinked { people_id, contacts, .. } => {
                for c in contacts {
                    self.contacts.insert(contact_key(&c.contact_source, &c.contact_id), people_id.clone());
                }
            }
            ContactBookEvent::PersonRenamed { people_id, name, .. } => {
                if let Some(person) = self.people.get_mut(&people_id) {
                    person.name = name;
                }
            }
            ContactBookEvent::PersonPriorityChanged { people_id, priority, .. } => {
                if let Some(person) = self.people.get_mut(&people_id) {
                    person.priority = priority;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cqrs_es::test::TestFramework;

    fn contact(id: &str, name: &str) -> Contact {
        Contact { contact_id: id.into(), contact_name: name.into(), contact_source: "rss_news".into() }
    }

    fn resolve(people_id: &str, contacts: Vec<Contact>) -> ContactBookCommand {
        ContactBookCommand::Resolve { user_id: "u1".into(), people_id: people_id.into(), contacts }
    }

    fn added(people_id: &str, name: &str, contacts: Vec<Contact>) -> ContactBookEvent {
        ContactBookEvent::PersonAdded {
            user_id: "u1".into(),
            people_id: people_id.into(),
            name: name.into(),
            priority: Priority::Medium,
            contacts,
        }
    }

    fn edit(people_id: &str, name: Option<&str>, priority: Option<Priority>) -> ContactBookCommand {
        ContactBookCommand::Edit {
            user_id: "u1".into(),
            people_id: people_id.into(),
            name: name.map(str::to_string),
            priority,
        }
    }

    #[test]
    fn a_contact_seen_first_adds_a_person_named_after_it_with_medium_priority() {
        TestFramework::<ContactBook>::with(())
            .given_no_previous_events()
            .when(resolve("p1", vec![contact(" ada@example.com ", "  Ada   Lovelace ")]))
            .then_expect_events(vec![added("p1", "Ada Lovelace", vec![contact("ada@example.com", "Ada Lovelace")])]);
    }

    #[test]
    fn a_contact_without_a_name_is_named_by_its_id() {
        TestFramework::<ContactBook>::with(())
            .given_no_previous_events()
            .when(resolve("p1", vec![contact("Jane Doe", "")]))
            .then_expect_events(vec![added("p1", "Jane Doe", vec![contact("Jane Doe", "Jane Doe")])]);
    }

    #[test]
    fn a_known_contact_in_another_case_resolves_to_its_person_and_records_nothing() {
        TestFramework::<ContactBook>::with(())
            .given(vec![added("p1", "Ada", vec![contact("ada@example.com", "Ada")])])
            .when(resolve("p2", vec![contact("ADA@example.com", "Ada L.")]))
            .then_expect_events(vec![]);
    }

    #[test]
    fn new_contacts_seen_with_a_known_one_are_linked_to_its_person() {
        TestFramework::<ContactBook>::with(())
            .given(vec![added("p1", "Ada", vec![contact("ada@example.com", "Ada")])])
            .when(resolve("p2", vec![contact("@ada", "Ada"), contact("ada@example.com", "Ada")]))
            .then_expect_events(vec![ContactBookEvent::ContactsLinked {
                user_id: "u1".into(),
                people_id: "p1".into(),
                contacts: vec![contact("@ada", "Ada")],
            }]);
    }

    #[test]
    fn resolving_nothing_or_incomplete_contacts_is_refused() {
        TestFramework::<ContactBook>::with(())
            .given_no_previous_events()
            .when(resolve("p1", vec![]))
            .then_expect_error(ContactBookError::NoContacts);
        TestFramework::<ContactBook>::with(())
            .given_no_previous_events()
            .when(resolve("p1", vec![contact("  ", "Ada")]))
            .then_expect_error(ContactBookError::ContactIncomplete);
        TestFramework::<ContactBook>::with(())
            .given_no_previous_events()
            .when(resolve("p1", (0..=MAX_CONTACTS_PER_CALL).map(|i| contact(&format!("c{i}"), "x")).collect()))
            .then_expect_error(ContactBookError::TooManyContacts);
    }

    #[test]
    fn editing_records_a_rename_and_a_priority_change_separately() {
        TestFramework::<ContactBook>::with(())
            .given(vec![added("p1", "Ada", vec![contact("ada", "Ada")])])
            .when(edit("p1", Some("  Ada  Lovelace "), Some(Priority::High)))
            .then_expect_events(vec![
                ContactBookEvent::PersonRenamed {
                    user_id: "u1".into(),
                    people_id: "p1".into(),
                    from: "Ada".into(),
                    name: "Ada Lovelace".into(),
                },
                ContactBookEvent::PersonPriorityChanged {
                    user_id: "u1".into(),
                    people_id: "p1".into(),
                    priority: Priority::High,
                },
            ]);
    }

    #[test]
    fn an_edit_that_changes_nothing_records_nothing() {
        TestFramework::<ContactBook>::with(())
            .given(vec![added("p1", "Ada", vec![contact("ada", "Ada")])])
            .when(edit("p1", Some(" Ada "), Some(Priority::Medium)))
            .then_expect_events(vec![]);
    }

    #[test]
    fn a_blank_or_overlong_name_is_refused() {
        TestFramework::<ContactBook>::with(())
            .given(vec![added("p1", "Ada", vec![contact("ada", "Ada")])])
            .when(edit("p1", Some(" \t "), None))
            .then_expect_error(ContactBookError::NameRequired);
        TestFramework::<ContactBook>::with(())
            .given(vec![added("p1", "Ada", vec![contact("ada", "Ada")])])
            .when(edit("p1", Some(&"x".repeat(MAX_PERSON_NAME_CHARS + 1)), None))
            .then_expect_error(ContactBookError::NameTooLong);
        TestFramework::<ContactBook>::with(())
            .given(vec![added("p1", "Ada", vec![contact("ada", "Ada")])])
            .when(edit("p1", None, None))
            .then_expect_error(ContactBookError::NothingToEdit);
    }

    #[test]
    fn editing_someone_not_in_the_book_is_not_found() {
        TestFramework::<ContactBook>::with(())
            .given(vec![added("p1", "Ada", vec![contact("ada", "Ada")])])
            .when(edit("p9", Some("Bob"), None))
            .then_expect_error(ContactBookError::NotFound);
    }
}
