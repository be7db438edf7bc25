//! Rebuilding read models beside the live ones, then swapping the new ones in.
//!
//! A rebuild replays the whole feed into new, empty copies of the chosen projections' tables,
//! with checkpoints of their own, while a running server goes on answering from, and advancing,
//! the tables it has. Once the copies have caught up, one transaction takes the projections'
//! locks (so no runner advances them meanwhile), applies what arrived since, and puts the copies
//! in place of the old tables together with their checkpoints. Readers see the old model until
//! that commit and the new one after it, never a half-built one.
//!
//! The projections' SQL names tables without a schema, so the copies are tables of the same
//! names that the rebuild's connections find first:
//! - Postgres: a schema of their own, `<live schema>_rebuild`, first in the rebuild connections'
//!   `search_path`, its tables created `LIKE` the live ones. The swap drops each live table and
//!   moves its copy into the live schema, giving its indexes their old names back. One rebuild
//!   runs at a time per schema (a session advisory lock).
//! - SQLite: TEMP tables on the rebuild's own connection (a temp table hides a main one of the
//!   same name), made from the live tables' own `CREATE` statements. Every connection of that
//!   pool creates them as it opens, so a connection lost midway starts an empty, consistent copy
//!   rather than writing to the live tables. The swap, one write transaction, replaces each live
//!   table's rows with the copy's.

use std::sync::Arc;
use std::time::Duration;

use commands::feed::{Cursor, StoredEvent};
use commands::store::{Backend, Db, Tx};
use sqlx::postgres::PgPoolOptions;
use sqlx::sqlite::SqlitePoolOptions;
use sqlx::{Executor, PgPool, SqlitePool};

use crate::runner::{self, Projection, CHECKPOINTS, REBUILD_BATCH};

/// SQLite: the page cache of the rebuild connection's temporary database, where the copies are
/// built (negative: KiB). Beyond it pages go to a temporary file.
const COPIES_CACHE: &str = "PRAGMA temp.cache_size = -262144";

/// Rebuilds `projections` from the start of the feed beside the live read models and swaps the
/// new ones in. Returns the cursor they reached.
pub async fn beside_and_swap(db: &Db, projections: &[&dyn Projection]) -> anyhow::Result<Cursor> {
    let names = runner::checked_names(projections)?;
    let mut tables: Vec<&'static str> = projections.iter().flat_map(|p| p.tables().iter().copied()).collect();
    tables.sort_unstable();
    tables.dedup();
    for table in &tables {
        anyhow::ensure!(
            runner::plain_name(table),
            "a read model's table name must be lower-case letters, digits and underscores: {table:?}"
        );
    }
    let job = Job { db, projections, names: &names, tables: &tables };
    match db {
        Db::Postgres(pool) => job.on_postgres(pool).await,
        Db::Sqlite { write, read } => job.on_sqlite(write, read).await,
    }
}

/// Postgres: how many groups of projections build their copies at once.
const POSTGRES_BUILDERS: usize = 2;

/// `projections` in at most `n` groups that share no table, so that each group can be built in a
/// transaction of its own (a projection keeps its own checkpoint and reads no other's tables).
/// Projections sharing a table stay together; the rest are dealt round in turn.
fn parallel_groups<'a>(projections: &[&'a dyn Projection], n: usize) -> Vec<Vec<&'a dyn Projection>> {
    // Projections joined by a shared table, as sets of indexes.
    let mut sets: Vec<Vec<usize>> = Vec::new();
    for (i, projection) in projections.iter().enumerate() {
        let touching: Vec<usize> = (0..sets.len())
            .filter(|&s| {
                sets[s].iter().any(|&j| projections[j].tables().iter().any(|t| projection.tables().contains(t)))
            })
            .collect();
        let mut joined = vec![i];
        for &s in touching.iter().rev() {
            joined.extend(sets.swap_remove(s));
        }
        sets.push(joined);
    }
    sets.sort_by_key(|set| set.iter().copied().min());
    let mut groups: Vec<Vec<&dyn Projection>> = vec![Vec::new(); n.max(1).min(sets.len().max(1))];
    let count = groups.len();
    for (k, mut set) in sets.into_iter().enumerate() {
        set.sort_unstable();
        groups[k % count].extend(set.into_iter().map(|i| projections[i]));
    }
    groups.retain(|g| !g.is_empty());
    groups
}

