//! The command bus: one cqrs-es framework per aggregate, on whichever backend is open.
//!
//! Plain event-store mode only: the snapshot and aggregate-store modes of cqrs-es 0.5 apply new
//! events twice before saving. No queries are registered on the frameworks; read models are
//! built from the global feed by `projections`.

use std::cell::Cell;
use std::future::Future;
use std::time::Duration;

use cqrs_es::persist::{EventUpcaster, PersistedEventStore};
use cqrs_es::CqrsFramework;
use cqrs_es::{Aggregate, AggregateError};
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
use domain::upcast::Upcaster;
use domain::upload::Upload;
use domain::user::User;
use domain::EventMetadata;
use postgres_es::PostgresEventRepository;
use rand::Rng;
use sqlite_es::SqliteEventRepository;

use crate::feed::{self, Cursor, FeedSignal};
use crate::personal::Sealing;
use crate::store::Db;
use crate::unit::{CommitError, Unit};
use crate::StoreError;

/// How many times a command is retried after losing a race on its aggregate.
pub const CONFLICT_RETRIES: u32 = 6;

tokio::task_local! {
    /// Set by [`just_named`] until the first attempt of a command: its aggregate's history is
    /// known to be empty, so it is not read.
    static FRESH: Cell<bool>;
}

/// Runs `command` (a [`CommandBus::execute`], or a call that makes one) on an aggregate its
/// caller has just named with an id nobody else can have chosen (a new UUID). The first attempt
/// decides on the empty aggregate without reading the store: one round trip instead of two.
///
/// Nothing rests on the id being new. Unless that attempt writes its events, the command is
/// decided again on the history read from the store, as any other: a write that clashed on the
/// first sequence number stored nothing, and a refusal or an empty decision of the empty
/// aggregate is not the answer. Only the first command run inside `command` is taken as new.
pub async fn just_named<T>(command: impl Future<Output = T>) -> T {
    FRESH.scope(Cell::new(true), command).await
}

/// Whether the command attempt running in this task decides on an aggregate just named
/// ([`just_named`]), whose history is empty.
pub(crate) fn history_known_empty() -> bool {
    FRESH.try_with(Cell::get).unwrap_or(false)
}

/// Ends what [`just_named`] assumed, answering whether it was assumed.
fn forget_just_named() -> bool {
    FRESH.try_with(|fresh| fresh.replace(false)).unwrap_or(false)
}

/// Why a command did not produce its events.
#[derive(Debug, thiserror::Error)]
pub enum CommandError<E: std::error::Error> {
    /// The decision refused the command.
    #[error(transparent)]
    Domain(E),
    /// Other writers kept winning the race on this aggregate, retries ran out.
    #[error("the resource was changed by someone else at the same time; try again")]
    Conflict,
    #[error("event store: {0}")]
    Store(crate::StoreError),
}

/// One aggregate's framework on either backend. Its repository seals personal fields as they are
/// stored and opens them as they are loaded ([`crate::personal`]).
pub enum Framework<A: Aggregate> {
    Sqlite(CqrsFramework<A, PersistedEventStore<Sealing<SqliteEventRepository>, A>>),
    Postgres(CqrsFramework<A, PersistedEventStore<Sealing<PostgresEventRepository>, A>>),
}

