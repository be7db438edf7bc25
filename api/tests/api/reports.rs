//! Research reports end to end on both backends: a report generated over real text documents
//! with every citation resolving to a passage of its files, bad requests refused with nothing
//! written, a report its owner's alone, a failure that ends failed, cancelling, and a killed
//! worker's report resumed by another with its finished sections unchanged.

use std::collections::HashSet;

use crate::support::*;

pub(crate) const OVERVIEW: &str = "Acme Steel Limited is a company founded in 1962 and headquartered in Pune. \
The company operates integrated steel plants and sells flat products to carmakers and builders.\n\n\
The business has three segments: flat products, long products and services. The flat products segment \
contributed 62 percent of revenue in the year, long products 30 percent and services the rest.\n\n\
The steel industry in India is growing with infrastructure spending. Competition is intense: the main \
competitors are Tata Steel and JSW Steel, and imports from China pressure market share.\n\n\
The board of directors has nine members, five of them independent. The chairman, Ravi Menon, has led \
the company since 2015, and the management team is responsible for governance and audit.";

pub(crate) const RESULTS: &str = "In the year to March 2024 revenue grew 14 percent to 48,200 crore and net profit \
grew 9 percent to 3,100 crore. The EBITDA margin fell to 17 percent from 19 percent as coking coal costs rose.\n\n\
At the current price the shares trade at a price to earnings multiple of 11 times, against an industry \
multiple of 14 times. Our valuation uses a target multiple of 12 times forward earnings.\n\n\
The main risk is a fall in steel prices. Other risks are higher coking coal costs, regulation of mining \
and a slowdown in construction demand that would leave plants underused.";

pub(crate) const UNRELATED: &str = "The football club won the league with a late goal. Revenue from tickets grew \
and the chairman praised the players and the management of the club.";

/// Signs up `name`, gives them the two company documents, and returns the session.
pub(crate) async fn owner_with_files(app: &TestApp, name: &str) -> Session {
    let user = app.sign_up(name).await;
    ingest_text(app, &format!("{name}-overview"), "needldrive", "Acme overview", OVERVIEW, Some(user.id())).await;
    ingest_text(app, &format!("{name}-results"), "needldrive", "Acme annual results", RESULTS, Some(user.id())).await;
    user
}

pub(crate) async fn init(app: &TestApp, token: &str, body: Value) -> Value {
    let (status, report) = app.post("/api/ml/report/init", token, body).await;
    assert_eq!(status, StatusCode::OK, "{report}");
    report["results"].clone()
}

pub(crate) async fn generate(app: &TestApp, token: &str, id: &str) -> Value {
    let (status, report) = app.post("/api/ml/report/generate", token, json!({ "report_id": id })).await;
    assert_eq!(status, StatusCode::OK, "{report}");
    report["results"].clone()
}

/// Checks a generate call's answer: the report queued, or already begun by a worker quicker than
/// the answer (seen once on SQLite under load).
pub(crate) fn assert_accepted(report: &Value) {
    assert!(matches!(report["status"].as_str(), Some("QUEUED" | "RUNNING")), "{report}");
}

