//! The assistant over a real tantivy index (the search crate's, in memory) holding short real-world
//! news texts, and the chat-completions engine against a small streaming server on port 0.

mod fuzz_replay;

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use assistant::text::normalize;
use assistant::{
    retrieve, Answer, AnswerEngine, AnswerQuality, Assistant, AssistantError, Event, Events, ExtractiveEngine,
    OpenAiCompatibleEngine, OpenAiConfig, Question, Retrieval, Scope, Settings,
};
use search::{Access, Line, PageText, SearchIndex};
use testkit::http::{chunk, json_reply, read_request, SSE_HEAD};
use testkit::search::{document, index_of};
use tokio::io::AsyncWriteExt;
use tokio::net::TcpListener;

const TARIFFS: &str = "The United States imposed a 25 percent tariff on imported steel in March 2018, citing national \
security under Section 232 of the Trade Expansion Act.\n\nCarmakers warned that the duties would raise vehicle \
prices, because steel accounts for a large share of the cost of a car body. Ford said the tariffs cost the company \
about $1 billion in higher metal costs.\n\nThe European Union responded with retaliatory duties on American whiskey, \
motorcycles and orange juice.";

const TARIFF_HISTORY: [&str; 6] = [
    "Tariffs on steel have a long history in American trade policy. In 2002 President George W. Bush imposed \
     safeguard tariffs of up to 30 percent on imported steel, which were withdrawn after the World Trade \
     Organization ruled against them.",
    "Economists at the Peterson Institute estimated that the 2002 steel tariffs cost more jobs in steel-using \
     industries than the total employment of the steel mills they protected.",
    "Steel tariffs raise input costs for manufacturers of appliances, machinery and cans, who pass part of the \
     increase on to consumers in the form of higher prices.",
    "Domestic steel producers, by contrast, reported higher capacity utilisation after the tariffs, and several \
     idled furnaces were restarted in Ohio and Illinois.",
    "Trading partners challenged the steel tariffs at the World Trade Organization, arguing that the national \
     security justification was a disguised form of protectionism.",
    "Some tariffs were later replaced by quotas for allies such as South Korea, Brazil and Argentina, which \
     agreed to limit their steel exports to the United States.",
];

fn corpus() -> Arc<SearchIndex> {
    let mut annual =
        document("annual-report", Some("bob"), "needldrive", "drives", "Harbor Foods annual report 2023", "");
    let page2 =
        "Net revenue rose to 4.2 billion dollars in 2023, up 12 percent.\nOperating margin widened to 9 percent.";
    annual.pages = vec![
        PageText { text: "Chairman's letter.\n\nWe thank our shareholders for their patience.".into(), lines: vec![] },
        PageText {
            text: page2.into(),
            lines: vec![
                Line {
                    text: "Net revenue rose to 4.2 billion dollars in 2023, up 12 percent.".into(),
                    bbox: [72.0, 100.0, 520.0, 114.0],
                },
                Line { text: "Operating margin widened to 9 percent.".into(), bbox: [72.0, 116.0, 300.0, 130.0] },
            ],
        },
    ];
    let docs = vec![
        document("tariffs", None, "reuters", "rss_news", "Steel tariffs raise costs for carmakers", TARIFFS),
        // The same wire story in a second feed: a duplicate passage.
        document("tariffs-copy", None, "wire", "rss_news", "Steel tariffs raise costs for carmakers", TARIFFS),
        document(
            "ford-earnings",
            None,
            "ft",
            "rss_news",
            "Ford trims outlook",
            "Ford cut its full-year profit outlook on Wednesday. Ford said the tariffs cost the company about $1 \
             billion in higher metal costs. The carmaker also flagged weaker demand for sedans in China, where sales \
             dropped for a fourth straight quarter.",
        ),
        document(
            "tariff-history",
            None,
            "reuters",
            "rss_news",
            "A short history of steel tariffs",
            &TARIFF_HISTORY.join("\n\n"),
        ),
        document(
            "rbi-rates",
            None,
            "reuters",
            "rss_news",
            "RBI holds repo rate",
            "The Reserve Bank of India kept its benchmark repo rate unchanged at 6.5 percent on Thursday, citing \
             sticky food inflation. Governor Shaktikanta Das said the monetary policy committee voted 4-2 to hold \
             rates.",
        ),
        document(
            "kestrel",
            None,
            "mining-weekly",
            "rss_news",
            "Kestrel Mining results",
            "Kestrel Mining reported that its annual profit fell by 40 percent. Management blamed the cobalt glut \
             for the decline, saying cobalt prices had collapsed.",
        ),
        document(
            "cobalt",
            None,
            "metals-daily",
            "rss_news",
            "Why the cobalt glut happened",
            "The cobalt glut began when Congolese producers expanded output faster than battery makers could absorb \
             it. Prices of the metal halved within a year, and traders expect the surplus to last until 2026.",
        ),
        document(
            "zanzibar",
            Some("alice"),
            "needldrive",
            "drives",
            "Project Falcon board minutes",
            "Confidential. The board approved the acquisition of Zanzibar Shipping for 2.3 billion dollars, to be \
             announced after the steel tariffs ruling.",
        ),
        document(
            "bob-attachment",
            Some("bob"),
            "ask_needl",
            "attachments",
            "Supplier memo",
            "Our supplier in Pune raised steel coil prices by 8 percent after the tariffs took effect.",
        ),
        annual,
    ];
    index_of(docs)
}

