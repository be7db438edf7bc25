//! The public source catalogue: which public sources exist, what they are called, which group
//! they belong to and where their feeds are.
//!
//! The seed holds the spec's keys, the apps it names among them marked as such ([`EntryKind`]).
//! Feed URLs are left empty where we know of no public feed (an entry without a URL simply cannot
//! be fetched yet); operators add or override entries with a TOML or JSON file, merged over the
//! seed by [`Catalogue::load`].

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};
use url::Url;

use crate::connector::{SourceDef, SourceKind};

/// The spec's source groups; a source may also have none.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SourceGroup {
    #[serde(rename = "Indian Capital Markets")]
    IndianCapitalMarkets,
    #[serde(rename = "US Capital Markets")]
    UsCapitalMarkets,
}

impl SourceGroup {
    pub fn label(self) -> &'static str {
        match self {
            SourceGroup::IndianCapitalMarkets => "Indian Capital Markets",
            SourceGroup::UsCapitalMarkets => "US Capital Markets",
        }
    }

    fn parse(label: &str) -> Option<Option<Self>> {
        match label.trim() {
            "" => Some(None),
            "Indian Capital Markets" => Some(Some(SourceGroup::IndianCapitalMarkets)),
            "US Capital Markets" => Some(Some(SourceGroup::UsCapitalMarkets)),
            _ => None,
        }
    }
}

/// What a catalogue entry stands for. The spec's catalogue names apps (mail, chats, drives,
/// clipped reports, social media) and what Needl itself holds (Custom URL, Notebooks) beside the
/// public sources, to title their documents; only sources are followed from the catalogue page,
/// the others are connected under Apps.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EntryKind {
    /// A public source: followed by key.
    #[default]
    Source,
    /// An app, or a part of Needl: not followed from the catalogue.
    App,
}

impl EntryKind {
    /// The kind of an entry by its key: an app for the keys the spec gives apps and Needl's own
    /// parts (seeded or not), a source for any other.
    pub fn of_key(key: &str) -> Self {
        if APP_KEYS.contains(&key) {
            EntryKind::App
        } else {
            EntryKind::Source
        }
    }

    fn parse(label: &str) -> Option<Self> {
        match label.trim() {
            "source" => Some(EntryKind::Source),
            "app" => Some(EntryKind::App),
            _ => None,
        }
    }
}

/// Keys of apps and of Needl's own parts, as /apps/{key} and document sources name them. Some
/// are not seeded (Outlook, OneDrive, X, LinkedIn); an operator who adds one gets an app too.
const APP_KEYS: &[&str] = &[
    "clipped_reports",
    "email",
    "gmail",
    "googledrive",
    "linkedin",
    "needl_notebooks",
    "onedrive",
    "outlook",
    "telegram",
    "twitter",
    "webdav",
    "websitecrawl",
    "whatsapp",
];

/// One catalogue entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CatalogueEntry {
    pub key: String,
    pub title: String,
    pub group: Option<SourceGroup>,
    /// Whether users follow it here or connect it under Apps.
    pub kind: EntryKind,
    /// Feeds to fetch for this source; empty when none is known yet.
    pub feed_urls: Vec<Url>,
}

impl CatalogueEntry {
    /// Returns the feed sources to fetch for this entry.
    pub fn sources(&self) -> Vec<SourceDef> {
        self.feed_urls
            .iter()
            .map(|url| SourceDef { key: self.key.clone(), kind: SourceKind::Feed, url: url.clone() })
            .collect()
    }
}

/// Why an operator's catalogue file was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CatalogueError {
    #[error("could not read catalogue file {path}: {message}")]
    Read { path: String, message: String },
    #[error("catalogue file {path} is not valid {format}: {message}")]
    Syntax { path: String, format: &'static str, message: String },
    #[error("catalogue file {path}, source {index} ({key}): field {field}: {message}")]
    Invalid { path: String, index: usize, key: String, field: &'static str, message: String },
}

/// A feed suggested under a topic.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TopicFeed {
    pub url: Url,
    pub label: String,
}

/// Suggested RSS feeds on one subject, for the connect page's topic lists.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Topic {
    pub key: String,
    pub title: String,
    pub feeds: Vec<TopicFeed>,
}

/// The catalogue, ordered by key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Catalogue {
    entries: BTreeMap<String, CatalogueEntry>,
    topics: BTreeMap<String, Topic>,
}

