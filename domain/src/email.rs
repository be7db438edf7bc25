//! Keeps an email address to one account. The aggregate id is a digest of the normalised address
//! ([`reservation_id`]), so two concurrent sign-ups with one address race on the same aggregate
//! and one of them loses, and the address itself is not written into the append-only store's
//! aggregate ids (where erasing an account could not remove it). Accounts made before the digest
//! hold reservations under the plain address ([`legacy_reservation_id`]); sign-up checks those too.

use cqrs_es::Aggregate;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::error::{DomainError, ErrorKind};

/// Returns the form of an address under which it is unique: trimmed and lowercased.
pub fn normalise(email: &str) -> String {
    email.trim().to_lowercase()
}

/// The id of the reservation of `email`: `sha256:` and the SHA-256 of the normalised address
/// under a fixed label. A digest of an address can still be checked against a guessed address by
/// whoever holds the database; it is not the address, and it is released when the account is
/// erased.
pub fn reservation_id(email: &str) -> String {
    let digest = Sha256::digest(format!("needl email reservation v1\n{}", normalise(email)));
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256:{hex}")
}

/// The id under which accounts made before [`reservation_id`] reserved `email`: the address.
pub fn legacy_reservation_id(email: &str) -> String {
    normalise(email)
}

/// Returns whether `email` looks like an address: one `@`, a local part, a dotted domain.
pub fn is_plausible(email: &str) -> bool {
    let email = email.trim();
    let Some((local, domain)) = email.split_once('@') else {
        return false;
    };
    !local.is_empty()
        && !domain.contains('@')
        && domain.contains('.')
        && !domain.starts_with('.')
        && !domain.ends_with('.')
        && email.len() <= 254
        && !email.chars().any(char::is_whitespace)
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum EmailCommand {
    Reserve {
        user_id: String,
    },
    /// Refuses when the address is reserved (by anyone); changes nothing.
    CheckFree,
    /// Gives the address up, when `user_id` holds it (the account was erased).
    Release {
        user_id: String,
    },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum EmailEvent {
    EmailReserved { user_id: String },
    EmailReleased { user_id: String },
}

crate::impl_domain_event! {
    EmailEvent, versions {
        EmailReserved: "1",
        EmailReleased: "1",
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EmailError {
    #[error("an account with this email already exists")]
    Taken,
}

impl DomainError for EmailError {
    fn kind(&self) -> ErrorKind {
        ErrorKind::Conflict
    }

    fn code(&self) -> &'static str {
        "email_taken"
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct EmailReservation {
    user_id: Option<String>,
}

impl EmailReservation {
    pub fn decide(&self, command: EmailCommand) -> Result<Vec<EmailEvent>, EmailError> {
        match command {
            EmailCommand::Reserve { user_id } => match &self.user_id {
                Some(_) => Err(EmailError::Taken),
                None => Ok(vec![EmailEvent::EmailReserved { user_id }]),
            },
            EmailCommand::CheckFree => match &self.user_id {
                Some(_) => Err(EmailError::Taken),
                None => Ok(vec![]),
            },
            EmailCommand::Release { user_id } => match &self.user_id {
                Some(holder) if *holder == user_id => Ok(vec![EmailEvent::EmailReleased { user_id }]),
                _ => Ok(vec![]),
            },
        }
    }
}

impl Aggregate for EmailReservation {
    const TYPE: &'static str = "email";
    type Command = EmailCommand;
    type Event = EmailEvent;
    type Error = EmailError;
    type Services = ();

    crate::handle_by_deciding!();

    fn apply(&mut self, event: Self::Event) {
        match event {
            EmailEvent::EmailReserved { user_id } => self.user_id = Some(user_id),
            EmailEvent::EmailReleased { .. } => self.user_id = None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cqrs_es::test::TestFramework;

    #[test]
    fn a_free_address_is_reserved_for_the_user() {
        TestFramework::<EmailReservation>::with(())
            .given_no_previous_events()
            .when(EmailCommand::Reserve { user_id: "u1".into() })
            .then_expect_events(vec![EmailEvent::EmailReserved { user_id: "u1".into() }]);
    }

    #[test]
    fn a_reserved_address_cannot_be_reserved_again() {
        TestFramework::<EmailReservation>::with(())
            .given(vec![EmailEvent::EmailReserved { user_id: "u1".into() }])
            .when(EmailCommand::Reserve { user_id: "u2".into() })
            .then_expect_error(EmailError::Taken);
    }

    #[test]
    fn an_address_released_by_its_holder_is_free_again_and_only_the_holder_releases_it() {
        let reserved = || vec![EmailEvent::EmailReserved { user_id: "u1".into() }];
        TestFramework::<EmailReservation>::with(())
            .given(reserved())
            .when(EmailCommand::Release { user_id: "u2".into() })
            .then_expect_events(vec![]);
        TestFramework::<EmailReservation>::with(())
            .given(reserved())
            .when(EmailCommand::Release { user_id: "u1".into() })
            .then_expect_events(vec![EmailEvent::EmailReleased { user_id: "u1".into() }]);
        TestFramework::<EmailReservation>::with(())
            .given(reserved())
            .when(EmailCommand::CheckFree)
            .then_expect_error(EmailError::Taken);
        let released = vec![
            EmailEvent::EmailReserved { user_id: "u1".into() },
            EmailEvent::EmailReleased { user_id: "u1".into() },
        ];
        TestFramework::<EmailReservation>::with(())
            .given(released.clone())
            .when(EmailCommand::CheckFree)
            .then_expect_events(vec![]);
        TestFramework::<EmailReservation>::with(())
            .given(released)
            .when(EmailCommand::Reserve { user_id: "u3".into() })
            .then_expect_events(vec![EmailEvent::EmailReserved { user_id: "u3".into() }]);
    }

    #[test]
    fn addresses_differing_in_case_and_spaces_are_one_address() {
        assert_eq!(normalise("  Ada@Example.COM "), "ada@example.com");
        assert_eq!(reservation_id("  Ada@Example.COM "), reservation_id("ada@example.com"));
        assert_ne!(reservation_id("ada@example.com"), reservation_id("bob@example.com"));
        let id = reservation_id("ada@example.com");
        assert!(id.starts_with("sha256:") && id.len() == 7 + 64 && !id.contains("ada"), "{id}");
    }

    #[test]
    fn implausible_addresses_are_refused() {
        for bad in ["", "ada", "ada@", "@example.com", "ada@example", "a b@c.d", "a@b@c.d"] {
            assert!(!is_plausible(bad), "{bad:?}");
        }
        assert!(is_plausible("ada@example.com"));
    }
}
