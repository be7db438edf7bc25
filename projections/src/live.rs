//! The live hub: follows the global feed just behind the projections and hands each event,
//! serialised once, to the WebSocket connections of this process that may see it.
//!
//! An event is published only after every read model applied it, so a browser that refetches on
//! the push sees the change. Who may see it is its [`Audience`]: the hub queues it only for the
//! connections of the users the audience names (every connection for [`Audience::Everyone`]),
//! so a connection's task wakes only for what it sends. A connection whose queue is full pages
//! what it missed from the store with [`page`].
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
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, RwLock};
use std::time::Duration;

use commands::feed::{self, Cursor, StoredEvent};
use commands::store::Db;
use serde::Serialize;
use tokio::sync::{mpsc, watch};

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

/// The process-wide hub: each connection registers with the user it serves and gets a queue of
/// its own, and an event goes only to the queues of the connections its audience admits. A
/// connection's task wakes for what it will send, not for every event of the instance: with
/// 1,000 sockets over 50 channels a comment wakes its channel's 20, not all 1,000.
#[derive(Clone)]
pub struct LiveHub {
    connections: Arc<RwLock<Connections>>,
    published: watch::Receiver<Cursor>,
    /// How many events a connection's queue holds before it must page from the store instead.
    buffer: usize,
    /// How often a connection fell behind and paged from the store instead.
    resyncs: Arc<std::sync::atomic::AtomicU64>,
}

/// How many events each connection's queue holds by default before a slow connection must page.
pub const DEFAULT_BUFFER: usize = 4096;

/// One registered connection.
struct Slot {
    id: u64,
    viewer: Viewer,
    /// Queued every event of the feed, whether or not it sends it: an auditor's connection is
    /// told when the history grows.
    hears_all: bool,
    queue: mpsc::Sender<Arc<LiveEvent>>,
    /// Set when an event for this connection found its queue full and was dropped.
    lagged: Arc<AtomicBool>,
}

/// Every registered connection, by the user it serves.
#[derive(Default)]
struct Connections {
    next_id: u64,
    by_user: HashMap<String, Vec<Slot>>,
    /// How many connections each administrator has open (they hear [`Audience::User`] events of
    /// everyone).
    admins: HashMap<String, usize>,
    /// The same for the users with a connection that hears every event.
    hearing_all: HashMap<String, usize>,
}

/// Whose connections an event may be for.
enum Candidates<'a> {
    All,
    Users(HashSet<&'a str>),
}

impl Connections {
    /// The users whose connections may be sent `event`: every connection [`LiveEvent::messages_for`]
    /// admits is among them (the messages are still checked per connection).
    fn candidates<'a>(&'a self, event: &'a LiveEvent) -> Candidates<'a> {
        let mut users = HashSet::new();
        if !event.ephemeral {
            users.extend(self.hearing_all.keys().map(String::as_str));
        }
        let audiences = std::iter::once(&event.audience).chain(event.notice.as_ref().map(|n| &n.audience));
        for audience in audiences {
            match audience {
                Audience::Everyone => return Candidates::All,
                Audience::Owner(id) => {
                    users.insert(id.as_str());
                }
                Audience::User(id) => {
                    users.insert(id.as_str());
                    users.extend(self.admins.keys().map(String::as_str));
                }
                Audience::Admins => users.extend(self.admins.keys().map(String::as_str)),
                Audience::Channel { also, .. } => users.extend(also.as_deref()),
                // A large channel with few of its members connected: walk the connected instead.
                Audience::Members(members) if members.len() > self.by_user.len() => {
                    users.extend(self.by_user.keys().filter(|u| members.contains(*u)).map(String::as_str))
                }
                Audience::Members(members) => users.extend(members.iter().map(String::as_str)),
            }
        }
        Candidates::Users(users)
    }

    fn deliver(&self, event: &Arc<LiveEvent>) {
        let send = |slot: &Slot| {
            let heard = slot.hears_all && !event.ephemeral;
            if !heard && event.messages_for(&slot.viewer).next().is_none() {
                return;
            }
            if let Err(mpsc::error::TrySendError::Full(_)) = slot.queue.try_send(event.clone()) {
                slot.lagged.store(true, Ordering::Release);
            }
        };
        match self.candidates(event) {
            Candidates::All => self.by_user.values().flatten().for_each(send),
            Candidates::Users(users) => users.into_iter().filter_map(|u| self.by_user.get(u)).flatten().for_each(send),
        }
    }
}

/// A connection's registration with the hub: what it is sent, in publishing order. Dropping it
/// unregisters the connection.
pub struct Subscription {
    id: u64,
    user_id: String,
    queue: mpsc::Receiver<Arc<LiveEvent>>,
    lagged: Arc<AtomicBool>,
    connections: Arc<RwLock<Connections>>,
}

