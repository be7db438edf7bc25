//! The assistant's errors: each with a stable machine code (for the API's `{code, message}` body
//! and for logs) and a lowercase human message. None is tied to HTTP; the API maps kinds to
//! statuses.

use search::SearchError;

#[derive(Debug, thiserror::Error)]
pub enum AssistantError {
    /// The index refused or failed the retrieval query.
    #[error(transparent)]
    Search(#[from] SearchError),
    /// The answer engine's server could not be reached (refused, DNS, TLS, timeout).
    #[error("the answer engine at {url} could not be reached: {reason}")]
    Unreachable { url: String, reason: String },
    /// The answer engine answered with a status other than 200.
    #[error("the answer engine answered {status}: {message}")]
    Status { status: u16, message: String },
    /// The answer engine's stream could not be read as chat-completion chunks.
    #[error("the answer engine sent a malformed stream: {0}")]
    Malformed(String),
    /// The answer engine stopped sending for longer than its idle limit.
    #[error("the answer engine stopped answering for {0} seconds")]
    Stalled(u64),
    /// Whoever listened to the events went away (a new question, a stop, a closed connection).
    #[error("the answer was cancelled")]
    Cancelled,
    #[error("internal assistant error: {0}")]
    Internal(String),
}

/// How the API should treat an error, independently of its wording.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// The question itself is at fault (a keyword error, too long).
    Invalid,
    /// A service the assistant depends on failed.
    Unavailable,
    /// Nobody is listening any more: nothing to report.
    Cancelled,
    Internal,
}

impl AssistantError {
    /// A stable code for the error, never reworded.
    pub fn code(&self) -> &'static str {
        match self {
            AssistantError::Search(SearchError::Index(_)) => "search_failed",
            AssistantError::Search(_) => "invalid_question",
            AssistantError::Unreachable { .. } => "engine_unreachable",
            AssistantError::Status { .. } => "engine_status",
            AssistantError::Malformed(_) => "engine_malformed_stream",
            AssistantError::Stalled(_) => "engine_stalled",
            AssistantError::Cancelled => "cancelled",
            AssistantError::Internal(_) => "internal",
        }
    }

    pub fn kind(&self) -> ErrorKind {
        match self {
            AssistantError::Search(SearchError::Index(_)) => ErrorKind::Internal,
            AssistantError::Search(_) => ErrorKind::Invalid,
            AssistantError::Unreachable { .. }
            | AssistantError::Status { .. }
            | AssistantError::Malformed(_)
            | AssistantError::Stalled(_) => ErrorKind::Unavailable,
            AssistantError::Cancelled => ErrorKind::Cancelled,
            AssistantError::Internal(_) => ErrorKind::Internal,
        }
    }
}
