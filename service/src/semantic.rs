//! The offline embedding model in this process, and the documents' embeddings it computed.
//!
//! Optional: without a model (`--embedding-model`, `NEEDL_EMBEDDING_MODEL`, or the folder
//! `scripts/setup` fills) the context holds no [`Semantic`] and AI feeds' topics match by the
//! keyword taxonomy. With one, every document is embedded once, after the search index holds it
//! (title and opening text, on a blocking thread, in batches), and its vector kept in an
//! [`embed::VectorStore`] beside the index. A changed topic is re-applied to those vectors
//! ([`embed::TopicModel::select`]): no document is embedded again for a rule change.
//!
//! Like the index, the store is derived: at start, documents without a vector are embedded in
//! the background ([`Semantic::backfill`]), so deleting the file rebuilds it.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock, RwLock};

use anyhow::Context as _;
use commands::args;
use commands::store::Db;
use embed::{Embedder, Selection, TopicModel, VectorStore};
use search::IndexedDocument;
use tokio::sync::watch;

use crate::ingestion::BlobStore;

/// How much of a document's text is embedded after its title: the model reads 256 tokens,
/// about this many characters of English.
pub const OPENING_CHARS: usize = 1200;
/// Documents embedded per step of the backfill.
const BACKFILL_BATCH: i64 = 64;
/// Below this many stored vectors a feed's topics are not adapted to the store: a handful of
/// documents says little about where a topic's documents lie.
pub const ADAPT_MIN: usize = 1_000;
/// The stored vectors a feed's topics are adapted to: evenly spaced rows, at most this many
/// (fitting the discriminant costs about `DIM² / 2` multiply-adds per vector and round).
pub const ADAPT_SAMPLE: usize = 4_000;
/// Rounds of [`TopicModel::adapt`] and of [`TopicModel::discriminate`], as measured on AG News
/// (docs/topics.md).
pub const ADAPT_ROUNDS: usize = 2;
pub const DISCRIMINANT_ROUNDS: usize = 3;
/// A fitted classifier is reused until the store has grown by one part in this many since its
/// fit.
const REFIT_PARTS: usize = 10;
/// Fitted classifiers, and selections, kept at most: beyond that all are dropped and made again
/// at their next read.
const KEPT: usize = 64;

/// A classifier fitted to the store, and the store's size then.
struct Fit {
    stored: usize,
    model: Arc<TopicModel>,
}

/// The model and the stored embeddings.
pub struct Semantic {
    embedder: Arc<Embedder>,
    store: Arc<RwLock<VectorStore>>,
    /// Embeddings of topic descriptions, by text: the same few are asked for at every read.
    descriptions: Mutex<HashMap<String, Vec<f32>>>,
    /// Feeds' classifiers fitted to the store, by the fingerprint of the model as defined: a
    /// feed read with the same definition and feedback reuses its fit.
    fits: Mutex<HashMap<u64, Fit>>,
    /// What each classifier selected among the stored vectors, by its fingerprint and topics
    /// wanted: a read classifies only the vectors stored since the last one.
    selections: Mutex<HashMap<(u64, Vec<usize>), Selection>>,
    /// Embeddings of recent search queries: paging through one search's results, or asking it
    /// again, embeds its query once.
    queries: Mutex<HashMap<String, Vec<f32>>>,
}

/// Search queries' embeddings kept at most; beyond that all are dropped.
const QUERIES_KEPT: usize = 256;

/// Models loaded in this process, by folder: servers started in one process (tests, benchmarks)
/// share one copy.
fn loaded() -> &'static Mutex<HashMap<PathBuf, Arc<Embedder>>> {
    static LOADED: OnceLock<Mutex<HashMap<PathBuf, Arc<Embedder>>>> = OnceLock::new();
    LOADED.get_or_init(Mutex::default)
}

/// The store's file in the data directory.
pub fn vectors_path(data_dir: &Path) -> PathBuf {
    data_dir.join("vectors").join("embeddings.bin")
}

/// What is embedded of a document: its title and the opening of its text.
pub fn embedding_text(title: &str, body: &str) -> String {
    let body = body.trim();
    let end = body.char_indices().nth(OPENING_CHARS).map_or(body.len(), |(i, _)| i);
    format!("{}\n{}", title.trim(), &body[..end])
}

