//! Passwords over HTTP: changing one's own, and resetting a forgotten one with a one-time link
//! (mailed, or issued by an administrator: [`service::password_reset::admin_reset_link`]). The
//! rules are [`service::sessions::change_password`] and [`service::password_reset`]; the
//! throttles here.

use axum::extract::State;
use axum::http::StatusCode;
use domain::email;
use serde::{Deserialize, Serialize};
use service::password_reset;
use service::sessions;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::app::AppState;
use crate::auth::{AuthUser, ClientAddr, RequestMeta};
use crate::error::{ApiJson, ApiResult, ErrorBody};
use crate::throttle::ResetRequest;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(change_password))
        .routes(routes!(reset_options))
        .routes(routes!(request_reset))
        .routes(routes!(complete_reset))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ChangePasswordRequest {
    pub current_password: String,
    pub new_password: String,
}

/// Changes the signed-in user's password. The current password must be right (422
/// `wrong_password`; wrong guesses are throttled like sign-in's); the new one must meet the
/// policy (422 `weak_password` saying why). Every other session of the user ends; this one goes
/// on.
#[utoipa::path(post, path = "/auth/password", tag = "auth", security(("token" = [])),
    request_body = ChangePasswordRequest,
    responses((status = 204), (status = 401, body = ErrorBody), (status = 422, body = ErrorBody),
        (status = 429, body = ErrorBody)))]
async fn change_password(
    State(state): State<AppState>,
    user: AuthUser,
    ClientAddr(client): ClientAddr,
    ApiJson(body): ApiJson<ChangePasswordRequest>,
) -> ApiResult<StatusCode> {
    // Counted apart from sign-in's accounts (keyed by id, not address), with the same back-off.
    let key = format!("password-change:{}", user.user_id);
    let attempt = state.limiter.begin_sign_in(&key, client).await?.map_err(|t| t.sign_in())?;
    match sessions::change_password(&state, &user, body.current_password, body.new_password).await {
        Err(e) if e.code == "wrong_password" => {
            state.limiter.failed(attempt);
            Err(e.into())
        }
        other => {
            state.limiter.succeeded(attempt).await;
            other?;
            Ok(StatusCode::NO_CONTENT)
        }
    }
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct ResetOptions {
    /// True when reset links are mailed; false when only an administrator can issue one.
    pub by_mail: bool,
    /// How long a link works, in minutes.
    pub link_minutes: u64,
}

/// How a forgotten password is reset on this server: by mail, or through an administrator.
#[utoipa::path(get, path = "/auth/password-reset", tag = "auth", responses((status = 200, body = ResetOptions)))]
async fn reset_options(State(state): State<AppState>) -> ApiJson<ResetOptions> {
    ApiJson(ResetOptions { by_mail: password_reset::by_mail(&state), link_minutes: state.settings.reset_link_minutes })
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ResetRequestBody {
    pub email: String,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct ResetRequested {
    /// What happens next, the same for every address.
    pub message: String,
    /// Whether links are mailed on this server (as `GET /auth/password-reset` says).
    pub by_mail: bool,
}

/// Asks for a reset link for an email address. The answer (202) is the same whether or not the
/// address has an account, and comes before any link is issued or mailed. With no mailer
/// configured nothing is sent: an administrator issues links. Each client address may ask
/// 10 times an hour (429 with `Retry-After`); each address is mailed at most 3 links an hour.
#[utoipa::path(post, path = "/auth/password-reset/request", tag = "auth", request_body = ResetRequestBody,
    responses((status = 202, body = ResetRequested), (status = 422, body = ErrorBody), (status = 429, body = ErrorBody)))]
async fn request_reset(
    State(state): State<AppState>,
    meta: RequestMeta,
    ClientAddr(client): ClientAddr,
    ApiJson(body): ApiJson<ResetRequestBody>,
) -> ApiResult<(StatusCode, ApiJson<ResetRequested>)> {
    if !email::is_plausible(&body.email) {
        return Err(service::Error::invalid("invalid_email", "email must be a valid email").into());
    }
    let address = email::normalise(&body.email);
    let by_mail = password_reset::by_mail(&state);
    if state.limiter.reset_request(&address, client).await?.map_err(|t| t.reset_request())? == ResetRequest::Mail
        && by_mail
    {
        let ctx = state.ctx.clone();
        let origin = meta.0.clone();
        tokio::spawn(async move {
            if let Err(e) = password_reset::mail_reset_link(&ctx, &origin, &address).await {
                tracing::warn!(code = %e.code, "no reset link was mailed");
            }
        });
    }
    let message = if by_mail {
        format!(
            "if an account uses this address, a link to reset its password is on its way; it works once, for {} minutes",
            state.settings.reset_link_minutes
        )
    } else {
        "this server sends no mail: ask an administrator for a reset link".to_string()
    };
    Ok((StatusCode::ACCEPTED, ApiJson(ResetRequested { message, by_mail })))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CompleteResetRequest {
    /// The `token` of the reset link.
    pub token: String,
    pub password: String,
}

/// Sets a new password with a reset link's token. The link works once, until it expires, and
/// only while it is the latest one (422 `reset_link_invalid` otherwise); the password must meet
/// the policy (422 `weak_password` saying why). Every session of the account ends: sign in
/// with the new password.
#[utoipa::path(post, path = "/auth/password-reset/complete", tag = "auth", request_body = CompleteResetRequest,
    responses((status = 204), (status = 422, body = ErrorBody)))]
async fn complete_reset(
    State(state): State<AppState>,
    meta: RequestMeta,
    ApiJson(body): ApiJson<CompleteResetRequest>,
) -> ApiResult<StatusCode> {
    password_reset::reset_password(&state, &meta, body.token.trim(), body.password).await?;
    Ok(StatusCode::NO_CONTENT)
}
