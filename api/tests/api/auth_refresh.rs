//! Token refresh and its grace period, end to end on both backends: a refreshed (rotated) token
//! keeps working, and can be refreshed again, for `--session-grace-seconds`, so a page that
//! reloaded before storing its new token stays signed in; sign-out ends a session at once; an
//! expired token is refreshable while its session lasts.

use futures::StreamExt;
use tokio_tungstenite::tungstenite::Message;

use crate::support::*;

/// Like `api_test!`, with the grace for rotated tokens set to `$grace` seconds.
macro_rules! grace_test {
    ($name:ident, $grace:expr, $body:expr) => {
        api_test_with!($name, |config: &mut ServeArgs| config.session_grace_seconds = $grace, $body);
    };
}

impl TestApp {
    /// The status of an ordinary call made with `token`.
    async fn whoami(&self, token: &str) -> StatusCode {
        self.get("/api/user", token).await.0
    }

    /// The `sessions_view` row of the session `token` names.
    async fn session_of(&self, token: &str) -> projections::queries::SessionRow {
        let keys = api::auth::TokenKeys::new(b"test-secret-test-secret-test-secret", Duration::from_secs(60));
        let sid = keys.check(token, true).unwrap().sid;
        projections::queries::session(&self.server.state.db, &sid).await.unwrap().expect("the session is in the view")
    }
}

