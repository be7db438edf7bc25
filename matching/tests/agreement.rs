//! The rule matcher agrees with the search index: for generated keyword expressions (words,
//! phrases, AND, OR, NOT, parentheses) over the words of a real corpus, the documents the index
//! returns for a feed are exactly the documents the matcher says match it. Then the other filters
//! (sources, per-source exclusions, categories, date range, companies), each against the index
//! too.
//!
//! The corpus is the items of the shared feeds data (`../shared/data/feeds`, or
//! `NEEDL_SHARED_DATA/feeds`) when present, else a built-in set of short news paragraphs, so the
//! test runs on a fresh clone (and says which it used).

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use chrono::{DateTime, Utc};
use domain::channel::{BoardDefinition, BoardKeyword, BoardKeywords};
use domain::feed_rules::{Filters, SourceExclusion};
use domain::keywords::{self, Expr};
use matching::RuleSet;
use proptest::prelude::*;
use search::{Access, Change, IndexedDocument, PageText, Request, SearchIndex};

const SOURCES: [&str; 4] = ["livemint", "bbc", "heise", "reuters"];
const CATEGORIES: [&str; 2] = ["rss_news", "drives"];
/// The instant "now" for every feed of these tests.
const NOW: i64 = 1_790_000_000;

fn now() -> DateTime<Utc> {
    DateTime::from_timestamp(NOW, 0).expect("a valid instant")
}

fn shared_data() -> PathBuf {
    std::env::var_os("NEEDL_SHARED_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/data")).to_path_buf())
}

/// (title, text) of every item of every readable feed file under `dir`.
fn feed_items(dir: &Path) -> Vec<(String, String)> {
    let mut files = Vec::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e != "md") {
                files.push(path);
            }
        }
    }
    files.sort();
    let mut items = Vec::new();
    for file in files {
        let Ok(bytes) = std::fs::read(&file) else { continue };
        let Ok(feed) = ingest::feeds::parse_feed_bytes(&bytes, "bench", None, &Default::default()) else { continue };
        for item in feed.items {
            let title = item.title.unwrap_or_default();
            let text = [item.summary, item.full_text].into_iter().flatten().collect::<Vec<_>>().join("\n\n");
            if !title.is_empty() || !text.is_empty() {
                items.push((title, text));
            }
        }
    }
    items
}

