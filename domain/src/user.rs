//! An account: who the user is, their profile, preferences, roles and feature flags.

use cqrs_es::{Aggregate, DomainEvent};
use serde::{Deserialize, Serialize};

use crate::error::{DomainError, ErrorKind};
use crate::flags;

/// The side navigation's saved state. The browser's machine has more states; only the two
/// resting ones are worth remembering.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum NavState {
    Opened,
    Closed,
}

/// Roles beyond a plain member.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// Manages the instance: flags, roles, publishing to the organisation.
    Admin,
    /// Reads the whole event history.
    Auditor,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum UserCommand {
    SignUp { email: String, username: String, password_hash: String, is_admin: bool },
    UpdateProfile(ProfileChange),
    ChangePreferences { nav_state: Option<NavState>, askneedl_pro: Option<bool> },
    CompleteOnboarding,
    SetFeatureFlag { flag: String, value: String },
    GrantRole(Role),
    RevokeRole(Role),
}

/// Profile fields to change; `None` leaves a field as it is.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProfileChange {
    pub username: Option<String>,
    pub industry: Option<String>,
    pub profession: Option<String>,
    pub whatsapp_number: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
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
}

impl DomainEvent for UserEvent {
    fn event_type(&self) -> String {
        match self {
            UserEvent::UserSignedUp { .. } => "UserSignedUp",
            UserEvent::ProfileUpdated { .. } => "ProfileUpdated",
            UserEvent::PreferencesChanged { .. } => "PreferencesChanged",
            UserEvent::OnboardingCompleted => "OnboardingCompleted",
            UserEvent::FeatureFlagSet { .. } => "FeatureFlagSet",
            UserEvent::RoleGranted { .. } => "RoleGranted",
            UserEvent::RoleRevoked { .. } => "RoleRevoked",
        }
        .to_string()
    }

    fn event_version(&self) -> String {
        "1".to_string()
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
    #[error("unknown feature flag '{0}'")]
    UnknownFlag(String),
    #[error("a feature flag value must be 'on' or 'off'")]
    InvalidFlagValue,
    #[error("{0} must be at most 128 characters")]
    FieldTooLong(&'static str),
}

impl DomainError for UserError {
    fn kind(&self) -> ErrorKind {
        match self {
            UserError::AlreadySignedUp => ErrorKind::Conflict,
            UserError::NotFound => ErrorKind::NotFound,
            _ => ErrorKind::Invalid,
        }
    }

    fn code(&self) -> &'static str {
        match self {
            UserError::AlreadySignedUp => "already_signed_up",
            UserError::NotFound => "user_not_found",
            UserError::InvalidUsername => "invalid_username",
            UserError::UnknownFlag(_) => "unknown_flag",
            UserError::InvalidFlagValue => "invalid_flag_value",
            UserError::FieldTooLong(_) => "field_too_long",
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
}

fn valid_username(name: &str) -> bool {
    let trimmed = name.trim();
    !trimmed.is_empty() && trimmed.chars().count() <= 64
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
            if !valid_username(&username) {
                return Err(UserError::InvalidUsername);
            }
            return Ok(vec![UserEvent::UserSignedUp {
                email,
                username: username.trim().to_string(),
                password_hash,
                is_admin,
            }]);
        }
        if !self.signed_up {
            return Err(UserError::NotFound);
        }
        match command {
            UserCommand::SignUp { .. } => unreachable!("handled above"),
            UserCommand::UpdateProfile(change) => {
                if let Some(name) = &change.username {
                    if !valid_username(name) {
                        return Err(UserError::InvalidUsername);
                    }
                }
                bounded("industry", &change.industry)?;
                bounded("profession", &change.profession)?;
                bounded("whatsapp_number", &change.whatsapp_number)?;
                let next = UserEvent::ProfileUpdated {
                    username: change.username.map(|n| n.trim().to_string()).unwrap_or_else(|| self.username.clone()),
                    industry: change.industry.or_else(|| self.industry.clone()),
                    profession: change.profession.or_else(|| self.profession.clone()),
                    whatsapp_number: change.whatsapp_number.or_else(|| self.whatsapp_number.clone()),
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

    #[test]
    fn signing_up_twice_is_rejected() {
        UserTest::with(())
            .given(vec![signed_up()])
            .when(UserCommand::SignUp {
                email: "ada@example.com".into(),
                username: "ada".into(),
                password_hash: "x".into(),
                is_admin: false,
            })
            .then_expect_error(UserError::AlreadySignedUp);
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
}
