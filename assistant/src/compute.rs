//! Computed figures: a question asking for arithmetic over a table's figures (a change, a
//! percentage change, an average, a sum, a share or ratio of two rows) is answered with the value
//! computed from the table rows retrieval found, each input quoted as its cited row states it.
//!
//! Nothing is guessed. The question must name the operation and the periods (or, for a share or
//! ratio, one period and two rows); each row must be found by its label among the retrieved row
//! passages, have one value under each named period, and be the only row that fits (rows that fit
//! equally well and disagree are ambiguous). Failing any of that, nothing is computed and the
//! answer is the sources' sentences alone.

use std::collections::HashSet;

use serde::Serialize;

use search::periods::year_of;

use crate::retrieve::Retrieval;
use crate::text::Terms;

/// What a question asks to compute.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Operation {
    /// The later period's figure less the earlier one's.
    Change,
    /// The earlier period's figure less the later one's: a change asked for as a decrease.
    Decrease,
    /// The change as a percentage of the earlier figure.
    PercentageChange,
    /// The mean of the figures of the named periods.
    Average,
    /// The sum of the figures of the named periods.
    Sum,
    /// One row's figure as a percentage of another's, in one period.
    Share,
    /// One row's figure divided by another's, in one period.
    Ratio,
}

/// A value read from a cited table row.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Input {
    /// The row's label as the row passage gives it.
    pub label: String,
    /// The column the value is under, as the row passage names it ("2019", "Fiscal 2018").
    pub period: String,
    /// The value as written in the passage ("$ 1,452.4", "(15)", "21.0%").
    pub written: String,
    /// The value read as a number ("(15)" is -15; a percentage is its number of percent).
    pub number: f64,
    /// The number of the passage (`[n]`) holding the row.
    pub citation: u32,
}

/// A value the answer computed, with the inputs it was computed from: what marks an answer
/// sentence as computed rather than quoted.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Computation {
    pub operation: Operation,
    pub inputs: Vec<Input>,
    /// The result, unrounded.
    pub value: f64,
    /// The result as the sentence shows it ("-6.66%", "5,889").
    pub shown: String,
}

/// A question for arithmetic: what to compute, over which periods.
#[derive(Debug, Clone, PartialEq)]
pub struct Asked {
    pub operation: Operation,
    /// The years the question names, earliest first, each once.
    pub years: Vec<i32>,
    /// Whether the years bound a range ("from 2017 to 2019", "2017-2019"): an average or sum
    /// then takes the years between them too.
    pub range: bool,
    /// For a share or ratio: the words naming the part (or numerator) and the whole (or
    /// denominator).
    pub parts: Option<(String, String)>,
    /// A sum asked for by "total" alone: "the total X in 2019 and 2018" asks for a sum, but "the
    /// Total operating expense in 2019 and 2018" for the figures of the row labelled so.
    pub by_total: bool,
    /// The names the question holds (capitalised words after its first, lowercased): a segment
    /// or company the row must be of ("Blizzard net bookings").
    pub names: Vec<String>,
}

/// Words that ask for a change.
const CHANGE: &[&str] =
    &["change", "changes", "changed", "increase", "increased", "decrease", "decreased", "difference", "variance"];
/// Words that ask for a sum.
const SUM: &[&str] = &["sum", "total", "altogether", "combined", "together"];

