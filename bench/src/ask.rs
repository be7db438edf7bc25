//! `needl-bench --only ask`: AskNeedl's cited answers, measured through the product. Prints
//! figures; passes or fails nothing.
//!
//! A server runs in this process on SQLite in a scratch folder. One user signs up and follows
//! feeds over HTTP; documents come in the way a followed feed's items do (a text blob, then the
//! document's `Ingest` command through the bus), so the search index and the read models follow
//! the feed as they do in production. Every question goes through `POST /api/ml/ask-needl` over
//! HTTP and its server-sent events are read as a browser reads them.
//!
//! - **Quality on the QA set** (XQuAD's English questions over 240 SQuAD v1.1 paragraphs; the
//!   first 100 questions with `--quick`, all 1,190 otherwise). Each paragraph is one document of
//!   a followed feed. From each question's DONE event:
//!   - *citation recall*: the answer's sentences cite the paragraph the question was written on
//!     (also: cite the passage covering the gold answer's offset; the paragraph is among the
//!     numbered sources at all);
//!   - *answer recall*: the answer's text contains one of the gold answers, ignoring case, runs
//!     of whitespace and citation marks;
//!   - *citation precision*: answer sentences borne out by the passages they cite, judged as the
//!     assistant judges a model's sentences (`assistant::openai::SUPPORT_THRESHOLD` of the
//!     sentence's index terms appear in the cited passages; sentences of fewer than
//!     `JUDGED_TERMS` terms are not judged), and, stricter, sentences found word for word in a
//!     cited passage;
//!   - the answers' quality labels (LOW: weak evidence).
//! - **Tables on TAT-QA dev** ([`tables`]): evidence recall@5/@10 and cited containment with
//!   each question asked over its own annual-report extract, by answer type and by where the
//!   answer lies.
//! - **Latency**: the index filled to 100k passages (10k with `--quick`) with documents made of
//!   real sentences (SciFact abstracts and the QA paragraphs, shuffled into new paragraphs), then
//!   QA questions asked one at a time: p50/p99 from the request being sent to the first event,
//!   to the first piece of answer text, and to DONE.
//!
//! The filling takes the product path too (blobs, then commands; the index and read models catch
//! up on their own), not a direct write into `server.state.search`: it keeps the read model and
//! the index in agreement (citations hydrate from the read model) and measures nothing the
//! product would not do. Documents of ten paragraphs make 100k passages about 10k commands,
//! which a release build records and indexes in well under the three minutes allowed for it;
//! the time taken is printed.
//!
//! The answer engine is the offline extractive one unless `NEEDL_ASSISTANT_URL` points at a
//! chat-completions server, as for `needl serve`.
//!
//! ```sh
//! cargo build --release -p bench && ./target/release/needl-bench --data-dir /tmp/b --only ask
//! ```

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use api::app::Server;
use api::config::ServeArgs;
use assistant::openai::{JUDGED_TERMS, SUPPORT_THRESHOLD};
use assistant::text::Terms;
use commands::Db;
use domain::document::{DocumentCommand, DocumentFields};
use domain::EventMetadata;
use futures::StreamExt;
use hdrhistogram::Histogram;
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};
use service::ingestion::BlobStore;
use sha2::Digest;

use crate::BenchArgs;

mod tables;

struct Scale {
    /// QA questions asked for the quality figures (all of them when larger than the set).
    questions: usize,
    /// Passages of filler documents for the latency figures.
    passages: usize,
    /// Questions timed.
    timed: usize,
}

pub async fn run(data_dir: &Path, args: &BenchArgs) -> anyhow::Result<()> {
    let scale = if args.quick {
        Scale { questions: 100, passages: 10_000, timed: 30 }
    } else {
        Scale { questions: usize::MAX, passages: 100_000, timed: 200 }
    };
    println!("ask:");
    let qa = QaSet::load(&args.data.join("qa/xquad-en/xquad.en.json"));
    let sentences = sentences(&args.data, qa.as_ref().ok());
    if qa.is_err() && sentences.is_empty() {
        println!("  skipped: no QA set or SciFact abstracts under {}", args.data.display());
        return Ok(());
    }
    let work = data_dir.join(format!("bench-ask-{}", uuid::Uuid::new_v4().simple()));
    std::fs::create_dir_all(&work)?;
    let model = match (args.embeddings, embed::locate(None)) {
        (false, _) => None,
        (true, Some(dir)) => Some(dir),
        (true, None) => {
            anyhow::bail!("--embeddings: no embedding model (run scripts/setup, or set {})", embed::MODEL_ENV)
        }
    };
    let result = measure(&work, &args.data, qa, &sentences, &scale, model).await;
    let _ = std::fs::remove_dir_all(&work);
    result
}

