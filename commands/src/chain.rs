//! Tamper evidence: a SHA-256 hash chain over every event, and signed checkpoints of it.
//!
//! Each event's hash covers the previous event's hash, its own chain position, and its aggregate,
//! sequence, type, version, payload and metadata, byte for byte as stored ([`link`] is the one
//! definition of the encoding).
//!
//! - SQLite, which has one writer: a trigger chains each event in its own transaction, updating
//!   the one-row `event_chain_head` (position + 1, the new hash) and writing both onto the row; the
//!   chain position is the feed position. SQLite has no SHA-256, so the server registers
//!   `needl_chain_link` on each connection ([`register_sqlite`]).
//! - Postgres: the events are chained just after they commit, in feed order, by
//!   `needl_chain_advance` (migration 0026), which each node's projection runner calls ([`advance`]).
//!   Chaining inside each event's transaction (0017) held the head row's lock until commit, so
//!   every event writer waited for the one before it to reach the disk. The chain position is its
//!   own column (`event_chain.position`), and the head records the feed cursor it reached. An event
//!   committed but not chained yet is pending, not a break; [`advance`] before [`verify`] chains
//!   what is pending. The links (position, the event's feed cursor, hash) are appended to a table
//!   of their own, `event_chain` (migration 0026): an event's row is written once, never updated.
//!
//! [`verify`] walks the chain and names the first position where it breaks: an event changed
//! (its hash no longer matches), deleted (a gap), moved (its position is part of its hash), or cut
//! from the end (the head disagrees). Anyone with write access to the database could recompute
//! every hash after an edit, so the chain alone proves nothing against them: a [`Checkpoint`] (the
//! head's position and hash, signed with the instance's Ed25519 audit key) kept by an auditor
//! outside the system pins the history up to it, and [`verify`] checks the recomputed chain
//! against any checkpoints it is given.

use std::collections::BTreeMap;

use ed25519_dalek::{Signature, Signer, SigningKey, Verifier, VerifyingKey};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::feed::Cursor;
use crate::store::{Arg, Db};

/// The hash the first event chains onto.
pub const GENESIS: &str = "0000000000000000000000000000000000000000000000000000000000000000";

/// What goes into one event's hash, as stored.
#[derive(Debug, Clone, Copy)]
pub struct Link<'a> {
    pub prev: &'a str,
    pub position: i64,
    pub aggregate_type: &'a str,
    pub aggregate_id: &'a str,
    pub sequence: i64,
    pub event_type: &'a str,
    pub event_version: &'a str,
    pub payload: &'a str,
    pub metadata: &'a str,
}

/// The event's hash, lower-case hex: SHA-256 over `needl-chain-v1\n` and then each field as its
/// byte length in decimal, a colon, its bytes and a newline (so no two field lists encode alike).
pub fn link(l: &Link<'_>) -> String {
    let mut hasher = Sha256::new();
    hasher.update(b"needl-chain-v1\n");
    let position = l.position.to_string();
    let sequence = l.sequence.to_string();
    for field in [
        l.prev.as_bytes(),
        position.as_bytes(),
        l.aggregate_type.as_bytes(),
        l.aggregate_id.as_bytes(),
        sequence.as_bytes(),
        l.event_type.as_bytes(),
        l.event_version.as_bytes(),
        l.payload.as_bytes(),
        l.metadata.as_bytes(),
    ] {
        hasher.update(field.len().to_string().as_bytes());
        hasher.update(b":");
        hasher.update(field);
        hasher.update(b"\n");
    }
    hex::encode(hasher.finalize())
}

/// Registers `needl_chain_link(prev, position, aggregate_type, aggregate_id, sequence, event_type,
/// event_version, payload, metadata)` on a SQLite connection, for the trigger that chains events.
pub async fn register_sqlite(conn: &mut sqlx::SqliteConnection) -> sqlx::Result<()> {
    let mut handle = conn.lock_handle().await?;
    let raw = handle.as_raw_handle();
    sqlite_function::register(raw.as_ptr()).map_err(|code| {
        sqlx::Error::Configuration(format!("registering needl_chain_link failed (SQLite code {code})").into())
    })
}

/// The C side of `needl_chain_link`. Kept apart: the only `unsafe` code in the crate.
mod sqlite_function {
    use std::ffi::{c_char, c_int};

    use libsqlite3_sys as ffi;