fn bob() -> Access {
    Access::Mine {
        user_id: "bob".into(),
        sources: ["reuters", "wire", "ft", "mining-weekly", "metals-daily"].map(String::from).to_vec(),
    }
}

fn retrieval(index: &SearchIndex, question: &str, scope: Scope, pro: bool) -> Retrieval {
    retrieve(index, question, &scope, &bob(), &Settings::for_mode(pro)).unwrap()
}

fn extractive(index: &SearchIndex, question: &str) -> (Retrieval, Answer) {
    let r = retrieval(index, question, Scope::Home, false);
    let answer = assistant::extractive::compose(&r, false);
    (r, answer)
}

/// Every sentence of the answer is, whitespace aside, text of a passage it cites; a computed one
/// has each of its inputs written in the passage it cites.
fn assert_nothing_invented(answer: &Answer) {
    for s in &answer.generated_answer.sentences {
        assert!(!s.citations.is_empty(), "{:?} cites nothing", s.sentence);
        if let Some(computed) = &s.computed {
            let passages: Vec<&str> = answer.retrieved_results.iter().map(|c| c.context.as_str()).collect();
            assert!(computed.holds(&passages), "{:?} does not follow from its cited inputs", s.sentence);
            continue;
        }
        let found = s.citations.iter().any(|n| {
            let cited = &answer.retrieved_results[*n as usize - 1];
            assert_eq!(cited.id, *n);
            normalize(&cited.context).contains(&normalize(&s.sentence))
        });
        assert!(found, "{:?} is in none of its cited passages {:?}", s.sentence, s.citations);
    }
}

/// Two companies' annual reports that use the same words, and a note that names neither.
fn filings() -> Arc<SearchIndex> {
    let filing = |deeplink: &str, company: &str, text: &str| {
        let mut doc =
            document(deeplink, Some("bob"), "needldrive", "drives", &format!("{company} — 10-K — FY2024"), text);
        doc.company = Some(company.to_string());
        doc
    };
    index_of([
        filing(
            "orchard-10k",
            "Orchard Fields Inc.",
            "Net sales were 391 billion dollars in fiscal 2024, up 2 percent. Services net sales grew 13 percent.",
        ),
        filing(
            "pinecrest-10k",
            "Pinecrest Beverages, Inc.",
            "Net sales were 91 billion dollars in fiscal 2024, flat on the year. Net sales of snacks fell 1 percent \
             while net sales of drinks rose. Net sales in Europe grew.",
        ),
        document("memo", Some("bob"), "needldrive", "drives", "Memo", "Net sales targets for the sales team."),
    ])
}

#[test]
fn a_question_naming_a_company_is_answered_from_that_companys_documents() {
    let index = filings();
    let r = retrieval(&index, "What were Orchard Fields' net sales in fiscal 2024?", Scope::Home, false);
    assert_eq!(r.companies, ["Orchard Fields Inc."]);
    assert!(!r.passages.is_empty());
    assert!(r.passages.iter().all(|p| p.deeplink == "orchard-10k"), "{:?}", r.passages);

    // Naming no company searches everything, where the other filing says "net sales" more often.
    let r = retrieval(&index, "What were net sales in fiscal 2024?", Scope::Home, false);
    assert!(r.companies.is_empty());
    assert!(r.passages.iter().any(|p| p.deeplink == "pinecrest-10k"), "{:?}", r.passages);
}

/// One company's annual reports for two fiscal years: the later one compares with the earlier
/// year, so both speak of 2018's revenue, the later one more often. With `memo`, a note tagged
/// with no period that speaks of it too.
fn two_years(memo: bool) -> Arc<SearchIndex> {
    let filing = |deeplink: &str, year: &str, text: &str| {
        let mut doc = document(
            deeplink,
            Some("bob"),
            "needldrive",
            "drives",
            &format!("Orchard Fields Inc. — 10-K — FY{year}"),
            text,
        );
        doc.company = Some("Orchard Fields Inc.".to_string());
        doc.periods = vec![year.to_string()];
        doc
    };
    let mut docs = vec![
        filing(
            "orchard-fy2019",
            "2019",
            "Revenue was 12.1 billion dollars in fiscal 2019, against 10.4 billion dollars of revenue in fiscal 2018. \
             Revenue in fiscal 2018 had been held back by a weak harvest.",
        ),
        filing("orchard-fy2018", "2018", "Revenue rose to 10.4 billion dollars in fiscal 2018 on orchard expansion."),
    ];
    if memo {
        docs.push(document(
            "memo",
            Some("bob"),
            "needldrive",
            "drives",
            "Memo",
            "Revenue in fiscal 2018 and fiscal 2019, and revenue targets for fiscal 2020, are in the board pack.",
        ));
    }
    index_of(docs)
}