impl<A> Framework<A>
where
    A: Aggregate<Services = ()>,
    A::Error: 'static,
{
    /// The framework on `db`'s backend, reading stored events through the domain's upcaster
    /// (`sqlite_cqrs` and `postgres_cqrs` would build the same without one).
    fn new(db: &Db) -> Self {
        let upcasters = || -> Vec<Box<dyn EventUpcaster>> { vec![Box::new(Upcaster::current())] };
        match db {
            // Aggregates load on the read connections (WAL readers never wait for the writer);
            // appends take the one write connection (`crate::append`).
            Db::Sqlite { read, .. } => {
                let repo = Sealing::new(db.clone(), SqliteEventRepository::new(read.clone()));
                let store = PersistedEventStore::new_event_store(repo).with_upcasters(upcasters());
                Framework::Sqlite(CqrsFramework::new(store, vec![], ()))
            }
            Db::Postgres(pool) => {
                let repo = Sealing::new(db.clone(), PostgresEventRepository::new(pool.clone()));
                let store = PersistedEventStore::new_event_store(repo).with_upcasters(upcasters());
                Framework::Postgres(CqrsFramework::new(store, vec![], ()))
            }
        }
    }

    /// Runs the command once; on success, answers the cursor of the last event it appended
    /// (`None` when it decided none).
    async fn execute_once(
        &self,
        id: &str,
        command: A::Command,
        metadata: &EventMetadata,
    ) -> Result<Option<Cursor>, AggregateError<A::Error>> {
        let (result, cursor) = crate::append::tracking(async {
            match self {
                Framework::Sqlite(cqrs) => cqrs.execute_with_metadata(id, command, metadata.to_map()).await,
                Framework::Postgres(cqrs) => cqrs.execute_with_metadata(id, command, metadata.to_map()).await,
            }
        })
        .await;
        result.map(|()| cursor)
    }
}

/// Every aggregate's framework, and the signal that wakes feed consumers after a commit.
pub struct CommandBus {
    pub db: Db,
    pub signal: FeedSignal,
    pub users: Framework<User>,
    pub sessions: Framework<Session>,
    pub emails: Framework<EmailReservation>,
    pub instance: Framework<Instance>,
    pub sources: Framework<Source>,
    pub subscriptions: Framework<Subscription>,
    pub documents: Framework<Document>,
    pub read_marks: Framework<ReadMark>,
    pub uploads: Framework<Upload>,
    pub tag_books: Framework<TagBook>,
    pub document_tags: Framework<DocumentTags>,
    pub notebook_shelves: Framework<NotebookShelf>,
    pub notes: Framework<Note>,
    pub channel_directories: Framework<ChannelDirectory>,
    pub channels: Framework<Channel>,
    pub channel_readers: Framework<ChannelReader>,
    pub channel_documents: Framework<ChannelDocument>,
    pub contact_books: Framework<ContactBook>,
    pub portfolios: Framework<Portfolio>,
    pub connections: Framework<Connection>,
    pub summaries: Framework<Summary>,
    pub notification_inboxes: Framework<NotificationInbox>,
    pub ask_sessions: Framework<AskSession>,
    pub boards: Framework<Board>,
    pub feed_templates: Framework<FeedTemplates>,
    pub match_days: Framework<MatchDay>,
    pub reports: Framework<Report>,
    pub analytics_consumers: Framework<AnalyticsConsumer>,
}

impl CommandBus {
    pub fn new(db: Db, signal: FeedSignal) -> Self {
        Self {
            users: Framework::new(&db),
            sessions: Framework::new(&db),
            emails: Framework::new(&db),
            instance: Framework::new(&db),
            sources: Framework::new(&db),
            subscriptions: Framework::new(&db),
            documents: Framework::new(&db),
            read_marks: Framework::new(&db),
            uploads: Framework::new(&db),
            tag_books: Framework::new(&db),
            document_tags: Framework::new(&db),
            notebook_shelves: Framework::new(&db),
            notes: Framework::new(&db),
            channel_directories: Framework::new(&db),
            channels: Framework::new(&db),
            channel_readers: Framework::new(&db),
            channel_documents: Framework::new(&db),
            contact_books: Framework::new(&db),
            portfolios: Framework::new(&db),
            connections: Framework::new(&db),
            summaries: Framework::new(&db),
            notification_inboxes: Framework::new(&db),
            ask_sessions: Framework::new(&db),
            boards: Framework::new(&db),
            feed_templates: Framework::new(&db),
            match_days: Framework::new(&db),
            reports: Framework::new(&db),
            analytics_consumers: Framework::new(&db),
            db,
            signal,
        }
    }

