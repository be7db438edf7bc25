//! What the report worker writes, end to end on both backends: key-figure tables whose every
//! figure cites a passage holding it, sections written by a chat-completions model under
//! AskNeedl's support check (a local HTTP server stands in for the model), and progress pushed to
//! the owner's live socket at least every 2 s while a report is written.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use futures::StreamExt;
use testkit::http::{json_reply, read_request};
use tokio::io::AsyncWriteExt;
use tokio::net::TcpListener;
use tokio_tungstenite::tungstenite::Message;

use crate::support::*;

const OVERVIEW: &str = "Acme Steel Limited is a company founded in 1962 and headquartered in Pune. \
The company operates integrated steel plants and sells flat products to carmakers and builders.\n\n\
The steel industry in India is growing with infrastructure spending. Competition is intense: the main \
competitors are Tata Steel and JSW Steel, and imports from China pressure market share.";

const FINANCIALS: &str = "Acme Steel key financials in Rs crore.\n\n\
Particulars\tFY2024\tFY2023\n\
Revenue from operations\t48,200\t42,280\n\
EBITDA\t8,194\t8,033\n\
EBITDA margin\t17.0%\t19.0%\n\
Net profit\t3,100\t2,844\n\
Earnings per share (Rs)\t31.2\t28.6";

async fn owner_with_files(app: &TestApp, name: &str) -> Session {
    let user = app.sign_up(name).await;
    ingest_text(app, &format!("{name}-overview"), "needldrive", "Acme overview", OVERVIEW, Some(user.id())).await;
    ingest_text(app, &format!("{name}-financials"), "needldrive", "Acme financials", FINANCIALS, Some(user.id())).await;
    user
}

async fn start_report(app: &TestApp, token: &str, body: Value) -> String {
    let (status, report) = app.post("/api/ml/report/init", token, body).await;
    assert_eq!(status, StatusCode::OK, "{report}");
    let id = report["results"]["id"].as_str().unwrap().to_string();
    let (status, started) = app.post("/api/ml/report/generate", token, json!({ "report_id": id })).await;
    assert_eq!(status, StatusCode::OK, "{started}");
    id
}

