//! The story index: which earlier item a new one repeats, found through LSH buckets.
//!
//! The text signature is cut into [`StoryParams::bands`] bands of [`StoryParams::rows`] slots;
//! two items land in the same bucket of a band when all the band's slots agree, which happens
//! with probability `J^rows`, so a pair is a candidate with probability `1 - (1 - J^rows)^bands`
//! (with the defaults, 48 bands of 2: 0.86 at J = 0.2, 0.99 at J = 0.3, 0.38 at J = 0.1). Only the
//! candidates are compared slot by slot, so an insert costs the bucket walks plus a few
//! comparisons, whatever the index holds.
//!
//! Two rewrites of one report can share too few shingles to meet in a band, so each item is also
//! listed under the [`StoryParams::word_keys`] smallest hashes of its content words: two items
//! whose content words overlap by a share `w` meet under one of them with probability close to
//! `1 - (1 - w)^word_keys` (0.76 at w = 0.3 with 4 keys).
//!
//! The index also counts, for each content word, how many of its items hold it (document
//! frequencies), so a word can be weighted by how rare it is among the items it has seen: two
//! outlets' reports of one event share its rare words (names, places, figures) even when they
//! share no phrase ([`StoryParams::with_rare_words`]). The weights come from what was inserted
//! before, so rebuilding the index in the same order (by `published`, then id) gives the same
//! stories.
//!
//! Two more signals come with a candidate. The weekdays both items name: the like event of
//! another day (the next car bomb, next month's orders) shares a report's names and phrasing but
//! names another day, while another outlet's report of the same day's event names the same one.
//! And its crowd, the most items found in a band bucket it shares with the new item: a copy under
//! a headline rewritten to share no word is alone with the original in its buckets, while a
//! site's standard lede under every item's own headline fills them.
//!
//! A new item joins the story of its most similar candidate that passes the rule in
//! [`StoryParams`] and lies inside the time window; otherwise it starts a story. A story never
//! spans more than [`StoryParams::max_story_span`], so a chain of updates cannot grow forever.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};

use crate::signature::{containment, sketch_similarity, Signature, Similarity, Weekdays, TEXT_HASHES, WORD_HASHES};

