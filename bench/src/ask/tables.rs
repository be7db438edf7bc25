//! TAT-QA dev through AskNeedl: answers over real annual reports' tables and paragraphs.
//!
//! Each of the 278 contexts (a table and the paragraphs around it, from a real annual report) is
//! one document of a followed feed, its table laid out as DOCX and XLSX extraction leaves one
//! (tab-separated cells, a row a line) after its paragraphs. Every question (the first 100 with
//! `--quick`, all 1,668 otherwise) is asked over its own document (`document_id`), so the figures
//! say how well the assistant finds and cites evidence within a filing, not which filing it picks.
//! Printed overall, by answer type and by where the answer lies (`answer_from`):
//!
//! - *evidence recall@5 / @10*: one of the first k numbered sources holds the evidence: for an
//!   answer from the text, a passage overlapping one of the question's `rel_paragraphs`; from the
//!   table, a passage holding one of the gold values that appear in the table (the answer itself
//!   for spans, the derivation's inputs the document holds for arithmetic, the items counted for
//!   counts); from both, either;
//! - *cited containment*: the passages the answer's sentences cite hold every gold value between
//!   them (so the reader can check the answer, or compute it, from what is cited).
//!
//! And for the arithmetic questions, the sentences the answer marks as computed
//! (`computed` on a sentence): the share of questions given a computed value at all, the share
//! whose computed value equals the gold answer (rounded to two decimals, as the gold is; a
//! percentage in percent), the share of computed values that are wrong, and of the computed
//! sentences, those whose every input is written in the passage it cites. Values computed for
//! questions of the other types are counted too: each is a sentence the question did not ask for.

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::time::{Duration, Instant};

use futures::StreamExt;
use serde_json::Value;

use super::{caught_up, record, Api, Asked};

/// One TAT-QA question with what it needs to be judged.
struct Question {
    text: String,
    /// The document it is asked over.
    context: usize,
    answer_type: String,
    answer_from: String,
    /// The texts of the paragraphs that hold the answer.
    paragraphs: Vec<String>,
    /// What a passage must hold: the gold answer strings, or the derivation's inputs.
    values: Vec<String>,
    /// An arithmetic question's gold answer as a number.
    gold: Option<f64>,
}

/// The contexts as document texts, and the questions; `None` when the data is absent.
fn load(data: &Path) -> Option<(Vec<String>, Vec<Question>)> {
    let (mut documents, mut questions) = (Vec::new(), Vec::new());
    for (i, c) in crate::reports::contexts(data)?.iter().enumerate() {
        let document = crate::reports::document(c, crate::reports::Layout::Tabs);
        let held: HashSet<String> = numbers(&document).iter().map(|n| fold(n)).collect();
        documents.push(document);
        for q in &c.questions {
            let answer_type = q["answer_type"].as_str().unwrap_or_default().to_string();
            let derivation = q["derivation"].as_str().unwrap_or_default();
            let values: Vec<String> = match answer_type.as_str() {
                // The inputs the document holds: not the 2 of an average or the 100 of a percentage.
                "arithmetic" => numbers(derivation).into_iter().filter(|n| held.contains(&fold(n))).collect(),
                "count" => derivation.split("##").map(str::to_string).collect(),
                _ => match &q["answer"] {
                    Value::Array(items) => {
                        items.iter().map(|v| v.as_str().map(str::to_string).unwrap_or(v.to_string())).collect()
                    }
                    Value::String(s) => vec![s.clone()],
                    other => vec![other.to_string()],
                },
            };
            let values: Vec<String> = values.into_iter().filter(|v| !fold(v).is_empty()).collect();
            // `rel_paragraphs` number the context's paragraphs from 1, as strings.
            let paragraphs = q["rel_paragraphs"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|n| n.as_str()?.parse::<usize>().ok())
                .filter_map(|n| c.paragraphs.get(n.checked_sub(1)?).cloned())
                .collect();
            let gold = match &q["answer"] {
                Value::Number(n) => n.as_f64(),
                Value::String(s) => s.trim().replace(',', "").parse().ok(),
                _ => None,
            };
            questions.push(Question {
                gold: gold.filter(|_| answer_type == "arithmetic"),
                text: q["question"].as_str().unwrap_or_default().to_string(),
                context: i,
                answer_type,
                answer_from: q["answer_from"].as_str().unwrap_or_default().to_string(),
                paragraphs,
                values,
            });
        }
    }
    Some((documents, questions))
}

/// The numbers a derivation is computed from, as written ("(44.1-56.7)/56.7" gives 44.1, 56.7).
fn numbers(derivation: &str) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    let mut current = String::new();
    for ch in derivation.chars().chain([' ']) {
        if ch.is_ascii_digit() || ((ch == '.' || ch == ',') && !current.is_empty()) {
            current.push(ch);
        } else if !current.is_empty() {
            let number = current.trim_end_matches(['.', ',']).to_string();
            if !found.contains(&number) {
                found.push(number);
            }
            current.clear();
        }
    }
    found
}

