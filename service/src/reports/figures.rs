//! Key figures by period for a report's financial section, each read from the evidence and
//! cited to the passage it was read from.
//!
//! Figures come from the tables the files hold, as extraction leaves them in a passage's text:
//! a row per line, cells separated by tabs (DOCX, XLSX), " | " or runs of spaces (PDF text), empty
//! cells gone (cleaning folds runs of tabs into one). A header row names the periods ("2019",
//! "FY24", "March 31, 2024"); the rows under it are a label and its values, aligned with the
//! periods from the right (the label column and empty corner cells are what goes missing), or
//! one value per period when each period spans as many columns. A row that cannot be aligned
//! without guessing gives nothing. A passage cut from a longer table is read under the header in
//! the text before it ([`Evidence::before`]). Where the evidence holds no table, figures come from
//! sentences that name a key metric, one period and one value ("revenue grew 14 percent to 48,200
//! crore in the year to March 2024"). Every figure is the passage's own text, so the passage it
//! cites contains it word for word.
//!
//! The tables are read with `search::tables`, which the index also reads them with to keep each
//! row as a passage of its own.
//!
//! Pure and synchronous: call it off the async runtime with the rest of a section's writing.

use std::collections::HashMap;

use search::tables::{align, cells, data_row, header, is_note_mark, is_period, is_value, read_row, MONTHS};

/// The most periods (columns) a key-figure table shows: the first ones the evidence names,
/// which financial tables list newest first.
pub const MAX_PERIODS: usize = 5;
/// The most metrics (rows) it shows.
pub const MAX_ROWS: usize = 12;
/// Words that make a row a key figure: what an analyst reads first in a financial section.
const KEY_TERMS: &[&str] = &[
    "revenue",
    "sales",
    "turnover",
    "income",
    "profit",
    "loss",
    "ebitda",
    "ebit",
    "earnings",
    "eps",
    "per share",
    "margin",
    "debt",
    "borrowing",
    "cash",
    "assets",
    "liabilities",
    "equity",
    "net worth",
    "expense",
    "cost",
    "dividend",
    "interest",
    "tax",
    "capital expenditure",
    "capex",
    "operating",
];
/// The metrics a sentence may state, longest first so that "EBITDA margin" is not read as
/// "EBITDA"; each with the name the table shows.
const SENTENCE_METRICS: &[(&str, &str)] = &[
    ("ebitda margin", "EBITDA margin"),
    ("operating margin", "Operating margin"),
    ("net margin", "Net margin"),
    ("earnings per share", "EPS"),
    ("net profit", "Net profit"),
    ("net income", "Net income"),
    ("operating profit", "Operating profit"),
    ("operating income", "Operating income"),
    ("total debt", "Total debt"),
    ("net debt", "Net debt"),
    ("ebitda", "EBITDA"),
    ("revenue", "Revenue"),
    ("revenues", "Revenue"),
    ("sales", "Sales"),
    ("eps", "EPS"),
    ("debt", "Debt"),
];
/// Words that lead from a metric to its value in a sentence ("rose to", "stood at", "was").
const LEADS: &[&str] = &["to", "of", "at", "was", "were", "is", "reached", "totalled", "totaled"];
/// Units a sentence's value may carry after its number.
const UNITS: &[&str] = &["percent", "per cent", "%", "crore", "lakh", "million", "billion", "bn", "mn", "cr", "times"];

/// A passage as the figures read it: its number (what a citation names) and its text.
#[derive(Debug, Clone, Copy)]
pub struct Evidence<'a> {
    pub number: u32,
    pub text: &'a str,
    /// The document's text just before the passage ("" when not known): a table the passage
    /// continues ([`continues_table`]) names its periods there, in a header the passage lacks.
    /// Only read for that header; no figure is taken from it.
    pub before: &'a str,
}

