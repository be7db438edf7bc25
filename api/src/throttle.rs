//! Throttles on sign-in and sign-up, by client address and by account, kept in the database, so
//! every node of an instance counts the same failures (a stranger gains nothing from a
//! round-robin in front of several nodes).
//!
//! Sign-in failures are counted three ways, each forgotten after [`QUIET`] without a failure:
//! - per client address (across accounts): past [`ADDRESS_BACKOFF`]'s free failures the address
//!   waits longer after each further failure, whatever account it names;
//! - per account: past [`ACCOUNT_BACKOFF`]'s free failures the account is "under attack", and
//!   an address that has itself failed on that account recently waits, with the same back-off;
//! - per (account, address) pair: which addresses those are.
//!
//! So a stranger who guesses one account's password slows down only themselves: the owner,
//! from an address that has not failed on the account, is let through to the password check.
//! An attempt counts as a failure from the moment it passes the throttle (a success takes it
//! back), so parallel guesses cannot all slip in before the first is recorded.
//!
//! Sign-ups take a token from a per-address bucket that refills `--signups-per-hour` an hour.
//!
//! Password reset requests take a token from two buckets: the client address's
//! ([`RESETS_PER_ADDRESS_PER_HOUR`]; when empty the client is told to wait) and the named
//! address's ([`RESETS_PER_ACCOUNT_PER_HOUR`]; when empty nothing more is mailed, but the answer
//! is the same as ever, so it cannot tell whether the address has an account).
//!
//! Each counter is a row of `auth_throttle` (scope, key): failures with the time of the last,
//! or a bucket's tokens as of a time, with when the row is forgotten; forgotten rows are deleted
//! as calls come. One transaction reads and writes a call's rows, under a lock per key on
//! Postgres (the one writer serialises them on SQLite), so parallel guesses at several nodes
//! cannot all slip in. Times are wall-clock milliseconds, which the nodes share. Accounts are
//! kept as keyed hashes (SHA-256 keyed with the token secret, which every node has), not addresses in
//! clear.

use std::net::{IpAddr, Ipv6Addr, SocketAddr};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use axum::http::StatusCode;
use commands::store::Backend;
use commands::{args, Db, Tx};
use ipnet::IpNet;
use sha2::{Digest, Sha256};

use crate::config::ServeArgs;
use crate::error::{ApiResult, AppError};

/// How long a key's failures are remembered after its last one (when it is not waiting longer).
pub const QUIET: Duration = Duration::from_secs(15 * 60);
/// Forgotten rows are deleted once every this many calls.
const PRUNE_EVERY: u64 = 64;

/// Free failures, then a wait that doubles with each further failure, up to a cap.
#[derive(Debug, Clone, Copy)]
pub struct Backoff {
    pub free: u32,
    pub first: Duration,
    pub cap: Duration,
}

impl Backoff {
    /// The wait after the `failures`-th failure.
    pub fn wait(&self, failures: u32) -> Duration {
        match failures.checked_sub(self.free) {
            None | Some(0) => Duration::ZERO,
            Some(extra) => self.first.saturating_mul(1 << (extra - 1).min(20)).min(self.cap),
        }
    }
}

/// Per account: five free failures, then 2 s, 4 s, ... up to 15 minutes.
pub const ACCOUNT_BACKOFF: Backoff =
    Backoff { free: 5, first: Duration::from_secs(2), cap: Duration::from_secs(15 * 60) };
/// Per client address: more free failures (people behind one NAT share an address).
pub const ADDRESS_BACKOFF: Backoff =
    Backoff { free: 20, first: Duration::from_secs(2), cap: Duration::from_secs(15 * 60) };

/// A refusal: how long until the client may try again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Throttled {
    pub retry_after: Duration,
}

impl Throttled {
    fn seconds(&self) -> u64 {
        self.retry_after.as_secs() + u64::from(self.retry_after.subsec_nanos() > 0)
    }

    /// The sign-in refusal (its code and message as before), with `Retry-After`.
    pub fn sign_in(self) -> AppError {
        self.refusal("too_many_attempts", "too many failed sign-in attempts")
    }

    pub fn sign_up(self) -> AppError {
        self.refusal("too_many_sign_ups", "too many accounts were created from this address")
    }

    pub fn reset_request(self) -> AppError {
        self.refusal("too_many_reset_requests", "too many password resets were asked for from this address")
    }

