use ingest::{parse_feed_bytes, FeedError, FeedLimits};
use url::Url;

use crate::support::{files_in, shared_data};

fn parse(bytes: &[u8]) -> Result<ingest::ParsedFeed, FeedError> {
    let base = Url::parse("https://feeds.example.org/feed.xml").unwrap();
    parse_feed_bytes(bytes, "test_source", Some(&base), &FeedLimits::default())
}

const RSS2: &str = r#"<?xml version="1.0" encoding="utf-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/">
<channel><title>Markets Daily</title><link>https://news.example.org/</link>
<item>
  <title>Rates &amp; bonds: a &lt;b&gt;quiet&lt;/b&gt; week</title>
  <link>/articles/rates?utm_source=rss#top</link>
  <guid isPermaLink="false">rates-2024-03-01</guid>
  <dc:creator>Ada Lovelace</dc:creator>
  <pubDate>Fri, 01 Mar 2024 09:30:00 GMT</pubDate>
  <description>&lt;p&gt;Yields barely moved.&lt;/p&gt;</description>
  <content:encoded><![CDATA[<p>Yields barely moved.</p><p>Traders waited for the <em>central bank</em>.</p><script>alert(1)</script>]]></content:encoded>
</item>
<item><title>Second</title><link>https://news.example.org/second</link></item>
</channel></rss>"#;

#[test]
fn an_rss2_item_keeps_its_title_link_author_date_summary_and_text() {
    let feed = parse(RSS2.as_bytes()).unwrap();
    assert_eq!(feed.title.as_deref(), Some("Markets Daily"));
    assert_eq!(feed.items.len(), 2);
    let item = &feed.items[0];
    assert_eq!(item.guid, "rates-2024-03-01");
    assert_eq!(item.source_key, "test_source");
    assert_eq!(item.title.as_deref(), Some("Rates & bonds: a quiet week"));
    assert_eq!(item.link.as_ref().map(Url::as_str), Some("https://feeds.example.org/articles/rates"));
    assert_eq!(item.author.as_deref(), Some("Ada Lovelace"));
    assert_eq!(item.published.unwrap().to_rfc3339(), "2024-03-01T09:30:00+00:00");
    assert_eq!(item.summary.as_deref(), Some("Yields barely moved."));
    let text = item.full_text.as_deref().unwrap();
    assert!(text.contains("Yields barely moved.") && text.contains("Traders waited for the central bank."), "{text}");
    assert!(!text.contains("alert"), "script is not text: {text}");
    assert_eq!(item.content_hash.len(), 64);
    assert_ne!(item.content_hash, feed.items[1].content_hash);
    assert!(!feed.items[1].guid.is_empty(), "an item without guid still gets a stable id");
}

#[test]
fn an_atom_entry_keeps_its_fields() {
    let atom = r#"<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><title>Blog</title>
      <entry><id>urn:uuid:1</id><title type="html">Q1 &lt;i&gt;results&lt;/i&gt;</title>
      <link rel="alternate" href="https://blog.example.org/q1"/><link rel="enclosure" href="https://blog.example.org/q1.mp3"/>
      <author><name>Grace Hopper</name></author><published>2024-04-01T08:00:00Z</published><updated>2024-04-02T08:00:00Z</updated>
      <summary>Short.</summary><content type="html">&lt;p&gt;Long text.&lt;/p&gt;</content></entry></feed>"#;
    let item = &parse(atom.as_bytes()).unwrap().items[0];
    assert_eq!(item.guid, "urn:uuid:1");
    assert_eq!(item.title.as_deref(), Some("Q1 results"));
    assert_eq!(item.link.as_ref().unwrap().as_str(), "https://blog.example.org/q1");
    assert_eq!(item.author.as_deref(), Some("Grace Hopper"));
    assert_eq!(item.updated.unwrap().to_rfc3339(), "2024-04-02T08:00:00+00:00");
    assert_eq!(item.summary.as_deref(), Some("Short."));
    assert_eq!(item.full_text.as_deref(), Some("Long text."));
}

