//! Reading a generated answer as it streams: server-sent-event lines out of byte chunks, citation
//! marks out of text that may split them anywhere (`[1`, `2]`), and sentences as they complete
//! with the citations that follow them. All incremental and pure, so each is tested alone.

use std::collections::VecDeque;

use crate::text::{self, MARKER};

/// Splits a byte stream into lines, whatever the chunking (a UTF-8 character or a `\r\n` may be
/// cut between two chunks).
#[derive(Debug, Default)]
pub struct Lines {
    buf: Vec<u8>,
}

impl Lines {
    /// The lines completed by `bytes`, without their line ends. A line that is not UTF-8 is an
    /// error.
    pub fn push(&mut self, bytes: &[u8]) -> Result<Vec<String>, String> {
        self.buf.extend_from_slice(bytes);
        let mut out = Vec::new();
        while let Some(at) = self.buf.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.buf.drain(..=at).collect();
            out.push(decode(&line[..line.len() - 1])?);
        }
        Ok(out)
    }

    /// The last line, if the stream did not end with a line end.
    pub fn finish(&mut self) -> Result<Option<String>, String> {
        if self.buf.is_empty() {
            return Ok(None);
        }
        let rest = std::mem::take(&mut self.buf);
        decode(&rest).map(Some)
    }
}

fn decode(line: &[u8]) -> Result<String, String> {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    String::from_utf8(line.to_vec()).map_err(|_| "a line of the stream is not UTF-8".to_string())
}

/// A piece of generated text: plain text or a citation mark's numbers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Piece {
    Text(String),
    Cite(Vec<u32>),
}

/// Finds citation marks in streamed text: `[1]`, `[1, 2]`, `[1-3]`, `[[1]]`, however the text is
/// cut into chunks. Anything bracketed that is not a citation (`[see note]`, a markdown link)
/// stays text.
#[derive(Debug, Default)]
pub struct Citations {
    capture: String,
}

/// A mark longer than this is no citation.
const LONGEST_MARK: usize = 32;
/// Highest number and widest range read in a mark: beyond, it is not a citation.
const HIGHEST: u32 = 10_000;
const WIDEST_RANGE: u32 = 20;

enum Mark {
    Open,
    Complete(Vec<u32>),
    Invalid,
}

impl Citations {
    pub fn push(&mut self, text: &str) -> Vec<Piece> {
        let mut out = Vec::new();
        let mut plain = String::new();
        for c in text.chars() {
            self.step(c, &mut plain, &mut out);
        }
        if !plain.is_empty() {
            out.push(Piece::Text(plain));
        }
        out
    }

    /// What is left at the end of the stream: an unfinished mark is text.
    pub fn finish(&mut self) -> Vec<Piece> {
        if self.capture.is_empty() {
            vec![]
        } else {
            vec![Piece::Text(std::mem::take(&mut self.capture))]
        }
    }

    fn step(&mut self, c: char, plain: &mut String, out: &mut Vec<Piece>) {
        if self.capture.is_empty() {
            if c == '[' {
                if !plain.is_empty() {
                    out.push(Piece::Text(std::mem::take(plain)));
                }
                self.capture.push(c);
            } else {
                plain.push(c);
            }
            return;
        }
        self.capture.push(c);
        match read_mark(&self.capture) {
            Mark::Open => {}
            Mark::Complete(numbers) => {
                self.capture.clear();
                out.push(Piece::Cite(numbers));
            }
            Mark::Invalid => {
                let mut text = std::mem::take(&mut self.capture);
                text.pop();
                plain.push_str(&text);
                self.step(c, plain, out);
            }
        }
    }
}

