//! Rule matching: which feeds a new document belongs to, for alerts.
//!
//! A feed's page lists its documents through the search index ([`search::Request::for_feed`]);
//! its alerts fire when a new document matches it here. Both read the same
//! [`domain::feed_rules::Filters`], and this crate evaluates them exactly as the index does: the
//! document's text is the index's `content` ([`search::content_of`]), analysed by the index's
//! English analyzer (folding, stop words, stemming, positions), and each keyword expression
//! compiles to the same tree the index's query builder makes of it, down to its treatment of
//! words that are only stop words. A property test holds the two to that.
//!
//! Speed comes from doing the work once per document, not once per feed: the document is
//! analysed once, straight from its title and pages; its words are looked up in one dictionary of
//! every term of every feed (a word seen before is one look-up, with no folding or stemming, and
//! a short one is found by two integer comparisons); the feeds whose source, category or date
//! filters drop the document are set aside first (per source and category, worked out once);
//! rules of the usual shape (ANDs of ORs of words and phrases, with NOTs) are decided by setting
//! bits, one per part naming a present word or phrase, in a few 64-bit words per feed that fit in
//! the first-level cache, then testing every branch of a word with one addition; other rules are
//! evaluated as trees, only for the feeds that name a term present in the document, with the few
//! whose rule holds without any term (source- or category-only feeds, NOT-only rules).
//!
//! Depends on `domain` (the filters) and `search` (analysis and document text); knows nothing of
//! storage, access or delivery: the caller keeps only the matches the feed's owner may read.

use chrono::{DateTime, Utc};
use domain::feed_rules::Filters;
use domain::keywords::Expr;
use rustc_hash::FxHashMap;
use search::IndexedDocument;
use tantivy::tokenizer::{Language, RawTokenizer, Stemmer, StopWordFilter, TextAnalyzer};

mod memory;
mod words;

use words::Word;

/// A compiled keyword expression over term ids. Mirrors the index's query tree: a word or phrase
/// of only stop words compiles to nothing, and the parents treat nothing as the index does.
#[derive(Debug, Clone)]
enum Node {
    Term(u32),
    /// Terms at these positions relative to each other (positions as the analyzer gives them,
    /// stop words keeping their places).
    Phrase(Vec<(u32, u32)>),
    /// Everything but the inner node; everything when the inner is nothing.
    Not(Option<Box<Node>>),
    /// Every `must` (everything when empty) and no `must_not`.
    And {
        must: Vec<Node>,
        must_not: Vec<Node>,
    },
    Or(Vec<Node>),
}

/// A feed's text rule.
#[derive(Debug, Clone)]
enum Text {
    /// No rule: every document passes.
    Any,
    /// A rule the index reads as no query at all: nothing passes.
    Never,
    Rule(Node),
}

#[derive(Debug, Clone)]
struct Feed {
    board_id: String,
    text: Text,
    kept_sources: Vec<String>,
    excluded_sources: Vec<String>,
    /// Per-source exclusions, sorted by source id.
    exclusions: Vec<(String, Node)>,
    categories: Vec<String>,
    /// Index into [`RuleSet::shorthands`].
    date_range: Option<usize>,
    /// For a feed evaluated by branches: what must hold besides one branch.
    rest: Option<Node>,
}

/// One branch of a feed's rule (an include keyword, in effect).
#[derive(Debug, Clone)]
struct Branch {
    feed: u32,
    node: Node,
    /// For an AND: the anchors of a second part, one of which must be present too (empty: no
    /// such check). Checked flat before the branch is evaluated as a tree.
    guard: Vec<u32>,
}

/// A word or a phrase: what the OR inside a flat branch's part lists.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Atom {
    Term(u32),
    /// Index into [`RuleSet::phrases`].
    Phrase(u32),
}

// A branch in flat form: every one of its `must` parts holds and none of its negated parts,
// each part an OR of words and phrases. Most rules people write (and the benchmark's) are this
// shape; they are decided with no tree to walk: each word or phrase of the document sets one bit
// per must part naming it, and one veto bit per branch whose negated parts name it; a branch
// with all its must bits set and no veto holds, which decides its feed.
//
// The bits of a feed's flat branches lie side by side in 64-bit state words, a few per feed
// (one for the benchmark's 20 branches of 2 parts), each with a word of vetoes beside it (a
// branch's veto at its last bit), so that the state of every feed fits in the first-level cache
// (16 KB for 1,000 feeds). Marking is one OR into a word; the branches that hold are found
// afterwards, a word at a time (see [`Layout`]), without reading anything else.

/// The most must parts a flat branch has: its bits lie in one state word. A branch with more is
/// evaluated as a tree.
const FLAT_PARTS: usize = 32;

/// Where the flat branches lie in one state word: their first bits and their last bits (the same
/// bit for a branch of one part).
#[derive(Debug, Clone, Copy, Default)]
struct Layout {
    firsts: u64,
    lasts: u64,
}

impl Layout {
    /// The last bits of the branches with every bit set in `state`. Each branch's bits but its
    /// last, plus one at its first bit, carry into its last bit exactly when they are all set,
    /// and never further (its last bit is cleared first): one addition tests every branch of the
    /// word.
    fn holding(self, state: u64) -> u64 {
        (state & !self.lasts).wrapping_add(self.firsts) & self.lasts & state
    }
}

/// A word or phrase named by a part of a flat branch: where it sets a bit in the matcher's
/// marks (high bits: twice the state word, plus one for the word's vetoes) and which bit (low 6
/// bits). Four bytes, because the lists of mentions are what the matcher reads most of per
/// document.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Mention(u32);

/// The most state words of flat branches a [`RuleSet`] holds, so that a [`Mention`] holds one.
const MAX_WORDS: usize = 1 << 25;

impl Mention {
    /// A must part's bit in state word `word`.
    fn must(word: u32, bit: u32) -> Mention {
        debug_assert!(bit < 64 && (word as usize) < MAX_WORDS);
        Mention((2 * word) << 6 | bit)
    }

    /// The veto of the branch of state word `word` whose last bit is `last`.
    fn veto(word: u32, last: u32) -> Mention {
        debug_assert!(last < 64 && (word as usize) < MAX_WORDS);
        Mention((2 * word + 1) << 6 | last)
    }

    /// Its index in the marks.
    fn mark(self) -> usize {
        (self.0 >> 6) as usize
    }

    fn bit(self) -> u64 {
        1 << (self.0 & 63)
    }
}

