//! A filing's index page on EDGAR (`…/0000320193-24-000123-index.htm`).
//!
//! The index page is where EDGAR says what a filing is made of: its form, dates, period of
//! report and filer, and a table of documents (the main document, exhibits, graphics, the
//! complete submission) followed by a table of XBRL data files. The connector reads it to pick
//! the main document and the exhibits worth reading. The page is HTML, read with html5ever
//! through `dom_query`, so sloppy markup is not an obstacle.

use chrono::{NaiveDate, NaiveDateTime};
use dom_query::{Document, Selection};
use serde::{Deserialize, Serialize};
use url::Url;

use super::feed::{decode, is_accession};

/// An index page is a few tens of KB; far more is not one.
pub const MAX_INDEX_BYTES: usize = 16 * 1024 * 1024;
/// Document rows read from one page (filings with thousands of exhibits exist, barely).
pub const MAX_ROWS: usize = 2_000;
/// Text cells are cut to this many characters.
const MAX_CELL_CHARS: usize = 500;
/// The roles EDGAR puts after a company's name on an index page.
const ROLES: &[&str] = &["filer", "filed by", "filed for", "subject", "reporting", "issuer", "filer agent"];

/// Why a page could not be read as a filing index.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IndexError {
    #[error("EDGAR answered with an empty page instead of the filing's index")]
    Empty,
    #[error("the filing's index page is larger than Needl reads ({size} bytes, at most {max})")]
    TooLarge { size: usize, max: usize },
    #[error("not a filing index page: EDGAR's page lists no filing documents")]
    NotAnIndex,
}

/// What a filing's index page says about it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FilingIndex {
    pub accession: Option<String>,
    /// "10-K", "8-K", "10-K/A".
    pub form: Option<String>,
    pub filing_date: Option<NaiveDate>,
    /// When EDGAR accepted the filing, in EDGAR's time (US Eastern), as the page shows it.
    pub accepted: Option<NaiveDateTime>,
    /// The date the report covers: a 10-K's fiscal year end, an 8-K's event date.
    pub period_of_report: Option<NaiveDate>,
    /// The first company named, without its role: "Apple Inc.", not "Apple Inc. (Filer)".
    pub company: Option<String>,
    /// The documents, then the data files, in page order.
    pub documents: Vec<IndexDocument>,
}

/// One row of the index page's tables.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct IndexDocument {
    /// The sequence number; EDGAR leaves it blank for the complete submission text file.
    pub seq: Option<u32>,
    pub description: Option<String>,
    /// The file name, "aapl-20240928.htm".
    pub name: String,
    /// The document itself: an inline-XBRL viewer link (`/ix?doc=/Archives/…`) is turned into
    /// the address of the document it shows.
    pub url: Url,
    /// The Type column: "10-K", "EX-99.1", "GRAPHIC", "EX-101.SCH"; empty when EDGAR leaves it so.
    pub kind: String,
    /// Bytes, as EDGAR states them.
    pub size: Option<u64>,
    /// The document carries inline XBRL (EDGAR marks it "iXBRL" and links it through its viewer).
    pub inline_xbrl: bool,
    /// The row comes from the "Data Files" table (XBRL schemas, linkbases, instance documents).
    pub data_file: bool,
}

impl FilingIndex {
    /// The filing's main document: sequence 1 when its type is the form (for amendments,
    /// "10-K/A"), else the first document whose type is the form, else sequence 1, else the first
    /// document that is not a data file.
    pub fn primary(&self) -> Option<&IndexDocument> {
        let documents = || self.documents.iter().filter(|d| !d.data_file);
        let is_form =
            |d: &IndexDocument| self.form.as_deref().is_some_and(|f| d.kind.trim().eq_ignore_ascii_case(f.trim()));
        documents()
            .find(|d| d.seq == Some(1) && is_form(d))
            .or_else(|| documents().find(|d| is_form(d)))
            .or_else(|| documents().find(|d| d.seq == Some(1)))
            .or_else(|| documents().find(|d| !d.kind.is_empty()))
    }

