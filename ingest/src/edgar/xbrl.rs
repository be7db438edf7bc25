//! The primary statements of a 10-K or 10-Q from its inline XBRL: income statement, balance
//! sheet and cash flows as small tables of readable labels and period columns.
//!
//! A filing's main document is XHTML whose figures are tagged `ix:nonFraction`, each naming a
//! concept, a context (the period, and for breakdowns a dimension) and a unit; the contexts and
//! units sit in a hidden `ix:header`. Rather than follow each filer's own presentation, a curated
//! list of common concepts gives the lines, so every company's statements read alike and can be
//! searched and compared. Documents are large (5–20 MB) and not always well-formed, so they are
//! read with quick-xml's streaming reader with end-name checks off, unknown entities kept as
//! text and document-type entities refused, within [`XbrlLimits`].

use std::collections::{HashMap, HashSet};

use chrono::NaiveDate;
use quick_xml::events::{BytesStart, Event};
use serde::{Deserialize, Serialize};

use super::feed::{attribute, decode, reference_text};
use crate::feeds::scan_prolog;

/// Bounds on reading one document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct XbrlLimits {
    /// Larger documents are refused outright.
    pub max_bytes: usize,
    /// Reading stops after this many numeric facts (a large 10-K has some thousands).
    pub max_facts: usize,
}

impl Default for XbrlLimits {
    fn default() -> Self {
        Self { max_bytes: 64 * 1024 * 1024, max_facts: 200_000 }
    }
}

/// Why a document's statements could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum XbrlError {
    #[error("the filing's document is larger than Needl reads for its statements ({size} bytes, at most {max})")]
    TooLarge { size: usize, max: usize },
    #[error("the filing's document declares XML entities, which Needl refuses to read")]
    EntityDeclaration,
}

/// One statement as a table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Statement {
    /// "Income statement", "Balance sheet", "Cash flows".
    pub title: String,
    /// The unit of its figures, from the scale the filing shows them in: "USD millions".
    pub unit: String,
    /// Column heads, latest first: "12 months ended 2024-09-28", "As of 2024-09-28".
    pub periods: Vec<String>,
    pub rows: Vec<StatementRow>,
}

/// One line of a statement.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StatementRow {
    pub label: String,
    /// One per period, at the statement's scale, negatives in parentheses: "391,035", "(1,234)".
    pub values: Vec<Option<String>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Income,
    Balance,
    CashFlow,
}

