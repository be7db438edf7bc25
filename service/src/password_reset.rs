//! Forgotten passwords: one-time reset links, mailed to the person or handed to an
//! administrator, and setting a new password with one.
//!
//! A link carries a random 256-bit token; only its SHA-256 is recorded (in the account's
//! `PasswordResetLinkIssued` event and `password_reset_links_view`), so neither the event store
//! nor a backup can be used to reset anyone's password. The account's aggregate decides whether
//! a link still works: it is the latest one issued, unused, and not expired, and a new password
//! (by reset or change) voids it. Using it ends every session of the account.
//!
//! Asking for a link answers the same whether or not the address has an account; the work is
//! done after the answer (see `api/`), so its timing tells nothing either.

use chrono::{DateTime, Utc};
use domain::user::{User, UserCommand};
use projections::queries;
use rand::RngCore;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::context::Context;
use crate::error::{Error, Result};
use crate::mail::Mail;
use crate::passwords::{check_new_password, hash_password};
use crate::sessions::end_sessions;
use crate::viewer::{Origin, Viewer};

/// The web page a link opens.
pub const RESET_PAGE: &str = "/reset-password";

/// Returns the hex SHA-256 of a token: what is kept of it.
pub fn token_hash(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// A fresh token: 32 random bytes, hex-encoded (URL-safe as it is).
pub(crate) fn new_token() -> String {
    let mut bytes = [0u8; 32];
    rand::rng().fill_bytes(&mut bytes);
    hex::encode(bytes)
}

/// A reset link, shown once.
#[derive(Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ResetLink {
    /// The whole link, on the server's public address (`--public-url`).
    pub url: String,
    /// The link's path and query, for a client that knows the address it reached the server at.
    pub path: String,
    /// When the link stops working (RFC 3339).
    pub expires_at: String,
}

/// Issues a reset link for `user_id`, replacing any earlier one, recorded with `metadata`.
async fn issue(ctx: &Context, user_id: &str, by_admin: bool, metadata: &domain::EventMetadata) -> Result<ResetLink> {
    let token = new_token();
    let expires_at: DateTime<Utc> = ctx.clock.now() + chrono::Duration::minutes(ctx.settings.reset_link_minutes as i64);
    let command = UserCommand::IssueResetLink { token_hash: token_hash(&token), expires_at, by_admin };
    ctx.command(&ctx.bus.users, user_id, command, metadata).await?;
    let path = format!("{RESET_PAGE}?token={token}");
    Ok(ResetLink {
        url: format!("{}{path}", ctx.settings.public_url.trim_end_matches('/')),
        path,
        expires_at: expires_at.to_rfc3339(),
    })
}

/// Whether reset links are mailed (a mailer is configured); otherwise an administrator issues
/// them.
pub fn by_mail(ctx: &Context) -> bool {
    ctx.mailer.is_some()
}

/// Mails a reset link to the account of `email` (normalised), if there is one and a mailer is
/// configured; does nothing otherwise. Run after the request is answered.
pub async fn mail_reset_link(ctx: &Context, origin: &Origin, email: &str) -> Result<()> {
    let Some(mailer) = ctx.mailer.clone() else {
        return Ok(());
    };
    let Some(user) = queries::user_by_email(&ctx.db, email).await? else {
        return Ok(());
    };
    let link = issue(ctx, &user.user_id, false, &origin.metadata(&user.user_id)).await?;
    let minutes = ctx.settings.reset_link_minutes;
    let body = format!(
        "Hello {name},\n\nSomeone asked to reset the password of your {org} account. To choose a new password, \
         open this link within {minutes} minutes:\n\n{url}\n\nThe link works once. Using it signs you out \
         everywhere.\n\nIf you did not ask for this, ignore this message: your password stays as it is.\n",
        name = user.username,
        org = ctx.settings.org_name,
        url = link.url,
    );
    let mail = Mail { to: user.email.clone(), subject: format!("Reset your {} password", ctx.settings.org_name), body };
    mailer.send(mail).await.map_err(|e| {
        tracing::warn!(error = %format!("{e:#}"), user_id = %user.user_id, "a password reset link could not be mailed");
        Error::internal("the reset link could not be mailed")
    })
}

/// Issues a reset link for a user on an administrator's word, to pass on by hand: the offline
/// way when no mail is sent. Recorded as the administrator's act. The link is returned once.
pub async fn admin_reset_link(ctx: &Context, admin: &Viewer, user_id: &str) -> Result<ResetLink> {
    admin.require_admin()?;
    queries::user_by_id(&ctx.db, user_id).await?.ok_or_else(|| Error::not_found("user not found"))?;
    issue(ctx, user_id, true, &admin.metadata()).await
}

/// The answer for a token that does not (or no longer) open a reset.
fn link_invalid() -> Error {
    Error::invalid("reset_link_invalid", "this reset link has expired or has already been used; ask for a new one")
}

/// Sets a new password with a reset link's token: the link must be the account's latest, unused
/// and unexpired, and the password must meet the policy. Ends every session of the account.
pub async fn reset_password(ctx: &Context, origin: &Origin, token: &str, password: String) -> Result<()> {
    if token.is_empty() || token.len() > 128 {
        return Err(link_invalid());
    }
    let hash = token_hash(token);
    let (user_id, _) = queries::reset_link(&ctx.db, &hash).await?.ok_or_else(link_invalid)?;
    let user = queries::user_by_id(&ctx.db, &user_id).await?.ok_or_else(link_invalid)?;
    check_new_password(&password, &[user.email.as_str(), user.username.as_str()])?;
    let password_hash = hash_password(password).await?;
    let metadata = origin.metadata(&user_id);
    let command = UserCommand::ResetPassword { token_hash: hash, password_hash, at: ctx.clock.now() };
    ctx.command::<User>(&ctx.bus.users, &user_id, command, &metadata).await?;
    end_sessions(ctx, &user_id, None, &metadata).await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_long_random_and_kept_only_as_their_hash() {
        let (a, b) = (new_token(), new_token());
        assert_eq!(a.len(), 64);
        assert_ne!(a, b);
        assert_eq!(token_hash(&a), token_hash(&a));
        assert_ne!(token_hash(&a), a);
        assert_eq!(token_hash(&a).len(), 64);
    }
}
