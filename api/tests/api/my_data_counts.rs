//! My Data's tab counts: the Notes tab counts the user's own notes, and no one else's.

use crate::support::*;

/// The Notes sub-category of the user's category index.
async fn notes_tab(app: &TestApp, token: &str) -> Value {
    let (status, index) = app.get("/api/categories", token).await;
    assert_eq!(status, StatusCode::OK, "{index}");
    index["results"][0]["sources"].as_array().unwrap().iter().find(|c| c["key"] == "notes").cloned().unwrap()
}

api_test!(the_notes_tab_counts_the_users_notes_and_no_one_elses, |app: TestApp| async move {
    let app = &app;
    let writer = app.sign_up("notecounter").await;
    let other = app.sign_up("bystander").await;
    assert_eq!(notes_tab(app, &writer.token).await["count"], 0);
    assert_eq!(notes_tab(app, &writer.token).await["connected"], false);

    let plans = create_notebook(app, &writer.token, "Plans").await;
    let visits = create_notebook(app, &writer.token, "Visits").await;
    create_note(app, &writer.token, &plans, "Budget", json!({"type": "doc", "content": []})).await;
    create_note(app, &writer.token, &visits, "Pune", json!({"type": "doc", "content": []})).await;
    let own = create_notebook(app, &other.token, "Elsewhere").await;
    create_note(app, &other.token, &own, "Not counted", json!({"type": "doc", "content": []})).await;

    let tab = notes_tab(app, &writer.token).await;
    assert_eq!(tab["count"], 2, "{tab}");
    assert_eq!(tab["connected"], true, "{tab}");
    assert_eq!(notes_tab(app, &other.token).await["count"], 1);

    // A deleted notebook's notes are no longer counted.
    let (status, body) = app.delete(&format!("/api/notebook/{visits}"), &writer.token).await;
    assert!(status.is_success(), "{body}");
    assert_eq!(notes_tab(app, &writer.token).await["count"], 1);
});
