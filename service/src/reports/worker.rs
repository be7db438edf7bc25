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
//! generation was asked for) and written ([`super::writing`]) by the assistant's extractive engine
//! (only sentences of those passages, each kept only if found word for word in a passage it cites)
//! or, when AskNeedl answers through a model, by that model under AskNeedl's support check. A
//! financial section also gets a table of key figures ([`super::figures`]). A section without
//! evidence says so, with no citation. While it writes, the worker tells the report's owner how far
//! it got at least every second ([`super::progress`]).

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use assistant::{Scope, Settings};
use chrono::Utc;
use commands::args;
use commands::CommandError;
use domain::report::{ReportCommand, ReportError, ReportType};
use domain::EventMetadata;
use search::Access;
use serde_json::{json, Value};
use tokio::sync::watch;

use super::figures::KeyFigures;
use super::progress::{Phase, Progress};
use super::writing::{self, Brief, Written};
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
pub use super::writing::NO_EVIDENCE;

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
    markdown: Option<String>,
    sentences: Option<String>,
    passages: Option<String>,
}

/// Why a section could not be written.
enum WriteError {
    /// The writing model failed: the report fails with a reason the operator can act on.
    Engine(assistant::AssistantError),
    /// Storage or index trouble: the job is taken again when its lease runs out.
    Other(anyhow::Error),
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

    /// A worker whose leases last `lease` without renewal (renewed every third of it).
    pub fn with_lease(mut self, lease: Duration) -> ReportWorker {
        self.lease = lease;
        self
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
        let leased =
            crate::sql::lease_jobs(&self.ctx.db, "report_jobs", "report_id", &self.node, Utc::now(), self.lease, max)
                .await?;
        Ok(leased.into_iter().map(|l| Job { report_id: l.key, attempts: l.attempts }).collect())
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
        let owner = match row(&self.ctx, &id).await {
            Ok(Some(r)) => r.user_id,
            _ => String::new(),
        };
        let progress = Progress::new(self.ctx.hub.clone(), owner, id.clone());
        tokio::select! {
            outcome = self.generate(&job, &progress) => {
                if let Err(error) = outcome {
                    // Storage or index trouble: the job stays leased and is taken again when the
                    // lease runs out, resuming after the last written section.
                    tracing::warn!(report = %id, error = %format!("{error:#}"), "report generation interrupted");
                }
            }
            why = self.keep(&id) => tracing::info!(report = %id, why, "report generation stopped"),
            _ = progress.beat() => {}
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
                let renewed = crate::sql::renew_lease(
                    &self.ctx.db,
                    "report_jobs",
                    "report_id",
                    report_id,
                    &self.node,
                    Utc::now(),
                    self.lease,
                );
                match renewed.await {
                    Ok(false) => return "the lease was taken by another worker",
                    Ok(true) => {}
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
                "SELECT idx, heading, query, status, markdown, sentences, passages FROM report_sections_view \
                 WHERE report_id = $1 ORDER BY idx",
                args![report_id],
            )
            .await?)
    }

