//! Extraction through the real worker process: generated fixtures (always), the shared real and
//! hostile files (when `../shared/data` is present), and proof that each cap stops a worker.

mod fuzz_replay;

use extract::{extract_isolated, ExtractError, Extracted, Input, Limits, WorkerCommand};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn worker() -> WorkerCommand {
    WorkerCommand::new(env!("CARGO_BIN_EXE_extract-worker"))
}

/// Tight enough that a stuck test fails in seconds, loose enough for a debug build.
fn limits() -> Limits {
    Limits { memory_bytes: 1 << 30, cpu_seconds: 20, wall_clock: Duration::from_secs(30), ..Limits::default() }
}

fn shared_data() -> Option<PathBuf> {
    let dir = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/data"));
    if dir.is_dir() {
        Some(dir.to_path_buf())
    } else {
        // Written to the raw stderr handle: libtest captures eprintln! of passing tests.
        let _ = writeln!(std::io::stderr(), "skipped: ../shared/data not found");
        None
    }
}

async fn extract_path(path: &Path) -> Result<Extracted, ExtractError> {
    extract_isolated(&worker(), &Input::path(path), &limits()).await
}

/// Writes `bytes` to a temporary file named `name` and extracts it.
async fn extract_bytes(name: &str, bytes: &[u8]) -> Result<Extracted, ExtractError> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, bytes).unwrap();
    extract_path(&path).await
}

fn all_text(doc: &Extracted) -> String {
    doc.pages.iter().map(|p| p.text.as_str()).collect::<Vec<_>>().join("\n")
}

// ---------- fixtures ----------

/// A minimal PDF with one page per entry of `pages` (a `\n` starts a new line), in the base-14 Helvetica font, and an info
/// dictionary; offsets in the xref table are computed, so no repair is needed to read it.
fn tiny_pdf(pages: &[&str], title: &str, author: &str) -> Vec<u8> {
    let n = pages.len();
    // Objects: 1 catalog, 2 page tree, 3 font, 4 info, then (page, content) pairs.
    let mut objects: Vec<String> = Vec::new();
    objects.push("<< /Type /Catalog /Pages 2 0 R >>".into());
    let kids: Vec<String> = (0..n).map(|i| format!("{} 0 R", 5 + 2 * i)).collect();
    objects.push(format!("<< /Type /Pages /Kids [{}] /Count {n} >>", kids.join(" ")));
    objects.push("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".into());
    objects.push(format!(
        "<< /Title ({title}) /Author ({author}) /Creator (Needl tests) /CreationDate (D:20240315120000Z) >>"
    ));
    for (i, text) in pages.iter().enumerate() {
        // Each line of `text` is a line of the page, 14 points below the one before.
        let shown: Vec<String> = text
            .split('\n')
            .map(|line| line.replace('\\', "\\\\").replace('(', "\\(").replace(')', "\\)"))
            .map(|line| format!("({line}) Tj"))
            .collect();
        let stream = format!("BT /F1 12 Tf 14 TL 72 720 Td {} ET", shown.join(" T* "));
        objects.push(format!(
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents {} 0 R >>",
            6 + 2 * i
        ));
        objects.push(format!("<< /Length {} >>\nstream\n{stream}\nendstream", stream.len()));
    }
    let mut out = b"%PDF-1.4\n".to_vec();
    let mut offsets = Vec::new();
    for (i, body) in objects.iter().enumerate() {
        offsets.push(out.len());
        out.extend_from_slice(format!("{} 0 obj\n{body}\nendobj\n", i + 1).as_bytes());
    }
    let xref = out.len();
    out.extend_from_slice(format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).as_bytes());
    for offset in offsets {
        out.extend_from_slice(format!("{offset:010} 00000 n \n").as_bytes());
    }
    out.extend_from_slice(
        format!("trailer\n<< /Size {} /Root 1 0 R /Info 4 0 R >>\nstartxref\n{xref}\n%%EOF\n", objects.len() + 1)
            .as_bytes(),
    );
    out
}

/// A zip package of `(name, content)` parts, deflated.
fn zip_package(parts: &[(&str, &[u8])]) -> Vec<u8> {
    let mut buf = std::io::Cursor::new(Vec::new());
    {
        let mut zip = zip::ZipWriter::new(&mut buf);
        let options = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
        for (name, content) in parts {
            zip.start_file(*name, options).unwrap();
            zip.write_all(content).unwrap();
        }
        zip.finish().unwrap();
    }
    buf.into_inner()
}

