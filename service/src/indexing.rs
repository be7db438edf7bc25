//! The search index in this process: where documents' text comes from, opening the index in the
//! data directory and starting the task that follows the feed into it.

use std::path::Path;
use std::sync::Arc;

use async_trait::async_trait;
use commands::feed::FeedSignal;
use commands::Db;
use domain::document::DocumentFields;
use ingest::catalogue::SourceGroup;
use search::{Follower, Line, PageText, SearchIndex};
use tokio::sync::watch;

use crate::ingestion::BlobStore;

/// Text from the blob store (with the page layout where extraction kept one), countries from the
/// catalogue (and the US for companies followed on EDGAR).
pub struct BlobLibrary {
    blobs: BlobStore,
    catalogue: Arc<ingest::Catalogue>,
}

impl BlobLibrary {
    pub fn new(blobs: BlobStore, catalogue: Arc<ingest::Catalogue>) -> BlobLibrary {
        BlobLibrary { blobs, catalogue }
    }
}

#[async_trait]
impl search::Library for BlobLibrary {
    async fn pages(&self, fields: &DocumentFields) -> anyhow::Result<Vec<PageText>> {
        if let Some(hash) = fields.metadata.get("layout_blob") {
            // A bucket that does not answer fails the batch, which the index follower retries:
            // a document is never indexed without its text.
            if let Some(stored) = self.blobs.try_get(hash).await? {
                if let Ok(extracted) = serde_json::from_str::<extract::Extracted>(&stored) {
                    return Ok(extracted
                        .pages
                        .into_iter()
                        .map(|p| PageText {
                            text: p.text,
                            lines: p.blocks.into_iter().map(|b| Line { text: b.text, bbox: b.bbox }).collect(),
                        })
                        .collect());
                }
            }
        }
        // Pages of stored text are joined by form feeds (see `drive::record`).
        Ok(match self.blobs.try_get(&fields.content_hash).await? {
            Some(text) => text.split('\u{c}').map(|p| PageText { text: p.trim().to_string(), lines: vec![] }).collect(),
            None => vec![],
        })
    }

    fn country_of(&self, key: &str) -> Option<String> {
        if crate::filings::edgar::is_edgar_source(key) {
            return Some("US".to_string());
        }
        match self.catalogue.get(key)?.group? {
            SourceGroup::IndianCapitalMarkets => Some("IN".to_string()),
            SourceGroup::UsCapitalMarkets => Some("US".to_string()),
        }
    }
}

/// The index's folder in the data directory.
pub fn index_dir(data_dir: &Path) -> std::path::PathBuf {
    data_dir.join("search")
}

/// How many committed batches of new documents may wait for the feed matcher.
const ARRIVALS_BUFFER: usize = 16;

/// Opens the index and starts following the feed into it. Newly ingested documents are handed,
/// once the index holds them, to the receiver returned (the feed matcher).
pub fn start(
    db: &Db,
    data_dir: &Path,
    blobs: BlobStore,
    catalogue: Arc<ingest::Catalogue>,
    signal: &FeedSignal,
    shutdown: watch::Receiver<bool>,
) -> anyhow::Result<(Arc<SearchIndex>, tokio::task::JoinHandle<()>, tokio::sync::mpsc::Receiver<search::Arrivals>)> {
    let index = Arc::new(SearchIndex::open(&index_dir(data_dir), 1)?);
    let (arrivals, received) = tokio::sync::mpsc::channel(ARRIVALS_BUFFER);
    let follower =
        Follower::new(index.clone(), db.clone(), Arc::new(BlobLibrary::new(blobs, catalogue))).with_arrivals(arrivals);
    let task = tokio::spawn(follower.run(signal.clone(), shutdown));
    Ok((index, task, received))
}
