//! AskNeedl over HTTP: questions answered as server-sent events, the sessions they make (list,
//! read, rename), feedback on answers and suggested questions.
//!
//! A question's scope comes from the request (home, a feed, a source, a notebook, a channel,
//! documents, the attachments feed, or the public corpus) and is checked before anything is
//! recorded: a channel the user does not see, a document they may not read or another user's
//! notebook answers 404 and writes nothing. Then the turn is recorded (`QuestionAsked`), the
//! answer streams as `{status, data}` events (INTERMEDIATE_STEP, GENERATED_ANSWER, DONE, or
//! ERROR whose data starts with [`ERROR_MARKER`]), and the turn ends recorded as completed,
//! failed or stopped. The work runs in its own task, so a client that goes away (a stop, a closed
//! tab) still ends its turn as stopped; a new question in the same session stops the one running
//! there.
//!
//! Sessions are their owner's alone: another user's session id is simply not found (404).

use std::collections::HashMap;
use std::time::Duration;

use axum::extract::{Path, State};
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use commands::args;
use domain::ask::{AskCommand, AskScope};
use domain::DomainError;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{json, Value};
use tokio::sync::{mpsc, oneshot};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::app::AppState;
use crate::auth::AuthUser;
use crate::error::{ApiJson, ApiQuery, ApiResult, AppError, ErrorBody};
use assistant::{AssistantError, ErrorKind, Event, Question, Scope};
use search::Access;
use service::access::Purpose;
use service::ask::sessions::{owns_session, session_not_found};
use service::ask::{FeedbackResult, MessagingResult, SessionDetail, SessionList};
use service::documents::{ASK_SOURCE, DRIVE_SOURCE, NOTES_SOURCE};
use service::policy::{channel_deeplinks, require_flag, search_access, SearchScope};

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
/// The spec's text shown in place of an answer that failed.
pub const FAILED_ANSWER: &str = "Uh-oh! Something went wrong";
/// The special scope ids of the spec.
const HOME: &str = "home";
const NEEDL_UNIVERSE: &str = "needl_universe";
/// At most this many documents one question names.
const MAX_DOCUMENTS: usize = 100;
/// Results a search-mode question answers with.
const SEARCH_RESULTS: usize = 10;
/// How often an idle stream sends a comment, so a client that went away is noticed.
const KEEP_ALIVE: Duration = Duration::from_secs(3);
/// Events held for a slow reader.
const FRAME_BUFFER: usize = 64;

/// One value or several: `document_id` may be repeated or an array.
fn one_or_many<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum OneOrMany {
        One(String),
        Many(Vec<String>),
    }
    Ok(match Option::<OneOrMany>::deserialize(d)? {
        None => vec![],
        Some(OneOrMany::One(s)) => vec![s],
        Some(OneOrMany::Many(v)) => v,
    })
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct AskBody {
    /// The question: required, at most 4000 characters.
    pub prompt: Option<String>,
    /// `true` (the default) answers as server-sent events; `false` answers the DONE data as JSON.
    pub stream: Option<bool>,
    /// The asker's IANA time zone (kept for dates in answers; UTC when absent).
    pub timezone: Option<String>,
    /// Pro mode: more passages, and a second round of retrieval. Needs the `ask_needl_pro` flag.
    pub pro: Option<bool>,
    /// `home`, `needl_universe` (the public corpus), `ask_needl` (the attachments feed, narrowed
    /// to `board_id` when given), a source id, or a notebook id (its notes; another user's
    /// notebook answers 404).
    pub source: Option<String>,
    /// The session to continue; absent starts a new one.
    pub session_id: Option<String>,
    /// Documents to ask over (repeated or an array); each must be readable.
    #[serde(default, deserialize_with = "one_or_many")]
    #[schema(value_type = Vec<String>)]
    pub document_id: Vec<String>,
    /// A feed (board) to ask over; `home` is everything.
    pub board_id: Option<String>,
    /// A channel to ask over: its shared documents.
    pub channel_id: Option<String>,
    /// `ask` (the default) or `search`: matching documents with highlighted passages.
    pub mode: Option<String>,
    /// The web-search toggle: the same as `source=needl_universe`.
    pub web_search: Option<bool>,
}

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

/// What the driver sends the response.
enum Frame {
    Step(String),
    Chunk(String),
    Done(Value),
    Error { code: String, message: String },
}

