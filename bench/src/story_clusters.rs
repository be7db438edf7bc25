//! `needl-bench --only stories`: story clusters (near-duplicate items folded into one story).
//! Prints figures; passes or fails nothing.
//!
//! - **Signatures per second**: [`stories::Signature::of`] over real items, short (AG News title
//!   and description) and long (feed items with their full text), one core.
//! - **Insert latency at 1M items** (50k with `--quick`): an index filled with items made from
//!   real text (an AG News description or a feed paragraph with 30% of its words swapped for
//!   other real words, so items share vocabulary and some shingles, as a news stream does),
//!   published over 30 days; then 10,000 more inserts timed one by one, a tenth of them copies
//!   (with a footer added) of an item of the last two days (they should join its story). p50/p99/max of the insert alone and of
//!   signature plus insert; the resident memory the index added.
//! - **Pair precision, recall and F1** on the labelled sets (`docs/stories.md`): real
//!   syndicated pairs from AG News (all 7,600 items indexed, hand labels), and constructed
//!   edits of real feed items, overall and per edit alone.
//!
//! ```sh
//! cargo build --release -p bench && ./target/release/needl-bench --only stories
//! ```

use std::path::Path;
use std::time::{Duration, Instant};

use hdrhistogram::Histogram;
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use stories::eval::{self, Edit};
use stories::{Signature, StoryIndex, StoryParams};

use crate::BenchArgs;

pub fn run(args: &BenchArgs) -> anyhow::Result<()> {
    println!("stories:");
    let data = &args.data;
    let ag = match std::fs::read_to_string(data.join("news-topics/ag_news_test.csv")) {
        Ok(csv) => eval::ag_news_rows(&csv).map_err(anyhow::Error::msg)?,
        Err(error) => {
            println!("  skipped: no AG News data under {} ({error})", data.display());
            return Ok(());
        }
    };
    let feeds = feed_items(data);
    println!(
        "  data: {} AG News items, {} feed items with 60+ words from {}",
        ag.len(),
        feeds.len(),
        data.join("feeds").display()
    );
    signatures(&ag, &feeds, args.quick);
    insert_latency(&ag, &feeds, if args.quick { 50_000 } else { 1_000_000 })?;
    quality(data, &feeds)?;
    Ok(())
}

fn signatures(ag: &[(String, String)], feeds: &[(String, String, String, String)], quick: bool) {
    let rounds = if quick { 2 } else { 20 };
    let short: Vec<(&str, &str)> = ag.iter().map(|(t, x)| (t.as_str(), x.as_str())).collect();
    let long: Vec<(&str, &str)> = feeds.iter().map(|(_, _, t, x)| (t.as_str(), x.as_str())).collect();
    println!("  signatures (one core):");
    for (name, items) in [("short: AG News title + description", &short), ("long: feed items, full text", &long)] {
        if items.is_empty() {
            continue;
        }
        let bytes: usize = items.iter().map(|(t, x)| t.len() + x.len()).sum::<usize>() * rounds;
        let start = Instant::now();
        let mut keep = 0u32;
        for _ in 0..rounds {
            for (t, x) in items.iter() {
                keep ^= Signature::of(t, x).to_bytes()[5] as u32;
            }
        }
        let secs = start.elapsed().as_secs_f64();
        let n = items.len() * rounds;
        println!(
            "    {name:<38} {:>9.0} items/s  {:>6.1} MB/s  ({n} items, mean {} bytes){}",
            n as f64 / secs,
            bytes as f64 / secs / 1e6,
            bytes / n,
            if keep == u32::MAX { " " } else { "" }
        );
    }
}

/// Real paragraphs to make synthetic items from, and the vocabulary to swap words with.
fn bases(ag: &[(String, String)], feeds: &[(String, String, String, String)]) -> (Vec<(String, String)>, Vec<String>) {
    let mut bases: Vec<(String, String)> = ag.to_vec();
    for (_, _, title, text) in feeds {
        for paragraph in text.split("\n\n").filter(|p| p.split_whitespace().count() >= 25) {
            bases.push((title.clone(), paragraph.to_owned()));
        }
    }
    let mut vocabulary: Vec<String> =
        bases.iter().flat_map(|(_, x)| x.split_whitespace().map(str::to_owned).collect::<Vec<_>>()).collect();
    vocabulary.sort();
    vocabulary.dedup();
    (bases, vocabulary)
}

