//! The crate's only door to the network: an SSRF-safe, bounded, polite HTTP GET.
//!
//! Every address is checked after DNS resolution (a custom resolver) and every redirect target is
//! checked again (a custom redirect policy), so neither a hostname nor a redirect can lead to
//! loopback, private, link-local or metadata addresses unless the operator allow-lists them.
//! Bodies are read in chunks and abandoned past the size cap, the whole exchange is bounded in
//! time, and a semaphore per host keeps us from hammering one site.

mod guard;
mod schedule;

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use ipnet::IpNet;
use reqwest::dns::{Addrs, Name, Resolve, Resolving};
use reqwest::header::{HeaderMap, CONTENT_LENGTH, CONTENT_TYPE, ETAG, IF_MODIFIED_SINCE, IF_NONE_MATCH, LAST_MODIFIED};
use serde::{Deserialize, Serialize};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use url::{Host, Url};

pub use guard::{blocked_by_default, AddressGuard, BlockReason};
pub use schedule::{next_attempt, Backoff, ScheduledSource, Scheduler};

/// Limits and permissions of a [`Fetcher`]. Operators set these in `api`'s configuration.
#[derive(Debug, Clone)]
pub struct FetchPolicy {
    /// Bodies longer than this are abandoned (a feed that never ends stops here).
    pub max_body_bytes: u64,
    /// Bound on the whole exchange, from connecting to the last body byte.
    pub total_timeout: Duration,
    pub connect_timeout: Duration,
    pub max_redirects: usize,
    /// Requests in flight to one host (name and port) at a time.
    pub per_host_concurrency: usize,
    /// Networks allowed although blocked by default (loopback, private, ...).
    pub allow: Vec<IpNet>,
    pub user_agent: String,
}

impl Default for FetchPolicy {
    fn default() -> Self {
        Self {
            max_body_bytes: 10 * 1024 * 1024,
            total_timeout: Duration::from_secs(30),
            connect_timeout: Duration::from_secs(10),
            max_redirects: 5,
            per_host_concurrency: 2,
            allow: Vec::new(),
            user_agent: concat!("Needl/", env!("CARGO_PKG_VERSION"), " (+feed reader)").to_owned(),
        }
    }
}

/// Validators from the last successful fetch, sent back for a conditional GET. Stored with the
/// source so a restart does not refetch unchanged feeds.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FetchState {
    pub etag: Option<String>,
    pub last_modified: Option<String>,
}

/// A fetched body with what came with it.
#[derive(Debug, Clone)]
pub struct Fetched {
    /// The URL after redirects; relative links in the body resolve against it.
    pub url: Url,
    pub status: u16,
    pub content_type: Option<String>,
    pub body: Vec<u8>,
    /// Validators to send next time.
    pub state: FetchState,
}

impl Fetched {
    /// Returns true when the server says the body is HTML (or says nothing and it looks like it).
    pub fn is_html(&self) -> bool {
        match &self.content_type {
            Some(ct) => {
                let ct = ct.to_ascii_lowercase();
                ct.starts_with("text/html") || ct.starts_with("application/xhtml")
            }
            None => {
                let head = String::from_utf8_lossy(&self.body[..self.body.len().min(512)]).to_ascii_lowercase();
                head.contains("<html") || head.contains("<!doctype html")
            }
        }
    }
}

#[derive(Debug)]
pub enum FetchResponse {
    /// The server answered 304: nothing changed since the given validators.
    NotModified,
    Fetched(Fetched),
}

/// Why a fetch failed, worded for the person who added the source.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FetchError {
    #[error("invalid url {url}: {reason}")]
    InvalidUrl { url: String, reason: String },
    #[error("refused to fetch {host}: it resolves to {addr}, a {} address", reason.as_str())]
    Blocked { host: String, addr: IpAddr, reason: BlockReason },
    #[error("could not resolve {host}: {message}")]
    Dns { host: String, message: String },
    #[error("more than {max} redirects")]
    TooManyRedirects { max: usize },
    #[error("response larger than {limit} bytes")]
    TooLarge { limit: u64 },
    #[error("no complete response within {} seconds", .limit.as_secs_f64())]
    Timeout { limit: Duration },
    #[error("could not connect to {host}: {message}")]
    Connect { host: String, message: String },
    #[error("the server answered {status}")]
    Status { status: u16 },
    #[error("network error: {message}")]
    Network { message: String },
}

impl FetchError {
    /// Returns true for failures that may go away by themselves (timeouts, 5xx, connection
    /// trouble), as opposed to ones that need the source to change (blocked, 404, too large).
    pub fn is_transient(&self) -> bool {
        match self {
            FetchError::Timeout { .. }
            | FetchError::Connect { .. }
            | FetchError::Network { .. }
            | FetchError::Dns { .. } => true,
            FetchError::Status { status } => *status >= 500 || *status == 429 || *status == 408,
            _ => false,
        }
    }
}

