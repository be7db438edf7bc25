//! The index and its queries, on real English text, without the rest of the system.

use std::sync::Arc;

use commands::feed::Cursor;
use search::{Access, Change, Line, PageText, Request, SearchError, SearchIndex, Sort};
use testkit::search::{document, index_of};

fn corpus() -> Arc<SearchIndex> {
    let mut docs = vec![
        document(
            "feed-1",
            None,
            "reuters",
            "rss_news",
            "Steel tariffs raise costs for carmakers",
            "New tariffs on imported steel are raising costs for carmakers, who warn of higher prices.\n\n\
             Analysts expect the duties to stay in place through next year.",
        ),
        document(
            "feed-2",
            None,
            "reuters",
            "rss_news",
            "Central bank holds interest rates",
            "The central bank held interest rates steady on Thursday, citing cooling inflation.",
        ),
        document(
            "feed-3",
            None,
            "ft",
            "rss_news",
            "Aluminium prices climb",
            "Aluminium prices climbed after smelters cut output. Steel was little changed.",
        ),
        document(
            "upload-a",
            Some("alice"),
            "needldrive",
            "drives",
            "Board minutes",
            "Confidential: the board approved the Zanzibar acquisition at a premium.",
        ),
        document(
            "filing-1",
            None,
            "bse",
            "india_regulatory_data",
            "Quarterly results",
            "Tata Steel reported quarterly results with revenue growth of twelve percent.",
        ),
    ];
    docs[4].company = Some("Tata Steel".into());
    docs[4].country = Some("IN".into());
    docs[1].published = Some(1_600_000_000);
    docs[2].published = Some(1_650_000_000);
    index_of(docs)
}

fn bob() -> Access {
    Access::Mine { user_id: "bob".into(), sources: vec!["reuters".into(), "ft".into(), "bse".into()] }
}

fn deeplinks(index: &SearchIndex, req: &Request) -> Vec<String> {
    index.search(req).unwrap().hits.into_iter().map(|h| h.deeplink).collect()
}

#[test]
fn plain_words_rank_by_match_and_stemming_finds_other_forms() {
    let index = corpus();
    let found = index.search(&Request::new("steel tariff", bob())).unwrap();
    assert_eq!(found.hits[0].deeplink, "feed-1", "the document with both words ranks first");
    assert_eq!(found.count, 3, "plain words rank rather than filter: any document with either word counts");
    let got = deeplinks(&index, &Request::new("climbing", bob()));
    assert_eq!(got, vec!["feed-3"], "climbing and climbed share a stem");
}

#[test]
fn boolean_expressions_are_read_strictly() {
    let index = corpus();
    let mut got = deeplinks(&index, &Request::new("steel AND tariffs", bob()));
    assert_eq!(got, vec!["feed-1"]);
    got = deeplinks(&index, &Request::new("steel NOT tariffs", bob()));
    got.sort();
    assert_eq!(got, vec!["feed-3", "filing-1"]);
    got = deeplinks(&index, &Request::new("(inflation OR aluminium) AND NOT smelters", bob()));
    assert_eq!(got, vec!["feed-2"]);
    got = deeplinks(&index, &Request::new("\u{201c}interest rates\u{201d}", bob()));
    assert_eq!(got, vec!["feed-2"], "curly quotes make a phrase");
    got = deeplinks(&index, &Request::new("\"rates interest\"", bob()));
    assert!(got.is_empty(), "a phrase keeps word order");
}

#[test]
fn keyword_errors_carry_the_specified_messages() {
    let index = corpus();
    let messages: Vec<String> = ["(steel", "steel AND", "\"steel"]
        .into_iter()
        .map(|q| index.search(&Request::new(q, bob())).unwrap_err().to_string())
        .collect();
    assert_eq!(
        messages,
        vec![
            "Invalid keyword. Paranthesis are imbalanced.",
            "Invalid keyword. Unused Boolean Operators at ends.",
            "Invalid keyword. Quotes are either imbalanced or not at ends.",
        ]
    );
    let long = "word ".repeat(300);
    assert!(matches!(index.search(&Request::new(long, bob())), Err(SearchError::TooLong)));
}

