//! One decision over several aggregates, committed all or nothing.
//!
//! cqrs-es commits one aggregate at a time, so a flow that must change two aggregates (reserve an
//! email, then sign the account up) could stop between the two commits and leave the first change
//! with nothing to confirm it. A [`Unit`] loads each aggregate it is given a command for from the
//! `events` table (the rows cqrs-es wrote, deserialised the way it reads them), runs the
//! aggregate's own `handle`, and keeps the resulting events. [`CommandBus::execute_together`]
//! then inserts every event of the unit in one SQL transaction with the next sequence numbers of
//! each aggregate: a writer that appended to any of them meanwhile makes the primary key clash,
//! the transaction rolls back, and the whole decision runs again on fresh state.
//!
//! An aggregate a decision only reads (its command refused or changing nothing) is not part of
//! the commit, so a concurrent change to it is not detected; decisions here only rely on facts
//! that never become false again (an address taken, an administrator appointed).
//!
//! [`CommandBus::execute_together`]: crate::bus::CommandBus::execute_together

use std::any::Any;
use std::collections::HashMap;

use cqrs_es::event_sink::EventSink;
use cqrs_es::{Aggregate, DomainEvent};

use crate::append::{events_insert_sql, ONE_STATEMENT};
use crate::bus::CommandError;
use crate::feed::Cursor;
use crate::personal::{self, EventFields};
use crate::store::{Arg, Db, Tx};
use crate::StoreError;

/// Why a unit of work was not committed, apart from a decision refusing it.
#[derive(Debug, thiserror::Error)]
pub enum CommitError {
    /// Other writers kept changing the unit's aggregates, retries ran out.
    #[error("the resource was changed by someone else at the same time; try again")]
    Conflict,
    #[error("event store: {0}")]
    Store(crate::StoreError),
}

/// An event decided in a unit, serialised as cqrs-es stores it.
#[derive(Debug, Clone)]
struct PendingEvent {
    aggregate_type: &'static str,
    aggregate_id: String,
    sequence: i64,
    event_type: String,
    event_version: String,
    payload: String,
}

/// An aggregate as the unit sees it: its state after the unit's own events, and its last
/// sequence number (stored or decided here).
struct Loaded {
    aggregate: Box<dyn Any + Send + Sync>,
    sequence: i64,
}

/// The aggregates and events of one decision. Built by the bus for each attempt; commands are
/// given to it with [`Unit::execute`].
pub struct Unit {
    db: Db,
    loaded: HashMap<(&'static str, String), Loaded>,
    pending: Vec<PendingEvent>,
}

#[derive(sqlx::FromRow)]
struct EventRow {
    sequence: i64,
    event_type: String,
    event_version: String,
    payload: String,
}

impl Unit {
    pub(crate) fn new(db: Db) -> Self {
        Self { db, loaded: HashMap::new(), pending: Vec::new() }
    }

    /// Decides `command` on aggregate `id` against its state so far in this unit. A refused
    /// command changes nothing in the unit, so a decision may go on without it.
    pub async fn execute<A>(&mut self, id: &str, command: A::Command) -> Result<(), CommandError<A::Error>>
    where
        A: Aggregate<Services = ()> + Clone + 'static,
    {
        let key = (A::TYPE, id.to_string());
        if !self.loaded.contains_key(&key) {
            let (aggregate, sequence) = load::<A>(&self.db, id).await.map_err(CommandError::Store)?;
            self.loaded.insert(key.clone(), Loaded { aggregate: Box::new(aggregate), sequence });
        }
        let loaded = self.loaded.get_mut(&key).expect("loaded above");
        let current = loaded.aggregate.downcast_ref::<A>().expect("one aggregate type per key");
        let mut next = current.clone();
        let sink = EventSink::default();
        next.handle(command, &(), &sink).await.map_err(CommandError::Domain)?;
        let events = sink.collect().await;
        let mut serialised = Vec::with_capacity(events.len());
        let mut sequence = loaded.sequence;
        for event in events {
            sequence += 1;
            let event_type = event.event_type();
            let mut payload =
                serde_json::to_value(&event).map_err(|e| CommandError::Store(StoreError::of("serialising", &e)))?;
            let fields = EventFields {
                aggregate_type: A::TYPE,
                aggregate_id: id,
                event_type: &event_type,
                payload: &mut payload,
            };
            personal::seal(&self.db, fields).await.map_err(|e| CommandError::Store(StoreError::of("", &e)))?;
            serialised.push(PendingEvent {
                aggregate_type: A::TYPE,
                aggregate_id: id.to_string(),
                sequence,
                event_type,
                event_version: event.event_version(),
                payload: payload.to_string(),
            });
        }
        loaded.aggregate = Box::new(next);
        loaded.sequence = sequence;
        self.pending.extend(serialised);
        Ok(())
    }

    /// Whether the unit decided any event.
    pub fn is_empty(&self) -> bool {
        self.pending.is_empty()
    }

