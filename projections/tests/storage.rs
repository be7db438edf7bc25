//! The storage contract: every test here runs against SQLite and against the real Postgres.
//!
//! Postgres is reached at `NEEDL_TEST_DATABASE_URL` (default: the local `test` database); each
//! test gets a schema of its own (`testkit::db`).

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::{Duration, Instant};

use async_trait::async_trait;
use commands::args;
use commands::bus::CommandBus;
use commands::feed::{self, Cursor, FeedSignal, StoredEvent};
use commands::store::{Db, Tx};
use domain::session::SessionCommand;
use domain::user::{NavState, UserCommand};
use projections::runner::{self, Projection};
use projections::{accounts::Accounts, queries, sessions::Sessions};
use rand::{Rng, SeedableRng};
use testkit::db::postgres;
use testkit::on_both_backends;

use testkit::db::metadata as meta;

/// Waits until feed readers can see everything up to `cursor`. On Postgres any transaction open
/// anywhere in the cluster (another test's, say) holds the feed's fence back for a moment.
async fn settle_feed(db: &Db, cursor: Cursor) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    while feed::head(db).await.unwrap() < cursor {
        assert!(tokio::time::Instant::now() < deadline, "the feed never reached {cursor}");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

async fn sign_up(bus: &CommandBus, id: &str) -> Cursor {
    let cursor = bus
        .execute(
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
        .expect("the sign-up wrote an event");
    settle_feed(&bus.db, cursor).await;
    cursor
}

async fn read_all(db: &Db) -> Vec<StoredEvent> {
    let mut out = Vec::new();
    let mut at = Cursor::START;
    loop {
        let page = feed::read_after(db, at, 100).await.unwrap();
        let Some(last) = page.last() else { break };
        at = last.cursor;
        out.extend(page);
    }
    out
}

on_both_backends!(events_carry_their_metadata_and_a_feed_position, |db: Db| async move {
    let bus = CommandBus::new(db.clone(), FeedSignal::default());
    sign_up(&bus, "u1").await;
    let events = read_all(&db).await;
    assert_eq!(events.len(), 1);
    let event = &events[0];
    assert_eq!(event.event_type, "UserSignedUp");
    assert!(event.cursor > Cursor::START);
    for key in ["user_id", "request_id", "app_type", "request_origin", "time"] {
        assert!(event.metadata.get(key).is_some(), "metadata lacks {key}");
    }
    assert_eq!(event.metadata["app_type"], "test");
});

on_both_backends!(concurrent_commands_on_one_aggregate_all_land_in_sequence, |db: Db| async move {
    let bus = Arc::new(CommandBus::new(db.clone(), FeedSignal::default()));
    sign_up(&bus, "busy").await;
    let mut tasks = Vec::new();
    for i in 0..12 {
        let bus = bus.clone();
        tasks.push(tokio::spawn(async move {
            bus.execute(
                &bus.users,
                "busy",
                UserCommand::ChangePreferences {
                    nav_state: Some(if i % 2 == 0 { NavState::Opened } else { NavState::Closed }),
                    askneedl_pro: Some(i % 3 == 0),
                },
                &meta("busy"),
            )
            .await
        }));
    }
    for task in tasks {
        task.await.unwrap().expect("each command lands after retries");
    }
    let history = feed::read_aggregate(&db, "user", "busy").await.unwrap();
    let sequences: Vec<i64> = history.iter().map(|e| e.sequence).collect();
    let expected: Vec<i64> = (1..=history.len() as i64).collect();
    assert_eq!(sequences, expected, "no gaps and no duplicates in the aggregate's sequence");
    assert!(history.len() >= 2, "at least one preference change was recorded");
});

on_both_backends!(a_command_on_a_just_named_aggregate_still_answers_as_its_history_says, |db: Db| async move {
    let bus = CommandBus::new(db.clone(), FeedSignal::default());
    let sign_up = |id: &str| UserCommand::SignUp {
        email: format!("{id}@example.com"),
        username: id.to_string(),
        password_hash: "$argon2id$test".to_string(),
        is_admin: false,
    };
    // A new id: decided on the empty aggregate, written at sequence 1, its cursor answered.
    let cursor = commands::just_named(bus.execute(&bus.users, "new", sign_up("new"), &meta("new"))).await.unwrap();
    let history = feed::read_aggregate(&db, "user", "new").await.unwrap();
    assert_eq!(history.iter().map(|e| e.sequence).collect::<Vec<_>>(), vec![1]);
    assert_eq!(cursor, Some(history[0].cursor));

    // An id that has a history after all: the second sign-up is refused as the loaded account
    // refuses it, and nothing is written.
    let again = commands::just_named(bus.execute(&bus.users, "new", sign_up("new"), &meta("new"))).await;
    assert!(matches!(again, Err(commands::CommandError::Domain(_))), "{again:?}");
    assert_eq!(feed::read_aggregate(&db, "user", "new").await.unwrap().len(), 1);

    // A command the empty aggregate refuses but the stored one accepts lands after the account.
    let change = UserCommand::ChangePreferences { nav_state: Some(NavState::Closed), askneedl_pro: None };
    commands::just_named(bus.execute(&bus.users, "new", change, &meta("new")))
        .await
        .expect("the loaded account takes the change");
    let history = feed::read_aggregate(&db, "user", "new").await.unwrap();
    assert_eq!(history.iter().map(|e| e.sequence).collect::<Vec<_>>(), vec![1, 2]);
    assert_eq!(history[1].event_type, "PreferencesChanged");
});

on_both_backends!(held_writes_store_every_value_as_bound_ones_would_and_reads_see_them, |db: Db| async move {
    db.execute("CREATE TABLE held_probe (k TEXT PRIMARY KEY, n BIGINT, b BOOLEAN NOT NULL, t TEXT)", vec![])
        .await
        .unwrap();
    let awkward = [
        "plain",
        "O'Brien's ''doubled''",
        r"back\slash \' and \\",
        "$1 and $2 and '$3'",
        "ünïcödé, emoji 🚀, newline\nand tab\t",
        "-- not a comment; /* nor this */ DROP TABLE held_probe;",
        "",
    ];
    let rows = |tag: &str| -> Vec<(String, Option<i64>, bool, Option<String>)> {
        awkward
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let n = [Some(i64::MAX), Some(-42), None, Some(0), Some(i64::MIN + 1), Some(7), Some(1)][i];
                (format!("{tag}-{i}"), n, i % 2 == 0, (i != 3).then(|| s.to_string()))
            })
            .collect()
    };
    let insert = "INSERT INTO held_probe (k, n, b, t) VALUES ($1, $2, $3, $4)";
    let args_of = |(k, n, b, t): &(String, Option<i64>, bool, Option<String>)| -> Vec<commands::store::Arg> {
        let n = match n {
            Some(n) => commands::store::Arg::Int(*n),
            None => commands::store::Arg::OptText(None),
        };
        vec![k.into(), n, commands::store::Arg::Bool(*b), commands::store::Arg::OptText(t.clone())]
    };
    let mut tx = db.begin().await.unwrap();
    for row in rows("bound") {
        tx.write(insert, args_of(&row)).await.unwrap();
    }
    tx.hold_writes();
    for row in rows("held") {
        tx.write(insert, args_of(&row)).await.unwrap();
    }
    let read: Vec<(String, Option<i64>, bool, Option<String>)> =
        tx.fetch_all("SELECT k, n, b, t FROM held_probe WHERE k LIKE 'held-%' ORDER BY k", vec![]).await.unwrap();
    assert_eq!(read, rows("held"), "a read in the transaction sees the held writes, values intact");

    // Like inserts in a row go as one statement of many rows: a column NULL in every one of them
    // still takes its own type, and rows a conflict skips are skipped as one by one.
    let skip = "INSERT INTO held_probe (k, n, b, t) VALUES ($1, $2, $3, $4) ON CONFLICT (k) DO NOTHING";
    let none = || commands::store::Arg::OptText(None);
    let bool_ = commands::store::Arg::Bool;
    for (k, b) in [("nulls-1", true), ("nulls-2", false), ("held-0", false), ("nulls-1", false)] {
        tx.write(skip, vec![k.into(), none(), bool_(b), none()]).await.unwrap();
    }
    tx.write(insert, vec!["nulls-3".into(), commands::store::Arg::Int(3), bool_(true), "three".into()]).await.unwrap();
    let read: Vec<(String, Option<i64>, bool, Option<String>)> = tx
        .fetch_all("SELECT k, n, b, t FROM held_probe WHERE k LIKE 'nulls-%' OR k = 'held-0' ORDER BY k", vec![])
        .await
        .unwrap();
    let held_0 = rows("held").remove(0);
    assert_eq!(
        read,
        vec![
            held_0,
            ("nulls-1".to_string(), None, true, None),
            ("nulls-2".to_string(), None, false, None),
            ("nulls-3".to_string(), Some(3), true, Some("three".to_string())),
        ],
        "the first of each key is kept, as statement after statement would keep it"
    );
});

