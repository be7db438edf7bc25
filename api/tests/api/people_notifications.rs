//! Contacts (people) and notifications, end to end on both backends.

use tokio_tungstenite::tungstenite::Message;

use crate::support::*;

/// Shares the user's own upload `deeplink` into a channel, as the user.
async fn share_upload(app: &TestApp, token: &str, user_id: &str, channel: &str, deeplink: &str) {
    ingest(app, deeplink, "needldrive", &format!("Memo {deeplink}"), Some(user_id)).await;
    let (status, body) =
        app.post(&format!("/api/channels/{channel}/items"), token, json!({"deeplink": deeplink})).await;
    assert_eq!(status, StatusCode::OK, "{body}");
}

/// Comments on `deeplink` in `channel`, mentioning `mentions` (user ids).
async fn comment(app: &TestApp, token: &str, channel: &str, deeplink: &str, text: &str, mentions: &[&str]) -> Value {
    let (status, body) = app
        .post(
            &format!("/api/channels/{channel}/comments/{deeplink}"),
            token,
            json!({"comment": text, "mentions": mentions}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body["results"].clone()
}

async fn notifications(app: &TestApp, token: &str, page: i64) -> Vec<Value> {
    let (status, body) = app.get(&format!("/api/notifications?page={page}"), token).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body["results"].as_array().unwrap().clone()
}

async fn unread(app: &TestApp, token: &str) -> i64 {
    let (status, body) = app.get("/api/notifications/unread_count", token).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body["results"]["count"].as_i64().unwrap()
}

/// Reads messages for `wait` and fails if one of `event_type` arrives.
async fn none_of_type<S>(socket: &mut S, event_type: &str, wait: Duration)
where
    S: futures::Stream<Item = Result<Message, tokio_tungstenite::tungstenite::Error>> + Unpin,
{
    let deadline = tokio::time::Instant::now() + wait;
    while let Some(seen) =
        anything_within(socket, deadline.saturating_duration_since(tokio::time::Instant::now())).await
    {
        assert_ne!(seen["type"], event_type, "nothing of the kind was meant for this socket: {seen}");
    }
}

api_test!(a_mention_notifies_the_mentioned_member_alone_and_reaches_only_their_socket, |app: TestApp| async move {
    let app = &app;
    let alice = app.sign_up("alice").await;
    let bob = app.sign_up("bob").await;
    let carol = app.sign_up("carol").await;
    let channel = create_channel(app, &alice.token, "Ports", &[bob.id()]).await;
    share_upload(app, &alice.token, alice.id(), &channel, "memo-1").await;
    let mut bob_socket = app.connect_live(&bob.token, None).await;
    let mut carol_socket = app.connect_live(&carol.token, None).await;

    let made = comment(app, &alice.token, &channel, "memo-1", "Bob, see the dredging dates", &[bob.id()]).await;

    let pushed = next_of_type(&mut bob_socket, "NotificationCreated").await;
    none_of_type(&mut carol_socket, "NotificationCreated", Duration::from_millis(800)).await;
    let list = notifications(app, &bob.token, 0).await;
    assert_eq!(list.len(), 1, "{list:?}");
    let mention = &list[0];
    assert_eq!(mention["id"], pushed["ids"][0]);
    assert_eq!(mention["type"], "mention");
    assert_eq!(mention["read"], false);
    assert_eq!(mention["actor"]["username"], "alice");
    assert_eq!(mention["channel"], json!({"id": channel, "name": "Ports"}));
    assert_eq!(mention["comment_id"], made["comment_id"]);
    assert_eq!(mention["excerpt"], "Bob, see the dredging dates");
    assert_eq!(mention["document"]["deeplink"], "memo-1", "bob reads it through the channel");
    assert_eq!(mention["document"]["title"], "Memo memo-1");
    assert!(!mention["document"]["access_key"].as_str().unwrap().is_empty());
    assert_eq!(unread(app, &bob.token).await, 1);
    assert_eq!(unread(app, &alice.token).await, 0, "the author is never notified of their own comment");
    assert!(notifications(app, &carol.token, 0).await.is_empty());
    assert_eq!(unread(app, &carol.token).await, 0);

    // Bob answers without mentioning: alice follows the item (she shared it), so she hears of it;
    // bob does not hear of his own comment.
    let mut alice_socket = app.connect_live(&alice.token, None).await;
    comment(app, &bob.token, &channel, "memo-1", "Thanks, noted", &[]).await;
    next_of_type(&mut alice_socket, "NotificationCreated").await;
    let alice_list = notifications(app, &alice.token, 0).await;
    assert_eq!(alice_list.len(), 1);
    assert_eq!(alice_list[0]["type"], "comment");
    assert_eq!(alice_list[0]["actor"]["username"], "bob");
    assert_eq!(notifications(app, &bob.token, 0).await.len(), 1, "still only the mention");
    none_of_type(&mut carol_socket, "NotificationCreated", Duration::from_millis(300)).await;
});

api_test!(
    a_removed_member_gets_no_further_notifications_from_the_channel_and_loses_its_old_ones,
    |app: TestApp| async move {
        let app = &app;
        let alice = app.sign_up("alice").await;
        let bob = app.sign_up("bob").await;
        let channel = create_channel(app, &alice.token, "Desk", &[bob.id()]).await;
        share_upload(app, &alice.token, alice.id(), &channel, "memo-2").await;
        comment(app, &alice.token, &channel, "memo-2", "First", &[bob.id()]).await;
        comment(app, &bob.token, &channel, "memo-2", "Reply", &[]).await;
        assert_eq!(unread(app, &bob.token).await, 1);
        let (status, body) = app.delete(&format!("/api/channels/{channel}/users/{}", bob.id()), &alice.token).await;
        assert!(status.is_success(), "{status} {body}");
        let mut bob_socket = app.connect_live(&bob.token, None).await;
        // Bob followed the item (he commented on it), but he is no longer a member.
        comment(app, &alice.token, &channel, "memo-2", "After bob left", &[]).await;
        none_of_type(&mut bob_socket, "NotificationCreated", Duration::from_millis(800)).await;
        assert!(notifications(app, &bob.token, 0).await.is_empty(), "nothing of a channel he no longer sees");
        assert_eq!(unread(app, &bob.token).await, 0);
        let (status, _) = app.put_empty("/api/notifications/read_all", &bob.token).await;
        assert_eq!(status, StatusCode::OK);
    }
);

api_test!(notifications_page_by_twenty_newest_first_and_are_marked_read_one_or_all, |app: TestApp| async move {
    let app = &app;
    let alice = app.sign_up("alice").await;
    let bob = app.sign_up("bob").await;
    let carol = app.sign_up("carol").await;
    let channel = create_channel(app, &alice.token, "Busy", &[bob.id()]).await;
    share_upload(app, &alice.token, alice.id(), &channel, "memo-3").await;
    for i in 0..21 {
        comment(app, &alice.token, &channel, "memo-3", &format!("note {i}"), &[bob.id()]).await;
    }
    let first = notifications(app, &bob.token, 0).await;
    assert_eq!(first.len(), 20, "a full page: more may exist");
    assert_eq!(first[0]["excerpt"], "note 20", "the newest first");
    assert_eq!(first[19]["excerpt"], "note 1");
    let second = notifications(app, &bob.token, 1).await;
    assert_eq!(second.len(), 1);
    assert_eq!(second[0]["excerpt"], "note 0");
    assert!(notifications(app, &bob.token, 2).await.is_empty());
    assert_eq!(unread(app, &bob.token).await, 21);

    let id = first[3]["id"].as_str().unwrap().to_string();
    let path = format!("/api/notifications/{id}/read");
    // A stranger can neither read nor mark bob's notifications.
    let (status, body) = app.put_empty(&path, &carol.token).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    assert_eq!(body["code"], "notification_not_found");
    assert!(notifications(app, &carol.token, 0).await.is_empty());
    assert_eq!(unread(app, &carol.token).await, 0);
    let (status, body) = app.put_empty(&path, &bob.token).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["results"]["count"], 20);
    let (_, again) = app.put_empty(&path, &bob.token).await;
    assert_eq!(again["results"]["count"], 20, "marking twice changes nothing");
    assert_eq!(event_types(app, "notification_inbox", bob.id()).await, vec!["NotificationRead"]);
    assert_eq!(notifications(app, &bob.token, 0).await[3]["read"], true);
    let (status, body) = app.put_empty("/api/notifications/read_all", &bob.token).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["results"]["count"], 0);
    assert!(notifications(app, &bob.token, 1).await.iter().all(|n| n["read"] == true));
    assert_eq!(app.get("/api/notifications?page=-1", &bob.token).await.0, StatusCode::BAD_REQUEST);
});

