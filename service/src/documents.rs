//! Documents as cards show them, the queries that read them under the read policy, and what a
//! reader does with one: open it (with its card's key, or a shared link's), share it, delete an
//! uploaded one with its stored file, read its page layout, list My Data, and mark it read.

use std::collections::BTreeMap;

use commands::args;
use domain::document::{read_mark_id, DocumentCommand, MarkDocument, ReadState};
use serde::{Deserialize, Serialize};

use crate::access::{AccessKeys, Purpose};
use crate::context::Context;
use crate::error::{Error, Result};
use crate::policy::{readable, readable_condition, require_flag, visible_condition};
use crate::viewer::Viewer;

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
    /// The title and summary's tone by the finance lexicon (`sentiment`), for the card's badge.
    #[serde(default)]
    pub sentiment: crate::sentiment::Sentiment,
}

impl DocumentCard {
    pub fn from_row(row: DocumentRow, keys: &AccessKeys) -> Self {
        let (internal, metadata): (BTreeMap<String, String>, BTreeMap<String, String>) =
            serde_json::from_str::<BTreeMap<String, String>>(&row.metadata)
                .unwrap_or_default()
                .into_iter()
                .partition(|(key, _)| INTERNAL_METADATA.contains(&key.as_str()));
        let sentiment = crate::sentiment::judge(&format!("{}. {}", row.title, row.summary.as_deref().unwrap_or("")));
        DocumentCard {
            sentiment,
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
const INTERNAL_METADATA: &[&str] = &["bucket", "object_key", "layout_blob", "attached_to"];

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

/// The document `deeplink` of `source` if the user may read it (`public_access_key`: a shared
/// link's key). Another source's document of that deeplink is not found.
pub async fn document_in(
    ctx: &Context,
    user_id: &str,
    source: &str,
    deeplink: &str,
    public_access_key: Option<&str>,
) -> Result<DocumentCard> {
    let card = readable(ctx, user_id, deeplink, public_access_key).await?;
    if card.source != source {
        return Err(Error::not_found("document not found"));
    }
    Ok(card)
}

/// How the app asks to open a document.
#[derive(Debug, Clone, Copy, Default)]
pub struct Opening<'a> {
    /// The card's `access_key`; a wrong one is not found.
    pub access_key: Option<&'a str>,
    /// A shared link's key: opens the document for anyone signed in.
    pub public_access_key: Option<&'a str>,
    /// Makes (and records) a shared link: the card carries its `public_access_key`.
    pub share: bool,
}

/// One document the viewer may read, shared when asked (with the `doc_share` flag on).
pub async fn open(
    ctx: &Context,
    viewer: &Viewer,
    source: &str,
    deeplink: &str,
    opening: Opening<'_>,
) -> Result<DocumentCard> {
    if opening.access_key.is_some_and(|k| !ctx.access.verify(Purpose::Access, deeplink, k)) {
        return Err(Error::not_found("document not found"));
    }
    let mut card = document_in(ctx, &viewer.user_id, source, deeplink, opening.public_access_key).await?;
    if opening.share {
        require_flag(ctx, viewer, "doc_share", "sharing documents is turned off for you").await?;
        ctx.bus
            .execute(
                &ctx.bus.documents,
                &card.deeplink,
                DocumentCommand::Share { user_id: viewer.user_id.clone() },
                &viewer.metadata(),
            )
            .await?;
        card.public_access_key = Some(ctx.access.key(Purpose::Public, &card.deeplink));
    }
    Ok(card)
}

/// Deletes a document the viewer uploaded (documents of shared sources cannot be deleted), then
/// its stored file; a file storage keeps is logged, not an error.
pub async fn delete(ctx: &Context, viewer: &Viewer, source: &str, deeplink: &str) -> Result<()> {
    let card = document_in(ctx, &viewer.user_id, source, deeplink, None).await?;
    if !card.owned {
        return Err(Error::forbidden("only documents you uploaded can be deleted"));
    }
    ctx.command(&ctx.bus.documents, &card.deeplink, DocumentCommand::Delete, &viewer.metadata()).await?;
    if let Some(key) = card.internal.get("object_key") {
        if let Err(error) = ctx.storage.delete(key).await {
            tracing::warn!(%key, error = %format!("{error:#}"), "a deleted document's file stays in storage");
        }
    }
    Ok(())
}

/// Where an uploaded document's original file is kept, and what to call it when it is sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DocumentFile {
    /// The file's key in [`Context::storage`].
    pub key: String,
    /// The declared mime type; `application/octet-stream` when unknown.
    pub mime_type: String,
    /// The uploaded file's name; `document` when unknown.
    pub file_name: String,
}

/// The stored file of a document the user may read.
pub async fn file(
    ctx: &Context,
    user_id: &str,
    source: &str,
    deeplink: &str,
    public_access_key: Option<&str>,
) -> Result<DocumentFile> {
    let card = document_in(ctx, user_id, source, deeplink, public_access_key).await?;
    let key = card.internal.get("object_key").ok_or_else(|| Error::not_found("this document has no stored file"))?;
    Ok(DocumentFile {
        key: key.clone(),
        mime_type: card.metadata.get("mime_type").cloned().unwrap_or_else(|| "application/octet-stream".into()),
        file_name: card.metadata.get("original_file_name").cloned().unwrap_or_else(|| "document".into()),
    })
}

#[derive(Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LayoutBlock {
    pub text: String,
    /// x0, y0, x1, y1 in PDF points from the page's top left.
    pub bbox: [f32; 4],
}