/// The rule and the shape of the buckets.
#[derive(Debug, Clone, PartialEq)]
pub struct StoryParams {
    /// LSH bands; `bands * rows` must not exceed the text signature's slots.
    pub bands: usize,
    /// Slots per band.
    pub rows: usize,
    /// Estimated text similarity at or above which two items are one story when their titles
    /// share a content word (or either has no title).
    pub text_alone: f32,
    /// The same when both have titles that share no content word: a site's standard lede or
    /// footer standing in for two different items' text looks exactly like that, while a
    /// rewritten headline of one story almost always keeps a name or a number.
    pub text_despite_titles: f32,
    /// `(text, title)`: lower text similarities that are enough when the titles' content words
    /// agree at least this much. Two different stories whose only shared text is boilerplate
    /// (a newsletter footer, a site's standard lede) have unrelated headlines.
    pub with_title: Vec<(f32, f32)>,
    /// `(containment, title, words)`: a rewrite of one report, by the share of the smaller text's
    /// shingles found in the other, the titles' and the content words' similarity, each at
    /// least this much. Independent rewrites of a wire story keep a few of its phrases, its
    /// names and numbers and a word of its headline; two reports of different games or polls
    /// share phrases ("miss the rest of the season") but not the names around them.
    pub with_words: Vec<(f32, f32, f32)>,
    /// `(rare words, title)`: two reports of one event by different outlets, which share no
    /// phrasing, by the rarity-weighted cosine of their content words
    /// ([`Similarity::rare_words`]) and the titles' similarity, each at least this much. Two
    /// outlets' copies of one report keep its rare words (names, places, figures); two reports
    /// of different games or polls share the common words of their topic, which weigh little.
    pub with_rare_words: Vec<(f32, f32)>,
    /// [`Self::with_rare_words`] for two items that name the same weekday ([`Weekdays::Shared`]),
    /// in its place: two outlets' reports of the same day's event need a lower cosine and no
    /// headline word, while a like event of another week rarely names the same day.
    pub with_rare_words_same_day: Vec<(f32, f32)>,
    /// Text similarity two items naming different weekdays ([`Weekdays::Apart`]) need to be one
    /// story, whatever their titles and words: the like event of another day (the next car bomb,
    /// the next month's orders) shares the topic's names and the headline's words, while a copy
    /// of one report shares its text.
    pub text_days_apart: f32,
    /// `(containment, rare words)`: a copy under a headline rewritten to share no word, by the
    /// share of the smaller text's shingles found in the other and the rare-words cosine, each
    /// at least this much, when the text they share is their own ([`Self::own_text_crowd`]).
    pub with_own_text: Vec<(f32, f32)>,
    /// The most items any band bucket shared by the two may hold (the candidate included) for
    /// [`Self::with_own_text`]: a site's standard lede under every item's own headline fills each
    /// bucket it reaches with all of them, while a copy of one story is alone with the original
    /// in the buckets they share.
    pub own_text_crowd: u32,
    /// Seconds: a candidate published further apart than this is not compared.
    pub window: i64,
    /// Seconds: a story whose first item is older than this (relative to the new item) takes no
    /// new members; the new item starts a story of its own.
    pub max_story_span: i64,
    /// Entries read per bucket at most (newest first): a bucket that a boilerplate paragraph
    /// fills with thousands of items costs no more than this.
    pub max_bucket_walk: usize,
    /// Content words (the smallest hashes) an item is listed under for the word candidates; at
    /// most [`WORD_HASHES`], 0 for none.
    pub word_keys: usize,
    /// Entries read per word list at most (newest first).
    pub max_word_walk: usize,
}

impl Default for StoryParams {
    fn default() -> Self {
        Self {
            bands: 48,
            rows: 2,
            text_alone: 0.7,
            text_despite_titles: 0.9,
            with_title: vec![(0.3, 0.2), (0.2, 0.4)],
            with_words: vec![(0.3, 0.1, 0.35)],
            with_rare_words: vec![(0.45, 0.1), (0.38, 0.15)],
            with_rare_words_same_day: vec![(0.38, 0.0)],
            text_days_apart: 0.7,
            with_own_text: vec![(0.4, 0.55)],
            own_text_crowd: 1,
            window: 3 * 24 * 3600,
            max_story_span: 7 * 24 * 3600,
            max_bucket_walk: 256,
            word_keys: 4,
            max_word_walk: 8,
        }
    }
}

impl StoryParams {
    /// True when two items with these similarities are one story; `titled` when both have a
    /// title.
    pub fn same_story(&self, s: &Similarity, titled: bool) -> bool {
        self.same_story_by_phrasing(s, titled) || self.same_story_by_rare_words(s)
    }

    /// The rules that ask for shared text (shingles); the rest is [`Self::with_rare_words`].
    fn same_story_by_phrasing(&self, s: &Similarity, titled: bool) -> bool {
        if s.weekdays == Weekdays::Apart && s.text < self.text_days_apart {
            return false;
        }
        let alone = if titled && s.title == 0.0 { self.text_despite_titles } else { self.text_alone };
        s.text >= alone
            || self.with_title.iter().any(|&(x, t)| s.text >= x && s.title >= t)
            || self.with_words.iter().any(|&(c, t, w)| s.containment >= c && s.title >= t && s.words >= w)
    }

    /// [`Self::with_own_text`], for a candidate whose least crowded shared bucket holds `crowd`
    /// items.
    fn same_story_by_own_text(&self, s: &Similarity, crowd: u32) -> bool {
        crowd <= self.own_text_crowd
            && !(s.weekdays == Weekdays::Apart && s.text < self.text_days_apart)
            && self.with_own_text.iter().any(|&(c, r)| s.containment >= c && s.rare_words >= r)
    }