const CONTENT_TYPES: &[u8] = br#"<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>"#;

fn core_xml(title: &str, creator: &str, created: &str) -> String {
    format!(
        r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<dc:title>{title}</dc:title><dc:creator>{creator}</dc:creator><dcterms:created xsi:type="dcterms:W3CDTF">{created}</dcterms:created></cp:coreProperties>"#
    )
}

fn docx(body: &str) -> Vec<u8> {
    let document = format!(
        r#"<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>{body}</w:body></w:document>"#
    );
    let core = core_xml("Quarterly Review", "Ada Lovelace", "2023-06-30T09:00:00Z");
    let app = r#"<?xml version="1.0"?><Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties"><Application>Microsoft Office Word</Application><Company>Analytical Engines Ltd</Company><Pages>2</Pages></Properties>"#;
    zip_package(&[
        ("[Content_Types].xml", CONTENT_TYPES),
        ("word/document.xml", document.as_bytes()),
        ("docProps/core.xml", core.as_bytes()),
        ("docProps/app.xml", app.as_bytes()),
    ])
}

// ---------- generated fixtures: core behaviour ----------

#[tokio::test]
async fn a_generated_pdf_yields_its_words_with_boxes_inside_the_page() {
    let pdf =
        tiny_pdf(&["Revenue grew eleven percent", "Margins (operating) held steady"], "Annual Report", "Acme Research");
    let doc = extract_bytes("report.pdf", &pdf).await.unwrap();
    assert_eq!(doc.mime, "application/pdf");
    assert_eq!(doc.pages.len(), 2);
    assert_eq!(doc.pages[0].number, 1);
    assert!(doc.pages[0].text.contains("Revenue grew eleven percent"), "{:?}", doc.pages[0].text);
    assert!(doc.pages[1].text.contains("Margins (operating) held steady"));
    for page in &doc.pages {
        assert_eq!((page.width, page.height), (612.0, 792.0));
        assert!(!page.blocks.is_empty());
        for block in &page.blocks {
            let [x0, y0, x1, y1] = block.bbox;
            assert!(0.0 <= x0 && x0 < x1 && x1 <= page.width, "{:?}", block.bbox);
            assert!(0.0 <= y0 && y0 < y1 && y1 <= page.height, "{:?}", block.bbox);
        }
    }
    // Text drawn at y = 720 from the bottom sits near the top in top-left coordinates.
    assert!(doc.pages[0].blocks[0].bbox[1] < 100.0);
}

#[tokio::test]
async fn a_generated_pdf_reports_its_title_author_page_count_and_year() {
    let pdf = tiny_pdf(&["one", "two", "three"], "Annual Report 2024", "Acme Research");
    let doc = extract_bytes("upload.pdf", &pdf).await.unwrap();
    let m = &doc.metadata;
    assert_eq!(m.title.as_deref(), Some("Annual Report 2024"));
    assert_eq!(m.author.as_deref(), Some("Acme Research"));
    assert_eq!(m.created_by.as_deref(), Some("Needl tests"));
    assert_eq!(m.created.as_deref(), Some("2024-03-15T12:00:00Z"));
    assert_eq!(m.year, Some(2024));
    assert_eq!(m.page_count, 3);
    assert_eq!(m.file_name.as_deref(), Some("upload.pdf"));
    assert_eq!(m.size_bytes, pdf.len() as u64);
    assert_eq!(m.mime, "application/pdf");
}

#[tokio::test]
async fn a_word_hyphenated_at_a_line_end_is_joined_and_each_line_keeps_its_box() {
    let page = "Programming Lan-\nguages are well-known tools\nfor re-\nsearch";
    let doc = extract_bytes("langs.pdf", &tiny_pdf(&[page], "Languages", "Ada")).await.unwrap();
    let text = &doc.pages[0].text;
    assert_eq!(text.lines().collect::<Vec<_>>(), ["Programming Languages", "are well-known tools", "for research"]);
    let blocks = &doc.pages[0].blocks;
    assert_eq!(blocks.len(), 3, "{blocks:?}");
    // The joined word sits on its first line's box: the lines still run down the page in order,
    // and every line's text is found in the page's text, as passages locate them.
    assert_eq!(blocks[0].text, "Programming Languages");
    assert!(blocks[0].bbox[1] < blocks[1].bbox[1] && blocks[1].bbox[1] < blocks[2].bbox[1], "{blocks:?}");
    let mut cursor = 0;
    for block in blocks {
        let found = text[cursor..].find(&block.text).expect("each line in the page text, in order");
        cursor += found + block.text.len();
    }
}

