//! A report's files, chat and export end to end on both backends: files uploaded into a draft
//! report (belonging to it while processing, removed from it without leaving My Data), refused
//! uploads that write nothing, generation that waits for processing, report chat over the
//! report's files only with no session saved, and the PDF and DOCX exports read back with the
//! repo's own extractor. Another user's report is not found for all of it.

use std::collections::HashSet;

use super::reports::{
    assert_accepted, ended, generate, init, normalize, owner_with_files, OVERVIEW, RESULTS, UNRELATED,
};
use crate::support::*;

/// Asks for report upload links for `files` (id, name, bytes) and sends each file to its link;
/// returns the init call's status and answer.
async fn send_files(
    app: &TestApp,
    token: &str,
    report_type: &str,
    files: &[(&str, &str, &[u8])],
) -> (StatusCode, Value) {
    let declared: Vec<Value> =
        files.iter().map(|(id, name, bytes)| json!({"id": id, "name": name, "size": bytes.len()})).collect();
    let (status, init) = app
        .post("/api/upload/init", token, json!({"source": "report", "report_type": report_type, "files": declared}))
        .await;
    if status != StatusCode::OK {
        return (status, init);
    }
    for (config, (_, _, bytes)) in init["upload_configs"].as_array().unwrap().iter().zip(files) {
        let link = config["upload_link"].as_str().unwrap();
        let res = app.client.put(app.url(link)).body(bytes.to_vec()).send().await.unwrap();
        assert_eq!(res.status(), StatusCode::CREATED, "{}", res.text().await.unwrap());
    }
    (status, init)
}

/// Reports the files of `init` transferred, into the report `feed_id` or a new one.
async fn complete(
    app: &TestApp,
    token: &str,
    report_type: &str,
    name: &str,
    feed_id: Option<&str>,
    init: &Value,
) -> (StatusCode, Value) {
    let mut body = complete_body(init);
    body["source"] = json!("report");
    body["report_type"] = json!(report_type);
    body["report_name"] = json!(name);
    if let Some(feed_id) = feed_id {
        body["feed_id"] = json!(feed_id);
    }
    app.post("/api/upload/complete", token, body).await
}

/// Uploads `files` into a report and returns its id.
async fn upload_report(
    app: &TestApp,
    token: &str,
    report_type: &str,
    feed_id: Option<&str>,
    files: &[(&str, &str, &[u8])],
) -> String {
    let (status, init) = send_files(app, token, report_type, files).await;
    assert_eq!(status, StatusCode::OK, "{init}");
    let (status, done) = complete(app, token, report_type, "Acme Steel", feed_id, &init).await;
    assert_eq!(status, StatusCode::OK, "{done}");
    assert!(done["files"].as_array().unwrap().iter().all(|f| f["status"] == "PROCESSING"), "{done}");
    done["feed_id"].as_str().expect("the report's id").to_string()
}

async fn detail(app: &TestApp, token: &str, id: &str) -> Value {
    let (status, body) = app.get(&format!("/api/ml/report/{id}"), token).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body["results"].clone()
}

fn ids_of(documents: &Value) -> HashSet<String> {
    documents.as_array().unwrap().iter().map(|d| d["id"].as_str().unwrap().to_string()).collect()
}

/// The value of `key` in the query of a link.
fn query_value(link: &str, key: &str) -> String {
    let query = link.split_once('?').map(|(_, q)| q).unwrap_or_default();
    let value = query.split('&').find_map(|pair| pair.strip_prefix(&format!("{key}="))).unwrap_or_default();
    value.replace("%3A", ":").replace("%2F", "/")
}

/// The text of an exported file, as the upload extractor reads it.
fn text_of(bytes: &[u8], name: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, bytes).unwrap();
    let extracted = extract::extract_file(&extract::Input::path(&path)).unwrap();
    normalize(&extracted.pages.iter().map(|p| p.text.as_str()).collect::<Vec<_>>().join("\n"))
}

async fn export(app: &TestApp, token: &str, id: &str, format: &str) -> reqwest::Response {
    app.request(reqwest::Method::GET, &format!("/api/ml/report/{id}/export?format={format}"), Some(token))
        .send()
        .await
        .unwrap()
}