/// The SSRF-safe HTTP client. One per process; cheap to share behind an `Arc`.
pub struct Fetcher {
    client: reqwest::Client,
    policy: FetchPolicy,
    guard: AddressGuard,
    /// One semaphore per `host:port`, created on first use.
    hosts: Mutex<HashMap<String, Arc<Semaphore>>>,
}

impl Fetcher {
    pub fn new(policy: FetchPolicy) -> Result<Self, FetchError> {
        let guard = AddressGuard::new(policy.allow.clone());
        let redirect_guard = guard.clone();
        let max_redirects = policy.max_redirects;
        let redirect = reqwest::redirect::Policy::custom(move |attempt| {
            if attempt.previous().len() > max_redirects {
                return attempt.error(FetchError::TooManyRedirects { max: max_redirects });
            }
            match check_url(attempt.url(), &redirect_guard) {
                Ok(()) => attempt.follow(),
                Err(e) => attempt.error(e),
            }
        });
        let client = reqwest::Client::builder()
            .user_agent(policy.user_agent.clone())
            .dns_resolver(Arc::new(GuardedResolver { guard: guard.clone() }))
            .redirect(redirect)
            // A proxy would resolve names itself and bypass the address checks.
            .no_proxy()
            .connect_timeout(policy.connect_timeout)
            .timeout(policy.total_timeout)
            .build()
            .map_err(|e| FetchError::Network { message: e.to_string() })?;
        Ok(Self { client, policy, guard, hosts: Mutex::new(HashMap::new()) })
    }

    pub fn policy(&self) -> &FetchPolicy {
        &self.policy
    }

    /// GETs `url`, conditionally when `state` holds validators. Returns the body only for a 2xx
    /// answer, `NotModified` for 304, and an error for anything else.
    pub async fn get(&self, url: &Url, state: &FetchState) -> Result<FetchResponse, FetchError> {
        check_url(url, &self.guard)?;
        let _permit = self.host_permit(url).await;
        let limit = self.policy.total_timeout;
        // reqwest's timeout covers the body too; this outer bound also covers our own reading loop.
        match tokio::time::timeout(limit + Duration::from_millis(50), self.exchange(url, state)).await {
            Ok(result) => result,
            Err(_) => Err(FetchError::Timeout { limit }),
        }
    }

    async fn exchange(&self, url: &Url, state: &FetchState) -> Result<FetchResponse, FetchError> {
        let mut headers = HeaderMap::new();
        if let Some(etag) = state.etag.as_deref().and_then(|v| v.parse().ok()) {
            headers.insert(IF_NONE_MATCH, etag);
        }
        if let Some(lm) = state.last_modified.as_deref().and_then(|v| v.parse().ok()) {
            headers.insert(IF_MODIFIED_SINCE, lm);
        }
        let mut response =
            self.client.get(url.clone()).headers(headers).send().await.map_err(|e| self.classify(url, e))?;
        let status = response.status();
        if status == reqwest::StatusCode::NOT_MODIFIED {
            return Ok(FetchResponse::NotModified);
        }
        if !status.is_success() {
            return Err(FetchError::Status { status: status.as_u16() });
        }
        let limit = self.policy.max_body_bytes;
        let declared =
            response.headers().get(CONTENT_LENGTH).and_then(|v| v.to_str().ok()).and_then(|v| v.parse::<u64>().ok());
        if declared.is_some_and(|n| n > limit) {
            return Err(FetchError::TooLarge { limit });
        }
        let header = |name| {
            response.headers().get(name).and_then(|v: &reqwest::header::HeaderValue| v.to_str().ok()).map(str::to_owned)
        };
        let content_type = header(CONTENT_TYPE);
        let new_state = FetchState { etag: header(ETAG), last_modified: header(LAST_MODIFIED) };
        let final_url = response.url().clone();
        let mut body = Vec::with_capacity(declared.unwrap_or(16 * 1024).min(limit) as usize);
        while let Some(chunk) = response.chunk().await.map_err(|e| self.classify(url, e))? {
            if body.len() as u64 + chunk.len() as u64 > limit {
                tracing::warn!(url = %url, limit, "response body over the size cap, abandoned");
                return Err(FetchError::TooLarge { limit });
            }
            body.extend_from_slice(&chunk);
        }
        tracing::debug!(url = %url, final_url = %final_url, bytes = body.len(), "fetched");
        Ok(FetchResponse::Fetched(Fetched {
            url: final_url,
            status: status.as_u16(),
            content_type,
            body,
            state: new_state,
        }))
    }

