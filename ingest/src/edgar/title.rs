//! The titles a reader expects for filings: "Apple Inc. — 10-K — FY2024", never an accession
//! number or a file name.
//!
//! EDGAR names companies in upper case and filings by number; readers know them by a company's
//! usual name, the form, and the period the filing covers ("Q3 FY2024"), which for a 10-Q
//! depends on the company's fiscal year end.

use chrono::{Datelike, NaiveDate};

use super::feed::is_accession;

/// The separator between the parts of a title.
const DASH: &str = " \u{2014} ";
/// Exhibit descriptions longer than this (in characters) are cut.
const MAX_DESCRIPTION_CHARS: usize = 120;
/// A title is never empty: this stands in when nothing else is known.
const FALLBACK: &str = "SEC filing";

/// "Apple Inc. — 10-K — FY2024". Empty parts, and parts that are accession numbers, are left out.
pub fn filing_title(company: &str, form: &str, period: &str) -> String {
    join([company, form, period])
}

/// "Apple Inc. — 8-K — Exhibit 99.1: Press release". The description is left out when it only
/// repeats the exhibit type or names a file, and is put in sentence case when EDGAR shouts it.
pub fn exhibit_title(company: &str, form: &str, exhibit_type: &str, description: Option<&str>) -> String {
    let kind = exhibit_type.trim();
    let number = kind.get(..3).filter(|p| p.eq_ignore_ascii_case("ex-")).map(|_| kind[3..].trim());
    let mut exhibit = match number {
        Some(n) if !n.is_empty() => format!("Exhibit {n}"),
        _ if kind.is_empty() || is_accession(kind) => "Exhibit".to_owned(),
        _ => kind.to_owned(),
    };
    let description = description
        .map(str::trim)
        .filter(|d| !d.is_empty() && !d.eq_ignore_ascii_case(kind) && !is_accession(d) && !looks_like_file_name(d));
    if let Some(description) = description {
        exhibit.push_str(": ");
        exhibit.push_str(&shorten(&sentence_case(description), MAX_DESCRIPTION_CHARS));
    }
    join([company, form, &exhibit])
}

/// The period part of a title. Annual forms (10-K, 20-F, 40-F, 10-KT, 11-K and their
/// amendments) give "FY" and the year of the period end, a period ending in the first week of
/// January counting for the year before when the year ends in December (52/53-week years).
/// 10-Qs give the fiscal quarter, "Q3 FY2024", from the period end and the fiscal year end
/// (`MMDD`), or the calendar quarter, "Q2 2024", without one. Other forms, and forms without a
/// period of report, give the filing date, "1 Nov 2024".
pub fn period_label(
    form: &str,
    period_of_report: Option<NaiveDate>,
    fiscal_year_end: Option<&str>,
    filing_date: NaiveDate,
) -> String {
    let form = form.trim().to_ascii_uppercase();
    let base = form.strip_suffix("/A").unwrap_or(&form);
    let year_end = fiscal_year_end.and_then(month_day);
    match (base, period_of_report) {
        ("10-K" | "10-K405" | "10-KSB" | "10-KT" | "20-F" | "40-F" | "11-K", Some(end)) => {
            let december = year_end.is_none_or(|(m, d)| m == 12 || (m == 1 && d <= 7));
            let early_january = end.month() == 1 && end.day() <= 7;
            let year = if december && early_january { end.year() - 1 } else { end.year() };
            format!("FY{year}")
        }
        ("10-Q" | "10-QSB" | "10-QT", Some(end)) => {
            let (year, month) = effective_month(end.year(), end.month(), end.day());
            match year_end {
                Some((m, d)) => {
                    let anchor = effective_month(0, m, d).1;
                    let after = (month as i32 - anchor as i32).rem_euclid(12);
                    let months = if after == 0 { 12 } else { after };
                    let quarter = ((months + 1) / 3).clamp(1, 3);
                    let fiscal_year = if month <= anchor { year } else { year + 1 };
                    format!("Q{quarter} FY{fiscal_year}")
                }
                None => format!("Q{} {year}", (month - 1) / 3 + 1),
            }
        }
        _ => filing_date.format("%-d %b %Y").to_string(),
    }
}

/// EDGAR's conformed names in the case readers know them: "MICROSOFT CORP" becomes "Microsoft
/// Corp", short all-consonant words stay acronyms ("NVR", "PPG"), as do corporate forms ("AG",
/// "PLC") and words with digits or '&' ("3M", "AT&T"); a trailing state suffix ("/DE/",
/// "\DE\") is dropped; names already in mixed case ("Apple Inc.") are kept as they are.
pub fn display_name(conformed: &str) -> String {
    let name = strip_state_suffix(conformed);
    let words: Vec<&str> = name.split_whitespace().collect();
    if name.chars().any(char::is_lowercase) {
        return words.join(" ");
    }
    words.iter().enumerate().map(|(i, w)| title_word(w, i == 0)).collect::<Vec<_>>().join(" ")
}

