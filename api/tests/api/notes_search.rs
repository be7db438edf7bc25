//! Notes in search and in AskNeedl: a note is found by its author alone (in the notes tab, by
//! its new words once edited, never once deleted) and a notebook can be asked over.

use crate::support::*;

/// Waits until the search index has every event recorded so far.
async fn index_caught_up(app: &TestApp) {
    let head = commands::feed::newest_committed(&app.server.state.db).await.unwrap();
    assert!(app.server.state.search.wait_for(head, Duration::from_secs(20)).await, "the index caught up");
}

/// The notes tab's count in the category answer for `q` (0 when the tab is absent).
async fn notes_count(app: &TestApp, token: &str, q: &str) -> u64 {
    let (status, tabs) = app.post("/api/search", token, json!({"type": "category", "q": q})).await;
    assert_eq!(status, StatusCode::OK, "{tabs}");
    tabs["category_tabs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["key"] == "notes")
        .map(|t| t["count"].as_u64().unwrap())
        .unwrap_or(0)
}

/// The notes tab's results for `q`.
async fn notes_found(app: &TestApp, token: &str, q: &str) -> Value {
    let (status, found) = app.post("/api/search/notes", token, json!({"q": q})).await;
    assert_eq!(status, StatusCode::OK, "{found}");
    found
}

fn edit(version: u64, body: Value) -> Value {
    json!({"version": version, "body": body})
}

api_test!(a_note_is_found_by_its_owner_in_the_notes_tab_and_never_by_a_stranger, |app: TestApp| async move {
    let app = &app;
    let owner = app.sign_up("writer").await;
    let stranger = app.sign_up("stranger").await;
    let notebook = create_notebook(app, &owner.token, "Plant visits").await;
    let body = json!({"type": "doc", "content": [
        {"type": "heading", "content": [{"type": "text", "text": "Boiler room"}]},
        {"type": "paragraph", "content": [
            {"type": "text", "text": "Severe corrosion near the "},
            {"type": "text", "marks": [{"type": "bold"}], "text": "flanges"},
        ]},
    ]});
    let note = create_note(app, &owner.token, &notebook, "Visit to the Pune plant", body).await;
    let note_id = note["id"].as_str().unwrap().to_string();
    index_caught_up(app).await;

    assert_eq!(notes_count(app, &owner.token, "corrosion").await, 1);
    let found = notes_found(app, &owner.token, "corrosion flanges").await;
    assert_eq!(found["count"], 1, "{found}");
    let hit = &found["results"][0];
    assert_eq!(hit["deeplink"], note_id.as_str(), "a note is listed as its preview opens it: {hit}");
    assert_eq!(hit["source"], "needl_notebooks");
    assert_eq!(hit["category_tab"], "notes");
    assert_eq!(hit["title"], "Visit to the Pune plant");
    assert_eq!(hit["source_label"], "Plant visits");
    assert_eq!(hit["metadata"]["notebook_id"], notebook.as_str());
    assert!(hit["highlights"][0]["html"].as_str().unwrap().contains("<em>corrosion</em>"), "{hit}");
    // Found from all of My Data with the tab chosen, and within its notebook.
    let (_, all) = app.post("/api/search", &owner.token, json!({"q": "boiler", "category_tab": "notes"})).await;
    assert_eq!(all["results"][0]["deeplink"], note_id.as_str(), "{all}");
    let (_, within) = app.post(&format!("/api/search/{notebook}"), &owner.token, json!({"q": "boiler"})).await;
    assert_eq!(within["count"], 1, "{within}");

    // A stranger finds nothing: no tab, no hit, not within the notebook, not a spelling suggestion.
    assert_eq!(notes_count(app, &stranger.token, "corrosion").await, 0);
    assert_eq!(notes_found(app, &stranger.token, "corrosion").await["count"], 0);
    let (_, within) = app.post(&format!("/api/search/{notebook}"), &stranger.token, json!({"q": "boiler"})).await;
    assert_eq!(within["count"], 0, "{within}");
    for search_type in ["needl_web", "shared_data"] {
        let (_, other) =
            app.post("/api/search", &stranger.token, json!({"q": "corrosion", "search_type": search_type})).await;
        assert_eq!(other["count"], 0, "{search_type}: {other}");
    }
    let (status, misspelt) =
        app.post("/api/search", &stranger.token, json!({"q": "corosion", "spell_correct": true})).await;
    assert_eq!(status, StatusCode::OK, "{misspelt}");
    assert_eq!(misspelt["query_params"]["corrected_q"], Value::Null, "{misspelt}");
    assert_eq!(misspelt["count"], 0);
    let (_, corrected) = app.post("/api/search", &owner.token, json!({"q": "corosion", "spell_correct": true})).await;
    assert_eq!(corrected["query_params"]["corrected_q"], "corrosion", "the owner's own words correct: {corrected}");
});

api_test!(an_edited_note_is_found_by_its_new_words_and_a_deleted_one_is_gone, |app: TestApp| async move {
    let app = &app;
    let s = app.sign_up("editor").await;
    let t = s.token.as_str();
    let notebook = create_notebook(app, &s.token, "Drafts").await;
    let note = create_note(app, &s.token, &notebook, "", doc("Turbine maintenance is overdue")).await;
    let note_id = note["id"].as_str().unwrap().to_string();
    index_caught_up(app).await;
    let found = notes_found(app, &s.token, "turbine").await;
    assert_eq!(found["results"][0]["title"], "Turbine maintenance is overdue", "untitled: its first line");

    let path = format!("/api/note/{note_id}");
    let (status, body) = app.put(&path, t, edit(1, doc("Compressor inspection passed"))).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    index_caught_up(app).await;
    assert_eq!(notes_found(app, &s.token, "turbine").await["count"], 0, "the old words are gone");
    assert_eq!(notes_found(app, &s.token, "compressor").await["count"], 1);

    // Renaming alone keeps the body it does not carry.
    let (status, body) = app.put(&path, t, json!({"version": 2, "name": "Inspection log"})).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    index_caught_up(app).await;
    let found = notes_found(app, &s.token, "compressor").await;
    assert_eq!(found["count"], 1, "{found}");
    assert_eq!(found["results"][0]["title"], "Inspection log");
    assert_eq!(notes_found(app, &s.token, "log").await["count"], 1, "found by its new name");

    let (status, _) = app.delete(&path, t).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    index_caught_up(app).await;
    assert_eq!(notes_found(app, &s.token, "compressor").await["count"], 0);
    assert_eq!(notes_count(app, &s.token, "compressor").await, 0);

    // A deleted notebook takes its notes out of the index.
    create_note(app, &s.token, &notebook, "Spare parts", doc("Order gaskets for the pumps")).await;
    index_caught_up(app).await;
    assert_eq!(notes_found(app, &s.token, "gaskets").await["count"], 1);
    let (status, _) = app.delete(&format!("/api/notebook/{notebook}"), t).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    index_caught_up(app).await;
    assert_eq!(notes_count(app, &s.token, "gaskets").await, 0);
});

api_test!(asking_over_a_notebook_cites_its_notes_and_a_strangers_notebook_is_not_found, |app: TestApp| async move {
    let app = &app;
    let owner = app.sign_up("researcher").await;
    let stranger = app.sign_up("snoop").await;
    let notebook = create_notebook(app, &owner.token, "Steel research").await;
    let other = create_notebook(app, &owner.token, "Farming").await;
    let note = create_note(
        app,
        &owner.token,
        &notebook,
        "Tariff notes",
        doc("The United States imposed a 25 percent tariff on imported steel in March 2018."),
    )
    .await;
    let note_id = note["id"].as_str().unwrap().to_string();
    create_note(app, &owner.token, &other, "Harvest", doc("Steel ploughs were cheaper before the tariff on steel."))
        .await;
    index_caught_up(app).await;

    let prompt = "What tariff did the United States impose on imported steel?";
    let (status, done) = app
        .post("/api/ml/ask-needl", &owner.token, json!({"prompt": prompt, "source": notebook, "stream": false}))
        .await;
    assert_eq!(status, StatusCode::OK, "{done}");
    let cited: Vec<&Value> = done["retrieved_results"].as_array().unwrap().iter().collect();
    assert!(!cited.is_empty(), "{done}");
    assert!(cited.iter().all(|c| c["document_id"] == note_id.as_str()), "only this notebook's notes: {done}");
    let citation = cited[0];
    assert_eq!(citation["source"], "needl_notebooks");
    assert_eq!(citation["title_label"], "Tariff notes");
    assert_eq!(citation["source_label"], "Steel research");
    let link = citation["needl_document_link"].as_str().unwrap();
    assert!(link.starts_with(&format!("/preview?document_id={note_id}&access_key=")), "{link}");
    assert!(done["generated_answer"]["answer"].as_str().unwrap().contains("25 percent"), "{done}");

    // Search mode over the notebook lists the note too.
    let (_, searched) = app
        .post(
            "/api/ml/ask-needl",
            &owner.token,
            json!({"prompt": "steel tariff", "source": notebook, "mode": "search", "stream": false}),
        )
        .await;
    assert_eq!(searched["retrieved_results"][0]["document_id"], note_id.as_str(), "{searched}");
    assert_eq!(searched["retrieved_results"].as_array().unwrap().len(), 1, "{searched}");

    // Another user's notebook is not found, and nothing is recorded.
    let (_, before) = app.get("/api/ml/ask-needl/sessions", &stranger.token).await;
    let (status, refused) = app
        .post("/api/ml/ask-needl", &stranger.token, json!({"prompt": prompt, "source": notebook, "stream": false}))
        .await;
    assert_eq!((status, refused["code"].as_str()), (StatusCode::NOT_FOUND, Some("notebook_not_found")), "{refused}");
    let (_, after) = app.get("/api/ml/ask-needl/sessions", &stranger.token).await;
    assert_eq!(after["sessions"], before["sessions"], "nothing written: {after}");
    assert_eq!(after["sessions"].as_array().unwrap().len(), 0);
});
