//! The engine for any chat-completions server (a local one or a hosted one): the passages go in
//! the prompt as numbered sources, the answer streams back as server-sent events, and citations
//! and sentences are read out of it as it comes.
//!
//! The model is trusted for wording, not for facts: a citation to a source that does not exist
//! is dropped, and a sentence whose cited passages do not bear it out (too few of its words are
//! in them), or that cites nothing, labels the answer GENERATIVE.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use serde_json::{json, Value};

use crate::answer::{Answer, AnswerQuality, AnswerSentence, AnswerType, Citation, GeneratedAnswer};
use crate::compose;
use crate::engine::{AnswerEngine, Events};
use crate::error::AssistantError;
use crate::retrieve::{Retrieval, WEAK_EVIDENCE};
use crate::stream::{Citations, Cut, Lines, Piece, Sentences};
use crate::text::Terms;

/// Where the chat-completions server is and how to talk to it.
#[derive(Debug, Clone)]
pub struct OpenAiConfig {
    /// The API's base URL as OpenAI clients take it, e.g. `http://localhost:11434/v1`;
    /// `/chat/completions` is appended.
    pub base_url: String,
    pub model: String,
    /// Sent as a bearer token when set (local servers usually need none).
    pub api_key: Option<String>,
    /// Low: the answer should restate its sources, not improvise.
    pub temperature: f32,
    pub connect_timeout: Duration,
    /// Longest wait for the next piece of the stream (a model loading from disk can take a while
    /// for the first one).
    pub idle_timeout: Duration,
    /// Each passage is cut to this many characters in the prompt.
    pub passage_chars: usize,
}

impl OpenAiConfig {
    pub fn new(base_url: impl Into<String>, model: impl Into<String>) -> OpenAiConfig {
        OpenAiConfig {
            base_url: base_url.into(),
            model: model.into(),
            api_key: None,
            temperature: 0.1,
            connect_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(120),
            passage_chars: 1500,
        }
    }
}

/// A sentence is borne out by the passages it cites when at least this share of its terms
/// (stemmed, stop words out, as the index analyses text) appear in them. A faithful paraphrase
/// keeps most of its source's names, numbers and content words ("Tata Steel's revenue grew in
/// the quarter" against "Tata Steel reported quarterly results with revenue growth": 4 of 6);
/// a claim from elsewhere shares few of them (a wrong number or name counts against it).
pub const SUPPORT_THRESHOLD: f32 = 0.5;
/// Sentences with fewer terms than this ("In short:", "Here is what I found") are connective
/// text, not claims, and are not judged.
pub const JUDGED_TERMS: usize = 3;

const SYSTEM_PROMPT: &str = "You answer questions using only the numbered sources you are given. \
After every sentence, cite the sources that support it by number in square brackets, like [1] or [1][3]. \
Do not use knowledge beyond the sources; if they do not answer the question, say so briefly. \
Answer in markdown; for a list or a comparison, use a short heading and bullet points. \
Do not repeat the sources' titles as citations and do not add a list of references.";

/// Answers through a chat-completions server.
pub struct OpenAiCompatibleEngine {
    config: OpenAiConfig,
    client: reqwest::Client,
}

impl OpenAiCompatibleEngine {
    pub fn new(config: OpenAiConfig) -> Result<OpenAiCompatibleEngine, AssistantError> {
        let client = reqwest::Client::builder()
            .connect_timeout(config.connect_timeout)
            .build()
            .map_err(|e| AssistantError::Internal(format!("building the http client: {e}")))?;
        Ok(OpenAiCompatibleEngine { config, client })
    }

    fn endpoint(&self) -> String {
        format!("{}/chat/completions", self.config.base_url.trim_end_matches('/'))
    }

    /// The sources and the question as one user message.
    fn prompt(&self, retrieval: &Retrieval) -> String {
        let mut out = String::from("Sources:\n\n");
        for p in &retrieval.passages {
            let text: String = p.text.chars().take(self.config.passage_chars).collect();
            let title = if p.title.is_empty() { p.source_id.as_str() } else { p.title.as_str() };
            out.push_str(&format!("[{}] {} (page {})\n{}\n\n", p.number, title, p.page, text.trim()));
        }
        out.push_str(&format!("Question: {}", retrieval.question.trim()));
        out
    }