/// Lists of values per id, stored end to end: one allocation, and a list read is one slice.
#[derive(Debug)]
struct Lists<T> {
    /// Where each id's list starts in `items`; one more entry than ids.
    starts: Vec<u32>,
    items: Vec<T>,
}

impl<T: Copy> Lists<T> {
    fn of(lists: Vec<Vec<T>>) -> Lists<T> {
        let mut starts = Vec::with_capacity(lists.len() + 1);
        let mut items = Vec::with_capacity(lists.iter().map(Vec::len).sum());
        starts.push(0);
        for list in lists {
            items.extend(list);
            starts.push(items.len() as u32);
        }
        Lists { starts, items }
    }

    fn get(&self, id: u32) -> &[T] {
        let id = id as usize;
        &self.items[self.starts[id] as usize..self.starts[id + 1] as usize]
    }
}

/// Every feed's rules, compiled together.
#[derive(Debug)]
pub struct RuleSet {
    dictionary: FxHashMap<String, u32>,
    /// Per term: named in a phrase, so its positions in a document are kept.
    positional: Vec<bool>,
    feeds: Vec<Feed>,
    /// Branches that are not flat, evaluated as trees.
    branches: Vec<Branch>,
    /// Per term id: the tree branches anchored on it.
    by_term: Lists<u32>,
    /// Per state word of flat branches: its feed, and where its branches lie.
    word_feed: Vec<u32>,
    word_layout: Vec<Layout>,
    /// Per term id: the parts of flat branches that name the word itself.
    term_mentions: Lists<Mention>,
    /// The distinct phrases of flat branches: terms at positions relative to each other.
    phrases: Lists<(u32, u32)>,
    /// Per phrase: the parts that name it.
    phrase_mentions: Lists<Mention>,
    /// Per term id: the phrases anchored on it (each on its least used word), evaluated only
    /// when that word is present, each with another of its words (the least used): most phrases
    /// are passed over on that one look-up, without reading the phrase.
    phrases_by_anchor: Lists<(u32, u32)>,
    /// Per feed: it has a rest or per-source exclusions to check once a branch holds (most
    /// feeds have neither, and are decided without reading the feed).
    checked: Vec<bool>,
    /// Feeds evaluated whole on every document: no rule, or a rule that can hold with none of
    /// its terms present.
    always: Vec<u32>,
    /// The distinct date-range shorthands of the feeds.
    shorthands: Vec<Filters>,
    /// Per shorthand: the feeds with that date range.
    by_shorthand: Vec<Vec<u32>>,
    /// Every source a feed keeps or drops, numbered: a document of any other source is kept or
    /// dropped by every feed as any other such document is.
    sources: FxHashMap<String, u32>,
    /// Every category a feed keeps, numbered likewise.
    categories: FxHashMap<String, u32>,
}

/// The document's occurrences of dictionary terms.
struct Occurrences<'s> {
    stamp: &'s [u32],
    positional: &'s [bool],
    generation: u32,
    ranges: &'s [(u32, u32)],
    positions: &'s [u32],
}

impl Occurrences<'_> {
    fn present(&self, term: u32) -> bool {
        self.stamp[term as usize] == self.generation
    }

    /// The positions of a term named in a phrase (only those terms' positions are kept).
    fn positions(&self, term: u32) -> &[u32] {
        let t = term as usize;
        if self.stamp[t] != self.generation {
            return &[];
        }
        debug_assert!(self.positional[t], "positions are kept only for the words of phrases");
        let (start, end) = self.ranges[t];
        &self.positions[start as usize..end as usize]
    }

    /// Whether the terms are at these positions relative to each other somewhere in the
    /// document: each position of the term seen least often is tried.
    fn phrase(&self, terms: &[(u32, u32)]) -> bool {
        if let &[(first_at, first), (second_at, second)] = terms {
            // Two words (most phrases): their positions walked together, in one pass.
            let (firsts, seconds) = (self.positions(first), self.positions(second));
            let gap = second_at - first_at;
            let (mut i, mut j) = (0, 0);
            while i < firsts.len() && j < seconds.len() {
                match seconds[j].cmp(&(firsts[i] + gap)) {
                    std::cmp::Ordering::Less => j += 1,
                    std::cmp::Ordering::Greater => i += 1,
                    std::cmp::Ordering::Equal => return true,
                }
            }
            return false;
        }
        if !terms.iter().all(|&(_, t)| self.present(t)) {
            return false;
        }
        let &(driver_at, driver) =
            terms.iter().min_by_key(|&&(_, t)| self.positions(t).len()).expect("a phrase has words");
        // Relative to the phrase's first term (the least `at`): none can be before the text.
        let first_at = terms[0].0;
        self.positions(driver).iter().any(|&p| {
            p + first_at >= driver_at
                && terms.iter().all(|&(at, t)| {
                    t == driver && at == driver_at || self.positions(t).binary_search(&(p + at - driver_at)).is_ok()
                })
        })
    }

    fn eval(&self, node: &Node) -> bool {
        match node {
            Node::Term(t) => self.present(*t),
            Node::Phrase(terms) => self.phrase(terms),
            Node::Not(inner) => inner.as_ref().is_none_or(|n| !self.eval(n)),
            Node::And { must, must_not } => must.iter().all(|n| self.eval(n)) && !must_not.iter().any(|n| self.eval(n)),
            Node::Or(parts) => parts.iter().any(|n| self.eval(n)),
        }
    }
}

/// Builds the compiled form of expressions, growing one dictionary of terms.
struct Compiler {
    english: TextAnalyzer,
    dictionary: FxHashMap<String, u32>,
    /// Per term: named in a phrase, so its positions in a document matter.
    positional: Vec<bool>,
}

impl Compiler {
    fn term(&mut self, text: &str) -> u32 {
        let next = self.dictionary.len() as u32;
        let id = *self.dictionary.entry(text.to_string()).or_insert(next);
        if id == next {
            self.positional.push(false);
        }
        id
    }

    /// As the index's `words_query` reads a word or phrase (strictly).
    fn words(&mut self, text: &str) -> Option<Node> {
        let tokens = search::schema::tokens(&mut self.english, text);
        match tokens.len() {
            0 => None,
            1 => Some(Node::Term(self.term(&tokens[0].1))),
            _ => {
                let terms: Vec<(u32, u32)> = tokens.iter().map(|(at, t)| (*at as u32, self.term(t))).collect();
                terms.iter().for_each(|&(_, t)| self.positional[t as usize] = true);
                Some(Node::Phrase(terms))
            }
        }
    }

