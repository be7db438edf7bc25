//! The live pipeline killed under load: a `needl` process follows the feed into every read model
//! while writers offer 5,000 events a second (single commands, as requests make them, and units
//! of twenty events, as imports write them); it is killed (SIGKILL) at random moments and
//! restarted, the writers never stopping. The rate reached is printed (`--nocapture`; run with
//! `--release` for a figure that means something). Once the last server has caught up, every
//! read model must equal the same model rebuilt from zero: nothing lost, nothing applied twice,
//! whatever the batch the kill cut through. On SQLite (the writers on the server's own database
//! file, as `needl import` writes) and on Postgres.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use commands::feed::FeedSignal;
use commands::{CommandBus, Db};
use domain::session::{Session, SessionCommand};
use domain::tag::{TagBook, TagCommand};
use domain::user::{User, UserCommand};
use projections::runner::{self, Projection};
use rand::Rng;

use crate::support::*;

#[tokio::test]
async fn read_models_of_a_server_killed_under_load_equal_a_rebuild_on_sqlite() {
    killed_under_load(None).await;
}

#[tokio::test]
async fn read_models_of_a_server_killed_under_load_equal_a_rebuild_on_postgres() {
    let schema = testkit::db::postgres_schema().await;
    killed_under_load(Some(testkit::db::in_schema(&testkit::db::postgres_url(), &schema))).await;
}

/// How many times the server is killed, and how many writers append meanwhile: the first
/// [`SINGLE_WRITERS`] one command at a time, the others a unit of [`UNIT_USERS`] users' rounds at
/// a time.
const KILLS: usize = 4;
const WRITERS: usize = 12;
const SINGLE_WRITERS: usize = 4;
const UNIT_USERS: usize = 4;
/// The events a second the writers offer together; they go no faster, and print what they reach.
const OFFERED: f64 = 5_000.0;

