//! Uploads over HTTP: limits, signed upload links, the storage endpoint those links point at,
//! completion, status polling, removal and the user's storage use. The rules are
//! `service::uploads`'.

use axum::body::Body;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::app::AppState;
use crate::auth::AuthUser;
use crate::error::{ApiJson, ApiQuery, ApiResult, ErrorBody};
use service::reports::files::{self as report_files, REPORT_SOURCE};
use service::uploads::{
    self, ChangeAction, CompleteFile, CompleteResponse, InitFile, InitResponse, SignedLink, StatusList, StorageUse,
    UploadLimits,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(upload_config))
        .routes(routes!(init_upload))
        .routes(routes!(complete_upload, change_upload))
        .routes(routes!(upload_status))
        .routes(routes!(user_storage))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ConfigQuery {
    /// `needldrive`, `ask_needl` or `report` (with `report_type`: that type's limits).
    pub source: String,
    pub report_type: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ConfigData {
    pub config: UploadLimits,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ConfigBody {
    pub data: ConfigData,
}

/// What an upload source accepts; for `source=report`, the limits of `report_type` (its file
/// count is the type's most files). 422 `unknown_upload_source`, `unknown_report_type`.
#[utoipa::path(get, path = "/upload/config", tag = "uploads", security(("token" = [])), params(ConfigQuery),
    responses((status = 200, body = ConfigBody), (status = 422, body = ErrorBody)))]
async fn upload_config(
    State(state): State<AppState>,
    _user: AuthUser,
    ApiQuery(query): ApiQuery<ConfigQuery>,
) -> ApiResult<ApiJson<ConfigBody>> {
    let config = if query.source == REPORT_SOURCE {
        report_files::limits(&state, query.report_type.as_deref())?
    } else {
        uploads::limits(&state, &query.source)?
    };
    Ok(ApiJson(ConfigBody { data: ConfigData { config } }))
}

#[derive(Debug, Deserialize, ToSchema)]
#[schema(as = UploadInitBody)]
#[serde(deny_unknown_fields)]
pub struct InitBody {
    pub source: String,
    pub files: Vec<InitFile>,
    pub report_type: Option<String>,
}

/// Hands out one signed upload link per file, after checking every file against the source's
/// limits and the user's storage quota. Nothing is recorded unless every file passes. A
/// report's files (`source: "report"`, `report_type`): 422 `report_too_many_files` ('Only {N}
/// files can be uploaded for a report.').
#[utoipa::path(post, path = "/upload/init", tag = "uploads", security(("token" = [])), request_body = InitBody,
    responses((status = 200, body = InitResponse), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn init_upload(
    State(state): State<AppState>,
    user: AuthUser,
    ApiJson(body): ApiJson<InitBody>,
) -> ApiResult<ApiJson<InitResponse>> {
    Ok(ApiJson(uploads::init(&state, &user, &body.source, body.report_type.as_deref(), body.files).await?))
}

#[derive(Debug, Deserialize)]
pub struct LinkQuery {
    expires: i64,
    max: u64,
    signature: String,
}

/// The storage endpoint local upload links point at: writes the body if the link is ours, still
/// valid, not used up, and within its size limit. Not part of the product API.
pub async fn put_object(
    State(state): State<AppState>,
    Path((bucket, key)): Path<(String, String)>,
    ApiQuery(link): ApiQuery<LinkQuery>,
    body: Body,
) -> ApiResult<axum::response::Response> {
    let link = SignedLink { bucket, key, expires: link.expires, max: link.max, signature: link.signature };
    let size = uploads::receive(&state, &link, body.into_data_stream()).await?;
    Ok((StatusCode::CREATED, axum::Json(serde_json::json!({ "size": size }))).into_response())
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct CompleteBody {
    /// `report` for a report's files.
    pub source: Option<String>,
    pub files: Vec<CompleteFile>,
    /// A new report's name.
    pub report_name: Option<String>,
    pub report_type: Option<String>,
    /// A feed to add the files to; for a report's files, the report (absent: a new report).
    pub feed_id: Option<String>,
    /// What to research, for a new custom research (`open_research`) report.
    pub brief: Option<String>,
}

/// Reports transfers done: each file whose bytes storage holds, within its limits and the
/// user's quota, goes to PROCESSING; the others are reported per file. With `source: "report"`
/// the files go into a report from now on, even while processing: a new DRAFT report of
/// `report_type` named `report_name`, or the draft report `feed_id`; `feed_id` in the answer is
/// the report. Checked before anything is recorded: 422 `unknown_report_type`,
/// `report_name_required`, `report_too_many_files`; 404 `report_not_found` (another user's
/// report); 409 `report_not_draft`.
#[utoipa::path(post, path = "/upload/complete", tag = "uploads", security(("token" = [])), request_body = CompleteBody,
    responses((status = 200, body = CompleteResponse), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody),
        (status = 422, body = ErrorBody)))]
