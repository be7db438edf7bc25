//! The live socket: `GET /api/live` upgrades to a WebSocket that pushes `{cursor, type, ids}` for
//! each event the user may see, after every read model applied it, and passing messages without
//! a cursor (`{type: "report.progress", ids, ...}`) to whoever they are for while connected.
//! Administrators' and auditors' sockets are also told, coalesced, that the history grew
//! (`{type: "audit", head}`), so an open audit timeline refetches.
//!
//! A client reconnecting with `?after=CURSOR` first gets what it missed, paged from the store; the
//! connection subscribes to the hub before paging, so nothing falls between the two. A client
//! that falls behind its queue at the hub is paged from the store too, never dropped.
//!
//! A socket ends with its session: at once when the session signs out (close code 4001), and for
//! a session rotated by a token refresh, when its grace ends. The page has its new token by then
//! and reconnects with it after its cursor, so a refresh neither drops the socket mid-page nor
//! loses an event, and no socket outlives its session's grace.
//!
//! What a socket may see and when its session ends are [`service::live`]'s; this module is the
//! socket.

use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::http::{header, HeaderMap};
use axum::response::Response;
use commands::feed::Cursor;
use projections::live::{Received, Viewer};
use serde::Deserialize;
use service::input::feed_cursor;
use service::live::AUDIT_NOTICE_EVERY;
use tokio::time::Instant;
use utoipa::IntoParams;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::app::AppState;
use crate::auth::{authenticate, AuthUser, RequestMeta};
use crate::error::{ApiQuery, ApiResult, AppError, ErrorBody};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(live_socket))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct LiveQuery {
    /// The ID token (browsers cannot set headers on a WebSocket).
    pub token: Option<String>,
    /// The last cursor this client received; what came after it is sent first.
    pub after: Option<String>,
}

/// Whether a browser page at `origin` may open the socket: the server's own origin, or one the
/// operator allowed. Clients that send no Origin (not browsers) are let through to the token check.
fn origin_allowed(headers: &HeaderMap, allowed: &[String]) -> bool {
    let Some(origin) = headers.get(header::ORIGIN).and_then(|v| v.to_str().ok()) else {
        return true;
    };
    let host = headers.get(header::HOST).and_then(|v| v.to_str().ok()).unwrap_or("");
    let origin_host = origin.split_once("://").map(|(_, rest)| rest).unwrap_or(origin);
    origin_host == host || allowed.iter().any(|a| a == origin)
}

/// What a live socket reserves for reading a client's frames.
const LIVE_READ_BUFFER: usize = 4 * 1024;
/// The largest message or frame a client may send on the live socket.
const LIVE_MAX_MESSAGE: usize = 16 * 1024;

