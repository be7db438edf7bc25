//! EDGAR's feed of the latest filings from every company
//! (`browse-edgar?action=getcurrent&output=atom`): one request tells which companies filed
//! something new, so followed companies are read when they file rather than each polled often.
//!
//! Each entry's title names the filer, `10-K - Apple Inc. (0000320193) (Filer)`, and its link
//! is the filing's index under `/Archives/edgar/data/{CIK}/...`; either gives the CIK.

use std::collections::BTreeSet;

use super::feed::{decode, FeedParseError};
use crate::feeds::scan_prolog;

/// Largest feed read (EDGAR's 100 latest filings are about 60 kB).
const MAX_BYTES: usize = 4 * 1024 * 1024;

/// The CIKs of the companies in the latest-filings feed, each once, in no particular order.
pub fn ciks_in_current_feed(bytes: &[u8]) -> Result<BTreeSet<u64>, FeedParseError> {
    if bytes.len() > MAX_BYTES {
        return Err(FeedParseError::TooLarge { size: bytes.len(), max: MAX_BYTES });
    }
    let text = decode(bytes);
    if text.trim().is_empty() {
        return Err(FeedParseError::Empty);
    }
    let prolog = scan_prolog(&text);
    if prolog.doctype {
        return Err(if prolog.html_doctype { FeedParseError::NotAFeed } else { FeedParseError::EntityDeclaration });
    }
    if prolog.root.as_deref() != Some("feed") {
        return Err(FeedParseError::NotAFeed);
    }
    let mut ciks = BTreeSet::new();
    for entry in text.split("<entry").skip(1) {
        let entry = entry.split("</entry>").next().unwrap_or_default();
        if let Some(cik) = cik_in_title(entry).or_else(|| cik_in_link(entry)) {
            ciks.insert(cik);
        }
    }
    Ok(ciks)
}

/// The ten digits in parentheses in an entry's title: "Apple Inc. (0000320193) (Filer)".
fn cik_in_title(entry: &str) -> Option<u64> {
    let title = entry.split("<title").nth(1)?.split("</title>").next()?;
    title.split('(').skip(1).find_map(|part| {
        let digits = part.split(')').next()?;
        (digits.len() == 10 && digits.bytes().all(|b| b.is_ascii_digit())).then(|| digits.parse().ok())?
    })
}

/// The CIK in the path of the entry's index link: `/Archives/edgar/data/320193/...`.
fn cik_in_link(entry: &str) -> Option<u64> {
    let after = entry.split("/Archives/edgar/data/").nth(1)?;
    let digits: String = after.chars().take_while(char::is_ascii_digit).collect();
    (!digits.is_empty() && digits.len() <= 10).then(|| digits.parse().ok())?
}

#[cfg(test)]
mod tests {
    use super::*;

    const FEED: &str = r#"<?xml version="1.0" encoding="ISO-8859-1" ?>
<feed xmlns="http://www.w3.org/2005/Atom">
<title>Latest Filings - Wed, 27 Nov 2024 16:02:11 EST</title>
<entry>
<title>8-K - Apple Inc. (0000320193) (Filer)</title>
<link rel="alternate" type="text/html" href="https://www.sec.gov/Archives/edgar/data/320193/000032019324000130/0000320193-24-000130-index.htm"/>
<summary type="html"> &lt;b&gt;Filed:&lt;/b&gt; 2024-11-27 &lt;b&gt;AccNo:&lt;/b&gt; 0000320193-24-000130</summary>
<updated>2024-11-27T16:01:58-05:00</updated>
<category scheme="https://www.sec.gov/" label="form type" term="8-K"/>
<id>urn:tag:sec.gov,2008:accession-number=0000320193-24-000130</id>
</entry>
<entry>
<title>4 - Smith Jane (0001999999) (Reporting)</title>
<link rel="alternate" type="text/html" href="https://www.sec.gov/Archives/edgar/data/1999999/000199999924000001/0001999999-24-000001-index.htm"/>
</entry>
<entry>
<title>4 - Microsoft Corp (no number)</title>
<link rel="alternate" type="text/html" href="https://www.sec.gov/Archives/edgar/data/789019/000078901924000050/0000789019-24-000050-index.htm"/>
</entry>
<entry>
<title>8-K - Apple Inc. (0000320193) (Filer)</title>
</entry>
</feed>"#;

    #[test]
    fn each_filer_is_named_once_by_title_or_by_link() {
        let ciks = ciks_in_current_feed(FEED.as_bytes()).unwrap();
        assert_eq!(ciks.into_iter().collect::<Vec<_>>(), [320193, 789019, 1999999]);
    }

    #[test]
    fn a_page_that_is_not_the_feed_is_refused() {
        let html = b"<!DOCTYPE html><html><body>Service unavailable</body></html>";
        assert_eq!(ciks_in_current_feed(html), Err(FeedParseError::NotAFeed));
        let entities = b"<?xml version=\"1.0\"?><!DOCTYPE feed [<!ENTITY x \"y\">]><feed></feed>";
        assert_eq!(ciks_in_current_feed(entities), Err(FeedParseError::EntityDeclaration));
        assert_eq!(ciks_in_current_feed(b"  "), Err(FeedParseError::Empty));
        assert_eq!(ciks_in_current_feed(b"<feed><entry><title>cut"), Ok(BTreeSet::new()));
    }
}
