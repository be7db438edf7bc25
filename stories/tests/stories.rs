//! Story clusters through the public API: what folds, what does not, and pair precision and
//! recall on the labelled sets built from the shared real data (skipped, with a message, when
//! the data is absent).

use std::path::PathBuf;

use stories::eval::{self, LabelledSet};
use stories::{Signature, StoryIndex, StoryParams, Weekdays};

const DAY: i64 = 24 * 3600;
const T0: i64 = 1_700_000_000;

/// A story written for these tests, about 120 words.
const HARBOUR: &str = "The port authority approved a plan on Monday to deepen the northern shipping channel, \
allowing container vessels of up to eighteen thousand units to dock without waiting for the tide. Dredging \
is expected to begin in March and last fourteen months, at a cost the authority put at 410 million. \
Shipping lines had warned that they would move calls to rival ports if the channel stayed shallow. Local \
fishing groups said the work would disturb spawning grounds and asked for a pause during the spring season, \
which the authority said it would consider. The plan still needs an environmental permit from the regional \
government, which is due to rule before the end of the year.";

/// A different story on the same topic, with some shared vocabulary.
const HARBOUR_STRIKE: &str = "Dock workers at the port began a two-day strike on Thursday over shift patterns, \
halting the loading of container vessels at the northern terminals. The union said talks with terminal \
operators had broken down after the operators proposed twelve-hour night shifts without extra pay. Shipping \
lines diverted several calls to rival ports, and queues of trucks formed on the access road by mid-morning. \
The operators said the proposal was needed to handle larger vessels and that they remained open to talks. A \
mediator appointed by the labour ministry is expected to meet both sides on Monday.";

/// A third, unrelated story.
const ORCHESTRA: &str = "The city orchestra announced its new season on Wednesday, opening in September with a \
cycle of symphonies conducted by its incoming music director. Ticket prices for students will fall by a third, \
and two concerts a month will be streamed free of charge. The orchestra also said it would commission five \
works from young composers, to be premiered over the next two seasons, and tour three countries in the spring.";

/// A footer of the length syndication adds, written for these tests.
const FOOTER: &str = "Get the morning newsletter: the five stories you need before nine, every weekday, free. \
Our journalism depends on readers like you; subscribe today and support independent reporting in the region. \
Copyright the publisher. All rights reserved. No part of this article may be reproduced without permission.";

fn sig(title: &str, text: &str) -> Signature {
    Signature::of(title, text)
}

fn index() -> StoryIndex<&'static str> {
    StoryIndex::new(StoryParams::default())
}

#[test]
fn the_same_text_from_two_sources_is_one_story_with_two_sources() {
    let mut index = index();
    let first = index.insert("a", "wire", T0, &sig("Port to deepen shipping channel", HARBOUR));
    assert_eq!(first.story, "a");
    assert_eq!(first.matched, None);
    let second = index.insert("b", "daily", T0 + 3600, &sig("Port to deepen shipping channel", HARBOUR));
    assert_eq!(second.story, "a");
    assert_eq!(second.matched.as_ref().map(|m| m.0), Some("a"));
    let story = index.story_of(&"b").unwrap();
    assert_eq!(story.id, "a");
    assert_eq!(story.docs, vec!["a", "b"]);
    assert_eq!(story.sources, vec!["wire".to_owned(), "daily".to_owned()]);
}

#[test]
fn a_syndicated_copy_with_a_new_headline_markup_and_a_cut_tail_joins_the_story() {
    let mut index = index();
    index.insert("a", "wire", T0, &sig("Port to deepen shipping channel", HARBOUR));
    let cut = HARBOUR.split(". ").take(5).collect::<Vec<_>>().join(". ");
    let copy = format!("<p><b>HARBOUR CITY (Wire)</b> &#8212; {cut}.</p><p>{FOOTER}</p>");
    let title = "Port approves deeper shipping channel for bigger ships";
    let placed = index.insert("b", "daily", T0 + 7200, &sig(title, &copy));
    let s = sig("Port to deepen shipping channel", HARBOUR).similarity(&sig(title, &copy));
    assert_eq!(placed.story, "a", "similarity {s:?}");
    assert!(s.text < 0.7, "the cut and the footer leave {s:?}: the headline's shared words decide");
}