    fn same_story_by_rare_words(&self, s: &Similarity) -> bool {
        let rules = match s.weekdays {
            Weekdays::Shared => &self.with_rare_words_same_day,
            Weekdays::Apart if s.text < self.text_days_apart => return false,
            _ => &self.with_rare_words,
        };
        rules.iter().any(|&(r, t)| s.rare_words >= r && s.title >= t)
    }
}

/// Where an inserted item went.
#[derive(Debug, Clone, PartialEq)]
pub struct Placement<D> {
    /// The story's id: the id of its first item.
    pub story: D,
    /// The earlier item it repeats and their estimated text similarity; `None` when it starts a
    /// story (or was already in the index under this id).
    pub matched: Option<(D, f32)>,
}

/// A story as a card shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct StoryView<D> {
    pub id: D,
    /// Its items in the order they were inserted.
    pub docs: Vec<D>,
    /// Distinct sources in order of first appearance; the card says "+N sources" for the rest.
    pub sources: Vec<String>,
}

/// Near-duplicate items grouped into stories. `D` is the caller's document id.
pub struct StoryIndex<D> {
    params: StoryParams,
    ids: Vec<D>,
    by_id: HashMap<D, u32>,
    docs: Vec<Entry>,
    /// Text slots cut to 16 bits (a chance equality costs 1/65,536 per slot), `TEXT_HASHES` per
    /// item, so a million items take 192 MB instead of 384.
    slots: Vec<u16>,
    /// Title sketches, `TITLE_SLOTS` per item, and how many words each holds.
    titles: Vec<u32>,
    title_words: Vec<u8>,
    /// Content-word sketches, `WORD_HASHES` per item, and how many words each holds.
    words: Vec<u32>,
    content_words: Vec<u8>,
    /// The weekdays each item names (see [`Weekdays`]).
    weekdays: Vec<u8>,
    /// Word key to the newest entry listed under it; an entry is `item * word_keys + position`.
    word_heads: HashMap<u32, u32, BuildHasherDefault<KeyHasher>>,
    /// Per entry: the next older entry under the same word (`NONE` ends the list).
    word_next: Vec<u32>,
    /// Word hash to the number of items in the index whose words sketch holds it: the document
    /// frequencies [`Similarity::rare_words`] is weighted by.
    frequencies: HashMap<u32, u32, BuildHasherDefault<KeyHasher>>,
    /// Per band: bucket key to the newest entry in it.
    heads: Vec<HashMap<u32, u32, BuildHasherDefault<KeyHasher>>>,
    /// Per item and band: the next older entry in the same bucket (`NONE` ends the list).
    next: Vec<u32>,
    stories: Vec<Story<D>>,
    sources: Vec<String>,
    source_ids: HashMap<String, u32>,
}

const NONE: u32 = u32::MAX;
/// Items assumed seen before the first (see [`StoryIndex::rarity`]).
const RARITY_PRIOR: f32 = 1000.0;
const TITLE_SLOTS: usize = crate::signature::TITLE_HASHES;

#[derive(Debug, Clone, Copy)]
struct Entry {
    published: i64,
    source: u32,
    story: u32,
    /// The text's shingle count, for the containment estimate.
    shingles: u32,
    empty: bool,
}

#[derive(Debug, Clone)]
struct Story<D> {
    /// The id of its first item, kept when that item is forgotten.
    id: D,
    first_published: i64,
    members: Vec<u32>,
}