impl<'a> Evidence<'a> {
    /// A passage read on its own.
    pub fn new(number: u32, text: &'a str) -> Evidence<'a> {
        Evidence { number, text, before: "" }
    }
}

/// Whether `text` begins inside a table: a row of figures comes before any header naming
/// periods (the passage was cut from a longer table, whose header is in the text before it).
pub fn continues_table(text: &str) -> bool {
    for line in text.lines() {
        let Some(row) = cells(line) else {
            if line.split_whitespace().count() >= 8 {
                return false;
            }
            continue;
        };
        if header(&row).is_some() {
            return false;
        }
        if data_row(&row).is_some() {
            return true;
        }
    }
    false
}

/// One figure as the evidence states it, and the passage it is read from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cell {
    /// The value word for word (whitespace folded), units and signs as written.
    pub value: String,
    pub citation: u32,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MetricRow {
    /// The row's label as the evidence writes it.
    pub metric: String,
    /// One per period of the table, in its order.
    pub cells: Vec<Option<Cell>>,
}

/// A table of key figures: metrics down, periods across.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KeyFigures {
    pub periods: Vec<String>,
    pub rows: Vec<MetricRow>,
}

struct Figure {
    metric: String,
    period: String,
    cell: Cell,
    key: bool,
}

impl KeyFigures {
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// Every figure: metric, period and cell.
    pub fn figures(&self) -> impl Iterator<Item = (&str, &str, &Cell)> + '_ {
        self.rows.iter().flat_map(move |row| {
            row.cells
                .iter()
                .zip(&self.periods)
                .filter_map(move |(cell, period)| cell.as_ref().map(|c| (row.metric.as_str(), period.as_str(), c)))
        })
    }

    /// The passages cited, in order of first use (row by row).
    pub fn citations(&self) -> Vec<u32> {
        let mut out = Vec::new();
        for (_, _, cell) in self.figures() {
            if !out.contains(&cell.citation) {
                out.push(cell.citation);
            }
        }
        out
    }

    /// The table as markdown, each figure followed by its citation as `number` maps it (the
    /// section's or the report's numbering). Empty when there is no figure.
    pub fn markdown(&self, number: impl Fn(u32) -> u32) -> String {
        if self.is_empty() {
            return String::new();
        }
        let escape = |s: &str| s.replace('|', "\\|");
        let mut out = format!("{CAPTION}\n\n| Figure |");
        for p in &self.periods {
            out.push_str(&format!(" {} |", escape(p)));
        }
        out.push_str("\n|---|");
        out.push_str(&"---|".repeat(self.periods.len()));
        for row in &self.rows {
            out.push_str(&format!("\n| {} |", escape(&row.metric)));
            for cell in &row.cells {
                match cell {
                    Some(c) => out.push_str(&format!(" {} [{}] |", escape(&c.value), number(c.citation))),
                    None => out.push_str(" |"),
                }
            }
        }
        out
    }
}

/// What a section's markdown says before its key figures.
pub const CAPTION: &str = "**Key figures**";

impl KeyFigures {
    /// Reads back a table [`KeyFigures::markdown`] wrote inside `markdown` (citations as
    /// written there), so a report can renumber a section's table when it is assembled.
    pub fn from_markdown(markdown: &str) -> Option<KeyFigures> {
        let at = markdown.find(CAPTION)?;
        let mut lines = markdown[at + CAPTION.len()..].lines().map(str::trim).filter(|l| l.starts_with('|'));
        let head = split_row(lines.next()?);
        let periods: Vec<String> = head.into_iter().skip(1).collect();
        lines.next()?;
        let mut rows = Vec::new();
        for line in lines {
            let mut parts = split_row(line).into_iter();
            let metric = parts.next()?;
            let cells = parts
                .map(|c| {
                    let (value, number) = c.rsplit_once(" [")?;
                    let citation = number.strip_suffix(']')?.parse().ok()?;
                    Some(Cell { value: value.to_string(), citation })
                })
                .collect::<Vec<_>>();
            if cells.len() != periods.len() {
                return None;
            }
            rows.push(MetricRow { metric, cells });
        }
        Some(KeyFigures { periods, rows })
    }

    /// The figures as JSON, citations as `number` maps them: `{periods, rows: [{metric, cells:
    /// [{value, citation} | null]}]}`.
    pub fn to_json(&self, number: impl Fn(u32) -> u32) -> serde_json::Value {
        let rows: Vec<serde_json::Value> = self
            .rows
            .iter()
            .map(|r| {
                let cells: Vec<serde_json::Value> = r
                    .cells
                    .iter()
                    .map(|c| match c {
                        Some(c) => serde_json::json!({"value": c.value, "citation": number(c.citation)}),
                        None => serde_json::Value::Null,
                    })
                    .collect();
                serde_json::json!({"metric": r.metric, "cells": cells})
            })
            .collect();
        serde_json::json!({"periods": self.periods, "rows": rows})
    }
}

