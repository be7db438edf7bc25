//! A feed's documents and a draft's preview, through the search index.
//!
//! A feed's documents are never stored per document: they are what the search index answers for
//! the feed's filters ([`domain::feed_rules::Filters`], read by `search::Request::for_feed`)
//! within what the viewer may read, when asked. So a changed definition holds over the whole
//! history at once, and a document the viewer may no longer read is gone from every feed.
//!
//! An AI feed's topics, with the embedding model loaded and documents' vectors stored, are a
//! filter of their own: the index query for the rest of the definition (companies, keywords,
//! sources, ...) keeps only the documents [`super::topics::selected`] classifies into one of the
//! feed's topics (`search::Request::deeplinks`). Without the model, topics follow the seeded
//! taxonomy's expressions ([`super::choices::TOPICS`]), added to the keywords it includes
//! ([`effective`]); a topic of the user's own then matches nothing.
//!
//! Near-duplicates are folded into one card per story (`document_stories_view`, written as
//! documents arrive): the first of a story on a page carries how many sources told it.

use std::collections::{BTreeSet, HashMap};

use commands::args;
use domain::board::{BoardDefinition, BoardKeyword};
use domain::feed_rules::Filters;
use serde::{Deserialize, Serialize};

use super::choices::topic;
use super::{get, Board};
use crate::context::Context;
use crate::error::{from_domain, Result};
use crate::policy::{search_access, SearchScope};
use crate::search::{blocking, hydrate, SearchHit};
use crate::sql::placeholders;
use crate::viewer::Viewer;

/// How many documents a preview shows.
pub const PREVIEW_SIZE: usize = 10;

/// The definition as it is matched: an AI feed's topics become keywords it includes.
pub fn effective(definition: &BoardDefinition) -> BoardDefinition {
    let mut out = definition.clone();
    let topics = definition.topics.as_array().cloned().unwrap_or_default();
    for t in topics.iter().filter_map(|t| t["key"].as_str().or(t.as_str())).filter_map(topic) {
        if !out.keywords.include.iter().any(|k| k.keyword == t.expression) {
            out.keywords.include.push(BoardKeyword { keyword: t.expression.to_string(), valid: true });
        }
    }
    out
}

/// The filters a definition matches by; refuses one that would follow everything.
pub fn filters(definition: &BoardDefinition) -> Result<Filters> {
    Filters::checked(&effective(definition)).map_err(|e| from_domain(&e))
}

/// The story a card stands for, when others told it too.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct StoryOut {
    pub id: String,
    /// How many documents of the feed's page tell it.
    pub size: usize,
    /// The labels of the other sources that told it.
    pub sources: Vec<String>,
}

/// A document of a feed, as its card shows it.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FeedDocument {
    #[serde(flatten)]
    pub hit: SearchHit,
    /// The document's id (its deeplink).
    pub id: String,
    /// `read` or `unread`.
    pub status: String,
    pub story: Option<StoryOut>,
}

/// A feed with one page of its documents.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BoardDocuments {
    #[serde(flatten)]
    pub board: Board,
    pub documents: Vec<FeedDocument>,
    /// Documents matching in all (before folding stories).
    pub count: u64,
    pub page: i64,
    pub has_more: bool,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BoardDocumentsResult {
    pub results: BoardDocuments,
}

/// The filters a feed's documents are read by, and the documents its topics select when the
/// embedding model classifies them (`None`: topics are keywords, as [`effective`] says).
/// `board_id`: the saved feed whose feedback refines its topics (none for a draft).
pub async fn read_filters(
    ctx: &Context,
    board_id: Option<&str>,
    definition: &BoardDefinition,
) -> Result<(Filters, Option<Vec<String>>)> {
    if domain::board::has_topics(&definition.topics) {
        if let Some(selected) = super::topics::selected(ctx, board_id, definition).await? {
            // Topics are the vector filter; the rest of the definition is the index query.
            return Ok((Filters::of(definition).map_err(|e| from_domain(&e))?, Some(selected)));
        }
        if super::topics::has_user_topics(definition) {
            if let Err(e) = Filters::checked(&effective(definition)) {
                if e == domain::board::BoardError::MatchesEverything {
                    // Only topics of the user's own, and no model to classify them: nothing.
                    return Ok((Filters::of(definition).map_err(|e| from_domain(&e))?, Some(vec![])));
                }
            }
        }
    }
    Ok((filters(definition)?, None))
}

