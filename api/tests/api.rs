//! The HTTP API end to end: the real server on port 0, a fresh database per test, on SQLite and
//! on the real Postgres.

use std::str::FromStr;
use std::time::Duration;

use api::app::Server;
use api::config::ServeArgs;
use commands::Db;
use futures::StreamExt;
use reqwest::StatusCode;
use serde_json::{json, Value};
use sqlx::postgres::PgConnectOptions;
use tokio_tungstenite::tungstenite::Message;

struct TestApp {
    server: Server,
    client: reqwest::Client,
    _dir: tempfile::TempDir,
}

fn pg_url() -> String {
    std::env::var("NEEDL_TEST_DATABASE_URL").unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/test".to_string())
}

async fn fresh_db(backend: &str, dir: &std::path::Path) -> Db {
    match backend {
        "sqlite" => Db::open_sqlite(dir).await.unwrap(),
        _ => {
            let schema = format!("t_{}", uuid::Uuid::new_v4().simple());
            let admin = sqlx::PgPool::connect(&pg_url()).await.expect("Postgres reachable");
            sqlx::query(&format!("CREATE SCHEMA {schema}")).execute(&admin).await.unwrap();
            admin.close().await;
            let options = PgConnectOptions::from_str(&pg_url()).unwrap().options([("search_path", schema.as_str())]);
            Db::open_postgres_with(options).await.unwrap()
        }
    }
}

async fn spawn_app(backend: &str) -> TestApp {
    spawn_app_with(backend, ServeArgs::for_tests()).await
}

async fn spawn_app_with(backend: &str, mut config: ServeArgs) -> TestApp {
    // Uploads are extracted by the real binary's worker mode, not by this test program.
    config.extract_worker.get_or_insert_with(|| env!("CARGO_BIN_EXE_needl").into());
    let dir = tempfile::tempdir().unwrap();
    let db = fresh_db(backend, dir.path()).await;
    let server = Server::start_with(db, dir.path(), config).await.unwrap();
    TestApp { server, client: reqwest::Client::new(), _dir: dir }
}

struct Session {
    token: String,
    user: Value,
}

impl TestApp {
    fn url(&self, path: &str) -> String {
        format!("http://{}{}", self.server.addr, path)
    }

    async fn post(&self, path: &str, token: Option<&str>, body: Value) -> (StatusCode, Value) {
        let mut req = self
            .client
            .post(self.url(path))
            .json(&body)
            .header("app-type", "web")
            .header("x-request-origin", "/tests/page");
        if let Some(t) = token {
            req = req.header("token", t);
        }
        let res = req.send().await.unwrap();
        let status = res.status();
        (status, res.json().await.unwrap_or(Value::Null))
    }

