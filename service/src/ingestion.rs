//! The ingestion loop: leases due sources, fetches them through the `ingest` connectors, keeps
//! each item's text in the blob store and records it as a document command.
//!
//! Fetch bookkeeping lives in `source_fetch_state` (ETag, failures, next attempt, lease), not in
//! events. Several nodes on one Postgres share the work: a node leases a batch of due sources
//! (`FOR UPDATE SKIP LOCKED`), so each source is fetched by one node at a time.

use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use chrono::Utc;
use commands::args;
use commands::store::Backend;
use commands::{CommandBus, Db};
use domain::document::{DocumentCommand, DocumentFields};
use domain::source::SourceCommand;
use domain::EventMetadata;
use ingest::fetch::Scheduler;
use ingest::{
    Connector, FeedConnector, FetchOutcome, FetchPolicy, FetchState, Fetcher, IngestedItem, SourceDef, WebConnector,
};
use sha2::{Digest, Sha256};
use tokio::sync::watch;

use crate::filings::sync::FilingSync;
use crate::sql::stamp as ts;

pub use crate::blobs::BlobStore;

/// Returns a document's deeplink: stable for one item of one source.
pub fn deeplink(source_id: &str, guid: &str) -> String {
    let digest = Sha256::digest(format!("{source_id}\n{guid}").as_bytes());
    format!("doc_{}", hex::encode(&digest[..12]))
}

/// How many sources are fetched at once by one node.
pub const PARALLEL_FETCHES: usize = 8;

/// A leased source to fetch.
#[derive(Debug, sqlx::FromRow)]
struct DueSource {
    source_id: String,
    kind: String,
    url: Option<String>,
    etag: Option<String>,
    last_modified: Option<String>,
    failures: i64,
}

pub struct Ingestion {
    db: Db,
    bus: Arc<CommandBus>,
    feeds: FeedConnector,
    web: WebConnector,
    scheduler: Scheduler,
    blobs: BlobStore,
    /// This process's name in leases.
    node: String,
    /// How long a lease lasts: a node that dies mid-fetch frees its sources after this.
    lease: Duration,
    /// Companies followed on EDGAR and exchange listings, when this node reads them (a company
    /// that files is made due at once by [`crate::filings::watch`]).
    filings: Option<Arc<FilingSync>>,
}

impl Ingestion {
    pub fn new(
        db: Db,
        bus: Arc<CommandBus>,
        blobs: BlobStore,
        policy: FetchPolicy,
        interval: Duration,
    ) -> anyhow::Result<Self> {
        let fetcher = Arc::new(Fetcher::new(policy).map_err(|e| anyhow::anyhow!("{e}"))?);
        Ok(Self {
            db,
            bus,
            feeds: FeedConnector::new(fetcher.clone()),
            web: WebConnector::new(fetcher),
            scheduler: Scheduler { interval, ..Scheduler::default() },
            blobs,
            node: format!("{}-{}", std::process::id(), uuid::Uuid::new_v4().simple()),
            lease: Duration::from_secs(300),
            filings: None,
        })
    }

    /// Reads filings sources through `sync`.
    pub fn with_filings(mut self, sync: Arc<FilingSync>) -> Self {
        self.filings = Some(sync);
        self
    }

    /// Fetches due sources until shutdown. Each fetch runs on its own, at most
    /// [`PARALLEL_FETCHES`] at a time, so one slow source (a host that never answers) holds up no
    /// other; free slots are filled from the due sources every second.
    pub async fn run(self: Arc<Self>, mut shutdown: watch::Receiver<bool>) {
        let slots = Arc::new(tokio::sync::Semaphore::new(PARALLEL_FETCHES));
        loop {
            let free = slots.available_permits();
            if free > 0 {
                match self.claim(free as i64).await {
                    Ok(due) => {
                        for source in due {
                            let Ok(slot) = slots.clone().acquire_owned().await else {
                                return;
                            };
                            let this = self.clone();
                            tokio::spawn(async move {
                                this.fetch_one(source).await;
                                drop(slot);
                            });
                        }
                    }
                    Err(error) => {
                        tracing::warn!(error = %format!("{error:#}"), "could not lease due sources")
                    }
                }
            }
            tokio::select! {
                _ = tokio::time::sleep(Duration::from_secs(1)) => {}
                _ = shutdown.wait_for(|s| *s) => return,
            }
        }
    }