/// Short news paragraphs, for a fresh clone without the shared data.
const BUILT_IN: &[(&str, &str)] = &[
    ("Central bank holds rates", "The Reserve Bank of India kept the repo rate unchanged, saying inflation is easing but food prices remain volatile."),
    ("Rate cut hopes rise", "Economists now expect a rate cut in the next policy meeting as core inflation cools for a third month."),
    ("Steel prices climb", "Tata Steel and JSW raised prices of hot rolled coil after a surge in iron ore costs."),
    ("Infosys beats estimates", "Infosys Ltd reported quarterly results above estimates and raised its revenue guidance for the year."),
    ("Crypto slump deepens", "Bitcoin fell below a key level as crypto exchanges reported heavy outflows and regulators circled."),
    ("Monsoon arrives early", "The monsoon reached the Kerala coast a week early, lifting hopes for the sowing of summer crops."),
    ("Cricket league final", "The final of the cricket league drew a record television audience; live score updates crashed one app."),
    ("Oil steadies after rally", "Brent crude steadied near eighty dollars a barrel after a rally driven by supply cuts."),
    ("Bank merger approved", "The regulator approved the merger of two state-run banks, creating the country's second largest lender."),
    ("Tariffs on steel imports", "The government imposed safeguard tariffs on steel imports to protect domestic producers from cheap supply."),
    ("Rupee weakens", "The rupee weakened past a record low against the dollar as foreign investors sold local bonds."),
    ("Election results awaited", "Counting of votes begins on Tuesday; markets are bracing for volatility around the election results."),
    ("Chip plant announced", "A semiconductor company announced a chip plant in Gujarat with an investment of ten billion dollars."),
    ("Food inflation eases", "Vegetable prices fell sharply in May, pulling food inflation to its lowest in a year."),
    ("Airline orders jets", "The airline ordered one hundred narrow-body jets, its largest order, to expand domestic routes."),
    ("Ratings upgrade", "A ratings agency upgraded the sovereign outlook to positive, citing fiscal consolidation and steady growth."),
    ("Dividend declared", "The board declared a final dividend and approved a share buyback worth two thousand crore."),
    ("CEO steps down", "The chief executive stepped down after a decade; the board named the finance head as interim CEO."),
    ("Court halts project", "The high court halted the port project pending an environmental review of its impact on fisheries."),
    ("IPO oversubscribed", "The initial public offering was oversubscribed forty times on the last day of bidding."),
    ("Heatwave warning", "The weather office warned of a severe heatwave across the northern plains for the coming week."),
    ("Electric cars sales", "Sales of electric cars doubled from a year ago as prices fell and charging networks grew."),
    ("Telecom tariffs raised", "Telecom operators raised mobile tariffs by up to twenty percent, the first increase in two years."),
    ("Gold hits record", "Gold prices hit a record high as investors sought safety amid rate cut bets and geopolitical risk."),
    ("Fiscal deficit target", "The finance ministry kept the fiscal deficit target unchanged and promised higher capital spending."),
    ("Exports rise", "Merchandise exports rose for a fourth month, led by engineering goods, electronics and pharmaceuticals."),
    ("Bank of England cuts", "The Bank of England cut its policy rate by a quarter point, the first cut in four years."),
    ("Fed holds steady", "The Federal Reserve held rates steady and signalled that inflation must cool further before any cut."),
    ("Housing sales slow", "Housing sales slowed in the big cities as mortgage rates stayed high and prices kept rising."),
    ("Wheat procurement", "Government wheat procurement crossed its target as a bumper harvest reached the markets."),
    ("Cyber attack on lender", "A cyber attack disrupted the lender's payment services for six hours; no customer data was lost."),
    ("Solar auction", "The solar power auction drew record low tariffs, with winning bids below two and a half rupees."),
    ("Pharma recall", "The drug maker recalled batches of a blood pressure medicine in the United States after an inspection."),
    ("Sports ministry budget", "The sports ministry received a larger budget for training athletes ahead of the next games."),
    ("Startup funding dries up", "Startup funding fell to a five-year low as investors turned cautious on late-stage valuations."),
    ("Coal output record", "Coal India reported record output in April, easing worries about power shortages during the summer."),
    ("Insurance rules eased", "The insurance regulator eased rules for foreign investment in insurance brokers."),
    ("Inflation data due", "Retail inflation data is due on Monday; a poll expects a reading close to the central bank's target."),
    ("Auto sales festive", "Automakers reported strong festive season sales, with sport utility vehicles leading the demand."),
    ("Repo rate explained", "What the repo rate is, how it changes loan rates, and why the central bank moves it."),
];

struct Corpus {
    index: SearchIndex,
    documents: Vec<IndexedDocument>,
    /// Words of the corpus as typed, lowercased, never an operator word.
    words: Vec<String>,
    /// Runs of two or three consecutive words of the corpus, for phrases.
    phrases: Vec<String>,
}

