//! Text analysis shared by retrieval, the extractive engine and the citation checks: terms with
//! the search index's own English analysis (so "climbing" here is "climbed" there), sentence
//! boundaries, and whitespace normalisation.

use std::collections::HashSet;
use std::ops::Range;

use tantivy::tokenizer::{TextAnalyzer, TokenStream};

/// Stands for a citation inside streamed text while sentences are being cut (a private-use
/// character, so it never collides with real text).
pub(crate) const MARKER: char = '\u{E000}';

/// Words of a question that say what kind of answer is wanted rather than what it is about.
/// The index's stop list is Lucene's short one; a question carries many more such words.
const QUESTION_WORDS: &[&str] = &[
    "what",
    "which",
    "who",
    "whom",
    "whose",
    "when",
    "where",
    "why",
    "how",
    "do",
    "does",
    "did",
    "done",
    "doing",
    "can",
    "could",
    "should",
    "would",
    "may",
    "might",
    "must",
    "shall",
    "list",
    "lists",
    "listing",
    "compare",
    "compared",
    "comparing",
    "comparison",
    "difference",
    "differences",
    "differ",
    "versus",
    "vs",
    "between",
    "tell",
    "me",
    "about",
    "explain",
    "describe",
    "give",
    "show",
    "summarize",
    "summarise",
    "summary",
    "please",
    "i",
    "you",
    "we",
    "my",
    "our",
    "your",
    "its",
    "has",
    "have",
    "had",
    "been",
    "being",
    "were",
    "am",
    "main",
    "key",
    "some",
    "any",
    "all",
    "other",
    "more",
    "most",
    "much",
    "many",
    "say",
    "says",
    "said",
    "mention",
    "mentioned",
    "according",
    "sources",
    "source",
    "documents",
    "document",
    "know",
    "find",
    "there",
    "here",
];

/// Words of a question that ask for a list or a comparison: the answer is then laid out as a
/// heading and bullets.
const LIST_CUES: &[&str] = &["list", "enumerate", "bullet", "bullets", "steps", "ways", "reasons", "risks", "factors"];
const COMPARE_CUES: &[&str] = &[
    "compare",
    "compared",
    "comparing",
    "comparison",
    "difference",
    "differences",
    "differ",
    "versus",
    "vs",
    "contrast",
];

/// Abbreviations after which a full stop does not end a sentence.
const ABBREVIATIONS: &[&str] = &[
    "mr", "mrs", "ms", "dr", "prof", "st", "inc", "ltd", "co", "corp", "jr", "sr", "vs", "no", "fig", "al", "approx",
    "dept", "est", "gov", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec", "rs",
    "mn", "bn", "cr", "pvt", "plc",
];

/// Cuts text into terms the way the search index does: lowercase, ASCII folding, English stop
/// words, Porter stems. One-letter tokens (the "s" of "Tata Steel's") are dropped.
pub struct Terms {
    analyzer: TextAnalyzer,
}

impl Default for Terms {
    fn default() -> Self {
        Terms { analyzer: search::schema::english() }
    }
}

impl Terms {
    /// The terms of `text`, in order, repeats kept.
    pub fn of(&mut self, text: &str) -> Vec<String> {
        self.with_offsets(text).into_iter().map(|(_, t)| t).collect()
    }

    /// The terms of `text` with the byte range each came from.
    pub fn with_offsets(&mut self, text: &str) -> Vec<(Range<usize>, String)> {
        let mut stream = self.analyzer.token_stream(text);
        let mut out = Vec::new();
        while stream.advance() {
            let token = stream.token();
            if token.text.chars().count() < 2 && !token.text.chars().all(|c| c.is_ascii_digit()) {
                continue;
            }
            out.push((token.offset_from..token.offset_to, token.text.clone()));
        }
        out
    }

    /// The terms of a question that say what it is about: its words without the question's own
    /// vocabulary ("what", "list", "compare"), stemmed, each once, in order.
    pub fn of_question(&mut self, question: &str) -> Vec<String> {
        let mut seen = HashSet::new();
        content_words(question).iter().flat_map(|w| self.of(w)).filter(|t| seen.insert(t.clone())).collect()
    }
}

/// The words of a question worth searching for, lowercased (so no word reads as an operator)
/// and without punctuation (so no quote or parenthesis reads as syntax).
pub fn content_words(question: &str) -> Vec<String> {
    question
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .filter(|w| !QUESTION_WORDS.contains(&w.as_str()))
        .collect()
}

/// The words of a text as names are compared: lower case, split at anything not a letter or a
/// digit ("Amazon's" gives "amazon" and "s", "Coca-Cola" gives "coca" and "cola").
pub fn name_words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).map(str::to_lowercase).collect()
}

