//! The instance itself. Its invariant: the first member to sign up on an empty instance
//! becomes its administrator, and only one member ever does so this way. It also holds the
//! settings administrators change for the whole instance: the model server AskNeedl writes
//! answers with.

use cqrs_es::Aggregate;
use serde::{Deserialize, Serialize};

use crate::error::{DomainError, ErrorKind};

/// The id of the one instance aggregate.
pub const INSTANCE_ID: &str = "instance";

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum InstanceCommand {
    ClaimAdministration {
        user_id: String,
    },
    /// Sets where AskNeedl answers are written: a chat-completions server (`url` and `model`),
    /// or none (`url` `None`: answers quoted from the sources). Checked before it comes here.
    ConfigureAssistant {
        by: String,
        url: Option<String>,
        model: String,
        key: KeyChange,
    },
}

/// What a change of the assistant's settings does to the key already set.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum KeyChange {
    Keep,
    Set(String),
    Clear,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum InstanceEvent {
    AdministratorAppointed {
        user_id: String,
    },
    /// The whole setting as it now stands (the key included: it is kept with the events and in
    /// the instance's read model, never sent to a client).
    AssistantConfigured {
        by: String,
        url: Option<String>,
        model: String,
        api_key: Option<String>,
    },
}

crate::impl_domain_event! {
    InstanceEvent, versions {
        AdministratorAppointed: "1",
        AssistantConfigured: "1",
    }
}

/// The model server setting as the instance holds it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AssistantSetting {
    pub url: Option<String>,
    pub model: String,
    pub api_key: Option<String>,
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
    /// `None` until an administrator saves one (the server's start flags apply until then).
    assistant: Option<AssistantSetting>,
}

impl Instance {
    pub fn decide(&self, command: InstanceCommand) -> Result<Vec<InstanceEvent>, InstanceError> {
        match command {
            InstanceCommand::ClaimAdministration { user_id } => match self.administrator {
                Some(_) => Err(InstanceError::AlreadyClaimed),
                None => Ok(vec![InstanceEvent::AdministratorAppointed { user_id }]),
            },
            InstanceCommand::ConfigureAssistant { by, url, model, key } => {
                let current = self.assistant.as_ref();
                let api_key = match key {
                    KeyChange::Keep => current.and_then(|a| a.api_key.clone()),
                    KeyChange::Set(key) => Some(key),
                    KeyChange::Clear => None,
                };
                let next = AssistantSetting { url, model, api_key };
                if current == Some(&next) {
                    return Ok(vec![]);
                }
                Ok(vec![InstanceEvent::AssistantConfigured {
                    by,
                    url: next.url,
                    model: next.model,
                    api_key: next.api_key,
                }])
            }
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
            InstanceEvent::AssistantConfigured { url, model, api_key, .. } => {
                self.assistant = Some(AssistantSetting { url, model, api_key })
            }
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

    fn configure(url: Option<&str>, key: KeyChange) -> InstanceCommand {
        InstanceCommand::ConfigureAssistant {
            by: "u1".into(),
            url: url.map(str::to_string),
            model: "llama3.1".into(),
            key,
        }
    }

    fn configured(url: Option<&str>, api_key: Option<&str>) -> InstanceEvent {
        InstanceEvent::AssistantConfigured {
            by: "u1".into(),
            url: url.map(str::to_string),
            model: "llama3.1".into(),
            api_key: api_key.map(str::to_string),
        }
    }

    #[test]
    fn a_model_server_change_keeps_the_key_already_set_unless_told() {
        TestFramework::<Instance>::with(())
            .given(vec![configured(Some("http://localhost:11434/v1"), Some("sk-1"))])
            .when(configure(Some("http://models.internal/v1"), KeyChange::Keep))
            .then_expect_events(vec![configured(Some("http://models.internal/v1"), Some("sk-1"))]);
    }

    #[test]
    fn a_key_can_be_cleared() {
        TestFramework::<Instance>::with(())
            .given(vec![configured(Some("http://localhost:11434/v1"), Some("sk-1"))])
            .when(configure(Some("http://localhost:11434/v1"), KeyChange::Clear))
            .then_expect_events(vec![configured(Some("http://localhost:11434/v1"), None)]);
    }

    #[test]
    fn saving_the_same_setting_again_changes_nothing() {
        TestFramework::<Instance>::with(())
            .given(vec![configured(None, None)])
            .when(configure(None, KeyChange::Keep))
            .then_expect_events(vec![]);
    }
}
