//! Mail over IMAP: signs in to a person's mailbox, lists its folders, and reads what a folder
//! received since the last read, each message parsed into a [`MailMessage`] (sender, recipients,
//! subject, date, readable text, attachments).
//!
//! Like the HTTP fetcher it connects only to addresses the [`AddressGuard`] allows, checked after
//! DNS resolution; it bounds every step in time (connecting, the greeting, each command) and
//! skips a message above the size cap before downloading it. TLS is rustls with the web PKI's
//! roots. STARTTLS upgrades the connection before the password is sent. Plain IMAP sends the
//! password as it is, so it is only used towards networks the operator allowed (a mail server on
//! the same machine or the intranet), never towards the internet.
//!
//! Folders are opened read-only (EXAMINE) and bodies fetched with `BODY.PEEK[]`, so reading
//! marks nothing as read in the person's mail program.

use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use async_imap::types::NameAttribute;
use chrono::{DateTime, Utc};
use futures::TryStreamExt;
use mail_parser::{Address, MessageParser, MimeHeaders};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio_rustls::client::TlsStream;

use crate::fetch::{AddressGuard, BlockReason};

/// How the connection is protected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Security {
    Tls,
    StartTls,
    Plain,
}

/// Where a mailbox is and how to sign in to it.
#[derive(Clone)]
pub struct MailAccount {
    pub host: String,
    pub port: u16,
    pub security: Security,
    pub username: String,
    pub password: String,
}

impl std::fmt::Debug for MailAccount {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MailAccount")
            .field("host", &self.host)
            .field("port", &self.port)
            .field("security", &self.security)
            .finish_non_exhaustive()
    }
}

/// Bounds on one session.
#[derive(Debug, Clone)]
pub struct MailLimits {
    pub connect_timeout: Duration,
    /// Bound on each command and its whole answer (a message's body included).
    pub command_timeout: Duration,
    /// Messages larger than this are skipped (and not asked for again).
    pub max_message_bytes: u32,
    /// Messages read from one folder in one call; the rest wait for the next.
    pub max_messages: usize,
}

impl Default for MailLimits {
    fn default() -> Self {
        Self {
            connect_timeout: Duration::from_secs(10),
            command_timeout: Duration::from_secs(60),
            max_message_bytes: 25 * 1024 * 1024,
            max_messages: 100,
        }
    }
}

/// Why a mailbox could not be read, worded for the person who connected it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MailError {
    #[error("the mail server refused the account name or password")]
    CredentialsRefused,
    #[error("could not find the mail server {0}")]
    UnknownHost(String),
    #[error("could not connect to {host} on port {port}: {reason}")]
    Unreachable { host: String, port: u16, reason: String },
    #[error("{host} is a {} address, which Needl may not connect to", reason.as_str())]
    Blocked { host: String, reason: BlockReason },
    #[error(
        "Needl signs in to mail servers on other networks only over TLS or STARTTLS, so the password is never sent unencrypted"
    )]
    PlainRefused,
    #[error("the mail server did not answer within {0} seconds")]
    TimedOut(u64),
    #[error("the secure connection to {host} failed: {reason}")]
    Tls { host: String, reason: String },
    #[error("the mail server does not offer STARTTLS; choose TLS (usually port 993)")]
    NoStartTls,
    #[error("the folder {0:?} does not exist on the mail server")]
    NoSuchFolder(String),
    #[error("the mail server answered: {0}")]
    Protocol(String),
}

impl MailError {
    /// Whether the account itself was refused (as opposed to the server being unreachable).
    pub fn credentials_refused(&self) -> bool {
        matches!(self, MailError::CredentialsRefused)
    }
}

impl From<async_imap::error::Error> for MailError {
    fn from(error: async_imap::error::Error) -> Self {
        use async_imap::error::Error;
        match error {
            Error::No(text) | Error::Bad(text) => MailError::Protocol(one_line(&text)),
            Error::ConnectionLost => MailError::Protocol("the connection was closed".into()),
            other => MailError::Protocol(one_line(&other.to_string())),
        }
    }
}

fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ").chars().take(300).collect()
}

/// The connection under the IMAP session: plain TCP or TLS over it.
#[derive(Debug)]
enum Wire {
    Plain(TcpStream),
    Tls(Box<TlsStream<TcpStream>>),
}

impl AsyncRead for Wire {
    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<std::io::Result<()>> {
        match self.get_mut() {
            Wire::Plain(s) => Pin::new(s).poll_read(cx, buf),
            Wire::Tls(s) => Pin::new(s.as_mut()).poll_read(cx, buf),
        }
    }
}

impl AsyncWrite for Wire {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<std::io::Result<usize>> {
        match self.get_mut() {
            Wire::Plain(s) => Pin::new(s).poll_write(cx, buf),
            Wire::Tls(s) => Pin::new(s.as_mut()).poll_write(cx, buf),
        }
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        match self.get_mut() {
            Wire::Plain(s) => Pin::new(s).poll_flush(cx),
            Wire::Tls(s) => Pin::new(s.as_mut()).poll_flush(cx),
        }
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        match self.get_mut() {
            Wire::Plain(s) => Pin::new(s).poll_shutdown(cx),
            Wire::Tls(s) => Pin::new(s.as_mut()).poll_shutdown(cx),
        }
    }
}

/// What one read of a folder brought.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FolderBatch {
    /// The folder's UIDVALIDITY: UIDs are only comparable under the same one.
    pub uid_validity: u32,
    /// The highest UID read (or skipped); the next read starts after it.
    pub last_uid: u32,
    /// The messages read, oldest first, as the server sent them.
    pub messages: Vec<RawMessage>,
    /// UIDs and sizes of messages skipped for their size.
    pub too_large: Vec<(u32, u32)>,
    /// Whether more messages wait beyond this batch.
    pub more: bool,
}

/// One message as the server sent it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawMessage {
    pub uid: u32,
    pub bytes: Vec<u8>,
}

/// A signed-in IMAP session.
pub struct MailSession {
    session: async_imap::Session<Wire>,
    limits: MailLimits,
}

impl MailSession {
    /// Connects to the account's server and signs in.
    pub async fn open(account: &MailAccount, guard: &AddressGuard, limits: MailLimits) -> Result<Self, MailError> {
        let address = resolve(account, guard).await?;
        let explicitly_allowed = guard.allows_explicitly(address.ip());
        if account.security == Security::Plain && !explicitly_allowed {
            return Err(MailError::PlainRefused);
        }
        let connect = tokio::time::timeout(limits.connect_timeout, TcpStream::connect(address));
        let tcp = match connect.await {
            Err(_) => return Err(MailError::TimedOut(limits.connect_timeout.as_secs())),
            Ok(Err(e)) => {
                return Err(MailError::Unreachable {
                    host: account.host.clone(),
                    port: account.port,
                    reason: e.to_string(),
                })
            }
            Ok(Ok(tcp)) => tcp,
        };
        let limit = limits.command_timeout;
        let wire = match account.security {
            Security::Tls => Wire::Tls(Box::new(bounded(limit, tls(account, tcp)).await??)),
            Security::Plain => Wire::Plain(tcp),
            Security::StartTls => {
                let mut client = async_imap::Client::new(tcp);
                greeting(&mut client, &limits).await?;
                bounded(limit, async {
                    client.run_command_and_check_ok("STARTTLS", None).await.map_err(|_| MailError::NoStartTls)
                })
                .await??;
                Wire::Tls(Box::new(bounded(limit, tls(account, client.into_inner())).await??))
            }
        };
        let mut client = async_imap::Client::new(wire);
        if account.security != Security::StartTls {
            greeting(&mut client, &limits).await?;
        }
        let login =
            bounded(limit, async { client.login(&account.username, &account.password).await.map_err(|(e, _)| e) });
        let session = match login.await? {
            Ok(session) => session,
            Err(async_imap::error::Error::No(_)) => return Err(MailError::CredentialsRefused),
            Err(other) => return Err(other.into()),
        };
        Ok(Self { session, limits })
    }

