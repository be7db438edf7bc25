//! `ask_sessions_view` and `ask_messages_view`: each user's AskNeedl sessions, and their turns
//! with the question, how it ended, the answer and the feedback.

use async_trait::async_trait;
use commands::args;
use commands::feed::StoredEvent;
use commands::store::Tx;
use cqrs_es::Aggregate;
use domain::ask::{AskEvent, AskSession};

use crate::runner::Projection;

pub struct AskSessions;

/// Moves a session's `updated_at`, for any change to it or its turns.
async fn touch(tx: &mut Tx, session_id: &str, time: &str) -> anyhow::Result<()> {
    tx.write("UPDATE ask_sessions_view SET updated_at = $2 WHERE session_id = $1", args![session_id, time]).await?;
    Ok(())
}

/// Ends a running turn with `status` (a turn ends once).
async fn end(tx: &mut Tx, message_id: &str, status: &str, time: &str) -> anyhow::Result<()> {
    tx.write(
        "UPDATE ask_messages_view SET status = $2, ended_at = $3 WHERE message_id = $1 AND status = 'RUNNING'",
        args![message_id, status, time],
    )
    .await?;
    Ok(())
}

#[async_trait]
impl Projection for AskSessions {
    fn name(&self) -> &'static str {
        "ask_sessions"
    }

    fn tables(&self) -> &'static [&'static str] {
        &["ask_sessions_view", "ask_messages_view"]
    }

    fn reads(&self) -> &'static [&'static str] {
        &[AskSession::TYPE]
    }

    async fn apply(&self, tx: &mut Tx, event: &StoredEvent) -> anyhow::Result<()> {
        let time = event.time().to_string();
        match event.decode::<AskEvent>()? {
            AskEvent::SessionTitled { user_id, session_id, title } => {
                // The first title creates the row; the scope and flags follow with the question.
                tx.write(
                    "INSERT INTO ask_sessions_view (session_id, user_id, title, scope, pro, web_search, created_at, \
                     updated_at, position) VALUES ($1, $2, $3, '{\"type\":\"home\"}', $4, $4, $5, $5, $6) \
                     ON CONFLICT (session_id) DO UPDATE SET title = excluded.title, updated_at = excluded.updated_at",
                    args![session_id, user_id, title, false, time, event.cursor.pos],
                )
                .await?;
            }
            AskEvent::QuestionAsked {
                user_id,
                session_id,
                message_id,
                prompt,
                scope,
                pro,
                web_search,
                search_mode,
                at,
            } => {
                let scope = serde_json::to_string(&scope)?;
                let asked_at = at.to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
                tx.write(
                    "INSERT INTO ask_messages_view (message_id, session_id, user_id, prompt, scope, pro, web_search, \
                     search_mode, status, asked_at, position) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'RUNNING', $9, $10) ON CONFLICT (message_id) DO NOTHING",
                    args![
                        message_id,
                        session_id.as_str(),
                        user_id,
                        prompt,
                        scope.as_str(),
                        pro,
                        web_search,
                        search_mode,
                        asked_at,
                        event.cursor.pos
                    ],
                )
                .await?;
                tx.write(
                    "UPDATE ask_sessions_view SET scope = $2, pro = $3, web_search = $4, updated_at = $5 \
                     WHERE session_id = $1",
                    args![session_id, scope, pro, web_search, time],
                )
                .await?;
            }
            AskEvent::AnswerCompleted { session_id, message_id, answer, .. } => {
                tx.write(
                    "UPDATE ask_messages_view SET status = 'COMPLETED', answer = $2, ended_at = $3 \
                     WHERE message_id = $1 AND status = 'RUNNING'",
                    args![message_id, answer.to_string(), time.as_str()],
                )
                .await?;
                touch(tx, &session_id, &time).await?;
            }
            AskEvent::AnswerStopped { session_id, message_id, .. } => {
                end(tx, &message_id, "STOPPED", &time).await?;
                touch(tx, &session_id, &time).await?;
            }
            AskEvent::AnswerFailed { session_id, message_id, code, .. } => {
                end(tx, &message_id, "FAILED", &time).await?;
                tx.write("UPDATE ask_messages_view SET error_code = $2 WHERE message_id = $1", args![message_id, code])
                    .await?;
                touch(tx, &session_id, &time).await?;
            }
            AskEvent::FeedbackGiven { session_id, message_id, feedback, text, .. } => {
                tx.write(
                    "UPDATE ask_messages_view SET feedback = $2, feedback_text = $3 WHERE message_id = $1",
                    args![message_id, feedback.as_str(), text],
                )
                .await?;
                touch(tx, &session_id, &time).await?;
            }
        }
        Ok(())
    }
}