/// An outlet's own rewrite of [`HARBOUR`]: the names, numbers and one sentence's phrases kept,
/// everything else reworded and reordered.
const HARBOUR_REWRITE: &str = "Container vessels of up to eighteen thousand units will be able to dock without \
waiting for the tide once the northern channel is dredged, under a 410 million plan the port authority approved \
on Monday. Work starts in March and lasts fourteen months; shipping lines had warned that they would move calls \
to rival ports. Fishing groups fear for spawning grounds; the regional government must still grant an \
environmental permit.";

#[test]
fn an_outlets_own_rewrite_that_keeps_the_names_and_a_few_phrases_joins_the_story() {
    let original = sig("Port to deepen shipping channel", HARBOUR);
    let rewrite = sig("Port authority backs 410 million channel dredging", HARBOUR_REWRITE);
    let s = original.similarity(&rewrite);
    assert!(s.text < 0.2 && s.containment >= 0.3 && s.words >= 0.35, "{s:?}");
    let mut index = index();
    index.insert("a", "wire", T0, &original);
    assert_eq!(index.insert("b", "daily", T0 + 600, &rewrite).story, "a", "{s:?}");
    // Without the words rules the shingles alone leave it apart.
    let shingles_only = StoryParams {
        with_words: Vec::new(),
        with_rare_words: Vec::new(),
        with_rare_words_same_day: Vec::new(),
        with_own_text: Vec::new(),
        ..StoryParams::default()
    };
    let mut shingles_only = StoryIndex::new(shingles_only);
    shingles_only.insert("a", "wire", T0, &original);
    assert_eq!(shingles_only.insert("b", "daily", T0 + 600, &rewrite).story, "b");
}

#[test]
fn two_outlets_reports_of_one_deal_that_share_its_names_but_no_phrasing_are_one_story() {
    let wire = sig(
        "Ocean Spray buys Northland cranberry plants",
        "Ocean Spray Cranberries agreed on Friday to buy two juice plants and a receiving station in \
         Wisconsin from rival Northland Cranberries for 28 million dollars, ending a long legal fight between \
         the growers.",
    );
    let daily = sig(
        "Northland sells plants to Ocean Spray, settles suit",
        "Northland Cranberries will sell its Wisconsin juice plants and receiving station to rival Ocean \
         Spray for 28 million dollars and the two growers will drop their lawsuits, the companies said.",
    );
    let s = wire.similarity(&daily);
    // A few shared phrases ("28 million dollars"), most content words shared: only the rare-words
    // rule can fold them (the shingle and words rules ask for a third of the shingles).
    assert!(s.text < 0.15 && s.containment < 0.3 && s.rare_words > 0.5 && s.title > 0.1, "{s:?}");
    let mut index = index();
    index.insert("a", "wire", T0, &wire);
    index.insert("x", "wire", T0 + 60, &sig("Port to deepen shipping channel", HARBOUR));
    assert_eq!(index.insert("b", "daily", T0 + 600, &daily).story, "a", "{s:?}");
    let without =
        StoryParams { with_rare_words: Vec::new(), with_rare_words_same_day: Vec::new(), ..StoryParams::default() };
    let mut without = StoryIndex::new(without);
    without.insert("a", "wire", T0, &wire);
    assert_eq!(without.insert("b", "daily", T0 + 600, &daily).story, "b");
    // From the story's own source, rare words alone do not fold: one site's series shares its
    // names from item to item, while its update of an item shares phrasing.
    let mut same_source = StoryIndex::new(StoryParams::default());
    same_source.insert("a", "wire", T0, &wire);
    assert_eq!(same_source.insert("b", "wire", T0 + 600, &daily).story, "b");
}

/// One bombing as a wire reported it, another outlet's report of it, and a like bombing two days
/// later in the wire's words: written for these tests.
const BLAST_WIRE: (&str, &str) = (
    "Car bomb kills six outside Baghdad education ministry",
    "A car bomb exploded outside the Education Ministry in central Baghdad on Tuesday, killing at least six \
     people and wounding eight, the Interior Ministry said.",
);
const BLAST_DAILY: (&str, &str) = (
    "Six dead as car bomb hits Baghdad ministry",
    "At least six people died and eight were hurt on Tuesday when a car bomb went off by the Education \
     Ministry in the Iraqi capital, police said.",
);
const BLAST_THURSDAY: (&str, &str) = (
    "Car bomb kills six outside Baghdad health ministry",
    "A car bomb exploded outside the Health Ministry in central Baghdad on Thursday, killing at least six \
     people and wounding nine, the Interior Ministry said.",
);

