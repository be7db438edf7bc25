//! Retrieval: the question's words through the search index over the chosen scope (documents by
//! BM25, then each document's best passages), a diverse selection of those passages, and in pro
//! mode a second round searched with the salient terms of the first round's best passages.
//!
//! A question naming companies is answered from their documents; one naming periods (a fiscal
//! year, a quarter: [`search::periods`]) prefers the documents that cover them, and keeps to them
//! when that is unambiguous (see [`prefer_periods`]).
//!
//! Every query carries the user's access rule inside the index (the search crate's [`Access`]):
//! no passage of a document the user may not read is ever a candidate.

use std::collections::{HashMap, HashSet};

use search::{Access, SearchIndex, Similarity};
use serde::Serialize;
use tantivy::collector::TopDocs;
use tantivy::query::TermQuery;
use tantivy::schema::{IndexRecordOption, Value};
use tantivy::{TantivyDocument, Term};

use crate::error::AssistantError;
use crate::scope::Scope;
use crate::select::{self, Diversity, Item};
use crate::text::{self, Terms};

/// How much retrieval reads. Pro mode reads more and looks twice.
#[derive(Debug, Clone, Copy)]
pub struct Settings {
    /// Documents taken from the document ranking.
    pub documents: usize,
    /// Best passages taken from each of them.
    pub candidates_per_document: usize,
    /// Passages kept for the answer, and at most how many of one document.
    pub diversity: Diversity,
    /// Salient terms a second round adds to the question (0: one round only).
    pub expansion_terms: usize,
}

impl Settings {
    pub fn standard() -> Settings {
        Settings {
            documents: 12,
            candidates_per_document: 3,
            diversity: Diversity { keep: 6, per_document: 2, lambda: 0.7, duplicate: 0.9 },
            expansion_terms: 0,
        }
    }

    pub fn pro() -> Settings {
        Settings {
            documents: 30,
            candidates_per_document: 4,
            diversity: Diversity { keep: 10, per_document: 3, lambda: 0.7, duplicate: 0.9 },
            expansion_terms: 5,
        }
    }

    /// These settings for a question over `scope`. The cap per document keeps one document from
    /// crowding out the others; over a list of fewer documents than the answer has room for (a
    /// question asked over one file) it would only leave room unused, so each document may fill
    /// its share of it, from that many more candidates.
    pub fn for_scope(&self, scope: &Scope) -> Settings {
        let listed = match scope {
            Scope::Documents(deeplinks) | Scope::Attachments(deeplinks) if !deeplinks.is_empty() => deeplinks.len(),
            _ => return *self,
        };
        let mut settings = *self;
        let share = self.diversity.keep.div_ceil(listed);
        if share > self.diversity.per_document {
            settings.diversity.per_document = share;
            settings.candidates_per_document = self.candidates_per_document.max(share + share / 2);
        }
        settings
    }

    pub fn for_mode(pro: bool) -> Settings {
        if pro {
            Settings::pro()
        } else {
            Settings::standard()
        }
    }
}

/// A passage retrieved for an answer, with what a citation needs of its document.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RetrievedPassage {
    /// 1-based: the number answers cite it by (`[n]`).
    pub number: u32,
    pub deeplink: String,
    pub source_id: String,
    /// The category tab of the document (rss_news, drives, attachments, ...).
    pub category: String,
    pub title: String,
    /// Unix seconds.
    pub published: Option<i64>,
    /// 0-based position of the passage in its document.
    pub ordinal: u32,
    /// 1-based page.
    pub page: u32,
    /// Character range of the passage in its page.
    pub start: u32,
    pub end: u32,
    /// Boxes of the passage's lines on its page (PDFs), `[x0, y0, x1, y1]`.
    pub boxes: Vec<[f32; 4]>,
    pub text: String,
    /// Character ranges of the question's words inside `text`.
    pub marks: Vec<(u32, u32)>,
    /// Relevance in [0, 1] (passage score blended with its document's, per round).
    pub relevance: f32,
    /// 1, or 2 when only the pro mode's second round found it.
    pub round: u8,
    /// A table row read on its own: `text` is the row under its column headers (then its
    /// table's caption), `start..end` the row's line in the page.
    pub table_row: bool,
}

