//! What a storage failure is, read off the error itself while it is still typed: the database not
//! answering, the disk full, or anything else. The command bus keeps this beside the failure's
//! words, so the layers above answer each case as it deserves (503, 507, 500) without matching
//! on wording.

/// The kind of a storage failure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StoreFailure {
    /// The database does not answer (pool timed out or closed, connection lost): nothing was
    /// done, and trying again later may work.
    Unavailable,
    /// The disk under the database or the data directory is full: nothing was saved.
    DiskFull,
    /// Anything else: a fault of ours.
    Other,
}

/// Whether a Postgres SQLSTATE says the server went away or turned the connection down.
fn is_postgres_away(code: &str) -> bool {
    code.starts_with("08") || ["57P01", "57P02", "57P03", "53300"].contains(&code)
}

/// ENOSPC, the same number on every platform the product runs on.
const ENOSPC: i32 = 28;

impl StoreFailure {
    /// The kind of `error`, looking through everything it wraps.
    pub fn of(error: &(dyn std::error::Error + 'static)) -> StoreFailure {
        let mut next = Some(error);
        while let Some(cause) = next {
            if let Some(io) = cause.downcast_ref::<std::io::Error>() {
                if io.kind() == std::io::ErrorKind::StorageFull || io.raw_os_error() == Some(ENOSPC) {
                    return StoreFailure::DiskFull;
                }
            }
            if let Some(error) = cause.downcast_ref::<sqlx::Error>() {
                match error {
                    sqlx::Error::PoolTimedOut | sqlx::Error::PoolClosed => return StoreFailure::Unavailable,
                    sqlx::Error::Io(io) if io.raw_os_error() == Some(ENOSPC) => return StoreFailure::DiskFull,
                    sqlx::Error::Io(_) => return StoreFailure::Unavailable,
                    sqlx::Error::Database(db) => {
                        // SQLite's SQLITE_FULL (13; extended codes keep it in the low byte) and
                        // Postgres's disk_full (53100).
                        let code = db.code().unwrap_or_default();
                        if code == "53100" || code.parse::<i64>().is_ok_and(|c| c & 0xff == 13) {
                            return StoreFailure::DiskFull;
                        }
                        // Postgres going away under a connection: a connection exception (class
                        // 08), a shutdown or restart under way (57P01 to 57P03), no slot left.
                        if is_postgres_away(&code) {
                            return StoreFailure::Unavailable;
                        }
                    }
                    _ => {}
                }
            }
            next = cause.source();
        }
        StoreFailure::Other
    }
}

/// A storage failure: its kind and its words (for the log, never for the client).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{detail}")]
pub struct StoreError {
    pub failure: StoreFailure,
    pub detail: String,
}

impl StoreError {
    /// `error`, classified, with `context` before its words.
    pub fn of(context: &str, error: &(dyn std::error::Error + 'static)) -> StoreError {
        let detail = if context.is_empty() { error.to_string() } else { format!("{context}: {error}") };
        StoreError { failure: StoreFailure::of(error), detail }
    }

    /// A failure of ours that no typed error describes (an unreadable stored event).
    pub fn other(detail: impl Into<String>) -> StoreError {
        StoreError { failure: StoreFailure::Other, detail: detail.into() }
    }
}

impl From<sqlx::Error> for StoreError {
    fn from(error: sqlx::Error) -> StoreError {
        StoreError::of("", &error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_failure_is_told_by_its_type_however_deeply_it_is_wrapped() {
        assert_eq!(StoreFailure::of(&sqlx::Error::PoolTimedOut), StoreFailure::Unavailable);
        assert_eq!(StoreFailure::of(&sqlx::Error::PoolClosed), StoreFailure::Unavailable);
        let refused = std::io::Error::from(std::io::ErrorKind::ConnectionRefused);
        assert_eq!(StoreFailure::of(&sqlx::Error::Io(refused)), StoreFailure::Unavailable);
        let full = sqlx::Error::Io(std::io::Error::from_raw_os_error(ENOSPC));
        assert_eq!(StoreFailure::of(&full), StoreFailure::DiskFull);
        let wrapped = anyhow::Error::new(full).context("appending");
        assert_eq!(StoreFailure::of(wrapped.as_ref()), StoreFailure::DiskFull, "through what wraps it");
        assert_eq!(StoreFailure::of(&sqlx::Error::RowNotFound), StoreFailure::Other);
        for away in ["57P01", "57P03", "08006", "53300"] {
            assert!(is_postgres_away(away), "{away}");
        }
        for not_away in ["23505", "40001", "42P01", "57014"] {
            assert!(!is_postgres_away(not_away), "{not_away}");
        }
        assert_eq!(StoreError::other("event 3 unreadable").failure, StoreFailure::Other);
    }
}
