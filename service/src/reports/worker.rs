//! Report generation as durable jobs, off the request path.
//!
//! The `report_jobs` table is the queue: the reports projection adds a row when generation is
//! asked for and removes it when the report ends. A worker leases a row (`FOR UPDATE SKIP LOCKED`
//! on Postgres) for [`LEASE`], renews the lease while it writes, and looks at the report every
//! [`CHECK_EVERY`], so a cancel stops it at once. A worker whose node dies leaves the lease to run
//! out; another worker then takes the job and resumes after the last written section: the
//! aggregate refuses to write a finished section again, so nothing finished is ever rewritten.
//!
//! Each section is retrieved over the report's files (and the feed's documents resolved when
//! generation was asked for) and written by the assistant's extractive engine: only sentences of
//! those passages, each kept only if it is found word for word in a passage it cites. A section
//! without such sentences says that the files hold no evidence for it, with no citation.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use assistant::{Retrieval, RetrievedPassage, Scope, Settings};
use chrono::{SecondsFormat, Utc};
use commands::args;
use commands::store::Backend;
use commands::CommandError;
use domain::report::{ReportCommand, ReportError, ReportType};
use domain::EventMetadata;
use search::Access;
use serde_json::{json, Value};
use tokio::sync::watch;

use super::{outline_of, row, Row};
use crate::context::Context;

/// How long a lease holds without renewal: a dead node's report waits this long for another.
pub const LEASE: Duration = Duration::from_secs(30);
/// How often a working worker looks whether its report was cancelled (and renews its lease every
/// third of [`LEASE`]).
pub const CHECK_EVERY: Duration = Duration::from_millis(250);
/// Leases taken before a report that keeps interrupting its workers is failed.
pub const MAX_ATTEMPTS: i64 = 3;
/// Reports written at once by one worker.
pub const PARALLEL_REPORTS: usize = 2;
/// What a section without evidence says.
pub const NO_EVIDENCE: &str = "_The report's files hold no evidence for this section._";

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Job {
    pub report_id: String,
    pub attempts: i64,
}

#[derive(Debug, sqlx::FromRow)]
struct SectionRow {
    idx: i64,
    heading: String,
    query: String,
    status: String,
    sentences: Option<String>,
    passages: Option<String>,
}

/// A section as written, before it is recorded.
struct Written {
    markdown: String,
    sentences: Value,
    passages: Value,
}

pub struct ReportWorker {
    ctx: Context,
    node: String,
    lease: Duration,
    /// Stops after writing this many sections and keeps its lease, as a worker whose process was
    /// killed would: what tests and benchmarks use to exercise resumption.
    die_after: Option<usize>,
}

impl ReportWorker {
    pub fn new(ctx: Context) -> ReportWorker {
        ReportWorker {
            ctx,
            node: format!("{}-{}", std::process::id(), uuid::Uuid::new_v4().simple()),
            lease: LEASE,
            die_after: None,
        }
    }

    /// A worker that stops as if killed after writing `sections` sections, its lease kept.
    pub fn dying_after(mut self, sections: usize) -> ReportWorker {
        self.die_after = Some(sections);
        self
    }

    pub fn node(&self) -> &str {
        &self.node
    }

    /// Generates queued reports until shutdown; woken when generation is asked for here, and every
    /// second for work queued by other nodes or left by dead ones.
    pub async fn run(self: Arc<Self>, mut shutdown: watch::Receiver<bool>) {
        let slots = Arc::new(tokio::sync::Semaphore::new(PARALLEL_REPORTS));
        loop {
            let free = slots.available_permits();
            if free > 0 {
                match self.claim(free as i64).await {
                    Ok(jobs) => {
                        for job in jobs {
                            let Ok(slot) = slots.clone().acquire_owned().await else {
                                return;
                            };
                            let this = self.clone();
                            tokio::spawn(async move {
                                this.process(job).await;
                                drop(slot);
                                this.ctx.report_wake.notify_one();
                            });
                        }
                    }
                    Err(error) => tracing::warn!(error = %format!("{error:#}"), "could not lease report jobs"),
                }
            }
            tokio::select! {
                _ = self.ctx.report_wake.notified() => {}
                _ = tokio::time::sleep(Duration::from_secs(1)) => {}
                _ = shutdown.wait_for(|s| *s) => return,
            }
        }
    }

