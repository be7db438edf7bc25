//! Files made into documents: what `needl import` and the upload processor share. The text goes
//! to the blob store (pages joined by form feeds), the page layout too (for highlights), and one
//! document command records it in the user's part of the file's source.

use std::collections::BTreeMap;

use commands::CommandBus;
use domain::document::{DocumentCommand, DocumentFields};
use domain::EventMetadata;
use extract::Extracted;
use sha2::{Digest, Sha256};

use crate::ingestion::{deeplink, preview, BlobStore};

/// The source drive uploads and imports belong to.
pub const DRIVE_SOURCE: &str = "needldrive";

/// A stored copy of the original file.
pub struct StoredFile<'a> {
    pub bucket: &'a str,
    pub key: &'a str,
}

/// One file to record: who owns it, which source it goes to, what it was called.
pub struct FileDocument<'a> {
    pub user_id: &'a str,
    pub source: &'a str,
    pub file_name: &'a str,
    pub extracted: &'a Extracted,
    pub original: Option<StoredFile<'a>>,
    /// The deeplink of the document this file came with (a mail message's attachment).
    pub attached_to: Option<&'a str>,
    /// The file's own id in its source (a WebDAV path), so a changed file updates its document;
    /// `None`: the name and text are the id, and a changed file is a new document.
    pub stable_id: Option<&'a str>,
}

/// Detail tags and file metadata as the document keeps them.
fn metadata_of(file: &FileDocument<'_>, layout_hash: &str) -> BTreeMap<String, String> {
    let extracted = file.extracted;
    let m = &extracted.metadata;
    let mut out = file_facts(extracted, file.file_name, layout_hash);
    if let Some(original) = &file.original {
        out.insert("bucket".to_string(), original.bucket.to_string());
        out.insert("object_key".to_string(), original.key.to_string());
    }
    if let Some(parent) = file.attached_to {
        out.insert("attached_to".to_string(), parent.to_string());
    }
    let optional = [
        ("author", &m.author),
        ("created_by", &m.created_by),
        ("company_name", &m.company),
        ("subject", &m.subject),
        ("report_date", &m.created),
    ];
    for (key, value) in optional {
        if let Some(v) = value.as_ref().filter(|v| !v.trim().is_empty()) {
            out.insert(key.to_string(), v.clone());
        }
    }
    if let Some(year) = m.year {
        out.insert("year".to_string(), year.to_string());
    }
    // Whether the text looked garbled is not kept as a tag: it is the extractor's own judgement,
    // not a fact about the document, and as a tag it showed to readers as a "Garbled: true" chip.
    // Detail tags read from the document's own text (ISIN, CIN, quarter, report type, ...) win
    // over the file's properties where both speak.
    out.extend(extract::tags::detail_tags(extracted));
    out
}

/// The title a reader expects: the document's own, when a person wrote it; else, for an SEC
/// filing, "Company — Form — Period" from its cover; else one read from its file name
/// ("Annual_Report.pdf" is titled "Annual Report"). A machine-made title (an accession number,
/// a file name, a string of codes such as "ADBE 10-K FY22") is kept only when nothing better is
/// known.
fn title_of(extracted: &Extracted, file_name: &str, tags: &BTreeMap<String, String>) -> String {
    use extract::clean::{is_machine_title, title_from_file_name};
    let own = extracted.metadata.title.clone().filter(|t| !t.trim().is_empty());
    if let Some(title) = own.as_ref().filter(|t| !is_machine_title(t)) {
        return title.clone();
    }
    let from_name = title_from_file_name(file_name);
    extract::tags::filing_title(tags)
        .or_else(|| (!is_machine_title(&from_name)).then(|| from_name.clone()))
        .or(own)
        .unwrap_or(from_name)
}

/// An extracted file's text and layout as the blob store keeps them.
pub struct Stored {
    /// Pages joined by form feeds.
    pub text: String,
    pub content_hash: String,
    /// The blob of the whole [`Extracted`] document, with its page layout, for highlights.
    pub layout_hash: String,
}

/// Stores an extracted file's text and layout blobs.
pub async fn store(blobs: &BlobStore, extracted: &Extracted) -> anyhow::Result<Stored> {
    let text: String = extracted.pages.iter().map(|p| p.text.as_str()).collect::<Vec<_>>().join("\n\u{c}\n");
    let content_hash = hex::encode(Sha256::digest(text.as_bytes()));
    let layout = serde_json::to_string(extracted)?;
    let layout_hash = hex::encode(Sha256::digest(layout.as_bytes()));
    blobs.put(&content_hash, &text).await?;
    blobs.put(&layout_hash, &layout).await?;
    Ok(Stored { text, content_hash, layout_hash })
}

/// The facts every extracted file's document keeps: type, size, pages, name, layout blob.
pub fn file_facts(extracted: &Extracted, file_name: &str, layout_hash: &str) -> BTreeMap<String, String> {
    let m = &extracted.metadata;
    BTreeMap::from([
        ("mime_type".to_string(), m.mime.clone()),
        ("size".to_string(), m.size_bytes.to_string()),
        ("pages".to_string(), m.page_count.max(extracted.pages.len() as u32).to_string()),
        ("original_file_name".to_string(), file_name.to_string()),
        ("layout_blob".to_string(), layout_hash.to_string()),
    ])
}

