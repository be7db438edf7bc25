//! `needl import`: local files into a user's drive. Each file is extracted by this binary's
//! `extract-worker` mode in a process of its own, with memory, CPU, time and output caps, so a
//! file that makes a parser crash, hang or balloon fails alone.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::Context;
use commands::{CommandBus, Db};
use domain::document::{DocumentCommand, DocumentFields};
use domain::EventMetadata;
use extract::{Extracted, Input, Limits, WorkerCommand};
use futures::StreamExt;
use sha2::{Digest, Sha256};

use crate::ingestion::{deeplink, preview, BlobStore};

/// The source every drive upload belongs to.
pub const DRIVE_SOURCE: &str = "needldrive";

/// How many files are extracted at once (each worker may use up to its memory cap).
const PARALLEL: usize = 2;

/// Lists the files under `paths`, folders walked in name order, hidden entries skipped.
pub fn collect(paths: &[PathBuf]) -> anyhow::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for path in paths {
        let meta = std::fs::metadata(path).with_context(|| format!("cannot read {}", path.display()))?;
        if meta.is_dir() {
            let mut entries: Vec<PathBuf> = std::fs::read_dir(path)?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| !p.file_name().is_some_and(|n| n.to_string_lossy().starts_with('.')))
                .collect();
            entries.sort();
            out.extend(collect(&entries)?);
        } else if meta.is_file() {
            out.push(path.clone());
        }
    }
    Ok(out)
}

#[derive(Debug, Default)]
pub struct ImportReport {
    pub imported: usize,
    pub unchanged: usize,
    pub failed: Vec<(PathBuf, String)>,
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Detail tags and file metadata as the document keeps them.
fn metadata_of(extracted: &Extracted, layout_hash: &str) -> BTreeMap<String, String> {
    let m = &extracted.metadata;
    let mut out = BTreeMap::new();
    out.insert("mime_type".to_string(), m.mime.clone());
    out.insert("size".to_string(), m.size_bytes.to_string());
    out.insert("pages".to_string(), m.page_count.to_string());
    out.insert("layout_blob".to_string(), layout_hash.to_string());
    let optional = [
        ("original_file_name", &m.file_name),
        ("author", &m.author),
        ("created_by", &m.created_by),
        ("company_name", &m.company),
        ("subject", &m.subject),
        ("report_date", &m.created),
    ];
    for (key, value) in optional {
        if let Some(v) = value.as_ref().filter(|v| !v.trim().is_empty()) {
            out.insert(key.to_string(), v.clone());
        }
    }
    if let Some(year) = m.year {
        out.insert("year".to_string(), year.to_string());
    }
    if extracted.garbled {
        out.insert("garbled".to_string(), "true".to_string());
    }
    out
}

/// Extracts and records each file for `user_id`; one file's failure never stops the others.
pub async fn import(db: &Db, bus: &CommandBus, data_dir: &Path, user_id: &str, files: &[PathBuf]) -> anyhow::Result<ImportReport> {
    let worker = WorkerCommand::new(std::env::current_exe().context("finding this program")?).arg("extract-worker");
    let blobs = BlobStore::new(data_dir.join("blobs"));
    let total = files.len();
    let mut report = ImportReport::default();
    let mut results = futures::stream::iter(files.iter().enumerate().map(|(i, path)| {
        let worker = worker.clone();
        async move {
            let input = Input {
                path: path.clone(),
                file_name: path.file_name().map(|n| n.to_string_lossy().into_owned()),
                declared_mime: None,
            };
            (i, path, extract::extract_isolated(&worker, &input, &Limits::default()).await)
        }
    }))
    .buffer_unordered(PARALLEL);
    let mut done = 0;
    while let Some((_, path, result)) = results.next().await {
        done += 1;
        let name = path.display();
        match result {
            Ok(extracted) => match record(bus, &blobs, user_id, path, &extracted).await {
                Ok(true) => {
                    report.imported += 1;
                    eprintln!("[{done}/{total}] {name}: {} pages", extracted.pages.len());
                }
                Ok(false) => {
                    report.unchanged += 1;
                    eprintln!("[{done}/{total}] {name}: already imported");
                }
                Err(error) => {
                    eprintln!("[{done}/{total}] {name}: failed: {error:#}");
                    report.failed.push((path.clone(), format!("{error:#}")));
                }
            },
            Err(error) => {
                eprintln!("[{done}/{total}] {name}: failed: {error}");
                report.failed.push((path.clone(), error.to_string()));
            }
        }
    }
    let _ = db;
    Ok(report)
}

/// Stores the text and layout blobs and records the document; returns whether it was new.
async fn record(bus: &CommandBus, blobs: &BlobStore, user_id: &str, path: &Path, extracted: &Extracted) -> anyhow::Result<bool> {
    // Pages joined by form feeds, so page boundaries survive in the text blob.
    let text: String = extracted.pages.iter().map(|p| p.text.as_str()).collect::<Vec<_>>().join("\n\u{c}\n");
    let content_hash = hex(&Sha256::digest(text.as_bytes()));
    let layout = serde_json::to_string(extracted)?;
    let layout_hash = hex(&Sha256::digest(layout.as_bytes()));
    blobs.put(&content_hash, &text).await?;
    blobs.put(&layout_hash, &layout).await?;
    let file_name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let guid = format!("{file_name}:{content_hash}");
    let source_of_user = format!("{DRIVE_SOURCE}/{user_id}");
    let fields = DocumentFields {
        source_id: DRIVE_SOURCE.to_string(),
        guid: guid.clone(),
        link: None,
        title: extracted.metadata.title.clone().filter(|t| !t.trim().is_empty()).unwrap_or(file_name),
        author: extracted.metadata.author.clone(),
        published_at: extracted
            .metadata
            .created
            .as_deref()
            .and_then(|c| chrono::DateTime::parse_from_rfc3339(c).ok())
            .map(|t| t.with_timezone(&chrono::Utc)),
        summary: Some(preview(&text, 100)).filter(|s| !s.is_empty()),
        content_hash,
        owner: Some(user_id.to_string()),
        metadata: metadata_of(extracted, &layout_hash),
    };
    let id = deeplink(&source_of_user, &guid);
    let before = commands::feed::last_of_aggregate(&bus.db, "document", &id).await?;
    let after = bus
        .execute(&bus.documents, &id, DocumentCommand::Ingest(fields), &EventMetadata::system("cli", uuid::Uuid::new_v4().to_string()))
        .await
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    Ok(before != after)
}
