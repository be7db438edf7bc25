//! Connected apps below HTTP. The apps a person can bring their own documents in from, each with
//! its integration state (label, category, whether it is disabled here and why, whether it is
//! private to the person, whether its credentials still work); and mail over IMAP, the app
//! connected here: checking an account and listing its folders, connecting it, choosing folders,
//! syncing now, disconnecting; and [`MailSync`], the worker that reads connected mailboxes into
//! documents.
//!
//! Apps that need a vendor's API this server cannot reach (Gmail's and Google Drive's APIs,
//! WhatsApp and Telegram) are [`VendorApp`]s behind the same [`AppProvider`] interface: offline they
//! are listed disabled, with what is missing and what works instead.
//!
//! A message becomes a document of the `email` source owned by its reader: its subject is the
//! title, its sender the author, its date the publication date, and the text the sender, the
//! recipients and the body. Each attachment is extracted like an upload (in a capped worker
//! process) into a document of its own that names the message it came with.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use chrono::{SecondsFormat, Utc};
use commands::args;
use commands::store::Backend;
use domain::connection::{
    connection_id, Connection, ConnectionCommand, FolderCursor, MailSecurity, MailServer, MAIL_APP,
};
use domain::document::{DocumentCommand, DocumentFields};
use domain::plan::PricingKey;
use domain::EventMetadata;
use ingest::mail::{parse_message, MailAccount, MailError, MailLimits, MailMessage, MailSession, Security};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use tokio::sync::watch;

use crate::context::Context;
use crate::drive::{self, FileDocument};
use crate::error::{Error, Result};
use crate::ingestion::{deeplink, preview, BlobStore};
use crate::storage::safe_name;
use crate::viewer::Viewer;

/// What an app holds, as My Data's tabs name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum AppCategory {
    Emails,
    Chats,
    Drives,
}

/// Whether an app can be connected here, and if not, why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Availability {
    Available,
    /// What is missing, and what works instead, in a sentence each.
    Unavailable {
        missing: &'static str,
        instead: &'static str,
    },
}

/// An app people connect: one interface for the one connected here and those that need a vendor.
pub trait AppProvider: Send + Sync {
    fn key(&self) -> &'static str;
    fn label(&self) -> &'static str;
    fn category(&self) -> AppCategory;
    /// The flag the spec shows the app under, when it has one.
    fn flag(&self) -> Option<&'static str> {
        None
    }
    fn availability(&self) -> Availability;
}

/// Mail over IMAP: connected here, with any mail server that speaks IMAP.
pub struct ImapMail;

impl AppProvider for ImapMail {
    fn key(&self) -> &'static str {
        MAIL_APP
    }
    fn label(&self) -> &'static str {
        "Email (IMAP)"
    }
    fn category(&self) -> AppCategory {
        AppCategory::Emails
    }
    fn availability(&self) -> Availability {
        Availability::Available
    }
}

/// An app whose documents come through a vendor's API: listed, and disabled with the reason while
/// no provider for it is configured (none can be reached from this server).
pub struct VendorApp {
    pub key: &'static str,
    pub label: &'static str,
    pub category: AppCategory,
    pub flag: Option<&'static str>,
    pub missing: &'static str,
    pub instead: &'static str,
}

impl AppProvider for VendorApp {
    fn key(&self) -> &'static str {
        self.key
    }
    fn label(&self) -> &'static str {
        self.label
    }
    fn category(&self) -> AppCategory {
        self.category
    }
    fn flag(&self) -> Option<&'static str> {
        self.flag
    }
    fn availability(&self) -> Availability {
        Availability::Unavailable { missing: self.missing, instead: self.instead }
    }
}

