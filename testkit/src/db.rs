//! A fresh database per test. On Postgres each test gets a schema of its own (`t_` and a random
//! id) in the database at `NEEDL_TEST_DATABASE_URL`; `.ci/run` drops the schemas of earlier runs.

use std::path::Path;
use std::str::FromStr;

use commands::Db;
use sqlx::postgres::PgConnectOptions;

/// The storage a test runs on. Tests that touch storage run once on each.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// Returns the URL of the test Postgres: `NEEDL_TEST_DATABASE_URL`, or the local `test` database.
pub fn postgres_url() -> String {
    std::env::var("NEEDL_TEST_DATABASE_URL").unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/test".to_string())
}

/// Opens a fresh, migrated database: SQLite in `dir`, or a new schema on the test Postgres.
pub async fn open(backend: Backend, dir: &Path) -> Db {
    match backend {
        Backend::Sqlite => Db::open_sqlite(dir).await.expect("SQLite opens in the test directory"),
        Backend::Postgres => postgres().await,
    }
}

/// Opens a fresh SQLite database in a new temporary directory, which it lives as long as.
pub async fn sqlite() -> (Db, tempfile::TempDir) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    (open(Backend::Sqlite, dir.path()).await, dir)
}

/// Creates a fresh, empty schema on the test Postgres and returns its name.
pub async fn postgres_schema() -> String {
    let schema = format!("t_{}", uuid::Uuid::new_v4().simple());
    let admin =
        sqlx::PgPool::connect(&postgres_url()).await.expect("Postgres must be reachable at NEEDL_TEST_DATABASE_URL");
    sqlx::query(&format!("CREATE SCHEMA {schema}")).execute(&admin).await.expect("the test schema is created");
    admin.close().await;
    schema
}

/// `url` with `schema` as its search path: a `DATABASE_URL` for a process of its own (a node,
/// the benchmark's) that is to work in that schema.
pub fn in_schema(url: &str, schema: &str) -> String {
    let joiner = if url.contains('?') { '&' } else { '?' };
    format!("{url}{joiner}options=-c%20search_path%3D{schema}")
}

/// Opens a fresh, migrated schema on the test Postgres.
pub async fn postgres() -> Db {
    let schema = postgres_schema().await;
    let options = PgConnectOptions::from_str(&postgres_url())
        .expect("NEEDL_TEST_DATABASE_URL is a postgres:// URL")
        .options([("search_path", schema.as_str())]);
    Db::open_postgres_with(options).await.expect("the test schema is migrated")
}

/// Runs a storage test body, `|db: Db| async move { ... }`, as two tests in a module `$name`:
/// `on_sqlite` and `on_postgres`, each on a fresh database.
#[macro_export]
macro_rules! on_both_backends {
    ($name:ident, $body:expr) => {
        mod $name {
            use super::*;
            #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
            async fn on_sqlite() {
                let (db, _dir) = $crate::db::sqlite().await;
                ($body)(db).await;
            }
            #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
            async fn on_postgres() {
                let db = $crate::db::postgres().await;
                ($body)(db).await;
            }
        }
    };
}

/// Metadata for a test's command by `user`: a fresh request id, now.
pub fn metadata(user: &str) -> domain::EventMetadata {
    domain::EventMetadata {
        user_id: user.to_string(),
        request_id: uuid::Uuid::new_v4().to_string(),
        app_type: "test".to_string(),
        request_origin: "/tests".to_string(),
        time: chrono::Utc::now(),
    }
}