/// Extracts `bytes`, a file called `name`, in an isolated worker: written to a scratch file of
/// its own in `scratch` and removed afterwards. `declared_mime` is a hint (a content type's
/// parameters are dropped). The outer error is ours (the scratch folder); the inner one is the
/// file's, or the worker's.
pub async fn extract_bytes(
    worker: &extract::WorkerCommand,
    scratch: &std::path::Path,
    name: &str,
    declared_mime: Option<&str>,
    bytes: Vec<u8>,
) -> anyhow::Result<Result<Extracted, extract::ExtractError>> {
    commands::private::create_dir_async(scratch).await?;
    let local = scratch.join(format!("{}-{}", uuid::Uuid::new_v4().simple(), crate::storage::safe_name(name)));
    let path = local.clone();
    tokio::task::spawn_blocking(move || commands::private::write_file(&path, &bytes)).await??;
    let input = extract::Input {
        path: local.clone(),
        file_name: Some(name.to_string()),
        declared_mime: declared_mime
            .map(|m| m.split(';').next().unwrap_or(m).trim().to_string())
            .filter(|m| !m.is_empty()),
    };
    let extracted = extract::extract_isolated(worker, &input, &extract::Limits::default()).await;
    let _ = tokio::fs::remove_file(&local).await;
    Ok(extracted)
}

/// What recording a file did.
pub struct Recorded {
    pub deeplink: String,
    /// False when the same file (same name, same text) was recorded before, unchanged.
    pub new: bool,
    pub pages: u32,
}

/// Stores the text and layout blobs and records the document.
pub async fn record(
    bus: &CommandBus,
    blobs: &BlobStore,
    file: FileDocument<'_>,
    metadata: &EventMetadata,
) -> anyhow::Result<Recorded> {
    let extracted = file.extracted;
    let Stored { text, content_hash, layout_hash } = store(blobs, extracted).await?;
    // The same name with the same text is the same document, however often it is sent; a file
    // with an id of its own is that document whatever its text.
    let guid = match file.stable_id {
        Some(id) => id.to_string(),
        None => format!("{}:{content_hash}", file.file_name),
    };
    let tags = metadata_of(&file, &layout_hash);
    let fields = DocumentFields {
        source_id: file.source.to_string(),
        guid: guid.clone(),
        link: None,
        title: title_of(extracted, file.file_name, &tags),
        author: extracted.metadata.author.clone(),
        published_at: extracted
            .metadata
            .created
            .as_deref()
            .and_then(|c| chrono::DateTime::parse_from_rfc3339(c).ok())
            .map(|t| t.with_timezone(&chrono::Utc)),
        summary: Some(preview(&text, 100)).filter(|s| !s.is_empty()),
        content_hash,
        owner: Some(file.user_id.to_string()),
        metadata: tags,
    };
    let id = deeplink(&format!("{}/{}", file.source, file.user_id), &guid);
    let before = commands::feed::last_of_aggregate(&bus.db, "document", &id).await?;
    let after = bus
        .execute(&bus.documents, &id, DocumentCommand::Ingest(fields), metadata)
        .await
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    Ok(Recorded { new: before != after, deeplink: id, pages: extracted.pages.len() as u32 })
}

#[cfg(test)]
mod tests {
    use super::*;
    use extract::{DocMetadata, Extracted};

    fn extracted(title: Option<&str>, garbled: bool) -> Extracted {
        Extracted {
            mime: "application/pdf".into(),
            pages: vec![],
            metadata: DocMetadata { title: title.map(str::to_string), ..DocMetadata::default() },
            garbled,
            warnings: vec![],
        }
    }

    #[test]
    fn a_garbled_document_gets_no_garbled_tag() {
        let doc = extracted(None, true);
        let file = FileDocument {
            user_id: "u",
            source: DRIVE_SOURCE,
            file_name: "scan.pdf",
            extracted: &doc,
            original: None,
            attached_to: None,
            stable_id: None,
        };
        let tags = metadata_of(&file, "hash");
        assert!(!tags.contains_key("garbled"), "{tags:?}");
        assert_eq!(tags.get("original_file_name").map(String::as_str), Some("scan.pdf"));
    }

    #[test]
    fn an_untitled_file_is_titled_from_its_name_with_spaces() {
        let none = BTreeMap::new();
        assert_eq!(title_of(&extracted(None, false), "Annual_Report%202024.pdf", &none), "Annual Report 2024");
        assert_eq!(title_of(&extracted(Some("Board minutes"), false), "minutes_v2.docx", &none), "Board minutes");
    }

    #[test]
    fn a_filing_with_a_machine_made_title_is_titled_by_company_form_and_period() {
        let filing: BTreeMap<String, String> =
            [("form_type", "10-K"), ("company_name", "Orchard Fields Inc."), ("year", "FY2024")]
                .into_iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect();
        let wanted = "Orchard Fields Inc. — 10-K — FY2024";
        assert_eq!(
            title_of(&extracted(Some("0000320193-24-000123"), false), "0000320193-24-000123.pdf", &filing),
            wanted
        );
        assert_eq!(title_of(&extracted(Some("ORCH 10-K FY24"), false), "orch-20240928.pdf", &filing), wanted);
        assert_eq!(title_of(&extracted(None, false), "orch-20240928.pdf", &filing), wanted);
        // A title a person wrote stays.
        let written = "Orchard Fields Annual Report on Form 10-K";
        assert_eq!(title_of(&extracted(Some(written), false), "x.pdf", &filing), written);
        // Without a filing title, a readable file name beats an accession number.
        let none = BTreeMap::new();
        assert_eq!(
            title_of(&extracted(Some("0000320193-24-000123"), false), "Orchard 10-K.pdf", &none),
            "Orchard 10-K"
        );
        assert_eq!(
            title_of(&extracted(Some("ADBE 10-K FY22"), false), "0000796343-22-000032.pdf", &none),
            "ADBE 10-K FY22"
        );
    }
}
