//! Pins the `event_type` and `event_version` every event is stored with.
//!
//! Both are written next to each payload in the `events` table, and existing databases hold them:
//! a change here would strand stored events (and any upcaster keyed on them). Each test builds
//! one event of every variant of an enum and compares what it would be stored as with the table
//! as it was recorded. The table must name every type in the enum's `EVENT_TYPES`, so a new
//! variant cannot go unpinned. Only the variant matters, so every field holds a placeholder.

use chrono::{DateTime, Utc};
use cqrs_es::DomainEvent;
use domain::analytics::ConsumerEvent;
use domain::ask::{AskEvent, AskScope, Feedback};
use domain::channel::{self, BoardDefinition, ChannelEvent, DirectoryEvent, ReaderEvent};
use domain::channel_document::ChannelDocumentEvent;
use domain::document::{DocumentEvent, DocumentFields, ReadMarkEvent};
use domain::email::EmailEvent;
use domain::instance::InstanceEvent;
use domain::notebook::{NoteEvent, NotebookEvent, NotebookType};
use domain::notification::InboxEvent;
use domain::person::ContactBookEvent;
use domain::report::{ReportEvent, ReportType};
use domain::session::{RevokeReason, SessionEvent};
use domain::source::{Priority, SourceEvent, SourceKind, SubscriptionEvent};
use domain::tag::{DocumentTagsEvent, TagEvent};
use domain::upload::{UploadEvent, UploadTarget};
use domain::user::{self, UserEvent};
use serde_json::Value;

/// Asserts that `events` (one of each variant, in the order of `expected`) are stored as the
/// `(event_type, event_version)` pairs of `expected`, that `expected` covers all of the enum's
/// `event_types`, and that each event's type is the tag serde stores its payload under (the
/// projections read payloads back by it). With the `schema` feature, also that every type has a
/// published schema at its version and that each example payload fits it.
fn assert_stored_as<E: DomainEvent>(event_types: &[&str], events: Vec<E>, expected: &[(&str, &str)]) {
    let stored: Vec<(String, String)> = events.iter().map(|e| (e.event_type(), e.event_version())).collect();
    let stored: Vec<(&str, &str)> = stored.iter().map(|(t, v)| (t.as_str(), v.as_str())).collect();
    assert_eq!(stored, expected);
    let pinned: Vec<&str> = expected.iter().map(|(t, _)| *t).collect();
    assert_eq!(pinned, event_types, "every event type of the enum is pinned");
    for event in &events {
        assert_eq!(serde_tag(event), event.event_type());
        #[cfg(feature = "schema")]
        assert_fits_its_schema(event_types, event);
    }
}

#[cfg(feature = "schema")]
mod json_schema;

/// Asserts that the schema catalogue has `event`'s type at its version, and that its stored
/// payload fits that schema. Event types are unique within an aggregate only (a document and a
/// channel's document both have `DocumentShared`), so the schemas are those of the aggregate whose
/// event types are exactly `event_types`.
#[cfg(feature = "schema")]
fn assert_fits_its_schema<E: DomainEvent>(event_types: &[&str], event: &E) {
    static CATALOGUE: std::sync::OnceLock<Vec<domain::schema::EventSchema>> = std::sync::OnceLock::new();
    let catalogue = CATALOGUE.get_or_init(domain::schema::catalogue);
    let aggregate = catalogue
        .iter()
        .map(|s| s.aggregate_type)
        .find(|aggregate| {
            let types: Vec<&str> =
                catalogue.iter().filter(|s| s.aggregate_type == *aggregate).map(|s| s.event_type).collect();
            types == event_types
        })
        .unwrap_or_else(|| panic!("no aggregate in the schema catalogue has the event types {event_types:?}"));
    let (event_type, version) = (event.event_type(), event.event_version());
    let schema = catalogue
        .iter()
        .find(|s| s.aggregate_type == aggregate && s.event_type == event_type)
        .unwrap_or_else(|| panic!("{aggregate} {event_type} has no schema"));
    assert_eq!(schema.event_version, version, "{event_type}'s schema is of its current version");
    let payload = serde_json::to_value(event).unwrap();
    let broken = json_schema::violation(&schema.schema, &schema.schema, &payload, "$");
    assert_eq!(broken, None, "{aggregate} {event_type}: {payload} against {}", schema.schema);
}