on_both_backends!(a_batch_of_the_feed_reads_as_its_events_one_by_one, |db: Db| async move {
    use domain::tag::TagCommand;
    // Tag ids and names that a batch read packed into one value (SQLite) must give back intact.
    let bus = CommandBus::new(db.clone(), FeedSignal::default());
    let names = ["plain", "O'Brien \"quoted\"", r"back\slash", "ünïcödé 🚀", "tab\tand newline", "[1,\"2\"]"];
    let ids: Vec<String> = (0..names.len()).map(|i| format!("u{i}")).collect();
    let mut last = Cursor::START;
    for (id, name) in ids.iter().zip(names) {
        let create = TagCommand::Create { user_id: id.clone(), tag_id: format!("{id}-{name}"), name: name.into() };
        last = bus.execute(&bus.tag_books, id, create, &meta(id)).await.unwrap().expect("a tag was created");
    }
    settle_feed(&db, last).await;
    let batch = feed::read_after(&db, Cursor::START, 1_000).await.unwrap();
    let mut one_by_one = Vec::new();
    for id in &ids {
        one_by_one.extend(feed::read_aggregate(&db, "tag_book", id).await.unwrap());
    }
    assert_eq!(batch, one_by_one, "the batch holds the same events, in feed order");
    // Newest first, a page at a time.
    let filter = feed::FeedFilter { aggregate_type: Some("tag_book".into()), ..Default::default() };
    let newest = feed::read_filtered_before(&db, None, &filter, 4).await.unwrap();
    let older = feed::read_filtered_before(&db, Some(newest[3].cursor), &filter, 4).await.unwrap();
    let backwards: Vec<StoredEvent> = one_by_one.iter().rev().cloned().collect();
    assert_eq!([newest, older].concat(), backwards);
    // An empty batch.
    assert!(feed::read_after(&db, last, 10).await.unwrap().is_empty());
});

on_both_backends!(held_writes_in_several_scripts_all_land_or_none_do, |db: Db| async move {
    use commands::store::Arg;
    db.execute("CREATE TABLE held_many (k TEXT PRIMARY KEY, n BIGINT NOT NULL)", vec![]).await.unwrap();
    let insert = "INSERT INTO held_many (k, n) VALUES ($1, $2)";
    // Enough writes for several scripts (one goes at 500): every one lands, in the order made,
    // the last one an update of the first row.
    let mut tx = db.begin().await.unwrap();
    tx.hold_writes();
    for i in 0..1_750 {
        tx.write(insert, vec![format!("many-{i:04}").into(), Arg::Int(i)]).await.unwrap();
    }
    tx.write("UPDATE held_many SET n = -1 WHERE k = $1", vec!["many-0000".into()]).await.unwrap();
    tx.commit().await.unwrap();
    let rows: Vec<(String, i64)> = db.fetch_all("SELECT k, n FROM held_many ORDER BY k", vec![]).await.unwrap();
    assert_eq!(rows.len(), 1_750);
    assert_eq!(rows[0], ("many-0000".to_string(), -1), "the update came after the insert it changes");
    assert!(rows[1..].iter().enumerate().all(|(i, (k, n))| *k == format!("many-{:04}", i + 1) && *n == i as i64 + 1));

    // A script that fails on the database (a key already there) fails the call that sends it, or
    // the commit, and nothing the transaction wrote lands, before it or after.
    let mut tx = db.begin().await.unwrap();
    tx.hold_writes();
    let mut failed = None;
    for i in 0..1_500 {
        let k = if i == 10 { "many-0003".to_string() } else { format!("late-{i:04}") };
        if let Err(error) = tx.write(insert, vec![k.into(), Arg::Int(i)]).await {
            failed = Some(error);
            break;
        }
    }
    match failed {
        Some(error) => assert!(
            error.to_string().to_lowercase().contains("unique") || error.to_string().contains("duplicate"),
            "{error}"
        ),
        None => assert!(tx.commit().await.is_err(), "the duplicate key fails the transaction"),
    }
    let late: Vec<(String, i64)> =
        db.fetch_all("SELECT k, n FROM held_many WHERE k LIKE 'late-%'", vec![]).await.unwrap();
    assert!(late.is_empty(), "nothing of the failed transaction landed: {} rows", late.len());
    let n: Vec<(String, i64)> = db.fetch_all("SELECT k, n FROM held_many WHERE k = 'many-0003'", vec![]).await.unwrap();
    assert_eq!(n, vec![("many-0003".to_string(), 3)], "the row already there is untouched");
});

on_both_backends!(concurrent_commands_each_get_their_own_cursor, |db: Db| async move {
    // Forty sign-ups and eight changes of one account at once, the changes losing races on the
    // account: each command is answered the cursor of its own event, whatever was written beside it.
    let bus = Arc::new(CommandBus::new(db.clone(), FeedSignal::default()));
    sign_up(&bus, "contended").await;
    let mut tasks = Vec::new();
    for i in 0..48 {
        let bus = bus.clone();
        tasks.push(tokio::spawn(async move {
            let (id, command) = if i % 6 == 5 {
                let change = UserCommand::ChangePreferences { nav_state: None, askneedl_pro: Some(i % 4 == 1) };
                ("contended".to_string(), change)
            } else {
                let id = format!("batched-{i}");
                let command = UserCommand::SignUp {
                    email: format!("{id}@example.com"),
                    username: id.clone(),
                    password_hash: "$argon2id$test".to_string(),
                    is_admin: false,
                };
                (id, command)
            };
            let cursor = bus.execute(&bus.users, &id, command, &meta(&id)).await.expect("each command lands");
            (id, cursor)
        }));
    }
    let mut signed_up = 0;
    let mut newest = Cursor::START;
    for task in tasks {
        let (id, cursor) = task.await.unwrap();
        newest = newest.max(cursor.unwrap_or(Cursor::START));
        let history = feed::read_aggregate(&db, "user", &id).await.unwrap();
        if id == "contended" {
            // A change that decided nothing new answers the account's newest event, which the
            // history must hold.
            let cursor = cursor.expect("the account has events");
            assert!(history.iter().any(|e| e.cursor == cursor), "the answer is one of the account's events");
        } else {
            signed_up += 1;
            assert_eq!(history.len(), 1, "{id} signed up once");
            assert_eq!(Some(history[0].cursor), cursor, "{id} was answered its own event's cursor");
        }
    }
    assert_eq!(signed_up, 40);
    let history = feed::read_aggregate(&db, "user", "contended").await.unwrap();
    let sequences: Vec<i64> = history.iter().map(|e| e.sequence).collect();
    assert_eq!(sequences, (1..=history.len() as i64).collect::<Vec<_>>(), "no gaps and no duplicates");
    settle_feed(&db, newest).await;
    let all = read_all(&db).await;
    let mut seen = HashSet::new();
    assert!(all.iter().all(|e| seen.insert((e.aggregate_id.clone(), e.sequence))), "no event twice in the feed");
    assert_eq!(all.len(), 1 + 40 + history.len() - 1);
});

/// A test projection that counts how often it saw each event of the aggregate types it reads.
struct Counting(&'static [&'static str]);

