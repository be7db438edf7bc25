//! The operator's command line: serve, rebuild read models, set flags and roles, export events
//! (written by [`crate::export`]).

use std::io::Write;

use anyhow::Context;
use commands::feed::{self, Cursor, FeedSignal};
use commands::{CommandBus, Db};
use domain::user::UserCommand;
use domain::EventMetadata;
use projections::{queries, runner};

use crate::config::{
    AuditCommand, Cli, Command, EventsCommand, ExportFormat, FlagsCommand, PointArgs, RolesCommand, StorageArgs,
};
use service::storage::Storage;

pub async fn run(cli: Cli) -> anyhow::Result<()> {
    let log_format = match &cli.command {
        Command::Serve(args) => args.log_format.clone(),
        _ => "text".to_string(),
    };
    init_tracing(&log_format);
    match cli.command {
        Command::Serve(args) => crate::app::serve(cli.storage, *args).await,
        Command::Rebuild { name, all, storage } => rebuild(&cli.storage, name, all, &storage).await,
        Command::Flags(FlagsCommand::Set { user, flag, value }) => {
            let (db, bus) = open(&cli.storage).await?;
            let user_id = resolve_user(&db, &user).await?;
            bus.execute(
                &bus.users,
                &user_id,
                UserCommand::SetFeatureFlag { flag: flag.clone(), value: value.clone() },
                &operator(),
            )
            .await
            .map_err(|e| anyhow::anyhow!("{e}"))?;
            catch_up_all(&db).await?;
            println!("{flag} is now {value} for {user}");
            Ok(())
        }
        Command::Flags(FlagsCommand::List { user }) => {
            let (db, _) = open(&cli.storage).await?;
            let user_id = resolve_user(&db, &user).await?;
            for (flag, value) in queries::flag_values(&db, &user_id).await? {
                println!("{flag}\t{value}");
            }
            Ok(())
        }
        Command::Roles(command) => {
            let (db, bus) = open(&cli.storage).await?;
            let (user, role, grant) = match command {
                RolesCommand::Grant { user, role } => (user, role, true),
                RolesCommand::Revoke { user, role } => (user, role, false),
            };
            let user_id = resolve_user(&db, &user).await?;
            let parsed = service::admin::parse_role(&role).map_err(|e| anyhow::anyhow!(e.message))?;
            let command = if grant { UserCommand::GrantRole(parsed) } else { UserCommand::RevokeRole(parsed) };
            bus.execute(&bus.users, &user_id, command, &operator()).await.map_err(|e| anyhow::anyhow!("{e}"))?;
            catch_up_all(&db).await?;
            println!("{} {role} for {user}", if grant { "granted" } else { "revoked" });
            Ok(())
        }
        Command::Events(EventsCommand::Export { after, format, out }) => {
            let db = Db::open(cli.storage.database_url.as_deref(), &cli.storage.data_dir).await?;
            let after = match after {
                Some(s) => s.parse::<Cursor>().map_err(|e| anyhow::anyhow!("--after: {e}"))?,
                None => Cursor::START,
            };
            match (format, out) {
                (ExportFormat::Parquet, Some(dir)) => {
                    let summary = crate::export::parquet(&db, after, &dir).await?;
                    match summary.last {
                        Some(last) => eprintln!(
                            "exported {} events to {} file(s) under {} ({} bytes); resume with --after {last}",
                            summary.events,
                            summary.files.len(),
                            dir.display(),
                            summary.bytes()
                        ),
                        None => eprintln!("no events after {after}; nothing written"),
                    }
                    Ok(())
                }
                (ExportFormat::Parquet, None) => anyhow::bail!("--format parquet needs --out DIR"),
                (ExportFormat::Ndjson, _) => export(&db, after, &mut std::io::stdout().lock()).await,
            }
        }
        Command::Audit(command) => audit(&cli.storage, command).await,
        Command::Import { user, paths, storage } => {
            let (db, bus) = open(&cli.storage).await?;
            let user_id = resolve_user(&db, &user).await?;
            let files = service::import::collect(&paths)?;
            // Import hands out no upload links, so the storage needs no signing secret.
            let storage = Storage::open(&storage, &cli.storage.data_dir.join("objects"), &[])?;
            let report = service::import::import(&bus, &storage, &cli.storage.data_dir, &user_id, &files).await?;
            catch_up_all(&db).await?;
            eprintln!("imported {}, unchanged {}, failed {}", report.imported, report.unchanged, report.failed.len());
            for (path, reason) in &report.failed {
                eprintln!("  {}: {reason}", path.display());
            }
            if !report.failed.is_empty() {
                // Not a test switch: exit code 2 tells scripts that some files failed (the others
                // were imported), distinct from 1 for an error that stopped the whole import.
                std::process::exit(2);
            }
            Ok(())
        }
        Command::EdgarCompanies { contact, url, fetch_allow } => {
            let config = ingest::edgar::EdgarConfig {
                base: url::Url::parse(url.trim()).with_context(|| format!("{url:?} is not a valid address"))?,
                allow: crate::config::parse_networks(&fetch_allow, "NEEDL_FETCH_ALLOW")?,
                ..ingest::edgar::EdgarConfig::new(contact)
            };
            let filings = service::filings::Filings::new(&cli.storage.data_dir, Some(config));
            let count = filings.refresh_companies().await.map_err(|e| anyhow::anyhow!("{}", e.message))?;
            eprintln!(
                "{count} companies written to {}",
                service::filings::companies_path(&cli.storage.data_dir).display()
            );
            Ok(())
        }
    }
}

