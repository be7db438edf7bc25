//! The report as a Word document (docx-rs): headings in Word's heading styles, so the navigation
//! pane and a table of contents find them; every citation a Word footnote carrying the cited
//! passage's file, page and a short quote; key-figure tables as Word tables.

use std::io::Cursor;
use std::sync::Mutex;

use docx_rs::{Docx, Footnote, Paragraph, Run, Style, StyleType, Table, TableCell, TableRow, VertAlignType};

use super::{Block, Doc, Inline, Note};
use crate::error::{Error, Result};

/// docx-rs numbers footnotes from one process-wide counter that it reads and then writes: two
/// documents built at once could give two footnotes of one document the same id. One at a time.
static BUILDING: Mutex<()> = Mutex::new(());

fn runs(mut paragraph: Paragraph, inlines: &[Inline], notes: &[Note], bold: bool) -> Paragraph {
    for inline in inlines {
        paragraph = match inline {
            Inline::Text(text) => {
                let run = Run::new().add_text(text);
                paragraph.add_run(if bold { run.bold() } else { run })
            }
            Inline::Note(n) => {
                let text =
                    notes.iter().find(|note| note.number == *n).map(|note| note.text.as_str()).unwrap_or_default();
                let content = Paragraph::new().style("FootnoteText").add_run(Run::new().add_text(text));
                paragraph.add_run(Run::new().add_footnote_reference(Footnote::new().add_content(content)))
            }
        };
    }
    paragraph
}

fn styles(docx: Docx) -> Docx {
    let heading = |level: usize, half_points: usize| {
        Style::new(format!("Heading{level}"), StyleType::Paragraph)
            .name(format!("Heading {level}"))
            .size(half_points)
            .bold()
            .outline_lvl(level - 1)
    };
    // The style docx-rs gives footnote references, raised as Word's own is.
    let mut reference = Style::new("FootnoteReference", StyleType::Character).name("footnote reference");
    reference.run_property = reference.run_property.vert_align(VertAlignType::SuperScript);
    docx.add_style(heading(1, 36))
        .add_style(heading(2, 28))
        .add_style(heading(3, 24))
        .add_style(Style::new("FootnoteText", StyleType::Paragraph).name("footnote text").size(18))
        .add_style(reference)
}

/// The DOCX of `doc`.
pub fn render(doc: &Doc) -> Result<Vec<u8>> {
    let _one_at_a_time = BUILDING.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let mut docx = styles(Docx::new());
    for block in &doc.blocks {
        docx = match block {
            Block::Heading(level, text) => {
                docx.add_paragraph(runs(Paragraph::new().style(&format!("Heading{level}")), text, &doc.notes, false))
            }
            Block::Paragraph(text) => docx.add_paragraph(runs(Paragraph::new(), text, &doc.notes, false)),
            Block::Item(number, text) => {
                let mark = number.map(|n| format!("{n}. ")).unwrap_or_else(|| "• ".to_string());
                let item = Paragraph::new().indent(Some(360), None, None, None).add_run(Run::new().add_text(mark));
                docx.add_paragraph(runs(item, text, &doc.notes, false))
            }
            Block::Table(rows) => {
                let rows = rows
                    .iter()
                    .enumerate()
                    .map(|(r, row)| {
                        TableRow::new(
                            row.iter()
                                .map(|cell| {
                                    TableCell::new().add_paragraph(runs(Paragraph::new(), cell, &doc.notes, r == 0))
                                })
                                .collect(),
                        )
                    })
                    .collect();
                docx.add_table(Table::new(rows))
            }
        };
    }
    let mut out = Cursor::new(Vec::new());
    docx.build().pack(&mut out).map_err(|e| Error::internal(format!("the DOCX could not be written: {e}")))?;
    Ok(out.into_inner())
}