/// A built-in topic: key, title, and its feeds as (URL, label).
type SeedTopic = (&'static str, &'static str, &'static [(&'static str, &'static str)]);

/// Built-in topics: public feeds of regulators, central banks and research archives. Operators
/// replace or add topics with `[[topic]]` tables in the catalogue file.
const SEED_TOPICS: &[SeedTopic] = &[
    (
        "regulators",
        "Regulators and central banks",
        &[
            ("https://www.sec.gov/news/pressreleases.rss", "SEC press releases"),
            ("https://www.federalreserve.gov/feeds/press_all.xml", "Federal Reserve press releases"),
            ("https://www.rbi.org.in/pressreleases_rss.xml", "RBI press releases"),
        ],
    ),
    (
        "research",
        "Research preprints",
        &[
            ("https://rss.arxiv.org/rss/q-fin", "arXiv Quantitative Finance"),
            ("https://rss.arxiv.org/rss/econ", "arXiv Economics"),
            ("https://rss.arxiv.org/rss/cs.CL", "arXiv Computation and Language"),
        ],
    ),
];

/// The spec's keys with our titles (the spec fixes only "Custom URL") and groups. `nzx_filings`
/// has no group: the spec's groups are Indian and US capital markets only.
const SEED: &[(&str, &str, Option<SourceGroup>)] = &[
    ("bse_annual_reports", "BSE Annual Reports", Some(SourceGroup::IndianCapitalMarkets)),
    ("bse_conf_calls", "BSE Conference Calls", Some(SourceGroup::IndianCapitalMarkets)),
    ("bse_filings", "BSE Filings", Some(SourceGroup::IndianCapitalMarkets)),
    ("bse_presentations", "BSE Presentations", Some(SourceGroup::IndianCapitalMarkets)),
    ("bse_sdd_sast", "BSE SDD SAST", Some(SourceGroup::IndianCapitalMarkets)),
    ("earnings_conf_calls", "Earnings Conference Calls", Some(SourceGroup::UsCapitalMarkets)),
    ("nzx_filings", "NZX Filings", None),
    ("clipped_reports", "Clipped Reports", None),
    ("whatsapp", "WhatsApp", None),
    ("telegram", "Telegram", None),
    ("gmail", "Gmail", None),
    ("googledrive", "Google Drive", None),
    ("websitecrawl", "Custom URL", None),
    ("needl_notebooks", "Needl Notebooks", None),
];

impl Default for Catalogue {
    fn default() -> Self {
        Self::seed()
    }
}

impl Catalogue {
    /// Returns the built-in catalogue.
    pub fn seed() -> Self {
        let entries = SEED
            .iter()
            .map(|(key, title, group)| {
                let entry = CatalogueEntry {
                    key: (*key).into(),
                    title: (*title).into(),
                    group: *group,
                    kind: EntryKind::of_key(key),
                    feed_urls: vec![],
                };
                ((*key).to_owned(), entry)
            })
            .collect();
        let topics = SEED_TOPICS
            .iter()
            .map(|(key, title, feeds)| {
                let feeds = feeds
                    .iter()
                    .map(|(url, label)| TopicFeed {
                        url: Url::parse(url).expect("built-in topic feeds are valid URLs"),
                        label: (*label).into(),
                    })
                    .collect();
                ((*key).to_owned(), Topic { key: (*key).into(), title: (*title).into(), feeds })
            })
            .collect();
        Self { entries, topics }
    }

    /// Returns the seed with the operator's file merged over it (`.json` is read as JSON,
    /// anything else as TOML).
    pub fn load(path: &Path) -> Result<Self, CatalogueError> {
        let shown = path.display().to_string();
        let text = std::fs::read_to_string(path)
            .map_err(|e| CatalogueError::Read { path: shown.clone(), message: e.to_string() })?;
        let format =
            if path.extension().is_some_and(|e| e.eq_ignore_ascii_case("json")) { Format::Json } else { Format::Toml };
        let mut catalogue = Self::seed();
        catalogue.merge_str(&text, format, &shown)?;
        Ok(catalogue)
    }

    /// Merges entries from `text` over this catalogue: a known key has the given fields replaced,
    /// an unknown key is added (its title derived from the key when not given). `origin` names
    /// the file in error messages.
    pub fn merge_str(&mut self, text: &str, format: Format, origin: &str) -> Result<(), CatalogueError> {
        let file: CatalogueFile = match format {
            Format::Toml => toml::from_str(text).map_err(|e| CatalogueError::Syntax {
                path: origin.to_owned(),
                format: "TOML",
                message: e.to_string().trim().replace('\n', " "),
            })?,
            Format::Json => serde_json::from_str(text).map_err(|e| CatalogueError::Syntax {
                path: origin.to_owned(),
                format: "JSON",
                message: e.to_string(),
            })?,
        };
        let mut merged = self.entries.clone();
        for (n, raw) in file.source.into_iter().enumerate() {
            let invalid = invalid_in(origin, n, &raw.key);
            let key = raw.key.trim();
            if key.is_empty()
                || !key.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '.')
            {
                return Err(invalid("key", "use lowercase letters, digits, underscores and dots".into()));
            }
            let group = match raw.group.as_deref() {
                None => None,
                Some(label) => Some(SourceGroup::parse(label).ok_or_else(|| {
                    invalid(
                        "group",
                        format!("{label:?} is not \"Indian Capital Markets\", \"US Capital Markets\" or \"\""),
                    )
                })?),
            };
            let feed_urls = match &raw.feed_urls {
                None => None,
                Some(urls) => Some(
                    urls.iter()
                        .map(|u| http_url(u).map_err(|m| invalid("feed_urls", m)))
                        .collect::<Result<Vec<_>, _>>()?,
                ),
            };
            if raw.title.as_deref().is_some_and(|t| t.trim().is_empty()) {
                return Err(invalid("title", "must not be empty".into()));
            }
            let kind = match raw.kind.as_deref() {
                None => None,
                Some(label) => Some(
                    EntryKind::parse(label)
                        .ok_or_else(|| invalid("kind", format!("{label:?} is not \"source\" or \"app\"")))?,
                ),
            };
            let entry = merged.entry(key.to_owned()).or_insert_with(|| CatalogueEntry {
                key: key.to_owned(),
                title: title_for_key(key),
                group: None,
                kind: EntryKind::of_key(key),
                feed_urls: vec![],
            });
            if let Some(title) = raw.title {
                entry.title = title.trim().to_owned();
            }
            if let Some(group) = group {
                entry.group = group;
            }
            if let Some(kind) = kind {
                entry.kind = kind;
            }
            if let Some(urls) = feed_urls {
                entry.feed_urls = urls;
            }
        }
        self.entries = merged;
        let mut topics = self.topics.clone();
        for (n, raw) in file.topic.into_iter().enumerate() {
            let invalid = invalid_in(origin, n, &raw.key);
            let key = raw.key.trim();
            if key.is_empty() || !key.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_') {
                return Err(invalid("key", "use lowercase letters, digits and underscores".into()));
            }
            let feeds = raw
                .feeds
                .iter()
                .map(|f| {
                    let url = http_url(&f.url).map_err(|m| invalid("feeds", m))?;
                    let label = f.label.clone().filter(|l| !l.trim().is_empty());
                    Ok(TopicFeed { label: label.unwrap_or_else(|| url.host_str().unwrap_or_default().to_owned()), url })
                })
                .collect::<Result<Vec<_>, _>>()?;
            let title = raw
                .title
                .filter(|t| !t.trim().is_empty())
                .or_else(|| topics.get(key).map(|t: &Topic| t.title.clone()))
                .unwrap_or_else(|| title_for_key(key));
            topics.insert(key.to_owned(), Topic { key: key.to_owned(), title, feeds });
        }
        self.topics = topics;
        Ok(())
    }

    /// Returns the RSS topics ordered by key.
    pub fn topics(&self) -> impl Iterator<Item = &Topic> {
        self.topics.values()
    }

    pub fn topic(&self, key: &str) -> Option<&Topic> {
        self.topics.get(key)
    }

    pub fn get(&self, key: &str) -> Option<&CatalogueEntry> {
        self.entries.get(key)
    }

    /// Returns the entries ordered by key.
    pub fn entries(&self) -> impl Iterator<Item = &CatalogueEntry> {
        self.entries.values()
    }

    /// Returns the title of `key`: the catalogue's when known, else derived from the key.
    pub fn title(&self, key: &str) -> String {
        self.get(key).map_or_else(|| title_for_key(key), |e| e.title.clone())
    }
}

