//! NSE (National Stock Exchange of India) corporate announcements: the JSON array behind the
//! exchange's announcements page (`/api/corporate-announcements`), which some deployments wrap
//! as `{"data": [...]}`.
//!
//! Rows carry their PDF as an absolute address (`attchmntFile`). Times are India time without
//! an offset, given several ways; the first that reads wins. NSE answers an HTML page (a block
//! or a cookie check) rather than JSON to clients it does not trust: that is
//! [`ExchangeError::HtmlInsteadOfJson`].

use chrono::{NaiveDate, NaiveDateTime};
use serde_json::{Map, Value};

use super::{
    clean, clean_summary, field, india_time, listing_text, naive_time, parse_json, web_url, Announcement, Exchange,
    ExchangeError, Gathered, ListingContext, MAX_CATEGORY_BYTES, MAX_ID_BYTES, MAX_NAME_BYTES, MAX_SYMBOL_BYTES,
    MAX_TITLE_BYTES,
};

const NAME: &str = "NSE";

/// NSE's announcements listing.
#[derive(Debug, Clone, Copy, Default)]
pub struct Nse;

impl Exchange for Nse {
    fn key(&self) -> &'static str {
        "nse"
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
        let rows = match &value {
            Value::Array(rows) => rows,
            Value::Object(o) => match o.get("data") {
                Some(Value::Array(rows)) => rows,
                _ => return Err(changed("is neither a list of announcements nor an object with a 'data' list".into())),
            },
            _ => return Err(changed("is neither a list of announcements nor an object with a 'data' list".into())),
        };
        let attachment_base = cx.attachment_base.unwrap_or(cx.base);
        let mut gathered = Gathered::new(NAME);
        for row in rows {
            if let Some(a) = row.as_object().and_then(|r| announcement(r, attachment_base)) {
                gathered.push(a);
            }
        }
        if !rows.is_empty() && gathered.kept.is_empty() {
            return Err(changed(format!(
                "has {} rows, none with a seq_id (or a symbol and a dt) and a subject (desc or attchmntText)",
                rows.len()
            )));
        }
        Ok(gathered.finish())
    }
}

/// Reads one row; none when it has no id or nothing to call it by.
fn announcement(row: &Map<String, Value>, attachment_base: &url::Url) -> Option<Announcement> {
    let symbol = field(row, "symbol").and_then(|s| clean(&s, MAX_SYMBOL_BYTES));
    let dt = field(row, "dt");
    let id = field(row, "seq_id")
        .or_else(|| Some(format!("{}-{}", symbol.as_deref()?, dt.as_deref()?)))
        .and_then(|id| clean(&id, MAX_ID_BYTES))?;
    let desc = field(row, "desc");
    let text = field(row, "attchmntText");
    let title = desc
        .as_deref()
        .and_then(|d| clean(d, MAX_TITLE_BYTES))
        .or_else(|| text.as_deref().and_then(|t| clean(t, 200)))?;
    let company =
        field(row, "sm_name").or_else(|| symbol.clone()).and_then(|c| clean(&c, MAX_NAME_BYTES)).unwrap_or_default();
    let published = published(row, dt.as_deref());
    let attachment = field(row, "attchmntFile").and_then(|f| web_url(&f, Some(attachment_base)));
    Some(Announcement {
        id,
        company,
        symbol,
        title,
        category: desc.as_deref().and_then(|d| clean(d, MAX_CATEGORY_BYTES)),
        published,
        attachment,
        link: None,
        summary: text.as_deref().and_then(clean_summary),
    })
}

/// Returns the announcement's time: `sort_date`, else `an_dt`, else the compact `dt`, else the
/// dissemination time, in India time.
fn published(row: &Map<String, Value>, dt: Option<&str>) -> Option<chrono::DateTime<chrono::Utc>> {
    const FORMATS: &[&str] = &["%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M:%S%.f", "%d-%b-%Y %H:%M:%S", "%d-%b-%Y %H:%M"];
    let text_time = |name: &str| field(row, name).and_then(|t| naive_time(&t, FORMATS));
    text_time("sort_date")
        .or_else(|| text_time("an_dt"))
        .or_else(|| dt.and_then(compact_time))
        .or_else(|| text_time("exchdisstime"))
        .and_then(india_time)
}

/// Reads NSE's compact `ddmmyyyyHHMMSS` time (parsed by hand: a format string's `%Y` would
/// take every digit that follows).
fn compact_time(dt: &str) -> Option<NaiveDateTime> {
    let dt = dt.trim();
    if dt.len() != 14 || !dt.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n = |range: std::ops::Range<usize>| dt[range].parse::<u32>().ok();
    let year = i32::try_from(n(4..8)?).ok()?;
    NaiveDate::from_ymd_opt(year, n(2..4)?, n(0..2)?)?.and_hms_opt(n(8..10)?, n(10..12)?, n(12..14)?)
}

#[cfg(test)]
mod tests {
    use chrono::{TimeZone, Utc};
    use url::Url;

    use super::*;

    const LISTING: &[u8] = include_bytes!("../../tests/fixtures/exchanges/nse_listing.json");
    const CHANGED: &[u8] = include_bytes!("../../tests/fixtures/exchanges/nse_changed.html");

    fn base() -> Url {
        Url::parse("https://www.nseindia.com/api/corporate-announcements?index=equities").unwrap()
    }

    fn parse(body: &[u8]) -> Result<Vec<Announcement>, ExchangeError> {
        Nse.parse_listing(body, &ListingContext::new(&base()))
    }