#[tokio::test]
async fn a_perl_array_author_and_an_untitled_title_are_not_kept() {
    let doc = extract_bytes("x.pdf", &tiny_pdf(&["Body text"], "untitled", "ARRAY(0x2c7cf020)")).await.unwrap();
    assert_eq!(doc.metadata.author, None);
    assert_eq!(doc.metadata.title, None);
    let doc = extract_bytes("y.pdf", &tiny_pdf(&["Body text"], "Microsoft Word - Annual Report.docx", "Acme Research"))
        .await
        .unwrap();
    assert_eq!(doc.metadata.title.as_deref(), Some("Annual Report"));
    assert_eq!(doc.metadata.author.as_deref(), Some("Acme Research"));
}

#[tokio::test]
async fn a_pdf_of_symbol_soup_is_flagged_as_garbled() {
    let soup = "#$%& *+,- ./:; <=>? @[]^ _`{| }~!# $%&* +,-. /:;< =>?@ []^_ `{|} ~!#$ %&*+ ,-./";
    let doc = extract_bytes("soup.pdf", &tiny_pdf(&[soup], "t", "a")).await.unwrap();
    assert!(doc.garbled);
    assert!(doc.pages[0].garbled);
    assert!(doc.warnings.iter().any(|w| w.contains("OCR")), "{:?}", doc.warnings);
}

#[tokio::test]
async fn a_generated_docx_yields_pages_split_at_page_breaks_and_its_core_properties() {
    let body = r#"<w:p><w:r><w:t>Revenue &amp; margins</w:t></w:r><w:r><w:tab/><w:t xml:space="preserve">rose &#8364;5m</w:t></w:r></w:p>
        <w:p><w:r><w:br w:type="page"/><w:t>Second page text</w:t></w:r></w:p>"#;
    let doc = extract_bytes("review.docx", &docx(body)).await.unwrap();
    assert_eq!(doc.mime, "application/vnd.openxmlformats-officedocument.wordprocessingml.document");
    assert_eq!(doc.pages.len(), 2);
    assert_eq!(doc.pages[0].text, "Revenue & margins\trose €5m");
    assert_eq!(doc.pages[1].text, "Second page text");
    let m = &doc.metadata;
    assert_eq!(m.title.as_deref(), Some("Quarterly Review"));
    assert_eq!(m.author.as_deref(), Some("Ada Lovelace"));
    assert_eq!(m.created_by.as_deref(), Some("Microsoft Office Word"));
    assert_eq!(m.company.as_deref(), Some("Analytical Engines Ltd"));
    assert_eq!(m.year, Some(2023));
    assert_eq!(m.page_count, 2);
}

