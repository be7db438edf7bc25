//! Throttles on sign-in and sign-up, by client address and by account, in this process's memory.
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
//! Every map is capped: past [`MAX_ENTRIES`] the forgotten entries go, then the older half.
//! Accounts are kept as keyed hashes, not addresses in clear.

use std::collections::hash_map::RandomState;
use std::collections::HashMap;
use std::hash::{BuildHasher, Hash};
use std::net::{IpAddr, Ipv6Addr, SocketAddr};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use axum::http::StatusCode;
use ipnet::IpNet;

use crate::config::ServeArgs;
use crate::error::AppError;

/// How long a key's failures are remembered after its last one (when it is not waiting longer).
pub const QUIET: Duration = Duration::from_secs(15 * 60);
/// The most entries each map holds.
pub const MAX_ENTRIES: usize = 50_000;

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

/// Failures of one key.
#[derive(Debug, Clone, Copy)]
struct Failures {
    count: u32,
    last: Instant,
}

impl Failures {
    fn blocked_until(&self, backoff: &Backoff) -> Instant {
        self.last + backoff.wait(self.count)
    }

    fn forgotten(&self, backoff: &Backoff, now: Instant) -> bool {
        now >= self.last + backoff.wait(self.count).max(QUIET)
    }
}

/// A sign-up bucket: `tokens` as of `at`.
#[derive(Debug, Clone, Copy)]
struct Bucket {
    tokens: f64,
    at: Instant,
}

/// Something whose entries can be forgotten and compared by age.
trait Aged {
    fn last(&self) -> Instant;
    fn forgotten(&self, now: Instant) -> bool;
}

/// Makes room for one more entry: drops forgotten entries, then the older half if need be.
fn make_room<K: Eq + Hash, V: Aged>(map: &mut HashMap<K, V>, now: Instant) {
    if map.len() < MAX_ENTRIES {
        return;
    }
    map.retain(|_, v| !v.forgotten(now));
    if map.len() >= MAX_ENTRIES {
        let mut ages: Vec<Instant> = map.values().map(Aged::last).collect();
        let middle = ages.len() / 2;
        let (_, median, _) = ages.select_nth_unstable(middle);
        let median = *median;
        map.retain(|_, v| v.last() > median);
    }
}

struct AccountFailures(Failures);
struct AddressFailures(Failures);
struct PairFailure(Instant);
struct SignUpBucket {
    bucket: Bucket,
    full_at: Instant,
}

impl Aged for AccountFailures {
    fn last(&self) -> Instant {
        self.0.last
    }
    fn forgotten(&self, now: Instant) -> bool {
        self.0.forgotten(&ACCOUNT_BACKOFF, now)
    }
}
impl Aged for AddressFailures {
    fn last(&self) -> Instant {
        self.0.last
    }
    fn forgotten(&self, now: Instant) -> bool {
        self.0.forgotten(&ADDRESS_BACKOFF, now)
    }
}
impl Aged for PairFailure {
    fn last(&self) -> Instant {
        self.0
    }
    fn forgotten(&self, now: Instant) -> bool {
        now >= self.0 + QUIET
    }
}
impl Aged for SignUpBucket {
    fn last(&self) -> Instant {
        self.bucket.at
    }
    fn forgotten(&self, now: Instant) -> bool {
        now >= self.full_at
    }
}

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

#[derive(Default)]
struct Maps {
    accounts: HashMap<u64, AccountFailures>,
    addresses: HashMap<IpAddr, AddressFailures>,
    pairs: HashMap<(u64, IpAddr), PairFailure>,
    sign_ups: HashMap<IpAddr, SignUpBucket>,
    resets_by_address: HashMap<IpAddr, SignUpBucket>,
    resets_by_account: HashMap<u64, SignUpBucket>,
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

/// The sign-in and sign-up throttles of this process.
pub struct AuthThrottle {
    maps: Mutex<Maps>,
    hasher: RandomState,
    /// Sign-ups one address may make in an hour (and at once, after a quiet hour).
    signups_per_hour: u32,
    /// Reverse proxies whose `X-Forwarded-For` names the client (`--trusted-proxies`).
    proxies: Vec<IpNet>,
}

/// A sign-in attempt let through: report how it ended with [`AuthThrottle::succeeded`] or
/// [`AuthThrottle::failed`].
#[must_use]
pub struct Attempt {
    account: u64,
    address: IpAddr,
}

impl AuthThrottle {
    pub fn new(signups_per_hour: u32, proxies: Vec<IpNet>) -> Self {
        Self { maps: Mutex::default(), hasher: RandomState::new(), signups_per_hour, proxies }
    }

