//! Documents and their read state.
//!
//! A [`Document`] is one item of a source: a feed item, a crawled page, an uploaded file. Its id
//! is its deeplink. Ingesting it again with the same content changes nothing; new content is an
//! update; a deleted document is not brought back by a later fetch, only by its owner uploading it
//! again. The text itself lives in a content-addressed blob (by `content_hash`), so events stay
//! small and blobs never change.
//! [`ReadMark`] is one user's read state of one document.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use cqrs_es::Aggregate;
use serde::{Deserialize, Serialize};

use crate::error::{DomainError, ErrorKind};

/// What describes a document, apart from its text.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct DocumentFields {
    pub source_id: String,
    /// The item's own id in its source (feed GUID, upload id).
    pub guid: String,
    pub link: Option<String>,
    pub title: String,
    pub author: Option<String>,
    pub published_at: Option<DateTime<Utc>>,
    pub summary: Option<String>,
    /// SHA-256 of the extracted text, hex: also the key of its blob.
    pub content_hash: String,
    /// The user who owns it (uploads); `None` for items of shared sources.
    pub owner: Option<String>,
    /// Detail tags and file metadata (mime type, size, original file name, pages, ISIN, ...).
    pub metadata: BTreeMap<String, String>,
}

// Ingest is by far the most frequent command; boxing it would buy nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum DocumentCommand {
    Ingest(DocumentFields),
    Delete,
    /// A user made a public link to the document (recorded for auditors; changes nothing else).
    Share {
        user_id: String,
    },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum DocumentEvent {
    DocumentIngested(DocumentFields),
    /// Same document, new content: carries the whole description after the change.
    DocumentUpdated(DocumentFields),
    DocumentDeleted {
        source_id: String,
    },
    DocumentShared {
        user_id: String,
    },
}

