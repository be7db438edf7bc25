//! The index on disk: one writer (behind a lock, used off the async runtime), one reader for the
//! process, and the feed position it has reached, kept in each commit's payload so that a crash
//! loses nothing and applies nothing twice.

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::Context;
use commands::feed::Cursor;
use serde::{Deserialize, Serialize};
use tantivy::query::{BooleanQuery, Occur, Query, TermQuery};
use tantivy::schema::{IndexRecordOption, Value};
use tantivy::tokenizer::TextAnalyzer;
use tantivy::{doc, Index, IndexReader, IndexWriter, ReloadPolicy, Searcher, TantivyDocument, Term};
use tokio::sync::watch;

use crate::passages::{passages, table_rows, PageText};
use crate::schema::{self, Fields, ENGLISH, SHARED, WORDS};

/// Bumped whenever the schema, the analysis or what the index holds changes: an index of another
/// version is rebuilt from the feed. (3: users' notes are indexed, so notes written before are
/// picked up by the rebuild. 4: each table row is also a passage of its own, under its headers.
/// 5: documents carry the periods they cover.)
pub const SCHEMA_VERSION: u32 = 5;

/// What the index holds of one document.
#[derive(Debug, Clone, Default)]
pub struct IndexedDocument {
    pub deeplink: String,
    pub source_id: String,
    /// The owning user (uploads), `None` for documents of shared sources.
    pub owner: Option<String>,
    pub category: String,
    pub title: String,
    pub pages: Vec<PageText>,
    pub published: Option<i64>,
    pub updated: i64,
    pub size: u64,
    pub attachments: u64,
    pub company: Option<String>,
    pub country: Option<String>,
    /// The periods the document covers, as [`crate::periods`] writes them ("2018", "2023q3").
    pub periods: Vec<String>,
}

/// One change to the index, in feed order.
#[derive(Debug, Clone)]
pub enum Change {
    Upsert(Box<IndexedDocument>),
    Delete(String),
    /// Removes every entry of one source in one category: a deleted notebook's notes.
    DeleteAll {
        source_id: String,
        category: String,
    },
}

#[derive(Serialize, Deserialize)]
struct Payload {
    schema: u32,
    tx: i64,
    pos: i64,
}

/// One tantivy index with its writer and reader.
struct Part {
    index: Index,
    reader: IndexReader,
    writer: Mutex<IndexWriter>,
}

/// Documents and passages live in two tantivy indexes, not one: BM25 takes a field's average
/// length over every entry of its index, so passages beside documents would make every document
/// look longer than average (SciFact nDCG@10 0.603 in one index against 0.6xx in two).
pub struct SearchIndex {
    documents: Part,
    passages: Part,
    fields: Fields,
    applied: watch::Sender<Cursor>,
}

/// Memory the writer may buffer before it writes a segment.
const WRITER_BUDGET: usize = 64 * 1024 * 1024;

impl SearchIndex {
    /// Opens the index in `dir`, creating it, or recreating it empty when it was built with
    /// another schema version (the follower then replays the feed into it).
    pub fn open(dir: &Path, threads: usize) -> anyhow::Result<SearchIndex> {
        commands::private::create_dir(dir).context("creating the search index folder")?;
        let (schema, _) = schema::schema();
        let parts = [dir.join("documents"), dir.join("passages")];
        let mut current = true;
        for part in &parts {
            commands::private::create_dir(part)?;
            let directory = tantivy::directory::MmapDirectory::open(part)?;
            if Index::exists(&directory)? {
                let index = Index::open(directory)?;
                current &= read_payload(&index)?.map(|p| p.schema) == Some(SCHEMA_VERSION) && index.schema() == schema;
            }
        }
        if !current || dir.join("meta.json").exists() {
            tracing::warn!(dir = %dir.display(), "search index of another version: rebuilding it from the event feed");
            std::fs::remove_dir_all(dir)?;
        }
        let mut opened = Vec::new();
        for part in &parts {
            commands::private::create_dir(part)?;
            let directory = tantivy::directory::MmapDirectory::open(part)?;
            opened.push(if Index::exists(&directory)? {
                Index::open(directory)?
            } else {
                Index::create(directory, schema.clone(), tantivy::IndexSettings::default())?
            });
        }
        let passages = opened.pop().expect("two parts");
        let documents = opened.pop().expect("two parts");
        SearchIndex::with_indexes(documents, passages, threads)
    }

    /// An index in memory, for tests and benchmarks.
    pub fn in_memory(threads: usize) -> anyhow::Result<SearchIndex> {
        let (schema, _) = schema::schema();
        SearchIndex::with_indexes(Index::create_in_ram(schema.clone()), Index::create_in_ram(schema), threads)
    }

