//! Prints how many feed items per second `parse_feed_bytes` turns out on the real feed files.
//!
//! `cargo run --release -p ingest --example feed_throughput [ROUNDS]`

use std::path::Path;
use std::time::Instant;

use ingest::{parse_feed_bytes, FeedLimits};

fn main() {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/data/feeds"));
    let rounds: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(20);
    let mut files = Vec::new();
    for format in ["rss2", "rss1", "atom", "jsonfeed"] {
        let Ok(dir) = std::fs::read_dir(root.join(format)) else {
            continue;
        };
        for entry in dir.flatten() {
            files.push((entry.path().display().to_string(), std::fs::read(entry.path()).expect("readable file")));
        }
    }
    if files.is_empty() {
        eprintln!("skipped: ../shared/data not found");
        return;
    }
    let limits = FeedLimits::default();
    let bytes: usize = files.iter().map(|(_, b)| b.len()).sum();
    let mut per_round = Vec::with_capacity(rounds);
    let mut items = 0;
    for _ in 0..rounds {
        let started = Instant::now();
        items = 0;
        for (name, body) in &files {
            let feed = parse_feed_bytes(body, "bench", None, &limits).unwrap_or_else(|e| panic!("{name}: {e}"));
            items += feed.items.len();
        }
        per_round.push(started.elapsed().as_secs_f64());
    }
    per_round.sort_by(f64::total_cmp);
    let median = per_round[per_round.len() / 2];
    let p99 = per_round[((per_round.len() as f64 * 0.99) as usize).min(per_round.len() - 1)];
    println!(
        "feed parsing: {} files, {} items, {:.1} MB per round, {} rounds",
        files.len(),
        items,
        bytes as f64 / 1e6,
        rounds
    );
    println!(
        "median round {:.1} ms ({:.0} items/s, {:.1} MB/s), p99 round {:.1} ms",
        median * 1e3,
        items as f64 / median,
        bytes as f64 / 1e6 / median,
        p99 * 1e3
    );
}