/// Returns the name serde stores an externally tagged enum value under: `{"Name": ..}`, or
/// `"Name"` for a unit variant.
fn serde_tag(event: &impl serde::Serialize) -> String {
    match serde_json::to_value(event).unwrap() {
        Value::Object(map) if map.len() == 1 => map.keys().next().unwrap().clone(),
        Value::String(name) => name,
        other => panic!("not an externally tagged enum value: {other}"),
    }
}

fn s() -> String {
    String::new()
}

fn epoch() -> DateTime<Utc> {
    DateTime::default()
}

#[test]
fn ask_events_keep_their_stored_types_and_versions() {
    assert_stored_as(
        AskEvent::EVENT_TYPES,
        vec![
            AskEvent::QuestionAsked {
                user_id: s(),
                session_id: s(),
                message_id: s(),
                prompt: s(),
                scope: AskScope::Home,
                pro: false,
                web_search: false,
                search_mode: false,
                at: epoch(),
            },
            AskEvent::AnswerCompleted { user_id: s(), session_id: s(), message_id: s(), answer: Value::Null },
            AskEvent::AnswerStopped { user_id: s(), session_id: s(), message_id: s() },
            AskEvent::AnswerFailed { user_id: s(), session_id: s(), message_id: s(), code: s() },
            AskEvent::FeedbackGiven {
                user_id: s(),
                session_id: s(),
                message_id: s(),
                feedback: Feedback::Correct,
                text: None,
            },
            AskEvent::SessionTitled { user_id: s(), session_id: s(), title: s() },
        ],
        &[
            ("QuestionAsked", "1"),
            ("AnswerCompleted", "1"),
            ("AnswerStopped", "1"),
            ("AnswerFailed", "1"),
            ("FeedbackGiven", "1"),
            ("SessionTitled", "1"),
        ],
    );
}

#[test]
fn channel_directory_events_keep_their_stored_types_and_versions() {
    assert_stored_as(
        DirectoryEvent::EVENT_TYPES,
        vec![
            DirectoryEvent::ChannelNameReserved { channel_id: s(), name: s() },
            DirectoryEvent::ChannelRenamed { channel_id: s(), from: s(), name: s(), renamed_by: s() },
        ],
        &[("ChannelNameReserved", "1"), ("ChannelRenamed", "1")],
    );
}

#[test]
fn channel_events_keep_their_stored_types_and_versions() {
    let role = channel::Role::Member;
    assert_stored_as(
        ChannelEvent::EVENT_TYPES,
        vec![
            ChannelEvent::ChannelCreated {
                channel_id: s(),
                name: s(),
                created_by: s(),
                organization_id: 0,
                published: false,
            },
            ChannelEvent::ChannelPublished { channel_id: s(), published_by: s() },
            ChannelEvent::ChannelUnpublished { channel_id: s(), unpublished_by: s() },
            ChannelEvent::MemberAdded { channel_id: s(), user_id: s(), role, added_by: s() },
            ChannelEvent::MemberRoleChanged { channel_id: s(), user_id: s(), from: role, role, changed_by: s() },
            ChannelEvent::MemberRemoved { channel_id: s(), user_id: s(), removed_by: s() },
            ChannelEvent::BoardShared {
                channel_id: s(),
                board_id: s(),
                definition: Box::new(BoardDefinition::default()),
                shared_by: s(),
            },
            ChannelEvent::BoardUnshared { channel_id: s(), board_id: s(), unshared_by: s() },
        ],
        &[
            ("ChannelCreated", "1"),
            ("ChannelPublished", "1"),
            ("ChannelUnpublished", "1"),
            ("MemberAdded", "1"),
            ("MemberRoleChanged", "1"),
            ("MemberRemoved", "1"),
            ("BoardShared", "1"),
            ("BoardUnshared", "1"),
        ],
    );
}

#[test]
fn channel_reader_events_keep_their_stored_types_and_versions() {
    assert_stored_as(
        ReaderEvent::EVENT_TYPES,
        vec![
            ReaderEvent::ChannelStarred { channel_id: s(), user_id: s() },
            ReaderEvent::ChannelUnstarred { channel_id: s(), user_id: s() },
            ReaderEvent::ChannelSeen { channel_id: s(), user_id: s(), at: s() },
            ReaderEvent::CommentsSeen { channel_id: s(), user_id: s(), deeplink: s(), at: s() },
        ],
        &[("ChannelStarred", "1"), ("ChannelUnstarred", "1"), ("ChannelSeen", "1"), ("CommentsSeen", "1")],
    );
}

