//! The data directory is readable by the server's own user only: the token secret, the database
//! and its WAL files, uploaded originals, extracted text and the search index.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use api::app::Server;
use commands::Db;
use tokio::io::AsyncBufReadExt;

use crate::support::*;

fn mode(path: &Path) -> u32 {
    std::fs::symlink_metadata(path).unwrap_or_else(|e| panic!("{}: {e}", path.display())).permissions().mode() & 0o7777
}

/// Every entry under `root` with its mode, directories included.
fn walk(root: &Path) -> Vec<(PathBuf, bool, u32)> {
    let mut found = Vec::new();
    let mut pending = vec![root.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let is_dir = std::fs::symlink_metadata(&path).unwrap().is_dir();
            if is_dir {
                pending.push(path.clone());
            }
            let m = mode(&path);
            found.push((path, is_dir, m));
        }
    }
    found
}

/// Entries that the group or others may use, or directories not exactly `0700`.
fn too_open(root: &Path) -> Vec<String> {
    let mut open: Vec<String> = walk(root)
        .into_iter()
        .filter(|(_, is_dir, m)| if *is_dir { *m != 0o700 } else { m & 0o077 != 0 })
        .map(|(path, _, m)| format!("{} {m:04o}", path.display()))
        .collect();
    if mode(root) != 0o700 {
        open.push(format!("{} {:04o}", root.display(), mode(root)));
    }
    open
}

/// The test configuration, less its token secret: the server keeps its own in the data directory.
fn kept_secret() -> ServeArgs {
    ServeArgs { token_secret: None, ..ServeArgs::for_tests() }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_data_directory_and_its_secrets_are_private() {
    let root = tempfile::tempdir().unwrap();
    let data = root.path().join("data");
    let db = Db::open_sqlite(&data).await.unwrap();
    let server = Server::start_with(db, &data, kept_secret()).await.unwrap();
    let app = TestApp::new(server, root);
    app.sign_up("private").await;

    assert_eq!(mode(&data), 0o700);
    for dir in ["objects", "search"] {
        assert_eq!(mode(&data.join(dir)), 0o700, "{dir}");
    }
    for file in ["token.secret", "needl.db", "needl.db-wal", "needl.db-shm"] {
        assert_eq!(mode(&data.join(file)), 0o600, "{file}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_world_readable_data_directory_of_an_older_version_is_tightened_on_start() {
    let root = tempfile::tempdir().unwrap();
    let data = root.path().join("data");
    std::fs::create_dir_all(data.join("objects")).unwrap();
    std::fs::create_dir_all(data.join("search")).unwrap();
    let secret = "s".repeat(64);
    std::fs::write(data.join("token.secret"), &secret).unwrap();
    for path in [data.clone(), data.join("objects"), data.join("search")] {
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    std::fs::set_permissions(data.join("token.secret"), std::fs::Permissions::from_mode(0o644)).unwrap();
    // An earlier run's database, world-readable as that version made it.
    Db::open_sqlite(&data).await.unwrap();
    std::fs::set_permissions(data.join("needl.db"), std::fs::Permissions::from_mode(0o644)).unwrap();

    let db = Db::open_sqlite(&data).await.unwrap();
    let server = Server::start_with(db, &data, kept_secret()).await.unwrap();
    let app = TestApp::new(server, root);
    app.sign_up("upgraded").await;

    assert_eq!(mode(&data), 0o700);
    assert_eq!(mode(&data.join("objects")), 0o700);
    assert_eq!(mode(&data.join("search")), 0o700);
    assert_eq!(mode(&data.join("token.secret")), 0o600);
    assert_eq!(std::fs::read_to_string(data.join("token.secret")).unwrap(), secret, "the secret is kept");
    for file in ["needl.db", "needl.db-wal", "needl.db-shm"] {
        assert_eq!(mode(&data.join(file)), 0o600, "{file}");
    }
}

/// The real binary, as an operator runs it: after a sign-up and an uploaded file has been
/// extracted and indexed, nothing in the data directory is open to the group or others (files
/// written by libraries that take no mode included).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nothing_the_served_binary_writes_is_readable_by_others() {
    let root = tempfile::tempdir().unwrap();
    let data = root.path().join("data");
    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_needl"))
        .arg("--data-dir")
        .arg(&data)
        .args(["serve", "--port", "0", "--log-format", "json", "--web-dir"])
        .arg(root.path().join("no-web-app"))
        .env_remove("DATABASE_URL")
        .env_remove("NEEDL_TOKEN_SECRET")
        .env_remove("NEEDL_STORAGE")
        .env("RUST_LOG", "info")
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut lines = tokio::io::BufReader::new(child.stderr.take().unwrap()).lines();
    let addr = tokio::time::timeout(Duration::from_secs(60), async {
        while let Some(line) = lines.next_line().await.unwrap() {
            let Ok(entry) = serde_json::from_str::<Value>(&line) else { continue };
            if entry["fields"]["message"] == "needl is listening" {
                return entry["fields"]["addr"].as_str().unwrap().to_string();
            }
        }
        panic!("needl stopped before listening");
    })
    .await
    .expect("needl listens within a minute");
    // Keep reading its log so the pipe never fills.
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });

    let api = Api::new(addr.parse().expect("the logged address"));
    let keeper = api.sign_up("keeper").await;
    let text = b"# Private\n\nThe quarterly plan names two new offices.";
    let init = api.upload(&keeper.token, &[("f-plan", "plan.md", text)]).await;
    let (status, _) = api.post("/api/upload/complete", &keeper.token, complete_body(&init)).await;
    assert_eq!(status, StatusCode::OK);
    let settled = api.settled_uploads(&keeper.token, &["f-plan"]).await;
    assert_eq!(settled[0]["status"], "COMPLETED", "{settled:?}");

    let files: Vec<PathBuf> = walk(&data).into_iter().filter(|(_, is_dir, _)| !is_dir).map(|(p, _, _)| p).collect();
    for written in ["token.secret", "needl.db", "needl.db-wal", "objects", "blobs", "search"] {
        assert!(files.iter().any(|f| f.strip_prefix(&data).unwrap().starts_with(written)), "{written} in {files:?}");
    }
    let open = too_open(&data);
    child.start_kill().unwrap();
    let _ = child.wait().await;
    assert!(open.is_empty(), "open to others: {open:#?}");
}