async fn killed_under_load(database: Option<String>) {
    let dir = tempfile::tempdir().unwrap();
    let env: Vec<(&str, String)> = database.iter().map(|url| ("DATABASE_URL", url.clone())).collect();
    let mut server = spawn_binary_in(dir.path(), &[], &env).await;
    let db = Db::open(database.as_deref(), dir.path()).await.unwrap();

    // Writers: sign-ups, sessions, preference changes and tags, so that several read models move.
    let bus = Arc::new(CommandBus::new(db.clone(), FeedSignal::default()));
    let stop = Arc::new(AtomicBool::new(false));
    let written = Arc::new(AtomicU64::new(0));
    let started = Instant::now();
    let mut writers = Vec::new();
    for w in 0..WRITERS {
        let (bus, stop, written) = (bus.clone(), stop.clone(), written.clone());
        writers.push(tokio::spawn(async move {
            let mut i = 0;
            while !stop.load(Ordering::Relaxed) {
                // Paced: a round starts once the rounds before it are due at the offered rate.
                let due = Duration::from_secs_f64(written.load(Ordering::Relaxed) as f64 / OFFERED);
                tokio::time::sleep_until((started + due).into()).await;
                let users: Vec<String> = (0..UNIT_USERS).map(|u| format!("w{w}-{i}-{u}")).collect();
                if w < SINGLE_WRITERS {
                    write_round(&bus, &users[0]).await;
                    written.fetch_add(ROUND_EVENTS, Ordering::Relaxed);
                } else {
                    write_rounds_together(&bus, &users).await;
                    written.fetch_add(ROUND_EVENTS * UNIT_USERS as u64, Ordering::Relaxed);
                }
                i += 1;
            }
        }));
    }

    let mut rng = rand::rng();
    for _ in 0..KILLS {
        tokio::time::sleep(Duration::from_millis(rng.random_range(300..1500))).await;
        server.child.kill().unwrap();
        server.child.wait().unwrap();
        // Down for a moment while the writers go on.
        tokio::time::sleep(Duration::from_millis(rng.random_range(0..300))).await;
        server = spawn_binary_in(dir.path(), &[], &env).await;
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    stop.store(true, Ordering::Relaxed);
    for writer in writers {
        writer.await.unwrap();
    }
    let events = written.load(Ordering::Relaxed);
    let rate = events as f64 / started.elapsed().as_secs_f64();
    eprintln!(
        "{events} events written at {rate:.0}/s ({OFFERED:.0}/s offered) while the server was killed {KILLS} times"
    );
    assert!(events >= 500, "the writers wrote too little to cut batches: {events}");

    // The last server catches up to the last event written, then is killed too.
    // Not the feed's head: on Postgres a transaction of the server's own (its chaining, a
    // runner's step) opened before the writers' last commits can hold it back from them.
    let head = commands::feed::newest_committed(&db).await.unwrap();
    let chosen = projections::all();
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let mut behind = Vec::new();
        for projection in &chosen {
            if runner::checkpoint(&db, projection.name()).await.unwrap() < head {
                behind.push(projection.name());
            }
        }
        if behind.is_empty() {
            break;
        }
        assert!(Instant::now() < deadline, "read models never caught up to {head}: {behind:?}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    server.child.kill().unwrap();
    server.child.wait().unwrap();

    let live = dump(&db, &chosen).await;
    assert!(live.values().map(Vec::len).sum::<usize>() as u64 >= events / 5, "the read models hold the users at least");
    let together: Vec<&dyn Projection> = chosen.iter().map(|p| p.as_ref()).collect();
    runner::rebuild(&db, &together).await.unwrap();
    let rebuilt = dump(&db, &chosen).await;
    for (table, rows) in &live {
        let again = &rebuilt[table];
        assert!(
            rows == again,
            "read model table {table}: {} rows live, {} rebuilt; first difference: {:?}",
            rows.len(),
            again.len(),
            first_difference(rows, again)
        );
    }
}

/// The events of one user's round.
const ROUND_EVENTS: u64 = 5;

/// One user's round: five events over four aggregates (a sign-up, a session, a preference, two
/// tags), as commands.
fn round(user: &str) -> (UserCommand, SessionCommand, UserCommand, Vec<TagCommand>) {
    let sign_up = UserCommand::SignUp {
        email: format!("{user}@example.com"),
        username: user.to_string(),
        password_hash: "$argon2id$test".to_string(),
        is_admin: false,
    };
    let session = SessionCommand::Start {
        user_id: user.to_string(),
        expires_at: chrono::Utc::now() + chrono::Duration::hours(1),
        rotated_from: None,
    };
    let preferences = UserCommand::ChangePreferences { nav_state: None, askneedl_pro: Some(true) };
    let tags = ["Mining", "Rates"]
        .into_iter()
        .map(|name| TagCommand::Create {
            user_id: user.to_string(),
            tag_id: format!("{user}-{name}"),
            name: name.into(),
        })
        .collect();
    (sign_up, session, preferences, tags)
}

/// One user's round, one command at a time.
async fn write_round(bus: &CommandBus, user: &str) {
    let meta = testkit::db::metadata(user);
    let (sign_up, session, preferences, tags) = round(user);
    bus.execute(&bus.users, user, sign_up, &meta).await.unwrap();
    bus.execute(&bus.sessions, &format!("s-{user}"), session, &meta).await.unwrap();
    bus.execute(&bus.users, user, preferences, &meta).await.unwrap();
    for tag in tags {
        bus.execute(&bus.tag_books, user, tag, &meta).await.unwrap();
    }
}

/// Several users' rounds in one unit: all their events in one transaction.
async fn write_rounds_together(bus: &CommandBus, users: &[String]) {
    let meta = testkit::db::metadata(&users[0]);
    bus.execute_together(&meta, |mut unit| {
        let users = users.to_vec();
        async move {
            for user in &users {
                let (sign_up, session, preferences, tags) = round(user);
                unit.execute::<User>(user, sign_up).await?;
                unit.execute::<Session>(&format!("s-{user}"), session).await?;
                unit.execute::<User>(user, preferences).await?;
                for tag in tags {
                    unit.execute::<TagBook>(user, tag).await?;
                }
            }
            Ok::<_, anyhow::Error>((unit, ()))
        }
    })
    .await
    .unwrap();
}

/// Every row of every table of `chosen`, as text, sorted, by table.
async fn dump(db: &Db, chosen: &[Arc<dyn Projection>]) -> std::collections::BTreeMap<String, Vec<String>> {
    #[derive(sqlx::FromRow)]
    struct Text {
        t: String,
    }
    let mut out = std::collections::BTreeMap::new();
    for projection in chosen {
        for table in projection.tables() {
            let sql = match db {
                Db::Postgres(_) => format!("SELECT row_to_json(r)::text AS t FROM {table} r"),
                Db::Sqlite { .. } => {
                    let columns: Vec<Text> = db
                        .fetch_all(&format!("SELECT name AS t FROM pragma_table_info('{table}')"), vec![])
                        .await
                        .unwrap();
                    let list: Vec<String> = columns.into_iter().map(|c| format!("quote(\"{}\")", c.t)).collect();
                    format!("SELECT {} AS t FROM {table}", list.join(" || ',' || "))
                }
            };
            let mut rows: Vec<String> =
                db.fetch_all::<Text>(&sql, vec![]).await.unwrap().into_iter().map(|r| r.t).collect();
            rows.sort();
            out.insert(table.to_string(), rows);
        }
    }
    out
}

fn first_difference(a: &[String], b: &[String]) -> Option<(Option<String>, Option<String>)> {
    let only_a = a.iter().find(|r| !b.contains(r)).cloned();
    let only_b = b.iter().find(|r| !a.contains(r)).cloned();
    (only_a.is_some() || only_b.is_some()).then_some((only_a, only_b))
}
