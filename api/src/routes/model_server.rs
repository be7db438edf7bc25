//! The model server AskNeedl writes with: which kind of answers it gives (anyone signed in), and
//! the setting itself with its connection check (administrators). The rules are
//! [`service::model_server`]'s.

use axum::extract::State;
use service::model_server::{self, AssistantChange, AssistantMode, AssistantSettings, CheckResult};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::app::AppState;
use crate::auth::AuthUser;
use crate::error::{ApiJson, ApiResult, ErrorBody};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(assistant_mode))
        .routes(routes!(assistant_settings, configure_assistant))
        .routes(routes!(check_assistant))
}

/// Which kind of answers AskNeedl gives now: written by a model, or quoted from the sources.
#[utoipa::path(get, path = "/ask/mode", tag = "ask", security(("token" = [])),
    responses((status = 200, body = AssistantMode)))]
async fn assistant_mode(State(state): State<AppState>, user: AuthUser) -> ApiResult<ApiJson<AssistantMode>> {
    Ok(ApiJson(model_server::mode(&state, &user).await?))
}

/// The model server setting in force (the key only as `key_set`).
#[utoipa::path(get, path = "/admin/assistant", tag = "admin", security(("token" = [])),
    responses((status = 200, body = AssistantSettings), (status = 403, body = ErrorBody)))]
async fn assistant_settings(State(state): State<AppState>, user: AuthUser) -> ApiResult<ApiJson<AssistantSettings>> {
    Ok(ApiJson(model_server::settings(&state, &user).await?))
}

/// Saves the model server setting; it wins over the start flags and applies from the next
/// question, without a restart.
#[utoipa::path(put, path = "/admin/assistant", tag = "admin", security(("token" = [])),
    request_body = AssistantChange,
    responses((status = 200, body = AssistantSettings), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn configure_assistant(
    State(state): State<AppState>,
    user: AuthUser,
    ApiJson(body): ApiJson<AssistantChange>,
) -> ApiResult<ApiJson<AssistantSettings>> {
    Ok(ApiJson(model_server::configure(&state, &user, body).await?))
}

/// Checks a model server: one tiny chat completion, within 15 seconds. Nothing is saved.
#[utoipa::path(post, path = "/admin/assistant/check", tag = "admin", security(("token" = [])),
    request_body = AssistantChange,
    responses((status = 200, body = CheckResult), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn check_assistant(
    State(state): State<AppState>,
    user: AuthUser,
    ApiJson(body): ApiJson<AssistantChange>,
) -> ApiResult<ApiJson<CheckResult>> {
    Ok(ApiJson(model_server::check(&state, &user, body).await?))
}
