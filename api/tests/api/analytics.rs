//! The analytics feed: a named consumer reads the history in batches and acknowledges them, so
//! its next run resumes after the last batch it stored; analysts read metadata and counts but
//! never content; bad input is refused and writes nothing.

use crate::support::*;

/// Reads every batch for `consumer` to the end, acknowledging each; returns the events read.
async fn drain(app: &TestApp, token: &str, consumer: &str, limit: usize) -> Vec<Value> {
    let mut read = Vec::new();
    loop {
        let (status, page) = app.get(&format!("/api/analytics/events?consumer={consumer}&limit={limit}"), token).await;
        assert_eq!(status, StatusCode::OK, "{page}");
        let events = page["events"].as_array().unwrap().clone();
        let Some(next) = page["next"].as_str() else {
            assert!(events.is_empty());
            return read;
        };
        let (status, acked) =
            app.post("/api/analytics/events/ack", token, json!({"consumer": consumer, "cursor": next})).await;
        assert_eq!(status, StatusCode::OK, "{acked}");
        assert_eq!(acked["acknowledged"], next);
        read.extend(events);
    }
}

api_test!(a_consumer_resumes_after_what_it_acknowledged_and_never_repeats, |app: TestApp| async move {
    let app = &app;
    let admin = app.sign_up("ops").await;
    let member = app.sign_up("writer").await;
    assert_eq!(app.get("/api/analytics/consumers", &member.token).await.0, StatusCode::FORBIDDEN);
    assert_eq!(
        app.post("/api/analytics/consumers", &member.token, json!({"name": "mine"})).await.0,
        StatusCode::FORBIDDEN
    );

    let (status, registered) = app.post("/api/analytics/consumers", &admin.token, json!({"name": "nightly"})).await;
    assert_eq!(status, StatusCode::CREATED, "{registered}");
    assert_eq!(registered["acknowledged"], "0-0");
    let (status, again) = app.post("/api/analytics/consumers", &admin.token, json!({"name": "nightly"})).await;
    assert_eq!(status, StatusCode::CONFLICT, "{again}");
    assert_eq!(again["code"], "consumer_exists");

    let first = drain(app, &admin.token, "nightly", 3).await;
    assert!(first.iter().any(|e| e["event_type"] == "UserSignedUp"));
    assert!(first.iter().all(|e| e["aggregate_type"] != "analytics_consumer"), "its own events are left out");
    let signed_up = first.iter().find(|e| e["event_type"] == "UserSignedUp").unwrap();
    assert_eq!(signed_up["payload"]["UserSignedUp"]["password_hash"], "[redacted]");

    // A second run finds only what happened since.
    create_tag(app, &member.token, "Shipping").await;
    let second = drain(app, &admin.token, "nightly", 3).await;
    let types: Vec<&str> = second.iter().map(|e| e["event_type"].as_str().unwrap()).collect();
    assert!(types.contains(&"TagCreated"), "{types:?}");
    assert!(!types.contains(&"UserSignedUp"), "nothing read twice: {types:?}");
    let cursors: std::collections::HashSet<&str> =
        first.iter().chain(&second).map(|e| e["cursor"].as_str().unwrap()).collect();
    assert_eq!(cursors.len(), first.len() + second.len(), "no event in two batches");

    // A batch read but not acknowledged is read again, the same.
    create_tag(app, &member.token, "Rail").await;
    let (_, once) = app.get("/api/analytics/events?consumer=nightly", &admin.token).await;
    let (_, twice) = app.get("/api/analytics/events?consumer=nightly", &admin.token).await;
    assert_eq!(once["events"], twice["events"]);
    assert_eq!(once["events"].as_array().unwrap().len(), 1);

    // Going back is refused; a deleted consumer registered again starts over.
    let back = first[0]["cursor"].as_str().unwrap();
    let (status, refused) =
        app.post("/api/analytics/events/ack", &admin.token, json!({"consumer": "nightly", "cursor": back})).await;
    assert_eq!(status, StatusCode::CONFLICT, "{refused}");
    assert_eq!(refused["code"], "cursor_behind");
    assert_eq!(app.delete("/api/analytics/consumers/nightly", &admin.token).await.0, StatusCode::NO_CONTENT);
    app.post("/api/analytics/consumers", &admin.token, json!({"name": "nightly"})).await;
    let (_, restart) = app.get("/api/analytics/events?consumer=nightly&limit=1000", &admin.token).await;
    assert!(restart["events"].as_array().unwrap().len() >= first.len() + second.len());
});

api_test!(analysts_read_metadata_and_counts_but_never_content, |app: TestApp| async move {
    let app = &app;
    let admin = app.sign_up("boss").await;
    let analyst = app.sign_up("numbers").await;
    let (status, _) = app.put_empty(&format!("/api/admin/users/{}/roles/analyst", analyst.id()), &admin.token).await;
    assert_eq!(status, StatusCode::OK);
    create_tag(app, &admin.token, "Confidential deal").await;

    app.post("/api/analytics/consumers", &analyst.token, json!({"name": "warehouse"})).await;
    let (status, page) = app.get("/api/analytics/events?consumer=warehouse&limit=1000", &analyst.token).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    let events = page["events"].as_array().unwrap();
    let tag = events.iter().find(|e| e["event_type"] == "TagCreated").expect("the tag's event is listed");
    assert!(tag.get("payload").is_none(), "no content for analysts: {tag}");
    assert!(!page.to_string().contains("Confidential deal"));
    assert_eq!(tag["metadata"]["user_id"], admin.user["id"]);
    // The audit log stays closed to them.
    assert_eq!(app.get("/api/audit/events", &analyst.token).await.0, StatusCode::FORBIDDEN);

    let (status, counts) = app.get("/api/analytics/counts?by=event_type", &analyst.token).await;
    assert_eq!(status, StatusCode::OK, "{counts}");
    let count_of = |key: &str| {
        counts["counts"].as_array().unwrap().iter().find(|c| c["key"] == key).map(|c| c["count"].as_i64().unwrap())
    };
    assert_eq!(count_of("UserSignedUp"), Some(2));
    assert_eq!(count_of("TagCreated"), Some(1));
    let (_, by_day) = app.get("/api/analytics/counts?by=day", &analyst.token).await;
    let today = chrono::Utc::now().format("%Y-%m-%d").to_string();
    assert_eq!(by_day["counts"][0]["key"], today);
    assert_eq!(by_day["total"], counts["total"]);
    let (_, none) =
        app.get("/api/analytics/counts?from=2000-01-01T00:00:00Z&to=2000-01-02T00:00:00Z", &analyst.token).await;
    assert_eq!(none["total"], 0);
});

