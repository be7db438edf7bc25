//! Connected apps below HTTP. The apps a person can bring their own documents in from, each with
//! its integration state (label, category, whether it is disabled here and why, whether it is
//! private to the person, whether its credentials still work); the two connected here, mail over
//! IMAP (checking an account and listing its folders, connecting it, choosing folders) and a
//! WebDAV drive's folder (checking it and listing its files, connecting it), each synced now or
//! disconnected; and [`AppSync`] ([`sync`]), the worker that reads them into documents.
//!
//! Apps that need a vendor's API this server cannot reach (Gmail's and Google Drive's APIs,
//! WhatsApp and Telegram) are [`VendorApp`]s behind the same [`AppProvider`] interface: offline they
//! are listed disabled, with what is missing and what works instead.
//!
//! A message becomes a document of the `email` source owned by its reader: its subject is the
//! title, its sender the author, its date the publication date, and the text the sender, the
//! recipients and the body. Each attachment, and each file of a WebDAV folder (source `webdav`),
//! is extracted like an upload (in a capped worker process) into a document of its own.

mod sync;

use commands::args;
use domain::connection::{
    connection_id, ConnectionCommand, ConnectionError, DriveFolder, MailSecurity, MailServer, DRIVE_APP, MAIL_APP,
};
use domain::plan::PricingKey;
use ingest::mail::{MailAccount, MailError, MailLimits, MailSession, Security};
use ingest::webdav::{DavAccount, DavError, DavFolder, DavLimits};
use serde::{Deserialize, Serialize};

use crate::context::Context;
use crate::error::{from_domain, Error, Result};
use crate::sql::stamp;
use crate::viewer::Viewer;

pub use sync::{AppSync, SyncReport};

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

/// A WebDAV drive's folder (Nextcloud, ownCloud, a NAS): connected here.
pub struct WebDavDrive;

impl AppProvider for WebDavDrive {
    fn key(&self) -> &'static str {
        DRIVE_APP
    }
    fn label(&self) -> &'static str {
        "WebDAV drive"
    }
    fn category(&self) -> AppCategory {
        AppCategory::Drives
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
        Box::new(WebDavDrive),
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
    /// When a node last finished reading it, whether or not anything came in.
    pub last_checked_at: Option<String>,
    /// A node is reading the mailbox now.
    pub syncing: bool,
    /// When it is read next.
    pub next_sync_at: Option<String>,
}