/// The cells of a markdown table row, `\|` read as a bar inside a cell.
fn split_row(line: &str) -> Vec<String> {
    let inner = line.trim().strip_prefix('|').unwrap_or(line).trim_end();
    let inner = inner.strip_suffix('|').filter(|i| !i.ends_with('\\')).unwrap_or(inner);
    let mut out = Vec::new();
    let mut cell = String::new();
    let mut chars = inner.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'|') => {
                cell.push('|');
                chars.next();
            }
            '|' => out.push(std::mem::take(&mut cell).trim().to_string()),
            _ => cell.push(c),
        }
    }
    out.push(cell.trim().to_string());
    out
}

/// The key figures the passages hold: from their tables, or, when they hold none, from their
/// sentences.
pub fn key_figures(passages: &[Evidence<'_>]) -> KeyFigures {
    let mut figures: Vec<Figure> = passages.iter().flat_map(table_figures).collect();
    if figures.is_empty() {
        figures = passages.iter().flat_map(sentence_figures).collect();
    }
    // Key rows when there are any; otherwise whatever the tables hold.
    if figures.iter().any(|f| f.key) {
        figures.retain(|f| f.key);
    }
    arrange(figures)
}

/// Figures into a table: periods and metrics in order of first appearance, the first figure
/// for a metric and period kept (the passages come most relevant first).
fn arrange(figures: Vec<Figure>) -> KeyFigures {
    let mut periods: Vec<String> = Vec::new();
    let mut metrics: Vec<String> = Vec::new();
    let mut by_metric: HashMap<String, usize> = HashMap::new();
    let mut cells: HashMap<(usize, usize), Cell> = HashMap::new();
    for f in figures {
        let period = match periods.iter().position(|p| same(p, &f.period)) {
            Some(i) => i,
            None if periods.len() < MAX_PERIODS => {
                periods.push(f.period.clone());
                periods.len() - 1
            }
            None => continue,
        };
        let key = fold(&f.metric);
        let metric = match by_metric.get(&key) {
            Some(i) => *i,
            None if metrics.len() < MAX_ROWS => {
                metrics.push(f.metric.clone());
                by_metric.insert(key, metrics.len() - 1);
                metrics.len() - 1
            }
            None => continue,
        };
        cells.entry((metric, period)).or_insert(f.cell);
    }
    let rows = metrics
        .into_iter()
        .enumerate()
        .map(|(m, metric)| MetricRow { metric, cells: (0..periods.len()).map(|p| cells.remove(&(m, p))).collect() })
        .filter(|r| r.cells.iter().any(Option::is_some))
        .collect();
    KeyFigures { periods, rows }
}

fn fold(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase().trim_end_matches(':').to_string()
}

fn same(a: &str, b: &str) -> bool {
    fold(a) == fold(b)
}

fn is_key(label: &str) -> bool {
    let lower = label.to_lowercase();
    KEY_TERMS.iter().any(|t| {
        lower.match_indices(t).any(|(at, _)| {
            let before = lower[..at].chars().next_back();
            let after = lower[at + t.len()..].chars().next();
            !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(|c| c.is_alphanumeric() && c != 's')
        })
    })
}

/// The figures of the tables in one passage.
fn table_figures(passage: &Evidence<'_>) -> Vec<Figure> {
    let mut out = Vec::new();
    let mut current: Option<Vec<String>> = None;
    // The text before the passage only sets the header its first rows are under.
    let before = passage.before.lines().count();
    for (n, line) in passage.before.lines().chain(passage.text.lines()).enumerate() {
        // A table row the index keeps as a passage of its own, under its periods.
        // (A line of the page whose blank cell is a dash, "Other — 17", is read as cells below.)
        let rendered = read_row(line).filter(|(_, values)| n >= before && values.iter().any(|(c, _)| c.is_some()));
        if let Some((label, values)) = rendered {
            let key = is_key(&label);
            for (period, value) in values {
                if let Some(period) = period.filter(|p| is_period(p)) {
                    let cell = Cell { value, citation: passage.number };
                    out.push(Figure { metric: label.clone(), period, cell, key });
                }
            }
            continue;
        }
        let Some(row) = cells(line) else {
            // Prose ends a table; a short line (a caption, a unit note) does not.
            if line.split_whitespace().count() >= 8 {
                current = None;
            }
            continue;
        };
        if let Some(h) = header(&row) {
            current = Some(h);
            continue;
        }
        let (Some(h), Some((label, values)), true) = (&current, data_row(&row), n >= before) else {
            continue;
        };
        // A note mark after the label ("Total debt (1)") is the label's when that aligns the row.
        let (label, values) = match values.first() {
            Some(Some(mark)) if is_note_mark(mark) && values.len() > 1 && align(h, values.len() - 1).is_some() => {
                (format!("{label} {mark}"), values[1..].to_vec())
            }
            _ => (label, values),
        };
        let Some(periods) = align(h, values.len()) else {
            continue;
        };
        let key = is_key(&label);
        for (value, period) in values.into_iter().zip(periods) {
            if let (Some(value), Some(period)) = (value, period) {
                out.push(Figure { metric: label.clone(), period, cell: Cell { value, citation: passage.number }, key });
            }
        }
    }
    out
}

/// The figures stated by sentences of one passage: a key metric, then (within a few words) a
/// lead word and a value, in a sentence naming exactly one period.
fn sentence_figures(passage: &Evidence<'_>) -> Vec<Figure> {
    let mut out = Vec::new();
    for range in assistant::text::sentences(passage.text, false) {
        let sentence = assistant::text::normalize(&passage.text[range]);
        if sentence.contains('\t') {
            continue;
        }
        let Some(period) = one_period(&sentence) else {
            continue;
        };
        let words: Vec<&str> = sentence.split(' ').collect();
        let lower: Vec<String> =
            words.iter().map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()).to_lowercase()).collect();
        let mut i = 0;
        while i < words.len() {
            let found = SENTENCE_METRICS.iter().find(|(phrase, _)| {
                let parts: Vec<&str> = phrase.split(' ').collect();
                i + parts.len() <= lower.len() && parts.iter().enumerate().all(|(k, p)| lower[i + k] == *p)
            });
            let Some((phrase, name)) = found else {
                i += 1;
                continue;
            };
            let after = i + phrase.split(' ').count();
            if let Some(value) = value_after(&words, &lower, after) {
                if passage.text.contains(&value) || assistant::text::normalize(passage.text).contains(&value) {
                    out.push(Figure {
                        metric: name.to_string(),
                        period: period.clone(),
                        cell: Cell { value, citation: passage.number },
                        key: true,
                    });
                }
            }
            i = after;
        }
    }
    out
}

