//! Search index fixtures: a document with one page of text, and an in-memory index holding a set
//! of documents.

use std::sync::Arc;

use search::{Change, IndexedDocument, PageText, SearchIndex};

/// Returns a document of one page of `text`, published and updated at the same fixed time; tests
/// change the fields they care about.
pub fn document(
    deeplink: &str,
    owner: Option<&str>,
    source: &str,
    category: &str,
    title: &str,
    text: &str,
) -> IndexedDocument {
    IndexedDocument {
        deeplink: deeplink.into(),
        source_id: source.into(),
        owner: owner.map(str::to_string),
        category: category.into(),
        title: title.into(),
        pages: vec![PageText { text: text.into(), lines: vec![] }],
        published: Some(1_700_000_000),
        updated: 1_700_000_000,
        size: text.len() as u64,
        attachments: 0,
        company: None,
        country: None,
        periods: vec![],
    }
}

/// Returns an in-memory index (one writer thread) holding `documents`.
pub fn index_of(documents: impl IntoIterator<Item = IndexedDocument>) -> Arc<SearchIndex> {
    let index = Arc::new(SearchIndex::in_memory(1).expect("an in-memory index"));
    let changes = documents.into_iter().map(|d| Change::Upsert(Box::new(d))).collect();
    index.apply_blocking(changes, None).expect("the documents are indexed");
    index
}