    /// Builds the throttles from `--signups-per-hour` and `--trusted-proxies`.
    pub fn from_config(config: &ServeArgs) -> anyhow::Result<Self> {
        let proxies = crate::config::parse_networks(&config.trusted_proxies, "NEEDL_TRUSTED_PROXIES")?;
        Ok(Self::new(config.signups_per_hour, proxies))
    }

    /// The client of a request from TCP peer `peer` (see [`client_address`]).
    pub fn client_of<'a>(&self, peer: IpAddr, forwarded_for: impl DoubleEndedIterator<Item = &'a str>) -> IpAddr {
        client_address(peer, forwarded_for, &self.proxies)
    }

    fn account_key(&self, email: &str) -> u64 {
        self.hasher.hash_one(email)
    }

    /// Lets a sign-in for `email` from `client` go on to the password check, or refuses it.
    /// The attempt counts as a failure until [`AuthThrottle::succeeded`] says otherwise.
    pub fn begin_sign_in(&self, email: &str, client: IpAddr) -> Result<Attempt, Throttled> {
        self.begin_sign_in_at(email, client, Instant::now())
    }

    fn begin_sign_in_at(&self, email: &str, client: IpAddr, now: Instant) -> Result<Attempt, Throttled> {
        let account = self.account_key(email);
        let address = address_key(client);
        let mut maps = self.maps.lock().expect("throttle lock");
        let maps = &mut *maps;
        let wait_until = |until: Instant| (until > now).then(|| Throttled { retry_after: until - now });
        if let Some(AddressFailures(f)) = maps.addresses.get(&address) {
            if let Some(refusal) = wait_until(f.blocked_until(&ADDRESS_BACKOFF)) {
                return Err(refusal);
            }
        }
        let pair_failed = maps.pairs.get(&(account, address)).is_some_and(|p| !p.forgotten(now));
        if let (true, Some(AccountFailures(f))) = (pair_failed, maps.accounts.get(&account)) {
            if let Some(refusal) = wait_until(f.blocked_until(&ACCOUNT_BACKOFF)) {
                return Err(refusal);
            }
        }
        record(&mut maps.addresses, address, now, AddressFailures, |a| &mut a.0, &ADDRESS_BACKOFF);
        record(&mut maps.accounts, account, now, AccountFailures, |a| &mut a.0, &ACCOUNT_BACKOFF);
        make_room(&mut maps.pairs, now);
        maps.pairs.insert((account, address), PairFailure(now));
        Ok(Attempt { account, address })
    }

    /// The password was wrong (or the account unknown): the attempt stays counted.
    pub fn failed(&self, _attempt: Attempt) {}

    /// The password was right: the attempt is taken back; the pair is forgiven, and so is the
    /// account unless it has failed more than its free failures (others are guessing, then).
    pub fn succeeded(&self, attempt: Attempt) {
        let mut maps = self.maps.lock().expect("throttle lock");
        maps.pairs.remove(&(attempt.account, attempt.address));
        if let Some(AddressFailures(f)) = maps.addresses.get_mut(&attempt.address) {
            f.count = f.count.saturating_sub(1);
        }
        if let Some(AccountFailures(f)) = maps.accounts.get_mut(&attempt.account) {
            f.count = f.count.saturating_sub(1);
            if ACCOUNT_BACKOFF.wait(f.count).is_zero() {
                maps.accounts.remove(&attempt.account);
            }
        }
    }

    /// Takes one sign-up from `client`'s bucket, or says how long until one is back.
    pub fn sign_up(&self, client: IpAddr) -> Result<(), Throttled> {
        self.sign_up_at(client, Instant::now())
    }

    fn sign_up_at(&self, client: IpAddr, now: Instant) -> Result<(), Throttled> {
        let mut maps = self.maps.lock().expect("throttle lock");
        take_token(&mut maps.sign_ups, address_key(client), self.signups_per_hour, now)
    }

    /// Lets a password reset request for `email` (normalised) from `client` through, or refuses
    /// the client; says whether a link may be mailed.
    pub fn reset_request(&self, email: &str, client: IpAddr) -> Result<ResetRequest, Throttled> {
        self.reset_request_at(email, client, Instant::now())
    }

