//! The audit read side: the feed filtered and paged, exported as NDJSON, aggregates and read
//! models as they stood at a cursor or a time, the auditor's live notice, and everyone else
//! refused.

use crate::support::*;

/// The events of `/api/audit/events?QUERY`, one page, with the page's `next`.
async fn page(app: &TestApp, token: &str, query: &str) -> (Vec<Value>, Value) {
    let (status, page) = app.get(&format!("/api/audit/events?{query}"), token).await;
    assert_eq!(status, StatusCode::OK, "{query}: {page}");
    (page["events"].as_array().unwrap().clone(), page["next"].clone())
}

/// The cursor of the newest event `query` selects.
async fn cursor_of_last(app: &TestApp, token: &str, query: &str) -> String {
    let (events, _) = page(app, token, &format!("{query}&limit=1000")).await;
    events.last().unwrap_or_else(|| panic!("no event for {query}"))["cursor"].as_str().unwrap().to_string()
}

fn types_of(events: &[Value]) -> Vec<&str> {
    events.iter().map(|e| e["event_type"].as_str().unwrap()).collect()
}

/// Asserts a refusal with its status and code.
async fn refused(app: &TestApp, token: &str, path: &str, status: StatusCode, code: &str) -> Value {
    let (got, body) = app.get(path, token).await;
    assert_eq!((got, body["code"].as_str()), (status, Some(code)), "{path}: {body}");
    body
}

api_test!(filters_narrow_the_feed_and_paging_follows_them, |app: TestApp| async move {
    let app = &app;
    let admin = app.sign_up("chief").await;
    let member = app.sign_up("mira").await;
    let (a, m) = (admin.token.as_str(), member.token.as_str());
    for name in ["alpha", "beta", "gamma"] {
        create_tag(app, m, name).await;
    }
    create_tag(app, a, "admins-own").await;
    let member_id = member.id();

    let (events, _) = page(app, a, &format!("user={member_id}&event_type=TagCreated")).await;
    assert_eq!(events.len(), 3, "{events:?}");
    assert!(events.iter().all(|e| e["metadata"]["user_id"] == member_id && e["event_type"] == "TagCreated"));
    assert!(events.iter().all(|e| e["actor_name"] == "mira"), "each event names its actor: {events:?}");
    let (everything, _) = page(app, a, "limit=1000").await;
    assert!(everything.len() > 4, "unfiltered, the feed holds more");

    // Paging under a filter: one at a time, then an empty page with no next.
    let query = format!("aggregate_type=tag_book&aggregate_id={member_id}&limit=1");
    let (first, next) = page(app, a, &query).await;
    assert_eq!(first[0]["payload"]["TagCreated"]["name"], "alpha");
    assert_eq!(next, first[0]["cursor"]);
    let (second, next) = page(app, a, &format!("{query}&after={}", next.as_str().unwrap())).await;
    assert_eq!(second[0]["payload"]["TagCreated"]["name"], "beta");
    let (third, next) = page(app, a, &format!("{query}&after={}", next.as_str().unwrap())).await;
    assert_eq!(third[0]["payload"]["TagCreated"]["name"], "gamma");
    let (none, next) = page(app, a, &format!("{query}&after={}", next.as_str().unwrap())).await;
    assert!(none.is_empty());
    assert_eq!(next, Value::Null);

    // One request's events, by its id.
    let request_id = first[0]["metadata"]["request_id"].as_str().unwrap();
    let (by_request, _) = page(app, a, &format!("request_id={request_id}")).await;
    assert_eq!(types_of(&by_request), ["TagCreated"]);
    assert_eq!(by_request[0]["cursor"], first[0]["cursor"]);

    // Times bound recorded_at on both sides, inclusively.
    let (gamma_at, alpha_at) = (third[0]["recorded_at"].as_str().unwrap(), first[0]["recorded_at"].as_str().unwrap());
    let (since, _) = page(app, a, &format!("user={member_id}&from={}", urlencode(gamma_at))).await;
    assert!(since.iter().any(|e| e["cursor"] == third[0]["cursor"]));
    assert!(since.iter().all(|e| e["recorded_at"].as_str().unwrap() >= gamma_at), "{since:?}");
    if alpha_at < gamma_at {
        assert!(since.iter().all(|e| e["cursor"] != first[0]["cursor"]));
    }
    let (until, _) = page(app, a, &format!("user={member_id}&to={}", urlencode(alpha_at))).await;
    assert!(until.iter().any(|e| e["cursor"] == first[0]["cursor"]));
    assert!(until.iter().all(|e| e["recorded_at"].as_str().unwrap() <= alpha_at), "{until:?}");
    let (later, _) = page(app, a, "from=2999-01-01T00:00:00Z").await;
    assert!(later.is_empty());

    // Everything is checked before anything is read.
    let body = refused(app, a, "/api/audit/events?from=yesterday", StatusCode::BAD_REQUEST, "bad_time").await;
    assert!(body["message"].as_str().unwrap().contains("RFC 3339"), "{body}");
    let path = "/api/audit/events?from=2025-02-01T00:00:00Z&to=2025-01-01T00:00:00Z";
    refused(app, a, path, StatusCode::BAD_REQUEST, "bad_time_range").await;
    refused(app, a, "/api/audit/events?after=1-2-3", StatusCode::BAD_REQUEST, "bad_cursor").await;
    let body = refused(app, a, "/api/audit/events?after=999999999-1", StatusCode::BAD_REQUEST, "cursor_ahead").await;
    assert_eq!(body["message"], "that cursor is ahead of the history");
});