impl Semantic {
    /// Loads the model in `model_dir` (once per process) and opens the store in `data_dir`. A
    /// store file that cannot be read is set aside and rebuilt.
    pub async fn open(model_dir: &Path, data_dir: &Path) -> anyhow::Result<Arc<Semantic>> {
        let model_dir = model_dir.to_path_buf();
        let path = vectors_path(data_dir);
        let (embedder, store) = tokio::task::spawn_blocking(move || -> anyhow::Result<_> {
            let cached = loaded().lock().expect("model cache").get(&model_dir).cloned();
            let embedder = match cached {
                Some(e) => e,
                None => {
                    let e = Arc::new(
                        Embedder::load(&model_dir)
                            .with_context(|| format!("loading the embedding model in {}", model_dir.display()))?,
                    );
                    loaded().lock().expect("model cache").insert(model_dir, e.clone());
                    e
                }
            };
            let store = match VectorStore::open(&path) {
                Ok(store) => store,
                Err(error) => {
                    tracing::warn!(%error, "stored embeddings unreadable: setting them aside, they are rebuilt");
                    std::fs::rename(&path, path.with_extension("unreadable"))?;
                    VectorStore::open(&path)?
                }
            };
            Ok((embedder, store))
        })
        .await??;
        Ok(Arc::new(Semantic {
            embedder,
            store: Arc::new(RwLock::new(store)),
            descriptions: Mutex::default(),
            fits: Mutex::default(),
            selections: Mutex::default(),
            queries: Mutex::default(),
        }))
    }

    /// How many documents have a stored embedding.
    pub fn stored(&self) -> usize {
        self.store.read().expect("vector store").len()
    }

    /// The stored embedding of a document.
    pub fn vector(&self, deeplink: &str) -> Option<Vec<f32>> {
        self.store.read().expect("vector store").get(deeplink).map(<[f32]>::to_vec)
    }

    /// Embeds texts on a blocking thread.
    pub async fn embed(&self, texts: Vec<String>) -> anyhow::Result<Vec<Vec<f32>>> {
        let embedder = self.embedder.clone();
        Ok(tokio::task::spawn_blocking(move || {
            let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
            embedder.embed(&refs)
        })
        .await??)
    }

    /// The embedding of a topic's description (computed once per text and process).
    pub async fn describe(&self, text: &str) -> anyhow::Result<Vec<f32>> {
        if let Some(v) = self.descriptions.lock().expect("descriptions").get(text) {
            return Ok(v.clone());
        }
        let v = self.embed(vec![text.to_string()]).await?.remove(0);
        self.descriptions.lock().expect("descriptions").insert(text.to_string(), v.clone());
        Ok(v)
    }

    /// Embeds and stores `(deeplink, text)` pairs.
    pub async fn store(&self, items: Vec<(String, String)>) -> anyhow::Result<()> {
        if items.is_empty() {
            return Ok(());
        }
        let (keys, texts): (Vec<String>, Vec<String>) = items.into_iter().unzip();
        let vectors = self.embed(texts).await?;
        let store = self.store.clone();
        let items: Vec<(String, Vec<f32>)> = keys.into_iter().zip(vectors).collect();
        tokio::task::spawn_blocking(move || store.write().expect("vector store").insert(&items)).await??;
        Ok(())
    }

    /// Embeds and stores documents the index has just taken in.
    pub async fn store_arrivals(&self, documents: &[Arc<IndexedDocument>]) -> anyhow::Result<()> {
        let items = documents
            .iter()
            .map(|d| {
                // Only the opening is embedded: join pages until it is surely there (a char is
                // at most 4 bytes), not a long filing's whole text.
                let mut body = String::new();
                for page in &d.pages {
                    if body.len() >= OPENING_CHARS * 4 {
                        break;
                    }
                    body.push_str(&page.text);
                    body.push('\n');
                }
                (d.deeplink.clone(), embedding_text(&d.title, &body))
            })
            .collect();
        self.store(items).await
    }

    /// `model` adapted to the stored vectors (at least [`ADAPT_MIN`]; a sample of at most
    /// [`ADAPT_SAMPLE`]): [`TopicModel::adapt`], then [`TopicModel::discriminate`], on a blocking
    /// thread. A fit is kept per model as defined and reused until the store has grown by a
    /// tenth; with fewer vectors stored the model is used as defined.
    pub async fn fitted(&self, model: TopicModel) -> anyhow::Result<Arc<TopicModel>> {
        let stored = self.stored();
        if stored < ADAPT_MIN {
            return Ok(Arc::new(model));
        }
        let key = model.fingerprint();
        if let Some(fit) = self.fits.lock().expect("fits").get(&key) {
            if stored * REFIT_PARTS < fit.stored * (REFIT_PARTS + 1) {
                return Ok(fit.model.clone());
            }
        }
        let store = self.store.clone();
        let (model, stored) = tokio::task::spawn_blocking(move || {
            let sample: Vec<Vec<f32>> = {
                let store = store.read().expect("vector store");
                let step = store.len().div_ceil(ADAPT_SAMPLE).max(1);
                store.matrix().chunks_exact(embed::DIM).step_by(step).map(<[f32]>::to_vec).collect()
            };
            let mut model = model;
            model.adapt(&sample, ADAPT_ROUNDS);
            model.discriminate(&sample, DISCRIMINANT_ROUNDS);
            (Arc::new(model), stored)
        })
        .await?;
        let mut fits = self.fits.lock().expect("fits");
        if fits.len() >= KEPT {
            fits.clear();
        }
        fits.insert(key, Fit { stored, model: model.clone() });
        Ok(model)
    }

