//! The live socket: a user's own changes pushed (and replayed after a cursor), missing tokens and
//! foreign origins refused, signing out closing it, and a lagging socket paging from the store.

use futures::StreamExt;
use tokio_tungstenite::tungstenite::Message;

use crate::support::*;

api_test!(the_live_socket_pushes_a_users_own_changes_and_not_other_users, |app: TestApp| async move {
    let app = &app;
    let fay = app.sign_up("fay").await;
    let gus = app.sign_up("gus").await;
    let mut fay_socket = app.connect_live(&fay.token, None).await;
    let mut gus_socket = app.connect_live(&gus.token, None).await;
    app.patch("/api/user/preferences", &fay.token, json!({"askneedl_pro": true})).await;
    let pushed = next_of_type(&mut fay_socket, "PreferencesChanged").await;
    assert_eq!(pushed["ids"], json!([fay.user["id"]]));
    let cursor = pushed["cursor"].as_str().unwrap().to_string();
    while let Some(seen) = anything_within(&mut gus_socket, Duration::from_millis(600)).await {
        assert_ne!(seen["ids"], json!([fay.user["id"]]), "gus sees nothing of fay");
    }
    // While fay is away, two more changes happen; reconnecting after her cursor replays them.
    fay_socket.close(None).await.ok();
    app.patch("/api/user/preferences", &fay.token, json!({"nav_state": "closed"})).await;
    app.patch("/api/user", &fay.token, json!({"profession": "Editor"})).await;
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
    app.sign_out(&s.token).await;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        match tokio::time::timeout_at(deadline, socket.next()).await.expect("socket closes") {
            Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
            Some(Ok(_)) => continue,
        }
    }
});

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
            let user_id = s.id().to_string();
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
            // Nothing extra but the administrator's notices that the history grew.
            while let Some(extra) = anything_within(&mut socket, Duration::from_millis(300)).await {
                assert_eq!(extra["type"], "audit", "nothing extra: {extra:?} after {cursors:?}");
            }
        }
    };
}
lag_test!(a_lagging_socket_pages_from_the_store_on_sqlite, Backend::Sqlite);
lag_test!(a_lagging_socket_pages_from_the_store_on_postgres, Backend::Postgres);

// The live socket only speaks: a client that sends a large message (more than 16 KiB) has its
// socket closed rather than held, while small ones (pings, a word) leave it open.
api_test!(a_large_message_from_a_client_closes_its_live_socket, |app: TestApp| async move {
    use futures::SinkExt;
    let app = &app;
    let s = app.sign_up("chatty").await;
    let mut socket = app.connect_live(&s.token, None).await;
    socket.send(Message::Text("hello".into())).await.unwrap();
    app.patch("/api/user/preferences", &s.token, json!({"askneedl_pro": true})).await;
    next_of_type(&mut socket, "PreferencesChanged").await;
    let _ = socket.send(Message::Text("x".repeat(64 * 1024).into())).await;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        match tokio::time::timeout_at(deadline, socket.next()).await.expect("the server closes the socket") {
            Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
            Some(Ok(_)) => continue,
        }
    }
});