/// Reads a mark that starts with `[`: still open, complete with its numbers, or no mark.
fn read_mark(mark: &str) -> Mark {
    if mark.len() > LONGEST_MARK {
        return Mark::Invalid;
    }
    let opening = mark.chars().take_while(|&c| c == '[').count();
    if opening > 2 {
        return Mark::Invalid;
    }
    let rest = &mark[opening..];
    let body_len = rest.find(']').unwrap_or(rest.len());
    let (body, closing) = rest.split_at(body_len);
    if !body.chars().all(|c| c.is_ascii_digit() || matches!(c, ',' | ' ' | '-' | '\u{2013}')) {
        return Mark::Invalid;
    }
    if !closing.chars().all(|c| c == ']') {
        return Mark::Invalid;
    }
    let closed = closing.chars().count();
    if closed == 0 {
        return Mark::Open;
    }
    if closed > opening {
        return Mark::Invalid;
    }
    match numbers(body) {
        None => Mark::Invalid,
        // `[[1]` waits for its second bracket.
        Some(_) if closed < opening => Mark::Open,
        Some(numbers) => Mark::Complete(numbers),
    }
}

fn numbers(body: &str) -> Option<Vec<u32>> {
    let mut out = Vec::new();
    for part in body.split(',') {
        let part = part.trim();
        if let Some((a, b)) = part.split_once(['-', '\u{2013}']) {
            let (a, b): (u32, u32) = (a.trim().parse().ok()?, b.trim().parse().ok()?);
            if a > b || b - a > WIDEST_RANGE || b > HIGHEST {
                return None;
            }
            out.extend(a..=b);
        } else {
            let n: u32 = part.parse().ok()?;
            if n > HIGHEST {
                return None;
            }
            out.push(n);
        }
    }
    (!out.is_empty()).then_some(out)
}

/// A sentence of a generated answer as it completed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cut {
    /// The sentence, without its markdown line marker (`- `, `1. `, `## `) or emphasis.
    pub text: String,
    pub citations: Vec<u32>,
    /// A markdown heading: structure, not a claim.
    pub heading: bool,
}

/// Cuts generated text into sentences as it streams, each with the citations inside it or
/// right after its full stop. A sentence is settled once the next one has begun (or the stream
/// ended), since citations may still follow its full stop.
#[derive(Debug, Default)]
pub struct Sentences {
    /// Text from the start of the line the next sentence is on: where a line starts decides what
    /// a stop means ("2." opening a line numbers it), so that start is kept, however the text
    /// arrived.
    buf: String,
    /// Bytes at the start of `buf` already cut into sentences.
    emitted: usize,
    groups: VecDeque<Vec<u32>>,
}

impl Sentences {
    pub fn text(&mut self, text: &str) -> Vec<Cut> {
        self.buf.push_str(&text.replace(MARKER, ""));
        self.drain(false)
    }

    pub fn cite(&mut self, numbers: Vec<u32>) -> Vec<Cut> {
        self.buf.push(MARKER);
        self.groups.push_back(numbers);
        self.drain(false)
    }

    pub fn finish(&mut self) -> Vec<Cut> {
        self.drain(true)
    }

    fn drain(&mut self, last: bool) -> Vec<Cut> {
        let emitted = self.emitted;
        let ranges: Vec<_> = text::sentences(&self.buf, true)
            .into_iter()
            .filter(|r| r.end > emitted)
            .map(|r| r.start.max(emitted)..r.end)
            .collect();
        let settled = if last { ranges.len() } else { ranges.len().saturating_sub(1) };
        if settled == 0 {
            return vec![];
        }
        let cut_at = if settled < ranges.len() { ranges[settled].start } else { self.buf.len() };
        let mut out = Vec::new();
        for range in &ranges[..settled] {
            let raw = &self.buf[range.clone()];
            let mut citations: Vec<u32> = Vec::new();
            for _ in raw.chars().filter(|&c| c == MARKER) {
                for n in self.groups.pop_front().unwrap_or_default() {
                    if !citations.contains(&n) {
                        citations.push(n);
                    }
                }
            }
            let (text, heading) = plain(&without_marks(raw));
            if text.chars().any(char::is_alphanumeric) {
                out.push(Cut { text, citations, heading });
            }
        }
        let line_start = self.buf[..cut_at].rfind('\n').map_or(0, |i| i + 1);
        self.buf.drain(..line_start);
        self.emitted = cut_at - line_start;
        out
    }
}

