//! The worker side: one process, one document, JSON out.
//!
//! The worker caps itself with `setrlimit` before it touches the file, which needs no `unsafe`
//! `pre_exec` hook in the parent: by the time a parser runs, its address space and CPU time are
//! bounded. The wall clock and the output size are enforced by the parent ([`crate::isolate`]).

use crate::ooxml::{extract_ooxml, ZipLimits};
use crate::pdf::extract_pdf;
use crate::sniff::{sniff, Format};
use crate::text::{extract_html, extract_plain};
use crate::{ExtractError, Extracted, Input};
use rustix::process::{setrlimit, Resource, Rlimit};
use serde::{Deserialize, Serialize};
use std::ffi::OsString;
use std::io::Write;
use std::path::PathBuf;

/// More pages than any real report; a PDF claiming more is refused before any page is read.
pub const MAX_PAGES: u32 = 20_000;
/// Files larger than this are refused by the worker even if the caller allowed more.
pub const MAX_INPUT_BYTES: u64 = 1 << 30;

/// What the worker prints on stdout: exactly one JSON value.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WorkerReply {
    Ok(Box<Extracted>),
    Err(ExtractError),
}

/// Exit codes: the reply on stdout is authoritative for 0 and 1; anything else is a failure the
/// parent diagnoses from the exit status and stderr.
pub const EXIT_OK: i32 = 0;
pub const EXIT_EXTRACT_ERROR: i32 = 1;
pub const EXIT_USAGE: i32 = 2;

#[derive(Debug, Default)]
struct Args {
    path: Option<PathBuf>,
    file_name: Option<String>,
    declared_mime: Option<String>,
    memory_mib: Option<u64>,
    cpu_seconds: Option<u64>,
    /// Test-only behaviours that prove the caps work; see [`TestMode`].
    test_mode: Option<TestMode>,
}

/// TEST ONLY. Behaviours a real document could trigger but that are hard to craft on demand:
/// they let the crate's tests prove that each cap actually stops a worker. Harmless in
/// production: only the server starts workers, and it never passes these flags.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TestMode {
    /// Allocates and touches memory until the address-space cap stops it.
    Balloon,
    /// Sleeps forever without using CPU: only the wall-clock kill stops it.
    Hang,
    /// Spins forever: the CPU-time cap stops it.
    Spin,
}

fn parse_args(args: impl IntoIterator<Item = OsString>) -> Result<Args, String> {
    let mut parsed = Args::default();
    let mut args = args.into_iter();
    let mut positional_only = false;
    while let Some(arg) = args.next() {
        let flag = arg.to_string_lossy().into_owned();
        let mut value = |name: &str| -> Result<String, String> {
            args.next().map(|v| v.to_string_lossy().into_owned()).ok_or(format!("{name} needs a value"))
        };
        let number = |s: String, name: &str| s.parse::<u64>().map_err(|_| format!("{name} needs a number"));
        match flag.as_str() {
            _ if positional_only || !flag.starts_with("--") => {
                if parsed.path.replace(PathBuf::from(arg)).is_some() {
                    return Err("only one file per worker".into());
                }
            }
            "--" => positional_only = true,
            "--name" => parsed.file_name = Some(value("--name")?),
            "--mime" => parsed.declared_mime = Some(value("--mime")?),
            "--memory-mib" => parsed.memory_mib = Some(number(value("--memory-mib")?, "--memory-mib")?),
            "--cpu-seconds" => parsed.cpu_seconds = Some(number(value("--cpu-seconds")?, "--cpu-seconds")?),
            "--test-only-balloon" => parsed.test_mode = Some(TestMode::Balloon),
            "--test-only-hang" => parsed.test_mode = Some(TestMode::Hang),
            "--test-only-spin" => parsed.test_mode = Some(TestMode::Spin),
            other => return Err(format!("unknown flag {other}")),
        }
    }
    Ok(parsed)
}

/// Runs the worker: `[--memory-mib N] [--cpu-seconds N] [--name NAME] [--mime MIME] [--] PATH`
/// (arguments after the program or subcommand name). Writes one [`WorkerReply`] as JSON to
/// stdout and returns the process exit code.
pub fn worker_main(args: impl IntoIterator<Item = OsString>) -> i32 {
    let args = match parse_args(args) {
        Ok(args) => args,
        Err(message) => {
            eprintln!("extract-worker: {message}");
            eprintln!("usage: extract-worker [--memory-mib N] [--cpu-seconds N] [--name NAME] [--mime MIME] [--] PATH");
            return EXIT_USAGE;
        }
    };
    if let Err(e) = apply_limits(args.memory_mib, args.cpu_seconds) {
        eprintln!("extract-worker: cannot set resource limits: {e}");
        return EXIT_USAGE;
    }
    if let Some(mode) = args.test_mode {
        run_test_mode(mode);
    }
    let Some(path) = args.path else {
        eprintln!("extract-worker: no file given");
        return EXIT_USAGE;
    };
    let input = Input { path, file_name: args.file_name, declared_mime: args.declared_mime };
    let reply = match extract_file(&input) {
        Ok(extracted) => WorkerReply::Ok(Box::new(extracted)),
        Err(ExtractError::OutOfMemory { .. }) => {
            WorkerReply::Err(ExtractError::OutOfMemory { limit_mib: args.memory_mib.unwrap_or(0) })
        }
        Err(e) => WorkerReply::Err(e),
    };
    let code = if matches!(reply, WorkerReply::Ok(_)) { EXIT_OK } else { EXIT_EXTRACT_ERROR };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    if serde_json::to_writer(&mut out, &reply).and_then(|_| out.flush().map_err(serde_json::Error::io)).is_err() {
        // The parent closed the pipe (output cap or wall clock); nothing more to say.
        return EXIT_USAGE;
    }
    code
}

