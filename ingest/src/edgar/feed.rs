//! A company's Atom feed of filings (`browse-edgar?action=getcompany&CIK=…&output=atom`).
//!
//! EDGAR declares the feed ISO-8859-1, lists at most 100 filings newest first, and answers a CIK
//! it does not know with an HTML page rather than an error status. The feed is read with
//! quick-xml, which never expands custom entities; a document type is refused before parsing all
//! the same, so that guarantee does not hang on the parser's version. Each filing keeps what the
//! connector needs to fetch and title it: accession number, form, dates and the index page.
//!
//! The decoding and XML helpers at the bottom are shared with the other EDGAR parsers.

use std::borrow::Cow;

use chrono::{DateTime, NaiveDate, Utc};
use quick_xml::events::{BytesRef, BytesStart, Event};
use serde::{Deserialize, Serialize};
use url::Url;

pub(super) use crate::feeds::decode;
use crate::feeds::{cap, scan_prolog};

/// Entries read from one feed; EDGAR itself serves at most 100 per page.
pub const MAX_ENTRIES: usize = 100;
/// A feed of 100 filings is about 100 KB; anything far larger is not a feed.
pub const MAX_FEED_BYTES: usize = 8 * 1024 * 1024;
/// The feed nests five levels deep; a deeper document is not one.
const MAX_DEPTH: usize = 32;
/// Text fields (names, form descriptions, items) are cut to this many bytes.
const MAX_FIELD_BYTES: usize = 1024;

/// Why EDGAR's answer could not be read as a company's filing feed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FeedParseError {
    #[error("EDGAR answered with an empty document instead of a filing feed")]
    Empty,
    #[error("EDGAR answered with a web page, not a filing feed: is the CIK right?")]
    NotAFeed,
    #[error("the filing feed declares a document type, which Needl refuses so that no entity is ever expanded")]
    EntityDeclaration,
    #[error("the filing feed is larger than Needl reads ({size} bytes, at most {max})")]
    TooLarge { size: usize, max: usize },
    #[error("the filing feed from EDGAR is broken: {0}")]
    Malformed(String),
}

/// A company's feed: who the company is, and its filings, newest first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CompanyFeed {
    pub company: Option<CompanyInfo>,
    pub filings: Vec<FilingEntry>,
    /// Entries without an accession number, filing address, form or filing date: they cannot be
    /// fetched or told apart, so they are counted rather than guessed at.
    pub skipped: usize,
}

/// The `<company-info>` block of the feed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CompanyInfo {
    pub cik: u64,
    /// EDGAR's conformed name, as EDGAR writes it (often upper case; see `title::display_name`).
    pub name: String,
    /// `MMDD`, e.g. "0928": needed to name a 10-Q's fiscal quarter.
    pub fiscal_year_end: Option<String>,
    pub sic_description: Option<String>,
    /// The state (or country code) of the business address.
    pub state: Option<String>,
}

/// One filing of the feed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FilingEntry {
    /// `0000320193-24-000123`: the filing's identity on EDGAR.
    pub accession: String,
    /// "10-K", "8-K", "10-Q/A", ...
    pub form: String,
    pub filing_date: NaiveDate,
    /// When EDGAR accepted the filing (the entry's `<updated>`), which orders filings of one day.
    pub accepted: Option<DateTime<Utc>>,
    /// The filing's index page (`…-index.htm`), which lists its documents.
    pub index_url: Url,
    /// "Annual report [Section 13 and 15(d), not S-K Item 405]".
    pub form_name: Option<String>,
    /// An 8-K's items, "items 2.02 and 9.01".
    pub items: Option<String>,
    pub file_number: Option<String>,
}