impl Kind {
    fn title(self) -> &'static str {
        match self {
            Kind::Income => "Income statement",
            Kind::Balance => "Balance sheet",
            Kind::CashFlow => "Cash flows",
        }
    }

    /// Columns: at most three years (or quarters) of flows, two balance-sheet dates.
    fn max_periods(self) -> usize {
        match self {
            Kind::Balance => 2,
            Kind::Income | Kind::CashFlow => 3,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Measure {
    Money,
    PerShare,
}

/// A curated line: where several concepts mean the same, the first the filing uses wins.
struct Line {
    kind: Kind,
    label: &'static str,
    concepts: &'static [&'static str],
    measure: Measure,
}

const fn line(kind: Kind, label: &'static str, concepts: &'static [&'static str]) -> Line {
    Line { kind, label, concepts, measure: Measure::Money }
}

/// The lines, in statement order. Concepts are local names (US GAAP and IFRS alike).
const LINES: &[Line] = &[
    line(
        Kind::Income,
        "Revenue",
        &["Revenues", "RevenueFromContractWithCustomerExcludingAssessedTax", "SalesRevenueNet", "Revenue"],
    ),
    line(Kind::Income, "Cost of revenue", &["CostOfRevenue", "CostOfGoodsAndServicesSold", "CostOfSales"]),
    line(Kind::Income, "Gross profit", &["GrossProfit"]),
    line(
        Kind::Income,
        "Research and development",
        &["ResearchAndDevelopmentExpense", "ResearchAndDevelopmentExpenseExcludingAcquiredInProcessCost"],
    ),
    line(Kind::Income, "Selling, general and administrative", &["SellingGeneralAndAdministrativeExpense"]),
    line(Kind::Income, "Operating expenses", &["OperatingExpenses"]),
    line(Kind::Income, "Operating income", &["OperatingIncomeLoss", "ProfitLossFromOperatingActivities"]),
    line(
        Kind::Income,
        "Income before taxes",
        &[
            "IncomeLossFromContinuingOperationsBeforeIncomeTaxesExtraordinaryItemsNoncontrollingInterest",
            "IncomeLossFromContinuingOperationsBeforeIncomeTaxesMinorityInterestAndIncomeLossFromEquityMethodInvestments",
            "IncomeLossFromContinuingOperationsBeforeIncomeTaxesDomestic",
            "ProfitLossBeforeTax",
        ],
    ),
    line(Kind::Income, "Income tax", &["IncomeTaxExpenseBenefit", "IncomeTaxExpenseContinuingOperations"]),
    line(Kind::Income, "Net income", &["NetIncomeLoss", "ProfitLossAttributableToOwnersOfParent", "ProfitLoss"]),
    Line {
        kind: Kind::Income,
        label: "Earnings per share, basic",
        concepts: &["EarningsPerShareBasic", "BasicEarningsLossPerShare", "EarningsPerShareBasicAndDiluted"],
        measure: Measure::PerShare,
    },
    Line {
        kind: Kind::Income,
        label: "Earnings per share, diluted",
        concepts: &["EarningsPerShareDiluted", "DilutedEarningsLossPerShare", "EarningsPerShareBasicAndDiluted"],
        measure: Measure::PerShare,
    },
    line(Kind::Balance, "Cash and cash equivalents", &["CashAndCashEquivalentsAtCarryingValue", "CashAndCashEquivalents"]),
    line(Kind::Balance, "Total current assets", &["AssetsCurrent", "CurrentAssets"]),
    line(Kind::Balance, "Total assets", &["Assets"]),
    line(Kind::Balance, "Total current liabilities", &["LiabilitiesCurrent", "CurrentLiabilities"]),
    line(Kind::Balance, "Long-term debt", &["LongTermDebtNoncurrent", "LongTermDebtAndCapitalLeaseObligations"]),
    line(Kind::Balance, "Total liabilities", &["Liabilities"]),
    line(
        Kind::Balance,
        "Shareholders' equity",
        &[
            "StockholdersEquity",
            "StockholdersEquityIncludingPortionAttributableToNoncontrollingInterest",
            "EquityAttributableToOwnersOfParent",
            "Equity",
        ],
    ),
    line(Kind::Balance, "Total liabilities and equity", &["LiabilitiesAndStockholdersEquity", "EquityAndLiabilities"]),
    line(
        Kind::CashFlow,
        "Operating activities",
        &[
            "NetCashProvidedByUsedInOperatingActivities",
            "NetCashProvidedByUsedInOperatingActivitiesContinuingOperations",
            "CashFlowsFromUsedInOperatingActivities",
        ],
    ),
    line(
        Kind::CashFlow,
        "Investing activities",
        &[
            "NetCashProvidedByUsedInInvestingActivities",
            "NetCashProvidedByUsedInInvestingActivitiesContinuingOperations",
            "CashFlowsFromUsedInInvestingActivities",
        ],
    ),
    line(
        Kind::CashFlow,
        "Financing activities",
        &[
            "NetCashProvidedByUsedInFinancingActivities",
            "NetCashProvidedByUsedInFinancingActivitiesContinuingOperations",
            "CashFlowsFromUsedInFinancingActivities",
        ],
    ),
    line(
        Kind::CashFlow,
        "Capital expenditure",
        &["PaymentsToAcquirePropertyPlantAndEquipment", "PurchaseOfPropertyPlantAndEquipmentClassifiedAsInvestingActivities"],
    ),
    line(Kind::CashFlow, "Share repurchases", &["PaymentsForRepurchaseOfCommonStock"]),
    line(
        Kind::CashFlow,
        "Dividends paid",
        &["PaymentsOfDividends", "PaymentsOfDividendsCommonStock", "DividendsPaidClassifiedAsFinancingActivities"],
    ),
];

/// Facts nested in facts deeper than this are read as text of the outer ones only.
const MAX_OPEN_FACTS: usize = 16;
/// A fact's shown text is at most this long ("1,234,567.89" and some markup whitespace).
const MAX_FACT_TEXT: usize = 256;
/// Reader errors tolerated before the rest of a broken document is given up.
const MAX_READ_ERRORS: usize = 1_000;
/// Digits of a figure beyond this are not a figure.
const MAX_DIGITS: usize = 30;

/// The period a context covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Period {
    Duration { start: NaiveDate, end: NaiveDate },
    Instant(NaiveDate),
}

impl Period {
    fn end(self) -> NaiveDate {
        match self {
            Period::Duration { end, .. } | Period::Instant(end) => end,
        }
    }

    /// A duration's length in whole months, rounded (a 52-week year is 12).
    fn months(self) -> i64 {
        match self {
            Period::Duration { start, end } => ((end - start).num_days() * 12 + 182) / 365,
            Period::Instant(_) => 0,
        }
    }

    fn label(self) -> String {
        match self {
            Period::Instant(date) => format!("As of {date}"),
            Period::Duration { start, end } => match self.months() {
                0 => format!("{} days ended {end}", (end - start).num_days() + 1),
                1 => format!("1 month ended {end}"),
                n => format!("{n} months ended {end}"),
            },
        }
    }
}

#[derive(Debug, Clone, Copy)]
struct Context {
    period: Period,
    /// Breakdowns (a segment or scenario) are not statement totals.
    dimensional: bool,
}

#[derive(Debug, Clone, Default)]
struct Unit {
    /// "USD" for money and per-share units.
    currency: Option<String>,
    per_share: bool,
}

/// A figure as digits and a power of ten: exact, whatever the scale.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Decimal {
    mantissa: i128,
    exponent: i32,
}

