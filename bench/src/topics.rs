//! `needl-bench --only topics`: AI feeds' topics with the offline embedding model. Prints
//! figures; passes or fails nothing. Skipped, with a message, when the model (`scripts/setup`
//! fetches it) or the AG News data is absent.
//!
//! - **Embedding throughput**: AG News items (title and description) per second through
//!   [`embed::Embedder`], on the machine's cores.
//! - **Accuracy and macro-F1** on AG News test (4 topics): from one description per topic (the
//!   sentences in [`TOPICS`], written once and not tuned on the data), then from the description
//!   and 32 examples per topic (drawn at random, 5 draws, scored on the items that are not
//!   examples), then from the description refined by feedback (16 "more like this" and up to 16
//!   "less like this" per topic from the same pool). Each with scores measured from the origin
//!   and from the corpus's mean embedding (unlabelled, the product can compute it from what it
//!   stored). Each also adapted to the corpus (2 rounds of [`TopicModel::adapt`]: items assigned
//!   to their best topic, topics moved toward their items' mean; no labels), and then with the
//!   linear discriminant the server fits to what it stores ([`TopicModel::discriminate`], 3
//!   rounds, no labels). Each accuracy is given over all items, and over the even rows (on which
//!   the method and its settings were chosen) and the odd rows (held out from that choice).
//! - **Re-applying a topic rule** to 1M stored embeddings (100k with `--quick`; synthetic unit
//!   vectors): one dot product per item.
//!
//! With `--quick` only the first 100 items of each topic are embedded and scored.
//!
//! ```sh
//! ./scripts/setup    # fetches the model once
//! cargo build -p bench && ./target/debug/needl-bench --only topics
//! ```

use std::time::Instant;

use embed::topics::eval::{self, build, score, ADAPT_ROUNDS, DISCRIMINANT_ROUNDS, DRAWS, EXAMPLES, TOPICS};
use embed::topics::mean;
use embed::{Embedder, TopicModel, DIM};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::BenchArgs;

// The descriptions, the draw of examples, the rounds of fitting and the scoring are
// `embed::topics::eval`'s, which `embed/tests/topics_ag_news.rs` also runs over cached
// embeddings: the two measure alike.

