//! Accounts and sign-in, end to end on both backends: the first user is the administrator; taken
//! emails and bad input are refused with clear messages and write nothing, and a refused sign-up
//! or channel leaves its email or name free; sign-in failures reveal nothing; sign-in and sign-up
//! throttles by client address (each test's clients bind distinct loopback addresses, which Linux
//! routes all to lo), with `Retry-After`; calls without a valid token, or with one issued in the
//! future, are refused.

use std::net::IpAddr;

use cqrs_es::Aggregate;
use domain::channel::ChannelDirectory;
use domain::user::{User, UserCommand};
use domain::EventMetadata;

use crate::support::*;

/// The production body limit (1 MiB), so large usernames reach validation.
fn production_body_limit(config: &mut ServeArgs) {
    config.max_body_bytes = 1024 * 1024;
}

/// A client whose connections come from `ip` (a loopback address such as 127.0.0.2).
fn client_from(ip: &str) -> reqwest::Client {
    reqwest::Client::builder().local_address(ip.parse::<IpAddr>().unwrap()).build().unwrap()
}

/// Posts `body` with `client`; returns the status, the `Retry-After` header and the body.
async fn post_with(
    app: &TestApp,
    client: &reqwest::Client,
    path: &str,
    headers: &[(&str, &str)],
    body: Value,
) -> (StatusCode, Option<u64>, Value) {
    let mut request = client.post(app.url(path)).json(&body);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let res = request.send().await.unwrap();
    let status = res.status();
    let retry_after = res.headers().get("retry-after").map(|v| v.to_str().unwrap().parse::<u64>().unwrap());
    (status, retry_after, res.json().await.unwrap_or(Value::Null))
}

fn sign_in_body(email: &str, password: &str) -> Value {
    json!({"email": email, "password": password})
}

fn sign_up_body(email: &str, username: &str) -> Value {
    json!({"email": email, "password": PASSWORD, "username": username})
}

