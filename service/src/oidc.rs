//! Sign-in with an organisation's identity provider (OpenID Connect, authorization code with
//! PKCE), next to local accounts.
//!
//! This server is the relying party, a confidential client: it sends the browser to the
//! provider with a random state, nonce and PKCE challenge, and on the way back exchanges the code
//! itself and verifies the ID token (signature by the provider's published keys, issuer,
//! audience, expiry, nonce) with the `openidconnect` crate. The pending sign-in (state, nonce,
//! PKCE verifier, where to go after) travels in a signed cookie, so any node can finish what
//! another began. The provider's metadata and keys are cached; an ID token signed by a key the
//! cache does not know makes one refetch (at most every [`KEY_REFRESH_GAP`]), which is how a
//! provider's key rotation is followed.
//!
//! A verified person signs in to the account with their email address; the first sign-in of an
//! address in one of the organisation's domains creates the account. The provider's refresh
//! token is kept beside the session (never in an event), and each token refresh here refreshes
//! there too: a person the provider has signed out or disabled loses their session at the next
//! refresh.

use std::sync::Arc;
use std::time::{Duration, Instant};

use openidconnect::core::{CoreAuthenticationFlow, CoreClient, CoreIdToken, CoreProviderMetadata};
use openidconnect::{
    AuthorizationCode, ClaimsVerificationError, ClientId, ClientSecret, CsrfToken, IssuerUrl, Nonce,
    OAuth2TokenResponse, PkceCodeChallenge, PkceCodeVerifier, RedirectUrl, RefreshToken, Scope,
    SignatureVerificationError, TokenResponse,
};
use serde::{Deserialize, Serialize};
use tokio::sync::Mutex;

use crate::context::Context;
use crate::error::{Error, Kind, Result};
use crate::sessions::{self, SignUp};
use crate::Origin;

/// The least time between two refetches of the provider's keys, so that tokens signed by unknown
/// keys cannot make this server hammer the provider.
pub const KEY_REFRESH_GAP: Duration = Duration::from_secs(10);
/// How long cached provider metadata is trusted before it is fetched again.
const METADATA_TTL: Duration = Duration::from_secs(3600);
/// Every call to the provider ends within this.
const PROVIDER_TIMEOUT: Duration = Duration::from_secs(10);

/// What the operator configured.
#[derive(Debug, Clone)]
pub struct OidcSettings {
    /// The provider's issuer URL (its discovery document is under `/.well-known/`).
    pub issuer: String,
    pub client_id: String,
    pub client_secret: Option<String>,
    /// Where the provider sends the browser back: this server's `/api/auth/oidc/callback`.
    pub redirect_url: String,
    /// The button's words: "Sign in with {label}".
    pub label: String,
    /// Email domains whose people get an account on first sign-in (lower case). Empty: any
    /// verified address.
    pub domains: Vec<String>,
}

/// A sign-in begun: what the callback must see again. Kept by the browser in a signed cookie.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Pending {
    pub state: String,
    pub nonce: String,
    pub verifier: String,
    /// The page to open after signing in (a path of this app).
    pub redirect: String,
}

/// Who the provider says signed in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Identity {
    pub issuer: String,
    pub subject: String,
    /// Normalised.
    pub email: String,
    pub name: Option<String>,
    /// The provider's refresh token, when it gave one.
    pub refresh_token: Option<String>,
}

struct Cached {
    metadata: CoreProviderMetadata,
    fetched: Instant,
}

/// The configured provider: its settings and its cached metadata and keys.
pub struct Oidc {
    pub settings: OidcSettings,
    http: openidconnect::reqwest::Client,
    cache: Mutex<Option<Arc<Cached>>>,
}

fn provider_error(what: &str, detail: impl std::fmt::Display) -> Error {
    tracing::warn!(error = %detail, "identity provider: {what}");
    Error::new(
        crate::error::Kind::Unavailable,
        "oidc_provider_unavailable",
        "The identity provider could not be reached or answered wrongly; try again, or ask your administrator.",
    )
}

fn refused(code: &str, message: &str) -> Error {
    Error::unauthorised(code, message)
}

impl Oidc {
    pub fn new(settings: OidcSettings) -> Result<Self> {
        let http = openidconnect::reqwest::Client::builder()
            // Following redirects would let a provider point this server anywhere.
            .redirect(openidconnect::reqwest::redirect::Policy::none())
            .timeout(PROVIDER_TIMEOUT)
            .connect_timeout(PROVIDER_TIMEOUT)
            .build()
            .map_err(|e| Error::internal(format!("oidc http client: {e}")))?;
        IssuerUrl::new(settings.issuer.clone()).map_err(|e| Error::internal(format!("oidc issuer: {e}")))?;
        RedirectUrl::new(settings.redirect_url.clone()).map_err(|e| Error::internal(format!("oidc redirect: {e}")))?;
        Ok(Oidc { settings, http, cache: Mutex::new(None) })
    }

