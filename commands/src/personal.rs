//! Personal data sealed per person, so that erasing a person destroys it in an append-only store
//! (crypto-shredding).
//!
//! The events table is never rewritten (the hash chain depends on it), so the personal fields of
//! events are stored encrypted: each person has a random key in `personal_keys`, outside the
//! events, and erasing the person destroys the key. What was sealed with it then reads as the
//! field's erased value ([`erased_email`], [`ERASED_NAME`], [`ERASED_TEXT`], empty or null), on
//! every path that reads events: the command bus loading an aggregate, the feed the projections
//! and auditors read, and everything built on those.
//!
//! Which fields are personal, and whose they are, is [`FIELDS`]: an email, a name, a password
//! hash and profile fields of the account (theirs), a connected mailbox's or drive's account
//! name and password (its user's), a comment's text (its author's). A sealed
//! field is a JSON string `sealed:v1:<owner>:<base64url(nonce ‖ ciphertext)>`, XChaCha20-Poly1305
//! with a random 192-bit nonce, authenticated with the owner, the aggregate and the field's name,
//! so a sealed value copied into another event or field does not open. Writing always seals
//! (whatever the plain value looks like) and reading opens once, so a value that merely looks
//! sealed is never opened with someone else's key. Values written before sealing existed stay as
//! they were stored and are read as they are.
//!
//! Why XChaCha20-Poly1305 (RustCrypto's `chacha20poly1305`): an AEAD from the same maintained
//! family as the chain's SHA-256 and Ed25519, pure Rust and constant-time without AES hardware,
//! and its 192-bit nonces can be drawn at random for every value with no counter to keep.

use std::collections::{HashMap, HashSet};

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use chacha20poly1305::aead::{Aead, AeadCore, KeyInit, OsRng, Payload};
use chacha20poly1305::{XChaCha20Poly1305, XNonce};
use chrono::Utc;
use cqrs_es::persist::{PersistedEventRepository, PersistenceError, ReplayStream, SerializedEvent, SerializedSnapshot};
use cqrs_es::Aggregate;
use serde_json::Value;

use crate::store::{Arg, Db, Tx};

/// What every sealed value starts with.
pub const PREFIX: &str = "sealed:v1:";
/// A person's name once they are erased.
pub const ERASED_NAME: &str = "Erased user";
/// A text (a comment) once its author is erased.
pub const ERASED_TEXT: &str = "This comment was removed when its author's account was erased.";

/// The address an erased account reads as: unique per account (read models keep addresses
/// unique) and in the `.invalid` domain, which never receives mail.
pub fn erased_email(user_id: &str) -> String {
    format!("erased-{user_id}@erased.invalid")
}

