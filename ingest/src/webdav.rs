//! A WebDAV drive's folder (Nextcloud, ownCloud, a NAS): its files listed with `PROPFIND`
//! (depth 1) and fetched with `GET`.
//!
//! The host is resolved once and checked against the [`AddressGuard`]; the requests then go to
//! that address only (no second lookup), follow no redirects, and are bounded in time and size.
//! Plain `http` sends the password as it is, so, as for mail, it is only used towards networks the
//! operator allowed. The multistatus answer is read with quick-xml, which never expands entities.

use std::net::SocketAddr;
use std::time::Duration;

use quick_xml::events::Event;
use url::Url;

use crate::fetch::{AddressGuard, BlockReason};

/// Where a folder is and how to sign in to it.
#[derive(Clone)]
pub struct DavAccount {
    /// The folder's address, ending with `/`.
    pub url: Url,
    pub username: String,
    pub password: String,
}

impl std::fmt::Debug for DavAccount {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DavAccount").field("url", &self.url.as_str()).finish_non_exhaustive()
    }
}

/// Bounds on one exchange.
#[derive(Debug, Clone)]
pub struct DavLimits {
    pub connect_timeout: Duration,
    pub request_timeout: Duration,
    /// A listing larger than this is refused (a folder of some tens of thousands of files).
    pub max_listing_bytes: usize,
    /// Files larger than this are not fetched.
    pub max_file_bytes: u64,
}

impl Default for DavLimits {
    fn default() -> Self {
        Self {
            connect_timeout: Duration::from_secs(10),
            request_timeout: Duration::from_secs(120),
            max_listing_bytes: 8 * 1024 * 1024,
            max_file_bytes: 50 * 1024 * 1024,
        }
    }
}

/// Why a folder could not be read, worded for the person who connected it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DavError {
    #[error("the drive refused the account name or password")]
    CredentialsRefused,
    #[error("could not find the server {0}")]
    UnknownHost(String),
    #[error("could not reach {host}: {reason}")]
    Unreachable { host: String, reason: String },
    #[error("{host} is a {} address, which Needl may not connect to", reason.as_str())]
    Blocked { host: String, reason: BlockReason },
    #[error("Needl signs in to drives on other networks only over https, so the password is never sent unencrypted")]
    PlainRefused,
    #[error("the address is not a WebDAV folder (the server answered {0})")]
    NotAFolder(u16),
    #[error("the drive did not answer within {0} seconds")]
    TimedOut(u64),
    #[error("{0} is larger than Needl takes")]
    TooLarge(String),
    #[error("the drive answered: {0}")]
    Protocol(String),
}

impl DavError {
    pub fn credentials_refused(&self) -> bool {
        matches!(self, DavError::CredentialsRefused)
    }
}

/// A file in the folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DavFile {
    /// The file's path on the server, as the listing gave it (percent-encoded).
    pub href: String,
    /// Its name, decoded.
    pub name: String,
    pub size: u64,
    /// Changes whenever the file does (`getetag`, else the modification time and size).
    pub version: String,
    pub content_type: Option<String>,
}

/// A client for one account's folder.
pub struct DavFolder {
    client: reqwest::Client,
    account: DavAccount,
    limits: DavLimits,
}

impl DavFolder {
    /// Resolves and checks the host, and makes a client that connects to that address only.
    pub async fn open(account: DavAccount, guard: &AddressGuard, limits: DavLimits) -> Result<Self, DavError> {
        let host = account.url.host_str().unwrap_or_default().to_string();
        let port = account.url.port_or_known_default().unwrap_or(443);
        let bare = host.trim_matches(['[', ']']).to_string();
        let lookup = tokio::net::lookup_host((bare.as_str(), port));
        let addresses: Vec<SocketAddr> = match tokio::time::timeout(limits.connect_timeout, lookup).await {
            Err(_) => return Err(DavError::TimedOut(limits.connect_timeout.as_secs())),
            Ok(Err(_)) => return Err(DavError::UnknownHost(host)),
            Ok(Ok(found)) => found.collect(),
        };
        let mut blocked = None;
        let mut chosen = None;
        for address in addresses {
            match guard.check(address.ip()) {
                None => {
                    chosen = Some(address);
                    break;
                }
                Some(reason) => blocked = Some(reason),
            }
        }
        let address = match (chosen, blocked) {
            (Some(address), _) => address,
            (None, Some(reason)) => return Err(DavError::Blocked { host, reason }),
            (None, None) => return Err(DavError::UnknownHost(host)),
        };
        if account.url.scheme() != "https" && !guard.allows_explicitly(address.ip()) {
            return Err(DavError::PlainRefused);
        }
        let client = reqwest::Client::builder()
            .resolve(&bare, address)
            .redirect(reqwest::redirect::Policy::none())
            .connect_timeout(limits.connect_timeout)
            .timeout(limits.request_timeout)
            .user_agent(concat!("Needl/", env!("CARGO_PKG_VERSION"), " (WebDAV)"))
            .build()
            .map_err(|e| DavError::Protocol(e.to_string()))?;
        Ok(Self { client, account, limits })
    }

