//! NZX (New Zealand's exchange) market announcements: an HTML listing page, one table row per
//! announcement, and one page per announcement that links its PDFs.
//!
//! The page's markup is not an API, so the reading leans on what is least likely to change: a
//! row is whatever holds a link to `/announcements/{number}` (the number is the id); its cells
//! are found by their `data-title` ("Code", "Company", "Title", "Type", "Date") when they have
//! one, and the code also by its link to the security. Times are New Zealand wall-clock times.

use chrono::{DateTime, NaiveDateTime, Utc};
use dom_query::{Document, NodeRef};
use url::Url;

use super::{
    clean, listing_text, naive_time, new_zealand_time, web_url, Announcement, Exchange, ExchangeError, Gathered,
    ListingContext, MAX_CATEGORY_BYTES, MAX_NAME_BYTES, MAX_PAGE_ATTACHMENTS, MAX_SYMBOL_BYTES, MAX_TITLE_BYTES,
};

const NAME: &str = "NZX";

/// Most links read from one page, so a page of a million links costs a bounded walk.
const MAX_LINKS: usize = 20_000;

/// How far up from an announcement link its row may be.
const MAX_ROW_DEPTH: usize = 6;

/// NZX's announcements listing.
#[derive(Debug, Clone, Copy, Default)]
pub struct Nzx;

impl Exchange for Nzx {
    fn key(&self) -> &'static str {
        "nzx"
    }

    fn name(&self) -> &'static str {
        NAME
    }

    fn country(&self) -> &'static str {
        "NZ"
    }

    fn parse_listing(&self, body: &[u8], cx: &ListingContext<'_>) -> Result<Vec<Announcement>, ExchangeError> {
        let text = listing_text(body, NAME)?;
        let head = text.trim_start();
        if head.starts_with('{') || head.starts_with('[') {
            return Err(ExchangeError::ChangedShape {
                exchange: NAME,
                detail: "answered JSON rather than its HTML page".into(),
            });
        }
        if !head.contains('<') {
            return Err(ExchangeError::Unreadable { exchange: NAME, detail: "it is not an HTML page".into() });
        }
        let doc = Document::from(text.as_ref());
        let mut gathered = Gathered::new(NAME);
        for link in doc.select("a[href]").nodes().iter().take(MAX_LINKS) {
            let Some((id, url)) = link.attr("href").and_then(|h| announcement_link(&h, cx.base)) else {
                continue;
            };
            if gathered.seen.contains(&id) {
                continue;
            }
            gathered.push(announcement(link, id, url, cx.base));
        }
        if gathered.kept.is_empty() {
            return Err(ExchangeError::ChangedShape {
                exchange: NAME,
                detail: "has no rows linking to an announcement (/announcements/{number})".into(),
            });
        }
        Ok(gathered.finish())
    }

    fn attachments_on_page(&self, body: &[u8], base: &Url) -> Vec<Url> {
        let Ok(text) = listing_text(body, NAME) else {
            return Vec::new();
        };
        let doc = Document::from(text.as_ref());
        let mut found: Vec<Url> = Vec::new();
        for link in doc.select("a[href]").nodes().iter().take(MAX_LINKS) {
            let Some(mut url) = link.attr("href").and_then(|h| web_url(&h, Some(base))) else {
                continue;
            };
            if !url.path().to_ascii_lowercase().ends_with(".pdf") {
                continue;
            }
            url.set_fragment(None);
            if !found.contains(&url) {
                found.push(url);
                if found.len() == MAX_PAGE_ATTACHMENTS {
                    break;
                }
            }
        }
        found
    }
}

/// Returns the id and address of an announcement link: a path `/announcements/{digits}`,
/// optionally followed by more segments (a slug).
fn announcement_link(href: &str, base: &Url) -> Option<(String, Url)> {
    let mut url = web_url(href, Some(base))?;
    let mut segments = url.path_segments()?;
    if segments.next()? != "announcements" {
        return None;
    }
    let id = segments.next()?;
    if id.is_empty() || id.len() > 20 || !id.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let id = id.to_owned();
    url.set_fragment(None);
    Some((id, url))
}