async fn measure(
    work: &Path,
    data: &Path,
    qa: anyhow::Result<QaSet>,
    sentences: &[String],
    scale: &Scale,
    model: Option<PathBuf>,
) -> anyhow::Result<()> {
    let db = Db::open_sqlite(work).await?;
    let mut config = ServeArgs::for_tests();
    let engine = crate::ask::assistant_from_env(&mut config);
    let embeddings = model.is_some();
    if let Some(dir) = model {
        config.embedding_model = Some(dir);
        config.no_embedding_model = false;
    }
    let server = Server::start_with(db, work, config).await?;
    let result = async {
        let api = Api { client: reqwest::Client::new(), base: format!("http://{}", server.addr) };
        let token = api.sign_up().await?;
        println!(
            "  {engine}, {}, through POST /api/ml/ask-needl (server-sent events over HTTP), SQLite",
            if embeddings {
                "documents ranked by keywords fused with their embeddings"
            } else {
                "documents ranked by keywords"
            }
        );
        match &qa {
            Ok(qa) => quality(&server, &api, &token, qa, scale.questions).await?,
            Err(error) => println!("  QA set: skipped ({error:#})"),
        }
        tables::measure(&server, &api, &token, data, scale.questions).await?;
        let questions: Vec<String> = match &qa {
            Ok(qa) => qa.questions.iter().map(|q| q.text.clone()).collect(),
            Err(_) => scifact_queries(data),
        };
        if embeddings {
            println!("  latency: left out with --embeddings");
            return Ok(());
        }
        if sentences.is_empty() || questions.is_empty() {
            println!("  latency: skipped (no sentences or questions to ask)");
            return Ok(());
        }
        latency(&server, &api, &token, sentences, &questions, scale).await
    }
    .await;
    server.stop().await?;
    result
}

/// An HTTP client for the bench server.
#[derive(Clone)]
struct Api {
    client: reqwest::Client,
    base: String,
}

impl Api {
    async fn post(&self, path: &str, token: Option<&str>, body: Value) -> anyhow::Result<Value> {
        let mut request = self.client.post(format!("{}/api{path}", self.base)).json(&body);
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        let response = request.send().await?;
        let status = response.status();
        let answer: Value = response.json().await.unwrap_or(Value::Null);
        anyhow::ensure!(status.is_success(), "{path}: {status} {answer}");
        Ok(answer)
    }

    async fn sign_up(&self) -> anyhow::Result<String> {
        let email = format!("asker-{}@example.com", uuid::Uuid::new_v4().simple());
        let body = json!({"email": email, "password": "ask bench: plum kettle orbit 97", "username": "asker"});
        let answer = self.post("/auth/signup", None, body).await?;
        answer["token"].as_str().map(str::to_string).ok_or_else(|| anyhow::anyhow!("sign-up gave no token: {answer}"))
    }

    /// Follows a feed by URL (never fetched: the bench server does not fetch) and returns its
    /// source id.
    async fn follow(&self, token: &str, url: &str) -> anyhow::Result<String> {
        let answer = self.post("/connect/rss", Some(token), json!({ "url": url })).await?;
        answer["source_id"].as_str().map(str::to_string).ok_or_else(|| anyhow::anyhow!("no source id: {answer}"))
    }

    /// Asks `question` over everything the user reads and reads the answer's events to DONE.
    async fn ask(&self, token: &str, question: &str) -> anyhow::Result<Asked> {
        self.ask_over(token, question, &[]).await
    }

    /// Asks `question` over `documents` (everything the user reads when empty).
    async fn ask_over(&self, token: &str, question: &str, documents: &[String]) -> anyhow::Result<Asked> {
        tokio::time::timeout(ASK_TIMEOUT, self.ask_unbounded(token, question, documents))
            .await
            .map_err(|_| anyhow::anyhow!("no DONE within {ASK_TIMEOUT:?}"))?
    }