#[test]
fn another_outlets_report_naming_the_same_weekday_joins_and_a_like_event_on_another_day_does_not() {
    let (wire, daily, thursday) =
        (sig(BLAST_WIRE.0, BLAST_WIRE.1), sig(BLAST_DAILY.0, BLAST_DAILY.1), sig(BLAST_THURSDAY.0, BLAST_THURSDAY.1));
    let mut index = index();
    index.insert("wire", "wire", T0, &wire);
    index.insert("port", "wire", T0 + 60, &sig("Port to deepen shipping channel", HARBOUR));
    let s = index.similarity_to(&"wire", &daily).unwrap();
    assert_eq!(s.weekdays, Weekdays::Shared);
    assert_eq!(index.insert("daily", "daily", T0 + 600, &daily).story, "wire", "{s:?}");
    // The like event shares the wire's phrasing and most of its words, but names another day.
    let s = index.similarity_to(&"wire", &thursday).unwrap();
    assert!(s.weekdays == Weekdays::Apart && s.title >= 0.5 && s.text < 0.7, "{s:?}");
    assert_eq!(index.insert("thursday", "wire", T0 + 2 * DAY, &thursday).story, "thursday", "{s:?}");
    // Without the weekday condition the shared phrasing and headline fold it.
    let mut blind = StoryIndex::new(StoryParams { text_days_apart: 0.0, ..StoryParams::default() });
    blind.insert("wire", "wire", T0, &wire);
    assert_eq!(blind.insert("thursday", "wire", T0 + 2 * DAY, &thursday).story, "wire");
}

#[test]
fn a_copy_under_a_headline_sharing_no_word_joins_when_no_other_item_carries_its_text() {
    let original = sig("Port to deepen shipping channel", HARBOUR);
    // The second to fourth sentences (the first names the weekday, which another rule weighs).
    let cut = HARBOUR.split(". ").skip(1).take(3).collect::<Vec<_>>().join(". ");
    let copy = sig("Bigger container ships will no longer wait for the tide", &format!("{cut}."));
    let mut index = index();
    index.insert("a", "wire", T0, &original);
    let s = index.similarity_to(&"a", &copy).unwrap();
    assert!(s.title == 0.0 && s.text < 0.7 && s.containment > 0.9 && s.weekdays == Weekdays::Unknown, "{s:?}");
    assert_eq!(index.insert("b", "daily", T0 + 600, &copy).story, "a", "{s:?}");
    let strict = StoryParams { with_own_text: Vec::new(), ..StoryParams::default() };
    let mut strict = StoryIndex::new(strict);
    strict.insert("a", "wire", T0, &original);
    assert_eq!(strict.insert("b", "daily", T0 + 600, &copy).story, "b");
}

#[test]
fn a_sites_standard_lede_under_other_headlines_stops_folding_once_several_items_carry_it() {
    // A site puts the same paragraph before every item's own sentence; the headlines share no word.
    let lede = "This quarter our analysts rank security spending as the fourth priority of large companies, \
                behind cloud migration, data platforms and customer software, for the second year in a row.";
    let items = [
        ("Chip maker unveils faster server line", "The new processors ship in March."),
        ("Retailer posts record holiday sales", "Online orders rose by a third."),
        ("Airline orders forty jets", "Deliveries start next year."),
        ("Regulator fines telecom group", "The fine follows a two-year inquiry."),
    ];
    let place_with = |params: StoryParams, sources: [&'static str; 4]| {
        let mut index = StoryIndex::new(params);
        let ids = ["s1", "s2", "s3", "s4"];
        let at = |n: usize| T0 + n as i64 * 600;
        (0..4)
            .map(|n| index.insert(ids[n], sources[n], at(n), &sig(items[n].0, &format!("{lede} {}", items[n].1))).story)
            .collect::<Vec<_>>()
    };
    let place = |sources| place_with(StoryParams::default(), sources);
    // From the site's own feed: a story holding an item of the source is joined by phrasing only.
    assert_eq!(place(["site"; 4]), vec!["s1", "s2", "s3", "s4"]);
    // Through four aggregators: the second item cannot be told from a copy under a new headline
    // (only the two carry the lede yet); from the third on, the lede fills the buckets it reaches
    // and nothing more folds.
    assert_eq!(place(["agg1", "agg2", "agg3", "agg4"]), vec!["s1", "s1", "s3", "s4"]);
    // Without the crowd condition the lede alone folds them all.
    let blind = StoryParams { own_text_crowd: u32::MAX, ..StoryParams::default() };
    assert_eq!(place_with(blind, ["agg1", "agg2", "agg3", "agg4"]), vec!["s1"; 4]);
}

