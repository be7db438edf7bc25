//! Research reports: the calls (config, init, generate, list, detail, rating, cancel) and, in
//! [`worker`], their generation as durable jobs off the request path.
//!
//! A report is its owner's alone: commands go with the viewer as actor and the aggregate refuses
//! anyone else as not found; reads filter by the viewer. Every check of a request (type, files,
//! feed) runs before anything is recorded, so a refused request writes nothing.

pub mod chat;
pub mod export;
pub mod figures;
pub mod files;
pub mod progress;
pub mod worker;
pub mod writing;

use commands::args;
use domain::report::{outline, ReportCommand, ReportError, ReportFile, ReportType};
use domain::upload::upload_id;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::context::Context;
use crate::error::{from_domain, Error, Kind, Result};
use crate::viewer::Viewer;

pub use worker::ReportWorker;

/// The file types a report reads (the spec's mime mapping).
pub const FILE_TYPES: [&str; 9] = ["pdf", "doc", "docx", "txt", "md", "ppt", "pptx", "xls", "xlsx"];
/// The most documents of a feed one report reads: the feed's newest.
pub const MAX_FEED_DOCUMENTS: i64 = 50;

pub fn report_not_found() -> Error {
    from_domain(&ReportError::NotFound)
}

/// What the app needs to offer one report type.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TypeConfig {
    /// The spec key sent back in `report_type`.
    pub report_type: String,
    /// The key the app shows it under (`credit_rating`, `custom_research`).
    pub shown_as: String,
    pub label: String,
    pub file_count_limit: usize,
    /// Bytes.
    pub file_size_limit: u64,
    pub file_types: Vec<String>,
    pub allow_folder_upload: bool,
    /// The headings of its outline; empty for custom research, whose outline comes from the
    /// brief.
    pub sections: Vec<String>,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ReportConfig {
    pub results: Vec<TypeConfig>,
}

/// Every report type with its upload limits and outline.
pub fn config(ctx: &Context) -> ReportConfig {
    ReportConfig {
        results: ReportType::ALL
            .into_iter()
            .map(|t| TypeConfig {
                report_type: t.as_str().into(),
                shown_as: t.shown_as().into(),
                label: t.label().into(),
                file_count_limit: t.max_files(),
                file_size_limit: ctx.settings.upload_max_mb * 1_048_576,
                file_types: FILE_TYPES.iter().map(|s| s.to_string()).collect(),
                allow_folder_upload: false,
                sections: t.fixed_outline().into_iter().map(|s| s.heading).collect(),
            })
            .collect(),
    }
}

#[derive(Debug, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = ReportInitBody))]
pub struct InitBody {
    pub report_type: String,
    #[serde(alias = "report_name")]
    pub name: String,
    /// The user's files: upload file ids or document ids (deeplinks) of their own documents.
    #[serde(default)]
    pub files: Vec<String>,
    /// A feed (board) of the user's whose newest documents the report also reads.
    pub feed_id: Option<String>,
    /// What to research (custom research): one section per question or line.
    pub brief: Option<String>,
}

#[derive(Debug, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct GenerateBody {
    pub report_id: String,
}

#[derive(Debug, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RatingBody {
    pub rating: Option<i64>,
    pub comments: Option<String>,
}