    async fn send(&self, retrieval: &Retrieval) -> Result<reqwest::Response, AssistantError> {
        let url = self.endpoint();
        let body = json!({
            "model": self.config.model,
            "stream": true,
            "temperature": self.config.temperature,
            "messages": [
                {"role": "system", "content": SYSTEM_PROMPT},
                {"role": "user", "content": self.prompt(retrieval)},
            ],
        });
        let mut request = self
            .client
            .post(&url)
            .header("content-type", "application/json")
            .header("accept", "text/event-stream")
            .body(body.to_string());
        if let Some(key) = &self.config.api_key {
            request = request.bearer_auth(key);
        }
        let response = tokio::time::timeout(self.config.idle_timeout, request.send())
            .await
            .map_err(|_| AssistantError::Stalled(self.config.idle_timeout.as_secs()))?
            .map_err(|e| AssistantError::Unreachable { url: url.clone(), reason: reason(&e) })?;
        let status = response.status();
        if !status.is_success() {
            let text = tokio::time::timeout(self.config.idle_timeout, response.text()).await.ok().and_then(Result::ok);
            return Err(AssistantError::Status { status: status.as_u16(), message: error_message(text.as_deref()) });
        }
        Ok(response)
    }
}

#[async_trait]
impl AnswerEngine for OpenAiCompatibleEngine {
    fn model(&self) -> Option<&str> {
        Some(&self.config.model)
    }

    async fn answer(&self, retrieval: Arc<Retrieval>, pro: bool, events: &Events) -> Result<Answer, AssistantError> {
        if retrieval.passages.is_empty() {
            // Nothing to answer from: a model would answer from memory.
            return Ok(crate::extractive::compose(&retrieval, pro));
        }
        events.step(format!("Writing the answer with {}", self.config.model)).await?;
        let mut response = self.send(&retrieval).await?;
        let json_body = response
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("application/json"));
        let mut reader = Reader::new(retrieval.passages.len() as u32);
        if json_body {
            // A server that ignores `stream: true` answers with one completion.
            let text = tokio::time::timeout(self.config.idle_timeout, response.text())
                .await
                .map_err(|_| AssistantError::Stalled(self.config.idle_timeout.as_secs()))?
                .map_err(|e| AssistantError::Malformed(format!("the body broke off: {}", reason(&e))))?;
            let value: Value = serde_json::from_str(&text).map_err(|e| AssistantError::Malformed(e.to_string()))?;
            let content = value["choices"][0]["message"]["content"]
                .as_str()
                .ok_or_else(|| AssistantError::Malformed("a completion without message content".into()))?;
            reader.delta(content, events).await?;
        } else {
            let mut lines = Lines::default();
            let mut done = false;
            while !done {
                let chunk = tokio::time::timeout(self.config.idle_timeout, response.chunk())
                    .await
                    .map_err(|_| AssistantError::Stalled(self.config.idle_timeout.as_secs()))?
                    .map_err(|e| AssistantError::Malformed(format!("the stream broke off: {}", reason(&e))))?;
                let got = match chunk {
                    Some(bytes) => lines.push(&bytes).map_err(AssistantError::Malformed)?,
                    None => {
                        done = true;
                        lines.finish().map_err(AssistantError::Malformed)?.into_iter().collect()
                    }
                };
                for line in got {
                    if reader.line(&line, events).await? {
                        done = true;
                        break;
                    }
                }
            }
            if !reader.finished && reader.received == 0 {
                return Err(AssistantError::Malformed("the stream ended without an answer".into()));
            }
        }
        reader.finish(events).await?;
        // Checking every sentence against its passages is analysis work: off the runtime.
        tokio::task::spawn_blocking(move || reader.into_answer(&retrieval, pro))
            .await
            .map_err(|e| AssistantError::Internal(format!("checking the answer failed: {e}")))
    }
}

/// The support check: whether a generated sentence is borne out by the passages it cites, judged
/// by the share of its terms found in them ([`SUPPORT_THRESHOLD`]). AskNeedl labels an answer by
/// it; reports drop the sentences it does not pass.
pub struct SupportCheck {
    terms: Terms,
    /// The terms of each passage, `passages[n - 1]` being source `[n]`'s.
    passages: Vec<HashSet<String>>,
    /// The text of each passage, for computed sentences' inputs.
    texts: Vec<String>,
}