#[tokio::test]
async fn a_generated_xlsx_yields_one_page_per_sheet_with_shared_strings_resolved() {
    let workbook = br#"<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Summary" sheetId="1" r:id="rId1"/><sheet name="Detail" sheetId="2" r:id="rId2"/></sheets></workbook>"#;
    let rels = br#"<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="ws" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="ws" Target="/xl/worksheets/sheet2.xml"/></Relationships>"#;
    let strings = br#"<?xml version="1.0"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si><t>Region</t></si><si><r><t>Net </t></r><r><t>sales</t></r></si></sst>"#;
    // A declared dimension of the whole grid: calamine would allocate it; we must not care.
    let sheet1 = br#"<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><dimension ref="A1:XFD1048576"/><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row><row r="2"><c r="A2" t="inlineStr"><is><t>Europe</t></is></c><c r="B2"><v>1234.5</v></c><c r="C2" t="b"><v>1</v></c></row><row r="1048576"><c r="XFD1048576"><v>7</v></c></row></sheetData></worksheet>"#;
    let sheet2 = br#"<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="str"><v>formula result</v></c></row></sheetData></worksheet>"#;
    let xlsx = zip_package(&[
        ("[Content_Types].xml", CONTENT_TYPES),
        ("xl/workbook.xml", workbook),
        ("xl/_rels/workbook.xml.rels", rels),
        ("xl/sharedStrings.xml", strings),
        ("xl/worksheets/sheet1.xml", sheet1),
        ("xl/worksheets/sheet2.xml", sheet2),
    ]);
    let doc = extract_bytes("sales.xlsx", &xlsx).await.unwrap();
    assert_eq!(doc.mime, "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    assert_eq!(doc.pages.len(), 2);
    assert_eq!(doc.pages[0].text, "Summary\nRegion\tNet sales\nEurope\t1234.5\tTRUE\n7");
    assert_eq!(doc.pages[1].text, "Detail\nformula result");
    assert_eq!(doc.metadata.page_count, 2);
}

#[tokio::test]
async fn a_generated_pptx_yields_one_page_per_slide_in_slide_order() {
    let slide = |text: &str| {
        format!(
            r#"<?xml version="1.0"?><p:sld xmlns:p="p" xmlns:a="a"><p:cSld><p:spTree><p:sp><p:txBody><a:p><a:r><a:t>{text}</a:t></a:r></a:p></p:txBody></p:sp></p:spTree></p:cSld></p:sld>"#
        )
    };
    let (s1, s2, s10) = (slide("Agenda"), slide("Results"), slide("Questions"));
    let pptx = zip_package(&[
        ("[Content_Types].xml", CONTENT_TYPES),
        ("ppt/presentation.xml", b"<p:presentation xmlns:p=\"p\"/>"),
        ("ppt/slides/slide10.xml", s10.as_bytes()),
        ("ppt/slides/slide2.xml", s2.as_bytes()),
        ("ppt/slides/slide1.xml", s1.as_bytes()),
    ]);
    let doc = extract_bytes("deck.pptx", &pptx).await.unwrap();
    assert_eq!(doc.mime, "application/vnd.openxmlformats-officedocument.presentationml.presentation");
    let texts: Vec<&str> = doc.pages.iter().map(|p| p.text.as_str()).collect();
    assert_eq!(texts, ["Agenda", "Results", "Questions"]);
}

#[tokio::test]
async fn html_text_drops_scripts_and_styles_and_keeps_title_and_author() {
    let html = br#"<!doctype html><html><head><title>Market  Notes</title><meta name="author" content="J. Doe"><style>p{color:red}</style></head>
        <body><script>var secret = 1;</script><h1>Headline</h1><p>First&nbsp;paragraph.</p><noscript>enable js</noscript><p>Second<br>line</p></body></html>"#;
    let doc = extract_bytes("notes.html", html).await.unwrap();
    assert_eq!(doc.mime, "text/html");
    // Block elements become paragraphs, separated by one blank line as in PDF text.
    assert_eq!(doc.pages[0].text, "Headline\n\nFirst paragraph.\n\nSecond\nline");
    assert_eq!(doc.metadata.title.as_deref(), Some("Market Notes"));
    assert_eq!(doc.metadata.author.as_deref(), Some("J. Doe"));
}

#[tokio::test]
async fn latin1_text_is_decoded_with_a_warning_and_control_characters_removed() {
    let bytes = b"Caf\xe9 cr\xe8me br\xfbl\xe9e \x07costs \xa35\r\nNa\xefve r\xe9sum\xe9";
    let doc = extract_bytes("menu.txt", bytes).await.unwrap();
    assert_eq!(doc.mime, "text/plain");
    assert_eq!(doc.pages[0].text, "Café crème brûlée costs £5\nNaïve résumé");
    assert!(doc.warnings.iter().any(|w| w.contains("not UTF-8")), "{:?}", doc.warnings);
}

#[tokio::test]
async fn markdown_is_told_from_text_by_name_and_its_first_heading_is_the_title() {
    let doc = extract_bytes("README.md", b"Intro line\n\n# Needl Guide\n\nSome *text*.").await.unwrap();
    assert_eq!(doc.mime, "text/markdown");
    assert_eq!(doc.metadata.title.as_deref(), Some("Needl Guide"));
    assert!(doc.pages[0].text.contains("Some *text*."));
}

#[tokio::test]
async fn a_docx_whose_part_declares_a_doctype_with_entities_is_rejected() {
    let bomb = r#"<?xml version="1.0"?><!DOCTYPE w [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><w:document xmlns:w="w"><w:body><w:p><w:r><w:t>&b;</w:t></w:r></w:p></w:body></w:document>"#;
    let package = zip_package(&[("[Content_Types].xml", CONTENT_TYPES), ("word/document.xml", bomb.as_bytes())]);
    let err = extract_bytes("bomb.docx", &package).await.unwrap_err();
    assert!(matches!(err, ExtractError::Corrupt(ref m) if m.contains("DOCTYPE")), "{err}");
}

#[tokio::test]
async fn a_highly_compressed_part_is_rejected_as_a_zip_bomb_before_inflating() {
    let zeros = vec![b' '; 64 << 20];
    let package = zip_package(&[("[Content_Types].xml", CONTENT_TYPES), ("word/document.xml", &zeros)]);
    assert!(package.len() < 1 << 20, "fixture should compress well: {}", package.len());
    let started = Instant::now();
    let err = extract_bytes("bomb.docx", &package).await.unwrap_err();
    assert!(matches!(err, ExtractError::TooLarge(ref m) if m.contains("zip bomb")), "{err}");
    assert!(started.elapsed() < Duration::from_secs(5), "{:?}", started.elapsed());
}

/// Overwrites a 4-byte little-endian field at `offset` past every occurrence of `signature`.
fn patch_u32_after(bytes: &mut [u8], signature: &[u8], offset: usize, value: u32) {
    let starts: Vec<usize> =
        bytes.windows(signature.len()).enumerate().filter(|(_, w)| *w == signature).map(|(i, _)| i).collect();
    assert!(!starts.is_empty());
    for start in starts {
        bytes[start + offset..start + offset + 4].copy_from_slice(&value.to_le_bytes());
    }
}

#[tokio::test]
async fn a_part_that_inflates_past_its_declared_size_is_refused() {
    let body = format!(
        r#"<w:document xmlns:w="w"><w:body><w:p><w:r><w:t>{}</w:t></w:r></w:p></w:body></w:document>"#,
        "lie ".repeat(5000)
    );
    let mut package = zip_package(&[("word/document.xml", body.as_bytes())]);
    // Both the local header and the central directory claim 100 bytes for a 20 KB part.
    patch_u32_after(&mut package, b"PK\x03\x04", 22, 100);
    patch_u32_after(&mut package, b"PK\x01\x02", 24, 100);
    let err = extract_bytes("liar.docx", &package).await.unwrap_err();
    assert_eq!(err.code(), "corrupt", "{err}");
}

#[tokio::test]
async fn a_zip_that_is_not_an_office_document_is_unsupported_unless_named_like_one() {
    let package = zip_package(&[("photos/readme.txt", b"hello")]);
    let err = extract_bytes("archive.zip", &package).await.unwrap_err();
    assert!(matches!(err, ExtractError::Unsupported(_)), "{err}");
    let err = extract_bytes("report.xlsx", &package).await.unwrap_err();
    assert!(matches!(err, ExtractError::Corrupt(_)), "{err}");
}

#[tokio::test]
async fn an_old_office_or_encrypted_ooxml_file_fails_with_the_encrypted_reason() {
    let mut ole = vec![0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1];
    ole.resize(4096, 0);
    let err = extract_bytes("legacy.doc", &ole).await.unwrap_err();
    assert_eq!(err.code(), "encrypted");
    assert!(err.to_string().contains("encrypted or in the old Office format"), "{err}");
}

#[tokio::test]
async fn an_empty_file_is_reported_as_unreadable() {
    let err = extract_bytes("empty.pdf", b"").await.unwrap_err();
    assert!(matches!(err, ExtractError::Corrupt(ref m) if m.contains("empty")), "{err}");
}

#[tokio::test]
async fn a_page_with_200_000_text_operations_extracts_within_the_time_cap() {
    // The crafted shape that kept pdftotext busy past 60 s in the measurements.
    let ops: String =
        (0..200_000).map(|i| format!("{} {} Td (w{}) Tj\n", (i % 7) as f32 * 0.01, 0.0, i % 10)).collect();
    let mut pdf = tiny_pdf(&["PLACEHOLDER"], "ops", "a");
    let text_op = "BT /F1 12 Tf 14 TL 72 720 Td (PLACEHOLDER) Tj ET";
    let stream = format!("BT /F1 1 Tf 72 720 Td\n{ops}ET");
    // Rebuild with the long stream; offsets shift, which MuPDF's xref repair must also handle.
    let source = String::from_utf8(pdf.clone()).unwrap();
    let patched = source
        .replace(text_op, &stream)
        .replace(&format!("/Length {}", text_op.len()), &format!("/Length {}", stream.len()));
    pdf = patched.into_bytes();
    let started = Instant::now();
    let doc = extract_bytes("ops.pdf", &pdf).await.unwrap();
    assert_eq!(doc.pages.len(), 1);
    assert!(doc.pages[0].text.contains("w7"));
    assert!(started.elapsed() < Duration::from_secs(25), "{:?}", started.elapsed());
}

// ---------- the caps ----------

#[tokio::test]
async fn the_memory_cap_stops_a_ballooning_worker() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("any.txt");
    std::fs::write(&path, "x").unwrap();
    // TEST ONLY flag: the worker allocates until its address-space cap refuses.
    let balloon = worker().arg("--test-only-balloon");
    let limits = Limits { memory_bytes: 256 << 20, ..limits() };
    let started = Instant::now();
    let err = extract_isolated(&balloon, &Input::path(&path), &limits).await.unwrap_err();
    assert_eq!(err, ExtractError::OutOfMemory { limit_mib: 256 });
    assert!(started.elapsed() < Duration::from_secs(15), "{:?}", started.elapsed());
}

