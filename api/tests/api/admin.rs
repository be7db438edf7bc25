//! Administration: feature flags per user that only administrators change, and the audit feed
//! that auditors read with its metadata and no secrets.

use crate::support::*;

api_test!(feature_flags_are_per_user_and_only_administrators_change_them, |app: TestApp| async move {
    let app = &app;
    let admin = app.sign_up("root").await;
    let member = app.sign_up("member").await;
    let (_, config) = app.get("/api/feature/config", &member.token).await;
    assert_eq!(config["features"]["notebooks"], true);
    assert_eq!(config["features"]["is_pricing"], false);
    let member_id = member.id();
    let path = format!("/api/admin/users/{member_id}/flags/notebooks");
    let (status, _) = app.put(&path, &member.token, json!({"value": "off"})).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _) = app.put(&path, &admin.token, json!({"value": "ON"})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "only on or off are values");
    let (status, _) = app.put(&path, &admin.token, json!({"value": "off"})).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(app.get("/api/feature/config", &member.token).await.1["features"]["notebooks"], false);
    assert_eq!(app.get("/api/feature/config", &admin.token).await.1["features"]["notebooks"], true);
    assert_eq!(app.get("/api/feature/index", &member.token).await.1["results"]["notebooks"], "off");
    let (_, org) = app.get("/api/organizations/self", &admin.token).await;
    assert_eq!(org["permissions"]["canPublishChannels"], true);
    let (_, org) = app.get("/api/organizations/self", &member.token).await;
    assert_eq!(org["permissions"]["canPublishChannels"], false);
});

api_test!(auditors_read_the_feed_with_metadata_and_no_secrets, |app: TestApp| async move {
    let app = &app;
    let admin = app.sign_up("boss").await;
    let member = app.sign_up("reader").await;
    assert_eq!(app.get("/api/audit/events", &member.token).await.0, StatusCode::FORBIDDEN);
    let member_id = member.id();
    let (status, _) = app.put_empty(&format!("/api/admin/users/{member_id}/roles/auditor"), &admin.token).await;
    assert_eq!(status, StatusCode::OK);
    let (status, page) = app.get("/api/audit/events?limit=1000", &member.token).await;
    assert_eq!(status, StatusCode::OK);
    let events = page["events"].as_array().unwrap();
    let signed_up = events.iter().find(|e| e["event_type"] == "UserSignedUp").unwrap();
    assert_eq!(signed_up["payload"]["UserSignedUp"]["password_hash"], "[redacted]");
    assert_eq!(signed_up["metadata"]["app_type"], "web");
    assert_eq!(signed_up["metadata"]["request_origin"], "/tests/page");
    assert!(!signed_up["metadata"]["request_id"].as_str().unwrap().is_empty());
    let granted = events.iter().find(|e| e["event_type"] == "RoleGranted").unwrap();
    assert_eq!(granted["metadata"]["user_id"], admin.user["id"], "the actor is the administrator");
    let next = page["next"].as_str().unwrap();
    let (_, rest) = app.get(&format!("/api/audit/events?after={next}"), &member.token).await;
    assert!(rest["events"]
        .as_array()
        .unwrap()
        .iter()
        .all(|e| e["event_type"] != "UserSignedUp" || e["aggregate_id"] != signed_up["aggregate_id"]));
    let (status, history) = app.get(&format!("/api/audit/aggregates/user/{member_id}"), &member.token).await;
    assert_eq!(status, StatusCode::OK);
    let types: Vec<&str> =
        history["events"].as_array().unwrap().iter().map(|e| e["event_type"].as_str().unwrap()).collect();
    assert_eq!(types, vec!["UserSignedUp", "RoleGranted"]);
    assert_eq!(app.get("/api/audit/events?after=garbage", &member.token).await.0, StatusCode::BAD_REQUEST);
});
