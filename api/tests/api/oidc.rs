//! Sign-in with an organisation's identity provider, against a real OpenID Connect provider
//! (`oidc-provider`, started from web/e2e/oidc/provider.mjs): the authorization code flow with
//! PKCE end to end, the first sign-in making an account, forged and replayed answers refused, the
//! provider's key rotation followed, and a session the provider revoked ended at the next refresh.

use std::process::Stdio;

use reqwest::header::{COOKIE, LOCATION, SET_COOKIE};
use tokio::io::{AsyncBufReadExt, BufReader};

use crate::support::*;

/// The redirect URI registered at the provider. The test carries the code to the server itself,
/// so nothing needs to listen there.
const REDIRECT: &str = "http://127.0.0.1:9/api/auth/oidc/callback";

struct Provider {
    issuer: String,
    _child: tokio::process::Child,
}

async fn start_provider() -> Provider {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../web/e2e/oidc/provider.mjs");
    let modules = concat!(env!("CARGO_MANIFEST_DIR"), "/../web/node_modules/oidc-provider");
    assert!(
        std::path::Path::new(modules).exists(),
        "the OIDC tests need the web app's packages: run `npm ci` in web/ (scripts/setup does)"
    );
    let mut child = tokio::process::Command::new("node")
        .args([script, "--port", "0", "--redirect-uri", REDIRECT])
        .args(["--user", "alice:alice@example.com:Alice Analyst"])
        .args(["--user", "mallory:mallory@example.com:Mallory:unverified"])
        .args(["--user", "oscar:oscar@other.example:Oscar Outsider"])
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("node starts the test provider");
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let line = tokio::time::timeout(Duration::from_secs(30), lines.next_line())
        .await
        .expect("the provider starts within 30 s")
        .unwrap()
        .expect("the provider prints its issuer");
    let started: Value = serde_json::from_str(&line).unwrap();
    Provider { issuer: started["issuer"].as_str().unwrap().to_string(), _child: child }
}

fn config(provider: &Provider) -> ServeArgs {
    let mut config = ServeArgs::for_tests();
    config.oidc_issuer = Some(provider.issuer.clone());
    config.oidc_client_id = "needl".into();
    config.oidc_client_secret = Some("needl-secret".into());
    config.oidc_redirect_url = Some(REDIRECT.into());
    config.oidc_domains = vec!["example.com".into()];
    config.oidc_label = "Example Corp".into();
    config
}

fn no_redirects() -> reqwest::Client {
    reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap()
}

/// The `name=value` pairs a response sets, to send back as one Cookie header.
fn cookies_of(response: &reqwest::Response, jar: &mut Vec<String>) {
    for value in response.headers().get_all(SET_COOKIE) {
        let pair = value.to_str().unwrap().split(';').next().unwrap().to_string();
        let name = pair.split('=').next().unwrap().to_string();
        jar.retain(|c| !c.starts_with(&format!("{name}=")));
        jar.push(pair);
    }
}

fn location(response: &reqwest::Response) -> String {
    response.headers().get(LOCATION).expect("a redirect").to_str().unwrap().to_string()
}

fn query_value(url: &str, key: &str) -> Option<String> {
    let parsed = url::Url::parse(url).unwrap();
    parsed.query_pairs().find(|(k, _)| k == key).map(|(_, v)| v.to_string())
}

/// What the server's start sends back: the provider's address and the pending-sign-in cookie.
async fn begin(app: &TestApp) -> (String, String) {
    let response = no_redirects().get(app.url("/api/auth/oidc/start?redirect=/feeds/home")).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    let mut jar = Vec::new();
    cookies_of(&response, &mut jar);
    let cookie = jar.into_iter().find(|c| c.starts_with("needl_oidc=")).expect("the pending sign-in cookie");
    (location(&response), cookie)
}

