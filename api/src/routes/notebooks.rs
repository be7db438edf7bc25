//! Notebooks and notes over HTTP: notebooks, the notes in them, snippet notes and note previews,
//! with the request shapes and the size limit of note writes. The rules (privacy, versions, the
//! `notebooks` flag) are `service::notebooks`'.

use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::app::AppState;
use crate::auth::AuthUser;
use crate::error::{ApiJson, ApiQuery, ApiResult, ErrorBody};
use service::notebooks::{self, NewNotebook, Note, NoteEdit, NotePreview, Notebook, NotebookDetail, Snippet};

/// The largest request a note write takes: a 1 MB body with room to spare for a document sent as
/// a JSON string (escaped) or pretty-printed, so a body just past the limit gets the clear 422
/// rather than a bare 413.
const NOTE_REQUEST_BYTES: usize = 3 * 1024 * 1024;

pub fn router() -> OpenApiRouter<AppState> {
    let note_writes = OpenApiRouter::new()
        .routes(routes!(create_note))
        .routes(routes!(snip_note))
        .routes(routes!(get_note, edit_note, delete_note))
        .layer(DefaultBodyLimit::max(NOTE_REQUEST_BYTES));
    OpenApiRouter::new()
        .routes(routes!(create_notebook))
        .routes(routes!(list_notebooks))
        .routes(routes!(get_notebook, rename_notebook, delete_notebook))
        .routes(routes!(note_preview))
        .merge(note_writes)
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct CreateNotebookQuery {
    /// `true` answers the user's assistant notebook, creating it on first use (the body's name,
    /// else "AskNeedl"); `feedId` and `channelId` are not used then.
    #[serde(rename = "botNotebook", alias = "bot_notebook")]
    pub bot_notebook: Option<bool>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateNotebookBody {
    /// Trimmed, 1 to 100 characters, unique among the user's notebooks whatever its case.
    pub name: Option<String>,
    /// Types the notebook to the feed it was made from.
    #[serde(rename = "feedId", alias = "feed_id")]
    pub feed_id: Option<String>,
    /// Types the notebook to the channel it was made from.
    #[serde(rename = "channelId", alias = "channel_id")]
    pub channel_id: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CreatedNotebook {
    #[serde(rename = "notebookId")]
    pub notebook_id: String,
    pub notebook: Notebook,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CreatedNotebookResult {
    pub results: CreatedNotebook,
}

/// Creates a notebook (or with `botNotebook=true` answers the assistant's, made on first use).
#[utoipa::path(put, path = "/notebook", tag = "notebooks", security(("token" = [])),
    params(CreateNotebookQuery), request_body = CreateNotebookBody,
    responses((status = 200, body = CreatedNotebookResult), (status = 403, body = ErrorBody),
        (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn create_notebook(
    State(state): State<AppState>,
    user: AuthUser,
    ApiQuery(query): ApiQuery<CreateNotebookQuery>,
    ApiJson(body): ApiJson<CreateNotebookBody>,
) -> ApiResult<ApiJson<CreatedNotebookResult>> {
    let new = NewNotebook {
        name: body.name,
        feed_id: body.feed_id,
        channel_id: body.channel_id,
        bot: query.bot_notebook.unwrap_or(false),
    };
    let notebook = notebooks::create_notebook(&state, &user, new).await?;
    Ok(ApiJson(CreatedNotebookResult {
        results: CreatedNotebook { notebook_id: notebook.notebook_id.clone(), notebook },
    }))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct NotebookListQuery {
    /// Only notebooks typed to this feed.
    #[serde(rename = "feedId", alias = "feed_id")]
    pub feed_id: Option<String>,
    /// Only notebooks typed to this channel.
    #[serde(rename = "channelId", alias = "channel_id")]
    pub channel_id: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct NotebookList {
    /// Newest first. Empty: the app shows "Please create a Notebook".
    pub results: Vec<Notebook>,
}

/// The user's notebooks with their note counts, the newest first.
#[utoipa::path(get, path = "/notebook/list", tag = "notebooks", security(("token" = [])),
    params(NotebookListQuery), responses((status = 200, body = NotebookList), (status = 400, body = ErrorBody)))]
async fn list_notebooks(
    State(state): State<AppState>,
    user: AuthUser,
    ApiQuery(query): ApiQuery<NotebookListQuery>,
) -> ApiResult<ApiJson<NotebookList>> {
    let feed = query.feed_id.unwrap_or_default();
    let channel = query.channel_id.unwrap_or_default();
    Ok(ApiJson(NotebookList { results: notebooks::notebooks(&state, &user.user_id, &feed, &channel).await? }))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct NotebookDetailResult {
    pub results: NotebookDetail,
}

/// One of the user's notebooks with its notes, the newest first.
#[utoipa::path(get, path = "/notebook/{id}", tag = "notebooks", security(("token" = [])),
    params(("id" = String, Path, description = "the notebook's id")),
    responses((status = 200, body = NotebookDetailResult), (status = 404, body = ErrorBody)))]
async fn get_notebook(
    State(state): State<AppState>,
    user: AuthUser,
    Path(notebook_id): Path<String>,
) -> ApiResult<ApiJson<NotebookDetailResult>> {
    Ok(ApiJson(NotebookDetailResult {
        results: notebooks::notebook_detail(&state, &user.user_id, &notebook_id).await?,
    }))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RenameNotebookBody {
    /// The new name, with the same rules as a new notebook's.
    pub name: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct NotebookResult {
    pub results: Notebook,
}

/// Renames one of the user's notebooks.
#[utoipa::path(put, path = "/notebook/{id}", tag = "notebooks", security(("token" = [])),
    params(("id" = String, Path, description = "the notebook's id")), request_body = RenameNotebookBody,
    responses((status = 200, body = NotebookResult), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn rename_notebook(
    State(state): State<AppState>,
    user: AuthUser,
    Path(notebook_id): Path<String>,
    ApiJson(body): ApiJson<RenameNotebookBody>,
) -> ApiResult<ApiJson<NotebookResult>> {
    Ok(ApiJson(NotebookResult { results: notebooks::rename_notebook(&state, &user, &notebook_id, body.name).await? }))
}

/// Deletes one of the user's notebooks with every note in it.
#[utoipa::path(delete, path = "/notebook/{id}", tag = "notebooks", security(("token" = [])),
    params(("id" = String, Path, description = "the notebook's id")),
    responses((status = 204), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn delete_notebook(
    State(state): State<AppState>,
    user: AuthUser,
    Path(notebook_id): Path<String>,
) -> ApiResult<StatusCode> {
    notebooks::delete_notebook(&state, &user, notebook_id).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Debug, Serialize, ToSchema)]
pub struct NoteResult {
    pub results: Note,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateNoteBody {
    /// The note's name (`title` works too): trimmed, at most 300 characters, may be empty.
    #[serde(default, alias = "title")]
    pub name: String,
    /// The rich-text document: a JSON object (or a string holding one), at most 1 MB.
    #[serde(alias = "document")]
    #[schema(value_type = Option<Object>)]
    pub body: Option<Value>,
}

/// Creates a note in a notebook of the user's.
#[utoipa::path(put, path = "/note/create/{notebookId}", tag = "notebooks", security(("token" = [])),
    params(("notebookId" = String, Path, description = "the notebook's id")), request_body = CreateNoteBody,
    responses((status = 200, body = NoteResult), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 422, body = ErrorBody)))]
async fn create_note(
    State(state): State<AppState>,
    user: AuthUser,
    Path(notebook_id): Path<String>,
    ApiJson(body): ApiJson<CreateNoteBody>,
) -> ApiResult<ApiJson<NoteResult>> {
    Ok(ApiJson(NoteResult { results: notebooks::create_note(&state, &user, notebook_id, body.name, body.body).await? }))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SnipBody {
    /// The rich-text document the snippet holds: a JSON object (or a string holding one), at most
    /// 1 MB.
    #[serde(alias = "body")]
    #[schema(value_type = Object)]
    pub document: Option<Value>,
    /// The note's name; the source's title when absent.
    #[serde(alias = "title")]
    pub name: Option<String>,
    /// Where the document came from.
    pub source: Option<Snippet>,
}

/// Adds a snippet note to a notebook of the user's: a document taken from a card (Add to Notes)
/// or an assistant conversation (Save to note), with its source.
#[utoipa::path(post, path = "/note/snip/{notebookId}", tag = "notebooks", security(("token" = [])),
    params(("notebookId" = String, Path, description = "the notebook's id")), request_body = SnipBody,
    responses((status = 200, body = NoteResult), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 422, body = ErrorBody)))]
async fn snip_note(
    State(state): State<AppState>,
    user: AuthUser,
    Path(notebook_id): Path<String>,
    ApiJson(body): ApiJson<SnipBody>,
) -> ApiResult<ApiJson<NoteResult>> {
    let note = notebooks::snip(&state, &user, notebook_id, body.document, body.name, body.source).await?;
    Ok(ApiJson(NoteResult { results: note }))
}

/// One of the user's notes with its body.
#[utoipa::path(get, path = "/note/{id}", tag = "notebooks", security(("token" = [])),
    params(("id" = String, Path, description = "the note's id")),
    responses((status = 200, body = NoteResult), (status = 404, body = ErrorBody)))]
async fn get_note(
    State(state): State<AppState>,
    user: AuthUser,
    Path(note_id): Path<String>,
) -> ApiResult<ApiJson<NoteResult>> {
    Ok(ApiJson(NoteResult { results: notebooks::note(&state, &user.user_id, &note_id).await? }))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct EditNoteBody {
    /// The version the editor showed: the note's `version` when it was loaded or last saved.
    pub version: u64,
    /// A new name (`title` works too).
    #[serde(alias = "title")]
    pub name: Option<String>,
    /// A new body (`document` works too): a JSON object (or a string holding one), at most 1 MB.
    #[serde(alias = "document")]
    #[schema(value_type = Option<Object>)]
    pub body: Option<Value>,
}

/// Edits a note's name or body. An edit based on an older version than the note's is refused
/// (409 `note_version_stale`); one that changes nothing records nothing and answers the note.
#[utoipa::path(put, path = "/note/{id}", tag = "notebooks", security(("token" = [])),
    params(("id" = String, Path, description = "the note's id")), request_body = EditNoteBody,
    responses((status = 200, body = NoteResult), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn edit_note(
    State(state): State<AppState>,
    user: AuthUser,
    Path(note_id): Path<String>,
    ApiJson(body): ApiJson<EditNoteBody>,
) -> ApiResult<ApiJson<NoteResult>> {
    let edit = NoteEdit { version: body.version, name: body.name, body: body.body };
    Ok(ApiJson(NoteResult { results: notebooks::edit_note(&state, &user, &note_id, edit).await? }))
}

/// Deletes one of the user's notes.
#[utoipa::path(delete, path = "/note/{id}", tag = "notebooks", security(("token" = [])),
    params(("id" = String, Path, description = "the note's id")),
    responses((status = 204), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn delete_note(
    State(state): State<AppState>,
    user: AuthUser,
    Path(note_id): Path<String>,
) -> ApiResult<StatusCode> {
    notebooks::delete_note(&state, &user, &note_id).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Debug, Serialize, ToSchema)]
pub struct NotePreviewResult {
    pub results: NotePreview,
}

/// A note's preview (`/preview/needl_notebooks/{id}`): its name, notebook, source and text cut
/// at 1000 characters.
#[utoipa::path(get, path = "/note/{id}/preview", tag = "notebooks", security(("token" = [])),
    params(("id" = String, Path, description = "the note's id")),
    responses((status = 200, body = NotePreviewResult), (status = 404, body = ErrorBody)))]
async fn note_preview(
    State(state): State<AppState>,
    user: AuthUser,
    Path(note_id): Path<String>,
) -> ApiResult<ApiJson<NotePreviewResult>> {
    Ok(ApiJson(NotePreviewResult { results: notebooks::note_preview(&state, &user.user_id, &note_id).await? }))
}