/// What retrieval found for a question.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Retrieval {
    pub question: String,
    /// The question's terms, stemmed as the index stems them.
    pub terms: Vec<String>,
    /// The chosen passages, numbered from 1, most relevant first.
    pub passages: Vec<RetrievedPassage>,
    /// How much each of `terms` says (BM25's idf over the whole index): a word most documents
    /// hold says little about which one answers.
    pub weights: Vec<f32>,
    /// The largest share of the question's weight one passage holds, in [0, 1]: below
    /// [`WEAK_EVIDENCE`] the answer is labelled LOW.
    pub coverage: f32,
    /// Words the second round added (pro mode), empty otherwise.
    pub expansion: Vec<String>,
    /// The companies the question named, whose documents alone were searched (empty: all).
    pub companies: Vec<String>,
    /// The periods the question named ([`search::periods`] keys), whose documents were preferred.
    pub periods: Vec<String>,
}

/// Evidence that holds less than this share of the question's weight in any one passage (or,
/// for the extractive engine, any one sentence) is weak: the answer is labelled LOW. Half means
/// the passage misses at least one of the question's most telling words.
pub const WEAK_EVIDENCE: f32 = 0.5;

impl Retrieval {
    /// The share of the question's weight that `terms` hold, in [0, 1].
    pub fn coverage_of(&self, terms: &HashSet<&str>) -> f32 {
        let total: f32 = self.weights.iter().sum();
        if total <= 0.0 {
            return 0.0;
        }
        let held: f32 = self
            .terms
            .iter()
            .zip(&self.weights)
            .filter(|(t, _)| terms.contains(String::as_str(t)))
            .map(|(_, w)| w)
            .sum();
        held / total
    }
}

/// Longest text sent to the index, in characters (the index accepts 1000).
const MAX_QUERY_CHARS: usize = 900;
/// A second round's candidates count a little less than the first's at equal score: the
/// question's own words are the better evidence.
const SECOND_ROUND_WEIGHT: f32 = 0.9;
/// A passage of a document covering a period the question names counts this much more: enough
/// to lead a passage of another period's filing that says as much, not enough to lead one that
/// says clearly more.
const PERIOD_BOOST: f32 = 1.5;

/// Retrieves and selects passages for `question` over `scope`, for a user who may read `access`.
/// Runs tantivy searches: call it off the async runtime.
pub fn retrieve(
    index: &SearchIndex,
    question: &str,
    scope: &Scope,
    access: &Access,
    settings: &Settings,
) -> Result<Retrieval, AssistantError> {
    retrieve_ranked(index, question, scope, access, settings, None)
}