#[test]
fn a_question_naming_a_fiscal_year_is_answered_from_that_years_filing() {
    let index = two_years(false);
    // By its words alone the later filing, which says more about 2018's revenue, would lead.
    let r = retrieval(&index, "What was revenue in fiscal 2018?", Scope::Home, false);
    assert_eq!(r.periods, ["2018"]);
    assert!(!r.passages.is_empty());
    // Both documents are annual reports tagged with their year: the one of FY2018 is the one asked about.
    assert!(r.passages.iter().all(|p| p.deeplink == "orchard-fy2018"), "{:?}", r.passages);
    let answer = assistant::extractive::compose(&r, false);
    assert!(
        answer.generated_answer.answer.starts_with("Revenue rose to 10.4 billion"),
        "{}",
        answer.generated_answer.answer
    );
    let r = retrieval(&index, "What was Orchard Fields' revenue in FY2018?", Scope::Home, false);
    assert!(r.passages.iter().all(|p| p.deeplink == "orchard-fy2018"), "{:?}", r.passages);
    // Naming no period, or a period no document covers, leaves both filings in.
    for question in ["What was revenue in fiscal years?", "What was revenue in fiscal 2016?"] {
        let r = retrieval(&index, question, Scope::Home, false);
        let documents: HashSet<&str> = r.passages.iter().map(|p| p.deeplink.as_str()).collect();
        assert_eq!(documents.len(), 2, "{question}: {:?}", r.passages);
    }
}

#[test]
fn a_named_period_leads_but_does_not_drop_documents_of_no_period() {
    let index = two_years(true);
    let r = retrieval(&index, "What was revenue in fiscal 2018?", Scope::Home, false);
    assert_eq!(r.passages[0].deeplink, "orchard-fy2018", "{:?}", r.passages);
    assert!(r.passages.iter().any(|p| p.deeplink == "memo"), "a note of no period may still answer: {:?}", r.passages);
    // Two periods named: both years' filings are preferred, neither is dropped.
    let r = retrieval(&index, "How did revenue change from fiscal 2018 to fiscal 2019?", Scope::Home, false);
    assert_eq!(r.periods, ["2018", "2019"]);
    let documents: HashSet<&str> = r.passages.iter().map(|p| p.deeplink.as_str()).collect();
    assert!(documents.contains("orchard-fy2018") && documents.contains("orchard-fy2019"), "{:?}", r.passages);
}

#[test]
fn a_named_company_whose_documents_match_nothing_leaves_the_whole_scope_searched() {
    let mut tagged = document("tagged", Some("bob"), "needldrive", "drives", "Annual report", "Revenue rose.");
    tagged.company = Some("Pinecrest Beverages, Inc.".into());
    let mut other = document("other", Some("bob"), "needldrive", "drives", "Quarterly letter", "Margins held.");
    other.company = Some("Orchard Fields Inc.".into());
    let memo =
        document("memo", Some("bob"), "needldrive", "drives", "Memo", "Pinecrest set sales targets for the team.");
    let index = index_of([tagged, other, memo]);
    let r = retrieval(&index, "Which sales targets did Pinecrest set?", Scope::Home, false);
    assert!(r.companies.is_empty(), "{:?}", r.companies);
    assert!(r.passages.iter().any(|p| p.deeplink == "memo"), "{:?}", r.passages);
}

#[test]
fn the_extractive_answer_cites_the_passage_that_holds_the_answer() {
    let index = corpus();
    let (r, answer) = extractive(&index, "How much did the tariffs cost Ford?");
    let first = &answer.generated_answer.sentences[0];
    assert!(first.sentence.contains("$1 billion"), "{:?}", answer.generated_answer);
    for n in &first.citations {
        assert!(answer.retrieved_results[*n as usize - 1].context.contains("$1 billion"));
    }
    assert!(answer.generated_answer.answer.starts_with(&format!("{} [", first.sentence)));
    assert_eq!(answer.answer_quality, AnswerQuality::High);
    assert_eq!(answer.answer_quality_message, None);
    assert_nothing_invented(&answer);
    assert!(r.passages.iter().all(|p| p.title.len() > 3 && p.published == Some(1_700_000_000)));
    // The cited sentence is what the source highlights.
    let cited = &answer.retrieved_results[first.citations[0] as usize - 1];
    let (s, e) = cited.highlight_indexes[0];
    let marked: String = cited.context.chars().skip(s as usize).take((e - s) as usize).collect();
    assert_eq!(normalize(&marked), first.sentence);
}

#[test]
fn a_repeated_sentence_appears_once_citing_every_passage_that_holds_it() {
    let index = corpus();
    let (_, answer) = extractive(&index, "How much did the tariffs cost Ford?");
    let ford: Vec<_> =
        answer.generated_answer.sentences.iter().filter(|s| s.sentence.starts_with("Ford said the tariffs")).collect();
    assert_eq!(ford.len(), 1, "{:#?}", answer.generated_answer.sentences);
    let documents: HashSet<&str> =
        ford[0].citations.iter().map(|n| answer.retrieved_results[*n as usize - 1].document_id.as_str()).collect();
    assert_eq!(documents.len(), 2, "both the wire story and the earnings story hold it: {documents:?}");
}

