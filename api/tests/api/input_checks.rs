//! Input handling at the API's edge: paging bounds, snippet links, followed addresses, who sees
//! whose email, and the OpenAPI document's parameters.

use super::*;

/// Every list that pages, as the caller sees it; `{channel}` is a channel they are in.
const PAGED_LISTS: [&str; 8] = [
    "/api/bookmarks",
    "/api/people",
    "/api/comments",
    "/api/tag/documents",
    "/api/documents",
    "/api/notifications",
    "/api/channels/{channel}/items",
    "/api/channels/{channel}/comments",
];

api_test!(a_page_out_of_range_or_not_a_number_is_refused_alike_on_every_list, |app: TestApp| async move {
    let app = &app;
    let s = app.sign_up("pager").await;
    let channel = create_channel(app, &s.token, "Pages", &[]).await;
    for list in PAGED_LISTS {
        let list = list.replace("{channel}", &channel);
        for page in ["9223372036854775807", "100001", "-1", "two", "99999999999999999999"] {
            let (status, body) = app.get(&format!("{list}?page={page}"), &s.token).await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{list}?page={page}: {body}");
            assert_eq!(body["code"], "bad_page", "{list}?page={page}: {body}");
            assert_eq!(body["message"], "page must be a whole number between 0 and 100000", "{list}: {body}");
        }
        let (status, body) = app.get(&format!("{list}?page=100000"), &s.token).await;
        assert_eq!(status, StatusCode::OK, "the last page is answered, empty: {list}: {body}");
        assert_eq!(body["page"], 100_000, "{list}: {body}");
        assert!(body["results"].as_array().unwrap().is_empty(), "{list}: {body}");
    }
    for list in PAGED_LISTS.iter().filter(|l| !l.contains("notifications")) {
        let list = list.replace("{channel}", &channel);
        for limit in ["0", "101", "-1", "ten"] {
            let (status, body) = app.get(&format!("{list}?limit={limit}"), &s.token).await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{list}?limit={limit}: {body}");
            assert_eq!(body["message"], "limit must be a whole number between 1 and 100", "{list}: {body}");
        }
    }
});

api_test!(a_snippet_link_that_leaves_the_app_is_refused_and_nothing_is_written, |app: TestApp| async move {
    let app = &app;
    let s = app.sign_up("clipper").await;
    let notebook = create_notebook(app, &s.token, "Clips").await;
    let path = format!("/api/note/snip/{notebook}");
    for link in ["/\\evil.example/x", "//evil.example", "\\\\evil.example", "/\t/evil.example", "javascript:alert(1)"] {
        let (status, answer) =
            app.post(&path, Some(&s.token), json!({"document": doc("x"), "source": {"link": link}})).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{link:?}: {answer}");
        assert_eq!(answer["code"], "snippet_source_invalid", "{link:?}: {answer}");
    }
    assert_eq!(app.get(&format!("/api/notebook/{notebook}"), &s.token).await.1["results"]["note_count"], 0);
    let (status, answer) = app
        .post(&path, Some(&s.token), json!({"document": doc("x"), "source": {"link": "/preview/rss_news/d1"}}))
        .await;
    assert_eq!(status, StatusCode::OK, "a path of the app is still taken: {answer}");
});
