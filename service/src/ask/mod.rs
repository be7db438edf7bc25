//! AskNeedl below HTTP: the answer engine the operator chose, the answers being written in this
//! process, the sessions questions make (list, read, rename), feedback on answers and suggested
//! questions.
//!
//! Sessions are their owner's alone: another user's session id is simply not found.
//!
//! - [`sessions`]: sessions listed, read and renamed; feedback on an answer.
//! - [`suggestions`]: questions suggested to the user.

pub mod sessions;
pub mod suggestions;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use assistant::{AnswerEngine, Assistant};
use tokio::sync::oneshot;

pub use sessions::{
    give_feedback, list_sessions, rename_session, session_detail, AskMessage, FeedbackResult, SessionDetail,
    SessionList, SessionSummary,
};
pub use suggestions::{suggestions, MessagingResult, Suggestion, Suggestions};

/// Where answers are written: a chat-completions server, or (no URL) the offline extractive
/// engine.
#[derive(Debug, Clone, Default)]
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
