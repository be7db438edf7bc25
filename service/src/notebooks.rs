//! Notebooks and notes: a user's notebooks (create, list, rename, delete; the assistant's own
//! notebook), the notes in them (create, read, edit with a version, delete), snippet notes that
//! hold a document taken from a card or an answer, and note previews.
//!
//! Everything here is private to its user: notebooks come from the user's own shelf and notes
//! are read with the user's id, so another user's notebook or note id is simply not found.
//! Writes need the `notebooks` flag (forbidden without it); reading what one has stays allowed.

use commands::args;
use domain::notebook::{NoteCommand, NotebookCommand, SnippetSource, MAX_NOTE_NAME_CHARS};
use domain::plan::PricingKey;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::context::Context;
use crate::error::{Error, Kind, Result};
use crate::input::scope_id;
use crate::policy::require_flag;
use crate::viewer::Viewer;

const FLAG_OFF: &str = "notebooks are turned off for you";

fn notebook_not_found() -> Error {
    Error::new(Kind::NotFound, "notebook_not_found", "notebook not found")
}

fn note_not_found() -> Error {
    Error::new(Kind::NotFound, "note_not_found", "note not found")
}

/// A notebook as lists show it, with the spec's field names.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
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

/// One of the user's notebooks.
pub async fn notebook(ctx: &Context, user_id: &str, notebook_id: &str) -> Result<Notebook> {
    let row: Option<NotebookRow> =
        ctx.db.fetch_optional(&format!("{NOTEBOOKS} AND b.notebook_id = $2"), args![user_id, notebook_id]).await?;
    row.map(Notebook::from).ok_or_else(notebook_not_found)
}

