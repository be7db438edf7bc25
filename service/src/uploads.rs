//! Uploads: what each upload source accepts, signed upload links, the bytes those links write,
//! completion, removal, status, and the user's storage use; and ([`processor`]) the worker that
//! extracts transferred files into documents.
//!
//! Every limit the browser checks is checked here too: at init on what the browser declares, when
//! a link writes on the bytes that arrive, and at completion on what storage holds.

use std::collections::{BTreeMap, HashMap, HashSet};

use commands::args;
use domain::document::{DocumentCommand, DocumentError};
use domain::plan::PricingKey;
use domain::upload::{upload_id, UploadCommand, UploadTarget};
use serde::{Deserialize, Serialize};

use crate::context::{Context, Settings};
use crate::documents::{ASK_SOURCE, DRIVE_SOURCE};
use crate::error::{Error, Result};
use crate::reports::files::REPORT_SOURCE;
use crate::sql::placeholders;
use crate::storage::{safe_name, WriteError};
use crate::viewer::Viewer;

pub mod processor;

pub use processor::{UploadProcessor, ABANDONED_AFTER, MAX_ATTEMPTS, PARALLEL_EXTRACTIONS};

const MIB: u64 = 1024 * 1024;

/// Extensions and mime types extraction reads.
const FILE_TYPES: &[(&str, &str)] = &[
    ("pdf", "application/pdf"),
    ("docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"),
    ("xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
    ("pptx", "application/vnd.openxmlformats-officedocument.presentationml.presentation"),
    ("txt", "text/plain"),
    ("md", "text/markdown"),
    ("html", "text/html"),
    ("htm", "text/html"),
];

/// What one upload source accepts.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct UploadLimits {
    /// Extensions, lowercase, without the dot.
    pub file_types: Vec<String>,
    pub mime_types: Vec<String>,
    /// Files per upload.
    pub file_count_limit: usize,
    /// Bytes per file.
    pub file_size_limit: u64,
    pub allow_folder_upload: bool,
    /// When not empty, a name (less a trailing `.pdf`) must end with one of these.
    pub file_name_suffixes: Vec<String>,
}

/// The limits of an upload source, or `None` for a source that takes no uploads.
pub fn limits_for(settings: &Settings, source: &str) -> Option<UploadLimits> {
    let max = settings.upload_max_mb * MIB;
    let (count, size, folders) = match source {
        DRIVE_SOURCE => (20, max, true),
        // Assistant attachments: a few files at a time, never a folder.
        ASK_SOURCE => (5, max.min(25 * MIB), false),
        _ => return None,
    };
    let mut mime_types: Vec<String> = FILE_TYPES.iter().map(|(_, m)| m.to_string()).collect();
    mime_types.dedup();
    Some(UploadLimits {
        file_types: FILE_TYPES.iter().map(|(e, _)| e.to_string()).collect(),
        mime_types,
        file_count_limit: count,
        file_size_limit: size,
        allow_folder_upload: folders,
        file_name_suffixes: vec![],
    })
}

/// The limits of a report's uploads: `count` files (the report type's most), every type
/// extraction reads but web pages.
pub fn report_limits(settings: &Settings, count: usize) -> UploadLimits {
    let types: Vec<&(&str, &str)> = FILE_TYPES.iter().filter(|(e, _)| !e.starts_with("htm")).collect();
    let mut mime_types: Vec<String> = types.iter().map(|(_, m)| m.to_string()).collect();
    mime_types.dedup();
    UploadLimits {
        file_types: types.iter().map(|(e, _)| e.to_string()).collect(),
        mime_types,
        file_count_limit: count,
        file_size_limit: settings.upload_max_mb * MIB,
        allow_folder_upload: false,
        file_name_suffixes: vec![],
    }
}

/// The limits of an upload source; `unknown_upload_source` for one that takes no uploads.
pub fn limits(ctx: &Context, source: &str) -> Result<UploadLimits> {
    limits_for(&ctx.settings, source)
        .ok_or_else(|| Error::invalid("unknown_upload_source", format!("{source} takes no uploads")))
}

/// Formats a byte count for people: `12.5 MB`, `512 MB`.
pub(crate) fn human(bytes: u64) -> String {
    let units = ["B", "KB", "MB", "GB", "TB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit < units.len() - 1 {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} B")
    } else if value.fract() == 0.0 {
        format!("{value:.0} {}", units[unit])
    } else {
        format!("{value:.1} {}", units[unit])
    }
}