#[async_trait]
impl Projection for Counting {
    fn name(&self) -> &'static str {
        "counting"
    }
    fn tables(&self) -> &'static [&'static str] {
        &["counting_view"]
    }
    fn reads(&self) -> &'static [&'static str] {
        self.0
    }
    async fn apply(&self, tx: &mut Tx, event: &StoredEvent) -> anyhow::Result<()> {
        tx.execute(
            "INSERT INTO counting_view (position, times) VALUES ($1, 1) \
             ON CONFLICT (position) DO UPDATE SET times = counting_view.times + 1",
            args![event.cursor.pos],
        )
        .await?;
        Ok(())
    }
}

#[derive(sqlx::FromRow)]
struct Counted {
    position: i64,
    times: i64,
}

async fn create_counting_view(db: &Db) {
    db.execute("CREATE TABLE counting_view (position BIGINT PRIMARY KEY, times BIGINT NOT NULL)", vec![])
        .await
        .unwrap();
}

/// What [`Counting`] counted, by feed position.
async fn counted(db: &Db) -> Vec<Counted> {
    db.fetch_all("SELECT position, times FROM counting_view ORDER BY position", vec![]).await.unwrap()
}

on_both_backends!(a_runner_aborted_between_and_within_batches_loses_and_doubles_nothing, |db: Db| async move {
    create_counting_view(&db).await;
    let bus = CommandBus::new(db.clone(), FeedSignal::default());
    for i in 0..120 {
        sign_up(&bus, &format!("user{i}")).await;
    }
    // Abort the runner at random moments, restarting it each time, until it has caught up.
    let mut rng = rand::rng();
    for _ in 0..40 {
        let db2 = db.clone();
        let task = tokio::spawn(async move {
            loop {
                runner::step(&db2, &Counting(&["user"]), 7).await.unwrap();
            }
        });
        tokio::time::sleep(Duration::from_micros(rng.random_range(0..4000))).await;
        task.abort();
        let _ = task.await;
    }
    runner::catch_up(&db, &Counting(&["user"]), 7).await.unwrap();
    let counted = counted(&db).await;
    let all = read_all(&db).await;
    assert_eq!(counted.len(), all.len(), "every event applied");
    assert!(counted.iter().all(|c| c.times == 1), "no event applied twice");
    let positions: HashSet<i64> = counted.iter().map(|c| c.position).collect();
    assert!(all.iter().all(|e| positions.contains(&e.cursor.pos)));
});

on_both_backends!(a_projection_is_handed_only_the_types_it_reads_and_passes_the_rest, |db: Db| async move {
    create_counting_view(&db).await;
    let bus = CommandBus::new(db.clone(), FeedSignal::default());
    for i in 0..12 {
        let id = format!("user{i}");
        sign_up(&bus, &id).await;
        if i % 3 == 0 {
            let start =
                SessionCommand::Start { user_id: id.clone(), expires_at: chrono::Utc::now(), rotated_from: None };
            bus.execute(&bus.sessions, &format!("s-{id}"), start, &meta(&id)).await.unwrap();
        }
    }
    // The last event is a sign-up, which this projection does not read: its checkpoint passes it.
    sign_up(&bus, "last").await;
    let reached = runner::catch_up(&db, &Counting(&["session"]), 5).await.unwrap();
    let all = read_all(&db).await;
    assert_eq!(reached, all.last().unwrap().cursor, "the checkpoint passes the events it does not read");
    assert_eq!(runner::checkpoint(&db, "counting").await.unwrap(), reached);
    let counted = counted(&db).await;
    let sessions: Vec<i64> = all.iter().filter(|e| e.aggregate_type == "session").map(|e| e.cursor.pos).collect();
    assert_eq!(sessions.len(), 4);
    assert_eq!(
        counted.iter().map(|c| c.position).collect::<Vec<_>>(),
        sessions,
        "every session event, and nothing else"
    );
    assert!(counted.iter().all(|c| c.times == 1));
});

on_both_backends!(a_rebuilt_read_model_equals_the_live_one, |db: Db| async move {
    let bus = CommandBus::new(db.clone(), FeedSignal::default());
    for i in 0..20 {
        let id = format!("r{i}");
        sign_up(&bus, &id).await;
        bus.execute(
            &bus.users,
            &id,
            UserCommand::ChangePreferences { nav_state: Some(NavState::Closed), askneedl_pro: Some(i % 2 == 0) },
            &meta(&id),
        )
        .await
        .unwrap();
        if i % 3 == 0 {
            bus.execute(
                &bus.users,
                &id,
                UserCommand::SetFeatureFlag { flag: "notebooks".into(), value: "off".into() },
                &meta("admin"),
            )
            .await
            .unwrap();
        }
    }
    let last = feed::last_of_aggregate(&db, "user", "r19").await.unwrap().unwrap();
    settle_feed(&db, last).await;
    // Live: follow the feed in small batches as a running server would.
    let signal = FeedSignal::default();
    let (live, tasks) =
        projections::Projections::start(&db, &signal, vec![Arc::new(Accounts), Arc::new(Sessions)]).await.unwrap();
    let head = feed::head(&db).await.unwrap();
    assert!(live.wait_for(head, Duration::from_secs(10)).await);
    for task in tasks {
        task.abort();
    }
    let users_before = queries::all_users(&db).await.unwrap();
    let flags_before = queries::flag_values(&db, "r3").await.unwrap();
    assert_eq!(users_before.len(), 20);
    assert!(flags_before.contains(&("notebooks".to_string(), "off".to_string())));

    runner::reset(&db, &Accounts).await.unwrap();
    assert!(queries::all_users(&db).await.unwrap().is_empty(), "reset empties the view");
    runner::catch_up(&db, &Accounts, 3).await.unwrap();

    assert_eq!(queries::all_users(&db).await.unwrap(), users_before);
    assert_eq!(queries::flag_values(&db, "r3").await.unwrap(), flags_before);
});

/// Accounts, rebuilt by a test that holds the rebuild at one event: the `hold_at`-th event it
/// applies reports through `held` and waits for `resume` (or fails, with `fail`).
struct HeldAccounts {
    hold_at: usize,
    applied: std::sync::atomic::AtomicUsize,
    held: tokio::sync::Notify,
    resume: tokio::sync::Notify,
    fail: bool,
}

impl HeldAccounts {
    fn new(hold_at: usize, fail: bool) -> Arc<HeldAccounts> {
        Arc::new(HeldAccounts {
            hold_at,
            applied: Default::default(),
            held: Default::default(),
            resume: Default::default(),
            fail,
        })
    }
}

#[async_trait]
impl Projection for HeldAccounts {
    fn name(&self) -> &'static str {
        Accounts.name()
    }

    fn tables(&self) -> &'static [&'static str] {
        Accounts.tables()
    }

    fn reads(&self) -> &'static [&'static str] {
        Accounts.reads()
    }

    async fn apply(&self, tx: &mut Tx, event: &StoredEvent) -> anyhow::Result<()> {
        if self.applied.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1 == self.hold_at {
            anyhow::ensure!(!self.fail, "the test's projection fails here");
            self.held.notify_one();
            self.resume.notified().await;
        }
        Accounts.apply(tx, event).await
    }
}

/// The live read models' index names, on Postgres (a swap must keep them: migrations name them).
async fn index_names(db: &Db) -> Vec<String> {
    if db.backend() != commands::store::Backend::Postgres {
        return Vec::new();
    }
    db.fetch_all::<(String,)>(
        "SELECT indexname::text FROM pg_indexes WHERE schemaname = current_schema() \
         AND tablename IN ('users_view', 'feature_flags_view', 'password_reset_links_view') ORDER BY 1",
        vec![],
    )
    .await
    .unwrap()
    .into_iter()
    .map(|(name,)| name)
    .collect()
}

async fn rebuild_schemas(db: &Db) -> i64 {
    if db.backend() != commands::store::Backend::Postgres {
        return 0;
    }
    let (n,): (i64,) = db
        .fetch_optional("SELECT count(*) FROM pg_namespace WHERE nspname = current_schema() || '_rebuild'", vec![])
        .await
        .unwrap()
        .unwrap();
    n
}

