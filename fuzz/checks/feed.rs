//! Feed parsing (`ingest::feeds`): any bytes give items within the limits or a `FeedError`,
//! never a panic, and every item has what the store keys it by.

use ingest::feeds::{parse_feed_bytes, FeedLimits};

pub fn check(data: &[u8]) {
    let base = url::Url::parse("https://example.com/feed.xml").unwrap();
    let limits = FeedLimits { max_items: 50, max_title_bytes: 256, max_summary_bytes: 1024, max_text_bytes: 4096 };
    let Ok(feed) = parse_feed_bytes(data, "fuzz", Some(&base), &limits) else { return };
    assert!(feed.items.len() <= limits.max_items, "{} items kept, over the limit", feed.items.len());
    for item in &feed.items {
        assert!(!item.guid.is_empty(), "an item without an identifier");
        assert_eq!(item.content_hash.len(), 64, "a content hash that is not SHA-256 hex");
        assert!(item.title.as_ref().is_none_or(|t| t.len() <= limits.max_title_bytes), "a title over its cap");
        assert!(item.summary.as_ref().is_none_or(|s| s.len() <= limits.max_summary_bytes), "a summary over its cap");
        assert!(item.full_text.as_ref().is_none_or(|s| s.len() <= limits.max_text_bytes), "a text over its cap");
        if let Some(link) = &item.link {
            assert!(matches!(link.scheme(), "http" | "https"), "an item link that is not http(s): {link}");
        }
    }
}