impl<D: Clone + Eq + Hash> StoryIndex<D> {
    /// An empty index with these parameters.
    ///
    /// # Panics
    /// When `bands * rows` exceeds the signature's slots, either is zero, or `word_keys` exceeds
    /// the word slots.
    pub fn new(params: StoryParams) -> Self {
        assert!(params.bands > 0 && params.rows > 0 && params.bands * params.rows <= TEXT_HASHES);
        assert!(params.word_keys <= WORD_HASHES);
        Self {
            heads: (0..params.bands).map(|_| HashMap::default()).collect(),
            params,
            ids: Vec::new(),
            by_id: HashMap::new(),
            docs: Vec::new(),
            slots: Vec::new(),
            titles: Vec::new(),
            title_words: Vec::new(),
            words: Vec::new(),
            content_words: Vec::new(),
            weekdays: Vec::new(),
            word_heads: HashMap::default(),
            word_next: Vec::new(),
            frequencies: HashMap::default(),
            next: Vec::new(),
            stories: Vec::new(),
            sources: Vec::new(),
            source_ids: HashMap::new(),
        }
    }

    pub fn params(&self) -> &StoryParams {
        &self.params
    }

    /// Items in the index.
    pub fn len(&self) -> usize {
        self.docs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.docs.is_empty()
    }

    /// Reserves room for `additional` more items.
    pub fn reserve(&mut self, additional: usize) {
        self.ids.reserve(additional);
        self.docs.reserve(additional);
        self.slots.reserve(additional * TEXT_HASHES);
        self.titles.reserve(additional * TITLE_SLOTS);
        self.title_words.reserve(additional);
        self.words.reserve(additional * WORD_HASHES);
        self.content_words.reserve(additional);
        self.weekdays.reserve(additional);
        self.word_next.reserve(additional * self.params.word_keys);
        self.next.reserve(additional * self.params.bands);
        self.stories.reserve(additional);
        self.by_id.reserve(additional);
    }

    /// Adds an item (`published` in seconds since the epoch) and returns the story it joins or
    /// starts. Inserting an id again changes nothing and returns its story.
    pub fn insert(&mut self, doc: D, source: &str, published: i64, signature: &Signature) -> Placement<D> {
        if let Some(&existing) = self.by_id.get(&doc) {
            let story = self.docs[existing as usize].story;
            return Placement { story: self.story_id(story), matched: None };
        }
        let keys = self.band_keys(signature);
        let source_id = self.source_ids.get(source).copied();
        let best = self.best_match(signature, source_id, published, &keys);
        let index = self.docs.len() as u32;
        let story = match best {
            Some((other, _)) => {
                let story = self.docs[other as usize].story;
                self.stories[story as usize].members.push(index);
                story
            }
            None => {
                self.stories.push(Story { id: doc.clone(), first_published: published, members: vec![index] });
                (self.stories.len() - 1) as u32
            }
        };
        let source = match self.source_ids.get(source) {
            Some(&id) => id,
            None => {
                self.sources.push(source.to_owned());
                self.source_ids.insert(source.to_owned(), (self.sources.len() - 1) as u32);
                (self.sources.len() - 1) as u32
            }
        };
        self.docs.push(Entry {
            published,
            source,
            story,
            shingles: signature.text_shingles,
            empty: signature.is_empty(),
        });
        self.ids.push(doc.clone());
        self.by_id.insert(doc, index);
        self.slots.extend(signature.text_slots().iter().map(|&v| v as u16));
        self.titles.extend_from_slice(&signature.title);
        self.title_words.push(signature.title_words as u8);
        self.words.extend_from_slice(&signature.words);
        self.content_words.push(signature.content_words as u8);
        self.weekdays.push(signature.weekdays);
        for (band, key) in keys.iter().enumerate() {
            // Empty items are kept (so their id answers) but never become candidates.
            let head = if signature.is_empty() { NONE } else { self.heads[band].insert(*key, index).unwrap_or(NONE) };
            self.next.push(head);
        }
        self.list_words(index);
        self.count_words(index);
        Placement { story: self.story_id(story), matched: best.map(|(o, s)| (self.ids[o as usize].clone(), s)) }
    }