on_both_backends!(a_rebuild_builds_beside_the_live_read_model_and_swaps_it_in, |db: Db| async move {
    let bus = CommandBus::new(db.clone(), FeedSignal::default());
    for i in 0..20 {
        sign_up(&bus, &format!("b{i}")).await;
    }
    runner::catch_up(&db, &Accounts, 100).await.unwrap();
    let users_before = queries::all_users(&db).await.unwrap();
    let checkpoint_before = runner::checkpoint(&db, "accounts").await.unwrap();
    let indexes_before = index_names(&db).await;
    assert_eq!(users_before.len(), 20);

    let held = HeldAccounts::new(5, false);
    let rebuilding = tokio::spawn({
        let (db, held) = (db.clone(), held.clone());
        async move { runner::rebuild(&db, &[held.as_ref() as &dyn Projection]).await }
    });
    tokio::time::timeout(Duration::from_secs(30), held.held.notified()).await.expect("the rebuild reached its hold");
    // Midway, readers still get the whole live model, at its checkpoint.
    assert_eq!(queries::all_users(&db).await.unwrap(), users_before, "the live model is untouched while rebuilding");
    assert_eq!(runner::checkpoint(&db, "accounts").await.unwrap(), checkpoint_before);
    // A sign-up while the rebuild runs is in the model it swaps in.
    let late = bus
        .execute(
            &bus.users,
            "late",
            UserCommand::SignUp {
                email: "late@example.com".into(),
                username: "late".into(),
                password_hash: "$argon2id$test".into(),
                is_admin: false,
            },
            &meta("late"),
        )
        .await
        .unwrap()
        .unwrap();
    held.resume.notify_one();
    let at = rebuilding.await.unwrap().expect("the rebuild succeeds");
    assert_eq!(runner::checkpoint(&db, "accounts").await.unwrap(), at);
    if db.backend() == commands::store::Backend::Sqlite {
        // On Postgres a transaction open elsewhere in the cluster (another test's) may hold the
        // feed's fence before it for a moment; then the live runner applies it just below.
        assert!(at >= late, "the swap applied what arrived during the rebuild: {at} < {late}");
    }
    settle_feed(&db, late).await;
    runner::catch_up(&db, &Accounts, 100).await.unwrap();
    let users_after = queries::all_users(&db).await.unwrap();
    assert_eq!(users_after.len(), 21);
    assert!(users_before.iter().all(|u| users_after.contains(u)), "the rebuilt rows equal the live ones");
    assert_eq!(index_names(&db).await, indexes_before, "the swapped tables keep their index names");
    assert_eq!(rebuild_schemas(&db).await, 0, "nothing of the rebuild is left behind");
    // The live runner goes on from the swapped-in checkpoint.
    sign_up(&bus, "after").await;
    runner::catch_up(&db, &Accounts, 100).await.unwrap();
    assert_eq!(queries::all_users(&db).await.unwrap().len(), 22);
});

on_both_backends!(a_rebuild_that_fails_leaves_the_live_read_model_as_it_was, |db: Db| async move {
    let bus = CommandBus::new(db.clone(), FeedSignal::default());
    for i in 0..10 {
        sign_up(&bus, &format!("f{i}")).await;
    }
    runner::catch_up(&db, &Accounts, 100).await.unwrap();
    let users_before = queries::all_users(&db).await.unwrap();
    let checkpoint_before = runner::checkpoint(&db, "accounts").await.unwrap();
    let failing = HeldAccounts::new(4, true);
    let error = runner::rebuild(&db, &[failing.as_ref() as &dyn Projection]).await.unwrap_err();
    assert!(format!("{error:#}").contains("fails here"), "{error:#}");
    assert_eq!(queries::all_users(&db).await.unwrap(), users_before);
    assert_eq!(runner::checkpoint(&db, "accounts").await.unwrap(), checkpoint_before);
    assert_eq!(rebuild_schemas(&db).await, 0, "the copies are dropped");
    // And the next rebuild succeeds.
    runner::rebuild(&db, &[&Accounts as &dyn Projection]).await.unwrap();
    assert_eq!(queries::all_users(&db).await.unwrap(), users_before);
});

#[derive(Debug, PartialEq, sqlx::FromRow)]
struct DocumentTagRow {
    scope_kind: String,
    scope_id: String,
    deeplink: String,
    tag_id: String,
}

#[derive(Debug, PartialEq, sqlx::FromRow)]
struct TagRow {
    tag_id: String,
    name: String,
    name_key: String,
}

async fn tag_views(db: &Db) -> (Vec<TagRow>, Vec<DocumentTagRow>) {
    let tags = db.fetch_all("SELECT tag_id, name, name_key FROM tags_view ORDER BY tag_id", vec![]).await.unwrap();
    let on = db
        .fetch_all(
            "SELECT scope_kind, scope_id, deeplink, tag_id FROM document_tags_view \
             ORDER BY scope_kind, scope_id, deeplink, tag_id",
            vec![],
        )
        .await
        .unwrap();
    (tags, on)
}

on_both_backends!(a_deleted_tag_comes_off_every_document_even_one_tagged_after_it_went, |db: Db| async move {
    use domain::tag::{document_tags_id, shared_tags_id, TagChange, TagCommand, TagDocument};
    use projections::tags::Tags;
    let bus = CommandBus::new(db.clone(), FeedSignal::default());
    let tag_book = |command: TagCommand| {
        let bus = &bus;
        async move { bus.execute(&bus.tag_books, "u1", command, &meta("u1")).await }
    };
    let set = |tags: &[&str]| tags.iter().map(|t| t.to_string()).collect::<std::collections::BTreeSet<_>>();
    let tag = |id: String, deeplink: &str, channel_id: Option<&str>, tags: &[&str]| {
        let command = TagDocument {
            user_id: "u1".into(),
            deeplink: deeplink.into(),
            channel_id: channel_id.map(str::to_string),
            feed_id: None,
            change: TagChange::Replace(set(tags)),
        };
        let bus = &bus;
        async move { bus.execute(&bus.document_tags, &id, command, &meta("u1")).await.unwrap() }
    };
    for (id, name) in [("t1", "Risk"), ("t2", "macro")] {
        tag_book(TagCommand::Create { user_id: "u1".into(), tag_id: id.into(), name: name.into() }).await.unwrap();
    }
    tag(document_tags_id("u1", "d1"), "d1", None, &["t1", "t2", "bookmark"]).await;
    tag(shared_tags_id("c1", "d2"), "d2", Some("c1"), &["t1"]).await;
    tag_book(TagCommand::Delete { user_id: "u1".into(), tag_ids: vec!["t1".into()] }).await.unwrap();
    // The api refuses a deleted tag, but a tagging racing the deletion can still reach the feed.
    tag(document_tags_id("u1", "d3"), "d3", None, &["t1"]).await;
    let last = tag_book(TagCommand::Rename { user_id: "u1".into(), tag_id: "t2".into(), name: "Rates".into() })
        .await
        .unwrap()
        .unwrap();
    settle_feed(&db, last).await;
    runner::catch_up(&db, &Tags, 4).await.unwrap();
    let (tags, on) = tag_views(&db).await;
    assert_eq!(tags, [TagRow { tag_id: "t2".into(), name: "Rates".into(), name_key: "rates".into() }]);
    let row = |deeplink: &str, tag_id: &str| DocumentTagRow {
        scope_kind: "user".into(),
        scope_id: "u1".into(),
        deeplink: deeplink.into(),
        tag_id: tag_id.into(),
    };
    assert_eq!(on, [row("d1", "bookmark"), row("d1", "t2")]);

    runner::reset(&db, &Tags).await.unwrap();
    assert_eq!(tag_views(&db).await, (vec![], vec![]), "reset empties the views");
    runner::catch_up(&db, &Tags, 3).await.unwrap();
    assert_eq!(tag_views(&db).await, (tags, on), "a rebuild gives the same views");
});

