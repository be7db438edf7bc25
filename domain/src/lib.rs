//! The domain: aggregates, their commands and events, and the errors their decisions return.
//!
//! Pure: no IO, no database, no HTTP. It uses cqrs-es's `Aggregate` and `DomainEvent` traits
//! (the orphan rule asks for that) and nothing else of the infrastructure.
//!
//! A tour:
//! - [`error`]: the kinds every domain error maps to (invalid, not found, conflict, forbidden).
//! - [`metadata`]: what every event carries besides its payload (actor, request, app, origin, time).
//! - [`event`]: [`impl_domain_event!`], which gives each event enum its stored event types and
//!   versions.
//! - [`upcast`]: how payloads stored at an older event version are read as the current one.
//! - `schema` (feature `schema`): a JSON Schema of every event type's payload, generated from the
//!   event types.
//! - [`user`]: an account, its profile, preferences, roles and feature flags.
//! - [`session`]: one sign-in, from start to revocation.
//! - [`email`]: the reservation that keeps an email address to one account.
//! - [`instance`]: the instance itself; its first member becomes the administrator.
//! - [`flags`]: the feature flags the spec names, and their defaults.
//! - [`source`]: shared sources (feeds, websites, catalogue entries) and users' follows of them.
//! - [`document`]: documents of sources, and each user's read marks.
//! - [`date_range`]: the search and feed date-range shorthands (1d ... 3y).
//! - [`feed_rules`]: a feed definition read as typed filters (text rule, sources, categories,
//!   date range) that the search index and the rule matcher both evaluate.
//! - [`keywords`]: keyword expressions (words, phrases, AND/OR/NOT, parentheses) and their
//!   validation messages.
//! - [`upload`]: one uploaded file, from its upload link to the document it became.
//! - [`tag`]: each user's tags, and the tags (and bookmarks) on documents, own or shared.
//! - [`notebook`]: each user's notebooks (names unique, one assistant notebook) and the notes in
//!   them (rich-text bodies, versioned edits).
//! - [`channel`]: channels (groups): names unique in the organisation, members and roles,
//!   publishing, shared feeds, and each member's starred status and last visit.
//! - [`board`]: custom feeds: each user's feed definitions (one event per change, with undo),
//!   whether they are on, and how they alert.
//! - [`feed_template`]: the feed templates an administrator offers every member.
//! - [`analytics`]: named analytics consumers and how far each has read the event history.
//! - [`channel_document`]: a document in a channel: whether it is shared there, and its comments
//!   with their mentions.
//! - [`person`]: each user's contact book: the people behind contacts, their names and priorities.
//! - [`notification`]: the kinds of notification, and each user's read marks on them.
//! - [`ask`]: AskNeedl sessions: their turns (asked, then completed, stopped or failed), titles
//!   and feedback.
//! - [`plan`]: the plans and the spec's pricing keys: which gated features each plan includes,
//!   and how many feeds, notebooks and bytes.
//! - [`portfolio`]: each user's portfolios of holdings (company, ISIN with its check digit,
//!   quantity).
//! - [`connection`]: connected apps: a user's mailbox read over IMAP (server, sealed
//!   credentials, folders, how far each folder was read, whether the last sync failed).
//! - [`summary`]: a person's summary of one document: asked for, written in the background into a
//!   PDF, or failed with the reason.
//! - [`report`]: research reports: requested over files and a feed, generated section by section,
//!   ended once (completed, failed or cancelled), rated.
//!
//! Every aggregate's `handle` delegates to a pure `decide` so tests can state
//! given(events).when(command).then_expect_events(..).

/// Implements `Aggregate::handle` the one way every aggregate here does it: `decide` (pure), then
/// write each event to the sink, which applies it.
#[macro_export]
macro_rules! handle_by_deciding {
    () => {
        async fn handle(
            &mut self,
            command: Self::Command,
            _service: &Self::Services,
            sink: &cqrs_es::event_sink::EventSink<Self>,
        ) -> Result<(), Self::Error> {
            for event in self.decide(command)? {
                sink.write(event, self).await;
            }
            Ok(())
        }
    };
}

pub mod analytics;
pub mod ask;
pub mod board;
pub mod channel;
pub mod channel_document;
pub mod connection;
pub mod date_range;
pub mod document;
pub mod email;
pub mod error;
pub mod event;
pub mod feed_rules;
pub mod feed_template;
pub mod flags;
pub mod instance;
pub mod keywords;
pub mod metadata;
pub mod notebook;
pub mod notification;
pub mod person;
pub mod plan;
pub mod portfolio;
pub mod report;
#[cfg(feature = "schema")]
pub mod schema;
pub mod session;
pub mod source;
pub mod summary;
pub mod tag;
pub mod upcast;
pub mod upload;
pub mod user;

pub use error::{DomainError, ErrorKind};
pub use metadata::EventMetadata;