    fn failed(&self, error: reqwest::Error) -> DavError {
        if error.is_timeout() {
            DavError::TimedOut(self.limits.request_timeout.as_secs())
        } else {
            let host = self.account.url.host_str().unwrap_or_default().to_string();
            DavError::Unreachable { host, reason: error.without_url().to_string() }
        }
    }

    /// The files of the folder (not its subfolders), sorted by name.
    pub async fn list(&self) -> Result<Vec<DavFile>, DavError> {
        let body = r#"<?xml version="1.0" encoding="utf-8"?><d:propfind xmlns:d="DAV:"><d:prop><d:resourcetype/><d:getcontentlength/><d:getetag/><d:getlastmodified/><d:getcontenttype/></d:prop></d:propfind>"#;
        let method = reqwest::Method::from_bytes(b"PROPFIND").expect("a method name");
        let response = self
            .client
            .request(method, self.account.url.clone())
            .basic_auth(&self.account.username, Some(&self.account.password))
            .header("Depth", "1")
            .header("Content-Type", "application/xml; charset=utf-8")
            .body(body)
            .send()
            .await
            .map_err(|e| self.failed(e))?;
        match response.status().as_u16() {
            207 => {}
            401 | 403 => return Err(DavError::CredentialsRefused),
            other => return Err(DavError::NotAFolder(other)),
        }
        let bytes = self.capped(response, self.limits.max_listing_bytes as u64, "the folder's listing").await?;
        let mut files = parse_multistatus(&bytes, self.account.url.path())?;
        files.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(files)
    }

    /// The bytes of one file of the listing.
    pub async fn fetch(&self, file: &DavFile) -> Result<Vec<u8>, DavError> {
        if file.size > self.limits.max_file_bytes {
            return Err(DavError::TooLarge(file.name.clone()));
        }
        let url = self.account.url.join(&file.href).map_err(|e| DavError::Protocol(e.to_string()))?;
        if url.origin() != self.account.url.origin() {
            return Err(DavError::Protocol(format!("{} points to another server", file.name)));
        }
        let response = self
            .client
            .get(url)
            .basic_auth(&self.account.username, Some(&self.account.password))
            .send()
            .await
            .map_err(|e| self.failed(e))?;
        match response.status().as_u16() {
            200 => {}
            401 | 403 => return Err(DavError::CredentialsRefused),
            other => return Err(DavError::Protocol(format!("{} could not be fetched ({other})", file.name))),
        }
        self.capped(response, self.limits.max_file_bytes, &file.name).await
    }

    /// Reads a body, refusing it past `limit` bytes whatever its length header says.
    async fn capped(&self, mut response: reqwest::Response, limit: u64, what: &str) -> Result<Vec<u8>, DavError> {
        let mut out = Vec::new();
        while let Some(chunk) = response.chunk().await.map_err(|e| self.failed(e))? {
            if (out.len() + chunk.len()) as u64 > limit {
                return Err(DavError::TooLarge(what.to_string()));
            }
            out.extend_from_slice(&chunk);
        }
        Ok(out)
    }
}