/// Reads a company's Atom feed. `base` is the address the feed came from; relative filing
/// addresses resolve against it.
pub fn parse_company_feed(bytes: &[u8], base: &Url) -> Result<CompanyFeed, FeedParseError> {
    if bytes.len() > MAX_FEED_BYTES {
        return Err(FeedParseError::TooLarge { size: bytes.len(), max: MAX_FEED_BYTES });
    }
    let decoded = decode(bytes);
    let text = decoded.trim_start_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
    if text.trim().is_empty() {
        return Err(FeedParseError::Empty);
    }
    let prolog = scan_prolog(text);
    let root = prolog.root.as_deref();
    if prolog.html_doctype || root.is_some_and(|r| r.eq_ignore_ascii_case("html")) {
        return Err(FeedParseError::NotAFeed);
    }
    if prolog.doctype {
        return Err(FeedParseError::EntityDeclaration);
    }
    match root {
        Some("feed") => {}
        _ if looks_like_html(text) => return Err(FeedParseError::NotAFeed),
        Some(other) => {
            return Err(FeedParseError::Malformed(format!("its root element is <{}>, not <feed>", cap_name(other))))
        }
        None => return Err(FeedParseError::Malformed("it has no root element".into())),
    }
    read_feed(text, base)
}

#[derive(Default)]
struct CompanyDraft {
    cik: Option<String>,
    name: Option<String>,
    fiscal_year_end: Option<String>,
    sic_description: Option<String>,
    state: Option<String>,
}

#[derive(Default)]
struct EntryDraft {
    accession: Option<String>,
    id: Option<String>,
    filing_type: Option<String>,
    category: Option<String>,
    filing_date: Option<String>,
    updated: Option<String>,
    href: Option<String>,
    link: Option<String>,
    form_name: Option<String>,
    items: Option<String>,
    file_number: Option<String>,
}

fn read_feed(text: &str, base: &Url) -> Result<CompanyFeed, FeedParseError> {
    let broken = |reader: &quick_xml::Reader<&[u8]>, what: &dyn std::fmt::Display| {
        let at = usize::try_from(reader.error_position()).unwrap_or(usize::MAX).min(text.len());
        let line = text.as_bytes()[..at].iter().filter(|b| **b == b'\n').count() + 1;
        FeedParseError::Malformed(format!("{what} (line {line})"))
    };
    let mut reader = quick_xml::Reader::from_str(text);
    let mut path: Vec<String> = Vec::new();
    let mut value = String::new();
    let mut company = CompanyDraft::default();
    let mut entry: Option<EntryDraft> = None;
    let mut filings = Vec::new();
    let mut skipped = 0usize;
    loop {
        let event = match reader.read_event() {
            Ok(event) => event,
            Err(e) => return Err(broken(&reader, &e)),
        };
        match event {
            Event::DocType(_) => return Err(FeedParseError::EntityDeclaration),
            Event::Start(tag) => {
                if path.len() >= MAX_DEPTH {
                    return Err(broken(&reader, &"its elements are nested too deeply"));
                }
                value.clear();
                let name = tag.local_name().as_ref().to_owned();
                if name == "entry" && path.len() == 1 {
                    if filings.len() + skipped >= MAX_ENTRIES {
                        break;
                    }
                    entry = Some(EntryDraft::default());
                }
                if let Some(e) = entry.as_mut() {
                    entry_attributes(e, &name, &tag);
                }
                path.push(name);
            }
            Event::Empty(tag) => {
                if let Some(e) = entry.as_mut() {
                    entry_attributes(e, tag.local_name().as_ref(), &tag);
                }
            }
            Event::Text(t) => push_capped(&mut value, &t.xml10_content()),
            Event::CData(t) => push_capped(&mut value, &t.xml10_content()),
            Event::GeneralRef(r) => push_capped(&mut value, &reference_text(&r)),
            Event::End(tag) => {
                path.pop();
                let text = cap(value.trim().to_owned(), MAX_FIELD_BYTES);
                value.clear();
                let name = tag.local_name();
                let name = name.as_ref();
                let parent = path.last().map(String::as_str).unwrap_or("");
                if name == "entry" && path.len() == 1 {
                    if let Some(draft) = entry.take() {
                        match finish_entry(draft, base) {
                            Some(filing) => filings.push(filing),
                            None => skipped += 1,
                        }
                    }
                } else if let Some(e) = entry.as_mut() {
                    entry_field(e, name, parent, text);
                } else if parent == "company-info" {
                    company_field(&mut company, name, text);
                }
            }
            Event::Eof => {
                if let Some(open) = path.last() {
                    let what = format!("it ends inside <{}>, as if cut short", cap_name(open));
                    return Err(broken(&reader, &what));
                }
                break;
            }
            _ => {}
        }
    }
    Ok(CompanyFeed { company: finish_company(company), filings, skipped })
}

