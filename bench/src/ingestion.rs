//! `needl-bench --only ingest`: how fast outside material becomes documents, and what importing
//! costs in memory. Prints figures; passes or fails nothing.
//!
//! The figures:
//! - **Feed items parsed/s**: the real RSS, Atom and JSON Feed files of the shared data's
//!   `feeds/` (unreadable ones are listed and skipped) read by [`ingest::parse_feed_bytes`] with
//!   the product's limits, the files cycled until the item count is reached. Parsing only.
//! - **Feed items stored/s**: the same parsing, then each item recorded the way the ingestion
//!   loop records a fetched item ([`Ingestion::record`]: duplicate check, text blob,
//!   `DocumentCommand::Ingest` through the command bus), on a fresh store of each backend. Each
//!   pass over the files gives the items new GUIDs and titles, so every item is a new document
//!   with a new blob. Left out: the network (fetching feeds and linked articles) and projections.
//! - **PDF pages/s**: the unencrypted PDFs of `docs/` extracted the way uploads and imports are,
//!   one worker process per file under the default limits ([`extract::extract_isolated`] running
//!   `needl-bench extract-worker`, the same entry point as `needl extract-worker`), one file at a
//!   time and [`PARALLEL_EXTRACTIONS`] at a time, next to `pdftotext -layout` (poppler) on the
//!   same files in the same run at the same parallelism.
//! - **Peak memory while importing**: `needl import`'s own path ([`service::import::import`]) over
//!   1,000 copies of the real documents of `docs/` (PDF, DOCX, XLSX, TXT, MD; encrypted ones left
//!   out) under distinct names: this process's peak resident set (VmHWM, reset when the import
//!   starts), the largest extraction worker's (workers are separate processes; sampled from /proc,
//!   so a lower bound), wall time and documents/s.
//!
//! Without the shared data (a fresh clone), synthetic feeds and text documents are generated and
//! the PDF figures are skipped with a message.
//!
//! Run it alone, on a release build (stderr carries the import's per-file progress):
//!
//! ```sh
//! cargo build --release -p bench && ./target/release/needl-bench --data-dir /tmp/b --only ingest 2>/dev/null
//! ```
//!
//! `--quick` measures 500 items, 50 pages and 100 documents instead of 5,000, 500 and 1,000;
//! `--backend sqlite` skips Postgres; `--data DIR` names another shared-data folder.

use std::future::Future;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context;
use commands::feed::FeedSignal;
use commands::{CommandBus, Db};
use domain::user::UserCommand;
use domain::EventMetadata;
use extract::{Input, Limits, WorkerCommand};
use futures::StreamExt;
use hdrhistogram::Histogram;
use ingest::{FeedError, FeedLimits, FetchPolicy, IngestedItem, ParsedFeed};
use sqlx::postgres::PgConnectOptions;

use service::ingestion::Ingestion;
use service::storage::Storage;
use service::uploads::PARALLEL_EXTRACTIONS;

use crate::BenchArgs;

/// The document kinds the import figure cycles through.
const IMPORT_KINDS: [&str; 5] = ["pdf", "docx", "xlsx", "txt", "md"];

/// How often the extraction workers' memory is sampled.
const SAMPLE_EVERY: Duration = Duration::from_millis(5);

/// How much each figure measures.
struct Scale {
    feed_items: usize,
    pdf_pages: u64,
    documents: usize,
}

impl Scale {
    fn new(quick: bool) -> Self {
        if quick {
            Scale { feed_items: 500, pdf_pages: 50, documents: 100 }
        } else {
            Scale { feed_items: 5000, pdf_pages: 500, documents: 1000 }
        }
    }
}

/// Prints the ingest figures; `data_dir` holds the scratch files and SQLite stores (all removed).
pub async fn run(data_dir: &Path, args: &BenchArgs) -> anyhow::Result<()> {
    let work = data_dir.join(format!("bench-ingest-{}", uuid::Uuid::new_v4().simple()));
    std::fs::create_dir_all(&work).with_context(|| format!("creating {}", work.display()))?;
    let result = measure(data_dir, &work, args, &Scale::new(args.quick)).await;
    let _ = std::fs::remove_dir_all(&work);
    result
}

