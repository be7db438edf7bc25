//! Cutting a document's text into passages: paragraph-sized pieces that keep their page and
//! where they sit in it, so a hit can be shown and drawn where it is.

use serde::{Deserialize, Serialize};

use crate::tables;

/// A passage aims at this many characters: a paragraph or two, enough for an answer's evidence.
pub const TARGET_CHARS: usize = 700;
/// A paragraph longer than this is cut at sentence ends (or, failing that, at spaces).
pub const MAX_CHARS: usize = 1200;

/// A positioned line of a page (PDF layout), as extraction records it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Line {
    pub text: String,
    pub bbox: [f32; 4],
}

/// A page's text and, for fixed-layout formats, its lines.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PageText {
    pub text: String,
    pub lines: Vec<Line>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Passage {
    /// 0-based position in the document.
    pub ordinal: u32,
    /// 1-based page.
    pub page: u32,
    /// Character (not byte) range in the page's text.
    pub start: u32,
    pub end: u32,
    pub text: String,
    /// Boxes of the lines the passage covers, on its page.
    pub boxes: Vec<[f32; 4]>,
    /// A row of a table read on its own ([`table_rows`]): its text is the row under its column
    /// headers, not the page's words, and its range and boxes are the row's line.
    pub table_row: bool,
}

/// Splits pages into passages.
pub fn passages(pages: &[PageText]) -> Vec<Passage> {
    let mut out = Vec::new();
    for (index, page) in pages.iter().enumerate() {
        let lines = locate_lines(&page.text, &page.lines);
        for (start, end) in pieces(&page.text) {
            let text = page.text[start..end].trim();
            if text.is_empty() {
                continue;
            }
            let boxes = lines.iter().filter(|(s, e, _)| *s < end && *e > start).map(|(_, _, b)| *b).collect();
            out.push(Passage {
                ordinal: out.len() as u32,
                page: index as u32 + 1,
                start: page.text[..start].chars().count() as u32,
                end: page.text[..end].chars().count() as u32,
                text: text.to_string(),
                boxes,
                table_row: false,
            });
        }
    }
    out
}

/// Each row of the pages' tables as a passage of its own, numbered on from `first_ordinal` (after
/// the document's [`passages`], which keep the whole tables): the row under its column headers,
/// then the table's caption on a second line ("Total sales — 2019: $1,496.5; 2018: $1,202.9" over
/// "Years Ended September 30,"). A question about one figure finds the row that holds it whole,
/// periods and all, where a long table's passage would rank below the prose around it, and an
/// answer cites that row's line of the page.
pub fn table_rows(pages: &[PageText], first_ordinal: u32) -> Vec<Passage> {
    let mut out = Vec::new();
    for (index, page) in pages.iter().enumerate() {
        // Most pages hold no table: their lines are located only when one does.
        let rows = tables::rows(&page.text);
        if rows.is_empty() {
            continue;
        }
        let lines = locate_lines(&page.text, &page.lines);
        for row in rows {
            let (start, end) = (row.range.start, row.range.end);
            let boxes = lines.iter().filter(|(s, e, _)| *s < end && *e > start).map(|(_, _, b)| *b).collect();
            let text = if row.caption.is_empty() { row.line } else { format!("{}\n{}", row.line, row.caption) };
            out.push(Passage {
                ordinal: first_ordinal + out.len() as u32,
                page: index as u32 + 1,
                start: page.text[..start].chars().count() as u32,
                end: page.text[..end].chars().count() as u32,
                text,
                boxes,
                table_row: true,
            });
        }
    }
    out
}

/// Byte ranges of the passages of one page: paragraphs (split at blank lines) gathered up to the
/// target size, long ones cut at sentence ends.
fn pieces(text: &str) -> Vec<(usize, usize)> {
    let mut units = Vec::new();
    for (start, end) in paragraphs(text) {
        if text[start..end].chars().count() <= MAX_CHARS {
            units.push((start, end));
        } else {
            units.extend(cut_long(text, start, end));
        }
    }
    let mut out: Vec<(usize, usize)> = Vec::new();
    for (start, end) in units {
        match out.last_mut() {
            Some(last) if text[last.0..end].chars().count() <= TARGET_CHARS => last.1 = end,
            _ => out.push((start, end)),
        }
    }
    out
}

