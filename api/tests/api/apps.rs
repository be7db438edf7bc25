//! Connected apps end to end on both backends, against a real IMAP server (Dovecot): an account
//! checked before anything is kept, a mailbox connected and read into its owner's documents
//! (messages with sender and subject, attachments extracted), new mail brought by "sync now",
//! credentials that stop working reported without losing what came in, and the vendor apps
//! listed with what they lack; and a WebDAV folder (WsgiDAV) whose new and changed files come in.

use testkit::imap::Dovecot;
use testkit::webdav::WsgiDav;

use crate::support::*;

fn message(id: &str, from: &str, subject: &str, body: &str) -> Vec<u8> {
    format!(
        "From: {from}\r\nTo: Ann <ann@example.com>\r\nSubject: {subject}\r\nDate: Tue, 3 Nov 2026 09:30:00 +0000\r\n\
         Message-ID: <{id}@example.com>\r\n\r\n{body}\r\n"
    )
    .into_bytes()
}

fn with_pdf(id: &str, subject: &str, pdf: &[u8]) -> Vec<u8> {
    use base64::Engine;
    let encoded = base64::engine::general_purpose::STANDARD.encode(pdf);
    format!(
        "From: Bea Quinn <bea@example.com>\r\nTo: ann@example.com\r\nSubject: {subject}\r\n\
         Message-ID: <{id}@example.com>\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"part\"\r\n\r\n\
         --part\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nThe board pack is attached.\r\n\
         --part\r\nContent-Type: application/pdf; name=\"board-pack.pdf\"\r\n\
         Content-Disposition: attachment; filename=\"board-pack.pdf\"\r\nContent-Transfer-Encoding: base64\r\n\r\n\
         {encoded}\r\n--part--\r\n"
    )
    .into_bytes()
}

fn account(port: u16, password: &str) -> Value {
    json!({"host": "127.0.0.1", "port": port, "security": "plain", "username": "ann", "password": password})
}