async fn measure(data_dir: &Path, work: &Path, args: &BenchArgs, scale: &Scale) -> anyhow::Result<()> {
    let data = std::fs::canonicalize(&args.data).unwrap_or_else(|_| args.data.clone());
    let absent = if data.is_dir() { "" } else { " (absent: synthetic feeds and documents, no PDF figures)" };
    println!("\n[ingest] shared data: {}{absent}", data.display());
    let feeds = feed_files(&data.join("feeds"), &work.join("synthetic-feeds"))?;
    parse_throughput(&feeds, scale.feed_items);
    pdf_throughput(&data.join("docs"), scale.pdf_pages).await?;
    let documents = import_files(&data.join("docs"), work, scale.documents)?;
    for backend in ["sqlite", "postgres"].into_iter().filter(|b| args.backend == *b || args.backend == "both") {
        println!("\n[ingest: {backend}]");
        let store = FreshStore::open(backend, data_dir, &args.postgres_url).await?;
        let mut result = store_throughput(&store, &feeds, scale.feed_items).await;
        if result.is_ok() {
            result = import_memory(&store, &documents).await;
        }
        store.remove().await;
        result?;
    }
    Ok(())
}

// ---------- feed items ----------

/// A feed file read into memory once, so that only parsing is timed.
struct FeedFile {
    name: String,
    bytes: Vec<u8>,
}

impl FeedFile {
    fn source_id(&self) -> String {
        format!("bench-{}", self.name)
    }

    /// Parses the file as a fetch of it would, with the product's limits and a base URL.
    fn parse(&self) -> Result<ParsedFeed, FeedError> {
        let base = url::Url::parse(&format!("https://feeds.example/{}", self.name)).ok();
        ingest::parse_feed_bytes(&self.bytes, &self.source_id(), base.as_ref(), &FeedLimits::default())
    }
}

/// Returns the readable feed files under `dir`, ordered by name so that formats mix (and saying
/// which files are skipped and why), or synthetic ones written to `scratch` when `dir` is absent.
fn feed_files(dir: &Path, scratch: &Path) -> anyhow::Result<Vec<FeedFile>> {
    let (dir, origin) = if dir.is_dir() {
        (dir.to_path_buf(), "real")
    } else {
        write_synthetic_feeds(scratch)?;
        (scratch.to_path_buf(), "synthetic")
    };
    let mut paths = service::import::collect(std::slice::from_ref(&dir))?;
    paths.retain(|p| extension(p) != "md");
    paths.sort_by_key(|p| p.file_name().map(|n| n.to_os_string()));
    let (mut readable, mut skipped) = (Vec::new(), Vec::new());
    for path in paths {
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let feed = FeedFile { name, bytes: std::fs::read(&path)? };
        match feed.parse() {
            Ok(parsed) if !parsed.items.is_empty() => readable.push(feed),
            Ok(_) => skipped.push(format!("{}: no items", feed.name)),
            Err(error) => skipped.push(format!("{}: {}", feed.name, shorten(&error.to_string(), 90))),
        }
    }
    println!("feeds: {} {origin} files under {}, {} skipped", readable.len(), dir.display(), skipped.len());
    for reason in &skipped {
        println!("  skipped {reason}");
    }
    anyhow::ensure!(!readable.is_empty(), "no readable feed under {}", dir.display());
    Ok(readable)
}

/// The feed files over and over, each with the number of its pass.
fn passes(feeds: &[FeedFile]) -> impl Iterator<Item = (usize, &FeedFile)> {
    (0..).flat_map(move |pass| feeds.iter().map(move |feed| (pass, feed)))
}

/// Makes a later pass's copy of an item a new document: another GUID, title and content hash.
fn for_pass(mut item: IngestedItem, pass: usize) -> IngestedItem {
    if pass > 0 {
        item.guid = format!("{}#pass-{pass}", item.guid);
        item.title = Some(format!("{} (pass {pass})", item.title.as_deref().unwrap_or("Untitled")));
        item.content_hash =
            ingest::connector::content_hash(item.title.as_deref(), item.summary.as_deref(), item.full_text.as_deref());
    }
    item
}

