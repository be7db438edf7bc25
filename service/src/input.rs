//! Checks on input that several features share.

use commands::feed::Cursor;

use crate::error::{Error, Result};

/// The longest id of a scope (a feed, a source, a channel) a request may name.
pub const MAX_SCOPE_ID_CHARS: usize = 200;

/// Returns `id` without surrounding spaces, `None` when empty; refuses ids past the limit.
pub fn scope_id(field: &str, id: Option<String>) -> Result<Option<String>> {
    let id = id.map(|id| id.trim().to_string()).filter(|id| !id.is_empty());
    if id.as_ref().is_some_and(|id| id.chars().count() > MAX_SCOPE_ID_CHARS) {
        return Err(Error::invalid("invalid_body", format!("{field} must be at most {MAX_SCOPE_ID_CHARS} characters")));
    }
    Ok(id)
}

/// A feed cursor as a client sends it back (`after`): `bad_cursor` when it does not parse.
pub fn feed_cursor(cursor: &str) -> Result<Cursor> {
    cursor.parse::<Cursor>().map_err(|e| Error::malformed("bad_cursor", e.to_string()))
}
