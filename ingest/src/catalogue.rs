//! The public source catalogue: which public sources exist, what they are called, which group
//! they belong to and where their feeds are.
//!
//! The seed holds the spec's keys, the apps it names among them marked as such ([`EntryKind`]).
//! Exchange sources name a connector ([`crate::exchanges`]) and have their listing's address as
//! their first feed URL; other feed URLs are left empty where we know of no public feed (an entry
//! without a URL simply cannot be fetched yet). Operators add or override entries with a TOML or
//! JSON file, merged over the seed by [`Catalogue::load`].

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};
use url::Url;

use crate::connector::{SourceDef, SourceKind};
use crate::exchanges::{self, Exchange};

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
    /// Feeds to fetch for this source; empty when none is known yet. With a connector, the first
    /// is the exchange listing's address.
    pub feed_urls: Vec<Url>,
    /// The exchange connector ([`crate::exchanges::keys`]) that reads this source's listing,
    /// which is no feed; none for feeds.
    #[serde(default)]
    pub connector: Option<String>,
    /// Announcement categories this entry keeps (see [`crate::exchanges::in_categories`]); empty
    /// keeps all. Several entries can share one listing and keep different parts of it.
    #[serde(default)]
    pub categories: Vec<String>,
    /// Where the exchange's bare attachment names resolve, when not in the exchange's usual
    /// place (a mirror, or the exchange moving its files); always ends in `/`.
    #[serde(default)]
    pub attachment_base: Option<Url>,
}

impl CatalogueEntry {
    /// Returns the feed sources to fetch for this entry: none for an entry read by a connector,
    /// whose listing is no feed (see [`CatalogueEntry::exchange`]).
    pub fn sources(&self) -> Vec<SourceDef> {
        if self.connector.is_some() {
            return Vec::new();
        }
        self.feed_urls
            .iter()
            .map(|url| SourceDef { key: self.key.clone(), kind: SourceKind::Feed, url: url.clone() })
            .collect()
    }

    /// Returns the exchange that reads this entry's listing (`feed_urls[0]`), when it has one.
    pub fn exchange(&self) -> Option<&'static dyn Exchange> {
        self.connector.as_deref().and_then(exchanges::exchange)
    }

    /// Returns the address of the listing a connector reads.
    pub fn listing_url(&self) -> Option<&Url> {
        self.connector.as_ref().and(self.feed_urls.first())
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

/// A built-in entry. Exchange sources name their connector, listing and kept categories.
struct SeedEntry {
    key: &'static str,
    title: &'static str,
    group: Option<SourceGroup>,
    connector: Option<&'static str>,
    listing: Option<&'static str>,
    categories: &'static [&'static str],
}

/// A built-in entry with no feed and no connector.
const fn plain(key: &'static str, title: &'static str, group: Option<SourceGroup>) -> SeedEntry {
    SeedEntry { key, title, group, connector: None, listing: None, categories: &[] }
}

/// A built-in entry read from an exchange's listing.
const fn exchange_source(
    key: &'static str,
    title: &'static str,
    group: Option<SourceGroup>,
    connector: &'static str,
    listing: &'static str,
    categories: &'static [&'static str],
) -> SeedEntry {
    SeedEntry { key, title, group, connector: Some(connector), listing: Some(listing), categories }
}

/// BSE's listing of all announcements, newest first; the BSE entries keep their parts of it.
const BSE_LISTING: &str = "https://api.bseindia.com/BseIndiaAPI/api/AnnSubCategoryGetData/w?pageno=1&strCat=-1\
                           &strPrevDate=&strScrip=&strSearch=P&strToDate=&strType=C&subcategory=-1";
const NSE_LISTING: &str = "https://www.nseindia.com/api/corporate-announcements?index=equities";
const NZX_LISTING: &str = "https://www.nzx.com/markets/NZSX/announcements";

const INDIA: Option<SourceGroup> = Some(SourceGroup::IndianCapitalMarkets);

/// The spec's keys with our titles (the spec fixes only "Custom URL") and groups. `nzx_filings`
/// has no group: the spec's groups are Indian and US capital markets only.
/// `earnings_conf_calls` has no public listing we know of, so it stays unfetched.
const SEED: &[SeedEntry] = &[
    exchange_source("bse_annual_reports", "BSE Annual Reports", INDIA, "bse", BSE_LISTING, &["Annual Report"]),
    exchange_source(
        "bse_conf_calls",
        "BSE Conference Calls",
        INDIA,
        "bse",
        BSE_LISTING,
        &["Earnings Call", "Analyst / Investor Meet", "Conference Call"],
    ),
    exchange_source("bse_filings", "BSE Filings", INDIA, "bse", BSE_LISTING, &[]),
    exchange_source("bse_presentations", "BSE Presentations", INDIA, "bse", BSE_LISTING, &["Investor Presentation"]),
    exchange_source("bse_sdd_sast", "BSE SDD SAST", INDIA, "bse", BSE_LISTING, &["Insider Trading", "SAST"]),
    plain("earnings_conf_calls", "Earnings Conference Calls", Some(SourceGroup::UsCapitalMarkets)),
    exchange_source("nse_filings", "NSE Filings", INDIA, "nse", NSE_LISTING, &[]),
    exchange_source("nzx_filings", "NZX Filings", None, "nzx", NZX_LISTING, &[]),
    plain("clipped_reports", "Clipped Reports", None),
    plain("whatsapp", "WhatsApp", None),
    plain("telegram", "Telegram", None),
    plain("gmail", "Gmail", None),
    plain("googledrive", "Google Drive", None),
    plain("websitecrawl", "Custom URL", None),
    plain("needl_notebooks", "Needl Notebooks", None),
];