    /// The folders that hold messages, as the server names them, INBOX first.
    pub async fn folders(&mut self) -> Result<Vec<String>, MailError> {
        let timeout = self.limits.command_timeout;
        let names = bounded(timeout, async {
            let stream = self.session.list(Some(""), Some("*")).await?;
            stream.try_collect::<Vec<_>>().await
        })
        .await??;
        let mut folders: Vec<String> = names
            .iter()
            .filter(|n| !n.attributes().iter().any(|a| matches!(a, NameAttribute::NoSelect)))
            .map(|n| n.name().to_string())
            .collect();
        folders.sort_by_key(|f| (!f.eq_ignore_ascii_case("INBOX"), f.to_lowercase()));
        folders.dedup();
        Ok(folders)
    }

    /// Reads the messages `folder` received after `since` (its UIDVALIDITY and the last UID
    /// read), oldest first, at most [`MailLimits::max_messages`] of them. A folder whose
    /// UIDVALIDITY changed is read from its start.
    pub async fn read_since(&mut self, folder: &str, since: Option<(u32, u32)>) -> Result<FolderBatch, MailError> {
        let timeout = self.limits.command_timeout;
        let mailbox = match bounded(timeout, self.session.examine(folder)).await? {
            Ok(mailbox) => mailbox,
            Err(async_imap::error::Error::No(_)) => return Err(MailError::NoSuchFolder(folder.to_string())),
            Err(other) => return Err(other.into()),
        };
        let uid_validity = mailbox.uid_validity.unwrap_or(0);
        let after = match since {
            Some((validity, last)) if validity == uid_validity => last,
            _ => 0,
        };
        let mut batch = FolderBatch { uid_validity, last_uid: after, messages: vec![], too_large: vec![], more: false };
        if mailbox.exists == 0 {
            return Ok(batch);
        }
        // "n:*" always includes the newest message, even below n: filter.
        let found = bounded(timeout, self.session.uid_search(format!("UID {}:*", after.saturating_add(1)))).await??;
        let mut uids: Vec<u32> = found.into_iter().filter(|&uid| uid > after).collect();
        uids.sort_unstable();
        batch.more = uids.len() > self.limits.max_messages;
        uids.truncate(self.limits.max_messages);
        let Some(&newest) = uids.last() else {
            return Ok(batch);
        };
        let set = uid_set(&uids);
        let sizes: Vec<(u32, u32)> = bounded(timeout, async {
            let stream = self.session.uid_fetch(&set, "(UID RFC822.SIZE)").await?;
            let fetches: Vec<_> = stream.try_collect().await?;
            Ok::<_, async_imap::error::Error>(
                fetches.iter().filter_map(|f| Some((f.uid?, f.size.unwrap_or(0)))).collect(),
            )
        })
        .await??;
        for uid in uids {
            let size = sizes.iter().find(|(u, _)| *u == uid).map_or(0, |(_, s)| *s);
            if size > self.limits.max_message_bytes {
                batch.too_large.push((uid, size));
                continue;
            }
            let body = bounded(timeout, async {
                let stream = self.session.uid_fetch(uid.to_string(), "(UID BODY.PEEK[])").await?;
                let fetches: Vec<_> = stream.try_collect().await?;
                Ok::<_, async_imap::error::Error>(
                    fetches.iter().find(|f| f.uid == Some(uid)).and_then(|f| f.body().map(<[u8]>::to_vec)),
                )
            })
            .await??;
            if let Some(bytes) = body {
                batch.messages.push(RawMessage { uid, bytes });
            }
        }
        batch.last_uid = newest;
        Ok(batch)
    }

    /// Signs out; a server that does not answer is left to close the connection itself.
    pub async fn close(mut self) {
        let _ = tokio::time::timeout(Duration::from_secs(5), self.session.logout()).await;
    }
}

