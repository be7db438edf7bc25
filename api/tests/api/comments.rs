//! Comments on what a channel shares: added, edited, deleted, counted and seen, and pushed to
//! every member's open browser within a second and to no one else.

use crate::support::*;

api_test!(comments_are_added_edited_deleted_counted_and_seen, |app: TestApp| async move {
    let app = &app;
    let admin = app.sign_up("admin").await;
    let owner = app.sign_up("owner").await;
    let ann = app.sign_up("ann").await;
    let outsider = app.sign_up("outsider").await;
    let (o, a) = (owner.token.as_str(), ann.token.as_str());
    let (owner_id, ann_id) = (owner.id().to_string(), ann.id().to_string());
    followed_source_with(app, &owner.token, "https://talk.example.org/rss", &["doc-c"]).await;
    let channel = create_channel(app, &owner.token, "Talk", &[&ann_id]).await;
    app.post(&format!("/api/channels/{channel}/items"), o, json!({"deeplink": "doc-c"})).await;
    let thread = format!("/api/channels/{channel}/comments/doc-c");

    let (status, body) = app.post(&thread, a, json!({"comment": "  \n "})).await;
    assert_eq!(
        (status, body["code"].as_str(), body["message"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("comment_empty"), Some("comment cannot be empty"))
    );
    let (status, body) = app.post(&thread, a, json!({"comment": "hey", "mentions": [outsider.id()]})).await;
    assert_eq!(
        (status, body["message"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("only members of this channel can be mentioned"))
    );
    let (status, body) = app.post(&thread, a, json!({"comment": "x".repeat(10_001)})).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("comment_too_long")));
    let (status, first) = app
        .post(
            &thread,
            a,
            json!({"comment": "@owner look\nhere", "mentions": [{"mention_uuid": owner_id, "mention_value": "owner"}]}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{first}");
    let first = first["results"].clone();
    assert_eq!(first["comment"], "@owner look\nhere");
    assert_eq!(first["mentions"], json!([{"mention_uuid": owner_id, "mention_value": "owner"}]));
    assert_eq!((first["user_id"].as_str(), first["username"].as_str()), (Some(ann_id.as_str()), Some("ann")));
    assert_eq!((first["can_edit"].as_bool(), first["can_delete"].as_bool()), (Some(true), Some(true)));
    assert_eq!(first["edited_at"], Value::Null);
    let first_id = first["comment_id"].as_str().unwrap().to_string();

    // Counts and last seen are each member's own.
    let count = |token: &str| {
        let (path, token) = (format!("{thread}/count"), token.to_string());
        async move { app.get(&path, &token).await.1["results"].clone() }
    };
    assert_eq!(count(&owner.token).await, json!({"count": 1, "unseen": 1}));
    assert_eq!(count(&ann.token).await, json!({"count": 1, "unseen": 0}), "her own comment is not unseen");
    let (_, seen) = app.get(&format!("{thread}/last_seen"), &owner.token).await;
    assert_eq!(seen["results"], json!({"last_seen": null, "unseen": 1}));
    let (status, seen) = app.put_empty(&format!("{thread}/last_seen"), o).await;
    assert_eq!(status, StatusCode::OK, "{seen}");
    assert_eq!((&seen["results"]["last_seen"], &seen["results"]["unseen"]), (&first["created_at"], &json!(0)));
    app.put_empty(&format!("{thread}/last_seen"), o).await;
    let (_, second) = app.post(&thread, a, json!({"text": "second"})).await;
    let second_id = second["results"]["comment_id"].as_str().unwrap().to_string();
    assert_eq!(count(&owner.token).await, json!({"count": 2, "unseen": 1}));
    let reader = format!("{channel}/{owner_id}");
    assert_eq!(
        event_types(app, "channel_reader", &reader).await,
        ["CommentsSeen"],
        "seeing nothing new records nothing"
    );

    // Edits: the whole text and mentions; an unchanged edit records nothing; empty is refused.
    let edit = |id: &str, body: Value| {
        let path = format!("{thread}/{id}");
        async move { app.put(&path, a, body).await }
    };
    let (status, edited) = edit(&first_id, json!({"comment": "look here", "mentions": []})).await;
    assert_eq!(status, StatusCode::OK, "{edited}");
    assert_eq!(
        (edited["results"]["comment"].as_str(), &edited["results"]["mentions"]),
        (Some("look here"), &json!([]))
    );
    assert!(edited["results"]["edited_at"].is_string());
    let (status, _) = edit(&first_id, json!({"comment": " look here "})).await;
    assert_eq!(status, StatusCode::OK);
    let (status, body) = edit(&first_id, json!({"comment": ""})).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("comment_empty")));
    let (status, body) = edit("no-such-comment", json!({"comment": "x"})).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::NOT_FOUND, Some("comment_not_found")));
    let (status, _) = app.delete(&format!("{thread}/{second_id}"), a).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let (_, list) = app.get(&thread, &owner.token).await;
    assert_eq!((list["count"].as_i64(), list["results"][0]["comment"].as_str()), (Some(1), Some("look here")));
    assert_eq!(
        (list["results"][0]["can_edit"].as_bool(), list["results"][0]["can_delete"].as_bool()),
        (Some(false), Some(true))
    );
    let history = commands::feed::read_aggregate(&app.server.state.db, "channel_document", &format!("{channel}/doc-c"))
        .await
        .unwrap();
    let types: Vec<&str> = history.iter().map(|e| e.event_type.as_str()).collect();
    assert_eq!(types, ["DocumentShared", "CommentAdded", "CommentAdded", "CommentEdited", "CommentDeleted"]);
    assert_eq!(
        history[1].payload["CommentAdded"]["mentioned"],
        json!([owner_id]),
        "mentions are recorded for notifications"
    );
    assert!(history.iter().all(|e| e.metadata["user_id"] == ann_id || e.metadata["user_id"] == owner_id));

    // The comments tab and the global comments view.
    let (_, tab) = app.get(&format!("/api/channels/{channel}/comments"), &ann.token).await;
    assert_eq!(tab["results"].as_array().unwrap().len(), 1);
    assert_eq!(
        (tab["results"][0]["channel_name"].as_str(), tab["results"][0]["document_title"].as_str()),
        (Some("Talk"), Some("Title of doc-c"))
    );
    let (_, all) = app.get("/api/comments", &owner.token).await;
    assert_eq!(all["results"].as_array().unwrap().len(), 1);

    // A published channel takes everyone's comments, without mentions.
    let (_, open) = app.post("/api/channels", &admin.token, json!({"name": "Town hall", "publish": true})).await;
    let open = open["channel"]["id"].as_str().unwrap().to_string();
    ingest(app, "doc-town", "needldrive", "Town doc", Some(outsider.id())).await;
    let town = format!("/api/channels/{open}/comments/doc-town");
    let (status, body) =
        app.post(&town, &outsider.token, json!({"comment": "hi @admin", "mentions": [admin.id()]})).await;
    assert_eq!(
        (status, body["message"].as_str()),
        (
            StatusCode::UNPROCESSABLE_ENTITY,
            Some("mentions are allowed only in channels that are not published to the organization")
        )
    );
    let (status, body) = app.post(&town, &outsider.token, json!({"comment": "hi all"})).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(app.get(&town, &ann.token).await.1["count"], 1, "everyone in the organisation sees it");

    // Cards from chats cannot be commented upon; documents nobody shared with you are not found.
    ingest(app, "chat-1", "whatsapp", "A chat", Some(&ann_id)).await;
    let (status, body) =
        app.post(&format!("/api/channels/{channel}/comments/chat-1"), a, json!({"comment": "hm"})).await;
    assert_eq!(
        (status, body["message"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("Cards originating from chats cannot be commented upon"))
    );
    let (status, body) =
        app.post(&format!("/api/channels/{channel}/comments/doc-town"), a, json!({"comment": "x"})).await;
    assert_eq!((status, body["message"].as_str()), (StatusCode::NOT_FOUND, Some("document not found")));

    // Writing comments needs the comments flag; reading stays allowed.
    let flag = format!("/api/admin/users/{ann_id}/flags/comments");
    app.put(&flag, &admin.token, json!({"value": "off"})).await;
    let (status, body) = app.post(&thread, a, json!({"comment": "still here"})).await;
    assert_eq!((status, body["message"].as_str()), (StatusCode::FORBIDDEN, Some("comments are turned off for you")));
    assert_eq!(app.get(&thread, &ann.token).await.0, StatusCode::OK);
});

