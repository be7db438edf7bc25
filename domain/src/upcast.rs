//! Upcasting: how a payload stored at an older event version is read as the current one.
//!
//! Stored events are never rewritten. When an event's payload changes shape, its version in the
//! [`impl_domain_event!`](crate::impl_domain_event) table goes up and a [`Step`] is added to
//! [`STEPS`] that turns a payload of the old version into the new one. Every reader turns stored
//! payloads into current ones through [`upcast`] before deserialising them:
//!
//! - the command side: cqrs-es's frameworks through [`Upcaster`] (its `EventUpcaster`), and the
//!   unit of work's own aggregate loading (`commands::unit`);
//! - the global feed (`commands::feed`), which projections, replays, audit reads and exports all
//!   read through.
//!
//! Steps chain: a payload at version 1 with steps 1→2 and 2→3 comes out at 3. A step sees the
//! event's own fields (inside the `{"EventType": ..}` tag serde stores an enum variant under),
//! and returns them as the next version has them.
//!
//! Renaming an event type is a step too, but a step keeps the type: such a change is better made
//! as a new variant beside the old one.

use cqrs_es::persist::{EventUpcaster, SerializedEvent};
use serde_json::Value;

/// Turns the fields of one event type's payload at version `from` into those of version `to`.
#[derive(Debug, Clone, Copy)]
pub struct Step {
    pub event_type: &'static str,
    pub from: &'static str,
    pub to: &'static str,
    pub apply: fn(Value) -> Value,
}

/// Every upcasting step of every event type. Empty while every stored event is at its first
/// version: see the module documentation for when to add one.
pub const STEPS: &[Step] = &[];

/// Returns `payload` (stored as `event_type` at `version`) as the newest version the steps reach,
/// with that version. A payload no step applies to comes back as it was.
pub fn upcast(event_type: &str, version: &str, payload: Value) -> (String, Value) {
    upcast_with(STEPS, event_type, version, payload)
}

/// [`upcast`] over a given list of steps.
pub fn upcast_with(steps: &[Step], event_type: &str, version: &str, mut payload: Value) -> (String, Value) {
    let mut version = version.to_string();
    // Each step moves the version on; the bound stops a list that loops back on itself.
    for _ in 0..=steps.len() {
        let Some(step) = steps.iter().find(|s| s.event_type == event_type && s.from == version) else {
            break;
        };
        payload = match payload {
            Value::Object(mut map) if map.len() == 1 && map.contains_key(event_type) => {
                let fields = map.remove(event_type).unwrap_or(Value::Null);
                map.insert(event_type.to_string(), (step.apply)(fields));
                Value::Object(map)
            }
            other => (step.apply)(other),
        };
        version = step.to.to_string();
    }
    (version, payload)
}

/// Whether any step starts at `event_type` and `version`.
pub fn needs_upcast(steps: &[Step], event_type: &str, version: &str) -> bool {
    steps.iter().any(|s| s.event_type == event_type && s.from == version)
}

/// The steps as cqrs-es's `EventUpcaster`, for the frameworks that load aggregates.
#[derive(Debug, Clone, Copy)]
pub struct Upcaster {
    steps: &'static [Step],
}

impl Upcaster {
    /// The upcaster of [`STEPS`].
    pub fn current() -> Self {
        Self { steps: STEPS }
    }

    pub fn with_steps(steps: &'static [Step]) -> Self {
        Self { steps }
    }
}

impl EventUpcaster for Upcaster {
    fn can_upcast(&self, event_type: &str, event_version: &str) -> bool {
        needs_upcast(self.steps, event_type, event_version)
    }

    fn upcast(&self, mut event: SerializedEvent) -> SerializedEvent {
        let payload = std::mem::take(&mut event.payload);
        let (version, payload) = upcast_with(self.steps, &event.event_type, &event.event_version, payload);
        event.event_version = version;
        event.payload = payload;
        event
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analytics::ConsumerEvent;
    use crate::event::EventTable;
    use serde_json::json;

    /// A made-up history: `ConsumerRegistered` once stored its actor as `by` (version 0), then
    /// briefly as `{"actor": {"id": ..}}` (0.5), before the current `actor` string (1).
    const SYNTHETIC: &[Step] = &[
        Step {
            event_type: "ConsumerRegistered",
            from: "0",
            to: "0.5",
            apply: |mut fields| {
                let by = fields.as_object_mut().and_then(|f| f.remove("by")).unwrap_or(Value::Null);
                fields["actor"] = json!({ "id": by });
                fields
            },
        },
        Step {
            event_type: "ConsumerRegistered",
            from: "0.5",
            to: "1",
            apply: |mut fields| {
                fields["actor"] = fields["actor"]["id"].clone();
                fields
            },
        },
    ];

    #[test]
    fn an_old_version_is_upcast_step_by_step_to_the_current_event() {
        let stored = json!({ "ConsumerRegistered": { "name": "nightly", "by": "u1" } });
        let (version, payload) = upcast_with(SYNTHETIC, "ConsumerRegistered", "0", stored);
        assert_eq!(version, ConsumerEvent::current_version("ConsumerRegistered").unwrap());
        let event: ConsumerEvent = serde_json::from_value(payload).unwrap();
        assert_eq!(event, ConsumerEvent::ConsumerRegistered { name: "nightly".into(), actor: "u1".into() });
    }

    #[test]
    fn a_current_payload_or_another_type_is_left_as_it_was() {
        let current = json!({ "ConsumerRegistered": { "name": "nightly", "actor": "u1" } });
        assert_eq!(upcast_with(SYNTHETIC, "ConsumerRegistered", "1", current.clone()), ("1".into(), current));
        let other = json!({ "ConsumerDeleted": { "by": "u1" } });
        assert_eq!(upcast_with(SYNTHETIC, "ConsumerDeleted", "0", other.clone()), ("0".into(), other));
    }

    #[test]
    fn the_frameworks_upcaster_applies_the_same_steps() {
        let upcaster = Upcaster::with_steps(SYNTHETIC);
        assert!(upcaster.can_upcast("ConsumerRegistered", "0"));
        assert!(!upcaster.can_upcast("ConsumerRegistered", "1"));
        let stored = SerializedEvent::new(
            "nightly".into(),
            1,
            "analytics_consumer".into(),
            "ConsumerRegistered".into(),
            "0".into(),
            json!({ "ConsumerRegistered": { "name": "nightly", "by": "u1" } }),
            json!({}),
        );
        let current = upcaster.upcast(stored);
        assert_eq!(current.event_version, "1");
        assert_eq!(current.payload, json!({ "ConsumerRegistered": { "name": "nightly", "actor": "u1" } }));
    }

    #[test]
    fn every_step_leads_from_an_older_version_to_a_later_one() {
        for step in STEPS {
            assert_ne!(step.from, step.to, "{} {}", step.event_type, step.from);
        }
    }
}
