//! Following a website: feed discovery, a bounded same-site crawl, readable text.
//!
//! Readable-text extraction uses `dom_smoothie`, a port of Mozilla's Readability.js (the
//! algorithm behind Firefox Reader View); see Cargo.toml for why. HTML parsing is CPU work, so
//! the async functions here run it on the blocking pool.

use std::collections::{HashSet, VecDeque};

use chrono::{DateTime, Utc};
use dom_query::Document;
use dom_smoothie::{Config, Readability, TextMode};
use url::Url;

use crate::connector::{canonical_link, content_hash, IngestedItem};
use crate::feeds::{cap, html_to_text};
use crate::fetch::{FetchError, FetchResponse, FetchState, Fetched, Fetcher};

/// Bounds of a crawl.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CrawlLimits {
    /// Link hops from the start page (0 reads the start page only).
    pub max_depth: usize,
    /// Pages fetched in all, the start page included.
    pub max_pages: usize,
}

impl Default for CrawlLimits {
    fn default() -> Self {
        Self { max_depth: 2, max_pages: 25 }
    }
}

/// The readable part of an HTML page.
#[derive(Debug, Clone, PartialEq)]
pub struct ReadablePage {
    pub title: Option<String>,
    pub byline: Option<String>,
    pub excerpt: Option<String>,
    pub published: Option<DateTime<Utc>>,
    /// Plain text, paragraphs separated by blank lines.
    pub text: String,
}

/// A page read during a crawl.
#[derive(Debug, Clone, PartialEq)]
pub struct CrawledPage {
    pub url: Url,
    pub depth: usize,
    pub page: ReadablePage,
}

impl CrawledPage {
    /// Turns the page into an item whose GUID is its canonical URL.
    pub fn into_item(self, source_key: &str) -> IngestedItem {
        let link = canonical_link(&self.url);
        let ReadablePage { title, byline, excerpt, published, text } = self.page;
        let summary = excerpt.or_else(|| (!text.is_empty()).then(|| cap(text.clone(), 600)));
        let full_text = (!text.is_empty()).then_some(text);
        IngestedItem {
            source_key: source_key.to_owned(),
            guid: link.to_string(),
            content_hash: content_hash(title.as_deref(), summary.as_deref(), full_text.as_deref()),
            link: Some(link),
            title,
            author: byline,
            published,
            updated: None,
            summary,
            full_text,
        }
    }
}

/// Returns the feeds a page advertises with `<link rel="alternate">` and an RSS, Atom or JSON
/// Feed type, resolved against the page URL (or its `<base href>`), in page order, without
/// duplicates.
pub fn discover_feeds(html: &str, page_url: &Url) -> Vec<Url> {
    let doc = Document::from(html);
    let base = base_url(&doc, page_url);
    let mut seen = HashSet::new();
    let mut feeds = Vec::new();
    for link in doc.select("link[href]").iter() {
        let rel = link.attr("rel").map(|r| r.to_ascii_lowercase()).unwrap_or_default();
        if !rel.split_whitespace().any(|r| r == "alternate") {
            continue;
        }
        let kind = link.attr("type").map(|t| t.trim().to_ascii_lowercase()).unwrap_or_default();
        let is_feed = matches!(
            kind.as_str(),
            "application/rss+xml"
                | "application/atom+xml"
                | "application/feed+json"
                | "application/json+feed"
                | "application/rdf+xml"
        );
        if !is_feed {
            continue;
        }
        let href = link.attr("href").unwrap_or_default();
        if let Ok(url) = base.join(href.trim()) {
            if matches!(url.scheme(), "http" | "https") && seen.insert(url.clone()) {
                feeds.push(url);
            }
        }
    }
    feeds
}

/// Returns the readable text of an HTML page: the article when Readability finds one, else the
/// whole body's text. `None` when the page has no text at all.
pub fn readable_text(html: &str, url: Option<&Url>) -> Option<ReadablePage> {
    let config = Config { text_mode: TextMode::Formatted, max_elements_to_parse: 200_000, ..Config::default() };
    let article = Readability::new(html, url.map(Url::as_str), Some(config)).ok().and_then(|mut r| r.parse().ok());
    let page = match article {
        Some(a) if !a.text_content.trim().is_empty() => ReadablePage {
            title: Some(a.title.trim().to_owned()).filter(|t| !t.is_empty()),
            byline: a.byline.map(|b| b.trim().to_owned()).filter(|b| !b.is_empty()),
            excerpt: a.excerpt.map(|e| e.trim().to_owned()).filter(|e| !e.is_empty()),
            published: a.published_time.as_deref().and_then(parse_date),
            text: a.text_content.trim().to_owned(),
        },
        _ => {
            let doc = Document::from(html);
            let title = doc.select("title").text().trim().to_owned();
            let body = doc.select("body");
            let text = if body.exists() { html_to_text(&body.html()) } else { html_to_text(html) };
            ReadablePage {
                title: (!title.is_empty()).then_some(title),
                byline: None,
                excerpt: None,
                published: None,
                text,
            }
        }
    };
    (!page.text.is_empty() || page.title.is_some()).then_some(page)
}

/// Fetches one page and returns its readable text; `None` when it is not HTML.
pub async fn fetch_readable(fetcher: &Fetcher, url: &Url) -> Result<Option<ReadablePage>, FetchError> {
    let fetched = match fetcher.get(url, &FetchState::default()).await? {
        FetchResponse::Fetched(f) => f,
        FetchResponse::NotModified => return Ok(None),
    };
    if !fetched.is_html() {
        return Ok(None);
    }
    let (page, _) = parse_page(fetched).await;
    Ok(page)
}

