use ingest::catalogue::Format;
use ingest::exchanges::{self, Announcement};
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
        "nse_filings",
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
    assert_eq!(c.get("nse_filings").unwrap().title, "NSE Filings");
    assert_eq!(c.get("nse_filings").unwrap().group, Some(SourceGroup::IndianCapitalMarkets));
}

#[test]
fn only_the_exchange_sources_have_an_address_and_it_is_their_listing() {
    let c = Catalogue::seed();
    let with_urls: Vec<&str> = c.entries().filter(|e| !e.feed_urls.is_empty()).map(|e| e.key.as_str()).collect();
    assert_eq!(
        with_urls,
        [
            "bse_annual_reports",
            "bse_conf_calls",
            "bse_filings",
            "bse_presentations",
            "bse_sdd_sast",
            "nse_filings",
            "nzx_filings"
        ],
        "no invented feed urls"
    );
    for entry in c.entries().filter(|e| !e.feed_urls.is_empty()) {
        let exchange = entry.exchange().unwrap_or_else(|| panic!("{} has a listing but no connector", entry.key));
        assert!(entry.key.starts_with(exchange.key()), "{}", entry.key);
        assert_eq!(entry.feed_urls.len(), 1, "{}", entry.key);
        assert_eq!(entry.listing_url(), entry.feed_urls.first());
        assert!(entry.sources().is_empty(), "{}: a listing is not fetched as a feed", entry.key);
        assert_eq!(entry.attachment_base, None);
    }
    let bse = c.get("bse_filings").unwrap();
    assert_eq!(bse.feed_urls[0].host_str(), Some("api.bseindia.com"));
    assert!(bse.feed_urls[0].path().ends_with("/AnnSubCategoryGetData/w"), "{}", bse.feed_urls[0]);
    assert!(bse.feed_urls[0].query().unwrap().contains("strCat=-1&strPrevDate=&strScrip="), "{}", bse.feed_urls[0]);
    assert!(bse.categories.is_empty(), "BSE Filings keeps everything");
    assert!(c.entries().filter(|e| e.key.starts_with("bse_")).all(|e| e.feed_urls == bse.feed_urls), "one listing");
    assert_eq!(
        c.get("nse_filings").unwrap().feed_urls[0].as_str(),
        "https://www.nseindia.com/api/corporate-announcements?index=equities"
    );
    assert_eq!(c.get("nzx_filings").unwrap().feed_urls[0].as_str(), "https://www.nzx.com/markets/NZSX/announcements");
    assert_eq!(c.get("nzx_filings").unwrap().exchange().unwrap().country(), "NZ");
    let earnings = c.get("earnings_conf_calls").unwrap();
    assert!(earnings.feed_urls.is_empty() && earnings.connector.is_none(), "not fetched on this instance");
    assert!(c.get("gmail").unwrap().exchange().is_none());
}

#[test]
fn the_bse_entries_keep_their_own_categories_of_one_listing() {
    let c = Catalogue::seed();
    let categories = |key: &str| c.get(key).unwrap().categories.clone();
    assert_eq!(categories("bse_annual_reports"), ["Annual Report"]);
    assert_eq!(categories("bse_conf_calls"), ["Earnings Call", "Analyst / Investor Meet", "Conference Call"]);
    assert_eq!(categories("bse_presentations"), ["Investor Presentation"]);
    assert_eq!(categories("bse_sdd_sast"), ["Insider Trading", "SAST"]);
    let announcement = |category: &str| Announcement {
        id: "1".into(),
        company: "Reliance Industries Ltd".into(),
        symbol: Some("500325".into()),
        title: "Announcement under Regulation 30 (LODR)".into(),
        category: Some(category.into()),
        published: None,
        attachment: None,
        link: None,
        summary: None,
    };
    let keeps = |key: &str, category: &str| exchanges::in_categories(&announcement(category), &categories(key));
    assert!(keeps("bse_presentations", "Company Update / Investor Presentation"));
    assert!(!keeps("bse_presentations", "Company Update / Annual Report"));
    assert!(keeps("bse_annual_reports", "Company Update / Annual Report"));
    assert!(keeps("bse_sdd_sast", "Insider Trading / SAST"));
    assert!(keeps("bse_conf_calls", "Company Update / Analyst / Investor Meet"));
    assert!(keeps("bse_filings", "Anything at all"));
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
            "nse_filings",
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
    assert_eq!(e.feed_urls[0].as_str(), "http://10.0.0.5/bse.xml", "the listing moved");
    assert_eq!(e.connector.as_deref(), Some("bse"), "what the file leaves alone stays");
}

