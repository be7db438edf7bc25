//! The index as a projection: a task that follows the global feed from the index's checkpoint and
//! turns document events, and users' notes, into index changes.
//!
//! A note is indexed as an entry only its author reaches (`owner`), in the `notes` tab, under the
//! deeplink [`note_deeplink`] and with its notebook as `source_id`, so a question or a search can
//! narrow to one notebook. An edit carries only what changed, so the note is read back from its
//! own events up to the edit.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use commands::args;
use commands::feed::{self, Cursor, FeedSignal, StoredEvent};
use commands::store::Db;
use cqrs_es::Aggregate;
use domain::document::{DocumentEvent, DocumentFields};
use domain::notebook::{plain_text, Note, NoteEvent, NotebookEvent, NotebookShelf, SnippetSource};
use domain::source::{SourceEvent, SourceKind};
use tokio::sync::{mpsc, watch};

use crate::index::{Change, IndexedDocument, SearchIndex};
use crate::passages::PageText;

/// Events read per step.
pub const BATCH: i64 = 500;

/// Where documents' text is kept, and what the catalogue knows of public sources: what the index
/// needs from the rest of the system.
#[async_trait]
pub trait Library: Send + Sync + 'static {
    /// The document's pages (with line boxes where it has a layout). `Ok(vec![])` when the text is
    /// gone; the document is then indexed by its title alone.
    async fn pages(&self, fields: &DocumentFields) -> anyhow::Result<Vec<PageText>>;
    /// The country ("IN", "US") of a public catalogue source, by key.
    fn country_of(&self, key: &str) -> Option<String>;
}

/// Category tabs documents fall in.
pub mod category {
    pub const RSS_NEWS: &str = "rss_news";
    pub const INDIA: &str = "india_regulatory_data";
    pub const US: &str = "us_regulatory_data";
    pub const EXCHANGES: &str = "exchanges";
    pub const DRIVES: &str = "drives";
    pub const ATTACHMENTS: &str = "attachments";
    /// Users' notes, each reached by its author only.
    pub const NOTES: &str = "notes";
}

/// What a note's deeplink in the index starts with: notes are no documents, and their ids must
/// never meet a document's.
pub const NOTE_PREFIX: &str = "note:";

/// Returns the index deeplink of a note.
pub fn note_deeplink(note_id: &str) -> String {
    format!("{NOTE_PREFIX}{note_id}")
}

/// Returns the note id of an index deeplink, if it is a note's.
pub fn note_id_of(deeplink: &str) -> Option<&str> {
    deeplink.strip_prefix(NOTE_PREFIX)
}

/// A note as of one of its events: what the index needs of it.
struct NoteState {
    owner: String,
    notebook_id: String,
    note_id: String,
    name: String,
    body: Option<String>,
    snippet: Option<SnippetSource>,
    created: i64,
}

impl NoteState {
    /// Applies one of the note's events; `None` once the note is deleted.
    fn apply(state: Option<NoteState>, event: NoteEvent, time: i64) -> Option<NoteState> {
        match event {
            NoteEvent::NoteCreated { user_id, notebook_id, note_id, name, body, snippet } => {
                Some(NoteState { owner: user_id, notebook_id, note_id, name, body, snippet, created: time })
            }
            NoteEvent::NoteEdited { name, body, .. } => state.map(|mut note| {
                if let Some(name) = name {
                    note.name = name;
                }
                if body.is_some() {
                    note.body = body;
                }
                note
            }),
            NoteEvent::NoteDeleted { .. } => None,
        }
    }

    /// The index entry: the body's text (one block a line), then the snippet's title when it is
    /// not the note's name; titled by the name, else the first line of the text.
    fn indexed(self, updated: i64) -> IndexedDocument {
        let mut text = self.body.as_deref().map(plain_text).unwrap_or_default();
        if let Some(title) = self.snippet.and_then(|s| s.title).filter(|t| *t != self.name) {
            text = if text.is_empty() { title } else { format!("{text}\n{title}") };
        }
        let title = match self.name.trim() {
            "" => text.lines().next().unwrap_or_default().to_string(),
            name => name.to_string(),
        };
        IndexedDocument {
            deeplink: note_deeplink(&self.note_id),
            source_id: self.notebook_id,
            owner: Some(self.owner),
            category: category::NOTES.to_string(),
            title,
            size: text.len() as u64,
            pages: vec![PageText { text, lines: vec![] }],
            published: Some(self.created),
            updated,
            attachments: 0,
            company: None,
            country: None,
            periods: vec![],
        }
    }
}

