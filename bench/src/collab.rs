//! `needl-bench --only collab`: a comment's delivery to every member of its channel while many
//! sockets are open, and how many tagging and commenting calls per second the server takes.
//!
//! Everything goes through the HTTP API and the live socket, the way browsers use them: users
//! sign up, owners create channels with their members and share an upload into each, every
//! member keeps one socket open, and a comment's delivery time runs from the moment its POST is
//! sent to the moment each member's socket receives the `CommentAdded` event.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use api::app::Server;
use api::config::ServeArgs;
use commands::Db;
use domain::document::{DocumentCommand, DocumentFields};
use domain::EventMetadata;
use futures::{SinkExt, StreamExt};
use hdrhistogram::Histogram;
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

use crate::client::Api;

struct Scale {
    channels: usize,
    members: usize,
    /// Comments whose delivery is timed, spread over the channels.
    comments: usize,
    /// Calls per throughput figure.
    calls: usize,
    clients: usize,
}

struct Member {
    token: String,
    id: String,
}

struct Channel {
    id: String,
    deeplink: String,
    /// Indexes into the member list.
    members: Vec<usize>,
}

pub async fn measure(backend: &str, db: Db, dir: &std::path::Path, quick: bool) -> anyhow::Result<()> {
    let scale = if quick {
        Scale { channels: 10, members: 10, comments: 40, calls: 200, clients: 8 }
    } else {
        Scale { channels: 50, members: 20, comments: 200, calls: 2000, clients: 16 }
    };
    // A thousand users' sockets all come from this one loopback address.
    let config = ServeArgs { max_connections_per_address: 0, ..ServeArgs::for_tests() };
    let server = Server::start_with(db, dir, config).await?;
    let api = Api::new(format!("http://{}", server.addr));
    let result = run(&server, &api, &scale).await;
    server.stop().await?;
    println!("[{backend}] {}", result?);
    Ok(())
}

