//! Reading the tables a document's text holds, as extraction leaves them: a row per line, cells
//! separated by tabs (DOCX, XLSX), " | " or runs of spaces (PDF text), or a label followed by
//! figures separated by single spaces (PDF text once cleaned); empty cells gone (cleaning folds
//! runs of tabs into one).
//!
//! - [`cells`], [`header`], [`data_row`], [`align`]: a line's cells, a header naming periods, a
//!   label with its values, and which period each value falls under. The report's key figures
//!   read tables with these.
//! - [`rows`]: each row of the tables of a text, rendered to be read on its own, under its
//!   column headers and the table's caption ("Total sales — 2019: $1,496.5; 2018:
//!   $1,202.9"). The index keeps each as a passage of its own (see [`crate::passages`]), so a
//!   question about one figure finds, and an answer cites, the row that holds it.

use std::ops::Range;

/// The cells of a line of a table: split at tabs, at " | ", or at runs of two or more spaces;
/// failing those, a label followed by figures or periods separated by single spaces (PDF text
/// after cleaning). `None` for a line that is not a row of cells.
pub fn cells(line: &str) -> Option<Vec<String>> {
    let line = line.trim();
    let parts: Vec<&str> = if line.contains('\t') {
        line.split('\t').collect()
    } else if line.contains(" | ") || line.starts_with('|') {
        line.trim_matches('|').split('|').collect()
    } else if line.contains("  ") {
        line.split("  ").collect()
    } else {
        return spaced_header(line).or_else(|| spaced_cells(line));
    };
    let out: Vec<String> =
        parts.iter().map(|p| p.split_whitespace().collect::<Vec<_>>().join(" ")).filter(|p| !p.is_empty()).collect();
    (out.len() >= 2).then_some(out)
}

/// Month names as periods name them, lowercase.
pub const MONTHS: &[&str] = &[
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
];
/// Their abbreviations in table headers, lowercase.
const MONTH_ABBREVIATIONS: &[&str] =
    &["jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec"];

/// A header row whose cells are separated by single spaces and name two or more periods, some
/// of several words ("April 27, 2019 April 28, 2018", "Balance Sheet 31 March 2019 31 March
/// 2018"), or with other columns between them ("2019 Change 2018", "2019 2018 % Change 2019
/// versus 2018"): each period ends at its year and takes the month and day words before it (and a
/// note mark after it, "July 27, 2019 (1)"); words before the first period are the label cell, and
/// words between periods one column, closed by a comparison of two years ("2019 versus 2018").
/// When only the first year has a month and day ("Years Ended December 31, 2019 2018"), they
/// belong to the label. `None` for a line holding a figure, or of bare years only, which
/// [`spaced_cells`] reads.
fn spaced_header(line: &str) -> Option<Vec<String>> {
    let bare = |t: &str| t.trim_matches(|c: char| !c.is_alphanumeric()).to_lowercase();
    let year = |t: &str| {
        let b = bare(t);
        b.len() == 4 && b.parse::<u32>().is_ok_and(|y| (1950..=2049).contains(&y)) && !t.contains('.')
    };
    let month = |t: &str| MONTHS.contains(&bare(t).as_str()) || MONTH_ABBREVIATIONS.contains(&bare(t).as_str());
    let day = |t: &str| {
        let b = bare(t);
        !t.contains('.') && !t.ends_with(':') && b.parse::<u32>().is_ok_and(|d| (1..=31).contains(&d)) && b.len() <= 2
    };
    let tokens: Vec<&str> = line.split_whitespace().collect();
    if tokens.iter().any(|t| is_value(t) && !year(t) && !day(t) && !is_note_mark(t)) {
        return None;
    }
    // Years, less those inside a comparison ("2019 versus 2018", "2018 to 2019").
    let compares = |i: usize| COMPARISONS.contains(&bare(tokens[i]).as_str());
    let mut years: Vec<usize> = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        if year(tokens[i]) && i + 2 < tokens.len() && compares(i + 1) && year(tokens[i + 2]) {
            i += 3;
            continue;
        }
        if year(tokens[i]) && !(i >= 2 && compares(i - 1) && year(tokens[i - 2])) {
            years.push(i);
        }
        i += 1;
    }
    if years.len() < 2 {
        return None;
    }
    let mut starts = Vec::with_capacity(years.len());
    let mut ends = Vec::with_capacity(years.len());
    let mut end = 0;
    for &y in &years {
        let mut start = y;
        // "April 27, 2019": a month, or a day next to a month ("31 March 2019").
        while start > end
            && (month(tokens[start - 1])
                || (day(tokens[start - 1]) && (month(tokens[start]) || (start >= 2 && month(tokens[start - 2])))))
        {
            start -= 1;
        }
        starts.push(start);
        end = y + 1;
        // A note mark belongs to the period before it.
        while end < tokens.len() && is_note_mark(tokens[end]) {
            end += 1;
        }
        ends.push(end);
    }
    // Prose naming years is no header: its words run long between them.
    let runs = (1..years.len()).map(|k| starts[k] - ends[k - 1]).chain([tokens.len() - end]);
    let sentence_end = line.match_indices(". ").any(|(at, _)| line[at + 2..].starts_with(char::is_uppercase));
    if starts[0] > 10 || runs.max().unwrap_or(0) > 12 || sentence_end || line.ends_with('.') {
        return None;
    }
    let dated = |k: usize| starts[k] < years[k];
    let between = (1..years.len()).any(|k| starts[k] != ends[k - 1]) || end != tokens.len();
    // Bare years with nothing between them are spaced_cells'.
    if !between && (0..years.len()).all(|k| !dated(k)) {
        return None;
    }
    // "Years Ended December 31, 2019 2018": the first year's month and day are the label's.
    if dated(0) && (1..years.len()).all(|k| !dated(k)) {
        starts[0] = years[0];
    }
    let mut cells = Vec::with_capacity(2 * years.len() + 1);
    if starts[0] > 0 {
        cells.push(tokens[..starts[0]].join(" "));
    }
    for k in 0..years.len() {
        cells.push(tokens[starts[k]..ends[k]].join(" "));
        let next = starts.get(k + 1).copied().unwrap_or(tokens.len());
        if ends[k] < next {
            cells.extend(comparison_columns(&tokens[ends[k]..next]));
        }
    }
    Some(cells)
}

