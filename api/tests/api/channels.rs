//! Channels: names by the spec's rules, members and roles (always an owner), what members read
//! and who changes it, feeds shared with their definitions, and strangers and former members
//! refused.

use serde::Deserialize;

use crate::support::*;

/// The names of the channels the user sees, as listed.
async fn channel_names(app: &TestApp, token: &str) -> Vec<String> {
    #[derive(Deserialize)]
    struct Listed {
        name: String,
    }
    #[derive(Deserialize)]
    struct Channels {
        channels: Vec<Listed>,
    }
    let list: Channels = app.get_as("/api/channels", token).await;
    list.channels.into_iter().map(|c| c.name).collect()
}

/// The user ids and roles of a channel's members, as listed.
async fn member_roles(app: &TestApp, token: &str, channel: &str) -> Vec<(String, String)> {
    #[derive(Deserialize)]
    struct Member {
        user_id: String,
        role: String,
    }
    let list: Results<Vec<Member>> = app.get_as(&format!("/api/channels/{channel}/users"), token).await;
    list.results.into_iter().map(|m| (m.user_id, m.role)).collect()
}

api_test!(channel_names_follow_the_spec_rules_with_its_messages, |app: TestApp| async move {
    let app = &app;
    let admin = app.sign_up("chief").await;
    let s = app.sign_up("maker").await;
    let t = s.token.as_str();
    for (name, code, message) in [
        ("", "channel_name_required", "Group Name is required"),
        ("   ", "channel_name_required", "Group Name is required"),
        (
            "news & views",
            "channel_name_invalid",
            "Sorry, only letters (a-z), numbers (0-9), hyphen (-) and underscore (_) are allowed.",
        ),
        (
            "-__-",
            "channel_name_invalid",
            "Sorry, only letters (a-z), numbers (0-9), hyphen (-) and underscore (_) are allowed.",
        ),
    ] {
        let (status, body) = app.post("/api/channels", t, json!({"name": name})).await;
        assert_eq!(
            (status, body["code"].as_str(), body["message"].as_str()),
            (StatusCode::UNPROCESSABLE_ENTITY, Some(code), Some(message)),
            "{name:?}"
        );
    }
    let (status, _) = app.post("/api/channels", t, json!({})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "the name is required");
    let (status, _) = app.post("/api/channels", t, json!({"name": "x".repeat(101)})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    let (status, _) = app.post("/api/channels", t, json!({"name": "ok", "colour": "red"})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "unknown fields are refused");

    let (status, created) = app.post("/api/channels", t, json!({"name": "  Macro   desk_1-a "})).await;
    assert_eq!(status, StatusCode::OK, "{created}");
    let channel = &created["channel"];
    assert_eq!(channel["name"], "Macro desk_1-a", "trimmed, inner spaces collapsed");
    assert_eq!((channel["role"].as_str(), channel["publish"].as_bool()), (Some("owner"), Some(false)));
    assert_eq!(channel["organization"]["id"], 1);
    assert_eq!(channel["publish_title"], "example.com", "the organisation's domain (ALL is organisation 2's)");
    assert_eq!(channel["show_publish_option"], false, "the maker may not publish channels");
    assert_eq!(
        channel["members"],
        json!([{"user_id": s.id(), "username": "maker", "role": "owner",
        "added_at": channel["members"][0]["added_at"]}])
    );
    let macro_id = channel["id"].as_str().unwrap().to_string();

    // Unique in the organisation whatever the case, for everyone in it.
    let (status, body) = app.post("/api/channels", &admin.token, json!({"name": "MACRO DESK_1-A"})).await;
    assert_eq!(
        (status, body["code"].as_str(), body["message"].as_str()),
        (StatusCode::CONFLICT, Some("channel_name_taken"), Some("Group Name already exists in your organization!"))
    );
    let other = create_channel(app, &admin.token, "Rates", &[]).await;
    let rename = |token: &str, id: &str, name: &str| {
        let (token, path, name) = (token.to_string(), format!("/api/channels/{id}"), name.to_string());
        async move { app.put(&path, &token, json!({"name": name})).await }
    };
    let (status, body) = rename(&s.token, &macro_id, "rates").await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::CONFLICT, Some("channel_name_taken")));
    let (status, body) = rename(&s.token, &macro_id, "Macro desk").await;
    assert_eq!((status, body["channel"]["name"].as_str()), (StatusCode::OK, Some("Macro desk")), "{body}");
    let (status, body) = rename(&s.token, &macro_id, "bad/name").await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("channel_name_invalid")));
    // The old name is free again; a rename to the same name in another case is a rename.
    create_channel(app, &admin.token, "macro desk_1-A", &[]).await;
    let (status, body) = rename(&admin.token, &other, "RATES").await;
    assert_eq!((status, body["channel"]["name"].as_str()), (StatusCode::OK, Some("RATES")));

    // Publishing to the organisation needs canPublishChannels (administrators).
    let (status, body) = app.post("/api/channels", t, json!({"name": "Everyone", "publish": true})).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::FORBIDDEN, Some("publish_not_allowed")));
    let (status, body) = app.post("/api/channels", &admin.token, json!({"name": "Everyone", "publish": true})).await;
    assert_eq!((status, body["channel"]["publish"].as_bool()), (StatusCode::OK, Some(true)), "{body}");
    assert_eq!(body["channel"]["show_publish_option"], true);
    let (status, body) = app.put(&format!("/api/channels/{macro_id}"), t, json!({"publish": true})).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::FORBIDDEN, Some("publish_not_allowed")));

    // Refused creates reserved nothing: one name per channel made.
    let directory = event_types(app, "channel_directory", "1").await;
    assert_eq!(directory.len(), 6, "{directory:?}: 4 creates and 2 renames");
    assert_eq!(channel_names(app, &s.token).await, ["Everyone", "Macro desk"], "a published channel shows to all");
});