    /// A 429 saying `what` and when to try again, in minutes and as `Retry-After`.
    fn refusal(self, code: &'static str, what: &str) -> AppError {
        let minutes = self.seconds().div_ceil(60);
        AppError::new(StatusCode::TOO_MANY_REQUESTS, code, format!("{what}; try again in {minutes} minutes"))
            .retry_after(self.seconds())
    }
}

/// Failures of one key: how many, and when the last was (ms since the epoch).
#[derive(Debug, Clone, Copy)]
struct Failures {
    count: u32,
    last: i64,
}

fn millis(d: Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
}

impl Failures {
    fn blocked_until(&self, backoff: &Backoff) -> i64 {
        self.last.saturating_add(millis(backoff.wait(self.count)))
    }

    fn forget_at(&self, backoff: &Backoff) -> i64 {
        self.last.saturating_add(millis(backoff.wait(self.count).max(QUIET)))
    }

    fn forgotten(&self, backoff: &Backoff, now: i64) -> bool {
        now >= self.forget_at(backoff)
    }
}

/// One row of `auth_throttle`: failures (`count`, `last_ms`) or a bucket (`tokens` in
/// millionths, as of `last_ms`).
#[derive(sqlx::FromRow)]
struct Row {
    count: i64,
    last_ms: i64,
    tokens: i64,
    forget_ms: i64,
}

/// The scopes of `auth_throttle`'s rows.
const ADDRESS: &str = "address";
const ACCOUNT: &str = "account";
const PAIR: &str = "pair";
const SIGN_UP: &str = "sign_up";
const RESET_BY_ADDRESS: &str = "reset_address";
const RESET_BY_ACCOUNT: &str = "reset_account";

/// The key of a client address: an IPv6 client is counted by its /64, which one host usually
/// holds whole; an IPv4-mapped address is its IPv4 address.
pub fn address_key(ip: IpAddr) -> IpAddr {
    match ip.to_canonical() {
        IpAddr::V6(v6) => {
            let s = v6.segments();
            IpAddr::V6(Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
        }
        v4 => v4,
    }
}

/// Password reset requests one client address may make in an hour.
pub const RESETS_PER_ADDRESS_PER_HOUR: u32 = 10;
/// Reset links mailed to one address in an hour: enough for a lost first mail, too few to
/// flood an inbox.
pub const RESETS_PER_ACCOUNT_PER_HOUR: u32 = 3;

/// What a reset request that passed the client's throttle may do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResetRequest {
    /// Mail a link (when the address has an account).
    Mail,
    /// The address had its links for the hour: answer as usual, mail nothing.
    Quiet,
}

/// The sign-in, sign-up and reset throttles of the instance.
pub struct AuthThrottle {
    db: Db,
    /// Keys account hashes; the same on every node (the token secret).
    secret: Vec<u8>,
    /// Sign-ups one address may make in an hour (and at once, after a quiet hour).
    signups_per_hour: u32,
    /// Reverse proxies whose `X-Forwarded-For` names the client (`--trusted-proxies`).
    proxies: Vec<IpNet>,
    calls: AtomicU64,
}

/// A sign-in attempt let through: report how it ended with [`AuthThrottle::succeeded`] or
/// [`AuthThrottle::failed`].
#[must_use]
pub struct Attempt {
    account: String,
    address: String,
}

fn now_ms() -> i64 {
    chrono::Utc::now().timestamp_millis()
}

impl AuthThrottle {
    pub fn new(db: Db, secret: &[u8], signups_per_hour: u32, proxies: Vec<IpNet>) -> Self {
        Self { db, secret: secret.to_vec(), signups_per_hour, proxies, calls: AtomicU64::new(0) }
    }

    /// Builds the throttles on `db` from `--signups-per-hour` and `--trusted-proxies`.
    pub fn from_config(db: Db, secret: &[u8], config: &ServeArgs) -> anyhow::Result<Self> {
        let proxies = crate::config::parse_networks(&config.trusted_proxies, "NEEDL_TRUSTED_PROXIES")?;
        Ok(Self::new(db, secret, config.signups_per_hour, proxies))
    }

