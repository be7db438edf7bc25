//! The model server AskNeedl (and reports) write with, as administrators set it.
//!
//! The `--assistant-url`, `--assistant-model` and `--assistant-key` flags give the start value.
//! Once an administrator saves a setting (an `AssistantConfigured` event on the instance), theirs
//! wins over the flags, on every node and without a restart: [`AssistantSlot::current`] reads
//! the one-row setting each time it is asked for the assistant and rebuilds the engine only when
//! the setting changed. No URL means the offline engine, which quotes the sources' own sentences.
//!
//! The key is kept in the event store and the instance's read model (both in the private data
//! directory, or the operator's database) and is never sent back: clients see only whether one
//! is set, and the audit log shows it redacted.
//!
//! The connection check ([`check`]) sends one tiny chat-completions request to an address an
//! administrator typed. It is not put through the fetcher's address guard: a model server on
//! `localhost` or the local network is the usual case, and only administrators, who choose what
//! the server talks to anyway, may ask. It is bounded instead: http(s) only, no credentials in the
//! address, no redirects followed, a short timeout, and nothing of the answer repeated but its
//! status and the `error.message` a chat-completions server gives (cut short).

use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use assistant::Assistant;
use commands::{args, Db};
use domain::instance::{InstanceCommand, KeyChange, INSTANCE_ID};
use serde::{Deserialize, Serialize};

use crate::ask::EngineConfig;
use crate::context::Context;
use crate::error::{Error, Result};
use crate::viewer::Viewer;

/// Longest model server address, model name and key accepted.
const MAX_URL: usize = 2000;
const MAX_MODEL: usize = 200;
const MAX_KEY: usize = 4096;
/// How long the connection check waits, in all.
pub const CHECK_TIMEOUT: Duration = Duration::from_secs(15);

#[derive(sqlx::FromRow)]
struct SavedRow {
    url: Option<String>,
    model: String,
    api_key: Option<String>,
    updated_at: String,
}

async fn saved(db: &Db) -> Result<Option<SavedRow>> {
    Ok(db
        .fetch_optional(
            "SELECT url, model, api_key, updated_at FROM instance_settings_view WHERE id = $1",
            args![projections::instance::ASSISTANT_SETTING],
        )
        .await?)
}

impl From<SavedRow> for EngineConfig {
    fn from(row: SavedRow) -> Self {
        EngineConfig { url: row.url, model: row.model, key: row.api_key }
    }
}

/// The assistant answers run through, following the setting.
pub struct AssistantSlot {
    index: Arc<search::SearchIndex>,
    /// The documents' embeddings every assistant of the slot ranks with, when the server has them.
    similarity: Option<Arc<dyn search::Similarity>>,
    /// The flags' setting, used until an administrator saves one.
    pub(crate) start: EngineConfig,
    current: RwLock<(EngineConfig, Assistant)>,
}

impl AssistantSlot {
    /// The slot over `index`, starting with the flags' `start` setting; its assistants rank
    /// documents with `similarity` when given.
    pub fn new(
        start: EngineConfig,
        index: Arc<search::SearchIndex>,
        similarity: Option<Arc<dyn search::Similarity>>,
    ) -> anyhow::Result<AssistantSlot> {
        let assistant = crate::ask::assistant(&start, index.clone())?.with_similarity(similarity.clone());
        Ok(AssistantSlot { index, similarity, current: RwLock::new((start.clone(), assistant)), start })
    }

    /// The setting in force: the saved one, else the flags'.
    async fn effective(&self, db: &Db) -> EngineConfig {
        match saved(db).await {
            Ok(Some(row)) => row.into(),
            Ok(None) => self.start.clone(),
            Err(error) => {
                tracing::warn!(%error, "could not read the model server setting; keeping the current one");
                self.current.read().expect("assistant slot").0.clone()
            }
        }
    }