/// A UID set in IMAP's syntax, runs collapsed ("3:7,9").
fn uid_set(sorted: &[u32]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < sorted.len() {
        let start = sorted[i];
        let mut end = start;
        while i + 1 < sorted.len() && sorted[i + 1] == end + 1 {
            i += 1;
            end = sorted[i];
        }
        parts.push(if start == end { start.to_string() } else { format!("{start}:{end}") });
        i += 1;
    }
    parts.join(",")
}

async fn bounded<T>(limit: Duration, step: impl std::future::Future<Output = T>) -> Result<T, MailError> {
    tokio::time::timeout(limit, step).await.map_err(|_| MailError::TimedOut(limit.as_secs()))
}

async fn greeting<T>(client: &mut async_imap::Client<T>, limits: &MailLimits) -> Result<(), MailError>
where
    T: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + std::fmt::Debug + Send,
{
    match bounded(limits.command_timeout, client.read_response()).await? {
        Ok(Some(_)) => Ok(()),
        Ok(None) => Err(MailError::Protocol("the server closed the connection before greeting".into())),
        Err(e) => Err(MailError::Protocol(one_line(&e.to_string()))),
    }
}

/// Resolves the host and picks the first address the guard allows; refuses when every address
/// it resolves to is blocked.
async fn resolve(account: &MailAccount, guard: &AddressGuard) -> Result<SocketAddr, MailError> {
    let lookup = tokio::net::lookup_host((account.host.as_str(), account.port));
    let addresses: Vec<SocketAddr> = match tokio::time::timeout(Duration::from_secs(10), lookup).await {
        Err(_) => return Err(MailError::TimedOut(10)),
        Ok(Err(_)) => return Err(MailError::UnknownHost(account.host.clone())),
        Ok(Ok(found)) => found.collect(),
    };
    let mut blocked = None;
    for address in &addresses {
        match guard.check(address.ip()) {
            None => return Ok(*address),
            Some(reason) => blocked = Some(reason),
        }
    }
    match blocked {
        Some(reason) => Err(MailError::Blocked { host: account.host.clone(), reason }),
        None => Err(MailError::UnknownHost(account.host.clone())),
    }
}

async fn tls(account: &MailAccount, tcp: TcpStream) -> Result<TlsStream<TcpStream>, MailError> {
    let failed = |reason: String| MailError::Tls { host: account.host.clone(), reason };
    let roots = rustls::RootCertStore { roots: webpki_roots::TLS_SERVER_ROOTS.to_vec() };
    let config = rustls::ClientConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
        .with_safe_default_protocol_versions()
        .map_err(|e| failed(e.to_string()))?
        .with_root_certificates(roots)
        .with_no_client_auth();
    let name = rustls::pki_types::ServerName::try_from(account.host.clone()).map_err(|e| failed(e.to_string()))?;
    tokio_rustls::TlsConnector::from(Arc::new(config)).connect(name, tcp).await.map_err(|e| failed(e.to_string()))
}

/// A message as Needl keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MailMessage {
    /// The Message-ID header without its angle brackets.
    pub message_id: Option<String>,
    /// "Name <address>", or the address alone.
    pub from: Option<String>,
    pub to: Vec<String>,
    pub subject: Option<String>,
    pub date: Option<DateTime<Utc>>,
    /// The readable text of the body (an HTML-only message's text, converted).
    pub text: String,
    pub attachments: Vec<Attachment>,
}

/// A file attached to a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attachment {
    pub name: String,
    pub mime: String,
    pub bytes: Vec<u8>,
}

/// Body parts joined into the text, at most.
const MAX_TEXT_PARTS: usize = 20;
/// Attachments kept from one message, at most.
const MAX_ATTACHMENTS: usize = 20;