    /// The client of a request from TCP peer `peer` (see [`client_address`]).
    pub fn client_of<'a>(&self, peer: IpAddr, forwarded_for: impl DoubleEndedIterator<Item = &'a str>) -> IpAddr {
        client_address(peer, forwarded_for, &self.proxies)
    }

    /// The account's key in the table: a hash keyed with the secret, never the address.
    fn account_key(&self, email: &str) -> String {
        let digest =
            Sha256::new().chain_update(&self.secret).chain_update(b"\0throttle\0").chain_update(email).finalize();
        hex::encode(&digest[..16])
    }

    /// Lets a sign-in for `email` from `client` go on to the password check, or refuses it.
    /// The attempt counts as a failure until [`AuthThrottle::succeeded`] says otherwise.
    pub async fn begin_sign_in(&self, email: &str, client: IpAddr) -> ApiResult<Result<Attempt, Throttled>> {
        self.begin_sign_in_at(email, client, now_ms()).await
    }

    async fn begin_sign_in_at(&self, email: &str, client: IpAddr, now: i64) -> ApiResult<Result<Attempt, Throttled>> {
        self.prune(now).await;
        let account = self.account_key(email);
        let address = address_key(client).to_string();
        let pair = format!("{account}|{address}");
        let mut tx = self.db.begin().await?;
        lock(&mut tx, &[(ADDRESS, &address), (ACCOUNT, &account)]).await?;
        if let Some(f) = failures(&mut tx, ADDRESS, &address).await? {
            if let Some(refusal) = wait_until(f.blocked_until(&ADDRESS_BACKOFF), now) {
                return Ok(Err(refusal));
            }
        }
        let pair_failed =
            failures(&mut tx, PAIR, &pair).await?.is_some_and(|p| now < p.last.saturating_add(millis(QUIET)));
        if pair_failed {
            if let Some(f) = failures(&mut tx, ACCOUNT, &account).await? {
                if let Some(refusal) = wait_until(f.blocked_until(&ACCOUNT_BACKOFF), now) {
                    return Ok(Err(refusal));
                }
            }
        }
        record(&mut tx, ADDRESS, &address, now, &ADDRESS_BACKOFF).await?;
        record(&mut tx, ACCOUNT, &account, now, &ACCOUNT_BACKOFF).await?;
        store(&mut tx, PAIR, &pair, 1, now, 0, now.saturating_add(millis(QUIET))).await?;
        tx.commit().await?;
        Ok(Ok(Attempt { account, address }))
    }

    /// The password was wrong (or the account unknown): the attempt stays counted.
    pub fn failed(&self, _attempt: Attempt) {}

    /// The password was right: the attempt is taken back; the pair is forgiven, and so is the
    /// account unless it has failed more than its free failures (others are guessing, then).
    /// A failure to write this is logged: the person is signed in either way.
    pub async fn succeeded(&self, attempt: Attempt) {
        if let Err(error) = self.forgive(&attempt).await {
            tracing::warn!(error = %error, "a successful sign-in could not be taken back from the throttle");
        }
    }

    async fn forgive(&self, attempt: &Attempt) -> sqlx::Result<()> {
        let mut tx = self.db.begin().await?;
        lock(&mut tx, &[(ADDRESS, &attempt.address), (ACCOUNT, &attempt.account)]).await?;
        let pair = format!("{}|{}", attempt.account, attempt.address);
        tx.execute("DELETE FROM auth_throttle WHERE scope = $1 AND key = $2", args![PAIR, pair.as_str()]).await?;
        tx.execute(
            "UPDATE auth_throttle SET count = count - 1 WHERE scope = $1 AND key = $2 AND count > 0",
            args![ADDRESS, attempt.address.as_str()],
        )
        .await?;
        if let Some(mut f) = failures(&mut tx, ACCOUNT, &attempt.account).await? {
            f.count = f.count.saturating_sub(1);
            if ACCOUNT_BACKOFF.wait(f.count).is_zero() {
                let account = attempt.account.as_str();
                tx.execute("DELETE FROM auth_throttle WHERE scope = $1 AND key = $2", args![ACCOUNT, account]).await?;
            } else {
                store(&mut tx, ACCOUNT, &attempt.account, f.count, f.last, 0, f.forget_at(&ACCOUNT_BACKOFF)).await?;
            }
        }
        tx.commit().await
    }

    /// Takes one sign-up from `client`'s bucket, or says how long until one is back.
    pub async fn sign_up(&self, client: IpAddr) -> ApiResult<Result<(), Throttled>> {
        self.sign_up_at(client, now_ms()).await
    }

    async fn sign_up_at(&self, client: IpAddr, now: i64) -> ApiResult<Result<(), Throttled>> {
        self.prune(now).await;
        let address = address_key(client).to_string();
        let mut tx = self.db.begin().await?;
        lock(&mut tx, &[(SIGN_UP, &address)]).await?;
        let taken = take_token(&mut tx, SIGN_UP, &address, self.signups_per_hour, now).await?;
        tx.commit().await?;
        Ok(taken)
    }

    /// Lets a password reset request for `email` (normalised) from `client` through, or refuses
    /// the client; says whether a link may be mailed.
    pub async fn reset_request(&self, email: &str, client: IpAddr) -> ApiResult<Result<ResetRequest, Throttled>> {
        self.reset_request_at(email, client, now_ms()).await
    }

    async fn reset_request_at(
        &self,
        email: &str,
        client: IpAddr,
        now: i64,
    ) -> ApiResult<Result<ResetRequest, Throttled>> {
        self.prune(now).await;
        let account = self.account_key(email);
        let address = address_key(client).to_string();
        let mut tx = self.db.begin().await?;
        lock(&mut tx, &[(RESET_BY_ADDRESS, &address), (RESET_BY_ACCOUNT, &account)]).await?;
        if let Err(refusal) = take_token(&mut tx, RESET_BY_ADDRESS, &address, RESETS_PER_ADDRESS_PER_HOUR, now).await? {
            tx.commit().await?;
            return Ok(Err(refusal));
        }
        let answer = match take_token(&mut tx, RESET_BY_ACCOUNT, &account, RESETS_PER_ACCOUNT_PER_HOUR, now).await? {
            Ok(()) => ResetRequest::Mail,
            Err(_) => ResetRequest::Quiet,
        };
        tx.commit().await?;
        Ok(Ok(answer))
    }

    /// Deletes forgotten rows, once every [`PRUNE_EVERY`] calls of this node.
    async fn prune(&self, now: i64) {
        if self.calls.fetch_add(1, Ordering::Relaxed) % PRUNE_EVERY != 0 {
            return;
        }
        if let Err(error) = self.db.execute("DELETE FROM auth_throttle WHERE forget_ms <= $1", args![now]).await {
            tracing::warn!(%error, "forgotten throttle rows could not be deleted");
        }
    }
}

