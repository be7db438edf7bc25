//! The index's tokenizer (`search::schema::words`: words split at anything not alphanumeric,
//! words of 40 bytes or more dropped), done without its per-token machinery: the words of a text
//! and their positions, each as the matcher looks it up.
//!
//! A plain ASCII word of at most 16 bytes, most words of most texts, comes out as a [`Short`]:
//! its lowercased bytes in two integers, built while the word is scanned, so that the matcher's
//! memory of words can hash and compare it without reading the text again. Any other word comes
//! out as it stands in the text: the matcher remembers it that way, and only a word it has not
//! seen goes through the index's analyzer (lowercasing, folding, stop words, stemming), which
//! maps each word to at most one term whatever stands around it. A test holds the words and
//! their positions to the index's tokens.

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

/// One word of a text.
pub(crate) enum Word<'a> {
    /// A plain ASCII word of at most [`SHORT`] bytes, lowercased.
    Short(Short),
    /// Any other word, as it stands in the text (one token of the index's tokenizer).
    Other(&'a str),
}

pub(crate) struct Words {
    /// Per character from U+0080 to [`TABLE_END`]: alphanumeric, one bit each (1.5 KB). The
    /// letters of the European, Indic and Middle Eastern scripts and the punctuation, currency
    /// and other symbols of news text are there, told without Unicode's tables.
    table: Box<[u64; TABLE_WORDS]>,
}

/// The end (excluded) of the characters [`Words::table`] holds: everything before the CJK
/// symbols and letters.
const TABLE_END: u32 = 0x3000;

const TABLE_WORDS: usize = (TABLE_END as usize - 0x80) / 64;

impl Words {
    pub(crate) fn new() -> Words {
        let mut table = Box::new([0; TABLE_WORDS]);
        for c in (0x80..TABLE_END).filter_map(char::from_u32) {
            if c.is_alphanumeric() {
                let i = c as usize - 0x80;
                table[i / 64] |= 1 << (i % 64);
            }
        }
        Words { table }
    }

    /// Whether the non-ASCII character at `at` is alphanumeric, and its length.
    fn other_at(&self, text: &str, at: usize) -> (bool, usize) {
        let c = text[at..].chars().next().expect("a char starts here");
        let alphanumeric = if (c as u32) < TABLE_END {
            let i = c as usize - 0x80;
            self.table[i / 64] & (1 << (i % 64)) != 0
        } else {
            c.is_alphanumeric()
        };
        (alphanumeric, c.len_utf8())
    }

    /// Calls `each` with every word of `text` as the index would see it, and its position,
    /// counting positions from `position`; returns the position after the last word. Texts
    /// analysed one after the other this way give what their concatenation with a separator
    /// between them would.
    pub(crate) fn each<'t>(&mut self, text: &'t str, mut position: u32, mut each: impl FnMut(Word<'t>, u32)) -> u32 {
        let bytes = text.as_bytes();
        let mut at = 0;
        while at < bytes.len() {
            match BYTES[bytes[at] as usize] {
                SEPARATOR => {
                    at += 1;
                    continue;
                }
                OTHER => {
                    let (alphanumeric, len) = self.other_at(text, at);
                    if !alphanumeric {
                        at += len;
                        continue;
                    }
                }
                _ => {}
            }
            // A word starts here: scan it, keeping its first bytes lowercased in a key.
            let start = at;
            let mut key = [0u8; SHORT];
            let mut plain = true;
            while at < bytes.len() {
                match BYTES[bytes[at] as usize] {
                    SEPARATOR => break,
                    OTHER => {
                        let (alphanumeric, len) = self.other_at(text, at);
                        if !alphanumeric {
                            break;
                        }
                        plain = false;
                        at += len;
                    }
                    lower => {
                        if at - start < SHORT {
                            key[at - start] = lower;
                        }
                        at += 1;
                    }
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
            } else {
                each(Word::Other(word), this);
            }
        }
        position
    }
}

/// What [`BYTES`] says of an ASCII byte that is no letter or digit.
const SEPARATOR: u8 = 0;

/// What [`BYTES`] says of a byte of a non-ASCII character.
const OTHER: u8 = 0x80;

/// Per byte of UTF-8 text: an ASCII letter or digit as its lowercase, [`SEPARATOR`] for any
/// other ASCII byte, [`OTHER`] for a byte of a non-ASCII character. One look-up instead of
/// three comparisons per byte.
const BYTES: [u8; 256] = {
    let mut table = [SEPARATOR; 256];
    let mut b = 0;
    while b < 256 {
        let byte = b as u8;
        table[b] = if byte >= 0x80 {
            OTHER
        } else if byte.is_ascii_alphanumeric() {
            byte.to_ascii_lowercase()
        } else {
            SEPARATOR
        };
        b += 1;
    }
    table
};

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
                    // As the index makes of it.
                    Word::Other(text) => {
                        let tokens = search::schema::tokens(&mut search::schema::words(), text);
                        assert_eq!(tokens.len(), 1, "one word is one token: {text}");
                        tokens[0].1.clone()
                    }
                };
                out.push((p as usize, text));
            });
        }
        out
    }

    #[test]
    fn letters_and_digits_are_told_as_unicode_tells_them() {
        let words = Words::new();
        for c in (0x80..TABLE_END + 64).filter_map(char::from_u32) {
            assert_eq!(words.other_at(&format!("{c}x"), 0), (c.is_alphanumeric(), c.len_utf8()), "{c:?}");
        }
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
            "2×3÷4 «guillemets» 20°C ªº µm x²y ¼ DŽǅǆ ɐʀ ȸ ˆ Müller's Ærø ŒUVRE İIıi ß ẞ",
            "ÀÉÎÕÜ-ÿ ḾĀĒĪŌŪ",
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
