//! AskNeedl: answers to questions over the user's data, every sentence citing a numbered source.
//!
//! A question runs in two stages. Retrieval finds passages through the search index over the
//! scope the user chose, always inside what the user may read; an answer engine then writes
//! the answer from those passages, streaming its progress as [`Event`]s.
//!
//! - [`scope`]: what a question is asked over (home, sources, documents, attachments, the public
//!   corpus) and how it narrows the user's access rule into a search request.
//! - [`retrieve`]: documents by BM25, their best passages, a diverse selection of them ([`select`]),
//!   and in pro mode a second round from the first round's salient terms.
//! - [`engine`]: the [`AnswerEngine`] contract, the [`Events`] channel engines report through, and
//!   [`Assistant`], which runs a question end to end.
//! - [`extractive`]: the offline default engine, composing answers only from retrieved sentences.
//! - [`compute`]: arithmetic a question asks for (a change, a percentage change, an average, a
//!   sum, a share), computed from the table rows retrieved and marked as computed.
//! - [`openai`]: the engine for any chat-completions server, its citations checked against the
//!   passages they cite.
//! - [`answer`]: the answer and citation as the spec's DONE event carries them.
//! - [`text`], [`stream`], [`compose`]: analysis shared with the index, incremental readers of
//!   streamed text, and what both engines build around an answer.
//! - [`error`]: errors with stable codes.
//!
//! Depends on `search` (and through it the index's analysis) and on nothing of HTTP: the API
//! turns events into server-sent events, fills the citation fields only it knows, and records
//! the turn.

pub mod answer;
pub mod compose;
pub mod compute;
pub mod engine;
pub mod error;
pub mod extractive;
pub mod openai;
pub mod retrieve;
pub mod scope;
pub mod select;
pub mod stream;
pub mod text;

pub use answer::{
    Answer, AnswerQuality, AnswerSentence, AnswerType, Citation, DocumentHighlight, Event, GeneratedAnswer,
};
pub use engine::{AnswerEngine, Assistant, EventResult, Events, Question};
pub use error::{AssistantError, ErrorKind};
pub use extractive::ExtractiveEngine;
pub use openai::{OpenAiCompatibleEngine, OpenAiConfig};
pub use retrieve::{retrieve, retrieve_ranked, Retrieval, RetrievedPassage, Settings};
pub use scope::Scope;
