//! The first half of the index's English analyzer (`search::schema::words`: words split at
//! anything not alphanumeric, words of 40 bytes or more dropped, lowercased, folded to ASCII),
//! done without its per-token machinery for the common case of an ASCII word.
//!
//! A word with any other character goes through the index's own analyzer, so the two agree on
//! every word; a test holds them to the same tokens and positions.

use tantivy::tokenizer::TextAnalyzer;

/// The index's limit: a word this long or longer is not indexed (its position still counts).
const LONG: usize = 40;

pub(crate) struct Words {
    /// The index's analyzer, for the words that are not plain ASCII.
    analyzer: TextAnalyzer,
    buffer: String,
}

impl Words {
    pub(crate) fn new() -> Words {
        Words { analyzer: search::schema::words(), buffer: String::new() }
    }

    /// Calls `each` with every word of `text` as the index would see it, and its position.
    pub(crate) fn each(&mut self, text: &str, mut each: impl FnMut(&str, u32)) {
        let bytes = text.as_bytes();
        let mut position = 0u32;
        let mut at = 0;
        while at < bytes.len() {
            let (start, ascii) = match next_word(text, at) {
                Some(found) => found,
                None => return,
            };
            let (end, plain) = word_end(text, start, ascii);
            at = end;
            let word = &text[start..end];
            let this = position;
            position += 1;
            if word.len() >= LONG {
                continue;
            }
            if plain {
                if word.bytes().any(|b| b.is_ascii_uppercase()) {
                    self.buffer.clear();
                    self.buffer.push_str(word);
                    self.buffer.make_ascii_lowercase();
                    each(&self.buffer, this);
                } else {
                    each(word, this);
                }
            } else {
                // One alphanumeric run is one token of the analyzer.
                let mut stream = self.analyzer.token_stream(word);
                while stream.advance() {
                    each(&stream.token().text, this);
                }
            }
        }
    }
}

fn alphanumeric_at(text: &str, at: usize) -> (bool, usize, bool) {
    let b = text.as_bytes()[at];
    if b < 0x80 {
        return (b.is_ascii_alphanumeric(), 1, true);
    }
    let c = text[at..].chars().next().expect("a char starts here");
    (c.is_alphanumeric(), c.len_utf8(), false)
}

/// Where the next word starts at or after `at`, and whether its first character is ASCII.
fn next_word(text: &str, mut at: usize) -> Option<(usize, bool)> {
    while at < text.len() {
        let (alphanumeric, len, ascii) = alphanumeric_at(text, at);
        if alphanumeric {
            return Some((at, ascii));
        }
        at += len;
    }
    None
}

/// Where the word starting at `start` ends, and whether all of it is ASCII.
fn word_end(text: &str, start: usize, mut plain: bool) -> (usize, bool) {
    let mut at = start;
    while at < text.len() {
        let (alphanumeric, len, ascii) = alphanumeric_at(text, at);
        if !alphanumeric {
            break;
        }
        plain &= ascii;
        at += len;
    }
    (at, plain)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ours(text: &str) -> Vec<(usize, String)> {
        let mut out = Vec::new();
        Words::new().each(text, |w, p| out.push((p as usize, w.to_string())));
        out
    }

    #[test]
    fn words_are_what_the_index_makes_of_them() {
        let [short, limit, long] = [39, 40, 41].map(|n| "x".repeat(n));
        let texts = [
            "Reserve Bank of India holds the REPO rate at 6.5%; GDP grows 7.2 per cent.",
            "Société Générale's Q3: naïve café crème, Straße, İstanbul, ΑΘΗΝΑ, Ĳssel",
            "中国 银行 and 東京 — “quoted” words… e-mail co-operation U.S.A. 3M 10-K",
            "emoji 🚀 rocket ½ ² ③ Ⅻ ﬁnance ǅ",
            &format!("before {short} a {limit} b {long} end"),
            "",
            "   ... !!! ",
            "tail",
        ];
        for text in texts {
            let index = search::schema::tokens(&mut search::schema::words(), text);
            assert_eq!(ours(text), index, "{text}");
        }
    }
}
