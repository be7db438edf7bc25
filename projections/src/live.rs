//! The live hub: follows the global feed just behind the projections and broadcasts each event
//! once, serialised once, to every WebSocket connection of this process.
//!
//! An event is published only after every read model applied it, so a browser that refetches on
//! the push sees the change. Connections filter by [`Audience`]; a connection that falls behind
//! the broadcast buffer pages what it missed from the store with [`page`].
//!
//! A channel's events (its membership, shared documents, comments, shared tags) go to the
//! channel's members, read from `channel_members_view` when the event is published: one indexed
//! read per channel, remembered until one of the channel's own events passes (the only events
//! that change who its members are).
//!
//! An event that notified someone (a mention, a comment on a followed item, a new item of a
//! high-priority source) also carries a `NotificationCreated` for its recipients alone, under the
//! same cursor, so their bell refreshes; the event itself goes to its own audience as ever.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;

use commands::feed::{self, Cursor, StoredEvent};
use commands::store::Db;
use serde::Serialize;
use tokio::sync::{broadcast, watch};

use crate::channels::{self, ChannelAudience};
use crate::notifications;
use crate::runner::Projections;

/// Who may see an event on the live socket.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Audience {
    /// The user the event is about, and administrators.
    User(String),
    /// The user the event is about and nobody else, not even administrators: private writing
    /// (notebooks and notes).
    Owner(String),
    /// Administrators only (instance-level bookkeeping).
    Admins,
    /// Every signed-in user: events of shared things whose ids reveal nothing private
    /// (reading the thing itself is still checked).
    Everyone,
    /// The members of a channel (everyone, when it is published to the organisation), and
    /// `also` (a member who just left or was removed, so their list drops the channel). Resolved
    /// to [`Audience::Members`] or [`Audience::Everyone`] by an [`AudienceResolver`] before the
    /// event is sent; unresolved, it admits only `also`.
    Channel { channel_id: String, also: Option<String> },
    /// These users and nobody else, not even administrators.
    Members(Arc<HashSet<String>>),
}

/// The signed-in user a connection serves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Viewer {
    pub user_id: String,
    pub is_admin: bool,
}

impl Audience {
    pub fn admits(&self, viewer: &Viewer) -> bool {
        match self {
            Audience::Owner(id) => *id == viewer.user_id,
            Audience::User(id) => viewer.is_admin || *id == viewer.user_id,
            Audience::Admins => viewer.is_admin,
            Audience::Everyone => true,
            Audience::Channel { also, .. } => also.as_deref() == Some(viewer.user_id.as_str()),
            Audience::Members(members) => members.contains(&viewer.user_id),
        }
    }

    /// Decides who may see `event`.
    pub fn of(event: &StoredEvent) -> Audience {
        match event.aggregate_type.as_str() {
            "user" => Audience::User(event.aggregate_id.clone()),
            // Shared (channel) tags go to the channel's members.
            "document_tags" if event.fields()["channel_id"].is_string() => Audience::Channel {
                channel_id: event.fields()["channel_id"].as_str().unwrap_or_default().to_string(),
                also: None,
            },
            // Tags and bookmarks are their user's own.
            "session" | "subscription" | "read_mark" | "upload" | "tag_book" | "document_tags" => {
                event.fields()["user_id"].as_str().map(|id| Audience::User(id.to_string())).unwrap_or(Audience::Admins)
            }
            // A channel's membership, feeds, shared documents and comments: its members. Who
            // left or was removed hears of it too.
            "channel" | "channel_directory" | "channel_document" => match event.fields()["channel_id"].as_str() {
                Some(channel_id) => Audience::Channel {
                    channel_id: channel_id.to_string(),
                    also: (event.event_type == "MemberRemoved")
                        .then(|| event.fields()["user_id"].as_str().map(str::to_string))
                        .flatten(),
                },
                None => Audience::Admins,
            },
            // Notebooks and notes are their owner's alone; so is a member's starred status and
            // when they last looked at a channel.
            // So are a user's contact book and their notifications' read marks, and their
            // assistant sessions, their feeds and their reports (each section's progress included).
            "notebook_shelf" | "note" | "channel_reader" | "contact_book" | "notification_inbox" | "ask_session"
            | "board" | "board_match_day" | "report" => {
                event.fields()["user_id"].as_str().map(|id| Audience::Owner(id.to_string())).unwrap_or(Audience::Admins)
            }
            "document" => match event.fields()["owner"].as_str().or(event.fields()["user_id"].as_str()) {
                Some(owner) => Audience::User(owner.to_string()),
                None => Audience::Everyone,
            },
            // The feed templates an administrator offers are every member's to see.
            "source" | "feed_templates" => Audience::Everyone,
            _ => Audience::Admins,
        }
    }
}

