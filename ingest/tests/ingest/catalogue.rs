use ingest::catalogue::Format;
use ingest::{title_for_key, Catalogue, CatalogueError, EntryKind, SourceGroup};

#[test]
fn the_seed_holds_the_spec_keys_with_their_groups() {
    let c = Catalogue::seed();
    for key in [
        "bse_annual_reports",
        "bse_conf_calls",
        "bse_filings",
        "bse_presentations",
        "bse_sdd_sast",
        "earnings_conf_calls",
        "nzx_filings",
        "clipped_reports",
        "whatsapp",
        "telegram",
        "gmail",
        "googledrive",
        "websitecrawl",
        "needl_notebooks",
    ] {
        assert!(c.get(key).is_some(), "{key}");
    }
    assert_eq!(c.get("websitecrawl").unwrap().title, "Custom URL");
    assert!(c
        .entries()
        .filter(|e| e.key.starts_with("bse_"))
        .all(|e| e.group == Some(SourceGroup::IndianCapitalMarkets)));
    assert_eq!(c.get("earnings_conf_calls").unwrap().group, Some(SourceGroup::UsCapitalMarkets));
    assert_eq!(c.get("nzx_filings").unwrap().group, None);
    assert!(c.entries().all(|e| e.feed_urls.is_empty()), "no invented feed urls");
}

#[test]
fn the_seed_marks_the_apps_and_needls_own_parts_apart_from_the_sources() {
    let c = Catalogue::seed();
    let apps: Vec<&str> = c.entries().filter(|e| e.kind == EntryKind::App).map(|e| e.key.as_str()).collect();
    assert_eq!(
        apps,
        ["clipped_reports", "gmail", "googledrive", "needl_notebooks", "telegram", "websitecrawl", "whatsapp"]
    );
    let sources: Vec<&str> = c.entries().filter(|e| e.kind == EntryKind::Source).map(|e| e.key.as_str()).collect();
    assert_eq!(
        sources,
        [
            "bse_annual_reports",
            "bse_conf_calls",
            "bse_filings",
            "bse_presentations",
            "bse_sdd_sast",
            "earnings_conf_calls",
            "nzx_filings"
        ]
    );
}

