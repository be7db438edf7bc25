//! Identity: password hashing, signed ID tokens, and the extractors that authenticate a request
//! and describe it for event metadata.
//!
//! A token is an HS256 JWT naming the user and the session. It is honoured only while it is
//! unexpired and its session is live in `sessions_view`, so signing out (an event) revokes it.
//! A session revoked by rotation (token refresh) stays live for `--session-grace-seconds`
//! after it, because the browser may not have stored the new token yet.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::time::Duration;

use argon2::password_hash::{rand_core::OsRng, PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;
use chrono::{DateTime, Utc};
use domain::session::RevokeReason;
use jsonwebtoken::{decode, encode, DecodingKey, EncodingKey, Header, Validation};
use serde::{Deserialize, Serialize};
use service::{Origin, Viewer};

use crate::app::AppState;
use crate::error::AppError;

/// Shortest password accepted at sign-up.
pub const MIN_PASSWORD_LEN: usize = 8;
/// Longest password accepted: argon2 is slow on purpose, so the input is bounded.
pub const MAX_PASSWORD_LEN: usize = 256;

/// Hashes a password with argon2id off the async runtime.
pub async fn hash_password(password: String) -> anyhow::Result<String> {
    tokio::task::spawn_blocking(move || {
        let salt = SaltString::generate(&mut OsRng);
        Argon2::default()
            .hash_password(password.as_bytes(), &salt)
            .map(|h| h.to_string())
            .map_err(|e| anyhow::anyhow!("hashing password: {e}"))
    })
    .await?
}

/// Checks a password against a stored hash off the async runtime. With no hash it still does
/// the work, so a sign-in for an unknown email takes as long as one for a known email.
pub async fn verify_password(password: String, hash: Option<String>) -> bool {
    tokio::task::spawn_blocking(move || {
        static DUMMY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
        let dummy = DUMMY.get_or_init(|| {
            let salt = SaltString::generate(&mut OsRng);
            Argon2::default()
                .hash_password(b"no account has this password", &salt)
                .map(|h| h.to_string())
                .unwrap_or_default()
        });
        let stored = hash.as_deref().unwrap_or(dummy);
        let Ok(parsed) = PasswordHash::new(stored) else {
            return false;
        };
        let ok = Argon2::default().verify_password(password.as_bytes(), &parsed).is_ok();
        ok && hash.is_some()
    })
    .await
    .unwrap_or(false)
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Claims {
    /// The user id.
    pub sub: String,
    /// The session id: revoking the session revokes every token naming it.
    pub sid: String,
    pub iat: i64,
    pub exp: i64,
    pub iss: String,
}

const ISSUER: &str = "needl";

/// How far in the future a token's issue time may be (clocks of several nodes differ a little).
pub const ISSUED_AT_LEEWAY_SECONDS: i64 = 60;

/// Signs and checks ID tokens.
pub struct TokenKeys {
    encoding: EncodingKey,
    decoding: DecodingKey,
    pub ttl: Duration,
}

impl TokenKeys {
    pub fn new(secret: &[u8], ttl: Duration) -> Self {
        Self { encoding: EncodingKey::from_secret(secret), decoding: DecodingKey::from_secret(secret), ttl }
    }

    /// Issues a token for a session; returns it and its expiry.
    pub fn issue(&self, user_id: &str, session_id: &str) -> anyhow::Result<(String, DateTime<Utc>)> {
        let now = Utc::now();
        let exp = now + chrono::Duration::from_std(self.ttl)?;
        let claims = Claims {
            sub: user_id.to_string(),
            sid: session_id.to_string(),
            iat: now.timestamp(),
            exp: exp.timestamp(),
            iss: ISSUER.to_string(),
        };
        Ok((encode(&Header::default(), &claims, &self.encoding)?, exp))
    }

    /// Checks the signature and issuer, that the token was not issued in the future (beyond
    /// [`ISSUED_AT_LEEWAY_SECONDS`]), and the expiry unless `allow_expired` (token refresh takes
    /// an expired token whose session is still live).
    pub fn check(&self, token: &str, allow_expired: bool) -> Result<Claims, AppError> {
        let invalid = || AppError::unauthorized("invalid_token", "the token is not valid; sign in again");
        let mut validation = Validation::default();
        validation.set_issuer(&[ISSUER]);
        validation.leeway = 0;
        validation.validate_exp = !allow_expired;
        let claims =
            decode::<Claims>(token, &self.decoding, &validation).map(|data| data.claims).map_err(|e| {
                match e.kind() {
                    jsonwebtoken::errors::ErrorKind::ExpiredSignature => AppError::token_expired(),
                    _ => invalid(),
                }
            })?;
        if claims.iat > Utc::now().timestamp() + ISSUED_AT_LEEWAY_SECONDS {
            return Err(invalid());
        }
        Ok(claims)
    }
}

fn header<'a>(parts: &'a Parts, name: &str) -> Option<&'a str> {
    parts.headers.get(name).and_then(|v| v.to_str().ok())
}

/// The address of the client a request came from: the TCP peer, or the address a trusted proxy
/// names (`--trusted-proxies`). Unspecified (0.0.0.0) when the router runs without a socket.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClientAddr(pub IpAddr);