/// What a connection is sent: small on purpose. "Sockets notify, queries fetch."
#[derive(Debug, Clone, Serialize)]
pub struct LiveMessage<'a> {
    pub cursor: Cursor,
    #[serde(rename = "type")]
    pub event_type: &'a str,
    pub ids: Vec<&'a str>,
}

/// An event ready to forward.
#[derive(Debug)]
pub struct LiveEvent {
    pub cursor: Cursor,
    pub event_type: String,
    pub aggregate_id: String,
    pub audience: Audience,
    /// The [`LiveMessage`] as JSON.
    pub json: String,
    /// The notification the event caused, for its recipients.
    pub notice: Option<Notice>,
    /// A passing message, not an event of the feed ([`LiveHub::send_ephemeral`]): sent to whoever
    /// is connected when it is published, never paged to a client that missed it, and without a
    /// cursor of its own (`cursor` is the feed's position when it was sent).
    pub ephemeral: bool,
}

/// A `NotificationCreated` message and who it is for.
#[derive(Debug)]
pub struct Notice {
    pub audience: Audience,
    /// The [`LiveMessage`] as JSON; its id is the notification's.
    pub json: String,
}

impl LiveEvent {
    /// Returns the messages of this event `viewer` may see: the event, and the notification it
    /// caused them, in that order.
    pub fn messages_for<'a>(&'a self, viewer: &Viewer) -> impl Iterator<Item = &'a str> + 'a {
        let event = self.audience.admits(viewer).then_some(self.json.as_str());
        let notice = self.notice.as_ref().filter(|n| n.audience.admits(viewer)).map(|n| n.json.as_str());
        event.into_iter().chain(notice)
    }
}

impl LiveEvent {
    pub fn from_stored(event: &StoredEvent) -> LiveEvent {
        let mut ids = vec![event.aggregate_id.as_str()];
        // A notebook's list entry and page refetch on changes to it or to its notes.
        if matches!(event.aggregate_type.as_str(), "notebook_shelf" | "note") {
            ids.extend(event.fields()["notebook_id"].as_str());
        }
        // A channel's pages refetch on changes to it, its documents and their comments.
        if matches!(event.aggregate_type.as_str(), "channel_document" | "channel_reader" | "document_tags") {
            ids.extend(event.fields()["channel_id"].as_str());
        }
        // A session's page refetches the turn that changed.
        if event.aggregate_type == "ask_session" {
            ids.extend(event.fields()["message_id"].as_str());
        }
        if event.aggregate_type == "channel_document" {
            ids.extend(event.fields()["deeplink"].as_str());
            ids.extend(event.fields()["comment_id"].as_str());
        }
        // A feed's matches of a day: the feed first, as for the feed's own events, so its page
        // refetches on a new match.
        if event.aggregate_type == "board_match_day" {
            if let Some(board_id) = event.fields()["board_id"].as_str() {
                ids.insert(0, board_id);
            }
        }
        let message = LiveMessage { cursor: event.cursor, event_type: &event.event_type, ids };
        LiveEvent {
            cursor: event.cursor,
            event_type: event.event_type.clone(),
            aggregate_id: event.aggregate_id.clone(),
            audience: Audience::of(event),
            json: serde_json::to_string(&message).expect("a live message serialises"),
            notice: None,
            ephemeral: false,
        }
    }
}