    #[test]
    fn the_listing_gives_its_announcements_in_order() {
        let list = parse(LISTING).unwrap();
        assert_eq!(list.len(), 12, "{:#?}", list.iter().map(|a| &a.id).collect::<Vec<_>>());
        let first = &list[0];
        assert_eq!(first.id, "107543210");
        assert_eq!(first.company, "Reliance Industries Limited");
        assert_eq!(first.symbol.as_deref(), Some("RELIANCE"));
        assert_eq!(first.title, "Investor Presentation");
        assert_eq!(first.category.as_deref(), Some("Investor Presentation"));
        assert_eq!(first.published, Some(Utc.with_ymd_and_hms(2024, 11, 25, 13, 32, 11).unwrap()));
        assert_eq!(
            first.attachment.as_ref().unwrap().as_str(),
            "https://nsearchives.nseindia.com/corporate/RELIANCE_25112024190211_Presentation.pdf"
        );
        assert_eq!(
            first.summary.as_deref(),
            Some("Reliance Industries Limited has informed the Exchange about Investor Presentation")
        );
    }

    #[test]
    fn missing_fields_fall_back_in_order() {
        let list = parse(LISTING).unwrap();
        let by_id = |id: &str| list.iter().find(|a| a.id == id).unwrap_or_else(|| panic!("{id}"));
        // No seq_id: the symbol and the compact time stand in, and the compact time is read.
        let tcs = by_id("TCS-25112024184503");
        assert_eq!(tcs.published, Some(Utc.with_ymd_and_hms(2024, 11, 25, 13, 15, 3).unwrap()));
        // No sort_date: an_dt is read; no attachment ("-"); no company name: the symbol.
        let infy = by_id("107543212");
        assert_eq!(infy.published, Some(Utc.with_ymd_and_hms(2024, 11, 25, 13, 0, 0).unwrap()));
        assert_eq!(infy.attachment, None);
        assert_eq!(infy.company, "INFY");
        // No desc: titled by the start of its text, and no category.
        let hdfc = by_id("107543213");
        assert_eq!(hdfc.title, "HDFC Bank Limited has informed the Exchange about Schedule of Analyst Meet");
        assert_eq!(hdfc.category, None);
        // A relative attachment resolves against the listing; no time anywhere.
        let itc = by_id("107543214");
        assert_eq!(
            itc.attachment.as_ref().unwrap().as_str(),
            "https://www.nseindia.com/corporate/ITC_Annual_Report.pdf"
        );
        assert_eq!(itc.published, None);
        // A numeric seq_id; a non-web attachment address is dropped.
        let lt = by_id("107543215");
        assert_eq!(lt.attachment, None);
    }

    #[test]
    fn a_data_wrapper_is_accepted() {
        let wrapped = format!(r#"{{"data": {}}}"#, String::from_utf8_lossy(LISTING));
        assert_eq!(parse(wrapped.as_bytes()).unwrap(), parse(LISTING).unwrap());
        assert_eq!(parse(br#"{"data": []}"#).unwrap(), vec![]);
        assert_eq!(parse(b"[]").unwrap(), vec![]);
    }

    #[test]
    fn an_html_answer_says_the_exchange_refused_json() {
        let err = parse(CHANGED).unwrap_err();
        assert_eq!(err, ExchangeError::HtmlInsteadOfJson { exchange: "NSE" });
        assert!(err.to_string().contains("refusing automated requests"), "{err}");
    }

    #[test]
    fn other_shapes_are_named() {
        let err = parse(br#"{"msg": "no data"}"#).unwrap_err();
        assert!(err.to_string().contains("neither a list of announcements nor an object with a 'data' list"), "{err}");
        let err = parse(b"42").unwrap_err();
        assert!(matches!(err, ExchangeError::ChangedShape { exchange: "NSE", .. }));
        let err = parse(br#"[{"sym": "X", "subject": "y"}]"#).unwrap_err();
        assert!(err.to_string().contains("has 1 rows, none with a seq_id"), "{err}");
    }

    #[test]
    fn the_compact_time_is_read_by_hand() {
        assert_eq!(
            compact_time("25112024190211"),
            NaiveDate::from_ymd_opt(2024, 11, 25).unwrap().and_hms_opt(19, 2, 11)
        );
        assert_eq!(compact_time("32112024190211"), None);
        assert_eq!(compact_time("2511202419021"), None);
        assert_eq!(compact_time("25112024l90211"), None);
        assert_eq!(compact_time("٢٥١١٢٠٢٤١٩٠٢"), None, "non-ASCII digits never slice inside a character");
    }

    #[test]
    fn garbage_empty_and_truncated_answers_are_errors_not_panics() {
        assert_eq!(parse(b"").unwrap_err(), ExchangeError::Empty);
        let err = parse(&LISTING[..LISTING.len() - 40]).unwrap_err();
        assert!(err.to_string().contains("cut off"), "{err}");
        assert!(matches!(parse(b"\xff\xfe\x00garbage").unwrap_err(), ExchangeError::Unreadable { .. }));
        for n in (0..LISTING.len()).step_by(89) {
            let _ = parse(&LISTING[..n]);
        }
        let rows: Vec<String> =
            (0..700).map(|n| format!(r#"{{"seq_id":"{n}","desc":"d","symbol":"S","attchmntText":"t"}}"#)).collect();
        let list = parse(format!("[{}]", rows.join(",")).as_bytes()).unwrap();
        assert_eq!(list.len(), super::super::MAX_ANNOUNCEMENTS);
    }
}