/// Reads what a question asks to compute, or `None` when it asks for no arithmetic (or for some
/// this module does not do: a quarter, a figure per head).
pub fn asked(question: &str) -> Option<Asked> {
    let lower = question.to_lowercase().replace('\u{2019}', "'");
    let words = words(&lower);
    let years = years(&words);
    let has = |w: &str| words.iter().any(|x| x == w);
    let at = |list: &[&str]| words.iter().position(|x| list.contains(&x.as_str()));
    // "Why did costs decrease?" asks for a reason, not a figure.
    if words.first().is_some_and(|w| w == "why") {
        return None;
    }
    let names = names(question);
    let asking = |operation, years, range, parts| Asked {
        operation,
        years,
        range,
        parts,
        by_total: false,
        names: names.clone(),
    };
    // A quarter or half-year is a period this module does not read from column names.
    if words
        .iter()
        .any(|w| matches!(w.as_str(), "quarter" | "quarters" | "q1" | "q2" | "q3" | "q4" | "half" | "month" | "months"))
    {
        return None;
    }
    let percent = |i: usize| matches!(words[i].as_str(), "percentage" | "percent" | "%");
    // "percentage change", "% increase", "percentage increase / (decrease)", "growth rate"; a
    // "percentage difference" may be one of points.
    let percentage_change = (0..words.len()).any(|i| {
        percent(i)
            && words.get(i + 1).is_some_and(|w| {
                (CHANGE.contains(&w.as_str()) && w != "difference")
                    || matches!(w.as_str(), "growth" | "rise" | "decline" | "increase/")
            })
    }) || lower.contains("growth rate");
    if percentage_change {
        return (years.len() == 2).then(|| asking(Operation::PercentageChange, years, false, None));
    }
    // Two figures asked for together are no sum.
    if has("respectively") || has("each") {
        return None;
    }
    let change = at(CHANGE).or_else(|| words.iter().position(|w| w == "increase/"));
    let average = at(&["average", "mean"]);
    let sum = at(SUM);
    // A share or ratio of two rows: "A as a percentage of B", "the ratio of A to B", "the
    // proportion of A over B", "the percentage of A in B" (but "the change in the percentage of
    // A" asks for a change).
    if let (Some((operation, part, whole)), None, None) = (share(&lower), change, average) {
        return (years.len() == 1).then(|| asking(operation, years, false, Some((part, whole))));
    }
    // "the change in X as a percentage of Y" is two operations in one.
    if lower.contains(" as a percentage of ") || lower.contains(" as a proportion of ") {
        return None;
    }
    // "the difference between A and B": two rows, not two years of one.
    if let Some((_, rest)) = lower.split_once("difference between ") {
        let first = rest.split(" and ").next().unwrap_or_default();
        if !self::words(first).iter().any(|w| year_of(w).is_some()) {
            return None;
        }
    }
    // The first word that names an operation decides it: "the change in average prices" asks
    // for a change.
    let first = [(change, Operation::Change), (average, Operation::Average), (sum, Operation::Sum)]
        .into_iter()
        .filter_map(|(at, op)| at.map(|a| (a, op)))
        .min_by_key(|(a, _)| *a)
        .map(|(_, op)| op)?;
    // "average ... per employee", "weighted average" are figures of their own, not a mean of the
    // named years.
    if first == Operation::Average && (has("per") || has("weighted")) {
        return None;
    }
    let range = years.len() == 2
        && (lower.contains(&format!("{}-{}", years[0], years[1]))
            || lower.contains(&format!("{} to {}", years[0], years[1]))
            || lower.contains(&format!("{} through {}", years[0], years[1])));
    let enough = match first {
        Operation::Change => years.len() == 2,
        _ => years.len() >= 2,
    };
    let mut out = asking(first, years, range, None);
    let decrease = first == Operation::Change
        && change.is_some_and(|i| matches!(words[i].as_str(), "decrease" | "decreased"))
        && !has("increase")
        && !has("increase/");
    if decrease {
        out.operation = Operation::Decrease;
    }
    out.by_total = first == Operation::Sum && SUM.iter().all(|w| *w == "total" || !has(w));
    enough.then_some(out)
}

/// The capitalised words of a question after its first, lowercased, less those a question
/// capitalises without naming anything.
fn names(question: &str) -> Vec<String> {
    question
        .split(|c: char| !c.is_alphanumeric() && c != '-')
        .filter(|w| !w.is_empty())
        .skip(1)
        .filter(|w| w.chars().next().is_some_and(char::is_uppercase) && w.chars().count() > 1)
        .map(str::to_lowercase)
        .filter(|w| !matches!(w.as_str(), "fy" | "fiscal" | "total" | "i"))
        .filter(|w| !search::tables::MONTHS.contains(&w.as_str()))
        .collect()
}

/// The words of lowercased text: runs of letters, digits and the marks figures keep ("%",
/// "increase/" of "increase/(decrease)"), apostrophes' "s" dropped.
fn words(lower: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    for ch in lower.chars().chain([' ']) {
        if ch.is_alphanumeric() || ch == '-' && current.starts_with("fy") {
            current.push(ch);
            continue;
        }
        if ch == '/' && current == "increase" {
            current.push(ch);
        }
        if !current.is_empty() {
            out.push(std::mem::take(&mut current));
        }
        if ch == '%' {
            out.push("%".to_string());
        }
    }
    out.retain(|w| w != "s");
    out
}

