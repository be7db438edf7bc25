//! EDGAR's company list (`https://www.sec.gov/files/company_tickers.json`) and resolving what a
//! person typed — a ticker, a CIK or a name — to a company.
//!
//! The list holds about 10,000 companies with a ticker, largest first; one CIK can appear several
//! times with different tickers (BRK-A and BRK-B). It is parsed once and kept; names are
//! normalised up front (case, punctuation, corporate suffixes) so that matching on every
//! keystroke is a scan over prepared words.

use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize};

use super::feed::parse_cik;
use super::title::strip_state_suffix;

/// The list is about 2 MB; far more is not the list.
pub const MAX_LIST_BYTES: usize = 32 * 1024 * 1024;
/// Entries read from the list (EDGAR's holds about 10,000).
pub const MAX_COMPANIES: usize = 100_000;
/// Queries longer than this are not names anyone typed.
const MAX_QUERY_CHARS: usize = 200;
/// Words of a name query that count; the rest only narrow what is already found.
const MAX_QUERY_WORDS: usize = 8;
/// Candidates an ambiguous answer offers.
const MAX_AMBIGUOUS: usize = 10;
/// Words dropped from the end of names (and "the" from their start) before matching.
const SUFFIXES: &[&str] =
    &["inc", "corp", "corporation", "co", "company", "ltd", "plc", "llc", "lp", "sa", "ag", "nv", "the"];

/// Why the company list could not be read, worded for the operator who refreshes it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CompaniesError {
    #[error("the company list is larger than Needl reads ({size} bytes, at most {max})")]
    TooLarge { size: usize, max: usize },
    #[error("the company list is not EDGAR's company_tickers.json: {0}")]
    Unreadable(String),
    #[error("the company list holds no companies")]
    NoCompanies,
}

/// A company EDGAR lists with at least one ticker.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Company {
    pub cik: u64,
    /// The primary ticker: the first the list gives for this CIK.
    pub ticker: Option<String>,
    /// Every ticker of the CIK, in list order.
    pub tickers: Vec<String>,
    /// The name as EDGAR lists it ("Apple Inc.", "MICROSOFT CORP").
    pub name: String,
}

impl Company {
    /// The CIK as EDGAR's addresses spell it, ten digits: "0000320193".
    pub fn cik_padded(&self) -> String {
        format!("{:010}", self.cik)
    }
}

/// What a query resolved to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Resolution {
    Found(Company),
    /// Digits not in the list: many filers have no ticker; the caller checks the CIK with EDGAR
    /// itself.
    UnlistedCik(u64),
    /// Several companies fit: at most 10, best first.
    Ambiguous(Vec<Company>),
    NotFound,
}

/// How well a name fits a query, best lowest: whether it starts with the first query word, then
/// how many query words are whole words of it.
type NameScore = std::cmp::Reverse<(bool, usize)>;

/// A company's name prepared for matching.
#[derive(Debug, Clone)]
struct NameKey {
    /// The normalised words joined by single spaces.
    joined: String,
    words: Vec<String>,
}

/// EDGAR's company list, with indexes for resolving and type-ahead search.
#[derive(Debug, Clone)]
pub struct Companies {
    /// In list order, which is largest company first: the order ties are broken in.
    companies: Vec<Company>,
    names: Vec<NameKey>,
    by_cik: HashMap<u64, usize>,
    by_ticker: HashMap<String, usize>,
    /// Normalised tickers, sorted, for prefix search.
    tickers: Vec<(String, usize)>,
}

#[derive(Deserialize)]
struct Entry {
    cik_str: serde_json::Value,
    #[serde(default)]
    ticker: Option<String>,
    #[serde(default)]
    title: Option<String>,
}