/// A connected WebDAV folder as its owner sees it (never the password).
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DriveConnectionView {
    pub url: String,
    pub username: String,
    /// Documents brought in so far.
    pub imported: i64,
    pub connected_at: String,
    pub last_synced_at: Option<String>,
    pub last_checked_at: Option<String>,
    pub last_error: Option<String>,
    pub syncing: bool,
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
    /// The mailbox, for `email`.
    pub mail: Option<MailConnectionView>,
    /// The folder, for `webdav`.
    pub drive: Option<DriveConnectionView>,
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

/// A WebDAV folder and its account as the form sends them.
#[derive(Debug, Clone, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct DriveAccountBody {
    /// The folder's address, e.g. `https://cloud.example.com/remote.php/dav/files/ann/Reports/`.
    pub url: String,
    pub username: String,
    pub password: String,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DriveFileView {
    pub name: String,
    pub size: u64,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DriveFileList {
    /// The folder's files (not its subfolders), by name.
    pub files: Vec<DriveFileView>,
}

#[derive(sqlx::FromRow)]
struct Row {
    url: Option<String>,
    checked_at: Option<String>,
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

async fn connection_row(ctx: &Context, user_id: &str, app: &str) -> Result<Option<Row>> {
    if app != MAIL_APP && app != DRIVE_APP {
        return Ok(None);
    }
    Ok(ctx
        .db
        .fetch_optional(
            "SELECT c.url, j.checked_at, c.host, c.port, c.security, c.username, c.folders, c.imported, \
             c.last_error, c.credentials_refused, c.connected_at, c.last_synced_at, j.lease_until, j.next_at \
             FROM app_connections_view c LEFT JOIN app_sync_jobs j ON j.connection_id = c.connection_id \
             WHERE c.connection_id = $1",
            args![connection_id(user_id, app)],
        )
        .await?)
}

fn view_of(provider: &dyn AppProvider, row: Option<Row>, now: &str) -> Result<AppView> {
    let (missing, instead) = match provider.availability() {
        Availability::Available => (None, None),
        Availability::Unavailable { missing, instead } => (Some(missing.to_string()), Some(instead.to_string())),
    };
    let token_valid = row.as_ref().map(|r| r.credentials_refused == 0);
    // Times are kept as RFC 3339 UTC with milliseconds: they compare as text.
    let syncing = |row: &Row| row.lease_until.as_deref().is_some_and(|until| until > now);
    let drive = match &row {
        Some(row) if provider.key() == DRIVE_APP => Some(DriveConnectionView {
            url: row.url.clone().unwrap_or_default(),
            username: row.username.clone(),
            imported: row.imported,
            connected_at: row.connected_at.clone(),
            last_synced_at: row.last_synced_at.clone(),
            last_checked_at: row.checked_at.clone(),
            last_error: row.last_error.clone(),
            syncing: syncing(row),
            next_sync_at: row.next_at.clone(),
        }),
        _ => None,
    };
    let mail = match row {
        Some(row) if provider.key() == MAIL_APP => Some(MailConnectionView {
            syncing: syncing(&row),
            last_checked_at: row.checked_at,
            host: row.host,
            port: u16::try_from(row.port).unwrap_or(0),
            security: security_of(&row.security),
            username: row.username,
            folders: serde_json::from_str(&row.folders).map_err(|e| Error::internal(format!("mail folders: {e}")))?,
            imported: row.imported,
            connected_at: row.connected_at,
            last_synced_at: row.last_synced_at,
            last_error: row.last_error,
            next_sync_at: row.next_at,
        }),
        _ => None,
    };
    Ok(AppView {
        key: provider.key().to_string(),
        label: provider.label().to_string(),
        category: provider.category(),
        disabled: missing.is_some(),
        flag: provider.flag().map(str::to_string),
        private: true,
        token_valid,
        connected: mail.is_some() || drive.is_some(),
        missing,
        instead,
        mail,
        drive,
    })
}

/// Every app with its state for the viewer.
pub async fn list(ctx: &Context, viewer: &Viewer) -> Result<AppList> {
    let now = stamp(ctx.clock.now());
    let mut apps = Vec::new();
    for provider in providers() {
        let row = connection_row(ctx, &viewer.user_id, provider.key()).await?;
        apps.push(view_of(provider.as_ref(), row, &now)?);
    }
    Ok(AppList { apps })
}

/// One app with its state for the viewer; not found for an app not offered.
pub async fn get(ctx: &Context, viewer: &Viewer, key: &str) -> Result<AppView> {
    let provider = providers()
        .into_iter()
        .find(|p| p.key() == key)
        .ok_or_else(|| Error::not_found(format!("there is no app called {key:?}")))?;
    let row = connection_row(ctx, &viewer.user_id, key).await?;
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
    .map_err(|e| from_domain(&e))?;
    if body.password.is_empty() {
        return Err(from_domain(&ConnectionError::CredentialsRequired));
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

/// A refusal as the person who typed the details reads it: a sentence of its own.
fn sentence(code: &str, error: &dyn std::fmt::Display) -> Error {
    let mut text = error.to_string();
    if let Some(first) = text.get_mut(0..1) {
        first.make_ascii_uppercase();
    }
    Error::invalid(code, format!("{text}."))
}

/// A mail server's refusal.
fn refusal(error: MailError) -> Error {
    let code = match &error {
        MailError::CredentialsRefused => "mail_credentials_refused",
        MailError::NoSuchFolder(_) => "mail_folder_not_found",
        MailError::Blocked { .. } | MailError::PlainRefused => "mail_server_not_allowed",
        _ => "mail_server_unreachable",
    };
    sentence(code, &error)
}

/// A WebDAV server's refusal.
fn drive_refusal(error: DavError) -> Error {
    let code = match &error {
        DavError::CredentialsRefused => "webdav_credentials_refused",
        DavError::NotAFolder(_) => "webdav_not_a_folder",
        DavError::Blocked { .. } | DavError::PlainRefused => "webdav_not_allowed",
        _ => "webdav_unreachable",
    };
    sentence(code, &error)
}

/// The client's account for a folder as it is kept.
fn drive_account(folder: &DriveFolder, password: &str) -> std::result::Result<DavAccount, DavError> {
    let url = url::Url::parse(&folder.url).map_err(|e| DavError::Protocol(e.to_string()))?;
    Ok(DavAccount { url, username: folder.username.clone(), password: password.to_string() })
}

/// Checks the form's folder and account and lists the folder's files.
async fn drive_files(ctx: &Context, body: &DriveAccountBody) -> Result<(DriveFolder, Vec<ingest::webdav::DavFile>)> {
    let folder =
        domain::connection::clean_drive(DriveFolder { url: body.url.clone(), username: body.username.clone() })
            .map_err(|e| from_domain(&e))?;
    if body.password.is_empty() {
        return Err(from_domain(&ConnectionError::CredentialsRequired));
    }
    let account = drive_account(&folder, &body.password).map_err(drive_refusal)?;
    let dav = DavFolder::open(account, &ctx.fetch_guard, DavLimits::default()).await.map_err(drive_refusal)?;
    let files = dav.list().await.map_err(drive_refusal)?;
    Ok((folder, files))
}

/// Signs in to a WebDAV folder and lists its files; records nothing.
pub async fn check_drive(ctx: &Context, viewer: &Viewer, body: DriveAccountBody) -> Result<DriveFileList> {
    crate::plans::require(ctx, viewer, &[PricingKey::ConnectApp]).await?;
    let (_, files) = drive_files(ctx, &body).await?;
    Ok(DriveFileList { files: files.into_iter().map(|f| DriveFileView { name: f.name, size: f.size }).collect() })
}

/// Connects the viewer's WebDAV folder once the server accepted the account; the first sync
/// starts at once.
pub async fn connect_drive(ctx: &Context, viewer: &Viewer, body: DriveAccountBody) -> Result<AppView> {
    crate::plans::require(ctx, viewer, &[PricingKey::ConnectApp]).await?;
    let (folder, _) = drive_files(ctx, &body).await?;
    let command = ConnectionCommand::ConnectDrive { user_id: viewer.user_id.clone(), folder, password: body.password };
    let id = connection_id(&viewer.user_id, DRIVE_APP);
    ctx.command(&ctx.bus.connections, &id, command, &viewer.metadata()).await?;
    ctx.apps_wake.notify_one();
    get(ctx, viewer, DRIVE_APP).await
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
    let folders = domain::connection::clean_folders(body.folders).map_err(|e| from_domain(&e))?;
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

/// Asks for a connected app (`email`, `webdav`) to be read now rather than at its next turn.
pub async fn sync_now(ctx: &Context, viewer: &Viewer, app: &str) -> Result<AppView> {
    let id = connection_id(&viewer.user_id, app);
    let now = stamp(ctx.clock.now());
    let changed =
        ctx.db.execute("UPDATE app_sync_jobs SET next_at = $2 WHERE connection_id = $1", args![id, now]).await?;
    if changed == 0 {
        return Err(from_domain(&ConnectionError::NotConnected));
    }
    ctx.apps_wake.notify_one();
    get(ctx, viewer, app).await
}

/// Disconnects a connected app. What it brought in stays, the viewer's as before.
pub async fn disconnect(ctx: &Context, viewer: &Viewer, app: &str) -> Result<()> {
    let id = connection_id(&viewer.user_id, app);
    ctx.command(&ctx.bus.connections, &id, ConnectionCommand::Disconnect, &viewer.metadata()).await?;
    Ok(())
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
        assert_eq!(providers().iter().filter(|p| p.availability() == Availability::Available).count(), 2);
    }
}
