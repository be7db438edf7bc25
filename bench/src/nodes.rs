//! Two nodes on one Postgres, next to one in the same run: read throughput (documents, search, a
//! channel's items, the profile) with the clients on one node and spread over both,
//! commit-to-socket delivery to sockets on the node that took the write and on the other, and
//! resident memory per idle socket; then recovery: a node killed under sockets held on it (how
//! soon its clients are live again on the other node), and a Postgres of the benchmark's own
//! restarted under two nodes (how soon they serve again). The nodes are `needl` processes (the
//! binary beside this one) on a schema of their own in `--postgres-url`, sharing their token
//! secret and nothing on disk. Prints figures; passes or fails nothing.

use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::Context;
use hdrhistogram::Histogram;

use crate::client::Api;
use crate::BenchArgs;

struct Scale {
    sockets: usize,
    /// Sockets held on the node that is killed.
    failover_sockets: usize,
    pushes: usize,
    read_seconds: u64,
    readers: usize,
}

impl Scale {
    fn new(quick: bool) -> Scale {
        if quick {
            Scale { sockets: 200, failover_sockets: 50, pushes: 20, read_seconds: 3, readers: 8 }
        } else {
            Scale { sockets: 10_000, failover_sockets: 1_000, pushes: 100, read_seconds: 10, readers: 32 }
        }
    }
}

/// A `needl serve` process; killed when dropped.
struct Node {
    child: Child,
    addr: SocketAddr,
}

