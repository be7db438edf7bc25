//! What the workspace's tests share, so each crate's tests set up the same way:
//!
//! - [`db`]: a fresh database per test, SQLite in a temporary directory or a schema of its own
//!   on the test Postgres (`NEEDL_TEST_DATABASE_URL`).
//! - [`search`] (feature `search`): documents for the search index and an in-memory index
//!   holding them.
//! - [`s3`]: a local S3-compatible server (moto) on a free port, for the upload tests.
//! - [`imap`]: a real IMAP server (Dovecot) on a free port, with its own accounts and maildirs.
//! - [`webdav`]: a real WebDAV server (WsgiDAV) serving a temporary directory to one account.
//! - [`edgar`] (feature `edgar`): a local server answering as SEC EDGAR does, with filings to
//!   publish while it runs.
//! - [`postgres`]: a Postgres cluster of the caller's own, to stop and start under running nodes.
//! - [`pdf`]: one-page PDFs with a line of text.
//! - [`http`]: reading a request and framing replies, for stand-ins of outside HTTP services.
//!
//! A dev-dependency only (and the benchmark's, for the local EDGAR). It depends on `commands` (and `search` with its feature), never on
//! `api`: the crates below `api` use it in their own tests.

pub mod db;
#[cfg(feature = "edgar")]
pub mod edgar;
pub mod http;
pub mod imap;
pub mod pdf;
pub mod postgres;
pub mod s3;
#[cfg(feature = "search")]
pub mod search;
pub mod webdav;

pub use db::Backend;
