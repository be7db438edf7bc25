//! Dates as documents print them, the document's own date, and the period a report covers.
//!
//! Only forms that say which date or period they mean are read: a labelled date, a dateline, a
//! date standing alone near the top; "Q1 FY25", "quarter ended 30 June 2024", "Annual Report
//! 2023-24". A date in running text may be any date, so it is left alone.

use regex::{Captures, Regex};
use std::fmt;
use std::sync::LazyLock;

/// A calendar date, checked (no 31 April), printed as `YYYY-MM-DD`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Date {
    year: i32,
    month: u32,
    day: u32,
}

impl Date {
    fn new(year: i32, month: u32, day: u32) -> Option<Date> {
        let valid =
            (1900..=2100).contains(&year) && (1..=12).contains(&month) && day >= 1 && day <= days_in_month(year, month);
        valid.then_some(Date { year, month, day })
    }

    /// Tells whether the date is the last day of a quarter (31 March, 30 June, ...), the only
    /// dates a "quarter ended" can name.
    fn ends_a_quarter(self) -> bool {
        self.month.is_multiple_of(3) && self.day == days_in_month(self.year, self.month)
    }
}

const MONTH_NAMES: [&str; 12] = [
    "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November",
    "December",
];

impl Date {
    /// Reads a date printed as `YYYY-MM-DD` (how the tags keep it).
    pub(super) fn parse_iso(text: &str) -> Option<Date> {
        let mut parts = text.splitn(3, '-');
        let year = parts.next()?.parse().ok()?;
        let month = parts.next()?.parse().ok()?;
        let day = parts.next()?.parse().ok()?;
        Date::new(year, month, day)
    }

    /// The date as a US filing prints it on its cover: "September 28, 2019".
    pub(super) fn long(self) -> String {
        format!("{} {}, {}", MONTH_NAMES[self.month as usize - 1], self.day, self.year)
    }

    pub(super) fn year(self) -> i32 {
        self.year
    }
}

impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

fn days_in_month(year: i32, month: u32) -> u32 {
    match month {
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// The year a report covers: a calendar year, or a fiscal year named by the calendar year it
/// ends in (FY2023-24, FY24 and "fiscal 2024" are all `Fiscal(2024)`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Year {
    Calendar(i32),
    Fiscal(i32),
}

impl fmt::Display for Year {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Year::Calendar(year) => write!(f, "{year}"),
            Year::Fiscal(year) => write!(f, "FY{year}"),
        }
    }
}

/// The period a report covers: a year, and the quarter when the report is a quarterly one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Period {
    /// 1 to 4, counted within [`Period::year`] (fiscal quarters for fiscal years).
    pub quarter: Option<u8>,
    pub year: Year,
}

const MONTH: &str = "(?i:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|\
                     aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)";
const DAY: &str = "(?:3[01]|[12][0-9]|0?[1-9])";
const YEAR: &str = "(?:19|20)[0-9]{2}";

/// One date in any of the printed forms: `12 August 2024`, `12th Aug, 2024`, `12-Aug-2024`,
/// `August 12, 2024`, `Aug. 12, 2024`, `2024-08-12`, `12.08.2024`, `12/08/2024`. Each regex
/// that embeds it gets the named groups [`date_from`] reads.
fn date_pattern() -> String {
    let day_month_year = format!(
        r"(?P<d1>{DAY})(?i:st|nd|rd|th)?(?:[ \t]*[\-/][ \t]*|[ \t]+(?:of[ \t]+)?)(?P<m1>{MONTH})\.?(?:,?[ \t]+|[ \t]*[\-/][ \t]*|,)(?P<y1>{YEAR})"
    );
    let month_day_year = format!(r"(?P<m2>{MONTH})\.?[ \t]+(?P<d2>{DAY})(?i:st|nd|rd|th)?,?[ \t]+(?P<y2>{YEAR})");
    let iso = format!(r"(?P<iy>{YEAR})-(?P<im>[01][0-9])-(?P<id>[0-3][0-9])");
    let numeric = format!(r"(?P<a>{DAY})[./\-](?P<b>[01]?[0-9])[./\-](?P<c>{YEAR})");
    format!(r"\b(?:{day_month_year}|{month_day_year}|{iso}|{numeric})\b")
}