fn wait_until(until: i64, now: i64) -> Option<Throttled> {
    (until > now).then(|| Throttled { retry_after: Duration::from_millis(u64::try_from(until - now).unwrap_or(0)) })
}

/// Holds, until the transaction ends, a lock on each of `keys` on Postgres, so the rows of one
/// key are read and written by one call at a time across nodes (in a fixed order: no deadlock).
/// On SQLite the one writer does that already.
async fn lock(tx: &mut Tx, keys: &[(&str, &str)]) -> sqlx::Result<()> {
    if tx.backend() != Backend::Postgres {
        return Ok(());
    }
    let mut ids: Vec<i64> = keys
        .iter()
        .map(|(scope, key)| {
            let digest = Sha256::digest(format!("throttle:{scope}:{key}").as_bytes());
            i64::from_be_bytes(digest[..8].try_into().expect("eight bytes"))
        })
        .collect();
    ids.sort_unstable();
    for id in ids {
        tx.execute("SELECT pg_advisory_xact_lock($1)", args![id]).await?;
    }
    Ok(())
}

async fn row(tx: &mut Tx, scope: &str, key: &str) -> sqlx::Result<Option<Row>> {
    tx.fetch_optional(
        "SELECT count, last_ms, tokens, forget_ms FROM auth_throttle WHERE scope = $1 AND key = $2",
        args![scope, key],
    )
    .await
}

async fn failures(tx: &mut Tx, scope: &str, key: &str) -> sqlx::Result<Option<Failures>> {
    Ok(row(tx, scope, key).await?.map(|r| Failures { count: u32::try_from(r.count).unwrap_or(0), last: r.last_ms }))
}

