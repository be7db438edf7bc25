//! Writing one section from its evidence, with either engine, and the checks every sentence
//! passes before it is kept.
//!
//! - The extractive engine (the offline default) picks the passages' own sentences; a sentence is
//!   kept only when it is found word for word in a passage it cites.
//! - A chat-completions model (when one is configured for AskNeedl) writes prose from the same
//!   passages; a sentence is kept only when it passes AskNeedl's support check
//!   ([`assistant::openai::SupportCheck`]): it cites a passage there is, and its cited passages
//!   hold enough of its terms. Citations to passages that do not exist were dropped as the answer
//!   streamed; a sentence left citing nothing is dropped with the unsupported ones.
//!
//! Either way a financial section also gets its key figures ([`super::figures`]), each cited to
//! the passage it was read from, and a section left with neither sentences nor figures says the
//! files hold no evidence for it, with no citation.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use assistant::openai::{SupportCheck, SUPPORT_THRESHOLD};
use assistant::{AnswerEngine, AnswerSentence, AssistantError, Events, Retrieval, RetrievedPassage};
use serde_json::{json, Value};

use super::figures::{self, Evidence, KeyFigures};

/// What a section without evidence says.
pub const NO_EVIDENCE: &str = "_The report's files hold no evidence for this section._";

/// A section as written, before it is recorded.
pub(crate) struct Written {
    pub markdown: String,
    pub sentences: Value,
    pub passages: Value,
    /// What the model wrote, judged before anything was dropped (`None`: written extractively).
    pub checked: Option<ModelCheck>,
}

/// A model's section judged by the support check before anything of it is dropped, and what of
/// it is kept: citation recall and precision as ALCE defines them (and STORM reports), with the
/// support check as the judge.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct ModelCheck {
    /// Sentences the model wrote (headings aside).
    pub sentences: usize,
    /// Of them, claims: those with enough terms to be judged ([`assistant::openai::JUDGED_TERMS`]).
    pub claims: usize,
    /// Claims their citations, together, bear out: citation recall is `supported / claims`.
    pub supported: usize,
    /// The claims' citations, and every citation to no passage (dropped as the answer streamed,
    /// whatever sentence it was on).
    pub citations: usize,
    /// Citations that bear their claim out alone, or without which the others would not:
    /// citation precision is `precise / citations`.
    pub precise: usize,
    /// Sentences kept in the section, and their citations.
    pub kept_sentences: usize,
    pub kept_citations: usize,
}

impl ModelCheck {
    /// Judges the model's `sentences`, `unknown` citations to no passage having been dropped.
    fn judge(check: &mut SupportCheck, sentences: &[AnswerSentence], unknown: usize) -> ModelCheck {
        let mut out = ModelCheck { sentences: sentences.len(), citations: unknown, ..ModelCheck::default() };
        for s in sentences {
            let sentence = assistant::text::normalize(&s.sentence);
            if check.support(&sentence, &[]).is_none() {
                continue;
            }
            out.claims += 1;
            let whole = check.passes(&sentence, &s.citations);
            out.supported += usize::from(whole);
            out.citations += s.citations.len();
            out.precise += s
                .citations
                .iter()
                .filter(|n| {
                    let alone = check.support(&sentence, &[**n]).is_some_and(|held| held >= SUPPORT_THRESHOLD);
                    let others: Vec<u32> = s.citations.iter().copied().filter(|m| m != *n).collect();
                    alone || (whole && !check.passes(&sentence, &others))
                })
                .count();
        }
        out
    }

    fn add(&mut self, other: &ModelCheck) {
        self.sentences += other.sentences;
        self.claims += other.claims;
        self.supported += other.supported;
        self.citations += other.citations;
        self.precise += other.precise;
        self.kept_sentences += other.kept_sentences;
        self.kept_citations += other.kept_citations;
    }
}

/// Every model section this process has recorded, added up.
static MODEL_CHECKS: Mutex<ModelCheck> = Mutex::new(ModelCheck {
    sentences: 0,
    claims: 0,
    supported: 0,
    citations: 0,
    precise: 0,
    kept_sentences: 0,
    kept_citations: 0,
});