#[test]
fn channel_document_events_keep_their_stored_types_and_versions() {
    assert_stored_as(
        ChannelDocumentEvent::EVENT_TYPES,
        vec![
            ChannelDocumentEvent::DocumentShared { channel_id: s(), deeplink: s(), shared_by: s() },
            ChannelDocumentEvent::DocumentUnshared { channel_id: s(), deeplink: s(), unshared_by: s() },
            ChannelDocumentEvent::CommentAdded {
                channel_id: s(),
                deeplink: s(),
                comment_id: s(),
                author: s(),
                text: s(),
                mentioned: vec![],
            },
            ChannelDocumentEvent::CommentEdited {
                channel_id: s(),
                deeplink: s(),
                comment_id: s(),
                author: s(),
                text: s(),
                mentioned: vec![],
                newly_mentioned: vec![],
            },
            ChannelDocumentEvent::CommentDeleted {
                channel_id: s(),
                deeplink: s(),
                comment_id: s(),
                author: s(),
                deleted_by: s(),
            },
        ],
        &[
            ("DocumentShared", "1"),
            ("DocumentUnshared", "1"),
            ("CommentAdded", "1"),
            ("CommentEdited", "1"),
            ("CommentDeleted", "1"),
        ],
    );
}

#[test]
fn document_events_keep_their_stored_types_and_versions() {
    assert_stored_as(
        DocumentEvent::EVENT_TYPES,
        vec![
            DocumentEvent::DocumentIngested(DocumentFields::default()),
            DocumentEvent::DocumentUpdated(DocumentFields::default()),
            DocumentEvent::DocumentDeleted { source_id: s() },
            DocumentEvent::DocumentShared { user_id: s() },
        ],
        &[("DocumentIngested", "1"), ("DocumentUpdated", "1"), ("DocumentDeleted", "1"), ("DocumentShared", "1")],
    );
}

#[test]
fn read_mark_events_keep_their_stored_types_and_versions() {
    assert_stored_as(
        ReadMarkEvent::EVENT_TYPES,
        vec![
            ReadMarkEvent::DocumentMarkedRead { user_id: s(), deeplink: s() },
            ReadMarkEvent::DocumentMarkedUnread { user_id: s(), deeplink: s() },
        ],
        &[("DocumentMarkedRead", "1"), ("DocumentMarkedUnread", "1")],
    );
}

#[test]
fn email_events_keep_their_stored_types_and_versions() {
    assert_stored_as(
        EmailEvent::EVENT_TYPES,
        vec![EmailEvent::EmailReserved { user_id: s() }, EmailEvent::EmailReleased { user_id: s() }],
        &[("EmailReserved", "1"), ("EmailReleased", "1")],
    );
}

#[test]
fn analytics_consumer_events_keep_their_stored_types_and_versions() {
    assert_stored_as(
        ConsumerEvent::EVENT_TYPES,
        vec![
            ConsumerEvent::ConsumerRegistered { name: s(), actor: s() },
            ConsumerEvent::ConsumerAcknowledged { tx: 0, pos: 1, actor: s() },
            ConsumerEvent::ConsumerDeleted { actor: s() },
        ],
        &[("ConsumerRegistered", "1"), ("ConsumerAcknowledged", "1"), ("ConsumerDeleted", "1")],
    );
}

#[test]
fn instance_events_keep_their_stored_types_and_versions() {
    assert_stored_as(
        InstanceEvent::EVENT_TYPES,
        vec![
            InstanceEvent::AdministratorAppointed { user_id: s() },
            InstanceEvent::AssistantConfigured { by: s(), url: None, model: s(), api_key: None },
        ],
        &[("AdministratorAppointed", "1"), ("AssistantConfigured", "1")],
    );
}

#[test]
fn notebook_events_keep_their_stored_types_and_versions() {
    assert_stored_as(
        NotebookEvent::EVENT_TYPES,
        vec![
            NotebookEvent::NotebookCreated {
                user_id: s(),
                notebook_id: s(),
                name: s(),
                notebook_type: NotebookType::User,
                feed_id: None,
                channel_id: None,
            },
            NotebookEvent::NotebookRenamed { user_id: s(), notebook_id: s(), from: s(), name: s() },
            NotebookEvent::NotebookDeleted { user_id: s(), notebook_id: s(), name: s() },
        ],
        &[("NotebookCreated", "1"), ("NotebookRenamed", "1"), ("NotebookDeleted", "1")],
    );
}

