//! Erasing an account, by its owner (`DELETE /api/user`) or by an administrator.
//!
//! The events stay (the store is append-only and the hash chain covers them); what makes the
//! erasure real is that the account's personal fields in them were sealed with the account's
//! own key (`commands::personal`), and erasing destroys that key. In order:
//! 1. every session of the account ends (its sockets close with them);
//! 2. one decision records `UserErased` and releases the address's reservation, so the address
//!    can sign up again;
//! 3. the key is destroyed (and again by the accounts read model as it applies the erasure, so an
//!    erasure cut short between 2 and 3 still finishes);
//! 4. the read models that copied personal values (the account row, comment texts, what
//!    notifications quoted of them) take the values a rebuild now reads, and the database is
//!    asked to let go of the old bytes: SQLite zeroes deleted content (`secure_delete`) and its
//!    write-ahead log is truncated; on Postgres the key table and the accounts table are
//!    rewritten (`VACUUM FULL`), so no old row version keeps the key or the address.
//!
//! The account's own content (notebooks, uploads, feeds, reports) is not personal data in this
//! sense and is not removed here.

use commands::personal;
use domain::email::{self, EmailCommand, EmailReservation};
use domain::user::{User, UserCommand};
use projections::queries::{self, UserRow};

use crate::context::Context;
use crate::error::{Error, Result};
use crate::passwords::{verify_password, MAX_PASSWORD_LEN};
use crate::sessions;
use crate::viewer::Viewer;

/// The signed-in user erases their own account; `password` is their current password, asked
/// again because nothing undoes this. The last administrator cannot (the instance would have
/// none); they appoint another first.
pub async fn erase_own_account(ctx: &Context, viewer: &Viewer, password: String) -> Result<()> {
    let user = live_user(ctx, &viewer.user_id).await?;
    if password.len() > MAX_PASSWORD_LEN || !verify_password(password, Some(user.password_hash.clone())).await {
        return Err(sessions::wrong_password());
    }
    if user.is_admin && !another_admin(ctx, &user.user_id).await? {
        return Err(Error::invalid(
            "last_admin",
            "you are the only administrator: make someone else an administrator before erasing your account",
        ));
    }
    erase(ctx, viewer, &user, false).await
}

/// An administrator erases someone else's account. Their own goes through
/// [`erase_own_account`], which asks for their password.
pub async fn erase_user(ctx: &Context, admin: &Viewer, user_id: &str) -> Result<()> {
    admin.require_admin()?;
    if user_id == admin.user_id {
        return Err(Error::invalid("erase_self", "erase your own account from your account settings"));
    }
    let user = live_user(ctx, user_id).await?;
    erase(ctx, admin, &user, true).await
}

/// The account `user_id`, unless it does not exist or was erased already.
async fn live_user(ctx: &Context, user_id: &str) -> Result<UserRow> {
    queries::user_by_id(&ctx.db, user_id)
        .await?
        .filter(|u| u.erased_at.is_none())
        .ok_or_else(|| Error::not_found("user not found"))
}

async fn another_admin(ctx: &Context, user_id: &str) -> Result<bool> {
    let users = queries::all_users(&ctx.db).await?;
    Ok(users.iter().any(|u| u.is_admin && u.erased_at.is_none() && u.user_id != user_id))
}

async fn erase(ctx: &Context, actor: &Viewer, user: &UserRow, by_admin: bool) -> Result<()> {
    let metadata = actor.metadata();
    sessions::end_sessions(ctx, &user.user_id, None, &metadata).await?;
    let (user_id, address) = (user.user_id.clone(), user.email.clone());
    let (_, cursor) = ctx
        .bus
        .execute_together(&metadata, |mut unit| {
            let (user_id, address) = (user_id.clone(), address.clone());
            async move {
                unit.execute::<User>(&user_id, UserCommand::Erase { by_admin }).await?;
                for reservation in [email::reservation_id(&address), email::legacy_reservation_id(&address)] {
                    let release = EmailCommand::Release { user_id: user_id.clone() };
                    unit.execute::<EmailReservation>(&reservation, release).await?;
                }
                Ok::<_, Error>((unit, ()))
            }
        })
        .await?;
    let mut tx = ctx.db.begin().await?;
    personal::destroy_key(&mut tx, &user.user_id).await?;
    tx.commit().await?;
    ctx.settle(cursor).await;
    personal::compact(&ctx.db).await;
    tracing::info!(user_id = %user.user_id, by_admin, "account erased");
    Ok(())
}
