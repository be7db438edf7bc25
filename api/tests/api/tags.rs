//! Tags and bookmarks: names with clear messages, a document's own and shared tags pushed live,
//! bookmarks, strangers refused, concurrent changes kept, and the feature flags that turn them
//! off.

use crate::support::*;

api_test!(tags_are_created_renamed_and_deleted_with_clear_messages, |app: TestApp| async move {
    let app = &app;
    let s = app.sign_up("tagger").await;
    let t = s.token.as_str();
    let (status, created) = app.post("/api/tag", t, json!({"tag": "  Risk   review "})).await;
    assert_eq!(status, StatusCode::OK, "{created}");
    assert_eq!(created["results"]["name"], "Risk review", "trimmed, inner spaces collapsed");
    let risk = created["results"]["id"].as_str().unwrap().to_string();
    let (status, body) = app.post("/api/tag", t, json!({"tag": "   "})).await;
    assert_eq!(
        (status, body["code"].as_str(), body["message"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("tag_name_required"), Some("tag name is required"))
    );
    let (status, body) = app.post("/api/tag", t, json!({"tag": "x".repeat(51)})).await;
    assert_eq!(
        (status, body["message"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("tag name must be at most 50 characters"))
    );
    let (status, body) = app.post("/api/tag", t, json!({"tag": "RISK REVIEW"})).await;
    assert_eq!(
        (status, body["code"].as_str(), body["message"].as_str()),
        (StatusCode::CONFLICT, Some("tag_name_taken"), Some("you already have a tag named Risk review"))
    );
    let (status, _) = app.post("/api/tag", t, json!({"tag": "ok", "color": "red"})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "unknown fields are refused");
    let macro_id = create_tag(app, &s.token, "macro").await;
    let (_, list) = app.get("/api/tag/user-tags", &s.token).await;
    assert_eq!(names_of(&list["results"]), ["macro", "Risk review"], "by name whatever its case");

    let rename = |id: String, name: &'static str| async move {
        app.put(&format!("/api/tag/{id}"), t, json!({"name": name})).await
    };
    let (status, body) = rename(macro_id.clone(), "risk Review").await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::CONFLICT, Some("tag_name_taken")));
    let (status, body) = rename(macro_id.clone(), "Macro").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["results"], json!({"id": macro_id, "name": "Macro"}), "a change of case is a rename");
    let (status, body) = rename("no-such-tag".into(), "Other").await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::NOT_FOUND, Some("tag_not_found")));
    let (status, body) = rename("bookmark".into(), "Saved").await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::FORBIDDEN, Some("bookmark_tag_reserved")));
    let (status, body) = rename(macro_id.clone(), "").await;
    assert_eq!((status, body["message"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("tag name is required")));

    let (status, _) = app.post("/api/tag/delete", t, json!({"tag_ids": [risk, "no-such-tag"]})).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "all or nothing");
    let (status, _) = app.post("/api/tag/delete", t, json!({"tag_ids": []})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    let (status, body) = app.post("/api/tag/delete", t, json!({"tag_ids": ["bookmark"]})).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::FORBIDDEN, Some("bookmark_tag_reserved")));
    let (status, _) = app.post("/api/tag/delete", t, json!({"tag_ids": [risk]})).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    assert_eq!(names_of(&app.get("/api/tag/user-tags", &s.token).await.1["results"]), ["Macro"]);
    create_tag(app, &s.token, "RISK review").await;

    // Auditors (the first user is the administrator) read each change with its actor.
    let user_id = s.id();
    let (status, history) = app.get(&format!("/api/audit/aggregates/tag_book/{user_id}"), &s.token).await;
    assert_eq!(status, StatusCode::OK, "{history}");
    let events = history["events"].as_array().unwrap();
    let types: Vec<&str> = events.iter().map(|e| e["event_type"].as_str().unwrap()).collect();
    assert_eq!(types, ["TagCreated", "TagCreated", "TagRenamed", "TagDeleted", "TagCreated"]);
    assert!(events.iter().all(|e| e["metadata"]["user_id"] == user_id), "{history}");
    assert_eq!(events[2]["payload"]["TagRenamed"]["from"], "macro");
});