    fn with_indexes(documents: Index, passages: Index, threads: usize) -> anyhow::Result<SearchIndex> {
        let (_, fields) = schema::schema();
        // A crash between the two commits leaves one part ahead: start from the one behind (a
        // replay deletes before it adds, so the part ahead is not doubled).
        let at = [&documents, &passages]
            .into_iter()
            .map(|i| read_payload(i).map(|p| p.map(|p| Cursor { tx: p.tx, pos: p.pos }).unwrap_or_default()))
            .collect::<anyhow::Result<Vec<_>>>()?
            .into_iter()
            .min()
            .unwrap_or_default();
        let part = |index: Index, threads: usize| -> anyhow::Result<Part> {
            schema::register(&index);
            let writer = index.writer_with_num_threads(threads.max(1), WRITER_BUDGET * threads.max(1))?;
            let reader = index.reader_builder().reload_policy(ReloadPolicy::Manual).try_into()?;
            Ok(Part { index, reader, writer: Mutex::new(writer) })
        };
        Ok(SearchIndex {
            documents: part(documents, threads)?,
            passages: part(passages, threads)?,
            fields,
            applied: watch::channel(at).0,
        })
    }

    pub fn fields(&self) -> &Fields {
        &self.fields
    }

    /// A searcher over the documents' last commit: one per request.
    pub fn searcher(&self) -> Searcher {
        self.documents.reader.searcher()
    }

    /// A searcher over the passages' last commit.
    pub fn passage_searcher(&self) -> Searcher {
        self.passages.reader.searcher()
    }

    /// The English analyzer, as registered: queries are read with what documents were indexed with.
    pub(crate) fn english(&self) -> TextAnalyzer {
        self.documents.index.tokenizers().get(ENGLISH).expect("registered when the index opens")
    }

    /// The analyzer of the typed words spelling correction draws from.
    pub(crate) fn words(&self) -> TextAnalyzer {
        self.documents.index.tokenizers().get(WORDS).expect("registered when the index opens")
    }

    /// The feed position the index includes.
    pub fn checkpoint(&self) -> Cursor {
        *self.applied.borrow()
    }

    /// Waits until the index includes the event at `cursor`, or `timeout` passes.
    pub async fn wait_for(&self, cursor: Cursor, timeout: Duration) -> bool {
        let mut rx = self.applied.subscribe();
        tokio::time::timeout(timeout, rx.wait_for(|at| *at >= cursor)).await.map(|r| r.is_ok()).unwrap_or(false)
    }

    /// Moves the checkpoint past events that change nothing here, without a commit.
    pub fn advance(&self, to: Cursor) {
        self.applied.send_if_modified(|at| {
            let moved = to > *at;
            if moved {
                *at = to;
            }
            moved
        });
    }

    /// Applies `changes` and commits them with `through` as the new checkpoint, on a blocking
    /// thread. Deleting by deeplink before adding makes a replay after a crash harmless.
    pub async fn apply(self: &Arc<Self>, changes: Vec<Change>, through: Cursor) -> anyhow::Result<()> {
        let this = self.clone();
        tokio::task::spawn_blocking(move || this.apply_blocking(changes, Some(through))).await??;
        Ok(())
    }

    pub fn apply_blocking(&self, changes: Vec<Change>, through: Option<Cursor>) -> anyhow::Result<()> {
        let poisoned = || anyhow::anyhow!("search index writer poisoned");
        let mut documents = self.documents.writer.lock().map_err(|_| poisoned())?;
        let mut passages = self.passages.writer.lock().map_err(|_| poisoned())?;
        for change in changes {
            let deeplink = match &change {
                Change::Delete(deeplink) => deeplink.clone(),
                Change::Upsert(document) => document.deeplink.clone(),
                Change::DeleteAll { source_id, category } => {
                    for writer in [&mut documents, &mut passages] {
                        writer.delete_query(Box::new(BooleanQuery::new(vec![
                            (Occur::Must, term_query(self.fields.source_id, source_id)),
                            (Occur::Must, term_query(self.fields.category, category)),
                        ])))?;
                    }
                    continue;
                }
            };
            documents.delete_term(Term::from_field_text(self.fields.deeplink, &deeplink));
            passages.delete_term(Term::from_field_text(self.fields.deeplink, &deeplink));
            if let Change::Upsert(document) = change {
                let (entry, parts) = self.entries(&document);
                documents.add_document(entry)?;
                for passage in parts {
                    passages.add_document(passage)?;
                }
            }
        }
        let at = through.unwrap_or_else(|| self.checkpoint());
        let payload = serde_json::to_string(&Payload { schema: SCHEMA_VERSION, tx: at.tx, pos: at.pos })?;
        // Passages first: a document is never findable without its passages.
        for writer in [&mut passages, &mut documents] {
            let mut prepared = writer.prepare_commit()?;
            prepared.set_payload(&payload);
            prepared.commit()?;
        }
        drop((documents, passages));
        self.passages.reader.reload()?;
        self.documents.reader.reload()?;
        self.applied.send_replace(at);
        Ok(())
    }

    /// Empties the index and its checkpoint (`needl rebuild search`).
    pub fn reset(&self) -> anyhow::Result<()> {
        let payload = serde_json::to_string(&Payload { schema: SCHEMA_VERSION, tx: 0, pos: 0 })?;
        for part in [&self.passages, &self.documents] {
            let mut writer = part.writer.lock().map_err(|_| anyhow::anyhow!("search index writer poisoned"))?;
            writer.delete_all_documents()?;
            let mut prepared = writer.prepare_commit()?;
            prepared.set_payload(&payload);
            prepared.commit()?;
            drop(writer);
            part.reader.reload()?;
        }
        self.applied.send_replace(Cursor::default());
        Ok(())
    }

