//! Table extraction (flag `doc_table_extraction`, PDF documents only): the tables found on a
//! PDF's pages ([`extract::tables`]) listed, and downloaded as CSV or as an XLSX workbook.
//!
//! CSV holds every table one after another, each under a line naming it and its page, with a
//! blank line between; the workbook has a sheet per table. Cells that read as numbers ("4,200",
//! "(310)", "12%") are written to the workbook as numbers, so a spreadsheet can sum them; the CSV
//! keeps the text as printed.

use serde::Serialize;

use crate::context::Context;
use crate::documents::document_in;
use crate::error::{Error, Kind, Result};
use crate::policy::require_flag;
use crate::reports::export::file_stem;
use crate::viewer::Viewer;

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TableView {
    /// 1-based, in the document's order.
    pub number: usize,
    pub page: u32,
    pub rows: Vec<Vec<String>>,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TableList {
    pub tables: Vec<TableView>,
}

/// How tables are downloaded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableFormat {
    Csv,
    Xlsx,
}

impl TableFormat {
    pub fn parse(format: &str) -> Result<TableFormat> {
        match format.trim().to_ascii_lowercase().as_str() {
            "csv" => Ok(TableFormat::Csv),
            "xlsx" => Ok(TableFormat::Xlsx),
            other => Err(Error::invalid("unknown_table_format", format!("Unknown format {other}: use csv or xlsx"))),
        }
    }

    pub fn mime_type(self) -> &'static str {
        match self {
            TableFormat::Csv => "text/csv; charset=utf-8",
            TableFormat::Xlsx => "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        }
    }
}

/// A download: its file name and bytes.
pub struct TableFile {
    pub file_name: String,
    pub format: TableFormat,
    pub bytes: Vec<u8>,
}

/// The tables of a PDF document the viewer may read.
pub async fn list(ctx: &Context, viewer: &Viewer, source: &str, deeplink: &str) -> Result<TableList> {
    let (_, tables) = find(ctx, viewer, source, deeplink).await?;
    Ok(TableList {
        tables: tables
            .into_iter()
            .enumerate()
            .map(|(i, t)| TableView { number: i + 1, page: t.page, rows: t.rows })
            .collect(),
    })
}

/// The tables of a PDF document the viewer may read, as one CSV or XLSX file.
pub async fn download(ctx: &Context, viewer: &Viewer, source: &str, deeplink: &str, format: &str) -> Result<TableFile> {
    let format = TableFormat::parse(format)?;
    let (title, tables) = find(ctx, viewer, source, deeplink).await?;
    if tables.is_empty() {
        return Err(Error::new(Kind::NotFound, "no_tables_found", "No tables were found in this document."));
    }
    let stem = format!("{} tables", file_stem(&title));
    let bytes = match format {
        TableFormat::Csv => csv(&tables).into_bytes(),
        TableFormat::Xlsx => tokio::task::spawn_blocking(move || xlsx(&tables)).await.map_err(Error::internal)??,
    };
    let extension = if format == TableFormat::Csv { "csv" } else { "xlsx" };
    Ok(TableFile { file_name: format!("{stem}.{extension}"), format, bytes })
}

async fn find(
    ctx: &Context,
    viewer: &Viewer,
    source: &str,
    deeplink: &str,
) -> Result<(String, Vec<extract::tables::Table>)> {
    require_flag(ctx, viewer, "doc_table_extraction", "table extraction is turned off for you").await?;
    let card = document_in(ctx, &viewer.user_id, source, deeplink, None).await?;
    let is_pdf = card.metadata.get("mime_type").is_some_and(|m| m == "application/pdf");
    let layout = card.internal.get("layout_blob").filter(|_| is_pdf);
    let Some(hash) = layout else {
        return Err(Error::invalid("not_a_pdf", "Tables can be taken from PDF documents only."));
    };
    let stored =
        ctx.blobs.get(hash).await.ok_or_else(|| Error::not_found("this document's page layout is no longer stored"))?;
    let extracted: extract::Extracted = serde_json::from_str(&stored).map_err(Error::internal)?;
    let tables = tokio::task::spawn_blocking(move || extract::tables::tables(&extracted.pages))
        .await
        .map_err(Error::internal)?;
    Ok((card.title, tables))
}

/// One CSV field, quoted when it holds a comma, a quote or a line break (RFC 4180). A field a
/// spreadsheet would run as a formula (`=`, `+`, `-`, `@` first) is prefixed with `'`, unless it
/// is a plain number such as "-310".
fn field(text: &str) -> String {
    let formula = text.starts_with(['=', '+', '-', '@', '\t', '\r']) && number(text).is_none();
    let text = if formula { format!("'{text}") } else { text.to_string() };
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text
    }
}

