//! Periods: the fiscal years and quarters documents cover (read from their detail tags) and
//! questions name, written as one set of keys, so that a question about "FY2018" or "the third
//! quarter of 2023" can be matched with the filings of that period.
//!
//! A key is a year, "2018", or a quarter of one, "2023q3". A fiscal year and the calendar year
//! of the same number share a key: people write "2018" for fiscal 2018, and the tags name a
//! fiscal year by the year it ends in ("FY2018"). A quarterly report covers its quarter, not its
//! year: it carries the quarter's key only.

use std::collections::BTreeMap;

/// SEC forms that report a whole fiscal year.
const ANNUAL_FORMS: &[&str] = &["10-K", "10-K405", "10-KSB", "10-KT", "20-F", "40-F", "11-K"];

/// The periods a document covers, from its detail tags: an SEC filing's `fiscal_period` ("FY2024",
/// "Q3 FY2024", "Q2 2024"); the `year` ("FY2025", "2024") and `quarter` ("Q1" to "Q4") read from
/// its text; failing both, the year an annual filing's `period_end` falls in. Empty when the tags
/// name no period.
pub fn of_tags(tags: &BTreeMap<String, String>) -> Vec<String> {
    let mut out = Vec::new();
    // "FY2024", "Q3 FY2024", "Q2 2024"; other forms' label is their date, which is no period.
    let label = |p: &&String| p.trim().to_uppercase().starts_with("FY") || p.trim().to_uppercase().starts_with('Q');
    if let Some(period) = tags.get("fiscal_period").filter(label) {
        out.extend(named(period));
    }
    if let Some(year) = tags.get("year").and_then(|y| year_of(&y.to_lowercase())) {
        let quarter = tags.get("quarter").and_then(|q| quarter_of(&q.to_lowercase()));
        out.push(key(year, quarter));
    }
    if out.is_empty() {
        let form = tags.get("form_type").map(|f| f.trim().to_uppercase());
        let annual = form.as_deref().is_some_and(|f| ANNUAL_FORMS.contains(&f.trim_end_matches("/A")))
            || tags.get("report_type").is_some_and(|r| r == "Annual Report");
        let end = tags.get("period_end").and_then(|d| d.get(..4)).and_then(year_of);
        if let (true, Some(year)) = (annual, end) {
            out.push(key(year, None));
        }
    }
    out.sort();
    out.dedup();
    out
}

/// The periods a question names: years ("2019", "FY2017", "FY17", "fiscal 2018", "FY2023-24",
/// the year it ends in) and quarters of a year ("Q3 2024", "Q3 FY2024", "3Q24", "third quarter
/// of 2023"). The year of a quarter is not a period of its own; a quarter without a year names
/// none. Quarters first, then years, each once.
pub fn named(question: &str) -> Vec<String> {
    let words = words(&question.to_lowercase());
    let mut used = vec![false; words.len()];
    let mut out: Vec<String> = Vec::new();
    let mut push = |k: String| {
        if !out.contains(&k) {
            out.push(k);
        }
    };
    for i in 0..words.len() {
        // "3q24", "q3fy24": a quarter and its year in one word.
        if let Some((quarter, year)) = joined_quarter(&words[i]) {
            push(key(year, Some(quarter)));
            used[i] = true;
            continue;
        }
        let quarter = quarter_of(&words[i])
            .or_else(|| (words.get(i + 1).is_some_and(|w| w == "quarter")).then(|| ordinal(&words[i])).flatten());
        let Some(quarter) = quarter else { continue };
        // The quarter's year: a few words on ("Q3 2024", "third quarter of fiscal 2023"), or
        // just before ("2023 third quarter").
        let after = (i + 1..words.len().min(i + 5)).find(|&j| year_of(&words[j]).is_some() && !used[j]);
        let before = i.checked_sub(1).filter(|&j| year_of(&words[j]).is_some() && !used[j]);
        if let Some(j) = after.or(before) {
            push(key(year_of(&words[j]).expect("a year"), Some(quarter)));
            used[j] = true;
        }
        used[i] = true;
    }
    for (i, w) in words.iter().enumerate() {
        if !used[i] {
            if let Some(year) = year_of(w) {
                push(key(year, None));
            }
        }
    }
    out
}

fn key(year: i32, quarter: Option<u8>) -> String {
    match quarter {
        Some(q) => format!("{year}q{q}"),
        None => year.to_string(),
    }
}

/// Lowercased words: runs of letters and digits; a hyphen joins only a fiscal year's two parts
/// ("fy2023-24"), so "2017-2019" is two years.
fn words(lower: &str) -> Vec<String> {
    lower
        .split(|c: char| !c.is_alphanumeric() && c != '-')
        .flat_map(
            |w| {
                if w.starts_with("fy") {
                    vec![w.to_string()]
                } else {
                    w.split('-').map(str::to_string).collect()
                }
            },
        )
        .filter(|w| !w.is_empty())
        .collect()
}