/// The years the words name, earliest first, each once.
fn years(words: &[String]) -> Vec<i32> {
    let mut out: Vec<i32> = words.iter().filter_map(|w| year_of(w)).collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// A share or ratio question's operation and the words naming its two rows.
fn share(lower: &str) -> Option<(Operation, String, String)> {
    let clean = |s: &str| {
        let s = s.trim().trim_end_matches(['?', '.']).trim();
        // Periods and fillers after the row's words ("... in 2019", "... as of December 31").
        let cut = [" in ", " for ", " as of ", " as at ", " at ", " during ", " of fy", " between "]
            .iter()
            .filter_map(|m| s.find(m))
            .min()
            .unwrap_or(s.len());
        s[..cut].trim().trim_start_matches("the ").trim().to_string()
    };
    let lead = |s: &str| {
        let s = s.trim();
        let s = s.rsplit_once(" what is ").map(|(_, r)| r).unwrap_or(s);
        let s = s.rsplit_once(" what was ").map(|(_, r)| r).unwrap_or(s);
        let s = s.trim_start_matches("what is ").trim_start_matches("what was ");
        s.trim_start_matches("the ").trim().to_string()
    };
    let named = |part: String, whole: String| (!part.is_empty() && !whole.is_empty()).then_some((part, whole));
    // "A as a percentage of B", "A as a proportion of B".
    for (marker, op) in [(" as a percentage of ", Operation::Share), (" as a proportion of ", Operation::Ratio)] {
        if let Some((a, b)) = lower.split_once(marker) {
            let (part, whole) = named(lead(a), clean(b))?;
            return Some((op, part, whole));
        }
    }
    // "the ratio of A to B", "the proportion of A over B", "the percentage of A in B".
    for (marker, op, joins) in [
        ("ratio of ", Operation::Ratio, &[" to ", " over "][..]),
        ("proportion of ", Operation::Ratio, &[" over ", " to ", " out of "][..]),
        ("percentage of ", Operation::Share, &[" out of ", " in the total ", " of the total ", " over "][..]),
    ] {
        let Some(at) = lower.find(marker) else { continue };
        let rest = &lower[at + marker.len()..];
        for join in joins {
            if let Some((a, b)) = rest.split_once(join) {
                let whole = if join.contains("total") { format!("total {}", clean(b)) } else { clean(b) };
                let (part, whole) = named(clean(a), whole)?;
                return Some((op, part, whole));
            }
        }
        return None;
    }
    None
}

/// Words of a question about what it computes, not which row it is about; they need not be in
/// the row's label.
const OPERATION_WORDS: &[&str] = &[
    "chang",
    "increas",
    "decreas",
    "differ",
    "varianc",
    "percentag",
    "percent",
    "averag",
    "mean",
    "sum",
    "total",
    "altogeth",
    "combin",
    "togeth",
    "growth",
    "rate",
    "ratio",
    "proport",
    "amount",
    "valu",
    "figur",
    "year",
    "fiscal",
    "fy",
    "period",
    "end",
    "compani",
    "group",
    "both",
    "respect",
    "what",
    "how",
    "much",
    "from",
    "between",
];

/// A table row among the retrieved passages, read back into its label and values.
struct Row {
    /// Index into the retrieval's passages.
    passage: usize,
    label: String,
    /// The stemmed terms of the label (with its group's).
    label_terms: HashSet<String>,
    /// Those a question must hold to name the row: its own label's, not its group's
    /// ("Appliances" of "Communications Solutions: Appliances"), and not the label's numbers (a
    /// note mark, the year of "Notes due 2024") nor its words in parentheses ("Net income (loss)").
    required: HashSet<String>,
    /// The stemmed terms of the row's caption.
    caption_terms: HashSet<String>,
    /// (column as written, its year if it names exactly one, value as written)
    values: Vec<(String, Option<i32>, String)>,
}

/// The table rows of the retrieval: passages that are one row ([`crate::RetrievedPassage::table_row`]),
/// shorter than `max_chars`.
fn rows(retrieval: &Retrieval, terms: &mut Terms, max_chars: usize) -> Vec<Row> {
    let mut out = Vec::new();
    for (i, p) in retrieval.passages.iter().enumerate() {
        if !p.table_row {
            continue;
        }
        let (line, caption) = p.text.split_once('\n').unwrap_or((&p.text, ""));
        if line.chars().count() > max_chars {
            continue;
        }
        let Some((label, values)) = search::tables::read_row(line) else { continue };
        let values = values
            .into_iter()
            .filter_map(|(column, value)| {
                let column = column?;
                let year = column_year(&column);
                Some((column, year, value))
            })
            .collect();
        let own = label.rsplit_once(": ").map(|(_, own)| own).unwrap_or(&label);
        let required = terms
            .of(&without_parentheses(own))
            .into_iter()
            .filter(|t| !t.chars().all(|c| c.is_ascii_digit() || c == '.' || c == ','))
            .collect();
        out.push(Row {
            passage: i,
            required,
            label_terms: terms.of(&label).into_iter().collect(),
            caption_terms: terms.of(caption).into_iter().collect(),
            label,
            values,
        });
    }
    out
}

/// Text without its parenthesised parts.
fn without_parentheses(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut depth = 0usize;
    for ch in text.chars() {
        match ch {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            _ if depth == 0 => out.push(ch),
            _ => {}
        }
    }
    out
}

/// The year a column names, when it names exactly one full year ("2019", "Fiscal 2019",
/// "December 31, 2019", "FY19"), and no part of one.
fn column_year(column: &str) -> Option<i32> {
    let lower = column.to_lowercase();
    let words = words(&lower);
    if words.iter().any(|w| {
        matches!(
            w.as_str(),
            "q1" | "q2" | "q3" | "q4" | "quarter" | "months" | "month" | "half" | "weeks" | "%" | "change" | "to"
        )
    }) {
        return None;
    }
    let years: Vec<i32> = words.iter().filter_map(|w| year_of(w)).collect();
    match years.as_slice() {
        [y] => Some(*y),
        _ => None,
    }
}

/// A value as a number: currency signs, spaces and thousands separators dropped, parentheses a
/// negative ("(15)"), a trailing "%" kept as the number of percent. `None` for anything else.
pub fn number(written: &str) -> Option<f64> {
    let mut s: String =
        written.chars().filter(|c| !c.is_whitespace() && !matches!(c, '$' | '€' | '£' | '₹' | ',')).collect();
    let mut negative = false;
    if s.starts_with('(') && s.ends_with(')') {
        negative = true;
        s = s[1..s.len() - 1].to_string();
    }
    for minus in ['-', '\u{2212}', '\u{2013}'] {
        if let Some(rest) = s.strip_prefix(minus) {
            negative = !negative;
            s = rest.to_string();
            break;
        }
    }
    let s = s.strip_suffix('%').unwrap_or(&s);
    if s.is_empty() || !s.chars().all(|c| c.is_ascii_digit() || c == '.') || s.matches('.').count() > 1 {
        return None;
    }
    let n: f64 = s.parse().ok()?;
    Some(if negative { -n } else { n })
}

/// Digits after the decimal point of a written value.
fn decimals(written: &str) -> usize {
    let digits: String = written.chars().filter(|c| c.is_ascii_digit() || *c == '.').collect();
    digits.split_once('.').map(|(_, d)| d.len()).unwrap_or(0)
}

/// A value as the answer writes it: without its currency sign or spaces.
fn bare(written: &str) -> String {
    written.chars().filter(|c| !c.is_whitespace() && !matches!(c, '$' | '€' | '£' | '₹')).collect()
}

/// `value` with `places` decimals and thousands separators, a minus sign for a negative.
pub fn format(value: f64, places: usize) -> String {
    let factor = 10f64.powi(places as i32);
    let rounded = (value * factor).round() / factor;
    let text = format!("{:.*}", places, rounded.abs());
    let (whole, fraction) = text.split_once('.').map(|(w, f)| (w, Some(f))).unwrap_or((&text, None));
    let mut grouped = String::new();
    for (i, ch) in whole.chars().enumerate() {
        if i > 0 && (whole.len() - i) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(ch);
    }
    let sign = if rounded < 0.0 { "\u{2212}" } else { "" };
    match fraction {
        Some(f) => format!("{sign}{grouped}.{f}"),
        None => format!("{sign}{grouped}"),
    }
}

/// How a row fits the words of a question: how many of its label's terms the question holds.
/// `None` when some term of the label is not in the question, or the label and caption leave
/// most of what the question is about unsaid.
fn fit(row: &Row, asked: &HashSet<String>, subject: &HashSet<String>) -> Option<usize> {
    if row.required.is_empty() || !row.required.iter().all(|t| asked.contains(t)) {
        return None;
    }
    let covered = subject.iter().filter(|t| row.label_terms.contains(*t) || row.caption_terms.contains(*t)).count();
    (2 * covered >= subject.len()).then(|| row.label_terms.iter().filter(|t| asked.contains(*t)).count())
}

/// The one row that best fits `words` and has a value under each of `years`, with those values;
/// `None` when no row does, or when rows that fit equally well disagree.
fn pick<'a>(rows: &'a [Row], words: &str, years: &[i32], terms: &mut Terms) -> Option<(&'a Row, Vec<usize>)> {
    let asked: HashSet<String> = terms.of(words).into_iter().collect();
    let subject: HashSet<String> =
        asked.iter().filter(|t| !OPERATION_WORDS.contains(&t.as_str()) && year_of(t).is_none()).cloned().collect();
    let mut best: Option<(usize, &Row, Vec<usize>)> = None;
    let mut tied = false;
    for row in rows {
        let Some(score) = fit(row, &asked, &subject) else { continue };
        // One value under each year, and no year twice among the row's columns.
        let mut at = Vec::with_capacity(years.len());
        for y in years {
            let found: Vec<usize> = (0..row.values.len()).filter(|&i| row.values[i].1 == Some(*y)).collect();
            match found.as_slice() {
                [i] if number(&row.values[*i].2).is_some() => at.push(*i),
                _ => break,
            }
        }
        if at.len() != years.len() {
            continue;
        }
        match &best {
            Some((s, _, _)) if score < *s => {}
            Some((s, kept, kept_at)) if score == *s => {
                let same = at.len() == kept_at.len()
                    && at.iter().zip(kept_at).all(|(a, b)| number(&row.values[*a].2) == number(&kept.values[*b].2));
                tied |= !same;
            }
            _ => {
                best = Some((score, row, at));
                tied = false;
            }
        }
    }
    if tied {
        return None;
    }
    best.map(|(_, row, at)| (row, at))
}

