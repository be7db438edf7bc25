//! When to fetch a source next: exponential backoff for failing sources and a scheduler that picks
//! due sources. Both are pure (time and randomness come in as arguments) so they can be tested
//! without clocks; the caller keeps the per-source state next to the source.

use std::time::Duration;

use chrono::{DateTime, Utc};
use rand::Rng;

/// Exponential backoff with jitter: `base * 2^(failures - 1)`, capped at `max`, then spread by up
/// to `jitter` of itself so that sources that failed together do not retry together.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Backoff {
    pub base: Duration,
    pub max: Duration,
    /// Fraction of the delay added at random, between 0 and 1.
    pub jitter: f64,
}

impl Default for Backoff {
    fn default() -> Self {
        Self { base: Duration::from_secs(60), max: Duration::from_secs(6 * 3600), jitter: 0.2 }
    }
}

impl Backoff {
    /// Returns the delay before the next attempt after `failures` consecutive failures (0 means
    /// no failure, and no delay). `unit` is a random number in `[0, 1)`.
    pub fn delay(&self, failures: u32, unit: f64) -> Duration {
        if failures == 0 {
            return Duration::ZERO;
        }
        let exponent = (failures - 1).min(32);
        let raw = self.base.saturating_mul(2u32.saturating_pow(exponent)).min(self.max);
        let spread = raw.as_secs_f64() * self.jitter.clamp(0.0, 1.0) * unit.clamp(0.0, 1.0);
        (raw + Duration::from_secs_f64(spread)).min(self.max)
    }

    /// Returns when a source that has failed `failures` times in a row may be tried again.
    pub fn next_attempt(&self, failures: u32, now: DateTime<Utc>, rng: &mut impl Rng) -> DateTime<Utc> {
        now + chrono_duration(self.delay(failures, rng.random::<f64>()))
    }
}

/// Returns when a source that has failed `failures` times in a row may be tried again, with the
/// default backoff (1 minute doubling up to 6 hours, 20 % jitter).
pub fn next_attempt(failures: u32, now: DateTime<Utc>) -> DateTime<Utc> {
    Backoff::default().next_attempt(failures, now, &mut rand::rng())
}

/// What the scheduler needs to know about one source.
#[derive(Debug, Clone, PartialEq)]
pub struct ScheduledSource<Id> {
    pub id: Id,
    /// When the source is due; `None` means it has never been fetched and is due now.
    pub next_due: Option<DateTime<Utc>>,
    /// Consecutive failures, reset to 0 by a success.
    pub failures: u32,
}

/// Picks due sources and computes their next due times.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Scheduler {
    /// The polling interval of a healthy source.
    pub interval: Duration,
    /// Fraction of the interval spread at random either way, so that sources added together do
    /// not stay in lockstep.
    pub jitter: f64,
    pub backoff: Backoff,
}

impl Default for Scheduler {
    fn default() -> Self {
        Self { interval: Duration::from_secs(15 * 60), jitter: 0.1, backoff: Backoff::default() }
    }
}

impl Scheduler {
    /// Returns at most `max` sources due at `now`, the most overdue first (never-fetched ones
    /// before all others).
    pub fn pick_due<'a, Id>(
        &self,
        sources: &'a [ScheduledSource<Id>],
        now: DateTime<Utc>,
        max: usize,
    ) -> Vec<&'a ScheduledSource<Id>> {
        let mut due: Vec<_> = sources.iter().filter(|s| s.next_due.is_none_or(|t| t <= now)).collect();
        due.sort_by_key(|s| s.next_due);
        due.truncate(max);
        due
    }

    /// Returns the next due time after a successful fetch: the interval, give or take the jitter.
    pub fn after_success(&self, now: DateTime<Utc>, rng: &mut impl Rng) -> DateTime<Utc> {
        let spread = self.jitter.clamp(0.0, 1.0) * (rng.random::<f64>() * 2.0 - 1.0);
        let secs = self.interval.as_secs_f64() * (1.0 + spread);
        now + chrono_duration(Duration::from_secs_f64(secs.max(1.0)))
    }

    /// Returns the next due time after a failed fetch, `failures` counting this one.
    pub fn after_failure(&self, failures: u32, now: DateTime<Utc>, rng: &mut impl Rng) -> DateTime<Utc> {
        self.backoff.next_attempt(failures.max(1), now, rng)
    }
}

