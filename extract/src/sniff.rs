//! The format of a file from its bytes. The uploader's name and mime type are hints at most:
//! they only tell Markdown from plain text, which no byte pattern can.

use crate::ExtractError;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Pdf,
    /// A zip package; which Office format it is shows only from the parts inside.
    Zip,
    Html,
    Markdown,
    Text,
}

pub const MIME_PDF: &str = "application/pdf";
pub const MIME_DOCX: &str = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
pub const MIME_XLSX: &str = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
pub const MIME_PPTX: &str = "application/vnd.openxmlformats-officedocument.presentationml.presentation";
pub const MIME_HTML: &str = "text/html";
pub const MIME_MARKDOWN: &str = "text/markdown";
pub const MIME_TEXT: &str = "text/plain";

/// The OLE compound-file signature: legacy .doc/.xls/.ppt, and also every password-protected
/// OOXML file, which Office wraps in an encrypted compound file.
const OLE_SIGNATURE: [u8; 8] = [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1];

/// Returns the format of a file whose first bytes are `head` (a few KiB is enough).
pub fn sniff(head: &[u8], file_name: Option<&str>, declared_mime: Option<&str>) -> Result<Format, ExtractError> {
    if head.starts_with(&OLE_SIGNATURE) {
        return Err(ExtractError::Encrypted(
            "this file is encrypted or in the old Office format (.doc, .xls, .ppt); save it as \
             .docx, .xlsx or .pptx without a password and upload it again"
                .into(),
        ));
    }
    // Some producers put junk before the header; readers accept it within the first KiB.
    if find(&head[..head.len().min(1024)], b"%PDF-").is_some() {
        return Ok(Format::Pdf);
    }
    if head.starts_with(b"PK\x03\x04") || head.starts_with(b"PK\x05\x06") {
        return Ok(Format::Zip);
    }
    if !looks_textual(head) {
        return Err(ExtractError::Unsupported("the content is not PDF, Word, Excel, PowerPoint, HTML or text".into()));
    }
    let lower: String = String::from_utf8_lossy(&head[..head.len().min(2048)]).to_ascii_lowercase();
    let start = lower.trim_start_matches('\u{feff}').trim_start();
    if start.starts_with("<!doctype html")
        || start.starts_with("<html")
        || lower.contains("<html")
        || lower.contains("<body")
    {
        return Ok(Format::Html);
    }
    let name = file_name.unwrap_or("").to_ascii_lowercase();
    // Generic XML (feeds, data, entity bombs) is not an upload type. Refusing it also means no
    // DTD is ever handed to anything that might expand it.
    let xml_like = start.starts_with("<?xml") || start.starts_with("<!doctype") || start.starts_with("<!entity");
    if xml_like && !(name.ends_with(".txt") || name.ends_with(".md")) {
        return Err(ExtractError::Unsupported(
            "XML documents are not among the upload types (PDF, Word, Excel, PowerPoint, HTML, text, Markdown)".into(),
        ));
    }
    let mime = declared_mime.unwrap_or("").to_ascii_lowercase();
    if name.ends_with(".html") || name.ends_with(".htm") || mime == MIME_HTML {
        return Ok(Format::Html);
    }
    if name.ends_with(".md") || name.ends_with(".markdown") || mime == MIME_MARKDOWN {
        return Ok(Format::Markdown);
    }
    Ok(Format::Text)
}

/// Text has no NUL bytes, unless it is UTF-16 with a byte-order mark.
fn looks_textual(head: &[u8]) -> bool {
    if head.starts_with(&[0xFF, 0xFE]) || head.starts_with(&[0xFE, 0xFF]) {
        return true;
    }
    !head.contains(&0)
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bytes_decide_not_the_name() {
        assert_eq!(sniff(b"%PDF-1.7\n", Some("notes.txt"), None), Ok(Format::Pdf));
        assert_eq!(sniff(b"PK\x03\x04....", Some("a.pdf"), None), Ok(Format::Zip));
        assert_eq!(sniff(b"<!DOCTYPE html><p>x", Some("a.txt"), None), Ok(Format::Html));
    }

    #[test]
    fn markdown_is_told_from_text_by_its_name() {
        assert_eq!(sniff(b"# Title\n", Some("README.md"), None), Ok(Format::Markdown));
        assert_eq!(sniff(b"# Title\n", Some("notes.txt"), None), Ok(Format::Text));
    }

    #[test]
    fn an_ole_file_is_reported_as_encrypted_or_legacy_office() {
        let err = sniff(&OLE_SIGNATURE, Some("a.docx"), None).unwrap_err();
        assert!(matches!(err, ExtractError::Encrypted(ref m) if m.contains("old Office format")));
    }

    #[test]
    fn an_xml_document_with_entities_is_unsupported_not_parsed() {
        let bomb = b"<?xml version=\"1.0\"?><!DOCTYPE b [<!ENTITY a \"aaaa\">]><b>&a;&a;</b>";
        assert!(matches!(sniff(bomb, Some("bomb.xml"), None), Err(ExtractError::Unsupported(_))));
        let xhtml = b"<?xml version=\"1.0\"?><!DOCTYPE html PUBLIC \"x\"><html><body>hi</body></html>";
        assert_eq!(sniff(xhtml, Some("page.xhtml"), None), Ok(Format::Html));
    }

    #[test]
    fn binary_junk_is_unsupported() {
        assert!(matches!(sniff(&[0x7f, b'E', b'L', b'F', 0, 0, 1], None, None), Err(ExtractError::Unsupported(_))));
    }
}