pub fn run(args: &BenchArgs) -> anyhow::Result<()> {
    println!("topics:");
    let Some(dir) = embed::locate(None) else {
        println!("  skipped: no embedding model (run scripts/setup, or set {} to its folder)", embed::MODEL_ENV);
        return Ok(());
    };
    let path = args.data.join("news-topics/ag_news_test.csv");
    let csv = match std::fs::read_to_string(&path) {
        Ok(csv) => csv,
        Err(error) => {
            println!("  skipped: no AG News data at {} ({error})", path.display());
            return Ok(());
        }
    };
    let mut items = eval::labelled_rows(&csv).map_err(anyhow::Error::msg)?;
    if args.quick {
        let mut per = [0usize; 4];
        items.retain(|(label, _)| {
            per[*label] += 1;
            per[*label] <= 100
        });
    }
    let labels: Vec<usize> = items.iter().map(|(l, _)| *l).collect();
    let texts: Vec<&str> = items.iter().map(|(_, t)| t.as_str()).collect();
    println!("  model: {}", dir.display());
    let embedder = Embedder::load(&dir)?;

    let started = Instant::now();
    let vectors = embedder.embed(&texts)?;
    let secs = started.elapsed().as_secs_f64();
    println!(
        "  embedding: {} items in {secs:.1} s = {:.0} items/s ({} threads; title + description, batches of {})",
        texts.len(),
        texts.len() as f64 / secs,
        std::thread::available_parallelism().map_or(1, |n| n.get()),
        embed::BATCH
    );
    let descriptions = embedder.embed(&TOPICS.map(|t| t.1))?;
    let background = mean(&vectors);

    println!("  AG News test, {} items, 4 topics (accuracy, macro-F1):", texts.len());
    for (name, bg) in [("from the origin", None), ("from the corpus mean", Some(background.clone()))] {
        // One description per topic, every item scored.
        let model = build(&descriptions, &vec![Vec::new(); 4], bg.clone())?;
        let all: Vec<usize> = (0..texts.len()).collect();
        let (acc, f1) = score(&model, &vectors, &labels, &all);
        println!("    description only, {name}: {:.1}%, {:.3}", acc * 100.0, f1);
        let mut adapted = model.clone();
        adapted.adapt(&vectors, ADAPT_ROUNDS);
        let (acc, f1) = score(&adapted, &vectors, &labels, &all);
        println!(
            "    description, adapted to the corpus ({ADAPT_ROUNDS} rounds, no labels), {name}: {:.1}%, {:.3}",
            acc * 100.0,
            f1
        );
        adapted.discriminate(&vectors, DISCRIMINANT_ROUNDS);
        let (acc, f1) = score(&adapted, &vectors, &labels, &all);
        println!(
            "    description, adapted, with the discriminant ({DISCRIMINANT_ROUNDS} rounds, no labels), {name}: {:.1}%, {:.3} {}",
            acc * 100.0,
            f1,
            halves(&adapted, &vectors, &labels, &all)
        );

        // Description and 32 examples per topic; then description and feedback.
        let (mut ex_acc, mut ex_f1, mut fb_acc, mut fb_f1) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        let (mut ad_acc, mut ad_f1) = (Vec::new(), Vec::new());
        let (mut di_acc, mut di_f1, mut di_even, mut di_odd) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for seed in 0..DRAWS {
            let pools = eval::draw(&labels, 4, EXAMPLES, seed);
            let held: Vec<usize> = all.iter().copied().filter(|i| !pools[labels[*i]].contains(i)).collect();
            let examples: Vec<Vec<Vec<f32>>> =
                pools.iter().map(|p| p.iter().map(|&i| vectors[i].clone()).collect()).collect();
            let mut model = build(&descriptions, &examples, bg.clone())?;
            let (a, f) = score(&model, &vectors, &labels, &held);
            ex_acc.push(a);
            ex_f1.push(f);
            model.adapt(&vectors, ADAPT_ROUNDS);
            let (a, f) = score(&model, &vectors, &labels, &held);
            ad_acc.push(a);
            ad_f1.push(f);
            model.discriminate(&vectors, DISCRIMINANT_ROUNDS);
            let (a, f) = score(&model, &vectors, &labels, &held);
            di_acc.push(a);
            di_f1.push(f);
            let (even, odd) = eval::halves(&held);
            di_even.push(score(&model, &vectors, &labels, &even).0);
            di_odd.push(score(&model, &vectors, &labels, &odd).0);

            // Feedback from the same pool: half the examples as "more like this", and the pool's
            // items the description model puts in a topic wrongly as "less like this" for it.
            let mut model = build(&descriptions, &vec![Vec::new(); 4], bg.clone())?;
            let pool: Vec<usize> = pools.iter().flatten().copied().collect();
            let predicted: Vec<usize> = pool.iter().map(|&i| model.best(&vectors[i]).map_or(0, |b| b.0)).collect();
            for (t, (key, _)) in TOPICS.iter().enumerate() {
                for &i in pools[t].iter().take(EXAMPLES / 2) {
                    model.feedback(key, &vectors[i], true)?;
                }
                let wrong = pool.iter().zip(&predicted).filter(|(i, p)| **p == t && labels[**i] != t);
                for (&i, _) in wrong.take(EXAMPLES / 2) {
                    model.feedback(key, &vectors[i], false)?;
                }
            }
            let (a, f) = score(&model, &vectors, &labels, &held);
            fb_acc.push(a);
            fb_f1.push(f);
        }
        println!(
            "    description + {EXAMPLES} examples per topic, {name}: {} ({DRAWS} draws, mean [min-max])",
            spread(&ex_acc, &ex_f1)
        );
        println!(
            "    description + {EXAMPLES} examples per topic, adapted to the corpus, {name}: {}",
            spread(&ad_acc, &ad_f1)
        );
        println!(
            "    description + {EXAMPLES} examples per topic, adapted, with the discriminant, {name}: {} (even rows {:.1}%, odd rows {:.1}%)",
            spread(&di_acc, &di_f1),
            di_even.iter().sum::<f64>() / di_even.len() as f64 * 100.0,
            di_odd.iter().sum::<f64>() / di_odd.len() as f64 * 100.0
        );
        println!(
            "    description + feedback ({} more, up to {} less per topic), {name}: {}",
            EXAMPLES / 2,
            EXAMPLES / 2,
            spread(&fb_acc, &fb_f1)
        );
    }

    rule_over_stored(&descriptions, background, if args.quick { 100_000 } else { 1_000_000 })?;
    ingest_cost(&embedder, &texts)?;
    feed_over_the_store(&embedder, &vectors, &args.data_dir, if args.quick { 20_000 } else { 1_000_000 })
}

/// What embedding costs ingest per document, at the length the server embeds (title and the
/// first [`OPENING_CHARS`](service::semantic::OPENING_CHARS) characters: several AG News items
/// joined make one such document): one document at a time (a lone arrival) and in batches.
fn ingest_cost(embedder: &Embedder, texts: &[&str]) -> anyhow::Result<()> {
    let long: Vec<String> =
        texts.chunks(8).take(64).map(|c| service::semantic::embedding_text("A title", &c.join(" "))).collect();
    let refs: Vec<&str> = long.iter().map(String::as_str).collect();
    let started = Instant::now();
    for t in refs.iter().take(16) {
        embedder.embed(&[*t])?;
    }
    let one = started.elapsed().as_secs_f64() / 16.0;
    let started = Instant::now();
    embedder.embed(&refs)?;
    let batched = started.elapsed().as_secs_f64() / refs.len() as f64;
    println!(
        "  ingest cost of embedding, per document of ~{} chars: {:.0} ms alone, {:.0} ms in batches of {} ({} documents)",
        service::semantic::OPENING_CHARS,
        one * 1000.0,
        batched * 1000.0,
        embed::BATCH,
        refs.len()
    );
    Ok(())
}