/// Parses the files in passes until `target` items have come out.
fn parse_throughput(feeds: &[FeedFile], target: usize) {
    let (items, files, elapsed) = tokio::task::block_in_place(|| {
        let started = Instant::now();
        let (mut items, mut files) = (0, 0);
        for (_, feed) in passes(feeds) {
            if items >= target {
                break;
            }
            items += feed.parse().map_or(0, |p| p.items.len());
            files += 1;
        }
        (items, files, started.elapsed())
    });
    println!(
        "feed items parsed: {items} items ({files} files) in {:.2} s: {:.0} items/s",
        elapsed.as_secs_f64(),
        items as f64 / elapsed.as_secs_f64()
    );
}

/// Parses the files in passes and records every item until `target` items are stored.
async fn store_throughput(store: &FreshStore, feeds: &[FeedFile], target: usize) -> anyhow::Result<()> {
    // The interval only schedules fetches, and nothing is fetched here.
    let ingestion = Ingestion::new(
        store.db.clone(),
        store.bus.clone(),
        service::blobs::BlobStore::new(store.dir.join("blobs")),
        FetchPolicy::default(),
        Duration::from_secs(60),
    )?;
    let mut record_latency = Histogram::<u64>::new(3)?;
    let started = Instant::now();
    let mut stored = 0;
    for (pass, feed) in passes(feeds) {
        if stored >= target {
            break;
        }
        let parsed = tokio::task::block_in_place(|| feed.parse())?;
        let source_id = feed.source_id();
        for item in parsed.items {
            let item = for_pass(item, pass);
            let recorded = Instant::now();
            ingestion.record(&source_id, item).await.with_context(|| format!("recording an item of {}", feed.name))?;
            record_latency.record(recorded.elapsed().as_micros() as u64)?;
            stored += 1;
        }
    }
    let elapsed = started.elapsed();
    println!(
        "feed items stored (parse + blob + command): {stored} items in {:.2} s: {:.0} items/s; \
         record p50 {:.2} ms, p99 {:.2} ms",
        elapsed.as_secs_f64(),
        stored as f64 / elapsed.as_secs_f64(),
        ms(&record_latency, 0.5),
        ms(&record_latency, 0.99)
    );
    Ok(())
}

// ---------- PDF pages ----------

/// Pages out of a set of files: how many, how long in all, how long each file took.
struct Run {
    pages: u64,
    elapsed: Duration,
    per_file: Histogram<u64>,
}

impl Run {
    fn pages_per_second(&self) -> f64 {
        self.pages as f64 / self.elapsed.as_secs_f64()
    }

    fn print(&self, label: &str) {
        println!(
            "  {label:<32} {:>6} {:>8.2} {:>9.1} {:>12.1} {:>8.1}",
            self.pages,
            self.elapsed.as_secs_f64(),
            self.pages_per_second(),
            ms(&self.per_file, 0.5),
            ms(&self.per_file, 0.99)
        );
    }
}

/// Extracts the unencrypted PDFs under `docs` with our worker and with `pdftotext`, one at a time
/// and at the product's parallelism, repeating the set until `target_pages` pages.
async fn pdf_throughput(docs: &Path, target_pages: u64) -> anyhow::Result<()> {
    if !docs.is_dir() {
        println!("PDF pages extracted: skipped, {} not found", docs.display());
        return Ok(());
    }
    if !has_pdftotext().await {
        println!("PDF pages extracted: skipped, pdftotext not installed (Debian: poppler-utils)");
        return Ok(());
    }
    let (pdfs, encrypted) = unencrypted_pdfs(docs)?;
    if pdfs.is_empty() {
        println!("PDF pages extracted: skipped, no unencrypted PDF under {}", docs.display());
        return Ok(());
    }
    // This program's own worker mode (see main.rs), as uploads and imports run `needl`'s.
    let worker = WorkerCommand::new(std::env::current_exe().context("finding this program")?).arg("extract-worker");
    // One untimed pass gives the page counts and warms the page cache for both extractors.
    let warm = timed(&pdfs, 1, |path| needl_pages(&worker, path)).await?;
    let passes = target_pages.div_ceil(warm.pages.max(1)) as usize;
    let files: Vec<PathBuf> = (0..passes).flat_map(|_| pdfs.iter().cloned()).collect();
    println!(
        "PDF pages extracted: {} files ({}), {passes} passes; {encrypted} encrypted skipped",
        pdfs.len(),
        pdfs.iter().filter_map(|p| p.file_name()).map(|n| n.to_string_lossy()).collect::<Vec<_>>().join(", ")
    );
    println!("  {:<32} {:>6} {:>8} {:>9} {:>12} {:>8}", "", "pages", "seconds", "pages/s", "file p50 ms", "p99 ms");
    let mut ratios = Vec::new();
    for parallel in [1, PARALLEL_EXTRACTIONS] {
        let ours = timed(&files, parallel, |path| needl_pages(&worker, path)).await?;
        let theirs = timed(&files, parallel, pdftotext_pages).await?;
        ours.print(&format!("needl, {parallel} at a time"));
        theirs.print(&format!("pdftotext -layout, {parallel} at a time"));
        ratios.push(format!("{parallel} at a time {:.2}x", ours.pages_per_second() / theirs.pages_per_second()));
    }
    println!("  needl / pdftotext pages per second: {}", ratios.join(", "));
    Ok(())
}

