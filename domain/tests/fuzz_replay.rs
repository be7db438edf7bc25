//! The keyword parser's fuzz check, run briefly on its seeds, past findings and mutations (see
//! `fuzz/checks/replay.rs`; `scripts/fuzz keywords` runs it coverage-guided).

#[path = "../../fuzz/checks/keywords.rs"]
mod keywords;
#[path = "../../fuzz/checks/replay.rs"]
mod replay;

#[test]
fn keyword_expressions_parse_or_are_refused_and_read_back_as_written() {
    replay::run("keywords", keywords::check);
}