    async fn ask_unbounded(&self, token: &str, question: &str, documents: &[String]) -> anyhow::Result<Asked> {
        let body = json!({
            "prompt": question,
            "stream": true,
            "timezone": "UTC",
            "pro": false,
            "source": "home",
            "session_id": null,
            "document_id": documents,
        });
        let sent = Instant::now();
        let mut response = self
            .client
            .post(format!("{}/api/ml/ask-needl", self.base))
            .bearer_auth(token)
            .header("accept", "text/event-stream")
            .json(&body)
            .send()
            .await?;
        let status = response.status();
        if !status.is_success() {
            let text = response.text().await.unwrap_or_default();
            anyhow::bail!("ask-needl: {status} {text}");
        }
        let mut asked = Asked::default();
        let mut reader = SseReader::default();
        while let Some(chunk) = response.chunk().await? {
            for data in reader.push(&chunk) {
                let at = sent.elapsed();
                asked.first_event.get_or_insert(at);
                let event: Value = serde_json::from_str(&data).unwrap_or_else(|_| json!({"status": "UNREADABLE"}));
                match event["status"].as_str().unwrap_or_default() {
                    "INTERMEDIATE_STEP" => {}
                    "GENERATED_ANSWER" => {
                        asked.first_text.get_or_insert(at);
                    }
                    "DONE" => {
                        asked.done = Some(at);
                        asked.answer = Some(event["data"].clone());
                        return Ok(asked);
                    }
                    _ => anyhow::bail!("ask-needl sent {}", clip(&data, 200)),
                }
            }
        }
        anyhow::bail!("ask-needl ended without DONE after {} events", reader.events)
    }
}

/// How long one answer may take before it counts as failed (a chat-completions engine on a
/// slow machine is the worst case).
const ASK_TIMEOUT: Duration = Duration::from_secs(300);

/// What one question's stream gave, and when (from the request being sent).
#[derive(Default)]
struct Asked {
    first_event: Option<Duration>,
    first_text: Option<Duration>,
    done: Option<Duration>,
    /// The DONE event's `data`.
    answer: Option<Value>,
}

/// Cuts server-sent events out of bytes arriving in arbitrary pieces; returns each event's
/// `data` lines joined.
#[derive(Default)]
struct SseReader {
    buffer: Vec<u8>,
    events: usize,
}

impl SseReader {
    fn push(&mut self, bytes: &[u8]) -> Vec<String> {
        // `\r\n` line ends read as `\n` (JSON data never holds a raw carriage return); lone `\r`
        // line ends, which axum never writes, are not read.
        self.buffer.extend(bytes.iter().copied().filter(|b| *b != b'\r'));
        let mut out = Vec::new();
        while let Some(at) = self.buffer.windows(2).position(|w| w == b"\n\n") {
            let block: Vec<u8> = self.buffer.drain(..at + 2).collect();
            let block = String::from_utf8_lossy(&block);
            let data: Vec<&str> = block
                .lines()
                .filter_map(|l| l.strip_prefix("data:"))
                .map(|d| d.strip_prefix(' ').unwrap_or(d))
                .collect();
            if !data.is_empty() {
                self.events += 1;
                out.push(data.join("\n"));
            }
        }
        out
    }
}

struct Paragraph {
    guid: String,
    title: String,
    context: String,
}

struct QaQuestion {
    /// Index into the paragraphs.
    paragraph: usize,
    text: String,
    /// (character offset in the paragraph, text)
    answers: Vec<(usize, String)>,
}

struct QaSet {
    paragraphs: Vec<Paragraph>,
    questions: Vec<QaQuestion>,
}

