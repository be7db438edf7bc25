//! The server side: run one document through a worker process under limits, and turn every way
//! it can end (reply, signal, silence) into [`Extracted`] or an [`ExtractError`].
//!
//! A process, not a thread with `catch_unwind`: the failures seen on hostile files were aborts,
//! crashes inside C code and endless loops, none of which unwinding can stop.

use crate::worker::{WorkerReply, EXIT_EXTRACT_ERROR, EXIT_OK};
use crate::{ExtractError, Extracted, Input};
use std::ffi::OsString;
use std::os::unix::process::ExitStatusExt;
use std::path::PathBuf;
use std::process::{ExitStatus, Stdio};
use std::time::{Duration, Instant};
use tokio::io::{AsyncRead, AsyncReadExt};
use tokio::process::Command;

/// How to start a worker: a program and the arguments that come before the worker's own, e.g.
/// `needl` with `["extract-worker"]`, or this crate's `extract-worker` binary with none.
#[derive(Debug, Clone)]
pub struct WorkerCommand {
    pub program: PathBuf,
    pub leading_args: Vec<OsString>,
}

impl WorkerCommand {
    pub fn new(program: impl Into<PathBuf>) -> Self {
        WorkerCommand { program: program.into(), leading_args: Vec::new() }
    }

    pub fn arg(mut self, arg: impl Into<OsString>) -> Self {
        self.leading_args.push(arg.into());
        self
    }
}

/// Caps for one document. The defaults suit a 2-core machine with a few GiB to spare per
/// concurrent extraction.
#[derive(Debug, Clone)]
pub struct Limits {
    /// Address-space cap (RLIMIT_AS). Address space, not resident memory: it must leave room for
    /// the binary and its libraries, so keep it well above 256 MiB.
    pub memory_bytes: u64,
    /// CPU-time cap (RLIMIT_CPU), whole seconds; catches a busy loop even on a loaded machine.
    pub cpu_seconds: u64,
    /// Wall-clock kill; catches what the CPU cap cannot (a worker blocked or sleeping).
    pub wall_clock: Duration,
    /// The JSON reply may not exceed this; a tiny file can expand to a huge text.
    pub max_output_bytes: u64,
    /// Files larger than this are refused before a worker starts.
    pub max_input_bytes: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            memory_bytes: 2 << 30,
            cpu_seconds: 60,
            wall_clock: Duration::from_secs(90),
            max_output_bytes: 256 << 20,
            max_input_bytes: 512 << 20,
        }
    }
}

/// Keeps the start of the worker's stderr for diagnosis; MuPDF can be chatty on broken files.
const STDERR_KEEP: usize = 64 << 10;

/// Extracts `input` in a fresh worker process under `limits`. Never panics on what the worker
/// does; every outcome becomes a value.
pub async fn extract_isolated(
    worker: &WorkerCommand,
    input: &Input,
    limits: &Limits,
) -> Result<Extracted, ExtractError> {
    let started = Instant::now();
    let size = tokio::fs::metadata(&input.path)
        .await
        .map_err(|e| ExtractError::Worker(format!("cannot read the uploaded file ({e})")))?
        .len();
    if size > limits.max_input_bytes {
        return Err(ExtractError::TooLarge(format!("{size} bytes, more than the limit of {}", limits.max_input_bytes)));
    }
    let mut command = Command::new(&worker.program);
    command
        .args(&worker.leading_args)
        .arg("--memory-mib")
        .arg((limits.memory_bytes >> 20).to_string())
        .arg("--cpu-seconds")
        .arg(limits.cpu_seconds.max(1).to_string());
    if let Some(name) = &input.file_name {
        command.arg("--name").arg(name);
    }
    if let Some(mime) = &input.declared_mime {
        command.arg("--mime").arg(mime);
    }
    command
        .arg("--")
        .arg(&input.path)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    let mut child = command
        .spawn()
        .map_err(|e| ExtractError::Worker(format!("cannot start {} ({e})", worker.program.display())))?;
    let stdout = child.stdout.take().expect("stdout is piped");
    let stderr = child.stderr.take().expect("stderr is piped");
    let stderr_task = tokio::spawn(read_keeping_start(stderr, STDERR_KEEP));

    enum Ended {
        Exited(Vec<u8>, ExitStatus),
        OutputTooLarge,
    }
    let run = async {
        let mut out = Vec::new();
        stdout
            .take(limits.max_output_bytes + 1)
            .read_to_end(&mut out)
            .await
            .map_err(|e| ExtractError::Worker(format!("cannot read the worker's output ({e})")))?;
        if out.len() as u64 > limits.max_output_bytes {
            return Ok(Ended::OutputTooLarge);
        }
        let status =
            child.wait().await.map_err(|e| ExtractError::Worker(format!("cannot wait for the worker ({e})")))?;
        Ok::<_, ExtractError>(Ended::Exited(out, status))
    };
    let ended = tokio::time::timeout(limits.wall_clock, run).await;
    let result = match ended {
        Err(_elapsed) => {
            let _ = child.start_kill();
            let _ = child.wait().await;
            Err(ExtractError::TimedOut { seconds: limits.wall_clock.as_secs().max(1) })
        }
        Ok(Err(e)) => {
            let _ = child.start_kill();
            Err(e)
        }
        Ok(Ok(Ended::OutputTooLarge)) => {
            let _ = child.start_kill();
            let _ = child.wait().await;
            Err(ExtractError::TooLarge(format!(
                "the extracted text is larger than {} MiB",
                limits.max_output_bytes >> 20
            )))
        }
        Ok(Ok(Ended::Exited(out, status))) => {
            let stderr = stderr_task.await.unwrap_or_default();
            interpret(&out, status, &String::from_utf8_lossy(&stderr), limits)
        }
    };
    let elapsed_ms = started.elapsed().as_millis() as u64;
    match &result {
        Ok(doc) => {
            tracing::info!(path = %input.path.display(), mime = %doc.mime, pages = doc.pages.len(), elapsed_ms, "extracted")
        }
        Err(e) => {
            tracing::warn!(path = %input.path.display(), code = e.code(), error = %e, elapsed_ms, "extraction failed")
        }
    }
    result
}