#[derive(Debug, PartialEq, sqlx::FromRow)]
struct NotebookViewRow {
    notebook_id: String,
    name: String,
    notebook_type: String,
}

#[derive(Debug, PartialEq, sqlx::FromRow)]
struct NoteViewRow {
    note_id: String,
    notebook_id: String,
    kind: String,
    name: String,
    preview: String,
    version: i64,
    snippet_link: Option<String>,
}

async fn notebook_views(db: &Db) -> (Vec<NotebookViewRow>, Vec<NoteViewRow>) {
    let notebooks = db
        .fetch_all("SELECT notebook_id, name, notebook_type FROM notebooks_view ORDER BY notebook_id", vec![])
        .await
        .unwrap();
    let notes = db
        .fetch_all(
            "SELECT note_id, notebook_id, kind, name, preview, version, snippet_link FROM notes_view ORDER BY note_id",
            vec![],
        )
        .await
        .unwrap();
    (notebooks, notes)
}

on_both_backends!(a_deleted_notebook_takes_its_notes_even_one_created_after_it_went, |db: Db| async move {
    use domain::notebook::{NoteCommand, NotebookCommand, SnippetSource};
    use projections::notebooks::Notebooks;
    let bus = CommandBus::new(db.clone(), FeedSignal::default());
    let shelf = |command: NotebookCommand| {
        let bus = &bus;
        async move { bus.execute(&bus.notebook_shelves, "u1", command, &meta("u1")).await.unwrap() }
    };
    let note = |id: &'static str, command: NoteCommand| {
        let bus = &bus;
        async move { bus.execute(&bus.notes, id, command, &meta("u1")).await.unwrap() }
    };
    let create_note = |note_id: &str, notebook_id: &str, snippet: Option<SnippetSource>| NoteCommand::Create {
        user_id: "u1".into(),
        notebook_id: notebook_id.into(),
        note_id: note_id.into(),
        name: format!("note {note_id}"),
        body: Some(r#"{"content":[{"text":"Hello","type":"text"}],"type":"doc"}"#.into()),
        snippet,
    };
    for (id, name) in [("b1", "Research"), ("b2", "Macro")] {
        shelf(NotebookCommand::Create {
            user_id: "u1".into(),
            notebook_id: id.into(),
            name: name.into(),
            feed_id: None,
            channel_id: None,
        })
        .await;
    }
    note("n1", create_note("n1", "b1", None)).await;
    note("n2", create_note("n2", "b2", None)).await;
    let body = r#"{"content":[{"text":"World","type":"text"}],"type":"doc"}"#;
    note("n2", NoteCommand::Edit { user_id: "u1".into(), base_version: 1, name: None, body: Some(body.into()) }).await;
    let link = SnippetSource { link: Some("https://example.org/a".into()), ..Default::default() };
    note("n3", create_note("n3", "b2", Some(link))).await;
    shelf(NotebookCommand::Delete { user_id: "u1".into(), notebook_id: "b1".into() }).await;
    // The api refuses a deleted notebook, but a note racing the deletion can still reach the feed.
    note("n4", create_note("n4", "b1", None)).await;
    let last = shelf(NotebookCommand::Rename { user_id: "u1".into(), notebook_id: "b2".into(), name: "Rates".into() })
        .await
        .unwrap();
    settle_feed(&db, last).await;
    runner::catch_up(&db, &Notebooks, 4).await.unwrap();
    let (notebooks, notes) = notebook_views(&db).await;
    assert_eq!(
        notebooks,
        [NotebookViewRow { notebook_id: "b2".into(), name: "Rates".into(), notebook_type: "user".into() }]
    );
    let row = |note_id: &str, preview: &str, version: i64, snippet_link: Option<&str>| NoteViewRow {
        note_id: note_id.into(),
        notebook_id: "b2".into(),
        kind: if snippet_link.is_some() { "snippet" } else { "note" }.into(),
        name: format!("note {note_id}"),
        preview: preview.into(),
        version,
        snippet_link: snippet_link.map(str::to_string),
    };
    assert_eq!(notes, [row("n2", "World", 2, None), row("n3", "Hello", 1, Some("https://example.org/a"))]);

    runner::reset(&db, &Notebooks).await.unwrap();
    assert_eq!(notebook_views(&db).await, (vec![], vec![]), "reset empties the views");
    runner::catch_up(&db, &Notebooks, 3).await.unwrap();
    assert_eq!(notebook_views(&db).await, (notebooks, notes), "a rebuild gives the same views");
});

#[derive(Debug, PartialEq, sqlx::FromRow)]
struct ChannelViewRow {
    channel_id: String,
    name: String,
    published: bool,
}

#[derive(Debug, PartialEq, sqlx::FromRow)]
struct MemberViewRow {
    channel_id: String,
    user_id: String,
    role: String,
}

#[derive(Debug, PartialEq, sqlx::FromRow)]
struct CommentViewRow {
    comment_id: String,
    deeplink: String,
    author: String,
    text: String,
    mentioned: String,
    edited: bool,
}

async fn channel_views(db: &Db) -> (Vec<ChannelViewRow>, Vec<MemberViewRow>, Vec<CommentViewRow>, Vec<String>) {
    let channels = db
        .fetch_all("SELECT channel_id, name, published FROM channels_view ORDER BY channel_id", vec![])
        .await
        .unwrap();
    let members = db
        .fetch_all("SELECT channel_id, user_id, role FROM channel_members_view ORDER BY channel_id, user_id", vec![])
        .await
        .unwrap();
    let comments = db
        .fetch_all(
            "SELECT comment_id, deeplink, author, text, mentioned, \
             CASE WHEN edited_at IS NULL THEN FALSE ELSE TRUE END AS edited FROM comments_view ORDER BY comment_id",
            vec![],
        )
        .await
        .unwrap();
    #[derive(sqlx::FromRow)]
    struct Item {
        deeplink: String,
    }
    let items: Vec<Item> =
        db.fetch_all("SELECT deeplink FROM channel_items_view ORDER BY deeplink", vec![]).await.unwrap();
    (channels, members, comments, items.into_iter().map(|i| i.deeplink).collect())
}