crate::impl_domain_event! {
    DocumentEvent, versions {
        DocumentIngested: "1",
        DocumentUpdated: "1",
        DocumentDeleted: "1",
        DocumentShared: "1",
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DocumentError {
    #[error("document not found")]
    NotFound,
    #[error("a document needs a title or text")]
    Empty,
}

impl DomainError for DocumentError {
    fn kind(&self) -> ErrorKind {
        match self {
            DocumentError::NotFound => ErrorKind::NotFound,
            DocumentError::Empty => ErrorKind::Invalid,
        }
    }

    fn code(&self) -> &'static str {
        match self {
            DocumentError::NotFound => "document_not_found",
            DocumentError::Empty => "empty_document",
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Document {
    fields: Option<DocumentFields>,
    deleted: bool,
}

impl Document {
    pub fn decide(&self, command: DocumentCommand) -> Result<Vec<DocumentEvent>, DocumentError> {
        match command {
            DocumentCommand::Ingest(fields) => {
                if fields.title.trim().is_empty() && fields.content_hash.is_empty() {
                    return Err(DocumentError::Empty);
                }
                match &self.fields {
                    // A deleted feed item stays deleted when the feed still lists it; a file its
                    // owner uploads again comes back.
                    Some(_) if self.deleted && fields.owner.is_some() => {
                        Ok(vec![DocumentEvent::DocumentIngested(fields)])
                    }
                    _ if self.deleted => Ok(vec![]),
                    None => Ok(vec![DocumentEvent::DocumentIngested(fields)]),
                    Some(current) if *current == fields => Ok(vec![]),
                    Some(_) => Ok(vec![DocumentEvent::DocumentUpdated(fields)]),
                }
            }
            DocumentCommand::Delete => match &self.fields {
                Some(fields) if !self.deleted => {
                    Ok(vec![DocumentEvent::DocumentDeleted { source_id: fields.source_id.clone() }])
                }
                _ => Err(DocumentError::NotFound),
            },
            DocumentCommand::Share { user_id } => match &self.fields {
                Some(_) if !self.deleted => Ok(vec![DocumentEvent::DocumentShared { user_id }]),
                _ => Err(DocumentError::NotFound),
            },
        }
    }
}

impl Aggregate for Document {
    const TYPE: &'static str = "document";
    type Command = DocumentCommand;
    type Event = DocumentEvent;
    type Error = DocumentError;
    type Services = ();

    crate::handle_by_deciding!();

    fn apply(&mut self, event: Self::Event) {
        match event {
            DocumentEvent::DocumentIngested(fields) | DocumentEvent::DocumentUpdated(fields) => {
                self.fields = Some(fields);
                self.deleted = false;
            }
            DocumentEvent::DocumentDeleted { .. } => self.deleted = true,
            DocumentEvent::DocumentShared { .. } => {}
        }
    }
}

/// Returns the id of a user's read mark on a document.
pub fn read_mark_id(user_id: &str, deeplink: &str) -> String {
    format!("{user_id}/{deeplink}")
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ReadState {
    Read,
    Unread,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MarkDocument {
    pub user_id: String,
    pub deeplink: String,
    pub state: ReadState,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum ReadMarkEvent {
    DocumentMarkedRead { user_id: String, deeplink: String },
    DocumentMarkedUnread { user_id: String, deeplink: String },
}

crate::impl_domain_event! {
    ReadMarkEvent, versions {
        DocumentMarkedRead: "1",
        DocumentMarkedUnread: "1",
    }
}

/// Read marks cannot fail: marking twice is simply no change.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReadMarkError {}

impl DomainError for ReadMarkError {
    fn kind(&self) -> ErrorKind {
        match *self {}
    }

    fn code(&self) -> &'static str {
        match *self {}
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ReadMark {
    read: bool,
}

impl ReadMark {
    pub fn decide(&self, command: MarkDocument) -> Result<Vec<ReadMarkEvent>, ReadMarkError> {
        let MarkDocument { user_id, deeplink, state } = command;
        Ok(match (state, self.read) {
            (ReadState::Read, false) => {
                vec![ReadMarkEvent::DocumentMarkedRead { user_id, deeplink }]
            }
            (ReadState::Unread, true) => {
                vec![ReadMarkEvent::DocumentMarkedUnread { user_id, deeplink }]
            }
            _ => vec![],
        })
    }
}

impl Aggregate for ReadMark {
    const TYPE: &'static str = "read_mark";
    type Command = MarkDocument;
    type Event = ReadMarkEvent;
    type Error = ReadMarkError;
    type Services = ();

    crate::handle_by_deciding!();

    fn apply(&mut self, event: Self::Event) {
        self.read = matches!(event, ReadMarkEvent::DocumentMarkedRead { .. });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cqrs_es::test::TestFramework;

    fn fields(hash: &str) -> DocumentFields {
        DocumentFields {
            source_id: "s1".into(),
            guid: "item-1".into(),
            link: Some("https://example.com/a".into()),
            title: "Quarterly results".into(),
            content_hash: hash.into(),
            ..Default::default()
        }
    }

    #[test]
    fn a_new_item_is_ingested() {
        TestFramework::<Document>::with(())
            .given_no_previous_events()
            .when(DocumentCommand::Ingest(fields("h1")))
            .then_expect_events(vec![DocumentEvent::DocumentIngested(fields("h1"))]);
    }

    #[test]
    fn the_same_item_with_the_same_content_changes_nothing() {
        TestFramework::<Document>::with(())
            .given(vec![DocumentEvent::DocumentIngested(fields("h1"))])
            .when(DocumentCommand::Ingest(fields("h1")))
            .then_expect_events(vec![]);
    }

    #[test]
    fn new_content_for_a_known_item_is_an_update() {
        TestFramework::<Document>::with(())
            .given(vec![DocumentEvent::DocumentIngested(fields("h1"))])
            .when(DocumentCommand::Ingest(fields("h2")))
            .then_expect_events(vec![DocumentEvent::DocumentUpdated(fields("h2"))]);
    }

    #[test]
    fn a_deleted_document_is_not_brought_back_by_a_later_fetch() {
        TestFramework::<Document>::with(())
            .given(vec![
                DocumentEvent::DocumentIngested(fields("h1")),
                DocumentEvent::DocumentDeleted { source_id: "s1".into() },
            ])
            .when(DocumentCommand::Ingest(fields("h2")))
            .then_expect_events(vec![]);
    }

    #[test]
    fn a_deleted_upload_comes_back_when_its_owner_uploads_it_again() {
        let owned = DocumentFields { owner: Some("u1".into()), ..fields("h1") };
        TestFramework::<Document>::with(())
            .given(vec![
                DocumentEvent::DocumentIngested(owned.clone()),
                DocumentEvent::DocumentDeleted { source_id: "s1".into() },
            ])
            .when(DocumentCommand::Ingest(owned.clone()))
            .then_expect_events(vec![DocumentEvent::DocumentIngested(owned)]);
    }

    #[test]
    fn deleting_a_document_twice_is_refused() {
        TestFramework::<Document>::with(())
            .given(vec![
                DocumentEvent::DocumentIngested(fields("h1")),
                DocumentEvent::DocumentDeleted { source_id: "s1".into() },
            ])
            .when(DocumentCommand::Delete)
            .then_expect_error(DocumentError::NotFound);
    }

    #[test]
    fn marking_read_twice_records_it_once() {
        let mark = MarkDocument { user_id: "u1".into(), deeplink: "d1".into(), state: ReadState::Read };
        TestFramework::<ReadMark>::with(())
            .given(vec![ReadMarkEvent::DocumentMarkedRead { user_id: "u1".into(), deeplink: "d1".into() }])
            .when(mark)
            .then_expect_events(vec![]);
    }

    #[test]
    fn marking_unread_after_read_is_recorded() {
        TestFramework::<ReadMark>::with(())
            .given(vec![ReadMarkEvent::DocumentMarkedRead { user_id: "u1".into(), deeplink: "d1".into() }])
            .when(MarkDocument { user_id: "u1".into(), deeplink: "d1".into(), state: ReadState::Unread })
            .then_expect_events(vec![ReadMarkEvent::DocumentMarkedUnread {
                user_id: "u1".into(),
                deeplink: "d1".into(),
            }]);
    }
}