/// [`retrieve`], with the documents ranked by the hybrid ranking (`search::hybrid`) when
/// `similarity` holds the documents' embeddings.
pub fn retrieve_ranked(
    index: &SearchIndex,
    question: &str,
    scope: &Scope,
    access: &Access,
    settings: &Settings,
    similarity: Option<&dyn Similarity>,
) -> Result<Retrieval, AssistantError> {
    let settings = &settings.for_scope(scope);
    let mut terms = Terms::default();
    let question_terms = terms.of_question(question);
    let mut retrieval =
        Retrieval { question: question.to_string(), terms: question_terms.clone(), ..Retrieval::default() };
    let words = text::content_words(question);
    if question_terms.is_empty() {
        return Ok(retrieval);
    }
    let q = query_text(&words);
    // A question that names a company is answered from that company's documents; when they hold
    // nothing that matches, from everything in scope as before.
    let mut companies = named_companies(index, question, scope, access)?;
    let periods = search::periods::named(question);
    let mut candidates = round(index, &q, scope, access, &companies, &periods, settings, 1, &mut terms, similarity)?;
    if candidates.is_empty() && !companies.is_empty() {
        companies.clear();
        candidates = round(index, &q, scope, access, &companies, &periods, settings, 1, &mut terms, similarity)?;
    }
    retrieval.companies = companies.clone();
    retrieval.periods = periods.clone();
    let mut chosen = choose(&candidates, settings);
    if settings.expansion_terms > 0 && !chosen.is_empty() {
        let top: Vec<&Candidate> = chosen.iter().take(3).map(|&i| &candidates[i]).collect();
        let expansion = salient(index, &top, &question_terms, settings.expansion_terms, &mut terms);
        if !expansion.is_empty() {
            let q2 = query_text(&words.iter().chain(&expansion).cloned().collect::<Vec<_>>());
            let seen: HashSet<(String, u32)> =
                candidates.iter().map(|c| (c.passage.deeplink.clone(), c.passage.ordinal)).collect();
            let more = round(index, &q2, scope, access, &companies, &periods, settings, 2, &mut terms, similarity)?;
            candidates
                .extend(more.into_iter().filter(|c| !seen.contains(&(c.passage.deeplink.clone(), c.passage.ordinal))));
            chosen = choose(&candidates, settings);
            retrieval.expansion = expansion;
        }
    }
    let mut passages: Vec<RetrievedPassage> = chosen.into_iter().map(|i| candidates[i].passage.clone()).collect();
    describe(index, &mut passages)?;
    for (i, p) in passages.iter_mut().enumerate() {
        p.number = i as u32 + 1;
    }
    retrieval.weights = weights(index, &question_terms);
    retrieval.passages = passages;
    let mut best = 0.0f32;
    for p in &retrieval.passages {
        let held = terms.of(&p.text);
        best = best.max(retrieval.coverage_of(&held.iter().map(String::as_str).collect()));
    }
    retrieval.coverage = best;
    Ok(retrieval)
}

struct Candidate {
    passage: RetrievedPassage,
    terms: Vec<String>,
}

fn query_text(words: &[String]) -> String {
    let mut q = String::new();
    for w in words {
        if q.len() + w.len() + 1 > MAX_QUERY_CHARS {
            break;
        }
        if !q.is_empty() {
            q.push(' ');
        }
        q.push_str(w);
    }
    q
}

/// One search: the best documents for `q` in scope (of `companies` only, unless empty), and
/// their best passages as candidates. With `periods`, the best documents covering them are
/// searched for too (the same query, so their scores compare), and preferred
/// ([`prefer_periods`]).
#[allow(clippy::too_many_arguments)]
fn round(
    index: &SearchIndex,
    q: &str,
    scope: &Scope,
    access: &Access,
    companies: &[String],
    periods: &[String],
    settings: &Settings,
    round: u8,
    terms: &mut Terms,
    similarity: Option<&dyn Similarity>,
) -> Result<Vec<Candidate>, AssistantError> {
    let Some(mut req) = scope.request(q, access) else {
        return Ok(vec![]);
    };
    req.companies = companies.to_vec();
    req.limit = settings.documents;
    req.highlights = settings.candidates_per_document;
    let mut found = index.search_ranked(&req, similarity)?;
    // Whether some document in scope that matches covers a named period: when none does, there
    // is nothing to prefer (and no document to look up).
    let mut dated_any = false;
    if !periods.is_empty() {
        req.periods = periods.to_vec();
        let seen: HashSet<String> = found.hits.iter().map(|h| h.deeplink.clone()).collect();
        let dated = index.search_ranked(&req, similarity)?;
        dated_any = !dated.hits.is_empty();
        found.hits.extend(dated.hits.into_iter().filter(|h| !seen.contains(&h.deeplink)));
    }
    let best_document = found.hits.iter().map(|h| h.score).fold(0.0f32, f32::max);
    let best_passage = found.hits.iter().flat_map(|h| &h.highlights).map(|h| h.score).fold(0.0f32, f32::max);
    let weight = if round == 1 { 1.0 } else { SECOND_ROUND_WEIGHT };
    let mut out = Vec::new();
    for hit in found.hits {
        let document = if best_document > 0.0 { hit.score / best_document } else { 0.0 };
        for h in hit.highlights {
            let passage = if best_passage > 0.0 { h.score / best_passage } else { 0.0 };
            out.push(Candidate {
                terms: terms.of(&h.text),
                passage: RetrievedPassage {
                    number: 0,
                    deeplink: hit.deeplink.clone(),
                    source_id: hit.source_id.clone(),
                    category: hit.category.clone(),
                    title: String::new(),
                    published: None,
                    ordinal: h.ordinal,
                    page: h.page,
                    start: h.start,
                    end: h.end,
                    boxes: h.boxes,
                    text: h.text,
                    marks: h.marks,
                    relevance: weight * (0.75 * passage + 0.25 * document),
                    round,
                    table_row: h.table_row,
                },
            });
        }
    }
    if dated_any {
        prefer_periods(index, &mut out, periods)?;
    }
    Ok(out)
}

