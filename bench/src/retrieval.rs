//! `needl-bench --only search`: retrieval quality and query latency of the search index. Prints
//! figures; passes or fails nothing.
//!
//! - **SciFact nDCG@10**: the BEIR SciFact abstracts (title and text) indexed the way documents
//!   are, each of the 300 test queries run through [`search::SearchIndex::search`] exactly as
//!   `POST /search` runs it (plain words ranked by BM25; the public corpus as access), scored
//!   against the qrels. Also printed: the same queries read strictly (every word required, what a
//!   keyword search without ranking would do) and with a boost on title matches, so each ranking
//!   choice shows what it adds. Published BM25 baselines: 0.665 (BEIR paper), 0.679 (Anserini).
//! - **Latency**: a corpus of documents made of real sentences (SciFact abstracts and the QA set's
//!   paragraphs, shuffled into new paragraphs: real words at real frequencies, not random ones),
//!   indexed to the passage count asked (100k, then 1M; 10k with `--quick`). Build throughput in
//!   passages/s and the index's size on disk; then p50/p99 of one-word, multi-word, phrase and
//!   boolean queries, each as a result page with highlights plus the category-tab counts, with a
//!   user's access filter (own uploads and 30 followed sources of 50).
//!
//! Without the shared data both parts are skipped with a message: the point is real text.
//!
//! ```sh
//! cargo build --release -p bench && ./target/release/needl-bench --data-dir /tmp/b --only search
//! ```

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use hdrhistogram::Histogram;
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use search::{Access, Change, IndexedDocument, PageText, Request, SearchIndex};

use crate::BenchArgs;

pub async fn run(data_dir: &Path, args: &BenchArgs) -> anyhow::Result<()> {
    let data = args.data.clone();
    let work = data_dir.join(format!("bench-search-{}", uuid::Uuid::new_v4().simple()));
    let scratch = work.clone();
    let quick = args.quick;
    // The product's embeddings (the model `scripts/setup` fetches), for the dense and hybrid
    // rankings; without the model only BM25 is measured.
    // The abstracts' vectors are kept in the data directory between runs (embedding them takes
    // minutes); delete `bench-scifact-vectors` there to measure the embedding again.
    let semantic = match embed::locate(None) {
        Some(model) if !quick => {
            Some(service::semantic::Semantic::open(&model, &data_dir.join("bench-scifact-vectors")).await?)
        }
        _ => None,
    };
    let result = tokio::task::spawn_blocking(move || -> anyhow::Result<()> {
        println!("search:");
        let corpus = match SciFact::load(&data.join("beir-scifact")) {
            Ok(corpus) => corpus,
            Err(error) => {
                println!("  skipped: no SciFact data under {} ({error:#})", data.display());
                return Ok(());
            }
        };
        scifact(&corpus, &work.join("scifact"), semantic.as_deref(), quick)?;
        let sentences = sentences(&corpus, &data.join("qa/xquad-en/xquad.en.json"));
        let sizes: &[usize] = if quick { &[10_000] } else { &[100_000, 1_000_000] };
        for &passages in sizes {
            latency(&sentences, passages, &work.join(format!("latency-{passages}")), if quick { 50 } else { 300 })?;
        }
        Ok(())
    })
    .await?;
    let _ = std::fs::remove_dir_all(scratch);
    result
}

struct SciFact {
    /// (id, title, text)
    documents: Vec<(String, String, String)>,
    /// (query id, text, relevant document ids)
    queries: Vec<(String, String, Vec<String>)>,
}

impl SciFact {
    fn load(dir: &Path) -> anyhow::Result<SciFact> {
        let mut documents = Vec::new();
        let mut parts: Vec<PathBuf> = std::fs::read_dir(dir)?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with("corpus")))
            .collect();
        parts.sort();
        anyhow::ensure!(!parts.is_empty(), "no corpus files");
        for part in parts {
            for line in std::fs::read_to_string(&part)?.lines().filter(|l| !l.trim().is_empty()) {
                let v: serde_json::Value = serde_json::from_str(line)?;
                documents.push((
                    v["_id"].as_str().unwrap_or_default().to_string(),
                    v["title"].as_str().unwrap_or_default().to_string(),
                    v["text"].as_str().unwrap_or_default().to_string(),
                ));
            }
        }
        let mut relevant: std::collections::BTreeMap<String, Vec<String>> = Default::default();
        for line in std::fs::read_to_string(dir.join("qrels/test.tsv"))?.lines().skip(1) {
            let cols: Vec<&str> = line.split('\t').collect();
            if cols.len() >= 3 && cols[2].trim() != "0" {
                relevant.entry(cols[0].to_string()).or_default().push(cols[1].to_string());
            }
        }
        let mut queries = Vec::new();
        for line in std::fs::read_to_string(dir.join("queries.jsonl"))?.lines() {
            let v: serde_json::Value = serde_json::from_str(line)?;
            let id = v["_id"].as_str().unwrap_or_default().to_string();
            if let Some(rel) = relevant.get(&id) {
                queries.push((id, v["text"].as_str().unwrap_or_default().to_string(), rel.clone()));
            }
        }
        Ok(SciFact { documents, queries })
    }
}

