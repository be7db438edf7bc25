//! `uploads_view`: every uploaded file and its status; and the queue of files to extract.

use async_trait::async_trait;
use commands::args;
use commands::feed::StoredEvent;
use commands::store::Tx;
use cqrs_es::Aggregate;
use domain::upload::{Upload, UploadEvent, UploadStatus};

use crate::runner::Projection;

pub struct Uploads;

async fn set_status(tx: &mut Tx, id: &str, status: UploadStatus, time: &str) -> anyhow::Result<()> {
    tx.write(
        "UPDATE uploads_view SET status = $2, updated_at = $3 WHERE upload_id = $1",
        args![id, status.as_str(), time],
    )
    .await?;
    Ok(())
}

async fn dequeue(tx: &mut Tx, id: &str) -> anyhow::Result<()> {
    tx.write("DELETE FROM upload_jobs WHERE upload_id = $1", args![id]).await?;
    Ok(())
}

#[async_trait]
impl Projection for Uploads {
    fn name(&self) -> &'static str {
        "uploads"
    }

    fn tables(&self) -> &'static [&'static str] {
        &["uploads_view"]
    }

    fn reads(&self) -> &'static [&'static str] {
        &[Upload::TYPE]
    }

    async fn apply(&self, tx: &mut Tx, event: &StoredEvent) -> anyhow::Result<()> {
        let time = event.time().to_string();
        let id = event.aggregate_id.as_str();
        match event.decode::<UploadEvent>()? {
            UploadEvent::UploadInitiated(t) => {
                tx.write(
                    "INSERT INTO uploads_view (upload_id, user_id, file_id, source, name, mime_type, bucket, key, \
                     size, status, error, deeplink, feed_id, created_at, updated_at) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, NULL, $9, NULL, NULL, NULL, $10, $10) \
                     ON CONFLICT (upload_id) DO UPDATE SET source = excluded.source, name = excluded.name, \
                     mime_type = excluded.mime_type, bucket = excluded.bucket, key = excluded.key, size = NULL, \
                     status = excluded.status, error = NULL, deeplink = NULL, feed_id = NULL, updated_at = excluded.updated_at",
                    args![
                        id,
                        t.user_id,
                        t.file_id,
                        t.source,
                        t.name,
                        t.mime_type,
                        t.bucket,
                        t.key,
                        UploadStatus::Uploading.as_str(),
                        time,
                    ],
                )
                .await?;
            }
            UploadEvent::UploadTransferred { size, feed_id, .. } => {
                tx.write(
                    "UPDATE uploads_view SET size = $2, feed_id = $3 WHERE upload_id = $1",
                    args![id, size as i64, feed_id],
                )
                .await?;
                set_status(tx, id, UploadStatus::Processing, &time).await?;
                tx.write(
                    "INSERT INTO upload_jobs (upload_id, attempts) VALUES ($1, 0) ON CONFLICT (upload_id) DO NOTHING",
                    args![id],
                )
                .await?;
            }
            UploadEvent::UploadProcessed { deeplink, .. } => {
                tx.write("UPDATE uploads_view SET deeplink = $2 WHERE upload_id = $1", args![id, deeplink]).await?;
                set_status(tx, id, UploadStatus::Completed, &time).await?;
                dequeue(tx, id).await?;
            }
            UploadEvent::UploadFailed { reason, .. } => {
                tx.write("UPDATE uploads_view SET error = $2 WHERE upload_id = $1", args![id, reason]).await?;
                set_status(tx, id, UploadStatus::Failed, &time).await?;
                dequeue(tx, id).await?;
            }
            UploadEvent::UploadRemoved { .. } => {
                set_status(tx, id, UploadStatus::Removed, &time).await?;
                dequeue(tx, id).await?;
            }
        }
        Ok(())
    }
}