api_test!(a_comment_reaches_every_members_open_browser_within_a_second_and_no_one_else, |app: TestApp| async move {
    let app = &app;
    let owner = app.sign_up("owner").await;
    let ann = app.sign_up("ann").await;
    let outsider = app.sign_up("outsider").await;
    let (o, ann_id) = (owner.token.as_str(), ann.id().to_string());
    followed_source_with(app, &owner.token, "https://live.example.org/rss", &["doc-l"]).await;
    let channel = create_channel(app, &owner.token, "Live", &[&ann_id]).await;
    app.post(&format!("/api/channels/{channel}/items"), o, json!({"deeplink": "doc-l"})).await;
    let mut ann_browser = app.connect_live(&ann.token, None).await;
    let mut owner_other_browser = app.connect_live(&owner.token, None).await;
    let mut outsider_browser = app.connect_live(&outsider.token, None).await;

    let started = std::time::Instant::now();
    let (status, comment) = app
        .post(
            &format!("/api/channels/{channel}/comments/doc-l"),
            o,
            json!({"comment": "@ann see this", "mentions": [ann_id]}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{comment}");
    let pushed = next_of_type(&mut ann_browser, "CommentAdded").await;
    let elapsed = started.elapsed();
    assert!(elapsed < Duration::from_secs(1), "the comment took {elapsed:?} to arrive");
    let comment_id = comment["results"]["comment_id"].as_str().unwrap();
    assert_eq!(pushed["ids"], json!([format!("{channel}/doc-l"), channel, "doc-l", comment_id]));
    next_of_type(&mut owner_other_browser, "CommentAdded").await;

    // Shared tags reach the members too.
    let tag = create_tag(app, &owner.token, "Live tag").await;
    app.post("/api/tag/doc-l", o, json!({"tags": [tag], "channel_id": channel})).await;
    let pushed = next_of_type(&mut ann_browser, "DocumentTagged").await;
    assert_eq!(pushed["ids"], json!([format!("channel:{channel}/doc-l"), channel]));

    // A member who is removed hears of it, and then hears nothing more.
    app.delete(&format!("/api/channels/{channel}/users/{ann_id}"), o).await;
    next_of_type(&mut ann_browser, "MemberRemoved").await;
    app.post(&format!("/api/channels/{channel}/comments/doc-l"), o, json!({"comment": "after ann left"})).await;
    next_of_type(&mut owner_other_browser, "CommentAdded").await;
    for socket in [&mut ann_browser, &mut outsider_browser] {
        while let Some(seen) = anything_within(socket, Duration::from_millis(600)).await {
            assert!(!seen["ids"].to_string().contains(&channel), "{seen}");
        }
    }
    let mut outsider_again = app.connect_live(&outsider.token, Some("0-0")).await;
    while let Some(seen) = anything_within(&mut outsider_again, Duration::from_millis(600)).await {
        assert!(!seen["ids"].to_string().contains(&channel), "paging from the store shows the outsider {seen}");
    }
});