/// How values and passages are compared: lowercase, without spaces, currency signs and the
/// thousands separators that tables and answers use differently.
fn fold(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_whitespace() && !matches!(c, '$' | '€' | '£' | ','))
        .flat_map(char::to_lowercase)
        .collect()
}

/// Whether `passage` overlaps `paragraph`: one holds the other's opening.
fn overlaps(passage: &str, paragraph: &str) -> bool {
    let (p, g) = (fold(passage), fold(paragraph));
    let opening = |s: &str| s.chars().take(50).collect::<String>();
    !p.is_empty() && !g.is_empty() && (p.contains(&opening(&g)) || g.contains(&opening(&p)))
}

/// Counts for one group of questions.
#[derive(Default, Clone)]
struct Counts {
    asked: usize,
    at5: usize,
    at10: usize,
    contained: usize,
}

impl Counts {
    fn add(&mut self, at5: bool, at10: bool, contained: bool) {
        self.asked += 1;
        self.at5 += usize::from(at5);
        self.at10 += usize::from(at10);
        self.contained += usize::from(contained);
    }

    fn print(&self, label: &str) {
        let share = |n: usize| if self.asked == 0 { 0.0 } else { n as f64 / self.asked as f64 };
        println!(
            "    {label:<22} {:>5}  recall@5 {:.3}  recall@10 {:.3}  cited containment {:.3}",
            self.asked,
            share(self.at5),
            share(self.at10),
            share(self.contained)
        );
    }
}

/// Counts of computed values.
#[derive(Default)]
struct Computed {
    /// Arithmetic questions asked, those given a computed value, and those whose value is the gold.
    arithmetic: usize,
    computed: usize,
    right: usize,
    /// Computed sentences in all answers, and those whose inputs are written in their cited passages.
    sentences: usize,
    quoted: usize,
    /// Questions of other types given a computed value, of how many.
    other: usize,
    others: usize,
}

impl Computed {
    fn add(&mut self, q: &Question, done: &Value) {
        let results: Vec<&Value> = done["retrieved_results"].as_array().map(|a| a.iter().collect()).unwrap_or_default();
        let computed: Vec<&Value> = done["generated_answer"]["sentences"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|s| s.get("computed"))
            .collect();
        for c in &computed {
            self.sentences += 1;
            let inputs = c["inputs"].as_array().cloned().unwrap_or_default();
            let quoted = !inputs.is_empty()
                && inputs.iter().all(|i| {
                    let cited = results.iter().find(|r| r["id"] == i["citation"]);
                    let written = i["written"].as_str().unwrap_or_default();
                    cited
                        .and_then(|r| r["context"].as_str())
                        .is_some_and(|t| !written.is_empty() && t.contains(written))
                });
            self.quoted += usize::from(quoted);
        }
        let value = computed.first().and_then(|c| c["value"].as_f64());
        if q.answer_type == "arithmetic" {
            self.arithmetic += 1;
            self.computed += usize::from(value.is_some());
            let right = matches!((value, q.gold), (Some(v), Some(g)) if assistant::compute::agrees(v, g));
            self.right += usize::from(right);
        } else {
            self.others += 1;
            self.other += usize::from(value.is_some());
        }
    }

    fn print(&self) {
        let share = |n: usize, of: usize| if of == 0 { 0.0 } else { n as f64 / of as f64 };
        let line = |label: &str, n: usize, of: usize, what: &str| {
            println!("      {label:<20} {:.3}  ({n:>4}/{of:<4})  {what}", share(n, of));
        };
        println!("    computed values (arithmetic questions):");
        line("computed", self.computed, self.arithmetic, "a value computed at all");
        line("equal to the gold", self.right, self.arithmetic, "the computed value is the gold answer (2 decimals)");
        line("wrong", self.computed - self.right, self.computed, "computed values that are not the gold answer");
        line(
            "inputs quoted",
            self.quoted,
            self.sentences,
            "computed sentences whose inputs are in their cited passages",
        );
        line("on other questions", self.other, self.others, "values computed for questions not asking for arithmetic");
    }
}

