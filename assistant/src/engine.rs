//! The answer engine contract, the event channel engines report through, and [`Assistant`],
//! which runs a question: retrieval off the async runtime, then the engine.

use std::sync::Arc;

use async_trait::async_trait;
use search::{Access, SearchIndex, Similarity};
use tokio::sync::mpsc;

use crate::answer::{Answer, Event};
use crate::error::AssistantError;
use crate::retrieve::{self, Retrieval, Settings};
use crate::scope::Scope;

/// What the receiving end of an ask gets: events, or one error that ends the stream.
pub type EventResult = Result<Event, AssistantError>;

/// Writes an answer from retrieved passages, reporting steps and chunks as it goes.
#[async_trait]
pub trait AnswerEngine: Send + Sync + 'static {
    /// Answers `retrieval.question` from `retrieval.passages` (cited by their numbers). Sends
    /// `Step`s and `Chunk`s through `events` and returns the finished answer; the caller sends
    /// `Done`. Returns [`AssistantError::Cancelled`] as soon as `events` has no receiver.
    async fn answer(&self, retrieval: Arc<Retrieval>, pro: bool, events: &Events) -> Result<Answer, AssistantError>;

    /// The model that writes the prose, for an engine that writes its own (a chat-completions
    /// server); `None` for one that only picks the sources' sentences.
    fn model(&self) -> Option<&str> {
        None
    }
}

/// The sending side of an ask's events.
#[derive(Clone)]
pub struct Events {
    tx: mpsc::Sender<EventResult>,
}

impl Events {
    /// A channel holding up to `capacity` unread events: a slow reader slows the engine down
    /// rather than letting the events pile up.
    pub fn channel(capacity: usize) -> (Events, mpsc::Receiver<EventResult>) {
        let (tx, rx) = mpsc::channel(capacity.max(1));
        (Events { tx }, rx)
    }

    pub async fn step(&self, text: impl Into<String>) -> Result<(), AssistantError> {
        self.send(Ok(Event::Step(text.into()))).await
    }

    pub async fn chunk(&self, text: impl Into<String>) -> Result<(), AssistantError> {
        self.send(Ok(Event::Chunk(text.into()))).await
    }

    async fn send(&self, event: EventResult) -> Result<(), AssistantError> {
        self.tx.send(event).await.map_err(|_| AssistantError::Cancelled)
    }

    /// Whether the receiver went away (the user stopped, asked anew, or disconnected).
    pub fn is_closed(&self) -> bool {
        self.tx.is_closed()
    }
}

/// A question as the API hands it over.
#[derive(Debug, Clone)]
pub struct Question {
    pub text: String,
    pub scope: Scope,
    /// What the asking user may read, as the search pages compute it.
    pub access: Access,
    pub pro: bool,
}

/// Runs questions: retrieval over the index, then the configured engine.
#[derive(Clone)]
pub struct Assistant {
    index: Arc<SearchIndex>,
    engine: Arc<dyn AnswerEngine>,
    /// The documents' embeddings, when the server has the model: documents are then ranked by
    /// the hybrid ranking.
    similarity: Option<Arc<dyn Similarity>>,
}

/// Events buffered between the engine and the reader.
const EVENT_BUFFER: usize = 64;

impl Assistant {
    pub fn new(index: Arc<SearchIndex>, engine: Arc<dyn AnswerEngine>) -> Assistant {
        Assistant { index, engine, similarity: None }
    }

    /// The same assistant, ranking documents with `similarity` (none: by keywords alone).
    pub fn with_similarity(mut self, similarity: Option<Arc<dyn Similarity>>) -> Assistant {
        self.similarity = similarity;
        self
    }

    /// The engine answers are written by; reports write their sections with it too.
    pub fn engine(&self) -> &Arc<dyn AnswerEngine> {
        &self.engine
    }

    /// Retrieves the passages for `question` on a blocking thread.
    pub async fn retrieve(&self, question: &Question) -> Result<Retrieval, AssistantError> {
        let index = self.index.clone();
        let similarity = self.similarity.clone();
        let q = question.clone();
        tokio::task::spawn_blocking(move || {
            retrieve::retrieve_ranked(
                &index,
                &q.text,
                &q.scope,
                &q.access,
                &Settings::for_mode(q.pro),
                similarity.as_deref(),
            )
        })
        .await
        .map_err(|e| AssistantError::Internal(format!("retrieval task failed: {e}")))?
    }

    /// Starts answering `question` and returns the stream of its events: steps, chunks, then
    /// `Done` with the answer, or one error. Dropping the receiver stops the work.
    pub fn ask(&self, question: Question) -> mpsc::Receiver<EventResult> {
        let (events, rx) = Events::channel(EVENT_BUFFER);
        let this = self.clone();
        tokio::spawn(async move {
            match this.run(&question, &events).await {
                Ok(answer) => {
                    let _ = events.send(Ok(Event::Done(Box::new(answer)))).await;
                }
                Err(AssistantError::Cancelled) => {
                    tracing::debug!("ask cancelled by its reader");
                }
                Err(error) => {
                    tracing::warn!(code = error.code(), error = %error, "ask failed");
                    let _ = events.send(Err(error)).await;
                }
            }
        });
        rx
    }

    async fn run(&self, question: &Question, events: &Events) -> Result<Answer, AssistantError> {
        events.step("Searching your sources").await?;
        let retrieval = self.retrieve(question).await?;
        let documents: std::collections::HashSet<&str> =
            retrieval.passages.iter().map(|p| p.deeplink.as_str()).collect();
        events.step(format!("Found {} passages in {} documents", retrieval.passages.len(), documents.len())).await?;
        if !retrieval.expansion.is_empty() {
            events.step(format!("Looked further for {}", retrieval.expansion.join(", "))).await?;
        }
        self.engine.answer(Arc::new(retrieval), question.pro, events).await
    }
}
