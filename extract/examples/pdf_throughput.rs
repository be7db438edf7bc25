//! PDF pages per second through the isolated worker, next to poppler's `pdftotext` on the same
//! files in the same run.
//!
//! `cargo run --release -p extract --example pdf_throughput [-- DIR]` (default:
//! `../shared/data/docs/pdf`). The example is its own worker: started as
//! `pdf_throughput extract-worker ...` it runs `worker_main`, the way the server runs
//! `needl extract-worker ...`.

use extract::{extract_isolated, worker_main, Input, Limits, WorkerCommand};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn main() {
    let mut args = std::env::args_os().skip(1).peekable();
    if args.peek().is_some_and(|a| a == "extract-worker") {
        // Not a test switch: this example re-runs itself as the worker; its exit code is the result.
        std::process::exit(worker_main(args.skip(1)));
    }
    let dir = args
        .next()
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/data/docs/pdf")).to_path_buf());
    let mut files = Vec::new();
    collect_pdfs(&dir, &mut files);
    files.sort();
    if files.is_empty() {
        println!("skipped: no PDFs under {}", dir.display());
        return;
    }
    let worker = WorkerCommand::new(std::env::current_exe().expect("own path")).arg("extract-worker");
    let limits = Limits::default();
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();

    println!("{:<60} {:>6} {:>10} {:>12} {:>12}", "file", "pages", "needl ms", "pdftotext ms", "-bbox ms");
    let (mut pages, mut ours, mut theirs, mut theirs_bbox) = (0u64, Duration::ZERO, Duration::ZERO, Duration::ZERO);
    let mut per_file_ms = Vec::new();
    let have_pdftotext = Command::new("pdftotext").arg("-v").stderr(Stdio::null()).status().is_ok();
    for path in &files {
        let started = Instant::now();
        let outcome = runtime.block_on(extract_isolated(&worker, &Input::path(path), &limits));
        let ours_elapsed = started.elapsed();
        let name = path.strip_prefix(&dir).unwrap_or(path).display().to_string();
        let doc = match outcome {
            Ok(doc) => doc,
            Err(e) => {
                println!("{name:<60} failed: {e}");
                continue;
            }
        };
        let n = doc.pages.len() as u64;
        let (plain, bbox) = if have_pdftotext {
            (time_pdftotext(path, &[]), time_pdftotext(path, &["-bbox-layout"]))
        } else {
            (Duration::ZERO, Duration::ZERO)
        };
        pages += n;
        ours += ours_elapsed;
        theirs += plain;
        theirs_bbox += bbox;
        per_file_ms.push(ours_elapsed.as_secs_f64() * 1000.0 / n.max(1) as f64);
        println!(
            "{name:<60} {n:>6} {:>10.1} {:>12.1} {:>12.1}",
            ours_elapsed.as_secs_f64() * 1000.0,
            plain.as_secs_f64() * 1000.0,
            bbox.as_secs_f64() * 1000.0
        );
    }
    per_file_ms.sort_by(|a, b| a.total_cmp(b));
    let rate = |d: Duration| pages as f64 / d.as_secs_f64().max(1e-9);
    println!();
    println!("needl (isolated worker, mupdf): {pages} pages, {:.0} pages/s", rate(ours));
    if let Some(median) = per_file_ms.get(per_file_ms.len() / 2) {
        println!("  median per-file cost: {median:.2} ms/page (includes one process start per file)");
    }
    if have_pdftotext {
        println!("pdftotext:                      {pages} pages, {:.0} pages/s", rate(theirs));
        println!("pdftotext -bbox-layout:         {pages} pages, {:.0} pages/s", rate(theirs_bbox));
        println!("ratio needl / pdftotext: {:.2}x the pages per second", rate(ours) / rate(theirs));
    } else {
        println!("pdftotext not installed (Debian: poppler-utils); no reference figures");
    }
}

fn collect_pdfs(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect_pdfs(&path, out);
        } else if path.extension().is_some_and(|e| e.eq_ignore_ascii_case("pdf")) {
            out.push(path);
        }
    }
}

fn time_pdftotext(path: &Path, flags: &[&str]) -> Duration {
    let started = Instant::now();
    let _ =
        Command::new("pdftotext").args(flags).arg(path).arg("-").stdout(Stdio::null()).stderr(Stdio::null()).status();
    started.elapsed()
}
