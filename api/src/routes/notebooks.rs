//! Notebooks and notes: a user's notebooks (create, list, rename, delete; the assistant's own
//! notebook), the notes in them (create, read, edit with a version, delete), snippet notes that
//! hold a document taken from a card or an answer, and note previews.
//!
//! Everything here is private to its user: notebooks come from the user's own shelf and notes
//! are read with the user's id, so another user's notebook or note id is simply not found (404).
//! Writes need the `notebooks` flag (403 without it); reading what one has stays allowed.

use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::StatusCode;
use commands::args;
use domain::notebook::{NoteCommand, NotebookCommand, SnippetSource, MAX_NOTE_NAME_CHARS};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::app::AppState;
use crate::auth::AuthUser;
use crate::error::{ApiJson, ApiQuery, ApiResult, AppError, ErrorBody};
use service::input::scope_id;
use service::policy::require_flag;

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

const FLAG_OFF: &str = "notebooks are turned off for you";

fn notebook_not_found() -> AppError {
    AppError::new(StatusCode::NOT_FOUND, "notebook_not_found", "notebook not found")
}

fn note_not_found() -> AppError {
    AppError::new(StatusCode::NOT_FOUND, "note_not_found", "note not found")
}

/// A notebook as lists show it, with the spec's field names.
#[derive(Debug, Serialize, ToSchema)]
pub struct Notebook {
    pub notebook_id: String,
    pub notebook_name: String,
    /// `user`, or `default` for the assistant's notebook.
    pub notebook_type: String,
    /// Whether this is the assistant's notebook.
    pub default: bool,
    /// The feed the notebook was typed to when it was made.
    pub feed_id: Option<String>,
    /// The channel the notebook was typed to when it was made.
    pub channel_id: Option<String>,
    pub notebook_created_at: String,
    /// Moves with the notebook's name and with every change to its notes.
    pub notebook_updated_at: String,
    pub note_count: i64,
}

#[derive(sqlx::FromRow)]
struct NotebookRow {
    notebook_id: String,
    name: String,
    notebook_type: String,
    feed_id: Option<String>,
    channel_id: Option<String>,
    created_at: String,
    updated_at: String,
    note_count: i64,
}

impl From<NotebookRow> for Notebook {
    fn from(row: NotebookRow) -> Self {
        Notebook {
            default: row.notebook_type == "default",
            notebook_id: row.notebook_id,
            notebook_name: row.name,
            notebook_type: row.notebook_type,
            feed_id: row.feed_id,
            channel_id: row.channel_id,
            notebook_created_at: row.created_at,
            notebook_updated_at: row.updated_at,
            note_count: row.note_count,
        }
    }
}

/// The user's notebooks (`$1`), with their note counts.
const NOTEBOOKS: &str = "SELECT b.notebook_id, b.name, b.notebook_type, b.feed_id, b.channel_id, b.created_at, \
     b.updated_at, (SELECT COUNT(*) FROM notes_view n WHERE n.notebook_id = b.notebook_id) AS note_count \
     FROM notebooks_view b WHERE b.user_id = $1";

async fn own_notebook(state: &AppState, user_id: &str, notebook_id: &str) -> ApiResult<Notebook> {
    let row: Option<NotebookRow> =
        state.db.fetch_optional(&format!("{NOTEBOOKS} AND b.notebook_id = $2"), args![user_id, notebook_id]).await?;
    row.map(Notebook::from).ok_or_else(notebook_not_found)
}

/// Where a snippet note's document came from.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Snippet {
    pub deeplink: Option<String>,
    /// The document's source key.
    pub source: Option<String>,
    pub title: Option<String>,
    /// Where to open the original: an http(s) URL or a path of this app.
    pub link: Option<String>,
}

/// A note without its body, as a notebook's page and a note preview show it.
#[derive(Debug, Serialize, ToSchema)]
pub struct NotePreview {
    pub id: String,
    pub name: String,
    /// `note`, or `snippet` for a document taken from a card or an answer.
    pub kind: String,
    pub notebook_id: String,
    pub notebook_name: String,
    /// The body's plain text, cut at 1000 characters with "...".
    pub preview: String,
    /// Send it back with an edit: an edit based on an older version is refused (409).
    pub version: i64,
    /// Where a snippet's document came from; `null` for other notes.
    pub snippet: Option<Snippet>,
    pub created_at: String,
    pub updated_at: String,
}