#[tokio::test]
async fn the_wall_clock_kill_stops_a_hanging_worker() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("any.txt");
    std::fs::write(&path, "x").unwrap();
    // TEST ONLY flag: the worker sleeps forever, using no CPU, so only the wall clock can stop it.
    let hang = worker().arg("--test-only-hang");
    let limits = Limits { wall_clock: Duration::from_secs(1), ..limits() };
    let started = Instant::now();
    let err = extract_isolated(&hang, &Input::path(&path), &limits).await.unwrap_err();
    assert_eq!(err, ExtractError::TimedOut { seconds: 1 });
    assert!(started.elapsed() < Duration::from_secs(5), "{:?}", started.elapsed());
}

#[tokio::test]
async fn the_cpu_cap_stops_a_spinning_worker_before_the_wall_clock() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("any.txt");
    std::fs::write(&path, "x").unwrap();
    // TEST ONLY flag: the worker spins forever.
    let spin = worker().arg("--test-only-spin");
    let limits = Limits { cpu_seconds: 1, wall_clock: Duration::from_secs(60), ..limits() };
    let started = Instant::now();
    let err = extract_isolated(&spin, &Input::path(&path), &limits).await.unwrap_err();
    assert_eq!(err, ExtractError::TimedOut { seconds: 1 });
    assert!(started.elapsed() < Duration::from_secs(20), "{:?}", started.elapsed());
}