/// Polls the report until it ends (or 60 s pass) and returns its detail.
pub(crate) async fn ended(app: &TestApp, token: &str, id: &str) -> Value {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    loop {
        let (status, body) = app.get(&format!("/api/ml/report/{id}"), token).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let status = body["results"]["status"].as_str().unwrap().to_string();
        if ["COMPLETED", "FAILED", "CANCELLED"].contains(&status.as_str()) {
            return body["results"].clone();
        }
        assert!(tokio::time::Instant::now() < deadline, "the report did not end: {body}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

pub(crate) fn normalize(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The citation numbers `[n]` in `markdown`, in order.
fn cited_numbers(markdown: &str) -> Vec<usize> {
    let mut out = Vec::new();
    let mut rest = markdown;
    while let Some(open) = rest.find('[') {
        rest = &rest[open + 1..];
        if let Some(close) = rest.find(']') {
            if let Ok(n) = rest[..close].parse() {
                out.push(n);
            }
        }
    }
    out
}

/// Asserts that every citation of a completed report is a passage of one of `files` (by
/// deeplink, with its text found in that file's text) and that every sentence is found word for
/// word in each passage it cites.
fn assert_citations_resolve(report: &Value, files: &[(&str, &str)]) {
    let result = &report["result"];
    let content = result["content"].as_str().unwrap();
    let citations = result["raw_data"]["citations"].as_array().unwrap();
    assert!(!citations.is_empty(), "the report cites its files: {content}");
    for (i, c) in citations.iter().enumerate() {
        assert_eq!(c["number"], i + 1);
        let deeplink = c["deeplink"].as_str().unwrap();
        let (_, text) =
            files.iter().find(|(d, _)| *d == deeplink).unwrap_or_else(|| panic!("{deeplink} is a report file"));
        let passage = c["text"].as_str().unwrap();
        match search::tables::read_row(passage.lines().next().unwrap_or_default()) {
            // A table row, under its headers: its label and each of its values are the file's.
            Some((label, values)) => {
                let label = label.rsplit(": ").next().unwrap_or(&label);
                for part in values.iter().map(|(_, value)| value.as_str()).chain([label]) {
                    assert!(normalize(text).contains(&normalize(part)), "{part:?} of row {i} is from {deeplink}");
                }
            }
            None => assert!(normalize(text).contains(&normalize(passage)), "passage {i} is from {deeplink}"),
        }
        assert!(c["page"].as_u64().unwrap() >= 1);
    }
    let numbers = cited_numbers(content);
    assert!(!numbers.is_empty());
    for n in &numbers {
        assert!((1..=citations.len()).contains(n), "citation [{n}] resolves");
    }
    for section in result["raw_data"]["sections"].as_array().unwrap() {
        let passages = section["passages"].as_array().unwrap();
        for sentence in section["sentences"].as_array().unwrap() {
            let text = normalize(sentence["sentence"].as_str().unwrap());
            let cites = sentence["citations"].as_array().unwrap();
            assert!(!cites.is_empty(), "every sentence is cited: {text}");
            for local in cites {
                let passage = &passages[local.as_u64().unwrap() as usize - 1];
                assert!(normalize(passage["text"].as_str().unwrap()).contains(&text), "{text} is in its passage");
            }
        }
    }
}

api_test!(a_report_over_the_users_files_cites_only_passages_of_them, |app: TestApp| async move {
    let alice = owner_with_files(&app, "alice").await;
    // A document she may read, outside the report, that shares words with its sections.
    ingest_text(&app, "club", "needldrive", "Club news", UNRELATED, Some(alice.id())).await;
    let mut socket = app.connect_live(&alice.token, None).await;
    let report = init(
        &app,
        &alice.token,
        json!({"report_type": "initiation_coverage", "name": " Acme  Steel ", "files": ["alice-overview", "alice-results"]}),
    )
    .await;
    assert_eq!(report["status"], "DRAFT");
    let id = report["id"].as_str().unwrap().to_string();
    assert_accepted(&generate(&app, &alice.token, &id).await);
    next_of_type(&mut socket, "ReportSectionCompleted").await;
    next_of_type(&mut socket, "ReportCompleted").await;
    let detail = ended(&app, &alice.token, &id).await;
    assert_eq!(detail["status"], "COMPLETED", "{detail}");
    let result = &detail["result"];
    assert_eq!(result["title"], "Initiation coverage: Acme Steel");
    assert!(result["error"].is_null());
    assert!(result["time_taken"].as_f64().unwrap() >= 0.0);
    let content = result["content"].as_str().unwrap();
    for heading in ["## Company overview", "## Business segments", "## Financial performance", "## Risks"] {
        assert!(content.contains(heading), "{heading} in {content}");
    }
    assert!(content.contains("62 percent of revenue"), "{content}");
    assert!(!content.contains("football"), "nothing from outside the report's files: {content}");
    assert_citations_resolve(&detail, &[("alice-overview", OVERVIEW), ("alice-results", RESULTS)]);
    let guids: HashSet<&str> = detail["payload"]["documents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["metadata"]["guid"].as_str().unwrap())
        .collect();
    assert_eq!(guids, HashSet::from(["alice-overview", "alice-results"]));
    assert_eq!(detail["payload"]["documents"][0]["metadata"]["fileName"], "Acme overview");
    assert!(detail["sections"].as_array().unwrap().iter().all(|s| s["status"] == "COMPLETED"));
    let (_, list) = app.get("/api/ml/report", &alice.token).await;
    assert_eq!(list["reports"][0]["id"], id.as_str());
    assert_eq!(list["reports"][0]["status"], "COMPLETED");
    assert_eq!(list["reports"][0]["report_type"], "initiation_coverage");
});

api_test!(
    custom_research_writes_a_section_per_question_and_says_when_files_hold_no_evidence,
    |app: TestApp| async move {
        let alice = owner_with_files(&app, "alice").await;
        let brief = "Who are the competitors of Acme?\nWhat is the weather on Mars";
        let report = init(
        &app,
        &alice.token,
        json!({"report_type": "open_research", "name": "Acme questions", "files": ["alice-overview"], "brief": brief}),
    )
    .await;
        let id = report["id"].as_str().unwrap();
        generate(&app, &alice.token, id).await;
        let detail = ended(&app, &alice.token, id).await;
        assert_eq!(detail["status"], "COMPLETED", "{detail}");
        let sections = detail["result"]["raw_data"]["sections"].as_array().unwrap();
        assert_eq!(sections.len(), 2);
        let first: Vec<&str> =
            sections[0]["sentences"].as_array().unwrap().iter().map(|s| s["sentence"].as_str().unwrap()).collect();
        assert!(first.iter().any(|s| s.contains("main competitors are Tata Steel")), "{first:?}");
        assert_eq!(sections[1]["passages"].as_array().unwrap().len(), 0, "no padding without evidence");
        assert!(detail["result"]["content"]
            .as_str()
            .unwrap()
            .contains("## What is the weather on Mars\n\n_The report's files hold no evidence for this section._"));
    }
);

api_test!(a_report_over_a_feed_reads_the_feeds_documents, |app: TestApp| async move {
    let alice = app.sign_up("alice").await;
    let source = follow_feed(&app, &alice.token, "https://example.com/steel.xml").await;
    ingest_text(&app, "steel-overview", &source, "Acme overview", OVERVIEW, None).await;
    ingest_text(&app, "steel-results", &source, "Acme annual results", RESULTS, None).await;
    ingest_text(&app, "club", &source, "Club news", UNRELATED, None).await;
    let definition =
        json!({"name": "Steel", "keywords": {"include": [{"keyword": "steel", "valid": true}], "exclude": []}});
    let (status, board) = app.post("/api/boards/v2", &alice.token, json!({ "definition": definition })).await;
    assert_eq!(status, StatusCode::OK, "{board}");
    let feed = board["results"]["board_id"].as_str().unwrap();
    let report =
        init(&app, &alice.token, json!({"report_type": "credit_report", "name": "Acme", "feed_id": feed})).await;
    let id = report["id"].as_str().unwrap();
    assert_eq!(report["feed_id"], feed);
    generate(&app, &alice.token, id).await;
    let detail = ended(&app, &alice.token, id).await;
    assert_eq!(detail["status"], "COMPLETED", "{detail}");
    // The feed matches the two steel documents, not the club's news.
    assert_citations_resolve(&detail, &[("steel-overview", OVERVIEW), ("steel-results", RESULTS)]);
});

api_test!(bad_requests_get_clear_errors_and_write_nothing, |app: TestApp| async move {
    let alice = owner_with_files(&app, "alice").await;
    let bob = owner_with_files(&app, "bob").await;
    let (status, board) = app
        .post(
            "/api/boards/v2",
            &bob.token,
            json!({"definition": {"name": "Bob's", "keywords": {"include": [{"keyword": "steel", "valid": true}], "exclude": []}}}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{board}");
    let bobs_feed = board["results"]["board_id"].as_str().unwrap();
    app.upload(&alice.token, &[("f-pending", "pending.txt", b"still on its way")]).await;
    let many: Vec<String> = (0..6).map(|i| format!("alice-{i}")).collect();
    for (body, status, code) in [
        (json!({"report_type": "credit_rating", "name": "x", "files": ["alice-overview"]}), 422, "unknown_report_type"),
        (json!({"report_type": "credit_report", "name": "x", "files": []}), 422, "report_files_required"),
        (json!({"report_type": "credit_report", "name": "x", "files": ["bob-overview"]}), 404, "report_file_not_found"),
        (json!({"report_type": "credit_report", "name": "x", "files": ["f-pending"]}), 409, "report_file_processing"),
        (json!({"report_type": "drhp_report", "name": "x", "files": many}), 422, "report_too_many_files"),
        (json!({"report_type": "credit_report", "name": "x", "feed_id": bobs_feed}), 404, "board_not_found"),
        (
            json!({"report_type": "credit_report", "name": " ", "files": ["alice-overview"]}),
            422,
            "report_name_required",
        ),
        (
            json!({"report_type": "open_research", "name": "x", "files": ["alice-overview"]}),
            422,
            "report_brief_required",
        ),
    ] {
        let (got, body_out) = app.post("/api/ml/report/init", &alice.token, body.clone()).await;
        assert_eq!(got.as_u16(), status, "{body} gave {body_out}");
        assert_eq!(body_out["code"], code, "{body_out}");
        if code == "report_too_many_files" {
            assert_eq!(body_out["message"], "Only 5 files can be uploaded for a report.");
        }
    }
    let (_, list) = app.get("/api/ml/report", &alice.token).await;
    assert_eq!(list["reports"].as_array().unwrap().len(), 0, "nothing written: {list}");
});

api_test!(another_user_cannot_read_rate_or_cancel_a_report, |app: TestApp| async move {
    let alice = owner_with_files(&app, "alice").await;
    let bob = app.sign_up("bob").await;
    let mut bobs_socket = app.connect_live(&bob.token, None).await;
    let report = init(
        &app,
        &alice.token,
        json!({"report_type": "maintenance_coverage", "name": "Acme", "files": ["alice-results"]}),
    )
    .await;
    let id = report["id"].as_str().unwrap();
    let (status, _) = app.post("/api/ml/report/generate", &bob.token, json!({ "report_id": id })).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    generate(&app, &alice.token, id).await;
    ended(&app, &alice.token, id).await;
    let (status, _) = app.get(&format!("/api/ml/report/{id}"), &bob.token).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = app.put(&format!("/api/ml/report/{id}"), &bob.token, json!({"rating": 1})).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = app.post(&format!("/api/ml/report/{id}/cancel"), &bob.token, json!({})).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (_, list) = app.get("/api/ml/report", &bob.token).await;
    assert_eq!(list["reports"].as_array().unwrap().len(), 0);
    assert!(anything_within(&mut bobs_socket, Duration::from_millis(300)).await.is_none(), "no report event for bob");
    let (status, rated) =
        app.put(&format!("/api/ml/report/{id}"), &alice.token, json!({"rating": 4, "comments": " useful "})).await;
    assert_eq!(status, StatusCode::OK, "{rated}");
    let (_, detail) = app.get(&format!("/api/ml/report/{id}"), &alice.token).await;
    assert_eq!(detail["results"]["rating"], 4);
    assert_eq!(detail["results"]["comments"], "useful");
});

api_test!(a_report_whose_file_went_away_ends_failed_with_no_content, |app: TestApp| async move {
    let alice = owner_with_files(&app, "alice").await;
    let report = init(
        &app,
        &alice.token,
        json!({"report_type": "credit_report", "name": "Acme", "files": ["alice-overview", "alice-results"]}),
    )
    .await;
    let id = report["id"].as_str().unwrap();
    let bus = app.server.state.bus.clone();
    let cursor = bus
        .execute(
            &bus.documents,
            "alice-results",
            domain::document::DocumentCommand::Delete,
            &domain::EventMetadata::system("test", "r"),
        )
        .await
        .unwrap();
    app.server.state.settle(cursor).await;
    generate(&app, &alice.token, id).await;
    let detail = ended(&app, &alice.token, id).await;
    assert_eq!(detail["status"], "FAILED", "{detail}");
    assert_eq!(detail["result"]["error"], "true");
    assert_eq!(detail["result"]["content"], "");
    assert!(detail["result"]["error_message"].as_str().unwrap().contains("Acme annual results"), "{detail}");
    assert!(detail["sections"].as_array().unwrap().iter().all(|s| s["status"] != "COMPLETED"));
    assert!(!event_types(&app, "report", id).await.contains(&"ReportCompleted".to_string()));
});

/// Runs `$body` with a server whose own report worker is off, so the test drives workers itself.
macro_rules! without_worker_test {
    ($name:ident, $body:expr) => {
        api_test_with!($name, |config: &mut ServeArgs| config.report_workers = false, $body);
    };
}

without_worker_test!(a_killed_workers_report_is_resumed_with_finished_sections_unchanged, |app: TestApp| async move {
    let alice = owner_with_files(&app, "alice").await;
    let report = init(
        &app,
        &alice.token,
        json!({"report_type": "initiation_coverage", "name": "Acme", "files": ["alice-overview", "alice-results"]}),
    )
    .await;
    let id = report["id"].as_str().unwrap();
    generate(&app, &alice.token, id).await;
    let ctx = app.server.state.ctx.clone();
    let first = service::reports::ReportWorker::new(ctx.clone()).dying_after(2);
    assert!(first.work_once().await.unwrap(), "the first worker takes the job");
    let (_, before) = app.get(&format!("/api/ml/report/{id}"), &alice.token).await;
    let before = before["results"]["sections"].as_array().unwrap().clone();
    assert_eq!(before.iter().filter(|s| s["status"] == "COMPLETED").count(), 2, "{before:?}");
    let second = service::reports::ReportWorker::new(ctx.clone());
    assert!(!second.work_once().await.unwrap(), "a held lease is not taken");
    ctx.db.execute("UPDATE report_jobs SET lease_until = '2000-01-01T00:00:00.000Z'", vec![]).await.unwrap();
    assert!(second.work_once().await.unwrap(), "an expired lease is taken by another worker");
    let detail = ended(&app, &alice.token, id).await;
    assert_eq!(detail["status"], "COMPLETED", "{detail}");
    let after = detail["sections"].as_array().unwrap();
    assert_eq!(&after[..2], &before[..2], "finished sections are unchanged");
    assert!(after.iter().all(|s| s["status"] == "COMPLETED"));
    let written = event_types(&app, "report", id).await.iter().filter(|t| *t == "ReportSectionCompleted").count();
    assert_eq!(written, after.len(), "each section written once");
    assert_citations_resolve(&detail, &[("alice-overview", OVERVIEW), ("alice-results", RESULTS)]);
});

without_worker_test!(a_cancel_ends_the_report_at_once_and_no_worker_writes_it, |app: TestApp| async move {
    let alice = owner_with_files(&app, "alice").await;
    let report =
        init(&app, &alice.token, json!({"report_type": "credit_report", "name": "Acme", "files": ["alice-results"]}))
            .await;
    let id = report["id"].as_str().unwrap();
    generate(&app, &alice.token, id).await;
    let started = std::time::Instant::now();
    let (status, cancelled) = app.post(&format!("/api/ml/report/{id}/cancel"), &alice.token, json!({})).await;
    assert_eq!(status, StatusCode::OK, "{cancelled}");
    assert_eq!(cancelled["results"]["status"], "CANCELLED");
    assert!(started.elapsed() < Duration::from_secs(1), "cancelled within 1 s: {:?}", started.elapsed());
    let worker = service::reports::ReportWorker::new(app.server.state.ctx.clone());
    assert!(!worker.work_once().await.unwrap(), "a cancelled report leaves the queue");
    let types = event_types(&app, "report", id).await;
    assert!(!types.iter().any(|t| t == "ReportSectionPlanned" || t == "ReportSectionCompleted"), "{types:?}");
    let (status, again) = app.post(&format!("/api/ml/report/{id}/cancel"), &alice.token, json!({})).await;
    assert_eq!(status, StatusCode::CONFLICT, "{again}");
});

/// The TAT-QA dev contexts (paragraphs and table rows of real annual reports) as plain texts, or
/// `None` with a message where the shared data is absent.
fn annual_report_texts() -> Option<Vec<String>> {
    let here = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let path = ["../../shared/data", "../../../shared/data"]
        .iter()
        .map(|p| here.join(p).join("qa/tatqa/tatqa_dataset_dev.json"))
        .find(|p| p.exists());
    let Some(path) = path else {
        eprintln!("skipped: ../shared/data/qa/tatqa not found");
        return None;
    };
    let contexts: Vec<Value> = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    Some(
        contexts
            .iter()
            .map(|c| {
                let mut parts: Vec<String> = c["paragraphs"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|p| p["text"].as_str().unwrap().to_string())
                    .collect();
                for row in c["table"]["table"].as_array().unwrap() {
                    let cells: Vec<&str> = row.as_array().unwrap().iter().filter_map(|v| v.as_str()).collect();
                    parts.push(cells.join(" | "));
                }
                parts.join("\n\n")
            })
            .collect(),
    )
}

api_test!(reports_over_real_annual_report_passages_complete_with_resolving_citations, |app: TestApp| async move {
    let Some(texts) = annual_report_texts() else {
        return;
    };
    let alice = app.sign_up("alice").await;
    let mut files: Vec<(String, String)> = Vec::new();
    for (i, text) in texts.iter().take(50).enumerate() {
        let deeplink = format!("tatqa-{i}");
        ingest_text(&app, &deeplink, "needldrive", &format!("Annual report {i}"), text, Some(alice.id())).await;
        files.push((deeplink, text.clone()));
    }
    let known: Vec<(&str, &str)> = files.iter().map(|(d, t)| (d.as_str(), t.as_str())).collect();
    let brief = "What drove revenue growth?\nHow did operating expenses change?\nWhat are the main tax items?";
    for (report_type, n) in [
        ("maintenance_coverage", 10),
        ("maintenance_coverage", 50),
        ("credit_report", 10),
        ("credit_report", 50),
        ("initiation_coverage", 10),
        ("initiation_coverage", 50),
        ("open_research", 10),
        ("open_research", 50),
        ("drhp_report", 5),
    ] {
        let ids: Vec<&str> = files.iter().take(n).map(|(d, _)| d.as_str()).collect();
        let body = json!({"report_type": report_type, "name": "Annual reports", "files": ids, "brief": brief});
        let report = init(&app, &alice.token, body).await;
        let id = report["id"].as_str().unwrap();
        let started = std::time::Instant::now();
        generate(&app, &alice.token, id).await;
        let detail = ended(&app, &alice.token, id).await;
        let elapsed = started.elapsed();
        assert_eq!(detail["status"], "COMPLETED", "{detail}");
        assert_citations_resolve(&detail, &known);
        let raw = &detail["result"]["raw_data"];
        let sections = raw["sections"].as_array().unwrap();
        let sentences: usize = sections.iter().map(|s| s["sentences"].as_array().unwrap().len()).sum();
        let empty = sections.iter().filter(|s| s["sentences"].as_array().unwrap().is_empty()).count();
        eprintln!(
            "report {report_type} over {n} documents: {:.2} s from generate to completed, {} sections ({empty} \
             without evidence), {sentences} sentences, {} passages cited",
            elapsed.as_secs_f64(),
            sections.len(),
            raw["citations"].as_array().unwrap().len()
        );
    }
});

without_worker_test!(a_report_that_keeps_killing_its_workers_ends_failed, |app: TestApp| async move {
    let alice = owner_with_files(&app, "alice").await;
    let report =
        init(&app, &alice.token, json!({"report_type": "credit_report", "name": "Acme", "files": ["alice-results"]}))
            .await;
    let id = report["id"].as_str().unwrap();
    generate(&app, &alice.token, id).await;
    let ctx = app.server.state.ctx.clone();
    // Three workers took it and died (their leases ran out).
    ctx.db
        .execute("UPDATE report_jobs SET attempts = 3, lease_until = '2000-01-01T00:00:00.000Z'", vec![])
        .await
        .unwrap();
    assert!(service::reports::ReportWorker::new(ctx.clone()).work_once().await.unwrap());
    let detail = ended(&app, &alice.token, id).await;
    assert_eq!(detail["status"], "FAILED", "{detail}");
    assert_eq!(detail["result"]["error"], "true");
    assert_eq!(detail["result"]["error_message"], "Generation was interrupted 3 times; generate the report again");
    assert!(!service::reports::ReportWorker::new(ctx).work_once().await.unwrap(), "it left the queue");
});