impl Companies {
    /// Reads `company_tickers.json` (`{"0":{"cik_str":320193,"ticker":"AAPL","title":"Apple Inc."},…}`),
    /// or its sibling `company_tickers_exchange.json` (`{"fields":[…],"data":[[…],…]}`).
    /// Entries without a usable CIK or name are passed over.
    pub fn parse(bytes: &[u8]) -> Result<Companies, CompaniesError> {
        if bytes.len() > MAX_LIST_BYTES {
            return Err(CompaniesError::TooLarge { size: bytes.len(), max: MAX_LIST_BYTES });
        }
        let value: serde_json::Value =
            serde_json::from_slice(bytes).map_err(|e| CompaniesError::Unreadable(e.to_string()))?;
        let rows = match &value {
            serde_json::Value::Object(map) if map.contains_key("fields") && map.contains_key("data") => {
                exchange_rows(map)?
            }
            serde_json::Value::Object(map) => ticker_rows(map),
            _ => return Err(CompaniesError::Unreadable("it is not a JSON object".into())),
        };
        let mut list = Companies {
            companies: Vec::new(),
            names: Vec::new(),
            by_cik: HashMap::new(),
            by_ticker: HashMap::new(),
            tickers: Vec::new(),
        };
        for (cik, ticker, name) in rows.into_iter().take(MAX_COMPANIES) {
            list.add(cik, ticker, name);
        }
        if list.companies.is_empty() {
            return Err(CompaniesError::NoCompanies);
        }
        list.tickers = list.by_ticker.iter().map(|(t, i)| (t.clone(), *i)).collect();
        list.tickers.sort();
        Ok(list)
    }

    fn add(&mut self, cik: u64, ticker: Option<String>, name: String) {
        let index = match self.by_cik.get(&cik) {
            Some(index) => *index,
            None => {
                let index = self.companies.len();
                self.names.push(name_key(&name));
                self.companies.push(Company { cik, ticker: None, tickers: Vec::new(), name });
                self.by_cik.insert(cik, index);
                index
            }
        };
        let Some(ticker) = ticker else { return };
        let key = ticker_key(&ticker);
        if key.is_empty() || self.by_ticker.contains_key(&key) {
            return;
        }
        self.by_ticker.insert(key, index);
        let company = &mut self.companies[index];
        if company.ticker.is_none() {
            company.ticker = Some(ticker.clone());
        }
        company.tickers.push(ticker);
    }

    pub fn len(&self) -> usize {
        self.companies.len()
    }

    pub fn is_empty(&self) -> bool {
        self.companies.is_empty()
    }

    pub fn by_cik(&self, cik: u64) -> Option<&Company> {
        self.by_cik.get(&cik).map(|i| &self.companies[*i])
    }

    /// What a person typed: a CIK (1–10 digits, leading zeros allowed, "CIK" before it
    /// allowed), a ticker (case-insensitive; '.' and '-' the same, "BRK.B" = "BRK-B"), or a name.
    /// A ticker wins over a name that merely contains the same letters.
    pub fn resolve(&self, query: &str) -> Resolution {
        let query = query.trim();
        if query.is_empty() || query.chars().count() > MAX_QUERY_CHARS {
            return Resolution::NotFound;
        }
        if let Some(cik) = cik_query(query) {
            return match self.by_cik(cik) {
                Some(company) => Resolution::Found(company.clone()),
                None => Resolution::UnlistedCik(cik),
            };
        }
        if query.bytes().all(|b| b.is_ascii_digit()) {
            return Resolution::NotFound;
        }
        if let Some(index) = self.by_ticker.get(&ticker_key(query)) {
            return Resolution::Found(self.companies[*index].clone());
        }
        let key = name_key(query);
        if key.words.is_empty() {
            return Resolution::NotFound;
        }
        let exact: Vec<usize> = (0..self.names.len()).filter(|i| self.names[*i].joined == key.joined).collect();
        if exact.len() == 1 {
            return Resolution::Found(self.companies[exact[0]].clone());
        }
        let mut matches = if exact.is_empty() { self.name_matches(&key.words) } else { exact };
        match matches.len() {
            0 => Resolution::NotFound,
            1 => Resolution::Found(self.companies[matches[0]].clone()),
            _ => {
                matches.truncate(MAX_AMBIGUOUS);
                Resolution::Ambiguous(matches.into_iter().map(|i| self.companies[i].clone()).collect())
            }
        }
    }

