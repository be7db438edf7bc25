//! The user's own account: profile and preference changes read back at once, and onboarding
//! that ends a new user's newness.

use crate::support::*;

api_test!(preferences_and_profile_changes_are_read_back_at_once, |app: TestApp| async move {
    let app = &app;
    let s = app.sign_up("dee").await;
    let (_, prefs) = app.get("/api/user/preferences", &s.token).await;
    assert_eq!(prefs, json!({"nav_state": null, "askneedl_pro": false}));
    let (status, prefs) = app.patch("/api/user/preferences", &s.token, json!({"askneedl_pro": true})).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(prefs["askneedl_pro"], true);
    app.patch("/api/user/preferences", &s.token, json!({"nav_state": "closed"})).await;
    let (_, prefs) = app.get("/api/user/preferences", &s.token).await;
    assert_eq!(prefs, json!({"nav_state": "closed", "askneedl_pro": true}));
    let (status, _) = app.patch("/api/user/preferences", &s.token, json!({"nav_state": "sideways"})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    let (status, user) = app.patch("/api/user", &s.token, json!({"industry": "Banking"})).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(user["industry"], "Banking");
    let (_, user) = app.get("/api/user", &s.token).await;
    assert_eq!(user["email_id"], "dee@example.com");
    assert_eq!(user["whatsapp_number"], Value::Null);
    // A WhatsApp number needs its country code; a refused one changes nothing.
    let (status, body) = app.patch("/api/user", &s.token, json!({"whatsapp_number": "07700 900123"})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(body["code"], "invalid_whatsapp_number");
    assert_eq!(app.get("/api/user", &s.token).await.1["whatsapp_number"], Value::Null);
    let (status, user) = app.patch("/api/user", &s.token, json!({"whatsapp_number": " +44 7700 900123 "})).await;
    assert_eq!(status, StatusCode::OK, "{user}");
    assert_eq!(user["whatsapp_number"], "+44 7700 900123");
});

api_test!(a_new_user_stays_new_until_onboarding_is_done, |app: TestApp| async move {
    let app = &app;
    let s = app.sign_up("eve").await;
    assert_eq!(app.get("/api/user/status", &s.token).await.1["user_status"], "new");
    let (_, flags) = app.get("/api/onboarding/flags", &s.token).await;
    assert_eq!(flags, json!({"show_attributes_form": true, "show_search_modal": true}));
    let (status, _) =
        app.post("/api/onboarding/attributes", &s.token, json!({"industry": "Energy", "profession": "Analyst"})).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(app.get("/api/user/status", &s.token).await.1["user_status"], "active");
    let (_, flags) = app.get("/api/onboarding/flags", &s.token).await;
    assert_eq!(flags, json!({"show_attributes_form": false, "show_search_modal": false}));
});
