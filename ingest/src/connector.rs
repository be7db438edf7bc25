//! One trait for every kind of source, and the item every source produces.
//!
//! A connector is given a source definition and the validators of its last fetch, and answers
//! with items plus new validators, with "not modified", or with an [`IngestError`] whose message
//! a person can act on. What to do with items (deduplicate by GUID, canonical link and content
//! hash; emit ingested/updated events) is the caller's business.

use std::sync::Arc;

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use url::Url;

use crate::feeds::{parse_feed_bytes, FeedError, FeedLimits};
use crate::fetch::{FetchError, FetchResponse, FetchState, Fetcher};
use crate::web::{self, CrawlLimits};

/// A document as a source delivered it, before it becomes an event.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IngestedItem {
    /// Catalogue key or user source key the item came from.
    pub source_key: String,
    /// The feed's own identifier (RSS guid, Atom id, JSON Feed id), or the page URL for crawled
    /// pages; the first deduplication key.
    pub guid: String,
    /// The article link without fragment and tracking parameters; the second deduplication key.
    pub link: Option<Url>,
    pub title: Option<String>,
    pub author: Option<String>,
    pub published: Option<DateTime<Utc>>,
    pub updated: Option<DateTime<Utc>>,
    /// Plain text, short.
    pub summary: Option<String>,
    /// Plain readable text of the whole article when the feed carries it or it was fetched.
    pub full_text: Option<String>,
    /// SHA-256 (hex) of title, summary and full text; a changed hash under the same GUID is an
    /// update, an equal hash under a new GUID a duplicate.
    pub content_hash: String,
}

/// What kind of connector reads a source.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SourceKind {
    /// An RSS, Atom or JSON Feed URL.
    Feed,
    /// A website: its feeds if it advertises any, else a bounded crawl.
    Website,
}

/// A source to fetch.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SourceDef {
    pub key: String,
    pub kind: SourceKind,
    pub url: Url,
}

/// The answer of a successful fetch.
#[derive(Debug, Clone, PartialEq)]
pub enum FetchOutcome {
    /// The source answered 304 to our validators: nothing new.
    NotModified,
    Fetched {
        items: Vec<IngestedItem>,
        /// Validators to store with the source for the next conditional GET.
        state: FetchState,
        /// The title the feed gives itself (the page's, for a crawled site), when it has one.
        title: Option<String>,
    },
}

/// Why a source could not be read, worded for the person who follows it. The message holds the
/// reason itself, so the reason is no error source: a chain printed whole (`{:#}`, as a feed's
/// last error is kept) says it once.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IngestError {
    #[error("could not fetch {url}: {reason}")]
    Fetch { url: String, reason: FetchError },
    #[error("{url} is not a feed: {reason}")]
    Feed { url: String, reason: FeedError },
    #[error("source {key} has no feed url yet")]
    NoFeedUrl { key: String },
    #[error("found no feed and no readable page at {url}")]
    NothingFound { url: String },
    #[error("source {key} is a {kind:?} source, not one this connector reads")]
    WrongKind { key: String, kind: SourceKind },
}

impl IngestError {
    /// Returns true when retrying later may help (the scheduler backs off either way).
    pub fn is_transient(&self) -> bool {
        matches!(self, IngestError::Fetch { reason, .. } if reason.is_transient())
    }
}

/// Reads one kind of source.
#[async_trait]
pub trait Connector: Send + Sync {
    /// Fetches `source`, conditionally when `state` holds validators from the last fetch.
    async fn fetch(&self, source: &SourceDef, state: &FetchState) -> Result<FetchOutcome, IngestError>;
}

/// Reads RSS, Atom and JSON feeds; optionally fetches the linked articles of items whose feed
/// carries only a summary, to store their readable full text.
#[derive(Clone)]
pub struct FeedConnector {
    fetcher: Arc<Fetcher>,
    pub limits: FeedLimits,
    /// Linked articles fetched per feed fetch for items without full text (0 turns it off).
    pub max_articles: usize,
    /// Items whose feed text is at least this long are taken as complete and not fetched.
    pub full_text_min_bytes: usize,
}

impl FeedConnector {
    pub fn new(fetcher: Arc<Fetcher>) -> Self {
        Self { fetcher, limits: FeedLimits::default(), max_articles: 10, full_text_min_bytes: 1500 }
    }

    /// Fetches and parses one feed URL.
    pub async fn fetch_feed(&self, key: &str, url: &Url, state: &FetchState) -> Result<FetchOutcome, IngestError> {
        let fetched = match self.fetcher.get(url, state).await {
            Ok(FetchResponse::NotModified) => return Ok(FetchOutcome::NotModified),
            Ok(FetchResponse::Fetched(f)) => f,
            Err(reason) => return Err(IngestError::Fetch { url: url.to_string(), reason }),
        };
        let (key_owned, base, limits) = (key.to_owned(), fetched.url.clone(), self.limits.clone());
        let body = fetched.body;
        let parsed = tokio::task::spawn_blocking(move || parse_feed_bytes(&body, &key_owned, Some(&base), &limits))
            .await
            .map_err(|e| IngestError::Feed { url: url.to_string(), reason: FeedError::Unreadable(e.to_string()) })?
            .map_err(|reason| IngestError::Feed { url: url.to_string(), reason })?;
        let mut items = parsed.items;
        self.fill_full_text(&mut items).await;
        Ok(FetchOutcome::Fetched { items, state: fetched.state, title: parsed.title })
    }

