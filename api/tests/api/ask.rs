//! AskNeedl over HTTP: answers streamed as server-sent events with citations, the sessions they
//! make, feedback, scopes that must be readable, and turns stopped by a new question or a client
//! that went away.

use crate::support::*;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use testkit::http::read_request;
use tokio::io::AsyncWriteExt;

const STEEL: &str = "The United States imposed a 25 percent tariff on imported steel in March 2018, citing national \
security.\n\nCarmakers warned that the steel duties would raise vehicle prices. Ford said the tariffs cost the \
company about one billion dollars in higher metal costs.";
const WHEAT: &str = "Wheat harvests in Kansas were smaller this year because of a long drought.\n\nFarmers \
planted more sorghum, which needs less water than wheat.";
const COFFEE: &str = "Coffee prices climbed after frost damaged plantations in Brazil.";

/// A streamed ask: the answer's status, its `{status, data}` events in order, and the ids its
/// headers carry.
struct Asked {
    status: StatusCode,
    events: Vec<Value>,
    /// The error body when the request was refused.
    error: Value,
    session_id: Option<String>,
}

impl Asked {
    fn statuses(&self) -> Vec<&str> {
        self.events.iter().map(|e| e["status"].as_str().unwrap()).collect()
    }

    fn done(&self) -> &Value {
        let last = self.events.last().expect("some event");
        assert_eq!(last["status"], "DONE", "{:?}", self.events);
        &last["data"]
    }
}

/// Reads server-sent events from `res` until the stream ends or `until` says stop; returns the
/// events' data as JSON.
async fn read_events(res: &mut reqwest::Response, until: impl Fn(&[Value]) -> bool) -> Vec<Value> {
    let mut buffer = String::new();
    let mut events = Vec::new();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    loop {
        let chunk = tokio::time::timeout_at(deadline, res.chunk()).await.expect("the stream ends in time").unwrap();
        let Some(chunk) = chunk else { break };
        buffer.push_str(&String::from_utf8_lossy(&chunk));
        while let Some(end) = buffer.find("\n\n") {
            let block: String = buffer.drain(..end + 2).collect();
            let data: Vec<&str> = block.lines().filter_map(|l| l.strip_prefix("data:")).map(str::trim_start).collect();
            if !data.is_empty() {
                events.push(serde_json::from_str(&data.join("\n")).unwrap());
            }
        }
        if until(&events) {
            break;
        }
    }
    events
}

async fn start_ask(app: &TestApp, token: &str, body: Value) -> reqwest::Response {
    app.client
        .post(app.url("/api/ml/ask-needl"))
        .header("token", token)
        .header("app-type", "web")
        .header("x-request-origin", "/ask-needl/full")
        .json(&body)
        .send()
        .await
        .unwrap()
}

async fn ask(app: &TestApp, token: &str, body: Value) -> Asked {
    let mut res = start_ask(app, token, body).await;
    let status = res.status();
    let session_id = res.headers().get("x-session-id").map(|v| v.to_str().unwrap().to_string());
    if status != StatusCode::OK {
        return Asked { status, events: vec![], error: res.json().await.unwrap_or(Value::Null), session_id };
    }
    let events = read_events(&mut res, |_| false).await;
    Asked { status, events, error: Value::Null, session_id }
}

async fn session_of(app: &TestApp, token: &str, id: &str) -> (StatusCode, Value) {
    app.get(&format!("/api/ml/ask-needl/sessions/{id}"), token).await
}

