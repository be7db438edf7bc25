//! Portfolios end to end on both backends: made, read, replaced and deleted by their owner only;
//! bad rows refused with the row named and nothing recorded.

use crate::support::*;

api_test!(portfolios_are_their_owners_and_bad_rows_are_refused_by_row, |app: TestApp| async move {
    let app = &app;
    let ann = app.sign_up("ann").await;
    let bob = app.sign_up("bob").await;
    let body = json!({"name": "  Core  holdings ", "holdings": [
        {"company": "Apple Inc.", "isin": "us0378331005", "quantity": 120.5},
        {"company": "Bayer AG", "isin": "DE000BAY0017", "quantity": 10},
    ]});
    let (status, made) = app.post("/api/portfolios", &ann.token, body).await;
    assert_eq!(status, StatusCode::CREATED, "{made}");
    assert_eq!(made["name"], "Core holdings");
    assert_eq!(made["holdings"][0]["isin"], "US0378331005", "ISINs are kept upper case");
    assert_eq!(made["holdings"][0]["quantity"], 120.5);
    let id = made["id"].as_str().unwrap().to_string();
    // The companies held are offered as AI feeds to watch.
    let (_, offered) = app.get("/api/boards/suggestions", &ann.token).await;
    let held = offered["results"].as_array().unwrap().iter().find(|s| s["name"] == "Bayer AG").cloned();
    let held = held.unwrap_or_else(|| panic!("a held company is suggested: {offered}"));
    assert_eq!(held["definition"]["companies"][0]["name"], "Bayer AG");
    assert_eq!(held["definition"]["type"], "ai");

    // A wrong check digit, a repeated ISIN, a zero quantity: refused, naming the row.
    let refused = [
        (
            json!([{"company": "Apple", "isin": "US0378331005", "quantity": 1},
                {"company": "Bad", "isin": "US0378331006", "quantity": 1}]),
            "invalid_isin",
            "Row 2",
        ),
        (
            json!([{"company": "Apple", "isin": "US0378331005", "quantity": 1},
                {"company": "Apple", "isin": "US0378331005", "quantity": 2}]),
            "duplicate_isin",
            "Row 2",
        ),
        (json!([{"company": "Apple", "isin": "US0378331005", "quantity": 0}]), "invalid_quantity", "Row 1"),
        (json!([{"company": " ", "isin": "US0378331005", "quantity": 1}]), "holding_company_required", "Row 1"),
    ];
    for (holdings, code, row) in refused {
        let (status, body) =
            app.post("/api/portfolios", &ann.token, json!({"name": "Bad", "holdings": holdings})).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
        assert_eq!(body["code"], code, "{body}");
        assert!(body["message"].as_str().unwrap().starts_with(row), "{body}");
    }
    let (_, list) = app.get("/api/portfolios", &ann.token).await;
    assert_eq!(list["portfolios"].as_array().unwrap().len(), 1, "nothing refused was recorded: {list}");

    // Replaced whole by its owner; someone else is told it does not exist.
    let path = format!("/api/portfolios/{id}");
    let replacement =
        json!({"name": "Core", "holdings": [{"company": "BAE Systems", "isin": "GB0002634946", "quantity": 3}]});
    let (status, _) = app.put(&path, &bob.token, replacement.clone()).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(app.get(&path, &bob.token).await.0, StatusCode::NOT_FOUND);
    assert!(app.get("/api/portfolios", &bob.token).await.1["portfolios"].as_array().unwrap().is_empty());
    let (status, replaced) = app.put(&path, &ann.token, replacement).await;
    assert_eq!(status, StatusCode::OK, "{replaced}");
    assert_eq!(replaced["holdings"].as_array().unwrap().len(), 1);
    assert_eq!(app.get(&path, &ann.token).await.1["holdings"][0]["company"], "BAE Systems");

    assert_eq!(app.delete(&path, &bob.token).await.0, StatusCode::NOT_FOUND);
    assert_eq!(app.delete(&path, &ann.token).await.0, StatusCode::NO_CONTENT);
    assert_eq!(app.get(&path, &ann.token).await.0, StatusCode::NOT_FOUND);
    assert_eq!(app.delete(&path, &ann.token).await.0, StatusCode::NOT_FOUND);
});