/// Prefers the candidates of documents covering a period the question names (`periods`): their
/// relevance counts [`PERIOD_BOOST`] times more than the others' (which are lowered, so that
/// relevance stays in [0, 1]). When the question names one period and every
/// candidate's document is tagged with the periods it covers (all are periodic reports), the
/// match is unambiguous: only the candidates of that period's documents are kept, if there are
/// any. A document without period tags may be about any period, so it is never dropped.
fn prefer_periods(
    index: &SearchIndex,
    candidates: &mut Vec<Candidate>,
    periods: &[String],
) -> Result<(), AssistantError> {
    if periods.is_empty() || candidates.is_empty() {
        return Ok(());
    }
    let searcher = index.searcher();
    let f = index.fields();
    let mut covered: HashMap<String, Vec<String>> = HashMap::new();
    for c in candidates.iter() {
        if covered.contains_key(&c.passage.deeplink) {
            continue;
        }
        let query = TermQuery::new(Term::from_field_text(f.deeplink, &c.passage.deeplink), IndexRecordOption::Basic);
        let top =
            searcher.search(&query, &TopDocs::with_limit(1).order_by_score()).map_err(search::SearchError::from)?;
        let mut found = Vec::new();
        if let Some((_, address)) = top.first() {
            let doc: TantivyDocument = searcher.doc(*address).map_err(search::SearchError::from)?;
            found = doc.get_all(f.period).filter_map(|v| v.as_str().map(str::to_string)).collect();
        }
        covered.insert(c.passage.deeplink.clone(), found);
    }
    let matches = |deeplink: &str| covered[deeplink].iter().any(|p| periods.contains(p));
    if !candidates.iter().any(|c| matches(&c.passage.deeplink)) {
        return Ok(());
    }
    let all_dated = covered.values().all(|p| !p.is_empty());
    if periods.len() == 1 && all_dated {
        candidates.retain(|c| matches(&c.passage.deeplink));
        return Ok(());
    }
    for c in candidates.iter_mut() {
        if !matches(&c.passage.deeplink) {
            c.passage.relevance /= PERIOD_BOOST;
        }
    }
    Ok(())
}

/// How many companies a scope may hold for the question to be checked against their names;
/// past that the index's company counts are cut off, and a name is found among the first ones.
const MAX_COMPANIES: usize = 500;

/// The companies of the documents in scope (their `company_name` tags) that the question names:
/// "What was Amazon's revenue in 2017?" names "Amazon.com, Inc.". Empty when it names none, or
/// when the scope holds documents of fewer than two companies (nothing to tell apart).
fn named_companies(
    index: &SearchIndex,
    question: &str,
    scope: &Scope,
    access: &Access,
) -> Result<Vec<String>, AssistantError> {
    let Some(req) = scope.request("", access) else {
        return Ok(vec![]);
    };
    let (_, companies) = index.counts(&req, "company")?;
    if companies.len() < 2 {
        return Ok(vec![]);
    }
    let asked = text::name_words(question);
    Ok(companies
        .into_iter()
        .take(MAX_COMPANIES)
        .map(|(company, _)| company)
        .filter(|company| text::names_company(&asked, company))
        .collect())
}

fn choose(candidates: &[Candidate], settings: &Settings) -> Vec<usize> {
    let items: Vec<Item> = candidates
        .iter()
        .map(|c| Item { relevance: c.passage.relevance, document: &c.passage.deeplink, terms: &c.terms })
        .collect();
    select::select(&items, settings.diversity)
}

