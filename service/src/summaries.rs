//! Document summaries below HTTP: asking for one (flag `doc_summarization`, a document the viewer
//! may read), its status as the spec names it (PENDING or PROCESSING, then SUCCESS with the PDF),
//! the PDF itself, and [`SummaryWorker`], which writes them.
//!
//! A summary is extractive and offline: the document's sentences are scored by how central they
//! are to the whole text (tf-idf cosine to the document's centroid), with a little weight for
//! figures and for coming early, and the key points chosen by maximal marginal relevance so they
//! say different things. Each point keeps its page. The PDF is written by the reports' PDF writer
//! (an embedded, searchable font), titled with the document's title, each point noting its page.
//! When it is stored, the person who asked is notified.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use assistant::select::{select, Diversity, Item};
use assistant::text::{normalize, sentences, Terms};
use commands::args;
use domain::summary::{summary_id, SummaryCommand, SummaryError};
use domain::EventMetadata;
use serde::Serialize;
use tokio::sync::watch;

use crate::context::Context;
use crate::error::{Error, Result};
use crate::policy::{readable, require_flag};
use crate::reports::export::{self, Block, Doc, Inline, Note};
use crate::viewer::Viewer;

/// Key points a summary holds, at most.
pub const MAX_POINTS: usize = 8;
/// What "Summarizing" says while the spec's message is shown.
pub const GENERATING: &str = "Your summary is currently being generated, and we will notify you once it is complete.";

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SummaryStatusView {
    /// NONE, PENDING, PROCESSING, SUCCESS or FAILED.
    pub status: String,
    /// Where the PDF is read, once SUCCESS.
    pub summary_pdf: Option<String>,
    /// What to tell the person: the spec's "being generated" message while it is, the reason
    /// when it failed.
    pub message: Option<String>,
}

#[derive(sqlx::FromRow)]
struct Row {
    status: String,
    pdf_key: Option<String>,
    error: Option<String>,
}

fn pdf_path(deeplink: &str) -> String {
    format!("/api/documents/{deeplink}/summary/pdf")
}

fn view(deeplink: &str, row: Option<Row>) -> SummaryStatusView {
    match row {
        None => SummaryStatusView { status: "NONE".into(), summary_pdf: None, message: None },
        Some(row) => SummaryStatusView {
            summary_pdf: row.pdf_key.as_ref().filter(|_| row.status == "SUCCESS").map(|_| pdf_path(deeplink)),
            message: match row.status.as_str() {
                "PENDING" | "PROCESSING" => Some(GENERATING.to_string()),
                "FAILED" => row.error,
                _ => None,
            },
            status: row.status,
        },
    }
}

async fn row(ctx: &Context, user_id: &str, deeplink: &str) -> Result<Option<Row>> {
    Ok(ctx
        .db
        .fetch_optional(
            "SELECT status, pdf_key, error FROM summaries_view WHERE summary_id = $1",
            args![summary_id(user_id, deeplink)],
        )
        .await?)
}

/// One of the viewer's summaries, with its document.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SummaryEntry {
    pub deeplink: String,
    #[serde(flatten)]
    pub summary: SummaryStatusView,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SummaryList {
    /// The most recently changed first, at most [`MAX_LISTED`].
    pub results: Vec<SummaryEntry>,
}

/// Summaries listed at once, at most.
pub const MAX_LISTED: i64 = 500;

/// Every summary the viewer asked for, so a page of cards needs one call, not one per card. A
/// document the viewer may no longer read is left out.
pub async fn mine(ctx: &Context, viewer: &Viewer) -> Result<SummaryList> {
    #[derive(sqlx::FromRow)]
    struct Listed {
        deeplink: String,
        status: String,
        pdf_key: Option<String>,
        error: Option<String>,
    }
    let rows: Vec<Listed> = ctx
        .db
        .fetch_all(
            &format!(
                "SELECT sm.deeplink, sm.status, sm.pdf_key, sm.error FROM summaries_view sm \
                 WHERE sm.user_id = $1 AND EXISTS (SELECT 1 FROM documents_view d \
                 LEFT JOIN sources_view s ON s.source_id = d.source_id WHERE d.deeplink = sm.deeplink AND {}) \
                 ORDER BY sm.updated_at DESC LIMIT {MAX_LISTED}",
                crate::policy::READABLE_DOCUMENT
            ),
            args![viewer.user_id.as_str()],
        )
        .await?;
    Ok(SummaryList {
        results: rows
            .into_iter()
            .map(|r| {
                let summary = view(&r.deeplink, Some(Row { status: r.status, pdf_key: r.pdf_key, error: r.error }));
                SummaryEntry { deeplink: r.deeplink, summary }
            })
            .collect(),
    })
}