    /// The exhibits worth reading: types starting "EX-" other than the XBRL parts (EX-101.*,
    /// EX-104), readable formats only (.htm, .html, .txt, .pdf), in sequence order, at most `max`.
    pub fn exhibits(&self, max: usize) -> Vec<&IndexDocument> {
        let mut exhibits: Vec<&IndexDocument> = self
            .documents
            .iter()
            .filter(|d| {
                let kind = d.kind.trim().to_ascii_uppercase();
                !d.data_file && kind.starts_with("EX-") && !kind.starts_with("EX-101") && !kind.starts_with("EX-104")
            })
            .filter(|d| {
                let name = d.name.to_ascii_lowercase();
                [".htm", ".html", ".txt", ".pdf"].iter().any(|e| name.ends_with(e))
            })
            .collect();
        exhibits.sort_by_key(|d| d.seq.unwrap_or(u32::MAX));
        exhibits.truncate(max);
        exhibits
    }
}

/// Reads a filing's index page. `base` is the page's address; document links resolve against it.
pub fn parse_filing_index(bytes: &[u8], base: &Url) -> Result<FilingIndex, IndexError> {
    if bytes.len() > MAX_INDEX_BYTES {
        return Err(IndexError::TooLarge { size: bytes.len(), max: MAX_INDEX_BYTES });
    }
    let text = decode(bytes);
    if text.trim().is_empty() {
        return Err(IndexError::Empty);
    }
    let doc = Document::from(text.as_ref());
    let tables = doc.select("table.tableFile");
    let mut has_documents = false;
    let mut documents = Vec::new();
    for (i, table) in tables.iter().enumerate() {
        let caption =
            table.attr("summary").map(|s| s.to_string()).unwrap_or_else(|| clean(&table.prev_sibling().text()));
        let data_file = caption.to_ascii_lowercase().contains("data files");
        let is_documents = caption.to_ascii_lowercase().contains("document format files") || (i == 0 && !data_file);
        if !is_documents && !data_file {
            continue;
        }
        has_documents |= is_documents;
        read_rows(&table, base, data_file, &mut documents);
    }
    if !has_documents {
        return Err(IndexError::NotAnIndex);
    }
    let info = info_fields(&doc);
    let field = |name: &str| info.iter().find(|(head, _)| head.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str());
    let date = |name: &str| field(name).and_then(|v| NaiveDate::parse_from_str(v, "%Y-%m-%d").ok());
    Ok(FilingIndex {
        accession: find_accession(&doc.select("#secNum").text()),
        form: form_of(&doc),
        filing_date: date("Filing Date"),
        accepted: field("Accepted").and_then(|v| NaiveDateTime::parse_from_str(v, "%Y-%m-%d %H:%M:%S").ok()),
        period_of_report: date("Period of Report"),
        company: company_of(&doc),
        documents,
    })
}

/// Reads a table's rows into documents, finding columns by their headings (Seq, Description,
/// Document, Type, Size) and falling back to EDGAR's usual order.
fn read_rows(table: &Selection, base: &Url, data_file: bool, documents: &mut Vec<IndexDocument>) {
    let mut columns = [Some(0), Some(1), Some(2), Some(3), Some(4)];
    for row in table.select("tr").iter() {
        if documents.len() >= MAX_ROWS {
            return;
        }
        let heads: Vec<String> = row.select("th").iter().map(|h| clean(&h.text()).to_ascii_lowercase()).collect();
        if !heads.is_empty() {
            let find = |name: &str| heads.iter().position(|h| h.starts_with(name));
            columns = [find("seq"), find("description"), find("document"), find("type"), find("size")];
            continue;
        }
        let cells: Vec<Selection> = row.select("td").iter().collect();
        let cell = |i: Option<usize>| i.and_then(|i| cells.get(i));
        let Some(document_cell) = cell(columns[2]) else { continue };
        let Some(href) = document_cell.select("a[href]").first().attr("href") else { continue };
        let Some((url, via_viewer)) = document_url(&href, base) else { continue };
        let link_text = clean(&document_cell.select("a[href]").first().text());
        let name = if link_text.is_empty() {
            url.path_segments().and_then(|mut s| s.next_back().map(str::to_owned)).unwrap_or_default()
        } else {
            link_text
        };
        if name.is_empty() {
            continue;
        }
        let text_of = |i: Option<usize>| cell(i).map(|c| clean(&c.text())).unwrap_or_default();
        let size = text_of(columns[4]).replace(',', "");
        documents.push(IndexDocument {
            seq: text_of(columns[0]).parse().ok(),
            description: Some(text_of(columns[1])).filter(|d| !d.is_empty()),
            name,
            url,
            kind: text_of(columns[3]),
            size: size.parse().ok(),
            inline_xbrl: via_viewer || clean(&document_cell.text()).contains("iXBRL"),
            data_file,
        });
    }
}