    async fn send(
        &self,
        method: reqwest::Method,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> (StatusCode, Value) {
        let mut req = self.client.request(method, self.url(path));
        if let Some(t) = token {
            req = req.header("token", t);
        }
        if let Some(b) = body {
            req = req.json(&b);
        }
        let res = req.send().await.unwrap();
        let status = res.status();
        (status, res.json().await.unwrap_or(Value::Null))
    }

    async fn get(&self, path: &str, token: &str) -> (StatusCode, Value) {
        self.send(reqwest::Method::GET, path, Some(token), None).await
    }

    async fn sign_up(&self, name: &str) -> Session {
        let (status, body) = self
            .post(
                "/api/auth/signup",
                None,
                json!({"email": format!("{name}@example.com"), "password": "correct horse", "username": name}),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        Session { token: body["token"].as_str().unwrap().to_string(), user: body["user"].clone() }
    }

    async fn connect_live(
        &self,
        token: &str,
        after: Option<&str>,
    ) -> tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>> {
        let mut url = format!("ws://{}/api/live?token={token}", self.server.addr);
        if let Some(a) = after {
            url.push_str(&format!("&after={a}"));
        }
        tokio_tungstenite::connect_async(url).await.expect("live socket opens").0
    }
}

/// Reads live messages until one of `event_type` arrives, or fails after a bounded wait.
async fn next_of_type<S>(socket: &mut S, event_type: &str) -> Value
where
    S: futures::Stream<Item = Result<Message, tokio_tungstenite::tungstenite::Error>> + Unpin,
{
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        let msg = tokio::time::timeout_at(deadline, socket.next())
            .await
            .unwrap_or_else(|_| panic!("no {event_type} arrived"))
            .expect("socket open")
            .expect("message");
        if let Message::Text(text) = msg {
            let value: Value = serde_json::from_str(&text).unwrap();
            if value["type"] == event_type {
                return value;
            }
        }
    }
}

/// Returns whether any message arrives within `wait`.
async fn anything_within<S>(socket: &mut S, wait: Duration) -> Option<Value>
where
    S: futures::Stream<Item = Result<Message, tokio_tungstenite::tungstenite::Error>> + Unpin,
{
    match tokio::time::timeout(wait, socket.next()).await {
        Ok(Some(Ok(Message::Text(text)))) => Some(serde_json::from_str(&text).unwrap()),
        _ => None,
    }
}

macro_rules! api_test {
    ($name:ident, $body:expr) => {
        mod $name {
            use super::*;
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn on_sqlite() {
                let app = spawn_app("sqlite").await;
                ($body)(app).await;
            }
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn on_postgres() {
                let app = spawn_app("postgres").await;
                ($body)(app).await;
            }
        }
    };
}

api_test!(the_first_user_to_sign_up_is_the_administrator_and_the_second_is_not, |app: TestApp| async move {
    let app = &app;
    let first = app.sign_up("first").await;
    let second = app.sign_up("second").await;
    assert_eq!(first.user["is_admin"], true);
    assert_eq!(second.user["is_admin"], false);
    assert_eq!(first.user["email_id"], "first@example.com");
});

api_test!(signing_up_with_a_taken_email_in_another_case_is_a_conflict, |app: TestApp| async move {
    let app = &app;
    app.sign_up("ada").await;
    let (status, body) = app
        .post(
            "/api/auth/signup",
            None,
            json!({"email": " ADA@example.com", "password": "another one", "username": "imposter"}),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(body["code"], "email_taken");
});

api_test!(sign_up_input_is_validated_with_clear_messages_and_nothing_written, |app: TestApp| async move {
    let app = &app;
    let (status, body) = app
        .post("/api/auth/signup", None, json!({"email": "x@example.com", "password": "short", "username": "x"}))
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(body["message"], "password must be at least 8 characters");
    let (status, body) = app
        .post("/api/auth/signup", None, json!({"email": "not-an-email", "password": "long enough", "username": "x"}))
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(body["message"], "email must be a valid email");
    let (status, body) = app
        .post(
            "/api/auth/signup",
            None,
            json!({"email": "x@example.com", "password": "long enough", "username": "x", "role": "admin"}),
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "unknown fields are refused: {body}");
    let (status, _) =
        app.post("/api/auth/signup", None, json!({"email": 42, "password": "long enough", "username": "x"})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    let res = app
        .client
        .post(app.url("/api/auth/signup"))
        .header("content-type", "application/json")
        .body("{not json")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::BAD_REQUEST);
    assert_eq!(res.json::<Value>().await.unwrap()["code"], "malformed_json");
    let events = commands::feed::read_after(&app.server.state.db, commands::Cursor::START, 10).await.unwrap();
    assert!(events.is_empty(), "refused sign-ups write nothing");
});

api_test!(sign_in_failures_do_not_reveal_whether_the_email_exists_and_are_rate_limited, |app: TestApp| async move {
    let app = &app;
    app.sign_up("bea").await;
    let (s1, wrong_password) =
        app.post("/api/auth/signin", None, json!({"email": "bea@example.com", "password": "wrong password"})).await;
    let (s2, unknown_email) =
        app.post("/api/auth/signin", None, json!({"email": "nobody@example.com", "password": "wrong password"})).await;
    assert_eq!(s1, StatusCode::UNAUTHORIZED);
    assert_eq!(s2, StatusCode::UNAUTHORIZED);
    assert_eq!(wrong_password, unknown_email);
    let (ok, body) =
        app.post("/api/auth/signin", None, json!({"email": "Bea@example.com", "password": "correct horse"})).await;
    assert_eq!(ok, StatusCode::OK);
    assert_eq!(body["user"]["username"], "bea");
    // The guessing address (this test's client, 127.0.0.1) is throttled, with Retry-After ...
    for _ in 0..6 {
        app.post("/api/auth/signin", None, json!({"email": "bea@example.com", "password": "guess"})).await;
    }
    let res = app
        .client
        .post(app.url("/api/auth/signin"))
        .json(&json!({"email": "bea@example.com", "password": "correct horse"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::TOO_MANY_REQUESTS);
    let retry_after = res.headers().get("retry-after").and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
    assert!(retry_after.is_some_and(|s| s >= 1), "Retry-After: {retry_after:?}");
    assert_eq!(res.json::<Value>().await.unwrap()["code"], "too_many_attempts");
    // ... but the owner, from an address that has not failed, is not locked out.
    let owner =
        reqwest::Client::builder().local_address("127.0.0.9".parse::<std::net::IpAddr>().unwrap()).build().unwrap();
    let res = owner
        .post(app.url("/api/auth/signin"))
        .json(&json!({"email": "bea@example.com", "password": "correct horse"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
});

api_test!(calls_without_a_valid_token_are_unauthorized, |app: TestApp| async move {
    let app = &app;
    let (status, body) = app.send(reqwest::Method::GET, "/api/user", None, None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert_eq!(body["code"], "missing_token");
    let (status, body) = app.get("/api/user", "not.a.token").await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert_eq!(body["code"], "invalid_token");
    // A token signed with the right key, for a session that never existed.
    let keys = api::auth::TokenKeys::new(b"test-secret-test-secret-test-secret", Duration::from_secs(60));
    let (forged, _) = keys.issue("someone", "some-session").unwrap();
    let (status, body) = app.get("/api/user", &forged).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert_eq!(body["code"], "session_revoked");
    let (status, body) = app.send(reqwest::Method::GET, "/api/no/such/route", None, None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(body["code"], "not_found");
});

api_test!(signing_out_revokes_the_token_and_refreshing_rotates_it, |app: TestApp| async move {
    let app = &app;
    let s = app.sign_up("cy").await;
    let (status, refreshed) = app.post("/api/auth/refresh", Some(&s.token), json!({})).await;
    assert_eq!(status, StatusCode::OK);
    let fresh = refreshed["token"].as_str().unwrap().to_string();
    assert_ne!(fresh, s.token);
    assert_eq!(app.get("/api/user", &s.token).await.0, StatusCode::UNAUTHORIZED, "the rotated token is dead");
    assert_eq!(app.get("/api/user", &fresh).await.0, StatusCode::OK);
    let (status, _) = app.post("/api/auth/refresh", Some(&s.token), json!({})).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "a dead token cannot be refreshed");
    let res = app.client.post(app.url("/api/auth/signout")).header("token", &fresh).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::NO_CONTENT);
    assert_eq!(app.get("/api/user", &fresh).await.0, StatusCode::UNAUTHORIZED);
});

/// An expired token whose session lasts answers 403 with the backend-origin header, which tells
/// the web app to refresh; refresh takes the expired token and rotates it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_expired_token_is_refreshable_while_its_session_lasts() {
    let mut config = ServeArgs::for_tests();
    config.token_ttl_minutes = 0;
    let app = spawn_app_with("sqlite", config).await;
    let s = app.sign_up("old").await;
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let res = app.client.get(app.url("/api/user")).header("token", &s.token).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::FORBIDDEN);
    assert_eq!(res.headers().get("x-backend-origin").unwrap(), "needl");
    assert_eq!(res.json::<Value>().await.unwrap()["code"], "token_expired");
    let (status, refreshed) = app.post("/api/auth/refresh", Some(&s.token), json!({})).await;
    assert_eq!(status, StatusCode::OK, "{refreshed}");
    let (status, _) = app.post("/api/auth/refresh", Some(&s.token), json!({})).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "the expired token was rotated away");
    // A permission 403 carries no such header: refreshing would not help.
    let other = app.sign_up("plain").await;
    let res = app.client.get(app.url("/api/admin/users")).header("token", &other.token).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::FORBIDDEN);
    assert!(res.headers().get("x-backend-origin").is_none());
}

api_test!(preferences_and_profile_changes_are_read_back_at_once, |app: TestApp| async move {
    let app = &app;
    let s = app.sign_up("dee").await;
    let (_, prefs) = app.get("/api/user/preferences", &s.token).await;
    assert_eq!(prefs, json!({"nav_state": null, "askneedl_pro": false}));
    let (status, prefs) = app
        .send(reqwest::Method::PATCH, "/api/user/preferences", Some(&s.token), Some(json!({"askneedl_pro": true})))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(prefs["askneedl_pro"], true);
    app.send(reqwest::Method::PATCH, "/api/user/preferences", Some(&s.token), Some(json!({"nav_state": "closed"})))
        .await;
    let (_, prefs) = app.get("/api/user/preferences", &s.token).await;
    assert_eq!(prefs, json!({"nav_state": "closed", "askneedl_pro": true}));
    let (status, _) = app
        .send(reqwest::Method::PATCH, "/api/user/preferences", Some(&s.token), Some(json!({"nav_state": "sideways"})))
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    let (status, user) =
        app.send(reqwest::Method::PATCH, "/api/user", Some(&s.token), Some(json!({"industry": "Banking"}))).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(user["industry"], "Banking");
    let (_, user) = app.get("/api/user", &s.token).await;
    assert_eq!(user["email_id"], "dee@example.com");
    assert_eq!(user["whatsapp_number"], Value::Null);
});

api_test!(a_new_user_stays_new_until_onboarding_is_done, |app: TestApp| async move {
    let app = &app;
    let s = app.sign_up("eve").await;
    assert_eq!(app.get("/api/user/status", &s.token).await.1["user_status"], "new");
    let (_, flags) = app.get("/api/onboarding/flags", &s.token).await;
    assert_eq!(flags, json!({"show_attributes_form": true, "show_search_modal": true}));
    let (status, _) = app
        .post("/api/onboarding/attributes", Some(&s.token), json!({"industry": "Energy", "profession": "Analyst"}))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(app.get("/api/user/status", &s.token).await.1["user_status"], "active");
    let (_, flags) = app.get("/api/onboarding/flags", &s.token).await;
    assert_eq!(flags, json!({"show_attributes_form": false, "show_search_modal": false}));
});

api_test!(feature_flags_are_per_user_and_only_administrators_change_them, |app: TestApp| async move {
    let app = &app;
    let admin = app.sign_up("root").await;
    let member = app.sign_up("member").await;
    let (_, config) = app.get("/api/feature/config", &member.token).await;
    assert_eq!(config["features"]["notebooks"], true);
    assert_eq!(config["features"]["is_pricing"], false);
    let member_id = member.user["id"].as_str().unwrap();
    let path = format!("/api/admin/users/{member_id}/flags/notebooks");
    let (status, _) = app.send(reqwest::Method::PUT, &path, Some(&member.token), Some(json!({"value": "off"}))).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _) = app.send(reqwest::Method::PUT, &path, Some(&admin.token), Some(json!({"value": "ON"}))).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "only on or off are values");
    let (status, _) = app.send(reqwest::Method::PUT, &path, Some(&admin.token), Some(json!({"value": "off"}))).await;
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
    let member_id = member.user["id"].as_str().unwrap();
    let (status, _) = app
        .send(reqwest::Method::PUT, &format!("/api/admin/users/{member_id}/roles/auditor"), Some(&admin.token), None)
        .await;
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

api_test!(the_live_socket_pushes_a_users_own_changes_and_not_other_users, |app: TestApp| async move {
    let app = &app;
    let fay = app.sign_up("fay").await;
    let gus = app.sign_up("gus").await;
    let mut fay_socket = app.connect_live(&fay.token, None).await;
    let mut gus_socket = app.connect_live(&gus.token, None).await;
    app.send(reqwest::Method::PATCH, "/api/user/preferences", Some(&fay.token), Some(json!({"askneedl_pro": true})))
        .await;
    let pushed = next_of_type(&mut fay_socket, "PreferencesChanged").await;
    assert_eq!(pushed["ids"], json!([fay.user["id"]]));
    let cursor = pushed["cursor"].as_str().unwrap().to_string();
    while let Some(seen) = anything_within(&mut gus_socket, Duration::from_millis(600)).await {
        assert_ne!(seen["ids"], json!([fay.user["id"]]), "gus sees nothing of fay");
    }
    // While fay is away, two more changes happen; reconnecting after her cursor replays them.
    fay_socket.close(None).await.ok();
    app.send(reqwest::Method::PATCH, "/api/user/preferences", Some(&fay.token), Some(json!({"nav_state": "closed"})))
        .await;
    app.send(reqwest::Method::PATCH, "/api/user", Some(&fay.token), Some(json!({"profession": "Editor"}))).await;
    let mut again = app.connect_live(&fay.token, Some(&cursor)).await;
    let missed = next_of_type(&mut again, "PreferencesChanged").await;
    assert!(missed["cursor"].as_str().unwrap() != cursor);
    next_of_type(&mut again, "ProfileUpdated").await;
});

api_test!(the_live_socket_refuses_missing_tokens_and_foreign_origins, |app: TestApp| async move {
    let app = &app;
    let s = app.sign_up("hal").await;
    let url = format!("ws://{}/api/live", app.server.addr);
    let err = tokio_tungstenite::connect_async(url.clone()).await.unwrap_err();
    assert!(err.to_string().contains("401"), "{err}");
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut request = format!("{url}?token={}", s.token).into_client_request().unwrap();
    request.headers_mut().insert("origin", "https://evil.example".parse().unwrap());
    let err = tokio_tungstenite::connect_async(request).await.unwrap_err();
    assert!(err.to_string().contains("403"), "{err}");
});

api_test!(signing_out_closes_the_live_socket, |app: TestApp| async move {
    let app = &app;
    let s = app.sign_up("ian").await;
    let mut socket = app.connect_live(&s.token, None).await;
    app.client.post(app.url("/api/auth/signout")).header("token", &s.token).send().await.unwrap();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        match tokio::time::timeout_at(deadline, socket.next()).await.expect("socket closes") {
            Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
            Some(Ok(_)) => continue,
        }
    }
});

api_test!(debug_logs_are_stored_and_bounded, |app: TestApp| async move {
    let app = &app;
    let s = app.sign_up("jo").await;
    let res = app
        .client
        .post(app.url("/api/debug-logs"))
        .header("token", &s.token)
        .json(&json!({"logData": {"msg": "failed to load"}}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::NO_CONTENT);
    let big = "x".repeat(20_000);
    let res = app
        .client
        .post(app.url("/api/debug-logs"))
        .header("token", &s.token)
        .json(&json!({"logData": big}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::PAYLOAD_TOO_LARGE);
    let huge = "y".repeat(200_000);
    let res = app
        .client
        .post(app.url("/api/debug-logs"))
        .header("token", &s.token)
        .json(&json!({"logData": huge}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::PAYLOAD_TOO_LARGE, "bodies over the server limit are refused");
    #[derive(sqlx::FromRow)]
    struct Count {
        n: i64,
    }
    let count: Vec<Count> =
        app.server.state.db.fetch_all("SELECT COUNT(*) AS n FROM debug_logs", vec![]).await.unwrap();
    assert_eq!(count[0].n, 1);
});

api_test!(every_operation_in_the_openapi_document_is_served, |app: TestApp| async move {
    let app = &app;
    let doc: Value = app.client.get(app.url("/api/openapi.json")).send().await.unwrap().json().await.unwrap();
    let paths = doc["paths"].as_object().unwrap();
    assert!(paths.len() >= 15, "documented paths: {}", paths.len());
    for (path, ops) in paths {
        let concrete = path
            .replace("{user_id}", "u")
            .replace("{flag}", "f")
            .replace("{role}", "r")
            .replace("{source_id}", "s")
            .replace("{source}", "s")
            .replace("{deeplink}", "d")
            .replace("{aggregate_type}", "user")
            .replace("{aggregate_id}", "x");
        for method in ops.as_object().unwrap().keys() {
            let method = reqwest::Method::from_str(&method.to_uppercase()).unwrap();
            let res = app.client.request(method.clone(), app.url(&format!("/api{concrete}"))).send().await.unwrap();
            let status = res.status();
            let body: Value = res.json().await.unwrap_or(Value::Null);
            assert!(
                status != StatusCode::METHOD_NOT_ALLOWED && body["message"] != "no such API route",
                "{method} {path} is documented but not served ({status})"
            );
        }
    }
});

api_test!(events_export_as_ndjson_in_feed_order, |app: TestApp| async move {
    let app = &app;
    app.sign_up("kay").await;
    app.sign_up("lee").await;
    let mut out = Vec::new();
    api::cli::export(&app.server.state.db, commands::Cursor::START, &mut out).await.unwrap();
    let lines: Vec<Value> = String::from_utf8(out).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 7, "4 events for the first sign-up (with the instance claim), 3 for the second");
    let cursors: Vec<commands::Cursor> = lines.iter().map(|l| l["cursor"].as_str().unwrap().parse().unwrap()).collect();
    assert!(cursors.windows(2).all(|w| w[0] < w[1]));
    assert!(lines
        .iter()
        .all(|l| l["payload"].to_string().contains("password_hash") == (l["event_type"] == "UserSignedUp")));
    assert!(!lines.iter().any(|l| l["payload"].to_string().contains("argon2")));
});

#[test]
fn the_sqlite_and_postgres_migrations_have_the_same_file_names() {
    let names = |dir: &str| {
        let mut v: Vec<String> = std::fs::read_dir(format!("{}/../migrations/{dir}", env!("CARGO_MANIFEST_DIR")))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    };
    assert_eq!(names("sqlite"), names("postgres"));
    assert!(!names("sqlite").is_empty());
}

/// A socket that falls behind the hub's buffer pages what it missed from the store: it gets every
/// event once, in order, and is not dropped.
macro_rules! lag_test {
    ($name:ident, $backend:expr) => {
        #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
        async fn $name() {
            let mut config = ServeArgs::for_tests();
            config.live_buffer = 1;
            let app = spawn_app_with($backend, config).await;
            let s = app.sign_up("lagger").await;
            let user_id = s.user["id"].as_str().unwrap().to_string();
            let mut socket = app.connect_live(&s.token, None).await;
            let bus = app.server.state.bus.clone();
            let total = 40;
            let mut tasks = Vec::new();
            // Many sessions at once: distinct aggregates, so no write conflicts; the
            // administrator's socket sees them all.
            for i in 0..total {
                let (bus, user_id) = (bus.clone(), user_id.clone());
                tasks.push(tokio::spawn(async move {
                    let metadata = domain::EventMetadata::system("test", format!("r{i}"));
                    bus.execute(
                        &bus.sessions,
                        &format!("lag-session-{i}"),
                        domain::session::SessionCommand::Start {
                            user_id,
                            expires_at: chrono::Utc::now(),
                            rotated_from: None,
                        },
                        &metadata,
                    )
                    .await
                    .unwrap();
                }));
            }
            for t in tasks {
                t.await.unwrap();
            }
            let mut cursors = Vec::new();
            while cursors.len() < total {
                let v = next_of_type(&mut socket, "SessionStarted").await;
                // The sign-up's own session may arrive first: the hub publishes just after the
                // read models apply, and the socket opened in between.
                if !v["ids"][0].as_str().unwrap().starts_with("lag-session-") {
                    continue;
                }
                cursors.push(v["cursor"].as_str().unwrap().parse::<commands::Cursor>().unwrap());
            }
            assert!(cursors.windows(2).all(|w| w[0] < w[1]), "in order, no duplicates");
            assert!(app.server.state.hub.resyncs() > 0, "the socket fell behind and paged from the store");
            let extra = anything_within(&mut socket, Duration::from_millis(300)).await;
            assert!(extra.is_none(), "nothing extra: {extra:?} after {cursors:?}");
        }
    };
}
lag_test!(a_lagging_socket_pages_from_the_store_on_sqlite, "sqlite");
lag_test!(a_lagging_socket_pages_from_the_store_on_postgres, "postgres");

/// The operator's command line works on the data directory a server uses.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_command_line_sets_flags_rebuilds_and_exports() {
    let app = spawn_app("sqlite").await;
    let s = app.sign_up("ops").await;
    let dir = app._dir.path().to_path_buf();
    let needl = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_needl"))
            .arg("--data-dir")
            .arg(&dir)
            .args(args)
            .env_remove("DATABASE_URL")
            .output()
            .unwrap();
        assert!(out.status.success(), "needl {args:?}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    needl(&["flags", "set", "OPS@example.com", "notebooks", "off"]);
    assert_eq!(app.get("/api/feature/config", &s.token).await.1["features"]["notebooks"], false);
    let listed = needl(&["flags", "list", "ops@example.com"]);
    assert!(listed.lines().any(|l| l == "notebooks\toff"), "{listed}");
    let rebuilt = needl(&["rebuild", "--all"]);
    assert!(rebuilt.contains("rebuilt accounts") && rebuilt.contains("rebuilt sessions"), "{rebuilt}");
    assert_eq!(app.get("/api/feature/config", &s.token).await.1["features"]["notebooks"], false);
    assert_eq!(app.get("/api/user", &s.token).await.0, StatusCode::OK, "sessions survive a rebuild");
    let exported = needl(&["events", "export"]);
    let types: Vec<String> = exported
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap()["event_type"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(types.last().map(String::as_str), Some("FeatureFlagSet"));
    let first_cursor = serde_json::from_str::<Value>(exported.lines().next().unwrap()).unwrap()["cursor"]
        .as_str()
        .unwrap()
        .to_string();
    let rest = needl(&["events", "export", "--after", &first_cursor]);
    assert_eq!(rest.lines().count(), types.len() - 1);
}

/// Shutting down closes live sockets (1001) and lets the server finish promptly.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_graceful_shutdown_closes_live_sockets_and_finishes() {
    let app = spawn_app("sqlite").await;
    let s = app.sign_up("bye").await;
    let mut socket = app.connect_live(&s.token, None).await;
    let TestApp { server, _dir, .. } = app;
    let stopping = tokio::spawn(server.stop());
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    let code = loop {
        match tokio::time::timeout_at(deadline, socket.next()).await.expect("socket closes") {
            Some(Ok(Message::Close(Some(frame)))) => break u16::from(frame.code),
            Some(Ok(_)) => continue,
            other => panic!("expected a close frame, got {other:?}"),
        }
    };
    assert_eq!(code, 1001);
    tokio::time::timeout(Duration::from_secs(10), stopping).await.expect("server stops").unwrap().unwrap();
}

/// Records a document through the command bus and waits for the read models.
async fn record_document(
    app: &TestApp,
    deeplink: &str,
    source_id: &str,
    title: &str,
    content_hash: String,
    owner: Option<&str>,
) -> Option<commands::feed::Cursor> {
    let fields = domain::document::DocumentFields {
        source_id: source_id.to_string(),
        guid: deeplink.to_string(),
        link: Some(format!("https://example.com/{deeplink}")),
        title: title.to_string(),
        content_hash,
        owner: owner.map(str::to_string),
        ..Default::default()
    };
    let bus = app.server.state.bus.clone();
    let cursor = bus
        .execute(
            &bus.documents,
            deeplink,
            domain::document::DocumentCommand::Ingest(fields),
            &domain::EventMetadata::system("test", "r"),
        )
        .await
        .unwrap();
    app.server.state.settle(cursor).await;
    cursor
}

async fn ingest(app: &TestApp, deeplink: &str, source_id: &str, title: &str, owner: Option<&str>) {
    record_document(app, deeplink, source_id, title, format!("hash-{deeplink}"), owner).await;
}

api_test!(following_an_rss_feed_lists_it_and_its_priority_can_change, |app: TestApp| async move {
    let app = &app;
    let s = app.sign_up("rss").await;
    let (status, source) =
        app.post("/api/connect/rss", Some(&s.token), json!({"url": "https://news.example.com/feed.xml#x"})).await;
    assert_eq!(status, StatusCode::OK, "{source}");
    assert_eq!(source["priority"], "MEDIUM");
    assert_eq!(source["label"], "news.example.com");
    let id = source["source_id"].as_str().unwrap().to_string();
    let (status, again) =
        app.post("/api/connect/rss", Some(&s.token), json!({"url": "https://news.example.com/feed.xml"})).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(again["source_id"], id.as_str(), "one address is one source");
    let (status, body) = app.post("/api/connect/rss", Some(&s.token), json!({"url": "file:///etc/passwd"})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    let (status, changed) = app
        .send(reqwest::Method::PUT, &format!("/api/source/rss/{id}"), Some(&s.token), Some(json!({"priority": "HIGH"})))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(changed["priority"], "HIGH");
    let (_, list) = app.get("/api/source/rss", &s.token).await;
    assert_eq!(list["results"].as_array().unwrap().len(), 1);
    let (status, body) = app
        .send(reqwest::Method::PUT, "/api/source/rss/rss_unknown", Some(&s.token), Some(json!({"priority": "LOW"})))
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    let too_many: Vec<String> = (0..51).map(|i| format!("s{i}")).collect();
    let (status, body) = app
        .send(
            reqwest::Method::PUT,
            "/api/source/rss/priority",
            Some(&s.token),
            Some(json!({"source_ids": too_many, "priority": "LOW"})),
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(body["message"], "Please select 50 or less sources to proceed");
    let (status, bulk) = app
        .send(
            reqwest::Method::PUT,
            "/api/source/rss/priority",
            Some(&s.token),
            Some(json!({"source_ids": [id], "priority": "LOW"})),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(bulk["results"][0]["priority"], "LOW");
});

api_test!(public_sources_are_followed_and_unfollowed_by_key, |app: TestApp| async move {
    let app = &app;
    let s = app.sign_up("pub").await;
    let (status, body) = app.post("/api/connect/public", Some(&s.token), json!({"key": "bse_filings"})).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, _) = app.post("/api/connect/public?delink=true", Some(&s.token), json!({"key": "bse_filings"})).await;
    assert_eq!(status, StatusCode::OK);
    let (status, body) =
        app.post("/api/connect/public?delink=true", Some(&s.token), json!({"key": "bse_filings"})).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "unfollowing what is not followed: {body}");
    let (status, many) = app
        .post("/api/connect/public/multiple", Some(&s.token), json!({"keys": ["nzx_filings", "earnings_conf_calls"]}))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(many.as_array().unwrap().len(), 2);
    let (_, catalogue) = app.get("/api/source/public", &s.token).await;
    let entries = catalogue["results"].as_array().unwrap();
    let nzx = entries.iter().find(|e| e["key"] == "nzx_filings").unwrap();
    assert_eq!(nzx["following"], true);
    let bse = entries.iter().find(|e| e["key"] == "bse_filings").unwrap();
    assert_eq!(bse["following"], false);
    assert_eq!(bse["group"], "Indian Capital Markets");
    assert_eq!(entries.iter().find(|e| e["key"] == "websitecrawl").unwrap()["title"], "Custom URL");
    let (status, _) = app.post("/api/connect/public", Some(&s.token), json!({"key": "../../etc"})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
});

api_test!(documents_are_readable_by_followers_and_owners_only_and_read_marks_toggle, |app: TestApp| async move {
    let app = &app;
    let reader = app.sign_up("reader").await;
    let stranger = app.sign_up("stranger").await;
    let (_, source) =
        app.post("/api/connect/rss", Some(&reader.token), json!({"url": "https://blog.example.org/rss"})).await;
    let source_id = source["source_id"].as_str().unwrap().to_string();
    ingest(app, "doc-1", &source_id, "First post", None).await;
    ingest(app, "doc-2", &source_id, "Second post", None).await;
    let reader_id = reader.user["id"].as_str().unwrap();
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
    let (status, _) = app
        .send(reqwest::Method::PUT, "/api/doc/read_status/doc-1", Some(&reader.token), Some(json!({"status": "read"})))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(app.get("/api/doc/read_status", &reader.token).await.1["results"], json!(["doc-1"]));
    assert_eq!(
        app.get(&format!("/api/doc/{source_id}?deeplink=doc-1"), &reader.token).await.1["results"][0]["read"],
        true
    );
    next_of_type(&mut socket, "DocumentMarkedRead").await;
    app.send(
        reqwest::Method::PUT,
        "/api/doc/read_status/doc-1",
        Some(&reader.token),
        Some(json!({"status": "unread"})),
    )
    .await;
    assert_eq!(app.get("/api/doc/read_status", &reader.token).await.1["results"], json!([]));
    let (status, _) = app
        .send(
            reqwest::Method::PUT,
            "/api/doc/read_status/doc-1",
            Some(&stranger.token),
            Some(json!({"status": "read"})),
        )
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = app
        .send(
            reqwest::Method::PUT,
            "/api/doc/read_status/doc-1",
            Some(&reader.token),
            Some(json!({"status": "skimmed"})),
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    let (_, page) = app.get("/api/documents?limit=1", &reader.token).await;
    assert_eq!(page["has_more"], true);
    assert_eq!(app.get("/api/documents?limit=0", &reader.token).await.0, StatusCode::BAD_REQUEST);
});

/// Serves `body` as an RSS feed on 127.0.0.1, answering 304 when the client sends the ETag.
async fn serve_feed(body: String) -> (std::net::SocketAddr, std::sync::Arc<std::sync::atomic::AtomicUsize>) {
    use axum::http::{header, HeaderMap, StatusCode as S};
    let hits = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counter = hits.clone();
    let app = axum::Router::new().route(
        "/feed.xml",
        axum::routing::get(move |headers: HeaderMap| {
            let body = body.clone();
            let counter = counter.clone();
            async move {
                counter.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                if headers.get(header::IF_NONE_MATCH).is_some_and(|v| v == "\"v1\"") {
                    return (S::NOT_MODIFIED, [(header::ETAG, "\"v1\"")], String::new());
                }
                (S::OK, [(header::ETAG, "\"v1\"")], body)
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (addr, hits)
}

const FEED: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>Local news</title><link>http://example.invalid/</link>
<description>test</description>
<item><title>Rates held steady</title><guid>item-1</guid><description>The central bank kept rates unchanged.</description></item>
<item><title>Exports rise</title><guid>item-2</guid><description>Exports grew for the third month.</description></item>
<item><title>New listing</title><guid>item-3</guid><description>A company listed its shares today.</description></item>
</channel></rss>"#;

async fn poll_documents(app: &TestApp, token: &str, want: usize) -> Value {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    loop {
        let (_, page) = app.get("/api/documents", token).await;
        if page["results"].as_array().map(Vec::len) == Some(want) || tokio::time::Instant::now() > deadline {
            return page;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// A followed feed on an allow-listed address is fetched in the background; its items become
/// documents once, and a conditional refetch adds nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_followed_feed_is_fetched_and_its_items_become_documents_once() {
    let (feed, hits) = serve_feed(FEED.to_string()).await;
    let mut config = ServeArgs::for_tests();
    config.fetch_enabled = true;
    config.fetch_interval_seconds = 1;
    config.fetch_allow = vec!["127.0.0.1".into()];
    let app = spawn_app_with("sqlite", config).await;
    let s = app.sign_up("follower").await;
    let mut socket = app.connect_live(&s.token, None).await;
    let (status, body) = app
        .post(
            "/api/connect/rss",
            Some(&s.token),
            json!({"url": format!("http://{feed}/feed.xml"), "label": "Local news"}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    next_of_type(&mut socket, "DocumentIngested").await;
    let page = poll_documents(&app, &s.token, 3).await;
    let mut titles: Vec<&str> =
        page["results"].as_array().unwrap().iter().map(|d| d["title"].as_str().unwrap()).collect();
    titles.sort();
    assert_eq!(titles, vec!["Exports rise", "New listing", "Rates held steady"]);
    // Wait for at least one conditional refetch, then check nothing was added twice.
    let seen = hits.load(std::sync::atomic::Ordering::SeqCst);
    let deadline = tokio::time::Instant::now() + Duration::from_secs(15);
    while hits.load(std::sync::atomic::Ordering::SeqCst) <= seen && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert!(hits.load(std::sync::atomic::Ordering::SeqCst) > seen, "the feed is fetched again");
    let (_, page) = app.get("/api/documents", &s.token).await;
    assert_eq!(page["results"].as_array().unwrap().len(), 3);
    let (_, sources) = app.get("/api/source/rss", &s.token).await;
    assert!(sources["results"][0]["last_fetched_at"].is_string());
    assert_eq!(sources["results"][0]["last_error"], Value::Null);
}

/// Without the operator's allow-list, a feed on a loopback address is refused when followed (the
/// address alone tells); a name that resolves there is refused when fetched, see
/// `input_checks::a_source_whose_address_is_refused_when_fetched_shows_why_and_backs_off`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_feed_on_a_loopback_address_is_refused_unless_allow_listed() {
    let (feed, hits) = serve_feed(FEED.to_string()).await;
    let mut config = ServeArgs::for_tests();
    config.fetch_enabled = true;
    config.fetch_interval_seconds = 1;
    let app = spawn_app_with("sqlite", config).await;
    let s = app.sign_up("careful").await;
    let (status, body) =
        app.post("/api/connect/rss", Some(&s.token), json!({"url": format!("http://{feed}/feed.xml")})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(body["code"], "address_not_allowed");
    assert_eq!(body["message"], "this server does not fetch 127.0.0.1: it is a loopback address");
    assert!(app.get("/api/source/rss", &s.token).await.1["results"].as_array().unwrap().is_empty());
    assert_eq!(hits.load(std::sync::atomic::Ordering::SeqCst), 0, "no request reached the server");
}

/// `needl import` extracts each file in its own worker; a broken or unsupported file fails alone
/// and the rest become the user's documents, which nobody else can read.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn importing_files_makes_them_the_users_documents_and_bad_files_fail_alone() {
    let app = spawn_app("sqlite").await;
    let owner = app.sign_up("importer").await;
    let other = app.sign_up("neighbour").await;
    let files = tempfile::tempdir().unwrap();
    std::fs::write(files.path().join("notes.txt"), "Quarterly revenue rose by nine percent.").unwrap();
    std::fs::write(files.path().join("plan.md"), "# Expansion plan\n\nOpen two offices next year.").unwrap();
    std::fs::write(files.path().join("page.html"), "<html><head><title>Board memo</title><script>evil()</script></head><body><p>The board approved the budget.</p></body></html>").unwrap();
    std::fs::write(files.path().join("broken.docx"), b"PK\x03\x04 this is not really a zip").unwrap();
    std::fs::write(files.path().join(".hidden.txt"), "skipped").unwrap();
    let mut paths = vec![files.path().to_path_buf()];
    let shared_pdf = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/docs/pdf/research");
    let pdf = std::fs::read_dir(&shared_pdf).ok().and_then(|d| {
        d.filter_map(|e| e.ok().map(|e| e.path()))
            .find(|p| p.extension().is_some_and(|x| x == "pdf") && !p.to_string_lossy().contains("encrypt"))
    });
    match &pdf {
        Some(p) => paths.push(p.clone()),
        None => eprintln!("skipped the PDF part: ../shared/data not found"),
    }
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_needl"))
        .arg("--data-dir")
        .arg(app._dir.path())
        .arg("import")
        .arg("--user")
        .arg("importer@example.com")
        .args(&paths)
        .env_remove("DATABASE_URL")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "a failed file makes the exit code 2: {stderr}");
    let imported = 3 + usize::from(pdf.is_some());
    assert!(stderr.contains(&format!("imported {imported}, unchanged 0, failed 1")), "{stderr}");
    assert!(stderr.contains("broken.docx"), "{stderr}");
    let page = poll_documents(&app, &owner.token, imported).await;
    let docs = page["results"].as_array().unwrap();
    assert_eq!(docs.len(), imported, "{page}");
    let memo = docs.iter().find(|d| d["title"] == "Board memo").expect("the HTML title is the document's title");
    assert!(!memo["summary"].as_str().unwrap().contains("evil"), "scripts are not text");
    assert_eq!(memo["metadata"]["original_file_name"], "page.html");
    if pdf.is_some() {
        let pdf_doc =
            docs.iter().find(|d| d["metadata"]["mime_type"] == "application/pdf").expect("the PDF was imported");
        assert!(pdf_doc["metadata"]["pages"].as_str().unwrap().parse::<u32>().unwrap() > 0);
    }
    assert!(app.get("/api/documents", &other.token).await.1["results"].as_array().unwrap().is_empty());
    // Importing the same files again changes nothing.
    let again = std::process::Command::new(env!("CARGO_BIN_EXE_needl"))
        .arg("--data-dir")
        .arg(app._dir.path())
        .arg("import")
        .arg("--user")
        .arg("importer@example.com")
        .arg(files.path().join("notes.txt"))
        .env_remove("DATABASE_URL")
        .output()
        .unwrap();
    assert!(again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("imported 0, unchanged 1, failed 0"));
}

/// A source whose host accepts connections and never answers does not hold up the others.
macro_rules! hanging_source_test {
    ($name:ident, $backend:expr) => {
        #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
        async fn $name() {
            let silent = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            let silent_addr = silent.local_addr().unwrap();
            tokio::spawn(async move {
                let mut held = Vec::new();
                while let Ok((socket, _)) = silent.accept().await {
                    held.push(socket);
                }
            });
            let (feed, _) = serve_feed(FEED.to_string()).await;
            let mut config = ServeArgs::for_tests();
            config.fetch_enabled = true;
            config.fetch_interval_seconds = 60;
            config.fetch_allow = vec!["127.0.0.1".into()];
            let app = spawn_app_with($backend, config).await;
            let s = app.sign_up("patient").await;
            app.post("/api/connect/rss", Some(&s.token), json!({"url": format!("http://{silent_addr}/feed.xml")})).await;
            tokio::time::sleep(Duration::from_millis(1500)).await;
            app.post("/api/connect/rss", Some(&s.token), json!({"url": format!("http://{feed}/feed.xml")})).await;
            let started = std::time::Instant::now();
            let page = poll_documents(&app, &s.token, 3).await;
            assert_eq!(page["results"].as_array().unwrap().len(), 3, "the answering feed was fetched");
            assert!(started.elapsed() < Duration::from_secs(15), "it was not held up: {:?}", started.elapsed());
        }
    };
}
hanging_source_test!(a_source_that_never_answers_holds_up_no_other_on_sqlite, "sqlite");
hanging_source_test!(a_source_that_never_answers_holds_up_no_other_on_postgres, "postgres");

/// A one-page PDF with `text` on it, with a correct cross-reference table.
fn tiny_pdf(text: &str) -> Vec<u8> {
    let content = format!("BT /F1 18 Tf 72 720 Td ({text}) Tj ET");
    let objects = [
        "<< /Type /Catalog /Pages 2 0 R >>".to_string(),
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_string(),
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>".to_string(),
        format!("<< /Length {} >>\nstream\n{content}\nendstream", content.len()),
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".to_string(),
    ];
    let mut out = b"%PDF-1.4\n".to_vec();
    let mut offsets = Vec::new();
    for (i, object) in objects.iter().enumerate() {
        offsets.push(out.len());
        out.extend(format!("{} 0 obj\n{object}\nendobj\n", i + 1).as_bytes());
    }
    let xref = out.len();
    out.extend(format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).as_bytes());
    for offset in offsets {
        out.extend(format!("{offset:010} 00000 n \n").as_bytes());
    }
    out.extend(
        format!("trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n", objects.len() + 1).as_bytes(),
    );
    out
}

impl TestApp {
    /// Asks for upload links for `files` (id, name, bytes) and sends each file to its link.
    async fn upload(&self, token: &str, files: &[(&str, &str, &[u8])]) -> Value {
        let declared: Vec<Value> =
            files.iter().map(|(id, name, bytes)| json!({"id": id, "name": name, "size": bytes.len()})).collect();
        let (status, init) =
            self.post("/api/upload/init", Some(token), json!({"source": "needldrive", "files": declared})).await;
        assert_eq!(status, StatusCode::OK, "{init}");
        for (config, (_, _, bytes)) in init["upload_configs"].as_array().unwrap().iter().zip(files) {
            let link = config["upload_link"].as_str().unwrap();
            let res = self.client.put(self.url(link)).body(bytes.to_vec()).send().await.unwrap();
            assert_eq!(res.status(), StatusCode::CREATED, "{}", res.text().await.unwrap());
        }
        init
    }

    /// Polls the status of `ids` until none is PROCESSING (or 30 s pass).
    async fn settled_uploads(&self, token: &str, ids: &[&str]) -> Vec<Value> {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
        loop {
            let (_, body) = self.get(&format!("/api/upload/status?ids={}", ids.join(",")), token).await;
            let results = body["results"].as_array().cloned().unwrap_or_default();
            if results.iter().all(|r| r["status"] != "PROCESSING" && r["status"] != "UPLOADING")
                || tokio::time::Instant::now() > deadline
            {
                return results;
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }
}

fn complete_body(init: &Value) -> Value {
    let files: Vec<Value> = init["upload_configs"].as_array().unwrap().iter().map(|c| json!({
        "bucket": c["metadata_fields"]["bucket"], "key": c["metadata_fields"]["key"], "metadata": {"id": c["id"]},
    })).collect();
    json!({"source": "needldrive", "files": files})
}

api_test!(uploaded_files_become_the_owners_documents_and_a_bad_file_fails_alone, |app: TestApp| async move {
    let app = &app;
    let owner = app.sign_up("uploader").await;
    let other = app.sign_up("stranger").await;
    let (_, config) = app.get("/api/upload/config?source=needldrive", &owner.token).await;
    assert_eq!(config["data"]["config"]["file_count_limit"], 20, "{config}");
    assert!(config["data"]["config"]["file_types"].as_array().unwrap().contains(&json!("pdf")));

    let pdf = tiny_pdf("Quarterly revenue grew twelve percent");
    let init = app
        .upload(
            &owner.token,
            &[
                ("f-pdf", "results.pdf", &pdf),
                ("f-md", "plan.md", b"# Plan\n\nOpen two offices next year."),
                ("f-bad", "broken.docx", b"PK\x03\x04 not really a zip"),
                ("f-filing", "filing.txt", FILING.as_bytes()),
            ],
        )
        .await;
    let (status, done) = app.post("/api/upload/complete", Some(&owner.token), complete_body(&init)).await;
    assert_eq!(status, StatusCode::OK, "{done}");
    let link = init["upload_configs"][0]["upload_link"].as_str().unwrap();
    let late = app.client.put(app.url(link)).body("something else").send().await.unwrap();
    assert_eq!(late.status(), StatusCode::CONFLICT, "a link writes its file once");
    assert!(done["files"].as_array().unwrap().iter().all(|f| f["status"] == "PROCESSING"), "{done}");

    let states = app.settled_uploads(&owner.token, &["f-pdf", "f-md", "f-bad", "f-filing"]).await;
    let by_id =
        |id: &str| states.iter().find(|s| s["id"] == id).cloned().unwrap_or_else(|| panic!("{id} in {states:?}"));
    assert_eq!(by_id("f-pdf")["status"], "COMPLETED", "{states:?}");
    assert_eq!(by_id("f-md")["status"], "COMPLETED", "{states:?}");
    assert_eq!(by_id("f-bad")["status"], "FAILED", "{states:?}");
    assert!(by_id("f-bad")["error"].as_str().unwrap().starts_with("File broken.docx"), "{states:?}");
    // Detail tags come from the document's own text.
    let filing = by_id("f-filing")["deeplink"].as_str().unwrap().to_string();
    let (_, filing) = app.get(&format!("/api/doc/needldrive?deeplink={}", urlencode(&filing)), &owner.token).await;
    let tags = &filing["results"][0]["metadata"];
    assert_eq!(tags["isin"], "INE002A01018", "{tags}");
    assert_eq!(tags["cin"], "L17110MH1973PLC019786", "{tags}");
    assert_eq!(tags["listed"], "Listed", "{tags}");

    let deeplink = by_id("f-pdf")["deeplink"].as_str().unwrap().to_string();
    let query = format!("deeplink={}", urlencode(&deeplink));
    let (status, doc) = app.get(&format!("/api/doc/needldrive?{query}"), &owner.token).await;
    assert_eq!(status, StatusCode::OK, "{doc}");
    let card = &doc["results"][0];
    assert_eq!(card["metadata"]["mime_type"], "application/pdf");
    assert_eq!(card["metadata"]["original_file_name"], "results.pdf");
    assert_eq!(card["owned"], true);
    assert!(card["metadata"]["object_key"].is_null() && card["metadata"]["layout_blob"].is_null(), "{card}");
    assert!(card["summary"].as_str().unwrap().contains("twelve percent"), "{card}");

    let file = app
        .client
        .get(app.url(&format!("/api/doc/needldrive/file?{query}")))
        .header("token", &owner.token)
        .send()
        .await
        .unwrap();
    assert_eq!(file.headers()["content-type"], "application/pdf");
    assert_eq!(file.bytes().await.unwrap().to_vec(), pdf, "the original file comes back unchanged");
    let (_, layout) = app.get(&format!("/api/doc/needldrive/layout?{query}"), &owner.token).await;
    let blocks = layout["pages"][0]["blocks"].as_array().expect("the page has blocks");
    assert!(blocks.iter().any(|b| b["text"].as_str().unwrap().contains("twelve")), "{layout}");

    // Nobody else reads, downloads or deletes it.
    assert_eq!(app.get(&format!("/api/doc/needldrive?{query}"), &other.token).await.0, StatusCode::NOT_FOUND);
    assert_eq!(app.get(&format!("/api/doc/needldrive/file?{query}"), &other.token).await.0, StatusCode::NOT_FOUND);
    assert_eq!(
        app.send(reqwest::Method::DELETE, &format!("/api/doc/needldrive?{query}"), Some(&other.token), None).await.0,
        StatusCode::NOT_FOUND
    );
    assert!(app.get("/api/upload/status?ids=f-pdf", &other.token).await.1["results"].as_array().unwrap().is_empty());

    let (_, storage) = app.get("/api/user/storage", &owner.token).await;
    let md_size = 35;
    assert_eq!(storage["used_bytes"], (pdf.len() + md_size + FILING.len()) as u64, "{storage}");
    assert_eq!(storage["file_count"], 3, "{storage}");

    // Removing the markdown file deletes its document and frees its bytes.
    let md_link = by_id("f-md")["deeplink"].as_str().unwrap().to_string();
    let (status, removed) = app
        .send(
            reqwest::Method::PUT,
            "/api/upload/complete",
            Some(&owner.token),
            Some(json!({
                "action": "remove", "source": "needldrive", "files": [{"metadata": {"id": "f-md"}}]
            })),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{removed}");
    assert_eq!(
        app.get(&format!("/api/doc/needldrive?deeplink={}", urlencode(&md_link)), &owner.token).await.0,
        StatusCode::NOT_FOUND
    );
    assert_eq!(app.get("/api/user/storage", &owner.token).await.1["used_bytes"], (pdf.len() + FILING.len()) as u64);

    // The owner deletes the PDF; a document of a shared source cannot be deleted.
    assert_eq!(
        app.send(reqwest::Method::DELETE, &format!("/api/doc/needldrive?{query}"), Some(&owner.token), None).await.0,
        StatusCode::NO_CONTENT
    );
    assert_eq!(
        app.get("/api/documents", &owner.token).await.1["results"].as_array().unwrap().len(),
        1,
        "the filing is left"
    );
    ingest(app, "shared-1", "bse_filings", "A filing", None).await;
    app.post("/api/connect/public", Some(&owner.token), json!({"key": "bse_filings"})).await;
    assert_eq!(
        app.send(reqwest::Method::DELETE, "/api/doc/bse_filings?deeplink=shared-1", Some(&owner.token), None).await.0,
        StatusCode::FORBIDDEN
    );
});

fn urlencode(s: &str) -> String {
    s.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

api_test!(upload_limits_are_enforced_by_the_server_with_the_spec_messages, |app: TestApp| async move {
    let app = &app;
    let s = app.sign_up("limits").await;
    let init =
        |files: Value| app.post("/api/upload/init", Some(&s.token), json!({"source": "needldrive", "files": files}));
    let (status, body) = init(json!([{"id": "a", "name": "virus.exe", "mime_type": "application/x-msdownload"}])).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(body["message"], "File virus.exe type: application/x-msdownload not allowed");
    let (_, body) = init(json!([{"id": "a", "name": "big.pdf", "size": 51 * 1024 * 1024}])).await;
    assert_eq!(body["message"], "File big.pdf size exceeds the limit of 50 MB");
    let many: Vec<Value> = (0..21).map(|i| json!({"id": format!("f{i}"), "name": format!("{i}.pdf")})).collect();
    let (_, body) = init(json!(many)).await;
    assert_eq!(body["message"], "You can only upload 20 files at a time");
    let (status, _) = app
        .post(
            "/api/upload/init",
            Some(&s.token),
            json!({"source": "somewhere", "files": [{"id": "a", "name": "a.pdf"}]}),
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);

    // A link only works unchanged, and only for as many bytes as it says.
    let (_, ok) = init(json!([{"id": "good", "name": "notes.txt"}])).await;
    let link = ok["upload_configs"][0]["upload_link"].as_str().unwrap().to_string();
    let forged = link.replace("max=52428800", "max=99999999999");
    assert_eq!(app.client.put(app.url(&forged)).body("x").send().await.unwrap().status(), StatusCode::FORBIDDEN);
    let smaller = link.replace("signature=", "signature=00");
    assert_eq!(app.client.put(app.url(&smaller)).body("x").send().await.unwrap().status(), StatusCode::FORBIDDEN);
    // Completing before the file arrived reports it per file and records nothing.
    let (_, early) = app.post("/api/upload/complete", Some(&s.token), complete_body(&ok)).await;
    assert_eq!(early["files"][0]["status"], "UPLOADING_ERROR", "{early}");
    assert_eq!(app.get("/api/upload/status?ids=good", &s.token).await.1["results"][0]["status"], "UPLOADING");
});

/// The quota and the size limit hold on what arrives, not only on what the browser declares.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_storage_quota_and_size_limit_hold_on_the_bytes_that_arrive() {
    let mut config = ServeArgs::for_tests();
    config.upload_max_mb = 1;
    config.storage_quota_mb = 1;
    let app = spawn_app_with("sqlite", config).await;
    let s = app.sign_up("quota").await;
    let big = vec![b'a'; 1024 * 1024 + 10];
    let (_, init) = app
        .post(
            "/api/upload/init",
            Some(&s.token),
            json!({"source": "needldrive", "files": [{"id": "big", "name": "big.txt"}]}),
        )
        .await;
    let link = init["upload_configs"][0]["upload_link"].as_str().unwrap();
    let res = app.client.put(app.url(link)).body(big).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::PAYLOAD_TOO_LARGE);

    let words = "revenue ".repeat(80_000);
    let init = app.upload(&s.token, &[("first", "first.txt", words.as_bytes())]).await;
    app.post("/api/upload/complete", Some(&s.token), complete_body(&init)).await;
    assert_eq!(app.settled_uploads(&s.token, &["first"]).await[0]["status"], "COMPLETED");
    let (status, body) = app
        .post(
            "/api/upload/init",
            Some(&s.token),
            json!({"source": "needldrive", "files": [{"id": "second", "name": "second.txt", "size": words.len()}]}),
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(body["code"], "storage_quota_exceeded", "{body}");
    // A browser that does not declare sizes is caught when the transfer completes.
    let (_, init) = app
        .post(
            "/api/upload/init",
            Some(&s.token),
            json!({"source": "needldrive", "files": [{"id": "third", "name": "third.txt"}]}),
        )
        .await;
    let link = init["upload_configs"][0]["upload_link"].as_str().unwrap();
    assert_eq!(app.client.put(app.url(link)).body(words.clone()).send().await.unwrap().status(), StatusCode::CREATED);
    let (_, done) = app.post("/api/upload/complete", Some(&s.token), complete_body(&init)).await;
    assert_eq!(done["files"][0]["status"], "FAILED", "{done}");
    assert!(done["files"][0]["error"].as_str().unwrap().starts_with("Not enough storage"), "{done}");
    // A retried completion reports where each file is and changes nothing.
    let (_, again) = app.post("/api/upload/complete", Some(&s.token), complete_body(&init)).await;
    assert_eq!(again["files"][0]["status"], "FAILED", "{again}");

    // Two files reported in one call count together against the quota.
    let t = app.sign_up("pair").await;
    let (_, pair) = app
        .post(
            "/api/upload/init",
            Some(&t.token),
            json!({"source": "needldrive", "files": [{"id": "a", "name": "a.txt"}, {"id": "b", "name": "b.txt"}]}),
        )
        .await;
    for config in pair["upload_configs"].as_array().unwrap() {
        let link = config["upload_link"].as_str().unwrap();
        assert_eq!(
            app.client.put(app.url(link)).body(words.clone()).send().await.unwrap().status(),
            StatusCode::CREATED
        );
    }
    let (_, both) = app.post("/api/upload/complete", Some(&t.token), complete_body(&pair)).await;
    assert_eq!(both["files"][0]["status"], "PROCESSING", "{both}");
    assert_eq!(both["files"][1]["status"], "FAILED", "{both}");
}

api_test!(websites_are_followed_by_address_and_unfollowed, |app: TestApp| async move {
    let app = &app;
    let s = app.sign_up("surfer").await;
    let (status, body) = app.post("/api/connect/website", Some(&s.token), json!({"url": "www.example.org/news"})).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["url"], "https://www.example.org/news");
    assert_eq!(body["label"], "example.org");
    let (_, list) = app.get("/api/connect/website", &s.token).await;
    assert_eq!(list["results"].as_array().unwrap().len(), 1);
    assert!(list["results"][0]["last_error"].is_null());
    let (status, bad) = app.post("/api/connect/website", Some(&s.token), json!({"url": "ftp://example.org"})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{bad}");
    let source_id = body["source_id"].as_str().unwrap();
    let (status, _) =
        app.post("/api/connect/website?delink=true", Some(&s.token), json!({"source_id": source_id})).await;
    assert_eq!(status, StatusCode::OK);
    assert!(app.get("/api/connect/website", &s.token).await.1["results"].as_array().unwrap().is_empty());
});

/// Fetching on, every second, with the test servers on 127.0.0.1 allowed.
fn fetching_config() -> ServeArgs {
    let mut config = ServeArgs::for_tests();
    config.fetch_enabled = true;
    config.fetch_interval_seconds = 1;
    config.fetch_allow = vec!["127.0.0.1".into()];
    config
}

/// A site at `/` that advertises `/feed.xml` by `<link rel="alternate">`, and that feed.
async fn serve_site() -> std::net::SocketAddr {
    let (feed, _) = serve_feed(FEED.to_string()).await;
    let home = format!(
        r#"<html><head><title>Local news</title><link rel="alternate" type="application/rss+xml" href="http://{feed}/feed.xml"></head><body><p>News.</p></body></html>"#
    );
    let app = axum::Router::new().route("/", axum::routing::get(move || async move { axum::response::Html(home) }));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    addr
}

/// A followed website is read through the feed its home page advertises.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_followed_website_is_read_through_its_advertised_feed() {
    let site = serve_site().await;
    let app = spawn_app_with("sqlite", fetching_config()).await;
    let s = app.sign_up("reader").await;
    let (status, body) =
        app.post("/api/connect/website", Some(&s.token), json!({"url": format!("http://{site}/")})).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let page = poll_documents(&app, &s.token, 3).await;
    assert_eq!(page["results"].as_array().unwrap().len(), 3, "{page}");
    let (_, list) = app.get("/api/connect/website", &s.token).await;
    assert!(list["results"][0]["last_fetched_at"].is_string(), "{list}");
}

/// A catalogue entry the operator gave a feed is fetched once someone follows it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_followed_catalogue_entry_with_a_feed_is_fetched() {
    let (feed, _) = serve_feed(FEED.to_string()).await;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("catalogue.toml");
    std::fs::write(
        &file,
        format!("[[source]]\nkey = \"local_regulator\"\ngroup = \"\"\nfeed_urls = [\"http://{feed}/feed.xml\"]\n"),
    )
    .unwrap();
    let mut config = fetching_config();
    config.catalogue = Some(file);
    let app = spawn_app_with("sqlite", config).await;
    let s = app.sign_up("analyst").await;
    let (_, sources) = app.get("/api/source/public", &s.token).await;
    let entry = sources["results"].as_array().unwrap().iter().find(|e| e["key"] == "local_regulator").cloned().unwrap();
    assert_eq!(entry["title"], "Local regulator");
    assert_eq!(entry["fetchable"], true);
    app.post("/api/connect/public", Some(&s.token), json!({"key": "local_regulator"})).await;
    let page = poll_documents(&app, &s.token, 3).await;
    assert_eq!(page["results"].as_array().unwrap().len(), 3, "{page}");
    assert!(page["results"].as_array().unwrap().iter().all(|d| d["source"] == "local_regulator"));
}

api_test!(the_category_index_counts_each_kind_of_source_and_lists_filter_by_it, |app: TestApp| async move {
    let app = &app;
    let s = app.sign_up("sorter").await;
    let (_, empty) = app.get("/api/categories", &s.token).await;
    let feeds = &empty["results"][0];
    assert_eq!(feeds["key"], "feeds");
    assert!(feeds["sources"].as_array().unwrap().iter().all(|c| c["connected"] == false), "{empty}");
    ingest(app, "filing-1", "bse_filings", "A filing", None).await;
    app.post("/api/connect/public", Some(&s.token), json!({"key": "bse_filings"})).await;
    let user_id = s.user["id"].as_str().unwrap();
    ingest(app, "upload-1", "needldrive", "My memo", Some(user_id)).await;
    let (_, index) = app.get("/api/categories", &s.token).await;
    let sub = |key: &str| {
        index["results"][0]["sources"].as_array().unwrap().iter().find(|c| c["key"] == key).cloned().unwrap()
    };
    assert_eq!(sub("exchanges")["count"], 1, "{index}");
    assert_eq!(sub("exchanges")["connected"], true);
    assert_eq!(sub("drives")["count"], 1);
    assert_eq!(sub("rss_news")["connected"], false);
    let (_, drives) = app.get("/api/documents?sub_category=drives", &s.token).await;
    assert_eq!(drives["results"].as_array().unwrap().len(), 1);
    assert_eq!(drives["results"][0]["title"], "My memo");
    let (_, chats) = app.get("/api/documents?sub_category=chats", &s.token).await;
    assert!(chats["results"].as_array().unwrap().is_empty());
    assert_eq!(app.get("/api/documents?sub_category=nonsense", &s.token).await.0, StatusCode::BAD_REQUEST);
    let (_, private) = app.get("/api/source/private", &s.token).await;
    assert_eq!(private["results"][0]["key"], "needldrive");
    assert_eq!(private["results"][0]["count"], 1);
});

api_test!(a_shared_link_opens_one_document_for_others_and_access_keys_must_match, |app: TestApp| async move {
    let app = &app;
    let owner = app.sign_up("sharer").await;
    let friend = app.sign_up("friend").await;
    let owner_id = owner.user["id"].as_str().unwrap();
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
        .send(
            reqwest::Method::PUT,
            &format!("/api/doc/read_status/memo-1?public_access_key={public}"),
            Some(&friend.token),
            Some(json!({"status": "read"})),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let (status, _) = app
        .send(reqwest::Method::PUT, "/api/doc/read_status/memo-2", Some(&friend.token), Some(json!({"status": "read"})))
        .await;
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

api_test!(rss_topics_suggest_feeds_and_show_which_are_followed, |app: TestApp| async move {
    let app = &app;
    let s = app.sign_up("topical").await;
    let (_, topics) = app.get("/api/rss/topics", &s.token).await;
    let first = topics["results"][0]["key"].as_str().unwrap().to_string();
    let (status, feeds) = app.get(&format!("/api/rss?topic={first}"), &s.token).await;
    assert_eq!(status, StatusCode::OK);
    let url = feeds["results"][0]["url"].as_str().unwrap().to_string();
    assert_eq!(feeds["results"][0]["following"], false);
    app.post("/api/connect/rss", Some(&s.token), json!({"url": url})).await;
    let (_, feeds) = app.get(&format!("/api/rss?topic={first}"), &s.token).await;
    assert_eq!(feeds["results"][0]["following"], true, "{feeds}");
    assert_eq!(app.get("/api/rss?topic=no_such_topic", &s.token).await.0, StatusCode::NOT_FOUND);
    let (status, body) = app.get("/api/rss", &s.token).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["code"], "invalid_query", "query-string mistakes answer in the error shape: {body}");
});

const FILING: &str =
    "Reliance Industries Limited\nCIN: L17110MH1973PLC019786\n\nTo BSE Limited, Scrip Code: 500325\n\n\
Sub: Outcome of the Board Meeting\nISIN: INE002A01018\n\nThe Board approved the financial results for the quarter.\n";

/// An upload never reported done is given up after a while, and the bytes it sent are deleted.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn abandoned_uploads_are_given_up_and_their_bytes_deleted() {
    let app = spawn_app("sqlite").await;
    let s = app.sign_up("forgetful").await;
    let init = app.upload(&s.token, &[("left", "left.txt", b"half a thought")]).await;
    let key = init["upload_configs"][0]["metadata_fields"]["key"].as_str().unwrap().to_string();
    let state = &app.server.state;
    assert_eq!(state.storage.size(&key).await.unwrap(), Some(14));
    let processor = service::uploads::UploadProcessor::new(
        state.db.clone(),
        state.bus.clone(),
        state.storage.clone(),
        &state.data_dir,
        extract::WorkerCommand::new(env!("CARGO_BIN_EXE_needl")).arg("extract-worker"),
        std::sync::Arc::new(tokio::sync::Notify::new()),
    );
    let a_day_ago = chrono::Utc::now() - chrono::Duration::days(1);
    assert_eq!(processor.sweep_abandoned(a_day_ago).await.unwrap(), 0, "a fresh upload is left alone");
    let later = chrono::Utc::now() + chrono::Duration::seconds(1);
    assert_eq!(processor.sweep_abandoned(later).await.unwrap(), 1);
    let status = app.settled_uploads(&s.token, &["left"]).await;
    assert_eq!(status[0]["status"], "FAILED", "{status:?}");
    assert!(status[0]["error"].as_str().unwrap().contains("never completed"));
    assert_eq!(state.storage.size(&key).await.unwrap(), None, "its bytes are gone");
}

/// Hostile files (zip bombs, XML bombs, fuzzed PDFs, truncated OOXML, XXE) sent in one upload with
/// a good file: each fails alone with its reason or yields harmless text, and the good file is
/// done. Reads ../shared/data/hostile; skipped with a message where it is absent.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_uploads_fail_alone_and_the_good_file_is_done() {
    let hostile = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/hostile");
    if !hostile.is_dir() {
        eprintln!("skipped: {} not found", hostile.display());
        return;
    }
    let mut files: Vec<(String, String, Vec<u8>)> = Vec::new();
    for folder in ["office", "pdf-malformed"] {
        for entry in std::fs::read_dir(hostile.join(folder)).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            files.push((format!("h{}", files.len()), name, std::fs::read(&path).unwrap()));
        }
    }
    // A zip bomb dressed as a Word file, and an XXE payload dressed as a web page.
    let bomb = std::fs::read(hostile.join("archive/harimypala__zbsm_overlapping-zip-bomb.zip")).unwrap();
    files.push(("bomb".into(), "bomb.docx".into(), bomb));
    let xxe = std::fs::read(hostile.join("xml/payloadsallthethings__classic-xxe-etc-passwd.xml")).unwrap();
    files.push(("xxe".into(), "xxe.html".into(), xxe));
    files.push(("good".into(), "good.txt".into(), b"Net interest margin widened to 3.4 percent.".to_vec()));

    let app = spawn_app("sqlite").await;
    let s = app.sign_up("careful").await;
    let list: Vec<(&str, &str, &[u8])> = files.iter().map(|(i, n, b)| (i.as_str(), n.as_str(), b.as_slice())).collect();
    let started = std::time::Instant::now();
    let init = app.upload(&s.token, &list).await;
    let (_, done) = app.post("/api/upload/complete", Some(&s.token), complete_body(&init)).await;
    assert_eq!(done["files"].as_array().unwrap().len(), files.len(), "{done}");
    let ids: Vec<&str> = files.iter().map(|(i, _, _)| i.as_str()).collect();
    let states = app.settled_uploads(&s.token, &ids).await;
    eprintln!("{} hostile uploads settled in {:?}", files.len(), started.elapsed());
    for state in &states {
        eprintln!("  {}: {} {}", state["name"], state["status"], state["error"]);
    }
    for state in &states {
        let name = state["name"].as_str().unwrap();
        match state["status"].as_str().unwrap() {
            "FAILED" => assert!(state["error"].as_str().unwrap().starts_with(&format!("File {name}")), "{state}"),
            "COMPLETED" => {}
            other => panic!("{name} is still {other}: {state}"),
        }
    }
    let good = states.iter().find(|s| s["id"] == "good").unwrap();
    assert_eq!(good["status"], "COMPLETED", "{good}");
    assert_eq!(states.iter().find(|s| s["id"] == "bomb").unwrap()["status"], "FAILED", "the zip bomb is refused");
    // Whatever was extracted carries no file of this machine.
    let (_, page) = app.get("/api/documents?limit=100", &s.token).await;
    assert!(!page.to_string().contains("root:x:0:0"), "no external entity was resolved");
}

/// Creates a tag for the session's user; returns its id.
async fn create_tag(app: &TestApp, token: &str, name: &str) -> String {
    let (status, body) = app.post("/api/tag", Some(token), json!({"tag": name})).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body["results"]["id"].as_str().unwrap().to_string()
}

/// The names of a tag list (`[{id, name}]`).
fn names_of(tags: &Value) -> Vec<String> {
    tags.as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap().to_string()).collect()
}

/// The deeplinks of a document page.
fn deeplinks_of(page: &Value) -> Vec<String> {
    page["results"].as_array().unwrap().iter().map(|d| d["deeplink"].as_str().unwrap().to_string()).collect()
}

/// Follows an RSS feed and ingests documents into it; returns the source id.
async fn followed_source_with(app: &TestApp, token: &str, url: &str, deeplinks: &[&str]) -> String {
    let (status, source) = app.post("/api/connect/rss", Some(token), json!({"url": url})).await;
    assert_eq!(status, StatusCode::OK, "{source}");
    let source_id = source["source_id"].as_str().unwrap().to_string();
    for deeplink in deeplinks {
        ingest(app, deeplink, &source_id, &format!("Title of {deeplink}"), None).await;
    }
    source_id
}

api_test!(tags_are_created_renamed_and_deleted_with_clear_messages, |app: TestApp| async move {
    let app = &app;
    let s = app.sign_up("tagger").await;
    let t = Some(s.token.as_str());
    let (status, created) = app.post("/api/tag", t, json!({"tag": "  Risk   review "})).await;
    assert_eq!(status, StatusCode::OK, "{created}");
    assert_eq!(created["results"]["name"], "Risk review", "trimmed, inner spaces collapsed");
    let risk = created["results"]["id"].as_str().unwrap().to_string();
    let (status, body) = app.post("/api/tag", t, json!({"tag": "   "})).await;
    assert_eq!(
        (status, body["code"].as_str(), body["message"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("tag_name_required"), Some("tag name is required"))
    );
    let (status, body) = app.post("/api/tag", t, json!({"tag": "x".repeat(51)})).await;
    assert_eq!(
        (status, body["message"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("tag name must be at most 50 characters"))
    );
    let (status, body) = app.post("/api/tag", t, json!({"tag": "RISK REVIEW"})).await;
    assert_eq!(
        (status, body["code"].as_str(), body["message"].as_str()),
        (StatusCode::CONFLICT, Some("tag_name_taken"), Some("you already have a tag named Risk review"))
    );
    let (status, _) = app.post("/api/tag", t, json!({"tag": "ok", "color": "red"})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "unknown fields are refused");
    let macro_id = create_tag(app, &s.token, "macro").await;
    let (_, list) = app.get("/api/tag/user-tags", &s.token).await;
    assert_eq!(names_of(&list["results"]), ["macro", "Risk review"], "by name whatever its case");

    let rename = |id: String, name: &'static str| async move {
        app.send(reqwest::Method::PUT, &format!("/api/tag/{id}"), t, Some(json!({"name": name}))).await
    };
    let (status, body) = rename(macro_id.clone(), "risk Review").await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::CONFLICT, Some("tag_name_taken")));
    let (status, body) = rename(macro_id.clone(), "Macro").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["results"], json!({"id": macro_id, "name": "Macro"}), "a change of case is a rename");
    let (status, body) = rename("no-such-tag".into(), "Other").await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::NOT_FOUND, Some("tag_not_found")));
    let (status, body) = rename("bookmark".into(), "Saved").await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::FORBIDDEN, Some("bookmark_tag_reserved")));
    let (status, body) = rename(macro_id.clone(), "").await;
    assert_eq!((status, body["message"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("tag name is required")));

    let (status, _) = app.post("/api/tag/delete", t, json!({"tag_ids": [risk, "no-such-tag"]})).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "all or nothing");
    let (status, _) = app.post("/api/tag/delete", t, json!({"tag_ids": []})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    let (status, body) = app.post("/api/tag/delete", t, json!({"tag_ids": ["bookmark"]})).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::FORBIDDEN, Some("bookmark_tag_reserved")));
    let (status, _) = app.post("/api/tag/delete", t, json!({"tag_ids": [risk]})).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    assert_eq!(names_of(&app.get("/api/tag/user-tags", &s.token).await.1["results"]), ["Macro"]);
    create_tag(app, &s.token, "RISK review").await;

    // Auditors (the first user is the administrator) read each change with its actor.
    let user_id = s.user["id"].as_str().unwrap();
    let (status, history) = app.get(&format!("/api/audit/aggregates/tag_book/{user_id}"), &s.token).await;
    assert_eq!(status, StatusCode::OK, "{history}");
    let events = history["events"].as_array().unwrap();
    let types: Vec<&str> = events.iter().map(|e| e["event_type"].as_str().unwrap()).collect();
    assert_eq!(types, ["TagCreated", "TagCreated", "TagRenamed", "TagDeleted", "TagCreated"]);
    assert!(events.iter().all(|e| e["metadata"]["user_id"] == user_id), "{history}");
    assert_eq!(events[2]["payload"]["TagRenamed"]["from"], "macro");
});

api_test!(a_tagged_document_reads_back_its_own_and_shared_tags_and_pushes_live, |app: TestApp| async move {
    let app = &app;
    let s = app.sign_up("reader").await;
    let t = Some(s.token.as_str());
    followed_source_with(app, &s.token, "https://tags.example.org/rss", &["doc-t"]).await;
    let risk = create_tag(app, &s.token, "Risk").await;
    let macro_id = create_tag(app, &s.token, "Macro").await;
    let mut other_browser = app.connect_live(&s.token, None).await;

    let (status, index) =
        app.post("/api/tag/doc-t", t, json!({"tags": [risk, macro_id], "feed_id": "feed-1", "channel_id": null})).await;
    assert_eq!(status, StatusCode::OK, "{index}");
    let mut names = names_of(&index["results"]["user_tags"]);
    names.sort();
    assert_eq!(names, ["Macro", "Risk"]);
    let pushed = next_of_type(&mut other_browser, "DocumentTagged").await;
    assert_eq!(pushed["ids"], json!([format!("{}/doc-t", s.user["id"].as_str().unwrap())]));
    let (status, index) = app.get("/api/tag?deep_link=doc-t", &s.token).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(index["results"]["shared_tags"], json!([]));
    assert_eq!(index["results"]["bookmarked"], false);
    assert_eq!(index["results"]["user_tags"].as_array().unwrap().len(), 2);

    // A rename shows on the document; a deleted tag comes off it.
    app.send(reqwest::Method::PUT, &format!("/api/tag/{macro_id}"), t, Some(json!({"name": "Rates"}))).await;
    app.post("/api/tag/delete", t, json!({"tag_ids": [risk]})).await;
    next_of_type(&mut other_browser, "TagDeleted").await;
    let (_, index) = app.get("/api/tag?deeplink=doc-t", &s.token).await;
    assert_eq!(names_of(&index["results"]["user_tags"]), ["Rates"]);
    let (status, body) = app.post("/api/tag/doc-t", t, json!({"tags": [risk]})).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::NOT_FOUND, Some("tag_not_found")), "a deleted tag");

    // Shared tags live beside the user's own, per channel.
    let chan_1 = create_channel(app, &s.token, "Desk one", &[]).await;
    let chan_2 = create_channel(app, &s.token, "Desk two", &[]).await;
    let (status, index) = app.post("/api/tag/doc-t", t, json!({"tags": [macro_id], "channel_id": chan_1})).await;
    assert_eq!(status, StatusCode::OK, "{index}");
    assert_eq!(names_of(&index["results"]["shared_tags"]), ["Rates"]);
    assert_eq!(names_of(&index["results"]["user_tags"]), ["Rates"]);
    assert_eq!(
        app.get(&format!("/api/tag?deep_link=doc-t&channel_id={chan_1}"), &s.token).await.1["results"]["shared_tags"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    assert_eq!(
        app.get(&format!("/api/tag?deep_link=doc-t&channel_id={chan_2}"), &s.token).await.1["results"]["shared_tags"],
        json!([])
    );
    let (status, body) = app.post("/api/tag/doc-t", t, json!({"tags": ["bookmark"], "channel_id": chan_1})).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("bookmark_not_shared")));
    let (status, index) = app.post("/api/tag/doc-t", t, json!({"tags": []})).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(index["results"]["user_tags"], json!([]));
    let (status, _) = app.post("/api/tag/doc-t", t, json!({"tags": [], "feed_id": "f".repeat(201)})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    let (status, _) = app.get("/api/tag", &s.token).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "the deeplink is required");
});

api_test!(bookmarks_list_newest_first_and_survive_choosing_tags, |app: TestApp| async move {
    let app = &app;
    let s = app.sign_up("saver").await;
    let t = Some(s.token.as_str());
    let user_id = s.user["id"].as_str().unwrap();
    for deeplink in ["doc-a", "doc-b", "doc-c"] {
        ingest(app, deeplink, "needldrive", deeplink, Some(user_id)).await;
    }
    let mut other_browser = app.connect_live(&s.token, None).await;
    let (status, body) = app.send(reqwest::Method::PUT, "/api/bookmarks/doc-a", t, None).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["results"], json!({"deeplink": "doc-a", "bookmarked": true}));
    app.send(reqwest::Method::PUT, "/api/bookmarks/doc-c", t, None).await;
    app.send(reqwest::Method::PUT, "/api/bookmarks/doc-a", t, None).await;
    let (status, page) = app.get("/api/bookmarks", &s.token).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(deeplinks_of(&page), ["doc-c", "doc-a"], "bookmarking again changes nothing");
    assert_eq!(page["results"][0]["title"], "doc-c", "document cards");
    let (_, index) = app.get("/api/tag?deep_link=doc-a", &s.token).await;
    assert_eq!(index["results"]["bookmarked"], true);
    assert_eq!(index["results"]["user_tags"], json!([]), "the bookmark is not a user tag");
    assert_eq!(app.get("/api/tag/user-tags", &s.token).await.1["results"], json!([]));

    // Choosing tags in the tag picker (which never shows the bookmark) keeps the bookmark.
    let risk = create_tag(app, &s.token, "Risk").await;
    let (_, index) = app.post("/api/tag/doc-a", t, json!({"tags": [risk]})).await;
    assert_eq!(index["results"]["bookmarked"], true);
    app.post("/api/tag/doc-b", t, json!({"tags": [risk]})).await;
    let (_, tagged) = app.get("/api/tag/documents", &s.token).await;
    assert_eq!(deeplinks_of(&tagged), ["doc-b", "doc-a"], "tagged documents, not bookmarks, newest first");
    let (_, tagged) = app.get(&format!("/api/tag/documents?tag_id={risk}&limit=1"), &s.token).await;
    assert_eq!((deeplinks_of(&tagged), tagged["has_more"].as_bool()), (vec!["doc-b".to_string()], Some(true)));
    let (_, tagged) = app.get(&format!("/api/tag/documents?tag_id={risk}&limit=1&page=1"), &s.token).await;
    assert_eq!((deeplinks_of(&tagged), tagged["has_more"].as_bool()), (vec!["doc-a".to_string()], Some(false)));
    assert_eq!(app.get("/api/tag/documents?tag_id=no-such-tag", &s.token).await.0, StatusCode::NOT_FOUND);

    let (status, body) = app.send(reqwest::Method::DELETE, "/api/bookmarks/doc-a", t, None).await;
    assert_eq!((status, &body["results"]["bookmarked"]), (StatusCode::OK, &json!(false)));
    let pushed = next_of_type(&mut other_browser, "DocumentUntagged").await;
    assert_eq!(pushed["ids"], json!([format!("{user_id}/doc-a")]));
    assert_eq!(deeplinks_of(&app.get("/api/bookmarks", &s.token).await.1), ["doc-c"]);
    let (status, _) = app.send(reqwest::Method::DELETE, "/api/bookmarks/doc-a", t, None).await;
    assert_eq!(status, StatusCode::OK, "taking off a bookmark that is not there is no change");
    assert_eq!(app.get("/api/bookmarks?limit=0", &s.token).await.0, StatusCode::BAD_REQUEST);
    assert_eq!(names_of(&app.get("/api/tag?deep_link=doc-a", &s.token).await.1["results"]["user_tags"]), ["Risk"]);
});

api_test!(a_stranger_can_neither_see_nor_change_another_users_tags_or_bookmarks, |app: TestApp| async move {
    let app = &app;
    let owner = app.sign_up("owner").await;
    let stranger = app.sign_up("stranger").await;
    let (o, x) = (Some(owner.token.as_str()), Some(stranger.token.as_str()));
    // Both follow the same feed, so both may read its document.
    followed_source_with(app, &owner.token, "https://shared.example.org/rss", &["doc-s"]).await;
    app.post("/api/connect/rss", x, json!({"url": "https://shared.example.org/rss"})).await;
    let owner_id = owner.user["id"].as_str().unwrap();
    ingest(app, "upload-o", "needldrive", "Private", Some(owner_id)).await;
    let mut stranger_socket = app.connect_live(&stranger.token, None).await;
    let secret = create_tag(app, &owner.token, "Secret").await;
    app.post("/api/tag/doc-s", o, json!({"tags": [secret]})).await;
    app.send(reqwest::Method::PUT, "/api/bookmarks/doc-s", o, None).await;
    app.send(reqwest::Method::PUT, "/api/bookmarks/upload-o", o, None).await;

    let (status, index) = app.get("/api/tag?deep_link=doc-s", &stranger.token).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(index["results"], json!({"user_tags": [], "shared_tags": [], "bookmarked": false}));
    assert_eq!(app.get("/api/tag/user-tags", &stranger.token).await.1["results"], json!([]));
    assert_eq!(deeplinks_of(&app.get("/api/bookmarks", &stranger.token).await.1), Vec::<String>::new());
    assert_eq!(deeplinks_of(&app.get("/api/tag/documents", &stranger.token).await.1), Vec::<String>::new());
    let refusals = [
        app.get(&format!("/api/tag/documents?tag_id={secret}"), &stranger.token).await,
        app.send(reqwest::Method::PUT, &format!("/api/tag/{secret}"), x, Some(json!({"name": "Mine"}))).await,
        app.post("/api/tag/delete", x, json!({"tag_ids": [secret]})).await,
        app.post("/api/tag/doc-s", x, json!({"tags": [secret]})).await,
        app.post("/api/tag/doc-s", x, json!({"tags": [secret], "base": []})).await,
    ];
    for (status, body) in refusals {
        assert_eq!((status, body["code"].as_str()), (StatusCode::NOT_FOUND, Some("tag_not_found")), "{body}");
    }
    // The owner's upload is not the stranger's to read, so not theirs to tag or bookmark.
    let mine = create_tag(app, &stranger.token, "Mine").await;
    for (status, body) in [
        app.get("/api/tag?deep_link=upload-o", &stranger.token).await,
        app.post("/api/tag/upload-o", x, json!({"tags": [mine]})).await,
        app.send(reqwest::Method::PUT, "/api/bookmarks/upload-o", x, None).await,
        app.send(reqwest::Method::DELETE, "/api/bookmarks/upload-o", x, None).await,
    ] {
        assert_eq!((status, body["message"].as_str()), (StatusCode::NOT_FOUND, Some("document not found")));
    }
    // Nothing of the owner's changed, and nothing of it reached the stranger's socket.
    assert_eq!(names_of(&app.get("/api/tag/user-tags", &owner.token).await.1["results"]), ["Secret"]);
    let (_, index) = app.get("/api/tag?deep_link=doc-s", &owner.token).await;
    assert_eq!(
        (names_of(&index["results"]["user_tags"]), &index["results"]["bookmarked"]),
        (vec!["Secret".to_string()], &json!(true))
    );
    assert_eq!(deeplinks_of(&app.get("/api/bookmarks", &owner.token).await.1), ["upload-o", "doc-s"]);
    while let Some(seen) = anything_within(&mut stranger_socket, Duration::from_millis(600)).await {
        assert!(!seen["ids"].to_string().contains(owner_id), "the stranger saw {seen}");
    }
});

api_test!(tagging_a_document_the_user_cannot_read_is_refused_and_writes_nothing, |app: TestApp| async move {
    let app = &app;
    let reader = app.sign_up("follower").await;
    let outsider = app.sign_up("outsider").await;
    followed_source_with(app, &reader.token, "https://private.example.org/rss", &["doc-p"]).await;
    let tag = create_tag(app, &outsider.token, "Mine").await;
    let x = Some(outsider.token.as_str());
    for (status, _) in [
        app.post("/api/tag/doc-p", x, json!({"tags": [tag]})).await,
        app.post("/api/tag/no-such-document", x, json!({"tags": [tag]})).await,
        app.send(reqwest::Method::PUT, "/api/bookmarks/doc-p", x, None).await,
        app.get("/api/tag?deep_link=doc-p", &outsider.token).await,
    ] {
        assert_eq!(status, StatusCode::NOT_FOUND);
    }
    let events = commands::feed::read_after(&app.server.state.db, commands::Cursor::START, 1000).await.unwrap();
    assert!(!events.iter().any(|e| e.aggregate_type == "document_tags"), "nothing was tagged");
});

api_test!(concurrent_tag_changes_on_one_document_lose_no_write, |app: TestApp| async move {
    let app = &app;
    let s = app.sign_up("busy").await;
    let user_id = s.user["id"].as_str().unwrap();
    ingest(app, "doc-busy", "needldrive", "Busy", Some(user_id)).await;
    let mut tags = Vec::new();
    for i in 0..5 {
        tags.push(create_tag(app, &s.token, &format!("tag {i}")).await);
    }
    // Five browsers each showed no tags and add one; a sixth bookmarks the document meanwhile.
    let tagging =
        tags.iter().map(|tag| app.post("/api/tag/doc-busy", Some(&s.token), json!({"tags": [tag], "base": []})));
    let bookmarking = app.send(reqwest::Method::PUT, "/api/bookmarks/doc-busy", Some(&s.token), None);
    let (results, (bookmarked, _)) = tokio::join!(futures::future::join_all(tagging), bookmarking);
    assert_eq!(bookmarked, StatusCode::OK);
    for (status, body) in results {
        assert_eq!(status, StatusCode::OK, "{body}");
    }
    let (_, index) = app.get("/api/tag?deep_link=doc-busy", &s.token).await;
    let mut names = names_of(&index["results"]["user_tags"]);
    names.sort();
    assert_eq!(names, ["tag 0", "tag 1", "tag 2", "tag 3", "tag 4"]);
    assert_eq!(index["results"]["bookmarked"], true);
    let history = commands::feed::read_aggregate(&app.server.state.db, "document_tags", &format!("{user_id}/doc-busy"))
        .await
        .unwrap();
    assert_eq!(history.len(), 6, "one event per tag, each once");
    assert!(history.iter().all(|e| e.event_type == "DocumentTagged"));
});

api_test!(tags_and_bookmarks_are_refused_when_their_flags_are_off, |app: TestApp| async move {
    let app = &app;
    let admin = app.sign_up("boss").await;
    let member = app.sign_up("worker").await;
    let member_id = member.user["id"].as_str().unwrap();
    ingest(app, "doc-f", "needldrive", "Flagged", Some(member_id)).await;
    for flag in ["tags", "bookmarks"] {
        let path = format!("/api/admin/users/{member_id}/flags/{flag}");
        let (status, _) =
            app.send(reqwest::Method::PUT, &path, Some(&admin.token), Some(json!({"value": "off"}))).await;
        assert_eq!(status, StatusCode::OK);
    }
    let (status, body) = app.post("/api/tag", Some(&member.token), json!({"tag": "Risk"})).await;
    assert_eq!((status, body["message"].as_str()), (StatusCode::FORBIDDEN, Some("tags are turned off for you")));
    let (status, body) = app.send(reqwest::Method::PUT, "/api/bookmarks/doc-f", Some(&member.token), None).await;
    assert_eq!((status, body["message"].as_str()), (StatusCode::FORBIDDEN, Some("bookmarks are turned off for you")));
    assert_eq!(app.get("/api/tag/user-tags", &member.token).await.0, StatusCode::OK, "reading stays allowed");
});

// ---------------------------------------------------------------------------------------------
// Notebooks and notes

/// A rich-text document (Tiptap's JSON) with one paragraph of `text`.
fn doc(text: &str) -> Value {
    json!({"type": "doc", "content": [{"type": "paragraph", "content": [{"type": "text", "text": text}]}]})
}

/// Creates a notebook for the session's user; returns its id.
async fn create_notebook(app: &TestApp, token: &str, name: &str) -> String {
    let (status, body) =
        app.send(reqwest::Method::PUT, "/api/notebook", Some(token), Some(json!({"name": name}))).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body["results"]["notebookId"].as_str().unwrap().to_string()
}

/// Creates a note in a notebook; returns the note as answered.
async fn create_note(app: &TestApp, token: &str, notebook_id: &str, name: &str, body: Value) -> Value {
    let path = format!("/api/note/create/{notebook_id}");
    let (status, note) =
        app.send(reqwest::Method::PUT, &path, Some(token), Some(json!({"name": name, "body": body}))).await;
    assert_eq!(status, StatusCode::OK, "{note}");
    note["results"].clone()
}

/// The names of the user's notebooks, as listed.
async fn notebook_names(app: &TestApp, token: &str) -> Vec<String> {
    let (status, list) = app.get("/api/notebook/list", token).await;
    assert_eq!(status, StatusCode::OK, "{list}");
    list["results"].as_array().unwrap().iter().map(|n| n["notebook_name"].as_str().unwrap().to_string()).collect()
}

/// The ids of the events of one aggregate, by type.
async fn event_types(app: &TestApp, aggregate_type: &str, id: &str) -> Vec<String> {
    commands::feed::read_aggregate(&app.server.state.db, aggregate_type, id)
        .await
        .unwrap()
        .into_iter()
        .map(|e| e.event_type)
        .collect()
}

api_test!(notebooks_are_created_renamed_and_deleted_with_clear_messages, |app: TestApp| async move {
    let app = &app;
    let s = app.sign_up("writer").await;
    let t = Some(s.token.as_str());
    let user_id = s.user["id"].as_str().unwrap();
    let mut other_browser = app.connect_live(&s.token, None).await;
    let put = |path: &'static str, body: Value| app.send(reqwest::Method::PUT, path, t, Some(body));

    let (status, created) = put("/api/notebook", json!({"name": "  Q3   research "})).await;
    assert_eq!(status, StatusCode::OK, "{created}");
    let research = created["results"]["notebookId"].as_str().unwrap().to_string();
    let notebook = &created["results"]["notebook"];
    assert_eq!(notebook["notebook_id"], research.as_str());
    assert_eq!(notebook["notebook_name"], "Q3 research", "trimmed, inner spaces collapsed");
    assert_eq!(
        (&notebook["notebook_type"], &notebook["default"], &notebook["note_count"]),
        (&json!("user"), &json!(false), &json!(0))
    );
    let pushed = next_of_type(&mut other_browser, "NotebookCreated").await;
    assert_eq!(pushed["ids"], json!([user_id, research]));

    for blank in [json!({"name": "   "}), json!({})] {
        let (status, body) = put("/api/notebook", blank).await;
        assert_eq!(
            (status, body["code"].as_str(), body["message"].as_str()),
            (StatusCode::UNPROCESSABLE_ENTITY, Some("notebook_name_required"), Some("Please create a Notebook"))
        );
    }
    let (status, body) = put("/api/notebook", json!({"name": "Q3 RESEARCH"})).await;
    assert_eq!(
        (status, body["code"].as_str(), body["message"].as_str()),
        (StatusCode::CONFLICT, Some("notebook_name_taken"), Some("you already have a notebook named Q3 research"))
    );
    let (status, body) = put("/api/notebook", json!({"name": "x".repeat(101)})).await;
    assert_eq!(
        (status, body["message"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("notebook name must be at most 100 characters"))
    );
    let (status, _) = put("/api/notebook", json!({"name": "ok", "colour": "red"})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "unknown fields are refused");
    let (status, _) = put("/api/notebook", json!({"name": "ok", "feedId": "f".repeat(201)})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);

    // Typed to a feed, and listed newest first.
    let (status, typed) =
        put("/api/notebook", json!({"name": "Feed notes", "feedId": "feed-1", "channelId": null})).await;
    assert_eq!(status, StatusCode::OK, "{typed}");
    assert_eq!(typed["results"]["notebook"]["feed_id"], "feed-1");
    let macro_id = create_notebook(app, &s.token, "Macro").await;
    assert_eq!(notebook_names(app, &s.token).await, ["Macro", "Feed notes", "Q3 research"]);
    let (_, only) = app.get("/api/notebook/list?feedId=feed-1", &s.token).await;
    assert_eq!(only["results"].as_array().unwrap().len(), 1);
    assert_eq!(only["results"][0]["notebook_name"], "Feed notes");

    let rename = |id: String, name: &'static str| async move {
        app.send(reqwest::Method::PUT, &format!("/api/notebook/{id}"), t, Some(json!({"name": name}))).await
    };
    let (status, body) = rename(macro_id.clone(), "q3 Research").await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::CONFLICT, Some("notebook_name_taken")));
    let (status, body) = rename(macro_id.clone(), " ").await;
    assert_eq!(
        (status, body["message"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("Please create a Notebook"))
    );
    let (status, body) = rename(macro_id.clone(), "Rates").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["results"]["notebook_name"], "Rates");
    let (status, body) = rename("no-such-notebook".into(), "Other").await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::NOT_FOUND, Some("notebook_not_found")));

    let (status, _) = app.send(reqwest::Method::DELETE, &format!("/api/notebook/{research}"), t, None).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    assert_eq!(app.get(&format!("/api/notebook/{research}"), &s.token).await.0, StatusCode::NOT_FOUND);
    let (status, _) = app.send(reqwest::Method::DELETE, &format!("/api/notebook/{research}"), t, None).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "deleted once");
    create_notebook(app, &s.token, "q3 research").await;
    assert_eq!(notebook_names(app, &s.token).await, ["q3 research", "Rates", "Feed notes"]);

    // Auditors (the first user is the administrator) read each change with its actor.
    let (status, history) = app.get(&format!("/api/audit/aggregates/notebook_shelf/{user_id}"), &s.token).await;
    assert_eq!(status, StatusCode::OK, "{history}");
    let events = history["events"].as_array().unwrap();
    let types: Vec<&str> = events.iter().map(|e| e["event_type"].as_str().unwrap()).collect();
    assert_eq!(
        types,
        [
            "NotebookCreated",
            "NotebookCreated",
            "NotebookCreated",
            "NotebookRenamed",
            "NotebookDeleted",
            "NotebookCreated"
        ]
    );
    assert!(events.iter().all(|e| e["metadata"]["user_id"] == user_id), "{history}");
});