impl SupportCheck {
    /// Analyses the retrieved passages once, for every sentence to come.
    pub fn new(retrieval: &Retrieval) -> SupportCheck {
        let mut terms = Terms::default();
        let passages = retrieval.passages.iter().map(|p| terms.of(&p.text).into_iter().collect()).collect();
        let texts = retrieval.passages.iter().map(|p| p.text.clone()).collect();
        SupportCheck { terms, passages, texts }
    }

    /// Whether an answer sentence passes: a computed one ([`AnswerSentence::computed`]) when its
    /// inputs are written in the passages it cites and its value follows from them; any other as
    /// [`passes`](Self::passes) judges its words.
    pub fn check(&mut self, sentence: &AnswerSentence) -> bool {
        match &sentence.computed {
            Some(computation) => {
                let texts: Vec<&str> = self.texts.iter().map(String::as_str).collect();
                let cites_inputs = computation.inputs.iter().all(|i| sentence.citations.contains(&i.citation));
                cites_inputs && computation.holds(&texts)
            }
            None => self.passes(&sentence.sentence, &sentence.citations),
        }
    }

    /// The share of the sentence's terms its cited passages hold, or `None` for a sentence too
    /// short to be a claim (fewer than [`JUDGED_TERMS`] terms). Citations to no passage count for
    /// nothing.
    pub fn support(&mut self, sentence: &str, citations: &[u32]) -> Option<f32> {
        let own: HashSet<String> = self.terms.of(sentence).into_iter().collect();
        if own.len() < JUDGED_TERMS {
            return None;
        }
        let cited: HashSet<&str> = citations
            .iter()
            .filter_map(|n| (*n as usize).checked_sub(1).and_then(|i| self.passages.get(i)))
            .flat_map(|p| p.iter().map(String::as_str))
            .collect();
        Some(own.iter().filter(|t| cited.contains(t.as_str())).count() as f32 / own.len() as f32)
    }

    /// Whether a sentence passes: it cites a passage there is, and, if it is a claim, its cited
    /// passages bear it out.
    pub fn passes(&mut self, sentence: &str, citations: &[u32]) -> bool {
        let known = citations.iter().any(|n| (1..=self.passages.len() as u32).contains(n));
        known && self.support(sentence, citations).is_none_or(|held| held >= SUPPORT_THRESHOLD)
    }
}

/// The state of one streamed answer.
struct Reader {
    sources: u32,
    citations: Citations,
    sentences: Sentences,
    cuts: Vec<Cut>,
    markdown: String,
    /// Data events read, and whether `[DONE]` came.
    received: usize,
    finished: bool,
    dropped: Vec<u32>,
}

impl Reader {
    fn new(sources: u32) -> Reader {
        Reader {
            sources,
            citations: Citations::default(),
            sentences: Sentences::default(),
            cuts: vec![],
            markdown: String::new(),
            received: 0,
            finished: false,
            dropped: vec![],
        }
    }

    /// Reads one line of the event stream. Returns whether the stream is done.
    async fn line(&mut self, line: &str, events: &Events) -> Result<bool, AssistantError> {
        let Some(data) = line.strip_prefix("data:") else {
            // Blank separators, comments (`: keep-alive`), `event:` and `id:` lines.
            return Ok(false);
        };
        let data = data.trim();
        if data == "[DONE]" {
            self.finished = true;
            return Ok(true);
        }
        let value: Value = serde_json::from_str(data)
            .map_err(|e| AssistantError::Malformed(format!("a chunk is not JSON ({e}): {}", clip(data, 120))))?;
        if let Some(error) = value.get("error") {
            let message = error["message"].as_str().map(str::to_string).unwrap_or_else(|| error.to_string());
            return Err(AssistantError::Status { status: 200, message: clip(&message, 300) });
        }
        let Some(choices) = value.get("choices").and_then(Value::as_array) else {
            return Err(AssistantError::Malformed(format!("a chunk without choices: {}", clip(data, 120))));
        };
        self.received += 1;
        if let Some(content) = choices.first().and_then(|c| c["delta"]["content"].as_str()) {
            self.delta(content, events).await?;
        }
        Ok(false)
    }