/// Words joining two years into a comparison column rather than a period.
const COMPARISONS: &[&str] = &["versus", "vs", "to", "and", "over", "compared"];

/// Columns named by the words between two periods of a header: one, or one per comparison of
/// two years ("Percentage Change 2019 Versus 2018 Percentage Change 2018 Versus 2017").
fn comparison_columns(tokens: &[&str]) -> Vec<String> {
    let year = |t: &str| t.len() == 4 && t.parse::<u32>().is_ok_and(|y| (1950..=2049).contains(&y));
    let mut out = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < tokens.len() {
        let compared = year(tokens[i])
            && i + 2 < tokens.len()
            && COMPARISONS.contains(&tokens[i + 1].to_lowercase().trim_end_matches('.'))
            && year(tokens[i + 2]);
        if compared {
            out.push(tokens[start..i + 3].join(" "));
            i += 3;
            start = i;
        } else {
            i += 1;
        }
    }
    if start < tokens.len() {
        out.push(tokens[start..].join(" "));
    }
    out
}

/// A note mark after a label or a period: "(1)" to "(9)", "(a)" to "(e)".
pub fn is_note_mark(token: &str) -> bool {
    let inner = token.strip_prefix('(').and_then(|t| t.strip_suffix(')'));
    inner.is_some_and(|i| {
        i.len() == 1
            && (i.as_bytes()[0].is_ascii_digit() && i != "0" || ('a'..='e').contains(&(i.as_bytes()[0] as char)))
    })
}

