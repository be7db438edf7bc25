//! Tags and bookmarks.
//!
//! A [`TagBook`] is one user's set of tags (the aggregate id is the user id): it guards that
//! names are present, short and unique for the user whatever their case, so two browsers
//! creating the same name at once race on one aggregate and one of them is refused.
//! [`DocumentTags`] is the set of tags on one document in one scope: the user's own tags
//! (id [`document_tags_id`] of the user and the deeplink), or a channel's shared tags (id
//! [`shared_tags_id`]). Each tag put on or taken off is its own event, so history reads as what
//! each person did, and a change names only the tags it touches, so two people tagging the same
//! document at once both keep their tags.
//!
//! A bookmark is the reserved tag [`BOOKMARK_TAG_ID`] on a user's own document tags. It is in
//! no tag book: it cannot be created, renamed or deleted, and it is never shared.

use std::collections::{BTreeMap, BTreeSet};

use cqrs_es::Aggregate;
use serde::{Deserialize, Serialize};

use crate::error::{DomainError, ErrorKind};

/// The id of the internal bookmark tag, the same for every user.
pub const BOOKMARK_TAG_ID: &str = "bookmark";
/// The longest tag name, in characters.
pub const MAX_TAG_NAME_CHARS: usize = 50;
/// How many tags one user may have (the bookmark tag aside).
pub const MAX_TAGS_PER_USER: usize = 500;
/// How many tags one document may carry in one scope.
pub const MAX_TAGS_PER_DOCUMENT: usize = 50;