api_test!(a_tagged_document_reads_back_its_own_and_shared_tags_and_pushes_live, |app: TestApp| async move {
    let app = &app;
    let s = app.sign_up("reader").await;
    let t = s.token.as_str();
    followed_source_with(app, &s.token, "https://tags.example.org/rss", &["doc-t"]).await;
    let risk = create_tag(app, &s.token, "Risk").await;
    let macro_id = create_tag(app, &s.token, "Macro").await;
    let mut other_browser = app.connect_live(&s.token, None).await;

    let (status, index) =
        app.post("/api/tag/doc-t", t, json!({"tags": [risk, macro_id], "feed_id": "feed-1", "channel_id": null})).await;
    assert_eq!(status, StatusCode::OK, "{index}");
    let mut names = names_of(&index["results"]["user_tags"]);
    names.sort();
    assert_eq!(names, ["Macro", "Risk"]);
    let pushed = next_of_type(&mut other_browser, "DocumentTagged").await;
    assert_eq!(pushed["ids"], json!([format!("{}/doc-t", s.id())]));
    let (status, index) = app.get("/api/tag?deep_link=doc-t", &s.token).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(index["results"]["shared_tags"], json!([]));
    assert_eq!(index["results"]["bookmarked"], false);
    assert_eq!(index["results"]["user_tags"].as_array().unwrap().len(), 2);

    // A rename shows on the document; a deleted tag comes off it.
    app.put(&format!("/api/tag/{macro_id}"), t, json!({"name": "Rates"})).await;
    app.post("/api/tag/delete", t, json!({"tag_ids": [risk]})).await;
    next_of_type(&mut other_browser, "TagDeleted").await;
    let (_, index) = app.get("/api/tag?deeplink=doc-t", &s.token).await;
    assert_eq!(names_of(&index["results"]["user_tags"]), ["Rates"]);
    let (status, body) = app.post("/api/tag/doc-t", t, json!({"tags": [risk]})).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::NOT_FOUND, Some("tag_not_found")), "a deleted tag");

    // Shared tags live beside the user's own, per channel.
    let chan_1 = create_channel(app, &s.token, "Desk one", &[]).await;
    let chan_2 = create_channel(app, &s.token, "Desk two", &[]).await;
    let (status, index) = app.post("/api/tag/doc-t", t, json!({"tags": [macro_id], "channel_id": chan_1})).await;
    assert_eq!(status, StatusCode::OK, "{index}");
    assert_eq!(names_of(&index["results"]["shared_tags"]), ["Rates"]);
    assert_eq!(names_of(&index["results"]["user_tags"]), ["Rates"]);
    assert_eq!(
        app.get(&format!("/api/tag?deep_link=doc-t&channel_id={chan_1}"), &s.token).await.1["results"]["shared_tags"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    assert_eq!(
        app.get(&format!("/api/tag?deep_link=doc-t&channel_id={chan_2}"), &s.token).await.1["results"]["shared_tags"],
        json!([])
    );
    let (status, body) = app.post("/api/tag/doc-t", t, json!({"tags": ["bookmark"], "channel_id": chan_1})).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("bookmark_not_shared")));
    let (status, index) = app.post("/api/tag/doc-t", t, json!({"tags": []})).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(index["results"]["user_tags"], json!([]));
    let (status, _) = app.post("/api/tag/doc-t", t, json!({"tags": [], "feed_id": "f".repeat(201)})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    let (status, _) = app.get("/api/tag", &s.token).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "the deeplink is required");
});

api_test!(bookmarks_list_newest_first_and_survive_choosing_tags, |app: TestApp| async move {
    let app = &app;
    let s = app.sign_up("saver").await;
    let t = s.token.as_str();
    let user_id = s.id();
    for deeplink in ["doc-a", "doc-b", "doc-c"] {
        ingest(app, deeplink, "needldrive", deeplink, Some(user_id)).await;
    }
    let mut other_browser = app.connect_live(&s.token, None).await;
    let (status, body) = app.put_empty("/api/bookmarks/doc-a", t).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["results"], json!({"deeplink": "doc-a", "bookmarked": true}));
    app.put_empty("/api/bookmarks/doc-c", t).await;
    app.put_empty("/api/bookmarks/doc-a", t).await;
    let (status, page) = app.get("/api/bookmarks", &s.token).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(deeplinks_of(&page), ["doc-c", "doc-a"], "bookmarking again changes nothing");
    assert_eq!(page["results"][0]["title"], "doc-c", "document cards");
    let (_, index) = app.get("/api/tag?deep_link=doc-a", &s.token).await;
    assert_eq!(index["results"]["bookmarked"], true);
    assert_eq!(index["results"]["user_tags"], json!([]), "the bookmark is not a user tag");
    assert_eq!(app.get("/api/tag/user-tags", &s.token).await.1["results"], json!([]));

    // Choosing tags in the tag picker (which never shows the bookmark) keeps the bookmark.
    let risk = create_tag(app, &s.token, "Risk").await;
    let (_, index) = app.post("/api/tag/doc-a", t, json!({"tags": [risk]})).await;
    assert_eq!(index["results"]["bookmarked"], true);
    app.post("/api/tag/doc-b", t, json!({"tags": [risk]})).await;
    let (_, tagged) = app.get("/api/tag/documents", &s.token).await;
    assert_eq!(deeplinks_of(&tagged), ["doc-b", "doc-a"], "tagged documents, not bookmarks, newest first");
    let (_, tagged) = app.get(&format!("/api/tag/documents?tag_id={risk}&limit=1"), &s.token).await;
    assert_eq!((deeplinks_of(&tagged), tagged["has_more"].as_bool()), (vec!["doc-b".to_string()], Some(true)));
    let (_, tagged) = app.get(&format!("/api/tag/documents?tag_id={risk}&limit=1&page=1"), &s.token).await;
    assert_eq!((deeplinks_of(&tagged), tagged["has_more"].as_bool()), (vec!["doc-a".to_string()], Some(false)));
    assert_eq!(app.get("/api/tag/documents?tag_id=no-such-tag", &s.token).await.0, StatusCode::NOT_FOUND);

    let (status, body) = app.delete("/api/bookmarks/doc-a", t).await;
    assert_eq!((status, &body["results"]["bookmarked"]), (StatusCode::OK, &json!(false)));
    let pushed = next_of_type(&mut other_browser, "DocumentUntagged").await;
    assert_eq!(pushed["ids"], json!([format!("{user_id}/doc-a")]));
    assert_eq!(deeplinks_of(&app.get("/api/bookmarks", &s.token).await.1), ["doc-c"]);
    let (status, _) = app.delete("/api/bookmarks/doc-a", t).await;
    assert_eq!(status, StatusCode::OK, "taking off a bookmark that is not there is no change");
    assert_eq!(app.get("/api/bookmarks?limit=0", &s.token).await.0, StatusCode::BAD_REQUEST);
    assert_eq!(names_of(&app.get("/api/tag?deep_link=doc-a", &s.token).await.1["results"]["user_tags"]), ["Risk"]);
});

