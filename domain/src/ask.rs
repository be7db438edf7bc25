//! AskNeedl sessions: one user's conversation with the assistant, turn by turn.
//!
//! An [`AskSession`] (the aggregate id is the session id) guards its owner, its title and its
//! turns. A turn starts with [`AskEvent::QuestionAsked`] and ends exactly once: completed with the
//! answer, stopped (the user stopped it, asked anew, or went away) or failed with an error code.
//! Only one turn runs at a time: asking while a turn runs stops that turn first, so a late answer
//! of the stopped turn is refused rather than recorded over it. Feedback goes to answered turns
//! only.
//!
//! The answer is kept as the JSON object the assistant produced (the spec's answer data without
//! `message_id` and `session_id`): the domain checks its shape, not its content, which is the
//! assistant's business.
//!
//! Everything is the owner's alone: another user's command on the session is not found.

use chrono::{DateTime, Utc};
use cqrs_es::Aggregate;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::{DomainError, ErrorKind};

/// The longest question, in characters.
pub const MAX_PROMPT_CHARS: usize = 4000;
/// The longest session title, in characters; a title made from a question is cut to it.
pub const MAX_TITLE_CHARS: usize = 200;
/// The longest feedback comment, in characters.
pub const MAX_FEEDBACK_CHARS: usize = 2000;
/// The longest error code a failed turn records.
const MAX_CODE_CHARS: usize = 100;
/// How many turns one session keeps at most.
pub const MAX_TURNS: usize = 500;

/// What a question is asked over, as the request named it. The API resolves it into what the
/// assistant searches; this is the record of what the user chose.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum AskScope {
    /// Everything the user may read (the default board `home`).
    Home,
    /// A feed (board).
    Feed { board_id: String },
    /// One source.
    Source { source: String },
    /// A channel's shared documents.
    Channel { channel_id: String },
    /// These documents.
    Documents { document_ids: Vec<String> },
    /// The user's ask attachments, or one attachments feed's.
    Attachments { feed_id: Option<String> },
    /// The public corpus (the web-search toggle).
    NeedlUniverse,
}

impl AskScope {
    /// The spec's scope id: `home`, a feed id, a document id, or `needl_universe`.
    pub fn id(&self) -> String {
        match self {
            AskScope::Home => "home".into(),
            AskScope::Feed { board_id } => board_id.clone(),
            AskScope::Source { source } => source.clone(),
            AskScope::Channel { channel_id } => channel_id.clone(),
            AskScope::Documents { document_ids } => document_ids.join(","),
            AskScope::Attachments { feed_id } => feed_id.clone().unwrap_or_else(|| "ask_needl".into()),
            AskScope::NeedlUniverse => "needl_universe".into(),
        }
    }

    /// The spec's scope type: `document` for documents, `feed` for everything else.
    pub fn kind(&self) -> &'static str {
        match self {
            AskScope::Documents { .. } => "document",
            _ => "feed",
        }
    }
}

/// The spec's two feedback values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum Feedback {
    Correct,
    Incorrect,
}

