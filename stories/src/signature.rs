//! MinHash signatures of an item's text and title.
//!
//! The text signature holds, for each of [`TEXT_HASHES`] fixed hash functions, the smallest hash
//! over the item's [`SHINGLE_WORDS`]-word shingles; two signatures agree in a slot with
//! probability equal to the Jaccard similarity of the two shingle sets, so the share of equal
//! slots estimates it (standard error about 0.05 at 96 slots). The title is kept as the hashes of
//! its content words (the 16 smallest when it has more: a bottom-k sketch, exact for almost
//! every headline), used only to lower the bar for two texts that share less wording but carry
//! much the same headline. The words sketch holds the smallest hashes of the distinct content
//! words of title and text together (exact for a title and a paragraph): two rewrites of one
//! wire report keep its names, numbers and nouns in another order and other sentences, which
//! 3-word shingles miss and words do not.
//!
//! Everything is deterministic: the hash functions come from fixed seeds, so a signature stored
//! today compares with one computed next year. [`Signature::to_bytes`] gives the stored form.

use crate::text::{mix64, shingles, word_hashes};

/// Slots of the text signature.
pub const TEXT_HASHES: usize = 96;
/// Title words kept (the smallest hashes of the distinct content words).
pub const TITLE_HASHES: usize = 16;
/// Content words of title and text kept (the smallest hashes of the distinct ones).
pub const WORD_HASHES: usize = 32;
/// Words per text shingle.
pub const SHINGLE_WORDS: usize = 3;

/// The stored form's first byte; a new layout or new hash functions get a new one.
const FORMAT_VERSION: u8 = 3;
/// Byte length of [`Signature::to_bytes`]: version, three counts, the slots, then the weekdays.
pub const SIGNATURE_BYTES: usize = V2_BYTES + 1;
/// Byte length of format 2: version, three counts, then the slots (no weekdays).
const V2_BYTES: usize = 1 + 4 * 3 + 4 * (TEXT_HASHES + TITLE_HASHES + WORD_HASHES);
/// Byte length of format 1: version, two counts, the text and title slots.
const V1_BYTES: usize = 1 + 4 * 2 + 4 * (TEXT_HASHES + TITLE_HASHES);

/// The near-duplicate fingerprint of one item.
#[derive(Clone, PartialEq, Eq)]
pub struct Signature {
    /// Distinct shingles seen are not counted; this is the number of shingles (0 for no text),
    /// kept so an empty text never matches another empty text.
    pub(crate) text_shingles: u32,
    /// How many of the title slots hold a word (the rest are `u32::MAX`).
    pub(crate) title_words: u32,
    /// How many of the word slots hold a word (the rest are `u32::MAX`).
    pub(crate) content_words: u32,
    pub(crate) text: [u32; TEXT_HASHES],
    pub(crate) title: [u32; TITLE_HASHES],
    pub(crate) words: [u32; WORD_HASHES],
    /// The weekdays the title and text name, a bit each (Monday is bit 0); 0 for none.
    pub(crate) weekdays: u8,
}

/// Estimated similarities of two items (0 when either side is empty).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Similarity {
    /// Jaccard similarity of the texts' 3-word shingle sets.
    pub text: f32,
    /// The shared shingles as a share of the smaller text's: a cut copy keeps a high
    /// containment while its Jaccard similarity falls with the part cut.
    pub containment: f32,
    /// Jaccard similarity of the titles' content words.
    pub title: f32,
    /// Jaccard similarity of the content words of title and text together.
    pub words: f32,
    /// Cosine similarity of the same content words, each weighted by how rare it is among the
    /// items indexed (its inverse document frequency): a shared name or number counts for much,
    /// a shared "government" or "percent" for little. Only the index knows the frequencies;
    /// [`Signature::similarity`] weighs every word alike.
    pub rare_words: f32,
    /// Whether the two items name the same weekday ("on Tuesday"): a report of one event says
    /// which day it happened, and another outlet's report says the same day, while the like
    /// event of another day (the next car bomb, the next month's figures) names another.
    pub weekdays: Weekdays,
}

