//! Standalone extraction worker, used by this crate's tests and examples. The server runs the
//! same entry point as `needl extract-worker ...`.

fn main() {
    // Not a test switch: the worker's exit code is how the parent reads its outcome.
    std::process::exit(extract::worker_main(std::env::args_os().skip(1)));
}
