//! `summaries_view`: each person's document summaries and their status; `summary_jobs`: the
//! summaries waiting for a worker (a row from the request until it is written or failed).

use async_trait::async_trait;
use commands::args;
use commands::feed::StoredEvent;
use commands::store::Tx;
use cqrs_es::Aggregate;
use domain::summary::{Summary, SummaryEvent};

use crate::runner::Projection;

pub struct Summaries;

#[async_trait]
impl Projection for Summaries {
    fn name(&self) -> &'static str {
        "summaries"
    }

    fn tables(&self) -> &'static [&'static str] {
        &["summaries_view", "summary_jobs"]
    }

    fn reads(&self) -> &'static [&'static str] {
        &[Summary::TYPE]
    }

    async fn apply(&self, tx: &mut Tx, event: &StoredEvent) -> anyhow::Result<()> {
        let id = event.aggregate_id.as_str();
        let at = event.time().to_string();
        match event.decode::<SummaryEvent>()? {
            SummaryEvent::SummaryRequested { user_id, deeplink, title } => {
                tx.write(
                    "INSERT INTO summaries_view (summary_id, user_id, deeplink, title, status, requested_at, updated_at) \
                     VALUES ($1, $2, $3, $4, 'PENDING', $5, $5) ON CONFLICT (summary_id) DO UPDATE \
                     SET status = 'PENDING', title = $4, pdf_key = NULL, points = NULL, error = NULL, \
                     requested_at = $5, updated_at = $5",
                    args![id, user_id, deeplink, title, at.as_str()],
                )
                .await?;
                tx.write(
                    "INSERT INTO summary_jobs (summary_id) VALUES ($1) ON CONFLICT (summary_id) DO NOTHING",
                    args![id],
                )
                .await?;
            }
            SummaryEvent::SummaryStarted { .. } => {
                tx.write(
                    "UPDATE summaries_view SET status = 'PROCESSING', updated_at = $2 WHERE summary_id = $1",
                    args![id, at.as_str()],
                )
                .await?;
            }
            SummaryEvent::SummaryCompleted { pdf_key, points, .. } => {
                tx.write(
                    "UPDATE summaries_view SET status = 'SUCCESS', pdf_key = $2, points = $3, updated_at = $4 \
                     WHERE summary_id = $1",
                    args![id, pdf_key, i64::from(points), at.as_str()],
                )
                .await?;
                tx.write("DELETE FROM summary_jobs WHERE summary_id = $1", args![id]).await?;
            }
            SummaryEvent::SummaryFailed { reason, .. } => {
                tx.write(
                    "UPDATE summaries_view SET status = 'FAILED', error = $2, updated_at = $3 WHERE summary_id = $1",
                    args![id, reason, at.as_str()],
                )
                .await?;
                tx.write("DELETE FROM summary_jobs WHERE summary_id = $1", args![id]).await?;
            }
        }
        Ok(())
    }
}