/// Words of a company's name that do not tell it from others: legal forms, "the", the ".com" of
/// "Amazon.com, Inc.".
const LEGAL_WORDS: &[&str] = &[
    "the",
    "inc",
    "incorporated",
    "corp",
    "corporation",
    "co",
    "company",
    "companies",
    "ltd",
    "limited",
    "plc",
    "llc",
    "lp",
    "llp",
    "sa",
    "ag",
    "nv",
    "se",
    "bhd",
    "pvt",
    "private",
    "com",
    "and",
];

/// Tells whether the words of a question (`asked`, from [`name_words`]) name a company: the
/// words of its name that tell it apart ("Amazon.com, Inc." is "amazon", "The Coca-Cola
/// Company" is "coca cola") stand in the question one after the other. A name that is only
/// legal words, or shorter than three characters in all, names nothing.
pub fn names_company(asked: &[String], company: &str) -> bool {
    let name: Vec<String> = name_words(company).into_iter().filter(|w| !LEGAL_WORDS.contains(&w.as_str())).collect();
    if name.is_empty() || name.iter().map(String::len).sum::<usize>() < 3 {
        return false;
    }
    asked.windows(name.len()).any(|window| window == name.as_slice())
}

/// What layout a question asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    Prose,
    List,
    Comparison,
}

/// Reads the layout a question asks for from its wording.
pub fn shape(question: &str) -> Shape {
    let lower = question.to_lowercase();
    let words: Vec<&str> = lower.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).collect();
    if words.iter().any(|w| COMPARE_CUES.contains(w)) {
        return Shape::Comparison;
    }
    let starts = |p: &str| lower.trim_start().starts_with(p);
    if words.iter().any(|w| LIST_CUES.contains(w))
        || starts("what are")
        || starts("what were")
        || starts("which are")
        || starts("name the")
        || starts("give me")
    {
        return Shape::List;
    }
    Shape::Prose
}

