//! What an answer's citations need of the documents and notes they cite, and the link that opens
//! a citation.

use std::collections::HashMap;

use assistant::AssistantError;
use commands::args;
use search::follow::{note_deeplink, note_id_of};
use serde_json::Value;

use crate::context::Context;
use crate::documents::{fallback_label, NOTES_SOURCE};
use crate::sql::placeholders;

/// What a citation needs of its document.
pub struct CitedDocument {
    pub mime_type: Option<String>,
    /// An uploaded file, which the preview opens.
    pub has_file: bool,
    /// The original's web address.
    pub link: Option<String>,
    pub title: String,
    pub source_label: String,
    /// A note's id: the note is cited as the preview opens it, `needl_notebooks` and its id,
    /// rather than by its index deeplink.
    pub note_id: Option<String>,
}

impl CitedDocument {
    /// The `document_id` and `source` a citation of this document carries.
    pub fn cited_as(&self, deeplink: &str, source: &str) -> (String, String) {
        match &self.note_id {
            Some(note_id) => (note_id.clone(), NOTES_SOURCE.to_string()),
            None => (deeplink.to_string(), source.to_string()),
        }
    }
}

/// Only web addresses are links a citation opens.
fn web_link(link: Option<String>) -> Option<String> {
    link.filter(|l| l.starts_with("http://") || l.starts_with("https://"))
}

/// What citations need of their documents (and of `user_id`'s notes), by index deeplink.
pub async fn cited(
    ctx: &Context,
    user_id: &str,
    deeplinks: &[&str],
) -> Result<HashMap<String, CitedDocument>, AssistantError> {
    let (notes, deeplinks): (Vec<&str>, Vec<&str>) = deeplinks.iter().copied().partition(|d| note_id_of(d).is_some());
    let mut cited = cited_notes(ctx, user_id, &notes).await?;
    if deeplinks.is_empty() {
        return Ok(cited);
    }
    #[derive(sqlx::FromRow)]
    struct Row {
        deeplink: String,
        source_id: String,
        link: Option<String>,
        title: String,
        metadata: String,
        label: Option<String>,
    }
    let rows: Vec<Row> = ctx
        .db
        .fetch_all(
            &format!(
                "SELECT d.deeplink, d.source_id, d.link, d.title, d.metadata, s.label FROM documents_view d \
                 LEFT JOIN sources_view s ON s.source_id = d.source_id WHERE d.deeplink IN ({})",
                placeholders(1, deeplinks.len())
            ),
            deeplinks.iter().map(|d| (*d).into()).collect(),
        )
        .await
        .map_err(|e| AssistantError::Internal(format!("reading cited documents: {e}")))?;
    cited.extend(rows.into_iter().map(|row| {
        let metadata: HashMap<String, String> = serde_json::from_str(&row.metadata).unwrap_or_default();
        let doc = CitedDocument {
            mime_type: metadata.get("mime_type").cloned(),
            has_file: metadata.contains_key("object_key"),
            link: web_link(row.link),
            title: row.title,
            source_label: row.label.unwrap_or_else(|| fallback_label(&row.source_id)),
            note_id: None,
        };
        (row.deeplink, doc)
    }));
    Ok(cited)
}