/// A row whose cells are separated by single spaces: the figures (or periods) at its end, a
/// currency sign before a number and a unit after it kept with it, and the words before them as
/// its label (a short one: a long run of words is prose).
fn spaced_cells(line: &str) -> Option<Vec<String>> {
    const SIGNS: &[&str] = &["$", "US$", "Rs", "Rs.", "INR", "€", "£", "₹"];
    const AFTER: &[&str] = &["%", "cr", "crore", "mn", "bn", "million", "billion", "x", "lakh"];
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let mut end = tokens.len();
    let mut values: Vec<String> = Vec::new();
    while end > 0 {
        let mut start = end - 1;
        let mut unit = None;
        if AFTER.contains(&tokens[start]) && start > 0 {
            unit = Some(tokens[start]);
            start -= 1;
        }
        let token = tokens[start];
        let single = is_value(token) || is_blank_value(token) || (is_period(token) && !token.contains(','));
        if !single {
            break;
        }
        if start > 0 && SIGNS.contains(&tokens[start - 1]) {
            start -= 1;
        }
        let mut cell = tokens[start..end].join(" ");
        if unit.is_some() && !is_value(&cell) {
            break;
        }
        if unit.is_none() && start + 1 < end && !is_value(&cell) {
            cell = token.to_string();
        }
        values.push(cell);
        end = start;
    }
    values.reverse();
    let label = tokens[..end].join(" ");
    if values.is_empty() || label.split(' ').count() > 8 {
        return None;
    }
    let mut out = Vec::with_capacity(values.len() + 1);
    if !label.is_empty() {
        out.push(label);
    }
    out.extend(values);
    (out.len() >= 2).then_some(out)
}

/// Whether a cell is a figure: a number with the signs, currency and units tables write
/// around one ("$ 1,452.4", "(3.2)", "12.5%", "₹ 48,200 cr", "-7").
pub fn is_value(cell: &str) -> bool {
    let mut s = cell.trim();
    // "1)" of "(Scope 1)" is part of a label.
    if s.matches('(').count() != s.matches(')').count() {
        return false;
    }
    for prefix in ["US$", "USD", "INR", "Rs.", "Rs", "EUR", "GBP", "$", "€", "£", "¥", "₹"] {
        if let Some(rest) = s.strip_prefix(prefix) {
            s = rest.trim_start();
            break;
        }
    }
    let s = s.trim_start_matches(['(', '-', '+', '\u{2212}', '\u{2013}']).trim_start();
    let mut s = s.trim_end_matches([')', '*']).trim_end();
    for unit in ["%", "x", "bn", "mn", "m", "b", "cr", "crore", "million", "billion", "lakh"] {
        if let Some(rest) = s.strip_suffix(unit) {
            s = rest.trim_end();
            break;
        }
    }
    let s = s.trim_end_matches(')');
    number(s) || range(s)
}

/// A range of small numbers, as a column of useful lives or rates gives one ("3-5", "10–40").
fn range(s: &str) -> bool {
    let small = |t: &str| (1..=2).contains(&t.len()) && t.chars().all(|c| c.is_ascii_digit());
    s.split_once(['-', '\u{2013}']).is_some_and(|(a, b)| small(a) && small(b))
}

/// Digits with thousands separators and one decimal point ("1,452.4", "0.25", "48,200").
fn number(s: &str) -> bool {
    if s.is_empty() || !s.starts_with(|c: char| c.is_ascii_digit()) || !s.ends_with(|c: char| c.is_ascii_digit()) {
        return false;
    }
    let (whole, fraction) = match s.split_once('.') {
        Some((w, f)) => (w, Some(f)),
        None => (s, None),
    };
    if fraction.is_some_and(|f| f.is_empty() || !f.chars().all(|c| c.is_ascii_digit())) {
        return false;
    }
    let groups: Vec<&str> = whole.split(',').collect();
    groups.iter().all(|g| !g.is_empty() && g.chars().all(|c| c.is_ascii_digit()))
        && groups.iter().skip(1).all(|g| g.len() == 3 || g.len() == 2)
}

/// A cell that stands for no value ("—", "-", "n/a", "nil").
pub fn is_blank_value(cell: &str) -> bool {
    let cell = cell.trim();
    let cell = ["$", "€", "£", "₹"].iter().find_map(|sign| cell.strip_prefix(sign)).unwrap_or(cell).trim();
    matches!(cell.to_lowercase().as_str(), "-" | "—" | "–" | "―" | "n/a" | "na" | "nil" | "nm" | "n.m.")
}