/// One page of the documents `definition` matches among what `viewer` may read, newest first,
/// near-duplicates folded into their story's first card.
pub async fn matching(
    ctx: &Context,
    viewer: &Viewer,
    board_id: Option<&str>,
    definition: &BoardDefinition,
    tab: Option<&str>,
    page: i64,
    limit: i64,
) -> Result<(Vec<FeedDocument>, u64, bool)> {
    let (filters, selected) = read_filters(ctx, board_id, definition).await?;
    if selected.as_ref().is_some_and(Vec::is_empty) {
        return Ok((vec![], 0, false));
    }
    let access = search_access(ctx, &viewer.user_id, SearchScope::MyData).await?;
    let mut req = search::Request::for_feed(&filters, access.clone(), ctx.clock.now());
    req.deeplinks = selected.unwrap_or_default();
    if let Some(tab) = tab {
        let wanted = tab_categories(tab)?;
        req.categories = if req.categories.is_empty() {
            wanted
        } else {
            req.categories.iter().filter(|c| wanted.contains(c)).cloned().collect()
        };
        if req.categories.is_empty() {
            return Ok((vec![], 0, false));
        }
    }
    req.offset = (page * limit).max(0) as usize;
    req.limit = limit.clamp(1, search::query::MAX_PAGE as i64) as usize;
    req.highlights = 0;
    let found = blocking(&ctx.search, move |index| index.search(&req)).await?;
    let count = found.count as u64;
    let has_more = (page + 1) * limit < found.count as i64;
    let hits = hydrate(ctx, &viewer.user_id, &access, found.hits).await?;
    Ok((fold_stories(ctx, hits).await?, count, has_more))
}

/// The categories a feed page's sub-tab shows: links (website and RSS items), documents (files
/// and filings), media and web clips (which no connector fills yet).
fn tab_categories(tab: &str) -> Result<Vec<String>> {
    use search::category;
    let keys: &[&str] = match tab {
        "links" => &[category::RSS_NEWS],
        "documents" => &[category::DRIVES, category::INDIA, category::US, category::EXCHANGES],
        "media" => &["media"],
        "webclips" => &["webclips"],
        other => {
            return Err(crate::error::Error::malformed(
                "unknown_category_tab",
                format!("Unknown tab {other}: use links, documents, media or webclips."),
            ))
        }
    };
    Ok(keys.iter().map(|k| k.to_string()).collect())
}

#[derive(sqlx::FromRow)]
struct StoryRow {
    deeplink: String,
    story: String,
}

/// Cards in order, each story shown once: the first card of a story carries the others' sources.
async fn fold_stories(ctx: &Context, hits: Vec<SearchHit>) -> Result<Vec<FeedDocument>> {
    let stories: HashMap<String, String> = if hits.is_empty() {
        HashMap::new()
    } else {
        let mut a = Vec::new();
        a.extend(hits.iter().map(|h| h.card.deeplink.as_str().into()));
        let rows: Vec<StoryRow> = ctx
            .db
            .fetch_all(
                &format!(
                    "SELECT deeplink, story FROM document_stories_view WHERE deeplink IN ({})",
                    placeholders(1, hits.len())
                ),
                a,
            )
            .await?;
        rows.into_iter().map(|r| (r.deeplink, r.story)).collect()
    };
    let mut out: Vec<FeedDocument> = Vec::new();
    let mut first_of: HashMap<String, usize> = HashMap::new();
    let mut labels: HashMap<String, BTreeSet<String>> = HashMap::new();
    for hit in hits {
        let story = stories.get(&hit.card.deeplink).cloned();
        if let Some(story) = &story {
            if let Some(&at) = first_of.get(story) {
                let card = &mut out[at];
                if let Some(s) = card.story.as_mut() {
                    s.size += 1;
                }
                if hit.source_label != card.hit.source_label {
                    labels.entry(story.clone()).or_default().insert(hit.source_label.clone());
                }
                continue;
            }
            first_of.insert(story.clone(), out.len());
        }
        out.push(FeedDocument {
            id: hit.card.deeplink.clone(),
            status: if hit.card.read { "read" } else { "unread" }.to_string(),
            story: story.map(|id| StoryOut { id, size: 1, sources: vec![] }),
            hit,
        });
    }
    for card in &mut out {
        if let Some(story) = card.story.as_mut() {
            story.sources = labels.remove(&story.id).map(|l| l.into_iter().collect()).unwrap_or_default();
        }
        // A story of one card on this page is no group to show.
        if card.story.as_ref().is_some_and(|s| s.size == 1) {
            card.story = None;
        }
    }
    Ok(out)
}

/// One of the viewer's feeds with a page of its documents (of one sub-tab, `tab`).
pub async fn documents(
    ctx: &Context,
    viewer: &Viewer,
    board_id: &str,
    tab: Option<&str>,
    page: i64,
    limit: i64,
) -> Result<BoardDocumentsResult> {
    let board = get(ctx, viewer, board_id).await?;
    let definition: BoardDefinition = serde_json::from_value(board.definition.clone())
        .map_err(|e| crate::error::Error::internal(format!("board: {e}")))?;
    let (documents, count, has_more) = matching(ctx, viewer, Some(board_id), &definition, tab, page, limit).await?;
    Ok(BoardDocumentsResult { results: BoardDocuments { board, documents, count, page, has_more } })
}

