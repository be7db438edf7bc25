//! What a feed definition asks for, as typed filters: the one text rule, the sources kept and
//! dropped, the per-source exclusions, the category whitelist and the date range.
//!
//! [`Filters::of`] reads a [`BoardDefinition`] the way the feed contract says; the search index
//! turns [`Filters`] into a query (the feed's page, previews, re-evaluation) and the rule matcher
//! evaluates the same filters against each new document (alerts). Both read the same value, so
//! a feed lists exactly what it alerts on.
//!
//! The text rule is `(include_1 OR include_2 OR ... OR company terms) AND NOT (exclude_1 OR ...)`:
//! a company contributes its name and each alias as phrases and its ISIN, CIN and codes as words.
//! Without an include keyword or a company the rule is only its NOT part, or nothing at all.

use chrono::{DateTime, Utc};
use serde_json::Value;

use crate::channel::{BoardDefinition, BoardError};
use crate::keywords::{self, Expr};

/// The documents of one source that a feed drops when they match `expr`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceExclusion {
    pub source_id: String,
    pub expr: Expr,
}

/// A feed definition as filters over documents.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Filters {
    /// The combined text rule; `None` when the definition names no keyword and no company.
    pub text: Option<Expr>,
    /// Whether `text` has a positive part (an include keyword or a company), not only NOT.
    pub positive_text: bool,
    /// Sources in include mode (`filter: true`), sorted.
    pub included_sources: Vec<String>,
    /// Sources in exclude mode (`exclusion_filter: true`), sorted.
    pub excluded_sources: Vec<String>,
    /// `secondary_sources`: kept alongside the included ones, sorted.
    pub secondary_sources: Vec<String>,
    /// `exclusion_rules.keywords` per source, by source id.
    pub source_exclusions: Vec<SourceExclusion>,
    /// Category whitelist (`common` entries with `filter: true`), sorted; empty keeps all.
    pub categories: Vec<String>,
    /// The date-range shorthand (`1d` ... `3y`), checked.
    pub date_range: Option<String>,
}

impl Filters {
    /// Reads `definition` into filters. Refuses keywords that do not parse (the spec's messages),
    /// a source in both modes, a shorthand that is not one, and parts not in the builder's shape.
    /// A definition that matches everything is read (see [`Filters::matches_everything`]); use
    /// [`Filters::checked`] where such a feed must be refused.
    pub fn of(definition: &BoardDefinition) -> Result<Filters, BoardError> {
        let parse = |k: &str| keywords::parse(k.trim()).map_err(BoardError::Keyword);
        let mut positives = Vec::new();
        for entry in &definition.keywords.include {
            if !entry.keyword.trim().is_empty() {
                positives.push(parse(&entry.keyword)?);
            }
        }
        for company in companies(&definition.companies)? {
            positives.extend(company);
        }
        let mut negatives = Vec::new();
        for entry in &definition.keywords.exclude {
            if !entry.keyword.trim().is_empty() {
                negatives.push(parse(&entry.keyword)?);
            }
        }
        let positive_text = !positives.is_empty();
        let text = match (any_of(positives), any_of(negatives)) {
            (None, None) => None,
            (Some(p), None) => Some(p),
            (None, Some(n)) => Some(Expr::Not(Box::new(n))),
            (Some(p), Some(n)) => Some(Expr::And(vec![p, Expr::Not(Box::new(n))])),
        };

        let mut included = Vec::new();
        let mut excluded = Vec::new();
        let mut source_exclusions = Vec::new();
        match &definition.sources {
            Value::Null => {}
            Value::Object(sources) => {
                for (source_id, filter) in sources {
                    let bad = || BoardError::BadFilter("sources");
                    let Value::Object(filter) = filter else { return Err(bad()) };
                    let include = flag(filter.get("filter")).ok_or_else(bad)?;
                    let exclude = flag(filter.get("exclusion_filter")).ok_or_else(bad)?;
                    if include && exclude {
                        return Err(BoardError::SourceBothModes(source_id.clone()));
                    }
                    if include {
                        included.push(source_id.clone());
                    }
                    if exclude {
                        excluded.push(source_id.clone());
                    }
                    let rules = match filter.get("exclusion_rules") {
                        None | Some(Value::Null) => vec![],
                        Some(Value::Object(rules)) => keyword_list(rules.get("keywords")).ok_or_else(bad)?,
                        Some(_) => return Err(bad()),
                    };
                    let mut exprs = Vec::new();
                    for keyword in rules.iter().filter(|k| !k.trim().is_empty()) {
                        exprs.push(parse(keyword)?);
                    }
                    if let Some(expr) = any_of(exprs) {
                        source_exclusions.push(SourceExclusion { source_id: source_id.clone(), expr });
                    }
                }
            }
            _ => return Err(BoardError::BadFilter("sources")),
        }
        let secondary = match &definition.secondary_sources {
            Value::Null => vec![],
            Value::Array(items) => items
                .iter()
                .map(|v| match v {
                    Value::String(s) => Some(s.clone()),
                    Value::Object(o) => o.get("source_id").and_then(Value::as_str).map(str::to_string),
                    _ => None,
                })
                .collect::<Option<Vec<_>>>()
                .ok_or(BoardError::BadFilter("secondary sources"))?,
            _ => return Err(BoardError::BadFilter("secondary sources")),
        };
        let categories = match &definition.common {
            Value::Null => vec![],
            Value::Object(common) => {
                let mut out = Vec::new();
                for (category, filter) in common {
                    let on = match filter {
                        Value::Bool(b) => Some(*b),
                        Value::Object(o) => flag(o.get("filter")),
                        _ => None,
                    }
                    .ok_or(BoardError::BadFilter("categories"))?;
                    if on {
                        out.push(category.clone());
                    }
                }
                out
            }
            _ => return Err(BoardError::BadFilter("categories")),
        };
        let date_range = definition.date_range.as_deref().map(str::trim).filter(|d| !d.is_empty());
        if let Some(shorthand) = date_range {
            crate::date_range::range(shorthand, DateTime::<Utc>::UNIX_EPOCH).map_err(|_| BoardError::DateRange)?;
        }
        Ok(Filters {
            text,
            positive_text,
            included_sources: sorted(included),
            excluded_sources: sorted(excluded),
            secondary_sources: sorted(secondary),
            source_exclusions,
            categories: sorted(categories),
            date_range: date_range.map(str::to_string),
        })
    }