#[derive(Debug, Clone)]
struct Fact {
    concept: String,
    context: String,
    unit: Option<String>,
    value: Decimal,
    /// The `scale` the filing shows the figure in (6: millions).
    scale: i32,
}

/// A fact whose text is still being read.
struct OpenFact {
    concept: Option<String>,
    context: Option<String>,
    unit: Option<String>,
    scale: i32,
    negative: bool,
    format: String,
    text: String,
}

#[derive(Default)]
struct ContextDraft {
    id: String,
    start: Option<NaiveDate>,
    end: Option<NaiveDate>,
    instant: Option<NaiveDate>,
    dimensional: bool,
}

#[derive(Default)]
struct UnitDraft {
    id: String,
    measures: Vec<String>,
    numerator: Vec<String>,
    denominator: Vec<String>,
    side: Option<bool>,
}

/// What a document's inline XBRL holds, as far as the statements need it.
#[derive(Default)]
struct Facts {
    contexts: HashMap<String, Context>,
    units: HashMap<String, Unit>,
    facts: Vec<Fact>,
}

/// Reads the primary statements from an inline-XBRL document. A document without inline XBRL
/// (an exhibit, an older filing) gives no statements; a statement without any curated line is
/// left out. Broken markup ends reading where the reader cannot go on, keeping what was read.
pub fn primary_statements(html: &[u8], limits: &XbrlLimits) -> Result<Vec<Statement>, XbrlError> {
    if html.len() > limits.max_bytes {
        return Err(XbrlError::TooLarge { size: html.len(), max: limits.max_bytes });
    }
    let text = decode(html);
    let prolog = scan_prolog(&text);
    if prolog.declares_entities || prolog.internal_subset {
        return Err(XbrlError::EntityDeclaration);
    }
    if !text.contains("nonFraction") {
        return Ok(Vec::new());
    }
    let facts = read_facts(&text, limits)?;
    Ok([Kind::Income, Kind::Balance, Kind::CashFlow].into_iter().filter_map(|kind| statement(kind, &facts)).collect())
}

/// One page of text for search and answers: per statement a heading line ("Income statement
/// (USD millions)"), a line of period columns, then a line per row, cells separated by tabs so
/// each row ends in a figure; a missing figure is "—".
pub fn statements_text(statements: &[Statement]) -> String {
    let mut out = String::new();
    for statement in statements {
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(&format!("{} ({})\n", statement.title, statement.unit));
        for period in &statement.periods {
            out.push('\t');
            out.push_str(period);
        }
        out.push('\n');
        for row in &statement.rows {
            out.push_str(&row.label);
            for value in &row.values {
                out.push('\t');
                out.push_str(value.as_deref().unwrap_or("\u{2014}"));
            }
            out.push('\n');
        }
    }
    out
}

fn read_facts(text: &str, limits: &XbrlLimits) -> Result<Facts, XbrlError> {
    let wanted: HashSet<&str> = LINES.iter().flat_map(|l| l.concepts.iter().copied()).collect();
    let mut reader = quick_xml::Reader::from_str(text);
    let config = reader.config_mut();
    config.check_end_names = false;
    config.allow_unmatched_ends = true;
    config.allow_dangling_amp = true;
    config.check_comments = false;
    let mut out = Facts::default();
    let mut open: Vec<OpenFact> = Vec::new();
    let mut context: Option<ContextDraft> = None;
    let mut unit: Option<UnitDraft> = None;
    // Text of the header element being read (a date, a measure).
    let mut leaf = String::new();
    let mut seen = 0usize;
    let mut errors = 0usize;
    loop {
        let position = reader.buffer_position();
        let event = match reader.read_event() {
            Ok(event) => event,
            Err(_) => {
                errors += 1;
                if errors > MAX_READ_ERRORS || reader.buffer_position() <= position {
                    break;
                }
                continue;
            }
        };
        match event {
            Event::DocType(doctype) if doctype.contains('[') || doctype.to_ascii_uppercase().contains("ENTITY") => {
                return Err(XbrlError::EntityDeclaration);
            }
            Event::Start(tag) => {
                leaf.clear();
                match tag.local_name().as_ref() {
                    "nonFraction" => {
                        seen += 1;
                        if seen > limits.max_facts {
                            break;
                        }
                        if open.len() >= MAX_OPEN_FACTS {
                            open.remove(0);
                        }
                        open.push(open_fact(&tag, &wanted));
                    }
                    "context" => {
                        context =
                            Some(ContextDraft { id: attribute(&tag, "id").unwrap_or_default(), ..Default::default() })
                    }
                    "segment" | "scenario" | "explicitMember" | "typedMember" => {
                        context.iter_mut().for_each(|c| c.dimensional = true)
                    }
                    "unit" => {
                        unit = Some(UnitDraft { id: attribute(&tag, "id").unwrap_or_default(), ..Default::default() })
                    }
                    "unitNumerator" => unit.iter_mut().for_each(|u| u.side = Some(true)),
                    "unitDenominator" => unit.iter_mut().for_each(|u| u.side = Some(false)),
                    _ => {}
                }
            }
            Event::Empty(tag) => match tag.local_name().as_ref() {
                // A self-closed fact is nil: nothing to show, but it counts.
                "nonFraction" => {
                    seen += 1;
                    if seen > limits.max_facts {
                        break;
                    }
                }
                "segment" | "scenario" | "explicitMember" | "typedMember" => {
                    context.iter_mut().for_each(|c| c.dimensional = true)
                }
                _ => {}
            },
            Event::Text(t) => push_text(&mut leaf, &mut open, &t.xml10_content()),
            Event::CData(t) => push_text(&mut leaf, &mut open, &t.xml10_content()),
            Event::GeneralRef(r) => push_text(&mut leaf, &mut open, &reference_text(&r)),
            Event::End(tag) => {
                let value = leaf.trim();
                match tag.local_name().as_ref() {
                    "nonFraction" => {
                        if let Some(fact) = open.pop().and_then(close_fact) {
                            out.facts.push(fact);
                        }
                    }
                    "startDate" => context.iter_mut().for_each(|c| c.start = date(value)),
                    "endDate" => context.iter_mut().for_each(|c| c.end = date(value)),
                    "instant" => context.iter_mut().for_each(|c| c.instant = date(value)),
                    "context" => {
                        if let Some((id, c)) = context.take().and_then(close_context) {
                            if out.contexts.len() < limits.max_facts {
                                out.contexts.insert(id, c);
                            }
                        }
                    }
                    "measure" => {
                        if let Some(u) = unit.as_mut() {
                            let measure = value.chars().take(64).collect::<String>();
                            match u.side {
                                Some(true) => u.numerator.push(measure),
                                Some(false) => u.denominator.push(measure),
                                None => u.measures.push(measure),
                            }
                        }
                    }
                    "unitNumerator" | "unitDenominator" => unit.iter_mut().for_each(|u| u.side = None),
                    "unit" => {
                        if let Some((id, u)) = unit.take().map(close_unit) {
                            if out.units.len() < limits.max_facts {
                                out.units.insert(id, u);
                            }
                        }
                    }
                    _ => {}
                }
                leaf.clear();
            }
            Event::Eof => break,
            _ => {}
        }
    }
    Ok(out)
}

