//! The AI-topics accuracy of `needl-bench --only topics` on AG News test, over embeddings cached
//! in a file, so the topic model can be measured again in seconds instead of re-embedding 7,600
//! items (about 5 minutes on 2 cores). Ignored by default (it needs the model and the data):
//!
//! ```sh
//! CARGO_TARGET_DIR=/work/tgt-embed cargo test -p embed --release --test topics_ag_news -- --ignored --nocapture
//! ```
//!
//! The data is `NEEDL_AG_NEWS` or `../shared/data/news-topics/ag_news_test.csv` beside the
//! repository; the vectors are cached in `NEEDL_AG_NEWS_VECTORS` or the temporary directory's
//! `needl-ag-news-vectors.bin` (re-embedded when the texts or their number changed). Scoring is
//! the bench's own ([`embed::topics::eval`]): same descriptions, same draws, same rows.
//!
//! The odd rows are held out from the choice of methods and settings: their accuracy, and that of
//! all rows (which would give them away), is printed only with `NEEDL_HELD_OUT=1`, so tuning on
//! the even rows does not show them by accident.

use std::hash::{Hash, Hasher};
use std::path::PathBuf;

use embed::topics::eval::{self, DRAWS, EXAMPLES, TOPICS};
use embed::{Embedder, DIM};

#[test]
#[ignore = "needs the embedding model and AG News; about 5 minutes the first time"]
fn ag_news_topics() {
    let Some(dir) = embed::locate(None) else {
        eprintln!("SKIPPED: no embedding model (run scripts/setup)");
        return;
    };
    let data = std::env::var_os("NEEDL_AG_NEWS").map(PathBuf::from).unwrap_or_else(|| {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/news-topics/ag_news_test.csv")
    });
    let Ok(csv) = std::fs::read_to_string(&data) else {
        eprintln!("SKIPPED: no AG News data at {}", data.display());
        return;
    };
    let rows = eval::labelled_rows(&csv).expect("AG News parses");
    let labels: Vec<usize> = rows.iter().map(|(l, _)| *l).collect();
    let texts: Vec<&str> = rows.iter().map(|(_, t)| t.as_str()).collect();
    let embedder = Embedder::load(&dir).expect("the model loads");
    let vectors = cached_vectors(&embedder, &texts);
    let descriptions = embedder.embed(&TOPICS.map(|t| t.1)).expect("descriptions embed");
    let held_out = std::env::var("NEEDL_HELD_OUT").is_ok_and(|v| v == "1");

    println!("AG News test, {} items, 4 topics: accuracy all / even rows / odd rows, macro-F1", texts.len());
    let all: Vec<usize> = (0..texts.len()).collect();
    let mut model = eval::build(&descriptions, &vec![Vec::new(); 4], None).unwrap();
    eval::fit(&mut model, &vectors);
    let row = Row::of(&model, &vectors, &labels, &all);
    println!("  one description per topic, fitted: {}", Row::mean(&[row]).show(held_out));

    let mut draws = Vec::new();
    for seed in 0..DRAWS {
        let pools = eval::draw(&labels, 4, EXAMPLES, seed);
        let examples: Vec<Vec<Vec<f32>>> =
            pools.iter().map(|p| p.iter().map(|&i| vectors[i].clone()).collect()).collect();
        let held: Vec<usize> = all.iter().copied().filter(|i| !pools[labels[*i]].contains(i)).collect();
        let mut model = eval::build(&descriptions, &examples, None).unwrap();
        eval::fit(&mut model, &vectors);
        draws.push(Row::of(&model, &vectors, &labels, &held));
    }
    let shown = |r: &Row| if held_out { r.all } else { r.even };
    let lo = draws.iter().map(shown).fold(f64::MAX, f64::min);
    let hi = draws.iter().map(shown).fold(f64::MIN, f64::max);
    println!(
        "  description + {EXAMPLES} examples per topic, fitted: {} ({DRAWS} draws, {} {:.1}-{:.1}%)",
        Row::mean(&draws).show(held_out),
        if held_out { "all rows" } else { "even rows" },
        lo * 100.0,
        hi * 100.0
    );
}

/// One model's accuracy over all scored rows, the even and the odd ones, and its macro-F1.
#[derive(Clone, Copy)]
struct Row {
    all: f64,
    even: f64,
    odd: f64,
    f1: f64,
}

impl Row {
    fn of(model: &embed::TopicModel, vectors: &[Vec<f32>], labels: &[usize], over: &[usize]) -> Self {
        let (even, odd) = eval::halves(over);
        let (all, f1) = eval::score(model, vectors, labels, over);
        Row {
            all,
            even: eval::score(model, vectors, labels, &even).0,
            odd: eval::score(model, vectors, labels, &odd).0,
            f1,
        }
    }

    fn mean(rows: &[Row]) -> Row {
        let m = |f: fn(&Row) -> f64| rows.iter().map(f).sum::<f64>() / rows.len() as f64;
        Row { all: m(|r| r.all), even: m(|r| r.even), odd: m(|r| r.odd), f1: m(|r| r.f1) }
    }

    /// Without `held_out`, only the even rows' accuracy: all rows' would give the odd ones away.
    fn show(&self, held_out: bool) -> String {
        match held_out {
            true => format!(
                "{:.1}% / {:.1}% / {:.1}%, {:.3}",
                self.all * 100.0,
                self.even * 100.0,
                self.odd * 100.0,
                self.f1
            ),
            false => format!("- / {:.1}% / -", self.even * 100.0),
        }
    }
}

/// The texts' embeddings, from the cache file when it was written for the same texts, else
/// embedded (as the bench embeds them: one call, batched by length) and written there.
fn cached_vectors(embedder: &Embedder, texts: &[&str]) -> Vec<Vec<f32>> {
    let path = std::env::var_os("NEEDL_AG_NEWS_VECTORS")
        .map(PathBuf::from)
        .unwrap_or_else(|| std::env::temp_dir().join("needl-ag-news-vectors.bin"));
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    texts.hash(&mut hasher);
    let key = hasher.finish().to_le_bytes();
    if let Ok(bytes) = std::fs::read(&path) {
        if bytes.len() == 8 + texts.len() * DIM * 4 && bytes[..8] == key {
            println!("vectors read from {}", path.display());
            return bytes[8..]
                .chunks_exact(DIM * 4)
                .map(|row| row.chunks_exact(4).map(|b| f32::from_le_bytes(b.try_into().unwrap())).collect())
                .collect();
        }
    }
    let started = std::time::Instant::now();
    let vectors = embedder.embed(texts).expect("AG News embeds");
    println!("{} items embedded in {:.0} s", texts.len(), started.elapsed().as_secs_f64());
    let mut bytes = key.to_vec();
    vectors.iter().flatten().for_each(|x| bytes.extend_from_slice(&x.to_le_bytes()));
    std::fs::write(&path, bytes).expect("the cache file is written");
    println!("vectors cached in {}", path.display());
    vectors
}
