//! The calls tests make to a server, as a browser of the web app makes them: JSON in and out, the
//! session's token in the `token` header, and the app's `app-type` and `x-request-origin`
//! headers (which the server records in every event's metadata).

use std::net::SocketAddr;

use serde::de::DeserializeOwned;
use serde::Deserialize;

use super::*;

/// A client of one server. Each call returns the status and the JSON body (`Null` when the body
/// is not JSON); the `_as` calls assert success and deserialise the body.
#[derive(Clone)]
pub struct Api {
    pub client: reqwest::Client,
    pub addr: SocketAddr,
}

/// The password test users sign up with: strong enough for the password policy.
pub const PASSWORD: &str = "velvet otter juggles 7 lanterns";

/// A signed-up user: the token to send, and the user as sign-up answered it.
#[derive(Debug, Clone, Deserialize)]
pub struct Session {
    pub token: String,
    pub user: Value,
}

impl Session {
    /// Returns the user's id.
    pub fn id(&self) -> &str {
        self.user["id"].as_str().expect("a signed-up user has an id")
    }
}

/// The envelope most answers come in: `{"results": ...}`.
#[derive(Debug, Deserialize)]
pub struct Results<T> {
    pub results: T,
}

impl Api {
    pub fn new(addr: SocketAddr) -> Api {
        Api { client: reqwest::Client::new(), addr }
    }

    /// Returns the address of `path` (which starts with `/`) on this server.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// Returns a request to `path` with the web app's headers and, when given, the token: for the
    /// tests that send something other than JSON or read the response's headers.
    pub fn request(&self, method: reqwest::Method, path: &str, token: Option<&str>) -> reqwest::RequestBuilder {
        let request = self
            .client
            .request(method, self.url(path))
            .header("app-type", "web")
            .header("x-request-origin", "/tests/page");
        match token {
            Some(token) => request.header("token", token),
            None => request,
        }
    }

    /// Sends `body` (when given) as JSON; returns the status and the JSON body.
    pub async fn send(
        &self,
        method: reqwest::Method,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> (StatusCode, Value) {
        let mut request = self.request(method, path, token);
        if let Some(body) = body {
            request = request.json(&body);
        }
        let res = request.send().await.unwrap();
        let status = res.status();
        (status, res.json().await.unwrap_or(Value::Null))
    }

    pub async fn get(&self, path: &str, token: &str) -> (StatusCode, Value) {
        self.send(reqwest::Method::GET, path, Some(token), None).await
    }

    pub async fn post(&self, path: &str, token: &str, body: Value) -> (StatusCode, Value) {
        self.send(reqwest::Method::POST, path, Some(token), Some(body)).await
    }

    /// Posts `body` as someone not signed in: sign-up, sign-in, and calls that must be refused.
    pub async fn post_without_token(&self, path: &str, body: Value) -> (StatusCode, Value) {
        self.send(reqwest::Method::POST, path, None, Some(body)).await
    }

    pub async fn put(&self, path: &str, token: &str, body: Value) -> (StatusCode, Value) {
        self.send(reqwest::Method::PUT, path, Some(token), Some(body)).await
    }

    /// Puts with no body: bookmarks, read marks and role grants.
    pub async fn put_empty(&self, path: &str, token: &str) -> (StatusCode, Value) {
        self.send(reqwest::Method::PUT, path, Some(token), None).await
    }

    pub async fn patch(&self, path: &str, token: &str, body: Value) -> (StatusCode, Value) {
        self.send(reqwest::Method::PATCH, path, Some(token), Some(body)).await
    }

    pub async fn delete(&self, path: &str, token: &str) -> (StatusCode, Value) {
        self.send(reqwest::Method::DELETE, path, Some(token), None).await
    }

    /// Gets `path`, asserts a success, and returns the body as a `T`.
    pub async fn get_as<T: DeserializeOwned>(&self, path: &str, token: &str) -> T {
        let (status, body) = self.get(path, token).await;
        success(path, status, body)
    }

    /// Posts `body`, asserts a success, and returns the answer as a `T`.
    pub async fn post_as<T: DeserializeOwned>(&self, path: &str, token: &str, body: Value) -> T {
        let (status, answer) = self.post(path, token, body).await;
        success(path, status, answer)
    }

    /// Signs `name` up as `name@example.com` with the password [`PASSWORD`].
    pub async fn sign_up(&self, name: &str) -> Session {
        let body = json!({"email": format!("{name}@example.com"), "password": PASSWORD, "username": name});
        let (status, answer) = self.post_without_token("/api/auth/signup", body).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        serde_json::from_value(answer).expect("a sign-up answers a token and a user")
    }

    pub async fn sign_in(&self, email: &str, password: &str) -> (StatusCode, Value) {
        self.post_without_token("/api/auth/signin", json!({"email": email, "password": password})).await
    }

    pub async fn sign_out(&self, token: &str) -> StatusCode {
        self.request(reqwest::Method::POST, "/api/auth/signout", Some(token)).send().await.unwrap().status()
    }

    /// Refreshes `token`; returns the status and the new token, if any.
    pub async fn refresh(&self, token: &str) -> (StatusCode, Option<String>) {
        let (status, body) = self.post("/api/auth/refresh", token, json!({})).await;
        (status, body["token"].as_str().map(str::to_string))
    }

    /// Opens the live socket as the token's user; with `after`, it first replays what came after
    /// that cursor.
    pub async fn connect_live(&self, token: &str, after: Option<&str>) -> LiveSocket {
        let mut url = format!("ws://{}/api/live?token={token}", self.addr);
        if let Some(after) = after {
            url.push_str(&format!("&after={after}"));
        }
        tokio_tungstenite::connect_async(url).await.expect("live socket opens").0
    }
}

/// A client's end of the live socket.
pub type LiveSocket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Returns `body` as a `T` after asserting that `status` is a success.
fn success<T: DeserializeOwned>(path: &str, status: StatusCode, body: Value) -> T {
    assert!(status.is_success(), "{path}: {status} {body}");
    serde_json::from_value(body.clone()).unwrap_or_else(|e| panic!("{path}: {e} in {body}"))
}
