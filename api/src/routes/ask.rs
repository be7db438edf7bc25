//! AskNeedl over HTTP: questions answered as server-sent events (or, without streaming, one JSON
//! answer), the sessions they make (list, read, rename), feedback on answers and suggested
//! questions. The rules and the workflow are in [`service::ask`]: this file frames a turn's
//! [`Frame`]s as `{status, data}` events (INTERMEDIATE_STEP, GENERATED_ANSWER, DONE, or ERROR
//! whose data starts with [`ERROR_MARKER`]).

use std::time::Duration;

use axum::extract::{Path, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use tokio::sync::mpsc;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::app::AppState;
use crate::auth::AuthUser;
use crate::error::{ApiJson, ApiQuery, ApiResult, AppError, ErrorBody};
use service::ask::{AskBody, FeedbackResult, Frame, MessagingResult, SessionDetail, SessionList};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(ask))
        .routes(routes!(list_sessions))
        .routes(routes!(get_session, save_session))
        .routes(routes!(give_feedback))
        .routes(routes!(messaging))
}

/// What the data of an ERROR event starts with: the spec's error marker.
pub const ERROR_MARKER: &str = "[ERROR]";
/// How often an idle stream sends a comment, so a client that went away is noticed.
const KEEP_ALIVE: Duration = Duration::from_secs(3);

/// An event of the answer stream, as JSON in each server-sent event's data.
#[derive(Debug, Serialize, ToSchema)]
pub struct StreamEvent {
    /// INTERMEDIATE_STEP (data: the step's text), GENERATED_ANSWER (data:
    /// `{generated_answer: {answer_chunk}}`), DONE (data: the answer data) or ERROR (data: text
    /// starting with `[ERROR]`).
    pub status: String,
    #[schema(value_type = Object)]
    pub data: Value,
    /// With ERROR: the error's stable code.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
}

impl From<Frame> for StreamEvent {
    fn from(frame: Frame) -> Self {
        let (status, data, code) = match frame {
            Frame::Step(text) => ("INTERMEDIATE_STEP", Value::String(text), None),
            Frame::Chunk(text) => ("GENERATED_ANSWER", json!({"generated_answer": {"answer_chunk": text}}), None),
            Frame::Done(data) => ("DONE", data, None),
            Frame::Error { code, message } => ("ERROR", Value::String(format!("{ERROR_MARKER} {message}")), Some(code)),
        };
        StreamEvent { status: status.into(), data, code }
    }
}

/// Asks AskNeedl a question over a scope. Answers server-sent events `{status, data}`:
/// INTERMEDIATE_STEP, GENERATED_ANSWER, then DONE with the answer data (answer_type,
/// generated_answer, retrieved_results, followup_questions, message_id, session_id,
/// answer_quality, pro), or ERROR whose data starts with `[ERROR]`. With `stream: false`, the
/// DONE data as JSON. The stream's headers `x-session-id` and `x-message-id` name the turn before
/// DONE does. Nothing is recorded when the request is refused. With `report_id` (report chat):
/// answered over that report's files only, DONE data `report_chat: true` and no session (none
/// is saved; `session_id` null); another user's report is 404 `report_not_found`.
#[utoipa::path(post, path = "/ml/ask-needl", tag = "ask", security(("token" = [])), request_body = AskBody,
    responses((status = 200, content_type = "text/event-stream", body = StreamEvent),
        (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 422, body = ErrorBody)))]
async fn ask(State(state): State<AppState>, user: AuthUser, ApiJson(body): ApiJson<AskBody>) -> ApiResult<Response> {
    let started = service::ask::ask(&state, &user, &body, state.shutdown.clone()).await?;
    if !body.stream.unwrap_or(true) {
        return collect(started.frames).await;
    }
    let events = futures::stream::unfold(started.frames, |mut frames| async move {
        let frame = frames.recv().await?;
        let event = SseEvent::default().data(serde_json::to_string(&StreamEvent::from(frame)).unwrap_or_default());
        Some((Ok::<_, std::convert::Infallible>(event), frames))
    });
    let mut response = Sse::new(events).keep_alive(KeepAlive::new().interval(KEEP_ALIVE)).into_response();
    // The ids before DONE, so a client can continue or find the session while it streams.
    // A report chat has no session: its header is left out.
    for (name, value) in [("x-session-id", started.session_id), ("x-message-id", started.message_id)] {
        if value.is_empty() {
            continue;
        }
        if let Ok(value) = HeaderValue::from_str(&value) {
            response.headers_mut().insert(name, value);
        }
    }
    Ok(response)
}