/// The computation a question asks for, from the retrieval's table rows (at most `max_chars`
/// long, as the engine quotes them); `None` when it asks for none or it cannot be done without
/// a guess.
pub fn compute(retrieval: &Retrieval, terms: &mut Terms, max_chars: usize) -> Option<Computation> {
    let asked = asked(&retrieval.question)?;
    let rows = rows(retrieval, terms, max_chars);
    if rows.is_empty() {
        return None;
    }
    let input = |row: &Row, i: usize| {
        let (column, _, written) = &row.values[i];
        Input {
            label: row.label.clone(),
            period: column.clone(),
            written: written.clone(),
            number: number(written).unwrap_or_default(),
            citation: retrieval.passages[row.passage].number,
        }
    };
    let (inputs, picked): (Vec<Input>, Vec<&Row>) = match (&asked.parts, asked.operation) {
        (Some((part, whole)), _) => {
            let (a, at_a) = pick(&rows, part, &asked.years, terms)?;
            let (b, at_b) = pick(&rows, whole, &asked.years, terms)?;
            if std::ptr::eq(a, b) {
                return None;
            }
            (vec![input(a, at_a[0]), input(b, at_b[0])], vec![a, b])
        }
        (None, _) => {
            let mut years = asked.years.clone();
            let (row, _) = pick(&rows, &retrieval.question, &years, terms)?;
            if asked.range && matches!(asked.operation, Operation::Average | Operation::Sum) {
                // The years between the ends, where the row has them.
                let (first, last) = (years[0], years[years.len() - 1]);
                years = (first..=last).filter(|y| row.values.iter().any(|v| v.1 == Some(*y))).collect();
            }
            let (row, at) = pick(&rows, &retrieval.question, &years, terms)?;
            (at.into_iter().map(|i| input(row, i)).collect(), vec![row])
        }
    };
    // A name the question holds ("Blizzard", "IMFT") must be the rows' own: a row of the whole
    // company answers nothing about one segment.
    let named: HashSet<String> =
        picked.iter().flat_map(|r| r.label_terms.iter().chain(&r.caption_terms)).cloned().collect();
    if asked.names.iter().flat_map(|n| terms.of(n)).any(|t| !named.contains(&t)) {
        return None;
    }
    // "the Total operating expense in 2019 and 2018" names the row, not a sum.
    if asked.by_total && picked.iter().any(|r| r.label_terms.contains("total")) {
        return None;
    }
    let percents = inputs.iter().all(|i| i.written.trim_end().ends_with('%'));
    let n: Vec<f64> = inputs.iter().map(|i| i.number).collect();
    let places = inputs.iter().map(|i| decimals(&i.written)).max().unwrap_or(0);
    let points = |v: f64, places: usize| {
        if percents {
            format!("{} percentage points", format(v, places))
        } else {
            format(v, places)
        }
    };
    let percent = |text: String| if percents { format!("{text}%") } else { text };
    let (value, shown) = match asked.operation {
        // Inputs are earliest first: the change runs from the first to the last.
        Operation::Change => {
            let v = n[n.len() - 1] - n[0];
            (v, points(v, places))
        }
        Operation::Decrease => {
            let v = n[0] - n[n.len() - 1];
            (v, points(v, places))
        }
        Operation::PercentageChange => {
            // A change from nothing or from a loss has no percentage a reader would agree on, and
            // one of a percentage may mean its points or its share of itself.
            if n[0] <= 0.0 || percents {
                return None;
            }
            let v = (n[1] - n[0]) / n[0] * 100.0;
            (v, format!("{}%", format(v, 2)))
        }
        Operation::Average => {
            let v = n.iter().sum::<f64>() / n.len() as f64;
            (v, percent(trimmed(v, places.max(2))))
        }
        Operation::Sum => {
            let v = n.iter().sum::<f64>();
            (v, percent(format(v, places)))
        }
        Operation::Share => {
            if n[1] == 0.0 {
                return None;
            }
            let v = n[0] / n[1] * 100.0;
            (v, format!("{}%", format(v, 2)))
        }
        Operation::Ratio => {
            if n[1] == 0.0 {
                return None;
            }
            let v = n[0] / n[1];
            (v, trimmed(v, 2))
        }
    };
    if !value.is_finite() {
        return None;
    }
    Some(Computation { operation: asked.operation, inputs, value, shown })
}