api_test!(an_auditor_pages_back_from_the_newest_event_to_the_first, |app: TestApp| async move {
    let app = &app;
    let admin = app.sign_up("reader").await;
    let member = app.sign_up("writer").await;
    let (a, m) = (admin.token.as_str(), member.token.as_str());
    for name in ["alpha", "beta", "gamma"] {
        create_tag(app, m, name).await;
    }
    let names = |events: &[Value]| -> Vec<String> {
        events.iter().map(|e| e["payload"]["TagCreated"]["name"].as_str().unwrap().to_string()).collect()
    };
    let query = format!("aggregate_type=tag_book&aggregate_id={}", member.id());

    // Newest first, two a page: the next page goes on before the last event shown, and the
    // answer says when no older one is left.
    let (newest, next) = page(app, a, &format!("{query}&order=newest&limit=2")).await;
    assert_eq!(names(&newest), ["gamma", "beta"]);
    assert_eq!(next, newest[1]["cursor"]);
    let before = next.as_str().unwrap().to_string();
    let (older, next) = page(app, a, &format!("{query}&before={before}&limit=2")).await;
    assert_eq!(names(&older), ["alpha"]);
    assert_eq!(next, Value::Null, "nothing is older than the first");
    let (all, next) = page(app, a, &format!("{query}&order=newest&limit=3")).await;
    assert_eq!(names(&all), ["gamma", "beta", "alpha"]);
    assert_eq!(next, Value::Null, "a page that holds the rest exactly has no next");
    let (same, _) = page(app, a, &format!("{query}&order=newest&before={before}&limit=2")).await;
    assert_eq!(names(&same), ["alpha"], "order=newest may come with before");

    // Unfiltered, the first newest page starts at the newest event of the whole feed (or a
    // later one the server wrote meanwhile).
    let cursor = |event: &Value| event["cursor"].as_str().unwrap().parse::<commands::feed::Cursor>().unwrap();
    let (oldest_first, _) = page(app, a, "limit=1000").await;
    let (top, _) = page(app, a, "order=newest&limit=1").await;
    assert!(cursor(&top[0]) >= cursor(oldest_first.last().unwrap()), "{top:?}");

    // A later event is above the first page, never in an older one; after the newest shown
    // finds it, as the timeline's live banner asks.
    create_tag(app, m, "delta").await;
    let (still, _) = page(app, a, &format!("{query}&before={before}&limit=2")).await;
    assert_eq!(names(&still), ["alpha"]);
    let (newer, _) = page(app, a, &format!("{query}&after={}", newest[0]["cursor"].as_str().unwrap())).await;
    assert_eq!(names(&newer), ["delta"]);
    let (default_order, _) = page(app, a, &format!("{query}&limit=1")).await;
    assert_eq!(names(&default_order), ["alpha"], "without before or order, the feed order stays");

    // Cursors are checked before anything is read, as after's are; a direction that contradicts
    // the cursor is refused.
    refused(app, a, "/api/audit/events?before=1-2-3", StatusCode::BAD_REQUEST, "bad_cursor").await;
    let body = refused(app, a, "/api/audit/events?before=999999999-1", StatusCode::BAD_REQUEST, "cursor_ahead").await;
    assert_eq!(body["message"], "that cursor is ahead of the history");
    let path = format!("/api/audit/events?after={before}&before={before}");
    refused(app, a, &path, StatusCode::BAD_REQUEST, "bad_order").await;
    let path = format!("/api/audit/events?after={before}&order=newest");
    refused(app, a, &path, StatusCode::BAD_REQUEST, "bad_order").await;
    let path = format!("/api/audit/events?before={before}&order=oldest");
    refused(app, a, &path, StatusCode::BAD_REQUEST, "bad_order").await;
    refused(app, a, "/api/audit/events?order=sideways", StatusCode::BAD_REQUEST, "invalid_query").await;
    refused(app, a, "/api/audit/events?order=newest&limit=0", StatusCode::BAD_REQUEST, "bad_limit").await;
    refused(app, m, "/api/audit/events?order=newest", StatusCode::FORBIDDEN, "forbidden").await;
});

