//! Notebooks and notes: names with clear messages, one winner among concurrent creates, edits
//! that lose nothing, snippet notes, the assistant's notebook, strangers refused, and the flag.

use serde::Deserialize;

use crate::support::*;

/// The names of the user's notebooks, as listed.
async fn notebook_names(app: &TestApp, token: &str) -> Vec<String> {
    #[derive(Deserialize)]
    struct Listed {
        notebook_name: String,
    }
    let list: Results<Vec<Listed>> = app.get_as("/api/notebook/list", token).await;
    list.results.into_iter().map(|n| n.notebook_name).collect()
}

api_test!(notebooks_are_created_renamed_and_deleted_with_clear_messages, |app: TestApp| async move {
    let app = &app;
    let s = app.sign_up("writer").await;
    let t = s.token.as_str();
    let user_id = s.id();
    let mut other_browser = app.connect_live(&s.token, None).await;
    let put = |path: &'static str, body: Value| app.put(path, t, body);

    let (status, created) = put("/api/notebook", json!({"name": "  Q3   research "})).await;
    assert_eq!(status, StatusCode::OK, "{created}");
    let research = created["results"]["notebookId"].as_str().unwrap().to_string();
    let notebook = &created["results"]["notebook"];
    assert_eq!(notebook["notebook_id"], research.as_str());
    assert_eq!(notebook["notebook_name"], "Q3 research", "trimmed, inner spaces collapsed");
    assert_eq!(
        (&notebook["notebook_type"], &notebook["default"], &notebook["note_count"]),
        (&json!("user"), &json!(false), &json!(0))
    );
    let pushed = next_of_type(&mut other_browser, "NotebookCreated").await;
    assert_eq!(pushed["ids"], json!([user_id, research]));

    for blank in [json!({"name": "   "}), json!({})] {
        let (status, body) = put("/api/notebook", blank).await;
        assert_eq!(
            (status, body["code"].as_str(), body["message"].as_str()),
            (StatusCode::UNPROCESSABLE_ENTITY, Some("notebook_name_required"), Some("Please create a Notebook"))
        );
    }
    let (status, body) = put("/api/notebook", json!({"name": "Q3 RESEARCH"})).await;
    assert_eq!(
        (status, body["code"].as_str(), body["message"].as_str()),
        (StatusCode::CONFLICT, Some("notebook_name_taken"), Some("you already have a notebook named Q3 research"))
    );
    let (status, body) = put("/api/notebook", json!({"name": "x".repeat(101)})).await;
    assert_eq!(
        (status, body["message"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("notebook name must be at most 100 characters"))
    );
    let (status, _) = put("/api/notebook", json!({"name": "ok", "colour": "red"})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "unknown fields are refused");
    let (status, _) = put("/api/notebook", json!({"name": "ok", "feedId": "f".repeat(201)})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);

    // Typed to a feed, and listed newest first.
    let (status, typed) =
        put("/api/notebook", json!({"name": "Feed notes", "feedId": "feed-1", "channelId": null})).await;
    assert_eq!(status, StatusCode::OK, "{typed}");
    assert_eq!(typed["results"]["notebook"]["feed_id"], "feed-1");
    let macro_id = create_notebook(app, &s.token, "Macro").await;
    assert_eq!(notebook_names(app, &s.token).await, ["Macro", "Feed notes", "Q3 research"]);
    let (_, only) = app.get("/api/notebook/list?feedId=feed-1", &s.token).await;
    assert_eq!(only["results"].as_array().unwrap().len(), 1);
    assert_eq!(only["results"][0]["notebook_name"], "Feed notes");

    let rename = |id: String, name: &'static str| async move {
        app.put(&format!("/api/notebook/{id}"), t, json!({"name": name})).await
    };
    let (status, body) = rename(macro_id.clone(), "q3 Research").await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::CONFLICT, Some("notebook_name_taken")));
    let (status, body) = rename(macro_id.clone(), " ").await;
    assert_eq!(
        (status, body["message"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("Please create a Notebook"))
    );
    let (status, body) = rename(macro_id.clone(), "Rates").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["results"]["notebook_name"], "Rates");
    let (status, body) = rename("no-such-notebook".into(), "Other").await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::NOT_FOUND, Some("notebook_not_found")));

    let (status, _) = app.delete(&format!("/api/notebook/{research}"), t).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    assert_eq!(app.get(&format!("/api/notebook/{research}"), &s.token).await.0, StatusCode::NOT_FOUND);
    let (status, _) = app.delete(&format!("/api/notebook/{research}"), t).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "deleted once");
    create_notebook(app, &s.token, "q3 research").await;
    assert_eq!(notebook_names(app, &s.token).await, ["q3 research", "Rates", "Feed notes"]);

    // Auditors (the first user is the administrator) read each change with its actor.
    let (status, history) = app.get(&format!("/api/audit/aggregates/notebook_shelf/{user_id}"), &s.token).await;
    assert_eq!(status, StatusCode::OK, "{history}");
    let events = history["events"].as_array().unwrap();
    let types: Vec<&str> = events.iter().map(|e| e["event_type"].as_str().unwrap()).collect();
    assert_eq!(
        types,
        [
            "NotebookCreated",
            "NotebookCreated",
            "NotebookCreated",
            "NotebookRenamed",
            "NotebookDeleted",
            "NotebookCreated"
        ]
    );
    assert!(events.iter().all(|e| e["metadata"]["user_id"] == user_id), "{history}");
});

