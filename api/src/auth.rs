//! Identity over HTTP: signed ID tokens, and the extractors that authenticate a request and
//! describe it for event metadata.
//!
//! A token is an HS256 JWT naming the user and the session. It is honoured only while it is
//! unexpired and its session is live in `sessions_view` ([`service::sessions`] judges that), so
//! signing out (an event) revokes it. A session revoked by rotation (token refresh) stays live for
//! `--session-grace-seconds` after it, because the browser may not have stored the new token yet.
//! Expiry is judged by the server's [clock](service::clock), not by the token library's own.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::time::Duration;

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;
use chrono::{DateTime, Utc};
use jsonwebtoken::{decode, encode, DecodingKey, EncodingKey, Header, Validation};
use serde::{Deserialize, Serialize};
use service::clock::{SharedClock, SystemClock};
use service::{Origin, Viewer};

use crate::app::AppState;
use crate::error::AppError;

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

/// The issuer of a sealed pending OIDC sign-in: never taken as an ID token.
const PENDING_ISSUER: &str = "needl/oidc-pending";

/// How long a browser has to come back from the identity provider.
pub const PENDING_SIGN_IN_SECONDS: i64 = 600;

#[derive(Serialize, Deserialize)]
struct PendingClaims {
    iss: String,
    exp: i64,
    #[serde(flatten)]
    pending: service::oidc::Pending,
}

/// How far in the future a token's issue time may be (clocks of several nodes differ a little).
pub const ISSUED_AT_LEEWAY_SECONDS: i64 = 60;

/// Signs and checks ID tokens.
pub struct TokenKeys {
    encoding: EncodingKey,
    decoding: DecodingKey,
    pub ttl: Duration,
    /// When tokens are issued and whether they have expired: the server's clock.
    clock: SharedClock,
}

impl TokenKeys {
    /// Keys that read the system clock.
    pub fn new(secret: &[u8], ttl: Duration) -> Self {
        Self::with_clock(secret, ttl, SystemClock::shared())
    }

    /// Keys that issue and judge tokens by `clock`.
    pub fn with_clock(secret: &[u8], ttl: Duration, clock: SharedClock) -> Self {
        Self { encoding: EncodingKey::from_secret(secret), decoding: DecodingKey::from_secret(secret), ttl, clock }
    }