#[test]
fn an_rss1_item_and_a_json_feed_item_parse_too() {
    let rdf = r#"<?xml version="1.0"?><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/">
      <channel rdf:about="https://x.example.org/"><title>RDF</title><link>https://x.example.org/</link></channel>
      <item rdf:about="https://x.example.org/1"><title>One</title><link>https://x.example.org/1</link><dc:date>2024-05-01T00:00:00Z</dc:date><description>First</description></item>
      </rdf:RDF>"#;
    let item = &parse(rdf.as_bytes()).unwrap().items[0];
    assert_eq!(item.title.as_deref(), Some("One"));
    assert_eq!(item.link.as_ref().unwrap().as_str(), "https://x.example.org/1");
    assert!(item.published.is_some());
    let json = r#"{"version":"https://jsonfeed.org/version/1.1","title":"J","items":[{"id":"j1","url":"https://j.example.org/1",
      "title":"Json item","content_html":"<p>Hello <b>world</b></p>","summary":"Hi","date_published":"2024-06-01T10:00:00Z",
      "authors":[{"name":"Alan Turing"}]}]}"#;
    let item = &parse(json.as_bytes()).unwrap().items[0];
    assert_eq!(item.guid, "j1");
    assert_eq!(item.author.as_deref(), Some("Alan Turing"));
    assert_eq!(item.full_text.as_deref(), Some("Hello world"));
    assert_eq!(item.summary.as_deref(), Some("Hi"));
}

#[test]
fn every_real_feed_file_parses_to_items_with_guids_titles_and_links() {
    let Some(data) = shared_data() else { return };
    let mut total = 0;
    for format in ["rss2", "rss1", "atom", "jsonfeed"] {
        let files = files_in(&data.join("feeds").join(format));
        assert!(!files.is_empty(), "no files in feeds/{format}");
        for file in files {
            let bytes = std::fs::read(&file).unwrap();
            let feed = parse(&bytes).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            let name = file.file_name().unwrap().to_string_lossy();
            assert!(!feed.items.is_empty(), "{name}: no items");
            for item in &feed.items {
                assert!(!item.guid.is_empty(), "{name}: empty guid");
                assert_eq!(item.content_hash.len(), 64);
            }
            let titled = feed.items.iter().filter(|i| i.title.is_some()).count();
            let linked = feed.items.iter().filter(|i| i.link.is_some()).count();
            assert!(titled * 10 >= feed.items.len() * 9, "{name}: {titled}/{} titled", feed.items.len());
            assert!(linked * 10 >= feed.items.len() * 9, "{name}: {linked}/{} linked", feed.items.len());
            for item in &feed.items {
                if let Some(link) = &item.link {
                    assert!(matches!(link.scheme(), "http" | "https"), "{name}: {link}");
                }
            }
            total += feed.items.len();
        }
    }
    println!("real feed files: {total} items parsed");
}

#[test]
fn known_fields_of_real_feeds_come_through() {
    let Some(data) = shared_data() else { return };
    let read = |p: &str| parse(&std::fs::read(data.join("feeds").join(p)).unwrap()).unwrap();
    let fireball = read("atom/netnewswire__DaringFireball.atom");
    assert_eq!(fireball.items.len(), 48);
    assert!(fireball.items.iter().all(|i| i.published.is_some() || i.updated.is_some()));
    let heise = read("rss1/miniflux__rss0.9_heise_rdf_UTF8.xml");
    assert!(heise.items.iter().all(|i| i.published.is_none()), "this feed has no dates");
    let relurl = read("rss2/feed-rs__rss_2.0_relurl_1.xml");
    assert!(relurl.items.iter().filter_map(|i| i.link.as_ref()).all(|l| l.has_host()));
}

