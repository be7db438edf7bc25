//! `needl-bench --only feeds`: custom feeds' rule matching and re-evaluation over history.
//! Prints figures; passes or fails nothing.
//!
//! - **Rule matching**: 1,000 feeds defined, each with 20 include rules that are boolean
//!   expressions of 15 terms (about a third of them phrases: 300 terms per feed), some feeds also
//!   narrowed by sources or categories, with exclusions. Real feed items (the shared feeds data,
//!   cycled; generated text when absent) go one by one through [`matching::Matcher`] on one core:
//!   items/s, p50 and p99 per item, matches per item. Terms are drawn from the corpus's own
//!   words that are no stop words and not in most items (so every feed names words the items
//!   really hold) and from its two- and three-word runs.
//! - **Re-evaluation**: the items stored in the search index (100k, 10k with `--quick`); a
//!   feed's preview count ([`search::SearchIndex::count`] of [`search::Request::for_feed`]) for
//!   20 different definitions: p50 and p95. Then the index grown to 1M items (20k with
//!   `--quick`), and a changed definition applied to all of them: every matching deeplink
//!   collected ([`search::SearchIndex::matching_deeplinks`]), p50 and max over 5 definitions.
//! - **Alert latency**: a new match to the live socket and the bell, p50 and p95 ([`crate::alerts`]).
//!
//! ```sh
//! cargo build --release -p bench && ./target/release/needl-bench --data-dir /tmp/b --only feeds
//! ```

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};
use domain::channel::{BoardDefinition, BoardKeyword, BoardKeywords};
use domain::feed_rules::Filters;
use hdrhistogram::Histogram;
use matching::RuleSet;
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use search::{Access, Change, IndexedDocument, PageText, Request, SearchIndex};

use crate::BenchArgs;

const SOURCES: usize = 50;
const CATEGORIES: [&str; 3] = ["rss_news", "india_regulatory_data", "drives"];
/// The bench's "now": items are published in the year before it.
const NOW: i64 = 1_790_000_000;

pub async fn run(data_dir: &Path, args: &BenchArgs) -> anyhow::Result<()> {
    let data = args.data.clone();
    let work = data_dir.join(format!("bench-feeds-{}", uuid::Uuid::new_v4().simple()));
    let scratch = work.clone();
    let quick = args.quick;
    let result = tokio::task::spawn_blocking(move || -> anyhow::Result<()> {
        println!("feeds:");
        let corpus = Corpus::load(&data.join("feeds"));
        println!("  corpus: {}", corpus.origin);
        rule_matching(&corpus, if quick { 20_000 } else { 300_000 })?;
        let sizes = if quick { (10_000, 20_000) } else { (100_000, 1_000_000) };
        reevaluation(&corpus, &work, sizes)?;
        Ok(())
    })
    .await;
    let _ = std::fs::remove_dir_all(scratch);
    result??;
    crate::alerts::run(data_dir, quick).await
}

struct Corpus {
    origin: String,
    /// (title, text)
    items: Vec<(String, String)>,
    /// Words of the items as typed, no stop words, in fewer than a tenth of the items.
    words: Vec<String>,
    /// Two- and three-word runs of the items.
    phrases: Vec<String>,
}

impl Corpus {
    fn load(dir: &Path) -> Corpus {
        let mut items = feed_items(dir);
        let origin = if items.is_empty() {
            items = generated_items();
            format!("{} generated items (no feeds data under {})", items.len(), dir.display())
        } else {
            format!("{} real items of {} (cycled)", items.len(), dir.display())
        };
        let mut words = search::schema::words();
        let mut english = search::schema::english();
        let mut frequency: HashMap<String, usize> = HashMap::new();
        let mut phrases = Vec::new();
        for (i, (title, text)) in items.iter().enumerate() {
            let tokens = search::schema::tokens(&mut words, &format!("{title}\n\n{text}"));
            let mut seen: Vec<&String> = tokens.iter().map(|(_, w)| w).collect();
            seen.sort();
            seen.dedup();
            for w in seen {
                *frequency.entry(w.clone()).or_default() += 1;
            }
            for (j, window) in tokens.windows(3).enumerate() {
                if (i + j) % 11 == 0 {
                    let n = 2 + (j % 2);
                    phrases.push(window[..n].iter().map(|(_, w)| w.as_str()).collect::<Vec<_>>().join(" "));
                }
            }
        }
        let limit = (items.len() / 10).max(2);
        let mut vocabulary: Vec<String> = frequency
            .into_iter()
            .filter(|(w, n)| {
                *n <= limit
                    && !matches!(w.as_str(), "and" | "or" | "not")
                    && search::schema::tokens(&mut english, w).len() == 1
            })
            .map(|(w, _)| w)
            .collect();
        vocabulary.sort();
        phrases.retain(|p| !p.split(' ').any(|w| matches!(w, "and" | "or" | "not")));
        phrases.sort();
        phrases.dedup();
        Corpus { origin, items, words: vocabulary, phrases }
    }