    /// Issues a token for a session; returns it and its expiry.
    pub fn issue(&self, user_id: &str, session_id: &str) -> anyhow::Result<(String, DateTime<Utc>)> {
        let now = self.clock.now();
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

    /// Seals a pending OIDC sign-in for the browser to keep (a cookie) until the provider sends
    /// it back; it opens for [`PENDING_SIGN_IN_SECONDS`].
    pub fn seal_pending(&self, pending: &service::oidc::Pending) -> anyhow::Result<String> {
        let claims = PendingClaims {
            iss: PENDING_ISSUER.to_string(),
            exp: self.clock.now().timestamp() + PENDING_SIGN_IN_SECONDS,
            pending: pending.clone(),
        };
        Ok(encode(&Header::default(), &claims, &self.encoding)?)
    }

    /// Opens what [`Self::seal_pending`] sealed, while it lasts.
    pub fn open_pending(&self, sealed: &str) -> Option<service::oidc::Pending> {
        let mut validation = Validation::default();
        validation.set_issuer(&[PENDING_ISSUER]);
        validation.validate_exp = false;
        validation.required_spec_claims.clear();
        let claims = decode::<PendingClaims>(sealed, &self.decoding, &validation).ok()?.claims;
        (claims.exp >= self.clock.now().timestamp()).then_some(claims.pending)
    }

    /// Checks the signature and issuer, the expiry unless `allow_expired` (token refresh takes
    /// an expired token whose session is still live), and that the token was not issued in the
    /// future (beyond [`ISSUED_AT_LEEWAY_SECONDS`]). A token expires once the clock is past its
    /// `exp` second.
    pub fn check(&self, token: &str, allow_expired: bool) -> Result<Claims, AppError> {
        let invalid = || AppError::unauthorized("invalid_token", "the token is not valid; sign in again");
        let mut validation = Validation::default();
        validation.set_issuer(&[ISSUER]);
        validation.leeway = 0;
        // The library would read the system clock: expiry is judged below by ours.
        validation.validate_exp = false;
        let claims =
            decode::<Claims>(token, &self.decoding, &validation).map(|data| data.claims).map_err(|_| invalid())?;
        let now = self.clock.now().timestamp();
        if !allow_expired && claims.exp < now {
            return Err(AppError::token_expired());
        }
        if claims.iat > now + ISSUED_AT_LEEWAY_SECONDS {
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
    Ok(AuthUser(service::sessions::viewer_of(state, claims.sub, claims.sid, meta.0).await?))
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

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use axum::http::StatusCode;
    use chrono::Duration as Span;
    use service::clock::{Clock, ManualClock};

    use super::*;

    const SECRET: &[u8] = b"test-secret-test-secret-test-secret";

    fn keys(ttl: Duration) -> (TokenKeys, Arc<ManualClock>) {
        let clock = ManualClock::starting_now();
        (TokenKeys::with_clock(SECRET, ttl, clock.clone()), clock)
    }

    #[test]
    fn a_token_expires_when_the_clock_passes_its_expiry_and_refresh_still_takes_it() {
        let (keys, clock) = keys(Duration::from_secs(60));
        let (token, expires_at) = keys.issue("u1", "s1").unwrap();
        assert_eq!(expires_at, clock.now() + Span::seconds(60));
        clock.advance(Span::seconds(60));
        assert_eq!(keys.check(&token, false).unwrap().sid, "s1", "a token works through its last second");
        clock.advance(Span::seconds(1));
        let expired = keys.check(&token, false).unwrap_err();
        assert_eq!((expired.status, expired.code.as_str()), (StatusCode::FORBIDDEN, "token_expired"));
        assert!(expired.refreshable);
        assert_eq!(keys.check(&token, true).unwrap().sub, "u1", "refresh takes an expired token");
    }

    #[test]
    fn a_token_issued_ahead_of_the_clock_is_invalid_beyond_the_leeway() {
        let (keys, clock) = keys(Duration::from_secs(3600));
        let (token, _) = keys.issue("u1", "s1").unwrap();
        clock.advance(Span::seconds(-(ISSUED_AT_LEEWAY_SECONDS + 1)));
        let error = keys.check(&token, false).unwrap_err();
        assert_eq!((error.status, error.code.as_str()), (StatusCode::UNAUTHORIZED, "invalid_token"));
        clock.advance(Span::seconds(2));
        assert!(keys.check(&token, false).is_ok());
    }

    #[test]
    fn a_token_signed_with_another_secret_is_invalid() {
        let (keys, _) = keys(Duration::from_secs(60));
        let other = TokenKeys::new(b"another-secret-another-secret-another", Duration::from_secs(60));
        let (token, _) = other.issue("u1", "s1").unwrap();
        assert_eq!(keys.check(&token, true).unwrap_err().code, "invalid_token");
    }

    /// The server's clock reaches the handlers: a token expires, and later the session, when the
    /// manual clock is advanced, with no waiting.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_server_on_a_manual_clock_expires_tokens_and_sessions_as_the_clock_moves() {
        let dir = tempfile::tempdir().unwrap();
        let db = commands::Db::open_sqlite(dir.path()).await.unwrap();
        let clock = ManualClock::starting_now();
        let config = crate::config::ServeArgs::for_tests();
        let (ttl_minutes, session_days) = (config.token_ttl_minutes as i64, config.session_days as i64);
        let server = crate::app::Server::start_with_clock(db, dir.path(), config, clock.clone()).await.unwrap();
        let client = reqwest::Client::new();
        let url = |path: &str| format!("http://{}{path}", server.addr);
        let signed: serde_json::Value = client
            .post(url("/api/auth/signup"))
            .json(&serde_json::json!({"email": "ada@example.com", "password": "correct horse", "username": "ada"}))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let token = signed["token"].as_str().unwrap().to_string();
        let call = |path: &'static str, token: String| {
            let request = if path == "/api/auth/refresh" { client.post(url(path)) } else { client.get(url(path)) };
            async move {
                let response = request.header("token", token).send().await.unwrap();
                let status = response.status();
                let body: serde_json::Value = response.json().await.unwrap_or_default();
                (status, body["code"].as_str().unwrap_or_default().to_string(), body["token"].clone())
            }
        };
        assert_eq!(call("/api/user", token.clone()).await.0, StatusCode::OK);

        clock.advance(Span::minutes(ttl_minutes) + Span::seconds(1));
        let (status, code, _) = call("/api/user", token.clone()).await;
        assert_eq!((status, code.as_str()), (StatusCode::FORBIDDEN, "token_expired"));
        let (status, _, fresh) = call("/api/auth/refresh", token.clone()).await;
        assert_eq!(status, StatusCode::OK, "an expired token is refreshed while its session lasts");
        let fresh = fresh.as_str().unwrap().to_string();
        assert_eq!(call("/api/user", fresh.clone()).await.0, StatusCode::OK);

        clock.advance(Span::days(session_days));
        let (status, code, _) = call("/api/auth/refresh", fresh).await;
        assert_eq!((status, code.as_str()), (StatusCode::UNAUTHORIZED, "session_revoked"), "the session is over");
        server.stop().await.unwrap();
    }
}