    pub(super) fn register(db: *mut ffi::sqlite3) -> Result<(), c_int> {
        // SAFETY: `db` is a live connection handle held locked by the caller for the duration of
        // the call; the name is a NUL-terminated literal; no user data pointer or destructor.
        let code = unsafe {
            ffi::sqlite3_create_function_v2(
                db,
                c"needl_chain_link".as_ptr(),
                9,
                ffi::SQLITE_UTF8 | ffi::SQLITE_DETERMINISTIC,
                std::ptr::null_mut(),
                Some(call),
                None,
                None,
                None,
            )
        };
        if code == ffi::SQLITE_OK {
            Ok(())
        } else {
            Err(code)
        }
    }

    /// The value's text (as UTF-8 bytes), `None` for NULL.
    ///
    /// SAFETY: `value` must be a protected value passed to the running function call.
    unsafe fn text<'a>(value: *mut ffi::sqlite3_value) -> Option<&'a [u8]> {
        unsafe {
            if ffi::sqlite3_value_type(value) == ffi::SQLITE_NULL {
                return None;
            }
            let ptr = ffi::sqlite3_value_text(value);
            if ptr.is_null() {
                return Some(&[]);
            }
            let len = ffi::sqlite3_value_bytes(value);
            Some(std::slice::from_raw_parts(ptr, len as usize))
        }
    }

    unsafe extern "C" fn call(ctx: *mut ffi::sqlite3_context, argc: c_int, argv: *mut *mut ffi::sqlite3_value) {
        // SAFETY: SQLite passes `argc` (9, as registered) valid values for this call.
        unsafe {
            let args = std::slice::from_raw_parts(argv, argc as usize);
            let mut fields: Vec<&[u8]> = Vec::with_capacity(9);
            for &arg in args {
                match text(arg) {
                    Some(bytes) => fields.push(bytes),
                    None => {
                        ffi::sqlite3_result_null(ctx);
                        return;
                    }
                }
            }
            let as_str = |bytes: &[u8]| std::str::from_utf8(bytes).ok().map(str::to_owned);
            let as_int = |bytes: &[u8]| std::str::from_utf8(bytes).ok().and_then(|s| s.parse::<i64>().ok());
            let (Some(prev), Some(position), Some(sequence)) =
                (as_str(fields[0]), as_int(fields[1]), as_int(fields[4]))
            else {
                let message = c"needl_chain_link: position and sequence must be integers";
                ffi::sqlite3_result_error(ctx, message.as_ptr(), -1);
                return;
            };
            let strings: Vec<String> =
                [2, 3, 5, 6, 7, 8].iter().map(|&i| String::from_utf8_lossy(fields[i]).into_owned()).collect();
            let hash = super::link(&super::Link {
                prev: &prev,
                position,
                aggregate_type: &strings[0],
                aggregate_id: &strings[1],
                sequence,
                event_type: &strings[2],
                event_version: &strings[3],
                payload: &strings[4],
                metadata: &strings[5],
            });
            ffi::sqlite3_result_text(ctx, hash.as_ptr() as *const c_char, hash.len() as c_int, ffi::SQLITE_TRANSIENT());
        }
    }
}

/// A point of the chain: a position and the hash there.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Point {
    pub position: i64,
    pub hash: String,
}

/// Where and why the chain breaks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Break {
    /// The first chain position that does not hold.
    pub position: i64,
    pub reason: String,
}

/// What a walk of the chain found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Verification {
    /// Events whose hash was recomputed.
    pub events_checked: u64,
    /// The head as the database records it; `None` before the first event.
    pub head: Option<Point>,
    /// The last point verified (the head when the chain holds).
    pub verified_through: Option<Point>,
    /// The first break, if any; the walk stops there.
    pub first_break: Option<Break>,
}

impl Verification {
    pub fn intact(&self) -> bool {
        self.first_break.is_none()
    }
}

#[derive(sqlx::FromRow)]
struct ChainRow {
    position: i64,
    aggregate_type: String,
    aggregate_id: String,
    sequence: i64,
    event_type: String,
    event_version: String,
    payload: String,
    metadata: String,
    chain_hash: Option<String>,
}

#[derive(sqlx::FromRow)]
struct HeadRow {
    position: i64,
    hash: String,
}

#[derive(sqlx::FromRow)]
struct HashRow {
    chain_hash: Option<String>,
}