#[test]
fn an_operator_adds_apps_and_marks_entries_either_way() {
    let mut c = Catalogue::seed();
    c.merge_str(
        r#"
[[source]]
key = "outlook"

[[source]]
key = "asx_announcements"

[[source]]
key = "intranet_mail"
kind = "app"

[[source]]
key = "websitecrawl"
kind = "source"
"#,
        Format::Toml,
        "ops.toml",
    )
    .unwrap();
    assert_eq!(c.get("outlook").unwrap().kind, EntryKind::App, "a key the spec gives an app stays one");
    assert_eq!(c.get("asx_announcements").unwrap().kind, EntryKind::Source);
    assert_eq!(c.get("intranet_mail").unwrap().kind, EntryKind::App);
    assert_eq!(c.get("websitecrawl").unwrap().kind, EntryKind::Source);
    assert_eq!(c.get("gmail").unwrap().kind, EntryKind::App, "what the file leaves alone stays");

    let err = c.merge_str("[[source]]\nkey = \"a\"\nkind = \"feed\"\n", Format::Toml, "ops.toml").unwrap_err();
    assert!(matches!(&err, CatalogueError::Invalid { field: "kind", .. }), "{err:?}");
    assert!(err.to_string().contains(r#""feed" is not "source" or "app""#), "{err}");
}

#[test]
fn an_unknown_key_gets_a_title_from_its_name() {
    assert_eq!(title_for_key("sec_filings"), "Sec filings");
    assert_eq!(title_for_key("nse.bulk_deals"), "Nse bulk deals");
    assert_eq!(title_for_key("x"), "X");
    assert_eq!(title_for_key(""), "");
    assert_eq!(title_for_key("websitecrawl"), "Custom URL");
    let c = Catalogue::seed();
    assert_eq!(c.title("gmail"), "Gmail");
    assert_eq!(c.title("asx_announcements"), "Asx announcements");
}

#[test]
fn an_operator_toml_file_adds_and_overrides_entries() {
    let dir = std::env::temp_dir().join(format!("needl-catalogue-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("catalogue.toml");
    std::fs::write(
        &path,
        r#"
[[source]]
key = "sec_filings"
group = "US Capital Markets"
feed_urls = ["https://feeds.example.org/sec.xml"]

[[source]]
key = "nzx_filings"
title = "NZX Announcements"
"#,
    )
    .unwrap();
    let c = Catalogue::load(&path).unwrap();
    let sec = c.get("sec_filings").unwrap();
    assert_eq!(sec.title, "Sec filings");
    assert_eq!(sec.group, Some(SourceGroup::UsCapitalMarkets));
    assert_eq!(sec.sources().len(), 1);
    assert_eq!(sec.sources()[0].url.as_str(), "https://feeds.example.org/sec.xml");
    assert_eq!(c.get("nzx_filings").unwrap().title, "NZX Announcements");
    assert_eq!(c.get("bse_filings").unwrap().group, Some(SourceGroup::IndianCapitalMarkets), "the seed stays");
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn an_operator_json_file_works_the_same_way() {
    let mut c = Catalogue::seed();
    c.merge_str(
        r#"{"source": [{"key": "bse_filings", "group": "", "feed_urls": ["http://10.0.0.5/bse.xml"]}]}"#,
        Format::Json,
        "ops.json",
    )
    .unwrap();
    let e = c.get("bse_filings").unwrap();
    assert_eq!(e.group, None);
    assert_eq!(e.title, "BSE Filings");
    assert_eq!(e.feed_urls.len(), 1);
}

#[test]
fn a_bad_catalogue_file_names_the_line_or_the_field() {
    let mut c = Catalogue::seed();
    let err = c.merge_str("[[source]]\nkey = \"a\"\ntitel = \"typo\"\n", Format::Toml, "ops.toml").unwrap_err();
    let message = err.to_string();
    assert!(matches!(err, CatalogueError::Syntax { .. }));
    assert!(message.contains("line 3") && message.contains("titel"), "{message}");

    let err = c.merge_str("[[source]]\nkey = \"a\"\ngroup = \"Mars\"\n", Format::Toml, "ops.toml").unwrap_err();
    assert!(matches!(&err, CatalogueError::Invalid { field: "group", index: 1, .. }), "{err:?}");
    assert!(err.to_string().contains("field group"), "{err}");

    let err =
        c.merge_str("[[source]]\nkey = \"a\"\nfeed_urls = [\"ftp://x/y\"]\n", Format::Toml, "ops.toml").unwrap_err();
    assert!(matches!(&err, CatalogueError::Invalid { field: "feed_urls", .. }), "{err:?}");

    let err = c.merge_str("[[source]]\nkey = \"Bad Key\"\n", Format::Toml, "ops.toml").unwrap_err();
    assert!(matches!(&err, CatalogueError::Invalid { field: "key", .. }), "{err:?}");

    let err = c.merge_str("{\"source\": [ {\"key\": 1} ]}", Format::Json, "ops.json").unwrap_err();
    assert!(err.to_string().contains("line 1"), "{err}");
    assert_eq!(c, Catalogue::seed(), "a refused file changes nothing");

    let missing = Catalogue::load(std::path::Path::new("/nonexistent/catalogue.toml")).unwrap_err();
    assert!(matches!(missing, CatalogueError::Read { .. }));
}

#[test]
fn operators_add_topics_and_replace_a_built_in_topics_feeds() {
    let mut c = Catalogue::seed();
    assert!(c.topic("regulators").is_some_and(|t| !t.feeds.is_empty()), "built-in topics exist");
    c.merge_str(
        "[[topic]]\nkey = \"regulators\"\nfeeds = [{ url = \"https://example.org/reg.xml\", label = \"Our regulator\" }]\n\
         [[topic]]\nkey = \"local_news\"\nfeeds = [{ url = \"https://news.example.org/feed\" }]\n",
        Format::Toml,
        "ops.toml",
    )
    .unwrap();
    let regulators = c.topic("regulators").unwrap();
    assert_eq!(regulators.title, "Regulators and central banks", "the title stays");
    assert_eq!(regulators.feeds.len(), 1);
    assert_eq!(regulators.feeds[0].label, "Our regulator");
    let local = c.topic("local_news").unwrap();
    assert_eq!(local.title, "Local news");
    assert_eq!(local.feeds[0].label, "news.example.org", "a feed without a label is called by its host");
    let err =
        c.merge_str("[[topic]]\nkey = \"x\"\nfeeds = [{ url = \"file:///etc/passwd\" }]\n", Format::Toml, "ops.toml");
    assert!(err.unwrap_err().to_string().contains("feeds"));
}