async fn store(
    tx: &mut Tx,
    scope: &str,
    key: &str,
    count: u32,
    last: i64,
    tokens: i64,
    forget: i64,
) -> sqlx::Result<()> {
    tx.execute(
        "INSERT INTO auth_throttle (scope, key, count, last_ms, tokens, forget_ms) VALUES ($1, $2, $3, $4, $5, $6) \
         ON CONFLICT (scope, key) DO UPDATE SET count = excluded.count, last_ms = excluded.last_ms, \
         tokens = excluded.tokens, forget_ms = excluded.forget_ms",
        args![scope, key, i64::from(count), last, tokens, forget],
    )
    .await?;
    Ok(())
}

/// Counts one more failure for `key`, starting afresh when its earlier ones are forgotten.
async fn record(tx: &mut Tx, scope: &str, key: &str, now: i64, backoff: &Backoff) -> sqlx::Result<()> {
    let mut f = failures(tx, scope, key).await?.unwrap_or(Failures { count: 0, last: now });
    if f.forgotten(backoff, now) {
        f.count = 0;
    }
    f.count += 1;
    f.last = now;
    store(tx, scope, key, f.count, f.last, 0, f.forget_at(backoff)).await
}

/// Tokens are kept in millionths.
const TOKEN: f64 = 1_000_000.0;

/// Takes one token from `key`'s bucket, which holds `per_hour` and refills as many an hour, or
/// says how long until one is back.
async fn take_token(
    tx: &mut Tx,
    scope: &str,
    key: &str,
    per_hour: u32,
    now: i64,
) -> sqlx::Result<Result<(), Throttled>> {
    let capacity = f64::from(per_hour.max(1));
    let per_ms = capacity / 3_600_000.0;
    let (tokens, at) = match row(tx, scope, key).await? {
        Some(r) if r.forget_ms > now => (r.tokens as f64 / TOKEN, r.last_ms),
        _ => (capacity, now),
    };
    let tokens = (tokens + (now - at).max(0) as f64 * per_ms).min(capacity);
    let full_at = |tokens: f64| now + ((capacity - tokens) / per_ms).ceil() as i64;
    if tokens < 1.0 {
        store(tx, scope, key, 0, now, (tokens * TOKEN) as i64, full_at(tokens)).await?;
        return Ok(Err(Throttled { retry_after: Duration::from_secs_f64((1.0 - tokens) / per_ms / 1000.0) }));
    }
    let tokens = tokens - 1.0;
    store(tx, scope, key, 0, now, (tokens * TOKEN).round() as i64, full_at(tokens)).await?;
    Ok(Ok(()))
}

/// Returns the client a request came from: the TCP peer, unless the peer is one of `proxies`;
/// then `X-Forwarded-For` (its values in header order) is read from the right, each trusted
/// proxy's entry skipped, and the first address that is not a trusted proxy is the client. An
/// entry that is not an address ends the walk at the last address known.
pub fn client_address<'a>(
    peer: IpAddr,
    forwarded_for: impl DoubleEndedIterator<Item = &'a str>,
    proxies: &[IpNet],
) -> IpAddr {
    let trusted = |ip: &IpAddr| proxies.iter().any(|net| net.contains(&ip.to_canonical()));
    let mut client = peer.to_canonical();
    if !trusted(&client) {
        return client;
    }
    for entry in forwarded_for.rev().flat_map(|value| value.rsplit(',')) {
        let entry = entry.trim();
        let Some(ip) = entry.parse::<IpAddr>().ok().or_else(|| entry.parse::<SocketAddr>().ok().map(|s| s.ip())) else {
            break;
        };
        client = ip.to_canonical();
        if !trusted(&client) {
            break;
        }
    }
    client
}

#[cfg(test)]
mod tests {
    use super::*;

    const ATTACKER: IpAddr = IpAddr::V4(std::net::Ipv4Addr::new(203, 0, 113, 9));
    const OWNER: IpAddr = IpAddr::V4(std::net::Ipv4Addr::new(198, 51, 100, 7));

    /// A moment, in ms since the epoch.
    const NOW: i64 = 1_790_000_000_000;
    const SECOND: i64 = 1000;

    async fn throttle(signups_per_hour: u32) -> (AuthThrottle, tempfile::TempDir) {
        let (db, dir) = testkit::db::sqlite().await;
        (AuthThrottle::new(db, b"test secret", signups_per_hour, vec![]), dir)
    }