fn synthetic(rng: &mut StdRng, bases: &[(String, String)], vocabulary: &[String]) -> (String, String) {
    let (title, text) = bases.choose(rng).expect("bases");
    let swap = |s: &str, rng: &mut StdRng| {
        s.split_whitespace()
            .map(|w| if rng.random_bool(0.3) { vocabulary.choose(rng).expect("words").as_str() } else { w })
            .collect::<Vec<_>>()
            .join(" ")
    };
    (swap(title, rng), swap(text, rng))
}

fn insert_latency(
    ag: &[(String, String)],
    feeds: &[(String, String, String, String)],
    size: usize,
) -> anyhow::Result<()> {
    const DAY: i64 = 24 * 3600;
    const TIMED: usize = 10_000;
    let (bases, vocabulary) = bases(ag, feeds);
    let mut rng = StdRng::seed_from_u64(14);
    let span = 30 * DAY;
    let t0 = 1_700_000_000;
    println!("  insert latency: index of {size} items from {} real paragraphs, published over 30 days", bases.len());
    let rss_before = resident_kib();
    let mut index: StoryIndex<u64> = StoryIndex::new(StoryParams::default());
    index.reserve(size + TIMED);
    let mut kept: Vec<(String, String, i64)> = Vec::new();
    let build = Instant::now();
    for i in 0..size {
        let (title, text) = synthetic(&mut rng, &bases, &vocabulary);
        let published = t0 + (i as i64 * span) / size as i64;
        index.insert(i as u64, &format!("source-{}", i % 500), published, &Signature::of(&title, &text));
        // Items of the last two days, inside the window of the timed inserts below.
        if published >= t0 + span - 2 * DAY && kept.len() < 2_000 && rng.random_bool(0.1) {
            kept.push((title, text, published));
        }
    }
    let build_secs = build.elapsed().as_secs_f64();
    let rss_after = resident_kib();
    let mut insert = Histogram::<u64>::new(3)?;
    let mut both = Histogram::<u64>::new(3)?;
    let mut joined = 0;
    let mut copies = 0;
    let now = t0 + span;
    for n in 0..TIMED {
        let (title, text, copy) = if n % 10 == 0 && !kept.is_empty() {
            let (title, text, _) = kept.choose(&mut rng).expect("kept").clone();
            (title, format!("{text} {}", eval::FOOTER), true)
        } else {
            let (title, text) = synthetic(&mut rng, &bases, &vocabulary);
            (title, text, false)
        };
        let start = Instant::now();
        let signature = Signature::of(&title, &text);
        let signed = start.elapsed();
        let placed = index.insert((size + n) as u64, "timed-source", now, &signature);
        let total = start.elapsed();
        insert.record(micros(total - signed))?;
        both.record(micros(total))?;
        if copy {
            copies += 1;
            joined += usize::from(placed.matched.is_some());
        }
    }
    println!(
        "    built in {build_secs:.1} s ({:.0} items/s, signatures included); {} stories; resident memory +{} MiB \
         (~{} bytes per item)",
        size as f64 / build_secs,
        count_stories(&index, size),
        rss_after.saturating_sub(rss_before) / 1024,
        rss_after.saturating_sub(rss_before) * 1024 / size as u64
    );
    let ms = |h: &Histogram<u64>, q: f64| h.value_at_quantile(q) as f64 / 1000.0;
    println!(
        "    insert of one new item, {TIMED} timed:   p50 {:.3} ms  p99 {:.3} ms  max {:.3} ms",
        ms(&insert, 0.5),
        ms(&insert, 0.99),
        insert.max() as f64 / 1000.0
    );
    println!(
        "    signature + insert:                  p50 {:.3} ms  p99 {:.3} ms  max {:.3} ms",
        ms(&both, 0.5),
        ms(&both, 0.99),
        both.max() as f64 / 1000.0
    );
    println!("    copies of an earlier item (footer added) that joined a story: {joined} of {copies}");
    let forget = Instant::now();
    index.forget_before(now - 3 * DAY);
    println!(
        "    forget_before(3 days ago): {:.2} s, {} items left (the window's), resident memory now +{} MiB",
        forget.elapsed().as_secs_f64(),
        index.len(),
        resident_kib().saturating_sub(rss_before) / 1024
    );
    Ok(())
}

/// Stories among the first `size` items (by sampling: each story counted at its first item).
fn count_stories(index: &StoryIndex<u64>, size: usize) -> usize {
    (0..size as u64).filter(|i| index.story_of(i).is_some_and(|s| s.id == *i)).count()
}

