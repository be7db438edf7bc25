//! The event hash chain through the API and the command line: auditors see it intact, take
//! signed checkpoints, and see where a direct edit of the stored history broke it.

use crate::support::*;

/// A condition on `events` that picks the event at chain position `n`: the feed position on
/// SQLite; on Postgres the event its link in `event_chain` names.
fn event_at(db: &commands::Db, n: i64) -> String {
    match db {
        commands::Db::Sqlite { .. } => format!("global_position = {n}"),
        commands::Db::Postgres(_) => format!(
            "(transaction_id, global_position) = (SELECT transaction_id, global_position FROM event_chain \
             WHERE position = {n})"
        ),
    }
}

api_test!(auditors_see_the_chain_hold_take_checkpoints_and_see_an_edit_break_it, |app: TestApp| async move {
    let app = &app;
    let admin = app.sign_up("chief").await;
    let member = app.sign_up("someone").await;
    create_tag(app, &member.token, "Mining").await;
    for path in ["/api/audit/chain", "/api/audit/checkpoints"] {
        assert_eq!(app.get(path, &member.token).await.0, StatusCode::FORBIDDEN, "{path}");
    }
    assert_eq!(app.post("/api/audit/checkpoints", &member.token, json!({})).await.0, StatusCode::FORBIDDEN);
    assert_eq!(app.post("/api/audit/chain/verify", &member.token, json!({})).await.0, StatusCode::FORBIDDEN);
    let (none, _) = app.get("/api/audit/checkpoints", &admin.token).await;
    assert_eq!(none, StatusCode::OK);

    let (status, chain) = app.get("/api/audit/chain", &admin.token).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(chain["status"], "intact", "{chain}");
    let head = chain["head"]["position"].as_i64().unwrap();
    assert!(head >= 3, "sign-ups and a tag were chained: {chain}");
    assert_eq!(chain["events_checked"].as_i64(), Some(head));
    assert_eq!(chain["public_key"].as_str().unwrap().len(), 64);

    let (status, checkpoint) = app.post("/api/audit/checkpoints", &admin.token, json!({})).await;
    assert_eq!(status, StatusCode::CREATED, "{checkpoint}");
    assert!(checkpoint["position"].as_i64().unwrap() >= head);
    assert_eq!(checkpoint["public_key"], chain["public_key"]);
    assert_eq!(checkpoint["signature"].as_str().unwrap().len(), 128);
    let kept: commands::chain::Checkpoint = serde_json::from_value(checkpoint.clone()).unwrap();
    assert!(kept.signature_holds(), "an auditor can check the signature with the public key alone");

    // More events: the next status goes on from where the last walk ended.
    create_tag(app, &member.token, "Energy").await;
    let (_, later) = app.get("/api/audit/chain", &admin.token).await;
    assert_eq!(later["status"], "intact");
    assert!(later["head"]["position"].as_i64().unwrap() > head);
    assert_eq!(later["checkpoints"][0]["position"], checkpoint["position"]);

    // Someone edits an event in the database directly.
    let db = &app.server.state.db;
    let at = event_at(db, 2);
    let payload = match db {
        commands::Db::Sqlite { .. } => "'{}'",
        commands::Db::Postgres(_) => "'{}'::json",
    };
    let edited = db.execute(&format!("UPDATE events SET payload = {payload} WHERE {at}"), vec![]).await.unwrap();
    assert_eq!(edited, 1);
    let (status, broken) = app.post("/api/audit/chain/verify", &admin.token, json!({})).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(broken["status"], "broken", "{broken}");
    assert_eq!(broken["first_break"]["position"], 2);
    assert!(broken["first_break"]["reason"].as_str().unwrap().contains("does not match its hash"));
    let (_, still) = app.get("/api/audit/chain", &admin.token).await;
    assert_eq!(still["status"], "broken", "a broken chain stays reported as broken");
});

/// `needl audit checkpoint` prints a signed checkpoint to keep; `needl audit verify` checks the
/// history against it and exits 3, naming the position, once the history was edited.
#[tokio::test]
async fn the_command_line_takes_checkpoints_and_verifies_against_them() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let needl = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_needl"))
            .arg("--data-dir")
            .arg(&data)
            .args(args)
            .env_remove("DATABASE_URL")
            .env_remove("NEEDL_AUDIT_KEY")
            .env("RUST_LOG", "error")
            .output()
            .unwrap()
    };
    let empty = needl(&["audit", "checkpoint"]);
    assert!(!empty.status.success(), "no events, no checkpoint");
    assert!(String::from_utf8_lossy(&empty.stderr).contains("no events"));

    {
        let db = commands::Db::open_sqlite(&data).await.unwrap();
        let bus = commands::CommandBus::new(db.clone(), commands::FeedSignal::default());
        for name in ["ann", "bob", "cy"] {
            let command = domain::user::UserCommand::SignUp {
                email: format!("{name}@example.com"),
                username: name.into(),
                password_hash: "$argon2id$test".into(),
                is_admin: false,
            };
            bus.execute(&bus.users, name, command, &domain::EventMetadata::system("test", "r1")).await.unwrap();
        }
    }
    let taken = needl(&["audit", "checkpoint"]);
    assert!(taken.status.success(), "{}", String::from_utf8_lossy(&taken.stderr));
    let line = String::from_utf8(taken.stdout).unwrap();
    let checkpoint: commands::chain::Checkpoint = serde_json::from_str(line.trim()).unwrap();
    assert_eq!(checkpoint.position, 3);
    assert!(checkpoint.signature_holds());
    let kept = dir.path().join("kept.jsonl");
    std::fs::write(&kept, &line).unwrap();

    let fine = needl(&["audit", "verify", "--checkpoints", kept.to_str().unwrap()]);
    assert!(fine.status.success(), "{}", String::from_utf8_lossy(&fine.stdout));
    assert!(String::from_utf8_lossy(&fine.stdout).contains("intact through position 3"));

    // A forged checkpoint file is refused before anything is read.
    let mut forged = checkpoint.clone();
    forged.hash = commands::chain::GENESIS.to_string();
    let forged_file = dir.path().join("forged.jsonl");
    std::fs::write(&forged_file, serde_json::to_string(&forged).unwrap()).unwrap();
    let refused = needl(&["audit", "verify", "--checkpoints", forged_file.to_str().unwrap()]);
    assert_eq!(refused.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("valid signature"));

    {
        let db = commands::Db::open_sqlite(&data).await.unwrap();
        db.execute("DELETE FROM events WHERE global_position = 2", vec![]).await.unwrap();
    }
    let broken = needl(&["audit", "verify", "--checkpoints", kept.to_str().unwrap()]);
    assert_eq!(broken.status.code(), Some(3), "{}", String::from_utf8_lossy(&broken.stdout));
    let said = String::from_utf8_lossy(&broken.stdout);
    assert!(said.contains("BROKEN at position 2"), "{said}");
}
