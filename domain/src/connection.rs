//! Connected apps: one user's connection to an app that brings their own documents in. The apps
//! connected here are mail over IMAP ([`MAIL_APP`]) and a WebDAV drive's folder ([`DRIVE_APP`]);
//! the aggregate id is [`connection_id`] of the user and the app, so each person has at most one
//! connection per app.
//!
//! Connecting records the server, the account and the folders to read. The service signs in to
//! the server before it asks, so a refused password records nothing. The password and the account
//! name are personal fields: sealed under their owner's key in the stored event and opened only
//! when the connection is loaded to sign in again.
//!
//! A sync that brought mail records how far it read each folder (the folder's UIDVALIDITY and the
//! last UID taken), so no message is read twice, and a folder the server renumbered (a new
//! UIDVALIDITY) is read again from its start, its documents deduplicated by message id. A failing
//! sync is recorded when its reason changes, with whether the server refused the credentials (the
//! apps page's "token valid"); the next sync that works clears it.

use std::collections::BTreeMap;

use cqrs_es::Aggregate;
use serde::{Deserialize, Serialize};

use crate::error::{DomainError, ErrorKind};

/// The app key of mail read over IMAP.
pub const MAIL_APP: &str = "email";
/// The app key of a WebDAV drive's folder.
pub const DRIVE_APP: &str = "webdav";
/// The longest folder address, in characters.
pub const MAX_URL_CHARS: usize = 2000;
/// How many folders one connection reads.
pub const MAX_FOLDERS: usize = 20;
/// The longest folder name, in characters.
pub const MAX_FOLDER_CHARS: usize = 200;
/// The longest failure reason kept, in characters.
pub const MAX_REASON_CHARS: usize = 500;

/// Returns the aggregate id of `user_id`'s connection to `app`.
pub fn connection_id(user_id: &str, app: &str) -> String {
    format!("{user_id}/{app}")
}

/// How the connection to the mail server is protected.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum MailSecurity {
    /// TLS from the first byte (port 993).
    Tls,
    /// A plain connection upgraded with STARTTLS before signing in (port 143).
    StartTls,
    /// No encryption: only for a server on this machine or a network the operator trusts.
    Plain,
}

impl MailSecurity {
    /// The port a server of this kind listens on unless told otherwise.
    pub fn default_port(self) -> u16 {
        match self {
            MailSecurity::Tls => 993,
            MailSecurity::StartTls | MailSecurity::Plain => 143,
        }
    }
}

/// Where the mail is and whose it is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct MailServer {
    pub host: String,
    pub port: u16,
    pub security: MailSecurity,
    /// The account name the server signs in (often the address).
    pub username: String,
}