fn entry_attributes(e: &mut EntryDraft, name: &str, tag: &BytesStart) {
    match name {
        "category" if e.category.is_none() => e.category = attribute(tag, "term").filter(|t| !t.trim().is_empty()),
        "link" if e.link.is_none() => {
            let rel = attribute(tag, "rel");
            if rel.as_deref().is_none_or(|r| r == "alternate") {
                e.link = attribute(tag, "href");
            }
        }
        _ => {}
    }
}

fn entry_field(e: &mut EntryDraft, name: &str, parent: &str, text: String) {
    let text = Some(text).filter(|t| !t.is_empty());
    match name {
        // Older feeds spell the element "accession-nunber".
        "accession-number" | "accession-nunber" => e.accession = text,
        "filing-type" => e.filing_type = text,
        "filing-date" => e.filing_date = text,
        "filing-href" => e.href = text,
        "form-name" => e.form_name = text,
        "items-desc" => e.items = text,
        "file-number" => e.file_number = text,
        "updated" if parent == "entry" => e.updated = text,
        "id" if parent == "entry" => e.id = text,
        _ => {}
    }
}

fn company_field(c: &mut CompanyDraft, name: &str, text: String) {
    let text = Some(text).filter(|t| !t.is_empty());
    match name {
        "cik" => c.cik = text,
        "conformed-name" => c.name = text,
        "fiscal-year-end" => c.fiscal_year_end = text,
        "assigned-sic-desc" => c.sic_description = text,
        "state-location" => c.state = text,
        _ => {}
    }
}

fn finish_company(c: CompanyDraft) -> Option<CompanyInfo> {
    let cik = parse_cik(c.cik.as_deref()?)?;
    let fiscal_year_end = c.fiscal_year_end.filter(|f| f.len() == 4 && f.bytes().all(|b| b.is_ascii_digit()));
    Some(CompanyInfo {
        cik,
        name: c.name.unwrap_or_default(),
        fiscal_year_end,
        sic_description: c.sic_description,
        state: c.state,
    })
}

/// Turns an entry into a filing, or `None` when it lacks what identifies and locates one.
fn finish_entry(e: EntryDraft, base: &Url) -> Option<FilingEntry> {
    let accession = e.accession.as_deref().and_then(normalise_accession).or_else(|| {
        let id = e.id.as_deref()?;
        normalise_accession(&id[id.find("accession-number=")? + "accession-number=".len()..])
    })?;
    let index_url = e.href.as_deref().and_then(|h| resolve(h, base)).or_else(|| resolve(e.link.as_deref()?, base))?;
    let form = e.filing_type.or(e.category).map(|f| f.trim().to_owned()).filter(|f| !f.is_empty())?;
    let accepted =
        e.updated.as_deref().and_then(|u| DateTime::parse_from_rfc3339(u.trim()).ok()).map(|d| d.with_timezone(&Utc));
    let filing_date = e
        .filing_date
        .as_deref()
        .and_then(|d| NaiveDate::parse_from_str(d.trim(), "%Y-%m-%d").ok())
        .or_else(|| e.updated.as_deref().and_then(|u| NaiveDate::parse_from_str(u.get(..10)?, "%Y-%m-%d").ok()))?;
    Some(FilingEntry {
        accession,
        form,
        filing_date,
        accepted,
        index_url,
        form_name: e.form_name,
        items: e.items,
        file_number: e.file_number,
    })
}

/// Resolves an address from the feed, keeping only web addresses.
fn resolve(href: &str, base: &Url) -> Option<Url> {
    let url = base.join(href.trim()).ok()?;
    matches!(url.scheme(), "http" | "https").then_some(url)
}