    /// As the index's `text_query` reads an expression (strictly).
    fn compile(&mut self, expr: &Expr) -> Option<Node> {
        match expr {
            Expr::Word(w) | Expr::Phrase(w) => self.words(w),
            Expr::Not(inner) => Some(Node::Not(self.compile(inner).map(Box::new))),
            Expr::And(parts) => {
                let mut must = Vec::new();
                let mut must_not = Vec::new();
                for part in parts {
                    match part {
                        Expr::Not(inner) => must_not.extend(self.compile(inner)),
                        other => must.extend(self.compile(other)),
                    }
                }
                if must.is_empty() && !parts.iter().all(|p| matches!(p, Expr::Not(_))) {
                    // Every positive part was only stop words: the index matches nothing.
                    return None;
                }
                Some(Node::And { must, must_not })
            }
            Expr::Or(parts) => {
                let parts: Vec<Node> = parts.iter().filter_map(|p| self.compile(p)).collect();
                (!parts.is_empty()).then_some(Node::Or(parts))
            }
        }
    }
}

/// Terms of which at least one is in every document `node` holds for: the node need not be
/// evaluated on a document holding none of them. `None` when no such set exists (the node can
/// hold with none of its terms present: a NOT, an AND of only NOTs). `uses` counts each term's
/// uses over all rules: a phrase is anchored on its least used term.
fn anchors(node: &Node, uses: &[u32]) -> Option<Vec<u32>> {
    match node {
        Node::Term(t) => Some(vec![*t]),
        Node::Phrase(terms) => terms.iter().map(|(_, t)| *t).min_by_key(|t| uses[*t as usize]).map(|t| vec![t]),
        Node::Not(_) => None,
        // Every `must` holds where the AND does: any one's anchors will do, the fewest best.
        Node::And { must, .. } => must.iter().filter_map(|n| anchors(n, uses)).min_by_key(Vec::len),
        Node::Or(parts) => {
            let mut out = Vec::new();
            for part in parts {
                out.extend(anchors(part, uses)?);
            }
            out.sort_unstable();
            out.dedup();
            Some(out)
        }
    }
}

/// For an AND branch indexed on `indexed`: the fewest anchors of another of its parts.
fn guard(node: &Node, indexed: &[u32], uses: &[u32]) -> Vec<u32> {
    let Node::And { must, .. } = node else { return vec![] };
    let mut sets: Vec<Vec<u32>> = must.iter().filter_map(|n| anchors(n, uses)).collect();
    sets.sort_by_key(Vec::len);
    // The indexed set is the first of the fewest; any other part guards.
    match sets.iter().position(|s| s.as_slice() == indexed) {
        Some(at) => {
            sets.remove(at);
            sets.into_iter().next().unwrap_or_default()
        }
        None => vec![],
    }
}

fn count_uses(node: &Node, uses: &mut [u32]) {
    match node {
        Node::Term(t) => uses[*t as usize] += 1,
        Node::Phrase(terms) => terms.iter().for_each(|(_, t)| uses[*t as usize] += 1),
        Node::Not(inner) => {
            if let Some(n) = inner {
                count_uses(n, uses);
            }
        }
        Node::And { must, must_not } => must.iter().chain(must_not).for_each(|n| count_uses(n, uses)),
        Node::Or(parts) => parts.iter().for_each(|n| count_uses(n, uses)),
    }
}

/// The words and phrases of a node that is one of them or an OR of only them.
fn atoms(node: &Node) -> Option<Vec<&Node>> {
    match node {
        Node::Term(_) | Node::Phrase(_) => Some(vec![node]),
        Node::Or(parts) => {
            parts.iter().all(|p| matches!(p, Node::Term(_) | Node::Phrase(_))).then(|| parts.iter().collect())
        }
        _ => None,
    }
}

/// A branch as its must parts and its negated parts, each an OR of words and phrases; `None`
/// when it is not of that shape (then it is evaluated as a tree).
#[allow(clippy::type_complexity)]
fn flatten(node: &Node) -> Option<(Vec<Vec<&Node>>, Vec<Vec<&Node>>)> {
    match node {
        Node::And { must, must_not } if !must.is_empty() => {
            Some((must.iter().map(atoms).collect::<Option<_>>()?, must_not.iter().map(atoms).collect::<Option<_>>()?))
        }
        Node::And { .. } | Node::Not(_) => None,
        other => Some((vec![atoms(other)?], vec![])),
    }
}

/// Splits a rule into branches and a rest: the rule holds exactly where one branch and the rest
/// hold. A feed's rule `(include_1 OR ...) AND NOT (...)` gives one branch per include keyword.
fn split(node: &Node) -> (Vec<Node>, Option<Node>) {
    match node {
        Node::Or(parts) => (parts.clone(), None),
        Node::And { must, must_not } => match must.iter().position(|n| matches!(n, Node::Or(_))) {
            Some(at) => {
                let Node::Or(parts) = &must[at] else { unreachable!("found an OR there") };
                let mut others = must.clone();
                others.remove(at);
                (parts.clone(), Some(Node::And { must: others, must_not: must_not.clone() }))
            }
            None => (vec![node.clone()], None),
        },
        other => (vec![other.clone()], None),
    }
}

/// Gathers the flat branches of a [`RuleSet`] as it is compiled.
struct FlatBuilder {
    term_mentions: Vec<Vec<Mention>>,
    phrases: Vec<Vec<(u32, u32)>>,
    phrase_ids: FxHashMap<Vec<(u32, u32)>, u32>,
    phrase_mentions: Vec<Vec<Mention>>,
    /// Per phrase: its least used word, where it is looked for if a must part names it, and its
    /// next least used (the same if it has no other).
    phrase_anchors: Vec<(u32, u32)>,
    /// Per state word: its feed, and where its branches lie.
    word_feed: Vec<u32>,
    word_layout: Vec<Layout>,
    /// The bits of the last state word taken.
    used: u32,
}

impl FlatBuilder {
    fn new(terms: usize) -> FlatBuilder {
        FlatBuilder {
            term_mentions: vec![Vec::new(); terms],
            phrases: Vec::new(),
            phrase_ids: FxHashMap::default(),
            phrase_mentions: Vec::new(),
            phrase_anchors: Vec::new(),
            word_feed: Vec::new(),
            word_layout: Vec::new(),
            used: 0,
        }
    }