/// The apps offered, in the order the apps page lists them.
pub fn providers() -> Vec<Box<dyn AppProvider>> {
    vec![
        Box::new(ImapMail),
        Box::new(VendorApp {
            key: "gmail",
            label: "Gmail",
            category: AppCategory::Emails,
            flag: None,
            missing: "Gmail's API needs OAuth credentials from Google, which this server does not have.",
            instead: "Connect Gmail as Email (IMAP): server imap.gmail.com, port 993, TLS, with an app password from your Google account.",
        }),
        Box::new(VendorApp {
            key: "outlook",
            label: "Outlook",
            category: AppCategory::Emails,
            flag: None,
            missing: "Microsoft Graph needs an application registered with Microsoft, which this server does not have.",
            instead: "Connect the mailbox as Email (IMAP) where your organisation allows it, or save messages as PDF and upload them to Needl Drive.",
        }),
        Box::new(VendorApp {
            key: "whatsapp",
            label: "WhatsApp",
            category: AppCategory::Chats,
            flag: Some("is_pulse_whatsapp_verification_enabled"),
            missing: "Reading chats needs a WhatsApp Business API provider, which this server does not have.",
            instead: "Export a chat (without media) and upload the .txt file to Needl Drive. Your number can still be verified for Needl Pulse.",
        }),
        Box::new(VendorApp {
            key: "telegram",
            label: "Telegram",
            category: AppCategory::Chats,
            flag: None,
            missing: "Reading chats needs Telegram API credentials (an api_id and api_hash), which this server does not have.",
            instead: "Export the chat from Telegram Desktop as HTML and upload messages.html to Needl Drive.",
        }),
        Box::new(VendorApp {
            key: "googledrive",
            label: "Google Drive",
            category: AppCategory::Drives,
            flag: None,
            missing: "Google Drive's API needs OAuth credentials from Google, which this server does not have.",
            instead: "Download the files (Google Docs as Word or PDF) and upload them to Needl Drive.",
        }),
    ]
}

/// A time as the sync queue keeps it (RFC 3339 UTC with milliseconds, so times compare as text).
fn stamp(t: chrono::DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Millis, true)
}

/// A connected mailbox as its owner sees it (never the password).
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MailConnectionView {
    pub host: String,
    pub port: u16,
    /// `tls`, `start_tls` or `plain`.
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub security: MailSecurity,
    pub username: String,
    pub folders: Vec<String>,
    /// Documents brought in so far (messages and attachments).
    pub imported: i64,
    pub connected_at: String,
    pub last_synced_at: Option<String>,
    /// Why the last sync failed; `None` when it worked.
    pub last_error: Option<String>,
    /// A node is reading the mailbox now.
    pub syncing: bool,
    /// When it is read next.
    pub next_sync_at: Option<String>,
}

/// One app and its integration state.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct AppView {
    pub key: String,
    pub label: String,
    pub category: AppCategory,
    /// True when the app cannot be connected here.
    pub disabled: bool,
    pub flag: Option<String>,
    /// Its documents are the person's own: nobody else sees them.
    pub private: bool,
    /// Whether the stored credentials still work; `None` when not connected.
    pub token_valid: Option<bool>,
    pub connected: bool,
    /// What is missing for a disabled app.
    pub missing: Option<String>,
    /// What works instead, for a disabled app.
    pub instead: Option<String>,
    pub mail: Option<MailConnectionView>,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AppList {
    pub apps: Vec<AppView>,
}

/// A mail account as the form sends it.
#[derive(Debug, Clone, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct MailAccountBody {
    pub host: String,
    /// Unset: the usual port of the security chosen (993 for TLS, 143 otherwise).
    pub port: Option<u16>,
    /// `tls` (TLS from the start, usually port 993), `start_tls` (usually 143) or `plain` (only
    /// towards networks the operator allowed).
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub security: MailSecurity,
    pub username: String,
    pub password: String,
}

