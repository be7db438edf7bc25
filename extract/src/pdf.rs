//! PDF through MuPDF, run only inside the capped worker.
//!
//! Why MuPDF (`shared/notes/EXTRACTION.md`, measured on this machine): the fastest engine (0.77 of
//! pdftotext's time), the only one that handled every hostile and crafted file (a 1 GiB stream
//! decoded in 6 MB), line and character boxes for highlights, 0.999 word recall against
//! pdftotext, and AGPL-3.0 like this project. pdftotext would need a GPL binary at run time and
//! ran past 60 s on one crafted page; pdfium has no Debian package; the pure-Rust crates abort,
//! stall or drop text. The cost is a C build (libclang for bindgen), paid once.

use crate::clean::{clean_text, drop_replacements, join_hyphenated_lines, looks_garbled, metadata_value, title_value};
use crate::sniff::MIME_PDF;
use crate::{Block, DocMetadata, ExtractError, Page};
use mupdf::{Document, MetadataName, TextPageFlags};

pub struct PdfOutput {
    pub pages: Vec<Page>,
    pub metadata: DocMetadata,
    pub warnings: Vec<String>,
}

/// Extracts every page's text and line boxes from PDF bytes. Takes the bytes by value to free
/// them once MuPDF holds its own copy: the address-space cap counts both.
pub fn extract_pdf(bytes: Vec<u8>, max_pages: u32) -> Result<PdfOutput, ExtractError> {
    let mut doc = Document::from_bytes(&bytes, MIME_PDF).map_err(mupdf_error)?;
    drop(bytes);
    if doc.needs_password().map_err(mupdf_error)? && !doc.authenticate("").map_err(mupdf_error)? {
        return Err(ExtractError::Encrypted(
            "this PDF is password-protected; remove the password and upload it again".into(),
        ));
    }
    let count = doc.page_count().map_err(mupdf_error)?;
    let count = u32::try_from(count).unwrap_or(0);
    if count > max_pages {
        return Err(ExtractError::TooLarge(format!("{count} pages, more than the limit of {max_pages}")));
    }
    if count == 0 {
        // Some broken files open "successfully" with no pages; that is not an empty document.
        return Err(ExtractError::Corrupt("the PDF has no readable pages".into()));
    }
    let metadata = read_metadata(&doc, count);
    let mut pages = Vec::with_capacity(count as usize);
    let mut warnings = Vec::new();
    let mut empty_pages = 0u32;
    for index in 0..count {
        let number = index + 1;
        match extract_page(&doc, index as i32, number) {
            Ok(page) => {
                if page.text.is_empty() {
                    empty_pages += 1;
                }
                pages.push(page);
            }
            // One broken page should not cost the reader the other hundred.
            Err(e) => {
                tracing::warn!(page = number, error = %e, "pdf page failed");
                warnings.push(format!("page {number} could not be read: {}", short(&e.to_string())));
                pages.push(Page {
                    number,
                    text: String::new(),
                    blocks: vec![],
                    width: 0.0,
                    height: 0.0,
                    garbled: false,
                });
            }
        }
    }
    if count > 0 && pages.iter().all(|p| p.text.is_empty() && p.width == 0.0) {
        return Err(ExtractError::Corrupt("no page of this PDF could be read".into()));
    }
    if empty_pages > 0 {
        warnings.push(format!("{empty_pages} of {count} pages have no text layer (scanned images need OCR)"));
    }
    Ok(PdfOutput { pages, metadata, warnings })
}

fn extract_page(doc: &Document, index: i32, number: u32) -> Result<Page, mupdf::Error> {
    let page = doc.load_page(index)?;
    let bounds = page.bounds()?;
    let text_page = page.to_text_page(TextPageFlags::empty())?;
    // Lines per text block first, so cleanups that span lines (a word hyphenated at a line end)
    // can change a line's text while it keeps its box. Image and vector blocks have no lines, so
    // iterating lines keeps text blocks only.
    let mut paragraphs: Vec<Vec<(String, [f32; 4])>> = Vec::new();
    for block in text_page.blocks() {
        let mut lines = Vec::new();
        for line in block.lines() {
            let raw: String = line.chars().filter_map(|c| c.char()).collect();
            let line_text = clean_text(&raw);
            if line_text.is_empty() {
                continue;
            }
            let r = line.bounds();
            // Boxes relative to the page's own origin, so a viewer needs only the page size.
            lines.push((line_text, [r.x0 - bounds.x0, r.y0 - bounds.y0, r.x1 - bounds.x0, r.y1 - bounds.y0]));
        }
        if !lines.is_empty() {
            paragraphs.push(lines);
        }
    }
    // Judged before replacement characters go: a page of them is a font without a character map.
    let garbled = looks_garbled(&join_page(&paragraphs));
    let mut blocks = Vec::new();
    for lines in &mut paragraphs {
        let mut texts: Vec<String> = lines.iter().map(|(t, _)| drop_replacements(t).trim().to_string()).collect();
        join_hyphenated_lines(&mut texts);
        let kept: Vec<(String, [f32; 4])> =
            texts.into_iter().zip(lines.iter().map(|(_, b)| *b)).filter(|(t, _)| !t.is_empty()).collect();
        blocks.extend(kept.iter().map(|(text, bbox)| Block { text: text.clone(), bbox: *bbox }));
        *lines = kept;
    }
    let text = join_page(&paragraphs);
    Ok(Page { number, text, blocks, width: bounds.x1 - bounds.x0, height: bounds.y1 - bounds.y0, garbled })
}

