//! `needl-bench --only reports` and `--only report-figures`: research reports, measured through
//! the product. Prints figures; passes or fails nothing.
//!
//! Both read TAT-QA dev (`qa/tatqa/`: 278 contexts, each a table and paragraphs of a real annual
//! report) and skip with a message when it is absent.
//!
//! - **Key figures** (`report-figures`): each context becomes a document's text the way ingestion
//!   leaves it: its paragraphs, then its table one row per line, cleaned as extraction cleans
//!   text (empty cells gone), once with tab-separated cells (DOCX, XLSX) and once with single
//!   spaces (PDF text), cut into passages as the index cuts them. The financial section's
//!   key-figure table is built from those passages (a passage that continues a table read after
//!   the passages before it, as the report worker reads it); printed: the share of figures equal
//!   to the gold table's cell for their row and period, and the share citing a passage that holds
//!   the figure word for word.
//! - **Lifecycle** (`reports`): a server in this process on SQLite, one user with 50 contexts as
//!   their documents. Each type is generated over 10 and 50 of them (5 for the draft offering
//!   document, its limit) through the HTTP calls, polled as the app polls: time from the generate
//!   call to COMPLETED (median and p95), every job's end state, the longest gap between progress
//!   messages on the owner's live socket, the cancel call's latency and whether anything was
//!   written after it, and the process's peak resident memory.
//! - **Citation integrity** (`reports`), over every report generated: citations outside the
//!   report's files, citation marks that resolve to no citation, sentences cited, sentences found
//!   word for word in a cited passage, and sections without evidence that say so with no citation.
//! - **A model's citations** (`reports` with a model): what the model wrote, judged by the support
//!   check before the report drops anything ([`service::reports::writing::model_checks`]):
//!   citation recall (claims their citations bear out) and precision (citations that bear their
//!   claim out alone, or without which the others would not), and the shares of sentences and
//!   citations kept.
//!
//! The engine is the extractive one unless `NEEDL_ASSISTANT_URL` points at a chat-completions
//! server, as for `needl serve` (`NEEDL_ASSISTANT_MODEL` names the model); a local one:
//! `scripts/local-model/run`.
//!
//! ```sh
//! cargo build --release -p bench && ./target/release/needl-bench --data-dir /tmp/b --only reports
//! ```

use std::collections::HashSet;
use std::path::Path;
use std::time::{Duration, Instant};

use api::app::Server;
use api::config::ServeArgs;
use commands::Db;
use domain::document::{DocumentCommand, DocumentFields};
use domain::EventMetadata;
use futures::StreamExt;
use serde_json::{json, Value};
use service::reports::figures::{continues_table, key_figures, Evidence};
use service::reports::writing::{model_checks, ModelCheck, PRECEDING_PASSAGES};
use sha2::Digest;

use crate::BenchArgs;

/// One TAT-QA context: its paragraphs (in their order: `rel_paragraphs` number them from 1), its
/// table (rows of cells, empty ones kept) and its questions as the data set has them.
pub(crate) struct TatContext {
    pub(crate) paragraphs: Vec<String>,
    pub(crate) table: Vec<Vec<String>>,
    pub(crate) questions: Vec<Value>,
}

/// TAT-QA dev's contexts, or `None` when the data is absent.
pub(crate) fn contexts(data: &Path) -> Option<Vec<TatContext>> {
    let path = data.join("qa/tatqa/tatqa_dataset_dev.json");
    let text = std::fs::read_to_string(&path).ok()?;
    let all: Vec<Value> = serde_json::from_str(&text).ok()?;
    Some(
        all.iter()
            .map(|c| TatContext {
                paragraphs: c["paragraphs"]
                    .as_array()
                    .map(|ps| ps.iter().filter_map(|p| p["text"].as_str().map(str::to_string)).collect())
                    .unwrap_or_default(),
                table: c["table"]["table"]
                    .as_array()
                    .map(|rows| {
                        rows.iter()
                            .map(|r| {
                                r.as_array()
                                    .map(|cells| {
                                        cells.iter().map(|v| v.as_str().unwrap_or_default().to_string()).collect()
                                    })
                                    .unwrap_or_default()
                            })
                            .collect()
                    })
                    .unwrap_or_default(),
                questions: c["questions"].as_array().cloned().unwrap_or_default(),
            })
            .collect(),
    )
}