/// A draft definition, to preview before saving.
#[derive(Debug, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PreviewBody {
    #[cfg_attr(feature = "openapi", schema(value_type = Object))]
    pub definition: BoardDefinition,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Preview {
    /// Documents matching in all.
    pub count: u64,
    /// The newest few.
    pub results: Vec<FeedDocument>,
}

/// What a draft definition would match, without storing anything. The name may still be empty.
pub async fn preview(ctx: &Context, viewer: &Viewer, mut definition: BoardDefinition) -> Result<Preview> {
    if definition.name.trim().is_empty() {
        definition.name = "Preview".into();
    }
    let definition = definition.cleaned().map_err(|e| from_domain(&e))?;
    let (results, count, _) = matching(ctx, viewer, None, &definition, None, 0, PREVIEW_SIZE as i64).await?;
    Ok(Preview { count, results })
}

/// A page of a feed shared into a channel, as one member may read it: the same definition over
/// what this member may read, nothing more.
pub async fn channel_board_documents(
    ctx: &Context,
    viewer: &Viewer,
    channel_id: &str,
    board_id: &str,
    page: i64,
    limit: i64,
) -> Result<Preview> {
    crate::policy::visible_channel(ctx, &viewer.user_id, channel_id).await?;
    #[derive(sqlx::FromRow)]
    struct Row {
        definition: String,
    }
    let row: Row = ctx
        .db
        .fetch_optional(
            "SELECT definition FROM channel_boards_view WHERE channel_id = $1 AND board_id = $2",
            args![channel_id, board_id],
        )
        .await?
        .ok_or_else(super::board_not_found)?;
    let definition: BoardDefinition =
        serde_json::from_str(&row.definition).map_err(|e| crate::error::Error::internal(format!("board: {e}")))?;
    let (results, count, _) = matching(ctx, viewer, Some(board_id), &definition, None, page, limit).await?;
    Ok(Preview { count, results })
}

/// What one of the user's feeds reads: its filters, and the documents its topics select when the
/// embedding model classifies them (`None`: topics are keywords), as [`read_filters`] gives them
/// to its page. Search and AskNeedl scoped to the feed read the same.
pub struct FeedScope {
    pub filters: Filters,
    pub selected: Option<Vec<String>>,
}

/// What `board_id` reads when it is one of `user_id`'s feeds (search and AskNeedl take a board
/// id that is either a feed or a source).
pub async fn own_feed(ctx: &Context, user_id: &str, board_id: &str) -> Result<Option<FeedScope>> {
    #[derive(sqlx::FromRow)]
    struct Row {
        definition: String,
    }
    let row: Option<Row> = ctx
        .db
        .fetch_optional(
            "SELECT definition FROM boards_view WHERE user_id = $1 AND board_id = $2",
            args![user_id, board_id],
        )
        .await?;
    let Some(row) = row else { return Ok(None) };
    let definition: BoardDefinition =
        serde_json::from_str(&row.definition).map_err(|e| crate::error::Error::internal(format!("board: {e}")))?;
    let (filters, selected) = read_filters(ctx, Some(board_id), &definition).await?;
    Ok(Some(FeedScope { filters, selected }))
}

/// Narrows a search request to what a feed matches: its rule, sources, exclusions, categories,
/// date range and the documents its topics select, on top of the request's own.
pub fn narrow(req: &mut search::Request, scope: &FeedScope, now: chrono::DateTime<chrono::Utc>) {
    match &scope.selected {
        // The feed's topics select nothing: nothing is found.
        Some(selected) if selected.is_empty() => req.access = search::Access::Documents(vec![]),
        Some(selected) => req.deeplinks = selected.clone(),
        None => {}
    }
    let feed = search::Request::for_feed(&scope.filters, req.access.clone(), now);
    req.rule = feed.rule;
    req.sources = feed.sources;
    req.exclude_sources = feed.exclude_sources;
    req.source_exclusions = feed.source_exclusions;
    req.categories = match (req.categories.is_empty(), feed.categories.is_empty()) {
        (_, true) => std::mem::take(&mut req.categories),
        (true, false) => feed.categories,
        (false, false) => feed.categories.into_iter().filter(|c| req.categories.contains(c)).collect(),
    };
    req.published = match (req.published, feed.published) {
        (Some((a, b)), Some((c, d))) => Some((a.max(c), b.min(d))),
        (mine, theirs) => mine.or(theirs),
    };
}

/// Every document of one of `user_id`'s feeds that they may read, for asking over it.
pub async fn feed_deeplinks(ctx: &Context, user_id: &str, scope: &FeedScope) -> Result<Vec<String>> {
    let access = search_access(ctx, user_id, SearchScope::MyData).await?;
    let mut req = search::Request::for_feed(&scope.filters, access, ctx.clock.now());
    match &scope.selected {
        Some(selected) if selected.is_empty() => return Ok(vec![]),
        Some(selected) => req.deeplinks = selected.clone(),
        None => {}
    }
    blocking(&ctx.search, move |index| index.matching_deeplinks(&req)).await
}