    /// Earlier items that `signature` repeats (by the rule), most similar first, with their
    /// estimated text similarity; what [`Self::insert`] would join, without inserting. No source
    /// is given, so a story holding an item of the new item's own source is not set apart from
    /// the rare-words and own-text rules here as it is on insert.
    pub fn matches(&self, signature: &Signature, published: i64) -> Vec<(D, f32)> {
        let keys = self.band_keys(signature);
        let mut found: Vec<(u32, f32)> = self
            .candidates(&keys, signature)
            .into_iter()
            .filter_map(|(c, crowd)| self.judge(signature, None, published, c, crowd).map(|s| (c, s)))
            .collect();
        found.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        found.into_iter().map(|(c, s)| (self.ids[c as usize].clone(), s)).collect()
    }

    /// The similarities of `signature` to the indexed item `doc`, every one computed (the rare-words
    /// cosine with the index's current word frequencies): what the rule would see, to explain a
    /// fold or a miss. `None` when `doc` is not in the index.
    pub fn similarity_to(&self, doc: &D, signature: &Signature) -> Option<Similarity> {
        let &c = self.by_id.get(doc)?;
        self.similarity(signature, c, None)
    }

    /// The story `doc` belongs to.
    pub fn story_of(&self, doc: &D) -> Option<StoryView<D>> {
        let &index = self.by_id.get(doc)?;
        let story = &self.stories[self.docs[index as usize].story as usize];
        let mut sources: Vec<String> = Vec::new();
        for &m in &story.members {
            let s = &self.sources[self.docs[m as usize].source as usize];
            if !sources.contains(s) {
                sources.push(s.clone());
            }
        }
        Some(StoryView {
            id: story.id.clone(),
            docs: story.members.iter().map(|&m| self.ids[m as usize].clone()).collect(),
            sources,
        })
    }

    fn story_id(&self, story: u32) -> D {
        self.stories[story as usize].id.clone()
    }

    /// Forgets the items published before `cutoff` (seconds), so the index holds only what a new
    /// item can still join (the window, or the story span): memory stays bounded by the items of
    /// the last days. A story keeps its id and its remaining items; the buckets are rebuilt from
    /// the stored slots, so this costs about as much as inserting the remaining items again.
    pub fn forget_before(&mut self, cutoff: i64) {
        let keep: Vec<usize> = (0..self.docs.len()).filter(|&i| self.docs[i].published >= cutoff).collect();
        if keep.len() == self.docs.len() {
            return;
        }
        let mut new_index = vec![NONE; self.docs.len()];
        for (n, &old) in keep.iter().enumerate() {
            new_index[old] = n as u32;
        }
        let mut story_index = vec![NONE; self.stories.len()];
        let mut stories = Vec::new();
        for (old, story) in std::mem::take(&mut self.stories).into_iter().enumerate() {
            let members: Vec<u32> =
                story.members.iter().map(|&m| new_index[m as usize]).filter(|&m| m != NONE).collect();
            if !members.is_empty() {
                story_index[old] = stories.len() as u32;
                stories.push(Story { members, ..story });
            }
        }
        self.stories = stories;
        self.slots = keep.iter().flat_map(|&i| self.slots[i * TEXT_HASHES..(i + 1) * TEXT_HASHES].to_vec()).collect();
        self.titles = keep.iter().flat_map(|&i| self.titles[i * TITLE_SLOTS..(i + 1) * TITLE_SLOTS].to_vec()).collect();
        self.title_words = keep.iter().map(|&i| self.title_words[i]).collect();
        self.words = keep.iter().flat_map(|&i| self.words[i * WORD_HASHES..(i + 1) * WORD_HASHES].to_vec()).collect();
        self.content_words = keep.iter().map(|&i| self.content_words[i]).collect();
        self.weekdays = keep.iter().map(|&i| self.weekdays[i]).collect();
        self.ids = keep.iter().map(|&i| self.ids[i].clone()).collect();
        self.docs =
            keep.iter().map(|&i| Entry { story: story_index[self.docs[i].story as usize], ..self.docs[i] }).collect();
        self.by_id = self.ids.iter().enumerate().map(|(n, id)| (id.clone(), n as u32)).collect();
        self.heads = (0..self.params.bands).map(|_| HashMap::default()).collect();
        self.next = Vec::with_capacity(self.docs.len() * self.params.bands);
        for n in 0..self.docs.len() {
            let keys = self.slot_keys(&self.slots[n * TEXT_HASHES..(n + 1) * TEXT_HASHES]);
            for (band, key) in keys.iter().enumerate() {
                let head =
                    if self.docs[n].empty { NONE } else { self.heads[band].insert(*key, n as u32).unwrap_or(NONE) };
                self.next.push(head);
            }
        }
        self.word_heads = HashMap::default();
        self.word_next = Vec::with_capacity(self.docs.len() * self.params.word_keys);
        self.frequencies = HashMap::default();
        for n in 0..self.docs.len() {
            self.list_words(n as u32);
            self.count_words(n as u32);
        }
    }