/// Reads a stream to its end (so the writer never blocks on a full pipe), keeping `keep` bytes.
async fn read_keeping_start(mut stream: impl AsyncRead + Unpin, keep: usize) -> Vec<u8> {
    let mut kept = Vec::new();
    let mut chunk = [0u8; 8192];
    while let Ok(n) = stream.read(&mut chunk).await {
        if n == 0 {
            break;
        }
        let room = keep.saturating_sub(kept.len());
        kept.extend_from_slice(&chunk[..n.min(room)]);
    }
    kept
}

/// Maps how the worker ended to an outcome.
fn interpret(out: &[u8], status: ExitStatus, stderr: &str, limits: &Limits) -> Result<Extracted, ExtractError> {
    let limit_mib = limits.memory_bytes >> 20;
    match status.code() {
        Some(EXIT_OK) | Some(EXIT_EXTRACT_ERROR) => {
            return match serde_json::from_slice::<WorkerReply>(out) {
                Ok(WorkerReply::Ok(doc)) => Ok(*doc),
                Ok(WorkerReply::Err(ExtractError::OutOfMemory { .. })) => Err(ExtractError::OutOfMemory { limit_mib }),
                Ok(WorkerReply::Err(e)) => Err(e),
                Err(e) => Err(ExtractError::Worker(format!("unreadable reply ({e})"))),
            };
        }
        _ => {}
    }
    let ran_out_of_memory =
        stderr.contains("memory allocation of") || stderr.contains("out of memory") || stderr.contains("malloc");
    if ran_out_of_memory {
        return Err(ExtractError::OutOfMemory { limit_mib });
    }
    if let Some(signal) = status.signal() {
        return Err(match signal {
            // SIGXCPU at the soft CPU limit; SIGKILL at the hard one a second later.
            libc_signal::SIGXCPU | libc_signal::SIGKILL => ExtractError::TimedOut { seconds: limits.cpu_seconds },
            other => ExtractError::Crashed(format!("{}{}", signal_name(other), last_line(stderr))),
        });
    }
    if let Some(panic) = stderr.lines().find(|l| l.contains("panicked at")) {
        let detail: Vec<&str> = stderr.lines().skip_while(|l| *l != panic).take(2).collect();
        return Err(ExtractError::Crashed(format!(
            "panic: {}",
            detail.join(" ").chars().take(300).collect::<String>()
        )));
    }
    Err(ExtractError::Worker(format!("exited with {status}{}", last_line(stderr))))
}

fn last_line(stderr: &str) -> String {
    match stderr.lines().rev().find(|l| !l.trim().is_empty()) {
        Some(line) => format!(" ({})", line.chars().take(200).collect::<String>()),
        None => String::new(),
    }
}

/// Signal numbers on Linux, named here rather than pulling in libc for five constants.
mod libc_signal {
    pub const SIGABRT: i32 = 6;
    pub const SIGBUS: i32 = 7;
    pub const SIGKILL: i32 = 9;
    pub const SIGSEGV: i32 = 11;
    pub const SIGXCPU: i32 = 24;
}

fn signal_name(signal: i32) -> String {
    match signal {
        libc_signal::SIGABRT => "aborted (SIGABRT)".into(),
        libc_signal::SIGSEGV => "segmentation fault (SIGSEGV)".into(),
        libc_signal::SIGBUS => "bus error (SIGBUS)".into(),
        other => format!("killed by signal {other}"),
    }
}