/// Whose key seals a field.
#[derive(Debug, Clone, Copy)]
enum Owner {
    /// The aggregate is the person (a user's own events).
    Aggregate,
    /// The person whose id is in this field of the event (a comment's author).
    Field(&'static str),
}

/// What a field reads as once its owner is erased.
#[derive(Debug, Clone, Copy)]
enum Erased {
    Email,
    Text(&'static str),
    Null,
}

/// One personal field: `name` inside event `event` of aggregate type `aggregate`.
#[derive(Debug, Clone, Copy)]
struct Field {
    aggregate: &'static str,
    event: &'static str,
    name: &'static str,
    owner: Owner,
    erased: Erased,
}

const fn field(
    aggregate: &'static str,
    event: &'static str,
    name: &'static str,
    owner: Owner,
    erased: Erased,
) -> Field {
    Field { aggregate, event, name, owner, erased }
}

/// Every personal field of every event type.
const FIELDS: &[Field] = &[
    field("user", "UserSignedUp", "email", Owner::Aggregate, Erased::Email),
    field("user", "UserSignedUp", "username", Owner::Aggregate, Erased::Text(ERASED_NAME)),
    field("user", "UserSignedUp", "password_hash", Owner::Aggregate, Erased::Text("")),
    field("user", "ProfileUpdated", "username", Owner::Aggregate, Erased::Text(ERASED_NAME)),
    field("user", "ProfileUpdated", "industry", Owner::Aggregate, Erased::Null),
    field("user", "ProfileUpdated", "profession", Owner::Aggregate, Erased::Null),
    field("user", "ProfileUpdated", "whatsapp_number", Owner::Aggregate, Erased::Null),
    field("user", "PasswordChanged", "password_hash", Owner::Aggregate, Erased::Text("")),
    field("user", "PasswordReset", "password_hash", Owner::Aggregate, Erased::Text("")),
    field("user", "WhatsappCodeIssued", "number", Owner::Aggregate, Erased::Text("")),
    field("user", "WhatsappVerified", "number", Owner::Aggregate, Erased::Text("")),
    field("app_connection", "MailConnected", "username", Owner::Field("user_id"), Erased::Text("")),
    field("app_connection", "MailConnected", "password", Owner::Field("user_id"), Erased::Text("")),
    field("app_connection", "DriveConnected", "username", Owner::Field("user_id"), Erased::Text("")),
    field("app_connection", "DriveConnected", "password", Owner::Field("user_id"), Erased::Text("")),
    field("channel_document", "CommentAdded", "text", Owner::Field("author"), Erased::Text(ERASED_TEXT)),
    field("channel_document", "CommentEdited", "text", Owner::Field("author"), Erased::Text(ERASED_TEXT)),
];

fn fields_of<'a>(aggregate_type: &'a str, event_type: &'a str) -> impl Iterator<Item = &'static Field> + 'a {
    FIELDS.iter().filter(move |f| f.aggregate == aggregate_type && f.event == event_type)
}

/// Why an event could not be sealed.
#[derive(Debug, thiserror::Error)]
pub enum SealError {
    /// The person was erased: nothing new of theirs may be written.
    #[error("the account {0} was erased")]
    Erased(String),
    #[error("personal keys: {0}")]
    Store(#[from] sqlx::Error),
    #[error("personal keys: {0}")]
    Corrupt(String),
}

/// An event's identity and its stored payload (cqrs-es's `{"Variant": {fields}}`), to seal or
/// open in place.
pub struct EventFields<'a> {
    pub aggregate_type: &'a str,
    pub aggregate_id: &'a str,
    pub event_type: &'a str,
    pub payload: &'a mut Value,
}

impl EventFields<'_> {
    fn variant_mut(&mut self) -> Option<&mut serde_json::Map<String, Value>> {
        self.payload.get_mut(self.event_type)?.as_object_mut()
    }

    fn owner(&self, field: &Field) -> Option<String> {
        match field.owner {
            Owner::Aggregate => Some(self.aggregate_id.to_string()),
            Owner::Field(name) => self.payload.get(self.event_type)?.get(name)?.as_str().map(str::to_string),
        }
    }
}

/// What the cipher authenticates besides the value: whose it is, and where it belongs.
fn associated_data(owner: &str, aggregate_type: &str, aggregate_id: &str, name: &str) -> Vec<u8> {
    [owner, aggregate_type, aggregate_id, name].join("\n").into_bytes()
}

fn cipher(key_hex: &str) -> Result<XChaCha20Poly1305, SealError> {
    let bytes = hex::decode(key_hex).map_err(|e| SealError::Corrupt(e.to_string()))?;
    XChaCha20Poly1305::new_from_slice(&bytes).map_err(|_| SealError::Corrupt("a key is not 32 bytes".into()))
}

