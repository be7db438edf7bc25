//! AskNeedl below HTTP: questions over a scope, the turns that answer them, the sessions they make
//! (list, read, rename), feedback on answers and suggested questions.
//!
//! A question's scope comes from the request (home, a feed, a source, a notebook, a channel,
//! documents, the attachments feed, or the public corpus) and is checked before anything is
//! recorded ([`scope`]): a channel the user does not see, a document they may not read or another
//! user's notebook is not found, and nothing is written. Then the turn is recorded
//! (`QuestionAsked`) and answered in its own task ([`turn`]), which sends [`Frame`]s (steps,
//! answer chunks, then the answer data or an error) and ends the turn recorded as completed,
//! failed or stopped. A listener that goes away (a stop, a closed tab) still ends its turn as
//! stopped; a new question in the same session stops the one running there ([`RunningAsks`]).
//!
//! Sessions are their owner's alone: another user's session id is simply not found.
//!
//! - [`question`]: the request, its checks, and starting the turn.
//! - [`scope`]: what a question is asked over, and whether the user may ask there.
//! - [`turn`]: answering (generated or search mode) and recording how the turn ended.
//! - [`citations`]: what citations need of their documents and notes, and the links that open
//!   them.
//! - [`sessions`]: sessions listed, read and renamed; feedback on an answer.
//! - [`suggestions`]: questions suggested to the user.

pub mod citations;
pub mod question;
pub mod scope;
pub mod sessions;
pub mod suggestions;
pub mod turn;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use assistant::{AnswerEngine, Assistant};
use tokio::sync::oneshot;

pub use question::{ask, AskBody, Started};
pub use sessions::{
    give_feedback, list_sessions, rename_session, session_detail, AskMessage, FeedbackResult, SessionDetail,
    SessionList, SessionSummary,
};
pub use suggestions::{suggestions, MessagingResult, Suggestion, Suggestions};
pub use turn::{Frame, FAILED_ANSWER};

/// Where answers are written: a chat-completions server, or (no URL) the offline extractive
/// engine.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EngineConfig {
    pub url: Option<String>,
    pub model: String,
    pub key: Option<String>,
}

/// The assistant over `index` with the engine `config` names.
pub fn assistant(config: &EngineConfig, index: Arc<search::SearchIndex>) -> anyhow::Result<Assistant> {
    let engine: Arc<dyn AnswerEngine> = match config.url.as_deref().map(str::trim).filter(|u| !u.is_empty()) {
        Some(url) => {
            let mut openai = assistant::OpenAiConfig::new(url, config.model.clone());
            openai.api_key = config.key.clone().filter(|k| !k.is_empty());
            tracing::info!(url, model = %config.model, "AskNeedl answers through a chat-completions server");
            Arc::new(assistant::OpenAiCompatibleEngine::new(openai)?)
        }
        None => Arc::new(assistant::ExtractiveEngine),
    };
    Ok(Assistant::new(index, engine))
}

/// The answers being written in this process, by session: the running message and the switch
/// that stops it.
#[derive(Default)]
pub struct RunningAsks {
    running: Mutex<HashMap<String, (String, oneshot::Sender<()>)>>,
}

impl RunningAsks {
    /// Registers `message_id` as the session's running answer; the one it replaces is stopped.
    pub fn start(&self, session_id: &str, message_id: &str) -> oneshot::Receiver<()> {
        let (tx, rx) = oneshot::channel();
        let previous =
            self.running.lock().expect("running asks").insert(session_id.to_string(), (message_id.to_string(), tx));
        if let Some((_, stop)) = previous {
            let _ = stop.send(());
        }
        rx
    }

    /// Forgets the session's running answer if it is still `message_id`.
    pub fn finish(&self, session_id: &str, message_id: &str) {
        let mut running = self.running.lock().expect("running asks");
        if running.get(session_id).is_some_and(|(m, _)| m == message_id) {
            running.remove(session_id);
        }
    }
}

/// `value` without surrounding spaces; `None` when empty.
fn nonempty(value: Option<&str>) -> Option<&str> {
    value.map(str::trim).filter(|v| !v.is_empty())
}