/// [`format`] without trailing zeros after the point.
fn trimmed(value: f64, places: usize) -> String {
    let text = format(value, places);
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    }
}

impl Computation {
    /// The sentence that states the result, marked as computed and citing the inputs' rows:
    /// "Computed from [1]: the change in “Automotive” from 2018 to 2019 is 5,686 − 6,092 = −406."
    pub fn sentence(&self) -> String {
        let values: Vec<String> = self.inputs.iter().map(|i| bare(&i.written)).collect();
        let label = |i: usize| format!("\u{201c}{}\u{201d}", self.inputs[i].label);
        let first = &self.inputs[0];
        let last = &self.inputs[self.inputs.len() - 1];
        let periods = || {
            let names: Vec<&str> = self.inputs.iter().map(|i| i.period.as_str()).collect();
            match names.as_slice() {
                [a, b] => format!("{a} and {b}"),
                _ => format!("{} and {}", names[..names.len() - 1].join(", "), names[names.len() - 1]),
            }
        };
        let statement = match self.operation {
            Operation::Change => format!(
                "the change in {} from {} to {} is {} \u{2212} {} = {}",
                label(0),
                first.period,
                last.period,
                values[values.len() - 1],
                values[0],
                self.shown
            ),
            Operation::Decrease => format!(
                "the decrease in {} from {} to {} is {} \u{2212} {} = {}",
                label(0),
                first.period,
                last.period,
                values[0],
                values[values.len() - 1],
                self.shown
            ),
            Operation::PercentageChange => format!(
                "the percentage change in {} from {} to {} is ({} \u{2212} {}) / {} = {}",
                label(0),
                first.period,
                last.period,
                values[1],
                values[0],
                values[0],
                self.shown
            ),
            Operation::Average => format!(
                "the average of {} over {} is ({}) / {} = {}",
                label(0),
                periods(),
                values.join(" + "),
                values.len(),
                self.shown
            ),
            Operation::Sum => {
                format!("the sum of {} over {} is {} = {}", label(0), periods(), values.join(" + "), self.shown)
            }
            Operation::Share | Operation::Ratio => {
                let (part, whole) = (label(0), label(1));
                let of = match self.operation {
                    Operation::Share => format!("{part} as a percentage of {whole}"),
                    _ => format!("the ratio of {part} to {whole}"),
                };
                format!("{of} in {} is {} / {} = {}", first.period, values[0], values[1], self.shown)
            }
        };
        format!("Computed from {}: {statement}.", crate::compose::marks(&self.citations()))
    }

