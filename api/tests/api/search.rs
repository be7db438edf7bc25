//! Search over what the user may read: ranking, highlights, grouping and spelling correction,
//! private uploads kept private, clear errors for bad input, the index rebuilt from the feed, tag
//! facets, and the data the user's channels share.

use api::app::Server;
use commands::Db;

use crate::support::*;

fn result_deeplinks(answer: &Value) -> Vec<String> {
    answer["results"].as_array().unwrap().iter().map(|r| r["deeplink"].as_str().unwrap().to_string()).collect()
}

api_test!(search_ranks_highlights_groups_and_corrects_over_the_users_data, |app: TestApp| async move {
    let app = &app;
    let s = app.sign_up("searcher").await;
    let user_id = s.id().to_string();
    let feed = follow_feed(app, &s.token, "https://metals.example.com/feed.xml").await;
    ingest_text(
        app,
        "metals-1",
        &feed,
        "Steel tariffs raise costs for carmakers",
        "New tariffs on imported steel are raising costs for carmakers.\n\nAnalysts expect the <b>duties</b> to stay.",
        None,
    )
    .await;
    ingest_text(app, "metals-2", &feed, "Aluminium climbs", "Aluminium prices climbed; steel was flat.", None).await;
    ingest_text(app, "mine-1", "needldrive", "Plant notes", "Our steel plant visit notes.", Some(&user_id)).await;

    let (status, tabs) = app.post("/api/search", &s.token, json!({"type": "category", "q": "steel"})).await;
    assert_eq!(status, StatusCode::OK, "{tabs}");
    assert_eq!(tabs["count"], 3);
    let listed: Vec<(String, u64)> = tabs["category_tabs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| (t["key"].as_str().unwrap().to_string(), t["count"].as_u64().unwrap()))
        .collect();
    assert_eq!(listed, vec![("rss_news".to_string(), 2), ("drives".to_string(), 1)]);

    let (_, page) = app.post("/api/search", &s.token, json!({"q": "steel tariffs", "num_docs": 10})).await;
    assert_eq!(result_deeplinks(&page)[0], "metals-1", "{page}");
    let first = &page["results"][0];
    assert_eq!(first["source_label"], "metals.example.com");
    assert_eq!(first["category_tab"], "rss_news");
    assert!(first["access_key"].as_str().is_some_and(|k| !k.is_empty()));
    let html = first["highlights"][0]["html"].as_str().unwrap();
    assert!(html.contains("<em>tariffs</em>") && html.contains("<em>steel</em>"), "{html}");
    assert!(html.contains("&lt;b&gt;duties&lt;/b&gt;"), "the document's own markup is escaped: {html}");

    let (_, drives) = app.post("/api/search", &s.token, json!({"q": "steel", "category_tab": "drives"})).await;
    assert_eq!(result_deeplinks(&drives), vec!["mine-1"]);
    assert_eq!(drives["results"][0]["owned"], true);
    let (_, feed_only) =
        app.post("/api/search/today", &s.token, json!({"q": "steel", "board_id": feed.as_str()})).await;
    let mut got = result_deeplinks(&feed_only);
    got.sort();
    assert_eq!(got, vec!["metals-1", "metals-2"]);
    let (_, strict) = app.post("/api/search", &s.token, json!({"q": "steel AND NOT tariffs"})).await;
    let mut got = result_deeplinks(&strict);
    got.sort();
    assert_eq!(got, vec!["metals-2", "mine-1"]);
    let (_, paged) = app
        .post("/api/search", &s.token, json!({"q": "steel", "num_docs": 1, "start_from": 1, "sort": "dateAsc"}))
        .await;
    assert_eq!((paged["count"].as_u64(), paged["results"].as_array().unwrap().len()), (Some(3), 1));
    let (_, recent) = app.post("/api/search", &s.token, json!({"q": "steel", "date_range": "1d"})).await;
    assert_eq!(recent["count"], 3, "everything here was published just now");

    let (_, corrected) = app.post("/api/search", &s.token, json!({"q": "stel tarifs", "spell_correct": true})).await;
    assert_eq!(corrected["query_params"]["corrected_q"], "steel tariffs", "{corrected}");
    assert_eq!(result_deeplinks(&corrected)[0], "metals-1");
    let (_, uncorrected) = app.post("/api/search", &s.token, json!({"q": "stel tarifs", "spell_correct": false})).await;
    assert_eq!((uncorrected["count"].as_u64(), &uncorrected["query_params"]["corrected_q"]), (Some(0), &Value::Null));

    // A deleted document leaves the index.
    let bus = app.server.state.bus.clone();
    let cursor = bus
        .execute(
            &bus.documents,
            "metals-2",
            domain::document::DocumentCommand::Delete,
            &domain::EventMetadata::system("test", "r"),
        )
        .await
        .unwrap()
        .unwrap();
    assert!(app.server.state.search.wait_for(cursor, Duration::from_secs(20)).await);
    let (_, after) = app.post("/api/search", &s.token, json!({"q": "aluminium"})).await;
    assert_eq!(after["count"], 0);
});

api_test!(nobody_finds_another_users_private_upload_by_any_query, |app: TestApp| async move {
    let app = &app;
    let alice = app.sign_up("alice").await;
    let bob = app.sign_up("bob").await;
    let alice_id = alice.id().to_string();
    let feed = follow_feed(app, &bob.token, "https://news.example.com/feed.xml").await;
    let _ = follow_feed(app, &alice.token, "https://news.example.com/feed.xml").await;
    ingest_text(app, "news-1", &feed, "Board meets", "The board met on Tuesday to review the budget.", None).await;
    ingest_text(
        app,
        "secret-1",
        "needldrive",
        "Board minutes",
        "Confidential: the board approved the Zanzibar acquisition.",
        Some(&alice_id),
    )
    .await;
    let (_, mine) = app.post("/api/search", &alice.token, json!({"q": "zanzibar"})).await;
    assert_eq!(result_deeplinks(&mine), vec!["secret-1"], "the owner finds it");

    let queries = [
        "zanzibar",
        "Zanzibar acquisition",
        "zanzibr",
        "confidential OR board",
        "\"board approved\"",
        "",
        "NOT budget",
        "minutes",
    ];
    let bodies: Vec<Value> = queries
        .iter()
        .flat_map(|q| {
            [
                json!({"q": q, "spell_correct": true}),
                json!({"q": q, "search_type": "needl_web", "spell_correct": true}),
                json!({"q": q, "search_type": "shared_data"}),
                json!({"q": q, "category_tab": "drives"}),
                json!({"q": q, "type": "category", "spell_correct": true}),
                json!({"q": q, "board_id": "needldrive"}),
            ]
        })
        .collect();
    let paths =
        ["/api/search", "/api/search/drives", "/api/search/needldrive", "/api/search/today", "/api/search/secret-1"];
    for path in paths {
        for body in &bodies {
            let (status, answer) = app.post(path, &bob.token, body.clone()).await;
            assert_eq!(status, StatusCode::OK, "{path} {body} {answer}");
            // Nothing of the upload comes back: not as a result, not in a snippet, not as a count.
            let results = answer["results"].to_string().to_lowercase();
            assert!(!results.contains("secret-1") && !results.contains("zanzibar"), "{path} {body} {answer}");
            let q = body["q"].as_str().unwrap();
            if q.to_lowercase().contains("zanzib") {
                assert_eq!(answer["count"], 0, "{path} {body} {answer}");
            }
            if let Some(tabs) = answer["category_tabs"].as_array() {
                assert!(tabs.iter().all(|t| t["key"] != "drives"), "{path} {body} {answer}");
            }
            assert_ne!(answer["query_params"]["corrected_q"], "zanzibar", "{path} {body}");
        }
    }
});

api_test!(bad_search_input_gets_a_clear_error_and_never_a_500, |app: TestApp| async move {
    let app = &app;
    let s = app.sign_up("prober").await;
    let expect = [
        (json!({"q": "(steel"}), "Invalid keyword. Paranthesis are imbalanced."),
        (json!({"q": "steel AND"}), "Invalid keyword. Unused Boolean Operators at ends."),
        (json!({"q": "\"steel"}), "Invalid keyword. Quotes are either imbalanced or not at ends."),
        (json!({"q": "steel", "date_range": "2 weeks"}), "Wrong shorthand"),
        (json!({"q": "steel", "num_docs": 1000}), "num_docs must be between 0 and 100."),
        (json!({"q": "steel", "start_from": -1}), "start_from must be between 0 and 10000."),
        (json!({"q": "word ".repeat(400)}), "The search is too long: at most 1000 characters."),
    ];
    for (body, message) in expect {
        let (status, answer) = app.post("/api/search", &s.token, body.clone()).await;
        assert_eq!((status, answer["message"].as_str()), (StatusCode::BAD_REQUEST, Some(message)), "{body}");
    }
    for body in [
        json!({"q": "x", "sort": "pagerank"}),
        json!({"q": "x", "sort_order": "sideways"}),
        json!({"q": "x", "timezone": "Mars/Olympus", "today_date_range": true}),
        json!({"q": "x", "search_type": "everything"}),
        json!({"q": 42}),
    ] {
        let (status, answer) = app.post("/api/search", &s.token, body.clone()).await;
        assert!(status.is_client_error(), "{body} {status}");
        assert!(answer["message"].as_str().is_some_and(|m| !m.is_empty()), "{body} {answer}");
    }
    let odd = [
        "*",
        "\\",
        "AND OR",
        "NOT",
        "🙂",
        "a\u{0}b",
        "' OR 1=1 --",
        "((a OR b) AND (c",
        "\u{201c}x\u{201d}",
        "-",
        "the of and",
    ];
    for q in odd {
        for path in ["/api/search", "/api/search/exchanges", "/api/search/rss_news"] {
            for kind in ["category", "results", "filter"] {
                let (status, answer) = app.post(path, &s.token, json!({"q": q, "type": kind})).await;
                assert!(
                    status == StatusCode::OK || status == StatusCode::BAD_REQUEST,
                    "{path} {q:?} {status} {answer}"
                );
            }
        }
    }
    let (status, _) = app.post_without_token("/api/search", json!({"q": "steel"})).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
});

/// `needl rebuild search` empties the index and replays the feed into it, with the server stopped;
/// the restarted server searches the rebuilt index.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_search_index_rebuilds_from_the_feed() {
    let app = spawn_app(Backend::Sqlite).await;
    let s = app.sign_up("rebuilder").await;
    let user_id = s.id().to_string();
    ingest_text(&app, "doc-1", "needldrive", "Harbour survey", "The harbour survey found silt.", Some(&user_id)).await;
    let TestApp { server, _dir: dir, .. } = app;
    let needl = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_needl"))
            .arg("--data-dir")
            .arg(dir.path())
            .args(args)
            .env_remove("DATABASE_URL")
            .env_remove("NEEDL_CATALOGUE")
            .output()
            .unwrap()
    };
    let busy = needl(&["rebuild", "--all"]);
    assert!(busy.status.success(), "{}", String::from_utf8_lossy(&busy.stderr));
    assert!(String::from_utf8_lossy(&busy.stdout).contains("skipped search"), "the running server holds the index");
    server.stop().await.unwrap();
    let out = needl(&["rebuild", "search"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.contains("1 documents"),
        "{stdout} {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let db = Db::open_sqlite(dir.path()).await.unwrap();
    let server = Server::start_with(db, dir.path(), ServeArgs::for_tests()).await.unwrap();
    let app = TestApp::new(server, dir);
    let (_, found) = app.post("/api/search", &s.token, json!({"q": "silt"})).await;
    assert_eq!(result_deeplinks(&found), vec!["doc-1"], "{found}");
}

api_test!(tag_facets_count_the_users_tagged_documents_they_can_read, |app: TestApp| async move {
    let app = &app;
    let s = app.sign_up("facets").await;
    let other = app.sign_up("other").await;
    let user_id = s.id().to_string();
    for (deeplink, title) in [("f-1", "Rates memo"), ("f-2", "Credit memo"), ("f-3", "Steel memo")] {
        ingest_text(app, deeplink, "needldrive", title, "Memo text.", Some(&user_id)).await;
    }
    let risk = create_tag(app, &s.token, "Risk").await;
    let rates = create_tag(app, &s.token, "Rates").await;
    for (deeplink, tags) in [("f-1", vec![&risk, &rates]), ("f-2", vec![&risk]), ("f-3", vec![&risk])] {
        let (status, body) = app.post(&format!("/api/tag/{deeplink}"), &s.token, json!({ "tags": tags })).await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }
    // A document that goes away no longer counts.
    let bus = app.server.state.bus.clone();
    let cursor = bus
        .execute(
            &bus.documents,
            "f-3",
            domain::document::DocumentCommand::Delete,
            &domain::EventMetadata::system("t", "r"),
        )
        .await
        .unwrap();
    app.server.state.settle(cursor).await;
    let (status, answer) = app.post("/api/search/tags", &s.token, json!({"type": "filter", "num_docs": 0})).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let facets: Vec<(String, i64)> = answer["facets"]["tags"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| (t["label"].as_str().unwrap().to_string(), t["doc_count"].as_i64().unwrap()))
        .collect();
    assert_eq!(facets, vec![("Risk".to_string(), 2), ("Rates".to_string(), 1)]);
    assert_eq!(answer["count"], 2);
    let (_, theirs) = app.post("/api/search/tags", &other.token, json!({"type": "filter"})).await;
    assert_eq!((theirs["facets"]["tags"].as_array().map(Vec::len), &theirs["count"]), (Some(0), &json!(0)));
});

api_test!(shared_data_finds_what_the_users_channels_share_and_nothing_else, |app: TestApp| async move {
    let app = &app;
    let alice = app.sign_up("alice").await;
    let bob = app.sign_up("bob").await;
    let carol = app.sign_up("carol").await;
    let alice_id = alice.id().to_string();
    ingest_text(app, "memo-1", "needldrive", "Harbour memo", "The harbour dredging starts in May.", Some(&alice_id))
        .await;
    ingest_text(app, "memo-2", "needldrive", "Private memo", "The harbour budget is confidential.", Some(&alice_id))
        .await;
    let channel = create_channel(app, &alice.token, "Ports", &[bob.id()]).await;
    let (status, body) =
        app.post(&format!("/api/channels/{channel}/items"), &alice.token, json!({"deeplink": "memo-1"})).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    for body in [json!({"q": "harbour", "search_type": "shared_data"}), json!({"q": "harbour", "channel_id": channel})]
    {
        let (status, found) = app.post("/api/search", &bob.token, body.clone()).await;
        assert_eq!(status, StatusCode::OK, "{found}");
        assert_eq!(result_deeplinks(&found), vec!["memo-1"], "{body}: the shared memo only");
        assert!(found["results"][0]["highlights"][0]["html"].as_str().unwrap().contains("<em>harbour</em>"));
    }
    let (_, mine) = app.post("/api/search", &bob.token, json!({"q": "harbour"})).await;
    assert_eq!(mine["count"], 0, "a channel's items are shared data, not the member's own data");
    let (_, outsider) =
        app.post("/api/search", &carol.token, json!({"q": "harbour", "search_type": "shared_data"})).await;
    assert_eq!(outsider["count"], 0);
    let (status, _) = app.post("/api/search", &carol.token, json!({"q": "harbour", "channel_id": channel})).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) =
        app.post("/api/search/tags", &carol.token, json!({"type": "filter", "channel_id": channel})).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
});

