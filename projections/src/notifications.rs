//! `notifications_view`: each user's notifications, made from what happened.
//!
//! - A comment that mentions members: a `mention` for each of them (an edit, for those it newly
//!   mentions).
//! - A comment on an item of a channel: a `comment` for everyone who follows the item there (who
//!   shared it into the channel, and who commented on it before), unless the comment mentions
//!   them (they have the mention) or they wrote it.
//! - A new item in a source: a `source_item` for everyone who set the source to priority HIGH.
//! - A document summary written: a `summary_ready` for whoever asked for it.
//!
//! Only members of a channel are notified of it (everyone who follows an item, for a channel
//! published to the organisation); a removed member stops following its items. Who is a member,
//! who follows what and who watches which source are kept in this projection's own tables, built
//! from the same events, so a rebuild decides exactly as the first run did. A deleted comment's
//! notifications go with it. Read marks come from each user's `notification_inbox`.
//!
//! The live hub asks [`recipients`] who an event notified, and pushes them a
//! `NotificationCreated` of their own.

use std::collections::{BTreeSet, HashSet};

use async_trait::async_trait;
use commands::args;
use commands::feed::StoredEvent;
use commands::personal;
use commands::store::{Db, Tx};
use cqrs_es::Aggregate;
use domain::board::{Alerts, MatchDay, MatchDayEvent};
use domain::channel::{Channel, ChannelEvent};
use domain::channel_document::{ChannelDocument, ChannelDocumentEvent};
use domain::document::{Document, DocumentEvent};
use domain::notification::{notification_id, InboxEvent, NotificationInbox, NotificationKind};
use domain::source::{Priority, Subscription, SubscriptionEvent};
use domain::summary::{Summary, SummaryEvent};
use domain::user::User;

use crate::runner::Projection;

/// The longest excerpt a notification keeps, in characters.
pub const EXCERPT_CHARS: usize = 200;

pub struct Notifications;

/// Returns whether an event of this type may notify someone: the live hub looks up recipients
/// only for these.
pub fn may_notify(event: &StoredEvent) -> bool {
    matches!(
        (event.aggregate_type.as_str(), event.event_type.as_str()),
        ("channel_document", "CommentAdded" | "CommentEdited")
            | ("document", "DocumentIngested")
            | ("board_match_day", "BoardMatched" | "BoardDigestSent")
            | ("document_summary", "SummaryCompleted")
    )
}

#[derive(sqlx::FromRow)]
struct UserRow {
    user_id: String,
}

/// Returns who the event at feed position `position` notified.
pub async fn recipients(db: &Db, position: i64) -> sqlx::Result<HashSet<String>> {
    let rows: Vec<UserRow> =
        db.fetch_all("SELECT user_id FROM notifications_view WHERE position = $1", args![position]).await?;
    Ok(rows.into_iter().map(|r| r.user_id).collect())
}

/// Returns `text` cut to at most [`EXCERPT_CHARS`] characters, with an ellipsis when cut.
fn excerpt(text: &str) -> String {
    let text = text.trim();
    if text.chars().count() <= EXCERPT_CHARS {
        return text.to_string();
    }
    let cut: String = text.chars().take(EXCERPT_CHARS - 1).collect();
    format!("{}…", cut.trim_end())
}

/// A notification to write, for each of its recipients.
struct Note<'a> {
    kind: NotificationKind,
    position: i64,
    channel_id: Option<&'a str>,
    deeplink: Option<&'a str>,
    comment_id: Option<&'a str>,
    source_id: Option<&'a str>,
    actor: Option<&'a str>,
    title: Option<String>,
    excerpt: Option<String>,
    time: &'a str,
}

impl<'a> Note<'a> {
    /// A mention in a comment (turned into a comment notification for followers by changing `kind`).
    fn mention(
        position: i64,
        time: &'a str,
        channel_id: &'a str,
        deeplink: &'a str,
        comment_id: &'a str,
        author: &'a str,
        text: &str,
    ) -> Note<'a> {
        Note {
            kind: NotificationKind::Mention,
            position,
            channel_id: Some(channel_id),
            deeplink: Some(deeplink),
            comment_id: Some(comment_id),
            source_id: None,
            actor: Some(author),
            title: None,
            excerpt: Some(excerpt(text)),
            time,
        }
    }
}

/// The members of a channel, as the notifications projection knows them.
async fn members_of(tx: &mut Tx, channel_id: &str) -> anyhow::Result<BTreeSet<String>> {
    users(tx, "SELECT user_id FROM notification_members WHERE channel_id = $1", args![channel_id]).await
}

