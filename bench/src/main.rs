//! `needl-bench`: what the server does per second and how long it takes, measured through the
//! product's own paths. Prints figures (median and p99, and a ratio against a reference run in the
//! same process where there is one); passes or fails nothing.
//!
//! A tour:
//! - [`store`]: command throughput next to plain inserts, feed-to-projection lag under a steady
//!   load, and commit-to-WebSocket delivery with many sockets.
//! - [`ingestion`]: feed items parsed and stored, PDF pages next to pdftotext, import memory.
//! - [`retrieval`]: SciFact nDCG@10 through the search path, query latency at 100k and 1M passages.
//! - [`collab`]: comment delivery to channel members over many sockets; tagging and commenting
//!   calls per second.
//! - [`ask`]: AskNeedl's citation and answer recall on the QA set, answer latency at 100k passages.
//! - [`story_clusters`]: signatures per second, insert latency into a story index of 1M items,
//!   pair precision and recall of story clusters on the labelled sets.
//! - [`feeds`]: custom feeds' rule matching per new item with 1,000 feeds defined, and a feed's
//!   re-evaluation over the stored history (preview counts, applying a changed definition).
//! - [`reports`]: research reports: time to generate each type over 10 and 50 real documents,
//!   progress, cancel latency, peak memory, citation integrity, and key figures read from TAT-QA's
//!   tables against their gold values.
//! - [`topics`]: AI feeds' topics with the offline embedding model: accuracy and macro-F1 on AG
//!   News, embedding throughput, a topic rule re-applied to 1M stored embeddings.
//!
//! It depends on `api` for the server it runs in this process, and on the crates below it for
//! what it drives directly. Uploads and imports extract documents in worker processes of this
//! program (`needl-bench extract-worker ...`, the same entry point as `needl extract-worker`), so
//! it needs no `needl` binary next to it.

mod alerts;
mod ask;
mod audit;
mod client;
mod collab;
mod feeds;
mod filings;
mod ingestion;
mod nodes;
mod reports;
mod retrieval;
mod store;
mod story_clusters;
mod topics;

use std::path::{Path, PathBuf};
use std::str::FromStr;

use clap::Parser;
use commands::Db;
use sqlx::postgres::PgConnectOptions;

/// Measure Needl: command throughput, projection lag, live delivery, ingestion (feed items, PDF
/// pages next to pdftotext, import memory), search, collaboration and AskNeedl; prints figures.
#[derive(Debug, Clone, Parser)]
#[command(name = "needl-bench", version)]
pub struct BenchArgs {
    /// Where the scratch stores, indexes and files of the runs are made (each run in a folder of
    /// its own, removed afterwards).
    #[arg(long, env = "NEEDL_DATA_DIR", default_value = "./data")]
    pub data_dir: PathBuf,
    /// Small counts, for a quick look (CI runs this).
    #[arg(long)]
    pub quick: bool,
    /// Which backends to measure: sqlite, postgres or both.
    #[arg(long, default_value = "both")]
    pub backend: String,
    /// Postgres to measure against (a fresh schema is made in it).
    #[arg(long, env = "NEEDL_TEST_DATABASE_URL", default_value = "postgres://postgres@127.0.0.1:5432/test")]
    pub postgres_url: String,
    /// `ask` with the embedding model (`scripts/setup` fetches it): the QA set's documents are
    /// embedded before its questions are asked, and ranked by the hybrid ranking; the latency
    /// part, which would embed 100k passages first, is left out.
    #[arg(long)]
    pub embeddings: bool,
    /// Which figures to print: `store` (commands, projection lag, live delivery), `ingest` (feed
    /// items, PDF pages, import memory), `filings` (companies followed on a local EDGAR: filings
    /// ingested per minute under the request cap, filing to searchable), `search` (retrieval
    /// quality and query latency), `collab`
    /// (comment delivery to channel members over many sockets, tagging and commenting calls per
    /// second), `ask` (cited-answer quality on the QA set and answer latency through the HTTP API),
    /// `stories` (story-cluster signatures, insert latency, pair precision and recall), `feeds`
    /// (rule matching of new items against 1,000 feeds, re-evaluation over history), `topics`
    /// (AI topics with the offline embedding model: accuracy, embedding throughput, a rule over
    /// 1M stored embeddings), `reports` (research reports: lifecycle, time per type, citation
    /// integrity), `report-figures` (key figures on TAT-QA against the gold tables), `audit` (the
    /// event hash chain's cost on commands, `audit verify` over a long history, and that history
    /// exported as Parquet next to NDJSON), `nodes` (two `needl` processes on one Postgres next to
    /// one: read throughput, commit-to-socket delivery on the same and the other node, memory per
    /// idle socket), `rebuild` (the last of `store`'s figures alone: every read model rebuilt
    /// from a long history) or `all`.
    #[arg(long, default_value = "all", value_parser = ["all", "store", "audit", "ingest", "filings", "search", "collab", "ask", "stories", "feeds", "topics", "reports", "report-figures", "nodes", "rebuild"])]
    pub only: String,
    /// The shared real-world data the ingest figures read (`feeds/`, `docs/`); synthetic files
    /// stand in when it is absent.
    #[arg(long, env = "NEEDL_BENCH_DATA", default_value = concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/data"))]
    pub data: PathBuf,
}

