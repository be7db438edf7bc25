//! Administration below HTTP.

use domain::user::Role;

use crate::error::{Error, Result};

/// The role a name gives: `admin` or `auditor`.
pub fn parse_role(role: &str) -> Result<Role> {
    match role {
        "admin" => Ok(Role::Admin),
        "auditor" => Ok(Role::Auditor),
        _ => Err(Error::invalid("unknown_role", "a role is admin or auditor")),
    }
}
