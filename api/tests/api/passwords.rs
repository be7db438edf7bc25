//! Passwords: the policy (common and guessable passwords refused with the reason), changing
//! one's own, and forgotten passwords: reset links issued by an administrator (the offline way)
//! or mailed through a real local SMTP server.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use crate::support::*;

const NEW_PASSWORD: &str = "amber walrus paints 12 harbours";

async fn change(app: &TestApp, token: &str, current: &str, new: &str) -> (StatusCode, Value) {
    app.post("/api/auth/password", token, json!({"current_password": current, "new_password": new})).await
}

async fn complete_reset(app: &TestApp, token: &str, password: &str) -> (StatusCode, Value) {
    app.post_without_token("/api/auth/password-reset/complete", json!({"token": token, "password": password})).await
}

/// The token of a reset link's path or URL.
fn token_of(link: &str) -> String {
    link.split_once("token=")
        .expect("a reset link carries a token")
        .1
        .chars()
        .take_while(char::is_ascii_hexdigit)
        .collect()
}

/// The events of one user's history, as the audit log shows them.
async fn user_history(app: &TestApp, admin: &str, user_id: &str) -> Vec<Value> {
    let (status, page) = app.get(&format!("/api/audit/aggregates/user/{user_id}"), admin).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    page["events"].as_array().unwrap().clone()
}

api_test!(common_and_guessable_passwords_are_refused_at_sign_up_with_the_reason, |app: TestApp| async move {
    for weak in ["password1", "12345678", "qwertyuiop", "ada.lovelace1"] {
        let (status, body) = app
            .post_without_token(
                "/api/auth/signup",
                json!({"email": "ada.lovelace@example.com", "password": weak, "username": "ada"}),
            )
            .await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{weak}: {body}");
        assert_eq!(body["code"], "weak_password", "{weak}");
        let message = body["message"].as_str().unwrap();
        assert!(message.starts_with("password is too easy to guess"), "{weak}: {message}");
    }
    let (_, body) = app
        .post_without_token(
            "/api/auth/signup",
            json!({"email": "a@example.com", "password": "password1", "username": "a"}),
        )
        .await;
    assert!(body["message"].as_str().unwrap().contains("common"), "the reason is given: {body}");
    // The refused address is still free, and a strong password signs up.
    let (status, _) = app
        .post_without_token(
            "/api/auth/signup",
            json!({"email": "ada.lovelace@example.com", "password": NEW_PASSWORD, "username": "ada"}),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
});

api_test!(changing_the_password_needs_the_current_one_and_ends_the_other_sessions, |app: TestApp| async move {
    let here = app.sign_up("ada").await;
    let (_, elsewhere) = app.sign_in("ada@example.com", PASSWORD).await;
    let elsewhere = elsewhere["token"].as_str().unwrap().to_string();

    let (status, body) = change(&app, &here.token, "not my password", NEW_PASSWORD).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("wrong_password")));
    let (status, body) = change(&app, &here.token, PASSWORD, "password123").await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("weak_password")), "{body}");
    assert_eq!(app.get("/api/user", &elsewhere).await.0, StatusCode::OK, "refusals change nothing");

    let (status, body) = change(&app, &here.token, PASSWORD, NEW_PASSWORD).await;
    assert_eq!(status, StatusCode::NO_CONTENT, "{body}");
    assert_eq!(app.get("/api/user", &here.token).await.0, StatusCode::OK, "this session goes on");
    assert_eq!(app.get("/api/user", &elsewhere).await.0, StatusCode::UNAUTHORIZED, "the other session ended");
    assert_eq!(app.sign_in("ada@example.com", PASSWORD).await.0, StatusCode::UNAUTHORIZED);
    assert_eq!(app.sign_in("ada@example.com", NEW_PASSWORD).await.0, StatusCode::OK);

    // The auditor reads that it happened, and never the hash.
    let history = user_history(&app, &here.token, here.id()).await;
    let changed = history.iter().find(|e| e["event_type"] == "PasswordChanged").expect("a PasswordChanged event");
    assert_eq!(changed["payload"]["PasswordChanged"]["password_hash"], "[redacted]");
    assert!(!changed.to_string().contains("argon2"), "{changed}");
});