/// How many batches the feed's reader may run ahead of the slowest group building copies.
const READ_AHEAD: usize = 2;

/// Builds `groups`' copies (in `copies`) from the start of the feed up to its head as of the
/// call. One task reads the feed (from `feed`) a batch at a time and hands every batch to each
/// group, which applies it in a transaction of its own with its writes held
/// ([`Tx::hold_writes`]): the feed is read and decoded once however many groups there are, and
/// the next batch is read while this one is applied.
async fn build_copies(feed: &Db, copies: &Db, groups: &[Vec<&dyn Projection>]) -> anyhow::Result<()> {
    let target = commands::feed::head(feed).await?;
    let (senders, receivers): (Vec<_>, Vec<_>) =
        groups.iter().map(|_| tokio::sync::mpsc::channel::<(Cursor, Arc<Vec<StoredEvent>>)>(READ_AHEAD)).unzip();
    let reader = tokio::spawn({
        let feed = feed.clone();
        async move {
            let mut at = Cursor::default();
            loop {
                let events = Arc::new(commands::feed::read_after(&feed, at, REBUILD_BATCH).await?);
                let Some(last) = events.last().map(|e| e.cursor) else {
                    return anyhow::Ok(());
                };
                for sender in &senders {
                    // A group that stopped has failed; its error is the one reported.
                    if sender.send((at, events.clone())).await.is_err() {
                        return Ok(());
                    }
                }
                at = last;
                if (events.len() as i64) < REBUILD_BATCH || at >= target {
                    return Ok(());
                }
            }
        }
    });
    let builders = groups.iter().zip(receivers).map(|(group, mut batches)| async move {
        let names = runner::checked_names(group)?;
        while let Some((read_from, events)) = batches.recv().await {
            let mut tx = copies.begin().await?;
            // A rebuild writes a row or more for each of its events and reads back little.
            tx.hold_writes();
            runner::apply_read(&mut tx, group, &names, read_from, &events).await?;
            tx.commit().await?;
        }
        anyhow::Ok(())
    });
    let built = futures::future::try_join_all(builders).await;
    // When a builder failed the reader stops at its next batch (its channel closed).
    let read = reader.await.map_err(|error| anyhow::anyhow!("the rebuild's feed reader stopped: {error}"))?;
    built?;
    read
}

struct Job<'a> {
    db: &'a Db,
    projections: &'a [&'a dyn Projection],
    /// The projections' names, sorted.
    names: &'a [&'static str],
    /// The tables they own, sorted.
    tables: &'a [&'static str],
}