    /// Fetches the linked article of items that lack a full text and stores its readable text.
    /// A failing article is logged and skipped: it never fails the feed.
    async fn fill_full_text(&self, items: &mut [IngestedItem]) {
        let wanted: Vec<usize> = items
            .iter()
            .enumerate()
            .filter(|(_, i)| {
                i.link.is_some() && i.full_text.as_ref().is_none_or(|t| t.len() < self.full_text_min_bytes)
            })
            .map(|(n, _)| n)
            .take(self.max_articles)
            .collect();
        // The per-host semaphore in the fetcher bounds how many of these reach one server.
        let fetches = wanted.iter().map(|&n| {
            let url = items[n].link.clone().expect("filtered on link");
            async move { (n, web::fetch_readable(&self.fetcher, &url).await) }
        });
        for (n, result) in futures::future::join_all(fetches).await {
            match result {
                Ok(Some(page)) if !page.text.is_empty() => {
                    let item = &mut items[n];
                    item.full_text = Some(crate::feeds::cap(page.text, self.limits.max_text_bytes));
                    item.content_hash =
                        content_hash(item.title.as_deref(), item.summary.as_deref(), item.full_text.as_deref());
                }
                Ok(_) => {}
                Err(e) => {
                    tracing::info!(link = ?items[n].link.as_ref().map(Url::as_str), error = %e, "article not fetched")
                }
            }
        }
    }
}

#[async_trait]
impl Connector for FeedConnector {
    async fn fetch(&self, source: &SourceDef, state: &FetchState) -> Result<FetchOutcome, IngestError> {
        if source.kind != SourceKind::Feed {
            return Err(IngestError::WrongKind { key: source.key.clone(), kind: source.kind });
        }
        self.fetch_feed(&source.key, &source.url, state).await
    }
}

/// Follows a website: reads the first feed the home page advertises, else crawls the site.
#[derive(Clone)]
pub struct WebConnector {
    fetcher: Arc<Fetcher>,
    pub feeds: FeedConnector,
    pub crawl: CrawlLimits,
}

impl WebConnector {
    pub fn new(fetcher: Arc<Fetcher>) -> Self {
        Self { feeds: FeedConnector::new(fetcher.clone()), fetcher, crawl: CrawlLimits::default() }
    }
}

#[async_trait]
impl Connector for WebConnector {
    async fn fetch(&self, source: &SourceDef, state: &FetchState) -> Result<FetchOutcome, IngestError> {
        let url = &source.url;
        let wrap = |reason: FetchError| IngestError::Fetch { url: url.to_string(), reason };
        let home = match self.fetcher.get(url, &FetchState::default()).await.map_err(wrap)? {
            FetchResponse::Fetched(f) => f,
            FetchResponse::NotModified => return Ok(FetchOutcome::NotModified),
        };
        // The URL may itself be a feed.
        if !home.is_html() {
            if let Ok(parsed) = parse_feed_bytes(&home.body, &source.key, Some(&home.url), &self.feeds.limits) {
                return Ok(FetchOutcome::Fetched { items: parsed.items, state: home.state, title: parsed.title });
            }
        }
        let html = String::from_utf8_lossy(&home.body).into_owned();
        let feeds = web::discover_feeds(&html, &home.url);
        for feed in &feeds {
            match self.feeds.fetch_feed(&source.key, feed, state).await {
                Ok(outcome) => return Ok(outcome),
                Err(e) => {
                    tracing::info!(feed = %feed, error = %e, "advertised feed unreadable, trying the next")
                }
            }
        }
        let pages = web::crawl_from(&self.fetcher, home, &self.crawl).await;
        let items: Vec<IngestedItem> = pages.into_iter().map(|p| p.into_item(&source.key)).collect();
        if items.is_empty() {
            return Err(IngestError::NothingFound { url: url.to_string() });
        }
        Ok(FetchOutcome::Fetched { items, state: FetchState::default(), title: None })
    }
}

/// Returns `url` without its fragment and without `utm_*` tracking parameters, so two links to
/// the same article compare equal.
pub fn canonical_link(url: &Url) -> Url {
    let mut url = url.clone();
    url.set_fragment(None);
    if url.query().is_some() {
        let kept: Vec<(String, String)> = url
            .query_pairs()
            .filter(|(k, _)| !k.starts_with("utm_") && k != "fbclid" && k != "gclid")
            .map(|(k, v)| (k.into_owned(), v.into_owned()))
            .collect();
        if kept.is_empty() {
            url.set_query(None);
        } else {
            url.query_pairs_mut().clear().extend_pairs(kept);
        }
    }
    url
}

/// Returns the SHA-256 (hex) over title, summary and text, separated so that moving text from
/// one field to another changes the hash.
pub fn content_hash(title: Option<&str>, summary: Option<&str>, text: Option<&str>) -> String {
    let mut hasher = Sha256::new();
    for part in [title, summary, text] {
        hasher.update(part.unwrap_or("").as_bytes());
        hasher.update([0x1f]);
    }
    hasher.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_canonical_link_drops_fragments_and_tracking_parameters() {
        let u = Url::parse("https://ex.com/a?id=3&utm_source=x&utm_medium=y#top").unwrap();
        assert_eq!(canonical_link(&u).as_str(), "https://ex.com/a?id=3");
        let u = Url::parse("https://ex.com/a?utm_source=x").unwrap();
        assert_eq!(canonical_link(&u).as_str(), "https://ex.com/a");
    }

    #[test]
    fn the_content_hash_changes_when_text_moves_between_fields() {
        assert_ne!(content_hash(Some("ab"), None, None), content_hash(Some("a"), Some("b"), None));
        assert_eq!(content_hash(Some("a"), None, None).len(), 64);
    }
}
