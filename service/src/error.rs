//! The one error type below HTTP: a kind, a stable code and a sentence a person can act on.
//!
//! Domain, command, search and assistant errors convert into it, so a use case answers with `?`.
//! The kind says how a client should treat the failure; `api/` maps each kind to an HTTP status
//! in one place. Storage and other internal failures are logged with their detail here and carry
//! a message that says nothing internal.

use commands::{CommandError, CommitError, StoreError, StoreFailure};
use domain::{DomainError, ErrorKind};
use search::SearchError;

/// How a failure is to be treated, independently of its wording.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// The request is well formed but its content is refused (a name too long, an unknown id
    /// in a list of choices).
    Invalid,
    /// The request cannot be read at all (an unknown search type, a bad page number, a query
    /// that does not parse).
    Malformed,
    /// The thing does not exist, or the viewer may not know that it does.
    NotFound,
    /// The request clashes with the current state (already done, taken, lost a write race).
    Conflict,
    /// The viewer is known but may not do this.
    Forbidden,
    /// Who is asking is unknown: no credentials, or ones that no longer hold.
    Unauthorised,
    /// The request or a file in it exceeds a limit.
    TooLarge,
    /// Too many attempts: try again after `retry_after` seconds.
    Throttled,
    /// A service this depends on (the answer engine) failed.
    Unavailable,
    /// The database does not answer (restarting, unreachable): nothing was done; try again.
    StorageDown,
    /// The disk holding the data directory (or the database) is full: nothing was saved; an
    /// operator must free space.
    DiskFull,
    /// Our fault: logged, and answered without detail.
    Internal,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    pub kind: Kind,
    /// A stable machine-readable code, e.g. `tag_not_found`; never reworded.
    pub code: String,
    /// A sentence a person can act on.
    pub message: String,
    /// Seconds until a throttled client may try again.
    pub retry_after: Option<u64>,
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    pub fn new(kind: Kind, code: &str, message: impl Into<String>) -> Self {
        Self { kind, code: code.to_string(), message: message.into(), retry_after: None }
    }

    pub fn invalid(code: &str, message: impl Into<String>) -> Self {
        Self::new(Kind::Invalid, code, message)
    }

    pub fn malformed(code: &str, message: impl Into<String>) -> Self {
        Self::new(Kind::Malformed, code, message)
    }

    /// `not_found` with a message naming what was not found.
    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(Kind::NotFound, "not_found", message)
    }

    /// `forbidden` with a message saying what the viewer may not do.
    pub fn forbidden(message: impl Into<String>) -> Self {
        Self::new(Kind::Forbidden, "forbidden", message)
    }

    pub fn conflict(code: &str, message: impl Into<String>) -> Self {
        Self::new(Kind::Conflict, code, message)
    }

    pub fn unauthorised(code: &str, message: impl Into<String>) -> Self {
        Self::new(Kind::Unauthorised, code, message)
    }

    pub fn too_large(code: &str, message: impl Into<String>) -> Self {
        Self::new(Kind::TooLarge, code, message)
    }

    pub fn throttled(code: &str, message: impl Into<String>, retry_after: u64) -> Self {
        Self { retry_after: Some(retry_after), ..Self::new(Kind::Throttled, code, message) }
    }

    /// Logs the detail and returns an error that reveals nothing of it.
    pub fn internal(detail: impl std::fmt::Display) -> Self {
        tracing::error!(error = %detail, "internal error");
        Self::new(Kind::Internal, "internal", "something went wrong on our side; please try again")
    }

    /// The database does not answer: logged with its detail, answered with a sentence.
    pub fn storage_down(detail: impl std::fmt::Display) -> Self {
        tracing::error!(error = %detail, "the database does not answer");
        Self::new(
            Kind::StorageDown,
            "storage_unavailable",
            "The service cannot reach its database just now; nothing was changed. Try again in a moment.",
        )
    }

    /// The disk is full: logged with its detail, answered with a sentence.
    pub fn disk_full(detail: impl std::fmt::Display) -> Self {
        tracing::error!(error = %detail, "the disk is full");
        Self::new(
            Kind::DiskFull,
            "disk_full",
            "The server has run out of disk space, so nothing was saved. Try again once space has been freed.",
        )
    }
}