    /// Adds a branch of at most [`FLAT_PARTS`] must parts and any number of negated ones. The
    /// branches of a feed are added one after the other: each takes the next bits of the feed's
    /// last state word, or a new word when they do not fit.
    fn add(&mut self, feed: u32, must: &[Vec<&Node>], must_not: &[Vec<&Node>], uses: &[u32]) {
        debug_assert!(!must.is_empty() && must.len() <= FLAT_PARTS);
        let parts = must.len() as u32;
        if self.word_feed.last() != Some(&feed) || self.used + parts > 64 {
            self.word_feed.push(feed);
            self.word_layout.push(Layout::default());
            self.used = 0;
        }
        let word = self.word_feed.len() as u32 - 1;
        let first = self.used;
        let last = first + parts - 1;
        self.used += parts;
        let layout = self.word_layout.last_mut().expect("a word was taken");
        layout.firsts |= 1 << first;
        layout.lasts |= 1 << last;
        let parts = must.iter().enumerate().map(|(i, atoms)| (Mention::must(word, first + i as u32), atoms.clone()));
        // The negated parts all set the one veto: a word or phrase in two of them is named once.
        let vetoes = std::iter::once((Mention::veto(word, last), must_not.iter().flatten().copied().collect()));
        for (mention, atoms) in parts.chain(vetoes) {
            let mut seen: Vec<Atom> = Vec::new();
            for atom in atoms {
                let atom = self.atom(atom, uses);
                // A part names each word or phrase once: its lists stay short.
                if seen.contains(&atom) {
                    continue;
                }
                match atom {
                    Atom::Term(t) => self.term_mentions[t as usize].push(mention),
                    Atom::Phrase(p) => self.phrase_mentions[p as usize].push(mention),
                }
                seen.push(atom);
            }
        }
    }

    fn atom(&mut self, node: &Node, uses: &[u32]) -> Atom {
        match node {
            Node::Term(t) => Atom::Term(*t),
            Node::Phrase(terms) => Atom::Phrase(self.phrase(terms, uses)),
            _ => unreachable!("flatten keeps only words and phrases"),
        }
    }

    /// The id of a phrase, new ones anchored on their least used word.
    fn phrase(&mut self, terms: &[(u32, u32)], uses: &[u32]) -> u32 {
        if let Some(&id) = self.phrase_ids.get(terms) {
            return id;
        }
        let id = self.phrases.len() as u32;
        self.phrases.push(terms.to_vec());
        self.phrase_ids.insert(terms.to_vec(), id);
        self.phrase_mentions.push(Vec::new());
        let anchor = terms.iter().map(|(_, t)| *t).min_by_key(|t| uses[*t as usize]).expect("a phrase has words");
        let other = terms.iter().map(|(_, t)| *t).filter(|&t| t != anchor).min_by_key(|t| uses[*t as usize]);
        self.phrase_anchors.push((anchor, other.unwrap_or(anchor)));
        id
    }

    /// Per term: the phrases anchored on it.
    fn phrases_by_anchor(&self, terms: usize) -> Lists<(u32, u32)> {
        let mut lists = vec![Vec::new(); terms];
        for (p, &(anchor, other)) in self.phrase_anchors.iter().enumerate() {
            if !self.phrase_mentions[p].is_empty() {
                lists[anchor as usize].push((p as u32, other));
            }
        }
        Lists::of(lists)
    }
}

