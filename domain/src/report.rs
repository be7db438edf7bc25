//! Research reports.
//!
//! A [`Report`] (the aggregate id is the report id) is one user's report over their files and,
//! optionally, a feed: requested with a type and a name, its files changed while it is a draft,
//! then generated section by section by a worker off the request path. Generation ends once:
//! completed (title, markdown, raw data, time taken), failed (a reason a person can act on) or
//! cancelled. The aggregate guards that a finished section is never written again, so a worker
//! that resumes another's job can only add the sections still missing; and that nothing is
//! accepted for a report after it ended. Only its owner sees or changes it: anyone else's command
//! is refused as not found.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use cqrs_es::Aggregate;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::{DomainError, ErrorKind};

/// The longest report name, in characters.
pub const MAX_REPORT_NAME_CHARS: usize = 200;
/// The longest brief of a custom research report, in characters.
pub const MAX_BRIEF_CHARS: usize = 4000;
/// The most sections a custom research outline is planned with.
pub const MAX_OPEN_SECTIONS: usize = 8;
/// The most characters of a rating's comments.
pub const MAX_COMMENTS_CHARS: usize = 5000;

/// The report types the product offers, stored by their spec keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum ReportType {
    MaintenanceCoverage,
    CreditReport,
    InitiationCoverage,
    OpenResearch,
    DrhpReport,
}

/// One section of an outline: its heading, and what is searched for to write it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SectionPlan {
    pub heading: String,
    pub query: String,
}

fn plan(heading: &str, query: &str) -> SectionPlan {
    SectionPlan { heading: heading.to_string(), query: query.to_string() }
}

impl ReportType {
    pub const ALL: [ReportType; 5] = [
        ReportType::MaintenanceCoverage,
        ReportType::CreditReport,
        ReportType::InitiationCoverage,
        ReportType::OpenResearch,
        ReportType::DrhpReport,
    ];

    /// Reads a spec key; anything else is [`ReportError::UnknownType`].
    pub fn parse(key: &str) -> Result<ReportType, ReportError> {
        ReportType::ALL.into_iter().find(|t| t.as_str() == key.trim()).ok_or(ReportError::UnknownType)
    }

    pub fn as_str(self) -> &'static str {
        match self {
            ReportType::MaintenanceCoverage => "maintenance_coverage",
            ReportType::CreditReport => "credit_report",
            ReportType::InitiationCoverage => "initiation_coverage",
            ReportType::OpenResearch => "open_research",
            ReportType::DrhpReport => "drhp_report",
        }
    }

    /// The key the app shows the type under (the spec's type mapping).
    pub fn shown_as(self) -> &'static str {
        match self {
            ReportType::CreditReport => "credit_rating",
            ReportType::OpenResearch => "custom_research",
            other => other.as_str(),
        }
    }

    /// The type's name in a report's title.
    pub fn label(self) -> &'static str {
        match self {
            ReportType::MaintenanceCoverage => "Maintenance coverage",
            ReportType::CreditReport => "Credit rating report",
            ReportType::InitiationCoverage => "Initiation coverage",
            ReportType::OpenResearch => "Custom research",
            ReportType::DrhpReport => "Draft offering document report",
        }
    }

    /// How many files one report of this type may have.
    pub fn max_files(self) -> usize {
        match self {
            // An offering document and a few filings beside it; the others read up to 50 filings.
            ReportType::DrhpReport => 5,
            _ => 50,
        }
    }

    /// The fixed outline of the type; custom research plans its outline from the brief
    /// ([`outline`]).
    pub fn fixed_outline(self) -> Vec<SectionPlan> {
        match self {
            ReportType::MaintenanceCoverage => vec![
                plan("Quarter in brief", "quarter results revenue profit growth"),
                plan("Financial performance", "revenue ebitda margin net profit earnings per share"),
                plan("Segment performance", "segment business division volume growth"),
                plan("Management commentary and guidance", "management guidance outlook expects"),
                plan("Changes to estimates and valuation", "estimate target price valuation multiple"),
                plan("Risks", "risk uncertainty challenge decline"),
            ],
            ReportType::CreditReport => vec![
                plan("Rating summary", "rating outlook assigned reaffirmed"),
                plan("Business profile", "company business operations market position"),
                plan("Financial risk profile", "debt leverage coverage cash flow liquidity"),
                plan("Liquidity", "liquidity cash balance bank lines maturities"),
                plan("Key rating drivers", "strength weakness rating driver"),
                plan("Rating sensitivities", "upgrade downgrade factors sensitivity"),
            ],
            ReportType::InitiationCoverage => vec![
                plan("Company overview", "company founded business overview headquartered"),
                plan("Business segments", "segment business products services revenue share"),
                plan("Industry and competition", "industry market competition competitors share"),
                plan("Financial performance", "revenue profit ebitda margin earnings per share growth year"),
                plan("Management and governance", "management board director chairman governance"),
                plan("Valuation inputs", "valuation price earnings multiple target"),
                plan("Risks", "risk uncertainty challenge regulation"),
            ],
            ReportType::OpenResearch => vec![],
            ReportType::DrhpReport => vec![
                plan("Offer structure", "offer issue shares price band fresh issue sale"),
                plan("Objects of the offer", "objects proceeds utilisation purpose"),
                plan("Business overview", "company business operations products customers"),
                plan("Financial information", "revenue profit assets restated financial"),
                plan("Promoters and management", "promoter director management shareholding"),
                plan("Risk factors", "risk factors litigation dependence"),
            ],
        }
    }
}

