//! What every event enum shares: the type and version each of its events is stored under, written
//! once by [`impl_domain_event!`](crate::impl_domain_event).

/// Implements cqrs-es's `DomainEvent` for an event enum from a table of its variants, each with
/// the version of its payload, and lists the enum's event types in `EVENT_TYPES`.
///
/// ```
/// # use serde::{Deserialize, Serialize};
/// use cqrs_es::DomainEvent;
///
/// #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
/// pub enum UserEvent {
///     UserSignedUp { email: String },
///     OnboardingCompleted,
/// }
///
/// // Inside this crate: `crate::impl_domain_event!`.
/// domain::impl_domain_event! {
///     UserEvent, versions {
///         UserSignedUp: "1",
///         OnboardingCompleted: "2",
///     }
/// }
///
/// assert_eq!(UserEvent::OnboardingCompleted.event_type(), "OnboardingCompleted");
/// assert_eq!(UserEvent::OnboardingCompleted.event_version(), "2");
/// assert_eq!(UserEvent::EVENT_TYPES, ["UserSignedUp", "OnboardingCompleted"]);
/// ```
///
/// - `event_type()` is the variant's name. It is also the tag serde writes around the payload
///   (`{"UserSignedUp": {..}}`) and reads it back by, so the two never disagree; renaming a
///   variant renames a stored event, which needs an upcaster for the events already stored.
/// - `event_version()` is the version in the table. Raise it (for that variant alone) when its
///   payload changes in a way old payloads must be upcast for.
/// - `EVENT_TYPES` lists every event type of the enum, in the order of the table; the enum's
///   [`EventTable`] also lists their current versions, in the same order, for code that handles
///   every event enum alike (the schemas, the upcasters' checks).
///
/// The table must name every variant, struct, tuple and unit alike: the generated `match` has no
/// catch-all, so a variant missing from it (or a name that is no variant) does not compile.
#[macro_export]
macro_rules! impl_domain_event {
    ($event:ident, versions { $($variant:ident: $version:literal),+ $(,)? }) => {
        impl cqrs_es::DomainEvent for $event {
            fn event_type(&self) -> String {
                match self {
                    $(Self::$variant { .. } => stringify!($variant),)+
                }
                .to_string()
            }

            fn event_version(&self) -> String {
                match self {
                    $(Self::$variant { .. } => $version,)+
                }
                .to_string()
            }
        }

        impl $event {
            /// Every event type of this enum, as stored.
            pub const EVENT_TYPES: &'static [&'static str] = &[$(stringify!($variant)),+];
        }

        impl $crate::event::EventTable for $event {
            const EVENT_TYPES: &'static [&'static str] = &[$(stringify!($variant)),+];
            const EVENT_VERSIONS: &'static [&'static str] = &[$($version),+];
        }
    };
}

/// The event types of an event enum and the version each is currently written at, in the order
/// of its [`impl_domain_event!`](crate::impl_domain_event) table.
pub trait EventTable {
    const EVENT_TYPES: &'static [&'static str];
    const EVENT_VERSIONS: &'static [&'static str];

    /// Returns the version new events of `event_type` are written at; `None` for a type that is
    /// not this enum's.
    fn current_version(event_type: &str) -> Option<&'static str> {
        let index = Self::EVENT_TYPES.iter().position(|t| *t == event_type)?;
        Self::EVENT_VERSIONS.get(index).copied()
    }
}

#[cfg(test)]
mod tests {
    use cqrs_es::DomainEvent;
    use serde::{Deserialize, Serialize};

    /// One variant of each shape, and one at a later version.
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    enum ProbeEvent {
        Named { id: String },
        Wrapped(String),
        Bare,
        Reshaped { id: String },
    }

    crate::impl_domain_event! {
        ProbeEvent, versions {
            Named: "1",
            Wrapped: "1",
            Bare: "1",
            Reshaped: "2",
        }
    }

    fn every_probe() -> Vec<ProbeEvent> {
        vec![
            ProbeEvent::Named { id: "a".into() },
            ProbeEvent::Wrapped("b".into()),
            ProbeEvent::Bare,
            ProbeEvent::Reshaped { id: "c".into() },
        ]
    }

    #[test]
    fn each_variant_is_stored_under_its_name_at_its_own_version() {
        let stored: Vec<(String, String)> = every_probe().iter().map(|e| (e.event_type(), e.event_version())).collect();
        let expected = [("Named", "1"), ("Wrapped", "1"), ("Bare", "1"), ("Reshaped", "2")];
        assert_eq!(stored, expected.map(|(t, v)| (t.to_string(), v.to_string())));
    }

    #[test]
    fn the_event_table_gives_each_type_its_current_version() {
        use super::EventTable;
        assert_eq!(<ProbeEvent as EventTable>::EVENT_VERSIONS, ["1", "1", "1", "2"]);
        assert_eq!(ProbeEvent::current_version("Reshaped"), Some("2"));
        assert_eq!(ProbeEvent::current_version("Missing"), None);
    }

    #[test]
    fn the_event_types_list_every_variant_in_table_order() {
        assert_eq!(ProbeEvent::EVENT_TYPES, ["Named", "Wrapped", "Bare", "Reshaped"]);
        let types: Vec<String> = every_probe().iter().map(DomainEvent::event_type).collect();
        assert_eq!(types, ProbeEvent::EVENT_TYPES);
    }
}
