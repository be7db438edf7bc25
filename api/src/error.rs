//! Errors as HTTP answers: the JSON shape `{code, message}` every failure answers with.
//!
//! Below HTTP there is one error type, [`service::Error`]; [`status_of`] maps its kinds to
//! statuses, here and nowhere else. [`AppError`] is that error on its way out, with what only
//! HTTP has: the status, `Retry-After`, and the mark of a 403 a token refresh fixes. Internal
//! failures are logged with their detail where they happen and say nothing internal.

use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use commands::{CommandError, CommitError};
use domain::DomainError;
use serde::Serialize;
use service::Kind;
use utoipa::ToSchema;

/// The body of every error answer.
#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorBody {
    /// A stable machine-readable code, e.g. `invalid_token`.
    pub code: String,
    /// A sentence a person can act on.
    pub message: String,
}

#[derive(Debug)]
pub struct AppError {
    pub status: StatusCode,
    pub code: String,
    pub message: String,
    /// Marks a 403 that a fresh token fixes: the answer carries [`BACKEND_ORIGIN_HEADER`], and
    /// the web app refreshes its token and retries (at most twice) instead of giving up.
    pub refreshable: bool,
    /// Seconds until a throttled client may try again: sent as `Retry-After` with a 429.
    pub retry_after: Option<u64>,
}

/// The header that tells the web app a 403 came from this backend and a token refresh may help.
pub const BACKEND_ORIGIN_HEADER: &str = "x-backend-origin";

impl AppError {
    pub fn new(status: StatusCode, code: &str, message: impl Into<String>) -> Self {
        Self { status, code: code.to_string(), message: message.into(), refreshable: false, retry_after: None }
    }

    /// Adds `Retry-After: seconds` to the answer.
    pub fn retry_after(self, seconds: u64) -> Self {
        Self { retry_after: Some(seconds), ..self }
    }

    /// A 403 for a token that has expired while its session is still live: refreshing fixes it.
    pub fn token_expired() -> Self {
        Self {
            refreshable: true,
            ..Self::new(StatusCode::FORBIDDEN, "token_expired", "your token has expired; refresh it")
        }
    }

    pub fn invalid(code: &str, message: impl Into<String>) -> Self {
        service::Error::invalid(code, message).into()
    }

    pub fn bad_request(code: &str, message: impl Into<String>) -> Self {
        service::Error::malformed(code, message).into()
    }

    pub fn unauthorized(code: &str, message: impl Into<String>) -> Self {
        service::Error::unauthorised(code, message).into()
    }

    pub fn forbidden(message: impl Into<String>) -> Self {
        service::Error::forbidden(message).into()
    }

    pub fn not_found(message: impl Into<String>) -> Self {
        service::Error::not_found(message).into()
    }

    /// Logs the detail and returns a 500 that reveals nothing of it.
    pub fn internal(detail: impl std::fmt::Display) -> Self {
        service::Error::internal(detail).into()
    }
}

/// The status each kind of failure answers with.
pub fn status_of(kind: Kind) -> StatusCode {
    match kind {
        Kind::Invalid => StatusCode::UNPROCESSABLE_ENTITY,
        Kind::Malformed => StatusCode::BAD_REQUEST,
        Kind::NotFound => StatusCode::NOT_FOUND,
        Kind::Conflict => StatusCode::CONFLICT,
        Kind::Forbidden => StatusCode::FORBIDDEN,
        Kind::Unauthorised => StatusCode::UNAUTHORIZED,
        Kind::TooLarge => StatusCode::PAYLOAD_TOO_LARGE,
        Kind::Throttled => StatusCode::TOO_MANY_REQUESTS,
        Kind::Unavailable => StatusCode::BAD_GATEWAY,
        Kind::StorageDown => StatusCode::SERVICE_UNAVAILABLE,
        Kind::DiskFull => StatusCode::INSUFFICIENT_STORAGE,
        Kind::Internal => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

impl From<service::Error> for AppError {
    fn from(e: service::Error) -> Self {
        AppError {
            status: status_of(e.kind),
            code: e.code,
            message: e.message,
            refreshable: false,
            retry_after: e.retry_after,
        }
    }
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        let body = ErrorBody { code: self.code, message: self.message };
        let mut response = (self.status, Json(body)).into_response();
        if self.refreshable {
            response.headers_mut().insert(BACKEND_ORIGIN_HEADER, axum::http::HeaderValue::from_static("needl"));
        }
        if let Some(seconds) = self.retry_after {
            response.headers_mut().insert(axum::http::header::RETRY_AFTER, axum::http::HeaderValue::from(seconds));
        }
        response
    }
}

pub type ApiResult<T> = Result<T, AppError>;

impl From<sqlx::Error> for AppError {
    fn from(e: sqlx::Error) -> Self {
        service::Error::from(e).into()
    }
}

impl From<anyhow::Error> for AppError {
    fn from(e: anyhow::Error) -> Self {
        service::Error::from(e).into()
    }
}

impl<E: DomainError + 'static> From<CommandError<E>> for AppError {
    fn from(e: CommandError<E>) -> Self {
        service::Error::from(e).into()
    }
}