/// The sections that show a table of key figures by period (revenue, profits, margins, debt ...):
/// the financial section of each outline that has one.
pub const KEY_FIGURE_SECTIONS: [&str; 3] = ["Financial performance", "Financial risk profile", "Financial information"];

/// Whether the section headed `heading` shows a table of key figures.
pub fn has_key_figures(heading: &str) -> bool {
    KEY_FIGURE_SECTIONS.iter().any(|h| h.eq_ignore_ascii_case(heading.trim()))
}

/// The outline a report of `report_type` is written in. Custom research plans one section per
/// question or line of the brief (at most [`MAX_OPEN_SECTIONS`]), each searched with its own
/// words.
pub fn outline(report_type: ReportType, brief: Option<&str>) -> Vec<SectionPlan> {
    if report_type != ReportType::OpenResearch {
        return report_type.fixed_outline();
    }
    let brief = brief.unwrap_or_default();
    let mut out = Vec::new();
    for part in brief.split(['\n', '?', ';']).map(|p| p.split_whitespace().collect::<Vec<_>>().join(" ")) {
        let part = part.trim_matches(|c: char| c == '-' || c == '*' || c == '.' || c.is_whitespace()).to_string();
        if part.chars().filter(|c| c.is_alphanumeric()).count() < 3 || out.iter().any(|s: &SectionPlan| s.query == part)
        {
            continue;
        }
        let mut heading: String = part.chars().take(80).collect();
        if let Some(first) = heading.get(..1) {
            heading = first.to_uppercase() + &heading[1..];
        }
        out.push(SectionPlan { heading, query: part });
        if out.len() == MAX_OPEN_SECTIONS {
            break;
        }
    }
    out
}

/// A file of a report: the document it is, and its name. A file added by upload belongs to the
/// report from the moment its transfer is reported, while it is still being processed: it names
/// its upload (the browser's file id) and has no document yet (`deeplink` empty). Generation
/// fills every document in, so the worker only ever reads documents.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ReportFile {
    pub deeplink: String,
    pub name: String,
    /// The upload's file id, for a file added by upload.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub upload: Option<String>,
}

impl ReportFile {
    /// A document of the user's, by its deeplink.
    pub fn document(deeplink: impl Into<String>, name: impl Into<String>) -> ReportFile {
        ReportFile { deeplink: deeplink.into(), name: name.into(), upload: None }
    }

    /// An upload of the user's, with its document once it has been processed.
    pub fn uploaded(file_id: impl Into<String>, name: impl Into<String>, deeplink: Option<String>) -> ReportFile {
        ReportFile { deeplink: deeplink.unwrap_or_default(), name: name.into(), upload: Some(file_id.into()) }
    }

    /// The id the app refers to the file by: its upload's file id, else its document's.
    pub fn id(&self) -> &str {
        self.upload.as_deref().unwrap_or(&self.deeplink)
    }

    /// Whether `id` names this file, by its upload's file id or by its document.
    pub fn is(&self, id: &str) -> bool {
        self.upload.as_deref() == Some(id) || (!self.deeplink.is_empty() && self.deeplink == id)
    }

    /// Whether `other` is the same file (the same upload, or the same document).
    pub fn same(&self, other: &ReportFile) -> bool {
        self.is(other.id()) || (!other.deeplink.is_empty() && self.is(&other.deeplink))
    }

    /// Still being processed: no document yet.
    pub fn is_pending(&self) -> bool {
        self.deeplink.is_empty()
    }
}

/// Where a report is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ReportStatus {
    /// Nothing requested yet (no report).
    #[default]
    None,
    /// Requested; files may still change.
    Draft,
    /// Generation asked for; waiting for a worker.
    Queued,
    /// A worker planned its sections and is writing them.
    Running,
    Completed,
    Failed,
    Cancelled,
}

