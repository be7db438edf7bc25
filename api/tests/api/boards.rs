//! Custom feeds (boards) end to end on both backends: making, editing (one event per change),
//! undo, on and off, copies, alerts, deletion, and that a feed is its owner's alone.

use crate::support::*;

fn definition(name: &str, include: &[&str], exclude: &[&str]) -> Value {
    let list = |l: &[&str]| l.iter().map(|k| json!({"keyword": k, "valid": true})).collect::<Vec<_>>();
    json!({"name": name, "keywords": {"include": list(include), "exclude": list(exclude)}})
}

async fn create(app: &TestApp, token: &str, def: Value) -> Value {
    let (status, body) = app.post("/api/boards/v2", token, json!({ "definition": def })).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body["results"].clone()
}

fn keywords(board: &Value, list: &str) -> Vec<String> {
    board["definition"]["keywords"][list]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k["keyword"].as_str().unwrap().to_string())
        .collect()
}

api_test!(a_new_feed_is_listed_with_its_cleaned_definition, |app: TestApp| async move {
    let alice = app.sign_up("alice").await;
    let board =
        create(&app, &alice.token, definition("  Rate moves ", &["inflation", "Inflation", "\"rate cut\""], &[])).await;
    assert_eq!(board["board_name"], "Rate moves");
    assert_eq!(board["enabled"], true);
    assert_eq!(board["isNew"], true);
    assert_eq!(board["kind"], "keyword");
    assert_eq!(board["alerts"], "off");
    assert_eq!(board["can_undo"], false);
    assert_eq!(keywords(&board, "include"), ["inflation", "\"rate cut\""]);
    let (status, list) = app.get("/api/boards/v2", &alice.token).await;
    assert_eq!(status, StatusCode::OK, "{list}");
    let ids: Vec<&str> = list["results"].as_array().unwrap().iter().map(|b| b["board_id"].as_str().unwrap()).collect();
    assert_eq!(ids, [board["board_id"].as_str().unwrap()]);
});

api_test!(invalid_definitions_get_the_spec_messages_and_store_nothing, |app: TestApp| async move {
    let alice = app.sign_up("alice").await;
    for (def, message) in [
        (definition("Rates", &["(inflation"], &[]), "Invalid keyword. Paranthesis are imbalanced."),
        (definition("Rates", &["inflation AND"], &[]), "Invalid keyword. Unused Boolean Operators at ends."),
        (definition("Rates", &["\"rate cut"], &[]), "Invalid keyword. Quotes are either imbalanced or not at ends."),
        (definition("   ", &["inflation"], &[]), "feed name is required"),
    ] {
        let (status, body) = app.post("/api/boards/v2", &alice.token, json!({ "definition": def })).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
        assert_eq!(body["message"], message);
    }
    let (_, list) = app.get("/api/boards/v2", &alice.token).await;
    assert_eq!(list["results"].as_array().unwrap().len(), 0);
});