fn regex(pattern: &str) -> Regex {
    Regex::new(pattern).expect("valid regex")
}

/// A line that starts with a date label: "Date:", "Dated", "Date of Report", "Published on".
static LABELLED_DATE: LazyLock<Regex> = LazyLock::new(|| {
    regex(&format!(
        r"(?im)^[ \t]*(?:dated?|date[ \t]+of[ \t]+(?:report|release|issue|publication)|report[ \t]+date|release[ \t]+date|published(?:[ \t]+on)?|issued[ \t]+on)[ \t]*[:\-–]?[ \t]*{}",
        date_pattern()
    ))
});

/// A press-release dateline: "Mumbai, August 12, 2024:" or "NEW YORK, Feb. 9, 2017 /PRNewswire/".
static DATELINE: LazyLock<Regex> = LazyLock::new(|| {
    regex(&format!(
        r"(?m)^[ \t]*[A-Z][A-Za-z.]+(?:[ \t]+[A-Z][A-Za-z.]+){{0,2}},[ \t]*{}[ \t]*(?:[:\-–—(/]|$)",
        date_pattern()
    ))
});

/// A line holding nothing but a date, or a date and a place ("August 12, 2024 | Mumbai").
static LONE_DATE: LazyLock<Regex> = LazyLock::new(|| {
    regex(&format!(r"^[ \t]*{}[ \t]*(?:[|,–\-][ \t]*[A-Z][A-Za-z .]{{1,30}})?[.,]?[ \t]*$", date_pattern()))
});

/// Words on the line above a lone date that make it a column heading of a table ("Quarter
/// ended", "As at") rather than the document's date.
static PERIOD_WORDS: LazyLock<Regex> =
    LazyLock::new(|| regex(r"(?i)\b(?:ended|ending|as[ \t]+(?:at|on|of)|period|quarter|year|months)\b"));

/// How many lines from the top a lone date may stand and still read as the document's date.
const LONE_DATE_LINES: usize = 60;

/// A fiscal-year notation: `FY24`, `FY 2024`, `FY2023-24`, `F.Y. 2023-2024`.
const FY: &str = r"(?:FY|F\.Y\.)[ \t]*['’]?(?P<fy>[0-9]{4}|[0-9]{2})(?:[ \t]*[\-–/][ \t]*(?P<fy2>[0-9]{4}|[0-9]{2}))?";

/// `Q1 FY25`, `Q1FY2025`, `1QFY25`, `Q1 FY 2024-25`.
static QUARTER_FY: LazyLock<Regex> =
    LazyLock::new(|| regex(&format!(r"(?i)\b(?:Q(?P<q>[1-4])|(?P<qn>[1-4])Q)[ \t]*[\-'’]?[ \t]*{FY}\b")));

/// `FY25 Q1`, `FY2024-25 Q3`.
static FY_QUARTER: LazyLock<Regex> = LazyLock::new(|| regex(&format!(r"(?i)\b{FY}[ \t]*\-?[ \t]*Q(?P<q>[1-4])\b")));

/// `Q1 2017`, `first quarter 2017`, `Fourth Quarter and Full Year 2016`, `Q3 fiscal 2024`,
/// read only when a word such as "results" or "call" follows (see [`QUARTER_CUE`]): "a Q1 2016
/// divestiture gain" is a reference, not the report's period.
static QUARTER_YEAR: LazyLock<Regex> = LazyLock::new(|| {
    regex(&format!(
        r"(?i)\b(?:(?P<word>first|second|third|fourth|1st|2nd|3rd|4th)[ \t]+quarter|Q(?P<q>[1-4]))[ \t,]+(?:(?:and|&)[ \t]+(?:full[ \t]+)?(?:fiscal[ \t]+)?year[ \t]+)?(?:of[ \t]+)?(?P<fiscal>fiscal[ \t]+(?:year[ \t]+)?)?(?P<y>{YEAR})\b(?P<after>[^.\n]{{0,40}})"
    ))
});

