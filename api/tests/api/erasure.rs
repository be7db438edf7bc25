//! Erasing an account by crypto-shredding: personal fields are sealed in the events from the
//! start, erasure destroys the key, the read models (and a rebuild of them) read "Erased user",
//! the hash chain still holds, and the email, name, profile and comment texts are nowhere in the
//! database any more.

use crate::support::*;

const NAME: &str = "zelda_quist";
const EMAIL: &str = "zelda_quist@example.com";
const COMMENT: &str = "Plover tallies at the northern quarry look inflated";
const INDUSTRY: &str = "Quarry auditing";
const PHONE: &str = "+44 7700 900123";

/// Every personal value of the account this file erases.
const PERSONAL: [&str; 5] = [NAME, EMAIL, COMMENT, INDUSTRY, PHONE];

/// The personal values found in any file of the data directory (SQLite's database, its
/// write-ahead log, the search index): raw bytes, as someone holding a copy of the disk reads them.
fn found_in_files(dir: &std::path::Path) -> Vec<String> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(path) = stack.pop() {
        if path.is_dir() {
            stack.extend(std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
            continue;
        }
        let Ok(bytes) = std::fs::read(&path) else { continue };
        for value in PERSONAL {
            if bytes.windows(value.len()).any(|w| w == value.as_bytes()) {
                found.push(format!("{value:?} in {}", path.display()));
            }
        }
    }
    found
}

/// The personal values found in any row of any table of the test's Postgres schema, each row as
/// JSON text.
async fn found_in_postgres_rows(db: &commands::Db) -> Vec<String> {
    #[derive(sqlx::FromRow)]
    struct Table {
        name: String,
    }
    #[derive(sqlx::FromRow)]
    struct Row {
        line: String,
    }
    let tables: Vec<Table> = db
        .fetch_all(
            "SELECT table_name::text AS name FROM information_schema.tables \
             WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'",
            vec![],
        )
        .await
        .unwrap();
    assert!(tables.len() > 20, "the schema's tables are listed");
    let mut found = Vec::new();
    for table in tables {
        let rows: Vec<Row> =
            db.fetch_all(&format!("SELECT row_to_json(t)::text AS line FROM {} t", table.name), vec![]).await.unwrap();
        for row in rows {
            for value in PERSONAL {
                if row.line.contains(value) {
                    found.push(format!("{value:?} in {}: {}", table.name, row.line));
                }
            }
        }
    }
    found
}

/// The personal values found in the stored events, as stored (payloads, ids and metadata).
async fn found_in_events(db: &commands::Db) -> Vec<String> {
    #[derive(sqlx::FromRow)]
    struct Row {
        line: String,
    }
    let sql = match db {
        commands::Db::Sqlite { .. } => "SELECT aggregate_id || ' ' || payload || ' ' || metadata AS line FROM events",
        commands::Db::Postgres(_) => {
            "SELECT aggregate_id || ' ' || payload::text || ' ' || metadata::text AS line FROM events"
        }
    };
    let rows: Vec<Row> = db.fetch_all(sql, vec![]).await.unwrap();
    assert!(rows.len() > 10);
    rows.iter()
        .flat_map(|row| PERSONAL.iter().filter(|v| row.line.contains(*v)).map(|v| format!("{v:?} in {}", row.line)))
        .collect()
}

