//! What a question is asked over, and how that becomes a search request that never reaches past
//! what the user may read.

use search::{Access, Request};
use serde::{Deserialize, Serialize};

/// The source of ask attachments: files dropped on the chat are uploads with this source.
pub const ATTACHMENTS_SOURCE: &str = "ask_needl";

/// The part of the user's data a question is asked over. The API resolves the spec's scopes into
/// one of these: `home` is [`Scope::Home`]; a feed (board) is the [`Scope::Sources`] it follows, a
/// single source likewise; a channel is the [`Scope::Documents`] shared into it, a notebook the
/// documents its notes keep, a document the one deeplink; `needl_universe` is
/// [`Scope::Universe`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", content = "ids", rename_all = "snake_case")]
pub enum Scope {
    /// Everything the user may read.
    Home,
    /// The documents of these sources (a feed's sources, or one source). Empty reaches nothing.
    Sources(Vec<String>),
    /// Exactly these documents (by deeplink), those the user may read. Empty reaches nothing.
    Documents(Vec<String>),
    /// The user's ask attachments (uploads with source `ask_needl`); with deeplinks, only those
    /// (one session's attachments feed).
    Attachments(Vec<String>),
    /// The public corpus (`needl_universe`, the web-search toggle): every document of a shared
    /// source, whoever asks.
    Universe,
}

impl Scope {
    /// The search request for `q` over this scope for a user who may read `access`. The scope
    /// only narrows `access` (by source or deeplink filters inside the index), except the public
    /// corpus, which is readable by everyone. `None` when the scope reaches nothing.
    pub fn request(&self, q: &str, access: &Access) -> Option<Request> {
        let mut req = Request::new(q, access.clone());
        match self {
            Scope::Home => {}
            Scope::Sources(sources) if sources.is_empty() => return None,
            Scope::Sources(sources) => req.sources = sources.clone(),
            Scope::Documents(deeplinks) if deeplinks.is_empty() => return None,
            Scope::Documents(deeplinks) => req.deeplinks = deeplinks.clone(),
            Scope::Attachments(deeplinks) => {
                req.sources = vec![ATTACHMENTS_SOURCE.to_string()];
                req.deeplinks = deeplinks.clone();
            }
            Scope::Universe => req.access = Access::Public,
        }
        Some(req)
    }
}
