//! The report as a PDF: A4 pages of wrapped text, citations as superscript numbers and the
//! cited passages as endnotes ("Notes"). Laid out in two steps: lines placed on pages first, then
//! every page drawn with krilla, which embeds a subset of the font with its character map, so the
//! text can be selected, searched and read back.
//!
//! The font is a TrueType font of the system (DejaVu Sans, Liberation Sans or Noto Sans, as Debian
//! installs them), or the file `NEEDL_EXPORT_FONT` names: no font is bundled.

use krilla::geom::Point;
use krilla::page::PageSettings;
use krilla::text::{Font, TextDirection};
use krilla::Document;
use skrifa::charmap::Charmap;
use skrifa::instance::{LocationRef, Size};
use skrifa::metrics::GlyphMetrics;
use skrifa::{FontRef, MetadataProvider};

use super::{Block, Doc, Inline};
use crate::error::{Error, Result};

/// The environment variable naming a TrueType font file to write PDFs with.
pub const FONT_ENV: &str = "NEEDL_EXPORT_FONT";
/// Regular and bold faces, where Debian's font packages put them.
const SYSTEM_FONTS: [(&str, &str); 3] = [
    ("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"),
    (
        "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
        "/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf",
    ),
    ("/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf", "/usr/share/fonts/truetype/noto/NotoSans-Bold.ttf"),
];

const PAGE_WIDTH: f32 = 595.28;
const PAGE_HEIGHT: f32 = 841.89;
const MARGIN: f32 = 56.0;
const BODY: f32 = 10.5;
const NOTE: f32 = 8.5;
const LEADING: f32 = 1.4;

/// Reads the regular and bold font: `NEEDL_EXPORT_FONT` (both faces), else the first system
/// font found. A missing font is the operator's to fix: the error says how.
fn load_fonts() -> Result<(Vec<u8>, Vec<u8>)> {
    if let Some(path) = std::env::var_os(FONT_ENV) {
        let data = std::fs::read(&path).map_err(|e| {
            Error::internal(format!(
                "{FONT_ENV}={} cannot be read ({e}): PDF export needs a TrueType font",
                path.display()
            ))
        })?;
        return Ok((data.clone(), data));
    }
    for (regular, bold) in SYSTEM_FONTS {
        if let Ok(data) = std::fs::read(regular) {
            let bold = std::fs::read(bold).unwrap_or_else(|_| data.clone());
            return Ok((data, bold));
        }
    }
    Err(Error::internal(format!(
        "PDF export needs a TrueType font: install fonts-dejavu-core (Debian) or set {FONT_ENV} to a .ttf file"
    )))
}

/// One face: what krilla draws with, and the advances the line breaking measures with.
struct Face<'a> {
    font: Font,
    charmap: Charmap<'a>,
    metrics: GlyphMetrics<'a>,
}

impl<'a> Face<'a> {
    fn new(data: &'a [u8]) -> Result<Face<'a>> {
        let parsed = FontRef::new(data).map_err(|e| Error::internal(format!("the export font cannot be read: {e}")))?;
        let font = Font::new(data.to_vec().into(), 0)
            .ok_or_else(|| Error::internal("the export font cannot be read by krilla"))?;
        Ok(Face {
            font,
            charmap: parsed.charmap(),
            metrics: parsed.glyph_metrics(Size::new(1.0), LocationRef::default()),
        })
    }

    /// The width of `text` at `size` points.
    fn width(&self, text: &str, size: f32) -> f32 {
        let ems: f32 =
            text.chars().map(|c| self.charmap.map(c).and_then(|g| self.metrics.advance_width(g)).unwrap_or(0.5)).sum();
        ems * size
    }
}

/// A word (or a citation number) to place.
struct Token {
    text: String,
    bold: bool,
    size: f32,
    /// A superscript citation number.
    sup: bool,
    space_before: bool,
}

/// Text placed on a page: baseline at `y`, from the top.
struct Draw {
    x: f32,
    y: f32,
    bold: bool,
    size: f32,
    text: String,
}

struct Layout<'f> {
    regular: &'f Face<'f>,
    bold: &'f Face<'f>,
    pages: Vec<Vec<Draw>>,
    /// The top of the next line on the current page.
    y: f32,
}

impl<'f> Layout<'f> {
    fn face(&self, bold: bool) -> &'f Face<'f> {
        if bold {
            self.bold
        } else {
            self.regular
        }
    }

    fn new_page(&mut self) {
        self.pages.push(Vec::new());
        self.y = MARGIN;
    }

    /// Starts a new page unless `height` more fits on this one.
    fn room(&mut self, height: f32) {
        if self.y + height > PAGE_HEIGHT - MARGIN {
            self.new_page();
        }
    }

    fn tokens(inlines: &[Inline], size: f32, bold: bool) -> Vec<Token> {
        let mut out = Vec::new();
        for inline in inlines {
            match inline {
                Inline::Text(text) => {
                    let lead = text.starts_with(char::is_whitespace);
                    for (i, word) in text.split_whitespace().enumerate() {
                        let space_before = (i > 0 || lead) && !out.is_empty();
                        out.push(Token { text: word.to_string(), bold, size, sup: false, space_before });
                    }
                }
                Inline::Note(n) => {
                    out.push(Token { text: n.to_string(), bold, size: size * 0.65, sup: true, space_before: false })
                }
            }
        }
        out
    }

