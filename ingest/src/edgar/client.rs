//! The one way this process talks to EDGAR, keeping the SEC's fair-access rules: every request
//! declares who is asking (a User-Agent with the operator's contact address), the whole node
//! stays under 10 requests a second however many companies are followed, and a 429 or 503
//! pauses every request (not only the one refused) with a back-off that doubles.

use std::sync::Mutex;
use std::time::Duration;

use tokio::time::Instant;
use url::Url;

use crate::fetch::{FetchError, FetchPolicy, FetchResponse, FetchState, Fetched, Fetcher};

/// What the operator sets for EDGAR.
#[derive(Debug, Clone)]
pub struct EdgarConfig {
    /// EDGAR's address; a local server in tests.
    pub base: Url,
    /// Who to contact about this node's traffic, as the SEC asks ("Name admin@example.com").
    pub contact: String,
    /// Requests a second for the whole node (the SEC's limit is 10).
    pub requests_per_second: u32,
    /// Filings run to tens of megabytes (inline XBRL); larger answers are refused.
    pub max_body_bytes: u64,
    /// Networks the operator allowed past the address guard (test servers).
    pub allow: Vec<ipnet::IpNet>,
    /// Times one request is retried after a 429 or 503 before its fetch fails.
    pub max_retries: u32,
    /// The first pause after a 429 or 503; each further one doubles.
    pub first_backoff: Duration,
    pub total_timeout: Duration,
}

impl EdgarConfig {
    pub const DEFAULT_BASE: &'static str = "https://www.sec.gov/";

    /// The defaults for `contact`, against EDGAR itself.
    pub fn new(contact: impl Into<String>) -> Self {
        Self {
            base: Url::parse(Self::DEFAULT_BASE).expect("a valid address"),
            contact: contact.into(),
            requests_per_second: 10,
            max_body_bytes: 64 * 1024 * 1024,
            allow: Vec::new(),
            max_retries: 4,
            first_backoff: Duration::from_secs(1),
            total_timeout: Duration::from_secs(60),
        }
    }
}

/// Why EDGAR could not be asked, or did not answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EdgarError {
    #[error(
        "the SEC asks every client to declare a contact: set an email address for EDGAR (--edgar-contact) to follow filings"
    )]
    NoContact,
    #[error("EDGAR's address {0} is not an http or https address")]
    BadBase(String),
    #[error("EDGAR asked this server to slow down ({status}) {tries} times in a row; it tries again later")]
    Throttled { status: u16, tries: u32 },
    #[error("could not fetch {url}: {reason}")]
    Fetch { url: String, reason: FetchError },
}

impl EdgarError {
    /// Whether trying later may help.
    pub fn is_transient(&self) -> bool {
        match self {
            EdgarError::Throttled { .. } => true,
            EdgarError::Fetch { reason, .. } => reason.is_transient(),
            _ => false,
        }
    }
}

/// Spaces requests evenly at a fixed rate, and holds all of them during a pause. Each caller
/// takes the next free slot under a lock and sleeps outside it, so the order is first come,
/// first served and no burst passes the rate.
#[derive(Debug)]
pub struct RateLimiter {
    spacing: Duration,
    next_slot: Mutex<Option<Instant>>,
}

impl RateLimiter {
    /// Spaces requests 5% wider than `per_second` asks: a server counting arrivals in any one
    /// second sees `per_second` at most, even when the network delays one request and not the next.
    pub fn new(per_second: u32) -> Self {
        Self { spacing: Duration::from_secs(21) / (20 * per_second.max(1)), next_slot: Mutex::new(None) }
    }

    /// Waits for this caller's slot.
    pub async fn acquire(&self) {
        let slot = {
            let mut next = self.next_slot.lock().unwrap_or_else(|e| e.into_inner());
            let now = Instant::now();
            let slot = next.map_or(now, |n| n.max(now));
            *next = Some(slot + self.spacing);
            slot
        };
        tokio::time::sleep_until(slot).await;
    }