/// Items that all hold the words "central bank", one of them about what the query means.
const BANK_ITEMS: &[(&str, &str, &str)] = &[
    (
        "bank-1",
        "Central bank museum opens a new wing",
        "The central bank museum in the central district opens a new wing; the central bank's \
         collection of old coins and banknotes moves there.",
    ),
    (
        "bank-2",
        "Central bank choir gives a concert",
        "Staff of the central bank sing at the central bank's annual charity concert in the old hall.",
    ),
    (
        "bank-3",
        "Rates raised to curb inflation",
        "Policy makers at the central bank raised the benchmark rate by half a point, a third increase this \
         year, to bring down inflation.",
    ),
    (
        "bank-4",
        "Central bank governor visits a school",
        "The governor of the central bank spoke to pupils about saving money at the central school.",
    ),
];

async fn hybrid_search_lifts_what_the_query_means(app: TestApp) {
    let s = app.sign_up("searcher").await;
    let feed = follow_feed(&app, &s.token, "https://banks.example.com/feed.xml").await;
    for (deeplink, title, text) in BANK_ITEMS {
        ingest_text(&app, deeplink, &feed, title, text, None).await;
    }
    wait_for_vectors(&app, &BANK_ITEMS.iter().map(|i| i.0).collect::<Vec<_>>()).await;
    let search = |ranking: &'static str| {
        app.post("/api/search", &s.token, json!({"q": "central bank monetary tightening", "ranking": ranking}))
    };
    let (status, keyword) = search("keyword").await;
    assert_eq!(status, StatusCode::OK, "{keyword}");
    let (status, hybrid) = search("hybrid").await;
    assert_eq!(status, StatusCode::OK, "{hybrid}");
    let (keyword_order, hybrid_order) = (result_deeplinks(&keyword), result_deeplinks(&hybrid));
    let at = |order: &[String]| order.iter().position(|d| d == "bank-3").unwrap();
    assert_eq!(keyword["count"], hybrid["count"], "the same documents match");
    assert!(
        at(&hybrid_order) < at(&keyword_order),
        "the rate rise ranks higher with the embeddings: {keyword_order:?} then {hybrid_order:?}"
    );
    let mut sorted = hybrid_order.clone();
    sorted.sort();
    assert_eq!(sorted, ["bank-1", "bank-2", "bank-3", "bank-4"], "only the order changes");
    // The default is hybrid when the server has the model.
    let (_, default) = app.post("/api/search", &s.token, json!({"q": "central bank monetary tightening"})).await;
    assert_eq!(result_deeplinks(&default), hybrid_order);
}

// Runs only where the model is present (`scripts/setup`); prints SKIPPED otherwise.
model_test!(hybrid_search_lifts_what_the_query_means, hybrid_search_lifts_what_the_query_means);

api_test!(a_search_ranking_other_than_hybrid_or_keyword_is_refused, |app: TestApp| async move {
    let s = app.sign_up("searcher").await;
    let (status, body) = app.post("/api/search", &s.token, json!({"q": "steel", "ranking": "vectors"})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert_eq!(body["code"], "bad_ranking", "{body}");
    assert_eq!(body["message"], "ranking must be hybrid or keyword.");
    let (status, body) = app.post("/api/search", &s.token, json!({"q": "steel", "ranking": "keyword"})).await;
    assert_eq!(status, StatusCode::OK, "{body}");
});