api_test!(uploaded_files_belong_to_a_draft_report_while_processing_and_are_generated_over, |app: TestApp| async move {
    let alice = app.sign_up("alice").await;
    let id = upload_report(
        &app,
        &alice.token,
        "initiation_coverage",
        None,
        &[("f-overview", "overview.txt", OVERVIEW.as_bytes()), ("f-results", "results.txt", RESULTS.as_bytes())],
    )
    .await;
    let draft = detail(&app, &alice.token, &id).await;
    assert_eq!(draft["status"], "DRAFT");
    assert_eq!(draft["report_type"], "initiation_coverage");
    assert_eq!(draft["name"], "Acme Steel");
    let documents = &draft["payload"]["documents"];
    assert_eq!(ids_of(documents), HashSet::from(["f-overview".to_string(), "f-results".to_string()]));
    for d in documents.as_array().unwrap() {
        assert!(["PROCESSING", "COMPLETED"].contains(&d["status"].as_str().unwrap()), "{d}");
    }
    assert_eq!(documents[0]["size"], OVERVIEW.len());
    assert_eq!(documents[0]["metadata"]["fileName"], "overview.txt");

    // A third file joins the same report; then leaves it, staying in My Data.
    let same = upload_report(
        &app,
        &alice.token,
        "initiation_coverage",
        Some(&id),
        &[("f-club", "club.txt", UNRELATED.as_bytes())],
    )
    .await;
    assert_eq!(same, id);
    assert_eq!(detail(&app, &alice.token, &id).await["payload"]["documents"].as_array().unwrap().len(), 3);
    let (status, removed) = app
            .put(
                "/api/upload/complete",
                &alice.token,
                json!({"action": "remove", "files": [{"id": "f-club"}], "feed_id": id, "report_type": "initiation_coverage"}),
            )
            .await;
    assert_eq!(status, StatusCode::OK, "{removed}");
    assert_eq!(removed["files"][0], json!({"id": "f-club", "status": "REMOVED", "error": null}));
    let kept = app.settled_uploads(&alice.token, &["f-club"]).await;
    assert_eq!(kept[0]["status"], "COMPLETED", "the upload stays in My Data: {kept:?}");

    let settled = app.settled_uploads(&alice.token, &["f-overview", "f-results"]).await;
    assert!(settled.iter().all(|u| u["status"] == "COMPLETED"), "{settled:?}");
    let ready = detail(&app, &alice.token, &id).await;
    let documents = ready["payload"]["documents"].as_array().unwrap().clone();
    assert_eq!(documents.len(), 2);
    let mut deeplinks = Vec::new();
    for d in &documents {
        assert_eq!(d["status"], "COMPLETED", "{d}");
        let link = d["object_location"].as_str().unwrap();
        assert!(link.starts_with("/preview/feeds/"), "an app page, never the file: {link}");
        // The page's document call opens it with the key the link carries.
        let deeplink = d["metadata"]["guid"].as_str().unwrap().to_string();
        let source = query_value(link, "source");
        let key = query_value(link, "access_key");
        let (status, card) = app
            .get(&format!("/api/doc/{source}?deeplink={}&access_key={key}", urlencode(&deeplink)), &alice.token)
            .await;
        assert_eq!(status, StatusCode::OK, "{link}: {card}");
        deeplinks.push(deeplink);
    }

    assert_accepted(&generate(&app, &alice.token, &id).await);
    let report = ended(&app, &alice.token, &id).await;
    assert_eq!(report["status"], "COMPLETED", "{report}");
    let citations = report["result"]["raw_data"]["citations"].as_array().unwrap();
    assert!(!citations.is_empty(), "{report}");
    for c in citations {
        assert!(deeplinks.contains(&c["deeplink"].as_str().unwrap().to_string()), "cites only its files: {c}");
    }
    let content = report["result"]["content"].as_str().unwrap();
    assert!(!content.contains("football"), "{content}");
});

