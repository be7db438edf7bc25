//! Document summaries: one person's request for a summary of one document, written in the
//! background into a PDF. The aggregate id is [`summary_id`] of the user and the document's
//! deeplink, so asking twice is one summary.
//!
//! The states are the spec's: none, then PENDING (asked, waiting for a worker) or PROCESSING (a
//! worker is writing it), then SUCCESS with the PDF. A summary that could not be written is
//! FAILED with the reason, and may be asked for again.

use cqrs_es::Aggregate;
use serde::{Deserialize, Serialize};

use crate::error::{DomainError, ErrorKind};

/// Returns the aggregate id of `user_id`'s summary of `deeplink`.
pub fn summary_id(user_id: &str, deeplink: &str) -> String {
    format!("{user_id}/{deeplink}")
}

/// Where a summary is.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum SummaryStatus {
    #[default]
    None,
    Pending,
    Processing,
    Success,
    Failed,
}

impl SummaryStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            SummaryStatus::None => "NONE",
            SummaryStatus::Pending => "PENDING",
            SummaryStatus::Processing => "PROCESSING",
            SummaryStatus::Success => "SUCCESS",
            SummaryStatus::Failed => "FAILED",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum SummaryCommand {
    /// A person asks for a summary of a document they can read.
    Request {
        user_id: String,
        deeplink: String,
        title: String,
    },
    /// A worker starts writing it.
    Start,
    /// The PDF is written and stored under `pdf_key`.
    Complete {
        pdf_key: String,
        points: u32,
    },
    Fail {
        reason: String,
    },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum SummaryEvent {
    SummaryRequested { user_id: String, deeplink: String, title: String },
    SummaryStarted { user_id: String },
    SummaryCompleted { user_id: String, deeplink: String, title: String, pdf_key: String, points: u32 },
    SummaryFailed { user_id: String, reason: String },
}

crate::impl_domain_event! {
    SummaryEvent, versions {
        SummaryRequested: "1",
        SummaryStarted: "1",
        SummaryCompleted: "1",
        SummaryFailed: "1",
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SummaryError {
    #[error("no summary was asked for")]
    NotRequested,
    #[error("the summary is not being written")]
    NotInProgress,
}

impl DomainError for SummaryError {
    fn kind(&self) -> ErrorKind {
        match self {
            SummaryError::NotRequested => ErrorKind::NotFound,
            SummaryError::NotInProgress => ErrorKind::Conflict,
        }
    }

    fn code(&self) -> &'static str {
        match self {
            SummaryError::NotRequested => "summary_not_requested",
            SummaryError::NotInProgress => "summary_not_in_progress",
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Summary {
    user_id: Option<String>,
    deeplink: String,
    title: String,
    status: SummaryStatus,
}

impl Summary {
    pub fn status(&self) -> SummaryStatus {
        self.status
    }

    pub fn decide(&self, command: SummaryCommand) -> Result<Vec<SummaryEvent>, SummaryError> {
        match command {
            SummaryCommand::Request { user_id, deeplink, title } => match self.status {
                // Asked for already (or written): one summary, however often the button is pressed.
                SummaryStatus::Pending | SummaryStatus::Processing | SummaryStatus::Success => Ok(vec![]),
                SummaryStatus::None | SummaryStatus::Failed => {
                    Ok(vec![SummaryEvent::SummaryRequested { user_id, deeplink, title }])
                }
            },
            SummaryCommand::Start => {
                let user_id = self.user_id.clone().ok_or(SummaryError::NotRequested)?;
                match self.status {
                    SummaryStatus::Pending => Ok(vec![SummaryEvent::SummaryStarted { user_id }]),
                    // A worker that took over from one that died starts again.
                    SummaryStatus::Processing => Ok(vec![]),
                    _ => Err(SummaryError::NotInProgress),
                }
            }
            SummaryCommand::Complete { pdf_key, points } => {
                let user_id = self.in_progress()?;
                Ok(vec![SummaryEvent::SummaryCompleted {
                    user_id,
                    deeplink: self.deeplink.clone(),
                    title: self.title.clone(),
                    pdf_key,
                    points,
                }])
            }
            SummaryCommand::Fail { reason } => {
                let user_id = self.in_progress()?;
                let reason: String =
                    reason.split_whitespace().collect::<Vec<_>>().join(" ").chars().take(300).collect();
                Ok(vec![SummaryEvent::SummaryFailed { user_id, reason }])
            }
        }
    }

    fn in_progress(&self) -> Result<String, SummaryError> {
        let user_id = self.user_id.clone().ok_or(SummaryError::NotRequested)?;
        match self.status {
            SummaryStatus::Pending | SummaryStatus::Processing => Ok(user_id),
            _ => Err(SummaryError::NotInProgress),
        }
    }
}

impl Aggregate for Summary {
    const TYPE: &'static str = "document_summary";
    type Command = SummaryCommand;
    type Event = SummaryEvent;
    type Error = SummaryError;
    type Services = ();

    crate::handle_by_deciding!();

    fn apply(&mut self, event: Self::Event) {
        match event {
            SummaryEvent::SummaryRequested { user_id, deeplink, title } => {
                self.user_id = Some(user_id);
                self.deeplink = deeplink;
                self.title = title;
                self.status = SummaryStatus::Pending;
            }
            SummaryEvent::SummaryStarted { .. } => self.status = SummaryStatus::Processing,
            SummaryEvent::SummaryCompleted { .. } => self.status = SummaryStatus::Success,
            SummaryEvent::SummaryFailed { .. } => self.status = SummaryStatus::Failed,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(summary: &mut Summary, command: SummaryCommand) -> Result<Vec<SummaryEvent>, SummaryError> {
        let events = summary.decide(command)?;
        for event in events.clone() {
            summary.apply(event);
        }
        Ok(events)
    }

    fn request() -> SummaryCommand {
        SummaryCommand::Request { user_id: "ann".into(), deeplink: "doc_1".into(), title: "Annual report".into() }
    }

    #[test]
    fn a_summary_goes_pending_processing_success_once() {
        let mut summary = Summary::default();
        assert_eq!(run(&mut summary, SummaryCommand::Start), Err(SummaryError::NotRequested));
        assert_eq!(run(&mut summary, request()).unwrap().len(), 1);
        assert_eq!(summary.status(), SummaryStatus::Pending);
        assert_eq!(run(&mut summary, request()), Ok(vec![]), "asking again is the same summary");
        assert_eq!(run(&mut summary, SummaryCommand::Start).unwrap().len(), 1);
        assert_eq!(run(&mut summary, SummaryCommand::Start), Ok(vec![]), "a second worker takes over");
        let done = run(&mut summary, SummaryCommand::Complete { pdf_key: "k".into(), points: 5 }).unwrap();
        assert!(
            matches!(&done[..], [SummaryEvent::SummaryCompleted { deeplink, title, .. }] if deeplink == "doc_1" && title == "Annual report")
        );
        assert_eq!(summary.status(), SummaryStatus::Success);
        assert_eq!(run(&mut summary, request()), Ok(vec![]));
        assert_eq!(run(&mut summary, SummaryCommand::Fail { reason: "x".into() }), Err(SummaryError::NotInProgress));
    }

    #[test]
    fn a_failed_summary_may_be_asked_for_again() {
        let mut summary = Summary::default();
        run(&mut summary, request()).unwrap();
        run(&mut summary, SummaryCommand::Fail { reason: "  the document\nhas no text ".into() }).unwrap();
        assert_eq!(summary.status(), SummaryStatus::Failed);
        assert_eq!(run(&mut summary, request()).unwrap().len(), 1);
        assert_eq!(summary.status(), SummaryStatus::Pending);
    }
}
