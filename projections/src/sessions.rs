//! `sessions_view`: which sign-in sessions are live. A token is honoured only while its session
//! is here, unexpired and unrevoked, or revoked by rotation no longer ago than the grace period.
//!
//! A rotation is recorded once with its time, which never moves (a session rotated again within
//! its grace records nothing new); a sign-out overrides it, so the session ends at once.

use async_trait::async_trait;
use commands::args;
use commands::feed::StoredEvent;
use commands::store::Tx;
use cqrs_es::Aggregate;
use domain::session::{RevokeReason, Session, SessionEvent};

use crate::runner::Projection;

pub struct Sessions;

#[async_trait]
impl Projection for Sessions {
    fn name(&self) -> &'static str {
        "sessions"
    }

    fn tables(&self) -> &'static [&'static str] {
        &["sessions_view"]
    }

    fn reads(&self) -> &'static [&'static str] {
        &[Session::TYPE]
    }

    async fn apply(&self, tx: &mut Tx, event: &StoredEvent) -> anyhow::Result<()> {
        let id = event.aggregate_id.as_str();
        let time = event.time().to_string();
        match event.decode::<SessionEvent>()? {
            SessionEvent::SessionStarted { user_id, expires_at, rotated_from } => {
                tx.write(
                    "INSERT INTO sessions_view (session_id, user_id, started_at, expires_at, rotated_from) \
                     VALUES ($1, $2, $3, $4, $5)",
                    args![id, user_id, time, expires_at.to_rfc3339(), rotated_from],
                )
                .await?;
            }
            SessionEvent::SessionRevoked { reason, at, .. } => {
                // The event's own time where it has one (the grace is measured from it), else
                // the time it was recorded.
                let at = at.map(|at| at.to_rfc3339_opts(chrono::SecondsFormat::AutoSi, true)).unwrap_or(time);
                let sql = match reason {
                    RevokeReason::SignedOut => {
                        "UPDATE sessions_view SET revoked_at = $2, revoked_reason = $3 WHERE session_id = $1"
                    }
                    RevokeReason::Rotated => {
                        "UPDATE sessions_view SET revoked_at = $2, revoked_reason = $3 \
                         WHERE session_id = $1 AND revoked_at IS NULL"
                    }
                };
                tx.write(sql, args![id, at, reason.as_str()]).await?;
            }
        }
        Ok(())
    }
}