/// Collapses every run of whitespace into one space and trims the ends.
pub fn normalize(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Byte ranges of the sentences of `text`, trimmed. With `newline_breaks` every line break ends
/// a sentence (generated markdown); without, only a blank line or a bulleted line does (PDF text
/// wraps lines inside sentences). [`MARKER`]s right after a sentence's end belong to it.
pub fn sentences(text: &str, newline_breaks: bool) -> Vec<Range<usize>> {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut out = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < chars.len() {
        let (at, c) = chars[i];
        let end = match c {
            '\n' if newline_breaks => Some(i + 1),
            '\n' => {
                let rest = &text[at + 1..];
                let next_line = rest.trim_start_matches([' ', '\t', '\r']);
                let blank = next_line.starts_with('\n') || next_line.is_empty();
                (blank || starts_with_bullet(next_line)).then_some(i + 1)
            }
            '.' | '!' | '?' => punctuation_end(text, &chars, i),
            _ => None,
        };
        if let Some(e) = end {
            let byte_end = chars.get(e).map(|(b, _)| *b).unwrap_or(text.len());
            push_trimmed(text, start..byte_end, &mut out);
            start = byte_end;
            i = e;
        } else {
            i += 1;
        }
    }
    push_trimmed(text, start..text.len(), &mut out);
    out
}

/// Where a sentence ended by the punctuation at `chars[i]` ends (exclusive char index), or `None`
/// when the punctuation ends no sentence (a decimal point, an abbreviation, an initial).
fn punctuation_end(text: &str, chars: &[(usize, char)], i: usize) -> Option<usize> {
    let mut j = i + 1;
    while j < chars.len() && matches!(chars[j].1, ')' | '"' | '\'' | '\u{201d}' | '\u{2019}' | '.' | '!' | '?') {
        j += 1;
    }
    if j < chars.len() && !(chars[j].1.is_whitespace() || chars[j].1 == MARKER) {
        return None;
    }
    if chars[i].1 == '.' && (before_is_abbreviation(text, chars[i].0) || is_list_number(text, chars[i].0)) {
        return None;
    }
    // Citations after the full stop belong to the sentence.
    let mut k = j;
    let mut end = j;
    while k < chars.len() && (chars[k].1.is_whitespace() || chars[k].1 == MARKER) {
        if chars[k].1 == MARKER {
            end = k + 1;
        }
        if chars[k].1 == '\n' {
            break;
        }
        k += 1;
    }
    match chars.get(k) {
        None => Some(end),
        Some(&(_, '\n')) => Some(end),
        Some(&(_, next)) => {
            let opens = next.is_uppercase()
                || next.is_ascii_digit()
                || matches!(next, '"' | '\u{201c}' | '\'' | '\u{2018}' | '(' | '[' | '*' | '-' | '#' | '\u{2022}');
            opens.then_some(end)
        }
    }
}

fn before_is_abbreviation(text: &str, dot: usize) -> bool {
    let before = &text[..dot];
    let word: String =
        before.chars().rev().take_while(|c| c.is_alphabetic()).collect::<Vec<_>>().into_iter().rev().collect();
    if word.is_empty() {
        return false;
    }
    // "J. Smith", "e.g.", "U.S.": a single letter before the stop.
    word.chars().count() == 1 || ABBREVIATIONS.contains(&word.to_lowercase().as_str())
}

/// Whether the stop at `dot` follows a list number opening its line ("2. Revenue rose").
fn is_list_number(text: &str, dot: usize) -> bool {
    let line = &text[text[..dot].rfind('\n').map(|i| i + 1).unwrap_or(0)..dot];
    let line = line.trim_start();
    !line.is_empty() && line.len() <= 3 && line.chars().all(|c| c.is_ascii_digit())
}

fn starts_with_bullet(line: &str) -> bool {
    ["- ", "* ", "\u{2022}", "\u{2013} "].iter().any(|b| line.starts_with(b))
}

fn push_trimmed(text: &str, range: Range<usize>, out: &mut Vec<Range<usize>>) {
    let piece = &text[range.clone()];
    let lead = piece.len() - piece.trim_start().len();
    let trail = piece.len() - piece.trim_end().len();
    if lead + trail < piece.len() {
        out.push(range.start + lead..range.end - trail);
    }
}

/// The character index of byte `at` in `text`.
pub fn char_index(text: &str, at: usize) -> u32 {
    text.get(..at.min(text.len())).map(|s| s.chars().count()).unwrap_or(0) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_question_names_a_company_by_the_words_that_tell_it_apart() {
        let asked = name_words("What was Amazon's net revenue in FY2017, and how did Coca-Cola do?");
        assert!(names_company(&asked, "Amazon.com, Inc."));
        assert!(names_company(&asked, "The Coca-Cola Company"));
        assert!(!names_company(&asked, "PepsiCo, Inc."));
        assert!(!names_company(&asked, "Amazon Lily Holdings Ltd"), "every telling word must be there");
        assert!(!names_company(&asked, "Inc."), "a name of legal words only names nothing");
        assert!(!names_company(&name_words("What is the 2 for 1 split?"), "2 Co"), "too short to be told apart");
    }

    fn cut(text: &str, newline_breaks: bool) -> Vec<&str> {
        sentences(text, newline_breaks).into_iter().map(|r| &text[r]).collect()
    }

    #[test]
    fn sentences_end_at_stops_but_not_at_decimals_initials_or_abbreviations() {
        let text = "Revenue rose 4.2% to Rs. 300 crore. J. Smith of U.S. Steel agreed. Was it enough? Yes!";
        assert_eq!(
            cut(text, false),
            vec!["Revenue rose 4.2% to Rs. 300 crore.", "J. Smith of U.S. Steel agreed.", "Was it enough?", "Yes!"]
        );
    }

    #[test]
    fn wrapped_lines_stay_one_sentence_and_blank_lines_or_bullets_split() {
        let text = "The board met on\nMonday and approved it.\n\nA new paragraph\n- a bullet\n- another";
        assert_eq!(
            cut(text, false),
            vec!["The board met on\nMonday and approved it.", "A new paragraph", "- a bullet", "- another"]
        );
        assert_eq!(cut("one line\nanother line", true), vec!["one line", "another line"]);
        assert_eq!(
            cut("1. Revenue rose. Margins held.\n2. Costs fell.", true),
            vec!["1. Revenue rose.", "Margins held.", "2. Costs fell."]
        );
    }

    #[test]
    fn citation_markers_after_a_stop_belong_to_the_sentence_before() {
        let text = format!("Revenue rose. {MARKER}{MARKER} Margins held {MARKER}.");
        assert_eq!(
            cut(&text, true),
            vec![format!("Revenue rose. {MARKER}{MARKER}"), format!("Margins held {MARKER}.")]
        );
    }

    #[test]
    fn question_terms_are_stemmed_like_the_index_and_skip_question_words() {
        let mut terms = Terms::default();
        assert_eq!(
            terms.of_question("What are the main risks of climbing steel tariffs?"),
            vec!["risk", "climb", "steel", "tariff"]
        );
        assert_eq!(shape("What are the risks?"), Shape::List);
        assert_eq!(shape("Compare Tata Steel vs JSW"), Shape::Comparison);
        assert_eq!(shape("Why did profit fall?"), Shape::Prose);
    }
}
