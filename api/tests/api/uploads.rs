//! Uploads and imports: files sent through upload links (or `needl import`) become their owner's
//! documents, limits and the quota hold on the bytes that arrive, and abandoned or hostile
//! uploads fail alone.

use crate::support::*;

/// `needl import` extracts each file in its own worker; a broken or unsupported file fails alone
/// and the rest become the user's documents, which nobody else can read.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn importing_files_makes_them_the_users_documents_and_bad_files_fail_alone() {
    let app = spawn_app(Backend::Sqlite).await;
    let owner = app.sign_up("importer").await;
    let other = app.sign_up("neighbour").await;
    let files = tempfile::tempdir().unwrap();
    std::fs::write(files.path().join("notes.txt"), "Quarterly revenue rose by nine percent.").unwrap();
    std::fs::write(files.path().join("plan.md"), "# Expansion plan\n\nOpen two offices next year.").unwrap();
    std::fs::write(files.path().join("page.html"), "<html><head><title>Board memo</title><script>evil()</script></head><body><p>The board approved the budget.</p></body></html>").unwrap();
    std::fs::write(files.path().join("broken.docx"), b"PK\x03\x04 this is not really a zip").unwrap();
    std::fs::write(files.path().join(".hidden.txt"), "skipped").unwrap();
    let mut paths = vec![files.path().to_path_buf()];
    let shared_pdf = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/docs/pdf/research");
    let pdf = std::fs::read_dir(&shared_pdf).ok().and_then(|d| {
        d.filter_map(|e| e.ok().map(|e| e.path()))
            .find(|p| p.extension().is_some_and(|x| x == "pdf") && !p.to_string_lossy().contains("encrypt"))
    });
    match &pdf {
        Some(p) => paths.push(p.clone()),
        None => eprintln!("skipped the PDF part: ../shared/data not found"),
    }
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_needl"))
        .arg("--data-dir")
        .arg(app._dir.path())
        .arg("import")
        .arg("--user")
        .arg("importer@example.com")
        .args(&paths)
        .env_remove("DATABASE_URL")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "a failed file makes the exit code 2: {stderr}");
    let imported = 3 + usize::from(pdf.is_some());
    assert!(stderr.contains(&format!("imported {imported}, unchanged 0, failed 1")), "{stderr}");
    assert!(stderr.contains("broken.docx"), "{stderr}");
    let page = poll_documents(&app, &owner.token, imported).await;
    let docs = page["results"].as_array().unwrap();
    assert_eq!(docs.len(), imported, "{page}");
    let memo = docs.iter().find(|d| d["title"] == "Board memo").expect("the HTML title is the document's title");
    assert!(!memo["summary"].as_str().unwrap().contains("evil"), "scripts are not text");
    assert_eq!(memo["metadata"]["original_file_name"], "page.html");
    if pdf.is_some() {
        let pdf_doc =
            docs.iter().find(|d| d["metadata"]["mime_type"] == "application/pdf").expect("the PDF was imported");
        assert!(pdf_doc["metadata"]["pages"].as_str().unwrap().parse::<u32>().unwrap() > 0);
    }
    assert!(app.get("/api/documents", &other.token).await.1["results"].as_array().unwrap().is_empty());
    // Importing the same files again changes nothing.
    let again = std::process::Command::new(env!("CARGO_BIN_EXE_needl"))
        .arg("--data-dir")
        .arg(app._dir.path())
        .arg("import")
        .arg("--user")
        .arg("importer@example.com")
        .arg(files.path().join("notes.txt"))
        .env_remove("DATABASE_URL")
        .output()
        .unwrap();
    assert!(again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("imported 0, unchanged 1, failed 0"));
}