    async fn host_permit(&self, url: &Url) -> OwnedSemaphorePermit {
        let key = format!("{}:{}", url.host_str().unwrap_or(""), url.port_or_known_default().unwrap_or(0));
        let semaphore = {
            let mut hosts = self.hosts.lock().unwrap_or_else(|e| e.into_inner());
            // Forget idle hosts now and then so following many sites does not grow the map forever.
            if hosts.len() >= 4096 {
                hosts.retain(|_, s| Arc::strong_count(s) > 1);
            }
            hosts
                .entry(key)
                .or_insert_with(|| Arc::new(Semaphore::new(self.policy.per_host_concurrency.max(1))))
                .clone()
        };
        semaphore.acquire_owned().await.expect("host semaphores are never closed")
    }

    /// Turns reqwest's error into ours, finding our own errors (raised in the resolver or the
    /// redirect policy) in its source chain.
    fn classify(&self, url: &Url, error: reqwest::Error) -> FetchError {
        let mut source: Option<&(dyn std::error::Error + 'static)> = Some(&error);
        while let Some(e) = source {
            if let Some(ours) = e.downcast_ref::<FetchError>() {
                return ours.clone();
            }
            source = e.source();
        }
        let host = error.url().and_then(|u| u.host_str()).or(url.host_str()).unwrap_or("").to_owned();
        if error.is_timeout() {
            FetchError::Timeout { limit: self.policy.total_timeout }
        } else if error.is_connect() {
            FetchError::Connect { host, message: root_message(&error) }
        } else {
            FetchError::Network { message: root_message(&error) }
        }
    }
}

fn root_message(error: &(dyn std::error::Error + 'static)) -> String {
    let mut last = error;
    while let Some(next) = last.source() {
        last = next;
    }
    last.to_string()
}

/// Refuses URLs the fetcher must never request, judging by the URL alone: other schemes, hosts
/// given as a blocked IP literal (those never reach the resolver), and `localhost` or a name under
/// it (RFC 6761 reserves them for the loopback, whatever a resolver says). Names are checked
/// again once resolved; this is also what can be told at once to someone adding the address.
pub fn check_url(url: &Url, guard: &AddressGuard) -> Result<(), FetchError> {
    if !matches!(url.scheme(), "http" | "https") {
        return Err(FetchError::InvalidUrl { url: url.to_string(), reason: "only http and https are fetched".into() });
    }
    let (host, ip) = match url.host() {
        Some(Host::Ipv4(v4)) => (v4.to_string(), IpAddr::V4(v4)),
        Some(Host::Ipv6(v6)) => (v6.to_string(), IpAddr::V6(v6)),
        Some(Host::Domain(name)) if is_localhost(name) => (name.to_owned(), IpAddr::V4(std::net::Ipv4Addr::LOCALHOST)),
        Some(Host::Domain(_)) => return Ok(()),
        None => return Err(FetchError::InvalidUrl { url: url.to_string(), reason: "no host".into() }),
    };
    match guard.check(ip) {
        None => Ok(()),
        Some(reason) => Err(FetchError::Blocked { host, addr: ip, reason }),
    }
}

/// Returns whether `name` is `localhost` or under it, a trailing dot or not.
fn is_localhost(name: &str) -> bool {
    let name = name.strip_suffix('.').unwrap_or(name).to_ascii_lowercase();
    name == "localhost" || name.ends_with(".localhost")
}

/// Resolves names with the system resolver, then refuses the host if any of its addresses is
/// blocked (a name that mixes public and private addresses is a rebinding trick).
struct GuardedResolver {
    guard: AddressGuard,
}

impl Resolve for GuardedResolver {
    fn resolve(&self, name: Name) -> Resolving {
        let guard = self.guard.clone();
        Box::pin(async move {
            let host = name.as_str().to_owned();
            let addrs: Vec<SocketAddr> = tokio::net::lookup_host((host.as_str(), 0))
                .await
                .map_err(|e| Box::new(FetchError::Dns { host: host.clone(), message: e.to_string() }))?
                .collect();
            if addrs.is_empty() {
                return Err(Box::new(FetchError::Dns { host, message: "no addresses".into() }) as _);
            }
            for addr in &addrs {
                if let Some(reason) = guard.check(addr.ip()) {
                    tracing::warn!(host = %host, addr = %addr.ip(), reason = reason.as_str(), "refused address");
                    return Err(Box::new(FetchError::Blocked { host, addr: addr.ip(), reason }) as _);
                }
            }
            Ok(Box::new(addrs.into_iter()) as Addrs)
        })
    }
}
