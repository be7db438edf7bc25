//! The storage handle and a portable query layer.
//!
//! Read models are written and read through [`Db`] and [`Tx`], which run the same SQL on both
//! backends. SQL is written with Postgres-style `$1` placeholders; on SQLite they become `?1`
//! (an explicit index), so a parameter may appear in any order and more than once.

use std::path::Path;
use std::str::FromStr;
use std::time::Duration;

use anyhow::Context;
use sqlx::postgres::{PgConnectOptions, PgPoolOptions, PgRow};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteRow, SqliteSynchronous};
use sqlx::{Executor, FromRow, PgPool, Postgres, Sqlite, SqlitePool, Transaction};

/// How long a pooled connection may sit idle before it is checked on its next use.
pub const IDLE_CHECK: Duration = Duration::from_secs(1);

/// Pool options that check a connection before use only when it sat idle for [`IDLE_CHECK`] or
/// longer. sqlx otherwise pings every connection it hands out, on top of the ping it sends when
/// the connection comes back: a round trip to the server (Postgres) or to the connection's
/// worker thread (SQLite) per statement, and on SQLite's one write connection a wait every
/// writer queues behind. Under load connections come back into use within milliseconds and go
/// unchecked. A connection that broke in use is dropped when it comes back, and one that broke
/// while idle (a restarted server, a dropped idle socket) is caught here; one that breaks within
/// a second of its last use fails one statement, as storage being unavailable, and is replaced.
fn checked_when_idle<DB: sqlx::Database>(options: sqlx::pool::PoolOptions<DB>) -> sqlx::pool::PoolOptions<DB> {
    options.test_before_acquire(false).before_acquire(|conn, meta| {
        Box::pin(async move {
            if meta.idle_for >= IDLE_CHECK {
                sqlx::Connection::ping(conn).await?;
            }
            Ok(true)
        })
    })
}

/// Which database a [`Db`] talks to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// The one handle on the database.
#[derive(Clone, Debug)]
pub enum Db {
    /// SQLite in WAL mode. One connection writes (SQLite has one writer anyway, and a single
    /// connection avoids busy errors when a read transaction would have to upgrade); several read.
    Sqlite {
        write: SqlitePool,
        read: SqlitePool,
    },
    Postgres(PgPool),
}

/// A bound parameter.
#[derive(Debug, Clone, PartialEq)]
pub enum Arg {
    Text(String),
    OptText(Option<String>),
    Int(i64),
    Bool(bool),
}

impl From<&str> for Arg {
    fn from(v: &str) -> Self {
        Arg::Text(v.to_string())
    }
}
impl From<String> for Arg {
    fn from(v: String) -> Self {
        Arg::Text(v)
    }
}
impl From<&String> for Arg {
    fn from(v: &String) -> Self {
        Arg::Text(v.clone())
    }
}
impl From<Option<String>> for Arg {
    fn from(v: Option<String>) -> Self {
        Arg::OptText(v)
    }
}
impl From<i64> for Arg {
    fn from(v: i64) -> Self {
        Arg::Int(v)
    }
}
impl From<bool> for Arg {
    fn from(v: bool) -> Self {
        Arg::Bool(v)
    }
}

/// Builds a `Vec<Arg>` from values of mixed types.
#[macro_export]
macro_rules! args {
    ($($value:expr),* $(,)?) => { vec![$($crate::store::Arg::from($value)),*] };
}

/// Rewrites `$N` placeholders to SQLite's `?N`.
fn sqlite_sql(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len());
    let mut chars = sql.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '$' && chars.peek().is_some_and(|n| n.is_ascii_digit()) {
            out.push('?');
        } else {
            out.push(c);
        }
    }
    out
}

macro_rules! bind_all {
    ($query:expr, $args:expr) => {{
        let mut q = $query;
        for arg in $args {
            q = match arg {
                Arg::Text(v) => q.bind(v),
                Arg::OptText(v) => q.bind(v),
                Arg::Int(v) => q.bind(v),
                Arg::Bool(v) => q.bind(v),
            };
        }
        q
    }};
}