/// A CIK as EDGAR writes it (zero-padded to ten digits, or not).
pub(super) fn parse_cik(text: &str) -> Option<u64> {
    let text = text.trim();
    if text.is_empty() || text.len() > 10 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok().filter(|cik| *cik > 0)
}

/// Whether `text` has the shape of an accession number, `0000320193-24-000123`.
pub(super) fn is_accession(text: &str) -> bool {
    let b = text.as_bytes();
    b.len() == 20 && b.iter().enumerate().all(|(i, c)| if i == 10 || i == 13 { *c == b'-' } else { c.is_ascii_digit() })
}

/// An accession number with its dashes, from either spelling EDGAR uses (with dashes, or the
/// 18 bare digits of archive paths).
pub(super) fn normalise_accession(text: &str) -> Option<String> {
    let text = text.trim();
    if is_accession(text) {
        return Some(text.to_owned());
    }
    (text.len() == 18 && text.bytes().all(|b| b.is_ascii_digit()))
        .then(|| format!("{}-{}-{}", &text[..10], &text[10..12], &text[12..]))
}

// ---- Shared helpers for the EDGAR parsers ----

/// The text an entity reference in XML text stands for. Character references and the five XML
/// entities are resolved, the common HTML ones that EDGAR documents use are too, and any other
/// is kept as written: nothing is ever looked up in a document type.
pub(super) fn reference_text(reference: &BytesRef) -> Cow<'static, str> {
    if let Ok(Some(c)) = reference.resolve_char_ref() {
        return Cow::Owned(c.to_string());
    }
    match named_entity(reference) {
        Some(text) => Cow::Borrowed(text),
        None => Cow::Owned(format!("&{};", &**reference)),
    }
}

fn named_entity(name: &str) -> Option<&'static str> {
    Some(match name {
        "amp" => "&",
        "lt" => "<",
        "gt" => ">",
        "quot" => "\"",
        "apos" => "'",
        "nbsp" => "\u{a0}",
        "ndash" => "\u{2013}",
        "mdash" => "\u{2014}",
        "rsquo" => "\u{2019}",
        "lsquo" => "\u{2018}",
        "rdquo" => "\u{201d}",
        "ldquo" => "\u{201c}",
        "sect" => "\u{a7}",
        "reg" => "\u{ae}",
        "copy" => "\u{a9}",
        "trade" => "\u{2122}",
        _ => return None,
    })
}

/// An attribute's value by local name, entity references resolved as in [`reference_text`].
/// Attributes are read leniently (HTML-style, duplicates allowed): a malformed one is skipped.
pub(super) fn attribute(tag: &BytesStart, local: &str) -> Option<String> {
    let mut attributes = tag.html_attributes();
    attributes.with_checks(false);
    attributes.flatten().find(|a| a.key.local_name().as_ref() == local).map(|a| unescape(&a.value))
}

