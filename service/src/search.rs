//! Search: category tabs with counts, result pages with highlights, and facets, over the search
//! index, limited to what the viewer may read.
//!
//! What a search reaches comes from [`policy::search_access`](crate::policy::search_access) (or
//! one channel's shared documents); the index keeps to it, and the hits become cards from the
//! read models. Index calls are CPU work and run on a blocking thread ([`blocking`]).

use std::collections::HashMap;
use std::sync::Arc;

use commands::args;
use search::follow::note_id_of;
use search::{category, Access, SearchError, SearchIndex, Sort};
use serde::{Deserialize, Serialize};

use crate::access::Purpose;
use crate::context::Context;
use crate::documents::{
    fallback_label, DocumentCard, DocumentRow, ANY, ASK_SOURCE, DRIVE_SOURCE, NOTES_SOURCE, PUBLIC, VISIBLE,
};
use crate::error::{Error, Result};
use crate::policy::{channel_deeplinks, search_access, visible_channel, SearchScope};
use crate::sql::placeholders;

/// Category tabs in the order they are shown: key, label, icon.
pub const TABS: &[(&str, &str, &str)] = &[
    (category::RSS_NEWS, "Website & RSS", "rss"),
    (category::INDIA, "Indian Exchange", "exchange"),
    (category::US, "US Exchange", "exchange"),
    (category::EXCHANGES, "Exchanges", "exchange"),
    ("webclips", "Web Clips", "webclip"),
    ("chats", "Chats", "chat"),
    ("emails", "Emails", "mail"),
    ("socialmedia", "Social Media", "social"),
    (category::DRIVES, "Drives", "drive"),
    ("notes", "Notes", "note"),
    (category::ATTACHMENTS, "AskNeedl Attachments", "attachment"),
];

/// Categories that exist as views but never as tabs.
const HIDDEN_TABS: &[&str] = &["today", "links", "media"];

/// Below this many hits a query is worth a spelling check.
const FEW_HITS: usize = 3;

/// The categories the `exchanges` scope covers: filings by country, and those of neither.
const EXCHANGE_TABS: [&str; 3] = [category::INDIA, category::US, category::EXCHANGES];

fn exchange_categories() -> Vec<String> {
    EXCHANGE_TABS.iter().map(|c| c.to_string()).collect()
}

/// Runs `run` on `req`; when `spell` is on and it counted fewer than [`FEW_HITS`], runs it again
/// on the spelling-corrected query and keeps that answer (with the correction) if it finds more.
fn with_spelling<T>(
    index: &SearchIndex,
    req: &search::Request,
    spell: bool,
    run: impl Fn(&search::Request) -> Result<T, SearchError>,
    count: impl Fn(&T) -> usize,
) -> Result<(T, Option<String>), SearchError> {
    let first = run(req)?;
    if spell && count(&first) < FEW_HITS {
        if let Some(better) = index.correct(&req.q, &req.access)? {
            let mut again = req.clone();
            again.q = better.clone();
            let second = run(&again)?;
            if count(&second) > count(&first) {
                return Ok((second, Some(better)));
            }
        }
    }
    Ok((first, None))
}

/// Runs `f` on a blocking thread: index calls are CPU work, and must not hold up the async
/// workers.
pub async fn blocking<T: Send + 'static>(
    index: &Arc<SearchIndex>,
    f: impl FnOnce(&SearchIndex) -> Result<T, SearchError> + Send + 'static,
) -> Result<T> {
    let index = index.clone();
    Ok(tokio::task::spawn_blocking(move || f(&index)).await??)
}