impl RuleSet {
    /// Compiles the rules of many feeds, each given by its id and filters.
    pub fn new<'a>(feeds: impl IntoIterator<Item = (String, &'a Filters)>) -> RuleSet {
        let mut compiler =
            Compiler { english: search::schema::english(), dictionary: FxHashMap::default(), positional: Vec::new() };
        let mut shorthands: Vec<Filters> = Vec::new();
        let mut compiled: Vec<Feed> = Vec::new();
        for (board_id, filters) in feeds {
            let text = match &filters.text {
                None => Text::Any,
                Some(expr) => compiler.compile(expr).map_or(Text::Never, Text::Rule),
            };
            let mut exclusions: Vec<(String, Node)> = filters
                .source_exclusions
                .iter()
                .filter_map(|e| Some((e.source_id.clone(), compiler.compile(&e.expr)?)))
                .collect();
            exclusions.sort_by(|a, b| a.0.cmp(&b.0));
            let date_range = filters.date_range.as_ref().map(|shorthand| {
                shorthands.iter().position(|f| f.date_range.as_ref() == Some(shorthand)).unwrap_or_else(|| {
                    shorthands.push(Filters { date_range: Some(shorthand.clone()), ..Filters::default() });
                    shorthands.len() - 1
                })
            });
            compiled.push(Feed {
                board_id,
                text,
                kept_sources: filters.kept_sources(),
                excluded_sources: filters.excluded_sources.clone(),
                exclusions,
                categories: filters.categories.clone(),
                date_range,
                rest: None,
            });
        }
        let mut by_shorthand = vec![Vec::new(); shorthands.len()];
        let mut sources = FxHashMap::default();
        let mut categories = FxHashMap::default();
        for (i, feed) in compiled.iter().enumerate() {
            if let Some(shorthand) = feed.date_range {
                by_shorthand[shorthand].push(i as u32);
            }
            for source in feed.kept_sources.iter().chain(&feed.excluded_sources) {
                let next = sources.len() as u32;
                sources.entry(source.clone()).or_insert(next);
            }
            for category in &feed.categories {
                let next = categories.len() as u32;
                categories.entry(category.clone()).or_insert(next);
            }
        }
        let mut uses = vec![0u32; compiler.dictionary.len()];
        for feed in &compiled {
            if let Text::Rule(node) = &feed.text {
                count_uses(node, &mut uses);
            }
        }
        let mut by_term = vec![Vec::new(); compiler.dictionary.len()];
        let mut flat = FlatBuilder::new(compiler.dictionary.len());
        let mut branches = Vec::new();
        let mut always = Vec::new();
        for (i, feed) in compiled.iter_mut().enumerate() {
            let Text::Rule(node) = &feed.text else {
                if matches!(feed.text, Text::Any) {
                    always.push(i as u32);
                }
                continue;
            };
            // A rule's value depends only on its own terms. A feed is evaluated on a document
            // when one of its branches' anchors is there; a feed with a branch that can hold
            // without any of its terms, on every document.
            let (parts, rest) = split(node);
            let anchored: Option<Vec<Vec<u32>>> = parts.iter().map(|b| anchors(b, &uses)).collect();
            match anchored {
                None => always.push(i as u32),
                Some(anchored) => {
                    // When every branch is flat and the rest only negates words and phrases (a
                    // feed's exclude keywords), these join every branch's negated parts instead:
                    // `(a OR b) AND NOT c` is `(a AND NOT c) OR (b AND NOT c)`.
                    let all_flat = parts.iter().all(|b| flatten(b).is_some_and(|(must, _)| must.len() <= FLAT_PARTS));
                    let folded: Option<Vec<Vec<&Node>>> = match &rest {
                        Some(Node::And { must, must_not }) if all_flat && must.is_empty() => {
                            must_not.iter().map(atoms).collect()
                        }
                        _ => None,
                    };
                    for (branch, anchors) in parts.iter().zip(anchored) {
                        if let Some((must, mut must_not)) = flatten(branch) {
                            if must.len() <= FLAT_PARTS {
                                must_not.extend(folded.iter().flatten().cloned());
                                flat.add(i as u32, &must, &must_not, &uses);
                                continue;
                            }
                        }
                        let at = branches.len() as u32;
                        let guard = guard(branch, &anchors, &uses);
                        branches.push(Branch { feed: i as u32, node: branch.clone(), guard });
                        for t in anchors {
                            by_term[t as usize].push(at);
                        }
                    }
                    feed.rest = if folded.is_some() { None } else { rest };
                }
            }
        }
        let phrases_by_anchor = flat.phrases_by_anchor(compiler.dictionary.len());
        let checked = compiled.iter().map(|f| f.rest.is_some() || !f.exclusions.is_empty()).collect();
        assert!(flat.word_feed.len() <= MAX_WORDS, "at most {MAX_WORDS} state words of flat branches");
        RuleSet {
            dictionary: compiler.dictionary,
            positional: compiler.positional,
            feeds: compiled,
            branches,
            by_term: Lists::of(by_term),
            word_feed: flat.word_feed,
            word_layout: flat.word_layout,
            phrases_by_anchor,
            checked,
            term_mentions: Lists::of(flat.term_mentions),
            phrases: Lists::of(flat.phrases),
            phrase_mentions: Lists::of(flat.phrase_mentions),
            always,
            shorthands,
            by_shorthand,
            sources,
            categories,
        }
    }

    /// How many feeds the set holds.
    pub fn len(&self) -> usize {
        self.feeds.len()
    }

    pub fn is_empty(&self) -> bool {
        self.feeds.is_empty()
    }

    /// How many distinct terms the feeds' rules name.
    pub fn terms(&self) -> usize {
        self.dictionary.len()
    }

    /// A matcher with its own scratch space; keep one per thread for many documents.
    pub fn matcher(&self) -> Matcher<'_> {
        Matcher::new(self)
    }

    /// The feeds `document` matches at `now` (date ranges end then). One-off convenience; a
    /// stream of documents goes faster through one [`Matcher`].
    pub fn matches(&self, document: &IndexedDocument, now: DateTime<Utc>) -> Vec<String> {
        self.matcher().matches(document, now).into_iter().map(str::to_string).collect()
    }
}

/// Words remembered (as folded, before stop words and stemming) before the memory is cleared.
const WORD_MEMORY: usize = 200_000;

/// Distinct (source, category) pairs whose filtered feeds are remembered before that memory is
/// cleared.
const FILTER_MEMORY: usize = 4_096;

/// The English analyzer applied to one word at a time, with a memory of the words already seen:
/// a word seen before is one look-up.
struct Lexicon {
    /// Stop words and stemming of one lowercased ASCII word (the tokenizer keeps it whole).
    stem: TextAnalyzer,
    /// The whole English analyzer, for any other word as it stands in the text.
    english: TextAnalyzer,
    /// Short plain words (most words) → their dictionary term, or [`memory::NO_TERM`].
    short: memory::ShortMemory,
    /// Any other word, as it stands in the text → its dictionary term, or none (a stop word, or
    /// a term no rule names).
    memory: FxHashMap<String, Option<u32>>,
}

impl Lexicon {
    fn new() -> Lexicon {
        Lexicon {
            stem: TextAnalyzer::builder(RawTokenizer::default())
                .filter(StopWordFilter::new(Language::English).expect("tantivy ships English stop words"))
                .filter(Stemmer::new(Language::English))
                .build(),
            english: search::schema::english(),
            short: memory::ShortMemory::new(WORD_MEMORY),
            memory: FxHashMap::default(),
        }
    }

    /// The dictionary term `analyzer` makes of one word.
    fn analysed(analyzer: &mut TextAnalyzer, dictionary: &FxHashMap<String, u32>, word: &str) -> Option<u32> {
        let mut stream = analyzer.token_stream(word);
        if stream.advance() {
            dictionary.get(&stream.token().text).copied()
        } else {
            None
        }
    }

    /// The dictionary term of one word, stemming it only the first time it is seen.
    fn term_of(&mut self, dictionary: &FxHashMap<String, u32>, word: Word) -> Option<u32> {
        match word {
            Word::Short(key) => {
                let term = match self.short.get(key) {
                    Some(term) => term,
                    None => {
                        let bytes = key.bytes();
                        let len = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
                        let text = std::str::from_utf8(&bytes[..len]).expect("a short word is ASCII");
                        let term = Self::analysed(&mut self.stem, dictionary, text).unwrap_or(memory::NO_TERM);
                        self.short.insert(key, term);
                        term
                    }
                };
                (term != memory::NO_TERM).then_some(term)
            }
            Word::Other(word) => {
                if let Some(known) = self.memory.get(word) {
                    return *known;
                }
                // One word is one token of the analyzer's tokenizer, and its filters map a token
                // to at most one, whatever stands around it.
                let term = Self::analysed(&mut self.english, dictionary, word);
                if self.memory.len() >= WORD_MEMORY {
                    self.memory.clear();
                }
                self.memory.insert(word.to_string(), term);
                term
            }
        }
    }
}

/// The matcher's state for flat branches over one document.
struct Marks {
    /// Per state word: the must parts found to hold, then the vetoed branches (see
    /// [`Mention`]). All zero between documents.
    bits: Vec<u64>,
    /// The state words given a bit in this document: `touched[..len]`, a word listed again
    /// when its vetoes are given their first bit after its parts or the other way round. One
    /// entry more than twice the words, so that a word already listed can be written past the
    /// end of the list instead of taking a branch.
    touched: Vec<u32>,
    len: usize,
}

