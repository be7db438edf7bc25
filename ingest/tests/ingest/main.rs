//! The crate's one integration-test binary. Real feed files and pages come from
//! `../shared/data` (skipped with a message when absent); every network exchange goes to a
//! server started here on 127.0.0.1 (or 127.0.0.2 to play an off-limits host).

mod catalogue;
mod connector;
mod edgar;
mod feeds;
mod fetch;
mod fuzz_replay;
mod support;
mod web;
