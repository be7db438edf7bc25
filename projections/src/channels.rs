//! `channels_view`, `channel_members_view`, `channel_boards_view`, `channel_items_view`,
//! `comments_view`, `channel_readers_view` and `comment_reads_view`: channels with their members,
//! feeds and shared documents, the comments on those documents, and each member's starred status
//! and last visits. Also who may see a channel's live events ([`audience`]).

use std::collections::HashSet;

use async_trait::async_trait;
use commands::args;
use commands::feed::StoredEvent;
use commands::personal;
use commands::store::{Db, Tx};
use cqrs_es::Aggregate;
use domain::channel::{name_key, Channel, ChannelDirectory, ChannelEvent, ChannelReader, DirectoryEvent, ReaderEvent};
use domain::channel_document::{ChannelDocument, ChannelDocumentEvent};
use domain::user::User;

use crate::runner::Projection;

pub struct Channels;

#[async_trait]
impl Projection for Channels {
    fn name(&self) -> &'static str {
        "channels"
    }

    fn tables(&self) -> &'static [&'static str] {
        &[
            "channels_view",
            "channel_members_view",
            "channel_boards_view",
            "channel_items_view",
            "comments_view",
            "channel_readers_view",
            "comment_reads_view",
        ]
    }

    fn reads(&self) -> &'static [&'static str] {
        &[ChannelDirectory::TYPE, Channel::TYPE, ChannelDocument::TYPE, ChannelReader::TYPE, User::TYPE]
    }

    async fn apply(&self, tx: &mut Tx, event: &StoredEvent) -> anyhow::Result<()> {
        let time = event.time().to_string();
        let position = event.cursor.pos;
        if event.aggregate_type == ChannelDirectory::TYPE {
            // A reservation precedes its channel's creation, which records the name.
            if let DirectoryEvent::ChannelRenamed { channel_id, name, .. } = event.decode()? {
                tx.write(
                    "UPDATE channels_view SET name = $2, name_key = $3, updated_at = $4 WHERE channel_id = $1",
                    args![channel_id, name.as_str(), name_key(&name), time],
                )
                .await?;
            }
        } else if event.aggregate_type == Channel::TYPE {
            apply_channel(tx, event.decode()?, &time, position).await?;
        } else if event.aggregate_type == ChannelDocument::TYPE {
            apply_document(tx, event.decode()?, &time, position).await?;
        } else if event.aggregate_type == ChannelReader::TYPE {
            apply_reader(tx, event.decode()?).await?;
        } else if event.aggregate_type == User::TYPE && event.event_type == "UserErased" {
            // The erased person's comments stay in their threads, their text as a rebuild
            // reads it once the key is gone.
            tx.write(
                "UPDATE comments_view SET text = $2 WHERE author = $1",
                args![event.aggregate_id.as_str(), personal::ERASED_TEXT],
            )
            .await?;
        }
        Ok(())
    }
}

/// Moves a channel's `updated_at`.
async fn touch(tx: &mut Tx, channel_id: &str, time: &str) -> anyhow::Result<()> {
    tx.write("UPDATE channels_view SET updated_at = $2 WHERE channel_id = $1", args![channel_id, time]).await?;
    Ok(())
}

async fn apply_channel(tx: &mut Tx, event: ChannelEvent, time: &str, position: i64) -> anyhow::Result<()> {
    match event {
        ChannelEvent::ChannelCreated { channel_id, name, created_by, organization_id, published } => {
            tx.write(
                "INSERT INTO channels_view (channel_id, organization_id, name, name_key, published, created_by, \
                 created_at, updated_at, position) VALUES ($1, $2, $3, $4, $5, $6, $7, $7, $8) \
                 ON CONFLICT (channel_id) DO NOTHING",
                args![
                    channel_id,
                    organization_id,
                    name.as_str(),
                    name_key(&name),
                    published,
                    created_by,
                    time,
                    position
                ],
            )
            .await?;
        }
        ChannelEvent::ChannelPublished { channel_id, .. } => {
            tx.write(
                "UPDATE channels_view SET published = $2, updated_at = $3 WHERE channel_id = $1",
                args![channel_id, true, time],
            )
            .await?;
        }
        ChannelEvent::ChannelUnpublished { channel_id, .. } => {
            tx.write(
                "UPDATE channels_view SET published = $2, updated_at = $3 WHERE channel_id = $1",
                args![channel_id, false, time],
            )
            .await?;
        }
        ChannelEvent::MemberAdded { channel_id, user_id, role, added_by } => {
            tx.write(
                "INSERT INTO channel_members_view (channel_id, user_id, role, added_by, added_at) \
                 VALUES ($1, $2, $3, $4, $5) ON CONFLICT (channel_id, user_id) DO UPDATE SET role = excluded.role",
                args![channel_id.as_str(), user_id, role.as_str(), added_by, time],
            )
            .await?;
            touch(tx, &channel_id, time).await?;
        }
        ChannelEvent::MemberRoleChanged { channel_id, user_id, role, .. } => {
            tx.write(
                "UPDATE channel_members_view SET role = $3 WHERE channel_id = $1 AND user_id = $2",
                args![channel_id.as_str(), user_id, role.as_str()],
            )
            .await?;
            touch(tx, &channel_id, time).await?;
        }
        ChannelEvent::MemberRemoved { channel_id, user_id, .. } => {
            tx.write(
                "DELETE FROM channel_members_view WHERE channel_id = $1 AND user_id = $2",
                args![channel_id.as_str(), user_id],
            )
            .await?;
            touch(tx, &channel_id, time).await?;
        }
        ChannelEvent::BoardShared { channel_id, board_id, definition, shared_by } => {
            let json = serde_json::to_string(&definition)?;
            tx.write(
                "INSERT INTO channel_boards_view (channel_id, board_id, name, definition, shared_by, created_at, \
                 updated_at, position) VALUES ($1, $2, $3, $4, $5, $6, $6, $7) \
                 ON CONFLICT (channel_id, board_id) DO UPDATE SET name = excluded.name, \
                 definition = excluded.definition, updated_at = excluded.updated_at",
                args![channel_id.as_str(), board_id, definition.name, json, shared_by, time, position],
            )
            .await?;
            touch(tx, &channel_id, time).await?;
        }
        ChannelEvent::BoardUnshared { channel_id, board_id, .. } => {
            tx.write(
                "DELETE FROM channel_boards_view WHERE channel_id = $1 AND board_id = $2",
                args![channel_id.as_str(), board_id],
            )
            .await?;
            touch(tx, &channel_id, time).await?;
        }
    }
    Ok(())
}