api_test!(an_export_streams_the_filtered_selection_as_redacted_ndjson, |app: TestApp| async move {
    let app = &app;
    let admin = app.sign_up("exporter").await;
    let member = app.sign_up("subject").await;
    create_tag(app, &member.token, "one").await;
    create_tag(app, &member.token, "two").await;

    let response = app
        .request(reqwest::Method::GET, "/api/audit/export?event_type=UserSignedUp", Some(&admin.token))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()["content-type"], "application/x-ndjson");
    let disposition = response.headers()["content-disposition"].to_str().unwrap().to_string();
    assert!(disposition.starts_with("attachment; filename=\"needl-audit-"), "{disposition}");
    assert!(disposition.ends_with(".ndjson\""), "{disposition}");
    let text = response.text().await.unwrap();
    let lines: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(lines.iter().all(|e| e["event_type"] == "UserSignedUp"));
    assert!(lines.iter().all(|e| e["payload"]["UserSignedUp"]["password_hash"] == "[redacted]"));
    assert!(!text.contains("argon2"), "no hash leaves the store");
    assert_eq!(lines[1]["actor_name"], "subject");

    let path = format!("/api/audit/export?user={}&aggregate_type=tag_book", member.id());
    let text = app.request(reqwest::Method::GET, &path, Some(&admin.token)).send().await.unwrap().text().await.unwrap();
    let names: Vec<String> = text
        .lines()
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["payload"]["TagCreated"]["name"].as_str().unwrap().to_string()
        })
        .collect();
    assert_eq!(names, ["one", "two"]);
    refused(app, &admin.token, "/api/audit/export?to=soon", StatusCode::BAD_REQUEST, "bad_time").await;
    refused(app, &member.token, "/api/audit/export", StatusCode::FORBIDDEN, "forbidden").await;
});

