//! What a document is and who it is about: report type, company name, author institution and
//! industry, read from its title lines and first page.

use regex::Regex;
use std::sync::LazyLock;

/// The fixed vocabulary of report types; anything else gets no `report_type` tag.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ReportType {
    AnnualReport,
    EarningsCallTranscript,
    InvestorPresentation,
    CreditRating,
    ShareholdingPattern,
    ResearchPaper,
    FinancialResults,
    RegulatoryFiling,
}

impl ReportType {
    /// The tag value, as shown on a card.
    pub(super) fn label(self) -> &'static str {
        match self {
            ReportType::AnnualReport => "Annual Report",
            ReportType::EarningsCallTranscript => "Earnings Call Transcript",
            ReportType::InvestorPresentation => "Investor Presentation",
            ReportType::CreditRating => "Credit Rating",
            ReportType::ShareholdingPattern => "Shareholding Pattern",
            ReportType::ResearchPaper => "Research Paper",
            ReportType::FinancialResults => "Financial Results",
            ReportType::RegulatoryFiling => "Regulatory Filing",
        }
    }
}

fn regex(pattern: &str) -> Regex {
    Regex::new(pattern).expect("valid regex")
}

/// An abstract heading on the first page ("Abstract", "ABSTRACT", "Abstract—...").
static ABSTRACT: LazyLock<Regex> =
    LazyLock::new(|| regex(r"(?m)^[ \t]*(?:Abstract|ABSTRACT|A[ \t]B[ \t]S[ \t]T[ \t]R[ \t]A[ \t]C[ \t]T)\b"));

/// A heading that papers put after their abstract.
static PAPER_SECTION: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r"(?m)^[ \t]*(?:Keywords|Key[ \t]?[Ww]ords|KEYWORDS|Index[ \t]+Terms|Categories[ \t]+and[ \t]+Subject[ \t]+Descriptors|(?:1\.?|I\.)?[ \t]*(?:Introduction|INTRODUCTION))\b",
    )
});

/// "Earnings call", "conference call", "analyst call", "concall" in a title line.
static CALL_TITLE: LazyLock<Regex> = LazyLock::new(|| {
    regex(r"(?i)\b(?:(?:earnings|conference|analysts?|investors?)[ \t]+(?:conference[ \t]+)?call|con-?call)\b")
});

static TRANSCRIPT: LazyLock<Regex> = LazyLock::new(|| regex(r"(?i)\btranscript\b"));

/// Words of a letter that announces a call rather than records it.
static CALL_ANNOUNCEMENT: LazyLock<Regex> =
    LazyLock::new(|| regex(r"(?i)\b(?:intimation|schedule[d]?|invitation|invite|will[ \t]+host|to[ \t]+host)\b"));

/// A speaker turn that only transcripts have.
static SPEAKER_TURN: LazyLock<Regex> =
    LazyLock::new(|| regex(r"(?m)^[ \t]*(?:Operator|Moderator|OPERATOR|MODERATOR)[ \t]*:"));

/// How a speaker opens a call: a greeting or thanks for joining.
static GREETING: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r"(?i)\b(?:good[ \t]+(?:morning|afternoon|evening)|thank(?:s|[ \t]+you)\b[^.\n]{0,30}\bjoining|ladies[ \t]+and[ \t]+gentlemen)\b",
    )
});

/// A speaker referring to the call itself: "our call today", "this call", "today's call".
static THIS_CALL: LazyLock<Regex> =
    LazyLock::new(|| regex(r"(?i)\b(?:our|this|today's|the)[ \t]+(?:[a-z]+[ \t]+){0,2}call\b"));

/// How many opening lines a greeting and a reference to the call must fall within.
const OPENING_LINES: usize = 5;

