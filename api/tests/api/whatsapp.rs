//! WhatsApp number verification by code on both backends: the code goes to the outbox (no
//! provider here), a wrong code costs a try, the right one verifies the profile's number, another
//! number is unverified again, codes are rate-limited, and the stored events hold neither the
//! code nor the number in the clear.

use crate::support::*;

const NUMBER: &str = "+44 7700 900123";

async fn code_in_outbox(app: &TestApp, admin: &Session) -> String {
    let (status, outbox) = app.get("/api/admin/outbox?limit=5", &admin.token).await;
    assert_eq!(status, StatusCode::OK, "{outbox}");
    let message = &outbox["messages"][0];
    assert_eq!(message["channel"], "whatsapp");
    assert_eq!(message["recipient"], NUMBER);
    let body = message["body"].as_str().unwrap();
    body.split(|c: char| !c.is_ascii_digit()).find(|w| w.len() == 6).expect("a six-digit code").to_string()
}

async fn stored_events(db: &commands::Db) -> String {
    #[derive(sqlx::FromRow)]
    struct Row {
        line: String,
    }
    let sql = match db {
        commands::Db::Sqlite { .. } => "SELECT payload AS line FROM events WHERE event_type LIKE 'Whatsapp%'",
        _ => "SELECT payload::text AS line FROM events WHERE event_type LIKE 'Whatsapp%'",
    };
    let rows: Vec<Row> = db.fetch_all(sql, vec![]).await.unwrap();
    rows.into_iter().map(|r| r.line).collect::<Vec<_>>().join("\n")
}

api_test!(a_whatsapp_number_is_verified_by_a_code_from_the_outbox, |app: TestApp| async move {
    let app = &app;
    let admin = app.sign_up("root").await;
    let user = app.sign_up("pulse").await;

    let (status, body) = app.post("/api/user/whatsapp/otp", &user.token, json!({})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(body["code"], "whatsapp_number_missing");
    app.patch("/api/user", &user.token, json!({"whatsapp_number": NUMBER})).await;
    let (_, status) = app.get("/api/user/whatsapp/status", &user.token).await;
    assert_eq!(status["number"], NUMBER);
    assert_eq!(status["verified"], false);
    assert_eq!(status["required"], false);
    let flag = format!("/api/admin/users/{}/flags/is_pulse_whatsapp_verification_enabled", user.id());
    app.put(&flag, &admin.token, json!({"value": "on"})).await;
    assert_eq!(app.get("/api/user/whatsapp/status", &user.token).await.1["required"], true);

    let (status, sent) = app.post("/api/user/whatsapp/otp", &user.token, json!({})).await;
    assert_eq!(status, StatusCode::OK, "{sent}");
    assert_eq!(sent["sent_to"], NUMBER);
    let code = code_in_outbox(app, &admin).await;
    // Another code at once is refused, with how long to wait.
    let res = app
        .request(reqwest::Method::POST, "/api/user/whatsapp/otp", Some(&user.token))
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::TOO_MANY_REQUESTS);
    let wait: u64 = res.headers()["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((1..=60).contains(&wait), "{wait}");
    assert!(app.get("/api/user/whatsapp/status", &user.token).await.1["resend_after_seconds"].as_u64().unwrap() > 0);

    let wrong = if code == "123456" { "654321" } else { "123456" };
    let (status, body) = app.post("/api/user/whatsapp/verify", &user.token, json!({"code": wrong})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(body["code"], "wrong_code");
    assert_eq!(body["message"], "That code is not right; 4 tries left.");
    let (status, body) = app.post("/api/user/whatsapp/verify", &user.token, json!({"code": code})).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body, json!({"verified": true, "number": NUMBER}));
    assert_eq!(app.get("/api/user/whatsapp/status", &user.token).await.1["verified"], true);
    let (status, body) = app.post("/api/user/whatsapp/verify", &user.token, json!({"code": code})).await;
    assert_eq!(body["code"], "no_code", "a code works once ({status})");
    let (status, body) = app.post("/api/user/whatsapp/otp", &user.token, json!({})).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");

    // The events keep the code's keyed digest and the sealed number, never either in the clear.
    let stored = stored_events(&app.server.state.db).await;
    assert!(stored.contains("code_hash") && stored.contains("sealed:v1:"), "{stored}");
    assert!(!stored.contains(&format!("\"{code}\"")) && !stored.contains("7700 900123"), "{stored}");

    // Another number is not verified.
    app.patch("/api/user", &user.token, json!({"whatsapp_number": "+91 98765 43210"})).await;
    let (_, status) = app.get("/api/user/whatsapp/status", &user.token).await;
    assert_eq!(status["verified"], false, "{status}");
    assert_eq!(app.get("/api/admin/outbox", &user.token).await.0, StatusCode::FORBIDDEN);
});