impl FromRequestParts<AppState> for ClientAddr {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        let Some(ConnectInfo(peer)) = parts.extensions.get::<ConnectInfo<SocketAddr>>() else {
            return Ok(ClientAddr(IpAddr::V4(Ipv4Addr::UNSPECIFIED)));
        };
        let forwarded = parts.headers.get_all("x-forwarded-for").iter().filter_map(|v| v.to_str().ok());
        Ok(ClientAddr(state.limiter.client_of(peer.ip(), forwarded)))
    }
}

/// What every request says about itself (its id, app type and origin headers): recorded on the
/// events it causes.
#[derive(Debug, Clone)]
pub struct RequestMeta(pub Origin);

impl std::ops::Deref for RequestMeta {
    type Target = Origin;

    fn deref(&self) -> &Origin {
        &self.0
    }
}

fn bounded(value: Option<&str>, default: &str, max: usize) -> String {
    let v = value.unwrap_or(default);
    v.chars().take(max).collect()
}

impl<S: Send + Sync> FromRequestParts<S> for RequestMeta {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        Ok(RequestMeta(Origin {
            request_id: bounded(header(parts, "x-request-id"), "", 64),
            app_type: bounded(header(parts, "app-type"), "web", 32),
            request_origin: bounded(header(parts, "x-request-origin"), "", 512),
        }))
    }
}

/// The signed-in user of a request: the [`Viewer`] its token names. Extracting it answers 401
/// when the `token` header is missing, malformed, expired or names a revoked session.
#[derive(Debug, Clone)]
pub struct AuthUser(pub Viewer);

impl std::ops::Deref for AuthUser {
    type Target = Viewer;

    fn deref(&self) -> &Viewer {
        &self.0
    }
}

#[derive(sqlx::FromRow)]
struct LiveSession {
    is_admin: bool,
    is_auditor: bool,
    expires_at: String,
    revoked_at: Option<String>,
    revoked_reason: Option<String>,
}

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

/// Returns the state of `session_id` now, with the configured grace.
pub async fn current_session_state(state: &AppState, session_id: &str) -> Result<SessionState, AppError> {
    let row = projections::queries::session(&state.db, session_id).await?;
    Ok(row.map_or(SessionState::Ended, |s| {
        session_state(
            &s.expires_at,
            s.revoked_at.as_deref(),
            s.revoked_reason.as_deref(),
            state.session_grace(),
            Utc::now(),
        )
    }))
}

/// Returns the token from the `token` header, or an `Authorization: Bearer` header.
pub fn token_of(parts: &Parts) -> Option<&str> {
    header(parts, "token").or_else(|| header(parts, "authorization").and_then(|v| v.strip_prefix("Bearer ")))
}

/// Checks a token and its session; returns the user it belongs to. With `allow_expired`, an
/// expired token is taken as long as its session is live (that is what refresh needs). A session
/// rotated within the grace period counts as live.
pub async fn authenticate_with(
    state: &AppState,
    token: &str,
    meta: RequestMeta,
    allow_expired: bool,
) -> Result<AuthUser, AppError> {
    let claims = state.tokens.check(token, allow_expired)?;
    let row: Option<LiveSession> = state
        .db
        .fetch_optional(
            "SELECT u.is_admin, u.is_auditor, s.expires_at, s.revoked_at, s.revoked_reason FROM sessions_view s \
             JOIN users_view u ON u.user_id = s.user_id \
             WHERE s.session_id = $1 AND s.user_id = $2",
            commands::args![claims.sid.as_str(), claims.sub.as_str()],
        )
        .await?;
    let ended = || AppError::unauthorized("session_revoked", "this session has ended; sign in again");
    let session = row.ok_or_else(ended)?;
    let grace_ends_at = match session_state(
        &session.expires_at,
        session.revoked_at.as_deref(),
        session.revoked_reason.as_deref(),
        state.session_grace(),
        Utc::now(),
    ) {
        SessionState::Live => None,
        SessionState::InGrace { until } => Some(until),
        SessionState::Ended => return Err(ended()),
    };
    Ok(AuthUser(Viewer {
        user_id: claims.sub,
        session_id: claims.sid,
        is_admin: session.is_admin,
        is_auditor: session.is_auditor,
        origin: meta.0,
        grace_ends_at,
    }))
}

/// Checks an unexpired token and its session.
pub async fn authenticate(state: &AppState, token: &str, meta: RequestMeta) -> Result<AuthUser, AppError> {
    authenticate_with(state, token, meta, false).await
}

/// A signed-in user whose token may have expired while their session is live: only token
/// refresh takes this.
pub struct RefreshingUser(pub AuthUser);

impl FromRequestParts<AppState> for RefreshingUser {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        let meta = RequestMeta::from_request_parts(parts, state).await?;
        let Some(token) = token_of(parts) else {
            return Err(AppError::unauthorized("missing_token", "sign in to continue"));
        };
        authenticate_with(state, token, meta, true).await.map(RefreshingUser)
    }
}

impl FromRequestParts<AppState> for AuthUser {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        let meta = RequestMeta::from_request_parts(parts, state).await?;
        let Some(token) = token_of(parts) else {
            return Err(AppError::unauthorized("missing_token", "sign in to continue"));
        };
        authenticate(state, token, meta).await
    }
}