/// Resolves entity references in raw attribute text, keeping unknown ones as written.
fn unescape(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut rest = raw;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        let after = &rest[amp + 1..];
        let end = after.find(';').filter(|e| *e <= 32);
        let resolved = end.and_then(|end| {
            let name = &after[..end];
            let c = if let Some(hex) = name.strip_prefix("#x").or_else(|| name.strip_prefix("#X")) {
                u32::from_str_radix(hex, 16).ok().and_then(char::from_u32).map(String::from)
            } else if let Some(dec) = name.strip_prefix('#') {
                dec.parse::<u32>().ok().and_then(char::from_u32).map(String::from)
            } else {
                named_entity(name).map(str::to_owned)
            };
            c.map(|c| (c, end))
        });
        match resolved {
            Some((c, end)) => {
                out.push_str(&c);
                rest = &after[end + 1..];
            }
            None => {
                out.push('&');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// Appends text to a field being read, ignoring what goes past twice the field cap (the field
/// is cut to the cap at its end anyway).
fn push_capped(value: &mut String, text: &str) {
    if value.len() < 2 * MAX_FIELD_BYTES {
        value.push_str(text);
    }
}

/// An element name as it may appear in a message: short and printable.
fn cap_name(name: &str) -> String {
    name.chars().filter(|c| !c.is_control()).take(40).collect()
}

/// Whether the start of a document reads as an HTML page.
pub(super) fn looks_like_html(text: &str) -> bool {
    let mut end = text.len().min(4096);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let head = text[..end].to_ascii_lowercase();
    head.contains("<html") || head.contains("<!doctype html") || head.contains("<body") || head.contains("<head>")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn base() -> Url {
        Url::parse("https://www.sec.gov/cgi-bin/browse-edgar?action=getcompany&CIK=0000320193&output=atom").unwrap()
    }

    const APPLE: &[u8] = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/edgar/atom-320193.xml"));
    const UNKNOWN: &[u8] =
        include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/edgar/atom-unknown-cik.html"));
    const MALFORMED: &[u8] =
        include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/edgar/atom-malformed.xml"));

    #[test]
    fn a_company_feed_yields_the_company_and_its_filings_newest_first() {
        let feed = parse_company_feed(APPLE, &base()).unwrap();
        let company = feed.company.as_ref().unwrap();
        assert_eq!(company.cik, 320193);
        assert_eq!(company.name, "Apple Inc.");
        assert_eq!(company.fiscal_year_end.as_deref(), Some("0928"));
        assert_eq!(company.sic_description.as_deref(), Some("ELECTRONIC COMPUTERS"));
        assert_eq!(company.state.as_deref(), Some("CA"));
        let forms: Vec<&str> = feed.filings.iter().map(|f| f.form.as_str()).collect();
        assert_eq!(forms, ["10-K", "8-K", "10-Q", "10-Q"]);
        assert_eq!(feed.skipped, 1, "the entry without an accession number");
    }

    #[test]
    fn a_filing_entry_carries_its_accession_dates_and_index_page() {
        let feed = parse_company_feed(APPLE, &base()).unwrap();
        let annual = &feed.filings[0];
        assert_eq!(annual.accession, "0000320193-24-000123");
        assert_eq!(annual.filing_date, NaiveDate::from_ymd_opt(2024, 11, 1).unwrap());
        assert_eq!(annual.accepted.unwrap().to_rfc3339(), "2024-11-01T10:01:36+00:00");
        assert_eq!(
            annual.index_url.as_str(),
            "https://www.sec.gov/Archives/edgar/data/320193/000032019324000123/0000320193-24-000123-index.htm"
        );
        assert_eq!(annual.form_name.as_deref(), Some("Annual report [Section 13 and 15(d), not S-K Item 405]"));
        assert_eq!(annual.file_number.as_deref(), Some("001-36743"));
        assert_eq!(annual.items, None);
        assert_eq!(feed.filings[1].items.as_deref(), Some("items 2.02 and 9.01"));
    }

    #[test]
    fn a_relative_filing_address_resolves_against_the_feed_and_the_category_gives_a_missing_form() {
        let feed = parse_company_feed(APPLE, &base()).unwrap();
        let quarterly = &feed.filings[3];
        assert_eq!(quarterly.form, "10-Q", "from the category term");
        assert_eq!(quarterly.index_url.host_str(), Some("www.sec.gov"));
        assert!(quarterly.index_url.path().ends_with("0000320193-24-000069-index.htm"));
    }

    #[test]
    fn the_html_answer_for_an_unknown_cik_is_not_a_feed() {
        assert_eq!(parse_company_feed(UNKNOWN, &base()), Err(FeedParseError::NotAFeed));
        assert!(FeedParseError::NotAFeed.to_string().contains("is the CIK right?"));
    }

    #[test]
    fn malformed_xml_is_an_error_that_names_what_broke() {
        match parse_company_feed(MALFORMED, &base()) {
            Err(FeedParseError::Malformed(why)) => assert!(why.contains("line"), "{why}"),
            other => panic!("expected a malformed feed, got {other:?}"),
        }
        let cut = &APPLE[..APPLE.len() / 2];
        match parse_company_feed(cut, &base()) {
            Err(FeedParseError::Malformed(why)) => assert!(why.contains("cut short") || why.contains("line"), "{why}"),
            other => panic!("expected a malformed feed, got {other:?}"),
        }
    }

    #[test]
    fn a_document_type_is_refused_before_parsing() {
        let xml = br#"<?xml version="1.0"?><!DOCTYPE feed [<!ENTITY boom "boom">]><feed><title>&boom;</title></feed>"#;
        assert_eq!(parse_company_feed(xml, &base()), Err(FeedParseError::EntityDeclaration));
    }

    #[test]
    fn iso_8859_1_bytes_are_decoded_as_declared() {
        let mut xml = b"<?xml version=\"1.0\" encoding=\"ISO-8859-1\" ?><feed xmlns=\"http://www.w3.org/2005/Atom\"><company-info><cik>0001234567</cik><conformed-name>Soci".to_vec();
        xml.push(0xE9);
        xml.extend_from_slice(b"t\x92s Anonymes SA</conformed-name></company-info></feed>");
        let feed = parse_company_feed(&xml, &base()).unwrap();
        assert_eq!(feed.company.unwrap().name, "Soci\u{e9}t\u{2019}s Anonymes SA");
        assert!(feed.filings.is_empty());
    }

    #[test]
    fn entries_past_the_cap_are_not_read() {
        let mut xml = String::from("<feed>");
        for i in 0..150 {
            xml.push_str(&format!(
                "<entry><content><accession-number>0000000001-24-{i:06}</accession-number><filing-date>2024-01-02</filing-date><filing-href>/x/{i}-index.htm</filing-href><filing-type>4</filing-type></content></entry>"
            ));
        }
        xml.push_str("</feed>");
        let feed = parse_company_feed(xml.as_bytes(), &base()).unwrap();
        assert_eq!(feed.filings.len(), MAX_ENTRIES);
    }

    #[test]
    fn bad_accession_numbers_are_skipped_and_bare_digits_are_dashed() {
        let xml = b"<feed><entry><content><accession-number>12-34</accession-number><filing-date>2024-01-02</filing-date><filing-href>/a-index.htm</filing-href><filing-type>4</filing-type></content></entry>\
<entry><content><accession-number>000032019324000123</accession-number><filing-date>2024-01-02</filing-date><filing-href>/b-index.htm</filing-href><filing-type>4</filing-type></content></entry></feed>";
        let feed = parse_company_feed(xml, &base()).unwrap();
        assert_eq!(feed.skipped, 1);
        assert_eq!(feed.filings[0].accession, "0000320193-24-000123");
    }

    #[test]
    fn odd_input_gives_errors_not_panics() {
        for input in
            [&b""[..], b"   ", b"<", b"<feed", b"\xff\xfe<\x00", b"<feed><entry></feed>", b"<rss/>", b"plain text"]
        {
            let _ = parse_company_feed(input, &base());
        }
        for end in (0..APPLE.len()).step_by(37) {
            let _ = parse_company_feed(&APPLE[..end], &base());
        }
        assert_eq!(parse_company_feed(b"  ", &base()), Err(FeedParseError::Empty));
        assert!(matches!(parse_company_feed(b"<rss/>", &base()), Err(FeedParseError::Malformed(_))));
    }

    #[test]
    fn attribute_text_resolves_known_entities_and_keeps_unknown_ones() {
        assert_eq!(unescape("a&amp;b&#233;&#x41;&nbsp;&bogus;&"), "a&b\u{e9}A\u{a0}&bogus;&");
    }

    #[test]
    fn accession_numbers_have_one_shape() {
        assert!(is_accession("0000320193-24-000123"));
        assert!(!is_accession("0000320193-24-00012"));
        assert!(!is_accession("000032019324000123"));
        assert_eq!(normalise_accession(" 0000320193-24-000123 ").as_deref(), Some("0000320193-24-000123"));
        assert_eq!(normalise_accession("x"), None);
    }
}