/// Runs `extract` over `files`, `parallel` at a time, and adds up the pages it reports.
async fn timed<F, Fut>(files: &[PathBuf], parallel: usize, extract: F) -> anyhow::Result<Run>
where
    F: Fn(PathBuf) -> Fut,
    Fut: Future<Output = anyhow::Result<u64>>,
{
    let started = Instant::now();
    let mut runs = futures::stream::iter(files.iter().cloned())
        .map(|path| {
            let pages = extract(path);
            async move {
                let started = Instant::now();
                (pages.await, started.elapsed())
            }
        })
        .buffer_unordered(parallel);
    let mut run = Run { pages: 0, elapsed: Duration::ZERO, per_file: Histogram::new(3)? };
    while let Some((pages, took)) = runs.next().await {
        run.pages += pages?;
        run.per_file.record(took.as_micros() as u64)?;
    }
    run.elapsed = started.elapsed();
    Ok(run)
}

/// Extracts one file as uploads and imports do, and returns its page count.
async fn needl_pages(worker: &WorkerCommand, path: PathBuf) -> anyhow::Result<u64> {
    let extracted = extract::extract_isolated(worker, &Input::path(&path), &Limits::default())
        .await
        .with_context(|| format!("extracting {}", path.display()))?;
    Ok(extracted.pages.len() as u64)
}

/// Runs `pdftotext -layout FILE -` and returns its page count (it ends every page with a form feed).
async fn pdftotext_pages(path: PathBuf) -> anyhow::Result<u64> {
    let output = tokio::process::Command::new("pdftotext")
        .arg("-layout")
        .arg(&path)
        .arg("-")
        .stderr(Stdio::null())
        .output()
        .await?;
    anyhow::ensure!(output.status.success(), "pdftotext failed on {}", path.display());
    Ok(output.stdout.iter().filter(|&&b| b == b'\x0c').count() as u64)
}

async fn has_pdftotext() -> bool {
    let probe =
        tokio::process::Command::new("pdftotext").arg("-v").stdout(Stdio::null()).stderr(Stdio::null()).status();
    probe.await.is_ok()
}

/// Returns the unencrypted PDFs under `docs`, and how many encrypted ones were left out.
fn unencrypted_pdfs(docs: &Path) -> anyhow::Result<(Vec<PathBuf>, usize)> {
    let mut pdfs = Vec::new();
    let mut encrypted = 0;
    for path in service::import::collect(&[docs.to_path_buf()])? {
        if extension(&path) != "pdf" {
            continue;
        }
        if is_encrypted(&path)? {
            encrypted += 1;
        } else {
            pdfs.push(path);
        }
    }
    Ok((pdfs, encrypted))
}

// ---------- import memory ----------

/// Copies the real documents under `docs` (generated text and Markdown when it is absent) into
/// `work/import` under distinct names, cycling them to `count` files.
fn import_files(docs: &Path, work: &Path, count: usize) -> anyhow::Result<Vec<PathBuf>> {
    let (originals, encrypted) = if docs.is_dir() {
        readable_documents(docs)?
    } else {
        (write_synthetic_documents(&work.join("synthetic-docs"))?, 0)
    };
    anyhow::ensure!(!originals.is_empty(), "no document to import under {}", docs.display());
    let into = work.join("import");
    std::fs::create_dir_all(&into)?;
    let mut copies = Vec::with_capacity(count);
    for (i, original) in originals.iter().cycle().take(count).enumerate() {
        let name = original.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let copy = into.join(format!("{i:04}-{name}"));
        std::fs::copy(original, &copy).with_context(|| format!("copying {}", original.display()))?;
        copies.push(copy);
    }
    let kinds: Vec<String> = IMPORT_KINDS
        .iter()
        .map(|kind| (kind, originals.iter().filter(|p| extension(p) == *kind).count()))
        .filter(|(_, n)| *n > 0)
        .map(|(kind, n)| format!("{n} {kind}"))
        .collect();
    println!(
        "import set: {count} copies of {} documents ({}; {encrypted} encrypted left out)",
        originals.len(),
        kinds.join(", ")
    );
    Ok(copies)
}