api_test!(concurrent_creates_of_one_channel_name_let_exactly_one_win, |app: TestApp| async move {
    let app = &app;
    let mut people = Vec::new();
    for i in 0..6 {
        people.push(app.sign_up(&format!("racer{i}")).await);
    }
    let names = ["Research", "research", " RESEARCH", "Research ", "reSearch", "Research"];
    let creates =
        people.iter().zip(names).map(|(person, name)| app.post("/api/channels", &person.token, json!({"name": name})));
    let results = futures::future::join_all(creates).await;
    let won = results.iter().filter(|(status, _)| *status == StatusCode::OK).count();
    assert_eq!(won, 1, "{results:?}");
    for (status, body) in results.iter().filter(|(status, _)| *status != StatusCode::OK) {
        assert_eq!(
            (*status, body["message"].as_str()),
            (StatusCode::CONFLICT, Some("Group Name already exists in your organization!")),
            "{body}"
        );
    }
    assert_eq!(event_types(app, "channel_directory", "1").await, ["ChannelNameReserved"]);
    let events = commands::feed::read_after(&app.server.state.db, commands::Cursor::START, 1000).await.unwrap();
    assert_eq!(events.iter().filter(|e| e.event_type == "ChannelCreated").count(), 1);
});

api_test!(owners_manage_members_and_roles_and_a_channel_always_keeps_an_owner, |app: TestApp| async move {
    let app = &app;
    let owner = app.sign_up("olga").await;
    let ann = app.sign_up("ann").await;
    let bob = app.sign_up("bob").await;
    let (o, a) = (owner.token.as_str(), ann.token.as_str());
    let (owner_id, ann_id, bob_id) = (owner.id().to_string(), ann.id().to_string(), bob.id().to_string());
    let channel = create_channel(app, &owner.token, "Desk", &[&ann_id]).await;
    let users = format!("/api/channels/{channel}/users");
    assert_eq!(
        member_roles(app, &ann.token, &channel).await,
        [(owner_id.clone(), "owner".into()), (ann_id.clone(), "member".into())],
        "owners first"
    );
    assert_eq!(channel_names(app, &bob.token).await, Vec::<String>::new());

    // A member sees the channel but does not manage it.
    use reqwest::Method;
    let managing: Vec<(Method, String, Option<Value>)> = vec![
        (Method::PUT, format!("/api/channels/{channel}"), Some(json!({"name": "Mine"}))),
        (Method::POST, users.clone(), Some(json!({"user_ids": [bob_id]}))),
        (Method::PUT, format!("{users}/{owner_id}"), Some(json!({"role": "member"}))),
        (Method::DELETE, format!("{users}/{owner_id}"), None),
        (Method::POST, format!("/api/channels/{channel}/boards"), Some(json!({"definition": {"name": "Feed"}}))),
        (Method::DELETE, format!("/api/channels/{channel}/boards/b1"), None),
        (
            Method::POST,
            "/api/channels/create_and_share_board".into(),
            Some(json!({"channel_ids": [channel], "definition": {"name": "Feed"}})),
        ),
    ];
    for (method, path, body) in managing {
        let (status, answer) = app.send(method.clone(), &path, Some(a), body).await;
        assert_eq!(
            (status, answer["code"].as_str()),
            (StatusCode::FORBIDDEN, Some("not_channel_owner")),
            "{method} {path}: {answer}"
        );
    }

    let (status, body) = app.post(&users, o, json!({"user_ids": ["no-such-user"]})).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::NOT_FOUND, Some("user_not_found")));
    let (status, body) = app.post(&users, o, json!({"user_ids": [bob_id], "role": "boss"})).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("invalid_role")));
    let (status, body) = app.post(&users, o, json!({"user_ids": [bob_id, ann_id]})).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["results"].as_array().unwrap().len(), 3, "ann keeps her role");
    assert_eq!(channel_names(app, &bob.token).await, ["Desk"]);

    // The last owner can neither leave, be removed, nor step down.
    for (method, path, body) in [
        (Method::DELETE, format!("{users}/self"), None),
        (Method::DELETE, format!("{users}/{owner_id}"), None),
        (Method::PUT, format!("{users}/{owner_id}"), Some(json!({"role": "member"}))),
    ] {
        let (status, answer) = app.send(method.clone(), &path, Some(o), body).await;
        assert_eq!(
            (status, answer["code"].as_str()),
            (StatusCode::UNPROCESSABLE_ENTITY, Some("last_channel_owner")),
            "{method} {path}"
        );
    }
    let (status, body) = app.put(&format!("{users}/{ann_id}"), o, json!({"role": "owner"})).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, _) = app.delete(&format!("{users}/self"), o).await;
    assert_eq!(status, StatusCode::NO_CONTENT, "with another owner, the first may leave");
    assert_eq!(app.get(&format!("/api/channels/{channel}"), &owner.token).await.0, StatusCode::NOT_FOUND);
    assert_eq!(channel_names(app, &owner.token).await, Vec::<String>::new());
    let (status, _) = app.delete(&format!("{users}/{bob_id}"), a).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    assert_eq!(app.get(&format!("/api/channels/{channel}"), &bob.token).await.0, StatusCode::NOT_FOUND);
    assert_eq!(member_roles(app, &ann.token, &channel).await, [(ann_id.clone(), "owner".into())]);
    let (status, _) = app.delete(&format!("{users}/{bob_id}"), a).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "no longer a member");

    // Starred status and last visit are the member's own.
    let me = format!("{users}/me");
    let (status, body) = app.put(&me, a, json!({"starred": true, "seen": true})).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!((body["results"]["starred"].as_bool(), body["results"]["role"].as_str()), (Some(true), Some("owner")));
    assert!(body["results"]["last_seen"].is_string());
    let other = create_channel(app, &ann.token, "Another", &[]).await;
    let (_, list) = app.get("/api/channels", &ann.token).await;
    let listed: Vec<(&str, bool)> = list["channels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["name"].as_str().unwrap(), c["starred"].as_bool().unwrap()))
        .collect();
    assert_eq!(listed, [("Desk", true), ("Another", false)], "starred first");
    assert_eq!(app.get(&format!("/api/channels/{other}/users/self"), &ann.token).await.1["results"]["starred"], false);

    // The people of the organisation, with their roles, for choosing members.
    let (status, people) = app.get(&format!("{users}/all"), &ann.token).await;
    assert_eq!(status, StatusCode::OK, "{people}");
    let roles: Vec<(&str, Option<&str>)> = people["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["username"].as_str().unwrap(), p["role"].as_str()))
        .collect();
    assert_eq!(roles, [("ann", Some("owner")), ("bob", None), ("olga", None)]);
    let (status, people) = app.get("/api/channels/create%20group/users/all?q=OL", &bob.token).await;
    assert_eq!(status, StatusCode::OK, "{people}");
    assert_eq!(people["results"].as_array().unwrap().len(), 1);

    let history = event_types(app, "channel", &channel).await;
    assert_eq!(
        history,
        [
            "ChannelCreated",
            "MemberAdded",
            "MemberAdded",
            "MemberAdded",
            "MemberRoleChanged",
            "MemberRemoved",
            "MemberRemoved"
        ]
    );
});

