//! The event hash chain as auditors see it: whether it holds, a full verification on demand, and
//! signed checkpoints (taken on request, and by [`run_checkpoints`] every so many events). The
//! chain itself is written by the database with each event; see [`commands::chain`].

use std::collections::BTreeMap;
use std::time::Duration;

use chrono::{DateTime, Utc};
use commands::chain::{self, AuditKey, Break, Checkpoint, Point, Verification};
use serde::Serialize;
use tokio::sync::{watch, Mutex};

use crate::audit::{format_time, require_auditor};
use crate::context::Context;
use crate::error::{Error, Result};
use crate::viewer::Viewer;

/// How many checkpoints a status lists.
const LISTED_CHECKPOINTS: i64 = 20;

/// The instance's audit key and this node's latest verification.
pub struct AuditChain {
    key: AuditKey,
    /// A checkpoint is taken once the head is this many events past the last one (0: never).
    checkpoint_every: i64,
    last: Mutex<Option<Checked>>,
}

#[derive(Clone)]
struct Checked {
    verification: Verification,
    at: DateTime<Utc>,
}

impl AuditChain {
    pub fn new(key: AuditKey, checkpoint_every: i64) -> Self {
        Self { key, checkpoint_every, last: Mutex::new(None) }
    }

    pub fn public_key(&self) -> String {
        self.key.public_hex()
    }
}

/// The chain's state as last verified, for the auditor's view.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ChainStatus {
    /// `intact`, `broken`, or `empty` (no events yet).
    pub status: &'static str,
    /// Events whose hashes were recomputed (since the first verification on this node).
    pub events_checked: u64,
    /// The newest position and hash.
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Object>))]
    pub head: Option<Point>,
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Object>))]
    pub verified_through: Option<Point>,
    /// Where the chain breaks and why.
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Object>))]
    pub first_break: Option<Break>,
    /// When the walk ended (RFC 3339).
    pub verified_at: String,
    /// The newest recorded checkpoints.
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<Object>))]
    pub checkpoints: Vec<Checkpoint>,
    /// The key this instance signs checkpoints with (hex Ed25519).
    pub public_key: String,
}

async fn status_of(ctx: &Context, checked: &Checked) -> Result<ChainStatus> {
    let v = &checked.verification;
    let status = match (&v.first_break, &v.head) {
        (Some(_), _) => "broken",
        (None, None) => "empty",
        (None, Some(_)) => "intact",
    };
    Ok(ChainStatus {
        status,
        events_checked: v.events_checked,
        head: v.head.clone(),
        verified_through: v.verified_through.clone(),
        first_break: v.first_break.clone(),
        verified_at: format_time(checked.at),
        checkpoints: chain::checkpoints(&ctx.db, LISTED_CHECKPOINTS).await?,
        public_key: ctx.audit.public_key(),
    })
}

/// Verifies the whole chain against every recorded checkpoint; a checkpoint whose signature does
/// not hold is itself a break.
pub async fn verify_all(ctx: &Context) -> Result<Verification> {
    // Events committed but not chained yet (Postgres chains just after commit) are chained first.
    chain::advance(&ctx.db).await?;
    let recorded = chain::checkpoints(&ctx.db, i64::MAX).await?;
    if let Some(forged) = recorded.iter().rev().find(|c| !c.signature_holds()) {
        return Ok(Verification {
            events_checked: 0,
            head: chain::head(&ctx.db).await?,
            verified_through: None,
            first_break: Some(Break {
                position: forged.position,
                reason: format!("the checkpoint at position {} does not carry a valid signature", forged.position),
            }),
        });
    }
    let anchors: BTreeMap<i64, String> = recorded.into_iter().map(|c| (c.position, c.hash)).collect();
    Ok(chain::verify(&ctx.db, None, &anchors).await?)
}

/// The chain's status: the first call on a node verifies it all; later calls go on from where
/// the last intact walk ended (a broken chain is walked again in full, to see whether it was
/// repaired). `POST /audit/chain/verify` walks it all again.
pub async fn status(ctx: &Context, viewer: &Viewer) -> Result<ChainStatus> {
    require_auditor(viewer)?;
    let mut last = ctx.audit.last.lock().await;
    let checked = match last.as_ref() {
        Some(previous) if previous.verification.intact() => {
            let from = previous.verification.verified_through.as_ref().map_or(1, |p| p.position + 1);
            chain::advance(&ctx.db).await?;
            let more = chain::verify(&ctx.db, Some(from), &BTreeMap::new()).await?;
            Checked {
                verification: Verification {
                    events_checked: previous.verification.events_checked + more.events_checked,
                    verified_through: more.verified_through.or_else(|| previous.verification.verified_through.clone()),
                    ..more
                },
                at: ctx.clock.now(),
            }
        }
        _ => Checked { verification: verify_all(ctx).await?, at: ctx.clock.now() },
    };
    *last = Some(checked.clone());
    drop(last);
    status_of(ctx, &checked).await
}

/// Verifies the whole chain now.
pub async fn verify(ctx: &Context, viewer: &Viewer) -> Result<ChainStatus> {
    require_auditor(viewer)?;
    let checked = Checked { verification: verify_all(ctx).await?, at: ctx.clock.now() };
    *ctx.audit.last.lock().await = Some(checked.clone());
    status_of(ctx, &checked).await
}

/// Signs the chain's head as it stands and records the checkpoint.
pub async fn create_checkpoint(ctx: &Context, viewer: &Viewer) -> Result<Checkpoint> {
    require_auditor(viewer)?;
    chain::advance(&ctx.db).await?;
    chain::checkpoint(&ctx.db, &ctx.audit.key, ctx.clock.now())
        .await?
        .ok_or_else(|| Error::conflict("no_events", "there are no events to take a checkpoint of yet"))
}

/// The recorded checkpoints, newest first.
pub async fn checkpoints(ctx: &Context, viewer: &Viewer) -> Result<Vec<Checkpoint>> {
    require_auditor(viewer)?;
    Ok(chain::checkpoints(&ctx.db, i64::MAX).await?)
}

/// Takes a checkpoint whenever the head has moved `checkpoint_every` events past the last one,
/// looking once a minute, until shutdown.
pub async fn run_checkpoints(ctx: Context, mut shutdown: watch::Receiver<bool>) {
    if ctx.audit.checkpoint_every <= 0 {
        return;
    }
    loop {
        if let Err(error) = checkpoint_if_due(&ctx).await {
            tracing::warn!(error = %error, "taking an audit checkpoint failed");
        }
        tokio::select! {
            _ = tokio::time::sleep(Duration::from_secs(60)) => {}
            _ = shutdown.changed() => return,
        }
    }
}

async fn checkpoint_if_due(ctx: &Context) -> Result<()> {
    let Some(head) = chain::head(&ctx.db).await? else {
        return Ok(());
    };
    let last = chain::checkpoints(&ctx.db, 1).await?.first().map_or(0, |c| c.position);
    if head.position - last >= ctx.audit.checkpoint_every {
        if let Some(checkpoint) = chain::checkpoint(&ctx.db, &ctx.audit.key, ctx.clock.now()).await? {
            tracing::info!(position = checkpoint.position, hash = %checkpoint.hash, "audit checkpoint taken");
        }
    }
    Ok(())
}
