//! Exchange announcement listings that are not feeds: BSE's and NSE's JSON APIs and NZX's HTML
//! listing page, each read by one [`Exchange`] into [`Announcement`]s.
//!
//! Parsing only: the caller fetches the listing (through [`crate::fetch`]), hands the bytes to
//! [`Exchange::parse_listing`], and, for exchanges whose listing names no attachment (NZX),
//! fetches each announcement's page and asks [`Exchange::attachments_on_page`] for its PDFs.
//! The exchanges change their pages without notice, so a listing that no longer looks as
//! expected gives [`ExchangeError::ChangedShape`] with what is missing, never an empty success;
//! no input panics, and counts and text sizes are capped.

use std::borrow::Cow;
use std::collections::HashSet;

use chrono::{DateTime, Duration, LocalResult, NaiveDateTime, TimeZone, Utc};
use serde::{Deserialize, Serialize};
use url::Url;

use crate::feeds::{cap, decode};

pub mod bse;
pub mod nse;
pub mod nzx;

/// Announcements kept from one listing; the rest are dropped (listings come newest first).
pub const MAX_ANNOUNCEMENTS: usize = 500;
/// PDFs kept from one announcement page.
pub const MAX_PAGE_ATTACHMENTS: usize = 10;
/// Listings larger than this are refused rather than parsed (the fetcher caps bodies lower).
pub const MAX_LISTING_BYTES: usize = 16 * 1024 * 1024;

const MAX_ID_BYTES: usize = 256;
const MAX_NAME_BYTES: usize = 512;
const MAX_SYMBOL_BYTES: usize = 64;
const MAX_TITLE_BYTES: usize = 1024;
const MAX_CATEGORY_BYTES: usize = 256;
const MAX_SUMMARY_BYTES: usize = 16 * 1024;
const MAX_URL_BYTES: usize = 2048;

/// One announcement as an exchange's listing gives it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Announcement {
    /// The exchange's own id for the announcement: the deduplication key.
    pub id: String,
    /// The company's name as the exchange writes it; empty when the listing does not say.
    pub company: String,
    /// BSE scrip code ("500325"), NSE symbol ("RELIANCE") or NZX code ("AIR").
    pub symbol: Option<String>,
    pub title: String,
    /// BSE "category / subcategory", NSE `desc`, NZX type; what [`in_categories`] matches.
    pub category: Option<String>,
    pub published: Option<DateTime<Utc>>,
    /// The PDF, when the listing names it.
    pub attachment: Option<Url>,
    /// A page about this announcement alone (never a company page shared by many announcements,
    /// which would make a link-based deduplication merge them).
    pub link: Option<Url>,
    pub summary: Option<String>,
}

/// Where a listing came from, to resolve the addresses it gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ListingContext<'a> {
    /// The listing's address.
    pub base: &'a Url,
    /// Where attachment file names resolve, when the exchange gives bare names (BSE); `None`
    /// takes the exchange's usual place.
    pub attachment_base: Option<&'a Url>,
}

impl<'a> ListingContext<'a> {
    /// Returns the context of a listing fetched from `base`, attachments in their usual place.
    pub fn new(base: &'a Url) -> Self {
        Self { base, attachment_base: None }
    }
}