/// How the weekdays two items name compare.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Weekdays {
    /// Either names none.
    Unknown,
    /// Both name one at least, and one of them in common.
    Shared,
    /// Both name one at least, none in common.
    Apart,
}

impl Weekdays {
    pub(crate) fn of(a: u8, b: u8) -> Self {
        match (a, b) {
            (0, _) | (_, 0) => Weekdays::Unknown,
            (a, b) if a & b != 0 => Weekdays::Shared,
            _ => Weekdays::Apart,
        }
    }
}

/// Why bytes are not a signature.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SignatureError {
    WrongLength(usize),
    UnknownVersion(u8),
    NotHex,
}

impl std::fmt::Display for SignatureError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::WrongLength(n) => write!(f, "a story signature is {SIGNATURE_BYTES} bytes, not {n}"),
            Self::UnknownVersion(v) => write!(f, "unknown story signature version {v}"),
            Self::NotHex => write!(f, "a story signature in hex has only hex digits"),
        }
    }
}

impl std::error::Error for SignatureError {}

/// The hash functions: `h_i(x) = (a_i * x + b_i) >> 32` over 64 bits with odd `a_i`, applied to
/// the 32 low bits of an already mixed shingle hash (multiply-add-shift, 2-universal). One
/// multiply and one add per slot keeps a signature at a few microseconds per kilobyte of text.
struct Permutations<const N: usize> {
    a: [u64; N],
    b: [u64; N],
}

impl<const N: usize> Permutations<N> {
    const fn new(seed: u64) -> Self {
        let mut a = [0u64; N];
        let mut b = [0u64; N];
        let mut state = seed;
        let mut i = 0;
        while i < N {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            a[i] = splitmix(state) | 1;
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            b[i] = splitmix(state);
            i += 1;
        }
        Self { a, b }
    }

    fn minhash(&self, hashes: &[u64]) -> [u32; N] {
        let mut mins = [u32::MAX; N];
        for &h in hashes {
            let x = (h & 0xffff_ffff) ^ (h >> 32);
            for ((min, a), b) in mins.iter_mut().zip(&self.a).zip(&self.b) {
                *min = (*min).min((a.wrapping_mul(x).wrapping_add(*b) >> 32) as u32);
            }
        }
        mins
    }
}

const fn splitmix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

static TEXT_PERMUTATIONS: Permutations<TEXT_HASHES> = Permutations::new(0x6e65_6564_6c5f_7478);

/// Words that say nothing about which story an item tells: articles, pronouns, auxiliaries,
/// the commonest prepositions and conjunctions, reporting verbs and days, the tags wires put on
/// headlines ("UPDATE 1-", "(Reuters)"), and the entity names broken decoders leave as words
/// ("quot", "amp"). Dropped from the title and the words sketches alike.
const STOPWORDS: &[&str] = &[
    "a",
    "an",
    "the",
    "to",
    "of",
    "in",
    "on",
    "for",
    "and",
    "or",
    "at",
    "by",
    "with",
    "is",
    "are",
    "as",
    "from",
    "its",
    "it",
    "after",
    "over",
    "into",
    "update",
    "updated",
    "ap",
    "afp",
    "reuters",
    "breaking",
    "exclusive",
    "live",
    "video",
    "1",
    "2",
    "3",
    "said",
    "says",
    "say",
    "that",
    "this",
    "was",
    "were",
    "has",
    "have",
    "had",
    "be",
    "been",
    "will",
    "would",
    "but",
    "not",
    "he",
    "she",
    "they",
    "we",
    "his",
    "her",
    "their",
    "who",
    "which",
    "than",
    "more",
    "new",
    "s",
    "t",
    "quot",
    "amp",
    "lt",
    "gt",
    "39",
    "36",
    "also",
    "up",
    "about",
    "one",
    "two",
    "year",
    "years",
    "last",
    "first",
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
    "yesterday",
    "today",
];

/// The stop words' hashes, sorted for a binary search.
fn stopword_hashes() -> &'static [u64] {
    static HASHES: std::sync::OnceLock<Vec<u64>> = std::sync::OnceLock::new();
    HASHES.get_or_init(|| {
        let mut h: Vec<u64> = STOPWORDS.iter().flat_map(|w| word_hashes(w)).collect();
        h.sort_unstable();
        h
    })
}

