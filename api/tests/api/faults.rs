//! Faults a node must ride out: its Postgres restarting under it. The Postgres is the test's own
//! (initdb in a temporary folder, on a free port), never the machine's shared one.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use futures::StreamExt;
use tokio_tungstenite::tungstenite::Message;

use crate::support::*;

/// A Postgres cluster of the test's own; stopped and removed when dropped.
struct OwnPostgres {
    bin: PathBuf,
    dir: tempfile::TempDir,
    port: u16,
}

impl OwnPostgres {
    /// Creates and starts a cluster, or `None` where Postgres's server programs are not
    /// installed.
    fn start() -> Option<OwnPostgres> {
        let bin = std::fs::read_dir("/usr/lib/postgresql")
            .ok()?
            .filter_map(Result::ok)
            .map(|e| e.path().join("bin"))
            .find(|bin| bin.join("initdb").exists())?;
        let dir = tempfile::tempdir().unwrap();
        // Postgres refuses to run as root: as root, the cluster is the postgres user's.
        if is_root() {
            let status = Command::new("chown").args(["-R", "postgres:postgres"]).arg(dir.path()).status().unwrap();
            assert!(status.success(), "the cluster's folder is handed to the postgres user");
        }
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let pg = OwnPostgres { bin, dir, port };
        pg.run("initdb", &["-D", &pg.data(), "-A", "trust", "-U", "postgres", "--no-sync"]);
        pg.ctl("start");
        Some(pg)
    }

    fn data(&self) -> String {
        self.dir.path().join("data").display().to_string()
    }

    fn url(&self) -> String {
        format!("postgres://postgres@127.0.0.1:{}/postgres", self.port)
    }

    fn ctl(&self, action: &str) {
        let options =
            format!("-p {} -k {} -c listen_addresses=127.0.0.1 -c fsync=off", self.port, self.dir.path().display());
        let log = self.dir.path().join("server.log").display().to_string();
        self.run("pg_ctl", &["-D", &self.data(), "-o", &options, "-l", &log, "-w", "-m", "fast", action]);
    }

    fn run(&self, program: &str, args: &[&str]) {
        let path = self.bin.join(program);
        let mut command = if is_root() {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(&path);
            c
        } else {
            Command::new(&path)
        };
        let out = command.args(args).current_dir(self.dir.path()).output().unwrap();
        assert!(out.status.success(), "{program} {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    }
}

impl Drop for OwnPostgres {
    fn drop(&mut self) {
        let path: &Path = &self.bin.join("pg_ctl");
        let mut command = if is_root() {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(path);
            c
        } else {
            Command::new(path)
        };
        let _ = command.args(["-D", &self.data(), "-m", "immediate", "stop"]).output();
    }
}

fn is_root() -> bool {
    // SAFETY: geteuid only reads the process's own user id.
    unsafe { libc::geteuid() == 0 }
}

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

    pg.ctl("stop");
    let (status, body) = readiness(&client, node.addr).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
    assert_eq!(body["database"]["ok"], false, "{body}");
    let refused = Instant::now();
    let (status, body) = api.patch("/api/user", &s.token, json!({"profession": "Lost"})).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "a write without a database is refused: {body}");
    assert_eq!(body["code"], "storage_unavailable", "with a sentence a person can act on: {body}");
    eprintln!("Postgres down: a write was refused with {status} after {:?}", refused.elapsed());

    pg.ctl("start");
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
