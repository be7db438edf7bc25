//! Research reports over HTTP: the types on offer, making and generating a report, the user's
//! reports, one report's result, its rating, cancelling it, and its export as PDF or DOCX. The rules and the generation are
//! in [`service::reports`].
//!
//! A report is its owner's alone: anyone else's report id is not found (404).

use axum::extract::{Path, State};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use utoipa::IntoParams;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::app::AppState;
use crate::auth::AuthUser;
use crate::error::{ApiJson, ApiQuery, ApiResult, ErrorBody};
use service::reports::{
    self, GenerateBody, InitBody, RatingBody, ReportConfig, ReportDetailResult, ReportList, ReportResult,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(report_config))
        .routes(routes!(init_report))
        .routes(routes!(generate_report))
        .routes(routes!(list_reports))
        .routes(routes!(get_report, rate_report))
        .routes(routes!(cancel_report))
        .routes(routes!(export_report))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ExportQuery {
    /// `pdf` or `docx`.
    pub format: String,
}

/// A completed report as a PDF or DOCX attachment (`{title}.pdf|.docx`), its citations as
/// notes naming the cited passage's file, page and a short quote. 409 `report_not_finished`
/// unless it completed; 422 `unknown_export_format`.
#[utoipa::path(get, path = "/ml/report/{id}/export", tag = "reports", security(("token" = [])),
    params(("id" = String, Path, description = "the report's id"), ExportQuery),
    responses((status = 200, description = "the report file", content_type = "application/octet-stream"),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn export_report(
    State(state): State<AppState>,
    user: AuthUser,
    Path(id): Path<String>,
    ApiQuery(query): ApiQuery<ExportQuery>,
) -> ApiResult<Response> {
    let exported = reports::export::export(&state, &user, &id, &query.format).await?;
    let headers = crate::web::generated_file_headers(exported.format.mime_type(), &exported.file_name, false);
    Ok((headers, exported.bytes).into_response())
}

/// Every report type: its upload limits and its outline.
#[utoipa::path(get, path = "/ml/report/config", tag = "reports", security(("token" = [])),
    responses((status = 200, body = ReportConfig)))]
async fn report_config(State(state): State<AppState>, _user: AuthUser) -> ApiJson<ReportConfig> {
    ApiJson(reports::config(&state))
}

/// Makes a report over the user's files and/or one of their feeds. 422 `unknown_report_type`,
/// `report_files_required`, `report_too_many_files` ('Only {N} files can be uploaded for a
/// report.'); 404 `report_file_not_found` for a file that is not the user's, `board_not_found`
/// for a feed that is not; 409 `report_file_processing` while a file is still processing.
#[utoipa::path(post, path = "/ml/report/init", tag = "reports", security(("token" = [])), request_body = InitBody,
    responses((status = 200, body = ReportResult), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody),
        (status = 422, body = ErrorBody)))]
async fn init_report(
    State(state): State<AppState>,
    user: AuthUser,
    ApiJson(body): ApiJson<InitBody>,
) -> ApiResult<ApiJson<ReportResult>> {
    Ok(ApiJson(reports::init(&state, &user, body).await?))
}

/// Queues the report's generation; it runs in the background, its progress reaching the live
/// socket section by section. 409 `report_already_generated`.
#[utoipa::path(post, path = "/ml/report/generate", tag = "reports", security(("token" = [])),
    request_body = GenerateBody,
    responses((status = 200, body = ReportResult), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn generate_report(
    State(state): State<AppState>,
    user: AuthUser,
    ApiJson(body): ApiJson<GenerateBody>,
) -> ApiResult<ApiJson<ReportResult>> {
    Ok(ApiJson(reports::generate(&state, &user, body).await?))
}

/// The user's reports, newest first.
#[utoipa::path(get, path = "/ml/report", tag = "reports", security(("token" = [])),
    responses((status = 200, body = ReportList)))]
async fn list_reports(State(state): State<AppState>, user: AuthUser) -> ApiResult<ApiJson<ReportList>> {
    Ok(ApiJson(reports::list(&state, &user).await?))
}

/// One report: its result once it ended (`error` is 'true' on failure), its files, its sections.
#[utoipa::path(get, path = "/ml/report/{id}", tag = "reports", security(("token" = [])),
    params(("id" = String, Path, description = "the report's id")),
    responses((status = 200, body = ReportDetailResult), (status = 404, body = ErrorBody)))]
async fn get_report(
    State(state): State<AppState>,
    user: AuthUser,
    Path(id): Path<String>,
) -> ApiResult<ApiJson<ReportDetailResult>> {
    Ok(ApiJson(reports::detail(&state, &user, &id).await?))
}

/// Rates a finished report (1 to 5) and/or comments on it.
#[utoipa::path(put, path = "/ml/report/{id}", tag = "reports", security(("token" = [])),
    params(("id" = String, Path, description = "the report's id")), request_body = RatingBody,
    responses((status = 200, body = ReportResult), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody),
        (status = 422, body = ErrorBody)))]
async fn rate_report(
    State(state): State<AppState>,
    user: AuthUser,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<RatingBody>,
) -> ApiResult<ApiJson<ReportResult>> {
    Ok(ApiJson(reports::rate(&state, &user, &id, body).await?))
}

/// Cancels a report that has not ended. 409 `report_ended`.
#[utoipa::path(post, path = "/ml/report/{id}/cancel", tag = "reports", security(("token" = [])),
    params(("id" = String, Path, description = "the report's id")),
    responses((status = 200, body = ReportResult), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn cancel_report(
    State(state): State<AppState>,
    user: AuthUser,
    Path(id): Path<String>,
) -> ApiResult<ApiJson<ReportResult>> {
    Ok(ApiJson(reports::cancel(&state, &user, &id).await?))
}