/// The value a metric leads to: within six words, a lead word then a number and its unit.
fn value_after(words: &[&str], lower: &[String], from: usize) -> Option<String> {
    let end = (from + 6).min(words.len());
    for j in from..end {
        if !LEADS.contains(&lower[j].as_str()) {
            continue;
        }
        let raw = words.get(j + 1)?;
        let mut value = raw.trim_end_matches([',', '.', ';', ':']).to_string();
        let mut k = j + 2;
        // "Rs 48,200", "$ 1.2": a currency word before the number.
        if !is_value(&value) && k < words.len() && ["rs", "rs.", "inr", "$", "usd"].contains(&lower[j + 1].as_str()) {
            value = format!("{} {}", raw, words[k].trim_end_matches([',', '.', ';', ':']));
            k += 1;
        }
        if !is_value(&value) {
            return None;
        }
        if value.ends_with(|c: char| c.is_ascii_digit()) && k < words.len() {
            let next = words[k].trim_end_matches([',', '.', ';', ':', ')']);
            let unit = UNITS.iter().find(|u| next.eq_ignore_ascii_case(u) || (**u == "per cent" && next == "per"));
            if let Some(unit) = unit {
                value = if *unit == "per cent" { format!("{value} per cent") } else { format!("{value} {next}") };
            }
        }
        return Some(value);
    }
    None
}