fn document(deeplink: String, title: String, paragraphs: Vec<String>, category: &str) -> IndexedDocument {
    IndexedDocument {
        deeplink,
        source_id: "bench".into(),
        owner: None,
        category: category.into(),
        title,
        pages: vec![PageText { text: paragraphs.join("\n\n"), lines: vec![] }],
        published: Some(1_700_000_000),
        updated: 1_700_000_000,
        size: 0,
        attachments: 0,
        company: None,
        country: None,
        periods: vec![],
    }
}

fn ndcg_at_10(ranked: &[String], relevant: &[String]) -> f64 {
    let dcg: f64 = ranked
        .iter()
        .take(10)
        .enumerate()
        .filter(|(_, id)| relevant.contains(id))
        .map(|(i, _)| 1.0 / ((i + 2) as f64).log2())
        .sum();
    let ideal: f64 = (0..relevant.len().min(10)).map(|i| 1.0 / ((i + 2) as f64).log2()).sum();
    if ideal == 0.0 {
        0.0
    } else {
        dcg / ideal
    }
}

fn scifact(
    corpus: &SciFact,
    dir: &Path,
    semantic: Option<&service::semantic::Semantic>,
    quick: bool,
) -> anyhow::Result<()> {
    let index = SearchIndex::open(dir, 2)?;
    let started = Instant::now();
    for chunk in corpus.documents.chunks(2000) {
        let changes = chunk
            .iter()
            .map(|(id, title, text)| {
                Change::Upsert(Box::new(document(id.clone(), title.clone(), vec![text.clone()], "rss_news")))
            })
            .collect();
        index.apply_blocking(changes, None)?;
    }
    println!(
        "  SciFact: {} abstracts indexed in {:.1?} ({} passages), {} test queries",
        corpus.documents.len(),
        started.elapsed(),
        index.passages(),
        corpus.queries.len()
    );
    let variants: [(&str, bool, f32); 3] = [
        ("as the product searches (plain words ranked by BM25)", false, 0.0),
        ("every word required (strict AND)", true, 0.0),
        ("ranked, with title matches boosted x2", false, 2.0),
    ];
    for (label, exact, title_boost) in variants {
        let mut total = 0.0;
        let mut refused = 0;
        let timer = Instant::now();
        for (_, text, relevant) in &corpus.queries {
            let mut req = Request::new(text.clone(), Access::Public);
            req.exact = exact;
            req.title_boost = title_boost;
            req.highlights = 0;
            match index.search(&req) {
                Ok(found) => {
                    let ranked: Vec<String> = found.hits.into_iter().map(|h| h.deeplink).collect();
                    total += ndcg_at_10(&ranked, relevant);
                }
                Err(_) => refused += 1,
            }
        }
        println!(
            "    nDCG@10 {:.3}  {label}{}  ({:.1} ms/query)",
            total / corpus.queries.len() as f64,
            if refused > 0 { format!(", {refused} queries refused as keyword errors") } else { String::new() },
            timer.elapsed().as_secs_f64() * 1000.0 / corpus.queries.len() as f64
        );
    }
    println!("    published BM25: 0.665 (BEIR paper), 0.679 (Anserini, title and text flat)");
    match semantic {
        Some(semantic) => dense_and_hybrid(corpus, &index, semantic)?,
        None if quick => println!("    dense and hybrid: full runs only (embedding the abstracts takes minutes)"),
        None => println!(
            "    dense and hybrid: skipped, no embedding model (run scripts/setup, or set {})",
            embed::MODEL_ENV
        ),
    }
    drop(index);
    let _ = std::fs::remove_dir_all(dir);
    Ok(())
}