impl Marks {
    /// Records that the parts of `mentions` hold. The most frequent loop of the matcher: its
    /// state is held in locals, so that nothing but the bits goes back to memory per mention.
    #[inline]
    fn mark(&mut self, mentions: &[Mention]) {
        let (bits, touched) = (&mut self.bits[..], &mut self.touched[..]);
        let mut len = self.len;
        for &mention in mentions {
            let at = mention.mark();
            let before = bits[at];
            bits[at] = before | mention.bit();
            // A word is listed at most twice, when its parts or its vetoes are given their
            // first bit: the list never outgrows `touched`.
            touched[len] = (at / 2) as u32;
            len += (before == 0) as usize;
        }
        self.len = len;
    }
}

/// What is decided of the feeds for one document.
struct Decided {
    /// Per feed: the generation in which it was decided.
    stamp: Vec<u32>,
    /// The feeds whose words need no more looking at in this document: their filters other than
    /// text drop it, or they are decided. One bit each.
    skip: Vec<u64>,
    /// The matching feeds of the document.
    candidates: Vec<u32>,
}

/// A flat branch of state word `word` holds: it decides its feed, with the feed's rest and
/// per-source exclusions, unless the feed needs no more looking at.
fn complete(
    rules: &RuleSet,
    word: usize,
    document: &IndexedDocument,
    occurrences: &Occurrences,
    decided: &mut Decided,
) {
    let f = rules.word_feed[word];
    if has(&decided.skip, f) {
        return;
    }
    decided.stamp[f as usize] = occurrences.generation;
    add(&mut decided.skip, f);
    if rules.checked[f as usize] {
        let feed = &rules.feeds[f as usize];
        if feed.rest.as_ref().is_some_and(|n| !occurrences.eval(n)) || excluded(feed, document, occurrences) {
            return;
        }
    }
    decided.candidates.push(f);
}

/// A set of feeds, one bit each.
fn has(set: &[u64], feed: u32) -> bool {
    set[feed as usize / 64] & (1 << (feed % 64)) != 0
}

fn add(set: &mut [u64], feed: u32) {
    set[feed as usize / 64] |= 1 << (feed % 64);
}

/// Evaluates a [`RuleSet`] against documents, reusing its buffers and what it learnt of words.
pub struct Matcher<'r> {
    rules: &'r RuleSet,
    /// Tokenising, lowercasing and folding: the first half of the English analyzer.
    words: words::Words,
    lexicon: Lexicon,
    generation: u32,
    /// Per term: the generation of the last document holding it.
    stamp: Vec<u32>,
    ranges: Vec<(u32, u32)>,
    /// The document's (term, position) pairs of the terms named in phrases.
    occurrences: Vec<(u32, u32)>,
    positions: Vec<u32>,
    /// The document's distinct terms.
    present: Vec<u32>,
    /// Per branch: the generation in which it was evaluated.
    branch_stamp: Vec<u32>,
    flat: Marks,
    /// Per (source, category) of a document, numbered as in [`RuleSet::sources`] and
    /// [`RuleSet::categories`] (`u32::MAX`: one no feed names): the feeds whose source and
    /// category filters drop such a document, one bit each.
    dropped_by: FxHashMap<(u32, u32), Box<[u64]>>,
    decided: Decided,
}

