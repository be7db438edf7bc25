//! The offline engine: an answer made only of sentences the retrieved passages contain, each
//! citing its passage. No model, nothing invented: the words are the sources' words.
//!
//! Sentences are scored against the question with BM25 (idf over the retrieved sentences,
//! terms stemmed as the index stems them), weighted a little by their passage's relevance. The
//! best few are kept; a sentence that repeats one already kept (the same terms, near enough)
//! adds its passage to that sentence's citations instead of appearing twice. The best sentence
//! leads; the others follow in source order. Lists and comparisons get a heading and bullets
//! (a comparison a heading per document).
//!
//! A question asking for arithmetic over a table's figures (a change, a percentage change, an
//! average, a sum, a share) gets one sentence more, first: the value computed from the table rows
//! it names ([`crate::compute`]), marked as computed and citing those rows, which are quoted
//! after it. It is the one sentence not found word for word in a passage; its inputs are.

use std::collections::{HashMap, HashSet};
use std::ops::Range;
use std::sync::Arc;

use async_trait::async_trait;

use crate::answer::{Answer, AnswerQuality, AnswerSentence, AnswerType, Citation, GeneratedAnswer};
use crate::compose;
use crate::compute::{self, Computation};
use crate::engine::{AnswerEngine, Events};
use crate::error::AssistantError;
use crate::retrieve::{Retrieval, WEAK_EVIDENCE};
use crate::text::{self, Shape, Terms};

/// Builds answers from the retrieved sentences themselves.
#[derive(Debug, Clone, Default)]
pub struct ExtractiveEngine;

#[async_trait]
impl AnswerEngine for ExtractiveEngine {
    async fn answer(&self, retrieval: Arc<Retrieval>, pro: bool, events: &Events) -> Result<Answer, AssistantError> {
        events.step("Picking the sentences that answer the question").await?;
        let answer = tokio::task::spawn_blocking(move || compose(&retrieval, pro))
            .await
            .map_err(|e| AssistantError::Internal(format!("extractive answer failed: {e}")))?;
        for line in answer.generated_answer.answer.split_inclusive('\n') {
            events.chunk(line).await?;
        }
        Ok(answer)
    }
}

/// BM25's usual constants.
const K1: f32 = 1.2;
const B: f32 = 0.75;
/// Sentences scoring below this share of the best one are left out: they answer little.
const KEEP_SHARE: f32 = 0.25;
/// Sentences sharing this much of their terms (Jaccard) with one already kept are repeats.
const REPEAT: f32 = 0.6;
/// Sentences shorter than this many terms say too little to stand alone; longer than this many
/// characters are tables or run-on extraction, not sentences.
const MIN_TERMS: usize = 3;
const MAX_CHARS: usize = 600;
/// A table row stating the figure a question asks for counts this much more than its words
/// alone say: a row is terse beside the prose around it, yet it is the answer.
const FIGURE_WEIGHT: f32 = 1.5;

struct Sentence {
    /// Index into the retrieval's passages.
    passage: usize,
    /// Byte range in the passage's text.
    range: Range<usize>,
    text: String,
    terms: Vec<String>,
    set: HashSet<String>,
    score: f32,
    citations: Vec<u32>,
    /// A table row stating the figure asked for: its label holds the question's words and its
    /// values are under a period the question names.
    figure: bool,
}

/// The extractive answer to `retrieval.question`. Pure: call it off the async runtime.
pub fn compose(retrieval: &Retrieval, pro: bool) -> Answer {
    let mut terms = Terms::default();
    let mut pool = sentences(retrieval, &mut terms);
    score(&mut pool, retrieval);
    let computation = compute::compute(retrieval, &mut terms, MAX_CHARS);
    if let Some(c) = &computation {
        lead_with_inputs(&mut pool, retrieval, c);
    }
    let shape = text::shape(&retrieval.question);
    let most = match (shape, pro) {
        (Shape::Prose, false) => 3,
        (Shape::Prose, true) => 5,
        (_, false) => 6,
        (_, true) => 10,
    };
    let chosen = choose(pool, most);
    let best_coverage = chosen
        .iter()
        .map(|s| retrieval.coverage_of(&s.set.iter().map(String::as_str).collect()))
        .fold(0.0f32, f32::max);
    let quality =
        if chosen.is_empty() || best_coverage < WEAK_EVIDENCE { AnswerQuality::Low } else { AnswerQuality::High };
    let ordered = order(chosen);
    let mut answer = markdown(retrieval, &ordered, shape);
    if let Some(c) = &computation {
        answer = format!("{}\n\n{answer}", c.sentence()).trim_end().to_string();
    }
    let mut spans: HashMap<usize, Vec<(u32, u32)>> = HashMap::new();
    for s in &ordered {
        let text = &retrieval.passages[s.passage].text;
        spans
            .entry(s.passage)
            .or_default()
            .push((text::char_index(text, s.range.start), text::char_index(text, s.range.end)));
    }
    let cited: HashSet<u32> = ordered.iter().flat_map(|s| s.citations.iter().copied()).collect();
    Answer {
        answer_type: AnswerType::Answer,
        generated_answer: GeneratedAnswer {
            answer,
            sentences: computation
                .map(|c| AnswerSentence { sentence: c.sentence(), citations: c.citations(), computed: Some(c) })
                .into_iter()
                .chain(ordered.iter().map(|s| AnswerSentence::quoted(s.text.clone(), s.citations.clone())))
                .collect(),
            unknown_citations: 0,
        },
        retrieved_results: retrieval
            .passages
            .iter()
            .enumerate()
            .map(|(i, p)| Citation::of(p, spans.remove(&i).unwrap_or_default()))
            .collect(),
        followup_questions: compose::followups(retrieval, &cited, 3),
        answer_quality: quality,
        answer_quality_message: quality.message().map(str::to_string),
        pro,
    }
}