#[test]
fn different_stories_on_one_topic_stay_apart() {
    let mut index = index();
    index.insert("a", "wire", T0, &sig("Port to deepen shipping channel", HARBOUR));
    let strike = index.insert("b", "wire", T0 + 60, &sig("Dock workers strike at the port", HARBOUR_STRIKE));
    let music = index.insert("c", "arts", T0 + 120, &sig("Orchestra announces season", ORCHESTRA));
    assert_eq!((strike.story, music.story), ("b", "c"));
    assert_eq!(index.story_of(&"a").unwrap().docs, vec!["a"]);
}

#[test]
fn items_that_share_only_boilerplate_stay_apart() {
    let mut index = index();
    // Short teasers, so the shared footer is as long as each item's own text.
    let teaser_a = HARBOUR.split(". ").take(2).collect::<Vec<_>>().join(". ");
    let teaser_b = HARBOUR_STRIKE.split(". ").take(2).collect::<Vec<_>>().join(". ");
    let a = index.insert("a", "daily", T0, &sig("Channel to be deepened", &format!("{teaser_a}. {FOOTER}")));
    let b = index.insert("b", "daily", T0 + 60, &sig("Dockers walk out", &format!("{teaser_b}. {FOOTER}")));
    assert_eq!((a.story, b.story), ("a", "b"));
    let s = sig("Channel to be deepened", &format!("{teaser_a}. {FOOTER}"))
        .similarity(&sig("Dockers walk out", &format!("{teaser_b}. {FOOTER}")));
    assert!(s.text > 0.2, "the footer is a real overlap ({s:?}); the rule, not a lack of overlap, keeps them apart");
}

#[test]
fn an_updated_item_from_the_same_source_folds_and_counts_one_source() {
    let mut index = index();
    index.insert("v1", "wire", T0, &sig("Port to deepen shipping channel", HARBOUR));
    let updated = format!("{HARBOUR} The authority said on Tuesday that bids from dredging firms are due by February.");
    let v2 = index.insert("v2", "wire", T0 + 5 * 3600, &sig("UPDATE 1-Port to deepen shipping channel", &updated));
    assert_eq!(v2.story, "v1");
    let v3 = index.insert("v3", "daily", T0 + 6 * 3600, &sig("Port to deepen shipping channel", HARBOUR));
    assert_eq!(v3.story, "v1");
    let story = index.story_of(&"v3").unwrap();
    assert_eq!(story.docs.len(), 3);
    assert_eq!(story.sources, vec!["wire".to_owned(), "daily".to_owned()], "two distinct sources: the card says +1");
}

#[test]
fn the_same_text_outside_the_window_starts_a_new_story() {
    let mut index = index();
    index.insert("old", "wire", T0, &sig("Port to deepen shipping channel", HARBOUR));
    let later = index.insert("new", "wire", T0 + 10 * DAY, &sig("Port to deepen shipping channel", HARBOUR));
    assert_eq!(later.story, "new");
    assert_eq!(later.matched, None);
}

#[test]
fn a_chain_of_daily_repeats_stops_growing_after_the_story_span() {
    let mut index = index();
    let mut stories = Vec::new();
    let ids = ["d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7", "d8", "d9"];
    for (day, id) in ids.iter().enumerate() {
        stories.push(index.insert(*id, "wire", T0 + day as i64 * DAY, &sig("Channel", HARBOUR)).story);
    }
    // Each repeat is a day after the last (inside the 3-day window), but a story spans 7 days.
    assert_eq!(&stories[..8], &["d0"; 8]);
    assert_eq!(&stories[8..], &["d8", "d8"]);
}