fn now() -> String {
    Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

/// The key that seals `owner`'s fields, made on first use. Refused once the owner is erased.
/// Every comment and profile change asks, so the key is read first and written only when the
/// owner has none yet (a write would queue behind SQLite's one writer for nothing).
async fn key_for(db: &Db, owner: &str) -> Result<String, SealError> {
    #[derive(sqlx::FromRow)]
    struct KeyRow {
        key: Option<String>,
    }
    let read = || db.fetch_optional::<KeyRow>("SELECT key FROM personal_keys WHERE owner = $1", vec![Arg::from(owner)]);
    let row = match read().await? {
        Some(row) => row,
        None => {
            let fresh = hex::encode(XChaCha20Poly1305::generate_key(&mut OsRng));
            db.execute(
                "INSERT INTO personal_keys (owner, key, created_at) VALUES ($1, $2, $3) ON CONFLICT (owner) DO NOTHING",
                vec![Arg::from(owner), Arg::Text(fresh), Arg::Text(now())],
            )
            .await?;
            // Another writer may have made it first: theirs is the key.
            read().await?.ok_or(sqlx::Error::RowNotFound)?
        }
    };
    row.key.ok_or_else(|| SealError::Erased(owner.to_string()))
}

/// Seals the personal fields of one event before it is stored. Events without any are left
/// untouched (and cost no query).
pub async fn seal(db: &Db, mut event: EventFields<'_>) -> Result<(), SealError> {
    let mut keys: HashMap<String, XChaCha20Poly1305> = HashMap::new();
    for field in fields_of(event.aggregate_type, event.event_type) {
        let Some(owner) = event.owner(field) else { continue };
        let (aggregate_type, aggregate_id) = (event.aggregate_type, event.aggregate_id);
        let Some(Value::String(plain)) = event.variant_mut().and_then(|v| v.get(field.name)).cloned() else {
            continue;
        };
        if !keys.contains_key(&owner) {
            let key = key_for(db, &owner).await?;
            keys.insert(owner.clone(), cipher(&key)?);
        }
        let nonce = XChaCha20Poly1305::generate_nonce(&mut OsRng);
        let aad = associated_data(&owner, aggregate_type, aggregate_id, field.name);
        let sealed = keys[&owner]
            .encrypt(&nonce, Payload { msg: plain.as_bytes(), aad: &aad })
            .map_err(|_| SealError::Corrupt("encryption failed".into()))?;
        let mut bytes = nonce.to_vec();
        bytes.extend_from_slice(&sealed);
        let value = format!("{PREFIX}{owner}:{}", URL_SAFE_NO_PAD.encode(bytes));
        if let Some(variant) = event.variant_mut() {
            variant.insert(field.name.to_string(), Value::String(value));
        }
    }
    Ok(())
}

/// The owner and the bytes of a sealed value.
fn parse_sealed(value: &str) -> Option<(&str, Vec<u8>)> {
    let rest = value.strip_prefix(PREFIX)?;
    let (owner, encoded) = rest.split_once(':')?;
    Some((owner, URL_SAFE_NO_PAD.decode(encoded).ok()?))
}

/// Opens the personal fields of a batch of stored events in place, with one query for the keys
/// of everyone whose fields appear. A field whose owner was erased (or that does not open) reads
/// as the field's erased value.
pub async fn open(db: &Db, events: &mut [EventFields<'_>]) -> sqlx::Result<()> {
    let mut owners: HashSet<String> = HashSet::new();
    for event in events.iter() {
        for field in fields_of(event.aggregate_type, event.event_type) {
            let value = event.payload.get(event.event_type).and_then(|v| v.get(field.name)).and_then(Value::as_str);
            if let Some((owner, _)) = value.and_then(parse_sealed) {
                owners.insert(owner.to_string());
            }
        }
    }
    if owners.is_empty() {
        return Ok(());
    }
    let keys = load_keys(db, owners).await?;
    for event in events.iter_mut() {
        for field in fields_of(event.aggregate_type, event.event_type) {
            let (aggregate_type, aggregate_id) = (event.aggregate_type, event.aggregate_id);
            let Some(variant) = event.variant_mut() else { continue };
            let Some(Value::String(stored)) = variant.get(field.name) else { continue };
            let Some((owner, bytes)) = parse_sealed(stored) else { continue };
            let opened = keys.get(owner).and_then(|cipher| {
                let nonce: [u8; 24] = bytes.get(..24)?.try_into().ok()?;
                let nonce = XNonce::from(nonce);
                let aad = associated_data(owner, aggregate_type, aggregate_id, field.name);
                let plain = cipher.decrypt(&nonce, Payload { msg: &bytes[24..], aad: &aad }).ok()?;
                String::from_utf8(plain).ok()
            });
            let value = match (opened, field.erased) {
                (Some(plain), _) => Value::String(plain),
                (None, Erased::Email) => Value::String(erased_email(owner)),
                (None, Erased::Text(text)) => Value::String(text.to_string()),
                (None, Erased::Null) => Value::Null,
            };
            variant.insert(field.name.to_string(), value);
        }
    }
    Ok(())
}

/// The live keys of `owners` (an erased owner has none).
async fn load_keys(db: &Db, owners: HashSet<String>) -> sqlx::Result<HashMap<String, XChaCha20Poly1305>> {
    #[derive(sqlx::FromRow)]
    struct KeyRow {
        owner: String,
        key: Option<String>,
    }
    let owners: Vec<String> = owners.into_iter().collect();
    let mut keys = HashMap::new();
    // A few hundred owners per query keeps under every backend's parameter limit.
    for chunk in owners.chunks(500) {
        let marks: Vec<String> = (1..=chunk.len()).map(|i| format!("${i}")).collect();
        let sql = format!("SELECT owner, key FROM personal_keys WHERE owner IN ({})", marks.join(", "));
        let rows: Vec<KeyRow> = db.fetch_all(&sql, chunk.iter().map(Arg::from).collect()).await?;
        for row in rows {
            match row.key.as_deref().map(cipher) {
                Some(Ok(cipher)) => {
                    keys.insert(row.owner, cipher);
                }
                Some(Err(e)) => tracing::warn!(owner = %row.owner, "a personal key does not load: {e}"),
                None => {}
            }
        }
    }
    Ok(keys)
}

/// Destroys `owner`'s key, inside the caller's transaction: everything sealed with it becomes
/// unreadable for good, and nothing new of theirs can be sealed. Idempotent; an owner who never
/// had a key gets a tombstone, so none is made later.
pub async fn destroy_key(tx: &mut Tx, owner: &str) -> sqlx::Result<()> {
    let at = now();
    tx.execute(
        "INSERT INTO personal_keys (owner, key, created_at, erased_at) VALUES ($1, NULL, $2, $2) \
         ON CONFLICT (owner) DO UPDATE SET key = NULL, \
         erased_at = COALESCE(personal_keys.erased_at, excluded.erased_at)",
        vec![Arg::from(owner), Arg::Text(at)],
    )
    .await?;
    Ok(())
}

/// Asks the database to let go of the bytes an erasure replaced, best effort (a failure is
/// logged). SQLite already zeroes deleted content (`secure_delete`); its write-ahead log, which
/// still holds the pages as they were, is checkpointed and truncated. Postgres keeps old row
/// versions until they are vacuumed, and a plain vacuum leaves their bytes in the pages, so the
/// two small tables that held the key and the address are rewritten. Comment texts in the large
/// read-model tables are left to Postgres's own vacuuming (docs/operations.md).
pub async fn compact(db: &Db) {
    let statements: &[&str] = match db.backend() {
        crate::store::Backend::Sqlite => &["PRAGMA wal_checkpoint(TRUNCATE)"],
        crate::store::Backend::Postgres => &["VACUUM FULL personal_keys", "VACUUM FULL users_view"],
    };
    for sql in statements {
        if let Err(e) = db.execute(sql, vec![]).await {
            tracing::warn!("after an erasure, `{sql}` failed: {e}");
        }
    }
}

/// An event repository of cqrs-es that seals what it stores and opens what it loads, so the
/// aggregates of the command bus see plain values and the events table holds sealed ones.
/// Loading goes through the wrapped cqrs-es repository; appending through [`crate::append`].
pub struct Sealing<R> {
    db: Db,
    inner: R,
}

impl<R> Sealing<R> {
    pub fn new(db: Db, inner: R) -> Self {
        Self { db, inner }
    }

    async fn open_serialized(
        &self,
        mut events: Vec<SerializedEvent>,
    ) -> Result<Vec<SerializedEvent>, PersistenceError> {
        let mut fields: Vec<EventFields<'_>> = events
            .iter_mut()
            .map(|e| EventFields {
                aggregate_type: &e.aggregate_type,
                aggregate_id: &e.aggregate_id,
                event_type: &e.event_type,
                payload: &mut e.payload,
            })
            .collect();
        open(&self.db, &mut fields).await.map_err(|e| PersistenceError::ConnectionError(Box::new(e)))?;
        Ok(events)
    }
}

/// A replay stream over events already read (and opened).
fn replay(events: Vec<SerializedEvent>) -> ReplayStream {
    let (mut feed, stream) = ReplayStream::new(events.len().max(1));
    tokio::spawn(async move {
        for event in events {
            if feed.push(Ok(event)).await.is_err() {
                break;
            }
        }
    });
    stream
}

impl<R: PersistedEventRepository> PersistedEventRepository for Sealing<R> {
    async fn get_events<A: Aggregate>(&self, aggregate_id: &str) -> Result<Vec<SerializedEvent>, PersistenceError> {
        if crate::bus::history_known_empty() {
            return Ok(Vec::new());
        }
        let events = self.inner.get_events::<A>(aggregate_id).await?;
        self.open_serialized(events).await
    }

    async fn get_last_events<A: Aggregate>(
        &self,
        aggregate_id: &str,
        last_sequence: usize,
    ) -> Result<Vec<SerializedEvent>, PersistenceError> {
        let events = self.inner.get_last_events::<A>(aggregate_id, last_sequence).await?;
        self.open_serialized(events).await
    }

    /// Snapshots are not used (plain event-store mode), so none holds personal values.
    async fn get_snapshot<A: Aggregate>(
        &self,
        aggregate_id: &str,
    ) -> Result<Option<SerializedSnapshot>, PersistenceError> {
        self.inner.get_snapshot::<A>(aggregate_id).await
    }

    async fn persist<A: Aggregate>(
        &self,
        events: &[SerializedEvent],
        snapshot_update: Option<(String, Value, usize)>,
    ) -> Result<(), PersistenceError> {
        let mut sealed = events.to_vec();
        for event in &mut sealed {
            let fields = EventFields {
                aggregate_type: &event.aggregate_type,
                aggregate_id: &event.aggregate_id,
                event_type: &event.event_type,
                payload: &mut event.payload,
            };
            seal(&self.db, fields).await.map_err(|e| PersistenceError::UnknownError(Box::new(e)))?;
        }
        match snapshot_update {
            // Plain event-store mode, the bus's: one statement, which also answers the cursor.
            None => crate::append::append(&self.db, A::TYPE, &sealed).await,
            Some(_) => self.inner.persist::<A>(&sealed, snapshot_update).await,
        }
    }

    async fn stream_events<A: Aggregate>(&self, aggregate_id: &str) -> Result<ReplayStream, PersistenceError> {
        Ok(replay(self.get_events::<A>(aggregate_id).await?))
    }

    async fn stream_all_events<A: Aggregate>(&self) -> Result<ReplayStream, PersistenceError> {
        let filter = crate::feed::FeedFilter { aggregate_type: Some(A::TYPE.to_string()), ..Default::default() };
        let events = crate::feed::read_all_filtered(&self.db, &filter)
            .await
            .map_err(|e| PersistenceError::ConnectionError(Box::new(e)))?;
        let serialized = events
            .into_iter()
            .map(|e| SerializedEvent {
                aggregate_id: e.aggregate_id,
                sequence: e.sequence as usize,
                aggregate_type: e.aggregate_type,
                event_type: e.event_type,
                event_version: e.event_version,
                payload: e.payload,
                metadata: e.metadata,
            })
            .collect();
        Ok(replay(serialized))
    }
}