    /// The passages the inputs are quoted from, each once, in the inputs' order.
    pub fn citations(&self) -> Vec<u32> {
        let mut out: Vec<u32> = Vec::new();
        for i in &self.inputs {
            if !out.contains(&i.citation) {
                out.push(i.citation);
            }
        }
        out
    }

    /// Whether the computation holds against the passages it cites (`passages[n - 1]` being
    /// source `[n]`'s text): each input is written in its cited passage as the computation
    /// quotes it, reads as the number used, and the value follows from the inputs.
    pub fn holds(&self, passages: &[&str]) -> bool {
        let quoted = self.inputs.iter().all(|i| {
            let text = (i.citation as usize).checked_sub(1).and_then(|k| passages.get(k));
            text.is_some_and(|t| t.contains(&i.written)) && number(&i.written) == Some(i.number)
        });
        let n: Vec<f64> = self.inputs.iter().map(|i| i.number).collect();
        let expected = match (self.operation, n.as_slice()) {
            (Operation::Change, [a, .., b]) => Some(b - a),
            (Operation::Decrease, [a, .., b]) => Some(a - b),
            (Operation::PercentageChange, [a, b]) => Some((b - a) / a * 100.0),
            (Operation::Average, n) if !n.is_empty() => Some(n.iter().sum::<f64>() / n.len() as f64),
            (Operation::Sum, n) if !n.is_empty() => Some(n.iter().sum()),
            (Operation::Share, [a, b]) => Some(a / b * 100.0),
            (Operation::Ratio, [a, b]) => Some(a / b),
            _ => None,
        };
        quoted && expected.is_some_and(|e| (e - self.value).abs() <= 1e-9 * e.abs().max(1.0))
    }
}