#[tokio::test]
async fn output_over_the_cap_is_refused() {
    let text = "word ".repeat(10_000);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("long.txt");
    std::fs::write(&path, &text).unwrap();
    let limits = Limits { max_output_bytes: 4096, ..limits() };
    let err = extract_isolated(&worker(), &Input::path(&path), &limits).await.unwrap_err();
    assert!(matches!(err, ExtractError::TooLarge(ref m) if m.contains("extracted text")), "{err}");
}

#[tokio::test]
async fn an_input_over_the_size_cap_is_refused_before_a_worker_starts() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.txt");
    std::fs::write(&path, vec![b'a'; 2048]).unwrap();
    let limits = Limits { max_input_bytes: 1024, ..limits() };
    let nowhere = WorkerCommand::new("/nonexistent/extract-worker");
    let err = extract_isolated(&nowhere, &Input::path(&path), &limits).await.unwrap_err();
    assert_eq!(err.code(), "too_large");
}

#[tokio::test]
async fn a_worker_that_cannot_start_is_an_operator_problem_not_the_files() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a.txt");
    std::fs::write(&path, "hello").unwrap();
    let err = extract_isolated(&WorkerCommand::new("/nonexistent/extract-worker"), &Input::path(&path), &limits())
        .await
        .unwrap_err();
    assert!(matches!(err, ExtractError::Worker(ref m) if m.contains("cannot start")), "{err}");
}

// ---------- real files from ../shared/data ----------

fn files_in(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.flatten().map(|e| e.path()).filter(|p| p.is_file()).collect())
        .unwrap_or_default();
    files.sort();
    files
}

/// Page count from poppler's pdfinfo, when it is installed.
fn pdfinfo_pages(path: &Path) -> Option<u32> {
    let out = std::process::Command::new("pdfinfo").arg(path).output().ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    text.lines().find_map(|l| l.strip_prefix("Pages:")).and_then(|n| n.trim().parse().ok())
}