api_test!(uploaded_files_become_the_owners_documents_and_a_bad_file_fails_alone, |app: TestApp| async move {
    let app = &app;
    let owner = app.sign_up("uploader").await;
    let other = app.sign_up("stranger").await;
    let (_, config) = app.get("/api/upload/config?source=needldrive", &owner.token).await;
    assert_eq!(config["data"]["config"]["file_count_limit"], 20, "{config}");
    assert!(config["data"]["config"]["file_types"].as_array().unwrap().contains(&json!("pdf")));

    let pdf = tiny_pdf("Quarterly revenue grew twelve percent");
    let init = app
        .upload(
            &owner.token,
            &[
                ("f-pdf", "results.pdf", &pdf),
                ("f-md", "plan.md", b"# Plan\n\nOpen two offices next year."),
                ("f-bad", "broken.docx", b"PK\x03\x04 not really a zip"),
                ("f-filing", "filing.txt", FILING.as_bytes()),
            ],
        )
        .await;
    let (status, done) = app.post("/api/upload/complete", &owner.token, complete_body(&init)).await;
    assert_eq!(status, StatusCode::OK, "{done}");
    let link = init["upload_configs"][0]["upload_link"].as_str().unwrap();
    let late = app.client.put(app.url(link)).body("something else").send().await.unwrap();
    assert_eq!(late.status(), StatusCode::CONFLICT, "a link writes its file once");
    assert!(done["files"].as_array().unwrap().iter().all(|f| f["status"] == "PROCESSING"), "{done}");

    let states = app.settled_uploads(&owner.token, &["f-pdf", "f-md", "f-bad", "f-filing"]).await;
    let by_id =
        |id: &str| states.iter().find(|s| s["id"] == id).cloned().unwrap_or_else(|| panic!("{id} in {states:?}"));
    assert_eq!(by_id("f-pdf")["status"], "COMPLETED", "{states:?}");
    assert_eq!(by_id("f-md")["status"], "COMPLETED", "{states:?}");
    assert_eq!(by_id("f-bad")["status"], "FAILED", "{states:?}");
    assert!(by_id("f-bad")["error"].as_str().unwrap().starts_with("File broken.docx"), "{states:?}");
    // Detail tags come from the document's own text.
    let filing = by_id("f-filing")["deeplink"].as_str().unwrap().to_string();
    let (_, filing) = app.get(&format!("/api/doc/needldrive?deeplink={}", urlencode(&filing)), &owner.token).await;
    let tags = &filing["results"][0]["metadata"];
    assert_eq!(tags["isin"], "INE002A01018", "{tags}");
    assert_eq!(tags["cin"], "L17110MH1973PLC019786", "{tags}");
    assert_eq!(tags["listed"], "Listed", "{tags}");

    let deeplink = by_id("f-pdf")["deeplink"].as_str().unwrap().to_string();
    let query = format!("deeplink={}", urlencode(&deeplink));
    let (status, doc) = app.get(&format!("/api/doc/needldrive?{query}"), &owner.token).await;
    assert_eq!(status, StatusCode::OK, "{doc}");
    let card = &doc["results"][0];
    assert_eq!(card["metadata"]["mime_type"], "application/pdf");
    assert_eq!(card["metadata"]["original_file_name"], "results.pdf");
    assert_eq!(card["owned"], true);
    assert!(card["metadata"]["object_key"].is_null() && card["metadata"]["layout_blob"].is_null(), "{card}");
    assert!(card["summary"].as_str().unwrap().contains("twelve percent"), "{card}");

    let path = format!("/api/doc/needldrive/file?{query}");
    let file = app.request(reqwest::Method::GET, &path, Some(&owner.token)).send().await.unwrap();
    assert_eq!(file.headers()["content-type"], "application/pdf");
    assert_eq!(file.bytes().await.unwrap().to_vec(), pdf, "the original file comes back unchanged");
    let (_, layout) = app.get(&format!("/api/doc/needldrive/layout?{query}"), &owner.token).await;
    let blocks = layout["pages"][0]["blocks"].as_array().expect("the page has blocks");
    assert!(blocks.iter().any(|b| b["text"].as_str().unwrap().contains("twelve")), "{layout}");

    // Nobody else reads, downloads or deletes it.
    assert_eq!(app.get(&format!("/api/doc/needldrive?{query}"), &other.token).await.0, StatusCode::NOT_FOUND);
    assert_eq!(app.get(&format!("/api/doc/needldrive/file?{query}"), &other.token).await.0, StatusCode::NOT_FOUND);
    assert_eq!(app.delete(&format!("/api/doc/needldrive?{query}"), &other.token).await.0, StatusCode::NOT_FOUND);
    assert!(app.get("/api/upload/status?ids=f-pdf", &other.token).await.1["results"].as_array().unwrap().is_empty());

    let (_, storage) = app.get("/api/user/storage", &owner.token).await;
    let md_size = 35;
    assert_eq!(storage["used_bytes"], (pdf.len() + md_size + FILING.len()) as u64, "{storage}");
    assert_eq!(storage["file_count"], 3, "{storage}");

    // Removing the markdown file deletes its document and frees its bytes.
    let md_link = by_id("f-md")["deeplink"].as_str().unwrap().to_string();
    let (status, removed) = app
        .put(
            "/api/upload/complete",
            &owner.token,
            json!({
                "action": "remove", "source": "needldrive", "files": [{"metadata": {"id": "f-md"}}]
            }),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{removed}");
    assert_eq!(
        app.get(&format!("/api/doc/needldrive?deeplink={}", urlencode(&md_link)), &owner.token).await.0,
        StatusCode::NOT_FOUND
    );
    assert_eq!(app.get("/api/user/storage", &owner.token).await.1["used_bytes"], (pdf.len() + FILING.len()) as u64);

    // The owner deletes the PDF; a document of a shared source cannot be deleted.
    assert_eq!(app.delete(&format!("/api/doc/needldrive?{query}"), &owner.token).await.0, StatusCode::NO_CONTENT);
    assert_eq!(
        app.get("/api/documents", &owner.token).await.1["results"].as_array().unwrap().len(),
        1,
        "the filing is left"
    );
    ingest(app, "shared-1", "bse_filings", "A filing", None).await;
    app.post("/api/connect/public", &owner.token, json!({"key": "bse_filings"})).await;
    assert_eq!(app.delete("/api/doc/bse_filings?deeplink=shared-1", &owner.token).await.0, StatusCode::FORBIDDEN);
});

api_test!(upload_limits_are_enforced_by_the_server_with_the_spec_messages, |app: TestApp| async move {
    let app = &app;
    let s = app.sign_up("limits").await;
    let init = |files: Value| app.post("/api/upload/init", &s.token, json!({"source": "needldrive", "files": files}));
    let (status, body) = init(json!([{"id": "a", "name": "virus.exe", "mime_type": "application/x-msdownload"}])).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(body["message"], "File virus.exe type: application/x-msdownload not allowed");
    let (_, body) = init(json!([{"id": "a", "name": "big.pdf", "size": 51 * 1024 * 1024}])).await;
    assert_eq!(body["message"], "File big.pdf size exceeds the limit of 50 MB");
    let many: Vec<Value> = (0..21).map(|i| json!({"id": format!("f{i}"), "name": format!("{i}.pdf")})).collect();
    let (_, body) = init(json!(many)).await;
    assert_eq!(body["message"], "You can only upload 20 files at a time");
    let (status, _) = app
        .post("/api/upload/init", &s.token, json!({"source": "somewhere", "files": [{"id": "a", "name": "a.pdf"}]}))
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);

    // A link only works unchanged, and only for as many bytes as it says.
    let (_, ok) = init(json!([{"id": "good", "name": "notes.txt"}])).await;
    let link = ok["upload_configs"][0]["upload_link"].as_str().unwrap().to_string();
    let forged = link.replace("max=52428800", "max=99999999999");
    assert_eq!(app.client.put(app.url(&forged)).body("x").send().await.unwrap().status(), StatusCode::FORBIDDEN);
    let smaller = link.replace("signature=", "signature=00");
    assert_eq!(app.client.put(app.url(&smaller)).body("x").send().await.unwrap().status(), StatusCode::FORBIDDEN);
    // Completing before the file arrived reports it per file and records nothing.
    let (_, early) = app.post("/api/upload/complete", &s.token, complete_body(&ok)).await;
    assert_eq!(early["files"][0]["status"], "UPLOADING_ERROR", "{early}");
    assert_eq!(app.get("/api/upload/status?ids=good", &s.token).await.1["results"][0]["status"], "UPLOADING");
});