#[test]
fn nobody_finds_another_users_upload_by_any_query() {
    let index = corpus();
    for q in ["zanzibar", "Zanzibar acquisition", "confidential OR board", "\"board approved\"", "", "minutes"] {
        for access in [bob(), Access::Public, Access::Documents(vec!["feed-1".into()])] {
            let found = index.search(&Request::new(q, access.clone())).unwrap();
            assert!(found.hits.iter().all(|h| h.deeplink != "upload-a"), "{q:?} with {access:?}");
            let (count, by_category) = index.counts(&Request::new(q, access.clone()), "category").unwrap();
            assert!(by_category.iter().all(|(c, _)| c != "drives"), "{q:?} {count}");
        }
        // No spelling suggestion leads to words only the owner's documents hold.
        let suggestion = index.correct("zanzibr", &bob()).unwrap();
        assert_eq!(suggestion, None);
    }
    let alice = Access::Mine { user_id: "alice".into(), sources: vec![] };
    assert_eq!(deeplinks(&index, &Request::new("zanzibar", alice.clone())), vec!["upload-a"]);
    assert_eq!(index.correct("zanzibr", &alice).unwrap().as_deref(), Some("zanzibar"));
}

#[test]
fn unfollowed_sources_are_out_of_my_data_but_in_the_public_corpus() {
    let index = corpus();
    let only_ft = Access::Mine { user_id: "bob".into(), sources: vec!["ft".into()] };
    assert_eq!(deeplinks(&index, &Request::new("steel", only_ft)), vec!["feed-3"]);
    assert_eq!(index.search(&Request::new("steel", Access::Public)).unwrap().count, 3);
}

#[test]
fn category_counts_and_company_facets() {
    let index = corpus();
    let (count, tabs) = index.counts(&Request::new("steel", bob()), "category").unwrap();
    assert_eq!(count, 3);
    assert_eq!(tabs, vec![("rss_news".to_string(), 2), ("india_regulatory_data".to_string(), 1)]);
    let mut req = Request::new("", bob());
    req.countries = vec!["IN".into()];
    let (_, companies) = index.counts(&req, "company").unwrap();
    assert_eq!(companies, vec![("Tata Steel".to_string(), 1)]);
    req.countries = vec!["US".into()];
    assert_eq!(index.counts(&req, "company").unwrap().0, 0);
}

#[test]
fn sorting_filters_and_paging() {
    let index = corpus();
    let mut req = Request::new("", bob());
    req.categories = vec!["rss_news".into()];
    req.sort = Sort::Published;
    assert_eq!(deeplinks(&index, &req), vec!["feed-1", "feed-3", "feed-2"]);
    req.descending = false;
    assert_eq!(deeplinks(&index, &req), vec!["feed-2", "feed-3", "feed-1"]);
    req.published = Some((1_640_000_000, 1_700_000_000));
    assert_eq!(deeplinks(&index, &req), vec!["feed-3", "feed-1"]);
    req.published = None;
    req.limit = 1;
    req.offset = 1;
    let page = index.search(&req).unwrap();
    assert_eq!((page.count, page.hits.len(), page.hits[0].deeplink.as_str()), (3, 1, "feed-3"));
    req.sources = vec!["ft".into()];
    req.offset = 0;
    assert_eq!(deeplinks(&index, &req), vec!["feed-3"]);
}

#[test]
fn highlights_mark_the_words_in_the_best_passage_and_keep_its_place() {
    let mut d = document("pdf-1", Some("bob"), "needldrive", "drives", "Annual report", "");
    d.pages = vec![
        PageText { text: "Chairman's letter.\n\nWe thank our shareholders.".into(), lines: vec![] },
        PageText {
            text: "Net revenue rose to <b>4.2bn</b> & margins widened.".into(),
            lines: vec![Line {
                text: "Net revenue rose to <b>4.2bn</b> & margins widened.".into(),
                bbox: [1.0, 2.0, 3.0, 4.0],
            }],
        },
    ];
    let index = index_of([d]);
    let access = Access::Mine { user_id: "bob".into(), sources: vec![] };
    let found = index.search(&Request::new("revenue margins", access)).unwrap();
    let highlight = &found.hits[0].highlights[0];
    assert_eq!(highlight.page, 2);
    assert_eq!(highlight.boxes, vec![[1.0, 2.0, 3.0, 4.0]]);
    assert_eq!(highlight.html, "Net <em>revenue</em> rose to &lt;b&gt;4.2bn&lt;/b&gt; &amp; <em>margins</em> widened.");
    let (s, e) = highlight.marks[0];
    let marked: String = highlight.text.chars().skip(s as usize).take((e - s) as usize).collect();
    assert_eq!(marked, "revenue");
}