impl Job<'_> {
    async fn on_postgres(&self, pool: &PgPool) -> anyhow::Result<Cursor> {
        let live: String = sqlx::query_scalar::<_, Option<String>>("SELECT current_schema()")
            .fetch_optional(pool)
            .await?
            .flatten()
            .ok_or_else(|| anyhow::anyhow!("the connection has no current schema"))?;
        let shadow = format!("{live}_rebuild");
        anyhow::ensure!(shadow.len() <= 63, "the schema name {live:?} is too long for a rebuild schema beside it");
        // Held for the whole rebuild: a second one on this schema would drop this one's copies.
        let mut guard = pool.acquire().await?;
        let key = format!("needl.rebuild.{live}");
        let got: bool = sqlx::query_scalar("SELECT pg_try_advisory_lock(hashtextextended($1, 0))")
            .bind(&key)
            .fetch_one(&mut *guard)
            .await?;
        anyhow::ensure!(got, "another rebuild of the read models is running on this database; wait for it to finish");
        let result = self.postgres_locked(pool, &live, &shadow).await;
        if result.is_err() {
            // Whatever was built is of no use; the live tables were never touched.
            let _ = sqlx::query(&format!("DROP SCHEMA IF EXISTS {} CASCADE", ident(&shadow))).execute(pool).await;
        }
        sqlx::query("SELECT pg_advisory_unlock(hashtextextended($1, 0))").bind(&key).execute(&mut *guard).await?;
        result
    }

    async fn postgres_locked(&self, pool: &PgPool, live: &str, shadow: &str) -> anyhow::Result<Cursor> {
        let (live_q, shadow_q) = (ident(live), ident(shadow));
        // Copies left by a rebuild that died are dropped first.
        pool.execute(format!("DROP SCHEMA IF EXISTS {shadow_q} CASCADE").as_str()).await?;
        pool.execute(format!("CREATE SCHEMA {shadow_q}").as_str()).await.map_err(|error| {
            anyhow::anyhow!(
                "creating the schema {shadow} to rebuild in ({error}); the database user needs the CREATE privilege \
                 on the database"
            )
        })?;
        for table in self.tables.iter().chain([&CHECKPOINTS]) {
            pool.execute(format!("CREATE TABLE {shadow_q}.{table} (LIKE {live_q}.{table} INCLUDING ALL)").as_str())
                .await?;
        }
        let search_path = format!("SET search_path TO {shadow_q}, {live_q}");
        let groups = parallel_groups(self.projections, POSTGRES_BUILDERS);
        let copies = PgPoolOptions::new()
            .max_connections(groups.len() as u32 + 1)
            .acquire_timeout(Duration::from_secs(30))
            .after_connect({
                let search_path = search_path.clone();
                move |conn, _| {
                    let search_path = search_path.clone();
                    Box::pin(async move { conn.execute(search_path.as_str()).await.map(|_| ()) })
                }
            })
            .connect_with((*pool.connect_options()).clone())
            .await?;
        let copies = Db::Postgres(copies);
        // Each group on a connection of its own, so Postgres applies every group's share of a
        // batch at once.
        let built = build_copies(self.db, &copies, &groups).await;
        copies.close().await;
        built?;

        let mut tx = self.db.begin().await?;
        runner::lock(&mut tx, Backend::Postgres, self.names, CHECKPOINTS).await?;
        tx.execute(&format!("SET LOCAL {}", &search_path["SET ".len()..]), vec![]).await?;
        let at = self.finish(&mut tx).await?;
        for table in self.tables {
            let before = indexes(&mut tx, live, table).await?;
            tx.execute(&format!("DROP TABLE {live_q}.{table}"), vec![]).await?;
            tx.execute(&format!("ALTER TABLE {shadow_q}.{table} SET SCHEMA {live_q}"), vec![]).await?;
            // Indexes made by LIKE are named by Postgres; later migrations name the originals.
            let mut old = before;
            for (name, definition) in indexes(&mut tx, live, table).await? {
                let Some(i) = old.iter().position(|(_, d)| index_shape(d) == index_shape(&definition)) else {
                    continue;
                };
                let (old_name, _) = old.swap_remove(i);
                if old_name != name {
                    tx.execute(
                        &format!("ALTER INDEX {live_q}.{} RENAME TO {}", ident(&name), ident(&old_name)),
                        vec![],
                    )
                    .await?;
                }
            }
        }
        self.replace_checkpoints(&mut tx, &live_q, &shadow_q).await?;
        tx.execute(&format!("DROP SCHEMA {shadow_q} CASCADE"), vec![]).await?;
        tx.execute("SELECT pg_notify('needl_events', '')", vec![]).await?;
        tx.commit().await?;
        Ok(at)
    }

    async fn on_sqlite(&self, write: &SqlitePool, read: &SqlitePool) -> anyhow::Result<Cursor> {
        let mut ddl = Vec::new();
        for table in self.tables.iter().chain([&CHECKPOINTS]) {
            let made: Vec<(String, String)> = sqlx::query_as(
                "SELECT type, sql FROM sqlite_master WHERE tbl_name = ?1 AND sql IS NOT NULL \
                 ORDER BY type = 'table' DESC, name",
            )
            .bind(*table)
            .fetch_all(read)
            .await?;
            anyhow::ensure!(made.first().is_some_and(|(kind, _)| kind == "table"), "no table {table} to rebuild");
            for (kind, sql) in made {
                ddl.push(
                    as_temp(&kind, &sql).ok_or_else(|| anyhow::anyhow!("cannot copy the {kind} of {table}: {sql}"))?,
                );
            }
        }
        let ddl = std::sync::Arc::new(ddl);
        let copies = SqlitePoolOptions::new()
            .max_connections(1)
            .idle_timeout(None)
            .max_lifetime(None)
            .after_connect(move |conn, _| {
                let ddl = ddl.clone();
                Box::pin(async move {
                    conn.execute(COPIES_CACHE).await?;
                    for statement in ddl.iter() {
                        conn.execute(statement.as_str()).await?;
                    }
                    Ok(())
                })
            })
            .connect_with((*write.connect_options()).clone())
            .await?;
        // Feed reads go to the live database's readers, which stay open after.
        let result = self.sqlite_build(&Db::Sqlite { write: copies.clone(), read: read.clone() }).await;
        copies.close().await;
        result
    }

    async fn sqlite_build(&self, copies: &Db) -> anyhow::Result<Cursor> {
        build_copies(self.db, copies, &[self.projections.to_vec()]).await?;
        let mut tx = copies.begin().await?;
        // The live database's write lock (a write to a temp table takes none).
        runner::lock(&mut tx, Backend::Sqlite, self.names, &format!("main.{CHECKPOINTS}")).await?;
        let at = self.finish(&mut tx).await?;
        for table in self.tables {
            tx.execute(&format!("DELETE FROM main.{table}"), vec![]).await?;
            tx.execute(&format!("INSERT INTO main.{table} SELECT * FROM temp.{table}"), vec![]).await?;
        }
        self.replace_checkpoints(&mut tx, "main", "temp").await?;
        tx.commit().await?;
        Ok(at)
    }

    /// Applies to the copies, in `tx` (which holds the projections' locks), the events after
    /// their checkpoints. Returns the cursor the one furthest behind reached.
    async fn finish(&self, tx: &mut Tx) -> anyhow::Result<Cursor> {
        loop {
            let (reached, events) =
                runner::apply_batch(tx, self.db, self.projections, self.names, REBUILD_BATCH, None).await?;
            if (events.len() as i64) < REBUILD_BATCH {
                return Ok(reached.iter().map(|(at, _)| *at).min().unwrap_or_default());
            }
        }
    }

    /// The rebuilt projections' checkpoints become the copies' (none: the start of the feed).
    async fn replace_checkpoints(&self, tx: &mut Tx, live: &str, copies: &str) -> anyhow::Result<()> {
        let list = runner::quoted_list(self.names);
        tx.execute(&format!("DELETE FROM {live}.{CHECKPOINTS} WHERE name IN ({list})"), vec![]).await?;
        tx.execute(
            &format!(
                "INSERT INTO {live}.{CHECKPOINTS} (name, transaction_id, position, updated_at) \
                 SELECT name, transaction_id, position, updated_at FROM {copies}.{CHECKPOINTS} WHERE name IN ({list})"
            ),
            vec![],
        )
        .await?;
        Ok(())
    }
}

