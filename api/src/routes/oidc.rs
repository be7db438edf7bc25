//! Sign-in with the organisation's identity provider over HTTP: where the browser is sent, the
//! cookie that carries the pending sign-in, and the callback that ends in a session. The
//! protocol is [`service::oidc`].
//!
//! The callback answers with a redirect to the web app's `/oauth/redirect` page carrying the new
//! token in the URL's fragment, which browsers never send to a server; the page stores it and
//! removes it from the address bar and history. A failure redirects to the sign-in page with the error's
//! code, which the page words.

use axum::extract::{Query, State};
use axum::http::header::{CACHE_CONTROL, COOKIE, LOCATION, SET_COOKIE};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use service::{oidc, sessions};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::app::AppState;
use crate::auth::{RequestMeta, PENDING_SIGN_IN_SECONDS};
use crate::error::{ApiJson, ApiResult};

const COOKIE_NAME: &str = "needl_oidc";
const COOKIE_PATH: &str = "/api/auth/oidc";

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(oidc_config)).routes(routes!(oidc_start)).routes(routes!(oidc_callback))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct OidcConfig {
    /// Whether an identity provider is configured.
    pub enabled: bool,
    /// The button's words: "Sign in with {label}".
    pub label: Option<String>,
}

/// Whether the sign-in page offers the organisation's identity provider, and by what name.
#[utoipa::path(get, path = "/auth/oidc/config", tag = "auth", responses((status = 200, body = OidcConfig)))]
async fn oidc_config(State(state): State<AppState>) -> ApiJson<OidcConfig> {
    ApiJson(OidcConfig { enabled: state.oidc.is_some(), label: state.oidc.as_ref().map(|o| o.settings.label.clone()) })
}

#[derive(Debug, Deserialize, IntoParams)]
pub struct StartParams {
    /// The page of this app to open after signing in.
    pub redirect: Option<String>,
}

fn secure(state: &AppState) -> bool {
    state.settings.public_url.starts_with("https://")
}

fn cookie(state: &AppState, value: &str, max_age: i64) -> HeaderValue {
    let secure = if secure(state) { "; Secure" } else { "" };
    let text = format!("{COOKIE_NAME}={value}; Path={COOKIE_PATH}; Max-Age={max_age}; HttpOnly; SameSite=Lax{secure}");
    HeaderValue::from_str(&text).unwrap_or_else(|_| HeaderValue::from_static(""))
}

fn redirect(location: &str, set_cookie: Option<HeaderValue>) -> Response {
    let mut response = StatusCode::SEE_OTHER.into_response();
    if let Ok(value) = HeaderValue::from_str(location) {
        response.headers_mut().insert(LOCATION, value);
    }
    response.headers_mut().insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    if let Some(value) = set_cookie {
        response.headers_mut().insert(SET_COOKIE, value);
    }
    response
}

/// Sends the browser to the identity provider, with a fresh state, nonce and PKCE challenge kept
/// in a signed, HTTP-only cookie for ten minutes. 404 when no provider is configured.
#[utoipa::path(get, path = "/auth/oidc/start", tag = "auth", params(StartParams),
    responses((status = 303, description = "to the identity provider"), (status = 404), (status = 502)))]
async fn oidc_start(State(state): State<AppState>, Query(params): Query<StartParams>) -> ApiResult<Response> {
    let Some(provider) = state.oidc.clone() else {
        return Err(service::Error::not_found("no identity provider is configured").into());
    };
    let (url, pending) = provider.begin(oidc::safe_redirect(params.redirect.as_deref())).await?;
    let sealed = state.tokens.seal_pending(&pending).map_err(service::Error::from)?;
    Ok(redirect(&url, Some(cookie(&state, &sealed, PENDING_SIGN_IN_SECONDS))))
}

#[derive(Debug, Deserialize, IntoParams)]
pub struct CallbackParams {
    pub code: Option<String>,
    pub state: Option<String>,
    /// The provider's refusal (`access_denied`, ...), instead of a code.
    pub error: Option<String>,
}

fn pending_cookie(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == COOKIE_NAME)
        .map(|(_, value)| value.to_string())
}

/// Where the browser lands after the provider: checks the state against the cookie, exchanges
/// the code, verifies the ID token, finds or makes the account and starts a session. Ends in a
/// redirect to the web app either way.
#[utoipa::path(get, path = "/auth/oidc/callback", tag = "auth", params(CallbackParams),
    responses((status = 303, description = "to the web app, signed in or with the error's code")))]
async fn oidc_callback(
    State(state): State<AppState>,
    meta: RequestMeta,
    headers: HeaderMap,
    Query(params): Query<CallbackParams>,
) -> Response {
    let clear = cookie(&state, "", 0);
    match finish(&state, &meta, &headers, params).await {
        Ok(location) => redirect(&location, Some(clear)),
        Err(code) => redirect(&format!("/auth/signin?sso_error={code}"), Some(clear)),
    }
}

async fn finish(
    state: &AppState,
    meta: &RequestMeta,
    headers: &HeaderMap,
    params: CallbackParams,
) -> Result<String, String> {
    let fail = |e: service::Error| {
        tracing::info!(code = %e.code, "organisation sign-in failed");
        e.code
    };
    let provider = state.oidc.clone().ok_or_else(|| "oidc_not_configured".to_string())?;
    if let Some(error) = params.error {
        tracing::info!(%error, "the identity provider refused the sign-in");
        return Err("oidc_denied".into());
    }
    let pending = pending_cookie(headers)
        .and_then(|sealed| state.tokens.open_pending(&sealed))
        .ok_or_else(|| "oidc_sign_in_expired".to_string())?;
    let (Some(code), Some(returned_state)) = (params.code, params.state) else {
        return Err("oidc_code_missing".into());
    };
    let session_id = sessions::new_session_id();
    let user =
        oidc::complete(state, meta, &provider, &pending, &returned_state, code, &session_id).await.map_err(fail)?;
    let (token, expires_at) = state.tokens.issue(&user.id, &session_id).map_err(|e| {
        tracing::warn!(error = %e, "no token could be issued after organisation sign-in");
        "oidc_session_failed".to_string()
    })?;
    let fragment = url::form_urlencoded::Serializer::new(String::new())
        .append_pair("token", &token)
        .append_pair("expires_at", &expires_at.to_rfc3339())
        .append_pair("redirect", &pending.redirect)
        .finish();
    Ok(format!("/oauth/redirect#{fragment}"))
}