/// Polls the user's documents of `source` until there are `want` (or 30 s pass).
async fn documents_of(app: &TestApp, token: &str, source: &str, want: usize) -> Vec<Value> {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    loop {
        let (_, page) = app.get("/api/documents?limit=100", token).await;
        let found: Vec<Value> =
            page["results"].as_array().unwrap().iter().filter(|d| d["source"] == source).cloned().collect();
        if found.len() >= want || tokio::time::Instant::now() > deadline {
            return found;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

async fn mail_documents(app: &TestApp, token: &str, want: usize) -> Vec<Value> {
    documents_of(app, token, "email", want).await
}

async fn mail_app(app: &TestApp, token: &str) -> Value {
    let (status, view) = app.get("/api/connect/apps/email", token).await;
    assert_eq!(status, StatusCode::OK, "{view}");
    view
}

api_test_with!(
    a_mailbox_is_checked_connected_and_read_into_its_owners_documents,
    |config: &mut ServeArgs| config.fetch_allow = vec!["127.0.0.1".into()],
    |app: TestApp| async move {
        let Some(imap) = Dovecot::start(&[("ann", "orchard-41")]).await else { return };
        imap.deliver("ann", "INBOX", &message("q3", "Carl <carl@example.com>", "Q3 revenue call", "Revenue grew 12%."));
        imap.deliver("ann", "INBOX", &with_pdf("pack", "Board pack", &tiny_pdf("Dividend raised to 40 cents")));
        imap.deliver("ann", "Reports", &message("r1", "desk@example.com", "Weekly desk note", "Rates on hold."));
        imap.deliver("ann", "Spam", &message("s1", "x@example.com", "You won", "Click."));
        let app = &app;
        let ann = app.sign_up("ann").await;
        let bob = app.sign_up("bob").await;

        // The apps, with what vendor apps lack and the mailbox not yet connected.
        let (_, apps) = app.get("/api/connect/apps", &ann.token).await;
        let apps = apps["apps"].as_array().unwrap().clone();
        let gmail = apps.iter().find(|a| a["key"] == "gmail").unwrap();
        assert_eq!(gmail["disabled"], true);
        assert!(gmail["instead"].as_str().unwrap().contains("Email (IMAP)"), "{gmail}");
        let email = apps.iter().find(|a| a["key"] == "email").unwrap();
        assert_eq!((email["disabled"].clone(), email["connected"].clone()), (json!(false), json!(false)));

        // A wrong password is refused in words, and nothing is kept.
        let (status, body) = app.post("/api/connect/mail/check", &ann.token, account(imap.port(), "wrong")).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
        assert_eq!(body["code"], "mail_credentials_refused");
        assert!(body["message"].as_str().unwrap().contains("refused the account name or password"), "{body}");
        let (status, folders) =
            app.post("/api/connect/mail/check", &ann.token, account(imap.port(), "orchard-41")).await;
        assert_eq!(status, StatusCode::OK, "{folders}");
        assert_eq!(folders["folders"], json!(["INBOX", "Reports", "Spam"]));
        let missing = json!({"account": account(imap.port(), "orchard-41"), "folders": ["INBOX", "Archive"]});
        let (status, body) = app.put("/api/connect/mail", &ann.token, missing).await;
        assert_eq!((status, body["code"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("mail_folder_not_found")));
        let id = format!("{}/email", ann.id());
        assert!(event_types(app, "app_connection", &id).await.is_empty(), "a refusal records nothing");

        // Connected: the chosen folders are read, not the others.
        let body = json!({"account": account(imap.port(), "orchard-41"), "folders": ["INBOX", "Reports"]});
        let (status, view) = app.put("/api/connect/mail", &ann.token, body).await;
        assert_eq!(status, StatusCode::OK, "{view}");
        assert_eq!((view["connected"].clone(), view["tokenValid"].clone()), (json!(true), json!(true)));
        assert!(view["mail"].get("password").is_none(), "the password is never sent back: {view}");
        let mail = mail_documents(app, &ann.token, 4).await;
        let titles: Vec<&str> = mail.iter().map(|d| d["title"].as_str().unwrap()).collect();
        assert_eq!(mail.len(), 4, "three messages and one attachment: {titles:?}");
        let call = mail.iter().find(|d| d["title"] == "Q3 revenue call").unwrap();
        assert_eq!(call["author"], "Carl <carl@example.com>");
        assert_eq!(call["metadata"]["folder"], "INBOX");
        assert!(call["summary"].as_str().unwrap().contains("Revenue grew 12%"), "{call}");
        assert!(call["published_at"].as_str().unwrap().starts_with("2026-11-03T09:30"), "{call}");
        let pack =
            mail.iter().find(|d| d["metadata"]["original_file_name"] == "board-pack.pdf").expect("the PDF attachment");
        assert!(pack["summary"].as_str().unwrap().contains("Dividend raised"), "{pack}");
        assert!(pack["metadata"].get("attached_to").is_none(), "no internal ids on cards: {pack}");
        assert!(!titles.contains(&"You won"), "a folder not chosen is not read");
        let (_, bobs) = app.get("/api/documents?limit=100", &bob.token).await;
        assert!(
            bobs["results"].as_array().unwrap().iter().all(|d| d["source"] != "email"),
            "mail is its owner's alone"
        );

        // The stored connection holds the password and account sealed, never as typed.
        let stored: Vec<(String,)> = app
            .server
            .state
            .db
            .fetch_all(
                "SELECT CAST(payload AS TEXT) FROM events WHERE aggregate_type = 'app_connection' AND event_type = 'MailConnected'",
                vec![],
            )
            .await
            .unwrap();
        assert!(stored.iter().all(|(p,)| !p.contains("orchard-41") && p.contains("sealed:v1:")), "{stored:?}");

        // New mail arrives; "sync now" brings it, and nothing twice.
        imap.deliver("ann", "INBOX", &message("q4", "Carl <carl@example.com>", "Q4 guidance", "Guidance raised."));
        let (status, _) = app.post("/api/connect/mail/sync", &ann.token, json!({})).await;
        assert_eq!(status, StatusCode::ACCEPTED);
        let mail = mail_documents(app, &ann.token, 5).await;
        assert_eq!(mail.len(), 5, "{mail:?}");
        // The count is the connection's read model, which may lag the documents a moment under load.
        let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
        let mut view = mail_app(app, &ann.token).await;
        while view["mail"]["imported"] != 5 && tokio::time::Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(100)).await;
            view = mail_app(app, &ann.token).await;
        }
        assert_eq!(view["mail"]["imported"], 5, "{view}");

        // The password stops working at the server: the app says so, and what came in stays.
        std::fs::write(imap.maildir("ann").join("../../../users"), "ann:{PLAIN}changed::::::\n").unwrap();
        // (Dovecot reads its password file again when it sees it changed, which may take a moment:
        // ask again until a sync meets the new password.)
        let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
        let view = loop {
            app.post("/api/connect/mail/sync", &ann.token, json!({})).await;
            tokio::time::sleep(Duration::from_millis(500)).await;
            let view = mail_app(app, &ann.token).await;
            if view["tokenValid"] == false || tokio::time::Instant::now() > deadline {
                break view;
            }
        };
        assert_eq!(view["tokenValid"], false, "{view}\n{}", imap.log());
        assert!(view["mail"]["last_error"].as_str().unwrap().contains("refused"), "{view}");
        assert_eq!(mail_documents(app, &ann.token, 5).await.len(), 5);

        // Disconnected: the mailbox is forgotten, its documents stay.
        assert_eq!(app.delete("/api/connect/mail", &ann.token).await.0, StatusCode::NO_CONTENT);
        assert_eq!(mail_app(app, &ann.token).await["connected"], false);
        assert_eq!(app.delete("/api/connect/mail", &ann.token).await.0, StatusCode::NOT_FOUND);
        assert_eq!(mail_documents(app, &ann.token, 5).await.len(), 5);
    }
);

api_test!(plain_imap_to_a_network_not_allowed_is_refused_before_the_password_is_sent, |app: TestApp| async move {
    let Some(imap) = Dovecot::start(&[("ann", "orchard-41")]).await else { return };
    let ann = app.sign_up("ann").await;
    // Without the operator's allow-list, loopback is refused like any private address.
    let (status, body) = app.post("/api/connect/mail/check", &ann.token, account(imap.port(), "orchard-41")).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("mail_server_not_allowed")));
    let bad = json!({"host": "https://mail.example.com", "security": "tls", "username": "ann", "password": "x"});
    let (status, body) = app.post("/api/connect/mail/check", &ann.token, bad).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("invalid_mail_host")));
    assert!(!imap.log().contains("user=<ann>"), "no sign-in reached the server: {}", imap.log());
});