/// The weekdays' hashes, Monday first.
fn weekday_hashes() -> &'static [u64; 7] {
    static HASHES: std::sync::OnceLock<[u64; 7]> = std::sync::OnceLock::new();
    HASHES.get_or_init(|| {
        let days = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];
        days.map(|d| word_hashes(d)[0])
    })
}

/// The weekdays named among `words`, a bit each (Monday is bit 0).
fn weekdays_named(words: impl Iterator<Item = u64>) -> u8 {
    let days = weekday_hashes();
    words.fold(0, |mask, w| match days.iter().position(|&d| d == w) {
        Some(day) => mask | 1 << day,
        None => mask,
    })
}

/// The `K` smallest distinct 32-bit hashes of the content words among `words`, ascending, and
/// how many there are (at most `K`).
fn content_sketch<const K: usize>(words: impl Iterator<Item = u64>) -> (u32, [u32; K]) {
    let stop = stopword_hashes();
    let mut hashes: Vec<u32> =
        words.filter(|w| stop.binary_search(w).is_err()).map(|w| (mix64(w) >> 32) as u32).collect();
    hashes.sort_unstable();
    hashes.dedup();
    hashes.truncate(K);
    let mut out = [u32::MAX; K];
    out[..hashes.len()].copy_from_slice(&hashes);
    (hashes.len() as u32, out)
}

/// Jaccard similarity of two bottom-k sketches (ascending, `n` words each, `k` the sketch size):
/// the share of the smallest `k` of the union found in both.
pub(crate) fn sketch_similarity(a: &[u32], na: usize, b: &[u32], nb: usize) -> f32 {
    if na == 0 || nb == 0 {
        return 0.0;
    }
    let k = a.len().min(b.len());
    let (a, b) = (&a[..na], &b[..nb]);
    let (mut i, mut j, mut union, mut both) = (0, 0, 0, 0);
    while union < k && i < a.len() && j < b.len() {
        let (x, y) = (a[i], b[j]);
        both += usize::from(x == y);
        i += usize::from(x <= y);
        j += usize::from(y <= x);
        union += 1;
    }
    // One side is used up: the rest of the union's smallest come from the other alone.
    union += (k - union).min(a.len() - i + b.len() - j);
    both as f32 / union as f32
}

/// Cosine similarity of two words sketches (ascending, `na` and `nb` words held, `k` slots each),
/// each word weighted by `weight(hash)` (squared in the sums, as an IDF weight is in a TF-IDF
/// cosine). A sketch with all its slots full may have dropped words with larger hashes, so only
/// the words at or below the smaller of the full sketches' largest hashes are compared: that is
/// every word for two short items, and the same uniform sample of both for longer ones.
pub(crate) fn weighted_cosine(a: &[u32], na: usize, b: &[u32], nb: usize, weight: impl Fn(u32) -> f32) -> f32 {
    if na == 0 || nb == 0 {
        return 0.0;
    }
    let last = |s: &[u32], n: usize| if n == s.len() { s[n - 1] } else { u32::MAX };
    let limit = last(a, na).min(last(b, nb));
    let (a, b) = (&a[..na], &b[..nb]);
    let (mut i, mut j) = (0, 0);
    let (mut only_a, mut only_b, mut both) = (0.0f32, 0.0f32, 0.0f32);
    loop {
        let x = a.get(i).copied().filter(|&x| x <= limit);
        let y = b.get(j).copied().filter(|&y| y <= limit);
        // Which side holds the smaller next word (both when it is shared).
        let (in_a, in_b) = match (x, y) {
            (None, None) => break,
            (Some(x), Some(y)) => (x <= y, y <= x),
            (x, y) => (x.is_some(), y.is_some()),
        };
        let word = if in_a { x } else { y };
        let w = weight(word.unwrap_or_default()).powi(2);
        match (in_a, in_b) {
            (true, true) => both += w,
            (true, false) => only_a += w,
            _ => only_b += w,
        }
        i += usize::from(in_a);
        j += usize::from(in_b);
    }
    let norm = ((both + only_a) * (both + only_b)).sqrt();
    if norm > 0.0 {
        both / norm
    } else {
        0.0
    }
}