/// The year a lowercase word names: "2019", "fy2019", "fy19", "fy2023-24" (the year it ends in).
pub fn year_of(word: &str) -> Option<i32> {
    let full = |s: &str| (s.len() == 4).then(|| s.parse::<i32>().ok()).flatten().filter(|y| (1950..=2049).contains(y));
    if let Some(year) = full(word) {
        return Some(year);
    }
    let rest = word.strip_prefix("fy")?;
    let end = rest.rsplit('-').next()?;
    match end.len() {
        4 => full(end),
        2 => end.parse::<i32>().ok().map(|y| 2000 + y),
        _ => None,
    }
}

/// The quarter a word names: "q3", "3q".
fn quarter_of(word: &str) -> Option<u8> {
    let digit = word.strip_prefix('q').or_else(|| word.strip_suffix('q'))?;
    digit.parse::<u8>().ok().filter(|q| (1..=4).contains(q))
}

/// The quarter an ordinal names ("third" quarter).
fn ordinal(word: &str) -> Option<u8> {
    match word {
        "first" | "1st" => Some(1),
        "second" | "2nd" => Some(2),
        "third" | "3rd" => Some(3),
        "fourth" | "4th" => Some(4),
        _ => None,
    }
}

/// A quarter and its year in one word: "3q24", "3q2024", "q3fy24", "q3fy2024".
fn joined_quarter(word: &str) -> Option<(u8, i32)> {
    let (quarter, rest) = if let Some(rest) = word.strip_prefix('q') {
        (rest.get(..1)?, rest.get(1..)?)
    } else {
        let (digit, rest) = (word.get(..1)?, word.get(1..)?);
        (digit, rest.strip_prefix('q')?)
    };
    let quarter = quarter.parse::<u8>().ok().filter(|q| (1..=4).contains(q))?;
    let year = match rest.len() {
        2 if rest.chars().all(|c| c.is_ascii_digit()) => 2000 + rest.parse::<i32>().ok()?,
        _ if rest.is_empty() => return None,
        _ => year_of(rest).or_else(|| year_of(&format!("fy{rest}")))?,
    };
    Some((quarter, year))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tags(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    #[test]
    fn a_document_covers_the_year_or_the_quarter_its_tags_name() {
        assert_eq!(of_tags(&tags(&[("fiscal_period", "FY2024"), ("form_type", "10-K")])), ["2024"]);
        assert_eq!(of_tags(&tags(&[("fiscal_period", "Q3 FY2024")])), ["2024q3"]);
        assert_eq!(of_tags(&tags(&[("fiscal_period", "Q2 2024")])), ["2024q2"]);
        assert_eq!(of_tags(&tags(&[("year", "FY2025"), ("quarter", "Q1")])), ["2025q1"]);
        assert_eq!(of_tags(&tags(&[("year", "2023")])), ["2023"]);
        // An 8-K's period label is its date: no period.
        assert!(of_tags(&tags(&[("fiscal_period", "5 Mar 2024"), ("form_type", "8-K")])).is_empty());
        // An annual filing's period end stands in for a missing year; a current report's does not.
        assert_eq!(of_tags(&tags(&[("form_type", "10-K"), ("period_end", "2019-09-28")])), ["2019"]);
        assert!(of_tags(&tags(&[("form_type", "8-K"), ("period_end", "2019-09-28")])).is_empty());
        assert!(of_tags(&tags(&[("company_name", "Orchard Fields Inc.")])).is_empty());
    }

    #[test]
    fn a_question_names_years_and_quarters_of_a_year() {
        assert_eq!(named("What was Amazon's revenue in FY2017?"), ["2017"]);
        assert_eq!(named("Net sales in fiscal 2018 against FY19"), ["2018", "2019"]);
        assert_eq!(named("How did margins move from 2017-2019?"), ["2017", "2019"]);
        assert_eq!(named("Revenue for FY2023-24"), ["2024"]);
        assert_eq!(named("What was revenue in Q3 2024?"), ["2024q3"]);
        assert_eq!(named("Q3 FY2024 operating margin"), ["2024q3"]);
        assert_eq!(named("3Q24 results"), ["2024q3"]);
        assert_eq!(named("in the third quarter of 2023, and the fourth quarter of fiscal 2023"), ["2023q3", "2023q4"]);
        assert_eq!(named("their 2023 second quarter"), ["2023q2"]);
        // A quarter without its year, a figure and a count name no period.
        assert!(named("What was revenue in the third quarter?").is_empty());
        assert!(named("Revenue of 1,234 and 2,019.5 from 300 stores").is_empty());
    }
}