impl QaSet {
    fn load(path: &Path) -> anyhow::Result<QaSet> {
        let raw = std::fs::read_to_string(path).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        let v: Value = serde_json::from_str(&raw)?;
        let mut paragraphs = Vec::new();
        let mut questions = Vec::new();
        for article in v["data"].as_array().into_iter().flatten() {
            let title = article["title"].as_str().unwrap_or_default().replace('_', " ");
            for (n, p) in article["paragraphs"].as_array().into_iter().flatten().enumerate() {
                let index = paragraphs.len();
                paragraphs.push(Paragraph {
                    guid: format!("{}-{n}", article["title"].as_str().unwrap_or_default()),
                    title: title.clone(),
                    context: p["context"].as_str().unwrap_or_default().to_string(),
                });
                for q in p["qas"].as_array().into_iter().flatten() {
                    let answers = q["answers"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .map(|a| {
                            (
                                a["answer_start"].as_u64().unwrap_or(0) as usize,
                                a["text"].as_str().unwrap_or_default().to_string(),
                            )
                        })
                        .collect();
                    questions.push(QaQuestion {
                        paragraph: index,
                        text: q["question"].as_str().unwrap_or_default().to_string(),
                        answers,
                    });
                }
            }
        }
        anyhow::ensure!(!questions.is_empty(), "{}: no questions", path.display());
        Ok(QaSet { paragraphs, questions })
    }
}

/// Records one document of a followed feed the way ingestion does: its text as a blob, then the
/// `Ingest` command. Returns its deeplink.
async fn record(
    server: &Server,
    blobs: &BlobStore,
    source_id: &str,
    guid: &str,
    title: &str,
    text: &str,
) -> anyhow::Result<String> {
    let hash = hex::encode(sha2::Sha256::digest(text.as_bytes()));
    blobs.put(&hash, text).await?;
    let deeplink = service::ingestion::deeplink(source_id, guid);
    let fields = DocumentFields {
        source_id: source_id.to_string(),
        guid: guid.to_string(),
        link: Some(format!("https://bench.example.com/{guid}")),
        title: title.to_string(),
        published_at: Some(chrono::Utc::now()),
        content_hash: hash,
        ..Default::default()
    };
    let bus = &server.state.bus;
    bus.execute(&bus.documents, &deeplink, DocumentCommand::Ingest(fields), &EventMetadata::system("bench", "ask"))
        .await
        .map_err(|e| anyhow::anyhow!("recording {guid}: {e}"))?;
    Ok(deeplink)
}

/// Waits until the search index and every read model include everything recorded so far.
async fn caught_up(server: &Server, timeout: Duration) -> anyhow::Result<()> {
    let head = commands::feed::head(&server.state.db).await?;
    anyhow::ensure!(
        server.state.search.wait_for(head, timeout).await,
        "the search index did not catch up in {timeout:?}"
    );
    anyhow::ensure!(
        server.state.projections.wait_for(head, timeout).await,
        "the read models did not catch up in {timeout:?}"
    );
    Ok(())
}

fn blobs(server: &Server) -> BlobStore {
    server.state.blobs.clone()
}

/// Questions asked at once for the quality figures (their timing is not measured).
const QUALITY_CLIENTS: usize = 2;

async fn quality(server: &Server, api: &Api, token: &str, qa: &QaSet, limit: usize) -> anyhow::Result<()> {
    let started = Instant::now();
    let source = api.follow(token, "https://qa.bench.example.com/squad.xml").await?;
    let store = blobs(server);
    let mut deeplinks = Vec::with_capacity(qa.paragraphs.len());
    for p in &qa.paragraphs {
        deeplinks.push(record(server, &store, &source, &p.guid, &p.title, &p.context).await?);
    }
    caught_up(server, Duration::from_secs(120)).await?;
    if let Some(semantic) = server.state.semantic.clone() {
        // Every document embedded before the first question, as on a server that kept up.
        let deadline = Instant::now() + Duration::from_secs(1800);
        while deeplinks.iter().any(|d| semantic.vector(d).is_none()) {
            anyhow::ensure!(Instant::now() < deadline, "the QA documents were not embedded within 30 minutes");
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }
    let ingested = started.elapsed();
    let questions = &qa.questions[..limit.min(qa.questions.len())];
    let started = Instant::now();
    let answers: Vec<anyhow::Result<Asked>> =
        futures::stream::iter(questions).map(|q| api.ask(token, &q.text)).buffered(QUALITY_CLIENTS).collect().await;
    let asking = started.elapsed();
    println!(
        "  QA set (XQuAD en): {} paragraphs ingested as documents of a followed feed in {:.1} s; \
         {} of {} questions asked in {:.1} s ({QUALITY_CLIENTS} at a time)",
        qa.paragraphs.len(),
        ingested.as_secs_f64(),
        questions.len(),
        qa.questions.len(),
        asking.as_secs_f64()
    );
    let mut tally = Tally::default();
    let mut terms = Terms::default();
    for (q, answer) in questions.iter().zip(answers) {
        match answer {
            Ok(Asked { answer: Some(done), .. }) => tally.add(q, &deeplinks[q.paragraph], &done, &mut terms),
            Ok(_) => tally.failed.push("no DONE".into()),
            Err(error) => tally.failed.push(format!("{error:#}")),
        }
    }
    tally.print(questions.len());
    Ok(())
}

/// The quality counts over the questions asked.
#[derive(Default)]
struct Tally {
    answered: usize,
    cited_document: usize,
    cited_passage: usize,
    retrieved: usize,
    answer_found: usize,
    sentences: usize,
    judged: usize,
    supported: usize,
    verbatim: usize,
    uncited_sentences: usize,
    low: usize,
    high: usize,
    generative: usize,
    failed: Vec<String>,
}

impl Tally {
    fn add(&mut self, q: &QaQuestion, gold: &str, done: &Value, terms: &mut Terms) {
        self.answered += 1;
        let results: Vec<&Value> = done["retrieved_results"].as_array().map(|a| a.iter().collect()).unwrap_or_default();
        let by_number = |n: u64| results.iter().find(|r| r["id"].as_u64() == Some(n)).copied();
        let sentences: Vec<&Value> =
            done["generated_answer"]["sentences"].as_array().map(|a| a.iter().collect()).unwrap_or_default();
        let numbers = |s: &Value| -> Vec<u64> {
            s["citations"].as_array().into_iter().flatten().filter_map(Value::as_u64).collect()
        };
        let cited: HashSet<u64> = sentences.iter().flat_map(|s| numbers(s)).collect();
        let cited_results: Vec<&Value> = cited.iter().filter_map(|n| by_number(*n)).collect();
        let of_gold = |r: &Value| r["document_id"].as_str() == Some(gold);
        if results.iter().any(|r| of_gold(r)) {
            self.retrieved += 1;
        }
        if cited_results.iter().any(|r| of_gold(r)) {
            self.cited_document += 1;
        }
        // The passage holding the answer: its character range in the page covers a gold answer's
        // offset (the paragraph is the document's only page); failing a range, its text holds it.
        let holds_answer = |r: &Value| match (r["page_range"][0].as_u64(), r["page_range"][1].as_u64()) {
            (Some(start), Some(end)) => q.answers.iter().any(|(at, _)| (start as usize) <= *at && (*at as u64) < end),
            _ => {
                let context = loose(r["context"].as_str().unwrap_or_default());
                q.answers.iter().any(|(_, text)| context.contains(&loose(text)))
            }
        };
        if cited_results.iter().any(|r| of_gold(r) && holds_answer(r)) {
            self.cited_passage += 1;
        }
        let answer = loose(&strip_marks(done["generated_answer"]["answer"].as_str().unwrap_or_default()));
        if q.answers.iter().any(|(_, text)| !text.trim().is_empty() && answer.contains(&loose(text))) {
            self.answer_found += 1;
        }
        for s in &sentences {
            self.sentences += 1;
            let text = strip_marks(s["sentence"].as_str().unwrap_or_default());
            let contexts: Vec<&str> =
                numbers(s).into_iter().filter_map(by_number).filter_map(|r| r["context"].as_str()).collect();
            if contexts.is_empty() {
                self.uncited_sentences += 1;
            }
            let spaced = spaces(&text);
            if contexts.iter().any(|c| spaces(c).contains(&spaced)) {
                self.verbatim += 1;
            }
            let own: HashSet<String> = terms.of(&text).into_iter().collect();
            if own.len() < JUDGED_TERMS {
                continue;
            }
            self.judged += 1;
            let cited: HashSet<String> = contexts.iter().flat_map(|c| terms.of(c)).collect();
            let held = own.iter().filter(|t| cited.contains(*t)).count() as f32 / own.len() as f32;
            if held >= SUPPORT_THRESHOLD {
                self.supported += 1;
            }
        }
        match done["answer_quality"].as_str() {
            Some("LOW") => self.low += 1,
            Some("HIGH") => self.high += 1,
            Some("GENERATIVE") => self.generative += 1,
            _ => {}
        }
    }

    fn print(&self, asked: usize) {
        let share = |n: usize, of: usize| if of == 0 { 0.0 } else { n as f64 / of as f64 };
        let line = |label: &str, n: usize, of: usize, what: &str| {
            println!("    {label:<22} {:.3}  ({n:>4}/{of:<4})  {what}", share(n, of));
        };
        line("citation recall", self.cited_document, asked, "an answer sentence cites the question's paragraph");
        line("  passage", self.cited_passage, asked, "... cites the passage covering the gold answer's offset");
        line("  among the sources", self.retrieved, asked, "the paragraph is one of the numbered sources");
        line(
            "answer recall",
            self.answer_found,
            asked,
            "the answer's text contains a gold answer (case, spacing ignored)",
        );
        line(
            "citation precision",
            self.supported,
            self.judged,
            &format!(
                "judged sentences with >= {SUPPORT_THRESHOLD} of their terms in the cited passages \
                 (the assistant's check; {} of {} sentences too short to judge)",
                self.sentences - self.judged,
                self.sentences
            ),
        );
        line("  verbatim", self.verbatim, self.sentences, "sentences found word for word in a cited passage");
        line("LOW answers", self.low, asked, &format!("(HIGH {}, GENERATIVE {})", self.high, self.generative));
        if self.uncited_sentences > 0 {
            println!("    {} answer sentences cite nothing", self.uncited_sentences);
        }
        if !self.failed.is_empty() {
            println!(
                "    {} of {asked} questions failed (counted as misses); first: {}",
                self.failed.len(),
                clip(&self.failed[0], 160)
            );
        }
    }
}

/// Lowercase with every run of whitespace one space: how answers are compared.
fn loose(text: &str) -> String {
    spaces(&text.to_lowercase())
}

fn spaces(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Drops citation marks (`[1]`, `[2][5]`) from answer text.
fn strip_marks(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find('[') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        match after.find(']') {
            Some(close) if close > 0 && after[..close].chars().all(|c| c.is_ascii_digit()) => {
                rest = &after[close + 1..]
            }
            _ => {
                out.push('[');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

fn clip(text: &str, chars: usize) -> String {
    if text.chars().count() <= chars {
        text.to_string()
    } else {
        format!("{}\u{2026}", text.chars().take(chars).collect::<String>())
    }
}

/// Real sentences: SciFact's abstracts and the QA paragraphs, cut at sentence ends.
fn sentences(data: &Path, qa: Option<&QaSet>) -> Vec<String> {
    let mut texts: Vec<String> =
        qa.map(|qa| qa.paragraphs.iter().map(|p| p.context.clone()).collect()).unwrap_or_default();
    let dir = data.join("beir-scifact");
    let mut parts: Vec<PathBuf> = std::fs::read_dir(&dir)
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with("corpus")))
        .collect();
    parts.sort();
    for part in parts {
        for line in std::fs::read_to_string(&part).unwrap_or_default().lines() {
            if let Ok(v) = serde_json::from_str::<Value>(line) {
                texts.extend(v["text"].as_str().map(str::to_string));
            }
        }
    }
    texts
        .iter()
        .flat_map(|t| t.split_inclusive(". "))
        .map(str::trim)
        .filter(|s| s.len() > 30)
        .map(str::to_string)
        .collect()
}

/// SciFact's queries, the questions timed when the QA set is absent.
fn scifact_queries(data: &Path) -> Vec<String> {
    std::fs::read_to_string(data.join("beir-scifact/queries.jsonl"))
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter_map(|v| v["text"].as_str().map(str::to_string))
        .collect()
}

/// Paragraphs per filler document (about one passage each), and sentences per paragraph.
const PARAGRAPHS: usize = 10;
const SENTENCES: usize = 4;
/// Followed feeds the filler documents are spread over.
const FEEDS: usize = 5;
/// Documents recorded at once while filling.
const FILL_CLIENTS: usize = 8;

/// A filler document: ten paragraphs of four real sentences, and its passage count.
fn filler(rng: &mut StdRng, sentences: &[String]) -> (String, String, usize) {
    let text = (0..PARAGRAPHS)
        .map(|_| (0..SENTENCES).map(|_| sentences.choose(rng).unwrap().as_str()).collect::<Vec<_>>().join(" "))
        .collect::<Vec<_>>()
        .join("\n\n");
    let title: String = sentences.choose(rng).unwrap().chars().take(80).collect();
    let passages = search::passages::passages(&[search::PageText { text: text.clone(), lines: vec![] }]).len();
    (title, text, passages)
}

async fn latency(
    server: &Server,
    api: &Api,
    token: &str,
    sentences: &[String],
    questions: &[String],
    scale: &Scale,
) -> anyhow::Result<()> {
    let mut rng = StdRng::seed_from_u64(11);
    let mut feeds = Vec::new();
    for i in 0..FEEDS {
        feeds.push(api.follow(token, &format!("https://filler-{i}.bench.example.com/feed.xml")).await?);
    }
    let mut documents = Vec::new();
    let mut planned = 0;
    while planned < scale.passages {
        let (title, text, passages) = filler(&mut rng, sentences);
        planned += passages;
        documents.push((feeds[documents.len() % FEEDS].clone(), format!("filler-{}", documents.len()), title, text));
    }
    let count = documents.len();
    let started = Instant::now();
    let store = Arc::new(blobs(server));
    let recorded: Vec<anyhow::Result<String>> = futures::stream::iter(documents)
        .map(|(source, guid, title, text)| {
            let store = store.clone();
            async move { record(server, &store, &source, &guid, &title, &text).await }
        })
        .buffer_unordered(FILL_CLIENTS)
        .collect()
        .await;
    recorded.into_iter().collect::<anyhow::Result<Vec<_>>>()?;
    let commands = started.elapsed();
    caught_up(server, Duration::from_secs(900)).await?;
    let filled = started.elapsed();
    let passages = server.state.search.passages();
    println!(
        "  latency at {passages} passages ({} documents): filled through blobs and commands in {:.1} s \
         ({count} commands in {:.1} s, then the index and read models caught up; {:.0} passages/s)",
        server.state.search.documents(),
        filled.as_secs_f64(),
        commands.as_secs_f64(),
        planned as f64 / filled.as_secs_f64()
    );
    let mut first_event = Histogram::<u64>::new(3)?;
    let mut first_text = Histogram::<u64>::new(3)?;
    let mut done = Histogram::<u64>::new(3)?;
    let mut failed = Vec::new();
    let offset = rng.random_range(0..questions.len());
    for i in 0..scale.timed {
        let question = &questions[(offset + i * 7) % questions.len()];
        match api.ask(token, question).await {
            Ok(asked) => {
                let us = |d: Option<Duration>| d.map(|d| d.as_micros().max(1) as u64);
                if let (Some(e), Some(d)) = (us(asked.first_event), us(asked.done)) {
                    first_event.record(e)?;
                    done.record(d)?;
                }
                if let Some(t) = us(asked.first_text) {
                    first_text.record(t)?;
                }
            }
            Err(error) => failed.push(format!("{error:#}")),
        }
    }
    let ms = |h: &Histogram<u64>, q: f64| h.value_at_quantile(q) as f64 / 1000.0;
    println!("    {} questions asked one at a time; from the request being sent to:", scale.timed);
    for (label, h) in [("the first event", &first_event), ("first answer text", &first_text), ("DONE", &done)] {
        println!("    {label:<18} p50 {:>7.1} ms  p99 {:>7.1} ms  ({} answers)", ms(h, 0.5), ms(h, 0.99), h.len());
    }
    if !failed.is_empty() {
        println!("    {} of {} questions failed; first: {}", failed.len(), scale.timed, clip(&failed[0], 160));
    }
    Ok(())
}

/// Points `config` at the model server `NEEDL_ASSISTANT_URL` (with `NEEDL_ASSISTANT_MODEL` and
/// `NEEDL_ASSISTANT_KEY`) when it is set, and returns the engine's name for the figures.
pub(crate) fn assistant_from_env(config: &mut ServeArgs) -> String {
    config.assistant_url = std::env::var("NEEDL_ASSISTANT_URL").ok().filter(|u| !u.is_empty());
    if let Ok(model) = std::env::var("NEEDL_ASSISTANT_MODEL") {
        config.assistant_model = model;
    }
    config.assistant_key = std::env::var("NEEDL_ASSISTANT_KEY").ok();
    match &config.assistant_url {
        Some(url) => format!("chat-completions engine at {url}, model {}", config.assistant_model),
        None => "extractive engine".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_are_cut_from_pieces_split_anywhere() {
        let stream = b": keep-alive\n\ndata: {\"status\":\"INTERMEDIATE_STEP\"}\r\n\r\ndata: a\ndata: b\n\n";
        let mut reader = SseReader::default();
        let mut got = Vec::new();
        for piece in stream.chunks(5) {
            got.extend(reader.push(piece));
        }
        assert_eq!(got, vec![r#"{"status":"INTERMEDIATE_STEP"}"#.to_string(), "a\nb".to_string()]);
    }

    #[test]
    fn citation_marks_go_and_other_brackets_stay() {
        assert_eq!(strip_marks("Revenue rose [1][12]. See [note] and [a1]."), "Revenue rose . See [note] and [a1].");
        assert_eq!(loose("  The  Broncos\n[2]"), "the broncos [2]");
    }
}
