//! Measuring a clustering against labelled pairs, and the labelled sets themselves.
//!
//! Two sets, described in `docs/stories.md`:
//! - real syndicated pairs from the AG News test split (the same wire story as several outlets
//!   carried it), hand-labelled in two files: candidates drawn by shared 3-word shingles
//!   ([`AG_NEWS_LABELS`]) and by IDF-weighted word similarity ([`AG_NEWS_WORD_LABELS`]); the
//!   labels hold row numbers only, the text is read from the shared data;
//! - constructed pairs: real feed items and copies of them with the edits syndication makes
//!   ([`Edit`]), with the other items of the same feed as same-topic negatives.
//!
//! Scores are over pairs: a predicted pair is two items placed in one story; a gold pair is two
//! items labelled one story (labels are closed transitively). Pairs labelled "related" (the same
//! event, written independently) count neither way.

use std::collections::{HashMap, HashSet};

use crate::{Signature, StoryIndex, StoryParams};

/// The hand labels of AG News test pairs: `row_a <TAB> row_b <TAB> same|related|different`, rows
/// counted from 0 after the header.
pub const AG_NEWS_LABELS: &str = include_str!("../data/ag_news_pairs.tsv");

/// The second set of hand labels of AG News test pairs, drawn by word similarity instead of
/// shared shingles (same format; no pair of [`AG_NEWS_LABELS`] is repeated).
pub const AG_NEWS_WORD_LABELS: &str = include_str!("../data/ag_news_word_pairs.tsv");

/// Hand labels of AG News test pairs that neither file above holds and that some rule tried while
/// tuning folded (same format). Only their `different` labels are scored ([`Labels::NegativesOnly`]):
/// a wrong fold outside the drawn candidates is a false pair either way, and a right one earns
/// no recall, since only rules drew it.
pub const AG_NEWS_FOLDED_LABELS: &str = include_str!("../data/ag_news_folded_pairs.tsv");

/// One item of a labelled set.
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    /// Where it comes from: `ag:<row>` or `<feed file>#<item guid>` (with the edit for copies).
    pub key: String,
    pub source: String,
    pub title: String,
    pub text: String,
    pub published: i64,
}

/// Items and their labelled pairs (indexes into `items`).
#[derive(Debug, Clone, Default)]
pub struct LabelledSet {
    pub items: Vec<Item>,
    pub same: Vec<(usize, usize)>,
    pub related: Vec<(usize, usize)>,
    /// Hand-checked different stories; every unlabelled pair also counts as different.
    pub different: Vec<(usize, usize)>,
    /// `same` labels that are not scored (the other half's, or another file's); they are in
    /// `related` too. What they imply through the transitive closure counts neither way either.
    pub uncounted_same: Vec<(usize, usize)>,
}

/// Pair counts and the figures made of them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PairScore {
    pub true_pairs: usize,
    pub false_pairs: usize,
    pub missed_pairs: usize,
    /// Hand-checked negatives wrongly placed in one story (included in `false_pairs`).
    pub false_labelled_negatives: usize,
}

impl PairScore {
    pub fn precision(&self) -> f64 {
        ratio(self.true_pairs, self.true_pairs + self.false_pairs)
    }
    pub fn recall(&self) -> f64 {
        ratio(self.true_pairs, self.true_pairs + self.missed_pairs)
    }
    pub fn f1(&self) -> f64 {
        let (p, r) = (self.precision(), self.recall());
        if p + r == 0.0 {
            0.0
        } else {
            2.0 * p * r / (p + r)
        }
    }
}

fn ratio(a: usize, b: usize) -> f64 {
    if b == 0 {
        1.0
    } else {
        a as f64 / b as f64
    }
}

/// Inserts every item (in order) into a fresh index and returns each item's story number.
pub fn cluster(items: &[Item], params: &StoryParams) -> Vec<usize> {
    let mut index = StoryIndex::new(params.clone());
    let mut numbers: HashMap<usize, usize> = HashMap::new();
    items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            let signature = Signature::of(&item.title, &item.text);
            let placement = index.insert(i, &item.source, item.published, &signature);
            let next = numbers.len();
            *numbers.entry(placement.story).or_insert(next)
        })
        .collect()
}

/// Scores a clustering (a story number per item) against the set's labels.
pub fn score(set: &LabelledSet, stories: &[usize]) -> PairScore {
    score_and_false_pairs(set, stories).0
}