    /// Leases up to `max` jobs nobody holds (or whose lease ran out).
    pub async fn claim(&self, max: i64) -> anyhow::Result<Vec<Job>> {
        let now = Utc::now();
        let ts = |t: chrono::DateTime<Utc>| t.to_rfc3339_opts(SecondsFormat::Millis, true);
        let lock = match self.ctx.db.backend() {
            Backend::Postgres => "FOR UPDATE SKIP LOCKED",
            Backend::Sqlite => "",
        };
        let mut tx = self.ctx.db.begin().await?;
        let jobs: Vec<Job> = tx
            .fetch_all(
                &format!(
                    "UPDATE report_jobs SET lease_owner = $1, lease_until = $2, attempts = attempts + 1 \
                     WHERE report_id IN (SELECT report_id FROM report_jobs \
                      WHERE lease_until IS NULL OR lease_until < $3 ORDER BY report_id LIMIT $4 {lock}) \
                     RETURNING report_id, attempts"
                ),
                args![self.node.as_str(), ts(now + chrono::Duration::from_std(self.lease)?), ts(now), max],
            )
            .await?;
        tx.commit().await?;
        Ok(jobs)
    }

    /// Leases one job and works on it to its end (or, for a worker [dying](Self::dying_after),
    /// to its death). Returns whether there was a job.
    pub async fn work_once(&self) -> anyhow::Result<bool> {
        let Some(job) = self.claim(1).await?.pop() else {
            return Ok(false);
        };
        self.process(job).await;
        Ok(true)
    }

    /// Writes the report while keeping the lease; stops as soon as the report ends elsewhere
    /// (cancelled) or the lease is lost.
    async fn process(&self, job: Job) {
        let id = job.report_id.clone();
        tokio::select! {
            outcome = self.generate(&job) => {
                if let Err(error) = outcome {
                    // Storage or index trouble: the job stays leased and is taken again when the
                    // lease runs out, resuming after the last written section.
                    tracing::warn!(report = %id, error = %format!("{error:#}"), "report generation interrupted");
                }
            }
            why = self.keep(&id) => tracing::info!(report = %id, why, "report generation stopped"),
        }
    }