on_both_backends!(channel_views_follow_members_shares_and_comments_and_rebuild_the_same, |db: Db| async move {
    use domain::channel::{ChannelCommand, DirectoryCommand, Role};
    use domain::channel_document::{channel_document_id, Actor, ChannelDocumentCommand, CommentContext};
    use projections::channels::{self, ChannelAudience, Channels};
    use projections::live::{Audience, AudienceResolver, Viewer};
    let bus = CommandBus::new(db.clone(), FeedSignal::default());
    let channel = |id: &'static str, command: ChannelCommand| {
        let bus = &bus;
        async move { bus.execute(&bus.channels, id, command, &meta("u1")).await.unwrap() }
    };
    let document = |command: ChannelDocumentCommand| {
        let bus = &bus;
        async move {
            bus.execute(&bus.channel_documents, &channel_document_id("c1", "d1"), command, &meta("u1")).await.unwrap()
        }
    };
    let create = |id: &str, publish: bool| ChannelCommand::Create {
        channel_id: id.into(),
        name: format!("Channel {id}"),
        created_by: "u1".into(),
        publish,
        can_publish: true,
        members: vec!["u2".into(), "u3".into()],
    };
    let directory = |command: DirectoryCommand| {
        let bus = &bus;
        async move { bus.execute(&bus.channel_directories, "1", command, &meta("u1")).await.unwrap() }
    };
    for id in ["c1", "c2"] {
        directory(DirectoryCommand::Reserve { channel_id: id.into(), name: format!("Channel {id}") }).await;
    }
    channel("c1", create("c1", false)).await;
    channel("c2", create("c2", true)).await;
    channel("c1", ChannelCommand::RemoveMember { actor: "u1".into(), user_id: "u3".into() }).await;
    channel("c1", ChannelCommand::ChangeRole { actor: "u1".into(), user_id: "u2".into(), role: Role::Owner }).await;
    directory(DirectoryCommand::Rename {
        channel_id: "c1".into(),
        name: "Desk".into(),
        actor: "u1".into(),
        actor_is_owner: true,
    })
    .await;
    let actor = Actor { user_id: "u1".into(), role: Role::Owner };
    document(ChannelDocumentCommand::Share { channel_id: "c1".into(), deeplink: "d1".into(), actor: actor.clone() })
        .await;
    let context = CommentContext { members: ["u2".to_string()].into(), ..Default::default() };
    let add = |comment_id: &str, text: &str, mentions: Vec<String>| ChannelDocumentCommand::AddComment {
        channel_id: "c1".into(),
        deeplink: "d1".into(),
        comment_id: comment_id.into(),
        actor: actor.clone(),
        text: text.into(),
        mentions,
        context: context.clone(),
    };
    document(add("m1", "first", vec!["u2".into()])).await;
    document(add("m2", "second", vec![])).await;
    document(ChannelDocumentCommand::EditComment {
        channel_id: "c1".into(),
        deeplink: "d1".into(),
        comment_id: "m2".into(),
        actor: actor.clone(),
        text: "second, edited".into(),
        mentions: vec![],
        context: context.clone(),
    })
    .await;
    let last = document(ChannelDocumentCommand::DeleteComment {
        channel_id: "c1".into(),
        deeplink: "d1".into(),
        comment_id: "m1".into(),
        actor: actor.clone(),
    })
    .await
    .unwrap();
    settle_feed(&db, last).await;
    runner::catch_up(&db, &Channels, 4).await.unwrap();
    let views = channel_views(&db).await;
    let member =
        |c: &str, u: &str, role: &str| MemberViewRow { channel_id: c.into(), user_id: u.into(), role: role.into() };
    assert_eq!(
        views.0,
        [
            ChannelViewRow { channel_id: "c1".into(), name: "Desk".into(), published: false },
            ChannelViewRow { channel_id: "c2".into(), name: "Channel c2".into(), published: true },
        ]
    );
    assert_eq!(
        views.1,
        [
            member("c1", "u1", "owner"),
            member("c1", "u2", "owner"),
            member("c2", "u1", "owner"),
            member("c2", "u2", "member"),
            member("c2", "u3", "member"),
        ]
    );
    assert_eq!(
        views.2,
        [CommentViewRow {
            comment_id: "m2".into(),
            deeplink: "d1".into(),
            author: "u1".into(),
            text: "second, edited".into(),
            mentioned: "[]".into(),
            edited: true,
        }]
    );
    assert_eq!(views.3, ["d1"]);

    // Live audiences: a private channel's members, everyone for a published one.
    assert_eq!(
        channels::audience(&db, "c1").await.unwrap(),
        ChannelAudience::Members(["u1".to_string(), "u2".to_string()].into())
    );
    assert_eq!(channels::audience(&db, "c2").await.unwrap(), ChannelAudience::Everyone);
    let events = feed::read_after(&db, Cursor::START, 100).await.unwrap();
    let mut resolver = AudienceResolver::default();
    let viewer = |id: &str, is_admin| Viewer { user_id: id.into(), is_admin };
    for event in events.iter().filter(|e| e.aggregate_type == "channel_document") {
        let live = resolver.live_event(&db, event).await.unwrap();
        assert!(live.audience.admits(&viewer("u2", false)), "{:?}", live.audience);
        assert!(!live.audience.admits(&viewer("u3", false)), "a removed member");
        assert!(!live.audience.admits(&viewer("admin", true)), "administrators are not members");
    }
    let removed = events.iter().find(|e| e.event_type == "MemberRemoved").unwrap();
    let live = resolver.live_event(&db, removed).await.unwrap();
    assert!(live.audience.admits(&viewer("u3", false)), "the removed member hears of it");
    assert!(matches!(live.audience, Audience::Members(_)));

    runner::reset(&db, &Channels).await.unwrap();
    assert_eq!(channel_views(&db).await, (vec![], vec![], vec![], vec![]), "reset empties the views");
    runner::catch_up(&db, &Channels, 3).await.unwrap();
    assert_eq!(channel_views(&db).await, views, "a rebuild gives the same views");
});

/// One writer transaction as the reader must see it.
struct Written {
    began: Instant,
    committed: Instant,
    keys: Vec<(String, i64)>,
}

/// Concurrent writers, some holding their transactions open, while a reader tails the feed: the
/// reader sees every committed event exactly once, never behind its cursor, and a transaction
/// that committed before another began is read before it.
#[tokio::test(flavor = "multi_thread", worker_threads = 8)]
async fn the_postgres_feed_gives_every_event_once_in_commit_order_under_concurrent_writers() {
    let db = postgres().await;
    let pool = db.pg_pool().unwrap().clone();
    let writers = 8;
    let per_writer = 30;
    let mut handles = Vec::new();
    for w in 0..writers {
        let pool = pool.clone();
        handles.push(tokio::spawn(async move {
            let mut rng = rand::rngs::StdRng::from_os_rng();
            let mut written = Vec::new();
            for t in 0..per_writer {
                let began = Instant::now();
                let mut tx = pool.begin().await.unwrap();
                let aggregate = format!("w{w}-t{t}");
                let mut keys = Vec::new();
                for seq in 1..=rng.random_range(1..=3i64) {
                    sqlx::query(
                        "INSERT INTO events (aggregate_type, aggregate_id, sequence, event_type, \
                         event_version, payload, metadata) VALUES ('probe', $1, $2, 'Probed', '1', '{}', '{}')",
                    )
                    .bind(&aggregate)
                    .bind(seq)
                    .execute(&mut *tx)
                    .await
                    .unwrap();
                    keys.push((aggregate.clone(), seq));
                }
                // Writers 0 and 1 hold their transactions open long enough for many others to
                // commit larger positions first.
                let hold = if w < 2 { rng.random_range(50..250) } else { rng.random_range(0..8) };
                tokio::time::sleep(Duration::from_millis(hold)).await;
                tx.commit().await.unwrap();
                written.push(Written { began, committed: Instant::now(), keys });
            }
            written
        }));
    }
    let reader_db = db.clone();
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let stop_reader = stop.clone();
    let reader = tokio::spawn(async move {
        let mut seen: Vec<StoredEvent> = Vec::new();
        let mut at = Cursor::START;
        loop {
            let done = stop_reader.load(std::sync::atomic::Ordering::SeqCst);
            let page = feed::read_after(&reader_db, at, 17).await.unwrap();
            for event in &page {
                assert!(event.cursor > at, "cursor went backwards");
                at = event.cursor;
            }
            let empty = page.is_empty();
            seen.extend(page);
            if done && empty {
                return seen;
            }
            if empty {
                tokio::time::sleep(Duration::from_millis(2)).await;
            }
        }
    });
    let mut transactions = Vec::new();
    for h in handles {
        transactions.extend(h.await.unwrap());
    }
    stop.store(true, std::sync::atomic::Ordering::SeqCst);
    let seen = reader.await.unwrap();

    let order: HashMap<(String, i64), usize> =
        seen.iter().enumerate().map(|(i, e)| ((e.aggregate_id.clone(), e.sequence), i)).collect();
    let committed: usize = transactions.iter().map(|t| t.keys.len()).sum();
    assert_eq!(seen.len(), committed, "every committed event seen exactly once");
    assert_eq!(order.len(), committed, "no event seen twice");
    for a in &transactions {
        for b in &transactions {
            if a.committed < b.began {
                let last_a = a.keys.iter().map(|k| order[k]).max().unwrap();
                let first_b = b.keys.iter().map(|k| order[k]).min().unwrap();
                assert!(last_a < first_b, "a transaction committed earlier was read later");
            }
        }
    }
}

#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
struct AskMessageViewRow {
    message_id: String,
    session_id: String,
    prompt: String,
    status: String,
    answer: Option<String>,
    error_code: Option<String>,
    feedback: Option<String>,
}