    /// The assistant as the setting now stands (rebuilt when it changed since the last call).
    pub async fn current(&self, db: &Db) -> Assistant {
        let config = self.effective(db).await;
        {
            let current = self.current.read().expect("assistant slot");
            if current.0 == config {
                return current.1.clone();
            }
        }
        let assistant = match crate::ask::assistant(&config, self.index.clone()) {
            Ok(assistant) => assistant,
            Err(error) => {
                tracing::warn!(error = %format!("{error:#}"), "the model server setting cannot be used; quoting sources");
                Assistant::new(self.index.clone(), Arc::new(assistant::ExtractiveEngine))
            }
        }
        .with_similarity(self.similarity.clone());
        *self.current.write().expect("assistant slot") = (config, assistant.clone());
        assistant
    }
}

/// Which kind of answers AskNeedl gives now, for the panel to say so.
#[derive(Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AssistantMode {
    /// `model`: written by a language model from the sources; `quoted`: composed of the
    /// sources' own sentences (no model is configured).
    pub mode: String,
    /// The model that writes answers, in `model` mode.
    pub model: Option<String>,
    /// Whether the viewer may change the setting (administrators).
    pub can_configure: bool,
}

/// Which kind of answers AskNeedl gives now.
pub async fn mode(ctx: &Context, viewer: &Viewer) -> Result<AssistantMode> {
    let assistant = ctx.assistant.current(&ctx.db).await;
    let model = assistant.engine().model().map(str::to_string);
    Ok(AssistantMode {
        mode: if model.is_some() { "model" } else { "quoted" }.to_string(),
        model,
        can_configure: viewer.is_admin,
    })
}

/// The setting as administrators see it: never the key, only whether one is set.
#[derive(Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AssistantSettings {
    /// `saved` (an administrator's, which wins) or `flags` (the server's start value).
    pub origin: String,
    /// The chat-completions base URL; null: answers are quoted from the sources.
    pub url: Option<String>,
    pub model: String,
    pub key_set: bool,
    /// When an administrator last saved it.
    pub updated_at: Option<String>,
}

/// The model server setting in force.
pub async fn settings(ctx: &Context, viewer: &Viewer) -> Result<AssistantSettings> {
    viewer.require_admin()?;
    Ok(match saved(&ctx.db).await? {
        Some(row) => AssistantSettings {
            origin: "saved".into(),
            url: row.url,
            model: row.model,
            key_set: row.api_key.is_some(),
            updated_at: Some(row.updated_at),
        },
        None => {
            let start = &ctx.assistant.start;
            AssistantSettings {
                origin: "flags".into(),
                url: start.url.clone().filter(|u| !u.trim().is_empty()),
                model: start.model.clone(),
                key_set: start.key.as_deref().is_some_and(|k| !k.is_empty()),
                updated_at: None,
            }
        }
    })
}

/// A change of the setting (or the values to check).
#[derive(Debug, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct AssistantChange {
    /// The chat-completions base URL, e.g. `http://localhost:11434/v1`; empty or null: no model,
    /// answers are quoted from the sources.
    pub url: Option<String>,
    /// The model's name on that server; needed with a URL.
    #[serde(default)]
    pub model: String,
    /// A new key; absent or null keeps the key that is set.
    pub key: Option<String>,
    /// Removes the key that is set.
    #[serde(default)]
    pub clear_key: bool,
}

/// A change checked: the URL (or none), the model, and what happens to the key.
struct Checked {
    url: Option<String>,
    model: String,
    key: KeyChange,
}

/// Checks a model server address: http(s), a host, no user name or password.
fn check_url(raw: &str) -> Result<String> {
    let raw = raw.trim();
    if raw.len() > MAX_URL {
        return Err(Error::invalid("invalid_url", "the model server address is too long"));
    }
    let url = url::Url::parse(raw)
        .map_err(|_| Error::invalid("invalid_url", "the model server address must be a valid URL"))?;
    if !matches!(url.scheme(), "http" | "https") || url.host_str().is_none() {
        return Err(Error::invalid("invalid_url", "the model server address must start with http:// or https://"));
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(Error::invalid(
            "credentials_in_url",
            "the address must not contain a user name or password; put a key in the key field",
        ));
    }
    Ok(raw.trim_end_matches('/').to_string())
}

