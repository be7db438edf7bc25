//! Document summaries: asked for, their status, and the written PDF. The rules are
//! [`service::summaries`] and the summary aggregate.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use service::summaries::{self, SummaryList, SummaryStatusView};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::app::AppState;
use crate::auth::AuthUser;
use crate::error::{ApiJson, ApiResult, ErrorBody};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(my_summaries))
        .routes(routes!(summary_status, request_summary))
        .routes(routes!(summary_pdf))
}

/// Every summary the signed-in user asked for (the most recent 500), so a page of cards asks
/// once.
#[utoipa::path(get, path = "/documents/summaries", tag = "documents", security(("token" = [])),
    responses((status = 200, body = SummaryList), (status = 401, body = ErrorBody)))]
async fn my_summaries(State(state): State<AppState>, user: AuthUser) -> ApiResult<ApiJson<SummaryList>> {
    Ok(ApiJson(summaries::mine(&state, &user).await?))
}

/// The signed-in user's summary of a document they may read: NONE, PENDING or PROCESSING (with
/// the spec's "being generated" message), SUCCESS (with where its PDF is), or FAILED (with why).
#[utoipa::path(get, path = "/documents/{deeplink}/summary", tag = "documents", security(("token" = [])),
    params(("deeplink" = String, Path)),
    responses((status = 200, body = SummaryStatusView), (status = 404, body = ErrorBody)))]
async fn summary_status(
    State(state): State<AppState>,
    user: AuthUser,
    Path(deeplink): Path<String>,
) -> ApiResult<ApiJson<SummaryStatusView>> {
    Ok(ApiJson(summaries::status(&state, &user, &deeplink).await?))
}

/// Asks for a summary of a document (flag `doc_summarization`); it is written in the background
/// and the user notified when it is ready. Asking again changes nothing.
#[utoipa::path(post, path = "/documents/{deeplink}/summary", tag = "documents", security(("token" = [])),
    params(("deeplink" = String, Path)),
    responses((status = 202, body = SummaryStatusView), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn request_summary(
    State(state): State<AppState>,
    user: AuthUser,
    Path(deeplink): Path<String>,
) -> ApiResult<(StatusCode, ApiJson<SummaryStatusView>)> {
    Ok((StatusCode::ACCEPTED, ApiJson(summaries::request(&state, &user, &deeplink).await?)))
}

/// The written summary as a PDF.
#[utoipa::path(get, path = "/documents/{deeplink}/summary/pdf", tag = "documents", security(("token" = [])),
    params(("deeplink" = String, Path)),
    responses((status = 200, description = "the summary", content_type = "application/pdf"), (status = 404, body = ErrorBody)))]
async fn summary_pdf(
    State(state): State<AppState>,
    user: AuthUser,
    Path(deeplink): Path<String>,
) -> ApiResult<Response> {
    let pdf = summaries::pdf(&state, &user, &deeplink).await?;
    Ok((crate::web::generated_file_headers("application/pdf", &pdf.file_name, true), pdf.bytes).into_response())
}