async fn run(server: &Server, api: &Api, scale: &Scale) -> anyhow::Result<String> {
    let started = Instant::now();
    let members = sign_up(api, scale.channels * scale.members).await?;
    let channels = set_up_channels(server, api, &members, scale).await?;
    let setup = started.elapsed();

    // One socket per member. Live messages are thin (`{cursor, type, ids}`: sockets notify,
    // queries fetch), and a socket receives its events in order, so the k-th `CommentAdded` a
    // socket sees for a channel is the k-th timed comment of that channel.
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<(usize, Vec<String>, Instant)>();
    let mut readers = Vec::new();
    for (n, member) in members.iter().enumerate() {
        let url = format!("ws://{}/api/live?token={}", server.addr, member.token);
        let socket = crate::client::open_live(&url).await?;
        let tx = tx.clone();
        readers.push(tokio::spawn(async move {
            let (mut write, mut read) = socket.split();
            while let Some(Ok(message)) = read.next().await {
                let at = Instant::now();
                match message {
                    Message::Text(text) => {
                        let Ok(event) = serde_json::from_str::<Value>(&text) else { continue };
                        if event["type"] == "CommentAdded" {
                            let ids = event["ids"].as_array().into_iter().flatten();
                            let _ = tx.send((n, ids.filter_map(|i| i.as_str().map(str::to_string)).collect(), at));
                        }
                    }
                    Message::Ping(data) => {
                        let _ = write.send(Message::Pong(data)).await;
                    }
                    _ => {}
                }
            }
        }));
    }
    drop(tx);
    let sockets = readers.len();

    // Timed comments, one at a time, round-robin over the channels.
    let mut sent: HashMap<&str, Vec<Instant>> = HashMap::new();
    for i in 0..scale.comments {
        let channel = &channels[i % channels.len()];
        let author = &members[channel.members[i % channel.members.len()]];
        let at = Instant::now();
        let path = format!("/channels/{}/comments/{}", channel.id, channel.deeplink);
        api.post(&path, &author.token, json!({"comment": format!("timed comment {i}")})).await?;
        sent.entry(channel.id.as_str()).or_default().push(at);
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let expected = scale.comments * scale.members;
    let mut seen: HashMap<(usize, String), usize> = HashMap::new();
    let mut delivery = Histogram::<u64>::new(3)?;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    while (delivery.len() as usize) < expected {
        match tokio::time::timeout_at(deadline, rx.recv()).await {
            Ok(Some((socket, ids, at))) => {
                let Some((channel, times)) = ids.iter().find_map(|id| sent.get_key_value(id.as_str())) else {
                    continue;
                };
                let k = seen.entry((socket, channel.to_string())).or_default();
                if let Some(sent_at) = times.get(*k) {
                    delivery.record(at.saturating_duration_since(*sent_at).as_micros().max(1) as u64)?;
                }
                *k += 1;
            }
            _ => break,
        }
    }

    // Throughput with the sockets still open: comments, then tags (a tag put on and taken off).
    let commenting = throughput(scale, {
        let (api, channels, members) = (api.clone(), Arc::new(channels_summary(&channels)), Arc::new(tokens(&members)));
        move |i| {
            let (api, channels, members) = (api.clone(), channels.clone(), members.clone());
            async move {
                let (id, deeplink, member) = &channels[i % channels.len()];
                let token = &members[member[i % member.len()]];
                api.post(&format!("/channels/{id}/comments/{deeplink}"), token, json!({"comment": format!("load {i}")}))
                    .await
                    .map(|_| ())
            }
        }
    })
    .await?;
    let tags = Arc::new(create_tags(api, &members).await?);
    let tagging = throughput(scale, {
        let (api, channels, members) = (api.clone(), Arc::new(channels_summary(&channels)), Arc::new(tokens(&members)));
        move |i| {
            let (api, channels, members, tags) = (api.clone(), channels.clone(), members.clone(), tags.clone());
            async move {
                let (_, deeplink, member) = &channels[i % channels.len()];
                // Round by round over the channels: a member's tag goes on the channel's document in
                // one round and the same member takes it off in the next, so every call changes
                // something (one event each, as a comment is).
                let round = i / channels.len();
                let who = member[(round / 2) % member.len()];
                let set = if round % 2 == 0 { vec![tags[who].clone()] } else { vec![] };
                api.post(&format!("/tag/{deeplink}"), &members[who], json!({"tags": set})).await.map(|_| ())
            }
        }
    })
    .await?;
    for reader in readers {
        reader.abort();
    }
    Ok(format!(
        "collaboration: {} channels x {} members ({sockets} sockets; set-up {:.1} s)\n  \
         comment delivery to every member: p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms ({} of {expected} deliveries)\n  \
         commenting: {commenting:.0} calls/s; tagging: {tagging:.0} calls/s ({} clients, {} calls each figure)",
        scale.channels,
        scale.members,
        setup.as_secs_f64(),
        delivery.value_at_quantile(0.5) as f64 / 1000.0,
        delivery.value_at_quantile(0.99) as f64 / 1000.0,
        delivery.max() as f64 / 1000.0,
        delivery.len(),
        scale.clients,
        scale.calls,
    ))
}

fn channels_summary(channels: &[Channel]) -> Vec<(String, String, Vec<usize>)> {
    channels.iter().map(|c| (c.id.clone(), c.deeplink.clone(), c.members.clone())).collect()
}

fn tokens(members: &[Member]) -> Vec<String> {
    members.iter().map(|m| m.token.clone()).collect()
}

/// Signs `count` users up, a few at a time (password hashing is slow on purpose).
async fn sign_up(api: &Api, count: usize) -> anyhow::Result<Vec<Member>> {
    let run = uuid::Uuid::new_v4().simple().to_string();
    let signed: Vec<anyhow::Result<Member>> = futures::stream::iter(0..count)
        .map(|i| {
            let (api, run) = (api.clone(), run.clone());
            async move {
                let body = json!({
                    "email": format!("member-{i}-{}@example.com", &run[..8]),
                    "password": "collab bench: plum kettle orbit 97",
                    "username": format!("member{i}"),
                });
                let answer = api.call(reqwest::Method::POST, "/auth/signup", None, body).await?;
                Ok(Member {
                    token: answer["token"].as_str().unwrap_or_default().to_string(),
                    id: answer["user"]["id"].as_str().unwrap_or_default().to_string(),
                })
            }
        })
        .buffered(8)
        .collect()
        .await;
    signed.into_iter().collect()
}

/// Channels of `scale.members` members each (the first is the owner), with an upload of the
/// owner's shared into each.
async fn set_up_channels(
    server: &Server,
    api: &Api,
    members: &[Member],
    scale: &Scale,
) -> anyhow::Result<Vec<Channel>> {
    let mut channels = Vec::new();
    for c in 0..scale.channels {
        let indexes: Vec<usize> = (c * scale.members..(c + 1) * scale.members).collect();
        let owner = &members[indexes[0]];
        let others: Vec<&str> = indexes[1..].iter().map(|&i| members[i].id.as_str()).collect();
        let name = format!("bench {} {c}", &uuid::Uuid::new_v4().simple().to_string()[..8]);
        let created = api.post("/channels", &owner.token, json!({"name": name, "members": others})).await?;
        let id = created["channel"]["id"].as_str().unwrap_or_default().to_string();
        let deeplink = format!("bench-upload-{}", uuid::Uuid::new_v4().simple());
        let fields = DocumentFields {
            source_id: service::drive::DRIVE_SOURCE.to_string(),
            guid: deeplink.clone(),
            title: format!("Quarterly notes {c}"),
            content_hash: format!("hash-{deeplink}"),
            owner: Some(owner.id.clone()),
            ..Default::default()
        };
        let bus = server.state.bus.clone();
        let cursor = bus
            .execute(
                &bus.documents,
                &deeplink,
                DocumentCommand::Ingest(fields),
                &EventMetadata::system("bench", "collab"),
            )
            .await
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        server.state.settle(cursor).await;
        api.post(&format!("/channels/{id}/items"), &owner.token, json!({"deeplink": deeplink})).await?;
        channels.push(Channel { id, deeplink, members: indexes });
    }
    Ok(channels)
}

/// One tag per member, for the tagging figure.
async fn create_tags(api: &Api, members: &[Member]) -> anyhow::Result<Vec<String>> {
    let mut tags = Vec::with_capacity(members.len());
    for member in members {
        let answer = api.post("/tag", &member.token, json!({"tag": "Bench"})).await?;
        tags.push(answer["results"]["id"].as_str().unwrap_or_default().to_string());
    }
    Ok(tags)
}

/// Calls per second for `scale.calls` calls of `f` from `scale.clients` concurrent clients.
async fn throughput<F, Fut>(scale: &Scale, f: F) -> anyhow::Result<f64>
where
    F: Fn(usize) -> Fut + Clone + Send + 'static,
    Fut: std::future::Future<Output = anyhow::Result<()>> + Send,
{
    let failures = Arc::new(Mutex::new(None));
    let started = Instant::now();
    let mut tasks = Vec::new();
    for c in 0..scale.clients {
        let (f, failures, total, clients) = (f.clone(), failures.clone(), scale.calls, scale.clients);
        tasks.push(tokio::spawn(async move {
            let mut i = c;
            while i < total {
                if let Err(e) = f(i).await {
                    failures.lock().unwrap().get_or_insert(e);
                    return;
                }
                i += clients;
            }
        }));
    }
    for task in tasks {
        task.await?;
    }
    if let Some(e) = failures.lock().unwrap().take() {
        return Err(e);
    }
    Ok(scale.calls as f64 / started.elapsed().as_secs_f64())
}