/// Adds a recorded section's check to the process's total.
pub(crate) fn tally(checked: &ModelCheck) {
    MODEL_CHECKS.lock().unwrap_or_else(|e| e.into_inner()).add(checked);
}

/// The checks of every model section this process has recorded, added up (for the benchmark and
/// operators: how much of what the model writes its sources bear out).
pub fn model_checks() -> ModelCheck {
    *MODEL_CHECKS.lock().unwrap_or_else(|e| e.into_inner())
}

/// What a section is, for the engine that writes it.
pub(crate) struct Brief<'a> {
    pub heading: &'a str,
    pub query: &'a str,
    /// The report type's label ("Initiation coverage").
    pub report: &'a str,
    /// Whether the section shows a table of key figures.
    pub figures: bool,
}

/// Writes a section from `retrieval` with `engine` when it writes prose (a model), extractively
/// otherwise. `preceding` holds, by passage number, the text before a passage that continues a
/// table (see [`key_figures`]).
pub(crate) async fn write(
    engine: &Arc<dyn AnswerEngine>,
    retrieval: Retrieval,
    preceding: HashMap<u32, String>,
    brief: &Brief<'_>,
) -> Result<Written, AssistantError> {
    let with_figures = brief.figures;
    if engine.model().is_none() || retrieval.passages.is_empty() {
        // Without passages a model would write from memory: nothing to write from.
        return tokio::task::spawn_blocking(move || extractive(&retrieval, &preceding, with_figures))
            .await
            .map_err(|e| AssistantError::Internal(format!("writing a section failed: {e}")));
    }
    let mut asked = retrieval.clone();
    asked.question = instruction(brief);
    let (events, mut rx) = Events::channel(64);
    // The section is recorded whole; its streamed pieces are read and let go.
    let drain = tokio::spawn(async move { while rx.recv().await.is_some() {} });
    let answer = engine.answer(Arc::new(asked), true, &events).await;
    drop(events);
    let _ = drain.await;
    let answer = answer?;
    tokio::task::spawn_blocking(move || {
        let mut check = SupportCheck::new(&retrieval);
        let generated = &answer.generated_answer;
        let mut checked = ModelCheck::judge(&mut check, &generated.sentences, generated.unknown_citations);
        let kept: Vec<(String, Vec<u32>)> = answer
            .generated_answer
            .sentences
            .iter()
            .filter_map(|s| {
                let sentence = assistant::text::normalize(&s.sentence);
                if !check.passes(&sentence, &s.citations) {
                    tracing::debug!(%sentence, "a written sentence its citations do not bear out is dropped");
                    return None;
                }
                // Of several citations, those that alone bear the sentence out, when any does.
                let alone: Vec<u32> = s
                    .citations
                    .iter()
                    .copied()
                    .filter(|n| check.support(&sentence, &[*n]).is_some_and(|held| held >= SUPPORT_THRESHOLD))
                    .collect();
                let citations = if alone.is_empty() {
                    s.citations.iter().copied().filter(|n| (1..=retrieval.passages.len() as u32).contains(n)).collect()
                } else {
                    alone
                };
                Some((sentence, citations))
            })
            .collect();
        checked.kept_sentences = kept.len();
        checked.kept_citations = kept.iter().map(|(_, c)| c.len()).sum();
        let figures = if with_figures { key_figures(&retrieval, &preceding) } else { KeyFigures::default() };
        Written { checked: Some(checked), ..section_of(&retrieval, kept, &figures) }
    })
    .await
    .map_err(|e| AssistantError::Internal(format!("checking a written section failed: {e}")))
}

/// What the model is asked: the section, what it covers, and to keep to the sources.
fn instruction(brief: &Brief<'_>) -> String {
    format!(
        "Write the \"{}\" section of a research report ({}) from the sources: {}. Write a short paragraph of \
         plain sentences that state what the sources say about it, each citing its sources; no heading, no list \
         of references.",
        brief.heading,
        brief.report.to_lowercase(),
        brief.query
    )
}

