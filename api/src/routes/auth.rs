//! Sign-up, sign-in, token refresh and sign-out over HTTP: the throttles and the tokens. The
//! sessions themselves are [`service::sessions`].

use axum::extract::State;
use axum::http::StatusCode;
use domain::email;
use serde::{Deserialize, Serialize};
use service::sessions::{self, AuthUserBody, SignUp};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::app::AppState;
use crate::auth::{AuthUser, ClientAddr, RefreshingUser, RequestMeta};
use crate::error::{ApiJson, ApiResult, ErrorBody};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(sign_up))
        .routes(routes!(sign_in))
        .routes(routes!(refresh))
        .routes(routes!(sign_out))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SignUpRequest {
    pub email: String,
    pub password: String,
    pub username: String,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SignInRequest {
    pub email: String,
    pub password: String,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct TokenResponse {
    /// The ID token: send it as the `token` header.
    pub token: String,
    /// When the token stops working (RFC 3339); refresh before then.
    pub expires_at: String,
    pub user: AuthUserBody,
}

/// A session started: its id and the answer that carries its token.
/// Starts a session for `user_id` and returns its token, once the session is readable.
async fn start_session(
    state: &AppState,
    user_id: &str,
    meta: &service::Origin,
    rotated_from: Option<String>,
) -> ApiResult<TokenResponse> {
    start_session_as(state, sessions::new_session_id(), user_id, meta, rotated_from).await
}

/// As [`start_session`], with the session's id chosen by the caller.
async fn start_session_as(
    state: &AppState,
    session_id: String,
    user_id: &str,
    meta: &service::Origin,
    rotated_from: Option<String>,
) -> ApiResult<TokenResponse> {
    let (token, token_expires_at) = state.tokens.issue(user_id, &session_id)?;
    let user = sessions::start(state, &session_id, user_id, meta, rotated_from).await?;
    Ok(TokenResponse { token, expires_at: token_expires_at.to_rfc3339(), user })
}

/// Creates an account and signs it in. The first account of an instance is its administrator.
/// The address's reservation, the administrator claim and the account are one decision, committed
/// together or not at all, so a refused or interrupted sign-up leaves the address free. Each
/// client address may create `--signups-per-hour` accounts an hour (429 with `Retry-After`).
#[utoipa::path(post, path = "/auth/signup", tag = "auth", request_body = SignUpRequest,
    responses((status = 200, body = TokenResponse), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody),
        (status = 429, body = ErrorBody)))]
async fn sign_up(
    State(state): State<AppState>,
    meta: RequestMeta,
    ClientAddr(client): ClientAddr,
    ApiJson(body): ApiJson<SignUpRequest>,
) -> ApiResult<ApiJson<TokenResponse>> {
    let SignUpRequest { email, password, username } = body;
    let sign_up = SignUp { email, password, username }.check()?;
    state.limiter.sign_up(client).await?.map_err(|t| t.sign_up())?;
    let user_id = sessions::sign_up(&state, &meta, sign_up).await?;
    Ok(ApiJson(start_session(&state, &user_id, &meta, None).await?))
}

/// Signs in with email and password. A failure never tells whether the email has an account.
/// Failures are throttled by client address and by account (429 with `Retry-After`); an address
/// that has not failed on the account is let through even while others guess its password.
#[utoipa::path(post, path = "/auth/signin", tag = "auth", request_body = SignInRequest,
    responses((status = 200, body = TokenResponse), (status = 401, body = ErrorBody), (status = 429, body = ErrorBody)))]
async fn sign_in(
    State(state): State<AppState>,
    meta: RequestMeta,
    ClientAddr(client): ClientAddr,
    ApiJson(body): ApiJson<SignInRequest>,
) -> ApiResult<ApiJson<TokenResponse>> {
    let email = email::normalise(&body.email);
    let attempt = state.limiter.begin_sign_in(&email, client).await?.map_err(|t| t.sign_in())?;
    let Some(user_id) = sessions::check_credentials(&state, &email, body.password).await? else {
        state.limiter.failed(attempt);
        return Err(sessions::invalid_credentials().into());
    };
    state.limiter.succeeded(attempt).await;
    Ok(ApiJson(start_session(&state, &user_id, &meta, None).await?))
}

/// Swaps a token for a fresh one. An expired token is taken while its session lasts
/// (`--session-days`), so a tab left overnight picks up where it was. The old token keeps
/// working for `--session-grace-seconds` and can be refreshed again meanwhile (each time into
/// another successor), so a page that reloaded before it stored the new token stays signed in;
/// after that it stops. A session begun at the organisation's identity provider is refreshed
/// there first: if the provider no longer honours it, the session ends (401 `oidc_session_ended`).
#[utoipa::path(post, path = "/auth/refresh", tag = "auth", security(("token" = [])),
    responses((status = 200, body = TokenResponse), (status = 401, body = ErrorBody)))]
async fn refresh(
    State(state): State<AppState>,
    RefreshingUser(user): RefreshingUser,
) -> ApiResult<ApiJson<TokenResponse>> {
    let session_id = sessions::new_session_id();
    if let Err(e) = service::oidc::refresh_session(&state, &user.session_id, &session_id).await {
        if e.code == "oidc_session_ended" {
            sessions::sign_out(&state, &user).await?;
        }
        return Err(e.into());
    }
    sessions::rotate(&state, &user).await?;
    let rotated_from = Some(user.session_id.clone());
    Ok(ApiJson(start_session_as(&state, session_id, &user.user_id, &user.origin, rotated_from).await?))
}

/// Ends the session: its token stops working at once, and so do the tokens it was refreshed
/// from that are still in their grace.
#[utoipa::path(post, path = "/auth/signout", tag = "auth", security(("token" = [])),
    responses((status = 204), (status = 401, body = ErrorBody)))]
async fn sign_out(State(state): State<AppState>, user: AuthUser) -> ApiResult<StatusCode> {
    sessions::sign_out(&state, &user).await?;
    Ok(StatusCode::NO_CONTENT)
}
