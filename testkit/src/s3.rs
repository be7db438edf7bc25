//! A local S3-compatible server for tests: moto's `moto_server` (`pip install 'moto[server]'`,
//! which `.ci/run` installs) on a free port of 127.0.0.1. Where it is not installed, [`Moto::start`]
//! returns `None` and the test skips with a message.

use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A running moto server; stopped when dropped.
pub struct Moto {
    child: Child,
    endpoint: String,
}

impl Moto {
    /// Starts moto on a free port and waits (at most ten seconds) until it accepts connections;
    /// returns `None` when `moto_server` is not installed.
    pub async fn start() -> Option<Moto> {
        let port = std::net::TcpListener::bind("127.0.0.1:0").ok()?.local_addr().ok()?.port();
        let child = Command::new("moto_server")
            .args(["-H", "127.0.0.1", "-p", &port.to_string()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .ok()?;
        let moto = Moto { child, endpoint: format!("http://127.0.0.1:{port}") };
        for _ in 0..100 {
            if tokio::net::TcpStream::connect(("127.0.0.1", port)).await.is_ok() {
                return Some(moto);
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("moto_server did not start on {}", moto.endpoint);
    }

    /// Returns the server's address, `http://127.0.0.1:PORT`.
    pub fn endpoint(&self) -> &str {
        &self.endpoint
    }

    /// Returns the `AWS_*` variables that point an S3 client (the server's `s3://` storage) at
    /// this server; moto takes any credentials.
    pub fn env(&self) -> Vec<(&'static str, String)> {
        vec![
            ("AWS_ENDPOINT", self.endpoint.clone()),
            ("AWS_ALLOW_HTTP", "true".into()),
            ("AWS_ACCESS_KEY_ID", "test".into()),
            ("AWS_SECRET_ACCESS_KEY", "test".into()),
            ("AWS_REGION", "us-east-1".into()),
        ]
    }
}

impl Drop for Moto {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