/// Drops the state or country codes EDGAR appends to names ("BANK OF AMERICA CORP /DE/",
/// "US BANCORP \DE\", "WELLS FARGO & COMPANY/MN", "APPLIED MATERIALS INC /DE") and a lone
/// trailing slash ("TOYOTA MOTOR CORP/").
pub(super) fn strip_state_suffix(name: &str) -> &str {
    let is_code = |code: &str| (1..=4).contains(&code.len()) && code.bytes().all(|b| b.is_ascii_uppercase());
    let mut name = name.trim();
    for _ in 0..3 {
        let before = name;
        if let Some(inner) = name.strip_suffix(['/', '\\']) {
            let sep = name.as_bytes()[name.len() - 1] as char;
            name = match inner.rfind(sep) {
                Some(open) if open > 0 && is_code(&inner[open + 1..]) => &inner[..open],
                _ => inner,
            };
        } else if let Some(open) = name.rfind(['/', '\\']) {
            let code = &name[open + 1..];
            let spaced = name[..open].ends_with(' ');
            if open > 0 && is_code(code) && (spaced || code.len() == 2) {
                name = &name[..open];
            }
        }
        name = name.trim_end();
        if name == before {
            break;
        }
    }
    name
}

/// Words kept in upper case whatever their letters: corporate forms, numerals, countries.
const UPPER: &[&str] = &[
    "SA", "AG", "NV", "SE", "ASA", "AB", "BV", "SPA", "PLC", "LLC", "LP", "LLP", "II", "III", "IV", "VI", "USA", "US",
    "UK", "REIT", "ETF", "ADR", "NA",
];
/// Words written in lower case inside a name.
const LOWER: &[&str] = &["OF", "AND", "THE", "FOR", "IN", "ON", "AT", "BY", "TO", "DE"];
/// Two-consonant endings of ordinary three-letter words ("INC", "AND"); a three-letter word
/// opening with a vowel and ending otherwise reads as an acronym ("IBM", "AMD").
const ENDINGS: &[&str] = &[
    "NC", "ND", "RT", "LL", "LD", "NT", "CT", "LF", "SH", "CH", "TH", "RK", "LK", "LM", "NK", "NN", "DD", "SK", "SS",
    "FT", "PT", "ST", "RD", "RN", "RM", "NG", "MP", "FF", "GG", "RP", "RS", "LT", "LP", "RB", "RG", "BB", "TT", "PP",
    "MM", "CK", "XT", "RL", "RC", "NS", "TS", "LS", "DS", "KS", "GS", "MS", "PS", "GH", "WN", "WL", "WS", "WE",
];

fn title_word(word: &str, first: bool) -> String {
    if word.chars().any(|c| c.is_ascii_digit() || c == '&') {
        return word.to_owned();
    }
    let letters: String = word.chars().filter(|c| c.is_alphabetic()).collect();
    if UPPER.contains(&letters.as_str()) || is_acronym(&letters) {
        return word.to_owned();
    }
    if !first && LOWER.contains(&letters.as_str()) && word.chars().all(char::is_alphabetic) {
        return word.to_lowercase();
    }
    // Each run of letters is cased on its own: "COCA-COLA", "J.P.", "MCDONALD'S".
    let mut out = String::with_capacity(word.len());
    let mut run = String::new();
    let mut after_apostrophe = false;
    for c in word.chars().chain(std::iter::once(' ')) {
        if c.is_alphabetic() {
            run.push(c);
            continue;
        }
        if !run.is_empty() {
            out.push_str(&case_run(&run, after_apostrophe));
            run.clear();
        }
        after_apostrophe = matches!(c, '\'' | '\u{2019}');
        if c != ' ' {
            out.push(c);
        }
    }
    out
}

fn case_run(run: &str, after_apostrophe: bool) -> String {
    if after_apostrophe {
        return run.to_lowercase();
    }
    if run.chars().count() == 1 {
        return run.to_owned();
    }
    let lower = run.to_lowercase();
    if lower.len() > 3 && lower.starts_with("mc") {
        return format!("Mc{}", capitalise(&lower[2..]));
    }
    capitalise(&lower)
}

