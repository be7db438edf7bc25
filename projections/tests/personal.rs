//! Personal fields sealed per person (`commands::personal`) on both backends: stored sealed, read
//! back plain, bound to where they were written, unreadable once the key is destroyed, and no new
//! personal data sealed for an erased person.

use commands::bus::{CommandBus, CommandError};
use commands::feed::{self, FeedSignal};
use commands::personal::{self, ERASED_NAME};
use commands::store::{Arg, Db};
use domain::user::{ProfileChange, UserCommand};
use serde_json::Value;
use testkit::on_both_backends;

use testkit::db::metadata as meta;

async fn sign_up(bus: &CommandBus, id: &str) {
    let sign_up = UserCommand::SignUp {
        email: format!("{id}@example.com"),
        username: format!("{id} the person"),
        password_hash: "$argon2id$test".to_string(),
        is_admin: false,
    };
    bus.execute(&bus.users, id, sign_up, &meta(id)).await.unwrap();
}

/// The sign-up payload of `id` as stored.
async fn stored_sign_up(db: &Db, id: &str) -> Value {
    #[derive(sqlx::FromRow)]
    struct Row {
        payload: String,
    }
    let sql = match db {
        Db::Sqlite { .. } => "SELECT payload FROM events WHERE aggregate_type = 'user' AND aggregate_id = $1",
        Db::Postgres(_) => {
            "SELECT payload::text AS payload FROM events WHERE aggregate_type = 'user' AND aggregate_id = $1"
        }
    };
    let rows: Vec<Row> = db.fetch_all(sql, vec![Arg::from(id)]).await.unwrap();
    serde_json::from_str(&rows[0].payload).unwrap()
}

/// Stores `payload` as the sign-up of `id`, as someone editing the database would.
async fn store_sign_up(db: &Db, id: &str, payload: &Value) {
    let sql = match db {
        Db::Sqlite { .. } => "UPDATE events SET payload = $1 WHERE aggregate_type = 'user' AND aggregate_id = $2",
        Db::Postgres(_) => "UPDATE events SET payload = $1::json WHERE aggregate_type = 'user' AND aggregate_id = $2",
    };
    assert_eq!(db.execute(sql, vec![Arg::Text(payload.to_string()), Arg::from(id)]).await.unwrap(), 1);
}

/// The sign-up of `id` as the feed reads it.
async fn read_sign_up(db: &Db, id: &str) -> Value {
    let events = feed::read_aggregate(db, "user", id).await.unwrap();
    events[0].payload["UserSignedUp"].clone()
}

on_both_backends!(sealed_fields_open_where_they_were_written_and_never_after_erasure, |db: Db| async move {
    let bus = CommandBus::new(db.clone(), FeedSignal::default());
    for id in ["ann", "bob", "cy"] {
        sign_up(&bus, id).await;
    }

    // Stored sealed under the owner's id; read back plain.
    let ann = stored_sign_up(&db, "ann").await;
    let sealed_email = ann["UserSignedUp"]["email"].as_str().unwrap().to_string();
    assert!(sealed_email.starts_with("sealed:v1:ann:"), "{sealed_email}");
    assert!(!ann.to_string().contains("ann@example.com") && !ann.to_string().contains("the person"), "{ann}");
    assert_eq!(ann["UserSignedUp"]["is_admin"], false, "fields that are not personal stay as they are");
    let read = read_sign_up(&db, "ann").await;
    assert_eq!((read["email"].as_str(), read["username"].as_str()), (Some("ann@example.com"), Some("ann the person")));
    let seal_again = stored_sign_up(&db, "bob").await["UserSignedUp"]["email"].as_str().unwrap().to_string();
    assert_ne!(seal_again.split(':').nth(3), sealed_email.split(':').nth(3), "every value has its own nonce");

    // A sealed value copied into another account's event, or another field, does not open.
    let mut bob = stored_sign_up(&db, "bob").await;
    bob["UserSignedUp"]["email"] = Value::String(sealed_email.clone());
    store_sign_up(&db, "bob", &bob).await;
    assert_eq!(read_sign_up(&db, "bob").await["email"], personal::erased_email("ann"));
    let mut moved = ann.clone();
    moved["UserSignedUp"]["username"] = Value::String(sealed_email.clone());
    store_sign_up(&db, "ann", &moved).await;
    assert_eq!(read_sign_up(&db, "ann").await["username"], ERASED_NAME);
    store_sign_up(&db, "ann", &ann).await;

    // A value stored plain (before sealing existed) reads as it is.
    let mut cy = stored_sign_up(&db, "cy").await;
    cy["UserSignedUp"]["email"] = Value::String("cy-before@example.com".into());
    store_sign_up(&db, "cy", &cy).await;
    assert_eq!(read_sign_up(&db, "cy").await["email"], "cy-before@example.com");

    // The key destroyed: ann's values read as erased everywhere, cy's are untouched, and nothing
    // new of ann's can be sealed.
    let mut tx = db.begin().await.unwrap();
    personal::destroy_key(&mut tx, "ann").await.unwrap();
    tx.commit().await.unwrap();
    let read = read_sign_up(&db, "ann").await;
    assert_eq!(read["email"], personal::erased_email("ann"));
    assert_eq!(read["username"], ERASED_NAME);
    assert_eq!(read["password_hash"], "");
    assert_eq!(read_sign_up(&db, "cy").await["username"], "cy the person");
    let change = UserCommand::UpdateProfile(ProfileChange { username: Some("ann again".into()), ..Default::default() });
    let refused = bus.execute(&bus.users, "ann", change, &meta("ann")).await;
    assert!(matches!(&refused, Err(CommandError::Store(e)) if e.detail.contains("erased")), "{refused:?}");
    assert_eq!(feed::read_aggregate(&db, "user", "ann").await.unwrap().len(), 1, "nothing was written");
});