/// Signs `login` in at the provider, as the browser would, and answers where the provider sends
/// the browser back (the redirect URI with the code and state).
async fn log_in_at_provider(provider: &Provider, authorize: &str, login: &str) -> String {
    let client = no_redirects();
    let mut jar: Vec<String> = Vec::new();
    let mut next = authorize.to_string();
    let mut posted = false;
    for _ in 0..10 {
        if next.starts_with(REDIRECT) {
            return next;
        }
        let url = if next.starts_with('/') { format!("{}{next}", provider.issuer) } else { next.clone() };
        let request = if url.contains("/interaction/") && !posted {
            posted = true;
            client.post(format!("{url}/login")).form(&[("login", login)])
        } else {
            client.get(&url)
        };
        let response = request.header(COOKIE, jar.join("; ")).send().await.unwrap();
        cookies_of(&response, &mut jar);
        assert!(response.status().is_redirection(), "{url}: {}", response.status());
        next = location(&response);
    }
    panic!("the provider never sent the browser back");
}

/// Finishes at the server: answers where it sends the browser.
async fn callback(app: &TestApp, returned: &str, cookie: Option<&str>) -> String {
    let query = returned.split_once('?').map(|(_, q)| q).unwrap_or_default();
    let mut request = no_redirects().get(app.url(&format!("/api/auth/oidc/callback?{query}")));
    if let Some(cookie) = cookie {
        request = request.header(COOKIE, cookie);
    }
    let response = request.send().await.unwrap();
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    location(&response)
}

fn token_of(landing: &str) -> String {
    let fragment = landing.strip_prefix("/oauth/redirect#").unwrap_or_else(|| panic!("signed in: {landing}"));
    let pairs: Vec<(String, String)> = url::form_urlencoded::parse(fragment.as_bytes()).into_owned().collect();
    let redirect = pairs.iter().find(|(k, _)| k == "redirect").map(|(_, v)| v.as_str());
    assert_eq!(redirect, Some("/feeds/home"), "the page asked for comes back");
    pairs.into_iter().find(|(k, _)| k == "token").map(|(_, v)| v).expect("a token")
}

