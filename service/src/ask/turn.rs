//! One turn being answered: the assistant's answer (or, in search mode, the best documents) sent
//! as [`Frame`]s, and how the turn ended recorded on its session.

use assistant::{AssistantError, ErrorKind, Event, Question};
use domain::ask::AskCommand;
use serde_json::{json, Value};
use tokio::sync::{mpsc, oneshot, watch};

use super::citations::{citation_link, cited};
use crate::access::Purpose;
use crate::context::Context;
use crate::viewer::Viewer;

/// The spec's text shown in place of an answer that failed.
pub const FAILED_ANSWER: &str = "Uh-oh! Something went wrong";
/// Results a search-mode question answers with.
const SEARCH_RESULTS: usize = 10;

/// What a turn sends its listener, in order: steps and answer chunks, then the answer data
/// (`Done`) or an `Error`. The listener turns them into server-sent events or one answer.
#[derive(Debug, Clone, PartialEq)]
pub enum Frame {
    /// A step of the work, as text.
    Step(String),
    /// The next piece of the answer's text.
    Chunk(String),
    /// The answer data: answer_type, generated_answer, retrieved_results, followup_questions,
    /// message_id, session_id, answer_quality, pro.
    Done(Value),
    /// The turn failed: the error's stable code and a message for the asker.
    Error { code: String, message: String },
}

/// One turn being answered.
pub(super) struct Turn {
    pub ctx: Context,
    pub viewer: Viewer,
    pub session_id: String,
    pub message_id: String,
    pub question: Question,
    /// Asked over the public corpus: citations of web pages open the original (`/redirect`).
    pub web: bool,
    pub channel_id: Option<String>,
    pub search_mode: bool,
    /// Report chat over this report: no session, so nothing is recorded, and the answer says
    /// `report_chat: true`.
    pub report_id: Option<String>,
}

/// How a turn ended, for the record.
enum Ending {
    Completed,
    Failed,
    Stopped,
}

impl Turn {
    /// Answers the question, sending frames to `tx`, and records how the turn ended. A closed
    /// `tx` (the listener went away), a fired `stop` (a new question in the session) or
    /// `shutdown` turning true (the server stopping) ends it as stopped.
    pub async fn run(
        self,
        tx: mpsc::Sender<Frame>,
        mut stop: oneshot::Receiver<()>,
        mut shutdown: watch::Receiver<bool>,
    ) {
        let ending = tokio::select! {
            biased;
            _ = &mut stop => Ending::Stopped,
            _ = tx.closed() => Ending::Stopped,
            // A server shutting down waits for open responses: a slow engine must not hold it.
            Ok(_) = shutdown.wait_for(|down| *down) => Ending::Stopped,
            ending = self.answer(&tx) => ending,
        };
        if let Ending::Stopped = ending {
            let command =
                AskCommand::Stop { user_id: self.viewer.user_id.clone(), message_id: self.message_id.clone() };
            let _ = self.record(command).await;
        }
        self.ctx.asks.finish(&self.session_id, &self.message_id);
    }

    /// Records a command on the session; a refusal (the turn ended meanwhile) is only logged. A
    /// report chat has no session: nothing is recorded.
    async fn record(&self, command: AskCommand) -> Result<(), ()> {
        if self.report_id.is_some() {
            return Ok(());
        }
        let ctx = &self.ctx;
        match ctx.command(&ctx.bus.ask_sessions, &self.session_id, command, &self.viewer.metadata()).await {
            Ok(_) => Ok(()),
            Err(error) => {
                tracing::info!(session_id = %self.session_id, message_id = %self.message_id, %error,
                    "the turn's ending was not recorded");
                Err(())
            }
        }
    }

    async fn answer(&self, tx: &mpsc::Sender<Frame>) -> Ending {
        let answer = if self.search_mode { self.search(tx).await } else { self.generate(tx).await };
        let mut answer = match answer {
            Ok(Some(answer)) => answer,
            Ok(None) => return Ending::Stopped,
            Err(error) => {
                let code = error.code().to_string();
                let command = AskCommand::Fail {
                    user_id: self.viewer.user_id.clone(),
                    message_id: self.message_id.clone(),
                    code: code.clone(),
                };
                if self.record(command).await.is_err() {
                    return Ending::Stopped;
                }
                let message =
                    if error.kind() == ErrorKind::Invalid { error.to_string() } else { FAILED_ANSWER.to_string() };
                let _ = tx.send(Frame::Error { code, message }).await;
                return Ending::Failed;
            }
        };
        if let Some(report_id) = &self.report_id {
            answer["session_id"] = Value::Null;
            answer["report_chat"] = json!(true);
            answer["report_id"] = json!(report_id);
        }
        let command = AskCommand::Complete {
            user_id: self.viewer.user_id.clone(),
            message_id: self.message_id.clone(),
            answer: answer.clone(),
        };
        // Refused when the turn was stopped meanwhile: the stop stands.
        if self.record(command).await.is_err() {
            return Ending::Stopped;
        }
        let _ = tx.send(Frame::Done(answer)).await;
        Ending::Completed
    }