#[tokio::test]
async fn real_pdfs_extract_known_words_with_page_counts_matching_pdfinfo() {
    let Some(data) = shared_data() else { return };
    let dir = data.join("docs/pdf/research");
    let expected = [
        ("pdfjs__tracemonkey.pdf", 14, "Trace-based Just-in-Time"),
        ("pdfjs__TAMReview.pdf", 23, "Technology Acceptance"),
    ];
    for (name, pages, words) in expected {
        let path = dir.join(name);
        let doc = extract_path(&path).await.unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(doc.pages.len() as u32, pages, "{name}");
        assert_eq!(doc.metadata.page_count, pages, "{name}");
        if let Some(poppler) = pdfinfo_pages(&path) {
            assert_eq!(doc.metadata.page_count, poppler, "{name} against pdfinfo");
        }
        assert!(all_text(&doc).contains(words), "{name} lacks {words:?}");
        for page in &doc.pages {
            for block in &page.blocks {
                let [x0, y0, x1, y1] = block.bbox;
                assert!(
                    x0 >= -1.0 && y0 >= -1.0 && x1 <= page.width + 1.0 && y1 <= page.height + 1.0,
                    "{name} p{} {:?}",
                    page.number,
                    block.bbox
                );
            }
        }
    }
}

#[tokio::test]
async fn a_pdf_whose_fonts_lack_a_character_map_is_flagged_for_ocr() {
    let Some(data) = shared_data() else { return };
    // TAMReview's body fonts map to nothing usable (pdftotext shows garbage too).
    let doc = extract_path(&data.join("docs/pdf/research/pdfjs__TAMReview.pdf")).await.unwrap();
    assert!(doc.garbled);
    let clean = extract_path(&data.join("docs/pdf/research/pdfjs__tracemonkey.pdf")).await.unwrap();
    assert!(!clean.garbled);
}

#[tokio::test]
async fn real_docx_files_extract_with_their_known_words() {
    let Some(data) = shared_data() else { return };
    let dir = data.join("docs/docx");
    let expected = [
        ("poi__61991.docx", "Immune Tolerance Network"),
        ("poi__56392.docx", "###Surname/Company###"),
        ("poi__HeaderFooterUnicode.docx", "headers and footers"),
        ("poi__bug59058.docx", "Number of New Cases and Deaths"),
    ];
    for (name, words) in expected {
        let doc = extract_path(&dir.join(name)).await.unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(all_text(&doc).contains(words), "{name} lacks {words:?}");
        assert!(doc.metadata.page_count >= 1);
    }
    let doc = extract_path(&dir.join("poi__61991.docx")).await.unwrap();
    assert_eq!(doc.metadata.author.as_deref(), Some("adam"));
    assert_eq!(doc.metadata.company.as_deref(), Some("LabKey"));
    assert_eq!(doc.metadata.year, Some(2018));
}

#[tokio::test]
async fn every_real_xlsx_extracts_one_page_per_sheet() {
    let Some(data) = shared_data() else { return };
    let files = files_in(&data.join("docs/xlsx"));
    assert!(!files.is_empty());
    for path in files {
        let doc = extract_path(&path).await.unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(!doc.pages.is_empty(), "{}", path.display());
        assert_eq!(doc.metadata.page_count as usize, doc.pages.len());
        assert!(all_text(&doc).len() > 100, "{}", path.display());
    }
    let doc = extract_path(&data.join("docs/xlsx/poi__54288.xlsx")).await.unwrap();
    assert!(all_text(&doc).contains("Nihub"));
}

#[tokio::test]
async fn real_text_and_markdown_extract_their_words() {
    let Some(data) = shared_data() else { return };
    let doc = extract_path(&data.join("docs/txt/earningscall__3M_20170425.txt")).await.unwrap();
    assert_eq!(doc.mime, "text/plain");
    assert!(all_text(&doc).contains("organic growth"));
    let doc = extract_path(&data.join("docs/md/tatqa__README.md")).await.unwrap();
    assert_eq!(doc.mime, "text/markdown");
    assert!(all_text(&doc).contains("TAT-QA"));
    assert!(doc.metadata.title.as_deref().is_some_and(|t| t.contains("TAT-QA")), "{:?}", doc.metadata.title);
}