fn push_text(leaf: &mut String, open: &mut [OpenFact], text: &str) {
    if leaf.len() < MAX_FACT_TEXT {
        leaf.push_str(text);
    }
    for fact in open.iter_mut() {
        if fact.text.len() < MAX_FACT_TEXT {
            fact.text.push_str(text);
        }
    }
}

fn open_fact(tag: &BytesStart, wanted: &HashSet<&str>) -> OpenFact {
    let concept = attribute(tag, "name").map(|n| local(&n).to_owned()).filter(|n| wanted.contains(n.as_str()));
    // Only curated facts need their attributes read.
    let (context, unit, scale, negative, format) = if concept.is_some() {
        (
            attribute(tag, "contextRef"),
            attribute(tag, "unitRef"),
            attribute(tag, "scale").and_then(|s| s.trim().parse::<i32>().ok()).unwrap_or(0).clamp(-30, 30),
            attribute(tag, "sign").is_some_and(|s| s.trim() == "-"),
            attribute(tag, "format").map(|f| local(&f).to_ascii_lowercase()).unwrap_or_default(),
        )
    } else {
        (None, None, 0, false, String::new())
    };
    OpenFact { concept, context, unit, scale, negative, format, text: String::new() }
}

fn close_fact(fact: OpenFact) -> Option<Fact> {
    let concept = fact.concept?;
    let context = fact.context?;
    let mut value = parse_number(&fact.text, &fact.format)?;
    value.exponent = value.exponent.checked_add(fact.scale)?;
    if fact.negative {
        value.mantissa = -value.mantissa;
    }
    Some(Fact { concept, context, unit: fact.unit, value, scale: fact.scale })
}

fn close_context(draft: ContextDraft) -> Option<(String, Context)> {
    let period = match (draft.instant, draft.start, draft.end) {
        (Some(instant), _, _) => Period::Instant(instant),
        (None, Some(start), Some(end)) if start <= end => Period::Duration { start, end },
        _ => return None,
    };
    (!draft.id.is_empty()).then_some((draft.id, Context { period, dimensional: draft.dimensional }))
}

fn close_unit(draft: UnitDraft) -> (String, Unit) {
    let currency_of = |measures: &[String]| {
        measures.iter().find(|m| m.to_ascii_lowercase().starts_with("iso4217:")).map(|m| local(m).to_ascii_uppercase())
    };
    let unit = if !draft.numerator.is_empty() || !draft.denominator.is_empty() {
        let shares = draft.denominator.iter().any(|m| local(m).eq_ignore_ascii_case("shares"));
        Unit { currency: currency_of(&draft.numerator), per_share: shares }
    } else {
        Unit { currency: currency_of(&draft.measures), per_share: false }
    };
    (draft.id, unit)
}

/// The part of a prefixed name after the colon.
fn local(name: &str) -> &str {
    name.trim().rsplit(':').next().unwrap_or_default()
}