    fn reset_request_at(&self, email: &str, client: IpAddr, now: Instant) -> Result<ResetRequest, Throttled> {
        let account = self.account_key(email);
        let mut maps = self.maps.lock().expect("throttle lock");
        take_token(&mut maps.resets_by_address, address_key(client), RESETS_PER_ADDRESS_PER_HOUR, now)?;
        Ok(match take_token(&mut maps.resets_by_account, account, RESETS_PER_ACCOUNT_PER_HOUR, now) {
            Ok(()) => ResetRequest::Mail,
            Err(_) => ResetRequest::Quiet,
        })
    }
}

/// Takes one token from `key`'s bucket, which holds `per_hour` and refills as many an hour, or
/// says how long until one is back.
fn take_token<K: Eq + Hash>(
    map: &mut HashMap<K, SignUpBucket>,
    key: K,
    per_hour: u32,
    now: Instant,
) -> Result<(), Throttled> {
    let capacity = f64::from(per_hour.max(1));
    let per_second = capacity / 3600.0;
    if !map.contains_key(&key) {
        make_room(map, now);
    }
    let entry = map.entry(key).or_insert(SignUpBucket { bucket: Bucket { tokens: capacity, at: now }, full_at: now });
    let elapsed = now.saturating_duration_since(entry.bucket.at).as_secs_f64();
    let tokens = (entry.bucket.tokens + elapsed * per_second).min(capacity);
    if tokens < 1.0 {
        entry.bucket = Bucket { tokens, at: now };
        return Err(Throttled { retry_after: Duration::from_secs_f64((1.0 - tokens) / per_second) });
    }
    let tokens = tokens - 1.0;
    entry.bucket = Bucket { tokens, at: now };
    entry.full_at = now + Duration::from_secs_f64((capacity - tokens) / per_second);
    Ok(())
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

/// Counts one more failure for `key`, starting afresh when its earlier ones are forgotten.
fn record<K: Eq + Hash + Copy, V: Aged>(
    map: &mut HashMap<K, V>,
    key: K,
    now: Instant,
    wrap: fn(Failures) -> V,
    failures: fn(&mut V) -> &mut Failures,
    backoff: &Backoff,
) {
    if !map.contains_key(&key) {
        make_room(map, now);
    }
    let entry = map.entry(key).or_insert_with(|| wrap(Failures { count: 0, last: now }));
    let f = failures(entry);
    if f.forgotten(backoff, now) {
        f.count = 0;
    }
    f.count += 1;
    f.last = now;
}

#[cfg(test)]
mod tests {
    use super::*;

    const ATTACKER: IpAddr = IpAddr::V4(std::net::Ipv4Addr::new(203, 0, 113, 9));
    const OWNER: IpAddr = IpAddr::V4(std::net::Ipv4Addr::new(198, 51, 100, 7));

    fn fail(t: &AuthThrottle, email: &str, ip: IpAddr, now: Instant) -> Result<(), Throttled> {
        t.begin_sign_in_at(email, ip, now).map(|a| t.failed(a))
    }

    #[test]
    fn waits_double_after_the_free_failures_up_to_the_cap() {
        let waits: Vec<u64> = (4..=8).map(|n| ACCOUNT_BACKOFF.wait(n).as_secs()).collect();
        assert_eq!(waits, [0, 0, 2, 4, 8]);
        assert_eq!(ACCOUNT_BACKOFF.wait(40), Duration::from_secs(15 * 60));
    }

    #[test]
    fn a_stranger_guessing_slows_down_only_themselves() {
        let t = AuthThrottle::new(20, vec![]);
        let now = Instant::now();
        for _ in 0..6 {
            fail(&t, "bea@example.com", ATTACKER, now).unwrap();
        }
        let refused = fail(&t, "bea@example.com", ATTACKER, now).unwrap_err();
        assert_eq!(refused.retry_after, Duration::from_secs(2));
        // The owner, from an address that has not failed on the account, reaches the check.
        let attempt = t.begin_sign_in_at("bea@example.com", OWNER, now).expect("the owner is let through");
        t.succeeded(attempt);
        assert!(fail(&t, "bea@example.com", ATTACKER, now).is_err(), "the account stays under attack");
        // After the wait, the attacker gets one more guess and waits longer.
        let later = now + Duration::from_secs(2);
        fail(&t, "bea@example.com", ATTACKER, later).unwrap();
        assert_eq!(fail(&t, "bea@example.com", ATTACKER, later).unwrap_err().retry_after, Duration::from_secs(4));
    }

    #[test]
    fn an_address_guessing_many_accounts_is_held_back() {
        let t = AuthThrottle::new(20, vec![]);
        let now = Instant::now();
        for i in 0..21 {
            fail(&t, &format!("user{i}@example.com"), ATTACKER, now).unwrap();
        }
        let refused = fail(&t, "fresh@example.com", ATTACKER, now).unwrap_err();
        assert_eq!(refused.retry_after, Duration::from_secs(2));
        assert!(fail(&t, "fresh@example.com", OWNER, now).is_ok(), "other addresses go on");
    }

    #[test]
    fn failures_are_forgotten_after_a_quiet_spell_and_a_success_takes_its_attempt_back() {
        let t = AuthThrottle::new(20, vec![]);
        let now = Instant::now();
        for _ in 0..6 {
            fail(&t, "cy@example.com", OWNER, now).unwrap();
        }
        assert!(fail(&t, "cy@example.com", OWNER, now).is_err());
        let later = now + QUIET;
        for _ in 0..5 {
            fail(&t, "cy@example.com", OWNER, later).unwrap();
        }
        let attempt = t.begin_sign_in_at("cy@example.com", OWNER, later).unwrap();
        t.succeeded(attempt);
        for _ in 0..6 {
            fail(&t, "cy@example.com", OWNER, later).expect("the success forgave the account");
        }
        assert!(fail(&t, "cy@example.com", OWNER, later).is_err());
    }

    #[test]
    fn sign_ups_from_one_address_are_limited_per_hour() {
        let t = AuthThrottle::new(3, vec![]);
        let now = Instant::now();
        for _ in 0..3 {
            t.sign_up_at(ATTACKER, now).unwrap();
        }
        let refused = t.sign_up_at(ATTACKER, now).unwrap_err();
        assert_eq!(refused.retry_after, Duration::from_secs(1200));
        assert!(t.sign_up_at(OWNER, now).is_ok());
        assert!(t.sign_up_at(ATTACKER, now + Duration::from_secs(1200)).is_ok());
    }

    #[test]
    fn reset_requests_are_limited_per_client_and_quietly_per_account() {
        let t = AuthThrottle::new(20, vec![]);
        let now = Instant::now();
        let answers: Vec<ResetRequest> =
            (0..4).map(|_| t.reset_request_at("dee@example.com", OWNER, now).unwrap()).collect();
        assert_eq!(answers, [ResetRequest::Mail, ResetRequest::Mail, ResetRequest::Mail, ResetRequest::Quiet]);
        // Another address may still ask for itself; the account stays quiet for everyone.
        assert_eq!(t.reset_request_at("eve@example.com", ATTACKER, now), Ok(ResetRequest::Mail));
        assert_eq!(t.reset_request_at("dee@example.com", ATTACKER, now), Ok(ResetRequest::Quiet));
        for i in 0..8 {
            t.reset_request_at(&format!("x{i}@example.com"), ATTACKER, now).unwrap();
        }
        assert!(t.reset_request_at("fresh@example.com", ATTACKER, now).is_err(), "the client is held back");
        let later = now + Duration::from_secs(3600);
        assert_eq!(t.reset_request_at("dee@example.com", OWNER, later), Ok(ResetRequest::Mail));
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

    #[test]
    fn the_maps_stay_bounded() {
        let t = AuthThrottle::new(20, vec![]);
        let now = Instant::now();
        for i in 0..(MAX_ENTRIES as u32 + 10) {
            let ip = IpAddr::V4(std::net::Ipv4Addr::from(0x0a00_0000 + i));
            let at = now + Duration::from_millis(u64::from(i));
            fail(&t, &format!("u{i}@example.com"), ip, at).unwrap();
            t.sign_up_at(ip, at).unwrap();
        }
        let maps = t.maps.lock().unwrap();
        for len in [maps.accounts.len(), maps.addresses.len(), maps.pairs.len(), maps.sign_ups.len()] {
            assert!(len <= MAX_ENTRIES, "{len}");
        }
        let newest = address_key(IpAddr::V4(std::net::Ipv4Addr::from(0x0a00_0000 + MAX_ENTRIES as u32 + 9)));
        assert!(maps.addresses.contains_key(&newest), "the newest entries stay");
    }
}