    /// Executes `command` on aggregate `id`, retrying with jittered exponential backoff when a
    /// concurrent writer appended to the same aggregate first. Handling has no side effects, so
    /// reloading and deciding again is safe. Returns the cursor of the aggregate's newest event,
    /// so a caller can wait for read models to include it.
    pub async fn execute<A>(
        &self,
        framework: &Framework<A>,
        id: &str,
        command: A::Command,
        metadata: &EventMetadata,
    ) -> Result<Option<Cursor>, CommandError<A::Error>>
    where
        A: Aggregate<Services = ()>,
        A::Command: Clone,
        A::Error: 'static,
    {
        let mut attempt = 0;
        loop {
            let outcome = framework.execute_once(id, command.clone(), metadata).await;
            // Decided on an aggregate taken to be empty (`just_named`): anything but a write is
            // decided again on the stored history.
            if forget_just_named() && !matches!(outcome, Ok(Some(_))) {
                continue;
            }
            match outcome {
                Ok(Some(cursor)) => {
                    self.signal.committed();
                    return Ok(Some(cursor));
                }
                // Nothing new was decided: the aggregate's newest event, as before the command.
                Ok(None) => {
                    return feed::last_of_aggregate(&self.db, A::TYPE, id)
                        .await
                        .map_err(|e| CommandError::Store(StoreError::of("reading the cursor", &e)));
                }
                Err(AggregateError::AggregateConflict) if attempt < CONFLICT_RETRIES => {
                    attempt += 1;
                    back_off(attempt).await;
                }
                Err(AggregateError::AggregateConflict) => return Err(CommandError::Conflict),
                Err(AggregateError::UserError(e)) => return Err(CommandError::Domain(e)),
                Err(
                    AggregateError::DatabaseConnectionError(error)
                    | AggregateError::DeserializationError(error)
                    | AggregateError::UnexpectedError(error),
                ) => return Err(CommandError::Store(StoreError::of("", &*error))),
            }
        }
    }

    /// Runs `decide` on a fresh [`Unit`] and commits every event it decided, over however many
    /// aggregates, in one transaction: all of them or none. When another writer appended to one
    /// of the unit's aggregates first, the decision runs again on fresh state, with the same
    /// backoff as [`CommandBus::execute`]. `decide` returns the unit with its own answer; it may
    /// read, but writes through the bus would not be part of the unit.
    /// Returns the answer and the cursor of the last event written (`None` when none was).
    pub async fn execute_together<T, E, F, Fut>(
        &self,
        metadata: &EventMetadata,
        mut decide: F,
    ) -> Result<(T, Option<Cursor>), E>
    where
        F: FnMut(Unit) -> Fut,
        Fut: Future<Output = Result<(Unit, T), E>>,
        E: From<CommitError>,
    {
        let stored_metadata = serde_json::to_string(&metadata.to_map())
            .map_err(|e| CommitError::Store(StoreError::of("serialising metadata", &e)))?;
        let mut attempt = 0;
        loop {
            let (unit, answer) = decide(Unit::new(self.db.clone())).await?;
            match unit.commit(&stored_metadata).await {
                Ok(cursor) => {
                    if cursor.is_some() {
                        self.signal.committed();
                    }
                    return Ok((answer, cursor));
                }
                Err(None) if attempt < CONFLICT_RETRIES => {
                    attempt += 1;
                    back_off(attempt).await;
                }
                Err(None) => return Err(CommitError::Conflict.into()),
                Err(Some(detail)) => return Err(CommitError::Store(detail).into()),
            }
        }
    }
}

/// Waits before retry `attempt` after a lost race: jittered, exponential, a few ms to ~0.4 s.
async fn back_off(attempt: u32) {
    let base = 4u64 << attempt.min(6);
    let jitter = rand::rng().random_range(0..=base);
    tokio::time::sleep(Duration::from_millis(base / 2 + jitter)).await;
}