fn csv(tables: &[extract::tables::Table]) -> String {
    let mut out = String::new();
    for (i, table) in tables.iter().enumerate() {
        if i > 0 {
            out.push_str("\r\n");
        }
        out.push_str(&field(&format!("Table {}, page {}", i + 1, table.page)));
        out.push_str("\r\n");
        for row in &table.rows {
            out.push_str(&row.iter().map(|c| field(c)).collect::<Vec<_>>().join(","));
            out.push_str("\r\n");
        }
    }
    out
}

/// A cell as a number when it reads as one: thousands separators, a currency sign, a percent
/// sign (kept as a fraction) or accounting brackets for a negative.
fn number(text: &str) -> Option<f64> {
    let t = text.trim();
    if t.is_empty() {
        return None;
    }
    let (negative, t) = match t.strip_prefix('(').and_then(|r| r.strip_suffix(')')) {
        Some(inner) => (true, inner.trim()),
        None => (false, t),
    };
    let (percent, t) = match t.strip_suffix('%') {
        Some(rest) => (true, rest.trim()),
        None => (false, t),
    };
    let t = t.trim_start_matches(['$', '€', '£', '₹', '¥']).trim();
    let cleaned: String = t.chars().filter(|c| *c != ',').collect();
    if cleaned.is_empty() || !cleaned.chars().all(|c| c.is_ascii_digit() || matches!(c, '.' | '-')) {
        return None;
    }
    let mut value: f64 = cleaned.parse().ok()?;
    if negative {
        value = -value;
    }
    if percent {
        value /= 100.0;
    }
    Some(value)
}

fn xlsx(tables: &[extract::tables::Table]) -> Result<Vec<u8>> {
    use rust_xlsxwriter::{Format, Workbook};
    let mut workbook = Workbook::new();
    let bold = Format::new().set_bold();
    let percent = Format::new().set_num_format("0.0%");
    let failed = |e: rust_xlsxwriter::XlsxError| Error::internal(format!("writing the workbook: {e}"));
    for (i, table) in tables.iter().enumerate() {
        let sheet = workbook.add_worksheet();
        sheet.set_name(format!("Table {} (p{})", i + 1, table.page)).map_err(failed)?;
        for (r, row) in table.rows.iter().enumerate() {
            for (c, cell) in row.iter().enumerate() {
                let (r, c) = (r as u32, c as u16);
                match number(cell) {
                    Some(value) if cell.trim_end().ends_with('%') => {
                        sheet.write_number_with_format(r, c, value, &percent).map_err(failed)?;
                    }
                    Some(value) => {
                        sheet.write_number(r, c, value).map_err(failed)?;
                    }
                    None if r == 0 => {
                        sheet.write_string_with_format(r, c, cell, &bold).map_err(failed)?;
                    }
                    None => {
                        sheet.write_string(r, c, cell).map_err(failed)?;
                    }
                }
            }
        }
        sheet.autofit();
    }
    workbook.save_to_buffer().map_err(failed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use extract::tables::Table;

    fn table() -> Table {
        Table {
            page: 4,
            rows: vec![
                vec!["".into(), "2024".into(), "2023".into()],
                vec!["Revenue, net".into(), "4,200".into(), "3,750".into()],
                vec!["Loss".into(), "(310)".into(), "-12".into()],
                vec!["=HYPERLINK(\"x\")".into(), "12%".into(), "$1.5".into()],
            ],
        }
    }

    #[test]
    fn figures_read_as_numbers_and_words_do_not() {
        assert_eq!(number("4,200"), Some(4200.0));
        assert_eq!(number("(310)"), Some(-310.0));
        assert_eq!(number("12%"), Some(0.12));
        assert_eq!(number("$1.5"), Some(1.5));
        assert_eq!(number("-12"), Some(-12.0));
        assert_eq!(number("FY2024"), None);
        assert_eq!(number("n/a"), None);
    }

    #[test]
    fn csv_quotes_what_needs_it_and_defuses_formulas() {
        let text = csv(&[table(), table()]);
        let lines: Vec<&str> = text.split("\r\n").collect();
        assert_eq!(lines[0], "\"Table 1, page 4\"");
        assert_eq!(lines[1], ",2024,2023");
        assert_eq!(lines[2], "\"Revenue, net\",\"4,200\",\"3,750\"");
        assert_eq!(lines[3], "Loss,(310),-12");
        assert_eq!(lines[4], "\"'=HYPERLINK(\"\"x\"\")\",12%,$1.5");
        assert_eq!(lines[5], "", "a blank line between tables");
        assert_eq!(lines[6], "\"Table 2, page 4\"");
    }

    #[test]
    fn the_workbook_is_a_zip_with_a_sheet_per_table() {
        let bytes = xlsx(&[table(), table()]).unwrap();
        assert!(bytes.starts_with(b"PK"), "an OOXML package");
        let text = String::from_utf8_lossy(&bytes);
        assert!(text.contains("xl/worksheets/sheet2.xml"), "two sheets");
    }
}