fn micros(d: Duration) -> u64 {
    (d.as_nanos() / 1000).max(1) as u64
}

fn resident_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1).and_then(|v| v.parse().ok()))
        })
        .unwrap_or(0)
}

fn quality(data: &Path, feeds: &[(String, String, String, String)]) -> anyhow::Result<()> {
    let params = StoryParams::default();
    let line = |name: &str, s: &eval::PairScore| {
        println!(
            "    {name:<44} precision {:.3}  recall {:.3}  F1 {:.3}  (pairs: {} true, {} false, {} missed)",
            s.precision(),
            s.recall(),
            s.f1(),
            s.true_pairs,
            s.false_pairs,
            s.missed_pairs
        );
    };
    println!("  pair precision / recall (labelled sets, docs/stories.md):");
    let csv = std::fs::read_to_string(data.join("news-topics/ag_news_test.csv"))?;
    let set = eval::ag_news_set(&csv, eval::AG_NEWS_LABELS).map_err(anyhow::Error::msg)?;
    let stories = eval::cluster(&set.items, &params);
    let score = eval::score(&set, &stories);
    line("real: AG News syndicated pairs (7,600 items)", &score);
    // The same clustering on each label file and on both, whole and on the held-out half (the
    // rules were tuned on the other half).
    let files: [(&str, &[&str]); 3] = [
        ("shingle-drawn", &[eval::AG_NEWS_LABELS]),
        ("word-drawn", &[eval::AG_NEWS_WORD_LABELS]),
        ("both files", &[eval::AG_NEWS_LABELS, eval::AG_NEWS_WORD_LABELS]),
    ];
    for (name, scored) in files {
        for (part_name, part) in [("whole", eval::Labels::All), ("held-out half", eval::Labels::HeldOut)] {
            let mut label_files: Vec<(&str, eval::Labels)> = scored.iter().map(|&f| (f, part)).collect();
            for other in [eval::AG_NEWS_LABELS, eval::AG_NEWS_WORD_LABELS] {
                if !scored.contains(&other) {
                    label_files.push((other, eval::Labels::None));
                }
            }
            label_files.push((eval::AG_NEWS_FOLDED_LABELS, eval::Labels::NegativesOnly));
            let set = eval::ag_news_set_of(&csv, &label_files).map_err(anyhow::Error::msg)?;
            line(&format!("  {name}, {part_name}"), &eval::score(&set, &stories));
        }
    }
    for (name, lo, hi) in [("  near-verbatim (>= 50% shared)", 0.5, 1.01), ("  partly shared (20-50%)", 0.2, 0.5)] {
        let (found, total) = eval::recall_by_overlap(&set, &stories, lo, hi);
        println!(
            "    {name:<44} recall {:.3}  ({found} of {total} labelled pairs)",
            found as f64 / total.max(1) as f64
        );
    }
    if feeds.is_empty() {
        println!("    constructed: skipped, no feed items");
        return Ok(());
    }
    let set = eval::constructed_set(feeds);
    line("constructed: edits of real feed items, all", &eval::score(&set, &eval::cluster(&set.items, &params)));
    for edit in Edit::ALL {
        line(&format!("  {} alone", edit.name()), &eval::edit_score(feeds, edit, &params));
    }
    Ok(())
}

/// Real feed items with at least 60 words of text, up to 15 per feed: `(key, feed, title, text)`.
fn feed_items(data: &Path) -> Vec<(String, String, String, String)> {
    let mut files: Vec<std::path::PathBuf> = ["rss1", "rss2", "atom", "jsonfeed"]
        .iter()
        .filter_map(|d| std::fs::read_dir(data.join("feeds").join(d)).ok())
        .flatten()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for path in files {
        let Ok(bytes) = std::fs::read(&path) else { continue };
        let name = path.file_name().unwrap_or_default().to_string_lossy().into_owned();
        let Ok(feed) = ingest::feeds::parse_feed_bytes(&bytes, &name, None, &Default::default()) else { continue };
        let mut taken = 0;
        for item in feed.items {
            let text = item.full_text.or(item.summary).unwrap_or_default();
            if text.split_whitespace().count() < 60 || taken == 15 {
                continue;
            }
            taken += 1;
            out.push((format!("{name}#{}", item.guid), name.clone(), item.title.unwrap_or_default(), text));
        }
    }
    out
}