/// Reads the row around an announcement link.
fn announcement(link: &NodeRef<'_>, id: String, url: Url, base: &Url) -> Announcement {
    let row = link
        .ancestors_it(Some(MAX_ROW_DEPTH))
        .find(|n| n.has_name("tr") || n.has_name("li") || n.has_name("article"))
        .or_else(|| link.parent())
        .unwrap_or(*link);
    let cells: Vec<NodeRef<'_>> =
        row.descendants_it().filter(|n| n.is_element() && n.has_attr("data-title")).take(64).collect();
    let cell = |names: &[&str]| {
        cells
            .iter()
            .find(|c| c.attr("data-title").is_some_and(|t| names.iter().any(|n| t.trim().eq_ignore_ascii_case(n))))
            .and_then(|c| clean(&c.text(), MAX_TITLE_BYTES))
    };
    let row_links: Vec<NodeRef<'_>> = row.descendants_it().filter(|n| n.has_name("a")).take(64).collect();
    let symbol = row_links
        .iter()
        .find_map(|a| a.attr("href").and_then(|h| security_code(&h, base)))
        .or_else(|| cell(&["code", "ticker", "security"]))
        .and_then(|s| clean(&s, MAX_SYMBOL_BYTES));
    let company = cell(&["company", "issuer", "name"])
        .or_else(|| symbol.clone())
        .and_then(|c| clean(&c, MAX_NAME_BYTES))
        .unwrap_or_default();
    let title = clean(&link.text(), MAX_TITLE_BYTES)
        .or_else(|| cell(&["title", "announcement", "headline"]))
        .unwrap_or_else(|| format!("NZX announcement {id}"));
    let category = cell(&["type", "category"]).and_then(|c| clean(&c, MAX_CATEGORY_BYTES));
    let published = row
        .descendants_it()
        .filter(|n| n.has_name("time"))
        .find_map(|t| t.attr("datetime").and_then(|d| machine_time(&d)))
        .or_else(|| cell(&["date", "published", "time", "released"]).and_then(|d| listing_time(&d)));
    let attachment = row_links
        .iter()
        .filter_map(|a| a.attr("href").and_then(|h| web_url(&h, Some(base))))
        .find(|u| u.path().to_ascii_lowercase().ends_with(".pdf"));
    Announcement { id, company, symbol, title, category, published, attachment, link: Some(url), summary: None }
}

/// Returns the code of a link to a security's page (`/markets/NZSX/securities/AIR`,
/// `/instruments/AIR`).
fn security_code(href: &str, base: &Url) -> Option<String> {
    let url = web_url(href, Some(base))?;
    let segments: Vec<&str> = url.path_segments()?.filter(|s| !s.is_empty()).collect();
    let at = segments.iter().position(|s| *s == "securities" || *s == "instruments")?;
    let code = segments.get(at + 1)?;
    (code.len() <= 12 && code.bytes().all(|b| b.is_ascii_alphanumeric())).then(|| code.to_ascii_uppercase())
}

/// Reads a `<time datetime>` value: with an offset it is exact; without, New Zealand time.
fn machine_time(text: &str) -> Option<DateTime<Utc>> {
    if let Ok(t) = DateTime::parse_from_rfc3339(text.trim()) {
        return Some(t.with_timezone(&Utc));
    }
    naive_time(text, &["%Y-%m-%dT%H:%M:%S%.f", "%Y-%m-%d %H:%M:%S%.f", "%Y-%m-%dT%H:%M"]).and_then(new_zealand_time)
}