    /// For a type-ahead: the company of a typed CIK, the exact ticker, then tickers starting with
    /// the query, then companies whose name words start with the query's words; each company once,
    /// at most `limit`.
    pub fn search(&self, query: &str, limit: usize) -> Vec<Company> {
        let query = query.trim();
        if query.is_empty() || limit == 0 || query.chars().count() > MAX_QUERY_CHARS {
            return Vec::new();
        }
        let mut picked: Vec<usize> = Vec::new();
        let take = |index: usize, picked: &mut Vec<usize>| {
            if picked.len() < limit && !picked.contains(&index) {
                picked.push(index);
            }
        };
        if let Some(index) = cik_query(query).and_then(|cik| self.by_cik.get(&cik)) {
            take(*index, &mut picked);
        }
        let key = ticker_key(query);
        if !key.is_empty() {
            if let Some(index) = self.by_ticker.get(&key) {
                take(*index, &mut picked);
            }
            let start = self.tickers.partition_point(|(t, _)| t.as_str() < key.as_str());
            let mut prefixed: Vec<(usize, usize)> = self.tickers[start..]
                .iter()
                .take_while(|(t, _)| t.starts_with(&key))
                .map(|(t, i)| (t.len(), *i))
                .collect();
            // Shorter tickers first (closer to what was typed), then larger companies.
            prefixed.sort_unstable_by_key(|(len, index)| (*len, *index));
            for (_, index) in prefixed {
                if picked.len() >= limit {
                    return self.cloned(&picked);
                }
                take(index, &mut picked);
            }
        }
        let words = name_key(query).words;
        if !words.is_empty() && picked.len() < limit {
            for index in self.name_matches(&words) {
                if picked.len() >= limit {
                    break;
                }
                take(index, &mut picked);
            }
        }
        self.cloned(&picked)
    }

    fn cloned(&self, indexes: &[usize]) -> Vec<Company> {
        indexes.iter().map(|i| self.companies[*i].clone()).collect()
    }

    /// Companies whose names hold a word starting with each query word, best first: names that
    /// start with the first query word, then those where more query words are whole words, then
    /// shorter names, then list order (larger companies first).
    fn name_matches(&self, query: &[String]) -> Vec<usize> {
        let query = &query[..query.len().min(MAX_QUERY_WORDS)];
        let mut scored: Vec<(NameScore, usize, usize)> = Vec::new();
        for (index, name) in self.names.iter().enumerate() {
            let mut whole = 0usize;
            let all = query.iter().all(|q| {
                let mut hit = false;
                for word in &name.words {
                    if word == q {
                        whole += 1;
                        return true;
                    }
                    hit |= word.starts_with(q.as_str());
                }
                hit
            });
            if all {
                let leads = name.words.first().is_some_and(|w| w.starts_with(query[0].as_str()));
                scored.push((std::cmp::Reverse((leads, whole)), name.words.len(), index));
            }
        }
        scored.sort_unstable();
        scored.into_iter().map(|(_, _, index)| index).collect()
    }
}

/// Rows of `company_tickers.json`, in the order of their numeric keys.
fn ticker_rows(map: &serde_json::Map<String, serde_json::Value>) -> Vec<(u64, Option<String>, String)> {
    let mut ordered: BTreeMap<(u64, String), &serde_json::Value> = BTreeMap::new();
    for (key, value) in map.iter().take(MAX_COMPANIES) {
        let position = key.trim().parse::<u64>().unwrap_or(u64::MAX);
        ordered.insert((position, key.clone()), value);
    }
    ordered
        .into_values()
        .filter_map(|value| {
            let entry: Entry = serde_json::from_value(value.clone()).ok()?;
            let cik = cik_of(&entry.cik_str)?;
            let name = entry.title.map(|t| t.trim().to_owned()).filter(|t| !t.is_empty())?;
            let ticker = entry.ticker.map(|t| t.trim().to_owned()).filter(|t| !t.is_empty() && t.len() <= 20);
            Some((cik, ticker, name))
        })
        .collect()
}