api_test!(
    a_stranger_and_a_former_member_are_refused_by_every_channel_and_comment_endpoint,
    |app: TestApp| async move {
        let app = &app;
        // The stranger signs up first and so is the administrator: channels are private even to them.
        let stranger = app.sign_up("stranger").await;
        let owner = app.sign_up("owner").await;
        let former = app.sign_up("former").await;
        let member = app.sign_up("member").await;
        assert_eq!(stranger.user["is_admin"], true);
        let o = owner.token.as_str();
        let (owner_id, former_id, member_id) =
            (owner.id().to_string(), former.id().to_string(), member.id().to_string());
        followed_source_with(app, &owner.token, "https://walk.example.org/rss", &["doc-w"]).await;
        for person in [&stranger, &former] {
            app.post("/api/connect/rss", &person.token, json!({"url": "https://walk.example.org/rss"})).await;
        }
        let channel = create_channel(app, &owner.token, "Private desk", &[&former_id, &member_id]).await;
        let mut stranger_socket = app.connect_live(&stranger.token, None).await;
        let mut former_socket = app.connect_live(&former.token, None).await;
        app.delete(&format!("/api/channels/{channel}/users/{former_id}"), o).await;
        next_of_type(&mut former_socket, "MemberRemoved").await;
        let (status, _) = app.post(&format!("/api/channels/{channel}/items"), o, json!({"deeplink": "doc-w"})).await;
        assert_eq!(status, StatusCode::OK);
        let (status, comment) =
            app.post(&format!("/api/channels/{channel}/comments/doc-w"), o, json!({"comment": "hi"})).await;
        assert_eq!(status, StatusCode::OK, "{comment}");
        let comment_id = comment["results"]["comment_id"].as_str().unwrap().to_string();
        let (_, board) =
            app.post(&format!("/api/channels/{channel}/boards"), o, json!({"definition": {"name": "Feed"}})).await;
        let board_id = board["results"]["board_id"].as_str().unwrap().to_string();
        let tag = create_tag(app, &owner.token, "Shared").await;
        let (status, _) = app.post("/api/tag/doc-w", o, json!({"tags": [tag], "channel_id": channel})).await;
        assert_eq!(status, StatusCode::OK);

        use reqwest::Method;
        let c = format!("/api/channels/{channel}");
        let calls: Vec<(Method, String, Option<Value>)> = vec![
            (Method::GET, c.clone(), None),
            (Method::PUT, c.clone(), Some(json!({"name": "Taken over"}))),
            (Method::GET, format!("{c}/users"), None),
            (Method::POST, format!("{c}/users"), Some(json!({"user_ids": [owner_id]}))),
            (Method::GET, format!("{c}/users/all"), None),
            (Method::GET, format!("{c}/users/me"), None),
            (Method::PUT, format!("{c}/users/me"), Some(json!({"starred": true}))),
            (Method::GET, format!("{c}/users/self"), None),
            (Method::DELETE, format!("{c}/users/self"), None),
            (Method::PUT, format!("{c}/users/{owner_id}"), Some(json!({"role": "member"}))),
            (Method::DELETE, format!("{c}/users/{owner_id}"), None),
            (Method::GET, format!("{c}/items"), None),
            (Method::POST, format!("{c}/items"), Some(json!({"deeplink": "doc-w"}))),
            (Method::DELETE, format!("{c}/items/doc-w"), None),
            (Method::GET, format!("{c}/tags"), None),
            (Method::GET, format!("{c}/boards"), None),
            (Method::POST, format!("{c}/boards"), Some(json!({"definition": {"name": "Mine"}}))),
            (Method::DELETE, format!("{c}/boards/{board_id}"), None),
            (
                Method::POST,
                "/api/channels/create_and_share_board".into(),
                Some(json!({"channel_ids": [channel], "definition": {"name": "Mine"}})),
            ),
            (Method::GET, format!("{c}/comments"), None),
            (Method::GET, format!("{c}/comments/doc-w"), None),
            (Method::POST, format!("{c}/comments/doc-w"), Some(json!({"comment": "planted"}))),
            (Method::PUT, format!("{c}/comments/doc-w/{comment_id}"), Some(json!({"comment": "changed"}))),
            (Method::DELETE, format!("{c}/comments/doc-w/{comment_id}"), None),
            (Method::GET, format!("{c}/comments/doc-w/count"), None),
            (Method::GET, format!("{c}/comments/doc-w/last_seen"), None),
            (Method::PUT, format!("{c}/comments/doc-w/last_seen"), None),
            (Method::GET, format!("/api/tag?deep_link=doc-w&channel_id={channel}"), None),
            (Method::POST, "/api/tag/doc-w".into(), Some(json!({"tags": [], "channel_id": channel}))),
        ];
        for person in [&stranger, &former] {
            for (method, path, body) in &calls {
                let (status, answer) = app.send(method.clone(), path, Some(&person.token), body.clone()).await;
                assert_eq!(
                    (status, answer["code"].as_str()),
                    (StatusCode::NOT_FOUND, Some("channel_not_found")),
                    "{} {method} {path}: {answer}",
                    person.user["username"]
                );
            }
            assert_eq!(channel_names(app, &person.token).await, Vec::<String>::new());
            let (_, all) = app.get("/api/comments", &person.token).await;
            assert_eq!(all["results"], json!([]), "the global comments view shows none of it");
        }
        for (method, path, body) in &calls {
            let (status, _) = app.send(method.clone(), path, None, body.clone()).await;
            assert_eq!(status, StatusCode::UNAUTHORIZED, "{method} {path} without a token");
        }
        // Nothing changed, and nothing of it reached the stranger's or the former member's socket.
        assert_eq!(app.get(&format!("{c}/comments/doc-w"), &owner.token).await.1["count"], 1);
        assert_eq!(member_roles(app, &owner.token, &channel).await.len(), 2);
        let (_, info) = app.get(&c, &owner.token).await;
        assert_eq!(info["channel"]["name"], "Private desk");
        for socket in [&mut stranger_socket, &mut former_socket] {
            while let Some(seen) = anything_within(socket, Duration::from_millis(600)).await {
                assert!(!seen["ids"].to_string().contains(&channel), "an outsider saw {seen}");
            }
        }
    }
);