    /// The document entry and the passage entries of one document.
    fn entries(&self, d: &IndexedDocument) -> (TantivyDocument, Vec<TantivyDocument>) {
        let f = &self.fields;
        let owner = d.owner.as_deref().unwrap_or(SHARED);
        let content = content_of(d);
        let mut document = doc!(
            f.deeplink => d.deeplink.as_str(),
            f.source_id => d.source_id.as_str(),
            f.owner => owner,
            f.category => d.category.as_str(),
            f.title => d.title.as_str(),
            f.words => content.clone(),
            f.content => content,
            f.updated => d.updated,
            f.size => d.size,
            f.attachments => d.attachments,
        );
        if let Some(published) = d.published {
            document.add_i64(f.published, published);
        }
        if let Some(company) = d.company.as_deref().filter(|c| !c.is_empty()) {
            document.add_text(f.company, company);
        }
        if let Some(country) = d.country.as_deref().filter(|c| !c.is_empty()) {
            document.add_text(f.country, country);
        }
        for period in &d.periods {
            document.add_text(f.period, period);
        }
        let mut out = Vec::new();
        let blocks = passages(&d.pages);
        let rows = table_rows(&d.pages, blocks.len() as u32);
        for p in blocks.into_iter().chain(rows) {
            let mut passage = doc!(
                f.deeplink => d.deeplink.as_str(),
                f.source_id => d.source_id.as_str(),
                f.owner => owner,
                f.category => d.category.as_str(),
                f.title => d.title.as_str(),
                f.text => p.text,
                f.updated => d.updated,
                f.ordinal => p.ordinal as u64,
                f.page => p.page as u64,
                f.start => p.start as u64,
                f.end => p.end as u64,
                f.boxes => serde_json::to_string(&p.boxes).unwrap_or_else(|_| "[]".into()),
            );
            if let Some(published) = d.published {
                passage.add_i64(f.published, published);
            }
            if p.table_row {
                passage.add_u64(f.table_row, 1);
            }
            out.push(passage);
        }
        (document, out)
    }

    /// Number of documents in the last commit.
    pub fn documents(&self) -> u64 {
        self.searcher().num_docs()
    }

    /// Number of passages in the last commit.
    pub fn passages(&self) -> u64 {
        self.passage_searcher().num_docs()
    }

    /// The texts of the passages of `deeplink` from `ordinal - count` up to (not including)
    /// `ordinal`, in order: what a passage continues (a table whose header an earlier passage
    /// holds). Table rows read on their own are numbered after every passage of the page's text
    /// and are never among them. Empty for an unknown document; the caller has already been
    /// allowed to read it.
    pub fn passages_before(&self, deeplink: &str, ordinal: u32, count: u32) -> anyhow::Result<Vec<String>> {
        let from = ordinal.saturating_sub(count) as u64;
        if from >= ordinal as u64 {
            return Ok(Vec::new());
        }
        let f = &self.fields;
        let searcher = self.passage_searcher();
        let found = searcher.search(term_query(f.deeplink, deeplink).as_ref(), &tantivy::collector::DocSetCollector)?;
        let mut out: Vec<(u64, String)> = Vec::new();
        for address in found {
            let doc: TantivyDocument = searcher.doc(address)?;
            let at = Self::stored_u64(&doc, f.ordinal).unwrap_or(u64::MAX);
            if (from..ordinal as u64).contains(&at) && Self::stored_u64(&doc, f.table_row).is_none() {
                out.push((at, Self::stored_text(&doc, f.text).unwrap_or_default()));
            }
        }
        out.sort();
        Ok(out.into_iter().map(|(_, text)| text).collect())
    }

    /// Reads a stored text field of a stored document.
    pub(crate) fn stored_text(doc: &TantivyDocument, field: tantivy::schema::Field) -> Option<String> {
        doc.get_first(field).and_then(|v| v.as_str()).map(str::to_string)
    }

    pub(crate) fn stored_u64(doc: &TantivyDocument, field: tantivy::schema::Field) -> Option<u64> {
        doc.get_first(field).and_then(|v| v.as_u64())
    }
}

/// The text a document entry's `content` (and `words`) field holds: the title, then each
/// page's text. Keyword rules are evaluated on exactly this text, by the index and by the rule
/// matcher alike.
pub fn content_of(d: &IndexedDocument) -> String {
    let body: String = d.pages.iter().map(|p| p.text.as_str()).collect::<Vec<_>>().join("\n\n");
    format!("{}\n\n{}", d.title, body)
}

fn term_query(field: tantivy::schema::Field, text: &str) -> Box<dyn Query> {
    Box::new(TermQuery::new(Term::from_field_text(field, text), IndexRecordOption::Basic))
}

fn read_payload(index: &Index) -> anyhow::Result<Option<Payload>> {
    let metas = index.load_metas()?;
    Ok(metas.payload.as_deref().and_then(|p| serde_json::from_str(p).ok()))
}
