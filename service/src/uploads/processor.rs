//! The upload processor: takes transferred files off the `upload_jobs` queue, extracts each in a
//! capped worker process, records the document and reports the upload processed or failed.
//!
//! Like source fetching, the queue is shared by every node on one database: a node leases a job
//! (`FOR UPDATE SKIP LOCKED` on Postgres), so each file is extracted once at a time. The lease is
//! short ([`LEASE`] by default) and renewed every third of it while the file is worked on, so a
//! long extraction keeps its file and a node that dies mid-file frees it within one lease; recording
//! the same file twice is no change.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use chrono::{SecondsFormat, Utc};
use commands::args;
use commands::{CommandBus, Db};
use domain::upload::{UploadCommand, UploadError};
use domain::EventMetadata;
use extract::{Input, Limits, WorkerCommand};
use tokio::sync::{watch, Notify};

use crate::drive::{self, FileDocument, StoredFile};
use crate::ingestion::BlobStore;
use crate::storage::{safe_name, Storage};

/// Files extracted at once on one node (each worker may use up to its memory cap).
pub const PARALLEL_EXTRACTIONS: usize = 2;

/// An upload link nobody reported done within this long is given up, and its bytes deleted.
pub const ABANDONED_AFTER: chrono::Duration = chrono::Duration::days(1);

/// How often abandoned uploads are looked for.
const SWEEP_EVERY: Duration = Duration::from_secs(3600);

/// Attempts before a file that keeps interrupting its node (not one that fails to parse: that
/// fails at once) is given up.
pub const MAX_ATTEMPTS: i64 = 3;
/// How soon an upload is tried again after the object store or the database did not answer.
pub const STORE_RETRY: Duration = Duration::from_secs(10);
/// How long a job's lease holds without renewal: a dead node's file waits this long for another.
pub const LEASE: Duration = Duration::from_secs(30);

#[derive(Debug, sqlx::FromRow)]
struct Job {
    upload_id: String,
    attempts: i64,
    user_id: String,
    source: String,
    name: String,
    mime_type: String,
    bucket: String,
    key: String,
    status: String,
}

pub struct UploadProcessor {
    db: Db,
    bus: Arc<CommandBus>,
    storage: Arc<Storage>,
    blobs: BlobStore,
    worker: WorkerCommand,
    scratch: PathBuf,
    wake: Arc<Notify>,
    node: String,
    lease: Duration,
}

impl UploadProcessor {
    pub fn new(
        db: Db,
        bus: Arc<CommandBus>,
        storage: Arc<Storage>,
        data_dir: &std::path::Path,
        worker: WorkerCommand,
        wake: Arc<Notify>,
    ) -> Self {
        Self {
            db,
            bus,
            blobs: storage.blobs(data_dir.join("blobs")),
            storage,
            worker,
            scratch: data_dir.join("scratch"),
            wake,
            node: format!("{}-{}", std::process::id(), uuid::Uuid::new_v4().simple()),
            lease: LEASE,
        }
    }

    /// A processor whose leases last `lease` without renewal (renewed every third of it).
    pub fn with_lease(mut self, lease: Duration) -> Self {
        self.lease = lease;
        self
    }