api_test!(report_uploads_that_break_a_rule_are_refused_and_write_nothing, |app: TestApp| async move {
    let alice = app.sign_up("alice").await;
    let bob = app.sign_up("bob").await;
    let (status, config) = app.get("/api/upload/config?source=report&report_type=drhp_report", &alice.token).await;
    assert_eq!(status, StatusCode::OK, "{config}");
    assert_eq!(config["data"]["config"]["file_count_limit"], 5);
    let (status, body) = app.get("/api/upload/config?source=report&report_type=credit_rating", &alice.token).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("unknown_report_type")));

    let six: Vec<(String, String)> = (0..6).map(|i| (format!("f-{i}"), format!("{i}.txt"))).collect();
    let six: Vec<(&str, &str, &[u8])> = six.iter().map(|(id, n)| (id.as_str(), n.as_str(), b"text" as &[u8])).collect();
    let (status, body) = send_files(&app, &alice.token, "drhp_report", &six).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(body["message"], "Only 5 files can be uploaded for a report.");
    let (status, body) = send_files(&app, &alice.token, "unknown", &six[..1]).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("unknown_report_type")));

    // Four files in a report; two more would make six.
    let id = upload_report(&app, &alice.token, "drhp_report", None, &six[..4]).await;
    let (status, two) = send_files(&app, &alice.token, "drhp_report", &six[4..]).await;
    assert_eq!(status, StatusCode::OK, "{two}");
    let (status, body) = complete(&app, &alice.token, "drhp_report", "x", Some(&id), &two).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(body["message"], "Only 5 files can be uploaded for a report.");
    // Bob's report is no report of Alice's; a new report needs a name.
    let bobs = upload_report(&app, &bob.token, "credit_report", None, &[("b-1", "b.txt", b"bob's text")]).await;
    let (status, body) = complete(&app, &alice.token, "drhp_report", "x", Some(&bobs), &two).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::NOT_FOUND, Some("report_not_found")), "{body}");
    let (status, body) = complete(&app, &alice.token, "drhp_report", "  ", None, &two).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("report_name_required")));
    let (status, body) = complete(&app, &alice.token, "nope", "x", None, &two).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("unknown_report_type")));
    // Nothing was written: the two files are still uploading, the reports unchanged.
    let (_, statuses) = app.get("/api/upload/status?ids=f-4,f-5", &alice.token).await;
    assert!(statuses["results"].as_array().unwrap().iter().all(|u| u["status"] == "UPLOADING"), "{statuses}");
    assert_eq!(detail(&app, &alice.token, &id).await["payload"]["documents"].as_array().unwrap().len(), 4);
    assert_eq!(detail(&app, &bob.token, &bobs).await["payload"]["documents"].as_array().unwrap().len(), 1);
    let (_, list) = app.get("/api/ml/report", &alice.token).await;
    assert_eq!(list["reports"].as_array().unwrap().len(), 1, "{list}");

    // Removing: another user's report, or a file not in the report, is not found.
    let remove = |feed_id: &str, file: &str| json!({"action": "remove", "files": [{"id": file}], "feed_id": feed_id, "report_type": "drhp_report"});
    let (status, body) = app.put("/api/upload/complete", &alice.token, remove(&bobs, "b-1")).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::NOT_FOUND, Some("report_not_found")));
    let (status, body) = app.put("/api/upload/complete", &alice.token, remove(&id, "f-5")).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::NOT_FOUND, Some("report_file_not_found")));
    assert_eq!(detail(&app, &bob.token, &bobs).await["payload"]["documents"].as_array().unwrap().len(), 1);

    // A draft is not exported.
    let res = export(&app, &alice.token, &id, "pdf").await;
    assert_eq!(res.status(), StatusCode::CONFLICT);
    assert_eq!(res.json::<Value>().await.unwrap()["code"], "report_not_finished");
});

api_test!(report_chat_answers_from_the_reports_files_only_and_saves_no_session, |app: TestApp| async move {
    let alice = owner_with_files(&app, "alice").await;
    let bob = app.sign_up("bob").await;
    // Her own document outside the report, with the words the question asks about.
    let other = "Acme revenue grew 80 percent in the year according to the football club.";
    ingest_text(&app, "alice-other", "needldrive", "Other note", other, Some(alice.id())).await;
    let report =
        init(&app, &alice.token, json!({"report_type": "credit_report", "name": "Acme", "files": ["alice-results"]}))
            .await;
    let id = report["id"].as_str().unwrap();
    let ask = json!({"prompt": "How much did Acme revenue grow in the year?", "report_id": id, "stream": false});
    let (status, answer) = app.post("/api/ml/ask-needl", &alice.token, ask.clone()).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["report_chat"], true);
    assert_eq!(answer["report_id"], id);
    assert!(answer["session_id"].is_null(), "{answer}");
    let cited: Vec<&str> =
        answer["retrieved_results"].as_array().unwrap().iter().map(|c| c["document_id"].as_str().unwrap()).collect();
    assert!(!cited.is_empty(), "{answer}");
    assert!(cited.iter().all(|d| *d == "alice-results"), "only the report's files: {cited:?}");
    assert!(answer["generated_answer"]["answer"].as_str().unwrap().contains("14 percent"), "{answer}");
    let (_, sessions) = app.get("/api/ml/ask-needl/sessions", &alice.token).await;
    assert_eq!(sessions["sessions"].as_array().unwrap().len(), 0, "no session saved: {sessions}");
    let (status, body) = app.post("/api/ml/ask-needl", &bob.token, ask).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::NOT_FOUND, Some("report_not_found")), "{body}");
});