#[test]
fn spelling_is_corrected_from_the_reachable_vocabulary() {
    let index = corpus();
    assert_eq!(index.correct("inflaton", &bob()).unwrap().as_deref(), Some("inflation"));
    assert_eq!(index.correct("Steel tarifs", &bob()).unwrap().as_deref(), Some("Steel tariffs"));
    assert_eq!(index.correct("steel", &bob()).unwrap(), None, "known words are left alone");
}

#[test]
fn updates_replace_and_deletes_remove_a_document_with_its_passages() {
    let index = corpus();
    let mut changed = document("feed-2", None, "reuters", "rss_news", "Central bank cuts rates", "A surprise cut.");
    changed.published = Some(1_600_000_000);
    index.apply_blocking(vec![Change::Upsert(Box::new(changed))], None).unwrap();
    assert!(deeplinks(&index, &Request::new("inflation", bob())).is_empty());
    assert_eq!(deeplinks(&index, &Request::new("surprise", bob())), vec!["feed-2"]);
    let before = index.passages();
    index.apply_blocking(vec![Change::Delete("feed-2".into())], None).unwrap();
    assert!(deeplinks(&index, &Request::new("surprise", bob())).is_empty());
    assert_eq!(index.passages(), before - 1);
    assert_eq!(index.documents(), 4);
}

#[test]
fn the_checkpoint_survives_a_reopen_and_a_reset_clears_it() {
    let dir = tempfile::tempdir().unwrap();
    {
        let index = SearchIndex::open(dir.path(), 1).unwrap();
        let d = document("feed-9", None, "ft", "rss_news", "Copper", "Copper output fell.");
        index.apply_blocking(vec![Change::Upsert(Box::new(d))], Some(Cursor { tx: 0, pos: 42 })).unwrap();
    }
    let index = SearchIndex::open(dir.path(), 1).unwrap();
    assert_eq!(index.checkpoint(), Cursor { tx: 0, pos: 42 });
    assert_eq!(index.documents(), 1);
    index.reset().unwrap();
    assert_eq!((index.checkpoint(), index.documents()), (Cursor::default(), 0));
}

#[test]
fn deleting_a_source_in_a_category_removes_only_its_entries_there() {
    let index = index_of([
        document("note:1", Some("bob"), "notebook-1", "notes", "Plant", "Boiler corrosion near the flanges."),
        document("note:2", Some("bob"), "notebook-2", "notes", "Pumps", "Boiler pumps need gaskets."),
        document("drive-1", Some("bob"), "notebook-1", "drives", "Manual", "Boiler manual."),
    ]);
    let before = index.passages();
    let change = Change::DeleteAll { source_id: "notebook-1".into(), category: "notes".into() };
    index.apply_blocking(vec![change], None).unwrap();
    let mut left = deeplinks(&index, &Request::new("boiler", bob()));
    left.sort();
    assert_eq!(left, vec!["drive-1", "note:2"]);
    assert_eq!(index.passages(), before - 1);
}

#[test]
fn the_passages_before_one_are_read_back_in_order() {
    let paragraph = |n: usize| format!("Paragraph {n} {}", "of the annual report ".repeat(40));
    let text: Vec<String> = (0..4).map(paragraph).collect();
    let index =
        index_of([document("file-1", Some("bob"), "needldrive", "drives", "Annual report", &text.join("\n\n"))]);
    let before = index.passages_before("file-1", 3, 2).unwrap();
    assert_eq!(before.len(), 2);
    assert!(before[0].starts_with("Paragraph 1 ") && before[1].starts_with("Paragraph 2 "), "{before:?}");
    assert!(index.passages_before("file-1", 0, 2).unwrap().is_empty());
    assert!(index.passages_before("no-such-file", 3, 2).unwrap().is_empty());
}

