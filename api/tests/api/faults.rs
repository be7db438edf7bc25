//! Faults a node must ride out: its Postgres restarting under it (a Postgres of the test's own,
//! never the machine's shared one), and its data directory's disk filling up (a small tmpfs of
//! the test's own).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use futures::StreamExt;
use testkit::postgres::{is_root, OwnPostgres};
use tokio_tungstenite::tungstenite::Message;

use crate::support::*;

async fn readiness(client: &reqwest::Client, addr: std::net::SocketAddr) -> (StatusCode, Value) {
    let res = client.get(format!("http://{addr}/readyz")).send().await.unwrap();
    (res.status(), res.json().await.unwrap_or(Value::Null))
}

/// Postgres restarts under a running node: while it is down the node says it is not ready and a
/// write is refused with an error (nothing half-written); once it is back the node is ready
/// again without a restart of its own, writes land, the read models follow them, and a socket
/// (the one it kept, or a new one resuming after its last cursor) hears the change.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_rides_out_a_restart_of_its_postgres() {
    let Some(pg) = OwnPostgres::start() else {
        eprintln!("skipped: Postgres's server programs (initdb, pg_ctl) are not installed");
        return;
    };
    let node = spawn_binary(&[], &[("DATABASE_URL", pg.url())]).await;
    let api = Api::new(node.addr);
    let client = reqwest::Client::new();
    let s = api.sign_up("faults").await;
    let mut socket = api.connect_live(&s.token, None).await;
    let (status, _) = api.patch("/api/user", &s.token, json!({"profession": "Before"})).await;
    assert_eq!(status, StatusCode::OK);
    let before = next_of_type(&mut socket, "ProfileUpdated").await;
    let cursor = before["cursor"].as_str().unwrap().to_string();

    pg.stop();
    let (status, body) = readiness(&client, node.addr).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
    assert_eq!(body["database"]["ok"], false, "{body}");
    let refused = Instant::now();
    let (status, body) = api.patch("/api/user", &s.token, json!({"profession": "Lost"})).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "a write without a database is refused: {body}");
    assert_eq!(body["code"], "storage_unavailable", "with a sentence a person can act on: {body}");
    eprintln!("Postgres down: a write was refused with {status} after {:?}", refused.elapsed());

    pg.start_again();
    let back = Instant::now();
    loop {
        let (status, body) = readiness(&client, node.addr).await;
        if status == StatusCode::OK {
            break;
        }
        assert!(back.elapsed() < Duration::from_secs(30), "the node is ready again: {body}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let ready_after = back.elapsed();
    let (status, body) = api.patch("/api/user", &s.token, json!({"profession": "After"})).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (_, user) = api.get("/api/user", &s.token).await;
    assert_eq!(user["profession"], "After", "{user}");

    // The socket kept through the outage, or a new one resuming after the last change heard,
    // hears the change made after it.
    let kept = tokio::time::timeout(Duration::from_secs(15), next_profile(&mut socket)).await.ok().flatten();
    eprintln!(
        "Postgres back: the node was ready {ready_after:?} after it started; the socket was kept: {}",
        kept.is_some()
    );
    let heard = match kept {
        Some(change) => change,
        None => {
            let mut again = api.connect_live(&s.token, Some(&cursor)).await;
            next_of_type(&mut again, "ProfileUpdated").await
        }
    };
    assert_ne!(heard["cursor"].as_str().unwrap(), cursor, "a change after the restart: {heard}");
}

/// The next `ProfileUpdated` on `socket`, or `None` when it closes first.
async fn next_profile<S>(socket: &mut S) -> Option<Value>
where
    S: futures::Stream<Item = Result<Message, tokio_tungstenite::tungstenite::Error>> + Unpin,
{
    while let Some(Ok(message)) = socket.next().await {
        if let Message::Text(text) = message {
            let value: Value = serde_json::from_str(&text).ok()?;
            if value["type"] == "ProfileUpdated" {
                return Some(value);
            }
        }
    }
    None
}

/// A small file system of the test's own (tmpfs) mounted for the node's data directory; unmounted
/// when dropped.
struct SmallDisk {
    dir: tempfile::TempDir,
}

impl SmallDisk {
    /// Mounts `megabytes` of tmpfs, or `None` where this process may not mount (not root, or in
    /// a container without the capability).
    fn mount(megabytes: u32) -> Option<SmallDisk> {
        if !is_root() {
            return None;
        }
        let dir = tempfile::tempdir().unwrap();
        let size = format!("size={megabytes}m");
        let mounted =
            Command::new("mount").args(["-t", "tmpfs", "-o", &size, "tmpfs"]).arg(dir.path()).output().ok()?;
        mounted.status.success().then_some(SmallDisk { dir })
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Writes a ballast file until the disk refuses more; returns its path.
    fn fill(&self) -> PathBuf {
        use std::io::Write;
        let ballast = self.path().join("ballast");
        let mut file = std::fs::File::create(&ballast).unwrap();
        let chunk = vec![0x5a_u8; 64 * 1024];
        loop {
            match file.write(&chunk) {
                Ok(0) => break,
                Ok(_) => continue,
                Err(error) => {
                    assert_eq!(error.raw_os_error(), Some(28), "the disk fills up: {error}");
                    break;
                }
            }
        }
        ballast
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg("-l").arg(self.dir.path()).status();
    }
}

/// The data directory's disk fills up under a node on its default storage (SQLite and local
/// files): writes are refused with 507 `disk_full` and a sentence (never a 500), reads go on, and
/// once space is freed the node takes writes again without a restart, having lost none of the
/// writes it acknowledged and kept none it refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_disk_refuses_writes_clearly_and_the_node_recovers_when_space_is_freed() {
    let Some(disk) = SmallDisk::mount(256) else {
        eprintln!("skipped: this process may not mount a small file system (it needs root)");
        return;
    };
    let node = spawn_binary_in(disk.path(), &[], &[]).await;
    let api = Api::new(node.addr);
    let s = api.sign_up("diskfull").await;
    let (status, created) = api.put("/api/notebook", &s.token, json!({"name": "Kept"})).await;
    assert_eq!(status, StatusCode::OK, "{created}");
    let notebook = created["results"]["notebookId"].as_str().unwrap().to_string();
    let (_, init) = api
        .post(
            "/api/upload/init",
            &s.token,
            json!({"source": "needldrive", "files": [{"id": "memo", "name": "memo.txt"}]}),
        )
        .await;
    let link = init["upload_configs"][0]["upload_link"].as_str().unwrap().to_string();

    let ballast = disk.fill();
    // An upload's bytes have nowhere to go.
    let text = "Quarterly provisioning rose on the retail book. ".repeat(20_000);
    let res = api.client.put(api.url(&link)).body(text.clone()).send().await.unwrap();
    let status = res.status();
    let body: Value = res.json().await.unwrap_or(Value::Null);
    assert_eq!(status, StatusCode::INSUFFICIENT_STORAGE, "{body}");
    assert_eq!(body["code"], "disk_full", "{body}");
    assert!(body["message"].as_str().unwrap_or_default().contains("disk space"), "{body}");

    // Notes of about 60 KB each: the database takes what fits in its files, then refuses.
    let note_body = json!({"text": "Margins held as volumes fell. ".repeat(2_000)});
    let mut acknowledged = 0;
    let refused = loop {
        let path = format!("/api/note/create/{notebook}");
        let (status, body) =
            api.put(&path, &s.token, json!({"name": format!("n{acknowledged}"), "body": note_body})).await;
        match status {
            StatusCode::OK => acknowledged += 1,
            _ => break (status, body),
        }
        assert!(acknowledged < 400, "a full disk refuses a write sooner or later");
    };
    assert_eq!(refused.0, StatusCode::INSUFFICIENT_STORAGE, "{}", refused.1);
    assert_eq!(refused.1["code"], "disk_full", "{}", refused.1);
    let (status, body) = api.get("/api/notebook/list", &s.token).await;
    assert_eq!(status, StatusCode::OK, "reads go on: {body}");
    eprintln!("full disk: {acknowledged} notes taken before the first refusal");

    std::fs::remove_file(ballast).unwrap();
    let freed = Instant::now();
    let (status, body) =
        api.put(&format!("/api/note/create/{notebook}"), &s.token, json!({"name": "after", "body": note_body})).await;
    assert_eq!(status, StatusCode::OK, "writes are taken again once space is freed: {body}");
    let res = api.client.put(api.url(&link)).body(text).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::CREATED, "the same upload link works now");
    let done: Value = api.post_as("/api/upload/complete", &s.token, complete_body(&init)).await;
    assert_eq!(done["files"][0]["status"], "PROCESSING", "{done}");
    let status = &api.settled_uploads(&s.token, &["memo"]).await[0];
    assert_eq!(status["status"], "COMPLETED", "{status}");

    // Every acknowledged note is there, the refused one is not, and the read model caught up.
    let deadline = Instant::now() + Duration::from_secs(30);
    let count = loop {
        let (_, body) = api.get(&format!("/api/notebook/{notebook}"), &s.token).await;
        let count = body["results"]["note_count"].as_u64().unwrap_or_default();
        if count == acknowledged + 1 || Instant::now() > deadline {
            break count;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    assert_eq!(count, acknowledged + 1, "the acknowledged notes and the one after, no more");
    eprintln!("full disk: writes taken again {:?} after space was freed", freed.elapsed());
}
