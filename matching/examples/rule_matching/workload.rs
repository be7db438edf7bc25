//! The rule-matching workload of `needl-bench --only feeds`, in one place: the corpus (real feed
//! items, cycled; generated text when absent), the 1,000 feeds generated over its vocabulary and
//! the timed loop. `bench/src/feeds.rs` includes this file by path, and so does the example
//! `cargo run -p matching --release --example rule_matching`, so the figure can be measured by
//! building this crate alone, on the same items, seeds and feeds as the bench.
//!
//! - 1,000 feeds, each with 20 include rules that are boolean expressions of 15 terms (about a
//!   third of them phrases: 300 terms per feed), some feeds also narrowed by sources or
//!   categories, with exclusions. Terms are drawn from the corpus's own words that are no stop
//!   words and not in most items (so every feed names words the items really hold) and from its
//!   two- and three-word runs.
//! - The items go one by one through one [`matching::Matcher`] on one core, after one untimed
//!   pass (a running server's matcher has seen words before): items/s, p50, p99 and max per item,
//!   matches per item.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};
use domain::channel::{BoardDefinition, BoardKeyword, BoardKeywords};
use domain::feed_rules::Filters;
use matching::RuleSet;
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use search::{IndexedDocument, PageText};

pub const SOURCES: usize = 50;
pub const CATEGORIES: [&str; 3] = ["rss_news", "india_regulatory_data", "drives"];
/// The bench's "now": items are published in the year before it.
pub const NOW: i64 = 1_790_000_000;

pub struct Corpus {
    pub origin: String,
    /// (title, text)
    pub items: Vec<(String, String)>,
    /// Words of the items as typed, no stop words, in fewer than a tenth of the items.
    pub words: Vec<String>,
    /// Two- and three-word runs of the items.
    pub phrases: Vec<String>,
}

impl Corpus {
    pub fn load(dir: &Path) -> Corpus {
        let mut items = feed_items(dir);
        let generated = items.is_empty();
        let origin = if generated {
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
        // The generated items draw on a few dozen words, each in most items: all of them are
        // kept there, or no feed could be made.
        let limit = if generated { items.len() } else { (items.len() / 10).max(2) };
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
    pub fn document(&self, i: usize, rng: &mut StdRng) -> IndexedDocument {
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

    pub fn term(&self, rng: &mut StdRng) -> String {
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

/// The feeds (id and filters) and the documents of the rule-matching figure.
pub type Workload = (Vec<(String, Filters)>, Vec<IndexedDocument>);

/// The rule-matching figure's feeds (1,000 of 20 rules, as `board-{i}`) and its distinct
/// documents (the corpus once, at most `items`), from seed 14.
pub fn rule_matching_workload(corpus: &Corpus, items: usize) -> anyhow::Result<Workload> {
    let mut rng = StdRng::seed_from_u64(14);
    let feeds: Vec<Filters> = (0..1_000).map(|_| corpus.feed(20, &mut rng)).collect::<anyhow::Result<_>>()?;
    let feeds = feeds.into_iter().enumerate().map(|(i, f)| (format!("board-{i}"), f)).collect();
    let documents = (0..corpus.items.len().min(items)).map(|i| corpus.document(i, &mut rng)).collect();
    Ok((feeds, documents))
}

/// The "now" of every feed's date range in the workload.
pub fn now() -> DateTime<Utc> {
    DateTime::<Utc>::from_timestamp(NOW, 0).expect("a valid instant")
}

/// What one timed run of the rule-matching loop gives.
pub struct Figures {
    pub items: usize,
    pub per_second: f64,
    pub p50: Duration,
    pub p99: Duration,
    pub max: Duration,
    pub matches_per_item: f64,
}

/// One line of figures, as the example and `needl-bench --only feeds` print it.
impl std::fmt::Display for Figures {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} items on one core: {:.0} items/s, p50 {:.1} µs, p99 {:.1} µs, max {:.1} µs per item; {:.2} matching feeds per item",
            self.items,
            self.per_second,
            self.p50.as_secs_f64() * 1e6,
            self.p99.as_secs_f64() * 1e6,
            self.max.as_secs_f64() * 1e6,
            self.matches_per_item
        )
    }
}

/// `items` documents (the `documents` cycled) through one matcher on this thread, each timed,
/// after one untimed pass over the documents.
pub fn measure(rules: &RuleSet, documents: &[IndexedDocument], items: usize) -> Figures {
    let now = now();
    let mut matcher = rules.matcher();
    // One pass to warm the matcher's memory of words, as a running server's would be.
    for document in documents {
        matcher.matches(document, now);
    }
    let mut latencies = Vec::with_capacity(items);
    let mut matched = 0usize;
    let started = Instant::now();
    for i in 0..items {
        let document = &documents[i % documents.len()];
        let t = Instant::now();
        matched += matcher.matches(document, now).len();
        latencies.push(t.elapsed());
    }
    let elapsed = started.elapsed();
    latencies.sort_unstable();
    let at = |q: f64| latencies.get(((items as f64 * q) as usize).min(items.saturating_sub(1))).copied();
    Figures {
        items,
        per_second: items as f64 / elapsed.as_secs_f64(),
        p50: at(0.5).unwrap_or_default(),
        p99: at(0.99).unwrap_or_default(),
        max: latencies.last().copied().unwrap_or_default(),
        matches_per_item: matched as f64 / items.max(1) as f64,
    }
}
