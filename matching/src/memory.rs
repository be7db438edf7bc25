//! The matcher's memory of short words: each plain ASCII word it has seen (as a
//! [`Short`](crate::words::Short)) and the dictionary term it stands for, if any. A look-up hashes
//! two integers and compares two integers per probe, with no string to read or compare: this is
//! the matcher's most frequent operation, once per word of every document.

use crate::words::Short;

/// What a slot holds for a word that stands for no term (a stop word, or a term no rule names).
pub(crate) const NO_TERM: u32 = u32::MAX;

#[derive(Clone, Copy)]
struct Slot {
    /// All zeros: an empty slot (no word is empty).
    key: [u64; 2],
    term: u32,
}

const EMPTY: Slot = Slot { key: [0, 0], term: NO_TERM };

/// An open-addressed table (linear probing, at most half full) from short words to terms,
/// cleared when it holds `limit` words so that a stream of new words cannot grow it without
/// bound.
pub(crate) struct ShortMemory {
    slots: Vec<Slot>,
    /// `slots.len() - 1`; the length is a power of two.
    mask: usize,
    len: usize,
    limit: usize,
}

/// Where a key's probe starts: the upper half of a multiplicative hash of both halves.
fn hash(key: Short) -> u64 {
    let [low, high] = key.0;
    (low ^ high.rotate_left(31).wrapping_mul(0x9E37_79B9_7F4A_7C15)).wrapping_mul(0xD6E8_FEB8_6659_FD93).rotate_left(32)
}

impl ShortMemory {
    pub(crate) fn new(limit: usize) -> ShortMemory {
        ShortMemory { slots: vec![EMPTY; 1024], mask: 1023, len: 0, limit }
    }

    /// Reads the slot where a look-up of `key` starts, so that the look-up finds it in cache.
    #[inline]
    pub(crate) fn touch(&self, key: Short) {
        std::hint::black_box(self.slots[hash(key) as usize & self.mask].term);
    }

    /// The term remembered for `key` ([`NO_TERM`] for none), or `None` if it was never seen.
    #[inline]
    pub(crate) fn get(&self, key: Short) -> Option<u32> {
        let mut at = hash(key) as usize & self.mask;
        loop {
            let slot = &self.slots[at];
            if slot.key == key.0 {
                return Some(slot.term);
            }
            if slot.key == [0, 0] {
                return None;
            }
            at = (at + 1) & self.mask;
        }
    }

    /// Remembers `key` (not already there) as standing for `term`.
    pub(crate) fn insert(&mut self, key: Short, term: u32) {
        if self.len >= self.limit {
            self.slots.iter_mut().for_each(|s| *s = EMPTY);
            self.len = 0;
        }
        if 2 * (self.len + 1) > self.slots.len() {
            let old = std::mem::replace(&mut self.slots, vec![EMPTY; 2 * (self.mask + 1)]);
            self.mask = self.slots.len() - 1;
            for slot in old.into_iter().filter(|s| s.key != [0, 0]) {
                self.put(Short(slot.key), slot.term);
            }
        }
        self.put(key, term);
        self.len += 1;
    }

    fn put(&mut self, key: Short, term: u32) {
        let mut at = hash(key) as usize & self.mask;
        while self.slots[at].key != [0, 0] {
            at = (at + 1) & self.mask;
        }
        self.slots[at] = Slot { key: key.0, term };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remembers_what_it_was_told_until_full() {
        let key = |i: u64| Short([i + 1, i % 7]);
        let mut memory = ShortMemory::new(5_000);
        for i in 0..4_000 {
            assert_eq!(memory.get(key(i)), None);
            memory.insert(key(i), if i % 3 == 0 { NO_TERM } else { i as u32 });
        }
        for i in 0..4_000 {
            assert_eq!(memory.get(key(i)), Some(if i % 3 == 0 { NO_TERM } else { i as u32 }));
        }
        for i in 4_000..5_001 {
            memory.insert(key(i), 1);
        }
        // Full at 5,000: cleared, then the last one remembered.
        assert_eq!(memory.get(key(0)), None);
        assert_eq!(memory.get(key(5_000)), Some(1));
    }
}