    async fn claim(&self, max: i64) -> anyhow::Result<Vec<DueSource>> {
        let now = Utc::now();
        let lock = match self.db.backend() {
            Backend::Postgres => "FOR UPDATE OF f SKIP LOCKED",
            Backend::Sqlite => "",
        };
        let mut tx = self.db.begin().await?;
        #[derive(sqlx::FromRow)]
        struct Leased {
            source_id: String,
        }
        let leased: Vec<Leased> = tx
            .fetch_all(
                &format!(
                    "UPDATE source_fetch_state SET lease_owner = $1, lease_until = $2 WHERE source_id IN \
                     (SELECT f.source_id FROM source_fetch_state f \
                      WHERE f.next_attempt_at <= $3 AND (f.lease_until IS NULL OR f.lease_until < $3) \
                      AND EXISTS (SELECT 1 FROM subscriptions_view s WHERE s.source_id = f.source_id) \
                      ORDER BY f.next_attempt_at LIMIT $4 {lock}) \
                     RETURNING source_id"
                ),
                args![self.node.as_str(), ts(now + chrono::Duration::from_std(self.lease)?), ts(now), max],
            )
            .await?;
        tx.commit().await?;
        let mut due = Vec::new();
        for l in leased {
            let row: Option<DueSource> = self
                .db
                .fetch_optional(
                    "SELECT f.source_id, s.kind, s.url, f.etag, f.last_modified, f.failures \
                     FROM source_fetch_state f JOIN sources_view s ON s.source_id = f.source_id \
                     WHERE f.source_id = $1",
                    args![l.source_id],
                )
                .await?;
            due.extend(row);
        }
        Ok(due)
    }

    async fn fetch_one(&self, source: DueSource) {
        let outcome = self.fetch_and_record(&source).await;
        let now = Utc::now();
        let failures = source.failures + 1;
        // Both candidate times up front: the thread-local generator must not live across an await.
        let (after_success, after_failure) = {
            let mut rng = rand::rng();
            (self.scheduler.after_success(now, &mut rng), self.scheduler.after_failure(failures as u32, now, &mut rng))
        };
        let result = match outcome {
            // A source read, with the items it could not read (filings) shown as its error.
            Ok((state, problems)) => {
                self.db
                    .execute(
                        "UPDATE source_fetch_state SET etag = $2, last_modified = $3, failures = 0, last_error = $6, \
                         last_fetched_at = $4, last_attempt_at = $4, next_attempt_at = $5, lease_owner = NULL, \
                         lease_until = NULL WHERE source_id = $1",
                        args![
                            source.source_id.as_str(),
                            state.etag,
                            state.last_modified,
                            ts(now),
                            ts(after_success),
                            problems
                        ],
                    )
                    .await
            }
            Err(error) => {
                tracing::info!(source = %source.source_id, failures, error = %format!("{error:#}"), "source fetch failed");
                self.db
                    .execute(
                        "UPDATE source_fetch_state SET failures = $2, last_error = $3, next_attempt_at = $4, \
                         last_attempt_at = $5, lease_owner = NULL, lease_until = NULL WHERE source_id = $1",
                        args![source.source_id.as_str(), failures, format!("{error:#}"), ts(after_failure), ts(now)],
                    )
                    .await
            }
        };
        if let Err(error) = result {
            tracing::warn!(source = %source.source_id, %error, "could not record a fetch");
        }
    }

    /// Fetches one source and records its items; returns the validators for the next fetch, and
    /// what could not be read of a source read in parts (a company's filings).
    async fn fetch_and_record(&self, source: &DueSource) -> anyhow::Result<(FetchState, Option<String>)> {
        let state = FetchState { etag: source.etag.clone(), last_modified: source.last_modified.clone() };
        if let Some(filings) = self.filings.as_ref().filter(|f| f.handles(&source.source_id)) {
            let report = filings.sync(&source.source_id, &state).await?;
            if report.recorded > 0 {
                tracing::info!(source = %source.source_id, documents = report.recorded, "filings recorded");
            }
            let problems = (!report.problems.is_empty()).then(|| report.problems.join("; "));
            return Ok((report.state, problems));
        }
        let url = source.url.as_deref().context("this source has no address to fetch")?;
        self.fetch_feed(source, url, state).await.map(|state| (state, None))
    }

