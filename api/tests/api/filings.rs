//! Companies followed on SEC EDGAR, against a local EDGAR (`testkit::edgar`): found by ticker,
//! name or CIK before anything is recorded; their filings brought in as documents titled and
//! tagged as a reader expects, searchable, with the inline XBRL's statements; and what cannot be
//! read said on the company, with the rest brought in.

use testkit::edgar::{FakeCompany, FakeEdgar, FakeFiling};

use crate::support::*;

const APPLE: u64 = 320193;
const ORCHARD: u64 = 1_234_567;
const GLASSWORKS: u64 = 2_345_678;
const PAPERLINE: u64 = 3_456_789;

/// Apple (10-K, 10-Q, 8-K with a press release), a filer without a ticker, a company whose 10-Q
/// names a primary document EDGAR does not have, and one that files its 10-K as a PDF.
async fn edgar() -> FakeEdgar {
    let apple = (0..3).map(|n| FakeFiling::numbered(APPLE, n)).collect();
    let mut orchard =
        FakeCompany::new(ORCHARD, "", "ORCHARD FIELDS HOLDINGS LLC", vec![FakeFiling::numbered(ORCHARD, 0)]);
    orchard.listed = false;
    let broken = FakeFiling { primary_missing: true, ..FakeFiling::numbered(GLASSWORKS, 1) };
    FakeEdgar::start(vec![
        FakeCompany::new(APPLE, "AAPL", "Apple Inc.", apple),
        orchard,
        FakeCompany::new(GLASSWORKS, "GLSW", "GLASSWORKS CORP", vec![broken, FakeFiling::numbered(GLASSWORKS, 0)]),
        FakeCompany::new(
            PAPERLINE,
            "PPRL",
            "PAPERLINE INC",
            vec![FakeFiling { pdf_primary: true, revenue: None, ..FakeFiling::numbered(PAPERLINE, 0) }],
        ),
    ])
    .await
}

async fn spawn(backend: Backend, edgar: &FakeEdgar) -> TestApp {
    spawn_with(backend, edgar, 1).await
}

/// With each company's own feed read every `interval` seconds; EDGAR's latest filings every second.
async fn spawn_with(backend: Backend, edgar: &FakeEdgar, interval: u64) -> TestApp {
    let config = ServeArgs {
        fetch_enabled: true,
        fetch_interval_seconds: interval,
        fetch_allow: vec!["127.0.0.1".into()],
        edgar_contact: Some("Needl tests ops@example.com".into()),
        edgar_url: edgar.url(),
        edgar_poll_seconds: 1,
        ..ServeArgs::for_tests()
    };
    spawn_app_with(backend, config).await
}

