//! AskNeedl sessions as their owner reads them (listed, one with its turns), renaming one, and
//! feedback on an answer. Another user's session or message is simply not found.

use commands::args;
use domain::ask::{AskCommand, AskError, AskScope, Feedback};
use domain::DomainError;
use serde::Serialize;
use serde_json::{json, Value};

use crate::context::Context;
use crate::error::{Error, Kind, Result};
use crate::viewer::Viewer;

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SessionSummary {
    pub id: String,
    pub session_id: String,
    pub title: String,
    /// The scope of the latest question: `{type, ...}`.
    #[cfg_attr(feature = "openapi", schema(value_type = Object))]
    pub scope: Value,
    pub pro: bool,
    pub web_search: bool,
    pub message_count: i64,
    pub created_at: String,
    pub updated_at: String,
}

#[derive(sqlx::FromRow)]
struct SessionRow {
    session_id: String,
    title: String,
    scope: String,
    pro: bool,
    web_search: bool,
    message_count: i64,
    created_at: String,
    updated_at: String,
}

impl From<SessionRow> for SessionSummary {
    fn from(row: SessionRow) -> Self {
        SessionSummary {
            id: row.session_id.clone(),
            session_id: row.session_id,
            title: row.title,
            scope: serde_json::from_str(&row.scope).unwrap_or(Value::Null),
            pro: row.pro,
            web_search: row.web_search,
            message_count: row.message_count,
            created_at: row.created_at,
            updated_at: row.updated_at,
        }
    }
}

/// The user's (`$1`) sessions with their question counts.
const SESSIONS: &str = "SELECT s.session_id, s.title, s.scope, s.pro, s.web_search, s.created_at, s.updated_at, \
     (SELECT COUNT(*) FROM ask_messages_view m WHERE m.session_id = s.session_id) AS message_count \
     FROM ask_sessions_view s WHERE s.user_id = $1";

pub fn session_not_found() -> Error {
    Error::new(Kind::NotFound, "session_not_found", "session not found")
}

/// Whether the user has the session in the read model.
pub async fn owns_session(ctx: &Context, user_id: &str, session_id: &str) -> Result<bool> {
    #[derive(sqlx::FromRow)]
    struct Row {
        #[allow(dead_code)]
        session_id: String,
    }
    let row: Option<Row> = ctx
        .db
        .fetch_optional(
            "SELECT session_id FROM ask_sessions_view WHERE session_id = $1 AND user_id = $2",
            args![session_id, user_id],
        )
        .await?;
    Ok(row.is_some())
}

async fn own_session(ctx: &Context, user_id: &str, session_id: &str) -> Result<SessionSummary> {
    let row: Option<SessionRow> =
        ctx.db.fetch_optional(&format!("{SESSIONS} AND s.session_id = $2"), args![user_id, session_id]).await?;
    row.map(SessionSummary::from).ok_or_else(session_not_found)
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SessionList {
    /// The most recently updated first.
    pub sessions: Vec<SessionSummary>,
}

/// Most sessions a list answers.
const SESSION_PAGE: i64 = 200;

/// Escapes `%`, `_` and `\` for a LIKE pattern with `ESCAPE '\'`.
fn like_pattern(text: &str) -> String {
    let mut out = String::from("%");
    for c in text.to_lowercase().chars() {
        if matches!(c, '%' | '_' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('%');
    out
}

/// The user's sessions, the most recently updated first; `q` keeps those whose title or one of
/// whose questions contains it (any case).
pub async fn list_sessions(ctx: &Context, user_id: &str, q: Option<&str>) -> Result<SessionList> {
    let q = q.map(str::trim).unwrap_or_default();
    let rows: Vec<SessionRow> = ctx
        .db
        .fetch_all(
            &format!(
                "{SESSIONS} AND ($2 = '' OR LOWER(s.title) LIKE $3 ESCAPE '\\' OR EXISTS \
                 (SELECT 1 FROM ask_messages_view m WHERE m.session_id = s.session_id \
                 AND LOWER(m.prompt) LIKE $3 ESCAPE '\\')) \
                 ORDER BY s.updated_at DESC, s.position DESC LIMIT {SESSION_PAGE}"
            ),
            args![user_id, q, like_pattern(q)],
        )
        .await?;
    Ok(SessionList { sessions: rows.into_iter().map(SessionSummary::from).collect() })
}

/// One turn of a session.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AskMessage {
    pub message_id: String,
    pub prompt: String,
    #[cfg_attr(feature = "openapi", schema(value_type = Object))]
    pub scope: Value,
    pub pro: bool,
    pub web_search: bool,
    pub search_mode: bool,
    /// RUNNING, COMPLETED, STOPPED or FAILED.
    pub status: String,
    /// The DONE data, once COMPLETED.
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Object>))]
    pub answer: Option<Value>,
    /// Why the turn FAILED.
    pub error_code: Option<String>,
    /// CORRECT or INCORRECT.
    pub feedback: Option<String>,
    pub feedback_text: Option<String>,
    pub asked_at: String,
    pub ended_at: Option<String>,
}