fn main() -> anyhow::Result<()> {
    // As `needl` does: what this program creates (scratch stores, blobs, indexes) is readable by
    // its own user only.
    rustix::process::umask(rustix::fs::Mode::from_bits_truncate(0o077));
    // The extraction worker that uploads and imports start (this program, see above) runs
    // before any runtime or thread exists, so the memory cap it sets on itself counts only the
    // extraction.
    let mut args = std::env::args_os();
    if args.nth(1).is_some_and(|a| a == "extract-worker") {
        // Not a test switch: the worker's own exit code is how the parent reads its outcome.
        std::process::exit(extract::worker_main(args));
    }
    let args = BenchArgs::parse();
    api::cli::init_tracing("text");
    tokio::runtime::Runtime::new()?.block_on(run(args))
}

async fn run(args: BenchArgs) -> anyhow::Result<()> {
    println!(
        "needl-bench ({} build, {} scale)",
        if cfg!(debug_assertions) { "debug" } else { "release" },
        if args.quick { "quick" } else { "full" }
    );
    let data_dir = &args.data_dir;
    if args.only == "all" || args.only == "ingest" {
        ingestion::run(data_dir, &args).await?;
    }
    if args.only == "all" || args.only == "filings" {
        filings::run(data_dir, args.quick).await?;
    }
    if args.only == "all" || args.only == "search" {
        retrieval::run(data_dir, &args).await?;
    }
    if args.only == "all" || args.only == "ask" {
        ask::run(data_dir, &args).await?;
    }
    if args.only == "all" || args.only == "stories" {
        let args = args.clone();
        tokio::task::spawn_blocking(move || story_clusters::run(&args)).await??;
    }
    if args.only == "all" || args.only == "feeds" {
        feeds::run(data_dir, &args).await?;
    }
    if args.only == "all" || args.only == "topics" {
        let args = args.clone();
        tokio::task::spawn_blocking(move || topics::run(&args)).await??;
    }
    if args.only == "all" || args.only == "report-figures" {
        let args = args.clone();
        tokio::task::spawn_blocking(move || reports::figures(&args)).await??;
    }
    if args.only == "all" || args.only == "reports" {
        reports::run(data_dir, &args).await?;
    }
    if args.only == "all" || args.only == "nodes" {
        // Needs Postgres and the needl binary: without them, say so and go on to the rest.
        if let Err(error) = nodes::run(data_dir, &args).await {
            println!("two nodes: not measured ({error:#})");
        }
    }
    let store = matches!(args.only.as_str(), "all" | "store");
    let collab = matches!(args.only.as_str(), "all" | "collab");
    let audit = matches!(args.only.as_str(), "all" | "audit");
    // The rebuild figure alone (it is also the last of `store`'s).
    let rebuild = args.only == "rebuild";
    if !store && !collab && !audit && !rebuild {
        return Ok(());
    }
    let scale = store::Scale::new(args.quick);
    let figures = |backend: &'static str, db: Db, dir: PathBuf| {
        let scale = &scale;
        async move {
            if store {
                store::measure(backend, db.clone(), &dir, scale).await?;
            }
            if rebuild {
                println!("\n[{backend}]");
                store::rebuild(&db, scale).await?;
            }
            if collab {
                collab::measure(backend, db.clone(), &dir, args.quick).await?;
            }
            // Last: it switches the chaining trigger off and on and empties the event store.
            if audit {
                audit::measure(backend, db, args.quick).await?;
            }
            anyhow::Ok(())
        }
    };
    if args.backend == "sqlite" || args.backend == "both" {
        let dir = data_dir.join(format!("bench-{}", uuid::Uuid::new_v4().simple()));
        let db = Db::open_sqlite(&dir).await?;
        figures("sqlite", db, dir.clone()).await?;
        let _ = std::fs::remove_dir_all(&dir);
    }
    if args.backend == "postgres" || args.backend == "both" {
        let schema = format!("bench_{}", uuid::Uuid::new_v4().simple());
        let admin = sqlx::PgPool::connect(&args.postgres_url).await?;
        sqlx::query(&format!("CREATE SCHEMA {schema}")).execute(&admin).await?;
        let options = PgConnectOptions::from_str(&args.postgres_url)?.options([("search_path", schema.as_str())]);
        let db = Db::open_postgres_with(options).await?;
        let dir = tempdir_in(data_dir)?;
        let result = figures("postgres", db.clone(), dir.clone()).await;
        db.close().await;
        sqlx::query(&format!("DROP SCHEMA {schema} CASCADE")).execute(&admin).await?;
        let _ = std::fs::remove_dir_all(&dir);
        result?;
    }
    Ok(())
}

fn tempdir_in(base: &Path) -> anyhow::Result<PathBuf> {
    let dir = base.join(format!("bench-{}", uuid::Uuid::new_v4().simple()));
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}
