//! A report's progress while it is written: a passing message to its owner's live socket at
//! every step and at least every [`PROGRESS_EVERY`], so an open report shows which section is
//! being written even when one takes a while (a model writing it, say).
//!
//! The message is a hint, not an event: it is not stored, a client that was not connected never
//! gets it, and the report's events (each section completed) remain what a client refetches on.
//! It takes the live socket's shape (`type`, `ids`) with the progress beside it:
//! `{type: "report.progress", ids: [report_id], report_id, status: "RUNNING", sections,
//! sections_done, section, phase}`.

use std::sync::Mutex;
use std::time::Duration;

use projections::live::{Audience, LiveHub};
use serde::Serialize;

/// The longest gap between two progress messages while a report is written.
pub const PROGRESS_EVERY: Duration = Duration::from_secs(1);

/// What the worker is doing for the section at hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    /// Searching the report's files for the section's evidence.
    Retrieving,
    /// Writing the section from its evidence.
    Writing,
    /// Numbering the citations across the report and recording it.
    Assembling,
}

#[derive(Debug, Clone, Serialize)]
struct Message<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    ids: [&'a str; 1],
    report_id: &'a str,
    status: &'static str,
    sections: usize,
    sections_done: usize,
    section: &'a str,
    phase: Phase,
}

#[derive(Debug, Clone)]
struct State {
    sections: usize,
    sections_done: usize,
    section: String,
    phase: Phase,
}

/// One report's progress, sent to its owner alone.
pub struct Progress {
    hub: LiveHub,
    owner: String,
    report_id: String,
    state: Mutex<State>,
}

impl Progress {
    pub fn new(hub: LiveHub, owner: String, report_id: String) -> Progress {
        let state = State { sections: 0, sections_done: 0, section: String::new(), phase: Phase::Retrieving };
        Progress { hub, owner, report_id, state: Mutex::new(state) }
    }

    /// Records the step the worker is at and sends it now.
    pub fn at(&self, sections: usize, sections_done: usize, section: &str, phase: Phase) {
        {
            let mut state = self.state.lock().expect("progress state");
            *state = State { sections, sections_done, section: section.to_string(), phase };
        }
        self.send();
    }

    /// Sends the step the worker is at.
    pub fn send(&self) {
        let state = self.state.lock().expect("progress state").clone();
        let message = Message {
            kind: "report.progress",
            ids: [&self.report_id],
            report_id: &self.report_id,
            status: "RUNNING",
            sections: state.sections,
            sections_done: state.sections_done,
            section: &state.section,
            phase: state.phase,
        };
        let json = serde_json::to_string(&message).expect("a progress message serialises");
        self.hub.send_ephemeral(Audience::Owner(self.owner.clone()), json);
    }

    /// Sends the step the worker is at every [`PROGRESS_EVERY`]; never returns (it is raced
    /// against the writing).
    pub async fn beat(&self) {
        loop {
            tokio::time::sleep(PROGRESS_EVERY).await;
            self.send();
        }
    }
}