/// Polls the report until it ends (or 60 s pass) and returns its detail.
async fn ended(app: &TestApp, token: &str, id: &str) -> Value {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    loop {
        let (_, body) = app.get(&format!("/api/ml/report/{id}"), token).await;
        let status = body["results"]["status"].as_str().unwrap_or_default().to_string();
        if ["COMPLETED", "FAILED", "CANCELLED"].contains(&status.as_str()) {
            return body["results"].clone();
        }
        assert!(tokio::time::Instant::now() < deadline, "the report did not end: {body}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

fn normalize(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn section<'a>(detail: &'a Value, heading: &str) -> &'a Value {
    detail["result"]["raw_data"]["sections"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["heading"] == heading)
        .unwrap_or_else(|| panic!("a section {heading}"))
}

api_test!(
    a_financial_section_gets_a_table_of_key_figures_each_citing_a_passage_that_holds_it,
    |app: TestApp| async move {
        let alice = owner_with_files(&app, "alice").await;
        let id = start_report(
        &app,
        &alice.token,
        json!({"report_type": "initiation_coverage", "name": "Acme", "files": ["alice-overview", "alice-financials"]}),
    )
    .await;
        let detail = ended(&app, &alice.token, &id).await;
        assert_eq!(detail["status"], "COMPLETED", "{detail}");
        let content = detail["result"]["content"].as_str().unwrap();
        let financial = content.split("## Financial performance").nth(1).unwrap().split("\n## ").next().unwrap();
        assert!(financial.contains("**Key figures**\n\n| Figure | FY2024 | FY2023 |"), "{financial}");
        let citations = detail["result"]["raw_data"]["citations"].as_array().unwrap();
        let figures = &section(&detail, "Financial performance")["key_figures"];
        let rows = figures["rows"].as_array().unwrap();
        let metrics: Vec<&str> = rows.iter().map(|r| r["metric"].as_str().unwrap()).collect();
        assert_eq!(
            metrics,
            vec!["Revenue from operations", "EBITDA", "EBITDA margin", "Net profit", "Earnings per share (Rs)"]
        );
        let mut checked = 0;
        for row in rows {
            for cell in row["cells"].as_array().unwrap() {
                let value = cell["value"].as_str().unwrap();
                let n = cell["citation"].as_u64().unwrap() as usize;
                let cited = &citations[n - 1];
                assert_eq!(cited["deeplink"], "alice-financials");
                assert!(normalize(cited["text"].as_str().unwrap()).contains(value), "{value} is in passage [{n}]");
                assert!(financial.contains(&format!("{value} [{n}]")), "{value} [{n}] in {financial}");
                checked += 1;
            }
        }
        assert_eq!(checked, 10);
        // Sections that are not financial show no table.
        assert!(section(&detail, "Company overview").get("key_figures").is_none());
    }
);

/// What the stand-in model does with a request.
#[derive(Clone, Copy)]
enum Model {
    /// Restates source [1]'s first sentence citing it, then a sentence citing a source that does
    /// not exist and a claim the sources do not hold, citing [1].
    Mixed,
    /// As `Mixed`, after waiting this long.
    Slow(Duration),
}

/// A chat-completions server on port 0 that answers with one JSON completion; returns its base
/// URL and how many requests it answered. It stands in for an outside service.
async fn model_server(model: Model) -> (String, Arc<AtomicUsize>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/v1", listener.local_addr().unwrap());
    let served = Arc::new(AtomicUsize::new(0));
    let count = served.clone();
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            let count = count.clone();
            tokio::spawn(async move {
                let body = read_request(&mut socket).await;
                if let Model::Slow(wait) = model {
                    tokio::time::sleep(wait).await;
                }
                let request: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
                let prompt = request["messages"][1]["content"].as_str().unwrap_or_default();
                let content = format!(
                    "{} [1] Acme also owns a private bank in Zurich. [7] Acme will triple its dividend next year \
                     and buy a football club. [1]",
                    first_sentence_of_source_one(prompt)
                );
                let reply = json!({"choices": [{"index": 0, "message": {"role": "assistant", "content": content}}]});
                let _ = socket.write_all(json_reply("200 OK", &reply.to_string()).as_bytes()).await;
                let _ = socket.shutdown().await;
                count.fetch_add(1, Ordering::SeqCst);
            });
        }
    });
    (url, served)
}

/// The first sentence of the prompt's source `[1]` (its text starts on the line after
/// `[1] title (page n)`).
pub(crate) fn first_sentence_of_source_one(prompt: &str) -> String {
    let after = prompt.split("\n[1] ").nth(1).or_else(|| prompt.split("[1] ").nth(1)).unwrap_or_default();
    let text = after.split_once('\n').map(|(_, t)| t).unwrap_or_default();
    let text = text.split("\n\n").next().unwrap_or_default();
    let end = text.find(". ").map(|i| i + 1).unwrap_or(text.len());
    normalize(&text[..end])
}

