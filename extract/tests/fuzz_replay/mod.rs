//! The extractors' fuzz checks, run briefly on their seeds, past findings and mutations (see
//! `fuzz/checks/replay.rs`; `scripts/fuzz ooxml pdf text` runs them coverage-guided). In
//! process, as the worker runs them.

#[path = "../../../fuzz/checks/ooxml.rs"]
mod ooxml;
#[path = "../../../fuzz/checks/pdf.rs"]
mod pdf;
#[path = "../../../fuzz/checks/replay.rs"]
mod replay;
#[path = "../../../fuzz/checks/text.rs"]
mod text;

#[test]
fn any_office_package_gives_sound_pages_or_an_error() {
    replay::run("ooxml", ooxml::check);
}

#[test]
fn any_pdf_gives_sound_pages_or_an_error() {
    replay::run("pdf", pdf::check);
}

#[test]
fn any_text_markdown_or_html_gives_one_sound_page() {
    replay::run("text", text::check);
}