/// [`score`], and the wrongly folded pairs themselves (sorted), to read them.
pub fn score_and_false_pairs(set: &LabelledSet, stories: &[usize]) -> (PairScore, Vec<(usize, usize)>) {
    let gold = closed_pairs(set.items.len(), &set.same);
    // Pairs that only the uncounted labels join (a fold through the other half's pair) are
    // neither hits nor false pairs, as the uncounted pairs themselves are not.
    let all_same: Vec<(usize, usize)> = set.same.iter().chain(&set.uncounted_same).copied().collect();
    let neutral = if set.uncounted_same.is_empty() { HashSet::new() } else { closed_pairs(set.items.len(), &all_same) };
    let related: HashSet<(usize, usize)> = set.related.iter().map(|&(a, b)| ordered(a, b)).collect();
    let different: HashSet<(usize, usize)> = set.different.iter().map(|&(a, b)| ordered(a, b)).collect();
    let mut members: HashMap<usize, Vec<usize>> = HashMap::new();
    for (item, &story) in stories.iter().enumerate() {
        members.entry(story).or_default().push(item);
    }
    let mut predicted = HashSet::new();
    for items in members.values() {
        for (i, &a) in items.iter().enumerate() {
            for &b in &items[i + 1..] {
                predicted.insert(ordered(a, b));
            }
        }
    }
    let true_pairs = predicted.intersection(&gold).count();
    let false_set: Vec<&(usize, usize)> =
        predicted.iter().filter(|p| !gold.contains(p) && !related.contains(p) && !neutral.contains(p)).collect();
    let score = PairScore {
        true_pairs,
        false_pairs: false_set.len(),
        missed_pairs: gold.len() - true_pairs,
        false_labelled_negatives: false_set.iter().filter(|p| different.contains(p)).count(),
    };
    let mut false_pairs: Vec<(usize, usize)> = false_set.into_iter().copied().collect();
    false_pairs.sort_unstable();
    (score, false_pairs)
}

fn ordered(a: usize, b: usize) -> (usize, usize) {
    (a.min(b), a.max(b))
}

/// All pairs inside the connected groups the labelled pairs make.
fn closed_pairs(n: usize, pairs: &[(usize, usize)]) -> HashSet<(usize, usize)> {
    let mut parent: Vec<usize> = (0..n).collect();
    fn root(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
    for &(a, b) in pairs {
        let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
        parent[ra] = rb;
    }
    let mut groups: HashMap<usize, Vec<usize>> = HashMap::new();
    for &(a, b) in pairs {
        for x in [a, b] {
            let r = root(&mut parent, x);
            let g = groups.entry(r).or_default();
            if !g.contains(&x) {
                g.push(x);
            }
        }
    }
    let mut out = HashSet::new();
    for g in groups.values() {
        for (i, &a) in g.iter().enumerate() {
            for &b in &g[i + 1..] {
                out.insert(ordered(a, b));
            }
        }
    }
    out
}

/// Which labels of a labelled set count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Labels {
    All,
    /// The labels on even label lines (counted from 0, comments skipped): the half thresholds
    /// are tuned on.
    Tuning,
    /// The labels on odd label lines: the half that judges a change tuned on the other.
    HeldOut,
    /// None of them: the file's pairs count neither way.
    None,
    /// Only the `different` labels, as hand-checked negatives; `same` and `related` count
    /// neither way.
    NegativesOnly,
}

impl Labels {
    fn counts(self, line: usize) -> bool {
        match self {
            Labels::All => true,
            Labels::Tuning => line.is_multiple_of(2),
            Labels::HeldOut => !line.is_multiple_of(2),
            Labels::None | Labels::NegativesOnly => false,
        }
    }
}

/// Reads the AG News test CSV (`label,title,description`, header first) and the labels into a
/// set. Every row is an item (7,600 for the test split), with one source each and the same time.
pub fn ag_news_set(csv: &str, labels: &str) -> Result<LabelledSet, String> {
    ag_news_set_part(csv, labels, Labels::All)
}

/// [`ag_news_set`] scored on one half of the labels: the other half's pairs go to `related`, so
/// they count neither way (a fold that one of them makes is neither a hit nor a false pair).
///
/// The pairs of the other built-in label file ([`AG_NEWS_LABELS`] or [`AG_NEWS_WORD_LABELS`])
/// count neither way too: a fold that one of them labels `same` is known to be right, and is
/// not a false pair merely because the scored file did not draw it. The negatives of
/// [`AG_NEWS_FOLDED_LABELS`] are counted as hand-checked ones.
pub fn ag_news_set_part(csv: &str, labels: &str, part: Labels) -> Result<LabelledSet, String> {
    let mut files = vec![(labels, part)];
    files.extend([AG_NEWS_LABELS, AG_NEWS_WORD_LABELS].into_iter().filter(|&f| f != labels).map(|f| (f, Labels::None)));
    files.push((AG_NEWS_FOLDED_LABELS, Labels::NegativesOnly));
    ag_news_set_of(csv, &files)
}

