//! The kinds of failure a decision can return; `api` maps each kind to one HTTP status.

/// What went wrong, independent of the transport that reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    Invalid,
    NotFound,
    Conflict,
    Forbidden,
}

/// Implemented by every aggregate's error type.
pub trait DomainError: std::error::Error {
    fn kind(&self) -> ErrorKind;
    /// A stable machine-readable code, e.g. `email_taken`.
    fn code(&self) -> &'static str;
}