    /// Inserts every pending event in one transaction. Returns the cursor of the last one, or
    /// `Ok(None)` when there was nothing to write; `Err(None)` means another writer got to one of
    /// the aggregates first (the transaction was rolled back).
    pub(crate) async fn commit(self, metadata: &str) -> Result<Option<Cursor>, Option<StoreError>> {
        let Some(last) = self.pending.last().cloned() else {
            return Ok(None);
        };
        let mut tx = self.db.begin().await.map_err(|e| Some(e.into()))?;
        let json = match self.db {
            Db::Sqlite { .. } => "",
            Db::Postgres(_) => "::json",
        };
        // Many events to a statement (in order: the feed numbers them as they come), each
        // statement one round trip.
        for chunk in self.pending.chunks(ONE_STATEMENT) {
            let insert = events_insert_sql(chunk.len(), |b| {
                format!("(${b}, ${}, ${}, ${}, ${}, ${}{json}, $1{json})", b + 1, b + 2, b + 3, b + 4, b + 5)
            });
            let mut args = vec![Arg::from(metadata)];
            for event in chunk {
                args.extend([
                    Arg::from(event.aggregate_type),
                    Arg::from(event.aggregate_id.as_str()),
                    Arg::Int(event.sequence),
                    Arg::from(event.event_type.as_str()),
                    Arg::from(event.event_version.as_str()),
                    Arg::from(event.payload.as_str()),
                ]);
            }
            if let Err(error) = tx.execute(&insert, args).await {
                let clash = matches!(&error, sqlx::Error::Database(e) if e.is_unique_violation());
                // Dropping the transaction rolls it back.
                return Err((!clash).then(|| error.into()));
            }
        }
        let cursor = cursor_of(&mut tx, &self.db, &last).await.map_err(|e| Some(e.into()))?;
        tx.commit().await.map_err(|e| Some(e.into()))?;
        Ok(Some(cursor))
    }
}

/// The current state of aggregate `id`, rebuilt from its events with personal fields opened: for
/// a reader that needs what no read model keeps (a connected mailbox's password).
pub async fn current<A: Aggregate>(db: &Db, id: &str) -> Result<A, StoreError> {
    load::<A>(db, id).await.map(|(aggregate, _)| aggregate)
}

/// Rebuilds aggregate `id` from its stored events, each upcast to its current version first;
/// returns it and its last sequence number.
async fn load<A: Aggregate>(db: &Db, id: &str) -> Result<(A, i64), StoreError> {
    let sql = match db {
        Db::Sqlite { .. } => {
            "SELECT sequence, event_type, event_version, payload FROM events \
             WHERE aggregate_type = $1 AND aggregate_id = $2 ORDER BY sequence"
        }
        Db::Postgres(_) => {
            "SELECT sequence, event_type, event_version, payload::text AS payload FROM events \
             WHERE aggregate_type = $1 AND aggregate_id = $2 ORDER BY sequence"
        }
    };
    let rows: Vec<EventRow> = db.fetch_all(sql, vec![A::TYPE.into(), id.into()]).await?;
    let mut stored = Vec::with_capacity(rows.len());
    for row in &rows {
        let unreadable =
            |e: serde_json::Error| StoreError::other(format!("{} {id} event {}: {e}", A::TYPE, row.sequence));
        stored.push(serde_json::from_str::<serde_json::Value>(&row.payload).map_err(unreadable)?);
    }
    let mut fields: Vec<EventFields<'_>> = rows
        .iter()
        .zip(stored.iter_mut())
        .map(|(row, payload)| EventFields {
            aggregate_type: A::TYPE,
            aggregate_id: id,
            event_type: &row.event_type,
            payload,
        })
        .collect();
    personal::open(db, &mut fields).await.map_err(|e| StoreError::of("", &e))?;
    let mut aggregate = A::default();
    let mut sequence = 0;
    for (row, stored) in rows.into_iter().zip(stored) {
        let unreadable =
            |e: serde_json::Error| StoreError::other(format!("{} {id} event {}: {e}", A::TYPE, row.sequence));
        let (_, payload) = domain::upcast::upcast(&row.event_type, &row.event_version, stored);
        let event: A::Event = serde_json::from_value(payload).map_err(unreadable)?;
        aggregate.apply(event);
        sequence = row.sequence;
    }
    Ok((aggregate, sequence))
}

#[derive(sqlx::FromRow)]
struct CursorRow {
    tx: i64,
    pos: i64,
}

/// The feed cursor of an event inserted in `tx`, read inside it (on SQLite the position is set by
/// a trigger after the insert).
async fn cursor_of(tx: &mut Tx, db: &Db, event: &PendingEvent) -> sqlx::Result<Cursor> {
    let sql = match db {
        Db::Sqlite { .. } => {
            "SELECT 0 AS tx, global_position AS pos FROM events \
             WHERE aggregate_type = $1 AND aggregate_id = $2 AND sequence = $3"
        }
        Db::Postgres(_) => {
            "SELECT transaction_id::text::bigint AS tx, global_position AS pos FROM events \
             WHERE aggregate_type = $1 AND aggregate_id = $2 AND sequence = $3"
        }
    };
    let args = vec![Arg::from(event.aggregate_type), Arg::from(event.aggregate_id.as_str()), Arg::Int(event.sequence)];
    let row: Option<CursorRow> = tx.fetch_optional(sql, args).await?;
    let row = row.ok_or(sqlx::Error::RowNotFound)?;
    Ok(Cursor { tx: row.tx, pos: row.pos })
}