/// How far a folder has been read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct FolderCursor {
    pub uid_validity: u32,
    pub last_uid: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum ConnectionCommand {
    /// Connects (or reconnects with new details) a mailbox whose credentials the server accepted.
    ConnectMail {
        user_id: String,
        server: MailServer,
        password: String,
        folders: Vec<String>,
    },
    /// Reads these folders from now on.
    ChooseFolders {
        folders: Vec<String>,
    },
    /// A sync read `folder` up to `cursor`, bringing `imported` new documents.
    RecordSync {
        folder: String,
        cursor: FolderCursor,
        imported: u32,
    },
    /// Connects (or reconnects) a WebDAV folder whose server accepted the credentials.
    ConnectDrive {
        user_id: String,
        folder: DriveFolder,
        password: String,
    },
    /// A sync of the drive's folder brought `imported` new or changed documents.
    RecordDriveSync {
        imported: u32,
    },
    /// A sync failed; `credentials_refused` when the server said no to the account.
    RecordFailure {
        reason: String,
        credentials_refused: bool,
    },
    Disconnect,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum ConnectionEvent {
    MailConnected {
        user_id: String,
        host: String,
        port: u16,
        security: MailSecurity,
        /// Personal: sealed under the user's key.
        username: String,
        /// Personal: sealed under the user's key.
        password: String,
        folders: Vec<String>,
    },
    FoldersChosen {
        user_id: String,
        folders: Vec<String>,
    },
    MailFolderSynced {
        user_id: String,
        folder: String,
        cursor: FolderCursor,
        imported: u32,
    },
    DriveConnected {
        user_id: String,
        url: String,
        /// Personal: sealed under the user's key.
        username: String,
        /// Personal: sealed under the user's key.
        password: String,
    },
    DriveSynced {
        user_id: String,
        imported: u32,
    },
    SyncFailed {
        user_id: String,
        reason: String,
        credentials_refused: bool,
    },
    AppDisconnected {
        user_id: String,
        app: String,
    },
}

crate::impl_domain_event! {
    ConnectionEvent, versions {
        MailConnected: "1",
        FoldersChosen: "1",
        MailFolderSynced: "1",
        DriveConnected: "1",
        DriveSynced: "1",
        SyncFailed: "1",
        AppDisconnected: "1",
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConnectionError {
    #[error("give the mail server's host name")]
    HostRequired,
    #[error("{0:?} is not a host name or address")]
    InvalidHost(String),
    #[error("give the mail server's port (1 to 65535)")]
    InvalidPort,
    #[error("give the account name and password the mail server signs in")]
    CredentialsRequired,
    #[error("choose at least one folder to read")]
    FoldersRequired,
    #[error("choose at most {MAX_FOLDERS} folders")]
    TooManyFolders,
    #[error("{0:?} is not a folder name")]
    InvalidFolder(String),
    #[error("give the folder's address, starting with https:// (or http:// for a server on your network)")]
    InvalidUrl,
    #[error("this app is not connected")]
    NotConnected,
}

impl DomainError for ConnectionError {
    fn kind(&self) -> ErrorKind {
        match self {
            ConnectionError::NotConnected => ErrorKind::NotFound,
            _ => ErrorKind::Invalid,
        }
    }

    fn code(&self) -> &'static str {
        match self {
            ConnectionError::HostRequired => "mail_host_required",
            ConnectionError::InvalidHost(_) => "invalid_mail_host",
            ConnectionError::InvalidPort => "invalid_mail_port",
            ConnectionError::CredentialsRequired => "mail_credentials_required",
            ConnectionError::FoldersRequired => "mail_folders_required",
            ConnectionError::TooManyFolders => "too_many_mail_folders",
            ConnectionError::InvalidFolder(_) => "invalid_mail_folder",
            ConnectionError::InvalidUrl => "invalid_webdav_url",
            ConnectionError::NotConnected => "app_not_connected",
        }
    }
}

/// Returns the server as it is kept (host trimmed and lower-cased, account name trimmed), or why
/// it cannot be.
pub fn clean_server(server: MailServer) -> Result<MailServer, ConnectionError> {
    let host = server.host.trim().trim_end_matches('.').to_ascii_lowercase();
    if host.is_empty() {
        return Err(ConnectionError::HostRequired);
    }
    // A host name (letters, digits, hyphens, dots) or an IP address, bracketed or not; never a
    // URL, a path or anything with spaces.
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    let is_ip = bare.parse::<std::net::IpAddr>().is_ok();
    let is_name = host.len() <= 253
        && host.split('.').all(|label| {
            !label.is_empty()
                && label.len() <= 63
                && !label.starts_with('-')
                && !label.ends_with('-')
                && label.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
        });
    if !is_ip && !is_name {
        let shown: String = server.host.trim().chars().take(80).collect();
        return Err(ConnectionError::InvalidHost(shown));
    }
    if server.port == 0 {
        return Err(ConnectionError::InvalidPort);
    }
    let username = server.username.trim().to_string();
    if username.is_empty() || username.chars().count() > 320 || username.chars().any(char::is_control) {
        return Err(ConnectionError::CredentialsRequired);
    }
    Ok(MailServer { host: bare.to_string(), port: server.port, security: server.security, username })
}

/// Returns the folders as they are kept (trimmed, each once, in the order given), or why they
/// cannot be.
pub fn clean_folders(folders: Vec<String>) -> Result<Vec<String>, ConnectionError> {
    let mut kept: Vec<String> = Vec::with_capacity(folders.len());
    for folder in folders {
        let name = folder.trim().to_string();
        if name.is_empty() || name.chars().count() > MAX_FOLDER_CHARS || name.chars().any(char::is_control) {
            let shown: String = folder.chars().filter(|c| !c.is_control()).take(80).collect();
            return Err(ConnectionError::InvalidFolder(shown));
        }
        if !kept.contains(&name) {
            kept.push(name);
        }
    }
    if kept.is_empty() {
        return Err(ConnectionError::FoldersRequired);
    }
    if kept.len() > MAX_FOLDERS {
        return Err(ConnectionError::TooManyFolders);
    }
    Ok(kept)
}

/// A WebDAV folder and the account that reads it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct DriveFolder {
    /// The folder's address: `https://` (or `http://`), a host, a path ending with `/`.
    pub url: String,
    pub username: String,
}

/// Returns the folder as it is kept (trimmed, its path ending with `/`, no credentials, query or
/// fragment in the address), or why it cannot be.
pub fn clean_drive(folder: DriveFolder) -> Result<DriveFolder, ConnectionError> {
    let url = url::Url::parse(folder.url.trim()).map_err(|_| ConnectionError::InvalidUrl)?;
    let fine = matches!(url.scheme(), "https" | "http")
        && url.host_str().is_some_and(|h| !h.is_empty())
        && url.username().is_empty()
        && url.password().is_none()
        && url.query().is_none()
        && url.fragment().is_none();
    if !fine || folder.url.len() > MAX_URL_CHARS {
        return Err(ConnectionError::InvalidUrl);
    }
    let mut url = url;
    if !url.path().ends_with('/') {
        let path = format!("{}/", url.path());
        url.set_path(&path);
    }
    let username = folder.username.trim().to_string();
    if username.is_empty() || username.chars().count() > 320 || username.chars().any(char::is_control) {
        return Err(ConnectionError::CredentialsRequired);
    }
    Ok(DriveFolder { url: url.to_string(), username })
}

/// A failure reason as it is kept: one line, bounded.
fn clean_reason(reason: &str) -> String {
    let line = reason.split_whitespace().collect::<Vec<_>>().join(" ");
    line.chars().take(MAX_REASON_CHARS).collect()
}

/// The mailbox a connection reads, as loaded to sign in again.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mailbox {
    pub server: MailServer,
    pub password: String,
    pub folders: Vec<String>,
    /// How far each folder was read.
    pub cursors: BTreeMap<String, FolderCursor>,
}

