//! Plain text, Markdown and HTML. They have no fixed layout: text and Markdown are one page, HTML
//! is cut into pages where its author asked for page breaks (as SEC filings do), else one page.

use crate::clean::{clean_text, drop_replacements, metadata_value, title_value};
use crate::sniff::{MIME_HTML, MIME_MARKDOWN, MIME_TEXT};
use crate::{DocMetadata, Page};
use scraper::{Html, Node};

pub struct TextOutput {
    pub pages: Vec<Page>,
    pub metadata: DocMetadata,
    pub warnings: Vec<String>,
}

/// Decodes bytes of unknown encoding: a byte-order mark wins, then valid UTF-8, then the guess of
/// chardetng (Firefox's detector), with a warning, since a guess can be wrong.
pub fn decode(bytes: &[u8], warnings: &mut Vec<String>) -> String {
    if let Some((encoding, _)) = encoding_rs::Encoding::for_bom(bytes) {
        return encoding.decode_with_bom_removal(bytes).0.into_owned();
    }
    if let Ok(s) = std::str::from_utf8(bytes) {
        return s.to_owned();
    }
    if let Some(text) = decode_mixed(bytes) {
        warnings.push("the text is partly not UTF-8; the other bytes were decoded as windows-1252".into());
        return text;
    }
    let mut detector = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
    detector.feed(bytes, true);
    let encoding = detector.guess(None, chardetng::Utf8Detection::Allow);
    let (text, _, had_errors) = encoding.decode(bytes);
    warnings.push(format!(
        "the text is not UTF-8; decoded as {}{}",
        encoding.name(),
        if had_errors { " with some characters replaced" } else { "" }
    ));
    text.into_owned()
}

/// UTF-8 with stray single-byte characters, as when text pasted from Windows (a curly quote,
/// 0x92) meets an editor that saves UTF-8: the valid UTF-8 stays, each invalid byte is read as
/// windows-1252, which is what such bytes almost always are. A detector guessing one encoding
/// for the whole file would mangle one half or the other. `None` when the file holds no
/// non-ASCII UTF-8 at all: then it is wholly in some legacy encoding, for the detector to name.
fn decode_mixed(bytes: &[u8]) -> Option<String> {
    let chunks: Vec<_> = bytes.utf8_chunks().collect();
    if !chunks.iter().any(|c| !c.valid().is_ascii()) {
        return None;
    }
    let mut out = String::with_capacity(bytes.len());
    for chunk in chunks {
        out.push_str(chunk.valid());
        out.push_str(&encoding_rs::WINDOWS_1252.decode_without_bom_handling(chunk.invalid()).0);
    }
    Some(out)
}

/// Never flagged as garbled: that detector is for PDF fonts, and would misjudge tables of
/// figures or code.
fn single_page(text: String) -> Vec<Page> {
    vec![Page { number: 1, text, blocks: vec![], width: 0.0, height: 0.0, garbled: false }]
}

/// Plain text or Markdown; Markdown stays as written (its syntax reads fine and search drops
/// the punctuation), and its first heading becomes the title.
pub fn extract_plain(bytes: &[u8], markdown: bool) -> TextOutput {
    let mut warnings = Vec::new();
    let text = drop_replacements(&clean_text(&decode(bytes, &mut warnings)));
    let title = if markdown { markdown_title(&text) } else { None };
    let mime = if markdown { MIME_MARKDOWN } else { MIME_TEXT };
    TextOutput {
        pages: single_page(text),
        metadata: DocMetadata { mime: mime.into(), page_count: 1, title, ..DocMetadata::default() },
        warnings,
    }
}

/// The first heading, ATX (`# Title`) or setext (a line underlined with `===` or `---`).
fn markdown_title(text: &str) -> Option<String> {
    let lines: Vec<&str> = text.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        let trimmed = line.trim();
        if let Some(heading) = trimmed.strip_prefix('#') {
            let heading = heading.trim_start_matches('#').trim();
            if !heading.is_empty() {
                return Some(heading.to_string());
            }
        }
        let underline = lines.get(i + 1).map(|l| l.trim()).unwrap_or("");
        let is_underline =
            underline.len() >= 3 && (underline.chars().all(|c| c == '=') || underline.chars().all(|c| c == '-'));
        if is_underline && !trimmed.is_empty() {
            return Some(trimmed.to_string());
        }
    }
    None
}