fn cited_documents(done: &Value) -> Vec<String> {
    done["retrieved_results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["document_id"].as_str().unwrap().to_string())
        .collect()
}

api_test!(
    an_answer_streams_steps_chunks_and_done_with_citations_and_is_kept_in_its_session,
    |app: TestApp| async move {
        let app = &app;
        let s = app.sign_up("asker").await;
        let feed = follow_feed(app, &s.token, "https://metals.example.com/feed.xml").await;
        ingest_text(app, "steel-1", &feed, "Steel tariffs raise costs for carmakers", STEEL, None).await;
        ingest_text(app, "wheat-1", &feed, "Drought shrinks the wheat harvest", WHEAT, None).await;
        ingest_text(app, "coffee-1", &feed, "Coffee climbs", COFFEE, None).await;
        let mut live = app.connect_live(&s.token, None).await;

        let prompt = "What tariff did the United States impose on imported steel?";
        let asked = ask(app, &s.token, json!({"prompt": prompt, "stream": true, "timezone": "Europe/London"})).await;
        assert_eq!(asked.status, StatusCode::OK, "{}", asked.error);
        let statuses = asked.statuses();
        assert_eq!(statuses[0], "INTERMEDIATE_STEP", "{statuses:?}");
        let first_chunk = statuses.iter().position(|s| *s == "GENERATED_ANSWER").expect("answer chunks");
        assert!(statuses[..first_chunk].iter().all(|s| *s == "INTERMEDIATE_STEP"), "{statuses:?}");
        assert_eq!(statuses.last(), Some(&"DONE"));
        let chunks: String = asked
            .events
            .iter()
            .filter(|e| e["status"] == "GENERATED_ANSWER")
            .map(|e| e["data"]["generated_answer"]["answer_chunk"].as_str().unwrap())
            .collect();
        let done = asked.done();
        assert_eq!(done["answer_type"], "ANSWER");
        assert_eq!(chunks, done["generated_answer"]["answer"].as_str().unwrap(), "the chunks make the answer");
        assert!(chunks.contains("25 percent"), "{chunks}");
        let session_id = done["session_id"].as_str().unwrap().to_string();
        let message_id = done["message_id"].as_str().unwrap().to_string();
        assert_eq!(asked.session_id.as_deref(), Some(session_id.as_str()));
        let cited = cited_documents(done);
        assert_eq!(cited[0], "steel-1", "{done}");
        let sentence = &done["generated_answer"]["sentences"][0];
        let n = sentence["citations"][0].as_u64().unwrap() as usize;
        assert_eq!(done["retrieved_results"][n - 1]["document_id"], "steel-1", "{sentence}");
        let citation = &done["retrieved_results"][0];
        assert!(citation["access_key"].as_str().is_some_and(|k| !k.is_empty()));
        assert_eq!(citation["source_label"], "metals.example.com");
        assert_eq!(citation["url"], "https://example.com/steel-1");
        assert_eq!(citation["title_label"], "Steel tariffs raise costs for carmakers");
        let link = citation["needl_document_link"].as_str().unwrap();
        assert!(link.starts_with("/preview?document_id=steel-1&access_key="), "{link}");
        assert!(["HIGH", "LOW", "GENERATIVE"].contains(&done["answer_quality"].as_str().unwrap()));
        assert!(done["followup_questions"].is_array());
        assert_eq!(done["pro"], false);
        let pushed = next_of_type(&mut live, "AnswerCompleted").await;
        assert!(pushed["ids"].as_array().unwrap().iter().any(|id| id == session_id.as_str()), "{pushed}");

        // The session lists and reads back with the question and the answer.
        let (status, list) = app.get("/api/ml/ask-needl/sessions", &s.token).await;
        assert_eq!(status, StatusCode::OK, "{list}");
        assert_eq!(list["sessions"][0]["id"], session_id.as_str());
        assert_eq!(list["sessions"][0]["title"], prompt);
        assert_eq!(list["sessions"][0]["message_count"], 1);
        let (status, session) = session_of(app, &s.token, &session_id).await;
        assert_eq!(status, StatusCode::OK, "{session}");
        let message = &session["messages"][0];
        assert_eq!((message["prompt"].as_str(), message["status"].as_str()), (Some(prompt), Some("COMPLETED")));
        assert_eq!(message["message_id"], message_id.as_str());
        assert_eq!(message["answer"], *done, "the record is what DONE said");
        assert_eq!(session["state"]["currentFeedOrDocumentId"], "home");
        assert_eq!(session["state"]["messages"][1]["data"]["message_id"], message_id.as_str());

        // A follow-up in the same session, then search mode.
        let asked =
            ask(app, &s.token, json!({"prompt": "Why did wheat harvests shrink?", "session_id": session_id})).await;
        assert_eq!(asked.done()["session_id"], session_id.as_str());
        assert_eq!(cited_documents(asked.done())[0], "wheat-1");
        let searched = ask(app, &s.token, json!({"prompt": "coffee frost", "mode": "search", "board_id": feed})).await;
        let done = searched.done();
        assert_eq!(done["answer_type"], "SEARCH");
        assert_eq!(cited_documents(done), vec!["coffee-1"]);
        assert!(done["retrieved_results"][0]["highlights"][0].as_str().unwrap().contains("<em>"), "{done}");

        // Feedback is recorded; the spec's values only.
        let (status, body) = app
            .post("/api/ml/ask-needl/feedback", &s.token, json!({"feedback": "CORRECT", "messageId": message_id}))
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(body["message"], "Thanks for your feedback!");
        let (status, _) = app
            .post("/api/ml/ask-needl/feedback", &s.token, json!({"feedback": "MAYBE", "message_id": message_id}))
            .await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        let (_, session) = session_of(app, &s.token, &session_id).await;
        assert_eq!(session["messages"][0]["feedback"], "CORRECT");
        assert_eq!(session["messages"].as_array().unwrap().len(), 2, "search mode started a session of its own");
        assert_eq!(
            event_types(app, "ask_session", &session_id).await.iter().filter(|t| *t == "FeedbackGiven").count(),
            1
        );

        // Renamed, and found by title or by question.
        let (status, renamed) = app
            .put(
                &format!("/api/ml/ask-needl/sessions/{session_id}"),
                &s.token,
                json!({"title": " Steel  and wheat ", "state": {"messages": []}}),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{renamed}");
        assert_eq!(renamed["title"], "Steel and wheat");
        for (q, found) in [("WHEAT", 1), ("harvests", 1), ("50%", 0), ("lumber", 0)] {
            let (_, list) = app.get(&format!("/api/ml/ask-needl/sessions?q={q}"), &s.token).await;
            assert_eq!(list["sessions"].as_array().unwrap().len(), found, "{q}: {list}");
        }

        // The conversation saves as a note in the assistant's notebook.
        let (status, notebook) = app.put("/api/notebook?botNotebook=true", &s.token, json!({})).await;
        assert_eq!(status, StatusCode::OK, "{notebook}");
        let notebook_id = notebook["results"]["notebookId"].as_str().unwrap();
        let conversation = json!({"type": "doc", "content": [
        {"type": "paragraph", "content": [{"type": "text", "text": prompt}]},
        {"type": "paragraph", "content": [{"type": "text", "text": chunks}]}]});
        let (status, note) = app
            .post(
                &format!("/api/note/snip/{notebook_id}"),
                &s.token,
                json!({"name": "Steel and wheat", "document": conversation,
                   "source": {"title": "AskNeedl", "link": format!("/ask-needl/full?sessionId={session_id}")}}),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{note}");

        // Suggested questions: the spec's counts.
        let (status, suggestions) = app.get("/api/ml/ask-needl/messaging", &s.token).await;
        assert_eq!(status, StatusCode::OK);
        let results = &suggestions["results"];
        assert_eq!(
            (results["all"].as_array().unwrap().len(), results["feed"].as_array().unwrap().len()),
            (4, 2),
            "{results}"
        );
        assert_eq!(results["document"], json!([]));

        // Another user can neither read, rename nor judge the session.
        let other = app.sign_up("other").await;
        let (status, _) = session_of(app, &other.token, &session_id).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        let (status, _) =
            app.put(&format!("/api/ml/ask-needl/sessions/{session_id}"), &other.token, json!({"title": "mine"})).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        let (status, _) = app
            .post(
                "/api/ml/ask-needl/feedback",
                &other.token,
                json!({"feedback": "INCORRECT", "message_id": message_id}),
            )
            .await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        let asked = ask(app, &other.token, json!({"prompt": "steel?", "session_id": session_id})).await;
        assert_eq!(asked.status, StatusCode::NOT_FOUND);
        let (_, theirs) = app.get("/api/ml/ask-needl/sessions", &other.token).await;
        assert_eq!(theirs["sessions"], json!([]));
        let (_, session) = session_of(app, &s.token, &session_id).await;
        assert_eq!(session["title"], "Steel and wheat");
    }
);

api_test!(questions_reach_only_what_the_asker_may_read_and_refusals_write_nothing, |app: TestApp| async move {
    let app = &app;
    let owner = app.sign_up("owner").await;
    let owner_id = owner.id().to_string();
    let stranger = app.sign_up("stranger").await;
    let secret = "Project Zephyr is the planned merger of Harbor Foods with Acme Mills, closing in May.";
    ingest_text(app, "secret-1", "needldrive", "Zephyr memo", secret, Some(&owner_id)).await;
    let feed = follow_feed(app, &stranger.token, "https://news.example.com/feed.xml").await;
    ingest_text(
        app,
        "public-1",
        &feed,
        "Mills and mergers",
        "Acme Mills reported flat sales for the merger year.",
        None,
    )
    .await;

    for body in [
        json!({"prompt": "What is Project Zephyr, the merger of Harbor Foods?"}),
        json!({"prompt": "What is Project Zephyr, the merger of Harbor Foods?", "source": "needl_universe"}),
        json!({"prompt": "Project Zephyr merger Harbor Foods Acme", "web_search": true, "mode": "search"}),
    ] {
        let asked = ask(app, &stranger.token, body.clone()).await;
        assert_eq!(asked.status, StatusCode::OK, "{body}: {}", asked.error);
        let done = asked.done();
        assert!(!cited_documents(done).contains(&"secret-1".to_string()), "{body}: {done}");
        let text = serde_json::to_string(&asked.events).unwrap();
        assert!(!text.contains("Zephyr is the planned"), "{body}: {text}");
    }
    let asked = ask(app, &owner.token, json!({"prompt": "What is Project Zephyr?"})).await;
    assert_eq!(cited_documents(asked.done())[0], "secret-1", "the owner reaches their own upload");
    let asked = ask(app, &owner.token, json!({"prompt": "What is Project Zephyr?", "document_id": "secret-1"})).await;
    assert_eq!(cited_documents(asked.done()), vec!["secret-1"]);
    let (_, before) = app.get("/api/ml/ask-needl/sessions", &stranger.token).await;
    let sessions_before = before["sessions"].as_array().unwrap().len();

    // Refusals, each before anything is recorded.
    let channel = create_channel(app, &owner.token, "Deals", &[]).await;
    let asked = ask(app, &stranger.token, json!({"prompt": "Zephyr?", "channel_id": channel})).await;
    assert_eq!(asked.status, StatusCode::NOT_FOUND, "{}", asked.error);
    let asked = ask(app, &stranger.token, json!({"prompt": "Zephyr?", "document_id": ["public-1", "secret-1"]})).await;
    assert_eq!(asked.status, StatusCode::NOT_FOUND, "{}", asked.error);
    let asked = ask(app, &stranger.token, json!({"prompt": "  "})).await;
    assert_eq!(asked.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        (asked.error["code"].as_str(), asked.error["message"].as_str()),
        (Some("prompt_required"), Some("The prompt is required"))
    );
    let asked = ask(app, &stranger.token, json!({"prompt": "x".repeat(4001)})).await;
    assert_eq!(asked.error["code"], "prompt_too_long");
    let asked = ask(app, &stranger.token, json!({"prompt": "Zephyr?", "source": "rss_nobody_follows"})).await;
    assert_eq!((asked.status, asked.error["code"].as_str()), (StatusCode::BAD_REQUEST, Some("unknown_scope")));
    let asked = ask(app, &stranger.token, json!({"prompt": "Zephyr?", "mode": "poem"})).await;
    assert_eq!(asked.status, StatusCode::BAD_REQUEST);
    let asked = ask(app, &stranger.token, json!({"prompt": "Zephyr?", "session_id": "no-such-session"})).await;
    assert_eq!(asked.status, StatusCode::NOT_FOUND);
    let (_, after) = app.get("/api/ml/ask-needl/sessions", &stranger.token).await;
    assert_eq!(after["sessions"].as_array().unwrap().len(), sessions_before, "nothing half-written: {after}");

    // The public corpus can be turned off per user.
    let state = &app.server.state;
    state
        .command(
            &state.bus.users,
            stranger.id(),
            domain::user::UserCommand::SetFeatureFlag {
                flag: "ask_needl_dataset_selection_needl_universe".into(),
                value: "off".into(),
            },
            &domain::EventMetadata::system("test", "r"),
        )
        .await
        .unwrap();
    let asked = ask(app, &stranger.token, json!({"prompt": "mills", "source": "needl_universe"})).await;
    assert_eq!(asked.status, StatusCode::FORBIDDEN);
});

/// What the fake chat-completions server does with one connection.
#[derive(Clone)]
enum Reply {
    /// Streams these pieces, then ends.
    Answer(Vec<&'static str>),
    /// Streams these pieces, then holds the connection open without a word.
    Stall(Vec<&'static str>),
}

fn sse_piece(piece: &str) -> String {
    let data = json!({"choices": [{"index": 0, "delta": {"content": piece}}]});
    let event = format!("data: {data}\n\n");
    format!("{:x}\r\n{event}\r\n", event.len())
}

/// A chat-completions server on port 0: the n-th connection gets `replies[n]` (the last one once
/// they run out). Returns its base URL and how many requests it has had.
async fn fake_engine(replies: Vec<Reply>) -> (String, Arc<AtomicUsize>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/v1", listener.local_addr().unwrap());
    let seen = Arc::new(AtomicUsize::new(0));
    let count = seen.clone();
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            let n = count.fetch_add(1, Ordering::SeqCst);
            let reply = replies[n.min(replies.len() - 1)].clone();
            tokio::spawn(async move {
                if read_request(&mut socket).await.is_empty() {
                    return;
                }
                let head = "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n";
                let _ = socket.write_all(head.as_bytes()).await;
                let (pieces, stall) = match reply {
                    Reply::Answer(p) => (p, false),
                    Reply::Stall(p) => (p, true),
                };
                for piece in pieces {
                    let _ = socket.write_all(sse_piece(piece).as_bytes()).await;
                    let _ = socket.flush().await;
                }
                if stall {
                    tokio::time::sleep(Duration::from_secs(60)).await;
                    return;
                }
                let done = "data: [DONE]\n\n";
                let _ = socket.write_all(format!("{:x}\r\n{done}\r\n0\r\n\r\n", done.len()).as_bytes()).await;
                let _ = socket.shutdown().await;
            });
        }
    });
    (url, seen)
}

/// Waits until `seen` requests have reached the fake engine.
async fn engine_reached(seen: &AtomicUsize, want: usize) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    while seen.load(Ordering::SeqCst) < want {
        assert!(tokio::time::Instant::now() < deadline, "the engine was never asked");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Waits until the session's message `index` has `status`.
async fn message_status(app: &TestApp, token: &str, session_id: &str, index: usize, status: &str) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    loop {
        let (_, session) = session_of(app, token, session_id).await;
        if session["messages"][index]["status"] == status {
            return;
        }
        assert!(tokio::time::Instant::now() < deadline, "message {index} never became {status}: {session}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

macro_rules! engine_test {
    ($name:ident, $body:expr) => {
        mod $name {
            use super::*;
            async fn run(backend: Backend) {
                let answer = vec!["The United States imposed a 25 percent ", "tariff on imported steel in 2018 [1]."];
                let stall = vec!["The United States imposed "];
                let replies = vec![
                    Reply::Answer(answer.clone()),
                    Reply::Stall(stall.clone()),
                    Reply::Answer(answer.clone()),
                    Reply::Stall(stall),
                    Reply::Answer(answer),
                ];
                let (url, seen) = fake_engine(replies).await;
                let mut config = ServeArgs::for_tests();
                config.assistant_url = Some(url);
                config.assistant_model = "tiny".into();
                let app = spawn_app_with(backend, config).await;
                ($body)(app, seen).await;
            }
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn on_sqlite() {
                run(Backend::Sqlite).await;
            }
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn on_postgres() {
                run(Backend::Postgres).await;
            }
        }
    };
}

engine_test!(
    a_chat_completions_engine_answers_and_stopped_turns_are_recorded_as_stopped,
    |app: TestApp, seen: Arc<AtomicUsize>| async move {
        let app = &app;
        let s = app.sign_up("engine").await;
        let feed = follow_feed(app, &s.token, "https://metals.example.com/feed.xml").await;
        ingest_text(app, "steel-1", &feed, "Steel tariffs raise costs for carmakers", STEEL, None).await;

        // The engine's answer streams through, its citation checked against the passage.
        let asked = ask(app, &s.token, json!({"prompt": "What tariff did the United States impose on steel?"})).await;
        assert_eq!(asked.status, StatusCode::OK, "{}", asked.error);
        let done = asked.done();
        assert!(done["generated_answer"]["answer"].as_str().unwrap().contains("25 percent tariff"), "{done}");
        assert_eq!(cited_documents(done)[0], "steel-1");
        assert_eq!(done["generated_answer"]["sentences"][0]["citations"], json!([1]));
        let session_id = done["session_id"].as_str().unwrap().to_string();

        // A second question stalls; a third in the same session stops it.
        let mut stalled =
            start_ask(app, &s.token, json!({"prompt": "And the duties?", "session_id": session_id})).await;
        assert_eq!(stalled.status(), StatusCode::OK);
        engine_reached(&seen, 2).await;
        message_status(app, &s.token, &session_id, 1, "RUNNING").await;
        let asked = ask(app, &s.token, json!({"prompt": "What did Ford say?", "session_id": session_id})).await;
        assert_eq!(asked.done()["session_id"], session_id.as_str());
        message_status(app, &s.token, &session_id, 1, "STOPPED").await;
        message_status(app, &s.token, &session_id, 2, "COMPLETED").await;
        let rest = read_events(&mut stalled, |_| false).await;
        assert!(rest.iter().all(|e| e["status"] != "DONE"), "the stopped turn never finishes: {rest:?}");

        // A client that goes away stops its turn.
        let mut dropped = start_ask(app, &s.token, json!({"prompt": "Steel again?"})).await;
        let dropped_session = dropped.headers()["x-session-id"].to_str().unwrap().to_string();
        read_events(&mut dropped, |events| events.iter().any(|e| e["status"] == "INTERMEDIATE_STEP")).await;
        engine_reached(&seen, 4).await;
        drop(dropped);
        message_status(app, &s.token, &dropped_session, 0, "STOPPED").await;
        let types = event_types(app, "ask_session", &dropped_session).await;
        assert_eq!(types, ["SessionTitled", "QuestionAsked", "AnswerStopped"]);
    }
);

api_test!(asking_over_a_custom_feed_reaches_only_what_the_feed_matches, |app: TestApp| async move {
    let app = &app;
    let s = app.sign_up("asker").await;
    let feed = follow_feed(app, &s.token, "https://metals.example.com/feed.xml").await;
    ingest_text(app, "steel-1", &feed, "Steel tariffs raise costs for carmakers", STEEL, None).await;
    ingest_text(app, "wheat-1", &feed, "Drought shrinks the wheat harvest", WHEAT, None).await;
    let (status, board) = app
        .post(
            "/api/boards/v2",
            &s.token,
            json!({"definition": {"name": "Harvests", "keywords": {"include": [{"keyword": "wheat OR harvest"}]}}}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{board}");
    let board_id = board["results"]["board_id"].as_str().unwrap();
    let prompt = "What tariff did the United States impose on imported steel?";
    let asked = ask(app, &s.token, json!({"prompt": prompt, "board_id": board_id, "timezone": "Europe/London"})).await;
    assert_eq!(asked.status, StatusCode::OK, "{}", asked.error);
    let cited = cited_documents(asked.done());
    assert!(!cited.contains(&"steel-1".to_string()), "the steel item is outside the feed: {cited:?}");
    // Searching within the feed ("today" with the board) is narrowed alike.
    let (status, found) = app
        .post("/api/search/today", &s.token, json!({"q": "steel OR wheat", "board_id": board_id, "num_docs": 10}))
        .await;
    assert_eq!(status, StatusCode::OK, "{found}");
    let hits: Vec<&str> =
        found["results"].as_array().unwrap().iter().map(|h| h["deeplink"].as_str().unwrap()).collect();
    assert_eq!(hits, ["wheat-1"]);
});