    /// Counts the words of item `index` into the document frequencies.
    fn count_words(&mut self, index: u32) {
        if self.docs[index as usize].empty {
            return;
        }
        let at = index as usize * WORD_HASHES;
        for &word in &self.words[at..at + self.content_words[index as usize] as usize] {
            *self.frequencies.entry(word).or_insert(0) += 1;
        }
    }

    /// The weight of a word: its inverse document frequency among the items indexed,
    /// `ln((n + RARITY_PRIOR) / (df + 1))`. The prior stands for items not yet seen, so that in
    /// a small index every word weighs about alike (the cosine is then the unweighted one) instead
    /// of every word looking rare.
    fn rarity(&self, word: u32) -> f32 {
        let df = self.frequencies.get(&word).copied().unwrap_or(0);
        ((self.docs.len() as f32 + RARITY_PRIOR) / (df as f32 + 1.0)).ln()
    }

    /// Lists item `index` (the newest) under its smallest content-word hashes.
    fn list_words(&mut self, index: u32) {
        let keys = self.params.word_keys;
        let held = self.content_words[index as usize] as usize;
        for p in 0..keys {
            let entry = index * keys as u32 + p as u32;
            let head = if p < held && !self.docs[index as usize].empty {
                self.word_heads.insert(self.words[index as usize * WORD_HASHES + p], entry).unwrap_or(NONE)
            } else {
                NONE
            };
            self.word_next.push(head);
        }
    }

    fn band_keys(&self, signature: &Signature) -> Vec<u32> {
        let slots: Vec<u16> = signature.text_slots().iter().map(|&v| v as u16).collect();
        self.slot_keys(&slots)
    }