/// A document link as the address of the document: EDGAR links inline-XBRL documents through
/// its viewer (`/ix?doc=/Archives/…`), whose `doc` parameter is the document. The flag says
/// whether the link went through the viewer. Only web addresses are kept.
fn document_url(href: &str, base: &Url) -> Option<(Url, bool)> {
    let url = base.join(href.trim()).ok()?;
    let viewer = url.path().ends_with("/ix") || url.path().ends_with("/ix.html") || url.path().contains("ixviewer");
    let doc = viewer.then(|| url.query_pairs().find(|(k, _)| k == "doc").map(|(_, v)| v.into_owned())).flatten();
    let (url, via_viewer) = match doc {
        Some(doc) => (base.join(&doc).ok()?, true),
        None => (url, false),
    };
    matches!(url.scheme(), "http" | "https").then_some((url, via_viewer))
}

/// The "Filing Date", "Accepted", "Period of Report"… pairs of the page's header.
fn info_fields(doc: &Document) -> Vec<(String, String)> {
    doc.select(".infoHead")
        .iter()
        .take(64)
        .filter_map(|head| {
            let value = head.next_sibling();
            value.has_class("info").then(|| (clean(&head.text()), clean(&value.text())))
        })
        .collect()
}

/// The form, from "Form 10-K - Annual report …".
fn form_of(doc: &Document) -> Option<String> {
    let strong = clean(&doc.select("#formName strong").first().text());
    let text = if strong.is_empty() { clean(&doc.select("#formName").text()) } else { strong };
    let text = text.split(" - ").next().unwrap_or_default().trim();
    let form = text.strip_prefix("Form ").unwrap_or(text).trim();
    (!form.is_empty() && form.len() <= 20).then(|| form.to_owned())
}

/// The first company on the page, without its role or CIK: "Apple Inc. (Filer) CIK: …" gives
/// "Apple Inc.".
fn company_of(doc: &Document) -> Option<String> {
    let text = clean(&doc.select(".companyName").first().text());
    let mut name = text.split(" CIK").next().unwrap_or_default().trim();
    if let Some(open) = name.rfind('(') {
        let role = name[open + 1..].trim_end_matches(')').trim().to_ascii_lowercase();
        if name.ends_with(')') && ROLES.contains(&role.as_str()) {
            name = name[..open].trim_end();
        }
    }
    (!name.is_empty()).then(|| name.to_owned())
}

/// The first accession number in a text.
fn find_accession(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    (0..bytes.len().saturating_sub(19))
        .filter(|i| text.is_char_boundary(*i) && text.is_char_boundary(i + 20))
        .map(|i| &text[i..i + 20])
        .find(|candidate| is_accession(candidate))
        .map(str::to_owned)
}