async fn complete_upload(
    State(state): State<AppState>,
    user: AuthUser,
    ApiJson(body): ApiJson<CompleteBody>,
) -> ApiResult<ApiJson<CompleteResponse>> {
    if body.source.as_deref() == Some(REPORT_SOURCE) {
        let completion = report_files::Completion {
            report_type: body.report_type,
            report_name: body.report_name,
            feed_id: body.feed_id,
            brief: body.brief,
            files: body.files,
        };
        return Ok(ApiJson(report_files::complete(&state, &user, completion).await?));
    }
    Ok(ApiJson(uploads::complete(&state, &user, body.files, body.feed_id).await?))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ChangeBody {
    pub action: ChangeAction,
    pub files: Vec<CompleteFile>,
    pub source: Option<String>,
    pub feed_id: Option<String>,
    pub report_type: Option<String>,
}

/// Adds uploaded files to a feed (`add`), or removes files and their documents (`remove`). A
/// removal with `report_type` (or `source: "report"`) removes the files (`{id}` as the report's
/// detail names them) from the draft report `feed_id` only: the uploads stay in My Data.
#[utoipa::path(put, path = "/upload/complete", tag = "uploads", security(("token" = [])), request_body = ChangeBody,
    responses((status = 200, body = CompleteResponse), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody),
        (status = 422, body = ErrorBody)))]
async fn change_upload(
    State(state): State<AppState>,
    user: AuthUser,
    ApiJson(body): ApiJson<ChangeBody>,
) -> ApiResult<ApiJson<CompleteResponse>> {
    let for_report = body.source.as_deref() == Some(REPORT_SOURCE) || body.report_type.is_some();
    if for_report && matches!(body.action, ChangeAction::Remove) {
        return Ok(ApiJson(report_files::remove(&state, &user, body.feed_id.as_deref(), &body.files).await?));
    }
    Ok(ApiJson(uploads::change(&state, &user, body.action, body.files, body.feed_id).await?))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct StatusQuery {
    /// Comma-separated file ids (at most 100).
    pub ids: String,
}

/// Where each of the user's uploads is; unknown ids are left out.
#[utoipa::path(get, path = "/upload/status", tag = "uploads", security(("token" = [])), params(StatusQuery),
    responses((status = 200, body = StatusList), (status = 422, body = ErrorBody)))]
async fn upload_status(
    State(state): State<AppState>,
    user: AuthUser,
    ApiQuery(query): ApiQuery<StatusQuery>,
) -> ApiResult<ApiJson<StatusList>> {
    Ok(ApiJson(uploads::status(&state, &user.user_id, &query.ids).await?))
}

/// How much of their storage quota the user's uploads take, by file type.
#[utoipa::path(get, path = "/user/storage", tag = "uploads", security(("token" = [])),
    responses((status = 200, body = StorageUse)))]
async fn user_storage(State(state): State<AppState>, user: AuthUser) -> ApiResult<ApiJson<StorageUse>> {
    Ok(ApiJson(uploads::storage_use(&state, &user.user_id).await?))
}
