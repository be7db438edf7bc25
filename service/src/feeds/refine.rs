//! Looking into a feed and refining it: the sources it names, what its documents are made of
//! (sources, categories, companies), keywords worth adding (words frequent in its documents'
//! titles and absent from its keywords), applying one, and a first AI-feed definition drafted from
//! a description (`ai_smarts`).

use std::collections::{BTreeMap, BTreeSet, HashMap};

use domain::board::{BoardDefinition, BoardKeyword};
use serde::{Deserialize, Serialize};

use super::choices::{readable_sources, TOPICS};
use super::documents::filters;
use super::{define, definition, BoardResult};
use crate::context::Context;
use crate::error::{Error, Result};
use crate::policy::{search_access, SearchScope};
use crate::search::blocking;
use crate::sql::placeholders;
use crate::viewer::Viewer;

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FeedSource {
    pub source_id: String,
    /// The source's name, or a readable form of its id when the user no longer reaches it.
    pub label: String,
    /// `include`, `exclude` or `secondary`.
    pub mode: String,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FeedSources {
    pub results: Vec<FeedSource>,
}

/// The sources a feed's definition names, with their labels and modes.
pub async fn sources(ctx: &Context, viewer: &Viewer, board_id: &str) -> Result<FeedSources> {
    let f = filters(&definition(ctx, viewer, board_id).await?)?;
    let labels: HashMap<String, String> =
        readable_sources(ctx, &viewer.user_id).await?.into_iter().map(|s| (s.source_id, s.label)).collect();
    let label = |id: &str| labels.get(id).cloned().unwrap_or_else(|| crate::documents::fallback_label(id));
    let mut results = Vec::new();
    for (ids, mode) in
        [(&f.included_sources, "include"), (&f.excluded_sources, "exclude"), (&f.secondary_sources, "secondary")]
    {
        results.extend(ids.iter().map(|id| FeedSource { source_id: id.clone(), label: label(id), mode: mode.into() }));
    }
    Ok(FeedSources { results })
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Facet {
    pub key: String,
    pub label: String,
    pub count: u64,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FeedMetadata {
    /// Documents the feed matches for the user.
    pub count: u64,
    pub sources: Vec<Facet>,
    pub categories: Vec<Facet>,
    pub companies: Vec<Facet>,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FeedMetadataResult {
    pub results: FeedMetadata,
}

/// What a feed's documents are made of, most frequent first.
pub async fn metadata(ctx: &Context, viewer: &Viewer, board_id: &str) -> Result<FeedMetadataResult> {
    let f = filters(&definition(ctx, viewer, board_id).await?)?;
    let access = search_access(ctx, &viewer.user_id, SearchScope::MyData).await?;
    let req = search::Request::for_feed(&f, access, ctx.clock.now());
    let (count, sources, categories, companies) = blocking(&ctx.search, move |index| {
        let (count, sources) = index.counts(&req, "source_id")?;
        let (_, categories) = index.counts(&req, "category")?;
        let (_, companies) = index.counts(&req, "company")?;
        Ok((count, sources, categories, companies))
    })
    .await?;
    let labels: HashMap<String, String> =
        readable_sources(ctx, &viewer.user_id).await?.into_iter().map(|s| (s.source_id, s.label)).collect();
    let tabs: HashMap<&str, &str> = crate::search::TABS.iter().map(|(k, l, _)| (*k, *l)).collect();
    let facet = |values: Vec<(String, u64)>, label: &dyn Fn(&str) -> String| -> Vec<Facet> {
        values
            .into_iter()
            .filter(|(k, _)| !k.is_empty())
            .take(20)
            .map(|(key, count)| Facet { label: label(&key), key, count })
            .collect()
    };
    Ok(FeedMetadataResult {
        results: FeedMetadata {
            count: count as u64,
            sources: facet(sources, &|k| labels.get(k).cloned().unwrap_or_else(|| crate::documents::fallback_label(k))),
            categories: facet(categories, &|k| tabs.get(k).map(|l| l.to_string()).unwrap_or_else(|| k.to_string())),
            companies: facet(companies, &|k| k.to_string()),
        },
    })
}

/// Words too common to follow.
const COMMON: &[&str] = &[
    "a", "an", "and", "are", "as", "at", "be", "by", "for", "from", "has", "have", "in", "is", "it", "its", "new",
    "of", "on", "or", "over", "says", "said", "than", "that", "the", "this", "to", "up", "was", "were", "will", "with",
    "after", "amid", "into", "out", "more", "not", "but", "how", "why", "what", "who", "year", "years", "week", "day",
    "today",
];

/// How many titles keyword suggestions are drawn from, and how many are offered.
const TITLES_READ: i64 = 300;
const SUGGESTED_KEYWORDS: usize = 10;

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct KeywordSuggestion {
    pub keyword: String,
    /// How many of the feed's newest documents carry it in their titles.
    pub documents: u64,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct KeywordSuggestions {
    pub results: Vec<KeywordSuggestion>,
}

/// Keywords worth adding to a feed: words in the titles of at least two of its newest documents
/// that none of its keywords names already, the most frequent first.
pub async fn keyword_suggestions(ctx: &Context, viewer: &Viewer, board_id: &str) -> Result<KeywordSuggestions> {
    let definition = definition(ctx, viewer, board_id).await?;
    let f = filters(&definition)?;
    let access = search_access(ctx, &viewer.user_id, SearchScope::MyData).await?;
    let mut req = search::Request::for_feed(&f, access, ctx.clock.now());
    req.limit = TITLES_READ as usize;
    req.highlights = 0;
    let found = blocking(&ctx.search, move |index| index.search(&req)).await?;
    #[derive(sqlx::FromRow)]
    struct Title {
        title: String,
    }
    let deeplinks: Vec<String> = found.hits.into_iter().map(|h| h.deeplink).collect();
    let titles: Vec<Title> = if deeplinks.is_empty() {
        vec![]
    } else {
        ctx.db
            .fetch_all(
                &format!("SELECT title FROM documents_view WHERE deeplink IN ({})", placeholders(1, deeplinks.len())),
                deeplinks.iter().map(|d| d.as_str().into()).collect(),
            )
            .await?
    };
    let known: BTreeSet<String> = definition
        .keywords
        .include
        .iter()
        .chain(&definition.keywords.exclude)
        .flat_map(|k| k.keyword.split(|c: char| !c.is_alphanumeric()).map(str::to_lowercase).collect::<Vec<_>>())
        .collect();
    let mut counts: BTreeMap<String, u64> = BTreeMap::new();
    for t in titles {
        let words: BTreeSet<String> = t
            .title
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| w.chars().count() >= 3 && !w.chars().all(|c| c.is_ascii_digit()))
            .map(str::to_lowercase)
            .filter(|w| !COMMON.contains(&w.as_str()) && !known.contains(w))
            .collect();
        for w in words {
            *counts.entry(w).or_default() += 1;
        }
    }
    let mut ranked: Vec<(String, u64)> = counts.into_iter().filter(|(_, n)| *n >= 2).collect();
    ranked.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    Ok(KeywordSuggestions {
        results: ranked
            .into_iter()
            .take(SUGGESTED_KEYWORDS)
            .map(|(keyword, documents)| KeywordSuggestion { keyword, documents })
            .collect(),
    })
}

#[derive(Debug, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ApplySuggestion {
    pub keyword: String,
    /// `include` (the default) or `exclude`.
    #[serde(default)]
    pub mode: Option<String>,
}

/// Adds one keyword to a feed, included or excluded (it leaves the other list).
pub async fn apply_suggestion(
    ctx: &Context,
    viewer: &Viewer,
    board_id: &str,
    body: ApplySuggestion,
) -> Result<BoardResult> {
    let mut definition = definition(ctx, viewer, board_id).await?;
    let keyword = BoardKeyword { keyword: body.keyword.trim().to_string(), valid: true };
    let same = |k: &BoardKeyword| k.keyword.to_lowercase() == keyword.keyword.to_lowercase();
    definition.keywords.include.retain(|k| !same(k));
    definition.keywords.exclude.retain(|k| !same(k));
    match body.mode.as_deref().unwrap_or("include") {
        "include" => definition.keywords.include.push(keyword),
        "exclude" => definition.keywords.exclude.push(keyword),
        other => {
            return Err(Error::invalid("invalid_mode", format!("Unknown mode {other}: use include or exclude.")));
        }
    }
    define(ctx, viewer, board_id, definition).await
}

#[derive(Debug, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SmartsBody {
    /// What the feed should follow, in the user's words.
    pub description: String,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Smarts {
    /// A draft AI-feed definition: the companies and topics the description names.
    #[cfg_attr(feature = "openapi", schema(value_type = Object))]
    pub definition: BoardDefinition,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SmartsResult {
    pub results: Smarts,
}

/// The longest description read, in characters.
const MAX_DESCRIPTION_CHARS: usize = 1000;

/// Drafts an AI feed from a description, offline: the companies of the user's documents whose
/// names it mentions, and the taxonomy's topics whose words it uses. Nothing is stored.
pub async fn ai_smarts(ctx: &Context, viewer: &Viewer, body: SmartsBody) -> Result<SmartsResult> {
    let description = body.description.trim();
    if description.is_empty() {
        return Err(Error::invalid("description_required", "Describe what the feed should follow."));
    }
    if description.chars().count() > MAX_DESCRIPTION_CHARS {
        return Err(Error::invalid(
            "description_too_long",
            format!("Describe it in at most {MAX_DESCRIPTION_CHARS} characters."),
        ));
    }
    let lower = description.to_lowercase();
    let words: BTreeSet<String> =
        lower.split(|c: char| !c.is_alphanumeric()).filter(|w| w.len() >= 3).map(str::to_string).collect();
    let access = search_access(ctx, &viewer.user_id, SearchScope::MyData).await?;
    let req = search::Request::new("", access);
    let (_, companies) = blocking(&ctx.search, move |index| index.counts(&req, "company")).await?;
    let named: Vec<serde_json::Value> = companies
        .into_iter()
        .map(|(name, _)| name)
        .filter(|name| name.len() >= 3 && lower.contains(&name.to_lowercase()))
        .take(10)
        .map(|name| serde_json::json!({ "name": name }))
        .collect();
    let topics: Vec<serde_json::Value> = TOPICS
        .iter()
        .filter(|t| {
            let vocabulary = format!("{} {} {}", t.label, t.description, t.expression).to_lowercase();
            vocabulary.split(|c: char| !c.is_alphanumeric()).filter(|w| w.len() >= 4).any(|w| words.contains(w))
        })
        .map(|t| serde_json::json!({ "key": t.key, "label": t.label }))
        .collect();
    let name = named
        .first()
        .and_then(|c| c["name"].as_str())
        .map(str::to_string)
        .unwrap_or_else(|| description.split_whitespace().take(6).collect::<Vec<_>>().join(" "));
    Ok(SmartsResult {
        results: Smarts {
            definition: BoardDefinition {
                name,
                description: description.to_string(),
                companies: serde_json::Value::Array(named),
                topics: serde_json::Value::Array(topics),
                feed_type: Some("ai".into()),
                ..Default::default()
            },
        },
    })
}