api_test!(concurrent_creates_of_one_notebook_name_let_exactly_one_win, |app: TestApp| async move {
    let app = &app;
    let s = app.sign_up("racer").await;
    let names = ["Research", "research", " RESEARCH", "Research ", "reSearch", "Research"];
    let creates = names
        .iter()
        .map(|name| app.send(reqwest::Method::PUT, "/api/notebook", Some(&s.token), Some(json!({"name": name}))));
    let results = futures::future::join_all(creates).await;
    let won = results.iter().filter(|(status, _)| *status == StatusCode::OK).count();
    assert_eq!(won, 1, "{results:?}");
    assert!(
        results.iter().all(|(status, _)| *status == StatusCode::OK || *status == StatusCode::CONFLICT),
        "{results:?}"
    );
    assert_eq!(notebook_names(app, &s.token).await.len(), 1);
    let user_id = s.user["id"].as_str().unwrap();
    assert_eq!(event_types(app, "notebook_shelf", user_id).await, ["NotebookCreated"]);
});

api_test!(notes_are_created_edited_and_deleted_and_a_stale_edit_loses_nothing, |app: TestApp| async move {
    let app = &app;
    let s = app.sign_up("editor").await;
    let t = Some(s.token.as_str());
    let notebook = create_notebook(app, &s.token, "Research").await;
    let mut other_browser = app.connect_live(&s.token, None).await;

    let note = create_note(app, &s.token, &notebook, " Ideas ", doc("First draft")).await;
    let id = note["id"].as_str().unwrap().to_string();
    assert_eq!((&note["name"], &note["version"], &note["kind"]), (&json!("Ideas"), &json!(1), &json!("note")));
    assert_eq!(
        (&note["body"], &note["preview"], &note["snippet"]),
        (&doc("First draft"), &json!("First draft"), &Value::Null)
    );
    assert_eq!((&note["notebook_id"], &note["notebook_name"]), (&json!(notebook), &json!("Research")));
    let pushed = next_of_type(&mut other_browser, "NoteCreated").await;
    assert_eq!(pushed["ids"], json!([id, notebook]));
    // The spec's "serialised rich text": a string holding the document works too; no body is fine.
    let as_text = create_note(app, &s.token, &notebook, "Text", Value::String(doc("As text").to_string())).await;
    assert_eq!(as_text["body"], doc("As text"));
    let empty = create_note(app, &s.token, &notebook, "", Value::Null).await;
    assert_eq!((&empty["name"], &empty["body"], &empty["preview"]), (&json!(""), &Value::Null, &json!("")));

    let edit = |version: u64, body: Value| {
        let path = format!("/api/note/{id}");
        async move { app.send(reqwest::Method::PUT, &path, t, Some(json!({"version": version, "body": body}))).await }
    };
    let (status, edited) = edit(1, doc("Second draft")).await;
    assert_eq!(status, StatusCode::OK, "{edited}");
    assert_eq!((&edited["results"]["version"], &edited["results"]["body"]), (&json!(2), &doc("Second draft")));
    next_of_type(&mut other_browser, "NoteEdited").await;
    // Autosave of what is already there: no event, whatever version the editor had.
    for version in [2, 1] {
        let (status, same) = edit(version, doc("Second draft")).await;
        assert_eq!((status, &same["results"]["version"]), (StatusCode::OK, &json!(2)));
    }
    assert_eq!(event_types(app, "note", &id).await, ["NoteCreated", "NoteEdited"]);

    // An edit based on version 1 would overwrite version 2: refused, and version 2 stays.
    let (status, body) = edit(1, doc("Stale draft")).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::CONFLICT, Some("note_version_stale")));
    assert!(body["message"].as_str().unwrap().contains("it is now at version 2"), "{body}");
    assert_eq!(app.get(&format!("/api/note/{id}"), &s.token).await.1["results"]["body"], doc("Second draft"));

    // Two browsers save over version 2 at once: one wins, the other is told, nothing is mixed.
    let (a, b) = tokio::join!(edit(2, doc("From A")), edit(2, doc("From B")));
    let mut statuses = [a.0, b.0];
    statuses.sort();
    assert_eq!(statuses, [StatusCode::OK, StatusCode::CONFLICT], "{a:?} {b:?}");
    let winner = if a.0 == StatusCode::OK { doc("From A") } else { doc("From B") };
    let (_, now) = app.get(&format!("/api/note/{id}"), &s.token).await;
    assert_eq!((&now["results"]["body"], &now["results"]["version"]), (&winner, &json!(3)));

    // A new name alone, then bad input.
    let path = format!("/api/note/{id}");
    let (status, renamed) =
        app.send(reqwest::Method::PUT, &path, t, Some(json!({"version": 3, "title": "Plans"}))).await;
    assert_eq!(
        (status, &renamed["results"]["name"], &renamed["results"]["body"]),
        (StatusCode::OK, &json!("Plans"), &winner)
    );
    for (body, code) in [
        (json!({"version": 4, "body": [1, 2]}), "note_body_invalid"),
        (json!({"version": 4, "body": "not json"}), "note_body_invalid"),
        (json!({"version": 4, "body": {"text": "x".repeat(1_000_001)}}), "note_body_too_large"),
        (json!({"version": 4}), "nothing_to_edit"),
        (json!({"body": doc("no version")}), "invalid_body"),
    ] {
        let (status, answer) = app.send(reqwest::Method::PUT, &path, t, Some(body)).await;
        assert_eq!((status, answer["code"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some(code)), "{answer}");
    }
    let (_, answer) = app.send(reqwest::Method::PUT, &path, t, Some(json!({"version": 4, "body": [1]}))).await;
    assert_eq!(answer["message"], "a note's body must be a JSON object (a rich-text document)");
    let near_limit = json!({"text": "x".repeat(900_000)});
    let (status, big) = app.send(reqwest::Method::PUT, &path, t, Some(json!({"version": 4, "body": near_limit}))).await;
    assert_eq!(status, StatusCode::OK, "a body under 1 MB passes the general request limit: {big}");

    // The notebook's page: notes newest first, previews cut at 1000 characters.
    let long = create_note(app, &s.token, &notebook, "Long", doc(&"é".repeat(1500))).await;
    assert_eq!(long["preview"], format!("{}...", "é".repeat(1000)));
    let (status, page) = app.get(&format!("/api/notebook/{notebook}"), &s.token).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert_eq!((&page["results"]["notebook_name"], &page["results"]["note_count"]), (&json!("Research"), &json!(4)));
    let names: Vec<&str> =
        page["results"]["notes"].as_array().unwrap().iter().map(|n| n["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["Long", "", "Text", "Plans"]);
    assert!(page["results"]["notes"][0].get("body").is_none(), "lists leave bodies out");
    assert_eq!(app.get("/api/notebook/list", &s.token).await.1["results"][0]["note_count"], 4);

    let (status, _) = app.send(reqwest::Method::DELETE, &path, t, None).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    next_of_type(&mut other_browser, "NoteDeleted").await;
    assert_eq!(app.get(&path, &s.token).await.0, StatusCode::NOT_FOUND);
    let (status, body) = app.send(reqwest::Method::PUT, &path, t, Some(json!({"version": 5, "name": "x"}))).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::NOT_FOUND, Some("note_not_found")));
    assert_eq!(app.get("/api/notebook/list", &s.token).await.1["results"][0]["note_count"], 3);

    // A deleted notebook takes its notes with it.
    let long_id = long["id"].as_str().unwrap();
    app.send(reqwest::Method::DELETE, &format!("/api/notebook/{notebook}"), t, None).await;
    assert_eq!(app.get(&format!("/api/note/{long_id}"), &s.token).await.0, StatusCode::NOT_FOUND);
    let path = format!("/api/note/create/{notebook}");
    let (status, body) = app.send(reqwest::Method::PUT, &path, t, Some(json!({"name": "late"}))).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::NOT_FOUND, Some("notebook_not_found")));
});