/// Turns channel audiences into the users they are, remembering each channel's until one of the
/// channel's own events passes.
#[derive(Default)]
pub struct AudienceResolver {
    channels: HashMap<String, Audience>,
}

/// How many channels a resolver remembers before it starts afresh.
const REMEMBERED_CHANNELS: usize = 10_000;

impl AudienceResolver {
    /// Returns `event` ready to forward, its audience resolved.
    pub async fn live_event(&mut self, db: &Db, event: &StoredEvent) -> sqlx::Result<LiveEvent> {
        let mut live = LiveEvent::from_stored(event);
        if notifications::may_notify(event) {
            let recipients = notifications::recipients(db, event.cursor.pos).await?;
            if !recipients.is_empty() {
                let id = domain::notification::notification_id(event.cursor.pos);
                let message = LiveMessage { cursor: event.cursor, event_type: "NotificationCreated", ids: vec![&id] };
                live.notice = Some(Notice {
                    audience: Audience::Members(Arc::new(recipients)),
                    json: serde_json::to_string(&message).expect("a live message serialises"),
                });
            }
        }
        if event.aggregate_type == "channel" {
            self.channels.remove(&event.aggregate_id);
        }
        if let Audience::Channel { channel_id, also } = &live.audience {
            let members = match self.channels.get(channel_id) {
                Some(known) => known.clone(),
                None => {
                    let audience = match channels::audience(db, channel_id).await? {
                        ChannelAudience::Everyone => Audience::Everyone,
                        ChannelAudience::Members(members) => Audience::Members(Arc::new(members)),
                    };
                    if self.channels.len() >= REMEMBERED_CHANNELS {
                        self.channels.clear();
                    }
                    self.channels.insert(channel_id.clone(), audience.clone());
                    audience
                }
            };
            live.audience = match (members, also) {
                (Audience::Members(members), Some(also)) if !members.contains(also) => {
                    let mut with = (*members).clone();
                    with.insert(also.clone());
                    Audience::Members(Arc::new(with))
                }
                (resolved, _) => resolved,
            };
        }
        Ok(live)
    }
}

/// The process-wide hub.
#[derive(Clone)]
pub struct LiveHub {
    sender: broadcast::Sender<Arc<LiveEvent>>,
    published: watch::Receiver<Cursor>,
    /// How often a connection fell behind the buffer and paged from the store instead.
    resyncs: Arc<std::sync::atomic::AtomicU64>,
}

/// How many events the broadcast buffer holds by default before a slow connection must page.
pub const DEFAULT_BUFFER: usize = 4096;

impl LiveHub {
    /// Starts the tailer at the feed's current head; returns the hub and the tailer's task.
    /// `buffer` events are held for slow connections before they must page from the store.
    pub async fn start(
        db: Db,
        projections: Projections,
        buffer: usize,
    ) -> anyhow::Result<(LiveHub, tokio::task::JoinHandle<()>)> {
        let (sender, _) = broadcast::channel(buffer.max(1));
        let start = feed::head(&db).await?.min(projections.applied());
        let (published_tx, published) = watch::channel(start);
        let task = tokio::spawn(tail(db, projections, sender.clone(), published_tx));
        Ok((LiveHub { sender, published, resyncs: Arc::default() }, task))
    }

    pub fn subscribe(&self) -> broadcast::Receiver<Arc<LiveEvent>> {
        self.sender.subscribe()
    }

    /// Sends `json` to the connections `audience` admits, now and once: a hint such as a
    /// report's progress, which a client that was not connected has no need of. Not stored,
    /// not counted in the feed.
    pub fn send_ephemeral(&self, audience: Audience, json: String) {
        let event = LiveEvent {
            cursor: self.published(),
            event_type: String::new(),
            aggregate_id: String::new(),
            audience,
            json,
            notice: None,
            ephemeral: true,
        };
        // No receivers is fine: nobody is connected.
        let _ = self.sender.send(Arc::new(event));
    }

