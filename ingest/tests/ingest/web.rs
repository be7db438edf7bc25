use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::extract::{Request, State};
use axum::http::header;
use axum::response::{Html, IntoResponse, Response};
use axum::Router;
use ingest::feeds::html_to_text;
use ingest::web::{crawl, discover_feeds, readable_text, CrawlLimits};
use url::Url;

use crate::support::{local_fetcher, serve, serve_on, shared_data, url};

#[test]
fn feeds_are_discovered_from_alternate_links_with_relative_hrefs() {
    let html = r#"<html><head>
        <link rel="stylesheet" href="/style.css">
        <link rel="alternate" type="application/rss+xml" title="RSS" href="/feed.xml">
        <link rel="Alternate" type="application/atom+xml" href="atom">
        <link rel="alternate" type="application/feed+json" href="https://cdn.example.org/feed.json">
        <link rel="alternate" type="text/html" hreflang="de" href="/de/">
        <link rel="alternate" type="application/rss+xml" href="/feed.xml">
        <link rel="alternate" type="application/rss+xml" href="javascript:alert(1)">
        </head><body><a href="/other.rss">not a link tag</a></body></html>"#;
    let page = Url::parse("https://www.example.org/blog/post").unwrap();
    let feeds: Vec<String> = discover_feeds(html, &page).into_iter().map(String::from).collect();
    assert_eq!(
        feeds,
        vec![
            "https://www.example.org/feed.xml",
            "https://www.example.org/blog/atom",
            "https://cdn.example.org/feed.json"
        ]
    );
    let with_base = r#"<html><head><base href="https://static.example.org/x/"><link rel="alternate" type="application/atom+xml" href="a.atom"></head></html>"#;
    assert_eq!(discover_feeds(with_base, &page)[0].as_str(), "https://static.example.org/x/a.atom");
    assert!(discover_feeds("<html><body>no feeds</body></html>", &page).is_empty());
}

#[derive(Clone)]
struct Site {
    /// Paths requested, in order.
    log: Arc<Mutex<Vec<String>>>,
    /// Where the "elsewhere" link points.
    external: String,
}

/// A small site: `/` links to two sections, a file, an image, another host and itself;
/// `/deep/n` links to `/deep/n+1` forever; `/wide` links to twenty pages.
async fn site(State(site): State<Site>, request: Request) -> Response {
    let path = request.uri().path().to_owned();
    site.log.lock().unwrap().push(path.clone());
    let page = |links: String| {
        Html(format!(
            "<html><head><title>Page {path}</title></head><body><nav><a href='/'>home</a></nav>\
             <article><h1>Page {path}</h1><p>This page at {path} talks about quarterly results and the markets in some detail.</p>{links}</article></body></html>"
        ))
        .into_response()
    };
    match path.as_str() {
        "/" => page(format!(
            "<a href='/deep/1'>deep</a> <a href='/wide'>wide</a> <a href='/report.pdf'>pdf</a> \
             <a href='/image'>img</a> <a href='/#top'>self</a> <a href='mailto:a@b.c'>mail</a> \
             <a href='{}'>elsewhere</a>",
            site.external
        )),
        "/image" => ([(header::CONTENT_TYPE, "image/png")], vec![0u8; 64]).into_response(),
        "/wide" => page((0..20).map(|n| format!("<a href='/w/{n}'>w{n}</a> ")).collect()),
        p if p.starts_with("/deep/") => {
            let n: u32 = p[6..].parse().unwrap_or(0);
            page(format!("<a href='/deep/{}'>next</a>", n + 1))
        }
        _ => page(String::new()),
    }
}

#[tokio::test]
async fn a_bounded_crawl_stays_in_site_and_within_depth_and_page_limits() {
    let other = Site { log: Arc::new(Mutex::new(Vec::new())), external: String::new() };
    let other_addr = serve_on("127.0.0.2", Router::new().fallback(site).with_state(other.clone())).await;
    let home = Site { log: Arc::new(Mutex::new(Vec::new())), external: format!("http://{other_addr}/") };
    let addr = serve(Router::new().fallback(site).with_state(home.clone())).await;
    // Both hosts are allowed, so only the same-site rule keeps the crawl home.
    let fetcher = ingest::Fetcher::new(ingest::FetchPolicy {
        allow: vec!["127.0.0.0/8".parse().unwrap()],
        ..ingest::FetchPolicy::default()
    })
    .unwrap();
    let limits = CrawlLimits { max_depth: 2, max_pages: 8 };
    let pages = crawl(&fetcher, &url(addr, "/"), &limits).await.unwrap();
    let requested = home.log.lock().unwrap().clone();
    println!("crawl requested {requested:?}");
    assert_eq!(requested.len(), 8, "page limit reached, not passed: {requested:?}");
    assert!(other.log.lock().unwrap().is_empty(), "never left the site");
    assert!(!requested.contains(&"/report.pdf".to_owned()), "files are not fetched");
    assert!(requested.iter().all(|p| p != "/deep/3"), "depth limit: {requested:?}");
    assert_eq!(requested.iter().filter(|p| *p == "/").count(), 1, "no page twice");
    assert_eq!(&requested[..4], ["/", "/deep/1", "/wide", "/image"], "breadth first, in page order");
    assert!(pages.iter().all(|p| p.url.port() == Some(addr.port()) && p.depth <= 2));
    assert!(pages.iter().all(|p| !p.url.path().starts_with("/image")), "non-HTML answers are no pages");
    assert_eq!(pages.len(), 7);
    assert!(pages.iter().all(|p| p.page.text.contains("quarterly results")), "{pages:?}");

    let only_home =
        crawl(&local_fetcher(), &url(addr, "/"), &CrawlLimits { max_depth: 0, max_pages: 10 }).await.unwrap();
    assert_eq!(only_home.len(), 1);
}