impl<'r> Matcher<'r> {
    fn new(rules: &'r RuleSet) -> Matcher<'r> {
        Matcher {
            rules,
            words: words::Words::new(),
            lexicon: Lexicon::new(),
            generation: 0,
            stamp: vec![0; rules.dictionary.len()],
            ranges: vec![(0, 0); rules.dictionary.len()],
            occurrences: Vec::new(),
            positions: Vec::new(),
            present: Vec::new(),
            branch_stamp: vec![0; rules.branches.len()],
            flat: Marks {
                bits: vec![0; 2 * rules.word_feed.len()],
                touched: vec![0; 2 * rules.word_feed.len() + 1],
                len: 0,
            },
            dropped_by: FxHashMap::default(),
            decided: Decided {
                stamp: vec![0; rules.feeds.len()],
                skip: vec![0; rules.feeds.len().div_ceil(64)],
                candidates: Vec::new(),
            },
        }
    }

    /// Analyses the document's text once (as the index's `content`: title, then pages), noting
    /// its distinct dictionary terms and the positions of those named in phrases.
    fn analyse<'d>(&mut self, document: &'d IndexedDocument) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamp.iter_mut().for_each(|s| *s = 0);
            self.decided.stamp.iter_mut().for_each(|s| *s = 0);
            self.branch_stamp.iter_mut().for_each(|s| *s = 0);
            self.generation = 1;
        }
        let generation = self.generation;
        self.occurrences.clear();
        self.present.clear();
        // `search::content_of` joins the title and the pages with a blank line between them:
        // analysed one after the other, they give the same words at the same positions. The
        // words are split first and looked up after, so that the memory's slots for them are
        // fetched together (`touch`) rather than one after the other.
        let mut found = Vec::with_capacity(256);
        let short = &self.lexicon.short;
        let mut split = |word: Word<'d>, position: u32| {
            if let Word::Short(key) = word {
                short.touch(key);
            }
            found.push((word, position));
        };
        let position = self.words.each(&document.title, 0, &mut split);
        document.pages.iter().fold(position, |position, page| self.words.each(&page.text, position, &mut split));
        let (lexicon, rules) = (&mut self.lexicon, self.rules);
        let (stamp, present, occurrences) = (&mut self.stamp, &mut self.present, &mut self.occurrences);
        let ranges = &mut self.ranges;
        // A positional term's range counts its occurrences until they are laid out below.
        for (word, position) in found {
            if let Some(term) = lexicon.term_of(&rules.dictionary, word) {
                let t = term as usize;
                if stamp[t] != generation {
                    stamp[t] = generation;
                    present.push(term);
                    ranges[t] = (0, 0);
                }
                if rules.positional[t] {
                    occurrences.push((term, position));
                    ranges[t].1 += 1;
                }
            }
        }
        // Each positional term's positions laid out as one run, in the order of `present`:
        // its range starts where the previous one's ends, and is filled in document order, so
        // ascending.
        let mut end = 0;
        for &term in &self.present {
            let t = term as usize;
            if rules.positional[t] {
                let count = self.ranges[t].1;
                self.ranges[t] = (end, end);
                end += count;
            }
        }
        self.positions.clear();
        self.positions.resize(end as usize, 0);
        for &(term, position) in &self.occurrences {
            let filled = &mut self.ranges[term as usize].1;
            self.positions[*filled as usize] = position;
            *filled += 1;
        }
    }

    /// Notes in [`Decided::skip`] the feeds whose filters other than text drop `document`.
    fn drop_filtered(&mut self, document: &IndexedDocument, ranges: &[Option<(i64, i64)>]) {
        let rules = self.rules;
        let source = rules.sources.get(&document.source_id).copied().unwrap_or(u32::MAX);
        let category = rules.categories.get(&document.category).copied().unwrap_or(u32::MAX);
        if !self.dropped_by.contains_key(&(source, category)) && self.dropped_by.len() >= FILTER_MEMORY {
            self.dropped_by.clear();
        }
        // Every document of this source and category is dropped by the same feeds (any source or
        // category no feed names counts as one): they are worked out once.
        let dropped = self.dropped_by.entry((source, category)).or_insert_with(|| {
            let mut set = vec![0; rules.feeds.len().div_ceil(64)].into_boxed_slice();
            for (f, feed) in rules.feeds.iter().enumerate() {
                if !keeps_source_and_category(feed, &document.source_id, &document.category) {
                    add(&mut set, f as u32);
                }
            }
            set
        });
        self.decided.skip.copy_from_slice(dropped);
        for (range, feeds) in ranges.iter().zip(&rules.by_shorthand) {
            // The index keeps no document without a date in a range.
            if let Some((from, to)) = *range {
                if !document.published.is_some_and(|p| from <= p && p <= to) {
                    feeds.iter().for_each(|&f| add(&mut self.decided.skip, f));
                }
            }
        }
    }

    /// The ids of the feeds `document` matches at `now`, in the order the feeds were given.
    pub fn matches(&mut self, document: &IndexedDocument, now: DateTime<Utc>) -> Vec<&'r str> {
        let rules = self.rules;
        self.analyse(document);
        let generation = self.generation;
        let ranges: Vec<Option<(i64, i64)>> = rules.shorthands.iter().map(|f| f.published_between(now)).collect();
        self.drop_filtered(document, &ranges);
        let occurrences = Occurrences {
            stamp: &self.stamp,
            positional: &rules.positional,
            generation,
            ranges: &self.ranges,
            positions: &self.positions,
        };
        let (flat, decided) = (&mut self.flat, &mut self.decided);
        decided.candidates.clear();
        // Flat branches: each present word (and each phrase found, looked for only when its
        // anchor word and one other are present, so at most once) sets the bits of the parts
        // naming it; then the branches that hold are found a state word at a time, and decide
        // their feeds unless these need no more looking at.
        for &term in &self.present {
            flat.mark(rules.term_mentions.get(term));
            for &(phrase, other) in rules.phrases_by_anchor.get(term) {
                if occurrences.present(other) && occurrences.phrase(rules.phrases.get(phrase)) {
                    flat.mark(rules.phrase_mentions.get(phrase));
                }
            }
        }
        for &word in &flat.touched[..flat.len] {
            let word = word as usize;
            // A word listed twice is all zero the second time.
            let [state, vetoes] = [2 * word, 2 * word + 1].map(|at| std::mem::take(&mut flat.bits[at]));
            // Any one branch that holds decides the feed.
            if rules.word_layout[word].holding(state) & !vetoes != 0 {
                complete(rules, word, document, &occurrences, decided);
            }
        }
        flat.len = 0;
        // Tree branches anchored on a present term; a feed is decided (kept or not) once.
        for &term in self.present.iter().take(if rules.branches.is_empty() { 0 } else { usize::MAX }) {
            for &b in rules.by_term.get(term) {
                let branch = &rules.branches[b as usize];
                let f = branch.feed as usize;
                if decided.stamp[f] == generation || self.branch_stamp[b as usize] == generation {
                    continue;
                }
                self.branch_stamp[b as usize] = generation;
                if !branch.guard.is_empty() && !branch.guard.iter().any(|&t| occurrences.present(t)) {
                    continue;
                }
                if has(&decided.skip, branch.feed) {
                    decided.stamp[f] = generation;
                    continue;
                }
                let feed = &rules.feeds[f];
                if occurrences.eval(&branch.node) {
                    decided.stamp[f] = generation;
                    let rest = feed.rest.as_ref().is_none_or(|n| occurrences.eval(n));
                    if rest && !excluded(feed, document, &occurrences) {
                        decided.candidates.push(branch.feed);
                    }
                }
            }
        }
        for &f in &rules.always {
            let feed = &rules.feeds[f as usize];
            if !has(&decided.skip, f) && text_keeps(feed, document, &occurrences) {
                decided.candidates.push(f);
            }
        }
        decided.candidates.sort_unstable();
        decided.candidates.iter().map(|&f| rules.feeds[f as usize].board_id.as_str()).collect()
    }
}

/// The feed's source and category filters.
fn keeps_source_and_category(feed: &Feed, source: &str, category: &str) -> bool {
    let listed = |list: &[String], value: &str| list.binary_search_by(|v| v.as_str().cmp(value)).is_ok();
    if !feed.categories.is_empty() && !listed(&feed.categories, category) {
        return false;
    }
    if !feed.kept_sources.is_empty() && !listed(&feed.kept_sources, source) {
        return false;
    }
    !listed(&feed.excluded_sources, source)
}

fn text_keeps(feed: &Feed, document: &IndexedDocument, occurrences: &Occurrences) -> bool {
    let kept = match &feed.text {
        Text::Any => true,
        Text::Never => false,
        Text::Rule(node) => occurrences.eval(node),
    };
    kept && !excluded(feed, document, occurrences)
}

