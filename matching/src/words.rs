//! The first half of the index's English analyzer (`search::schema::words`: words split at
//! anything not alphanumeric, words of 40 bytes or more dropped, lowercased, folded to ASCII),
//! done without its per-token machinery for the common case of an ASCII word.
//!
//! A plain ASCII word of at most 16 bytes, most words of most texts, comes out as a [`Short`]:
//! its lowercased bytes in two integers, built while the word is scanned, so that the matcher's
//! memory of words can hash and compare it without reading the text again. A longer ASCII word
//! is lowercased into a buffer; a word with any other character goes through the index's own
//! analyzer, so the two agree on every word; a test holds them to the same tokens and positions.

use tantivy::tokenizer::TextAnalyzer;

/// The index's limit: a word this long or longer is not indexed (its position still counts).
const LONG: usize = 40;

/// The longest word kept as a [`Short`].
pub(crate) const SHORT: usize = 16;

/// A lowercased ASCII word of 1 to [`SHORT`] bytes, zero-padded: no word holds a zero byte, so
/// equal keys are equal words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Short(pub(crate) [u64; 2]);

impl Short {
    /// The word's bytes (what a [`Short`] holds is ASCII, hence its text).
    pub(crate) fn bytes(&self) -> [u8; SHORT] {
        let mut out = [0; SHORT];
        out[..8].copy_from_slice(&self.0[0].to_le_bytes());
        out[8..].copy_from_slice(&self.0[1].to_le_bytes());
        out
    }
}

/// One word as the index would see it.
pub(crate) enum Word<'a> {
    Short(Short),
    /// Any other word, as the index's analyzer gives it (lowercased, folded).
    Other(&'a str),
}

pub(crate) struct Words {
    /// The index's analyzer, for the words that are not plain ASCII.
    analyzer: TextAnalyzer,
    buffer: String,
}

impl Words {
    pub(crate) fn new() -> Words {
        Words { analyzer: search::schema::words(), buffer: String::new() }
    }

    /// Calls `each` with every word of `text` as the index would see it, and its position,
    /// counting positions from `position`; returns the position after the last word. Texts
    /// analysed one after the other this way give what their concatenation with a separator
    /// between them would.
    pub(crate) fn each(&mut self, text: &str, mut position: u32, mut each: impl FnMut(Word, u32)) -> u32 {
        let bytes = text.as_bytes();
        let mut at = 0;
        while at < bytes.len() {
            let b = bytes[at];
            if b < 0x80 {
                if !b.is_ascii_alphanumeric() {
                    at += 1;
                    continue;
                }
            } else {
                let (alphanumeric, len) = other_at(text, at);
                if !alphanumeric {
                    at += len;
                    continue;
                }
            }
            // A word starts here: scan it, keeping its first bytes lowercased in a key.
            let start = at;
            let mut key = [0u8; SHORT];
            let mut plain = true;
            while at < bytes.len() {
                let b = bytes[at];
                if b < 0x80 {
                    if !b.is_ascii_alphanumeric() {
                        break;
                    }
                    if at - start < SHORT {
                        key[at - start] = b.to_ascii_lowercase();
                    }
                    at += 1;
                } else {
                    let (alphanumeric, len) = other_at(text, at);
                    if !alphanumeric {
                        break;
                    }
                    plain = false;
                    at += len;
                }
            }
            let word = &text[start..at];
            let this = position;
            position += 1;
            if word.len() >= LONG {
                continue;
            }
            if plain && word.len() <= SHORT {
                let low = u64::from_le_bytes(key[..8].try_into().expect("8 bytes"));
                let high = u64::from_le_bytes(key[8..].try_into().expect("8 bytes"));
                each(Word::Short(Short([low, high])), this);
            } else if plain {
                self.buffer.clear();
                self.buffer.push_str(word);
                self.buffer.make_ascii_lowercase();
                each(Word::Other(&self.buffer), this);
            } else {
                // One alphanumeric run is one token of the analyzer.
                let mut stream = self.analyzer.token_stream(word);
                while stream.advance() {
                    each(Word::Other(&stream.token().text), this);
                }
            }
        }
        position
    }
}

/// Whether the non-ASCII character at `at` is alphanumeric, and its length.
fn other_at(text: &str, at: usize) -> (bool, usize) {
    let c = text[at..].chars().next().expect("a char starts here");
    // General Punctuation (typographic quotes, dashes, ellipses, spaces), the most frequent
    // non-ASCII characters of news text, holds no letter or digit: decided without Unicode's
    // tables.
    (!GENERAL_PUNCTUATION.contains(&c) && c.is_alphanumeric(), c.len_utf8())
}

const GENERAL_PUNCTUATION: std::ops::RangeInclusive<char> = '\u{2000}'..='\u{206F}';

#[cfg(test)]
mod tests {
    use super::*;

    fn ours(texts: &[&str]) -> Vec<(usize, String)> {
        let mut out = Vec::new();
        let mut words = Words::new();
        let mut position = 0;
        for text in texts {
            position = words.each(text, position, |w, p| {
                let text = match w {
                    Word::Short(short) => {
                        let bytes = short.bytes();
                        let len = bytes.iter().position(|&b| b == 0).unwrap_or(SHORT);
                        String::from_utf8(bytes[..len].to_vec()).unwrap()
                    }
                    Word::Other(text) => text.to_string(),
                };
                out.push((p as usize, text));
            });
        }
        out
    }

    #[test]
    fn general_punctuation_holds_no_letter_or_digit() {
        let range = GENERAL_PUNCTUATION;
        assert!(range.into_iter().all(|c| !c.is_alphanumeric()));
    }

    #[test]
    fn words_are_what_the_index_makes_of_them() {
        let [short, limit, long] = [39, 40, 41].map(|n| "x".repeat(n));
        let texts = [
            "Reserve Bank of India holds the REPO rate at 6.5%; GDP grows 7.2 per cent.",
            "Société Générale's Q3: naïve café crème, Straße, İstanbul, ΑΘΗΝΑ, Ĳssel",
            "中国 银行 and 東京 — “quoted” words… e-mail co-operation U.S.A. 3M 10-K",
            "emoji 🚀 rocket ½ ² ③ Ⅻ ﬁnance ǅ",
            "“Quoted”—dashes – and … ellipses‘s, per‰ mille, x\u{2060}y, no\u{00a0}break, ⁱ⁰ super",
            &format!("before {short} a {limit} b {long} end"),
            "sixteen-letters: abcdefghijklmnop ABCDEFGHIJKLMNOPQ abcdefghijklmnopqr Internationalisation",
            "",
            "   ... !!! ",
            "tail",
        ];
        for text in texts {
            let index = search::schema::tokens(&mut search::schema::words(), text);
            assert_eq!(ours(&[text]), index, "{text}");
        }
        // Texts one after the other: as their concatenation with a separator.
        let joined = texts.join("\n\n");
        assert_eq!(ours(&texts), search::schema::tokens(&mut search::schema::words(), &joined));
    }
}
