//! `sessions_view`: which sign-in sessions are live. A token is honoured only while its session
//! is here, unexpired and unrevoked.

use async_trait::async_trait;
use commands::args;
use commands::feed::StoredEvent;
use commands::store::Tx;
use cqrs_es::Aggregate;
use domain::session::{Session, SessionEvent};

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

    async fn apply(&self, tx: &mut Tx, event: &StoredEvent) -> anyhow::Result<()> {
        if event.aggregate_type != Session::TYPE {
            return Ok(());
        }
        let id = event.aggregate_id.as_str();
        let time = event.metadata["time"].as_str().unwrap_or(&event.recorded_at).to_string();
        match serde_json::from_value::<SessionEvent>(event.payload.clone())? {
            SessionEvent::SessionStarted { user_id, expires_at, .. } => {
                tx.execute(
                    "INSERT INTO sessions_view (session_id, user_id, started_at, expires_at) \
                     VALUES ($1, $2, $3, $4)",
                    args![id, user_id, time, expires_at.to_rfc3339()],
                )
                .await?;
            }
            SessionEvent::SessionRevoked { .. } => {
                tx.execute("UPDATE sessions_view SET revoked_at = $2 WHERE session_id = $1", args![id, time]).await?;
            }
        }
        Ok(())
    }
}