/// Returns the documents of the import kinds under `docs` that are not encrypted (nor the data's
/// own SOURCES.md or README.md), and how many encrypted ones were left out.
fn readable_documents(docs: &Path) -> anyhow::Result<(Vec<PathBuf>, usize)> {
    let mut readable = Vec::new();
    let mut encrypted = 0;
    for path in service::import::collect(&[docs.to_path_buf()])? {
        let catalogue = path.file_name().is_some_and(|n| n == "SOURCES.md" || n == "README.md");
        if catalogue || !IMPORT_KINDS.contains(&extension(&path).as_str()) {
            continue;
        }
        if is_encrypted(&path)? {
            encrypted += 1;
        } else {
            readable.push(path);
        }
    }
    Ok((readable, encrypted))
}

/// Imports `files` for a new user and prints the wall time, the rate and the peak memory of this
/// process and of the extraction workers.
async fn import_memory(store: &FreshStore, files: &[PathBuf]) -> anyhow::Result<()> {
    let user_id = sign_up(&store.bus).await?;
    // Import hands out no upload links, so the storage needs no signing secret.
    let storage = Storage::open("local", &store.dir.join("objects"), &[])?;
    let before = Memory::read();
    let reset = reset_peak();
    let workers = WorkerPeak::start();
    let started = Instant::now();
    let report = service::import::import(&store.bus, &storage, &store.dir, &user_id, files).await?;
    let elapsed = started.elapsed();
    let worker_peak = workers.stop();
    let after = Memory::read();
    println!(
        "import of {} documents: {} imported, {} unchanged, {} failed in {:.1} s: {:.1} documents/s",
        files.len(),
        report.imported,
        report.unchanged,
        report.failed.len(),
        elapsed.as_secs_f64(),
        files.len() as f64 / elapsed.as_secs_f64()
    );
    for (path, reason) in report.failed.iter().take(3) {
        println!("  failed {}: {}", path.file_name().unwrap_or_default().to_string_lossy(), shorten(reason, 90));
    }
    if reset {
        println!(
            "  needl process peak resident: {} during the import (peak reset at its start, resident then {})",
            mib(after.peak_kib),
            mib(before.resident_kib)
        );
    } else {
        println!(
            "  needl process peak resident: {} after the import, {} before it (lifetime peaks: the peak could not be reset)",
            mib(after.peak_kib),
            mib(before.peak_kib)
        );
    }
    match worker_peak {
        Some(kib) => println!(
            "  largest extraction worker resident: {} (sampled from /proc every {} ms: a lower bound)",
            mib(Some(kib)),
            SAMPLE_EVERY.as_millis()
        ),
        None => println!("  largest extraction worker resident: not seen (no /proc/self/task/*/children here)"),
    }
    Ok(())
}

/// Signs up the user the documents are imported for (it never signs in).
async fn sign_up(bus: &CommandBus) -> anyhow::Result<String> {
    let user_id = uuid::Uuid::now_v7().to_string();
    let command = UserCommand::SignUp {
        email: format!("bench-{}@example.com", uuid::Uuid::new_v4().simple()),
        username: "bench".into(),
        password_hash: "no password: never signs in".into(),
        is_admin: false,
    };
    bus.execute(&bus.users, &user_id, command, &EventMetadata::system("bench", uuid::Uuid::new_v4().to_string()))
        .await
        .map_err(|e| anyhow::anyhow!("signing up the bench user: {e}"))?;
    Ok(user_id)
}

/// This process's resident set and its peak, from /proc/self/status (KiB; `None` off Linux).
pub(crate) struct Memory {
    pub(crate) resident_kib: Option<u64>,
    pub(crate) peak_kib: Option<u64>,
}

