//! The event hash chain: written with every event on both backends, verified, and broken by any
//! direct edit, deletion or reordering of the stored history, which verification names.

use std::collections::BTreeMap;
use std::str::FromStr;
use std::time::Duration;

use commands::bus::CommandBus;
use commands::chain::{self, AuditKey, Link, Verification};
use commands::feed::{self, Cursor, FeedSignal};
use commands::store::{Arg, Db};
use domain::user::UserCommand;
use testkit::db::postgres_url;
use testkit::on_both_backends;

use testkit::db::metadata as meta;

async fn sign_up(bus: &CommandBus, id: &str) -> Cursor {
    bus.execute(
        &bus.users,
        id,
        UserCommand::SignUp {
            email: format!("{id}@example.com"),
            username: id.to_string(),
            password_hash: "$argon2id$test".to_string(),
            is_admin: false,
        },
        &meta(id),
    )
    .await
    .unwrap()
    .expect("the sign-up wrote an event")
}

/// Six events: four sign-ups, and two flags set on one user.
async fn history(db: &Db) -> CommandBus {
    let bus = CommandBus::new(db.clone(), FeedSignal::default());
    for id in ["ann", "bob", "cy", "dee"] {
        sign_up(&bus, id).await;
    }
    for value in ["on", "off"] {
        let command = UserCommand::SetFeatureFlag { flag: "my_feeds".to_string(), value: value.to_string() };
        bus.execute(&bus.users, "ann", command, &meta("ann")).await.unwrap().expect("the flag changed");
    }
    // Postgres chains events just after they commit: as a server's runner would, now.
    chain_all(db).await;
    bus
}