#[derive(Debug, Clone, Copy)]
pub(crate) enum Layout {
    /// Cells separated by tabs, as DOCX and XLSX extraction leaves a table.
    Tabs,
    /// Cells separated by single spaces, as PDF text is once cleaned.
    Spaces,
}

/// The context as a document's text after extraction's cleaning.
pub(crate) fn document(c: &TatContext, layout: Layout) -> String {
    let separator = match layout {
        Layout::Tabs => "\t",
        Layout::Spaces => " ",
    };
    let rows: Vec<String> = c.table.iter().map(|r| r.join(separator)).collect();
    let mut parts = c.paragraphs.clone();
    parts.push(rows.join("\n"));
    extract::clean::clean_text(&parts.join("\n\n"))
}

fn fold(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase().trim_end_matches(':').to_string()
}

/// Whether the gold table holds `value` in a row labelled `metric`, under the nearest header
/// cell above that row naming `period` (any such row: a label may head a group of rows, with no
/// figures, and name its total further down).
fn gold_matches(table: &[Vec<String>], metric: &str, period: &str, value: &str) -> bool {
    let labelled =
        |row: &Vec<String>| row.iter().find(|c| !c.trim().is_empty()).is_some_and(|c| fold(c) == fold(metric));
    table.iter().enumerate().filter(|(_, row)| labelled(row)).any(|(r, _)| {
        (0..r)
            .rev()
            .find_map(|above| table[above].iter().position(|cell| fold(cell) == fold(period)))
            .is_some_and(|c| table[r].get(c).is_some_and(|v| fold(v) == fold(value)))
    })
}

/// `--only report-figures`: the key-figure tables of TAT-QA's contexts against their gold tables.
pub fn figures(args: &BenchArgs) -> anyhow::Result<()> {
    println!("report figures:");
    let Some(all) = contexts(&args.data) else {
        println!("  skipped: no TAT-QA dev set under {}", args.data.join("qa/tatqa").display());
        return Ok(());
    };
    for layout in [Layout::Tabs, Layout::Spaces] {
        let (mut with, mut total, mut matched, mut cited, mut split) = (0usize, 0usize, 0usize, 0usize, 0usize);
        let mut took = Vec::with_capacity(all.len());
        for c in &all {
            let text = document(c, layout);
            let passages = search::passages::passages(&[search::passages::PageText { text, lines: vec![] }]);
            // As the report worker does: a passage that continues a table is read after the
            // passages before it, where its header is.
            let preceding: Vec<String> = passages
                .iter()
                .enumerate()
                .map(|(i, p)| {
                    if !continues_table(&p.text) {
                        return String::new();
                    }
                    let from = i.saturating_sub(PRECEDING_PASSAGES as usize);
                    passages[from..i].iter().map(|p| p.text.as_str()).collect::<Vec<_>>().join("\n")
                })
                .collect();
            split += preceding.iter().filter(|b| !b.is_empty()).count();
            let evidence: Vec<Evidence<'_>> = passages
                .iter()
                .zip(&preceding)
                .enumerate()
                .map(|(i, (p, before))| Evidence { number: i as u32 + 1, text: &p.text, before })
                .collect();
            let started = Instant::now();
            let table = key_figures(&evidence);
            took.push(started.elapsed());
            if !table.is_empty() {
                with += 1;
            }
            for (metric, period, cell) in table.figures() {
                total += 1;
                if gold_matches(&c.table, metric, period, &cell.value) {
                    matched += 1;
                } else if std::env::var_os("NEEDL_BENCH_VERBOSE").is_some() {
                    println!("    no match: {metric} / {period} = {}", cell.value);
                }
                let passage = passages.get(cell.citation as usize - 1).map(|p| fold(&p.text)).unwrap_or_default();
                if passage.contains(&fold(&cell.value)) {
                    cited += 1;
                }
            }
        }
        took.sort();
        let share = |n: usize| if total == 0 { 0.0 } else { n as f64 / total as f64 };
        println!(
            "  {} contexts, cells {}: {} with a key-figure table, {} figures ({:.1} a table); {:.3} match the gold \
             table (goal 0.95), {:.3} cite a passage holding them word for word; {} passages continue a table \
             begun before them; {:.0} µs median per table",
            all.len(),
            match layout {
                Layout::Tabs => "tab-separated (DOCX, XLSX)",
                Layout::Spaces => "space-separated (PDF text)",
            },
            with,
            total,
            total as f64 / with.max(1) as f64,
            share(matched),
            share(cited),
            split,
            took.get(took.len() / 2).map_or(0.0, |d| d.as_secs_f64() * 1e6),
        );
    }
    Ok(())
}

