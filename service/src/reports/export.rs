//! Export of a completed report as PDF or DOCX, with its citations as notes: the report's
//! markdown (headings, paragraphs, lists, tables) read into a small document model, each `[n]`
//! mark a reference to citation `n` of the raw data, written out by [`pdf`] (endnotes under
//! "Notes") or [`docx`] (Word footnotes). Each note names the cited passage's file, page and a
//! short quote of it.
//!
//! Rendering is CPU work and runs on a blocking thread.

mod docx;
mod pdf;

use domain::report::ReportType;
use serde_json::Value;

use super::own;
use crate::context::Context;
use crate::error::{Error, Kind, Result};
use crate::viewer::Viewer;

pub use pdf::FONT_ENV;

/// The longest quote of a passage a note carries, in characters.
const QUOTE_CHARS: usize = 160;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Pdf,
    Docx,
}

impl Format {
    pub fn parse(format: &str) -> Result<Format> {
        match format.trim().to_ascii_lowercase().as_str() {
            "pdf" => Ok(Format::Pdf),
            "docx" => Ok(Format::Docx),
            other => Err(Error::invalid("unknown_export_format", format!("Unknown format {other}: use pdf or docx"))),
        }
    }

    fn extension(self) -> &'static str {
        match self {
            Format::Pdf => "pdf",
            Format::Docx => "docx",
        }
    }

    pub fn mime_type(self) -> &'static str {
        match self {
            Format::Pdf => "application/pdf",
            Format::Docx => "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        }
    }
}

/// An exported report: its file name (`{title}.pdf`), type and bytes.
pub struct Exported {
    pub file_name: String,
    pub format: Format,
    pub bytes: Vec<u8>,
}

/// A piece of a line of text: words, or a reference to a note.
#[derive(Debug, Clone, PartialEq)]
pub enum Inline {
    Text(String),
    /// A citation: the number of its note.
    Note(usize),
}

#[derive(Debug, Clone, PartialEq)]
pub enum Block {
    /// A heading, level 1 (the title) to 3.
    Heading(u8, Vec<Inline>),
    Paragraph(Vec<Inline>),
    /// A list item, with its number when the list is ordered.
    Item(Option<u32>, Vec<Inline>),
    /// Rows of cells; the first row is the header.
    Table(Vec<Vec<Vec<Inline>>>),
}

/// A cited passage, as its note says it: file, page, quote.
#[derive(Debug, Clone, PartialEq)]
pub struct Note {
    pub number: usize,
    pub text: String,
}

/// A report ready to render.
#[derive(Debug, Clone, PartialEq)]
pub struct Doc {
    pub title: String,
    pub blocks: Vec<Block>,
    pub notes: Vec<Note>,
}

/// The viewer's completed report as a PDF or DOCX file. 422 `unknown_export_format`; not found
/// for another user's report; 409 `report_not_finished` unless it completed.
pub async fn export(ctx: &Context, viewer: &Viewer, report_id: &str, format: &str) -> Result<Exported> {
    let format = Format::parse(format)?;
    let row = own(ctx, viewer, report_id).await?;
    if row.status != "COMPLETED" {
        return Err(Error::new(Kind::Conflict, "report_not_finished", "only a completed report can be exported"));
    }
    let title = row.title.clone().unwrap_or_else(|| match ReportType::parse(&row.report_type) {
        Ok(t) => format!("{}: {}", t.label(), row.name),
        Err(_) => row.name.clone(),
    });
    let raw: Value = row.raw_data.as_deref().and_then(|r| serde_json::from_str(r).ok()).unwrap_or(Value::Null);
    let doc = read(&title, row.content.as_deref().unwrap_or_default(), &raw);
    let bytes = tokio::task::spawn_blocking(move || match format {
        Format::Pdf => pdf::render(&doc),
        Format::Docx => docx::render(&doc),
    })
    .await
    .map_err(Error::internal)??;
    Ok(Exported { file_name: format!("{}.{}", file_stem(&title), format.extension()), format, bytes })
}

/// Renders a document as PDF (the summaries' writer too). CPU work: call from a blocking thread.
pub fn render_pdf(doc: &Doc) -> Result<Vec<u8>> {
    pdf::render(doc)
}