/// The extractive section: the engine's sentences, each kept only when found word for word in a
/// passage it cites (and citing only those). Pure: call it off the async runtime.
pub(crate) fn extractive(retrieval: &Retrieval, preceding: &HashMap<u32, String>, with_figures: bool) -> Written {
    let answer = assistant::extractive::compose(retrieval, true);
    let by_number: HashMap<u32, &RetrievedPassage> = retrieval.passages.iter().map(|p| (p.number, p)).collect();
    let kept = answer
        .generated_answer
        .sentences
        .iter()
        .filter_map(|s| {
            let sentence = assistant::text::normalize(&s.sentence);
            let verbatim: Vec<u32> = s
                .citations
                .iter()
                .copied()
                .filter(|n| by_number.get(n).is_some_and(|p| assistant::text::normalize(&p.text).contains(&sentence)))
                .collect();
            (!verbatim.is_empty()).then_some((sentence, verbatim))
        })
        .collect();
    let figures = if with_figures { key_figures(retrieval, preceding) } else { KeyFigures::default() };
    section_of(retrieval, kept, &figures)
}

/// The key figures of the retrieved passages, a passage that continues a table read under the
/// header `preceding` holds for it (by passage number).
pub fn key_figures(retrieval: &Retrieval, preceding: &HashMap<u32, String>) -> KeyFigures {
    let evidence: Vec<Evidence<'_>> = retrieval
        .passages
        .iter()
        .map(|p| Evidence {
            number: p.number,
            text: &p.text,
            before: preceding.get(&p.number).map_or("", String::as_str),
        })
        .collect();
    figures::key_figures(&evidence)
}

/// The text before each passage of `retrieval` that continues a table (by passage number): up
/// to [`PRECEDING_PASSAGES`] passages of its document before it, as `before` reads them
/// (`deeplink`, `ordinal`, how many). A passage whose text cannot be read is left out.
pub fn preceding(
    retrieval: &Retrieval,
    before: impl Fn(&str, u32, u32) -> anyhow::Result<Vec<String>>,
) -> HashMap<u32, String> {
    retrieval
        .passages
        .iter()
        .filter(|p| p.ordinal > 0 && !p.table_row && figures::continues_table(&p.text))
        .filter_map(|p| match before(&p.deeplink, p.ordinal, PRECEDING_PASSAGES) {
            Ok(texts) => Some((p.number, texts.join("\n"))),
            Err(error) => {
                tracing::warn!(%error, deeplink = %p.deeplink, "the passages before a table's part could not be read");
                None
            }
        })
        .collect()
}

/// How many passages back a table's header is looked for: a table of up to three passages'
/// length keeps its periods.
pub const PRECEDING_PASSAGES: u32 = 2;

pub(crate) fn passage_json(p: &RetrievedPassage, number: usize) -> Value {
    json!({
        "number": number,
        "deeplink": p.deeplink,
        "title": p.title,
        "source_id": p.source_id,
        "ordinal": p.ordinal,
        "page": p.page,
        "start": p.start,
        "end": p.end,
        "boxes": p.boxes,
        "text": p.text,
    })
}

/// The section's number for passage `n`, given it a new one on first use.
fn local(n: u32, used: &mut Vec<u32>) -> u32 {
    match used.iter().position(|u| *u == n) {
        Some(i) => i as u32 + 1,
        None => {
            used.push(n);
            used.len() as u32
        }
    }
}