/// The quota and the size limit hold on what arrives, not only on what the browser declares.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_storage_quota_and_size_limit_hold_on_the_bytes_that_arrive() {
    let mut config = ServeArgs::for_tests();
    config.upload_max_mb = 1;
    config.storage_quota_mb = 1;
    let app = spawn_app_with(Backend::Sqlite, config).await;
    let s = app.sign_up("quota").await;
    let big = vec![b'a'; 1024 * 1024 + 10];
    let (_, init) = app
        .post(
            "/api/upload/init",
            &s.token,
            json!({"source": "needldrive", "files": [{"id": "big", "name": "big.txt"}]}),
        )
        .await;
    let link = init["upload_configs"][0]["upload_link"].as_str().unwrap();
    let res = app.client.put(app.url(link)).body(big).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::PAYLOAD_TOO_LARGE);

    let words = "revenue ".repeat(80_000);
    let init = app.upload(&s.token, &[("first", "first.txt", words.as_bytes())]).await;
    app.post("/api/upload/complete", &s.token, complete_body(&init)).await;
    assert_eq!(app.settled_uploads(&s.token, &["first"]).await[0]["status"], "COMPLETED");
    let (status, body) = app
        .post(
            "/api/upload/init",
            &s.token,
            json!({"source": "needldrive", "files": [{"id": "second", "name": "second.txt", "size": words.len()}]}),
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(body["code"], "storage_quota_exceeded", "{body}");
    // A browser that does not declare sizes is caught when the transfer completes.
    let (_, init) = app
        .post(
            "/api/upload/init",
            &s.token,
            json!({"source": "needldrive", "files": [{"id": "third", "name": "third.txt"}]}),
        )
        .await;
    let link = init["upload_configs"][0]["upload_link"].as_str().unwrap();
    assert_eq!(app.client.put(app.url(link)).body(words.clone()).send().await.unwrap().status(), StatusCode::CREATED);
    let (_, done) = app.post("/api/upload/complete", &s.token, complete_body(&init)).await;
    assert_eq!(done["files"][0]["status"], "FAILED", "{done}");
    assert!(done["files"][0]["error"].as_str().unwrap().starts_with("Not enough storage"), "{done}");
    // A retried completion reports where each file is and changes nothing.
    let (_, again) = app.post("/api/upload/complete", &s.token, complete_body(&init)).await;
    assert_eq!(again["files"][0]["status"], "FAILED", "{again}");

    // Two files reported in one call count together against the quota.
    let t = app.sign_up("pair").await;
    let (_, pair) = app
        .post(
            "/api/upload/init",
            &t.token,
            json!({"source": "needldrive", "files": [{"id": "a", "name": "a.txt"}, {"id": "b", "name": "b.txt"}]}),
        )
        .await;
    for config in pair["upload_configs"].as_array().unwrap() {
        let link = config["upload_link"].as_str().unwrap();
        assert_eq!(
            app.client.put(app.url(link)).body(words.clone()).send().await.unwrap().status(),
            StatusCode::CREATED
        );
    }
    let (_, both) = app.post("/api/upload/complete", &t.token, complete_body(&pair)).await;
    assert_eq!(both["files"][0]["status"], "PROCESSING", "{both}");
    assert_eq!(both["files"][1]["status"], "FAILED", "{both}");
}