impl ReportStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            ReportStatus::None => "NONE",
            ReportStatus::Draft => "DRAFT",
            ReportStatus::Queued => "QUEUED",
            ReportStatus::Running => "RUNNING",
            ReportStatus::Completed => "COMPLETED",
            ReportStatus::Failed => "FAILED",
            ReportStatus::Cancelled => "CANCELLED",
        }
    }

    pub fn is_over(self) -> bool {
        matches!(self, ReportStatus::Completed | ReportStatus::Failed | ReportStatus::Cancelled)
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum ReportCommand {
    /// Makes the report. `report_type` is the spec key as sent (checked here).
    Request {
        user_id: String,
        report_type: String,
        name: String,
        files: Vec<ReportFile>,
        feed_id: Option<String>,
        brief: Option<String>,
    },
    AddFiles {
        user_id: String,
        files: Vec<ReportFile>,
    },
    /// Removes files, each named by [`ReportFile::id`] or by its document.
    RemoveFiles {
        user_id: String,
        deeplinks: Vec<String>,
    },
    /// Queues generation. `feed_documents` are the feed's documents as resolved for the owner
    /// now, so a resumed job reads the same evidence; `uploads` are the report's uploads with
    /// the documents they became (every upload still pending must be among them).
    Generate {
        user_id: String,
        feed_documents: Vec<String>,
        uploads: Vec<ReportFile>,
        at: DateTime<Utc>,
    },
    /// A worker planned the outline (once; planning again records nothing).
    PlanSections {
        sections: Vec<SectionPlan>,
    },
    /// A worker wrote section `index`: its markdown (citations `[n]` numbered within the
    /// section), and the passages it used, in citation order.
    CompleteSection {
        index: usize,
        markdown: String,
        sentences: Value,
        passages: Value,
    },
    Complete {
        title: String,
        content: String,
        raw_data: Value,
        time_taken: f64,
    },
    Fail {
        reason: String,
    },
    Cancel {
        user_id: String,
    },
    Rate {
        user_id: String,
        rating: Option<i64>,
        comments: Option<String>,
    },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum ReportEvent {
    ReportRequested {
        user_id: String,
        report_type: ReportType,
        name: String,
        files: Vec<ReportFile>,
        feed_id: Option<String>,
        brief: Option<String>,
    },
    ReportFilesAdded {
        user_id: String,
        files: Vec<ReportFile>,
    },
    /// `deeplinks`: the files' ids ([`ReportFile::id`]; a document's deeplink in early events).
    ReportFilesRemoved {
        user_id: String,
        deeplinks: Vec<String>,
    },
    ReportGenerationStarted {
        user_id: String,
        feed_documents: Vec<String>,
        /// The report's files with every document filled in; empty in events recorded before
        /// files could be added by upload, whose files all had their documents.
        #[serde(default)]
        files: Vec<ReportFile>,
        at: DateTime<Utc>,
    },
    ReportSectionPlanned {
        user_id: String,
        index: usize,
        heading: String,
        query: String,
    },
    ReportSectionCompleted {
        user_id: String,
        index: usize,
        markdown: String,
        sentences: Value,
        passages: Value,
    },
    ReportCompleted {
        user_id: String,
        title: String,
        content: String,
        raw_data: Value,
        time_taken: f64,
    },
    ReportFailed {
        user_id: String,
        reason: String,
    },
    ReportCancelled {
        user_id: String,
    },
    ReportRated {
        user_id: String,
        rating: Option<i64>,
        comments: Option<String>,
    },
}

crate::impl_domain_event! {
    ReportEvent, versions {
        ReportRequested: "1",
        ReportFilesAdded: "1",
        ReportFilesRemoved: "1",
        ReportGenerationStarted: "1",
        ReportSectionPlanned: "1",
        ReportSectionCompleted: "1",
        ReportCompleted: "1",
        ReportFailed: "1",
        ReportCancelled: "1",
        ReportRated: "1",
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReportError {
    #[error("unknown report type: use maintenance_coverage, credit_report, initiation_coverage, open_research or drhp_report")]
    UnknownType,
    #[error("report not found")]
    NotFound,
    #[error("this report id is taken")]
    IdTaken,
    #[error("report name is required")]
    NameRequired,
    #[error("report name must be at most {MAX_REPORT_NAME_CHARS} characters")]
    NameTooLong,
    #[error("a custom research report needs a brief of what to research")]
    BriefRequired,
    #[error("the brief must be at most {MAX_BRIEF_CHARS} characters")]
    BriefTooLong,
    #[error("add at least one file or a feed to the report")]
    NoFiles,
    #[error("Only {0} files can be uploaded for a report.")]
    TooManyFiles(usize),
    #[error("File {0} is still processing; generate the report once it is done")]
    FileProcessing(String),
    #[error("the report's files can change only before it is generated")]
    NotDraft,
    #[error("the report is already being generated or has been")]
    AlreadyGenerated,
    #[error("the report is not being generated")]
    NotRunning,
    #[error("the report's sections are not planned")]
    NotPlanned,
    #[error("this section is already written")]
    SectionWritten,
    #[error("every section must be written first")]
    SectionsMissing,
    #[error("a failure needs a reason")]
    ReasonRequired,
    #[error("the report has already ended")]
    AlreadyEnded,
    #[error("rate the report, comment on it, or both")]
    NothingToRate,
    #[error("a rating is from 1 to 5")]
    BadRating,
    #[error("comments must be at most {MAX_COMMENTS_CHARS} characters")]
    CommentsTooLong,
    #[error("only a finished report can be rated")]
    NotFinished,
}

impl DomainError for ReportError {
    fn kind(&self) -> ErrorKind {
        match self {
            ReportError::NotFound => ErrorKind::NotFound,
            ReportError::IdTaken
            | ReportError::NotDraft
            | ReportError::FileProcessing(_)
            | ReportError::AlreadyGenerated
            | ReportError::NotRunning
            | ReportError::NotPlanned
            | ReportError::SectionWritten
            | ReportError::SectionsMissing
            | ReportError::AlreadyEnded
            | ReportError::NotFinished => ErrorKind::Conflict,
            _ => ErrorKind::Invalid,
        }
    }

    fn code(&self) -> &'static str {
        match self {
            ReportError::UnknownType => "unknown_report_type",
            ReportError::NotFound => "report_not_found",
            ReportError::IdTaken => "report_id_taken",
            ReportError::NameRequired => "report_name_required",
            ReportError::NameTooLong => "report_name_too_long",
            ReportError::BriefRequired => "report_brief_required",
            ReportError::BriefTooLong => "report_brief_too_long",
            ReportError::NoFiles => "report_files_required",
            ReportError::TooManyFiles(_) => "report_too_many_files",
            ReportError::NotDraft => "report_not_draft",
            ReportError::FileProcessing(_) => "report_file_processing",
            ReportError::AlreadyGenerated => "report_already_generated",
            ReportError::NotRunning => "report_not_running",
            ReportError::NotPlanned => "report_not_planned",
            ReportError::SectionWritten => "report_section_written",
            ReportError::SectionsMissing => "report_sections_missing",
            ReportError::ReasonRequired => "report_reason_required",
            ReportError::AlreadyEnded => "report_ended",
            ReportError::NothingToRate => "nothing_to_rate",
            ReportError::BadRating => "report_rating_invalid",
            ReportError::CommentsTooLong => "report_comments_too_long",
            ReportError::NotFinished => "report_not_finished",
        }
    }
}

/// One report's state, as its decisions need it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Report {
    owner: String,
    report_type: Option<ReportType>,
    status: ReportStatus,
    files: Vec<ReportFile>,
    feed: bool,
    /// Planned sections, by index: whether each is written.
    sections: BTreeMap<usize, bool>,
}

fn clean(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

impl Report {
    pub fn status(&self) -> ReportStatus {
        self.status
    }

    /// The owner, or not found for anyone else (and for a report nobody requested).
    fn owned_by(&self, user_id: &str) -> Result<(), ReportError> {
        if self.status == ReportStatus::None || self.owner != user_id {
            return Err(ReportError::NotFound);
        }
        Ok(())
    }

    fn new_files(&self, files: Vec<ReportFile>) -> Vec<ReportFile> {
        let mut out: Vec<ReportFile> = Vec::new();
        for f in files {
            if !self.files.iter().chain(out.iter()).any(|k| k.same(&f)) {
                out.push(f);
            }
        }
        out
    }

    pub fn decide(&self, command: ReportCommand) -> Result<Vec<ReportEvent>, ReportError> {
        let owner = self.owner.clone();
        match command {
            ReportCommand::Request { user_id, report_type, name, files, feed_id, brief } => {
                if self.status != ReportStatus::None {
                    return Err(ReportError::IdTaken);
                }
                let report_type = ReportType::parse(&report_type)?;
                let name = clean(&name);
                if name.is_empty() {
                    return Err(ReportError::NameRequired);
                }
                if name.chars().count() > MAX_REPORT_NAME_CHARS {
                    return Err(ReportError::NameTooLong);
                }
                let brief = brief.map(|b| b.trim().to_string()).filter(|b| !b.is_empty());
                if brief.as_ref().is_some_and(|b| b.chars().count() > MAX_BRIEF_CHARS) {
                    return Err(ReportError::BriefTooLong);
                }
                if report_type == ReportType::OpenResearch && outline(report_type, brief.as_deref()).is_empty() {
                    return Err(ReportError::BriefRequired);
                }
                let feed_id = feed_id.map(|f| f.trim().to_string()).filter(|f| !f.is_empty());
                let files = Report::default().new_files(files);
                if files.is_empty() && feed_id.is_none() {
                    return Err(ReportError::NoFiles);
                }
                if files.len() > report_type.max_files() {
                    return Err(ReportError::TooManyFiles(report_type.max_files()));
                }
                Ok(vec![ReportEvent::ReportRequested { user_id, report_type, name, files, feed_id, brief }])
            }
            ReportCommand::AddFiles { user_id, files } => {
                self.owned_by(&user_id)?;
                if self.status != ReportStatus::Draft {
                    return Err(ReportError::NotDraft);
                }
                let files = self.new_files(files);
                let max = self.report_type.map(ReportType::max_files).unwrap_or(0);
                if self.files.len() + files.len() > max {
                    return Err(ReportError::TooManyFiles(max));
                }
                Ok(if files.is_empty() { vec![] } else { vec![ReportEvent::ReportFilesAdded { user_id, files }] })
            }
            ReportCommand::RemoveFiles { user_id, deeplinks } => {
                self.owned_by(&user_id)?;
                if self.status != ReportStatus::Draft {
                    return Err(ReportError::NotDraft);
                }
                let mut gone: Vec<String> = Vec::new();
                for d in deeplinks {
                    if let Some(f) = self.files.iter().find(|f| f.is(&d)) {
                        if !gone.iter().any(|g| g == f.id()) {
                            gone.push(f.id().to_string());
                        }
                    }
                }
                if !gone.is_empty() && gone.len() == self.files.len() && !self.feed {
                    return Err(ReportError::NoFiles);
                }
                Ok(if gone.is_empty() {
                    vec![]
                } else {
                    vec![ReportEvent::ReportFilesRemoved { user_id, deeplinks: gone }]
                })
            }
            ReportCommand::Generate { user_id, feed_documents, uploads, at } => {
                self.owned_by(&user_id)?;
                if self.status != ReportStatus::Draft {
                    return Err(ReportError::AlreadyGenerated);
                }
                if self.files.is_empty() && feed_documents.is_empty() {
                    return Err(ReportError::NoFiles);
                }
                let mut files = self.files.clone();
                for file in files.iter_mut().filter(|f| f.is_pending()) {
                    match uploads.iter().find(|u| u.upload == file.upload && !u.is_pending()) {
                        Some(done) => file.deeplink = done.deeplink.clone(),
                        None => return Err(ReportError::FileProcessing(file.name.clone())),
                    }
                }
                Ok(vec![ReportEvent::ReportGenerationStarted { user_id, feed_documents, files, at }])
            }
            ReportCommand::PlanSections { sections } => {
                match self.status {
                    ReportStatus::Queued => {}
                    ReportStatus::Running => return Ok(vec![]),
                    s if s.is_over() => return Err(ReportError::AlreadyEnded),
                    _ => return Err(ReportError::NotRunning),
                }
                Ok(sections
                    .into_iter()
                    .enumerate()
                    .map(|(index, s)| ReportEvent::ReportSectionPlanned {
                        user_id: owner.clone(),
                        index,
                        heading: s.heading,
                        query: s.query,
                    })
                    .collect())
            }
            ReportCommand::CompleteSection { index, markdown, sentences, passages } => {
                self.running()?;
                match self.sections.get(&index) {
                    None => Err(ReportError::NotPlanned),
                    Some(true) => Err(ReportError::SectionWritten),
                    Some(false) => Ok(vec![ReportEvent::ReportSectionCompleted {
                        user_id: owner,
                        index,
                        markdown,
                        sentences,
                        passages,
                    }]),
                }
            }
            ReportCommand::Complete { title, content, raw_data, time_taken } => {
                self.running()?;
                if self.sections.values().any(|done| !done) {
                    return Err(ReportError::SectionsMissing);
                }
                Ok(vec![ReportEvent::ReportCompleted { user_id: owner, title, content, raw_data, time_taken }])
            }
            ReportCommand::Fail { reason } => {
                let reason = reason.trim().to_string();
                if reason.is_empty() {
                    return Err(ReportError::ReasonRequired);
                }
                match self.status {
                    ReportStatus::Queued | ReportStatus::Running => {
                        Ok(vec![ReportEvent::ReportFailed { user_id: owner, reason }])
                    }
                    s if s.is_over() => Err(ReportError::AlreadyEnded),
                    _ => Err(ReportError::NotRunning),
                }
            }
            ReportCommand::Cancel { user_id } => {
                self.owned_by(&user_id)?;
                if self.status.is_over() {
                    return Err(ReportError::AlreadyEnded);
                }
                Ok(vec![ReportEvent::ReportCancelled { user_id }])
            }
            ReportCommand::Rate { user_id, rating, comments } => {
                self.owned_by(&user_id)?;
                if !matches!(self.status, ReportStatus::Completed | ReportStatus::Failed) {
                    return Err(ReportError::NotFinished);
                }
                let comments = comments.map(|c| c.trim().to_string());
                if rating.is_none() && comments.is_none() {
                    return Err(ReportError::NothingToRate);
                }
                if rating.is_some_and(|r| !(1..=5).contains(&r)) {
                    return Err(ReportError::BadRating);
                }
                if comments.as_ref().is_some_and(|c| c.chars().count() > MAX_COMMENTS_CHARS) {
                    return Err(ReportError::CommentsTooLong);
                }
                Ok(vec![ReportEvent::ReportRated { user_id, rating, comments }])
            }
        }
    }

    /// Whether a worker may write: generation planned and not ended.
    fn running(&self) -> Result<(), ReportError> {
        match self.status {
            ReportStatus::Running => Ok(()),
            ReportStatus::Queued => Err(ReportError::NotPlanned),
            s if s.is_over() => Err(ReportError::AlreadyEnded),
            _ => Err(ReportError::NotRunning),
        }
    }
}

impl Aggregate for Report {
    const TYPE: &'static str = "report";
    type Command = ReportCommand;
    type Event = ReportEvent;
    type Error = ReportError;
    type Services = ();

    crate::handle_by_deciding!();

    fn apply(&mut self, event: Self::Event) {
        match event {
            ReportEvent::ReportRequested { user_id, report_type, files, feed_id, .. } => {
                self.owner = user_id;
                self.report_type = Some(report_type);
                self.files = files;
                self.feed = feed_id.is_some();
                self.status = ReportStatus::Draft;
            }
            ReportEvent::ReportFilesAdded { files, .. } => self.files.extend(files),
            ReportEvent::ReportFilesRemoved { deeplinks, .. } => {
                self.files.retain(|f| !deeplinks.iter().any(|d| f.is(d)))
            }
            ReportEvent::ReportGenerationStarted { files, .. } => {
                if !files.is_empty() {
                    self.files = files;
                }
                self.status = ReportStatus::Queued;
            }
            ReportEvent::ReportSectionPlanned { index, .. } => {
                self.status = ReportStatus::Running;
                self.sections.insert(index, false);
            }
            ReportEvent::ReportSectionCompleted { index, .. } => {
                self.sections.insert(index, true);
            }
            ReportEvent::ReportCompleted { .. } => self.status = ReportStatus::Completed,
            ReportEvent::ReportFailed { .. } => self.status = ReportStatus::Failed,
            ReportEvent::ReportCancelled { .. } => self.status = ReportStatus::Cancelled,
            ReportEvent::ReportRated { .. } => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cqrs_es::test::TestFramework;
    use serde_json::json;

    fn file(d: &str) -> ReportFile {
        ReportFile::document(d, format!("{d}.pdf"))
    }

    fn request(report_type: &str, files: Vec<ReportFile>) -> ReportCommand {
        ReportCommand::Request {
            user_id: "u1".into(),
            report_type: report_type.into(),
            name: "  Acme   Q3 ".into(),
            files,
            feed_id: None,
            brief: None,
        }
    }

    fn requested(files: Vec<ReportFile>) -> ReportEvent {
        ReportEvent::ReportRequested {
            user_id: "u1".into(),
            report_type: ReportType::InitiationCoverage,
            name: "Acme Q3".into(),
            files,
            feed_id: None,
            brief: None,
        }
    }

    fn started() -> ReportEvent {
        ReportEvent::ReportGenerationStarted {
            user_id: "u1".into(),
            feed_documents: vec![],
            files: vec![file("d1")],
            at: DateTime::default(),
        }
    }

    fn planned(index: usize) -> ReportEvent {
        ReportEvent::ReportSectionPlanned {
            user_id: "u1".into(),
            index,
            heading: format!("S{index}"),
            query: "q".into(),
        }
    }

    fn written(index: usize) -> ReportEvent {
        ReportEvent::ReportSectionCompleted {
            user_id: "u1".into(),
            index,
            markdown: format!("text {index} [1]"),
            sentences: json!([]),
            passages: json!([]),
        }
    }

    fn write(index: usize) -> ReportCommand {
        ReportCommand::CompleteSection {
            index,
            markdown: "again [1]".into(),
            sentences: json!([]),
            passages: json!([]),
        }
    }

    fn complete() -> ReportCommand {
        ReportCommand::Complete { title: "T".into(), content: "C".into(), raw_data: json!({}), time_taken: 1.5 }
    }

    #[test]
    fn requesting_a_report_records_its_type_cleaned_name_and_files_without_repeats() {
        TestFramework::<Report>::with(())
            .given_no_previous_events()
            .when(request("initiation_coverage", vec![file("d1"), file("d1")]))
            .then_expect_events(vec![requested(vec![file("d1")])]);
    }

    #[test]
    fn an_unknown_type_is_refused_with_its_code() {
        TestFramework::<Report>::with(())
            .given_no_previous_events()
            .when(request("credit_rating", vec![file("d1")]))
            .then_expect_error(ReportError::UnknownType);
        assert_eq!(ReportError::UnknownType.code(), "unknown_report_type");
    }

    #[test]
    fn a_report_needs_files_or_a_feed_and_at_most_its_types_limit() {
        TestFramework::<Report>::with(())
            .given_no_previous_events()
            .when(request("drhp_report", vec![]))
            .then_expect_error(ReportError::NoFiles);
        TestFramework::<Report>::with(())
            .given_no_previous_events()
            .when(request("drhp_report", (0..6).map(|i| file(&format!("d{i}"))).collect()))
            .then_expect_error(ReportError::TooManyFiles(5));
        assert_eq!(ReportError::TooManyFiles(5).to_string(), "Only 5 files can be uploaded for a report.");
    }

    #[test]
    fn custom_research_needs_a_brief_and_plans_a_section_per_question() {
        TestFramework::<Report>::with(())
            .given_no_previous_events()
            .when(request("open_research", vec![file("d1")]))
            .then_expect_error(ReportError::BriefRequired);
        let sections = outline(
            ReportType::OpenResearch,
            Some("What drives steel demand? How exposed is Acme to tariffs;\n- who are its rivals"),
        );
        let headings: Vec<&str> = sections.iter().map(|s| s.heading.as_str()).collect();
        assert_eq!(headings, ["What drives steel demand", "How exposed is Acme to tariffs", "Who are its rivals"]);
    }

    #[test]
    fn every_fixed_type_has_an_outline() {
        for t in ReportType::ALL.into_iter().filter(|t| *t != ReportType::OpenResearch) {
            assert!(outline(t, None).len() >= 6, "{t:?}");
        }
        assert_eq!(outline(ReportType::InitiationCoverage, None)[0].heading, "Company overview");
    }

    #[test]
    fn files_change_only_while_a_draft_and_the_last_file_cannot_go() {
        TestFramework::<Report>::with(())
            .given(vec![requested(vec![file("d1")])])
            .when(ReportCommand::AddFiles { user_id: "u1".into(), files: vec![file("d1"), file("d2")] })
            .then_expect_events(vec![ReportEvent::ReportFilesAdded { user_id: "u1".into(), files: vec![file("d2")] }]);
        TestFramework::<Report>::with(())
            .given(vec![requested(vec![file("d1")])])
            .when(ReportCommand::RemoveFiles { user_id: "u1".into(), deeplinks: vec!["d1".into()] })
            .then_expect_error(ReportError::NoFiles);
        TestFramework::<Report>::with(())
            .given(vec![requested(vec![file("d1")]), started()])
            .when(ReportCommand::AddFiles { user_id: "u1".into(), files: vec![file("d2")] })
            .then_expect_error(ReportError::NotDraft);
    }

    #[test]
    fn another_user_is_told_the_report_does_not_exist() {
        TestFramework::<Report>::with(())
            .given(vec![requested(vec![file("d1")])])
            .when(ReportCommand::Generate {
                user_id: "u2".into(),
                feed_documents: vec![],
                uploads: vec![],
                at: DateTime::default(),
            })
            .then_expect_error(ReportError::NotFound);
        TestFramework::<Report>::with(())
            .given(vec![
                requested(vec![file("d1")]),
                started(),
                planned(0),
                written(0),
                ReportEvent::ReportCompleted {
                    user_id: "u1".into(),
                    title: "T".into(),
                    content: "C".into(),
                    raw_data: json!({}),
                    time_taken: 1.0,
                },
            ])
            .when(ReportCommand::Rate { user_id: "u2".into(), rating: Some(5), comments: None })
            .then_expect_error(ReportError::NotFound);
        TestFramework::<Report>::with(())
            .given(vec![requested(vec![file("d1")]), started()])
            .when(ReportCommand::Cancel { user_id: "u2".into() })
            .then_expect_error(ReportError::NotFound);
    }

    #[test]
    fn uploads_belong_to_the_report_while_processing_and_are_removed_by_their_file_id() {
        let pending = |id: &str| ReportFile::uploaded(id, format!("{id}.pdf"), None);
        TestFramework::<Report>::with(())
            .given(vec![requested(vec![file("d1")])])
            .when(ReportCommand::AddFiles {
                user_id: "u1".into(),
                files: vec![pending("f1"), pending("f2"), pending("f1")],
            })
            .then_expect_events(vec![ReportEvent::ReportFilesAdded {
                user_id: "u1".into(),
                files: vec![pending("f1"), pending("f2")],
            }]);
        TestFramework::<Report>::with(())
            .given(vec![requested(vec![file("d1"), pending("f1")])])
            .when(ReportCommand::RemoveFiles { user_id: "u1".into(), deeplinks: vec!["f1".into(), "nope".into()] })
            .then_expect_events(vec![ReportEvent::ReportFilesRemoved {
                user_id: "u1".into(),
                deeplinks: vec!["f1".into()],
            }]);
    }

    #[test]
    fn generation_waits_for_every_upload_and_records_the_documents_they_became() {
        let pending = ReportFile::uploaded("f1", "a.pdf", None);
        let generate = |uploads: Vec<ReportFile>| ReportCommand::Generate {
            user_id: "u1".into(),
            feed_documents: vec![],
            uploads,
            at: DateTime::default(),
        };
        TestFramework::<Report>::with(())
            .given(vec![requested(vec![file("d1"), pending.clone()])])
            .when(generate(vec![]))
            .then_expect_error(ReportError::FileProcessing("a.pdf".into()));
        assert_eq!(ReportError::FileProcessing("a.pdf".into()).code(), "report_file_processing");
        let done = ReportFile::uploaded("f1", "a.pdf", Some("doc-a".into()));
        TestFramework::<Report>::with(())
            .given(vec![requested(vec![file("d1"), pending])])
            .when(generate(vec![done.clone()]))
            .then_expect_events(vec![ReportEvent::ReportGenerationStarted {
                user_id: "u1".into(),
                feed_documents: vec![],
                files: vec![file("d1"), done],
                at: DateTime::default(),
            }]);
    }

    #[test]
    fn generation_is_queued_once() {
        TestFramework::<Report>::with(())
            .given(vec![requested(vec![file("d1")]), started()])
            .when(ReportCommand::Generate {
                user_id: "u1".into(),
                feed_documents: vec![],
                uploads: vec![],
                at: DateTime::default(),
            })
            .then_expect_error(ReportError::AlreadyGenerated);
    }

    #[test]
    fn planning_twice_records_nothing_the_second_time() {
        TestFramework::<Report>::with(())
            .given(vec![requested(vec![file("d1")]), started(), planned(0), planned(1)])
            .when(ReportCommand::PlanSections { sections: vec![plan("x", "y")] })
            .then_expect_events(vec![]);
    }

    #[test]
    fn a_written_section_is_never_written_again() {
        TestFramework::<Report>::with(())
            .given(vec![requested(vec![file("d1")]), started(), planned(0), planned(1), written(0)])
            .when(write(0))
            .then_expect_error(ReportError::SectionWritten);
        TestFramework::<Report>::with(())
            .given(vec![requested(vec![file("d1")]), started(), planned(0), planned(1), written(0)])
            .when(write(1))
            .then_expect_events(vec![ReportEvent::ReportSectionCompleted {
                user_id: "u1".into(),
                index: 1,
                markdown: "again [1]".into(),
                sentences: json!([]),
                passages: json!([]),
            }]);
    }

    #[test]
    fn a_report_completes_only_with_every_section_written() {
        TestFramework::<Report>::with(())
            .given(vec![requested(vec![file("d1")]), started(), planned(0), planned(1), written(0)])
            .when(complete())
            .then_expect_error(ReportError::SectionsMissing);
    }

    #[test]
    fn nothing_is_written_after_a_cancel_or_a_failure() {
        let cancelled = ReportEvent::ReportCancelled { user_id: "u1".into() };
        TestFramework::<Report>::with(())
            .given(vec![requested(vec![file("d1")]), started(), planned(0), cancelled.clone()])
            .when(write(0))
            .then_expect_error(ReportError::AlreadyEnded);
        TestFramework::<Report>::with(())
            .given(vec![requested(vec![file("d1")]), started(), planned(0), written(0), cancelled])
            .when(complete())
            .then_expect_error(ReportError::AlreadyEnded);
        TestFramework::<Report>::with(())
            .given(vec![
                requested(vec![file("d1")]),
                started(),
                ReportEvent::ReportFailed { user_id: "u1".into(), reason: "r".into() },
            ])
            .when(ReportCommand::Fail { reason: "again".into() })
            .then_expect_error(ReportError::AlreadyEnded);
    }

    #[test]
    fn a_worker_failure_is_recorded_with_its_reason() {
        TestFramework::<Report>::with(())
            .given(vec![requested(vec![file("d1")]), started(), planned(0)])
            .when(ReportCommand::Fail { reason: " File a.pdf is gone ".into() })
            .then_expect_events(vec![ReportEvent::ReportFailed {
                user_id: "u1".into(),
                reason: "File a.pdf is gone".into(),
            }]);
    }

    #[test]
    fn only_a_finished_report_is_rated_and_ratings_are_one_to_five() {
        TestFramework::<Report>::with(())
            .given(vec![requested(vec![file("d1")]), started()])
            .when(ReportCommand::Rate { user_id: "u1".into(), rating: Some(4), comments: None })
            .then_expect_error(ReportError::NotFinished);
        let failed = ReportEvent::ReportFailed { user_id: "u1".into(), reason: "r".into() };
        TestFramework::<Report>::with(())
            .given(vec![requested(vec![file("d1")]), started(), failed.clone()])
            .when(ReportCommand::Rate { user_id: "u1".into(), rating: Some(6), comments: None })
            .then_expect_error(ReportError::BadRating);
        TestFramework::<Report>::with(())
            .given(vec![requested(vec![file("d1")]), started(), failed])
            .when(ReportCommand::Rate { user_id: "u1".into(), rating: Some(2), comments: Some(" thin ".into()) })
            .then_expect_events(vec![ReportEvent::ReportRated {
                user_id: "u1".into(),
                rating: Some(2),
                comments: Some("thin".into()),
            }]);
    }
}