#[test]
fn a_list_question_gets_a_heading_and_bullets() {
    let index = corpus();
    let (_, answer) = extractive(&index, "What are the effects of steel tariffs on manufacturers and consumers?");
    let markdown = &answer.generated_answer.answer;
    assert!(markdown.starts_with("### Effects of steel tariffs on manufacturers and consumers\n\n- "), "{markdown}");
    let bullets = markdown.lines().filter(|l| l.starts_with("- ")).count();
    assert_eq!(bullets, answer.generated_answer.sentences.len());
    assert!(bullets >= 2, "{markdown}");
    assert_nothing_invented(&answer);
}

#[test]
fn a_comparison_gets_a_heading_per_document() {
    let index = corpus();
    let (_, answer) = extractive(&index, "Compare the steel tariffs of 2002 and 2018");
    let headings = answer.generated_answer.answer.lines().filter(|l| l.starts_with("### ")).count();
    assert!(headings >= 2, "{}", answer.generated_answer.answer);
    assert_nothing_invented(&answer);
}

#[test]
fn weak_evidence_is_labelled_low_with_the_specified_text() {
    let index = corpus();
    let (_, answer) = extractive(&index, "What did the European Union decide about tungsten export quotas?");
    assert_eq!(answer.answer_quality, AnswerQuality::Low);
    assert_eq!(
        answer.answer_quality_message.as_deref(),
        Some("We found that the answer may not be satisfactory. Please verify the information or rephrase your question.")
    );
    assert_nothing_invented(&answer);
    let (_, nothing) = extractive(&index, "quasar spectroscopy");
    assert_eq!((nothing.answer_quality, nothing.generated_answer.sentences.len()), (AnswerQuality::Low, 0));
    assert!(nothing.generated_answer.answer.is_empty(), "no evidence, no text");
}

#[test]
fn no_answer_sentence_is_invented_for_any_question() {
    let index = corpus();
    for q in [
        "Why did the Reserve Bank of India hold rates?",
        "What did the European Union do in response to the tariffs?",
        "List the goods hit by retaliatory duties",
        "How did domestic steel producers fare?",
        "Who is the RBI governor?",
        "tariffs",
    ] {
        let (_, answer) = extractive(&index, q);
        assert!(!answer.generated_answer.sentences.is_empty(), "{q}");
        assert_nothing_invented(&answer);
        assert!(!answer.followup_questions.is_empty(), "{q}");
    }
}

#[test]
fn follow_up_questions_come_from_the_retrieved_material() {
    let index = corpus();
    let (r, answer) = extractive(&index, "Why did the Reserve Bank of India hold rates?");
    let material: String = r.passages.iter().map(|p| format!("{} {} ", p.title, p.text)).collect();
    for q in &answer.followup_questions {
        let subject = q
            .strip_prefix("What do the sources say about ")
            .or_else(|| q.strip_prefix("What else does \u{201c}"))
            .map(|s| s.trim_end_matches(['?', '\u{201d}']).trim_end_matches("\u{201d} report"))
            .unwrap_or_else(|| panic!("unexpected follow-up {q}"));
        assert!(material.contains(subject), "{subject:?} is not in the passages");
    }
    assert!(answer.followup_questions.iter().any(|q| q.contains("Shaktikanta Das")), "{:?}", answer.followup_questions);
}

#[test]
fn selection_keeps_documents_diverse_and_drops_duplicate_passages() {
    let index = corpus();
    let r = retrieval(&index, "steel tariffs costs", Scope::Home, false);
    let mut per_document = std::collections::HashMap::new();
    for p in &r.passages {
        *per_document.entry(p.deeplink.as_str()).or_insert(0) += 1;
    }
    assert!(per_document.values().all(|&n| n <= 2), "{per_document:?}");
    assert!(per_document.len() >= 3, "{per_document:?}");
    assert!(
        !(per_document.contains_key("tariffs") && per_document.contains_key("tariffs-copy")),
        "the same wire story twice: {per_document:?}"
    );
    let numbers: Vec<u32> = r.passages.iter().map(|p| p.number).collect();
    assert_eq!(numbers, (1..=r.passages.len() as u32).collect::<Vec<_>>());
    // The long history has more passages than it may contribute.
    let mut only_history = Settings::standard();
    only_history.diversity.keep = 10;
    let history =
        retrieve(&index, "steel tariffs", &Scope::Documents(vec!["tariff-history".into()]), &bob(), &only_history)
            .unwrap();
    assert_eq!(history.passages.len(), 2, "{:?}", history.passages.iter().map(|p| p.ordinal).collect::<Vec<_>>());
}