/// Runs `$body` with a server whose answers (and reports) are written by the stand-in model.
macro_rules! model_test {
    ($name:ident, $model:expr, $body:expr) => {
        mod $name {
            use super::*;
            async fn run(backend: Backend) {
                let (url, served) = model_server($model).await;
                let config = ServeArgs {
                    assistant_url: Some(url),
                    assistant_model: "stand-in".into(),
                    ..ServeArgs::for_tests()
                };
                let app = spawn_app_with(backend, config).await;
                ($body)(app, served).await;
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

model_test!(
    a_model_writes_the_sections_and_only_sentences_its_sources_bear_out_are_kept,
    Model::Mixed,
    |app: TestApp, served: Arc<AtomicUsize>| async move {
        let alice = owner_with_files(&app, "alice").await;
        let brief = "Who are the competitors of Acme?\nWhat is the weather on Mars";
        let id = start_report(
            &app,
            &alice.token,
            json!({"report_type": "open_research", "name": "Acme", "files": ["alice-overview"], "brief": brief}),
        )
        .await;
        let detail = ended(&app, &alice.token, &id).await;
        assert_eq!(detail["status"], "COMPLETED", "{detail}");
        assert!(served.load(Ordering::SeqCst) >= 1, "the model wrote");
        let content = detail["result"]["content"].as_str().unwrap();
        assert!(!content.contains("Zurich"), "a sentence citing a source that does not exist is dropped: {content}");
        assert!(!content.contains("football"), "a claim its source does not hold is dropped: {content}");
        let citations = detail["result"]["raw_data"]["citations"].as_array().unwrap();
        let written = section(&detail, "Who are the competitors of Acme");
        let sentences = written["sentences"].as_array().unwrap();
        assert!(!sentences.is_empty(), "{detail}");
        let passages = written["passages"].as_array().unwrap();
        for s in sentences {
            let text = s["sentence"].as_str().unwrap();
            for n in s["citations"].as_array().unwrap() {
                let passage = &passages[n.as_u64().unwrap() as usize - 1];
                assert!(normalize(passage["text"].as_str().unwrap()).contains(text), "{text} is borne out");
                assert_eq!(passage["deeplink"], "alice-overview", "only the report's files are cited");
            }
        }
        for c in citations {
            assert_eq!(c["deeplink"], "alice-overview");
        }
        let mars = section(&detail, "What is the weather on Mars");
        assert_eq!(mars["passages"], json!([]), "no evidence, no citation");
        assert!(content
            .contains("## What is the weather on Mars\n\n_The report's files hold no evidence for this section._"));
    }
);

model_test!(
    progress_reaches_the_owner_at_least_every_two_seconds_while_a_report_is_written,
    Model::Slow(Duration::from_millis(2500)),
    |app: TestApp, _served: Arc<AtomicUsize>| async move {
        let alice = owner_with_files(&app, "alice").await;
        let bob = app.sign_up("bob").await;
        let mut socket = app.connect_live(&alice.token, None).await;
        let mut bobs_socket = app.connect_live(&bob.token, None).await;
        let brief = "Who are the competitors of Acme?\nWhere is Acme headquartered?";
        let id = start_report(
            &app,
            &alice.token,
            json!({"report_type": "open_research", "name": "Acme", "files": ["alice-overview"], "brief": brief}),
        )
        .await;
        let mut progress: Vec<(tokio::time::Instant, Value)> = Vec::new();
        let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
        let completed_at = loop {
            let message = tokio::time::timeout_at(deadline, socket.next()).await.expect("the report ends").unwrap();
            let Ok(Message::Text(text)) = message else { continue };
            let value: Value = serde_json::from_str(&text).unwrap();
            if value["type"] == "report.progress" {
                progress.push((tokio::time::Instant::now(), value));
            } else if value["type"] == "ReportCompleted" {
                break tokio::time::Instant::now();
            }
        };
        assert!(progress.len() >= 4, "{progress:?}");
        let mut times: Vec<tokio::time::Instant> = progress.iter().map(|(t, _)| *t).collect();
        times.push(completed_at);
        let longest = times.windows(2).map(|w| w[1] - w[0]).max().unwrap();
        assert!(longest <= Duration::from_secs(2), "a gap of {longest:?} without progress");
        for (_, p) in &progress {
            assert_eq!(p["ids"], json!([id]));
            assert_eq!(p["report_id"], id.as_str());
            assert_eq!(p["status"], "RUNNING");
            assert!(p.get("cursor").is_none(), "a passing message has no cursor: {p}");
            assert!(["retrieving", "writing", "assembling"].contains(&p["phase"].as_str().unwrap()), "{p}");
        }
        let writing: Vec<&Value> = progress.iter().map(|(_, p)| p).filter(|p| p["phase"] == "writing").collect();
        assert!(writing.iter().any(|p| p["section"] == "Who are the competitors of Acme"), "{writing:?}");
        assert!(writing.iter().all(|p| p["sections"] == 2));
        assert!(writing.iter().any(|p| p["sections_done"] == 1), "{writing:?}");
        let ended_report = ended(&app, &alice.token, &id).await;
        assert_eq!(ended_report["status"], "COMPLETED");
        // Bob may still hear of his own sign-up; nothing of alice's report.
        while let Some(message) = anything_within(&mut bobs_socket, Duration::from_millis(300)).await {
            assert_ne!(message["type"], "report.progress", "{message}");
            assert!(!message.to_string().contains(&id), "nothing of alice's report for bob: {message}");
        }
    }
);
