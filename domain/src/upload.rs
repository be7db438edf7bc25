//! One uploaded file, from the signed upload link to the document it became.
//!
//! The browser asks for an upload link (initiated), sends the file to storage, reports the
//! transfer done (processing), and the server extracts it into a document (completed) or says
//! why it could not (failed). The user may remove it at any time. The aggregate id is
//! [`upload_id`] of the user and the browser's file id, so two users' ids never collide.

use cqrs_es::Aggregate;
use serde::{Deserialize, Serialize};

use crate::error::{DomainError, ErrorKind};

/// Returns the aggregate id of a user's upload with the browser's file id.
pub fn upload_id(user_id: &str, file_id: &str) -> String {
    format!("{user_id}/{file_id}")
}

/// Where an upload is on its way; the names are the spec's attachment statuses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum UploadStatus {
    Uploading,
    Processing,
    Completed,
    Failed,
    Removed,
}

impl UploadStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            UploadStatus::Uploading => "UPLOADING",
            UploadStatus::Processing => "PROCESSING",
            UploadStatus::Completed => "COMPLETED",
            UploadStatus::Failed => "FAILED",
            UploadStatus::Removed => "REMOVED",
        }
    }
}

/// What the browser declared about a file when asking to upload it, and where it goes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct UploadTarget {
    pub user_id: String,
    /// The browser's id for the file.
    pub file_id: String,
    /// The upload source: `needldrive`, `ask_needl`, ...
    pub source: String,
    pub name: String,
    pub mime_type: String,
    /// Object storage bucket and key the file is written to.
    pub bucket: String,
    pub key: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum UploadCommand {
    /// An upload link was handed out (again, for a retry after a failure).
    Initiate(UploadTarget),
    /// The browser reports the transfer done; storage holds `size` bytes at the key.
    Complete {
        size: u64,
        feed_id: Option<String>,
    },
    /// Extraction made the file into the document `deeplink`.
    Finish {
        deeplink: String,
        pages: u32,
    },
    /// The file could not be made into a document, for `reason`.
    Fail {
        reason: String,
    },
    Remove,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum UploadEvent {
    UploadInitiated(UploadTarget),
    UploadTransferred { user_id: String, size: u64, feed_id: Option<String> },
    UploadProcessed { user_id: String, deeplink: String, pages: u32 },
    UploadFailed { user_id: String, reason: String },
    UploadRemoved { user_id: String, deeplink: Option<String> },
}

crate::impl_domain_event! {
    UploadEvent, versions {
        UploadInitiated: "1",
        UploadTransferred: "1",
        UploadProcessed: "1",
        UploadFailed: "1",
        UploadRemoved: "1",
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UploadError {
    #[error("no such upload")]
    NotFound,
    #[error("this file is already being processed or done")]
    AlreadyCompleted,
    #[error("the file was not uploaded: ask for a new upload link")]
    NotUploading,
    #[error("the upload is not being processed")]
    NotProcessing,
}

impl DomainError for UploadError {
    fn kind(&self) -> ErrorKind {
        match self {
            UploadError::NotFound => ErrorKind::NotFound,
            UploadError::AlreadyCompleted | UploadError::NotUploading | UploadError::NotProcessing => {
                ErrorKind::Conflict
            }
        }
    }

    fn code(&self) -> &'static str {
        match self {
            UploadError::NotFound => "upload_not_found",
            UploadError::AlreadyCompleted => "upload_already_completed",
            UploadError::NotUploading => "upload_not_uploading",
            UploadError::NotProcessing => "upload_not_processing",
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Upload {
    target: Option<UploadTarget>,
    status: Option<UploadStatus>,
    deeplink: Option<String>,
}

impl Upload {
    pub fn status(&self) -> Option<UploadStatus> {
        self.status
    }

    pub fn decide(&self, command: UploadCommand) -> Result<Vec<UploadEvent>, UploadError> {
        use UploadStatus::*;
        let user_id = || self.target.as_ref().map(|t| t.user_id.clone()).unwrap_or_default();
        match (command, self.status) {
            // A new link for a file never sent, or sent and failed, or removed: start over.
            (UploadCommand::Initiate(target), None | Some(Uploading | Failed | Removed)) => {
                Ok(vec![UploadEvent::UploadInitiated(target)])
            }
            (UploadCommand::Initiate(_), Some(Processing | Completed)) => Err(UploadError::AlreadyCompleted),
            (_, None) => Err(UploadError::NotFound),
            (UploadCommand::Complete { size, feed_id }, Some(Uploading)) => {
                Ok(vec![UploadEvent::UploadTransferred { user_id: user_id(), size, feed_id }])
            }
            // Completing twice (a retried request) changes nothing.
            (UploadCommand::Complete { .. }, Some(Processing | Completed)) => Ok(vec![]),
            (UploadCommand::Complete { .. }, Some(Failed | Removed)) => Err(UploadError::NotUploading),
            (UploadCommand::Finish { deeplink, pages }, Some(Processing)) => {
                Ok(vec![UploadEvent::UploadProcessed { user_id: user_id(), deeplink, pages }])
            }
            (UploadCommand::Fail { reason }, Some(Uploading | Processing)) => {
                Ok(vec![UploadEvent::UploadFailed { user_id: user_id(), reason }])
            }
            (UploadCommand::Finish { .. } | UploadCommand::Fail { .. }, _) => Err(UploadError::NotProcessing),
            (UploadCommand::Remove, Some(Removed)) => Ok(vec![]),
            (UploadCommand::Remove, Some(_)) => {
                Ok(vec![UploadEvent::UploadRemoved { user_id: user_id(), deeplink: self.deeplink.clone() }])
            }
        }
    }
}

impl Aggregate for Upload {
    const TYPE: &'static str = "upload";
    type Command = UploadCommand;
    type Event = UploadEvent;
    type Error = UploadError;
    type Services = ();

    crate::handle_by_deciding!();

    fn apply(&mut self, event: Self::Event) {
        match event {
            UploadEvent::UploadInitiated(target) => {
                self.target = Some(target);
                self.status = Some(UploadStatus::Uploading);
                self.deeplink = None;
            }
            UploadEvent::UploadTransferred { .. } => self.status = Some(UploadStatus::Processing),
            UploadEvent::UploadProcessed { deeplink, .. } => {
                self.status = Some(UploadStatus::Completed);
                self.deeplink = Some(deeplink);
            }
            UploadEvent::UploadFailed { .. } => self.status = Some(UploadStatus::Failed),
            UploadEvent::UploadRemoved { .. } => self.status = Some(UploadStatus::Removed),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cqrs_es::test::TestFramework;

    fn target() -> UploadTarget {
        UploadTarget {
            user_id: "u1".into(),
            file_id: "f1".into(),
            source: "needldrive".into(),
            name: "report.pdf".into(),
            mime_type: "application/pdf".into(),
            bucket: "needl".into(),
            key: "u1/abc/report.pdf".into(),
        }
    }

    fn transferred() -> UploadEvent {
        UploadEvent::UploadTransferred { user_id: "u1".into(), size: 10, feed_id: None }
    }

    #[test]
    fn a_transferred_file_is_processed_into_a_document() {
        TestFramework::<Upload>::with(())
            .given(vec![UploadEvent::UploadInitiated(target()), transferred()])
            .when(UploadCommand::Finish { deeplink: "d1".into(), pages: 3 })
            .then_expect_events(vec![UploadEvent::UploadProcessed {
                user_id: "u1".into(),
                deeplink: "d1".into(),
                pages: 3,
            }]);
    }

    #[test]
    fn completing_twice_changes_nothing() {
        TestFramework::<Upload>::with(())
            .given(vec![UploadEvent::UploadInitiated(target()), transferred()])
            .when(UploadCommand::Complete { size: 10, feed_id: None })
            .then_expect_events(vec![]);
    }

    #[test]
    fn a_file_never_initiated_cannot_be_completed() {
        TestFramework::<Upload>::with(())
            .given_no_previous_events()
            .when(UploadCommand::Complete { size: 1, feed_id: None })
            .then_expect_error(UploadError::NotFound);
    }

    #[test]
    fn a_processed_file_is_not_initiated_again() {
        TestFramework::<Upload>::with(())
            .given(vec![
                UploadEvent::UploadInitiated(target()),
                transferred(),
                UploadEvent::UploadProcessed { user_id: "u1".into(), deeplink: "d1".into(), pages: 1 },
            ])
            .when(UploadCommand::Initiate(target()))
            .then_expect_error(UploadError::AlreadyCompleted);
    }

    #[test]
    fn a_failed_file_may_be_sent_again() {
        TestFramework::<Upload>::with(())
            .given(vec![
                UploadEvent::UploadInitiated(target()),
                UploadEvent::UploadFailed { user_id: "u1".into(), reason: "unreadable".into() },
            ])
            .when(UploadCommand::Initiate(target()))
            .then_expect_events(vec![UploadEvent::UploadInitiated(target())]);
    }

    #[test]
    fn removing_names_the_document_to_delete() {
        TestFramework::<Upload>::with(())
            .given(vec![
                UploadEvent::UploadInitiated(target()),
                transferred(),
                UploadEvent::UploadProcessed { user_id: "u1".into(), deeplink: "d1".into(), pages: 1 },
            ])
            .when(UploadCommand::Remove)
            .then_expect_events(vec![UploadEvent::UploadRemoved { user_id: "u1".into(), deeplink: Some("d1".into()) }]);
    }

    #[test]
    fn a_removed_file_is_not_finished() {
        TestFramework::<Upload>::with(())
            .given(vec![
                UploadEvent::UploadInitiated(target()),
                transferred(),
                UploadEvent::UploadRemoved { user_id: "u1".into(), deeplink: None },
            ])
            .when(UploadCommand::Finish { deeplink: "d1".into(), pages: 1 })
            .then_expect_error(UploadError::NotProcessing);
    }
}
