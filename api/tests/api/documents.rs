//! Documents: read by the followers of their source and by their owners only, read marks, and
//! shared links that open one document to others.

use crate::support::*;

api_test!(documents_are_readable_by_followers_and_owners_only_and_read_marks_toggle, |app: TestApp| async move {
    let app = &app;
    let reader = app.sign_up("reader").await;
    let stranger = app.sign_up("stranger").await;
    let (_, source) = app.post("/api/connect/rss", &reader.token, json!({"url": "https://blog.example.org/rss"})).await;
    let source_id = source["source_id"].as_str().unwrap().to_string();
    ingest(app, "doc-1", &source_id, "First post", None).await;
    ingest(app, "doc-2", &source_id, "Second post", None).await;
    let reader_id = reader.id();
    ingest(app, "upload-1", "needldrive", "My upload", Some(reader_id)).await;

    let (status, page) = app.get("/api/documents", &reader.token).await;
    assert_eq!(status, StatusCode::OK);
    let titles: Vec<&str> = page["results"].as_array().unwrap().iter().map(|d| d["title"].as_str().unwrap()).collect();
    assert_eq!(titles.len(), 3, "{titles:?}");
    let (_, page) = app.get("/api/documents", &stranger.token).await;
    assert!(page["results"].as_array().unwrap().is_empty(), "a stranger sees none of it");
    let (status, _) = app.get(&format!("/api/doc/{source_id}?deeplink=doc-1"), &stranger.token).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = app.get("/api/doc/needldrive?deeplink=upload-1", &stranger.token).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "never another user's upload");
    let (status, doc) = app.get(&format!("/api/doc/{source_id}?deeplink=doc-1"), &reader.token).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(doc["results"][0]["read"], false);

    let mut socket = app.connect_live(&reader.token, None).await;
    let (status, _) = app.put("/api/doc/read_status/doc-1", &reader.token, json!({"status": "read"})).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(app.get("/api/doc/read_status", &reader.token).await.1["results"], json!(["doc-1"]));
    assert_eq!(
        app.get(&format!("/api/doc/{source_id}?deeplink=doc-1"), &reader.token).await.1["results"][0]["read"],
        true
    );
    next_of_type(&mut socket, "DocumentMarkedRead").await;
    app.put("/api/doc/read_status/doc-1", &reader.token, json!({"status": "unread"})).await;
    assert_eq!(app.get("/api/doc/read_status", &reader.token).await.1["results"], json!([]));
    let (status, _) = app.put("/api/doc/read_status/doc-1", &stranger.token, json!({"status": "read"})).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = app.put("/api/doc/read_status/doc-1", &reader.token, json!({"status": "skimmed"})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    let (_, page) = app.get("/api/documents?limit=1", &reader.token).await;
    assert_eq!(page["has_more"], true);
    assert_eq!(app.get("/api/documents?limit=0", &reader.token).await.0, StatusCode::BAD_REQUEST);
});

api_test!(a_shared_link_opens_one_document_for_others_and_access_keys_must_match, |app: TestApp| async move {
    let app = &app;
    let owner = app.sign_up("sharer").await;
    let friend = app.sign_up("friend").await;
    let owner_id = owner.id();
    ingest(app, "memo-1", "needldrive", "Private memo", Some(owner_id)).await;
    ingest(app, "memo-2", "needldrive", "Other memo", Some(owner_id)).await;
    let (_, own) = app.get("/api/doc/needldrive?deeplink=memo-1", &owner.token).await;
    let access_key = own["results"][0]["access_key"].as_str().unwrap().to_string();
    assert!(own["results"][0]["public_access_key"].is_null());
    assert_eq!(
        app.get(&format!("/api/doc/needldrive?deeplink=memo-1&access_key={access_key}"), &owner.token).await.0,
        StatusCode::OK
    );
    assert_eq!(
        app.get(&format!("/api/doc/needldrive?deeplink=memo-2&access_key={access_key}"), &owner.token).await.0,
        StatusCode::NOT_FOUND,
        "a key is for one document"
    );

    assert_eq!(app.get("/api/doc/needldrive?deeplink=memo-1", &friend.token).await.0, StatusCode::NOT_FOUND);
    assert_eq!(
        app.get(&format!("/api/doc/needldrive?deeplink=memo-1&access_key={access_key}"), &friend.token).await.0,
        StatusCode::NOT_FOUND,
        "an access key grants nothing"
    );
    let (status, shared) = app.get("/api/doc/needldrive?deeplink=memo-1&share=true", &owner.token).await;
    assert_eq!(status, StatusCode::OK, "{shared}");
    let public = shared["results"][0]["public_access_key"].as_str().unwrap().to_string();
    let (status, seen) =
        app.get(&format!("/api/doc/needldrive?deeplink=memo-1&public_access_key={public}"), &friend.token).await;
    assert_eq!(status, StatusCode::OK, "{seen}");
    assert_eq!(seen["results"][0]["title"], "Private memo");
    assert_eq!(seen["results"][0]["owned"], false);
    // The link's holder may keep their own read state of it, and nothing else.
    let (status, _) = app
        .put(
            &format!("/api/doc/read_status/memo-1?public_access_key={public}"),
            &friend.token,
            json!({"status": "read"}),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let (status, _) = app.put("/api/doc/read_status/memo-2", &friend.token, json!({"status": "read"})).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(
        app.get(&format!("/api/doc/needldrive?deeplink=memo-2&public_access_key={public}"), &friend.token).await.0,
        StatusCode::NOT_FOUND,
        "the link opens one document"
    );
    // Strangers cannot make links to what they cannot read.
    assert_eq!(app.get("/api/doc/needldrive?deeplink=memo-2&share=true", &friend.token).await.0, StatusCode::NOT_FOUND);
    let (_, audit) = app.get("/api/audit/aggregates/document/memo-1", &owner.token).await;
    assert!(audit.to_string().contains("DocumentShared"), "sharing is on the record: {audit}");
});

api_test!(cards_carry_the_tone_of_their_headline, |app: TestApp| async move {
    let app = &app;
    let reader = app.sign_up("tone").await;
    let owner = Some(reader.id());
    ingest(app, "up-1", "needldrive", "Acme beats estimates as revenue surges to a record", owner).await;
    ingest(app, "down-1", "needldrive", "Acme misses forecasts; shares plunge on weak guidance", owner).await;
    ingest(app, "flat-1", "needldrive", "Acme files its annual report", owner).await;
    let (_, page) = app.get("/api/documents", &reader.token).await;
    let tone = |deeplink: &str| {
        let card = page["results"].as_array().unwrap().iter().find(|d| d["deeplink"] == deeplink).unwrap().clone();
        card["sentiment"]["label"].as_str().unwrap().to_string()
    };
    assert_eq!(tone("up-1"), "positive", "{page}");
    assert_eq!(tone("down-1"), "negative");
    assert_eq!(tone("flat-1"), "neutral");
});