#[derive(sqlx::FromRow)]
struct CountRow {
    n: i64,
}

/// Rows read per query while walking.
const PAGE: i64 = 2000;

/// Where the chain is read: the events with their links (`FROM` clause), the chain position's
/// column in it, and the columns of a [`ChainRow`].
struct ChainSql {
    from: &'static str,
    order: &'static str,
    hash: &'static str,
    columns: &'static str,
}

fn chain_sql(db: &Db) -> ChainSql {
    match db {
        // The link is written onto the event's row by the trigger; the position is the feed's.
        Db::Sqlite { .. } => ChainSql {
            from: "events",
            order: "global_position",
            hash: "chain_hash",
            columns: "global_position AS position, aggregate_type, aggregate_id, sequence, event_type, \
                      event_version, payload, metadata, chain_hash",
        },
        // A link row whose event is gone (or an event without its link) joins to nothing: the walk
        // finds the gap at its position.
        Db::Postgres(_) => ChainSql {
            from: "event_chain c JOIN events e \
                   ON (e.transaction_id, e.global_position) = (c.transaction_id, c.global_position)",
            order: "c.position",
            hash: "c.hash",
            columns: "c.position AS position, e.aggregate_type, e.aggregate_id, e.sequence, e.event_type, \
                      e.event_version, e.payload::text AS payload, e.metadata::text AS metadata, \
                      c.hash AS chain_hash",
        },
    }
}

/// The head as recorded: the newest position and hash.
pub async fn head(db: &Db) -> sqlx::Result<Option<Point>> {
    let row: Option<HeadRow> =
        db.fetch_optional("SELECT position, hash FROM event_chain_head WHERE id = 1", vec![]).await?;
    Ok(row.filter(|r| r.position > 0).map(|r| Point { position: r.position, hash: r.hash }))
}

/// The chain position of the event at feed cursor `cursor`, if there is one.
pub async fn position_of(db: &Db, cursor: Cursor) -> sqlx::Result<Option<i64>> {
    #[derive(sqlx::FromRow)]
    struct Row {
        position: Option<i64>,
    }
    let row: Option<Row> = match db {
        Db::Sqlite { .. } => {
            db.fetch_optional(
                "SELECT global_position AS position FROM events WHERE global_position = $1",
                vec![Arg::Int(cursor.pos)],
            )
            .await?
        }
        Db::Postgres(_) => {
            db.fetch_optional(
                "SELECT position FROM event_chain WHERE transaction_id = $1::text::xid8 AND global_position = $2",
                vec![Arg::Text(cursor.tx.to_string()), Arg::Int(cursor.pos)],
            )
            .await?
        }
    };
    Ok(row.and_then(|r| r.position))
}

/// How many events one call of `needl_chain_advance` chains at most.
const ADVANCE_BATCH: i64 = 1_000;

/// Chains the events committed since the chain's head, in feed order, and returns how many
/// (Postgres). On SQLite the trigger chains every event as it is written: nothing to do.
pub async fn advance(db: &Db) -> sqlx::Result<u64> {
    if !matches!(db, Db::Postgres(_)) {
        return Ok(0);
    }
    let mut total = 0;
    loop {
        let row: Option<CountRow> =
            db.fetch_optional("SELECT needl_chain_advance($1) AS n", vec![Arg::Int(ADVANCE_BATCH)]).await?;
        let n = row.map_or(0, |r| r.n);
        total += n as u64;
        if n < ADVANCE_BATCH {
            return Ok(total);
        }
    }
}