/// The files of a `PROPFIND` depth-1 answer: every response but the folder itself and its
/// subfolders. Element names are matched without their namespace prefix; a document type (the
/// door to entity expansion) is refused.
pub fn parse_multistatus(xml: &[u8], folder_path: &str) -> Result<Vec<DavFile>, DavError> {
    #[derive(Default)]
    struct Entry {
        href: String,
        size: u64,
        etag: Option<String>,
        modified: Option<String>,
        content_type: Option<String>,
        collection: bool,
    }
    let unreadable = |e: &dyn std::fmt::Display| DavError::Protocol(format!("the listing could not be read: {e}"));
    let mut reader = quick_xml::Reader::from_reader(xml);
    let mut files = Vec::new();
    let mut entry: Option<Entry> = None;
    // The text of the element being read, pieced together across entity references.
    let mut value = String::new();
    let mut buf = Vec::new();
    loop {
        match reader.read_event_into(&mut buf).map_err(|e| unreadable(&e))? {
            Event::DocType(_) => return Err(DavError::Protocol("the listing declares a document type".into())),
            Event::Start(tag) => {
                value.clear();
                match tag.local_name().as_ref() {
                    "response" => entry = Some(Entry::default()),
                    "collection" => entry.iter_mut().for_each(|e| e.collection = true),
                    _ => {}
                }
            }
            Event::Empty(tag) if tag.local_name().as_ref() == "collection" => {
                entry.iter_mut().for_each(|e| e.collection = true)
            }
            Event::Text(text) => value.push_str(&text.xml10_content()),
            Event::GeneralRef(reference) => match reference.resolve_char_ref() {
                Ok(Some(c)) => value.push(c),
                _ => value.push_str(match reference.as_ref() {
                    "amp" => "&",
                    "lt" => "<",
                    "gt" => ">",
                    "quot" => "\"",
                    "apos" => "'",
                    _ => return Err(DavError::Protocol("the listing uses an unknown entity".into())),
                }),
            },
            Event::End(tag) => {
                let text = value.trim().to_string();
                value.clear();
                let Some(e) = entry.as_mut() else { continue };
                match tag.local_name().as_ref() {
                    "href" => e.href = text,
                    "getcontentlength" => e.size = text.parse().unwrap_or(0),
                    "getetag" => e.etag = Some(text.trim_matches('"').to_string()).filter(|t| !t.is_empty()),
                    "getlastmodified" => e.modified = Some(text),
                    "getcontenttype" => e.content_type = Some(text).filter(|t| !t.is_empty()),
                    "response" => {
                        let e = entry.take().expect("in a response");
                        if let Some(file) = file_of(e.href, folder_path, e.collection, || {
                            (
                                e.size,
                                e.etag.unwrap_or_else(|| format!("{}:{}", e.modified.unwrap_or_default(), e.size)),
                                e.content_type,
                            )
                        }) {
                            files.push(file);
                        }
                    }
                    _ => {}
                }
            }
            Event::Eof => break,
            _ => {}
        }
        buf.clear();
    }
    Ok(files)
}

/// A response as a file of the folder: not the folder itself, not a subfolder.
fn file_of(
    href: String,
    folder_path: &str,
    collection: bool,
    facts: impl FnOnce() -> (u64, String, Option<String>),
) -> Option<DavFile> {
    let path = Url::parse("http://folder.invalid").ok()?.join(&href).ok()?;
    let own = path.path().trim_end_matches('/') == folder_path.trim_end_matches('/');
    if collection || own || href.is_empty() {
        return None;
    }
    let name = path.path_segments()?.next_back().map(percent_decode)?;
    let (size, version, content_type) = facts();
    Some(DavFile { href, name, size, version, content_type })
}

/// `%XX` escapes decoded (a file name as the listing's path spells it).
fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 3 <= bytes.len() && text.is_char_boundary(i + 3) {
            if let Ok(byte) = u8::from_str_radix(&text[i + 1..i + 3], 16) {
                out.push(byte);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_listing_yields_the_files_not_the_folder_or_its_subfolders() {
        let xml = br#"<?xml version="1.0"?>
<d:multistatus xmlns:d="DAV:">
 <d:response><d:href>/dav/Reports/</d:href><d:propstat><d:prop><d:resourcetype><d:collection/></d:resourcetype></d:prop></d:propstat></d:response>
 <d:response><d:href>/dav/Reports/Q3%20results.pdf</d:href><d:propstat><d:prop><d:resourcetype/><d:getcontentlength>2048</d:getcontentlength><d:getetag>"abc"</d:getetag><d:getcontenttype>application/pdf</d:getcontenttype></d:prop></d:propstat></d:response>
 <d:response><d:href>/dav/Reports/Archive/</d:href><d:propstat><d:prop><d:resourcetype><d:collection/></d:resourcetype></d:prop></d:propstat></d:response>
 <d:response><d:href>/dav/Reports/notes.txt</d:href><d:propstat><d:prop><d:resourcetype/><d:getcontentlength>10</d:getcontentlength><d:getlastmodified>Fri, 27 Nov 2026 13:21:07 GMT</d:getlastmodified></d:prop></d:propstat></d:response>
</d:multistatus>"#;
        let files = parse_multistatus(xml, "/dav/Reports/").unwrap();
        assert_eq!(files.len(), 2, "{files:?}");
        assert_eq!((files[0].name.as_str(), files[0].size, files[0].version.as_str()), ("Q3 results.pdf", 2048, "abc"));
        assert_eq!(files[0].content_type.as_deref(), Some("application/pdf"));
        assert_eq!(files[1].version, "Fri, 27 Nov 2026 13:21:07 GMT:10", "without an ETag, time and size");
    }

    #[test]
    fn a_listing_with_a_document_type_is_refused() {
        let xml = br#"<?xml version="1.0"?><!DOCTYPE d [<!ENTITY a "aaaa">]><d:multistatus xmlns:d="DAV:"/>"#;
        assert!(matches!(parse_multistatus(xml, "/"), Err(DavError::Protocol(_))));
    }
}