    async fn generate(&self, job: &Job, progress: &Progress) -> anyhow::Result<()> {
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
        let label = ReportType::parse(&report.report_type).map(|t| t.label()).unwrap_or("Report");
        let planned = self.sections(id).await?;
        let total = planned.len();
        let mut done = planned.iter().filter(|s| s.status != "PLANNED").count();
        let mut written = 0;
        for section in planned {
            if section.status != "PLANNED" {
                continue;
            }
            let brief = Brief {
                heading: &section.heading,
                query: &section.query,
                report: label,
                figures: domain::report::has_key_figures(&section.heading),
            };
            let draft = match self.write(&brief, &deeplinks, progress, total, done).await {
                Ok(draft) => draft,
                Err(WriteError::Engine(error)) => {
                    let reason = format!(
                        "The writing model could not write the section {}: {error}; check the assistant's settings \
                         and generate the report again",
                        section.heading
                    );
                    return self.fail(id, reason).await;
                }
                Err(WriteError::Other(error)) => return Err(error),
            };
            let checked = draft.checked;
            let command = ReportCommand::CompleteSection {
                index: section.idx as usize,
                markdown: draft.markdown,
                sentences: draft.sentences,
                passages: draft.passages,
            };
            match self.command(id, command).await {
                Ok(()) => {
                    if let Some(c) = checked {
                        tracing::info!(
                            report = %id,
                            section = %section.heading,
                            sentences = c.sentences,
                            claims = c.claims,
                            supported = c.supported,
                            citations = c.citations,
                            precise = c.precise,
                            kept_sentences = c.kept_sentences,
                            kept_citations = c.kept_citations,
                            "the model's section judged by the support check"
                        );
                        writing::tally(&c);
                    }
                }
                // Another worker wrote it first: its text stands.
                Err(CommandError::Domain(ReportError::SectionWritten)) => {}
                Err(CommandError::Domain(ReportError::AlreadyEnded)) => return Ok(()),
                Err(error) => return Err(anyhow::anyhow!("{error}")),
            }
            written += 1;
            done += 1;
            if self.die_after == Some(written) {
                tracing::info!(report = %id, written, "worker stops as if killed, its lease kept");
                return Ok(());
            }
        }
        progress.at(total, done, "", Phase::Assembling);
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

    /// Retrieves the section's evidence and writes it with the assistant's engine.
    async fn write(
        &self,
        brief: &Brief<'_>,
        deeplinks: &[String],
        progress: &Progress,
        total: usize,
        done: usize,
    ) -> Result<Written, WriteError> {
        progress.at(total, done, brief.heading, Phase::Retrieving);
        let index = self.ctx.search.clone();
        let semantic = self.ctx.semantic.clone();
        let query = brief.query.to_string();
        let deeplinks = deeplinks.to_vec();
        let figures = brief.figures;
        let (retrieval, preceding) = tokio::task::spawn_blocking(move || {
            let retrieval = assistant::retrieve_ranked(
                &index,
                &query,
                &Scope::Documents(deeplinks.clone()),
                &Access::Documents(deeplinks),
                &Settings::pro(),
                semantic.as_deref().map(|s| s as &dyn search::Similarity),
            )?;
            // A table cut across passages keeps its periods: its header is in the passages before.
            let preceding = if figures {
                writing::preceding(&retrieval, |deeplink, ordinal, count| {
                    index.passages_before(deeplink, ordinal, count)
                })
            } else {
                Default::default()
            };
            Ok::<_, assistant::AssistantError>((retrieval, preceding))
        })
        .await
        .map_err(|e| WriteError::Other(e.into()))?
        .map_err(|e| WriteError::Other(e.into()))?;
        progress.at(total, done, brief.heading, Phase::Writing);
        let assistant = self.ctx.assistant.current(&self.ctx.db).await;
        writing::write(assistant.engine(), retrieval, preceding, brief).await.map_err(WriteError::Engine)
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
        // The section's key figures, renumbered as its sentences are.
        let figures = section.markdown.as_deref().and_then(KeyFigures::from_markdown).unwrap_or_default();
        let global = |n: u32| (n as usize).checked_sub(1).and_then(|i| local_to_global.get(i)).map_or(0, |g| *g as u32);
        let table = figures.markdown(global);
        let body = match (lines.is_empty(), table.is_empty()) {
            (true, true) => NO_EVIDENCE.to_string(),
            (false, true) => lines.join(" "),
            (true, false) => table,
            (false, false) => format!("{}\n\n{}", lines.join(" "), table),
        };
        parts.push(format!("## {}\n\n{}", section.heading, body));
        let mut raw = json!({
            "heading": section.heading,
            "query": section.query,
            "sentences": sentences,
            "passages": section_passages,
        });
        if !figures.is_empty() {
            raw["key_figures"] = figures.to_json(global);
        }
        raw_sections.push(raw);
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
