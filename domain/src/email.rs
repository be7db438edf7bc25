//! Keeps an email address to one account. The aggregate id is the normalised address, so two
//! concurrent sign-ups with one address race on the same aggregate and one of them loses.

use cqrs_es::Aggregate;
use serde::{Deserialize, Serialize};

use crate::error::{DomainError, ErrorKind};

/// Returns the form of an address under which it is unique: trimmed and lowercased.
pub fn normalise(email: &str) -> String {
    email.trim().to_lowercase()
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
    Reserve { user_id: String },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum EmailEvent {
    EmailReserved { user_id: String },
}

crate::impl_domain_event! {
    EmailEvent, versions {
        EmailReserved: "1",
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
    fn addresses_differing_in_case_and_spaces_are_one_address() {
        assert_eq!(normalise("  Ada@Example.COM "), "ada@example.com");
    }

    #[test]
    fn implausible_addresses_are_refused() {
        for bad in ["", "ada", "ada@", "@example.com", "ada@example", "a b@c.d", "a@b@c.d"] {
            assert!(!is_plausible(bad), "{bad:?}");
        }
        assert!(is_plausible("ada@example.com"));
    }
}