    /// Takes in a piece of generated text: its citations read, its sentences cut, and the text
    /// sent on as a chunk with valid citations only.
    async fn delta(&mut self, content: &str, events: &Events) -> Result<(), AssistantError> {
        let pieces = self.citations.push(content);
        self.take(pieces, events).await
    }

    async fn finish(&mut self, events: &Events) -> Result<(), AssistantError> {
        let pieces = self.citations.finish();
        self.take(pieces, events).await?;
        let rest = self.sentences.finish();
        self.cuts.extend(rest);
        if !self.dropped.is_empty() {
            tracing::info!(dropped = ?self.dropped, sources = self.sources, "citations to no source dropped");
        }
        Ok(())
    }

    async fn take(&mut self, pieces: Vec<Piece>, events: &Events) -> Result<(), AssistantError> {
        let mut chunk = String::new();
        for piece in pieces {
            match piece {
                Piece::Text(text) => {
                    chunk.push_str(&text);
                    let cuts = self.sentences.text(&text);
                    self.cuts.extend(cuts);
                }
                Piece::Cite(numbers) => {
                    let (valid, unknown): (Vec<u32>, Vec<u32>) =
                        numbers.into_iter().partition(|n| (1..=self.sources).contains(n));
                    self.dropped.extend(unknown);
                    if !valid.is_empty() {
                        chunk.push_str(&compose::marks(&valid));
                        let cuts = self.sentences.cite(valid);
                        self.cuts.extend(cuts);
                    }
                }
            }
        }
        if !chunk.is_empty() {
            self.markdown.push_str(&chunk);
            events.chunk(chunk).await?;
        }
        Ok(())
    }

    fn into_answer(self, retrieval: &Retrieval, pro: bool) -> Answer {
        let mut check = SupportCheck::new(retrieval);
        let claims: Vec<&Cut> = self.cuts.iter().filter(|c| !c.heading).collect();
        let mut unsupported = 0;
        for cut in &claims {
            if let Some(held) = check.support(&cut.text, &cut.citations) {
                if held < SUPPORT_THRESHOLD {
                    tracing::debug!(sentence = %cut.text, support = held, "sentence not borne out by its citations");
                    unsupported += 1;
                }
            }
        }
        let cited_any = claims.iter().any(|c| !c.citations.is_empty());
        let quality = if unsupported > 0 || !cited_any {
            AnswerQuality::Generative
        } else if retrieval.coverage < WEAK_EVIDENCE {
            AnswerQuality::Low
        } else {
            AnswerQuality::High
        };
        let cited: HashSet<u32> = claims.iter().flat_map(|c| c.citations.iter().copied()).collect();
        Answer {
            answer_type: AnswerType::Answer,
            generated_answer: GeneratedAnswer {
                answer: self.markdown.trim().to_string(),
                sentences: claims.iter().map(|c| AnswerSentence::quoted(c.text.clone(), c.citations.clone())).collect(),
                unknown_citations: self.dropped.len(),
            },
            retrieved_results: retrieval.passages.iter().map(|p| Citation::of(p, vec![])).collect(),
            followup_questions: compose::followups(retrieval, &cited, 3),
            answer_quality: quality,
            answer_quality_message: quality.message().map(str::to_string),
            pro,
        }
    }
}

/// An error and its causes in one line ("error sending request: connection refused").
fn reason(error: &dyn std::error::Error) -> String {
    let mut out = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        out.push_str(": ");
        out.push_str(&cause.to_string());
        source = cause.source();
    }
    out
}

/// The message of an error body (`{"error": {"message": ...}}` or plain text), short.
fn error_message(body: Option<&str>) -> String {
    let Some(body) = body.map(str::trim).filter(|b| !b.is_empty()) else {
        return "no message".into();
    };
    let parsed = serde_json::from_str::<Value>(body).ok();
    let message = parsed
        .as_ref()
        .and_then(|v| v["error"]["message"].as_str().or_else(|| v["error"].as_str()).or_else(|| v["message"].as_str()))
        .unwrap_or(body);
    clip(message, 300)
}

fn clip(text: &str, chars: usize) -> String {
    if text.chars().count() <= chars {
        text.to_string()
    } else {
        format!("{}\u{2026}", text.chars().take(chars).collect::<String>())
    }
}
