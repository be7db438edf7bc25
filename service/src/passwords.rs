//! Passwords: how long they may be, and argon2id hashing and checking off the async runtime.

use argon2::password_hash::{rand_core::OsRng, PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;

/// Shortest password accepted at sign-up.
pub const MIN_PASSWORD_LEN: usize = 8;
/// Longest password accepted: argon2 is slow on purpose, so the input is bounded.
pub const MAX_PASSWORD_LEN: usize = 256;

/// Hashes a password with argon2id off the async runtime.
pub async fn hash_password(password: String) -> anyhow::Result<String> {
    tokio::task::spawn_blocking(move || {
        let salt = SaltString::generate(&mut OsRng);
        Argon2::default()
            .hash_password(password.as_bytes(), &salt)
            .map(|h| h.to_string())
            .map_err(|e| anyhow::anyhow!("hashing password: {e}"))
    })
    .await?
}

/// Checks a password against a stored hash off the async runtime. With no hash it still does
/// the work, so a sign-in for an unknown email takes as long as one for a known email.
pub async fn verify_password(password: String, hash: Option<String>) -> bool {
    tokio::task::spawn_blocking(move || {
        static DUMMY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
        let dummy = DUMMY.get_or_init(|| {
            let salt = SaltString::generate(&mut OsRng);
            Argon2::default()
                .hash_password(b"no account has this password", &salt)
                .map(|h| h.to_string())
                .unwrap_or_default()
        });
        let stored = hash.as_deref().unwrap_or(dummy);
        let Ok(parsed) = PasswordHash::new(stored) else {
            return false;
        };
        let ok = Argon2::default().verify_password(password.as_bytes(), &parsed).is_ok();
        ok && hash.is_some()
    })
    .await
    .unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_hash_takes_its_password_and_no_other() {
        let hash = hash_password("correct horse".into()).await.unwrap();
        assert!(verify_password("correct horse".into(), Some(hash.clone())).await);
        assert!(!verify_password("wrong horse".into(), Some(hash)).await);
    }

    #[tokio::test]
    async fn no_password_matches_a_missing_account() {
        assert!(!verify_password("no account has this password".into(), None).await);
    }
}