    /// As [`Filters::of`], and refuses a definition that would match everything the user reads.
    pub fn checked(definition: &BoardDefinition) -> Result<Filters, BoardError> {
        let filters = Filters::of(definition)?;
        if filters.matches_everything() {
            return Err(BoardError::MatchesEverything);
        }
        Ok(filters)
    }

    /// Whether nothing narrows the feed to something to follow: no positive text rule, no
    /// included source and no category. Excluded sources, exclusions and a date range alone
    /// still leave nearly everything.
    pub fn matches_everything(&self) -> bool {
        !self.positive_text && self.kept_sources().is_empty() && self.categories.is_empty()
    }

    /// The sources the feed keeps: the included and the secondary ones, sorted, without
    /// duplicates. Empty keeps every source.
    pub fn kept_sources(&self) -> Vec<String> {
        sorted(self.included_sources.iter().chain(&self.secondary_sources).cloned().collect())
    }

    /// The published range the date range names, in unix seconds, ending at `now`.
    pub fn published_between(&self, now: DateTime<Utc>) -> Option<(i64, i64)> {
        let shorthand = self.date_range.as_deref()?;
        // Checked when read; a shorthand reaching past chrono's range keeps everything before now.
        match crate::date_range::range(shorthand, now) {
            Ok((from, to)) => Some((from.timestamp(), to.timestamp())),
            Err(_) => Some((i64::MIN, now.timestamp())),
        }
    }
}

fn sorted(mut values: Vec<String>) -> Vec<String> {
    values.sort();
    values.dedup();
    values
}

/// One expression of many: the OR of them (an OR among them spliced in), or the one itself.
fn any_of(exprs: Vec<Expr>) -> Option<Expr> {
    let mut exprs: Vec<Expr> = exprs
        .into_iter()
        .flat_map(|e| match e {
            Expr::Or(parts) => parts,
            other => vec![other],
        })
        .collect();
    match exprs.len() {
        0 => None,
        1 => exprs.pop(),
        _ => Some(Expr::Or(exprs)),
    }
}

/// A boolean flag of the builder's JSON; absent or null is false.
fn flag(value: Option<&Value>) -> Option<bool> {
    match value {
        None | Some(Value::Null) => Some(false),
        Some(Value::Bool(b)) => Some(*b),
        Some(_) => None,
    }
}

/// A list of keywords, each a string or `{"keyword": ...}`.
fn keyword_list(value: Option<&Value>) -> Option<Vec<String>> {
    match value {
        None | Some(Value::Null) => Some(vec![]),
        Some(Value::Array(items)) => items
            .iter()
            .map(|v| match v {
                Value::String(s) => Some(s.clone()),
                Value::Object(o) => o.get("keyword").and_then(Value::as_str).map(str::to_string),
                _ => None,
            })
            .collect(),
        Some(_) => None,
    }
}

