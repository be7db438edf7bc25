//! Event metadata: what auditors read. cqrs-es stores it as a string map beside each event.

use std::collections::HashMap;

use chrono::{DateTime, SecondsFormat, Utc};
use serde::{Deserialize, Serialize};

/// Who did what, from where, and when. Written on every event of every aggregate.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventMetadata {
    /// The acting user's id, or `system` for work the server does on its own.
    pub user_id: String,
    /// The id of the request that caused the event, to join events with logs.
    pub request_id: String,
    /// The `app-type` header of the request (`web`, `pulse`, `cli`, ...).
    pub app_type: String,
    /// The `x-request-origin` header: the page the request came from.
    pub request_origin: String,
    /// When the command was accepted.
    pub time: DateTime<Utc>,
}

pub const SYSTEM_USER: &str = "system";

impl EventMetadata {
    /// Metadata for work started by the server or an operator's command line, not a browser.
    pub fn system(app_type: &str, request_id: impl Into<String>) -> Self {
        Self {
            user_id: SYSTEM_USER.to_string(),
            request_id: request_id.into(),
            app_type: app_type.to_string(),
            request_origin: String::new(),
            time: Utc::now(),
        }
    }

    pub fn to_map(&self) -> HashMap<String, String> {
        HashMap::from([
            ("user_id".to_string(), self.user_id.clone()),
            ("request_id".to_string(), self.request_id.clone()),
            ("app_type".to_string(), self.app_type.clone()),
            ("request_origin".to_string(), self.request_origin.clone()),
            ("time".to_string(), self.time.to_rfc3339_opts(SecondsFormat::Millis, true)),
        ])
    }
}