#[derive(Debug, Default, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default)]
pub struct SearchBody {
    /// `category` for the tabs and their counts; anything else (or nothing) for a result page.
    #[serde(rename = "type")]
    pub kind: Option<String>,
    /// A keyword expression: words, "phrases", AND, OR, NOT, parentheses. Plain words rank by match.
    pub q: String,
    /// `needl_web` (every public source) or `shared_data` (what the user's channels share);
    /// otherwise the user's own data.
    pub search_type: Option<String>,
    pub category_tab: Option<String>,
    pub start_from: Option<i64>,
    /// Results per page, 0 to 100 (0: count only).
    pub num_docs: Option<i64>,
    /// relevance, dateDsc, dateAsc, updatedDate, size, attachments, company, category.
    pub sort: Option<String>,
    /// asc or desc.
    pub sort_order: Option<String>,
    /// 1d, 1w, 1M, 3M, 6M, 1y, 2y, 3y.
    pub date_range: Option<String>,
    /// Only what was published today in `timezone`.
    pub today_date_range: Option<bool>,
    /// The user's IANA time zone, e.g. Asia/Kolkata (UTC when absent).
    pub timezone: Option<String>,
    pub spell_correct: Option<bool>,
    /// Every word must match.
    pub exact: Option<bool>,
    /// `hybrid` (the default): plain words rank by keywords fused with the documents'
    /// embeddings, where the server has the embedding model; `keyword`: by keywords (BM25) alone.
    pub ranking: Option<String>,
    /// The feed of `/search/today`; `home` is all of My Data.
    pub board_id: Option<String>,
    pub channel_id: Option<String>,
    /// Facet filters, e.g. `{"exchanges": {"Country": ["India"]}}`.
    pub filter: Option<serde_json::Value>,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct QueryParams {
    pub q: String,
    /// The query as corrected, when the server corrected its spelling and searched that instead.
    pub corrected_q: Option<String>,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TabData {
    pub sub_category: String,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CategoryTab {
    pub key: String,
    pub label: String,
    pub icon: String,
    pub count: u64,
    pub data: TabData,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct HighlightOut {
    /// Escaped text with `<em>` around the matched words; no other markup.
    pub html: String,
    /// The page, for documents with a page layout.
    pub page: Option<u32>,
    /// The passage's line boxes on that page, `[x0, y0, x1, y1]` in PDF points from the top left.
    pub boxes: Vec<[f32; 4]>,
    /// Character range of the passage in its page.
    pub start: u32,
    pub end: u32,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SearchHit {
    #[serde(flatten)]
    pub card: DocumentCard,
    pub source_label: String,
    pub category_tab: String,
    pub score: f32,
    pub highlights: Vec<HighlightOut>,
}

/// A category answer (`category_tabs`) or a result page (`results`), with the total `count`.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SearchAnswer {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub category_tabs: Option<Vec<CategoryTab>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub results: Option<Vec<SearchHit>>,
    pub count: u64,
    pub start_from: i64,
    pub num_docs: i64,
    pub query_params: QueryParams,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FacetValue {
    pub key: String,
    pub doc_count: u64,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ExchangeFacets {
    #[serde(rename = "Companies")]
    pub companies: Vec<FacetValue>,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ExchangeFacetSet {
    pub exchanges: ExchangeFacets,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ExchangeFacetAnswer {
    pub facets: ExchangeFacetSet,
    pub count: u64,
}

#[derive(Debug, Serialize, sqlx::FromRow)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TagFacet {
    /// The tag's id.
    pub key: String,
    pub label: String,
    pub doc_count: i64,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TagFacetSet {
    pub tags: Vec<TagFacet>,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TagFacetAnswer {
    pub facets: TagFacetSet,
    /// Documents carrying at least one of the tags.
    pub count: i64,
}

/// Companies in exchange filings with how many filings each has, over what the body's
/// `search_type` reaches; `filter.exchanges.Country` narrows to India and/or the US.
pub async fn exchange_facets(ctx: &Context, user_id: &str, body: &SearchBody) -> Result<ExchangeFacetAnswer> {
    let access = search_access(ctx, user_id, SearchScope::parse(body.search_type.as_deref())?).await?;
    let mut req = search::Request::new(body.q.clone(), access);
    req.categories = exchange_categories();
    let countries = body
        .filter
        .as_ref()
        .and_then(|f| f.pointer("/exchanges/Country"))
        .and_then(|c| c.as_array())
        .map(|list| list.iter().filter_map(|c| c.as_str()).map(country_code).collect::<Result<Vec<_>>>())
        .transpose()?
        .unwrap_or_default();
    req.countries = countries;
    let (count, companies) = blocking(&ctx.search, move |index| index.counts(&req, "company")).await?;
    Ok(ExchangeFacetAnswer {
        facets: ExchangeFacetSet {
            exchanges: ExchangeFacets {
                companies: companies.into_iter().map(|(key, doc_count)| FacetValue { key, doc_count }).collect(),
            },
        },
        count: count as u64,
    })
}

/// The tags with how many documents carry each, most used first: a channel's shared tags on the
/// documents shared into it (404 unless the user sees the channel), else the user's own tags on
/// documents they can still read.
pub async fn tag_facets(ctx: &Context, user_id: &str, channel_id: Option<&str>) -> Result<TagFacetAnswer> {
    let (condition, args) = match channel_id.filter(|c| !c.is_empty()) {
        Some(channel_id) => {
            visible_channel(ctx, user_id, channel_id).await?;
            (
                "dt.scope_kind = 'channel' AND dt.scope_id = $1 AND EXISTS (SELECT 1 FROM channel_items_view i \
                 WHERE i.channel_id = dt.scope_id AND i.deeplink = dt.deeplink)"
                    .to_string(),
                args![channel_id],
            )
        }
        None => (
            format!("dt.scope_kind = 'user' AND dt.scope_id = $1 AND EXISTS ({VISIBLE} AND d.deeplink = dt.deeplink)"),
            args![user_id],
        ),
    };
    let tags: Vec<TagFacet> = ctx
        .db
        .fetch_all(
            &format!(
                "SELECT dt.tag_id AS key, t.name AS label, CAST(COUNT(*) AS BIGINT) AS doc_count \
                 FROM document_tags_view dt JOIN tags_view t ON t.tag_id = dt.tag_id WHERE {condition} \
                 GROUP BY dt.tag_id, t.name ORDER BY doc_count DESC, t.name"
            ),
            args.clone(),
        )
        .await?;
    #[derive(sqlx::FromRow)]
    struct Count {
        n: i64,
    }
    let count: Option<Count> = ctx
        .db
        .fetch_optional(
            &format!(
                "SELECT CAST(COUNT(DISTINCT dt.deeplink) AS BIGINT) AS n FROM document_tags_view dt \
                 JOIN tags_view t ON t.tag_id = dt.tag_id WHERE {condition}"
            ),
            args,
        )
        .await?;
    Ok(TagFacetAnswer { facets: TagFacetSet { tags }, count: count.map(|c| c.n).unwrap_or(0) })
}

fn country_code(name: &str) -> Result<String> {
    match name.trim().to_ascii_lowercase().as_str() {
        "in" | "india" => Ok("IN".into()),
        "us" | "usa" | "united states" => Ok("US".into()),
        other => Err(Error::malformed("unknown_country", format!("No exchanges in {other}: use India or US."))),
    }
}

fn sort_of(sort: Option<&str>, order: Option<&str>) -> Result<(Sort, bool)> {
    let (sort, default_descending) = match sort.unwrap_or("relevance") {
        "" | "relevance" => (Sort::Relevance, true),
        "dateDsc" => (Sort::Published, true),
        "dateAsc" => (Sort::Published, false),
        "updatedDate" => (Sort::Updated, true),
        "size" => (Sort::Size, true),
        "attachments" => (Sort::Attachments, true),
        "company" => (Sort::Company, false),
        "category" => (Sort::Category, false),
        other => {
            return Err(Error::malformed(
                "unknown_sort",
                format!(
                    "Unknown sort {other}: use relevance, dateDsc, dateAsc, updatedDate, size, attachments, company or category."
                ),
            ))
        }
    };
    let descending = match order {
        None | Some("") => default_descending,
        Some("desc") => true,
        Some("asc") => false,
        Some(other) => {
            return Err(Error::malformed("unknown_sort_order", format!("Unknown sort order {other}: use asc or desc.")))
        }
    };
    Ok((sort, descending))
}

/// The start of today in `timezone`, and now, as unix seconds.
fn today(timezone: Option<&str>, now: chrono::DateTime<chrono::Utc>) -> Result<(i64, i64)> {
    let tz: chrono_tz::Tz = match timezone.map(str::trim).filter(|t| !t.is_empty()) {
        None => chrono_tz::UTC,
        Some(name) => {
            name.parse().map_err(|_| Error::malformed("unknown_timezone", format!("Unknown time zone {name}.")))?
        }
    };
    let local = now.with_timezone(&tz).date_naive();
    let start = local
        .and_hms_opt(0, 0, 0)
        .and_then(|midnight| midnight.and_local_timezone(tz).earliest())
        .map(|t| t.timestamp())
        .unwrap_or(now.timestamp() - 86_400);
    Ok((start, now.timestamp()))
}

/// Narrows the request to the path's scope.
fn scope(req: &mut search::Request, source: Option<&str>, board_id: Option<&str>) {
    let Some(source) = source else { return };
    match source {
        "today" => {
            if let Some(board) = board_id.filter(|b| !b.is_empty() && *b != "home") {
                req.sources = vec![board.to_string()];
            }
        }
        "exchanges" => req.categories = exchange_categories(),
        DRIVE_SOURCE => req.categories = vec![category::DRIVES.into()],
        ASK_SOURCE => req.categories = vec![category::ATTACHMENTS.into()],
        NOTES_SOURCE => req.categories = vec![category::NOTES.into()],
        key if TABS.iter().any(|(k, _, _)| *k == key) => req.categories = vec![key.to_string()],
        id => req.sources = vec![id.to_string()],
    }
}

/// Searches what the body's `search_type` (or `channel_id`) reaches for `user_id`, narrowed to
/// `source` (a sub-category, `today` with the body's `board_id`, or one source by id): the tabs
/// and their counts with `type: "category"`, else a page of result cards.
pub async fn search(ctx: &Context, user_id: &str, source: Option<&str>, body: SearchBody) -> Result<SearchAnswer> {
    let start_from = body.start_from.unwrap_or(0);
    let num_docs = body.num_docs.unwrap_or(10);
    if !(0..=search::query::MAX_OFFSET as i64).contains(&start_from) {
        return Err(Error::malformed(
            "bad_page",
            format!("start_from must be between 0 and {}.", search::query::MAX_OFFSET),
        ));
    }
    if !(0..=search::query::MAX_PAGE as i64).contains(&num_docs) {
        return Err(Error::malformed(
            "bad_page",
            format!("num_docs must be between 0 and {}.", search::query::MAX_PAGE),
        ));
    }
    let search_type =
        if matches!(source, Some("needl_web" | "needlweb")) { Some("needl_web") } else { body.search_type.as_deref() };
    let access = match body.channel_id.as_deref().filter(|c| !c.is_empty()) {
        // One channel's shared documents; 404 for a channel the user does not see.
        Some(channel_id) => Access::Documents(channel_deeplinks(ctx, user_id, channel_id).await?),
        None => search_access(ctx, user_id, SearchScope::parse(search_type)?).await?,
    };
    let (sort, descending) = sort_of(body.sort.as_deref(), body.sort_order.as_deref())?;
    let mut req = search::Request::new(body.q.clone(), access.clone());
    req.exact = body.exact.unwrap_or(false);
    req.sort = sort;
    req.descending = descending;
    req.offset = start_from as usize;
    req.limit = num_docs.max(1) as usize;
    let now = chrono::Utc::now();
    // The current feed's search: a custom feed narrows to what it matches; any other board id is
    // a source.
    let feed = match (source, body.board_id.as_deref()) {
        (Some("today"), Some(board)) if !board.is_empty() && board != "home" => {
            crate::feeds::documents::own_feed(ctx, user_id, board).await?
        }
        _ => None,
    };
    match &feed {
        Some(feed) => crate::feeds::documents::narrow(&mut req, feed, now),
        None => scope(&mut req, source, body.board_id.as_deref()),
    }
    if let Some(shorthand) = body.date_range.as_deref().filter(|s| !s.is_empty()) {
        let (from, to) = domain::date_range::range(shorthand, now)
            .map_err(|e| Error::malformed("wrong_shorthand", e.to_string()))?;
        req.published = Some((from.timestamp(), to.timestamp()));
    }
    if body.today_date_range.unwrap_or(false) {
        let (from, to) = today(body.timezone.as_deref(), now)?;
        req.published = Some(match req.published {
            Some((f, t)) => (f.max(from), t.min(to)),
            None => (from, to),
        });
    }
    let tabs = body.kind.as_deref() == Some("category");
    if !tabs {
        if let Some(tab) = body.category_tab.as_deref().filter(|t| !t.is_empty() && *t != "all") {
            req.categories = match tab {
                "exchanges" => exchange_categories(),
                tab => vec![tab.to_string()],
            };
        }
    }
    let spell = body.spell_correct.unwrap_or(false) && !req.exact;
    let similarity = match body.ranking.as_deref().filter(|r| !r.is_empty()) {
        None | Some("hybrid") => ctx.semantic.clone(),
        Some("keyword") => None,
        Some(_) => return Err(Error::malformed("bad_ranking", "ranking must be hybrid or keyword.")),
    };
    let q = body.q.clone();
    let show = num_docs > 0;
    if tabs {
        let ((count, by_category), corrected) = blocking(&ctx.search, move |index| {
            with_spelling(index, &req, spell, |r| index.counts(r, "category"), |(n, _)| *n)
        })
        .await?;
        return Ok(SearchAnswer {
            category_tabs: Some(category_tabs(by_category)),
            results: None,
            count: count as u64,
            start_from,
            num_docs,
            query_params: QueryParams { q, corrected_q: corrected },
        });
    }
    let (found, corrected) = blocking(&ctx.search, move |index| {
        let similarity = similarity.as_deref().map(|s| s as &dyn search::Similarity);
        with_spelling(index, &req, spell, |r| index.search_ranked(r, similarity), |f| f.count)
    })
    .await?;
    let results = if show { hydrate(ctx, user_id, &access, found.hits).await? } else { vec![] };
    Ok(SearchAnswer {
        category_tabs: None,
        results: Some(results),
        count: found.count as u64,
        start_from,
        num_docs,
        query_params: QueryParams { q, corrected_q: corrected },
    })
}

/// The tabs that have hits, in [`TABS`] order, with their counts.
fn category_tabs(by_category: Vec<(String, u64)>) -> Vec<CategoryTab> {
    let counts: HashMap<String, u64> = by_category.into_iter().collect();
    TABS.iter()
        .filter(|(key, _, _)| !HIDDEN_TABS.contains(key))
        .filter_map(|(key, label, icon)| {
            let count = *counts.get(*key)?;
            Some(CategoryTab {
                key: key.to_string(),
                label: label.to_string(),
                icon: icon.to_string(),
                count,
                data: TabData { sub_category: key.to_string() },
            })
        })
        .collect()
}

/// The hits as cards (read state, access keys, metadata from the read model), in hit order: a
/// note's from the notes read model (see [`note_cards`]). A hit whose document or note left the
/// read model since the index saw it is dropped.
pub(crate) async fn hydrate(
    ctx: &Context,
    user_id: &str,
    access: &Access,
    hits: Vec<search::Hit>,
) -> Result<Vec<SearchHit>> {
    if hits.is_empty() {
        return Ok(vec![]);
    }
    // The index already kept to what the access reaches; channel items may be other users'
    // uploads, which only the channel makes readable.
    let base = match access {
        Access::Public => PUBLIC,
        Access::Documents(_) => ANY,
        Access::Mine { .. } => VISIBLE,
    };
    let (note_hits, document_hits): (Vec<&search::Hit>, Vec<&search::Hit>) =
        hits.iter().partition(|h| note_id_of(&h.deeplink).is_some());
    let mut cards: HashMap<String, DocumentCard> = HashMap::new();
    if !document_hits.is_empty() {
        let mut args = args![user_id];
        args.extend(document_hits.iter().map(|h| h.deeplink.as_str().into()));
        let rows: Vec<DocumentRow> = ctx
            .db
            .fetch_all(&format!("{base} AND d.deeplink IN ({})", placeholders(2, document_hits.len())), args)
            .await?;
        cards.extend(rows.into_iter().map(|r| DocumentCard::from_row(r, &ctx.access)).map(|c| (c.deeplink.clone(), c)));
    }
    let mut labels = HashMap::new();
    if !note_hits.is_empty() {
        let (notes, notebooks) = note_cards(ctx, user_id, &note_hits).await?;
        cards.extend(notes);
        labels.extend(notebooks);
    }
    labels.extend(source_labels(ctx, &hits).await?);
    Ok(hits
        .into_iter()
        .filter_map(|hit| {
            let card = cards.remove(&hit.deeplink)?;
            Some(SearchHit {
                source_label: labels.get(&hit.source_id).cloned().unwrap_or_else(|| fallback_label(&hit.source_id)),
                category_tab: hit.category,
                score: hit.score,
                highlights: hit
                    .highlights
                    .into_iter()
                    .map(|h| HighlightOut {
                        html: h.html,
                        page: (!h.boxes.is_empty()).then_some(h.page),
                        boxes: h.boxes,
                        start: h.start,
                        end: h.end,
                    })
                    .collect(),
                card,
            })
        })
        .collect())
}

/// Cards for note hits, by index deeplink, and the names of their notebooks (by id) for labels.
/// Only the user's own notes: the index keeps a note to its author already, and a note deleted
/// (or whose notebook was deleted) since the index saw it is left out. Outside the index a note
/// is what the preview opens: source `needl_notebooks`, deeplink the note id.
async fn note_cards(
    ctx: &Context,
    user_id: &str,
    hits: &[&search::Hit],
) -> Result<(HashMap<String, DocumentCard>, HashMap<String, String>)> {
    #[derive(sqlx::FromRow)]
    struct Row {
        note_id: String,
        notebook_id: String,
        notebook_name: String,
        kind: String,
        name: String,
        preview: String,
        snippet_title: Option<String>,
        snippet_link: Option<String>,
        created_at: String,
        updated_at: String,
    }
    let mut args = args![user_id];
    args.extend(hits.iter().filter_map(|h| note_id_of(&h.deeplink)).map(|id| id.into()));
    let rows: Vec<Row> = ctx
        .db
        .fetch_all(
            &format!(
                "SELECT n.note_id, n.notebook_id, b.name AS notebook_name, n.kind, n.name, n.preview, \
                 n.snippet_title, n.snippet_link, n.created_at, n.updated_at \
                 FROM notes_view n JOIN notebooks_view b ON b.notebook_id = n.notebook_id AND b.user_id = n.user_id \
                 WHERE n.user_id = $1 AND n.note_id IN ({})",
                placeholders(2, hits.len())
            ),
            args,
        )
        .await?;
    let mut cards = HashMap::new();
    let mut notebooks = HashMap::new();
    for row in rows {
        let title = [Some(row.name.trim()), row.snippet_title.as_deref(), row.preview.lines().next()]
            .into_iter()
            .flatten()
            .find(|t| !t.trim().is_empty())
            .unwrap_or_default()
            .to_string();
        let card = serde_json::json!({
            "deeplink": row.note_id,
            "source": NOTES_SOURCE,
            "link": row.snippet_link,
            "title": title,
            "published_at": row.created_at,
            "summary": row.preview,
            "metadata": {"notebook_id": &row.notebook_id, "notebook_name": &row.notebook_name, "note_kind": row.kind},
            "ingested_at": row.updated_at,
            "read": false,
            "owned": true,
            "access_key": ctx.access.key(Purpose::Access, &row.note_id),
        });
        let card: DocumentCard = serde_json::from_value(card).map_err(Error::internal)?;
        cards.insert(search::follow::note_deeplink(&row.note_id), card);
        notebooks.insert(row.notebook_id, row.notebook_name);
    }
    Ok((cards, notebooks))
}

/// The labels of the hits' sources, by source id.
async fn source_labels(ctx: &Context, hits: &[search::Hit]) -> Result<HashMap<String, String>> {
    let mut ids: Vec<&str> = hits.iter().map(|h| h.source_id.as_str()).collect();
    ids.sort();
    ids.dedup();
    #[derive(sqlx::FromRow)]
    struct Row {
        source_id: String,
        label: String,
    }
    let rows: Vec<Row> = ctx
        .db
        .fetch_all(
            &format!("SELECT source_id, label FROM sources_view WHERE source_id IN ({})", placeholders(1, ids.len())),
            ids.iter().map(|id| (*id).into()).collect(),
        )
        .await?;
    Ok(rows.into_iter().map(|r| (r.source_id, r.label)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Kind;

    #[test]
    fn today_starts_at_local_midnight() {
        let now = chrono::DateTime::parse_from_rfc3339("2026-03-10T20:30:00Z").unwrap().with_timezone(&chrono::Utc);
        let (from, to) = today(Some("Asia/Kolkata"), now).unwrap();
        // 20:30 UTC is 02:00 on the 11th in India: today began at 18:30 UTC on the 10th.
        assert_eq!(from, chrono::DateTime::parse_from_rfc3339("2026-03-10T18:30:00Z").unwrap().timestamp());
        assert_eq!(to, now.timestamp());
        assert_eq!(today(Some("Mars/Olympus"), now).unwrap_err().code, "unknown_timezone");
    }

    #[test]
    fn sorts_read_the_specified_names() {
        assert_eq!(sort_of(Some("dateAsc"), None).unwrap(), (Sort::Published, false));
        assert_eq!(sort_of(Some("dateDsc"), Some("asc")).unwrap(), (Sort::Published, false));
        assert_eq!(sort_of(Some("company"), None).unwrap(), (Sort::Company, false));
        let unknown = sort_of(Some("pagerank"), None).unwrap_err();
        assert_eq!((unknown.kind, unknown.code.as_str()), (Kind::Malformed, "unknown_sort"));
    }

    #[test]
    fn countries_are_read_by_name_or_code_and_others_are_refused() {
        assert_eq!(country_code(" India ").unwrap(), "IN");
        assert_eq!(country_code("USA").unwrap(), "US");
        let unknown = country_code("France").unwrap_err();
        assert_eq!((unknown.kind, unknown.code.as_str()), (Kind::Malformed, "unknown_country"));
    }

    #[test]
    fn tabs_keep_their_order_and_leave_out_categories_without_hits_or_a_tab() {
        let tabs = category_tabs(vec![
            ("notes".into(), 2),
            ("today".into(), 9),
            (category::RSS_NEWS.into(), 5),
            ("unheard_of".into(), 1),
        ]);
        let keys: Vec<(&str, u64)> = tabs.iter().map(|t| (t.key.as_str(), t.count)).collect();
        assert_eq!(keys, [(category::RSS_NEWS, 5), ("notes", 2)]);
        assert_eq!(tabs[0].data.sub_category, category::RSS_NEWS);
    }
}
