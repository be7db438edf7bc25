//! The model server AskNeedl writes with, set by administrators over the API: which kind of
//! answers the panel is told it gets, the connection check against a real (local) server, the
//! key that is never sent back, and answers that switch to the model without a restart.
//!
//! The "model server" is a small axum server in the test that speaks the chat-completions shape:
//! streamed when asked to stream (answers), one JSON completion otherwise (the check).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use axum::http::{HeaderMap, StatusCode as S};
use axum::response::{IntoResponse, Response};

use crate::support::*;

const KEY: &str = "sk-test-7f3a";
const STEEL: &str = "The United States imposed a 25 percent tariff on imported steel in March 2018, citing \
national security. Carmakers warned that the steel duties would raise vehicle prices.";
/// What the model answers: words no source has, so an answer with them was written by it.
const MODEL_SAYS: &str = "Washington levied a quarter on foreign steel in 2018 [1].";

/// A chat-completions server on 127.0.0.1 that wants `KEY` as its bearer token and knows the
/// model `tiny`. Returns its base URL (ending in `/v1`) and how many completions it has served.
async fn model_server() -> (String, Arc<AtomicUsize>) {
    let served = Arc::new(AtomicUsize::new(0));
    let count = served.clone();
    let app = axum::Router::new().route(
        "/v1/chat/completions",
        axum::routing::post(move |headers: HeaderMap, body: axum::Json<Value>| {
            let count = count.clone();
            async move { complete(&headers, &body.0, &count) }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/v1", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (url, served)
}

fn complete(headers: &HeaderMap, body: &Value, served: &AtomicUsize) -> Response {
    if headers.get("authorization").and_then(|v| v.to_str().ok()) != Some(&format!("Bearer {KEY}")) {
        return (S::UNAUTHORIZED, axum::Json(json!({"error": {"message": "Incorrect API key provided"}})))
            .into_response();
    }
    if body["model"] != "tiny" {
        return (S::NOT_FOUND, axum::Json(json!({"error": {"message": "model not found"}}))).into_response();
    }
    served.fetch_add(1, Ordering::SeqCst);
    if body["stream"] == true {
        let piece = json!({"choices": [{"index": 0, "delta": {"content": MODEL_SAYS}}]});
        let events = format!("data: {piece}\n\ndata: [DONE]\n\n");
        return ([("content-type", "text/event-stream")], events).into_response();
    }
    axum::Json(json!({"choices": [{"index": 0, "message": {"role": "assistant", "content": "OK"}}]})).into_response()
}

/// Asks `prompt` and returns the answer's text from its DONE event.
async fn answer_to(app: &TestApp, token: &str, prompt: &str) -> String {
    let res = app
        .request(reqwest::Method::POST, "/api/ml/ask-needl", Some(token))
        .json(&json!({ "prompt": prompt }))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    let text = tokio::time::timeout(Duration::from_secs(30), res.text()).await.expect("the answer ends").unwrap();
    let done = text
        .split("\n\n")
        .filter_map(|block| block.lines().find_map(|l| l.strip_prefix("data:")))
        .map(|data| serde_json::from_str::<Value>(data.trim()).unwrap())
        .find(|e| e["status"] == "DONE")
        .unwrap_or_else(|| panic!("no answer: {text}"));
    done["data"]["generated_answer"]["answer"].as_str().unwrap_or_default().to_string()
}

api_test!(without_a_model_answers_are_quoted_and_only_administrators_see_the_setting, |app: TestApp| async move {
    let app = &app;
    let admin = app.sign_up("root").await;
    let member = app.sign_up("member").await;
    let (status, mode) = app.get("/api/ask/mode", &member.token).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(mode, json!({"mode": "quoted", "model": null, "can_configure": false}));
    assert_eq!(app.get("/api/ask/mode", &admin.token).await.1["can_configure"], true);

    let (status, settings) = app.get("/api/admin/assistant", &admin.token).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(settings["origin"], "flags");
    assert_eq!(settings["url"], Value::Null);
    assert_eq!(settings["key_set"], false);

    let change = json!({"url": "http://127.0.0.1:9/v1", "model": "tiny"});
    assert_eq!(app.get("/api/admin/assistant", &member.token).await.0, StatusCode::FORBIDDEN);
    assert_eq!(app.put("/api/admin/assistant", &member.token, change.clone()).await.0, StatusCode::FORBIDDEN);
    assert_eq!(app.post("/api/admin/assistant/check", &member.token, change).await.0, StatusCode::FORBIDDEN);

    for (url, code) in [("file:///etc/passwd", "invalid_url"), ("ftp://models.example/v1", "invalid_url")] {
        let (status, body) = app.put("/api/admin/assistant", &admin.token, json!({"url": url, "model": "m"})).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
        assert_eq!(body["code"], code);
        let (status, _) = app.post("/api/admin/assistant/check", &admin.token, json!({"url": url, "model": "m"})).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    }
    let (status, body) =
        app.put("/api/admin/assistant", &admin.token, json!({"url": "http://localhost:11434/v1"})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(body["code"], "model_required");
    assert_eq!(event_types(app, "instance", "instance").await, ["AdministratorAppointed"], "nothing was recorded");
});

api_test!(the_connection_check_says_what_the_model_server_answered, |app: TestApp| async move {
    let app = &app;
    let (url, served) = model_server().await;
    let admin = app.sign_up("root").await;
    let token = admin.token.as_str();
    let check = |body: Value| async move { app.post("/api/admin/assistant/check", token, body).await };

    let (status, ok) = check(json!({"url": url, "model": "tiny", "key": KEY})).await;
    assert_eq!(status, StatusCode::OK, "{ok}");
    assert_eq!(ok["ok"], true, "{ok}");
    assert!(ok["message"].as_str().unwrap().starts_with("tiny answered in"), "{ok}");
    assert_eq!(served.load(Ordering::SeqCst), 1, "one completion was asked for");

    let (_, refused) = check(json!({"url": url, "model": "tiny", "key": "wrong"})).await;
    assert_eq!(refused["ok"], false);
    assert_eq!(refused["message"], "the server refused the key (401): Incorrect API key provided");

    let (_, unknown) = check(json!({"url": url, "model": "huge", "key": KEY})).await;
    assert_eq!(unknown["ok"], false);
    assert!(unknown["message"].as_str().unwrap().ends_with("model not found"), "{unknown}");

    let base = url.trim_end_matches("/v1");
    let (_, wrong_path) = check(json!({"url": base, "model": "tiny", "key": KEY})).await;
    assert_eq!(wrong_path["ok"], false);
    assert!(wrong_path["message"].as_str().unwrap().contains("(404)"), "{wrong_path}");

    let closed = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap().local_addr().unwrap();
    let (_, unreachable) = check(json!({"url": format!("http://{closed}/v1"), "model": "tiny"})).await;
    assert_eq!(unreachable["ok"], false);
    assert!(unreachable["message"].as_str().unwrap().starts_with("could not connect to"), "{unreachable}");
    assert_eq!(event_types(app, "instance", "instance").await, ["AdministratorAppointed"], "a check saves nothing");
});

api_test!(a_saved_model_server_writes_the_next_answer_without_a_restart, |app: TestApp| async move {
    let app = &app;
    let (url, served) = model_server().await;
    let admin = app.sign_up("root").await;
    let member = app.sign_up("asker").await;
    let feed = follow_feed(app, &member.token, "https://metals.example.com/feed.xml").await;
    ingest_text(app, "steel-1", &feed, "Steel tariffs", STEEL, None).await;
    let question = "What tariff did the United States impose on steel?";

    let quoted = answer_to(app, &member.token, question).await;
    assert!(quoted.contains("25 percent tariff"), "the sources' own sentence: {quoted}");
    assert_eq!(served.load(Ordering::SeqCst), 0);

    let (status, saved) = app
        .put("/api/admin/assistant", &admin.token, json!({"url": format!("{url}/"), "model": "tiny", "key": KEY}))
        .await;
    assert_eq!(status, StatusCode::OK, "{saved}");
    assert_eq!(saved["origin"], "saved");
    assert_eq!(saved["url"], url.as_str());
    assert_eq!(saved["key_set"], true);
    assert!(!saved.to_string().contains(KEY), "the key is never sent back: {saved}");
    let (_, read) = app.get("/api/admin/assistant", &admin.token).await;
    assert!(!read.to_string().contains(KEY), "{read}");
    assert_eq!(
        app.get("/api/ask/mode", &member.token).await.1,
        json!({"mode": "model", "model": "tiny", "can_configure": false})
    );

    let written = answer_to(app, &member.token, question).await;
    assert!(written.contains("Washington levied a quarter"), "written by the model: {written}");
    assert_eq!(served.load(Ordering::SeqCst), 1);

    // Saved again without a key: the key set stays (the model still accepts the requests).
    let (_, kept) = app.put("/api/admin/assistant", &admin.token, json!({"url": url, "model": "tiny"})).await;
    assert_eq!(kept["key_set"], true);
    assert!(answer_to(app, &member.token, question).await.contains("Washington"));

    // The audit log shows the setting's events with the key redacted.
    let (_, history) = app.get("/api/audit/aggregates/instance/instance", &admin.token).await;
    assert!(!history.to_string().contains(KEY), "{history}");
    assert!(history.to_string().contains("[redacted]"), "{history}");

    // No address: back to quoting the sources, whatever the flags said.
    let (_, off) = app.put("/api/admin/assistant", &admin.token, json!({"url": null})).await;
    assert_eq!(off["url"], Value::Null);
    assert_eq!(app.get("/api/ask/mode", &member.token).await.1["mode"], "quoted");
    assert!(answer_to(app, &member.token, question).await.contains("25 percent tariff"));
    assert_eq!(served.load(Ordering::SeqCst), 2);
});

api_test_with!(
    the_start_flags_apply_until_an_administrator_saves_a_setting,
    |config: &mut ServeArgs| {
        config.assistant_url = Some("http://127.0.0.1:9/v1".into());
        config.assistant_model = "from-flags".into();
        config.assistant_key = Some("flag-key".into());
    },
    |app: TestApp| async move {
        let app = &app;
        let admin = app.sign_up("root").await;
        let (_, settings) = app.get("/api/admin/assistant", &admin.token).await;
        assert_eq!(settings["origin"], "flags");
        assert_eq!(settings["model"], "from-flags");
        assert_eq!(settings["key_set"], true);
        assert!(!settings.to_string().contains("flag-key"));
        assert_eq!(app.get("/api/ask/mode", &admin.token).await.1["model"], "from-flags");
        let (_, saved) = app.put("/api/admin/assistant", &admin.token, json!({"url": "", "model": ""})).await;
        assert_eq!(saved["origin"], "saved");
        assert_eq!(app.get("/api/ask/mode", &admin.token).await.1["mode"], "quoted", "the saved setting wins");
    }
);