async fn ask_views(db: &Db) -> (Vec<(String, String)>, Vec<AskMessageViewRow>) {
    #[derive(sqlx::FromRow)]
    struct SessionViewRow {
        session_id: String,
        title: String,
    }
    let sessions: Vec<SessionViewRow> =
        db.fetch_all("SELECT session_id, title FROM ask_sessions_view ORDER BY session_id", vec![]).await.unwrap();
    let messages = db
        .fetch_all(
            "SELECT message_id, session_id, prompt, status, answer, error_code, feedback FROM ask_messages_view \
             ORDER BY message_id",
            vec![],
        )
        .await
        .unwrap();
    (sessions.into_iter().map(|s| (s.session_id, s.title)).collect(), messages)
}

on_both_backends!(ask_sessions_keep_each_turns_ending_and_rebuild_the_same, |db: Db| async move {
    use domain::ask::{AskCommand, AskScope, Feedback};
    use projections::ask::AskSessions;
    let bus = CommandBus::new(db.clone(), FeedSignal::default());
    let run = |session: &'static str, command: AskCommand| {
        let bus = &bus;
        async move { bus.execute(&bus.ask_sessions, session, command, &meta("u1")).await.unwrap() }
    };
    let ask = |session: &str, message: &str, prompt: &str| AskCommand::Ask {
        user_id: "u1".into(),
        session_id: session.into(),
        message_id: message.into(),
        prompt: prompt.into(),
        scope: AskScope::Home,
        pro: false,
        web_search: false,
        search_mode: false,
        at: chrono::Utc::now(),
    };
    let answer = serde_json::json!({"answer_type": "ANSWER", "generated_answer": {"answer": "Up [1]."}});
    run("s1", ask("s1", "m1", "Where did steel go?")).await;
    run("s1", AskCommand::Complete { user_id: "u1".into(), message_id: "m1".into(), answer: answer.clone() }).await;
    run(
        "s1",
        AskCommand::GiveFeedback {
            user_id: "u1".into(),
            message_id: "m1".into(),
            feedback: Feedback::Correct,
            text: None,
        },
    )
    .await;
    run("s1", ask("s1", "m2", "And wheat?")).await;
    // A new question stops the running one.
    run("s1", ask("s1", "m3", "And coffee?")).await;
    run("s1", AskCommand::Fail { user_id: "u1".into(), message_id: "m3".into(), code: "engine_status".into() }).await;
    run("s2", ask("s2", "m4", "Other")).await;
    let last = run("s1", AskCommand::Rename { user_id: "u1".into(), title: "Commodities".into() }).await.unwrap();
    settle_feed(&db, last).await;
    runner::catch_up(&db, &AskSessions, 4).await.unwrap();
    let (sessions, messages) = ask_views(&db).await;
    assert_eq!(sessions, [("s1".to_string(), "Commodities".to_string()), ("s2".to_string(), "Other".to_string())]);
    let status: Vec<(&str, &str)> = messages.iter().map(|m| (m.message_id.as_str(), m.status.as_str())).collect();
    assert_eq!(status, [("m1", "COMPLETED"), ("m2", "STOPPED"), ("m3", "FAILED"), ("m4", "RUNNING")]);
    assert_eq!(
        messages[0].answer.as_deref().map(|a| serde_json::from_str::<serde_json::Value>(a).unwrap()),
        Some(answer)
    );
    assert_eq!(messages[0].feedback.as_deref(), Some("CORRECT"));
    assert_eq!(messages[2].error_code.as_deref(), Some("engine_status"));

    runner::reset(&db, &AskSessions).await.unwrap();
    assert_eq!(ask_views(&db).await, (vec![], vec![]), "reset empties the views");
    runner::catch_up(&db, &AskSessions, 3).await.unwrap();
    assert_eq!(ask_views(&db).await, (sessions, messages), "a rebuild gives the same views");
});

/// Signs `user` up with `email` as one unit: the reservation, the administrator claim when the
/// instance has none, and the account. `interfere` runs once, between deciding and committing.
async fn sign_up_together(
    bus: &CommandBus,
    email: &str,
    user: &str,
    username: &str,
    interfere: impl AsyncFnOnce(),
) -> anyhow::Result<Option<Cursor>> {
    use domain::email::{EmailCommand, EmailReservation};
    use domain::instance::{Instance, InstanceCommand, INSTANCE_ID};
    use domain::user::User;
    let mut interfere = Some(interfere);
    let ((), cursor) = bus
        .execute_together(&meta(user), |mut unit| {
            let (email, user, username) = (email.to_string(), user.to_string(), username.to_string());
            let interfere = interfere.take();
            async move {
                unit.execute::<EmailReservation>(&email, EmailCommand::Reserve { user_id: user.clone() }).await?;
                let claim = InstanceCommand::ClaimAdministration { user_id: user.clone() };
                let is_admin = unit.execute::<Instance>(INSTANCE_ID, claim).await.is_ok();
                let password_hash = "$argon2id$test".to_string();
                unit.execute::<User>(&user, UserCommand::SignUp { email, username, password_hash, is_admin }).await?;
                if let Some(interfere) = interfere {
                    interfere().await;
                }
                Ok::<_, anyhow::Error>((unit, ()))
            }
        })
        .await?;
    Ok(cursor)
}

on_both_backends!(a_unit_whose_second_command_is_refused_writes_nothing_of_the_first, |db: Db| async move {
    let bus = CommandBus::new(db.clone(), FeedSignal::default());
    let refused = sign_up_together(&bus, "ada@example.com", "u1", &"a".repeat(65), async || {}).await;
    let error = refused.expect_err("a 65-character username is refused");
    assert_eq!(
        error.downcast_ref::<commands::CommandError<domain::user::UserError>>().map(ToString::to_string),
        Some("username must be 1 to 64 characters".to_string())
    );
    assert!(feed::read_aggregate(&db, "email", "ada@example.com").await.unwrap().is_empty());
    assert!(feed::read_aggregate(&db, "instance", "instance").await.unwrap().is_empty());
    assert!(feed::read_after(&db, Cursor::START, 10).await.unwrap().is_empty(), "nothing was written");

    let cursor = sign_up_together(&bus, "ada@example.com", "u1", "ada", async || {}).await.unwrap();
    let cursor = cursor.expect("the sign-up wrote events");
    settle_feed(&db, cursor).await;
    let events = read_all(&db).await;
    let types: Vec<&str> = events.iter().map(|e| e.event_type.as_str()).collect();
    assert_eq!(types, ["EmailReserved", "AdministratorAppointed", "UserSignedUp"]);
    assert_eq!(events.last().map(|e| e.cursor), Some(cursor), "the answer is the last event's cursor");
    assert!(events.iter().all(|e| e.sequence == 1 && e.cursor.tx == cursor.tx), "one transaction: {events:?}");
    assert_eq!(events[2].fields()["is_admin"], true);
    assert_eq!(events[0].metadata["app_type"], "test");

    // cqrs-es reads what the unit wrote and appends after it.
    let again = bus
        .execute(
            &bus.emails,
            "ada@example.com",
            domain::email::EmailCommand::Reserve { user_id: "u2".into() },
            &meta("u2"),
        )
        .await;
    assert!(matches!(again, Err(commands::CommandError::Domain(domain::email::EmailError::Taken))));
    let change = UserCommand::ChangePreferences { nav_state: Some(NavState::Closed), askneedl_pro: None };
    bus.execute(&bus.users, "u1", change, &meta("u1")).await.unwrap();
    let history = feed::read_aggregate(&db, "user", "u1").await.unwrap();
    assert_eq!(history.iter().map(|e| e.sequence).collect::<Vec<_>>(), [1, 2]);
});

on_both_backends!(a_unit_that_loses_a_race_on_one_aggregate_writes_none_and_decides_again, |db: Db| async move {
    let bus = CommandBus::new(db.clone(), FeedSignal::default());
    // Between the unit's decision and its commit, another writer signs the same account up: the
    // commit clashes on the account, rolls back the reservation with it, and the decision, taken
    // again, is refused.
    let outcome = sign_up_together(&bus, "bo@example.com", "u1", "bo", async || {
        sign_up(&bus, "u1").await;
    })
    .await;
    let error = outcome.expect_err("the second decision finds the account taken");
    assert_eq!(
        error.downcast_ref::<commands::CommandError<domain::user::UserError>>().map(ToString::to_string),
        Some("this account already exists".to_string())
    );
    assert!(feed::read_aggregate(&db, "email", "bo@example.com").await.unwrap().is_empty(), "no reservation");
    assert!(feed::read_aggregate(&db, "instance", "instance").await.unwrap().is_empty(), "no administrator");
    assert_eq!(feed::read_aggregate(&db, "user", "u1").await.unwrap().len(), 1);
});