async fn apply_document(tx: &mut Tx, event: ChannelDocumentEvent, time: &str, position: i64) -> anyhow::Result<()> {
    match event {
        ChannelDocumentEvent::DocumentShared { channel_id, deeplink, shared_by } => {
            tx.write(
                "INSERT INTO channel_items_view (channel_id, deeplink, shared_by, shared_at, position) \
                 VALUES ($1, $2, $3, $4, $5) ON CONFLICT (channel_id, deeplink) DO NOTHING",
                args![channel_id, deeplink, shared_by, time, position],
            )
            .await?;
        }
        ChannelDocumentEvent::DocumentUnshared { channel_id, deeplink, .. } => {
            tx.write(
                "DELETE FROM channel_items_view WHERE channel_id = $1 AND deeplink = $2",
                args![channel_id, deeplink],
            )
            .await?;
        }
        ChannelDocumentEvent::CommentAdded { channel_id, deeplink, comment_id, author, text, mentioned } => {
            tx.write(
                "INSERT INTO comments_view (comment_id, channel_id, deeplink, author, text, mentioned, created_at, \
                 position) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (comment_id) DO NOTHING",
                args![
                    comment_id,
                    channel_id,
                    deeplink,
                    author,
                    text,
                    serde_json::to_string(&mentioned)?,
                    time,
                    position
                ],
            )
            .await?;
        }
        ChannelDocumentEvent::CommentEdited { comment_id, text, mentioned, .. } => {
            tx.write(
                "UPDATE comments_view SET text = $2, mentioned = $3, edited_at = $4 WHERE comment_id = $1",
                args![comment_id, text, serde_json::to_string(&mentioned)?, time],
            )
            .await?;
        }
        ChannelDocumentEvent::CommentDeleted { comment_id, .. } => {
            tx.write("DELETE FROM comments_view WHERE comment_id = $1", args![comment_id]).await?;
        }
    }
    Ok(())
}

async fn apply_reader(tx: &mut Tx, event: ReaderEvent) -> anyhow::Result<()> {
    let (channel_id, user_id, starred) = match event {
        ReaderEvent::ChannelStarred { channel_id, user_id } => (channel_id, user_id, true),
        ReaderEvent::ChannelUnstarred { channel_id, user_id } => (channel_id, user_id, false),
        ReaderEvent::ChannelSeen { channel_id, user_id, at } => {
            tx.write(
                "INSERT INTO channel_readers_view (channel_id, user_id, seen_at) VALUES ($1, $2, $3) \
                 ON CONFLICT (channel_id, user_id) DO UPDATE SET seen_at = excluded.seen_at",
                args![channel_id, user_id, at],
            )
            .await?;
            return Ok(());
        }
        ReaderEvent::CommentsSeen { channel_id, user_id, deeplink, at } => {
            tx.write(
                "INSERT INTO comment_reads_view (channel_id, user_id, deeplink, seen_at) VALUES ($1, $2, $3, $4) \
                 ON CONFLICT (channel_id, user_id, deeplink) DO UPDATE SET seen_at = excluded.seen_at",
                args![channel_id, user_id, deeplink, at],
            )
            .await?;
            return Ok(());
        }
    };
    tx.write(
        "INSERT INTO channel_readers_view (channel_id, user_id, starred) VALUES ($1, $2, $3) \
         ON CONFLICT (channel_id, user_id) DO UPDATE SET starred = excluded.starred",
        args![channel_id, user_id, starred],
    )
    .await?;
    Ok(())
}

/// Who may see a channel's events: its members, or everyone in the organisation when it is
/// published.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChannelAudience {
    Everyone,
    Members(HashSet<String>),
}

#[derive(sqlx::FromRow)]
struct AudienceRow {
    published: bool,
    user_id: Option<String>,
}

/// Reads who may see channel `channel_id`'s events now, in one indexed query. A channel not in
/// the view (yet, or never) has no audience.
pub async fn audience(db: &Db, channel_id: &str) -> sqlx::Result<ChannelAudience> {
    let rows: Vec<AudienceRow> = db
        .fetch_all(
            "SELECT c.published, m.user_id FROM channels_view c \
             LEFT JOIN channel_members_view m ON m.channel_id = c.channel_id WHERE c.channel_id = $1",
            args![channel_id],
        )
        .await?;
    if rows.first().is_some_and(|r| r.published) {
        return Ok(ChannelAudience::Everyone);
    }
    Ok(ChannelAudience::Members(rows.into_iter().filter_map(|r| r.user_id).collect()))
}