    /// The cursor of the newest event the hub has published.
    pub fn published(&self) -> Cursor {
        *self.published.borrow()
    }

    /// Counts a connection that fell behind and paged from the store.
    pub fn record_resync(&self) {
        self.resyncs.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        metrics::counter!("needl_live_resyncs_total").increment(1);
    }

    pub fn resyncs(&self) -> u64 {
        self.resyncs.load(std::sync::atomic::Ordering::Relaxed)
    }

    pub fn receivers(&self) -> usize {
        self.sender.receiver_count()
    }
}

async fn tail(
    db: Db,
    projections: Projections,
    sender: broadcast::Sender<Arc<LiveEvent>>,
    published: watch::Sender<Cursor>,
) {
    let mut cursor = *published.borrow();
    let mut watchers = projections.watchers();
    let mut resolver = AudienceResolver::default();
    loop {
        let target = projections.applied();
        if cursor < target {
            match feed::read_after(&db, cursor, 500).await {
                Ok(events) => {
                    let mut failed = None;
                    for event in events.iter().take_while(|e| e.cursor <= target) {
                        let live = match resolver.live_event(&db, event).await {
                            Ok(live) => live,
                            Err(error) => {
                                failed = Some(error);
                                break;
                            }
                        };
                        // No receivers is fine: nobody is connected.
                        let _ = sender.send(Arc::new(live));
                        cursor = event.cursor;
                    }
                    if events.is_empty() {
                        cursor = target;
                    }
                    published.send_replace(cursor);
                    if let Some(error) = failed {
                        // Retried from the event that failed: nothing is skipped or sent twice.
                        tracing::warn!(%error, "live tailer cannot read a channel's members");
                        tokio::time::sleep(Duration::from_millis(500)).await;
                    }
                    continue;
                }
                Err(error) => {
                    tracing::warn!(%error, "live tailer cannot read the feed");
                    tokio::time::sleep(Duration::from_millis(500)).await;
                    continue;
                }
            }
        }
        let changes = watchers.iter_mut().map(|rx| Box::pin(rx.changed()));
        let _ = tokio::time::timeout(Duration::from_secs(1), futures::future::select_all(changes)).await;
    }
}

/// Reads the events after `after` up to and including `upto` that `viewer` may see, at most
/// `limit` feed events at a time. Returns them and the cursor reached.
pub async fn page(
    db: &Db,
    viewer: &Viewer,
    after: Cursor,
    upto: Cursor,
    limit: i64,
) -> sqlx::Result<(Vec<LiveEvent>, Cursor)> {
    let events = feed::read_after(db, after, limit).await?;
    let mut reached = after;
    let mut out = Vec::new();
    let mut resolver = AudienceResolver::default();
    for event in events.iter().take_while(|e| e.cursor <= upto) {
        let live = resolver.live_event(db, event).await?;
        reached = event.cursor;
        if live.messages_for(viewer).next().is_some() {
            out.push(live);
        }
    }
    Ok((out, reached))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_match_names_its_feed_first_so_the_feeds_page_refetches() {
        let event = StoredEvent {
            cursor: Cursor::START,
            aggregate_type: "board_match_day".into(),
            aggregate_id: "feed-1/2026-11-25".into(),
            sequence: 1,
            event_type: "BoardMatched".into(),
            event_version: "1.0".into(),
            payload: serde_json::json!({"BoardMatched": {"user_id": "u1", "board_id": "feed-1", "day": "2026-11-25"}}),
            metadata: serde_json::json!({}),
            recorded_at: String::new(),
        };
        let live = LiveEvent::from_stored(&event);
        let message: serde_json::Value = serde_json::from_str(&live.json).unwrap();
        assert_eq!(message["ids"], serde_json::json!(["feed-1", "feed-1/2026-11-25"]));
        assert!(matches!(live.audience, Audience::Owner(ref u) if u == "u1"));
    }
}
