//! The search index: a projection of documents into tantivy, and the queries the search pages and
//! the assistant run over it.
//!
//! - [`schema`]: fields and English analysis.
//! - [`passages`]: cutting text into paragraph-sized passages that keep page and position, and
//!   each table row into one of its own, under its headers ([`tables`] reads the tables).
//! - [`index`]: the index on disk, its single writer and its checkpoint in the commit payload.
//! - [`follow`]: the task that follows the event feed into the index.
//! - [`query`]: keyword expressions, access filters, sorting, counts, highlights, spelling.
//! - [`periods`]: the fiscal years and quarters documents cover and questions name, as keys.
//! - [`hybrid`]: a search's keyword ranking fused with the documents' embeddings (dense
//!   retrieval), when the caller has them.

pub mod follow;
pub mod hybrid;
pub mod index;
pub mod passages;
pub mod periods;
pub mod query;
pub mod schema;
pub mod tables;

pub use follow::{category, Arrivals, Follower, Library};
pub use index::{content_of, Change, IndexedDocument, SearchIndex};
pub use passages::{Line, PageText, Passage};
pub use hybrid::Similarity;
pub use query::{ranks_by_words, Access, Found, Highlight, Hit, Request, SearchError, Sort};