api_test!(an_edit_is_recorded_change_by_change_and_can_be_undone_once, |app: TestApp| async move {
    let alice = app.sign_up("alice").await;
    let board = create(&app, &alice.token, definition("Rates", &["inflation", "crypto"], &[])).await;
    let id = board["board_id"].as_str().unwrap().to_string();
    let (status, edited) = app
        .put(
            &format!("/api/boards/{id}"),
            &alice.token,
            json!({"definition": definition("Rates and more", &["inflation"], &["crypto"])}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{edited}");
    let edited = &edited["results"];
    assert_eq!(keywords(edited, "include"), ["inflation"]);
    assert_eq!(keywords(edited, "exclude"), ["crypto"]);
    assert_eq!(edited["can_undo"], true);
    assert_eq!(
        event_types(&app, "board", &id).await,
        ["BoardCreated", "BoardEdited", "BoardRenamed", "KeywordExcluded"]
    );
    let (status, undone) = app.post(&format!("/api/boards/{id}/undo"), &alice.token, json!({})).await;
    assert_eq!(status, StatusCode::OK, "{undone}");
    assert_eq!(undone["results"]["board_name"], "Rates");
    assert_eq!(keywords(&undone["results"], "include"), ["inflation", "crypto"]);
    assert_eq!(undone["results"]["can_undo"], false);
    let (status, body) = app.post(&format!("/api/boards/{id}/undo"), &alice.token, json!({})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(body["code"], "nothing_to_undo");
});

api_test!(a_feed_is_turned_off_copied_alerted_and_deleted, |app: TestApp| async move {
    let alice = app.sign_up("alice").await;
    let board = create(&app, &alice.token, definition("Rates", &["inflation"], &[])).await;
    let id = board["board_id"].as_str().unwrap().to_string();
    let (status, off) = app.put(&format!("/api/boards/enable/{id}"), &alice.token, json!({"enabled": false})).await;
    assert_eq!(status, StatusCode::OK, "{off}");
    assert_eq!(off["results"]["enabled"], false);
    let (status, copy) = app.post(&format!("/api/boards/{id}/duplicate"), &alice.token, json!({})).await;
    assert_eq!(status, StatusCode::OK, "{copy}");
    assert_eq!(copy["results"]["board_name"], "Rates (copy)");
    assert_eq!(copy["results"]["enabled"], false);
    assert_ne!(copy["results"]["board_id"], board["board_id"]);
    let (status, alerted) = app
        .put(&format!("/api/boards/{id}/alerts"), &alice.token, json!({"alerts": "digest", "priority": "HIGH"}))
        .await;
    assert_eq!(status, StatusCode::OK, "{alerted}");
    assert_eq!(alerted["results"]["alerts"], "digest");
    assert_eq!(alerted["results"]["priority"], "HIGH");
    let (status, body) = app.put(&format!("/api/boards/{id}/alerts"), &alice.token, json!({"alerts": "hourly"})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    let (status, _) = app.delete(&format!("/api/boards/{id}"), &alice.token).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let (status, _) = app.get(&format!("/api/boards/{id}"), &alice.token).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (_, list) = app.get("/api/boards/v2", &alice.token).await;
    assert_eq!(list["results"].as_array().unwrap().len(), 1, "the copy stays");
    assert_eq!(event_types(&app, "board", &id).await.last().unwrap(), "BoardDeleted");
});

api_test!(another_users_feed_is_not_found_for_every_call, |app: TestApp| async move {
    let alice = app.sign_up("alice").await;
    let mallory = app.sign_up("mallory").await;
    let board = create(&app, &alice.token, definition("Rates", &["inflation"], &[])).await;
    let id = board["board_id"].as_str().unwrap().to_string();
    let def = json!({"definition": definition("Mine", &["x"], &[])});
    for (status, body) in [
        app.get(&format!("/api/boards/{id}"), &mallory.token).await,
        app.put(&format!("/api/boards/{id}"), &mallory.token, def.clone()).await,
        app.post(&format!("/api/boards/{id}/undo"), &mallory.token, json!({})).await,
        app.put(&format!("/api/boards/enable/{id}"), &mallory.token, json!({"enabled": false})).await,
        app.post(&format!("/api/boards/{id}/duplicate"), &mallory.token, json!({})).await,
        app.put(&format!("/api/boards/{id}/alerts"), &mallory.token, json!({"alerts": "off"})).await,
        app.get(&format!("/api/boards/{id}/channels"), &mallory.token).await,
        app.delete(&format!("/api/boards/{id}"), &mallory.token).await,
    ] {
        assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    }
    let (_, list) = app.get("/api/boards/v2", &mallory.token).await;
    assert_eq!(list["results"].as_array().unwrap().len(), 0);
    let board = app.get(&format!("/api/boards/{id}"), &alice.token).await.1;
    assert_eq!(board["results"]["board_name"], "Rates", "nothing of it changed");
    assert_eq!(board["results"]["enabled"], true);
});

api_test!(a_feed_is_shared_into_a_group_its_owner_owns, |app: TestApp| async move {
    let alice = app.sign_up("alice").await;
    let bob = app.sign_up("bob").await;
    let board = create(&app, &alice.token, definition("Rates", &["inflation"], &[])).await;
    let id = board["board_id"].as_str().unwrap().to_string();
    let mine = create_channel(&app, &alice.token, "Desk", &[bob.id()]).await;
    let bobs = create_channel(&app, &bob.token, "Bobs", &[alice.id()]).await;
    let (status, body) =
        app.post(&format!("/api/boards/{id}/channels"), &alice.token, json!({"channel_ids": [bobs]})).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    let (status, shared) =
        app.post(&format!("/api/boards/{id}/channels"), &alice.token, json!({"channel_ids": [mine]})).await;
    assert_eq!(status, StatusCode::OK, "{shared}");
    assert_eq!(shared["results"][0]["name"], "Desk");
    let (_, in_group) = app.get(&format!("/api/channels/{mine}/boards"), &bob.token).await;
    assert_eq!(in_group["results"][0]["board_id"], id.as_str());
});

api_test!(add_to_feeds_makes_exactly_the_chosen_feeds_include_a_source, |app: TestApp| async move {
    let alice = app.sign_up("alice").await;
    let mallory = app.sign_up("mallory").await;
    let source = follow_feed(&app, &alice.token, "https://example.com/rates.xml").await;
    let a = create(&app, &alice.token, definition("Rates", &["inflation"], &[])).await["board_id"].clone();
    let b = create(&app, &alice.token, definition("Banks", &["bank"], &[])).await["board_id"].clone();
    let path = format!("/api/source/public/{source}/boards");
    let (status, set) = app.post(&path, &alice.token, json!({"boards": [a]})).await;
    assert_eq!(status, StatusCode::OK, "{set}");
    let selected = |v: &Value| -> Vec<String> {
        v["results"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|b| b["selected"] == true)
            .map(|b| b["board_name"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(selected(&set), ["Rates"]);
    let rates = app.get(&format!("/api/boards/{}", a.as_str().unwrap()), &alice.token).await.1;
    assert_eq!(rates["results"]["definition"]["sources"][&source]["filter"], true);
    let (_, moved) = app.post(&path, &alice.token, json!({"boards": [b]})).await;
    assert_eq!(selected(&moved), ["Banks"]);
    let (status, body) = app.post(&path, &alice.token, json!({"boards": ["no-such-feed"]})).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    assert_eq!(selected(&app.get(&path, &alice.token).await.1), ["Banks"], "a refused call changes nothing");
    let (status, body) = app.post(&path, &mallory.token, json!({"boards": [a]})).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "a source mallory does not follow: {body}");
});

api_test!(suggestions_come_from_what_the_user_follows_and_become_feeds_when_accepted, |app: TestApp| async move {
    let alice = app.sign_up("alice").await;
    follow_feed(&app, &alice.token, "https://example.com/markets.xml").await;
    let (status, offered) = app.get("/api/boards/suggestions", &alice.token).await;
    assert_eq!(status, StatusCode::OK, "{offered}");
    let suggestion = offered["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["id"].as_str().unwrap().starts_with("source:"))
        .expect("the followed source is suggested")
        .clone();
    let (status, accepted) =
        app.post("/api/boards/suggestions/accept", &alice.token, json!({"suggestion_ids": [suggestion["id"]]})).await;
    assert_eq!(status, StatusCode::OK, "{accepted}");
    assert_eq!(accepted["results"][0]["board_name"], suggestion["name"]);
    let (_, again) = app.get("/api/boards/suggestions", &alice.token).await;
    assert!(!again["results"].as_array().unwrap().iter().any(|s| s["id"] == suggestion["id"]), "a feed covers it now");
    let (status, body) =
        app.post("/api/boards/suggestions/accept", &alice.token, json!({"suggestion_ids": [suggestion["id"]]})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
});

api_test!(the_builder_offers_sources_topics_templates_and_questions, |app: TestApp| async move {
    let alice = app.sign_up("alice").await;
    let source = follow_feed(&app, &alice.token, "https://example.com/rates.xml").await;
    let (status, choices) = app.get("/api/boards/feed_choices", &alice.token).await;
    assert_eq!(status, StatusCode::OK, "{choices}");
    assert!(choices["sources"].as_array().unwrap().iter().any(|s| s["source_id"] == source.as_str()));
    assert_eq!(choices["date_ranges"].as_array().unwrap().len(), 8);
    assert!(choices["topics"].as_array().unwrap().iter().any(|t| t["key"] == "dividends"));
    let (status, templates) = app.get("/api/connect/getFeedTemplates", &alice.token).await;
    assert_eq!(status, StatusCode::OK, "{templates}");
    let template = templates["results"][0]["definition"].clone();
    let board = create(&app, &alice.token, template).await;
    let (status, questions) = app
        .get(&format!("/api/reports/questions?board_id={}", board["board_id"].as_str().unwrap()), &alice.token)
        .await;
    assert_eq!(status, StatusCode::OK, "{questions}");
    let categories: Vec<&str> =
        questions["results"].as_array().unwrap().iter().map(|g| g["category"].as_str().unwrap()).collect();
    assert_eq!(categories, ["Overview", "What it follows"]);
    let (status, _) = app.get("/api/reports/questions?board_id=nope", &alice.token).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
});

/// Follows a feed source and writes `items` (deeplink, title, text) into it, indexed.
async fn source_with(app: &TestApp, token: &str, url: &str, items: &[(&str, &str, &str)]) -> String {
    let source = follow_feed(app, token, url).await;
    for (deeplink, title, text) in items {
        ingest_text(app, deeplink, &source, title, text, None).await;
    }
    source
}

fn listed(page: &Value) -> Vec<String> {
    let mut out: Vec<String> =
        page["documents"].as_array().unwrap().iter().map(|d| d["deeplink"].as_str().unwrap().to_string()).collect();
    out.sort();
    out
}

const ITEMS: &[(&str, &str, &str)] = &[
    ("rates-1", "Central bank holds rates", "The central bank held interest rates as inflation cooled."),
    ("rates-2", "Inflation surprises", "Consumer inflation rose faster than expected in October."),
    ("crypto-1", "Bitcoin and inflation", "Crypto traders bet on inflation hedges as bitcoin climbed."),
    ("sport-1", "Cup final tonight", "The final kicks off at eight; tickets sold out."),
];

api_test!(a_feed_lists_what_its_definition_matches_and_a_change_re_evaluates_the_history, |app: TestApp| async move {
    let alice = app.sign_up("alice").await;
    source_with(&app, &alice.token, "https://example.com/markets.xml", ITEMS).await;
    let board = create(&app, &alice.token, definition("Inflation", &["inflation"], &[])).await;
    let id = board["board_id"].as_str().unwrap().to_string();
    let (status, page) = app.get(&format!("/api/boards/{id}/v2"), &alice.token).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert_eq!(listed(&page["results"]), ["crypto-1", "rates-1", "rates-2"]);
    assert_eq!(page["results"]["count"], 3);
    let doc = &page["results"]["documents"][0];
    assert_eq!(doc["status"], "unread");
    assert_eq!(doc["id"], doc["deeplink"]);
    let (_, links) = app.get(&format!("/api/boards/{id}/v2?category_tab=links"), &alice.token).await;
    assert_eq!(listed(&links["results"]), ["crypto-1", "rates-1", "rates-2"], "feed items are links");
    let (_, files) = app.get(&format!("/api/boards/{id}/v2?category_tab=documents"), &alice.token).await;
    assert!(listed(&files["results"]).is_empty());
    let (status, _) = app.get(&format!("/api/boards/{id}/v2?category_tab=nope"), &alice.token).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    // Excluding a keyword applies to the documents already there.
    app.put(
        &format!("/api/boards/{id}"),
        &alice.token,
        json!({"definition": definition("Inflation", &["inflation"], &["bitcoin"])}),
    )
    .await;
    let (_, page) = app.get(&format!("/api/boards/{id}/v2"), &alice.token).await;
    assert_eq!(listed(&page["results"]), ["rates-1", "rates-2"]);
    // And undoing the change brings them back.
    app.post(&format!("/api/boards/{id}/undo"), &alice.token, json!({})).await;
    let (_, page) = app.get(&format!("/api/boards/{id}/v2"), &alice.token).await;
    assert_eq!(listed(&page["results"]), ["crypto-1", "rates-1", "rates-2"]);
});

api_test!(a_draft_is_previewed_without_storing_anything, |app: TestApp| async move {
    let alice = app.sign_up("alice").await;
    source_with(&app, &alice.token, "https://example.com/markets.xml", ITEMS).await;
    let (status, preview) = app
        .post(
            "/api/boards/preview",
            &alice.token,
            json!({"definition": definition("", &["\"interest rates\" OR final"], &[])}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{preview}");
    assert_eq!(preview["count"], 2);
    let (status, body) =
        app.post("/api/boards/preview", &alice.token, json!({"definition": definition("x", &["(rates"], &[])})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(body["message"], "Invalid keyword. Paranthesis are imbalanced.");
    let (status, body) =
        app.post("/api/boards/preview", &alice.token, json!({"definition": definition("x", &[], &["sport"])})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "a definition that follows everything: {body}");
    assert_eq!(body["code"], "feed_matches_everything");
    let (_, list) = app.get("/api/boards/v2", &alice.token).await;
    assert_eq!(list["results"].as_array().unwrap().len(), 0);
});

api_test!(a_feed_shared_into_a_group_shows_each_member_only_what_they_may_read, |app: TestApp| async move {
    let alice = app.sign_up("alice").await;
    let bob = app.sign_up("bob").await;
    source_with(&app, &alice.token, "https://example.com/markets.xml", ITEMS).await;
    // Alice's own upload matches too; bob may not read it, nor the source he does not follow.
    ingest_text(&app, "memo-1", "needldrive", "Memo", "Our view on inflation next year.", Some(alice.id())).await;
    let board = create(&app, &alice.token, definition("Inflation", &["inflation"], &[])).await;
    let id = board["board_id"].as_str().unwrap().to_string();
    let channel = create_channel(&app, &alice.token, "Desk", &[bob.id()]).await;
    app.post(&format!("/api/boards/{id}/channels"), &alice.token, json!({"channel_ids": [channel]})).await;
    let path = format!("/api/channels/{channel}/boards/{id}/documents");
    let (status, for_alice) = app.get(&path, &alice.token).await;
    assert_eq!(status, StatusCode::OK, "{for_alice}");
    let names = |v: &Value| -> Vec<String> {
        let mut d: Vec<String> =
            v["results"].as_array().unwrap().iter().map(|d| d["deeplink"].as_str().unwrap().to_string()).collect();
        d.sort();
        d
    };
    assert_eq!(names(&for_alice), ["crypto-1", "memo-1", "rates-1", "rates-2"]);
    let (status, for_bob) = app.get(&path, &bob.token).await;
    assert_eq!(status, StatusCode::OK, "{for_bob}");
    assert!(names(&for_bob).is_empty(), "bob follows nothing and owns nothing: {for_bob}");
    follow_feed(&app, &bob.token, "https://example.com/markets.xml").await;
    let (_, for_bob) = app.get(&path, &bob.token).await;
    assert_eq!(names(&for_bob), ["crypto-1", "rates-1", "rates-2"], "never alice's memo");
    let carol = app.sign_up("carol").await;
    let (status, _) = app.get(&path, &carol.token).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "not a member");
});

api_test!(a_new_match_notifies_the_owner_of_a_feed_that_alerts_at_once, |app: TestApp| async move {
    let alice = app.sign_up("alice").await;
    let source = source_with(&app, &alice.token, "https://example.com/markets.xml", &ITEMS[..1]).await;
    let board = create(&app, &alice.token, definition("Inflation", &["inflation"], &[])).await;
    let id = board["board_id"].as_str().unwrap().to_string();
    app.put(&format!("/api/boards/{id}/alerts"), &alice.token, json!({"alerts": "immediate", "priority": "HIGH"}))
        .await;
    let mut socket = app.connect_live(&alice.token, None).await;
    ingest_text(&app, "rates-9", &source, "Inflation cools again", "Inflation eased for a third month.", None).await;
    ingest_text(&app, "sport-9", &source, "Derby result", "The derby ended in a draw.", None).await;
    let matched = next_of_type(&mut socket, "BoardMatched").await;
    assert_eq!(matched["type"], "BoardMatched");
    let mut found = None;
    for _ in 0..100 {
        let (_, body) = app.get("/api/notifications?page=0", &alice.token).await;
        found = body["results"]
            .as_array()
            .unwrap()
            .iter()
            .find(|n| n["kind"] == "feed_match" || n["type"] == "feed_match")
            .cloned();
        if found.is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let found = found.expect("a feed_match notification");
    assert_eq!(found["document"]["deeplink"], "rates-9", "{found}");
    assert_eq!(found["feed"]["label"], "Inflation", "{found}");
    assert_eq!(found["feed"]["id"], id.as_str());
    let types = event_types(&app, "board_match_day", &format!("{id}/{}", chrono::Utc::now().format("%Y-%m-%d"))).await;
    assert_eq!(types, ["BoardMatched"], "the derby matched nothing, the old item is not new");
});

api_test!(a_digest_lists_the_days_stories_once_and_is_sent_once, |app: TestApp| async move {
    let alice = app.sign_up("alice").await;
    let wire = follow_feed(&app, &alice.token, "https://example.com/wire.xml").await;
    let paper = follow_feed(&app, &alice.token, "https://example.com/paper.xml").await;
    let board = create(&app, &alice.token, definition("Inflation", &["inflation"], &[])).await;
    let id = board["board_id"].as_str().unwrap().to_string();
    app.put(&format!("/api/boards/{id}/alerts"), &alice.token, json!({"alerts": "digest"})).await;
    let story = "Consumer prices rose 0.4 percent in October, the statistics office said on Tuesday, \
                 pushing annual inflation to 3.1 percent, the highest reading since March, as energy and \
                 food costs climbed and economists raised their forecasts for the central bank's next move.";
    ingest_text(&app, "wire-1", &wire, "Inflation rises to 3.1 percent", story, None).await;
    ingest_text(&app, "paper-1", &paper, "Inflation rises to 3.1 percent", &format!("{story} Read more."), None).await;
    ingest_text(
        &app,
        "wire-2",
        &wire,
        "Wages lag inflation",
        "Wage growth slowed while inflation stayed high in the north.",
        None,
    )
    .await;
    let day = format!("{id}/{}", chrono::Utc::now().format("%Y-%m-%d"));
    for _ in 0..100 {
        let matched = commands::feed::read_aggregate(&app.server.state.db, "board_match_day", &day).await.unwrap();
        let n: usize =
            matched.iter().map(|e| e.payload["BoardMatched"]["matches"].as_array().map_or(0, |m| m.len())).sum();
        if n == 3 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // No notification while the day lasts.
    let (_, body) = app.get("/api/notifications?page=0", &alice.token).await;
    assert!(!body["results"].as_array().unwrap().iter().any(|n| n["type"] == "feed_digest"));
    let tomorrow = service::clock::ManualClock::starting_at(chrono::Utc::now() + chrono::Duration::days(1));
    let state = &app.server.state;
    let matcher =
        service::feeds::alerts::FeedMatcher::open(state.db.clone(), state.bus.clone(), tomorrow).await.unwrap();
    matcher.send_digests().await.unwrap();
    matcher.send_digests().await.unwrap();
    let mut digests = vec![];
    for _ in 0..100 {
        let (_, body) = app.get("/api/notifications?page=0", &alice.token).await;
        digests = body["results"].as_array().unwrap().iter().filter(|n| n["type"] == "feed_digest").cloned().collect();
        if !digests.is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(digests.len(), 1, "{digests:?}");
    assert_eq!(
        digests[0]["excerpt"], "Inflation rises to 3.1 percent and 1 more",
        "two stories, the repeated one once"
    );
    assert_eq!(event_types(&app, "board_match_day", &day).await.iter().filter(|t| *t == "BoardDigestSent").count(), 1);
});

api_test!(a_feed_change_reaches_every_socket_of_its_owner_and_nobody_elses, |app: TestApp| async move {
    let alice = app.sign_up("alice").await;
    let bob = app.sign_up("bob").await;
    let board = create(&app, &alice.token, definition("Rates", &["inflation"], &[])).await;
    let id = board["board_id"].as_str().unwrap().to_string();
    let mut first = app.connect_live(&alice.token, None).await;
    let mut second = app.connect_live(&alice.token, None).await;
    let mut other = app.connect_live(&bob.token, None).await;
    app.put(
        &format!("/api/boards/{id}"),
        &alice.token,
        json!({"definition": definition("Rate moves", &["inflation"], &[])}),
    )
    .await;
    for socket in [&mut first, &mut second] {
        let renamed = next_of_type(socket, "BoardRenamed").await;
        assert_eq!(renamed["ids"][0], id.as_str());
    }
    while let Some(seen) = anything_within(&mut other, Duration::from_millis(500)).await {
        assert!(!seen["type"].as_str().unwrap_or_default().starts_with("Board"), "bob hears nothing of it: {seen}");
    }
});

api_test!(a_feed_is_looked_into_and_refined_by_a_suggested_keyword, |app: TestApp| async move {
    let alice = app.sign_up("alice").await;
    let source = source_with(&app, &alice.token, "https://example.com/markets.xml", ITEMS).await;
    ingest_text(&app, "rates-3", &source, "Inflation expectations climb", "Households expect more inflation.", None)
        .await;
    let mut def = definition("Inflation", &["inflation"], &[]);
    def["sources"] = json!({ source.clone(): {"filter": true} });
    let board = create(&app, &alice.token, def).await;
    let id = board["board_id"].as_str().unwrap().to_string();
    let (status, sources) = app.get(&format!("/api/boards/{id}/sources"), &alice.token).await;
    assert_eq!(status, StatusCode::OK, "{sources}");
    assert_eq!(sources["results"][0]["source_id"], source.as_str());
    assert_eq!(sources["results"][0]["mode"], "include");
    let (status, meta) = app.get(&format!("/api/boards/{id}/metadata"), &alice.token).await;
    assert_eq!(status, StatusCode::OK, "{meta}");
    assert_eq!(meta["results"]["count"], 4);
    assert_eq!(meta["results"]["sources"][0]["count"], 4);
    assert_eq!(meta["results"]["categories"][0]["key"], "rss_news");
    let (status, suggested) = app.get(&format!("/api/boards/{id}/suggestions"), &alice.token).await;
    assert_eq!(status, StatusCode::OK, "{suggested}");
    let words: Vec<&str> =
        suggested["results"].as_array().unwrap().iter().map(|s| s["keyword"].as_str().unwrap()).collect();
    assert!(!words.contains(&"inflation"), "a keyword it has already is not suggested: {words:?}");
    let (status, applied) = app
        .post(&format!("/api/boards/{id}/suggestion"), &alice.token, json!({"keyword": "bitcoin", "mode": "exclude"}))
        .await;
    assert_eq!(status, StatusCode::OK, "{applied}");
    assert_eq!(keywords(&applied["results"], "exclude"), ["bitcoin"]);
    let (_, page) = app.get(&format!("/api/boards/{id}/v2"), &alice.token).await;
    assert_eq!(listed(&page["results"]), ["rates-1", "rates-2", "rates-3"]);
});

api_test!(an_ai_feed_is_drafted_from_a_description_and_follows_its_topics, |app: TestApp| async move {
    let alice = app.sign_up("alice").await;
    source_with(
        &app,
        &alice.token,
        "https://example.com/markets.xml",
        &[
            ("div-1", "Board declares a special dividend", "The company will pay a special dividend of 5 rupees."),
            ("m-1", "Port operator agrees takeover", "The takeover values the operator at 2 billion."),
        ],
    )
    .await;
    let (status, drafted) = app
        .post("/api/boards/ai_smarts", &alice.token, json!({"description": "Dividend announcements and buybacks"}))
        .await;
    assert_eq!(status, StatusCode::OK, "{drafted}");
    let draft = drafted["results"]["definition"].clone();
    let keys: Vec<&str> = draft["topics"].as_array().unwrap().iter().map(|t| t["key"].as_str().unwrap()).collect();
    assert_eq!(keys, ["dividends"]);
    let board = create(&app, &alice.token, draft).await;
    assert_eq!(board["kind"], "ai");
    let (_, page) = app.get(&format!("/api/boards/{}/v2", board["board_id"].as_str().unwrap()), &alice.token).await;
    assert_eq!(listed(&page["results"]), ["div-1"]);
    let (status, _) = app.post("/api/boards/ai_smarts", &alice.token, json!({"description": "  "})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
});

/// Items about deals, rates, dividends and sport; `m-3` is a deal told without any word of the
/// mergers topic's keyword expression.
const TOPIC_ITEMS: &[(&str, &str, &str)] = &[
    ("m-1", "Acme agrees to acquire Beta", "Acme will acquire rival Beta in a takeover worth 2 billion dollars in cash."),
    ("m-2", "Gamma and Delta announce merger", "The two lenders will combine in an all-stock merger approved by both boards."),
    (
        "m-3",
        "Vodafone to buy Three UK from CK Hutchison",
        "Vodafone agreed to purchase the rival carrier, combining the two businesses in a deal that values it at 15 billion pounds.",
    ),
    ("r-1", "Central bank raises interest rates", "The central bank raised its policy rate by 25 basis points to curb inflation."),
    ("d-1", "Board declares a special dividend", "The company will pay a special dividend of 5 rupees a share to holders."),
    ("s-1", "Cup final tonight", "The final kicks off at eight; tickets sold out and both teams are at full strength."),
];

async fn topic_feed_classified_by_the_model(app: TestApp) {
    let alice = app.sign_up("alice").await;
    source_with(&app, &alice.token, "https://example.com/markets.xml", TOPIC_ITEMS).await;
    wait_for_vectors(&app, &TOPIC_ITEMS.iter().map(|i| i.0).collect::<Vec<_>>()).await;
    let board = create(&app, &alice.token, json!({"name": "Deals", "topics": ["mergers"]})).await;
    let id = board["board_id"].as_str().unwrap().to_string();
    let (status, page) = app.get(&format!("/api/boards/{id}/v2"), &alice.token).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    // The deal told in other words is found; rates, dividends and sport are not.
    assert_eq!(listed(&page["results"]), ["m-1", "m-2", "m-3"]);
    // Search scoped to the feed reads the documents its page shows, not the keyword expression.
    let search = |q: &str| app.post("/api/search/today", &alice.token, json!({"q": q, "board_id": id.as_str()}));
    let (status, found) = search("Vodafone").await;
    assert_eq!(status, StatusCode::OK, "{found}");
    let found: Vec<&str> =
        found["results"].as_array().unwrap().iter().map(|r| r["deeplink"].as_str().unwrap()).collect();
    assert_eq!(found, ["m-3"]);
    let (_, found) = search("central bank").await;
    assert_eq!(found["count"], 0, "the rates item is not the feed's: {found}");
    // A topic of the user's own, from a description alone.
    let own =
        json!({"name": "Sport", "topics": [{"key": "sport", "description": "Football matches, cup finals and teams"}]});
    let (status, preview) = app.post("/api/boards/preview", &alice.token, json!({"definition": own})).await;
    assert_eq!(status, StatusCode::OK, "{preview}");
    let names: Vec<&str> =
        preview["results"].as_array().unwrap().iter().map(|d| d["deeplink"].as_str().unwrap()).collect();
    assert_eq!(names, ["s-1"]);
    // More like this on the rates item: the topic is refined, and the feed's documents change.
    let (status, given) = app
        .post(&format!("/api/boards/{id}/feedback"), &alice.token, json!({"document_id": "r-1", "more": true}))
        .await;
    assert_eq!(status, StatusCode::OK, "{given}");
    assert_eq!(given["results"]["applied"], true);
    let (_, page) = app.get(&format!("/api/boards/{id}/v2"), &alice.token).await;
    let after = listed(&page["results"]);
    assert!(after.contains(&"r-1".to_string()), "more like this brings the item in: {after:?}");
    assert_eq!(event_types(&app, "board", &id).await.last().unwrap(), "BoardFeedbackGiven");
    // Less like this on it instead: it leaves again.
    app.post(&format!("/api/boards/{id}/feedback"), &alice.token, json!({"document_id": "r-1", "more": false})).await;
    let (_, page) = app.get(&format!("/api/boards/{id}/v2"), &alice.token).await;
    assert!(!listed(&page["results"]).contains(&"r-1".to_string()), "{page}");
}

// Runs only where the model is present (`scripts/setup`); prints SKIPPED otherwise.
model_test!(an_ai_feeds_topics_are_classified_by_the_model_and_refined_by_feedback, topic_feed_classified_by_the_model);

api_test!(without_the_model_topics_match_by_keywords_and_feedback_is_kept, |app: TestApp| async move {
    assert!(app.server.state.semantic.is_none(), "the test server runs without the model");
    let alice = app.sign_up("alice").await;
    source_with(&app, &alice.token, "https://example.com/markets.xml", TOPIC_ITEMS).await;
    let board = create(&app, &alice.token, json!({"name": "Deals", "topics": ["mergers"]})).await;
    let id = board["board_id"].as_str().unwrap().to_string();
    let (_, page) = app.get(&format!("/api/boards/{id}/v2"), &alice.token).await;
    // The taxonomy's expression: the deal told in other words is missed.
    assert_eq!(listed(&page["results"]), ["m-1", "m-2"]);
    let (status, given) = app
        .post(&format!("/api/boards/{id}/feedback"), &alice.token, json!({"document_id": "r-1", "more": true}))
        .await;
    assert_eq!(status, StatusCode::OK, "{given}");
    assert_eq!(given["results"]["applied"], false);
    let (_, page) = app.get(&format!("/api/boards/{id}/v2"), &alice.token).await;
    assert_eq!(listed(&page["results"]), ["m-1", "m-2"]);
    // A topic of the user's own needs the model, or something else to follow.
    let own = json!({"name": "Sport", "topics": [{"key": "sport", "description": "Football matches"}]});
    let (status, body) = app.post("/api/boards/v2", &alice.token, json!({"definition": own})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(body["code"], "feed_matches_everything");
    // Feedback is for feeds with topics, on documents the user may read.
    let keyword = create(&app, &alice.token, definition("Rates", &["inflation"], &[])).await;
    let path = format!("/api/boards/{}/feedback", keyword["board_id"].as_str().unwrap());
    let (status, body) = app.post(&path, &alice.token, json!({"document_id": "r-1", "more": true})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(body["code"], "feed_has_no_topics");
    let (status, _) = app
        .post(&format!("/api/boards/{id}/feedback"), &alice.token, json!({"document_id": "nope", "more": true}))
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let bob = app.sign_up("bob").await;
    let (status, _) =
        app.post(&format!("/api/boards/{id}/feedback"), &bob.token, json!({"document_id": "r-1", "more": true})).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
});

api_test!(an_administrator_sets_the_templates_every_member_is_offered, |app: TestApp| async move {
    // The first account of an instance is its administrator.
    let admin = app.sign_up("alice").await;
    let member = app.sign_up("bob").await;
    let (_, before) = app.get("/api/connect/getFeedTemplates", &member.token).await;
    let builtin = before["results"].as_array().unwrap().len();
    assert!(builtin > 0 && before["results"].as_array().unwrap().iter().all(|t| t["kind"] == "builtin"));

    let set = |templates: Value| json!({ "templates": templates });
    let steel = json!({"name": "Steel prices", "description": "Mills and tariffs", "definition": definition("x", &["steel AND (tariff OR price)"], &[])});
    let rates = json!({"definition": definition("Repo rate", &["\"repo rate\""], &["crypto"])});
    // A member may not; nothing is recorded.
    let (status, body) = app.post("/api/connect/setFeedTemplates", &member.token, set(json!([steel]))).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");

    let (status, saved) = app.post("/api/connect/setFeedTemplates", &admin.token, set(json!([steel, rates]))).await;
    assert_eq!(status, StatusCode::OK, "{saved}");
    let (_, offered) = app.get("/api/connect/getFeedTemplates", &member.token).await;
    assert_eq!(offered, saved);
    let list = offered["results"].as_array().unwrap();
    assert_eq!(list.len(), builtin + 2);
    assert_eq!(
        (list[0]["name"].as_str().unwrap(), list[0]["kind"].as_str().unwrap()),
        ("Steel prices", "organization")
    );
    assert_eq!(list[0]["description"], "Mills and tariffs");
    assert_eq!(list[0]["definition"]["name"], "Steel prices");
    assert_eq!(list[1]["name"], "Repo rate");
    assert_eq!(list[2]["kind"], "builtin");
    let (steel_id, rates_id) = (list[0]["id"].clone(), list[1]["id"].clone());

    // A member builds a feed from one.
    let board = create(&app, &member.token, list[1]["definition"].clone()).await;
    assert_eq!(keywords(&board, "exclude"), ["crypto"]);

    // The whole list again: one renamed and moved first, the other left out (removed).
    let renamed = json!({"id": rates_id, "name": "RBI repo rate", "definition": list[1]["definition"]});
    let (status, saved) = app.post("/api/connect/setFeedTemplates", &admin.token, set(json!([renamed]))).await;
    assert_eq!(status, StatusCode::OK, "{saved}");
    let names: Vec<&str> =
        saved["results"].as_array().unwrap().iter().take(2).map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names[0], "RBI repo rate");
    assert_ne!(names[1], "Steel prices");
    assert_eq!(saved["results"][0]["id"], rates_id);
    assert_eq!(
        event_types(&app, "feed_templates", "instance").await,
        ["FeedTemplateAdded", "FeedTemplateAdded", "FeedTemplateRemoved", "FeedTemplateChanged"]
    );

    // Refusals name the template and record nothing: a bad keyword, two of one name, a definition
    // that matches everything, an id that is no saved template.
    for (templates, code) in [
        (json!([{"definition": definition("Bad", &["steel AND ("], &[])}]), "invalid_keyword"),
        (
            json!([{"definition": definition("Same", &["steel"], &[])}, {"definition": definition("same", &["iron"], &[])}]),
            "template_name_taken",
        ),
        (json!([{"definition": definition("Everything", &[], &[])}]), "feed_matches_everything"),
        (json!([{"id": steel_id, "definition": definition("Gone", &["steel"], &[])}]), "unknown_template"),
    ] {
        let (status, body) = app.post("/api/connect/setFeedTemplates", &admin.token, set(templates)).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
        assert_eq!(body["code"], code, "{body}");
    }
    let (status, body) = app
        .post(
            "/api/connect/setFeedTemplates",
            &admin.token,
            set(json!([{"definition": definition("Bad", &["steel AND ("], &[])}])),
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(body["message"].as_str().unwrap().starts_with("Template 1: Invalid keyword"), "{body}");
    assert_eq!(event_types(&app, "feed_templates", "instance").await.len(), 4);
    let (_, after) = app.get("/api/connect/getFeedTemplates", &member.token).await;
    assert_eq!(after, saved);

    // An empty list removes them all.
    let (status, cleared) = app.post("/api/connect/setFeedTemplates", &admin.token, set(json!([]))).await;
    assert_eq!(status, StatusCode::OK, "{cleared}");
    assert_eq!(cleared["results"].as_array().unwrap().len(), builtin);
});
