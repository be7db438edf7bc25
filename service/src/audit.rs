//! The event history as people outside the store may see it.

use commands::feed::StoredEvent;

/// Fields never shown outside the store.
const REDACTED_FIELDS: &[&str] = &["password_hash"];

/// Returns the event with secrets in its payload replaced.
pub fn redacted(mut event: StoredEvent) -> StoredEvent {
    fn walk(value: &mut serde_json::Value) {
        match value {
            serde_json::Value::Object(map) => {
                for (key, v) in map.iter_mut() {
                    if REDACTED_FIELDS.contains(&key.as_str()) {
                        *v = serde_json::Value::String("[redacted]".into());
                    } else {
                        walk(v);
                    }
                }
            }
            serde_json::Value::Array(items) => items.iter_mut().for_each(walk),
            _ => {}
        }
    }
    walk(&mut event.payload);
    event
}