/// The AG News items scored on several label files at once, each with the part of its labels
/// that counts; pass [`AG_NEWS_LABELS`] with [`Labels::None`] to score another file alone
/// while the first file's pairs count neither way.
pub fn ag_news_set_of(csv: &str, label_files: &[(&str, Labels)]) -> Result<LabelledSet, String> {
    let rows = ag_news_rows(csv)?;
    let mut set = LabelledSet::default();
    for (i, (title, text)) in rows.into_iter().enumerate() {
        set.items.push(Item {
            key: format!("ag:{i}"),
            source: format!("ag-source-{i}"),
            title,
            text,
            published: 1_100_000_000,
        });
    }
    for &(labels, part) in label_files {
        add_labels(&mut set, labels, part)?;
    }
    Ok(set)
}

fn add_labels(set: &mut LabelledSet, labels: &str, part: Labels) -> Result<(), String> {
    let mut label_line = 0;
    for (n, line) in labels.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let counts = part.counts(label_line);
        label_line += 1;
        let fields: Vec<&str> = line.split('\t').collect();
        let bad = || format!("label line {}: {line:?}", n + 1);
        let [a, b, label] = fields[..] else { return Err(bad()) };
        let (a, b): (usize, usize) = (a.parse().map_err(|_| bad())?, b.parse().map_err(|_| bad())?);
        if a >= set.items.len() || b >= set.items.len() {
            return Err(format!("label line {}: row out of range", n + 1));
        }
        match label {
            "different" if part == Labels::NegativesOnly => set.different.push((a, b)),
            "same" if !counts => {
                set.related.push((a, b));
                set.uncounted_same.push((a, b));
            }
            "related" | "different" if !counts => set.related.push((a, b)),
            "same" => set.same.push((a, b)),
            "related" => set.related.push((a, b)),
            "different" => set.different.push((a, b)),
            _ => return Err(bad()),
        }
    }
    Ok(())
}

/// The (title, description) of each data row of the AG News CSV.
pub fn ag_news_rows(csv: &str) -> Result<Vec<(String, String)>, String> {
    let records = parse_csv(csv);
    let mut out = Vec::with_capacity(records.len());
    for (i, r) in records.into_iter().enumerate().skip(1) {
        match <[String; 3]>::try_from(r) {
            Ok([_, title, text]) => out.push((title, text)),
            Err(r) => return Err(format!("row {i} has {} fields", r.len())),
        }
    }
    Ok(out)
}

/// RFC 4180 records: quoted fields may hold commas, newlines and doubled quotes.
pub fn parse_csv(text: &str) -> Vec<Vec<String>> {
    let mut records = Vec::new();
    let mut record = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            (true, '"') => quoted = false,
            (true, c) => field.push(c),
            (false, '"') => quoted = true,
            (false, ',') => record.push(std::mem::take(&mut field)),
            (false, '\n') => {
                record.push(std::mem::take(&mut field));
                records.push(std::mem::take(&mut record));
            }
            (false, '\r') => {}
            (false, c) => field.push(c),
        }
    }
    if !field.is_empty() || !record.is_empty() {
        record.push(field);
        records.push(record);
    }
    records
}

/// What a syndication partner or a later update does to a story, applied to real items to make
/// the constructed pairs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Edit {
    /// A new headline, taken from the item's own second sentence.
    Headline,
    /// The last ~40% of the text cut (partners run shortened copies).
    Trimmed,
    /// A dateline in front and a newsletter and copyright footer after.
    Boilerplate,
    /// An update: "UPDATE 1-" headline, the tail trimmed, a sentence added, boilerplate.
    Update,
    /// Everything at once: a new headline, the tail cut and boilerplate around (the hardest).
    Rewritten,
}

impl Edit {
    pub const ALL: [Edit; 5] = [Edit::Headline, Edit::Trimmed, Edit::Boilerplate, Edit::Update, Edit::Rewritten];