fn corpus() -> &'static Corpus {
    static CORPUS: OnceLock<Corpus> = OnceLock::new();
    CORPUS.get_or_init(|| {
        let dir = shared_data().join("feeds");
        let mut items = feed_items(&dir);
        if items.is_empty() {
            eprintln!("corpus: {} not found or empty; using the built-in news paragraphs", dir.display());
            items = BUILT_IN.iter().map(|(t, x)| (t.to_string(), x.to_string())).collect();
        } else {
            eprintln!("corpus: {} items of {}", items.len(), dir.display());
        }
        let documents: Vec<IndexedDocument> = items
            .into_iter()
            .enumerate()
            .map(|(i, (title, text))| IndexedDocument {
                deeplink: format!("doc-{i}"),
                source_id: SOURCES[i % SOURCES.len()].to_string(),
                category: CATEGORIES[i % CATEGORIES.len()].to_string(),
                title,
                pages: vec![PageText { text, lines: vec![] }],
                // One document in seven has no date; the others spread over the last 60 days.
                published: (i % 7 != 0).then_some(NOW - (i as i64 % 60) * 86_400 - 3_600),
                updated: NOW,
                ..Default::default()
            })
            .collect();
        let index = SearchIndex::in_memory(1).expect("an index in memory");
        index
            .apply_blocking(documents.iter().cloned().map(|d| Change::Upsert(Box::new(d))).collect(), None)
            .expect("indexing the corpus");
        let mut analyzer = search::schema::words();
        let mut frequency: HashMap<String, usize> = HashMap::new();
        let mut phrases = BTreeSet::new();
        for (i, document) in documents.iter().enumerate() {
            let tokens = search::schema::tokens(&mut analyzer, &search::content_of(document));
            let mut seen = BTreeSet::new();
            for (_, word) in &tokens {
                seen.insert(word.clone());
            }
            for word in seen {
                *frequency.entry(word).or_default() += 1;
            }
            if i % 3 == 0 {
                for window in tokens.windows(3).step_by(7) {
                    let n = if window[0].0 % 2 == 0 { 2 } else { 3 };
                    phrases.insert(window[..n].iter().map(|(_, w)| w.as_str()).collect::<Vec<_>>().join(" "));
                }
            }
        }
        let operator = |w: &str| matches!(w, "and" | "or" | "not");
        let mut words: Vec<(String, usize)> =
            frequency.into_iter().filter(|(w, _)| !operator(w) && w.chars().count() < 30).collect();
        // Frequent words first (stop words among them), then a spread of rarer ones.
        words.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        let mut chosen: Vec<String> = words.iter().take(150).map(|(w, _)| w.clone()).collect();
        chosen.extend(words.iter().skip(150).step_by(7).take(250).map(|(w, _)| w.clone()));
        let phrases: Vec<String> = phrases.into_iter().filter(|p| !p.split(' ').any(operator)).collect();
        Corpus { index, documents, words: chosen, phrases }
    })
}

/// What the index returns for `filters`, as a set of deeplinks.
fn by_index(filters: &Filters) -> BTreeSet<String> {
    let request = Request::for_feed(filters, Access::Public, now());
    let found: BTreeSet<String> = corpus().index.matching_deeplinks(&request).unwrap().into_iter().collect();
    assert_eq!(corpus().index.count(&request).unwrap(), found.len(), "count and deeplinks agree");
    found
}

/// What the matcher says of every document, per feed, as sets of deeplinks.
fn by_matcher(feeds: &[Filters]) -> Vec<BTreeSet<String>> {
    let rules = RuleSet::new(feeds.iter().enumerate().map(|(i, f)| (i.to_string(), f)));
    let mut matcher = rules.matcher();
    let mut out = vec![BTreeSet::new(); feeds.len()];
    for document in &corpus().documents {
        for board in matcher.matches(document, now()) {
            out[board.parse::<usize>().unwrap()].insert(document.deeplink.clone());
        }
    }
    out
}

