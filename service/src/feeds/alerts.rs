//! New documents against every feed: the worker that places each arriving document in its story,
//! matches it against every enabled feed's rules, records the matches (which notify the feed's
//! owner when the feed alerts at once, and reach their browsers through the live socket), and
//! sends each day's digests.
//!
//! It is fed by the search index's follower ([`search::Arrivals`]): documents arrive with their
//! text once the index holds them, so a match is already on the feed's page when it is announced.
//! Feeds are matched by one [`matching::RuleSet`], which evaluates a feed's filters exactly as the
//! index does; it is rebuilt when any feed changes. A match counts only if the feed's owner may
//! read the document. HIGH-priority feeds are recorded (and so notify) first.
//!
//! Stories are placed by a [`stories::StoryIndex`] rebuilt at start from the signatures stored in
//! `document_stories_view` (those of the last story span: older ones can join nothing), and
//! trimmed to that span as time passes.
//!
//! With the embedding model loaded, each batch is first embedded and stored
//! ([`crate::semantic::Semantic::store_arrivals`], on a blocking thread), and an AI feed's
//! topics are a condition of their own: a document matches when the rest of the definition does
//! (the rule set) and its vector is classified into one of the feed's topics
//! ([`super::topics::FeedTopics`]), exactly as the feed's page reads it.
//!
//! What it does not promise: matches of documents the index committed while this worker was
//! down (or between a commit and the worker's recording) are not announced after a restart;
//! their feeds' pages show them all the same.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Utc};
use commands::args;
use commands::bus::CommandBus;
use commands::store::Db;
use domain::board::{match_day_id, Alerts, BoardDefinition, Match, MatchDayCommand, Priority};
use domain::feed_rules::Filters;
use domain::EventMetadata;
use search::{Arrivals, IndexedDocument};
use stories::{Signature, StoryIndex, StoryParams};
use tokio::sync::{mpsc, watch};

use super::documents::effective;
use super::topics::FeedTopics;
use crate::clock::SharedClock;
use crate::semantic::Semantic;

/// How often digests due are looked for.
const DIGEST_EVERY: Duration = Duration::from_secs(600);

/// An enabled feed as the matcher needs it.
struct Feed {
    user_id: String,
    name: String,
    alerts: Alerts,
    priority: Priority,
    /// An AI feed's topics, when the embedding model classifies them.
    topics: Option<FeedTopics>,
}

#[derive(sqlx::FromRow)]
struct FeedRow {
    board_id: String,
    user_id: String,
    name: String,
    definition: String,
    alerts: String,
    priority: String,
}

fn rank(priority: Priority) -> u8 {
    match priority {
        Priority::High => 0,
        Priority::Medium => 1,
        Priority::Low => 2,
    }
}

/// The enabled feeds and their compiled rules, as of `fingerprint`.
struct Rules {
    fingerprint: (i64, String, bool),
    feeds: HashMap<String, Feed>,
    set: matching::RuleSet,
}

pub struct FeedMatcher {
    db: Db,
    bus: Arc<CommandBus>,
    clock: SharedClock,
    rules: Option<Rules>,
    stories: StoryIndex<String>,
    semantic: Option<Arc<Semantic>>,
}

impl FeedMatcher {
    /// A matcher whose story index holds every story placed so far.
    pub async fn open(db: Db, bus: Arc<CommandBus>, clock: SharedClock) -> anyhow::Result<FeedMatcher> {
        #[derive(sqlx::FromRow)]
        struct Placed {
            deeplink: String,
            source_id: String,
            signature: String,
            published: i64,
        }
        // Only what a new document can still join: the last story span.
        let params = StoryParams::default();
        let since = clock.now().timestamp() - params.max_story_span;
        let placed: Vec<Placed> = db
            .fetch_all(
                "SELECT deeplink, source_id, signature, published FROM document_stories_view \
                 WHERE published >= $1 ORDER BY published",
                args![since],
            )
            .await?;
        let mut stories = StoryIndex::new(params);
        stories.reserve(placed.len());
        for p in placed {
            if let Ok(signature) = Signature::from_hex(&p.signature) {
                stories.insert(p.deeplink, &p.source_id, p.published, &signature);
            }
        }
        Ok(FeedMatcher { db, bus, clock, rules: None, stories, semantic: None })
    }

    /// Embeds and stores arriving documents with this model, and classifies AI feeds' topics
    /// by it (`None`: topics match by keywords).
    pub fn with_semantic(mut self, semantic: Option<Arc<Semantic>>) -> FeedMatcher {
        self.semantic = semantic;
        self
    }

