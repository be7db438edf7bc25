//! The server as a whole: the web app's debug logs, every documented operation served, the
//! migrations of both backends in step, the operator's command line (flags, rebuild, event
//! export) and a graceful shutdown.

use std::str::FromStr;

use futures::StreamExt;
use tokio_tungstenite::tungstenite::Message;

use crate::support::*;

api_test!(debug_logs_are_stored_and_bounded, |app: TestApp| async move {
    let app = &app;
    let s = app.sign_up("jo").await;
    let (status, _) = app.post("/api/debug-logs", &s.token, json!({"logData": {"msg": "failed to load"}})).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let big = "x".repeat(20_000);
    let (status, _) = app.post("/api/debug-logs", &s.token, json!({"logData": big})).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    let huge = "y".repeat(200_000);
    let (status, _) = app.post("/api/debug-logs", &s.token, json!({"logData": huge})).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "bodies over the server limit are refused");
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

/// The operator's command line works on the data directory a server uses.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_command_line_sets_flags_rebuilds_and_exports() {
    let app = spawn_app(Backend::Sqlite).await;
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
    let app = spawn_app(Backend::Sqlite).await;
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