/// Parses a message; `None` when the bytes are not a message at all.
pub fn parse_message(bytes: &[u8]) -> Option<MailMessage> {
    let message = MessageParser::default().parse(bytes)?;
    let person = |a: &mail_parser::Addr<'_>| match (a.name(), a.address()) {
        (Some(name), Some(address)) if !name.trim().is_empty() => Some(format!("{} <{address}>", name.trim())),
        (_, Some(address)) => Some(address.to_string()),
        (Some(name), None) => Some(name.trim().to_string()),
        (None, None) => None,
    };
    let everyone = |address: Option<&Address<'_>>| -> Vec<String> {
        address.map(|a| a.iter().filter_map(person).collect()).unwrap_or_default()
    };
    let mut parts = Vec::new();
    for position in 0..MAX_TEXT_PARTS {
        match message.body_text(position) {
            Some(text) => parts.push(text.trim().to_string()),
            None => break,
        }
    }
    let attachments = message
        .attachments()
        .filter(|part| !part.is_message())
        .filter_map(|part| {
            let name = part.attachment_name()?.trim().to_string();
            let mime = part
                .content_type()
                .map(|t| format!("{}/{}", t.ctype(), t.subtype().unwrap_or("octet-stream")).to_ascii_lowercase())
                .unwrap_or_else(|| "application/octet-stream".into());
            (!name.is_empty() && !part.contents().is_empty()).then(|| Attachment {
                name,
                mime,
                bytes: part.contents().to_vec(),
            })
        })
        .take(MAX_ATTACHMENTS)
        .collect();
    Some(MailMessage {
        message_id: message
            .message_id()
            .map(|id| id.trim_matches(['<', '>', ' ']).to_string())
            .filter(|id| !id.is_empty()),
        from: message.from().and_then(|a| a.first()).and_then(person),
        to: everyone(message.to()),
        subject: message.subject().map(|s| s.trim().to_string()).filter(|s| !s.is_empty()),
        date: message.date().and_then(|d| DateTime::from_timestamp(d.to_timestamp(), 0)),
        text: parts.into_iter().filter(|p| !p.is_empty()).collect::<Vec<_>>().join("\n\n"),
        attachments,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uid_sets_collapse_runs() {
        assert_eq!(uid_set(&[1, 2, 3, 5, 7, 8]), "1:3,5,7:8");
        assert_eq!(uid_set(&[9]), "9");
    }

    #[test]
    fn a_message_yields_its_people_subject_text_and_attachments() {
        let raw = concat!(
            "From: \"Bea Quinn\" <bea@example.com>\r\n",
            "To: ann@example.com, Carl <carl@example.com>\r\n",
            "Subject: =?UTF-8?Q?Q3_r=C3=A9sultats?=\r\n",
            "Date: Tue, 3 Nov 2026 09:30:00 +0100\r\n",
            "Message-ID: <abc@example.com>\r\n",
            "MIME-Version: 1.0\r\n",
            "Content-Type: multipart/mixed; boundary=\"b\"\r\n\r\n",
            "--b\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<p>Revenue <b>grew</b> 12%.</p>\r\n",
            "--b\r\nContent-Type: text/csv; name=\"q3.csv\"\r\nContent-Disposition: attachment; filename=\"q3.csv\"\r\n",
            "Content-Transfer-Encoding: base64\r\n\r\nYSxiCjEsMgo=\r\n",
            "--b--\r\n"
        );
        let message = parse_message(raw.as_bytes()).unwrap();
        assert_eq!(message.from.as_deref(), Some("Bea Quinn <bea@example.com>"));
        assert_eq!(message.to, vec!["ann@example.com".to_string(), "Carl <carl@example.com>".to_string()]);
        assert_eq!(message.subject.as_deref(), Some("Q3 résultats"));
        assert_eq!(message.message_id.as_deref(), Some("abc@example.com"));
        assert_eq!(message.date.unwrap().to_rfc3339(), "2026-11-03T08:30:00+00:00");
        assert!(message.text.contains("Revenue grew 12%."), "{:?}", message.text);
        assert_eq!(message.attachments.len(), 1);
        assert_eq!(
            (message.attachments[0].name.as_str(), message.attachments[0].mime.as_str()),
            ("q3.csv", "text/csv")
        );
        assert_eq!(message.attachments[0].bytes, b"a,b\n1,2\n");
    }
}