/// Crawls from `start`: breadth first, same host and port only, HTML only, within `limits`.
/// Fails only when the start page cannot be fetched; other pages that fail are skipped.
pub async fn crawl(fetcher: &Fetcher, start: &Url, limits: &CrawlLimits) -> Result<Vec<CrawledPage>, FetchError> {
    match fetcher.get(start, &FetchState::default()).await? {
        FetchResponse::Fetched(home) => Ok(crawl_from(fetcher, home, limits).await),
        FetchResponse::NotModified => Ok(Vec::new()),
    }
}

/// Crawls from an already fetched start page (see [`crawl`]).
pub async fn crawl_from(fetcher: &Fetcher, home: Fetched, limits: &CrawlLimits) -> Vec<CrawledPage> {
    let start = home.url.clone();
    let mut seen: HashSet<Url> = HashSet::from([without_fragment(&start)]);
    let mut queue: VecDeque<(Url, usize)> = VecDeque::new();
    let mut pages = Vec::new();
    let mut fetched_count = 1;
    let mut next = Some((home, 0usize));
    loop {
        if let Some((fetched, depth)) = next.take() {
            if fetched.is_html() {
                let url = fetched.url.clone();
                let (page, links) = parse_page(fetched).await;
                if let Some(page) = page {
                    pages.push(CrawledPage { url, depth, page });
                }
                if depth < limits.max_depth {
                    for link in links {
                        if same_site(&start, &link) && !looks_like_a_file(&link) && seen.insert(link.clone()) {
                            queue.push_back((link, depth + 1));
                        }
                    }
                }
            }
        }
        if fetched_count >= limits.max_pages {
            break;
        }
        let Some((url, depth)) = queue.pop_front() else {
            break;
        };
        fetched_count += 1;
        match fetcher.get(&url, &FetchState::default()).await {
            // A redirect may leave the site; such pages are dropped.
            Ok(FetchResponse::Fetched(f)) if same_site(&start, &f.url) => next = Some((f, depth)),
            Ok(_) => {}
            Err(e) => tracing::info!(url = %url, error = %e, "crawl skipped a page"),
        }
    }
    tracing::debug!(start = %start, pages = pages.len(), fetched = fetched_count, "crawl finished");
    pages
}

/// Extracts readable text and outgoing links on the blocking pool.
async fn parse_page(fetched: Fetched) -> (Option<ReadablePage>, Vec<Url>) {
    let url = fetched.url;
    let body = fetched.body;
    tokio::task::spawn_blocking(move || {
        let html = String::from_utf8_lossy(&body);
        let links = page_links(&html, &url);
        (readable_text(&html, Some(&url)), links)
    })
    .await
    .unwrap_or_else(|e| {
        tracing::warn!(error = %e, "page extraction failed");
        (None, Vec::new())
    })
}

/// Returns the http(s) links of a page, resolved and without fragments.
pub fn page_links(html: &str, page_url: &Url) -> Vec<Url> {
    let doc = Document::from(html);
    let base = base_url(&doc, page_url);
    doc.select("a[href]")
        .iter()
        .filter_map(|a| base.join(a.attr("href")?.trim()).ok())
        .filter(|u| matches!(u.scheme(), "http" | "https"))
        .map(|u| without_fragment(&u))
        .collect()
}

fn base_url(doc: &Document, page_url: &Url) -> Url {
    doc.select("base[href]")
        .attr("href")
        .and_then(|href| page_url.join(href.trim()).ok())
        .unwrap_or_else(|| page_url.clone())
}

fn without_fragment(url: &Url) -> Url {
    let mut u = url.clone();
    u.set_fragment(None);
    u
}

fn same_site(a: &Url, b: &Url) -> bool {
    a.host_str().map(str::to_ascii_lowercase) == b.host_str().map(str::to_ascii_lowercase)
        && a.port_or_known_default() == b.port_or_known_default()
}

/// Returns true for links whose extension says they are not pages, so they are not fetched.
fn looks_like_a_file(url: &Url) -> bool {
    const SKIP: &[&str] = &[
        "pdf", "jpg", "jpeg", "png", "gif", "webp", "svg", "ico", "zip", "gz", "tgz", "rar", "7z", "mp3", "mp4", "m4a",
        "mov", "avi", "webm", "doc", "docx", "xls", "xlsx", "ppt", "pptx", "css", "js", "xml", "json", "rss", "atom",
        "exe", "dmg", "iso", "woff", "woff2", "ttf",
    ];
    let path = url.path().to_ascii_lowercase();
    path.rsplit_once('.').is_some_and(|(_, ext)| !ext.contains('/') && SKIP.contains(&ext))
}

fn parse_date(s: &str) -> Option<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(s.trim())
        .or_else(|_| DateTime::parse_from_rfc2822(s.trim()))
        .ok()
        .map(|d| d.with_timezone(&Utc))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_links_are_recognised_by_extension() {
        assert!(looks_like_a_file(&Url::parse("http://a/x/report.PDF").unwrap()));
        assert!(!looks_like_a_file(&Url::parse("http://a/x.y/page").unwrap()));
        assert!(!looks_like_a_file(&Url::parse("http://a/page.html").unwrap()));
    }
}