/// Elements whose content is never reading text.
const SKIPPED: &[&str] = &["script", "style", "noscript", "template", "head", "svg", "iframe", "object"];
/// Elements that end a line of text.
const BLOCKS: &[&str] = &[
    "p",
    "div",
    "br",
    "li",
    "tr",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "section",
    "article",
    "header",
    "footer",
    "blockquote",
    "pre",
    "table",
    "ul",
    "ol",
    "dl",
    "dt",
    "dd",
    "hr",
    "nav",
    "aside",
    "main",
    "figure",
    "figcaption",
    "address",
];

/// HTML through html5ever (scraper): visible text with scripts and styles dropped, block
/// elements on lines of their own, `<title>` and `<meta name=author|description>` as metadata.
pub fn extract_html(bytes: &[u8]) -> TextOutput {
    let mut warnings = Vec::new();
    let source = decode(bytes, &mut warnings);
    let document = Html::parse_document(&source);
    let mut text = String::new();
    let mut title = None;
    let mut author = None;
    let mut subject = None;
    for node in document.tree.root().descendants() {
        if let Node::Element(e) = node.value() {
            match e.name() {
                "title" if title.is_none() => {
                    let t: String =
                        node.descendants().filter_map(|n| n.value().as_text().map(|t| t.to_string())).collect();
                    title = title_value(&t);
                }
                "meta" => {
                    let content = e.attr("content").and_then(metadata_value);
                    match e.attr("name").map(|n| n.to_ascii_lowercase()).as_deref() {
                        Some("author") => author = author.or(content),
                        Some("description") => subject = subject.or(content),
                        _ => {}
                    }
                }
                _ => {}
            }
        }
    }
    visible_text(document.tree.root(), &mut text);
    let pages = html_pages(&text);
    TextOutput {
        metadata: DocMetadata {
            mime: MIME_HTML.into(),
            page_count: pages.len() as u32,
            title,
            author,
            subject,
            ..DocMetadata::default()
        },
        pages,
        warnings,
    }
}

/// Most pages one HTML document is cut into; the rest of the text stays on the last page.
const MAX_HTML_PAGES: usize = 2000;

/// Cuts visible text at its page-break marks into cleaned pages, dropping pages left empty (a
/// break right after a break, a cover with nothing but an image). Always at least one page.
fn html_pages(text: &str) -> Vec<Page> {
    let mut texts: Vec<String> = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find(PAGE_BREAK) {
        if texts.len() + 1 >= MAX_HTML_PAGES {
            break;
        }
        texts.push(rest[..at].to_string());
        rest = &rest[at + PAGE_BREAK.len_utf8()..];
    }
    texts.push(rest.replace(PAGE_BREAK, "\n"));
    let cleaned: Vec<String> =
        texts.iter().map(|t| drop_replacements(&clean_text(t))).filter(|t| !t.trim().is_empty()).collect();
    if cleaned.is_empty() {
        return single_page(String::new());
    }
    cleaned
        .into_iter()
        .enumerate()
        .map(|(n, text)| Page { number: n as u32 + 1, text, blocks: vec![], width: 0.0, height: 0.0, garbled: false })
        .collect()
}

/// Marks a page break in the visible text: a form feed (any in the text itself are made spaces).
const PAGE_BREAK: char = '\u{c}';

/// Where an element asks for a page break: before it, after it.
fn page_breaks(e: &scraper::node::Element) -> (bool, bool) {
    let Some(style) = e.attr("style") else {
        return (false, false);
    };
    let style: String = style.chars().filter(|c| !c.is_whitespace()).collect::<String>().to_ascii_lowercase();
    let before = style.contains("page-break-before:always") || style.contains("break-before:page");
    let after = style.contains("page-break-after:always") || style.contains("break-after:page");
    (before, after)
}

/// Whether an element is never shown: `display:none` (inline XBRL keeps its thousands of hidden
/// facts and contexts so), the `hidden` attribute, or an inline XBRL header.
fn is_hidden(e: &scraper::node::Element) -> bool {
    if e.name() == "ix:header" || e.attr("hidden").is_some() {
        return true;
    }
    e.attr("style").is_some_and(|style| {
        let style: String = style.chars().filter(|c| !c.is_whitespace()).collect::<String>().to_ascii_lowercase();
        style.contains("display:none")
    })
}