    pub fn name(self) -> &'static str {
        match self {
            Edit::Headline => "headline",
            Edit::Trimmed => "trimmed",
            Edit::Boilerplate => "boilerplate",
            Edit::Update => "update",
            Edit::Rewritten => "rewritten",
        }
    }

    /// The edited (title, text).
    pub fn apply(self, title: &str, text: &str) -> (String, String) {
        match self {
            Edit::Headline => (headline_from(text).unwrap_or_else(|| format!("In brief: {title}")), text.to_owned()),
            Edit::Trimmed => (title.to_owned(), keep_share(text, 0.6)),
            Edit::Boilerplate => (title.to_owned(), format!("{DATELINE}{text}\n\n{FOOTER}")),
            Edit::Update => {
                let kept = keep_share(text, 0.8);
                (format!("UPDATE 1-{title}"), format!("{DATELINE}{kept} {UPDATE_SENTENCE}\n\n{FOOTER}"))
            }
            Edit::Rewritten => {
                let (headline, _) = Edit::Headline.apply(title, text);
                (headline, format!("{DATELINE}{}\n\n{FOOTER}", keep_share(text, 0.6)))
            }
        }
    }
}

const DATELINE: &str = "NEW YORK (Newswire) - ";
/// A footer of the kind that syndication appends: about 45 words, the same on every item.
pub const FOOTER: &str = "Sign up for our morning briefing to get the day's most important stories delivered to \
your inbox. Reporting by our correspondents; editing by the news desk. Copyright 2026 Newswire. All rights \
reserved. This material may not be published, broadcast, rewritten or redistributed without permission.";
const UPDATE_SENTENCE: &str = "A spokesperson did not immediately respond to a request for comment on Tuesday.";

fn sentences(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let bytes = text.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        let end = matches!(b, b'.' | b'!' | b'?' | b'\n') && bytes.get(i + 1).is_none_or(|n| n.is_ascii_whitespace());
        if end {
            let s = text[start..=i].trim();
            if !s.is_empty() {
                out.push(s);
            }
            start = i + 1;
        }
    }
    let rest = text[start..].trim();
    if !rest.is_empty() {
        out.push(rest);
    }
    out
}

fn headline_from(text: &str) -> Option<String> {
    let s = sentences(text);
    let words: Vec<&str> = s.get(1)?.split_whitespace().take(9).collect();
    (words.len() >= 4).then(|| words.join(" ").trim_end_matches(['.', ',', ';', ':']).to_owned())
}

/// The first sentences holding about `share` of the text's words (at least one sentence).
fn keep_share(text: &str, share: f64) -> String {
    let total = text.split_whitespace().count() as f64;
    let mut kept = Vec::new();
    let mut words = 0usize;
    for s in sentences(text) {
        if !kept.is_empty() && words as f64 >= total * share {
            break;
        }
        words += s.split_whitespace().count();
        kept.push(s);
    }
    kept.join(" ")
}

/// Builds the constructed set from real items `(key, feed, title, text)`: each item, one copy per
/// [`Edit`] under another source (all six are one story), and, for hand-made boilerplate
/// negatives, every item again with the same [`FOOTER`] under a third source. The other items
/// of the same feed are the same-topic negatives; items of one feed are published an hour
/// apart, inside the window.
pub fn constructed_set(originals: &[(String, String, String, String)]) -> LabelledSet {
    let mut set = LabelledSet::default();
    let mut footed: Vec<(usize, String)> = Vec::new();
    for (n, (key, feed, title, text)) in originals.iter().enumerate() {
        let published = 1_700_000_000 + n as i64 * 3600;
        let first = set.items.len();
        set.items.push(Item {
            key: key.clone(),
            source: feed.clone(),
            title: title.clone(),
            text: text.clone(),
            published,
        });
        for (e, edit) in Edit::ALL.into_iter().enumerate() {
            let (t, x) = edit.apply(title, text);
            set.items.push(Item {
                key: format!("{key} [{}]", edit.name()),
                source: format!("partner-{e}"),
                title: t,
                text: x,
                published: published + 600 * (e as i64 + 1),
            });
            set.same.push((first, set.items.len() - 1));
        }
        footed.push((first, feed.clone()));
    }
    // The footer copies: a short item and another of its feed then share only the footer.
    let copies: Vec<(usize, usize)> = footed
        .iter()
        .map(|(original, _)| {
            let o = set.items[*original].clone();
            set.items.push(Item {
                key: format!("{} [footer]", o.key),
                source: "footer-source".into(),
                title: o.title.clone(),
                text: format!("{}\n\n{FOOTER}", o.text),
                published: o.published + 60,
            });
            set.same.push((*original, set.items.len() - 1));
            (*original, set.items.len() - 1)
        })
        .collect();
    for (i, (_, feed_a)) in footed.iter().enumerate() {
        for (j, (_, feed_b)) in footed.iter().enumerate().skip(i + 1) {
            if feed_a == feed_b {
                set.different.push((copies[i].1, copies[j].1));
                set.different.push((footed[i].0, footed[j].0));
            }
        }
    }
    set
}