const FILING: &str =
    "Reliance Industries Limited\nCIN: L17110MH1973PLC019786\n\nTo BSE Limited, Scrip Code: 500325\n\n\
Sub: Outcome of the Board Meeting\nISIN: INE002A01018\n\nThe Board approved the financial results for the quarter.\n";

/// An upload never reported done is given up after a while, and the bytes it sent are deleted.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn abandoned_uploads_are_given_up_and_their_bytes_deleted() {
    let app = spawn_app(Backend::Sqlite).await;
    let s = app.sign_up("forgetful").await;
    let init = app.upload(&s.token, &[("left", "left.txt", b"half a thought")]).await;
    let key = init["upload_configs"][0]["metadata_fields"]["key"].as_str().unwrap().to_string();
    let state = &app.server.state;
    assert_eq!(state.storage.size(&key).await.unwrap(), Some(14));
    let processor = service::uploads::UploadProcessor::new(
        state.db.clone(),
        state.bus.clone(),
        state.storage.clone(),
        &state.data_dir,
        extract::WorkerCommand::new(env!("CARGO_BIN_EXE_needl")).arg("extract-worker"),
        std::sync::Arc::new(tokio::sync::Notify::new()),
    );
    let a_day_ago = chrono::Utc::now() - chrono::Duration::days(1);
    assert_eq!(processor.sweep_abandoned(a_day_ago).await.unwrap(), 0, "a fresh upload is left alone");
    let later = chrono::Utc::now() + chrono::Duration::seconds(1);
    assert_eq!(processor.sweep_abandoned(later).await.unwrap(), 1);
    let status = app.settled_uploads(&s.token, &["left"]).await;
    assert_eq!(status[0]["status"], "FAILED", "{status:?}");
    assert!(status[0]["error"].as_str().unwrap().contains("never completed"));
    assert_eq!(state.storage.size(&key).await.unwrap(), None, "its bytes are gone");
}