    /// The deeplinks of every stored document `model` classifies into one of the topics at
    /// positions `wanted`, on a blocking thread. The selection is kept per classifier: a read
    /// classifies only the vectors stored since the last read (all of them after a vector was
    /// replaced), not the whole store again.
    pub async fn select(&self, model: Arc<TopicModel>, wanted: Vec<usize>) -> anyhow::Result<Vec<String>> {
        let key = (model.fingerprint(), wanted.clone());
        let kept = self.selections.lock().expect("selections").remove(&key).unwrap_or_default();
        let store = self.store.clone();
        let (deeplinks, selection) = tokio::task::spawn_blocking(move || {
            let store = store.read().expect("vector store");
            let mut selection = kept;
            selection.update(&store, &model, &wanted);
            let deeplinks: Vec<String> = selection.rows().iter().map(|row| store.key(*row).to_string()).collect();
            (deeplinks, selection)
        })
        .await?;
        let mut selections = self.selections.lock().expect("selections");
        if selections.len() >= KEPT {
            selections.clear();
        }
        selections.insert(key, selection);
        Ok(deeplinks)
    }

    /// The embedding of a search query, on the calling thread (a blocking one: this is the
    /// model's forward pass), kept for the next pages of the same search.
    fn query_vector(&self, query: &str) -> anyhow::Result<Vec<f32>> {
        if let Some(v) = self.queries.lock().expect("queries").get(query) {
            return Ok(v.clone());
        }
        let v = self.embedder.embed_one(query)?;
        let mut queries = self.queries.lock().expect("queries");
        if queries.len() >= QUERIES_KEPT {
            queries.clear();
        }
        queries.insert(query.to_string(), v.clone());
        Ok(v)
    }

    /// Embeds, in the background, every document that has no stored embedding yet (after an
    /// upgrade, or with the store's file deleted), in batches by deeplink, until done or
    /// `shutdown`. Returns how many were embedded.
    pub async fn backfill(
        &self,
        db: &Db,
        blobs: &BlobStore,
        mut shutdown: watch::Receiver<bool>,
    ) -> anyhow::Result<usize> {
        #[derive(sqlx::FromRow)]
        struct Row {
            deeplink: String,
            title: String,
            summary: Option<String>,
            content_hash: String,
        }
        let (mut after, mut done) = (String::new(), 0);
        loop {
            if *shutdown.borrow_and_update() {
                return Ok(done);
            }
            let rows: Vec<Row> = db
                .fetch_all(
                    "SELECT deeplink, title, summary, content_hash FROM documents_view \
                     WHERE deeplink > $1 ORDER BY deeplink LIMIT $2",
                    args![after.as_str(), BACKFILL_BATCH],
                )
                .await?;
            let Some(last) = rows.last() else { return Ok(done) };
            after = last.deeplink.clone();
            let mut items = Vec::new();
            for row in rows {
                if self.store.read().expect("vector store").contains(&row.deeplink) {
                    continue;
                }
                let text = match blobs.get(&row.content_hash).await {
                    Some(text) => text.replace('\u{c}', "\n"),
                    None => row.summary.unwrap_or_default(),
                };
                items.push((row.deeplink, embedding_text(&row.title, &text)));
            }
            done += items.len();
            self.store(items).await?;
        }
    }
}

/// Search ranks its keyword matches with the stored embeddings (`search::hybrid`): the query is
/// embedded here and compared with each match's stored vector.
impl search::Similarity for Semantic {
    fn similarities(&self, query: &str, deeplinks: &[String]) -> Option<Vec<Option<f32>>> {
        let q = match self.query_vector(query) {
            Ok(q) => q,
            Err(error) => {
                tracing::warn!(%error, "a search query could not be embedded: ranked by its keywords alone");
                return None;
            }
        };
        let store = self.store.read().expect("vector store");
        Some(deeplinks.iter().map(|d| store.get(d).map(|v| embed::dot(&q, v))).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_text_is_the_title_and_the_opening() {
        let body = "é".repeat(OPENING_CHARS + 50);
        let text = embedding_text(" Title ", &body);
        assert!(text.starts_with("Title\n"));
        assert_eq!(text.chars().count(), "Title\n".len() + OPENING_CHARS);
        assert_eq!(embedding_text("T", "  short  "), "T\nshort");
    }
}
