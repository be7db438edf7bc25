//! Sign-up, sign-in, token refresh and sign-out. Each session is an aggregate; its events decide
//! whether a token is honoured.

use axum::extract::State;
use axum::http::StatusCode;
use commands::CommandError;
use domain::email::{self, EmailCommand, EmailReservation};
use domain::instance::{Instance, InstanceCommand, INSTANCE_ID};
use domain::session::SessionCommand;
use domain::user::{self, User, UserCommand};
use domain::DomainError;
use projections::queries::{self, UserRow};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::app::AppState;
use crate::auth::{
    hash_password, session_state, verify_password, AuthUser, ClientAddr, RefreshingUser, RequestMeta, SessionState,
    MAX_PASSWORD_LEN, MIN_PASSWORD_LEN,
};
use crate::error::{ApiJson, ApiResult, AppError, ErrorBody};

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

/// The signed-in user as the auth calls return it.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct AuthUserBody {
    pub id: String,
    pub email_id: String,
    pub username: String,
    pub is_admin: bool,
    pub is_auditor: bool,
}

impl From<&UserRow> for AuthUserBody {
    fn from(row: &UserRow) -> Self {
        AuthUserBody {
            id: row.user_id.clone(),
            email_id: row.email.clone(),
            username: row.username.clone(),
            is_admin: row.is_admin,
            is_auditor: row.is_auditor,
        }
    }
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct TokenResponse {
    /// The ID token: send it as the `token` header.
    pub token: String,
    /// When the token stops working (RFC 3339); refresh before then.
    pub expires_at: String,
    pub user: AuthUserBody,
}

/// Checks everything a sign-up could be refused for but a taken address; returns the username as
/// it is kept.
fn validate_sign_up(body: &SignUpRequest) -> Result<String, AppError> {
    if body.email.trim().is_empty() {
        return Err(AppError::invalid("invalid_email", "email is a required field"));
    }
    if !email::is_plausible(&body.email) {
        return Err(AppError::invalid("invalid_email", "email must be a valid email"));
    }
    if body.password.chars().count() < MIN_PASSWORD_LEN {
        return Err(AppError::invalid(
            "weak_password",
            format!("password must be at least {MIN_PASSWORD_LEN} characters"),
        ));
    }
    if body.password.len() > MAX_PASSWORD_LEN {
        return Err(AppError::invalid(
            "password_too_long",
            format!("password must be at most {MAX_PASSWORD_LEN} characters"),
        ));
    }
    if body.username.trim().is_empty() {
        return Err(AppError::invalid("invalid_username", "username is a required field"));
    }
    user::clean_username(&body.username).map_err(|e| AppError::invalid(e.code(), e.to_string()))
}

/// Starts a session for `user_id` and returns its token, once the session is readable.
async fn start_session(
    state: &AppState,
    user_id: &str,
    meta: &service::Origin,
    rotated_from: Option<String>,
) -> ApiResult<TokenResponse> {
    let session_id = uuid::Uuid::new_v4().to_string();
    let (token, token_expires_at) = state.tokens.issue(user_id, &session_id)?;
    let expires_at = chrono::Utc::now() + chrono::Duration::days(state.config.session_days as i64);
    state
        .command(
            &state.bus.sessions,
            &session_id,
            SessionCommand::Start { user_id: user_id.to_string(), expires_at, rotated_from },
            &meta.metadata(user_id),
        )
        .await?;
    let user = queries::user_by_id(&state.db, user_id)
        .await?
        .ok_or_else(|| AppError::internal("a signed-up user is missing from users_view"))?;
    Ok(TokenResponse { token, expires_at: token_expires_at.to_rfc3339(), user: AuthUserBody::from(&user) })
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
    let username = validate_sign_up(&body)?;
    state.limiter.sign_up(client).map_err(|t| t.sign_up())?;
    let email = email::normalise(&body.email);
    let user_id = uuid::Uuid::now_v7().to_string();
    let metadata = meta.metadata(&user_id);
    let password_hash = hash_password(body.password).await?;
    state
        .bus
        .execute_together(&metadata, |mut unit| {
            let (email, user_id, username, password_hash) =
                (email.clone(), user_id.clone(), username.clone(), password_hash.clone());
            async move {
                let reserve = EmailCommand::Reserve { user_id: user_id.clone() };
                unit.execute::<EmailReservation>(&email, reserve).await?;
                let claim = InstanceCommand::ClaimAdministration { user_id: user_id.clone() };
                let is_admin = match unit.execute::<Instance>(INSTANCE_ID, claim).await {
                    Ok(()) => true,
                    Err(CommandError::Domain(_)) => false,
                    Err(other) => return Err(AppError::from(other)),
                };
                let sign_up = UserCommand::SignUp { email, username, password_hash, is_admin };
                unit.execute::<User>(&user_id, sign_up).await?;
                Ok((unit, ()))
            }
        })
        .await?;
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
    let attempt = state.limiter.begin_sign_in(&email, client).map_err(|t| t.sign_in())?;
    let invalid = || AppError::unauthorized("invalid_credentials", "invalid email or password");
    if body.password.len() > MAX_PASSWORD_LEN {
        state.limiter.failed(attempt);
        return Err(invalid());
    }
    let user = queries::user_by_email(&state.db, &email).await?;
    let ok = verify_password(body.password, user.as_ref().map(|u| u.password_hash.clone())).await;
    let Some(user) = user.filter(|_| ok) else {
        state.limiter.failed(attempt);
        return Err(invalid());
    };
    state.limiter.succeeded(attempt);
    Ok(ApiJson(start_session(&state, &user.user_id, &meta, None).await?))
}

/// Swaps a token for a fresh one. An expired token is taken while its session lasts
/// (`--session-days`), so a tab left overnight picks up where it was. The old token keeps
/// working for `--session-grace-seconds` and can be refreshed again meanwhile (each time into
/// another successor), so a page that reloaded before it stored the new token stays signed in;
/// after that it stops.
#[utoipa::path(post, path = "/auth/refresh", tag = "auth", security(("token" = [])),
    responses((status = 200, body = TokenResponse), (status = 401, body = ErrorBody)))]