    /// The `i`th stored item: the corpus cycled, each copy its own document.
    fn document(&self, i: usize, rng: &mut StdRng) -> IndexedDocument {
        let (title, text) = &self.items[i % self.items.len()];
        IndexedDocument {
            deeplink: format!("item-{i}"),
            source_id: format!("source-{}", rng.random_range(0..SOURCES)),
            category: CATEGORIES[rng.random_range(0..CATEGORIES.len())].to_string(),
            title: title.clone(),
            pages: vec![PageText { text: text.clone(), lines: vec![] }],
            published: Some(NOW - rng.random_range(0..365 * 86_400)),
            updated: NOW,
            ..Default::default()
        }
    }

    fn term(&self, rng: &mut StdRng) -> String {
        if rng.random_ratio(1, 3) {
            format!("\"{}\"", self.phrases.choose(rng).expect("phrases"))
        } else {
            self.words.choose(rng).expect("words").clone()
        }
    }

    /// One include rule of 15 terms: `(7 terms OR'ed) AND (6 terms OR'ed) AND NOT (2 terms)`.
    fn rule(&self, rng: &mut StdRng) -> String {
        let group = |n: usize, rng: &mut StdRng| (0..n).map(|_| self.term(rng)).collect::<Vec<_>>().join(" OR ");
        format!("({}) AND ({}) AND NOT ({})", group(7, rng), group(6, rng), group(2, rng))
    }

    /// A feed of `rules` include rules, sometimes narrowed by sources or a category.
    fn feed(&self, rules: usize, rng: &mut StdRng) -> anyhow::Result<Filters> {
        let keyword = |k: String| BoardKeyword { keyword: k, valid: true };
        let mut definition = BoardDefinition {
            name: "Feed".into(),
            keywords: BoardKeywords {
                include: (0..rules).map(|_| keyword(self.rule(rng))).collect(),
                exclude: vec![keyword(self.term(rng))],
            },
            ..Default::default()
        };
        match rng.random_range(0..4) {
            0 => {
                let sources: serde_json::Map<String, serde_json::Value> = (0..5)
                    .map(|_| (format!("source-{}", rng.random_range(0..SOURCES)), serde_json::json!({"filter": true})))
                    .collect();
                definition.sources = serde_json::Value::Object(sources);
            }
            1 => {
                let category = CATEGORIES[rng.random_range(0..CATEGORIES.len())].to_string();
                definition.common =
                    serde_json::Value::Object([(category, serde_json::json!({"filter": true}))].into_iter().collect());
            }
            _ => {}
        }
        Ok(Filters::checked(&definition)?)
    }
}

fn feed_items(dir: &Path) -> Vec<(String, String)> {
    let mut files: Vec<PathBuf> = Vec::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e != "md") {
                files.push(path);
            }
        }
    }
    files.sort();
    let mut items = Vec::new();
    for file in files {
        let Ok(bytes) = std::fs::read(&file) else { continue };
        let Ok(feed) = ingest::feeds::parse_feed_bytes(&bytes, "bench", None, &Default::default()) else { continue };
        for item in feed.items {
            let text = [item.summary, item.full_text].into_iter().flatten().collect::<Vec<_>>().join("\n\n");
            let title = item.title.unwrap_or_default();
            if !title.is_empty() || !text.is_empty() {
                items.push((title, text));
            }
        }
    }
    items
}

/// News-like items from a fixed vocabulary, when the shared feeds data is absent.
fn generated_items() -> Vec<(String, String)> {
    const WORDS: &str = "bank rate inflation repo policy steel tariff import export rupee dollar bond yield \
        market shares profit revenue quarter results guidance merger acquisition court ruling regulator \
        monsoon crop harvest oil crude gas power coal solar wind election vote minister budget deficit \
        growth jobs wages housing loan credit rating upgrade downgrade dividend buyback chief executive \
        board director plant factory orders sales cars airline jets port shipping freight rail road";
    let vocabulary: Vec<&str> = WORDS.split_whitespace().collect();
    let mut rng = StdRng::seed_from_u64(7);
    (0..2_000)
        .map(|_| {
            let mut sentence =
                |n: usize| (0..n).map(|_| *vocabulary.choose(&mut rng).unwrap()).collect::<Vec<_>>().join(" ");
            (sentence(8), format!("{}. {}. {}.", sentence(15), sentence(20), sentence(12)))
        })
        .collect()
}