/// Byte ranges of paragraphs: runs of text between blank lines (or form feeds).
fn paragraphs(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    let mut last_end = 0;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let is_blank = line.trim().is_empty() || line.trim() == "\u{c}";
        if is_blank {
            if let Some(s) = start.take() {
                out.push((s, last_end));
            }
        } else {
            if start.is_none() {
                start = Some(offset + (line.len() - line.trim_start().len()));
            }
            last_end = offset + line.trim_end().len();
        }
        offset += line.len();
    }
    if let Some(s) = start {
        out.push((s, last_end));
    }
    out
}

/// Cuts `text[start..end]` into pieces of at most [`MAX_CHARS`]: a table (rows of figures, one
/// a line) at a line end, so no row is split from its label; prose at sentence ends, failing
/// those at line ends, then at spaces.
fn cut_long(text: &str, start: usize, end: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut from = start;
    while text[from..end].chars().count() > MAX_CHARS {
        // The byte offset of the MAX_CHARS-th character from `from`.
        let limit = from + text[from..end].char_indices().nth(MAX_CHARS).map(|(i, _)| i).unwrap_or(end - from);
        let window = &text[from..limit];
        let line_end = window.rfind('\n').filter(|&i| i > window.len() / 3);
        let cut = line_end
            .filter(|_| is_table(window))
            .or_else(|| sentence_end(window).filter(|&i| i > window.len() / 3))
            .or(line_end)
            .or_else(|| window.rfind(char::is_whitespace).filter(|&i| i > 0))
            .unwrap_or(window.len());
        let piece_end = from + cut;
        out.push((from, piece_end));
        from = piece_end + text[piece_end..end].len() - text[piece_end..end].trim_start().len();
        if from >= end {
            break;
        }
    }
    if from < end {
        out.push((from, end));
    }
    out
}

/// Whether most of the (three or more) lines of `window` end in a figure, as a table's rows do.
fn is_table(window: &str) -> bool {
    let lines: Vec<&str> = window.lines().map(str::trim_end).filter(|l| !l.is_empty()).collect();
    let figures = lines
        .iter()
        .filter(|l| l.ends_with(|c: char| c.is_ascii_digit() || matches!(c, ')' | '%' | '\u{2014}' | '\u{2013}' | '-')))
        .count();
    lines.len() >= 3 && figures * 2 > lines.len()
}

/// The byte offset just after the last sentence end (". ", "? ", "! ") in `window`.
fn sentence_end(window: &str) -> Option<usize> {
    let bytes = window.as_bytes();
    (1..bytes.len()).rev().find(|&i| bytes[i].is_ascii_whitespace() && matches!(bytes[i - 1], b'.' | b'?' | b'!'))
}

