//! `reports_view` and `report_sections_view`: each user's reports, where each is, and their
//! sections as planned and written; and the `report_jobs` queue of reports to generate.

use async_trait::async_trait;
use commands::args;
use commands::feed::StoredEvent;
use commands::store::Tx;
use cqrs_es::Aggregate;
use domain::report::{Report, ReportEvent, ReportFile};

use crate::runner::Projection;

pub struct Reports;

async fn set_status(tx: &mut Tx, id: &str, status: &str, time: &str) -> anyhow::Result<()> {
    tx.write("UPDATE reports_view SET status = $2, updated_at = $3 WHERE report_id = $1", args![id, status, time])
        .await?;
    Ok(())
}

async fn files_of(tx: &mut Tx, id: &str) -> anyhow::Result<Vec<ReportFile>> {
    #[derive(sqlx::FromRow)]
    struct Row {
        files: String,
    }
    let row: Option<Row> = tx.fetch_optional("SELECT files FROM reports_view WHERE report_id = $1", args![id]).await?;
    Ok(match row {
        Some(row) => serde_json::from_str(&row.files)?,
        None => vec![],
    })
}

async fn set_files(tx: &mut Tx, id: &str, files: &[ReportFile], time: &str) -> anyhow::Result<()> {
    tx.write(
        "UPDATE reports_view SET files = $2, updated_at = $3 WHERE report_id = $1",
        args![id, serde_json::to_string(files)?, time],
    )
    .await?;
    Ok(())
}

/// Takes the report off the generation queue: it ended.
async fn dequeue(tx: &mut Tx, id: &str) -> anyhow::Result<()> {
    tx.write("DELETE FROM report_jobs WHERE report_id = $1", args![id]).await?;
    Ok(())
}

#[async_trait]
impl Projection for Reports {
    fn name(&self) -> &'static str {
        "reports"
    }

    fn tables(&self) -> &'static [&'static str] {
        &["reports_view", "report_sections_view"]
    }

    fn reads(&self) -> &'static [&'static str] {
        &[Report::TYPE]
    }

    async fn apply(&self, tx: &mut Tx, event: &StoredEvent) -> anyhow::Result<()> {
        let time = event.time().to_string();
        let id = event.aggregate_id.as_str();
        match event.decode::<ReportEvent>()? {
            ReportEvent::ReportRequested { user_id, report_type, name, files, feed_id, brief } => {
                tx.write(
                    "INSERT INTO reports_view (report_id, user_id, report_type, name, files, feed_id, feed_documents, \
                     brief, status, sections, sections_done, created_at, updated_at, position) \
                     VALUES ($1, $2, $3, $4, $5, $6, '[]', $7, 'DRAFT', 0, 0, $8, $8, $9) \
                     ON CONFLICT (report_id) DO NOTHING",
                    args![
                        id,
                        user_id,
                        report_type.as_str(),
                        name,
                        serde_json::to_string(&files)?,
                        feed_id,
                        brief,
                        time,
                        event.cursor.pos
                    ],
                )
                .await?;
            }
            ReportEvent::ReportFilesAdded { files, .. } => {
                let mut all = files_of(tx, id).await?;
                for f in files {
                    if !all.iter().any(|k| k.same(&f)) {
                        all.push(f);
                    }
                }
                set_files(tx, id, &all, &time).await?;
            }
            ReportEvent::ReportFilesRemoved { deeplinks, .. } => {
                let mut all = files_of(tx, id).await?;
                all.retain(|f| !deeplinks.iter().any(|d| f.is(d)));
                set_files(tx, id, &all, &time).await?;
            }
            ReportEvent::ReportGenerationStarted { feed_documents, files, at, .. } => {
                // The uploads' documents, filled in when generation was asked for.
                if !files.is_empty() {
                    set_files(tx, id, &files, &time).await?;
                }
                let at = at.to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
                tx.write(
                    "UPDATE reports_view SET feed_documents = $2, started_at = $3 WHERE report_id = $1",
                    args![id, serde_json::to_string(&feed_documents)?, at],
                )
                .await?;
                set_status(tx, id, "QUEUED", &time).await?;
                tx.write(
                    "INSERT INTO report_jobs (report_id, attempts) VALUES ($1, 0) ON CONFLICT (report_id) DO NOTHING",
                    args![id],
                )
                .await?;
            }
            ReportEvent::ReportSectionPlanned { index, heading, query, .. } => {
                tx.write(
                    "INSERT INTO report_sections_view (report_id, idx, heading, query, status) \
                     VALUES ($1, $2, $3, $4, 'PLANNED') ON CONFLICT (report_id, idx) DO NOTHING",
                    args![id, index as i64, heading, query],
                )
                .await?;
                tx.write(
                    "UPDATE reports_view SET sections = (SELECT COUNT(*) FROM report_sections_view WHERE report_id = $1) \
                     WHERE report_id = $1",
                    args![id],
                )
                .await?;
                set_status(tx, id, "RUNNING", &time).await?;
            }
            ReportEvent::ReportSectionCompleted { index, markdown, sentences, passages, .. } => {
                tx.write(
                    "UPDATE report_sections_view SET status = 'COMPLETED', markdown = $3, sentences = $4, \
                     passages = $5, completed_at = $6 WHERE report_id = $1 AND idx = $2 AND status = 'PLANNED'",
                    args![id, index as i64, markdown, sentences.to_string(), passages.to_string(), time.as_str()],
                )
                .await?;
                tx.write(
                    "UPDATE reports_view SET sections_done = (SELECT COUNT(*) FROM report_sections_view \
                     WHERE report_id = $1 AND status = 'COMPLETED'), updated_at = $2 WHERE report_id = $1",
                    args![id, time],
                )
                .await?;
            }
            ReportEvent::ReportCompleted { title, content, raw_data, time_taken, .. } => {
                tx.write(
                    "UPDATE reports_view SET title = $2, content = $3, raw_data = $4, time_taken_ms = $5 \
                     WHERE report_id = $1",
                    args![id, title, content, raw_data.to_string(), (time_taken * 1000.0).round() as i64],
                )
                .await?;
                set_status(tx, id, "COMPLETED", &time).await?;
                dequeue(tx, id).await?;
            }
            ReportEvent::ReportFailed { reason, .. } => {
                tx.write("UPDATE reports_view SET error = $2 WHERE report_id = $1", args![id, reason]).await?;
                set_status(tx, id, "FAILED", &time).await?;
                dequeue(tx, id).await?;
            }
            ReportEvent::ReportCancelled { .. } => {
                set_status(tx, id, "CANCELLED", &time).await?;
                dequeue(tx, id).await?;
            }
            ReportEvent::ReportRated { rating, comments, .. } => {
                if let Some(rating) = rating {
                    tx.write("UPDATE reports_view SET rating = $2 WHERE report_id = $1", args![id, rating]).await?;
                }
                if let Some(comments) = comments {
                    tx.write("UPDATE reports_view SET comments = $2 WHERE report_id = $1", args![id, comments]).await?;
                }
                tx.write("UPDATE reports_view SET updated_at = $2 WHERE report_id = $1", args![id, time]).await?;
            }
        }
        Ok(())
    }
}