#[test]
fn nobody_retrieves_a_passage_of_a_document_they_may_not_read() {
    let index = corpus();
    let q = "What did the board approve for Zanzibar Shipping after the steel tariffs ruling?";
    let readable = [
        "tariffs",
        "tariffs-copy",
        "ford-earnings",
        "tariff-history",
        "rbi-rates",
        "kestrel",
        "cobalt",
        "bob-attachment",
        "annual-report",
    ];
    for scope in [
        Scope::Home,
        Scope::Documents(vec!["zanzibar".into()]),
        Scope::Documents(vec!["zanzibar".into(), "tariffs".into()]),
        Scope::Sources(vec!["needldrive".into()]),
        Scope::Attachments(vec![]),
        Scope::Universe,
    ] {
        for pro in [false, true] {
            let r = retrieval(&index, q, scope.clone(), pro);
            for p in &r.passages {
                assert!(readable.contains(&p.deeplink.as_str()), "{scope:?} pro={pro} reached {}", p.deeplink);
            }
            let answer = assistant::extractive::compose(&r, pro);
            assert!(!answer.generated_answer.answer.contains("Zanzibar"), "{scope:?}");
        }
    }
    // A channel's rule (exactly its shared documents) is kept too.
    let channel = Access::Documents(vec!["rbi-rates".into()]);
    let r = retrieve(&index, "steel tariffs inflation", &Scope::Home, &channel, &Settings::pro()).unwrap();
    assert!(r.passages.iter().all(|p| p.deeplink == "rbi-rates"), "{:?}", r.passages);
    // The owner finds it.
    let alice = Access::Mine { user_id: "alice".into(), sources: vec![] };
    let r = retrieve(&index, q, &Scope::Home, &alice, &Settings::standard()).unwrap();
    assert_eq!(r.passages[0].deeplink, "zanzibar");
}

#[test]
fn scopes_narrow_what_is_searched() {
    let index = corpus();
    let attachments = retrieval(&index, "steel prices", Scope::Attachments(vec![]), false);
    assert_eq!(attachments.passages.iter().map(|p| p.deeplink.as_str()).collect::<Vec<_>>(), vec!["bob-attachment"]);
    let feed = retrieval(&index, "steel prices", Scope::Sources(vec!["ft".into()]), false);
    assert!(feed.passages.iter().all(|p| p.source_id == "ft"));
    assert!(retrieval(&index, "steel prices", Scope::Sources(vec![]), false).passages.is_empty());
    assert!(retrieval(&index, "steel prices", Scope::Documents(vec![]), false).passages.is_empty());
    let universe = retrieval(&index, "steel prices", Scope::Universe, false);
    assert!(!universe.passages.is_empty());
    assert!(universe.passages.iter().all(|p| p.category == "rss_news"), "the public corpus holds no uploads");
}

#[test]
fn pro_mode_reads_more_and_a_second_round_finds_what_the_first_missed() {
    let index = corpus();
    let q = "Why did Kestrel Mining's profit fall?";
    let standard = retrieval(&index, q, Scope::Home, false);
    assert!(standard.passages.iter().any(|p| p.deeplink == "kestrel"));
    assert!(standard.passages.iter().all(|p| p.deeplink != "cobalt"), "the question's words are not in it");
    let pro = retrieval(&index, q, Scope::Home, true);
    assert!(pro.expansion.iter().any(|w| w == "cobalt"), "{:?}", pro.expansion);
    let found = pro.passages.iter().find(|p| p.deeplink == "cobalt").expect("the second round finds the cobalt story");
    assert_eq!(found.round, 2);
    assert!(Settings::pro().diversity.keep > Settings::standard().diversity.keep);
    let answer = assistant::extractive::compose(&pro, true);
    assert!(answer.pro);
    assert_nothing_invented(&answer);
}

#[test]
fn pdf_passages_keep_their_page_and_line_boxes_in_the_citation() {
    let index = corpus();
    let (_, answer) = extractive(&index, "What was Harbor Foods net revenue in 2023?");
    let n = answer.generated_answer.sentences[0].citations[0];
    let citation = &answer.retrieved_results[n as usize - 1];
    assert_eq!(citation.document_id, "annual-report");
    let highlight = citation.document_highlight.as_ref().unwrap();
    assert_eq!(highlight.page_number, 2);
    assert_eq!(highlight.lines.len(), 2);
    assert_eq!((highlight.coordinates[0].x, highlight.coordinates[0].y), (72.0, 100.0));
    assert_eq!((highlight.coordinates[2].x, highlight.coordinates[2].y), (520.0, 130.0));
    let json = serde_json::to_value(&answer).unwrap();
    for key in ["answer_type", "generated_answer", "retrieved_results", "followup_questions", "answer_quality", "pro"] {
        assert!(json.get(key).is_some(), "{key}");
    }
    assert_eq!(json["answer_type"], "ANSWER");
    assert_eq!(json["retrieved_results"][0]["id"], 1);
}

/// A paragraph, then a table of sales by contract type as DOCX extraction leaves one.
const SALES: &str = "Sales by contract type. Sales on fixed-price contracts grew in 2019 as new programs began, \
                     while other sales declined with the end of legacy contracts; total sales rose for the third \
                     year.\n\nYears Ended September 30,\n2019\t2018\t2017\nFixed Price\t$ 1,452.4\t$ 1,146.2\t\
                     $ 1,036.9\nOther\t44.1\t56.7\t70.8\nTotal sales\t$1,496.5\t$1,202.9\t$1,107.7";

