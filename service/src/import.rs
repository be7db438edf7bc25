//! `needl import`: local files into a user's drive. Each file is extracted by this binary's
//! `extract-worker` mode in a process of its own, with memory, CPU, time and output caps, so a
//! file that makes a parser crash, hang or balloon fails alone.

use std::path::{Path, PathBuf};

use anyhow::Context;
use commands::CommandBus;
use domain::EventMetadata;
use extract::{Extracted, Input, Limits, WorkerCommand};
use futures::StreamExt;
use sha2::{Digest, Sha256};

use crate::drive::{self, FileDocument, StoredFile, DRIVE_SOURCE};
use crate::ingestion::BlobStore;
use crate::storage::{safe_name, Storage};

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

/// Extracts and records each file for `user_id`; one file's failure never stops the others.
pub async fn import(
    bus: &CommandBus,
    storage: &Storage,
    data_dir: &Path,
    user_id: &str,
    files: &[PathBuf],
) -> anyhow::Result<ImportReport> {
    let worker = WorkerCommand::new(std::env::current_exe().context("finding this program")?).arg("extract-worker");
    let blobs = storage.blobs(data_dir.join("blobs"));
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
    let bar = progress_bar(total as u64);
    // On a terminal the bar shows progress and each file's line scrolls above it; in a log each
    // file is one line.
    let say = |line: String| if bar.is_hidden() { eprintln!("{line}") } else { bar.println(line) };
    let mut done = 0;
    while let Some((_, path, result)) = results.next().await {
        done += 1;
        bar.inc(1);
        let name = path.display();
        match result {
            Ok(extracted) => match record(bus, &blobs, storage, user_id, path, &extracted).await {
                Ok(true) => {
                    report.imported += 1;
                    say(format!("[{done}/{total}] {name}: {} pages", extracted.pages.len()));
                }
                Ok(false) => {
                    report.unchanged += 1;
                    say(format!("[{done}/{total}] {name}: already imported"));
                }
                Err(error) => {
                    say(format!("[{done}/{total}] {name}: failed: {error:#}"));
                    report.failed.push((path.clone(), format!("{error:#}")));
                }
            },
            Err(error) => {
                say(format!("[{done}/{total}] {name}: failed: {error}"));
                report.failed.push((path.clone(), error.to_string()));
            }
        }
    }
    bar.finish_and_clear();
    Ok(report)
}

/// A progress bar on standard error (indicatif hides it when standard error is not a terminal).
fn progress_bar(total: u64) -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::new(total);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} files, {per_sec}, about {eta} left")
            .expect("the template is valid"),
    );
    bar
}

/// Keeps the original file in storage and records the extracted document; returns whether it was new.
async fn record(
    bus: &CommandBus,
    blobs: &BlobStore,
    storage: &Storage,
    user_id: &str,
    path: &Path,
    extracted: &Extracted,
) -> anyhow::Result<bool> {
    let file_name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let bytes = tokio::fs::read(path).await?;
    let key = format!("{user_id}/import/{}/{}", hex::encode(Sha256::digest(&bytes)), safe_name(&file_name));
    let size = bytes.len() as u64;
    storage.write(&key, futures::stream::iter([Ok::<_, std::io::Error>(bytes)]), size).await?;
    let recorded = drive::record(
        bus,
        blobs,
        FileDocument {
            user_id,
            source: DRIVE_SOURCE,
            file_name: &file_name,
            extracted,
            original: Some(StoredFile { bucket: storage.bucket(), key: &key }),
            attached_to: None,
            stable_id: None,
        },
        &EventMetadata::system("cli", uuid::Uuid::new_v4().to_string()),
    )
    .await?;
    Ok(recorded.new)
}