api_test!(a_stranger_can_neither_see_nor_change_another_users_tags_or_bookmarks, |app: TestApp| async move {
    let app = &app;
    let owner = app.sign_up("owner").await;
    let stranger = app.sign_up("stranger").await;
    let (o, x) = (owner.token.as_str(), stranger.token.as_str());
    // Both follow the same feed, so both may read its document.
    followed_source_with(app, &owner.token, "https://shared.example.org/rss", &["doc-s"]).await;
    app.post("/api/connect/rss", x, json!({"url": "https://shared.example.org/rss"})).await;
    let owner_id = owner.id();
    ingest(app, "upload-o", "needldrive", "Private", Some(owner_id)).await;
    let mut stranger_socket = app.connect_live(&stranger.token, None).await;
    let secret = create_tag(app, &owner.token, "Secret").await;
    app.post("/api/tag/doc-s", o, json!({"tags": [secret]})).await;
    app.put_empty("/api/bookmarks/doc-s", o).await;
    app.put_empty("/api/bookmarks/upload-o", o).await;

    let (status, index) = app.get("/api/tag?deep_link=doc-s", &stranger.token).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(index["results"], json!({"user_tags": [], "shared_tags": [], "bookmarked": false}));
    assert_eq!(app.get("/api/tag/user-tags", &stranger.token).await.1["results"], json!([]));
    assert_eq!(deeplinks_of(&app.get("/api/bookmarks", &stranger.token).await.1), Vec::<String>::new());
    assert_eq!(deeplinks_of(&app.get("/api/tag/documents", &stranger.token).await.1), Vec::<String>::new());
    let refusals = [
        app.get(&format!("/api/tag/documents?tag_id={secret}"), &stranger.token).await,
        app.put(&format!("/api/tag/{secret}"), x, json!({"name": "Mine"})).await,
        app.post("/api/tag/delete", x, json!({"tag_ids": [secret]})).await,
        app.post("/api/tag/doc-s", x, json!({"tags": [secret]})).await,
        app.post("/api/tag/doc-s", x, json!({"tags": [secret], "base": []})).await,
    ];
    for (status, body) in refusals {
        assert_eq!((status, body["code"].as_str()), (StatusCode::NOT_FOUND, Some("tag_not_found")), "{body}");
    }
    // The owner's upload is not the stranger's to read, so not theirs to tag or bookmark.
    let mine = create_tag(app, &stranger.token, "Mine").await;
    for (status, body) in [
        app.get("/api/tag?deep_link=upload-o", &stranger.token).await,
        app.post("/api/tag/upload-o", x, json!({"tags": [mine]})).await,
        app.put_empty("/api/bookmarks/upload-o", x).await,
        app.delete("/api/bookmarks/upload-o", x).await,
    ] {
        assert_eq!((status, body["message"].as_str()), (StatusCode::NOT_FOUND, Some("document not found")));
    }
    // Nothing of the owner's changed, and nothing of it reached the stranger's socket.
    assert_eq!(names_of(&app.get("/api/tag/user-tags", &owner.token).await.1["results"]), ["Secret"]);
    let (_, index) = app.get("/api/tag?deep_link=doc-s", &owner.token).await;
    assert_eq!(
        (names_of(&index["results"]["user_tags"]), &index["results"]["bookmarked"]),
        (vec!["Secret".to_string()], &json!(true))
    );
    assert_eq!(deeplinks_of(&app.get("/api/bookmarks", &owner.token).await.1), ["upload-o", "doc-s"]);
    while let Some(seen) = anything_within(&mut stranger_socket, Duration::from_millis(600)).await {
        assert!(!seen["ids"].to_string().contains(owner_id), "the stranger saw {seen}");
    }
});