#[derive(Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LayoutPage {
    pub number: u32,
    pub width: f32,
    pub height: f32,
    pub blocks: Vec<LayoutBlock>,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Layout {
    pub pages: Vec<LayoutPage>,
}

/// The pages of a document the user may read, with their text blocks and boxes, so a passage
/// can be drawn on its page.
pub async fn layout(
    ctx: &Context,
    user_id: &str,
    source: &str,
    deeplink: &str,
    public_access_key: Option<&str>,
) -> Result<Layout> {
    let card = document_in(ctx, user_id, source, deeplink, public_access_key).await?;
    let hash = card.internal.get("layout_blob").ok_or_else(|| Error::not_found("this document has no page layout"))?;
    let stored =
        ctx.blobs.get(hash).await.ok_or_else(|| Error::not_found("this document's page layout is no longer stored"))?;
    let extracted: extract::Extracted = serde_json::from_str(&stored).map_err(Error::internal)?;
    Ok(Layout {
        pages: extracted
            .pages
            .into_iter()
            .map(|p| LayoutPage {
                number: p.number,
                width: p.width,
                height: p.height,
                blocks: p.blocks.into_iter().map(|b| LayoutBlock { text: b.text, bbox: b.bbox }).collect(),
            })
            .collect(),
    })
}

// A page of document cards. (A plain comment: the OpenAPI document gives this type no description.)
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DocumentPage {
    pub results: Vec<DocumentCard>,
    pub page: i64,
    pub has_more: bool,
}

impl DocumentPage {
    /// The page `page` of `limit` cards from `rows`, fetched with one row more than the page holds
    /// (so that row, when present, says there is more).
    pub fn from_rows(rows: Vec<DocumentRow>, page: i64, limit: i64, keys: &AccessKeys) -> Self {
        let has_more = rows.len() as i64 > limit;
        DocumentPage {
            results: rows.into_iter().take(limit as usize).map(|r| DocumentCard::from_row(r, keys)).collect(),
            page,
            has_more,
        }
    }
}

/// The user's documents, newest first: My Data (`source_id` empty), or one source's; with a
/// sub-category, only its documents (one no connector fills yet is simply empty).
pub async fn list(
    ctx: &Context,
    user_id: &str,
    source_id: &str,
    sub_category: Option<&str>,
    page: i64,
    limit: i64,
) -> Result<DocumentPage> {
    let sub_category = match sub_category.filter(|c| !c.is_empty()) {
        None => "TRUE".to_string(),
        Some(key) if SUB_CATEGORIES.iter().any(|(k, _)| *k == key) => {
            sub_category_condition(key).unwrap_or_else(|| "FALSE".to_string())
        }
        Some(other) => return Err(Error::malformed("unknown_sub_category", format!("no sub-category {other}"))),
    };
    let rows: Vec<DocumentRow> = ctx
        .db
        .fetch_all(
            &format!(
                "{VISIBLE} AND ($2 = '' OR d.source_id = $2) AND ({sub_category}) \
                 ORDER BY COALESCE(d.published_at, d.ingested_at) DESC, d.deeplink LIMIT $3 OFFSET $4"
            ),
            args![user_id, source_id, limit + 1, page * limit],
        )
        .await?;
    Ok(DocumentPage::from_rows(rows, page, limit, &ctx.access))
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ReadList {
    /// Deeplinks of the documents the user has read.
    pub results: Vec<String>,
}

#[derive(sqlx::FromRow)]
struct Deeplink {
    deeplink: String,
}

/// The documents the user has read, the most recently read first.
pub async fn read_list(ctx: &Context, user_id: &str) -> Result<ReadList> {
    let rows: Vec<Deeplink> = ctx
        .db
        .fetch_all("SELECT deeplink FROM read_marks_view WHERE user_id = $1 ORDER BY read_at DESC", args![user_id])
        .await?;
    Ok(ReadList { results: rows.into_iter().map(|r| r.deeplink).collect() })
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ReadStatus {
    pub deeplink: String,
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub status: ReadState,
}

/// Marks a document the viewer may read (`public_access_key`: a shared link's key) read or
/// unread for them.
pub async fn mark(
    ctx: &Context,
    viewer: &Viewer,
    deeplink: String,
    public_access_key: Option<&str>,
    status: ReadState,
) -> Result<ReadStatus> {
    readable(ctx, &viewer.user_id, &deeplink, public_access_key).await?;
    ctx.command(
        &ctx.bus.read_marks,
        &read_mark_id(&viewer.user_id, &deeplink),
        MarkDocument { user_id: viewer.user_id.clone(), deeplink: deeplink.clone(), state: status },
        &viewer.metadata(),
    )
    .await?;
    Ok(ReadStatus { deeplink, status })
}