api_test!(a_member_reads_what_is_shared_and_only_authors_and_owners_change_it, |app: TestApp| async move {
    let app = &app;
    let owner = app.sign_up("owner").await;
    let ann = app.sign_up("ann").await;
    let bob = app.sign_up("bob").await;
    let (o, a, b) = (owner.token.as_str(), ann.token.as_str(), bob.token.as_str());
    let source = followed_source_with(app, &owner.token, "https://share.example.org/rss", &["doc-1", "doc-2"]).await;
    let channel = create_channel(app, &owner.token, "Readers", &[ann.id(), bob.id()]).await;
    let c = format!("/api/channels/{channel}");
    let open = |deeplink: &str| {
        let path = format!("/api/doc/{source}?deeplink={deeplink}");
        let token = ann.token.clone();
        async move { app.get(&path, &token).await.0 }
    };
    assert_eq!(open("doc-1").await, StatusCode::NOT_FOUND, "ann follows nothing");
    let (status, _) = app.post(&format!("{c}/items"), a, json!({"deeplink": "doc-1"})).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "a member shares only what they can read");
    let (status, item) = app.post(&format!("{c}/items"), o, json!({"deeplink": "doc-1"})).await;
    assert_eq!(status, StatusCode::OK, "{item}");
    assert_eq!(
        (item["results"]["deeplink"].as_str(), item["results"]["shared_by"].as_str()),
        (Some("doc-1"), Some(owner.id()))
    );
    app.post(&format!("{c}/items"), o, json!({"deeplink": "doc-2"})).await;
    assert_eq!(open("doc-1").await, StatusCode::OK, "shared into her channel, ann reads it");
    let (_, page) = app.get(&format!("{c}/items"), &ann.token).await;
    assert_eq!(deeplinks_of(&page), ["doc-2", "doc-1"], "the newest share first");

    // Shared tags: members set and read them; the items filter by them.
    let risk = create_tag(app, &ann.token, "Risk").await;
    let (status, index) = app.post("/api/tag/doc-1", a, json!({"tags": [risk], "channel_id": channel})).await;
    assert_eq!(status, StatusCode::OK, "{index}");
    let (_, index) = app.get(&format!("/api/tag?deep_link=doc-1&channel_id={channel}"), &bob.token).await;
    assert_eq!(names_of(&index["results"]["shared_tags"]), ["Risk"]);
    let (_, tags) = app.get(&format!("{c}/tags"), &bob.token).await;
    assert_eq!(tags["results"], json!([{"id": risk, "name": "Risk", "count": 1}]));
    let (_, page) = app.get(&format!("{c}/items?tag_id={risk}"), &bob.token).await;
    assert_eq!(deeplinks_of(&page), ["doc-1"]);

    // Only who shared an item, or an owner, takes it out.
    let (status, body) = app.delete(&format!("{c}/items/doc-2"), b).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::FORBIDDEN, Some("may_not_unshare")));
    let (status, _) = app.delete(&format!("{c}/items/doc-1"), o).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    assert_eq!(open("doc-1").await, StatusCode::NOT_FOUND, "no longer shared");

    // Comments: the author edits; the author or an owner deletes.
    let (_, mine) = app.post(&format!("{c}/comments/doc-2"), a, json!({"comment": "ann's"})).await;
    let mine = mine["results"]["comment_id"].as_str().unwrap().to_string();
    let (status, body) = app.put(&format!("{c}/comments/doc-2/{mine}"), o, json!({"comment": "x"})).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::FORBIDDEN, Some("not_comment_author")));
    let (status, body) = app.delete(&format!("{c}/comments/doc-2/{mine}"), b).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::FORBIDDEN, Some("may_not_delete_comment")));
    let (status, _) = app.delete(&format!("{c}/comments/doc-2/{mine}"), o).await;
    assert_eq!(status, StatusCode::NO_CONTENT, "an owner deletes anyone's comment");
    let (status, body) = app.delete(&format!("{c}/comments/doc-2/{mine}"), a).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::NOT_FOUND, Some("comment_not_found")));
});