/// Every sentence of every passage worth reading on its own. A passage that is one table row
/// ([`crate::RetrievedPassage::table_row`]) is one sentence: the row under its column headers
/// ("Total sales — 2019: $1,496.5; 2018: $1,202.9"), quoted as the passage gives it.
fn sentences(retrieval: &Retrieval, terms: &mut Terms) -> Vec<Sentence> {
    let mut out = Vec::new();
    let numbers: HashSet<&str> =
        retrieval.terms.iter().map(String::as_str).filter(|t| t.chars().all(|c| c.is_ascii_digit())).collect();
    let words: HashSet<&str> = retrieval.terms.iter().map(String::as_str).filter(|t| !numbers.contains(t)).collect();
    for (i, p) in retrieval.passages.iter().enumerate() {
        if p.table_row {
            // The row is the passage's first line; its table's caption follows, and its words
            // count towards the row.
            let end = p.text.find('\n').unwrap_or(p.text.len());
            let row = &p.text[..end];
            if row.chars().count() > MAX_CHARS {
                continue;
            }
            let t = terms.of(&p.text);
            // A row naming the question's period under a label of the question's words states
            // the figure asked for.
            let (label, values) = row.split_once(" \u{2014} ").unwrap_or((row, ""));
            let states = terms.of(values).iter().any(|v| numbers.contains(v.as_str()))
                && terms.of(label).iter().any(|w| words.contains(w.as_str()));
            out.push(Sentence {
                passage: i,
                text: text::normalize(row),
                range: 0..end,
                set: t.iter().cloned().collect(),
                terms: t,
                score: 0.0,
                citations: vec![p.number],
                figure: states,
            });
            continue;
        }
        for mut range in text::sentences(&p.text, false) {
            // A bullet's marker is layout, not part of the sentence.
            let raw = &p.text[range.clone()];
            let body = raw.trim_start_matches(['-', '*', '\u{2022}', '\u{2013}', ' ']);
            range.start += raw.len() - body.len();
            let raw = &p.text[range.clone()];
            let t = terms.of(raw);
            if t.len() < MIN_TERMS || raw.chars().count() > MAX_CHARS {
                continue;
            }
            out.push(Sentence {
                passage: i,
                text: text::normalize(raw),
                range,
                set: t.iter().cloned().collect(),
                terms: t,
                score: 0.0,
                citations: vec![p.number],
                figure: false,
            });
        }
    }
    out
}

/// BM25 of each sentence for the question, idf over the sentences, times a little of the
/// passage's relevance so that a tie goes to the better passage.
fn score(pool: &mut [Sentence], retrieval: &Retrieval) {
    let n = pool.len() as f32;
    if pool.is_empty() {
        return;
    }
    let average = pool.iter().map(|s| s.terms.len()).sum::<usize>() as f32 / n;
    let mut df: HashMap<&str, f32> = HashMap::new();
    for s in pool.iter() {
        for t in &s.set {
            if retrieval.terms.contains(t) {
                *df.entry(t.as_str()).or_default() += 1.0;
            }
        }
    }
    let idf: HashMap<String, f32> =
        df.into_iter().map(|(t, d)| (t.to_string(), (1.0 + (n - d + 0.5) / (d + 0.5)).ln())).collect();
    for s in pool.iter_mut() {
        let length = s.terms.len() as f32;
        let mut bm25 = 0.0;
        for (t, w) in &idf {
            let tf = s.terms.iter().filter(|x| *x == t).count() as f32;
            if tf > 0.0 {
                bm25 += w * tf * (K1 + 1.0) / (tf + K1 * (1.0 - B + B * length / average));
            }
        }
        let figure = if s.figure { FIGURE_WEIGHT } else { 1.0 };
        s.score = figure * bm25 * (0.7 + 0.3 * retrieval.passages[s.passage].relevance);
    }
}