/// One exchange's announcement listing format.
pub trait Exchange: Send + Sync {
    /// The catalogue's connector key: "bse", "nse", "nzx".
    fn key(&self) -> &'static str;
    /// The name people know it by: "BSE", "NSE", "NZX".
    fn name(&self) -> &'static str;
    /// ISO 3166 country code: "IN", "NZ".
    fn country(&self) -> &'static str;
    /// Reads a listing's bytes, newest first as the exchange orders them, deduplicated by id and
    /// capped at [`MAX_ANNOUNCEMENTS`].
    fn parse_listing(&self, body: &[u8], cx: &ListingContext<'_>) -> Result<Vec<Announcement>, ExchangeError>;
    /// The PDFs an announcement's own page links to, for exchanges whose listing gives no
    /// attachment (NZX); empty by default.
    fn attachments_on_page(&self, _body: &[u8], _base: &Url) -> Vec<Url> {
        Vec::new()
    }
}

/// Why a listing could not be read, worded for the operator who follows the source.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExchangeError {
    #[error("the listing is empty: the exchange answered with no content")]
    Empty,
    #[error(
        "the {exchange} listing answered an HTML page instead of JSON: the exchange may be refusing \
         automated requests (a block or a cookie check) or have moved its API"
    )]
    HtmlInsteadOfJson { exchange: &'static str },
    #[error("the {exchange} listing could not be read: {detail}")]
    Unreadable { exchange: &'static str, detail: String },
    #[error("the {exchange} listing {detail}: the exchange may have changed its page")]
    ChangedShape { exchange: &'static str, detail: String },
}

/// The connector keys, in the order [`exchange`] knows them.
const KEYS: &[&str] = &["bse", "nse", "nzx"];

/// Returns the exchange whose connector key is `key`.
pub fn exchange(key: &str) -> Option<&'static dyn Exchange> {
    match key {
        "bse" => Some(&bse::Bse),
        "nse" => Some(&nse::Nse),
        "nzx" => Some(&nzx::Nzx),
        _ => None,
    }
}

/// Returns the connector keys [`exchange`] knows.
pub fn keys() -> &'static [&'static str] {
    KEYS
}

/// Whether an announcement is in one of `wanted` categories (case-insensitive substring on
/// category and title); true when `wanted` is empty or holds only blanks.
pub fn in_categories(a: &Announcement, wanted: &[String]) -> bool {
    let mut wanted = wanted.iter().map(|w| w.trim().to_lowercase()).filter(|w| !w.is_empty()).peekable();
    if wanted.peek().is_none() {
        return true;
    }
    let category = a.category.as_deref().unwrap_or_default().to_lowercase();
    let title = a.title.to_lowercase();
    wanted.any(|w| category.contains(&w) || title.contains(&w))
}

/// Returns the decoded text of a listing, refusing empty and oversized bodies.
fn listing_text<'b>(body: &'b [u8], exchange: &'static str) -> Result<Cow<'b, str>, ExchangeError> {
    if body.len() > MAX_LISTING_BYTES {
        return Err(ExchangeError::Unreadable {
            exchange,
            detail: format!("it is larger than {} MiB", MAX_LISTING_BYTES / (1024 * 1024)),
        });
    }
    let text = decode(body);
    if text.trim().is_empty() {
        return Err(ExchangeError::Empty);
    }
    Ok(text)
}

/// Parses a JSON listing, telling an HTML answer and a cut-off body apart from other garbage.
fn parse_json(text: &str, exchange: &'static str) -> Result<serde_json::Value, ExchangeError> {
    let trimmed = text.trim_start();
    if trimmed.starts_with('<') {
        return Err(ExchangeError::HtmlInsteadOfJson { exchange });
    }
    serde_json::from_str(trimmed).map_err(|e| {
        let detail = if e.is_eof() {
            format!("the JSON ends early ({e}): the answer may have been cut off")
        } else {
            format!("it is not valid JSON ({e})")
        };
        ExchangeError::Unreadable { exchange, detail }
    })
}

/// Returns a JSON row's field as text: strings trimmed, numbers and booleans written out, null,
/// blanks and "-" (the exchanges' placeholder) as none. A field missing under its exact name is
/// looked up ignoring ASCII case.
fn field(row: &serde_json::Map<String, serde_json::Value>, name: &str) -> Option<String> {
    use serde_json::Value;
    let value = row.get(name).or_else(|| row.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v))?;
    let text = match value {
        Value::String(s) => s.trim().to_owned(),
        Value::Number(n) => n.to_string(),
        Value::Bool(b) => b.to_string(),
        _ => return None,
    };
    (!text.is_empty() && text != "-" && !text.eq_ignore_ascii_case("null")).then_some(text)
}