fn date(text: &str) -> Option<NaiveDate> {
    NaiveDate::parse_from_str(text.get(..10)?, "%Y-%m-%d").ok()
}

/// A shown figure as a number, per its inline-XBRL format: "391,035" (`num-dot-decimal`),
/// "391.035,5" (`num-comma-decimal`), "—" (`fixed-zero`). Formats that write numbers in words,
/// or text that is not a figure, give nothing.
fn parse_number(text: &str, format: &str) -> Option<Decimal> {
    if format.contains("zero") {
        return Some(Decimal { mantissa: 0, exponent: 0 });
    }
    if format.starts_with("fixed") || format.contains("word") {
        return None;
    }
    let text = text.trim();
    if matches!(text, "-" | "\u{2014}" | "\u{2013}") {
        return Some(Decimal { mantissa: 0, exponent: 0 });
    }
    let comma_decimal = format.contains("comma");
    let mut digits = String::new();
    let mut fraction: Option<usize> = None;
    for c in text.chars() {
        match c {
            '0'..='9' => {
                digits.push(c);
                if let Some(f) = fraction.as_mut() {
                    *f += 1;
                }
            }
            '.' if !comma_decimal && fraction.is_none() => fraction = Some(0),
            ',' if comma_decimal && fraction.is_none() => fraction = Some(0),
            ',' | '.' | ' ' | '\u{a0}' | '\u{202f}' | '\'' | '(' | ')' | '$' | '\u{20ac}' | '\u{a3}' => {}
            c if c.is_whitespace() => {}
            _ => return None,
        }
        if digits.len() > MAX_DIGITS {
            return None;
        }
    }
    if digits.is_empty() {
        return None;
    }
    let mantissa = digits.parse::<i128>().ok()?;
    let exponent = -(i32::try_from(fraction.unwrap_or(0)).ok()?);
    Some(Decimal { mantissa, exponent })
}

/// A figure at a display scale (6: millions), grouped by thousands, negatives in parentheses.
fn render(value: Decimal, display_scale: i32) -> Option<String> {
    let shift = value.exponent.checked_sub(display_scale)?;
    let magnitude = value.mantissa.unsigned_abs();
    let text = if shift >= 0 {
        let factor = 10u128.checked_pow(u32::try_from(shift).ok()?)?;
        group(&magnitude.checked_mul(factor)?.to_string())
    } else {
        let places = usize::try_from(-(shift as i64)).ok().filter(|p| *p <= MAX_DIGITS)?;
        let digits = format!("{magnitude:0>width$}", width = places + 1);
        let (whole, fraction) = digits.split_at(digits.len() - places);
        format!("{}.{fraction}", group(whole))
    };
    Some(if value.mantissa < 0 { format!("({text})") } else { text })
}

fn group(digits: &str) -> String {
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Words for a scale: 6 is "millions".
fn scale_words(scale: i32) -> String {
    match scale {
        0 => String::new(),
        3 => "thousands".into(),
        6 => "millions".into(),
        9 => "billions".into(),
        n => format!("\u{d7} 10^{n}"),
    }
}

/// A curated line's facts for one statement: the first of its concepts the filing uses, totals
/// only (no breakdowns), of the statement's kind of period and of the line's kind of unit.
fn line_facts<'f>(line: &Line, facts: &'f Facts) -> Vec<(&'f Fact, Period)> {
    let usable = |fact: &&'f Fact| -> Option<(&'f Fact, Period)> {
        let context = facts.contexts.get(&fact.context)?;
        let instant = matches!(context.period, Period::Instant(_));
        if context.dimensional || instant != (line.kind == Kind::Balance) {
            return None;
        }
        let unit = facts.units.get(fact.unit.as_deref()?)?;
        let fits = match line.measure {
            Measure::Money => unit.currency.is_some() && !unit.per_share,
            Measure::PerShare => unit.per_share,
        };
        fits.then_some((*fact, context.period))
    };
    for concept in line.concepts {
        let found: Vec<(&Fact, Period)> =
            facts.facts.iter().filter(|f| f.concept == *concept).filter_map(|f| usable(&f)).collect();
        if !found.is_empty() {
            return found;
        }
    }
    Vec::new()
}

/// The most common item, ties to the one `prefer` ranks higher.
fn most_common<T: Clone + Eq + std::hash::Hash, K: Ord>(
    items: impl Iterator<Item = T>,
    prefer: impl Fn(&T) -> K,
) -> Option<T> {
    let mut counts: HashMap<T, usize> = HashMap::new();
    for item in items {
        *counts.entry(item).or_default() += 1;
    }
    counts.into_iter().max_by(|(a, ca), (b, cb)| ca.cmp(cb).then_with(|| prefer(a).cmp(&prefer(b)))).map(|(t, _)| t)
}