/// What [`Subscription::recv`] answers.
#[derive(Debug)]
pub enum Received {
    /// The next event for this connection.
    Event(Arc<LiveEvent>),
    /// Events for this connection were dropped because its queue was full: page what it missed
    /// from the store ([`page`]), up to [`LiveHub::published`]. Queued events it has already
    /// paged come after and are to be skipped by their cursor.
    Lagged,
}

impl Subscription {
    pub async fn recv(&mut self) -> Received {
        if self.lagged.swap(false, Ordering::Acquire) {
            return Received::Lagged;
        }
        match self.queue.recv().await {
            Some(event) => Received::Event(event),
            // The hub holds every registered connection's sender until the registration drops.
            None => std::future::pending().await,
        }
    }
}

impl Drop for Subscription {
    fn drop(&mut self) {
        let mut connections = self.connections.write().unwrap_or_else(|e| e.into_inner());
        let Connections { by_user, admins, hearing_all, .. } = &mut *connections;
        let Some(slots) = by_user.get_mut(&self.user_id) else { return };
        let Some(at) = slots.iter().position(|s| s.id == self.id) else { return };
        let slot = slots.swap_remove(at);
        if slots.is_empty() {
            by_user.remove(&self.user_id);
        }
        for (counted, counts) in [(slot.viewer.is_admin, admins), (slot.hears_all, hearing_all)] {
            if !counted {
                continue;
            }
            if let Some(n) = counts.get_mut(&self.user_id) {
                *n -= 1;
                if *n == 0 {
                    counts.remove(&self.user_id);
                }
            }
        }
    }
}

impl LiveHub {
    /// Starts the tailer at the feed's current head; returns the hub and the tailer's task.
    /// Each connection's queue holds `buffer` events before a slow connection must page from the
    /// store.
    pub async fn start(
        db: Db,
        projections: Projections,
        buffer: usize,
    ) -> anyhow::Result<(LiveHub, tokio::task::JoinHandle<()>)> {
        let connections = Arc::new(RwLock::new(Connections::default()));
        let start = feed::head(&db).await?.min(projections.applied());
        let (published_tx, published) = watch::channel(start);
        let task = tokio::spawn(tail(db, projections, connections.clone(), published_tx));
        Ok((LiveHub { connections, published, buffer: buffer.max(1), resyncs: Arc::default() }, task))
    }

    /// Registers a connection serving `viewer`. Events published from now on that `viewer` may
    /// see are queued for it (every event of the feed when `hears_all`, as an auditor's
    /// connection is told that the history grew); read [`LiveHub::published`] after subscribing
    /// to know where the queue starts (what a reconnecting client missed before that is paged
    /// from the store).
    pub fn subscribe(&self, viewer: &Viewer, hears_all: bool) -> Subscription {
        let (sender, queue) = mpsc::channel(self.buffer);
        let lagged = Arc::new(AtomicBool::new(false));
        let mut connections = self.connections.write().unwrap_or_else(|e| e.into_inner());
        connections.next_id += 1;
        let id = connections.next_id;
        connections.by_user.entry(viewer.user_id.clone()).or_default().push(Slot {
            id,
            viewer: viewer.clone(),
            hears_all,
            queue: sender,
            lagged: lagged.clone(),
        });
        if viewer.is_admin {
            *connections.admins.entry(viewer.user_id.clone()).or_default() += 1;
        }
        if hears_all {
            *connections.hearing_all.entry(viewer.user_id.clone()).or_default() += 1;
        }
        Subscription { id, user_id: viewer.user_id.clone(), queue, lagged, connections: self.connections.clone() }
    }