/// A file name from the title: letters, digits, spaces, `-` and `_`, at most 100 characters.
pub fn file_stem(title: &str) -> String {
    let cleaned: String =
        title.chars().map(|c| if c.is_alphanumeric() || c == '-' || c == '_' || c == ' ' { c } else { ' ' }).collect();
    let stem = cleaned.split_whitespace().collect::<Vec<_>>().join(" ");
    let stem: String = stem.chars().take(100).collect();
    if stem.is_empty() {
        "report".to_string()
    } else {
        stem
    }
}

/// The report's markdown read into blocks, with a note per citation of `raw["citations"]`. The
/// trailing "Sources" section is left out: the notes say the same, next to what they support.
pub fn read(title: &str, markdown: &str, raw: &Value) -> Doc {
    let citations: Vec<&Value> = raw["citations"].as_array().map(|c| c.iter().collect()).unwrap_or_default();
    let notes: Vec<Note> = citations
        .iter()
        .enumerate()
        .map(|(i, c)| Note { number: c["number"].as_u64().map(|n| n as usize).unwrap_or(i + 1), text: note_text(c) })
        .collect();
    let known = |n: usize| notes.iter().any(|note| note.number == n);
    let mut blocks = vec![Block::Heading(1, vec![Inline::Text(title.to_string())])];
    let mut paragraph: Vec<String> = Vec::new();
    let mut table: Vec<Vec<Vec<Inline>>> = Vec::new();
    let mut skipping = false;
    let flush = |paragraph: &mut Vec<String>, table: &mut Vec<Vec<Vec<Inline>>>, blocks: &mut Vec<Block>| {
        if !paragraph.is_empty() {
            blocks.push(Block::Paragraph(inlines(&paragraph.join(" "), &known)));
            paragraph.clear();
        }
        if !table.is_empty() {
            blocks.push(Block::Table(std::mem::take(table)));
        }
    };
    for line in markdown.lines().map(str::trim) {
        if let Some((level, heading)) = heading(line) {
            flush(&mut paragraph, &mut table, &mut blocks);
            skipping = heading.eq_ignore_ascii_case("sources");
            if !skipping {
                blocks.push(Block::Heading(level, inlines(heading, &known)));
            }
            continue;
        }
        if skipping {
            continue;
        }
        if line.is_empty() {
            flush(&mut paragraph, &mut table, &mut blocks);
        } else if line.starts_with('|') {
            if !paragraph.is_empty() {
                flush(&mut paragraph, &mut table, &mut blocks);
            }
            let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
            let rule = cells.iter().all(|c| !c.is_empty() && c.chars().all(|ch| matches!(ch, '-' | ':' | ' ')));
            if !rule {
                table.push(cells.iter().map(|c| inlines(c, &known)).collect());
            }
        } else if let Some((number, item)) = list_item(line) {
            flush(&mut paragraph, &mut table, &mut blocks);
            blocks.push(Block::Item(number, inlines(item, &known)));
        } else {
            if !table.is_empty() {
                flush(&mut paragraph, &mut table, &mut blocks);
            }
            paragraph.push(line.to_string());
        }
    }
    flush(&mut paragraph, &mut table, &mut blocks);
    Doc { title: title.to_string(), blocks, notes }
}

fn heading(line: &str) -> Option<(u8, &str)> {
    let hashes = line.chars().take_while(|c| *c == '#').count();
    let rest = line[hashes..].strip_prefix(' ')?;
    // The report's title is the level-1 heading: its sections start at 2.
    (1..=6).contains(&hashes).then(|| ((hashes as u8).clamp(2, 3), rest.trim()))
}

fn list_item(line: &str) -> Option<(Option<u32>, &str)> {
    if let Some(rest) = line.strip_prefix("- ").or_else(|| line.strip_prefix("* ")) {
        return Some((None, rest));
    }
    let digits = line.chars().take_while(|c| c.is_ascii_digit()).count();
    let rest = line[digits..].strip_prefix(". ")?;
    Some((Some(line[..digits].parse().ok()?), rest))
}