/// Rows that decode from both backends (`#[derive(sqlx::FromRow)]` gives that).
pub trait PortableRow: for<'r> FromRow<'r, SqliteRow> + for<'r> FromRow<'r, PgRow> + Send + Unpin {}
impl<T> PortableRow for T where T: for<'r> FromRow<'r, SqliteRow> + for<'r> FromRow<'r, PgRow> + Send + Unpin {}

impl Db {
    /// Opens (creating if needed) `needl.db` in `data_dir`, in WAL mode, and migrates it. The
    /// directory and the database are private to this user; SQLite gives its `-wal` and `-shm`
    /// files the database's mode.
    pub async fn open_sqlite(data_dir: &Path) -> anyhow::Result<Db> {
        crate::private::create_dir(data_dir).context("creating the data directory")?;
        let file = data_dir.join("needl.db");
        for companion in ["needl.db-wal", "needl.db-shm"] {
            crate::private::tighten(&data_dir.join(companion), crate::private::FILE_MODE)?;
        }
        crate::private::create_file(&file)?;
        let options = SqliteConnectOptions::new()
            .filename(&file)
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Normal)
            .busy_timeout(Duration::from_secs(10))
            .foreign_keys(true)
            // Deleted and overwritten content is zeroed in the file, so what an erasure removes
            // (commands::personal) does not linger in free space.
            .pragma("secure_delete", "ON");
        // Every connection can compute the event hash chain's links (the chaining trigger and
        // migration 0017 call needl_chain_link).
        let chain_function = || {
            checked_when_idle(SqlitePoolOptions::new())
                .after_connect(|conn, _| Box::pin(crate::chain::register_sqlite(conn)))
        };
        let write = chain_function()
            .max_connections(1)
            .connect_with(options.clone())
            .await
            .with_context(|| format!("opening {}", file.display()))?;
        let db = Db::Sqlite { write: write.clone(), read: write };
        db.migrate().await?;
        let read = chain_function().max_connections(4).connect_with(options).await?;
        Ok(Db::Sqlite { write: db.sqlite_write().clone(), read })
    }

    /// Connects to Postgres and migrates.
    pub async fn open_postgres(url: &str) -> anyhow::Result<Db> {
        let options = PgConnectOptions::from_str(url).context("parsing DATABASE_URL")?;
        Self::open_postgres_with(options).await
    }

    /// Connects to Postgres with explicit options (tests use a schema per test) and migrates.
    pub async fn open_postgres_with(options: PgConnectOptions) -> anyhow::Result<Db> {
        let pool = checked_when_idle(PgPoolOptions::new())
            .max_connections(16)
            .acquire_timeout(Duration::from_secs(10))
            .connect_with(options)
            .await
            .context("connecting to Postgres")?;
        let db = Db::Postgres(pool);
        db.migrate().await?;
        Ok(db)
    }

    /// Opens Postgres when `database_url` is a postgres URL, else SQLite in `data_dir`.
    pub async fn open(database_url: Option<&str>, data_dir: &Path) -> anyhow::Result<Db> {
        match database_url {
            Some(url) if url.starts_with("postgres://") || url.starts_with("postgresql://") => {
                Self::open_postgres(url).await
            }
            Some(url) if !url.is_empty() => {
                anyhow::bail!("DATABASE_URL must be a postgres:// URL (SQLite is the default when it is unset)")
            }
            _ => Self::open_sqlite(data_dir).await,
        }
    }

    async fn migrate(&self) -> anyhow::Result<()> {
        match self {
            Db::Sqlite { write, .. } => {
                sqlx::migrate!("../migrations/sqlite").run(write).await.context("migrating SQLite")?
            }
            Db::Postgres(pool) => {
                sqlx::migrate!("../migrations/postgres").run(pool).await.context("migrating Postgres")?
            }
        }
        Ok(())
    }

    pub fn backend(&self) -> Backend {
        match self {
            Db::Sqlite { .. } => Backend::Sqlite,
            Db::Postgres(_) => Backend::Postgres,
        }
    }

    fn sqlite_write(&self) -> &SqlitePool {
        match self {
            Db::Sqlite { write, .. } => write,
            Db::Postgres(_) => unreachable!("not SQLite"),
        }
    }

    /// Runs a statement outside a transaction; returns the rows affected.
    pub async fn execute(&self, sql: &str, args: Vec<Arg>) -> sqlx::Result<u64> {
        Ok(match self {
            Db::Sqlite { write, .. } => {
                let sql = sqlite_sql(sql);
                bind_all!(sqlx::query(&sql), args).execute(write).await?.rows_affected()
            }
            Db::Postgres(pool) => bind_all!(sqlx::query(sql), args).execute(pool).await?.rows_affected(),
        })
    }

    pub async fn fetch_all<T: PortableRow>(&self, sql: &str, args: Vec<Arg>) -> sqlx::Result<Vec<T>> {
        match self {
            Db::Sqlite { read, .. } => {
                let sql = sqlite_sql(sql);
                bind_all!(sqlx::query_as::<Sqlite, T>(&sql), args).fetch_all(read).await
            }
            Db::Postgres(pool) => bind_all!(sqlx::query_as::<Postgres, T>(sql), args).fetch_all(pool).await,
        }
    }

    pub async fn fetch_optional<T: PortableRow>(&self, sql: &str, args: Vec<Arg>) -> sqlx::Result<Option<T>> {
        match self {
            Db::Sqlite { read, .. } => {
                let sql = sqlite_sql(sql);
                bind_all!(sqlx::query_as::<Sqlite, T>(&sql), args).fetch_optional(read).await
            }
            Db::Postgres(pool) => bind_all!(sqlx::query_as::<Postgres, T>(sql), args).fetch_optional(pool).await,
        }
    }

    /// Begins a write transaction.
    pub async fn begin(&self) -> sqlx::Result<Tx> {
        Ok(match self {
            Db::Sqlite { write, .. } => Tx::of(Conn::Sqlite(write.begin().await?)),
            Db::Postgres(pool) => Tx::of(Conn::Postgres(pool.begin().await?)),
        })
    }

    pub fn sqlite_pool(&self) -> Option<&SqlitePool> {
        match self {
            Db::Sqlite { write, .. } => Some(write),
            Db::Postgres(_) => None,
        }
    }

    pub fn pg_pool(&self) -> Option<&PgPool> {
        match self {
            Db::Postgres(pool) => Some(pool),
            Db::Sqlite { .. } => None,
        }
    }

    pub async fn close(&self) {
        match self {
            Db::Sqlite { write, read } => {
                read.close().await;
                write.close().await;
            }
            Db::Postgres(pool) => pool.close().await,
        }
    }
}