/// SciFact through the product's embeddings: every abstract embedded as a document is (title and
/// opening), then the queries ranked by the embeddings alone over the whole corpus, and by the
/// search path's hybrid ranking ([`SearchIndex::search_ranked`] with the service's
/// [`service::semantic::Semantic`], as `POST /search` ranks).
fn dense_and_hybrid(
    corpus: &SciFact,
    index: &SearchIndex,
    semantic: &service::semantic::Semantic,
) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Handle::current();
    let started = Instant::now();
    let items: Vec<(String, String)> = corpus
        .documents
        .iter()
        .filter(|(id, _, _)| semantic.vector(id).is_none())
        .map(|(id, title, text)| (id.clone(), service::semantic::embedding_text(title, text)))
        .collect();
    for chunk in items.chunks(256) {
        runtime.block_on(semantic.store(chunk.to_vec()))?;
    }
    let secs = started.elapsed().as_secs_f64();
    if items.is_empty() {
        println!("    embedding: every abstract's vector kept from an earlier run");
    } else {
        println!(
            "    embedding: {} abstracts in {secs:.0} s = {:.1} documents/s (title and opening, {} threads)",
            items.len(),
            items.len() as f64 / secs,
            std::thread::available_parallelism().map_or(1, |n| n.get())
        );
    }
    let vectors: Vec<(&str, Vec<f32>)> =
        corpus.documents.iter().filter_map(|(id, _, _)| Some((id.as_str(), semantic.vector(id)?))).collect();
    let (mut dense, mut hybrid) = (0.0, 0.0);
    let mut latency = Histogram::<u64>::new(3)?;
    for (_, text, relevant) in &corpus.queries {
        let q = runtime.block_on(semantic.embed(vec![text.clone()]))?.remove(0);
        let mut scored: Vec<(f32, &str)> = vectors.iter().map(|(id, v)| (embed::dot(&q, v), *id)).collect();
        scored.sort_by(|a, b| b.0.total_cmp(&a.0));
        let ranked: Vec<String> = scored.iter().take(10).map(|(_, id)| id.to_string()).collect();
        dense += ndcg_at_10(&ranked, relevant);
        let mut req = Request::new(text.clone(), Access::Public);
        req.highlights = 0;
        let timer = Instant::now();
        // A query the keyword search refuses (unbalanced quotes) scores nothing, as above.
        if let Ok(found) = index.search_ranked(&req, Some(semantic as &dyn search::Similarity)) {
            latency.record(timer.elapsed().as_micros() as u64)?;
            let ranked: Vec<String> = found.hits.into_iter().map(|h| h.deeplink).collect();
            hybrid += ndcg_at_10(&ranked, relevant);
        }
    }
    let n = corpus.queries.len() as f64;
    println!("    nDCG@10 {:.3}  dense (the embeddings alone, every abstract)", dense / n);
    println!(
        "    nDCG@10 {:.3}  hybrid, as the product searches with the model (keyword top {} fused with the embeddings; p50 {:.1} ms, p99 {:.1} ms, query embedding included)",
        hybrid / n,
        search::hybrid::POOL,
        ms(&latency, 0.5),
        ms(&latency, 0.99)
    );
    Ok(())
}

/// Real sentences: SciFact's abstracts and the QA set's paragraphs, cut at sentence ends.
fn sentences(corpus: &SciFact, xquad: &Path) -> Vec<String> {
    let mut texts: Vec<String> = corpus.documents.iter().map(|(_, _, t)| t.clone()).collect();
    if let Ok(raw) = std::fs::read_to_string(xquad) {
        if let Ok(v) = serde_json::from_str::<serde_json::Value>(&raw) {
            for article in v["data"].as_array().into_iter().flatten() {
                for p in article["paragraphs"].as_array().into_iter().flatten() {
                    if let Some(c) = p["context"].as_str() {
                        texts.push(c.to_string());
                    }
                }
            }
        }
    }
    let mut out = Vec::new();
    for text in texts {
        for s in text.split_inclusive(". ") {
            let s = s.trim();
            if s.len() > 30 {
                out.push(s.to_string());
            }
        }
    }
    out
}

const CATEGORIES: &[&str] = &["rss_news", "rss_news", "india_regulatory_data", "us_regulatory_data", "drives"];
const PARAGRAPHS: usize = 4;

/// A document of four paragraphs of four real sentences each (about one passage a paragraph).
fn synthetic(rng: &mut StdRng, n: usize, sentences: &[String], sources: &[String]) -> IndexedDocument {
    let paragraphs: Vec<String> = (0..PARAGRAPHS)
        .map(|_| (0..4).map(|_| sentences.choose(rng).unwrap().as_str()).collect::<Vec<_>>().join(" "))
        .collect();
    let category = *CATEGORIES.choose(rng).unwrap();
    let title: String = sentences.choose(rng).unwrap().chars().take(80).collect();
    let mut d = document(format!("doc-{n}"), title, paragraphs, category);
    if category == "drives" {
        d.owner = Some(if rng.random_bool(0.5) { "u1".into() } else { "u2".into() });
        d.source_id = "needldrive".into();
    } else {
        d.source_id = sources.choose(rng).unwrap().clone();
    }
    d.published = Some(1_600_000_000 + rng.random_range(0..100_000_000));
    if category.ends_with("regulatory_data") {
        d.company = Some(format!("Company {}", rng.random_range(0..500)));
        d.country = Some(if category.starts_with("india") { "IN".into() } else { "US".into() });
    }
    d
}

