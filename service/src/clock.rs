//! What time it is, for the rules that judge time: when a token and a session expire, when a
//! rotated session's grace ends, and the times tokens and sessions are issued with.
//!
//! The server reads the system clock; a test holds a [`ManualClock`] and moves it, so an expiry
//! is reached by advancing the clock rather than by waiting for it.

use std::sync::{Arc, Mutex};

use chrono::{DateTime, Duration, Utc};

/// A source of the current time.
pub trait Clock: Send + Sync {
    fn now(&self) -> DateTime<Utc>;
}

/// The clock a use case reads, shared by everything that judges time in one server.
pub type SharedClock = Arc<dyn Clock>;

/// The system's clock: what a running server reads.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> DateTime<Utc> {
        Utc::now()
    }
}

impl SystemClock {
    /// The system clock, shared.
    pub fn shared() -> SharedClock {
        Arc::new(SystemClock)
    }
}

/// A clock that stands still until it is moved: tests set and advance it.
#[derive(Debug)]
pub struct ManualClock {
    now: Mutex<DateTime<Utc>>,
}

impl ManualClock {
    /// A clock standing at `at`.
    pub fn starting_at(at: DateTime<Utc>) -> Arc<Self> {
        Arc::new(ManualClock { now: Mutex::new(at) })
    }

    /// A clock standing at the system's time now (so what it stamps looks current to anything
    /// that reads the system clock, such as the store's own timestamps).
    pub fn starting_now() -> Arc<Self> {
        Self::starting_at(Utc::now())
    }

    /// Moves the clock forward by `by`.
    pub fn advance(&self, by: Duration) {
        *self.now.lock().unwrap_or_else(|e| e.into_inner()) += by;
    }

    /// Moves the clock to `at` (forward or back).
    pub fn set(&self, at: DateTime<Utc>) {
        *self.now.lock().unwrap_or_else(|e| e.into_inner()) = at;
    }
}

impl Clock for ManualClock {
    fn now(&self) -> DateTime<Utc> {
        *self.now.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_manual_clock_stands_still_until_it_is_moved() {
        let start = DateTime::parse_from_rfc3339("2025-01-01T00:00:00Z").unwrap().with_timezone(&Utc);
        let clock = ManualClock::starting_at(start);
        assert_eq!(clock.now(), start);
        clock.advance(Duration::minutes(61));
        assert_eq!(clock.now(), start + Duration::minutes(61));
        clock.set(start);
        assert_eq!(clock.now(), start);
    }

    #[test]
    fn a_manual_clock_is_shared_as_any_clock() {
        let manual = ManualClock::starting_now();
        let shared: SharedClock = manual.clone();
        manual.advance(Duration::days(8));
        assert_eq!(shared.now(), manual.now());
    }
}