impl Signature {
    /// Returns the signature of an item from its title and readable text (HTML is fine: markup
    /// is dropped). An item with no text is signed by its title alone, as its text.
    pub fn of(title: &str, text: &str) -> Self {
        let mut text_words = word_hashes(text);
        if text_words.is_empty() {
            text_words = word_hashes(title);
        }
        let text_shingles = shingles(&text_words, SHINGLE_WORDS);
        let title_hashes = word_hashes(title);
        let (content_words, words) = content_sketch(title_hashes.iter().chain(&text_words).copied());
        let weekdays = weekdays_named(title_hashes.iter().chain(&text_words).copied());
        let (title_words, title) = content_sketch(title_hashes.into_iter());
        Self {
            weekdays,
            text_shingles: text_shingles.len() as u32,
            title_words,
            content_words,
            text: TEXT_PERMUTATIONS.minhash(&text_shingles),
            title,
            words,
        }
    }

    /// True when the item had neither title nor text: such an item never joins a story.
    pub fn is_empty(&self) -> bool {
        self.text_shingles == 0
    }

    /// The estimated similarities of the two items' texts, titles and words.
    pub fn similarity(&self, other: &Signature) -> Similarity {
        let text = if self.is_empty() || other.is_empty() { 0.0 } else { agreement(&self.text, &other.text) };
        Similarity {
            text,
            containment: containment(text, self.text_shingles, other.text_shingles),
            title: sketch_similarity(&self.title, self.title_words as usize, &other.title, other.title_words as usize),
            words: sketch_similarity(
                &self.words,
                self.content_words as usize,
                &other.words,
                other.content_words as usize,
            ),
            rare_words: weighted_cosine(
                &self.words,
                self.content_words as usize,
                &other.words,
                other.content_words as usize,
                |_| 1.0,
            ),
            weekdays: Weekdays::of(self.weekdays, other.weekdays),
        }
    }

    /// The text slots, for the index's buckets.
    pub(crate) fn text_slots(&self) -> &[u32; TEXT_HASHES] {
        &self.text
    }

    /// The stored form: a version byte, the shingle, title word and content word counts and the
    /// slots, all little-endian, then the weekdays byte; [`SIGNATURE_BYTES`] long.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(SIGNATURE_BYTES);
        out.push(FORMAT_VERSION);
        for v in [self.text_shingles, self.title_words, self.content_words] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for v in self.text.iter().chain(&self.title).chain(&self.words) {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.push(self.weekdays);
        out
    }

    /// Reads the stored form back. Format 1 (before the words sketch: two counts, the text and
    /// title slots) still reads, with an empty words sketch, so the items stored before an
    /// upgrade keep joining stories by shingles and titles until they age out of the story span.
    /// Format 2 (before the weekdays) reads as naming no weekday.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, SignatureError> {
        let expected = match bytes.first() {
            Some(&FORMAT_VERSION) => SIGNATURE_BYTES,
            Some(2) => V2_BYTES,
            Some(1) => V1_BYTES,
            Some(&other) if bytes.len() == SIGNATURE_BYTES => return Err(SignatureError::UnknownVersion(other)),
            _ => SIGNATURE_BYTES,
        };
        if bytes.len() != expected {
            return Err(SignatureError::WrongLength(bytes.len()));
        }
        let word = |i: usize| u32::from_le_bytes(bytes[1 + 4 * i..5 + 4 * i].try_into().expect("four bytes"));
        if bytes[0] == 1 {
            let mut text = [0u32; TEXT_HASHES];
            let mut title = [0u32; TITLE_HASHES];
            for (i, slot) in text.iter_mut().chain(title.iter_mut()).enumerate() {
                *slot = word(2 + i);
            }
            let words = [u32::MAX; WORD_HASHES];
            let (text_shingles, title_words) = (word(0), word(1));
            return Ok(Self { text_shingles, title_words, content_words: 0, text, title, words, weekdays: 0 });
        }
        let slots = |start: usize, out: &mut [u32]| {
            for (i, slot) in out.iter_mut().enumerate() {
                *slot = word(start + i);
            }
        };
        let mut text = [0u32; TEXT_HASHES];
        let mut title = [0u32; TITLE_HASHES];
        let mut words = [0u32; WORD_HASHES];
        slots(3, &mut text);
        slots(3 + TEXT_HASHES, &mut title);
        slots(3 + TEXT_HASHES + TITLE_HASHES, &mut words);
        let weekdays = if bytes[0] == FORMAT_VERSION { bytes[V2_BYTES] } else { 0 };
        let (text_shingles, title_words, content_words) = (word(0), word(1), word(2));
        Ok(Self { text_shingles, title_words, content_words, text, title, words, weekdays })
    }

    /// The stored form in lowercase hex.
    pub fn to_hex(&self) -> String {
        const DIGITS: &[u8; 16] = b"0123456789abcdef";
        let mut s = String::with_capacity(2 * SIGNATURE_BYTES);
        for b in self.to_bytes() {
            s.push(DIGITS[(b >> 4) as usize] as char);
            s.push(DIGITS[(b & 15) as usize] as char);
        }
        s
    }

    /// Reads [`Signature::to_hex`] back.
    pub fn from_hex(hex: &str) -> Result<Self, SignatureError> {
        if !hex.len().is_multiple_of(2) {
            return Err(SignatureError::WrongLength(hex.len() / 2));
        }
        let digit = |c: u8| (c as char).to_digit(16).ok_or(SignatureError::NotHex);
        let bytes = hex
            .as_bytes()
            .chunks(2)
            .map(|p| Ok((digit(p[0])? << 4 | digit(p[1])?) as u8))
            .collect::<Result<Vec<u8>, SignatureError>>()?;
        Self::from_bytes(&bytes)
    }
}