/// Walks the chain from position `from` (1 when `None`) to the head, recomputing every hash.
/// Starting past 1 trusts the stored hash just before `from`, and leaves the look for events
/// written without a hash to whole walks. Each checkpoint in `anchors`
/// (position → hash) the walk passes must match the recomputed hash there.
pub async fn verify(db: &Db, from: Option<i64>, anchors: &BTreeMap<i64, String>) -> sqlx::Result<Verification> {
    let ChainSql { from: source, order, hash: hash_column, columns } = chain_sql(db);
    let head = head(db).await?;
    let start = from.unwrap_or(1).max(1);
    let mut prev = if start == 1 {
        GENESIS.to_string()
    } else {
        let row: Option<HashRow> = db
            .fetch_optional(
                &format!("SELECT {hash_column} AS chain_hash FROM {source} WHERE {order} = $1"),
                vec![Arg::Int(start - 1)],
            )
            .await?;
        match row.and_then(|r| r.chain_hash) {
            Some(hash) => hash,
            None => {
                return Ok(Verification {
                    events_checked: 0,
                    head,
                    verified_through: None,
                    first_break: Some(Break {
                        position: start - 1,
                        reason: format!("there is no chained event at position {} to start after", start - 1),
                    }),
                })
            }
        }
    };
    let mut expected = start;
    let mut checked = 0u64;
    let mut through: Option<Point> = None;
    let broken =
        |position: i64, reason: String, checked: u64, through: Option<Point>, head: Option<Point>| Verification {
            events_checked: checked,
            head,
            verified_through: through,
            first_break: Some(Break { position, reason }),
        };
    // The walk stops at the head read above: events appended while it runs belong to a later
    // walk, not to this one's end (where they would read as a head left behind).
    let last = head.as_ref().map_or(i64::MAX, |h| h.position);
    loop {
        let rows: Vec<ChainRow> = db
            .fetch_all(
                &format!(
                    "SELECT {columns} FROM {source} WHERE {order} >= $1 AND {order} <= $3 ORDER BY {order} LIMIT $2"
                ),
                vec![Arg::Int(expected), Arg::Int(PAGE), Arg::Int(last)],
            )
            .await?;
        let last_page = (rows.len() as i64) < PAGE;
        for row in rows {
            if row.position != expected {
                let reason = format!(
                    "the event at position {expected} is missing (deleted, or moved to another position); \
                     the next one is at {}",
                    row.position
                );
                return Ok(broken(expected, reason, checked, through, head));
            }
            let hash = link(&Link {
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
            if row.chain_hash.as_deref() != Some(hash.as_str()) {
                let reason = match row.chain_hash {
                    None => format!("the event at position {expected} carries no hash"),
                    Some(_) => format!(
                        "the event at position {expected} ({} {} #{}) does not match its hash: it, or the one \
                         before it, was changed or moved",
                        row.aggregate_type, row.aggregate_id, row.sequence
                    ),
                };
                return Ok(broken(expected, reason, checked, through, head));
            }
            if let Some(anchor) = anchors.get(&row.position) {
                if *anchor != hash {
                    let reason = format!(
                        "the history up to position {expected} differs from the checkpoint taken there: it was \
                         rewritten after the checkpoint"
                    );
                    return Ok(broken(expected, reason, checked, through, head));
                }
            }
            checked += 1;
            expected += 1;
            prev = hash;
            through = Some(Point { position: row.position, hash: prev.clone() });
        }
        if last_page {
            break;
        }
    }
    let end = expected - 1;
    if let Some((&position, _)) = anchors.range(end + 1..).next() {
        let reason = format!("a checkpoint was taken at position {position}, but the history ends at {end}");
        return Ok(broken(end + 1, reason, checked, through, head));
    }
    match &head {
        Some(h) if h.position != end => {
            let reason = format!(
                "the chain head is at position {} but the history ends at {end}: events were removed from the end",
                h.position
            );
            return Ok(broken(end + 1, reason, checked, through, head));
        }
        Some(h) if h.hash != prev => {
            let reason = format!("the chain head's hash does not match the event at position {end}");
            return Ok(broken(end, reason, checked, through, head));
        }
        None if end > 0 && start == 1 => {
            // No head when the walk began, yet events: either the head was removed, or the first
            // events were appended while the walk ran (the head is written with them, so it is
            // there now, at or past them).
            let appended_meanwhile = match self::head(db).await? {
                Some(now) => now.position > end || (now.position == end && now.hash == prev),
                None => false,
            };
            if !appended_meanwhile {
                let reason = "the chain head is missing".to_string();
                return Ok(broken(end, reason, checked, through, head));
            }
        }
        _ => {}
    }
    // A scan of the whole table: only a walk of the whole chain asks it, not one going on from
    // where an earlier walk ended (the auditors' status, on every call).
    // On Postgres, events after the head's feed cursor are pending ([`advance`]), not unchained.
    let unchained: Option<CountRow> = match db {
        _ if start != 1 => None,
        Db::Sqlite { .. } => {
            db.fetch_optional("SELECT COUNT(*) AS n FROM events WHERE chain_hash IS NULL", vec![]).await?
        }
        Db::Postgres(_) => {
            db.fetch_optional(
                "SELECT COUNT(*) AS n FROM events e, event_chain_head h WHERE h.id = 1 \
                 AND h.transaction_id IS NOT NULL AND (e.transaction_id, e.global_position) <= (h.transaction_id, \
                 h.global_position) AND NOT EXISTS (SELECT 1 FROM event_chain c \
                 WHERE (c.transaction_id, c.global_position) = (e.transaction_id, e.global_position))",
                vec![],
            )
            .await?
        }
    };
    if let Some(CountRow { n }) = unchained.filter(|c| c.n > 0) {
        let reason = format!("{n} event(s) were written without a hash (the chaining was bypassed)");
        return Ok(broken(end + 1, reason, checked, through, head));
    }
    Ok(Verification { events_checked: checked, head, verified_through: through, first_break: None })
}

/// A signed digest of the chain at one position, to be kept outside the system.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, sqlx::FromRow)]
pub struct Checkpoint {
    pub position: i64,
    pub hash: String,
    /// RFC 3339, UTC.
    pub created_at: String,
    /// The Ed25519 key that signed it, hex.
    pub public_key: String,
    /// Ed25519 over [`Checkpoint::message`], hex.
    pub signature: String,
}

impl Checkpoint {
    /// The bytes signed: the format's name, then position, hash and time, one per line.
    pub fn message(position: i64, hash: &str, created_at: &str) -> String {
        format!("needl-checkpoint-v1\n{position}\n{hash}\n{created_at}\n")
    }

    /// Whether the signature is the named key's over this checkpoint's fields.
    pub fn signature_holds(&self) -> bool {
        let Some(key) = hex_array::<32>(&self.public_key).and_then(|b| VerifyingKey::from_bytes(&b).ok()) else {
            return false;
        };
        let Some(signature) = hex_array::<64>(&self.signature).map(|b| Signature::from_bytes(&b)) else {
            return false;
        };
        key.verify(Self::message(self.position, &self.hash, &self.created_at).as_bytes(), &signature).is_ok()
    }
}

fn hex_array<const N: usize>(text: &str) -> Option<[u8; N]> {
    hex::decode(text).ok()?.try_into().ok()
}

/// The instance's checkpoint signing key.
#[derive(Clone)]
pub struct AuditKey(SigningKey);

impl std::fmt::Debug for AuditKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "AuditKey({})", self.public_hex())
    }
}

