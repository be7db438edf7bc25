//! Ingestion: turns outside sources into [`IngestedItem`]s the rest of Needl can store.
//!
//! A tour of the crate:
//!
//! - [`connector`] holds the one [`Connector`] trait every source type implements, the source
//!   definition and fetch state it takes, the item it returns, and the [`FeedConnector`] and
//!   [`WebConnector`] implementations.
//! - [`feeds`] parses RSS 0.9x/1.0/2.0, Atom and JSON Feed bytes (through `feed-rs`) into items,
//!   refusing XML entity declarations and capping item counts and text sizes.
//! - [`fetch`] is the only way this crate reaches the network: an SSRF-safe HTTP fetcher (address
//!   checks after DNS resolution and on every redirect, size and time caps, conditional GET,
//!   per-host concurrency), plus pure backoff and scheduling helpers.
//! - [`web`] follows a website: feed discovery through `<link rel="alternate">`, a bounded
//!   same-site crawl, and readable-text extraction from HTML.
//! - [`mail`] reads a mailbox over IMAP (TLS, STARTTLS, or plain towards allowed networks only):
//!   its folders, and the messages a folder received since the last read, parsed into sender,
//!   recipients, subject, date, text and attachments.
//! - [`webdav`] lists a WebDAV folder's files (PROPFIND, depth 1) and fetches them, behind the
//!   same address guard, https only towards networks the operator did not allow.
//! - [`edgar`] follows companies' filings on SEC EDGAR: the company list, per-company Atom
//!   feeds, filing indexes, inline XBRL statements, and a client that keeps EDGAR's fair-access
//!   rules (declared User-Agent, 10 requests a second per node, back-off on 429/503).
//! - [`exchanges`] reads exchange announcement listings that are not feeds (BSE and NSE JSON,
//!   NZX HTML), one [`exchanges::Exchange`] per exchange behind one trait.
//! - [`catalogue`] is the public source catalogue (key, title, group, whether a source or an app,
//!   feed URLs, or the exchange connector that reads its listing and the categories it keeps),
//!   seeded from the spec and extended by operators through a TOML or JSON file.
//!
//! Dependencies: none of our crates. This is a pure library with no database and no server of
//! its own; `api` wires it to the event store (it turns items into commands) and to HTTP.

pub mod catalogue;
pub mod connector;
pub mod edgar;
pub mod exchanges;
pub mod feeds;
pub mod fetch;
pub mod mail;
pub mod web;
pub mod webdav;

pub use catalogue::{
    title_for_key, Catalogue, CatalogueEntry, CatalogueError, EntryKind, SourceGroup, Topic, TopicFeed,
};
pub use connector::{
    Connector, FeedConnector, FetchOutcome, IngestError, IngestedItem, SourceDef, SourceKind, WebConnector,
};
pub use feeds::{parse_feed_bytes, FeedError, FeedLimits, ParsedFeed};
pub use fetch::{FetchError, FetchPolicy, FetchResponse, FetchState, Fetched, Fetcher};