/// The viewer's summary of a document they may read.
pub async fn status(ctx: &Context, viewer: &Viewer, deeplink: &str) -> Result<SummaryStatusView> {
    readable(ctx, &viewer.user_id, deeplink, None).await?;
    Ok(view(deeplink, row(ctx, &viewer.user_id, deeplink).await?))
}

/// Asks for a summary of a document the viewer may read; asking again while it is written (or
/// once it is) changes nothing.
pub async fn request(ctx: &Context, viewer: &Viewer, deeplink: &str) -> Result<SummaryStatusView> {
    require_flag(ctx, viewer, "doc_summarization", "document summaries are turned off for you").await?;
    let card = readable(ctx, &viewer.user_id, deeplink, None).await?;
    let command =
        SummaryCommand::Request { user_id: viewer.user_id.clone(), deeplink: deeplink.to_string(), title: card.title };
    ctx.command(&ctx.bus.summaries, &summary_id(&viewer.user_id, deeplink), command, &viewer.metadata()).await?;
    ctx.summary_wake.notify_one();
    Ok(view(deeplink, row(ctx, &viewer.user_id, deeplink).await?))
}

/// A written summary: its file name and bytes.
pub struct SummaryPdf {
    pub file_name: String,
    pub bytes: Vec<u8>,
}

/// The PDF of the viewer's written summary of a document they may (still) read.
pub async fn pdf(ctx: &Context, viewer: &Viewer, deeplink: &str) -> Result<SummaryPdf> {
    let card = readable(ctx, &viewer.user_id, deeplink, None).await?;
    let key = row(ctx, &viewer.user_id, deeplink)
        .await?
        .filter(|r| r.status == "SUCCESS")
        .and_then(|r| r.pdf_key)
        .ok_or_else(|| Error::not_found("this document has no written summary"))?;
    let bytes = read_all(ctx, &key).await?;
    Ok(SummaryPdf { file_name: format!("Summary - {}.pdf", export::file_stem(&card.title)), bytes })
}

async fn read_all(ctx: &Context, key: &str) -> Result<Vec<u8>> {
    use futures::TryStreamExt;
    let stream = ctx.storage.read(key).await.map_err(Error::internal)?;
    let chunks: Vec<bytes::Bytes> = stream.try_collect().await.map_err(Error::internal)?;
    Ok(chunks.concat())
}

/// One key point: a sentence of the document and its page.
#[derive(Debug, Clone, PartialEq)]
pub struct Point {
    pub page: u32,
    pub text: String,
}

/// Sentences shorter or longer than these (in words) are not taken as points.
const MIN_WORDS: usize = 6;
const MAX_WORDS: usize = 60;

/// The key points of a document's pages (number, text), in the document's order.
pub fn key_points(pages: &[(u32, String)], keep: usize) -> Vec<Point> {
    let mut terms = Terms::default();
    let mut candidates: Vec<(Point, Vec<String>, usize)> = Vec::new();
    for (page, text) in pages {
        for range in sentences(text, false) {
            let sentence = normalize(&text[range]);
            let words = sentence.split_whitespace().count();
            let letters = sentence.chars().filter(|c| c.is_alphabetic()).count();
            // Table rows and headers are mostly figures; a point is a sentence a person wrote.
            if !(MIN_WORDS..=MAX_WORDS).contains(&words) || letters * 2 < sentence.len() {
                continue;
            }
            let position = candidates.len();
            candidates.push((Point { page: *page, text: sentence.clone() }, terms.of(&sentence), position));
        }
    }
    if candidates.is_empty() {
        return Vec::new();
    }
    // How central each sentence is: the cosine of its terms to the whole document's.
    let mut total: HashMap<&str, f32> = HashMap::new();
    for (_, t, _) in &candidates {
        for term in t {
            *total.entry(term.as_str()).or_default() += 1.0;
        }
    }
    let norm_total = total.values().map(|v| v * v).sum::<f32>().sqrt().max(1e-6);
    let count = candidates.len() as f32;
    let relevance: Vec<f32> = candidates
        .iter()
        .map(|(point, t, position)| {
            let mut own: HashMap<&str, f32> = HashMap::new();
            for term in t {
                *own.entry(term.as_str()).or_default() += 1.0;
            }
            let norm_own = own.values().map(|v| v * v).sum::<f32>().sqrt().max(1e-6);
            let dot: f32 = own.iter().map(|(term, v)| v * total.get(term).copied().unwrap_or(0.0)).sum();
            let central = dot / (norm_own * norm_total);
            let figures = if point.text.chars().any(|c| c.is_ascii_digit()) { 0.1 } else { 0.0 };
            let early = 0.1 * (1.0 - *position as f32 / count);
            (central + figures + early).min(1.0)
        })
        .collect();
    let items: Vec<Item<'_>> = candidates
        .iter()
        .zip(&relevance)
        .map(|((_, t, _), r)| Item { relevance: *r, document: "document", terms: t })
        .collect();
    let diversity = Diversity { keep, per_document: keep, lambda: 0.7, duplicate: 0.6 };
    let mut chosen = select(&items, diversity);
    chosen.sort_unstable();
    chosen.into_iter().map(|i| candidates[i].0.clone()).collect()
}

