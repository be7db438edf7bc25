//! An account: who the user is, their profile, preferences, roles and feature flags.

use chrono::{DateTime, Utc};
use cqrs_es::Aggregate;
use serde::{Deserialize, Serialize};
use unicode_properties::{GeneralCategory, GeneralCategoryGroup, UnicodeGeneralCategory};

use crate::error::{DomainError, ErrorKind};
use crate::{flags, plan};

/// The side navigation's saved state. The browser's machine has more states; only the two
/// resting ones are worth remembering.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum NavState {
    Opened,
    Closed,
}

/// Roles beyond a plain member.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum Role {
    /// Manages the instance: flags, roles, publishing to the organisation.
    Admin,
    /// Reads the whole event history.
    Auditor,
    /// Reads the event history's metadata and counts for analytics, never its content.
    Analyst,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum UserCommand {
    SignUp {
        email: String,
        username: String,
        password_hash: String,
        is_admin: bool,
    },
    UpdateProfile(ProfileChange),
    ChangePreferences {
        nav_state: Option<NavState>,
        askneedl_pro: Option<bool>,
    },
    CompleteOnboarding,
    SetFeatureFlag {
        flag: String,
        value: String,
    },
    GrantRole(Role),
    RevokeRole(Role),
    /// The signed-in user sets a new password (the caller has checked the current one).
    ChangePassword {
        password_hash: String,
    },
    /// Issues a one-time reset link, replacing any earlier one. Only the token's hash is given.
    IssueResetLink {
        token_hash: String,
        expires_at: DateTime<Utc>,
        by_admin: bool,
    },
    /// Sets a new password with the reset link whose token hashes to `token_hash`, at `at`.
    ResetPassword {
        token_hash: String,
        password_hash: String,
        at: DateTime<Utc>,
    },
    /// Erases the account: its personal data becomes unreadable (the caller destroys its key,
    /// `commands::personal`) and it takes no command again. `by_admin` when an administrator
    /// erased someone else.
    Erase {
        by_admin: bool,
    },
    /// An administrator puts the user on the plan with this id (`domain::plan`).
    AssignPlan {
        plan: String,
    },
    /// Sends a verification code to the profile's WhatsApp number: only its keyed digest is
    /// given. At most one code a minute and [`MAX_CODES_PER_HOUR`] an hour.
    IssueWhatsappCode {
        code_hash: String,
        at: DateTime<Utc>,
    },
    /// Tries a code (by its digest) against the one outstanding.
    VerifyWhatsapp {
        code_hash: String,
        at: DateTime<Utc>,
    },
}

/// How long a WhatsApp verification code works.
pub const CODE_MINUTES: i64 = 10;
/// How many wrong tries void a code.
pub const CODE_TRIES: u32 = 5;
/// How many codes a user may ask for in an hour.
pub const MAX_CODES_PER_HOUR: usize = 5;

/// Profile fields to change; `None` leaves a field as it is.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProfileChange {
    pub username: Option<String>,
    pub industry: Option<String>,
    pub profession: Option<String>,
    pub whatsapp_number: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum UserEvent {
    UserSignedUp {
        email: String,
        username: String,
        /// argon2id PHC string; audit and export output redact it.
        password_hash: String,
        is_admin: bool,
    },
    /// Carries the whole profile after the change, so a reader needs no earlier event.
    ProfileUpdated {
        username: String,
        industry: Option<String>,
        profession: Option<String>,
        whatsapp_number: Option<String>,
    },
    /// Carries both preferences after the change.
    PreferencesChanged {
        nav_state: Option<NavState>,
        askneedl_pro: bool,
    },
    OnboardingCompleted,
    FeatureFlagSet {
        flag: String,
        value: String,
    },
    RoleGranted {
        role: Role,
    },
    RoleRevoked {
        role: Role,
    },
    /// The user changed their password while signed in. argon2id PHC string, redacted like
    /// the sign-up's.
    PasswordChanged {
        password_hash: String,
    },
    /// A one-time reset link was issued: mailed to the user, or (`by_admin`) handed to an
    /// administrator to pass on. Only the token's SHA-256 is kept; it works until `expires_at`,
    /// once, and only while it is the latest link.
    PasswordResetLinkIssued {
        token_hash: String,
        expires_at: DateTime<Utc>,
        by_admin: bool,
    },
    /// The password was set anew through the reset link whose token hashes to `token_hash`.
    PasswordReset {
        token_hash: String,
        password_hash: String,
    },
    /// The account was erased, by its owner or (`by_admin`) an administrator. Its personal
    /// fields in earlier events are sealed with a key that the erasure destroys, so they read as
    /// erased from then on; nothing personal is in this event.
    UserErased {
        by_admin: bool,
    },
    /// An administrator put the user on a plan. Nothing the user has is removed by a smaller
    /// plan; only new writes beyond it are refused.
    PlanAssigned {
        plan: String,
    },
    /// A verification code was sent to `number` (only its keyed digest is kept); it works until
    /// `expires_at`, for [`CODE_TRIES`] tries.
    WhatsappCodeIssued {
        number: String,
        code_hash: String,
        expires_at: DateTime<Utc>,
    },
    /// A wrong code was tried; `tries_left` more are allowed.
    WhatsappCodeRejected {
        tries_left: u32,
    },
    /// `number` was verified: the person holds it.
    WhatsappVerified {
        number: String,
    },
}