/// Whether a cell names a period: a year ("2019", "Fiscal 2019", "March 31, 2024", "2019/20"),
/// or a fiscal year, quarter or half ("FY24", "Q3 FY2024", "H1").
pub fn is_period(cell: &str) -> bool {
    let cell = cell.trim();
    if cell.chars().count() > 48 || cell.is_empty() {
        return false;
    }
    let tokens: Vec<&str> = cell.split(|c: char| !c.is_alphanumeric()).filter(|t| !t.is_empty()).collect::<Vec<_>>();
    let year = |t: &str| t.len() == 4 && t.parse::<u32>().is_ok_and(|y| (1950..=2049).contains(&y));
    let fiscal = |t: &str| {
        let u = t.to_uppercase();
        let rest = u.strip_prefix("FY").or_else(|| u.strip_prefix("CY"));
        rest.is_some_and(|r| (r.len() == 2 || r.len() == 4) && r.chars().all(|c| c.is_ascii_digit()))
    };
    let part = |t: &str| {
        let u = t.to_uppercase();
        matches!(u.as_str(), "Q1" | "Q2" | "Q3" | "Q4" | "H1" | "H2" | "1Q" | "2Q" | "3Q" | "4Q")
    };
    // A figure is no period, however year-like ("2,019", "2019.5").
    if (cell.contains(',') || cell.contains('.')) && is_value(cell) {
        return false;
    }
    // Nor is a column comparing periods ("% Change", "2019 versus 2018", "2018 to 2019").
    let lower: Vec<String> = tokens.iter().map(|t| t.to_lowercase()).collect();
    let compared = lower.windows(3).any(|w| year(&w[0]) && COMPARISONS.contains(&w[1].as_str()) && year(&w[2]));
    if compared || lower.iter().any(|t| matches!(t.as_str(), "change" | "variance" | "versus" | "vs")) {
        return false;
    }
    tokens.iter().any(|t| year(t) || fiscal(t) || part(t))
}

/// A table header's cells, when `cells` is a row naming periods and holding no figure.
pub fn header(cells: &[String]) -> Option<Vec<String>> {
    let periods = cells.iter().filter(|c| is_period(c)).count();
    let figures = cells.iter().filter(|c| is_value(c) && !is_period(c)).count();
    (periods >= 1 && figures == 0).then(|| cells.to_vec())
}

/// A data row's label and values (`None` for a blank value), when `cells` is one.
pub fn data_row(cells: &[String]) -> Option<(String, Vec<Option<String>>)> {
    let (label, rest) = cells.split_first()?;
    if is_value(label) || is_blank_value(label) || !label.chars().any(char::is_alphabetic) || rest.is_empty() {
        return None;
    }
    let mut values = Vec::with_capacity(rest.len());
    for c in rest {
        if is_blank_value(c) {
            values.push(None);
        } else if is_value(c) && !(c.len() == 4 && is_period(c)) {
            values.push(Some(c.clone()));
        } else {
            return None;
        }
    }
    values.iter().any(Option::is_some).then(|| (label.trim_end_matches(':').to_string(), values))
}

/// The period of each value of a row under `header`, or `None` where aligning them would be a
/// guess.
pub fn align(header: &[String], values: usize) -> Option<Vec<Option<String>>> {
    let period = |c: &String| is_period(c).then(|| c.clone());
    // A label, then periods and other columns ("(in millions) 2019 Actual Constant 2018"): the
    // first cell is the label's, whatever the number of values.
    let labelled = header.len() > 2 && !is_period(&header[0]) && header[1..].iter().any(|c| !is_period(c));
    if header.len() == values && !labelled {
        return Some(header.iter().map(period).collect());
    }
    // A label cell over the label column ("(in millions)", "Particulars").
    if header.len() == values + 1 && !is_period(&header[0]) {
        return Some(header[1..].iter().map(period).collect());
    }
    // Each period over as many columns ("2019: Amount, %"): the first of each group.
    let periods: Vec<&String> = header.iter().filter(|c| is_period(c)).collect();
    if periods.len() == header.len() && values > periods.len() && values.is_multiple_of(periods.len()) {
        let stride = values / periods.len();
        return Some((0..values).map(|i| (i % stride == 0).then(|| periods[i / stride].clone())).collect());
    }
    // Periods at both ends with other columns between, of more values than the header names
    // ("2019 Actual Constant 2018" over four): the outer values are the outer periods'.
    // Each of their words may name a column; only when that makes up the values is it taken.
    let columns = if is_period(&header[0]) { header } else { &header[1..] };
    let words: usize = columns.iter().map(|c| if is_period(c) { 1 } else { c.split(' ').count() }).sum();
    let (first, last) = (columns.first()?, columns.last()?);
    if values > columns.len() && values == words && columns.len() >= 3 && is_period(first) && is_period(last) {
        return Some(
            (0..values)
                .map(|i| match i {
                    0 => Some(first.clone()),
                    i if i == values - 1 => Some(last.clone()),
                    _ => None,
                })
                .collect(),
        );
    }
    // Periods, then other columns ("2019 2018 Dollar Percent"): the first values are the periods'.
    let leading = columns.iter().take_while(|c| is_period(c)).count();
    if leading > 0 && leading < columns.len() && values == words && !columns[leading..].iter().any(|c| is_period(c)) {
        return Some((0..values).map(|i| columns.get(i).filter(|_| i < leading).cloned()).collect());
    }
    None
}