fn words(text: &str) -> HashMap<String, usize> {
    let mut counts = HashMap::new();
    for w in text.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()) {
        *counts.entry(w.to_lowercase()).or_insert(0) += 1;
    }
    counts
}

/// Returns (overlapping words, expected words, extracted words), counting repeats.
fn overlap(expected: &str, got: &str) -> (usize, usize, usize) {
    let (e, g) = (words(expected), words(got));
    let common = e.iter().map(|(w, n)| (*n).min(*g.get(w).unwrap_or(&0))).sum();
    (common, e.values().sum(), g.values().sum())
}

#[test]
fn readable_text_recalls_the_expected_article_on_the_shared_pages() {
    let Some(data) = shared_data() else { return };
    let root = data.join("web/readability");
    let mut cases: Vec<_> =
        std::fs::read_dir(&root).unwrap().filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| p.is_dir()).collect();
    cases.sort();
    assert!(!cases.is_empty());
    let (mut common, mut expected_total, mut got_total) = (0, 0, 0);
    for case in &cases {
        let source = std::fs::read_to_string(case.join("source.html")).unwrap();
        let expected = html_to_text(&std::fs::read_to_string(case.join("expected.html")).unwrap());
        let page_url = Url::parse("http://fakehost/test/page.html").unwrap();
        let page = readable_text(&source, Some(&page_url)).expect("a readable page");
        let (c, e, g) = overlap(&expected, &page.text);
        println!(
            "readable text {}: recall {:.3} precision {:.3}",
            case.file_name().unwrap().to_string_lossy(),
            c as f64 / e as f64,
            c as f64 / g.max(1) as f64
        );
        common += c;
        expected_total += e;
        got_total += g;
    }
    let recall = common as f64 / expected_total as f64;
    let precision = common as f64 / got_total as f64;
    println!("readable text over {} pages: word recall {recall:.3}, word precision {precision:.3}", cases.len());
    // dom_smoothie follows Readability.js, whose output the expected files are: it matches them.
    assert!(recall >= 0.95, "recall {recall:.3}");
    assert!(precision >= 0.95, "precision {precision:.3}");
}

#[test]
fn html_to_text_keeps_the_words_of_a_whole_page() {
    let Some(data) = shared_data() else { return };
    let dir = data.join("web/netnewswire-html2text");
    let html = std::fs::read_to_string(dir.join("daringfireball.html")).unwrap();
    let expected = std::fs::read_to_string(dir.join("daringfireball.expected.txt")).unwrap();
    let (c, e, g) = overlap(&expected, &html_to_text(&html));
    let (recall, precision) = (c as f64 / e as f64, c as f64 / g as f64);
    println!("html to text on daringfireball: word recall {recall:.3}, word precision {precision:.3}");
    assert!(recall >= 0.9 && precision >= 0.9);
}

#[test]
fn readable_text_of_an_article_drops_navigation_and_keeps_the_story() {
    let para = "The committee kept its policy rate unchanged and signalled that it would wait for more data on inflation before moving. ";
    let html = format!(
        "<html><head><title>Rates held | Daily</title><meta name='author' content='Ada Lovelace'></head><body>\
         <nav><ul><li><a href='/'>Home</a></li><li><a href='/markets'>Markets</a></li><li><a href='/subscribe'>Subscribe now</a></li></ul></nav>\
         <article><h1>Rates held</h1><p>{0}</p><p>{0}</p><p>{0}</p></article>\
         <footer><a href='/privacy'>Privacy policy</a> Copyright footer</footer></body></html>",
        para
    );
    let page = readable_text(&html, Some(&Url::parse("https://news.example.org/a").unwrap())).unwrap();
    assert!(page.text.contains("policy rate unchanged"));
    assert!(!page.text.contains("Subscribe now") && !page.text.contains("Privacy policy"), "{}", page.text);
    assert!(page.title.as_deref().unwrap().contains("Rates held"));
}