impl AuditKey {
    /// A key from its 32-byte seed, hex.
    pub fn from_hex(seed: &str) -> Option<Self> {
        hex_array::<32>(seed.trim()).map(|b| AuditKey(SigningKey::from_bytes(&b)))
    }

    /// A new random key.
    pub fn generate() -> Self {
        let seed: [u8; 32] = rand::random();
        AuditKey(SigningKey::from_bytes(&seed))
    }

    /// The configured key (a hex seed, as `NEEDL_AUDIT_KEY` gives it to every node of an
    /// instance), else `audit.key` in the data directory, created private on first use.
    pub fn load(data_dir: &std::path::Path, configured: Option<&str>) -> anyhow::Result<Self> {
        if let Some(seed) = configured.filter(|s| !s.trim().is_empty()) {
            return Self::from_hex(seed)
                .ok_or_else(|| anyhow::anyhow!("NEEDL_AUDIT_KEY must be 64 hex digits (a 32-byte Ed25519 seed)"));
        }
        let path = data_dir.join("audit.key");
        match std::fs::read_to_string(&path) {
            Ok(text) => Self::from_hex(&text)
                .ok_or_else(|| anyhow::anyhow!("{} does not hold a 64-hex-digit key", path.display())),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
                crate::private::create_dir(data_dir)?;
                let key = Self::generate();
                crate::private::write_file(&path, key.seed_hex().as_bytes())?;
                Ok(key)
            }
            Err(error) => Err(anyhow::anyhow!("reading {}: {error}", path.display())),
        }
    }

    pub fn seed_hex(&self) -> String {
        hex::encode(self.0.to_bytes())
    }

    pub fn public_hex(&self) -> String {
        hex::encode(self.0.verifying_key().to_bytes())
    }

    fn sign(&self, message: &str) -> String {
        hex::encode(self.0.sign(message.as_bytes()).to_bytes())
    }
}

