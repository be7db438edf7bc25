//! Connected apps: the apps people bring their own documents in from, and the two connected
//! here, mail over IMAP and a WebDAV drive's folder. The rules are [`service::apps`] and the connection aggregate.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use domain::connection::{DRIVE_APP, MAIL_APP};
use service::apps::{
    self, AppList, AppView, ConnectMailBody, DriveAccountBody, DriveFileList, FolderList, FoldersBody, MailAccountBody,
};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::app::AppState;
use crate::auth::AuthUser;
use crate::error::{ApiJson, ApiResult, ErrorBody};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_apps))
        .routes(routes!(get_app))
        .routes(routes!(check_mail_account))
        .routes(routes!(connect_mail, disconnect_mail))
        .routes(routes!(choose_mail_folders))
        .routes(routes!(sync_mail))
        .routes(routes!(check_drive))
        .routes(routes!(connect_drive, disconnect_drive))
        .routes(routes!(sync_drive))
}

/// Every app with its integration state for the signed-in user: label, category, whether it is
/// disabled here (with what is missing and what works instead), whether its credentials work.
#[utoipa::path(get, path = "/connect/apps", tag = "apps", security(("token" = [])),
    responses((status = 200, body = AppList), (status = 401, body = ErrorBody)))]
async fn list_apps(State(state): State<AppState>, user: AuthUser) -> ApiResult<ApiJson<AppList>> {
    Ok(ApiJson(apps::list(&state, &user).await?))
}

#[utoipa::path(get, path = "/connect/apps/{app}", tag = "apps", security(("token" = [])),
    params(("app" = String, Path, description = "The app's key, e.g. `email`")),
    responses((status = 200, body = AppView), (status = 404, body = ErrorBody)))]
async fn get_app(
    State(state): State<AppState>,
    user: AuthUser,
    Path(app): Path<String>,
) -> ApiResult<ApiJson<AppView>> {
    Ok(ApiJson(apps::get(&state, &user, &app).await?))
}

/// Signs in to a mail server with the details given and lists its folders. Nothing is kept: the
/// form's first step, before folders are chosen.
#[utoipa::path(post, path = "/connect/mail/check", tag = "apps", security(("token" = [])),
    request_body = MailAccountBody,
    responses((status = 200, body = FolderList), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn check_mail_account(
    State(state): State<AppState>,
    user: AuthUser,
    ApiJson(body): ApiJson<MailAccountBody>,
) -> ApiResult<ApiJson<FolderList>> {
    Ok(ApiJson(apps::mail_folders(&state, &user, body).await?))
}

/// Connects the user's mailbox (or replaces its details). The server must accept the account and
/// have every folder chosen; a refusal records nothing. The first sync starts at once.
#[utoipa::path(put, path = "/connect/mail", tag = "apps", security(("token" = [])),
    request_body = ConnectMailBody,
    responses((status = 200, body = AppView), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn connect_mail(
    State(state): State<AppState>,
    user: AuthUser,
    ApiJson(body): ApiJson<ConnectMailBody>,
) -> ApiResult<ApiJson<AppView>> {
    Ok(ApiJson(apps::connect_mail(&state, &user, body).await?))
}

/// Disconnects the mailbox; the documents it brought stay.
#[utoipa::path(delete, path = "/connect/mail", tag = "apps", security(("token" = [])),
    responses((status = 204), (status = 404, body = ErrorBody)))]
async fn disconnect_mail(State(state): State<AppState>, user: AuthUser) -> ApiResult<StatusCode> {
    apps::disconnect(&state, &user, MAIL_APP).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Reads these folders of the connected mailbox from now on.
#[utoipa::path(put, path = "/connect/mail/folders", tag = "apps", security(("token" = [])),
    request_body = FoldersBody,
    responses((status = 200, body = AppView), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn choose_mail_folders(
    State(state): State<AppState>,
    user: AuthUser,
    ApiJson(body): ApiJson<FoldersBody>,
) -> ApiResult<ApiJson<AppView>> {
    Ok(ApiJson(apps::choose_folders(&state, &user, body).await?))
}

/// Reads the connected mailbox now instead of at its next turn.
#[utoipa::path(post, path = "/connect/mail/sync", tag = "apps", security(("token" = [])),
    responses((status = 202, body = AppView), (status = 404, body = ErrorBody)))]
async fn sync_mail(State(state): State<AppState>, user: AuthUser) -> ApiResult<(StatusCode, ApiJson<AppView>)> {
    Ok((StatusCode::ACCEPTED, ApiJson(apps::sync_now(&state, &user, MAIL_APP).await?)))
}

/// Signs in to a WebDAV folder with the details given and lists its files. Nothing is kept.
#[utoipa::path(post, path = "/connect/webdav/check", tag = "apps", security(("token" = [])),
    request_body = DriveAccountBody,
    responses((status = 200, body = DriveFileList), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn check_drive(
    State(state): State<AppState>,
    user: AuthUser,
    ApiJson(body): ApiJson<DriveAccountBody>,
) -> ApiResult<ApiJson<DriveFileList>> {
    Ok(ApiJson(apps::check_drive(&state, &user, body).await?))
}

/// Connects the user's WebDAV folder (or replaces its details) once the server accepted the
/// account; a refusal records nothing. Its files are read at once and then every few minutes.
#[utoipa::path(put, path = "/connect/webdav", tag = "apps", security(("token" = [])),
    request_body = DriveAccountBody,
    responses((status = 200, body = AppView), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn connect_drive(
    State(state): State<AppState>,
    user: AuthUser,
    ApiJson(body): ApiJson<DriveAccountBody>,
) -> ApiResult<ApiJson<AppView>> {
    Ok(ApiJson(apps::connect_drive(&state, &user, body).await?))
}

/// Disconnects the WebDAV folder; the documents it brought stay.
#[utoipa::path(delete, path = "/connect/webdav", tag = "apps", security(("token" = [])),
    responses((status = 204), (status = 404, body = ErrorBody)))]
async fn disconnect_drive(State(state): State<AppState>, user: AuthUser) -> ApiResult<StatusCode> {
    apps::disconnect(&state, &user, DRIVE_APP).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Reads the connected WebDAV folder now instead of at its next turn.
#[utoipa::path(post, path = "/connect/webdav/sync", tag = "apps", security(("token" = [])),
    responses((status = 202, body = AppView), (status = 404, body = ErrorBody)))]
async fn sync_drive(State(state): State<AppState>, user: AuthUser) -> ApiResult<(StatusCode, ApiJson<AppView>)> {
    Ok((StatusCode::ACCEPTED, ApiJson(apps::sync_now(&state, &user, DRIVE_APP).await?)))
}