    /// Renews the lease and watches the report; returns why the work must stop.
    async fn keep(&self, report_id: &str) -> &'static str {
        let renew_every = (self.lease / 3).max(CHECK_EVERY);
        let mut last_renewal = tokio::time::Instant::now();
        loop {
            tokio::time::sleep(CHECK_EVERY).await;
            match row(&self.ctx, report_id).await {
                Ok(Some(r)) if matches!(r.status.as_str(), "COMPLETED" | "FAILED" | "CANCELLED") => {
                    return "the report ended";
                }
                Ok(None) => return "the report is gone",
                _ => {}
            }
            if last_renewal.elapsed() >= renew_every {
                last_renewal = tokio::time::Instant::now();
                let until = (Utc::now() + chrono::Duration::from_std(self.lease).unwrap_or_default())
                    .to_rfc3339_opts(SecondsFormat::Millis, true);
                match self
                    .ctx
                    .db
                    .execute(
                        "UPDATE report_jobs SET lease_until = $3 WHERE report_id = $1 AND lease_owner = $2",
                        args![report_id, self.node.as_str(), until],
                    )
                    .await
                {
                    Ok(0) => return "the lease was taken by another worker",
                    Ok(_) => {}
                    Err(error) => tracing::warn!(report = %report_id, %error, "could not renew a report lease"),
                }
            }
        }
    }

    async fn command(&self, report_id: &str, command: ReportCommand) -> Result<(), CommandError<ReportError>> {
        let metadata = EventMetadata::system("reports", uuid::Uuid::new_v4().to_string());
        self.ctx.command(&self.ctx.bus.reports, report_id, command, &metadata).await.map(|_| ())
    }

    async fn fail(&self, report_id: &str, reason: String) -> anyhow::Result<()> {
        tracing::info!(report = %report_id, %reason, "report failed");
        match self.command(report_id, ReportCommand::Fail { reason }).await {
            Ok(()) | Err(CommandError::Domain(_)) => Ok(()),
            Err(error) => Err(anyhow::anyhow!("{error}")),
        }
    }

    async fn sections(&self, report_id: &str) -> anyhow::Result<Vec<SectionRow>> {
        Ok(self
            .ctx
            .db
            .fetch_all(
                "SELECT idx, heading, query, status, sentences, passages FROM report_sections_view \
                 WHERE report_id = $1 ORDER BY idx",
                args![report_id],
            )
            .await?)
    }

    async fn generate(&self, job: &Job) -> anyhow::Result<()> {
        let id = job.report_id.as_str();
        let Some(report) = row(&self.ctx, id).await? else {
            return Ok(());
        };
        if matches!(report.status.as_str(), "COMPLETED" | "FAILED" | "CANCELLED") {
            return Ok(());
        }
        if job.attempts > MAX_ATTEMPTS {
            return self
                .fail(id, format!("Generation was interrupted {MAX_ATTEMPTS} times; generate the report again"))
                .await;
        }
        let mut deeplinks: Vec<String> = Vec::new();
        for file in report.files() {
            #[derive(sqlx::FromRow)]
            struct Present {
                deeplink: String,
            }
            let present: Option<Present> = self
                .ctx
                .db
                .fetch_optional(
                    "SELECT deeplink FROM documents_view WHERE deeplink = $1",
                    args![file.deeplink.as_str()],
                )
                .await?;
            match present {
                Some(p) => deeplinks.push(p.deeplink),
                None => {
                    let reason = format!(
                        "File {} is no longer available; remove it from the report and generate it again",
                        file.name
                    );
                    return self.fail(id, reason).await;
                }
            }
        }
        let feed: Vec<String> = serde_json::from_str(&report.feed_documents).unwrap_or_default();
        for d in feed {
            if !deeplinks.contains(&d) {
                deeplinks.push(d);
            }
        }
        if report.sections == 0 {
            match self.command(id, ReportCommand::PlanSections { sections: outline_of(&report) }).await {
                Ok(()) => {}
                Err(CommandError::Domain(ReportError::AlreadyEnded)) => return Ok(()),
                Err(error) => return Err(anyhow::anyhow!("{error}")),
            }
        }
        let mut written = 0;
        for section in self.sections(id).await? {
            if section.status != "PLANNED" {
                continue;
            }
            let draft = self.write(&section.query, &deeplinks).await?;
            let command = ReportCommand::CompleteSection {
                index: section.idx as usize,
                markdown: draft.markdown,
                sentences: draft.sentences,
                passages: draft.passages,
            };
            match self.command(id, command).await {
                // Another worker wrote it first: its text stands.
                Ok(()) | Err(CommandError::Domain(ReportError::SectionWritten)) => {}
                Err(CommandError::Domain(ReportError::AlreadyEnded)) => return Ok(()),
                Err(error) => return Err(anyhow::anyhow!("{error}")),
            }
            written += 1;
            if self.die_after == Some(written) {
                tracing::info!(report = %id, written, "worker stops as if killed, its lease kept");
                return Ok(());
            }
        }
        let sections = self.sections(id).await?;
        if sections.iter().any(|s| s.status != "COMPLETED") {
            anyhow::bail!("sections still missing after writing them all");
        }
        let (content, raw_data, cited) = assemble(&sections);
        if cited == 0 {
            let label = ReportType::parse(&report.report_type).map(|t| t.label()).unwrap_or("the report");
            return self
                .fail(
                    id,
                    format!(
                        "None of the report's files holds evidence for any of its sections; add files that cover \
                         what a {} covers and generate it again",
                        label.to_lowercase()
                    ),
                )
                .await;
        }
        let time_taken = time_since(&report);
        let title = format!(
            "{}: {}",
            ReportType::parse(&report.report_type).map(|t| t.label()).unwrap_or("Report"),
            report.name
        );
        match self.command(id, ReportCommand::Complete { title, content, raw_data, time_taken }).await {
            Ok(()) | Err(CommandError::Domain(_)) => Ok(()),
            Err(error) => Err(anyhow::anyhow!("{error}")),
        }
    }

    /// Retrieves the section's evidence and writes it extractively.
    async fn write(&self, query: &str, deeplinks: &[String]) -> anyhow::Result<Written> {
        let index = self.ctx.search.clone();
        let query = query.to_string();
        let deeplinks = deeplinks.to_vec();
        let (retrieval, answer) = tokio::task::spawn_blocking(move || {
            let retrieval = assistant::retrieve(
                &index,
                &query,
                &Scope::Documents(deeplinks.clone()),
                &Access::Documents(deeplinks),
                &Settings::pro(),
            )?;
            let answer = assistant::extractive::compose(&retrieval, true);
            Ok::<_, assistant::AssistantError>((retrieval, answer))
        })
        .await??;
        Ok(section_of(&retrieval, &answer))
    }
}

/// Seconds from the generate call to now.
fn time_since(report: &Row) -> f64 {
    report
        .started_at
        .as_deref()
        .and_then(|s| chrono::DateTime::parse_from_rfc3339(s).ok())
        .map(|at| (Utc::now() - at.with_timezone(&Utc)).num_milliseconds().max(0) as f64 / 1000.0)
        .unwrap_or(0.0)
}