api_test!(a_new_item_in_a_high_priority_source_notifies_those_who_set_it_high, |app: TestApp| async move {
    let app = &app;
    let keen = app.sign_up("keen").await;
    let calm = app.sign_up("calm").await;
    let url = "https://wire.example.com/feed.xml";
    let source_id = followed_source_with(app, &keen.token, url, &[]).await;
    followed_source_with(app, &calm.token, url, &[]).await;
    let path = format!("/api/source/rss/{source_id}");
    let path = path.as_str();
    let priority = |token: String, value: &'static str| async move {
        let (status, body) = app.put(path, &token, json!({"priority": value})).await;
        assert_eq!(status, StatusCode::OK, "{body}");
    };
    priority(keen.token.clone(), "HIGH").await;
    let mut keen_socket = app.connect_live(&keen.token, None).await;
    let mut calm_socket = app.connect_live(&calm.token, None).await;
    ingest(app, "wire-1", &source_id, "Rates held", None).await;
    let pushed = next_of_type(&mut keen_socket, "NotificationCreated").await;
    none_of_type(&mut calm_socket, "NotificationCreated", Duration::from_millis(600)).await;
    let list = notifications(app, &keen.token, 0).await;
    assert_eq!(list.len(), 1);
    assert_eq!(list[0]["id"], pushed["ids"][0]);
    assert_eq!(list[0]["type"], "source_item");
    assert_eq!(list[0]["document"]["deeplink"], "wire-1");
    assert_eq!(list[0]["document"]["title"], "Rates held");
    assert_eq!(list[0]["source"]["id"], source_id.as_str());
    assert!(notifications(app, &calm.token, 0).await.is_empty(), "medium priority: no notification");
    // An update of a known item, and items after the priority went down, notify nobody.
    record_document(app, "wire-1", &source_id, "Rates held (updated)", "other-hash".into(), None).await;
    priority(keen.token.clone(), "LOW").await;
    ingest(app, "wire-2", &source_id, "Rates cut", None).await;
    assert_eq!(notifications(app, &keen.token, 0).await.len(), 1);
    // Once keen unfollows, the item is no longer theirs to read: the notification goes.
    let bus = app.server.state.bus.clone();
    let cursor = bus
        .execute(
            &bus.subscriptions,
            &domain::source::subscription_id(keen.id(), &source_id),
            domain::source::SubscriptionCommand::Unfollow,
            &domain::EventMetadata::system("test", "r"),
        )
        .await
        .unwrap();
    app.server.state.settle(cursor).await;
    assert!(notifications(app, &keen.token, 0).await.is_empty());
    assert_eq!(unread(app, &keen.token).await, 0);
});

