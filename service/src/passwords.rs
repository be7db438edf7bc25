//! Passwords: the policy a new one must meet (length, and a strength estimate that refuses the
//! common and the guessable), and argon2id hashing and checking off the async runtime.
//!
//! The strength estimate is zxcvbn (Dropbox's estimator, in its maintained Rust port): it knows
//! the most common passwords, names, words, keyboard walks, dates and repeats, and says why a
//! password is weak and what would help, which is the message a person sees.

use argon2::password_hash::{rand_core::OsRng, PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;

use crate::error::{Error, Result};

/// Shortest password accepted at sign-up.
pub const MIN_PASSWORD_LEN: usize = 8;
/// Longest password accepted: argon2 is slow on purpose, so the input is bounded.
pub const MAX_PASSWORD_LEN: usize = 256;
/// The lowest zxcvbn score accepted (0 to 4). 3 is "safely unguessable": about 10^8 guesses
/// or more, which with argon2id and the sign-in throttle leaves online guessing hopeless and an
/// offline attack on a stolen hash slow; 4 would refuse many passphrases people remember.
pub const MIN_STRENGTH: u8 = 3;
/// How much of a password the estimator reads: its work grows quickly with length, and a
/// password strong in its first 64 characters is strong.
const ESTIMATED_CHARS: usize = 64;

/// Checks a new password (at sign-up, change or reset) against the policy: 8 to 256
/// characters, and not guessable. `context` holds what else is known about the person (email,
/// name): a password built from them is weaker than it looks. The refusal says why and what
/// would help.
pub fn check_new_password(password: &str, context: &[&str]) -> Result<()> {
    if password.chars().count() < MIN_PASSWORD_LEN {
        return Err(Error::invalid(
            "weak_password",
            format!("password must be at least {MIN_PASSWORD_LEN} characters"),
        ));
    }
    if password.len() > MAX_PASSWORD_LEN {
        return Err(Error::invalid(
            "password_too_long",
            format!("password must be at most {MAX_PASSWORD_LEN} characters"),
        ));
    }
    let estimated: String = password.chars().take(ESTIMATED_CHARS).collect();
    let mut inputs: Vec<&str> = context.to_vec();
    // An address's local part is as guessable as the whole address.
    inputs.extend(context.iter().filter_map(|c| c.split_once('@').map(|(local, _)| local)));
    let estimate = zxcvbn::zxcvbn(&estimated, &inputs);
    if u8::from(estimate.score()) >= MIN_STRENGTH {
        return Ok(());
    }
    let mut message = String::from("password is too easy to guess");
    if let Some(feedback) = estimate.feedback() {
        if let Some(warning) = feedback.warning() {
            message.push_str(": ");
            message.push_str(&lowercase_first(warning.to_string().trim_end_matches('.')));
        }
        let hints: Vec<String> = feedback.suggestions().iter().map(|s| s.to_string()).collect();
        if !hints.is_empty() {
            message.push_str(". ");
            message.push_str(hints.join(" ").trim_end_matches('.'));
        }
    } else {
        message.push_str(". Add another word or two; uncommon words are better");
    }
    Err(Error::invalid("weak_password", message))
}

fn lowercase_first(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(first) => first.to_lowercase().chain(chars).collect(),
        None => String::new(),
    }
}

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

    #[test]
    fn the_most_common_passwords_are_refused_with_the_reason() {
        for common in ["password", "password1", "12345678", "qwertyuiop", "iloveyou", "letmein1"] {
            let refusal = check_new_password(common, &[]).unwrap_err();
            assert_eq!(refusal.code, "weak_password", "{common}");
            assert!(refusal.message.starts_with("password is too easy to guess"), "{common}: {}", refusal.message);
        }
        let refusal = check_new_password("password", &[]).unwrap_err();
        assert!(refusal.message.contains("common"), "{}", refusal.message);
    }

    #[test]
    fn a_password_made_of_the_persons_own_name_or_address_is_refused() {
        let refusal = check_new_password("ada.lovelace1", &["ada.lovelace@example.com", "Ada"]).unwrap_err();
        assert_eq!(refusal.code, "weak_password");
    }

    #[test]
    fn long_unusual_passphrases_pass_and_the_length_rules_stay() {
        check_new_password("velvet otter juggles 7 lanterns", &[]).unwrap();
        check_new_password("Tq8#mWz2!pLr", &[]).unwrap();
        assert_eq!(check_new_password("Tq8#mWz", &[]).unwrap_err().code, "weak_password");
        let long = "velvet otter juggles lanterns ".repeat(10);
        assert_eq!(check_new_password(&long, &[]).unwrap_err().code, "password_too_long");
    }

    #[tokio::test]
    async fn no_password_matches_a_missing_account() {
        assert!(!verify_password("no account has this password".into(), None).await);
    }
}
