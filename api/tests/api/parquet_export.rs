//! `needl events export --format parquet`: a small history written out on each backend and read
//! back by pyarrow (what analysts open the files with) and by the parquet crate's own reader.

use std::path::{Path, PathBuf};

use commands::feed::Cursor;
use commands::{CommandBus, Db, FeedSignal};
use domain::user::UserCommand;
use domain::EventMetadata;
use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::record::RowAccessor;
use testkit::db::Backend;

/// The columns every part has, with the Arrow types pyarrow reads them as.
const COLUMNS: &[(&str, &str)] = &[
    ("cursor", "string"),
    ("tx", "int64"),
    ("pos", "int64"),
    ("aggregate_type", "string"),
    ("aggregate_id", "string"),
    ("sequence", "int64"),
    ("event_type", "string"),
    ("event_version", "string"),
    ("recorded_at", "timestamp[ms, tz=UTC]"),
    ("user_id", "string"),
    ("request_id", "string"),
    ("app_type", "string"),
    ("request_origin", "string"),
    ("payload", "string"),
];

/// Signs up `names`: one event each.
async fn record_history(db: &Db, names: &[&str]) {
    let bus = CommandBus::new(db.clone(), FeedSignal::default());
    for name in names {
        let command = UserCommand::SignUp {
            email: format!("{name}@example.com"),
            username: name.to_string(),
            password_hash: "$argon2id$secret".into(),
            is_admin: false,
        };
        bus.execute(&bus.users, name, command, &EventMetadata::system("test", format!("r-{name}"))).await.unwrap();
    }
}

/// Every Parquet file under `dir`, sorted.
fn parts(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for day in std::fs::read_dir(dir).unwrap() {
        let day = day.unwrap().path();
        assert!(day.file_name().unwrap().to_string_lossy().starts_with("day="), "{}", day.display());
        for file in std::fs::read_dir(&day).unwrap() {
            files.push(file.unwrap().path());
        }
    }
    files.sort();
    files
}

/// Whether pyarrow can be imported; outside CI its absence skips the read-back with a message.
fn pyarrow_available() -> bool {
    let available = std::process::Command::new("python3")
        .args(["-c", "import pyarrow.parquet"])
        .output()
        .is_ok_and(|out| out.status.success());
    if !available {
        assert_ne!(
            std::env::var("CI").as_deref(),
            Ok("true"),
            "CI must read the Parquet export back: python3 -m pip install pyarrow"
        );
        eprintln!("skipped: pyarrow is not installed (python3 -m pip install pyarrow)");
    }
    available
}

/// What pyarrow reads from the export under `dir`, as JSON: the rows and schema of the whole
/// dataset (its `day` partitions included) and the first row.
fn read_with_pyarrow(dir: &Path) -> serde_json::Value {
    let script = r#"
import json, sys
import pyarrow.parquet as pq
table = pq.read_table(sys.argv[1]).sort_by("pos")
print(json.dumps({
    "rows": table.num_rows,
    "columns": [[f.name, str(f.type)] for f in table.schema],
    "first": {name: str(value) for name, value in table.slice(0, 1).to_pylist()[0].items()},
}))
"#;
    let out = std::process::Command::new("python3").args(["-c", script]).arg(dir).output().unwrap();
    assert!(out.status.success(), "pyarrow could not read the export:\n{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

async fn exports_a_small_history_that_pyarrow_reads_back(backend: Backend) {
    let dir = tempfile::tempdir().unwrap();
    let db = testkit::db::open(backend, dir.path()).await;
    record_history(&db, &["ann", "bob", "cy"]).await;
    let out = dir.path().join("export");

    let summary = api::export::parquet(&db, Cursor::START, &out).await.unwrap();
    assert_eq!(summary.events, 3);
    assert_eq!(summary.files, parts(&out));
    assert!(summary.bytes() > 0);

    // The crate's own reader: every row, in feed order, payloads redacted.
    let mut rows = Vec::new();
    for file in &summary.files {
        let reader = SerializedFileReader::new(std::fs::File::open(file).unwrap()).unwrap();
        for row in reader.get_row_iter(None).unwrap() {
            rows.push(row.unwrap());
        }
    }
    assert_eq!(rows.len(), 3);
    let payload: serde_json::Value = serde_json::from_str(rows[0].get_string(13).unwrap()).unwrap();
    assert_eq!(payload["UserSignedUp"]["password_hash"], "[redacted]");
    assert_eq!(payload["UserSignedUp"]["username"], "ann");

    // Resuming after the last event writes nothing and overwrites nothing.
    let again = api::export::parquet(&db, summary.last.unwrap(), &out).await.unwrap();
    assert_eq!(again.events, 0);
    assert_eq!(parts(&out), summary.files);

    if !pyarrow_available() {
        return;
    }
    let read = read_with_pyarrow(&out);
    assert_eq!(read["rows"], 3);
    let columns: Vec<(String, String)> = serde_json::from_value(read["columns"].clone()).unwrap();
    let (day, fields) = columns.split_last().unwrap();
    assert_eq!(day.0, "day", "the day partition is read as a column after the file's own");
    let expected: Vec<(String, String)> = COLUMNS.iter().map(|(n, t)| (n.to_string(), t.to_string())).collect();
    assert_eq!(fields, expected);
    let first = &read["first"];
    assert_eq!(first["event_type"], "UserSignedUp");
    assert_eq!(first["aggregate_type"], "user");
    assert_eq!(first["aggregate_id"], "ann");
    assert_eq!(first["user_id"], "system");
    assert_eq!(first["request_id"], "r-ann");
    let payload: serde_json::Value = serde_json::from_str(first["payload"].as_str().unwrap()).unwrap();
    assert_eq!(payload["UserSignedUp"]["password_hash"], "[redacted]");
    assert_eq!(payload["UserSignedUp"]["email"], "ann@example.com");
    let cursor: Cursor = first["cursor"].as_str().unwrap().parse().unwrap();
    assert_eq!(first["pos"], cursor.pos.to_string());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_parquet_export_reads_back_with_every_column_on_sqlite() {
    exports_a_small_history_that_pyarrow_reads_back(Backend::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_parquet_export_reads_back_with_every_column_on_postgres() {
    exports_a_small_history_that_pyarrow_reads_back(Backend::Postgres).await;
}

/// The operator's command: `--format parquet --out DIR` writes the files and says where to
/// resume; without `--out` it is refused; NDJSON to standard output stays the default.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_export_command_writes_parquet_files_and_says_where_to_resume() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let needl = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_needl"))
            .arg("--data-dir")
            .arg(&data)
            .args(args)
            .env_remove("DATABASE_URL")
            .env("RUST_LOG", "error")
            .output()
            .unwrap()
    };
    {
        let db = Db::open_sqlite(&data).await.unwrap();
        record_history(&db, &["ann", "bob"]).await;
    }
    let out = dir.path().join("export");
    let written = needl(&["events", "export", "--format", "parquet", "--out", out.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&written.stderr);
    assert!(written.status.success(), "{stderr}");
    assert!(stderr.contains("exported 2 events"), "{stderr}");
    assert!(stderr.contains("resume with --after 0-2"), "{stderr}");
    assert!(written.stdout.is_empty());
    assert_eq!(parts(&out).len(), 1);

    let refused = needl(&["events", "export", "--format", "parquet"]);
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("--out"));

    let ndjson = needl(&["events", "export", "--after", "0-1"]);
    assert!(ndjson.status.success());
    let lines: Vec<serde_json::Value> =
        String::from_utf8_lossy(&ndjson.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0]["aggregate_id"], "bob");
}