on_both_backends!(concurrent_units_claiming_one_address_leave_exactly_one_account, |db: Db| async move {
    let bus = Arc::new(CommandBus::new(db.clone(), FeedSignal::default()));
    let mut tasks = Vec::new();
    for i in 0..6 {
        let bus = bus.clone();
        tasks.push(tokio::spawn(async move {
            sign_up_together(&bus, "same@example.com", &format!("u{i}"), "same", async || {}).await.is_ok()
        }));
    }
    let mut won = 0;
    for task in tasks {
        won += usize::from(task.await.unwrap());
    }
    assert_eq!(won, 1);
    let reservations = feed::read_aggregate(&db, "email", "same@example.com").await.unwrap();
    assert_eq!(reservations.len(), 1);
    let owner = reservations[0].fields()["user_id"].as_str().unwrap().to_string();
    assert_eq!(feed::read_aggregate(&db, "user", &owner).await.unwrap().len(), 1);
    assert_eq!(feed::read_aggregate(&db, "instance", "instance").await.unwrap()[0].fields()["user_id"], owner);
});

#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
struct ReportViewRow {
    report_id: String,
    status: String,
    files: String,
    sections: i64,
    sections_done: i64,
    content: Option<String>,
    time_taken_ms: Option<i64>,
    rating: Option<i64>,
}

async fn report_views(db: &Db) -> (Vec<ReportViewRow>, Vec<(i64, String)>, Vec<String>) {
    let reports = db
        .fetch_all(
            "SELECT report_id, status, files, sections, sections_done, content, time_taken_ms, rating \
             FROM reports_view ORDER BY report_id",
            vec![],
        )
        .await
        .unwrap();
    #[derive(sqlx::FromRow)]
    struct Section {
        idx: i64,
        status: String,
    }
    let sections: Vec<Section> =
        db.fetch_all("SELECT idx, status FROM report_sections_view ORDER BY report_id, idx", vec![]).await.unwrap();
    #[derive(sqlx::FromRow)]
    struct Job {
        report_id: String,
    }
    let jobs: Vec<Job> = db.fetch_all("SELECT report_id FROM report_jobs ORDER BY report_id", vec![]).await.unwrap();
    (
        reports,
        sections.into_iter().map(|s| (s.idx, s.status)).collect(),
        jobs.into_iter().map(|j| j.report_id).collect(),
    )
}

on_both_backends!(reports_keep_their_progress_and_leave_the_queue_when_they_end, |db: Db| async move {
    use domain::report::{ReportCommand, ReportFile, SectionPlan};
    use projections::reports::Reports;
    let bus = CommandBus::new(db.clone(), FeedSignal::default());
    let run = |id: &'static str, command: ReportCommand| {
        let bus = &bus;
        async move { bus.execute(&bus.reports, id, command, &meta("u1")).await.unwrap() }
    };
    let file = |d: &str| ReportFile::document(d, format!("{d}.pdf"));
    let request = |files| ReportCommand::Request {
        user_id: "u1".into(),
        report_type: "credit_report".into(),
        name: "Acme".into(),
        files,
        feed_id: None,
        brief: None,
    };
    let generate = ReportCommand::Generate {
        user_id: "u1".into(),
        feed_documents: vec![],
        uploads: vec![],
        at: chrono::Utc::now(),
    };
    let write = |index| ReportCommand::CompleteSection {
        index,
        markdown: format!("s{index} [1]"),
        sentences: serde_json::json!([]),
        passages: serde_json::json!([]),
    };
    let plan = |h: &str| SectionPlan { heading: h.into(), query: h.into() };
    run("r1", request(vec![file("d1")])).await;
    run("r1", ReportCommand::AddFiles { user_id: "u1".into(), files: vec![file("d2")] }).await;
    run("r1", ReportCommand::RemoveFiles { user_id: "u1".into(), deeplinks: vec!["d1".into()] }).await;
    run("r1", generate.clone()).await;
    run("r1", ReportCommand::PlanSections { sections: vec![plan("a"), plan("b")] }).await;
    run("r1", write(0)).await;
    run("r1", write(1)).await;
    run(
        "r1",
        ReportCommand::Complete {
            title: "T".into(),
            content: "C".into(),
            raw_data: serde_json::json!({}),
            time_taken: 2.5,
        },
    )
    .await;
    run("r1", ReportCommand::Rate { user_id: "u1".into(), rating: Some(5), comments: None }).await;
    run("r2", request(vec![file("d3")])).await;
    run("r2", generate).await;
    let last = run("r2", ReportCommand::PlanSections { sections: vec![plan("a")] }).await.unwrap();
    settle_feed(&db, last).await;
    runner::catch_up(&db, &Reports, 4).await.unwrap();
    let (reports, sections, jobs) = report_views(&db).await;
    assert_eq!(reports[0].status, "COMPLETED");
    assert_eq!(reports[0].files, r#"[{"deeplink":"d2","name":"d2.pdf"}]"#);
    assert_eq!((reports[0].sections, reports[0].sections_done), (2, 2));
    assert_eq!(reports[0].content.as_deref(), Some("C"));
    assert_eq!(reports[0].time_taken_ms, Some(2500));
    assert_eq!(reports[0].rating, Some(5));
    assert_eq!((reports[1].status.as_str(), reports[1].sections_done), ("RUNNING", 0));
    assert_eq!(sections, [(0, "COMPLETED".to_string()), (1, "COMPLETED".to_string()), (0, "PLANNED".to_string())]);
    assert_eq!(jobs, ["r2"], "only the report still running is queued");

    runner::reset(&db, &Reports).await.unwrap();
    runner::catch_up(&db, &Reports, 3).await.unwrap();
    let (again, sections_again, _) = report_views(&db).await;
    assert_eq!((again, sections_again), (reports, sections), "a rebuild gives the same views");
});

/// Connections the pool hands out are not pinged first while they are in use every few seconds
/// (`commands::store`), yet one that Postgres closed while it sat idle is found out and replaced
/// before a statement runs on it: the caller never sees it.
#[tokio::test]
async fn a_connection_postgres_closed_while_idle_is_replaced_unseen() {
    use std::str::FromStr;
    let schema = testkit::db::postgres_schema().await;
    let name = format!("needl-idle-{schema}");
    let options = sqlx::postgres::PgConnectOptions::from_str(&testkit::db::postgres_url())
        .unwrap()
        .options([("search_path", schema.as_str())])
        .application_name(&name);
    let db = Db::open_postgres_with(options).await.unwrap();
    #[derive(sqlx::FromRow)]
    struct Count {
        n: i64,
    }
    let count = "SELECT COUNT(*) AS n FROM events";
    assert_eq!(db.fetch_all::<Count>(count, vec![]).await.unwrap()[0].n, 0);

    // Another session ends every connection of this pool, as a restarted server or a dropped idle
    // socket would.
    let admin = sqlx::PgPool::connect(&testkit::db::postgres_url()).await.unwrap();
    let ended: Vec<(bool,)> =
        sqlx::query_as("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1")
            .bind(&name)
            .fetch_all(&admin)
            .await
            .unwrap();
    assert!(!ended.is_empty() && ended.iter().all(|(done,)| *done), "the pool's connections were ended");
    admin.close().await;

    tokio::time::sleep(commands::store::IDLE_CHECK + Duration::from_millis(500)).await;
    for _ in 0..20 {
        assert_eq!(db.fetch_all::<Count>(count, vec![]).await.expect("a fresh connection answers").len(), 1);
    }
    db.close().await;
}