impl From<CommitError> for AppError {
    fn from(e: CommitError) -> Self {
        service::Error::from(e).into()
    }
}

impl From<search::SearchError> for AppError {
    fn from(e: search::SearchError) -> Self {
        service::Error::from(e).into()
    }
}

impl From<JsonRejection> for AppError {
    fn from(rejection: JsonRejection) -> Self {
        match rejection {
            JsonRejection::JsonDataError(e) => {
                AppError::invalid("invalid_body", format!("invalid request body: {}", e.body_text()))
            }
            JsonRejection::JsonSyntaxError(_) => {
                AppError::bad_request("malformed_json", "the request body is not valid JSON")
            }
            JsonRejection::MissingJsonContentType(_) => AppError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "unsupported_media_type",
                "send the body as JSON with the header content-type: application/json",
            ),
            JsonRejection::BytesRejection(e) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => {
                AppError::new(StatusCode::PAYLOAD_TOO_LARGE, "body_too_large", "the request body is too large")
            }
            JsonRejection::BytesRejection(e) if crate::edge::is_body_too_slow(&e) => {
                AppError::new(StatusCode::REQUEST_TIMEOUT, "request_timeout", "the request body arrived too slowly")
            }
            other => AppError::bad_request("bad_request", other.body_text()),
        }
    }
}

impl From<QueryRejection> for AppError {
    fn from(rejection: QueryRejection) -> Self {
        AppError::bad_request("invalid_query", format!("invalid query string: {}", rejection.body_text()))
    }
}

/// `Query` whose rejection answers in our error shape.
#[derive(Debug, Clone, Copy, Default, axum::extract::FromRequestParts)]
#[from_request(via(axum::extract::Query), rejection(AppError))]
pub struct ApiQuery<T>(pub T);

/// `Json` whose rejection answers in our error shape.
#[derive(Debug, Clone, Copy, Default, axum::extract::FromRequest)]
#[from_request(via(axum::Json), rejection(AppError))]
pub struct ApiJson<T>(pub T);

impl<T: Serialize> IntoResponse for ApiJson<T> {
    fn into_response(self) -> Response {
        Json(self.0).into_response()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use domain::user::UserError;

    #[test]
    fn domain_error_kinds_map_to_statuses_with_their_codes() {
        let cases = [
            (UserError::NotFound, StatusCode::NOT_FOUND, "user_not_found"),
            (UserError::AlreadySignedUp, StatusCode::CONFLICT, "already_signed_up"),
            (UserError::InvalidFlagValue, StatusCode::UNPROCESSABLE_ENTITY, "invalid_flag_value"),
        ];
        for (error, status, code) in cases {
            let mapped = AppError::from(CommandError::Domain(error));
            assert_eq!((mapped.status, mapped.code.as_str()), (status, code));
        }
    }

    #[test]
    fn losing_every_retry_of_a_write_race_answers_409() {
        let mapped = AppError::from(CommandError::<UserError>::Conflict);
        assert_eq!(mapped.status, StatusCode::CONFLICT);
    }

    #[test]
    fn internal_failures_say_nothing_internal() {
        let mapped = AppError::from(CommandError::<UserError>::Store(commands::StoreError::other(
            "relation events does not exist",
        )));
        assert_eq!(mapped.status, StatusCode::INTERNAL_SERVER_ERROR);
        assert!(!mapped.message.contains("relation"));
    }
}