/// Caps the address space (so a ballooning parser gets a refused allocation, not the machine's
/// memory) and CPU time (SIGXCPU at the soft limit, SIGKILL a second later), and disables core
/// dumps (a crashing parser on a hostile file should not leave its memory on disk).
fn apply_limits(memory_mib: Option<u64>, cpu_seconds: Option<u64>) -> rustix::io::Result<()> {
    setrlimit(Resource::Core, Rlimit { current: Some(0), maximum: Some(0) })?;
    if let Some(mib) = memory_mib {
        let bytes = mib.saturating_mul(1 << 20);
        setrlimit(Resource::As, Rlimit { current: Some(bytes), maximum: Some(bytes) })?;
    }
    if let Some(seconds) = cpu_seconds {
        setrlimit(Resource::Cpu, Rlimit { current: Some(seconds), maximum: Some(seconds + 1) })?;
    }
    Ok(())
}

fn run_test_mode(mode: TestMode) -> ! {
    match mode {
        TestMode::Balloon => {
            let mut hoard: Vec<Vec<u8>> = Vec::new();
            loop {
                // Touch every page so the memory is really committed, as a parser's would be.
                hoard.push(vec![1u8; 32 << 20]);
            }
        }
        TestMode::Hang => loop {
            std::thread::sleep(std::time::Duration::from_secs(3600));
        },
        TestMode::Spin => {
            let mut x: u64 = 0;
            loop {
                x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
            }
        }
    }
}

/// Extracts one file in this process. Meant for the worker: a hostile file can abort, crash or
/// hang the calling process, so the server calls [`crate::extract_isolated`] instead.
pub fn extract_file(input: &Input) -> Result<Extracted, ExtractError> {
    let size = std::fs::metadata(&input.path)
        .map_err(|e| ExtractError::Worker(format!("cannot read the uploaded file ({e})")))?
        .len();
    if size > MAX_INPUT_BYTES {
        return Err(ExtractError::TooLarge(format!("{size} bytes, more than {MAX_INPUT_BYTES}")));
    }
    let bytes =
        std::fs::read(&input.path).map_err(|e| ExtractError::Worker(format!("cannot read the uploaded file ({e})")))?;
    if bytes.is_empty() {
        return Err(ExtractError::Corrupt("the file is empty".into()));
    }
    let name = input.file_name.as_deref();
    let declared = input.declared_mime.as_deref();
    let format = sniff(&bytes[..bytes.len().min(8192)], name, declared)?;
    tracing::debug!(?format, size, "extracting");
    let (mime, pages, mut metadata, mut warnings) = match format {
        Format::Pdf => {
            let out = extract_pdf(bytes, MAX_PAGES)?;
            (crate::sniff::MIME_PDF, out.pages, out.metadata, out.warnings)
        }
        Format::Zip => {
            let office_name = name
                .map(|n| n.to_ascii_lowercase())
                .is_some_and(|n| [".docx", ".xlsx", ".pptx", ".docm", ".xlsm", ".pptm"].iter().any(|s| n.ends_with(s)));
            let office_mime = declared.is_some_and(|m| m.contains("openxmlformats"));
            let out = extract_ooxml(&bytes, ZipLimits::default(), office_name || office_mime)?;
            (out.mime, out.pages, out.metadata, out.warnings)
        }
        Format::Html => {
            let out = extract_html(&bytes);
            (crate::sniff::MIME_HTML, out.pages, out.metadata, out.warnings)
        }
        Format::Markdown | Format::Text => {
            let markdown = format == Format::Markdown;
            let out = extract_plain(&bytes, markdown);
            let mime = if markdown { crate::sniff::MIME_MARKDOWN } else { crate::sniff::MIME_TEXT };
            (mime, out.pages, out.metadata, out.warnings)
        }
    };
    metadata.file_name = input.file_name.clone();
    metadata.size_bytes = size;
    metadata.mime = mime.to_string();
    if metadata.page_count == 0 {
        metadata.page_count = pages.len() as u32;
    }
    let garbled_pages = pages.iter().filter(|p| p.garbled).count();
    if garbled_pages > 0 {
        warnings.push(format!(
            "{garbled_pages} of {} pages have unreadable text (fonts without a character map); OCR is needed to search them",
            pages.len()
        ));
    }
    Ok(Extracted { mime: mime.to_string(), garbled: garbled_pages > 0, pages, metadata, warnings })
}