fn size_error(name: &str, limit: u64) -> Error {
    Error::invalid("file_too_large", format!("File {name} size exceeds the limit of {} MB", limit / MIB))
}

/// Checks one declared file against a source's limits, with the spec's messages.
pub fn check_file(limits: &UploadLimits, name: &str, mime_type: &str, size: Option<u64>) -> Result<()> {
    if name.trim().is_empty() || name.len() > 255 || name.contains(['/', '\\', '\0']) {
        return Err(Error::invalid("invalid_file_name", "a file name must be 1 to 255 characters without slashes"));
    }
    let extension = name.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase()).unwrap_or_default();
    if !limits.file_types.is_empty() && !limits.file_types.contains(&extension) {
        let shown = if mime_type.is_empty() { extension.as_str() } else { mime_type };
        return Err(Error::invalid("file_type_not_allowed", format!("File {name} type: {shown} not allowed")));
    }
    if size.is_some_and(|s| s > limits.file_size_limit) {
        return Err(size_error(name, limits.file_size_limit));
    }
    if !limits.file_name_suffixes.is_empty() {
        let stem = name.strip_suffix(".pdf").unwrap_or(name);
        if !limits.file_name_suffixes.iter().any(|s| stem.ends_with(s.as_str())) {
            return Err(Error::invalid(
                "file_name_suffix",
                format!(
                    "File {name} name should end with one of the following suffixes: {}",
                    limits.file_name_suffixes.join(", ")
                ),
            ));
        }
    }
    Ok(())
}

// A file the browser is about to upload.
#[derive(Debug, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct InitFile {
    /// The browser's id for the file, unique among the user's uploads.
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub mime_type: String,
    /// Bytes, when the browser knows them.
    pub size: Option<u64>,
}