/// Returns `text` on one line (whitespace collapsed, control characters dropped) and capped at
/// `max` bytes; none when nothing is left.
fn clean(text: &str, max: usize) -> Option<String> {
    let one_line: String = text
        .split(|c: char| c.is_whitespace() || c.is_control())
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    let capped = cap(one_line, max);
    let trimmed = capped.trim_end();
    (!trimmed.is_empty()).then(|| trimmed.to_owned())
}

/// Returns a summary's plain text: tags dropped when it holds markup, paragraphs kept apart.
fn clean_summary(text: &str) -> Option<String> {
    let plain =
        if text.contains('<') || text.contains('&') { crate::feeds::html_to_text(text) } else { text.to_owned() };
    let paragraphs: Vec<String> = plain.lines().filter_map(|l| clean(l, MAX_SUMMARY_BYTES)).collect();
    let joined = cap(paragraphs.join("\n"), MAX_SUMMARY_BYTES);
    (!joined.is_empty()).then_some(joined)
}

/// Resolves an address a listing gives: absolute, or relative to `base`; http and https only,
/// and at most [`MAX_URL_BYTES`] long.
fn web_url(raw: &str, base: Option<&Url>) -> Option<Url> {
    let raw = raw.trim();
    if raw.is_empty() || raw.len() > MAX_URL_BYTES {
        return None;
    }
    let url = match Url::parse(raw) {
        Ok(url) => url,
        Err(url::ParseError::RelativeUrlWithoutBase) => base?.join(raw).ok()?,
        Err(_) => return None,
    };
    (matches!(url.scheme(), "http" | "https") && url.host_str().is_some()).then_some(url)
}

/// Returns UTC for a time in India (IST, UTC+05:30 all year).
fn india_time(local: NaiveDateTime) -> Option<DateTime<Utc>> {
    local.checked_sub_signed(Duration::minutes(5 * 60 + 30)).map(|t| t.and_utc())
}

/// Returns UTC for a New Zealand wall-clock time, by the time-zone database (Pacific/Auckland).
/// A time in the repeated hour when clocks go back is taken as the earlier (daylight) one, a time
/// in the hour skipped when they go forward as standard time (NZST, UTC+12).
fn new_zealand_time(local: NaiveDateTime) -> Option<DateTime<Utc>> {
    match chrono_tz::Pacific::Auckland.from_local_datetime(&local) {
        LocalResult::Single(t) | LocalResult::Ambiguous(t, _) => Some(t.with_timezone(&Utc)),
        LocalResult::None => local.checked_sub_signed(Duration::hours(12)).map(|t| t.and_utc()),
    }
}

/// Parses a wall-clock time in any of `formats`.
fn naive_time(text: &str, formats: &[&str]) -> Option<NaiveDateTime> {
    let text = text.trim();
    formats.iter().find_map(|f| NaiveDateTime::parse_from_str(text, f).ok())
}

/// Gathers a listing's announcements: the first of each id kept, at most
/// [`MAX_ANNOUNCEMENTS`], with a count of what was dropped for the log.
struct Gathered {
    exchange: &'static str,
    seen: HashSet<String>,
    kept: Vec<Announcement>,
    over_cap: usize,
}

impl Gathered {
    fn new(exchange: &'static str) -> Self {
        Self { exchange, seen: HashSet::new(), kept: Vec::new(), over_cap: 0 }
    }

    fn push(&mut self, a: Announcement) {
        if self.seen.contains(&a.id) {
            return;
        }
        if self.kept.len() >= MAX_ANNOUNCEMENTS {
            self.over_cap += 1;
            return;
        }
        self.seen.insert(a.id.clone());
        self.kept.push(a);
    }

    fn finish(self) -> Vec<Announcement> {
        if self.over_cap > 0 {
            tracing::warn!(exchange = self.exchange, dropped = self.over_cap, "listing over the announcement cap");
        }
        self.kept
    }
}

#[cfg(test)]
mod tests {
    use chrono::NaiveDate;

    use super::*;

    fn at(y: i32, m: u32, d: u32, h: u32, min: u32) -> NaiveDateTime {
        NaiveDate::from_ymd_opt(y, m, d).unwrap().and_hms_opt(h, min, 0).unwrap()
    }