/// Where each positioned line sits in the page's text: byte ranges found in order.
fn locate_lines(text: &str, lines: &[Line]) -> Vec<(usize, usize, [f32; 4])> {
    let mut out = Vec::with_capacity(lines.len());
    let mut cursor = 0;
    for line in lines {
        let needle = line.text.trim();
        if needle.is_empty() {
            continue;
        }
        if let Some(found) = text[cursor..].find(needle) {
            let start = cursor + found;
            cursor = start + needle.len();
            out.push((start, cursor, line.bbox));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(text: &str) -> PageText {
        PageText { text: text.to_string(), lines: vec![] }
    }

    #[test]
    fn short_paragraphs_are_gathered_up_to_the_target() {
        let text = "First paragraph.\n\nSecond paragraph.\n\nThird.";
        let got = passages(&[page(text)]);
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].text, text);
        assert_eq!((got[0].start, got[0].end), (0, text.chars().count() as u32));
    }

    #[test]
    fn paragraphs_beyond_the_target_start_a_new_passage() {
        let long = "word ".repeat(120);
        let text = format!("{}\n\n{}\n\nTail here.", long.trim(), long.trim());
        let got = passages(&[page(&text)]);
        assert_eq!(got.len(), 2, "{got:?}");
        assert_eq!(got[1].text, format!("{}\n\nTail here.", long.trim()));
        // Offsets point back into the page.
        let chars: Vec<char> = text.chars().collect();
        let slice: String = chars[got[1].start as usize..got[1].end as usize].iter().collect();
        assert_eq!(slice, got[1].text);
    }

    #[test]
    fn a_long_table_is_cut_at_line_ends_so_each_row_stays_whole() {
        // Dot leaders hold ". " inside rows: no sentence end of a table is taken for a cut.
        let rows: Vec<String> = (0..60)
            .map(|i| format!("Segment {i} revenue . . {},{:03}.5 {},{:03}.0", i + 1, i * 7, i + 2, i * 3))
            .collect();
        let text = format!("(in millions) 2019 2018\n{}", rows.join("\n"));
        let got = passages(&[page(&text)]);
        assert!(got.len() >= 2, "{}", got.len());
        for p in &got {
            for line in p.text.lines() {
                assert!(line.starts_with("Segment ") || line.starts_with("(in millions)"), "{line:?}");
                assert!(line.ends_with(".5") || line.ends_with(".0") || line.ends_with("2018"), "{line:?}");
            }
        }
    }

    #[test]
    fn a_long_paragraph_is_cut_at_sentence_ends() {
        let sentence = "The committee reviewed the quarterly filing in detail. ";
        let text = sentence.repeat(60);
        let got = passages(&[page(&text)]);
        assert!(got.len() >= 3, "{}", got.len());
        for p in &got {
            assert!(p.text.chars().count() <= MAX_CHARS);
            assert!(p.text.ends_with('.'), "{:?}", &p.text[p.text.len() - 20..]);
        }
    }

    #[test]
    fn offsets_are_in_characters_not_bytes() {
        let text = "Zürich café résumé.\n\nNext: naïve façade.";
        let got = passages(&[page(text)]);
        let chars: Vec<char> = text.chars().collect();
        for p in got {
            let slice: String = chars[p.start as usize..p.end as usize].iter().collect();
            assert_eq!(slice, p.text);
        }
    }

    #[test]
    fn passages_keep_their_page_and_the_boxes_of_their_lines() {
        let pages = vec![
            page("Cover page."),
            PageText {
                text: "Revenue grew 12%.\nMargins held.\n\nOutlook is stable.".to_string(),
                lines: vec![
                    Line { text: "Revenue grew 12%.".into(), bbox: [10.0, 10.0, 100.0, 20.0] },
                    Line { text: "Margins held.".into(), bbox: [10.0, 22.0, 90.0, 32.0] },
                    Line { text: "Outlook is stable.".into(), bbox: [10.0, 50.0, 95.0, 60.0] },
                ],
            },
        ];
        let got = passages(&pages);
        assert_eq!(got.len(), 2);
        assert_eq!((got[0].page, got[0].ordinal), (1, 0));
        assert_eq!((got[1].page, got[1].ordinal), (2, 1));
        assert_eq!(got[1].boxes.len(), 3);
        assert_eq!(got[1].boxes[2], [10.0, 50.0, 95.0, 60.0]);
    }

    #[test]
    fn each_table_row_is_a_passage_under_its_headers_on_its_line_of_its_page() {
        let table = "Net sales by segment\n(in millions) 2019 2018\nNet sales 1,234 1,100\nOperating income 210 (15)";
        let text = format!("Sales rose in both segments, helped by the new distribution centres.\n\n{table}");
        let bbox = |y: f32| [72.0, y, 500.0, y + 12.0];
        let lines: Vec<Line> = text
            .lines()
            .filter(|l| !l.is_empty())
            .zip(0..)
            .map(|(l, i)| Line { text: l.into(), bbox: bbox(i as f32 * 20.0) })
            .collect();
        let pages = vec![page("Cover page."), PageText { text: text.clone(), lines }];
        let blocks = passages(&pages);
        let rows = table_rows(&pages, blocks.len() as u32);
        assert_eq!(rows.len(), 2, "{rows:?}");
        let net = &rows[0];
        assert_eq!(net.text, "Net sales \u{2014} 2019: 1,234; 2018: 1,100\nNet sales by segment (in millions)");
        assert!(net.table_row && blocks.iter().all(|b| !b.table_row));
        assert_eq!((net.page, net.ordinal), (2, blocks.len() as u32));
        assert_eq!(rows[1].ordinal, net.ordinal + 1);
        // The citation points at the row's own line: its characters in the page and its box.
        let chars: Vec<char> = text.chars().collect();
        let line: String = chars[net.start as usize..net.end as usize].iter().collect();
        assert_eq!(line, "Net sales 1,234 1,100");
        assert_eq!(net.boxes, vec![bbox(60.0)]);
        // The page's own passages are what they were: the table whole, in its paragraph.
        assert!(blocks.iter().any(|b| b.text.ends_with(table)));
    }

    #[test]
    fn prose_gives_no_table_rows() {
        let text = "Revenue grew to 1,234 in 2019 from 1,100 in 2018 on stronger demand.\n\nMargins held at 12%.";
        assert!(table_rows(&[page(text)], 0).is_empty());
    }

    #[test]
    fn empty_and_blank_pages_make_no_passages() {
        assert!(passages(&[page(""), page("  \n\n \u{c}\n")]).is_empty());
    }
}