fn expression() -> impl Strategy<Value = Expr> {
    let c = corpus();
    let word = proptest::sample::select(c.words.clone()).prop_map(Expr::Word);
    let phrase = proptest::sample::select(c.phrases.clone()).prop_map(Expr::Phrase);
    let leaf = prop_oneof![3 => word, 1 => phrase];
    leaf.prop_recursive(4, 16, 4, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 2..4).prop_map(Expr::And),
            proptest::collection::vec(inner.clone(), 2..4).prop_map(Expr::Or),
            inner.prop_map(|e| Expr::Not(Box::new(e))),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn the_matcher_matches_exactly_what_the_index_returns_for_generated_expressions(
        exprs in proptest::collection::vec(expression(), 6)
    ) {
        // Through the typed form and back: the expressions people save are parsed ones.
        let feeds: Vec<Filters> = exprs
            .iter()
            .map(|e| Filters { text: Some(keywords::parse(&e.to_string()).unwrap()), positive_text: true, ..Default::default() })
            .collect();
        let matched = by_matcher(&feeds);
        for (filters, matched) in feeds.iter().zip(&matched) {
            let text = filters.text.as_ref().unwrap().to_string();
            prop_assert_eq!(&by_index(filters), matched, "{}", text);
        }
    }
}

/// Filters besides text for one feed of a mixed rule set: kept sources, a dropped source, a
/// category, a date range, a per-source exclusion, each or none.
#[derive(Debug, Clone)]
struct Others {
    kept: Vec<&'static str>,
    dropped: Option<&'static str>,
    category: Option<&'static str>,
    date_range: Option<&'static str>,
    exclusion: Option<(&'static str, Expr)>,
}

fn others() -> impl Strategy<Value = Others> {
    let source = proptest::sample::select(SOURCES.to_vec());
    (
        proptest::sample::subsequence(SOURCES.to_vec(), 0..3),
        proptest::option::of(source.clone()),
        proptest::option::of(proptest::sample::select(CATEGORIES.to_vec())),
        proptest::option::of(proptest::sample::select(vec!["1d", "1w", "1M"])),
        proptest::option::weighted(0.3, (source, expression())),
    )
        .prop_map(|(kept, dropped, category, date_range, exclusion)| Others {
            // A source is kept or dropped, never both.
            dropped: dropped.filter(|d| !kept.contains(d)),
            kept,
            category,
            date_range,
            exclusion,
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    /// Feeds with different source, category and date filters in one rule set: the matcher
    /// works out per document which feeds its filters drop, and remembers that per source and
    /// category; every feed still gets exactly the index's documents.
    #[test]
    fn mixed_filters_in_one_rule_set_match_exactly_what_the_index_returns(
        feeds in proptest::collection::vec((expression(), others()), 8)
    ) {
        let feeds: Vec<Filters> = feeds
            .iter()
            .map(|(e, o)| Filters {
                text: Some(keywords::parse(&e.to_string()).unwrap()),
                positive_text: true,
                included_sources: o.kept.iter().map(|s| s.to_string()).collect(),
                excluded_sources: o.dropped.iter().map(|s| s.to_string()).collect(),
                source_exclusions: o
                    .exclusion
                    .iter()
                    .map(|(s, e)| SourceExclusion {
                        source_id: s.to_string(),
                        expr: keywords::parse(&e.to_string()).unwrap(),
                    })
                    .collect(),
                categories: o.category.iter().map(|c| c.to_string()).collect(),
                date_range: o.date_range.map(str::to_string),
                ..Default::default()
            })
            .collect();
        let matched = by_matcher(&feeds);
        for (filters, matched) in feeds.iter().zip(&matched) {
            prop_assert_eq!(&by_index(filters), matched, "{:?}", filters);
        }
    }
}

fn definition(include: &[&str], exclude: &[&str]) -> BoardDefinition {
    let keywords = |list: &[&str]| list.iter().map(|k| BoardKeyword { keyword: k.to_string(), valid: true }).collect();
    BoardDefinition {
        name: "Feed".into(),
        keywords: BoardKeywords { include: keywords(include), exclude: keywords(exclude) },
        ..Default::default()
    }
}

/// The word in the most documents of the corpus that is no stop word, and its documents.
fn common_word() -> String {
    let c = corpus();
    let mut analyzer = search::schema::english();
    c.words.iter().find(|w| search::schema::tokens(&mut analyzer, w).len() == 1).cloned().expect("a word")
}

/// Checks that matcher and index agree on `filters`, that the feed matches something and leaves
/// something out, and returns its documents.
fn agreed(filters: &Filters) -> BTreeSet<String> {
    let from_index = by_index(filters);
    let from_matcher = by_matcher(std::slice::from_ref(filters)).pop().unwrap();
    assert_eq!(from_index, from_matcher, "{filters:?}");
    from_index
}

fn documents_where(keep: impl Fn(&IndexedDocument) -> bool) -> BTreeSet<String> {
    corpus().documents.iter().filter(|d| keep(d)).map(|d| d.deeplink.clone()).collect()
}

#[test]
fn included_and_secondary_sources_keep_only_their_documents() {
    let word = common_word();
    let definition = BoardDefinition {
        sources: serde_json::json!({"livemint": {"filter": true}}),
        secondary_sources: serde_json::json!(["bbc"]),
        ..definition(&[&word], &[])
    };
    let filters = Filters::checked(&definition).unwrap();
    let found = agreed(&filters);
    assert!(!found.is_empty());
    let all = agreed(&Filters::checked(&self::definition(&[&word], &[])).unwrap());
    let kept = documents_where(|d| d.source_id == "livemint" || d.source_id == "bbc");
    assert_eq!(found, all.intersection(&kept).cloned().collect::<BTreeSet<_>>());
}

#[test]
fn excluded_sources_drop_their_documents() {
    let word = common_word();
    let definition = BoardDefinition {
        sources: serde_json::json!({"heise": {"exclusion_filter": true}}),
        ..definition(&[&word], &[])
    };
    let found = agreed(&Filters::checked(&definition).unwrap());
    let all = agreed(&Filters::checked(&self::definition(&[&word], &[])).unwrap());
    let heise = documents_where(|d| d.source_id == "heise");
    assert!(!all.is_disjoint(&heise), "the word is in some of the source's documents");
    assert_eq!(found, all.difference(&heise).cloned().collect::<BTreeSet<_>>());
}

#[test]
fn a_per_source_exclusion_drops_only_that_sources_matching_documents() {
    let word = common_word();
    let definition = BoardDefinition {
        sources: serde_json::json!({"bbc": {"exclusion_rules": {"keywords": [word.clone()]}}}),
        ..definition(&[], &[])
    };
    let filters = Filters::of(&definition).unwrap();
    let found = agreed(&filters);
    let with_word = agreed(&Filters::checked(&self::definition(&[&word], &[])).unwrap());
    let dropped = documents_where(|d| d.source_id == "bbc").intersection(&with_word).cloned().collect::<BTreeSet<_>>();
    assert!(!dropped.is_empty());
    let everything = documents_where(|_| true);
    assert_eq!(found, everything.difference(&dropped).cloned().collect::<BTreeSet<_>>());
}

#[test]
fn categories_keep_only_their_documents_with_no_keyword_at_all() {
    let definition =
        BoardDefinition { common: serde_json::json!({"drives": {"filter": true}}), ..definition(&[], &[]) };
    let found = agreed(&Filters::checked(&definition).unwrap());
    assert_eq!(found, documents_where(|d| d.category == "drives"));
}

#[test]
fn a_date_range_keeps_documents_published_within_it_and_none_without_a_date() {
    let word = common_word();
    let definition = BoardDefinition { date_range: Some("1w".into()), ..definition(&[&word], &[]) };
    let found = agreed(&Filters::checked(&definition).unwrap());
    let all = agreed(&Filters::checked(&self::definition(&[&word], &[])).unwrap());
    let recent = documents_where(|d| d.published.is_some_and(|p| p >= NOW - 7 * 86_400));
    assert!(all.len() > found.len() && !found.is_empty());
    assert_eq!(found, all.intersection(&recent).cloned().collect::<BTreeSet<_>>());
}

#[test]
fn a_company_matches_by_name_alias_and_code_and_excludes_still_apply() {
    let c = corpus();
    // Take a real phrase and a real word of the corpus as the company's name and code.
    let name = c.phrases.iter().find(|p| !by_index(&text_filters(&format!("\"{p}\""))).is_empty()).unwrap().clone();
    let code = c.words.iter().rev().find(|w| !by_index(&text_filters(w)).is_empty()).unwrap().clone();
    let definition = BoardDefinition {
        companies: serde_json::json!([{"name": name, "codes": [code], "aliases": []}]),
        ..definition(&[], &[])
    };
    let found = agreed(&Filters::checked(&definition).unwrap());
    let either = by_index(&text_filters(&format!("\"{name}\" OR {code}")));
    assert_eq!(found, either);
    let excluded = BoardDefinition {
        companies: serde_json::json!([{"name": name, "codes": [code]}]),
        ..self::definition(&[], &[&code])
    };
    let found = agreed(&Filters::checked(&excluded).unwrap());
    assert_eq!(found, by_index(&text_filters(&format!("\"{name}\" NOT {code}"))));
}

#[test]
fn rules_of_only_stop_words_match_what_the_index_matches() {
    let word = common_word();
    for rule in
        ["the", "\"of the\"", &format!("the AND {word}"), "NOT the", &format!("{word} NOT \"of the\""), "the OR a"]
    {
        agreed(&text_filters(rule));
    }
}

fn text_filters(rule: &str) -> Filters {
    Filters { text: Some(keywords::parse(rule).unwrap()), positive_text: true, ..Default::default() }
}

#[test]
fn words_longer_than_sixteen_bytes_match_what_the_index_matches() {
    // The matcher remembers words of up to 16 bytes in one table and longer ones in another.
    let c = corpus();
    let mut analyzer = search::schema::words();
    let mut long: Vec<String> = c
        .documents
        .iter()
        .flat_map(|d| search::schema::tokens(&mut analyzer, &search::content_of(d)))
        .map(|(_, w)| w)
        .filter(|w| (15..=20).contains(&w.len()) && !matches!(w.as_str(), "and" | "or" | "not"))
        .collect();
    long.sort();
    long.dedup();
    for word in long.iter().step_by((long.len() / 12).max(1)).take(12) {
        agreed(&text_filters(word));
    }
}

#[test]
fn feeds_of_many_rules_and_wide_rules_match_what_the_index_matches() {
    // The matcher lays a feed's rules side by side in 64-bit words of state, a bit per AND'ed
    // part: 40 rules of two parts take two words, a rule of 20 parts a new word when the last
    // is too full, and a rule of more than 32 parts is evaluated as a tree. Three such feeds in
    // one rule set, each against the index.
    let c = corpus();
    let (frequent, rarer) = c.words.split_at(150.min(c.words.len() / 2));
    let pick = |list: &[String], i: usize| list[i * 7 % list.len()].clone();
    let feed = |offset: usize| {
        let mut rules: Vec<String> = (0..40)
            .map(|i| {
                let i = i + offset;
                format!(
                    "({} OR {}) AND ({} OR {})",
                    pick(frequent, i),
                    pick(rarer, i),
                    pick(frequent, i + 50),
                    pick(rarer, i + 3)
                )
            })
            .collect();
        let wide = |parts: usize| {
            (0..parts)
                .map(|i| format!("({} OR {})", pick(frequent, i + offset), pick(frequent, i + 70)))
                .collect::<Vec<_>>()
        };
        rules.push(wide(20).join(" AND "));
        rules.push(format!("{} NOT {}", wide(20).join(" AND "), pick(rarer, offset)));
        rules.push(wide(33).join(" AND "));
        let rules: Vec<&str> = rules.iter().map(String::as_str).collect();
        Filters::checked(&definition(&rules, &[&pick(rarer, offset + 11)])).unwrap()
    };
    let feeds = [feed(0), feed(5), feed(9)];
    for (filters, matched) in feeds.iter().zip(by_matcher(&feeds)) {
        assert_eq!(by_index(filters), matched, "{filters:?}");
        assert!(!matched.is_empty(), "the feed matches some documents");
    }
}
