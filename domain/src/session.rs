//! One sign-in: started when a user signs in or refreshes, revoked at sign-out or rotation.
//!
//! A rotation (token refresh) does not end a session outright: the browser may never receive the
//! new token (a reload, a closed tab, a dropped connection), so the rotated session stays usable,
//! and may be rotated again, for a short grace period. Sign-out ends it at once.

use std::time::Duration;

use chrono::{DateTime, Utc};
use cqrs_es::Aggregate;
use serde::{Deserialize, Serialize};

use crate::error::{DomainError, ErrorKind};

/// How long, in seconds, a session revoked by rotation keeps working. A refresh revokes the old
/// session before the browser has stored the new token; if the page reloads, the tab closes or
/// the response is lost in between, the browser still holds the old token. Within this period
/// that token still works and can be refreshed again (into another successor), so the user is
/// not signed out; a stolen token gains at most this long.
pub const ROTATION_GRACE_SECONDS: u64 = 30;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum SessionCommand {
    Start {
        user_id: String,
        expires_at: DateTime<Utc>,
        /// The session this one replaces, when started by a token refresh.
        rotated_from: Option<String>,
    },
    /// Replaces the session by a successor (token refresh) at `at`. A session already rotated
    /// may be rotated again until `grace` after its first rotation, never later.
    Rotate { at: DateTime<Utc>, grace: Duration },
    /// Ends the session at once (sign-out), even one rotated but still in its grace.
    SignOut { at: DateTime<Utc> },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum RevokeReason {
    SignedOut,
    Rotated,
}

impl RevokeReason {
    /// The name stored in `sessions_view.revoked_reason`.
    pub fn as_str(self) -> &'static str {
        match self {
            RevokeReason::SignedOut => "signed_out",
            RevokeReason::Rotated => "rotated",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum SessionEvent {
    SessionStarted {
        user_id: String,
        expires_at: DateTime<Utc>,
        rotated_from: Option<String>,
    },
    SessionRevoked {
        user_id: String,
        reason: RevokeReason,
        /// When the session was revoked: a rotation's grace is measured from it. Absent from
        /// events recorded before it was kept.
        #[serde(default)]
        at: Option<DateTime<Utc>>,
    },
}

crate::impl_domain_event! {
    SessionEvent, versions {
        SessionStarted: "1",
        SessionRevoked: "1",
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

/// Why and when a session was revoked.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Revocation {
    reason: RevokeReason,
    /// Unknown for events recorded before the time was kept: such a rotation has no grace left.
    at: Option<DateTime<Utc>>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Session {
    user_id: Option<String>,
    /// The first rotation, or the sign-out (which replaces it: nothing comes after).
    revoked: Option<Revocation>,
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
            SessionCommand::Rotate { at, grace } => {
                let user_id = self.user_id.clone().ok_or(SessionError::NotFound)?;
                match &self.revoked {
                    None => {
                        Ok(vec![SessionEvent::SessionRevoked { user_id, reason: RevokeReason::Rotated, at: Some(at) }])
                    }
                    // Rotated again within the grace: the first rotation stands (its time is not
                    // moved, so the grace never stretches); the successor's start records this one.
                    Some(Revocation { reason: RevokeReason::Rotated, at: Some(first) })
                        if chrono::Duration::from_std(grace).is_ok_and(|grace| at < *first + grace) =>
                    {
                        Ok(vec![])
                    }
                    // Rotating a dead session would hand out a live token for it.
                    Some(_) => Err(SessionError::Revoked),
                }
            }
            SessionCommand::SignOut { at } => {
                let user_id = self.user_id.clone().ok_or(SessionError::NotFound)?;
                match &self.revoked {
                    Some(Revocation { reason: RevokeReason::SignedOut, .. }) => Ok(vec![]),
                    // Live, or rotated and perhaps still in its grace: either way it ends now.
                    _ => Ok(vec![SessionEvent::SessionRevoked {
                        user_id,
                        reason: RevokeReason::SignedOut,
                        at: Some(at),
                    }]),
                }
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
            SessionEvent::SessionRevoked { reason, at, .. } => {
                if self.revoked.is_none() || reason == RevokeReason::SignedOut {
                    self.revoked = Some(Revocation { reason, at });
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cqrs_es::test::TestFramework;

    const GRACE: Duration = Duration::from_secs(ROTATION_GRACE_SECONDS);

    fn at(seconds: i64) -> DateTime<Utc> {
        DateTime::from_timestamp(1_900_000_000 + seconds, 0).unwrap()
    }

    fn started() -> SessionEvent {
        SessionEvent::SessionStarted {
            user_id: "u1".into(),
            expires_at: DateTime::from_timestamp(2_000_000_000, 0).unwrap(),
            rotated_from: None,
        }
    }

    fn revoked(reason: RevokeReason, seconds: i64) -> SessionEvent {
        SessionEvent::SessionRevoked { user_id: "u1".into(), reason, at: Some(at(seconds)) }
    }

    #[test]
    fn signing_out_revokes_the_session() {
        TestFramework::<Session>::with(())
            .given(vec![started()])
            .when(SessionCommand::SignOut { at: at(0) })
            .then_expect_events(vec![revoked(RevokeReason::SignedOut, 0)]);
    }

    #[test]
    fn signing_out_twice_records_one_revocation() {
        TestFramework::<Session>::with(())
            .given(vec![started(), revoked(RevokeReason::SignedOut, 0)])
            .when(SessionCommand::SignOut { at: at(1) })
            .then_expect_events(vec![]);
    }

    #[test]
    fn rotating_a_live_session_revokes_it_with_the_time() {
        TestFramework::<Session>::with(())
            .given(vec![started()])
            .when(SessionCommand::Rotate { at: at(0), grace: GRACE })
            .then_expect_events(vec![revoked(RevokeReason::Rotated, 0)]);
    }

    #[test]
    fn a_rotated_session_may_be_rotated_again_within_the_grace_without_moving_its_time() {
        TestFramework::<Session>::with(())
            .given(vec![started(), revoked(RevokeReason::Rotated, 0)])
            .when(SessionCommand::Rotate { at: at(ROTATION_GRACE_SECONDS as i64 - 1), grace: GRACE })
            .then_expect_events(vec![]);
    }

    #[test]
    fn a_rotated_session_cannot_be_rotated_after_the_grace() {
        TestFramework::<Session>::with(())
            .given(vec![started(), revoked(RevokeReason::Rotated, 0)])
            .when(SessionCommand::Rotate { at: at(ROTATION_GRACE_SECONDS as i64), grace: GRACE })
            .then_expect_error(SessionError::Revoked);
    }

    #[test]
    fn with_no_grace_a_rotated_session_cannot_be_rotated_again() {
        TestFramework::<Session>::with(())
            .given(vec![started(), revoked(RevokeReason::Rotated, 0)])
            .when(SessionCommand::Rotate { at: at(0), grace: Duration::ZERO })
            .then_expect_error(SessionError::Revoked);
    }

    #[test]
    fn a_signed_out_session_cannot_be_rotated_even_at_once() {
        TestFramework::<Session>::with(())
            .given(vec![started(), revoked(RevokeReason::SignedOut, 0)])
            .when(SessionCommand::Rotate { at: at(0), grace: GRACE })
            .then_expect_error(SessionError::Revoked);
    }

    #[test]
    fn signing_out_a_rotated_session_ends_its_grace() {
        TestFramework::<Session>::with(())
            .given(vec![started(), revoked(RevokeReason::Rotated, 0)])
            .when(SessionCommand::SignOut { at: at(1) })
            .then_expect_events(vec![revoked(RevokeReason::SignedOut, 1)]);
        TestFramework::<Session>::with(())
            .given(vec![started(), revoked(RevokeReason::Rotated, 0), revoked(RevokeReason::SignedOut, 1)])
            .when(SessionCommand::Rotate { at: at(2), grace: GRACE })
            .then_expect_error(SessionError::Revoked);
    }

    #[test]
    fn a_rotation_recorded_before_its_time_was_kept_has_no_grace() {
        let old: SessionEvent =
            serde_json::from_str(r#"{"SessionRevoked":{"user_id":"u1","reason":"rotated"}}"#).unwrap();
        assert_eq!(old, SessionEvent::SessionRevoked { user_id: "u1".into(), reason: RevokeReason::Rotated, at: None });
        TestFramework::<Session>::with(())
            .given(vec![started(), old])
            .when(SessionCommand::Rotate { at: at(0), grace: GRACE })
            .then_expect_error(SessionError::Revoked);
    }

    #[test]
    fn a_session_that_never_started_cannot_be_revoked() {
        TestFramework::<Session>::with(())
            .given_no_previous_events()
            .when(SessionCommand::SignOut { at: at(0) })
            .then_expect_error(SessionError::NotFound);
        TestFramework::<Session>::with(())
            .given_no_previous_events()
            .when(SessionCommand::Rotate { at: at(0), grace: GRACE })
            .then_expect_error(SessionError::NotFound);
    }
}
