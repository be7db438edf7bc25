//! A report's files: added by upload (`POST /upload/complete` with `source: "report"`), removed
//! (`PUT /upload/complete` with `action: "remove"`), and where each one is (processing, a
//! document, or failed) for the report's detail.
//!
//! Uploaded files belong to the report as soon as their transfer is reported, while they are
//! still being processed: the report names them by their upload's file id, and generation fills
//! in the documents they became. The uploads themselves are My Data uploads like any other, so
//! removing a file from a report leaves it in My Data.

use commands::args;
use domain::report::{ReportCommand, ReportError, ReportFile, ReportType};
use domain::upload::upload_id;

use super::{file_not_found, own};
use crate::access::Purpose;
use crate::context::Context;
use crate::error::{from_domain, Error, Result};
use crate::uploads::{self, CompleteFile, CompleteResponse, FileStatus as UploadFileStatus};
use crate::viewer::Viewer;

/// The upload source the app names report uploads by.
pub const REPORT_SOURCE: &str = "report";

/// Where one of a report's files is, as the detail shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileStatus {
    Processing,
    Completed,
    Failed,
}

impl FileStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            FileStatus::Processing => "PROCESSING",
            FileStatus::Completed => "COMPLETED",
            FileStatus::Failed => "FAILED",
        }
    }
}

/// One file's place: its status, size, document, and the app page that opens it.
#[derive(Debug, Clone)]
pub struct Place {
    pub status: FileStatus,
    pub size: Option<i64>,
    pub deeplink: Option<String>,
    pub location: Option<String>,
}

/// Where `file` of a report of `user_id`'s is now. A file whose upload failed or was removed, or
/// whose document was deleted, is FAILED.
pub async fn place(ctx: &Context, user_id: &str, file: &ReportFile) -> Result<Place> {
    #[derive(sqlx::FromRow)]
    struct Upload {
        status: String,
        size: Option<i64>,
        deeplink: Option<String>,
    }
    let upload: Option<Upload> = match &file.upload {
        Some(file_id) => {
            ctx.db
                .fetch_optional(
                    "SELECT status, size, deeplink FROM uploads_view WHERE upload_id = $1",
                    args![upload_id(user_id, file_id)],
                )
                .await?
        }
        None => {
            ctx.db
                .fetch_optional(
                    "SELECT status, size, deeplink FROM uploads_view WHERE user_id = $1 AND deeplink = $2 LIMIT 1",
                    args![user_id, file.deeplink.as_str()],
                )
                .await?
        }
    };
    let size = upload.as_ref().and_then(|u| u.size);
    let deeplink = match (&file.upload, &upload) {
        _ if !file.is_pending() => file.deeplink.clone(),
        (Some(_), Some(Upload { status, deeplink: Some(deeplink), .. })) if status == "COMPLETED" => deeplink.clone(),
        (Some(_), Some(u)) if u.status == "UPLOADING" || u.status == "PROCESSING" => {
            return Ok(Place { status: FileStatus::Processing, size, deeplink: None, location: None });
        }
        _ => return Ok(Place { status: FileStatus::Failed, size, deeplink: None, location: None }),
    };
    #[derive(sqlx::FromRow)]
    struct Document {
        source_id: String,
    }
    let document: Option<Document> = ctx
        .db
        .fetch_optional("SELECT source_id FROM documents_view WHERE deeplink = $1", args![deeplink.as_str()])
        .await?;
    Ok(match document {
        Some(d) => Place {
            status: FileStatus::Completed,
            size,
            location: Some(preview_link(ctx, &deeplink, &d.source_id)),
            deeplink: Some(deeplink),
        },
        None => Place { status: FileStatus::Failed, size, deeplink: Some(deeplink), location: None },
    })
}

/// The app's full-page preview of a document, with the access key that opens it for its owner
/// (the web app's `previewPath`): a page of the app, which shows the file inertly.
fn preview_link(ctx: &Context, deeplink: &str, source_id: &str) -> String {
    let query = url::form_urlencoded::Serializer::new(String::new())
        .append_pair("source", source_id)
        .append_pair("access_key", &ctx.access.key(Purpose::Access, deeplink))
        .finish();
    let path: String = url::form_urlencoded::byte_serialize(deeplink.as_bytes()).collect();
    format!("/preview/feeds/{}?{query}", path.replace('+', "%20"))
}

/// The upload limits of a report type: its file count, and the types extraction reads.
pub fn limits(ctx: &Context, report_type: Option<&str>) -> Result<uploads::UploadLimits> {
    let report_type = ReportType::parse(report_type.unwrap_or_default()).map_err(|e| from_domain(&e))?;
    Ok(uploads::report_limits(&ctx.settings, report_type.max_files()))
}

/// A report upload's completion, as the app sends it.
pub struct Completion {
    pub report_type: Option<String>,
    pub report_name: Option<String>,
    /// The report to add the files to; absent makes a new one.
    pub feed_id: Option<String>,
    /// What to research, for a new custom research report.
    pub brief: Option<String>,
    pub files: Vec<CompleteFile>,
}

