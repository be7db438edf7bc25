//! Queries over the index: keyword expressions into tantivy queries, what a user may see as a
//! filter, sorting, counts per facet, highlights and spelling correction.

use std::collections::HashMap;
use std::ops::Bound;

use chrono::{DateTime, Utc};
use domain::feed_rules::{Filters, SourceExclusion};
use domain::keywords::{self, Expr, KeywordError, Operators};
use tantivy::aggregation::agg_req::Aggregations;
use tantivy::aggregation::agg_result::AggregationResults;
use tantivy::aggregation::{AggContextParams, AggregationCollector};
use tantivy::collector::{Collector, Count, SegmentCollector, TopDocs};
use tantivy::query::{
    AllQuery, BooleanQuery, BoostQuery, ConstScoreQuery, EmptyQuery, FuzzyTermQuery, Occur, PhraseQuery, Query,
    RangeQuery, TermQuery, TermSetQuery,
};
use tantivy::schema::{Field, IndexRecordOption};
use tantivy::snippet::SnippetGenerator;
use tantivy::{DocAddress, DocId, Order, Score, Searcher, SegmentOrdinal, SegmentReader, TantivyDocument, Term};

use crate::index::SearchIndex;
use crate::schema::{self, SHARED};

/// Longest query accepted, in characters.
pub const MAX_QUERY_CHARS: usize = 1000;
/// Most results one page may ask for.
pub const MAX_PAGE: usize = 100;
/// Longest snippet shown for a highlight, in characters.
const SNIPPET_CHARS: usize = 240;
/// Deepest result one may page to.
pub const MAX_OFFSET: usize = 10_000;

/// What a user may find.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Access {
    /// The user's own uploads and the documents of the shared sources they follow.
    Mine { user_id: String, sources: Vec<String> },
    /// Every document of a shared source: the public corpus (needl web).
    Public,
    /// Exactly these documents (a channel's shared items, a session's attachments).
    Documents(Vec<String>),
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Sort {
    #[default]
    Relevance,
    Published,
    Updated,
    Size,
    Attachments,
    Company,
    Category,
}

#[derive(Debug, Clone)]
pub struct Request {
    pub q: String,
    /// Every word must match, as typed (no OR-ranking of plain words).
    pub exact: bool,
    pub access: Access,
    /// Category tabs to keep; empty keeps all.
    pub categories: Vec<String>,
    /// Sources to keep; empty keeps all.
    pub sources: Vec<String>,
    /// Documents (deeplinks) to keep; empty keeps all. Narrows `access`, never widens it: the
    /// assistant asks over a channel's or a notebook's documents within what the user may read.
    pub deeplinks: Vec<String>,
    /// Published between (unix seconds, inclusive).
    pub published: Option<(i64, i64)>,
    /// Countries (exchange filings) to keep; empty keeps all.
    pub countries: Vec<String>,
    /// Companies (the documents' `company_name` tag, as stored) to keep; empty keeps all.
    pub companies: Vec<String>,
    /// Periods ([`crate::periods`] keys) whose documents to keep; empty keeps all.
    pub periods: Vec<String>,
    pub sort: Sort,
    pub descending: bool,
    pub offset: usize,
    pub limit: usize,
    /// Highlighted passages per hit.
    pub highlights: usize,
    /// Extra weight of matches in the title (0: the title counts as part of the text only).
    pub title_boost: f32,
    /// A feed's text rule, already parsed: required as well as `q`, and read strictly (every
    /// word of an AND required; nothing ranks it).
    pub rule: Option<Expr>,
    /// Sources to drop.
    pub exclude_sources: Vec<String>,
    /// Documents of one source to drop when they match an expression (a feed's per-source
    /// exclusion rules).
    pub source_exclusions: Vec<SourceExclusion>,
}

impl Request {
    pub fn new(q: impl Into<String>, access: Access) -> Request {
        Request {
            q: q.into(),
            exact: false,
            access,
            categories: vec![],
            sources: vec![],
            deeplinks: vec![],
            published: None,
            countries: vec![],
            companies: vec![],
            periods: vec![],
            sort: Sort::Relevance,
            descending: true,
            offset: 0,
            limit: 10,
            highlights: 3,
            title_boost: 0.0,
            rule: None,
            exclude_sources: vec![],
            source_exclusions: vec![],
        }
    }

