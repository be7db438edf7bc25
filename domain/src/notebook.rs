//! Notebooks and the notes in them.
//!
//! A [`NotebookShelf`] is one user's notebooks (the aggregate id is the user id): it guards that
//! names are present, short and unique for the user whatever their case, and that the user has at
//! most one assistant notebook, so two browsers creating the same name (or the assistant saving
//! its first conversation twice) race on one aggregate and one of them is refused (or reuses the
//! other's notebook).
//!
//! A [`Note`] is one note (the aggregate id is the note id): it guards its owner, its body (a
//! rich-text document as a JSON object, at most [`MAX_NOTE_BODY_BYTES`]) and its version. Every
//! edit names the version it was based on; an edit based on an older version is refused, so two
//! browsers editing one note never overwrite each other silently. An edit that changes nothing
//! records nothing, so an editor may autosave as often as it likes.
//!
//! That a note's notebook exists and is the user's is checked against the read model by the
//! caller; a note created in a notebook deleted meanwhile never shows (the notebook's deletion
//! removes its notes from the views, and a note arriving after it is not applied).

use std::collections::BTreeMap;

use cqrs_es::Aggregate;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::{DomainError, ErrorKind};

/// The longest notebook name, in characters.
pub const MAX_NOTEBOOK_NAME_CHARS: usize = 100;
/// How many notebooks one user may have.
pub const MAX_NOTEBOOKS_PER_USER: usize = 1000;
/// The name of the assistant's notebook when the caller gives none.
pub const BOT_NOTEBOOK_NAME: &str = "AskNeedl";
/// The longest note name, in characters.
pub const MAX_NOTE_NAME_CHARS: usize = 300;
/// The largest note body, in bytes of its compact JSON text.
pub const MAX_NOTE_BODY_BYTES: usize = 1_000_000;
/// The longest snippet source field (deeplink, source, title), in characters.
pub const MAX_SOURCE_FIELD_CHARS: usize = 1000;
/// The longest snippet source link, in characters.
pub const MAX_SOURCE_LINK_CHARS: usize = 2048;
/// How many characters of a note's text its preview shows before "..." (the spec's snippet body).
pub const PREVIEW_CHARS: usize = 1000;

/// Returns a name as it is kept: trimmed, with runs of white space made one space.
pub fn clean_name(name: &str) -> String {
    name.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Returns the form under which a notebook name is unique for its user.
pub fn name_key(name: &str) -> String {
    clean_name(name).to_lowercase()
}

/// Whether a notebook is one the user made or the assistant's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum NotebookType {
    User,
    /// The user's one assistant notebook, where AskNeedl conversations are saved.
    Default,
}