fn capitalise(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// Whether an upper-case word reads as an acronym: up to four letters without a vowel ("NVR",
/// "PPG"; 'Y' after the first letter counts as a vowel), or three letters opening with a vowel
/// and ending in two consonants no ordinary word ends in ("IBM").
fn is_acronym(letters: &str) -> bool {
    let bytes = letters.as_bytes();
    if bytes.is_empty() || !letters.is_ascii() {
        return false;
    }
    let vowel = |i: usize, b: u8| matches!(b, b'A' | b'E' | b'I' | b'O' | b'U') || (b == b'Y' && i > 0);
    let vowels = bytes.iter().enumerate().filter(|(i, b)| vowel(*i, **b)).count();
    if bytes.len() >= 2 && bytes.len() <= 4 && vowels == 0 {
        return true;
    }
    bytes.len() == 3 && vowel(0, bytes[0]) && vowels == 1 && !ENDINGS.contains(&&letters[1..])
}

/// A description EDGAR wrote in capitals ("PRESS RELEASE DATED OCTOBER 31, 2024") in sentence
/// case; others as they are.
fn sentence_case(text: &str) -> String {
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if text.chars().any(char::is_lowercase) || !text.chars().any(char::is_uppercase) {
        return text;
    }
    capitalise(&text.to_lowercase())
}

fn looks_like_file_name(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    !lower.contains(' ')
        && [".htm", ".html", ".txt", ".pdf", ".jpg", ".gif", ".png", ".xml", ".xsd"].iter().any(|e| lower.ends_with(e))
}

fn shorten(text: &str, max_chars: usize) -> String {
    if text.chars().count() <= max_chars {
        return text.to_owned();
    }
    let mut cut: String = text.chars().take(max_chars - 1).collect();
    cut.truncate(cut.trim_end().len());
    cut.push('\u{2026}');
    cut
}

fn join<'a>(parts: impl IntoIterator<Item = &'a str>) -> String {
    let parts: Vec<&str> = parts.into_iter().map(str::trim).filter(|p| !p.is_empty() && !is_accession(p)).collect();
    if parts.is_empty() {
        FALLBACK.to_owned()
    } else {
        parts.join(DASH)
    }
}

/// `MMDD` as (month, day), if it is one.
fn month_day(text: &str) -> Option<(u32, u32)> {
    let text = text.trim();
    if text.len() != 4 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let (month, day) = (text[..2].parse().ok()?, text[2..].parse().ok()?);
    ((1..=12).contains(&month) && (1..=31).contains(&day)).then_some((month, day))
}