    /// The band keys of 16-bit slots (what the index stores, so stored items can be re-keyed).
    fn slot_keys(&self, slots: &[u16]) -> Vec<u32> {
        (0..self.params.bands)
            .map(|band| {
                let mut h = (band as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
                for &v in &slots[band * self.params.rows..(band + 1) * self.params.rows] {
                    h = crate::text::mix64(h ^ v as u64);
                }
                h as u32
            })
            .collect()
    }

    /// The earlier items that share a bucket or a word list with the new item, each with the
    /// fewest items found in a band bucket it shares with the new item (`u32::MAX` when it shares
    /// only a word list): a text carried by many items (a site's standard lede) fills every
    /// bucket it reaches, while two copies of one story share some bucket nearly alone.
    fn candidates(&self, keys: &[u32], signature: &Signature) -> Vec<(u32, u32)> {
        let mut out = Vec::new();
        let word_keys = self.params.word_keys;
        for &word in &signature.words[..word_keys.min(signature.content_words as usize)] {
            let mut at = self.word_heads.get(&word).copied().unwrap_or(NONE);
            let mut walked = 0;
            while at != NONE && walked < self.params.max_word_walk {
                out.push((at / word_keys as u32, 0));
                at = self.word_next[at as usize];
                walked += 1;
            }
        }
        for (band, key) in keys.iter().enumerate() {
            let mut at = self.heads[band].get(key).copied().unwrap_or(NONE);
            let start = out.len();
            while at != NONE && out.len() - start < self.params.max_bucket_walk {
                out.push((at, 0));
                at = self.next[at as usize * self.params.bands + band];
            }
            let walked = (out.len() - start) as u32;
            for entry in &mut out[start..] {
                entry.1 = walked;
            }
        }
        // Each item's most crowded shared bucket first, then keep one entry per item.
        out.sort_unstable_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)));
        out.dedup_by_key(|c| c.0);
        out
    }

    /// The estimated text similarity when candidate `c` and the new item are one story and `c`'s
    /// story may still take members; `None` otherwise.
    ///
    /// `source` is the new item's source when it is known to the index: a story that already
    /// holds an item of that source is joined by shared phrasing only, not by rare words or by
    /// the own-text rule. One source's own series ("Introducing a new feature: ...", a weekly
    /// roundup) shares its names, terms and lede from item to item; those rules are for another
    /// outlet's report or copy. `crowd` is the candidate's (see [`Self::candidates`]).
    fn judge(&self, signature: &Signature, source: Option<u32>, published: i64, c: u32, crowd: u32) -> Option<f32> {
        let entry = &self.docs[c as usize];
        if entry.empty || signature.is_empty() || (entry.published - published).abs() > self.params.window {
            return None;
        }
        let story = &self.stories[entry.story as usize];
        if (published - story.first_published).abs() > self.params.max_story_span {
            return None;
        }
        let similarity = self.similarity(signature, c, Some(crowd))?;
        let titled = signature.title_words > 0 && self.title_words[c as usize] > 0;
        let p = &self.params;
        if p.same_story_by_phrasing(&similarity, titled) {
            return Some(similarity.text);
        }
        let own_source = |m: &u32| Some(self.docs[*m as usize].source) == source;
        let by_words = p.same_story_by_rare_words(&similarity) || p.same_story_by_own_text(&similarity, crowd);
        (by_words && !story.members.iter().any(own_source)).then_some(similarity.text)
    }

    /// The similarities of `signature` to item `c`, whose crowd is `crowd`. With `None` every one
    /// is computed; otherwise `None` when no rule can pass on the text and weekdays alone, and the
    /// words and the rare-words cosine are computed only when the titles (or, for the own-text
    /// rule, the containment and the crowd) let a rule that needs them pass (0 otherwise).
    fn similarity(&self, signature: &Signature, c: u32, crowd: Option<u32>) -> Option<Similarity> {
        let full = crowd.is_none();
        // The own-text rule can pass only for a candidate alone enough in its buckets: items that
        // share a footer or a lede all contain much of each other, and are all each other's
        // candidates.
        let own_text = crowd.is_none_or(|n| n <= self.params.own_text_crowd);
        let at = c as usize * TEXT_HASHES;
        let stored = &self.slots[at..at + TEXT_HASHES];
        let equal = stored.iter().zip(signature.text_slots()).filter(|(a, b)| **a == **b as u16).count();
        let text = equal as f32 / TEXT_HASHES as f32;
        let contained = containment(text, self.docs[c as usize].shingles, signature.text_shingles);
        let p = &self.params;
        let weekdays = Weekdays::of(self.weekdays[c as usize], signature.weekdays);
        // Items naming different weekdays need near-identical text, whatever else they share.
        if weekdays == Weekdays::Apart && text < p.text_days_apart && !full {
            return None;
        }
        // Most candidates share too little text for the phrasing rules; the rare-words rule reads
        // every candidate's title sketch (16 slots) and its words only when the titles agree.
        let possible = text >= p.text_alone.min(p.text_despite_titles)
            || p.with_title.iter().any(|&(x, _)| text >= x)
            || p.with_words.iter().any(|&(x, _, _)| contained >= x)
            || !p.with_rare_words.is_empty()
            || (weekdays == Weekdays::Shared && !p.with_rare_words_same_day.is_empty())
            || (own_text && p.with_own_text.iter().any(|&(x, _)| contained >= x));
        if !possible && !full {
            return None;
        }
        let at = c as usize * TITLE_SLOTS;
        let title = sketch_similarity(
            &self.titles[at..at + TITLE_SLOTS],
            self.title_words[c as usize] as usize,
            &signature.title,
            signature.title_words as usize,
        );
        let at = c as usize * WORD_HASHES;
        let words = if full || p.with_words.iter().any(|&(x, t, _)| contained >= x && title >= t) {
            sketch_similarity(
                &self.words[at..at + WORD_HASHES],
                self.content_words[c as usize] as usize,
                &signature.words,
                signature.content_words as usize,
            )
        } else {
            0.0
        };
        // The weighted cosine costs a frequency lookup per word: only for a title close enough
        // (the same-weekday rule's bar is lower, and only items naming one day meet it), or for
        // a text mostly contained in the other.
        let rare_rules = if weekdays == Weekdays::Shared { &p.with_rare_words_same_day } else { &p.with_rare_words };
        let rare_words = if full
            || rare_rules.iter().any(|&(_, t)| title >= t)
            || (own_text && p.with_own_text.iter().any(|&(x, _)| contained >= x))
        {
            crate::signature::weighted_cosine(
                &self.words[at..at + WORD_HASHES],
                self.content_words[c as usize] as usize,
                &signature.words,
                signature.content_words as usize,
                |w| self.rarity(w),
            )
        } else {
            0.0
        };
        Some(Similarity { text, containment: contained, title, words, rare_words, weekdays })
    }

    fn best_match(
        &self,
        signature: &Signature,
        source: Option<u32>,
        published: i64,
        keys: &[u32],
    ) -> Option<(u32, f32)> {
        if signature.is_empty() {
            return None;
        }
        let mut best: Option<(u32, f32)> = None;
        for (c, crowd) in self.candidates(keys, signature) {
            if let Some(s) = self.judge(signature, source, published, c, crowd) {
                // Ties go to the earlier item, so the result does not depend on bucket order.
                if best.is_none_or(|(b, bs)| s > bs || (s == bs && c < b)) {
                    best = Some((c, s));
                }
            }
        }
        best
    }
}