api_test!(asking_for_a_reset_answers_the_same_for_every_address_and_says_what_happens, |app: TestApp| async move {
    app.sign_up("ada").await;
    let (status, options) = app.send(reqwest::Method::GET, "/api/auth/password-reset", None, None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(options["by_mail"], false, "no mailer is configured in tests");
    let ask = |email: &'static str| {
        let app = &app;
        async move { app.post_without_token("/api/auth/password-reset/request", json!({"email": email})).await }
    };
    let known = ask("ada@example.com").await;
    let unknown = ask("nobody@example.com").await;
    assert_eq!(known.0, StatusCode::ACCEPTED);
    assert_eq!(known, unknown, "the answer does not tell whether an account exists");
    assert_eq!(known.1["message"], "this server sends no mail: ask an administrator for a reset link");
    let (status, body) = ask("not an address").await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("invalid_email")));
    // Each client address may ask ten times an hour.
    for _ in 0..8 {
        assert_eq!(ask("nobody@example.com").await.0, StatusCode::ACCEPTED);
    }
    let res = app
        .request(reqwest::Method::POST, "/api/auth/password-reset/request", None)
        .json(&json!({"email": "ada@example.com"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::TOO_MANY_REQUESTS);
    assert!(res.headers().get("retry-after").is_some());
});

api_test!(an_administrator_issues_a_reset_link_that_works_once_and_ends_every_session, |app: TestApp| async move {
    let admin = app.sign_up("root").await;
    let bea = app.sign_up("bea").await;
    let path = format!("/api/admin/users/{}/reset-link", bea.id());
    let (status, _) = app.post(&path, &bea.token, json!({})).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "only an administrator issues links");
    let (status, _) = app.post("/api/admin/users/no-such-user/reset-link", &admin.token, json!({})).await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    let (status, first) = app.post(&path, &admin.token, json!({})).await;
    assert_eq!(status, StatusCode::OK, "{first}");
    let (_, link) = app.post(&path, &admin.token, json!({})).await;
    assert!(link["path"].as_str().unwrap().starts_with("/reset-password?token="), "{link}");
    assert!(link["url"].as_str().unwrap().ends_with(link["path"].as_str().unwrap()));
    let token = token_of(link["path"].as_str().unwrap());
    assert_eq!(token.len(), 64);

    let (status, body) = complete_reset(&app, &token_of(first["path"].as_str().unwrap()), NEW_PASSWORD).await;
    assert_eq!(body["code"], "reset_link_invalid", "a newer link replaced the first: {status} {body}");
    let (status, body) = complete_reset(&app, &token, "iloveyou").await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("weak_password")));
    let (status, body) = complete_reset(&app, &token, NEW_PASSWORD).await;
    assert_eq!(status, StatusCode::NO_CONTENT, "a refused password leaves the link usable: {body}");
    assert_eq!(app.get("/api/user", &bea.token).await.0, StatusCode::UNAUTHORIZED, "every session ended");
    assert_eq!(app.sign_in("bea@example.com", PASSWORD).await.0, StatusCode::UNAUTHORIZED);
    assert_eq!(app.sign_in("bea@example.com", NEW_PASSWORD).await.0, StatusCode::OK);
    let (status, body) = complete_reset(&app, &token, "another 44 quiet lanterns").await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("reset_link_invalid")));
    assert_eq!(body["message"], "this reset link has expired or has already been used; ask for a new one");

    // The audit log says who issued the link, and shows neither the token nor its hash.
    let history = user_history(&app, &admin.token, bea.id()).await;
    let issued = history.iter().find(|e| e["event_type"] == "PasswordResetLinkIssued").unwrap();
    assert_eq!(issued["metadata"]["user_id"], admin.id());
    assert_eq!(issued["payload"]["PasswordResetLinkIssued"]["by_admin"], true);
    assert_eq!(issued["payload"]["PasswordResetLinkIssued"]["token_hash"], "[redacted]");
    let reset = history.iter().find(|e| e["event_type"] == "PasswordReset").unwrap();
    assert_eq!(reset["payload"]["PasswordReset"]["password_hash"], "[redacted]");
    assert!(!serde_json::to_string(&history).unwrap().contains(&token));
});

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reset_link_stops_working_when_it_expires() {
    let clock = service::clock::ManualClock::starting_now();
    let config = ServeArgs::for_tests();
    let minutes = config.reset_link_minutes as i64;
    let app = spawn_app_with_clock(Backend::Sqlite, config, clock.clone()).await;
    let admin = app.sign_up("root").await;
    let bea = app.sign_up("bea").await;
    let path = format!("/api/admin/users/{}/reset-link", bea.id());
    let link: Value = app.post_as(&path, &admin.token, json!({})).await;
    clock.advance(chrono::Duration::minutes(minutes));
    let (status, body) = complete_reset(&app, &token_of(link["path"].as_str().unwrap()), NEW_PASSWORD).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("reset_link_invalid")));
    assert_eq!(app.sign_in("bea@example.com", PASSWORD).await.0, StatusCode::OK, "the password is unchanged");
}

/// A local SMTP server (Python's aiosmtpd, which `scripts/setup --test` installs) delivering
/// into a maildir; stopped when dropped.
struct SmtpServer {
    child: Child,
    port: u16,
    maildir: tempfile::TempDir,
}