/// A page's text: lines of a block on lines of their own, blocks apart by a blank line.
fn join_page(paragraphs: &[Vec<(String, [f32; 4])>]) -> String {
    let joined: Vec<String> = paragraphs
        .iter()
        .filter(|p| !p.is_empty())
        .map(|p| p.iter().map(|(t, _)| t.as_str()).collect::<Vec<_>>().join("\n"))
        .collect();
    joined.join("\n\n")
}

fn read_metadata(doc: &Document, page_count: u32) -> DocMetadata {
    let get = |name| doc.metadata(name).ok().and_then(|s| metadata_value(&s));
    let created = get(MetadataName::CreationDate).and_then(|d| parse_pdf_date(&d));
    DocMetadata {
        mime: MIME_PDF.into(),
        page_count,
        title: doc.metadata(MetadataName::Title).ok().and_then(|s| title_value(&s)),
        author: get(MetadataName::Author),
        subject: get(MetadataName::Subject),
        keywords: get(MetadataName::Keywords),
        created_by: get(MetadataName::Creator),
        producer: get(MetadataName::Producer),
        year: created.as_deref().and_then(|d| d.get(..4)).and_then(|y| y.parse().ok()),
        created,
        modified: get(MetadataName::ModDate).and_then(|d| parse_pdf_date(&d)),
        ..DocMetadata::default()
    }
}

/// Turns a PDF date (`D:YYYYMMDDHHmmSSOHH'mm'`, every part after the year optional) into
/// ISO 8601; returns `None` for anything that is not one.
pub fn parse_pdf_date(raw: &str) -> Option<String> {
    let s = raw.trim().trim_start_matches("D:");
    let digits: String = s.chars().take_while(|c| c.is_ascii_digit()).collect();
    if digits.len() < 4 {
        return None;
    }
    let part = |from: usize, len: usize, default: &str| -> String {
        digits.get(from..from + len).unwrap_or(default).to_string()
    };
    let (y, mo, d) = (part(0, 4, ""), part(4, 2, "01"), part(6, 2, "01"));
    let (h, mi, sec) = (part(8, 2, "00"), part(10, 2, "00"), part(12, 2, "00"));
    let month: u32 = mo.parse().ok()?;
    let day: u32 = d.parse().ok()?;
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) {
        return None;
    }
    let rest = &s[digits.len()..];
    let zone = match rest.chars().next() {
        Some('Z') => "Z".to_string(),
        Some(sign @ ('+' | '-')) => {
            let tz: String = rest[1..].chars().filter(|c| c.is_ascii_digit()).collect();
            let th = tz.get(0..2).unwrap_or("00");
            let tm = tz.get(2..4).unwrap_or("00");
            format!("{sign}{th}:{tm}")
        }
        _ => String::new(),
    };
    Some(format!("{y}-{mo}-{d}T{h}:{mi}:{sec}{zone}"))
}

fn mupdf_error(e: mupdf::Error) -> ExtractError {
    let message = match &e {
        mupdf::Error::MuPdf(m) => m.message.clone(),
        other => other.to_string(),
    };
    let lower = message.to_ascii_lowercase();
    if lower.contains("malloc") || lower.contains("out of memory") {
        // MuPDF turns a refused allocation into an error; the caller fills in the cap.
        return ExtractError::OutOfMemory { limit_mib: 0 };
    }
    if lower.contains("password") || lower.contains("encrypt") {
        return ExtractError::Encrypted(
            "this PDF is encrypted in a way that cannot be opened; remove the protection and upload it again".into(),
        );
    }
    ExtractError::Corrupt(format!("not a readable PDF ({})", short(&message)))
}

fn short(s: &str) -> String {
    s.chars().take(200).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pdf_dates_become_iso_8601() {
        assert_eq!(parse_pdf_date("D:20170425103000+05'30'").as_deref(), Some("2017-04-25T10:30:00+05:30"));
        assert_eq!(parse_pdf_date("D:2009").as_deref(), Some("2009-01-01T00:00:00"));
        assert_eq!(parse_pdf_date("D:20091399"), None);
        assert_eq!(parse_pdf_date("yesterday"), None);
    }
}