api_test!(an_aggregate_is_rebuilt_as_it_stood_at_a_cursor_or_a_time, |app: TestApp| async move {
    let app = &app;
    let admin = app.sign_up("historian").await;
    let member = app.sign_up("tagger").await;
    let (a, m) = (admin.token.as_str(), member.token.as_str());
    followed_source_with(app, m, "https://history.example.org/rss", &["doc-h"]).await;
    let risk = create_tag(app, m, "Risk").await;
    let rates = create_tag(app, m, "Rates").await;
    let before_tagging = cursor_of_last(app, a, "event_type=TagCreated").await;
    let (status, body) = app.post("/api/tag/doc-h", m, json!({"tags": [risk, rates], "channel_id": null})).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let tagged = cursor_of_last(app, a, "event_type=DocumentTagged").await;
    let (status, body) = app.post("/api/tag/doc-h", m, json!({"tags": [rates], "channel_id": null})).await;
    assert_eq!(status, StatusCode::OK, "{body}");

    let id = format!("{}/doc-h", member.id());
    let state_path = |query: String| format!("/api/audit/aggregates/document_tags/{}/state?{query}", urlencode(&id));
    let (status, then) = app.get(&state_path(format!("at={tagged}")), a).await;
    assert_eq!(status, StatusCode::OK, "{then}");
    let mut both = vec![risk.clone(), rates.clone()];
    both.sort();
    assert_eq!(then["state"]["tags"], json!(both));
    assert_eq!(then["as_of"]["cursor"], tagged);
    assert!(then["as_of"]["time"].is_string());
    assert_eq!(then["sequence"], 2);
    assert_eq!(types_of(then["events"].as_array().unwrap()), ["DocumentTagged", "DocumentTagged"]);
    assert_eq!(then["events"][0]["actor_name"], "tagger");

    let now = chrono::Utc::now().to_rfc3339();
    let (status, current) = app.get(&state_path(format!("time={}", urlencode(&now))), a).await;
    assert_eq!(status, StatusCode::OK, "{current}");
    assert_eq!(current["state"]["tags"], json!([rates]), "the untagged one is off by now");
    assert_eq!(current["sequence"], 3);
    assert_eq!(current["as_of"]["time"].as_str().unwrap().len(), "2025-01-01T00:00:00.000Z".len());

    // Before the aggregate's first event, by cursor and by time.
    let body = refused(app, a, &state_path(format!("at={before_tagging}")), StatusCode::NOT_FOUND, "not_yet").await;
    assert_eq!(body["message"], format!("that aggregate did not exist yet at {before_tagging}"));
    refused(app, a, &state_path("time=2001-01-01T00:00:00Z".into()), StatusCode::NOT_FOUND, "not_yet").await;

    // Every bad point is refused.
    refused(app, a, &state_path("at=999999999-1".into()), StatusCode::BAD_REQUEST, "cursor_ahead").await;
    refused(app, a, &state_path("at=soon".into()), StatusCode::BAD_REQUEST, "bad_cursor").await;
    refused(app, a, &state_path("time=noon".into()), StatusCode::BAD_REQUEST, "bad_time").await;
    refused(app, a, &state_path("time=2999-01-01T00:00:00Z".into()), StatusCode::BAD_REQUEST, "time_ahead").await;
    refused(app, a, &state_path(format!("at={tagged}&time={}", urlencode(&now))), StatusCode::BAD_REQUEST, "bad_point")
        .await;
    refused(app, a, &state_path(String::new()), StatusCode::BAD_REQUEST, "bad_point").await;
    let path = format!("/api/audit/aggregates/gizmo/x/state?at={tagged}");
    refused(app, a, &path, StatusCode::BAD_REQUEST, "unknown_aggregate_type").await;
    let path = format!("/api/audit/aggregates/document_tags/nobody%2Fnothing/state?at={tagged}");
    refused(app, a, &path, StatusCode::NOT_FOUND, "not_found").await;

    // A user's state has no password hash in it.
    let path = format!("/api/audit/aggregates/user/{}/state?at={tagged}", member.id());
    let (status, user) = app.get(&path, a).await;
    assert_eq!(status, StatusCode::OK, "{user}");
    assert!(!user.to_string().contains("argon2"), "{user}");
    refused(app, m, &state_path(format!("at={tagged}")), StatusCode::FORBIDDEN, "forbidden").await;
});