#[test]
fn note_events_keep_their_stored_types_and_versions() {
    assert_stored_as(
        NoteEvent::EVENT_TYPES,
        vec![
            NoteEvent::NoteCreated {
                user_id: s(),
                notebook_id: s(),
                note_id: s(),
                name: s(),
                body: None,
                snippet: None,
            },
            NoteEvent::NoteEdited { user_id: s(), notebook_id: s(), note_id: s(), version: 2, name: None, body: None },
            NoteEvent::NoteDeleted { user_id: s(), notebook_id: s(), note_id: s() },
        ],
        &[("NoteCreated", "1"), ("NoteEdited", "1"), ("NoteDeleted", "1")],
    );
}

#[test]
fn notification_inbox_events_keep_their_stored_types_and_versions() {
    assert_stored_as(
        InboxEvent::EVENT_TYPES,
        vec![
            InboxEvent::NotificationRead { user_id: s(), notification_id: s() },
            InboxEvent::NotificationsAllRead { user_id: s(), upto: 0 },
        ],
        &[("NotificationRead", "1"), ("NotificationsAllRead", "1")],
    );
}

#[test]
fn contact_book_events_keep_their_stored_types_and_versions() {
    assert_stored_as(
        ContactBookEvent::EVENT_TYPES,
        vec![
            ContactBookEvent::PersonAdded {
                user_id: s(),
                people_id: s(),
                name: s(),
                priority: Priority::Medium,
                contacts: vec![],
            },
            ContactBookEvent::ContactsLinked { user_id: s(), people_id: s(), contacts: vec![] },
            ContactBookEvent::PersonRenamed { user_id: s(), people_id: s(), from: s(), name: s() },
            ContactBookEvent::PersonPriorityChanged { user_id: s(), people_id: s(), priority: Priority::High },
        ],
        &[("PersonAdded", "1"), ("ContactsLinked", "1"), ("PersonRenamed", "1"), ("PersonPriorityChanged", "1")],
    );
}

#[test]
fn portfolio_events_keep_their_stored_types_and_versions() {
    use domain::portfolio::PortfolioEvent;
    assert_stored_as(
        PortfolioEvent::EVENT_TYPES,
        vec![
            PortfolioEvent::PortfolioCreated { owner: s(), name: s(), holdings: vec![] },
            PortfolioEvent::PortfolioUpdated { owner: s(), name: s(), holdings: vec![] },
            PortfolioEvent::PortfolioDeleted { owner: s() },
        ],
        &[("PortfolioCreated", "1"), ("PortfolioUpdated", "1"), ("PortfolioDeleted", "1")],
    );
}

#[test]
fn connection_events_keep_their_stored_types_and_versions() {
    use domain::connection::{ConnectionEvent, FolderCursor, MailSecurity};
    let cursor = FolderCursor { uid_validity: 1, last_uid: 2 };
    assert_stored_as(
        ConnectionEvent::EVENT_TYPES,
        vec![
            ConnectionEvent::MailConnected {
                user_id: s(),
                host: s(),
                port: 993,
                security: MailSecurity::Tls,
                username: s(),
                password: s(),
                folders: vec![],
            },
            ConnectionEvent::FoldersChosen { user_id: s(), folders: vec![] },
            ConnectionEvent::MailFolderSynced { user_id: s(), folder: s(), cursor, imported: 0 },
            ConnectionEvent::DriveConnected { user_id: s(), url: s(), username: s(), password: s() },
            ConnectionEvent::DriveSynced { user_id: s(), imported: 0 },
            ConnectionEvent::SyncFailed { user_id: s(), reason: s(), credentials_refused: false },
            ConnectionEvent::AppDisconnected { user_id: s(), app: s() },
        ],
        &[
            ("MailConnected", "1"),
            ("FoldersChosen", "1"),
            ("MailFolderSynced", "1"),
            ("DriveConnected", "1"),
            ("DriveSynced", "1"),
            ("SyncFailed", "1"),
            ("AppDisconnected", "1"),
        ],
    );
}

