//! BSE (Bombay Stock Exchange) corporate announcements: the JSON behind the exchange's own
//! announcements page (`AnnSubCategoryGetData`), a `Table` of rows and a `Table1` row count.
//!
//! Rows name their PDF by bare file name (`ATTACHMENTNAME`), which resolves against the
//! listing context's attachment base or [`DEFAULT_ATTACHMENT_BASE`]. Times are India time
//! without an offset. Fields may be missing, null, or numbers written as strings.

use serde_json::{Map, Value};
use url::Url;

use super::{
    clean, clean_summary, field, india_time, listing_text, naive_time, parse_json, web_url, Announcement, Exchange,
    ExchangeError, Gathered, ListingContext, MAX_CATEGORY_BYTES, MAX_ID_BYTES, MAX_NAME_BYTES, MAX_SYMBOL_BYTES,
    MAX_TITLE_BYTES,
};

const NAME: &str = "BSE";

/// Where BSE keeps the PDFs its current announcements name.
pub const DEFAULT_ATTACHMENT_BASE: &str = "https://www.bseindia.com/xml-data/corpfiling/AttachLive/";

/// The listing's time fields, most telling first.
const TIME_FIELDS: &[&str] = &["NEWS_DT", "DT_TM", "DissemDT", "News_submission_dt"];

const TIME_FORMATS: &[&str] =
    &["%Y-%m-%dT%H:%M:%S%.f", "%Y-%m-%d %H:%M:%S%.f", "%Y-%m-%dT%H:%M", "%d/%m/%Y %H:%M:%S", "%d-%m-%Y %H:%M:%S"];

/// BSE's announcements listing.
#[derive(Debug, Clone, Copy, Default)]
pub struct Bse;

impl Exchange for Bse {
    fn key(&self) -> &'static str {
        "bse"
    }

    fn name(&self) -> &'static str {
        NAME
    }

    fn country(&self) -> &'static str {
        "IN"
    }

    fn parse_listing(&self, body: &[u8], cx: &ListingContext<'_>) -> Result<Vec<Announcement>, ExchangeError> {
        let text = listing_text(body, NAME)?;
        let value = parse_json(&text, NAME)?;
        let changed = |detail: String| ExchangeError::ChangedShape { exchange: NAME, detail };
        let Value::Object(listing) = value else {
            return Err(changed("is no longer a JSON object with a 'Table' list".into()));
        };
        let rows = match listing.get("Table") {
            Some(Value::Array(rows)) => rows,
            Some(_) => return Err(changed("has a 'Table' that is not a list".into())),
            None => return Err(changed("no longer has its 'Table' list".into())),
        };
        let attachment_base = cx.attachment_base.cloned().or_else(|| Url::parse(DEFAULT_ATTACHMENT_BASE).ok());
        let mut gathered = Gathered::new(NAME);
        for row in rows {
            if let Some(a) = row.as_object().and_then(|r| announcement(r, attachment_base.as_ref())) {
                gathered.push(a);
            }
        }
        if !rows.is_empty() && gathered.kept.is_empty() {
            return Err(changed(format!(
                "has {} rows in its 'Table', none with a NEWSID and a subject (NEWSSUB)",
                rows.len()
            )));
        }
        Ok(gathered.finish())
    }
}

/// Reads one row; none when it has no id or nothing to call it by.
fn announcement(row: &Map<String, Value>, attachment_base: Option<&Url>) -> Option<Announcement> {
    let attachment_name = field(row, "ATTACHMENTNAME");
    let id = clean(&field(row, "NEWSID").or_else(|| attachment_name.clone())?, MAX_ID_BYTES)?;
    let subject = field(row, "NEWSSUB");
    let category_name = field(row, "CATEGORYNAME");
    let subcategory = field(row, "SUBCATNAME");
    let headline = field(row, "HEADLINE");
    if subject.is_none() && subcategory.is_none() && headline.is_none() {
        return None;
    }
    let company = field(row, "SLONGNAME")
        .or_else(|| subject.as_deref().and_then(|s| s.split_once(" - ")).map(|(head, _)| head.to_owned()))
        .and_then(|c| clean(&c, MAX_NAME_BYTES))
        .unwrap_or_default();
    let title = subject
        .as_deref()
        .map(|s| title_of(s, &company))
        .or(subcategory.as_deref())
        .or(category_name.as_deref())
        .and_then(|t| clean(t, MAX_TITLE_BYTES))
        .or_else(|| headline.as_deref().and_then(|h| clean(h, 200)))
        .unwrap_or_else(|| format!("BSE announcement {id}"));
    let category = match (category_name, subcategory) {
        (Some(c), Some(s)) if c.eq_ignore_ascii_case(&s) => Some(c),
        (Some(c), Some(s)) => Some(format!("{c} / {s}")),
        (c, s) => c.or(s),
    }
    .and_then(|c| clean(&c, MAX_CATEGORY_BYTES));
    let published = TIME_FIELDS
        .iter()
        .filter_map(|f| field(row, f))
        .find_map(|t| naive_time(&t, TIME_FORMATS))
        .and_then(india_time);
    let attachment = attachment_name.as_deref().and_then(|name| attachment_url(name, attachment_base));
    let summary = headline.or_else(|| field(row, "MORE")).as_deref().and_then(clean_summary);
    Some(Announcement {
        id,
        company,
        symbol: field(row, "SCRIP_CD").filter(|s| s != "0").and_then(|s| clean(&s, MAX_SYMBOL_BYTES)),
        title,
        category,
        published,
        attachment,
        link: None,
        summary,
    })
}