api_test!(read_models_are_shown_as_they_stood_at_a_point, |app: TestApp| async move {
    let app = &app;
    let owner = app.sign_up("olive").await;
    let ann = app.sign_up("annie").await;
    let (o, ann_id) = (owner.token.as_str(), ann.id().to_string());
    let source_id = followed_source_with(app, o, "https://asof.example.org/rss", &["doc-a"]).await;
    let followed = cursor_of_last(app, o, "event_type=SourceFollowed").await;
    let channel = create_channel(app, o, "Research desk", &[]).await;
    let created = cursor_of_last(app, o, &format!("aggregate_type=channel&aggregate_id={channel}")).await;
    let (status, _) = app.post(&format!("/api/channels/{channel}/users"), o, json!({"user_ids": [ann_id]})).await;
    assert_eq!(status, StatusCode::OK);
    let (status, _) = app.post(&format!("/api/channels/{channel}/items"), o, json!({"deeplink": "doc-a"})).await;
    assert_eq!(status, StatusCode::OK);
    let (status, comment) = app
        .post(&format!("/api/channels/{channel}/comments/doc-a"), &ann.token, json!({"comment": "worth a look"}))
        .await;
    assert_eq!(status, StatusCode::OK, "{comment}");
    let tag = create_tag(app, o, "Watch").await;
    app.post("/api/tag/doc-a", o, json!({"tags": [tag], "channel_id": null})).await;
    let tagged = cursor_of_last(app, o, "event_type=DocumentTagged").await;
    app.post("/api/tag/doc-a", o, json!({"tags": [], "channel_id": null})).await;

    // The channel just after it was created, and now.
    let (status, then) = app.get(&format!("/api/audit/as-of/channels/{channel}?at={created}"), o).await;
    assert_eq!(status, StatusCode::OK, "{then}");
    assert_eq!(then["name"], "Research desk");
    assert_eq!(then["members"], json!([{"user_id": owner.id(), "name": "olive", "role": "owner"}]));
    assert_eq!(then["documents"], json!([]));
    let head = cursor_of_last(app, o, "after=0-0").await;
    let (_, now) = app.get(&format!("/api/audit/as-of/channels/{channel}?at={head}"), o).await;
    let mut members: Vec<(String, String)> = now["members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (m["name"].as_str().unwrap().to_string(), m["role"].as_str().unwrap().to_string()))
        .collect();
    members.sort();
    assert_eq!(members, [("annie".to_string(), "member".to_string()), ("olive".into(), "owner".into())]);
    let document = &now["documents"][0];
    assert_eq!(document["deeplink"], "doc-a");
    assert_eq!(document["title"], "Title of doc-a");
    assert_eq!(document["shared_by"]["name"], "olive");
    assert_eq!(document["comments"][0]["text"], "worth a look");
    assert_eq!(document["comments"][0]["author"], json!({"user_id": ann_id, "name": "annie"}));
    refused(app, o, &format!("/api/audit/as-of/channels/{channel}?at=0-0"), StatusCode::NOT_FOUND, "not_yet").await;
    refused(app, o, "/api/audit/as-of/channels/no-such?at=0-0", StatusCode::NOT_FOUND, "not_found").await;

    // The document's tags while tagged, and after the tag came off.
    let (status, tags) = app.get(&format!("/api/audit/as-of/documents/doc-a/tags?at={tagged}"), o).await;
    assert_eq!(status, StatusCode::OK, "{tags}");
    assert_eq!(
        tags["scopes"],
        json!([{"scope": "user", "id": owner.id(), "name": "olive", "tags": [{"tag_id": tag, "name": "Watch"}]}])
    );
    let (_, tags) = app.get(&format!("/api/audit/as-of/documents/doc-a/tags?at={head}"), o).await;
    assert_eq!(tags["scopes"], json!([]));
    refused(app, o, &format!("/api/audit/as-of/documents/doc-a/tags?at={followed}"), StatusCode::NOT_FOUND, "not_yet")
        .await;

    // The owner's sources before and after they followed the feed.
    let (status, sources) = app.get(&format!("/api/audit/as-of/users/{}/sources?at={head}", owner.id()), o).await;
    assert_eq!(status, StatusCode::OK, "{sources}");
    assert_eq!(sources["user"]["name"], "olive");
    assert_eq!(sources["sources"][0]["source_id"], source_id);
    assert_eq!(sources["sources"][0]["priority"], "MEDIUM");
    assert!(sources["sources"][0]["label"].is_string(), "{sources}");
    let (signed_up, _) = page(app, o, &format!("aggregate_type=user&aggregate_id={}", owner.id())).await;
    let at = signed_up[0]["cursor"].as_str().unwrap();
    let (_, sources) = app.get(&format!("/api/audit/as-of/users/{}/sources?at={at}", owner.id()), o).await;
    assert_eq!(sources["sources"], json!([]));
    refused(app, o, "/api/audit/as-of/users/nobody/sources?at=0-0", StatusCode::NOT_FOUND, "not_found").await;

    // A plain member reads none of it.
    for path in [
        format!("/api/audit/as-of/channels/{channel}?at={head}"),
        format!("/api/audit/as-of/documents/doc-a/tags?at={head}"),
        format!("/api/audit/as-of/users/{}/sources?at={head}", owner.id()),
        format!("/api/audit/events?user={}", owner.id()),
    ] {
        refused(app, &ann.token, &path, StatusCode::FORBIDDEN, "forbidden").await;
    }
});

api_test!(auditors_sockets_hear_that_the_history_grew_and_nobody_else_does, |app: TestApp| async move {
    let app = &app;
    let admin = app.sign_up("watcher").await;
    let member = app.sign_up("plain").await;
    let mut auditor_socket = app.connect_live(&admin.token, None).await;
    let mut member_socket = app.connect_live(&member.token, None).await;
    for name in ["one", "two", "three"] {
        create_tag(app, &member.token, name).await;
    }
    let notice = next_of_type(&mut auditor_socket, "audit").await;
    let head = notice["head"].as_str().unwrap();
    assert!(head.parse::<commands::feed::Cursor>().is_ok(), "{notice}");
    // The member hears of their own tags, never of the history as a whole.
    let deadline = tokio::time::Instant::now() + Duration::from_millis(1500);
    let mut heard = Vec::new();
    while tokio::time::Instant::now() < deadline {
        match anything_within(&mut member_socket, Duration::from_millis(300)).await {
            Some(message) => heard.push(message),
            None => continue,
        }
    }
    assert!(heard.iter().any(|m| m["type"] == "TagCreated"), "{heard:?}");
    assert!(heard.iter().all(|m| m["type"] != "audit"), "{heard:?}");
});