    /// The generated answer with its citations filled in; `None` when the engine stopped because
    /// nobody listens.
    async fn generate(&self, tx: &mpsc::Sender<Frame>) -> Result<Option<Value>, AssistantError> {
        let mut events = self.ctx.assistant.current(&self.ctx.db).await.ask(self.question.clone());
        while let Some(event) = events.recv().await {
            let frame = match event? {
                Event::Step(text) => Frame::Step(text),
                Event::Chunk(text) => Frame::Chunk(text),
                Event::Done(answer) => {
                    let mut data =
                        serde_json::to_value(&*answer).map_err(|e| AssistantError::Internal(format!("answer: {e}")))?;
                    self.fill_citations(&mut data).await?;
                    return Ok(Some(data));
                }
            };
            if tx.send(frame).await.is_err() {
                return Ok(None);
            }
        }
        Ok(None)
    }

    /// Search mode: the best documents with their highlighted passages.
    async fn search(&self, tx: &mpsc::Sender<Frame>) -> Result<Option<Value>, AssistantError> {
        if tx.send(Frame::Step("Searching your sources".into())).await.is_err() {
            return Ok(None);
        }
        let Some(mut req) = self.question.scope.request(&self.question.text, &self.question.access) else {
            return Ok(Some(self.search_answer(vec![])));
        };
        req.limit = SEARCH_RESULTS;
        req.highlights = 3;
        let index = self.ctx.search.clone();
        // Index calls are CPU work: a blocking thread runs them.
        let found = tokio::task::spawn_blocking(move || index.search(&req))
            .await
            .map_err(|e| AssistantError::Internal(format!("search task: {e}")))??;
        if tx.send(Frame::Step(format!("Found {} documents", found.count))).await.is_err() {
            return Ok(None);
        }
        let deeplinks: Vec<&str> = found.hits.iter().map(|h| h.deeplink.as_str()).collect();
        let documents = cited(&self.ctx, &self.viewer.user_id, &deeplinks).await?;
        let results = found
            .hits
            .iter()
            .filter_map(|hit| {
                let doc = documents.get(&hit.deeplink)?;
                let coordinates: Vec<Value> = hit
                    .highlights
                    .iter()
                    .filter(|h| !h.boxes.is_empty())
                    .map(|h| json!({"page_number": h.page, "lines": h.boxes}))
                    .collect();
                let (deeplink, source) = doc.cited_as(&hit.deeplink, &hit.source_id);
                Some(json!({
                    "access_key": self.ctx.access.key(Purpose::Access, &deeplink),
                    "document_id": deeplink,
                    "source": source,
                    "category_tab": hit.category,
                    "channel_id": self.channel_id,
                    "mime_type": doc.mime_type,
                    "title_label": doc.title,
                    "source_label": doc.source_label,
                    "url": doc.link,
                    "highlights": hit.highlights.iter().map(|h| h.html.clone()).collect::<Vec<_>>(),
                    "highlighted_coordinates": coordinates,
                    "score": hit.score,
                }))
            })
            .collect();
        Ok(Some(self.search_answer(results)))
    }

    fn search_answer(&self, results: Vec<Value>) -> Value {
        json!({
            "answer_type": "SEARCH",
            "generated_answer": {"answer": "", "sentences": []},
            "retrieved_results": results,
            "followup_questions": [],
            "message_id": self.message_id,
            "session_id": self.session_id,
            "answer_quality": Value::Null,
            "answer_quality_message": Value::Null,
            "pro": self.question.pro,
        })
    }

    /// Fills the citation fields the assistant does not know: the access key, the channel, the
    /// MIME type, the original link, the source's name, and the link that opens the citation.
    async fn fill_citations(&self, data: &mut Value) -> Result<(), AssistantError> {
        let deeplinks: Vec<String> = data["retrieved_results"]
            .as_array()
            .map(|r| r.iter().filter_map(|c| c["document_id"].as_str().map(str::to_string)).collect())
            .unwrap_or_default();
        let refs: Vec<&str> = deeplinks.iter().map(String::as_str).collect();
        let documents = cited(&self.ctx, &self.viewer.user_id, &refs).await?;
        if let Some(citations) = data["retrieved_results"].as_array_mut() {
            for citation in citations {
                let Some(doc) = citation["document_id"].as_str().and_then(|d| documents.get(d)) else { continue };
                let (deeplink, source) = doc.cited_as(
                    citation["document_id"].as_str().unwrap_or_default(),
                    citation["source"].as_str().unwrap_or_default(),
                );
                citation["document_id"] = json!(deeplink);
                citation["source"] = json!(source);
                citation["access_key"] = json!(self.ctx.access.key(Purpose::Access, &deeplink));
                citation["channel_id"] = json!(self.channel_id);
                citation["mime_type"] = json!(doc.mime_type);
                citation["url"] = json!(doc.link);
                citation["source_label"] = json!(doc.source_label);
                citation["content_only"] = json!(doc.link.is_none() && !doc.has_file);
                citation["needl_document_link"] = json!(citation_link(citation, self.web));
            }
        }
        data["message_id"] = json!(self.message_id);
        data["session_id"] = json!(self.session_id);
        Ok(())
    }
}