#[test]
fn a_question_for_a_figure_is_answered_by_the_table_row_that_holds_it_under_its_headers() {
    let text = SALES;
    let index = index_of([document("sales", Some("bob"), "needldrive", "drives", "Annual report extract", text)]);
    let scope = Scope::Documents(vec!["sales".into()]);
    let r = retrieval(&index, "What is the amount of total sales in 2019?", scope, false);
    let answer = assistant::extractive::compose(&r, false);
    let lead = &answer.generated_answer.sentences[0];
    assert_eq!(lead.sentence, "Total sales \u{2014} 2019: $1,496.5; 2018: $1,202.9; 2017: $1,107.7");
    let cited = &answer.retrieved_results[lead.citations[0] as usize - 1];
    assert!(cited.context.contains("$1,496.5"), "{:?}", cited.context);
    // The row's own passage says which table it is in, and points at the row's line of the page.
    let row = lead
        .citations
        .iter()
        .map(|n| &answer.retrieved_results[*n as usize - 1])
        .find(|c| c.context.starts_with("Total sales"));
    let row = row.expect("the row's passage is cited");
    assert!(row.context.ends_with("\nYears Ended September 30,"), "{:?}", row.context);
    let line: String =
        text.chars().skip(row.page_range.0 as usize).take((row.page_range.1 - row.page_range.0) as usize).collect();
    assert_eq!(line, "Total sales\t$1,496.5\t$1,202.9\t$1,107.7");
    assert_nothing_invented(&answer);
}

#[test]
fn a_question_for_a_change_gets_the_value_computed_from_the_cited_rows_and_marked_so() {
    let index = index_of([document("sales", Some("bob"), "needldrive", "drives", "Annual report extract", SALES)]);
    let scope = Scope::Documents(vec!["sales".into()]);
    let r = retrieval(&index, "What was the change in total sales from 2018 to 2019?", scope.clone(), false);
    let answer = assistant::extractive::compose(&r, false);
    let sentences = &answer.generated_answer.sentences;
    let computed = sentences[0].computed.as_ref().expect("the lead sentence is computed");
    let row = sentences[0].citations[0];
    assert_eq!(
        sentences[0].sentence,
        format!(
            "Computed from [{row}]: the change in \u{201c}Total sales\u{201d} from 2018 to 2019 is 1,496.5 \u{2212} \
             1,202.9 = 293.6."
        )
    );
    assert!(answer.generated_answer.answer.starts_with(&sentences[0].sentence), "{}", answer.generated_answer.answer);
    // The row the inputs come from is quoted next, citing the same passage.
    assert_eq!(sentences[1].sentence, "Total sales \u{2014} 2019: $1,496.5; 2018: $1,202.9; 2017: $1,107.7");
    assert_eq!(sentences[1].citations, [row]);
    assert!(sentences[1..].iter().all(|s| s.computed.is_none()));
    assert_eq!(computed.value, 1496.5 - 1202.9);
    assert_nothing_invented(&answer);
    // The support check recomputes it; a value its inputs do not give fails.
    let mut check = assistant::openai::SupportCheck::new(&r);
    assert!(check.check(&sentences[0]));
    let mut tampered = sentences[0].clone();
    tampered.computed.as_mut().unwrap().value = 300.0;
    assert!(!check.check(&tampered));
    // The DONE event carries the computation beside the sentence; quoted sentences carry none.
    let json = serde_json::to_value(&answer).unwrap();
    assert_eq!(json["generated_answer"]["sentences"][0]["computed"]["operation"], "change");
    assert_eq!(json["generated_answer"]["sentences"][0]["computed"]["inputs"][0]["written"], "$1,202.9");
    assert!(json["generated_answer"]["sentences"][1].get("computed").is_none());

    // A figure asked for is not computed; nor is a change of a row the table does not have.
    for question in
        ["What is the amount of total sales in 2019?", "What was the change in net income from 2018 to 2019?"]
    {
        let r = retrieval(&index, question, scope.clone(), false);
        let answer = assistant::extractive::compose(&r, false);
        assert!(answer.generated_answer.sentences.iter().all(|s| s.computed.is_none()), "{question}");
        assert!(!answer.generated_answer.answer.contains("Computed"), "{question}");
    }
}

#[tokio::test]
async fn asking_streams_steps_and_chunks_then_the_answer() {
    let assistant = Assistant::new(corpus(), Arc::new(ExtractiveEngine));
    let question =
        Question { text: "How much did the tariffs cost Ford?".into(), scope: Scope::Home, access: bob(), pro: false };
    let mut rx = assistant.ask(question);
    let mut kinds = Vec::new();
    let mut text = String::new();
    let mut done = None;
    while let Some(event) = rx.recv().await {
        match event.unwrap() {
            Event::Step(_) => kinds.push("step"),
            Event::Chunk(c) => {
                kinds.push("chunk");
                text.push_str(&c);
            }
            Event::Done(answer) => {
                kinds.push("done");
                done = Some(answer);
            }
        }
    }
    assert_eq!(kinds.first(), Some(&"step"));
    assert_eq!(kinds.last(), Some(&"done"));
    assert_eq!(text, done.unwrap().generated_answer.answer, "the chunks make the answer");
}

