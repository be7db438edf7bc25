//! Custom feeds (the spec's boards).
//!
//! A [`Board`] is one user's feed (the aggregate id is the board id): its definition (name,
//! description, keywords to include and exclude, source and category filters, a date range, and
//! for AI feeds companies, attributes and topics), whether it is on, how it alerts, and whether it
//! was deleted. Only its owner changes it; anyone else is told it does not exist.
//!
//! The builder saves a whole definition at a time; [`Board::decide`] turns the difference into one
//! event per change (renamed, keyword included, sources filtered, ...), so an auditor reads what
//! changed, not a new blob. Every edit opens with [`BoardEvent::BoardEdited`], which also marks
//! where [`BoardCommand::Undo`] goes back to: the definition before the last edit.
//! [`BoardDefinition::apply`] is the one place an event changes a definition; the aggregate and the
//! read model both use it, so the two cannot disagree.
//!
//! Which documents a definition matches is not decided here: see [`crate::feed_rules`] and the
//! search index.

use std::collections::BTreeSet;

use cqrs_es::Aggregate;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::channel::clean_name;
use crate::error::{DomainError, ErrorKind};
use crate::keywords::{self, KeywordError};
pub use crate::source::Priority;

/// The longest feed name, in characters.
pub const MAX_BOARD_NAME_CHARS: usize = 100;
/// The longest feed description, in characters.
pub const MAX_BOARD_DESCRIPTION_CHARS: usize = 1000;
/// How many include and exclude keywords one feed may have together.
pub const MAX_BOARD_KEYWORDS: usize = 200;
/// The largest feed definition, in bytes of its JSON text.
pub const MAX_BOARD_DEFINITION_BYTES: usize = 64 * 1024;

/// One keyword of a feed, as the feed builder keeps it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct BoardKeyword {
    pub keyword: String,
    /// Whether the keyword is a valid expression; kept definitions hold valid ones only.
    #[serde(default = "yes")]
    pub valid: bool,
}

