//! What the feed builder offers: the sources a user may build on, categories, date ranges, the
//! finance topics, ready-made templates, and suggestions made from what the user follows, tags
//! and reads, which the user reviews and accepts.
//!
//! Topics are a seeded taxonomy, each with a keyword expression that the search index evaluates:
//! an AI feed's topics widen what it follows offline, with no model. (Classifying by embeddings,
//! with the user's "more like this" feedback, comes with the embedding model of hybrid search.)

use std::collections::BTreeSet;

use commands::args;
use domain::board::{BoardDefinition, BoardKeyword, BoardKeywords};
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::{create_board, BoardList};
use crate::context::Context;
use crate::error::{Error, Result};
use crate::policy::require_flag;
use crate::viewer::Viewer;

/// One topic of the seeded finance taxonomy: key, label, what it covers, and the expression it
/// matches by.
pub struct Topic {
    pub key: &'static str,
    pub label: &'static str,
    pub description: &'static str,
    pub expression: &'static str,
}

pub const TOPICS: &[Topic] = &[
    Topic {
        key: "results",
        label: "Results and guidance",
        description: "Quarterly and annual results, earnings, revenue and profit, and guidance",
        expression: "earnings OR \"quarterly results\" OR \"net profit\" OR revenue OR guidance OR EBITDA",
    },
    Topic {
        key: "mergers",
        label: "Mergers and acquisitions",
        description: "Acquisitions, mergers, takeovers and stake sales",
        expression: "acquisition OR acquire OR merger OR takeover OR \"stake sale\"",
    },
    Topic {
        key: "ratings",
        label: "Ratings actions",
        description: "Credit rating upgrades, downgrades and outlook changes",
        expression: "\"credit rating\" OR downgrade OR downgraded OR upgraded OR \"rating outlook\"",
    },
    Topic {
        key: "management",
        label: "Management changes",
        description: "Appointments and resignations of directors and officers",
        expression: "CEO OR CFO OR resigns OR resignation OR appointed OR \"managing director\"",
    },
    Topic {
        key: "litigation",
        label: "Litigation and regulatory action",
        description: "Lawsuits, penalties, probes and orders of regulators",
        expression: "lawsuit OR litigation OR penalty OR probe OR regulator OR \"show cause\" OR fined",
    },
    Topic {
        key: "capital",
        label: "Capital raising",
        description: "Share issues, IPOs, QIPs, rights issues, bonds and debentures",
        expression: "IPO OR QIP OR \"rights issue\" OR \"bond issue\" OR debentures OR fundraise",
    },
    Topic {
        key: "dividends",
        label: "Dividends and buybacks",
        description: "Dividends declared, buybacks and share repurchases",
        expression: "dividend OR buyback OR \"share repurchase\"",
    },
    Topic {
        key: "esg",
        label: "ESG incidents",
        description: "Environmental, social and governance incidents",
        expression: "emissions OR spill OR pollution OR ESG OR \"safety incident\" OR \"labour dispute\"",
    },
    Topic {
        key: "macro",
        label: "Macro and policy",
        description: "Inflation, interest rates, central banks, growth and trade policy",
        expression: "inflation OR \"interest rate\" OR \"central bank\" OR GDP OR \"monetary policy\" OR tariff",
    },
];

/// The topic with this key.
pub fn topic(key: &str) -> Option<&'static Topic> {
    TOPICS.iter().find(|t| t.key == key)
}