/// Polls the followed companies until `source_id`'s satisfies `done` (or 30 s pass).
async fn poll_company(app: &TestApp, token: &str, source_id: &str, done: impl Fn(&Value) -> bool) -> Value {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    loop {
        let (_, overview) = app.get("/api/connect/edgar", token).await;
        let company = overview["companies"].as_array().unwrap().iter().find(|c| c["source_id"] == source_id).cloned();
        if let Some(company) = company.filter(|c| done(c)) {
            return company;
        }
        assert!(tokio::time::Instant::now() < deadline, "the company never got there: {overview}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn search_count(app: &TestApp, token: &str, q: &str) -> u64 {
    let (status, found) = app.post("/api/search", token, json!({"q": q, "num_docs": 10})).await;
    assert_eq!(status, StatusCode::OK, "{found}");
    found["count"].as_u64().unwrap()
}

/// Searches until `q` finds `want` documents (the index follows the store, a moment behind), or
/// 20 s pass; returns what the last search counted.
async fn search_until(app: &TestApp, token: &str, q: &str, want: u64) -> u64 {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    loop {
        let count = search_count(app, token, q).await;
        if count == want || tokio::time::Instant::now() >= deadline {
            return count;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn filings_by_ticker_become_documents(backend: Backend) {
    let edgar = edgar().await;
    let app = spawn(backend, &edgar).await;
    let s = app.sign_up("analyst").await;
    let (status, followed) = app.post("/api/connect/edgar", &s.token, json!({"company": "aapl"})).await;
    assert_eq!(status, StatusCode::OK, "{followed}");
    assert_eq!((followed["name"].as_str(), followed["ticker"].as_str()), (Some("Apple Inc."), Some("AAPL")));
    assert_eq!(followed["cik"], "0000320193");
    assert_eq!(followed["forms"], json!([]));
    let id = followed["source_id"].as_str().unwrap().to_string();
    let company = poll_company(&app, &s.token, &id, |c| c["filings"] == 3).await;
    assert!(company["last_error"].is_null(), "{company}");
    assert!(company["last_fetched_at"].is_string(), "{company}");

    let (_, listed) = app.get("/api/documents?sub_category=exchanges", &s.token).await;
    let docs = listed["results"].as_array().unwrap();
    let titles: Vec<&str> = docs.iter().filter_map(|d| d["title"].as_str()).collect();
    assert!(titles.contains(&"Apple Inc. — 10-K — FY2024"), "{titles:?}");
    assert!(titles.contains(&"Apple Inc. — 8-K — 1 Nov 2024"), "{titles:?}");
    assert!(titles.iter().any(|t| t.starts_with("Apple Inc. — 8-K — Exhibit 99.1")), "{titles:?}");
    assert!(!titles.iter().any(|t| t.contains("0000320193-24")), "no accession number as a title: {titles:?}");
    let annual = docs.iter().find(|d| d["title"] == "Apple Inc. — 10-K — FY2024").unwrap();
    let tags = &annual["metadata"];
    assert_eq!(tags["form_type"], "10-K");
    assert_eq!(tags["cik"], "320193");
    assert_eq!(tags["ticker"], "AAPL");
    assert_eq!(tags["company_name"], "Apple Inc.");
    assert_eq!(tags["accession_number"], "0000320193-24-000000");
    assert_eq!(tags["period_of_report"], "2024-09-28");
    assert_eq!(tags["filing_date"], "2024-11-01");
    assert!(annual["link"].as_str().unwrap().ends_with("/primary.htm"), "{annual}");

    // Searchable by what only one filing says, the statements page by its heading, and faceted
    // under the US with the company's name.
    assert_eq!(search_until(&app, &s.token, &format!("zq{APPLE}x0"), 1).await, 1);
    assert_eq!(search_until(&app, &s.token, "\"XBRL data\"", 2).await, 2, "the 10-K and 10-Q carry statements");
    let (_, facets) = app
        .post(
            "/api/search/exchanges",
            &s.token,
            json!({"type": "filter", "q": "", "filter": {"exchanges": {"Country": ["US"]}}}),
        )
        .await;
    let companies = facets["facets"]["exchanges"]["Companies"].as_array().cloned().unwrap_or_default();
    assert!(companies.iter().any(|c| c["key"] == "Apple Inc."), "{facets}");

    // A new filing appears in the feed: brought in at the next check, nothing twice.
    edgar.publish(APPLE, FakeFiling::numbered(APPLE, 9));
    poll_company(&app, &s.token, &id, |c| c["filings"] == 4).await;
    assert_eq!(search_until(&app, &s.token, &format!("zq{APPLE}x9"), 1).await, 1);
    let feeds = edgar.requested().iter().filter(|p| p.contains("browse-edgar")).count();
    let indexes = edgar.requested().iter().filter(|p| p.ends_with("-index.htm")).count();
    assert!(feeds >= 2 && indexes == 4, "each filing's index read once: {:?}", edgar.requested());
    assert!(edgar.busiest_second() <= 10, "over EDGAR's rate: {}", edgar.busiest_second());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn filings_by_ticker_become_documents_on_sqlite() {
    filings_by_ticker_become_documents(Backend::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn filings_by_ticker_become_documents_on_postgres() {
    filings_by_ticker_become_documents(Backend::Postgres).await;
}

async fn companies_are_found_before_anything_is_recorded(backend: Backend) {
    let edgar = edgar().await;
    let app = spawn(backend, &edgar).await;
    let s = app.sign_up("careful").await;
    let refused = [
        (json!({"company": "ZZZZQ"}), "unknown_company"),
        (json!({"company": ""}), "invalid_company"),
        (json!({"company": "9999999"}), "unknown_company"),
        (json!({"company": "AAPL", "forms": ["10-K", "10-Z"]}), "unknown_form"),
    ];
    for (body, code) in refused {
        let (status, answer) = app.post("/api/connect/edgar", &s.token, body.clone()).await;
        assert_eq!(
            (status, answer["code"].as_str()),
            (StatusCode::UNPROCESSABLE_ENTITY, Some(code)),
            "{body}: {answer}"
        );
        assert!(!answer["message"].as_str().unwrap().is_empty());
    }
    let (_, overview) = app.get("/api/connect/edgar", &s.token).await;
    assert_eq!(overview["companies"], json!([]), "nothing recorded for a refusal");
    assert_eq!(overview["enabled"], true);

    // A filer the company list lacks is found by its CIK through its own feed.
    let (status, orchard) = app.post("/api/connect/edgar", &s.token, json!({"company": "1234567"})).await;
    assert_eq!(status, StatusCode::OK, "{orchard}");
    assert_eq!(orchard["name"], "Orchard Fields Holdings LLC");
    assert!(orchard["ticker"].is_null());

    // The type-ahead, and a follow narrowed to some forms.
    let (_, found) = app.get("/api/connect/edgar/companies?q=app", &s.token).await;
    assert_eq!(found["companies"][0]["ticker"], "AAPL", "{found}");
    let (status, narrowed) =
        app.post("/api/connect/edgar", &s.token, json!({"company": "Apple", "forms": ["8-K"]})).await;
    assert_eq!(status, StatusCode::OK, "{narrowed}");
    assert_eq!(narrowed["forms"], json!(["8-K"]));
    let id = narrowed["source_id"].as_str().unwrap().to_string();
    poll_company(&app, &s.token, &id, |c| c["filings"] == 1).await;
    let (status, _) = app.delete(&format!("/api/connect/edgar/{id}"), &s.token).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let (status, _) = app.delete(&format!("/api/connect/edgar/{id}"), &s.token).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn companies_are_found_before_anything_is_recorded_on_sqlite() {
    companies_are_found_before_anything_is_recorded(Backend::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn companies_are_found_before_anything_is_recorded_on_postgres() {
    companies_are_found_before_anything_is_recorded(Backend::Postgres).await;
}

async fn what_cannot_be_read_is_said_on_the_company(backend: Backend) {
    let edgar = edgar().await;
    let app = spawn(backend, &edgar).await;
    let s = app.sign_up("auditor").await;
    let (_, followed) = app.post("/api/connect/edgar", &s.token, json!({"company": "GLSW"})).await;
    let id = followed["source_id"].as_str().unwrap().to_string();
    let company = poll_company(&app, &s.token, &id, |c| c["filings"] == 1 && c["last_error"].is_string()).await;
    let error = company["last_error"].as_str().unwrap();
    assert!(error.contains("0002345678-24-000001") && error.contains("missing"), "{error}");
    let (_, listed) = app.get("/api/documents?sub_category=exchanges", &s.token).await;
    let titles: Vec<&str> = listed["results"].as_array().unwrap().iter().filter_map(|d| d["title"].as_str()).collect();
    assert_eq!(titles, ["Glassworks Corp — 10-K — FY2024"], "nothing of the broken filing");

    // A feed that stops being readable is said so, and what came in stays.
    edgar.break_feed(GLASSWORKS);
    let (status, _) = app.post(&format!("/api/connect/edgar/{id}/refresh"), &s.token, json!({})).await;
    assert_eq!(status, StatusCode::OK);
    let company = poll_company(&app, &s.token, &id, |c| {
        c["last_error"].as_str().is_some_and(|e| e.contains("could not be read"))
    })
    .await;
    assert_eq!(company["filings"], 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_cannot_be_read_is_said_on_the_company_on_sqlite() {
    what_cannot_be_read_is_said_on_the_company(Backend::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_cannot_be_read_is_said_on_the_company_on_postgres() {
    what_cannot_be_read_is_said_on_the_company(Backend::Postgres).await;
}

async fn a_filing_in_pdf_is_read_like_any_other(backend: Backend) {
    let edgar = edgar().await;
    let app = spawn(backend, &edgar).await;
    let s = app.sign_up("reader").await;
    let (_, followed) = app.post("/api/connect/edgar", &s.token, json!({"company": "PPRL"})).await;
    let id = followed["source_id"].as_str().unwrap().to_string();
    poll_company(&app, &s.token, &id, |c| c["filings"] == 1).await;
    let (_, listed) = app.get("/api/documents?sub_category=exchanges", &s.token).await;
    let doc = &listed["results"][0];
    assert_eq!(doc["title"], "Paperline Inc — 10-K — FY2024", "{listed}");
    assert_eq!(doc["metadata"]["mime_type"], "application/pdf");
    assert_eq!(doc["metadata"]["form_type"], "10-K");
    assert_eq!(search_until(&app, &s.token, &format!("zq{PAPERLINE}x0"), 1).await, 1, "the PDF's text is searchable");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_filing_in_pdf_is_read_like_any_other_on_sqlite() {
    a_filing_in_pdf_is_read_like_any_other(Backend::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_filing_in_pdf_is_read_like_any_other_on_postgres() {
    a_filing_in_pdf_is_read_like_any_other(Backend::Postgres).await;
}

async fn a_company_that_files_is_read_at_once(backend: Backend) {
    let edgar = edgar().await;
    let app = spawn_with(backend, &edgar, 3600).await;
    let s = app.sign_up("watcher").await;
    let (_, followed) = app.post("/api/connect/edgar", &s.token, json!({"company": "GLSW"})).await;
    let id = followed["source_id"].as_str().unwrap().to_string();
    poll_company(&app, &s.token, &id, |c| c["filings"] == 1).await;
    let own_feed = |edgar: &FakeEdgar| {
        edgar.requested().iter().filter(|p| p.contains("action=getcompany") && p.contains("CIK=0002345678")).count()
    };
    assert_eq!(own_feed(&edgar), 1, "read once when followed: {:?}", edgar.requested());

    // Another company files: the latest filings name it, not Glassworks, which stays unread.
    edgar.publish(APPLE, FakeFiling::numbered(APPLE, 7));
    let current = |edgar: &FakeEdgar| edgar.requested().iter().filter(|p| p.contains("action=getcurrent")).count();
    let seen = current(&edgar);
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    while current(&edgar) < seen + 2 {
        assert!(tokio::time::Instant::now() < deadline, "the latest filings were not read again");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(own_feed(&edgar), 1, "{:?}", edgar.requested());

    // Glassworks files: read at once, although its own feed is next due in an hour.
    edgar.publish(GLASSWORKS, FakeFiling::numbered(GLASSWORKS, 5));
    poll_company(&app, &s.token, &id, |c| c["filings"] == 2).await;
    assert_eq!(own_feed(&edgar), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_company_that_files_is_read_at_once_on_sqlite() {
    a_company_that_files_is_read_at_once(Backend::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_company_that_files_is_read_at_once_on_postgres() {
    a_company_that_files_is_read_at_once(Backend::Postgres).await;
}

api_test!(without_a_contact_address_filings_are_off_and_say_why, |app: TestApp| async move {
    let s = app.sign_up("nobody").await;
    let (_, overview) = app.get("/api/connect/edgar", &s.token).await;
    assert_eq!(overview["enabled"], false);
    assert!(overview["reason"].as_str().unwrap().contains("contact"), "{overview}");
    let (status, answer) = app.post("/api/connect/edgar", &s.token, json!({"company": "AAPL"})).await;
    assert_eq!(answer["code"], "edgar_not_configured", "{status} {answer}");
});

/// A BSE listing of two announcements, one with a PDF, served with the PDF; and a catalogue entry
/// reading it through the BSE connector.
async fn bse_listing() -> (std::net::SocketAddr, tempfile::TempDir) {
    let listing = json!({"Table": [
        {"NEWSID": "n-1", "SCRIP_CD": 500325, "NEWSSUB": "Reliance Industries Ltd - 500325 - Investor Presentation",
         "NEWS_DT": "2024-11-25T19:02:11.47", "ATTACHMENTNAME": "deck-1.pdf", "HEADLINE": "Please find the presentation.",
         "CATEGORYNAME": "Company Update", "SUBCATNAME": "Investor Presentation", "SLONGNAME": "Reliance Industries Ltd"},
        {"NEWSID": "n-2", "SCRIP_CD": 500209, "NEWSSUB": "Infosys Ltd - 500209 - Board Meeting Intimation",
         "NEWS_DT": "2024-11-25T18:00:00", "ATTACHMENTNAME": "", "HEADLINE": "The board meets on 12 December.",
         "CATEGORYNAME": "Board Meeting", "SUBCATNAME": "", "SLONGNAME": "Infosys Ltd"}
    ], "Table1": [{"ROWCNT": 2}]});
    let pdf = tiny_pdf("Jamnagar refinery throughput rose quintuplex");
    let app =
        axum::Router::new().route("/listing", axum::routing::get(move || async move { axum::Json(listing) })).route(
            "/attach/deck-1.pdf",
            axum::routing::get(move || async move { ([("content-type", "application/pdf")], pdf) }),
        );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("catalogue.toml"),
        format!(
            "[[source]]\nkey = \"bse_local\"\ntitle = \"BSE (local)\"\ngroup = \"Indian Capital Markets\"\n\
             connector = \"bse\"\nfeed_urls = [\"http://{addr}/listing\"]\nattachment_base = \"http://{addr}/attach/\"\n"
        ),
    )
    .unwrap();
    (addr, dir)
}

async fn an_exchange_listing_brings_in_its_announcements(backend: Backend) {
    let (_, dir) = bse_listing().await;
    let config = ServeArgs {
        fetch_enabled: true,
        fetch_interval_seconds: 1,
        fetch_allow: vec!["127.0.0.1".into()],
        catalogue: Some(dir.path().join("catalogue.toml")),
        ..ServeArgs::for_tests()
    };
    let app = spawn_app_with(backend, config).await;
    let s = app.sign_up("markets").await;
    let (status, _) = app.post("/api/connect/public", &s.token, json!({"key": "bse_local"})).await;
    assert_eq!(status, StatusCode::OK);
    let page = poll_documents(&app, &s.token, 2).await;
    let docs = page["results"].as_array().unwrap();
    let deck = docs.iter().find(|d| d["metadata"]["company_name"] == "Reliance Industries Ltd").expect("the deck");
    assert_eq!(deck["title"], "Reliance Industries Ltd — Investor Presentation");
    assert_eq!(deck["metadata"]["exchange"], "BSE");
    assert_eq!(deck["metadata"]["symbol"], "500325");
    assert_eq!(deck["metadata"]["mime_type"], "application/pdf");
    let board = docs.iter().find(|d| d["metadata"]["company_name"] == "Infosys Ltd").expect("the notice");
    assert!(board["title"].as_str().unwrap().contains("Board Meeting"), "{board}");
    assert_eq!(search_until(&app, &s.token, "quintuplex", 1).await, 1, "the PDF's text is searchable");
    assert_eq!(search_until(&app, &s.token, "December", 1).await, 1, "a notice without a PDF keeps its headline");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_exchange_listing_brings_in_its_announcements_on_sqlite() {
    an_exchange_listing_brings_in_its_announcements(Backend::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_exchange_listing_brings_in_its_announcements_on_postgres() {
    an_exchange_listing_brings_in_its_announcements(Backend::Postgres).await;
}