fn check_change(change: AssistantChange) -> Result<Checked> {
    let url = change.url.as_deref().map(str::trim).filter(|u| !u.is_empty()).map(check_url).transpose()?;
    let model = change.model.trim().to_string();
    if url.is_some() && model.is_empty() {
        return Err(Error::invalid("model_required", "name the model the server should answer with"));
    }
    if model.chars().count() > MAX_MODEL || model.chars().any(char::is_control) {
        return Err(Error::invalid("invalid_model", "a model name has at most 200 characters, on one line"));
    }
    let key = match (change.key.map(|k| k.trim().to_string()).filter(|k| !k.is_empty()), change.clear_key) {
        (Some(_), true) => return Err(Error::invalid("invalid_key", "give a new key or clear it, not both")),
        (Some(key), false) if key.len() > MAX_KEY || key.chars().any(char::is_control) => {
            return Err(Error::invalid("invalid_key", "the key is too long or has line breaks"))
        }
        (Some(key), false) => KeyChange::Set(key),
        (None, true) => KeyChange::Clear,
        (None, false) => KeyChange::Keep,
    };
    Ok(Checked { url, model, key })
}

/// Saves the model server setting (administrators only); answers use it from the next question.
pub async fn configure(ctx: &Context, viewer: &Viewer, change: AssistantChange) -> Result<AssistantSettings> {
    viewer.require_admin()?;
    let Checked { url, model, key } = check_change(change)?;
    // Saved for the first time with "keep the key": the key in force (the flags') is kept.
    let key = match (key, saved(&ctx.db).await?) {
        (KeyChange::Keep, None) => {
            ctx.assistant.start.key.clone().filter(|k| !k.is_empty()).map(KeyChange::Set).unwrap_or(KeyChange::Keep)
        }
        (key, _) => key,
    };
    ctx.command(
        &ctx.bus.instance,
        INSTANCE_ID,
        InstanceCommand::ConfigureAssistant { by: viewer.user_id.clone(), url, model, key },
        &viewer.metadata(),
    )
    .await?;
    settings(ctx, viewer).await
}

/// What the connection check found.
#[derive(Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CheckResult {
    /// Whether the server answered a chat completion with the model.
    pub ok: bool,
    /// What happened, for the administrator.
    pub message: String,
    /// How long the answer took, when there was one.
    pub elapsed_ms: Option<u64>,
}

/// Sends one tiny chat-completions request to the given server and model (with the given key,
/// else the one in force) and says how it went. Administrators only.
pub async fn check(ctx: &Context, viewer: &Viewer, change: AssistantChange) -> Result<CheckResult> {
    viewer.require_admin()?;
    let Checked { url, model, key } = check_change(change)?;
    let Some(url) = url else {
        return Err(Error::invalid("url_required", "enter the model server's address to check it"));
    };
    let key = match key {
        KeyChange::Set(key) => Some(key),
        KeyChange::Clear => None,
        KeyChange::Keep => match saved(&ctx.db).await? {
            Some(row) => row.api_key,
            None => ctx.assistant.start.key.clone().filter(|k| !k.is_empty()),
        },
    };
    Ok(probe(&url, &model, key.as_deref()).await)
}