fn statement(kind: Kind, facts: &Facts) -> Option<Statement> {
    let lines: Vec<(&Line, Vec<(&Fact, Period)>)> = LINES
        .iter()
        .filter(|l| l.kind == kind)
        .map(|l| (l, line_facts(l, facts)))
        .filter(|(_, found)| !found.is_empty())
        .collect();
    let currency_of =
        |fact: &Fact| fact.unit.as_deref().and_then(|u| facts.units.get(u)).and_then(|u| u.currency.clone());
    let currency = most_common(
        lines.iter().flat_map(|(_, found)| found.iter().filter_map(|(f, _)| currency_of(f))),
        |c: &String| (c == "USD", std::cmp::Reverse(c.clone())),
    );
    // Figures in another currency than the statement's are left out.
    let lines: Vec<(&Line, Vec<(&Fact, Period)>)> = lines
        .into_iter()
        .map(|(l, found)| {
            let found: Vec<(&Fact, Period)> =
                found.into_iter().filter(|(f, _)| currency.is_none() || currency_of(f) == currency).collect();
            (l, found)
        })
        .filter(|(_, found)| !found.is_empty())
        .collect();
    let periods = pick_periods(kind, &lines);
    if periods.is_empty() {
        return None;
    }
    let scale = most_common(
        lines
            .iter()
            .filter(|(l, _)| l.measure == Measure::Money)
            .flat_map(|(_, found)| found.iter().filter(|(_, p)| periods.contains(p)).map(|(f, _)| f.scale)),
        |s: &i32| *s,
    )
    .unwrap_or(0);
    let currency = currency.unwrap_or_else(|| "USD".to_owned());
    let rows: Vec<StatementRow> = lines
        .iter()
        .filter_map(|(line, found)| {
            let display_scale = if line.measure == Measure::Money { scale } else { 0 };
            let values: Vec<Option<String>> = periods
                .iter()
                .map(|p| {
                    // Of duplicates (a rounded figure in the text, the exact one in the table),
                    // the one shown at the statement's scale, else the most precise.
                    let best = found
                        .iter()
                        .filter(|(_, fp)| fp == p)
                        .min_by_key(|(f, _)| (f.scale != display_scale, f.value.exponent));
                    best.and_then(|(f, _)| render(f.value, display_scale))
                })
                .collect();
            let label = match line.measure {
                Measure::Money => line.label.to_owned(),
                Measure::PerShare => format!("{} ({currency} per share)", line.label),
            };
            values.iter().any(Option::is_some).then_some(StatementRow { label, values })
        })
        .collect();
    if rows.is_empty() {
        return None;
    }
    let unit = format!("{currency} {}", scale_words(scale)).trim_end().to_owned();
    Some(Statement { title: kind.title().to_owned(), unit, periods: periods.iter().map(|p| p.label()).collect(), rows })
}