fn yes() -> bool {
    true
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct BoardKeywords {
    #[serde(default)]
    pub include: Vec<BoardKeyword>,
    #[serde(default)]
    pub exclude: Vec<BoardKeyword>,
}

/// A feed's definition, with the spec's fields. Parts whose inner shape the spec does not give
/// (per-source and per-category filters, the AI feed's companies, attributes and topics) are kept
/// as the JSON the builder sent.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct BoardDefinition {
    pub name: String,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub keywords: BoardKeywords,
    /// Per-source filters: `filter`, `exclusion_filter`, `exclusion_rules.keywords`.
    #[serde(default)]
    pub sources: Value,
    #[serde(default)]
    pub secondary_sources: Value,
    /// Per-category filters.
    #[serde(default)]
    pub common: Value,
    /// A date-range shorthand (`1d` ... `3y`), or null.
    #[serde(default)]
    pub date_range: Option<String>,
    /// The feed's group; `default` unless the builder says otherwise.
    #[serde(default)]
    pub group: Option<String>,
    /// AI feeds: the companies the feed follows.
    #[serde(default)]
    pub companies: Value,
    #[serde(default)]
    pub attributes: Value,
    #[serde(default)]
    pub topics: Value,
    #[serde(default, rename = "currentTopic", alias = "current_topic")]
    pub current_topic: Value,
    /// The kind of feed (a keyword feed, or an AI feed's type).
    #[serde(default, rename = "type")]
    pub feed_type: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    #[error("feed name is required")]
    NameRequired,
    #[error("feed name must be at most {MAX_BOARD_NAME_CHARS} characters")]
    NameTooLong,
    #[error("feed description must be at most {MAX_BOARD_DESCRIPTION_CHARS} characters")]
    DescriptionTooLong,
    /// The spec's keyword messages.
    #[error("{0}")]
    Keyword(KeywordError),
    #[error("a feed can have at most {MAX_BOARD_KEYWORDS} keywords")]
    TooManyKeywords,
    /// The spec's text for a date range that is not a shorthand.
    #[error("Wrong shorthand")]
    DateRange,
    #[error("a feed definition must be at most 64 KB")]
    TooLarge,
    // What reading a definition into rules can refuse (`crate::feed_rules`).
    /// One source both included and excluded.
    #[error("a source cannot be both included in and excluded from a feed: {0}")]
    SourceBothModes(String),
    /// The spec's message.
    #[error("Add a keyword, a company or a source so the feed has something to follow.")]
    MatchesEverything,
    /// `sources`, `secondary_sources`, `common` or `companies` not in the shape the builder sends.
    #[error("the feed's {0} are not readable")]
    BadFilter(&'static str),
    #[error("feed not found")]
    NotFound,
    #[error("this feed id is taken")]
    IdTaken,
    #[error("there is no change to undo")]
    NothingToUndo,
    /// Feedback refines topics: a feed without any has nothing to refine.
    #[error("Only AI feeds that follow topics take more like this / less like this.")]
    NoTopics,
    #[error("the document is required")]
    DocumentRequired,
}

impl BoardDefinition {
    /// Returns the definition as it is kept, or why it is refused: the name and description
    /// trimmed, keywords trimmed, checked and without duplicates (a keyword in both lists stays
    /// only in the include list), the date range a shorthand.
    pub fn cleaned(self) -> Result<BoardDefinition, BoardError> {
        let name = clean_name(&self.name);
        if name.is_empty() {
            return Err(BoardError::NameRequired);
        }
        if name.chars().count() > MAX_BOARD_NAME_CHARS {
            return Err(BoardError::NameTooLong);
        }
        let description = self.description.trim().to_string();
        if description.chars().count() > MAX_BOARD_DESCRIPTION_CHARS {
            return Err(BoardError::DescriptionTooLong);
        }
        let mut seen = BTreeSet::new();
        let mut clean_list = |list: Vec<BoardKeyword>| -> Result<Vec<BoardKeyword>, BoardError> {
            let mut out = Vec::new();
            for entry in list {
                let keyword = entry.keyword.trim().to_string();
                if keyword.is_empty() || !seen.insert(keyword.to_lowercase()) {
                    continue;
                }
                keywords::parse(&keyword).map_err(BoardError::Keyword)?;
                out.push(BoardKeyword { keyword, valid: true });
            }
            Ok(out)
        };
        let include = clean_list(self.keywords.include)?;
        let exclude = clean_list(self.keywords.exclude)?;
        if include.len() + exclude.len() > MAX_BOARD_KEYWORDS {
            return Err(BoardError::TooManyKeywords);
        }
        let date_range = self.date_range.map(|d| d.trim().to_string()).filter(|d| !d.is_empty());
        if let Some(shorthand) = &date_range {
            // Any fixed instant will do: only whether the shorthand parses matters here.
            let reference = chrono::DateTime::<chrono::Utc>::from_timestamp(946_684_800, 0).unwrap_or_default();
            crate::date_range::range(shorthand, reference).map_err(|_| BoardError::DateRange)?;
        }
        let group = self.group.map(|g| g.trim().to_string()).filter(|g| !g.is_empty());
        let cleaned = BoardDefinition {
            name,
            description,
            keywords: BoardKeywords { include, exclude },
            date_range,
            group: Some(group.unwrap_or_else(|| "default".to_string())),
            ..self
        };
        let size = serde_json::to_string(&cleaned).map(|s| s.len()).unwrap_or(usize::MAX);
        if size > MAX_BOARD_DEFINITION_BYTES {
            return Err(BoardError::TooLarge);
        }
        Ok(cleaned)
    }
}

impl DomainError for BoardError {
    fn kind(&self) -> ErrorKind {
        match self {
            BoardError::NotFound => ErrorKind::NotFound,
            BoardError::IdTaken => ErrorKind::Conflict,
            _ => ErrorKind::Invalid,
        }
    }

    fn code(&self) -> &'static str {
        match self {
            BoardError::NameRequired => "board_name_required",
            BoardError::NameTooLong => "board_name_too_long",
            BoardError::DescriptionTooLong => "board_description_too_long",
            BoardError::Keyword(_) => "invalid_keyword",
            BoardError::TooManyKeywords => "too_many_keywords",
            BoardError::DateRange => "wrong_shorthand",
            BoardError::TooLarge => "board_too_large",
            BoardError::SourceBothModes(_) => "feed_source_both_modes",
            BoardError::MatchesEverything => "feed_matches_everything",
            BoardError::BadFilter(_) => "feed_filter_invalid",
            BoardError::NotFound => "board_not_found",
            BoardError::IdTaken => "board_id_taken",
            BoardError::NothingToUndo => "nothing_to_undo",
            BoardError::NoTopics => "feed_has_no_topics",
            BoardError::DocumentRequired => "document_required",
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The feed

/// How a feed tells its owner about new matches.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum Alerts {
    /// Nothing beyond the feed page.
    #[default]
    Off,
    /// A notification (bell and live socket) for each new match.
    Immediate,
    /// One notification a day listing the day's new stories.
    Digest,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum BoardCommand {
    /// Makes a feed owned by `owner`. `duplicated_from`: the feed it copies, for the record.
    Create {
        owner: String,
        definition: Box<BoardDefinition>,
        enabled: bool,
        duplicated_from: Option<String>,
    },
    /// Replaces the definition with `definition`, one event per change.
    Define {
        actor: String,
        definition: Box<BoardDefinition>,
    },
    /// Goes back to the definition before the last edit.
    Undo {
        actor: String,
    },
    Enable {
        actor: String,
        enabled: bool,
    },
    SetAlerts {
        actor: String,
        alerts: Alerts,
        priority: Priority,
    },
    Delete {
        actor: String,
    },
    /// "More like this" (`more`) or "less like this" on one document of an AI feed: refines the
    /// feed's topics (see `service::feeds::topics`). Only feeds that follow topics take it.
    Feedback {
        actor: String,
        deeplink: String,
        more: bool,
    },
}

/// Each event names the feed's owner (`user_id`): whose feed it is, for the read model and the
/// live socket, without a lookup.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum BoardEvent {
    BoardCreated {
        user_id: String,
        definition: Box<BoardDefinition>,
        enabled: bool,
        duplicated_from: Option<String>,
    },
    /// Opens every edit: the definition as it was is what an undo returns to (`undo`: this edit
    /// is itself an undo, after which there is nothing left to undo).
    BoardEdited {
        user_id: String,
        undo: bool,
    },
    BoardRenamed {
        user_id: String,
        from: String,
        name: String,
    },
    BoardDescribed {
        user_id: String,
        description: String,
    },
    /// Added to the include list (and taken out of the exclude list, if it was there).
    KeywordIncluded {
        user_id: String,
        keyword: String,
    },
    /// Added to the exclude list (and taken out of the include list, if it was there).
    KeywordExcluded {
        user_id: String,
        keyword: String,
    },
    KeywordRemoved {
        user_id: String,
        keyword: String,
    },
    SourcesFiltered {
        user_id: String,
        sources: Value,
    },
    SecondarySourcesSet {
        user_id: String,
        secondary_sources: Value,
    },
    CategoriesFiltered {
        user_id: String,
        common: Value,
    },
    DateRangeSet {
        user_id: String,
        date_range: Option<String>,
    },
    GroupSet {
        user_id: String,
        group: Option<String>,
    },
    CompaniesSet {
        user_id: String,
        companies: Value,
    },
    AttributesSet {
        user_id: String,
        attributes: Value,
    },
    TopicsSet {
        user_id: String,
        topics: Value,
    },
    CurrentTopicSet {
        user_id: String,
        current_topic: Value,
    },
    FeedTypeSet {
        user_id: String,
        feed_type: Option<String>,
    },
    BoardEnabled {
        user_id: String,
    },
    BoardDisabled {
        user_id: String,
    },
    BoardAlertsSet {
        user_id: String,
        alerts: Alerts,
        priority: Priority,
    },
    BoardDeleted {
        user_id: String,
    },
    /// The owner said "more like this" (`more`) or "less like this" of a document of the feed.
    /// The latest word on a document is the one that counts.
    BoardFeedbackGiven {
        user_id: String,
        deeplink: String,
        more: bool,
    },
}

crate::impl_domain_event! {
    BoardEvent, versions {
        BoardCreated: "1",
        BoardEdited: "1",
        BoardRenamed: "1",
        BoardDescribed: "1",
        KeywordIncluded: "1",
        KeywordExcluded: "1",
        KeywordRemoved: "1",
        SourcesFiltered: "1",
        SecondarySourcesSet: "1",
        CategoriesFiltered: "1",
        DateRangeSet: "1",
        GroupSet: "1",
        CompaniesSet: "1",
        AttributesSet: "1",
        TopicsSet: "1",
        CurrentTopicSet: "1",
        FeedTypeSet: "1",
        BoardEnabled: "1",
        BoardDisabled: "1",
        BoardAlertsSet: "1",
        BoardDeleted: "1",
        BoardFeedbackGiven: "1",
    }
}

impl BoardEvent {
    /// The feed's owner.
    pub fn user_id(&self) -> &str {
        match self {
            BoardEvent::BoardCreated { user_id, .. }
            | BoardEvent::BoardEdited { user_id, .. }
            | BoardEvent::BoardRenamed { user_id, .. }
            | BoardEvent::BoardDescribed { user_id, .. }
            | BoardEvent::KeywordIncluded { user_id, .. }
            | BoardEvent::KeywordExcluded { user_id, .. }
            | BoardEvent::KeywordRemoved { user_id, .. }
            | BoardEvent::SourcesFiltered { user_id, .. }
            | BoardEvent::SecondarySourcesSet { user_id, .. }
            | BoardEvent::CategoriesFiltered { user_id, .. }
            | BoardEvent::DateRangeSet { user_id, .. }
            | BoardEvent::GroupSet { user_id, .. }
            | BoardEvent::CompaniesSet { user_id, .. }
            | BoardEvent::AttributesSet { user_id, .. }
            | BoardEvent::TopicsSet { user_id, .. }
            | BoardEvent::CurrentTopicSet { user_id, .. }
            | BoardEvent::FeedTypeSet { user_id, .. }
            | BoardEvent::BoardEnabled { user_id }
            | BoardEvent::BoardDisabled { user_id }
            | BoardEvent::BoardAlertsSet { user_id, .. }
            | BoardEvent::BoardDeleted { user_id }
            | BoardEvent::BoardFeedbackGiven { user_id, .. } => user_id,
        }
    }
}

fn same_keyword(a: &str, b: &str) -> bool {
    a.to_lowercase() == b.to_lowercase()
}

fn without(list: &mut Vec<BoardKeyword>, keyword: &str) {
    list.retain(|k| !same_keyword(&k.keyword, keyword));
}

fn with(list: &mut Vec<BoardKeyword>, keyword: &str) {
    if !list.iter().any(|k| same_keyword(&k.keyword, keyword)) {
        list.push(BoardKeyword { keyword: keyword.to_string(), valid: true });
    }
}

impl BoardDefinition {
    /// Applies one event's change to the definition; events that change no part of it (created,
    /// edited, enabled, alerts, deleted) leave it as it is.
    pub fn apply(&mut self, event: &BoardEvent) {
        match event {
            BoardEvent::BoardRenamed { name, .. } => self.name = name.clone(),
            BoardEvent::BoardDescribed { description, .. } => self.description = description.clone(),
            BoardEvent::KeywordIncluded { keyword, .. } => {
                without(&mut self.keywords.exclude, keyword);
                with(&mut self.keywords.include, keyword);
            }
            BoardEvent::KeywordExcluded { keyword, .. } => {
                without(&mut self.keywords.include, keyword);
                with(&mut self.keywords.exclude, keyword);
            }
            BoardEvent::KeywordRemoved { keyword, .. } => {
                without(&mut self.keywords.include, keyword);
                without(&mut self.keywords.exclude, keyword);
            }
            BoardEvent::SourcesFiltered { sources, .. } => self.sources = sources.clone(),
            BoardEvent::SecondarySourcesSet { secondary_sources, .. } => {
                self.secondary_sources = secondary_sources.clone()
            }
            BoardEvent::CategoriesFiltered { common, .. } => self.common = common.clone(),
            BoardEvent::DateRangeSet { date_range, .. } => self.date_range = date_range.clone(),
            BoardEvent::GroupSet { group, .. } => self.group = group.clone(),
            BoardEvent::CompaniesSet { companies, .. } => self.companies = companies.clone(),
            BoardEvent::AttributesSet { attributes, .. } => self.attributes = attributes.clone(),
            BoardEvent::TopicsSet { topics, .. } => self.topics = topics.clone(),
            BoardEvent::CurrentTopicSet { current_topic, .. } => self.current_topic = current_topic.clone(),
            BoardEvent::FeedTypeSet { feed_type, .. } => self.feed_type = feed_type.clone(),
            BoardEvent::BoardCreated { .. }
            | BoardEvent::BoardEdited { .. }
            | BoardEvent::BoardEnabled { .. }
            | BoardEvent::BoardDisabled { .. }
            | BoardEvent::BoardAlertsSet { .. }
            | BoardEvent::BoardDeleted { .. }
            | BoardEvent::BoardFeedbackGiven { .. } => {}
        }
    }

    /// The events that turn `self` into `to` (both cleaned), one per change, keywords in `to`'s
    /// order. Empty when nothing changed.
    pub fn changes_to(&self, to: &BoardDefinition, user_id: &str) -> Vec<BoardEvent> {
        let user_id = user_id.to_string();
        let mut events = Vec::new();
        if self.name != to.name {
            events.push(BoardEvent::BoardRenamed {
                user_id: user_id.clone(),
                from: self.name.clone(),
                name: to.name.clone(),
            });
        }
        if self.description != to.description {
            events.push(BoardEvent::BoardDescribed { user_id: user_id.clone(), description: to.description.clone() });
        }
        let kept = |list: &[BoardKeyword], keyword: &str| list.iter().any(|k| same_keyword(&k.keyword, keyword));
        for old in self.keywords.include.iter().chain(&self.keywords.exclude) {
            if !kept(&to.keywords.include, &old.keyword) && !kept(&to.keywords.exclude, &old.keyword) {
                events.push(BoardEvent::KeywordRemoved { user_id: user_id.clone(), keyword: old.keyword.clone() });
            }
        }
        for new in &to.keywords.include {
            if !self.keywords.include.iter().any(|k| k.keyword == new.keyword) {
                if let Some(old) = self.keywords.include.iter().find(|k| same_keyword(&k.keyword, &new.keyword)) {
                    // The same keyword in another case: written as it is now.
                    events.push(BoardEvent::KeywordRemoved { user_id: user_id.clone(), keyword: old.keyword.clone() });
                }
                events.push(BoardEvent::KeywordIncluded { user_id: user_id.clone(), keyword: new.keyword.clone() });
            }
        }
        for new in &to.keywords.exclude {
            if !self.keywords.exclude.iter().any(|k| k.keyword == new.keyword) {
                if let Some(old) = self.keywords.exclude.iter().find(|k| same_keyword(&k.keyword, &new.keyword)) {
                    events.push(BoardEvent::KeywordRemoved { user_id: user_id.clone(), keyword: old.keyword.clone() });
                }
                events.push(BoardEvent::KeywordExcluded { user_id: user_id.clone(), keyword: new.keyword.clone() });
            }
        }
        macro_rules! part {
            ($field:ident, $event:ident, $name:ident) => {
                if self.$field != to.$field {
                    events.push(BoardEvent::$event { user_id: user_id.clone(), $name: to.$field.clone() });
                }
            };
        }
        part!(sources, SourcesFiltered, sources);
        part!(secondary_sources, SecondarySourcesSet, secondary_sources);
        part!(common, CategoriesFiltered, common);
        part!(date_range, DateRangeSet, date_range);
        part!(group, GroupSet, group);
        part!(companies, CompaniesSet, companies);
        part!(attributes, AttributesSet, attributes);
        part!(topics, TopicsSet, topics);
        part!(current_topic, CurrentTopicSet, current_topic);
        part!(feed_type, FeedTypeSet, feed_type);
        events
    }

    /// The same definition with its keyword lists in a canonical order, for comparing two
    /// definitions whatever order their keywords were added in.
    fn canonical(&self) -> BoardDefinition {
        let mut out = self.clone();
        out.keywords.include.sort_by(|a, b| a.keyword.cmp(&b.keyword));
        out.keywords.exclude.sort_by(|a, b| a.keyword.cmp(&b.keyword));
        out
    }
}

/// Whether a definition's `topics` names at least one topic.
pub fn has_topics(topics: &Value) -> bool {
    topics.as_array().is_some_and(|a| !a.is_empty())
}

/// One feed. `owner` is `None` until it is created.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Board {
    owner: Option<String>,
    definition: BoardDefinition,
    /// The definition before the last edit, while it may be undone.
    previous: Option<BoardDefinition>,
    enabled: bool,
    alerts: Alerts,
    priority: Option<Priority>,
    deleted: bool,
}

impl Board {
    /// The owner's live feed, or not found (never created, deleted, or someone else's).
    fn owned_by(&self, actor: &str) -> Result<&str, BoardError> {
        match &self.owner {
            Some(owner) if owner == actor && !self.deleted => Ok(owner),
            _ => Err(BoardError::NotFound),
        }
    }

    /// The events of an edit to `to`: none when nothing changes.
    fn edit(&self, owner: &str, to: &BoardDefinition, undo: bool) -> Vec<BoardEvent> {
        let changes = self.definition.changes_to(to, owner);
        if changes.is_empty() {
            return changes;
        }
        let mut events = vec![BoardEvent::BoardEdited { user_id: owner.to_string(), undo }];
        events.extend(changes);
        events
    }

    pub fn decide(&self, command: BoardCommand) -> Result<Vec<BoardEvent>, BoardError> {
        match command {
            BoardCommand::Create { owner, definition, enabled, duplicated_from } => {
                if self.owner.is_some() {
                    return Err(BoardError::IdTaken);
                }
                let definition = Box::new(definition.cleaned()?);
                Ok(vec![BoardEvent::BoardCreated { user_id: owner, definition, enabled, duplicated_from }])
            }
            BoardCommand::Define { actor, definition } => {
                let owner = self.owned_by(&actor)?;
                let definition = definition.cleaned()?;
                if definition.canonical() == self.definition.canonical() {
                    return Ok(vec![]);
                }
                Ok(self.edit(owner, &definition, false))
            }
            BoardCommand::Undo { actor } => {
                let owner = self.owned_by(&actor)?;
                let previous = self.previous.as_ref().ok_or(BoardError::NothingToUndo)?;
                Ok(self.edit(owner, previous, true))
            }
            BoardCommand::Enable { actor, enabled } => {
                let owner = self.owned_by(&actor)?.to_string();
                Ok(match (self.enabled, enabled) {
                    (false, true) => vec![BoardEvent::BoardEnabled { user_id: owner }],
                    (true, false) => vec![BoardEvent::BoardDisabled { user_id: owner }],
                    _ => vec![],
                })
            }
            BoardCommand::SetAlerts { actor, alerts, priority } => {
                let owner = self.owned_by(&actor)?.to_string();
                if self.alerts == alerts && self.priority == Some(priority) {
                    return Ok(vec![]);
                }
                Ok(vec![BoardEvent::BoardAlertsSet { user_id: owner, alerts, priority }])
            }
            BoardCommand::Delete { actor } => {
                let owner = self.owned_by(&actor)?.to_string();
                Ok(vec![BoardEvent::BoardDeleted { user_id: owner }])
            }
            BoardCommand::Feedback { actor, deeplink, more } => {
                let owner = self.owned_by(&actor)?.to_string();
                if !has_topics(&self.definition.topics) {
                    return Err(BoardError::NoTopics);
                }
                let deeplink = deeplink.trim().to_string();
                if deeplink.is_empty() {
                    return Err(BoardError::DocumentRequired);
                }
                Ok(vec![BoardEvent::BoardFeedbackGiven { user_id: owner, deeplink, more }])
            }
        }
    }
}

impl Aggregate for Board {
    const TYPE: &'static str = "board";
    type Command = BoardCommand;
    type Event = BoardEvent;
    type Error = BoardError;
    type Services = ();

    crate::handle_by_deciding!();

    fn apply(&mut self, event: Self::Event) {
        match &event {
            BoardEvent::BoardCreated { user_id, definition, enabled, .. } => {
                self.owner = Some(user_id.clone());
                self.definition = (**definition).clone();
                self.enabled = *enabled;
            }
            BoardEvent::BoardEdited { undo, .. } => {
                self.previous = (!undo).then(|| self.definition.clone());
            }
            BoardEvent::BoardEnabled { .. } => self.enabled = true,
            BoardEvent::BoardDisabled { .. } => self.enabled = false,
            BoardEvent::BoardAlertsSet { alerts, priority, .. } => {
                self.alerts = *alerts;
                self.priority = Some(*priority);
            }
            BoardEvent::BoardDeleted { .. } => self.deleted = true,
            _ => self.definition.apply(&event),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// A feed's matches, one day at a time

/// Returns the id of one feed's matches on one day (`YYYY-MM-DD`, UTC). A day bounds how many
/// events one aggregate holds, however long a feed lives.
pub fn match_day_id(board_id: &str, day: &str) -> String {
    format!("{board_id}/{day}")
}

/// A new document a feed matched, and the story (near-duplicate group) it belongs to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Match {
    pub deeplink: String,
    pub story: Option<String>,
    /// The document's title, for the notification.
    pub title: String,
}

impl Match {
    /// The story, or the document itself when it has none.
    fn story_key(&self) -> &str {
        self.story.as_deref().unwrap_or(&self.deeplink)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum MatchDayCommand {
    /// Records documents the feed matched as they arrived, with the feed's alert settings at the
    /// time (read by the caller from the feed); ones recorded before are dropped.
    Record {
        user_id: String,
        board_id: String,
        board_name: String,
        day: String,
        matches: Vec<Match>,
        alerts: Alerts,
        priority: Priority,
    },
    /// Sends the day's digest: one entry per story not sent before.
    SendDigest { user_id: String, board_id: String, board_name: String, day: String },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum MatchDayEvent {
    BoardMatched {
        user_id: String,
        board_id: String,
        board_name: String,
        day: String,
        matches: Vec<Match>,
        alerts: Alerts,
        priority: Priority,
    },
    BoardDigestSent {
        user_id: String,
        board_id: String,
        board_name: String,
        day: String,
        matches: Vec<Match>,
    },
}

crate::impl_domain_event! {
    MatchDayEvent, versions {
        BoardMatched: "1",
        BoardDigestSent: "1",
    }
}

/// Why matches or a digest were refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MatchDayError {
    /// The day is part of the aggregate's id; a command naming another day was sent to the
    /// wrong aggregate.
    #[error("matches of one day were sent to another day's record")]
    WrongDay,
}

impl DomainError for MatchDayError {
    fn kind(&self) -> ErrorKind {
        ErrorKind::Invalid
    }

    fn code(&self) -> &'static str {
        "wrong_day"
    }
}

/// One feed's matches on one day, in the order they came, and the stories digests have listed.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MatchDay {
    day: Option<String>,
    matches: Vec<Match>,
    seen: BTreeSet<String>,
    digested: BTreeSet<String>,
}

impl MatchDay {
    fn check_day(&self, day: &str) -> Result<(), MatchDayError> {
        match &self.day {
            Some(ours) if ours != day => Err(MatchDayError::WrongDay),
            _ => Ok(()),
        }
    }

    pub fn decide(&self, command: MatchDayCommand) -> Result<Vec<MatchDayEvent>, MatchDayError> {
        match command {
            MatchDayCommand::Record { user_id, board_id, board_name, day, matches, alerts, priority } => {
                self.check_day(&day)?;
                let mut fresh = BTreeSet::new();
                let matches: Vec<Match> = matches
                    .into_iter()
                    .filter(|m| !self.seen.contains(&m.deeplink) && fresh.insert(m.deeplink.clone()))
                    .collect();
                if matches.is_empty() {
                    return Ok(vec![]);
                }
                Ok(vec![MatchDayEvent::BoardMatched { user_id, board_id, board_name, day, matches, alerts, priority }])
            }
            MatchDayCommand::SendDigest { user_id, board_id, board_name, day } => {
                self.check_day(&day)?;
                let mut stories = BTreeSet::new();
                let matches: Vec<Match> = self
                    .matches
                    .iter()
                    .filter(|m| !self.digested.contains(m.story_key()) && stories.insert(m.story_key().to_string()))
                    .cloned()
                    .collect();
                if matches.is_empty() {
                    return Ok(vec![]);
                }
                Ok(vec![MatchDayEvent::BoardDigestSent { user_id, board_id, board_name, day, matches }])
            }
        }
    }
}

impl Aggregate for MatchDay {
    const TYPE: &'static str = "board_match_day";
    type Command = MatchDayCommand;
    type Event = MatchDayEvent;
    type Error = MatchDayError;
    type Services = ();

    crate::handle_by_deciding!();

    fn apply(&mut self, event: Self::Event) {
        match event {
            MatchDayEvent::BoardMatched { day, matches, .. } => {
                self.day = Some(day);
                for m in matches {
                    self.seen.insert(m.deeplink.clone());
                    self.matches.push(m);
                }
            }
            MatchDayEvent::BoardDigestSent { matches, .. } => {
                for m in matches {
                    self.digested.insert(m.story_key().to_string());
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cqrs_es::test::TestFramework;

    type BoardTest = TestFramework<Board>;

    fn keywords(include: &[&str], exclude: &[&str]) -> BoardKeywords {
        let list = |l: &[&str]| l.iter().map(|k| BoardKeyword { keyword: k.to_string(), valid: true }).collect();
        BoardKeywords { include: list(include), exclude: list(exclude) }
    }

    fn definition(name: &str, include: &[&str], exclude: &[&str]) -> BoardDefinition {
        BoardDefinition { name: name.into(), keywords: keywords(include, exclude), ..Default::default() }
    }

    fn created(def: BoardDefinition) -> BoardEvent {
        BoardEvent::BoardCreated {
            user_id: "u1".into(),
            definition: Box::new(def.cleaned().unwrap()),
            enabled: true,
            duplicated_from: None,
        }
    }

    fn define(actor: &str, def: BoardDefinition) -> BoardCommand {
        BoardCommand::Define { actor: actor.into(), definition: Box::new(def) }
    }

    fn edited(undo: bool) -> BoardEvent {
        BoardEvent::BoardEdited { user_id: "u1".into(), undo }
    }

    fn included(k: &str) -> BoardEvent {
        BoardEvent::KeywordIncluded { user_id: "u1".into(), keyword: k.into() }
    }

    fn excluded(k: &str) -> BoardEvent {
        BoardEvent::KeywordExcluded { user_id: "u1".into(), keyword: k.into() }
    }

    fn removed(k: &str) -> BoardEvent {
        BoardEvent::KeywordRemoved { user_id: "u1".into(), keyword: k.into() }
    }

    /// The state after `events`.
    fn after(events: Vec<BoardEvent>) -> Board {
        let mut board = Board::default();
        for e in events {
            board.apply(e);
        }
        board
    }

    #[test]
    fn creating_a_feed_keeps_its_cleaned_definition() {
        BoardTest::with(())
            .given_no_previous_events()
            .when(BoardCommand::Create {
                owner: "u1".into(),
                definition: Box::new(definition("  Rates  ", &["inflation", "Inflation"], &[])),
                enabled: true,
                duplicated_from: None,
            })
            .then_expect_events(vec![created(definition("Rates", &["inflation"], &[]))]);
    }

    #[test]
    fn a_feed_without_a_name_is_refused() {
        BoardTest::with(())
            .given_no_previous_events()
            .when(BoardCommand::Create {
                owner: "u1".into(),
                definition: Box::new(definition("  ", &["x"], &[])),
                enabled: true,
                duplicated_from: None,
            })
            .then_expect_error(BoardError::NameRequired);
    }

    #[test]
    fn an_invalid_keyword_is_refused_with_the_spec_message() {
        let result = after(vec![created(definition("Rates", &["inflation"], &[]))])
            .decide(define("u1", definition("Rates", &["(inflation"], &[])));
        let err = result.unwrap_err();
        assert_eq!(err.to_string(), "Invalid keyword. Paranthesis are imbalanced.");
    }

    #[test]
    fn an_edit_is_one_event_per_change_opened_by_an_edited_event() {
        BoardTest::with(())
            .given(vec![created(definition("Rates", &["inflation"], &["crypto"]))])
            .when(define("u1", definition("Rate moves", &["inflation", "\"rate cut\""], &["crypto"])))
            .then_expect_events(vec![
                edited(false),
                BoardEvent::BoardRenamed { user_id: "u1".into(), from: "Rates".into(), name: "Rate moves".into() },
                included("\"rate cut\""),
            ]);
    }

    #[test]
    fn a_keyword_moved_to_the_other_list_leaves_the_first() {
        let events = after(vec![created(definition("Rates", &["inflation", "crypto"], &[]))])
            .decide(define("u1", definition("Rates", &["inflation"], &["crypto"])))
            .unwrap();
        assert_eq!(events, vec![edited(false), excluded("crypto")]);
        let mut board = after(vec![created(definition("Rates", &["inflation", "crypto"], &[]))]);
        for e in events {
            board.apply(e);
        }
        assert_eq!(board.definition.keywords, keywords(&["inflation"], &["crypto"]));
    }

    #[test]
    fn removing_a_keyword_is_recorded() {
        BoardTest::with(())
            .given(vec![created(definition("Rates", &["inflation", "rates"], &[]))])
            .when(define("u1", definition("Rates", &["rates"], &[])))
            .then_expect_events(vec![edited(false), removed("inflation")]);
    }

    #[test]
    fn saving_the_same_definition_changes_nothing() {
        BoardTest::with(())
            .given(vec![created(definition("Rates", &["inflation", "rates"], &[]))])
            .when(define("u1", definition("Rates", &["rates", "inflation"], &[])))
            .then_expect_events(vec![]);
    }

    #[test]
    fn feedback_is_taken_by_the_owners_feeds_that_follow_topics_only() {
        let keyword_feed = after(vec![created(definition("Rates", &["inflation"], &[]))]);
        let feedback = |actor: &str, deeplink: &str, more| BoardCommand::Feedback {
            actor: actor.into(),
            deeplink: deeplink.into(),
            more,
        };
        assert_eq!(keyword_feed.decide(feedback("u1", "d1", true)), Err(BoardError::NoTopics));
        let ai = BoardDefinition { topics: serde_json::json!(["mergers"]), ..definition("Deals", &[], &[]) };
        let ai_feed = after(vec![created(ai)]);
        assert_eq!(
            ai_feed.decide(feedback("u1", " d1 ", false)).unwrap(),
            vec![BoardEvent::BoardFeedbackGiven { user_id: "u1".into(), deeplink: "d1".into(), more: false }]
        );
        assert_eq!(ai_feed.decide(feedback("u2", "d1", true)), Err(BoardError::NotFound));
        assert_eq!(ai_feed.decide(feedback("u1", "  ", true)), Err(BoardError::DocumentRequired));
        // Feedback is not a change of the definition: nothing to undo after it.
        let mut board = ai_feed.clone();
        board.apply(BoardEvent::BoardFeedbackGiven { user_id: "u1".into(), deeplink: "d1".into(), more: true });
        assert_eq!(board, ai_feed);
    }

    #[test]
    fn undo_returns_to_the_definition_before_the_last_edit_once() {
        let first = definition("Rates", &["inflation"], &[]);
        let second = definition("Rates", &["inflation", "rates"], &["crypto"]);
        let mut board = after(vec![created(first.clone())]);
        for e in board.decide(define("u1", second)).unwrap() {
            board.apply(e);
        }
        let undo = board.decide(BoardCommand::Undo { actor: "u1".into() }).unwrap();
        assert_eq!(undo[0], edited(true));
        for e in undo {
            board.apply(e);
        }
        assert_eq!(board.definition.canonical(), first.cleaned().unwrap().canonical());
        assert_eq!(board.decide(BoardCommand::Undo { actor: "u1".into() }), Err(BoardError::NothingToUndo));
    }

    #[test]
    fn applying_the_changes_of_any_edit_reaches_the_new_definition() {
        let from = BoardDefinition {
            name: "A".into(),
            keywords: keywords(&["a", "b", "C"], &["d"]),
            sources: serde_json::json!({"s1": {"filter": true}}),
            date_range: Some("1M".into()),
            ..Default::default()
        };
        let to = BoardDefinition {
            name: "B".into(),
            description: "about b".into(),
            keywords: keywords(&["d", "c", "e"], &["a"]),
            sources: serde_json::json!({"s1": {"exclusion_filter": true}}),
            companies: serde_json::json!([{"name": "Infosys"}]),
            date_range: None,
            ..Default::default()
        };
        let (from, to) = (from.cleaned().unwrap(), to.cleaned().unwrap());
        let mut reached = from.clone();
        for e in from.changes_to(&to, "u1") {
            reached.apply(&e);
        }
        assert_eq!(reached.canonical(), to.canonical());
    }

    #[test]
    fn someone_else_cannot_see_or_change_a_feed() {
        BoardTest::with(())
            .given(vec![created(definition("Rates", &["inflation"], &[]))])
            .when(BoardCommand::Delete { actor: "u2".into() })
            .then_expect_error(BoardError::NotFound);
        BoardTest::with(())
            .given(vec![created(definition("Rates", &["inflation"], &[]))])
            .when(define("u2", definition("Mine now", &["x"], &[])))
            .then_expect_error(BoardError::NotFound);
    }

    #[test]
    fn a_deleted_feed_is_gone() {
        BoardTest::with(())
            .given(vec![
                created(definition("Rates", &["inflation"], &[])),
                BoardEvent::BoardDeleted { user_id: "u1".into() },
            ])
            .when(BoardCommand::Enable { actor: "u1".into(), enabled: false })
            .then_expect_error(BoardError::NotFound);
    }

    #[test]
    fn enabling_an_enabled_feed_changes_nothing_and_disabling_is_recorded() {
        BoardTest::with(())
            .given(vec![created(definition("Rates", &["inflation"], &[]))])
            .when(BoardCommand::Enable { actor: "u1".into(), enabled: true })
            .then_expect_events(vec![]);
        BoardTest::with(())
            .given(vec![created(definition("Rates", &["inflation"], &[]))])
            .when(BoardCommand::Enable { actor: "u1".into(), enabled: false })
            .then_expect_events(vec![BoardEvent::BoardDisabled { user_id: "u1".into() }]);
    }

    #[test]
    fn alerts_are_set_with_a_priority() {
        BoardTest::with(())
            .given(vec![created(definition("Rates", &["inflation"], &[]))])
            .when(BoardCommand::SetAlerts { actor: "u1".into(), alerts: Alerts::Immediate, priority: Priority::High })
            .then_expect_events(vec![BoardEvent::BoardAlertsSet {
                user_id: "u1".into(),
                alerts: Alerts::Immediate,
                priority: Priority::High,
            }]);
    }

    #[test]
    fn a_feed_id_is_created_once() {
        BoardTest::with(())
            .given(vec![created(definition("Rates", &["inflation"], &[]))])
            .when(BoardCommand::Create {
                owner: "u2".into(),
                definition: Box::new(definition("Other", &["x"], &[])),
                enabled: true,
                duplicated_from: None,
            })
            .then_expect_error(BoardError::IdTaken);
    }

    fn found(deeplink: &str, story: Option<&str>) -> Match {
        Match { deeplink: deeplink.into(), story: story.map(str::to_string), title: format!("About {deeplink}") }
    }

    fn record(matches: Vec<Match>) -> MatchDayCommand {
        MatchDayCommand::Record {
            user_id: "u1".into(),
            board_id: "b1".into(),
            board_name: "Rates".into(),
            day: "2026-11-24".into(),
            matches,
            alerts: Alerts::Digest,
            priority: Priority::Medium,
        }
    }

    fn recorded(matches: Vec<Match>) -> MatchDayEvent {
        MatchDayEvent::BoardMatched {
            user_id: "u1".into(),
            board_id: "b1".into(),
            board_name: "Rates".into(),
            day: "2026-11-24".into(),
            matches,
            alerts: Alerts::Digest,
            priority: Priority::Medium,
        }
    }

    #[test]
    fn a_document_is_recorded_as_a_match_once() {
        TestFramework::<MatchDay>::with(())
            .given(vec![recorded(vec![found("d1", None)])])
            .when(record(vec![found("d1", None), found("d2", None), found("d2", None)]))
            .then_expect_events(vec![recorded(vec![found("d2", None)])]);
    }

    #[test]
    fn a_digest_lists_each_story_once_and_never_again() {
        let digest = || MatchDayCommand::SendDigest {
            user_id: "u1".into(),
            board_id: "b1".into(),
            board_name: "Rates".into(),
            day: "2026-11-24".into(),
        };
        let sent = MatchDayEvent::BoardDigestSent {
            user_id: "u1".into(),
            board_id: "b1".into(),
            board_name: "Rates".into(),
            day: "2026-11-24".into(),
            matches: vec![found("d1", Some("s1")), found("d3", None)],
        };
        TestFramework::<MatchDay>::with(())
            .given(vec![recorded(vec![found("d1", Some("s1")), found("d2", Some("s1")), found("d3", None)])])
            .when(digest())
            .then_expect_events(vec![sent.clone()]);
        TestFramework::<MatchDay>::with(())
            .given(vec![
                recorded(vec![found("d1", Some("s1")), found("d3", None)]),
                sent,
                recorded(vec![found("d4", Some("s1"))]),
            ])
            .when(digest())
            .then_expect_events(vec![]);
    }

    #[test]
    fn a_digest_for_another_day_is_refused() {
        TestFramework::<MatchDay>::with(())
            .given(vec![recorded(vec![found("d1", None)])])
            .when(MatchDayCommand::SendDigest {
                user_id: "u1".into(),
                board_id: "b1".into(),
                board_name: "Rates".into(),
                day: "2026-11-25".into(),
            })
            .then_expect_error(MatchDayError::WrongDay);
    }
}