    /// The documents of a feed that `access` reaches, newest first: the feed's text rule, the
    /// sources it keeps and drops, its per-source exclusions, categories and date range (ending
    /// at `now`). The rule matcher (`matching`) evaluates the same filters on new documents.
    pub fn for_feed(filters: &Filters, access: Access, now: DateTime<Utc>) -> Request {
        Request {
            rule: filters.text.clone(),
            sources: filters.kept_sources(),
            exclude_sources: filters.excluded_sources.clone(),
            source_exclusions: filters.source_exclusions.clone(),
            categories: filters.categories.clone(),
            published: filters.published_between(now),
            sort: Sort::Published,
            descending: true,
            ..Request::new("", access)
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Highlight {
    /// The snippet as HTML: escaped text with `<em>` around the matched words, nothing else.
    pub html: String,
    /// The whole passage.
    pub text: String,
    pub ordinal: u32,
    pub page: u32,
    /// Character range of the passage in its page.
    pub start: u32,
    pub end: u32,
    pub boxes: Vec<[f32; 4]>,
    /// Character ranges of the matched words inside `text`.
    pub marks: Vec<(u32, u32)>,
    pub score: f32,
    /// A table row read on its own: `text` is the row under its headers, `start..end` its line.
    pub table_row: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    pub deeplink: String,
    pub source_id: String,
    pub category: String,
    pub score: f32,
    pub highlights: Vec<Highlight>,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Found {
    pub hits: Vec<Hit>,
    /// Documents matching in all.
    pub count: usize,
}

#[derive(Debug, thiserror::Error)]
pub enum SearchError {
    #[error(transparent)]
    Keyword(#[from] KeywordError),
    #[error("The search is too long: at most {MAX_QUERY_CHARS} characters.")]
    TooLong,
    #[error("search failed: {0}")]
    Index(#[from] tantivy::TantivyError),
}

/// A query's text side: the expression and whether plain words rank (OR) rather than filter (AND).
struct Parsed {
    expr: Expr,
    plain: bool,
}

fn parse(q: &str, exact: bool) -> Result<Option<Parsed>, SearchError> {
    if q.chars().count() > MAX_QUERY_CHARS {
        return Err(SearchError::TooLong);
    }
    if q.trim().is_empty() {
        return Ok(None);
    }
    let expr = keywords::parse_with(q, Operators::UpperCase)?;
    Ok(Some(Parsed { plain: !exact && is_plain(q), expr }))
}

/// Whether `q` ranks documents by how well they match its words: words and phrases without
/// operators, not read strictly. Only such a ranking may be re-ordered by another signal
/// ([`crate::hybrid`]); a query with operators, or an exact one, is a filter.
pub fn ranks_by_words(q: &str, exact: bool) -> bool {
    !exact && !q.trim().is_empty() && is_plain(q)
}

/// Whether the query has no operators. Its words then rank documents by how well they match
/// any of them, as people expect of a search box (quoted phrases are still required, and
/// parentheses change nothing); a query with operators is read strictly.
fn is_plain(q: &str) -> bool {
    !q.split(|c: char| c.is_whitespace() || c == '(' || c == ')')
        .any(|w| matches!(w, "AND" | "OR" | "NOT" | "&&" | "||"))
}

fn filter(query: Box<dyn Query>) -> (Occur, Box<dyn Query>) {
    (Occur::Must, Box::new(ConstScoreQuery::new(query, 0.0)))
}

fn term(field: Field, value: &str) -> Box<dyn Query> {
    Box::new(TermQuery::new(Term::from_field_text(field, value), IndexRecordOption::Basic))
}

fn term_set(field: Field, values: &[String]) -> Box<dyn Query> {
    Box::new(TermSetQuery::new(values.iter().map(|v| Term::from_field_text(field, v))))
}

impl SearchIndex {
    /// The analyzed tokens of `text` as a query on `field`: a term, a phrase, or nothing when
    /// the text is only stop words.
    /// With `bag`, a word of several tokens (`non-homologous`, `40mg/day`) ranks by each of them
    /// instead of requiring them side by side.
    fn words_query(&self, field: Field, text: &str, bag: bool) -> Option<Box<dyn Query>> {
        let mut analyzer = self.english();
        let tokens = schema::tokens(&mut analyzer, text);
        let term = |t: &str| -> Box<dyn Query> {
            Box::new(TermQuery::new(Term::from_field_text(field, t), IndexRecordOption::WithFreqsAndPositions))
        };
        match tokens.len() {
            0 => None,
            1 => Some(term(&tokens[0].1)),
            _ if bag => {
                Some(Box::new(BooleanQuery::new(tokens.iter().map(|(_, t)| (Occur::Should, term(t))).collect())))
            }
            _ => Some(Box::new(PhraseQuery::new_with_offset(
                tokens.into_iter().map(|(pos, t)| (pos, Term::from_field_text(field, &t))).collect(),
            ))),
        }
    }

    /// The expression as a query on `field`. `None` when nothing of it is searchable (only stop
    /// words), which matches nothing.
    fn text_query(&self, expr: &Expr, field: Field, plain: bool) -> Option<Box<dyn Query>> {
        match expr {
            Expr::Word(w) => self.words_query(field, w, plain),
            Expr::Phrase(w) => self.words_query(field, w, false),
            Expr::Not(inner) => {
                let mut clauses: Vec<(Occur, Box<dyn Query>)> = vec![(Occur::Must, Box::new(AllQuery))];
                if let Some(q) = self.text_query(inner, field, false) {
                    clauses.push((Occur::MustNot, q));
                }
                Some(Box::new(BooleanQuery::new(clauses)))
            }
            Expr::And(parts) => {
                let mut clauses: Vec<(Occur, Box<dyn Query>)> = Vec::new();
                let mut positives = 0;
                for part in parts {
                    // Plain words rank; phrases, and everything of a strict query, are required.
                    let occur = if plain && !matches!(part, Expr::Phrase(_)) { Occur::Should } else { Occur::Must };
                    match part {
                        Expr::Not(inner) => {
                            if let Some(q) = self.text_query(inner, field, false) {
                                clauses.push((Occur::MustNot, q));
                            }
                        }
                        other => {
                            if let Some(q) = self.text_query(other, field, plain) {
                                clauses.push((occur, q));
                                positives += 1;
                            }
                        }
                    }
                }
                if positives == 0 {
                    if parts.iter().all(|p| matches!(p, Expr::Not(_))) {
                        clauses.push((Occur::Must, Box::new(AllQuery)));
                    } else {
                        return None;
                    }
                }
                Some(Box::new(BooleanQuery::new(clauses)))
            }
            Expr::Or(parts) => {
                let clauses: Vec<(Occur, Box<dyn Query>)> =
                    parts.iter().filter_map(|p| self.text_query(p, field, false)).map(|q| (Occur::Should, q)).collect();
                if clauses.is_empty() {
                    None
                } else {
                    Some(Box::new(BooleanQuery::new(clauses)))
                }
            }
        }
    }

    /// Any of the expression's wanted words and phrases, for marking them in snippets.
    fn marks_query(&self, expr: &Expr, field: Field) -> Option<Box<dyn Query>> {
        let clauses: Vec<(Occur, Box<dyn Query>)> = expr
            .positive_terms()
            .into_iter()
            .filter_map(|t| self.words_query(field, t, false))
            .map(|q| (Occur::Should, q))
            .collect();
        (!clauses.is_empty()).then(|| Box::new(BooleanQuery::new(clauses)) as Box<dyn Query>)
    }

    fn access_query(&self, access: &Access) -> Box<dyn Query> {
        let f = self.fields();
        match access {
            Access::Public => term(f.owner, SHARED),
            Access::Documents(deeplinks) if deeplinks.is_empty() => Box::new(EmptyQuery),
            Access::Documents(deeplinks) => term_set(f.deeplink, deeplinks),
            Access::Mine { user_id, sources } => {
                let mut clauses: Vec<(Occur, Box<dyn Query>)> = vec![(Occur::Should, term(f.owner, user_id))];
                if !sources.is_empty() {
                    clauses.push((
                        Occur::Should,
                        Box::new(BooleanQuery::new(vec![
                            (Occur::Must, term(f.owner, SHARED)),
                            (Occur::Must, term_set(f.source_id, sources)),
                        ])),
                    ));
                }
                Box::new(BooleanQuery::new(clauses))
            }
        }
    }

    /// The clauses every query of `req` carries: access and the request's filters.
    fn filters(&self, req: &Request) -> Vec<(Occur, Box<dyn Query>)> {
        let f = self.fields();
        let mut clauses = vec![filter(self.access_query(&req.access))];
        if !req.categories.is_empty() {
            clauses.push(filter(term_set(f.category, &req.categories)));
        }
        if !req.sources.is_empty() {
            clauses.push(filter(term_set(f.source_id, &req.sources)));
        }
        if !req.exclude_sources.is_empty() {
            clauses.push((Occur::MustNot, term_set(f.source_id, &req.exclude_sources)));
        }
        for exclusion in &req.source_exclusions {
            // An expression of stop words only names nothing to drop.
            if let Some(q) = self.text_query(&exclusion.expr, f.content, false) {
                clauses.push((
                    Occur::MustNot,
                    Box::new(BooleanQuery::new(vec![
                        (Occur::Must, term(f.source_id, &exclusion.source_id)),
                        (Occur::Must, q),
                    ])),
                ));
            }
        }
        if !req.deeplinks.is_empty() {
            clauses.push(filter(term_set(f.deeplink, &req.deeplinks)));
        }
        if !req.countries.is_empty() {
            clauses.push(filter(term_set(f.country, &req.countries)));
        }
        if !req.companies.is_empty() {
            clauses.push(filter(term_set(f.company, &req.companies)));
        }
        if !req.periods.is_empty() {
            clauses.push(filter(term_set(f.period, &req.periods)));
        }
        if let Some((from, to)) = req.published {
            clauses.push(filter(Box::new(RangeQuery::new(
                Bound::Included(Term::from_field_i64(f.published, from)),
                Bound::Included(Term::from_field_i64(f.published, to)),
            ))));
        }
        clauses
    }

    /// The document-level query of `req`, or `None` when it can match nothing.
    fn document_query(&self, req: &Request, parsed: Option<&Parsed>) -> Option<BooleanQuery> {
        let mut clauses = self.filters(req);
        if let Some(rule) = &req.rule {
            clauses.push(filter(self.text_query(rule, self.fields().content, false)?));
        }
        if let Some(p) = parsed {
            clauses.push((Occur::Must, self.text_query(&p.expr, self.fields().content, p.plain)?));
            if req.title_boost > 0.0 {
                if let Some(title) = self.text_query(&p.expr, self.fields().title, true) {
                    clauses.push((Occur::Should, Box::new(BoostQuery::new(title, req.title_boost))));
                }
            }
        }
        Some(BooleanQuery::new(clauses))
    }

    /// One page of results, with highlights.
    pub fn search(&self, req: &Request) -> Result<Found, SearchError> {
        let parsed = parse(&req.q, req.exact)?;
        let searcher = self.searcher();
        let Some(query) = self.document_query(req, parsed.as_ref()) else {
            return Ok(Found::default());
        };
        let limit = req.limit.clamp(1, MAX_PAGE);
        let offset = req.offset.min(MAX_OFFSET);
        let top = TopDocs::with_limit(limit).and_offset(offset);
        let order = if req.descending { Order::Desc } else { Order::Asc };
        // Without words to rank by, newest first.
        let sort = if parsed.is_none() && req.sort == Sort::Relevance { Sort::Published } else { req.sort };
        let (addresses, count): (Vec<(f32, DocAddress)>, usize) = match sort {
            Sort::Relevance => {
                let (docs, count) = searcher.search(&query, &(top.order_by_score(), Count))?;
                (docs, count)
            }
            Sort::Published | Sort::Updated => {
                let field = if sort == Sort::Published { "published" } else { "updated" };
                let (docs, count) = searcher.search(&query, &(top.order_by_fast_field::<i64>(field, order), Count))?;
                (docs.into_iter().map(|(_, a)| (0.0, a)).collect(), count)
            }
            Sort::Size | Sort::Attachments => {
                let field = if sort == Sort::Size { "size" } else { "attachments" };
                let (docs, count) = searcher.search(&query, &(top.order_by_fast_field::<u64>(field, order), Count))?;
                (docs.into_iter().map(|(_, a)| (0.0, a)).collect(), count)
            }
            Sort::Company | Sort::Category => {
                let field = if sort == Sort::Company { "company" } else { "category" };
                let (docs, count) = searcher.search(&query, &(top.order_by_string_fast_field(field, order), Count))?;
                (docs.into_iter().map(|(_, a)| (0.0, a)).collect(), count)
            }
        };
        let f = self.fields();
        let mut hits = Vec::with_capacity(addresses.len());
        for (score, address) in addresses {
            let doc: TantivyDocument = searcher.doc(address)?;
            hits.push(Hit {
                deeplink: SearchIndex::stored_text(&doc, f.deeplink).unwrap_or_default(),
                source_id: SearchIndex::stored_text(&doc, f.source_id).unwrap_or_default(),
                category: SearchIndex::stored_text(&doc, f.category).unwrap_or_default(),
                score,
                highlights: vec![],
            });
        }
        if let (Some(p), true) = (parsed.as_ref(), req.highlights > 0) {
            let deeplinks: Vec<String> = hits.iter().map(|h| h.deeplink.clone()).collect();
            let mut found = self.highlights(&self.passage_searcher(), req, p, &deeplinks)?;
            for hit in &mut hits {
                hit.highlights = found.remove(&hit.deeplink).unwrap_or_default();
            }
        }
        Ok(Found { hits, count })
    }

    /// The first `n` documents of `req` by relevance, best first, with their scores, and how many
    /// match in all. `req`'s paging and sort are not read. Nothing is highlighted.
    pub fn ranking(&self, req: &Request, n: usize) -> Result<(Vec<(String, f32)>, usize), SearchError> {
        let parsed = parse(&req.q, req.exact)?;
        let searcher = self.searcher();
        let Some(query) = self.document_query(req, parsed.as_ref()) else {
            return Ok((vec![], 0));
        };
        let (docs, count) = searcher.search(&query, &(TopDocs::with_limit(n.max(1)).order_by_score(), Count))?;
        let f = self.fields();
        let mut ranked = Vec::with_capacity(docs.len());
        for (score, address) in docs {
            let doc: TantivyDocument = searcher.doc(address)?;
            ranked.push((SearchIndex::stored_text(&doc, f.deeplink).unwrap_or_default(), score));
        }
        Ok((ranked, count))
    }

    /// The best passages of each of `deeplinks` for the query, as snippets.
    fn highlights(
        &self,
        searcher: &Searcher,
        req: &Request,
        parsed: &Parsed,
        deeplinks: &[String],
    ) -> Result<HashMap<String, Vec<Highlight>>, SearchError> {
        let mut out: HashMap<String, Vec<Highlight>> = HashMap::new();
        if deeplinks.is_empty() {
            return Ok(out);
        }
        let f = self.fields();
        let Some(text_query) = self.text_query(&parsed.expr, f.text, true) else {
            return Ok(out);
        };
        let clauses = vec![
            filter(term_set(f.deeplink, deeplinks)),
            filter(self.access_query(&req.access)),
            (Occur::Must, text_query),
        ];
        let query = BooleanQuery::new(clauses);
        let wanted = deeplinks.len() * req.highlights.max(1) * 4;
        let top = searcher.search(&query, &TopDocs::with_limit(wanted.min(2000)).order_by_score())?;
        let Some(marks) = self.marks_query(&parsed.expr, f.text) else {
            return Ok(out);
        };
        let mut snippets = SnippetGenerator::create(searcher, marks.as_ref(), f.text)?;
        snippets.set_max_num_chars(SNIPPET_CHARS);
        for (score, address) in top {
            let doc: TantivyDocument = searcher.doc(address)?;
            let deeplink = SearchIndex::stored_text(&doc, f.deeplink).unwrap_or_default();
            let entry = out.entry(deeplink).or_default();
            if entry.len() >= req.highlights {
                continue;
            }
            let text = SearchIndex::stored_text(&doc, f.text).unwrap_or_default();
            let snippet = snippets.snippet(&text);
            let fragment_at = snippet.fragment_range().start;
            let marks = snippet
                .highlighted()
                .iter()
                .map(|r| (char_index(&text, fragment_at + r.start), char_index(&text, fragment_at + r.end)))
                .collect();
            // A passage that fits is shown whole; a longer one by its best fragment, with
            // ellipses where it was cut.
            let html = if text.chars().count() <= SNIPPET_CHARS {
                let ranges: Vec<_> =
                    snippet.highlighted().iter().map(|r| fragment_at + r.start..fragment_at + r.end).collect();
                snippet_html(&text, &ranges)
            } else {
                let range = snippet.fragment_range();
                let before = if range.start > 0 { "\u{2026}" } else { "" };
                let after = if range.end < text.len() { "\u{2026}" } else { "" };
                format!("{before}{}{after}", snippet_html(snippet.fragment(), snippet.highlighted()))
            };
            entry.push(Highlight {
                html,
                ordinal: SearchIndex::stored_u64(&doc, f.ordinal).unwrap_or(0) as u32,
                page: SearchIndex::stored_u64(&doc, f.page).unwrap_or(1) as u32,
                start: SearchIndex::stored_u64(&doc, f.start).unwrap_or(0) as u32,
                end: SearchIndex::stored_u64(&doc, f.end).unwrap_or(0) as u32,
                boxes: SearchIndex::stored_text(&doc, f.boxes)
                    .and_then(|b| serde_json::from_str(&b).ok())
                    .unwrap_or_default(),
                marks,
                table_row: SearchIndex::stored_u64(&doc, f.table_row).is_some(),
                text,
                score,
            });
        }
        Ok(out)
    }

    /// How many documents match `req` in all, and per value of a string fast field (`category`,
    /// `company`, `country`), most frequent first.
    pub fn counts(&self, req: &Request, field: &str) -> Result<(usize, Vec<(String, u64)>), SearchError> {
        let parsed = parse(&req.q, req.exact)?;
        let Some(query) = self.document_query(req, parsed.as_ref()) else {
            return Ok((0, vec![]));
        };
        let searcher = self.searcher();
        let aggregations: Aggregations =
            serde_json::from_value(serde_json::json!({ "by": { "terms": { "field": field, "size": 500 } } }))
                .map_err(|e| tantivy::TantivyError::InvalidArgument(e.to_string()))?;
        let collector = AggregationCollector::from_aggs(aggregations, AggContextParams::default());
        let (results, count): (AggregationResults, usize) = searcher.search(&query, &(collector, Count))?;
        let json = serde_json::to_value(results).map_err(|e| tantivy::TantivyError::InternalError(e.to_string()))?;
        let buckets = json["by"]["buckets"].as_array().cloned().unwrap_or_default();
        let values = buckets
            .into_iter()
            .filter_map(|b| Some((b["key"].as_str()?.to_string(), b["doc_count"].as_u64()?)))
            .collect();
        Ok((count, values))
    }

    /// How many documents match `req`, without paging or ranking.
    pub fn count(&self, req: &Request) -> Result<usize, SearchError> {
        let parsed = parse(&req.q, req.exact)?;
        let Some(query) = self.document_query(req, parsed.as_ref()) else {
            return Ok(0);
        };
        Ok(self.searcher().search(&query, &Count)?)
    }

    /// The deeplink of every document matching `req`, in no particular order and without paging
    /// limits: re-evaluating a feed over its whole history, or checking alerts against it.
    /// Deeplinks are read from the fast field per segment in term order, not document by document
    /// from the store.
    pub fn matching_deeplinks(&self, req: &Request) -> Result<Vec<String>, SearchError> {
        let parsed = parse(&req.q, req.exact)?;
        let Some(query) = self.document_query(req, parsed.as_ref()) else {
            return Ok(vec![]);
        };
        Ok(self.searcher().search(&query, &Deeplinks)?)
    }

    /// A better spelling of `q` from the words of documents `access` reaches, if some word of it
    /// appears in none of them and a close word does. `None` when nothing needs correcting.
    pub fn correct(&self, q: &str, access: &Access) -> Result<Option<String>, SearchError> {
        let Some(parsed) = parse(q, false)? else {
            return Ok(None);
        };
        let mut words = Vec::new();
        collect_words(&parsed.expr, &mut words);
        let mut corrected = q.to_string();
        let mut changed = false;
        let mut analyzer = self.words();
        for word in words {
            let tokens = schema::tokens(&mut analyzer, &word);
            let [(_, typed)] = tokens.as_slice() else {
                continue;
            };
            if typed.chars().count() < 3 || typed.chars().any(|c| c.is_ascii_digit()) {
                continue;
            }
            if self.scoped_frequency(access, typed)? > 0 {
                continue;
            }
            if let Some(better) = self.closest(typed, access)? {
                corrected = replace_word(&corrected, &word, &better);
                changed = true;
            }
        }
        Ok(changed.then_some(corrected))
    }

    /// In how many documents `access` reaches the word appears.
    fn scoped_frequency(&self, access: &Access, word: &str) -> Result<usize, SearchError> {
        let f = self.fields();
        let query = BooleanQuery::new(vec![filter(self.access_query(access)), (Occur::Must, term(f.words, word))]);
        Ok(self.searcher().search(&query, &Count)?)
    }

    /// The word within one or two edits of `typed` that the most reachable documents contain.
    fn closest(&self, typed: &str, access: &Access) -> Result<Option<String>, SearchError> {
        let f = self.fields();
        let distance = if typed.chars().count() <= 5 { 1 } else { 2 };
        let automaton = FuzzyTermQuery::new(Term::from_field_text(f.words, typed), distance, true).automaton()?;
        let mut frequencies: HashMap<String, u64> = HashMap::new();
        let searcher = self.searcher();
        for segment in searcher.segment_readers() {
            let inverted = segment.inverted_index(f.words)?;
            let mut stream = inverted.terms().search(&automaton).into_stream().map_err(tantivy::TantivyError::from)?;
            while stream.advance() {
                if let Ok(term) = std::str::from_utf8(stream.key()) {
                    *frequencies.entry(term.to_string()).or_default() += stream.value().doc_freq as u64;
                }
            }
        }
        let mut candidates: Vec<(String, u64)> = frequencies.into_iter().collect();
        candidates.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        let mut best: Option<(usize, usize, String)> = None;
        for (candidate, _) in candidates.into_iter().take(12) {
            let scoped = self.scoped_frequency(access, &candidate)?;
            if scoped == 0 {
                continue;
            }
            let edits = levenshtein(typed, &candidate);
            let better = match &best {
                None => true,
                Some((e, n, _)) => edits < *e || (edits == *e && scoped > *n),
            };
            if better {
                best = Some((edits, scoped, candidate));
            }
        }
        Ok(best.map(|(_, _, w)| w))
    }
}

/// Collects the deeplinks of the matching documents from the `deeplink` fast field.
struct Deeplinks;

struct SegmentDeeplinks {
    column: Option<tantivy::columnar::StrColumn>,
    ords: Vec<u64>,
}

impl Collector for Deeplinks {
    type Fruit = Vec<String>;
    type Child = SegmentDeeplinks;

    fn for_segment(&self, _: SegmentOrdinal, segment: &SegmentReader) -> tantivy::Result<SegmentDeeplinks> {
        Ok(SegmentDeeplinks { column: segment.fast_fields().str("deeplink")?, ords: Vec::new() })
    }

    fn requires_scoring(&self) -> bool {
        false
    }

    fn merge_fruits(&self, fruits: Vec<Vec<String>>) -> tantivy::Result<Vec<String>> {
        Ok(fruits.into_iter().flatten().collect())
    }
}

impl SegmentCollector for SegmentDeeplinks {
    type Fruit = Vec<String>;

    fn collect(&mut self, doc: DocId, _: Score) {
        if let Some(column) = &self.column {
            self.ords.extend(column.term_ords(doc));
        }
    }

    fn harvest(mut self) -> Vec<String> {
        let Some(column) = self.column else { return vec![] };
        self.ords.sort_unstable();
        let mut out = Vec::with_capacity(self.ords.len());
        // One pass over the dictionary for all ordinals, in order; a deeplink that is not UTF-8
        // (never written so) is left out.
        let _ = column.dictionary().sorted_ords_to_term_cb(&self.ords, |bytes| {
            if let Ok(deeplink) = std::str::from_utf8(bytes) {
                out.push(deeplink.to_string());
            }
        });
        out
    }
}

fn collect_words(expr: &Expr, out: &mut Vec<String>) {
    match expr {
        Expr::Word(w) => out.push(w.clone()),
        Expr::Phrase(_) | Expr::Not(_) => {}
        Expr::And(parts) | Expr::Or(parts) => parts.iter().for_each(|p| collect_words(p, out)),
    }
}

/// Replaces whole-word occurrences of `word` (any case) in `text`.
fn replace_word(text: &str, word: &str, with: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    let lower_word = word.to_lowercase();
    while !rest.is_empty() {
        let start = rest.find(|c: char| c.is_alphanumeric()).unwrap_or(rest.len());
        out.push_str(&rest[..start]);
        rest = &rest[start..];
        let end = rest.find(|c: char| !c.is_alphanumeric() && c != '\'').unwrap_or(rest.len());
        let token = &rest[..end];
        if token.to_lowercase() == lower_word {
            out.push_str(with);
        } else {
            out.push_str(token);
        }
        rest = &rest[end..];
    }
    out
}

fn levenshtein(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut current = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != cb);
            current.push((previous[j] + cost).min(previous[j + 1] + 1).min(current[j] + 1));
        }
        previous = current;
    }
    previous[b.len()]
}

fn char_index(text: &str, byte: usize) -> u32 {
    text.get(..byte.min(text.len())).map(|s| s.chars().count()).unwrap_or(0) as u32
}

/// The fragment as HTML: every character escaped, `<em>` around the highlighted byte ranges.
pub fn snippet_html(fragment: &str, highlighted: &[std::ops::Range<usize>]) -> String {
    let mut out = String::with_capacity(fragment.len() + 16);
    let mut at = 0;
    for range in highlighted {
        if range.start < at || range.end > fragment.len() || range.is_empty() {
            continue;
        }
        escape_into(&mut out, &fragment[at..range.start]);
        out.push_str("<em>");
        escape_into(&mut out, &fragment[range.start..range.end]);
        out.push_str("</em>");
        at = range.end;
    }
    escape_into(&mut out, &fragment[at..]);
    out
}

fn escape_into(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snippets_escape_everything_but_their_marks() {
        let fragment = "<script>alert(1)</script> tariffs & <b>duties</b>";
        let at = fragment.find("tariffs").unwrap();
        let marks = [at..at + 7, at + 7..at + 7];
        let html = snippet_html(fragment, &marks);
        assert_eq!(html, "&lt;script&gt;alert(1)&lt;/script&gt; <em>tariffs</em> &amp; &lt;b&gt;duties&lt;/b&gt;");
    }

    #[test]
    fn plain_queries_are_words_only() {
        assert!(is_plain("tariff impact on steel"));
        assert!(!is_plain("tariff AND steel"));
        assert!(!is_plain("(steel OR iron) tariff"));
        assert!(is_plain("\"steel tariff\" (CKD) progression"), "quotes and parentheses alone are no operators");
        assert!(is_plain("and or not"), "lowercase operator words are words");
    }

    #[test]
    fn words_are_replaced_whole_and_in_any_case() {
        assert_eq!(replace_word("Tarrif AND tarrifs", "tarrif", "tariff"), "tariff AND tarrifs");
        assert_eq!(levenshtein("tarrif", "tariff"), 2);
        assert_eq!(levenshtein("steal", "steel"), 1);
    }
}