/// The one period a sentence names ("March 2024", "FY24", "2019"); `None` for none or several.
fn one_period(sentence: &str) -> Option<String> {
    let words: Vec<&str> = sentence.split(' ').map(|w| w.trim_matches(|c: char| !c.is_alphanumeric())).collect();
    let mut found: Vec<String> = Vec::new();
    for (i, w) in words.iter().enumerate() {
        if w.is_empty() || !is_period(w) || w.contains(',') {
            continue;
        }
        let month = i.checked_sub(1).map(|p| words[p]).filter(|m| MONTHS.contains(&m.to_lowercase().as_str()));
        let period = match month {
            Some(m) => format!("{m} {w}"),
            None => w.to_string(),
        };
        if !found.contains(&period) {
            found.push(period);
        }
    }
    (found.len() == 1).then(|| found.remove(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn evidence<'a>(texts: &[&'a str]) -> Vec<Evidence<'a>> {
        texts.iter().enumerate().map(|(i, t)| Evidence::new(i as u32 + 1, t)).collect()
    }

    #[test]
    fn a_table_of_tab_separated_cells_gives_figures_by_period_each_cited() {
        // As cleaning leaves a DOCX or XLSX table: empty corner cells gone.
        let text = "Sales by contract type.\nYears Ended September 30,\n2019\t2018\t2017\n\
                    Fixed Price\t$ 1,452.4\t$ 1,146.2\t$ 1,036.9\nOther\t44.1\t56.7\t70.8\n\
                    Total sales\t$1,496.5\t$1,202.9\t$1,107.7";
        let got = key_figures(&evidence(&["The company sells steel.", text]));
        assert_eq!(got.periods, vec!["2019", "2018", "2017"]);
        // Only the key row: sales.
        assert_eq!(got.rows.len(), 1, "{got:?}");
        assert_eq!(got.rows[0].metric, "Total sales");
        assert_eq!(got.rows[0].cells[0], Some(Cell { value: "$1,496.5".into(), citation: 2 }));
        assert_eq!(got.citations(), vec![2]);
        let md = got.markdown(|n| n + 10);
        assert!(md.contains("| Figure | 2019 | 2018 | 2017 |"), "{md}");
        assert!(md.contains("| Total sales | $1,496.5 [12] | $1,202.9 [12] | $1,107.7 [12] |"), "{md}");
    }

    #[test]
    fn a_table_row_passage_gives_its_figures_by_period() {
        let row = "Total sales \u{2014} 2019: $1,496.5; 2018: $1,202.9; Change: 24%\nYears Ended September 30,";
        let got = key_figures(&evidence(&[row]));
        assert_eq!(got.periods, ["2019", "2018"]);
        assert_eq!(got.rows.len(), 1);
        assert_eq!(got.rows[0].metric, "Total sales");
        let values: Vec<_> =
            got.rows[0].cells.iter().map(|c| c.as_ref().map(|c| (c.value.as_str(), c.citation))).collect();
        assert_eq!(values, [Some(("$1,496.5", 1)), Some(("$1,202.9", 1))]);
    }

    #[test]
    fn a_table_reads_back_from_its_markdown_with_its_citations() {
        let text = "FY24\tFY23\nRevenue | net\t48,200\t42,280\nEBITDA\t8,194\t-";
        let got = key_figures(&evidence(&["intro", text]));
        let md = format!("Revenue grew. [1]\n\n{}", got.markdown(|n| n * 3));
        let back = KeyFigures::from_markdown(&md).expect("a table");
        assert_eq!(back.periods, got.periods);
        assert_eq!(back.rows[0].metric, "Revenue | net");
        assert_eq!(back.rows[0].cells[0], Some(Cell { value: "48,200".into(), citation: 6 }));
        assert_eq!(back.rows[1].cells[1], None);
        assert_eq!(KeyFigures::from_markdown("no table here"), None);
    }

    #[test]
    fn rows_without_key_words_stand_in_when_no_row_has_them() {
        let text = "2019\t2018\nFixed Price\t1,452.4\t1,146.2\nOther\t44.1\t56.7";
        let got = key_figures(&evidence(&[text]));
        assert_eq!(got.rows.iter().map(|r| r.metric.as_str()).collect::<Vec<_>>(), vec!["Fixed Price", "Other"]);
    }

    #[test]
    fn a_period_spanning_two_columns_takes_its_first_and_a_label_corner_is_skipped() {
        let spanning = "2019\t2018\nAmount\t% of revenue\tAmount\t% of revenue\nRevenue\t100.5\t50%\t90.1\t45%";
        let got = key_figures(&evidence(&[spanning]));
        let cells: Vec<_> = got.figures().map(|(m, p, c)| (m, p, c.value.as_str())).collect();
        assert_eq!(cells, vec![("Revenue", "2019", "100.5"), ("Revenue", "2018", "90.1")]);
        let corner = "(in millions) | FY2024 | FY2023\nNet profit | (3.2) | 4.1";
        let got = key_figures(&evidence(&[corner]));
        let cells: Vec<_> = got.figures().map(|(m, p, c)| (m, p, c.value.as_str())).collect();
        assert_eq!(cells, vec![("Net profit", "FY2024", "(3.2)"), ("Net profit", "FY2023", "4.1")]);
    }

    #[test]
    fn a_row_that_cannot_be_aligned_gives_nothing() {
        // Three periods and a change column; a row missing one value (its cell was empty).
        let text = "2019\t2018\t2017\t% Change\nRevenue\t10.0\t9.0\t8.0\t11%\nProfit\t2.0\t1.0";
        let got = key_figures(&evidence(&[text]));
        let cells: Vec<_> = got.figures().map(|(m, p, c)| (m, p, c.value.as_str())).collect();
        assert_eq!(cells, vec![("Revenue", "2019", "10.0"), ("Revenue", "2018", "9.0"), ("Revenue", "2017", "8.0")]);
    }

    #[test]
    fn figures_come_from_sentences_when_the_evidence_has_no_table() {
        let text = "In the year to March 2024 revenue grew 14 percent to 48,200 crore and net profit grew 9 percent \
                    to 3,100 crore. The EBITDA margin fell to 17 percent from 19 percent as coking coal costs rose.";
        let got = key_figures(&evidence(&[text]));
        let cells: Vec<_> = got.figures().map(|(m, p, c)| (m, p, c.value.as_str(), c.citation)).collect();
        assert_eq!(
            cells,
            vec![("Revenue", "March 2024", "48,200 crore", 1), ("Net profit", "March 2024", "3,100 crore", 1)],
            "the margin's sentence names no period"
        );
    }

    #[test]
    fn a_sentence_naming_two_periods_gives_no_figure() {
        let text = "Revenue rose to $1.2 billion in 2019 from $1.0 billion in 2018.";
        assert!(key_figures(&evidence(&[text])).is_empty());
    }

    #[test]
    fn every_figure_is_found_word_for_word_in_the_passage_it_cites() {
        let texts = [
            "Particulars\tFY24\tFY23\nRevenue from operations\t₹ 48,200 cr\t₹ 42,280 cr\nEBITDA\t8,194\t8,033\n\
             EBITDA margin\t17.0%\t19.0%\nEPS (Rs)\t31.2\t28.6",
            "Net debt | 12,400 | 13,100",
        ];
        let got = key_figures(&evidence(&texts));
        assert_eq!(got.rows.len(), 4, "{got:?}");
        for (_, _, cell) in got.figures() {
            let text = assistant::text::normalize(texts[cell.citation as usize - 1]);
            assert!(text.contains(&cell.value), "{} in passage {}", cell.value, cell.citation);
        }
    }

    #[test]
    fn a_table_of_pdf_text_with_single_spaces_gives_the_same_figures() {
        let text = "Years Ended September 30,\n2019 2018 2017\nFixed Price $ 1,452.4 $ 1,146.2 $ 1,036.9\n\
                    Total sales $1,496.5 $1,202.9 $1,107.7\nOperating margin 12.5 % 11.0 % 9.8 %";
        let got = key_figures(&evidence(&[text]));
        let cells: Vec<_> = got.figures().map(|(m, p, c)| (m, p, c.value.as_str())).collect();
        assert_eq!(
            cells,
            vec![
                ("Total sales", "2019", "$1,496.5"),
                ("Total sales", "2018", "$1,202.9"),
                ("Total sales", "2017", "$1,107.7"),
                ("Operating margin", "2019", "12.5 %"),
                ("Operating margin", "2018", "11.0 %"),
                ("Operating margin", "2017", "9.8 %"),
            ]
        );
        // Prose ending in a number is no row.
        assert_eq!(cells_of("The company employs about 2,500 people across its nine plants in 2019"), None);
    }

    #[test]
    fn a_spaced_header_of_dates_gives_one_cell_per_date() {
        let cells = |line: &str| cells_of(line).unwrap_or_default();
        assert_eq!(
            cells("(Dollars in Millions) April 27, 2019 April 28, 2018"),
            ["(Dollars in Millions)", "April 27, 2019", "April 28, 2018"]
        );
        assert_eq!(cells("31 March 2019 31 March 2018"), ["31 March 2019", "31 March 2018"]);
        assert_eq!(
            cells("Balance Sheet January 3, 2020 December 28, 2018"),
            ["Balance Sheet", "January 3, 2020", "December 28, 2018"]
        );
        // Bare years and rows of figures are read as before.
        assert_eq!(cells("2019 2018 2017"), ["2019", "2018", "2017"]);
        assert_eq!(cells("Revenue 1,200 2019"), ["Revenue", "1,200", "2019"]);
        let text = "(in millions) April 27, 2019 April 28, 2018\nRevenues $1,073.3 $1,095.0\nNet income $106.4 $70.5";
        let got = key_figures(&evidence(&[text]));
        let figures: Vec<_> = got.figures().map(|(m, p, c)| (m, p, c.value.as_str())).collect();
        assert!(figures.contains(&("Revenues", "April 28, 2018", "$1,095.0")), "{figures:?}");
        assert!(figures.contains(&("Net income", "April 27, 2019", "$106.4")), "{figures:?}");
        // A horizontal bar is a blank cell too.
        assert_eq!(cells("Other revenue ― 6,320"), ["Other revenue", "―", "6,320"]);
        // A blank value with its currency sign is a blank cell.
        assert_eq!(
            cells("Foreign government obligations $129,499 $—"),
            ["Foreign government obligations", "$129,499", "$—"]
        );
    }

    fn figures_of(texts: &[&str]) -> Vec<(String, String, String)> {
        key_figures(&evidence(texts)).figures().map(|(m, p, c)| (m.into(), p.into(), c.value.clone())).collect()
    }

    fn figure(metric: &str, period: &str, value: &str) -> (String, String, String) {
        (metric.into(), period.into(), value.into())
    }

    #[test]
    fn a_date_before_bare_years_belongs_to_the_label() {
        let cells = |line: &str| cells_of(line).unwrap_or_default();
        assert_eq!(
            cells("Years Ended December 31, 2019 2018 2017"),
            ["Years Ended December 31,", "2019", "2018", "2017"]
        );
        assert_eq!(cells("For the year ended June 30: 2020 2019"), ["For the year ended June 30:", "2020", "2019"]);
        assert_eq!(cells("AS AT 31 MARCH 2021 2020"), ["AS AT 31 MARCH", "2021", "2020"]);
        let got = figures_of(&["As of December 31, 2021 2020\nTotal assets $5,118 $6,280"]);
        assert_eq!(got, [figure("Total assets", "2021", "$5,118"), figure("Total assets", "2020", "$6,280")]);
    }

    #[test]
    fn a_note_mark_stays_with_its_label_or_its_period() {
        let got = figures_of(&["2021 2020\nTotal debt (2) $24,600 $25,600\nNet revenue(1) 900 800"]);
        assert_eq!(
            got,
            [
                figure("Total debt (2)", "2021", "$24,600"),
                figure("Total debt (2)", "2020", "$25,600"),
                figure("Net revenue(1)", "2021", "900"),
                figure("Net revenue(1)", "2020", "800"),
            ]
        );
        assert_eq!(
            cells_of("Quarters Ended March 28, 2021 (1) December 27, 2020").unwrap_or_default(),
            ["Quarters Ended", "March 28, 2021 (1)", "December 27, 2020"]
        );
        // A label's own bracket holding a number is no figure.
        let got = figures_of(&["FY21 FY20\nEmissions (Scope 1) 59,495 66,336"]);
        assert_eq!(got[0], figure("Emissions (Scope 1)", "FY21", "59,495"));
    }

    #[test]
    fn columns_between_periods_are_read_and_the_outer_values_are_the_periods() {
        let cells = |line: &str| cells_of(line).unwrap_or_default();
        assert_eq!(cells("(in millions) 2021 Change 2020"), ["(in millions)", "2021", "Change", "2020"]);
        assert_eq!(
            cells("($ in thousands) 2021 2020 % Change 2021 vs. 2020 % Change 2020 vs. 2019"),
            ["($ in thousands)", "2021", "2020", "% Change 2021 vs. 2020", "% Change 2020 vs. 2019"]
        );
        for column in ["2021 versus 2020", "% Change 2021", "2020 to 2021"] {
            assert!(!is_period(column), "{column}");
        }
        // Two columns named by two words between the periods: four values to three cells.
        let text = "(in millions) 2021 Actual Constant 2020\nOperating expenses $2,082 3% 4% $2,025\n\
                    Revenue $9,000 (2)% 1% $9,150";
        assert_eq!(
            figures_of(&[text]),
            [
                figure("Operating expenses", "2021", "$2,082"),
                figure("Operating expenses", "2020", "$2,025"),
                figure("Revenue", "2021", "$9,000"),
                figure("Revenue", "2020", "$9,150"),
            ]
        );
        let text = "(in millions) 2021 Change 2020\nNet sales $14,551 -5% $15,386";
        assert_eq!(
            figures_of(&[text]),
            [figure("Net sales", "2021", "$14,551"), figure("Net sales", "2020", "$15,386")]
        );
        // Periods first, then two columns named by two words.
        let text = "(in millions) 2021 2020 Dollar Percent\nNet sales $2,280 $1,664 $616 37%";
        assert_eq!(figures_of(&[text]), [figure("Net sales", "2021", "$2,280"), figure("Net sales", "2020", "$1,664")]);
    }

    #[test]
    fn a_range_of_years_of_life_is_a_column_not_part_of_the_label() {
        let text = "Useful life 2021 2020\nComputer equipment 3-5 14,689 14,058\nBuildings 20–40 7,201 7,450";
        let got = figures_of(&[text]);
        assert_eq!(got[0], figure("Computer equipment", "2021", "14,689"));
        assert_eq!(got[3], figure("Buildings", "2020", "7,450"));
    }

    #[test]
    fn prose_naming_years_is_no_header() {
        let line = "Other items during the year ended December 31, 2021 were due to acquisitions in 2021 and 2020.";
        assert_eq!(cells_of(line), None);
        assert!(figures_of(&[&format!("{line}\nAmerica 1,000 900")]).is_empty());
    }

    #[test]
    fn a_part_of_a_table_cut_from_its_header_is_read_under_the_header_before_it() {
        let first = "Consolidated results\n(in millions) 2021 2020\nRevenue 9,000 8,100\nCost of sales (5,000) (4,700)";
        let second = "Operating income 1,200 1,050\nNet income 800 700";
        assert!(continues_table(second));
        assert!(!continues_table(first));
        // Read alone it gives nothing; after the passage before it, its rows get their periods,
        // each cited to the passage holding it, not to the one holding the header.
        assert!(key_figures(&[Evidence::new(2, second)]).is_empty());
        let got = key_figures(&[Evidence { number: 2, text: second, before: first }]);
        let cells: Vec<_> = got.figures().map(|(m, p, c)| (m, p, c.value.as_str(), c.citation)).collect();
        assert_eq!(
            cells,
            [
                ("Operating income", "2021", "1,200", 2),
                ("Operating income", "2020", "1,050", 2),
                ("Net income", "2021", "800", 2),
                ("Net income", "2020", "700", 2),
            ]
        );
        // Prose between the header and the passage ends the table.
        let prose = "The board met four times during the year to review the results of the group.";
        let before = format!("{first}\n{prose}");
        assert!(key_figures(&[Evidence { number: 2, text: second, before: &before }]).is_empty());
    }

    fn cells_of(line: &str) -> Option<Vec<String>> {
        cells(line)
    }

    #[test]
    fn values_and_periods_are_told_apart() {
        for v in ["$ 1,452.4", "(3.2)", "12.5%", "-7", "48,200", "₹ 48,200 cr", "1.2x", "0.25"] {
            assert!(is_value(v), "{v}");
        }
        for v in ["Revenue", "2019 Notes", "1,2,3,4", "12.5.6", "$"] {
            assert!(!is_value(v), "{v}");
        }
        for p in ["2019", "FY24", "Q3 FY2024", "March 31, 2024", "2019/20", "Fiscal 2018"] {
            assert!(is_period(p), "{p}");
        }
        for p in ["2,019", "Amount", "% Change", "12.5"] {
            assert!(!is_period(p), "{p}");
        }
    }
}