api_test_with!(
    a_webdav_folder_is_checked_connected_and_its_new_and_changed_files_imported,
    |config: &mut ServeArgs| config.fetch_allow = vec!["127.0.0.1".into()],
    |app: TestApp| async move {
        let Some(dav) = WsgiDav::start("ann", "cloud-seven-7").await else { return };
        let folder = dav.root().join("Reports");
        std::fs::create_dir_all(folder.join("Archive")).unwrap();
        std::fs::write(folder.join("q3.pdf"), tiny_pdf("Quarterly dividend raised to 40 cents")).unwrap();
        std::fs::write(folder.join("board notes.txt"), "The board met on Tuesday and approved the budget.").unwrap();
        std::fs::write(folder.join("photo.png"), [0x89, b'P', b'N', b'G', 0, 1, 2, 3]).unwrap();
        std::fs::write(folder.join("Archive").join("old.txt"), "An old note in a subfolder.").unwrap();
        let app = &app;
        let ann = app.sign_up("ann").await;
        let account = |password: &str| json!({"url": dav.url("Reports"), "username": "ann", "password": password});

        let (status, body) = app.post("/api/connect/webdav/check", &ann.token, account("wrong")).await;
        assert_eq!(
            (status, body["code"].as_str()),
            (StatusCode::UNPROCESSABLE_ENTITY, Some("webdav_credentials_refused"))
        );
        let (status, listed) = app.post("/api/connect/webdav/check", &ann.token, account("cloud-seven-7")).await;
        assert_eq!(status, StatusCode::OK, "{listed}");
        let names: Vec<&str> =
            listed["files"].as_array().unwrap().iter().map(|f| f["name"].as_str().unwrap()).collect();
        assert_eq!(names, ["board notes.txt", "photo.png", "q3.pdf"], "the folder's files, not its subfolder's");
        assert!(event_types(app, "app_connection", &format!("{}/webdav", ann.id())).await.is_empty());

        let (status, view) = app.put("/api/connect/webdav", &ann.token, account("cloud-seven-7")).await;
        assert_eq!(status, StatusCode::OK, "{view}");
        assert_eq!(view["drive"]["url"], dav.url("Reports/"));
        assert!(view["drive"].get("password").is_none());
        let found = documents_of(app, &ann.token, "webdav", 2).await;
        assert_eq!(found.len(), 2, "the PDF and the text file; the image is no document: {found:?}");
        let pdf = found.iter().find(|d| d["metadata"]["original_file_name"] == "q3.pdf").expect("the PDF");
        assert!(pdf["summary"].as_str().unwrap().contains("dividend raised"), "{pdf}");

        // A changed file updates its document; nothing is fetched twice.
        std::fs::write(folder.join("board notes.txt"), "The board met again and approved a new plant in Spain.")
            .unwrap();
        let (status, _) = app.post("/api/connect/webdav/sync", &ann.token, json!({})).await;
        assert_eq!(status, StatusCode::ACCEPTED);
        let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
        let notes = loop {
            let found = documents_of(app, &ann.token, "webdav", 2).await;
            let notes = found.iter().find(|d| d["metadata"]["original_file_name"] == "board notes.txt").cloned();
            let updated = notes.as_ref().is_some_and(|n| n["summary"].as_str().unwrap_or("").contains("Spain"));
            if updated || tokio::time::Instant::now() > deadline {
                assert_eq!(found.len(), 2, "{found:?}");
                break notes.unwrap();
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        };
        assert!(notes["summary"].as_str().unwrap().contains("Spain"), "{notes}");

        let stored: Vec<(String,)> = app
            .server
            .state
            .db
            .fetch_all(
                "SELECT CAST(payload AS TEXT) FROM events WHERE aggregate_type = 'app_connection' \
                 AND event_type = 'DriveConnected'",
                vec![],
            )
            .await
            .unwrap();
        assert!(stored.iter().all(|(p,)| !p.contains("cloud-seven-7") && p.contains("sealed:v1:")), "{stored:?}");

        assert_eq!(app.delete("/api/connect/webdav", &ann.token).await.0, StatusCode::NO_CONTENT);
        assert_eq!(documents_of(app, &ann.token, "webdav", 2).await.len(), 2, "disconnecting keeps the documents");
        let (_, view) = app.get("/api/connect/apps/webdav", &ann.token).await;
        assert_eq!(view["connected"], false);
    }
);

api_test!(plain_http_webdav_to_a_network_not_allowed_is_refused, |app: TestApp| async move {
    let ann = app.sign_up("ann").await;
    let body = json!({"url": "http://127.0.0.1:9/dav/", "username": "ann", "password": "x"});
    let (status, body) = app.post("/api/connect/webdav/check", &ann.token, body).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("webdav_not_allowed")));
    let bad = json!({"url": "ftp://files.example.com/", "username": "ann", "password": "x"});
    let (status, body) = app.post("/api/connect/webdav/check", &ann.token, bad).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("invalid_webdav_url")));
});
