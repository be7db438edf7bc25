//! The feed parser's fuzz check, run briefly on its seeds, past findings and mutations (see
//! `fuzz/checks/replay.rs`; `scripts/fuzz feed` runs it coverage-guided).

#[path = "../../../fuzz/checks/feed.rs"]
mod feed;
#[path = "../../../fuzz/checks/replay.rs"]
mod replay;

#[test]
fn any_feed_bytes_give_items_within_the_limits_or_an_error() {
    replay::run("feed", feed::check);
}