api_test!(tagging_a_document_the_user_cannot_read_is_refused_and_writes_nothing, |app: TestApp| async move {
    let app = &app;
    let reader = app.sign_up("follower").await;
    let outsider = app.sign_up("outsider").await;
    followed_source_with(app, &reader.token, "https://private.example.org/rss", &["doc-p"]).await;
    let tag = create_tag(app, &outsider.token, "Mine").await;
    let x = outsider.token.as_str();
    for (status, _) in [
        app.post("/api/tag/doc-p", x, json!({"tags": [tag]})).await,
        app.post("/api/tag/no-such-document", x, json!({"tags": [tag]})).await,
        app.put_empty("/api/bookmarks/doc-p", x).await,
        app.get("/api/tag?deep_link=doc-p", &outsider.token).await,
    ] {
        assert_eq!(status, StatusCode::NOT_FOUND);
    }
    let events = commands::feed::read_after(&app.server.state.db, commands::Cursor::START, 1000).await.unwrap();
    assert!(!events.iter().any(|e| e.aggregate_type == "document_tags"), "nothing was tagged");
});

api_test!(concurrent_tag_changes_on_one_document_lose_no_write, |app: TestApp| async move {
    let app = &app;
    let s = app.sign_up("busy").await;
    let user_id = s.id();
    ingest(app, "doc-busy", "needldrive", "Busy", Some(user_id)).await;
    let mut tags = Vec::new();
    for i in 0..5 {
        tags.push(create_tag(app, &s.token, &format!("tag {i}")).await);
    }
    // Five browsers each showed no tags and add one; a sixth bookmarks the document meanwhile.
    let tagging = tags.iter().map(|tag| app.post("/api/tag/doc-busy", &s.token, json!({"tags": [tag], "base": []})));
    let bookmarking = app.put_empty("/api/bookmarks/doc-busy", &s.token);
    let (results, (bookmarked, _)) = tokio::join!(futures::future::join_all(tagging), bookmarking);
    assert_eq!(bookmarked, StatusCode::OK);
    for (status, body) in results {
        assert_eq!(status, StatusCode::OK, "{body}");
    }
    let (_, index) = app.get("/api/tag?deep_link=doc-busy", &s.token).await;
    let mut names = names_of(&index["results"]["user_tags"]);
    names.sort();
    assert_eq!(names, ["tag 0", "tag 1", "tag 2", "tag 3", "tag 4"]);
    assert_eq!(index["results"]["bookmarked"], true);
    let history = commands::feed::read_aggregate(&app.server.state.db, "document_tags", &format!("{user_id}/doc-busy"))
        .await
        .unwrap();
    assert_eq!(history.len(), 6, "one event per tag, each once");
    assert!(history.iter().all(|e| e.event_type == "DocumentTagged"));
});

api_test!(tags_and_bookmarks_are_refused_when_their_flags_are_off, |app: TestApp| async move {
    let app = &app;
    let admin = app.sign_up("boss").await;
    let member = app.sign_up("worker").await;
    let member_id = member.id();
    ingest(app, "doc-f", "needldrive", "Flagged", Some(member_id)).await;
    for flag in ["tags", "bookmarks"] {
        let path = format!("/api/admin/users/{member_id}/flags/{flag}");
        let (status, _) = app.put(&path, &admin.token, json!({"value": "off"})).await;
        assert_eq!(status, StatusCode::OK);
    }
    let (status, body) = app.post("/api/tag", &member.token, json!({"tag": "Risk"})).await;
    assert_eq!((status, body["message"].as_str()), (StatusCode::FORBIDDEN, Some("tags are turned off for you")));
    let (status, body) = app.put_empty("/api/bookmarks/doc-f", &member.token).await;
    assert_eq!((status, body["message"].as_str()), (StatusCode::FORBIDDEN, Some("bookmarks are turned off for you")));
    assert_eq!(app.get("/api/tag/user-tags", &member.token).await.0, StatusCode::OK, "reading stays allowed");
});
