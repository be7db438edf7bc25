//! `users_view`, `feature_flags_view` and `password_reset_links_view`: accounts, profiles,
//! preferences, roles, flags, passwords and the reset link each account may have outstanding.

use async_trait::async_trait;
use commands::args;
use commands::feed::StoredEvent;
use commands::personal;
use commands::store::Tx;
use cqrs_es::Aggregate;
use domain::user::{NavState, Role, User, UserEvent};

use crate::runner::Projection;

pub struct Accounts;

fn nav(state: Option<NavState>) -> Option<String> {
    state.map(|s| match s {
        NavState::Opened => "opened".to_string(),
        NavState::Closed => "closed".to_string(),
    })
}

#[async_trait]
impl Projection for Accounts {
    fn name(&self) -> &'static str {
        "accounts"
    }

    fn tables(&self) -> &'static [&'static str] {
        &["users_view", "feature_flags_view", "password_reset_links_view"]
    }

    fn reads(&self) -> &'static [&'static str] {
        &[User::TYPE]
    }

    async fn apply(&self, tx: &mut Tx, event: &StoredEvent) -> anyhow::Result<()> {
        let id = event.aggregate_id.as_str();
        let user_event: UserEvent = event.decode()?;
        match user_event {
            UserEvent::UserSignedUp { email, username, password_hash, is_admin } => {
                let created_at = event.time().to_string();
                tx.write(
                    "INSERT INTO users_view (user_id, email, username, password_hash, is_admin, created_at) \
                     VALUES ($1, $2, $3, $4, $5, $6)",
                    args![id, email, username, password_hash, is_admin, created_at],
                )
                .await?;
            }
            UserEvent::ProfileUpdated { username, industry, profession, whatsapp_number } => {
                // Another WhatsApp number voids the verification and the code of the old one, as
                // the aggregate decides.
                tx.write(
                    "UPDATE users_view SET username = $2, industry = $3, profession = $4, \
                     whatsapp_number = $5, \
                     whatsapp_verified = CASE WHEN whatsapp_verified = $5 THEN whatsapp_verified END, \
                     whatsapp_code_sent_at = CASE WHEN COALESCE(whatsapp_number, '') = COALESCE($5, '') \
                       THEN whatsapp_code_sent_at END, \
                     whatsapp_code_expires_at = CASE WHEN COALESCE(whatsapp_number, '') = COALESCE($5, '') \
                       THEN whatsapp_code_expires_at END, \
                     whatsapp_code_tries = CASE WHEN COALESCE(whatsapp_number, '') = COALESCE($5, '') \
                       THEN whatsapp_code_tries END \
                     WHERE user_id = $1",
                    args![id, username, industry, profession, whatsapp_number],
                )
                .await?;
            }
            UserEvent::PreferencesChanged { nav_state, askneedl_pro } => {
                tx.write(
                    "UPDATE users_view SET nav_state = $2, askneedl_pro = $3 WHERE user_id = $1",
                    args![id, nav(nav_state), askneedl_pro],
                )
                .await?;
            }
            UserEvent::OnboardingCompleted => {
                tx.write("UPDATE users_view SET onboarded = $2 WHERE user_id = $1", args![id, true]).await?;
            }
            UserEvent::FeatureFlagSet { flag, value } => {
                tx.write(
                    "INSERT INTO feature_flags_view (user_id, flag, value) VALUES ($1, $2, $3) \
                     ON CONFLICT (user_id, flag) DO UPDATE SET value = excluded.value",
                    args![id, flag, value],
                )
                .await?;
            }
            UserEvent::RoleGranted { role } => set_role(tx, id, role, true).await?,
            UserEvent::RoleRevoked { role } => set_role(tx, id, role, false).await?,
            UserEvent::PasswordChanged { password_hash } | UserEvent::PasswordReset { password_hash, .. } => {
                tx.write("UPDATE users_view SET password_hash = $2 WHERE user_id = $1", args![id, password_hash])
                    .await?;
                // A new password voids the link outstanding, as the aggregate decides.
                tx.write("DELETE FROM password_reset_links_view WHERE user_id = $1", args![id]).await?;
            }
            UserEvent::UserErased { .. } => {
                // The same values a rebuild reads from the sealed fields once the key is gone.
                tx.write(
                    "UPDATE users_view SET email = $2, username = $3, password_hash = '', industry = NULL, \
                     profession = NULL, whatsapp_number = NULL, whatsapp_verified = NULL, \
                     whatsapp_code_sent_at = NULL, whatsapp_code_expires_at = NULL, whatsapp_code_tries = NULL, \
                     is_admin = $4, is_auditor = $4, \
                     is_analyst = $4, erased_at = $5 WHERE user_id = $1",
                    args![id, personal::erased_email(id), personal::ERASED_NAME, false, event.recorded_at.clone()],
                )
                .await?;
                tx.write("DELETE FROM password_reset_links_view WHERE user_id = $1", args![id]).await?;
                // The service destroys the key as it erases; doing it here too, in the read
                // model's transaction, finishes an erasure interrupted between the two.
                personal::destroy_key(tx, id).await?;
            }
            UserEvent::WhatsappCodeIssued { expires_at, .. } => {
                let sent_at = expires_at - chrono::Duration::minutes(domain::user::CODE_MINUTES);
                tx.write(
                    "UPDATE users_view SET whatsapp_code_sent_at = $2, whatsapp_code_expires_at = $3, \
                     whatsapp_code_tries = $4 WHERE user_id = $1",
                    args![id, sent_at.to_rfc3339(), expires_at.to_rfc3339(), i64::from(domain::user::CODE_TRIES)],
                )
                .await?;
            }
            UserEvent::WhatsappCodeRejected { tries_left } => {
                tx.write(
                    "UPDATE users_view SET whatsapp_code_tries = $2 WHERE user_id = $1",
                    args![id, i64::from(tries_left)],
                )
                .await?;
            }
            UserEvent::WhatsappVerified { number } => {
                tx.write(
                    "UPDATE users_view SET whatsapp_verified = $2, whatsapp_code_sent_at = NULL, \
                     whatsapp_code_expires_at = NULL, whatsapp_code_tries = NULL WHERE user_id = $1",
                    args![id, number],
                )
                .await?;
            }
            UserEvent::PlanAssigned { plan } => {
                tx.write("UPDATE users_view SET plan = $2 WHERE user_id = $1", args![id, plan]).await?;
            }
            UserEvent::PasswordResetLinkIssued { token_hash, expires_at, .. } => {
                // Only the latest link works.
                tx.write("DELETE FROM password_reset_links_view WHERE user_id = $1", args![id]).await?;
                tx.write(
                    "INSERT INTO password_reset_links_view (token_hash, user_id, expires_at) VALUES ($1, $2, $3)",
                    args![token_hash, id, expires_at.to_rfc3339()],
                )
                .await?;
            }
        }
        Ok(())
    }
}

async fn set_role(tx: &mut Tx, id: &str, role: Role, held: bool) -> anyhow::Result<()> {
    let column = match role {
        Role::Admin => "is_admin",
        Role::Auditor => "is_auditor",
        Role::Analyst => "is_analyst",
    };
    tx.write(&format!("UPDATE users_view SET {column} = $2 WHERE user_id = $1"), args![id, held]).await?;
    Ok(())
}