impl Memory {
    pub(crate) fn read() -> Self {
        let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
        Memory { resident_kib: status_field(&status, "VmRSS"), peak_kib: status_field(&status, "VmHWM") }
    }
}

/// Resets this process's peak resident set to its current one (Linux 4.0+); returns whether it did.
pub(crate) fn reset_peak() -> bool {
    std::fs::write("/proc/self/clear_refs", "5").is_ok()
}

/// Returns a `Name:   123 kB` field of a /proc status file, in KiB.
fn status_field(status: &str, name: &str) -> Option<u64> {
    let line = status.lines().find(|l| l.strip_prefix(name).is_some_and(|rest| rest.starts_with(':')))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Samples, on a thread of its own, the peak resident set of this process's children (the
/// extraction workers) until stopped. A worker's last moments between two samples go unseen.
struct WorkerPeak {
    stop: Arc<AtomicBool>,
    thread: std::thread::JoinHandle<Option<u64>>,
}

impl WorkerPeak {
    fn start() -> Self {
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = stop.clone();
        let thread = std::thread::spawn(move || {
            let mut peak = None;
            while !stopped.load(Ordering::Relaxed) {
                for pid in children().into_iter().filter(|&pid| is_worker(pid)) {
                    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
                    peak = peak.max(status_field(&status, "VmHWM"));
                }
                std::thread::sleep(SAMPLE_EVERY);
            }
            peak
        });
        WorkerPeak { stop, thread }
    }

    /// Stops sampling; returns the largest peak seen, in KiB.
    fn stop(self) -> Option<u64> {
        self.stop.store(true, Ordering::Relaxed);
        self.thread.join().unwrap_or(None)
    }
}

/// Returns the ids of this process's children, listed per thread under /proc/self/task.
fn children() -> Vec<u32> {
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return Vec::new();
    };
    tasks
        .flatten()
        .filter_map(|task| std::fs::read_to_string(task.path().join("children")).ok())
        .flat_map(|list| list.split_whitespace().filter_map(|pid| pid.parse().ok()).collect::<Vec<_>>())
        .collect()
}

/// Whether a child runs the extraction worker yet: until it has started its own program, a child
/// shows this process's memory as its own.
fn is_worker(pid: u32) -> bool {
    let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
    cmdline.split(|&b| b == 0).nth(1) == Some(b"extract-worker".as_slice())
}

// ---------- stores ----------

/// An empty store on one backend, with a directory for its blobs and stored files.
struct FreshStore {
    db: Db,
    bus: Arc<CommandBus>,
    dir: PathBuf,
    /// The Postgres schema made for this run and a connection outside it, to drop it afterwards.
    schema: Option<(sqlx::PgPool, String)>,
}

impl FreshStore {
    async fn open(backend: &str, base: &Path, postgres_url: &str) -> anyhow::Result<Self> {
        let dir = base.join(format!("bench-{}", uuid::Uuid::new_v4().simple()));
        std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
        let (db, schema) = if backend == "postgres" {
            let (db, admin, name) = fresh_schema(postgres_url).await?;
            (db, Some((admin, name)))
        } else {
            (Db::open_sqlite(&dir).await?, None)
        };
        let bus = Arc::new(CommandBus::new(db.clone(), FeedSignal::default()));
        Ok(FreshStore { db, bus, dir, schema })
    }

