//! `app_connections_view`: each user's connected apps as the apps page shows them (server or
//! folder address, account, mail folders, how many documents came in, whether the last sync
//! failed and why); `app_sync_jobs`: a row per connection for the sync worker, due at once when
//! it is connected; `drive_files`, the worker's note of the folder's files, goes with its
//! connection. An erased person's connections go.

use async_trait::async_trait;
use commands::args;
use commands::feed::StoredEvent;
use commands::store::Tx;
use cqrs_es::Aggregate;
use domain::connection::{Connection, ConnectionEvent, MailSecurity, DRIVE_APP, MAIL_APP};
use domain::user::User;

use crate::runner::Projection;

pub struct Connections;

fn security(security: MailSecurity) -> &'static str {
    match security {
        MailSecurity::Tls => "tls",
        MailSecurity::StartTls => "start_tls",
        MailSecurity::Plain => "plain",
    }
}

#[async_trait]
impl Projection for Connections {
    fn name(&self) -> &'static str {
        "connections"
    }

    fn tables(&self) -> &'static [&'static str] {
        &["app_connections_view", "app_sync_jobs", "drive_files"]
    }

    fn reads(&self) -> &'static [&'static str] {
        &[User::TYPE, Connection::TYPE]
    }

    async fn apply(&self, tx: &mut Tx, event: &StoredEvent) -> anyhow::Result<()> {
        if event.aggregate_type == User::TYPE && event.event_type == "UserErased" {
            // An erased person's mailbox is read no more, and its account name goes with it.
            let user_id = event.aggregate_id.as_str();
            tx.write(
                "DELETE FROM app_sync_jobs WHERE connection_id IN \
                 (SELECT connection_id FROM app_connections_view WHERE user_id = $1)",
                args![user_id],
            )
            .await?;
            tx.write("DELETE FROM app_connections_view WHERE user_id = $1", args![user_id]).await?;
            return Ok(());
        }
        if event.aggregate_type != Connection::TYPE {
            return Ok(());
        }
        let id = event.aggregate_id.as_str();
        let at = event.time().to_string();
        match event.decode::<ConnectionEvent>()? {
            ConnectionEvent::MailConnected { user_id, host, port, security: kind, username, folders, .. } => {
                // A reconnection with other details replaces them; the count of what came in
                // stays with the connection.
                tx.write(
                    "INSERT INTO app_connections_view (connection_id, user_id, app, host, port, security, username, \
                     folders, connected_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9) \
                     ON CONFLICT (connection_id) DO UPDATE SET host = $4, port = $5, security = $6, username = $7, \
                     folders = $8, last_error = NULL, credentials_refused = 0, updated_at = $9",
                    args![
                        id,
                        user_id,
                        MAIL_APP,
                        host,
                        i64::from(port),
                        security(kind),
                        username,
                        serde_json::to_string(&folders)?,
                        at.as_str()
                    ],
                )
                .await?;
                due_now(tx, id, &at).await?;
            }
            ConnectionEvent::DriveConnected { user_id, url, username, .. } => {
                let parsed = url::Url::parse(&url).ok();
                let host = parsed.as_ref().and_then(|u| u.host_str().map(str::to_string)).unwrap_or_default();
                let port = parsed.as_ref().and_then(url::Url::port_or_known_default).unwrap_or(0);
                let kind = if parsed.as_ref().is_some_and(|u| u.scheme() == "https") { "tls" } else { "plain" };
                tx.write(
                    "INSERT INTO app_connections_view (connection_id, user_id, app, host, port, security, username, \
                     url, folders, connected_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, '[]', $9, $9) \
                     ON CONFLICT (connection_id) DO UPDATE SET host = $4, port = $5, security = $6, username = $7, \
                     url = $8, last_error = NULL, credentials_refused = 0, updated_at = $9",
                    args![id, user_id, DRIVE_APP, host, i64::from(port), kind, username, url, at.as_str()],
                )
                .await?;
                due_now(tx, id, &at).await?;
            }

            ConnectionEvent::FoldersChosen { folders, .. } => {
                tx.write(
                    "UPDATE app_connections_view SET folders = $2, updated_at = $3 WHERE connection_id = $1",
                    args![id, serde_json::to_string(&folders)?, at.as_str()],
                )
                .await?;
                tx.write("UPDATE app_sync_jobs SET next_at = $2 WHERE connection_id = $1", args![id, at.as_str()])
                    .await?;
            }
            ConnectionEvent::MailFolderSynced { imported, .. } | ConnectionEvent::DriveSynced { imported, .. } => {
                tx.write(
                    "UPDATE app_connections_view SET imported = imported + $2, last_error = NULL, \
                     credentials_refused = 0, last_synced_at = $3, updated_at = $3 WHERE connection_id = $1",
                    args![id, i64::from(imported), at.as_str()],
                )
                .await?;
            }
            ConnectionEvent::SyncFailed { reason, credentials_refused, .. } => {
                tx.write(
                    "UPDATE app_connections_view SET last_error = $2, credentials_refused = $3, updated_at = $4 \
                     WHERE connection_id = $1",
                    args![id, reason, i64::from(credentials_refused), at.as_str()],
                )
                .await?;
            }
            ConnectionEvent::AppDisconnected { .. } => {
                tx.write("DELETE FROM app_connections_view WHERE connection_id = $1", args![id]).await?;
                tx.write("DELETE FROM app_sync_jobs WHERE connection_id = $1", args![id]).await?;
                tx.write("DELETE FROM drive_files WHERE connection_id = $1", args![id]).await?;
            }
        }
        Ok(())
    }
}

/// Makes the connection due for a sync at `at` (its connection or a change of what it reads).
async fn due_now(tx: &mut Tx, id: &str, at: &str) -> anyhow::Result<()> {
    tx.write(
        "INSERT INTO app_sync_jobs (connection_id, next_at) VALUES ($1, $2) \
         ON CONFLICT (connection_id) DO UPDATE SET next_at = $2",
        args![id, at],
    )
    .await?;
    Ok(())
}