/// Returns the announcement's own subject. BSE writes "Company - code - subject"; the company
/// and code are dropped when the subject starts with the company, and the rest is kept whole, so a
/// subject that itself holds " - " ("Analyst / Investor Meet - Intimation") stays readable.
fn title_of<'s>(subject: &'s str, company: &str) -> &'s str {
    let rest = match subject.get(..company.len()) {
        Some(head) if !company.is_empty() && head.eq_ignore_ascii_case(company) => &subject[company.len()..],
        _ => return subject,
    };
    let Some(rest) = rest.trim_start().strip_prefix('-') else {
        return subject;
    };
    let rest = rest.trim_start();
    let rest = match rest.split_once(" - ") {
        Some((code, tail)) if !code.is_empty() && code.chars().all(|c| c.is_ascii_digit()) => tail,
        _ => rest,
    };
    let rest = rest.trim();
    if rest.is_empty() {
        subject
    } else {
        rest
    }
}

/// Resolves an attachment name: an absolute web address as it is, a bare file name against
/// `base`; anything with a path in it is refused, so a name cannot climb out of the base.
fn attachment_url(name: &str, base: Option<&Url>) -> Option<Url> {
    let name = name.trim();
    if name.contains("://") {
        return web_url(name, None);
    }
    let bare = !name.is_empty()
        && !name.starts_with('.')
        && !name.contains(['/', '\\', '?', '#', ':'])
        && !name.chars().any(char::is_control);
    if !bare {
        return None;
    }
    web_url(name, Some(base?))
}

#[cfg(test)]
mod tests {
    use chrono::{TimeZone, Utc};

    use super::*;

    const LISTING: &[u8] = include_bytes!("../../tests/fixtures/exchanges/bse_listing.json");
    const CHANGED: &[u8] = include_bytes!("../../tests/fixtures/exchanges/bse_changed.json");

    fn base() -> Url {
        Url::parse("https://api.bseindia.com/BseIndiaAPI/api/AnnSubCategoryGetData/w?pageno=1&strCat=-1").unwrap()
    }

    fn parse(body: &[u8]) -> Result<Vec<Announcement>, ExchangeError> {
        Bse.parse_listing(body, &ListingContext::new(&base()))
    }

    #[test]
    fn the_listing_gives_its_announcements_in_order() {
        let list = parse(LISTING).unwrap();
        assert_eq!(list.len(), 12, "{:#?}", list.iter().map(|a| &a.id).collect::<Vec<_>>());
        let first = &list[0];
        assert_eq!(first.id, "f4b2a1c0-7d3e-4a51-9b8c-1e2f3a4b5c6d");
        assert_eq!(first.company, "Reliance Industries Ltd");
        assert_eq!(first.symbol.as_deref(), Some("500325"));
        assert_eq!(first.title, "Announcement under Regulation 30 (LODR)-Investor Presentation");
        assert_eq!(first.category.as_deref(), Some("Company Update / Investor Presentation"));
        assert_eq!(
            first.published,
            Some(Utc.with_ymd_and_hms(2024, 11, 25, 13, 32, 11).unwrap() + chrono::Duration::milliseconds(470))
        );
        assert_eq!(
            first.attachment.as_ref().unwrap().as_str(),
            "https://www.bseindia.com/xml-data/corpfiling/AttachLive/f1e2d3c4-b5a6-4978-8a9b-0c1d2e3f4a5b.pdf"
        );
        assert_eq!(first.link, None, "BSE's NSURL is the company's page, shared by all its announcements");
        assert!(first.summary.as_deref().unwrap().starts_with("Please find enclosed the investor presentation"));
    }