#[derive(Debug, Serialize, sqlx::FromRow)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SourceChoice {
    pub source_id: String,
    pub label: String,
    /// `rss`, `website`, `public` (exchange and filing feeds) or `drive`.
    pub kind: String,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Choice {
    pub key: String,
    pub label: String,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TopicChoice {
    pub key: String,
    pub label: String,
    pub description: String,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FeedChoices {
    /// Sources the user may read: the ones they follow, the public catalogue's, their drive.
    pub sources: Vec<SourceChoice>,
    pub categories: Vec<Choice>,
    /// The date-range shorthands, with their labels.
    pub date_ranges: Vec<Choice>,
    pub topics: Vec<TopicChoice>,
}

const DATE_RANGES: &[(&str, &str)] = &[
    ("1d", "Last 1 day"),
    ("1w", "Last 1 week"),
    ("1M", "Last 1 month"),
    ("3M", "Last 3 months"),
    ("6M", "Last 6 months"),
    ("1y", "Last 1 year"),
    ("2y", "Last 2 years"),
    ("3y", "Last 3 years"),
];

/// The sources `user_id` may build feeds on.
pub async fn readable_sources(ctx: &Context, user_id: &str) -> Result<Vec<SourceChoice>> {
    Ok(ctx
        .db
        .fetch_all(
            "SELECT s.source_id, s.label, s.kind FROM sources_view s WHERE s.kind = 'public' OR EXISTS \
             (SELECT 1 FROM subscriptions_view sub WHERE sub.user_id = $1 AND sub.source_id = s.source_id) \
             ORDER BY s.label, s.source_id",
            args![user_id],
        )
        .await?)
}

pub async fn feed_choices(ctx: &Context, viewer: &Viewer) -> Result<FeedChoices> {
    let mut sources = readable_sources(ctx, &viewer.user_id).await?;
    sources.insert(
        0,
        SourceChoice {
            source_id: crate::documents::DRIVE_SOURCE.to_string(),
            label: "My Drive".into(),
            kind: "drive".into(),
        },
    );
    let categories = crate::search::TABS
        .iter()
        .filter(|(key, _, _)| *key != search::category::ATTACHMENTS && *key != search::category::NOTES)
        .map(|(key, label, _)| Choice { key: key.to_string(), label: label.to_string() })
        .collect();
    Ok(FeedChoices {
        sources,
        categories,
        date_ranges: DATE_RANGES.iter().map(|(k, l)| Choice { key: k.to_string(), label: l.to_string() }).collect(),
        topics: TOPICS
            .iter()
            .map(|t| TopicChoice { key: t.key.into(), label: t.label.into(), description: t.description.into() })
            .collect(),
    })
}

fn keywords(include: &[&str]) -> BoardKeywords {
    BoardKeywords {
        include: include.iter().map(|k| BoardKeyword { keyword: k.to_string(), valid: true }).collect(),
        exclude: vec![],
    }
}

/// The built-in templates: one per topic, a keyword feed following the topic's expression.
pub fn topic_templates() -> impl Iterator<Item = (String, BoardDefinition)> {
    TOPICS.iter().map(|t| {
        let definition = BoardDefinition {
            name: t.label.to_string(),
            description: t.description.to_string(),
            keywords: keywords(&[t.expression]),
            feed_type: Some("keyword".into()),
            ..Default::default()
        };
        (format!("topic-{}", t.key), definition)
    })
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Suggestion {
    pub id: String,
    pub name: String,
    /// Why it is suggested, in words.
    pub reason: String,
    #[cfg_attr(feature = "openapi", schema(value_type = Object))]
    pub definition: BoardDefinition,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Suggestions {
    pub results: Vec<Suggestion>,
}

/// How many suggestions are offered at once.
const MAX_SUGGESTIONS: usize = 8;

/// Feeds the user may want, from what they hold and do: the companies of their portfolios (an AI
/// feed watching each), their tags with at least two documents (a feed on the tag's name), the
/// companies of the documents they read, and the sources they follow. A suggestion a feed of the
/// same name already covers is left out.
pub async fn suggestions(ctx: &Context, viewer: &Viewer) -> Result<Suggestions> {
    #[derive(sqlx::FromRow)]
    struct Named {
        name: String,
    }
    let user = viewer.user_id.as_str();
    let existing: BTreeSet<String> = ctx
        .db
        .fetch_all::<Named>("SELECT name FROM boards_view WHERE user_id = $1", args![user])
        .await?
        .into_iter()
        .map(|r| r.name.to_lowercase())
        .collect();
    let mut out: Vec<Suggestion> = Vec::new();
    for company in crate::portfolios::companies(ctx, user).await?.into_iter().take(5) {
        out.push(Suggestion {
            id: format!("portfolio:{company}"),
            name: company.clone(),
            reason: format!("{company} is in your portfolio"),
            definition: BoardDefinition {
                name: company.clone(),
                companies: json!([{ "name": company }]),
                feed_type: Some("ai".into()),
                ..Default::default()
            },
        });
    }
    let tags: Vec<Named> = ctx
        .db
        .fetch_all(
            "SELECT t.name FROM tags_view t JOIN document_tags_view dt ON dt.tag_id = t.tag_id \
             WHERE t.user_id = $1 GROUP BY t.name HAVING COUNT(*) >= 2 ORDER BY COUNT(*) DESC, t.name LIMIT 5",
            args![user],
        )
        .await?;
    for tag in tags {
        let phrase = format!("\"{}\"", tag.name.replace('"', ""));
        if domain::keywords::parse(&phrase).is_err() {
            continue;
        }
        out.push(Suggestion {
            id: format!("tag:{}", tag.name),
            name: tag.name.clone(),
            reason: format!("You tagged documents \u{201c}{}\u{201d}", tag.name),
            definition: BoardDefinition {
                name: tag.name.clone(),
                keywords: keywords(&[&phrase]),
                ..Default::default()
            },
        });
    }
    #[derive(sqlx::FromRow)]
    struct Metadata {
        metadata: String,
    }
    let read: Vec<Metadata> = ctx
        .db
        .fetch_all(
            "SELECT d.metadata FROM read_marks_view r JOIN documents_view d ON d.deeplink = r.deeplink \
             WHERE r.user_id = $1 ORDER BY r.read_at DESC LIMIT 200",
            args![user],
        )
        .await?;
    let mut counts: std::collections::BTreeMap<String, usize> = std::collections::BTreeMap::new();
    for row in read {
        let metadata: std::collections::BTreeMap<String, String> =
            serde_json::from_str(&row.metadata).unwrap_or_default();
        if let Some(company) = metadata.get("company_name").map(|c| c.trim()).filter(|c| !c.is_empty()) {
            *counts.entry(company.to_string()).or_default() += 1;
        }
    }
    let mut companies: Vec<(String, usize)> = counts.into_iter().collect();
    companies.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let companies = companies.into_iter().take(5).map(|(name, _)| Named { name });
    for company in companies {
        out.push(Suggestion {
            id: format!("company:{}", company.name),
            name: company.name.clone(),
            reason: format!("You read about {}", company.name),
            definition: BoardDefinition {
                name: company.name.clone(),
                companies: json!([{ "name": company.name }]),
                feed_type: Some("ai".into()),
                ..Default::default()
            },
        });
    }
    let followed: Vec<SourceChoice> = ctx
        .db
        .fetch_all(
            "SELECT s.source_id, s.label, s.kind FROM subscriptions_view sub \
             JOIN sources_view s ON s.source_id = sub.source_id WHERE sub.user_id = $1 \
             ORDER BY sub.followed_at DESC LIMIT 5",
            args![user],
        )
        .await?;
    for source in followed {
        out.push(Suggestion {
            id: format!("source:{}", source.source_id),
            name: source.label.clone(),
            reason: format!("You follow {}", source.label),
            definition: BoardDefinition {
                name: source.label.clone(),
                sources: json!({ source.source_id.clone(): { "filter": true } }),
                ..Default::default()
            },
        });
    }
    out.retain(|s| !existing.contains(&s.name.to_lowercase()));
    let mut seen = BTreeSet::new();
    out.retain(|s| seen.insert(s.name.to_lowercase()));
    out.truncate(MAX_SUGGESTIONS);
    Ok(Suggestions { results: out })
}

#[derive(Debug, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AcceptBody {
    pub suggestion_ids: Vec<String>,
}

/// Makes a feed of each accepted suggestion that is still on offer.
pub async fn accept(ctx: &Context, viewer: &Viewer, body: AcceptBody) -> Result<BoardList> {
    require_flag(ctx, viewer, "my_feeds", "Custom feeds are not available for your account.").await?;
    if body.suggestion_ids.is_empty() {
        return Err(Error::invalid("invalid_body", "choose at least one suggestion"));
    }
    let offered = suggestions(ctx, viewer).await?.results;
    let mut results = Vec::new();
    for id in &body.suggestion_ids {
        let suggestion = offered
            .iter()
            .find(|s| &s.id == id)
            .ok_or_else(|| Error::invalid("unknown_suggestion", "this suggestion is no longer on offer"))?;
        let definition = super::checked(suggestion.definition.clone())?;
        results.push(create_board(ctx, viewer, definition, true, None).await?);
    }
    Ok(BoardList { results })
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct QuestionGroup {
    pub category: String,
    pub questions: Vec<String>,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct QuestionGroups {
    pub results: Vec<QuestionGroup>,
}

/// Questions to ask the assistant over one feed, grouped by category: about the feed as a whole,
/// about what it follows (its keywords and companies), and about its topics.
pub async fn questions(ctx: &Context, viewer: &Viewer, board_id: &str) -> Result<QuestionGroups> {
    let definition = super::definition(ctx, viewer, board_id).await?;
    let mut groups = vec![QuestionGroup {
        category: "Overview".into(),
        questions: vec![
            format!("What are the key takeaways from {} this week?", definition.name),
            "Which stories come up most often in this feed?".into(),
        ],
    }];
    let mut followed: Vec<String> = definition
        .keywords
        .include
        .iter()
        .filter_map(|k| domain::keywords::parse(&k.keyword).ok())
        .flat_map(|e| e.positive_terms().into_iter().map(str::to_string).collect::<Vec<_>>())
        .collect();
    if let Some(companies) = definition.companies.as_array() {
        followed.extend(companies.iter().filter_map(|c| c["name"].as_str().or(c.as_str())).map(str::to_string));
    }
    let mut seen = BTreeSet::new();
    followed.retain(|t| seen.insert(t.to_lowercase()));
    if !followed.is_empty() {
        groups.push(QuestionGroup {
            category: "What it follows".into(),
            questions: followed.iter().take(3).map(|t| format!("What is the latest on {t}?")).collect(),
        });
    }
    let topics: Vec<&Topic> = definition
        .topics
        .as_array()
        .map(|a| a.iter().filter_map(|t| t["key"].as_str().or(t.as_str())).filter_map(topic).collect())
        .unwrap_or_default();
    if !topics.is_empty() {
        groups.push(QuestionGroup {
            category: "Topics".into(),
            questions: topics
                .iter()
                .take(3)
                .map(|t| format!("What happened in {} recently?", t.label.to_lowercase()))
                .collect(),
        });
    }
    Ok(QuestionGroups { results: groups })
}
