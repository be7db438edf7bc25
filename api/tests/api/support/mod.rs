//! What every API test shares: a server on port 0 over a fresh database (`spawn_app`), the
//! live socket, and `api_test!` (one body run on SQLite and on Postgres); in `client` the calls
//! a test makes to a server, in `fixtures` the records and files that tests of several features
//! set up, in `binary` the real binary in a process of its own, and in `proxy` a round-robin proxy
//! in front of several of them.

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
mod client;
mod fixtures;
mod proxy;
pub use binary::*;
pub use client::*;
pub use fixtures::*;
pub use proxy::*;

/// A running server, a client of it, and the data directory it owns (deleted when dropped). It
/// dereferences to the client, so a test writes `app.get(..)` and `app.sign_up(..)`.
pub struct TestApp {
    pub server: Server,
    pub api: Api,
    pub _dir: tempfile::TempDir,
}

impl TestApp {
    /// Wraps a started server and the data directory it uses.
    pub fn new(server: Server, dir: tempfile::TempDir) -> TestApp {
        TestApp { api: Api::new(server.addr), server, _dir: dir }
    }
}

impl std::ops::Deref for TestApp {
    type Target = Api;

    fn deref(&self) -> &Api {
        &self.api
    }
}

/// Starts a server with the test settings over a fresh database on `backend`.
pub async fn spawn_app(backend: Backend) -> TestApp {
    spawn_app_with(backend, ServeArgs::for_tests()).await
}

/// Starts a server with `config` over a fresh database on `backend`.
pub async fn spawn_app_with(backend: Backend, config: ServeArgs) -> TestApp {
    spawn_app_with_clock(backend, config, service::clock::SystemClock::shared()).await
}

/// A server whose token and session expiry are judged by `clock` (a test's manual one).
pub async fn spawn_app_with_clock(
    backend: Backend,
    mut config: ServeArgs,
    clock: service::clock::SharedClock,
) -> TestApp {
    // Uploads are extracted by the real binary's worker mode, not by this test program.
    config.extract_worker.get_or_insert_with(|| env!("CARGO_BIN_EXE_needl").into());
    let dir = tempfile::tempdir().unwrap();
    let db = testkit::db::open(backend, dir.path()).await;
    let server = Server::start_with_clock(db, dir.path(), config, clock).await.unwrap();
    TestApp::new(server, dir)
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

/// Like `api_test!`, with `$config` changing the test settings first.
macro_rules! api_test_with {
    ($name:ident, $config:expr, $body:expr) => {
        mod $name {
            use super::*;
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn on_sqlite() {
                let mut config = $crate::support::ServeArgs::for_tests();
                ($config)(&mut config);
                ($body)($crate::support::spawn_app_with($crate::support::Backend::Sqlite, config).await).await;
            }
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn on_postgres() {
                let mut config = $crate::support::ServeArgs::for_tests();
                ($config)(&mut config);
                ($body)($crate::support::spawn_app_with($crate::support::Backend::Postgres, config).await).await;
            }
        }
    };
}
pub(crate) use api_test_with;

/// Like `api_test!`, on a server with the embedding model ([`with_model`]); where `scripts/setup`
/// has not fetched it, each test prints SKIPPED and passes.
macro_rules! model_test {
    ($name:ident, $body:expr) => {
        mod $name {
            use super::*;
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn on_sqlite() {
                if let Some(config) = $crate::support::with_model() {
                    ($body)($crate::support::spawn_app_with($crate::support::Backend::Sqlite, config).await).await;
                }
            }
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn on_postgres() {
                if let Some(config) = $crate::support::with_model() {
                    ($body)($crate::support::spawn_app_with($crate::support::Backend::Postgres, config).await).await;
                }
            }
        }
    };
}
pub(crate) use model_test;
