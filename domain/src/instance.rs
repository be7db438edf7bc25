//! The instance itself. Its one invariant: the first member to sign up on an empty instance
//! becomes its administrator, and only one member ever does so this way.

use cqrs_es::Aggregate;
use serde::{Deserialize, Serialize};

use crate::error::{DomainError, ErrorKind};

/// The id of the one instance aggregate.
pub const INSTANCE_ID: &str = "instance";

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum InstanceCommand {
    ClaimAdministration { user_id: String },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum InstanceEvent {
    AdministratorAppointed { user_id: String },
}

crate::impl_domain_event! {
    InstanceEvent, versions {
        AdministratorAppointed: "1",
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InstanceError {
    #[error("the instance already has an administrator")]
    AlreadyClaimed,
}

impl DomainError for InstanceError {
    fn kind(&self) -> ErrorKind {
        ErrorKind::Conflict
    }

    fn code(&self) -> &'static str {
        "already_claimed"
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Instance {
    administrator: Option<String>,
}

impl Instance {
    pub fn decide(&self, command: InstanceCommand) -> Result<Vec<InstanceEvent>, InstanceError> {
        match command {
            InstanceCommand::ClaimAdministration { user_id } => match self.administrator {
                Some(_) => Err(InstanceError::AlreadyClaimed),
                None => Ok(vec![InstanceEvent::AdministratorAppointed { user_id }]),
            },
        }
    }
}

impl Aggregate for Instance {
    const TYPE: &'static str = "instance";
    type Command = InstanceCommand;
    type Event = InstanceEvent;
    type Error = InstanceError;
    type Services = ();

    crate::handle_by_deciding!();

    fn apply(&mut self, event: Self::Event) {
        match event {
            InstanceEvent::AdministratorAppointed { user_id } => self.administrator = Some(user_id),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cqrs_es::test::TestFramework;

    #[test]
    fn the_first_claim_appoints_the_administrator() {
        TestFramework::<Instance>::with(())
            .given_no_previous_events()
            .when(InstanceCommand::ClaimAdministration { user_id: "u1".into() })
            .then_expect_events(vec![InstanceEvent::AdministratorAppointed { user_id: "u1".into() }]);
    }

    #[test]
    fn a_second_claim_is_refused() {
        TestFramework::<Instance>::with(())
            .given(vec![InstanceEvent::AdministratorAppointed { user_id: "u1".into() }])
            .when(InstanceCommand::ClaimAdministration { user_id: "u2".into() })
            .then_expect_error(InstanceError::AlreadyClaimed);
    }
}