/// The time an event happened, as unix seconds.
fn event_time(event: &StoredEvent) -> i64 {
    let time = event.time();
    chrono::DateTime::parse_from_rfc3339(time).map(|t| t.timestamp()).unwrap_or(0)
}

#[derive(Clone)]
struct SourceInfo {
    kind: String,
    key: String,
}

pub struct Follower {
    index: Arc<SearchIndex>,
    db: Db,
    library: Arc<dyn Library>,
    sources: HashMap<String, SourceInfo>,
    /// Where newly ingested documents go once the index holds them (feeds match them there):
    /// the text is read once, for both.
    arrivals: Option<mpsc::Sender<Arrivals>>,
}

/// Documents first ingested in one committed batch, as the index holds them, with the cursor of
/// the batch's last event.
#[derive(Debug, Clone)]
pub struct Arrivals {
    pub documents: Vec<Arc<IndexedDocument>>,
    pub through: Cursor,
}

impl Follower {
    pub fn new(index: Arc<SearchIndex>, db: Db, library: Arc<dyn Library>) -> Follower {
        Follower { index, db, library, sources: HashMap::new(), arrivals: None }
    }

    /// Also hands each committed batch's newly ingested documents to `arrivals`. Sending waits
    /// when the receiver is behind, so the index never runs far ahead of what feeds have seen.
    pub fn with_arrivals(mut self, arrivals: mpsc::Sender<Arrivals>) -> Follower {
        self.arrivals = Some(arrivals);
        self
    }

    /// Follows the feed until `shutdown`, woken by `signal` and at least every second.
    pub async fn run(mut self, signal: FeedSignal, mut shutdown: watch::Receiver<bool>) {
        let mut wake = signal.subscribe();
        let mut failures = 0u32;
        loop {
            if *shutdown.borrow() {
                return;
            }
            wake.borrow_and_update();
            match self.step(BATCH).await {
                Ok(n) => {
                    failures = 0;
                    if n as i64 == BATCH {
                        continue;
                    }
                }
                Err(error) => {
                    failures += 1;
                    tracing::error!(error = %format!("{error:#}"), "search index step failed");
                    let backoff = Duration::from_millis(100 * 2u64.pow(failures.min(6)));
                    tokio::time::sleep(backoff).await;
                    continue;
                }
            }
            tokio::select! {
                _ = wake.changed() => {}
                _ = shutdown.changed() => {}
                _ = tokio::time::sleep(Duration::from_secs(1)) => {}
            }
        }
    }

    /// Applies everything up to the feed's head as of the call.
    pub async fn catch_up(&mut self) -> anyhow::Result<Cursor> {
        let target = feed::head(&self.db).await?;
        loop {
            let applied = self.step(BATCH).await?;
            let at = self.index.checkpoint();
            if applied == 0 || at >= target {
                return Ok(at);
            }
        }
    }

    /// Reads one batch after the checkpoint and applies it. Returns how many events it read.
    pub async fn step(&mut self, batch: i64) -> anyhow::Result<usize> {
        let from = self.index.checkpoint();
        let events = feed::read_after(&self.db, from, batch).await?;
        let Some(last) = events.last().map(|e| e.cursor) else {
            return Ok(0);
        };
        let mut changes = Vec::new();
        let mut arrived = Vec::new();
        for event in &events {
            if let Some(change) = self.change_for(event).await? {
                if let (Change::Upsert(document), "DocumentIngested") = (&change, event.event_type.as_str()) {
                    arrived.push(Arc::new((**document).clone()));
                }
                changes.push(change);
            }
        }
        if changes.is_empty() {
            // Nothing to write: move on without a commit. After a restart these events are read
            // again and skipped again.
            self.index.advance(last);
        } else {
            let n = changes.len();
            self.index.apply(changes, last).await?;
            tracing::debug!(changes = n, "search index committed");
        }
        if let (Some(arrivals), false) = (&self.arrivals, arrived.is_empty()) {
            if arrivals.send(Arrivals { documents: arrived, through: last }).await.is_err() {
                tracing::warn!("nothing receives arrivals any more");
                self.arrivals = None;
            }
        }
        Ok(events.len())
    }

