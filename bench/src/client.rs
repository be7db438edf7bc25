//! One HTTP client for the benchmarks that drive a server through its API.

use std::time::Instant;

use futures::StreamExt;
use serde_json::Value;

/// An HTTP client for one server; each call names the token it is made with.
#[derive(Clone)]
pub struct Api {
    pub client: reqwest::Client,
    /// `http://host:port`, without `/api`.
    pub base: String,
}

impl Api {
    pub fn new(base: String) -> Api {
        Api { client: reqwest::Client::new(), base }
    }

    /// The call's JSON answer; an error naming the path, status and answer unless it succeeded.
    pub async fn call(
        &self,
        method: reqwest::Method,
        path: &str,
        token: Option<&str>,
        body: Value,
    ) -> anyhow::Result<Value> {
        let mut request = self.client.request(method, format!("{}/api{path}", self.base)).json(&body);
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        let response = request.send().await?;
        let status = response.status();
        let answer: Value = response.json().await.unwrap_or(Value::Null);
        anyhow::ensure!(status.is_success(), "{path}: {status} {answer}");
        Ok(answer)
    }

    /// Signs `name` up (as `name@example.com`) and returns the session's token.
    pub async fn sign_up(&self, name: &str, password: &str) -> anyhow::Result<String> {
        let body = serde_json::json!({"email": format!("{name}@example.com"), "password": password, "username": name});
        let answer = self.call(reqwest::Method::POST, "/auth/signup", None, body).await?;
        answer["token"].as_str().map(str::to_string).ok_or_else(|| anyhow::anyhow!("sign-up gave no token: {answer}"))
    }

    pub async fn post(&self, path: &str, token: &str, body: Value) -> anyhow::Result<Value> {
        self.call(reqwest::Method::POST, path, Some(token), body).await
    }
}

/// A live socket as the benchmarks' clients hold it.
pub type LiveSocket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Opens the live socket at `url` with a small read buffer, as a browser's would be. The
/// library's default reserves 128 KiB per socket and zeroes much of it on every read: with
/// 10,000 sockets in this one process, half its CPU went to that, on the cores the servers it
/// measures run on.
pub async fn open_live(url: &str) -> anyhow::Result<LiveSocket> {
    let config = tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default().read_buffer_size(4 * 1024);
    let (socket, _) = tokio_tungstenite::connect_async_with_config(url, Some(config), false).await?;
    Ok(socket)
}

/// Opens the live socket at `url` and sends on `heard`, for every `PreferencesChanged` it hears,
/// `tag`, the change's cursor and the moment it arrived, until the socket closes. The task that
/// reads it is returned.
pub async fn hear_preferences<T: Clone + Send + 'static>(
    url: &str,
    tag: T,
    heard: tokio::sync::mpsc::UnboundedSender<(T, String, Instant)>,
) -> anyhow::Result<tokio::task::JoinHandle<()>> {
    let socket = open_live(url).await?;
    Ok(tokio::spawn(async move {
        let (_, mut read) = socket.split();
        while let Some(Ok(msg)) = read.next().await {
            if let tokio_tungstenite::tungstenite::Message::Text(text) = msg {
                let at = Instant::now();
                if let Ok(v) = serde_json::from_str::<Value>(&text) {
                    if v["type"] == "PreferencesChanged" {
                        let _ = heard.send((tag.clone(), v["cursor"].as_str().unwrap_or_default().to_string(), at));
                    }
                }
            }
        }
    }))
}