/// Rows of `company_tickers_exchange.json`, whose `fields` name the columns of `data`.
fn exchange_rows(
    map: &serde_json::Map<String, serde_json::Value>,
) -> Result<Vec<(u64, Option<String>, String)>, CompaniesError> {
    let fields: Vec<&str> = map["fields"].as_array().into_iter().flatten().filter_map(|f| f.as_str()).collect();
    let column = |name: &str| fields.iter().position(|f| *f == name);
    let (Some(cik_at), Some(name_at), ticker_at) = (column("cik"), column("name"), column("ticker")) else {
        return Err(CompaniesError::Unreadable("its fields do not name cik and name".into()));
    };
    let data = map["data"].as_array().map(Vec::as_slice).unwrap_or_default();
    Ok(data
        .iter()
        .take(MAX_COMPANIES)
        .filter_map(|row| {
            let row = row.as_array()?;
            let cik = cik_of(row.get(cik_at)?)?;
            let name = row.get(name_at)?.as_str()?.trim().to_owned();
            let ticker = ticker_at
                .and_then(|i| row.get(i)?.as_str())
                .map(|t| t.trim().to_owned())
                .filter(|t| !t.is_empty() && t.len() <= 20);
            (!name.is_empty()).then_some((cik, ticker, name))
        })
        .collect())
}

/// A CIK given as a JSON number or string.
fn cik_of(value: &serde_json::Value) -> Option<u64> {
    match value {
        serde_json::Value::Number(n) => n.as_u64().filter(|c| *c > 0 && *c < 10_000_000_000),
        serde_json::Value::String(s) => parse_cik(s),
        _ => None,
    }
}

/// A typed CIK: 1 to 10 digits, optionally after "CIK".
fn cik_query(query: &str) -> Option<u64> {
    let digits = match query.get(..3) {
        Some(head) if head.eq_ignore_ascii_case("cik") => query[3..].trim_start_matches([' ', ':', '#']),
        _ => query,
    };
    parse_cik(digits)
}

/// A ticker as matched: upper case, with '.' and '/' read as EDGAR's '-' ("BRK.B" = "BRK-B").
fn ticker_key(ticker: &str) -> String {
    ticker
        .trim()
        .chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| match c {
            '.' | '/' => '-',
            c => c.to_ascii_uppercase(),
        })
        .collect()
}