api_test!(feeds_are_shared_into_channels_with_their_definitions, |app: TestApp| async move {
    let app = &app;
    let owner = app.sign_up("owner").await;
    let o = owner.token.as_str();
    let first = create_channel(app, &owner.token, "Feeds one", &[]).await;
    let second = create_channel(app, &owner.token, "Feeds two", &[]).await;
    let boards = format!("/api/channels/{first}/boards");
    let definition = json!({
        "name": "  Rates watch ",
        "description": "Central banks",
        "keywords": {"include": [{"keyword": "inflation", "valid": true}, {"keyword": "rate OR rates"}],
            "exclude": [{"keyword": "crypto", "valid": true}]},
        "sources": {"rss_news": {"filter": ["a"], "exclusion_filter": []}},
        "date_range": "1M",
        "type": "keyword"
    });
    let (status, board) = app.post(&boards, o, json!({"definition": definition})).await;
    assert_eq!(status, StatusCode::OK, "{board}");
    let board = &board["results"];
    assert_eq!(
        (board["board_name"].as_str(), board["enabled"].as_bool(), board["isNew"].as_bool()),
        (Some("Rates watch"), Some(true), Some(true))
    );
    assert_eq!(board["definition"]["keywords"]["include"][1], json!({"keyword": "rate OR rates", "valid": true}));
    assert_eq!(
        (board["definition"]["group"].as_str(), board["definition"]["type"].as_str()),
        (Some("default"), Some("keyword"))
    );
    let board_id = board["board_id"].as_str().unwrap().to_string();
    let (_, info) = app.get(&format!("/api/channels/{first}"), &owner.token).await;
    assert_eq!(info["channel"]["singlefeed"], true);

    for (body, message) in [
        (
            json!({"definition": {"name": "Bad", "keywords": {"include": [{"keyword": "(rates"}]}}}),
            "Invalid keyword. Paranthesis are imbalanced.",
        ),
        (
            json!({"definition": {"name": "Bad", "keywords": {"exclude": [{"keyword": "\"rates"}]}}}),
            "Invalid keyword. Quotes are either imbalanced or not at ends.",
        ),
        (json!({"definition": {"name": "Bad", "date_range": "2 weeks"}}), "Wrong shorthand"),
        (json!({"definition": {"name": " "}}), "feed name is required"),
    ] {
        let (status, answer) = app.post(&boards, o, body).await;
        assert_eq!((status, answer["message"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some(message)), "{answer}");
    }
    // Sharing again under the same id replaces the definition.
    let (status, _) = app.post(&boards, o, json!({"board_id": board_id, "definition": {"name": "Rates"}})).await;
    assert_eq!(status, StatusCode::OK);
    let (status, created) = app
        .post(
            "/api/channels/create_and_share_board",
            o,
            json!({"channel_ids": [first, second], "definition": {"name": "Both"}}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{created}");
    let both = created["results"]["board_id"].as_str().unwrap().to_string();
    let names = |list: &Value| -> Vec<String> {
        list["results"].as_array().unwrap().iter().map(|b| b["board_name"].as_str().unwrap().to_string()).collect()
    };
    assert_eq!(names(&app.get(&boards, &owner.token).await.1), ["Rates", "Both"]);
    assert_eq!(names(&app.get(&format!("/api/channels/{second}/boards"), &owner.token).await.1), ["Both"]);
    let (status, _) = app.delete(&format!("{boards}/{both}"), o).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let (status, body) = app.delete(&format!("{boards}/{both}"), o).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::NOT_FOUND, Some("board_not_found")));
    assert_eq!(names(&app.get(&boards, &owner.token).await.1), ["Rates"]);
    let (status, _) = app
        .post("/api/channels/create_and_share_board", o, json!({"channel_ids": [], "definition": {"name": "None"}}))
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
});