/// Where a snippet note's document came from.
#[derive(Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
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
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
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
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Note {
    #[serde(flatten)]
    pub note: NotePreview,
    /// The rich-text document (a JSON object); `null` until the note has one.
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Object>))]
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

    fn into_note(mut self) -> Result<Note> {
        let body = match self.body.take() {
            Some(text) => Some(serde_json::from_str(&text).map_err(|e| Error::internal(format!("note body: {e}")))?),
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

async fn own_note_row(ctx: &Context, user_id: &str, note_id: &str, body: bool) -> Result<NoteRow> {
    let sql = if body { notes_select!(", n.body") } else { notes_select!("") };
    ctx.db
        .fetch_optional(&format!("{sql} AND n.note_id = $2"), args![user_id, note_id])
        .await?
        .ok_or_else(note_not_found)
}

/// One of the user's notes with its body.
pub async fn note(ctx: &Context, user_id: &str, note_id: &str) -> Result<Note> {
    own_note_row(ctx, user_id, note_id, true).await?.into_note()
}

/// One of the user's notes without its body: its name, notebook, source and text cut at 1000
/// characters.
pub async fn note_preview(ctx: &Context, user_id: &str, note_id: &str) -> Result<NotePreview> {
    Ok(own_note_row(ctx, user_id, note_id, false).await?.into_preview())
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

/// What a new notebook is.
#[derive(Debug, Clone, Default)]
pub struct NewNotebook {
    /// Trimmed, 1 to 100 characters, unique among the user's notebooks whatever its case. For
    /// the assistant's notebook, optional ("AskNeedl").
    pub name: Option<String>,
    /// The feed it is typed to.
    pub feed_id: Option<String>,
    /// The channel it is typed to.
    pub channel_id: Option<String>,
    /// Answers the user's assistant notebook instead, creating it on first use (`feed_id` and
    /// `channel_id` are not used then).
    pub bot: bool,
}

/// Creates a notebook for the viewer, or answers their assistant notebook (made on first use).
pub async fn create_notebook(ctx: &Context, viewer: &Viewer, new: NewNotebook) -> Result<Notebook> {
    require_flag(ctx, viewer, "notebooks", FLAG_OFF).await?;
    if !new.bot {
        crate::plans::require(ctx, viewer, &[PricingKey::AddNotebook]).await?;
    }
    let notebook_id = uuid::Uuid::now_v7().to_string();
    let command = if new.bot {
        NotebookCommand::CreateBot { user_id: viewer.user_id.clone(), notebook_id: notebook_id.clone(), name: new.name }
    } else {
        NotebookCommand::Create {
            user_id: viewer.user_id.clone(),
            notebook_id: notebook_id.clone(),
            name: new.name.unwrap_or_default(),
            feed_id: scope_id("feedId", new.feed_id)?,
            channel_id: scope_id("channelId", new.channel_id)?,
        }
    };
    ctx.command(&ctx.bus.notebook_shelves, &viewer.user_id, command, &viewer.metadata()).await?;
    if new.bot {
        let row: Option<NotebookRow> = ctx
            .db
            .fetch_optional(&format!("{NOTEBOOKS} AND b.notebook_type = 'default'"), args![viewer.user_id.as_str()])
            .await?;
        row.map(Notebook::from).ok_or_else(|| Error::internal("the assistant notebook is not in the view"))
    } else {
        notebook(ctx, &viewer.user_id, &notebook_id).await
    }
}

/// The user's notebooks with their note counts, the newest first; only those typed to
/// `feed_id` or `channel_id` when given (not empty).
pub async fn notebooks(ctx: &Context, user_id: &str, feed_id: &str, channel_id: &str) -> Result<Vec<Notebook>> {
    let rows: Vec<NotebookRow> = ctx
        .db
        .fetch_all(
            &format!(
                "{NOTEBOOKS} AND ($2 = '' OR b.feed_id = $2) AND ($3 = '' OR b.channel_id = $3) \
                 ORDER BY b.position DESC"
            ),
            args![user_id, feed_id.trim(), channel_id.trim()],
        )
        .await?;
    Ok(rows.into_iter().map(Notebook::from).collect())
}

/// A notebook with its notes.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NotebookDetail {
    #[serde(flatten)]
    pub notebook: Notebook,
    /// Newest first, without bodies (`GET /note/{id}` has the body).
    pub notes: Vec<NotePreview>,
}

/// One of the user's notebooks with its notes, the newest first.
pub async fn notebook_detail(ctx: &Context, user_id: &str, notebook_id: &str) -> Result<NotebookDetail> {
    let notebook = notebook(ctx, user_id, notebook_id).await?;
    let rows: Vec<NoteRow> = ctx
        .db
        .fetch_all(
            concat!(notes_select!(""), " AND n.notebook_id = $2 ORDER BY n.position DESC"),
            args![user_id, notebook_id],
        )
        .await?;
    Ok(NotebookDetail { notebook, notes: rows.into_iter().map(NoteRow::into_preview).collect() })
}

/// Renames one of the viewer's notebooks.
pub async fn rename_notebook(ctx: &Context, viewer: &Viewer, notebook_id: &str, name: String) -> Result<Notebook> {
    require_flag(ctx, viewer, "notebooks", FLAG_OFF).await?;
    let command =
        NotebookCommand::Rename { user_id: viewer.user_id.clone(), notebook_id: notebook_id.to_string(), name };
    ctx.command(&ctx.bus.notebook_shelves, &viewer.user_id, command, &viewer.metadata()).await?;
    notebook(ctx, &viewer.user_id, notebook_id).await
}

/// Deletes one of the viewer's notebooks with every note in it.
pub async fn delete_notebook(ctx: &Context, viewer: &Viewer, notebook_id: String) -> Result<()> {
    require_flag(ctx, viewer, "notebooks", FLAG_OFF).await?;
    let command = NotebookCommand::Delete { user_id: viewer.user_id.clone(), notebook_id };
    ctx.command(&ctx.bus.notebook_shelves, &viewer.user_id, command, &viewer.metadata()).await?;
    Ok(())
}

/// Creates a note in one of the viewer's notebooks and answers it.
async fn add_note(
    ctx: &Context,
    viewer: &Viewer,
    notebook_id: String,
    name: String,
    body: Option<String>,
    snippet: Option<SnippetSource>,
) -> Result<Note> {
    require_flag(ctx, viewer, "notebooks", FLAG_OFF).await?;
    notebook(ctx, &viewer.user_id, &notebook_id).await?;
    let note_id = uuid::Uuid::now_v7().to_string();
    let command = NoteCommand::Create {
        user_id: viewer.user_id.clone(),
        notebook_id,
        note_id: note_id.clone(),
        name,
        body,
        snippet,
    };
    commands::just_named(ctx.command(&ctx.bus.notes, &note_id, command, &viewer.metadata())).await?;
    note(ctx, &viewer.user_id, &note_id).await
}

/// Creates a note named `name` (may be empty) in a notebook of the viewer's. `body` is the
/// rich-text document: a JSON object, or a string holding one.
pub async fn create_note(
    ctx: &Context,
    viewer: &Viewer,
    notebook_id: String,
    name: String,
    body: Option<Value>,
) -> Result<Note> {
    add_note(ctx, viewer, notebook_id, name, body_text(body), None).await
}

/// Adds a snippet note to a notebook of the viewer's: `document` taken from a card or an
/// assistant conversation, with its `source`. Named `name`, else by the source's title.
pub async fn snip(
    ctx: &Context,
    viewer: &Viewer,
    notebook_id: String,
    document: Option<Value>,
    name: Option<String>,
    source: Option<Snippet>,
) -> Result<Note> {
    let source = source.unwrap_or(Snippet { deeplink: None, source: None, title: None, link: None });
    let name = name
        .or_else(|| source.title.as_ref().map(|t| t.chars().take(MAX_NOTE_NAME_CHARS).collect()))
        .unwrap_or_default();
    let snippet =
        SnippetSource { deeplink: source.deeplink, source: source.source, title: source.title, link: source.link };
    add_note(ctx, viewer, notebook_id, name, body_text(document), Some(snippet)).await
}

/// What an edit of a note changes, and the version the editor showed.
#[derive(Debug, Clone, Default)]
pub struct NoteEdit {
    /// The note's `version` when the editor loaded or last saved it.
    pub version: u64,
    /// A new name.
    pub name: Option<String>,
    /// A new body: a JSON object, or a string holding one.
    pub body: Option<Value>,
}

/// Edits a note's name or body. An edit based on an older version than the note's is refused
/// (`note_version_stale`); one that changes nothing records nothing and answers the note.
pub async fn edit_note(ctx: &Context, viewer: &Viewer, note_id: &str, edit: NoteEdit) -> Result<Note> {
    require_flag(ctx, viewer, "notebooks", FLAG_OFF).await?;
    own_note_row(ctx, &viewer.user_id, note_id, false).await?;
    let command = NoteCommand::Edit {
        user_id: viewer.user_id.clone(),
        base_version: edit.version,
        name: edit.name,
        body: body_text(edit.body),
    };
    ctx.command(&ctx.bus.notes, note_id, command, &viewer.metadata()).await?;
    note(ctx, &viewer.user_id, note_id).await
}

/// Deletes one of the viewer's notes.
pub async fn delete_note(ctx: &Context, viewer: &Viewer, note_id: &str) -> Result<()> {
    require_flag(ctx, viewer, "notebooks", FLAG_OFF).await?;
    own_note_row(ctx, &viewer.user_id, note_id, false).await?;
    let command = NoteCommand::Delete { user_id: viewer.user_id.clone() };
    ctx.command(&ctx.bus.notes, note_id, command, &viewer.metadata()).await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_body_is_taken_as_an_object_or_a_string_holding_one() {
        let doc = serde_json::json!({"type": "doc", "content": []});
        assert_eq!(body_text(Some(doc.clone())), Some(doc.to_string()));
        assert_eq!(body_text(Some(Value::String(doc.to_string()))), Some(doc.to_string()));
        assert_eq!(body_text(Some(Value::Null)), None, "null is no body");
        assert_eq!(body_text(None), None);
    }
}
