#![no_main]

#[path = "../checks/feed.rs"]
mod check;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    // parse_feed_bytes catches the feed parser's own panics (see there), but libFuzzer's panic
    // hook would abort on them first; with the default hook back, a panic that nothing catches
    // still ends the run as a crash.
    static HOOK: std::sync::Once = std::sync::Once::new();
    HOOK.call_once(|| drop(std::panic::take_hook()));
    check::check(data)
});
