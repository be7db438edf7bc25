//! Questions suggested to the user: about what they read most recently, then from a helpful set.

use commands::args;
use serde::Serialize;

use crate::context::Context;
use crate::error::Result;

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = AskSuggestion))]
pub struct Suggestion {
    pub question: String,
    pub icon: String,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = AskSuggestions))]
pub struct Suggestions {
    pub all: Vec<Suggestion>,
    pub document: Vec<Suggestion>,
    pub feed: Vec<Suggestion>,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MessagingResult {
    pub results: Suggestions,
}

/// Questions that help whatever the user reads, to fill what their documents do not.
const HELPFUL: [&str; 4] = [
    "What are the main developments in my sources this week?",
    "Which companies are mentioned most often?",
    "Summarise the key risks mentioned in my documents",
    "What changed since last month?",
];
/// Questions for one feed.
const FEED_QUESTIONS: [&str; 2] =
    ["What are the key takeaways from this feed?", "Which topics come up most often in this feed?"];
/// Titles longer than this make poor questions.
const MAX_TITLE_CHARS: usize = 120;

/// Suggested questions, keyed as the spec shows them: `all` (4: about the user's most recent
/// documents, by title, then from a fixed helpful set), `feed` (2, fixed) and `document` (none).
pub async fn suggestions(ctx: &Context, user_id: &str) -> Result<MessagingResult> {
    #[derive(sqlx::FromRow)]
    struct Row {
        title: String,
    }
    let rows: Vec<Row> = ctx
        .db
        .fetch_all(
            "SELECT d.title FROM documents_view d WHERE d.owner = $1 OR (d.owner IS NULL AND EXISTS \
             (SELECT 1 FROM subscriptions_view sub WHERE sub.user_id = $1 AND sub.source_id = d.source_id)) \
             ORDER BY d.ingested_at DESC LIMIT 20",
            args![user_id],
        )
        .await?;
    let all = from_titles(rows.into_iter().map(|r| r.title));
    let feed = FEED_QUESTIONS.iter().map(|q| Suggestion { question: q.to_string(), icon: "feed".into() }).collect();
    Ok(MessagingResult { results: Suggestions { all, document: vec![], feed } })
}

/// Four questions: about the first two usable titles (distinct, not too long), then helpful ones.
fn from_titles(titles: impl IntoIterator<Item = String>) -> Vec<Suggestion> {
    let mut all: Vec<Suggestion> = Vec::new();
    for title in titles {
        let title = title.split_whitespace().collect::<Vec<_>>().join(" ");
        if title.is_empty() || title.chars().count() > MAX_TITLE_CHARS {
            continue;
        }
        let question = format!("What are the key points of \"{title}\"?");
        if !all.iter().any(|s| s.question == question) {
            all.push(Suggestion { question, icon: "document".into() });
        }
        if all.len() == 2 {
            break;
        }
    }
    for question in HELPFUL {
        if all.len() == 4 {
            break;
        }
        all.push(Suggestion { question: question.into(), icon: "sparkle".into() });
    }
    all
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_recent_distinct_titles_come_first_then_helpful_questions() {
        let titles = ["  Steel   prices rise ", "Steel prices rise", "", &"x".repeat(121), "Rates hold", "Third"];
        let all = from_titles(titles.iter().map(|t| t.to_string()));
        let questions: Vec<(&str, &str)> = all.iter().map(|s| (s.question.as_str(), s.icon.as_str())).collect();
        assert_eq!(
            questions,
            [
                ("What are the key points of \"Steel prices rise\"?", "document"),
                ("What are the key points of \"Rates hold\"?", "document"),
                (HELPFUL[0], "sparkle"),
                (HELPFUL[1], "sparkle"),
            ]
        );
    }

    #[test]
    fn without_documents_the_helpful_set_fills_the_four() {
        let all = from_titles(Vec::new());
        assert_eq!(all.iter().map(|s| s.question.as_str()).collect::<Vec<_>>(), HELPFUL);
    }
}
