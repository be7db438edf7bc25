//! The index's fields and text analysis.
//!
//! Both parts of the index share one schema: the *documents* part holds an entry per document
//! (title and whole text in one flat field, the way the BM25 baselines index them; ranking,
//! counts, sorting and facets run on these), the *passages* part an entry per paragraph-sized
//! chunk (stored text, page and offsets; highlights and the assistant's retrieval run on these).
//! Both carry the document's deeplink, so one delete term removes a document with its passages.

use tantivy::schema::{
    Field, IndexRecordOption, NumericOptions, Schema, TextFieldIndexing, TextOptions, FAST, STORED, STRING,
};
use tantivy::tokenizer::{
    AsciiFoldingFilter, Language, LowerCaser, RemoveLongFilter, SimpleTokenizer, Stemmer, StopWordFilter, TextAnalyzer,
};
use tantivy::Index;

/// English analysis: lowercase, ASCII folding, English stop words, Porter stemming.
pub const ENGLISH: &str = "needl_english";
/// Words as typed, lowercased and folded: the vocabulary spelling correction draws from.
pub const WORDS: &str = "needl_words";

/// The `owner` of documents of shared sources (feeds, websites, the public catalogue).
pub const SHARED: &str = "*";

#[derive(Clone, Copy)]
pub struct Fields {
    pub deeplink: Field,
    pub source_id: Field,
    /// The user who owns the document, or [`SHARED`].
    pub owner: Field,
    /// The category tab the document falls in (rss_news, drives, india_regulatory_data, ...).
    pub category: Field,
    /// Document entries: title, then text. Not stored (passages hold the text).
    pub content: Field,
    /// Document entries: the words of `content` as typed, for spelling correction.
    pub words: Field,
    pub title: Field,
    /// Passage entries: the passage's text, stored for snippets.
    pub text: Field,
    /// Unix seconds.
    pub published: Field,
    pub updated: Field,
    pub size: Field,
    pub attachments: Field,
    pub company: Field,
    pub country: Field,
    /// Document entries: the periods the document covers ([`crate::periods`] keys: "2018",
    /// "2023q3"), one value each; stored, for the assistant to prefer a named period's documents.
    pub period: Field,
    /// Passage entries: position in the document, 1-based page, character range in the page.
    pub ordinal: Field,
    pub page: Field,
    pub start: Field,
    pub end: Field,
    /// Passage entries: the boxes of the passage's lines on its page, JSON `[[x0,y0,x1,y1],..]`.
    pub boxes: Field,
    /// Passage entries: 1 for a table row read on its own (see `passages::table_rows`), absent
    /// for a passage of the page's own text.
    pub table_row: Field,
}

pub fn schema() -> (Schema, Fields) {
    let mut b = Schema::builder();
    let english = |stored: bool| {
        let indexing = TextFieldIndexing::default()
            .set_tokenizer(ENGLISH)
            .set_index_option(IndexRecordOption::WithFreqsAndPositions);
        let options = TextOptions::default().set_indexing_options(indexing);
        if stored {
            options.set_stored()
        } else {
            options
        }
    };
    let words = TextOptions::default().set_indexing_options(
        TextFieldIndexing::default().set_tokenizer(WORDS).set_index_option(IndexRecordOption::Basic),
    );
    let number = || NumericOptions::default().set_fast().set_indexed();
    let fields = Fields {
        deeplink: b.add_text_field("deeplink", STRING | STORED | FAST),
        source_id: b.add_text_field("source_id", STRING | STORED | FAST),
        owner: b.add_text_field("owner", STRING),
        category: b.add_text_field("category", STRING | STORED | FAST),
        content: b.add_text_field("content", english(false)),
        words: b.add_text_field("words", words),
        title: b.add_text_field("title", english(true)),
        text: b.add_text_field("text", english(true)),
        published: b.add_i64_field("published", number()),
        updated: b.add_i64_field("updated", number()),
        size: b.add_u64_field("size", number()),
        attachments: b.add_u64_field("attachments", number()),
        company: b.add_text_field("company", STRING | STORED | FAST),
        country: b.add_text_field("country", STRING | FAST),
        period: b.add_text_field("period", STRING | STORED),
        ordinal: b.add_u64_field("ordinal", STORED),
        page: b.add_u64_field("page", STORED),
        start: b.add_u64_field("start", STORED),
        end: b.add_u64_field("end", STORED),
        boxes: b.add_text_field("boxes", STORED),
        table_row: b.add_u64_field("table_row", NumericOptions::default().set_stored().set_indexed()),
    };
    (b.build(), fields)
}

/// The English analyzer: what documents are indexed with and queries are read with.
pub fn english() -> TextAnalyzer {
    TextAnalyzer::builder(SimpleTokenizer::default())
        .filter(RemoveLongFilter::limit(40))
        .filter(LowerCaser)
        .filter(AsciiFoldingFilter)
        .filter(StopWordFilter::new(Language::English).expect("tantivy ships English stop words"))
        .filter(Stemmer::new(Language::English))
        .build()
}

pub fn words() -> TextAnalyzer {
    TextAnalyzer::builder(SimpleTokenizer::default())
        .filter(RemoveLongFilter::limit(40))
        .filter(LowerCaser)
        .filter(AsciiFoldingFilter)
        .build()
}

pub fn register(index: &Index) {
    index.tokenizers().register(ENGLISH, english());
    index.tokenizers().register(WORDS, words());
}

/// The tokens `analyzer` makes of `text`, with their positions.
pub fn tokens(analyzer: &mut TextAnalyzer, text: &str) -> Vec<(usize, String)> {
    let mut stream = analyzer.token_stream(text);
    let mut out = Vec::new();
    while let Some(token) = stream.next() {
        out.push((token.position, token.text.clone()));
    }
    out
}