async fn refresh(
    State(state): State<AppState>,
    RefreshingUser(user): RefreshingUser,
) -> ApiResult<ApiJson<TokenResponse>> {
    let metadata = user.metadata();
    let rotated = state
        .bus
        .execute(
            &state.bus.sessions,
            &user.session_id,
            SessionCommand::Rotate { at: metadata.time, grace: state.session_grace() },
            &metadata,
        )
        .await;
    if let Err(commands::CommandError::Domain(_)) = rotated {
        return Err(AppError::unauthorized("session_revoked", "this session has ended; sign in again"));
    }
    rotated?;
    Ok(ApiJson(start_session(&state, &user.user_id, &user.origin, Some(user.session_id.clone())).await?))
}

/// How many sessions back along its refreshes a sign-out looks for ones still in their grace.
const SIGN_OUT_CHAIN_LIMIT: usize = 16;

/// Ends the session: its token stops working at once, and so do the tokens it was refreshed
/// from that are still in their grace.
#[utoipa::path(post, path = "/auth/signout", tag = "auth", security(("token" = [])),
    responses((status = 204), (status = 401, body = ErrorBody)))]
async fn sign_out(State(state): State<AppState>, user: AuthUser) -> ApiResult<StatusCode> {
    let metadata = user.metadata();
    let sign_out = SessionCommand::SignOut { at: metadata.time };
    state.command(&state.bus.sessions, &user.session_id, sign_out.clone(), &metadata).await?;
    let mut previous = queries::session(&state.db, &user.session_id).await?.and_then(|s| s.rotated_from);
    for _ in 0..SIGN_OUT_CHAIN_LIMIT {
        let Some(id) = previous else { break };
        let Some(row) = queries::session(&state.db, &id).await?.filter(|row| row.user_id == user.user_id) else {
            break;
        };
        // Older sessions along the chain were rotated earlier still: their grace is over too.
        let now = chrono::Utc::now();
        let grace = state.session_grace();
        let row_state =
            session_state(&row.expires_at, row.revoked_at.as_deref(), row.revoked_reason.as_deref(), grace, now);
        if row_state == SessionState::Ended {
            break;
        }
        state.command(&state.bus.sessions, &id, sign_out.clone(), &metadata).await?;
        previous = row.rotated_from;
    }
    Ok(StatusCode::NO_CONTENT)
}