#[test]
fn summary_events_keep_their_stored_types_and_versions() {
    use domain::summary::SummaryEvent;
    assert_stored_as(
        SummaryEvent::EVENT_TYPES,
        vec![
            SummaryEvent::SummaryRequested { user_id: s(), deeplink: s(), title: s() },
            SummaryEvent::SummaryStarted { user_id: s() },
            SummaryEvent::SummaryCompleted { user_id: s(), deeplink: s(), title: s(), pdf_key: s(), points: 1 },
            SummaryEvent::SummaryFailed { user_id: s(), reason: s() },
        ],
        &[("SummaryRequested", "1"), ("SummaryStarted", "1"), ("SummaryCompleted", "1"), ("SummaryFailed", "1")],
    );
}

#[test]
fn session_events_keep_their_stored_types_and_versions() {
    assert_stored_as(
        SessionEvent::EVENT_TYPES,
        vec![
            SessionEvent::SessionStarted { user_id: s(), expires_at: epoch(), rotated_from: None },
            SessionEvent::SessionRevoked { user_id: s(), reason: RevokeReason::SignedOut, at: None },
        ],
        &[("SessionStarted", "1"), ("SessionRevoked", "1")],
    );
}

#[test]
fn source_events_keep_their_stored_types_and_versions() {
    assert_stored_as(
        SourceEvent::EVENT_TYPES,
        vec![
            SourceEvent::SourceRegistered {
                kind: SourceKind::Rss,
                key: s(),
                url: None,
                label: s(),
                provisional: false,
            },
            SourceEvent::SourceRenamed { from: s(), label: s() },
        ],
        &[("SourceRegistered", "1"), ("SourceRenamed", "1")],
    );
}

#[test]
fn subscription_events_keep_their_stored_types_and_versions() {
    assert_stored_as(
        SubscriptionEvent::EVENT_TYPES,
        vec![
            SubscriptionEvent::SourceFollowed { user_id: s(), source_id: s(), priority: Priority::Low },
            SubscriptionEvent::SourceUnfollowed { user_id: s(), source_id: s() },
            SubscriptionEvent::SourcePriorityChanged { user_id: s(), source_id: s(), priority: Priority::High },
            SubscriptionEvent::SourceFetchRequested { user_id: s(), source_id: s() },
        ],
        &[
            ("SourceFollowed", "1"),
            ("SourceUnfollowed", "1"),
            ("SourcePriorityChanged", "1"),
            ("SourceFetchRequested", "1"),
        ],
    );
}

#[test]
fn tag_events_keep_their_stored_types_and_versions() {
    assert_stored_as(
        TagEvent::EVENT_TYPES,
        vec![
            TagEvent::TagCreated { user_id: s(), tag_id: s(), name: s() },
            TagEvent::TagRenamed { user_id: s(), tag_id: s(), from: s(), name: s() },
            TagEvent::TagDeleted { user_id: s(), tag_id: s(), name: s() },
        ],
        &[("TagCreated", "1"), ("TagRenamed", "1"), ("TagDeleted", "1")],
    );
}

#[test]
fn document_tags_events_keep_their_stored_types_and_versions() {
    assert_stored_as(
        DocumentTagsEvent::EVENT_TYPES,
        vec![
            DocumentTagsEvent::DocumentTagged {
                user_id: s(),
                deeplink: s(),
                tag_id: s(),
                channel_id: None,
                feed_id: None,
            },
            DocumentTagsEvent::DocumentUntagged {
                user_id: s(),
                deeplink: s(),
                tag_id: s(),
                channel_id: None,
                feed_id: None,
            },
        ],
        &[("DocumentTagged", "1"), ("DocumentUntagged", "1")],
    );
}

#[test]
fn upload_events_keep_their_stored_types_and_versions() {
    let target =
        UploadTarget { user_id: s(), file_id: s(), source: s(), name: s(), mime_type: s(), bucket: s(), key: s() };
    assert_stored_as(
        UploadEvent::EVENT_TYPES,
        vec![
            UploadEvent::UploadInitiated(target),
            UploadEvent::UploadTransferred { user_id: s(), size: 0, feed_id: None },
            UploadEvent::UploadProcessed { user_id: s(), deeplink: s(), pages: 0 },
            UploadEvent::UploadFailed { user_id: s(), reason: s() },
            UploadEvent::UploadRemoved { user_id: s(), deeplink: None },
        ],
        &[
            ("UploadInitiated", "1"),
            ("UploadTransferred", "1"),
            ("UploadProcessed", "1"),
            ("UploadFailed", "1"),
            ("UploadRemoved", "1"),
        ],
    );
}