    async fn fail(t: &AuthThrottle, email: &str, ip: IpAddr, now: i64) -> Result<(), Throttled> {
        t.begin_sign_in_at(email, ip, now).await.unwrap().map(|a| t.failed(a))
    }

    #[test]
    fn waits_double_after_the_free_failures_up_to_the_cap() {
        let waits: Vec<u64> = (4..=8).map(|n| ACCOUNT_BACKOFF.wait(n).as_secs()).collect();
        assert_eq!(waits, [0, 0, 2, 4, 8]);
        assert_eq!(ACCOUNT_BACKOFF.wait(40), Duration::from_secs(15 * 60));
    }

    #[tokio::test]
    async fn a_stranger_guessing_slows_down_only_themselves() {
        let (t, _dir) = throttle(20).await;
        let now = NOW;
        for _ in 0..6 {
            fail(&t, "bea@example.com", ATTACKER, now).await.unwrap();
        }
        let refused = fail(&t, "bea@example.com", ATTACKER, now).await.unwrap_err();
        assert_eq!(refused.retry_after, Duration::from_secs(2));
        // The owner, from an address that has not failed on the account, reaches the check.
        let attempt =
            t.begin_sign_in_at("bea@example.com", OWNER, now).await.unwrap().expect("the owner is let through");
        t.succeeded(attempt).await;
        assert!(fail(&t, "bea@example.com", ATTACKER, now).await.is_err(), "the account stays under attack");
        // After the wait, the attacker gets one more guess and waits longer.
        let later = now + 2 * SECOND;
        fail(&t, "bea@example.com", ATTACKER, later).await.unwrap();
        assert_eq!(fail(&t, "bea@example.com", ATTACKER, later).await.unwrap_err().retry_after, Duration::from_secs(4));
    }

    #[tokio::test]
    async fn an_address_guessing_many_accounts_is_held_back() {
        let (t, _dir) = throttle(20).await;
        let now = NOW;
        for i in 0..21 {
            fail(&t, &format!("user{i}@example.com"), ATTACKER, now).await.unwrap();
        }
        let refused = fail(&t, "fresh@example.com", ATTACKER, now).await.unwrap_err();
        assert_eq!(refused.retry_after, Duration::from_secs(2));
        assert!(fail(&t, "fresh@example.com", OWNER, now).await.is_ok(), "other addresses go on");
    }

    #[tokio::test]
    async fn failures_are_forgotten_after_a_quiet_spell_and_a_success_takes_its_attempt_back() {
        let (t, _dir) = throttle(20).await;
        let now = NOW;
        for _ in 0..6 {
            fail(&t, "cy@example.com", OWNER, now).await.unwrap();
        }
        assert!(fail(&t, "cy@example.com", OWNER, now).await.is_err());
        let later = now + millis(QUIET);
        for _ in 0..5 {
            fail(&t, "cy@example.com", OWNER, later).await.unwrap();
        }
        let attempt = t.begin_sign_in_at("cy@example.com", OWNER, later).await.unwrap().unwrap();
        t.succeeded(attempt).await;
        for _ in 0..6 {
            fail(&t, "cy@example.com", OWNER, later).await.expect("the success forgave the account");
        }
        assert!(fail(&t, "cy@example.com", OWNER, later).await.is_err());
    }

    #[tokio::test]
    async fn sign_ups_from_one_address_are_limited_per_hour() {
        let (t, _dir) = throttle(3).await;
        let now = NOW;
        for _ in 0..3 {
            t.sign_up_at(ATTACKER, now).await.unwrap().unwrap();
        }
        let refused = t.sign_up_at(ATTACKER, now).await.unwrap().unwrap_err();
        assert_eq!(refused.retry_after, Duration::from_secs(1200));
        assert!(t.sign_up_at(OWNER, now).await.unwrap().is_ok());
        assert!(t.sign_up_at(ATTACKER, now + 1200 * SECOND).await.unwrap().is_ok());
    }