    #[test]
    fn missing_null_and_string_typed_fields_are_tolerated() {
        let list = parse(LISTING).unwrap();
        let by_id = |id: &str| list.iter().find(|a| a.id == id).unwrap_or_else(|| panic!("{id}"));
        // A scrip code written as a string, an empty attachment name, a null subcategory.
        let tcs = by_id("a7c9e1f2-0000-4000-8000-000000000002");
        assert_eq!(tcs.symbol.as_deref(), Some("532540"));
        assert_eq!(tcs.attachment, None);
        assert_eq!(tcs.category.as_deref(), Some("Board Meeting"));
        // No SLONGNAME: the company comes from the subject.
        let infosys = by_id("a7c9e1f2-0000-4000-8000-000000000003");
        assert_eq!(infosys.company, "Infosys Ltd");
        assert_eq!(infosys.title, "Analyst / Investor Meet - Intimation");
        // A subject that does not start with the company is kept whole; no time at all.
        let hdfc = by_id("a7c9e1f2-0000-4000-8000-000000000004");
        assert_eq!(hdfc.title, "Intimation of Analyst Meet - Schedule - Q2 FY25");
        assert_eq!(hdfc.published, None);
        // No NEWSSUB: titled by its subcategory; a time without fractions and with a space.
        let itc = by_id("a7c9e1f2-0000-4000-8000-000000000005");
        assert_eq!(itc.title, "Annual Report");
        assert_eq!(itc.published, Some(Utc.with_ymd_and_hms(2024, 11, 24, 4, 30, 0).unwrap()));
        // No NEWSID: the attachment name stands in.
        assert!(list.iter().any(|a| a.id == "b1b2b3b4-0000-4000-8000-00000000000c.pdf"));
        // A scrip code of 0 is no symbol; a path-like attachment name is refused.
        let odd = by_id("a7c9e1f2-0000-4000-8000-000000000007");
        assert_eq!(odd.symbol, None);
        assert_eq!(odd.attachment, None);
        // Markup in the headline is dropped.
        let sast = by_id("a7c9e1f2-0000-4000-8000-000000000008");
        assert_eq!(
            sast.summary.as_deref(),
            Some("Disclosure under Regulation 29(2)\nof SEBI (SAST) Regulations, 2011")
        );
        assert_eq!(sast.category.as_deref(), Some("Insider Trading / SAST"));
    }

    #[test]
    fn rows_without_an_id_or_a_subject_and_duplicates_are_skipped() {
        let list = parse(LISTING).unwrap();
        let ids: Vec<&str> = list.iter().map(|a| a.id.as_str()).collect();
        let unique: std::collections::HashSet<&&str> = ids.iter().collect();
        assert_eq!(unique.len(), ids.len());
        assert!(!ids.contains(&"a7c9e1f2-0000-4000-8000-0000000000ff"), "a row with nothing to call it by");
    }

    #[test]
    fn the_attachment_base_of_the_context_wins() {
        let elsewhere = Url::parse("https://mirror.example.org/bse/").unwrap();
        let base = base();
        let cx = ListingContext { base: &base, attachment_base: Some(&elsewhere) };
        let list = Bse.parse_listing(LISTING, &cx).unwrap();
        assert!(list[0].attachment.as_ref().unwrap().as_str().starts_with("https://mirror.example.org/bse/f1e2"));
    }

    #[test]
    fn subjects_lose_their_company_and_code_prefix_only() {
        assert_eq!(title_of("Reliance Industries Ltd - 500325 - Outcome", "Reliance Industries Ltd"), "Outcome");
        assert_eq!(title_of("RELIANCE INDUSTRIES LTD - 500325 - Outcome", "Reliance Industries Ltd"), "Outcome");
        assert_eq!(title_of("Outcome - of Board Meeting", "Reliance Industries Ltd"), "Outcome - of Board Meeting");
        assert_eq!(title_of("Reliance Industries Ltd - ", "Reliance Industries Ltd"), "Reliance Industries Ltd - ");
        assert_eq!(
            title_of("Infosys Ltd - 500209 - Analyst Meet - Intimation", "Infosys Ltd"),
            "Analyst Meet - Intimation"
        );
        assert_eq!(title_of("Infosys Ltd - Analyst Meet", "Infosys Ltd"), "Analyst Meet", "no code");
        assert_eq!(title_of("Infosys Ltdx - 1 - A", "Infosys Ltd"), "Infosys Ltdx - 1 - A", "another company");
        assert_eq!(title_of("Ré", "R\u{e9}x"), "Ré", "never slices inside a character");
        assert_eq!(title_of("Rxé - a", "Rx\u{e9}"), "a");
    }

