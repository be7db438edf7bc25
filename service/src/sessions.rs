//! Sessions: sign-up, sign-in, token refresh (rotation) and sign-out, and whether a session is
//! still honoured. Each session is an aggregate; its events decide whether a token naming it
//! works.
//!
//! The token itself is the HTTP credential and stays in `api/`, as do the sign-in and sign-up
//! throttles: a handler checks the input here, asks its throttle, then calls the use case here,
//! and issues a token for the session started.
//!
//! Time is read from [`Context::clock`]: when a session expires and when a rotated session's
//! grace ends are judged by it, and sessions start and rotate at its time.

use std::time::Duration;

use chrono::{DateTime, Utc};
use commands::CommandError;
use domain::email::{self, EmailCommand, EmailReservation};
use domain::instance::{Instance, InstanceCommand, INSTANCE_ID};
use domain::session::{RevokeReason, SessionCommand};
use domain::user::{self, User, UserCommand};
use domain::DomainError;
use projections::queries::{self, UserRow};
use serde::{Deserialize, Serialize};

use crate::context::Context;
use crate::error::{Error, Result};
use crate::passwords::{check_new_password, hash_password, verify_password, MAX_PASSWORD_LEN};
use crate::viewer::{Origin, Viewer};

/// Whether a session is still honoured, read from `sessions_view`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SessionState {
    Live,
    /// Rotated by a token refresh: honoured until the end of its grace.
    InGrace {
        until: DateTime<Utc>,
    },
    /// Signed out, expired, rotated longer ago than the grace, or unknown.
    Ended,
}

/// Returns a session's state at `now` from its `sessions_view` columns. A rotation whose time
/// cannot be read counts as ended.
pub fn session_state(
    expires_at: &str,
    revoked_at: Option<&str>,
    revoked_reason: Option<&str>,
    grace: Duration,
    now: DateTime<Utc>,
) -> SessionState {
    let parse = |at: &str| DateTime::parse_from_rfc3339(at).ok().map(|at| at.with_timezone(&Utc));
    if parse(expires_at).is_none_or(|at| at <= now) {
        return SessionState::Ended;
    }
    let Some(revoked_at) = revoked_at else {
        return SessionState::Live;
    };
    let until = parse(revoked_at).zip(chrono::Duration::from_std(grace).ok()).map(|(at, grace)| at + grace);
    match until {
        Some(until) if revoked_reason == Some(RevokeReason::Rotated.as_str()) && until > now => {
            SessionState::InGrace { until }
        }
        _ => SessionState::Ended,
    }
}

/// The state of a `sessions_view` row now, with the configured grace.
fn state_of(ctx: &Context, row: &queries::SessionRow) -> SessionState {
    session_state(
        &row.expires_at,
        row.revoked_at.as_deref(),
        row.revoked_reason.as_deref(),
        ctx.session_grace(),
        ctx.clock.now(),
    )
}

/// Returns the state of `session_id` now, with the configured grace.
pub async fn current_session_state(ctx: &Context, session_id: &str) -> Result<SessionState> {
    let row = queries::session(&ctx.db, session_id).await?;
    Ok(row.map_or(SessionState::Ended, |row| state_of(ctx, &row)))
}

/// The answer for a token whose session is over (or never was).
pub fn session_ended() -> Error {
    Error::unauthorised("session_revoked", "this session has ended; sign in again")
}

#[derive(sqlx::FromRow)]
struct LiveSession {
    is_admin: bool,
    is_auditor: bool,
    is_analyst: bool,
    expires_at: String,
    revoked_at: Option<String>,
    revoked_reason: Option<String>,
}

/// The viewer a checked token names: `user_id` in session `session_id`, as long as that session
/// is live or in its grace (`session_revoked` otherwise), with the roles the user has now.
pub async fn viewer_of(ctx: &Context, user_id: String, session_id: String, origin: Origin) -> Result<Viewer> {
    let row: Option<LiveSession> = ctx
        .db
        .fetch_optional(
            "SELECT u.is_admin, u.is_auditor, u.is_analyst, s.expires_at, s.revoked_at, s.revoked_reason FROM sessions_view s \
             JOIN users_view u ON u.user_id = s.user_id \
             WHERE s.session_id = $1 AND s.user_id = $2",
            commands::args![session_id.as_str(), user_id.as_str()],
        )
        .await?;
    let session = row.ok_or_else(session_ended)?;
    let grace_ends_at = match session_state(
        &session.expires_at,
        session.revoked_at.as_deref(),
        session.revoked_reason.as_deref(),
        ctx.session_grace(),
        ctx.clock.now(),
    ) {
        SessionState::Live => None,
        SessionState::InGrace { until } => Some(until),
        SessionState::Ended => return Err(session_ended()),
    };
    Ok(Viewer {
        user_id,
        session_id,
        is_admin: session.is_admin,
        is_auditor: session.is_auditor,
        is_analyst: session.is_analyst,
        origin,
        grace_ends_at,
    })
}