/// The words that say most about what the best passages are about and the question did not
/// ask: by tf-idf, idf over the whole index. A word must appear in at least two documents,
/// since one found only in the passages already read cannot lead anywhere new. Returned as
/// they are written (lowercased), for the index to analyse again.
fn salient(
    index: &SearchIndex,
    passages: &[&Candidate],
    question: &[String],
    n: usize,
    terms: &mut Terms,
) -> Vec<String> {
    let searcher = index.searcher();
    let total = searcher.num_docs().max(1) as f32;
    let field = index.fields().content;
    let mut tf: HashMap<String, f32> = HashMap::new();
    let mut written: HashMap<String, String> = HashMap::new();
    for c in passages {
        for (range, term) in terms.with_offsets(&c.passage.text) {
            if question.contains(&term) || term.chars().all(|ch| ch.is_ascii_digit()) || term.chars().count() < 3 {
                continue;
            }
            *tf.entry(term.clone()).or_default() += 1.0;
            written.entry(term).or_insert_with(|| c.passage.text[range].to_lowercase());
        }
    }
    let mut scored: Vec<(String, f32)> = tf
        .into_iter()
        .filter_map(|(term, f)| {
            let df = searcher.doc_freq(&Term::from_field_text(field, &term)).ok()? as f32;
            (df >= 2.0).then(|| (term, f * (total / df).ln().max(0.05)))
        })
        .collect();
    scored.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    scored.into_iter().take(n).filter_map(|(t, _)| written.remove(&t)).collect()
}

/// BM25's idf of each term over the whole index.
fn weights(index: &SearchIndex, terms: &[String]) -> Vec<f32> {
    let searcher = index.searcher();
    let n = searcher.num_docs() as f32;
    let field = index.fields().content;
    terms
        .iter()
        .map(|t| {
            let df = searcher.doc_freq(&Term::from_field_text(field, t)).unwrap_or(0) as f32;
            (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
        })
        .collect()
}

/// Fills in each passage's document title and publication date from the document entries.
fn describe(index: &SearchIndex, passages: &mut [RetrievedPassage]) -> Result<(), AssistantError> {
    let searcher = index.searcher();
    let f = index.fields();
    let mut known: HashMap<String, (String, Option<i64>)> = HashMap::new();
    for p in passages.iter_mut() {
        if !known.contains_key(&p.deeplink) {
            let query = TermQuery::new(Term::from_field_text(f.deeplink, &p.deeplink), IndexRecordOption::Basic);
            let top =
                searcher.search(&query, &TopDocs::with_limit(1).order_by_score()).map_err(search::SearchError::from)?;
            let mut found = (String::new(), None);
            if let Some((_, address)) = top.first() {
                let doc: TantivyDocument = searcher.doc(*address).map_err(search::SearchError::from)?;
                found.0 = doc.get_first(f.title).and_then(|v| v.as_str()).unwrap_or_default().to_string();
                found.1 = searcher
                    .segment_reader(address.segment_ord)
                    .fast_fields()
                    .i64("published")
                    .ok()
                    .and_then(|column| column.first(address.doc_id));
            }
            known.insert(p.deeplink.clone(), found);
        }
        let (title, published) = &known[&p.deeplink];
        p.title = title.clone();
        p.published = *published;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_question_over_one_document_may_fill_the_answers_room_from_it_and_over_many_may_not() {
        let one = Settings::standard().for_scope(&Scope::Documents(vec!["report".into()]));
        assert_eq!(one.diversity.per_document, one.diversity.keep);
        assert!(one.candidates_per_document > one.diversity.keep, "the selection still has a choice");
        let two = Settings::pro().for_scope(&Scope::Attachments(vec!["a".into(), "b".into()]));
        assert_eq!(two.diversity.per_document, 5);
        let many: Vec<String> = (0..5).map(|i| format!("doc-{i}")).collect();
        assert_eq!(Settings::standard().for_scope(&Scope::Documents(many)).diversity.per_document, 2);
        assert_eq!(Settings::standard().for_scope(&Scope::Home).diversity.per_document, 2);
        assert_eq!(Settings::standard().for_scope(&Scope::Attachments(vec![])).diversity.per_document, 2);
    }
}