#[derive(Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct StorageLocation {
    pub bucket: String,
    pub key: String,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct UploadConfig {
    pub id: String,
    /// Where to PUT the file; signed, valid for 15 minutes.
    pub upload_link: String,
    /// Headers to send with the PUT (besides Content-Type).
    pub headers: BTreeMap<String, String>,
    pub metadata_fields: StorageLocation,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct InitResponse {
    pub upload_configs: Vec<UploadConfig>,
}

#[derive(sqlx::FromRow)]
struct Used {
    used: i64,
}

/// The uploads that count against the quota (of `uploads_view u`): files being processed and
/// files whose document still exists.
const COUNTED: &str = "(u.status = 'PROCESSING' OR (u.status = 'COMPLETED' AND EXISTS \
    (SELECT 1 FROM documents_view d WHERE d.deeplink = u.deeplink)))";

/// Bytes the user's uploads take.
pub(crate) async fn used_bytes(ctx: &Context, user_id: &str) -> Result<u64> {
    let row: Option<Used> = ctx
        .db
        .fetch_optional(
            &format!(
                "SELECT CAST(COALESCE(SUM(u.size), 0) AS BIGINT) AS used FROM uploads_view u \
                 WHERE u.user_id = $1 AND {COUNTED}"
            ),
            args![user_id],
        )
        .await?;
    Ok(row.map_or(0, |r| r.used.max(0) as u64))
}

fn quota_error(used: u64, quota: u64) -> Error {
    Error::invalid("storage_quota_exceeded", format!("Not enough storage: {} of {} used", human(used), human(quota)))
}

fn valid_file_id(id: &str) -> bool {
    !id.is_empty() && id.len() <= 128 && id.chars().all(|c| c.is_ascii_alphanumeric() || "-_.:".contains(c))
}

/// Hands out one signed upload link per file, after checking every file against the source's
/// limits and the user's storage quota. Nothing is recorded unless every file passes. A report's
/// files (`source: "report"`, with its `report_type`) are checked against the type's limits and
/// uploaded to My Data, where they stay when they leave the report.
pub async fn init(
    ctx: &Context,
    viewer: &Viewer,
    source: &str,
    report_type: Option<&str>,
    files: Vec<InitFile>,
) -> Result<InitResponse> {
    let for_report = source == REPORT_SOURCE;
    let (limits, source) = if for_report {
        (crate::reports::files::limits(ctx, report_type)?, DRIVE_SOURCE)
    } else {
        (limits(ctx, source)?, source)
    };
    if files.is_empty() {
        return Err(Error::invalid("no_files", "choose at least one file to upload"));
    }
    if files.len() > limits.file_count_limit {
        return Err(if for_report {
            Error::invalid(
                "report_too_many_files",
                format!("Only {} files can be uploaded for a report.", limits.file_count_limit),
            )
        } else {
            Error::invalid("too_many_files", format!("You can only upload {} files at a time", limits.file_count_limit))
        });
    }
    let mut ids = HashSet::new();
    for file in &files {
        if !valid_file_id(&file.id) {
            return Err(Error::invalid(
                "invalid_file_id",
                "every file needs an id of letters, digits, '-', '_', '.' or ':'",
            ));
        }
        if !ids.insert(file.id.as_str()) {
            return Err(Error::invalid("duplicate_file_id", format!("the file id {} is used twice", file.id)));
        }
        check_file(&limits, &file.name, &file.mime_type, file.size)?;
    }
    if source == DRIVE_SOURCE && !for_report {
        crate::plans::require(ctx, viewer, &[PricingKey::AddToNeedldrive]).await?;
    }
    let quota = crate::plans::storage_quota(ctx, &viewer.user_id).await?;
    let used = used_bytes(ctx, &viewer.user_id).await?;
    let declared: u64 = files.iter().filter_map(|f| f.size).sum();
    if used + declared > quota {
        return Err(quota_error(used, quota));
    }
    let mut configs = Vec::with_capacity(files.len());
    let mut last = None;
    for file in files {
        let key = format!("{}/{}/{}", viewer.user_id, uuid::Uuid::now_v7().simple(), safe_name(&file.name));
        let mime_type = if file.mime_type.is_empty() { mime_from_name(&file.name) } else { file.mime_type.clone() };
        let cursor = ctx
            .bus
            .execute(
                &ctx.bus.uploads,
                &upload_id(&viewer.user_id, &file.id),
                UploadCommand::Initiate(UploadTarget {
                    user_id: viewer.user_id.clone(),
                    file_id: file.id.clone(),
                    source: source.to_string(),
                    name: file.name.clone(),
                    mime_type,
                    bucket: ctx.storage.bucket().to_string(),
                    key: key.clone(),
                }),
                &viewer.metadata(),
            )
            .await?;
        last = cursor.or(last);
        configs.push(UploadConfig {
            id: file.id,
            upload_link: ctx.storage.upload_link(&key, limits.file_size_limit).await?,
            headers: BTreeMap::new(),
            metadata_fields: StorageLocation { bucket: ctx.storage.bucket().to_string(), key },
        });
    }
    ctx.settle(last).await;
    Ok(InitResponse { upload_configs: configs })
}

/// The spec's rule for a file without a type: markdown by extension, else octet-stream.
fn mime_from_name(name: &str) -> String {
    let extension = name.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase()).unwrap_or_default();
    match extension.as_str() {
        "md" => "text/markdown".to_string(),
        other => FILE_TYPES
            .iter()
            .find(|(e, _)| *e == other)
            .map(|(_, m)| m.to_string())
            .unwrap_or_else(|| "application/octet-stream".to_string()),
    }
}

/// A local upload link as the browser uses it: where it writes, and what its signature covers.
#[derive(Debug, Clone)]
pub struct SignedLink {
    pub bucket: String,
    pub key: String,
    /// When the link stops working (seconds since the epoch).
    pub expires: i64,
    /// The most bytes the link writes.
    pub max: u64,
    pub signature: String,
}

/// Writes the bytes a local upload link sends, after checking the link's signature and expiry,
/// and refuses them past the link's size limit. A link writes its file once: not after the
/// transfer was reported, so the file extracted is the file kept. Returns the size written.
pub async fn receive<S, B, E>(ctx: &Context, link: &SignedLink, body: S) -> Result<u64>
where
    S: futures::Stream<Item = std::result::Result<B, E>> + Unpin,
    B: AsRef<[u8]>,
    E: std::fmt::Display,
{
    if !ctx.storage.verify(&link.bucket, &link.key, link.expires, link.max, &link.signature) {
        return Err(Error::forbidden("this upload link is not valid or has expired; ask for a new one"));
    }
    #[derive(sqlx::FromRow)]
    struct Status {
        status: String,
    }
    let row: Option<Status> =
        ctx.db.fetch_optional("SELECT status FROM uploads_view WHERE key = $1", args![link.key.as_str()]).await?;
    let still_uploading = row.is_some_and(|row| row.status == "UPLOADING");
    if !still_uploading {
        return Err(Error::conflict("upload_closed", "this file was already received; ask for a new upload link"));
    }
    ctx.storage.write(&link.key, body, link.max).await.map_err(|error| match error {
        WriteError::TooLarge { limit } => {
            Error::too_large("file_too_large", format!("File size exceeds the limit of {} MB", limit / MIB))
        }
        WriteError::Body(reason) => Error::malformed("upload_interrupted", reason),
        WriteError::Store(error) if crate::error::is_disk_full(&error) => Error::disk_full(error),
        WriteError::Store(error) => Error::internal(error),
    })
}