impl NotebookType {
    pub fn as_str(self) -> &'static str {
        match self {
            NotebookType::User => "user",
            NotebookType::Default => "default",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum NotebookCommand {
    /// Creates a notebook; `notebook_id` is chosen by the caller (a fresh UUID). `feed_id` and
    /// `channel_id` type it to the feed or channel it was made from.
    Create {
        user_id: String,
        notebook_id: String,
        name: String,
        feed_id: Option<String>,
        channel_id: Option<String>,
    },
    /// Creates the user's assistant notebook unless they have one (then nothing happens). A name
    /// another notebook has gets a number, so saving a conversation never fails on a name.
    CreateBot {
        user_id: String,
        notebook_id: String,
        name: Option<String>,
    },
    Rename {
        user_id: String,
        notebook_id: String,
        name: String,
    },
    Delete {
        user_id: String,
        notebook_id: String,
    },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum NotebookEvent {
    NotebookCreated {
        user_id: String,
        notebook_id: String,
        name: String,
        notebook_type: NotebookType,
        feed_id: Option<String>,
        channel_id: Option<String>,
    },
    /// `from` is the name before, for whoever reads the history.
    NotebookRenamed { user_id: String, notebook_id: String, from: String, name: String },
    /// The notebook and every note in it are gone.
    NotebookDeleted { user_id: String, notebook_id: String, name: String },
}

crate::impl_domain_event! {
    NotebookEvent, versions {
        NotebookCreated: "1",
        NotebookRenamed: "1",
        NotebookDeleted: "1",
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotebookError {
    /// The spec's text for a notebook without a name.
    #[error("Please create a Notebook")]
    EmptyName,
    #[error("notebook name must be at most {MAX_NOTEBOOK_NAME_CHARS} characters")]
    NameTooLong,
    #[error("notebook name cannot contain control characters")]
    ControlCharacters,
    #[error("you already have a notebook named {0}")]
    NameTaken(String),
    #[error("you can have at most {MAX_NOTEBOOKS_PER_USER} notebooks")]
    TooManyNotebooks,
    #[error("notebook not found")]
    NotFound,
    #[error("this notebook id is taken")]
    IdTaken,
}

impl DomainError for NotebookError {
    fn kind(&self) -> ErrorKind {
        match self {
            NotebookError::EmptyName
            | NotebookError::NameTooLong
            | NotebookError::ControlCharacters
            | NotebookError::TooManyNotebooks => ErrorKind::Invalid,
            NotebookError::NameTaken(_) | NotebookError::IdTaken => ErrorKind::Conflict,
            NotebookError::NotFound => ErrorKind::NotFound,
        }
    }

    fn code(&self) -> &'static str {
        match self {
            NotebookError::EmptyName => "notebook_name_required",
            NotebookError::NameTooLong => "notebook_name_too_long",
            NotebookError::ControlCharacters => "notebook_name_invalid",
            NotebookError::NameTaken(_) => "notebook_name_taken",
            NotebookError::TooManyNotebooks => "too_many_notebooks",
            NotebookError::NotFound => "notebook_not_found",
            NotebookError::IdTaken => "notebook_id_taken",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct ShelvedNotebook {
    name: String,
    notebook_type: NotebookType,
}

/// One user's notebooks, by id.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NotebookShelf {
    notebooks: BTreeMap<String, ShelvedNotebook>,
}

impl NotebookShelf {
    /// Returns the cleaned name, or why it cannot be a name of this shelf's notebook `except`.
    fn valid_name(&self, name: &str, except: Option<&str>) -> Result<String, NotebookError> {
        let name = clean_name(name);
        if name.is_empty() {
            return Err(NotebookError::EmptyName);
        }
        if name.chars().count() > MAX_NOTEBOOK_NAME_CHARS {
            return Err(NotebookError::NameTooLong);
        }
        if name.chars().any(char::is_control) {
            return Err(NotebookError::ControlCharacters);
        }
        if let Some(taken) = self.holder_of(&name, except) {
            return Err(NotebookError::NameTaken(taken.to_string()));
        }
        Ok(name)
    }

    /// Returns the name of another notebook than `except` that has `name` whatever its case.
    fn holder_of(&self, name: &str, except: Option<&str>) -> Option<&str> {
        let key = name.to_lowercase();
        self.notebooks
            .iter()
            .find(|(id, n)| Some(id.as_str()) != except && n.name.to_lowercase() == key)
            .map(|(_, n)| n.name.as_str())
    }

    /// Returns `name`, or when another notebook has it, the first of "name 2", "name 3", ... that
    /// is free.
    fn free_variant(&self, name: String) -> String {
        if self.holder_of(&name, None).is_none() {
            return name;
        }
        (2..)
            .map(|n| {
                let suffix = format!(" {n}");
                let room = MAX_NOTEBOOK_NAME_CHARS - suffix.chars().count();
                format!("{}{suffix}", name.chars().take(room).collect::<String>().trim_end())
            })
            .find(|candidate| self.holder_of(candidate, None).is_none())
            .expect("a shelf with a bounded number of notebooks leaves some number free")
    }

    pub fn decide(&self, command: NotebookCommand) -> Result<Vec<NotebookEvent>, NotebookError> {
        match command {
            NotebookCommand::Create { user_id, notebook_id, name, feed_id, channel_id } => {
                if self.notebooks.contains_key(&notebook_id) {
                    return Err(NotebookError::IdTaken);
                }
                let name = self.valid_name(&name, None)?;
                if self.notebooks.len() >= MAX_NOTEBOOKS_PER_USER {
                    return Err(NotebookError::TooManyNotebooks);
                }
                Ok(vec![NotebookEvent::NotebookCreated {
                    user_id,
                    notebook_id,
                    name,
                    notebook_type: NotebookType::User,
                    feed_id,
                    channel_id,
                }])
            }
            NotebookCommand::CreateBot { user_id, notebook_id, name } => {
                if self.notebooks.values().any(|n| n.notebook_type == NotebookType::Default) {
                    return Ok(vec![]);
                }
                if self.notebooks.contains_key(&notebook_id) {
                    return Err(NotebookError::IdTaken);
                }
                let name = clean_name(name.as_deref().unwrap_or_default());
                let name = if name.is_empty() { BOT_NOTEBOOK_NAME.to_string() } else { name };
                let name = match self.valid_name(&name, None) {
                    Err(NotebookError::NameTaken(_)) => self.free_variant(name),
                    other => other?,
                };
                if self.notebooks.len() >= MAX_NOTEBOOKS_PER_USER {
                    return Err(NotebookError::TooManyNotebooks);
                }
                Ok(vec![NotebookEvent::NotebookCreated {
                    user_id,
                    notebook_id,
                    name,
                    notebook_type: NotebookType::Default,
                    feed_id: None,
                    channel_id: None,
                }])
            }
            NotebookCommand::Rename { user_id, notebook_id, name } => {
                let from = &self.notebooks.get(&notebook_id).ok_or(NotebookError::NotFound)?.name;
                let name = self.valid_name(&name, Some(&notebook_id))?;
                Ok(if *from == name {
                    vec![]
                } else {
                    vec![NotebookEvent::NotebookRenamed { user_id, notebook_id, from: from.clone(), name }]
                })
            }
            NotebookCommand::Delete { user_id, notebook_id } => {
                let name = self.notebooks.get(&notebook_id).ok_or(NotebookError::NotFound)?.name.clone();
                Ok(vec![NotebookEvent::NotebookDeleted { user_id, notebook_id, name }])
            }
        }
    }
}

impl Aggregate for NotebookShelf {
    const TYPE: &'static str = "notebook_shelf";
    type Command = NotebookCommand;
    type Event = NotebookEvent;
    type Error = NotebookError;
    type Services = ();

    crate::handle_by_deciding!();

    fn apply(&mut self, event: Self::Event) {
        match event {
            NotebookEvent::NotebookCreated { notebook_id, name, notebook_type, .. } => {
                self.notebooks.insert(notebook_id, ShelvedNotebook { name, notebook_type });
            }
            NotebookEvent::NotebookRenamed { notebook_id, name, .. } => {
                if let Some(notebook) = self.notebooks.get_mut(&notebook_id) {
                    notebook.name = name;
                }
            }
            NotebookEvent::NotebookDeleted { notebook_id, .. } => {
                self.notebooks.remove(&notebook_id);
            }
        }
    }
}

/// Where a snippet note's document came from: the card or answer it was taken from.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SnippetSource {
    pub deeplink: Option<String>,
    /// The source key of the document (`rss_news`, a source id, `ask_needl`, ...).
    pub source: Option<String>,
    pub title: Option<String>,
    /// Where the reader opens the original: an http(s) URL or a path of this app.
    pub link: Option<String>,
}

impl SnippetSource {
    /// Returns the source with each field trimmed (empty ones dropped), or why it is refused.
    fn cleaned(self) -> Result<SnippetSource, NoteError> {
        let field = |name: &'static str, value: Option<String>, max: usize| {
            let value = value.map(|v| v.trim().to_string()).filter(|v| !v.is_empty());
            match value {
                Some(v) if v.chars().count() > max => Err(NoteError::SourceFieldTooLong { field: name, max }),
                Some(v) if v.chars().any(char::is_control) => Err(NoteError::SourceFieldInvalid(name)),
                other => Ok(other),
            }
        };
        let link = field("link", self.link, MAX_SOURCE_LINK_CHARS)?;
        if link.as_deref().is_some_and(|link| !is_web_link(link) && !is_app_path(link)) {
            return Err(NoteError::LinkNotWeb);
        }
        Ok(SnippetSource {
            deeplink: field("deeplink", self.deeplink, MAX_SOURCE_FIELD_CHARS)?,
            source: field("source", self.source, MAX_SOURCE_FIELD_CHARS)?,
            title: field("title", self.title, MAX_SOURCE_FIELD_CHARS)?,
            link,
        })
    }
}

/// An origin no real site has, that app paths are resolved against to see where they lead.
const APP_BASE: &str = "http://app.invalid/";

/// Returns whether `link` is an absolute http(s) URL with a host.
fn is_web_link(link: &str) -> bool {
    let lower = link.to_ascii_lowercase();
    (lower.starts_with("https://") || lower.starts_with("http://"))
        && url::Url::parse(link).is_ok_and(|url| url.host_str().is_some_and(|host| !host.is_empty()))
}

/// Returns whether `link` is a path of this app: it starts with one `/` and, read the way a
/// browser reads it (`\` as `/`, tabs and newlines dropped), stays on the app's origin. So
/// `/\evil.example` and `/\t/evil.example`, which browsers open as `//evil.example`, are not.
pub fn is_app_path(link: &str) -> bool {
    let Some(rest) = link.strip_prefix('/') else {
        return false;
    };
    if rest.starts_with(['/', '\\']) {
        return false;
    }
    let base = url::Url::parse(APP_BASE).expect("the app base is a valid URL");
    base.join(link).is_ok_and(|resolved| resolved.origin() == base.origin())
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum NoteCommand {
    /// Creates a note in `notebook_id`; `note_id` is chosen by the caller (a fresh UUID). `body`
    /// is the rich-text document as JSON text; a snippet note has one, with its source.
    Create {
        user_id: String,
        notebook_id: String,
        note_id: String,
        name: String,
        body: Option<String>,
        snippet: Option<SnippetSource>,
    },
    /// Changes the name, the body or both; `base_version` is the version the editor showed.
    Edit {
        user_id: String,
        base_version: u64,
        name: Option<String>,
        body: Option<String>,
    },
    Delete {
        user_id: String,
    },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum NoteEvent {
    /// The note at version 1.
    NoteCreated {
        user_id: String,
        notebook_id: String,
        note_id: String,
        name: String,
        body: Option<String>,
        snippet: Option<SnippetSource>,
    },
    /// Only what changed is carried; `version` is the note's version after the edit.
    NoteEdited {
        user_id: String,
        notebook_id: String,
        note_id: String,
        version: u64,
        name: Option<String>,
        body: Option<String>,
    },
    NoteDeleted {
        user_id: String,
        notebook_id: String,
        note_id: String,
    },
}

crate::impl_domain_event! {
    NoteEvent, versions {
        NoteCreated: "1",
        NoteEdited: "1",
        NoteDeleted: "1",
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NoteError {
    #[error("note name must be at most {MAX_NOTE_NAME_CHARS} characters")]
    NameTooLong,
    #[error("note name cannot contain control characters")]
    ControlCharacters,
    #[error("a note's body must be a JSON object (a rich-text document)")]
    BodyNotADocument,
    #[error("a note's body must be at most 1 MB")]
    BodyTooLarge,
    #[error("a snippet needs the document it holds")]
    SnippetWithoutDocument,
    #[error("the snippet's {field} must be at most {max} characters")]
    SourceFieldTooLong { field: &'static str, max: usize },
    #[error("the snippet's {0} cannot contain control characters")]
    SourceFieldInvalid(&'static str),
    #[error("the snippet's link must be an http or https URL")]
    LinkNotWeb,
    #[error("send a new name or body to edit a note")]
    NothingToEdit,
    #[error(
        "this note was changed elsewhere since you opened it (it is now at version {current}); reload it and make \
         your edit again"
    )]
    StaleVersion { current: u64 },
    #[error("note not found")]
    NotFound,
    #[error("this note id is taken")]
    IdTaken,
}

impl DomainError for NoteError {
    fn kind(&self) -> ErrorKind {
        match self {
            NoteError::NameTooLong
            | NoteError::ControlCharacters
            | NoteError::BodyNotADocument
            | NoteError::BodyTooLarge
            | NoteError::SnippetWithoutDocument
            | NoteError::SourceFieldTooLong { .. }
            | NoteError::SourceFieldInvalid(_)
            | NoteError::LinkNotWeb
            | NoteError::NothingToEdit => ErrorKind::Invalid,
            NoteError::StaleVersion { .. } | NoteError::IdTaken => ErrorKind::Conflict,
            NoteError::NotFound => ErrorKind::NotFound,
        }
    }

    fn code(&self) -> &'static str {
        match self {
            NoteError::NameTooLong => "note_name_too_long",
            NoteError::ControlCharacters => "note_name_invalid",
            NoteError::BodyNotADocument => "note_body_invalid",
            NoteError::BodyTooLarge => "note_body_too_large",
            NoteError::SnippetWithoutDocument => "snippet_document_required",
            NoteError::SourceFieldTooLong { .. } | NoteError::SourceFieldInvalid(_) | NoteError::LinkNotWeb => {
                "snippet_source_invalid"
            }
            NoteError::NothingToEdit => "nothing_to_edit",
            NoteError::StaleVersion { .. } => "note_version_stale",
            NoteError::NotFound => "note_not_found",
            NoteError::IdTaken => "note_id_taken",
        }
    }
}

/// Returns a note name as it is kept (trimmed, runs of white space made one space; it may be
/// empty), or why it is refused.
fn valid_note_name(name: &str) -> Result<String, NoteError> {
    let name = clean_name(name);
    if name.chars().count() > MAX_NOTE_NAME_CHARS {
        return Err(NoteError::NameTooLong);
    }
    if name.chars().any(char::is_control) {
        return Err(NoteError::ControlCharacters);
    }
    Ok(name)
}

/// Returns a note body as it is kept: the compact JSON text of the object `text` holds, or why
/// it is refused. The same document always gives the same text, so an unchanged body is seen to
/// be unchanged whatever spacing the client sent.
pub fn canonical_body(text: &str) -> Result<String, NoteError> {
    // Far past the limit, parsing is wasted work: no amount of white space explains it.
    if text.len() > 4 * MAX_NOTE_BODY_BYTES {
        return Err(NoteError::BodyTooLarge);
    }
    let value: Value = serde_json::from_str(text).map_err(|_| NoteError::BodyNotADocument)?;
    if !value.is_object() {
        return Err(NoteError::BodyNotADocument);
    }
    let canonical = value.to_string();
    if canonical.len() > MAX_NOTE_BODY_BYTES {
        return Err(NoteError::BodyTooLarge);
    }
    Ok(canonical)
}

/// Node types that sit inside a line of text rather than making a block of their own.
const INLINE_NODES: &[&str] = &["link", "autolink", "mention", "hashtag", "emoji"];

/// Returns the readable text of a rich-text document: the `text` of its nodes in order, one
/// block (paragraph, heading, list item, quote, ...) per line. Works for the common editors'
/// JSON (ProseMirror/Tiptap `content`, Lexical's `root` and Slate's `children`); anything else gives "".
pub fn plain_text(body: &str) -> String {
    fn walk(node: &Value, out: &mut String) {
        match node {
            Value::Object(map) => {
                if let Some(Value::String(text)) = map.get("text") {
                    out.push_str(text);
                }
                let kind = map.get("type").and_then(Value::as_str).unwrap_or_default();
                if matches!(kind, "hardBreak" | "linebreak" | "hard_break") {
                    out.push('\n');
                }
                if let Some(root) = map.get("root") {
                    walk(root, out);
                }
                if let Some(Value::Array(children)) = map.get("content").or_else(|| map.get("children")) {
                    for child in children {
                        walk(child, out);
                    }
                    if !INLINE_NODES.contains(&kind) {
                        out.push('\n');
                    }
                }
            }
            Value::Array(items) => items.iter().for_each(|item| walk(item, out)),
            _ => {}
        }
    }
    let Ok(value) = serde_json::from_str::<Value>(body) else {
        return String::new();
    };
    let mut out = String::new();
    walk(&value, &mut out);
    out.lines().map(str::trim).filter(|line| !line.is_empty()).collect::<Vec<_>>().join("\n")
}

/// Returns `text` cut at [`PREVIEW_CHARS`] characters, with "..." when something was cut.
pub fn preview(text: &str) -> String {
    match text.char_indices().nth(PREVIEW_CHARS) {
        Some((end, _)) => format!("{}...", &text[..end]),
        None => text.to_string(),
    }
}

/// One note.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Note {
    /// `None` until created, and again once deleted.
    live: Option<LiveNote>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct LiveNote {
    owner: String,
    notebook_id: String,
    note_id: String,
    name: String,
    body: Option<String>,
    version: u64,
}

impl Note {
    pub fn decide(&self, command: NoteCommand) -> Result<Vec<NoteEvent>, NoteError> {
        match command {
            NoteCommand::Create { user_id, notebook_id, note_id, name, body, snippet } => {
                if self.live.is_some() {
                    return Err(NoteError::IdTaken);
                }
                let name = valid_note_name(&name)?;
                let body = body.as_deref().map(canonical_body).transpose()?;
                let snippet = snippet.map(SnippetSource::cleaned).transpose()?;
                if snippet.is_some() && body.is_none() {
                    return Err(NoteError::SnippetWithoutDocument);
                }
                Ok(vec![NoteEvent::NoteCreated { user_id, notebook_id, note_id, name, body, snippet }])
            }
            NoteCommand::Edit { user_id, base_version, name, body } => {
                let note = self.live.as_ref().filter(|n| n.owner == user_id).ok_or(NoteError::NotFound)?;
                if name.is_none() && body.is_none() {
                    return Err(NoteError::NothingToEdit);
                }
                let name = name.as_deref().map(valid_note_name).transpose()?.filter(|n| *n != note.name);
                let body = body.as_deref().map(canonical_body).transpose()?.filter(|b| Some(b) != note.body.as_ref());
                if name.is_none() && body.is_none() {
                    // What the editor sends is already there: nothing to record, nothing lost.
                    return Ok(vec![]);
                }
                if base_version != note.version {
                    return Err(NoteError::StaleVersion { current: note.version });
                }
                Ok(vec![NoteEvent::NoteEdited {
                    user_id,
                    notebook_id: note.notebook_id.clone(),
                    note_id: note.note_id.clone(),
                    version: note.version + 1,
                    name,
                    body,
                }])
            }
            NoteCommand::Delete { user_id } => {
                let note = self.live.as_ref().filter(|n| n.owner == user_id).ok_or(NoteError::NotFound)?;
                Ok(vec![NoteEvent::NoteDeleted {
                    user_id,
                    notebook_id: note.notebook_id.clone(),
                    note_id: note.note_id.clone(),
                }])
            }
        }
    }
}

impl Aggregate for Note {
    const TYPE: &'static str = "note";
    type Command = NoteCommand;
    type Event = NoteEvent;
    type Error = NoteError;
    type Services = ();

    crate::handle_by_deciding!();

    fn apply(&mut self, event: Self::Event) {
        match event {
            NoteEvent::NoteCreated { user_id, notebook_id, note_id, name, body, .. } => {
                self.live = Some(LiveNote { owner: user_id, notebook_id, note_id, name, body, version: 1 });
            }
            NoteEvent::NoteEdited { version, name, body, .. } => {
                if let Some(note) = self.live.as_mut() {
                    note.version = version;
                    if let Some(name) = name {
                        note.name = name;
                    }
                    if body.is_some() {
                        note.body = body;
                    }
                }
            }
            NoteEvent::NoteDeleted { .. } => self.live = None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cqrs_es::test::TestFramework;

    fn created_as(notebook_id: &str, name: &str, notebook_type: NotebookType) -> NotebookEvent {
        NotebookEvent::NotebookCreated {
            user_id: "u1".into(),
            notebook_id: notebook_id.into(),
            name: name.into(),
            notebook_type,
            feed_id: None,
            channel_id: None,
        }
    }

    fn created(notebook_id: &str, name: &str) -> NotebookEvent {
        created_as(notebook_id, name, NotebookType::User)
    }

    fn bot_created(notebook_id: &str, name: &str) -> NotebookEvent {
        created_as(notebook_id, name, NotebookType::Default)
    }

    fn create(notebook_id: &str, name: &str) -> NotebookCommand {
        NotebookCommand::Create {
            user_id: "u1".into(),
            notebook_id: notebook_id.into(),
            name: name.into(),
            feed_id: None,
            channel_id: None,
        }
    }

    fn create_bot(notebook_id: &str, name: Option<&str>) -> NotebookCommand {
        NotebookCommand::CreateBot {
            user_id: "u1".into(),
            notebook_id: notebook_id.into(),
            name: name.map(str::to_string),
        }
    }

    /// Keys in alphabetical order: the compact form keeps them so, whether or not serde_json
    /// preserves the order of keys.
    const DOC: &str = r#"{"content":[{"content":[{"text":"Hi","type":"text"}],"type":"paragraph"}],"type":"doc"}"#;

    fn note_created(body: Option<&str>) -> NoteEvent {
        NoteEvent::NoteCreated {
            user_id: "u1".into(),
            notebook_id: "b1".into(),
            note_id: "n1".into(),
            name: "Ideas".into(),
            body: body.map(str::to_string),
            snippet: None,
        }
    }

    fn create_note(body: Option<&str>) -> NoteCommand {
        NoteCommand::Create {
            user_id: "u1".into(),
            notebook_id: "b1".into(),
            note_id: "n1".into(),
            name: "Ideas".into(),
            body: body.map(str::to_string),
            snippet: None,
        }
    }

    fn edit(base_version: u64, name: Option<&str>, body: Option<&str>) -> NoteCommand {
        NoteCommand::Edit {
            user_id: "u1".into(),
            base_version,
            name: name.map(str::to_string),
            body: body.map(str::to_string),
        }
    }

    fn edited(version: u64, name: Option<&str>, body: Option<&str>) -> NoteEvent {
        NoteEvent::NoteEdited {
            user_id: "u1".into(),
            notebook_id: "b1".into(),
            note_id: "n1".into(),
            version,
            name: name.map(str::to_string),
            body: body.map(str::to_string),
        }
    }

    #[test]
    fn a_notebook_is_created_with_its_name_trimmed_and_spaces_collapsed() {
        TestFramework::<NotebookShelf>::with(())
            .given_no_previous_events()
            .when(NotebookCommand::Create {
                user_id: "u1".into(),
                notebook_id: "b1".into(),
                name: "  Q3   research ".into(),
                feed_id: Some("f1".into()),
                channel_id: None,
            })
            .then_expect_events(vec![NotebookEvent::NotebookCreated {
                user_id: "u1".into(),
                notebook_id: "b1".into(),
                name: "Q3 research".into(),
                notebook_type: NotebookType::User,
                feed_id: Some("f1".into()),
                channel_id: None,
            }]);
    }

    #[test]
    fn a_blank_notebook_name_is_refused_with_the_specs_text() {
        TestFramework::<NotebookShelf>::with(())
            .given_no_previous_events()
            .when(create("b1", " \t "))
            .then_expect_error(NotebookError::EmptyName);
        assert_eq!(NotebookError::EmptyName.to_string(), "Please create a Notebook");
    }

    #[test]
    fn a_notebook_name_longer_than_the_limit_or_with_control_characters_is_refused() {
        TestFramework::<NotebookShelf>::with(())
            .given_no_previous_events()
            .when(create("b1", &"x".repeat(MAX_NOTEBOOK_NAME_CHARS + 1)))
            .then_expect_error(NotebookError::NameTooLong);
        TestFramework::<NotebookShelf>::with(())
            .given_no_previous_events()
            .when(create("b1", "a\u{7}b"))
            .then_expect_error(NotebookError::ControlCharacters);
    }

    #[test]
    fn a_notebook_name_the_user_has_in_another_case_is_taken() {
        TestFramework::<NotebookShelf>::with(())
            .given(vec![created("b1", "Research")])
            .when(create("b2", " RESEARCH "))
            .then_expect_error(NotebookError::NameTaken("Research".into()));
    }

    #[test]
    fn a_deleted_notebooks_name_is_free_again() {
        TestFramework::<NotebookShelf>::with(())
            .given(vec![
                created("b1", "Research"),
                NotebookEvent::NotebookDeleted {
                    user_id: "u1".into(),
                    notebook_id: "b1".into(),
                    name: "Research".into(),
                },
            ])
            .when(create("b2", "research"))
            .then_expect_events(vec![created("b2", "research")]);
    }

    #[test]
    fn a_user_has_at_most_the_limit_of_notebooks() {
        let many: Vec<NotebookEvent> =
            (0..MAX_NOTEBOOKS_PER_USER).map(|i| created(&format!("b{i}"), &format!("notebook {i}"))).collect();
        TestFramework::<NotebookShelf>::with(())
            .given(many)
            .when(create("new", "one more"))
            .then_expect_error(NotebookError::TooManyNotebooks);
    }

    #[test]
    fn renaming_records_the_old_name_and_may_change_only_the_case() {
        TestFramework::<NotebookShelf>::with(())
            .given(vec![created("b1", "research")])
            .when(NotebookCommand::Rename { user_id: "u1".into(), notebook_id: "b1".into(), name: "Research".into() })
            .then_expect_events(vec![NotebookEvent::NotebookRenamed {
                user_id: "u1".into(),
                notebook_id: "b1".into(),
                from: "research".into(),
                name: "Research".into(),
            }]);
    }

    #[test]
    fn renaming_to_the_same_name_changes_nothing_and_to_another_notebooks_name_is_refused() {
        TestFramework::<NotebookShelf>::with(())
            .given(vec![created("b1", "Research")])
            .when(NotebookCommand::Rename { user_id: "u1".into(), notebook_id: "b1".into(), name: "Research ".into() })
            .then_expect_events(vec![]);
        TestFramework::<NotebookShelf>::with(())
            .given(vec![created("b1", "Research"), created("b2", "Macro")])
            .when(NotebookCommand::Rename { user_id: "u1".into(), notebook_id: "b2".into(), name: "research".into() })
            .then_expect_error(NotebookError::NameTaken("Research".into()));
    }

    #[test]
    fn renaming_or_deleting_a_notebook_not_on_the_shelf_is_not_found() {
        TestFramework::<NotebookShelf>::with(())
            .given(vec![created("b1", "Research")])
            .when(NotebookCommand::Rename { user_id: "u1".into(), notebook_id: "b9".into(), name: "x".into() })
            .then_expect_error(NotebookError::NotFound);
        TestFramework::<NotebookShelf>::with(())
            .given(vec![created("b1", "Research")])
            .when(NotebookCommand::Delete { user_id: "u1".into(), notebook_id: "b9".into() })
            .then_expect_error(NotebookError::NotFound);
    }

    #[test]
    fn deleting_a_notebook_records_its_name() {
        TestFramework::<NotebookShelf>::with(())
            .given(vec![created("b1", "Research")])
            .when(NotebookCommand::Delete { user_id: "u1".into(), notebook_id: "b1".into() })
            .then_expect_events(vec![NotebookEvent::NotebookDeleted {
                user_id: "u1".into(),
                notebook_id: "b1".into(),
                name: "Research".into(),
            }]);
    }

    #[test]
    fn the_assistant_notebook_is_created_once_and_then_reused() {
        TestFramework::<NotebookShelf>::with(())
            .given_no_previous_events()
            .when(create_bot("b1", None))
            .then_expect_events(vec![bot_created("b1", BOT_NOTEBOOK_NAME)]);
        TestFramework::<NotebookShelf>::with(())
            .given(vec![bot_created("b1", BOT_NOTEBOOK_NAME)])
            .when(create_bot("b2", Some("Chats")))
            .then_expect_events(vec![]);
    }

    #[test]
    fn the_assistant_notebook_takes_a_free_name_when_its_own_is_taken() {
        TestFramework::<NotebookShelf>::with(())
            .given(vec![created("b1", "askneedl"), created("b2", "AskNeedl 2")])
            .when(create_bot("b3", Some(" AskNeedl ")))
            .then_expect_events(vec![bot_created("b3", "AskNeedl 3")]);
        let long = "y".repeat(MAX_NOTEBOOK_NAME_CHARS);
        TestFramework::<NotebookShelf>::with(())
            .given(vec![created("b1", &long)])
            .when(create_bot("b2", Some(&long)))
            .then_expect_events(vec![bot_created("b2", &format!("{} 2", "y".repeat(MAX_NOTEBOOK_NAME_CHARS - 2)))]);
    }

    #[test]
    fn a_deleted_assistant_notebook_is_made_again_on_the_next_save() {
        TestFramework::<NotebookShelf>::with(())
            .given(vec![
                bot_created("b1", BOT_NOTEBOOK_NAME),
                NotebookEvent::NotebookDeleted {
                    user_id: "u1".into(),
                    notebook_id: "b1".into(),
                    name: BOT_NOTEBOOK_NAME.into(),
                },
            ])
            .when(create_bot("b2", None))
            .then_expect_events(vec![bot_created("b2", BOT_NOTEBOOK_NAME)]);
    }

    #[test]
    fn a_note_is_created_at_version_1_with_its_body_made_compact() {
        TestFramework::<Note>::with(())
            .given_no_previous_events()
            .when(NoteCommand::Create {
                user_id: "u1".into(),
                notebook_id: "b1".into(),
                note_id: "n1".into(),
                name: "  Ideas ".into(),
                body: Some("{ \"type\": \"doc\" }".into()),
                snippet: None,
            })
            .then_expect_events(vec![note_created(Some(r#"{"type":"doc"}"#))]);
    }

    #[test]
    fn a_body_that_is_not_a_json_object_is_refused() {
        for body in ["[1, 2]", "\"text\"", "not json", "{\"a\": "] {
            TestFramework::<Note>::with(())
                .given_no_previous_events()
                .when(create_note(Some(body)))
                .then_expect_error(NoteError::BodyNotADocument);
        }
    }

    #[test]
    fn a_body_past_one_megabyte_is_refused() {
        let big = format!("{{\"text\":\"{}\"}}", "x".repeat(MAX_NOTE_BODY_BYTES));
        TestFramework::<Note>::with(())
            .given_no_previous_events()
            .when(create_note(Some(&big)))
            .then_expect_error(NoteError::BodyTooLarge);
        let largest = format!("{{\"text\":\"{}\"}}", "x".repeat(MAX_NOTE_BODY_BYTES - 11));
        assert_eq!(largest.len(), MAX_NOTE_BODY_BYTES);
        assert_eq!(canonical_body(&largest).unwrap(), largest);
    }

    #[test]
    fn a_snippet_keeps_its_cleaned_source_and_needs_a_document() {
        let snippet = SnippetSource {
            deeplink: Some(" d1 ".into()),
            source: Some("rss_news".into()),
            title: Some("".into()),
            link: Some("https://example.org/a".into()),
        };
        TestFramework::<Note>::with(())
            .given_no_previous_events()
            .when(NoteCommand::Create {
                user_id: "u1".into(),
                notebook_id: "b1".into(),
                note_id: "n1".into(),
                name: "Ideas".into(),
                body: Some(DOC.into()),
                snippet: Some(snippet.clone()),
            })
            .then_expect_events(vec![NoteEvent::NoteCreated {
                user_id: "u1".into(),
                notebook_id: "b1".into(),
                note_id: "n1".into(),
                name: "Ideas".into(),
                body: Some(DOC.into()),
                snippet: Some(SnippetSource { deeplink: Some("d1".into()), title: None, ..snippet.clone() }),
            }]);
        TestFramework::<Note>::with(())
            .given_no_previous_events()
            .when(NoteCommand::Create {
                user_id: "u1".into(),
                notebook_id: "b1".into(),
                note_id: "n1".into(),
                name: "Ideas".into(),
                body: None,
                snippet: Some(snippet),
            })
            .then_expect_error(NoteError::SnippetWithoutDocument);
    }

    #[test]
    fn a_snippet_link_must_be_a_web_link_or_a_path_of_the_app() {
        for (link, ok) in [
            ("javascript:alert(1)", false),
            ("//evil.example/x", false),
            ("data:text/html,hi", false),
            ("HTTPS://example.org", true),
            ("https://", false),
            ("/preview/rss_news/d1", true),
            ("/preview/rss_news/d1?page=2#p", true),
        ] {
            let snippet = SnippetSource { link: Some(link.into()), ..Default::default() };
            assert_eq!(snippet.cleaned().is_ok(), ok, "{link}");
        }
    }

    #[test]
    fn a_snippet_link_that_a_browser_reads_as_another_site_is_refused() {
        for link in [
            "//evil.example",
            "/\\evil.example/x",
            "\\\\evil.example",
            "/\t/evil.example",
            "/\n/evil.example",
            "javascript:alert(1)",
            "JaVaScRiPt:alert(1)",
            " /\\evil.example",
            "evil.example/x",
        ] {
            assert!(!is_app_path(link), "{link:?} is not a path of the app");
            let snippet = SnippetSource { link: Some(link.into()), ..Default::default() };
            assert!(snippet.cleaned().is_err(), "{link:?} is refused");
        }
        // A percent-encoded backslash is a character of the path, not a separator: it stays here.
        assert!(is_app_path("/%5Cevil"));
        assert!(is_app_path("/notebooks/a\\b"), "a backslash after the first segment stays on the app");
        let long = SnippetSource { title: Some("t".repeat(MAX_SOURCE_FIELD_CHARS + 1)), ..Default::default() };
        assert_eq!(long.cleaned(), Err(NoteError::SourceFieldTooLong { field: "title", max: MAX_SOURCE_FIELD_CHARS }));
    }

    #[test]
    fn an_edit_based_on_the_current_version_records_what_changed_and_the_next_version() {
        TestFramework::<Note>::with(())
            .given(vec![note_created(Some(DOC))])
            .when(edit(1, Some("Ideas"), Some(r#"{"content":[],"type":"doc"}"#)))
            .then_expect_events(vec![edited(2, None, Some(r#"{"content":[],"type":"doc"}"#))]);
        TestFramework::<Note>::with(())
            .given(vec![note_created(None), edited(2, Some("Plans"), None)])
            .when(edit(2, Some("Later"), None))
            .then_expect_events(vec![edited(3, Some("Later"), None)]);
    }

    #[test]
    fn an_edit_based_on_an_older_version_is_refused_so_no_write_is_lost() {
        TestFramework::<Note>::with(())
            .given(vec![note_created(Some(DOC)), edited(2, None, Some(r#"{"type":"doc","v":2}"#))])
            .when(edit(1, None, Some(r#"{"type":"doc","v":"mine"}"#)))
            .then_expect_error(NoteError::StaleVersion { current: 2 });
    }

    #[test]
    fn an_autosave_of_what_is_already_there_records_nothing_whatever_its_version() {
        TestFramework::<Note>::with(())
            .given(vec![note_created(Some(DOC))])
            .when(edit(1, Some(" Ideas"), Some(&DOC.replace(',', ", "))))
            .then_expect_events(vec![]);
        TestFramework::<Note>::with(())
            .given(vec![note_created(Some(DOC)), edited(2, Some("Plans"), None)])
            .when(edit(1, Some("Plans"), None))
            .then_expect_events(vec![]);
    }

    #[test]
    fn an_edit_that_names_nothing_is_refused() {
        TestFramework::<Note>::with(())
            .given(vec![note_created(None)])
            .when(edit(1, None, None))
            .then_expect_error(NoteError::NothingToEdit);
    }

    #[test]
    fn someone_elses_note_and_a_deleted_note_are_not_found() {
        let deleted = NoteEvent::NoteDeleted { user_id: "u1".into(), notebook_id: "b1".into(), note_id: "n1".into() };
        TestFramework::<Note>::with(())
            .given(vec![note_created(None)])
            .when(NoteCommand::Edit { user_id: "u2".into(), base_version: 1, name: Some("x".into()), body: None })
            .then_expect_error(NoteError::NotFound);
        TestFramework::<Note>::with(())
            .given(vec![note_created(None)])
            .when(NoteCommand::Delete { user_id: "u2".into() })
            .then_expect_error(NoteError::NotFound);
        TestFramework::<Note>::with(())
            .given(vec![note_created(None)])
            .when(NoteCommand::Delete { user_id: "u1".into() })
            .then_expect_events(vec![deleted.clone()]);
        TestFramework::<Note>::with(())
            .given(vec![note_created(None), deleted])
            .when(edit(1, Some("x"), None))
            .then_expect_error(NoteError::NotFound);
    }

    #[test]
    fn creating_a_note_twice_is_refused() {
        TestFramework::<Note>::with(())
            .given(vec![note_created(None)])
            .when(create_note(None))
            .then_expect_error(NoteError::IdTaken);
    }

    #[test]
    fn the_plain_text_of_a_document_has_one_block_per_line() {
        let tiptap = r#"{"type":"doc","content":[
            {"type":"heading","content":[{"type":"text","text":"Title"}]},
            {"type":"paragraph","content":[{"type":"text","text":"Hello "},
                {"type":"text","marks":[{"type":"link","attrs":{"href":"https://x"}}],"text":"world"}]},
            {"type":"bulletList","content":[{"type":"listItem","content":[{"type":"paragraph",
                "content":[{"type":"text","text":"one"},{"type":"hardBreak"},{"type":"text","text":"two"}]}]}]}]}"#;
        assert_eq!(plain_text(tiptap), "Title\nHello world\none\ntwo");
        let lexical = r#"{"root":{"children":[{"type":"paragraph","children":[{"text":"See "},
            {"type":"link","children":[{"text":"this"}]},{"text":" now"}]}]}}"#;
        assert_eq!(plain_text(lexical), "See this now");
        assert_eq!(plain_text("not json"), "");
    }

    #[test]
    fn a_preview_is_cut_at_1000_characters_with_an_ellipsis() {
        assert_eq!(preview("short"), "short");
        let exact = "é".repeat(PREVIEW_CHARS);
        assert_eq!(preview(&exact), exact);
        let long = "é".repeat(PREVIEW_CHARS + 1);
        assert_eq!(preview(&long), format!("{}...", "é".repeat(PREVIEW_CHARS)));
    }

    #[test]
    fn notebook_names_are_unique_under_case_and_spacing() {
        assert_eq!(name_key("  Q3   Research "), "q3 research");
    }
}