/// Title cues for the remaining types, in order of precedence: a filing that encloses a
/// presentation or a rating is tagged by what it encloses.
static TITLE_CUES: LazyLock<Vec<(ReportType, Regex)>> = LazyLock::new(|| {
    vec![
        (
            ReportType::InvestorPresentation,
            regex(r"(?i)\b(?:investors?|earnings|analysts?)[ \t]+(?:presentation|deck)\b"),
        ),
        (ReportType::CreditRating, regex(r"(?i)\b(?:rating[ \t]+rationale|credit[ \t]+ratings?)\b")),
        (ReportType::ShareholdingPattern, regex(r"(?i)\bshare[ \t]*holding[ \t]+pattern\b")),
        (ReportType::AnnualReport, regex(r"(?i)\b(?:annual[ \t]+report|integrated[ \t]+(?:annual[ \t]+)?report)\b")),
        (
            ReportType::FinancialResults,
            regex(
                r"(?i)\b(?:financial[ \t]+results|(?:audited|unaudited)[ \t]+(?:[a-z]+[ \t]+){0,3}results|quarterly[ \t]+results|results[ \t]+for[ \t]+the[ \t]+(?:quarter|year|half)|reports?[ \t]+(?:first|second|third|fourth)[ \t]+quarter)\b",
            ),
        ),
        (
            ReportType::RegulatoryFiling,
            regex(
                r"(?i)\b(?:regulation[ \t]+\d+|listing[ \t]+obligations|SEBI|form[ \t]+(?:10-K|10-Q|8-K|20-F|6-K|40-F)|securities[ \t]+and[ \t]+exchange[ \t]+commission|scrip[ \t]+code)\b",
            ),
        ),
    ]
});

/// Returns the type of the document from strong cues only: a paper's abstract and section
/// headings, a transcript's speaker turns or opening, or the words of a title line.
pub(super) fn report_type(title_lines: &[&str], head: &str, window: &str) -> Option<ReportType> {
    if is_research_paper(head, window) {
        return Some(ReportType::ResearchPaper);
    }
    if is_call_transcript(title_lines, head, window) {
        return Some(ReportType::EarningsCallTranscript);
    }
    TITLE_CUES.iter().find(|(_, cue)| title_lines.iter().any(|line| cue.is_match(line))).map(|(kind, _)| *kind)
}

/// An abstract heading near the top and a keywords or introduction heading after it.
fn is_research_paper(head: &str, window: &str) -> bool {
    abstract_at(head).is_some() && PAPER_SECTION.is_match(window)
}

/// How many non-empty lines may stand above a paper's abstract (title, authors, affiliations).
const LINES_ABOVE_ABSTRACT: usize = 40;

/// Where the abstract heading starts, if it is near the top: further down, a page that opens
/// with something else (a table, a letter) quotes or bundles a paper but is not one.
fn abstract_at(head: &str) -> Option<usize> {
    let at = ABSTRACT.find(head)?.start();
    let lines_above = head[..at].lines().filter(|l| !l.trim().is_empty()).count();
    (lines_above <= LINES_ABOVE_ABSTRACT).then_some(at)
}

/// A transcript names itself, or has speaker turns, or opens like a call; a title that names a
/// call in a letter announcing it does not count.
fn is_call_transcript(title_lines: &[&str], head: &str, window: &str) -> bool {
    let titled = title_lines.iter().any(|l| CALL_TITLE.is_match(l));
    let named = title_lines.iter().any(|l| TRANSCRIPT.is_match(l));
    let opening: Vec<&str> = head.lines().filter(|l| !l.trim().is_empty()).take(OPENING_LINES).collect();
    let opens_a_call = opening.iter().any(|l| GREETING.is_match(l)) && opening.iter().any(|l| THIS_CALL.is_match(l));
    (titled && (named || !CALL_ANNOUNCEMENT.is_match(head))) || SPEAKER_TURN.is_match(window) || opens_a_call
}

/// A run of capitalised words (with "of", "and", "&", "the" between them) ending in a legal
/// form. The run starts at the first capitalised word, so leading words such as "Outcome of
/// Board Meeting of" are cut off afterwards by [`trim_lead`].
static COMPANY: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r"\b(?P<name>[A-Z][A-Za-z0-9&'’.\-]*(?:[ \t]+(?:[A-Z][A-Za-z0-9&'’.\-]*|of|and|&|the|\((?:India|I)\)))*?),?[ \t]+(?P<form>Limited|LIMITED|Ltd\.?|LTD\.?|Inc\.?|INC\.?|Incorporated|Corporation|CORPORATION|Corp\.|CORP\.|plc|PLC|LLC|LLP)(?:[^A-Za-z0-9]|$)",
    )
});