/// Hostile files (zip bombs, XML bombs, fuzzed PDFs, truncated OOXML, XXE) sent in one upload with
/// a good file: each fails alone with its reason or yields harmless text, and the good file is
/// done. Reads ../shared/data/hostile; skipped with a message where it is absent.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_uploads_fail_alone_and_the_good_file_is_done() {
    let hostile = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/hostile");
    if !hostile.is_dir() {
        eprintln!("skipped: {} not found", hostile.display());
        return;
    }
    let mut files: Vec<(String, String, Vec<u8>)> = Vec::new();
    for folder in ["office", "pdf-malformed"] {
        for entry in std::fs::read_dir(hostile.join(folder)).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            files.push((format!("h{}", files.len()), name, std::fs::read(&path).unwrap()));
        }
    }
    // A zip bomb dressed as a Word file, and an XXE payload dressed as a web page.
    let bomb = std::fs::read(hostile.join("archive/harimypala__zbsm_overlapping-zip-bomb.zip")).unwrap();
    files.push(("bomb".into(), "bomb.docx".into(), bomb));
    let xxe = std::fs::read(hostile.join("xml/payloadsallthethings__classic-xxe-etc-passwd.xml")).unwrap();
    files.push(("xxe".into(), "xxe.html".into(), xxe));
    files.push(("good".into(), "good.txt".into(), b"Net interest margin widened to 3.4 percent.".to_vec()));

    let app = spawn_app(Backend::Sqlite).await;
    let s = app.sign_up("careful").await;
    let list: Vec<(&str, &str, &[u8])> = files.iter().map(|(i, n, b)| (i.as_str(), n.as_str(), b.as_slice())).collect();
    let started = std::time::Instant::now();
    let init = app.upload(&s.token, &list).await;
    let (_, done) = app.post("/api/upload/complete", &s.token, complete_body(&init)).await;
    assert_eq!(done["files"].as_array().unwrap().len(), files.len(), "{done}");
    let ids: Vec<&str> = files.iter().map(|(i, _, _)| i.as_str()).collect();
    let states = app.settled_uploads(&s.token, &ids).await;
    eprintln!("{} hostile uploads settled in {:?}", files.len(), started.elapsed());
    for state in &states {
        eprintln!("  {}: {} {}", state["name"], state["status"], state["error"]);
    }
    for state in &states {
        let name = state["name"].as_str().unwrap();
        match state["status"].as_str().unwrap() {
            "FAILED" => assert!(state["error"].as_str().unwrap().starts_with(&format!("File {name}")), "{state}"),
            "COMPLETED" => {}
            other => panic!("{name} is still {other}: {state}"),
        }
    }
    let good = states.iter().find(|s| s["id"] == "good").unwrap();
    assert_eq!(good["status"], "COMPLETED", "{good}");
    assert_eq!(states.iter().find(|s| s["id"] == "bomb").unwrap()["status"], "FAILED", "the zip bomb is refused");
    // Whatever was extracted carries no file of this machine.
    let (_, page) = app.get("/api/documents?limit=100", &s.token).await;
    assert!(!page.to_string().contains("root:x:0:0"), "no external entity was resolved");
}

