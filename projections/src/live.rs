//! The live hub: follows the global feed just behind the projections and broadcasts each event
//! once, serialised once, to every WebSocket connection of this process.
//!
//! An event is published only after every read model applied it, so a browser that refetches on
//! the push sees the change. Connections filter by [`Audience`]; a connection that falls behind
//! the broadcast buffer pages what it missed from the store with [`page`].

use std::sync::Arc;
use std::time::Duration;

use commands::feed::{self, Cursor, StoredEvent};
use commands::store::Db;
use serde::Serialize;
use tokio::sync::{broadcast, watch};

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
        }
    }

    /// Decides who may see `event`.
    pub fn of(event: &StoredEvent) -> Audience {
        match event.aggregate_type.as_str() {
            "user" => Audience::User(event.aggregate_id.clone()),
            // Tags and bookmarks are their user's own. Shared (channel) tags go to the tagging
            // member for now; to the channel's members once channels exist.
            "session" | "subscription" | "read_mark" | "upload" | "tag_book" | "document_tags" => {
                event.fields()["user_id"].as_str().map(|id| Audience::User(id.to_string())).unwrap_or(Audience::Admins)
            }
            // Notebooks and notes are their owner's alone.
            "notebook_shelf" | "note" => event.fields()["user_id"]
                .as_str()
                .map(|id| Audience::Owner(id.to_string()))
                .unwrap_or(Audience::Admins),
            "document" => match event.fields()["owner"].as_str().or(event.fields()["user_id"].as_str()) {
                Some(owner) => Audience::User(owner.to_string()),
                None => Audience::Everyone,
            },
            "source" => Audience::Everyone,
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
}

impl LiveEvent {
    pub fn from_stored(event: &StoredEvent) -> LiveEvent {
        let mut ids = vec![event.aggregate_id.as_str()];
        // A notebook's list entry and page refetch on changes to it or to its notes.
        if matches!(event.aggregate_type.as_str(), "notebook_shelf" | "note") {
            ids.extend(event.fields()["notebook_id"].as_str());
        }
        let message = LiveMessage { cursor: event.cursor, event_type: &event.event_type, ids };
        LiveEvent {
            cursor: event.cursor,
            event_type: event.event_type.clone(),
            aggregate_id: event.aggregate_id.clone(),
            audience: Audience::of(event),
            json: serde_json::to_string(&message).expect("a live message serialises"),
        }
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
    loop {
        let target = projections.applied();
        if cursor < target {
            match feed::read_after(&db, cursor, 500).await {
                Ok(events) => {
                    for event in events.iter().take_while(|e| e.cursor <= target) {
                        // No receivers is fine: nobody is connected.
                        let _ = sender.send(Arc::new(LiveEvent::from_stored(event)));
                        cursor = event.cursor;
                    }
                    if events.is_empty() {
                        cursor = target;
                    }
                    published.send_replace(cursor);
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
    for event in events.iter().take_while(|e| e.cursor <= upto) {
        reached = event.cursor;
        let live = LiveEvent::from_stored(event);
        if live.audience.admits(viewer) {
            out.push(live);
        }
    }
    Ok((out, reached))
}
