//! The worker that reads connected apps into documents: every node on one database takes due
//! connections from `app_sync_jobs` by lease, so each is read by one node at a time. A mailbox's
//! new messages become `email` documents and their attachments documents of their own; a WebDAV
//! folder's new or changed files become `webdav` documents (`drive_files` notes which version of
//! each file was taken). A connection that cannot be read records why, once per reason.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use commands::args;
use commands::store::Backend;
use domain::connection::{Connection, ConnectionCommand, FolderCursor, DRIVE_APP, MAIL_APP};
use domain::document::{DocumentCommand, DocumentFields};
use domain::EventMetadata;
use ingest::mail::{parse_message, MailError, MailLimits, MailMessage, MailSession};
use ingest::webdav::{DavFolder, DavLimits};
use sha2::{Digest, Sha256};
use tokio::sync::watch;

use super::{drive_account, mail_account};
use crate::context::Context;
use crate::drive::{self, FileDocument};
use crate::ingestion::{deeplink, preview, BlobStore};
use crate::sql::stamp;

/// What one sync of one connection did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct SyncReport {
    /// Documents recorded (messages, attachments, files) that were not there before.
    pub imported: u32,
    pub skipped_large: u32,
    pub failed_attachments: u32,
    pub error: Option<String>,
}

/// Reads connected apps into documents (see the module's note).
pub struct AppSync {
    ctx: Context,
    worker: extract::WorkerCommand,
    blobs: BlobStore,
    scratch: PathBuf,
    node: String,
    lease: Duration,
    /// How long after a sync a connection is read again.
    pub interval: Duration,
    pub limits: MailLimits,
    /// Batches of [`MailLimits::max_messages`] read from one folder in one sync.
    pub max_batches: usize,
    /// Files taken from a WebDAV folder in one sync; the rest wait for the next.
    pub max_files: usize,
}

impl AppSync {
    pub fn new(ctx: Context, worker: extract::WorkerCommand, interval: Duration) -> Self {
        Self {
            blobs: ctx.blobs.clone(),
            scratch: ctx.data_dir.join("scratch"),
            ctx,
            worker,
            node: format!("{}-{}", std::process::id(), uuid::Uuid::new_v4().simple()),
            lease: Duration::from_secs(900),
            interval,
            limits: MailLimits::default(),
            max_batches: 5,
            max_files: 200,
        }
    }

    /// Syncs due connections until shutdown; woken at once by a connection or "sync now" on this
    /// node, and every five seconds for the rest.
    pub async fn run(self: Arc<Self>, mut shutdown: watch::Receiver<bool>) {
        loop {
            match self.claim(4).await {
                Ok(due) => {
                    for (id, claimed_at) in due {
                        if *shutdown.borrow() {
                            return;
                        }
                        let report = self.sync(&id).await;
                        if let Err(error) = self.release(&id, &claimed_at).await {
                            tracing::warn!(connection = %id, error = %format!("{error:#}"), "could not release a sync");
                        }
                        match report {
                            Ok(report) if report.imported > 0 || report.error.is_some() => {
                                tracing::info!(connection = %id, imported = report.imported, error = ?report.error, "connected app synced")
                            }
                            Ok(_) => {}
                            Err(error) => {
                                tracing::warn!(connection = %id, error = %format!("{error:#}"), "sync interrupted")
                            }
                        }
                    }
                }
                Err(error) => tracing::warn!(error = %format!("{error:#}"), "could not lease syncs"),
            }
            tokio::select! {
                _ = self.ctx.apps_wake.notified() => {}
                _ = tokio::time::sleep(Duration::from_secs(5)) => {}
                _ = shutdown.wait_for(|s| *s) => return,
            }
        }
    }

    /// Leases up to `max` due connections; returns each with the time it was claimed.
    async fn claim(&self, max: i64) -> anyhow::Result<Vec<(String, String)>> {
        let now = stamp(self.ctx.clock.now());
        let until = stamp(self.ctx.clock.now() + chrono::Duration::from_std(self.lease)?);
        let lock = match self.ctx.db.backend() {
            Backend::Postgres => "FOR UPDATE SKIP LOCKED",
            Backend::Sqlite => "",
        };
        let mut tx = self.ctx.db.begin().await?;
        let leased: Vec<(String,)> = tx
            .fetch_all(
                &format!(
                    "UPDATE app_sync_jobs SET lease_owner = $1, lease_until = $2 \
                     WHERE connection_id IN (SELECT connection_id FROM app_sync_jobs \
                      WHERE next_at <= $3 AND (lease_until IS NULL OR lease_until < $3) \
                      ORDER BY next_at LIMIT $4 {lock}) RETURNING connection_id"
                ),
                args![self.node.as_str(), until, now.as_str(), max],
            )
            .await?;
        tx.commit().await?;
        Ok(leased.into_iter().map(|(id,)| (id, now.clone())).collect())
    }