static QUARTER_CUE: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r"(?i)\b(?:results|earnings|call|report|presentation|update|highlights|performance|financials?|letter|review)\b",
    )
});

/// `quarter ended 30 June 2024`, `quarter and nine months ended 31.12.2023`. Read only under
/// Indian conventions, where the fiscal year runs April to March; elsewhere the fiscal year is
/// the company's own and a quarter-end date does not say which quarter it closes.
static QUARTER_ENDED: LazyLock<Regex> = LazyLock::new(|| {
    regex(&format!(
        r"(?i)\bquarter(?:[ \t]+and[ \t]+(?:nine|six|three)[ \t]+months|[ \t]+and[ \t]+(?:half[ \t\-]+)?year)?[ \t]+end(?:ed|ing)[ \t]+(?:on[ \t]+)?{}",
        date_pattern()
    ))
});

/// `year ended 31 March 2024`, `fiscal year ended June 30, 2024`.
static YEAR_ENDED: LazyLock<Regex> = LazyLock::new(|| {
    regex(&format!(
        r"(?i)\b(?P<fiscal>(?:fiscal|financial)[ \t]+)?year[ \t]+end(?:ed|ing)[ \t]+(?:on[ \t]+)?{}",
        date_pattern()
    ))
});

/// A year or fiscal year next to "annual report": `2023-24`, `FY24`, `2023`.
const REPORT_YEAR: &str = r"(?:(?:FY|F\.Y\.)[ \t]*['’]?(?P<fy>[0-9]{4}|[0-9]{2})(?:[ \t]*[\-–/][ \t]*(?P<fy2>[0-9]{4}|[0-9]{2}))?|(?P<cy>(?:19|20)[0-9]{2})(?:[ \t]*[\-–/][ \t]*(?P<cy2>[0-9]{4}|[0-9]{2}))?)\b";

/// `Annual Report 2023-24`, `Integrated Annual Report FY24`, `Annual Report for the year 2023`.
static REPORT_THEN_YEAR: LazyLock<Regex> = LazyLock::new(|| {
    regex(&format!(
        r"(?i)\b(?:annual|integrated)[ \t]+(?:annual[ \t]+)?report[ \t,:\-–]*(?:for[ \t]+(?:the[ \t]+)?(?:(?:financial|fiscal)[ \t]+)?(?:year[ \t]+)?)?{REPORT_YEAR}"
    ))
});

/// `2023 Annual Report`, `2023-24 Integrated Report`.
static YEAR_THEN_REPORT: LazyLock<Regex> =
    LazyLock::new(|| regex(&format!(r"(?i)\b{REPORT_YEAR}[ \t]+(?:annual|integrated)[ \t]+(?:annual[ \t]+)?report\b")));

/// `FY24`, `FY2023-24`, `Financial Year 2023-24`, `fiscal year 2024`, for title lines.
static FISCAL_YEAR: LazyLock<Regex> = LazyLock::new(|| {
    regex(&format!(
        r"(?i)\b(?:{FY}|(?:financial|fiscal)[ \t]+year[ \t]+(?P<fya>{YEAR})(?:[ \t]*[\-–/][ \t]*(?P<fyb>[0-9]{{4}}|[0-9]{{2}}))?)\b"
    ))
});

/// Words just before a period that make it a comparison, not the report's own period: "compared
/// to Q1 FY24", "in the Annual Report 2022-23", "half year ended".
static COMPARISON: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r"(?i)\b(?:compared[ \t]+(?:to|with)|versus|vs\.?|from|over|than|since|last[ \t]+year'?s?|prior|previous|preceding|corresponding|same|in[ \t]+(?:the|our|its)|per[ \t]+the|half[ \t\-]*)[ \t]*(?:the[ \t]+)?(?:Q[1-4][ \t]*[\-'’]?[ \t]*)?$",
    )
});

