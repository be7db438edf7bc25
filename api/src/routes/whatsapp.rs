//! WhatsApp number verification by code (the pulse variant), and the outbox administrators read
//! while no messaging provider is configured. The rules are [`service::whatsapp`] and the user
//! aggregate.

use axum::extract::{Query, State};
use serde::Deserialize;
use service::whatsapp::{self, CodeSent, OutboxPage, Verified, WhatsappStatus};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::app::AppState;
use crate::auth::AuthUser;
use crate::error::{ApiJson, ApiResult, ErrorBody};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(whatsapp_status))
        .routes(routes!(send_whatsapp_code))
        .routes(routes!(verify_whatsapp))
        .routes(routes!(read_outbox))
}

/// The profile's WhatsApp number, whether it is verified, whether this user must verify it, and
/// how long to wait before asking for another code.
#[utoipa::path(get, path = "/user/whatsapp/status", tag = "platform", security(("token" = [])),
    responses((status = 200, body = WhatsappStatus), (status = 401, body = ErrorBody)))]
async fn whatsapp_status(State(state): State<AppState>, user: AuthUser) -> ApiResult<ApiJson<WhatsappStatus>> {
    Ok(ApiJson(whatsapp::status(&state, &user).await?))
}

/// Sends a six-digit code to the profile's WhatsApp number; it works for ten minutes and five
/// tries. At most one a minute and five an hour (429 with `Retry-After`).
#[utoipa::path(post, path = "/user/whatsapp/otp", tag = "platform", security(("token" = [])),
    responses((status = 200, body = CodeSent), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody),
        (status = 429, body = ErrorBody)))]
async fn send_whatsapp_code(State(state): State<AppState>, user: AuthUser) -> ApiResult<ApiJson<CodeSent>> {
    Ok(ApiJson(whatsapp::send_code(&state, &user).await?))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CodeBody {
    /// The six digits received.
    pub code: String,
}

/// Tries a code: the number is verified, or 422 `wrong_code` (with the tries left),
/// `code_expired` or `no_code`.
#[utoipa::path(post, path = "/user/whatsapp/verify", tag = "platform", security(("token" = [])),
    request_body = CodeBody,
    responses((status = 200, body = Verified), (status = 422, body = ErrorBody)))]
async fn verify_whatsapp(
    State(state): State<AppState>,
    user: AuthUser,
    ApiJson(body): ApiJson<CodeBody>,
) -> ApiResult<ApiJson<Verified>> {
    Ok(ApiJson(whatsapp::verify(&state, &user, &body.code).await?))
}

#[derive(Debug, Deserialize, IntoParams)]
pub struct OutboxParams {
    /// How many of the newest messages (1 to 500, default 50).
    pub limit: Option<i64>,
}

/// The messages waiting for an administrator to pass on, newest first: what a messaging provider
/// would have sent.
#[utoipa::path(get, path = "/admin/outbox", tag = "admin", security(("token" = [])), params(OutboxParams),
    responses((status = 200, body = OutboxPage), (status = 403, body = ErrorBody)))]
async fn read_outbox(
    State(state): State<AppState>,
    user: AuthUser,
    Query(params): Query<OutboxParams>,
) -> ApiResult<ApiJson<OutboxPage>> {
    Ok(ApiJson(whatsapp::outbox(&state, &user, params.limit).await?))
}