#[test]
fn an_operator_adds_an_exchange_source_and_tunes_a_seeded_one() {
    let mut c = Catalogue::seed();
    c.merge_str(
        r#"
[[source]]
key = "bse_results"
title = "BSE Results"
group = "Indian Capital Markets"
connector = "BSE"
feed_urls = ["https://api.bseindia.com/BseIndiaAPI/api/AnnSubCategoryGetData/w?pageno=1&strCat=Result"]
categories = [" Financial Results ", "Result"]
attachment_base = "https://mirror.example.org/bse"

[[source]]
key = "bse_presentations"
categories = []

[[source]]
key = "nzx_filings"
attachment_base = "https://files.example.org/nzx/"
"#,
        Format::Toml,
        "ops.toml",
    )
    .unwrap();
    let results = c.get("bse_results").unwrap();
    assert_eq!(results.connector.as_deref(), Some("bse"), "connector keys are lowercased");
    assert_eq!(results.exchange().unwrap().name(), "BSE");
    assert_eq!(results.categories, ["Financial Results", "Result"]);
    assert_eq!(
        results.attachment_base.as_ref().unwrap().as_str(),
        "https://mirror.example.org/bse/",
        "a folder ends in a slash, so names resolve inside it"
    );
    assert!(results.sources().is_empty());
    let presentations = c.get("bse_presentations").unwrap();
    assert!(presentations.categories.is_empty(), "an empty list keeps everything");
    assert_eq!(presentations.connector.as_deref(), Some("bse"));
    assert_eq!(
        c.get("nzx_filings").unwrap().attachment_base.as_ref().unwrap().as_str(),
        "https://files.example.org/nzx/"
    );

    // A connector removed: the entry is an ordinary feed again.
    c.merge_str(
        r#"{"source": [{"key": "nse_filings", "connector": "", "feed_urls": ["https://example.org/nse.xml"]}]}"#,
        Format::Json,
        "ops.json",
    )
    .unwrap();
    let nse = c.get("nse_filings").unwrap();
    assert!(nse.exchange().is_none());
    assert_eq!(nse.sources().len(), 1);
    assert_eq!(nse.sources()[0].url.as_str(), "https://example.org/nse.xml");
}

#[test]
fn a_bad_connector_or_its_fields_are_refused_with_the_field_named() {
    let mut c = Catalogue::seed();
    let err = c
        .merge_str(
            "[[source]]\nkey = \"asx\"\nconnector = \"asx\"\nfeed_urls = [\"https://asx.example/\"]\n",
            Format::Toml,
            "ops.toml",
        )
        .unwrap_err();
    assert!(matches!(&err, CatalogueError::Invalid { field: "connector", index: 1, .. }), "{err:?}");
    assert_eq!(
        err.to_string(),
        r#"catalogue file ops.toml, source 1 (asx): field connector: "asx" is not a known connector: use "bse", "nse" or "nzx" (or "" for none)"#
    );

    let err = c.merge_str("[[source]]\nkey = \"lse\"\nconnector = \"nse\"\n", Format::Toml, "ops.toml").unwrap_err();
    assert!(matches!(&err, CatalogueError::Invalid { field: "feed_urls", .. }), "{err:?}");
    assert!(err.to_string().contains("listing's address"), "{err}");

    let err = c.merge_str("[[source]]\nkey = \"bse_filings\"\nfeed_urls = []\n", Format::Toml, "ops.toml").unwrap_err();
    assert!(
        matches!(&err, CatalogueError::Invalid { field: "feed_urls", .. }),
        "a seeded listing cannot be emptied: {err:?}"
    );

    let err = c
        .merge_str("[[source]]\nkey = \"bse_filings\"\ncategories = [\"Result\", \" \"]\n", Format::Toml, "ops.toml")
        .unwrap_err();
    assert!(matches!(&err, CatalogueError::Invalid { field: "categories", .. }), "{err:?}");
    assert!(err.to_string().contains("must not be blank"), "{err}");

    let many = (0..51).map(|n| format!("\"c{n}\"")).collect::<Vec<_>>().join(", ");
    let err = c
        .merge_str(&format!("[[source]]\nkey = \"bse_filings\"\ncategories = [{many}]\n"), Format::Toml, "ops.toml")
        .unwrap_err();
    assert!(err.to_string().contains("at most 50 categories"), "{err}");

    let err = c
        .merge_str("[[source]]\nkey = \"rss_thing\"\ncategories = [\"Result\"]\n", Format::Toml, "ops.toml")
        .unwrap_err();
    assert!(matches!(&err, CatalogueError::Invalid { field: "categories", .. }), "{err:?}");
    assert!(err.to_string().contains("only a source with a connector"), "{err}");

    let err = c
        .merge_str("[[source]]\nkey = \"gmail\"\nattachment_base = \"https://x.example/\"\n", Format::Toml, "ops.toml")
        .unwrap_err();
    assert!(matches!(&err, CatalogueError::Invalid { field: "attachment_base", .. }), "{err:?}");

    let err = c
        .merge_str(
            "[[source]]\nkey = \"bse_filings\"\nattachment_base = \"file:///srv/bse/\"\n",
            Format::Toml,
            "ops.toml",
        )
        .unwrap_err();
    assert!(matches!(&err, CatalogueError::Invalid { field: "attachment_base", .. }), "{err:?}");

    let err =
        c.merge_str("[[source]]\nkey = \"bse_filings\"\nconnectr = \"bse\"\n", Format::Toml, "ops.toml").unwrap_err();
    assert!(matches!(err, CatalogueError::Syntax { .. }), "a misspelt field is named by the parser");
    assert_eq!(c, Catalogue::seed(), "a refused file changes nothing");
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