/// Waits, bounded, until `token` is refused.
async fn refused_within(app: &TestApp, token: &str, wait: Duration) {
    let deadline = tokio::time::Instant::now() + wait;
    while app.whoami(token).await != StatusCode::UNAUTHORIZED {
        assert!(tokio::time::Instant::now() < deadline, "the token still works after {wait:?}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Waits, bounded, until the socket closes; returns the close code, if one was sent.
async fn closed<S>(socket: &mut S, wait: Duration) -> Option<u16>
where
    S: futures::Stream<Item = Result<Message, tokio_tungstenite::tungstenite::Error>> + Unpin,
{
    let deadline = tokio::time::Instant::now() + wait;
    loop {
        match tokio::time::timeout_at(deadline, socket.next()).await.expect("the socket closes") {
            Some(Ok(Message::Close(frame))) => return frame.map(|f| u16::from(f.code)),
            None | Some(Err(_)) => return None,
            Some(Ok(_)) => continue,
        }
    }
}

grace_test!(a_refreshed_token_keeps_working_and_refreshes_again_within_the_grace, 30, |app: TestApp| async move {
    let app = &app;
    let old = app.sign_up("ada").await.token;
    let (status, first) = app.refresh(&old).await;
    assert_eq!(status, StatusCode::OK);
    let first = first.unwrap();
    assert_eq!(app.whoami(&old).await, StatusCode::OK, "the old token works right after the refresh");
    assert_eq!(app.whoami(&first).await, StatusCode::OK);
    // The page reloaded before it stored `first`: it refreshes the old token again.
    let (status, second) = app.refresh(&old).await;
    assert_eq!(status, StatusCode::OK, "refreshing a token in its grace starts another successor");
    let second = second.unwrap();
    assert_ne!(second, first);
    assert_eq!(app.whoami(&second).await, StatusCode::OK);
    assert_eq!(app.whoami(&first).await, StatusCode::OK, "the lost successor is a session of its own");
    let (old_row, first_row, second_row) =
        (app.session_of(&old).await, app.session_of(&first).await, app.session_of(&second).await);
    assert_eq!(old_row.revoked_reason.as_deref(), Some("rotated"));
    assert_eq!(first_row.rotated_from.as_deref(), Some(old_row.session_id.as_str()));
    assert_eq!(second_row.rotated_from.as_deref(), Some(old_row.session_id.as_str()));
    assert_eq!(first_row.revoked_at, None);
    // The second rotation recorded nothing on the old session: its grace never stretches.
    let events = commands::feed::read_after(&app.server.state.db, commands::Cursor::START, 100).await.unwrap();
    let old_revocations =
        events.iter().filter(|e| e.event_type == "SessionRevoked" && e.aggregate_id == old_row.session_id).count();
    assert_eq!(old_revocations, 1);
});

grace_test!(after_the_grace_a_refreshed_token_and_its_refresh_are_refused, 2, |app: TestApp| async move {
    let app = &app;
    let old = app.sign_up("bea").await.token;
    let (status, fresh) = app.refresh(&old).await;
    assert_eq!(status, StatusCode::OK);
    let fresh = fresh.unwrap();
    assert_eq!(app.whoami(&old).await, StatusCode::OK, "the old token works within the grace");
    refused_within(app, &old, Duration::from_secs(10)).await;
    let (status, body) = app.post("/api/auth/refresh", &old, json!({})).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");
    assert_eq!(body["code"], "session_revoked");
    assert_eq!(app.whoami(&fresh).await, StatusCode::OK, "the successor lives on");
});

api_test!(with_no_grace_a_refreshed_token_is_refused_at_once, |app: TestApp| async move {
    let app = &app;
    let old = app.sign_up("cy").await.token;
    let (status, fresh) = app.refresh(&old).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(app.whoami(&old).await, StatusCode::UNAUTHORIZED);
    assert_eq!(app.refresh(&old).await.0, StatusCode::UNAUTHORIZED);
    assert_eq!(app.whoami(&fresh.unwrap()).await, StatusCode::OK);
});

grace_test!(signing_out_ends_a_session_at_once_despite_the_grace, 30, |app: TestApp| async move {
    let app = &app;
    let token = app.sign_up("dee").await.token;
    assert_eq!(app.sign_out(&token).await, StatusCode::NO_CONTENT);
    assert_eq!(app.whoami(&token).await, StatusCode::UNAUTHORIZED);
    assert_eq!(app.refresh(&token).await.0, StatusCode::UNAUTHORIZED, "a signed-out token cannot be refreshed");
    assert_eq!(app.session_of(&token).await.revoked_reason.as_deref(), Some("signed_out"));
});

grace_test!(signing_out_also_ends_the_refreshed_token_still_in_its_grace, 30, |app: TestApp| async move {
    let app = &app;
    let old = app.sign_up("eve").await.token;
    let fresh = app.refresh(&old).await.1.unwrap();
    assert_eq!(app.whoami(&old).await, StatusCode::OK);
    assert_eq!(app.sign_out(&fresh).await, StatusCode::NO_CONTENT);
    for token in [&fresh, &old] {
        assert_eq!(app.whoami(token).await, StatusCode::UNAUTHORIZED);
        assert_eq!(app.refresh(token).await.0, StatusCode::UNAUTHORIZED);
    }
    // Signing out with a token in its grace ends that token at once too.
    let other = app.sign_up("fay").await.token;
    let successor = app.refresh(&other).await.1.unwrap();
    assert_eq!(app.sign_out(&other).await, StatusCode::NO_CONTENT);
    assert_eq!(app.whoami(&other).await, StatusCode::UNAUTHORIZED);
    assert_eq!(app.refresh(&other).await.0, StatusCode::UNAUTHORIZED);
    assert_eq!(app.whoami(&successor).await, StatusCode::OK, "the successor is signed out with its own token");
});

grace_test!(a_refresh_keeps_the_live_socket_open_until_a_sign_out_closes_it, 30, |app: TestApp| async move {
    let app = &app;
    let old = app.sign_up("gus").await.token;
    let mut socket = app.connect_live(&old, None).await;
    let fresh = app.refresh(&old).await.1.unwrap();
    app.patch("/api/user/preferences", &fresh, json!({"askneedl_pro": true})).await;
    next_of_type(&mut socket, "PreferencesChanged").await;
    assert_eq!(app.sign_out(&fresh).await, StatusCode::NO_CONTENT);
    assert_eq!(closed(&mut socket, Duration::from_secs(10)).await, Some(4001));
});

grace_test!(a_rotated_sessions_live_socket_closes_when_its_grace_ends, 2, |app: TestApp| async move {
    let app = &app;
    let old = app.sign_up("hal").await.token;
    let mut socket = app.connect_live(&old, None).await;
    let started = tokio::time::Instant::now();
    app.refresh(&old).await.1.unwrap();
    assert_eq!(closed(&mut socket, Duration::from_secs(10)).await, Some(4001));
    assert!(started.elapsed() >= Duration::from_millis(1500), "not closed before its grace ended");
    // A socket opened with a token in its grace closes when that grace ends, too.
    let other = app.sign_up("ian").await.token;
    app.refresh(&other).await.1.unwrap();
    let mut late = app.connect_live(&other, None).await;
    assert_eq!(closed(&mut late, Duration::from_secs(10)).await, Some(4001));
});

grace_test!(rotations_and_sign_outs_rebuild_the_same_sessions_view, 30, |app: TestApp| async move {
    let app = &app;
    let old = app.sign_up("jo").await.token;
    let first = app.refresh(&old).await.1.unwrap();
    let second = app.refresh(&old).await.1.unwrap();
    app.refresh(&first).await.1.unwrap();
    app.sign_out(&first).await;
    app.refresh(&second).await.1.unwrap();
    let db = &app.server.state.db;
    let before = projections::queries::all_sessions(db).await.unwrap();
    assert!(before.iter().any(|s| s.revoked_reason.as_deref() == Some("rotated")));
    assert!(before.iter().any(|s| s.revoked_reason.as_deref() == Some("signed_out")));
    projections::runner::reset(db, &projections::sessions::Sessions).await.unwrap();
    projections::runner::catch_up(db, &projections::sessions::Sessions, 2).await.unwrap();
    assert_eq!(projections::queries::all_sessions(db).await.unwrap(), before);
});

api_test!(signing_out_revokes_the_token_and_refreshing_rotates_it, |app: TestApp| async move {
    let app = &app;
    let s = app.sign_up("cy").await;
    let (status, fresh) = app.refresh(&s.token).await;
    assert_eq!(status, StatusCode::OK);
    let fresh = fresh.unwrap();
    assert_ne!(fresh, s.token);
    assert_eq!(app.get("/api/user", &s.token).await.0, StatusCode::UNAUTHORIZED, "the rotated token is dead");
    assert_eq!(app.get("/api/user", &fresh).await.0, StatusCode::OK);
    assert_eq!(app.refresh(&s.token).await.0, StatusCode::UNAUTHORIZED, "a dead token cannot be refreshed");
    assert_eq!(app.sign_out(&fresh).await, StatusCode::NO_CONTENT);
    assert_eq!(app.get("/api/user", &fresh).await.0, StatusCode::UNAUTHORIZED);
});

/// An expired token whose session lasts answers 403 with the backend-origin header, which tells
/// the web app to refresh; refresh takes the expired token and rotates it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_expired_token_is_refreshable_while_its_session_lasts() {
    let clock = service::clock::ManualClock::starting_now();
    let config = ServeArgs::for_tests();
    let ttl = chrono::Duration::minutes(config.token_ttl_minutes as i64);
    let app = spawn_app_with_clock(Backend::Sqlite, config, clock.clone()).await;
    let s = app.sign_up("old").await;
    // The token works through its last second and has expired one second later.
    clock.advance(ttl);
    assert_eq!(app.get("/api/user", &s.token).await.0, StatusCode::OK);
    clock.advance(chrono::Duration::seconds(1));
    let res = app.request(reqwest::Method::GET, "/api/user", Some(&s.token)).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::FORBIDDEN);
    assert_eq!(res.headers().get("x-backend-origin").unwrap(), "needl");
    assert_eq!(res.json::<Value>().await.unwrap()["code"], "token_expired");
    let (status, refreshed) = app.refresh(&s.token).await;
    assert_eq!(status, StatusCode::OK, "{refreshed:?}");
    assert_eq!(app.refresh(&s.token).await.0, StatusCode::UNAUTHORIZED, "the expired token was rotated away");
    // A permission 403 carries no such header: refreshing would not help.
    let other = app.sign_up("plain").await;
    let res = app.request(reqwest::Method::GET, "/api/admin/users", Some(&other.token)).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::FORBIDDEN);
    assert!(res.headers().get("x-backend-origin").is_none());
}