#[test]
fn user_events_keep_their_stored_types_and_versions() {
    assert_stored_as(
        UserEvent::EVENT_TYPES,
        vec![
            UserEvent::UserSignedUp { email: s(), username: s(), password_hash: s(), is_admin: false },
            UserEvent::ProfileUpdated { username: s(), industry: None, profession: None, whatsapp_number: None },
            UserEvent::PreferencesChanged { nav_state: None, askneedl_pro: false },
            UserEvent::OnboardingCompleted,
            UserEvent::FeatureFlagSet { flag: s(), value: s() },
            UserEvent::RoleGranted { role: user::Role::Admin },
            UserEvent::RoleRevoked { role: user::Role::Auditor },
            UserEvent::PasswordChanged { password_hash: s() },
            UserEvent::PasswordResetLinkIssued { token_hash: s(), expires_at: epoch(), by_admin: true },
            UserEvent::PasswordReset { token_hash: s(), password_hash: s() },
            UserEvent::UserErased { by_admin: false },
            UserEvent::PlanAssigned { plan: s() },
            UserEvent::WhatsappCodeIssued { number: s(), code_hash: s(), expires_at: epoch() },
            UserEvent::WhatsappCodeRejected { tries_left: 4 },
            UserEvent::WhatsappVerified { number: s() },
        ],
        &[
            ("UserSignedUp", "1"),
            ("ProfileUpdated", "1"),
            ("PreferencesChanged", "1"),
            ("OnboardingCompleted", "1"),
            ("FeatureFlagSet", "1"),
            ("RoleGranted", "1"),
            ("RoleRevoked", "1"),
            ("PasswordChanged", "1"),
            ("PasswordResetLinkIssued", "1"),
            ("PasswordReset", "1"),
            ("UserErased", "1"),
            ("PlanAssigned", "1"),
            ("WhatsappCodeIssued", "1"),
            ("WhatsappCodeRejected", "1"),
            ("WhatsappVerified", "1"),
        ],
    );
}

#[test]
fn board_events_keep_their_stored_types_and_versions() {
    use domain::board::{Alerts, BoardEvent};
    let u = s;
    assert_stored_as(
        BoardEvent::EVENT_TYPES,
        vec![
            BoardEvent::BoardCreated {
                user_id: u(),
                definition: Box::new(BoardDefinition::default()),
                enabled: true,
                duplicated_from: None,
            },
            BoardEvent::BoardEdited { user_id: u(), undo: false },
            BoardEvent::BoardRenamed { user_id: u(), from: s(), name: s() },
            BoardEvent::BoardDescribed { user_id: u(), description: s() },
            BoardEvent::KeywordIncluded { user_id: u(), keyword: s() },
            BoardEvent::KeywordExcluded { user_id: u(), keyword: s() },
            BoardEvent::KeywordRemoved { user_id: u(), keyword: s() },
            BoardEvent::SourcesFiltered { user_id: u(), sources: Value::Null },
            BoardEvent::SecondarySourcesSet { user_id: u(), secondary_sources: Value::Null },
            BoardEvent::CategoriesFiltered { user_id: u(), common: Value::Null },
            BoardEvent::DateRangeSet { user_id: u(), date_range: None },
            BoardEvent::GroupSet { user_id: u(), group: None },
            BoardEvent::CompaniesSet { user_id: u(), companies: Value::Null },
            BoardEvent::AttributesSet { user_id: u(), attributes: Value::Null },
            BoardEvent::TopicsSet { user_id: u(), topics: Value::Null },
            BoardEvent::CurrentTopicSet { user_id: u(), current_topic: Value::Null },
            BoardEvent::FeedTypeSet { user_id: u(), feed_type: None },
            BoardEvent::BoardEnabled { user_id: u() },
            BoardEvent::BoardDisabled { user_id: u() },
            BoardEvent::BoardAlertsSet { user_id: u(), alerts: Alerts::Digest, priority: Priority::High },
            BoardEvent::BoardDeleted { user_id: u() },
            BoardEvent::BoardFeedbackGiven { user_id: u(), deeplink: s(), more: true },
        ],
        &[
            ("BoardCreated", "1"),
            ("BoardEdited", "1"),
            ("BoardRenamed", "1"),
            ("BoardDescribed", "1"),
            ("KeywordIncluded", "1"),
            ("KeywordExcluded", "1"),
            ("KeywordRemoved", "1"),
            ("SourcesFiltered", "1"),
            ("SecondarySourcesSet", "1"),
            ("CategoriesFiltered", "1"),
            ("DateRangeSet", "1"),
            ("GroupSet", "1"),
            ("CompaniesSet", "1"),
            ("AttributesSet", "1"),
            ("TopicsSet", "1"),
            ("CurrentTopicSet", "1"),
            ("FeedTypeSet", "1"),
            ("BoardEnabled", "1"),
            ("BoardDisabled", "1"),
            ("BoardAlertsSet", "1"),
            ("BoardDeleted", "1"),
            ("BoardFeedbackGiven", "1"),
        ],
    );
}