/// Walks the hash chain (from the event at `from`, else from the start) against the checkpoints
/// in the file, printing what it found; exits with code 3 when the chain breaks.
async fn audit_verify(db: &Db, from: Option<&str>, checkpoints: Option<&std::path::Path>) -> anyhow::Result<()> {
    use commands::chain::{self, Checkpoint};
    let mut anchors = std::collections::BTreeMap::new();
    if let Some(path) = checkpoints {
        let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        for (n, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
            let checkpoint: Checkpoint = serde_json::from_str(line)
                .with_context(|| format!("{} line {}: not a checkpoint", path.display(), n + 1))?;
            anyhow::ensure!(
                checkpoint.signature_holds(),
                "{} line {}: the checkpoint at position {} does not carry a valid signature",
                path.display(),
                n + 1,
                checkpoint.position
            );
            anchors.insert(checkpoint.position, checkpoint.hash);
        }
    }
    let from = match from {
        Some(text) => {
            let cursor: Cursor = text.parse().map_err(|e| anyhow::anyhow!("--from: {e}"))?;
            let position = chain::position_of(db, cursor)
                .await?
                .with_context(|| format!("--from: no event at cursor {cursor}"))?;
            Some(position + 1)
        }
        None => None,
    };
    // Postgres chains events just after their commit: chain what a stopped server left pending.
    chain::advance(db).await?;
    let started = std::time::Instant::now();
    let verification = chain::verify(db, from, &anchors).await?;
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "checked {} events in {seconds:.2} s ({:.0} events/s)",
        verification.events_checked,
        verification.events_checked as f64 / seconds.max(1e-9)
    );
    if !anchors.is_empty() {
        println!(
            "against {} checkpoint(s) from {}",
            anchors.len(),
            checkpoints.unwrap_or(std::path::Path::new("")).display()
        );
    }
    match (&verification.first_break, &verification.head) {
        (None, None) => println!("the history is empty"),
        (None, Some(head)) => println!("intact through position {} (head hash {})", head.position, head.hash),
        (Some(broken), _) => {
            println!("BROKEN at position {}: {}", broken.position, broken.reason);
            // Not a test switch: exit code 3 tells scripts the chain does not hold, distinct from
            // 1 for an error that stopped the check.
            std::process::exit(3);
        }
    }
    Ok(())
}

/// Logs to standard error, as JSON lines or as text (`needl-bench` logs the servers it runs this way
/// too).
pub fn init_tracing(format: &str) {
    use tracing_subscriber::EnvFilter;
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn,tower_http=info"));
    let builder = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr);
    let _ = if format == "json" { builder.json().try_init() } else { builder.try_init() };
}

fn operator() -> EventMetadata {
    EventMetadata::system("cli", uuid::Uuid::new_v4().to_string())
}

async fn open(storage: &StorageArgs) -> anyhow::Result<(Db, CommandBus)> {
    let db = Db::open(storage.database_url.as_deref(), &storage.data_dir).await?;
    let bus = CommandBus::new(db.clone(), FeedSignal::default());
    Ok((db, bus))
}

/// Finds a user by email or id.
async fn resolve_user(db: &Db, user: &str) -> anyhow::Result<String> {
    let row = if user.contains('@') {
        queries::user_by_email(db, &domain::email::normalise(user)).await?
    } else {
        queries::user_by_id(db, user).await?
    };
    row.map(|r| r.user_id).with_context(|| format!("no user {user}"))
}

/// Brings every read model up to the feed's head (a running server would do the same).
async fn catch_up_all(db: &Db) -> anyhow::Result<()> {
    let all = projections::all();
    let together: Vec<&dyn runner::Projection> = all.iter().map(|p| p.as_ref()).collect();
    runner::catch_up_together(db, &together, runner::DEFAULT_BATCH).await?;
    Ok(())
}