#[tokio::test]
async fn password_protected_files_fail_with_the_encrypted_reason_and_empty_passwords_open() {
    let Some(data) = shared_data() else { return };
    for name in [
        "pdfjs__issue3371__password-ELXRTQWS.pdf",
        "pdfjs__issue6010_1__password-abc.pdf",
        "pdfjs__saslprep-r6__aes256-unicode-password.pdf",
    ] {
        let err = extract_path(&data.join("docs/pdf/encrypted").join(name)).await.unwrap_err();
        assert_eq!(err.code(), "encrypted", "{name}: {err}");
        assert!(err.to_string().contains("password"), "{err}");
    }
    let doc = extract_path(&data.join("docs/pdf/encrypted/pdfjs__bug900822__encrypted-empty-user-password.pdf"))
        .await
        .unwrap();
    assert!(all_text(&doc).contains("Test test"));
    for path in files_in(&data.join("docs/encrypted-office")) {
        let err = extract_path(&path).await.unwrap_err();
        assert_eq!(err.code(), "encrypted", "{}: {err}", path.display());
    }
}

#[tokio::test]
async fn every_hostile_file_fails_alone_with_a_clear_reason_within_the_time_cap() {
    let Some(data) = shared_data() else { return };
    let hostile = data.join("hostile");
    // (file, expected outcome code); "ok" where the engine rightly repairs the file.
    let expected = [
        ("pdf-malformed/pdfjs__helloworld-bad.pdf", "ok"),
        ("pdf-malformed/pdfjs__GHOSTSCRIPT-698804-1-fuzzed.pdf", "corrupt"),
        ("pdf-malformed/pdfjs__poppler-937-0-fuzzed.pdf", "corrupt"),
        ("office/poi__54764-2.xlsx", "corrupt"),
        ("office/poi__poc-xmlbomb-empty.xlsx", "corrupt"),
        ("office/poi__openxml4j_invalid.xlsx", "corrupt"),
        ("office/poi__truncated62886.docx", "corrupt"),
        ("office/poi__clusterfuzz-POIXWPFFuzzer-5313273089884160.docx", "corrupt"),
        ("archive/harimypala__zbsm_overlapping-zip-bomb.zip", "too_large"),
        ("xml/defusedxml__xmlbomb2.xml", "unsupported"),
        ("xml/defusedxml__quadratic.xml", "unsupported"),
        ("xml/defusedxml__external.xml", "unsupported"),
        ("xml/defusedxml__cyclic.xml", "unsupported"),
        ("xml/payloadsallthethings__classic-xxe-etc-passwd.xml", "unsupported"),
        ("feeds/feedparser__rss1_external-parameter-entity-http-dtd.xml", "unsupported"),
        ("feeds/feedparser__rss_xhtml-doctype-before-root.xml", "unsupported"),
    ];
    let limits = limits();
    for (file, code) in expected {
        let started = Instant::now();
        let outcome = extract_isolated(&worker(), &Input::path(hostile.join(file)), &limits).await;
        let elapsed = started.elapsed();
        let got = match &outcome {
            Ok(_) => "ok",
            Err(e) => e.code(),
        };
        assert_eq!(got, code, "{file}: {outcome:?}");
        if let Err(e) = &outcome {
            assert!(e.to_string().len() > 20, "{file}: reason too thin: {e}");
        }
        assert!(elapsed < limits.wall_clock, "{file} took {elapsed:?}");
    }
    // And this process is still here to say so.
    let doc = extract_path(&hostile.join("pdf-malformed/pdfjs__helloworld-bad.pdf")).await.unwrap();
    assert!(all_text(&doc).contains("Hello, world!"));
}

#[tokio::test]
async fn the_real_zip_bomb_under_office_names_is_rejected_fast() {
    let Some(data) = shared_data() else { return };
    let bomb = data.join("hostile/archive/harimypala__zbsm_overlapping-zip-bomb.zip");
    let dir = tempfile::tempdir().unwrap();
    for name in ["bomb.docx", "bomb.xlsx", "bomb.pptx"] {
        // A renamed copy in a temporary directory: the bomb is never inflated, only its
        // central directory read.
        let path = dir.path().join(name);
        std::fs::copy(&bomb, &path).unwrap();
        let started = Instant::now();
        let err = extract_path(&path).await.unwrap_err();
        assert!(matches!(err, ExtractError::TooLarge(ref m) if m.contains("zip bomb")), "{name}: {err}");
        assert!(started.elapsed() < Duration::from_secs(3), "{name}: {:?}", started.elapsed());
    }
}