/// Whether `error`, or anything it wraps, is a full disk.
pub fn is_disk_full(error: &(dyn std::error::Error + 'static)) -> bool {
    StoreFailure::of(error) == StoreFailure::DiskFull
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

impl std::error::Error for Error {}

impl From<sqlx::Error> for Error {
    fn from(e: sqlx::Error) -> Self {
        from_store(StoreError::from(e))
    }
}

/// A store failure by its kind: the database not answering, the disk full, or anything else
/// (internal).
fn from_store(error: StoreError) -> Error {
    match error.failure {
        StoreFailure::Unavailable => Error::storage_down(error),
        StoreFailure::DiskFull => Error::disk_full(error),
        StoreFailure::Other => Error::internal(error),
    }
}

impl From<anyhow::Error> for Error {
    fn from(e: anyhow::Error) -> Self {
        if is_disk_full(e.as_ref()) {
            return Error::disk_full(format!("{e:#}"));
        }
        Error::internal(format!("{e:#}"))
    }
}

impl From<tokio::task::JoinError> for Error {
    fn from(e: tokio::task::JoinError) -> Self {
        Error::internal(e)
    }
}

/// A domain error keeps its code and wording; its kind says the rest.
pub fn from_domain<E: DomainError + ?Sized>(error: &E) -> Error {
    let kind = match error.kind() {
        ErrorKind::Invalid => Kind::Invalid,
        ErrorKind::NotFound => Kind::NotFound,
        ErrorKind::Conflict => Kind::Conflict,
        ErrorKind::Forbidden => Kind::Forbidden,
    };
    Error::new(kind, error.code(), error.to_string())
}

impl<E: DomainError + 'static> From<CommandError<E>> for Error {
    fn from(e: CommandError<E>) -> Self {
        match e {
            CommandError::Domain(error) => from_domain(&error),
            CommandError::Conflict => Error::conflict("conflict", e.to_string()),
            CommandError::Store(error) => from_store(error),
        }
    }
}

impl From<CommitError> for Error {
    fn from(e: CommitError) -> Self {
        match e {
            CommitError::Conflict => Error::conflict("conflict", e.to_string()),
            CommitError::Store(error) => from_store(error),
        }
    }
}

impl From<SearchError> for Error {
    fn from(error: SearchError) -> Self {
        match error {
            SearchError::Keyword(e) => Error::malformed("invalid_keyword", e.to_string()),
            SearchError::TooLong => Error::malformed("query_too_long", error.to_string()),
            SearchError::Index(e) => Error::internal(e),
        }
    }
}

impl From<assistant::AssistantError> for Error {
    fn from(error: assistant::AssistantError) -> Self {
        use assistant::ErrorKind as K;
        let kind = match error.kind() {
            K::Invalid => Kind::Invalid,
            K::Unavailable => Kind::Unavailable,
            K::Cancelled => Kind::Conflict,
            K::Internal => return Error::internal(&error),
        };
        Error::new(kind, error.code(), error.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use domain::user::UserError;

    #[test]
    fn domain_errors_keep_their_codes_and_take_their_kinds() {
        let cases = [
            (UserError::NotFound, Kind::NotFound, "user_not_found"),
            (UserError::AlreadySignedUp, Kind::Conflict, "already_signed_up"),
            (UserError::InvalidFlagValue, Kind::Invalid, "invalid_flag_value"),
        ];
        for (error, kind, code) in cases {
            let mapped = Error::from(CommandError::Domain(error));
            assert_eq!((mapped.kind, mapped.code.as_str()), (kind, code));
        }
    }

    #[test]
    fn losing_every_retry_of_a_write_race_is_a_conflict() {
        assert_eq!(Error::from(CommandError::<UserError>::Conflict).kind, Kind::Conflict);
    }

    #[test]
    fn internal_failures_say_nothing_internal() {
        let mapped = Error::from(CommandError::<UserError>::Store(StoreError::other("relation events does not exist")));
        assert_eq!(mapped.kind, Kind::Internal);
        assert!(!mapped.message.contains("relation"));
    }

    #[test]
    fn a_database_that_does_not_answer_is_said_so_and_nothing_internal_is() {
        for mapped in [
            Error::from(sqlx::Error::PoolTimedOut),
            Error::from(CommandError::<UserError>::Store(sqlx::Error::PoolTimedOut.into())),
            Error::from(CommitError::Store(sqlx::Error::PoolClosed.into())),
        ] {
            assert_eq!((mapped.kind, mapped.code.as_str()), (Kind::StorageDown, "storage_unavailable"));
            assert!(!mapped.message.contains("pool"), "{}", mapped.message);
        }
        let other = Error::from(CommandError::<UserError>::Store(sqlx::Error::RowNotFound.into()));
        assert_eq!(other.kind, Kind::Internal);
    }

    #[test]
    fn a_full_disk_is_said_so_however_it_is_wrapped() {
        let enospc = std::io::Error::from_raw_os_error(28);
        let wrapped = anyhow::Error::new(enospc).context("writing a blob").context("processing an upload");
        for mapped in [
            Error::from(wrapped),
            Error::from(CommandError::<UserError>::Store(
                sqlx::Error::Io(std::io::Error::from_raw_os_error(28)).into(),
            )),
            Error::from(sqlx::Error::Io(std::io::Error::from_raw_os_error(28))),
        ] {
            assert_eq!((mapped.kind, mapped.code.as_str()), (Kind::DiskFull, "disk_full"));
            assert!(mapped.message.contains("disk space"), "{}", mapped.message);
        }
        let other = anyhow::Error::new(std::io::Error::from(std::io::ErrorKind::PermissionDenied));
        assert_eq!(Error::from(other).kind, Kind::Internal);
    }

    #[test]
    fn a_query_that_does_not_parse_is_malformed_and_says_why() {
        let mapped = Error::from(SearchError::TooLong);
        assert_eq!((mapped.kind, mapped.code.as_str()), (Kind::Malformed, "query_too_long"));
        assert!(mapped.message.contains("too long"));
    }
}
