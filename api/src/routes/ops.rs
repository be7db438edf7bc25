//! Health, readiness and Prometheus metrics (outside `/api`, for load balancers and scrapers).
//!
//! Metrics name every route and its traffic, so the public address serves them only with the
//! bearer token `--metrics-token`; `--metrics-addr` serves them apart (e.g. on loopback) with no
//! token.

use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use sha2::{Digest, Sha256};

use crate::app::{self, AppState};
use crate::error::AppError;

pub fn router() -> Router<AppState> {
    probes().route("/metrics", get(guarded_metrics))
}

/// What the separate metrics listener serves: metrics and the probes, no token.
pub fn metrics_router(state: AppState) -> Router {
    probes().route("/metrics", get(metrics)).with_state(state)
}

/// Liveness and readiness, served on both listeners.
fn probes() -> Router<AppState> {
    Router::new().route("/healthz", get(|| async { "ok" })).route("/readyz", get(app::ready))
}

/// Metrics on the public address: only for the bearer of `--metrics-token`.
async fn guarded_metrics(State(state): State<AppState>, headers: HeaderMap) -> Response {
    let Some(expected) = state.config.metrics_token.as_deref().filter(|t| !t.is_empty()) else {
        return AppError::not_found("metrics are not served on this address").into_response();
    };
    let given = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .unwrap_or("");
    // Compared as digests, so the time taken says nothing of how much of the token matched.
    if Sha256::digest(given.as_bytes()) != Sha256::digest(expected.as_bytes()) {
        return AppError::unauthorized("invalid_metrics_token", "send the metrics token as a bearer token")
            .into_response();
    }
    (StatusCode::OK, metrics(State(state)).await).into_response()
}

/// Renders the metrics, first measuring how far each projection is behind the feed.
async fn metrics(State(state): State<AppState>) -> String {
    if let Ok(head) = commands::feed::head(&state.db).await {
        for (name, behind) in app::projections_behind(&state, head) {
            metrics::gauge!("needl_projection_feed_lag_events", "projection" => name).set(behind as f64);
        }
    }
    metrics::gauge!("needl_live_subscribers").set(state.hub.receivers() as f64);
    app::metrics_handle().render()
}