    /// Holds every request, those waiting and those to come, until `pause` has passed.
    pub fn pause(&self, pause: Duration) {
        let mut next = self.next_slot.lock().unwrap_or_else(|e| e.into_inner());
        let resume = Instant::now() + pause;
        *next = Some(next.map_or(resume, |n| n.max(resume)));
    }
}

/// A rate-limited, back-off-keeping client for EDGAR. One per node: share it.
pub struct EdgarClient {
    fetcher: Fetcher,
    limiter: RateLimiter,
    config: EdgarConfig,
}

impl EdgarClient {
    pub fn new(config: EdgarConfig) -> Result<Self, EdgarError> {
        let contact = config.contact.trim();
        if contact.is_empty() || !contact.contains('@') || contact.chars().any(|c| c.is_control()) {
            return Err(EdgarError::NoContact);
        }
        if !matches!(config.base.scheme(), "http" | "https") {
            return Err(EdgarError::BadBase(config.base.to_string()));
        }
        let policy = FetchPolicy {
            max_body_bytes: config.max_body_bytes,
            total_timeout: config.total_timeout,
            allow: config.allow.clone(),
            user_agent: format!("Needl/{} {contact}", env!("CARGO_PKG_VERSION")),
            ..FetchPolicy::default()
        };
        let fetcher =
            Fetcher::new(policy).map_err(|reason| EdgarError::Fetch { url: config.base.to_string(), reason })?;
        Ok(Self { fetcher, limiter: RateLimiter::new(config.requests_per_second), config })
    }

    pub fn config(&self) -> &EdgarConfig {
        &self.config
    }

    /// A company's Atom feed of its latest 40 filings, every form.
    pub fn company_feed_url(&self, cik: u64) -> Url {
        self.at(&format!(
            "cgi-bin/browse-edgar?action=getcompany&CIK={cik:010}&type=&dateb=&owner=include&count=40&output=atom"
        ))
    }

    /// The latest 100 filings of every company.
    pub fn current_filings_url(&self) -> Url {
        self.at(
            "cgi-bin/browse-edgar?action=getcurrent&type=&company=&dateb=&owner=include&start=0&count=100&output=atom",
        )
    }

    /// EDGAR's list of companies with their tickers.
    pub fn company_list_url(&self) -> Url {
        self.at("files/company_tickers.json")
    }

    fn at(&self, path: &str) -> Url {
        self.config.base.join(path).expect("a relative path joins any http base")
    }

    /// Fetches `url` (always: no validators).
    pub async fn get(&self, url: &Url) -> Result<Fetched, EdgarError> {
        match self.get_if_changed(url, &FetchState::default()).await? {
            FetchResponse::Fetched(fetched) => Ok(fetched),
            FetchResponse::NotModified => {
                Err(EdgarError::Fetch { url: url.to_string(), reason: FetchError::Status { status: 304 } })
            }
        }
    }

    /// Fetches `url` unless unchanged since `state`, within the node's rate; a 429 or 503 pauses
    /// all requests and retries this one, up to [`EdgarConfig::max_retries`] times.
    pub async fn get_if_changed(&self, url: &Url, state: &FetchState) -> Result<FetchResponse, EdgarError> {
        let mut backoff = self.config.first_backoff;
        let mut tries = 0;
        loop {
            self.limiter.acquire().await;
            match self.fetcher.get(url, state).await {
                Err(FetchError::Status { status }) if status == 429 || status == 503 => {
                    tries += 1;
                    if tries > self.config.max_retries {
                        return Err(EdgarError::Throttled { status, tries });
                    }
                    tracing::warn!(%url, status, pause_ms = backoff.as_millis() as u64, "EDGAR asked to slow down");
                    self.limiter.pause(backoff);
                    backoff = (backoff * 2).min(Duration::from_secs(600));
                }
                Err(reason) => return Err(EdgarError::Fetch { url: url.to_string(), reason }),
                Ok(response) => return Ok(response),
            }
        }
    }
}