    /// Processes queued files until shutdown; woken at once when a transfer completes here, and
    /// every two seconds for work queued by other nodes.
    pub async fn run(self: Arc<Self>, mut shutdown: watch::Receiver<bool>) {
        let slots = Arc::new(tokio::sync::Semaphore::new(PARALLEL_EXTRACTIONS));
        let mut last_sweep = tokio::time::Instant::now() - SWEEP_EVERY;
        loop {
            if last_sweep.elapsed() >= SWEEP_EVERY {
                last_sweep = tokio::time::Instant::now();
                if let Err(error) = self.sweep_abandoned(chrono::Utc::now() - ABANDONED_AFTER).await {
                    tracing::warn!(error = %format!("{error:#}"), "could not sweep abandoned uploads");
                }
            }
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
                                this.wake.notify_one();
                            });
                        }
                    }
                    Err(error) => {
                        tracing::warn!(error = %format!("{error:#}"), "could not lease upload jobs")
                    }
                }
            }
            tokio::select! {
                _ = self.wake.notified() => {}
                _ = tokio::time::sleep(Duration::from_secs(2)) => {}
                _ = shutdown.wait_for(|s| *s) => return,
            }
        }
    }

    /// Fails uploads still UPLOADING since before `cutoff` and deletes whatever bytes they sent,
    /// so an abandoned transfer neither holds storage nor stays "uploading" for ever. Returns how
    /// many it gave up.
    pub async fn sweep_abandoned(&self, cutoff: chrono::DateTime<Utc>) -> anyhow::Result<usize> {
        #[derive(sqlx::FromRow)]
        struct Abandoned {
            upload_id: String,
            key: String,
        }
        let stale: Vec<Abandoned> = self
            .db
            .fetch_all(
                "SELECT upload_id, key FROM uploads_view WHERE status = 'UPLOADING' AND updated_at < $1 LIMIT 500",
                args![cutoff.to_rfc3339_opts(SecondsFormat::Secs, true)],
            )
            .await?;
        let metadata = EventMetadata::system("uploads", uuid::Uuid::new_v4().to_string());
        let mut given_up = 0;
        for upload in stale {
            let fail = UploadCommand::Fail { reason: "The upload was never completed; upload the file again".into() };
            match self.bus.execute(&self.bus.uploads, &upload.upload_id, fail, &metadata).await {
                Ok(_) => given_up += 1,
                Err(commands::CommandError::Domain(_)) => continue,
                Err(error) => return Err(anyhow::anyhow!("{error}")),
            }
            self.storage.delete(&upload.key).await?;
        }
        Ok(given_up)
    }

    async fn claim(&self, max: i64) -> anyhow::Result<Vec<Job>> {
        let leased =
            crate::sql::lease_jobs(&self.db, "upload_jobs", "upload_id", &self.node, Utc::now(), self.lease, max)
                .await?;
        let mut jobs = Vec::new();
        for l in leased {
            let job: Option<Job> = self
                .db
                .fetch_optional(
                    "SELECT j.upload_id, j.attempts, u.user_id, u.source, u.name, u.mime_type, u.bucket, u.key, u.status \
                     FROM upload_jobs j JOIN uploads_view u ON u.upload_id = j.upload_id WHERE j.upload_id = $1",
                    args![l.key],
                )
                .await?;
            jobs.extend(job);
        }
        Ok(jobs)
    }

    async fn process(&self, job: Job) {
        let metadata = EventMetadata::system("uploads", uuid::Uuid::new_v4().to_string());
        let command = if job.status != "PROCESSING" {
            // Removed (or already done) while queued: the projection drops the job itself.
            return;
        } else if job.attempts > MAX_ATTEMPTS {
            UploadCommand::Fail { reason: format!("File {} could not be processed; upload it again", job.name) }
        } else {
            match self.holding_lease(&job.upload_id, self.extract_and_record(&job, &metadata)).await {
                Ok(command) => command,
                Err(Interrupted::Store(error)) if outage(&error) => {
                    // The object store or the database did not answer: not the file's fault, so
                    // the attempt is given back and the job is tried again soon, however long
                    // the outage lasts.
                    tracing::warn!(upload = %job.upload_id, error = %format!("{error:#}"), "upload waits for storage");
                    if let Err(error) = self.retry_soon(&job.upload_id).await {
                        tracing::warn!(upload = %job.upload_id, %error, "upload left for its lease to run out");
                    }
                    return;
                }
                Err(Interrupted::Store(error) | Interrupted::Worker(error)) => {
                    // Anything else (the file gone from storage, the worker broken, a refused
                    // record): retried when the lease runs out, and reported after MAX_ATTEMPTS.
                    tracing::warn!(upload = %job.upload_id, error = %format!("{error:#}"), "upload processing interrupted");
                    return;
                }
            }
        };
        match self.bus.execute(&self.bus.uploads, &job.upload_id, command, &metadata).await {
            Ok(_) | Err(commands::CommandError::Domain(UploadError::NotProcessing)) => {}
            Err(error) => {
                tracing::warn!(upload = %job.upload_id, %error, "could not record an upload's outcome")
            }
        }
    }

    /// Runs `work`, renewing the job's lease every third of it meanwhile: a file that takes long
    /// stays this node's, and a node that dies stops renewing and frees it within one lease.
    async fn holding_lease<T>(&self, upload_id: &str, work: impl std::future::Future<Output = T>) -> T {
        tokio::pin!(work);
        let mut renew = tokio::time::interval(self.lease / 3);
        renew.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        renew.tick().await;
        loop {
            tokio::select! {
                outcome = &mut work => return outcome,
                _ = renew.tick() => {
                    if let Err(error) = self.renew(upload_id).await {
                        tracing::warn!(upload = %upload_id, error = %format!("{error:#}"), "could not renew an upload's lease");
                    }
                }
            }
        }
    }

    /// Extends this node's lease on the job by a whole lease from now.
    async fn renew(&self, upload_id: &str) -> anyhow::Result<()> {
        let held = crate::sql::renew_lease(
            &self.db,
            "upload_jobs",
            "upload_id",
            upload_id,
            &self.node,
            Utc::now(),
            self.lease,
        )
        .await?;
        if !held {
            // Another node took the job after this one failed to renew in time; whichever
            // records first wins, and the other's record is no change.
            tracing::warn!(upload = %upload_id, "an upload's lease was taken by another node");
        }
        Ok(())
    }

    /// Gives the job's attempt back and lets it be leased again after [`STORE_RETRY`].
    async fn retry_soon(&self, upload_id: &str) -> anyhow::Result<()> {
        let at = crate::sql::stamp(Utc::now() + chrono::Duration::from_std(STORE_RETRY)?);
        self.db
            .execute(
                "UPDATE upload_jobs SET lease_until = $1, attempts = attempts - 1 \
                 WHERE upload_id = $2 AND lease_owner = $3 AND attempts > 0",
                args![at, upload_id, self.node.as_str()],
            )
            .await?;
        Ok(())
    }

    /// Extracts the file; returns what to record of it: processed, or failed with the reason a
    /// person can act on.
    async fn extract_and_record(&self, job: &Job, metadata: &EventMetadata) -> Result<UploadCommand, Interrupted> {
        commands::private::create_dir_async(&self.scratch).await.map_err(|e| Interrupted::Store(e.into()))?;
        let local = self.scratch.join(format!("{}-{}", uuid::Uuid::new_v4().simple(), safe_name(&job.name)));
        if let Err(error) = self.storage.download(&job.key, &local).await {
            let _ = tokio::fs::remove_file(&local).await;
            return Err(Interrupted::Store(error));
        }
        let input = Input {
            path: local.clone(),
            file_name: Some(job.name.clone()),
            declared_mime: Some(job.mime_type.clone()).filter(|m| !m.is_empty()),
        };
        let extracted = extract::extract_isolated(&self.worker, &input, &Limits::default()).await;
        let _ = tokio::fs::remove_file(&local).await;
        let extracted = match extracted {
            Ok(extracted) => extracted,
            // The worker itself is broken: not the file's fault, so retried (and reported after
            // MAX_ATTEMPTS) rather than blamed on the file at once.
            Err(error @ extract::ExtractError::Worker(_)) => return Err(Interrupted::Worker(error.into())),
            Err(error) => {
                tracing::info!(upload = %job.upload_id, %error, "upload could not be extracted");
                return Ok(UploadCommand::Fail { reason: format!("File {}: {error}", job.name) });
            }
        };
        let recorded = drive::record(
            &self.bus,
            &self.blobs,
            FileDocument {
                user_id: &job.user_id,
                source: &job.source,
                file_name: &job.name,
                extracted: &extracted,
                original: Some(StoredFile { bucket: &job.bucket, key: &job.key }),
                attached_to: None,
                stable_id: None,
            },
            metadata,
        )
        .await
        .map_err(Interrupted::Store)?;
        Ok(UploadCommand::Finish { deeplink: recorded.deeplink, pages: recorded.pages })
    }
}

