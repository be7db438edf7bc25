//! The event hash chain: its status, a full verification, and signed checkpoints. For
//! administrators and auditors; the use cases are [`service::audit_chain`].

use axum::extract::State;
use axum::http::StatusCode;
use commands::chain::Checkpoint;
use service::audit_chain::{self, ChainStatus};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::app::AppState;
use crate::auth::AuthUser;
use crate::error::{ApiJson, ApiResult, ErrorBody};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(chain_status))
        .routes(routes!(verify_chain))
        .routes(routes!(list_checkpoints, create_checkpoint))
}

/// The chain's status: verified in full on a node's first call, then from where the last walk
/// ended.
#[utoipa::path(get, path = "/audit/chain", tag = "audit", security(("token" = [])),
    responses((status = 200, body = ChainStatus), (status = 403, body = ErrorBody)))]
async fn chain_status(State(state): State<AppState>, user: AuthUser) -> ApiResult<ApiJson<ChainStatus>> {
    Ok(ApiJson(audit_chain::status(&state, &user).await?))
}

/// Recomputes the whole chain now, against every recorded checkpoint.
#[utoipa::path(post, path = "/audit/chain/verify", tag = "audit", security(("token" = [])),
    responses((status = 200, body = ChainStatus), (status = 403, body = ErrorBody)))]
async fn verify_chain(State(state): State<AppState>, user: AuthUser) -> ApiResult<ApiJson<ChainStatus>> {
    Ok(ApiJson(audit_chain::verify(&state, &user).await?))
}

/// The recorded checkpoints, newest first.
#[utoipa::path(get, path = "/audit/checkpoints", tag = "audit", security(("token" = [])),
    responses((status = 200, body = Vec<Object>), (status = 403, body = ErrorBody)))]
async fn list_checkpoints(State(state): State<AppState>, user: AuthUser) -> ApiResult<ApiJson<Vec<Checkpoint>>> {
    Ok(ApiJson(audit_chain::checkpoints(&state, &user).await?))
}

/// Signs the chain's head as it stands and records the checkpoint, to be kept outside the system.
#[utoipa::path(post, path = "/audit/checkpoints", tag = "audit", security(("token" = [])),
    responses((status = 201, body = Object), (status = 403, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn create_checkpoint(
    State(state): State<AppState>,
    user: AuthUser,
) -> ApiResult<(StatusCode, ApiJson<Checkpoint>)> {
    Ok((StatusCode::CREATED, ApiJson(audit_chain::create_checkpoint(&state, &user).await?)))
}