/// A note with its body.
#[derive(Debug, Serialize, ToSchema)]
pub struct Note {
    #[serde(flatten)]
    pub note: NotePreview,
    /// The rich-text document (a JSON object); `null` until the note has one.
    #[schema(value_type = Option<Object>)]
    pub body: Option<Value>,
}

#[derive(sqlx::FromRow)]
struct NoteRow {
    note_id: String,
    notebook_id: String,
    notebook_name: String,
    kind: String,
    name: String,
    /// Absent when a list leaves the bodies out.
    #[sqlx(default)]
    body: Option<String>,
    preview: String,
    version: i64,
    snippet_deeplink: Option<String>,
    snippet_source: Option<String>,
    snippet_title: Option<String>,
    snippet_link: Option<String>,
    created_at: String,
    updated_at: String,
}

impl NoteRow {
    fn into_preview(self) -> NotePreview {
        let snippet = (self.kind == "snippet").then_some(Snippet {
            deeplink: self.snippet_deeplink,
            source: self.snippet_source,
            title: self.snippet_title,
            link: self.snippet_link,
        });
        NotePreview {
            id: self.note_id,
            name: self.name,
            kind: self.kind,
            notebook_id: self.notebook_id,
            notebook_name: self.notebook_name,
            preview: self.preview,
            version: self.version,
            snippet,
            created_at: self.created_at,
            updated_at: self.updated_at,
        }
    }

    fn into_note(mut self) -> ApiResult<Note> {
        let body = match self.body.take() {
            Some(text) => Some(serde_json::from_str(&text).map_err(|e| AppError::internal(format!("note body: {e}")))?),
            None => None,
        };
        Ok(Note { note: self.into_preview(), body })
    }
}

/// The user's notes (`$1`) with their notebook's name, without bodies; add `n.body` for them.
macro_rules! notes_select {
    ($body:literal) => {
        concat!(
            "SELECT n.note_id, n.notebook_id, b.name AS notebook_name, n.kind, n.name, n.preview, n.version, ",
            "n.snippet_deeplink, n.snippet_source, n.snippet_title, n.snippet_link, n.created_at, n.updated_at",
            $body,
            " FROM notes_view n JOIN notebooks_view b ON b.notebook_id = n.notebook_id ",
            "WHERE n.user_id = $1 AND b.user_id = $1"
        )
    };
}

async fn own_note_row(state: &AppState, user_id: &str, note_id: &str, body: bool) -> ApiResult<NoteRow> {
    let sql = if body { notes_select!(", n.body") } else { notes_select!("") };
    state
        .db
        .fetch_optional(&format!("{sql} AND n.note_id = $2"), args![user_id, note_id])
        .await?
        .ok_or_else(note_not_found)
}

async fn own_note(state: &AppState, user_id: &str, note_id: &str) -> ApiResult<Note> {
    own_note_row(state, user_id, note_id, true).await?.into_note()
}

/// Returns the JSON text of a body as a request carries it: a JSON object, or (the spec's
/// "serialised rich text") a string holding one. The domain checks what it holds.
fn body_text(body: Option<Value>) -> Option<String> {
    match body? {
        Value::Null => None,
        Value::String(text) => Some(text),
        other => Some(other.to_string()),
    }
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
    require_flag(&state, &user, "notebooks", FLAG_OFF).await?;
    let notebook_id = uuid::Uuid::now_v7().to_string();
    let bot = query.bot_notebook.unwrap_or(false);
    let command = if bot {
        NotebookCommand::CreateBot { user_id: user.user_id.clone(), notebook_id: notebook_id.clone(), name: body.name }
    } else {
        NotebookCommand::Create {
            user_id: user.user_id.clone(),
            notebook_id: notebook_id.clone(),
            name: body.name.unwrap_or_default(),
            feed_id: scope_id("feedId", body.feed_id)?,
            channel_id: scope_id("channelId", body.channel_id)?,
        }
    };
    state.command(&state.bus.notebook_shelves, &user.user_id, command, &user.metadata()).await?;
    let notebook = if bot {
        let row: Option<NotebookRow> = state
            .db
            .fetch_optional(&format!("{NOTEBOOKS} AND b.notebook_type = 'default'"), args![user.user_id.as_str()])
            .await?;
        row.map(Notebook::from).ok_or_else(|| AppError::internal("the assistant notebook is not in the view"))?
    } else {
        own_notebook(&state, &user.user_id, &notebook_id).await?
    };
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
    let rows: Vec<NotebookRow> = state
        .db
        .fetch_all(
            &format!(
                "{NOTEBOOKS} AND ($2 = '' OR b.feed_id = $2) AND ($3 = '' OR b.channel_id = $3) \
                 ORDER BY b.position DESC"
            ),
            args![user.user_id.as_str(), feed.trim(), channel.trim()],
        )
        .await?;
    Ok(ApiJson(NotebookList { results: rows.into_iter().map(Notebook::from).collect() }))
}