impl Frame {
    fn event(self) -> StreamEvent {
        let (status, data, code) = match self {
            Frame::Step(text) => ("INTERMEDIATE_STEP", Value::String(text), None),
            Frame::Chunk(text) => ("GENERATED_ANSWER", json!({"generated_answer": {"answer_chunk": text}}), None),
            Frame::Done(data) => ("DONE", data, None),
            Frame::Error { code, message } => ("ERROR", Value::String(format!("{ERROR_MARKER} {message}")), Some(code)),
        };
        StreamEvent { status: status.into(), data, code }
    }
}

/// A question's scope resolved: what it is recorded as, what the assistant searches, and what the
/// user may read there.
struct Resolved {
    scope: AskScope,
    search_scope: Scope,
    access: Access,
    channel_id: Option<String>,
}

fn nonempty(value: Option<&str>) -> Option<&str> {
    value.map(str::trim).filter(|v| !v.is_empty())
}

/// Resolves the request's scope for the user, checking that they may ask there. Writes nothing.
async fn resolve(state: &AppState, user: &AuthUser, body: &AskBody) -> ApiResult<Resolved> {
    let user_id = user.user_id.as_str();
    let channel_id = nonempty(body.channel_id.as_deref()).map(str::to_string);
    let source = nonempty(body.source.as_deref());
    let board = nonempty(body.board_id.as_deref()).filter(|b| *b != HOME);
    let documents: Vec<String> =
        body.document_id.iter().map(|d| d.trim().to_string()).filter(|d| !d.is_empty()).collect();
    if documents.len() > MAX_DOCUMENTS {
        return Err(AppError::invalid("too_many_documents", format!("ask over at most {MAX_DOCUMENTS} documents")));
    }
    if !documents.is_empty() {
        let mut readable = Vec::with_capacity(documents.len());
        for deeplink in &documents {
            let card = service::policy::readable(state, user_id, deeplink, None).await?;
            if !readable.contains(&card.deeplink) {
                readable.push(card.deeplink);
            }
        }
        return Ok(Resolved {
            scope: AskScope::Documents { document_ids: readable.clone() },
            search_scope: Scope::Documents(readable.clone()),
            access: Access::Documents(readable),
            channel_id,
        });
    }
    if let Some(channel) = &channel_id {
        // 404 for a channel the user does not see.
        let deeplinks = channel_deeplinks(state, user_id, channel).await?;
        return Ok(Resolved {
            scope: AskScope::Channel { channel_id: channel.clone() },
            search_scope: Scope::Documents(deeplinks.clone()),
            access: Access::Documents(deeplinks),
            channel_id,
        });
    }
    if body.web_search.unwrap_or(false) || source == Some(NEEDL_UNIVERSE) {
        require_flag(
            state,
            user,
            "ask_needl_dataset_selection_needl_universe",
            "asking the public corpus is turned off for you",
        )
        .await?;
        return Ok(Resolved {
            scope: AskScope::NeedlUniverse,
            search_scope: Scope::Universe,
            access: Access::Public,
            channel_id: None,
        });
    }
    let access = search_access(state, user_id, SearchScope::MyData).await?;
    let reaches = |id: &str| match &access {
        Access::Mine { sources, .. } => id == DRIVE_SOURCE || sources.iter().any(|s| s == id),
        _ => false,
    };
    let (scope, search_scope) = match (source, board) {
        (Some(ASK_SOURCE), feed) => {
            let search_scope = match feed {
                Some(feed_id) => {
                    #[derive(sqlx::FromRow)]
                    struct Row {
                        deeplink: String,
                    }
                    let rows: Vec<Row> = state
                        .db
                        .fetch_all(
                            "SELECT deeplink FROM uploads_view WHERE user_id = $1 AND source = $2 AND feed_id = $3 \
                             AND deeplink IS NOT NULL",
                            args![user_id, ASK_SOURCE, feed_id],
                        )
                        .await?;
                    let deeplinks: Vec<String> = rows.into_iter().map(|r| r.deeplink).collect();
                    // An attachments feed with nothing processed yet reaches nothing, not every
                    // attachment.
                    if deeplinks.is_empty() {
                        Scope::Documents(vec![])
                    } else {
                        Scope::Attachments(deeplinks)
                    }
                }
                None => Scope::Attachments(vec![]),
            };
            (AskScope::Attachments { feed_id: feed.map(str::to_string) }, search_scope)
        }
        (_, Some(board)) => {
            if !reaches(board) {
                return Err(unknown_scope(board));
            }
            (AskScope::Feed { board_id: board.to_string() }, Scope::Sources(vec![board.to_string()]))
        }
        (None | Some(HOME), None) => (AskScope::Home, Scope::Home),
        (Some(source), None) => {
            // A notebook (the spec's notebooks category, with the notebook as the source): its
            // notes, which the index keeps to their author and files under their notebook.
            if !reaches(source) && !own_notebook(state, user_id, source).await? {
                return Err(unknown_scope(source));
            }
            (AskScope::Source { source: source.to_string() }, Scope::Sources(vec![source.to_string()]))
        }
    };
    Ok(Resolved { scope, search_scope, access, channel_id: None })
}