    /// The provider's metadata and keys: cached, fetched again when older than an hour or when
    /// `refresh` asks and the last fetch is at least [`KEY_REFRESH_GAP`] old.
    async fn metadata(&self, refresh: bool) -> Result<Arc<Cached>> {
        let mut cache = self.cache.lock().await;
        if let Some(cached) = cache.as_ref() {
            let age = cached.fetched.elapsed();
            if age < METADATA_TTL && (!refresh || age < KEY_REFRESH_GAP) {
                return Ok(cached.clone());
            }
        }
        let issuer = IssuerUrl::new(self.settings.issuer.clone()).map_err(|e| provider_error("issuer", e))?;
        let metadata = CoreProviderMetadata::discover_async(issuer, &self.http)
            .await
            .map_err(|e| provider_error("discovery", e))?;
        let fresh = Arc::new(Cached { metadata, fetched: Instant::now() });
        *cache = Some(fresh.clone());
        Ok(fresh)
    }

    fn client(
        &self,
        metadata: &CoreProviderMetadata,
    ) -> Result<
        CoreClient<
            openidconnect::EndpointSet,
            openidconnect::EndpointNotSet,
            openidconnect::EndpointNotSet,
            openidconnect::EndpointNotSet,
            openidconnect::EndpointMaybeSet,
            openidconnect::EndpointMaybeSet,
        >,
    > {
        let redirect = RedirectUrl::new(self.settings.redirect_url.clone()).map_err(Error::internal)?;
        Ok(CoreClient::from_provider_metadata(
            metadata.clone(),
            ClientId::new(self.settings.client_id.clone()),
            self.settings.client_secret.clone().map(ClientSecret::new),
        )
        .set_redirect_uri(redirect))
    }

    /// Starts a sign-in: the provider's address to send the browser to, and what the callback
    /// must see again.
    pub async fn begin(&self, redirect: String) -> Result<(String, Pending)> {
        let cached = self.metadata(false).await?;
        let client = self.client(&cached.metadata)?;
        let (challenge, verifier) = PkceCodeChallenge::new_random_sha256();
        let (url, state, nonce) = client
            .authorize_url(CoreAuthenticationFlow::AuthorizationCode, CsrfToken::new_random, Nonce::new_random)
            .add_scope(Scope::new("email".into()))
            .add_scope(Scope::new("profile".into()))
            .add_scope(Scope::new("offline_access".into()))
            .set_pkce_challenge(challenge)
            .url();
        let pending = Pending {
            state: state.secret().clone(),
            nonce: nonce.secret().clone(),
            verifier: verifier.secret().clone(),
            redirect,
        };
        Ok((url.to_string(), pending))
    }

    /// Finishes a sign-in: checks the state, exchanges the code with the PKCE verifier, verifies
    /// the ID token and answers who signed in. Nothing is recorded here.
    pub async fn finish(&self, pending: &Pending, state: &str, code: String) -> Result<Identity> {
        if !constant_time_eq(pending.state.as_bytes(), state.as_bytes()) {
            return Err(refused(
                "oidc_state_mismatch",
                "This sign-in link is not the one this browser started; sign in again.",
            ));
        }
        let cached = self.metadata(false).await?;
        let client = self.client(&cached.metadata)?;
        let response = client
            .exchange_code(AuthorizationCode::new(code))
            .map_err(|e| provider_error("token endpoint", e))?
            .set_pkce_verifier(PkceCodeVerifier::new(pending.verifier.clone()))
            .request_async(&self.http)
            .await
            .map_err(|e| {
                tracing::warn!(error = %e, "identity provider refused the code");
                refused("oidc_code_refused", "The identity provider did not accept this sign-in; sign in again.")
            })?;
        let id_token = response
            .id_token()
            .ok_or_else(|| refused("oidc_no_id_token", "The identity provider sent no ID token."))?;
        let nonce = Nonce::new(pending.nonce.clone());
        let identity = self.verify(id_token, &nonce).await?;
        Ok(Identity { refresh_token: response.refresh_token().map(|t| t.secret().clone()), ..identity })
    }