// --- The chat-completions engine against a local streaming server ---

/// What the fake server answers.
#[derive(Clone)]
enum Reply {
    /// A 200 event stream: each item one SSE event's content, each event split in two writes.
    Stream(Vec<String>),
    Status(u16, &'static str),
    Raw(&'static str),
}

/// Starts a one-connection-at-a-time chat-completions server on port 0; returns its base URL
/// and the request bodies it received.
async fn fake_server(reply: Reply) -> (String, Arc<tokio::sync::Mutex<Vec<String>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/v1", listener.local_addr().unwrap());
    let bodies = Arc::new(tokio::sync::Mutex::new(Vec::new()));
    let seen = bodies.clone();
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            let body = read_request(&mut socket).await;
            seen.lock().await.push(body);
            match &reply {
                Reply::Status(code, body) => {
                    let _ = socket.write_all(json_reply(&format!("{code} Oops"), body).as_bytes()).await;
                }
                Reply::Raw(text) => {
                    let _ = socket.write_all(SSE_HEAD.as_bytes()).await;
                    let _ = socket.write_all(chunk(text).as_bytes()).await;
                    let _ = socket.write_all(b"0\r\n\r\n").await;
                }
                Reply::Stream(pieces) => {
                    let _ = socket.write_all(SSE_HEAD.as_bytes()).await;
                    let role = "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\"}}]}\n\n".to_string();
                    let mut events = vec![role];
                    for piece in pieces {
                        let data = serde_json::json!({"choices": [{"index": 0, "delta": {"content": piece}}]});
                        events.push(format!("data: {data}\n\n"));
                    }
                    events.push("data: [DONE]\n\n".into());
                    for event in events {
                        // Cut every event in two, so lines and UTF-8 are split across reads.
                        let cut = event.char_indices().map(|(i, _)| i).nth(event.chars().count() / 2).unwrap_or(0);
                        for part in [&event[..cut], &event[cut..]] {
                            let _ = socket.write_all(chunk(part).as_bytes()).await;
                            let _ = socket.flush().await;
                            tokio::time::sleep(Duration::from_millis(2)).await;
                        }
                    }
                    let _ = socket.write_all(b"0\r\n\r\n").await;
                }
            }
            let _ = socket.shutdown().await;
        }
    });
    (url, bodies)
}

/// Runs the engine on `retrieval` against `url`, returning the answer and the streamed text.
async fn run_engine(url: &str, retrieval: Retrieval) -> (Result<Answer, AssistantError>, String) {
    let mut config = OpenAiConfig::new(url, "test-model");
    config.api_key = Some("sk-test".into());
    config.idle_timeout = Duration::from_secs(10);
    let engine = OpenAiCompatibleEngine::new(config).unwrap();
    let (events, mut rx) = Events::channel(256);
    let collect = tokio::spawn(async move {
        let mut text = String::new();
        while let Some(Ok(event)) = rx.recv().await {
            if let Event::Chunk(c) = event {
                text.push_str(&c);
            }
        }
        text
    });
    let result = engine.answer(Arc::new(retrieval), false, &events).await;
    drop(events);
    (result, collect.await.unwrap())
}

/// The Ford question's retrieval and the number of the passage holding the answer.
fn ford() -> (Retrieval, u32) {
    let index = corpus();
    let r = retrieval(&index, "How much did the tariffs cost Ford?", Scope::Home, false);
    let n = r.passages.iter().find(|p| p.deeplink == "tariffs").expect("the wire story is retrieved").number;
    (r, n)
}

#[tokio::test]
async fn the_chat_engine_reads_citations_split_across_chunks_and_drops_unknown_ones() {
    let (r, n) = ford();
    let pieces = vec![
        "Ford said the tariffs cost the company about ".to_string(),
        "$1 billion in higher metal costs [".into(),
        format!("{n}"),
        "]. Carmakers warned that the duties would raise vehicle prices [[".into(),
        format!("{n}]] [9"),
        "9].\n".into(),
    ];
    let (url, bodies) = fake_server(Reply::Stream(pieces)).await;
    let (answer, streamed) = run_engine(&url, r.clone()).await;
    let answer = answer.unwrap();
    let sentences = &answer.generated_answer.sentences;
    assert_eq!(sentences.len(), 2, "{sentences:#?}");
    assert_eq!(sentences[0].sentence, "Ford said the tariffs cost the company about $1 billion in higher metal costs.");
    assert_eq!(sentences[0].citations, vec![n]);
    assert_eq!(sentences[1].citations, vec![n], "[99] names no source and is dropped");
    assert_eq!(answer.generated_answer.unknown_citations, 1, "and counted, for reports' citation precision");
    assert!(!streamed.contains("99") && streamed.contains(&format!("[{n}]")), "{streamed}");
    assert_eq!(streamed.trim(), answer.generated_answer.answer);
    assert_eq!(answer.answer_quality, AnswerQuality::High);
    assert_eq!(answer.retrieved_results.len(), r.passages.len());
    // The request: streaming, the model, numbered sources and the question.
    let body: serde_json::Value = serde_json::from_str(&bodies.lock().await[0]).unwrap();
    assert_eq!((body["stream"].as_bool(), body["model"].as_str()), (Some(true), Some("test-model")));
    let prompt = body["messages"][1]["content"].as_str().unwrap();
    assert!(prompt.contains(&format!("[{n}] Steel tariffs raise costs for carmakers")), "{prompt}");
    assert!(prompt.ends_with("Question: How much did the tariffs cost Ford?"));
}