#[derive(Debug, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CompleteMetadata {
    pub id: String,
    pub name: Option<String>,
    pub mime_type: Option<String>,
}

// A file the browser reports transferred (or, in a change, names).
#[derive(Debug, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CompleteFile {
    pub bucket: Option<String>,
    pub key: Option<String>,
    /// The file's id, when `metadata` does not carry it (a report file's removal: `{id}`).
    pub id: Option<String>,
    pub metadata: Option<CompleteMetadata>,
}

impl CompleteFile {
    /// The browser's id for the file: `metadata.id`, else `id`.
    pub fn file_id(&self) -> Result<&str> {
        self.metadata
            .as_ref()
            .map(|m| m.id.as_str())
            .or(self.id.as_deref())
            .map(str::trim)
            .filter(|id| !id.is_empty())
            .ok_or_else(|| Error::invalid("invalid_file_id", "every file needs its id"))
    }
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FileStatus {
    pub id: String,
    /// PROCESSING, FAILED, REMOVED, or UPLOADING_ERROR when storage holds no file at the key.
    pub status: String,
    pub error: Option<String>,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CompleteResponse {
    pub files: Vec<FileStatus>,
    pub feed_id: Option<String>,
}

#[derive(Debug, sqlx::FromRow)]
struct UploadRow {
    upload_id: String,
    file_id: String,
    source: String,
    name: String,
    mime_type: String,
    bucket: String,
    key: String,
    size: Option<i64>,
    status: String,
    error: Option<String>,
    deeplink: Option<String>,
}

const UPLOAD_COLUMNS: &str = "upload_id, file_id, source, name, mime_type, bucket, key, size, status, error, deeplink";

async fn upload_of(ctx: &Context, user_id: &str, file_id: &str) -> Result<UploadRow> {
    ctx.db
        .fetch_optional(
            &format!("SELECT {UPLOAD_COLUMNS} FROM uploads_view WHERE upload_id = $1"),
            args![upload_id(user_id, file_id)],
        )
        .await?
        .ok_or_else(|| Error::not_found(format!("no upload with the id {file_id}")))
}

/// The user's upload `file_id` (not found for an id they never uploaded).
pub async fn upload_state(ctx: &Context, user_id: &str, file_id: &str) -> Result<UploadState> {
    Ok(upload_of(ctx, user_id, file_id).await?.into())
}

impl From<UploadRow> for UploadState {
    fn from(r: UploadRow) -> UploadState {
        UploadState {
            id: r.file_id,
            name: r.name,
            mime_type: r.mime_type,
            size: r.size,
            source: r.source,
            status: r.status,
            error: r.error,
            deeplink: r.deeplink,
        }
    }
}

/// Reports transfers done: each file whose bytes storage holds, within its limits and the
/// user's quota, goes to PROCESSING (into `feed_id` when given); the others are reported per
/// file. A file reported before is answered where it is, unchanged.
pub async fn complete(
    ctx: &Context,
    viewer: &Viewer,
    files: Vec<CompleteFile>,
    feed_id: Option<String>,
) -> Result<CompleteResponse> {
    if files.is_empty() {
        return Err(Error::invalid("no_files", "name at least one uploaded file"));
    }
    // Every file is looked up and checked before anything is recorded.
    let mut rows = Vec::with_capacity(files.len());
    for file in &files {
        let row = upload_of(ctx, &viewer.user_id, file.file_id()?).await?;
        if file.key.as_deref().is_some_and(|k| k != row.key) || file.bucket.as_deref().is_some_and(|b| b != row.bucket)
        {
            return Err(Error::invalid(
                "upload_mismatch",
                format!("file {} was given another storage key", row.file_id),
            ));
        }
        rows.push(row);
    }
    let quota = crate::plans::storage_quota(ctx, &viewer.user_id).await?;
    let used_before = used_bytes(ctx, &viewer.user_id).await?;
    // Bytes accepted earlier in this call, not yet in the read model.
    let mut accepted = 0u64;
    let mut statuses = Vec::new();
    let mut last = None;
    for row in rows {
        if row.status != "UPLOADING" {
            // Reported before (a retried call): say where it is, change nothing.
            statuses.push(FileStatus { id: row.file_id, status: row.status, error: row.error });
            continue;
        }
        let limits = limits(ctx, &row.source)?;
        let Some(size) = ctx.storage.size(&row.key).await? else {
            statuses.push(FileStatus {
                id: row.file_id,
                status: "UPLOADING_ERROR".into(),
                error: Some(format!("File {} did not arrive; upload it again", row.name)),
            });
            continue;
        };
        let used = used_before + accepted;
        let refusal = if size > limits.file_size_limit {
            Some(format!("File {} size exceeds the limit of {} MB", row.name, limits.file_size_limit / MIB))
        } else if used + size > quota {
            Some(quota_error(used, quota).message)
        } else {
            None
        };
        let command = match &refusal {
            Some(reason) => UploadCommand::Fail { reason: reason.clone() },
            None => {
                accepted += size;
                UploadCommand::Complete { size, feed_id: feed_id.clone() }
            }
        };
        last = ctx.bus.execute(&ctx.bus.uploads, &row.upload_id, command, &viewer.metadata()).await?.or(last);
        statuses.push(FileStatus {
            id: row.file_id,
            status: if refusal.is_some() { "FAILED" } else { "PROCESSING" }.into(),
            error: refusal,
        });
    }
    ctx.settle(last).await;
    ctx.upload_wake.notify_one();
    Ok(CompleteResponse { files: statuses, feed_id })
}

// What a change to uploaded files does.
#[derive(Debug, Clone, Copy, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum ChangeAction {
    Add,
    Remove,
}

/// Adds uploaded files to a feed (`add`, which needs `feed_id`), or removes files and their
/// documents (`remove`).
pub async fn change(
    ctx: &Context,
    viewer: &Viewer,
    action: ChangeAction,
    files: Vec<CompleteFile>,
    feed_id: Option<String>,
) -> Result<CompleteResponse> {
    match action {
        ChangeAction::Add => {
            if feed_id.is_none() {
                return Err(Error::invalid("feed_id_required", "adding files needs the feed_id to add them to"));
            }
            complete(ctx, viewer, files, feed_id).await
        }
        ChangeAction::Remove => {
            let mut statuses = Vec::new();
            let mut last = None;
            for file in files {
                let row = upload_of(ctx, &viewer.user_id, file.file_id()?).await?;
                last = remove_upload(ctx, viewer, &row).await?.or(last);
                statuses.push(FileStatus { id: row.file_id, status: "REMOVED".into(), error: None });
            }
            ctx.settle(last).await;
            Ok(CompleteResponse { files: statuses, feed_id })
        }
    }
}

/// Records the removal, deletes the file's document, and deletes the stored file.
async fn remove_upload(ctx: &Context, viewer: &Viewer, row: &UploadRow) -> Result<Option<commands::Cursor>> {
    let mut last = ctx.bus.execute(&ctx.bus.uploads, &row.upload_id, UploadCommand::Remove, &viewer.metadata()).await?;
    if let Some(deeplink) = &row.deeplink {
        match ctx.bus.execute(&ctx.bus.documents, deeplink, DocumentCommand::Delete, &viewer.metadata()).await {
            Ok(cursor) => last = cursor.or(last),
            Err(commands::CommandError::Domain(DocumentError::NotFound)) => {}
            Err(error) => return Err(error.into()),
        }
    }
    if let Err(error) = ctx.storage.delete(&row.key).await {
        tracing::warn!(key = %row.key, error = %format!("{error:#}"), "a removed upload's file stays in storage");
    }
    Ok(last)
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct UploadState {
    pub id: String,
    pub name: String,
    pub mime_type: String,
    pub size: Option<i64>,
    pub source: String,
    /// UPLOADING, PROCESSING, COMPLETED, FAILED or REMOVED.
    pub status: String,
    pub error: Option<String>,
    /// The document the file became, once COMPLETED.
    pub deeplink: Option<String>,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct StatusList {
    pub results: Vec<UploadState>,
}

/// Where each of the user's uploads named in `ids` (comma-separated, at most 100) is, in the
/// order asked; unknown ids are left out.
pub async fn status(ctx: &Context, user_id: &str, ids: &str) -> Result<StatusList> {
    let ids: Vec<&str> = ids.split(',').map(str::trim).filter(|s| !s.is_empty()).collect();
    if ids.len() > 100 {
        return Err(Error::invalid("too_many_ids", "ask for at most 100 uploads at a time"));
    }
    if ids.is_empty() {
        return Ok(StatusList { results: vec![] });
    }
    // One query for all of them.
    let rows: Vec<UploadRow> = ctx
        .db
        .fetch_all(
            &format!("SELECT {UPLOAD_COLUMNS} FROM uploads_view WHERE upload_id IN ({})", placeholders(1, ids.len())),
            ids.iter().map(|id| upload_id(user_id, id).into()).collect(),
        )
        .await?;
    let mut by_id: HashMap<String, UploadRow> = rows.into_iter().map(|r| (r.file_id.clone(), r)).collect();
    let mut results = Vec::with_capacity(ids.len());
    for id in ids {
        results.extend(by_id.remove(id).map(UploadState::from));
    }
    Ok(StatusList { results })
}

#[derive(Debug, Serialize, sqlx::FromRow)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TypeUse {
    pub mime_type: String,
    pub bytes: i64,
    pub count: i64,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct StorageUse {
    pub used_bytes: u64,
    pub quota_bytes: u64,
    pub file_count: i64,
    pub by_type: Vec<TypeUse>,
}

/// How much of their storage quota the user's uploads take, by file type.
pub async fn storage_use(ctx: &Context, user_id: &str) -> Result<StorageUse> {
    let by_type: Vec<TypeUse> = ctx
        .db
        .fetch_all(
            &format!(
                "SELECT u.mime_type, CAST(COALESCE(SUM(u.size), 0) AS BIGINT) AS bytes, CAST(COUNT(*) AS BIGINT) AS count \
             FROM uploads_view u WHERE u.user_id = $1 AND {COUNTED} \
             GROUP BY u.mime_type ORDER BY bytes DESC, u.mime_type"
            ),
            args![user_id],
        )
        .await?;
    Ok(StorageUse {
        used_bytes: by_type.iter().map(|t| t.bytes.max(0) as u64).sum(),
        quota_bytes: crate::plans::storage_quota(ctx, user_id).await?,
        file_count: by_type.iter().map(|t| t.count).sum(),
        by_type,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits() -> UploadLimits {
        UploadLimits {
            file_types: vec!["pdf".into(), "md".into()],
            mime_types: vec![],
            file_count_limit: 2,
            file_size_limit: 2 * MIB,
            allow_folder_upload: false,
            file_name_suffixes: vec![],
        }
    }

    #[test]
    fn files_are_refused_with_the_spec_messages() {
        let type_error = check_file(&limits(), "a.exe", "application/x-msdownload", None).unwrap_err();
        assert_eq!(type_error.message, "File a.exe type: application/x-msdownload not allowed");
        let size_error = check_file(&limits(), "a.pdf", "application/pdf", Some(3 * MIB)).unwrap_err();
        assert_eq!(size_error.message, "File a.pdf size exceeds the limit of 2 MB");
        let suffixed = UploadLimits { file_name_suffixes: vec!["_AR".into(), "_Q1".into()], ..limits() };
        assert!(check_file(&suffixed, "acme_AR.pdf", "application/pdf", None).is_ok());
        let suffix_error = check_file(&suffixed, "acme.pdf", "application/pdf", None).unwrap_err();
        assert_eq!(suffix_error.message, "File acme.pdf name should end with one of the following suffixes: _AR, _Q1");
        assert!(check_file(&limits(), "notes.MD", "", Some(10)).is_ok(), "extensions match in any case");
        assert!(check_file(&limits(), "../a.pdf", "", None).is_err(), "no paths in names");
    }

    #[test]
    fn a_file_without_a_type_gets_one_from_its_name() {
        assert_eq!(mime_from_name("notes.md"), "text/markdown");
        assert_eq!(mime_from_name("a.PDF"), "application/pdf");
        assert_eq!(mime_from_name("blob"), "application/octet-stream");
    }

    #[test]
    fn sizes_read_as_people_write_them() {
        assert_eq!(human(512), "512 B");
        assert_eq!(human(1536 * 1024), "1.5 MB");
    }
}