impl Drop for SmtpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl SmtpServer {
    /// Starts the server on a free port, or returns `None` (with the reason) when aiosmtpd is
    /// not installed. Under CI=true a missing server fails the test instead.
    async fn start() -> Option<SmtpServer> {
        let installed = Command::new("python3")
            .args(["-c", "import aiosmtpd"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !installed {
            let why = "Python's aiosmtpd is not installed (scripts/setup --test installs it)";
            assert!(std::env::var("CI").as_deref() != Ok("true"), "{why}");
            eprintln!("skipped: {why}");
            return None;
        }
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let maildir = tempfile::tempdir().unwrap();
        let child = Command::new("python3")
            .args(["-m", "aiosmtpd", "-n", "-l", &format!("127.0.0.1:{port}"), "-c", "aiosmtpd.handlers.Mailbox"])
            .arg(maildir.path().join("mail"))
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("starting aiosmtpd");
        let server = SmtpServer { child, port, maildir };
        let deadline = tokio::time::Instant::now() + Duration::from_secs(15);
        while tokio::net::TcpStream::connect(("127.0.0.1", port)).await.is_err() {
            assert!(tokio::time::Instant::now() < deadline, "aiosmtpd did not start listening");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        Some(server)
    }

    fn delivered(&self) -> Vec<PathBuf> {
        let new = self.maildir.path().join("mail").join("new");
        std::fs::read_dir(&new).map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect()).unwrap_or_default()
    }

    /// Waits (bounded) until `count` messages have been delivered; returns them as text.
    async fn wait_for(&self, count: usize) -> Vec<String> {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
        loop {
            let files = self.delivered();
            if files.len() >= count {
                return files.iter().map(|f| read_message(f)).collect();
            }
            assert!(tokio::time::Instant::now() < deadline, "{} of {count} messages arrived", files.len());
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
}

/// A delivered message's text with quoted-printable soft line breaks and `=3D` undone, so a
/// link reads whole whatever transfer encoding the sender chose.
fn read_message(path: &Path) -> String {
    let raw = std::fs::read_to_string(path).unwrap();
    raw.replace("=\r\n", "").replace("=\n", "").replace("=3D", "=")
}

async fn a_reset_link_is_mailed_through_smtp_and_resets_the_password(backend: Backend) {
    let Some(smtp) = SmtpServer::start().await else { return };
    let mut config = ServeArgs::for_tests();
    config.smtp_url = Some(format!("smtp://127.0.0.1:{}", smtp.port));
    config.mail_from = "Needl <needl@example.com>".into();
    config.public_url = Some("https://needl.example.com/".into());
    let app = spawn_app_with(backend, config).await;
    let ada = app.sign_up("ada").await;
    let (_, options) = app.send(reqwest::Method::GET, "/api/auth/password-reset", None, None).await;
    assert_eq!(options["by_mail"], true);

    let known = app.post_without_token("/api/auth/password-reset/request", json!({"email": "ADA@example.com"})).await;
    let unknown = app.post_without_token("/api/auth/password-reset/request", json!({"email": "zed@example.com"})).await;
    assert_eq!(known.0, StatusCode::ACCEPTED);
    assert_eq!(known, unknown, "the answer does not tell whether an account exists");
    let mail = smtp.wait_for(1).await.remove(0);
    assert!(mail.contains("To: ada@example.com"), "{mail}");
    assert!(mail.contains("needl@example.com"), "{mail}");
    assert!(
        mail.contains("https://needl.example.com/reset-password?token="),
        "the link is on the public address: {mail}"
    );
    let token = token_of(&mail);
    assert_eq!(token.len(), 64, "{mail}");
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(smtp.delivered().len(), 1, "nothing is mailed for an address without an account");

    let (status, body) = complete_reset(&app, &token, NEW_PASSWORD).await;
    assert_eq!(status, StatusCode::NO_CONTENT, "{body}");
    assert_eq!(app.get("/api/user", &ada.token).await.0, StatusCode::UNAUTHORIZED);
    assert_eq!(app.sign_in("ada@example.com", NEW_PASSWORD).await.0, StatusCode::OK);
    assert_eq!(complete_reset(&app, &token, "yet another 31 calm rivers").await.1["code"], "reset_link_invalid");

    // An address is mailed at most three links an hour; the answer stays the same.
    for _ in 0..4 {
        let again =
            app.post_without_token("/api/auth/password-reset/request", json!({"email": "ada@example.com"})).await;
        assert_eq!(again, known);
    }
    smtp.wait_for(3).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(smtp.delivered().len(), 3, "the fourth request in the hour mailed nothing");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reset_link_is_mailed_through_smtp_on_sqlite() {
    a_reset_link_is_mailed_through_smtp_and_resets_the_password(Backend::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reset_link_is_mailed_through_smtp_on_postgres() {
    a_reset_link_is_mailed_through_smtp_and_resets_the_password(Backend::Postgres).await;
}
