//! Typed reads of the views, for the api.

use commands::args;
use commands::store::Db;
use domain::flags::DEFAULT_FLAGS;
use serde::Serialize;

/// A row of `users_view`.
#[derive(Debug, Clone, PartialEq, Serialize, sqlx::FromRow)]
pub struct UserRow {
    pub user_id: String,
    pub email: String,
    pub username: String,
    #[serde(skip)]
    pub password_hash: String,
    pub is_admin: bool,
    pub is_auditor: bool,
    pub is_analyst: bool,
    pub industry: Option<String>,
    pub profession: Option<String>,
    pub whatsapp_number: Option<String>,
    pub onboarded: bool,
    pub nav_state: Option<String>,
    pub askneedl_pro: bool,
    pub created_at: String,
    /// When the account was erased; `None` while it exists.
    pub erased_at: Option<String>,
    /// The assigned plan's id; `None` is the default plan.
    pub plan: Option<String>,
}

const USER_COLUMNS: &str = "user_id, email, username, password_hash, is_admin, is_auditor, \
    is_analyst, industry, profession, whatsapp_number, onboarded, nav_state, askneedl_pro, created_at, erased_at, plan";

pub async fn user_by_id(db: &Db, user_id: &str) -> sqlx::Result<Option<UserRow>> {
    db.fetch_optional(&format!("SELECT {USER_COLUMNS} FROM users_view WHERE user_id = $1"), args![user_id]).await
}

/// The account that signs in with `email`; never an erased one.
pub async fn user_by_email(db: &Db, email: &str) -> sqlx::Result<Option<UserRow>> {
    db.fetch_optional(
        &format!("SELECT {USER_COLUMNS} FROM users_view WHERE email = $1 AND erased_at IS NULL"),
        args![email],
    )
    .await
}

/// Every user, ordered by id: for rebuild comparisons and administration.
pub async fn all_users(db: &Db) -> sqlx::Result<Vec<UserRow>> {
    db.fetch_all(&format!("SELECT {USER_COLUMNS} FROM users_view ORDER BY user_id"), vec![]).await
}

/// A row of `sessions_view`.
#[derive(Debug, Clone, PartialEq, Serialize, sqlx::FromRow)]
pub struct SessionRow {
    pub session_id: String,
    pub user_id: String,
    pub started_at: String,
    pub expires_at: String,
    pub revoked_at: Option<String>,
    /// `rotated` or `signed_out` once revoked: a rotated session lasts a grace period longer.
    pub revoked_reason: Option<String>,
    /// The session a refresh replaced with this one.
    pub rotated_from: Option<String>,
}

/// The columns of [`SessionRow`].
const SESSION_COLUMNS: &str = "session_id, user_id, started_at, expires_at, revoked_at, revoked_reason, rotated_from";

pub async fn session(db: &Db, session_id: &str) -> sqlx::Result<Option<SessionRow>> {
    db.fetch_optional(&format!("SELECT {SESSION_COLUMNS} FROM sessions_view WHERE session_id = $1"), args![session_id])
        .await
}

/// The sessions of `user_id` not signed out (live, expired or rotated: the caller judges which
/// are still honoured).
pub async fn sessions_of_user(db: &Db, user_id: &str) -> sqlx::Result<Vec<SessionRow>> {
    db.fetch_all(
        &format!(
            "SELECT {SESSION_COLUMNS} FROM sessions_view WHERE user_id = $1 \
             AND (revoked_reason IS NULL OR revoked_reason <> 'signed_out') ORDER BY session_id"
        ),
        args![user_id],
    )
    .await
}

/// The user whose outstanding reset link's token hashes to `token_hash`, and when it expires.
pub async fn reset_link(db: &Db, token_hash: &str) -> sqlx::Result<Option<(String, String)>> {
    #[derive(sqlx::FromRow)]
    struct Row {
        user_id: String,
        expires_at: String,
    }
    let row: Option<Row> = db
        .fetch_optional(
            "SELECT user_id, expires_at FROM password_reset_links_view WHERE token_hash = $1",
            args![token_hash],
        )
        .await?;
    Ok(row.map(|r| (r.user_id, r.expires_at)))
}

pub async fn all_sessions(db: &Db) -> sqlx::Result<Vec<SessionRow>> {
    db.fetch_all(&format!("SELECT {SESSION_COLUMNS} FROM sessions_view ORDER BY session_id"), vec![]).await
}

#[derive(sqlx::FromRow)]
struct FlagRow {
    flag: String,
    value: String,
}

/// A user's flags as stored values: the defaults, overridden by what was set for the user.
pub async fn flag_values(db: &Db, user_id: &str) -> sqlx::Result<Vec<(String, String)>> {
    let set: Vec<FlagRow> =
        db.fetch_all("SELECT flag, value FROM feature_flags_view WHERE user_id = $1", args![user_id]).await?;
    Ok(DEFAULT_FLAGS
        .iter()
        .map(|(flag, default)| {
            let value = set
                .iter()
                .find(|row| row.flag == *flag)
                .map(|row| row.value.clone())
                .unwrap_or_else(|| default.to_string());
            (flag.to_string(), value)
        })
        .collect())
}
