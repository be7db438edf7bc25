//! The write side: storage, the global feed, and the command bus.
//!
//! A tour:
//! - [`store`]: [`store::Db`], the one handle on SQLite (embedded default) or Postgres, with
//!   migrations and a small portable query layer the read models use on both backends.
//! - [`feed`]: the global, commit-ordered feed over every aggregate's events, its cursor, and the
//!   signal that wakes feed consumers.
//! - [`bus`]: the cqrs-es frameworks (plain event-store mode, no snapshots) for every aggregate,
//!   with bounded, jittered retries when two writers race on one aggregate; a command's events
//!   are appended in one statement that also answers their feed cursor (`append`).
//! - [`failure`]: what a storage failure is (database not answering, disk full, other), read off
//!   the typed error before it becomes words.
//! - [`chain`]: the hash chain over every event (written by the database in the event's own
//!   transaction), its verification, and signed checkpoints.
//! - [`unit`]: one decision over several aggregates, committed in one transaction (all or
//!   nothing), for flows such as sign-up that must not stop half-way.
//! - [`personal`]: personal fields of events sealed with a key per person, so that erasing the
//!   person (destroying the key) leaves them unreadable in the append-only store.
//! - [`replay`]: any aggregate rebuilt from its events by its type name, as JSON, for auditors.
//! - [`private`]: the data directory's folders and files made readable by the server's user only.
//!
//! Depends on `domain` only among our crates; `projections`, `ingest` and `api` build on it.

mod append;
pub mod bus;
pub mod chain;
pub mod failure;
pub mod feed;
pub mod personal;
pub mod private;
pub mod replay;
pub mod store;
pub mod unit;

pub use bus::{just_named, CommandBus, CommandError};
pub use failure::{StoreError, StoreFailure};
pub use feed::{Cursor, FeedSignal, StoredEvent};
pub use store::{Arg, Db, Tx};
pub use unit::{CommitError, Unit};