/// Puts the rows a computation quotes its inputs from ahead of every other sentence, so the
/// answer shows each input where it is cited.
fn lead_with_inputs(pool: &mut [Sentence], retrieval: &Retrieval, computation: &Computation) {
    let best = pool.iter().map(|s| s.score).fold(0.0f32, f32::max).max(1.0);
    let inputs = computation.citations();
    for s in pool.iter_mut() {
        if let Some(at) = inputs.iter().position(|n| *n == retrieval.passages[s.passage].number) {
            if retrieval.passages[s.passage].table_row {
                // In the inputs' order, just ahead of the best of the rest (whose score still
                // decides which others are worth keeping).
                s.score = best * (1.0 + 0.01 * (inputs.len() - at) as f32);
            }
        }
    }
}

/// The best sentences, repeats folded into the sentence they repeat (its citations grow).
fn choose(mut pool: Vec<Sentence>, most: usize) -> Vec<Sentence> {
    pool.sort_by(|a, b| {
        b.score.total_cmp(&a.score).then(a.passage.cmp(&b.passage)).then(a.range.start.cmp(&b.range.start))
    });
    let best = pool.first().map(|s| s.score).unwrap_or(0.0);
    let mut chosen: Vec<Sentence> = Vec::new();
    for s in pool {
        if s.score <= 0.0 || s.score < KEEP_SHARE * best {
            break;
        }
        if let Some(kept) = chosen.iter_mut().find(|k| repeats(k, &s)) {
            for n in s.citations {
                if !kept.citations.contains(&n) {
                    kept.citations.push(n);
                }
            }
            continue;
        }
        if chosen.len() < most {
            chosen.push(s);
        }
    }
    chosen
}

fn repeats(a: &Sentence, b: &Sentence) -> bool {
    if a.text.eq_ignore_ascii_case(&b.text) {
        return true;
    }
    let shared = a.set.intersection(&b.set).count() as f32;
    let all = a.set.union(&b.set).count() as f32;
    all > 0.0 && shared / all >= REPEAT
}

/// The best sentence first, the others in the order of their sources.
fn order(mut chosen: Vec<Sentence>) -> Vec<Sentence> {
    if chosen.len() > 1 {
        let rest = chosen.split_off(1);
        let mut rest = rest;
        rest.sort_by(|a, b| a.passage.cmp(&b.passage).then(a.range.start.cmp(&b.range.start)));
        chosen.extend(rest);
    }
    chosen
}

fn markdown(retrieval: &Retrieval, sentences: &[Sentence], shape: Shape) -> String {
    let line = |s: &Sentence| format!("{} {}", s.text, compose::marks(&s.citations));
    match shape {
        _ if sentences.is_empty() => String::new(),
        Shape::Prose => sentences.iter().map(line).collect::<Vec<_>>().join(" "),
        Shape::Comparison if documents(retrieval, sentences).len() > 1 => {
            let mut out = Vec::new();
            for deeplink in documents(retrieval, sentences) {
                let first = sentences.iter().find(|s| retrieval.passages[s.passage].deeplink == deeplink);
                let title = first.map(|s| retrieval.passages[s.passage].title.trim()).unwrap_or_default();
                let title = if title.is_empty() { deeplink } else { title };
                let bullets: Vec<String> = sentences
                    .iter()
                    .filter(|s| retrieval.passages[s.passage].deeplink == deeplink)
                    .map(|s| format!("- {}", line(s)))
                    .collect();
                out.push(format!("### {title}\n\n{}", bullets.join("\n")));
            }
            out.join("\n\n")
        }
        Shape::List | Shape::Comparison => {
            let bullets: Vec<String> = sentences.iter().map(|s| format!("- {}", line(s))).collect();
            format!("### {}\n\n{}", compose::heading(&retrieval.question), bullets.join("\n"))
        }
    }
}

/// The documents the sentences come from, in the order they first appear.
fn documents<'a>(retrieval: &'a Retrieval, sentences: &[Sentence]) -> Vec<&'a str> {
    let mut out: Vec<&str> = Vec::new();
    for s in sentences {
        let d = retrieval.passages[s.passage].deeplink.as_str();
        if !out.contains(&d) {
            out.push(d);
        }
    }
    out
}