    /// Frees the lease and sets the next turn, unless a "sync now" came in meanwhile.
    async fn release(&self, id: &str, claimed_at: &str) -> anyhow::Result<()> {
        let next = stamp(self.ctx.clock.now() + chrono::Duration::from_std(self.interval)?);
        self.ctx
            .db
            .execute(
                "UPDATE app_sync_jobs SET lease_owner = NULL, lease_until = NULL, checked_at = $5, \
                 next_at = CASE WHEN next_at > $3 THEN next_at ELSE $2 END \
                 WHERE connection_id = $1 AND lease_owner = $4",
                args![id, next, claimed_at, self.node.as_str(), stamp(self.ctx.clock.now())],
            )
            .await?;
        Ok(())
    }

    /// Reads one connection and records what is new. A connection that cannot be read records
    /// why (once per reason); storage trouble returns an error and the connection is tried again
    /// at its next turn.
    pub async fn sync(&self, id: &str) -> anyhow::Result<SyncReport> {
        let connection: Connection = commands::unit::current(&self.ctx.db, id).await.map_err(anyhow::Error::msg)?;
        match (connection.user_id(), connection.mailbox(), connection.drive()) {
            (Some(user_id), Some(mailbox), _) => self.sync_mail(id, user_id, mailbox).await,
            (Some(user_id), None, Some(drive)) => self.sync_drive(id, user_id, drive).await,
            _ => Ok(SyncReport::default()),
        }
    }

    /// Reads every chosen folder of a mailbox since it was last read.
    async fn sync_mail(
        &self,
        id: &str,
        user_id: &str,
        mailbox: &domain::connection::Mailbox,
    ) -> anyhow::Result<SyncReport> {
        let metadata = EventMetadata::system("mail", uuid::Uuid::new_v4().to_string());
        let account = mail_account(&mailbox.server, &mailbox.password);
        let mut report = SyncReport::default();
        let mut session = match MailSession::open(&account, &self.ctx.fetch_guard, self.limits.clone()).await {
            Ok(session) => session,
            Err(error) => {
                self.failed(id, &error.to_string(), error.credentials_refused(), &metadata).await?;
                report.error = Some(error.to_string());
                return Ok(report);
            }
        };
        let mut failure: Option<MailError> = None;
        for folder in &mailbox.folders {
            let mut since = mailbox.cursors.get(folder).map(|c| (c.uid_validity, c.last_uid));
            for _ in 0..self.max_batches {
                let batch = match session.read_since(folder, since).await {
                    Ok(batch) => batch,
                    Err(error) => {
                        failure = Some(error);
                        break;
                    }
                };
                let mut imported = 0;
                for message in &batch.messages {
                    imported +=
                        self.record(user_id, folder, message.uid, &message.bytes, &metadata, &mut report).await?;
                }
                report.skipped_large += batch.too_large.len() as u32;
                let cursor = FolderCursor { uid_validity: batch.uid_validity, last_uid: batch.last_uid };
                let command = ConnectionCommand::RecordSync { folder: folder.clone(), cursor, imported };
                self.ctx
                    .bus
                    .execute(&self.ctx.bus.connections, id, command, &metadata)
                    .await
                    .map_err(|e| anyhow::anyhow!("{e}"))?;
                report.imported += imported;
                since = Some((batch.uid_validity, batch.last_uid));
                if !batch.more {
                    break;
                }
            }
            if failure.as_ref().is_some_and(|e| !matches!(e, MailError::NoSuchFolder(_))) {
                break;
            }
        }
        session.close().await;
        if let Some(error) = failure {
            self.failed(id, &error.to_string(), error.credentials_refused(), &metadata).await?;
            report.error = Some(error.to_string());
        }
        Ok(report)
    }

