//! The context every use case runs in: storage, the command bus, the read models, the search
//! index, the assistant, the workers' wake-ups and the operator's settings. Cheap to clone.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use commands::feed::Cursor;
use commands::{CommandBus, Db};
use projections::live::LiveHub;
use projections::Projections;

use crate::access::AccessKeys;
use crate::ask::RunningAsks;
use crate::clock::SharedClock;
use crate::storage::Storage;

/// What the operator chose that use cases read (the rest of the configuration is the HTTP
/// server's own).
#[derive(Debug, Clone)]
pub struct Settings {
    /// The organisation's name, shown in the app.
    pub org_name: String,
    /// How long a session lasts.
    pub session_days: u64,
    /// How long a session revoked by rotation keeps working.
    pub session_grace: Duration,
    /// Each user's storage quota, in MiB.
    pub storage_quota_mb: u64,
    /// The largest upload, in MiB.
    pub upload_max_mb: u64,
    /// The address people reach the web app at, without a trailing slash: links in mail start
    /// with it.
    pub public_url: String,
    /// How long a password reset link works, in minutes.
    pub reset_link_minutes: u64,
}

#[derive(Clone)]
pub struct Context {
    pub db: Db,
    pub bus: Arc<CommandBus>,
    pub projections: Projections,
    pub hub: LiveHub,
    pub settings: Arc<Settings>,
    /// The public source catalogue: the built-in entries and the operator's file.
    pub catalogue: Arc<ingest::Catalogue>,
    /// The addresses the fetcher refuses, with the operator's allow-list: read once at start, so
    /// an address can be judged when it is followed.
    pub fetch_guard: Arc<ingest::fetch::AddressGuard>,
    /// SEC EDGAR's client and company list, shared by the use cases and the ingestion loop.
    pub filings: Arc<crate::filings::Filings>,
    /// Document access keys and shared links' keys.
    pub access: Arc<AccessKeys>,
    /// The data directory (blobs, objects, scratch files).
    pub data_dir: PathBuf,
    /// Where uploaded files are kept.
    pub storage: Arc<Storage>,
    /// Extracted text and layouts, beside the uploaded files (see [`crate::blobs`]).
    pub blobs: crate::blobs::BlobStore,
    /// Wakes the upload processor when a transfer completes.
    pub upload_wake: Arc<tokio::sync::Notify>,
    /// Wakes the mail sync worker when a mailbox is connected or a sync is asked for.
    pub apps_wake: Arc<tokio::sync::Notify>,
    /// Wakes the summary worker when a summary is asked for.
    pub summary_wake: Arc<tokio::sync::Notify>,
    /// Wakes the report worker when generation is asked for.
    pub report_wake: Arc<tokio::sync::Notify>,
    /// The search index (a projection of the feed, on disk in the data directory).
    pub search: Arc<search::SearchIndex>,
    /// AskNeedl: retrieval over the search index and the answer engine the model server
    /// setting names (`assistant.current(&db)`).
    pub assistant: Arc<crate::model_server::AssistantSlot>,
    /// The answers being written in this process, so a new question or a stop ends them.
    pub asks: Arc<RunningAsks>,
    /// The offline embedding model and the documents' stored embeddings; `None` when no model
    /// is configured or found (AI feeds' topics then match by keywords).
    pub semantic: Option<Arc<crate::semantic::Semantic>>,
    /// What time it is where token and session expiry and a rotation's grace are judged: the
    /// system clock, or a test's manual one.
    pub clock: SharedClock,
    /// Sends mail (password reset links); `None` offline, where nothing is sent and an
    /// administrator hands links out instead.
    pub mailer: Option<Arc<dyn crate::mail::Mailer>>,
    /// The audit key that signs checkpoints of the event hash chain, and this node's latest
    /// verification of it.
    pub audit: Arc<crate::audit_chain::AuditChain>,
    /// Where users manage what they pay for their plan (`plans::Billing`).
    pub billing: Arc<dyn crate::plans::Billing>,
    /// The organisation's identity provider, when one is configured (`oidc`).
    pub oidc: Option<Arc<crate::oidc::Oidc>>,
    /// How short messages (WhatsApp codes) reach people; offline, the outbox.
    pub messenger: Arc<dyn crate::whatsapp::Messenger>,
}

/// How long a command's answer waits for the read models to include its events, so the next
/// read by the same client sees its own write.
pub const SETTLE_TIMEOUT: Duration = Duration::from_secs(5);

impl Context {
    /// Waits until every read model includes the event at `cursor`.
    pub async fn settle(&self, cursor: Option<Cursor>) {
        if let Some(cursor) = cursor {
            if !self.projections.wait_for(cursor, SETTLE_TIMEOUT).await {
                tracing::warn!(%cursor, "read models did not catch up within the settle timeout");
            }
        }
    }

    /// Runs a command and waits until the read models include its events, so the client's next
    /// read sees its own write. Returns the command's cursor.
    pub async fn command<A>(
        &self,
        framework: &commands::bus::Framework<A>,
        id: &str,
        command: A::Command,
        metadata: &domain::EventMetadata,
    ) -> Result<Option<Cursor>, commands::CommandError<A::Error>>
    where
        A: cqrs_es::Aggregate<Services = ()>,
        A::Command: Clone,
        A::Error: 'static,
    {
        let cursor = self.bus.execute(framework, id, command, metadata).await?;
        self.settle(cursor).await;
        Ok(cursor)
    }

    /// How long a session revoked by rotation keeps working.
    pub fn session_grace(&self) -> Duration {
        self.settings.session_grace
    }
}