    /// Fetches a feed or website and records its items; returns the validators for the next fetch.
    async fn fetch_feed(&self, source: &DueSource, url: &str, state: FetchState) -> anyhow::Result<FetchState> {
        let def = SourceDef {
            key: source.source_id.clone(),
            kind: if source.kind == "website" { ingest::SourceKind::Website } else { ingest::SourceKind::Feed },
            url: url.parse().context("the source's address is not a valid URL")?,
        };
        let connector: &dyn Connector = match def.kind {
            ingest::SourceKind::Website => &self.web,
            ingest::SourceKind::Feed => &self.feeds,
        };
        match connector.fetch(&def, &state).await? {
            FetchOutcome::NotModified => Ok(state),
            FetchOutcome::Fetched { items, state, title } => {
                if let Some(title) = title {
                    self.adopt_title(&source.source_id, title).await;
                }
                for item in items {
                    if let Err(error) = self.record(&source.source_id, item).await {
                        tracing::warn!(source = %source.source_id, error = %format!("{error:#}"), "item not recorded");
                    }
                }
                Ok(state)
            }
        }
    }

    /// Names the source by its feed's own title when it was only named by its host (the source
    /// decides; a label somebody chose stays). A failure is logged: it never fails the fetch.
    async fn adopt_title(&self, source_id: &str, title: String) {
        let result = self
            .bus
            .execute(
                &self.bus.sources,
                source_id,
                SourceCommand::AdoptFeedTitle { title },
                &EventMetadata::system("ingest", uuid::Uuid::new_v4().to_string()),
            )
            .await;
        if let Err(error) = result {
            tracing::warn!(source = source_id, %error, "the feed's title was not taken as its label");
        }
    }

    /// Stores an item's text and records it as a document of the source.
    pub async fn record(&self, source_id: &str, item: IngestedItem) -> anyhow::Result<()> {
        let deeplink = deeplink(source_id, &item.guid);
        // The same content under another GUID of the same source is a duplicate.
        #[derive(sqlx::FromRow)]
        struct Existing {
            deeplink: String,
        }
        let duplicate: Option<Existing> = self
            .db
            .fetch_optional(
                "SELECT deeplink FROM documents_view WHERE source_id = $1 AND content_hash = $2 AND deeplink <> $3",
                args![source_id, item.content_hash.as_str(), deeplink.as_str()],
            )
            .await?;
        if let Some(existing) = duplicate {
            tracing::debug!(source = source_id, duplicate_of = %existing.deeplink, "same content under another guid");
            return Ok(());
        }
        let text = item.full_text.clone().or_else(|| item.summary.clone()).unwrap_or_default();
        self.blobs.put(&item.content_hash, &text).await?;
        let fields = DocumentFields {
            source_id: source_id.to_string(),
            guid: item.guid,
            link: item.link.map(|l| l.to_string()),
            title: item.title.unwrap_or_else(|| "Untitled".to_string()),
            author: item.author,
            published_at: item.published.or(item.updated),
            summary: item.summary.map(|s| preview(&s, 100)),
            content_hash: item.content_hash,
            owner: None,
            metadata: Default::default(),
        };
        self.bus
            .execute(
                &self.bus.documents,
                &deeplink,
                DocumentCommand::Ingest(fields),
                &EventMetadata::system("ingest", uuid::Uuid::new_v4().to_string()),
            )
            .await
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        Ok(())
    }
}

/// Returns the first `words` words of `text`, with an ellipsis when cut.
pub fn preview(text: &str, words: usize) -> String {
    let mut parts = text.split_whitespace();
    let kept: Vec<&str> = parts.by_ref().take(words).collect();
    let mut out = kept.join(" ");
    if parts.next().is_some() {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_item_of_one_source_always_has_the_same_deeplink() {
        assert_eq!(deeplink("s1", "guid-1"), deeplink("s1", "guid-1"));
        assert_ne!(deeplink("s1", "guid-1"), deeplink("s2", "guid-1"));
        assert!(deeplink("s1", "g").starts_with("doc_"));
    }

    #[test]
    fn previews_stop_at_the_word_limit() {
        assert_eq!(preview("one two three", 2), "one two…");
        assert_eq!(preview("one  two", 5), "one two");
    }
}