/// Chains every committed event (Postgres chains after commit, behind the feed's fence, which
/// any transaction open in the cluster, another test's say, holds back for a moment). Returns
/// how many it chained.
async fn chain_all(db: &Db) -> u64 {
    #[derive(sqlx::FromRow)]
    struct N {
        n: i64,
    }
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    let mut chained = 0;
    loop {
        chained += chain::advance(db).await.unwrap();
        let unchained = match db {
            Db::Sqlite { .. } => "SELECT COUNT(*) AS n FROM events WHERE chain_hash IS NULL",
            Db::Postgres(_) => {
                "SELECT COUNT(*) AS n FROM events e WHERE NOT EXISTS (SELECT 1 FROM event_chain c \
                 WHERE (c.transaction_id, c.global_position) = (e.transaction_id, e.global_position))"
            }
        };
        let left: Option<N> = db.fetch_optional(unchained, vec![]).await.unwrap();
        if left.map_or(0, |l| l.n) == 0 {
            return chained;
        }
        assert!(tokio::time::Instant::now() < deadline, "events stay unchained");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// Chains what is pending (Postgres chains just after commit), then walks the whole chain.
async fn verify(db: &Db) -> Verification {
    chain_all(db).await;
    chain::verify(db, None, &BTreeMap::new()).await.unwrap()
}

async fn count(db: &Db) -> i64 {
    #[derive(sqlx::FromRow)]
    struct N {
        n: i64,
    }
    let row: Option<N> = db.fetch_optional("SELECT COUNT(*) AS n FROM events", vec![]).await.unwrap();
    row.unwrap().n
}

/// A condition on `events` that picks the event at chain position `n`. SQLite's chain position
/// is the feed's; Postgres keeps the links in `event_chain`, joined to the events by feed cursor.
fn event_at(db: &Db, n: i64) -> String {
    match db {
        Db::Sqlite { .. } => format!("global_position = {n}"),
        Db::Postgres(_) => format!(
            "(transaction_id, global_position) = (SELECT transaction_id, global_position FROM event_chain \
             WHERE position = {n})"
        ),
    }
}

/// Where the links are kept: the table, its chain position column and its hash column.
fn links(db: &Db) -> (&'static str, &'static str, &'static str) {
    match db {
        Db::Sqlite { .. } => ("events", "global_position", "chain_hash"),
        Db::Postgres(_) => ("event_chain", "position", "hash"),
    }
}

fn json(db: &Db, text: &str) -> String {
    match db {
        Db::Sqlite { .. } => format!("'{text}'"),
        Db::Postgres(_) => format!("'{text}'::json"),
    }
}

on_both_backends!(every_event_is_chained_as_it_is_written, |db: Db| async move {
    let empty = verify(&db).await;
    assert!(empty.intact());
    assert_eq!(empty.head, None, "no head before the first event");
    history(&db).await;
    let v = verify(&db).await;
    assert!(v.intact(), "{:?}", v.first_break);
    assert_eq!(v.events_checked, 6);
    let head = v.head.expect("a head");
    assert_eq!(head.position, 6);
    assert_eq!(v.verified_through.expect("verified").hash, head.hash);
    // Verifying from the middle trusts the stored hash before it and checks the rest.
    let tail = chain::verify(&db, Some(4), &BTreeMap::new()).await.unwrap();
    assert!(tail.intact());
    assert_eq!(tail.events_checked, 3);
});

on_both_backends!(
    events_committed_but_not_chained_yet_are_pending_and_then_chained_in_feed_order,
    |db: Db| async move {
        let bus = history(&db).await;
        sign_up(&bus, "late").await;
        sign_up(&bus, "later").await;
        let before = chain::verify(&db, None, &BTreeMap::new()).await.unwrap();
        assert!(before.intact(), "pending events are not a break: {:?}", before.first_break);
        let chained = chain_all(&db).await;
        match &db {
            Db::Sqlite { .. } => assert_eq!(chained, 0, "SQLite chains each event in its own transaction"),
            Db::Postgres(_) => {
                assert_eq!(before.events_checked, 6, "the walk stops at the head");
                assert_eq!(chained, 2);
            }
        }
        assert_eq!(chain::advance(&db).await.unwrap(), 0, "nothing is chained twice");
        let after = verify(&db).await;
        assert!(after.intact(), "{:?}", after.first_break);
        assert_eq!(after.events_checked, 8);
        // The chain's order is the feed's.
        #[derive(sqlx::FromRow)]
        struct N {
            n: i64,
        }
        let sql = match &db {
            Db::Sqlite { .. } => "SELECT global_position AS n FROM events ORDER BY global_position",
            Db::Postgres(_) => {
                "SELECT c.position AS n FROM events e JOIN event_chain c \
                 ON (c.transaction_id, c.global_position) = (e.transaction_id, e.global_position) \
                 ORDER BY e.transaction_id, e.global_position"
            }
        };
        let positions: Vec<i64> = db.fetch_all::<N>(sql, vec![]).await.unwrap().into_iter().map(|r| r.n).collect();
        assert_eq!(positions, (1..=8).collect::<Vec<i64>>());
    }
);

on_both_backends!(an_edited_payload_is_found_at_its_position, |db: Db| async move {
    history(&db).await;
    let changed = db
        .execute(
            &format!("UPDATE events SET payload = {} WHERE {}", json(&db, r#"{"Edited":{}}"#), event_at(&db, 3)),
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(changed, 1);
    let broken = verify(&db).await.first_break.expect("the edit breaks the chain");
    assert_eq!(broken.position, 3, "{}", broken.reason);
    assert!(broken.reason.contains("does not match its hash"), "{}", broken.reason);
});

on_both_backends!(edited_metadata_is_found_at_its_position, |db: Db| async move {
    history(&db).await;
    db.execute(
        &format!(
            "UPDATE events SET metadata = {} WHERE {}",
            json(&db, r#"{"user_id":"someone-else"}"#),
            event_at(&db, 5)
        ),
        vec![],
    )
    .await
    .unwrap();
    assert_eq!(verify(&db).await.first_break.expect("broken").position, 5);
});

on_both_backends!(a_deleted_event_is_found_where_it_was, |db: Db| async move {
    history(&db).await;
    db.execute(&format!("DELETE FROM events WHERE {}", event_at(&db, 4)), vec![]).await.unwrap();
    let broken = verify(&db).await.first_break.expect("the deletion breaks the chain");
    assert_eq!(broken.position, 4);
    assert!(broken.reason.contains("missing"), "{}", broken.reason);
});

on_both_backends!(an_event_cut_from_the_end_is_found, |db: Db| async move {
    history(&db).await;
    db.execute(&format!("DELETE FROM events WHERE {}", event_at(&db, 6)), vec![]).await.unwrap();
    let broken = verify(&db).await.first_break.expect("the cut breaks the chain");
    assert_eq!(broken.position, 6);
    assert!(broken.reason.contains("removed from the end"), "{}", broken.reason);
});

on_both_backends!(a_removed_chain_head_is_found, |db: Db| async move {
    history(&db).await;
    db.execute("DELETE FROM event_chain_head", vec![]).await.unwrap();
    let broken = verify(&db).await.first_break.expect("a history without its head is broken");
    assert_eq!(broken.position, 6);
    assert!(broken.reason.contains("head is missing"), "{}", broken.reason);
});

on_both_backends!(two_events_swapped_are_found_at_the_first, |db: Db| async move {
    history(&db).await;
    let (table, col, _) = links(&db);
    for (from, to) in [(2, -2), (5, 2), (-2, 5)] {
        db.execute(&format!("UPDATE {table} SET {col} = $1 WHERE {col} = $2"), vec![Arg::Int(to), Arg::Int(from)])
            .await
            .unwrap();
    }
    assert_eq!(count(&db).await, 6);
    assert_eq!(verify(&db).await.first_break.expect("the swap breaks the chain").position, 2);
});

#[derive(sqlx::FromRow)]
struct Row {
    position: i64,
    aggregate_type: String,
    aggregate_id: String,
    sequence: i64,
    event_type: String,
    event_version: String,
    payload: String,
    metadata: String,
}

on_both_backends!(a_history_rewritten_with_fresh_hashes_is_caught_by_a_checkpoint, |db: Db| async move {
    history(&db).await;
    let key = AuditKey::generate();
    let checkpoint = chain::checkpoint(&db, &key, chrono::Utc::now()).await.unwrap().expect("a checkpoint");
    assert_eq!(checkpoint.position, 6);
    assert!(checkpoint.signature_holds());
    assert_eq!(chain::checkpoints(&db, 10).await.unwrap(), vec![checkpoint.clone()]);

    // Someone with write access edits event 2 and recomputes every hash after it and the head.
    db.execute(
        &format!("UPDATE events SET payload = {} WHERE {}", json(&db, r#"{"Forged":{}}"#), event_at(&db, 2)),
        vec![],
    )
    .await
    .unwrap();
    let chained = match &db {
        Db::Sqlite { .. } => {
            "SELECT global_position AS position, aggregate_type, aggregate_id, sequence, event_type, \
                              event_version, payload, metadata FROM events ORDER BY global_position"
        }
        Db::Postgres(_) => {
            "SELECT c.position, aggregate_type, aggregate_id, sequence, event_type, event_version, \
             payload::text AS payload, metadata::text AS metadata FROM events e JOIN event_chain c \
             ON (c.transaction_id, c.global_position) = (e.transaction_id, e.global_position) ORDER BY c.position"
        }
    };
    let rows: Vec<Row> = db.fetch_all(chained, vec![]).await.unwrap();
    let (table, col, hash) = links(&db);
    let mut prev = chain::GENESIS.to_string();
    for row in &rows {
        prev = chain::link(&Link {
            prev: &prev,
            position: row.position,
            aggregate_type: &row.aggregate_type,
            aggregate_id: &row.aggregate_id,
            sequence: row.sequence,
            event_type: &row.event_type,
            event_version: &row.event_version,
            payload: &row.payload,
            metadata: &row.metadata,
        });
        db.execute(
            &format!("UPDATE {table} SET {hash} = $1 WHERE {col} = $2"),
            vec![Arg::Text(prev.clone()), Arg::Int(row.position)],
        )
        .await
        .unwrap();
    }
    db.execute("UPDATE event_chain_head SET hash = $1 WHERE id = 1", vec![Arg::Text(prev)]).await.unwrap();

    assert!(verify(&db).await.intact(), "the rewrite is self-consistent: the chain alone cannot tell");
    let anchors = BTreeMap::from([(checkpoint.position, checkpoint.hash.clone())]);
    let broken = chain::verify(&db, None, &anchors).await.unwrap().first_break.expect("the checkpoint tells");
    assert_eq!(broken.position, 6);
    assert!(broken.reason.contains("checkpoint"), "{}", broken.reason);
});

on_both_backends!(concurrent_writers_leave_one_unbroken_chain, |db: Db| async move {
    let bus = std::sync::Arc::new(CommandBus::new(db.clone(), FeedSignal::default()));
    let mut writers = Vec::new();
    for w in 0..8 {
        let bus = bus.clone();
        writers.push(tokio::spawn(async move {
            for i in 0..15 {
                sign_up(&bus, &format!("w{w}-u{i}")).await;
            }
        }));
    }
    // A walk while they write sees an intact chain up to the head it started from: events
    // appended meanwhile are the next walk's, not a head left behind.
    while !writers.iter().all(|w| w.is_finished()) {
        let v = verify(&db).await;
        assert!(v.intact(), "verified while writers append: {:?}", v.first_break);
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    for writer in writers {
        writer.await.unwrap();
    }
    let v = verify(&db).await;
    assert!(v.intact(), "{:?}", v.first_break);
    assert_eq!(v.events_checked, 120);
    assert_eq!(count(&db).await, 120);
    // The feed still hands every event out once.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    loop {
        let all = feed::read_after(&db, Cursor::START, 1000).await.unwrap();
        if all.len() == 120 {
            break;
        }
        assert!(tokio::time::Instant::now() < deadline, "the feed shows {} of 120", all.len());
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
});

/// Events recorded before the chain existed are chained, in feed order, by the migration that
/// brings it; the chain then goes on from them.
#[tokio::test]
async fn the_migration_chains_an_existing_sqlite_history() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("needl.db");
    let options = sqlx::sqlite::SqliteConnectOptions::new().filename(&file).create_if_missing(true);
    let pool = sqlx::sqlite::SqlitePoolOptions::new()
        .max_connections(1)
        .after_connect(|conn, _| Box::pin(chain::register_sqlite(conn)))
        .connect_with(options)
        .await
        .unwrap();
    let mut migrator = sqlx::migrate!("../migrations/sqlite");
    migrator.migrations = migrator.migrations.iter().filter(|m| m.version < 17).cloned().collect::<Vec<_>>().into();
    migrator.run(&pool).await.unwrap();
    insert_probes(&Db::Sqlite { write: pool.clone(), read: pool.clone() }, 5).await;
    pool.close().await;

    let db = Db::open_sqlite(dir.path()).await.unwrap();
    after_the_migration(&db).await;
}

#[tokio::test]
async fn the_migration_chains_an_existing_postgres_history() {
    let schema = format!("t_{}", uuid::Uuid::new_v4().simple());
    let admin = sqlx::PgPool::connect(&postgres_url()).await.unwrap();
    sqlx::query(&format!("CREATE SCHEMA {schema}")).execute(&admin).await.unwrap();
    admin.close().await;
    let options = sqlx::postgres::PgConnectOptions::from_str(&postgres_url())
        .unwrap()
        .options([("search_path", schema.as_str())]);
    let pool = sqlx::PgPool::connect_with(options.clone()).await.unwrap();
    let mut migrator = sqlx::migrate!("../migrations/postgres");
    migrator.migrations = migrator.migrations.iter().filter(|m| m.version < 17).cloned().collect::<Vec<_>>().into();
    migrator.run(&pool).await.unwrap();
    insert_probes(&Db::Postgres(pool.clone()), 5).await;
    pool.close().await;

    let db = Db::open_postgres_with(options).await.unwrap();
    after_the_migration(&db).await;
}

async fn insert_probes(db: &Db, n: i64) {
    let payload = match db {
        Db::Sqlite { .. } => "$2",
        Db::Postgres(_) => "$2::json",
    };
    for i in 1..=n {
        db.execute(
            &format!(
                "INSERT INTO events (aggregate_type, aggregate_id, sequence, event_type, event_version, payload, \
                 metadata) VALUES ('probe', $1, 1, 'Probed', '1', {payload}, {payload})"
            ),
            vec![Arg::Text(format!("p{i}")), Arg::Text(format!(r#"{{"n":{i}}}"#))],
        )
        .await
        .unwrap();
    }
}

async fn after_the_migration(db: &Db) {
    let v = verify(db).await;
    assert!(v.intact(), "{:?}", v.first_break);
    assert_eq!(v.events_checked, 5);
    assert_eq!(v.head.as_ref().map(|h| h.position), Some(5));
    insert_probes_after(db).await;
    let v = verify(db).await;
    assert!(v.intact(), "{:?}", v.first_break);
    assert_eq!(v.events_checked, 6);
}

async fn insert_probes_after(db: &Db) {
    let bus = CommandBus::new(db.clone(), FeedSignal::default());
    sign_up(&bus, "after").await;
}