api_test!(bad_analytics_input_gets_a_clear_error_and_writes_nothing, |app: TestApp| async move {
    let app = &app;
    let admin = app.sign_up("root").await;
    let before = commands::feed::read_after(&app.server.state.db, commands::Cursor::START, 10_000).await.unwrap().len();
    let cases: Vec<(&str, reqwest::Method, Value, StatusCode, &str)> = vec![
        (
            "/api/analytics/events?consumer=nobody",
            reqwest::Method::GET,
            Value::Null,
            StatusCode::NOT_FOUND,
            "unknown_consumer",
        ),
        (
            "/api/analytics/consumers",
            reqwest::Method::POST,
            json!({"name": "Bad Name"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "bad_consumer_name",
        ),
        (
            "/api/analytics/events/ack",
            reqwest::Method::POST,
            json!({"consumer": "nobody", "cursor": "0-1"}),
            StatusCode::NOT_FOUND,
            "unknown_consumer",
        ),
        (
            "/api/analytics/consumers/nobody",
            reqwest::Method::DELETE,
            Value::Null,
            StatusCode::NOT_FOUND,
            "unknown_consumer",
        ),
        ("/api/analytics/counts?by=hour", reqwest::Method::GET, Value::Null, StatusCode::BAD_REQUEST, "bad_group"),
        (
            "/api/analytics/counts?from=yesterday",
            reqwest::Method::GET,
            Value::Null,
            StatusCode::BAD_REQUEST,
            "bad_time",
        ),
        (
            "/api/analytics/counts?from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z",
            reqwest::Method::GET,
            Value::Null,
            StatusCode::BAD_REQUEST,
            "bad_range",
        ),
    ];
    for (path, method, body, status, code) in cases {
        let (got, answer) = app.send(method.clone(), path, Some(&admin.token), (!body.is_null()).then_some(body)).await;
        assert_eq!(got, status, "{method} {path}: {answer}");
        assert_eq!(answer["code"], code, "{method} {path}");
    }
    app.post("/api/analytics/consumers", &admin.token, json!({"name": "daily"})).await;
    let mid = commands::feed::read_after(&app.server.state.db, commands::Cursor::START, 10_000).await.unwrap().len();
    assert_eq!(mid, before + 1, "only the registration was written");
    // A cursor no database here reaches: Postgres transaction ids pass a million on a busy machine.
    for (cursor, status, code) in [
        ("garbage", StatusCode::BAD_REQUEST, "bad_cursor"),
        ("999999999999-999999999999", StatusCode::BAD_REQUEST, "cursor_ahead"),
    ] {
        let (got, answer) =
            app.post("/api/analytics/events/ack", &admin.token, json!({"consumer": "daily", "cursor": cursor})).await;
        assert_eq!(got, status, "{cursor}: {answer}");
        assert_eq!(answer["code"], code);
    }
    let after = commands::feed::read_after(&app.server.state.db, commands::Cursor::START, 10_000).await.unwrap().len();
    assert_eq!(after, mid, "refused acknowledgements wrote nothing");
});

/// The event schemas are published beside the OpenAPI document, for anyone: one per aggregate
/// type and event type of every aggregate the command bus knows, each at its current version.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_event_type_of_every_aggregate_has_a_published_schema() {
    let app = spawn_app(Backend::Sqlite).await;
    let response = app.client.get(app.url("/api/analytics/schema")).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let body: Value = response.json().await.unwrap();
    let events = body["events"].as_array().unwrap();
    let mut seen = std::collections::BTreeSet::new();
    for entry in events {
        let key = (entry["aggregate_type"].as_str().unwrap(), entry["event_type"].as_str().unwrap());
        assert!(seen.insert(key), "{key:?} twice");
        assert!(!entry["event_version"].as_str().unwrap().is_empty());
        assert_eq!(entry["schema"]["title"], entry["event_type"]);
    }
    let aggregates: std::collections::BTreeSet<&str> = seen.iter().map(|(a, _)| *a).collect();
    let known: std::collections::BTreeSet<&str> = commands::replay::known_types().collect();
    assert_eq!(aggregates, known, "the schemas cover exactly the aggregates the bus knows");

    let signed_up = events.iter().find(|e| e["aggregate_type"] == "user" && e["event_type"] == "UserSignedUp").unwrap();
    let fields = &signed_up["schema"]["properties"]["UserSignedUp"];
    assert_eq!(fields["properties"]["email"]["type"], "string");
    assert!(fields["required"].as_array().unwrap().contains(&json!("password_hash")));

    let doc: Value = app.client.get(app.url("/api/openapi.json")).send().await.unwrap().json().await.unwrap();
    assert!(doc["paths"]["/analytics/schema"]["get"].is_object(), "the schema endpoint is documented");
}