    fn announcement(title: &str, category: Option<&str>) -> Announcement {
        Announcement {
            id: "1".into(),
            company: "Reliance Industries Ltd".into(),
            symbol: None,
            title: title.into(),
            category: category.map(Into::into),
            published: None,
            attachment: None,
            link: None,
            summary: None,
        }
    }

    #[test]
    fn every_key_names_its_exchange() {
        for key in keys() {
            let exchange = exchange(key).unwrap();
            assert_eq!(exchange.key(), *key);
            assert!(!exchange.name().is_empty() && exchange.country().len() == 2);
        }
        assert!(exchange("lse").is_none());
        assert!(exchange("BSE").is_none(), "keys are lowercase");
        assert_eq!(exchange("nzx").unwrap().country(), "NZ");
    }

    #[test]
    fn india_time_is_five_and_a_half_hours_ahead_all_year() {
        assert_eq!(india_time(at(2024, 11, 25, 19, 2)), Some(at(2024, 11, 25, 13, 32).and_utc()));
        assert_eq!(india_time(at(2024, 1, 1, 3, 0)), Some(at(2023, 12, 31, 21, 30).and_utc()));
        assert_eq!(india_time(at(2024, 7, 1, 12, 0)), Some(at(2024, 7, 1, 6, 30).and_utc()));
    }

    #[test]
    fn new_zealand_time_follows_the_daylight_saving_rule() {
        // Summer and winter.
        assert_eq!(new_zealand_time(at(2024, 11, 26, 8, 30)), Some(at(2024, 11, 25, 19, 30).and_utc()));
        assert_eq!(new_zealand_time(at(2024, 7, 15, 12, 0)), Some(at(2024, 7, 15, 0, 0).and_utc()));
        // 2024: daylight time ended Sunday 7 April at 03:00 and began Sunday 29 September.
        assert_eq!(new_zealand_time(at(2024, 4, 7, 1, 59)), Some(at(2024, 4, 6, 12, 59).and_utc()));
        assert_eq!(new_zealand_time(at(2024, 4, 7, 2, 30)), Some(at(2024, 4, 6, 13, 30).and_utc()), "earlier of two");
        assert_eq!(new_zealand_time(at(2024, 4, 7, 3, 0)), Some(at(2024, 4, 6, 15, 0).and_utc()));
        assert_eq!(new_zealand_time(at(2024, 9, 29, 1, 59)), Some(at(2024, 9, 28, 13, 59).and_utc()));
        assert_eq!(new_zealand_time(at(2024, 9, 29, 3, 0)), Some(at(2024, 9, 28, 14, 0).and_utc()));
        assert_eq!(new_zealand_time(at(2024, 9, 28, 12, 0)), Some(at(2024, 9, 28, 0, 0).and_utc()));
        // 2025: ends 6 April, begins 28 September.
        assert_eq!(new_zealand_time(at(2025, 4, 6, 9, 0)), Some(at(2025, 4, 5, 21, 0).and_utc()));
        assert_eq!(new_zealand_time(at(2025, 4, 5, 9, 0)), Some(at(2025, 4, 4, 20, 0).and_utc()));
        assert_eq!(new_zealand_time(at(2025, 9, 28, 9, 0)), Some(at(2025, 9, 27, 20, 0).and_utc()));
        assert_eq!(new_zealand_time(at(2025, 9, 27, 9, 0)), Some(at(2025, 9, 26, 21, 0).and_utc()));
        // New Year is summer.
        assert_eq!(new_zealand_time(at(2025, 1, 1, 0, 0)), Some(at(2024, 12, 31, 11, 0).and_utc()));
    }