/// Cell text with whitespace (non-breaking spaces too) collapsed, cut to a sane length.
fn clean(text: &str) -> String {
    let mut out = String::new();
    for word in text.split(|c: char| c.is_whitespace()).filter(|w| !w.is_empty()).take(MAX_CELL_CHARS) {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
        if out.len() > 4 * MAX_CELL_CHARS {
            break;
        }
    }
    if out.chars().count() > MAX_CELL_CHARS {
        out = out.chars().take(MAX_CELL_CHARS).collect();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEN_K: &[u8] = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/edgar/index-10k.htm"));
    const EIGHT_K: &[u8] = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/edgar/index-8k.htm"));

    fn base(accession: &str) -> Url {
        let folder = accession.replace('-', "");
        Url::parse(&format!("https://www.sec.gov/Archives/edgar/data/320193/{folder}/{accession}-index.htm")).unwrap()
    }

    fn ten_k() -> FilingIndex {
        parse_filing_index(TEN_K, &base("0000320193-24-000123")).unwrap()
    }

    #[test]
    fn the_header_gives_form_dates_period_and_company() {
        let index = ten_k();
        assert_eq!(index.accession.as_deref(), Some("0000320193-24-000123"));
        assert_eq!(index.form.as_deref(), Some("10-K"));
        assert_eq!(index.filing_date, NaiveDate::from_ymd_opt(2024, 11, 1));
        assert_eq!(index.accepted.unwrap().to_string(), "2024-11-01 06:01:36");
        assert_eq!(index.period_of_report, NaiveDate::from_ymd_opt(2024, 9, 28));
        assert_eq!(index.company.as_deref(), Some("Apple Inc."));
    }

    #[test]
    fn documents_and_data_files_are_read_with_their_columns() {
        let index = ten_k();
        let main = &index.documents[0];
        assert_eq!(main.seq, Some(1));
        assert_eq!(main.name, "aapl-20240928.htm");
        assert_eq!(main.kind, "10-K");
        assert_eq!(main.size, Some(1_503_498));
        assert!(main.inline_xbrl && !main.data_file);
        assert_eq!(
            main.url.as_str(),
            "https://www.sec.gov/Archives/edgar/data/320193/000032019324000123/aapl-20240928.htm",
            "the viewer link becomes the document's own address"
        );
        let full = index.documents.iter().find(|d| d.name.ends_with(".txt")).unwrap();
        assert_eq!((full.seq, full.kind.as_str()), (None, ""));
        assert_eq!(full.description.as_deref(), Some("Complete submission text file"));
        let data: Vec<&str> = index.documents.iter().filter(|d| d.data_file).map(|d| d.kind.as_str()).collect();
        assert_eq!(data, ["EX-101.SCH", "EX-101.CAL", "EX-101.DEF", "XML"]);
        assert!(index.documents.iter().all(|d| d.name != "no-link"), "rows without a link are skipped");
    }

    #[test]
    fn the_primary_document_is_the_one_whose_type_is_the_form() {
        let index = ten_k();
        assert_eq!(index.primary().unwrap().name, "aapl-20240928.htm");
        let mut amended = index.clone();
        amended.form = Some("10-K/A".into());
        amended.documents[0].kind = "10-K/A".into();
        amended.documents.swap(0, 1);
        assert_eq!(amended.primary().unwrap().name, "aapl-20240928.htm", "found by type wherever it is");
        amended.form = None;
        assert_eq!(amended.primary().unwrap().seq, Some(1), "without a form, sequence 1");
    }

    #[test]
    fn exhibits_leave_out_xbrl_parts_graphics_and_data_files() {
        let index = ten_k();
        let names: Vec<&str> = index.exhibits(10).iter().map(|d| d.name.as_str()).collect();
        assert_eq!(names, ["aapl-20240928xex44.htm", "aapl-20240928xex211.htm", "aapl-20240928xex311.htm"]);
        assert_eq!(index.exhibits(1).len(), 1);
    }

    #[test]
    fn an_8k_index_gives_its_press_release() {
        let index = parse_filing_index(EIGHT_K, &base("0000320193-24-000120")).unwrap();
        assert_eq!(index.form.as_deref(), Some("8-K"));
        assert_eq!(index.period_of_report, NaiveDate::from_ymd_opt(2024, 10, 31));
        assert_eq!(index.primary().unwrap().name, "aapl-20241031.htm");
        let exhibits = index.exhibits(5);
        assert_eq!(exhibits.len(), 1, "EX-104 is an XBRL part");
        assert_eq!(exhibits[0].kind, "EX-99.1");
        assert_eq!(exhibits[0].description.as_deref(), Some("EX-99.1"));
    }

    #[test]
    fn a_page_without_a_document_table_is_not_an_index() {
        let page = b"<html><body><h1>No matching CIK.</h1></body></html>";
        assert_eq!(parse_filing_index(page, &base("0000320193-24-000123")), Err(IndexError::NotAnIndex));
        assert_eq!(parse_filing_index(b" ", &base("0000320193-24-000123")), Err(IndexError::Empty));
    }

    #[test]
    fn a_cut_off_page_gives_a_result_or_an_error_never_a_panic() {
        for end in (0..TEN_K.len()).step_by(301) {
            let _ = parse_filing_index(&TEN_K[..end], &base("0000320193-24-000123"));
        }
    }

    #[test]
    fn rows_are_capped() {
        let mut page = String::from(r#"<table class="tableFile" summary="Document Format Files">"#);
        for i in 0..2_500 {
            page.push_str(&format!(
                r#"<tr><td>{i}</td><td>x</td><td><a href="/d{i}.htm">d{i}.htm</a></td><td>EX-99</td><td>1</td></tr>"#
            ));
        }
        page.push_str("</table>");
        let index = parse_filing_index(page.as_bytes(), &base("0000320193-24-000123")).unwrap();
        assert_eq!(index.documents.len(), MAX_ROWS);
    }

    #[test]
    fn an_accession_is_found_inside_text() {
        assert_eq!(find_accession("SEC Accession No. 0000320193-24-000123").as_deref(), Some("0000320193-24-000123"));
        assert_eq!(find_accession("short"), None);
        assert_eq!(find_accession("é0000320193-24-000123é").as_deref(), Some("0000320193-24-000123"));
    }
}