/// The text without its citation marks, and without the space before each ("costs [1]." reads
/// "costs.").
fn without_marks(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    for c in raw.chars() {
        if c == MARKER {
            out.truncate(out.trim_end().len());
        } else {
            out.push(c);
        }
    }
    out
}

/// A sentence without its markdown: the line marker, emphasis, and whether it was a heading.
fn plain(raw: &str) -> (String, bool) {
    let mut s = raw.trim();
    let heading = s.starts_with('#');
    s = s.trim_start_matches('#').trim_start();
    for marker in ["- ", "* ", "+ ", "> ", "\u{2022} "] {
        if let Some(rest) = s.strip_prefix(marker) {
            s = rest;
        }
    }
    let digits = s.chars().take_while(char::is_ascii_digit).count();
    if digits > 0 && s[digits..].starts_with(". ") {
        s = &s[digits + 2..];
    }
    (text::normalize(&s.replace("**", "").replace("__", "")), heading)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn feed(chunks: &[&str]) -> Vec<Piece> {
        let mut c = Citations::default();
        let mut out: Vec<Piece> = chunks.iter().flat_map(|t| c.push(t)).collect();
        out.extend(c.finish());
        // Adjacent text pieces are one text.
        let mut merged: Vec<Piece> = Vec::new();
        for p in out {
            match (merged.last_mut(), p) {
                (Some(Piece::Text(a)), Piece::Text(b)) => a.push_str(&b),
                (_, p) => merged.push(p),
            }
        }
        merged
    }

    fn t(s: &str) -> Piece {
        Piece::Text(s.into())
    }

    #[test]
    fn citations_are_read_in_every_written_form_and_across_chunks() {
        assert_eq!(feed(&["Rose [1]."]), vec![t("Rose "), Piece::Cite(vec![1]), t(".")]);
        assert_eq!(feed(&["Rose [1, ", "2]"]), vec![t("Rose "), Piece::Cite(vec![1, 2])]);
        assert_eq!(feed(&["Rose [", "[3", "]]"]), vec![t("Rose "), Piece::Cite(vec![3])]);
        assert_eq!(feed(&["[2-4]"]), vec![Piece::Cite(vec![2, 3, 4])]);
        assert_eq!(feed(&["[1][2]"]), vec![Piece::Cite(vec![1]), Piece::Cite(vec![2])]);
    }

    #[test]
    fn brackets_that_are_no_citation_stay_text() {
        assert_eq!(feed(&["see [note] and [link](http://x)"]), vec![t("see [note] and [link](http://x)")]);
        assert_eq!(feed(&["a [1"]), vec![t("a [1")], "an unfinished mark at the end is text");
        assert_eq!(feed(&["x [see [1]"]), vec![t("x [see "), Piece::Cite(vec![1])]);
    }

    #[test]
    fn lines_survive_any_chunking() {
        let mut lines = Lines::default();
        let mut got = lines.push(b"data: {\"a\":\"caf\xc3").unwrap();
        got.extend(lines.push(b"\xa9\"}\r").unwrap());
        got.extend(lines.push(b"\n\ndata: [DONE]").unwrap());
        got.extend(lines.finish().unwrap());
        assert_eq!(got, vec!["data: {\"a\":\"caf\u{e9}\"}", "", "data: [DONE]"]);
    }

    #[test]
    fn sentences_settle_with_the_citations_after_their_stop() {
        let mut s = Sentences::default();
        let mut got = s.text("## Findings\n- Revenue rose 12%.");
        got.extend(s.cite(vec![1]));
        got.extend(s.text(" Margins "));
        got.extend(s.cite(vec![2]));
        got.extend(s.text(" held."));
        got.extend(s.finish());
        let cut = |text: &str, citations: Vec<u32>, heading| Cut { text: text.into(), citations, heading };
        assert_eq!(
            got,
            vec![
                cut("Findings", vec![], true),
                cut("Revenue rose 12%.", vec![1], false),
                cut("Margins held.", vec![2], false)
            ]
        );
    }
}