fn ms(h: &Histogram<u64>, q: f64) -> f64 {
    h.value_at_quantile(q) as f64 / 1000.0
}

fn dir_size(dir: &Path) -> u64 {
    let Ok(entries) = std::fs::read_dir(dir) else { return 0 };
    entries
        .filter_map(|e| e.ok())
        .map(|e| match e.metadata() {
            Ok(m) if m.is_dir() => dir_size(&e.path()),
            Ok(m) => m.len(),
            Err(_) => 0,
        })
        .sum()
}

/// Makes one query of a kind from the random source.
type QueryMaker<'a> = Box<dyn Fn(&mut StdRng) -> String + 'a>;

fn latency(sentences: &[String], passages: usize, dir: &Path, queries: usize) -> anyhow::Result<()> {
    let mut rng = StdRng::seed_from_u64(7);
    let sources: Vec<String> = (0..50).map(|i| format!("source-{i}")).collect();
    let index = Arc::new(SearchIndex::open(dir, 2)?);
    let documents = passages / PARAGRAPHS;
    let started = Instant::now();
    let batch = 5_000;
    let mut made = 0;
    while made < documents {
        let n = batch.min(documents - made);
        let changes =
            (made..made + n).map(|i| Change::Upsert(Box::new(synthetic(&mut rng, i, sentences, &sources)))).collect();
        index.apply_blocking(changes, None)?;
        made += n;
    }
    let built = started.elapsed();
    let indexed = index.passages();
    println!(
        "  {} passages ({} documents): built in {:.1?}, {:.0} passages/s, index {:.0} MiB",
        indexed,
        index.documents(),
        built,
        indexed as f64 / built.as_secs_f64(),
        dir_size(dir) as f64 / (1024.0 * 1024.0)
    );
    let vocabulary: Vec<&str> = sentences
        .iter()
        .flat_map(|s| s.split_whitespace())
        .filter(|w| w.len() > 4 && w.chars().all(|c| c.is_ascii_alphabetic()))
        .collect();
    let access = Access::Mine { user_id: "u1".into(), sources: sources[..30].to_vec() };
    let kinds: [(&str, QueryMaker); 4] = [
        ("one word", Box::new(|r: &mut StdRng| vocabulary.choose(r).unwrap().to_string())),
        (
            "three words",
            Box::new(|r: &mut StdRng| (0..3).map(|_| *vocabulary.choose(r).unwrap()).collect::<Vec<_>>().join(" ")),
        ),
        (
            "phrase",
            Box::new(|r: &mut StdRng| {
                let words: Vec<&str> = sentences.choose(r).unwrap().split_whitespace().collect();
                let at = r.random_range(0..words.len().saturating_sub(1).max(1));
                let phrase: String = words[at..(at + 2).min(words.len())]
                    .join(" ")
                    .chars()
                    .filter(|c| c.is_alphanumeric() || *c == ' ')
                    .collect();
                format!("\"{phrase}\"")
            }),
        ),
        (
            "boolean",
            Box::new(|r: &mut StdRng| {
                let w: Vec<&str> = (0..3).map(|_| *vocabulary.choose(r).unwrap()).collect();
                format!("({} OR {}) AND NOT {}", w[0], w[1], w[2])
            }),
        ),
    ];
    for (label, make) in &kinds {
        let mut h = Histogram::<u64>::new(3)?;
        let mut hits = 0usize;
        for _ in 0..queries {
            let q = make(&mut rng);
            let mut req = Request::new(q, access.clone());
            req.highlights = 3;
            let t = Instant::now();
            let found = index.search(&req)?;
            let _tabs = index.counts(&req, "category")?;
            h.record(t.elapsed().as_micros().max(1) as u64)?;
            hits += found.count;
        }
        println!(
            "    {label:<12} p50 {:>6.2} ms  p99 {:>6.2} ms  (page of 10 with highlights + tab counts; {:.0} matches/query)",
            ms(&h, 0.5),
            ms(&h, 0.99),
            hits as f64 / queries as f64
        );
    }
    drop(index);
    std::thread::sleep(Duration::from_millis(50));
    let _ = std::fs::remove_dir_all(dir);
    Ok(())
}
