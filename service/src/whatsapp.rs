//! WhatsApp number verification (the pulse variant): a six-digit code sent to the profile's
//! number, tried back within ten minutes and five tries. The user aggregate decides (limits,
//! expiry, tries); this module makes the code, keys its digest with the server's secret (so the
//! event holds nothing to try codes against) and sends it through a [`Messenger`].
//!
//! No WhatsApp provider is reachable from here, so the default messenger is the [`Outbox`]: a
//! table administrators read to pass codes on. A provider's messenger implements the same trait.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use commands::args;
use commands::CommandError;
use domain::user::{UserCommand, UserError};
use serde::Serialize;

use crate::access::Purpose;
use crate::context::Context;
use crate::error::{Error, Result};
use crate::policy::flag_on;
use crate::viewer::Viewer;

/// Sends short messages to people.
#[async_trait]
pub trait Messenger: Send + Sync {
    /// Sends `body` to the WhatsApp number `to`.
    async fn send_whatsapp(&self, ctx: &Context, to: &str, body: &str) -> Result<()>;
}

/// The offline messenger: writes each message to `outbox_messages` for an administrator.
pub struct Outbox;

#[async_trait]
impl Messenger for Outbox {
    async fn send_whatsapp(&self, ctx: &Context, to: &str, body: &str) -> Result<()> {
        ctx.db
            .execute(
                "INSERT INTO outbox_messages (message_id, channel, recipient, body, created_at) \
                 VALUES ($1, $2, $3, $4, $5)",
                args![uuid::Uuid::now_v7().to_string(), "whatsapp", to, body, ctx.clock.now().to_rfc3339()],
            )
            .await?;
        Ok(())
    }
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct WhatsappStatus {
    /// The profile's WhatsApp number.
    pub number: Option<String>,
    /// Whether that number was verified by code.
    pub verified: bool,
    /// Whether this user must verify it (flag `is_pulse_whatsapp_verification_enabled`).
    pub required: bool,
    /// When the code outstanding was sent.
    pub code_sent_at: Option<String>,
    /// Seconds to wait before another code may be asked for.
    pub resend_after_seconds: u64,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CodeSent {
    pub sent_to: String,
    pub expires_at: String,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Verified {
    pub verified: bool,
    pub number: String,
}

#[derive(sqlx::FromRow)]
struct Row {
    whatsapp_number: Option<String>,
    whatsapp_verified: Option<String>,
    whatsapp_code_sent_at: Option<String>,
    whatsapp_code_expires_at: Option<String>,
    whatsapp_code_tries: Option<i64>,
}

async fn row(ctx: &Context, user_id: &str) -> Result<Row> {
    ctx.db
        .fetch_optional(
            "SELECT whatsapp_number, whatsapp_verified, whatsapp_code_sent_at, whatsapp_code_expires_at, \
             whatsapp_code_tries FROM users_view WHERE user_id = $1",
            args![user_id],
        )
        .await?
        .ok_or_else(|| Error::not_found("user not found"))
}

fn parse(time: &Option<String>) -> Option<DateTime<Utc>> {
    time.as_deref().and_then(|t| DateTime::parse_from_rfc3339(t).ok()).map(|t| t.with_timezone(&Utc))
}

/// The viewer's number, whether it is verified, and when they may ask for a code.
pub async fn status(ctx: &Context, viewer: &Viewer) -> Result<WhatsappStatus> {
    let row = row(ctx, &viewer.user_id).await?;
    let number = row.whatsapp_number.filter(|n| !n.is_empty());
    let now = ctx.clock.now();
    let resend_after_seconds =
        parse(&row.whatsapp_code_sent_at).map(|sent| (60 - (now - sent).num_seconds()).max(0) as u64).unwrap_or(0);
    let outstanding = parse(&row.whatsapp_code_expires_at).is_some_and(|e| e > now);
    Ok(WhatsappStatus {
        verified: number.is_some() && row.whatsapp_verified == number,
        number,
        required: flag_on(ctx, &viewer.user_id, "is_pulse_whatsapp_verification_enabled").await?,
        code_sent_at: if outstanding { row.whatsapp_code_sent_at } else { None },
        resend_after_seconds,
    })
}

fn code_hash(ctx: &Context, user_id: &str, code: &str) -> String {
    ctx.access.key(Purpose::WhatsappCode, &format!("{user_id}\n{code}"))
}

/// Sends a new code to the viewer's WhatsApp number. Recorded before it is sent: a code whose
/// sending failed still counts against the limits, so a failing provider cannot be looped on.
pub async fn send_code(ctx: &Context, viewer: &Viewer) -> Result<CodeSent> {
    let code = format!("{:06}", rand::random_range(0..1_000_000u32));
    let now = ctx.clock.now();
    let command = UserCommand::IssueWhatsappCode { code_hash: code_hash(ctx, &viewer.user_id, &code), at: now };
    ctx.command(&ctx.bus.users, &viewer.user_id, command, &viewer.metadata()).await.map_err(|e| match e {
        CommandError::Domain(refusal @ UserError::TooManyCodes(seconds)) => {
            Error::throttled("too_many_codes", refusal.to_string(), seconds)
        }
        other => Error::from(other),
    })?;
    let row = row(ctx, &viewer.user_id).await?;
    let number = row.whatsapp_number.unwrap_or_default();
    let minutes = domain::user::CODE_MINUTES;
    let body = format!("Your Needl verification code is {code}. It expires in {minutes} minutes.");
    ctx.messenger.send_whatsapp(ctx, &number, &body).await?;
    Ok(CodeSent {
        sent_to: number,
        expires_at: row
            .whatsapp_code_expires_at
            .unwrap_or_else(|| (now + chrono::Duration::minutes(minutes)).to_rfc3339()),
    })
}

/// Tries `code` against the viewer's outstanding one.
pub async fn verify(ctx: &Context, viewer: &Viewer, code: &str) -> Result<Verified> {
    let code = code.trim();
    if code.len() != 6 || !code.bytes().all(|b| b.is_ascii_digit()) {
        return Err(Error::invalid("wrong_code", "A code is six digits."));
    }
    let command = UserCommand::VerifyWhatsapp { code_hash: code_hash(ctx, &viewer.user_id, code), at: ctx.clock.now() };
    ctx.command(&ctx.bus.users, &viewer.user_id, command, &viewer.metadata()).await?;
    let row = row(ctx, &viewer.user_id).await?;
    match (&row.whatsapp_verified, &row.whatsapp_number) {
        (Some(verified), Some(number)) if verified == number => Ok(Verified { verified: true, number: number.clone() }),
        _ => {
            let left = row.whatsapp_code_tries.unwrap_or(0);
            if left <= 0 {
                Err(Error::invalid("code_expired", "That code is not right, and no tries are left; ask for a new one."))
            } else {
                let tries = if left == 1 { "1 try".to_string() } else { format!("{left} tries") };
                Err(Error::invalid("wrong_code", format!("That code is not right; {tries} left.")))
            }
        }
    }
}

#[derive(Debug, Serialize, sqlx::FromRow)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct OutboxMessage {
    #[serde(rename = "id")]
    pub message_id: String,
    pub channel: String,
    pub recipient: String,
    pub body: String,
    pub created_at: String,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct OutboxPage {
    /// Newest first.
    pub messages: Vec<OutboxMessage>,
}

/// The outbox's newest `limit` messages (administrators).
pub async fn outbox(ctx: &Context, admin: &Viewer, limit: Option<i64>) -> Result<OutboxPage> {
    admin.require_admin()?;
    let limit = limit.unwrap_or(50).clamp(1, 500);
    let messages = ctx
        .db
        .fetch_all(
            "SELECT message_id, channel, recipient, body, created_at FROM outbox_messages \
             ORDER BY created_at DESC, message_id DESC LIMIT $1",
            args![limit],
        )
        .await?;
    Ok(OutboxPage { messages })
}
