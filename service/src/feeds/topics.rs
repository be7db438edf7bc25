//! AI feeds' topics, classified by the offline embedding model, and the owner's "more like this /
//! less like this" feedback that refines them.
//!
//! A feed's `topics` lists seeded taxonomy keys (`"mergers"`, or `{"key": "mergers"}`) and
//! topics of the user's own: `{"key", "label"?, "description", "examples"?: [document ids]}`.
//! Every feed is classified against the whole seeded taxonomy plus its own topics, so a document
//! belongs to the topic it is nearest (or to none, below [`THRESHOLD`]); the feed keeps the
//! documents whose topic is one of its own. A seeded topic is its label and description
//! embedded; a user's topic its description, pulled toward the stored embeddings of its example
//! documents. Feedback on a document (`board_feedback_view`, the latest word per document) moves
//! the feed's topic the document is nearest (Rocchio, [`embed::TopicModel::feedback`]).
//!
//! Nothing here embeds a document: documents' vectors were stored at ingest
//! ([`crate::semantic`]); a changed definition or new feedback is applied to what is stored.
//! Without a model, or before any vector is stored, topics match by the taxonomy's keyword
//! expressions ([`super::documents::effective`]).

use std::sync::Arc;

use commands::args;
use commands::store::Db;
use domain::board::{BoardCommand, BoardDefinition};
use embed::TopicModel;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::choices::TOPICS;
use crate::context::Context;
use crate::error::{Error, Result};
use crate::semantic::Semantic;
use crate::viewer::Viewer;

/// The lowest cosine between a document and its nearest topic that counts as belonging to it:
/// below it a document is about none of the topics. Chosen by hand on finance headlines against
/// the seeded descriptions (not calibrated on labelled finance news; see docs/topics.md).
pub const THRESHOLD: f32 = 0.2;
/// How many example documents one user topic may name.
pub const MAX_EXAMPLES: usize = 32;

/// One topic of a feed, as classified.
#[derive(Debug, Clone, PartialEq)]
pub struct TopicSpec {
    pub key: String,
    /// The text embedded for it.
    pub description: String,
    /// Example documents (deeplinks) whose stored vectors pull it.
    pub examples: Vec<String>,
}

/// The text embedded for a seeded topic.
fn seeded_text(label: &str, description: &str) -> String {
    format!("{label}: {description}.")
}

/// The topics a definition names, in order, without duplicates. Seeded keys take the
/// taxonomy's description; a user topic needs a description (or at least a label); entries of
/// neither kind are skipped.
pub fn specs(definition: &BoardDefinition) -> Vec<TopicSpec> {
    let mut out: Vec<TopicSpec> = Vec::new();
    for entry in definition.topics.as_array().into_iter().flatten() {
        let key = entry.as_str().or_else(|| entry["key"].as_str()).map(str::trim).unwrap_or_default();
        let text = |field: &str| entry[field].as_str().map(str::trim).filter(|s| !s.is_empty()).map(str::to_string);
        let spec = match (text("description"), super::choices::topic(key)) {
            (None, Some(seeded)) => TopicSpec {
                key: seeded.key.to_string(),
                description: seeded_text(seeded.label, seeded.description),
                examples: vec![],
            },
            (description, _) => {
                let label = text("label");
                let Some(description) = description.or(label.clone()) else { continue };
                let key = if key.is_empty() { label.unwrap_or_else(|| description.clone()) } else { key.to_string() };
                let examples = match &entry["examples"] {
                    Value::Array(items) => items
                        .iter()
                        .filter_map(|e| e.as_str().or_else(|| e["id"].as_str()))
                        .take(MAX_EXAMPLES)
                        .map(str::to_string)
                        .collect(),
                    _ => vec![],
                };
                // A user topic with a seeded key would replace the seeded one: keep them apart.
                let key = if super::choices::topic(&key).is_some() { format!("user:{key}") } else { key };
                TopicSpec { key, description, examples }
            }
        };
        if !out.iter().any(|t| t.key == spec.key) {
            out.push(spec);
        }
    }
    out
}

/// Whether a definition names a topic of the user's own (one the keyword taxonomy cannot
/// match without the model).
pub fn has_user_topics(definition: &BoardDefinition) -> bool {
    specs(definition).iter().any(|t| super::choices::topic(&t.key).is_none())
}

/// A feed's topics as a classifier over stored embeddings.
pub struct FeedTopics {
    pub model: Arc<TopicModel>,
    /// Positions of the feed's own topics in the model's keys.
    pub wanted: Vec<usize>,
}

impl FeedTopics {
    /// Whether a document's embedding belongs to one of the feed's topics.
    pub fn accepts(&self, embedding: &[f32]) -> bool {
        self.model.classified_into(embedding, &self.wanted)
    }
}

/// The feedback given on a feed's documents: (deeplink, more like this).
pub async fn feedback_of(db: &Db, board_id: &str) -> Result<Vec<(String, bool)>> {
    #[derive(sqlx::FromRow)]
    struct Row {
        deeplink: String,
        more: bool,
    }
    let rows: Vec<Row> = db
        .fetch_all(
            "SELECT deeplink, more FROM board_feedback_view WHERE board_id = $1 ORDER BY given_at, deeplink",
            args![board_id],
        )
        .await?;
    Ok(rows.into_iter().map(|r| (r.deeplink, r.more)).collect())
}