/// The period an SEC report's cover names: "For the fiscal year ended September 28, 2019",
/// "For the quarterly period ended June 29, 2019". Line breaks may split the phrase.
static FILING_PERIOD: LazyLock<Regex> = LazyLock::new(|| {
    regex(&format!(
        r"(?i)\bfor\s+the\s+(?:(?P<year>fiscal\s+year)|quarterly\s+period)\s+ended\s*:?\s*{}",
        date_pattern()
    ))
});

/// The label of an SEC current report's date: "Date of Report (Date of earliest event reported)".
const EVENT_DATE_LABEL: &str =
    r"\(?\s*date\s+of\s+report\s*\(\s*date\s+of\s+earliest\s+event\s+reported\s*\)\s*\)?";

/// The date after its label: "Date of Report (Date of earliest event reported): May 1, 2019".
static EVENT_DATE_AFTER: LazyLock<Regex> =
    LazyLock::new(|| regex(&format!(r"(?i){EVENT_DATE_LABEL}\s*:?\s*{}", date_pattern())));

/// The date on the line above its label, as covers rendered from HTML print it.
static EVENT_DATE_ABOVE: LazyLock<Regex> =
    LazyLock::new(|| regex(&format!(r"(?i){}[ \t]*\n[ \t]*{EVENT_DATE_LABEL}", date_pattern())));

/// Returns the date an SEC current report (8-K, 6-K) gives as the date of its report.
pub(super) fn filing_event_date(head: &str) -> Option<Date> {
    [&*EVENT_DATE_AFTER, &*EVENT_DATE_ABOVE].into_iter().find_map(|re| re.captures(head).and_then(|c| date_from(&c, false)))
}

/// What an SEC report's cover says it covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum FilingPeriod {
    /// An annual report: the last day of the fiscal year (which need not end a month: many
    /// companies close on the last Saturday of September).
    YearEnded(Date),
    /// A quarterly report: the last day of the quarter.
    QuarterEnded(Date),
}

/// Returns the period the first "For the fiscal year ended" or "For the quarterly period ended"
/// of an SEC report's cover names. Dates there are written month first.
pub(super) fn filing_period(head: &str) -> Option<FilingPeriod> {
    let c = FILING_PERIOD.captures(head)?;
    let date = date_from(&c, false)?;
    Some(if c.name("year").is_some() { FilingPeriod::YearEnded(date) } else { FilingPeriod::QuarterEnded(date) })
}

/// Returns the date the document gives itself on its first page: a labelled date ("Date: 12
/// August 2024") first, else a press-release dateline, else the one date that stands alone on a
/// line near the top. Numeric dates are read day first when `day_first` (Indian and most
/// non-US documents) and otherwise only when unambiguous (13/08/2024, 08/13/2024).
pub(super) fn report_date(head: &str, day_first: bool) -> Option<Date> {
    let first = |re: &Regex| re.captures_iter(head).find_map(|c| date_from(&c, day_first));
    first(&LABELLED_DATE).or_else(|| first(&DATELINE)).or_else(|| lone_date(head, day_first))
}

/// The date standing alone on a line near the top, if there is exactly one such date; dates
/// under a heading such as "Quarter ended" are columns of a table and do not count.
fn lone_date(head: &str, day_first: bool) -> Option<Date> {
    let mut found: Option<Date> = None;
    let mut previous = "";
    for line in head.lines().filter(|l| !l.trim().is_empty()).take(LONE_DATE_LINES) {
        let date = LONE_DATE.captures(line).and_then(|c| date_from(&c, day_first));
        if let Some(date) = date.filter(|_| !PERIOD_WORDS.is_match(previous)) {
            if found.is_some_and(|f| f != date) {
                return None;
            }
            found = Some(date);
        }
        previous = line;
    }
    found
}