    #[test]
    fn categories_match_by_substring_of_category_or_title_ignoring_case() {
        let a = announcement("Investor Presentation for Q2", Some("Company Update / Investor Presentation"));
        assert!(in_categories(&a, &[]));
        assert!(in_categories(&a, &["  ".into()]), "blanks want everything");
        assert!(in_categories(&a, &["investor presentation".into()]));
        assert!(in_categories(&a, &["Annual Report".into(), "Q2".into()]), "the title counts too");
        assert!(!in_categories(&a, &["Annual Report".into()]));
        let b = announcement("Disclosure", None);
        assert!(!in_categories(&b, &["SAST".into()]));
    }

    #[test]
    fn json_fields_read_strings_numbers_and_placeholders() {
        let row: serde_json::Map<String, serde_json::Value> = serde_json::from_str(
            r#"{"a": " x ", "b": 500325, "c": null, "d": "", "e": "-", "f": [1], "Mixed": "m", "g": true}"#,
        )
        .unwrap();
        assert_eq!(field(&row, "a").as_deref(), Some("x"));
        assert_eq!(field(&row, "b").as_deref(), Some("500325"));
        assert_eq!(field(&row, "c"), None);
        assert_eq!(field(&row, "d"), None);
        assert_eq!(field(&row, "e"), None);
        assert_eq!(field(&row, "f"), None);
        assert_eq!(field(&row, "MIXED").as_deref(), Some("m"));
        assert_eq!(field(&row, "g").as_deref(), Some("true"));
        assert_eq!(field(&row, "missing"), None);
    }

    #[test]
    fn text_is_put_on_one_line_and_capped() {
        assert_eq!(clean("  a\n\tb\u{0}c  ", 100).as_deref(), Some("a b c"));
        assert_eq!(clean(" \n ", 100), None);
        assert_eq!(clean("éé", 3).as_deref(), Some("é"));
        assert_eq!(clean_summary("<p>One</p><p>Two &amp; three</p>").as_deref(), Some("One\nTwo & three"));
    }

    #[test]
    fn only_web_addresses_resolve() {
        let base = Url::parse("https://www.nzx.com/markets/NZSX/announcements").unwrap();
        assert_eq!(web_url("/announcements/1", Some(&base)).unwrap().as_str(), "https://www.nzx.com/announcements/1");
        assert_eq!(web_url("https://x.example/a.pdf", None).unwrap().as_str(), "https://x.example/a.pdf");
        assert_eq!(web_url("javascript:alert(1)", Some(&base)), None);
        assert_eq!(web_url("file:///etc/passwd", Some(&base)), None);
        assert_eq!(web_url("/relative", None), None);
        assert_eq!(web_url(&format!("https://x.example/{}", "a".repeat(3000)), None), None);
    }

    #[test]
    fn listing_bytes_decode_whatever_their_encoding() {
        assert_eq!(decode(b"\xEF\xBB\xBF{}"), "{}");
        assert_eq!(decode(b"caf\xE9"), "café");
        assert_eq!(decode("café".as_bytes()), "café");
        assert!(matches!(listing_text(b"  \n", "BSE"), Err(ExchangeError::Empty)));
    }

    #[test]
    fn the_gatherer_keeps_the_first_of_each_id_up_to_the_cap() {
        let mut g = Gathered::new("BSE");
        for n in 0..(MAX_ANNOUNCEMENTS + 20) {
            let mut a = announcement("t", None);
            a.id = (n % (MAX_ANNOUNCEMENTS + 10)).to_string();
            g.push(a);
        }
        let kept = g.finish();
        assert_eq!(kept.len(), MAX_ANNOUNCEMENTS);
        assert_eq!(kept.iter().map(|a| &a.id).collect::<HashSet<_>>().len(), MAX_ANNOUNCEMENTS);
    }

    #[test]
    fn errors_say_what_to_do() {
        let e = ExchangeError::ChangedShape { exchange: "BSE", detail: "no longer has its 'Table' list".into() };
        assert_eq!(
            e.to_string(),
            "the BSE listing no longer has its 'Table' list: the exchange may have changed its page"
        );
        let e = ExchangeError::HtmlInsteadOfJson { exchange: "NSE" };
        assert!(e.to_string().starts_with("the NSE listing answered an HTML page instead of JSON"));
    }
}