#[test]
fn every_nasty_feed_fails_cleanly_or_parses_best_effort() {
    let Some(data) = shared_data() else { return };
    let files = files_in(&data.join("feeds/nasty"));
    assert!(files.len() >= 8);
    let mut parsed = 0;
    for file in &files {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        match parse(&std::fs::read(file).unwrap()) {
            Ok(feed) => {
                parsed += 1;
                println!("{name}: best effort, {} items", feed.items.len());
            }
            Err(e) => {
                let message = e.to_string();
                assert!(!message.is_empty() && !message.ends_with('.'), "{name}: {message}");
                println!("{name}: refused: {message}");
            }
        }
    }
    let truncated =
        parse(&std::fs::read(data.join("feeds/nasty/netnewswire__allthis-partial_truncated.json")).unwrap());
    assert!(matches!(truncated, Err(FeedError::Unreadable(_))), "{truncated:?}");
    let latin1 =
        parse(&std::fs::read(data.join("feeds/nasty/rss-parser__uolNoticias_latin1_no-prolog.rss")).unwrap()).unwrap();
    let text: String = latin1.items.iter().filter_map(|i| i.title.clone()).collect();
    assert!(!text.contains('\u{fffd}'), "latin-1 decoded without replacement characters");
    assert!(text.chars().any(|c| "ãçéáíóõê".contains(c)), "accents survive: {text}");
    assert!(parsed >= files.len() / 2, "most nasty feeds still give items");
}

#[test]
fn latin1_bytes_without_a_declaration_keep_their_accents() {
    let mut bytes = b"<rss version=\"2.0\"><channel><title>x</title><item><title>S".to_vec();
    bytes.push(0xe3); // ã in ISO-8859-1
    bytes.extend_from_slice(b"o Paulo</title><guid>1</guid></item></channel></rss>");
    assert_eq!(parse(&bytes).unwrap().items[0].title.as_deref(), Some("São Paulo"));
}

#[test]
fn a_prolog_that_lies_about_its_encoding_still_gives_the_right_characters() {
    let lying = "<?xml version=\"1.0\" encoding=\"windows-1252\"?><rss version=\"2.0\"><channel><title>x</title><item><title>5 €</title><guid>1</guid></item></channel></rss>";
    assert_eq!(parse(lying.as_bytes()).unwrap().items[0].title.as_deref(), Some("5 €"));
    let mut honest = b"<?xml version=\"1.0\" encoding=\"windows-1252\"?><rss version=\"2.0\"><channel><title>x</title><item><title>5 ".to_vec();
    honest.push(0x80); // € in windows-1252
    honest.extend_from_slice(b"</title><guid>1</guid></item></channel></rss>");
    assert_eq!(parse(&honest).unwrap().items[0].title.as_deref(), Some("5 €"));
}

#[test]
fn a_byte_order_mark_does_not_stop_parsing() {
    let mut bytes = vec![0xef, 0xbb, 0xbf];
    bytes.extend_from_slice(RSS2.as_bytes());
    assert_eq!(parse(&bytes).unwrap().items.len(), 2);
    let utf16: Vec<u8> = [0xff, 0xfe].into_iter().chain(RSS2.encode_utf16().flat_map(|u| u.to_le_bytes())).collect();
    assert_eq!(parse(&utf16).unwrap().items.len(), 2);
}

#[test]
fn an_html_page_posing_as_a_feed_is_named_as_such() {
    let html = "<!DOCTYPE html><html><head><title>Home</title></head><body><p>Hi</p></body></html>";
    assert_eq!(parse(html.as_bytes()).unwrap_err(), FeedError::HtmlPage);
    assert_eq!(parse(html.as_bytes()).unwrap_err().to_string(), "the document is an HTML page, not a feed");
    assert_eq!(parse(b"   ").unwrap_err(), FeedError::Empty);
    assert!(matches!(parse(b"<rss><channel><item><title>cut"), Err(FeedError::Unreadable(_)) | Ok(_)));
    assert!(matches!(parse(b"not xml at all"), Err(FeedError::Unreadable(_))));
}