/// The summary as a document to render: the title, where it came from, the key points, each
/// with a note naming its page.
pub fn summary_doc(title: &str, source: &str, points: &[Point]) -> Doc {
    let mut blocks = vec![
        Block::Heading(1, vec![Inline::Text(format!("Summary: {title}"))]),
        Block::Paragraph(vec![Inline::Text(format!(
            "Key points of \u{201c}{title}\u{201d} ({source}), chosen from its own sentences by Needl."
        ))]),
        Block::Heading(2, vec![Inline::Text("Key points".into())]),
    ];
    let mut notes = Vec::new();
    for (i, point) in points.iter().enumerate() {
        blocks.push(Block::Item(None, vec![Inline::Text(point.text.clone()), Inline::Note(i + 1)]));
        notes.push(Note { number: i + 1, text: format!("{title}, page {}.", point.page) });
    }
    Doc { title: format!("Summary: {title}"), blocks, notes }
}

struct Job {
    summary_id: String,
    attempts: i64,
}

/// Attempts before a summary that keeps interrupting its worker is given up.
const MAX_ATTEMPTS: i64 = 3;

/// Writes asked-for summaries: every node on one database leases them, one node per summary.
pub struct SummaryWorker {
    ctx: Context,
    node: String,
    lease: Duration,
}

impl SummaryWorker {
    pub fn new(ctx: Context) -> Self {
        Self {
            ctx,
            node: format!("{}-{}", std::process::id(), uuid::Uuid::new_v4().simple()),
            lease: Duration::from_secs(300),
        }
    }

    /// Writes summaries until shutdown; woken at once by a request on this node, and every
    /// three seconds for the rest.
    pub async fn run(self: Arc<Self>, mut shutdown: watch::Receiver<bool>) {
        loop {
            match self.claim(2).await {
                Ok(jobs) => {
                    for job in jobs {
                        if let Err(error) = self.write(&job).await {
                            tracing::warn!(summary = %job.summary_id, error = %format!("{error:#}"), "summary interrupted");
                        }
                    }
                }
                Err(error) => tracing::warn!(error = %format!("{error:#}"), "could not lease summaries"),
            }
            tokio::select! {
                _ = self.ctx.summary_wake.notified() => {}
                _ = tokio::time::sleep(Duration::from_secs(3)) => {}
                _ = shutdown.wait_for(|s| *s) => return,
            }
        }
    }

    async fn claim(&self, max: i64) -> anyhow::Result<Vec<Job>> {
        let now = self.ctx.clock.now();
        let leased =
            crate::sql::lease_jobs(&self.ctx.db, "summary_jobs", "summary_id", &self.node, now, self.lease, max)
                .await?;
        Ok(leased.into_iter().map(|l| Job { summary_id: l.key, attempts: l.attempts }).collect())
    }

    async fn execute(&self, id: &str, command: SummaryCommand, metadata: &EventMetadata) -> anyhow::Result<bool> {
        match self.ctx.bus.execute(&self.ctx.bus.summaries, id, command, metadata).await {
            Ok(_) => Ok(true),
            // Written or failed meanwhile (by another node whose lease ran out): nothing to do.
            Err(commands::CommandError::Domain(SummaryError::NotInProgress | SummaryError::NotRequested)) => Ok(false),
            Err(error) => Err(anyhow::anyhow!("{error}")),
        }
    }

