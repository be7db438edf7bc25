//! The real `needl` binary as an operator runs it, for what only a separate process shows: its
//! memory, and settings read from the environment.

use std::net::SocketAddr;
use std::time::Instant;

use super::*;

/// The binary serving a fresh SQLite data directory on 127.0.0.1; killed when dropped.
pub struct Binary {
    pub child: std::process::Child,
    pub addr: SocketAddr,
    _dir: Option<tempfile::TempDir>,
}

impl Drop for Binary {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `needl serve` with fetching off (unless `args` say otherwise), `args` after its own and `env` added, and waits (at
/// most a minute) until it answers `/healthz`.
pub async fn spawn_binary(args: &[&str], env: &[(&str, String)]) -> Binary {
    let dir = tempfile::tempdir().unwrap();
    let mut binary = spawn_binary_in(dir.path(), args, env).await;
    binary._dir = Some(dir);
    binary
}

/// [`spawn_binary`] with the data directory `dir`, which the caller keeps and removes.
pub async fn spawn_binary_in(dir: &std::path::Path, args: &[&str], env: &[(&str, String)]) -> Binary {
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_needl"))
        .arg("--data-dir")
        .arg(dir)
        .args(["serve", "--host", "127.0.0.1", "--port", &port.to_string(), "--web-dir", "/nonexistent"])
        .args(if args.contains(&"--fetch-enabled") { &[][..] } else { &["--fetch-enabled", "false"][..] })
        .args(["--log-format", "text"])
        .args(args)
        .env_remove("DATABASE_URL")
        .env("RUST_LOG", "error")
        .envs(env.iter().map(|(name, value)| (name, value)))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let binary = Binary { child, addr: SocketAddr::from(([127, 0, 0, 1], port)), _dir: None };
    let client = reqwest::Client::new();
    let deadline = Instant::now() + Duration::from_secs(60);
    while client.get(format!("http://{}/healthz", binary.addr)).send().await.is_err() {
        assert!(Instant::now() < deadline, "the server did not start");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    binary
}