/// One row of a table, read on its own.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// Byte range of the row's line in the text.
    pub range: Range<usize>,
    /// The row under its column headers: its label (after the label of the group of rows it
    /// belongs to, if any), then each value after the column it is in: "Transportation
    /// Solutions: Automotive — 2019: $ 5,686; 2018: $ 6,092". A value whose column cannot be
    /// told without guessing is given alone.
    pub line: String,
    /// What names the table: the short lines above its rows (a title, "Years Ended September
    /// 30,", "(in millions)") and the header's label cell, one space between them; empty when
    /// there are none.
    pub caption: String,
}

/// Lines of this many words or more that are no row are prose: they end a table.
const PROSE_WORDS: usize = 8;
/// A table without a header naming its columns needs this many rows to be taken for one (two
/// lines ending in figures may be anything).
const HEADERLESS_ROWS: usize = 3;
/// The most short lines kept as a caption: the ones nearest the table.
const CAPTION_LINES: usize = 3;

/// The rows of the tables in `text`, each rendered with its column headers and its table's
/// caption, in order. Lines that are not rows of a table give nothing.
pub fn rows(text: &str) -> Vec<Row> {
    let mut out = Vec::new();
    let mut table = Table::default();
    let mut offset = 0;
    for raw in text.split_inclusive('\n') {
        let start = offset + (raw.len() - raw.trim_start().len());
        let end = offset + raw.trim_end().len();
        offset += raw.len();
        let line = &text[start.min(end)..end];
        if line.is_empty() {
            continue;
        }
        let Some(cells) = cells(line) else {
            if line.split_whitespace().count() >= PROSE_WORDS {
                table.finish(&mut out);
            } else {
                table.note(&normalize(line));
            }
            continue;
        };
        if let Some(h) = header(&cells) {
            table.header(h);
        } else if let Some((label, values)) = data_row(&cells) {
            table.row(start..end, normalize(line), label, values);
        } else {
            // Column groups over the periods ("Domestic International"), a unit row.
            table.note(&cells.join(" "));
        }
    }
    table.finish(&mut out);
    out
}

/// A table being read: its header, caption and the group its rows are in.
#[derive(Default)]
struct Table {
    header: Option<Vec<String>>,
    caption: Vec<String>,
    /// Short lines since the last row: a caption before the first row, a group's label after.
    notes: Vec<String>,
    group: Option<String>,
    rows: Vec<Pending>,
}

/// A row read, and its line as written (whitespace folded): the caption's, should a header
/// follow it.
struct Pending {
    range: Range<usize>,
    raw: String,
    line: String,
    caption: String,
}

impl Table {
    fn note(&mut self, line: &str) {
        let group = line.strip_suffix(':').map(str::trim);
        match group {
            // "Transportation Solutions:": the label of the rows that follow.
            Some(g) if self.header.is_some() || !self.rows.is_empty() => self.group = Some(g.to_string()),
            // Figures without a label under a group's rows: its subtotal, which closes it.
            _ if !line.chars().any(char::is_alphabetic) && !self.rows.is_empty() => self.group = None,
            _ => self.notes.push(line.to_string()),
        }
    }

    fn header(&mut self, header: Vec<String>) {
        // Lines read as rows before the first header, too few to be a table of their own, are
        // its caption ("December 31" is a label and a figure to the eye of a row).
        if self.header.is_none() && self.rows.len() < HEADERLESS_ROWS {
            let before: Vec<String> = self.rows.drain(..).map(|r| r.raw).collect();
            self.notes.splice(0..0, before);
        }
        // A second header in one table (a table in two parts) keeps the caption.
        if self.rows.is_empty() {
            self.caption.append(&mut self.notes);
        } else {
            self.caption = std::mem::take(&mut self.notes);
        }
        // "(in millions) 2019 2018", "Years Ended December 31, 2019 2018": the label cell.
        if !is_period(&header[0]) && header[1..].iter().any(|c| is_period(c)) {
            self.caption.push(header[0].clone());
        }
        self.header = Some(header);
        self.group = None;
    }