/// Whether one of the feed's per-source exclusions drops the document.
fn excluded(feed: &Feed, document: &IndexedDocument, occurrences: &Occurrences) -> bool {
    feed.exclusions.iter().any(|(source, node)| *source == document.source_id && occurrences.eval(node))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Texts that hold what the fast paths of the analysis treat apart: case, stop words,
    /// apostrophes, digits, hyphens, words of 16, 17, 39, 40 and 41 bytes, non-ASCII letters
    /// (some that change length when lowercased or fold to two letters), punctuation.
    fn tricky_texts() -> Vec<String> {
        let [long, limit, over] = [39, 40, 41].map(|n| "Rates".repeat(n / 5 + 1)[..n].to_string());
        vec![
            "The Bank of INDIA, the bank's banks and banking: THE BANKS' rates".to_string(),
            "It's o'clock; don't won't isn't, rock'n'roll, 'quoted' and \"double\" quotes".to_string(),
            "10-K 3M 2024 FY2023-24 6.5% 1,000,000 x86_64 COVID-19 Q3FY24 0.25bps".to_string(),
            "co-operation e-mail well-known state-of-the-art U.S.A. Ph.D. -- --- -".to_string(),
            format!(
                "sixteen bytes: abcdefghijklmnop ABCDEFGHIJKLMNOPQ internationalisations {long} {limit} {over} end"
            ),
            format!("{long}é {limit}é Ünïcödé-words Société Générale's naïve café crème Straße STRASSE"),
            "İstanbul ISTANBUL ıi ΑΘΗΝΑ Αθήνα ﬁnance ﬂows Ĳssel ǅemal Œuvre ÆRØ Müller's".to_string(),
            "中国 银行 東京 — “quoted” words… ellipses‘s ½ ² ③ Ⅻ 🚀 x\u{2060}y no\u{00a0}break".to_string(),
            "running runs ran runner easily fairly generously organisation organizations".to_string(),
            "and or not AND OR NOT a an the THE of OF to be is was were".to_string(),
        ]
    }

    /// Terms with their positions.
    type Positioned = Vec<(usize, String)>;

    /// The English analyzer's tokens of the texts one after the other (as the index's content
    /// joins a title and pages), and what the matcher's analysis finds of them: each word looked
    /// up in a dictionary of the terms `keep` keeps, twice (the second time from memory).
    fn analysed(texts: &[String], keep: impl Fn(&str) -> bool) -> (Positioned, [Positioned; 2]) {
        let joined = texts.join("\n\n");
        let tokens: Vec<(usize, String)> = search::schema::tokens(&mut search::schema::english(), &joined)
            .into_iter()
            .filter(|(_, t)| keep(t))
            .collect();
        let mut dictionary: FxHashMap<String, u32> = FxHashMap::default();
        for (_, t) in &tokens {
            let next = dictionary.len() as u32;
            dictionary.entry(t.clone()).or_insert(next);
        }
        let mut names: Vec<&str> = vec![""; dictionary.len()];
        dictionary.iter().for_each(|(t, &id)| names[id as usize] = t);
        let (mut words, mut lexicon) = (words::Words::new(), Lexicon::new());
        let found = [(); 2].map(|_| {
            let mut found = Vec::new();
            let mut position = 0;
            for text in texts {
                position = words.each(text, position, |word, at| {
                    if let Some(term) = lexicon.term_of(&dictionary, word) {
                        found.push((at as usize, names[term as usize].to_string()));
                    }
                });
            }
            found
        });
        (tokens, found)
    }

    #[test]
    fn the_matchers_analysis_finds_the_english_analyzers_terms_at_their_positions() {
        let texts = tricky_texts();
        let (tokens, [first, again]) = analysed(&texts, |_| true);
        assert!(tokens.len() > 100, "the texts hold many terms: {}", tokens.len());
        assert_eq!(first, tokens);
        assert_eq!(again, tokens);
        // Words that stand for no term of the dictionary are found as none.
        let (tokens, [first, again]) = analysed(&texts, |t| t.len() % 2 == 0);
        assert_eq!(first, tokens);
        assert_eq!(again, tokens);
    }

    /// Branches of the given numbers of parts laid side by side from bit 0, as a [`RuleSet`]
    /// lays a feed's branches in a state word.
    fn layout(parts: &[u32]) -> (Layout, Vec<(u32, u32)>) {
        let mut layout = Layout::default();
        let mut spans = Vec::new();
        let mut first = 0;
        for &n in parts {
            layout.firsts |= 1 << first;
            layout.lasts |= 1 << (first + n - 1);
            spans.push((first, n));
            first += n;
        }
        (layout, spans)
    }

    /// Branches of 1 to 32 parts that fit in one word together.
    fn branch_parts() -> impl Strategy<Value = Vec<u32>> {
        proptest::collection::vec(1..=32u32, 1..40).prop_map(|mut parts| {
            let mut used = 0;
            parts.retain(|&n| {
                let fits = used + n <= 64;
                used += if fits { n } else { 0 };
                fits
            });
            parts
        })
    }

    proptest! {
        #[test]
        fn a_phrase_of_two_words_is_found_where_the_second_follows_the_first_at_its_gap(
            firsts in proptest::collection::btree_set(0..60u32, 0..12),
            seconds in proptest::collection::btree_set(0..60u32, 0..12),
            gap in 1..4u32,
            same: bool,
        ) {
            // Term 0 at `firsts`, term 1 at `seconds` (or term 0 twice, "bank bank").
            let seconds = if same { firsts.clone() } else { seconds };
            let positions: Vec<u32> = firsts.iter().chain(&seconds).copied().collect();
            let (a, b) = (firsts.len() as u32, positions.len() as u32);
            let occurrences = Occurrences {
                stamp: &[1, 1],
                positional: &[true, true],
                generation: 1,
                ranges: &[(0, a), (a, b)],
                positions: &positions,
            };
            let second = if same { 0 } else { 1 };
            let expected = firsts.iter().any(|p| seconds.contains(&(p + gap)));
            prop_assert_eq!(occurrences.phrase(&[(0, 0), (gap, second)]), expected);
            // As the general case finds it (a third word that is always there).
            prop_assert_eq!(occurrences.phrase(&[(0, 0), (gap, second), (gap, second)]), expected);
        }

        #[test]
        fn a_layout_finds_exactly_the_branches_with_every_part_set(parts in branch_parts(), state: u64) {
            let (layout, spans) = layout(&parts);
            let used: u64 = spans.iter().map(|&(first, n)| (u64::MAX >> (64 - n)) << first).fold(0, |a, b| a | b);
            // Only the bits of the branches are ever set; some states set all of a branch's.
            for state in [state & used, (state | state << 1 | state << 2) & used, used] {
                let mut expected = 0u64;
                for &(first, n) in &spans {
                    let bits = (u64::MAX >> (64 - n)) << first;
                    if state & bits == bits {
                        expected |= 1 << (first + n - 1);
                    }
                }
                prop_assert_eq!(layout.holding(state), expected, "{:?} {:064b}", parts, state);
            }
        }
    }
}