/// A name prepared for matching: lower case; apostrophes, periods and ampersands dropped so
/// "AT&T" and "J.P." hold together; other punctuation splitting words; a trailing state suffix
/// ("/DE/"), a leading "the" and trailing corporate suffixes removed, keeping at least one word.
fn name_key(name: &str) -> NameKey {
    let name = strip_state_suffix(name);
    let mut cleaned = String::with_capacity(name.len());
    for c in name.chars() {
        if c.is_alphanumeric() {
            cleaned.extend(c.to_lowercase());
        } else if !matches!(c, '\'' | '\u{2019}' | '.' | '&') {
            cleaned.push(' ');
        }
    }
    let mut words: Vec<String> = cleaned.split_whitespace().take(64).map(str::to_owned).collect();
    while words.len() > 1 && words.last().is_some_and(|w| SUFFIXES.contains(&w.as_str())) {
        words.pop();
    }
    if words.len() > 1 && words[0] == "the" {
        words.remove(0);
    }
    NameKey { joined: words.join(" "), words }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIST: &[u8] =
        include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/edgar/company_tickers.json"));

    fn list() -> Companies {
        Companies::parse(LIST).unwrap()
    }

    fn found(resolution: Resolution) -> Company {
        match resolution {
            Resolution::Found(company) => company,
            other => panic!("expected one company, got {other:?}"),
        }
    }

    #[test]
    fn the_list_merges_tickers_of_one_cik_and_keeps_the_first_as_primary() {
        let list = list();
        assert_eq!(list.len(), 30);
        assert!(!list.is_empty());
        let berkshire = list.by_cik(1067983).unwrap();
        assert_eq!(berkshire.ticker.as_deref(), Some("BRK-B"));
        assert_eq!(berkshire.tickers, ["BRK-B", "BRK-A"]);
        let alphabet = list.by_cik(1652044).unwrap();
        assert_eq!(alphabet.tickers, ["GOOGL", "GOOG"]);
        assert_eq!(list.by_cik(320193).unwrap().cik_padded(), "0000320193");
    }

    #[test]
    fn entries_are_taken_in_the_order_of_their_numeric_keys() {
        let json = br#"{"10":{"cik_str":2,"ticker":"BB","title":"Second"},"2":{"cik_str":2,"ticker":"AA","title":"Second"},"1":{"cik_str":"0000000001","ticker":"ONE","title":"First"}}"#;
        let list = Companies::parse(json).unwrap();
        assert_eq!(list.by_cik(2).unwrap().tickers, ["AA", "BB"]);
        assert_eq!(list.by_cik(1).unwrap().ticker.as_deref(), Some("ONE"));
    }

    #[test]
    fn bad_entries_are_passed_over_and_a_list_without_companies_is_an_error() {
        let json = br#"{"0":{"cik_str":-4,"ticker":"X","title":"Bad"},"1":{"ticker":"Y"},"2":{"cik_str":5,"ticker":"","title":"No Ticker Co"},"3":[1,2]}"#;
        let list = Companies::parse(json).unwrap();
        assert_eq!(list.len(), 1);
        assert_eq!(list.by_cik(5).unwrap().ticker, None);
        assert_eq!(Companies::parse(b"{}").unwrap_err(), CompaniesError::NoCompanies);
        assert!(matches!(Companies::parse(b"<html>"), Err(CompaniesError::Unreadable(_))));
        assert!(matches!(Companies::parse(b"[1,2]"), Err(CompaniesError::Unreadable(_))));
    }

    #[test]
    fn the_exchange_variant_of_the_list_is_read_too() {
        let json = br#"{"fields":["cik","name","ticker","exchange"],"data":[[320193,"Apple Inc.","AAPL","Nasdaq"],[1067983,"BERKSHIRE HATHAWAY INC","BRK-B","NYSE"],[1067983,"BERKSHIRE HATHAWAY INC","BRK-A","NYSE"]]}"#;
        let list = Companies::parse(json).unwrap();
        assert_eq!(list.len(), 2);
        assert_eq!(list.by_cik(1067983).unwrap().tickers, ["BRK-B", "BRK-A"]);
    }

    #[test]
    fn a_cik_resolves_with_or_without_leading_zeros_and_an_unlisted_one_is_passed_on() {
        let list = list();
        assert_eq!(found(list.resolve("320193")).name, "Apple Inc.");
        assert_eq!(found(list.resolve("0000320193")).name, "Apple Inc.");
        assert_eq!(found(list.resolve("CIK 0000789019")).cik, 789019);
        assert_eq!(list.resolve("0001234567"), Resolution::UnlistedCik(1234567));
        assert_eq!(list.resolve("12345678901"), Resolution::NotFound, "eleven digits are no CIK");
        assert_eq!(list.resolve("0"), Resolution::NotFound);
    }

    #[test]
    fn a_ticker_resolves_in_any_case_with_dot_or_dash() {
        let list = list();
        assert_eq!(found(list.resolve("aapl")).cik, 320193);
        assert_eq!(found(list.resolve("BRK.B")).cik, 1067983);
        assert_eq!(found(list.resolve("brk-a")).cik, 1067983);
        assert_eq!(found(list.resolve("GOOG")).cik, 1652044);
    }

    #[test]
    fn a_name_resolves_without_case_punctuation_or_corporate_suffix() {
        let list = list();
        assert_eq!(found(list.resolve("apple")).cik, 320193, "exact name beats Apple Hospitality");
        assert_eq!(found(list.resolve("Microsoft Corporation")).cik, 789019);
        assert_eq!(found(list.resolve("microsoft")).cik, 789019);
        assert_eq!(found(list.resolve("Bank of America")).cik, 70858, "the /DE/ suffix is dropped");
        assert_eq!(found(list.resolve("coca-cola")).cik, 21344);
        assert_eq!(found(list.resolve("at&t")).cik, 732717);
        assert_eq!(found(list.resolve("berkshire")).cik, 1067983, "one company whose name starts so");
        assert_eq!(found(list.resolve("taiwan semi")).cik, 1046179);
    }

    #[test]
    fn several_fitting_names_are_ambiguous_best_first() {
        let list = list();
        match list.resolve("appl") {
            Resolution::Ambiguous(companies) => {
                let ciks: Vec<u64> = companies.iter().map(|c| c.cik).collect();
                assert_eq!(ciks, [320193, 6951, 1418121]);
            }
            other => panic!("expected ambiguity, got {other:?}"),
        }
        match list.resolve("general") {
            Resolution::Ambiguous(companies) => assert!(companies.len() >= 2 && companies.len() <= 10),
            other => panic!("expected ambiguity, got {other:?}"),
        }
    }

    #[test]
    fn unknown_empty_and_overlong_queries_are_not_found() {
        let list = list();
        assert_eq!(list.resolve("zzzz unknown"), Resolution::NotFound);
        assert_eq!(list.resolve("   "), Resolution::NotFound);
        assert_eq!(list.resolve(&"a".repeat(201)), Resolution::NotFound);
        assert_eq!(list.resolve("&&&"), Resolution::NotFound);
    }

    #[test]
    fn search_puts_the_exact_ticker_first_then_ticker_prefixes_then_names() {
        let list = list();
        let hits: Vec<String> = list.search("ge", 10).into_iter().filter_map(|c| c.ticker).collect();
        assert_eq!(hits[..3], ["GE", "GEV", "GEHC"]);
        let names: Vec<String> = list.search("general", 10).into_iter().map(|c| c.name).collect();
        assert!(names.contains(&"GENERAL ELECTRIC CO".to_owned()), "{names:?}");
        let one_each = list.search("goog", 10);
        assert_eq!(one_each.len(), 1, "GOOGL and GOOG are one company");
        assert_eq!(list.search("ge", 2).len(), 2);
        assert!(list.search("", 5).is_empty());
        assert_eq!(list.search("320193", 5)[0].cik, 320193);
    }

    #[test]
    fn names_are_normalised_for_matching() {
        assert_eq!(name_key("BANK OF AMERICA CORP /DE/").joined, "bank of america");
        assert_eq!(name_key("The Coca-Cola Company").joined, "coca cola");
        assert_eq!(name_key("AT&T INC.").joined, "att");
        assert_eq!(name_key("Inc").joined, "inc", "one word is always kept");
        assert_eq!(ticker_key(" brk.b "), "BRK-B");
    }

    #[test]
    fn a_list_of_ten_thousand_companies_is_searched_by_ticker_and_name_words() {
        let mut json = String::from("{");
        for i in 0..10_000u64 {
            if i > 0 {
                json.push(',');
            }
            json.push_str(&format!(
                r#""{i}":{{"cik_str":{},"ticker":"T{i}","title":"Company Number {i} Holdings Inc"}}"#,
                i + 1
            ));
        }
        json.push('}');
        let list = Companies::parse(json.as_bytes()).unwrap();
        assert_eq!(list.len(), 10_000);
        let tickers: Vec<Option<String>> = list.search("t1", 3).into_iter().map(|c| c.ticker).collect();
        assert_eq!(tickers[0].as_deref(), Some("T1"), "the exact ticker first: {tickers:?}");
        assert_eq!(list.search("company n", 10).len(), 10, "at most the limit");
        match list.resolve("company number 9999 holdings") {
            Resolution::Found(company) => assert_eq!(company.cik, 10_000),
            other => panic!("{other:?}"),
        }
    }
}