/// What citations need of `user_id`'s notes, by index deeplink (`note:{id}`): another user's
/// note, or one deleted since the index saw it, is left out.
async fn cited_notes(
    ctx: &Context,
    user_id: &str,
    deeplinks: &[&str],
) -> Result<HashMap<String, CitedDocument>, AssistantError> {
    if deeplinks.is_empty() {
        return Ok(HashMap::new());
    }
    #[derive(sqlx::FromRow)]
    struct Row {
        note_id: String,
        name: String,
        preview: String,
        snippet_link: Option<String>,
        notebook_name: String,
    }
    let mut args = args![user_id];
    args.extend(deeplinks.iter().filter_map(|d| note_id_of(d)).map(|id| id.into()));
    let rows: Vec<Row> = ctx
        .db
        .fetch_all(
            &format!(
                "SELECT n.note_id, n.name, n.preview, n.snippet_link, b.name AS notebook_name FROM notes_view n \
                 JOIN notebooks_view b ON b.notebook_id = n.notebook_id AND b.user_id = n.user_id \
                 WHERE n.user_id = $1 AND n.note_id IN ({})",
                placeholders(2, deeplinks.len())
            ),
            args,
        )
        .await
        .map_err(|e| AssistantError::Internal(format!("reading cited notes: {e}")))?;
    Ok(rows
        .into_iter()
        .map(|row| {
            let title = match row.name.trim() {
                "" => row.preview.lines().next().unwrap_or_default().to_string(),
                name => name.to_string(),
            };
            let doc = CitedDocument {
                mime_type: None,
                has_file: false,
                link: web_link(row.snippet_link),
                title,
                source_label: row.notebook_name,
                note_id: Some(row.note_id.clone()),
            };
            (note_deeplink(&row.note_id), doc)
        })
        .collect())
}

/// The link that opens a citation: `/redirect?...` for a web page of the public corpus,
/// `/preview?...` for a document, with the spec's parameters.
pub fn citation_link(citation: &Value, web: bool) -> String {
    let text = |key: &str| match &citation[key] {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    let mut query = url::form_urlencoded::Serializer::new(String::new());
    let (path, keys): (&str, &[&str]) = match citation["url"].as_str() {
        Some(link) if web => {
            query.append_pair("link", link);
            ("/redirect", &["title_label", "source_label", "unix", "content_only", "highlight_indexes", "context"])
        }
        _ => (
            "/preview",
            &[
                "document_id",
                "access_key",
                "source",
                "category_tab",
                "channel_id",
                "mime_type",
                "document_highlight",
                "title_label",
                "source_label",
                "unix",
                "content_only",
                "highlight_indexes",
                "context",
            ],
        ),
    };
    for key in keys {
        query.append_pair(key, &text(key));
    }
    format!("{path}?{}", query.finish())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn citations_of_documents_preview_and_web_pages_of_the_public_corpus_redirect() {
        let citation = json!({
            "document_id": "d1", "access_key": "k", "source": "rss_1", "category_tab": "rss_news",
            "channel_id": null, "mime_type": null, "document_highlight": {"page_number": 1},
            "url": "https://example.com/a", "title_label": "Steel & tariffs", "source_label": "Example",
            "unix": 1700000000, "content_only": false, "highlight_indexes": [[0, 5]], "context": "Steel rose"
        });
        let preview = citation_link(&citation, false);
        assert!(preview.starts_with("/preview?document_id=d1&access_key=k&source=rss_1"), "{preview}");
        assert!(preview.contains("title_label=Steel+%26+tariffs"), "{preview}");
        let redirect = citation_link(&citation, true);
        assert!(redirect.starts_with("/redirect?link=https%3A%2F%2Fexample.com%2Fa&title_label="), "{redirect}");
        assert!(!redirect.contains("access_key"));
    }

    #[test]
    fn a_note_is_cited_as_the_preview_opens_it_and_a_document_by_its_deeplink() {
        let note = CitedDocument {
            mime_type: None,
            has_file: false,
            link: None,
            title: "Plan".into(),
            source_label: "Ideas".into(),
            note_id: Some("n1".into()),
        };
        assert_eq!(note.cited_as("note:n1", "notebook_1"), ("n1".to_string(), NOTES_SOURCE.to_string()));
        let document = CitedDocument { note_id: None, ..note };
        assert_eq!(document.cited_as("rss_1:a", "rss_1"), ("rss_1:a".to_string(), "rss_1".to_string()));
    }

    #[test]
    fn only_web_addresses_are_opened_as_links() {
        assert_eq!(web_link(Some("https://example.com".into())).as_deref(), Some("https://example.com"));
        assert_eq!(web_link(Some("javascript:alert(1)".into())), None);
        assert_eq!(web_link(Some("file:///etc/passwd".into())), None);
    }
}