    /// Matches arrivals until `shutdown`, and sends digests as days end.
    pub async fn run(mut self, mut arrivals: mpsc::Receiver<Arrivals>, mut shutdown: watch::Receiver<bool>) {
        let mut digests = tokio::time::interval(DIGEST_EVERY);
        loop {
            tokio::select! {
                batch = arrivals.recv() => match batch {
                    Some(batch) => {
                        if let Err(error) = self.arrived(&batch.documents).await {
                            tracing::error!(error = %format!("{error:#}"), "matching new documents against feeds failed");
                        }
                    }
                    None => return,
                },
                _ = digests.tick() => {
                    let span = self.stories.params().max_story_span;
                    self.stories.forget_before(self.clock.now().timestamp() - span);
                    if let Err(error) = self.send_digests().await {
                        tracing::error!(error = %format!("{error:#}"), "sending feed digests failed");
                    }
                }
                _ = shutdown.changed() => return,
            }
        }
    }

    /// The rules of the enabled feeds, rebuilt when a feed changed since the last batch.
    async fn rules(&mut self) -> anyhow::Result<&Rules> {
        let fingerprint: (i64, Option<String>) = self
            .db
            .fetch_optional("SELECT COUNT(*), MAX(updated_at) FROM boards_view", args![])
            .await?
            .unwrap_or((0, None));
        // Topics switch from keywords to the model once the first vectors are stored.
        let classifying = self.semantic.as_ref().is_some_and(|s| s.stored() > 0);
        let fingerprint = (fingerprint.0, fingerprint.1.unwrap_or_default(), classifying);
        if self.rules.as_ref().is_none_or(|r| r.fingerprint != fingerprint) {
            let rows: Vec<FeedRow> = self
                .db
                .fetch_all(
                    "SELECT board_id, user_id, name, definition, alerts, priority FROM boards_view WHERE enabled = TRUE",
                    args![],
                )
                .await?;
            let mut feeds = HashMap::new();
            let mut filters: Vec<(String, Filters)> = Vec::new();
            for row in rows {
                let Ok(definition) = serde_json::from_str::<BoardDefinition>(&row.definition) else { continue };
                let topics = match &self.semantic {
                    Some(semantic) if classifying && domain::board::has_topics(&definition.topics) => {
                        let feedback = super::topics::feedback_of(&self.db, &row.board_id).await?;
                        super::topics::classifier(semantic, &definition, &feedback).await?
                    }
                    _ => None,
                };
                // Classified topics are a condition of their own; otherwise they are keywords.
                let read = if topics.is_some() { definition } else { effective(&definition) };
                // Stored definitions were checked when saved; one that no longer reads is skipped.
                let Ok(f) = Filters::of(&read) else { continue };
                if topics.is_none() && f.matches_everything() {
                    // Topics of the user's own with no model to classify them: nothing matches.
                    continue;
                }
                filters.push((row.board_id.clone(), f));
                feeds.insert(
                    row.board_id,
                    Feed {
                        user_id: row.user_id,
                        name: row.name,
                        // As the view stores them; anything else was never written.
                        alerts: super::parse_alerts(&row.alerts).unwrap_or_default(),
                        priority: super::parse_priority(Some(&row.priority)).unwrap_or(Priority::Medium),
                        topics,
                    },
                );
            }
            let set = matching::RuleSet::new(filters.iter().map(|(id, f)| (id.clone(), f)));
            self.rules = Some(Rules { fingerprint, feeds, set });
        }
        Ok(self.rules.as_ref().expect("rules were just built"))
    }

