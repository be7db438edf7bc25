//! A real WebDAV server for tests: WsgiDAV (`pip install wsgidav cheroot`, which `scripts/setup
//! --test` installs) serving a temporary directory on a free port of 127.0.0.1, with one account
//! checked by HTTP basic authentication. Where it is not installed, [`WsgiDav::start`] returns
//! `None` and the test skips with a message; under `CI=true` it fails instead.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A running WsgiDAV; stopped when dropped.
pub struct WsgiDav {
    child: Child,
    port: u16,
    dir: tempfile::TempDir,
}

impl WsgiDav {
    /// Serves a fresh directory to the account `user` with `password`, and waits (at most
    /// fifteen seconds) until it accepts connections.
    pub async fn start(user: &str, password: &str) -> Option<WsgiDav> {
        let installed = Command::new("wsgidav").arg("--version").stdout(Stdio::null()).stderr(Stdio::null()).status();
        if !installed.is_ok_and(|s| s.success()) {
            let why = "WsgiDAV is not installed (scripts/setup --test installs it)";
            assert!(std::env::var("CI").as_deref() != Ok("true"), "{why}");
            eprintln!("skipped: {why}");
            return None;
        }
        let dir = tempfile::tempdir().expect("a directory for WsgiDAV");
        let root = dir.path().join("files");
        std::fs::create_dir_all(&root).unwrap();
        let port = std::net::TcpListener::bind("127.0.0.1:0").ok()?.local_addr().ok()?.port();
        // JSON is YAML: no YAML writer needed.
        let config = serde_like_json(&root, port, user, password);
        std::fs::write(dir.path().join("wsgidav.json"), config).unwrap();
        let child = Command::new("wsgidav")
            .arg("--config")
            .arg(dir.path().join("wsgidav.json"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("starting wsgidav");
        let server = WsgiDav { child, port, dir };
        for _ in 0..150 {
            if tokio::net::TcpStream::connect(("127.0.0.1", port)).await.is_ok() {
                return Some(server);
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("wsgidav did not start on port {port}");
    }

    /// The address of a folder below the served root (`"Reports/"`).
    pub fn url(&self, folder: &str) -> String {
        format!("http://127.0.0.1:{}/{folder}", self.port)
    }

    /// Where the served files are, to put files in as a person would.
    pub fn root(&self) -> PathBuf {
        self.dir.path().join("files")
    }
}

fn serde_like_json(root: &Path, port: u16, user: &str, password: &str) -> String {
    let quote = |s: &str| format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""));
    format!(
        "{{\"host\": \"127.0.0.1\", \"port\": {port}, \"verbose\": 0, \
         \"provider_mapping\": {{\"/\": {root}}}, \
         \"http_authenticator\": {{\"domain_controller\": null, \"accept_basic\": true, \
         \"accept_digest\": false, \"default_to_digest\": false}}, \
         \"simple_dc\": {{\"user_mapping\": {{\"*\": {{{user}: {{\"password\": {password}}}}}}}}}}}",
        root = quote(&root.display().to_string()),
        user = quote(user),
        password = quote(password),
    )
}

impl Drop for WsgiDav {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
