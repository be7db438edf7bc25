//! Uploads through S3-compatible storage: presigned links, completion checks and extraction
//! reading from the bucket, against a local S3 server (moto, installed by `.ci/run`; the test
//! skips with a message where it is missing).

use std::process::{Child, Command, Stdio};
use std::time::Duration;

use api::app::Server;
use api::config::ServeArgs;
use commands::Db;
use serde_json::{json, Value};

struct S3Server(Child);

impl Drop for S3Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts moto's S3 server on a free port; `None` when it is not installed.
async fn start_s3() -> Option<(S3Server, String)> {
    let port = std::net::TcpListener::bind("127.0.0.1:0").ok()?.local_addr().ok()?.port();
    let child = Command::new("moto_server")
        .args(["-H", "127.0.0.1", "-p", &port.to_string()])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let server = S3Server(child);
    let endpoint = format!("http://127.0.0.1:{port}");
    for _ in 0..100 {
        if reqwest::get(&endpoint).await.is_ok() {
            return Some((server, endpoint));
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("moto_server did not start on {endpoint}");
}

async fn post(client: &reqwest::Client, base: &str, path: &str, token: Option<&str>, body: Value) -> Value {
    let mut req = client.post(format!("{base}{path}")).json(&body);
    if let Some(t) = token {
        req = req.header("token", t);
    }
    let res = req.send().await.unwrap();
    let status = res.status();
    let body: Value = res.json().await.unwrap();
    assert!(status.is_success(), "{path}: {status} {body}");
    body
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn uploads_go_to_an_s3_bucket_through_presigned_links() {
    let Some((_s3, endpoint)) = start_s3().await else {
        eprintln!("skipped: moto_server (pip install 'moto[server]') is not installed");
        return;
    };
    let client = reqwest::Client::new();
    let bucket = "needl-uploads";
    // moto takes any credentials; the bucket is made with a plain request.
    assert!(client.put(format!("{endpoint}/{bucket}")).send().await.unwrap().status().is_success());
    // Only this test binary reads these, and only when storage is opened.
    for (name, value) in [
        ("AWS_ENDPOINT", endpoint.as_str()),
        ("AWS_ALLOW_HTTP", "true"),
        ("AWS_ACCESS_KEY_ID", "test"),
        ("AWS_SECRET_ACCESS_KEY", "test"),
        ("AWS_REGION", "us-east-1"),
    ] {
        std::env::set_var(name, value);
    }
    let dir = tempfile::tempdir().unwrap();
    let db = Db::open_sqlite(dir.path()).await.unwrap();
    let mut config = ServeArgs::for_tests();
    config.storage = format!("s3://{bucket}");
    config.extract_worker = Some(env!("CARGO_BIN_EXE_needl").into());
    let server = Server::start_with(db, dir.path(), config).await.unwrap();
    let base = format!("http://{}", server.addr);

    let session = post(
        &client,
        &base,
        "/api/auth/signup",
        None,
        json!({"email": "s3@example.com", "password": "correct horse", "username": "s3"}),
    )
    .await;
    let token = session["token"].as_str().unwrap();
    let text = "The board approved a dividend of four rupees per share.";
    let init = post(
        &client,
        &base,
        "/api/upload/init",
        Some(token),
        json!({"source": "needldrive", "files": [{"id": "memo", "name": "memo.txt", "size": text.len()}]}),
    )
    .await;
    let config = &init["upload_configs"][0];
    let link = config["upload_link"].as_str().unwrap();
    assert!(link.starts_with(&endpoint), "the link points at the bucket: {link}");
    assert_eq!(config["metadata_fields"]["bucket"], bucket);
    let sent = client.put(link).body(text).send().await.unwrap();
    assert!(sent.status().is_success(), "{}", sent.text().await.unwrap());

    let complete = json!({"source": "needldrive", "files": [{"bucket": bucket, "key": config["metadata_fields"]["key"], "metadata": {"id": "memo"}}]});
    let done = post(&client, &base, "/api/upload/complete", Some(token), complete).await;
    assert_eq!(done["files"][0]["status"], "PROCESSING", "{done}");
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    let status = loop {
        let res: Value = client
            .get(format!("{base}/api/upload/status?ids=memo"))
            .header("token", token)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let status = res["results"][0].clone();
        if status["status"] != "PROCESSING" || tokio::time::Instant::now() > deadline {
            break status;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    assert_eq!(status["status"], "COMPLETED", "{status}");
    let deeplink = status["deeplink"].as_str().unwrap();
    let file = client
        .get(format!("{base}/api/doc/needldrive/file"))
        .query(&[("deeplink", deeplink)])
        .header("token", token)
        .send()
        .await
        .unwrap();
    assert_eq!(file.text().await.unwrap(), text, "the original comes back from the bucket");
    server.stop().await.unwrap();
}
