//! The read side: durable projections of the global feed, and the live hub.
//!
//! A tour:
//! - [`runner`]: the [`Projection`] trait and the runner that feeds a projection from its
//!   checkpoint, writing view rows and the new checkpoint in one transaction, so a crash never
//!   loses or doubles an event.
//! - [`rebuild`]: a rebuild replays the feed into copies of the read models beside the live ones
//!   and swaps them in, so a running server answers from the old ones meanwhile.
//! - [`accounts`]: `users_view` and `feature_flags_view`, from the user aggregate.
//! - [`sessions`]: `sessions_view`, which decides whether a token's session is live.
//! - [`library`]: sources, follows, documents and read marks.
//! - [`uploads`]: uploaded files and their status, and the queue of files to extract.
//! - [`tags`]: each user's tags, and the tags and bookmarks on documents.
//! - [`notebooks`]: each user's notebooks, and their notes with plain-text previews.
//! - [`channels`]: channels, their members, feeds and shared documents, comments, and each
//!   member's starred status and last visits; who a channel's live events go to.
//! - [`people`]: each user's contact book: people, their priorities and their contacts.
//! - [`notifications`]: each user's notifications (mentions, comments on followed items, new
//!   items of high-priority sources) and their read marks; who an event notified, for the live hub.
//! - [`ask`]: each user's AskNeedl sessions and their turns (question, answer, feedback).
//! - [`boards`]: each user's custom feeds (definitions, on or off, alerts) and the new documents
//!   each matched.
//! - [`reports`]: each user's reports, their sections as planned and written, and the queue of
//!   reports to generate.
//! - [`analytics`]: the named analytics consumers and how far each has read.
//! - [`portfolios`]: each user's portfolios and their holdings.
//! - [`connections`]: each user's connected apps, and when each is synced next.
//! - [`summaries`]: each person's document summaries, and those waiting for a worker.
//! - [`instance`]: the settings administrators keep for the whole instance (the model server).
//! - [`live`]: follows the feed behind the projections and fans events out to WebSocket
//!   connections, each seeing only what its user may see.
//! - [`queries`]: typed reads of the views for the api.
//!
//! Read models are never built by cqrs-es in-process queries: those run after the commit, swallow
//! errors and never run if the process dies in between.

pub mod accounts;
pub mod analytics;
pub mod ask;
pub mod boards;
pub mod channels;
pub mod connections;
pub mod instance;
pub mod library;
pub mod live;
pub mod notebooks;
pub mod notifications;
pub mod people;
pub mod portfolios;
pub mod queries;
pub mod rebuild;
pub mod reports;
pub mod runner;
pub mod sessions;
pub mod summaries;
pub mod tags;
pub mod uploads;

pub use runner::{Projection, Projections};

use std::sync::Arc;

/// Every read model this build maintains, in the order they are reported.
pub fn all() -> Vec<Arc<dyn Projection>> {
    vec![
        Arc::new(accounts::Accounts),
        Arc::new(sessions::Sessions),
        Arc::new(library::Sources),
        Arc::new(library::Documents),
        Arc::new(uploads::Uploads),
        Arc::new(tags::Tags),
        Arc::new(notebooks::Notebooks),
        Arc::new(channels::Channels),
        Arc::new(people::People),
        Arc::new(notifications::Notifications),
        Arc::new(ask::AskSessions),
        Arc::new(boards::Boards),
        Arc::new(reports::Reports),
        Arc::new(instance::InstanceSettings),
        Arc::new(analytics::AnalyticsConsumers),
        Arc::new(portfolios::Portfolios),
        Arc::new(connections::Connections),
        Arc::new(summaries::Summaries),
    ]
}