api_test!(an_erased_account_leaves_its_events_sealed_its_name_erased_and_the_chain_whole, |app: TestApp| async move {
    let app = &app;
    let admin = app.sign_up("chief").await;
    let owner = app.sign_up("owner").await;
    let zelda = app.sign_up(NAME).await;
    let zelda_id = zelda.id().to_string();
    let (status, profile) =
        app.patch("/api/user", &zelda.token, json!({"industry": INDUSTRY, "whatsapp_number": PHONE})).await;
    assert_eq!(status, StatusCode::OK, "{profile}");
    followed_source_with(app, &owner.token, "https://quarry.example.org/rss", &["doc-q"]).await;
    let channel = create_channel(app, &owner.token, "Quarry", &[&zelda_id]).await;
    app.post(&format!("/api/channels/{channel}/items"), &owner.token, json!({"deeplink": "doc-q"})).await;
    let thread = format!("/api/channels/{channel}/comments/doc-q");
    let (status, posted) = app.post(&thread, &zelda.token, json!({"comment": COMMENT})).await;
    assert_eq!(status, StatusCode::OK, "{posted}");
    app.post(&thread, &owner.token, json!({"comment": "Owner's own note stays"})).await;
    let db = &app.server.state.db;

    // Sealed from the start: the events never held the plain values, the read models do.
    assert_eq!(found_in_events(db).await, Vec::<String>::new());
    let (_, list) = app.get(&thread, &owner.token).await;
    assert_eq!(list["results"][0]["comment"], COMMENT, "a live account's values read back: {list}");
    let (_, audit) =
        app.get(&format!("/api/audit/events?aggregate_type=user&aggregate_id={zelda_id}"), &admin.token).await;
    assert_eq!(audit["events"][0]["payload"]["UserSignedUp"]["email"], EMAIL, "{audit}");

    // Erasing asks for the password again.
    let (status, body) =
        app.send(reqwest::Method::DELETE, "/api/user", Some(&zelda.token), Some(json!({"password": "not it"}))).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("wrong_password")));
    let (status, _) = app.delete("/api/user", &zelda.token).await;
    assert!(status.is_client_error(), "no password, no erasure: {status}");
    let (status, body) =
        app.send(reqwest::Method::DELETE, "/api/user", Some(&zelda.token), Some(json!({"password": PASSWORD}))).await;
    assert_eq!(status, StatusCode::NO_CONTENT, "{body}");

    // The account is gone: its session ended, it cannot sign in, and the address is free again.
    assert_eq!(app.get("/api/user", &zelda.token).await.0, StatusCode::UNAUTHORIZED);
    assert_eq!(app.sign_in(EMAIL, PASSWORD).await.0, StatusCode::UNAUTHORIZED);

    // What others see: the comment stays in its thread, erased, under "Erased user".
    let (_, list) = app.get(&thread, &owner.token).await;
    let comments = list["results"].as_array().unwrap();
    let theirs = comments.iter().find(|c| c["user_id"] == zelda_id.as_str()).expect("the comment stays");
    assert_eq!(theirs["comment"], commands::personal::ERASED_TEXT, "{list}");
    assert_eq!(theirs["username"], "Erased user", "{list}");
    assert!(comments.iter().any(|c| c["comment"] == "Owner's own note stays"), "{list}");

    // Auditors: the history is all there, the personal values read as erased, the chain holds.
    let (_, audit) =
        app.get(&format!("/api/audit/events?aggregate_type=user&aggregate_id={zelda_id}"), &admin.token).await;
    let events = audit["events"].as_array().unwrap();
    let types: Vec<&str> = events.iter().map(|e| e["event_type"].as_str().unwrap()).collect();
    assert_eq!(types, ["UserSignedUp", "ProfileUpdated", "UserErased"], "{audit}");
    let signed_up = &events[0]["payload"]["UserSignedUp"];
    assert_eq!(signed_up["email"], commands::personal::erased_email(&zelda_id));
    assert_eq!(signed_up["username"], "Erased user");
    assert_eq!(events[1]["payload"]["ProfileUpdated"]["industry"], Value::Null);
    assert!(events.iter().all(|e| e["actor_name"] == "Erased user"), "{audit}");
    let (status, chain) = app.post("/api/audit/chain/verify", &admin.token, json!({})).await;
    assert_eq!((status, chain["status"].as_str()), (StatusCode::OK, Some("intact")), "{chain}");

    // A rebuild of the read models reads the same as the erasure left them.
    let users_before = projections::queries::all_users(db).await.unwrap();
    let (_, thread_before) = app.get(&thread, &owner.token).await;
    for projection in
        [&projections::accounts::Accounts as &dyn projections::runner::Projection, &projections::channels::Channels]
    {
        projections::runner::reset(db, projection).await.unwrap();
        projections::runner::catch_up(db, projection, 50).await.unwrap();
    }
    assert_eq!(projections::queries::all_users(db).await.unwrap(), users_before);
    assert_eq!(app.get(&thread, &owner.token).await.1, thread_before);

    // Nothing personal is left anywhere in the database.
    assert_eq!(found_in_events(db).await, Vec::<String>::new());
    match db {
        commands::Db::Sqlite { .. } => assert_eq!(found_in_files(app._dir.path()), Vec::<String>::new()),
        commands::Db::Postgres(_) => assert_eq!(found_in_postgres_rows(db).await, Vec::<String>::new()),
    }

    // The address signs up again, as a new account.
    let again = app.sign_up(NAME).await;
    assert_ne!(again.id(), zelda_id);
});

api_test!(administrators_erase_members_but_not_themselves_and_the_last_one_stays, |app: TestApp| async move {
    let app = &app;
    let admin = app.sign_up("chief").await;
    let member = app.sign_up("member").await;
    let other = app.sign_up("other").await;
    let admin_id = admin.id().to_string();

    let path = |id: &str| format!("/api/admin/users/{id}");
    assert_eq!(app.delete(&path(other.id()), &member.token).await.0, StatusCode::FORBIDDEN);
    let (status, body) = app.delete(&path(&admin_id), &admin.token).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("erase_self")));
    let (status, body) =
        app.send(reqwest::Method::DELETE, "/api/user", Some(&admin.token), Some(json!({"password": PASSWORD}))).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("last_admin")), "{body}");

    assert_eq!(app.delete(&path(member.id()), &admin.token).await.0, StatusCode::NO_CONTENT);
    assert_eq!(app.get("/api/user", &member.token).await.0, StatusCode::UNAUTHORIZED, "their sessions ended");
    let (_, users) = app.get("/api/admin/users", &admin.token).await;
    let ids: Vec<&str> = users.as_array().unwrap().iter().map(|u| u["id"].as_str().unwrap()).collect();
    assert!(!ids.contains(&member.id()) && ids.contains(&other.id()), "{users}");
    assert_eq!(app.delete(&path(member.id()), &admin.token).await.0, StatusCode::NOT_FOUND, "erased once");
    assert_eq!(app.delete(&path("no-such-user"), &admin.token).await.0, StatusCode::NOT_FOUND);

    // With a second administrator, the first may go.
    app.put_empty(&format!("/api/admin/users/{}/roles/admin", other.id()), &admin.token).await;
    let (status, body) =
        app.send(reqwest::Method::DELETE, "/api/user", Some(&admin.token), Some(json!({"password": PASSWORD}))).await;
    assert_eq!(status, StatusCode::NO_CONTENT, "{body}");
});