api_test!(a_snippet_note_holds_its_document_and_its_source, |app: TestApp| async move {
    let app = &app;
    let s = app.sign_up("clipper").await;
    let t = Some(s.token.as_str());
    let notebook = create_notebook(app, &s.token, "Clips").await;
    let path = format!("/api/note/snip/{notebook}");
    let source =
        json!({"deeplink": "doc-1", "source": "rss_news", "title": "Q3 results", "link": "https://example.org/q3"});
    let (status, snip) = app.post(&path, t, json!({"document": doc("Revenue grew 12%"), "source": source})).await;
    assert_eq!(status, StatusCode::OK, "{snip}");
    let note = &snip["results"];
    assert_eq!((&note["kind"], &note["name"], &note["snippet"]), (&json!("snippet"), &json!("Q3 results"), &source));
    assert_eq!((&note["body"], &note["preview"]), (&doc("Revenue grew 12%"), &json!("Revenue grew 12%")));

    // The note preview page's call: no body, the notebook's name, the source.
    let id = note["id"].as_str().unwrap();
    let (status, preview) = app.get(&format!("/api/note/{id}/preview"), &s.token).await;
    assert_eq!(status, StatusCode::OK, "{preview}");
    let preview = &preview["results"];
    assert_eq!(
        (&preview["notebook_name"], &preview["preview"], &preview["snippet"]["link"]),
        (&json!("Clips"), &json!("Revenue grew 12%"), &json!("https://example.org/q3"))
    );
    assert!(preview.get("body").is_none());

    let (status, named) = app
        .post(&path, t, json!({"document": doc("x"), "name": "Mine", "source": {"link": "/preview/rss_news/doc-1"}}))
        .await;
    assert_eq!((status, &named["results"]["name"]), (StatusCode::OK, &json!("Mine")));
    for (body, code) in [
        (json!({"source": source}), "snippet_document_required"),
        (json!({"document": doc("x"), "source": {"link": "javascript:alert(1)"}}), "snippet_source_invalid"),
        (json!({"document": doc("x"), "source": {"title": "t".repeat(1001)}}), "snippet_source_invalid"),
        (json!({"document": "[]"}), "note_body_invalid"),
    ] {
        let (status, answer) = app.post(&path, t, body).await;
        assert_eq!((status, answer["code"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some(code)), "{answer}");
    }
    let (_, answer) =
        app.post(&path, t, json!({"document": doc("x"), "source": {"link": "javascript:alert(1)"}})).await;
    assert_eq!(answer["message"], "the snippet's link must be an http or https URL");
    assert_eq!(app.get(&format!("/api/notebook/{notebook}"), &s.token).await.1["results"]["note_count"], 2);
});

api_test!(the_assistant_notebook_is_created_once_and_reused, |app: TestApp| async move {
    let app = &app;
    let s = app.sign_up("asker").await;
    create_notebook(app, &s.token, "AskNeedl").await;
    let bot = || {
        app.send(
            reqwest::Method::PUT,
            "/api/notebook?botNotebook=true",
            Some(&s.token),
            Some(json!({"name": "AskNeedl"})),
        )
    };
    let (a, b, c) = tokio::join!(bot(), bot(), bot());
    for (status, body) in [&a, &b, &c] {
        assert_eq!(*status, StatusCode::OK, "{body}");
    }
    let id = a.1["results"]["notebookId"].as_str().unwrap().to_string();
    assert!([&b, &c].iter().all(|(_, body)| body["results"]["notebookId"] == id.as_str()), "{b:?} {c:?}");
    let notebook = &a.1["results"]["notebook"];
    assert_eq!(
        (&notebook["notebook_name"], &notebook["notebook_type"], &notebook["default"]),
        (&json!("AskNeedl 2"), &json!("default"), &json!(true)),
        "the user's own AskNeedl notebook keeps its name"
    );
    // Saving a conversation: the assistant notebook, then a snippet in it.
    let (status, again) = bot().await;
    assert_eq!((status, again["results"]["notebookId"].as_str()), (StatusCode::OK, Some(id.as_str())));
    let conversation = doc("Q: What moved rates? A: Inflation [1].");
    let (status, saved) = app
        .post(
            &format!("/api/note/snip/{id}"),
            Some(&s.token),
            json!({"document": conversation, "name": "Rates chat", "source": {"source": "ask_needl"}}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{saved}");
    assert_eq!(notebook_names(app, &s.token).await, ["AskNeedl 2", "AskNeedl"]);
    let user_id = s.user["id"].as_str().unwrap();
    assert_eq!(event_types(app, "notebook_shelf", user_id).await, ["NotebookCreated", "NotebookCreated"]);
});

api_test!(a_stranger_gets_404_from_every_notebook_and_note_endpoint_and_sees_nothing_live, |app: TestApp| async move {
    let app = &app;
    // The stranger signs up first and so is the administrator: notes are private even to them.
    let stranger = app.sign_up("stranger").await;
    let owner = app.sign_up("owner").await;
    assert_eq!(stranger.user["is_admin"], true);
    let (o, x) = (Some(owner.token.as_str()), Some(stranger.token.as_str()));
    let mut stranger_socket = app.connect_live(&stranger.token, None).await;
    let notebook = create_notebook(app, &owner.token, "Private").await;
    let note = create_note(app, &owner.token, &notebook, "Secret", doc("secret text")).await;
    let note_id = note["id"].as_str().unwrap().to_string();
    let (_, snip) = app.post(&format!("/api/note/snip/{notebook}"), o, json!({"document": doc("clip")})).await;
    let snip_id = snip["results"]["id"].as_str().unwrap().to_string();

    use reqwest::Method;
    let calls: Vec<(Method, String, Option<Value>)> = vec![
        (Method::GET, format!("/api/notebook/{notebook}"), None),
        (Method::PUT, format!("/api/notebook/{notebook}"), Some(json!({"name": "Mine now"}))),
        (Method::DELETE, format!("/api/notebook/{notebook}"), None),
        (Method::PUT, format!("/api/note/create/{notebook}"), Some(json!({"name": "Planted"}))),
        (Method::POST, format!("/api/note/snip/{notebook}"), Some(json!({"document": doc("planted")}))),
        (Method::GET, format!("/api/note/{note_id}"), None),
        (Method::GET, format!("/api/note/{snip_id}/preview"), None),
        (Method::PUT, format!("/api/note/{note_id}"), Some(json!({"version": 1, "body": doc("overwritten")}))),
        (Method::DELETE, format!("/api/note/{snip_id}"), None),
    ];
    for (method, path, body) in calls {
        let (status, answer) = app.send(method.clone(), &path, x, body).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{method} {path}: {answer}");
        assert!(answer["code"] == "notebook_not_found" || answer["code"] == "note_not_found", "{answer}");
    }
    assert_eq!(notebook_names(app, &stranger.token).await, Vec::<String>::new());
    // Names are unique per user: the stranger may have one of the same name.
    create_notebook(app, &stranger.token, "Private").await;

    // Nothing of the owner's changed, and nothing of it reached the stranger's socket.
    assert_eq!(notebook_names(app, &owner.token).await, ["Private"]);
    let (_, kept) = app.get(&format!("/api/note/{note_id}"), &owner.token).await;
    assert_eq!((&kept["results"]["version"], &kept["results"]["body"]), (&json!(1), &doc("secret text")));
    assert_eq!(app.get(&format!("/api/notebook/{notebook}"), &owner.token).await.1["results"]["note_count"], 2);
    let owner_id = owner.user["id"].as_str().unwrap();
    while let Some(seen) = anything_within(&mut stranger_socket, Duration::from_millis(600)).await {
        let ids = seen["ids"].to_string();
        assert!(
            !ids.contains(owner_id) && !ids.contains(&notebook) && !ids.contains(&note_id),
            "the stranger saw {seen}"
        );
    }
});

api_test!(notebooks_are_refused_when_the_flag_is_off, |app: TestApp| async move {
    let app = &app;
    let admin = app.sign_up("chief").await;
    let member = app.sign_up("clerk").await;
    let m = Some(member.token.as_str());
    let notebook = create_notebook(app, &member.token, "Before").await;
    let note = create_note(app, &member.token, &notebook, "Kept", doc("kept")).await;
    let note_id = note["id"].as_str().unwrap().to_string();
    let member_id = member.user["id"].as_str().unwrap();
    let flag = format!("/api/admin/users/{member_id}/flags/notebooks");
    let (status, _) = app.send(reqwest::Method::PUT, &flag, Some(&admin.token), Some(json!({"value": "off"}))).await;
    assert_eq!(status, StatusCode::OK);

    use reqwest::Method;
    let calls: Vec<(Method, String, Option<Value>)> = vec![
        (Method::PUT, "/api/notebook".into(), Some(json!({"name": "After"}))),
        (Method::PUT, "/api/notebook?botNotebook=true".into(), Some(json!({}))),
        (Method::PUT, format!("/api/notebook/{notebook}"), Some(json!({"name": "Renamed"}))),
        (Method::DELETE, format!("/api/notebook/{notebook}"), None),
        (Method::PUT, format!("/api/note/create/{notebook}"), Some(json!({"name": "New"}))),
        (Method::POST, format!("/api/note/snip/{notebook}"), Some(json!({"document": doc("clip")}))),
        (Method::PUT, format!("/api/note/{note_id}"), Some(json!({"version": 1, "body": doc("changed")}))),
        (Method::DELETE, format!("/api/note/{note_id}"), None),
    ];
    for (method, path, body) in calls {
        let (status, answer) = app.send(method.clone(), &path, m, body).await;
        assert_eq!(
            (status, answer["message"].as_str()),
            (StatusCode::FORBIDDEN, Some("notebooks are turned off for you")),
            "{method} {path}"
        );
    }
    assert_eq!(notebook_names(app, &member.token).await, ["Before"], "reading stays allowed");
    assert_eq!(app.get(&format!("/api/note/{note_id}"), &member.token).await.1["results"]["body"], doc("kept"));
});
// ---------------------------------------------------------------------------------------------
// Channels and comments

/// Creates a channel as the session's user with `members` (user ids); returns its id.
async fn create_channel(app: &TestApp, token: &str, name: &str, members: &[&str]) -> String {
    let (status, body) = app.post("/api/channels", Some(token), json!({"name": name, "members": members})).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body["channel"]["id"].as_str().unwrap().to_string()
}

fn id_of(s: &Session) -> String {
    s.user["id"].as_str().unwrap().to_string()
}

/// The names of the channels the user sees, as listed.
async fn channel_names(app: &TestApp, token: &str) -> Vec<String> {
    let (status, list) = app.get("/api/channels", token).await;
    assert_eq!(status, StatusCode::OK, "{list}");
    list["channels"].as_array().unwrap().iter().map(|c| c["name"].as_str().unwrap().to_string()).collect()
}

/// The user ids and roles of a channel's members, as listed.
async fn member_roles(app: &TestApp, token: &str, channel: &str) -> Vec<(String, String)> {
    let (status, list) = app.get(&format!("/api/channels/{channel}/users"), token).await;
    assert_eq!(status, StatusCode::OK, "{list}");
    list["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (m["user_id"].as_str().unwrap().to_string(), m["role"].as_str().unwrap().to_string()))
        .collect()
}

api_test!(channel_names_follow_the_spec_rules_with_its_messages, |app: TestApp| async move {
    let app = &app;
    let admin = app.sign_up("chief").await;
    let s = app.sign_up("maker").await;
    let t = Some(s.token.as_str());
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
        json!([{"user_id": id_of(&s), "username": "maker", "role": "owner",
        "added_at": channel["members"][0]["added_at"]}])
    );
    let macro_id = channel["id"].as_str().unwrap().to_string();

    // Unique in the organisation whatever the case, for everyone in it.
    let (status, body) = app.post("/api/channels", Some(&admin.token), json!({"name": "MACRO DESK_1-A"})).await;
    assert_eq!(
        (status, body["code"].as_str(), body["message"].as_str()),
        (StatusCode::CONFLICT, Some("channel_name_taken"), Some("Group Name already exists in your organization!"))
    );
    let other = create_channel(app, &admin.token, "Rates", &[]).await;
    let rename = |token: &str, id: &str, name: &str| {
        let (token, path, name) = (token.to_string(), format!("/api/channels/{id}"), name.to_string());
        async move { app.send(reqwest::Method::PUT, &path, Some(&token), Some(json!({"name": name}))).await }
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
    let (status, body) =
        app.post("/api/channels", Some(&admin.token), json!({"name": "Everyone", "publish": true})).await;
    assert_eq!((status, body["channel"]["publish"].as_bool()), (StatusCode::OK, Some(true)), "{body}");
    assert_eq!(body["channel"]["show_publish_option"], true);
    let (status, body) =
        app.send(reqwest::Method::PUT, &format!("/api/channels/{macro_id}"), t, Some(json!({"publish": true}))).await;
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
    let creates = people
        .iter()
        .zip(names)
        .map(|(person, name)| app.post("/api/channels", Some(&person.token), json!({"name": name})));
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
    let (o, a) = (Some(owner.token.as_str()), Some(ann.token.as_str()));
    let (owner_id, ann_id, bob_id) = (id_of(&owner), id_of(&ann), id_of(&bob));
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
        let (status, answer) = app.send(method.clone(), &path, a, body).await;
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
        let (status, answer) = app.send(method.clone(), &path, o, body).await;
        assert_eq!(
            (status, answer["code"].as_str()),
            (StatusCode::UNPROCESSABLE_ENTITY, Some("last_channel_owner")),
            "{method} {path}"
        );
    }
    let (status, body) = app.send(Method::PUT, &format!("{users}/{ann_id}"), o, Some(json!({"role": "owner"}))).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, _) = app.send(Method::DELETE, &format!("{users}/self"), o, None).await;
    assert_eq!(status, StatusCode::NO_CONTENT, "with another owner, the first may leave");
    assert_eq!(app.get(&format!("/api/channels/{channel}"), &owner.token).await.0, StatusCode::NOT_FOUND);
    assert_eq!(channel_names(app, &owner.token).await, Vec::<String>::new());
    let (status, _) = app.send(Method::DELETE, &format!("{users}/{bob_id}"), a, None).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    assert_eq!(app.get(&format!("/api/channels/{channel}"), &bob.token).await.0, StatusCode::NOT_FOUND);
    assert_eq!(member_roles(app, &ann.token, &channel).await, [(ann_id.clone(), "owner".into())]);
    let (status, _) = app.send(Method::DELETE, &format!("{users}/{bob_id}"), a, None).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "no longer a member");

    // Starred status and last visit are the member's own.
    let me = format!("{users}/me");
    let (status, body) = app.send(Method::PUT, &me, a, Some(json!({"starred": true, "seen": true}))).await;
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
        let o = Some(owner.token.as_str());
        let (owner_id, former_id, member_id) = (id_of(&owner), id_of(&former), id_of(&member));
        followed_source_with(app, &owner.token, "https://walk.example.org/rss", &["doc-w"]).await;
        for person in [&stranger, &former] {
            app.post("/api/connect/rss", Some(&person.token), json!({"url": "https://walk.example.org/rss"})).await;
        }
        let channel = create_channel(app, &owner.token, "Private desk", &[&former_id, &member_id]).await;
        let mut stranger_socket = app.connect_live(&stranger.token, None).await;
        let mut former_socket = app.connect_live(&former.token, None).await;
        app.send(reqwest::Method::DELETE, &format!("/api/channels/{channel}/users/{former_id}"), o, None).await;
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
    let (o, a, b) = (Some(owner.token.as_str()), Some(ann.token.as_str()), Some(bob.token.as_str()));
    let source = followed_source_with(app, &owner.token, "https://share.example.org/rss", &["doc-1", "doc-2"]).await;
    let channel = create_channel(app, &owner.token, "Readers", &[&id_of(&ann), &id_of(&bob)]).await;
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
        (Some("doc-1"), Some(id_of(&owner).as_str()))
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
    let (status, body) = app.send(reqwest::Method::DELETE, &format!("{c}/items/doc-2"), b, None).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::FORBIDDEN, Some("may_not_unshare")));
    let (status, _) = app.send(reqwest::Method::DELETE, &format!("{c}/items/doc-1"), o, None).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    assert_eq!(open("doc-1").await, StatusCode::NOT_FOUND, "no longer shared");

    // Comments: the author edits; the author or an owner deletes.
    let (_, mine) = app.post(&format!("{c}/comments/doc-2"), a, json!({"comment": "ann's"})).await;
    let mine = mine["results"]["comment_id"].as_str().unwrap().to_string();
    let (status, body) =
        app.send(reqwest::Method::PUT, &format!("{c}/comments/doc-2/{mine}"), o, Some(json!({"comment": "x"}))).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::FORBIDDEN, Some("not_comment_author")));
    let (status, body) = app.send(reqwest::Method::DELETE, &format!("{c}/comments/doc-2/{mine}"), b, None).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::FORBIDDEN, Some("may_not_delete_comment")));
    let (status, _) = app.send(reqwest::Method::DELETE, &format!("{c}/comments/doc-2/{mine}"), o, None).await;
    assert_eq!(status, StatusCode::NO_CONTENT, "an owner deletes anyone's comment");
    let (status, body) = app.send(reqwest::Method::DELETE, &format!("{c}/comments/doc-2/{mine}"), a, None).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::NOT_FOUND, Some("comment_not_found")));
});