/// Words that start a sentence, a letter or a heading, never a company's name; the name begins
/// after the last of them.
const LEAD_WORDS: &[&str] = &[
    "sub",
    "subject",
    "re",
    "to",
    "for",
    "dear",
    "outcome",
    "meeting",
    "intimation",
    "disclosure",
    "submission",
    "transcript",
    "presentation",
    "report",
    "results",
    "call",
    "conference",
    "notice",
    "statement",
    "update",
    "regulation",
    "regulations",
    "board",
    "directors",
    "from",
    "by",
    "with",
    "on",
    "at",
    "in",
    "m/s",
    "m/s.",
    "welcome",
    "ladies",
    "gentlemen",
];

/// Exchanges, depositories, regulators, rating agencies and registrars: named on the first page
/// of filings (as addressee, venue, agency), and never the company the filing is about.
const MARKET_BODIES: &[&str] = &[
    "bse",
    "nasdaq stock market",
    "new york stock exchange",
    "national stock exchange of india",
    "metropolitan stock exchange of india",
    "national securities depository",
    "central depository services (india)",
    "securities and exchange board of india",
    "crisil",
    "crisil ratings",
    "icra",
    "care ratings",
    "india ratings and research",
    "brickwork ratings india",
    "acuite ratings & research",
    "link intime india",
    "link intime india private",
    "kfin technologies",
];

/// Returns the company the first page is about: among the names with a legal form on the page,
/// the one the text mentions most, or at equal mentions the one that stands alone on its line.
/// Nothing is returned when two names are equally strong, or when the best one is mentioned
/// once in passing.
pub(super) fn company_name(head: &str, window: &str) -> Option<String> {
    let window = window.to_lowercase();
    let mut candidates: Vec<Candidate> = Vec::new();
    for caps in COMPANY.captures_iter(head) {
        let (Some(name), Some(form)) = (caps.name("name"), caps.name("form")) else {
            continue;
        };
        let Some(lead) = trim_lead(name.as_str()) else {
            continue;
        };
        let start = name.start() + lead;
        let lower = head[start..name.end()].to_lowercase();
        let key = lower.strip_prefix("the ").unwrap_or(&lower).to_string();
        if is_market_body(&key) || candidates.iter().any(|c| c.key == key) {
            continue;
        }
        candidates.push(Candidate {
            mentions: window.matches(key.as_str()).count(),
            alone: stands_alone(head, start, form.end()),
            full: head[start..form.end()].to_string(),
            key,
        });
    }
    best_company(candidates)
}

/// Tells whether `key` is a market body, also when words run into its name ("AAPL The Nasdaq
/// Stock Market" in a table row).
fn is_market_body(key: &str) -> bool {
    MARKET_BODIES.iter().any(|body| key == *body || key.strip_suffix(body).is_some_and(|s| s.ends_with(' ')))
}

struct Candidate {
    /// The name in lower case without a leading "the" or its legal form: "The XYZ Ltd." and
    /// "XYZ LIMITED" are the same company.
    key: String,
    /// The name as first printed, with its legal form.
    full: String,
    mentions: usize,
    /// On a line of its own or after a label (see [`stands_alone`]).
    alone: bool,
}

fn best_company(mut candidates: Vec<Candidate>) -> Option<String> {
    let strength = |c: &Candidate| (c.mentions, c.alone);
    // Stable: among equals the earliest on the page comes first.
    candidates.sort_by_key(|c| std::cmp::Reverse(strength(c)));
    let best = candidates.first()?;
    let tied = candidates.get(1).is_some_and(|c| strength(c) == strength(best));
    let clear = !tied && (best.mentions >= 2 || best.alone);
    clear.then(|| best.full.clone())
}