/// Whether `id` is one of the user's notebooks: `false` when no notebook has that id, 404 when
/// another user's has.
async fn own_notebook(state: &AppState, user_id: &str, id: &str) -> ApiResult<bool> {
    #[derive(sqlx::FromRow)]
    struct Row {
        user_id: String,
    }
    let row: Option<Row> =
        state.db.fetch_optional("SELECT user_id FROM notebooks_view WHERE notebook_id = $1", args![id]).await?;
    match row {
        None => Ok(false),
        Some(row) if row.user_id == user_id => Ok(true),
        Some(_) => Err(AppError::new(axum::http::StatusCode::NOT_FOUND, "notebook_not_found", "notebook not found")),
    }
}

fn unknown_scope(id: &str) -> AppError {
    AppError::bad_request(
        "unknown_scope",
        format!(
            "Unknown scope {id}: ask over home, needl_universe, ask_needl, a feed, a source you follow or a notebook."
        ),
    )
}

/// Asks AskNeedl a question over a scope. Answers server-sent events `{status, data}`:
/// INTERMEDIATE_STEP, GENERATED_ANSWER, then DONE with the answer data (answer_type,
/// generated_answer, retrieved_results, followup_questions, message_id, session_id,
/// answer_quality, pro), or ERROR whose data starts with `[ERROR]`. With `stream: false`, the
/// DONE data as JSON. The stream's headers `x-session-id` and `x-message-id` name the turn before
/// DONE does. Nothing is recorded when the request is refused.
#[utoipa::path(post, path = "/ml/ask-needl", tag = "ask", security(("token" = [])), request_body = AskBody,
    responses((status = 200, content_type = "text/event-stream", body = StreamEvent),
        (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 422, body = ErrorBody)))]
async fn ask(State(state): State<AppState>, user: AuthUser, ApiJson(body): ApiJson<AskBody>) -> ApiResult<Response> {
    let prompt = domain::ask::valid_prompt(body.prompt.as_deref().unwrap_or_default())
        .map_err(|e| AppError::invalid(e.code(), e.to_string()))?;
    let search_mode = match body.mode.as_deref().map(str::trim).unwrap_or("ask") {
        "" | "ask" => false,
        "search" => true,
        other => {
            return Err(AppError::bad_request("unknown_mode", format!("Unknown mode {other}: use ask or search.")))
        }
    };
    if let Some(zone) = nonempty(body.timezone.as_deref()) {
        zone.parse::<chrono_tz::Tz>()
            .map_err(|_| AppError::bad_request("unknown_timezone", format!("Unknown time zone {zone}.")))?;
    }
    let pro = body.pro.unwrap_or(false);
    if pro {
        require_flag(&state, &user, "ask_needl_pro", "pro mode is turned off for you").await?;
    }
    let resolved = resolve(&state, &user, &body).await?;
    let session_id = match nonempty(body.session_id.as_deref()) {
        Some(id) => {
            if !owns_session(&state, &user.user_id, id).await? {
                return Err(session_not_found().into());
            }
            id.to_string()
        }
        None => uuid::Uuid::now_v7().to_string(),
    };
    let message_id = uuid::Uuid::now_v7().to_string();
    let command = AskCommand::Ask {
        user_id: user.user_id.clone(),
        session_id: session_id.clone(),
        message_id: message_id.clone(),
        prompt: prompt.clone(),
        scope: resolved.scope.clone(),
        pro,
        web_search: resolved.scope == AskScope::NeedlUniverse,
        search_mode,
        at: chrono::Utc::now(),
    };
    state.command(&state.bus.ask_sessions, &session_id, command, &user.metadata()).await?;
    // The question is recorded: a turn running in this session was stopped by it.
    let stop = state.asks.start(&session_id, &message_id);
    let (tx, rx) = mpsc::channel(FRAME_BUFFER);
    let ids = [("x-session-id", session_id.clone()), ("x-message-id", message_id.clone())];
    let turn = Turn {
        state: state.clone(),
        user: user.clone(),
        session_id,
        message_id,
        question: Question { text: prompt, scope: resolved.search_scope, access: resolved.access, pro },
        web: resolved.scope == AskScope::NeedlUniverse,
        channel_id: resolved.channel_id,
        search_mode,
    };
    tokio::spawn(turn.run(tx, stop));
    if body.stream.unwrap_or(true) {
        let events = futures::stream::unfold(rx, |mut rx| async move {
            let frame = rx.recv().await?;
            let event = SseEvent::default().data(serde_json::to_string(&frame.event()).unwrap_or_default());
            Some((Ok::<_, std::convert::Infallible>(event), rx))
        });
        let mut response = Sse::new(events).keep_alive(KeepAlive::new().interval(KEEP_ALIVE)).into_response();
        // The ids before DONE, so a client can continue or find the session while it streams.
        for (name, value) in ids {
            if let Ok(value) = axum::http::HeaderValue::from_str(&value) {
                response.headers_mut().insert(name, value);
            }
        }
        Ok(response)
    } else {
        collect(rx).await
    }
}

