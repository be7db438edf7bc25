//! A question: the request, the checks it passes before anything is recorded, and the start of
//! the turn that answers it.

use domain::ask::{AskCommand, AskScope};
use domain::DomainError;
use serde::{Deserialize, Deserializer};
use tokio::sync::{mpsc, watch};

use super::nonempty;
use super::scope::resolve;
use super::sessions::{owns_session, session_not_found};
use super::turn::{Frame, Turn};
use crate::context::Context;
use crate::error::{Error, Result};
use crate::policy::require_flag;
use crate::viewer::Viewer;
use assistant::{Question, Scope};
use search::Access;

/// Frames held for a slow listener.
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

#[derive(Debug, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
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
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<String>))]
    pub document_id: Vec<String>,
    /// A feed (board) to ask over; `home` is everything.
    pub board_id: Option<String>,
    /// A channel to ask over: its shared documents.
    pub channel_id: Option<String>,
    /// `ask` (the default) or `search`: matching documents with highlighted passages.
    pub mode: Option<String>,
    /// The web-search toggle: the same as `source=needl_universe`.
    pub web_search: Option<bool>,
    /// Report chat: the question is asked over this report's files (and its feed's documents),
    /// answered with `report_chat: true` and saved as no session. Another user's report answers
    /// 404.
    pub report_id: Option<String>,
}

/// A turn that is being answered: its ids, known before the answer is, and its frames.
pub struct Started {
    pub session_id: String,
    pub message_id: String,
    /// Steps and answer chunks, then the answer data or an error. Dropping it stops the turn.
    pub frames: mpsc::Receiver<Frame>,
}

/// Checks the question, records it (in the body's session, or a new one) and starts answering it
/// in its own task. Nothing is recorded when the question is refused. The turn ends as stopped
/// when `shutdown` turns true.
pub async fn ask(ctx: &Context, viewer: &Viewer, body: &AskBody, shutdown: watch::Receiver<bool>) -> Result<Started> {
    let prompt = domain::ask::valid_prompt(body.prompt.as_deref().unwrap_or_default())
        .map_err(|e| Error::invalid(e.code(), e.to_string()))?;
    let search_mode = match body.mode.as_deref().map(str::trim).unwrap_or("ask") {
        "" | "ask" => false,
        "search" => true,
        other => return Err(Error::malformed("unknown_mode", format!("Unknown mode {other}: use ask or search."))),
    };
    if let Some(zone) = nonempty(body.timezone.as_deref()) {
        zone.parse::<chrono_tz::Tz>()
            .map_err(|_| Error::malformed("unknown_timezone", format!("Unknown time zone {zone}.")))?;
    }
    let pro = body.pro.unwrap_or(false);
    if pro {
        require_flag(ctx, viewer, "ask_needl_pro", "pro mode is turned off for you").await?;
    }
    if let Some(report_id) = nonempty(body.report_id.as_deref()) {
        let question = Question { text: prompt, scope: Scope::Documents(vec![]), access: Access::Public, pro };
        return report_chat(ctx, viewer, report_id, question, search_mode, shutdown).await;
    }
    let resolved = resolve(ctx, viewer, body).await?;
    let session_id = match nonempty(body.session_id.as_deref()) {
        Some(id) => {
            if !owns_session(ctx, &viewer.user_id, id).await? {
                return Err(session_not_found());
            }
            id.to_string()
        }
        None => uuid::Uuid::now_v7().to_string(),
    };
    let message_id = uuid::Uuid::now_v7().to_string();
    let web = resolved.scope == AskScope::NeedlUniverse;
    let command = AskCommand::Ask {
        user_id: viewer.user_id.clone(),
        session_id: session_id.clone(),
        message_id: message_id.clone(),
        prompt: prompt.clone(),
        scope: resolved.scope,
        pro,
        web_search: web,
        search_mode,
        at: chrono::Utc::now(),
    };
    ctx.command(&ctx.bus.ask_sessions, &session_id, command, &viewer.metadata()).await?;
    // The question is recorded: a turn running in this session was stopped by it.
    let stop = ctx.asks.start(&session_id, &message_id);
    let (tx, frames) = mpsc::channel(FRAME_BUFFER);
    let turn = Turn {
        ctx: ctx.clone(),
        viewer: viewer.clone(),
        session_id: session_id.clone(),
        message_id: message_id.clone(),
        question: Question { text: prompt, scope: resolved.search_scope, access: resolved.access, pro },
        web,
        channel_id: resolved.channel_id,
        search_mode,
        report_id: None,
    };
    tokio::spawn(turn.run(tx, stop, shutdown));
    Ok(Started { session_id, message_id, frames })
}

/// A question over one of the viewer's reports (report chat): answered over the report's
/// documents only, and recorded nowhere, so it makes no session. `session_id` of the answer is
/// empty.
async fn report_chat(
    ctx: &Context,
    viewer: &Viewer,
    report_id: &str,
    mut question: Question,
    search_mode: bool,
    shutdown: watch::Receiver<bool>,
) -> Result<Started> {
    let deeplinks = crate::reports::chat::documents(ctx, viewer, report_id).await?;
    question.scope = Scope::Documents(deeplinks.clone());
    question.access = Access::Documents(deeplinks);
    let message_id = uuid::Uuid::now_v7().to_string();
    // Running asks are keyed by session; a report chat's turn is its own.
    let key = format!("report:{report_id}:{message_id}");
    let stop = ctx.asks.start(&key, &message_id);
    let (tx, frames) = mpsc::channel(FRAME_BUFFER);
    let turn = Turn {
        ctx: ctx.clone(),
        viewer: viewer.clone(),
        session_id: key,
        message_id: message_id.clone(),
        question,
        web: false,
        channel_id: None,
        search_mode,
        report_id: Some(report_id.to_string()),
    };
    tokio::spawn(turn.run(tx, stop, shutdown));
    Ok(Started { session_id: String::new(), message_id, frames })
}