/// The check itself: one non-streamed completion of at most one token.
async fn probe(base: &str, model: &str, key: Option<&str>) -> CheckResult {
    let client = match reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .connect_timeout(Duration::from_secs(5))
        .timeout(CHECK_TIMEOUT)
        .build()
    {
        Ok(client) => client,
        Err(error) => return failed(format!("the check could not start: {error}")),
    };
    let endpoint = format!("{base}/chat/completions");
    let body = serde_json::json!({
        "model": model,
        "stream": false,
        "max_tokens": 1,
        "messages": [{"role": "user", "content": "Reply with OK."}],
    });
    let mut request = client.post(&endpoint).json(&body);
    if let Some(key) = key {
        request = request.bearer_auth(key);
    }
    let started = Instant::now();
    let response = match request.send().await {
        Ok(response) => response,
        Err(error) if error.is_timeout() => {
            return failed(format!("{base} did not answer within {} seconds", CHECK_TIMEOUT.as_secs()))
        }
        Err(error) if error.is_connect() => return failed(format!("could not connect to {base}: {}", cause(&error))),
        Err(error) => return failed(format!("could not reach {base}: {}", cause(&error))),
    };
    let status = response.status();
    let elapsed_ms = Some(started.elapsed().as_millis() as u64);
    let text = response.text().await.unwrap_or_default();
    let json: Option<serde_json::Value> = serde_json::from_str(&text).ok();
    let said = json
        .as_ref()
        .and_then(|v| v["error"]["message"].as_str().or(v["error"].as_str()))
        .map(|m| m.chars().take(200).collect::<String>());
    let message = |what: String| match &said {
        Some(said) => format!("{what}: {said}"),
        None => what,
    };
    let result = |ok, message| CheckResult { ok, message, elapsed_ms };
    if status.is_redirection() {
        return result(false, format!("{base} redirects elsewhere ({status}); enter the address it redirects to"));
    }
    if status == reqwest::StatusCode::UNAUTHORIZED || status == reqwest::StatusCode::FORBIDDEN {
        return result(false, message(format!("the server refused the key ({})", status.as_u16())));
    }
    if status == reqwest::StatusCode::NOT_FOUND {
        return result(
            false,
            message(format!(
                "no chat-completions answer at {endpoint} (404): check the address (it often ends in /v1) and the model"
            )),
        );
    }
    if !status.is_success() {
        return result(false, message(format!("the server answered {}", status.as_u16())));
    }
    match json {
        Some(v) if v["choices"].is_array() => {
            result(true, format!("{model} answered in {} ms", elapsed_ms.unwrap_or_default()))
        }
        _ => result(false, format!("{base} answered, but not as a chat-completions server")),
    }
}

fn failed(message: String) -> CheckResult {
    CheckResult { ok: false, message, elapsed_ms: None }
}

/// The innermost cause of an error (e.g. "Connection refused"), without the request's URL again.
fn cause(error: &(dyn std::error::Error + 'static)) -> String {
    let mut inner: &dyn std::error::Error = error;
    while let Some(next) = inner.source() {
        inner = next;
    }
    inner.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn change(url: &str, model: &str) -> AssistantChange {
        AssistantChange { url: Some(url.into()), model: model.into(), key: None, clear_key: false }
    }

    #[test]
    fn only_http_model_servers_without_credentials_are_taken() {
        assert!(check_change(change("http://localhost:11434/v1/", "llama3.1")).is_ok());
        assert_eq!(
            check_change(change("http://localhost:11434/v1/", "m")).unwrap().url.unwrap(),
            "http://localhost:11434/v1"
        );
        assert_eq!(check_change(change("file:///etc/passwd", "m")).err().unwrap().code, "invalid_url");
        assert_eq!(check_change(change("gopher://x", "m")).err().unwrap().code, "invalid_url");
        assert_eq!(check_change(change("https://u:p@example.com/v1", "m")).err().unwrap().code, "credentials_in_url");
        assert_eq!(check_change(change("http://localhost/v1", " ")).err().unwrap().code, "model_required");
    }

    #[test]
    fn no_address_means_quoting_the_sources() {
        let checked = check_change(change(" ", "")).unwrap();
        assert_eq!(checked.url, None);
        assert_eq!(checked.key, KeyChange::Keep);
    }
}