    async fn remove(self) {
        self.db.close().await;
        if let Some((admin, name)) = self.schema {
            let _ = sqlx::query(&format!("DROP SCHEMA {name} CASCADE")).execute(&admin).await;
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Makes a new schema in the Postgres at `url` and opens (and migrates) a store in it.
async fn fresh_schema(url: &str) -> anyhow::Result<(Db, sqlx::PgPool, String)> {
    let name = format!("bench_{}", uuid::Uuid::new_v4().simple());
    let admin = sqlx::PgPool::connect(url).await.context("connecting to Postgres")?;
    sqlx::query(&format!("CREATE SCHEMA {name}")).execute(&admin).await?;
    let options = PgConnectOptions::from_str(url)?.options([("search_path", name.as_str())]);
    match Db::open_postgres_with(options).await {
        Ok(db) => Ok((db, admin, name)),
        Err(error) => {
            let _ = sqlx::query(&format!("DROP SCHEMA {name} CASCADE")).execute(&admin).await;
            Err(error)
        }
    }
}

// ---------- synthetic files (no shared data) ----------

/// Writes two RSS 2.0 and two Atom feeds of 50 items each to `dir`.
fn write_synthetic_feeds(dir: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir)?;
    for feed in 0..2 {
        let items: String = (0..50)
            .map(|i| {
                format!(
                    "<item><title>Quarterly note {feed}-{i}</title><link>https://example.com/rss{feed}/{i}</link>\
                     <guid>rss-{feed}-{i}</guid><pubDate>Mon, 06 May 2024 10:{:02}:00 GMT</pubDate>\
                     <description><![CDATA[<p>{}</p>]]></description></item>",
                    i % 60,
                    prose(feed * 50 + i, 3)
                )
            })
            .collect();
        let rss = format!(
            "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Synthetic RSS {feed}</title>\
             <link>https://example.com/rss{feed}</link>{items}</channel></rss>"
        );
        std::fs::write(dir.join(format!("synthetic-{feed}.rss")), rss)?;
        let entries: String = (0..50)
            .map(|i| {
                format!(
                    "<entry><title>Market brief {feed}-{i}</title><id>urn:atom:{feed}:{i}</id>\
                     <link href=\"https://example.com/atom{feed}/{i}\"/><updated>2024-05-06T10:{:02}:00Z</updated>\
                     <content type=\"html\">&lt;p&gt;{}&lt;/p&gt;</content></entry>",
                    i % 60,
                    prose(feed * 50 + i + 100, 6)
                )
            })
            .collect();
        let atom = format!(
            "<?xml version=\"1.0\"?><feed xmlns=\"http://www.w3.org/2005/Atom\"><title>Synthetic Atom {feed}</title>\
             <id>urn:atom:{feed}</id><updated>2024-05-06T10:00:00Z</updated>{entries}</feed>"
        );
        std::fs::write(dir.join(format!("synthetic-{feed}.atom")), atom)?;
    }
    Ok(())
}

/// Writes twelve text and Markdown documents to `dir`; returns their paths.
fn write_synthetic_documents(dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir)?;
    let mut paths = Vec::new();
    for i in 0..12 {
        let (name, text) = if i % 2 == 0 {
            (format!("note-{i}.txt"), prose(i, 40))
        } else {
            (
                format!("report-{i}.md"),
                format!("# Report {i}\n\n{}\n\n| quarter | revenue |\n|---|---|\n| Q1 | {i}0 |\n", prose(i, 40)),
            )
        };
        let path = dir.join(name);
        std::fs::write(&path, text)?;
        paths.push(path);
    }
    Ok(paths)
}

/// Returns `sentences` sentences of plausible filler, varied by `seed`.
fn prose(seed: usize, sentences: usize) -> String {
    const WORDS: [&str; 12] = [
        "revenue", "margin", "guidance", "quarter", "growth", "costs", "segment", "outlook", "cash", "demand", "rates",
        "debt",
    ];
    (0..sentences)
        .map(|s| {
            let pick = |k: usize| WORDS[(seed * 7 + s * 3 + k) % WORDS.len()];
            format!("The {} rose while {} and {} held steady in the {}.", pick(0), pick(1), pick(5), pick(9))
        })
        .collect::<Vec<_>>()
        .join(" ")
}

// ---------- small helpers ----------

/// Whether a document is encrypted: a PDF with an `/Encrypt` dictionary, or an Office file that is
/// an encrypted OLE container instead of a zip package.
fn is_encrypted(path: &Path) -> anyhow::Result<bool> {
    const OLE: &[u8] = &[0xd0, 0xcf, 0x11, 0xe0];
    let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    Ok(match extension(path).as_str() {
        "pdf" => bytes.windows(8).any(|w| w == b"/Encrypt"),
        "docx" | "xlsx" => bytes.starts_with(OLE),
        _ => false,
    })
}

fn extension(path: &Path) -> String {
    path.extension().map(|e| e.to_string_lossy().to_ascii_lowercase()).unwrap_or_default()
}

fn ms(h: &Histogram<u64>, quantile: f64) -> f64 {
    h.value_at_quantile(quantile) as f64 / 1000.0
}

pub(crate) fn mib(kib: Option<u64>) -> String {
    kib.map_or_else(|| "unknown".to_string(), |k| format!("{:.1} MiB", k as f64 / 1024.0))
}

fn shorten(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_string(),
    }
}