/// Uploads through S3-compatible storage: presigned links, completion checks and extraction
/// reading from the bucket, against a local S3 server (moto; skipped with a message where it is
/// not installed). The server is the real binary in a process of its own: the bucket is reached
/// through `AWS_*` variables, which set in this process would reach every test in it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn uploads_go_to_an_s3_bucket_through_presigned_links() {
    let bucket = "needl-uploads";
    let Some(s3) = moto_with_bucket(bucket).await else { return };
    let endpoint = s3.endpoint();
    let client = reqwest::Client::new();
    let server = spawn_binary(&["--storage", &format!("s3://{bucket}")], &s3.env()).await;
    let api = Api::new(server.addr);
    let readyz = format!("http://{}/readyz", server.addr);
    let ready = client.get(&readyz).send().await.unwrap();
    assert_eq!(ready.status(), StatusCode::OK);
    let body: Value = ready.json().await.unwrap();
    assert_eq!(body["storage"], json!({"ok": true, "kind": "s3"}), "{body}");

    let s = api.sign_up("s3").await;
    let text = "The board approved a dividend of four rupees per share.";
    let files = json!([{"id": "memo", "name": "memo.txt", "size": text.len()}]);
    let init: Value = api.post_as("/api/upload/init", &s.token, json!({"source": "needldrive", "files": files})).await;
    let config = &init["upload_configs"][0];
    let link = config["upload_link"].as_str().unwrap();
    assert!(link.starts_with(endpoint), "the link points at the bucket: {link}");
    assert_eq!(config["metadata_fields"]["bucket"], bucket);
    let sent = client.put(link).body(text).send().await.unwrap();
    assert!(sent.status().is_success(), "{}", sent.text().await.unwrap());

    let done: Value = api.post_as("/api/upload/complete", &s.token, complete_body(&init)).await;
    assert_eq!(done["files"][0]["status"], "PROCESSING", "{done}");
    let status = &api.settled_uploads(&s.token, &["memo"]).await[0];
    assert_eq!(status["status"], "COMPLETED", "{status}");
    let deeplink = status["deeplink"].as_str().unwrap();
    let file = api
        .request(reqwest::Method::GET, "/api/doc/needldrive/file", Some(&s.token))
        .query(&[("deeplink", deeplink)])
        .send()
        .await
        .unwrap();
    assert_eq!(file.text().await.unwrap(), text, "the original comes back from the bucket");

    // The bucket's server stops: the node says it is not ready, and why in a word, while the
    // database still answers.
    drop(s3);
    let started = std::time::Instant::now();
    let res = client.get(&readyz).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::SERVICE_UNAVAILABLE);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["status"], "not_ready", "{body}");
    assert_eq!(body["storage"]["ok"], false, "{body}");
    assert_eq!(body["database"]["ok"], true, "{body}");
    assert!(!body.to_string().contains("127.0.0.1"), "no address of the store in a public answer: {body}");
    assert!(started.elapsed() < std::time::Duration::from_secs(10), "the probe answers within its timeout");
}