    /// Places each document in its story, then records the feeds it matched.
    pub async fn arrived(&mut self, documents: &[Arc<IndexedDocument>]) -> anyhow::Result<()> {
        let semantic = self.semantic.clone();
        if let Some(semantic) = &semantic {
            // Failing to embed must not hold keyword feeds back: such documents are embedded by
            // the next start's backfill.
            if let Err(error) = semantic.store_arrivals(documents).await {
                tracing::error!(error = %format!("{error:#}"), "embedding new documents failed");
            }
        }
        let mut placed = HashMap::new();
        for d in documents {
            let text = search::content_of(d);
            let signature = Signature::of(&d.title, &text);
            let published = d.published.unwrap_or(d.updated);
            let placement = self.stories.insert(d.deeplink.clone(), &d.source_id, published, &signature);
            self.db
                .execute(
                    "INSERT INTO document_stories_view (deeplink, story, source_id, signature, published) \
                     VALUES ($1, $2, $3, $4, $5) ON CONFLICT (deeplink) DO NOTHING",
                    args![
                        d.deeplink.as_str(),
                        placement.story.as_str(),
                        d.source_id.as_str(),
                        signature.to_hex(),
                        published
                    ],
                )
                .await?;
            placed.insert(d.deeplink.clone(), placement.story);
        }
        let now = self.clock.now();
        let rules = self.rules().await?;
        if rules.feeds.is_empty() {
            return Ok(());
        }
        let mut found: BTreeMap<String, Vec<Match>> = BTreeMap::new();
        {
            let mut matcher = rules.set.matcher();
            for d in documents {
                let vector = semantic.as_ref().and_then(|s| s.vector(&d.deeplink));
                for board_id in matcher.matches(d, now) {
                    if let Some(topics) = rules.feeds.get(board_id).and_then(|f| f.topics.as_ref()) {
                        if !vector.as_deref().is_some_and(|v| topics.accepts(v)) {
                            continue;
                        }
                    }
                    found.entry(board_id.to_string()).or_default().push(Match {
                        deeplink: d.deeplink.clone(),
                        story: placed.get(&d.deeplink).filter(|s| **s != d.deeplink).cloned(),
                        title: d.title.clone(),
                    });
                }
            }
        }
        let mut records: Vec<(String, Vec<Match>)> = found.into_iter().collect();
        let rules = self.rules.as_ref().expect("rules were just built");
        records.sort_by_key(|(board_id, _)| rules.feeds.get(board_id).map(|f| rank(f.priority)).unwrap_or(3));
        let mut readers = Readers::default();
        let by_deeplink: HashMap<&str, &IndexedDocument> =
            documents.iter().map(|d| (d.deeplink.as_str(), &**d)).collect();
        let day = now.format("%Y-%m-%d").to_string();
        for (board_id, matches) in records {
            let Some(feed) = rules.feeds.get(&board_id) else { continue };
            let mut readable = Vec::new();
            for m in matches {
                if let Some(d) = by_deeplink.get(m.deeplink.as_str()) {
                    if readers.may_read(&self.db, &feed.user_id, d).await? {
                        readable.push(m);
                    }
                }
            }
            if readable.is_empty() {
                continue;
            }
            let command = MatchDayCommand::Record {
                user_id: feed.user_id.clone(),
                board_id: board_id.clone(),
                board_name: feed.name.clone(),
                day: day.clone(),
                matches: readable,
                alerts: feed.alerts,
                priority: feed.priority,
            };
            self.bus
                .execute(&self.bus.match_days, &match_day_id(&board_id, &day), command, &system_metadata(now))
                .await?;
        }
        Ok(())
    }

    /// Sends the digest of every day that has ended with matches of a digest feed not yet sent.
    pub async fn send_digests(&self) -> anyhow::Result<()> {
        #[derive(sqlx::FromRow)]
        struct Due {
            board_id: String,
            user_id: String,
            name: String,
            matched_at: String,
        }
        let now = self.clock.now();
        let today = now.format("%Y-%m-%d").to_string();
        let due: Vec<Due> = self
            .db
            .fetch_all(
                "SELECT m.board_id, m.user_id, b.name, m.matched_at FROM board_matches_view m \
                 JOIN boards_view b ON b.board_id = m.board_id \
                 WHERE b.alerts = 'digest' AND m.notified_at IS NULL AND m.matched_at < $1",
                args![today.as_str()],
            )
            .await?;
        let mut days: BTreeMap<(String, String), (String, String)> = BTreeMap::new();
        for d in due {
            let day: String = d.matched_at.chars().take(10).collect();
            days.insert((d.board_id, day), (d.user_id, d.name));
        }
        for ((board_id, day), (user_id, board_name)) in days {
            let command =
                MatchDayCommand::SendDigest { user_id, board_id: board_id.clone(), board_name, day: day.clone() };
            self.bus
                .execute(&self.bus.match_days, &match_day_id(&board_id, &day), command, &system_metadata(now))
                .await?;
        }
        Ok(())
    }
}

/// The metadata of what the matcher records: no person caused it.
fn system_metadata(now: DateTime<Utc>) -> EventMetadata {
    EventMetadata { time: now, ..EventMetadata::system("feeds", uuid::Uuid::now_v7().to_string()) }
}

/// Whose own data holds which shared sources, looked up once per owner per batch.
#[derive(Default)]
struct Readers {
    sources: HashMap<String, HashSet<String>>,
}

impl Readers {
    /// Whether `user_id` may read `d` in their own data: their own upload, or a document of a
    /// source their own data holds (the policy's rules 1 and 2).
    async fn may_read(&mut self, db: &Db, user_id: &str, d: &IndexedDocument) -> anyhow::Result<bool> {
        if let Some(owner) = &d.owner {
            return Ok(owner == user_id);
        }
        if !self.sources.contains_key(user_id) {
            let sources = crate::policy::own_data_sources(db, user_id).await?;
            self.sources.insert(user_id.to_string(), sources.into_iter().collect());
        }
        Ok(self.sources.get(user_id).is_some_and(|s| s.contains(&d.source_id)))
    }
}
