//! Who is asking: a signed-in person as the application layer sees them, and what their request
//! says about itself (recorded on every event it causes).

use chrono::{DateTime, Utc};
use domain::EventMetadata;

use crate::error::{Error, Result};

/// What a request says about itself: its id, the kind of app that sent it and the page it came
/// from. Bounded in length where it is read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Origin {
    pub request_id: String,
    pub app_type: String,
    pub request_origin: String,
}

impl Origin {
    /// The metadata of an event that `user_id` causes with this request.
    pub fn metadata(&self, user_id: &str) -> EventMetadata {
        EventMetadata {
            user_id: user_id.to_string(),
            request_id: self.request_id.clone(),
            app_type: self.app_type.clone(),
            request_origin: self.request_origin.clone(),
            time: Utc::now(),
        }
    }
}

/// A signed-in person in a live session.
#[derive(Debug, Clone)]
pub struct Viewer {
    pub user_id: String,
    pub session_id: String,
    pub is_admin: bool,
    pub is_auditor: bool,
    /// Reads event metadata and counts for analytics, not event content.
    pub is_analyst: bool,
    pub origin: Origin,
    /// When the session was rotated (refreshed) and is honoured only until then: the end of its
    /// grace. `None` while the session has not been rotated.
    pub grace_ends_at: Option<DateTime<Utc>>,
}

impl Viewer {
    /// The metadata of an event this viewer causes.
    pub fn metadata(&self) -> EventMetadata {
        self.origin.metadata(&self.user_id)
    }

    pub fn require_admin(&self) -> Result<()> {
        if self.is_admin {
            Ok(())
        } else {
            Err(Error::forbidden("only an administrator may do this"))
        }
    }
}