/// A feed's topics re-applied over `n` vectors in the server's own store (a file written and read
/// back as at start): the seeded finance taxonomy plus one topic, classified as the server does
/// ([`service::feeds::topics::THRESHOLD`]). The vectors are the AG News items' own, each repeated
/// with a small perturbation, so scores spread as real ones do.
fn feed_over_the_store(
    embedder: &Embedder,
    corpus: &[Vec<f32>],
    scratch: &std::path::Path,
    n: usize,
) -> anyhow::Result<()> {
    let dir = scratch.join(format!("bench-vectors-{}", std::process::id()));
    let path = service::semantic::vectors_path(&dir);
    let result = (|| -> anyhow::Result<()> {
        let mut rng = StdRng::seed_from_u64(11);
        let started = Instant::now();
        let mut store = embed::VectorStore::open(&path)?;
        for chunk in (0..n).collect::<Vec<_>>().chunks(10_000) {
            let items: Vec<(String, Vec<f32>)> = chunk
                .iter()
                .map(|&i| {
                    let mut v = corpus[i % corpus.len()].clone();
                    v.iter_mut().for_each(|x| *x += (rng.random::<f32>() - 0.5) * 0.02);
                    embed::normalize(&mut v);
                    (format!("doc-{i:08}"), v)
                })
                .collect();
            store.insert(&items)?;
        }
        let written = started.elapsed().as_secs_f64();
        drop(store);
        let started = Instant::now();
        let store = embed::VectorStore::open(&path)?;
        let loaded = started.elapsed().as_secs_f64();
        let mut model = TopicModel::new(service::feeds::topics::THRESHOLD);
        for t in service::feeds::choices::TOPICS {
            model.define(t.key, &embedder.embed_one(&format!("{}: {}.", t.label, t.description))?, &[])?;
        }
        model.define("chips", &embedder.embed_one("Semiconductors, chip makers and fabs")?, &[])?;
        let keys: Vec<&str> = model.keys().collect();
        let wanted = vec![keys.iter().position(|k| *k == "mergers").unwrap_or(0), keys.len() - 1];
        let mut times = Vec::new();
        let mut matched = 0;
        for _ in 0..3 {
            let started = Instant::now();
            let rows = model.select(store.matrix(), &wanted);
            let deeplinks: Vec<&str> = rows.iter().map(|r| store.key(*r)).collect();
            matched = deeplinks.len();
            times.push(started.elapsed().as_secs_f64());
        }
        times.sort_by(f64::total_cmp);
        println!(
            "  re-applying a feed's topics over {n} stored vectors (the server's store, {} topics): median {:.2} s over 3 runs, one core ({matched} selected); store written in {written:.1} s, read at start in {loaded:.1} s (goal: 1M in <= 5 s)",
            keys.len(),
            times[1]
        );
        Ok(())
    })();
    let _ = std::fs::remove_dir_all(&dir);
    result
}

/// Accuracy over the even rows (where the method was chosen) and the odd rows (held out).
fn halves(model: &TopicModel, vectors: &[Vec<f32>], labels: &[usize], over: &[usize]) -> String {
    let (even, odd) = eval::halves(over);
    format!(
        "(even rows {:.1}%, odd rows {:.1}%)",
        score(model, vectors, labels, &even).0 * 100.0,
        score(model, vectors, labels, &odd).0 * 100.0
    )
}

fn spread(acc: &[f64], f1: &[f64]) -> String {
    let m = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    let lo = acc.iter().copied().fold(f64::MAX, f64::min);
    let hi = acc.iter().copied().fold(f64::MIN, f64::max);
    format!("{:.1}% [{:.1}-{:.1}], {:.3}", m(acc) * 100.0, lo * 100.0, hi * 100.0, m(f1))
}

/// A changed topic re-applied to stored embeddings: every item's score is one dot product.
fn rule_over_stored(descriptions: &[Vec<f32>], background: Vec<f32>, n: usize) -> anyhow::Result<()> {
    let mut rng = StdRng::seed_from_u64(7);
    let mut stored = vec![0f32; n * DIM];
    for row in stored.chunks_exact_mut(DIM) {
        row.iter_mut().for_each(|x| *x = rng.random::<f32>() - 0.5);
        embed::normalize(row);
    }
    let mut model = build(descriptions, &vec![Vec::new(); 4], Some(background))?;
    model.threshold = 0.05;
    let rule = model.rule("business")?;
    let mut times = Vec::new();
    let mut matched = 0;
    for _ in 0..3 {
        let started = Instant::now();
        matched = rule.apply(&stored).len();
        times.push(started.elapsed().as_secs_f64());
    }
    times.sort_by(f64::total_cmp);
    println!(
        "  re-applying a topic rule to {n} stored embeddings (synthetic, {} MB): median {:.2} s over 3 runs, one core ({matched} matched)",
        n * DIM * 4 / 1_000_000,
        times[1]
    );
    Ok(())
}