fn passage_json(p: &RetrievedPassage, number: usize) -> Value {
    json!({
        "number": number,
        "deeplink": p.deeplink,
        "title": p.title,
        "source_id": p.source_id,
        "ordinal": p.ordinal,
        "page": p.page,
        "start": p.start,
        "end": p.end,
        "boxes": p.boxes,
        "text": p.text,
    })
}

/// The section from the engine's answer: each sentence kept only when found word for word in a
/// passage it cites (the support check), citations renumbered within the section in order of
/// first use, and only the passages cited.
fn section_of(retrieval: &Retrieval, answer: &assistant::Answer) -> Written {
    let by_number: HashMap<u32, &RetrievedPassage> = retrieval.passages.iter().map(|p| (p.number, p)).collect();
    let mut used: Vec<u32> = Vec::new();
    let mut sentences = Vec::new();
    let mut lines = Vec::new();
    for s in &answer.generated_answer.sentences {
        let sentence = assistant::text::normalize(&s.sentence);
        let supported: Vec<u32> = s
            .citations
            .iter()
            .copied()
            .filter(|n| by_number.get(n).is_some_and(|p| assistant::text::normalize(&p.text).contains(&sentence)))
            .collect();
        if supported.is_empty() {
            continue;
        }
        let numbers: Vec<u32> = supported
            .iter()
            .map(|n| match used.iter().position(|u| u == n) {
                Some(i) => i as u32 + 1,
                None => {
                    used.push(*n);
                    used.len() as u32
                }
            })
            .collect();
        lines.push(format!("{} {}", sentence, assistant::compose::marks(&numbers)));
        sentences.push(json!({ "sentence": sentence, "citations": numbers }));
    }
    let passages: Vec<Value> = used.iter().enumerate().map(|(i, n)| passage_json(by_number[n], i + 1)).collect();
    Written {
        markdown: if lines.is_empty() { NO_EVIDENCE.to_string() } else { lines.join(" ") },
        sentences: Value::Array(sentences),
        passages: Value::Array(passages),
    }
}

/// The report's markdown and raw data from its written sections: citations numbered across the
/// report (one number per passage, however many sections cite it), a list of sources at the end.
/// Returns how many passages are cited.
fn assemble(sections: &[SectionRow]) -> (String, Value, usize) {
    let mut numbers: HashMap<(String, u64), usize> = HashMap::new();
    let mut citations: Vec<Value> = Vec::new();
    let mut parts = Vec::new();
    let mut raw_sections = Vec::new();
    for section in sections {
        let sentences: Vec<Value> =
            section.sentences.as_deref().and_then(|s| serde_json::from_str(s).ok()).unwrap_or_default();
        let passages: Vec<Value> =
            section.passages.as_deref().and_then(|s| serde_json::from_str(s).ok()).unwrap_or_default();
        let mut local_to_global: Vec<usize> = Vec::new();
        let mut section_passages = Vec::new();
        for p in &passages {
            let key = (p["deeplink"].as_str().unwrap_or_default().to_string(), p["ordinal"].as_u64().unwrap_or(0));
            let number = *numbers.entry(key).or_insert_with(|| {
                let mut cited = p.clone();
                cited["number"] = json!(citations.len() + 1);
                citations.push(cited);
                citations.len()
            });
            local_to_global.push(number);
            let mut p = p.clone();
            p["number"] = json!(number);
            section_passages.push(p);
        }
        let mut lines = Vec::new();
        for s in &sentences {
            let global: Vec<u32> = s["citations"]
                .as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|n| n.as_u64())
                        .filter_map(|n| {
                            (n as usize).checked_sub(1).and_then(|i| local_to_global.get(i)).map(|g| *g as u32)
                        })
                        .collect()
                })
                .unwrap_or_default();
            lines.push(format!(
                "{} {}",
                s["sentence"].as_str().unwrap_or_default(),
                assistant::compose::marks(&global)
            ));
        }
        let body = if lines.is_empty() { NO_EVIDENCE.to_string() } else { lines.join(" ") };
        parts.push(format!("## {}\n\n{}", section.heading, body));
        raw_sections.push(json!({
            "heading": section.heading,
            "query": section.query,
            "sentences": sentences,
            "passages": section_passages,
        }));
    }
    if !citations.is_empty() {
        let sources: Vec<String> = citations
            .iter()
            .map(|c| {
                format!(
                    "{}. {}, page {}",
                    c["number"],
                    c["title"].as_str().unwrap_or_default(),
                    c["page"].as_u64().unwrap_or(1)
                )
            })
            .collect();
        parts.push(format!("## Sources\n\n{}", sources.join("\n")));
    }
    let cited = citations.len();
    (parts.join("\n\n"), json!({ "sections": raw_sections, "citations": citations }), cited)
}