    #[tokio::test]
    async fn reset_requests_are_limited_per_client_and_quietly_per_account() {
        let (t, _dir) = throttle(20).await;
        let now = NOW;
        let mut answers = Vec::new();
        for _ in 0..4 {
            answers.push(t.reset_request_at("dee@example.com", OWNER, now).await.unwrap().unwrap());
        }
        assert_eq!(answers, [ResetRequest::Mail, ResetRequest::Mail, ResetRequest::Mail, ResetRequest::Quiet]);
        // Another address may still ask for itself; the account stays quiet for everyone.
        assert_eq!(t.reset_request_at("eve@example.com", ATTACKER, now).await.unwrap(), Ok(ResetRequest::Mail));
        assert_eq!(t.reset_request_at("dee@example.com", ATTACKER, now).await.unwrap(), Ok(ResetRequest::Quiet));
        for i in 0..8 {
            t.reset_request_at(&format!("x{i}@example.com"), ATTACKER, now).await.unwrap().unwrap();
        }
        assert!(
            t.reset_request_at("fresh@example.com", ATTACKER, now).await.unwrap().is_err(),
            "the client is held back"
        );
        let later = now + 3600 * SECOND;
        assert_eq!(t.reset_request_at("dee@example.com", OWNER, later).await.unwrap(), Ok(ResetRequest::Mail));
    }

    #[test]
    fn ipv6_clients_are_counted_by_their_64_and_mapped_ipv4_as_ipv4() {
        let a: IpAddr = "2001:db8:1:2:aaaa::1".parse().unwrap();
        let b: IpAddr = "2001:db8:1:2:bbbb::2".parse().unwrap();
        assert_eq!(address_key(a), address_key(b));
        assert_eq!(address_key("::ffff:203.0.113.9".parse().unwrap()), ATTACKER);
    }

    #[test]
    fn forwarded_for_names_the_client_only_behind_a_trusted_proxy() {
        let proxies: Vec<IpNet> = vec!["10.0.0.0/8".parse().unwrap(), "127.0.0.1/32".parse().unwrap()];
        let peer: IpAddr = "10.1.1.1".parse().unwrap();
        let client = |peer: IpAddr, headers: &[&str]| client_address(peer, headers.iter().copied(), &proxies);
        assert_eq!(client(ATTACKER, &["198.51.100.7"]), ATTACKER, "an untrusted peer's header is ignored");
        assert_eq!(client(peer, &[]), peer);
        assert_eq!(client(peer, &["198.51.100.7"]), OWNER);
        // A client may send its own header: only the entries the proxies appended are believed.
        assert_eq!(client(peer, &["1.2.3.4, 198.51.100.7, 10.2.2.2"]), OWNER);
        assert_eq!(client(peer, &["1.2.3.4", "198.51.100.7:4711"]), OWNER);
        assert_eq!(client(peer, &["[2001:db8::1]:443"]), "2001:db8::1".parse::<IpAddr>().unwrap());
        assert_eq!(client(peer, &["garbage, 10.2.2.2"]), "10.2.2.2".parse::<IpAddr>().unwrap());
    }

    #[tokio::test]
    async fn forgotten_rows_are_deleted_as_calls_come() {
        let (t, _dir) = throttle(20).await;
        for i in 0..10u32 {
            let ip = IpAddr::V4(std::net::Ipv4Addr::from(0x0a00_0000 + i));
            fail(&t, &format!("u{i}@example.com"), ip, NOW).await.unwrap();
        }
        let rows = |t: &AuthThrottle| {
            let db = t.db.clone();
            async move { db.fetch_all::<(i64,)>("SELECT count FROM auth_throttle", vec![]).await.unwrap().len() }
        };
        assert_eq!(rows(&t).await, 30, "an address, an account and a pair for each");
        // Past the quiet spell, the next pruning call deletes them all but its own.
        t.calls.store(0, Ordering::Relaxed);
        fail(&t, "late@example.com", OWNER, NOW + millis(QUIET) + SECOND).await.unwrap();
        assert_eq!(rows(&t).await, 3);
    }

    #[tokio::test]
    async fn two_throttles_on_one_database_count_the_same_failures() {
        let (db, _dir) = testkit::db::sqlite().await;
        let nodes =
            [AuthThrottle::new(db.clone(), b"shared", 20, vec![]), AuthThrottle::new(db, b"shared", 20, vec![])];
        for i in 0..6 {
            fail(&nodes[i % 2], "fay@example.com", ATTACKER, NOW).await.unwrap();
        }
        assert!(fail(&nodes[0], "fay@example.com", ATTACKER, NOW).await.is_err());
        assert!(fail(&nodes[1], "fay@example.com", ATTACKER, NOW).await.is_err());
    }
}
