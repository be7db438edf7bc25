use clap::Parser;

fn main() -> anyhow::Result<()> {
    // Everything this program creates is readable by its own user only: the data directory holds
    // the token secret, the database and users' files, and not every writer takes a mode (the
    // search index and object store libraries create files with the umask's default).
    rustix::process::umask(rustix::fs::Mode::from_bits_truncate(0o077));
    // The document extraction worker runs before any runtime or thread exists, so the memory cap
    // it sets on itself counts only the extraction (see the `extract` crate).
    let mut args = std::env::args_os();
    if args.nth(1).is_some_and(|a| a == "extract-worker") {
        // Not a test switch: the worker's own exit code is how the parent reads its outcome.
        std::process::exit(extract::worker_main(args));
    }
    tokio::runtime::Runtime::new()?.block_on(api::cli::run(api::config::Cli::parse()))
}