/// A report as the list shows it (the spec's list item), with its progress.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ReportItem {
    pub id: String,
    pub title: String,
    pub name: String,
    /// DRAFT, QUEUED, RUNNING, COMPLETED, FAILED or CANCELLED.
    pub status: String,
    /// Seconds, once finished.
    pub time_taken: Option<f64>,
    pub report_type: String,
    pub rating: Option<i64>,
    pub comments: Option<String>,
    pub sections: i64,
    pub sections_done: i64,
    pub feed_id: Option<String>,
    pub created_at: String,
    pub updated_at: String,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ReportList {
    pub reports: Vec<ReportItem>,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ReportResult {
    pub results: ReportItem,
}

/// The spec's report result: `error` is the string `true` on failure.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ReportOutput {
    pub title: String,
    pub content: String,
    pub error: Option<String>,
    /// Why it failed: a sentence a person can act on.
    pub error_message: Option<String>,
    /// Every passage used, by section, and the report's numbered citations.
    #[cfg_attr(feature = "openapi", schema(value_type = Object))]
    pub raw_data: Value,
    /// Seconds.
    pub time_taken: Option<f64>,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DocumentMetadata {
    #[serde(rename = "fileName")]
    pub file_name: String,
    pub guid: String,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PayloadDocument {
    /// The upload's file id (a file added by upload), else the document's id: what
    /// `PUT /upload/complete` with `action: "remove"` names the file by.
    pub id: String,
    /// PROCESSING, COMPLETED or FAILED.
    pub status: String,
    /// Bytes, when known.
    pub size: Option<i64>,
    /// The app's page of the document (`/preview/...`), to open in a new tab; absent until the
    /// file is a document. A page of the app, never the file itself, so no uploaded content is
    /// ever served as a page of the app's origin.
    pub object_location: Option<String>,
    pub metadata: DocumentMetadata,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Payload {
    pub documents: Vec<PayloadDocument>,
}

/// One section's progress.
#[derive(Debug, Serialize, sqlx::FromRow)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SectionItem {
    #[sqlx(rename = "idx")]
    pub index: i64,
    pub heading: String,
    /// PLANNED or COMPLETED.
    pub status: String,
    /// The section as written (citations numbered within it), once written.
    pub markdown: Option<String>,
    pub completed_at: Option<String>,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ReportDetail {
    pub id: String,
    pub status: String,
    pub report_type: String,
    pub name: String,
    pub result: Option<ReportOutput>,
    pub payload: Payload,
    pub sections: Vec<SectionItem>,
    pub rating: Option<i64>,
    pub comments: Option<String>,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ReportDetailResult {
    pub results: ReportDetail,
}

/// A row of `reports_view`.
#[derive(Debug, Clone, sqlx::FromRow)]
pub(crate) struct Row {
    pub report_id: String,
    pub user_id: String,
    pub report_type: String,
    pub name: String,
    pub files: String,
    pub feed_id: Option<String>,
    pub feed_documents: String,
    pub brief: Option<String>,
    pub status: String,
    pub title: Option<String>,
    pub content: Option<String>,
    pub raw_data: Option<String>,
    pub error: Option<String>,
    pub started_at: Option<String>,
    pub time_taken_ms: Option<i64>,
    pub sections: i64,
    pub sections_done: i64,
    pub rating: Option<i64>,
    pub comments: Option<String>,
    pub created_at: String,
    pub updated_at: String,
}

pub(crate) const COLUMNS: &str = "report_id, user_id, report_type, name, files, feed_id, feed_documents, brief, \
     status, title, content, raw_data, error, started_at, time_taken_ms, sections, sections_done, rating, comments, \
     created_at, updated_at";

impl Row {
    pub(crate) fn files(&self) -> Vec<ReportFile> {
        serde_json::from_str(&self.files).unwrap_or_default()
    }

    fn item(&self) -> ReportItem {
        let shown = ReportType::parse(&self.report_type).ok();
        ReportItem {
            id: self.report_id.clone(),
            title: self.title.clone().unwrap_or_else(|| match shown {
                Some(t) => format!("{}: {}", t.label(), self.name),
                None => self.name.clone(),
            }),
            name: self.name.clone(),
            status: self.status.clone(),
            time_taken: self.time_taken_ms.map(|ms| ms as f64 / 1000.0),
            report_type: self.report_type.clone(),
            rating: self.rating,
            comments: self.comments.clone(),
            sections: self.sections,
            sections_done: self.sections_done,
            feed_id: self.feed_id.clone(),
            created_at: self.created_at.clone(),
            updated_at: self.updated_at.clone(),
        }
    }
}

pub(crate) async fn row(ctx: &Context, report_id: &str) -> Result<Option<Row>> {
    Ok(ctx
        .db
        .fetch_optional(&format!("SELECT {COLUMNS} FROM reports_view WHERE report_id = $1"), args![report_id])
        .await?)
}

/// The viewer's report, or not found (also for anyone else's).
pub(crate) async fn own(ctx: &Context, viewer: &Viewer, report_id: &str) -> Result<Row> {
    match row(ctx, report_id).await? {
        Some(row) if row.user_id == viewer.user_id => Ok(row),
        _ => Err(report_not_found()),
    }
}

/// One of the viewer's files as a report reads it: an upload (by its file id), processed into a
/// document or still processing, or a document of their own (by its id). Files of other users
/// are not found; a file whose transfer was not reported yet is refused until it is.
async fn resolve_file(ctx: &Context, user_id: &str, id: &str) -> Result<ReportFile> {
    #[derive(sqlx::FromRow)]
    struct Upload {
        name: String,
        status: String,
        deeplink: Option<String>,
    }
    let upload: Option<Upload> = ctx
        .db
        .fetch_optional(
            "SELECT name, status, deeplink FROM uploads_view WHERE upload_id = $1",
            args![upload_id(user_id, id)],
        )
        .await?;
    if let Some(upload) = upload {
        return match (upload.status.as_str(), upload.deeplink) {
            ("COMPLETED", Some(deeplink)) => Ok(ReportFile::uploaded(id, upload.name, Some(deeplink))),
            ("PROCESSING", _) => Ok(ReportFile::uploaded(id, upload.name, None)),
            ("UPLOADING", _) => Err(Error::new(
                Kind::Conflict,
                "report_file_processing",
                format!("File {} is still processing; generate the report once it is done", upload.name),
            )),
            _ => Err(file_not_found(id)),
        };
    }
    #[derive(sqlx::FromRow)]
    struct Document {
        deeplink: String,
        title: String,
    }
    let document: Option<Document> = ctx
        .db
        .fetch_optional(
            "SELECT deeplink, title FROM documents_view WHERE deeplink = $1 AND owner = $2",
            args![id, user_id],
        )
        .await?;
    document.map(|d| ReportFile::document(d.deeplink, d.title)).ok_or_else(|| file_not_found(id))
}

pub(crate) fn file_not_found(id: &str) -> Error {
    Error::new(Kind::NotFound, "report_file_not_found", format!("File {id} is not one of your files"))
}

/// Makes a report over the viewer's files and/or one of their feeds. Nothing is recorded unless
/// the type, every file and the feed check out.
pub async fn init(ctx: &Context, viewer: &Viewer, body: InitBody) -> Result<ReportResult> {
    let report_type = ReportType::parse(&body.report_type).map_err(|e| from_domain(&e))?;
    let mut ids: Vec<&str> = Vec::new();
    for id in body.files.iter().map(|f| f.trim()).filter(|f| !f.is_empty()) {
        if !ids.contains(&id) {
            ids.push(id);
        }
    }
    let feed_id = body.feed_id.as_deref().map(str::trim).filter(|f| !f.is_empty() && *f != "home");
    if ids.is_empty() && feed_id.is_none() {
        return Err(from_domain(&ReportError::NoFiles));
    }
    if ids.len() > report_type.max_files() {
        return Err(from_domain(&ReportError::TooManyFiles(report_type.max_files())));
    }
    let mut files = Vec::with_capacity(ids.len());
    for id in ids {
        files.push(resolve_file(ctx, &viewer.user_id, id).await?);
    }
    if let Some(feed_id) = feed_id {
        // Not found for a feed that is not the viewer's.
        crate::feeds::get(ctx, viewer, feed_id).await?;
    }
    let report_id = uuid::Uuid::new_v4().to_string();
    let command = ReportCommand::Request {
        user_id: viewer.user_id.clone(),
        report_type: report_type.as_str().into(),
        name: body.name,
        files,
        feed_id: feed_id.map(str::to_string),
        brief: body.brief,
    };
    commands::just_named(ctx.command(&ctx.bus.reports, &report_id, command, &viewer.metadata())).await?;
    let row = own(ctx, viewer, &report_id).await?;
    Ok(ReportResult { results: row.item() })
}

/// Queues the report's generation. A feed's documents are resolved now, as the viewer may read
/// them, so the job (and any resumption of it) reads this evidence; so are the documents the
/// report's uploads became: 409 `report_file_processing` while one is still processing.
pub async fn generate(ctx: &Context, viewer: &Viewer, body: GenerateBody) -> Result<ReportResult> {
    let row = own(ctx, viewer, body.report_id.trim()).await?;
    let mut uploads = Vec::new();
    for file in row.files().into_iter().filter(ReportFile::is_pending) {
        let place = files::place(ctx, &viewer.user_id, &file).await?;
        match (place.status, place.deeplink) {
            (files::FileStatus::Completed, Some(deeplink)) => {
                uploads.push(ReportFile::uploaded(file.id().to_string(), file.name, Some(deeplink)))
            }
            (files::FileStatus::Processing, _) => {
                return Err(from_domain(&ReportError::FileProcessing(file.name)));
            }
            _ => {
                return Err(Error::new(
                    Kind::Conflict,
                    "report_file_failed",
                    format!("File {} could not be read; remove it from the report", file.name),
                ))
            }
        }
    }
    let mut feed_documents = Vec::new();
    if let Some(feed_id) = &row.feed_id {
        let page = crate::feeds::documents::documents(ctx, viewer, feed_id, None, 0, MAX_FEED_DOCUMENTS).await?;
        feed_documents = page.results.documents.into_iter().map(|d| d.id).collect();
    }
    let command =
        ReportCommand::Generate { user_id: viewer.user_id.clone(), feed_documents, uploads, at: chrono::Utc::now() };
    ctx.command(&ctx.bus.reports, &row.report_id, command, &viewer.metadata()).await?;
    ctx.report_wake.notify_one();
    let row = own(ctx, viewer, &row.report_id).await?;
    Ok(ReportResult { results: row.item() })
}

/// The viewer's reports, newest first.
pub async fn list(ctx: &Context, viewer: &Viewer) -> Result<ReportList> {
    let rows: Vec<Row> = ctx
        .db
        .fetch_all(
            &format!("SELECT {COLUMNS} FROM reports_view WHERE user_id = $1 ORDER BY position DESC LIMIT 500"),
            args![viewer.user_id.as_str()],
        )
        .await?;
    Ok(ReportList { reports: rows.iter().map(Row::item).collect() })
}

/// One of the viewer's reports: its result once it ended, its files, its sections' progress.
pub async fn detail(ctx: &Context, viewer: &Viewer, report_id: &str) -> Result<ReportDetailResult> {
    let row = own(ctx, viewer, report_id).await?;
    let item = row.item();
    let result = match row.status.as_str() {
        "COMPLETED" => Some(ReportOutput {
            title: item.title.clone(),
            content: row.content.clone().unwrap_or_default(),
            error: None,
            error_message: None,
            raw_data: row.raw_data.as_deref().and_then(|r| serde_json::from_str(r).ok()).unwrap_or(Value::Null),
            time_taken: item.time_taken,
        }),
        "FAILED" => Some(ReportOutput {
            title: item.title.clone(),
            content: String::new(),
            error: Some("true".into()),
            error_message: row.error.clone(),
            raw_data: Value::Null,
            time_taken: item.time_taken,
        }),
        _ => None,
    };
    let mut documents = Vec::new();
    for file in row.files() {
        let place = files::place(ctx, &viewer.user_id, &file).await?;
        documents.push(PayloadDocument {
            id: file.id().to_string(),
            status: place.status.as_str().to_string(),
            size: place.size,
            object_location: place.location,
            metadata: DocumentMetadata {
                file_name: file.name.clone(),
                guid: place.deeplink.unwrap_or_else(|| file.id().to_string()),
            },
        });
    }
    let sections: Vec<SectionItem> = ctx
        .db
        .fetch_all(
            "SELECT idx, heading, status, markdown, completed_at FROM report_sections_view WHERE report_id = $1 ORDER BY idx",
            args![row.report_id.as_str()],
        )
        .await?;
    Ok(ReportDetailResult {
        results: ReportDetail {
            id: row.report_id.clone(),
            status: row.status.clone(),
            report_type: row.report_type.clone(),
            name: row.name.clone(),
            result,
            payload: Payload { documents },
            sections,
            rating: row.rating,
            comments: row.comments.clone(),
        },
    })
}

/// Rates a finished report and/or comments on it.
pub async fn rate(ctx: &Context, viewer: &Viewer, report_id: &str, body: RatingBody) -> Result<ReportResult> {
    let row = own(ctx, viewer, report_id).await?;
    let command = ReportCommand::Rate { user_id: viewer.user_id.clone(), rating: body.rating, comments: body.comments };
    ctx.command(&ctx.bus.reports, &row.report_id, command, &viewer.metadata()).await?;
    let row = own(ctx, viewer, report_id).await?;
    Ok(ReportResult { results: row.item() })
}

/// Cancels a report that has not ended. It is cancelled at once: the aggregate accepts nothing
/// more for it, and the worker writing it stops at its next look (every 250 ms).
pub async fn cancel(ctx: &Context, viewer: &Viewer, report_id: &str) -> Result<ReportResult> {
    let row = own(ctx, viewer, report_id).await?;
    let command = ReportCommand::Cancel { user_id: viewer.user_id.clone() };
    ctx.command(&ctx.bus.reports, &row.report_id, command, &viewer.metadata()).await?;
    let row = own(ctx, viewer, report_id).await?;
    Ok(ReportResult { results: row.item() })
}

/// The outline a report will be written in.
pub(crate) fn outline_of(row: &Row) -> Vec<domain::report::SectionPlan> {
    match ReportType::parse(&row.report_type) {
        Ok(t) => outline(t, row.brief.as_deref()),
        Err(_) => vec![],
    }
}