/// `--only reports`: lifecycle and citation integrity.
pub async fn run(data_dir: &Path, args: &BenchArgs) -> anyhow::Result<()> {
    println!("reports:");
    let Some(all) = contexts(&args.data) else {
        println!("  skipped: no TAT-QA dev set under {}", args.data.join("qa/tatqa").display());
        return Ok(());
    };
    let work = data_dir.join(format!("bench-reports-{}", uuid::Uuid::new_v4().simple()));
    std::fs::create_dir_all(&work)?;
    let result = measure(&work, &all, args.quick).await;
    let _ = std::fs::remove_dir_all(&work);
    result
}

struct Api {
    client: reqwest::Client,
    base: String,
    token: String,
}

impl Api {
    async fn call(&self, method: reqwest::Method, path: &str, body: Option<Value>) -> anyhow::Result<Value> {
        let mut request = self.client.request(method, format!("{}/api{path}", self.base)).bearer_auth(&self.token);
        if let Some(body) = body {
            request = request.json(&body);
        }
        let response = request.send().await?;
        let status = response.status();
        let answer: Value = response.json().await.unwrap_or(Value::Null);
        anyhow::ensure!(status.is_success(), "{path}: {status} {answer}");
        Ok(answer)
    }

    async fn post(&self, path: &str, body: Value) -> anyhow::Result<Value> {
        self.call(reqwest::Method::POST, path, Some(body)).await
    }

    async fn get(&self, path: &str) -> anyhow::Result<Value> {
        self.call(reqwest::Method::GET, path, None).await
    }
}

/// The figures of one generated report.
#[derive(Default)]
struct Integrity {
    reports: usize,
    completed: usize,
    citations: usize,
    outside: usize,
    dangling: usize,
    sentences: usize,
    sentences_cited: usize,
    verbatim: usize,
    empty_sections: usize,
    empty_sections_honest: usize,
    figures: usize,
    figures_in_passage: usize,
}

impl Integrity {
    fn add(&mut self, detail: &Value, files: &HashSet<String>) {
        self.reports += 1;
        if detail["status"] != "COMPLETED" {
            return;
        }
        self.completed += 1;
        let result = &detail["result"];
        let citations = result["raw_data"]["citations"].as_array().cloned().unwrap_or_default();
        self.citations += citations.len();
        self.outside +=
            citations.iter().filter(|c| !files.contains(c["deeplink"].as_str().unwrap_or_default())).count();
        let content = result["content"].as_str().unwrap_or_default();
        self.dangling += marks(content).into_iter().filter(|n| *n == 0 || *n > citations.len()).count();
        for section in result["raw_data"]["sections"].as_array().cloned().unwrap_or_default() {
            let passages = section["passages"].as_array().cloned().unwrap_or_default();
            let sentences = section["sentences"].as_array().cloned().unwrap_or_default();
            if sentences.is_empty() && section.get("key_figures").is_none() {
                self.empty_sections += 1;
                let heading = section["heading"].as_str().unwrap_or_default();
                let said = content.contains(&format!("## {heading}\n\n{}", service::reports::worker::NO_EVIDENCE));
                if passages.is_empty() && said {
                    self.empty_sections_honest += 1;
                }
            }
            for s in &sentences {
                self.sentences += 1;
                let text = fold(s["sentence"].as_str().unwrap_or_default());
                let cites: Vec<usize> = s["citations"]
                    .as_array()
                    .map(|a| a.iter().filter_map(|n| n.as_u64()).map(|n| n as usize).collect())
                    .unwrap_or_default();
                if !cites.is_empty() {
                    self.sentences_cited += 1;
                }
                let found = cites.iter().any(|n| {
                    passages
                        .get(n.wrapping_sub(1))
                        .is_some_and(|p| fold(p["text"].as_str().unwrap_or_default()).contains(&text))
                });
                if found {
                    self.verbatim += 1;
                }
            }
            if let Some(rows) = section["key_figures"]["rows"].as_array() {
                for cell in rows.iter().flat_map(|r| r["cells"].as_array().cloned().unwrap_or_default()) {
                    if cell.is_null() {
                        continue;
                    }
                    self.figures += 1;
                    let n = cell["citation"].as_u64().unwrap_or(0) as usize;
                    let holds = citations.get(n.wrapping_sub(1)).is_some_and(|c| {
                        fold(c["text"].as_str().unwrap_or_default())
                            .contains(&fold(cell["value"].as_str().unwrap_or_default()))
                    });
                    if holds {
                        self.figures_in_passage += 1;
                    }
                }
            }
        }
    }