/// The answer of a turn asked without streaming: the DONE data, or the error.
async fn collect(mut rx: mpsc::Receiver<Frame>) -> ApiResult<Response> {
    while let Some(frame) = rx.recv().await {
        match frame {
            Frame::Done(data) => return Ok(ApiJson(data).into_response()),
            Frame::Error { code, message } => {
                return Err(AppError::new(axum::http::StatusCode::BAD_GATEWAY, &code, message));
            }
            Frame::Step(_) | Frame::Chunk(_) => {}
        }
    }
    Err(AppError::new(axum::http::StatusCode::CONFLICT, "answer_stopped", "the answer was stopped"))
}

/// One turn being answered.
struct Turn {
    state: AppState,
    user: AuthUser,
    session_id: String,
    message_id: String,
    question: Question,
    /// Asked over the public corpus: citations of web pages open the original (`/redirect`).
    web: bool,
    channel_id: Option<String>,
    search_mode: bool,
}

/// How a turn ended, for the record.
enum Ending {
    Completed,
    Failed,
    Stopped,
}

impl Turn {
    /// Answers the question, sending frames to `tx`, and records how the turn ended. A closed
    /// `tx` (the client went away), a fired `stop` (a new question in the session) or the server
    /// shutting down ends it as stopped.
    async fn run(self, tx: mpsc::Sender<Frame>, mut stop: oneshot::Receiver<()>) {
        let mut shutdown = self.state.shutdown.clone();
        let ending = tokio::select! {
            biased;
            _ = &mut stop => Ending::Stopped,
            _ = tx.closed() => Ending::Stopped,
            // A server shutting down waits for open responses: a slow engine must not hold it.
            Ok(_) = shutdown.wait_for(|down| *down) => Ending::Stopped,
            ending = self.answer(&tx) => ending,
        };
        if let Ending::Stopped = ending {
            let command = AskCommand::Stop { user_id: self.user.user_id.clone(), message_id: self.message_id.clone() };
            let _ = self.record(command).await;
        }
        self.state.asks.finish(&self.session_id, &self.message_id);
    }