/// Returns the period the report covers, read from its first page: a stated quarter first, else
/// an annual report's year or a "year ended" date, else the one fiscal year its title lines name.
/// `indian` enables "quarter ended <date>" with an April-to-March fiscal year.
pub(super) fn period(head: &str, title_lines: &[&str], indian: bool) -> Option<Period> {
    quarter(head, indian).or_else(|| report_year(head)).or_else(|| title_fiscal_year(title_lines))
}

/// The earliest stated quarter on the page that is not a comparison.
fn quarter(head: &str, indian: bool) -> Option<Period> {
    let mut candidates: Vec<(usize, Period)> = Vec::new();
    let mut collect = |re: &Regex, read: &dyn Fn(&Captures) -> Option<Period>| {
        candidates.extend(
            re.captures_iter(head)
                .filter(|c| !is_comparison(head, c))
                .filter_map(|c| Some((c.get(0)?.start(), read(&c)?))),
        );
    };
    collect(&QUARTER_FY, &|c| {
        let q = c.name("q").or(c.name("qn"))?.as_str().parse().ok()?;
        fiscal(c, Some(q))
    });
    collect(&FY_QUARTER, &|c| fiscal(c, Some(c["q"].parse().ok()?)));
    collect(&QUARTER_YEAR, &quarter_year);
    if indian {
        collect(&QUARTER_ENDED, &indian_quarter_ended);
    }
    candidates.into_iter().min_by_key(|(at, _)| *at).map(|(_, p)| p)
}

/// A [`FY`] match with its quarter, if any.
fn fiscal(c: &Captures, quarter: Option<u8>) -> Option<Period> {
    let year = fiscal_end(&c["fy"], c.name("fy2").map(|m| m.as_str()))?;
    Some(Period { quarter, year: Year::Fiscal(year) })
}

fn quarter_year(c: &Captures) -> Option<Period> {
    if !QUARTER_CUE.is_match(&c["after"]) {
        return None;
    }
    let quarter = match c.name("word").map(|w| w.as_str().to_ascii_lowercase()) {
        Some(word) => match word.as_str() {
            "first" | "1st" => 1,
            "second" | "2nd" => 2,
            "third" | "3rd" => 3,
            _ => 4,
        },
        None => c["q"].parse().ok()?,
    };
    let year: i32 = c["y"].parse().ok()?;
    let year = if c.name("fiscal").is_some() { Year::Fiscal(year) } else { Year::Calendar(year) };
    Some(Period { quarter: Some(quarter), year })
}

/// Under an April-to-March fiscal year the quarter ending in June is Q1 of the fiscal year that
/// ends the next March.
fn indian_quarter_ended(c: &Captures) -> Option<Period> {
    let date = date_from(c, true).filter(|d| d.ends_a_quarter())?;
    let (quarter, end) = match date.month {
        6 => (1, date.year + 1),
        9 => (2, date.year + 1),
        12 => (3, date.year + 1),
        _ => (4, date.year),
    };
    Some(Period { quarter: Some(quarter), year: Year::Fiscal(end) })
}

/// The earliest annual-report year or "year ended" date on the page that is not a comparison.
fn report_year(head: &str) -> Option<Period> {
    let mut candidates: Vec<(usize, Year)> = Vec::new();
    for re in [&*REPORT_THEN_YEAR, &*YEAR_THEN_REPORT] {
        candidates.extend(
            re.captures_iter(head)
                .filter(|c| !is_comparison(head, c))
                .filter_map(|c| Some((c.get(0)?.start(), labelled_year(&c)?))),
        );
    }
    candidates.extend(
        YEAR_ENDED
            .captures_iter(head)
            .filter(|c| !is_comparison(head, c))
            .filter_map(|c| Some((c.get(0)?.start(), year_ended(&c)?))),
    );
    let (_, year) = candidates.into_iter().min_by_key(|(at, _)| *at)?;
    Some(Period { quarter: None, year })
}