    #[test]
    fn attachment_names_cannot_leave_their_folder() {
        let base = Url::parse(DEFAULT_ATTACHMENT_BASE).unwrap();
        let at = |n: &str| attachment_url(n, Some(&base)).map(|u| u.to_string());
        assert_eq!(at("a b.pdf").as_deref(), Some("https://www.bseindia.com/xml-data/corpfiling/AttachLive/a%20b.pdf"));
        assert_eq!(at("../secret.pdf"), None);
        assert_eq!(at("x/y.pdf"), None);
        assert_eq!(at("C:\\x.pdf"), None);
        assert_eq!(at(""), None);
        assert_eq!(at("https://www.bseindia.com/x.pdf").as_deref(), Some("https://www.bseindia.com/x.pdf"));
        assert_eq!(at("ftp://x/y.pdf"), None);
    }

    #[test]
    fn a_listing_without_its_table_has_changed_shape() {
        let err = parse(CHANGED).unwrap_err();
        assert_eq!(
            err,
            ExchangeError::ChangedShape { exchange: "BSE", detail: "no longer has its 'Table' list".into() }
        );
        assert_eq!(
            err.to_string(),
            "the BSE listing no longer has its 'Table' list: the exchange may have changed its page"
        );
        let err = parse(br#"{"Table": {"a": 1}}"#).unwrap_err();
        assert!(err.to_string().contains("'Table' that is not a list"), "{err}");
        let err = parse(br#"[1, 2]"#).unwrap_err();
        assert!(matches!(err, ExchangeError::ChangedShape { .. }), "{err}");
        let err = parse(br#"{"Table": [{"ID": 1, "SUBJECT": "x"}, {"ID": 2, "SUBJECT": "y"}]}"#).unwrap_err();
        assert!(err.to_string().contains("has 2 rows in its 'Table', none with a NEWSID"), "{err}");
    }

    #[test]
    fn an_empty_table_is_a_quiet_day() {
        assert_eq!(parse(br#"{"Table": [], "Table1": [{"ROWCNT": 0}]}"#).unwrap(), vec![]);
    }

    #[test]
    fn garbage_empty_truncated_and_html_answers_are_errors_not_panics() {
        assert_eq!(parse(b"").unwrap_err(), ExchangeError::Empty);
        assert_eq!(parse(b" \r\n").unwrap_err(), ExchangeError::Empty);
        assert_eq!(
            parse(b"<html><body>Access Denied</body></html>").unwrap_err(),
            ExchangeError::HtmlInsteadOfJson { exchange: "BSE" }
        );
        let cut = &LISTING[..LISTING.len() / 2];
        let err = parse(cut).unwrap_err();
        assert!(err.to_string().contains("cut off"), "{err}");
        let err = parse(b"\x00\xff\xfe garbage").unwrap_err();
        assert!(matches!(err, ExchangeError::Unreadable { exchange: "BSE", .. }), "{err}");
        let deep = "[".repeat(10_000);
        assert!(parse(deep.as_bytes()).is_err());
        for n in (0..LISTING.len()).step_by(97) {
            let _ = parse(&LISTING[..n]);
        }
    }

    #[test]
    fn a_huge_listing_is_capped() {
        let rows: Vec<String> = (0..600)
            .map(|n| format!(r#"{{"NEWSID":"id-{n}","NEWSSUB":"X Ltd - 1 - Subject {n}","SLONGNAME":"X Ltd"}}"#))
            .collect();
        let body = format!(r#"{{"Table":[{}]}}"#, rows.join(","));
        let list = parse(body.as_bytes()).unwrap();
        assert_eq!(list.len(), super::super::MAX_ANNOUNCEMENTS);
        assert_eq!(list[0].title, "Subject 0");
        let long = format!(
            r#"{{"Table":[{{"NEWSID":"1","NEWSSUB":"{}","HEADLINE":"{}"}}]}}"#,
            "t".repeat(5000),
            "h".repeat(100_000)
        );
        let list = parse(long.as_bytes()).unwrap();
        assert!(list[0].title.len() <= 1024 && list[0].summary.as_ref().unwrap().len() <= 16 * 1024);
    }
}