async fn notify(tx: &mut Tx, note: &Note<'_>, recipients: impl IntoIterator<Item = &String>) -> anyhow::Result<()> {
    let recipients: Vec<&String> = recipients.into_iter().collect();
    // One statement for a whole channel's recipients: a round trip each was most of a comment's
    // cost to this projection. Values common to all rows are bound once.
    for chunk in recipients.chunks(NOTIFY_ROWS) {
        let own = |s: Option<&str>| s.map(str::to_string);
        let mut args = args![
            notification_id(note.position),
            note.kind.as_str(),
            note.position,
            own(note.channel_id),
            own(note.deeplink),
            own(note.comment_id),
            own(note.source_id),
            own(note.actor),
            note.title.clone(),
            note.excerpt.clone(),
            note.time
        ];
        let rows: Vec<String> = chunk
            .iter()
            .enumerate()
            .map(|(i, user_id)| {
                args.push(user_id.as_str().into());
                format!("(${}, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)", 12 + i)
            })
            .collect();
        tx.write(
            &format!(
                "INSERT INTO notifications_view (user_id, notification_id, kind, position, channel_id, deeplink, \
                 comment_id, source_id, actor, title, excerpt, created_at) VALUES {} \
                 ON CONFLICT (user_id, notification_id) DO NOTHING",
                rows.join(", ")
            ),
            args,
        )
        .await?;
    }
    Ok(())
}

/// Recipients written by one statement.
const NOTIFY_ROWS: usize = 500;

async fn users(tx: &mut Tx, sql: &str, args: Vec<commands::store::Arg>) -> anyhow::Result<BTreeSet<String>> {
    let rows: Vec<UserRow> = tx.fetch_all(sql, args).await?;
    Ok(rows.into_iter().map(|r| r.user_id).collect())
}

#[derive(sqlx::FromRow)]
struct PublishedRow {
    published: bool,
}