/// Opens the live socket.
#[utoipa::path(get, path = "/live", tag = "live", params(LiveQuery),
    responses((status = 101, description = "switching to the WebSocket protocol"),
        (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn live_socket(
    State(state): State<AppState>,
    headers: HeaderMap,
    meta: RequestMeta,
    ApiQuery(query): ApiQuery<LiveQuery>,
    ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> ApiResult<Response> {
    if !origin_allowed(&headers, &state.config.allowed_origins) {
        return Err(AppError::forbidden("this origin may not open the live socket"));
    }
    let token = query
        .token
        .as_deref()
        .or_else(|| headers.get("token").and_then(|v| v.to_str().ok()))
        .ok_or_else(|| AppError::unauthorized("missing_token", "sign in to continue"))?;
    let AuthUser(user) = authenticate(&state, token, meta).await?;
    let after = query.after.as_deref().map(feed_cursor).transpose()?;
    let Ok(ws) = ws else {
        return Err(AppError::bad_request("not_websocket", "this route only speaks WebSocket"));
    };
    let viewer = service::live::listener(&user);
    let auditor = service::live::hears_audit(&user);
    let session = SocketSession { id: user.session_id, grace_ends_at: user.grace_ends_at };
    // The socket only speaks: what a client sends is read to notice a close. So a small read
    // buffer (tungstenite reserves 128 KiB per socket by default, most of an idle socket's
    // memory) and small frames: a client cannot make the server hold a large message.
    let ws = ws.read_buffer_size(LIVE_READ_BUFFER).max_message_size(LIVE_MAX_MESSAGE).max_frame_size(LIVE_MAX_MESSAGE);
    Ok(ws.on_upgrade(move |socket| async move {
        metrics::gauge!("needl_live_connections").increment(1.0);
        if let Err(error) = run(socket, state, viewer, auditor, session, after).await {
            tracing::debug!(%error, "live socket ended");
        }
        metrics::gauge!("needl_live_connections").decrement(1.0);
    }))
}

/// Sends what `viewer` may see after `sent`, up to what the hub has published.
async fn page_missed(
    socket: &mut WebSocket,
    state: &AppState,
    viewer: &Viewer,
    sent: &mut Cursor,
) -> anyhow::Result<()> {
    while let Some(page) = service::live::missed(state, viewer, *sent).await? {
        for message in page.messages {
            socket.send(Message::Text(message.into())).await?;
        }
        if page.reached == *sent {
            return Ok(());
        }
        *sent = page.reached;
    }
    Ok(())
}

/// The session a socket was opened with.
struct SocketSession {
    id: String,
    /// Set once the session was rotated: the socket closes then, as its token stops working.
    grace_ends_at: Option<chrono::DateTime<chrono::Utc>>,
}

/// The close frame for a socket whose session ended; the client reconnects with the token it
/// holds now, if any.
fn session_ended(reason: &'static str) -> Message {
    Message::Close(Some(CloseFrame { code: 4001, reason: reason.into() }))
}

async fn run(
    mut socket: WebSocket,
    state: AppState,
    viewer: Viewer,
    auditor: bool,
    mut session: SocketSession,
    after: Option<Cursor>,
) -> anyhow::Result<()> {
    let mut events = state.hub.subscribe(&viewer, auditor);
    let mut shutdown = state.shutdown.clone();
    let mut sent = after.unwrap_or_else(|| state.hub.published());
    page_missed(&mut socket, &state, &viewer, &mut sent).await?;
    // When an auditor's socket is next told that the history grew; `None` while nothing new
    // has passed since it was last told.
    let mut audit_due: Option<Instant> = None;
    let audit_from = |due: Option<Instant>| due.or(auditor.then(|| Instant::now() + AUDIT_NOTICE_EVERY));
    loop {
        tokio::select! {
            received = events.recv() => match received {
                Received::Event(event) => {
                    // A passing message (a report's progress) has no cursor of its own: it moves
                    // nothing a reconnecting client resumes from.
                    if !event.ephemeral {
                        if event.cursor <= sent {
                            continue;
                        }
                        sent = event.cursor;
                        audit_due = audit_from(audit_due);
                    }
                    for message in event.messages_for(&viewer) {
                        socket.send(Message::Text(message.to_string().into())).await?;
                    }
                    if service::live::revokes(&event, &session.id) {
                        // A rotation leaves the socket open until its grace ends; a sign-out
                        // (or a rotation with no grace) closes it now.
                        match service::live::open_until(&state, &session.id).await {
                            Some(until) => session.grace_ends_at = Some(until),
                            None => {
                                let _ = socket.send(session_ended("signed out")).await;
                                return Ok(());
                            }
                        }
                    }
                }
                Received::Lagged => {
                    state.hub.record_resync();
                    page_missed(&mut socket, &state, &viewer, &mut sent).await?;
                    audit_due = audit_from(audit_due);
                }
            },
            incoming = socket.recv() => match incoming {
                None | Some(Err(_)) | Some(Ok(Message::Close(_))) => return Ok(()),
                Some(Ok(_)) => {}
            },
            _ = tokio::time::sleep_until(audit_due.unwrap_or_else(Instant::now)), if audit_due.is_some() => {
                audit_due = None;
                socket.send(Message::Text(service::live::audit_notice(sent).into())).await?;
            }
            _ = grace_over(&state, session.grace_ends_at), if session.grace_ends_at.is_some() => {
                let _ = socket.send(session_ended("session rotated")).await;
                return Ok(());
            }
            _ = async { shutdown.wait_for(|stop| *stop).await.is_ok() } => {
                let frame = CloseFrame { code: 1001, reason: "server shutting down".into() };
                let _ = socket.send(Message::Close(Some(frame))).await;
                return Ok(());
            }
        }
    }
}

/// Resolves when `until` has passed by the server's clock (read once, when the wait starts).
async fn grace_over(state: &AppState, until: Option<chrono::DateTime<chrono::Utc>>) {
    if let Some(until) = until {
        tokio::time::sleep(service::live::time_until(state, until)).await;
    }
}