async fn sign_in(app: &TestApp, provider: &Provider, login: &str) -> String {
    let (authorize, cookie) = begin(app).await;
    let returned = log_in_at_provider(provider, &authorize, login).await;
    callback(app, &returned, Some(&cookie)).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn organisation_sign_in_makes_and_signs_in_accounts_and_refuses_forgeries() {
    let provider = start_provider().await;
    for backend in [Backend::Sqlite, Backend::Postgres] {
        let app = spawn_app_with(backend, config(&provider)).await;
        let (_, offered) = app.send(reqwest::Method::GET, "/api/auth/oidc/config", None, None).await;
        assert_eq!(offered, json!({"enabled": true, "label": "Example Corp"}));

        // The authorization request: code flow, PKCE with S256, a state and a nonce.
        let (authorize, cookie) = begin(&app).await;
        assert!(authorize.starts_with(&provider.issuer), "{authorize}");
        assert_eq!(query_value(&authorize, "code_challenge_method").as_deref(), Some("S256"));
        assert_eq!(query_value(&authorize, "response_type").as_deref(), Some("code"));
        assert!(query_value(&authorize, "nonce").is_some() && query_value(&authorize, "state").is_some());
        assert!(cookie.len() > 40, "the pending sign-in is sealed in the cookie");

        // First sign-in: an account in the organisation's domain is made.
        let returned = log_in_at_provider(&provider, &authorize, "alice").await;
        let token = token_of(&callback(&app, &returned, Some(&cookie)).await);
        let (status, me) = app.get("/api/user", &token).await;
        assert_eq!(status, StatusCode::OK, "{me}");
        assert_eq!(me["email_id"], "alice@example.com");
        assert_eq!(me["username"], "Alice Analyst");
        let alice_id = me["id"].clone();

        // The same code again (a replay) and a state that is not this browser's are refused.
        assert_eq!(
            callback(&app, &returned, Some(&cookie)).await,
            "/auth/signin?sso_error=oidc_code_refused",
            "a code works once"
        );
        let (authorize, cookie) = begin(&app).await;
        let returned = log_in_at_provider(&provider, &authorize, "alice").await;
        let forged = returned.replace(&query_value(&returned, "state").unwrap(), "forged-state");
        assert_eq!(callback(&app, &forged, Some(&cookie)).await, "/auth/signin?sso_error=oidc_state_mismatch");
        assert_eq!(callback(&app, &returned, None).await, "/auth/signin?sso_error=oidc_sign_in_expired");
        let tampered = format!("{}x", cookie);
        assert_eq!(callback(&app, &returned, Some(&tampered)).await, "/auth/signin?sso_error=oidc_sign_in_expired");

        // Signing in again reaches the same account.
        let token = token_of(&sign_in(&app, &provider, "alice").await);
        assert_eq!(app.get("/api/user", &token).await.1["id"], alice_id);

        // An unverified address, and an address outside the organisation's domains, get nothing.
        assert_eq!(sign_in(&app, &provider, "mallory").await, "/auth/signin?sso_error=oidc_email_unverified");
        assert_eq!(sign_in(&app, &provider, "oscar").await, "/auth/signin?sso_error=oidc_domain_not_allowed");
        // Alice's account was the instance's first, so she administers it.
        let (_, users) = app.get("/api/admin/users", &token).await;
        let emails: Vec<&str> = users.as_array().unwrap().iter().map(|u| u["email_id"].as_str().unwrap()).collect();
        assert!(!emails.iter().any(|e| e.contains("mallory") || e.contains("oscar")), "{emails:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rotated_provider_key_is_followed_and_a_revoked_sign_in_ends_the_session() {
    let provider = start_provider().await;
    let app = spawn_app_with(Backend::Sqlite, config(&provider)).await;
    let token = token_of(&sign_in(&app, &provider, "alice").await);

    // The provider rotates its signing key and drops the old one: the next ID token is signed by
    // a key this server has not seen, which makes it fetch the keys again (once the short gap
    // that guards the provider has passed).
    let rotated =
        reqwest::Client::new().post(format!("{}/__test/rotate-keys?drop_old=1", provider.issuer)).send().await;
    assert!(rotated.unwrap().status().is_success());
    tokio::time::sleep(service::oidc::KEY_REFRESH_GAP).await;
    let token_after_rotation = token_of(&sign_in(&app, &provider, "alice").await);
    assert_eq!(app.get("/api/user", &token_after_rotation).await.0, StatusCode::OK);

    // A refresh here refreshes at the provider too.
    let (status, refreshed) = app.post("/api/auth/refresh", &token, json!({})).await;
    assert_eq!(status, StatusCode::OK, "{refreshed}");
    let token = refreshed["token"].as_str().unwrap().to_string();

    // The provider revokes Alice's sign-in: her next refresh ends her session here.
    let revoked = reqwest::Client::new().post(format!("{}/__test/revoke?sub=alice", provider.issuer)).send().await;
    assert!(revoked.unwrap().status().is_success());
    let (status, body) = app.post("/api/auth/refresh", &token, json!({})).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");
    assert_eq!(body["code"], "oidc_session_ended");
    assert_eq!(app.get("/api/user", &token).await.0, StatusCode::UNAUTHORIZED, "the session is over");

    // A local account's refresh never asks the provider.
    let local = app.sign_up("local").await;
    assert_eq!(app.post("/api/auth/refresh", &local.token, json!({})).await.0, StatusCode::OK);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_provider_the_sign_in_page_offers_none() {
    let app = spawn_app(Backend::Sqlite).await;
    let (_, offered) = app.send(reqwest::Method::GET, "/api/auth/oidc/config", None, None).await;
    assert_eq!(offered, json!({"enabled": false, "label": null}));
    let response = no_redirects().get(app.url("/api/auth/oidc/start")).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::NOT_FOUND);
}