#[test]
fn the_grouping_does_not_depend_on_the_insertion_order() {
    let items: Vec<(&str, &str, String)> = vec![
        ("a", "wire", HARBOUR.to_owned()),
        ("b", "daily", format!("{HARBOUR} {FOOTER}")),
        ("c", "wire", HARBOUR_STRIKE.to_owned()),
        ("d", "arts", ORCHESTRA.to_owned()),
        ("e", "radio", HARBOUR_STRIKE.replace("Thursday", "Friday")),
        ("f", "blog", ORCHESTRA.split(". ").take(3).collect::<Vec<_>>().join(". ")),
    ];
    let groups = |order: &[usize]| {
        let mut index = index();
        for &i in order {
            let (id, source, text) = &items[i];
            index.insert(*id, source, T0 + i as i64, &sig("", text));
        }
        let mut groups: Vec<Vec<&str>> = items
            .iter()
            .map(|(id, _, _)| {
                let mut docs = index.story_of(id).unwrap().docs;
                docs.sort();
                docs
            })
            .collect();
        groups.sort();
        groups.dedup();
        groups
    };
    let forward = groups(&[0, 1, 2, 3, 4, 5]);
    assert_eq!(forward, vec![vec!["a", "b"], vec!["c", "e"], vec!["d", "f"]]);
    assert_eq!(groups(&[5, 4, 3, 2, 1, 0]), forward);
    assert_eq!(groups(&[2, 5, 0, 3, 1, 4]), forward);
}

#[test]
fn inserting_an_id_again_changes_nothing_and_empty_items_join_nothing() {
    let mut index = index();
    index.insert("a", "wire", T0, &sig("Port to deepen shipping channel", HARBOUR));
    let again = index.insert("a", "wire", T0, &sig("Orchestra", ORCHESTRA));
    assert_eq!((again.story, index.len()), ("a", 1));
    let e1 = index.insert("e1", "x", T0, &sig("", "<p> </p>"));
    let e2 = index.insert("e2", "y", T0, &sig("", ""));
    assert_eq!((e1.story, e2.story), ("e1", "e2"));
}

#[test]
fn a_stored_signature_finds_the_same_story_as_a_fresh_one() {
    let stored = sig("Port to deepen shipping channel", HARBOUR).to_hex();
    let mut index = index();
    index.insert("a", "wire", T0, &Signature::from_hex(&stored).unwrap());
    let placed = index.insert("b", "daily", T0, &sig("Port to deepen shipping channel", HARBOUR));
    assert_eq!(placed.story, "a");
    assert_eq!(index.matches(&sig("", HARBOUR), T0), vec![("a", 1.0), ("b", 1.0)]);
}

fn shared_data() -> Option<PathBuf> {
    // `../shared/data` from the project root, or where NEEDL_SHARED_DATA says (a worktree elsewhere).
    let dir = std::env::var_os("NEEDL_SHARED_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/data"));
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("SKIPPED: the shared real data is absent ({} not found)", dir.display());
        None
    }
}

fn print_score(name: &str, set: &LabelledSet, score: &eval::PairScore) {
    eprintln!(
        "{name}: {} items, {} same / {} related / {} different labels; precision {:.3} recall {:.3} F1 {:.3} \
         (true {}, false {}, missed {}, labelled negatives folded {})",
        set.items.len(),
        set.same.len(),
        set.related.len(),
        set.different.len(),
        score.precision(),
        score.recall(),
        score.f1(),
        score.true_pairs,
        score.false_pairs,
        score.missed_pairs,
        score.false_labelled_negatives
    );
}