/// The byte offset in `name` where the company's own name starts, after any leading words of
/// a sentence or letter; `None` when nothing is left.
fn trim_lead(name: &str) -> Option<usize> {
    let words: Vec<(usize, &str)> =
        name.split_whitespace().map(|w| (w.as_ptr() as usize - name.as_ptr() as usize, w)).collect();
    let after_lead =
        words.iter().rposition(|(_, w)| LEAD_WORDS.contains(&w.to_lowercase().as_str())).map_or(0, |i| i + 1);
    words[after_lead..]
        .iter()
        .find(|(_, w)| w.starts_with(|c: char| c.is_ascii_uppercase() || c.is_ascii_digit()))
        .map(|(at, _)| *at)
}

/// A label that names the company whose name follows it on the line.
static NAME_LABEL: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r"(?i)^(?:for|m/s\.?|to,?|name[ \t]+of[ \t]+(?:the[ \t]+)?(?:listed[ \t]+)?(?:entity|company|issuer|registrant)|company(?:'s)?[ \t]+name|issuer|registrant)[ \t]*[:\-–]?$",
    )
});

/// Tells whether the name (from `start` to `end` in `text`) fills its line, allowing a label
/// ("For", "M/s.", "Name of the Company:") before it and punctuation after.
fn stands_alone(text: &str, start: usize, end: usize) -> bool {
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[end..].find('\n').map_or(text.len(), |i| end + i);
    let before = text[line_start..start].trim();
    let after = text[end..line_end].trim();
    let before_ok = before.is_empty() || NAME_LABEL.is_match(before);
    let after_ok = after.chars().all(|c| matches!(c, ',' | '.' | ':' | ';'));
    before_ok && after_ok
}

/// An affiliation: "Indiana University", "University of California", "Indian Institute of
/// Management". A capitalised word must come before the keyword, or "of" and a capitalised
/// word after it, so "The Effects of College Education" in a title is not taken.
static INSTITUTION: LazyLock<Regex> = LazyLock::new(|| {
    let keyword = "(?:University|Universität|Université|Universidad|Universidade|Università|\
                   Institute|Institut|Instituto|College|Polytechnic|Laboratory|Laboratories|Academy)";
    regex(&format!(
        r"(?:^|[ \t(])(?:[A-Z][\w.&'’\-]*[ \t]+){{1,4}}{keyword}\b|\b(?:{keyword}|School)[ \t]+(?:of|for|de|di|für|des|do|da)[ \t]+[A-Z]"
    ))
});

/// How many lines from the top an affiliation may stand when there is no abstract heading.
const AFFILIATION_LINES: usize = 30;

/// Returns the first affiliation line above a paper's abstract, without footnote markers. Lines
/// of the title, e-mail and web addresses, and long lines (prose) are passed over.
pub(super) fn author_institution(head: &str, title: Option<&str>) -> Option<String> {
    let above_abstract = abstract_at(head).map_or(head, |at| &head[..at]);
    above_abstract
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .take(AFFILIATION_LINES)
        .filter(|l| l.chars().count() <= 120 && !l.contains('@') && !l.contains("http"))
        .filter(|l| !title.is_some_and(|t| t.contains(*l)))
        .find(|l| INSTITUTION.is_match(l))
        .map(clean_affiliation)
}

fn clean_affiliation(line: &str) -> String {
    let marker = |c: char| c.is_whitespace() || c.is_ascii_digit() || "*∗†‡§¶#$+^,;.¹²³⁴⁵⁶⁷⁸⁹⁰".contains(c);
    line.trim_matches(marker).split_whitespace().collect::<Vec<_>>().join(" ")
}

/// "Industry: Cement" or "Sector - Banking & Financial Services" on a line of its own.
static INDUSTRY: LazyLock<Regex> = LazyLock::new(|| {
    regex(r"(?im)^[ \t]*(?:industry|sector)[ \t]*[:\-–][ \t]*(?P<value>[a-z][a-z&,/()' \-]{0,58}[a-z)])[ \t]*$")
});