    /// Verifies an ID token; a key the cached set does not have makes one refetch of the keys.
    async fn verify(&self, id_token: &CoreIdToken, nonce: &Nonce) -> Result<Identity> {
        let mut refreshed = false;
        loop {
            let cached = self.metadata(refreshed).await?;
            let client = self.client(&cached.metadata)?;
            let verifier = client.id_token_verifier();
            match id_token.claims(&verifier, nonce) {
                Ok(claims) => {
                    if claims.email_verified() == Some(false) {
                        return Err(refused(
                            "oidc_email_unverified",
                            "The identity provider has not verified your email address.",
                        ));
                    }
                    let email = claims
                        .email()
                        .map(|e| domain::email::normalise(e.as_str()))
                        .filter(|e| domain::email::is_plausible(e))
                        .ok_or_else(|| {
                            refused("oidc_no_email", "The identity provider did not share your email address.")
                        })?;
                    let name = claims
                        .name()
                        .and_then(|n| n.get(None))
                        .map(|n| n.as_str().to_string())
                        .or_else(|| claims.preferred_username().map(|u| u.as_str().to_string()));
                    return Ok(Identity {
                        issuer: claims.issuer().as_str().to_string(),
                        subject: claims.subject().as_str().to_string(),
                        email,
                        name,
                        refresh_token: None,
                    });
                }
                Err(ClaimsVerificationError::SignatureVerification(SignatureVerificationError::NoMatchingKey))
                    if !refreshed =>
                {
                    refreshed = true;
                }
                Err(e) => {
                    tracing::warn!(error = %e, "ID token refused");
                    return Err(refused(
                        "oidc_id_token_invalid",
                        "The identity provider's answer could not be verified; sign in again.",
                    ));
                }
            }
        }
    }

    /// Refreshes at the provider: the new refresh token (the same when it gave none), or a
    /// refusal when the provider no longer honours the person's sign-in.
    pub async fn refresh(&self, refresh_token: &str) -> Result<String> {
        let cached = self.metadata(false).await?;
        let client = self.client(&cached.metadata)?;
        let response = client
            .exchange_refresh_token(&RefreshToken::new(refresh_token.to_string()))
            .map_err(|e| provider_error("token endpoint", e))?
            .request_async(&self.http)
            .await
            .map_err(|e| {
                tracing::info!(error = %e, "identity provider refused the refresh");
                refused("oidc_session_ended", "Your organisation's sign-in has ended; sign in again.")
            })?;
        Ok(response.refresh_token().map_or_else(|| refresh_token.to_string(), |t| t.secret().clone()))
    }

    /// Whether an address's domain may get an account on first sign-in.
    pub fn domain_allowed(&self, email: &str) -> bool {
        domain_allowed(&self.settings.domains, email)
    }
}

/// Finishes a sign-in the provider sent back (`state` and `code` as it gave them) and starts
/// session `session_id` for the person: their account, made on first sign-in when their domain
/// allows; the provider's refresh token kept beside the session. Answers the signed-in user.
pub async fn complete(
    ctx: &Context,
    origin: &Origin,
    oidc: &Oidc,
    pending: &Pending,
    state: &str,
    code: String,
    session_id: &str,
) -> Result<sessions::AuthUserBody> {
    let identity = oidc.finish(pending, state, code).await?;
    let user_id = account_for(ctx, origin, oidc, &identity).await?;
    let user = sessions::start(ctx, session_id, &user_id, origin, None).await.map_err(|e| {
        tracing::warn!(error = %e, "a session could not start after organisation sign-in");
        Error::new(Kind::Internal, "oidc_session_failed", "Your session could not start; sign in again.")
    })?;
    if let Err(e) = remember(ctx, session_id, &identity).await {
        tracing::warn!(error = %e, "the provider's refresh token could not be kept");
    }
    Ok(user)
}

/// The account `identity` signs in to: the one with its email address, else a new one when the
/// address is in one of the organisation's domains. A new account's password is random and
/// never shown; its owner may set one with a reset link to sign in without the provider too.
async fn account_for(ctx: &Context, origin: &Origin, oidc: &Oidc, identity: &Identity) -> Result<String> {
    if let Some(user) = projections::queries::user_by_email(&ctx.db, &identity.email).await? {
        return Ok(user.user_id);
    }
    if !oidc.domain_allowed(&identity.email) {
        return Err(Error::new(
            Kind::Forbidden,
            "oidc_domain_not_allowed",
            "Your organisation's sign-in is not set up for this email address; ask your administrator.",
        ));
    }
    let local = identity.email.split('@').next().unwrap_or_default().to_string();
    let username = identity
        .name
        .as_deref()
        .and_then(|n| domain::user::clean_username(n).ok())
        .or_else(|| domain::user::clean_username(&local).ok())
        .unwrap_or_else(|| "Member".to_string());
    let password = crate::password_reset::new_token();
    let checked = SignUp { email: identity.email.clone(), password, username }.check()?;
    match sessions::sign_up(ctx, origin, checked).await {
        Ok(user_id) => Ok(user_id),
        // Two first sign-ins at once: the other made the account.
        Err(e) if e.kind == Kind::Conflict => {
            projections::queries::user_by_email(&ctx.db, &identity.email).await?.map(|u| u.user_id).ok_or(e)
        }
        Err(e) => Err(e),
    }
}

