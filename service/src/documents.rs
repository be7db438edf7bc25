//! Documents as cards show them, and the queries that read them under the read policy.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::access::{AccessKeys, Purpose};
use crate::policy::{readable_condition, visible_condition};

pub use crate::drive::DRIVE_SOURCE;

/// The source of files attached to AskNeedl questions: private to who attached them.
pub const ASK_SOURCE: &str = "ask_needl";
/// The source search results name for notes (notes are not documents).
pub const NOTES_SOURCE: &str = "needl_notebooks";

/// A source's label when the catalogue has none: the private sources by name, else the id.
pub fn fallback_label(source_id: &str) -> String {
    match source_id {
        DRIVE_SOURCE => "Needl Drive".to_string(),
        ASK_SOURCE => "AskNeedl attachments".to_string(),
        other => other.to_string(),
    }
}

/// My Data's sub-categories, in the order the tabs show them, with their labels.
pub const SUB_CATEGORIES: &[(&str, &str)] = &[
    ("rss_news", "Website & RSS"),
    ("exchanges", "Exchanges"),
    ("webclips", "Web Clips"),
    ("chats", "Chats"),
    ("emails", "Emails"),
    ("socialmedia", "Social Media"),
    ("drives", "Drives"),
    ("notes", "Notes"),
];

/// The SQL condition that puts a visible document (`d`, its source `s`) in a sub-category; `$1`
/// is the user. `None` for sub-categories no connector fills yet.
pub fn sub_category_condition(key: &str) -> Option<String> {
    match key {
        "rss_news" => Some("s.kind IN ('rss', 'website')".to_string()),
        "exchanges" => Some("s.kind = 'public'".to_string()),
        "drives" => Some(format!("d.owner = $1 AND d.source_id = '{DRIVE_SOURCE}'")),
        _ => None,
    }
}

/// A document card's columns, as [`VISIBLE`], [`READABLE`], [`PUBLIC`] and [`ANY`] select them.
#[derive(Debug, sqlx::FromRow)]
pub struct DocumentRow {
    deeplink: String,
    source_id: String,
    link: Option<String>,
    title: String,
    author: Option<String>,
    published_at: Option<String>,
    summary: Option<String>,
    metadata: String,
    ingested_at: String,
    is_read: bool,
    is_owned: bool,
}

/// A document as cards and previews show it.
#[derive(Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DocumentCard {
    pub deeplink: String,
    pub source: String,
    pub link: Option<String>,
    pub title: String,
    pub author: Option<String>,
    pub published_at: Option<String>,
    pub summary: Option<String>,
    /// Detail tags and file metadata.
    pub metadata: BTreeMap<String, String>,
    /// Where the server keeps the file and its layout: never sent.
    #[serde(skip)]
    pub internal: BTreeMap<String, String>,
    pub ingested_at: String,
    pub read: bool,
    /// Whether the user uploaded it (and so may delete it).
    pub owned: bool,
    /// Sent back with `deeplink` when the app opens the document.
    pub access_key: String,
    /// With `share=true`: the key of a link that lets any signed-in person read this document.
    pub public_access_key: Option<String>,
}

impl DocumentCard {
    pub fn from_row(row: DocumentRow, keys: &AccessKeys) -> Self {
        let (internal, metadata): (BTreeMap<String, String>, BTreeMap<String, String>) =
            serde_json::from_str::<BTreeMap<String, String>>(&row.metadata)
                .unwrap_or_default()
                .into_iter()
                .partition(|(key, _)| INTERNAL_METADATA.contains(&key.as_str()));
        DocumentCard {
            access_key: keys.key(Purpose::Access, &row.deeplink),
            public_access_key: None,
            deeplink: row.deeplink,
            source: row.source_id,
            link: row.link,
            title: row.title,
            author: row.author,
            published_at: row.published_at,
            summary: row.summary,
            metadata,
            internal,
            ingested_at: row.ingested_at,
            read: row.is_read,
            owned: row.is_owned,
        }
    }
}

/// Metadata keys that locate the stored file and layout: the server's business, not the reader's.
const INTERNAL_METADATA: &[&str] = &["bucket", "object_key", "layout_blob"];

/// A document card's columns and joins, for user `$1`.
macro_rules! card_select {
    () => {
        "SELECT d.deeplink, d.source_id, d.link, d.title, d.author, d.published_at, d.summary, \
         d.metadata, d.ingested_at, \
         CASE WHEN r.deeplink IS NULL THEN FALSE ELSE TRUE END AS is_read, \
         CASE WHEN d.owner = $1 THEN TRUE ELSE FALSE END AS is_owned \
         FROM documents_view d \
         LEFT JOIN read_marks_view r ON r.deeplink = d.deeplink AND r.user_id = $1 \
         LEFT JOIN sources_view s ON s.source_id = d.source_id "
    };
}

/// Cards of the documents in user `$1`'s own data (the policy's rules 1 and 2).
pub const VISIBLE: &str = concat!(card_select!(), "WHERE ", visible_condition!());

/// Cards of the documents user `$1` may open (the policy's rules 1 to 3).
pub const READABLE: &str = concat!(card_select!(), "WHERE ", readable_condition!());

/// Cards of shared sources' documents, followed or not: the public corpus (Needl Web). `$1` is
/// the user.
pub const PUBLIC: &str = concat!(card_select!(), "WHERE d.owner IS NULL");

/// Cards of any document, whoever may read it: for shared links, and a channel's items once the
/// channel is known to be seen. `$1` is the user.
pub const ANY: &str = concat!(card_select!(), "WHERE TRUE");