#[test]
fn an_entity_bomb_is_refused_before_parsing() {
    let mut bomb = String::from("<?xml version=\"1.0\"?><!DOCTYPE rss [<!ENTITY a0 \"lol\">");
    for n in 1..10 {
        bomb.push_str(&format!("<!ENTITY a{n} \"{}\">", format!("&a{};", n - 1).repeat(10)));
    }
    bomb.push_str(
        "]><rss version=\"2.0\"><channel><title>&a9;</title><item><title>&a9;</title></item></channel></rss>",
    );
    let started = std::time::Instant::now();
    assert_eq!(parse(bomb.as_bytes()).unwrap_err(), FeedError::EntityDeclaration);
    assert!(started.elapsed().as_millis() < 500);
    let xxe = r#"<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><rss version="2.0"><channel><title>&x;</title></channel></rss>"#;
    assert_eq!(parse(xxe.as_bytes()).unwrap_err(), FeedError::EntityDeclaration);
}

#[test]
fn an_undeclared_entity_is_left_as_text_not_expanded() {
    let rss = r#"<rss version="2.0"><channel><title>t</title><item><title>a &nbsp; b &copy; &x;</title><guid>1</guid></item></channel></rss>"#;
    let item = &parse(rss.as_bytes()).unwrap().items[0];
    assert!(item.title.as_deref().unwrap().len() < 40, "{:?}", item.title);
}

#[test]
fn every_hostile_xml_file_is_refused_or_parsed_without_expanding_entities() {
    let Some(data) = shared_data() else { return };
    let mut files = files_in(&data.join("hostile/xml"));
    files.extend(files_in(&data.join("hostile/feeds")));
    assert!(files.len() >= 6);
    for file in files {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = std::fs::read(&file).unwrap();
        let started = std::time::Instant::now();
        let result = parse(&bytes);
        assert!(started.elapsed().as_secs() < 2, "{name} took too long");
        match result {
            Err(e) => println!("{name}: refused: {e}"),
            Ok(feed) => {
                let text: usize = feed
                    .items
                    .iter()
                    .map(|i| i.title.as_ref().map_or(0, String::len) + i.full_text.as_ref().map_or(0, String::len))
                    .sum();
                assert!(text <= bytes.len() * 2, "{name}: {text} bytes of text from {} bytes", bytes.len());
                let all = format!("{:?}", feed.items);
                assert!(!all.contains("root:x:0"), "{name}: a local file was read");
                println!("{name}: best effort, {} items", feed.items.len());
            }
        }
        if name.contains("xhtml-doctype-before-root") {
            let feed = parse(&bytes).expect("a DOCTYPE without entities is harmless");
            assert_eq!(feed.title.as_deref(), Some("found"));
        }
        if name.starts_with("defusedxml__") || name.contains("xxe") || name.contains("entity") {
            assert!(parse(&bytes).is_err(), "{name} declares entities and must be refused");
        }
    }
}

#[test]
fn the_item_cap_and_the_text_caps_hold() {
    let mut rss = String::from("<rss version=\"2.0\"><channel><title>big</title>");
    for n in 0..50 {
        rss.push_str(&format!(
            "<item><guid>{n}</guid><title>{}</title><description>{}</description></item>",
            "t".repeat(5000),
            "é".repeat(5000)
        ));
    }
    rss.push_str("</channel></rss>");
    let limits = FeedLimits { max_items: 20, max_title_bytes: 100, max_summary_bytes: 1001, max_text_bytes: 1000 };
    let feed = parse_feed_bytes(rss.as_bytes(), "k", None, &limits).unwrap();
    assert_eq!(feed.items.len(), 20);
    assert_eq!(feed.dropped_items, 30);
    assert!(feed.items.iter().all(|i| i.title.as_ref().unwrap().len() == 100));
    assert!(feed.items.iter().all(|i| i.summary.as_ref().unwrap().len() == 1000), "cut at a character boundary");
}