/// The signed-in user as the auth calls return it.
#[derive(Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AuthUserBody {
    pub id: String,
    pub email_id: String,
    pub username: String,
    pub is_admin: bool,
    pub is_auditor: bool,
    pub is_analyst: bool,
}

impl From<&UserRow> for AuthUserBody {
    fn from(row: &UserRow) -> Self {
        AuthUserBody {
            id: row.user_id.clone(),
            email_id: row.email.clone(),
            username: row.username.clone(),
            is_admin: row.is_admin,
            is_auditor: row.is_auditor,
            is_analyst: row.is_analyst,
        }
    }
}

/// What a person signs up with, as they typed it.
#[derive(Debug, Clone)]
pub struct SignUp {
    pub email: String,
    pub password: String,
    pub username: String,
}

/// A sign-up that can be refused for nothing but a taken address: the address normalised, the
/// username as it is kept.
#[derive(Debug, Clone)]
pub struct CheckedSignUp {
    email: String,
    password: String,
    username: String,
}

impl SignUp {
    /// Checks everything a sign-up could be refused for but a taken address.
    pub fn check(self) -> Result<CheckedSignUp> {
        if self.email.trim().is_empty() {
            return Err(Error::invalid("invalid_email", "email is a required field"));
        }
        if !email::is_plausible(&self.email) {
            return Err(Error::invalid("invalid_email", "email must be a valid email"));
        }
        check_new_password(&self.password, &[self.email.as_str(), self.username.as_str()])?;
        if self.username.trim().is_empty() {
            return Err(Error::invalid("invalid_username", "username is a required field"));
        }
        let username = user::clean_username(&self.username).map_err(|e| Error::invalid(e.code(), e.to_string()))?;
        Ok(CheckedSignUp { email: email::normalise(&self.email), password: self.password, username })
    }
}

/// Creates an account; returns its user id. The first account of an instance is its
/// administrator. The address's reservation, the administrator claim and the account are one
/// decision, committed together or not at all, so a refused or interrupted sign-up leaves the
/// address free.
pub async fn sign_up(ctx: &Context, origin: &Origin, sign_up: CheckedSignUp) -> Result<String> {
    let CheckedSignUp { email, password, username } = sign_up;
    let user_id = uuid::Uuid::now_v7().to_string();
    let metadata = origin.metadata(&user_id);
    let password_hash = hash_password(password).await?;
    ctx.bus
        .execute_together(&metadata, |mut unit| {
            let (email, user_id, username, password_hash) =
                (email.clone(), user_id.clone(), username.clone(), password_hash.clone());
            async move {
                // An account made before reservations were keyed by digest holds the plain one.
                unit.execute::<EmailReservation>(&email::legacy_reservation_id(&email), EmailCommand::CheckFree)
                    .await?;
                let reserve = EmailCommand::Reserve { user_id: user_id.clone() };
                unit.execute::<EmailReservation>(&email::reservation_id(&email), reserve).await?;
                let claim = InstanceCommand::ClaimAdministration { user_id: user_id.clone() };
                let is_admin = match unit.execute::<Instance>(INSTANCE_ID, claim).await {
                    Ok(()) => true,
                    Err(CommandError::Domain(_)) => false,
                    Err(other) => return Err(Error::from(other)),
                };
                let sign_up = UserCommand::SignUp { email, username, password_hash, is_admin };
                unit.execute::<User>(&user_id, sign_up).await?;
                Ok((unit, ()))
            }
        })
        .await?;
    Ok(user_id)
}

/// The answer to a sign-in that failed, whichever way: it never tells whether the email has an
/// account.
pub fn invalid_credentials() -> Error {
    Error::unauthorised("invalid_credentials", "invalid email or password")
}