/// Whether `error` says a store did not answer (and may answer later): an object store failing
/// other than "not found" or "not allowed", the database's pool timing out or its connection
/// failing, or a full disk. Errors that say nothing of their cause are not counted as an outage.
fn outage(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        if crate::error::is_disk_full(cause) {
            return true;
        }
        if let Some(e) = cause.downcast_ref::<object_store::Error>() {
            return !matches!(
                e,
                object_store::Error::NotFound { .. }
                    | object_store::Error::PermissionDenied { .. }
                    | object_store::Error::Unauthenticated { .. }
                    | object_store::Error::InvalidPath { .. }
            );
        }
        cause
            .downcast_ref::<sqlx::Error>()
            .is_some_and(|e| matches!(e, sqlx::Error::PoolTimedOut | sqlx::Error::PoolClosed | sqlx::Error::Io(_)))
    })
}

/// Why processing stopped before an outcome could be recorded.
enum Interrupted {
    /// The object store or the database did not answer.
    Store(anyhow::Error),
    /// The extraction worker broke (not the file: a file's failure is an outcome).
    Worker(anyhow::Error),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_store_that_does_not_answer_is_an_outage() {
        let unreachable = object_store::Error::Generic { store: "S3", source: "connection refused".into() };
        assert!(outage(&anyhow::Error::from(unreachable).context("downloading")));
        assert!(outage(&anyhow::Error::from(sqlx::Error::PoolTimedOut)));
        let gone = object_store::Error::NotFound { path: "k".into(), source: "404".into() };
        assert!(!outage(&anyhow::Error::from(gone)), "a file gone from storage will not come back");
        assert!(!outage(&anyhow::anyhow!("event store: duplicate key")), "an error that names no cause");
        let full = anyhow::Error::from(std::io::Error::from_raw_os_error(28)).context("writing the text");
        assert!(outage(&full), "a full disk is not the file's fault");
    }
}