/// Text with its `[n]` marks as notes (marks of no known citation stay text) and markdown
/// emphasis markers dropped.
fn inlines(text: &str, known: &dyn Fn(usize) -> bool) -> Vec<Inline> {
    let text = text.replace("**", "").replace("__", "");
    let mut out = Vec::new();
    let mut plain = String::new();
    let mut rest = text.as_str();
    while let Some(open) = rest.find('[') {
        let after = &rest[open + 1..];
        let close = after.find(']');
        let number = close.and_then(|c| after[..c].parse::<usize>().ok()).filter(|n| known(*n));
        match (close, number) {
            (Some(close), Some(n)) => {
                plain.push_str(rest[..open].trim_end());
                if !plain.is_empty() {
                    out.push(Inline::Text(std::mem::take(&mut plain)));
                }
                out.push(Inline::Note(n));
                rest = &after[close + 1..];
            }
            _ => {
                plain.push_str(&rest[..=open]);
                rest = after;
            }
        }
    }
    plain.push_str(rest);
    if !plain.trim().is_empty() {
        out.push(Inline::Text(plain));
    }
    out
}

/// "Acme annual results, page 3: “Revenue grew 14 percent …”".
fn note_text(citation: &Value) -> String {
    let title = citation["title"].as_str().filter(|t| !t.trim().is_empty()).unwrap_or("Untitled document");
    let page = citation["page"].as_u64().unwrap_or(1);
    let text = citation["text"].as_str().unwrap_or_default().split_whitespace().collect::<Vec<_>>().join(" ");
    let mut quote: String = text.chars().take(QUOTE_CHARS).collect();
    if quote.len() < text.len() {
        if let Some(space) = quote.rfind(' ') {
            quote.truncate(space);
        }
        quote.push('…');
    }
    format!("{title}, page {page}: “{quote}”")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn raw() -> Value {
        json!({"citations": [
            {"number": 1, "title": "Acme results", "page": 2, "text": "Revenue grew 14 percent to 48,200 crore."},
            {"number": 2, "title": "Acme overview", "page": 1, "text": "Founded in 1962."},
        ]})
    }

    #[test]
    fn the_markdown_is_read_into_headings_paragraphs_lists_and_tables_with_notes() {
        let markdown = "## Financial performance\n\nRevenue grew 14 percent [1][2]. See [x] here.\n\n\
            | Figure | FY24 |\n|---|---:|\n| Revenue | 48,200 [1] |\n\n- first point [2]\n1. numbered\n\n\
            ## Sources\n\n1. Acme results, page 2";
        let doc = read("Acme: report", markdown, &raw());
        assert_eq!(doc.blocks[0], Block::Heading(1, vec![Inline::Text("Acme: report".into())]));
        assert_eq!(doc.blocks[1], Block::Heading(2, vec![Inline::Text("Financial performance".into())]));
        assert_eq!(
            doc.blocks[2],
            Block::Paragraph(vec![
                Inline::Text("Revenue grew 14 percent".into()),
                Inline::Note(1),
                Inline::Note(2),
                Inline::Text(". See [x] here.".into()),
            ])
        );
        let Block::Table(rows) = &doc.blocks[3] else { panic!("{:?}", doc.blocks[3]) };
        assert_eq!(rows.len(), 2, "the rule row is dropped");
        assert_eq!(rows[1][1], vec![Inline::Text("48,200".into()), Inline::Note(1)]);
        assert_eq!(doc.blocks[4], Block::Item(None, vec![Inline::Text("first point".into()), Inline::Note(2)]));
        assert_eq!(doc.blocks[5], Block::Item(Some(1), vec![Inline::Text("numbered".into())]));
        assert_eq!(doc.blocks.len(), 6, "the Sources section is left to the notes");
        assert_eq!(doc.notes[0].text, "Acme results, page 2: “Revenue grew 14 percent to 48,200 crore.”");
    }

    #[test]
    fn long_quotes_are_cut_at_a_word_and_file_names_are_safe() {
        let long = json!({"title": "T", "page": 1, "text": "word ".repeat(100)});
        let text = note_text(&long);
        assert!(text.ends_with("word…”"), "{text}");
        assert!(text.chars().count() < QUOTE_CHARS + 20);
        assert_eq!(file_stem("Credit rating report: Acme/../\"Q3\""), "Credit rating report Acme Q3");
        assert_eq!(file_stem("::"), "report");
    }
}