/// Signs up, expecting success; returns the answer.
async fn signs_up(app: &TestApp, email: &str, username: &str) -> Value {
    let (status, body) = app.post_without_token("/api/auth/signup", sign_up_body(email, username)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body
}

api_test_with!(
    a_sign_up_refused_for_its_username_leaves_the_email_free,
    production_body_limit,
    |app: TestApp| async move {
        let app = &app;
        let cases = [
            ("a".repeat(65), "username must be 1 to 64 characters"),
            ("b".repeat(900_000), "username must be 1 to 64 characters"),
            ("ada\u{7}".to_string(), "username must not contain control or invisible characters"),
            ("\u{202E}ada".to_string(), "username must not contain control or invisible characters"),
        ];
        for (username, message) in cases {
            let (status, body) =
                app.post_without_token("/api/auth/signup", sign_up_body("ada@example.com", &username)).await;
            assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
            assert_eq!((body["code"].as_str(), body["message"].as_str()), (Some("invalid_username"), Some(message)));
        }
        let events = commands::feed::read_after(&app.server.state.db, commands::Cursor::START, 10).await.unwrap();
        assert!(events.is_empty(), "refused sign-ups write nothing: {events:?}");
        let body = signs_up(app, "ada@example.com", "  ada  ").await;
        assert_eq!(body["user"]["username"], "ada");
        assert_eq!(body["user"]["is_admin"], true, "the refused sign-ups claimed nothing");
        let (status, body) = app.sign_in("ada@example.com", PASSWORD).await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }
);

api_test!(a_username_too_large_for_the_body_limit_is_refused_and_strands_nothing, |app: TestApp| async move {
    let app = &app;
    // The server answers 413 as soon as the limit (64 KiB here) is passed and closes the
    // connection; a client still sending then sees the connection end before the answer. So the
    // body is only a little over the limit, which the loopback's buffers take whole before the
    // answer comes, and each try that still loses the race is refused, records nothing and is
    // tried again until the answer itself arrives.
    let big = sign_up_body("bo@example.com", &"b".repeat(80_000));
    let mut answer = None;
    for _ in 0..10 {
        let request = app.request(reqwest::Method::POST, "/api/auth/signup", None).json(&big);
        match request.send().await {
            Ok(res) => {
                let status = res.status();
                answer = Some((status, res.json::<Value>().await.unwrap_or(Value::Null)));
                break;
            }
            Err(error) if error.is_request() || error.is_body() || error.is_connect() => continue,
            Err(error) => panic!("{error}"),
        }
    }
    let (status, body) = answer.expect("the refusal arrived in one of ten tries");
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(body["code"], "body_too_large");
    signs_up(app, "bo@example.com", "bo").await;
    let (status, _) = app.sign_in("bo@example.com", PASSWORD).await;
    assert_eq!(status, StatusCode::OK);
});

api_test_with!(
    a_channel_that_cannot_be_created_leaves_its_name_free,
    production_body_limit,
    |app: TestApp| async move {
        let app = &app;
        let owner = app.sign_up("owner").await;
        // As many other members as a channel may have in all: with its owner, one too many.
        let others: Vec<String> =
            (0..domain::channel::MAX_MEMBERS_PER_CHANNEL).map(|i| format!("member-{i}")).collect();
        let bus = &app.server.state.bus;
        let metadata = EventMetadata::system("test", uuid::Uuid::new_v4().to_string());
        let ((), cursor) = bus
            .execute_together(&metadata, |mut unit| {
                let others = others.clone();
                async move {
                    for id in &others {
                        let sign_up = UserCommand::SignUp {
                            email: format!("{id}@example.com"),
                            username: id.clone(),
                            password_hash: "$argon2id$test".into(),
                            is_admin: false,
                        };
                        unit.execute::<User>(id, sign_up).await.map_err(|e| anyhow::anyhow!("{e}"))?;
                    }
                    Ok::<_, anyhow::Error>((unit, ()))
                }
            })
            .await
            .unwrap();
        // Thousands of accounts in one commit: more than the usual settle time on a busy machine.
        let cursor = cursor.expect("the accounts were written");
        assert!(app.server.state.projections.wait_for(cursor, Duration::from_secs(120)).await, "read models caught up");
        let (status, body) =
            app.post("/api/channels", &owner.token, json!({"name": "Research", "members": others})).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
        assert_eq!(body["code"], "too_many_channel_members");
        let directory = domain::channel::directory_id(domain::channel::ORGANIZATION_ID);
        let reserved =
            commands::feed::read_aggregate(&app.server.state.db, ChannelDirectory::TYPE, &directory).await.unwrap();
        assert!(reserved.is_empty(), "no name was reserved: {reserved:?}");
        let (status, body) =
            app.post("/api/channels", &owner.token, json!({"name": "Research", "members": ["member-1"]})).await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }
);

api_test!(a_stranger_guessing_a_password_is_throttled_and_the_owner_still_gets_in, |app: TestApp| async move {
    let app = &app;
    signs_up(app, "bea@example.com", "bea").await;
    let attacker = client_from("127.0.0.2");
    let owner = client_from("127.0.0.3");
    let guess = sign_in_body("bea@example.com", "guess");
    for _ in 0..6 {
        let (status, _, _) = post_with(app, &attacker, "/api/auth/signin", &[], guess.clone()).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
    }
    let (status, retry_after, body) = post_with(app, &attacker, "/api/auth/signin", &[], guess.clone()).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
    assert_eq!(body["code"], "too_many_attempts");
    assert!(retry_after.is_some_and(|s| (1..=2).contains(&s)), "Retry-After: {retry_after:?}");
    // Even the right password is refused to the throttled address, so it learns nothing.
    let right = sign_in_body("bea@example.com", PASSWORD);
    let (status, retry_after, _) = post_with(app, &attacker, "/api/auth/signin", &[], right.clone()).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    assert!(retry_after.is_some());
    let (status, _, body) = post_with(app, &owner, "/api/auth/signin", &[], right).await;
    assert_eq!(status, StatusCode::OK, "the owner, from a clean address, gets in: {body}");
    assert_eq!(body["user"]["username"], "bea");
});

api_test!(an_address_guessing_many_accounts_is_throttled_whatever_forwarded_for_it_sends, |app: TestApp| async move {
    let app = &app;
    let attacker = client_from("127.0.0.4");
    for i in 0..20 {
        let spoofed = format!("198.51.100.{i}");
        let body = sign_in_body(&format!("user{i}@example.com"), "guess");
        let (status, _, _) =
            post_with(app, &attacker, "/api/auth/signin", &[("x-forwarded-for", &spoofed)], body).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
    }
    let body = sign_in_body("user99@example.com", "guess");
    let (status, _, _) = post_with(app, &attacker, "/api/auth/signin", &[], body.clone()).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "the 21st failure is still answered");
    let (status, retry_after, _) = post_with(app, &attacker, "/api/auth/signin", &[], body.clone()).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    assert!(retry_after.is_some());
    let (status, _, _) = post_with(app, &client_from("127.0.0.5"), "/api/auth/signin", &[], body).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "another address is not held back");
});

api_test_with!(
    behind_a_trusted_proxy_forwarded_for_names_the_client,
    |config: &mut ServeArgs| config.trusted_proxies = vec!["127.0.0.0/8".into()],
    |app: TestApp| async move {
        let app = &app;
        signs_up(app, "cy@example.com", "cy").await;
        let proxy = reqwest::Client::new();
        let attacker = [("x-forwarded-for", "203.0.113.9")];
        let guess = sign_in_body("cy@example.com", "guess");
        for _ in 0..6 {
            post_with(app, &proxy, "/api/auth/signin", &attacker, guess.clone()).await;
        }
        let (status, retry_after, _) = post_with(app, &proxy, "/api/auth/signin", &attacker, guess).await;
        assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
        assert!(retry_after.is_some());
        let owner = [("x-forwarded-for", "203.0.113.9, 198.51.100.7")];
        let right = sign_in_body("cy@example.com", PASSWORD);
        let (status, _, body) = post_with(app, &proxy, "/api/auth/signin", &owner, right).await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }
);

