//! Health, readiness and Prometheus metrics (outside `/api`, for load balancers and scrapers).

use axum::extract::State;
use axum::routing::get;
use axum::Router;

use crate::app::{self, AppState};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/healthz", get(|| async { "ok" }))
        .route("/readyz", get(app::ready))
        .route("/metrics", get(metrics))
}

/// Renders the metrics, first measuring how far each projection is behind the feed.
async fn metrics(State(state): State<AppState>) -> String {
    if let Ok(head) = commands::feed::head(&state.db).await {
        for (name, at) in state.projections.checkpoints() {
            let behind = if at >= head { 0 } else { head.pos.saturating_sub(at.pos).max(1) };
            metrics::gauge!("needl_projection_feed_lag_events", "projection" => name).set(behind as f64);
        }
    }
    metrics::gauge!("needl_live_subscribers").set(state.hub.receivers() as f64);
    app::metrics_handle().render()
}