/// Returns the industry or sector the text states explicitly, if its value reads as a name (a
/// few words, no figures).
pub(super) fn industry(text: &str) -> Option<String> {
    INDUSTRY
        .captures_iter(text)
        .map(|c| c["value"].split_whitespace().collect::<Vec<_>>().join(" "))
        .find(|value| value.split_whitespace().count() <= 6)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(text: &str) -> Option<&'static str> {
        let lines: Vec<&str> = text.lines().filter(|l| l.len() <= 160).take(25).collect();
        report_type(&lines, text, text).map(ReportType::label)
    }

    #[test]
    fn each_report_type_is_read_from_its_title() {
        let cases = [
            ("Reliance Industries Limited\nIntegrated Annual Report 2023-24", "Annual Report"),
            ("Investor Presentation\nQ1 FY25", "Investor Presentation"),
            ("Rating Rationale\nAugust 12, 2024 | Mumbai\nXYZ Limited", "Credit Rating"),
            ("Shareholding Pattern under Regulation 31", "Shareholding Pattern"),
            (
                "Statement of Unaudited Standalone Financial Results for the quarter ended 30 June 2024",
                "Financial Results",
            ),
            ("Sub: Disclosure under Regulation 30 of SEBI (LODR) Regulations, 2015\nDear Sir,", "Regulatory Filing"),
            ("UNITED STATES\nSECURITIES AND EXCHANGE COMMISSION\nFORM 8-K", "Regulatory Filing"),
        ];
        for (text, expected) in cases {
            assert_eq!(kind(text), Some(expected), "{text}");
        }
    }

    #[test]
    fn a_letter_enclosing_a_presentation_is_a_presentation() {
        let text = "Sub: Investor Presentation under Regulation 30 of SEBI (LODR)\nScrip Code: 500325";
        assert_eq!(kind(text), Some("Investor Presentation"));
    }

    #[test]
    fn a_transcript_is_known_by_its_title_its_speaker_turns_or_its_opening() {
        let titled = "XYZ Limited\nQ1 FY25 Earnings Conference Call\nAugust 12, 2024";
        assert_eq!(kind(titled), Some("Earnings Call Transcript"));
        let turns = "Some header\nModerator: Ladies and gentlemen, good day and welcome.";
        assert_eq!(kind(turns), Some("Earnings Call Transcript"));
        let opening = "Good morning everyone and thanks for joining us\nI want to start our call today";
        assert_eq!(kind(opening), Some("Earnings Call Transcript"));
    }

    #[test]
    fn a_letter_announcing_a_call_is_not_a_transcript() {
        let text = "Sub: Intimation of Earnings Conference Call for Q1 FY25\n\
                    Pursuant to Regulation 30 of SEBI (LODR), the Company will host a call.";
        assert_eq!(kind(text), Some("Regulatory Filing"));
    }

    #[test]
    fn a_paper_needs_an_abstract_and_a_later_section_heading() {
        let paper = "Trace-based JIT\nMozilla Corporation\nAbstract\nWe present...\nKeywords\nJIT";
        assert_eq!(kind(paper), Some("Research Paper"));
        let paper_about_calls = "Earnings Call Tone and Returns\nAbstract\nWe study...\n1. Introduction";
        assert_eq!(kind(paper_about_calls), Some("Research Paper"));
        assert_eq!(kind("Executive summary\nAbstract thinking helps.\nConclusion"), None);
        let bundled = format!("{}Abstract\nWe study...\nKeywords\nPCB", "1975\n105.1\n".repeat(30));
        assert_eq!(kind(&bundled), None, "a table of 60 lines above it: not a paper's abstract");
    }

    #[test]
    fn a_document_without_strong_cues_has_no_type() {
        assert_eq!(kind("Thanks, Inge, and good morning, everyone\nI'll start on slide 7"), None);
        assert_eq!(kind("Notes from the offsite\nWe talked about the annual budget."), None);
    }

    #[test]
    fn the_company_is_the_recurring_name_not_the_exchange_it_writes_to() {
        let letter = "Date: 12 August 2024\nTo,\nBSE Limited\nPhiroze Jeejeebhoy Towers\n\
                      National Stock Exchange of India Limited\nExchange Plaza\n\
                      Sub: Outcome of Board Meeting of Reliance Industries Limited\n\
                      The Board of Reliance Industries Limited approved the results.\n\
                      For Reliance Industries Limited\nCompany Secretary";
        assert_eq!(company_name(letter, letter).as_deref(), Some("Reliance Industries Limited"));
    }

    #[test]
    fn a_name_alone_on_a_cover_line_is_the_company() {
        let cover = "Tata Consultancy Services Ltd.\nIntegrated Annual Report 2023-24";
        assert_eq!(company_name(cover, cover).as_deref(), Some("Tata Consultancy Services Ltd."));
        let press = "NEW YORK, Feb. 9, 2017 /PRNewswire/ -- Twitter, Inc. (NYSE: TWTR) today \
                     announced results. Twitter, Inc. will host a call.";
        assert_eq!(company_name(press, press).as_deref(), Some("Twitter, Inc."));
    }

    #[test]
    fn a_labelled_or_cover_name_beats_a_name_mentioned_once_in_passing() {
        let cover = "FORM 10-Q\nApple Inc.\n(Exact name of Registrant as specified in its charter)\n\
                     Common Stock AAPL The Nasdaq Stock Market LLC";
        assert_eq!(company_name(cover, cover).as_deref(), Some("Apple Inc."));
        let filing = "Shareholding Pattern\nName of Listed Entity: HDFC Bank Limited\n\
                      Registrar: Datamatics Business Solutions Limited, Mumbai";
        assert_eq!(company_name(filing, filing).as_deref(), Some("HDFC Bank Limited"));
    }

    #[test]
    fn mentions_are_counted_whatever_the_case_or_a_leading_the() {
        let transcript = "The Indian Hotels Company Limited\nQ4 FY24 Earnings Conference Call\n\
                          MANAGEMENT: CEO, THE INDIAN HOTELS COMPANY LIMITED\n\
                          Moderator: welcome to the Indian Hotels Company Limited call hosted by \
                          ICICI Securities Limited. ICICI Securities Limited thanks you.";
        assert_eq!(company_name(transcript, transcript).as_deref(), Some("The Indian Hotels Company Limited"));
    }

    #[test]
    fn no_company_is_named_when_two_recur_equally_or_one_is_only_mentioned_in_passing() {
        let merger = "Scheme of amalgamation of Alpha Limited with Beta Limited.\n\
                      Alpha Limited and Beta Limited shall...";
        assert_eq!(company_name(merger, merger), None);
        let passing = "Our supplier, Gamma Industries Limited, delivered late.";
        assert_eq!(company_name(passing, passing), None);
        let verb = "The Board limited the dividend.";
        assert_eq!(company_name(verb, verb), None);
    }

    #[test]
    fn the_affiliation_above_the_abstract_is_the_institution() {
        let head = "Overview of the Technology Acceptance Model\nMohammad Chuttur\n\
                    Indiana University, USA\n\nAbstract\nUser acceptance...\nStanford University";
        assert_eq!(author_institution(head, None).as_deref(), Some("Indiana University, USA"));
        let head = "Andreas Gal∗+, Brendan Eich∗\nMozilla Corporation∗\n{gal}@mozilla.com\n\
                    University of California, Irvine+\nAbstract\n";
        assert_eq!(author_institution(head, None).as_deref(), Some("University of California, Irvine"));
    }

    #[test]
    fn a_title_that_mentions_a_college_is_not_an_affiliation() {
        let head = "The Effects of College Education on Earnings\nJane Doe\nAbstract\n";
        assert_eq!(author_institution(head, None), None);
        let head = "Harvard University Press Releases\nJane Doe\nAbstract\n";
        let title = Some("Harvard University Press Releases");
        assert_eq!(author_institution(head, title), None);
    }

    #[test]
    fn an_explicit_industry_or_sector_line_is_read_and_others_are_not() {
        assert_eq!(industry("Company: XYZ\nIndustry: Cement\n").as_deref(), Some("Cement"));
        assert_eq!(industry("SECTOR - Banking & Financial Services").as_deref(), Some("Banking & Financial Services"));
        assert_eq!(industry("The industry: a sector in decline since 2019"), None);
        assert_eq!(industry("Sector\tIndustry\tCompany"), None);
        assert_eq!(industry("Industry: 2"), None);
    }
}
