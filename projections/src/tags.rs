//! `tags_view` and `document_tags_view`: each user's tags, and the tags and bookmarks on
//! documents, own or shared in a channel.

use async_trait::async_trait;
use commands::args;
use commands::feed::StoredEvent;
use commands::store::Tx;
use cqrs_es::Aggregate;
use domain::tag::{name_key, DocumentTags, DocumentTagsEvent, TagBook, TagEvent, BOOKMARK_TAG_ID};

use crate::runner::Projection;

pub struct Tags;

/// Returns the scope columns of a tagging: the user's own, or a channel's shared tags.
fn scope<'a>(user_id: &'a str, channel_id: &'a Option<String>) -> (&'static str, &'a str) {
    match channel_id {
        Some(channel) => ("channel", channel.as_str()),
        None => ("user", user_id),
    }
}

#[async_trait]
impl Projection for Tags {
    fn name(&self) -> &'static str {
        "tags"
    }

    fn tables(&self) -> &'static [&'static str] {
        &["tags_view", "document_tags_view"]
    }

    fn reads(&self) -> &'static [&'static str] {
        &[TagBook::TYPE, DocumentTags::TYPE]
    }

    async fn apply(&self, tx: &mut Tx, event: &StoredEvent) -> anyhow::Result<()> {
        let time = event.time().to_string();
        if event.aggregate_type == TagBook::TYPE {
            match event.decode::<TagEvent>()? {
                TagEvent::TagCreated { user_id, tag_id, name } => {
                    tx.write(
                        "INSERT INTO tags_view (tag_id, user_id, name, name_key, created_at, updated_at) \
                         VALUES ($1, $2, $3, $4, $5, $5) ON CONFLICT (tag_id) DO NOTHING",
                        args![tag_id, user_id, name.as_str(), name_key(&name), time],
                    )
                    .await?;
                }
                TagEvent::TagRenamed { tag_id, name, .. } => {
                    tx.write(
                        "UPDATE tags_view SET name = $2, name_key = $3, updated_at = $4 WHERE tag_id = $1",
                        args![tag_id, name.as_str(), name_key(&name), time],
                    )
                    .await?;
                }
                TagEvent::TagDeleted { tag_id, .. } => {
                    // Off every document it was on, the user's own and those shared in channels.
                    tx.write("DELETE FROM document_tags_view WHERE tag_id = $1", args![tag_id.as_str()]).await?;
                    tx.write("DELETE FROM tags_view WHERE tag_id = $1", args![tag_id]).await?;
                }
            }
        } else if event.aggregate_type == DocumentTags::TYPE {
            match event.decode::<DocumentTagsEvent>()? {
                DocumentTagsEvent::DocumentTagged { user_id, deeplink, tag_id, channel_id, feed_id } => {
                    let (kind, id) = scope(&user_id, &channel_id);
                    // A tag deleted before this event reached the feed stays off: its deletion
                    // took it off every document already.
                    tx.write(
                        "INSERT INTO document_tags_view \
                         (scope_kind, scope_id, deeplink, tag_id, tagged_by, feed_id, tagged_at, position) \
                         SELECT $1, $2, $3, $4, $5, $6, $7, $8 \
                         WHERE $4 = $9 OR EXISTS (SELECT 1 FROM tags_view t WHERE t.tag_id = $4) \
                         ON CONFLICT (scope_kind, scope_id, deeplink, tag_id) DO NOTHING",
                        args![
                            kind,
                            id,
                            deeplink.as_str(),
                            tag_id.as_str(),
                            user_id.as_str(),
                            feed_id,
                            time,
                            event.cursor.pos,
                            BOOKMARK_TAG_ID,
                        ],
                    )
                    .await?;
                }
                DocumentTagsEvent::DocumentUntagged { user_id, deeplink, tag_id, channel_id, .. } => {
                    let (kind, id) = scope(&user_id, &channel_id);
                    tx.write(
                        "DELETE FROM document_tags_view \
                         WHERE scope_kind = $1 AND scope_id = $2 AND deeplink = $3 AND tag_id = $4",
                        args![kind, id, deeplink, tag_id],
                    )
                    .await?;
                }
            }
        }
        Ok(())
    }
}
