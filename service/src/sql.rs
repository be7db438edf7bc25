//! Small pieces of the SQL the read models are queried with.

use chrono::SecondsFormat;

/// Returns the current time as the views keep times (RFC 3339, milliseconds, UTC).
pub fn now() -> String {
    stamp(chrono::Utc::now())
}

/// Returns `t` as the views and job queues keep times (RFC 3339, milliseconds, UTC), which
/// compare correctly as text.
pub fn stamp(t: chrono::DateTime<chrono::Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Millis, true)
}

/// Returns `$start, $start+1, ...` for `n` parameters, for an `IN (...)` list.
pub fn placeholders(start: usize, n: usize) -> String {
    (start..start + n).map(|i| format!("${i}")).collect::<Vec<_>>().join(", ")
}

/// A row leased off a job queue: its key, and how many times it has been leased so far.
#[derive(Debug, sqlx::FromRow)]
pub struct Leased {
    pub key: String,
    pub attempts: i64,
}

/// Leases up to `max` rows of the queue `table` that nobody holds or whose lease ran out, for
/// `lease` from `now`, counting the attempt. The queue has a text key column `key` and the columns
/// `attempts`, `lease_owner` and `lease_until`; on Postgres rows another node is leasing are
/// skipped (`FOR UPDATE SKIP LOCKED`), on SQLite the one writer serialises the update. `table`
/// and `key` are this crate's own names, never input.
pub async fn lease_jobs(
    db: &commands::Db,
    table: &str,
    key: &str,
    node: &str,
    now: chrono::DateTime<chrono::Utc>,
    lease: std::time::Duration,
    max: i64,
) -> anyhow::Result<Vec<Leased>> {
    let lock = match db.backend() {
        commands::store::Backend::Postgres => "FOR UPDATE SKIP LOCKED",
        commands::store::Backend::Sqlite => "",
    };
    let mut tx = db.begin().await?;
    let leased: Vec<Leased> = tx
        .fetch_all(
            &format!(
                "UPDATE {table} SET lease_owner = $1, lease_until = $2, attempts = attempts + 1 \
                 WHERE {key} IN (SELECT {key} FROM {table} \
                  WHERE lease_until IS NULL OR lease_until < $3 ORDER BY {key} LIMIT $4 {lock}) \
                 RETURNING {key} AS key, attempts"
            ),
            commands::args![node, stamp(now + chrono::Duration::from_std(lease)?), stamp(now), max],
        )
        .await?;
    tx.commit().await?;
    Ok(leased)
}

/// Extends `node`'s lease on the row `id` of the queue `table` (key column `key`) to `lease` from
/// `now`. Returns whether the node still held it (`false`: another node took the job after this
/// one failed to renew in time). `table` and `key` are this crate's own names, never input.
pub async fn renew_lease(
    db: &commands::Db,
    table: &str,
    key: &str,
    id: &str,
    node: &str,
    now: chrono::DateTime<chrono::Utc>,
    lease: std::time::Duration,
) -> anyhow::Result<bool> {
    let renewed = db
        .execute(
            &format!("UPDATE {table} SET lease_until = $1 WHERE {key} = $2 AND lease_owner = $3"),
            commands::args![stamp(now + chrono::Duration::from_std(lease)?), id, node],
        )
        .await?;
    Ok(renewed > 0)
}

#[cfg(test)]
mod tests {
    #[test]
    fn placeholders_number_from_where_the_fixed_parameters_end() {
        assert_eq!(super::placeholders(2, 3), "$2, $3, $4");
        assert_eq!(super::placeholders(1, 1), "$1");
    }
}