/// Keeps the provider's refresh token beside session `session_id` (outside the events: it is a
/// credential).
async fn remember(ctx: &Context, session_id: &str, identity: &Identity) -> Result<()> {
    let Some(token) = &identity.refresh_token else {
        return Ok(());
    };
    ctx.db
        .execute(
            "INSERT INTO oidc_sessions (session_id, issuer, subject, refresh_token, created_at) \
             VALUES ($1, $2, $3, $4, $5)",
            commands::args![
                session_id,
                identity.issuer.as_str(),
                identity.subject.as_str(),
                token.as_str(),
                ctx.clock.now().to_rfc3339()
            ],
        )
        .await?;
    Ok(())
}

#[derive(sqlx::FromRow)]
struct Linked {
    issuer: String,
    subject: String,
    refresh_token: String,
}

/// Before session `old` is refreshed into `new`: when it began at the provider, refreshes there
/// first and carries the provider's token over; a refusal there ends the refresh here.
pub async fn refresh_session(ctx: &Context, old: &str, new: &str) -> Result<()> {
    let linked: Option<Linked> = ctx
        .db
        .fetch_optional(
            "SELECT issuer, subject, refresh_token FROM oidc_sessions WHERE session_id = $1",
            commands::args![old],
        )
        .await?;
    let Some(linked) = linked else {
        return Ok(());
    };
    let Some(oidc) = &ctx.oidc else {
        return Err(refused(
            "oidc_session_ended",
            "Your organisation's sign-in is no longer set up here; sign in again.",
        ));
    };
    let token = oidc.refresh(&linked.refresh_token).await?;
    ctx.db
        .execute(
            "INSERT INTO oidc_sessions (session_id, issuer, subject, refresh_token, created_at) \
             VALUES ($1, $2, $3, $4, $5)",
            commands::args![new, linked.issuer, linked.subject, token, ctx.clock.now().to_rfc3339()],
        )
        .await?;
    ctx.db.execute("DELETE FROM oidc_sessions WHERE session_id = $1", commands::args![old]).await?;
    Ok(())
}

/// Whether `email`'s domain is one of `domains` (any, when there are none).
pub fn domain_allowed(domains: &[String], email: &str) -> bool {
    let Some((_, domain)) = email.rsplit_once('@') else {
        return false;
    };
    domains.is_empty() || domains.iter().any(|d| d.eq_ignore_ascii_case(domain))
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// Only a path of this app is a place to go after signing in, never another site.
pub fn safe_redirect(redirect: Option<&str>) -> String {
    match redirect {
        Some(path) if path.starts_with('/') && !path.starts_with("//") && !path.contains('\\') && path.len() <= 512 => {
            path.to_string()
        }
        _ => "/".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_organisations_domains_get_accounts() {
        let domains = vec!["example.com".to_string()];
        assert!(domain_allowed(&domains, "ann@example.com"));
        assert!(domain_allowed(&domains, "ann@EXAMPLE.com"));
        assert!(!domain_allowed(&domains, "ann@example.com.evil.test"));
        assert!(!domain_allowed(&domains, "ann@sub.example.com"));
        assert!(!domain_allowed(&domains, "no-at-sign"));
        assert!(domain_allowed(&[], "anyone@anywhere.test"));
    }

    #[test]
    fn only_a_path_of_this_app_is_a_redirect() {
        assert_eq!(safe_redirect(Some("/feeds/home?tab=1")), "/feeds/home?tab=1");
        for bad in ["https://evil.test/", "//evil.test/x", "/\\evil.test", "feeds"] {
            assert_eq!(safe_redirect(Some(bad)), "/", "{bad}");
        }
        assert_eq!(safe_redirect(None), "/");
    }

    #[test]
    fn states_compare_whole() {
        assert!(constant_time_eq(b"abc", b"abc"));
        assert!(!constant_time_eq(b"abc", b"abd"));
        assert!(!constant_time_eq(b"abc", b"ab"));
    }
}