/// Ingests TAT-QA dev's contexts as documents and asks their questions over each one's own.
pub(super) async fn measure(
    server: &api::app::Server,
    api: &Api,
    token: &str,
    data: &Path,
    limit: usize,
) -> anyhow::Result<()> {
    let Some((documents, questions)) = load(data) else {
        println!("  TAT-QA dev: skipped (qa/tatqa/tatqa_dataset_dev.json not found)");
        return Ok(());
    };
    let started = Instant::now();
    let source = api.follow(token, "https://tatqa.bench.example.com/reports.xml").await?;
    let store = super::blobs(server);
    let mut deeplinks = Vec::with_capacity(documents.len());
    for (i, text) in documents.iter().enumerate() {
        let (guid, title) = (format!("tatqa-{i}"), format!("Annual report extract {}", i + 1));
        deeplinks.push(record(server, &store, &source, &guid, &title, text).await?);
    }
    caught_up(server, Duration::from_secs(120)).await?;
    let questions = &questions[..limit.min(questions.len())];
    let ingested = started.elapsed();
    let started = Instant::now();
    let answers: Vec<anyhow::Result<Asked>> = futures::stream::iter(questions)
        .map(|q| api.ask_over(token, &q.text, std::slice::from_ref(&deeplinks[q.context])))
        .buffered(super::QUALITY_CLIENTS)
        .collect()
        .await;
    println!(
        "  TAT-QA dev: {} contexts ingested as documents in {:.1} s; {} questions asked, each over its own document, in {:.1} s",
        documents.len(),
        ingested.as_secs_f64(),
        questions.len(),
        started.elapsed().as_secs_f64()
    );
    let (mut all, mut by_type, mut by_from) =
        (Counts::default(), HashMap::<String, Counts>::new(), HashMap::<String, Counts>::new());
    let mut failed = 0;
    let mut computed = Computed::default();
    for (q, answer) in questions.iter().zip(answers) {
        let Ok(Asked { answer: Some(done), .. }) = answer else {
            failed += 1;
            computed.add(q, &Value::Null);
            all.add(false, false, false);
            by_type.entry(q.answer_type.clone()).or_default().add(false, false, false);
            by_from.entry(q.answer_from.clone()).or_default().add(false, false, false);
            continue;
        };
        computed.add(q, &done);
        let (at5, at10, contained) = judge(q, &documents[q.context], &done);
        all.add(at5, at10, contained);
        by_type.entry(q.answer_type.clone()).or_default().add(at5, at10, contained);
        by_from.entry(q.answer_from.clone()).or_default().add(at5, at10, contained);
    }
    all.print("all questions");
    for (label, group) in [("by answer type", &by_type), ("by where the answer is", &by_from)] {
        println!("    {label}:");
        let mut keys: Vec<&String> = group.keys().collect();
        keys.sort();
        for key in keys {
            group[key].print(&format!("  {key}"));
        }
    }
    computed.print();
    if failed > 0 {
        println!("    {failed} questions failed (counted as misses)");
    }
    Ok(())
}

/// Judges one answer: evidence among the first 5 and 10 sources, and the gold values held by the
/// cited passages.
fn judge(q: &Question, document: &str, done: &Value) -> (bool, bool, bool) {
    let results: Vec<&Value> = done["retrieved_results"].as_array().map(|a| a.iter().collect()).unwrap_or_default();
    let context = |r: &Value| r["context"].as_str().unwrap_or_default().to_string();
    let table_values: Vec<String> = {
        let table = fold(document);
        q.values.iter().map(|v| fold(v)).filter(|v| table.contains(v.as_str())).collect()
    };
    let evidence = |passage: &str| {
        let text = q.paragraphs.iter().any(|p| overlaps(passage, p));
        let folded = fold(passage);
        let table = table_values.iter().any(|v| folded.contains(v.as_str()));
        match q.answer_from.as_str() {
            "text" => text,
            "table" => table,
            _ => text || table,
        }
    };
    let first = |k: usize| results.iter().take(k).any(|r| evidence(&context(r)));
    let cited: HashSet<u64> = done["generated_answer"]["sentences"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|s| s["citations"].as_array().into_iter().flatten().filter_map(Value::as_u64))
        .collect();
    let cited_text: String = results
        .iter()
        .filter(|r| r["id"].as_u64().is_some_and(|n| cited.contains(&n)))
        .map(|r| fold(&context(r)))
        .collect::<Vec<_>>()
        .join(" ");
    let contained = !q.values.is_empty() && q.values.iter().all(|v| cited_text.contains(&fold(v)));
    (first(5), first(10), contained)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_derivation_gives_its_inputs_and_values_compare_without_signs_or_separators() {
        assert_eq!(numbers("(44.1-56.7)/56.7"), ["44.1", "56.7"]);
        assert_eq!(numbers("1,496.5>1,202.9"), ["1,496.5", "1,202.9"]);
        assert_eq!(fold("$  1,452.4"), fold("$1,452.4"));
        assert!(overlaps(
            "On a fixed-price type contract, we agree to perform",
            "On a fixed-price type contract, we agree to perform the contractual statement of work"
        ));
    }
}