    /// Breaks tokens into lines no wider than `width`.
    fn lines(&self, tokens: Vec<Token>, width: f32) -> Vec<Vec<(f32, Token)>> {
        let mut lines: Vec<Vec<(f32, Token)>> = vec![vec![]];
        let mut used = 0.0;
        for token in tokens {
            let face = self.face(token.bold);
            let w = face.width(&token.text, token.size);
            let space = if token.space_before { face.width(" ", token.size) } else { 0.0 };
            let line = lines.last_mut().expect("a line");
            if !line.is_empty() && used + space + w > width {
                used = w;
                lines.push(vec![(0.0, token)]);
            } else {
                let x = if line.is_empty() { 0.0 } else { used + space };
                used = x + w;
                line.push((x, token));
            }
        }
        lines
    }

    /// Places a block of text at `x` (from the margin) over `width`, with `prefix` (a bullet or
    /// number) hanging before it.
    fn text(&mut self, inlines: &[Inline], size: f32, bold: bool, indent: f32, prefix: Option<&str>) {
        let width = PAGE_WIDTH - 2.0 * MARGIN - indent;
        let line_height = size * LEADING;
        let lines = self.lines(Self::tokens(inlines, size, bold), width);
        for (i, line) in lines.into_iter().enumerate() {
            self.room(line_height);
            let baseline = self.y + size;
            let page = self.pages.last_mut().expect("a page");
            if let (0, Some(prefix)) = (i, prefix) {
                page.push(Draw { x: MARGIN + indent - 14.0, y: baseline, bold, size, text: prefix.to_string() });
            }
            for (x, token) in line {
                let y = if token.sup { baseline - size * 0.35 } else { baseline };
                page.push(Draw { x: MARGIN + indent + x, y, bold: token.bold, size: token.size, text: token.text });
            }
            self.y += line_height;
        }
    }

    /// A table: equal columns, each cell wrapped within its column, the header row bold.
    fn table(&mut self, rows: &[Vec<Vec<Inline>>]) {
        let columns = rows.iter().map(Vec::len).max().unwrap_or(1).max(1);
        let column = (PAGE_WIDTH - 2.0 * MARGIN) / columns as f32;
        let size = BODY - 1.0;
        let line_height = size * LEADING;
        for (r, row) in rows.iter().enumerate() {
            let cells: Vec<_> =
                row.iter().map(|cell| self.lines(Self::tokens(cell, size, r == 0), column - 6.0)).collect();
            let height = cells.iter().map(Vec::len).max().unwrap_or(1) as f32 * line_height;
            self.room(height);
            let top = self.y;
            let page = self.pages.last_mut().expect("a page");
            for (c, lines) in cells.into_iter().enumerate() {
                for (l, line) in lines.into_iter().enumerate() {
                    let baseline = top + l as f32 * line_height + size;
                    for (x, token) in line {
                        let y = if token.sup { baseline - size * 0.35 } else { baseline };
                        page.push(Draw {
                            x: MARGIN + c as f32 * column + x,
                            y,
                            bold: token.bold,
                            size: token.size,
                            text: token.text,
                        });
                    }
                }
            }
            self.y += height + 2.0;
        }
    }

    fn gap(&mut self, points: f32) {
        self.y += points;
    }
}

/// The PDF of `doc`.
pub fn render(doc: &Doc) -> Result<Vec<u8>> {
    let (regular_data, bold_data) = load_fonts()?;
    let regular = Face::new(&regular_data)?;
    let bold = Face::new(&bold_data)?;
    let mut layout = Layout { regular: &regular, bold: &bold, pages: vec![], y: MARGIN };
    layout.new_page();
    for block in &doc.blocks {
        match block {
            Block::Heading(level, text) => {
                let size = match level {
                    1 => 18.0,
                    2 => 14.0,
                    _ => 12.0,
                };
                layout.gap(size * 0.5);
                layout.room(size * LEADING * 2.0);
                layout.text(text, size, true, 0.0, None);
                layout.gap(2.0);
            }
            Block::Paragraph(text) => {
                layout.text(text, BODY, false, 0.0, None);
                layout.gap(BODY * 0.6);
            }
            Block::Item(number, text) => {
                let prefix = number.map(|n| format!("{n}.")).unwrap_or_else(|| "•".to_string());
                layout.text(text, BODY, false, 16.0, Some(&prefix));
                layout.gap(BODY * 0.2);
            }
            Block::Table(rows) => {
                layout.table(rows);
                layout.gap(BODY * 0.6);
            }
        }
    }
    if !doc.notes.is_empty() {
        layout.gap(7.0);
        layout.room(14.0 * LEADING * 2.0);
        layout.text(&[Inline::Text("Notes".into())], 14.0, true, 0.0, None);
        layout.gap(2.0);
        for note in &doc.notes {
            let prefix = format!("{}.", note.number);
            layout.text(&[Inline::Text(note.text.clone())], NOTE, false, 16.0, Some(&prefix));
            layout.gap(NOTE * 0.3);
        }
    }
    let mut document = Document::new();
    document.set_metadata(krilla::metadata::Metadata::new().title(doc.title.clone()));
    for draws in layout.pages {
        let settings = PageSettings::from_wh(PAGE_WIDTH, PAGE_HEIGHT).expect("A4 is a page size");
        let mut page = document.start_page_with(settings);
        let mut surface = page.surface();
        for draw in draws {
            let face = if draw.bold { &bold } else { &regular };
            surface.draw_text(
                Point::from_xy(draw.x, draw.y),
                face.font.clone(),
                draw.size,
                &draw.text,
                false,
                TextDirection::Auto,
            );
        }
        surface.finish();
        page.finish();
    }
    document.finish().map_err(|e| Error::internal(format!("the PDF could not be written: {e:?}")))
}