/// Bucket keys are already mixed hashes: the map uses them as they are.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) | b as u64;
        }
    }
    fn write_u32(&mut self, n: u32) {
        // hashbrown takes the top 7 bits as a tag and the low bits as the position: spread both.
        self.0 = (n as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn word_frequencies_count_items_and_are_recounted_when_items_are_forgotten() {
        let harbour = Signature::of("Harbour channel", "The port will deepen the harbour channel.");
        let strike = Signature::of("Harbour strike", "Dock workers at the harbour walked out.");
        let mut index = StoryIndex::new(StoryParams::default());
        index.insert(1, "a", 100, &harbour);
        index.insert(2, "b", 200, &strike);
        // "harbour" is in both items, every other word in one.
        let shared: Vec<u32> =
            harbour.words.iter().filter(|w| **w != u32::MAX && strike.words.contains(w)).copied().collect();
        assert_eq!(shared.len(), 1);
        assert_eq!(index.frequencies[&shared[0]], 2);
        let only_harbour = *harbour.words.iter().find(|w| !strike.words.contains(w)).expect("a word of its own");
        assert_eq!(index.frequencies[&only_harbour], 1);
        assert!(index.rarity(shared[0]) < index.rarity(only_harbour));
        let mut fresh = StoryIndex::new(StoryParams::default());
        fresh.insert(2, "b", 200, &strike);
        index.forget_before(150);
        assert_eq!(index.frequencies, fresh.frequencies);
        assert_eq!(index.rarity(shared[0]), fresh.rarity(shared[0]));
    }
}