#[test]
fn feed_template_events_keep_their_stored_types_and_versions() {
    use domain::feed_template::{FeedTemplate, FeedTemplatesEvent};
    let template = || FeedTemplate { id: s(), definition: BoardDefinition::default() };
    assert_stored_as(
        FeedTemplatesEvent::EVENT_TYPES,
        vec![
            FeedTemplatesEvent::FeedTemplateAdded { actor: s(), template: template() },
            FeedTemplatesEvent::FeedTemplateChanged { actor: s(), template: template() },
            FeedTemplatesEvent::FeedTemplateRemoved { actor: s(), template_id: s() },
            FeedTemplatesEvent::FeedTemplatesOrdered { actor: s(), template_ids: vec![s()] },
        ],
        &[
            ("FeedTemplateAdded", "1"),
            ("FeedTemplateChanged", "1"),
            ("FeedTemplateRemoved", "1"),
            ("FeedTemplatesOrdered", "1"),
        ],
    );
}

#[test]
fn board_match_day_events_keep_their_stored_types_and_versions() {
    use domain::board::{Alerts, MatchDayEvent};
    assert_stored_as(
        MatchDayEvent::EVENT_TYPES,
        vec![
            MatchDayEvent::BoardMatched {
                user_id: s(),
                board_id: s(),
                board_name: s(),
                day: s(),
                matches: vec![],
                alerts: Alerts::Off,
                priority: Priority::Low,
            },
            MatchDayEvent::BoardDigestSent { user_id: s(), board_id: s(), board_name: s(), day: s(), matches: vec![] },
        ],
        &[("BoardMatched", "1"), ("BoardDigestSent", "1")],
    );
}

#[test]
fn report_events_keep_their_stored_types_and_versions() {
    assert_stored_as(
        ReportEvent::EVENT_TYPES,
        vec![
            ReportEvent::ReportRequested {
                user_id: s(),
                report_type: ReportType::OpenResearch,
                name: s(),
                files: vec![],
                feed_id: None,
                brief: None,
            },
            ReportEvent::ReportFilesAdded { user_id: s(), files: vec![] },
            ReportEvent::ReportFilesRemoved { user_id: s(), deeplinks: vec![] },
            ReportEvent::ReportGenerationStarted { user_id: s(), feed_documents: vec![], files: vec![], at: epoch() },
            ReportEvent::ReportSectionPlanned { user_id: s(), index: 0, heading: s(), query: s() },
            ReportEvent::ReportSectionCompleted {
                user_id: s(),
                index: 0,
                markdown: s(),
                sentences: Value::Null,
                passages: Value::Null,
            },
            ReportEvent::ReportCompleted {
                user_id: s(),
                title: s(),
                content: s(),
                raw_data: Value::Null,
                time_taken: 0.0,
            },
            ReportEvent::ReportFailed { user_id: s(), reason: s() },
            ReportEvent::ReportCancelled { user_id: s() },
            ReportEvent::ReportRated { user_id: s(), rating: None, comments: None },
        ],
        &[
            ("ReportRequested", "1"),
            ("ReportFilesAdded", "1"),
            ("ReportFilesRemoved", "1"),
            ("ReportGenerationStarted", "1"),
            ("ReportSectionPlanned", "1"),
            ("ReportSectionCompleted", "1"),
            ("ReportCompleted", "1"),
            ("ReportFailed", "1"),
            ("ReportCancelled", "1"),
            ("ReportRated", "1"),
        ],
    );
}