    /// Sends `json` to the connections `audience` admits, now and once: a hint such as a
    /// report's progress, which a client that was not connected has no need of. Not stored,
    /// not counted in the feed.
    pub fn send_ephemeral(&self, audience: Audience, json: String) {
        let event = Arc::new(LiveEvent {
            cursor: self.published(),
            event_type: String::new(),
            aggregate_id: String::new(),
            audience,
            json,
            notice: None,
            ephemeral: true,
        });
        self.connections.read().unwrap_or_else(|e| e.into_inner()).deliver(&event);
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

    /// How many connections are registered.
    pub fn receivers(&self) -> usize {
        self.connections.read().unwrap_or_else(|e| e.into_inner()).by_user.values().map(Vec::len).sum()
    }
}

async fn tail(
    db: Db,
    projections: Projections,
    connections: Arc<RwLock<Connections>>,
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
                        // Published before it is queued: a connection that pages up to the
                        // published cursor (having lagged, or being new) then has it from the
                        // store, and skips it when it comes through the queue.
                        cursor = event.cursor;
                        published.send_replace(cursor);
                        connections.read().unwrap_or_else(|e| e.into_inner()).deliver(&Arc::new(live));
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
    use futures::FutureExt;

    fn hub(buffer: usize) -> LiveHub {
        let (_, published) = watch::channel(Cursor::START);
        LiveHub { connections: Arc::default(), published, buffer, resyncs: Arc::default() }
    }

    fn viewer(user_id: &str, is_admin: bool) -> Viewer {
        Viewer { user_id: user_id.into(), is_admin }
    }

    fn event(pos: i64, audience: Audience, notice: Option<Audience>) -> Arc<LiveEvent> {
        Arc::new(LiveEvent {
            cursor: Cursor { tx: 0, pos },
            event_type: "Changed".into(),
            aggregate_id: format!("a{pos}"),
            audience,
            json: format!("event {pos}"),
            notice: notice.map(|audience| Notice { audience, json: format!("notice {pos}") }),
            ephemeral: false,
        })
    }

    /// The positions queued for `subscription`, without waiting.
    fn queued(subscription: &mut Subscription) -> Vec<String> {
        let mut out = Vec::new();
        while let Some(received) = subscription.recv().now_or_never() {
            match received {
                Received::Event(e) => out.push(e.json.clone()),
                Received::Lagged => out.push("lagged".into()),
            }
        }
        out
    }

    fn deliver(hub: &LiveHub, event: Arc<LiveEvent>) {
        hub.connections.read().unwrap().deliver(&event);
    }

    #[test]
    fn an_event_is_queued_only_for_the_connections_its_audience_admits() {
        let hub = hub(16);
        let mut ann = hub.subscribe(&viewer("ann", false), false);
        let mut ann_phone = hub.subscribe(&viewer("ann", false), false);
        let mut bob = hub.subscribe(&viewer("bob", false), false);
        let mut admin = hub.subscribe(&viewer("root", true), false);
        let mut auditor = hub.subscribe(&viewer("audit", false), true);
        let members = Arc::new(HashSet::from(["bob".to_string(), "cy".to_string()]));

        deliver(&hub, event(1, Audience::User("ann".into()), None));
        deliver(&hub, event(2, Audience::Owner("ann".into()), None));
        deliver(
            &hub,
            event(3, Audience::Members(members), Some(Audience::Members(Arc::new(HashSet::from(["ann".into()]))))),
        );
        deliver(&hub, event(4, Audience::Channel { channel_id: "c".into(), also: Some("bob".into()) }, None));
        deliver(&hub, event(5, Audience::Admins, None));
        deliver(&hub, event(6, Audience::Everyone, None));

        for ann in [&mut ann, &mut ann_phone] {
            assert_eq!(queued(ann), ["event 1", "event 2", "event 3", "event 6"]);
        }
        assert_eq!(queued(&mut bob), ["event 3", "event 4", "event 6"]);
        assert_eq!(queued(&mut admin), ["event 1", "event 5", "event 6"]);
        // Queued every event (it is told the history grew), though it may send none but the last.
        assert_eq!(queued(&mut auditor), ["event 1", "event 2", "event 3", "event 4", "event 5", "event 6"]);
    }

    #[test]
    fn a_passing_message_goes_to_its_audience_alone() {
        let hub = hub(16);
        let mut ann = hub.subscribe(&viewer("ann", false), false);
        let mut auditor = hub.subscribe(&viewer("audit", false), true);
        hub.send_ephemeral(Audience::Owner("ann".into()), "progress".into());
        assert_eq!(queued(&mut ann), ["progress"]);
        assert!(queued(&mut auditor).is_empty());
    }

    #[test]
    fn a_full_queue_says_lagged_before_what_it_still_holds() {
        let hub = hub(2);
        let mut ann = hub.subscribe(&viewer("ann", false), false);
        for pos in 1..=4 {
            deliver(&hub, event(pos, Audience::User("ann".into()), None));
        }
        assert_eq!(queued(&mut ann), ["lagged", "event 1", "event 2"]);
        deliver(&hub, event(5, Audience::User("ann".into()), None));
        assert_eq!(queued(&mut ann), ["event 5"], "lagged once, then queued again");
    }

    #[test]
    fn a_dropped_subscription_is_unregistered() {
        let hub = hub(4);
        let admin = hub.subscribe(&viewer("root", true), true);
        let ann = hub.subscribe(&viewer("ann", false), false);
        assert_eq!(hub.receivers(), 2);
        drop(admin);
        drop(ann);
        assert_eq!(hub.receivers(), 0);
        let connections = hub.connections.read().unwrap();
        assert!(connections.by_user.is_empty() && connections.admins.is_empty() && connections.hearing_all.is_empty());
    }

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