/// One clustering of the AG News items scored on `files` (the built-in label files that count),
/// whole and by halves; the other built-in file's pairs count neither way.
fn ag_news_scores(csv: &str, stories: &[usize], name: &str, files: &[&str]) -> [eval::PairScore; 3] {
    let parts = [
        ("all labels", eval::Labels::All),
        ("tuning half", eval::Labels::Tuning),
        ("held-out half", eval::Labels::HeldOut),
    ];
    parts.map(|(part_name, part)| {
        let mut label_files: Vec<(&str, eval::Labels)> = files.iter().map(|&f| (f, part)).collect();
        for built_in in [eval::AG_NEWS_LABELS, eval::AG_NEWS_WORD_LABELS] {
            if !files.contains(&built_in) {
                label_files.push((built_in, eval::Labels::None));
            }
        }
        label_files.push((eval::AG_NEWS_FOLDED_LABELS, eval::Labels::NegativesOnly));
        let set = eval::ag_news_set_of(csv, &label_files).expect("labels match the data");
        let score = eval::score(&set, stories);
        print_score(&format!("AG News, {name}, {part_name}"), &set, &score);
        score
    })
}

#[test]
fn real_syndicated_pairs_are_found_with_high_precision() {
    let Some(data) = shared_data() else { return };
    let csv = std::fs::read_to_string(data.join("news-topics/ag_news_test.csv")).expect("AG News test split");
    let both = eval::ag_news_set_of(
        &csv,
        &[
            (eval::AG_NEWS_LABELS, eval::Labels::All),
            (eval::AG_NEWS_WORD_LABELS, eval::Labels::All),
            (eval::AG_NEWS_FOLDED_LABELS, eval::Labels::NegativesOnly),
        ],
    )
    .expect("labels match the data");
    assert_eq!(both.items.len(), 7600, "the AG News test split has 7,600 rows");
    let stories = eval::cluster(&both.items, &StoryParams::default());
    // The rules were tuned on the even label lines of both files; the odd ones judge them.
    let shingle_drawn = ag_news_scores(&csv, &stories, "shingle-drawn labels", &[eval::AG_NEWS_LABELS]);
    let word_drawn = ag_news_scores(&csv, &stories, "word-drawn labels", &[eval::AG_NEWS_WORD_LABELS]);
    let together =
        ag_news_scores(&csv, &stories, "both label files", &[eval::AG_NEWS_LABELS, eval::AG_NEWS_WORD_LABELS]);
    let (score, wrong) = eval::score_and_false_pairs(&both, &stories);
    for (a, b) in &wrong {
        let s = Signature::of(&both.items[*a].title, &both.items[*a].text)
            .similarity(&Signature::of(&both.items[*b].title, &both.items[*b].text));
        let labelled = if both.different.contains(&(*a, *b)) || both.different.contains(&(*b, *a)) {
            "labelled different"
        } else {
            "not labelled"
        };
        eprintln!("  folded, {labelled}: rows {a} and {b} ({s:?})");
    }
    // Floors at the measured figures (docs/stories.md), a little under them so a change that
    // loses pairs fails: `(name, score, precision floor, recall floor, F1 floor)`. Precision is
    // what a feed reader sees. On the shingle-drawn labels the held-out half meets the goal
    // (precision 0.95, F1 0.90); on the word-drawn ones recall is far from it: many are reports
    // of one event by different outlets that share few phrases, and whose words alone do not tell
    // them from reports of a like event (another game, another rate rise, another car bomb).
    let floors = [
        ("shingle-drawn", shingle_drawn[0], 0.95, 0.86, 0.90),
        // 80 true and 4 false pairs: one more false pair is 0.941.
        ("shingle-drawn, held-out", shingle_drawn[2], 0.94, 0.88, 0.90),
        ("word-drawn", word_drawn[0], 0.95, 0.51, 0.67),
        // 93 true and 4 false pairs: one more false pair is 0.949.
        ("word-drawn, held-out", word_drawn[2], 0.95, 0.61, 0.74),
        ("both", together[0], 0.95, 0.62, 0.75),
        ("both, held-out", together[2], 0.95, 0.70, 0.81),
    ];
    for (name, score, precision, recall, f1) in floors {
        assert!(score.precision() >= precision, "{name}: precision {:.3}", score.precision());
        assert!(score.recall() >= recall, "{name}: recall {:.3}", score.recall());
        assert!(score.f1() >= f1, "{name}: F1 {:.3}", score.f1());
    }
    assert!(
        score.false_labelled_negatives <= NEGATIVES_FOLDED,
        "hand-checked negatives folded: {}",
        score.false_labelled_negatives
    );
}

