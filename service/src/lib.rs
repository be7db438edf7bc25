//! The application layer: what a signed-in person may read and do, below HTTP.
//!
//! `api/` turns requests into calls here and answers into JSON; the engines below (`domain`,
//! `commands`, `projections`, `search`, `assistant`, `ingest`, `extract`) know nothing of people
//! or permissions. This crate knows nothing of HTTP.
//!
//! A tour:
//! - [`context`]: what every use case runs in (storage, the bus, read models, index, settings),
//!   with [`Context::command`](context::Context::command), which settles the read models.
//! - [`viewer`]: who is asking, and what their request says about itself.
//! - [`error`]: the one error type, its kinds, and what domain, search and assistant errors become.
//! - [`policy`]: who may read which document and see which channel, feature flags, and what a
//!   search scope reaches. The rules have this one home.
//! - One module per feature, each holding its typed reads of the read models, its answers and its
//!   use cases: [`documents`], [`uploads`], [`sources`], [`websites`], [`library`] (My Data's
//!   categories), [`tags`] (and bookmarks), [`notebooks`], [`channels`], [`comments`],
//!   [`people`], [`notifications`], [`search`] (with the spelling retry), [`ask`] (scope,
//!   question, turn, citations, sessions), [`platform`] (profile, preferences, flags,
//!   onboarding, organisation, debug logs), [`portfolios`] (holdings by ISIN), [`reports`]
//!   (research reports, and their generation as leased jobs), [`apps`] (connected apps: mail
//!   over IMAP connected and synced into documents, vendor apps offline), [`summaries`] (document
//!   summaries: asked for, written offline into a PDF by a leased worker), [`tables`] (a PDF's
//!   tables as CSV or XLSX).
//! - [`sessions`]: sign-up, sign-in, refresh and sign-out, password changes, and whether a
//!   session is honoured; [`oidc`]: sign-in with the organisation's identity provider;
//!   [`passwords`]: the policy a new password meets, and hashing; [`whatsapp`]: WhatsApp number
//!   verification by code, sent through a messenger (offline, an outbox administrators read);
//!   [`password_reset`]: one-time reset links, mailed through [`mail`] or issued by an
//!   administrator; [`clock`]: the time those rules judge by (a test's manual one).
//! - [`live`]: what a live socket may see, the pages it missed, and when its session ends it.
//! - [`storage`]: uploaded files (local disk or an S3 bucket) and their upload links; [`blobs`]:
//!   extracted text and layouts by content hash, in the same place (a node's disk only caches
//!   them when the bucket holds them).
//! - [`sentiment`]: the tone of finance headlines by a lexicon, for cards' badges.
//! - [`input`]: checks several features share; [`sql`]: `IN (...)` placeholders and view times.
//! - [`plans`]: plans and pricing gates: the eligibility map, the server's checks before gated
//!   writes, usage against limits, plan assignment, and billing behind an interface.
//! - [`admin`]: users, their flags and roles; [`erasure`]: an account erased by destroying the
//!   key its personal data was sealed with; [`audit`]: the event history, secrets redacted,
//!   filtered, exported, and aggregates and read models as they stood at any point;
//!   [`audit_chain`]: the hash chain's verification and signed checkpoints; [`analytics`]: named
//!   consumers of the event history and event counts;
//!   [`model_server`]: the model server AskNeedl writes with, as administrators set it.
//! - [`filings`]: companies followed on SEC EDGAR and exchange announcement listings, read by
//!   the ingestion loop into documents tagged with company, form and period.
//! - Workers and what they share: [`ingestion`] (followed sources), [`uploads`] (transferred
//!   files into documents, beside the upload use cases), [`import`] (local files into a drive),
//!   [`drive`], [`indexing`] (the search index), [`storage`] (local disk or S3), [`access`]
//!   (document and link keys).

pub mod access;
pub mod admin;
pub mod analytics;
pub mod apps;
pub mod ask;
pub mod audit;
pub mod audit_chain;
pub mod blobs;
pub mod channels;
pub mod clock;
pub mod comments;
pub mod context;
pub mod documents;
pub mod drive;
pub mod erasure;
pub mod error;
pub mod feeds;
pub mod filings;
pub mod import;
pub mod indexing;
pub mod ingestion;
pub mod input;
pub mod library;
pub mod live;
pub mod mail;
pub mod model_server;
pub mod notebooks;
pub mod notifications;
pub mod oidc;
pub mod password_reset;
pub mod passwords;
pub mod people;
pub mod plans;
pub mod platform;
pub mod policy;
pub mod portfolios;
pub mod reports;
pub mod search;
pub mod semantic;
pub mod sentiment;
pub mod sessions;
pub mod sources;
pub mod sql;
pub mod storage;
pub mod summaries;
pub mod tables;
pub mod tags;
pub mod uploads;
pub mod viewer;
pub mod websites;
pub mod whatsapp;

pub use context::{Context, Settings};
pub use error::{Error, Kind, Result};
pub use viewer::{Origin, Viewer};
