//! Document summaries end to end on both backends: asked for, written in the background into a
//! PDF, the asker notified; asked again, the same summary; refused for a document the asker
//! may not read; failed with a reason for a document without running text.

use crate::support::*;

const REPORT: &str = "Orchard Fields reported revenue of $4.2 billion for the year, up 12 percent on strong \
    demand for its apples. The board raised the dividend to 40 cents a share after the record year. \
    Revenue grew in every region, led by orchard sales in Europe and the Americas.\n\n\
    The company expects revenue growth to slow next year as apple prices ease across its markets. \
    Weather in the spring damaged part of the crop in the northern orchards, which cut volumes there. \
    Management plans to open two packing plants in Spain to serve European customers faster.";

async fn settled(app: &TestApp, token: &str, deeplink: &str) -> Value {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    loop {
        let (status, body) = app.get(&format!("/api/documents/{deeplink}/summary"), token).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        if !matches!(body["status"].as_str(), Some("PENDING" | "PROCESSING")) || tokio::time::Instant::now() > deadline
        {
            return body;
        }
        tokio::time::sleep(Duration::from_millis(150)).await;
    }
}

api_test!(a_summary_is_written_to_pdf_and_its_asker_notified, |app: TestApp| async move {
    let app = &app;
    let ann = app.sign_up("ann").await;
    let bob = app.sign_up("bob").await;
    ingest_text(app, "orchard-ar", "needldrive", "Orchard Fields annual report", REPORT, Some(ann.id())).await;
    let path = "/api/documents/orchard-ar/summary";

    let (_, none) = app.get(path, &ann.token).await;
    assert_eq!(none["status"], "NONE");
    let (status, asked) = app.post(path, &ann.token, json!({})).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{asked}");
    assert!(matches!(asked["status"].as_str(), Some("PENDING" | "PROCESSING" | "SUCCESS")), "{asked}");
    if asked["status"] != "SUCCESS" {
        assert_eq!(
            asked["message"],
            "Your summary is currently being generated, and we will notify you once it is complete."
        );
    }
    let done = settled(app, &ann.token, "orchard-ar").await;
    assert_eq!(done["status"], "SUCCESS", "{done}");
    assert_eq!(done["summary_pdf"], "/api/documents/orchard-ar/summary/pdf");
    let response = app
        .request(reqwest::Method::GET, "/api/documents/orchard-ar/summary/pdf", Some(&ann.token))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()["content-type"], "application/pdf");
    let bytes = response.bytes().await.unwrap();
    assert!(bytes.starts_with(b"%PDF"), "a PDF");

    // One call lists every summary asked for, for a page of cards.
    let (_, mine) = app.get("/api/documents/summaries", &ann.token).await;
    assert_eq!(
        mine["results"],
        json!([{"deeplink": "orchard-ar", "status": "SUCCESS",
        "summary_pdf": "/api/documents/orchard-ar/summary/pdf", "message": null}])
    );
    let (_, theirs) = app.get("/api/documents/summaries", &bob.token).await;
    assert_eq!(theirs["results"], json!([]));

    // Asked again: the same summary, nothing new recorded.
    app.post(path, &ann.token, json!({})).await;
    let id = format!("{}/orchard-ar", ann.id());
    let types = event_types(app, "document_summary", &id).await;
    assert_eq!(types, ["SummaryRequested", "SummaryStarted", "SummaryCompleted"]);

    // The asker hears it is ready.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    let note = loop {
        let (_, body) = app.get("/api/notifications?page=0", &ann.token).await;
        let found = body["results"]
            .as_array()
            .unwrap()
            .iter()
            .find(|n| n["type"] == "summary_ready" || n["kind"] == "summary_ready")
            .cloned();
        if found.is_some() || tokio::time::Instant::now() > deadline {
            break found;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let note = note.expect("a summary_ready notification");
    assert_eq!(note["document"]["deeplink"], "orchard-ar", "{note}");

    // Someone who may not read the document gets nothing of it.
    assert_eq!(app.post(path, &bob.token, json!({})).await.0, StatusCode::NOT_FOUND);
    assert_eq!(app.get(path, &bob.token).await.0, StatusCode::NOT_FOUND);
    assert_eq!(app.get("/api/documents/orchard-ar/summary/pdf", &bob.token).await.0, StatusCode::NOT_FOUND);

    // A document without running text fails with a reason, and may be asked for again.
    ingest_text(app, "figures", "needldrive", "Figures", "2024 2023\n4,200 3,750\n12% 9%", Some(ann.id())).await;
    app.post("/api/documents/figures/summary", &ann.token, json!({})).await;
    let failed = settled(app, &ann.token, "figures").await;
    assert_eq!(failed["status"], "FAILED", "{failed}");
    assert!(failed["message"].as_str().unwrap().contains("too little running text"), "{failed}");
});