    fn row(&mut self, range: Range<usize>, raw: String, label: String, values: Vec<Option<String>>) {
        if self.rows.is_empty() {
            self.caption.append(&mut self.notes);
        } else if let Some(last) = self.notes.pop().filter(|n| n.chars().any(char::is_alphabetic)) {
            // A short line of words between rows names the group the rows after it are in.
            self.group = Some(last);
        }
        self.notes.clear();
        let (label, values) = match (values.first(), &self.header) {
            // A note mark after the label ("Total debt (1)") is the label's when that aligns the row.
            (Some(Some(mark)), Some(h))
                if is_note_mark(mark) && values.len() > 1 && align(h, values.len() - 1).is_some() =>
            {
                (format!("{label} {mark}"), values[1..].to_vec())
            }
            _ => (label, values),
        };
        let columns =
            self.header.as_deref().map(|h| columns(h, values.len())).unwrap_or_else(|| vec![None; values.len()]);
        let parts: Vec<String> = values
            .iter()
            .zip(columns)
            .filter_map(|(value, column)| {
                let value = value.as_deref()?;
                Some(match column {
                    Some(c) => format!("{c}: {value}"),
                    None => value.to_string(),
                })
            })
            .collect();
        let name = match &self.group {
            Some(g) if !label.to_lowercase().contains(&g.to_lowercase()) => format!("{g}: {label}"),
            _ => label.clone(),
        };
        let caption = self.caption.iter().rev().take(CAPTION_LINES).rev().cloned().collect::<Vec<_>>().join(" ");
        self.rows.push(Pending { range, raw, line: format!("{name} \u{2014} {}", parts.join("; ")), caption });
        // A total closes its group.
        if label.to_lowercase().starts_with("total") {
            self.group = None;
        }
    }

    /// Ends the table at prose: its rows go out when it is surely a table.
    fn finish(&mut self, out: &mut Vec<Row>) {
        if self.header.is_some() || self.rows.len() >= HEADERLESS_ROWS {
            out.extend(self.rows.drain(..).map(|r| Row { range: r.range, line: r.line, caption: r.caption }));
        }
        *self = Table::default();
    }
}

/// A value of a rendered row and the name of its column, when it has one.
pub type Valued = (Option<String>, String);

/// Reads back a line [`rows`] rendered ("Automotive — 2019: $ 5,686; 2018: $ 6,092"): the row's
/// name and each value with the name of its column, `None` for a value given alone. `None` for
/// any other line.
pub fn read_row(line: &str) -> Option<(String, Vec<Valued>)> {
    let (name, values) = line.split_once(" \u{2014} ")?;
    let mut out = Vec::new();
    for part in values.split("; ") {
        let (column, value) = match part.rsplit_once(": ") {
            Some((column, value)) => (Some(column.to_string()), value),
            None => (None, part),
        };
        if !is_value(value) {
            return None;
        }
        out.push((column, value.to_string()));
    }
    Some((name.to_string(), out))
}

/// The name of the column of each of `values` values under `header`: the header's own cells
/// when they are one a value (after a label cell, if any), else the periods [`align`] reads.
fn columns(header: &[String], values: usize) -> Vec<Option<String>> {
    let labelled = header.len() > 2 && !is_period(&header[0]) && header[1..].iter().any(|c| !is_period(c));
    if header.len() == values && !labelled {
        return header.iter().cloned().map(Some).collect();
    }
    if header.len() == values + 1 && !is_period(&header[0]) {
        return header[1..].iter().cloned().map(Some).collect();
    }
    align(header, values).unwrap_or_else(|| vec![None; values])
}