async fn rebuild(storage: &StorageArgs, name: Option<String>, all: bool, objects: &str) -> anyhow::Result<()> {
    let db = Db::open(storage.database_url.as_deref(), &storage.data_dir).await?;
    // Rebuilding hands out no upload links, so the storage needs no signing secret.
    let blobs = Storage::open(objects, &storage.data_dir.join("objects"), &[])?.blobs(storage.data_dir.join("blobs"));
    let available = projections::all();
    let chosen: Vec<_> = match (name, all) {
        (_, true) => available,
        (Some(name), false) if name == SEARCH => {
            return rebuild_search(&db, &storage.data_dir, blobs).await;
        }
        (Some(name), false) => {
            let names: Vec<&str> = available.iter().map(|p| p.name()).collect();
            let found: Vec<_> = available.iter().filter(|p| p.name() == name).cloned().collect();
            anyhow::ensure!(!found.is_empty(), "no read model named {name}; known: {}, {SEARCH}", names.join(", "));
            found
        }
        (None, false) => anyhow::bail!("name a read model or pass --all"),
    };
    let started = std::time::Instant::now();
    // Every chosen read model from one pass over the feed.
    let together: Vec<&dyn runner::Projection> = chosen.iter().map(|p| p.as_ref()).collect();
    let at = runner::rebuild(&db, &together).await?;
    let elapsed = started.elapsed();
    for projection in &chosen {
        println!("rebuilt {} up to {at}", projection.name());
    }
    println!("in {elapsed:.2?} together");
    if all {
        match rebuild_search(&db, &storage.data_dir, blobs).await {
            // The SQL read models rebuild under a running server; the index cannot (the server
            // holds its writer). Say so rather than fail the rest.
            Err(error) if format!("{error:#}").contains("Lock") => {
                println!("skipped {SEARCH}: a server is using it; stop the server and run `needl rebuild {SEARCH}`")
            }
            other => other?,
        }
    }
    Ok(())
}

/// The search index's name for `needl rebuild`.
const SEARCH: &str = "search";

/// Empties the search index and replays the feed into it. The server must be stopped: it holds
/// the index's writer lock.
async fn rebuild_search(db: &Db, data_dir: &std::path::Path, blobs: service::blobs::BlobStore) -> anyhow::Result<()> {
    let started = std::time::Instant::now();
    let catalogue = match std::env::var_os("NEEDL_CATALOGUE") {
        Some(path) => ingest::Catalogue::load(std::path::Path::new(&path))?,
        None => ingest::Catalogue::seed(),
    };
    let index = std::sync::Arc::new(
        search::SearchIndex::open(&service::indexing::index_dir(data_dir), 2)
            .context("opening the search index (is a server still running on this data directory?)")?,
    );
    index.reset()?;
    let library = service::indexing::BlobLibrary::new(blobs, std::sync::Arc::new(catalogue));
    let mut follower = search::Follower::new(index.clone(), db.clone(), std::sync::Arc::new(library));
    let at = follower.catch_up().await?;
    println!(
        "rebuilt {SEARCH} up to {at} in {:.2?}: {} documents, {} passages",
        started.elapsed(),
        index.documents(),
        index.passages()
    );
    Ok(())
}

/// Writes the feed after `after` as NDJSON, one event a line, secrets redacted.
pub async fn export(db: &Db, after: Cursor, out: &mut impl Write) -> anyhow::Result<()> {
    crate::export::ndjson(db, after, out).await.map(|_| ())
}

/// Prints what an audit subcommand asks for as JSON, read straight from the store as the
/// operator (no viewer: whoever runs the binary on the data directory already holds it all).
async fn audit(storage: &StorageArgs, command: AuditCommand) -> anyhow::Result<()> {
    use service::audit::{as_of, history};
    let db = Db::open(storage.database_url.as_deref(), &storage.data_dir).await?;
    let now = chrono::Utc::now();
    // With neither --at nor --time, the feed's head.
    let point = |p: PointArgs, head: Cursor| match (p.at, p.time) {
        (None, None) => history::PointInput { at: Some(head.to_string()), time: None },
        (at, time) => history::PointInput { at, time },
    };
    let head = feed::head(&db).await?;
    let json = match command {
        AuditCommand::Verify { from, checkpoints } => {
            return audit_verify(&db, from.as_deref(), checkpoints.as_deref()).await;
        }
        AuditCommand::Checkpoint { audit_key } => {
            let key = commands::chain::AuditKey::load(&storage.data_dir, audit_key.as_deref())?;
            return match commands::chain::checkpoint(&db, &key, chrono::Utc::now()).await? {
                Some(checkpoint) => {
                    println!("{}", serde_json::to_string(&checkpoint)?);
                    Ok(())
                }
                None => anyhow::bail!("there are no events to take a checkpoint of yet"),
            };
        }
        AuditCommand::State { aggregate_type, aggregate_id, point: p } => {
            serde_json::to_value(history::state_in(&db, now, &aggregate_type, &aggregate_id, &point(p, head)).await?)?
        }
        AuditCommand::AsOf { model, id, point: p } => match model.as_str() {
            "channel" => serde_json::to_value(as_of::channel_in(&db, now, &id, &point(p, head)).await?)?,
            "document-tags" => serde_json::to_value(as_of::document_tags_in(&db, now, &id, &point(p, head)).await?)?,
            _ => serde_json::to_value(as_of::user_sources_in(&db, now, &id, &point(p, head)).await?)?,
        },
    };
    println!("{}", serde_json::to_string_pretty(&json)?);
    Ok(())
}