#[test]
fn a_table_row_is_found_as_a_passage_of_its_own_and_is_never_read_as_text_before_a_passage() {
    let text = "Years Ended September 30,\n2019\t2018\nTotal sales\t$1,496.5\t$1,202.9\nOther\t44.1\t56.7";
    let index = index_of([document("file-1", Some("bob"), "needldrive", "drives", "Annual report", text)]);
    assert_eq!(index.passages(), 3, "the table's passage and one per row");
    let mut req = Request::new("total sales", bob());
    req.highlights = 3;
    let hit = &index.search(&req).unwrap().hits[0];
    let row = hit.highlights.iter().find(|h| h.table_row).expect("the row is among the highlights");
    assert_eq!(row.text, "Total sales \u{2014} 2019: $1,496.5; 2018: $1,202.9\nYears Ended September 30,");
    assert_eq!((row.ordinal, row.page), (1, 1));
    let line: String = text.chars().skip(row.start as usize).take((row.end - row.start) as usize).collect();
    assert_eq!(line, "Total sales\t$1,496.5\t$1,202.9");
    assert!(hit.highlights.iter().filter(|h| !h.table_row).all(|h| h.ordinal == 0));
    assert_eq!(index.passages_before("file-1", 3, 3).unwrap(), vec![text.to_string()]);
}

/// Similarities read from a table: what the service's embeddings give, without the model.
struct Table(Vec<(String, f32)>);

impl search::Similarity for Table {
    fn similarities(&self, _query: &str, deeplinks: &[String]) -> Option<Vec<Option<f32>>> {
        Some(deeplinks.iter().map(|d| self.0.iter().find(|(k, _)| k == d).map(|(_, s)| *s)).collect())
    }
}

#[test]
fn a_hybrid_search_reorders_the_keyword_matches_only_and_keeps_their_count_and_highlights() {
    let index = corpus();
    let req = Request::new("steel prices", bob());
    let keyword = index.search(&req).unwrap();
    let order: Vec<&str> = keyword.hits.iter().map(|h| h.deeplink.as_str()).collect();
    assert_eq!(order.len(), 3);
    // The embeddings find the keyword runner-up the closest and the keyword winner the furthest,
    // and the upload (which bob may not read) closer still: it must not appear.
    let similar = Table(
        [(order[1], 0.9), (order[2], 0.5), (order[0], 0.1), ("upload-a", 0.99)]
            .map(|(d, s)| (d.to_string(), s))
            .to_vec(),
    );
    let hybrid = index.search_ranked(&req, Some(&similar)).unwrap();
    let got: Vec<&str> = hybrid.hits.iter().map(|h| h.deeplink.as_str()).collect();
    assert_eq!(hybrid.count, keyword.count, "the same documents match");
    // Fused as `hybrid::fuse` weighs the keyword scores and these similarities: the runner-up,
    // by far the most similar, first.
    let (ranked, _) = index.ranking(&req, search::hybrid::POOL).unwrap();
    let scores: Vec<f32> = ranked.iter().map(|(_, score)| *score).collect();
    let fused = search::hybrid::fuse(&scores, &[Some(0.1), Some(0.9), Some(0.5)]);
    assert_eq!(got, fused.into_iter().map(|i| order[i]).collect::<Vec<_>>());
    assert_eq!(got[0], order[1]);
    assert!(!got.contains(&"upload-a"), "access is the index's: a similar unreadable document stays out");
    assert!(hybrid.hits.iter().all(|h| !h.highlights.is_empty()), "every hit keeps its highlights");

    // Paging: one result a page walks the same fused order, nothing twice.
    let mut paged = Vec::new();
    for offset in 0..4 {
        let mut page = req.clone();
        page.offset = offset;
        page.limit = 1;
        paged.extend(index.search_ranked(&page, Some(&similar)).unwrap().hits.into_iter().map(|h| h.deeplink));
    }
    assert_eq!(paged, got);

    // An expression with operators, a date sort or no embeddings at all: the keyword order.
    let strict = Request::new("steel OR prices", bob());
    assert_eq!(deeplinks(&index, &strict), {
        let found = index.search_ranked(&strict, Some(&similar)).unwrap();
        found.hits.into_iter().map(|h| h.deeplink).collect::<Vec<_>>()
    });
    let mut by_date = req.clone();
    by_date.sort = Sort::Published;
    let dated: Vec<String> =
        index.search_ranked(&by_date, Some(&similar)).unwrap().hits.into_iter().map(|h| h.deeplink).collect();
    assert_eq!(dated, deeplinks(&index, &by_date));
    let none: Vec<String> = index.search_ranked(&req, None).unwrap().hits.into_iter().map(|h| h.deeplink).collect();
    assert_eq!(none, order);
}