#[tokio::test]
async fn a_sentence_its_sources_do_not_bear_out_makes_the_answer_generative() {
    let (r, n) = ford();
    let pieces = vec![
        format!("Ford said the tariffs cost the company about $1 billion [{n}]. "),
        format!("Ford plans to open three battery factories in Kentucky next spring [{n}]."),
    ];
    let (url, _) = fake_server(Reply::Stream(pieces)).await;
    let answer = run_engine(&url, r.clone()).await.0.unwrap();
    assert_eq!(answer.answer_quality, AnswerQuality::Generative);
    assert_eq!(
        answer.answer_quality_message.as_deref(),
        Some("This seems to be a generative response. If you were expecting facts, please rephrase or clarify in a follow-up.")
    );
    let (url, _) =
        fake_server(Reply::Stream(vec!["Tariffs are a tax paid by importers and their customers.".into()])).await;
    let uncited = run_engine(&url, r).await.0.unwrap();
    assert_eq!(uncited.answer_quality, AnswerQuality::Generative, "an answer that cites nothing");
}

#[tokio::test]
async fn engine_failures_are_typed_errors() {
    let (r, _) = ford();
    let (url, _) = fake_server(Reply::Status(500, r#"{"error":{"message":"model not loaded"}}"#)).await;
    let error = run_engine(&url, r.clone()).await.0.unwrap_err();
    assert!(
        matches!(&error, AssistantError::Status { status: 500, message } if message == "model not loaded"),
        "{error:?}"
    );
    assert_eq!(error.code(), "engine_status");

    let (url, _) = fake_server(Reply::Raw("data: {not json\n\n")).await;
    let error = run_engine(&url, r.clone()).await.0.unwrap_err();
    assert_eq!(error.code(), "engine_malformed_stream", "{error:?}");

    let (url, _) = fake_server(Reply::Raw("")).await;
    let error = run_engine(&url, r.clone()).await.0.unwrap_err();
    assert_eq!(error.code(), "engine_malformed_stream", "an empty stream: {error:?}");

    let closed = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/v1", closed.local_addr().unwrap());
    drop(closed);
    let error = run_engine(&url, r).await.0.unwrap_err();
    assert_eq!(error.code(), "engine_unreachable", "{error:?}");
    assert!(error.to_string().to_lowercase().contains("refused"), "{error}");
}

// --- Real questions over real paragraphs (SQuAD/XQuAD), when the shared data is present ---

#[test]
fn extractive_answers_to_xquad_questions_cite_the_paragraph_holding_the_answer() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/qa/xquad-en/xquad.en.json");
    let Ok(raw) = std::fs::read_to_string(&path) else {
        eprintln!("skipped: {} is absent", path.display());
        return;
    };
    let data: serde_json::Value = serde_json::from_str(&raw).unwrap();
    let mut docs = Vec::new();
    let mut questions = Vec::new();
    for (a, article) in data["data"].as_array().unwrap().iter().enumerate().take(12) {
        for (p, paragraph) in article["paragraphs"].as_array().unwrap().iter().enumerate().take(4) {
            let deeplink = format!("xquad-{a}-{p}");
            let context = paragraph["context"].as_str().unwrap();
            docs.push(document(&deeplink, None, "xquad", "rss_news", &format!("Article {a}"), context));
            if let Some(qa) = paragraph["qas"].as_array().and_then(|q| q.first()) {
                questions.push((
                    deeplink,
                    qa["question"].as_str().unwrap().to_string(),
                    qa["answers"][0]["text"].as_str().unwrap().to_string(),
                ));
            }
        }
    }
    let index = index_of(docs);
    let (mut right_document, mut holds_answer) = (0, 0);
    for (deeplink, question, expected) in &questions {
        let r = retrieve(&index, question, &Scope::Universe, &Access::Public, &Settings::standard()).unwrap();
        let answer = assistant::extractive::compose(&r, false);
        assert_nothing_invented(&answer);
        let Some(first) = answer.generated_answer.sentences.first() else { continue };
        let cited = &answer.retrieved_results[first.citations[0] as usize - 1];
        right_document += usize::from(&cited.document_id == deeplink);
        holds_answer +=
            usize::from(answer.generated_answer.sentences.iter().any(|s| s.sentence.contains(expected.as_str())));
    }
    let n = questions.len() as f32;
    eprintln!(
        "xquad: {} questions; first sentence from the right paragraph {:.2}; answer text in the answer {:.2}",
        questions.len(),
        right_document as f32 / n,
        holds_answer as f32 / n
    );
    assert!(right_document as f32 / n >= 0.8, "{right_document} of {n}");
}
