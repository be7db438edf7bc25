//! Readable text to hashed words and shingles.
//!
//! Syndicated copies of a story differ in markup (escaped links around tickers, `<b>` in titles),
//! entities (`&#39;` or a bare `#39;` left by a broken decoder), case and punctuation; none of it
//! says anything about the story. Normalising drops all of it: entities are decoded, tags
//! (escaped or not) removed, and the rest is cut into lowercase alphanumeric words. Words are
//! hashed as they are read, so no lowercase copy of the text is made.

/// Returns the lowercased words of `text` as 64-bit hashes, markup and punctuation removed.
pub fn word_hashes(text: &str) -> Vec<u64> {
    let decoded = decode_entities(text);
    let plain = strip_tags(&decoded);
    let mut out = Vec::with_capacity(plain.len() / 6);
    let mut hash = FNV_OFFSET;
    let mut in_word = false;
    for c in plain.chars() {
        if c.is_alphanumeric() {
            in_word = true;
            if c.is_ascii() {
                hash = fnv_byte(hash, c.to_ascii_lowercase() as u8);
            } else {
                for l in c.to_lowercase() {
                    let mut buf = [0u8; 4];
                    for b in l.encode_utf8(&mut buf).bytes() {
                        hash = fnv_byte(hash, b);
                    }
                }
            }
        } else if in_word {
            out.push(mix64(hash));
            hash = FNV_OFFSET;
            in_word = false;
        }
    }
    if in_word {
        out.push(mix64(hash));
    }
    out
}

/// Returns the hashes of the `k`-word shingles of `words` (order matters inside a shingle). A text
/// shorter than `k` words gives one shingle of all its words; an empty one gives none.
pub fn shingles(words: &[u64], k: usize) -> Vec<u64> {
    if words.is_empty() {
        return Vec::new();
    }
    if words.len() <= k {
        return vec![combine(words)];
    }
    words.windows(k).map(combine).collect()
}

fn combine(words: &[u64]) -> u64 {
    let mut h = 0x243f_6a88_85a3_08d3u64;
    for (i, w) in words.iter().enumerate() {
        h ^= w.rotate_left((i as u32 * 23) % 64);
        h = h.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
    mix64(h)
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

fn fnv_byte(h: u64, b: u8) -> u64 {
    (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
}

/// The finaliser of SplitMix64: spreads every input bit over the whole output.
pub(crate) fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Decodes the entities that change where words begin and end: `&lt;`/`&gt;` (escaped markup),
/// `&amp;`, quotes, `&nbsp;` and numeric ones, with or without the leading `&` (some feeds arrive
/// with it already eaten). Unknown named entities become a space.
fn decode_entities(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains(';') {
        return std::borrow::Cow::Borrowed(text);
    }
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let mut copied = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'&' || b == b'#' {
            if let Some((len, replacement)) = entity_at(&text[i..]) {
                out.push_str(&text[copied..i]);
                out.push(replacement);
                i += len;
                copied = i;
                continue;
            }
        }
        i += 1;
    }
    out.push_str(&text[copied..]);
    std::borrow::Cow::Owned(out)
}

/// The entity at the start of `s` (which starts with `&` or `#`): its byte length and the
/// character it stands for.
fn entity_at(s: &str) -> Option<(usize, char)> {
    let body_start = usize::from(s.starts_with('&'));
    let end = s.as_bytes().iter().take(12).position(|&b| b == b';')?;
    let body = &s[body_start..end];
    let c = if let Some(num) = body.strip_prefix('#') {
        let code = match num.strip_prefix(['x', 'X']) {
            Some(hex) => u32::from_str_radix(hex, 16).ok()?,
            None => num.parse::<u32>().ok()?,
        };
        char::from_u32(code).unwrap_or(' ')
    } else {
        if body_start == 0 || body.is_empty() || !body.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return None;
        }
        match body {
            "lt" => '<',
            "gt" => '>',
            "amp" => '&',
            "apos" => '\'',
            _ => ' ',
        }
    };
    Some((end + 1, c))
}

/// Removes `<...>` tags (and comments); a `<` with no `>` within 2,000 bytes is kept as text.
fn strip_tags(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains('<') {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find('<') {
        out.push_str(&rest[..open]);
        let after = &rest[open..];
        match after.as_bytes().iter().take(2000).position(|&b| b == b'>') {
            Some(close) => {
                out.push(' ');
                rest = &after[close + 1..];
            }
            None => {
                out.push('<');
                rest = &after[1..];
            }
        }
    }
    out.push_str(rest);
    std::borrow::Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn case_punctuation_markup_and_entities_do_not_change_the_words() {
        let a = word_hashes("Sysco Corp., the country's largest <b>food</b> distributor");
        let b = word_hashes("SYSCO corp &#8212; the country&#39;s largest food distributor!");
        let c = word_hashes(
            "Sysco Corp. &lt;A HREF=\"http://x/q?t=SYY\"&gt;&lt;/A&gt; the country #39;s largest food distributor",
        );
        assert_eq!(a, b);
        assert_eq!(a, c);
        assert_eq!(a.len(), 8);
    }

    #[test]
    fn non_ascii_words_are_lowercased() {
        assert_eq!(word_hashes("Übernahme GRÖSSER"), word_hashes("übernahme grösser"));
    }

    #[test]
    fn shingles_keep_word_order() {
        let a = shingles(&word_hashes("rates cut today"), 3);
        let b = shingles(&word_hashes("today cut rates"), 3);
        assert_ne!(a, b);
        assert_eq!(shingles(&word_hashes("two words"), 3).len(), 1);
        assert!(shingles(&[], 3).is_empty());
    }

    #[test]
    fn a_lone_ampersand_or_unclosed_tag_stays_text() {
        assert_eq!(word_hashes("AT&T wins; a < b"), word_hashes("at t wins a b"));
    }
}
