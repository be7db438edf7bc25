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

use std::path::Path;
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};
use domain::channel::{BoardDefinition, BoardKeyword, BoardKeywords};
use domain::feed_rules::Filters;
use hdrhistogram::Histogram;
use matching::RuleSet;
use rand::rngs::StdRng;
use rand::SeedableRng;
use search::{Access, Change, Request, SearchIndex};

use crate::BenchArgs;

// The corpus, the rule-matching feeds and its timed loop live beside the matcher, so that the
// figure can be measured by building `matching` alone (its example `rule_matching`).
#[path = "../../matching/examples/rule_matching/workload.rs"]
mod workload;

use workload::{Corpus, NOW};

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

fn rule_matching(corpus: &Corpus, items: usize) -> anyhow::Result<()> {
    let (feeds, documents) = workload::rule_matching_workload(corpus, items)?;
    let started = Instant::now();
    let rules = RuleSet::new(feeds.iter().map(|(id, f)| (id.clone(), f)));
    let compiled = started.elapsed();
    let figures = workload::measure(&rules, &documents, items);
    println!(
        "  rule matching: {} feeds x 20 rules (300 terms each, {} distinct), compiled in {:.1?}",
        rules.len(),
        rules.terms(),
        compiled
    );
    println!("    {figures}");
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