impl Feedback {
    pub fn as_str(self) -> &'static str {
        match self {
            Feedback::Correct => "CORRECT",
            Feedback::Incorrect => "INCORRECT",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum AskCommand {
    /// Starts a turn; `message_id` is chosen by the caller (a fresh UUID). The first question of a
    /// session names it too. `search_mode` asks for matching documents rather than an answer.
    Ask {
        user_id: String,
        session_id: String,
        message_id: String,
        prompt: String,
        scope: AskScope,
        pro: bool,
        web_search: bool,
        search_mode: bool,
        at: DateTime<Utc>,
    },
    /// Ends a running turn with its answer (a JSON object).
    Complete { user_id: String, message_id: String, answer: Value },
    /// Ends a running turn without an answer; a turn that already ended stays as it is.
    Stop { user_id: String, message_id: String },
    /// Ends a running turn with an error code; a turn that already ended stays as it is.
    Fail { user_id: String, message_id: String, code: String },
    /// Records what the user thought of an answer; the latest feedback counts.
    GiveFeedback { user_id: String, message_id: String, feedback: Feedback, text: Option<String> },
    /// Renames the session.
    Rename { user_id: String, title: String },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum AskEvent {
    QuestionAsked {
        user_id: String,
        session_id: String,
        message_id: String,
        prompt: String,
        scope: AskScope,
        pro: bool,
        web_search: bool,
        search_mode: bool,
        at: DateTime<Utc>,
    },
    /// The answer data: answer_type, generated_answer (answer, sentences with their citations),
    /// retrieved_results, followup_questions, answer_quality, pro.
    AnswerCompleted {
        user_id: String,
        session_id: String,
        message_id: String,
        answer: Value,
    },
    AnswerStopped {
        user_id: String,
        session_id: String,
        message_id: String,
    },
    AnswerFailed {
        user_id: String,
        session_id: String,
        message_id: String,
        code: String,
    },
    FeedbackGiven {
        user_id: String,
        session_id: String,
        message_id: String,
        feedback: Feedback,
        text: Option<String>,
    },
    SessionTitled {
        user_id: String,
        session_id: String,
        title: String,
    },
}

crate::impl_domain_event! {
    AskEvent, versions {
        QuestionAsked: "1",
        AnswerCompleted: "1",
        AnswerStopped: "1",
        AnswerFailed: "1",
        FeedbackGiven: "1",
        SessionTitled: "1",
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AskError {
    /// The spec's rule for the chat input.
    #[error("The prompt is required")]
    EmptyPrompt,
    #[error("the prompt must be at most {MAX_PROMPT_CHARS} characters")]
    PromptTooLong,
    #[error("the title cannot be empty")]
    EmptyTitle,
    #[error("the title must be at most {MAX_TITLE_CHARS} characters")]
    TitleTooLong,
    #[error("feedback must be at most {MAX_FEEDBACK_CHARS} characters")]
    FeedbackTooLong,
    #[error("a session keeps at most {MAX_TURNS} questions; start a new chat")]
    TooManyTurns,
    #[error("an answer must be a JSON object")]
    AnswerNotAnObject,
    #[error("this answer is no longer being written")]
    NotRunning,
    #[error("feedback is for answered questions")]
    NotAnswered,
    #[error("this message id is taken")]
    MessageIdTaken,
    #[error("session not found")]
    SessionNotFound,
    #[error("message not found")]
    MessageNotFound,
}

impl DomainError for AskError {
    fn kind(&self) -> ErrorKind {
        match self {
            AskError::EmptyPrompt
            | AskError::PromptTooLong
            | AskError::EmptyTitle
            | AskError::TitleTooLong
            | AskError::FeedbackTooLong
            | AskError::TooManyTurns
            | AskError::AnswerNotAnObject
            | AskError::NotAnswered => ErrorKind::Invalid,
            AskError::NotRunning | AskError::MessageIdTaken => ErrorKind::Conflict,
            AskError::SessionNotFound | AskError::MessageNotFound => ErrorKind::NotFound,
        }
    }

    fn code(&self) -> &'static str {
        match self {
            AskError::EmptyPrompt => "prompt_required",
            AskError::PromptTooLong => "prompt_too_long",
            AskError::EmptyTitle => "title_required",
            AskError::TitleTooLong => "title_too_long",
            AskError::FeedbackTooLong => "feedback_too_long",
            AskError::TooManyTurns => "too_many_turns",
            AskError::AnswerNotAnObject => "answer_not_an_object",
            AskError::NotRunning => "answer_not_running",
            AskError::NotAnswered => "message_not_answered",
            AskError::MessageIdTaken => "message_id_taken",
            AskError::SessionNotFound => "session_not_found",
            AskError::MessageNotFound => "message_not_found",
        }
    }
}

/// Where a turn is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum TurnStatus {
    Running,
    Completed,
    Stopped,
    Failed,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Turn {
    message_id: String,
    status: TurnStatus,
    feedback: Option<(Feedback, Option<String>)>,
}

/// One session and its turns, oldest first.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct AskSession {
    session_id: String,
    owner: Option<String>,
    title: String,
    turns: Vec<Turn>,
}

/// Returns the title a question gives a session: its first line, runs of white space made one
/// space, cut to [`MAX_TITLE_CHARS`] with "...".
pub fn title_of(prompt: &str) -> String {
    let line = prompt.lines().map(str::trim).find(|l| !l.is_empty()).unwrap_or_default();
    let clean = line.split_whitespace().collect::<Vec<_>>().join(" ");
    if clean.chars().count() <= MAX_TITLE_CHARS {
        return clean;
    }
    let cut: String = clean.chars().take(MAX_TITLE_CHARS - 3).collect();
    format!("{}...", cut.trim_end())
}

/// Returns the prompt as kept (trimmed), or why it is refused.
pub fn valid_prompt(prompt: &str) -> Result<String, AskError> {
    let prompt = prompt.trim();
    if prompt.is_empty() {
        return Err(AskError::EmptyPrompt);
    }
    if prompt.chars().count() > MAX_PROMPT_CHARS {
        return Err(AskError::PromptTooLong);
    }
    Ok(prompt.to_string())
}

impl AskSession {
    /// The session if `user_id` owns it; not found for anyone else, so ids reveal nothing.
    fn owned_by(&self, user_id: &str) -> Result<&AskSession, AskError> {
        match &self.owner {
            Some(owner) if owner == user_id => Ok(self),
            _ => Err(AskError::SessionNotFound),
        }
    }

    fn turn(&self, message_id: &str) -> Result<&Turn, AskError> {
        self.turns.iter().find(|t| t.message_id == message_id).ok_or(AskError::MessageNotFound)
    }

    fn running(&self) -> Option<&Turn> {
        self.turns.iter().find(|t| t.status == TurnStatus::Running)
    }

    pub fn decide(&self, command: AskCommand) -> Result<Vec<AskEvent>, AskError> {
        let session_id = self.session_id.clone();
        match command {
            AskCommand::Ask { user_id, session_id, message_id, prompt, scope, pro, web_search, search_mode, at } => {
                if self.owner.is_some() {
                    self.owned_by(&user_id)?;
                }
                let prompt = valid_prompt(&prompt)?;
                if self.turns.iter().any(|t| t.message_id == message_id) {
                    return Err(AskError::MessageIdTaken);
                }
                if self.turns.len() >= MAX_TURNS {
                    return Err(AskError::TooManyTurns);
                }
                let mut events = Vec::new();
                if let Some(running) = self.running() {
                    events.push(AskEvent::AnswerStopped {
                        user_id: user_id.clone(),
                        session_id: session_id.clone(),
                        message_id: running.message_id.clone(),
                    });
                }
                if self.owner.is_none() {
                    events.push(AskEvent::SessionTitled {
                        user_id: user_id.clone(),
                        session_id: session_id.clone(),
                        title: title_of(&prompt),
                    });
                }
                events.push(AskEvent::QuestionAsked {
                    user_id,
                    session_id,
                    message_id,
                    prompt,
                    scope,
                    pro,
                    web_search,
                    search_mode,
                    at,
                });
                Ok(events)
            }
            AskCommand::Complete { user_id, message_id, answer } => {
                let turn = self.owned_by(&user_id)?.turn(&message_id)?;
                if turn.status != TurnStatus::Running {
                    return Err(AskError::NotRunning);
                }
                if !answer.is_object() {
                    return Err(AskError::AnswerNotAnObject);
                }
                Ok(vec![AskEvent::AnswerCompleted { user_id, session_id, message_id, answer }])
            }
            AskCommand::Stop { user_id, message_id } => {
                let turn = self.owned_by(&user_id)?.turn(&message_id)?;
                Ok(if turn.status == TurnStatus::Running {
                    vec![AskEvent::AnswerStopped { user_id, session_id, message_id }]
                } else {
                    vec![]
                })
            }
            AskCommand::Fail { user_id, message_id, code } => {
                let turn = self.owned_by(&user_id)?.turn(&message_id)?;
                let code: String = code.chars().take(MAX_CODE_CHARS).collect();
                Ok(if turn.status == TurnStatus::Running {
                    vec![AskEvent::AnswerFailed { user_id, session_id, message_id, code }]
                } else {
                    vec![]
                })
            }
            AskCommand::GiveFeedback { user_id, message_id, feedback, text } => {
                let turn = self.owned_by(&user_id)?.turn(&message_id)?;
                if turn.status != TurnStatus::Completed {
                    return Err(AskError::NotAnswered);
                }
                let text = text.map(|t| t.trim().to_string()).filter(|t| !t.is_empty());
                if text.as_ref().is_some_and(|t| t.chars().count() > MAX_FEEDBACK_CHARS) {
                    return Err(AskError::FeedbackTooLong);
                }
                if turn.feedback.as_ref() == Some(&(feedback, text.clone())) {
                    return Ok(vec![]);
                }
                Ok(vec![AskEvent::FeedbackGiven { user_id, session_id, message_id, feedback, text }])
            }
            AskCommand::Rename { user_id, title } => {
                self.owned_by(&user_id)?;
                let title = title.split_whitespace().collect::<Vec<_>>().join(" ");
                if title.is_empty() {
                    return Err(AskError::EmptyTitle);
                }
                if title.chars().count() > MAX_TITLE_CHARS {
                    return Err(AskError::TitleTooLong);
                }
                Ok(if title == self.title {
                    vec![]
                } else {
                    vec![AskEvent::SessionTitled { user_id, session_id, title }]
                })
            }
        }
    }

    fn set_status(&mut self, message_id: &str, status: TurnStatus) {
        if let Some(turn) = self.turns.iter_mut().find(|t| t.message_id == message_id) {
            turn.status = status;
        }
    }
}

impl Aggregate for AskSession {
    const TYPE: &'static str = "ask_session";
    type Command = AskCommand;
    type Event = AskEvent;
    type Error = AskError;
    type Services = ();

    crate::handle_by_deciding!();

    fn apply(&mut self, event: Self::Event) {
        match event {
            AskEvent::QuestionAsked { user_id, session_id, message_id, .. } => {
                self.owner.get_or_insert(user_id);
                self.session_id = session_id;
                self.turns.push(Turn { message_id, status: TurnStatus::Running, feedback: None });
            }
            AskEvent::AnswerCompleted { message_id, .. } => self.set_status(&message_id, TurnStatus::Completed),
            AskEvent::AnswerStopped { message_id, .. } => self.set_status(&message_id, TurnStatus::Stopped),
            AskEvent::AnswerFailed { message_id, .. } => self.set_status(&message_id, TurnStatus::Failed),
            AskEvent::FeedbackGiven { message_id, feedback, text, .. } => {
                if let Some(turn) = self.turns.iter_mut().find(|t| t.message_id == message_id) {
                    turn.feedback = Some((feedback, text));
                }
            }
            AskEvent::SessionTitled { user_id, session_id, title } => {
                self.owner.get_or_insert(user_id);
                self.session_id = session_id;
                self.title = title;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cqrs_es::test::TestFramework;
    use serde_json::json;

    fn at() -> DateTime<Utc> {
        DateTime::parse_from_rfc3339("2026-03-10T09:00:00Z").unwrap().with_timezone(&Utc)
    }

    fn ask_as(user_id: &str, message_id: &str, prompt: &str) -> AskCommand {
        AskCommand::Ask {
            user_id: user_id.into(),
            session_id: "s1".into(),
            message_id: message_id.into(),
            prompt: prompt.into(),
            scope: AskScope::Home,
            pro: false,
            web_search: false,
            search_mode: false,
            at: at(),
        }
    }

    fn ask(message_id: &str, prompt: &str) -> AskCommand {
        ask_as("u1", message_id, prompt)
    }

    fn asked(message_id: &str, prompt: &str) -> AskEvent {
        AskEvent::QuestionAsked {
            user_id: "u1".into(),
            session_id: "s1".into(),
            message_id: message_id.into(),
            prompt: prompt.into(),
            scope: AskScope::Home,
            pro: false,
            web_search: false,
            search_mode: false,
            at: at(),
        }
    }

    fn titled(title: &str) -> AskEvent {
        AskEvent::SessionTitled { user_id: "u1".into(), session_id: "s1".into(), title: title.into() }
    }

    fn answer() -> Value {
        json!({"answer_type": "ANSWER", "generated_answer": {"answer": "Steel rose [1].", "sentences": []}})
    }

    fn completed(message_id: &str) -> AskEvent {
        AskEvent::AnswerCompleted {
            user_id: "u1".into(),
            session_id: "s1".into(),
            message_id: message_id.into(),
            answer: answer(),
        }
    }

    fn stopped(message_id: &str) -> AskEvent {
        AskEvent::AnswerStopped { user_id: "u1".into(), session_id: "s1".into(), message_id: message_id.into() }
    }

    fn feedback(message_id: &str, value: Feedback, text: Option<&str>) -> AskCommand {
        AskCommand::GiveFeedback {
            user_id: "u1".into(),
            message_id: message_id.into(),
            feedback: value,
            text: text.map(str::to_string),
        }
    }

    #[test]
    fn the_first_question_titles_the_session_and_starts_a_turn() {
        TestFramework::<AskSession>::with(())
            .given_no_previous_events()
            .when(ask("m1", "  What did steel do\nin March?  "))
            .then_expect_events(vec![titled("What did steel do"), asked("m1", "What did steel do\nin March?")]);
    }

    #[test]
    fn an_empty_or_oversized_prompt_is_refused_with_the_specs_rule() {
        TestFramework::<AskSession>::with(())
            .given_no_previous_events()
            .when(ask("m1", " \n\t "))
            .then_expect_error(AskError::EmptyPrompt);
        assert_eq!(AskError::EmptyPrompt.to_string(), "The prompt is required");
        TestFramework::<AskSession>::with(())
            .given_no_previous_events()
            .when(ask("m1", &"x".repeat(MAX_PROMPT_CHARS + 1)))
            .then_expect_error(AskError::PromptTooLong);
    }

    #[test]
    fn a_long_question_makes_a_title_cut_with_an_ellipsis() {
        let title = title_of(&"word ".repeat(100));
        assert_eq!(title.chars().count(), MAX_TITLE_CHARS);
        assert!(title.ends_with("..."));
    }

    #[test]
    fn a_running_turn_completes_once_with_its_answer() {
        TestFramework::<AskSession>::with(())
            .given(vec![titled("q"), asked("m1", "q")])
            .when(AskCommand::Complete { user_id: "u1".into(), message_id: "m1".into(), answer: answer() })
            .then_expect_events(vec![completed("m1")]);
        TestFramework::<AskSession>::with(())
            .given(vec![titled("q"), asked("m1", "q"), completed("m1")])
            .when(AskCommand::Complete { user_id: "u1".into(), message_id: "m1".into(), answer: answer() })
            .then_expect_error(AskError::NotRunning);
        TestFramework::<AskSession>::with(())
            .given(vec![titled("q"), asked("m1", "q")])
            .when(AskCommand::Complete { user_id: "u1".into(), message_id: "m1".into(), answer: json!("text") })
            .then_expect_error(AskError::AnswerNotAnObject);
    }

    #[test]
    fn asking_while_a_turn_runs_stops_it_so_its_late_answer_is_refused() {
        TestFramework::<AskSession>::with(())
            .given(vec![titled("q"), asked("m1", "q")])
            .when(ask("m2", "another"))
            .then_expect_events(vec![stopped("m1"), asked("m2", "another")]);
        TestFramework::<AskSession>::with(())
            .given(vec![titled("q"), asked("m1", "q"), stopped("m1"), asked("m2", "another")])
            .when(AskCommand::Complete { user_id: "u1".into(), message_id: "m1".into(), answer: answer() })
            .then_expect_error(AskError::NotRunning);
    }

    #[test]
    fn stopping_or_failing_an_ended_turn_changes_nothing() {
        TestFramework::<AskSession>::with(())
            .given(vec![titled("q"), asked("m1", "q")])
            .when(AskCommand::Stop { user_id: "u1".into(), message_id: "m1".into() })
            .then_expect_events(vec![stopped("m1")]);
        TestFramework::<AskSession>::with(())
            .given(vec![titled("q"), asked("m1", "q"), completed("m1")])
            .when(AskCommand::Stop { user_id: "u1".into(), message_id: "m1".into() })
            .then_expect_events(vec![]);
        TestFramework::<AskSession>::with(())
            .given(vec![titled("q"), asked("m1", "q")])
            .when(AskCommand::Fail { user_id: "u1".into(), message_id: "m1".into(), code: "engine_unreachable".into() })
            .then_expect_events(vec![AskEvent::AnswerFailed {
                user_id: "u1".into(),
                session_id: "s1".into(),
                message_id: "m1".into(),
                code: "engine_unreachable".into(),
            }]);
        TestFramework::<AskSession>::with(())
            .given(vec![titled("q"), asked("m1", "q"), stopped("m1")])
            .when(AskCommand::Fail { user_id: "u1".into(), message_id: "m1".into(), code: "x".into() })
            .then_expect_events(vec![]);
    }

    #[test]
    fn feedback_goes_to_answered_turns_and_the_same_feedback_twice_records_once() {
        let given = vec![titled("q"), asked("m1", "q"), completed("m1")];
        TestFramework::<AskSession>::with(())
            .given(given.clone())
            .when(feedback("m1", Feedback::Incorrect, Some("  wrong year ")))
            .then_expect_events(vec![AskEvent::FeedbackGiven {
                user_id: "u1".into(),
                session_id: "s1".into(),
                message_id: "m1".into(),
                feedback: Feedback::Incorrect,
                text: Some("wrong year".into()),
            }]);
        let mut with_feedback = given.clone();
        with_feedback.push(AskEvent::FeedbackGiven {
            user_id: "u1".into(),
            session_id: "s1".into(),
            message_id: "m1".into(),
            feedback: Feedback::Correct,
            text: None,
        });
        TestFramework::<AskSession>::with(())
            .given(with_feedback)
            .when(feedback("m1", Feedback::Correct, Some(" ")))
            .then_expect_events(vec![]);
        TestFramework::<AskSession>::with(())
            .given(vec![titled("q"), asked("m1", "q")])
            .when(feedback("m1", Feedback::Correct, None))
            .then_expect_error(AskError::NotAnswered);
        TestFramework::<AskSession>::with(())
            .given(given)
            .when(feedback("m9", Feedback::Correct, None))
            .then_expect_error(AskError::MessageNotFound);
    }

    #[test]
    fn renaming_cleans_the_title_and_refuses_an_empty_one() {
        let given = vec![titled("q"), asked("m1", "q")];
        TestFramework::<AskSession>::with(())
            .given(given.clone())
            .when(AskCommand::Rename { user_id: "u1".into(), title: "  Steel   in March ".into() })
            .then_expect_events(vec![titled("Steel in March")]);
        TestFramework::<AskSession>::with(())
            .given(given.clone())
            .when(AskCommand::Rename { user_id: "u1".into(), title: "q".into() })
            .then_expect_events(vec![]);
        TestFramework::<AskSession>::with(())
            .given(given)
            .when(AskCommand::Rename { user_id: "u1".into(), title: " ".into() })
            .then_expect_error(AskError::EmptyTitle);
    }

    #[test]
    fn another_user_finds_no_session_to_ask_in_rename_or_judge() {
        let given = vec![titled("q"), asked("m1", "q"), completed("m1")];
        TestFramework::<AskSession>::with(())
            .given(given.clone())
            .when(ask_as("u2", "m2", "mine now?"))
            .then_expect_error(AskError::SessionNotFound);
        TestFramework::<AskSession>::with(())
            .given(given.clone())
            .when(AskCommand::Rename { user_id: "u2".into(), title: "taken".into() })
            .then_expect_error(AskError::SessionNotFound);
        TestFramework::<AskSession>::with(())
            .given(given)
            .when(AskCommand::GiveFeedback {
                user_id: "u2".into(),
                message_id: "m1".into(),
                feedback: Feedback::Correct,
                text: None,
            })
            .then_expect_error(AskError::SessionNotFound);
        TestFramework::<AskSession>::with(())
            .given_no_previous_events()
            .when(AskCommand::Rename { user_id: "u1".into(), title: "x".into() })
            .then_expect_error(AskError::SessionNotFound);
    }

    #[test]
    fn a_message_id_is_used_once_per_session() {
        TestFramework::<AskSession>::with(())
            .given(vec![titled("q"), asked("m1", "q"), completed("m1")])
            .when(ask("m1", "again"))
            .then_expect_error(AskError::MessageIdTaken);
    }
}