/// The section from its kept sentences and its figures: citations renumbered within the section
/// in order of first use (sentences first, then the table row by row), and only the passages
/// cited.
fn section_of(retrieval: &Retrieval, kept: Vec<(String, Vec<u32>)>, figures: &KeyFigures) -> Written {
    let by_number: HashMap<u32, &RetrievedPassage> = retrieval.passages.iter().map(|p| (p.number, p)).collect();
    let mut used: Vec<u32> = Vec::new();
    let mut sentences = Vec::new();
    let mut lines = Vec::new();
    for (sentence, citations) in kept {
        let numbers: Vec<u32> =
            citations.iter().filter(|n| by_number.contains_key(n)).map(|n| local(*n, &mut used)).collect();
        if numbers.is_empty() {
            continue;
        }
        lines.push(format!("{} {}", sentence, assistant::compose::marks(&numbers)));
        sentences.push(json!({ "sentence": sentence, "citations": numbers }));
    }
    for n in figures.citations() {
        local(n, &mut used);
    }
    let table = figures.markdown(|n| used.iter().position(|u| *u == n).map(|i| i as u32 + 1).unwrap_or(0));
    let passages: Vec<Value> = used.iter().enumerate().map(|(i, n)| passage_json(by_number[n], i + 1)).collect();
    let markdown = match (lines.is_empty(), table.is_empty()) {
        (true, true) => NO_EVIDENCE.to_string(),
        (false, true) => lines.join(" "),
        (true, false) => table,
        (false, false) => format!("{}\n\n{}", lines.join(" "), table),
    };
    Written { markdown, sentences: Value::Array(sentences), passages: Value::Array(passages), checked: None }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn passage(number: u32, text: &str) -> RetrievedPassage {
        RetrievedPassage {
            number,
            deeplink: format!("doc-{number}"),
            source_id: "needldrive".into(),
            category: "drives".into(),
            title: format!("Doc {number}"),
            published: None,
            ordinal: 0,
            page: 1,
            start: 0,
            end: text.chars().count() as u32,
            boxes: vec![],
            text: text.into(),
            marks: vec![],
            relevance: 1.0,
            round: 1,
            table_row: false,
        }
    }

    fn retrieval(passages: Vec<RetrievedPassage>) -> Retrieval {
        Retrieval { question: "revenue profit".into(), passages, ..Retrieval::default() }
    }

    #[test]
    fn a_section_numbers_sentences_then_figures_and_keeps_only_the_passages_cited() {
        let r = retrieval(vec![
            passage(1, "Unused passage about weather."),
            passage(2, "Revenue grew strongly in the year."),
            passage(3, "FY24\tFY23\nRevenue\t48,200\t42,280"),
        ]);
        let figures = key_figures(&r, &HashMap::new());
        let written = section_of(&r, vec![("Revenue grew strongly in the year.".into(), vec![2, 9])], &figures);
        assert_eq!(written.sentences, json!([{"sentence": "Revenue grew strongly in the year.", "citations": [1]}]));
        let cited: Vec<&str> =
            written.passages.as_array().unwrap().iter().map(|p| p["deeplink"].as_str().unwrap()).collect();
        assert_eq!(cited, vec!["doc-2", "doc-3"]);
        assert!(written.markdown.starts_with("Revenue grew strongly in the year. [1]\n\n**Key figures**"));
        assert!(written.markdown.contains("| Revenue | 48,200 [2] | 42,280 [2] |"), "{}", written.markdown);
    }

    #[test]
    fn a_passage_continuing_a_table_is_read_under_the_header_of_the_passages_before_it() {
        let mut part = passage(2, "Operating income\t1,200\t1,050\nNet income\t800\t700");
        part.ordinal = 5;
        let r = retrieval(vec![passage(1, "FY24\tFY23\nRevenue\t48,200\t42,280"), part]);
        let asked = std::cell::RefCell::new(Vec::new());
        let preceding = preceding(&r, |deeplink, ordinal, count| {
            asked.borrow_mut().push((deeplink.to_string(), ordinal, count));
            Ok(vec!["Results (in crore)\nFY24\tFY23".into(), "Revenue\t9,000\t8,100".into()])
        });
        // Only the passage that starts inside a table is looked up.
        assert_eq!(asked.into_inner(), vec![("doc-2".to_string(), 5, PRECEDING_PASSAGES)]);
        let figures = key_figures(&r, &preceding);
        let net: Vec<_> = figures.figures().filter(|(m, _, _)| *m == "Net income").map(|(_, p, c)| (p, c)).collect();
        assert_eq!(net.len(), 2, "{figures:?}");
        assert_eq!((net[0].0, net[0].1.value.as_str(), net[0].1.citation), ("FY24", "800", 2));
        // The header's own rows are not read from the text before.
        assert!(figures.figures().all(|(_, _, c)| c.value != "9,000"));
    }

    /// A model that answers every section with the same sentences, and drops `unknown` citations
    /// to no source.
    struct Scripted {
        sentences: Vec<(&'static str, Vec<u32>)>,
        unknown: usize,
    }

    #[async_trait::async_trait]
    impl AnswerEngine for Scripted {
        fn model(&self) -> Option<&str> {
            Some("scripted")
        }

        async fn answer(&self, _: Arc<Retrieval>, pro: bool, _: &Events) -> Result<assistant::Answer, AssistantError> {
            let sentences: Vec<AnswerSentence> = self
                .sentences
                .iter()
                .map(|(s, c)| AnswerSentence::quoted(s.to_string(), c.clone()))
                .collect();
            Ok(assistant::Answer {
                answer_type: assistant::AnswerType::Answer,
                generated_answer: assistant::GeneratedAnswer {
                    answer: String::new(),
                    sentences,
                    unknown_citations: self.unknown,
                },
                retrieved_results: vec![],
                followup_questions: vec![],
                answer_quality: assistant::AnswerQuality::High,
                answer_quality_message: None,
                pro,
            })
        }
    }

    #[tokio::test]
    async fn a_model_section_is_judged_before_its_unsupported_sentences_and_citations_are_dropped() {
        let r = retrieval(vec![
            passage(1, "Revenue for fiscal 2019 was 1,496.5 million dollars, an increase of 12% over fiscal 2018."),
            passage(2, "Operating expenses decreased by 3% to 820 million dollars on lower restructuring charges."),
            passage(3, "The weather in the harbour was mild all winter."),
        ]);
        let engine: Arc<dyn AnswerEngine> = Arc::new(Scripted {
            sentences: vec![
                // Borne out by [1]; [3] adds nothing: one precise citation of two.
                ("Revenue for fiscal 2019 was 1,496.5 million dollars.", vec![1, 3]),
                // Neither passage bears it out alone, both together do: two precise citations.
                ("Revenue rose 12% in fiscal 2019 while operating expenses decreased 3%.", vec![1, 2]),
                // Cites a passage that does not bear it out.
                ("Operating expenses decreased because of weather in the harbour.", vec![1]),
                // A claim citing nothing.
                ("Restructuring charges fell sharply over the year.", vec![]),
                // Connective text, not judged.
                ("In short:", vec![2]),
            ],
            unknown: 2,
        });
        let brief = Brief { heading: "Financial performance", query: "revenue", report: "Test", figures: false };
        let written = write(&engine, r, HashMap::new(), &brief).await.unwrap();
        let checked = written.checked.expect("a model's section is judged");
        assert_eq!(
            checked,
            ModelCheck {
                sentences: 5,
                claims: 4,
                supported: 2,
                // 2 + 2 + 1 on claims, and the 2 that named no source.
                citations: 7,
                precise: 3,
                // The two borne out, and "In short:", which cites a passage there is.
                kept_sentences: 3,
                // [1] alone for the first, [1][2] for the second, [2] for the third.
                kept_citations: 4,
            }
        );
        let kept: Vec<&str> =
            written.sentences.as_array().unwrap().iter().map(|s| s["sentence"].as_str().unwrap()).collect();
        assert_eq!(kept.len(), 3, "{kept:?}");
        assert!(!kept.iter().any(|s| s.contains("weather") || s.contains("Restructuring")), "{kept:?}");
    }

    #[test]
    fn a_section_without_sentences_or_figures_says_so_and_cites_nothing() {
        let written = section_of(&retrieval(vec![]), vec![], &KeyFigures::default());
        assert_eq!(written.markdown, NO_EVIDENCE);
        assert_eq!(written.passages, json!([]));
    }
}