    /// Reads a WebDAV folder: fetches the files that are new or changed since they were last
    /// taken, at most [`AppSync::max_files`] a sync, and records each as a document.
    async fn sync_drive(
        &self,
        id: &str,
        user_id: &str,
        drive: &domain::connection::Drive,
    ) -> anyhow::Result<SyncReport> {
        let metadata = EventMetadata::system("webdav", uuid::Uuid::new_v4().to_string());
        let mut report = SyncReport::default();
        let listed = match drive_account(&drive.folder, &drive.password) {
            Ok(account) => match DavFolder::open(account, &self.ctx.fetch_guard, DavLimits::default()).await {
                Ok(folder) => folder.list().await.map(|files| (folder, files)),
                Err(error) => Err(error),
            },
            Err(error) => Err(error),
        };
        let (folder, files) = match listed {
            Ok(found) => found,
            Err(error) => {
                self.failed(id, &error.to_string(), error.credentials_refused(), &metadata).await?;
                report.error = Some(error.to_string());
                return Ok(report);
            }
        };
        #[derive(sqlx::FromRow)]
        struct Taken {
            href: String,
            version: String,
        }
        let taken: Vec<Taken> =
            self.ctx.db.fetch_all("SELECT href, version FROM drive_files WHERE connection_id = $1", args![id]).await?;
        let taken: BTreeMap<String, String> = taken.into_iter().map(|t| (t.href, t.version)).collect();
        let due = files.iter().filter(|f| taken.get(&f.href) != Some(&f.version)).take(self.max_files);
        let mut failure = None;
        for file in due {
            match folder.fetch(file).await {
                Ok(bytes) => {
                    let mime = file.content_type.clone().unwrap_or_default();
                    let ids = FileIds { attached_to: None, stable_id: Some(&file.href) };
                    match self.record_file(user_id, DRIVE_APP, &file.name, &mime, bytes, ids, &metadata).await? {
                        Some(true) => report.imported += 1,
                        Some(false) => {}
                        None => report.failed_attachments += 1,
                    }
                }
                Err(ingest::webdav::DavError::TooLarge(_)) => report.skipped_large += 1,
                Err(error) => {
                    failure = Some(error);
                    break;
                }
            }
            // Taken, or not readable as a document: either way not fetched again until it changes.
            self.ctx
                .db
                .execute(
                    "INSERT INTO drive_files (connection_id, href, version) VALUES ($1, $2, $3) \
                     ON CONFLICT (connection_id, href) DO UPDATE SET version = $3",
                    args![id, file.href.as_str(), file.version.as_str()],
                )
                .await?;
        }
        if let Some(error) = failure {
            self.failed(id, &error.to_string(), error.credentials_refused(), &metadata).await?;
            report.error = Some(error.to_string());
            return Ok(report);
        }
        let command = ConnectionCommand::RecordDriveSync { imported: report.imported };
        match self.ctx.bus.execute(&self.ctx.bus.connections, id, command, &metadata).await {
            Ok(_) | Err(commands::CommandError::Domain(_)) => {}
            Err(error) => return Err(anyhow::anyhow!("{error}")),
        }
        Ok(report)
    }

    async fn failed(&self, id: &str, reason: &str, refused: bool, metadata: &EventMetadata) -> anyhow::Result<()> {
        let command = ConnectionCommand::RecordFailure { reason: reason.to_string(), credentials_refused: refused };
        match self.ctx.bus.execute(&self.ctx.bus.connections, id, command, metadata).await {
            Ok(_) | Err(commands::CommandError::Domain(_)) => Ok(()),
            Err(error) => Err(anyhow::anyhow!("{error}")),
        }
    }

