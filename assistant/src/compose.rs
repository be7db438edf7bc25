//! What both engines build around the answer's text: citation marks, headings, the numbered
//! sources, and follow-up questions drawn from the retrieved passages.

use std::collections::{HashMap, HashSet};

use crate::retrieve::Retrieval;

/// Citation marks as the answer's markdown writes them: `[1][3]`.
pub fn marks(citations: &[u32]) -> String {
    citations.iter().map(|n| format!("[{n}]")).collect()
}

/// A heading for a list or comparison, from the question's own words ("What are the risks of
/// steel tariffs?" gives "Risks of steel tariffs").
pub fn heading(question: &str) -> String {
    const LEADS: &[&str] = &[
        "what are the differences between",
        "what is the difference between",
        "what's the difference between",
        "differences between",
        "what are the",
        "what were the",
        "what are",
        "what were",
        "which are the",
        "which are",
        "list all the",
        "list all",
        "list the",
        "list",
        "name the",
        "give me the",
        "give me",
        "compare the",
        "compare",
        "tell me about",
    ];
    let trimmed = question.trim().trim_end_matches(['?', '.', '!']).trim();
    let lower = trimmed.to_lowercase();
    let rest = LEADS
        .iter()
        .find(|lead| lower.starts_with(*lead) && lower[lead.len()..].starts_with(' '))
        .map(|lead| trimmed[lead.len()..].trim())
        .unwrap_or(trimmed);
    let mut chars = rest.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => "Key points".to_string(),
    }
}

/// Words that start a capitalised run without naming anything.
const NOT_NAMES: &[&str] = &[
    "The", "A", "An", "This", "That", "These", "Those", "Its", "It", "In", "On", "For", "And", "But", "Our", "We",
    "They", "He", "She", "As", "At", "By", "If", "Of", "To", "With", "From", "After", "Before", "While", "However",
    "Also", "Analysts", "Mr", "Mrs", "Ms",
];

/// Up to `n` follow-up questions drawn from the passages: about the names they mention most that
/// the question did not, then about a document the answer did not cite.
pub fn followups(retrieval: &Retrieval, cited: &HashSet<u32>, n: usize) -> Vec<String> {
    let asked: HashSet<String> = crate::text::content_words(&retrieval.question).into_iter().collect();
    let mut counts: HashMap<String, (usize, usize)> = HashMap::new();
    for (order, p) in retrieval.passages.iter().enumerate() {
        for name in names(&p.text) {
            let known = name.split_whitespace().all(|w| asked.contains(&w.to_lowercase()));
            if !known {
                let entry = counts.entry(name).or_insert((0, order));
                entry.0 += 1;
            }
        }
    }
    let mut ranked: Vec<(String, usize, usize)> = counts.into_iter().map(|(k, (c, o))| (k, c, o)).collect();
    // Most mentioned, longer names first (a full name says more than a surname), then earliest.
    ranked.sort_by(|a, b| {
        let weight = |x: &(String, usize, usize)| x.1 * x.0.split_whitespace().count();
        weight(b).cmp(&weight(a)).then(a.2.cmp(&b.2)).then(a.0.cmp(&b.0))
    });
    let mut out: Vec<String> = ranked
        .into_iter()
        .take(n.saturating_sub(1).max(1))
        .map(|(name, _, _)| format!("What do the sources say about {name}?"))
        .collect();
    let uncited = retrieval.passages.iter().find(|p| !cited.contains(&p.number) && !p.title.is_empty());
    if let Some(p) = uncited {
        out.push(format!("What else does \u{201c}{}\u{201d} report?", p.title.trim()));
    }
    out.truncate(n);
    out
}

/// Runs of capitalised words, without leading function words: the names a passage mentions. A
/// lone capitalised word opening a sentence is no name ("Revenue rose").
fn names(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut run: Vec<&str> = Vec::new();
    let mut run_opens_sentence = false;
    let mut sentence_start = true;
    let flush = |run: &mut Vec<&str>, opens: bool, out: &mut Vec<String>| {
        if run.len() >= 2 || (run.len() == 1 && !opens) {
            out.push(run.join(" "));
        }
        run.clear();
    };
    for raw in text.split_whitespace() {
        let word = raw.trim_matches(|c: char| !c.is_alphanumeric());
        let capitalised = word.chars().next().is_some_and(char::is_uppercase)
            && word.chars().filter(|c| c.is_alphabetic()).count() >= 2;
        if capitalised && !(run.is_empty() && NOT_NAMES.contains(&word)) {
            if run.is_empty() {
                run_opens_sentence = sentence_start;
            }
            run.push(word);
        } else {
            flush(&mut run, run_opens_sentence, &mut out);
        }
        if raw.ends_with([',', ';', ':', ')', '.', '!', '?']) {
            flush(&mut run, run_opens_sentence, &mut out);
        }
        sentence_start = raw.ends_with(['.', '!', '?']);
    }
    flush(&mut run, run_opens_sentence, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_keep_what_the_question_is_about() {
        assert_eq!(heading("What are the risks of steel tariffs?"), "Risks of steel tariffs");
        assert_eq!(heading("compare Tata Steel and JSW"), "Tata Steel and JSW");
        assert_eq!(heading("list"), "List");
    }

    #[test]
    fn names_are_runs_of_capitalised_words() {
        let got =
            names("Kestrel Mining said the Cobalt Institute expects prices to fall. The company met the Reserve Bank.");
        assert_eq!(got, vec!["Kestrel Mining", "Cobalt Institute", "Reserve Bank"]);
    }
}