/// Makes the error for field `field` of the `n`th (from 0) table of an operator file.
fn invalid_in<'a>(origin: &'a str, n: usize, key: &'a str) -> impl Fn(&'static str, String) -> CatalogueError + 'a {
    move |field, message| CatalogueError::Invalid {
        path: origin.to_owned(),
        index: n + 1,
        key: key.to_owned(),
        field,
        message,
    }
}

/// Parses an operator's feed address: http or https only.
fn http_url(raw: &str) -> Result<Url, String> {
    match Url::parse(raw.trim()) {
        Ok(url) if matches!(url.scheme(), "http" | "https") => Ok(url),
        Ok(_) => Err(format!("{raw:?} is not an http or https url")),
        Err(e) => Err(format!("{raw:?}: {e}")),
    }
}

/// Which syntax an operator file uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Toml,
    Json,
}

/// The operator file: `[[source]]` and `[[topic]]` tables in TOML, `{"source": [...], "topic":
/// [...]}` in JSON.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CatalogueFile {
    #[serde(default)]
    source: Vec<RawEntry>,
    #[serde(default)]
    topic: Vec<RawTopic>,
}

/// A topic as the operator writes it; its feeds replace the built-in topic's.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTopic {
    key: String,
    title: Option<String>,
    #[serde(default)]
    feeds: Vec<RawTopicFeed>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTopicFeed {
    url: String,
    label: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEntry {
    key: String,
    title: Option<String>,
    /// A group label, or `""` for none.
    group: Option<String>,
    /// `source` or `app`; by default an app for the keys of apps, a source for any other.
    kind: Option<String>,
    feed_urls: Option<Vec<String>>,
}

/// Returns the spec's title for a key the catalogue does not know: underscores and dots turned
/// to spaces and the first letter capitalised (`nse_bulk.deals` gives "Nse bulk deals"). The
/// seeded `websitecrawl` is "Custom URL"; see [`Catalogue::title`] for known keys.
pub fn title_for_key(key: &str) -> String {
    if key == "websitecrawl" {
        return "Custom URL".to_owned();
    }
    let spaced: String = key.chars().map(|c| if c == '_' || c == '.' { ' ' } else { c }).collect();
    let mut chars = spaced.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}