/// The statement's columns: among the periods its lines have figures for, those most lines
/// share, ties to the later end, shown latest first. Flows keep to one length of period (the
/// length most figures have, ties to the shorter: a 10-Q's quarter over its year to date), so
/// columns compare like with like.
fn pick_periods(kind: Kind, lines: &[(&Line, Vec<(&Fact, Period)>)]) -> Vec<Period> {
    let mut counts: HashMap<Period, usize> = HashMap::new();
    for (_, found) in lines {
        let mut periods: Vec<Period> = found.iter().map(|(_, p)| *p).collect();
        periods.sort_unstable();
        periods.dedup();
        for period in periods {
            *counts.entry(period).or_default() += 1;
        }
    }
    if kind != Kind::Balance {
        let mut by_length: HashMap<i64, usize> = HashMap::new();
        for (period, count) in &counts {
            *by_length.entry(period.months()).or_default() += count;
        }
        let length = by_length.into_iter().max_by(|(la, ca), (lb, cb)| ca.cmp(cb).then(lb.cmp(la))).map(|(l, _)| l);
        counts.retain(|p, _| Some(p.months()) == length);
    }
    let mut ranked: Vec<(Period, usize)> = counts.into_iter().collect();
    ranked.sort_by(|(pa, ca), (pb, cb)| cb.cmp(ca).then(pb.end().cmp(&pa.end())).then(pb.cmp(pa)));
    ranked.truncate(kind.max_periods());
    let mut periods: Vec<Period> = ranked.into_iter().map(|(p, _)| p).collect();
    periods.sort_by(|a, b| b.end().cmp(&a.end()).then(b.cmp(a)));
    periods
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEN_K: &[u8] =
        include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/edgar/aapl-10k-ixbrl.htm"));

    fn statements() -> Vec<Statement> {
        primary_statements(TEN_K, &XbrlLimits::default()).unwrap()
    }

    fn row<'s>(statement: &'s Statement, label: &str) -> &'s StatementRow {
        statement.rows.iter().find(|r| r.label.starts_with(label)).unwrap_or_else(|| panic!("no row {label}"))
    }

    fn values(row: &StatementRow) -> Vec<&str> {
        row.values.iter().map(|v| v.as_deref().unwrap_or("-")).collect()
    }

    #[test]
    fn a_10k_gives_three_statements_in_millions() {
        let statements = statements();
        let titles: Vec<&str> = statements.iter().map(|s| s.title.as_str()).collect();
        assert_eq!(titles, ["Income statement", "Balance sheet", "Cash flows"]);
        assert!(statements.iter().all(|s| s.unit == "USD millions"), "{statements:?}");
    }

    #[test]
    fn the_income_statement_has_three_years_latest_first() {
        let income = &statements()[0];
        assert_eq!(
            income.periods,
            ["12 months ended 2024-09-28", "12 months ended 2023-09-30", "12 months ended 2022-09-24"]
        );
        assert_eq!(
            values(row(income, "Revenue")),
            ["388,412", "379,904", "390,117"],
            "the product breakdown is skipped"
        );
        assert_eq!(values(row(income, "Operating income")), ["123,926", "114,908", "117,222"], "a nested fact");
        assert_eq!(values(row(income, "Net income")), ["96,908", "97,274", "99,079"]);
        let eps = row(income, "Earnings per share, diluted");
        assert_eq!(eps.label, "Earnings per share, diluted (USD per share)");
        assert_eq!(values(eps), ["6.29", "6.13", "6.11"]);
        let labels: Vec<&str> = income.rows.iter().map(|r| r.label.as_str()).collect();
        assert_eq!(labels[..3], ["Revenue", "Cost of revenue", "Gross profit"]);
    }

    #[test]
    fn the_balance_sheet_has_the_two_year_ends() {
        let balance = &statements()[1];
        assert_eq!(balance.periods, ["As of 2024-09-28", "As of 2023-09-30"], "not the equity roll-forward's dates");
        assert_eq!(values(row(balance, "Total assets")), ["362,114", "351,507"]);
        assert_eq!(values(row(balance, "Shareholders' equity")), ["55,644", "62,404"]);
    }

    #[test]
    fn negative_facts_are_shown_in_parentheses() {
        let flows = &statements()[2];
        assert_eq!(values(row(flows, "Investing activities")), ["2,871", "(3,102)", "(21,880)"]);
        assert_eq!(values(row(flows, "Financing activities")), ["(118,204)", "(107,655)", "(109,880)"]);
        assert_eq!(values(row(flows, "Dividends paid")), ["15,102", "14,988", "14,793"]);
    }

    #[test]
    fn the_text_page_has_a_heading_columns_and_rows_ending_in_figures() {
        let text = statements_text(&statements());
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "Income statement (USD millions)");
        assert_eq!(lines[1], "\t12 months ended 2024-09-28\t12 months ended 2023-09-30\t12 months ended 2022-09-24");
        assert_eq!(lines[2], "Revenue\t388,412\t379,904\t390,117");
        assert!(text.contains("\nBalance sheet (USD millions)\n\tAs of 2024-09-28\tAs of 2023-09-30\n"));
        assert!(text.contains("Financing activities\t(118,204)\t(107,655)\t(109,880)\n"));
    }

    #[test]
    fn a_document_without_inline_xbrl_has_no_statements() {
        let html = b"<html><body><p>Press release: record quarter&nbsp;revenue of $94.9 billion.</p></body></html>";
        assert_eq!(primary_statements(html, &XbrlLimits::default()), Ok(vec![]));
        assert_eq!(statements_text(&[]), "");
    }

    #[test]
    fn a_document_over_the_size_cap_is_refused() {
        let limits = XbrlLimits { max_bytes: 100, max_facts: 10 };
        assert_eq!(primary_statements(TEN_K, &limits), Err(XbrlError::TooLarge { size: TEN_K.len(), max: 100 }));
    }

    #[test]
    fn entity_declarations_are_refused() {
        let html = br#"<?xml version="1.0"?><!DOCTYPE html [<!ENTITY x "y">]><html><ix:nonFraction>&x;</ix:nonFraction></html>"#;
        assert_eq!(primary_statements(html, &XbrlLimits::default()), Err(XbrlError::EntityDeclaration));
    }

    #[test]
    fn reading_stops_at_the_fact_cap() {
        let limits = XbrlLimits { max_facts: 3, ..XbrlLimits::default() };
        let statements = primary_statements(TEN_K, &limits).unwrap();
        assert!(statements.iter().map(|s| s.rows.len()).sum::<usize>() <= 3, "{statements:?}");
    }

    #[test]
    fn other_prefixes_ifrs_concepts_and_thousands_are_read() {
        let html = br#"<html xmlns:ix="http://www.xbrl.org/2013/inlineXBRL"><body>
<ix:header><ix:resources>
<xbrli:context id="y1"><xbrli:period><xbrli:startDate>2024-01-01</xbrli:startDate><xbrli:endDate>2024-12-31</xbrli:endDate></xbrli:period></xbrli:context>
<xbrli:context id="i1"><xbrli:period><xbrli:instant>2024-12-31</xbrli:instant></xbrli:period></xbrli:context>
<xbrli:unit id="eur"><xbrli:measure>iso4217:EUR</xbrli:measure></xbrli:unit>
</ix:resources></ix:header>
<p><ix:nonFraction name="ifrs-full:Revenue" contextRef="y1" unitRef="eur" scale="3" format="ixt:num-comma-decimal">1.234.567,5</ix:nonFraction>
<ix:nonFraction name="ifrs-full:ProfitLoss" contextRef="y1" unitRef="eur" scale="3" sign="-" format="ixt:num-dot-decimal">12,000</ix:nonFraction>
<ix:nonFraction name="ifrs-full:Equity" contextRef="i1" unitRef="eur" scale="3" format="ixt:fixed-zero">&#8212;</ix:nonFraction>
<ix:nonFraction name="ifrs-full:Assets" contextRef="i1" unitRef="eur" scale="3" xsi:nil="true"/>
</p></body></html>"#;
        let statements = primary_statements(html, &XbrlLimits::default()).unwrap();
        assert_eq!(statements.len(), 2);
        assert_eq!(statements[0].unit, "EUR thousands");
        assert_eq!(values(row(&statements[0], "Revenue")), ["1,234,567.5"]);
        assert_eq!(values(row(&statements[0], "Net income")), ["(12,000)"]);
        assert_eq!(values(row(&statements[1], "Shareholders' equity")), ["0"]);
    }

    #[test]
    fn a_10q_keeps_to_its_quarter() {
        let mut html = String::from("<html><body><ix:header><ix:resources>");
        for (id, start, end) in [
            ("q", "2024-03-31", "2024-06-29"),
            ("qp", "2023-04-02", "2023-07-01"),
            ("ytd", "2023-10-01", "2024-06-29"),
            ("ytdp", "2022-09-25", "2023-07-01"),
        ] {
            html.push_str(&format!(r#"<xbrli:context id="{id}"><xbrli:period><xbrli:startDate>{start}</xbrli:startDate><xbrli:endDate>{end}</xbrli:endDate></xbrli:period></xbrli:context>"#));
        }
        html.push_str(r#"<xbrli:unit id="usd"><xbrli:measure>iso4217:USD</xbrli:measure></xbrli:unit></ix:resources></ix:header>"#);
        for (context, revenue) in [("q", "85,777"), ("qp", "81,797"), ("ytd", "296,105"), ("ytdp", "282,794")] {
            html.push_str(&format!(r#"<ix:nonFraction name="us-gaap:Revenues" contextRef="{context}" unitRef="usd" scale="6">{revenue}</ix:nonFraction>"#));
        }
        html.push_str(r#"<ix:nonFraction name="us-gaap:NetCashProvidedByUsedInOperatingActivities" contextRef="ytd" unitRef="usd" scale="6">91,443</ix:nonFraction></body></html>"#);
        let statements = primary_statements(html.as_bytes(), &XbrlLimits::default()).unwrap();
        assert_eq!(statements[0].periods, ["3 months ended 2024-06-29", "3 months ended 2023-07-01"]);
        assert_eq!(values(&statements[0].rows[0]), ["85,777", "81,797"]);
        assert_eq!(statements[1].periods, ["9 months ended 2024-06-29"]);
    }

    #[test]
    fn figures_parse_and_render_exactly() {
        let d = |m, e| Decimal { mantissa: m, exponent: e };
        assert_eq!(parse_number("391,035", "num-dot-decimal"), Some(d(391035, 0)));
        assert_eq!(parse_number(" 6.08 ", "num-dot-decimal"), Some(d(608, -2)));
        assert_eq!(parse_number("1.234,56", "numcommadecimal"), Some(d(123456, -2)));
        assert_eq!(parse_number("\u{2014}", "fixed-zero"), Some(d(0, 0)));
        assert_eq!(parse_number("ten", "num-word-en"), None);
        assert_eq!(parse_number("n/a", ""), None);
        assert_eq!(parse_number(&"9".repeat(40), ""), None);
        assert_eq!(render(d(391035, 6), 6).as_deref(), Some("391,035"));
        assert_eq!(render(d(-1234, 6), 6).as_deref(), Some("(1,234)"));
        assert_eq!(render(d(1234567, 3), 6).as_deref(), Some("1,234.567"));
        assert_eq!(render(d(5, -3), 0).as_deref(), Some("0.005"));
        assert_eq!(render(d(391035, 9), 6).as_deref(), Some("391,035,000"));
        assert_eq!(render(d(1, 60), 0), None, "too large to show");
    }

    #[test]
    fn broken_markup_gives_what_could_be_read_and_never_panics() {
        let cut = &TEN_K[..TEN_K.len() * 2 / 3];
        let read = primary_statements(cut, &XbrlLimits::default()).unwrap();
        assert_eq!(read.len(), 2, "the income statement and balance sheet precede the cut");
        for end in (0..TEN_K.len()).step_by(211) {
            assert!(primary_statements(&TEN_K[..end], &XbrlLimits::default()).is_ok());
        }
        for input in [
            &b"<ix:nonFraction"[..],
            b"<a nonFraction=\"<\">",
            b"<ix:nonFraction name=\"us-gaap:Assets\">1</b></ix:nonFraction></x>",
            b"\xff\xfe<nonFraction>",
        ] {
            let _ = primary_statements(input, &XbrlLimits::default());
        }
    }
}