/// Whether two values agree to two decimals, the precision answers are given in: a computed
/// `value` against a `gold` one written with at most two.
pub fn agrees(value: f64, gold: f64) -> bool {
    ((value * 100.0).round() / 100.0 - gold).abs() < 0.0051
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::retrieve::RetrievedPassage;

    fn retrieval(question: &str, rows: &[&str]) -> Retrieval {
        let passages = rows
            .iter()
            .enumerate()
            .map(|(i, text)| RetrievedPassage {
                number: i as u32 + 1,
                deeplink: "report".into(),
                source_id: "drive".into(),
                category: "drives".into(),
                title: "Annual report".into(),
                published: None,
                ordinal: i as u32,
                page: 1,
                start: 0,
                end: 0,
                boxes: vec![],
                text: text.to_string(),
                marks: vec![],
                relevance: 1.0,
                round: 1,
                table_row: !text.starts_with("Prose:"),
            })
            .collect();
        Retrieval { question: question.into(), passages, ..Retrieval::default() }
    }

    fn computed(question: &str, rows: &[&str]) -> Option<Computation> {
        compute(&retrieval(question, rows), &mut Terms::default(), 600)
    }

    const SALES: &[&str] = &[
        "Fixed Price \u{2014} 2019: $ 1,452.4; 2018: $ 1,146.2; 2017: $ 1,036.9\nYears Ended September 30,",
        "Other \u{2014} 2019: 44.1; 2018: 56.7; 2017: 70.8\nYears Ended September 30,",
        "Total sales \u{2014} 2019: $1,496.5; 2018: $1,202.9; 2017: $1,107.7\nYears Ended September 30,",
    ];

    #[test]
    fn questions_for_arithmetic_are_told_from_questions_for_a_figure() {
        let op = |q: &str| asked(q).map(|a| a.operation);
        assert_eq!(op("What was the change in Other from 2018 to 2019?"), Some(Operation::Change));
        assert_eq!(op("What is the increase/ (decrease) in Revenues from 2018 to 2019?"), Some(Operation::Change));
        assert_eq!(
            op("What was the percentage change in Adjusted EBITDA between 2018 and 2019?"),
            Some(Operation::PercentageChange)
        );
        assert_eq!(op("What is the % increase in revenue from FY18 to FY19?"), Some(Operation::PercentageChange));
        assert_eq!(op("What was the average dividend equivalent from 2018 to 2019?"), Some(Operation::Average));
        assert_eq!(op("What is the total amount of audit fees in both 2018 and 2019?"), Some(Operation::Sum));
        assert_eq!(op("What was the change in the average price from 2018 to 2019?"), Some(Operation::Change));
        assert_eq!(op("What is Automotive as a percentage of Total in 2019?"), Some(Operation::Share));
        assert_eq!(op("What is the ratio of total assets to total liabilities in 2019?"), Some(Operation::Ratio));
        // A figure, not arithmetic; and arithmetic this module does not do.
        assert_eq!(op("What was the total revenue in 2019?"), None);
        assert_eq!(op("What were total sales?"), None);
        assert_eq!(op("What was the change in revenue in the third quarter of 2019?"), None);
        assert_eq!(op("What was the average cost per employee in 2018 and 2019?"), None);
        assert_eq!(asked("What was the change in sales from 2017 to 2019?").unwrap().years, [2017, 2019]);
        let a = asked("What was the average gross profit for 2017-2019?").unwrap();
        assert!(a.range && a.years == [2017, 2019]);
    }

    #[test]
    fn a_change_is_the_later_figure_less_the_earlier_from_the_row_the_question_names() {
        let c = computed("What is the change in Other in 2019 from 2018?", SALES).unwrap();
        assert_eq!(c.operation, Operation::Change);
        assert_eq!(c.inputs.iter().map(|i| i.written.as_str()).collect::<Vec<_>>(), ["56.7", "44.1"]);
        assert_eq!(c.inputs.iter().map(|i| i.period.as_str()).collect::<Vec<_>>(), ["2018", "2019"]);
        assert!(agrees(c.value, -12.6), "{}", c.value);
        assert_eq!(c.shown, "\u{2212}12.6");
        assert_eq!(
            c.sentence(),
            "Computed from [2]: the change in \u{201c}Other\u{201d} from 2018 to 2019 is 44.1 \u{2212} 56.7 = \u{2212}12.6."
        );
        assert!(c.holds(SALES));
    }

    #[test]
    fn percentages_and_averages_are_rounded_to_two_decimals() {
        let c = computed("What was the percentage change in total sales between 2018 and 2019?", SALES).unwrap();
        assert_eq!(c.inputs[0].written, "$1,202.9");
        assert_eq!(c.shown, "24.41%");
        assert!(agrees(c.value, 24.41));
        assert!(!agrees(c.value, 24.4));
        let c = computed("What is the average fixed price sales from 2017 to 2019?", SALES).unwrap();
        assert_eq!(c.inputs.len(), 3, "the range takes 2018 too");
        assert_eq!(c.shown, "1,211.83");
        assert_eq!(
            c.sentence(),
            "Computed from [1]: the average of \u{201c}Fixed Price\u{201d} over 2017, 2018 and 2019 is \
             (1,036.9 + 1,146.2 + 1,452.4) / 3 = 1,211.83."
        );
        let c = computed("What is the sum of Other in 2018 and 2019?", SALES).unwrap();
        assert_eq!(c.shown, "100.8");
        assert_eq!(format(1234567.891, 2), "1,234,567.89");
        assert_eq!(format(-0.004, 2), "0.00");
        assert_eq!(number("(1,234)"), Some(-1234.0));
        assert_eq!(number("$ 5,686"), Some(5686.0));
        assert_eq!(number("21.0%"), Some(21.0));
        assert_eq!(number("n/a"), None);
    }

    #[test]
    fn a_share_takes_two_rows_in_one_period() {
        let c = computed("What is Other as a percentage of total sales in 2019?", SALES).unwrap();
        assert_eq!(c.operation, Operation::Share);
        assert_eq!(c.inputs.iter().map(|i| i.label.as_str()).collect::<Vec<_>>(), ["Other", "Total sales"]);
        assert_eq!(c.shown, "2.95%");
        assert_eq!(c.citations(), [2, 3]);
        assert!(c.holds(SALES));
    }

    #[test]
    fn nothing_is_computed_without_the_inputs_or_when_they_are_ambiguous() {
        // No row is labelled with the question's words.
        assert_eq!(computed("What was the change in operating income from 2018 to 2019?", SALES), None);
        // A year the row has no column for.
        assert_eq!(computed("What was the change in Other from 2016 to 2019?", SALES), None);
        // One year is no change.
        assert_eq!(computed("What was the change in Other in 2019?", SALES), None);
        // Two tables' rows of the same label with different figures: which one is meant is a guess.
        let two = [SALES[1], "Other \u{2014} 2019: 12.0; 2018: 10.0\nSegment costs"];
        assert_eq!(computed("What is the change in Other from 2018 to 2019?", &two), None);
        // The same figures twice (the row in two passages) are no ambiguity.
        let twice = [SALES[1], SALES[1]];
        assert!(computed("What is the change in Other from 2018 to 2019?", &twice).is_some());
        // A year under two columns of one row.
        let doubled = ["Discount rate \u{2014} 2019: 4.00%; 2018: 3.75%; 2019: 1.90%; 2018: 2.80%"];
        assert_eq!(computed("What was the change in the discount rate from 2018 to 2019?", &doubled), None);
        // Figures in prose are not read.
        let prose = ["Prose: Other sales were 44.1 in 2019 and 56.7 in 2018."];
        assert_eq!(computed("What is the change in Other from 2018 to 2019?", &prose), None);
    }

    #[test]
    fn a_decrease_a_row_named_total_a_segment_and_percentages_are_read_as_meant() {
        // "How much did X decrease" is answered as a decrease: the earlier figure less the later.
        let c = computed("How much did Other decrease from 2018 to 2019?", SALES).unwrap();
        assert_eq!(c.operation, Operation::Decrease);
        assert_eq!(c.shown, "12.6");
        assert!(c.sentence().contains("the decrease in \u{201c}Other\u{201d} from 2018 to 2019 is 56.7 \u{2212} 44.1"));
        assert!(c.holds(SALES));
        // "the Total sales in 2019 and 2018" asks for the row's two figures, not their sum.
        assert_eq!(computed("What were the Total sales in 2019 and 2018?", SALES), None);
        assert_eq!(computed("What is the sum of Total sales in 2018 and 2019?", SALES).unwrap().shown, "2,699.4");
        // A segment the row is not of: the company's row answers nothing about it.
        assert_eq!(computed("What was the change in Blizzard total sales from 2018 to 2019?", SALES), None);
        // A change of percentages is in points; their percentage change could mean either.
        let rates = ["Discount rate \u{2014} 2019: 4.00%; 2018: 3.75%"];
        let c = computed("What was the change in the discount rate from 2018 to 2019?", &rates).unwrap();
        assert_eq!(c.shown, "0.25 percentage points");
        assert_eq!(computed("What was the percentage change in the discount rate from 2018 to 2019?", &rates), None);
        // A reason asked for is no figure.
        assert_eq!(computed("Why did Other decrease from 2018 to 2019?", SALES), None);
    }

    #[test]
    fn a_computation_that_misquotes_its_inputs_does_not_hold() {
        let mut c = computed("What is the change in Other in 2019 from 2018?", SALES).unwrap();
        assert!(c.holds(SALES));
        c.inputs[0].citation = 1;
        assert!(!c.holds(SALES), "56.7 is not in passage 1");
        let mut c = computed("What is the change in Other in 2019 from 2018?", SALES).unwrap();
        c.value += 1.0;
        assert!(!c.holds(SALES));
    }
}