api_test!(a_completed_report_exports_as_pdf_and_docx_with_its_citations_as_notes, |app: TestApp| async move {
    let alice = owner_with_files(&app, "alice").await;
    let bob = app.sign_up("bob").await;
    let report = init(
        &app,
        &alice.token,
        json!({"report_type": "initiation_coverage", "name": "Acme Steel", "files": ["alice-overview", "alice-results"]}),
    )
    .await;
    let id = report["id"].as_str().unwrap();
    generate(&app, &alice.token, id).await;
    let done = ended(&app, &alice.token, id).await;
    assert_eq!(done["status"], "COMPLETED", "{done}");
    let raw = &done["result"]["raw_data"];
    let first = raw["sections"][0]["sentences"][0]["sentence"].as_str().unwrap();
    let opening: String = first.split_whitespace().take(8).collect::<Vec<_>>().join(" ");
    let cited = &raw["citations"][0];
    let note = format!("{}, page {}", cited["title"].as_str().unwrap(), cited["page"]);
    for (format, mime) in [
        ("pdf", "application/pdf"),
        ("docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"),
    ] {
        let res = export(&app, &alice.token, id, format).await;
        assert_eq!(res.status(), StatusCode::OK, "{format}");
        let header = |name: &str| res.headers().get(name).unwrap().to_str().unwrap().to_string();
        assert_eq!(header("content-type"), mime);
        let disposition = header("content-disposition");
        assert!(
            disposition.starts_with(&format!("attachment; filename=\"Initiation coverage Acme Steel.{format}\"")),
            "{disposition}"
        );
        let bytes = res.bytes().await.unwrap();
        let text = text_of(&bytes, &format!("report.{format}"));
        for heading in ["Initiation coverage: Acme Steel", "Company overview", "Financial performance", "Risks"] {
            assert!(text.contains(heading), "{format}: {heading} in {text}");
        }
        assert!(text.contains(&normalize(&opening)), "{format}: {opening} in {text}");
        assert!(text.contains(&note), "{format}: the note {note} in {text}");
        let quote: String = normalize(cited["text"].as_str().unwrap()).split(' ').take(5).collect::<Vec<_>>().join(" ");
        assert!(text.contains(&quote), "{format}: the quote {quote} in {text}");
    }
    let res = export(&app, &alice.token, id, "rtf").await;
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let res = export(&app, &bob.token, id, "pdf").await;
    assert_eq!(res.status(), StatusCode::NOT_FOUND, "another user's report");
});

/// Runs `$body` with a server whose extraction never finishes (its worker program fails, so
/// every upload stays PROCESSING while it waits to retry).
macro_rules! stalled_extraction_test {
    ($name:ident, $body:expr) => {
        api_test_with!($name, |config: &mut ServeArgs| config.extract_worker = Some("/bin/false".into()), $body);
    };
}

stalled_extraction_test!(a_report_is_not_generated_while_one_of_its_files_processes, |app: TestApp| async move {
    let alice = app.sign_up("alice").await;
    let id = upload_report(&app, &alice.token, "credit_report", None, &[("f-1", "one.txt", OVERVIEW.as_bytes())]).await;
    let draft = detail(&app, &alice.token, &id).await;
    assert_eq!(draft["payload"]["documents"][0]["status"], "PROCESSING", "{draft}");
    assert!(draft["payload"]["documents"][0]["object_location"].is_null());
    let (status, body) = app.post("/api/ml/report/generate", &alice.token, json!({"report_id": id})).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(body["code"], "report_file_processing");
    assert_eq!(body["message"], "File one.txt is still processing; generate the report once it is done");
    assert_eq!(detail(&app, &alice.token, &id).await["status"], "DRAFT", "nothing written");
});