api_test!(concurrent_creates_of_one_notebook_name_let_exactly_one_win, |app: TestApp| async move {
    let app = &app;
    let s = app.sign_up("racer").await;
    let names = ["Research", "research", " RESEARCH", "Research ", "reSearch", "Research"];
    let creates = names.iter().map(|name| app.put("/api/notebook", &s.token, json!({"name": name})));
    let results = futures::future::join_all(creates).await;
    let won = results.iter().filter(|(status, _)| *status == StatusCode::OK).count();
    assert_eq!(won, 1, "{results:?}");
    assert!(
        results.iter().all(|(status, _)| *status == StatusCode::OK || *status == StatusCode::CONFLICT),
        "{results:?}"
    );
    assert_eq!(notebook_names(app, &s.token).await.len(), 1);
    let user_id = s.id();
    assert_eq!(event_types(app, "notebook_shelf", user_id).await, ["NotebookCreated"]);
});

api_test!(notes_are_created_edited_and_deleted_and_a_stale_edit_loses_nothing, |app: TestApp| async move {
    let app = &app;
    let s = app.sign_up("editor").await;
    let t = s.token.as_str();
    let notebook = create_notebook(app, &s.token, "Research").await;
    let mut other_browser = app.connect_live(&s.token, None).await;

    let note = create_note(app, &s.token, &notebook, " Ideas ", doc("First draft")).await;
    let id = note["id"].as_str().unwrap().to_string();
    assert_eq!((&note["name"], &note["version"], &note["kind"]), (&json!("Ideas"), &json!(1), &json!("note")));
    assert_eq!(
        (&note["body"], &note["preview"], &note["snippet"]),
        (&doc("First draft"), &json!("First draft"), &Value::Null)
    );
    assert_eq!((&note["notebook_id"], &note["notebook_name"]), (&json!(notebook), &json!("Research")));
    let pushed = next_of_type(&mut other_browser, "NoteCreated").await;
    assert_eq!(pushed["ids"], json!([id, notebook]));
    // The spec's "serialised rich text": a string holding the document works too; no body is fine.
    let as_text = create_note(app, &s.token, &notebook, "Text", Value::String(doc("As text").to_string())).await;
    assert_eq!(as_text["body"], doc("As text"));
    let empty = create_note(app, &s.token, &notebook, "", Value::Null).await;
    assert_eq!((&empty["name"], &empty["body"], &empty["preview"]), (&json!(""), &Value::Null, &json!("")));

    let edit = |version: u64, body: Value| {
        let path = format!("/api/note/{id}");
        async move { app.put(&path, t, json!({"version": version, "body": body})).await }
    };
    let (status, edited) = edit(1, doc("Second draft")).await;
    assert_eq!(status, StatusCode::OK, "{edited}");
    assert_eq!((&edited["results"]["version"], &edited["results"]["body"]), (&json!(2), &doc("Second draft")));
    next_of_type(&mut other_browser, "NoteEdited").await;
    // Autosave of what is already there: no event, whatever version the editor had.
    for version in [2, 1] {
        let (status, same) = edit(version, doc("Second draft")).await;
        assert_eq!((status, &same["results"]["version"]), (StatusCode::OK, &json!(2)));
    }
    assert_eq!(event_types(app, "note", &id).await, ["NoteCreated", "NoteEdited"]);

    // An edit based on version 1 would overwrite version 2: refused, and version 2 stays.
    let (status, body) = edit(1, doc("Stale draft")).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::CONFLICT, Some("note_version_stale")));
    assert!(body["message"].as_str().unwrap().contains("it is now at version 2"), "{body}");
    assert_eq!(app.get(&format!("/api/note/{id}"), &s.token).await.1["results"]["body"], doc("Second draft"));

    // Two browsers save over version 2 at once: one wins, the other is told, nothing is mixed.
    let (a, b) = tokio::join!(edit(2, doc("From A")), edit(2, doc("From B")));
    let mut statuses = [a.0, b.0];
    statuses.sort();
    assert_eq!(statuses, [StatusCode::OK, StatusCode::CONFLICT], "{a:?} {b:?}");
    let winner = if a.0 == StatusCode::OK { doc("From A") } else { doc("From B") };
    let (_, now) = app.get(&format!("/api/note/{id}"), &s.token).await;
    assert_eq!((&now["results"]["body"], &now["results"]["version"]), (&winner, &json!(3)));

    // A new name alone, then bad input.
    let path = format!("/api/note/{id}");
    let (status, renamed) = app.put(&path, t, json!({"version": 3, "title": "Plans"})).await;
    assert_eq!(
        (status, &renamed["results"]["name"], &renamed["results"]["body"]),
        (StatusCode::OK, &json!("Plans"), &winner)
    );
    for (body, code) in [
        (json!({"version": 4, "body": [1, 2]}), "note_body_invalid"),
        (json!({"version": 4, "body": "not json"}), "note_body_invalid"),
        (json!({"version": 4, "body": {"text": "x".repeat(1_000_001)}}), "note_body_too_large"),
        (json!({"version": 4}), "nothing_to_edit"),
        (json!({"body": doc("no version")}), "invalid_body"),
    ] {
        let (status, answer) = app.put(&path, t, body).await;
        assert_eq!((status, answer["code"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some(code)), "{answer}");
    }
    let (_, answer) = app.put(&path, t, json!({"version": 4, "body": [1]})).await;
    assert_eq!(answer["message"], "a note's body must be a JSON object (a rich-text document)");
    let near_limit = json!({"text": "x".repeat(900_000)});
    let (status, big) = app.put(&path, t, json!({"version": 4, "body": near_limit})).await;
    assert_eq!(status, StatusCode::OK, "a body under 1 MB passes the general request limit: {big}");

    // The notebook's page: notes newest first, previews cut at 1000 characters.
    let long = create_note(app, &s.token, &notebook, "Long", doc(&"é".repeat(1500))).await;
    assert_eq!(long["preview"], format!("{}...", "é".repeat(1000)));
    let (status, page) = app.get(&format!("/api/notebook/{notebook}"), &s.token).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert_eq!((&page["results"]["notebook_name"], &page["results"]["note_count"]), (&json!("Research"), &json!(4)));
    let names: Vec<&str> =
        page["results"]["notes"].as_array().unwrap().iter().map(|n| n["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["Long", "", "Text", "Plans"]);
    assert!(page["results"]["notes"][0].get("body").is_none(), "lists leave bodies out");
    assert_eq!(app.get("/api/notebook/list", &s.token).await.1["results"][0]["note_count"], 4);

    let (status, _) = app.delete(&path, t).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    next_of_type(&mut other_browser, "NoteDeleted").await;
    assert_eq!(app.get(&path, &s.token).await.0, StatusCode::NOT_FOUND);
    let (status, body) = app.put(&path, t, json!({"version": 5, "name": "x"})).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::NOT_FOUND, Some("note_not_found")));
    assert_eq!(app.get("/api/notebook/list", &s.token).await.1["results"][0]["note_count"], 3);

    // A deleted notebook takes its notes with it.
    let long_id = long["id"].as_str().unwrap();
    app.delete(&format!("/api/notebook/{notebook}"), t).await;
    assert_eq!(app.get(&format!("/api/note/{long_id}"), &s.token).await.0, StatusCode::NOT_FOUND);
    let path = format!("/api/note/create/{notebook}");
    let (status, body) = app.put(&path, t, json!({"name": "late"})).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::NOT_FOUND, Some("notebook_not_found")));
});