/// Ten labelled negatives fold (all three files): three pairs of items whose text is the same
/// site boilerplate (word for word, or a lede and a few words around it) under headlines that
/// share at most one word, two game previews of one wire's template under one headline, a race
/// preview with the race's result, and four like events weeks apart that AG News gives no dates
/// for and whose texts name no weekday, or the same one (two rate rises, two diverted flights, a
/// manager's remarks before and after a match, two clashes in Gaza), and two reports that share
/// a person's name and a country (the Dalai Lama's envoy in China, his visit to Russia).
const NEGATIVES_FOLDED: usize = 10;

/// Real feed items with at least 60 words of text, up to 15 per feed: `(key, feed, title, text)`.
fn feed_items(data: &std::path::Path) -> Vec<(String, String, String, String)> {
    let mut files: Vec<PathBuf> = ["rss1", "rss2", "atom", "jsonfeed"]
        .iter()
        .filter_map(|d| std::fs::read_dir(data.join("feeds").join(d)).ok())
        .flatten()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for path in files {
        let Ok(bytes) = std::fs::read(&path) else { continue };
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let Ok(feed) = ingest::feeds::parse_feed_bytes(&bytes, &name, None, &Default::default()) else { continue };
        let mut taken = 0;
        for item in feed.items {
            let text = item.full_text.or(item.summary).unwrap_or_default();
            if text.split_whitespace().count() < 60 || taken == 15 {
                continue;
            }
            taken += 1;
            out.push((format!("{name}#{}", item.guid), name.clone(), item.title.unwrap_or_default(), text));
        }
    }
    out
}

#[test]
fn constructed_syndication_edits_of_real_feed_items_are_found() {
    let Some(data) = shared_data() else { return };
    let originals = feed_items(&data);
    assert!(originals.len() >= 100, "feed items with text: {}", originals.len());
    let set = eval::constructed_set(&originals);
    let score = eval::score(&set, &eval::cluster(&set.items, &StoryParams::default()));
    print_score("constructed edits of real feed items", &set, &score);
    for edit in eval::Edit::ALL {
        let alone = eval::edit_score(&originals, edit, &StoryParams::default());
        eprintln!(
            "  {} alone: recall {:.3}, precision {:.3} ({} of {} copies found)",
            edit.name(),
            alone.recall(),
            alone.precision(),
            alone.true_pairs,
            alone.true_pairs + alone.missed_pairs
        );
        assert!(alone.precision() >= 0.95, "{}: precision {:.3}", edit.name(), alone.precision());
        // Measured: every copy found but one update (its added sentence names Tuesday, the
        // original another weekday) and one rewritten copy (docs/stories.md).
        assert!(alone.recall() >= 0.99, "{}: recall {:.3}", edit.name(), alone.recall());
    }
    assert!(score.precision() >= 0.95, "precision {:.3}", score.precision());
    assert!(score.f1() >= 0.90, "F1 {:.3}", score.f1());
}

#[test]
fn forgotten_items_leave_their_story_its_id_and_stop_being_joined() {
    let mut index = index();
    index.insert("old", "wire", T0, &sig("Port to deepen shipping channel", HARBOUR));
    index.insert("copy", "daily", T0 + 2 * DAY, &sig("Port to deepen shipping channel", HARBOUR));
    index.insert("music", "arts", T0 + 2 * DAY, &sig("Orchestra announces season", ORCHESTRA));
    index.forget_before(T0 + DAY);
    assert_eq!(index.len(), 2);
    assert_eq!(index.story_of(&"old"), None);
    let story = index.story_of(&"copy").unwrap();
    assert_eq!((story.id, story.docs), ("old", vec!["copy"]));
    // The remaining items are still found through the rebuilt buckets.
    let again = index.insert("radio", "radio", T0 + 3 * DAY, &sig("Port to deepen shipping channel", HARBOUR));
    assert_eq!(again.story, "old");
    assert_eq!(again.matched.map(|m| m.0), Some("copy"));
    let strike = index.insert("strike", "wire", T0 + 3 * DAY, &sig("Dock strike", HARBOUR_STRIKE));
    assert_eq!(strike.story, "strike");
    assert_eq!(
        index.insert("tune", "blog", T0 + 3 * DAY, &sig("Orchestra announces season", ORCHESTRA)).story,
        "music"
    );
}