/// The month a period ending on `day` belongs to: 52/53-week periods can end in the first week
/// of the next month, which still closes the month before.
fn effective_month(year: i32, month: u32, day: u32) -> (i32, u32) {
    match (month, day) {
        (1, d) if d <= 7 => (year - 1, 12),
        (m, d) if d <= 7 => (year, m - 1),
        (m, _) => (year, m),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn date(y: i32, m: u32, d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, d).unwrap()
    }

    #[test]
    fn a_filing_title_joins_company_form_and_period() {
        assert_eq!(filing_title("Apple Inc.", "10-K", "FY2024"), "Apple Inc. \u{2014} 10-K \u{2014} FY2024");
        assert_eq!(filing_title("", "8-K", "1 Nov 2024"), "8-K \u{2014} 1 Nov 2024");
    }

    #[test]
    fn an_accession_number_is_never_a_title() {
        assert_eq!(filing_title("0000320193-24-000123", "", ""), "SEC filing");
        assert_eq!(filing_title("Apple Inc.", "0000320193-24-000123", ""), "Apple Inc.");
        assert_eq!(exhibit_title("", "", "0000320193-24-000123", Some("0000320193-24-000123")), "Exhibit");
    }

    #[test]
    fn an_exhibit_title_names_the_exhibit_and_its_description() {
        assert_eq!(
            exhibit_title("Apple Inc.", "8-K", "EX-99.1", Some("Press release")),
            "Apple Inc. \u{2014} 8-K \u{2014} Exhibit 99.1: Press release"
        );
        assert_eq!(
            exhibit_title("Apple Inc.", "8-K", "EX-99.1", Some("PRESS RELEASE DATED OCTOBER 31, 2024")),
            "Apple Inc. \u{2014} 8-K \u{2014} Exhibit 99.1: Press release dated october 31, 2024"
        );
        assert_eq!(
            exhibit_title("Apple Inc.", "10-K", "EX-4.4", Some("EX-4.4")),
            "Apple Inc. \u{2014} 10-K \u{2014} Exhibit 4.4"
        );
        assert_eq!(exhibit_title("X", "8-K", "EX-99.1", Some("ex991.htm")), "X \u{2014} 8-K \u{2014} Exhibit 99.1");
        let long = "a".repeat(300);
        assert!(exhibit_title("X", "8-K", "EX-99.1", Some(&long)).chars().count() < 150);
    }

    #[test]
    fn annual_forms_are_labelled_by_fiscal_year() {
        let filed = date(2024, 11, 1);
        assert_eq!(period_label("10-K", Some(date(2024, 9, 28)), Some("0928"), filed), "FY2024");
        assert_eq!(period_label("10-K/A", Some(date(2024, 9, 28)), None, filed), "FY2024");
        assert_eq!(period_label("20-F", Some(date(2023, 12, 31)), Some("1231"), filed), "FY2023");
        assert_eq!(period_label("10-K", Some(date(2025, 1, 3)), Some("1231"), filed), "FY2024", "a 53-week year");
        assert_eq!(period_label("10-K", Some(date(2025, 1, 3)), None, filed), "FY2024");
        assert_eq!(period_label("10-K", Some(date(2025, 1, 3)), Some("0630"), filed), "FY2025");
        assert_eq!(period_label("10-K", Some(date(2025, 1, 31)), Some("0131"), filed), "FY2025");
    }

    #[test]
    fn quarterly_reports_are_labelled_by_fiscal_quarter() {
        let filed = date(2024, 8, 2);
        assert_eq!(period_label("10-Q", Some(date(2024, 6, 29)), Some("0928"), filed), "Q3 FY2024");
        assert_eq!(period_label("10-Q", Some(date(2024, 12, 28)), Some("0928"), filed), "Q1 FY2025");
        assert_eq!(period_label("10-Q", Some(date(2024, 3, 30)), Some("0928"), filed), "Q2 FY2024");
        assert_eq!(period_label("10-Q", Some(date(2024, 9, 30)), Some("0630"), filed), "Q1 FY2025");
        assert_eq!(period_label("10-Q", Some(date(2024, 3, 31)), Some("1231"), filed), "Q1 FY2024");
        assert_eq!(period_label("10-Q", Some(date(2024, 4, 30)), Some("0131"), filed), "Q1 FY2025");
        assert_eq!(period_label("10-Q", Some(date(2024, 6, 30)), None, filed), "Q2 2024");
        assert_eq!(period_label("10-Q", Some(date(2025, 1, 2)), None, filed), "Q4 2024");
        assert_eq!(period_label("10-Q", Some(date(2024, 6, 30)), Some("13xx"), filed), "Q2 2024");
    }

    #[test]
    fn other_forms_and_missing_periods_give_the_filing_date() {
        assert_eq!(period_label("8-K", Some(date(2024, 10, 31)), Some("0928"), date(2024, 11, 1)), "1 Nov 2024");
        assert_eq!(period_label("10-K", None, None, date(2024, 11, 1)), "1 Nov 2024");
    }

    #[test]
    fn upper_case_names_are_put_in_title_case() {
        assert_eq!(display_name("MICROSOFT CORP"), "Microsoft Corp");
        assert_eq!(display_name("AMAZON COM INC"), "Amazon Com Inc");
        assert_eq!(display_name("ALPHABET INC."), "Alphabet Inc.");
        assert_eq!(display_name("IBM"), "IBM");
        assert_eq!(display_name("NVR INC"), "NVR Inc");
        assert_eq!(display_name("PPG INDUSTRIES INC"), "PPG Industries Inc");
        assert_eq!(display_name("BANK OF AMERICA CORP /DE/"), "Bank of America Corp");
        assert_eq!(display_name("US BANCORP \\DE\\"), "US Bancorp");
        assert_eq!(display_name("WELLS FARGO & COMPANY/MN"), "Wells Fargo & Company");
        assert_eq!(display_name("APPLIED MATERIALS INC /DE"), "Applied Materials Inc");
        assert_eq!(display_name("TOYOTA MOTOR CORP/"), "Toyota Motor Corp");
        assert_eq!(display_name("AT&T INC."), "AT&T Inc.");
        assert_eq!(display_name("3M CO"), "3M Co");
        assert_eq!(display_name("COCA-COLA CO"), "Coca-Cola Co");
        assert_eq!(display_name("MCDONALD'S CORP"), "McDonald's Corp");
        assert_eq!(display_name("J.P. MORGAN CHASE"), "J.P. Morgan Chase");
        assert_eq!(display_name("NOVARTIS AG"), "Novartis AG");
        assert_eq!(display_name("LYFT, INC."), "Lyft, Inc.");
    }

    #[test]
    fn mixed_case_names_are_kept() {
        assert_eq!(display_name("Apple Inc."), "Apple Inc.");
        assert_eq!(display_name("GE HealthCare Technologies Inc."), "GE HealthCare Technologies Inc.");
        assert_eq!(display_name("  Meta  Platforms, Inc. "), "Meta Platforms, Inc.");
        assert_eq!(display_name(""), "");
        assert_eq!(display_name("/"), "");
    }
}