impl std::fmt::Debug for Signature {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Signature")
            .field("text_shingles", &self.text_shingles)
            .field("title_words", &self.title_words)
            .field("content_words", &self.content_words)
            .finish_non_exhaustive()
    }
}

/// The containment of the smaller text in the larger estimated from their Jaccard similarity `j`
/// and shingle counts: `|A ∩ B| = j (|A| + |B|) / (1 + j)`, over the smaller count (at most 1).
/// Shingle counts include repeats, which short texts rarely have.
pub(crate) fn containment(j: f32, a: u32, b: u32) -> f32 {
    let smaller = a.min(b);
    if smaller == 0 || j <= 0.0 {
        return 0.0;
    }
    (j * (a + b) as f32 / ((1.0 + j) * smaller as f32)).min(1.0)
}

/// Share of equal slots.
pub(crate) fn agreement<T: PartialEq>(a: &[T], b: &[T]) -> f32 {
    let equal = a.iter().zip(b).filter(|(x, y)| x == y).count();
    equal as f32 / a.len() as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Exact Jaccard of two word-shingle sets, to check the estimate against.
    fn exact(a: &str, b: &str) -> f32 {
        use std::collections::HashSet;
        let sa: HashSet<u64> = shingles(&word_hashes(a), SHINGLE_WORDS).into_iter().collect();
        let sb: HashSet<u64> = shingles(&word_hashes(b), SHINGLE_WORDS).into_iter().collect();
        sa.intersection(&sb).count() as f32 / sa.union(&sb).count() as f32
    }

    #[test]
    fn the_estimate_follows_the_exact_jaccard_similarity() {
        // 400 numbered words; the second text keeps a growing prefix and replaces the rest.
        let base: Vec<String> = (0..400).map(|i| format!("w{i}")).collect();
        let mut errors = Vec::new();
        for keep in [40, 100, 200, 300, 360, 400] {
            let other: Vec<String> =
                base.iter().enumerate().map(|(i, w)| if i < keep { w.clone() } else { format!("x{i}") }).collect();
            let (a, b) = (base.join(" "), other.join(" "));
            let estimate = Signature::of("", &a).similarity(&Signature::of("", &b)).text;
            errors.push((estimate - exact(&a, &b)).abs());
        }
        let worst = errors.iter().cloned().fold(0.0, f32::max);
        let mean = errors.iter().sum::<f32>() / errors.len() as f32;
        assert!(worst < 0.15 && mean < 0.07, "errors {errors:?}");
    }

    const GOLDEN_TEXT: [u32; 3] = [500_983_558, 4_105_610_366, 1_526_220_401];
    const GOLDEN_TITLE: u32 = 90_317_491;
    const GOLDEN_WORDS: [u32; 2] = [90_317_491, 2_144_972_466];

    #[test]
    fn bytes_and_hex_round_trip() {
        let s = Signature::of("Rates cut", "The central bank cut its policy rate by a quarter point on Tuesday.");
        assert_eq!(s.to_bytes().len(), SIGNATURE_BYTES);
        assert_eq!(Signature::from_bytes(&s.to_bytes()).unwrap(), s);
        assert_eq!(Signature::from_hex(&s.to_hex()).unwrap(), s);
        assert_eq!(Signature::from_bytes(&[1, 2, 3]), Err(SignatureError::WrongLength(3)));
        let mut other_version = s.to_bytes();
        other_version[0] = 9;
        assert_eq!(Signature::from_bytes(&other_version), Err(SignatureError::UnknownVersion(9)));
        assert_eq!(Signature::from_hex("zz"), Err(SignatureError::NotHex));
    }

    #[test]
    fn a_format_1_signature_reads_without_its_words() {
        let s = Signature::of("Rates cut", "The central bank cut its policy rate by a quarter point on Tuesday.");
        // Format 1 as it was stored: version 1, the shingle and title word counts, the slots.
        let mut v1 = vec![1u8];
        for v in [s.text_shingles, s.title_words].iter().chain(&s.text).chain(&s.title) {
            v1.extend_from_slice(&v.to_le_bytes());
        }
        let read = Signature::from_bytes(&v1).unwrap();
        assert_eq!((read.text, read.title, read.content_words), (s.text, s.title, 0));
        assert_eq!(read.similarity(&s).text, 1.0);
        assert_eq!(read.similarity(&s).words, 0.0);
        assert_eq!(Signature::from_bytes(&v1[..100]), Err(SignatureError::WrongLength(100)));
    }

    #[test]
    fn a_format_2_signature_reads_as_naming_no_weekday() {
        let s = Signature::of("Rates cut", "The central bank cut its policy rate by a quarter point on Tuesday.");
        assert_eq!(s.weekdays, 1 << 1);
        // Format 2 as it was stored: version 2, the three counts and the slots, no weekdays byte.
        let mut v2 = s.to_bytes();
        v2[0] = 2;
        v2.pop();
        let read = Signature::from_bytes(&v2).unwrap();
        assert_eq!((read.text, read.words, read.weekdays), (s.text, s.words, 0));
        assert_eq!(read.similarity(&s).weekdays, Weekdays::Unknown);
        assert_eq!(Signature::from_bytes(&v2[..100]), Err(SignatureError::WrongLength(100)));
    }

    #[test]
    fn weekdays_named_anywhere_are_compared() {
        let tuesday = Signature::of("Blast in the capital", "A car bomb exploded on Tuesday near the ministry.");
        let also = Signature::of("Ministry blast: six dead (TUESDAY)", "Six people died.");
        let thursday = Signature::of("Blast in the capital", "A car bomb exploded on Thursday near the ministry.");
        let none = Signature::of("Blast in the capital", "A car bomb exploded near the ministry.");
        assert_eq!(tuesday.similarity(&also).weekdays, Weekdays::Shared);
        assert_eq!(tuesday.similarity(&thursday).weekdays, Weekdays::Apart);
        assert_eq!(tuesday.similarity(&none).weekdays, Weekdays::Unknown);
        // A weekday is no content word: the words sketches of the two blasts are alike.
        assert_eq!(tuesday.similarity(&thursday).words, 1.0);
    }

    #[test]
    fn signatures_are_deterministic_across_calls() {
        let text = "Shares of the company rose after it reported record quarterly revenue.";
        assert_eq!(Signature::of("t", text), Signature::of("t", text));
        // Fixed slot values guard the seeds and hashing: changing them would orphan every stored
        // signature (a new layout or new functions need a new FORMAT_VERSION).
        let s = Signature::of("Harbour", "one two three");
        assert_eq!(s.text_shingles, 1);
        assert_eq!(&s.text[..3], &GOLDEN_TEXT);
        assert_eq!(s.title[0], GOLDEN_TITLE);
        // "one" and "two" are stop words: the words sketch holds "harbour" and "three".
        assert_eq!((s.content_words, &s.words[..2]), (2, &GOLDEN_WORDS[..]));
    }

    #[test]
    fn title_similarity_ignores_wire_tags_and_small_words() {
        let a = Signature::of("UPDATE 1-Port to deepen the shipping channel (Reuters)", "x");
        let b = Signature::of("Port deepens shipping channel", "y");
        // {port, deepen, shipping, channel} against {port, deepens, shipping, channel}: 3 of 5.
        assert!((a.similarity(&b).title - 0.6).abs() < 1e-6, "{:?}", a.similarity(&b));
        let long: String = (0..40).map(|i| format!("word{i} ")).collect();
        assert_eq!(Signature::of(&long, "x").similarity(&Signature::of(&long, "y")).title, 1.0);
        assert_eq!(Signature::of("", "x").similarity(&Signature::of("Title", "x")).title, 0.0);
    }

    #[test]
    fn words_follow_a_rewrite_that_shingles_miss() {
        let a = Signature::of(
            "Kroger profit falls",
            "Kroger, the largest grocer, reported a 25 percent drop in quarterly profit on Tuesday.",
        );
        let b = Signature::of(
            "Kroger profit falls, warns on sales",
            "Quarterly profit at the grocer Kroger fell 25 percent, hurt by debt costs, it reported.",
        );
        let s = a.similarity(&b);
        // {kroger, profit, falls, largest, grocer, reported, 25, percent, drop, quarterly} against
        // {kroger, profit, falls, warns, sales, quarterly, grocer, fell, 25, percent, hurt, debt,
        // costs, reported}: 8 shared of 16 (exact, as both hold fewer words than the sketch).
        assert!(s.text < 0.1, "{s:?}");
        assert_eq!(s.words, 0.5, "{s:?}");
    }

    #[test]
    fn the_weighted_cosine_weighs_rare_words_and_compares_truncated_sketches_fairly() {
        // Sketches of 4 slots holding 3 words each (not full: every word is there).
        const M: u32 = u32::MAX;
        // Alike weights: |A ∩ B| / sqrt(|A| |B|).
        assert!((weighted_cosine(&[1, 2, 3, M], 3, &[1, 4, 5, M], 3, |_| 1.0) - 1.0 / 3.0).abs() < 1e-6);
        // A shared word ten times as rare as the others carries the pair.
        let rare_first = |w: u32| if w == 1 { 10.0 } else { 1.0 };
        assert!((weighted_cosine(&[1, 2, 3, M], 3, &[1, 4, 5, M], 3, rare_first) - 100.0 / 102.0).abs() < 1e-6);
        // A full sketch may have dropped words above its largest hash (4), so the other side's 9,
        // which it might hold unseen, is left out: {1, 2, 3, 4} against {1, 2}.
        assert_eq!(weighted_cosine(&[1, 2, 3, 4], 4, &[1, 2, 9, M], 3, |_| 1.0), 2.0 / 8f32.sqrt());
        assert_eq!(weighted_cosine(&[1, 2, 3, 4], 4, &[1, 2, 3, 4], 4, |_| 1.0), 1.0);
        assert_eq!(weighted_cosine(&[1, 2, M], 2, &[M; 3], 0, |_| 1.0), 0.0);
    }

    #[test]
    fn containment_stays_high_for_a_cut_copy() {
        let base: Vec<String> = (0..300).map(|i| format!("w{i}")).collect();
        let full = base.join(" ");
        let cut = base[..100].join(" ");
        let s = Signature::of("", &full).similarity(&Signature::of("", &cut));
        // Jaccard 98/298 = 0.33; every shingle of the cut copy is in the full text.
        assert!((s.text - 0.33).abs() < 0.12 && s.containment > 0.8, "{s:?}");
    }

    #[test]
    fn empty_items_match_nothing() {
        let empty = Signature::of("", "  <p></p> ");
        assert!(empty.is_empty());
        assert_eq!(empty.similarity(&Signature::of("", "")).text, 0.0);
    }
}