    /// Writes one summary: the PDF stored, then the summary completed; or failed with a reason a
    /// person can act on.
    async fn write(&self, job: &Job) -> anyhow::Result<()> {
        let metadata = EventMetadata::system("summaries", uuid::Uuid::new_v4().to_string());
        let id = job.summary_id.as_str();
        if job.attempts > MAX_ATTEMPTS {
            let reason = "The summary could not be written; ask for it again".to_string();
            self.execute(id, SummaryCommand::Fail { reason }, &metadata).await?;
            return Ok(());
        }
        if !self.execute(id, SummaryCommand::Start, &metadata).await? {
            return Ok(());
        }
        #[derive(sqlx::FromRow)]
        struct Wanted {
            user_id: String,
            deeplink: String,
            title: String,
        }
        let Some(wanted): Option<Wanted> = self
            .ctx
            .db
            .fetch_optional("SELECT user_id, deeplink, title FROM summaries_view WHERE summary_id = $1", args![id])
            .await?
        else {
            return Ok(());
        };
        let card = match readable(&self.ctx, &wanted.user_id, &wanted.deeplink, None).await {
            Ok(card) => card,
            Err(_) => {
                let reason = "The document is no longer there to summarise".to_string();
                self.execute(id, SummaryCommand::Fail { reason }, &metadata).await?;
                return Ok(());
            }
        };
        let pages = self.pages(&card).await;
        let points = key_points(&pages, MAX_POINTS);
        if points.is_empty() {
            let reason = "This document has too little running text to summarise".to_string();
            self.execute(id, SummaryCommand::Fail { reason }, &metadata).await?;
            return Ok(());
        }
        let source = crate::documents::fallback_label(&card.source);
        let doc = summary_doc(&wanted.title, &source, &points);
        let bytes = tokio::task::spawn_blocking(move || export::render_pdf(&doc)).await??;
        let key = format!("summaries/{}/{}.pdf", wanted.user_id, uuid::Uuid::new_v4().simple());
        let body = futures::stream::iter([Ok::<_, std::io::Error>(bytes::Bytes::from(bytes))]);
        self.ctx.storage.write(&key, body, u64::MAX).await.map_err(|e| anyhow::anyhow!("{e}"))?;
        self.execute(id, SummaryCommand::Complete { pdf_key: key, points: points.len() as u32 }, &metadata).await?;
        Ok(())
    }

    /// The document's pages (number, text): from its layout when it has one, else its text.
    async fn pages(&self, card: &crate::documents::DocumentCard) -> Vec<(u32, String)> {
        let blobs = &self.ctx.blobs;
        if let Some(stored) = match card.internal.get("layout_blob") {
            Some(hash) => blobs.get(hash).await,
            None => None,
        } {
            if let Ok(extracted) = serde_json::from_str::<extract::Extracted>(&stored) {
                return extracted.pages.into_iter().map(|p| (p.number, p.text)).collect();
            }
        }
        let hash: Option<(String,)> = self
            .ctx
            .db
            .fetch_optional(
                "SELECT content_hash FROM documents_view WHERE deeplink = $1",
                args![card.deeplink.as_str()],
            )
            .await
            .ok()
            .flatten();
        match hash {
            Some((hash,)) => match blobs.get(&hash).await {
                Some(text) => text.split('\u{c}').enumerate().map(|(i, t)| (i as u32 + 1, t.to_string())).collect(),
                None => Vec::new(),
            },
            None => Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_points_are_central_different_sentences_in_document_order() {
        let page1 = "Orchard Fields reported revenue of $4.2 billion for the year, up 12 percent on strong orchard \
                     demand. The board raised the dividend to 40 cents a share after record orchard revenue. \
                     Revenue grew in every region, led by orchard sales in Europe.";
        let page2 = "2024 2023 4,200 3,750 12% 9%\n\nThe company expects orchard revenue growth to slow next year as \
                     prices ease. Weather in the spring damaged part of the apple crop in the north. The board \
                     raised the dividend to 40 cents a share after record orchard revenue.";
        let pages = vec![(1, page1.to_string()), (2, page2.to_string())];
        let points = key_points(&pages, 3);
        assert_eq!(points.len(), 3, "{points:?}");
        assert!(points.windows(2).all(|w| w[0].page <= w[1].page), "in document order: {points:?}");
        assert!(points.iter().all(|p| !p.text.starts_with("2024")), "a row of figures is no point: {points:?}");
        let dividends = points.iter().filter(|p| p.text.contains("dividend")).count();
        assert!(dividends <= 1, "the repeated sentence is taken once: {points:?}");
        assert!(points[0].text.contains("revenue"), "{points:?}");
        assert!(key_points(&[(1, "Too short.".into())], 3).is_empty());
    }

    #[test]
    fn the_summary_document_notes_each_points_page() {
        let points = vec![Point { page: 3, text: "Revenue grew 12 percent.".into() }];
        let doc = summary_doc("Annual report", "Needl Drive", &points);
        assert_eq!(doc.title, "Summary: Annual report");
        assert_eq!(doc.notes[0].text, "Annual report, page 3.");
        assert!(matches!(&doc.blocks[3], Block::Item(None, inlines) if inlines.last() == Some(&Inline::Note(1))));
    }
}