/// A [`REPORT_YEAR`] match: a range or an FY prefix is a fiscal year, a lone year a calendar one.
fn labelled_year(c: &Captures) -> Option<Year> {
    if let Some(fy) = c.name("fy") {
        return fiscal_end(fy.as_str(), c.name("fy2").map(|m| m.as_str())).map(Year::Fiscal);
    }
    let cy = c.name("cy")?.as_str();
    match c.name("cy2") {
        Some(end) => fiscal_end(cy, Some(end.as_str())).map(Year::Fiscal),
        None => cy.parse().ok().map(Year::Calendar),
    }
}

/// A year that ends on 31 December is a calendar year unless called fiscal; any other year end
/// makes a fiscal year, named by the year it ends in.
fn year_ended(c: &Captures) -> Option<Year> {
    let date = date_from(c, true).filter(|d| d.day == days_in_month(d.year, d.month))?;
    if c.name("fiscal").is_some() || date.month != 12 {
        Some(Year::Fiscal(date.year))
    } else {
        Some(Year::Calendar(date.year))
    }
}

/// The fiscal year the title lines name, if they name exactly one.
fn title_fiscal_year(title_lines: &[&str]) -> Option<Period> {
    let mut found: Option<i32> = None;
    for line in title_lines {
        for c in FISCAL_YEAR.captures_iter(line).filter(|c| !is_comparison(line, c)) {
            let year = match (c.name("fy"), c.name("fya")) {
                (Some(fy), _) => fiscal_end(fy.as_str(), c.name("fy2").map(|m| m.as_str())),
                (None, Some(fya)) => fiscal_end(fya.as_str(), c.name("fyb").map(|m| m.as_str())),
                (None, None) => None,
            };
            match (found, year) {
                (Some(f), Some(y)) if f != y => return None,
                (_, Some(y)) => found = Some(y),
                _ => {}
            }
        }
    }
    Some(Period { quarter: None, year: Year::Fiscal(found?) })
}

/// The year a fiscal year ends in, from `24`, `2024`, or a range `2023-24` / `2023-2024` whose
/// two years must follow each other.
fn fiscal_end(first: &str, second: Option<&str>) -> Option<i32> {
    let start = expand_year(first)?;
    let Some(second) = second else {
        return Some(start);
    };
    let mut end: i32 = second.parse().ok()?;
    if second.len() == 2 {
        end += start - start % 100;
        if end < start {
            end += 100;
        }
    }
    (end == start + 1).then_some(end)
}

fn expand_year(digits: &str) -> Option<i32> {
    let n: i32 = digits.parse().ok()?;
    let year = match digits.len() {
        2 if n >= 50 => 1900 + n,
        2 => 2000 + n,
        _ => n,
    };
    (1950..=2099).contains(&year).then_some(year)
}

fn is_comparison(text: &str, c: &Captures) -> bool {
    let start = c.get(0).map_or(0, |m| m.start());
    let from = floor_char_boundary(text, start.saturating_sub(40));
    COMPARISON.is_match(&text[from..start])
}