#[derive(sqlx::FromRow)]
struct MessageRow {
    message_id: String,
    prompt: String,
    scope: String,
    pro: bool,
    web_search: bool,
    search_mode: bool,
    status: String,
    answer: Option<String>,
    error_code: Option<String>,
    feedback: Option<String>,
    feedback_text: Option<String>,
    asked_at: String,
    ended_at: Option<String>,
}

impl From<MessageRow> for AskMessage {
    fn from(row: MessageRow) -> Self {
        AskMessage {
            message_id: row.message_id,
            prompt: row.prompt,
            scope: serde_json::from_str(&row.scope).unwrap_or(Value::Null),
            pro: row.pro,
            web_search: row.web_search,
            search_mode: row.search_mode,
            status: row.status,
            answer: row.answer.and_then(|a| serde_json::from_str(&a).ok()),
            error_code: row.error_code,
            feedback: row.feedback,
            feedback_text: row.feedback_text,
            asked_at: row.asked_at,
            ended_at: row.ended_at,
        }
    }
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SessionDetail {
    #[serde(flatten)]
    pub session: SessionSummary,
    /// Oldest first.
    pub messages: Vec<AskMessage>,
    /// The session as the web app keeps it (the spec's saved state), built from the record:
    /// currentFeedOrDocumentId, searchWithin, metadata, settings.pro and the user and bot
    /// messages.
    #[cfg_attr(feature = "openapi", schema(value_type = Object))]
    pub state: Value,
}

/// One of the user's sessions with its questions and answers.
pub async fn session_detail(ctx: &Context, user_id: &str, session_id: &str) -> Result<SessionDetail> {
    let session = own_session(ctx, user_id, session_id).await?;
    let rows: Vec<MessageRow> = ctx
        .db
        .fetch_all(
            "SELECT message_id, prompt, scope, pro, web_search, search_mode, status, answer, error_code, feedback, \
             feedback_text, asked_at, ended_at FROM ask_messages_view WHERE session_id = $1 AND user_id = $2 \
             ORDER BY position",
            args![session_id, user_id],
        )
        .await?;
    let messages: Vec<AskMessage> = rows.into_iter().map(AskMessage::from).collect();
    let saved = saved_state(&session, &messages);
    Ok(SessionDetail { session, messages, state: saved })
}

/// The spec's saved session state, from the record.
fn saved_state(session: &SessionSummary, messages: &[AskMessage]) -> Value {
    let scope: AskScope = serde_json::from_value(session.scope.clone()).unwrap_or(AskScope::Home);
    let (board_id, channel_id, document_id) = match &scope {
        AskScope::Feed { board_id } => (Some(board_id.clone()), None, None),
        AskScope::Channel { channel_id } => (None, Some(channel_id.clone()), None),
        AskScope::Documents { document_ids } => (None, None, document_ids.first().cloned()),
        _ => (None, None, None),
    };
    let chat: Vec<Value> = messages
        .iter()
        .flat_map(|m| {
            let bot_id = format!("{}-bot", m.message_id);
            [
                json!({"type": "user", "id": m.message_id, "botMessageId": bot_id, "prompt": m.prompt}),
                json!({
                    "type": "bot",
                    "id": bot_id,
                    "prompt": m.prompt,
                    "data": m.answer,
                    "generatingStopped": m.status == "STOPPED",
                    "error": m.status == "FAILED",
                }),
            ]
        })
        .collect();
    json!({
        "currentFeedOrDocumentId": scope.id(),
        "searchWithin": scope.kind(),
        "messages": chat,
        "attachments": [],
        "attachmentsFeedId": match &scope { AskScope::Attachments { feed_id } => json!(feed_id), _ => Value::Null },
        "metadata": {"type": scope.kind(), "board_id": board_id, "channel_id": channel_id, "document_id": document_id},
        "settings": {"pro": session.pro},
    })
}

/// Renames one of the viewer's sessions when a title is given, and answers the session.
pub async fn rename_session(
    ctx: &Context,
    viewer: &Viewer,
    session_id: &str,
    title: Option<String>,
) -> Result<SessionDetail> {
    if let Some(title) = title {
        let command = AskCommand::Rename { user_id: viewer.user_id.clone(), title };
        ctx.command(&ctx.bus.ask_sessions, session_id, command, &viewer.metadata()).await?;
    }
    session_detail(ctx, &viewer.user_id, session_id).await
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = AnswerFeedbackResult))]
pub struct FeedbackResult {
    pub message_id: String,
    pub feedback: String,
    /// The spec's toast.
    pub message: String,
}

