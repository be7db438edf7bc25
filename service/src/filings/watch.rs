//! Which followed companies filed something: EDGAR's latest-filings feed, read every
//! `--edgar-poll-seconds`, makes each followed company it names due at once, so a new filing is
//! read within seconds while each company's own feed is read only at the ordinary interval (a
//! fallback for what the latest 100 filings scroll past at busy times). One request per check
//! for the whole node, however many companies are followed.

use std::sync::Arc;
use std::time::Duration;

use chrono::Utc;
use commands::{args, Db};
use ingest::edgar::current::ciks_in_current_feed;
use ingest::{FetchResponse, FetchState};
use tokio::sync::watch;

use super::Filings;

/// Reads the latest-filings feed every `interval` until shutdown; nothing when EDGAR is off.
pub async fn run(db: Db, filings: Arc<Filings>, interval: Duration, mut shutdown: watch::Receiver<bool>) {
    let Some(edgar) = filings.edgar().cloned() else {
        return;
    };
    let url = edgar.current_filings_url();
    let mut state = FetchState::default();
    loop {
        match edgar.get_if_changed(&url, &state).await {
            Ok(FetchResponse::NotModified) => {}
            Ok(FetchResponse::Fetched(fetched)) => match ciks_in_current_feed(&fetched.body) {
                Ok(ciks) => {
                    state = fetched.state;
                    if let Err(error) = wake(&db, &ciks).await {
                        tracing::warn!(error = %format!("{error:#}"), "followed companies not woken");
                    }
                }
                Err(error) => tracing::info!(%error, "EDGAR's latest filings could not be read"),
            },
            Err(error) => tracing::info!(%error, "EDGAR's latest filings could not be fetched"),
        }
        tokio::select! {
            _ = tokio::time::sleep(interval) => {}
            _ = shutdown.wait_for(|s| *s) => return,
        }
    }
}

/// Makes the followed companies among `ciks` due now (every form set followed of each).
async fn wake(db: &Db, ciks: &std::collections::BTreeSet<u64>) -> anyhow::Result<()> {
    let now = crate::sql::stamp(Utc::now());
    for cik in ciks {
        let prefix = format!("edgar_{cik:010}");
        db.execute(
            "UPDATE source_fetch_state SET next_attempt_at = $2 \
             WHERE substr(source_id, 1, 16) = $1 AND next_attempt_at > $2",
            args![prefix.as_str(), now.as_str()],
        )
        .await?;
    }
    Ok(())
}