/// A write transaction on either backend.
pub struct Tx {
    conn: Conn,
    /// Writes held back to go to the database together ([`Tx::hold_writes`]); `None` while each
    /// goes at once.
    held: Option<Held>,
}

enum Conn {
    Sqlite(Transaction<'static, Sqlite>),
    Postgres(Transaction<'static, Postgres>),
}

/// Held writes: one script of statements, their values written in as literals.
#[derive(Default)]
struct Held {
    script: String,
    /// The writes in it (an insert that joined the one before it counts).
    statements: usize,
    /// The script's last statement while more rows may join it: an insert of one row of values
    /// ([`one_row_insert`]).
    open: Option<OpenInsert>,
}

/// An insert at the end of a held script that a like one may add its row to.
struct OpenInsert {
    /// The statement as the projection wrote it, placeholders and all.
    sql: String,
    /// Where in the script its rows end: what follows is its tail and the `;`.
    rows_end: usize,
}

/// Held writes go to the database once this many wait, or once their text is [`HELD_BYTES`] long.
const HELD_STATEMENTS: usize = 500;
const HELD_BYTES: usize = 1 << 20;

impl Tx {
    fn of(conn: Conn) -> Tx {
        Tx { conn, held: None }
    }

    pub fn backend(&self) -> Backend {
        match self.conn {
            Conn::Sqlite(_) => Backend::Sqlite,
            Conn::Postgres(_) => Backend::Postgres,
        }
    }

    /// From now on, [`Tx::write`]s are held back and go to the database together, as one script
    /// of statements with their values written in as literals of the types they would have been
    /// bound as, before the next read, [`Tx::execute`] or commit. Each write then costs no round
    /// trip of its own (Postgres) and no hand-over to the connection's worker thread (SQLite).
    ///
    /// For a rebuild, which writes a row or two for each of a million events and reads little. A
    /// held write that fails fails the script, hence the transaction, later than it was made, and
    /// its error names no event.
    pub fn hold_writes(&mut self) {
        self.held.get_or_insert_with(Held::default);
    }

    /// A write whose count of rows changed does not matter: made at once, or held back
    /// ([`Tx::hold_writes`]). A statement that cannot be held (a value with a NUL character, a
    /// comment in its text) goes at once, after those held before it.
    pub async fn write(&mut self, sql: &str, args: Vec<Arg>) -> sqlx::Result<()> {
        let backend = self.backend();
        if let Some(held) = &mut self.held {
            if held.hold(sql, &args, backend) {
                if held.statements >= HELD_STATEMENTS || held.script.len() >= HELD_BYTES {
                    self.flush().await?;
                }
                return Ok(());
            }
        }
        self.execute(sql, args).await.map(|_| ())
    }

    /// Sends the held writes, if any, as one script. (Boxed: as a plain `async fn` its future is
    /// not seen to be `Send` for every lifetime, which the projections' futures must be.)
    fn flush(&mut self) -> futures::future::BoxFuture<'_, sqlx::Result<()>> {
        Box::pin(async move {
            let Some(held) = self.held.as_mut().filter(|h| h.statements > 0) else { return Ok(()) };
            let mut script = std::mem::take(&mut held.script);
            held.statements = 0;
            held.open = None;
            match &mut self.conn {
                Conn::Sqlite(tx) => {
                    (&mut **tx).execute(sqlx::raw_sql(&script)).await?;
                }
                Conn::Postgres(tx) => {
                    // The literals double their quotes and leave backslashes alone: make sure
                    // that is how this session reads them.
                    script.insert_str(0, "SET LOCAL standard_conforming_strings = on;\n");
                    (&mut **tx).execute(sqlx::raw_sql(&script)).await?;
                }
            }
            Ok(())
        })
    }

    pub async fn execute(&mut self, sql: &str, args: Vec<Arg>) -> sqlx::Result<u64> {
        self.flush().await?;
        Ok(match &mut self.conn {
            Conn::Sqlite(tx) => {
                let sql = sqlite_sql(sql);
                bind_all!(sqlx::query(&sql), args).execute(&mut **tx).await?.rows_affected()
            }
            Conn::Postgres(tx) => bind_all!(sqlx::query(sql), args).execute(&mut **tx).await?.rows_affected(),
        })
    }

    pub async fn fetch_optional<T: PortableRow>(&mut self, sql: &str, args: Vec<Arg>) -> sqlx::Result<Option<T>> {
        self.flush().await?;
        match &mut self.conn {
            Conn::Sqlite(tx) => {
                let sql = sqlite_sql(sql);
                bind_all!(sqlx::query_as::<Sqlite, T>(&sql), args).fetch_optional(&mut **tx).await
            }
            Conn::Postgres(tx) => bind_all!(sqlx::query_as::<Postgres, T>(sql), args).fetch_optional(&mut **tx).await,
        }
    }

    pub async fn fetch_all<T: PortableRow>(&mut self, sql: &str, args: Vec<Arg>) -> sqlx::Result<Vec<T>> {
        self.flush().await?;
        match &mut self.conn {
            Conn::Sqlite(tx) => {
                let sql = sqlite_sql(sql);
                bind_all!(sqlx::query_as::<Sqlite, T>(&sql), args).fetch_all(&mut **tx).await
            }
            Conn::Postgres(tx) => bind_all!(sqlx::query_as::<Postgres, T>(sql), args).fetch_all(&mut **tx).await,
        }
    }

    pub async fn commit(mut self) -> sqlx::Result<()> {
        self.flush().await?;
        match self.conn {
            Conn::Sqlite(tx) => tx.commit().await,
            Conn::Postgres(tx) => tx.commit().await,
        }
    }
}

impl Held {
    /// Adds a write to the script; false when it cannot be held ([`with_literals`]). An insert
    /// of one row that repeats the statement before it (the same text, other values) adds its
    /// row to that one: a projection replaying a batch inserts row after row the same way, and
    /// Postgres parses, analyses and plans a statement of many rows once, where those steps took
    /// more of its time than the inserting did. Each row is checked and written as its own
    /// statement would write it (duplicates skipped by `ON CONFLICT ... DO NOTHING` too), and a
    /// failure fails the transaction either way.
    fn hold(&mut self, sql: &str, args: &[Arg], backend: Backend) -> bool {
        if let Some((head, row, tail)) = one_row_insert(sql) {
            let Some(row) = with_literals(row, args, backend) else { return false };
            let sql = match self.open.take() {
                Some(open) if open.sql == sql => {
                    self.script.truncate(open.rows_end);
                    self.script.push_str(", ");
                    open.sql
                }
                _ => {
                    self.script.push_str(head);
                    sql.to_string()
                }
            };
            self.script.push_str(&row);
            self.open = Some(OpenInsert { sql, rows_end: self.script.len() });
            self.script.push_str(tail);
            self.script.push_str(";\n");
        } else {
            let Some(statement) = with_literals(sql, args, backend) else { return false };
            self.script.push_str(statement.trim_end().trim_end_matches(';'));
            self.script.push_str(";\n");
            self.open = None;
        }
        self.statements += 1;
        true
    }
}

/// An insert of one row of values whose row others may join, split around that row: `INSERT
/// INTO t (columns) VALUES `, `(values)` and what follows, which may only be nothing or `ON
/// CONFLICT ... DO NOTHING` (an update on conflict may not meet a row twice in one statement).
/// Only the row may hold placeholders.
fn one_row_insert(sql: &str) -> Option<(&str, &str, &str)> {
    let sql = sql.trim_end().trim_end_matches(';').trim_end();
    if !sql.starts_with("INSERT INTO ") || sql.contains("--") || sql.contains("/*") {
        return None;
    }
    let start = sql.find(" VALUES (")? + " VALUES ".len();
    // The row's closing parenthesis: the first at depth zero outside quotes.
    let (mut depth, mut quoted, mut end) = (0usize, false, None);
    for (i, b) in sql.bytes().enumerate().skip(start) {
        match b {
            b'\'' => quoted = !quoted,
            b'(' if !quoted => depth += 1,
            b')' if !quoted => {
                depth -= 1;
                if depth == 0 {
                    end = Some(i + 1);
                    break;
                }
            }
            _ => {}
        }
    }
    let end = end?;
    let (head, row, tail) = (&sql[..start], &sql[start..end], &sql[end..]);
    let tail_ok = tail.is_empty()
        || (tail.starts_with(" ON CONFLICT ") && tail.ends_with(" DO NOTHING") && !tail.contains(" DO UPDATE"));
    (tail_ok && !head.contains('$') && !tail.contains('$') && !head.contains('\'') && !tail.contains('\''))
        .then_some((head, row, tail))
}

/// `sql` with each `$n` outside quotes replaced by `args[n - 1]` written as a literal of the type
/// it would have been bound as (`$n` is how every statement here names its parameters). `None`
/// when that cannot be done safely: a value with a NUL character, a placeholder without a value,
/// an SQL comment (whose quotes would mislead the scan) or the smallest integer (which SQLite
/// would read as a real).
fn with_literals(sql: &str, args: &[Arg], backend: Backend) -> Option<String> {
    if sql.contains("--") || sql.contains("/*") {
        return None;
    }
    let bytes = sql.as_bytes();
    let mut out = String::with_capacity(sql.len() + 16 * args.len());
    let (mut copied, mut i, mut quoted) = (0, 0, false);
    while i < bytes.len() {
        match bytes[i] {
            b'\'' => quoted = !quoted,
            b'$' if !quoted && bytes.get(i + 1).is_some_and(u8::is_ascii_digit) => {
                let end = (i + 1..bytes.len()).find(|&j| !bytes[j].is_ascii_digit()).unwrap_or(bytes.len());
                let n: usize = sql[i + 1..end].parse().ok()?;
                out.push_str(&sql[copied..i]);
                literal(&mut out, args.get(n.checked_sub(1)?)?, backend)?;
                copied = end;
                i = end;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    out.push_str(&sql[copied..]);
    Some(out)
}

/// Writes `arg` as an SQL literal: quotes doubled, typed on Postgres as sqlx binds it (`text`,
/// `int8`, `bool`, and NULL untyped; SQLite stores a bound bool as 0 or 1).
fn literal(out: &mut String, arg: &Arg, backend: Backend) -> Option<()> {
    let text = |out: &mut String, s: &str| -> Option<()> {
        if s.contains('\0') {
            return None;
        }
        out.push('\'');
        out.push_str(&s.replace('\'', "''"));
        out.push('\'');
        if backend == Backend::Postgres {
            out.push_str("::text");
        }
        Some(())
    };
    match (arg, backend) {
        (Arg::Text(s) | Arg::OptText(Some(s)), _) => text(out, s)?,
        // A bound NULL takes the type its place asks for (sqlx gives it none); so does this one.
        (Arg::OptText(None), _) => out.push_str("NULL"),
        (Arg::Int(v), Backend::Postgres) => out.push_str(&format!("'{v}'::int8")),
        (Arg::Int(v), Backend::Sqlite) if *v == i64::MIN => return None,
        (Arg::Int(v), Backend::Sqlite) => out.push_str(&format!("({v})")),
        (Arg::Bool(v), Backend::Postgres) => out.push_str(if *v { "true" } else { "false" }),
        (Arg::Bool(v), Backend::Sqlite) => out.push_str(if *v { "1" } else { "0" }),
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::{one_row_insert, sqlite_sql, with_literals, Arg, Backend, Held};

    #[test]
    fn postgres_placeholders_become_indexed_sqlite_placeholders() {
        assert_eq!(
            sqlite_sql("UPDATE t SET a = $2 WHERE b = $1 AND c = $1 AND d = '$'"),
            "UPDATE t SET a = ?2 WHERE b = ?1 AND c = ?1 AND d = '$'"
        );
    }

    #[test]
    fn held_statements_carry_their_values_as_typed_literals() {
        let args = vec![Arg::Text("O'Brien".into()), Arg::Int(-3), Arg::Bool(true), Arg::OptText(None)];
        let sql = "UPDATE t SET a = $1, b = $2, c = $3, d = $4, e = '$1' WHERE f = $1";
        assert_eq!(
            with_literals(sql, &args, Backend::Postgres).unwrap(),
            "UPDATE t SET a = 'O''Brien'::text, b = '-3'::int8, c = true, d = NULL, e = '$1' \
             WHERE f = 'O''Brien'::text"
        );
        assert_eq!(
            with_literals(sql, &args, Backend::Sqlite).unwrap(),
            "UPDATE t SET a = 'O''Brien', b = (-3), c = 1, d = NULL, e = '$1' WHERE f = 'O''Brien'"
        );
    }

    #[test]
    fn like_inserts_of_one_row_are_held_as_one_statement_of_many() {
        let mut held = Held::default();
        let insert = "INSERT INTO t (a, b) VALUES ($1, $2) ON CONFLICT (a) DO NOTHING";
        assert!(held.hold(insert, &[Arg::Int(1), Arg::Text("x)".into())], Backend::Sqlite));
        assert!(held.hold(insert, &[Arg::Int(2), Arg::OptText(None)], Backend::Sqlite));
        assert!(held.hold("UPDATE t SET b = $1", &[Arg::Text("y".into())], Backend::Sqlite));
        assert!(held.hold(insert, &[Arg::Int(3), Arg::Text("z".into())], Backend::Sqlite));
        assert!(held.hold("INSERT INTO u (a) VALUES ($1)", &[Arg::Int(4)], Backend::Sqlite));
        assert!(!held.hold(insert, &[Arg::Int(5), Arg::Text("\0".into())], Backend::Sqlite));
        assert_eq!(
            held.script,
            "INSERT INTO t (a, b) VALUES ((1), 'x)'), ((2), NULL) ON CONFLICT (a) DO NOTHING;\n\
             UPDATE t SET b = 'y';\n\
             INSERT INTO t (a, b) VALUES ((3), 'z') ON CONFLICT (a) DO NOTHING;\n\
             INSERT INTO u (a) VALUES ((4));\n"
        );
        assert_eq!(held.statements, 5, "each write counts towards a flush");
    }

    #[test]
    fn only_one_row_inserts_that_nothing_but_do_nothing_follows_take_more_rows() {
        assert_eq!(
            one_row_insert("INSERT INTO t (a, b) VALUES (lower($1), ')') ON CONFLICT DO NOTHING"),
            Some(("INSERT INTO t (a, b) VALUES ", "(lower($1), ')')", " ON CONFLICT DO NOTHING"))
        );
        for sql in [
            "INSERT INTO t (a) VALUES ($1) ON CONFLICT (a) DO UPDATE SET a = excluded.a",
            "INSERT INTO t (a) VALUES ($1) RETURNING a",
            "INSERT INTO t (a) SELECT $1",
            "INSERT INTO t (a) VALUES ($1), ($2)",
            "INSERT INTO t (a) VALUES ($1) ON CONFLICT (a) WHERE a <> $2 DO NOTHING",
            "UPDATE t SET a = $1",
        ] {
            assert_eq!(one_row_insert(sql), None, "{sql}");
        }
    }

    #[test]
    fn statements_that_cannot_be_held_safely_are_not() {
        let sql = "INSERT INTO t VALUES ($1)";
        assert_eq!(with_literals(sql, &[Arg::Text("a\0b".into())], Backend::Sqlite), None);
        assert_eq!(with_literals(sql, &[Arg::Int(i64::MIN)], Backend::Sqlite), None);
        assert!(with_literals(sql, &[Arg::Int(i64::MIN)], Backend::Postgres).is_some());
        assert_eq!(with_literals("INSERT INTO t VALUES ($2)", &[Arg::Int(1)], Backend::Postgres), None);
        assert_eq!(with_literals("INSERT INTO t VALUES ($1) -- it's", &[Arg::Int(1)], Backend::Postgres), None);
        // $10 is the tenth value, not the first followed by a zero.
        let ten: Vec<Arg> = (1..=10).map(Arg::Int).collect();
        assert_eq!(with_literals("SELECT $10, $1", &ten, Backend::Sqlite).unwrap(), "SELECT (10), (1)");
    }
}
