//! Sources, follows, documents and read marks: what a user's feeds are made of.

use async_trait::async_trait;
use commands::args;
use commands::feed::StoredEvent;
use commands::store::Tx;
use cqrs_es::Aggregate;
use domain::document::{Document, DocumentEvent, DocumentFields, ReadMark, ReadMarkEvent};
use domain::source::{Priority, Source, SourceEvent, SourceKind, Subscription, SubscriptionEvent};

use crate::runner::Projection;

fn text<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_value(value).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default()
}

/// `sources_view` and `subscriptions_view`.
pub struct Sources;

#[async_trait]
impl Projection for Sources {
    fn name(&self) -> &'static str {
        "sources"
    }

    fn tables(&self) -> &'static [&'static str] {
        &["sources_view", "subscriptions_view"]
    }

    fn reads(&self) -> &'static [&'static str] {
        &[Source::TYPE, Subscription::TYPE]
    }

    async fn apply(&self, tx: &mut Tx, event: &StoredEvent) -> anyhow::Result<()> {
        let time = event.time().to_string();
        if event.aggregate_type == Source::TYPE {
            let (kind, key, url, label) = match event.decode()? {
                SourceEvent::SourceRegistered { kind, key, url, label, .. } => (kind, key, url, label),
                SourceEvent::SourceRenamed { label, .. } => {
                    tx.write(
                        "UPDATE sources_view SET label = $2 WHERE source_id = $1",
                        args![event.aggregate_id.as_str(), label],
                    )
                    .await?;
                    return Ok(());
                }
            };
            let kind: SourceKind = kind;
            // Feeds, websites, and catalogue entries that name a feed.
            let fetchable = url.is_some() || matches!(kind, SourceKind::Rss | SourceKind::Website);
            tx.write(
                "INSERT INTO sources_view (source_id, kind, key, url, label, created_at) VALUES ($1, $2, $3, $4, $5, $6) \
                 ON CONFLICT (source_id) DO NOTHING",
                args![event.aggregate_id.as_str(), text(&kind), key, url, label, time.as_str()],
            )
            .await?;
            if fetchable {
                // Fetch bookkeeping is not part of this read model (a rebuild keeps it); the row
                // only has to exist, due at once.
                tx.write(
                    "INSERT INTO source_fetch_state (source_id, next_attempt_at) VALUES ($1, $2) \
                     ON CONFLICT (source_id) DO NOTHING",
                    args![event.aggregate_id.as_str(), time],
                )
                .await?;
            }
        } else if event.aggregate_type == Subscription::TYPE {
            match event.decode::<SubscriptionEvent>()? {
                SubscriptionEvent::SourceFollowed { user_id, source_id, priority } => {
                    let priority: Priority = priority;
                    tx.write(
                        "INSERT INTO subscriptions_view (user_id, source_id, priority, followed_at) VALUES ($1, $2, $3, $4) \
                         ON CONFLICT (user_id, source_id) DO UPDATE SET priority = excluded.priority, followed_at = excluded.followed_at",
                        args![user_id, source_id, text(&priority), time],
                    )
                    .await?;
                }
                SubscriptionEvent::SourceUnfollowed { user_id, source_id } => {
                    tx.write(
                        "DELETE FROM subscriptions_view WHERE user_id = $1 AND source_id = $2",
                        args![user_id, source_id],
                    )
                    .await?;
                }
                SubscriptionEvent::SourcePriorityChanged { user_id, source_id, priority } => {
                    tx.write(
                        "UPDATE subscriptions_view SET priority = $3 WHERE user_id = $1 AND source_id = $2",
                        args![user_id, source_id, text(&priority)],
                    )
                    .await?;
                }
                SubscriptionEvent::SourceFetchRequested { source_id, .. } => {
                    // Due now, unless it already is; the failures count stays, so a source that
                    // still fails backs off as before. On a rebuild this only makes a source due.
                    tx.write(
                        "UPDATE source_fetch_state SET next_attempt_at = $2 WHERE source_id = $1 AND next_attempt_at > $2",
                        args![source_id, time.as_str()],
                    )
                    .await?;
                }
            }
        }
        Ok(())
    }
}

/// `documents_view` and `read_marks_view`.
pub struct Documents;

async fn upsert_document(tx: &mut Tx, deeplink: &str, fields: DocumentFields, time: String) -> anyhow::Result<()> {
    let metadata = serde_json::to_string(&fields.metadata)?;
    tx.write(
        "INSERT INTO documents_view (deeplink, source_id, guid, link, title, author, published_at, summary, \
         content_hash, owner, metadata, ingested_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12) \
         ON CONFLICT (deeplink) DO UPDATE SET source_id = excluded.source_id, guid = excluded.guid, \
         link = excluded.link, title = excluded.title, author = excluded.author, \
         published_at = excluded.published_at, summary = excluded.summary, \
         content_hash = excluded.content_hash, owner = excluded.owner, metadata = excluded.metadata, \
         updated_at = excluded.updated_at",
        args![
            deeplink,
            fields.source_id,
            fields.guid,
            fields.link,
            fields.title,
            fields.author,
            fields.published_at.map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)),
            fields.summary,
            fields.content_hash,
            fields.owner,
            metadata,
            time,
        ],
    )
    .await?;
    Ok(())
}

#[async_trait]
impl Projection for Documents {
    fn name(&self) -> &'static str {
        "documents"
    }

    fn tables(&self) -> &'static [&'static str] {
        &["documents_view", "read_marks_view"]
    }

    fn reads(&self) -> &'static [&'static str] {
        &[Document::TYPE, ReadMark::TYPE]
    }

    async fn apply(&self, tx: &mut Tx, event: &StoredEvent) -> anyhow::Result<()> {
        let time = event.time().to_string();
        let id = event.aggregate_id.as_str();
        if event.aggregate_type == Document::TYPE {
            match event.decode::<DocumentEvent>()? {
                DocumentEvent::DocumentIngested(fields) | DocumentEvent::DocumentUpdated(fields) => {
                    upsert_document(tx, id, fields, time).await?;
                }
                DocumentEvent::DocumentShared { .. } => {}
                DocumentEvent::DocumentDeleted { .. } => {
                    tx.write("DELETE FROM documents_view WHERE deeplink = $1", args![id]).await?;
                    tx.write("DELETE FROM read_marks_view WHERE deeplink = $1", args![id]).await?;
                }
            }
        } else if event.aggregate_type == ReadMark::TYPE {
            match event.decode::<ReadMarkEvent>()? {
                ReadMarkEvent::DocumentMarkedRead { user_id, deeplink } => {
                    tx.write(
                        "INSERT INTO read_marks_view (user_id, deeplink, read_at) VALUES ($1, $2, $3) \
                         ON CONFLICT (user_id, deeplink) DO UPDATE SET read_at = excluded.read_at",
                        args![user_id, deeplink, time],
                    )
                    .await?;
                }
                ReadMarkEvent::DocumentMarkedUnread { user_id, deeplink } => {
                    tx.write(
                        "DELETE FROM read_marks_view WHERE user_id = $1 AND deeplink = $2",
                        args![user_id, deeplink],
                    )
                    .await?;
                }
            }
        }
        Ok(())
    }
}
