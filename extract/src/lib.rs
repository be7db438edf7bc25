//! Document text extraction for uploads: PDF, DOCX, XLSX, PPTX, TXT, MD and HTML.
//!
//! Parsers meet hostile files, and the ones that matter most (MuPDF in C, zip inflation, XML) have
//! been seen to abort, crash, loop and balloon (`shared/notes/EXTRACTION.md`). So every document is
//! extracted in a worker *process* of its own, with an address-space cap, a CPU cap, a wall-clock
//! kill and an output cap; one bad file fails alone with a reason a person can act on.
//!
//! A tour:
//! - [`isolate`]: the server side. [`extract_isolated`] spawns the worker ([`WorkerCommand`]),
//!   enforces [`Limits`], and turns whatever happened into [`Extracted`] or an [`ExtractError`].
//! - [`worker`]: the worker side. [`worker_main`] caps its own process with `setrlimit`, extracts
//!   one file and prints JSON. The server runs it as `needl extract-worker ...`; this crate's own
//!   tests use the `extract-worker` binary.
//! - [`sniff`]: the format from the file's bytes (not its name), and the mime type we report.
//! - [`pdf`] (MuPDF), [`ooxml`] (own zip + quick-xml reader with caps), [`text`] (TXT, MD, HTML):
//!   one module per family, each returning pages of cleaned text.
//! - [`clean`]: text cleaning and the garbage-text detector shared by all formats.
//! - [`tags`]: detail tags (ISIN, CIN, quarter, report date, report type, company, ...) read
//!   from an [`Extracted`] document's first pages; pure, called by the server after extraction.
//! - [`tables`]: tables read back from a PDF page's positioned lines (cells side by side in
//!   rows, lined up in columns); pure, for the table download.
//!
//! Dependencies point one way: this crate knows nothing of the event store, HTTP or the index.

pub mod clean;
pub mod isolate;
pub mod ooxml;
pub mod pdf;
pub mod sniff;
pub mod tables;
pub mod tags;
pub mod text;
pub mod worker;

pub use isolate::{extract_isolated, Limits, WorkerCommand};
pub use worker::{extract_file, worker_main};

use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// The text of one document, page by page, with what is known about the file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Extracted {
    /// The mime type found by content sniffing, not the one the uploader declared.
    pub mime: String,
    pub pages: Vec<Page>,
    pub metadata: DocMetadata,
    /// True when some page's text looks like garbage (fonts without a usable character map);
    /// such a document wants OCR before its text can be trusted for search.
    pub garbled: bool,
    /// Things a person may want to know that did not stop extraction (lossy decoding, pages
    /// without text, dropped parts).
    pub warnings: Vec<String>,
}

/// One page of a PDF, one sheet of a workbook, one slide, or a stretch of a word-processing
/// document between explicit page breaks; plain text and HTML are a single page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Page {
    /// 1-based, as people count pages.
    pub number: u32,
    pub text: String,
    /// Positioned text, only for formats with a fixed layout (PDF); empty otherwise.
    pub blocks: Vec<Block>,
    /// Page size in points, so a viewer can scale [`Block::bbox`] onto its rendering.
    pub width: f32,
    pub height: f32,
    pub garbled: bool,
}

/// A line of positioned text. Lines, not paragraphs: a passage's highlight is the union of the
/// boxes of the lines it covers, which hugs the text more closely than a paragraph box.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Block {
    pub text: String,
    /// `[x0, y0, x1, y1]` in PDF points with the origin at the page's top-left corner and y
    /// growing downward (MuPDF's and pdf.js's viewport convention).
    pub bbox: [f32; 4],
}

/// File facts (always present) and the document's own tags (where it carries them).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct DocMetadata {
    /// The name the uploader gave the file, kept because stored files are named by id.
    pub file_name: Option<String>,
    pub size_bytes: u64,
    pub mime: String,
    /// Pages for PDF (and DOCX as recorded by the authoring application), sheets, slides.
    pub page_count: u32,
    pub title: Option<String>,
    pub author: Option<String>,
    pub subject: Option<String>,
    pub keywords: Option<String>,
    /// The application that made the document (PDF `Creator`, OOXML `Application`).
    pub created_by: Option<String>,
    /// PDF `Producer`: often the converter, which tells scanned from born-digital files.
    pub producer: Option<String>,
    /// OOXML `Company`: a fair guess at the author's institution.
    pub company: Option<String>,
    /// ISO 8601 where the source date could be read.
    pub created: Option<String>,
    pub modified: Option<String>,
    /// Year of `created`, the report year a reader expects when nothing better is known.
    pub year: Option<i32>,
}

/// What a caller knows about a file besides its bytes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Input {
    pub path: PathBuf,
    /// Original name of the upload; used for metadata and to tell Markdown from plain text.
    pub file_name: Option<String>,
    /// The mime type the uploader declared; a hint only, the bytes decide.
    pub declared_mime: Option<String>,
}

impl Input {
    pub fn path(path: impl Into<PathBuf>) -> Self {
        let path = path.into();
        let file_name = path.file_name().map(|n| n.to_string_lossy().into_owned());
        Input { path, file_name, declared_mime: None }
    }
}

/// Why a document could not be extracted. Messages are for the person who uploaded the file.
#[derive(Debug, Clone, PartialEq, thiserror::Error, Serialize, Deserialize)]
#[serde(tag = "kind", content = "detail", rename_all = "snake_case")]
pub enum ExtractError {
    #[error("unsupported file type: {0}")]
    Unsupported(String),
    #[error("{0}")]
    Encrypted(String),
    #[error("the file is too large to extract: {0}")]
    TooLarge(String),
    #[error("extraction took longer than {seconds} s and was stopped")]
    TimedOut { seconds: u64 },
    #[error("extraction needed more than {limit_mib} MiB of memory and was stopped")]
    OutOfMemory { limit_mib: u64 },
    #[error("the file could not be read: {0}")]
    Corrupt(String),
    #[error("the extractor crashed on this file: {0}")]
    Crashed(String),
    /// The worker could not be started or spoke nonsense: an operator problem, not the file's.
    #[error("the extraction worker failed: {0}")]
    Worker(String),
}

impl ExtractError {
    /// A stable machine code for the API's `{code, message}` body.
    pub fn code(&self) -> &'static str {
        match self {
            ExtractError::Unsupported(_) => "unsupported",
            ExtractError::Encrypted(_) => "encrypted",
            ExtractError::TooLarge(_) => "too_large",
            ExtractError::TimedOut { .. } => "timed_out",
            ExtractError::OutOfMemory { .. } => "out_of_memory",
            ExtractError::Corrupt(_) => "corrupt",
            ExtractError::Crashed(_) => "crashed",
            ExtractError::Worker(_) => "worker",
        }
    }
}