api_test!(the_person_behind_a_cards_contacts_is_added_once_edited_and_kept_private, |app: TestApp| async move {
    let app = &app;
    let ada = app.sign_up("ada").await;
    let eve = app.sign_up("eve").await;
    let contacts = urlencode(r#"[{"contact_id":"jane@wire.example.com","contact_name":"Jane  Doe"}]"#);
    let path = format!("/api/people/contact_info?contacts={contacts}&source=rss_news");
    let (status, body) = app.get(&path, &ada.token).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let person = body["results"].clone();
    let id = person["people_id"].as_str().unwrap().to_string();
    assert_eq!(person["people_name"], "Jane Doe");
    assert_eq!(person["people_priority"], "MEDIUM");
    assert_eq!(
        person["contacts"],
        json!([{"contact_id": "jane@wire.example.com", "contact_name": "Jane Doe", "contact_source": "rss_news"}])
    );
    // The same contact again (in another case) is the same person, and records nothing new.
    let again = format!(
        "/api/people/contact_info?contacts={}&source=rss_news",
        urlencode(r#"["JANE@wire.example.com","@jane"]"#)
    );
    let (_, body) = app.get(&again, &ada.token).await;
    assert_eq!(body["results"]["people_id"], id.as_str());
    assert_eq!(body["results"]["contacts"].as_array().unwrap().len(), 2, "the new handle is linked to her");
    assert_eq!(event_types(app, "contact_book", ada.id()).await, vec!["PersonAdded", "ContactsLinked"]);

    let edit = format!("/api/people/edit/{id}");
    let (status, body) = app.post(&edit, &ada.token, json!({"name": "  Jane   Q. Doe ", "priority": "HIGH"})).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["results"]["people_name"], "Jane Q. Doe");
    assert_eq!(body["results"]["people_priority"], "HIGH");
    let (status, body) = app.post(&edit, &ada.token, json!({"name": "   "})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(body["message"], "name is required");
    let (status, body) = app.post(&edit, &ada.token, json!({"name": "x".repeat(101)})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(body["message"], "name must be at most 100 characters");
    let (status, _) = app.post(&edit, &ada.token, json!({"priority": "URGENT"})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    let (status, body) = app.post(&edit, &ada.token, json!({})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(body["message"], "name or priority is required");
    let (status, _) =
        app.get(&format!("/api/people/contact_info?contacts={}", urlencode("nonsense")), &ada.token).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);

    // Lists: by name, filtered by name and priority.
    app.get(&format!("/api/people/contact_info?contacts={}&source=gmail", urlencode(r#"["al@x.com"]"#)), &ada.token)
        .await;
    let (_, list) = app.get("/api/people", &ada.token).await;
    let names: Vec<&str> =
        list["results"].as_array().unwrap().iter().map(|p| p["people_name"].as_str().unwrap()).collect();
    assert_eq!(names, vec!["al@x.com", "Jane Q. Doe"]);
    let (_, high) = app.get("/api/people?priority=HIGH&q=jane", &ada.token).await;
    assert_eq!(high["results"].as_array().unwrap().len(), 1);
    let (_, none) = app.get("/api/people?q=%25", &ada.token).await;
    assert!(none["results"].as_array().unwrap().is_empty(), "a % in the filter is a character, not a wildcard");

    // Eve sees none of Ada's people and can change none of them.
    assert_eq!(app.get(&format!("/api/people/{id}"), &eve.token).await.0, StatusCode::NOT_FOUND);
    let (status, body) = app.post(&edit, &eve.token, json!({"priority": "LOW"})).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(body["code"], "person_not_found");
    let (_, list) = app.get("/api/people", &eve.token).await;
    assert!(list["results"].as_array().unwrap().is_empty());
    // Eve resolving the same contact gets a person of her own.
    let (_, hers) = app.get(&path, &eve.token).await;
    assert_ne!(hers["results"]["people_id"], id.as_str());
    assert_eq!(hers["results"]["people_priority"], "MEDIUM");
    assert_eq!(app.get(&format!("/api/people/{id}"), &ada.token).await.1["results"]["people_priority"], "HIGH");
});
