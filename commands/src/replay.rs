//! Any aggregate rebuilt from its stored events by its type name, as JSON: what an auditor sees
//! of an aggregate's state at a point in its history.
//!
//! The command side loads one aggregate type it names in code ([`crate::unit`]); an auditor
//! names the type in a request, so each type the bus knows is listed here with the fold that
//! applies its events, the same way cqrs-es reads them back.

use cqrs_es::Aggregate;
use domain::analytics::AnalyticsConsumer;
use domain::ask::AskSession;
use domain::board::{Board, MatchDay};
use domain::channel::{Channel, ChannelDirectory, ChannelReader};
use domain::channel_document::ChannelDocument;
use domain::connection::Connection;
use domain::document::{Document, ReadMark};
use domain::email::EmailReservation;
use domain::feed_template::FeedTemplates;
use domain::instance::Instance;
use domain::notebook::{Note, NotebookShelf};
use domain::notification::NotificationInbox;
use domain::person::ContactBook;
use domain::portfolio::Portfolio;
use domain::report::Report;
use domain::session::Session;
use domain::source::{Source, Subscription};
use domain::summary::Summary;
use domain::tag::{DocumentTags, TagBook};
use domain::upload::Upload;
use domain::user::User;

use crate::feed::StoredEvent;

/// Why an aggregate could not be rebuilt.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    #[error("no aggregate type is named {0}")]
    UnknownType(String),
    /// A stored payload no longer reads as its type's event: a missing upcaster.
    #[error("{aggregate_type} event {sequence} does not read back: {reason}")]
    Unreadable { aggregate_type: String, sequence: i64, reason: String },
}

type Fold = fn(&[StoredEvent]) -> Result<serde_json::Value, ReplayError>;

/// Every aggregate type the command bus writes, with its fold.
const FOLDS: &[(&str, Fold)] = &[
    (AnalyticsConsumer::TYPE, fold::<AnalyticsConsumer>),
    (AskSession::TYPE, fold::<AskSession>),
    (Board::TYPE, fold::<Board>),
    (MatchDay::TYPE, fold::<MatchDay>),
    (Channel::TYPE, fold::<Channel>),
    (ChannelDirectory::TYPE, fold::<ChannelDirectory>),
    (ChannelReader::TYPE, fold::<ChannelReader>),
    (ChannelDocument::TYPE, fold::<ChannelDocument>),
    (Document::TYPE, fold::<Document>),
    (ReadMark::TYPE, fold::<ReadMark>),
    (EmailReservation::TYPE, fold::<EmailReservation>),
    (FeedTemplates::TYPE, fold::<FeedTemplates>),
    (Instance::TYPE, fold::<Instance>),
    (Note::TYPE, fold::<Note>),
    (NotebookShelf::TYPE, fold::<NotebookShelf>),
    (NotificationInbox::TYPE, fold::<NotificationInbox>),
    (ContactBook::TYPE, fold::<ContactBook>),
    (Portfolio::TYPE, fold::<Portfolio>),
    (Connection::TYPE, fold::<Connection>),
    (Summary::TYPE, fold::<Summary>),
    (Report::TYPE, fold::<Report>),
    (Session::TYPE, fold::<Session>),
    (Source::TYPE, fold::<Source>),
    (Subscription::TYPE, fold::<Subscription>),
    (DocumentTags::TYPE, fold::<DocumentTags>),
    (TagBook::TYPE, fold::<TagBook>),
    (Upload::TYPE, fold::<Upload>),
    (User::TYPE, fold::<User>),
];

/// Whether `aggregate_type` names an aggregate the bus writes.
pub fn is_known(aggregate_type: &str) -> bool {
    FOLDS.iter().any(|(name, _)| *name == aggregate_type)
}

/// Every aggregate type, for messages that list them.
pub fn known_types() -> impl Iterator<Item = &'static str> {
    FOLDS.iter().map(|(name, _)| *name)
}

/// Rebuilds an aggregate of `aggregate_type` from `events` (its own, in sequence order) and
/// returns its state serialised as JSON. The events come from the feed, which has upcast their
/// payloads to the current versions already.
pub fn rebuild(aggregate_type: &str, events: &[StoredEvent]) -> Result<serde_json::Value, ReplayError> {
    let (_, fold) = FOLDS
        .iter()
        .find(|(name, _)| *name == aggregate_type)
        .ok_or_else(|| ReplayError::UnknownType(aggregate_type.to_string()))?;
    fold(events)
}

fn fold<A: Aggregate>(events: &[StoredEvent]) -> Result<serde_json::Value, ReplayError> {
    let mut aggregate = A::default();
    for event in events {
        let payload: A::Event = event.decode().map_err(|e| ReplayError::Unreadable {
            aggregate_type: A::TYPE.to_string(),
            sequence: event.sequence,
            reason: e.to_string(),
        })?;
        aggregate.apply(payload);
    }
    serde_json::to_value(&aggregate).map_err(|e| ReplayError::Unreadable {
        aggregate_type: A::TYPE.to_string(),
        sequence: events.last().map(|e| e.sequence).unwrap_or_default(),
        reason: e.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::feed::Cursor;

    fn stored(sequence: i64, payload: serde_json::Value) -> StoredEvent {
        StoredEvent {
            cursor: Cursor { tx: 0, pos: sequence },
            aggregate_type: "document_tags".into(),
            aggregate_id: "u1/d1".into(),
            sequence,
            event_type: payload.as_object().and_then(|o| o.keys().next().cloned()).unwrap_or_default(),
            event_version: "1".into(),
            payload,
            metadata: serde_json::json!({}),
            recorded_at: String::new(),
        }
    }

    fn tagging(variant: &str, tag_id: &str) -> serde_json::Value {
        serde_json::json!({variant: {"user_id": "u1", "deeplink": "d1", "tag_id": tag_id, "channel_id": null, "feed_id": null}})
    }

    #[test]
    fn a_document_tags_aggregate_is_rebuilt_from_its_events_in_order() {
        let events = [
            stored(1, tagging("DocumentTagged", "t1")),
            stored(2, tagging("DocumentTagged", "t2")),
            stored(3, tagging("DocumentUntagged", "t1")),
        ];
        assert_eq!(rebuild("document_tags", &events).unwrap(), serde_json::json!({"tags": ["t2"]}));
        assert_eq!(rebuild("document_tags", &events[..1]).unwrap(), serde_json::json!({"tags": ["t1"]}));
    }

    #[test]
    fn an_unknown_type_or_an_unreadable_payload_is_refused() {
        assert_eq!(rebuild("gizmo", &[]), Err(ReplayError::UnknownType("gizmo".into())));
        let bad = [stored(1, serde_json::json!({"DocumentTagged": {"nope": 1}}))];
        assert!(matches!(rebuild("document_tags", &bad), Err(ReplayError::Unreadable { sequence: 1, .. })));
    }

    #[test]
    fn every_aggregate_type_is_listed_once() {
        let mut names: Vec<&str> = known_types().collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), FOLDS.len());
        assert!(is_known("channel") && is_known("user") && !is_known("channels"));
    }
}