/// Each company's terms: its name and aliases as phrases, its ISIN, CIN and codes as words.
fn companies(value: &Value) -> Result<Vec<Vec<Expr>>, BoardError> {
    let bad = || BoardError::BadFilter("companies");
    let items = match value {
        Value::Null => return Ok(vec![]),
        Value::Array(items) => items,
        _ => return Err(bad()),
    };
    let mut out = Vec::new();
    for item in items {
        let mut terms = Vec::new();
        let phrase = |s: &str| {
            let s = s.split_whitespace().collect::<Vec<_>>().join(" ");
            (!s.is_empty()).then_some(Expr::Phrase(s))
        };
        let word = |s: &str| {
            let s = s.trim();
            (!s.is_empty()).then(|| Expr::Word(s.to_string()))
        };
        match item {
            Value::String(name) => terms.extend(phrase(name)),
            Value::Object(company) => {
                let text = |key: &str| -> Result<Option<&str>, BoardError> {
                    match company.get(key) {
                        None | Some(Value::Null) => Ok(None),
                        Some(Value::String(s)) => Ok(Some(s)),
                        Some(_) => Err(bad()),
                    }
                };
                let list = |key: &str| -> Result<Vec<String>, BoardError> {
                    match company.get(key) {
                        None | Some(Value::Null) => Ok(vec![]),
                        Some(Value::Array(items)) => {
                            items.iter().map(|v| v.as_str().map(str::to_string).ok_or_else(bad)).collect()
                        }
                        Some(_) => Err(bad()),
                    }
                };
                terms.extend(text("name")?.and_then(phrase));
                for alias in list("aliases")? {
                    terms.extend(phrase(&alias));
                }
                terms.extend(text("isin")?.and_then(word));
                terms.extend(text("cin")?.and_then(word));
                for code in list("codes")? {
                    terms.extend(word(&code));
                }
            }
            _ => return Err(bad()),
        }
        out.push(terms);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::channel::{BoardKeyword, BoardKeywords};
    use crate::keywords::KeywordError;
    use serde_json::json;

    fn keyword(k: &str) -> BoardKeyword {
        BoardKeyword { keyword: k.into(), valid: true }
    }

    /// A definition named "Feed" with these include and exclude keywords.
    fn given(include: &[&str], exclude: &[&str]) -> BoardDefinition {
        BoardDefinition {
            name: "Feed".into(),
            keywords: BoardKeywords {
                include: include.iter().map(|k| keyword(k)).collect(),
                exclude: exclude.iter().map(|k| keyword(k)).collect(),
            },
            ..Default::default()
        }
    }

    fn text(definition: &BoardDefinition) -> String {
        Filters::of(definition).unwrap().text.map(|e| e.to_string()).unwrap_or_default()
    }

    #[test]
    fn includes_are_ored_and_excludes_negated_together() {
        let definition = given(&["\"rate cut\" OR inflation", "repo"], &["crypto", "bitcoin"]);
        assert_eq!(text(&definition), "(\"rate cut\" OR inflation OR repo) AND NOT (crypto OR bitcoin)");
        let filters = Filters::of(&definition).unwrap();
        assert!(filters.positive_text);
        assert!(!filters.matches_everything());
    }

    #[test]
    fn without_includes_the_rule_is_only_its_not_part() {
        assert_eq!(text(&given(&[], &["sport"])), "NOT sport");
        let filters = Filters::of(&given(&[], &["sport"])).unwrap();
        assert!(!filters.positive_text);
        assert!(filters.matches_everything(), "a NOT alone still follows nearly everything");
        assert_eq!(Filters::of(&given(&[], &[])).unwrap().text, None);
    }

    #[test]
    fn a_company_brings_its_names_as_phrases_and_its_identifiers_as_words() {
        let definition = BoardDefinition {
            companies: json!([{"name": "Infosys", "isin": "INE009A01021", "cin": "L85110KA1981PLC013115",
                               "codes": ["INFY", "500209"], "aliases": ["Infosys  Ltd"]}]),
            ..given(&["results"], &[])
        };
        assert_eq!(
            text(&definition),
            "results OR \"Infosys\" OR \"Infosys Ltd\" OR INE009A01021 OR L85110KA1981PLC013115 OR INFY OR 500209"
        );
    }

    #[test]
    fn a_company_alone_is_something_to_follow() {
        let definition = BoardDefinition { companies: json!([{"name": "Tata Steel"}]), ..given(&[], &[]) };
        let filters = Filters::checked(&definition).unwrap();
        assert_eq!(filters.text, Some(Expr::Phrase("Tata Steel".into())));
    }

    #[test]
    fn sources_are_read_by_mode_with_secondary_ones_kept_too() {
        let definition = BoardDefinition {
            sources: json!({
                "livemint": {"filter": true, "exclusion_filter": false},
                "bbc": {"filter": false, "exclusion_filter": true},
                "reuters": {"filter": true, "exclusion_rules": {"keywords": ["sport", "\"live score\""]}},
                "cnbc": {"exclusion_rules": {"keywords": [{"keyword": "crypto"}]}},
            }),
            secondary_sources: json!(["nse", "livemint"]),
            ..given(&[], &[])
        };
        let filters = Filters::of(&definition).unwrap();
        assert_eq!(filters.included_sources, vec!["livemint", "reuters"]);
        assert_eq!(filters.excluded_sources, vec!["bbc"]);
        assert_eq!(filters.kept_sources(), vec!["livemint", "nse", "reuters"]);
        let exclusions: Vec<(String, String)> =
            filters.source_exclusions.iter().map(|e| (e.source_id.clone(), e.expr.to_string())).collect();
        assert_eq!(
            exclusions,
            vec![("cnbc".into(), "crypto".into()), ("reuters".into(), "sport OR \"live score\"".into())]
        );
        assert!(!filters.matches_everything(), "included sources are something to follow");
    }

    #[test]
    fn a_source_in_both_modes_is_refused() {
        let definition = BoardDefinition {
            sources: json!({"bbc": {"filter": true, "exclusion_filter": true}}),
            ..given(&["x"], &[])
        };
        assert_eq!(Filters::of(&definition), Err(BoardError::SourceBothModes("bbc".into())));
    }

    #[test]
    fn categories_are_a_whitelist_of_the_entries_turned_on() {
        let definition = BoardDefinition {
            common: json!({"rss_news": {"filter": true}, "drives": {"filter": false}, "india_regulatory_data": true}),
            ..given(&[], &[])
        };
        let filters = Filters::checked(&definition).unwrap();
        assert_eq!(filters.categories, vec!["india_regulatory_data", "rss_news"]);
    }

    #[test]
    fn a_definition_that_follows_everything_is_refused_with_the_contract_message() {
        let definition = BoardDefinition {
            sources: json!({"bbc": {"exclusion_filter": true}}),
            date_range: Some("1M".into()),
            ..given(&[], &["sport"])
        };
        let error = Filters::checked(&definition).unwrap_err();
        assert_eq!(error, BoardError::MatchesEverything);
        assert_eq!(error.to_string(), "Add a keyword, a company or a source so the feed has something to follow.");
    }

    #[test]
    fn the_date_range_names_a_window_ending_now() {
        let filters = Filters::of(&BoardDefinition { date_range: Some("1w".into()), ..given(&["x"], &[]) }).unwrap();
        let now = DateTime::<Utc>::from_timestamp(1_800_000_000, 0).unwrap();
        assert_eq!(filters.published_between(now), Some((1_800_000_000 - 7 * 86_400, 1_800_000_000)));
        assert_eq!(Filters::of(&given(&["x"], &[])).unwrap().published_between(now), None);
        let wrong = BoardDefinition { date_range: Some("2 weeks".into()), ..given(&["x"], &[]) };
        assert_eq!(Filters::of(&wrong), Err(BoardError::DateRange));
    }

    #[test]
    fn bad_keywords_anywhere_are_refused_with_the_spec_messages() {
        assert_eq!(Filters::of(&given(&["(a OR b"], &[])), Err(BoardError::Keyword(KeywordError::Parentheses)));
        assert_eq!(Filters::of(&given(&["a"], &["b OR"])), Err(BoardError::Keyword(KeywordError::DanglingOperator)));
        let per_source = BoardDefinition {
            sources: json!({"bbc": {"exclusion_rules": {"keywords": ["\"open"]}}}),
            ..given(&["a"], &[])
        };
        assert_eq!(Filters::of(&per_source), Err(BoardError::Keyword(KeywordError::Quotes)));
    }

    #[test]
    fn filters_not_in_the_builders_shape_are_refused() {
        let cases = [
            BoardDefinition { sources: json!(["bbc"]), ..given(&["a"], &[]) },
            BoardDefinition { sources: json!({"bbc": {"filter": "yes"}}), ..given(&["a"], &[]) },
            BoardDefinition { secondary_sources: json!([1]), ..given(&["a"], &[]) },
            BoardDefinition { common: json!({"rss_news": 3}), ..given(&["a"], &[]) },
            BoardDefinition { companies: json!([{"name": 7}]), ..given(&["a"], &[]) },
        ];
        for definition in cases {
            assert!(matches!(Filters::of(&definition), Err(BoardError::BadFilter(_))), "{definition:?}");
        }
    }
}