    /// Records one message and its attachments; returns how many documents were new.
    async fn record(
        &self,
        user_id: &str,
        folder: &str,
        uid: u32,
        bytes: &[u8],
        metadata: &EventMetadata,
        report: &mut SyncReport,
    ) -> anyhow::Result<u32> {
        let Some(message) = parse_message(bytes) else {
            tracing::info!(%folder, uid, "a message could not be parsed; skipped");
            return Ok(0);
        };
        // The message id is the same in every folder and after a server renumbers its folders:
        // one message, one document. A message without one is known by its bytes.
        let guid =
            message.message_id.clone().unwrap_or_else(|| format!("sha256:{}", hex::encode(Sha256::digest(bytes))));
        let text = message_text(&message);
        let content_hash = hex::encode(Sha256::digest(text.as_bytes()));
        self.blobs.put(&content_hash, &text).await?;
        let mut tags = BTreeMap::new();
        tags.insert("mime_type".to_string(), "message/rfc822".to_string());
        tags.insert("folder".to_string(), folder.to_string());
        tags.insert("attachments".to_string(), message.attachments.len().to_string());
        if let Some(from) = &message.from {
            tags.insert("sender".to_string(), from.clone());
        }
        if !message.to.is_empty() {
            tags.insert("recipients".to_string(), message.to.join(", "));
        }
        let fields = DocumentFields {
            source_id: MAIL_APP.to_string(),
            guid: guid.clone(),
            link: None,
            title: message.subject.clone().unwrap_or_else(|| "(no subject)".to_string()),
            author: message.from.clone(),
            published_at: message.date,
            summary: Some(preview(&message.text, 60)).filter(|s| !s.is_empty()),
            content_hash,
            owner: Some(user_id.to_string()),
            metadata: tags,
        };
        let document = deeplink(&format!("{MAIL_APP}/{user_id}"), &guid);
        let before = commands::feed::last_of_aggregate(&self.ctx.db, "document", &document).await?;
        let after = self
            .ctx
            .bus
            .execute(&self.ctx.bus.documents, &document, DocumentCommand::Ingest(fields), metadata)
            .await
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        let mut new = u32::from(before != after);
        for attachment in &message.attachments {
            let (name, mime, bytes) = (&attachment.name, &attachment.mime, attachment.bytes.clone());
            let ids = FileIds { attached_to: Some(&document), stable_id: None };
            match self.record_file(user_id, MAIL_APP, name, mime, bytes, ids, metadata).await? {
                Some(true) => new += 1,
                Some(false) => {}
                None => report.failed_attachments += 1,
            }
        }
        Ok(new)
    }

    /// Extracts one file (an attachment, a drive's file) into a document of `source`; `None`
    /// when it cannot be read (an image, an archive, a broken file).
    async fn record_file(
        &self,
        user_id: &str,
        source: &str,
        name: &str,
        mime: &str,
        bytes: Vec<u8>,
        ids: FileIds<'_>,
        metadata: &EventMetadata,
    ) -> anyhow::Result<Option<bool>> {
        let extracted = match drive::extract_bytes(&self.worker, &self.scratch, name, Some(mime), bytes).await? {
            Ok(extracted) => extracted,
            Err(error @ extract::ExtractError::Worker(_)) => return Err(error.into()),
            Err(error) => {
                tracing::info!(file = %name, %error, "file not extracted");
                return Ok(None);
            }
        };
        let file = FileDocument {
            user_id,
            source,
            file_name: name,
            extracted: &extracted,
            original: None,
            attached_to: ids.attached_to,
            stable_id: ids.stable_id,
        };
        Ok(Some(drive::record(&self.ctx.bus, &self.blobs, file, metadata).await?.new))
    }
}

/// What ties a file to its source: the message it came with, or its own path in a drive (so a
/// changed file updates its document).
struct FileIds<'a> {
    attached_to: Option<&'a str>,
    stable_id: Option<&'a str>,
}

/// A message's text as it is searched and read: who wrote to whom, then the body and the names
/// of its attachments.
fn message_text(message: &MailMessage) -> String {
    let mut text = String::new();
    if let Some(subject) = &message.subject {
        text.push_str(subject);
        text.push_str("\n\n");
    }
    if let Some(from) = &message.from {
        text.push_str(&format!("From: {from}\n"));
    }
    if !message.to.is_empty() {
        text.push_str(&format!("To: {}\n", message.to.join(", ")));
    }
    if let Some(date) = message.date {
        text.push_str(&format!("Date: {}\n", date.format("%-d %B %Y, %H:%M UTC")));
    }
    text.push('\n');
    text.push_str(&message.text);
    if !message.attachments.is_empty() {
        let names: Vec<&str> = message.attachments.iter().map(|a| a.name.as_str()).collect();
        text.push_str(&format!("\n\nAttachments: {}", names.join(", ")));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_reads_as_its_people_then_its_body() {
        let message = MailMessage {
            message_id: None,
            from: Some("Bea <bea@example.com>".into()),
            to: vec!["ann@example.com".into()],
            subject: Some("Q3".into()),
            date: chrono::DateTime::from_timestamp(1_790_000_000, 0),
            text: "Revenue grew.".into(),
            attachments: vec![ingest::mail::Attachment {
                name: "q3.pdf".into(),
                mime: "application/pdf".into(),
                bytes: vec![1],
            }],
        };
        let text = message_text(&message);
        assert!(text.starts_with("Q3\n\nFrom: Bea <bea@example.com>\nTo: ann@example.com\nDate: "), "{text}");
        assert!(text.ends_with("Revenue grew.\n\nAttachments: q3.pdf"), "{text}");
    }
}