/// Returns a tag name as it is kept: trimmed, with runs of white space made one space.
pub fn clean_name(name: &str) -> String {
    name.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Returns the form under which a name is unique for its user.
pub fn name_key(name: &str) -> String {
    clean_name(name).to_lowercase()
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum TagCommand {
    /// Creates a tag; `tag_id` is chosen by the caller (a fresh UUID).
    Create {
        user_id: String,
        tag_id: String,
        name: String,
    },
    Rename {
        user_id: String,
        tag_id: String,
        name: String,
    },
    /// Deletes every tag of `tag_ids`, or none when one of them is not the user's.
    Delete {
        user_id: String,
        tag_ids: Vec<String>,
    },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum TagEvent {
    TagCreated {
        user_id: String,
        tag_id: String,
        name: String,
    },
    /// `from` is the name before, for whoever reads the history.
    TagRenamed {
        user_id: String,
        tag_id: String,
        from: String,
        name: String,
    },
    TagDeleted {
        user_id: String,
        tag_id: String,
        name: String,
    },
}

crate::impl_domain_event! {
    TagEvent, versions {
        TagCreated: "1",
        TagRenamed: "1",
        TagDeleted: "1",
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TagError {
    #[error("tag name is required")]
    EmptyName,
    #[error("tag name must be at most {MAX_TAG_NAME_CHARS} characters")]
    NameTooLong,
    #[error("tag name cannot contain control characters")]
    ControlCharacters,
    #[error("you already have a tag named {0}")]
    NameTaken(String),
    #[error("you can have at most {MAX_TAGS_PER_USER} tags")]
    TooManyTags,
    #[error("tag not found")]
    NotFound,
    #[error("this tag id is taken")]
    IdTaken,
    #[error("name at least one tag to delete")]
    NothingToDelete,
    #[error("the bookmark tag cannot be created, renamed or deleted")]
    Reserved,
}

impl DomainError for TagError {
    fn kind(&self) -> ErrorKind {
        match self {
            TagError::EmptyName
            | TagError::NameTooLong
            | TagError::ControlCharacters
            | TagError::TooManyTags
            | TagError::NothingToDelete => ErrorKind::Invalid,
            TagError::NameTaken(_) | TagError::IdTaken => ErrorKind::Conflict,
            TagError::NotFound => ErrorKind::NotFound,
            TagError::Reserved => ErrorKind::Forbidden,
        }
    }

    fn code(&self) -> &'static str {
        match self {
            TagError::EmptyName => "tag_name_required",
            TagError::NameTooLong => "tag_name_too_long",
            TagError::ControlCharacters => "tag_name_invalid",
            TagError::NameTaken(_) => "tag_name_taken",
            TagError::TooManyTags => "too_many_tags",
            TagError::NotFound => "tag_not_found",
            TagError::IdTaken => "tag_id_taken",
            TagError::NothingToDelete => "no_tags_named",
            TagError::Reserved => "bookmark_tag_reserved",
        }
    }
}

/// One user's tags, by id, with their names.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct TagBook {
    tags: BTreeMap<String, String>,
}

impl TagBook {
    /// Returns the cleaned name, or why it cannot be a name of this book's tag `except`.
    fn valid_name(&self, name: &str, except: Option<&str>) -> Result<String, TagError> {
        let name = clean_name(name);
        if name.is_empty() {
            return Err(TagError::EmptyName);
        }
        if name.chars().count() > MAX_TAG_NAME_CHARS {
            return Err(TagError::NameTooLong);
        }
        if name.chars().any(char::is_control) {
            return Err(TagError::ControlCharacters);
        }
        let key = name.to_lowercase();
        if let Some((_, taken)) =
            self.tags.iter().find(|(id, existing)| Some(id.as_str()) != except && existing.to_lowercase() == key)
        {
            return Err(TagError::NameTaken(taken.clone()));
        }
        Ok(name)
    }

    pub fn decide(&self, command: TagCommand) -> Result<Vec<TagEvent>, TagError> {
        match command {
            TagCommand::Create { user_id, tag_id, name } => {
                if tag_id == BOOKMARK_TAG_ID {
                    return Err(TagError::Reserved);
                }
                if self.tags.contains_key(&tag_id) {
                    return Err(TagError::IdTaken);
                }
                let name = self.valid_name(&name, None)?;
                if self.tags.len() >= MAX_TAGS_PER_USER {
                    return Err(TagError::TooManyTags);
                }
                Ok(vec![TagEvent::TagCreated { user_id, tag_id, name }])
            }
            TagCommand::Rename { user_id, tag_id, name } => {
                if tag_id == BOOKMARK_TAG_ID {
                    return Err(TagError::Reserved);
                }
                let from = self.tags.get(&tag_id).ok_or(TagError::NotFound)?;
                let name = self.valid_name(&name, Some(&tag_id))?;
                Ok(if *from == name {
                    vec![]
                } else {
                    vec![TagEvent::TagRenamed { user_id, tag_id, from: from.clone(), name }]
                })
            }
            TagCommand::Delete { user_id, tag_ids } => {
                let tag_ids: BTreeSet<String> = tag_ids.into_iter().collect();
                if tag_ids.is_empty() {
                    return Err(TagError::NothingToDelete);
                }
                if tag_ids.contains(BOOKMARK_TAG_ID) {
                    return Err(TagError::Reserved);
                }
                tag_ids
                    .into_iter()
                    .map(|tag_id| match self.tags.get(&tag_id) {
                        Some(name) => Ok(TagEvent::TagDeleted { user_id: user_id.clone(), tag_id, name: name.clone() }),
                        None => Err(TagError::NotFound),
                    })
                    .collect()
            }
        }
    }
}

impl Aggregate for TagBook {
    const TYPE: &'static str = "tag_book";
    type Command = TagCommand;
    type Event = TagEvent;
    type Error = TagError;
    type Services = ();

    crate::handle_by_deciding!();

    fn apply(&mut self, event: Self::Event) {
        match event {
            TagEvent::TagCreated { tag_id, name, .. } | TagEvent::TagRenamed { tag_id, name, .. } => {
                self.tags.insert(tag_id, name);
            }
            TagEvent::TagDeleted { tag_id, .. } => {
                self.tags.remove(&tag_id);
            }
        }
    }
}

/// Returns the id of a user's own tags on a document.
pub fn document_tags_id(user_id: &str, deeplink: &str) -> String {
    format!("{user_id}/{deeplink}")
}

/// Returns the id of a channel's shared tags on a document.
pub fn shared_tags_id(channel_id: &str, deeplink: &str) -> String {
    format!("channel:{channel_id}/{deeplink}")
}

/// What a tagging changes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum TagChange {
    /// Makes the tags exactly these. The bookmark is kept when it is not named: the tag picker
    /// never shows it, so choosing tags there must not drop it.
    Replace(BTreeSet<String>),
    /// Takes off `remove`, then puts on `add` (a tag in both ends up on). Tags put on or taken
    /// off by others meanwhile stay as they are.
    Apply { add: BTreeSet<String>, remove: BTreeSet<String> },
}

impl TagChange {
    /// Returns the change a client means when it shows `base` and the user chose `chosen`.
    pub fn from_base(base: BTreeSet<String>, chosen: BTreeSet<String>) -> TagChange {
        TagChange::Apply {
            add: chosen.difference(&base).cloned().collect(),
            remove: base.difference(&chosen).cloned().collect(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TagDocument {
    /// Who tags: the owner of the tags, or for shared tags the member acting.
    pub user_id: String,
    pub deeplink: String,
    /// Shared tags of this channel; `None` for the user's own tags.
    pub channel_id: Option<String>,
    /// The feed the user tagged from, for the record.
    pub feed_id: Option<String>,
    pub change: TagChange,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum DocumentTagsEvent {
    DocumentTagged {
        user_id: String,
        deeplink: String,
        tag_id: String,
        channel_id: Option<String>,
        feed_id: Option<String>,
    },
    DocumentUntagged {
        user_id: String,
        deeplink: String,
        tag_id: String,
        channel_id: Option<String>,
        feed_id: Option<String>,
    },
}

crate::impl_domain_event! {
    DocumentTagsEvent, versions {
        DocumentTagged: "1",
        DocumentUntagged: "1",
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DocumentTagsError {
    #[error("a document can carry at most {MAX_TAGS_PER_DOCUMENT} tags")]
    TooManyTags,
    #[error("bookmarks are personal and cannot be shared in a channel")]
    BookmarkNotShared,
}

impl DomainError for DocumentTagsError {
    fn kind(&self) -> ErrorKind {
        ErrorKind::Invalid
    }

    fn code(&self) -> &'static str {
        match self {
            DocumentTagsError::TooManyTags => "too_many_document_tags",
            DocumentTagsError::BookmarkNotShared => "bookmark_not_shared",
        }
    }
}

/// The tags on one document in one scope.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct DocumentTags {
    tags: BTreeSet<String>,
}

impl DocumentTags {
    pub fn decide(&self, command: TagDocument) -> Result<Vec<DocumentTagsEvent>, DocumentTagsError> {
        let TagDocument { user_id, deeplink, channel_id, feed_id, change } = command;
        let target: BTreeSet<String> = match change {
            TagChange::Replace(mut tags) => {
                if self.tags.contains(BOOKMARK_TAG_ID) {
                    tags.insert(BOOKMARK_TAG_ID.to_string());
                }
                tags
            }
            TagChange::Apply { add, remove } => {
                self.tags.difference(&remove).cloned().chain(add).collect::<BTreeSet<_>>()
            }
        };
        let added: Vec<&String> = target.difference(&self.tags).collect();
        if channel_id.is_some() && added.iter().any(|t| *t == BOOKMARK_TAG_ID) {
            return Err(DocumentTagsError::BookmarkNotShared);
        }
        if !added.is_empty() && target.len() > MAX_TAGS_PER_DOCUMENT {
            return Err(DocumentTagsError::TooManyTags);
        }
        let event = |tagged: bool, tag_id: &String| {
            let (user_id, deeplink, tag_id, channel_id, feed_id) =
                (user_id.clone(), deeplink.clone(), tag_id.clone(), channel_id.clone(), feed_id.clone());
            if tagged {
                DocumentTagsEvent::DocumentTagged { user_id, deeplink, tag_id, channel_id, feed_id }
            } else {
                DocumentTagsEvent::DocumentUntagged { user_id, deeplink, tag_id, channel_id, feed_id }
            }
        };
        Ok(self
            .tags
            .difference(&target)
            .map(|t| event(false, t))
            .chain(added.into_iter().map(|t| event(true, t)))
            .collect())
    }
}

impl Aggregate for DocumentTags {
    const TYPE: &'static str = "document_tags";
    type Command = TagDocument;
    type Event = DocumentTagsEvent;
    type Error = DocumentTagsError;
    type Services = ();

    crate::handle_by_deciding!();

    fn apply(&mut self, event: Self::Event) {
        match event {
            DocumentTagsEvent::DocumentTagged { tag_id, .. } => {
                self.tags.insert(tag_id);
            }
            DocumentTagsEvent::DocumentUntagged { tag_id, .. } => {
                self.tags.remove(&tag_id);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cqrs_es::test::TestFramework;

    fn created(tag_id: &str, name: &str) -> TagEvent {
        TagEvent::TagCreated { user_id: "u1".into(), tag_id: tag_id.into(), name: name.into() }
    }

    fn create(tag_id: &str, name: &str) -> TagCommand {
        TagCommand::Create { user_id: "u1".into(), tag_id: tag_id.into(), name: name.into() }
    }

    fn set(tags: &[&str]) -> BTreeSet<String> {
        tags.iter().map(|t| t.to_string()).collect()
    }

    fn tag_document(change: TagChange) -> TagDocument {
        TagDocument { user_id: "u1".into(), deeplink: "d1".into(), channel_id: None, feed_id: None, change }
    }

    fn tagged(tag_id: &str) -> DocumentTagsEvent {
        DocumentTagsEvent::DocumentTagged {
            user_id: "u1".into(),
            deeplink: "d1".into(),
            tag_id: tag_id.into(),
            channel_id: None,
            feed_id: None,
        }
    }

    fn untagged(tag_id: &str) -> DocumentTagsEvent {
        DocumentTagsEvent::DocumentUntagged {
            user_id: "u1".into(),
            deeplink: "d1".into(),
            tag_id: tag_id.into(),
            channel_id: None,
            feed_id: None,
        }
    }

    #[test]
    fn a_tag_is_created_with_its_name_trimmed_and_spaces_collapsed() {
        TestFramework::<TagBook>::with(())
            .given_no_previous_events()
            .when(create("t1", "  Q3   results "))
            .then_expect_events(vec![created("t1", "Q3 results")]);
    }

    #[test]
    fn a_blank_name_is_refused() {
        TestFramework::<TagBook>::with(())
            .given_no_previous_events()
            .when(create("t1", " \t "))
            .then_expect_error(TagError::EmptyName);
    }

    #[test]
    fn a_name_longer_than_the_limit_is_refused() {
        let long = "x".repeat(MAX_TAG_NAME_CHARS + 1);
        TestFramework::<TagBook>::with(())
            .given_no_previous_events()
            .when(create("t1", &long))
            .then_expect_error(TagError::NameTooLong);
        let longest = "é".repeat(MAX_TAG_NAME_CHARS);
        TestFramework::<TagBook>::with(())
            .given_no_previous_events()
            .when(create("t1", &longest))
            .then_expect_events(vec![created("t1", &longest)]);
    }

    #[test]
    fn a_name_with_control_characters_is_refused() {
        TestFramework::<TagBook>::with(())
            .given_no_previous_events()
            .when(create("t1", "a\u{7}b"))
            .then_expect_error(TagError::ControlCharacters);
    }

    #[test]
    fn a_name_the_user_has_in_another_case_is_taken() {
        TestFramework::<TagBook>::with(())
            .given(vec![created("t1", "Risk")])
            .when(create("t2", " RISK "))
            .then_expect_error(TagError::NameTaken("Risk".into()));
    }

    #[test]
    fn a_deleted_tags_name_is_free_again() {
        TestFramework::<TagBook>::with(())
            .given(vec![
                created("t1", "Risk"),
                TagEvent::TagDeleted { user_id: "u1".into(), tag_id: "t1".into(), name: "Risk".into() },
            ])
            .when(create("t2", "risk"))
            .then_expect_events(vec![created("t2", "risk")]);
    }

    #[test]
    fn the_bookmark_tag_cannot_be_created_renamed_or_deleted() {
        for command in [
            create(BOOKMARK_TAG_ID, "Saved"),
            TagCommand::Rename { user_id: "u1".into(), tag_id: BOOKMARK_TAG_ID.into(), name: "Saved".into() },
            TagCommand::Delete { user_id: "u1".into(), tag_ids: vec![BOOKMARK_TAG_ID.into()] },
        ] {
            TestFramework::<TagBook>::with(())
                .given(vec![created("t1", "Risk")])
                .when(command)
                .then_expect_error(TagError::Reserved);
        }
    }

    #[test]
    fn a_user_has_at_most_the_limit_of_tags() {
        let many: Vec<TagEvent> =
            (0..MAX_TAGS_PER_USER).map(|i| created(&format!("t{i}"), &format!("tag {i}"))).collect();
        TestFramework::<TagBook>::with(())
            .given(many)
            .when(create("new", "one more"))
            .then_expect_error(TagError::TooManyTags);
    }

    #[test]
    fn renaming_records_the_old_name_and_may_change_only_the_case() {
        TestFramework::<TagBook>::with(())
            .given(vec![created("t1", "risk")])
            .when(TagCommand::Rename { user_id: "u1".into(), tag_id: "t1".into(), name: "Risk".into() })
            .then_expect_events(vec![TagEvent::TagRenamed {
                user_id: "u1".into(),
                tag_id: "t1".into(),
                from: "risk".into(),
                name: "Risk".into(),
            }]);
    }

    #[test]
    fn renaming_to_the_same_name_changes_nothing() {
        TestFramework::<TagBook>::with(())
            .given(vec![created("t1", "Risk")])
            .when(TagCommand::Rename { user_id: "u1".into(), tag_id: "t1".into(), name: " Risk".into() })
            .then_expect_events(vec![]);
    }

    #[test]
    fn renaming_to_another_tags_name_is_refused() {
        TestFramework::<TagBook>::with(())
            .given(vec![created("t1", "Risk"), created("t2", "Macro")])
            .when(TagCommand::Rename { user_id: "u1".into(), tag_id: "t2".into(), name: "risk".into() })
            .then_expect_error(TagError::NameTaken("Risk".into()));
    }

    #[test]
    fn renaming_or_deleting_an_unknown_tag_is_not_found() {
        TestFramework::<TagBook>::with(())
            .given(vec![created("t1", "Risk")])
            .when(TagCommand::Rename { user_id: "u1".into(), tag_id: "t9".into(), name: "x".into() })
            .then_expect_error(TagError::NotFound);
        TestFramework::<TagBook>::with(())
            .given(vec![created("t1", "Risk")])
            .when(TagCommand::Delete { user_id: "u1".into(), tag_ids: vec!["t1".into(), "t9".into()] })
            .then_expect_error(TagError::NotFound);
    }

    #[test]
    fn deleting_several_tags_records_each() {
        TestFramework::<TagBook>::with(())
            .given(vec![created("t1", "Risk"), created("t2", "Macro")])
            .when(TagCommand::Delete { user_id: "u1".into(), tag_ids: vec!["t2".into(), "t1".into(), "t2".into()] })
            .then_expect_events(vec![
                TagEvent::TagDeleted { user_id: "u1".into(), tag_id: "t1".into(), name: "Risk".into() },
                TagEvent::TagDeleted { user_id: "u1".into(), tag_id: "t2".into(), name: "Macro".into() },
            ]);
    }

    #[test]
    fn deleting_nothing_is_refused() {
        TestFramework::<TagBook>::with(())
            .given(vec![created("t1", "Risk")])
            .when(TagCommand::Delete { user_id: "u1".into(), tag_ids: vec![] })
            .then_expect_error(TagError::NothingToDelete);
    }

    #[test]
    fn replacing_tags_records_what_came_off_and_what_went_on() {
        TestFramework::<DocumentTags>::with(())
            .given(vec![tagged("a"), tagged("b")])
            .when(tag_document(TagChange::Replace(set(&["b", "c"]))))
            .then_expect_events(vec![untagged("a"), tagged("c")]);
    }

    #[test]
    fn replacing_tags_keeps_the_bookmark_unless_it_is_named() {
        TestFramework::<DocumentTags>::with(())
            .given(vec![tagged(BOOKMARK_TAG_ID), tagged("a")])
            .when(tag_document(TagChange::Replace(set(&[]))))
            .then_expect_events(vec![untagged("a")]);
    }

    #[test]
    fn replacing_with_the_same_tags_changes_nothing() {
        TestFramework::<DocumentTags>::with(())
            .given(vec![tagged("a")])
            .when(tag_document(TagChange::Replace(set(&["a"]))))
            .then_expect_events(vec![]);
    }

    #[test]
    fn a_change_from_a_stale_view_keeps_what_others_tagged_meanwhile() {
        // The client showed no tags and the user chose `b`; meanwhile another browser added `a`.
        TestFramework::<DocumentTags>::with(())
            .given(vec![tagged("a")])
            .when(tag_document(TagChange::from_base(set(&[]), set(&["b"]))))
            .then_expect_events(vec![tagged("b")]);
    }

    #[test]
    fn a_change_takes_off_only_what_the_user_took_off() {
        TestFramework::<DocumentTags>::with(())
            .given(vec![tagged("a"), tagged("b"), tagged("c")])
            .when(tag_document(TagChange::from_base(set(&["a", "b"]), set(&["a"]))))
            .then_expect_events(vec![untagged("b")]);
    }

    #[test]
    fn bookmarking_twice_records_it_once() {
        TestFramework::<DocumentTags>::with(())
            .given(vec![tagged(BOOKMARK_TAG_ID)])
            .when(tag_document(TagChange::Apply { add: set(&[BOOKMARK_TAG_ID]), remove: set(&[]) }))
            .then_expect_events(vec![]);
    }

    #[test]
    fn a_document_carries_at_most_the_limit_of_tags_but_may_always_shed_some() {
        let full: Vec<DocumentTagsEvent> = (0..MAX_TAGS_PER_DOCUMENT).map(|i| tagged(&format!("t{i}"))).collect();
        TestFramework::<DocumentTags>::with(())
            .given(full.clone())
            .when(tag_document(TagChange::Apply { add: set(&["new"]), remove: set(&[]) }))
            .then_expect_error(DocumentTagsError::TooManyTags);
        TestFramework::<DocumentTags>::with(())
            .given(full)
            .when(tag_document(TagChange::Apply { add: set(&[]), remove: set(&["t0"]) }))
            .then_expect_events(vec![untagged("t0")]);
    }

    #[test]
    fn bookmarks_are_never_shared_in_a_channel() {
        TestFramework::<DocumentTags>::with(())
            .given_no_previous_events()
            .when(TagDocument {
                channel_id: Some("c1".into()),
                ..tag_document(TagChange::Replace(set(&[BOOKMARK_TAG_ID, "a"])))
            })
            .then_expect_error(DocumentTagsError::BookmarkNotShared);
    }

    #[test]
    fn shared_tags_record_the_channel_and_the_feed() {
        TestFramework::<DocumentTags>::with(())
            .given_no_previous_events()
            .when(TagDocument {
                channel_id: Some("c1".into()),
                feed_id: Some("f1".into()),
                ..tag_document(TagChange::Replace(set(&["a"])))
            })
            .then_expect_events(vec![DocumentTagsEvent::DocumentTagged {
                user_id: "u1".into(),
                deeplink: "d1".into(),
                tag_id: "a".into(),
                channel_id: Some("c1".into()),
                feed_id: Some("f1".into()),
            }]);
    }

    #[test]
    fn names_are_unique_under_case_and_spacing() {
        assert_eq!(name_key("  Q3   Results "), "q3 results");
    }
}