/// The answer of a turn asked without streaming: the DONE data, or the error (502: the answer
/// could not be written).
async fn collect(mut frames: mpsc::Receiver<Frame>) -> ApiResult<Response> {
    while let Some(frame) = frames.recv().await {
        match frame {
            Frame::Done(data) => return Ok(ApiJson(data).into_response()),
            Frame::Error { code, message } => return Err(AppError::new(StatusCode::BAD_GATEWAY, &code, message)),
            Frame::Step(_) | Frame::Chunk(_) => {}
        }
    }
    Err(AppError::new(StatusCode::CONFLICT, "answer_stopped", "the answer was stopped"))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SessionsQuery {
    /// Only sessions whose title or one of whose questions contains this text (any case).
    pub q: Option<String>,
}

/// The user's AskNeedl sessions, the most recently updated first; `q` filters by title and
/// questions.
#[utoipa::path(get, path = "/ml/ask-needl/sessions", tag = "ask", security(("token" = [])),
    params(SessionsQuery), responses((status = 200, body = SessionList)))]
async fn list_sessions(
    State(state): State<AppState>,
    user: AuthUser,
    ApiQuery(query): ApiQuery<SessionsQuery>,
) -> ApiResult<ApiJson<SessionList>> {
    Ok(ApiJson(service::ask::list_sessions(&state, &user.user_id, query.q.as_deref()).await?))
}

/// One of the user's sessions with its questions and answers.
#[utoipa::path(get, path = "/ml/ask-needl/sessions/{id}", tag = "ask", security(("token" = [])),
    params(("id" = String, Path, description = "the session's id")),
    responses((status = 200, body = SessionDetail), (status = 404, body = ErrorBody)))]
async fn get_session(
    State(state): State<AppState>,
    user: AuthUser,
    Path(session_id): Path<String>,
) -> ApiResult<ApiJson<SessionDetail>> {
    Ok(ApiJson(service::ask::session_detail(&state, &user.user_id, &session_id).await?))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct SaveSessionBody {
    /// The new title: trimmed, 1 to 200 characters.
    pub title: Option<String>,
    /// The web app's copy of the session. Accepted and not kept: the server records every turn
    /// itself, and `GET` answers the state built from that record.
    #[schema(value_type = Option<Object>)]
    pub state: Option<Value>,
}

/// Saves one of the user's sessions: renames it when a title is sent.
#[utoipa::path(put, path = "/ml/ask-needl/sessions/{id}", tag = "ask", security(("token" = [])),
    params(("id" = String, Path, description = "the session's id")), request_body = SaveSessionBody,
    responses((status = 200, body = SessionDetail), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn save_session(
    State(state): State<AppState>,
    user: AuthUser,
    Path(session_id): Path<String>,
    ApiJson(body): ApiJson<SaveSessionBody>,
) -> ApiResult<ApiJson<SessionDetail>> {
    Ok(ApiJson(service::ask::rename_session(&state, &user, &session_id, body.title).await?))
}

#[derive(Debug, Deserialize, ToSchema)]
#[schema(as = AnswerFeedbackBody)]
pub struct FeedbackBody {
    /// CORRECT or INCORRECT.
    pub feedback: String,
    #[serde(alias = "messageId")]
    pub message_id: String,
    /// An optional comment, at most 2000 characters.
    #[serde(alias = "comment")]
    pub text: Option<String>,
}

/// Records the user's feedback on an answer of theirs.
#[utoipa::path(post, path = "/ml/ask-needl/feedback", tag = "ask", security(("token" = [])), request_body = FeedbackBody,
    responses((status = 200, body = FeedbackResult), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn give_feedback(
    State(state): State<AppState>,
    user: AuthUser,
    ApiJson(body): ApiJson<FeedbackBody>,
) -> ApiResult<ApiJson<FeedbackResult>> {
    let FeedbackBody { feedback, message_id, text } = body;
    Ok(ApiJson(service::ask::give_feedback(&state, &user, &feedback, message_id, text).await?))
}

/// Suggested questions, keyed as the spec shows them: `all` (4: about the user's most recent
/// documents, by title, then from a fixed helpful set), `feed` (2, fixed) and `document` (none).
#[utoipa::path(get, path = "/ml/ask-needl/messaging", tag = "ask", security(("token" = [])),
    responses((status = 200, body = MessagingResult)))]
async fn messaging(State(state): State<AppState>, user: AuthUser) -> ApiResult<Response> {
    let mut response = ApiJson(service::ask::suggestions(&state, &user.user_id).await?).into_response();
    // The spec: never cached.
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(response)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_become_the_specs_events() {
        let step = serde_json::to_value(StreamEvent::from(Frame::Step("Searching".into()))).unwrap();
        assert_eq!(step, json!({"status": "INTERMEDIATE_STEP", "data": "Searching"}));
        let chunk = serde_json::to_value(StreamEvent::from(Frame::Chunk("Steel".into()))).unwrap();
        assert_eq!(
            chunk,
            json!({"status": "GENERATED_ANSWER", "data": {"generated_answer": {"answer_chunk": "Steel"}}})
        );
        let error = StreamEvent::from(Frame::Error { code: "engine_stalled".into(), message: "Uh-oh".into() });
        assert_eq!(
            serde_json::to_value(error).unwrap(),
            json!({"status": "ERROR", "data": "[ERROR] Uh-oh", "code": "engine_stalled"})
        );
    }
}