api_test_with!(
    sign_ups_from_one_address_are_rate_limited,
    |config: &mut ServeArgs| config.signups_per_hour = 3,
    |app: TestApp| async move {
        let app = &app;
        let crowd = client_from("127.0.0.6");
        for i in 0..3 {
            let body = sign_up_body(&format!("bot{i}@example.com"), "bot");
            let (status, _, body) = post_with(app, &crowd, "/api/auth/signup", &[], body).await;
            assert_eq!(status, StatusCode::OK, "{body}");
        }
        let (status, retry_after, body) =
            post_with(app, &crowd, "/api/auth/signup", &[], sign_up_body("bot3@example.com", "bot")).await;
        assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
        assert_eq!(body["code"], "too_many_sign_ups");
        assert!(retry_after.is_some_and(|s| s > 1000 && s <= 1200), "one sign-up back in 20 minutes: {retry_after:?}");
        let (status, _, body) =
            post_with(app, &client_from("127.0.0.7"), "/api/auth/signup", &[], sign_up_body("bot3@example.com", "bot"))
                .await;
        assert_eq!(status, StatusCode::OK, "another address signs up, and the address was not taken: {body}");
    }
);

api_test!(a_token_issued_in_the_future_is_refused, |app: TestApp| async move {
    let app = &app;
    let session = app.sign_up("dee").await;
    let keys = api::auth::TokenKeys::new(b"test-secret-test-secret-test-secret", Duration::from_secs(60));
    let claims = keys.check(&session.token, false).unwrap();
    let now = chrono::Utc::now().timestamp();
    let signed = |issued_in: i64| {
        let claims = api::auth::Claims { iat: now + issued_in, exp: now + issued_in + 600, ..claims.clone() };
        let key = jsonwebtoken::EncodingKey::from_secret(b"test-secret-test-secret-test-secret");
        jsonwebtoken::encode(&jsonwebtoken::Header::default(), &claims, &key).unwrap()
    };
    let (status, body) = app.get("/api/user", &signed(3600)).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");
    assert_eq!(body["code"], "invalid_token");
    let (status, body) = app.get("/api/user", &signed(30)).await;
    assert_eq!(status, StatusCode::OK, "a clock 30 s ahead is tolerated: {body}");
});

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
        .post_without_token(
            "/api/auth/signup",
            json!({"email": " ADA@example.com", "password": "a different 9 passphrase entirely", "username": "imposter"}),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(body["code"], "email_taken");
});

api_test!(sign_up_input_is_validated_with_clear_messages_and_nothing_written, |app: TestApp| async move {
    let app = &app;
    let (status, body) = app
        .post_without_token("/api/auth/signup", json!({"email": "x@example.com", "password": "short", "username": "x"}))
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(body["message"], "password must be at least 8 characters");
    let (status, body) = app
        .post_without_token(
            "/api/auth/signup",
            json!({"email": "not-an-email", "password": "long enough", "username": "x"}),
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(body["message"], "email must be a valid email");
    let (status, body) = app
        .post_without_token(
            "/api/auth/signup",
            json!({"email": "x@example.com", "password": "long enough", "username": "x", "role": "admin"}),
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "unknown fields are refused: {body}");
    let (status, _) = app
        .post_without_token("/api/auth/signup", json!({"email": 42, "password": "long enough", "username": "x"}))
        .await;
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
    let (s1, wrong_password) = app.sign_in("bea@example.com", "wrong password").await;
    let (s2, unknown_email) = app.sign_in("nobody@example.com", "wrong password").await;
    assert_eq!(s1, StatusCode::UNAUTHORIZED);
    assert_eq!(s2, StatusCode::UNAUTHORIZED);
    assert_eq!(wrong_password, unknown_email);
    let (ok, body) = app.sign_in("Bea@example.com", PASSWORD).await;
    assert_eq!(ok, StatusCode::OK);
    assert_eq!(body["user"]["username"], "bea");
    // The guessing address (this test's client, 127.0.0.1) is throttled, with Retry-After ...
    for _ in 0..6 {
        app.sign_in("bea@example.com", "guess").await;
    }
    let res = app
        .request(reqwest::Method::POST, "/api/auth/signin", None)
        .json(&json!({"email": "bea@example.com", "password": PASSWORD}))
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
        .json(&json!({"email": "bea@example.com", "password": PASSWORD}))
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