/// Reports a report upload's transfers done and puts the files in the report: a new DRAFT report
/// of `report_type` named `report_name`, or the viewer's draft `feed_id`. Everything is checked
/// before anything is recorded: the type, the name (and brief), the report (not found for
/// another user's, `report_not_draft` once generated), every upload, and the type's file limit
/// over the report's files and these. Files whose transfer failed are answered per file and left
/// out of the report; the answer's `feed_id` is the report (absent when no file could be added to
/// a new one).
pub async fn complete(ctx: &Context, viewer: &Viewer, body: Completion) -> Result<CompleteResponse> {
    let mut report_type =
        ReportType::parse(body.report_type.as_deref().unwrap_or_default()).map_err(|e| from_domain(&e))?;
    if body.files.is_empty() {
        return Err(Error::invalid("no_files", "name at least one uploaded file"));
    }
    let report = match body.feed_id.as_deref().map(str::trim).filter(|f| !f.is_empty()) {
        Some(id) => {
            let row = own(ctx, viewer, id).await?;
            if row.status != "DRAFT" {
                return Err(from_domain(&ReportError::NotDraft));
            }
            report_type = ReportType::parse(&row.report_type).map_err(|e| from_domain(&e))?;
            Some(row)
        }
        None => None,
    };
    let existing = report.as_ref().map(|r| r.files()).unwrap_or_default();
    let mut added: Vec<ReportFile> = Vec::new();
    for file in &body.files {
        let upload = uploads::upload_state(ctx, &viewer.user_id, file.file_id()?).await?;
        let candidate = ReportFile::uploaded(upload.id, upload.name, None);
        if !existing.iter().chain(added.iter()).any(|f| f.same(&candidate)) {
            added.push(candidate);
        }
    }
    if existing.len() + added.len() > report_type.max_files() {
        return Err(from_domain(&ReportError::TooManyFiles(report_type.max_files())));
    }
    let request = |files: Vec<ReportFile>| ReportCommand::Request {
        user_id: viewer.user_id.clone(),
        report_type: report_type.as_str().into(),
        name: body.report_name.clone().unwrap_or_default(),
        files,
        feed_id: None,
        brief: body.brief.clone(),
    };
    if report.is_none() {
        // The aggregate's own checks of a new report (name, brief), run without recording.
        domain::report::Report::default().decide(request(added.clone())).map_err(|e| from_domain(&e))?;
    }
    let mut answer = uploads::complete(ctx, viewer, body.files, None).await?;
    let accepted = |s: &UploadFileStatus| s.status == "PROCESSING" || s.status == "COMPLETED";
    added.retain(|f| answer.files.iter().any(|s| accepted(s) && f.is(&s.id)));
    let report_id = match report {
        Some(row) => {
            if !added.is_empty() {
                let command = ReportCommand::AddFiles { user_id: viewer.user_id.clone(), files: added };
                ctx.command(&ctx.bus.reports, &row.report_id, command, &viewer.metadata()).await?;
            }
            Some(row.report_id)
        }
        None if added.is_empty() => None,
        None => {
            let id = uuid::Uuid::new_v4().to_string();
            ctx.command(&ctx.bus.reports, &id, request(added), &viewer.metadata()).await?;
            Some(id)
        }
    };
    answer.feed_id = report_id;
    Ok(answer)
}

/// Removes files from the viewer's draft report `feed_id`, each named by the id the detail gives
/// it; the uploads stay in My Data. A file that is not in the report is not found, and nothing
/// is removed.
pub async fn remove(
    ctx: &Context,
    viewer: &Viewer,
    feed_id: Option<&str>,
    files: &[CompleteFile],
) -> Result<CompleteResponse> {
    let Some(report_id) = feed_id.map(str::trim).filter(|f| !f.is_empty()) else {
        return Err(Error::invalid("feed_id_required", "name the report (feed_id) to remove its files from"));
    };
    let row = own(ctx, viewer, report_id).await?;
    if files.is_empty() {
        return Err(Error::invalid("no_files", "name at least one file to remove"));
    }
    let in_report = row.files();
    let mut ids = Vec::with_capacity(files.len());
    for file in files {
        let id = file.file_id()?.to_string();
        if !in_report.iter().any(|f| f.is(&id)) {
            return Err(file_not_found(&id));
        }
        ids.push(id);
    }
    let command = ReportCommand::RemoveFiles { user_id: viewer.user_id.clone(), deeplinks: ids.clone() };
    ctx.command(&ctx.bus.reports, &row.report_id, command, &viewer.metadata()).await?;
    Ok(CompleteResponse {
        files: ids.into_iter().map(|id| UploadFileStatus { id, status: "REMOVED".into(), error: None }).collect(),
        feed_id: Some(row.report_id),
    })
}