/// Signs the head as it stands and records the checkpoint; `None` before the first event. A
/// second checkpoint at the same position returns the first.
pub async fn checkpoint(
    db: &Db,
    key: &AuditKey,
    now: chrono::DateTime<chrono::Utc>,
) -> sqlx::Result<Option<Checkpoint>> {
    let Some(head) = head(db).await? else {
        return Ok(None);
    };
    let created_at = now.to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
    let signature = key.sign(&Checkpoint::message(head.position, &head.hash, &created_at));
    let checkpoint =
        Checkpoint { position: head.position, hash: head.hash, created_at, public_key: key.public_hex(), signature };
    db.execute(
        "INSERT INTO audit_checkpoints (position, hash, created_at, public_key, signature) \
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT (position) DO NOTHING",
        vec![
            Arg::Int(checkpoint.position),
            Arg::Text(checkpoint.hash.clone()),
            Arg::Text(checkpoint.created_at.clone()),
            Arg::Text(checkpoint.public_key.clone()),
            Arg::Text(checkpoint.signature.clone()),
        ],
    )
    .await?;
    let stored: Option<Checkpoint> = db
        .fetch_optional(
            "SELECT position, hash, created_at, public_key, signature FROM audit_checkpoints WHERE position = $1",
            vec![Arg::Int(checkpoint.position)],
        )
        .await?;
    Ok(Some(stored.unwrap_or(checkpoint)))
}

/// The recorded checkpoints, newest first.
pub async fn checkpoints(db: &Db, limit: i64) -> sqlx::Result<Vec<Checkpoint>> {
    db.fetch_all(
        "SELECT position, hash, created_at, public_key, signature FROM audit_checkpoints \
         ORDER BY position DESC LIMIT $1",
        vec![Arg::Int(limit)],
    )
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(prev: &str) -> String {
        link(&Link {
            prev,
            position: 7,
            aggregate_type: "tag_book",
            aggregate_id: "u1",
            sequence: 3,
            event_type: "TagCreated",
            event_version: "1.0",
            payload: r#"{"TagCreated":{"name":"Ä"}}"#,
            metadata: r#"{"user_id":"u1"}"#,
        })
    }

    #[test]
    fn a_link_depends_on_every_field_and_the_previous_hash() {
        let base = sample(GENESIS);
        assert_eq!(base.len(), 64);
        assert_eq!(base, sample(GENESIS), "deterministic");
        assert_ne!(base, sample(&"1".repeat(64)));
        let moved = link(&Link {
            prev: GENESIS,
            position: 8,
            aggregate_type: "tag_book",
            aggregate_id: "u1",
            sequence: 3,
            event_type: "TagCreated",
            event_version: "1.0",
            payload: r#"{"TagCreated":{"name":"Ä"}}"#,
            metadata: r#"{"user_id":"u1"}"#,
        });
        assert_ne!(base, moved);
    }

    #[test]
    fn field_boundaries_cannot_be_shifted() {
        let a = Link {
            prev: GENESIS,
            position: 1,
            aggregate_type: "ab",
            aggregate_id: "c",
            sequence: 1,
            event_type: "E",
            event_version: "1",
            payload: "{}",
            metadata: "{}",
        };
        let b = Link { aggregate_type: "a", aggregate_id: "bc", ..a };
        assert_ne!(link(&a), link(&b));
    }

    #[test]
    fn a_checkpoint_signature_holds_only_for_its_own_fields() {
        let key = AuditKey::generate();
        let created_at = "2026-11-27T01:00:00.000Z";
        let hash = sample(GENESIS);
        let signature = key.sign(&Checkpoint::message(7, &hash, created_at));
        let good = Checkpoint {
            position: 7,
            hash: hash.clone(),
            created_at: created_at.into(),
            public_key: key.public_hex(),
            signature,
        };
        assert!(good.signature_holds());
        assert!(!Checkpoint { position: 8, ..good.clone() }.signature_holds());
        assert!(!Checkpoint { hash: GENESIS.into(), ..good.clone() }.signature_holds());
        assert!(!Checkpoint { public_key: AuditKey::generate().public_hex(), ..good.clone() }.signature_holds());
        assert!(!Checkpoint { signature: "zz".into(), ..good }.signature_holds());
        let again = AuditKey::from_hex(&key.seed_hex()).expect("seed round-trips");
        assert_eq!(again.public_hex(), key.public_hex());
    }
}