/// The WebDAV folder a connection reads, as loaded to sign in again.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Drive {
    pub folder: DriveFolder,
    pub password: String,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Connection {
    user_id: Option<String>,
    mailbox: Option<Mailbox>,
    drive: Option<Drive>,
    /// The reason the last sync failed, and whether the credentials were refused; `None` when
    /// the last sync worked.
    failing: Option<(String, bool)>,
}

impl Connection {
    /// Whose connection this is, once it was ever connected.
    pub fn user_id(&self) -> Option<&str> {
        self.user_id.as_deref()
    }

    /// The connected mailbox, when the app is connected.
    pub fn mailbox(&self) -> Option<&Mailbox> {
        self.mailbox.as_ref()
    }

    /// The connected WebDAV folder, when the app is connected.
    pub fn drive(&self) -> Option<&Drive> {
        self.drive.as_ref()
    }

    pub fn decide(&self, command: ConnectionCommand) -> Result<Vec<ConnectionEvent>, ConnectionError> {
        match command {
            ConnectionCommand::ConnectMail { user_id, server, password, folders } => {
                let server = clean_server(server)?;
                if password.is_empty() || password.len() > 1024 {
                    return Err(ConnectionError::CredentialsRequired);
                }
                let folders = clean_folders(folders)?;
                Ok(vec![ConnectionEvent::MailConnected {
                    user_id,
                    host: server.host,
                    port: server.port,
                    security: server.security,
                    username: server.username,
                    password,
                    folders,
                }])
            }
            ConnectionCommand::ConnectDrive { user_id, folder, password } => {
                let folder = clean_drive(folder)?;
                if password.is_empty() || password.len() > 1024 {
                    return Err(ConnectionError::CredentialsRequired);
                }
                Ok(vec![ConnectionEvent::DriveConnected {
                    user_id,
                    url: folder.url,
                    username: folder.username,
                    password,
                }])
            }
            ConnectionCommand::RecordDriveSync { imported } => {
                let (user_id, _) = self.connected()?;
                if self.drive.is_none() {
                    return Err(ConnectionError::NotConnected);
                }
                if imported == 0 && self.failing.is_none() {
                    return Ok(vec![]);
                }
                Ok(vec![ConnectionEvent::DriveSynced { user_id, imported }])
            }
            ConnectionCommand::ChooseFolders { folders } => {
                let (user_id, mailbox) = self.connected_mailbox()?;
                let folders = clean_folders(folders)?;
                if folders == mailbox.folders {
                    return Ok(vec![]);
                }
                Ok(vec![ConnectionEvent::FoldersChosen { user_id, folders }])
            }
            ConnectionCommand::RecordSync { folder, cursor, imported } => {
                let (user_id, mailbox) = self.connected_mailbox()?;
                let moved = mailbox.cursors.get(&folder) != Some(&cursor);
                if !mailbox.folders.contains(&folder) || (!moved && imported == 0 && self.failing.is_none()) {
                    return Ok(vec![]);
                }
                Ok(vec![ConnectionEvent::MailFolderSynced { user_id, folder, cursor, imported }])
            }
            ConnectionCommand::RecordFailure { reason, credentials_refused } => {
                let (user_id, _) = self.connected()?;
                let reason = clean_reason(&reason);
                if self.failing.as_ref() == Some(&(reason.clone(), credentials_refused)) {
                    return Ok(vec![]);
                }
                Ok(vec![ConnectionEvent::SyncFailed { user_id, reason, credentials_refused }])
            }
            ConnectionCommand::Disconnect => {
                let (user_id, app) = self.connected()?;
                Ok(vec![ConnectionEvent::AppDisconnected { user_id, app: app.to_string() }])
            }
        }
    }