fn normalize(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<String> {
        rows(text).into_iter().map(|r| r.line).collect()
    }

    #[test]
    fn each_row_is_read_under_its_periods_with_the_caption_above_the_table() {
        // As cleaning leaves a DOCX table: empty corner cells gone.
        let text = "Sales rose on fixed-price contracts in each of the three years, as the table shows.\n\n\
                    Years Ended September 30,\n2019\t2018\t2017\nFixed Price\t$ 1,452.4\t$ 1,146.2\t$ 1,036.9\n\
                    Other\t44.1\t56.7\t70.8\nTotal sales\t$1,496.5\t$1,202.9\t$1,107.7";
        assert_eq!(
            lines(text),
            [
                "Fixed Price \u{2014} 2019: $ 1,452.4; 2018: $ 1,146.2; 2017: $ 1,036.9",
                "Other \u{2014} 2019: 44.1; 2018: 56.7; 2017: 70.8",
                "Total sales \u{2014} 2019: $1,496.5; 2018: $1,202.9; 2017: $1,107.7",
            ]
        );
        let got = rows(text);
        assert!(got.iter().all(|r| r.caption == "Years Ended September 30,"), "{got:?}");
        assert_eq!(&text[got[2].range.clone()], "Total sales\t$1,496.5\t$1,202.9\t$1,107.7");
    }

    #[test]
    fn a_rendered_row_reads_back_as_its_name_and_values_by_column() {
        for row in rows("Fiscal\n2019\t2018\n(in millions)\nAutomotive\t$ 5,686\t$ 6,092") {
            let (name, values) = read_row(&row.line).unwrap();
            assert_eq!(name, "Automotive");
            assert_eq!(
                values,
                [(Some("2019".to_string()), "$ 5,686".to_string()), (Some("2018".to_string()), "$ 6,092".to_string())]
            );
        }
    }

    #[test]
    fn a_group_label_names_its_rows_until_their_total_and_a_unit_line_joins_the_caption() {
        let text = "Fiscal\n2019\t2018\n(in millions)\nTransportation Solutions:\nAutomotive\t$ 5,686\t$ 6,092\n\
                    Sensors\t914\t918\nTotal Transportation Solutions\t7,821\t8,290\nTotal\t$ 13,448\t$ 13,988";
        assert_eq!(
            lines(text),
            [
                "Transportation Solutions: Automotive \u{2014} 2019: $ 5,686; 2018: $ 6,092",
                "Transportation Solutions: Sensors \u{2014} 2019: 914; 2018: 918",
                "Total Transportation Solutions \u{2014} 2019: 7,821; 2018: 8,290",
                "Total \u{2014} 2019: $ 13,448; 2018: $ 13,988",
            ]
        );
        assert_eq!(rows(text)[0].caption, "Fiscal (in millions)");
    }

    #[test]
    fn a_table_of_pdf_text_with_single_spaces_gives_the_same_rows() {
        let text = "(in millions) 2019 2018\nNet sales 1,234 1,100\nOperating income 210 (15)";
        assert_eq!(
            lines(text),
            ["Net sales \u{2014} 2019: 1,234; 2018: 1,100", "Operating income \u{2014} 2019: 210; 2018: (15)"]
        );
        assert_eq!(rows(text)[0].caption, "(in millions)");
    }

    #[test]
    fn values_whose_column_is_a_guess_stand_alone_and_prose_is_no_table() {
        // Two values under four periods: which two is not known.
        let text = "2019\t2018\t2019\t2018\nDiscount rate\t4.00%\t3.75%\t1.90%\t2.80%\nExpected return\t3.40%\t3.70%";
        assert_eq!(
            lines(text),
            [
                "Discount rate \u{2014} 2019: 4.00%; 2018: 3.75%; 2019: 1.90%; 2018: 2.80%",
                "Expected return \u{2014} 3.40%; 3.70%"
            ]
        );
        assert!(rows("Revenue grew to 1,234 in 2019 from 1,100 in 2018 on stronger demand for sensors.").is_empty());
        assert_eq!(
            read_row("Expected return \u{2014} 3.40%; 3.70%"),
            Some(("Expected return".to_string(), vec![(None, "3.40%".to_string()), (None, "3.70%".to_string())]))
        );
        assert_eq!(read_row("Outlook \u{2014} steady: growth ahead"), None);
        // Two lines ending in figures, with no header, are not yet a table.
        assert!(rows("Shares issued 1,000\nPrice paid 12.5").is_empty());
        assert_eq!(rows("Shares issued 1,000\nPrice paid 12.5\nFees 3").len(), 3);
    }
}