/// A mail account and the folders to read.
#[derive(Debug, Clone, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct ConnectMailBody {
    pub account: MailAccountBody,
    pub folders: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct FoldersBody {
    pub folders: Vec<String>,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FolderList {
    /// The folders that hold messages, INBOX first.
    pub folders: Vec<String>,
}

#[derive(sqlx::FromRow)]
struct Row {
    host: String,
    port: i64,
    security: String,
    username: String,
    folders: String,
    imported: i64,
    last_error: Option<String>,
    credentials_refused: i64,
    connected_at: String,
    last_synced_at: Option<String>,
    lease_until: Option<String>,
    next_at: Option<String>,
}

fn security_of(stored: &str) -> MailSecurity {
    match stored {
        "start_tls" => MailSecurity::StartTls,
        "plain" => MailSecurity::Plain,
        _ => MailSecurity::Tls,
    }
}

async fn mail_row(ctx: &Context, user_id: &str) -> Result<Option<Row>> {
    Ok(ctx
        .db
        .fetch_optional(
            "SELECT c.host, c.port, c.security, c.username, c.folders, c.imported, c.last_error, \
             c.credentials_refused, c.connected_at, c.last_synced_at, j.lease_until, j.next_at \
             FROM app_connections_view c LEFT JOIN app_sync_jobs j ON j.connection_id = c.connection_id \
             WHERE c.connection_id = $1",
            args![connection_id(user_id, MAIL_APP)],
        )
        .await?)
}

fn view_of(provider: &dyn AppProvider, row: Option<Row>, now: &str) -> Result<AppView> {
    let (missing, instead) = match provider.availability() {
        Availability::Available => (None, None),
        Availability::Unavailable { missing, instead } => (Some(missing.to_string()), Some(instead.to_string())),
    };
    let token_valid = row.as_ref().map(|r| r.credentials_refused == 0);
    let mail = match row {
        Some(row) => Some(MailConnectionView {
            host: row.host,
            port: u16::try_from(row.port).unwrap_or(0),
            security: security_of(&row.security),
            username: row.username,
            folders: serde_json::from_str(&row.folders).map_err(|e| Error::internal(format!("mail folders: {e}")))?,
            imported: row.imported,
            connected_at: row.connected_at,
            last_synced_at: row.last_synced_at,
            last_error: row.last_error,
            // Times are kept as RFC 3339 UTC with milliseconds: they compare as text.
            syncing: row.lease_until.as_deref().is_some_and(|until| until > now),
            next_sync_at: row.next_at,
        }),
        None => None,
    };
    Ok(AppView {
        key: provider.key().to_string(),
        label: provider.label().to_string(),
        category: provider.category(),
        disabled: missing.is_some(),
        flag: provider.flag().map(str::to_string),
        private: true,
        token_valid,
        connected: mail.is_some(),
        missing,
        instead,
        mail,
    })
}

/// Every app with its state for the viewer.
pub async fn list(ctx: &Context, viewer: &Viewer) -> Result<AppList> {
    let mut row = mail_row(ctx, &viewer.user_id).await?;
    let now = stamp(ctx.clock.now());
    let mut apps = Vec::new();
    for provider in providers() {
        let own = if provider.key() == MAIL_APP { row.take() } else { None };
        apps.push(view_of(provider.as_ref(), own, &now)?);
    }
    Ok(AppList { apps })
}

/// One app with its state for the viewer; not found for an app not offered.
pub async fn get(ctx: &Context, viewer: &Viewer, key: &str) -> Result<AppView> {
    let provider = providers()
        .into_iter()
        .find(|p| p.key() == key)
        .ok_or_else(|| Error::not_found(format!("there is no app called {key:?}")))?;
    let row = if key == MAIL_APP { mail_row(ctx, &viewer.user_id).await? } else { None };
    view_of(provider.as_ref(), row, &stamp(ctx.clock.now()))
}

fn account_of(body: &MailAccountBody) -> Result<MailAccount> {
    let port = body.port.unwrap_or_else(|| body.security.default_port());
    let server = domain::connection::clean_server(MailServer {
        host: body.host.clone(),
        port,
        security: body.security,
        username: body.username.clone(),
    })
    .map_err(|e| crate::error::from_domain(&e))?;
    if body.password.is_empty() {
        return Err(crate::error::from_domain(&domain::connection::ConnectionError::CredentialsRequired));
    }
    Ok(mail_account(&server, &body.password))
}

fn mail_account(server: &MailServer, password: &str) -> MailAccount {
    MailAccount {
        host: server.host.clone(),
        port: server.port,
        security: match server.security {
            MailSecurity::Tls => Security::Tls,
            MailSecurity::StartTls => Security::StartTls,
            MailSecurity::Plain => Security::Plain,
        },
        username: server.username.clone(),
        password: password.to_string(),
    }
}

/// A mail server's refusal as the person who typed the details reads it.
fn refusal(error: MailError) -> Error {
    let code = match &error {
        MailError::CredentialsRefused => "mail_credentials_refused",
        MailError::NoSuchFolder(_) => "mail_folder_not_found",
        MailError::Blocked { .. } | MailError::PlainRefused => "mail_server_not_allowed",
        _ => "mail_server_unreachable",
    };
    let mut text = error.to_string();
    if let Some(first) = text.get_mut(0..1) {
        first.make_ascii_uppercase();
    }
    Error::invalid(code, format!("{text}."))
}

/// Signs in with the account the form gives and lists its folders; records nothing.
pub async fn mail_folders(ctx: &Context, viewer: &Viewer, body: MailAccountBody) -> Result<FolderList> {
    crate::plans::require(ctx, viewer, &[PricingKey::ConnectApp]).await?;
    let account = account_of(&body)?;
    let mut session = MailSession::open(&account, &ctx.fetch_guard, MailLimits::default()).await.map_err(refusal)?;
    let folders = session.folders().await.map_err(refusal);
    session.close().await;
    Ok(FolderList { folders: folders? })
}

/// Connects the viewer's mailbox: signs in first (a refused password records nothing), checks
/// each folder exists, then records the connection; the first sync starts at once.
pub async fn connect_mail(ctx: &Context, viewer: &Viewer, body: ConnectMailBody) -> Result<AppView> {
    crate::plans::require(ctx, viewer, &[PricingKey::ConnectApp]).await?;
    let account = account_of(&body.account)?;
    let folders = domain::connection::clean_folders(body.folders).map_err(|e| crate::error::from_domain(&e))?;
    let mut session = MailSession::open(&account, &ctx.fetch_guard, MailLimits::default()).await.map_err(refusal)?;
    let offered = session.folders().await.map_err(refusal);
    session.close().await;
    let offered = offered?;
    if let Some(missing) = folders.iter().find(|f| !offered.contains(f)) {
        return Err(refusal(MailError::NoSuchFolder(missing.clone())));
    }
    let command = ConnectionCommand::ConnectMail {
        user_id: viewer.user_id.clone(),
        server: MailServer {
            host: account.host.clone(),
            port: account.port,
            security: body.account.security,
            username: account.username.clone(),
        },
        password: body.account.password,
        folders,
    };
    let id = connection_id(&viewer.user_id, MAIL_APP);
    ctx.command(&ctx.bus.connections, &id, command, &viewer.metadata()).await?;
    ctx.apps_wake.notify_one();
    get(ctx, viewer, MAIL_APP).await
}

/// Reads these folders of the connected mailbox from now on.
pub async fn choose_folders(ctx: &Context, viewer: &Viewer, body: FoldersBody) -> Result<AppView> {
    let id = connection_id(&viewer.user_id, MAIL_APP);
    let command = ConnectionCommand::ChooseFolders { folders: body.folders };
    ctx.command(&ctx.bus.connections, &id, command, &viewer.metadata()).await?;
    ctx.apps_wake.notify_one();
    get(ctx, viewer, MAIL_APP).await
}

/// Asks for the connected mailbox to be read now rather than at its next turn.
pub async fn sync_now(ctx: &Context, viewer: &Viewer) -> Result<AppView> {
    let id = connection_id(&viewer.user_id, MAIL_APP);
    let now = stamp(ctx.clock.now());
    let changed =
        ctx.db.execute("UPDATE app_sync_jobs SET next_at = $2 WHERE connection_id = $1", args![id, now]).await?;
    if changed == 0 {
        return Err(crate::error::from_domain(&domain::connection::ConnectionError::NotConnected));
    }
    ctx.apps_wake.notify_one();
    get(ctx, viewer, MAIL_APP).await
}

/// Disconnects the mailbox. What it brought in stays, the viewer's as before.
pub async fn disconnect(ctx: &Context, viewer: &Viewer) -> Result<()> {
    let id = connection_id(&viewer.user_id, MAIL_APP);
    ctx.command(&ctx.bus.connections, &id, ConnectionCommand::Disconnect, &viewer.metadata()).await?;
    Ok(())
}

/// What one sync of one connection did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct SyncReport {
    /// Documents recorded (messages and attachments) that were not there before.
    pub imported: u32,
    pub skipped_large: u32,
    pub failed_attachments: u32,
    pub error: Option<String>,
}