#[async_trait]
impl Projection for Notifications {
    fn name(&self) -> &'static str {
        "notifications"
    }

    fn tables(&self) -> &'static [&'static str] {
        &[
            "notifications_view",
            "notification_channels",
            "notification_members",
            "notification_followers",
            "notification_watched_sources",
        ]
    }

    fn reads(&self) -> &'static [&'static str] {
        &[
            Channel::TYPE,
            ChannelDocument::TYPE,
            Subscription::TYPE,
            Document::TYPE,
            User::TYPE,
            MatchDay::TYPE,
            Summary::TYPE,
            NotificationInbox::TYPE,
        ]
    }

    async fn apply(&self, tx: &mut Tx, event: &StoredEvent) -> anyhow::Result<()> {
        let time = event.time().to_string();
        let position = event.cursor.pos;
        match event.aggregate_type.as_str() {
            Channel::TYPE => apply_channel(tx, event.decode()?).await,
            ChannelDocument::TYPE => apply_comment(tx, event.decode()?, position, &time).await,
            Subscription::TYPE => apply_subscription(tx, event.decode()?).await,
            Document::TYPE => {
                if let DocumentEvent::DocumentIngested(fields) = event.decode()? {
                    // Uploads are their owner's own doing: nothing to tell anyone.
                    if fields.owner.is_some() {
                        return Ok(());
                    }
                    let watchers = users(
                        tx,
                        "SELECT user_id FROM notification_watched_sources WHERE source_id = $1",
                        args![fields.source_id.as_str()],
                    )
                    .await?;
                    let note = Note {
                        kind: NotificationKind::SourceItem,
                        position,
                        channel_id: None,
                        deeplink: Some(&event.aggregate_id),
                        comment_id: None,
                        source_id: Some(&fields.source_id),
                        actor: None,
                        title: Some(fields.title.clone()),
                        excerpt: fields.summary.as_deref().map(excerpt).filter(|e| !e.is_empty()),
                        time: &time,
                    };
                    notify(tx, &note, &watchers).await?;
                }
                Ok(())
            }
            User::TYPE if event.event_type == "UserErased" => {
                let user_id = event.aggregate_id.as_str();
                // What others were told of the erased person's comments reads as a rebuild would
                // read it; what the erased person was told goes with the account.
                tx.write(
                    "UPDATE notifications_view SET excerpt = $2 WHERE actor = $1 AND comment_id IS NOT NULL",
                    args![user_id, excerpt(personal::ERASED_TEXT)],
                )
                .await?;
                tx.write("DELETE FROM notifications_view WHERE user_id = $1", args![user_id]).await?;
                Ok(())
            }
            MatchDay::TYPE => apply_matches(tx, event.decode()?, position, &time).await,
            Summary::TYPE => match event.decode::<SummaryEvent>()? {
                SummaryEvent::SummaryCompleted { user_id, deeplink, title, .. } => {
                    let note = Note {
                        kind: NotificationKind::SummaryReady,
                        position,
                        channel_id: None,
                        deeplink: Some(&deeplink),
                        comment_id: None,
                        source_id: None,
                        actor: None,
                        title: Some("Your summary is ready".to_string()),
                        excerpt: Some(excerpt(&title)),
                        time: &time,
                    };
                    notify(tx, &note, [&user_id]).await
                }
                _ => Ok(()),
            },
            NotificationInbox::TYPE => {
                match event.decode::<InboxEvent>()? {
                    InboxEvent::NotificationRead { user_id, notification_id } => {
                        tx.write(
                            "UPDATE notifications_view SET read_at = $3 \
                             WHERE user_id = $1 AND notification_id = $2 AND read_at IS NULL",
                            args![user_id, notification_id, time],
                        )
                        .await?;
                    }
                    InboxEvent::NotificationsAllRead { user_id, upto } => {
                        tx.write(
                            "UPDATE notifications_view SET read_at = $3 \
                             WHERE user_id = $1 AND position <= $2 AND read_at IS NULL",
                            args![user_id, upto, time],
                        )
                        .await?;
                    }
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }
}

/// New matches of a feed that alerts at once, or a feed's daily digest: one notification to the
/// feed's owner, titled with the feed's name and naming the first story (and how many more).
async fn apply_matches(tx: &mut Tx, event: MatchDayEvent, position: i64, time: &str) -> anyhow::Result<()> {
    let (kind, user_id, board_id, board_name, matches) = match event {
        MatchDayEvent::BoardMatched { alerts: Alerts::Immediate, user_id, board_id, board_name, matches, .. } => {
            (NotificationKind::FeedMatch, user_id, board_id, board_name, matches)
        }
        MatchDayEvent::BoardDigestSent { user_id, board_id, board_name, matches, .. } => {
            (NotificationKind::FeedDigest, user_id, board_id, board_name, matches)
        }
        MatchDayEvent::BoardMatched { .. } => return Ok(()),
    };
    let Some(first) = matches.first() else {
        return Ok(());
    };
    let more = match matches.len() - 1 {
        0 => String::new(),
        1 => " and 1 more".to_string(),
        n => format!(" and {n} more"),
    };
    let note = Note {
        kind,
        position,
        channel_id: None,
        deeplink: Some(&first.deeplink),
        comment_id: None,
        source_id: Some(&board_id),
        actor: None,
        title: Some(board_name),
        excerpt: Some(excerpt(&format!("{}{more}", first.title))),
        time,
    };
    notify(tx, &note, [&user_id]).await
}

async fn apply_channel(tx: &mut Tx, event: ChannelEvent) -> anyhow::Result<()> {
    match event {
        ChannelEvent::ChannelCreated { channel_id, published, .. } => {
            tx.write(
                "INSERT INTO notification_channels (channel_id, published) VALUES ($1, $2) \
                 ON CONFLICT (channel_id) DO NOTHING",
                args![channel_id, published],
            )
            .await?;
        }
        ChannelEvent::ChannelPublished { channel_id, .. } => {
            tx.write("UPDATE notification_channels SET published = $2 WHERE channel_id = $1", args![channel_id, true])
                .await?;
        }
        ChannelEvent::ChannelUnpublished { channel_id, .. } => {
            tx.write("UPDATE notification_channels SET published = $2 WHERE channel_id = $1", args![channel_id, false])
                .await?;
        }
        ChannelEvent::MemberAdded { channel_id, user_id, .. } => {
            tx.write(
                "INSERT INTO notification_members (channel_id, user_id) VALUES ($1, $2) \
                 ON CONFLICT (channel_id, user_id) DO NOTHING",
                args![channel_id, user_id],
            )
            .await?;
        }
        ChannelEvent::MemberRemoved { channel_id, user_id, .. } => {
            tx.write(
                "DELETE FROM notification_members WHERE channel_id = $1 AND user_id = $2",
                args![channel_id.as_str(), user_id.as_str()],
            )
            .await?;
            tx.write(
                "DELETE FROM notification_followers WHERE channel_id = $1 AND user_id = $2",
                args![channel_id, user_id],
            )
            .await?;
        }
        _ => {}
    }
    Ok(())
}

async fn follow(tx: &mut Tx, channel_id: &str, deeplink: &str, user_id: &str) -> anyhow::Result<()> {
    tx.write(
        "INSERT INTO notification_followers (channel_id, deeplink, user_id) VALUES ($1, $2, $3) \
         ON CONFLICT (channel_id, deeplink, user_id) DO NOTHING",
        args![channel_id, deeplink, user_id],
    )
    .await?;
    Ok(())
}

async fn apply_comment(tx: &mut Tx, event: ChannelDocumentEvent, position: i64, time: &str) -> anyhow::Result<()> {
    match event {
        ChannelDocumentEvent::DocumentShared { channel_id, deeplink, shared_by } => {
            follow(tx, &channel_id, &deeplink, &shared_by).await?;
        }
        ChannelDocumentEvent::CommentAdded { channel_id, deeplink, comment_id, author, text, mentioned } => {
            let members = members_of(tx, &channel_id).await?;
            let published = tx
                .fetch_optional::<PublishedRow>(
                    "SELECT published FROM notification_channels WHERE channel_id = $1",
                    args![channel_id.as_str()],
                )
                .await?
                .is_some_and(|r| r.published);
            let followers = users(
                tx,
                "SELECT user_id FROM notification_followers WHERE channel_id = $1 AND deeplink = $2",
                args![channel_id.as_str(), deeplink.as_str()],
            )
            .await?;
            let mentioned: BTreeSet<String> =
                mentioned.into_iter().filter(|u| *u != author && members.contains(u)).collect();
            let following: BTreeSet<String> = followers
                .into_iter()
                .filter(|u| *u != author && !mentioned.contains(u) && (published || members.contains(u)))
                .collect();
            let mut note = Note::mention(position, time, &channel_id, &deeplink, &comment_id, &author, &text);
            notify(tx, &note, &mentioned).await?;
            note.kind = NotificationKind::Comment;
            notify(tx, &note, &following).await?;
            follow(tx, &channel_id, &deeplink, &author).await?;
        }
        ChannelDocumentEvent::CommentEdited {
            channel_id, deeplink, comment_id, author, text, newly_mentioned, ..
        } => {
            let members = members_of(tx, &channel_id).await?;
            let mentioned: BTreeSet<String> =
                newly_mentioned.into_iter().filter(|u| *u != author && members.contains(u)).collect();
            let note = Note::mention(position, time, &channel_id, &deeplink, &comment_id, &author, &text);
            notify(tx, &note, &mentioned).await?;
        }
        ChannelDocumentEvent::CommentDeleted { comment_id, .. } => {
            tx.write("DELETE FROM notifications_view WHERE comment_id = $1", args![comment_id]).await?;
        }
        ChannelDocumentEvent::DocumentUnshared { .. } => {}
    }
    Ok(())
}

async fn apply_subscription(tx: &mut Tx, event: SubscriptionEvent) -> anyhow::Result<()> {
    let (source_id, user_id, watched) = match event {
        SubscriptionEvent::SourceFollowed { user_id, source_id, priority }
        | SubscriptionEvent::SourcePriorityChanged { user_id, source_id, priority } => {
            (source_id, user_id, priority == Priority::High)
        }
        SubscriptionEvent::SourceUnfollowed { user_id, source_id } => (source_id, user_id, false),
        // Asking for a fetch changes nobody's notifications.
        SubscriptionEvent::SourceFetchRequested { .. } => return Ok(()),
    };
    if watched {
        tx.write(
            "INSERT INTO notification_watched_sources (source_id, user_id) VALUES ($1, $2) \
             ON CONFLICT (source_id, user_id) DO NOTHING",
            args![source_id, user_id],
        )
        .await?;
    } else {
        tx.write(
            "DELETE FROM notification_watched_sources WHERE source_id = $1 AND user_id = $2",
            args![source_id, user_id],
        )
        .await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_texts_are_cut_with_an_ellipsis_and_short_ones_kept() {
        assert_eq!(excerpt("  short  "), "short");
        let long = "é".repeat(EXCERPT_CHARS + 10);
        let cut = excerpt(&long);
        assert_eq!(cut.chars().count(), EXCERPT_CHARS);
        assert!(cut.ends_with('…'));
    }
}