    async fn change_for(&mut self, event: &StoredEvent) -> anyhow::Result<Option<Change>> {
        if event.aggregate_type == domain::source::Source::TYPE {
            if let Ok(SourceEvent::SourceRegistered { kind, key, .. }) = event.decode() {
                let kind: SourceKind = kind;
                self.sources.insert(event.aggregate_id.clone(), SourceInfo { kind: kind_name(&kind), key });
            }
            return Ok(None);
        }
        if event.aggregate_type == Note::TYPE {
            return self.note_change(event).await;
        }
        if event.aggregate_type == NotebookShelf::TYPE {
            // A deleted notebook takes its notes with it, without an event for each.
            if let Ok(NotebookEvent::NotebookDeleted { notebook_id, .. }) = event.decode() {
                return Ok(Some(Change::DeleteAll { source_id: notebook_id, category: category::NOTES.to_string() }));
            }
            return Ok(None);
        }
        if event.aggregate_type != domain::document::Document::TYPE {
            return Ok(None);
        }
        let deeplink = event.aggregate_id.clone();
        let updated = event_time(event);
        match event.decode::<DocumentEvent>()? {
            DocumentEvent::DocumentIngested(fields) | DocumentEvent::DocumentUpdated(fields) => {
                let document = self.describe(deeplink, fields, updated).await?;
                Ok(Some(Change::Upsert(Box::new(document))))
            }
            DocumentEvent::DocumentDeleted { .. } => Ok(Some(Change::Delete(deeplink))),
            DocumentEvent::DocumentShared { .. } => Ok(None),
        }
    }

    /// The index change for a note's event: the note as of that event, or its removal.
    async fn note_change(&self, event: &StoredEvent) -> anyhow::Result<Option<Change>> {
        let updated = event_time(event);
        let note = match event.decode::<NoteEvent>()? {
            NoteEvent::NoteDeleted { note_id, .. } => return Ok(Some(Change::Delete(note_deeplink(&note_id)))),
            created @ NoteEvent::NoteCreated { .. } => NoteState::apply(None, created, updated),
            NoteEvent::NoteEdited { .. } => {
                // Only what changed is carried: read the note back from its events up to this one.
                let mut note = None;
                for past in feed::read_aggregate(&self.db, Note::TYPE, &event.aggregate_id).await? {
                    if past.sequence > event.sequence {
                        break;
                    }
                    let time = event_time(&past);
                    note = NoteState::apply(note, serde_json::from_value(past.payload)?, time);
                }
                note
            }
        };
        Ok(note.map(|n| Change::Upsert(Box::new(n.indexed(updated)))))
    }

    async fn describe(
        &mut self,
        deeplink: String,
        fields: DocumentFields,
        updated: i64,
    ) -> anyhow::Result<IndexedDocument> {
        let source = self.source(&fields.source_id).await?;
        let (category, country) = self.place(source.as_ref(), &fields);
        let pages = self.library.pages(&fields).await?;
        let size = fields
            .metadata
            .get("size")
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| pages.iter().map(|p| p.text.len() as u64).sum());
        Ok(IndexedDocument {
            deeplink,
            source_id: fields.source_id.clone(),
            owner: fields.owner.clone(),
            category,
            title: fields.title.clone(),
            pages,
            published: Some(fields.published_at.map(|t| t.timestamp()).unwrap_or(updated)),
            updated,
            size,
            attachments: u64::from(fields.metadata.contains_key("mime_type")),
            company: fields.metadata.get("company_name").cloned(),
            country,
            periods: crate::periods::of_tags(&fields.metadata),
        })
    }

    /// The category tab (and country, for exchange filings) a document falls in.
    fn place(&self, source: Option<&SourceInfo>, fields: &DocumentFields) -> (String, Option<String>) {
        if fields.owner.is_some() {
            let tab = if fields.source_id == "ask_needl" { category::ATTACHMENTS } else { category::DRIVES };
            return (tab.to_string(), None);
        }
        match source {
            Some(s) if s.kind == "public" => {
                let country = self.library.country_of(&s.key);
                let tab = match country.as_deref() {
                    Some("IN") => category::INDIA,
                    Some("US") => category::US,
                    _ => category::EXCHANGES,
                };
                (tab.to_string(), country)
            }
            _ => (category::RSS_NEWS.to_string(), None),
        }
    }

    async fn source(&mut self, source_id: &str) -> anyhow::Result<Option<SourceInfo>> {
        if let Some(found) = self.sources.get(source_id) {
            return Ok(Some(found.clone()));
        }
        #[derive(sqlx::FromRow)]
        struct Row {
            kind: String,
            key: String,
        }
        let row: Option<Row> =
            self.db.fetch_optional("SELECT kind, key FROM sources_view WHERE source_id = $1", args![source_id]).await?;
        let info = row.map(|r| SourceInfo { kind: r.kind, key: r.key });
        if let Some(info) = &info {
            self.sources.insert(source_id.to_string(), info.clone());
        }
        Ok(info)
    }
}

fn kind_name(kind: &SourceKind) -> String {
    serde_json::to_value(kind).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default()
}
