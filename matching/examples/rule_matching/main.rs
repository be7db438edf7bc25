//! The rule-matching figure of `needl-bench --only feeds` (issue 14), measured from this crate
//! alone: the same corpus, seeds, 1,000 feeds and timed loop (`workload.rs`, which the bench
//! includes too), without building the bench.
//!
//! ```sh
//! cargo run -p matching --release --example rule_matching [-- ITEMS [RUNS]]
//! ```
//!
//! ITEMS (default 100,000) items per timed run, RUNS (default 1) runs. The corpus is the shared
//! feeds data (`NEEDL_SHARED_DATA/feeds`, else `../shared/data/feeds` beside the repository).
//! Also prints a digest of every document's matches, so two builds can be shown to agree.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::PathBuf;
use std::time::Instant;

use matching::RuleSet;

mod workload;

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let items: usize = args.next().map(|a| a.parse()).transpose()?.unwrap_or(100_000);
    let runs: usize = args.next().map(|a| a.parse()).transpose()?.unwrap_or(1);
    let data = std::env::var_os("NEEDL_SHARED_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/data")));
    let corpus = workload::Corpus::load(&data.join("feeds"));
    println!("corpus: {}", corpus.origin);
    let (feeds, documents) = workload::rule_matching_workload(&corpus, 300_000)?;
    let started = Instant::now();
    let rules = RuleSet::new(feeds.iter().map(|(id, f)| (id.clone(), f)));
    println!("{} feeds ({} distinct terms) compiled in {:.1?}", rules.len(), rules.terms(), started.elapsed());
    let mut digest = DefaultHasher::new();
    let mut matcher = rules.matcher();
    for document in &documents {
        matcher.matches(document, workload::now()).hash(&mut digest);
    }
    println!("matches of the {} documents: digest {:016x}", documents.len(), digest.finish());
    for _ in 0..runs {
        println!("{}", workload::measure(&rules, &documents, items));
    }
    Ok(())
}
