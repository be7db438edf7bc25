//! The read policy as one table: for each kind of thing and each kind of viewer, whether the
//! viewer may read it. Every reader is asked the same question and must give the table's answer:
//! the SQL reads (opening the thing), the search index (finding it by a word only it holds) and
//! the assistant (retrieving it for a question). The rules themselves live in
//! `service/src/policy.rs`; this test is what holds its three forms together.

use crate::support::*;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Viewer {
    Owner,
    Member,
    FormerMember,
    Stranger,
    Admin,
    Auditor,
}

const VIEWERS: [Viewer; 6] =
    [Viewer::Owner, Viewer::Member, Viewer::FormerMember, Viewer::Stranger, Viewer::Admin, Viewer::Auditor];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Thing {
    /// A file the owner put in their drive.
    Upload,
    /// An item of a feed the owner follows.
    FollowedSource,
    /// An item of a public catalogue source (the owner follows it).
    PublicSource,
    /// The owner's upload, shared into a channel with the member (the former member was removed).
    ChannelItem,
    /// A note in the owner's notebook.
    Note,
    /// The owner's AskNeedl conversation.
    AskSession,
    /// The owner's upload, opened with its shared link's key.
    SharedLink,
}

const THINGS: [Thing; 7] = [
    Thing::Upload,
    Thing::FollowedSource,
    Thing::PublicSource,
    Thing::ChannelItem,
    Thing::Note,
    Thing::AskSession,
    Thing::SharedLink,
];

