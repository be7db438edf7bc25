//! The answer as the spec's DONE event carries it, and the events that stream before it.

use serde::Serialize;

use crate::compute::Computation;
use crate::retrieve::RetrievedPassage;

/// The spec's text under an answer of weak evidence (badge 'Low').
pub const LOW_QUALITY_MESSAGE: &str =
    "We found that the answer may not be satisfactory. Please verify the information or rephrase your question.";
/// The spec's text under an answer not borne out by its sources.
pub const GENERATIVE_MESSAGE: &str =
    "This seems to be a generative response. If you were expecting facts, please rephrase or clarify in a follow-up.";

/// What an answer engine sends while it works. The API turns these into the spec's stream
/// statuses: `Step` → INTERMEDIATE_STEP, `Chunk` → GENERATED_ANSWER, `Done` → DONE.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "type", content = "data", rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Event {
    /// A step of the work, for the progress list ("Searching 3 sources").
    Step(String),
    /// The next piece of the answer's markdown, citations already as `[n]`.
    Chunk(String),
    /// The finished answer.
    Done(Box<Answer>),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum AnswerType {
    /// A generated answer with citations.
    Answer,
    /// Search mode: results only, no generated text.
    Search,
}

/// How far the answer can be trusted, as the spec labels it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum AnswerQuality {
    /// Every sentence is borne out by the passages it cites, and they cover the question.
    High,
    /// The retrieved evidence covers the question poorly.
    Low,
    /// Some sentence is not borne out by what it cites, or nothing is cited.
    Generative,
}

impl AnswerQuality {
    /// The spec's text shown under an answer of this quality, if any.
    pub fn message(self) -> Option<&'static str> {
        match self {
            AnswerQuality::High => None,
            AnswerQuality::Low => Some(LOW_QUALITY_MESSAGE),
            AnswerQuality::Generative => Some(GENERATIVE_MESSAGE),
        }
    }
}

/// One sentence of an answer and the passages (by number) it cites.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AnswerSentence {
    pub sentence: String,
    pub citations: Vec<u32>,
    /// Set on a sentence that states a value the engine computed rather than quoted: the
    /// operation, each input as its cited passage writes it, and the result. Such a sentence is
    /// checked by recomputing it from its inputs ([`Computation::holds`]), not by its words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub computed: Option<Computation>,
}

impl AnswerSentence {
    /// A sentence quoted or written from its cited passages.
    pub fn quoted(sentence: impl Into<String>, citations: Vec<u32>) -> AnswerSentence {
        AnswerSentence { sentence: sentence.into(), citations, computed: None }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GeneratedAnswer {
    /// The answer as markdown, citations written `[n]`.
    pub answer: String,
    pub sentences: Vec<AnswerSentence>,
    /// Citations a model wrote to sources there are not, dropped as the answer streamed. Not
    /// sent: reports count them against the model's citation precision.
    #[serde(skip)]
    pub unknown_citations: usize,
}

/// The finished answer: everything the spec's DONE event carries except `message_id` and
/// `session_id`, which the API assigns when it records the turn.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Answer {
    pub answer_type: AnswerType,
    pub generated_answer: GeneratedAnswer,
    /// The numbered sources, `retrieved_results[n - 1]` being source `[n]`.
    pub retrieved_results: Vec<Citation>,
    pub followup_questions: Vec<String>,
    pub answer_quality: AnswerQuality,
    /// The spec's text for `answer_quality`, when it has one.
    pub answer_quality_message: Option<String>,
    pub pro: bool,
}

/// A point of a highlight's outline, in the page's units (PDF points).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Point {
    pub x: f32,
    pub y: f32,
}

/// Where a cited passage sits on its page. `coordinates` are the corners of the box around the
/// passage's lines, clockwise from top left; `lines` the line boxes themselves.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DocumentHighlight {
    pub page_number: u32,
    pub coordinates: Vec<Point>,
    /// The page's width and height, which the spec divides by to get a relative box. The index
    /// does not keep page sizes: `None` until the API fills them from the document's layout.
    pub width: Option<f32>,
    pub height: Option<f32>,
    pub lines: Vec<[f32; 4]>,
}

/// A numbered source of an answer, with the spec's citation fields.
///
/// Filled from retrieval: `id`, `document_id`, `source`, `category_tab`, `document_highlight`,
/// `title_label`, `source_label` (the source id until the API puts its display name),
/// `unix`, `highlight_indexes`, `context`. Left for the API, which alone knows them:
/// `access_key` (the user's key to the document), `channel_id` (the channel a question came
/// from), `mime_type` (from the document's metadata), `url` (the original link) and
/// `needl_document_link` (the preview path).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Citation {
    pub id: u32,
    pub document_id: String,
    pub access_key: Option<String>,
    pub source: String,
    pub category_tab: String,
    pub channel_id: Option<String>,
    pub mime_type: Option<String>,
    /// Page and box of the passage for documents with a layout (PDFs); page only otherwise.
    pub document_highlight: Option<DocumentHighlight>,
    pub url: Option<String>,
    pub needl_document_link: Option<String>,
    pub title_label: String,
    pub source_label: String,
    pub unix: Option<i64>,
    /// Whether only the passage's text can be shown (no original to open). Set by the API.
    pub content_only: bool,
    /// Start and end character pairs inside `context`: the cited sentences, or the question's
    /// words when no sentence of the passage was used.
    pub highlight_indexes: Vec<(u32, u32)>,
    /// The passage's text.
    pub context: String,
    /// Character range of the passage in its page, for scrolling a text preview to it.
    pub page_range: (u32, u32),
}

impl Citation {
    /// The citation of a retrieved passage, highlighting `spans` (the question's words if none).
    pub fn of(passage: &RetrievedPassage, spans: Vec<(u32, u32)>) -> Citation {
        let document_highlight = Some(DocumentHighlight {
            page_number: passage.page,
            coordinates: outline(&passage.boxes),
            width: None,
            height: None,
            lines: passage.boxes.clone(),
        });
        Citation {
            id: passage.number,
            document_id: passage.deeplink.clone(),
            access_key: None,
            source: passage.source_id.clone(),
            category_tab: passage.category.clone(),
            channel_id: None,
            mime_type: None,
            document_highlight,
            url: None,
            needl_document_link: None,
            title_label: passage.title.clone(),
            source_label: passage.source_id.clone(),
            unix: passage.published,
            content_only: false,
            highlight_indexes: if spans.is_empty() { passage.marks.clone() } else { spans },
            context: passage.text.clone(),
            page_range: (passage.start, passage.end),
        }
    }
}

/// The corners of the box around every line, clockwise from top left; none without lines.
fn outline(boxes: &[[f32; 4]]) -> Vec<Point> {
    if boxes.is_empty() {
        return vec![];
    }
    let x0 = boxes.iter().map(|b| b[0]).fold(f32::INFINITY, f32::min);
    let y0 = boxes.iter().map(|b| b[1]).fold(f32::INFINITY, f32::min);
    let x1 = boxes.iter().map(|b| b[2]).fold(f32::NEG_INFINITY, f32::max);
    let y1 = boxes.iter().map(|b| b[3]).fold(f32::NEG_INFINITY, f32::max);
    vec![Point { x: x0, y: y0 }, Point { x: x1, y: y0 }, Point { x: x1, y: y1 }, Point { x: x0, y: y1 }]
}