/// Of the pairs labelled `same` directly whose exact share of shared 3-word shingles (of the
/// smaller item's) lies in `[lo, hi)`: how many were placed in one story, and how many there are.
pub fn recall_by_overlap(set: &LabelledSet, stories: &[usize], lo: f64, hi: f64) -> (usize, usize) {
    use crate::signature::SHINGLE_WORDS;
    use crate::text::{shingles, word_hashes};
    let shingle_set = |i: usize| -> HashSet<u64> {
        let item = &set.items[i];
        let text = if word_hashes(&item.text).is_empty() { &item.title } else { &item.text };
        shingles(&word_hashes(text), SHINGLE_WORDS).into_iter().collect()
    };
    let (mut found, mut total) = (0, 0);
    for &(a, b) in &set.same {
        let (sa, sb) = (shingle_set(a), shingle_set(b));
        let overlap = sa.intersection(&sb).count() as f64 / sa.len().min(sb.len()).max(1) as f64;
        if overlap >= lo && overlap < hi {
            total += 1;
            found += usize::from(stories[a] == stories[b]);
        }
    }
    (found, total)
}

/// One edit measured alone: every original and its copy under that edit in one index (no other
/// copy to chain through). Returns the pair score over original-copy pairs.
pub fn edit_score(originals: &[(String, String, String, String)], edit: Edit, params: &StoryParams) -> PairScore {
    let mut set = LabelledSet::default();
    for (n, (key, feed, title, text)) in originals.iter().enumerate() {
        let published = 1_700_000_000 + n as i64 * 3600;
        set.items.push(Item {
            key: key.clone(),
            source: feed.clone(),
            title: title.clone(),
            text: text.clone(),
            published,
        });
        let (t, x) = edit.apply(title, text);
        set.items.push(Item {
            key: format!("{key} [{}]", edit.name()),
            source: "partner".into(),
            title: t,
            text: x,
            published: published + 600,
        });
        set.same.push((set.items.len() - 2, set.items.len() - 1));
    }
    score(&set, &cluster(&set.items, params))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_fields_keep_commas_quotes_and_newlines() {
        let rows = parse_csv("a,b,c\n3,\"x, \"\"y\"\"\",\"two\nlines\"\n4,t,d");
        assert_eq!(rows.len(), 3);
        assert_eq!(rows[1], vec!["3", "x, \"y\"", "two\nlines"]);
        assert_eq!(rows[2], vec!["4", "t", "d"]);
    }

    #[test]
    fn scores_count_pairs_and_close_labels_transitively() {
        let item = |i: usize| Item {
            key: i.to_string(),
            source: String::new(),
            title: String::new(),
            text: String::new(),
            published: 0,
        };
        let set = LabelledSet {
            items: (0..6).map(item).collect(),
            same: vec![(0, 1), (1, 2)],
            related: vec![(3, 4)],
            different: vec![(0, 5)],
            uncounted_same: Vec::new(),
        };
        // Gold pairs: 0-1, 1-2, 0-2. Predicted: {0,1,5}, {2}, {3,4}.
        let s = score(&set, &[0, 0, 1, 2, 2, 0]);
        assert_eq!((s.true_pairs, s.false_pairs, s.missed_pairs, s.false_labelled_negatives), (1, 2, 2, 1));
        assert!((s.precision() - 1.0 / 3.0).abs() < 1e-9 && (s.recall() - 1.0 / 3.0).abs() < 1e-9);
        // 1-2 not scored (another half's label): folding 0, 1 and 2 scores 0-1, and 0-2, which
        // only the uncounted label implies, counts neither way.
        let half = LabelledSet {
            same: vec![(0, 1)],
            related: vec![(1, 2)],
            uncounted_same: vec![(1, 2)],
            different: Vec::new(),
            ..set
        };
        let s = score(&half, &[0, 0, 0, 1, 2, 3]);
        assert_eq!((s.true_pairs, s.false_pairs, s.missed_pairs), (1, 0, 0));
    }

    #[test]
    fn edits_keep_the_story_and_change_what_syndication_changes() {
        let text = "The council approved the budget on Monday. Spending on schools rises by four percent \
                    next year. Roads get less. The vote was seven to two.";
        let (t, x) = Edit::Headline.apply("Council passes budget", text);
        assert_eq!((t.as_str(), x.as_str()), ("Spending on schools rises by four percent next year", text));
        let (_, x) = Edit::Trimmed.apply("t", text);
        assert!(x.ends_with("next year.") && !x.contains("Roads"));
        let (t, x) = Edit::Update.apply("Council passes budget", text);
        assert!(t.starts_with("UPDATE 1-") && x.contains(FOOTER) && x.contains(UPDATE_SENTENCE));
    }
}