/// Reads the time a listing shows ("26/11/2024, 8:30 am", "26 Nov 2024 08:30", a date alone
/// as midnight) as New Zealand time.
fn listing_time(text: &str) -> Option<DateTime<Utc>> {
    // One form for every spelling: no commas, single spaces, "8:30am" and "8:30 a.m." as "8:30 AM".
    let upper = text.to_ascii_uppercase().replace("A.M.", "AM").replace("P.M.", "PM").replace(',', " ");
    let mut spaced = String::with_capacity(upper.len() + 2);
    let mut previous = ' ';
    for c in upper.chars() {
        if (c == 'A' || c == 'P') && previous.is_ascii_digit() {
            spaced.push(' ');
        }
        spaced.push(c);
        previous = c;
    }
    let t = spaced.split_whitespace().collect::<Vec<_>>().join(" ");
    const DATES: &[&str] = &["%d/%m/%Y", "%d %b %Y", "%d %B %Y", "%Y-%m-%d"];
    const TIMES: &[&str] = &["%I:%M %p", "%I:%M:%S %p", "%H:%M", "%H:%M:%S"];
    let with_time = DATES.iter().flat_map(|d| TIMES.iter().map(move |tm| format!("{d} {tm}")));
    with_time
        .into_iter()
        .find_map(|f| NaiveDateTime::parse_from_str(&t, &f).ok())
        .or_else(|| {
            DATES
                .iter()
                .find_map(|d| chrono::NaiveDate::parse_from_str(&t, d).ok())
                .and_then(|d| d.and_hms_opt(0, 0, 0))
        })
        .and_then(new_zealand_time)
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;

    use super::*;

    const LISTING: &[u8] = include_bytes!("../../tests/fixtures/exchanges/nzx_listing.html");
    const CHANGED: &[u8] = include_bytes!("../../tests/fixtures/exchanges/nzx_changed.html");
    const PAGE: &[u8] = include_bytes!("../../tests/fixtures/exchanges/nzx_announcement.html");

    fn base() -> Url {
        Url::parse("https://www.nzx.com/markets/NZSX/announcements").unwrap()
    }

    fn parse(body: &[u8]) -> Result<Vec<Announcement>, ExchangeError> {
        Nzx.parse_listing(body, &ListingContext::new(&base()))
    }

    fn utc(y: i32, m: u32, d: u32, h: u32, min: u32) -> Option<DateTime<Utc>> {
        Some(Utc.with_ymd_and_hms(y, m, d, h, min, 0).unwrap())
    }

    #[test]
    fn the_listing_gives_its_announcements_in_order() {
        let list = parse(LISTING).unwrap();
        assert_eq!(list.len(), 12, "{:#?}", list.iter().map(|a| &a.id).collect::<Vec<_>>());
        let first = &list[0];
        assert_eq!(first.id, "441234");
        assert_eq!(first.company, "Air New Zealand Limited");
        assert_eq!(first.symbol.as_deref(), Some("AIR"));
        assert_eq!(first.title, "Monthly Operating Update - October 2024");
        assert_eq!(first.category.as_deref(), Some("GENERAL"));
        assert_eq!(first.published, utc(2024, 11, 25, 19, 30), "08:30 NZDT");
        assert_eq!(first.link.as_ref().unwrap().as_str(), "https://www.nzx.com/announcements/441234");
        assert_eq!(first.attachment, None);
    }

    #[test]
    fn rows_missing_cells_still_read() {
        let list = parse(LISTING).unwrap();
        let by_id = |id: &str| list.iter().find(|a| a.id == id).unwrap_or_else(|| panic!("{id}"));
        // No company cell: the code stands in.
        let fph = by_id("441235");
        assert_eq!(fph.company, "FPH");
        // No code cell and no security link.
        let mel = by_id("441236");
        assert_eq!(mel.symbol, None);
        assert_eq!(mel.company, "Meridian Energy Limited");
        // No type, no date; an absolute announcement link with a slug; extra whitespace.
        let spk = by_id("441237");
        assert_eq!(spk.category, None);
        assert_eq!(spk.published, None);
        assert_eq!(spk.title, "Half Year Results Presentation");
        // A winter time (NZST), and a <time datetime> that wins over the shown text.
        assert_eq!(by_id("441238").published, utc(2024, 7, 15, 2, 5), "14:05 NZST");
        assert_eq!(by_id("441239").published, utc(2024, 11, 24, 21, 0));
        // An empty link text: the Title cell; a PDF linked from the row itself.
        let ifm = by_id("441240");
        assert_eq!(ifm.title, "Notice of Annual Meeting");
        assert_eq!(ifm.attachment.as_ref().unwrap().as_str(), "https://announcements.nzx.com/abc/441240-Notice.pdf");
        // A list item rather than a table row.
        assert_eq!(by_id("441245").title, "Substantial Product Holder Notice");
    }

    #[test]
    fn links_that_are_not_announcements_are_ignored() {
        let list = parse(LISTING).unwrap();
        assert!(list.iter().all(|a| a.id.bytes().all(|b| b.is_ascii_digit())));
        assert!(!list.iter().any(|a| a.id == "2024"), "/announcements/archive/2024 is no announcement");
        let ids: std::collections::HashSet<&str> = list.iter().map(|a| a.id.as_str()).collect();
        assert_eq!(ids.len(), list.len(), "a repeated link is read once");
    }

    #[test]
    fn a_page_without_announcement_rows_has_changed_shape() {
        let err = parse(CHANGED).unwrap_err();
        assert!(matches!(err, ExchangeError::ChangedShape { exchange: "NZX", .. }), "{err:?}");
        assert_eq!(
            err.to_string(),
            "the NZX listing has no rows linking to an announcement (/announcements/{number}): the exchange may \
             have changed its page"
        );
        let err = parse(br#"{"announcements": []}"#).unwrap_err();
        assert!(err.to_string().contains("answered JSON"), "{err}");
    }

    #[test]
    fn garbage_empty_and_truncated_pages_are_errors_not_panics() {
        assert_eq!(parse(b"").unwrap_err(), ExchangeError::Empty);
        assert!(matches!(parse(b"just words").unwrap_err(), ExchangeError::Unreadable { .. }));
        assert!(matches!(parse(b"\x80\x81<<<>>>\x00").unwrap_err(), ExchangeError::ChangedShape { .. }));
        assert!(parse(b"\xff\xfe<<<>>>\x00").is_err(), "a UTF-16 mark on bytes that are not UTF-16");
        for n in (0..LISTING.len()).step_by(131) {
            let _ = parse(&LISTING[..n]);
        }
        let cut = &LISTING[..LISTING.len() * 2 / 3];
        assert!(!parse(cut).unwrap().is_empty(), "a cut-off page still gives its first rows");
        let deep = format!("{}<a href=\"/announcements/1\">Deep</a>", "<div>".repeat(5_000));
        assert_eq!(parse(deep.as_bytes()).unwrap()[0].id, "1");
        let many: String =
            (0..600).map(|n| format!("<tr><td><a href=\"/announcements/{n}\">A {n}</a></td></tr>")).collect();
        assert_eq!(parse(format!("<table>{many}</table>").as_bytes()).unwrap().len(), super::super::MAX_ANNOUNCEMENTS);
    }

    #[test]
    fn an_announcement_page_gives_its_pdfs() {
        let page = Url::parse("https://www.nzx.com/announcements/441234").unwrap();
        let pdfs: Vec<String> = Nzx.attachments_on_page(PAGE, &page).iter().map(Url::to_string).collect();
        assert_eq!(
            pdfs,
            [
                "https://announcements.nzx.com/8d1f2e3a-4b5c-6d7e-8f90-a1b2c3d4e5f6/441234-Monthly-Operating-Update.pdf",
                "https://announcements.nzx.com/8d1f2e3a-4b5c-6d7e-8f90-a1b2c3d4e5f6/441234-Appendix.PDF",
                "https://www.nzx.com/files/attachments/441234-relative.pdf",
            ]
        );
        let many: String = (0..30).map(|n| format!("<a href=\"/f/{n}.pdf\">{n}</a>")).collect();
        assert_eq!(Nzx.attachments_on_page(many.as_bytes(), &page).len(), MAX_PAGE_ATTACHMENTS);
        assert!(Nzx.attachments_on_page(b"", &page).is_empty());
        assert!(Nzx.attachments_on_page(b"\x00\xff garbage", &page).is_empty());
    }

    #[test]
    fn listing_times_read_in_every_spelling() {
        assert_eq!(listing_time("26/11/2024, 8:30 am"), utc(2024, 11, 25, 19, 30));
        assert_eq!(listing_time("26/11/2024, 8:30 PM"), utc(2024, 11, 26, 7, 30));
        assert_eq!(listing_time("26/11/2024 8:30pm"), utc(2024, 11, 26, 7, 30));
        assert_eq!(listing_time("26/11/2024, 12:05 a.m."), utc(2024, 11, 25, 11, 5));
        assert_eq!(listing_time("26 Nov 2024, 20:30"), utc(2024, 11, 26, 7, 30));
        assert_eq!(listing_time("26 November 2024"), utc(2024, 11, 25, 11, 0));
        assert_eq!(listing_time("31/02/2024, 8:30 am"), None);
        assert_eq!(listing_time("yesterday"), None);
        assert_eq!(machine_time("2024-11-26T08:30:00+13:00"), utc(2024, 11, 25, 19, 30));
        assert_eq!(machine_time("2024-11-26T08:30:00"), utc(2024, 11, 25, 19, 30));
    }

    #[test]
    fn only_announcement_and_security_paths_count() {
        let b = base();
        assert_eq!(announcement_link("/announcements/441234", &b).unwrap().0, "441234");
        assert_eq!(announcement_link("/announcements/441234/some-slug#top", &b).unwrap().1.fragment(), None);
        assert_eq!(announcement_link("/announcements/archive", &b), None);
        assert_eq!(announcement_link("/markets/announcements/1", &b), None);
        assert_eq!(announcement_link("javascript:void(0)", &b), None);
        assert_eq!(announcement_link(&format!("/announcements/{}", "9".repeat(30)), &b), None);
        assert_eq!(security_code("/markets/NZSX/securities/air", &b).as_deref(), Some("AIR"));
        assert_eq!(security_code("/instruments/FPH", &b).as_deref(), Some("FPH"));
        assert_eq!(security_code("/markets/NZSX/securities/", &b), None);
    }
}