    fn print(&self, model: bool) {
        let pct = |a: usize, b: usize| if b == 0 { 0.0 } else { 100.0 * a as f64 / b as f64 };
        println!(
            "  citation integrity over {} reports ({} completed): {} citations, {} outside the report's files, {} \
             marks resolving to no citation; {} sentences, {:.1}% cited (goal 99), {:.1}% word for word in a cited \
             passage ({}); {} key figures, {:.1}% in the passage they cite; {} sections without evidence, {} \
             of them saying so with no citation",
            self.reports,
            self.completed,
            self.citations,
            self.outside,
            self.dangling,
            self.sentences,
            pct(self.sentences_cited, self.sentences),
            pct(self.verbatim, self.sentences),
            if model { "a model paraphrases: kept by the support check instead" } else { "goal 98" },
            self.figures,
            pct(self.figures_in_passage, self.figures),
            self.empty_sections,
            self.empty_sections_honest,
        );
    }
}

/// Prints what the model wrote, judged before anything was dropped, and what was kept.
fn print_model_checks(c: &ModelCheck) {
    let pct = |a: usize, b: usize| if b == 0 { 0.0 } else { 100.0 * a as f64 / b as f64 };
    println!(
        "  the model's writing by the support check, before the report drops anything: {} sentences, {} of them \
         claims; citation recall {:.1}% ({} claims borne out by their citations; goal 90), citation precision \
         {:.1}% ({} of {} citations bear their claim out, alone or as needed with the others; citations to no \
         passage count against it; goal 90); kept in the reports: {} sentences ({:.1}%) and {} citations \
         ({:.1}%)",
        c.sentences,
        c.claims,
        pct(c.supported, c.claims),
        c.supported,
        pct(c.precise, c.citations),
        c.precise,
        c.citations,
        c.kept_sentences,
        pct(c.kept_sentences, c.sentences),
        c.kept_citations,
        pct(c.kept_citations, c.citations),
    );
}

/// What a model's checks add up to between `before` and `after`.
fn checks_since(before: &ModelCheck, after: &ModelCheck) -> ModelCheck {
    ModelCheck {
        sentences: after.sentences - before.sentences,
        claims: after.claims - before.claims,
        supported: after.supported - before.supported,
        citations: after.citations - before.citations,
        precise: after.precise - before.precise,
        kept_sentences: after.kept_sentences - before.kept_sentences,
        kept_citations: after.kept_citations - before.kept_citations,
    }
}

/// The citation numbers `[n]` of a markdown text.
fn marks(markdown: &str) -> Vec<usize> {
    let mut out = Vec::new();
    let mut rest = markdown;
    while let Some(open) = rest.find('[') {
        rest = &rest[open + 1..];
        if let Some(close) = rest.find(']') {
            if let Ok(n) = rest[..close].parse() {
                out.push(n);
            }
        }
    }
    out
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    sorted[((sorted.len() as f64 * p).ceil() as usize).clamp(1, sorted.len()) - 1]
}

