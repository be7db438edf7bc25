//! What every API test shares: a server on port 0 over a fresh database (`spawn_app`), the
//! calls a test makes to it, the live socket, `api_test!` (one body run on SQLite and on
//! Postgres), in `fixtures` the records and files that tests of several features set up, and in
//! `binary` the real binary in a process of its own.

use api::app::Server;
use futures::StreamExt;
use tokio_tungstenite::tungstenite::Message;

// What nearly every test module names; `use crate::support::*` brings them with the helpers.
pub use std::time::Duration;

pub use api::config::ServeArgs;
pub use reqwest::StatusCode;
pub use serde_json::{json, Value};
pub use testkit::Backend;

mod binary;
mod fixtures;
pub use binary::*;
pub use fixtures::*;

/// A running server, its client, and the data directory it owns (deleted when dropped).
pub struct TestApp {
    pub server: Server,
    pub client: reqwest::Client,
    pub _dir: tempfile::TempDir,
}

/// Starts a server with the test settings over a fresh database on `backend`.
pub async fn spawn_app(backend: Backend) -> TestApp {
    spawn_app_with(backend, ServeArgs::for_tests()).await
}

/// Starts a server with `config` over a fresh database on `backend`.
pub async fn spawn_app_with(backend: Backend, mut config: ServeArgs) -> TestApp {
    // Uploads are extracted by the real binary's worker mode, not by this test program.
    config.extract_worker.get_or_insert_with(|| env!("CARGO_BIN_EXE_needl").into());
    let dir = tempfile::tempdir().unwrap();
    let db = testkit::db::open(backend, dir.path()).await;
    let server = Server::start_with(db, dir.path(), config).await.unwrap();
    TestApp { server, client: reqwest::Client::new(), _dir: dir }
}

/// A signed-up user: the token to send and the user as the sign-up answered it.
pub struct Session {
    pub token: String,
    pub user: Value,
}

impl TestApp {
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{}", self.server.addr, path)
    }

    pub async fn post(&self, path: &str, token: Option<&str>, body: Value) -> (StatusCode, Value) {
        let mut req = self
            .client
            .post(self.url(path))
            .json(&body)
            .header("app-type", "web")
            .header("x-request-origin", "/tests/page");
        if let Some(t) = token {
            req = req.header("token", t);
        }
        let res = req.send().await.unwrap();
        let status = res.status();
        (status, res.json().await.unwrap_or(Value::Null))
    }

    pub async fn send(
        &self,
        method: reqwest::Method,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> (StatusCode, Value) {
        let mut req = self.client.request(method, self.url(path));
        if let Some(t) = token {
            req = req.header("token", t);
        }
        if let Some(b) = body {
            req = req.json(&b);
        }
        let res = req.send().await.unwrap();
        let status = res.status();
        (status, res.json().await.unwrap_or(Value::Null))
    }

    pub async fn get(&self, path: &str, token: &str) -> (StatusCode, Value) {
        self.send(reqwest::Method::GET, path, Some(token), None).await
    }

    pub async fn sign_up(&self, name: &str) -> Session {
        let (status, body) = self
            .post(
                "/api/auth/signup",
                None,
                json!({"email": format!("{name}@example.com"), "password": "correct horse", "username": name}),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        Session { token: body["token"].as_str().unwrap().to_string(), user: body["user"].clone() }
    }

    pub async fn connect_live(
        &self,
        token: &str,
        after: Option<&str>,
    ) -> tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>> {
        let mut url = format!("ws://{}/api/live?token={token}", self.server.addr);
        if let Some(a) = after {
            url.push_str(&format!("&after={a}"));
        }
        tokio_tungstenite::connect_async(url).await.expect("live socket opens").0
    }
}

/// Reads live messages until one of `event_type` arrives, or fails after a bounded wait.
pub async fn next_of_type<S>(socket: &mut S, event_type: &str) -> Value
where
    S: futures::Stream<Item = Result<Message, tokio_tungstenite::tungstenite::Error>> + Unpin,
{
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        let msg = tokio::time::timeout_at(deadline, socket.next())
            .await
            .unwrap_or_else(|_| panic!("no {event_type} arrived"))
            .expect("socket open")
            .expect("message");
        if let Message::Text(text) = msg {
            let value: Value = serde_json::from_str(&text).unwrap();
            if value["type"] == event_type {
                return value;
            }
        }
    }
}

/// Returns whether any message arrives within `wait`.
pub async fn anything_within<S>(socket: &mut S, wait: Duration) -> Option<Value>
where
    S: futures::Stream<Item = Result<Message, tokio_tungstenite::tungstenite::Error>> + Unpin,
{
    match tokio::time::timeout(wait, socket.next()).await {
        Ok(Some(Ok(Message::Text(text)))) => Some(serde_json::from_str(&text).unwrap()),
        _ => None,
    }
}

/// Runs `$body` (a closure taking the `TestApp`) as two tests, `$name::on_sqlite` and
/// `$name::on_postgres`, each with a server of its own.
macro_rules! api_test {
    ($name:ident, $body:expr) => {
        mod $name {
            use super::*;
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn on_sqlite() {
                let app = $crate::support::spawn_app($crate::support::Backend::Sqlite).await;
                ($body)(app).await;
            }
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn on_postgres() {
                let app = $crate::support::spawn_app($crate::support::Backend::Postgres).await;
                ($body)(app).await;
            }
        }
    };
}
pub(crate) use api_test;