/// A Postgres identifier, quoted.
fn ident(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

/// A table's indexes on Postgres: name and definition.
async fn indexes(tx: &mut Tx, schema: &str, table: &str) -> anyhow::Result<Vec<(String, String)>> {
    Ok(tx
        .fetch_all(
            "SELECT indexname::text, indexdef FROM pg_indexes WHERE schemaname = $1 AND tablename = $2",
            vec![schema.into(), table.into()],
        )
        .await?)
}

/// What an index is, without its name and table: whether unique, and everything from its
/// method on (columns, expressions, predicate).
fn index_shape(definition: &str) -> (bool, &str) {
    let unique = definition.starts_with("CREATE UNIQUE INDEX");
    (unique, definition.find(" USING ").map(|at| &definition[at..]).unwrap_or(definition))
}

/// The statement that makes a temp copy of a table or index from the one SQLite keeps for it.
/// SQLite keeps them normalised: upper-case `CREATE TABLE` / `CREATE [UNIQUE] INDEX`, single
/// spaces after them, no schema before the name.
fn as_temp(kind: &str, sql: &str) -> Option<String> {
    match kind {
        "table" => sql.strip_prefix("CREATE TABLE ").map(|rest| format!("CREATE TEMP TABLE {rest}")),
        "index" => {
            if let Some(rest) = sql.strip_prefix("CREATE UNIQUE INDEX ") {
                Some(format!("CREATE UNIQUE INDEX temp.{rest}"))
            } else {
                sql.strip_prefix("CREATE INDEX ").map(|rest| format!("CREATE INDEX temp.{rest}"))
            }
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn temp_copies_keep_the_definition() {
        assert_eq!(
            as_temp("table", "CREATE TABLE tags_view (tag_id TEXT PRIMARY KEY) STRICT").unwrap(),
            "CREATE TEMP TABLE tags_view (tag_id TEXT PRIMARY KEY) STRICT"
        );
        assert_eq!(
            as_temp("index", "CREATE UNIQUE INDEX tags_by_name ON tags_view (name_key)").unwrap(),
            "CREATE UNIQUE INDEX temp.tags_by_name ON tags_view (name_key)"
        );
        assert_eq!(
            as_temp("index", "CREATE INDEX \"by owner\" ON tags_view (owner)").unwrap(),
            "CREATE INDEX temp.\"by owner\" ON tags_view (owner)"
        );
        assert_eq!(as_temp("trigger", "CREATE TRIGGER t AFTER INSERT ON x BEGIN SELECT 1; END"), None);
    }

    struct Owning(&'static str, &'static [&'static str]);

    #[async_trait::async_trait]
    impl Projection for Owning {
        fn name(&self) -> &'static str {
            self.0
        }
        fn tables(&self) -> &'static [&'static str] {
            self.1
        }
        fn reads(&self) -> &'static [&'static str] {
            &[]
        }
        async fn apply(&self, _: &mut Tx, _: &commands::feed::StoredEvent) -> anyhow::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn projections_that_share_a_table_are_built_in_the_same_group() {
        let (a, b, c, d, e) = (
            Owning("a", &["a_view"]),
            Owning("b", &["b_view", "shared"]),
            Owning("c", &["c_view"]),
            Owning("d", &["shared", "d_view"]),
            Owning("e", &["e_view"]),
        );
        let all: Vec<&dyn Projection> = vec![&a, &b, &c, &d, &e];
        let names = |groups: Vec<Vec<&dyn Projection>>| -> Vec<Vec<&str>> {
            groups.iter().map(|g| g.iter().map(|p| p.name()).collect()).collect()
        };
        assert_eq!(names(parallel_groups(&all, 2)), vec![vec!["a", "c"], vec!["b", "d", "e"]]);
        assert_eq!(names(parallel_groups(&all, 1)), vec![vec!["a", "b", "d", "c", "e"]]);
        assert_eq!(names(parallel_groups(&all[..1], 3)), vec![vec!["a"]]);
    }

    #[test]
    fn an_index_is_known_by_its_shape_not_its_name() {
        let old = "CREATE UNIQUE INDEX tags_by_name ON t_1.tags_view USING btree (owner, name_key)";
        let new = "CREATE UNIQUE INDEX tags_view_owner_name_key_idx ON t_1.tags_view USING btree (owner, name_key)";
        assert_eq!(index_shape(old), index_shape(new));
        let plain = "CREATE INDEX tags_by_name ON t_1.tags_view USING btree (owner, name_key)";
        assert_ne!(index_shape(old), index_shape(plain));
    }
}