    /// Whose connection it is and to which app, while connected.
    fn connected(&self) -> Result<(String, &'static str), ConnectionError> {
        match (&self.user_id, &self.mailbox, &self.drive) {
            (Some(user_id), Some(_), _) => Ok((user_id.clone(), MAIL_APP)),
            (Some(user_id), None, Some(_)) => Ok((user_id.clone(), DRIVE_APP)),
            _ => Err(ConnectionError::NotConnected),
        }
    }

    fn connected_mailbox(&self) -> Result<(String, &Mailbox), ConnectionError> {
        match (&self.user_id, &self.mailbox) {
            (Some(user_id), Some(mailbox)) => Ok((user_id.clone(), mailbox)),
            _ => Err(ConnectionError::NotConnected),
        }
    }
}

impl Aggregate for Connection {
    const TYPE: &'static str = "app_connection";
    type Command = ConnectionCommand;
    type Event = ConnectionEvent;
    type Error = ConnectionError;
    type Services = ();

    crate::handle_by_deciding!();

    fn apply(&mut self, event: Self::Event) {
        match event {
            ConnectionEvent::MailConnected { user_id, host, port, security, username, password, folders } => {
                let server = MailServer { host, port, security, username };
                // The same account on the same server keeps how far it was read; another one
                // starts from the beginning.
                let cursors = match self.mailbox.take() {
                    Some(old) if old.server.host == server.host && old.server.username == server.username => {
                        old.cursors
                    }
                    _ => BTreeMap::new(),
                };
                self.user_id = Some(user_id);
                self.mailbox = Some(Mailbox { server, password, folders, cursors });
                self.failing = None;
            }
            ConnectionEvent::FoldersChosen { folders, .. } => {
                if let Some(mailbox) = &mut self.mailbox {
                    mailbox.folders = folders;
                }
            }
            ConnectionEvent::MailFolderSynced { folder, cursor, .. } => {
                if let Some(mailbox) = &mut self.mailbox {
                    mailbox.cursors.insert(folder, cursor);
                }
                self.failing = None;
            }
            ConnectionEvent::DriveConnected { user_id, url, username, password } => {
                self.user_id = Some(user_id);
                self.drive = Some(Drive { folder: DriveFolder { url, username }, password });
                self.failing = None;
            }
            ConnectionEvent::DriveSynced { .. } => self.failing = None,
            ConnectionEvent::SyncFailed { reason, credentials_refused, .. } => {
                self.failing = Some((reason, credentials_refused));
            }
            ConnectionEvent::AppDisconnected { .. } => {
                self.mailbox = None;
                self.drive = None;
                self.failing = None;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn server(host: &str) -> MailServer {
        MailServer { host: host.into(), port: 993, security: MailSecurity::Tls, username: " ann@example.com ".into() }
    }

    fn connect(host: &str, folders: &[&str]) -> ConnectionCommand {
        ConnectionCommand::ConnectMail {
            user_id: "ann".into(),
            server: server(host),
            password: "secret".into(),
            folders: folders.iter().map(|f| f.to_string()).collect(),
        }
    }

    fn given(events: Vec<ConnectionEvent>) -> Connection {
        let mut connection = Connection::default();
        for event in events {
            connection.apply(event);
        }
        connection
    }

    fn connected() -> Connection {
        given(Connection::default().decide(connect("IMAP.Example.com.", &["INBOX", "Reports"])).unwrap())
    }

    #[test]
    fn servers_and_folders_are_cleaned_and_bad_ones_refused_by_name() {
        let events = Connection::default().decide(connect(" IMAP.Example.com. ", &[" INBOX ", "INBOX", "Reports"]));
        let Ok([ConnectionEvent::MailConnected { host, username, folders, .. }]) = events.as_deref() else {
            panic!("{events:?}")
        };
        assert_eq!((host.as_str(), username.as_str()), ("imap.example.com", "ann@example.com"));
        assert_eq!(folders, &["INBOX", "Reports"]);
        assert_eq!(clean_server(server("[::1]")).unwrap().host, "::1");
        for bad in ["https://imap.example.com", "imap example.com", "-imap.example.com", "a/b", "x..y"] {
            assert_eq!(clean_server(server(bad)).unwrap_err().code(), "invalid_mail_host", "{bad}");
        }
        assert_eq!(clean_server(server("  ")), Err(ConnectionError::HostRequired));
        assert_eq!(clean_server(MailServer { port: 0, ..server("a.b") }), Err(ConnectionError::InvalidPort));
        assert_eq!(clean_folders(vec![]), Err(ConnectionError::FoldersRequired));
        assert_eq!(clean_folders(vec!["a\nb".into()]).unwrap_err().code(), "invalid_mail_folder");
        let many: Vec<String> = (0..=MAX_FOLDERS).map(|n| format!("F{n}")).collect();
        assert_eq!(clean_folders(many), Err(ConnectionError::TooManyFolders));
        let no_password = ConnectionCommand::ConnectMail {
            user_id: "ann".into(),
            server: server("a.b"),
            password: String::new(),
            folders: vec!["INBOX".into()],
        };
        assert_eq!(Connection::default().decide(no_password), Err(ConnectionError::CredentialsRequired));
    }

    #[test]
    fn a_sync_moves_the_cursor_once_and_a_renumbered_folder_starts_again() {
        let connection = connected();
        let cursor = FolderCursor { uid_validity: 7, last_uid: 12 };
        let sync = |cursor, imported| ConnectionCommand::RecordSync { folder: "INBOX".into(), cursor, imported };
        let events = connection.decide(sync(cursor, 3)).unwrap();
        assert_eq!(events.len(), 1);
        let connection = given(
            [Connection::default().decide(connect("imap.example.com", &["INBOX", "Reports"])).unwrap(), events]
                .concat(),
        );
        assert_eq!(connection.mailbox().unwrap().cursors["INBOX"], cursor);
        // Nothing new, nothing failing: nothing to record.
        assert_eq!(connection.decide(sync(cursor, 0)), Ok(vec![]));
        // A folder not chosen is not recorded.
        let other = ConnectionCommand::RecordSync { folder: "Spam".into(), cursor, imported: 1 };
        assert_eq!(connection.decide(other), Ok(vec![]));
        // Reconnecting the same account keeps the cursor; another account starts over.
        let mut again = connection.clone();
        for event in again.decide(connect("imap.example.com", &["INBOX"])).unwrap() {
            again.apply(event);
        }
        assert_eq!(again.mailbox().unwrap().cursors.get("INBOX"), Some(&cursor));
        for event in again.decide(connect("mail.other.org", &["INBOX"])).unwrap() {
            again.apply(event);
        }
        assert!(again.mailbox().unwrap().cursors.is_empty());
    }

    #[test]
    fn a_failure_is_recorded_when_its_reason_changes_and_cleared_by_a_working_sync() {
        let mut connection = connected();
        let fail = |reason: &str| ConnectionCommand::RecordFailure { reason: reason.into(), credentials_refused: true };
        let events = connection.decide(fail("  the server\nrefused the password ")).unwrap();
        assert!(
            matches!(&events[..], [ConnectionEvent::SyncFailed { reason, .. }] if reason == "the server refused the password")
        );
        for event in events {
            connection.apply(event);
        }
        assert_eq!(connection.decide(fail("the server refused the password")), Ok(vec![]));
        // A sync that brings nothing still clears the failure.
        let cursor = FolderCursor { uid_validity: 1, last_uid: 0 };
        let synced = connection.decide(ConnectionCommand::RecordSync { folder: "INBOX".into(), cursor, imported: 0 });
        assert_eq!(synced.unwrap().len(), 1);
    }

    #[test]
    fn a_drive_folder_is_cleaned_connected_and_disconnected_as_the_drive() {
        let folder = |url: &str| DriveFolder { url: url.into(), username: " ann ".into() };
        let kept = clean_drive(folder(" https://cloud.example.com/remote.php/dav/files/ann/Reports ")).unwrap();
        assert_eq!(kept.url, "https://cloud.example.com/remote.php/dav/files/ann/Reports/");
        assert_eq!(kept.username, "ann");
        for bad in ["ftp://x.org/a/", "https://ann:pw@x.org/a/", "https://x.org/a/?q=1", "not a url", "https://"] {
            assert_eq!(clean_drive(folder(bad)), Err(ConnectionError::InvalidUrl), "{bad}");
        }
        let mut drive = Connection::default();
        let connect = ConnectionCommand::ConnectDrive {
            user_id: "ann".into(),
            folder: folder("http://127.0.0.1:8080/dav/"),
            password: "secret".into(),
        };
        for event in drive.decide(connect).unwrap() {
            drive.apply(event);
        }
        assert_eq!(drive.drive().unwrap().folder.url, "http://127.0.0.1:8080/dav/");
        assert_eq!(drive.decide(ConnectionCommand::RecordDriveSync { imported: 0 }), Ok(vec![]));
        assert_eq!(
            drive.decide(ConnectionCommand::ChooseFolders { folders: vec!["INBOX".into()] }),
            Err(ConnectionError::NotConnected),
            "a drive has no mail folders"
        );
        let events = drive.decide(ConnectionCommand::Disconnect).unwrap();
        assert!(matches!(&events[..], [ConnectionEvent::AppDisconnected { app, .. }] if app == DRIVE_APP));
    }

    #[test]
    fn nothing_but_connecting_works_on_an_app_not_connected() {
        let none = Connection::default();
        assert_eq!(none.decide(ConnectionCommand::Disconnect), Err(ConnectionError::NotConnected));
        assert_eq!(
            none.decide(ConnectionCommand::ChooseFolders { folders: vec!["INBOX".into()] }),
            Err(ConnectionError::NotConnected)
        );
        let mut connection = connected();
        for event in connection.decide(ConnectionCommand::Disconnect).unwrap() {
            connection.apply(event);
        }
        assert!(connection.mailbox().is_none());
        assert_eq!(connection.decide(ConnectionCommand::Disconnect), Err(ConnectionError::NotConnected));
    }
}
