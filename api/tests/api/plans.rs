//! Plans and pricing gates, with the browser bypassed: the server refuses what a user's plan does
//! not allow, a smaller plan deletes nothing, and with pricing off nothing is gated.

use crate::support::*;

fn feed(name: &str) -> Value {
    json!({"definition": {"name": name, "keywords": {"include": [{"keyword": name, "valid": true}], "exclude": []}}})
}

async fn pricing_on(app: &TestApp, admin: &Session, user: &Session) {
    let path = format!("/api/admin/users/{}/flags/is_pricing", user.id());
    let (status, body) = app.put(&path, &admin.token, json!({"value": "on"})).await;
    assert_eq!(status, StatusCode::OK, "{body}");
}

api_test!(a_plan_limits_feeds_and_notebooks_and_a_downgrade_deletes_nothing, |app: TestApp| async move {
    let app = &app;
    let admin = app.sign_up("root").await;
    let analyst = app.sign_up("analyst").await;

    // Pricing off: everything eligible, nothing counted against a plan.
    let (_, map) = app.get("/api/messaging/pricing", &analyst.token).await;
    assert_eq!(map["results"].as_object().unwrap().len(), 10, "{map}");
    assert!(map["results"].as_object().unwrap().values().all(|e| e["isEligible"] == true), "{map}");
    for i in 0..3 {
        let (status, body) = app.post("/api/boards/v2", &analyst.token, feed(&format!("f{i}"))).await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }

    // Pricing on, the default (free) plan: two feeds, and this user already has three.
    pricing_on(app, &admin, &analyst).await;
    let (_, mine) = app.get("/api/user/plan", &analyst.token).await;
    assert_eq!(mine["plan"]["id"], "free", "{mine}");
    assert_eq!(mine["pricing"], true);
    assert_eq!(mine["usage"]["feeds"], 3);
    assert_eq!(mine["plan"]["limits"]["feeds"], 2);
    assert_eq!(mine["billing_portal_url"], Value::Null);
    let (_, map) = app.get("/api/messaging/pricing", &analyst.token).await;
    let add_feed = &map["results"]["add_feed"];
    assert_eq!(add_feed["isEligible"], false, "{map}");
    assert_eq!(add_feed["action"], "feed_manager");
    assert_eq!(map["results"]["connect_app"]["action"], "upgrade");
    assert_eq!(map["results"]["view_myfeeds"]["isEligible"], true);

    let (status, body) = app.post("/api/boards/v2", &analyst.token, feed("fourth")).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    assert_eq!(body["code"], "plan_required");
    assert_eq!(body["message"], add_feed["message"], "the refusal says what the prompt says");
    // Nothing was deleted by the smaller plan, and the feeds still read (only enabled ones are
    // listed while pricing is on).
    let (status, list) = app.get("/api/boards/v2", &analyst.token).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(list["results"].as_array().unwrap().len(), 3, "{list}");

    // Turning one off and on again: on is refused at the enabled-feeds limit.
    let id = list["results"][0]["board_id"].as_str().unwrap().to_string();
    let (status, _) = app.put(&format!("/api/boards/enable/{id}"), &analyst.token, json!({"enabled": false})).await;
    assert_eq!(status, StatusCode::OK);
    let (status, body) = app.put(&format!("/api/boards/enable/{id}"), &analyst.token, json!({"enabled": true})).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    assert_eq!(body["code"], "plan_required");

    // Notebooks: three on the free plan.
    for i in 0..3 {
        let (status, body) = app.put("/api/notebook", &analyst.token, json!({"name": format!("n{i}")})).await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }
    let (status, body) = app.put("/api/notebook", &analyst.token, json!({"name": "n3"})).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    assert_eq!(body["code"], "plan_required");

    // Only an administrator assigns plans, only known ones.
    let plan_path = format!("/api/admin/users/{}/plan", analyst.id());
    let (status, _) = app.put(&plan_path, &analyst.token, json!({"plan": "enterprise"})).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, body) = app.put(&plan_path, &admin.token, json!({"plan": "gold"})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(body["code"], "unknown_plan");
    let (status, _) = app.put("/api/admin/users/nobody/plan", &admin.token, json!({"plan": "pro"})).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, body) = app.put(&plan_path, &admin.token, json!({"plan": "pro"})).await;
    assert_eq!(status, StatusCode::NO_CONTENT, "{body}");
    let (_, users) = app.get("/api/admin/users", &admin.token).await;
    let listed = users.as_array().unwrap().iter().find(|u| u["id"] == analyst.user["id"]).unwrap().clone();
    assert_eq!(listed["plan"], "pro");

    // On the bigger plan the same writes go through.
    let (status, body) = app.post("/api/boards/v2", &analyst.token, feed("fourth")).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, _) = app.put(&format!("/api/boards/enable/{id}"), &analyst.token, json!({"enabled": true})).await;
    assert_eq!(status, StatusCode::OK);
    let (status, _) = app.put("/api/notebook", &analyst.token, json!({"name": "n3"})).await;
    assert_eq!(status, StatusCode::OK);

    // Back to free: everything stays, new feeds are refused again.
    let (status, _) = app.put(&plan_path, &admin.token, json!({"plan": "free"})).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let (_, mine) = app.get("/api/user/plan", &analyst.token).await;
    assert_eq!(mine["usage"]["feeds"], 4, "{mine}");
    assert_eq!(mine["usage"]["notebooks"], 4, "{mine}");
    let (status, _) = app.post("/api/boards/v2", &analyst.token, feed("fifth")).await;
    assert_eq!(status, StatusCode::FORBIDDEN);

    // The plans are listed for everyone, cheapest first.
    let (_, plans) = app.get("/api/plans", &analyst.token).await;
    let ids: Vec<&str> = plans["plans"].as_array().unwrap().iter().map(|p| p["id"].as_str().unwrap()).collect();
    assert_eq!(ids, vec!["free", "pro", "enterprise"]);
    assert_eq!(plans["default_plan"], "free");
});

/// The plan's storage replaces the instance quota for a user on plans, at upload time.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_plan_storage_limit_holds_for_uploads() {
    let mut config = ServeArgs::for_tests();
    config.billing_portal_url = Some("https://billing.example.com/portal".into());
    let app = spawn_app_with(Backend::Sqlite, config).await;
    let admin = app.sign_up("root").await;
    let user = app.sign_up("filer").await;
    pricing_on(&app, &admin, &user).await;
    let (_, mine) = app.get("/api/user/plan", &user.token).await;
    assert_eq!(mine["billing_portal_url"], "https://billing.example.com/portal");
    let free_bytes = mine["plan"]["limits"]["storage_bytes"].as_u64().unwrap();
    assert_eq!(free_bytes, 512 * 1024 * 1024);
    let (_, storage) = app.get("/api/user/storage", &user.token).await;
    assert_eq!(storage["quota_bytes"].as_u64(), Some(free_bytes), "{storage}");
    // Eleven files of 49 MiB each pass the per-file limit and together pass the plan's 512 MiB.
    let files: Vec<Value> = (0..11)
        .map(|i| json!({"id": format!("f{i}"), "name": format!("f{i}.pdf"), "size": 49 * 1024 * 1024}))
        .collect();
    let (status, body) =
        app.post("/api/upload/init", &user.token, json!({"source": "needldrive", "files": files})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(body["code"], "storage_quota_exceeded");
    let (status, body) = app
        .post(
            "/api/upload/init",
            &user.token,
            json!({"source": "needldrive", "files": [{"id": "small", "name": "small.pdf", "size": 1000}]}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
}