/// The account that `email` (normalised) and `password` sign in to, if they do. An unknown
/// address takes as long to refuse as a wrong password.
pub async fn check_credentials(ctx: &Context, email: &str, password: String) -> Result<Option<String>> {
    if password.len() > MAX_PASSWORD_LEN {
        return Ok(None);
    }
    let user = queries::user_by_email(&ctx.db, email).await?;
    let ok = verify_password(password, user.as_ref().map(|u| u.password_hash.clone())).await;
    Ok(user.filter(|_| ok).map(|u| u.user_id))
}

/// A fresh session id, to issue a token for before the session is started.
pub fn new_session_id() -> String {
    uuid::Uuid::new_v4().to_string()
}

/// Starts session `session_id` for `user_id`, lasting `--session-days` from now, and returns the
/// user once the session is readable.
pub async fn start(
    ctx: &Context,
    session_id: &str,
    user_id: &str,
    origin: &Origin,
    rotated_from: Option<String>,
) -> Result<AuthUserBody> {
    let expires_at = ctx.clock.now() + chrono::Duration::days(ctx.settings.session_days as i64);
    // Session ids are minted here (`new_session_id`), never taken from a caller.
    commands::just_named(ctx.command(
        &ctx.bus.sessions,
        session_id,
        SessionCommand::Start { user_id: user_id.to_string(), expires_at, rotated_from },
        &origin.metadata(user_id),
    ))
    .await?;
    let user = queries::user_by_id(&ctx.db, user_id)
        .await?
        .ok_or_else(|| Error::internal("a signed-up user is missing from users_view"))?;
    Ok(AuthUserBody::from(&user))
}

/// Rotates the viewer's session (token refresh): it keeps working for the grace, and may be
/// rotated again meanwhile; after that it stops. A session already ended cannot be rotated
/// (`session_revoked`). The caller starts the successor.
pub async fn rotate(ctx: &Context, viewer: &Viewer) -> Result<()> {
    let rotate = SessionCommand::Rotate { at: ctx.clock.now(), grace: ctx.session_grace() };
    let rotated = ctx.bus.execute(&ctx.bus.sessions, &viewer.session_id, rotate, &viewer.metadata()).await;
    if let Err(CommandError::Domain(_)) = rotated {
        return Err(session_ended());
    }
    rotated?;
    Ok(())
}

/// How many sessions back along its refreshes a sign-out looks for ones still in their grace.
const SIGN_OUT_CHAIN_LIMIT: usize = 16;

/// Ends the viewer's session at once, and the sessions it was refreshed from that are still in
/// their grace.
pub async fn sign_out(ctx: &Context, viewer: &Viewer) -> Result<()> {
    let metadata = viewer.metadata();
    let sign_out = SessionCommand::SignOut { at: ctx.clock.now() };
    ctx.command(&ctx.bus.sessions, &viewer.session_id, sign_out.clone(), &metadata).await?;
    let mut previous = queries::session(&ctx.db, &viewer.session_id).await?.and_then(|s| s.rotated_from);
    for _ in 0..SIGN_OUT_CHAIN_LIMIT {
        let Some(id) = previous else { break };
        let Some(row) = queries::session(&ctx.db, &id).await?.filter(|row| row.user_id == viewer.user_id) else {
            break;
        };
        // Older sessions along the chain were rotated earlier still: their grace is over too.
        if state_of(ctx, &row) == SessionState::Ended {
            break;
        }
        ctx.command(&ctx.bus.sessions, &id, sign_out.clone(), &metadata).await?;
        previous = row.rotated_from;
    }
    Ok(())
}

/// Ends every session of `user_id` still honoured (live, or rotated and in its grace) but
/// `keep`, as sign-outs recorded with `metadata`. Returns how many ended.
pub async fn end_sessions(
    ctx: &Context,
    user_id: &str,
    keep: Option<&str>,
    metadata: &domain::EventMetadata,
) -> Result<usize> {
    let rows: Vec<queries::SessionRow> = queries::sessions_of_user(&ctx.db, user_id).await?;
    let sign_out = SessionCommand::SignOut { at: ctx.clock.now() };
    let mut ended = 0;
    for row in rows {
        if Some(row.session_id.as_str()) == keep || state_of(ctx, &row) == SessionState::Ended {
            continue;
        }
        ctx.command(&ctx.bus.sessions, &row.session_id, sign_out.clone(), metadata).await?;
        ended += 1;
    }
    Ok(ended)
}