    /// Records a command on the session; a refusal (the turn ended meanwhile) is only logged.
    async fn record(&self, command: AskCommand) -> Result<(), ()> {
        let state = &self.state;
        match state.command(&state.bus.ask_sessions, &self.session_id, command, &self.user.metadata()).await {
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
        let answer = match answer {
            Ok(Some(answer)) => answer,
            Ok(None) => return Ending::Stopped,
            Err(error) => {
                let code = error.code().to_string();
                let command = AskCommand::Fail {
                    user_id: self.user.user_id.clone(),
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
        let command = AskCommand::Complete {
            user_id: self.user.user_id.clone(),
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
        let mut events = self.state.assistant.ask(self.question.clone());
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
        let index = self.state.search.clone();
        let found = tokio::task::spawn_blocking(move || index.search(&req))
            .await
            .map_err(|e| AssistantError::Internal(format!("search task: {e}")))??;
        if tx.send(Frame::Step(format!("Found {} documents", found.count))).await.is_err() {
            return Ok(None);
        }
        let deeplinks: Vec<&str> = found.hits.iter().map(|h| h.deeplink.as_str()).collect();
        let documents = self.documents(&deeplinks).await?;
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
                    "access_key": self.state.access.key(Purpose::Access, &deeplink),
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

    /// What citations need of their documents (and of the asker's notes), by index deeplink.
    async fn documents(&self, deeplinks: &[&str]) -> Result<HashMap<String, CitedDocument>, AssistantError> {
        let (notes, deeplinks): (Vec<&str>, Vec<&str>) =
            deeplinks.iter().copied().partition(|d| search::follow::note_id_of(d).is_some());
        let mut cited = self.notes(&notes).await?;
        if deeplinks.is_empty() {
            return Ok(cited);
        }
        #[derive(sqlx::FromRow)]
        struct Row {
            deeplink: String,
            source_id: String,
            link: Option<String>,
            title: String,
            metadata: String,
            label: Option<String>,
        }
        let placeholders: Vec<String> = (0..deeplinks.len()).map(|i| format!("${}", i + 1)).collect();
        let rows: Vec<Row> = self
            .state
            .db
            .fetch_all(
                &format!(
                    "SELECT d.deeplink, d.source_id, d.link, d.title, d.metadata, s.label FROM documents_view d \
                     LEFT JOIN sources_view s ON s.source_id = d.source_id WHERE d.deeplink IN ({})",
                    placeholders.join(", ")
                ),
                deeplinks.iter().map(|d| (*d).into()).collect(),
            )
            .await
            .map_err(|e| AssistantError::Internal(format!("reading cited documents: {e}")))?;
        cited.extend(rows.into_iter().map(|row| {
            let metadata: HashMap<String, String> = serde_json::from_str(&row.metadata).unwrap_or_default();
            let doc = CitedDocument {
                mime_type: metadata.get("mime_type").cloned(),
                has_file: metadata.contains_key("object_key"),
                link: row.link.filter(|l| l.starts_with("http://") || l.starts_with("https://")),
                title: row.title,
                source_label: row.label.unwrap_or_else(|| service::documents::fallback_label(&row.source_id)),
                note_id: None,
            };
            (row.deeplink, doc)
        }));
        Ok(cited)
    }

    /// What citations need of the asker's notes, by index deeplink (`note:{id}`): another user's
    /// note, or one deleted since the index saw it, is left out.
    async fn notes(&self, deeplinks: &[&str]) -> Result<HashMap<String, CitedDocument>, AssistantError> {
        if deeplinks.is_empty() {
            return Ok(HashMap::new());
        }
        #[derive(sqlx::FromRow)]
        struct Row {
            note_id: String,
            name: String,
            preview: String,
            snippet_link: Option<String>,
            notebook_name: String,
        }
        let placeholders: Vec<String> = (0..deeplinks.len()).map(|i| format!("${}", i + 2)).collect();
        let mut args = args![self.user.user_id.as_str()];
        args.extend(deeplinks.iter().filter_map(|d| search::follow::note_id_of(d)).map(|id| id.into()));
        let rows: Vec<Row> = self
            .state
            .db
            .fetch_all(
                &format!(
                    "SELECT n.note_id, n.name, n.preview, n.snippet_link, b.name AS notebook_name FROM notes_view n \
                     JOIN notebooks_view b ON b.notebook_id = n.notebook_id AND b.user_id = n.user_id \
                     WHERE n.user_id = $1 AND n.note_id IN ({})",
                    placeholders.join(", ")
                ),
                args,
            )
            .await
            .map_err(|e| AssistantError::Internal(format!("reading cited notes: {e}")))?;
        Ok(rows
            .into_iter()
            .map(|row| {
                let title = match row.name.trim() {
                    "" => row.preview.lines().next().unwrap_or_default().to_string(),
                    name => name.to_string(),
                };
                let doc = CitedDocument {
                    mime_type: None,
                    has_file: false,
                    link: row.snippet_link.filter(|l| l.starts_with("http://") || l.starts_with("https://")),
                    title,
                    source_label: row.notebook_name,
                    note_id: Some(row.note_id.clone()),
                };
                (search::follow::note_deeplink(&row.note_id), doc)
            })
            .collect())
    }

    /// Fills the citation fields only the API knows: the access key, the channel, the MIME type,
    /// the original link, the source's name, and the link that opens the citation.
    async fn fill_citations(&self, data: &mut Value) -> Result<(), AssistantError> {
        let deeplinks: Vec<String> = data["retrieved_results"]
            .as_array()
            .map(|r| r.iter().filter_map(|c| c["document_id"].as_str().map(str::to_string)).collect())
            .unwrap_or_default();
        let refs: Vec<&str> = deeplinks.iter().map(String::as_str).collect();
        let documents = self.documents(&refs).await?;
        if let Some(citations) = data["retrieved_results"].as_array_mut() {
            for citation in citations {
                let Some(doc) = citation["document_id"].as_str().and_then(|d| documents.get(d)) else { continue };
                let (deeplink, source) = doc.cited_as(
                    citation["document_id"].as_str().unwrap_or_default(),
                    citation["source"].as_str().unwrap_or_default(),
                );
                citation["document_id"] = json!(deeplink);
                citation["source"] = json!(source);
                citation["access_key"] = json!(self.state.access.key(Purpose::Access, &deeplink));
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

/// What a citation needs of its document.
struct CitedDocument {
    mime_type: Option<String>,
    /// An uploaded file, which the preview opens.
    has_file: bool,
    /// The original's web address.
    link: Option<String>,
    title: String,
    source_label: String,
    /// A note's id: the note is cited as the preview opens it, `needl_notebooks` and its id,
    /// rather than by its index deeplink.
    note_id: Option<String>,
}

impl CitedDocument {
    /// The `document_id` and `source` a citation of this document carries.
    fn cited_as(&self, deeplink: &str, source: &str) -> (String, String) {
        match &self.note_id {
            Some(note_id) => (note_id.clone(), NOTES_SOURCE.to_string()),
            None => (deeplink.to_string(), source.to_string()),
        }
    }
}

/// The link that opens a citation: `/redirect?...` for a web page of the public corpus,
/// `/preview?...` for a document, with the spec's parameters.
fn citation_link(citation: &Value, web: bool) -> String {
    let text = |key: &str| match &citation[key] {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    let mut query = url::form_urlencoded::Serializer::new(String::new());
    let (path, keys): (&str, &[&str]) = match citation["url"].as_str() {
        Some(link) if web => {
            query.append_pair("link", link);
            ("/redirect", &["title_label", "source_label", "unix", "content_only", "highlight_indexes", "context"])
        }
        _ => (
            "/preview",
            &[
                "document_id",
                "access_key",
                "source",
                "category_tab",
                "channel_id",
                "mime_type",
                "document_highlight",
                "title_label",
                "source_label",
                "unix",
                "content_only",
                "highlight_indexes",
                "context",
            ],
        ),
    };
    for key in keys {
        query.append_pair(key, &text(key));
    }
    format!("{path}?{}", query.finish())
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
    response.headers_mut().insert(axum::http::header::CACHE_CONTROL, axum::http::HeaderValue::from_static("no-store"));
    Ok(response)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn citations_of_documents_preview_and_web_pages_of_the_public_corpus_redirect() {
        let citation = json!({
            "document_id": "d1", "access_key": "k", "source": "rss_1", "category_tab": "rss_news",
            "channel_id": null, "mime_type": null, "document_highlight": {"page_number": 1},
            "url": "https://example.com/a", "title_label": "Steel & tariffs", "source_label": "Example",
            "unix": 1700000000, "content_only": false, "highlight_indexes": [[0, 5]], "context": "Steel rose"
        });
        let preview = citation_link(&citation, false);
        assert!(preview.starts_with("/preview?document_id=d1&access_key=k&source=rss_1"), "{preview}");
        assert!(preview.contains("title_label=Steel+%26+tariffs"), "{preview}");
        let redirect = citation_link(&citation, true);
        assert!(redirect.starts_with("/redirect?link=https%3A%2F%2Fexample.com%2Fa&title_label="), "{redirect}");
        assert!(!redirect.contains("access_key"));
    }
}