fn floor_char_boundary(text: &str, mut at: usize) -> usize {
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// Reads the date groups of [`date_pattern`]. A numeric date is read day first when `day_first`
/// or when its first number cannot be a month; month first when its second cannot be a month.
fn date_from(c: &Captures, day_first: bool) -> Option<Date> {
    let number = |name: &str| -> Option<u32> { c.name(name)?.as_str().parse().ok() };
    let year = |name: &str| -> Option<i32> { c.name(name)?.as_str().parse().ok() };
    if let Some(m) = c.name("m1") {
        return Date::new(year("y1")?, month_number(m.as_str())?, number("d1")?);
    }
    if let Some(m) = c.name("m2") {
        return Date::new(year("y2")?, month_number(m.as_str())?, number("d2")?);
    }
    if c.name("iy").is_some() {
        return Date::new(year("iy")?, number("im")?, number("id")?);
    }
    let (a, b, y) = (number("a")?, number("b")?, year("c")?);
    if day_first || a > 12 {
        Date::new(y, b, a)
    } else if b > 12 {
        Date::new(y, a, b)
    } else {
        None
    }
}

fn month_number(name: &str) -> Option<u32> {
    let prefix = name.get(..3)?.to_ascii_lowercase();
    let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
    months.iter().position(|m| *m == prefix).map(|i| i as u32 + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn date(head: &str) -> Option<String> {
        report_date(head, false).map(|d| d.to_string())
    }

    fn tags_of(head: &str, indian: bool) -> Option<(Option<u8>, String)> {
        let lines: Vec<&str> = head.lines().take(25).collect();
        period(head, &lines, indian).map(|p| (p.quarter, p.year.to_string()))
    }

    #[test]
    fn a_labelled_date_is_the_report_date_in_any_printed_form() {
        assert_eq!(date("Ref: RIL/2024/88\nDate: 12 August 2024\nTo, BSE Limited").as_deref(), Some("2024-08-12"));
        assert_eq!(date("Dated: 12th August, 2024").as_deref(), Some("2024-08-12"));
        assert_eq!(date("Date of Report: Aug. 12, 2024").as_deref(), Some("2024-08-12"));
        assert_eq!(date("Date: 2024-08-12").as_deref(), Some("2024-08-12"));
        assert_eq!(date("Date: 12-Aug-2024").as_deref(), Some("2024-08-12"));
        assert_eq!(report_date("Date: 12.08.2024", true).map(|d| d.to_string()).as_deref(), Some("2024-08-12"));
    }

    #[test]
    fn a_dateline_or_a_lone_date_near_the_top_is_the_report_date() {
        let release = "Press Release\nMumbai, August 12, 2024: Reliance Industries Limited today announced";
        assert_eq!(date(release).as_deref(), Some("2024-08-12"));
        let rating = "Rating Rationale\nAugust 12, 2024 | Mumbai\nXYZ Limited\n";
        assert_eq!(date(rating).as_deref(), Some("2024-08-12"));
        let letter = "XYZ Limited\n12th August, 2024\nTo, The Manager\n";
        assert_eq!(date(letter).as_deref(), Some("2024-08-12"));
        let sentence = "Rating Rationale\nOn August 12, 2024 the committee met.\n";
        assert_eq!(date(sentence), None);
    }

    #[test]
    fn dates_that_are_not_the_documents_date_are_ignored() {
        // Running text, period columns of a results table, a birth date, and a numeric date
        // that could be 8 December or 12 August.
        let text = "Statement of results for the quarter ended 30 June 2024\n\
                    Quarter ended\n30.06.2024\n31.03.2024\n30.06.2023\n\
                    The board met on 12 August 2024 and approved the results.\n\
                    Date of Birth: 01/01/1980\n";
        assert_eq!(report_date(text, true), None);
        assert_eq!(date("Date: 12/08/2024"), None);
        assert_eq!(date("Date: 31/08/2024").as_deref(), Some("2024-08-31"));
        assert_eq!(date("Date: 31 April 2024"), None, "no such day");
    }

    #[test]
    fn two_different_lone_dates_give_no_report_date() {
        assert_eq!(date("Report\n12 August 2024\nsome text\n13 August 2024\n"), None);
    }

    #[test]
    fn fiscal_quarter_notations_give_quarter_and_fiscal_year() {
        let q = |s: &str| tags_of(s, false);
        assert_eq!(q("Q1 FY25 Earnings Conference Call"), Some((Some(1), "FY2025".into())));
        assert_eq!(q("Investor Presentation Q3FY2024"), Some((Some(3), "FY2024".into())));
        assert_eq!(q("1QFY25 results"), Some((Some(1), "FY2025".into())));
        assert_eq!(q("Q4 FY 2023-24 Update"), Some((Some(4), "FY2024".into())));
        assert_eq!(q("FY25 Q2 performance"), Some((Some(2), "FY2025".into())));
        assert_eq!(q("Q2 FY2023-25 results"), None, "a range must be one year long");
    }

    #[test]
    fn calendar_quarters_need_a_report_word_after_them() {
        let q = |s: &str| tags_of(s, false);
        assert_eq!(q("Twitter Fourth Quarter and Full Year 2016 Results"), Some((Some(4), "2016".into())));
        assert_eq!(q("3M Q1 2017 Earnings Call"), Some((Some(1), "2017".into())));
        assert_eq!(q("Apple Q3 fiscal 2024 results"), Some((Some(3), "FY2024".into())));
        assert_eq!(q("up 40 basis points adjusting for a Q1 2016 divestiture gain"), None);
    }

    #[test]
    fn a_comparison_period_is_not_the_reports_period() {
        let text = "Revenue grew 12% compared to Q1 FY24 results, driven by volumes.";
        assert_eq!(tags_of(text, true), None);
        let text = "Q1 FY25 Earnings Call\nRevenue grew 12% compared to Q1 FY24.";
        assert_eq!(tags_of(text, true), Some((Some(1), "FY2025".into())));
    }

    #[test]
    fn quarter_ended_maps_to_an_april_to_march_year_only_under_indian_conventions() {
        let text = "Unaudited financial results for the quarter ended 30th June, 2024 (₹ in crore)";
        assert_eq!(tags_of(text, true), Some((Some(1), "FY2025".into())));
        let text = "Results for the quarter and nine months ended 31.12.2023";
        assert_eq!(tags_of(text, true), Some((Some(3), "FY2024".into())));
        let text = "Results for the quarter and year ended March 31, 2024";
        assert_eq!(tags_of(text, true), Some((Some(4), "FY2024".into())));
        // A US company's fiscal year is its own: June may close Q2, Q3 or Q4.
        assert_eq!(tags_of("For the quarter ended June 30, 2024", false), None);
        // Not a quarter end.
        assert_eq!(tags_of("for the quarter ended 15 June 2024", true), None);
    }

    #[test]
    fn annual_reports_and_year_ends_give_a_year() {
        let y = |s: &str| tags_of(s, false);
        assert_eq!(y("Integrated Annual Report 2023-24"), Some((None, "FY2024".into())));
        assert_eq!(y("Annual Report FY24"), Some((None, "FY2024".into())));
        assert_eq!(y("2023 Annual Report\nDear shareholders"), Some((None, "2023".into())));
        assert_eq!(y("FORM 10-K\nFor the fiscal year ended September 30, 2023"), Some((None, "FY2023".into())));
        assert_eq!(y("for the year ended December 31, 2023"), Some((None, "2023".into())));
        assert_eq!(y("Financial statements for the year ended 31 March 2024"), Some((None, "FY2024".into())));
    }

    #[test]
    fn a_half_year_or_an_earlier_annual_report_gives_no_year() {
        let y = |s: &str| tags_of(s, false);
        assert_eq!(y("Results for the half year ended 30 September 2024"), None);
        assert_eq!(y("as disclosed in the Annual Report 2022-23, the company"), None);
    }

    #[test]
    fn a_single_fiscal_year_in_the_title_lines_is_the_year() {
        let lines = ["Investor Presentation", "FY24 Highlights"];
        assert_eq!(title_fiscal_year(&lines).map(|p| p.year.to_string()).as_deref(), Some("FY2024"));
        let lines = ["FY24 Highlights", "Outlook for FY26"];
        assert_eq!(title_fiscal_year(&lines), None, "two different years");
        let lines = ["Financial Year 2023-24 Review", "FY24 vs FY23"];
        assert_eq!(
            title_fiscal_year(&lines).map(|p| p.year.to_string()).as_deref(),
            Some("FY2024"),
            "the year compared against is not a second year"
        );
    }
}