/// Changes the viewer's password: the current one must be right (`wrong_password` otherwise),
/// the new one must meet the policy. Every other session of the user ends, so a stolen
/// password or a forgotten signed-in device is shut out; the viewer's own session goes on.
pub async fn change_password(ctx: &Context, viewer: &Viewer, current: String, new: String) -> Result<()> {
    let user = queries::user_by_id(&ctx.db, &viewer.user_id).await?.ok_or_else(session_ended)?;
    if current.len() > MAX_PASSWORD_LEN || !verify_password(current, Some(user.password_hash.clone())).await {
        return Err(wrong_password());
    }
    check_new_password(&new, &[user.email.as_str(), user.username.as_str()])?;
    let password_hash = hash_password(new).await?;
    let metadata = viewer.metadata();
    ctx.command(&ctx.bus.users, &viewer.user_id, UserCommand::ChangePassword { password_hash }, &metadata).await?;
    end_sessions(ctx, &viewer.user_id, Some(&viewer.session_id), &metadata).await?;
    Ok(())
}

/// The answer to a password change whose current password is wrong. Not a 401: the session is
/// fine, and the person may try again.
pub fn wrong_password() -> Error {
    Error::invalid("wrong_password", "the current password is not right")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
    }

    const GRACE: Duration = Duration::from_secs(30);

    #[test]
    fn a_session_is_live_until_it_expires() {
        let expires = "2025-01-08T00:00:00Z";
        assert_eq!(session_state(expires, None, None, GRACE, at("2025-01-07T23:59:59Z")), SessionState::Live);
        assert_eq!(session_state(expires, None, None, GRACE, at("2025-01-08T00:00:00Z")), SessionState::Ended);
    }

    #[test]
    fn a_rotated_session_lasts_its_grace_and_no_longer() {
        let (expires, rotated) = ("2025-01-08T00:00:00Z", Some("2025-01-01T00:00:00Z"));
        let reason = Some(RevokeReason::Rotated.as_str());
        assert_eq!(
            session_state(expires, rotated, reason, GRACE, at("2025-01-01T00:00:29Z")),
            SessionState::InGrace { until: at("2025-01-01T00:00:30Z") }
        );
        assert_eq!(session_state(expires, rotated, reason, GRACE, at("2025-01-01T00:00:30Z")), SessionState::Ended);
    }

    #[test]
    fn a_signed_out_session_has_no_grace() {
        let reason = Some(RevokeReason::SignedOut.as_str());
        let state = session_state(
            "2025-01-08T00:00:00Z",
            Some("2025-01-01T00:00:00Z"),
            reason,
            GRACE,
            at("2025-01-01T00:00:01Z"),
        );
        assert_eq!(state, SessionState::Ended);
    }

    #[test]
    fn a_rotation_whose_time_cannot_be_read_has_ended() {
        let reason = Some(RevokeReason::Rotated.as_str());
        let state = session_state("2025-01-08T00:00:00Z", Some("yesterday"), reason, GRACE, at("2025-01-01T00:00:00Z"));
        assert_eq!(state, SessionState::Ended);
    }

    #[test]
    fn a_sign_up_is_checked_before_anything_is_written() {
        let sign_up = |email: &str, password: &str, username: &str| {
            SignUp { email: email.into(), password: password.into(), username: username.into() }.check()
        };
        let code = |r: Result<CheckedSignUp>| r.unwrap_err().code;
        let strong = "velvet otter juggles 7 lanterns";
        assert_eq!(code(sign_up(" ", strong, "ada")), "invalid_email");
        assert_eq!(code(sign_up("not-an-address", strong, "ada")), "invalid_email");
        assert_eq!(code(sign_up("ada@example.com", "password1", "ada")), "weak_password");
        assert_eq!(code(sign_up("ada@example.com", "short", "ada")), "weak_password");
        assert_eq!(code(sign_up("ada@example.com", &"x".repeat(MAX_PASSWORD_LEN + 1), "ada")), "password_too_long");
        assert_eq!(code(sign_up("ada@example.com", strong, "  ")), "invalid_username");
        let checked = sign_up(" Ada@Example.com ", strong, "ada").unwrap();
        assert_eq!(checked.email, email::normalise(" Ada@Example.com "));
    }
}