/// Reads connected mailboxes into documents: every node on one database takes due connections
/// by lease, so each mailbox is read by one node at a time.
pub struct MailSync {
    ctx: Context,
    worker: extract::WorkerCommand,
    blobs: BlobStore,
    scratch: PathBuf,
    node: String,
    lease: Duration,
    /// How long after a sync a mailbox is read again.
    pub interval: Duration,
    pub limits: MailLimits,
    /// Batches of [`MailLimits::max_messages`] read from one folder in one sync.
    pub max_batches: usize,
}

impl MailSync {
    pub fn new(ctx: Context, worker: extract::WorkerCommand, interval: Duration) -> Self {
        Self {
            blobs: BlobStore::new(ctx.data_dir.join("blobs")),
            scratch: ctx.data_dir.join("scratch"),
            ctx,
            worker,
            node: format!("{}-{}", std::process::id(), uuid::Uuid::new_v4().simple()),
            lease: Duration::from_secs(900),
            interval,
            limits: MailLimits::default(),
            max_batches: 5,
        }
    }

    /// Syncs due mailboxes until shutdown; woken at once by a connection or "sync now" on this
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
                            tracing::warn!(connection = %id, error = %format!("{error:#}"), "could not release a mail sync");
                        }
                        match report {
                            Ok(report) if report.imported > 0 || report.error.is_some() => {
                                tracing::info!(connection = %id, imported = report.imported, error = ?report.error, "mailbox synced")
                            }
                            Ok(_) => {}
                            Err(error) => {
                                tracing::warn!(connection = %id, error = %format!("{error:#}"), "mail sync interrupted")
                            }
                        }
                    }
                }
                Err(error) => tracing::warn!(error = %format!("{error:#}"), "could not lease mail syncs"),
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
                "UPDATE app_sync_jobs SET lease_owner = NULL, lease_until = NULL, \
                 next_at = CASE WHEN next_at > $3 THEN next_at ELSE $2 END \
                 WHERE connection_id = $1 AND lease_owner = $4",
                args![id, next, claimed_at, self.node.as_str()],
            )
            .await?;
        Ok(())
    }

    /// Reads every chosen folder of one connection and records what is new. A mailbox that
    /// cannot be read records why (once per reason); storage trouble returns an error and the
    /// connection is tried again at its next turn.
    pub async fn sync(&self, id: &str) -> anyhow::Result<SyncReport> {
        let connection: Connection = commands::unit::current(&self.ctx.db, id).await.map_err(anyhow::Error::msg)?;
        let (Some(user_id), Some(mailbox)) = (connection.user_id(), connection.mailbox()) else {
            return Ok(SyncReport::default());
        };
        let metadata = EventMetadata::system("mail", uuid::Uuid::new_v4().to_string());
        let account = mail_account(&mailbox.server, &mailbox.password);
        let mut report = SyncReport::default();
        let mut session = match MailSession::open(&account, &self.ctx.fetch_guard, self.limits.clone()).await {
            Ok(session) => session,
            Err(error) => {
                self.failed(id, &error, &metadata).await?;
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
            self.failed(id, &error, &metadata).await?;
            report.error = Some(error.to_string());
        }
        Ok(report)
    }

    async fn failed(&self, id: &str, error: &MailError, metadata: &EventMetadata) -> anyhow::Result<()> {
        let command = ConnectionCommand::RecordFailure {
            reason: error.to_string(),
            credentials_refused: error.credentials_refused(),
        };
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
            match self.record_attachment(user_id, &document, attachment, metadata).await? {
                Some(true) => new += 1,
                Some(false) => {}
                None => report.failed_attachments += 1,
            }
        }
        Ok(new)
    }

    /// Extracts one attachment into a document; `None` when it cannot be read (an image, an
    /// archive, a broken file), which the message's document still names.
    async fn record_attachment(
        &self,
        user_id: &str,
        message: &str,
        attachment: &ingest::mail::Attachment,
        metadata: &EventMetadata,
    ) -> anyhow::Result<Option<bool>> {
        commands::private::create_dir_async(&self.scratch).await?;
        let local = self.scratch.join(format!("{}-{}", uuid::Uuid::new_v4().simple(), safe_name(&attachment.name)));
        let (path, bytes) = (local.clone(), attachment.bytes.clone());
        tokio::task::spawn_blocking(move || commands::private::write_file(&path, &bytes)).await??;
        let input = extract::Input {
            path: local.clone(),
            file_name: Some(attachment.name.clone()),
            declared_mime: Some(attachment.mime.clone()),
        };
        let extracted = extract::extract_isolated(&self.worker, &input, &extract::Limits::default()).await;
        let _ = tokio::fs::remove_file(&local).await;
        let extracted = match extracted {
            Ok(extracted) => extracted,
            Err(error @ extract::ExtractError::Worker(_)) => return Err(error.into()),
            Err(error) => {
                tracing::info!(attachment = %attachment.name, %error, "attachment not extracted");
                return Ok(None);
            }
        };
        let file = FileDocument {
            user_id,
            source: MAIL_APP,
            file_name: &attachment.name,
            extracted: &extracted,
            original: None,
            attached_to: Some(message),
        };
        Ok(Some(drive::record(&self.ctx.bus, &self.blobs, file, metadata).await?.new))
    }
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
    fn every_app_offered_has_a_key_the_catalogue_calls_an_app() {
        for provider in providers() {
            assert_eq!(ingest::EntryKind::of_key(provider.key()), ingest::EntryKind::App, "{}", provider.key());
            if let Availability::Unavailable { missing, instead } = provider.availability() {
                assert!(missing.ends_with('.') && instead.ends_with('.'), "{}", provider.key());
            }
        }
        assert_eq!(providers().iter().filter(|p| p.availability() == Availability::Available).count(), 1);
    }

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