impl Drop for Node {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Node {
    async fn start(data_dir: &Path, database_url: &str) -> anyhow::Result<Node> {
        let bin = std::env::current_exe()?.with_file_name("needl");
        anyhow::ensure!(bin.exists(), "{} is needed (cargo build --workspace builds it)", bin.display());
        let port = std::net::TcpListener::bind("127.0.0.1:0")?.local_addr()?.port();
        let dir = data_dir.join(format!("node-{port}"));
        let child = Command::new(&bin)
            .arg("--data-dir")
            .arg(&dir)
            .args(["serve", "--host", "127.0.0.1", "--port", &port.to_string(), "--web-dir", "/nonexistent"])
            .args(["--fetch-enabled", "false", "--report-workers", "false", "--log-format", "text"])
            .args(["--max-connections-per-address", "0"])
            .env("DATABASE_URL", database_url)
            .env("NEEDL_TOKEN_SECRET", "bench-nodes-share-this-secret-of-32")
            .env("NEEDL_AUDIT_KEY", "24".repeat(32))
            .env("NEEDL_SIGNUPS_PER_HOUR", "100000")
            .env("RUST_LOG", "error")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .with_context(|| format!("starting {}", bin.display()))?;
        let node = Node { child, addr: SocketAddr::from(([127, 0, 0, 1], port)) };
        let client = reqwest::Client::new();
        let deadline = Instant::now() + Duration::from_secs(60);
        while client.get(format!("http://{}/readyz", node.addr)).send().await.is_err() {
            anyhow::ensure!(Instant::now() < deadline, "a node did not start");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        Ok(node)
    }

    /// The address of this node's live socket for `token`.
    fn live_url(&self, token: &str) -> String {
        format!("ws://{}/api/live?token={token}", self.addr)
    }

    fn resident_kib(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap_or_default();
        status
            .lines()
            .find(|l| l.starts_with("VmRSS:"))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|n| n.parse().ok())
            .unwrap_or(0)
    }
}

fn ms(h: &Histogram<u64>, q: f64) -> f64 {
    h.value_at_quantile(q) as f64 / 1000.0
}

pub async fn run(data_dir: &Path, args: &BenchArgs) -> anyhow::Result<()> {
    let scale = Scale::new(args.quick);
    raise_open_file_limit();
    let schema = format!("bench_nodes_{}", uuid::Uuid::new_v4().simple());
    let admin = sqlx::PgPool::connect(&args.postgres_url).await.context("connecting to --postgres-url")?;
    sqlx::query(&format!("CREATE SCHEMA {schema}")).execute(&admin).await?;
    let url = testkit::db::in_schema(&args.postgres_url, &schema);
    let work = data_dir.join(format!("bench-nodes-{}", uuid::Uuid::new_v4().simple()));
    std::fs::create_dir_all(&work)?;
    let mut result = measure(&work, &url, &scale).await;
    if result.is_ok() {
        result = postgres_restart(&work).await;
    }
    sqlx::query(&format!("DROP SCHEMA {schema} CASCADE")).execute(&admin).await?;
    let _ = std::fs::remove_dir_all(&work);
    result
}

async fn measure(work: &Path, url: &str, scale: &Scale) -> anyhow::Result<()> {
    let a = Node::start(work, url).await?;
    let b = Node::start(work, url).await?;
    let (on_a, on_b) = (Api::new(format!("http://{}", a.addr)), Api::new(format!("http://{}", b.addr)));
    let token =
        on_a.sign_up(&format!("nodes-{}", uuid::Uuid::new_v4().simple()), "nodes bench: amber ferry quilt 38").await?;
    let channel = shared_document(&on_a, &token).await?;

    for (label, targets) in [("one node", vec![on_a.clone()]), ("two nodes", vec![on_a.clone(), on_b.clone()])] {
        let (done, h) = reads(&targets, &token, &channel, scale).await?;
        println!(
            "reads (documents, search, channel items, profile), {} clients on {label}: {:.0} requests/s, p50 {:.2} ms, p99 {:.2} ms",
            scale.readers,
            done as f64 / scale.read_seconds as f64,
            ms(&h, 0.5),
            ms(&h, 0.99)
        );
    }

    let before = b.resident_kib();
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<(bool, String, Instant)>();
    let mut readers = Vec::with_capacity(scale.sockets);
    for i in 0..scale.sockets {
        // Half the sockets on the node that takes the writes, half on the other.
        let (node, remote) = if i % 2 == 0 { (&a, false) } else { (&b, true) };
        let url = node.live_url(&token);
        readers.push(
            crate::client::hear_preferences(&url, remote, tx.clone())
                .await
                .with_context(|| format!("opening socket {i}"))?,
        );
    }
    drop(tx);
    tokio::time::sleep(Duration::from_secs(1)).await;
    let per_socket = (b.resident_kib().saturating_sub(before)) as f64 / (scale.sockets / 2) as f64;

    // Back to back (a change every 50 ms: 200,000 deliveries a second over both nodes), then
    // spaced (every 500 ms), where each change's fan-out has the machine to itself.
    for (pace, pushes) in [(Duration::from_millis(50), scale.pushes), (Duration::from_millis(500), scale.pushes / 5)] {
        let (same, cross, received, expected) = deliveries(&on_a, &token, &mut rx, scale.sockets, pushes, pace).await?;
        println!(
            "write sent to socket, {} sockets over two nodes, a change every {} ms: same node p50 {:.2} ms, p99 {:.2} ms; other node p50 {:.2} ms, p99 {:.2} ms ({received} of {expected} deliveries)",
            scale.sockets,
            pace.as_millis(),
            ms(&same, 0.5),
            ms(&same, 0.99),
            ms(&cross, 0.5),
            ms(&cross, 0.99)
        );
    }
    println!("resident memory per idle socket: {per_socket:.1} KiB ({} sockets on one node)", scale.sockets / 2);
    for reader in readers {
        reader.abort();
    }
    // The last change above turned the flag off (an odd number of changes): turning it on is a
    // change the sockets hear.
    node_kill(a, &b, &on_b, &token, scale.failover_sockets).await
}

/// Makes `pushes` preference changes through `on_a`, `pace` apart, and times each socket's
/// hearing of each from the moment its write was sent: on the node that took the write and on
/// the other. Returns both histograms, the deliveries heard and those expected.
async fn deliveries(
    on_a: &Api,
    token: &str,
    rx: &mut tokio::sync::mpsc::UnboundedReceiver<(bool, String, Instant)>,
    sockets: usize,
    pushes: usize,
    pace: Duration,
) -> anyhow::Result<(Histogram<u64>, Histogram<u64>, usize, usize)> {
    let mut committed = std::collections::HashMap::new();
    for i in 0..pushes {
        let body = serde_json::json!({"askneedl_pro": i % 2 == 0});
        // From the moment the write is sent: a socket on the other node may hear the change
        // before the answer to the write is back.
        let at = Instant::now();
        let res = on_a
            .client
            .patch(format!("{}/api/user/preferences", on_a.base))
            .bearer_auth(token)
            .json(&body)
            .send()
            .await?;
        anyhow::ensure!(res.status().is_success(), "a preference change failed: {}", res.status());
        committed.insert(i, at);
        tokio::time::sleep(pace).await;
    }
    // Which change a message is, by the order each socket hears them: every socket hears every
    // change once, in commit order.
    let (mut same, mut cross) = (Histogram::<u64>::new(3)?, Histogram::<u64>::new(3)?);
    let mut heard: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    let mut order: Vec<String> = Vec::new();
    let expected = pushes * sockets;
    let mut received = 0;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    while received < expected {
        match tokio::time::timeout_at(deadline, rx.recv()).await {
            Ok(Some((remote, cursor, at))) => {
                received += 1;
                let index = match heard.get(&cursor) {
                    Some(i) => *i,
                    None => {
                        order.push(cursor.clone());
                        heard.insert(cursor, order.len() - 1);
                        order.len() - 1
                    }
                };
                if let Some(sent) = committed.get(&index) {
                    let micros = at.saturating_duration_since(*sent).as_micros() as u64;
                    if remote {
                        cross.record(micros)?
                    } else {
                        same.record(micros)?
                    }
                }
            }
            _ => break,
        }
    }
    Ok((same, cross, received, expected))
}

/// Kills node `a` (SIGKILL) under `sockets` live sockets held on it. Each client does what the
/// web app does: notices the close, opens a socket on the other node (retrying) and listens
/// there. Prints how soon after the kill the clients noticed, were connected again, and heard
/// the next change made on `b`.
async fn node_kill(mut a: Node, b: &Node, on_b: &Api, token: &str, sockets: usize) -> anyhow::Result<()> {
    let (url_a, url_b) = (a.live_url(token), b.live_url(token));
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<(usize, String, Instant)>();
    let mut clients = Vec::with_capacity(sockets);
    for i in 0..sockets {
        let on_a = crate::client::hear_preferences(&url_a, i, tx.clone()).await?;
        let (tx, url_b) = (tx.clone(), url_b.clone());
        clients.push(tokio::spawn(async move {
            let _ = on_a.await;
            let noticed = Instant::now();
            loop {
                match crate::client::hear_preferences(&url_b, i, tx.clone()).await {
                    Ok(on_b) => return (noticed, Instant::now(), on_b),
                    Err(_) => tokio::time::sleep(Duration::from_millis(50)).await,
                }
            }
        }));
    }
    drop(tx);
    let killed = Instant::now();
    a.child.kill()?;
    a.child.wait()?;
    let (mut noticed, mut connected) = (Histogram::<u64>::new(3)?, Histogram::<u64>::new(3)?);
    let mut readers = Vec::with_capacity(sockets);
    for client in clients {
        let (n, c, reader) =
            tokio::time::timeout(Duration::from_secs(60), client).await.context("a client reconnecting")??;
        noticed.record(n.saturating_duration_since(killed).as_micros() as u64)?;
        connected.record(c.saturating_duration_since(killed).as_micros() as u64)?;
        readers.push(reader);
    }
    on_b.call(reqwest::Method::PATCH, "/user/preferences", Some(token), serde_json::json!({"askneedl_pro": true}))
        .await?;
    let mut heard = Histogram::<u64>::new(3)?;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    while (heard.len() as usize) < sockets {
        match tokio::time::timeout_at(deadline, rx.recv()).await {
            Ok(Some((_, _, at))) => heard.record(at.saturating_duration_since(killed).as_micros() as u64)?,
            _ => break,
        }
    }
    println!(
        "node killed under {sockets} sockets: noticed p50 {:.0} ms, p99 {:.0} ms; connected to the other node p50 {:.0} ms, p99 {:.0} ms; its next change heard p50 {:.0} ms, p99 {:.0} ms after the kill ({} of {sockets})",
        ms(&noticed, 0.5),
        ms(&noticed, 0.99),
        ms(&connected, 0.5),
        ms(&connected, 0.99),
        ms(&heard, 0.5),
        ms(&heard, 0.99),
        heard.len()
    );
    for reader in readers {
        reader.abort();
    }
    Ok(())
}

/// Restarts a Postgres of the benchmark's own (initdb in a temporary folder) under two nodes and
/// prints how soon after it is back each node is ready, a write lands, and a socket kept on the
/// other node hears it.
async fn postgres_restart(work: &Path) -> anyhow::Result<()> {
    let Some(pg) = tokio::task::spawn_blocking(testkit::postgres::OwnPostgres::start).await? else {
        println!("Postgres restart: skipped (Postgres's server programs, initdb and pg_ctl, are not installed)");
        return Ok(());
    };
    let (a, b) = (Node::start(work, &pg.url()).await?, Node::start(work, &pg.url()).await?);
    let on_a = Api::new(format!("http://{}", a.addr));
    let token = on_a.sign_up("restart", "nodes bench: amber ferry quilt 38").await?;
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<((), String, Instant)>();
    let url_b = b.live_url(&token);
    let kept = crate::client::hear_preferences(&url_b, (), tx.clone()).await?;
    let pg = tokio::task::spawn_blocking(move || {
        pg.stop();
        std::thread::sleep(Duration::from_secs(2));
        pg.start_again();
        pg
    })
    .await?;
    let back = Instant::now();
    let client = reqwest::Client::new();
    let mut ready = Vec::new();
    for node in [&a, &b] {
        loop {
            let res = client.get(format!("http://{}/readyz", node.addr)).send().await;
            if res.is_ok_and(|r| r.status().is_success()) {
                break;
            }
            anyhow::ensure!(back.elapsed() < Duration::from_secs(60), "a node was not ready again");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        ready.push(back.elapsed());
    }
    let body = serde_json::json!({"askneedl_pro": true});
    while on_a.call(reqwest::Method::PATCH, "/user/preferences", Some(&token), body.clone()).await.is_err() {
        anyhow::ensure!(back.elapsed() < Duration::from_secs(60), "no write landed after the restart");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let written = back.elapsed();
    // The socket kept through the restart, or (when the node closed it) a new one.
    let heard = match tokio::time::timeout(Duration::from_secs(10), rx.recv()).await {
        Ok(Some(_)) => {
            format!("heard on the socket kept on the other node {:.0} ms after", back.elapsed().as_secs_f64() * 1000.0)
        }
        _ => "not heard on the socket kept on the other node within 10 s".to_string(),
    };
    println!(
        "Postgres restart under two nodes: ready again {:.0} ms and {:.0} ms after Postgres was back; first write landed {:.0} ms after, {heard}",
        ready[0].as_secs_f64() * 1000.0,
        ready[1].as_secs_f64() * 1000.0,
        written.as_secs_f64() * 1000.0,
    );
    kept.abort();
    drop(pg);
    Ok(())
}

/// Uploads a text file through `api` (the node's local storage), waits until it is extracted,
/// and shares it into a new channel; returns the channel's id, for the reads.
async fn shared_document(api: &Api, token: &str) -> anyhow::Result<String> {
    let text = "Quarterly results: revenue rose 12 percent on stronger refining margins.";
    let files = serde_json::json!([{"id": "bench-doc", "name": "results.txt", "size": text.len()}]);
    let init = api.post("/upload/init", token, serde_json::json!({"source": "needldrive", "files": files})).await?;
    let config = &init["upload_configs"][0];
    let link = config["upload_link"].as_str().context("an upload link")?;
    let url = if link.starts_with("http") { link.to_string() } else { format!("{}{link}", api.base) };
    let sent = api.client.put(url).body(text).send().await?;
    anyhow::ensure!(sent.status().is_success(), "the upload was refused: {}", sent.status());
    let fields = &config["metadata_fields"];
    let file = serde_json::json!({"bucket": fields["bucket"], "key": fields["key"], "metadata": {"id": config["id"]}});
    api.post("/upload/complete", token, serde_json::json!({"source": "needldrive", "files": [file]})).await?;
    let deadline = Instant::now() + Duration::from_secs(60);
    let deeplink = loop {
        let res =
            api.client.get(format!("{}/api/upload/status?ids=bench-doc", api.base)).bearer_auth(token).send().await?;
        let status: serde_json::Value = res.json().await?;
        let upload = &status["results"][0];
        match upload["status"].as_str() {
            Some("COMPLETED") => break upload["deeplink"].as_str().unwrap_or_default().to_string(),
            Some("FAILED") => anyhow::bail!("the benchmark's file failed: {upload}"),
            _ => {}
        }
        anyhow::ensure!(Instant::now() < deadline, "the benchmark's file was not extracted");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let created = api.post("/channels", token, serde_json::json!({"name": "Bench desk", "members": []})).await?;
    let channel = created["channel"]["id"].as_str().context("a channel id")?.to_string();
    api.post(&format!("/channels/{channel}/items"), token, serde_json::json!({"deeplink": deeplink})).await?;
    Ok(channel)
}

/// `scale.readers` clients, each calling the next target in turn, for `scale.read_seconds`.
async fn reads(targets: &[Api], token: &str, channel: &str, scale: &Scale) -> anyhow::Result<(u64, Histogram<u64>)> {
    let stop = Instant::now() + Duration::from_secs(scale.read_seconds);
    let mut tasks = Vec::new();
    for r in 0..scale.readers {
        let targets = targets.to_vec();
        let (token, channel) = (token.to_string(), channel.to_string());
        tasks.push(tokio::spawn(async move {
            let mut h = Histogram::<u64>::new(3)?;
            let mut i = r;
            while Instant::now() < stop {
                let api = &targets[i % targets.len()];
                let started = Instant::now();
                let request = match i % 4 {
                    0 => api.client.get(format!("{}/api/documents", api.base)),
                    1 => api.client.post(format!("{}/api/search", api.base)).json(&serde_json::json!({"q": "results"})),
                    2 => api.client.get(format!("{}/api/channels/{channel}/items", api.base)),
                    _ => api.client.get(format!("{}/api/user", api.base)),
                };
                let res = request.bearer_auth(&token).send().await?;
                anyhow::ensure!(res.status().is_success(), "a read failed: {}", res.status());
                res.bytes().await?;
                h.record(started.elapsed().as_micros() as u64)?;
                i += 1;
            }
            anyhow::Ok(h)
        }));
    }
    let mut all = Histogram::<u64>::new(3)?;
    for task in tasks {
        all.add(task.await??)?;
    }
    Ok((all.len(), all))
}

/// Raises this process's open-file limit to its hard limit: the sockets, and the nodes it starts
/// (which inherit it), need one descriptor each.
fn raise_open_file_limit() {
    use rustix::process::{getrlimit, setrlimit, Resource};
    let limit = getrlimit(Resource::Nofile);
    if limit.current < limit.maximum {
        let _ = setrlimit(Resource::Nofile, rustix::process::Rlimit { current: limit.maximum, maximum: limit.maximum });
    }
}