/// The classifier of a definition's topics, refined by `feedback`; `None` when it names none.
pub async fn classifier(
    semantic: &Semantic,
    definition: &BoardDefinition,
    feedback: &[(String, bool)],
) -> anyhow::Result<Option<FeedTopics>> {
    let own = specs(definition);
    if own.is_empty() {
        return Ok(None);
    }
    let mut model = TopicModel::new(THRESHOLD);
    for t in TOPICS {
        let text = seeded_text(t.label, t.description);
        model.define(t.key, &semantic.describe(&text).await?, &[])?;
    }
    for spec in own.iter().filter(|t| super::choices::topic(&t.key).is_none()) {
        let examples: Vec<Vec<f32>> = spec.examples.iter().filter_map(|d| semantic.vector(d)).collect();
        model.define(&spec.key, &semantic.describe(&spec.description).await?, &examples)?;
    }
    let keys: Vec<String> = model.keys().map(str::to_string).collect();
    let wanted: Vec<usize> = own.iter().filter_map(|t| keys.iter().position(|k| *k == t.key)).collect();
    // Each word on a document refines the feed's topic the document is nearest, as defined.
    let defined = model.clone();
    for (deeplink, more) in feedback {
        let Some(v) = semantic.vector(deeplink) else { continue };
        let scores = defined.scores(&v);
        let Some(&nearest) = wanted.iter().max_by(|a, b| scores[**a].total_cmp(&scores[**b])) else { continue };
        model.feedback(&keys[nearest], &v, *more)?;
    }
    // Adapted to what is stored, without labels (kept per definition and feedback).
    let model = semantic.fitted(model).await?;
    Ok(Some(FeedTopics { model, wanted }))
}

/// The documents a feed's topics select among everything stored, when the model is loaded and
/// has embedded something; `None` means "match topics by keywords instead".
pub async fn selected(
    ctx: &Context,
    board_id: Option<&str>,
    definition: &BoardDefinition,
) -> Result<Option<Vec<String>>> {
    let Some(semantic) = ctx.semantic.as_ref().filter(|s| s.stored() > 0) else { return Ok(None) };
    let feedback = match board_id {
        Some(id) => feedback_of(&ctx.db, id).await?,
        None => vec![],
    };
    let Some(topics) = classifier(semantic, definition, &feedback).await.map_err(internal)? else {
        return Ok(None);
    };
    Ok(Some(semantic.select(topics.model, topics.wanted).await.map_err(internal)?))
}

fn internal(e: anyhow::Error) -> Error {
    Error::internal(format!("topics: {e:#}"))
}

/// "More like this" or "less like this" on a document of one of the viewer's AI feeds.
#[derive(Debug, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = TopicFeedbackBody))]
pub struct FeedbackBody {
    /// The document's id (its deeplink), as the feed's cards give it.
    pub document_id: String,
    /// true: more like this; false: less like this.
    pub more: bool,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FeedbackOut {
    pub document_id: String,
    pub more: bool,
    /// Whether the feed's topics are classified by the embedding model here, so the feedback
    /// changes its documents now; without the model it is kept for when one is configured.
    pub applied: bool,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = TopicFeedbackResult))]
pub struct FeedbackResult {
    pub results: FeedbackOut,
}

/// Records the feedback: the feed's topics are refined by it, so its documents change at once.
/// The document must be one the viewer may read; the feed must be theirs and follow topics.
pub async fn feedback(ctx: &Context, viewer: &Viewer, board_id: &str, body: FeedbackBody) -> Result<FeedbackResult> {
    let document_id = body.document_id.trim().to_string();
    if document_id.is_empty() {
        return Err(Error::invalid("document_required", "the document is required"));
    }
    super::get(ctx, viewer, board_id).await?;
    crate::policy::readable(ctx, &viewer.user_id, &document_id, None).await?;
    let command =
        BoardCommand::Feedback { actor: viewer.user_id.clone(), deeplink: document_id.clone(), more: body.more };
    ctx.command(&ctx.bus.boards, board_id, command, &viewer.metadata()).await?;
    let applied = ctx.semantic.as_ref().is_some_and(|s| s.vector(&document_id).is_some());
    Ok(FeedbackResult { results: FeedbackOut { document_id, more: body.more, applied } })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn with_topics(topics: Value) -> BoardDefinition {
        BoardDefinition { name: "AI".into(), topics, ..Default::default() }
    }

    #[test]
    fn topics_are_read_from_keys_and_user_definitions() {
        let definition = with_topics(json!([
            "mergers",
            {"key": "mergers"},
            {"key": "ratings", "label": "Ratings actions"},
            {"key": "chips", "description": "Semiconductor supply and fabs", "examples": ["d1", {"id": "d2"}, 7]},
            {"label": "Lithium mining"},
            {"key": "results", "description": "Only banks' results"},
            {"key": "nothing"},
            42
        ]));
        let read = specs(&definition);
        let keys: Vec<&str> = read.iter().map(|t| t.key.as_str()).collect();
        assert_eq!(keys, ["mergers", "ratings", "chips", "Lithium mining", "user:results"]);
        assert!(read[0].description.starts_with("Mergers and acquisitions: Acquisitions"));
        assert_eq!(read[2].examples, ["d1", "d2"]);
        assert_eq!(read[3].description, "Lithium mining");
        assert!(has_user_topics(&definition));
        assert!(!has_user_topics(&with_topics(json!(["mergers", "macro"]))));
        assert!(specs(&with_topics(Value::Null)).is_empty());
    }
}
