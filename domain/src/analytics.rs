//! Named analytics consumers: a job that reads the event history in batches (a nightly export,
//! a warehouse loader) registers a name and acknowledges how far it got, so its next run resumes
//! there and never misses or repeats an event.
//!
//! One [`AnalyticsConsumer`] per name (the aggregate id). The acknowledged position is a feed
//! cursor, kept here as its two numbers (`tx`, `pos`; `tx` is 0 on SQLite) and compared as a pair,
//! the feed's own order. A consumer only moves forward; to read again from an earlier point, it is
//! deleted and registered anew.

use cqrs_es::Aggregate;
use serde::{Deserialize, Serialize};

use crate::error::{DomainError, ErrorKind};

/// The longest consumer name.
pub const MAX_NAME_CHARS: usize = 64;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum ConsumerCommand {
    Register {
        name: String,
        actor: String,
    },
    /// Moves the acknowledged position to the feed cursor (`tx`, `pos`).
    Acknowledge {
        tx: i64,
        pos: i64,
        actor: String,
    },
    Delete {
        actor: String,
    },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum ConsumerEvent {
    ConsumerRegistered { name: String, actor: String },
    ConsumerAcknowledged { tx: i64, pos: i64, actor: String },
    ConsumerDeleted { actor: String },
}

crate::impl_domain_event! {
    ConsumerEvent, versions {
        ConsumerRegistered: "1",
        ConsumerAcknowledged: "1",
        ConsumerDeleted: "1",
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConsumerError {
    #[error(
        "A consumer name is 1 to {MAX_NAME_CHARS} lower-case letters, digits, dashes or underscores, such as nightly-export."
    )]
    BadName,
    #[error("A consumer named '{0}' already exists.")]
    Taken(String),
    #[error("There is no analytics consumer by that name; register it first.")]
    Unknown,
    #[error("That position is behind the one this consumer already acknowledged; a consumer only moves forward.")]
    Backwards,
}

impl DomainError for ConsumerError {
    fn kind(&self) -> ErrorKind {
        match self {
            ConsumerError::BadName => ErrorKind::Invalid,
            ConsumerError::Taken(_) | ConsumerError::Backwards => ErrorKind::Conflict,
            ConsumerError::Unknown => ErrorKind::NotFound,
        }
    }

    fn code(&self) -> &'static str {
        match self {
            ConsumerError::BadName => "bad_consumer_name",
            ConsumerError::Taken(_) => "consumer_exists",
            ConsumerError::Unknown => "unknown_consumer",
            ConsumerError::Backwards => "cursor_behind",
        }
    }
}

/// Whether `name` is a valid consumer name.
pub fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.chars().count() <= MAX_NAME_CHARS
        && name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_')
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct AnalyticsConsumer {
    registered: bool,
    name: String,
    /// The acknowledged feed cursor, `(0, 0)` before the first acknowledgement.
    at: (i64, i64),
}

impl AnalyticsConsumer {
    pub fn acknowledged(&self) -> (i64, i64) {
        self.at
    }

    pub fn decide(&self, command: ConsumerCommand) -> Result<Vec<ConsumerEvent>, ConsumerError> {
        match command {
            ConsumerCommand::Register { name, actor } => {
                if !valid_name(&name) {
                    return Err(ConsumerError::BadName);
                }
                if self.registered {
                    return Err(ConsumerError::Taken(name));
                }
                Ok(vec![ConsumerEvent::ConsumerRegistered { name, actor }])
            }
            ConsumerCommand::Acknowledge { tx, pos, actor } => {
                if !self.registered {
                    return Err(ConsumerError::Unknown);
                }
                if (tx, pos) < self.at {
                    return Err(ConsumerError::Backwards);
                }
                Ok(if (tx, pos) == self.at {
                    vec![]
                } else {
                    vec![ConsumerEvent::ConsumerAcknowledged { tx, pos, actor }]
                })
            }
            ConsumerCommand::Delete { actor } => {
                if !self.registered {
                    return Err(ConsumerError::Unknown);
                }
                Ok(vec![ConsumerEvent::ConsumerDeleted { actor }])
            }
        }
    }
}

impl Aggregate for AnalyticsConsumer {
    const TYPE: &'static str = "analytics_consumer";
    type Command = ConsumerCommand;
    type Event = ConsumerEvent;
    type Error = ConsumerError;
    type Services = ();

    crate::handle_by_deciding!();

    fn apply(&mut self, event: Self::Event) {
        match event {
            ConsumerEvent::ConsumerRegistered { name, .. } => {
                *self = AnalyticsConsumer { registered: true, name, at: (0, 0) };
            }
            ConsumerEvent::ConsumerAcknowledged { tx, pos, .. } => self.at = (tx, pos),
            ConsumerEvent::ConsumerDeleted { .. } => *self = AnalyticsConsumer::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cqrs_es::test::TestFramework;

    type Given = TestFramework<AnalyticsConsumer>;

    fn registered() -> ConsumerEvent {
        ConsumerEvent::ConsumerRegistered { name: "nightly".into(), actor: "a".into() }
    }

    fn ack(tx: i64, pos: i64) -> ConsumerCommand {
        ConsumerCommand::Acknowledge { tx, pos, actor: "a".into() }
    }

    #[test]
    fn a_consumer_is_registered_once_under_a_valid_name() {
        Given::with(())
            .given_no_previous_events()
            .when(ConsumerCommand::Register { name: "nightly".into(), actor: "a".into() })
            .then_expect_events(vec![registered()]);
        Given::with(())
            .given(vec![registered()])
            .when(ConsumerCommand::Register { name: "nightly".into(), actor: "a".into() })
            .then_expect_error(ConsumerError::Taken("nightly".into()));
        for bad in ["", "Nightly", "night ly", "ü", &"x".repeat(65)] {
            Given::with(())
                .given_no_previous_events()
                .when(ConsumerCommand::Register { name: bad.into(), actor: "a".into() })
                .then_expect_error(ConsumerError::BadName);
        }
    }

    #[test]
    fn acknowledgements_only_move_forward_in_feed_order() {
        let at = |tx, pos| ConsumerEvent::ConsumerAcknowledged { tx, pos, actor: "a".into() };
        Given::with(()).given(vec![registered()]).when(ack(0, 5)).then_expect_events(vec![at(0, 5)]);
        Given::with(()).given(vec![registered(), at(0, 5)]).when(ack(0, 5)).then_expect_events(vec![]);
        Given::with(()).given(vec![registered(), at(0, 5)]).when(ack(0, 4)).then_expect_error(ConsumerError::Backwards);
        // A later transaction with a smaller position is further on (Postgres' feed order).
        Given::with(()).given(vec![registered(), at(7, 90)]).when(ack(8, 3)).then_expect_events(vec![at(8, 3)]);
        Given::with(()).given_no_previous_events().when(ack(0, 1)).then_expect_error(ConsumerError::Unknown);
    }

    #[test]
    fn a_deleted_consumer_can_be_registered_again_from_the_start() {
        let deleted = ConsumerEvent::ConsumerDeleted { actor: "a".into() };
        let at = ConsumerEvent::ConsumerAcknowledged { tx: 0, pos: 9, actor: "a".into() };
        Given::with(())
            .given(vec![registered(), at.clone(), deleted.clone()])
            .when(ConsumerCommand::Register { name: "nightly".into(), actor: "a".into() })
            .then_expect_events(vec![registered()]);
        Given::with(())
            .given(vec![registered(), at, deleted])
            .when(ConsumerCommand::Delete { actor: "a".into() })
            .then_expect_error(ConsumerError::Unknown);
    }
}
