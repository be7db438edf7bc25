//! One sign-in: started when a user signs in or refreshes, revoked at sign-out or rotation.

use chrono::{DateTime, Utc};
use cqrs_es::{Aggregate, DomainEvent};
use serde::{Deserialize, Serialize};

use crate::error::{DomainError, ErrorKind};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum SessionCommand {
    Start {
        user_id: String,
        expires_at: DateTime<Utc>,
        /// The session this one replaces, when started by a token refresh.
        rotated_from: Option<String>,
    },
    Revoke {
        reason: RevokeReason,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RevokeReason {
    SignedOut,
    Rotated,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum SessionEvent {
    SessionStarted { user_id: String, expires_at: DateTime<Utc>, rotated_from: Option<String> },
    SessionRevoked { user_id: String, reason: RevokeReason },
}

impl DomainEvent for SessionEvent {
    fn event_type(&self) -> String {
        match self {
            SessionEvent::SessionStarted { .. } => "SessionStarted",
            SessionEvent::SessionRevoked { .. } => "SessionRevoked",
        }
        .to_string()
    }

    fn event_version(&self) -> String {
        "1".to_string()
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SessionError {
    #[error("session not found")]
    NotFound,
    #[error("session already started")]
    AlreadyStarted,
    #[error("session has been revoked")]
    Revoked,
}

impl DomainError for SessionError {
    fn kind(&self) -> ErrorKind {
        match self {
            SessionError::NotFound => ErrorKind::NotFound,
            SessionError::AlreadyStarted => ErrorKind::Conflict,
            SessionError::Revoked => ErrorKind::Forbidden,
        }
    }

    fn code(&self) -> &'static str {
        match self {
            SessionError::NotFound => "session_not_found",
            SessionError::AlreadyStarted => "session_exists",
            SessionError::Revoked => "session_revoked",
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Session {
    user_id: Option<String>,
    revoked: bool,
}

impl Session {
    pub fn decide(&self, command: SessionCommand) -> Result<Vec<SessionEvent>, SessionError> {
        match command {
            SessionCommand::Start { user_id, expires_at, rotated_from } => {
                if self.user_id.is_some() {
                    return Err(SessionError::AlreadyStarted);
                }
                Ok(vec![SessionEvent::SessionStarted { user_id, expires_at, rotated_from }])
            }
            SessionCommand::Revoke { reason } => {
                let Some(user_id) = self.user_id.clone() else {
                    return Err(SessionError::NotFound);
                };
                if self.revoked {
                    // Rotating a revoked session would hand out a live token for a dead one.
                    return match reason {
                        RevokeReason::SignedOut => Ok(vec![]),
                        RevokeReason::Rotated => Err(SessionError::Revoked),
                    };
                }
                Ok(vec![SessionEvent::SessionRevoked { user_id, reason }])
            }
        }
    }
}

impl Aggregate for Session {
    const TYPE: &'static str = "session";
    type Command = SessionCommand;
    type Event = SessionEvent;
    type Error = SessionError;
    type Services = ();

    crate::handle_by_deciding!();

    fn apply(&mut self, event: Self::Event) {
        match event {
            SessionEvent::SessionStarted { user_id, .. } => self.user_id = Some(user_id),
            SessionEvent::SessionRevoked { .. } => self.revoked = true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cqrs_es::test::TestFramework;

    fn started() -> SessionEvent {
        SessionEvent::SessionStarted {
            user_id: "u1".into(),
            expires_at: DateTime::from_timestamp(2_000_000_000, 0).unwrap(),
            rotated_from: None,
        }
    }

    #[test]
    fn signing_out_revokes_the_session() {
        TestFramework::<Session>::with(())
            .given(vec![started()])
            .when(SessionCommand::Revoke { reason: RevokeReason::SignedOut })
            .then_expect_events(vec![SessionEvent::SessionRevoked {
                user_id: "u1".into(),
                reason: RevokeReason::SignedOut,
            }]);
    }

    #[test]
    fn signing_out_twice_records_one_revocation() {
        TestFramework::<Session>::with(())
            .given(vec![
                started(),
                SessionEvent::SessionRevoked { user_id: "u1".into(), reason: RevokeReason::SignedOut },
            ])
            .when(SessionCommand::Revoke { reason: RevokeReason::SignedOut })
            .then_expect_events(vec![]);
    }

    #[test]
    fn a_revoked_session_cannot_be_rotated() {
        TestFramework::<Session>::with(())
            .given(vec![
                started(),
                SessionEvent::SessionRevoked { user_id: "u1".into(), reason: RevokeReason::Rotated },
            ])
            .when(SessionCommand::Revoke { reason: RevokeReason::Rotated })
            .then_expect_error(SessionError::Revoked);
    }

    #[test]
    fn a_session_that_never_started_cannot_be_revoked() {
        TestFramework::<Session>::with(())
            .given_no_previous_events()
            .when(SessionCommand::Revoke { reason: RevokeReason::SignedOut })
            .then_expect_error(SessionError::NotFound);
    }
}