/// Records the viewer's `feedback` (CORRECT or INCORRECT, any case) on an answer of theirs, with
/// an optional comment.
pub async fn give_feedback(
    ctx: &Context,
    viewer: &Viewer,
    feedback: &str,
    message_id: String,
    text: Option<String>,
) -> Result<FeedbackResult> {
    let feedback = match feedback.trim().to_ascii_uppercase().as_str() {
        "CORRECT" => Feedback::Correct,
        "INCORRECT" => Feedback::Incorrect,
        _ => return Err(Error::invalid("unknown_feedback", "feedback is CORRECT or INCORRECT")),
    };
    #[derive(sqlx::FromRow)]
    struct Row {
        session_id: String,
    }
    let row: Option<Row> = ctx
        .db
        .fetch_optional(
            "SELECT session_id FROM ask_messages_view WHERE message_id = $1 AND user_id = $2",
            args![message_id.as_str(), viewer.user_id.as_str()],
        )
        .await?;
    let row = row.ok_or_else(|| Error::new(Kind::NotFound, AskError::MessageNotFound.code(), "message not found"))?;
    let command =
        AskCommand::GiveFeedback { user_id: viewer.user_id.clone(), message_id: message_id.clone(), feedback, text };
    ctx.command(&ctx.bus.ask_sessions, &row.session_id, command, &viewer.metadata()).await?;
    Ok(FeedbackResult {
        message_id,
        feedback: feedback.as_str().to_string(),
        message: "Thanks for your feedback!".into(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn like_patterns_match_literally() {
        assert_eq!(like_pattern("50%_a\\B"), "%50\\%\\_a\\\\b%");
    }

    fn message(id: &str, status: &str, answer: Option<Value>) -> AskMessage {
        AskMessage {
            message_id: id.into(),
            prompt: format!("question {id}"),
            scope: Value::Null,
            pro: false,
            web_search: false,
            search_mode: false,
            status: status.into(),
            answer,
            error_code: None,
            feedback: None,
            feedback_text: None,
            asked_at: "2026-01-01T00:00:00Z".into(),
            ended_at: None,
        }
    }

    #[test]
    fn the_saved_state_pairs_each_question_with_its_answer_and_names_the_scope() {
        let session = SessionSummary {
            id: "s1".into(),
            session_id: "s1".into(),
            title: "Steel".into(),
            scope: serde_json::to_value(AskScope::Feed { board_id: "rss_1".into() }).unwrap(),
            pro: true,
            web_search: false,
            message_count: 2,
            created_at: "2026-01-01T00:00:00Z".into(),
            updated_at: "2026-01-01T00:00:00Z".into(),
        };
        let messages =
            [message("m1", "COMPLETED", Some(json!({"answer_type": "GENERATED"}))), message("m2", "STOPPED", None)];
        let state = saved_state(&session, &messages);
        assert_eq!(state["currentFeedOrDocumentId"], "rss_1");
        assert_eq!(state["searchWithin"], "feed");
        assert_eq!(state["metadata"]["board_id"], "rss_1");
        assert_eq!(state["settings"]["pro"], true);
        let chat = state["messages"].as_array().unwrap();
        assert_eq!(chat.len(), 4);
        assert_eq!((chat[0]["type"].as_str(), chat[0]["botMessageId"].as_str()), (Some("user"), Some("m1-bot")));
        assert_eq!(chat[1]["data"]["answer_type"], "GENERATED");
        assert_eq!((chat[3]["generatingStopped"].as_bool(), chat[3]["error"].as_bool()), (Some(true), Some(false)));
    }
}