crate::impl_domain_event! {
    UserEvent, versions {
        UserSignedUp: "1",
        ProfileUpdated: "1",
        PreferencesChanged: "1",
        OnboardingCompleted: "1",
        FeatureFlagSet: "1",
        RoleGranted: "1",
        RoleRevoked: "1",
        PasswordChanged: "1",
        PasswordResetLinkIssued: "1",
        PasswordReset: "1",
        UserErased: "1",
        PlanAssigned: "1",
        WhatsappCodeIssued: "1",
        WhatsappCodeRejected: "1",
        WhatsappVerified: "1",
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UserError {
    #[error("this account already exists")]
    AlreadySignedUp,
    #[error("user not found")]
    NotFound,
    #[error("username must be 1 to 64 characters")]
    InvalidUsername,
    #[error("username must not contain control or invisible characters")]
    HiddenCharacters,
    #[error("unknown feature flag '{0}'")]
    UnknownFlag(String),
    #[error("a feature flag value must be 'on' or 'off'")]
    InvalidFlagValue,
    #[error("{0} must be at most 128 characters")]
    FieldTooLong(&'static str),
    #[error("this reset link has expired or has already been used; ask for a new one")]
    ResetLinkInvalid,
    #[error("this account was erased")]
    Erased,
    #[error("there is no plan '{0}'")]
    UnknownPlan(String),
    #[error("enter the WhatsApp number with its country code, e.g. +44 7700 900123")]
    InvalidWhatsappNumber,
    #[error("add your WhatsApp number to your profile first")]
    WhatsappNumberMissing,
    #[error("this WhatsApp number is already verified")]
    WhatsappAlreadyVerified,
    #[error("too many codes asked for; try again in {0} seconds")]
    TooManyCodes(u64),
    #[error("there is no code to check; ask for a new one")]
    NoCode,
    #[error("this code has expired; ask for a new one")]
    CodeExpired,
}

impl DomainError for UserError {
    fn kind(&self) -> ErrorKind {
        match self {
            UserError::AlreadySignedUp | UserError::WhatsappAlreadyVerified => ErrorKind::Conflict,
            UserError::NotFound | UserError::Erased => ErrorKind::NotFound,
            _ => ErrorKind::Invalid,
        }
    }

    fn code(&self) -> &'static str {
        match self {
            UserError::AlreadySignedUp => "already_signed_up",
            UserError::NotFound => "user_not_found",
            UserError::InvalidUsername | UserError::HiddenCharacters => "invalid_username",
            UserError::UnknownFlag(_) => "unknown_flag",
            UserError::InvalidFlagValue => "invalid_flag_value",
            UserError::FieldTooLong(_) => "field_too_long",
            UserError::ResetLinkInvalid => "reset_link_invalid",
            UserError::Erased => "user_erased",
            UserError::UnknownPlan(_) => "unknown_plan",
            UserError::InvalidWhatsappNumber => "invalid_whatsapp_number",
            UserError::WhatsappNumberMissing => "whatsapp_number_missing",
            UserError::WhatsappAlreadyVerified => "whatsapp_already_verified",
            UserError::TooManyCodes(_) => "too_many_codes",
            UserError::NoCode => "no_code",
            UserError::CodeExpired => "code_expired",
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct User {
    signed_up: bool,
    username: String,
    industry: Option<String>,
    profession: Option<String>,
    whatsapp_number: Option<String>,
    nav_state: Option<NavState>,
    askneedl_pro: bool,
    onboarded: bool,
    roles: Vec<Role>,
    flags: Vec<(String, String)>,
    /// The one reset link that works, until it is used, replaced, expires, or the password is
    /// changed.
    reset_link: Option<ResetLink>,
    erased: bool,
    /// The assigned plan's id; `None` is the default plan.
    #[serde(default)]
    plan: Option<String>,
    /// The WhatsApp number verified by code, while it is still the profile's.
    #[serde(default)]
    whatsapp_verified: Option<String>,
    /// The verification code outstanding.
    #[serde(default)]
    whatsapp_code: Option<WhatsappCode>,
    /// When codes were sent, the last hour's (for the limits).
    #[serde(default)]
    codes_sent: Vec<DateTime<Utc>>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct WhatsappCode {
    number: String,
    code_hash: String,
    expires_at: DateTime<Utc>,
    tries_left: u32,
}

/// An outstanding reset link: its token's hash and when it stops working.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct ResetLink {
    token_hash: String,
    expires_at: DateTime<Utc>,
}

/// The longest username, in characters.
pub const MAX_USERNAME_CHARS: usize = 64;

/// Returns a username as it is kept (trimmed), or why it is refused: blank, longer than
/// [`MAX_USERNAME_CHARS`], or carrying characters a reader cannot see (controls, format
/// characters such as bidi overrides and zero-width spaces, separators other than the plain
/// space, filler letters), or nothing visible at all. A zero-width joiner or non-joiner is kept
/// between two visible characters, where emoji sequences and some scripts need it.
pub fn clean_username(name: &str) -> Result<String, UserError> {
    let trimmed = name.trim();
    if trimmed.is_empty() || trimmed.chars().nth(MAX_USERNAME_CHARS).is_some() {
        return Err(UserError::InvalidUsername);
    }
    let chars: Vec<char> = trimmed.chars().collect();
    let hidden = chars.iter().enumerate().any(|(i, &c)| {
        if matches!(c, '\u{200C}' | '\u{200D}') {
            let visible_at = |j: Option<usize>| j.and_then(|j| chars.get(j)).is_some_and(|&n| is_visible(n));
            return !(visible_at(i.checked_sub(1)) && visible_at(Some(i + 1)));
        }
        is_hidden(c)
    });
    if hidden || !chars.iter().any(|&c| is_visible(c)) {
        return Err(UserError::HiddenCharacters);
    }
    Ok(trimmed.to_string())
}

/// Letters, digits, punctuation and symbols: what a reader sees.
fn is_visible(c: char) -> bool {
    matches!(
        c.general_category_group(),
        GeneralCategoryGroup::Letter
            | GeneralCategoryGroup::Number
            | GeneralCategoryGroup::Punctuation
            | GeneralCategoryGroup::Symbol
    ) && !is_filler(c)
}

/// Letters and symbols drawn as blank space.
fn is_filler(c: char) -> bool {
    matches!(c, '\u{115F}' | '\u{1160}' | '\u{3164}' | '\u{FFA0}' | '\u{2800}')
}

fn is_hidden(c: char) -> bool {
    match c.general_category() {
        GeneralCategory::Control | GeneralCategory::Format => true,
        GeneralCategory::LineSeparator | GeneralCategory::ParagraphSeparator => true,
        GeneralCategory::SpaceSeparator => c != ' ',
        _ => is_filler(c),
    }
}

/// How many seconds to wait before another code may be sent at `at`, given when the last hour's
/// were: a minute after the last one, and until the oldest leaves the hour once
/// [`MAX_CODES_PER_HOUR`] were sent.
fn code_wait(sent: &[DateTime<Utc>], at: DateTime<Utc>) -> Option<u64> {
    let recent: Vec<&DateTime<Utc>> = sent.iter().filter(|t| at - **t < chrono::Duration::hours(1)).collect();
    let minute = recent.iter().map(|t| 60 - (at - **t).num_seconds()).filter(|s| *s > 0).max();
    let hour = (recent.len() >= MAX_CODES_PER_HOUR)
        .then(|| recent.iter().map(|t| 3600 - (at - **t).num_seconds()).min().unwrap_or(0).max(1));
    minute.into_iter().chain(hour).max().map(|s| s as u64)
}

/// Returns a WhatsApp number as it is kept (trimmed, as typed), or why it is refused: it must be
/// an international number, a `+` and 8 to 15 digits (E.164), which may be grouped by spaces,
/// hyphens, dots or parentheses. An empty number clears it.
pub fn clean_whatsapp_number(number: &str) -> Result<String, UserError> {
    let trimmed = number.trim();
    if trimmed.is_empty() {
        return Ok(String::new());
    }
    let Some(rest) = trimmed.strip_prefix('+') else {
        return Err(UserError::InvalidWhatsappNumber);
    };
    if !rest.chars().all(|c| c.is_ascii_digit() || matches!(c, ' ' | '-' | '.' | '(' | ')')) {
        return Err(UserError::InvalidWhatsappNumber);
    }
    let digits: Vec<char> = rest.chars().filter(char::is_ascii_digit).collect();
    if !(8..=15).contains(&digits.len()) || digits[0] == '0' {
        return Err(UserError::InvalidWhatsappNumber);
    }
    Ok(trimmed.to_string())
}

fn bounded(field: &'static str, value: &Option<String>) -> Result<(), UserError> {
    match value {
        Some(v) if v.chars().count() > 128 => Err(UserError::FieldTooLong(field)),
        _ => Ok(()),
    }
}

impl User {
    /// Decides which events a command produces, without changing the user.
    pub fn decide(&self, command: UserCommand) -> Result<Vec<UserEvent>, UserError> {
        if let UserCommand::SignUp { email, username, password_hash, is_admin } = command {
            if self.signed_up {
                return Err(UserError::AlreadySignedUp);
            }
            let username = clean_username(&username)?;
            return Ok(vec![UserEvent::UserSignedUp { email, username, password_hash, is_admin }]);
        }
        if !self.signed_up {
            return Err(UserError::NotFound);
        }
        if self.erased {
            return Err(UserError::Erased);
        }
        match command {
            UserCommand::SignUp { .. } => unreachable!("handled above"),
            UserCommand::UpdateProfile(change) => {
                let username = change.username.as_deref().map(clean_username).transpose()?;
                bounded("industry", &change.industry)?;
                bounded("profession", &change.profession)?;
                bounded("whatsapp_number", &change.whatsapp_number)?;
                let whatsapp_number = change.whatsapp_number.as_deref().map(clean_whatsapp_number).transpose()?;
                let next = UserEvent::ProfileUpdated {
                    username: username.unwrap_or_else(|| self.username.clone()),
                    industry: change.industry.or_else(|| self.industry.clone()),
                    profession: change.profession.or_else(|| self.profession.clone()),
                    whatsapp_number: whatsapp_number.or_else(|| self.whatsapp_number.clone()),
                };
                let current = UserEvent::ProfileUpdated {
                    username: self.username.clone(),
                    industry: self.industry.clone(),
                    profession: self.profession.clone(),
                    whatsapp_number: self.whatsapp_number.clone(),
                };
                Ok(if next == current { vec![] } else { vec![next] })
            }
            UserCommand::ChangePreferences { nav_state, askneedl_pro } => {
                let nav_state = nav_state.or(self.nav_state);
                let askneedl_pro = askneedl_pro.unwrap_or(self.askneedl_pro);
                if nav_state == self.nav_state && askneedl_pro == self.askneedl_pro {
                    return Ok(vec![]);
                }
                Ok(vec![UserEvent::PreferencesChanged { nav_state, askneedl_pro }])
            }
            UserCommand::CompleteOnboarding => {
                Ok(if self.onboarded { vec![] } else { vec![UserEvent::OnboardingCompleted] })
            }
            UserCommand::SetFeatureFlag { flag, value } => {
                if !flags::is_known(&flag) {
                    return Err(UserError::UnknownFlag(flag));
                }
                if value != "on" && value != "off" {
                    return Err(UserError::InvalidFlagValue);
                }
                let unchanged = self.flags.iter().any(|(f, v)| *f == flag && *v == value);
                Ok(if unchanged { vec![] } else { vec![UserEvent::FeatureFlagSet { flag, value }] })
            }
            UserCommand::GrantRole(role) => {
                Ok(if self.roles.contains(&role) { vec![] } else { vec![UserEvent::RoleGranted { role }] })
            }
            UserCommand::RevokeRole(role) => {
                Ok(if self.roles.contains(&role) { vec![UserEvent::RoleRevoked { role }] } else { vec![] })
            }
            UserCommand::ChangePassword { password_hash } => Ok(vec![UserEvent::PasswordChanged { password_hash }]),
            UserCommand::IssueResetLink { token_hash, expires_at, by_admin } => {
                Ok(vec![UserEvent::PasswordResetLinkIssued { token_hash, expires_at, by_admin }])
            }
            UserCommand::ResetPassword { token_hash, password_hash, at } => match &self.reset_link {
                Some(link) if link.token_hash == token_hash && at < link.expires_at => {
                    Ok(vec![UserEvent::PasswordReset { token_hash, password_hash }])
                }
                _ => Err(UserError::ResetLinkInvalid),
            },
            UserCommand::Erase { by_admin } => Ok(vec![UserEvent::UserErased { by_admin }]),
            UserCommand::IssueWhatsappCode { code_hash, at } => {
                let number = self.whatsapp_number.clone().filter(|n| !n.is_empty());
                let Some(number) = number else {
                    return Err(UserError::WhatsappNumberMissing);
                };
                if self.whatsapp_verified.as_ref() == Some(&number) {
                    return Err(UserError::WhatsappAlreadyVerified);
                }
                if let Some(wait) = code_wait(&self.codes_sent, at) {
                    return Err(UserError::TooManyCodes(wait));
                }
                let expires_at = at + chrono::Duration::minutes(CODE_MINUTES);
                Ok(vec![UserEvent::WhatsappCodeIssued { number, code_hash, expires_at }])
            }
            UserCommand::VerifyWhatsapp { code_hash, at } => {
                let Some(code) = &self.whatsapp_code else {
                    return Err(UserError::NoCode);
                };
                if at >= code.expires_at || code.tries_left == 0 {
                    return Err(UserError::CodeExpired);
                }
                if code.code_hash == code_hash {
                    Ok(vec![UserEvent::WhatsappVerified { number: code.number.clone() }])
                } else {
                    Ok(vec![UserEvent::WhatsappCodeRejected { tries_left: code.tries_left - 1 }])
                }
            }
            UserCommand::AssignPlan { plan } => {
                if plan::plan(&plan).is_none() {
                    return Err(UserError::UnknownPlan(plan));
                }
                let current = plan::plan_or_default(self.plan.as_deref()).id;
                Ok(if current == plan { vec![] } else { vec![UserEvent::PlanAssigned { plan }] })
            }
        }
    }
}

impl Aggregate for User {
    const TYPE: &'static str = "user";
    type Command = UserCommand;
    type Event = UserEvent;
    type Error = UserError;
    type Services = ();

    crate::handle_by_deciding!();

    fn apply(&mut self, event: Self::Event) {
        match event {
            UserEvent::UserSignedUp { username, is_admin, .. } => {
                self.signed_up = true;
                self.username = username;
                if is_admin {
                    self.roles.push(Role::Admin);
                }
            }
            UserEvent::ProfileUpdated { username, industry, profession, whatsapp_number } => {
                self.username = username;
                self.industry = industry;
                self.profession = profession;
                if whatsapp_number != self.whatsapp_number {
                    // Another number: what was verified, and the code sent, were for the old one.
                    self.whatsapp_verified = None;
                    self.whatsapp_code = None;
                }
                self.whatsapp_number = whatsapp_number;
            }
            UserEvent::PreferencesChanged { nav_state, askneedl_pro } => {
                self.nav_state = nav_state;
                self.askneedl_pro = askneedl_pro;
            }
            UserEvent::OnboardingCompleted => self.onboarded = true,
            UserEvent::FeatureFlagSet { flag, value } => {
                self.flags.retain(|(f, _)| *f != flag);
                self.flags.push((flag, value));
            }
            UserEvent::RoleGranted { role } => self.roles.push(role),
            UserEvent::RoleRevoked { role } => self.roles.retain(|r| *r != role),
            UserEvent::PasswordChanged { .. } | UserEvent::PasswordReset { .. } => self.reset_link = None,
            UserEvent::PasswordResetLinkIssued { token_hash, expires_at, .. } => {
                self.reset_link = Some(ResetLink { token_hash, expires_at });
            }
            UserEvent::UserErased { .. } => {
                *self = User { signed_up: true, erased: true, ..User::default() };
            }
            UserEvent::PlanAssigned { plan } => self.plan = Some(plan),
            UserEvent::WhatsappCodeIssued { number, code_hash, expires_at } => {
                let sent = expires_at - chrono::Duration::minutes(CODE_MINUTES);
                self.codes_sent.retain(|t| sent - *t < chrono::Duration::hours(1));
                self.codes_sent.push(sent);
                self.whatsapp_code = Some(WhatsappCode { number, code_hash, expires_at, tries_left: CODE_TRIES });
            }
            UserEvent::WhatsappCodeRejected { tries_left } => {
                if let Some(code) = &mut self.whatsapp_code {
                    code.tries_left = tries_left;
                }
            }
            UserEvent::WhatsappVerified { number } => {
                self.whatsapp_verified = Some(number);
                self.whatsapp_code = None;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cqrs_es::test::TestFramework;

    type UserTest = TestFramework<User>;

    fn signed_up() -> UserEvent {
        UserEvent::UserSignedUp {
            email: "ada@example.com".into(),
            username: "ada".into(),
            password_hash: "$argon2id$stub".into(),
            is_admin: false,
        }
    }

    #[test]
    fn signing_up_records_the_account() {
        UserTest::with(())
            .given_no_previous_events()
            .when(UserCommand::SignUp {
                email: "ada@example.com".into(),
                username: "  ada ".into(),
                password_hash: "$argon2id$stub".into(),
                is_admin: false,
            })
            .then_expect_events(vec![signed_up()]);
    }

    /// A second sign-up of the account `signed_up` made.
    fn sign_up_again() -> UserCommand {
        UserCommand::SignUp {
            email: "ada@example.com".into(),
            username: "ada".into(),
            password_hash: "x".into(),
            is_admin: false,
        }
    }

    #[test]
    fn signing_up_twice_is_rejected() {
        UserTest::with(()).given(vec![signed_up()]).when(sign_up_again()).then_expect_error(UserError::AlreadySignedUp);
    }

    #[test]
    fn a_blank_username_is_rejected() {
        UserTest::with(())
            .given_no_previous_events()
            .when(UserCommand::SignUp {
                email: "a@b.c".into(),
                username: "   ".into(),
                password_hash: "x".into(),
                is_admin: false,
            })
            .then_expect_error(UserError::InvalidUsername);
    }

    #[test]
    fn a_username_with_control_or_invisible_characters_is_rejected() {
        let hidden = [
            "ada\u{0}",
            "ad\na",
            "ada\u{7}bell",
            "\u{202E}ada",
            "a\u{200B}da",
            "ada\u{FEFF}x",
            "a\u{2028}b",
            "ada\u{00A0}bob",
            "\u{3164}",
            "\u{200D}ada",
            "\u{0301}\u{0301}",
        ];
        for name in hidden {
            assert_eq!(clean_username(name), Err(UserError::HiddenCharacters), "{name:?}");
        }
        assert_eq!(UserError::HiddenCharacters.code(), "invalid_username");
        assert_eq!(
            UserError::HiddenCharacters.to_string(),
            "username must not contain control or invisible characters"
        );
        UserTest::with(())
            .given_no_previous_events()
            .when(UserCommand::SignUp {
                email: "a@b.c".into(),
                username: "ad\u{7}a".into(),
                password_hash: "x".into(),
                is_admin: false,
            })
            .then_expect_error(UserError::HiddenCharacters);
        UserTest::with(())
            .given(vec![signed_up()])
            .when(UserCommand::UpdateProfile(ProfileChange {
                username: Some("ada\u{202E}".into()),
                ..Default::default()
            }))
            .then_expect_error(UserError::HiddenCharacters);
    }

    #[test]
    fn usernames_in_any_script_with_emoji_and_joiners_are_kept_trimmed() {
        for name in ["Ada Lovelace", "José", "李小龍", "محمد\u{200C}رضا", "👩\u{200D}💻 dev", "O'Brien-2"]
        {
            assert_eq!(clean_username(&format!("  {name}\t")), Ok(name.to_string()), "{name:?}");
        }
        assert_eq!(clean_username(&"a".repeat(MAX_USERNAME_CHARS)).map(|n| n.len()), Ok(MAX_USERNAME_CHARS));
        assert_eq!(clean_username(&"a".repeat(MAX_USERNAME_CHARS + 1)), Err(UserError::InvalidUsername));
        assert_eq!(clean_username(&"a".repeat(900_000)), Err(UserError::InvalidUsername));
    }

    #[test]
    fn commands_on_a_user_that_does_not_exist_are_rejected() {
        UserTest::with(())
            .given_no_previous_events()
            .when(UserCommand::CompleteOnboarding)
            .then_expect_error(UserError::NotFound);
    }

    #[test]
    fn changing_one_preference_keeps_the_other() {
        UserTest::with(())
            .given(vec![
                signed_up(),
                UserEvent::PreferencesChanged { nav_state: Some(NavState::Closed), askneedl_pro: false },
            ])
            .when(UserCommand::ChangePreferences { nav_state: None, askneedl_pro: Some(true) })
            .then_expect_events(vec![UserEvent::PreferencesChanged {
                nav_state: Some(NavState::Closed),
                askneedl_pro: true,
            }]);
    }

    #[test]
    fn a_preference_change_that_changes_nothing_records_nothing() {
        UserTest::with(())
            .given(vec![signed_up()])
            .when(UserCommand::ChangePreferences { nav_state: None, askneedl_pro: Some(false) })
            .then_expect_events(vec![]);
    }

    #[test]
    fn profile_updates_carry_the_whole_profile() {
        UserTest::with(())
            .given(vec![signed_up()])
            .when(UserCommand::UpdateProfile(ProfileChange { industry: Some("Banking".into()), ..Default::default() }))
            .then_expect_events(vec![UserEvent::ProfileUpdated {
                username: "ada".into(),
                industry: Some("Banking".into()),
                profession: None,
                whatsapp_number: None,
            }]);
    }

    #[test]
    fn onboarding_completes_once() {
        UserTest::with(())
            .given(vec![signed_up(), UserEvent::OnboardingCompleted])
            .when(UserCommand::CompleteOnboarding)
            .then_expect_events(vec![]);
    }

    #[test]
    fn an_unknown_feature_flag_is_rejected() {
        UserTest::with(())
            .given(vec![signed_up()])
            .when(UserCommand::SetFeatureFlag { flag: "teleport".into(), value: "on".into() })
            .then_expect_error(UserError::UnknownFlag("teleport".into()));
    }

    #[test]
    fn a_flag_value_other_than_on_or_off_is_rejected() {
        UserTest::with(())
            .given(vec![signed_up()])
            .when(UserCommand::SetFeatureFlag { flag: "notebooks".into(), value: "true".into() })
            .then_expect_error(UserError::InvalidFlagValue);
    }

    #[test]
    fn setting_a_flag_to_its_current_value_records_nothing() {
        UserTest::with(())
            .given(vec![signed_up(), UserEvent::FeatureFlagSet { flag: "notebooks".into(), value: "off".into() }])
            .when(UserCommand::SetFeatureFlag { flag: "notebooks".into(), value: "off".into() })
            .then_expect_events(vec![]);
    }

    #[test]
    fn granting_a_role_twice_records_it_once() {
        UserTest::with(())
            .given(vec![signed_up(), UserEvent::RoleGranted { role: Role::Auditor }])
            .when(UserCommand::GrantRole(Role::Auditor))
            .then_expect_events(vec![]);
    }

    #[test]
    fn the_first_administrator_already_holds_the_admin_role() {
        UserTest::with(())
            .given(vec![UserEvent::UserSignedUp {
                email: "root@example.com".into(),
                username: "root".into(),
                password_hash: "x".into(),
                is_admin: true,
            }])
            .when(UserCommand::RevokeRole(Role::Admin))
            .then_expect_events(vec![UserEvent::RoleRevoked { role: Role::Admin }]);
    }

    fn at(seconds: i64) -> DateTime<Utc> {
        DateTime::from_timestamp(1_900_000_000 + seconds, 0).unwrap()
    }

    fn link_issued(token_hash: &str) -> UserEvent {
        UserEvent::PasswordResetLinkIssued { token_hash: token_hash.into(), expires_at: at(3600), by_admin: false }
    }

    fn reset_with(token_hash: &str, seconds: i64) -> UserCommand {
        UserCommand::ResetPassword {
            token_hash: token_hash.into(),
            password_hash: "$argon2id$new".into(),
            at: at(seconds),
        }
    }

    #[test]
    fn changing_the_password_records_the_new_hash() {
        UserTest::with(())
            .given(vec![signed_up()])
            .when(UserCommand::ChangePassword { password_hash: "$argon2id$new".into() })
            .then_expect_events(vec![UserEvent::PasswordChanged { password_hash: "$argon2id$new".into() }]);
    }

    #[test]
    fn an_erased_account_takes_no_command_and_cannot_sign_up_again() {
        UserTest::with(())
            .given(vec![signed_up()])
            .when(UserCommand::Erase { by_admin: false })
            .then_expect_events(vec![UserEvent::UserErased { by_admin: false }]);
        let erased = vec![signed_up(), UserEvent::UserErased { by_admin: true }];
        for command in [
            UserCommand::Erase { by_admin: false },
            UserCommand::ChangePassword { password_hash: "$argon2id$new".into() },
            UserCommand::GrantRole(Role::Admin),
            UserCommand::UpdateProfile(ProfileChange { username: Some("back".into()), ..Default::default() }),
        ] {
            UserTest::with(()).given(erased.clone()).when(command).then_expect_error(UserError::Erased);
        }
        UserTest::with(()).given(erased).when(sign_up_again()).then_expect_error(UserError::AlreadySignedUp);
    }

    #[test]
    fn a_whatsapp_number_is_international_and_kept_as_typed() {
        for number in ["+44 7700 900123", "+91-98765-43210", "+1 (415) 555.0132", "  +4915112345678 "] {
            assert_eq!(clean_whatsapp_number(number), Ok(number.trim().to_string()), "{number}");
        }
        assert_eq!(clean_whatsapp_number("  "), Ok(String::new()), "blank clears it");
        for number in ["07700 900123", "+44 7700 9001x3", "+0 7700 900123", "+1234567", "+1234567890123456", "+"] {
            assert_eq!(clean_whatsapp_number(number), Err(UserError::InvalidWhatsappNumber), "{number}");
        }
    }

    fn with_number(number: &str) -> UserEvent {
        UserEvent::ProfileUpdated {
            username: "ada".into(),
            industry: None,
            profession: None,
            whatsapp_number: Some(number.into()),
        }
    }

    fn issued(number: &str, hash: &str, seconds: i64) -> UserEvent {
        UserEvent::WhatsappCodeIssued {
            number: number.into(),
            code_hash: hash.into(),
            expires_at: at(seconds) + chrono::Duration::minutes(CODE_MINUTES),
        }
    }

    #[test]
    fn a_whatsapp_code_goes_to_the_profile_number_and_verifies_it_once() {
        let issue = |seconds| UserCommand::IssueWhatsappCode { code_hash: "h".into(), at: at(seconds) };
        let verify = |hash: &str, seconds| UserCommand::VerifyWhatsapp { code_hash: hash.into(), at: at(seconds) };
        const N: &str = "+44 7700 900123";
        UserTest::with(()).given(vec![signed_up()]).when(issue(0)).then_expect_error(UserError::WhatsappNumberMissing);
        UserTest::with(())
            .given(vec![signed_up(), with_number(N)])
            .when(issue(0))
            .then_expect_events(vec![issued(N, "h", 0)]);
        let sent = vec![signed_up(), with_number(N), issued(N, "h", 0)];
        UserTest::with(())
            .given(sent.clone())
            .when(verify("wrong", 10))
            .then_expect_events(vec![UserEvent::WhatsappCodeRejected { tries_left: CODE_TRIES - 1 }]);
        UserTest::with(())
            .given(sent.clone())
            .when(verify("h", 10))
            .then_expect_events(vec![UserEvent::WhatsappVerified { number: N.into() }]);
        UserTest::with(()).given(sent.clone()).when(verify("h", 601)).then_expect_error(UserError::CodeExpired);
        UserTest::with(())
            .given(vec![signed_up(), with_number(N)])
            .when(verify("h", 1))
            .then_expect_error(UserError::NoCode);
        let mut exhausted = sent.clone();
        exhausted.extend((0..CODE_TRIES).rev().map(|tries_left| UserEvent::WhatsappCodeRejected { tries_left }));
        UserTest::with(()).given(exhausted).when(verify("h", 20)).then_expect_error(UserError::CodeExpired);
        let verified = [sent.clone(), vec![UserEvent::WhatsappVerified { number: N.into() }]].concat();
        UserTest::with(())
            .given(verified.clone())
            .when(issue(3000))
            .then_expect_error(UserError::WhatsappAlreadyVerified);
        // Another number is unverified again, and the old code does not verify it.
        let changed = [verified, vec![with_number("+91 98765 43210")]].concat();
        UserTest::with(()).given(changed.clone()).when(verify("h", 30)).then_expect_error(UserError::NoCode);
        UserTest::with(()).given(changed).when(issue(3000)).then_expect_events(vec![issued(
            "+91 98765 43210",
            "h",
            3000,
        )]);
    }

    #[test]
    fn codes_are_limited_to_one_a_minute_and_five_an_hour() {
        const N: &str = "+44 7700 900123";
        let issue = |seconds| UserCommand::IssueWhatsappCode { code_hash: "h".into(), at: at(seconds) };
        let one = vec![signed_up(), with_number(N), issued(N, "h", 0)];
        UserTest::with(()).given(one.clone()).when(issue(20)).then_expect_error(UserError::TooManyCodes(40));
        UserTest::with(()).given(one).when(issue(60)).then_expect_events(vec![issued(N, "h", 60)]);
        let mut five = vec![signed_up(), with_number(N)];
        five.extend((0..5).map(|i| issued(N, "h", i * 120)));
        UserTest::with(()).given(five.clone()).when(issue(700)).then_expect_error(UserError::TooManyCodes(2900));
        UserTest::with(()).given(five).when(issue(3600)).then_expect_events(vec![issued(N, "h", 3600)]);
    }

    #[test]
    fn a_plan_is_assigned_once_and_only_a_known_one() {
        let assign = |plan: &str| UserCommand::AssignPlan { plan: plan.into() };
        UserTest::with(())
            .given(vec![signed_up()])
            .when(assign("pro"))
            .then_expect_events(vec![UserEvent::PlanAssigned { plan: "pro".into() }]);
        UserTest::with(())
            .given(vec![signed_up(), UserEvent::PlanAssigned { plan: "pro".into() }])
            .when(assign("pro"))
            .then_expect_events(vec![]);
        UserTest::with(()).given(vec![signed_up()]).when(assign("free")).then_expect_events(vec![]);
        UserTest::with(())
            .given(vec![signed_up()])
            .when(assign("gold"))
            .then_expect_error(UserError::UnknownPlan("gold".into()));
    }

    #[test]
    fn a_reset_link_sets_the_password_before_it_expires() {
        UserTest::with(()).given(vec![signed_up(), link_issued("h1")]).when(reset_with("h1", 3599)).then_expect_events(
            vec![UserEvent::PasswordReset { token_hash: "h1".into(), password_hash: "$argon2id$new".into() }],
        );
    }

    #[test]
    fn a_reset_link_works_once() {
        UserTest::with(())
            .given(vec![
                signed_up(),
                link_issued("h1"),
                UserEvent::PasswordReset { token_hash: "h1".into(), password_hash: "$argon2id$new".into() },
            ])
            .when(reset_with("h1", 10))
            .then_expect_error(UserError::ResetLinkInvalid);
    }

    #[test]
    fn an_expired_reset_link_is_refused() {
        UserTest::with(())
            .given(vec![signed_up(), link_issued("h1")])
            .when(reset_with("h1", 3600))
            .then_expect_error(UserError::ResetLinkInvalid);
    }

    #[test]
    fn a_newer_link_or_a_changed_password_voids_an_earlier_link() {
        UserTest::with(())
            .given(vec![signed_up(), link_issued("h1"), link_issued("h2")])
            .when(reset_with("h1", 10))
            .then_expect_error(UserError::ResetLinkInvalid);
        UserTest::with(())
            .given(vec![
                signed_up(),
                link_issued("h1"),
                UserEvent::PasswordChanged { password_hash: "$argon2id$other".into() },
            ])
            .when(reset_with("h1", 10))
            .then_expect_error(UserError::ResetLinkInvalid);
    }

    #[test]
    fn a_reset_link_is_not_issued_for_a_user_who_does_not_exist() {
        UserTest::with(())
            .given_no_previous_events()
            .when(UserCommand::IssueResetLink { token_hash: "h1".into(), expires_at: at(60), by_admin: true })
            .then_expect_error(UserError::NotFound);
    }
}