fn rule_matching(corpus: &Corpus, items: usize) -> anyhow::Result<()> {
    let mut rng = StdRng::seed_from_u64(14);
    let feeds: Vec<Filters> = (0..1_000).map(|_| corpus.feed(20, &mut rng)).collect::<anyhow::Result<_>>()?;
    let started = Instant::now();
    let rules = RuleSet::new(feeds.iter().enumerate().map(|(i, f)| (format!("board-{i}"), f)));
    let compiled = started.elapsed();
    let documents: Vec<IndexedDocument> =
        (0..corpus.items.len().min(items)).map(|i| corpus.document(i, &mut rng)).collect();
    let now = DateTime::<Utc>::from_timestamp(NOW, 0).expect("a valid instant");
    let mut matcher = rules.matcher();
    // One pass to warm the matcher's memory of words, as a running server's would be.
    for document in &documents {
        matcher.matches(document, now);
    }
    let mut latency = Histogram::<u64>::new(3)?;
    let mut matched = 0usize;
    let started = Instant::now();
    for i in 0..items {
        let document = &documents[i % documents.len()];
        let t = Instant::now();
        matched += matcher.matches(document, now).len();
        latency.record(t.elapsed().as_nanos().max(1) as u64)?;
    }
    let elapsed = started.elapsed();
    println!(
        "  rule matching: {} feeds x 20 rules (300 terms each, {} distinct), compiled in {:.1?}",
        rules.len(),
        rules.terms(),
        compiled
    );
    println!(
        "    {items} items on one core: {:.0} items/s, p50 {:.1} µs, p99 {:.1} µs, max {:.1} µs per item; {:.2} matching feeds per item",
        items as f64 / elapsed.as_secs_f64(),
        latency.value_at_quantile(0.5) as f64 / 1e3,
        latency.value_at_quantile(0.99) as f64 / 1e3,
        latency.max() as f64 / 1e3,
        matched as f64 / items as f64
    );
    println!("    goal: >= 250k items/s, p99 < 1 ms");
    Ok(())
}

fn reevaluation(corpus: &Corpus, dir: &Path, (recent, all): (usize, usize)) -> anyhow::Result<()> {
    let mut rng = StdRng::seed_from_u64(41);
    let index = SearchIndex::open(dir, 2)?;
    let started = Instant::now();
    let mut stored = 0;
    let mut grow = |to: usize, rng: &mut StdRng| -> anyhow::Result<()> {
        while stored < to {
            let n = 10_000.min(to - stored);
            index.apply_blocking(
                (stored..stored + n).map(|i| Change::Upsert(Box::new(corpus.document(i, rng)))).collect(),
                None,
            )?;
            stored += n;
        }
        Ok(())
    };
    grow(recent, &mut rng)?;
    println!(
        "  re-evaluation: {} items stored in {:.1?} ({:.0} items/s into the index)",
        index.documents(),
        started.elapsed(),
        recent as f64 / started.elapsed().as_secs_f64()
    );
    let now = DateTime::<Utc>::from_timestamp(NOW, 0).expect("a valid instant");
    // Feeds as people write them: five include rules of a few terms, one exclusion.
    let feed = |rng: &mut StdRng| -> anyhow::Result<Filters> {
        let keyword = |k: String| BoardKeyword { keyword: k, valid: true };
        let include = (0..5)
            .map(|_| keyword(format!("{} OR ({} AND {})", corpus.term(rng), corpus.term(rng), corpus.term(rng))))
            .collect();
        let definition = BoardDefinition {
            name: "Feed".into(),
            keywords: BoardKeywords { include, exclude: vec![keyword(corpus.term(rng))] },
            ..Default::default()
        };
        Ok(Filters::checked(&definition)?)
    };
    let access = Access::Public;
    let mut preview = Histogram::<u64>::new(3)?;
    let mut counted = 0;
    for _ in 0..20 {
        let request = Request::for_feed(&feed(&mut rng)?, access.clone(), now);
        let t = Instant::now();
        counted += index.count(&request)?;
        preview.record(t.elapsed().as_micros().max(1) as u64)?;
    }
    println!(
        "    preview count over {} items: p50 {:.2} ms, p95 {:.2} ms ({:.0} matches per definition; goal p95 <= 1 s)",
        index.documents(),
        preview.value_at_quantile(0.5) as f64 / 1e3,
        preview.value_at_quantile(0.95) as f64 / 1e3,
        counted as f64 / 20.0
    );
    let started = Instant::now();
    grow(all, &mut rng)?;
    println!("    grown to {} items in {:.1?}", index.documents(), started.elapsed());
    let mut times = Vec::new();
    let mut collected = 0;
    for _ in 0..5 {
        let request = Request::for_feed(&feed(&mut rng)?, access.clone(), now);
        let t = Instant::now();
        collected += index.matching_deeplinks(&request)?.len();
        times.push(t.elapsed());
    }
    times.sort();
    println!(
        "    changed definition applied to {} items (every matching deeplink collected): p50 {:.2?}, max {:.2?} ({:.0} matches per definition; goal <= 15 s)",
        index.documents(),
        times[times.len() / 2],
        times.last().copied().unwrap_or(Duration::ZERO),
        collected as f64 / 5.0
    );
    Ok(())
}