api_test!(comments_are_added_edited_deleted_counted_and_seen, |app: TestApp| async move {
    let app = &app;
    let admin = app.sign_up("admin").await;
    let owner = app.sign_up("owner").await;
    let ann = app.sign_up("ann").await;
    let outsider = app.sign_up("outsider").await;
    let (o, a) = (Some(owner.token.as_str()), Some(ann.token.as_str()));
    let (owner_id, ann_id) = (id_of(&owner), id_of(&ann));
    followed_source_with(app, &owner.token, "https://talk.example.org/rss", &["doc-c"]).await;
    let channel = create_channel(app, &owner.token, "Talk", &[&ann_id]).await;
    app.post(&format!("/api/channels/{channel}/items"), o, json!({"deeplink": "doc-c"})).await;
    let thread = format!("/api/channels/{channel}/comments/doc-c");

    let (status, body) = app.post(&thread, a, json!({"comment": "  \n "})).await;
    assert_eq!(
        (status, body["code"].as_str(), body["message"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("comment_empty"), Some("comment cannot be empty"))
    );
    let (status, body) = app.post(&thread, a, json!({"comment": "hey", "mentions": [id_of(&outsider)]})).await;
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
    let (status, seen) = app.send(reqwest::Method::PUT, &format!("{thread}/last_seen"), o, None).await;
    assert_eq!(status, StatusCode::OK, "{seen}");
    assert_eq!((&seen["results"]["last_seen"], &seen["results"]["unseen"]), (&first["created_at"], &json!(0)));
    app.send(reqwest::Method::PUT, &format!("{thread}/last_seen"), o, None).await;
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
        async move { app.send(reqwest::Method::PUT, &path, a, Some(body)).await }
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
    let (status, _) = app.send(reqwest::Method::DELETE, &format!("{thread}/{second_id}"), a, None).await;
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
    let (_, open) = app.post("/api/channels", Some(&admin.token), json!({"name": "Town hall", "publish": true})).await;
    let open = open["channel"]["id"].as_str().unwrap().to_string();
    ingest(app, "doc-town", "needldrive", "Town doc", Some(&id_of(&outsider))).await;
    let town = format!("/api/channels/{open}/comments/doc-town");
    let (status, body) =
        app.post(&town, Some(&outsider.token), json!({"comment": "hi @admin", "mentions": [id_of(&admin)]})).await;
    assert_eq!(
        (status, body["message"].as_str()),
        (
            StatusCode::UNPROCESSABLE_ENTITY,
            Some("mentions are allowed only in channels that are not published to the organization")
        )
    );
    let (status, body) = app.post(&town, Some(&outsider.token), json!({"comment": "hi all"})).await;
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
    app.send(reqwest::Method::PUT, &flag, Some(&admin.token), Some(json!({"value": "off"}))).await;
    let (status, body) = app.post(&thread, a, json!({"comment": "still here"})).await;
    assert_eq!((status, body["message"].as_str()), (StatusCode::FORBIDDEN, Some("comments are turned off for you")));
    assert_eq!(app.get(&thread, &ann.token).await.0, StatusCode::OK);
});

api_test!(a_comment_reaches_every_members_open_browser_within_a_second_and_no_one_else, |app: TestApp| async move {
    let app = &app;
    let owner = app.sign_up("owner").await;
    let ann = app.sign_up("ann").await;
    let outsider = app.sign_up("outsider").await;
    let (o, ann_id) = (Some(owner.token.as_str()), id_of(&ann));
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
    app.send(reqwest::Method::DELETE, &format!("/api/channels/{channel}/users/{ann_id}"), o, None).await;
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

api_test!(feeds_are_shared_into_channels_with_their_definitions, |app: TestApp| async move {
    let app = &app;
    let owner = app.sign_up("owner").await;
    let o = Some(owner.token.as_str());
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
    let (status, _) = app.send(reqwest::Method::DELETE, &format!("{boards}/{both}"), o, None).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let (status, body) = app.send(reqwest::Method::DELETE, &format!("{boards}/{both}"), o, None).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::NOT_FOUND, Some("board_not_found")));
    assert_eq!(names(&app.get(&boards, &owner.token).await.1), ["Rates"]);
    let (status, _) = app
        .post("/api/channels/create_and_share_board", o, json!({"channel_ids": [], "definition": {"name": "None"}}))
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
});
// ---------------------------------------------------------------------------------------------
// Search

/// Records a document with real text (its blob stored where the index reads it) and waits until
/// the search index includes it.
async fn ingest_text(app: &TestApp, deeplink: &str, source_id: &str, title: &str, text: &str, owner: Option<&str>) {
    use sha2::Digest;
    let hash = hex::encode(sha2::Sha256::digest(text.as_bytes()));
    service::ingestion::BlobStore::new(app._dir.path().join("blobs")).put(&hash, text).await.unwrap();
    let cursor =
        record_document(app, deeplink, source_id, title, hash, owner).await.expect("a new document is an event");
    assert!(app.server.state.search.wait_for(cursor, Duration::from_secs(20)).await, "the index caught up");
}

/// Follows a feed by URL (not fetched in tests) and returns its source id.
async fn follow_feed(app: &TestApp, token: &str, url: &str) -> String {
    let (status, source) = app.post("/api/connect/rss", Some(token), json!({ "url": url })).await;
    assert_eq!(status, StatusCode::OK, "{source}");
    source["source_id"].as_str().unwrap().to_string()
}

fn result_deeplinks(answer: &Value) -> Vec<String> {
    answer["results"].as_array().unwrap().iter().map(|r| r["deeplink"].as_str().unwrap().to_string()).collect()
}

api_test!(search_ranks_highlights_groups_and_corrects_over_the_users_data, |app: TestApp| async move {
    let app = &app;
    let s = app.sign_up("searcher").await;
    let user_id = s.user["id"].as_str().unwrap().to_string();
    let feed = follow_feed(app, &s.token, "https://metals.example.com/feed.xml").await;
    ingest_text(
        app,
        "metals-1",
        &feed,
        "Steel tariffs raise costs for carmakers",
        "New tariffs on imported steel are raising costs for carmakers.\n\nAnalysts expect the <b>duties</b> to stay.",
        None,
    )
    .await;
    ingest_text(app, "metals-2", &feed, "Aluminium climbs", "Aluminium prices climbed; steel was flat.", None).await;
    ingest_text(app, "mine-1", "needldrive", "Plant notes", "Our steel plant visit notes.", Some(&user_id)).await;

    let (status, tabs) = app.post("/api/search", Some(&s.token), json!({"type": "category", "q": "steel"})).await;
    assert_eq!(status, StatusCode::OK, "{tabs}");
    assert_eq!(tabs["count"], 3);
    let listed: Vec<(String, u64)> = tabs["category_tabs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| (t["key"].as_str().unwrap().to_string(), t["count"].as_u64().unwrap()))
        .collect();
    assert_eq!(listed, vec![("rss_news".to_string(), 2), ("drives".to_string(), 1)]);

    let (_, page) = app.post("/api/search", Some(&s.token), json!({"q": "steel tariffs", "num_docs": 10})).await;
    assert_eq!(result_deeplinks(&page)[0], "metals-1", "{page}");
    let first = &page["results"][0];
    assert_eq!(first["source_label"], "metals.example.com");
    assert_eq!(first["category_tab"], "rss_news");
    assert!(first["access_key"].as_str().is_some_and(|k| !k.is_empty()));
    let html = first["highlights"][0]["html"].as_str().unwrap();
    assert!(html.contains("<em>tariffs</em>") && html.contains("<em>steel</em>"), "{html}");
    assert!(html.contains("&lt;b&gt;duties&lt;/b&gt;"), "the document's own markup is escaped: {html}");

    let (_, drives) = app.post("/api/search", Some(&s.token), json!({"q": "steel", "category_tab": "drives"})).await;
    assert_eq!(result_deeplinks(&drives), vec!["mine-1"]);
    assert_eq!(drives["results"][0]["owned"], true);
    let (_, feed_only) =
        app.post("/api/search/today", Some(&s.token), json!({"q": "steel", "board_id": feed.as_str()})).await;
    let mut got = result_deeplinks(&feed_only);
    got.sort();
    assert_eq!(got, vec!["metals-1", "metals-2"]);
    let (_, strict) = app.post("/api/search", Some(&s.token), json!({"q": "steel AND NOT tariffs"})).await;
    let mut got = result_deeplinks(&strict);
    got.sort();
    assert_eq!(got, vec!["metals-2", "mine-1"]);
    let (_, paged) = app
        .post("/api/search", Some(&s.token), json!({"q": "steel", "num_docs": 1, "start_from": 1, "sort": "dateAsc"}))
        .await;
    assert_eq!((paged["count"].as_u64(), paged["results"].as_array().unwrap().len()), (Some(3), 1));
    let (_, recent) = app.post("/api/search", Some(&s.token), json!({"q": "steel", "date_range": "1d"})).await;
    assert_eq!(recent["count"], 3, "everything here was published just now");

    let (_, corrected) =
        app.post("/api/search", Some(&s.token), json!({"q": "stel tarifs", "spell_correct": true})).await;
    assert_eq!(corrected["query_params"]["corrected_q"], "steel tariffs", "{corrected}");
    assert_eq!(result_deeplinks(&corrected)[0], "metals-1");
    let (_, uncorrected) =
        app.post("/api/search", Some(&s.token), json!({"q": "stel tarifs", "spell_correct": false})).await;
    assert_eq!((uncorrected["count"].as_u64(), &uncorrected["query_params"]["corrected_q"]), (Some(0), &Value::Null));

    // A deleted document leaves the index.
    let bus = app.server.state.bus.clone();
    let cursor = bus
        .execute(
            &bus.documents,
            "metals-2",
            domain::document::DocumentCommand::Delete,
            &domain::EventMetadata::system("test", "r"),
        )
        .await
        .unwrap()
        .unwrap();
    assert!(app.server.state.search.wait_for(cursor, Duration::from_secs(20)).await);
    let (_, after) = app.post("/api/search", Some(&s.token), json!({"q": "aluminium"})).await;
    assert_eq!(after["count"], 0);
});

api_test!(nobody_finds_another_users_private_upload_by_any_query, |app: TestApp| async move {
    let app = &app;
    let alice = app.sign_up("alice").await;
    let bob = app.sign_up("bob").await;
    let alice_id = alice.user["id"].as_str().unwrap().to_string();
    let feed = follow_feed(app, &bob.token, "https://news.example.com/feed.xml").await;
    let _ = follow_feed(app, &alice.token, "https://news.example.com/feed.xml").await;
    ingest_text(app, "news-1", &feed, "Board meets", "The board met on Tuesday to review the budget.", None).await;
    ingest_text(
        app,
        "secret-1",
        "needldrive",
        "Board minutes",
        "Confidential: the board approved the Zanzibar acquisition.",
        Some(&alice_id),
    )
    .await;
    let (_, mine) = app.post("/api/search", Some(&alice.token), json!({"q": "zanzibar"})).await;
    assert_eq!(result_deeplinks(&mine), vec!["secret-1"], "the owner finds it");

    let queries = [
        "zanzibar",
        "Zanzibar acquisition",
        "zanzibr",
        "confidential OR board",
        "\"board approved\"",
        "",
        "NOT budget",
        "minutes",
    ];
    let bodies: Vec<Value> = queries
        .iter()
        .flat_map(|q| {
            [
                json!({"q": q, "spell_correct": true}),
                json!({"q": q, "search_type": "needl_web", "spell_correct": true}),
                json!({"q": q, "search_type": "shared_data"}),
                json!({"q": q, "category_tab": "drives"}),
                json!({"q": q, "type": "category", "spell_correct": true}),
                json!({"q": q, "board_id": "needldrive"}),
            ]
        })
        .collect();
    let paths =
        ["/api/search", "/api/search/drives", "/api/search/needldrive", "/api/search/today", "/api/search/secret-1"];
    for path in paths {
        for body in &bodies {
            let (status, answer) = app.post(path, Some(&bob.token), body.clone()).await;
            assert_eq!(status, StatusCode::OK, "{path} {body} {answer}");
            // Nothing of the upload comes back: not as a result, not in a snippet, not as a count.
            let results = answer["results"].to_string().to_lowercase();
            assert!(!results.contains("secret-1") && !results.contains("zanzibar"), "{path} {body} {answer}");
            let q = body["q"].as_str().unwrap();
            if q.to_lowercase().contains("zanzib") {
                assert_eq!(answer["count"], 0, "{path} {body} {answer}");
            }
            if let Some(tabs) = answer["category_tabs"].as_array() {
                assert!(tabs.iter().all(|t| t["key"] != "drives"), "{path} {body} {answer}");
            }
            assert_ne!(answer["query_params"]["corrected_q"], "zanzibar", "{path} {body}");
        }
    }
});

api_test!(bad_search_input_gets_a_clear_error_and_never_a_500, |app: TestApp| async move {
    let app = &app;
    let s = app.sign_up("prober").await;
    let expect = [
        (json!({"q": "(steel"}), "Invalid keyword. Paranthesis are imbalanced."),
        (json!({"q": "steel AND"}), "Invalid keyword. Unused Boolean Operators at ends."),
        (json!({"q": "\"steel"}), "Invalid keyword. Quotes are either imbalanced or not at ends."),
        (json!({"q": "steel", "date_range": "2 weeks"}), "Wrong shorthand"),
        (json!({"q": "steel", "num_docs": 1000}), "num_docs must be between 0 and 100."),
        (json!({"q": "steel", "start_from": -1}), "start_from must be between 0 and 10000."),
        (json!({"q": "word ".repeat(400)}), "The search is too long: at most 1000 characters."),
    ];
    for (body, message) in expect {
        let (status, answer) = app.post("/api/search", Some(&s.token), body.clone()).await;
        assert_eq!((status, answer["message"].as_str()), (StatusCode::BAD_REQUEST, Some(message)), "{body}");
    }
    for body in [
        json!({"q": "x", "sort": "pagerank"}),
        json!({"q": "x", "sort_order": "sideways"}),
        json!({"q": "x", "timezone": "Mars/Olympus", "today_date_range": true}),
        json!({"q": "x", "search_type": "everything"}),
        json!({"q": 42}),
    ] {
        let (status, answer) = app.post("/api/search", Some(&s.token), body.clone()).await;
        assert!(status.is_client_error(), "{body} {status}");
        assert!(answer["message"].as_str().is_some_and(|m| !m.is_empty()), "{body} {answer}");
    }
    let odd = [
        "*",
        "\\",
        "AND OR",
        "NOT",
        "🙂",
        "a\u{0}b",
        "' OR 1=1 --",
        "((a OR b) AND (c",
        "\u{201c}x\u{201d}",
        "-",
        "the of and",
    ];
    for q in odd {
        for path in ["/api/search", "/api/search/exchanges", "/api/search/rss_news"] {
            for kind in ["category", "results", "filter"] {
                let (status, answer) = app.post(path, Some(&s.token), json!({"q": q, "type": kind})).await;
                assert!(
                    status == StatusCode::OK || status == StatusCode::BAD_REQUEST,
                    "{path} {q:?} {status} {answer}"
                );
            }
        }
    }
    let (status, _) = app.post("/api/search", None, json!({"q": "steel"})).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
});

/// `needl rebuild search` empties the index and replays the feed into it, with the server stopped;
/// the restarted server searches the rebuilt index.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_search_index_rebuilds_from_the_feed() {
    let app = spawn_app("sqlite").await;
    let s = app.sign_up("rebuilder").await;
    let user_id = s.user["id"].as_str().unwrap().to_string();
    ingest_text(&app, "doc-1", "needldrive", "Harbour survey", "The harbour survey found silt.", Some(&user_id)).await;
    let TestApp { server, client, _dir: dir } = app;
    let needl = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_needl"))
            .arg("--data-dir")
            .arg(dir.path())
            .args(args)
            .env_remove("DATABASE_URL")
            .env_remove("NEEDL_CATALOGUE")
            .output()
            .unwrap()
    };
    let busy = needl(&["rebuild", "--all"]);
    assert!(busy.status.success(), "{}", String::from_utf8_lossy(&busy.stderr));
    assert!(String::from_utf8_lossy(&busy.stdout).contains("skipped search"), "the running server holds the index");
    server.stop().await.unwrap();
    let out = needl(&["rebuild", "search"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.contains("1 documents"),
        "{stdout} {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let db = Db::open_sqlite(dir.path()).await.unwrap();
    let server = Server::start_with(db, dir.path(), ServeArgs::for_tests()).await.unwrap();
    let app = TestApp { server, client, _dir: dir };
    let (_, found) = app.post("/api/search", Some(&s.token), json!({"q": "silt"})).await;
    assert_eq!(result_deeplinks(&found), vec!["doc-1"], "{found}");
}

api_test!(tag_facets_count_the_users_tagged_documents_they_can_read, |app: TestApp| async move {
    let app = &app;
    let s = app.sign_up("facets").await;
    let other = app.sign_up("other").await;
    let user_id = s.user["id"].as_str().unwrap().to_string();
    for (deeplink, title) in [("f-1", "Rates memo"), ("f-2", "Credit memo"), ("f-3", "Steel memo")] {
        ingest_text(app, deeplink, "needldrive", title, "Memo text.", Some(&user_id)).await;
    }
    let risk = create_tag(app, &s.token, "Risk").await;
    let rates = create_tag(app, &s.token, "Rates").await;
    for (deeplink, tags) in [("f-1", vec![&risk, &rates]), ("f-2", vec![&risk]), ("f-3", vec![&risk])] {
        let (status, body) = app.post(&format!("/api/tag/{deeplink}"), Some(&s.token), json!({ "tags": tags })).await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }
    // A document that goes away no longer counts.
    let bus = app.server.state.bus.clone();
    let cursor = bus
        .execute(
            &bus.documents,
            "f-3",
            domain::document::DocumentCommand::Delete,
            &domain::EventMetadata::system("t", "r"),
        )
        .await
        .unwrap();
    app.server.state.settle(cursor).await;
    let (status, answer) = app.post("/api/search/tags", Some(&s.token), json!({"type": "filter", "num_docs": 0})).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let facets: Vec<(String, i64)> = answer["facets"]["tags"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| (t["label"].as_str().unwrap().to_string(), t["doc_count"].as_i64().unwrap()))
        .collect();
    assert_eq!(facets, vec![("Risk".to_string(), 2), ("Rates".to_string(), 1)]);
    assert_eq!(answer["count"], 2);
    let (_, theirs) = app.post("/api/search/tags", Some(&other.token), json!({"type": "filter"})).await;
    assert_eq!((theirs["facets"]["tags"].as_array().map(Vec::len), &theirs["count"]), (Some(0), &json!(0)));
});

api_test!(shared_data_finds_what_the_users_channels_share_and_nothing_else, |app: TestApp| async move {
    let app = &app;
    let alice = app.sign_up("alice").await;
    let bob = app.sign_up("bob").await;
    let carol = app.sign_up("carol").await;
    let alice_id = id_of(&alice);
    ingest_text(app, "memo-1", "needldrive", "Harbour memo", "The harbour dredging starts in May.", Some(&alice_id))
        .await;
    ingest_text(app, "memo-2", "needldrive", "Private memo", "The harbour budget is confidential.", Some(&alice_id))
        .await;
    let channel = create_channel(app, &alice.token, "Ports", &[&id_of(&bob)]).await;
    let (status, body) =
        app.post(&format!("/api/channels/{channel}/items"), Some(&alice.token), json!({"deeplink": "memo-1"})).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    for body in [json!({"q": "harbour", "search_type": "shared_data"}), json!({"q": "harbour", "channel_id": channel})]
    {
        let (status, found) = app.post("/api/search", Some(&bob.token), body.clone()).await;
        assert_eq!(status, StatusCode::OK, "{found}");
        assert_eq!(result_deeplinks(&found), vec!["memo-1"], "{body}: the shared memo only");
        assert!(found["results"][0]["highlights"][0]["html"].as_str().unwrap().contains("<em>harbour</em>"));
    }
    let (_, mine) = app.post("/api/search", Some(&bob.token), json!({"q": "harbour"})).await;
    assert_eq!(mine["count"], 0, "a channel's items are shared data, not the member's own data");
    let (_, outsider) =
        app.post("/api/search", Some(&carol.token), json!({"q": "harbour", "search_type": "shared_data"})).await;
    assert_eq!(outsider["count"], 0);
    let (status, _) = app.post("/api/search", Some(&carol.token), json!({"q": "harbour", "channel_id": channel})).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) =
        app.post("/api/search/tags", Some(&carol.token), json!({"type": "filter", "channel_id": channel})).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
});

#[path = "api/people_notifications.rs"]
mod people_notifications;

#[path = "api/ask.rs"]
mod ask;

#[path = "api/auth_refresh.rs"]
mod auth_refresh;

#[path = "api/notes_search.rs"]
mod notes_search;

#[path = "api/edge.rs"]
mod edge;

#[path = "api/accounts.rs"]
mod accounts;

#[path = "api/data_permissions.rs"]
mod data_permissions;

#[path = "api/input_checks.rs"]
mod input_checks;

#[path = "api/my_data_counts.rs"]
mod my_data_counts;