/// A notebook with its notes.
#[derive(Debug, Serialize, ToSchema)]
pub struct NotebookDetail {
    #[serde(flatten)]
    pub notebook: Notebook,
    /// Newest first, without bodies (`GET /note/{id}` has the body).
    pub notes: Vec<NotePreview>,
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
    let notebook = own_notebook(&state, &user.user_id, &notebook_id).await?;
    let rows: Vec<NoteRow> = state
        .db
        .fetch_all(
            concat!(notes_select!(""), " AND n.notebook_id = $2 ORDER BY n.position DESC"),
            args![user.user_id.as_str(), notebook_id.as_str()],
        )
        .await?;
    let notes = rows.into_iter().map(NoteRow::into_preview).collect();
    Ok(ApiJson(NotebookDetailResult { results: NotebookDetail { notebook, notes } }))
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
    require_flag(&state, &user, "notebooks", FLAG_OFF).await?;
    let command =
        NotebookCommand::Rename { user_id: user.user_id.clone(), notebook_id: notebook_id.clone(), name: body.name };
    state.command(&state.bus.notebook_shelves, &user.user_id, command, &user.metadata()).await?;
    Ok(ApiJson(NotebookResult { results: own_notebook(&state, &user.user_id, &notebook_id).await? }))
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
    require_flag(&state, &user, "notebooks", FLAG_OFF).await?;
    let command = NotebookCommand::Delete { user_id: user.user_id.clone(), notebook_id };
    state.command(&state.bus.notebook_shelves, &user.user_id, command, &user.metadata()).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Debug, Serialize, ToSchema)]
pub struct NoteResult {
    pub results: Note,
}

/// Creates a note in one of the user's notebooks and answers it (`results.id` is its id).
async fn add_note(
    state: &AppState,
    user: &AuthUser,
    notebook_id: String,
    name: String,
    body: Option<String>,
    snippet: Option<SnippetSource>,
) -> ApiResult<NoteResult> {
    require_flag(state, user, "notebooks", FLAG_OFF).await?;
    own_notebook(state, &user.user_id, &notebook_id).await?;
    let note_id = uuid::Uuid::now_v7().to_string();
    let command = NoteCommand::Create {
        user_id: user.user_id.clone(),
        notebook_id,
        note_id: note_id.clone(),
        name,
        body,
        snippet,
    };
    state.command(&state.bus.notes, &note_id, command, &user.metadata()).await?;
    Ok(NoteResult { results: own_note(state, &user.user_id, &note_id).await? })
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
    Ok(ApiJson(add_note(&state, &user, notebook_id, body.name, body_text(body.body), None).await?))
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
    let source = body.source.unwrap_or(Snippet { deeplink: None, source: None, title: None, link: None });
    let name = body
        .name
        .or_else(|| source.title.as_ref().map(|t| t.chars().take(MAX_NOTE_NAME_CHARS).collect()))
        .unwrap_or_default();
    let snippet =
        SnippetSource { deeplink: source.deeplink, source: source.source, title: source.title, link: source.link };
    Ok(ApiJson(add_note(&state, &user, notebook_id, name, body_text(body.document), Some(snippet)).await?))
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
    Ok(ApiJson(NoteResult { results: own_note(&state, &user.user_id, &note_id).await? }))
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
    require_flag(&state, &user, "notebooks", FLAG_OFF).await?;
    own_note_row(&state, &user.user_id, &note_id, false).await?;
    let command = NoteCommand::Edit {
        user_id: user.user_id.clone(),
        base_version: body.version,
        name: body.name,
        body: body_text(body.body),
    };
    state.command(&state.bus.notes, &note_id, command, &user.metadata()).await?;
    Ok(ApiJson(NoteResult { results: own_note(&state, &user.user_id, &note_id).await? }))
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
    require_flag(&state, &user, "notebooks", FLAG_OFF).await?;
    own_note_row(&state, &user.user_id, &note_id, false).await?;
    let command = NoteCommand::Delete { user_id: user.user_id.clone() };
    state.command(&state.bus.notes, &note_id, command, &user.metadata()).await?;
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
    Ok(ApiJson(NotePreviewResult {
        results: own_note_row(&state, &user.user_id, &note_id, false).await?.into_preview(),
    }))
}