api_test!(a_snippet_note_holds_its_document_and_its_source, |app: TestApp| async move {
    let app = &app;
    let s = app.sign_up("clipper").await;
    let t = s.token.as_str();
    let notebook = create_notebook(app, &s.token, "Clips").await;
    let path = format!("/api/note/snip/{notebook}");
    let source =
        json!({"deeplink": "doc-1", "source": "rss_news", "title": "Q3 results", "link": "https://example.org/q3"});
    let (status, snip) = app.post(&path, t, json!({"document": doc("Revenue grew 12%"), "source": source})).await;
    assert_eq!(status, StatusCode::OK, "{snip}");
    let note = &snip["results"];
    assert_eq!((&note["kind"], &note["name"], &note["snippet"]), (&json!("snippet"), &json!("Q3 results"), &source));
    assert_eq!((&note["body"], &note["preview"]), (&doc("Revenue grew 12%"), &json!("Revenue grew 12%")));

    // The note preview page's call: no body, the notebook's name, the source.
    let id = note["id"].as_str().unwrap();
    let (status, preview) = app.get(&format!("/api/note/{id}/preview"), &s.token).await;
    assert_eq!(status, StatusCode::OK, "{preview}");
    let preview = &preview["results"];
    assert_eq!(
        (&preview["notebook_name"], &preview["preview"], &preview["snippet"]["link"]),
        (&json!("Clips"), &json!("Revenue grew 12%"), &json!("https://example.org/q3"))
    );
    assert!(preview.get("body").is_none());

    let (status, named) = app
        .post(&path, t, json!({"document": doc("x"), "name": "Mine", "source": {"link": "/preview/rss_news/doc-1"}}))
        .await;
    assert_eq!((status, &named["results"]["name"]), (StatusCode::OK, &json!("Mine")));
    for (body, code) in [
        (json!({"source": source}), "snippet_document_required"),
        (json!({"document": doc("x"), "source": {"link": "javascript:alert(1)"}}), "snippet_source_invalid"),
        (json!({"document": doc("x"), "source": {"title": "t".repeat(1001)}}), "snippet_source_invalid"),
        (json!({"document": "[]"}), "note_body_invalid"),
    ] {
        let (status, answer) = app.post(&path, t, body).await;
        assert_eq!((status, answer["code"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some(code)), "{answer}");
    }
    let (_, answer) =
        app.post(&path, t, json!({"document": doc("x"), "source": {"link": "javascript:alert(1)"}})).await;
    assert_eq!(answer["message"], "the snippet's link must be an http or https URL");
    assert_eq!(app.get(&format!("/api/notebook/{notebook}"), &s.token).await.1["results"]["note_count"], 2);
});

api_test!(the_assistant_notebook_is_created_once_and_reused, |app: TestApp| async move {
    let app = &app;
    let s = app.sign_up("asker").await;
    create_notebook(app, &s.token, "AskNeedl").await;
    let bot = || app.put("/api/notebook?botNotebook=true", &s.token, json!({"name": "AskNeedl"}));
    let (a, b, c) = tokio::join!(bot(), bot(), bot());
    for (status, body) in [&a, &b, &c] {
        assert_eq!(*status, StatusCode::OK, "{body}");
    }
    let id = a.1["results"]["notebookId"].as_str().unwrap().to_string();
    assert!([&b, &c].iter().all(|(_, body)| body["results"]["notebookId"] == id.as_str()), "{b:?} {c:?}");
    let notebook = &a.1["results"]["notebook"];
    assert_eq!(
        (&notebook["notebook_name"], &notebook["notebook_type"], &notebook["default"]),
        (&json!("AskNeedl 2"), &json!("default"), &json!(true)),
        "the user's own AskNeedl notebook keeps its name"
    );
    // Saving a conversation: the assistant notebook, then a snippet in it.
    let (status, again) = bot().await;
    assert_eq!((status, again["results"]["notebookId"].as_str()), (StatusCode::OK, Some(id.as_str())));
    let conversation = doc("Q: What moved rates? A: Inflation [1].");
    let (status, saved) = app
        .post(
            &format!("/api/note/snip/{id}"),
            &s.token,
            json!({"document": conversation, "name": "Rates chat", "source": {"source": "ask_needl"}}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{saved}");
    assert_eq!(notebook_names(app, &s.token).await, ["AskNeedl 2", "AskNeedl"]);
    let user_id = s.id();
    assert_eq!(event_types(app, "notebook_shelf", user_id).await, ["NotebookCreated", "NotebookCreated"]);
});

api_test!(a_stranger_gets_404_from_every_notebook_and_note_endpoint_and_sees_nothing_live, |app: TestApp| async move {
    let app = &app;
    // The stranger signs up first and so is the administrator: notes are private even to them.
    let stranger = app.sign_up("stranger").await;
    let owner = app.sign_up("owner").await;
    assert_eq!(stranger.user["is_admin"], true);
    let (o, x) = (owner.token.as_str(), stranger.token.as_str());
    let mut stranger_socket = app.connect_live(&stranger.token, None).await;
    let notebook = create_notebook(app, &owner.token, "Private").await;
    let note = create_note(app, &owner.token, &notebook, "Secret", doc("secret text")).await;
    let note_id = note["id"].as_str().unwrap().to_string();
    let (_, snip) = app.post(&format!("/api/note/snip/{notebook}"), o, json!({"document": doc("clip")})).await;
    let snip_id = snip["results"]["id"].as_str().unwrap().to_string();

    use reqwest::Method;
    let calls: Vec<(Method, String, Option<Value>)> = vec![
        (Method::GET, format!("/api/notebook/{notebook}"), None),
        (Method::PUT, format!("/api/notebook/{notebook}"), Some(json!({"name": "Mine now"}))),
        (Method::DELETE, format!("/api/notebook/{notebook}"), None),
        (Method::PUT, format!("/api/note/create/{notebook}"), Some(json!({"name": "Planted"}))),
        (Method::POST, format!("/api/note/snip/{notebook}"), Some(json!({"document": doc("planted")}))),
        (Method::GET, format!("/api/note/{note_id}"), None),
        (Method::GET, format!("/api/note/{snip_id}/preview"), None),
        (Method::PUT, format!("/api/note/{note_id}"), Some(json!({"version": 1, "body": doc("overwritten")}))),
        (Method::DELETE, format!("/api/note/{snip_id}"), None),
    ];
    for (method, path, body) in calls {
        let (status, answer) = app.send(method.clone(), &path, Some(x), body).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{method} {path}: {answer}");
        assert!(answer["code"] == "notebook_not_found" || answer["code"] == "note_not_found", "{answer}");
    }
    assert_eq!(notebook_names(app, &stranger.token).await, Vec::<String>::new());
    // Names are unique per user: the stranger may have one of the same name.
    create_notebook(app, &stranger.token, "Private").await;

    // Nothing of the owner's changed, and nothing of it reached the stranger's socket.
    assert_eq!(notebook_names(app, &owner.token).await, ["Private"]);
    let (_, kept) = app.get(&format!("/api/note/{note_id}"), &owner.token).await;
    assert_eq!((&kept["results"]["version"], &kept["results"]["body"]), (&json!(1), &doc("secret text")));
    assert_eq!(app.get(&format!("/api/notebook/{notebook}"), &owner.token).await.1["results"]["note_count"], 2);
    let owner_id = owner.id();
    while let Some(seen) = anything_within(&mut stranger_socket, Duration::from_millis(600)).await {
        // The owner's sign-up is shown to the administrator, and may reach the socket after it
        // opened (the hub publishes once the read models have applied it): not a leak of notes.
        if seen["type"] == "UserSignedUp" {
            continue;
        }
        let ids = seen["ids"].to_string();
        assert!(
            !ids.contains(owner_id) && !ids.contains(&notebook) && !ids.contains(&note_id),
            "the stranger saw {seen}"
        );
    }
});

api_test!(notebooks_are_refused_when_the_flag_is_off, |app: TestApp| async move {
    let app = &app;
    let admin = app.sign_up("chief").await;
    let member = app.sign_up("clerk").await;
    let m = member.token.as_str();
    let notebook = create_notebook(app, &member.token, "Before").await;
    let note = create_note(app, &member.token, &notebook, "Kept", doc("kept")).await;
    let note_id = note["id"].as_str().unwrap().to_string();
    let member_id = member.id();
    let flag = format!("/api/admin/users/{member_id}/flags/notebooks");
    let (status, _) = app.put(&flag, &admin.token, json!({"value": "off"})).await;
    assert_eq!(status, StatusCode::OK);

    use reqwest::Method;
    let calls: Vec<(Method, String, Option<Value>)> = vec![
        (Method::PUT, "/api/notebook".into(), Some(json!({"name": "After"}))),
        (Method::PUT, "/api/notebook?botNotebook=true".into(), Some(json!({}))),
        (Method::PUT, format!("/api/notebook/{notebook}"), Some(json!({"name": "Renamed"}))),
        (Method::DELETE, format!("/api/notebook/{notebook}"), None),
        (Method::PUT, format!("/api/note/create/{notebook}"), Some(json!({"name": "New"}))),
        (Method::POST, format!("/api/note/snip/{notebook}"), Some(json!({"document": doc("clip")}))),
        (Method::PUT, format!("/api/note/{note_id}"), Some(json!({"version": 1, "body": doc("changed")}))),
        (Method::DELETE, format!("/api/note/{note_id}"), None),
    ];
    for (method, path, body) in calls {
        let (status, answer) = app.send(method.clone(), &path, Some(m), body).await;
        assert_eq!(
            (status, answer["message"].as_str()),
            (StatusCode::FORBIDDEN, Some("notebooks are turned off for you")),
            "{method} {path}"
        );
    }
    assert_eq!(notebook_names(app, &member.token).await, ["Before"], "reading stays allowed");
    assert_eq!(app.get(&format!("/api/note/{note_id}"), &member.token).await.1["results"]["body"], doc("kept"));
});