/// The object store stops answering reads for a minute while an upload waits to be processed: the
/// upload stays PROCESSING throughout (the outage is not the file's fault and costs it no attempt,
/// so the several tries a minute holds never use up its attempts), and is processed once reads
/// work again. Against moto behind a proxy of the
/// test's that refuses GETs while told to; the server opens a connection per request
/// (`AWS_POOL_MAX_IDLE_PER_HOST=0`), so each request can be told apart.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_upload_waits_out_an_object_store_outage() {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use std::sync::Arc;
    use tokio::io::AsyncWriteExt;
    let bucket = "needl-outage";
    let Some(s3) = moto_with_bucket(bucket).await else { return };
    let client = reqwest::Client::new();
    let upstream = s3.endpoint().trim_start_matches("http://").to_string();
    let (reads_down, refused) = (Arc::new(AtomicBool::new(false)), Arc::new(AtomicUsize::new(0)));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let proxy = listener.local_addr().unwrap();
    let (down, count) = (reads_down.clone(), refused.clone());
    tokio::spawn(async move {
        loop {
            let Ok((mut inbound, _)) = listener.accept().await else { return };
            let (upstream, down, count) = (upstream.clone(), down.clone(), count.clone());
            tokio::spawn(async move {
                let mut head = [0u8; 4];
                if inbound.peek(&mut head).await.is_ok() && &head == b"GET " && down.load(Ordering::SeqCst) {
                    count.fetch_add(1, Ordering::SeqCst);
                    let _ = inbound.shutdown().await;
                    return;
                }
                if let Ok(mut outbound) = tokio::net::TcpStream::connect(&upstream).await {
                    let _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound).await;
                }
            });
        }
    });
    let mut env: Vec<(&str, String)> = s3
        .env()
        .into_iter()
        .map(|(k, v)| if k == "AWS_ENDPOINT" { (k, format!("http://{proxy}")) } else { (k, v) })
        .collect();
    env.push(("AWS_POOL_MAX_IDLE_PER_HOST", "0".into()));
    let server = spawn_binary(&["--storage", &format!("s3://{bucket}")], &env).await;
    let api = Api::new(server.addr);
    let s = api.sign_up("patient").await;
    let text = "Dividend of four rupees a share, payable in March.";
    let files = json!([{"id": "memo", "name": "memo.txt", "size": text.len()}]);
    let init: Value = api.post_as("/api/upload/init", &s.token, json!({"source": "needldrive", "files": files})).await;
    let link = init["upload_configs"][0]["upload_link"].as_str().unwrap();
    assert!(client.put(link).body(text).send().await.unwrap().status().is_success());

    reads_down.store(true, Ordering::SeqCst);
    let done: Value = api.post_as("/api/upload/complete", &s.token, complete_body(&init)).await;
    assert_eq!(done["files"][0]["status"], "PROCESSING", "{done}");
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    while refused.load(Ordering::SeqCst) == 0 {
        assert!(std::time::Instant::now() < deadline, "the processor never tried to read the file");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // A minute of outage: more tries than an upload has attempts.
    let outage = std::time::Instant::now();
    while outage.elapsed() < Duration::from_secs(60) {
        tokio::time::sleep(Duration::from_secs(5)).await;
        let (_, waiting) = api.get("/api/upload/status?ids=memo", &s.token).await;
        assert_eq!(waiting["results"][0]["status"], "PROCESSING", "still waiting, not failed: {waiting}");
    }
    let tries = refused.load(Ordering::SeqCst);
    assert!(tries > 3, "tried again and again during the outage: {tries} reads refused");

    reads_down.store(false, Ordering::SeqCst);
    let status = &api.settled_uploads(&s.token, &["memo"]).await[0];
    assert_eq!(status["status"], "COMPLETED", "{status}");
}