/// Most categories one entry may keep, and the longest one.
const MAX_CATEGORIES: usize = 50;
const MAX_CATEGORY_BYTES: usize = 200;

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
            .map(|seed| {
                let entry = CatalogueEntry {
                    key: seed.key.into(),
                    title: seed.title.into(),
                    group: seed.group,
                    kind: EntryKind::of_key(seed.key),
                    feed_urls: seed
                        .listing
                        .map(|url| Url::parse(url).expect("built-in listings are valid URLs"))
                        .into_iter()
                        .collect(),
                    connector: seed.connector.map(Into::into),
                    categories: seed.categories.iter().map(|c| (*c).to_owned()).collect(),
                    attachment_base: None,
                };
                (seed.key.to_owned(), entry)
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
            let connector = match raw.connector.as_deref().map(str::trim) {
                None => None,
                Some("") => Some(None),
                Some(name) => {
                    let lower = name.to_ascii_lowercase();
                    if exchanges::exchange(&lower).is_none() {
                        return Err(invalid(
                            "connector",
                            format!("{name:?} is not a known connector: use {} (or \"\" for none)", known_connectors()),
                        ));
                    }
                    Some(Some(lower))
                }
            };
            let categories = match &raw.categories {
                None => None,
                Some(list) => Some(checked_categories(list).map_err(|m| invalid("categories", m))?),
            };
            let attachment_base = match raw.attachment_base.as_deref().map(str::trim) {
                None => None,
                Some("") => Some(None),
                Some(raw_base) => {
                    let mut base = http_url(raw_base).map_err(|m| invalid("attachment_base", m))?;
                    // Names resolve inside the folder only when its path ends in a slash.
                    if !base.path().ends_with('/') {
                        let path = format!("{}/", base.path());
                        base.set_path(&path);
                    }
                    Some(Some(base))
                }
            };
            let entry = merged.entry(key.to_owned()).or_insert_with(|| CatalogueEntry {
                key: key.to_owned(),
                title: title_for_key(key),
                group: None,
                kind: EntryKind::of_key(key),
                feed_urls: vec![],
                connector: None,
                categories: vec![],
                attachment_base: None,
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
            if let Some(connector) = connector {
                entry.connector = connector;
            }
            if let Some(categories) = categories {
                entry.categories = categories;
            }
            if let Some(base) = attachment_base {
                entry.attachment_base = base;
            }
            if let Some(connector) = &entry.connector {
                if entry.feed_urls.is_empty() {
                    return Err(invalid(
                        "feed_urls",
                        format!("a source read by the {connector:?} connector needs its listing's address here"),
                    ));
                }
            } else if raw.categories.as_ref().is_some_and(|c| !c.is_empty()) {
                return Err(invalid("categories", "only a source with a connector keeps categories".into()));
            } else if raw.attachment_base.as_deref().is_some_and(|b| !b.trim().is_empty()) {
                return Err(invalid("attachment_base", "only a source with a connector has attachments".into()));
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

/// Returns the known connector keys for a message: `"bse", "nse" or "nzx"`.
fn known_connectors() -> String {
    let quoted: Vec<String> = exchanges::keys().iter().map(|k| format!("{k:?}")).collect();
    match quoted.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        Some((last, _)) => last.clone(),
        None => "none".into(),
    }
}

/// Checks an operator's categories: trimmed, none blank, at most [`MAX_CATEGORIES`] of at most
/// [`MAX_CATEGORY_BYTES`] each.
fn checked_categories(list: &[String]) -> Result<Vec<String>, String> {
    if list.len() > MAX_CATEGORIES {
        return Err(format!("at most {MAX_CATEGORIES} categories, not {}", list.len()));
    }
    list.iter()
        .map(|c| match c.trim() {
            "" => Err("a category must not be blank".to_owned()),
            t if t.len() > MAX_CATEGORY_BYTES => Err(format!("a category must be at most {MAX_CATEGORY_BYTES} bytes")),
            t => Ok(t.to_owned()),
        })
        .collect()
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
    /// An exchange connector key, or `""` for none.
    connector: Option<String>,
    categories: Option<Vec<String>>,
    /// Where bare attachment names resolve, or `""` for the exchange's usual place.
    attachment_base: Option<String>,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_seeded_connector_is_a_known_exchange_with_a_listing() {
        for seed in SEED {
            if let Some(connector) = seed.connector {
                assert!(exchanges::exchange(connector).is_some(), "{}", seed.key);
                assert!(seed.listing.is_some_and(|l| http_url(l).is_ok()), "{}", seed.key);
            } else {
                assert!(seed.listing.is_none() && seed.categories.is_empty(), "{}", seed.key);
            }
        }
    }

    #[test]
    fn the_known_connectors_read_as_a_list() {
        assert_eq!(known_connectors(), r#""bse", "nse" or "nzx""#);
    }

    #[test]
    fn categories_are_trimmed_and_bounded() {
        assert_eq!(checked_categories(&[" SAST ".into()]), Ok(vec!["SAST".to_owned()]));
        assert!(checked_categories(&["x".repeat(MAX_CATEGORY_BYTES + 1)]).is_err());
        assert!(checked_categories(&[String::new()]).is_err());
        assert_eq!(checked_categories(&[]), Ok(vec![]));
    }
}