fn chrono_duration(d: Duration) -> chrono::Duration {
    chrono::Duration::from_std(d).unwrap_or(chrono::Duration::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{rngs::StdRng, SeedableRng};

    fn at(secs: i64) -> DateTime<Utc> {
        DateTime::from_timestamp(1_800_000_000 + secs, 0).unwrap()
    }

    #[test]
    fn backoff_doubles_with_each_failure_and_stops_at_the_cap() {
        let b = Backoff { base: Duration::from_secs(10), max: Duration::from_secs(300), jitter: 0.0 };
        let delays: Vec<u64> = (0..8).map(|f| b.delay(f, 0.5).as_secs()).collect();
        assert_eq!(delays, vec![0, 10, 20, 40, 80, 160, 300, 300]);
        assert_eq!(b.delay(u32::MAX, 0.99), Duration::from_secs(300));
    }

    #[test]
    fn backoff_jitter_stays_within_its_fraction_and_under_the_cap() {
        let b = Backoff { base: Duration::from_secs(100), max: Duration::from_secs(1000), jitter: 0.2 };
        let mut rng = StdRng::seed_from_u64(7);
        let mut seen = std::collections::HashSet::new();
        for _ in 0..200 {
            let next = b.next_attempt(2, at(0), &mut rng);
            let secs = (next - at(0)).num_seconds();
            assert!((200..=240).contains(&secs), "{secs}");
            seen.insert(secs);
            let capped = (b.next_attempt(20, at(0), &mut rng) - at(0)).num_seconds();
            assert_eq!(capped, 1000);
        }
        assert!(seen.len() > 5, "jitter spreads retries: {seen:?}");
        assert!(next_attempt(3, at(0)) > at(0));
    }

    #[test]
    fn the_scheduler_picks_only_due_sources_most_overdue_first() {
        let s = Scheduler::default();
        let sources = vec![
            ScheduledSource { id: "later", next_due: Some(at(100)), failures: 0 },
            ScheduledSource { id: "late", next_due: Some(at(-50)), failures: 0 },
            ScheduledSource { id: "new", next_due: None, failures: 0 },
            ScheduledSource { id: "very_late", next_due: Some(at(-500)), failures: 3 },
            ScheduledSource { id: "now", next_due: Some(at(0)), failures: 0 },
        ];
        let ids: Vec<_> = s.pick_due(&sources, at(0), 10).iter().map(|x| x.id).collect();
        assert_eq!(ids, vec!["new", "very_late", "late", "now"]);
        let ids: Vec<_> = s.pick_due(&sources, at(0), 2).iter().map(|x| x.id).collect();
        assert_eq!(ids, vec!["new", "very_late"]);
    }

    #[test]
    fn the_next_run_after_success_is_the_interval_give_or_take_the_jitter() {
        let s = Scheduler { interval: Duration::from_secs(1000), jitter: 0.1, backoff: Backoff::default() };
        let mut rng = StdRng::seed_from_u64(1);
        let runs: Vec<i64> = (0..100).map(|_| (s.after_success(at(0), &mut rng) - at(0)).num_seconds()).collect();
        assert!(runs.iter().all(|r| (900..=1100).contains(r)), "{runs:?}");
        assert!(runs.iter().min() != runs.iter().max());
        let after_fail = s.after_failure(1, at(0), &mut rng) - at(0);
        assert!(after_fail.num_seconds() >= 60 && after_fail.num_seconds() <= 72);
    }
}