/// The policy: who may read what. Administrators and auditors have no reading rights of their
/// own; a shared link opens its document to anyone signed in.
fn may_read(thing: Thing, viewer: Viewer) -> bool {
    use Viewer::*;
    match thing {
        Thing::Upload | Thing::FollowedSource | Thing::Note | Thing::AskSession => viewer == Owner,
        Thing::PublicSource | Thing::SharedLink => true,
        Thing::ChannelItem => matches!(viewer, Owner | Member),
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reader {
    Sql,
    Search,
    Assistant,
}

/// A thing as the test made it: the id each reader finds it by, and the word only it holds.
struct Made {
    thing: Thing,
    id: String,
    word: &'static str,
    /// The document's source (for opening it), the channel (for channel items) or the shared
    /// link's key.
    source: String,
    channel: Option<String>,
    link_key: Option<String>,
}

struct World {
    tokens: Vec<(Viewer, String)>,
    made: Vec<Made>,
}

fn text_with(word: &str) -> String {
    format!("The {word} survey counted the animals twice.\n\nVolunteers said the {word} numbers held steady.")
}

async fn build(app: &TestApp) -> World {
    // The first account is the administrator.
    let admin = app.sign_up("policyadmin").await;
    let owner = app.sign_up("policyowner").await;
    let member = app.sign_up("policymember").await;
    let former = app.sign_up("policyformer").await;
    let stranger = app.sign_up("policystranger").await;
    let auditor = app.sign_up("policyauditor").await;
    let path = format!("/api/admin/users/{}/roles/auditor", auditor.id());
    let (status, body) = app.put_empty(&path, &admin.token).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let owner_id = owner.id().to_string();
    let mut made = Vec::new();

    let drive = "needldrive".to_string();
    ingest_text(app, "policy-upload", &drive, "Upload", &text_with("quokka"), Some(&owner_id)).await;
    made.push(Made {
        thing: Thing::Upload,
        id: "policy-upload".into(),
        word: "quokka",
        source: drive.clone(),
        channel: None,
        link_key: None,
    });

    let feed = follow_feed(app, &owner.token, "https://policy.example.com/feed.xml").await;
    ingest_text(app, "policy-followed", &feed, "Followed", &text_with("narwhal"), None).await;
    made.push(Made {
        thing: Thing::FollowedSource,
        id: "policy-followed".into(),
        word: "narwhal",
        source: feed,
        channel: None,
        link_key: None,
    });

    let (status, body) = app.post("/api/connect/public", &owner.token, json!({"key": "bse_filings"})).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let public = body["source_id"].as_str().unwrap().to_string();
    ingest_text(app, "policy-public", &public, "Public", &text_with("pangolin"), None).await;
    made.push(Made {
        thing: Thing::PublicSource,
        id: "policy-public".into(),
        word: "pangolin",
        source: public,
        channel: None,
        link_key: None,
    });

    ingest_text(app, "policy-shared", &drive, "Shared", &text_with("axolotl"), Some(&owner_id)).await;
    let channel = create_channel(app, &owner.token, "policy room", &[member.id(), former.id()]).await;
    let (status, body) =
        app.post(&format!("/api/channels/{channel}/items"), &owner.token, json!({"deeplink": "policy-shared"})).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let removal = format!("/api/channels/{channel}/users/{}", former.id());
    let (status, body) = app.delete(&removal, &owner.token).await;
    assert!(status.is_success(), "{status} {body}");
    made.push(Made {
        thing: Thing::ChannelItem,
        id: "policy-shared".into(),
        word: "axolotl",
        source: drive.clone(),
        channel: Some(channel),
        link_key: None,
    });

    let notebook = create_notebook(app, &owner.token, "Field notes").await;
    let note = create_note(app, &owner.token, &notebook, "Okapi", doc(&text_with("okapi"))).await;
    let note_id = note["noteId"].as_str().or_else(|| note["id"].as_str()).expect("the note's id").to_string();
    let head = commands::feed::newest_committed(&app.server.state.db).await.unwrap();
    assert!(app.server.state.search.wait_for(head, Duration::from_secs(20)).await, "the index has the note");
    made.push(Made { thing: Thing::Note, id: note_id, word: "okapi", source: notebook, channel: None, link_key: None });

    let (status, asked) =
        app.post("/api/ml/ask-needl", &owner.token, json!({"prompt": "tapir sightings", "stream": false})).await;
    assert_eq!(status, StatusCode::OK, "{asked}");
    made.push(Made {
        thing: Thing::AskSession,
        id: asked["session_id"].as_str().unwrap().to_string(),
        word: "tapir",
        source: String::new(),
        channel: None,
        link_key: None,
    });

    ingest_text(app, "policy-link", &drive, "Linked", &text_with("wombat"), Some(&owner_id)).await;
    let (status, opened) = app.get(&format!("/api/doc/{drive}?deeplink=policy-link&share=true"), &owner.token).await;
    assert_eq!(status, StatusCode::OK, "{opened}");
    made.push(Made {
        thing: Thing::SharedLink,
        id: "policy-link".into(),
        word: "wombat",
        source: drive,
        channel: None,
        link_key: Some(opened["results"][0]["public_access_key"].as_str().unwrap().to_string()),
    });

    let tokens = vec![
        (Viewer::Owner, owner.token),
        (Viewer::Member, member.token),
        (Viewer::FormerMember, former.token),
        (Viewer::Stranger, stranger.token),
        (Viewer::Admin, admin.token),
        (Viewer::Auditor, auditor.token),
    ];
    World { tokens, made }
}

/// Whether an answer names `id` among its results: readable means found.
fn names(results: &Value, id: &str) -> bool {
    results.as_array().is_some_and(|rows| rows.iter().any(|row| row.to_string().contains(id)))
}

/// Refusals are "not found", never a different error: a reader that cannot read a thing cannot
/// tell whether it exists.
fn found_or_not(status: StatusCode, body: &Value, what: &str) -> bool {
    match status {
        StatusCode::OK => true,
        StatusCode::NOT_FOUND => false,
        other => panic!("{what}: {other} {body}"),
    }
}

/// Asks `reader` whether the viewer with `token` can read `made`; `None` where the reader has no
/// way to reach that kind of thing (a shared link's key opens a document, it is no search scope).
async fn reads(app: &TestApp, token: &str, made: &Made, reader: Reader) -> Option<bool> {
    let id = made.id.as_str();
    let what = format!("{:?} by {reader:?}", made.thing);
    match (reader, made.thing) {
        (Reader::Sql, Thing::Note) => {
            let (status, body) = app.get(&format!("/api/note/{id}"), token).await;
            Some(found_or_not(status, &body, &what))
        }
        (Reader::Sql, Thing::AskSession) => {
            let (status, body) = app.get(&format!("/api/ml/ask-needl/sessions/{id}"), token).await;
            Some(found_or_not(status, &body, &what))
        }
        (Reader::Sql, _) => {
            let mut path = format!("/api/doc/{}?deeplink={id}", made.source);
            if let Some(key) = &made.link_key {
                path.push_str(&format!("&public_access_key={}", urlencode(key)));
            }
            let (status, body) = app.get(&path, token).await;
            Some(found_or_not(status, &body, &what))
        }
        (_, Thing::SharedLink) => None,
        (Reader::Search, Thing::AskSession) => {
            let (status, body) = app.get(&format!("/api/ml/ask-needl/sessions?q={}", made.word), token).await;
            assert_eq!(status, StatusCode::OK, "{what}: {body}");
            Some(names(&body["sessions"], id))
        }
        (Reader::Search, _) => {
            let mut query = json!({"q": made.word});
            if made.channel.is_some() {
                query["search_type"] = json!("shared_data");
            }
            let (status, body) = app.post("/api/search", token, query).await;
            assert_eq!(status, StatusCode::OK, "{what}: {body}");
            Some(names(&body["results"], id))
        }
        (Reader::Assistant, _) => {
            let mut question = json!({"prompt": format!("{} numbers", made.word), "mode": "search", "stream": false});
            if let Some(channel) = &made.channel {
                question["channel_id"] = json!(channel);
            }
            if made.thing == Thing::AskSession {
                question["session_id"] = json!(id);
            }
            let (status, body) = app.post("/api/ml/ask-needl", token, question).await;
            if !found_or_not(status, &body, &what) {
                return Some(false);
            }
            Some(if made.thing == Thing::AskSession { true } else { names(&body["retrieved_results"], id) })
        }
    }
}

api_test!(every_reader_answers_the_read_policy_the_same_way, |app: TestApp| async move {
    let app = &app;
    let world = build(app).await;
    let mut wrong = Vec::new();
    for made in &world.made {
        for (viewer, token) in &world.tokens {
            let expected = may_read(made.thing, *viewer);
            for reader in [Reader::Sql, Reader::Search, Reader::Assistant] {
                if let Some(got) = reads(app, token, made, reader).await {
                    if got != expected {
                        wrong.push(format!(
                            "{:?} / {viewer:?} / {reader:?}: read {got}, policy says {expected}",
                            made.thing
                        ));
                    }
                }
            }
        }
    }
    assert!(wrong.is_empty(), "readers disagree with the policy:\n{}", wrong.join("\n"));
    // The table covers every kind of thing and viewer, and some of each answer.
    assert_eq!(world.made.iter().map(|m| m.thing).collect::<Vec<_>>(), THINGS);
    assert_eq!(world.tokens.iter().map(|(v, _)| *v).collect::<Vec<_>>(), VIEWERS);
});