async fn measure(work: &Path, all: &[TatContext], quick: bool) -> anyhow::Result<()> {
    let db = Db::open_sqlite(work).await?;
    let mut config = ServeArgs::for_tests();
    let engine = crate::ask::assistant_from_env(&mut config);
    let model = config.assistant_url.is_some();
    // A small model on shared cores writes a section in tens of seconds, not milliseconds.
    let patience = Duration::from_secs(if model { 3600 } else { 300 });
    let server = Server::start_with(db, work, config).await?;
    let base = format!("http://{}", server.addr);
    let client = reqwest::Client::new();
    let email = format!("analyst-{}@example.com", uuid::Uuid::new_v4().simple());
    let signed: Value = client
        .post(format!("{base}/api/auth/signup"))
        .json(&json!({"email": email, "password": "report bench: plum kettle orbit 97", "username": "analyst"}))
        .send()
        .await?
        .json()
        .await?;
    let token = signed["token"].as_str().ok_or_else(|| anyhow::anyhow!("no token: {signed}"))?.to_string();
    let user_id = signed["user"]["id"].as_str().unwrap_or_default().to_string();
    let api = Api { client, base: base.clone(), token: token.clone() };

    let documents = if quick { 10 } else { 50 };
    let blobs = server.state.blobs.clone();
    let mut files = Vec::new();
    for (i, c) in all.iter().take(documents).enumerate() {
        let text = document(c, Layout::Tabs);
        let hash = hex::encode(sha2::Sha256::digest(text.as_bytes()));
        blobs.put(&hash, &text).await?;
        let deeplink = format!("annual-report-{i}");
        let fields = DocumentFields {
            source_id: "needldrive".into(),
            guid: deeplink.clone(),
            title: format!("Annual report {i}"),
            content_hash: hash,
            owner: Some(user_id.clone()),
            ..Default::default()
        };
        let bus = &server.state.bus;
        bus.execute(&bus.documents, &deeplink, DocumentCommand::Ingest(fields), &EventMetadata::system("bench", "r"))
            .await
            .map_err(|e| anyhow::anyhow!("recording {deeplink}: {e}"))?;
        files.push(deeplink);
    }
    let head = commands::feed::head(&server.state.db).await?;
    anyhow::ensure!(server.state.search.wait_for(head, Duration::from_secs(120)).await, "the index caught up");
    anyhow::ensure!(server.state.projections.wait_for(head, Duration::from_secs(120)).await, "read models caught up");
    println!("  {engine}, {documents} TAT-QA contexts as the user's documents, SQLite, through the HTTP calls");

    // The owner's live socket, for the gaps between progress messages.
    let ws_url = format!("ws://{}/api/live?token={}", server.addr, token);
    let socket = crate::client::open_live(&ws_url).await?;
    let gaps = tokio::spawn(async move {
        let mut socket = socket;
        let mut last: Option<Instant> = None;
        let mut longest = Duration::ZERO;
        let mut messages = 0usize;
        while let Some(Ok(message)) = socket.next().await {
            let tokio_tungstenite::tungstenite::Message::Text(text) = message else { continue };
            let value: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
            match value["type"].as_str() {
                Some("report.progress") => {
                    messages += 1;
                    if let Some(at) = last {
                        longest = longest.max(at.elapsed());
                    }
                    last = Some(Instant::now());
                }
                Some("ReportCompleted" | "ReportFailed" | "ReportCancelled") => {
                    if let Some(at) = last.take() {
                        longest = longest.max(at.elapsed());
                    }
                }
                _ => {}
            }
        }
        (messages, longest)
    });

    let runs = if quick { 1 } else { 5 };
    let sizes: &[usize] = if quick { &[10] } else { &[10, 50] };
    let brief = "What drove revenue growth?\nHow did operating expenses change?\nWhat are the main tax items?";
    let mut integrity = Integrity::default();
    let checked_before = model_checks();
    let mut ends = (0usize, 0usize);
    let reset = crate::ingestion::reset_peak();
    let before = crate::ingestion::Memory::read();
    for report_type in ["maintenance_coverage", "credit_report", "initiation_coverage", "open_research", "drhp_report"]
    {
        let mut line = format!("  {report_type}:");
        for &n in sizes {
            let n = if report_type == "drhp_report" { n.min(5) } else { n };
            let chosen: Vec<String> = files.iter().take(n).cloned().collect();
            let known: HashSet<String> = chosen.iter().cloned().collect();
            let mut took = Vec::with_capacity(runs);
            for _ in 0..runs {
                let body =
                    json!({"report_type": report_type, "name": "Annual reports", "files": chosen, "brief": brief});
                let report = api.post("/ml/report/init", body).await?;
                let id = report["results"]["id"].as_str().unwrap_or_default().to_string();
                let started = Instant::now();
                let queued = api.post("/ml/report/generate", json!({ "report_id": id })).await?;
                anyhow::ensure!(queued["results"]["status"] == "QUEUED", "generate answers QUEUED: {queued}");
                let detail = until_ended(&api, &id, patience).await?;
                took.push(started.elapsed());
                ends.0 += 1;
                if ["COMPLETED", "FAILED", "CANCELLED"].contains(&detail["status"].as_str().unwrap_or_default()) {
                    ends.1 += 1;
                }
                integrity.add(&detail, &known);
            }
            took.sort();
            line.push_str(&format!(
                " {n} documents median {:.2} s, p95 {:.2} s;",
                percentile(&took, 0.5).as_secs_f64(),
                percentile(&took, 0.95).as_secs_f64()
            ));
            if report_type == "drhp_report" {
                break;
            }
        }
        println!("{}", line.trim_end_matches(';'));
    }
    let after = crate::ingestion::Memory::read();
    println!(
        "  every job reached an end state: {}/{}; peak resident memory {} ({})",
        ends.1,
        ends.0,
        crate::ingestion::mib(after.peak_kib),
        if reset {
            format!("peak reset before the reports, resident then {}", crate::ingestion::mib(before.resident_kib))
        } else {
            "the process's lifetime peak".to_string()
        }
    );

    // Cancelling a running report: the call's latency, and nothing written after it.
    let chosen: Vec<String> = files.iter().take(documents).cloned().collect();
    let mut cancel_took = Vec::new();
    let mut written_after = 0usize;
    let mut attempts = 0usize;
    for _ in 0..(if quick { 1 } else { 5 }) {
        let body = json!({"report_type": "initiation_coverage", "name": "Cancelled", "files": chosen});
        let report = api.post("/ml/report/init", body).await?;
        let id = report["results"]["id"].as_str().unwrap_or_default().to_string();
        api.post("/ml/report/generate", json!({ "report_id": id })).await?;
        let deadline = Instant::now() + Duration::from_secs(30);
        while Instant::now() < deadline {
            let detail = api.get(&format!("/ml/report/{id}")).await?;
            if detail["results"]["status"] != "QUEUED" {
                break;
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        let started = Instant::now();
        // A report that finished before the call is refused (409): not counted.
        if api.post(&format!("/ml/report/{id}/cancel"), json!({})).await.is_ok() {
            cancel_took.push(started.elapsed());
            let at_cancel = section_events(&server, &id).await?;
            tokio::time::sleep(Duration::from_millis(1500)).await;
            written_after += section_events(&server, &id).await? - at_cancel;
        }
        attempts += 1;
    }
    cancel_took.sort();
    println!(
        "  cancel ({} of {attempts} reports still running when cancelled): the call answers CANCELLED in median \
         {:.1} ms, max {:.1} ms (goal 1 s); sections recorded after it: {written_after}",
        cancel_took.len(),
        percentile(&cancel_took, 0.5).as_secs_f64() * 1e3,
        cancel_took.last().copied().unwrap_or_default().as_secs_f64() * 1e3,
    );

    // A report over a document that answers none of its questions.
    let body = json!({"report_type": "open_research", "name": "Off topic", "files": [files[0]],
        "brief": "What is the weather on Mars?\nWho won the football league?"});
    let report = api.post("/ml/report/init", body).await?;
    let id = report["results"]["id"].as_str().unwrap_or_default().to_string();
    api.post("/ml/report/generate", json!({ "report_id": id })).await?;
    let detail = until_ended(&api, &id, patience).await?;
    println!(
        "  with no evidence: the report ends {} with {} citations ({})",
        detail["status"].as_str().unwrap_or_default(),
        detail["result"]["raw_data"]["citations"].as_array().map_or(0, Vec::len),
        detail["result"]["error_message"].as_str().unwrap_or("no reason given")
    );
    integrity.print(model);
    if model {
        print_model_checks(&checks_since(&checked_before, &model_checks()));
    }

    tokio::time::sleep(Duration::from_millis(200)).await;
    server.stop().await?;
    if let Ok(Ok((messages, longest))) = tokio::time::timeout(Duration::from_secs(5), gaps).await {
        println!(
            "  progress: {messages} messages on the owner's socket, longest gap while a report ran {:.2} s (goal 2 s)",
            longest.as_secs_f64()
        );
    }
    Ok(())
}

/// Polls a report every 20 ms until it ends.
async fn until_ended(api: &Api, id: &str, timeout: Duration) -> anyhow::Result<Value> {
    let deadline = Instant::now() + timeout;
    loop {
        let detail = api.get(&format!("/ml/report/{id}")).await?;
        let status = detail["results"]["status"].as_str().unwrap_or_default();
        if ["COMPLETED", "FAILED", "CANCELLED"].contains(&status) {
            return Ok(detail["results"].clone());
        }
        anyhow::ensure!(Instant::now() < deadline, "report {id} still {status} after {timeout:?}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// How many sections of the report were recorded.
async fn section_events(server: &Server, id: &str) -> anyhow::Result<usize> {
    #[derive(sqlx::FromRow)]
    struct Count {
        n: i64,
    }
    let count: Option<Count> = server
        .state
        .db
        .fetch_optional(
            "SELECT COUNT(*) AS n FROM report_sections_view WHERE report_id = $1 AND status = 'COMPLETED'",
            commands::args![id],
        )
        .await?;
    Ok(count.map_or(0, |c| c.n as usize))
}