/// Depth-first text of a subtree, skipping [`SKIPPED`] elements. Iterative, so a page nested
/// a million elements deep cannot overflow the stack.
fn visible_text(root: ego_tree::NodeRef<'_, Node>, out: &mut String) {
    // (node, entering): leaving a block element ends its line.
    let mut stack = vec![(root, true)];
    while let Some((node, entering)) = stack.pop() {
        match node.value() {
            // A form feed in the text itself is only whitespace: page breaks are the styles'.
            Node::Text(t) if entering => out.extend(t.chars().map(|c| if c == PAGE_BREAK { ' ' } else { c })),
            Node::Element(e) => {
                let name = e.name();
                let (break_before, break_after) = page_breaks(e);
                if !entering {
                    out.push('\n');
                    if break_after {
                        out.push(PAGE_BREAK);
                    }
                    continue;
                }
                if SKIPPED.contains(&name) || is_hidden(e) {
                    continue;
                }
                if break_before {
                    out.push(PAGE_BREAK);
                }
                if name == "br" {
                    out.push('\n');
                    continue;
                }
                let block = BLOCKS.contains(&name);
                if block || break_after {
                    out.push('\n');
                    stack.push((node, false));
                } else if matches!(name, "td" | "th") {
                    out.push('\t');
                }
                for child in node.children().rev() {
                    stack.push((child, true));
                }
            }
            _ if entering => {
                for child in node.children().rev() {
                    stack.push((child, true));
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_with_stray_windows_1252_bytes_keeps_both_readable() {
        let mut bytes = "Café report: ".as_bytes().to_vec();
        bytes.extend_from_slice(b"the company\x92s \x93best\x94 year");
        let mut warnings = Vec::new();
        assert_eq!(decode(&bytes, &mut warnings), "Café report: the company\u{2019}s \u{201C}best\u{201D} year");
        assert_eq!(warnings.len(), 1);
    }

    #[test]
    fn replacement_characters_left_by_an_earlier_decoder_are_dropped_from_text() {
        let out = extract_plain("Na\u{FFFD}ve \u{FFFD} results".as_bytes(), false);
        assert_eq!(out.pages[0].text, "Nave results");
    }

    #[test]
    fn html_metadata_placeholders_are_not_kept() {
        let html = br#"<html><head><title>Untitled</title><meta name="author" content="ARRAY(0x2c7cf020)"></head><body><p>Body</p></body></html>"#;
        let out = extract_html(html);
        assert_eq!((out.metadata.title, out.metadata.author), (None, None));
        assert_eq!(out.pages[0].text, "Body");
    }

    #[test]
    fn html_page_breaks_cut_pages_and_hidden_parts_are_not_text() {
        let html = br#"<html><body>
            <div style="display: none"><ix:header><ix:resources>c-1 2023-10-01 2024-09-28</ix:resources></ix:header></div>
            <p>Cover page</p>
            <hr style="page-break-after: always"/>
            <p>Part I</p><p hidden>draft note</p>
            <div style="break-before: page"><p>Part II</p></div>
            <hr style="page-break-after:always"/><hr style="page-break-after:always"/>
            <p>Signatures</p>
        </body></html>"#;
        let out = extract_html(html);
        let texts: Vec<&str> = out.pages.iter().map(|p| p.text.as_str()).collect();
        assert_eq!(texts, ["Cover page", "Part I", "Part II", "Signatures"]);
        assert_eq!(out.pages.iter().map(|p| p.number).collect::<Vec<_>>(), [1, 2, 3, 4]);
        assert_eq!(out.metadata.page_count, 4);
    }

    #[test]
    fn html_without_page_breaks_is_one_page_even_when_empty() {
        assert_eq!(extract_html(b"<p>One</p><p>Two</p>").pages.len(), 1);
        let empty = extract_html(b"<html><body></body></html>");
        assert_eq!((empty.pages.len(), empty.pages[0].text.as_str()), (1, ""));
    }
}
