//! Tables taken from an uploaded PDF on both backends: listed with their cells, downloaded as
//! CSV and as an XLSX workbook; refused for a document that is not a PDF.

use crate::support::*;

/// A one-page PDF with a paragraph and a four-row table, each cell placed on its own.
fn table_pdf() -> Vec<u8> {
    let rows = [
        ["", "2024", "2023"],
        ["Revenue", "4,200", "3,750"],
        ["Net income", "610", "540"],
        ["Dividend", "0.40", "0.35"],
    ];
    let mut content =
        String::from("BT /F1 11 Tf 72 740 Td (Orchard Fields results for the year, in millions.) Tj ET\n");
    for (r, row) in rows.iter().enumerate() {
        let y = 700 - r * 16;
        for (c, cell) in row.iter().enumerate() {
            if !cell.is_empty() {
                content.push_str(&format!("BT /F1 11 Tf {} {y} Td ({cell}) Tj ET\n", [72, 260, 360][c]));
            }
        }
    }
    pdf_page(&content)
}

api_test!(a_pdfs_tables_are_listed_and_downloaded_as_csv_and_xlsx, |app: TestApp| async move {
    let ann = app.sign_up("ann").await;
    let init =
        app.upload(&ann.token, &[("t-pdf", "results.pdf", &table_pdf()), ("t-txt", "notes.txt", b"Just notes.")]).await;
    app.post("/api/upload/complete", &ann.token, complete_body(&init)).await;
    let states = app.settled_uploads(&ann.token, &["t-pdf", "t-txt"]).await;
    let deeplink = |id: &str| {
        let state = states.iter().find(|s| s["id"] == id).unwrap();
        assert_eq!(state["status"], "COMPLETED", "{state}");
        urlencode(state["deeplink"].as_str().unwrap())
    };
    let (pdf, txt) = (deeplink("t-pdf"), deeplink("t-txt"));

    let (status, list) = app.get(&format!("/api/doc/needldrive/tables?deeplink={pdf}"), &ann.token).await;
    assert_eq!(status, StatusCode::OK, "{list}");
    assert_eq!(list["tables"].as_array().unwrap().len(), 1, "{list}");
    assert_eq!(list["tables"][0]["page"], 1);
    assert_eq!(
        list["tables"][0]["rows"],
        json!([
            ["", "2024", "2023"],
            ["Revenue", "4,200", "3,750"],
            ["Net income", "610", "540"],
            ["Dividend", "0.40", "0.35"]
        ])
    );

    let csv = app
        .request(
            reqwest::Method::GET,
            &format!("/api/doc/needldrive/tables/download?deeplink={pdf}&format=csv"),
            Some(&ann.token),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(csv.status(), StatusCode::OK);
    assert!(csv.headers()["content-disposition"].to_str().unwrap().starts_with("attachment; filename=\""));
    let text = csv.text().await.unwrap();
    assert!(text.contains("Revenue,\"4,200\",\"3,750\"\r\n"), "{text}");
    let xlsx = app
        .request(
            reqwest::Method::GET,
            &format!("/api/doc/needldrive/tables/download?deeplink={pdf}&format=xlsx"),
            Some(&ann.token),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(xlsx.status(), StatusCode::OK);
    assert!(xlsx.bytes().await.unwrap().starts_with(b"PK"), "an XLSX package");

    let (status, body) = app.get(&format!("/api/doc/needldrive/tables?deeplink={txt}"), &ann.token).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("not_a_pdf")));
    let (status, body) =
        app.get(&format!("/api/doc/needldrive/tables/download?deeplink={pdf}&format=ods"), &ann.token).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("unknown_table_format")));
    let bob = app.sign_up("bob").await;
    assert_eq!(
        app.get(&format!("/api/doc/needldrive/tables?deeplink={pdf}"), &bob.token).await.0,
        StatusCode::NOT_FOUND
    );
});
