//! Text cleaning and garbage-text detection, shared by every format.
//!
//! Engines emit control characters, odd spaces and zero-width marks that poison search tokens;
//! fonts without a usable character map yield text that is present but meaningless.

/// Returns `raw` with control and invisible characters removed, runs of horizontal whitespace
/// folded to one space (or one tab, where a tab separated cells), line ends trimmed and at most
/// one blank line in a row.
pub fn clean_text(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut blank_lines = 0usize;
    let normalised = raw.replace("\r\n", "\n").replace('\r', "\n");
    for line in normalised.split('\n') {
        let cleaned = clean_line(line);
        if cleaned.is_empty() {
            blank_lines += 1;
            continue;
        }
        if !out.is_empty() {
            out.push('\n');
            if blank_lines > 0 {
                out.push('\n');
            }
        }
        blank_lines = 0;
        out.push_str(&cleaned);
    }
    out
}

fn clean_line(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    // Pending whitespace: None, Some(false) = space, Some(true) = tab.
    let mut pending: Option<bool> = None;
    for c in line.chars() {
        if c == '\t' {
            pending = Some(true);
        } else if c.is_whitespace() {
            pending = Some(pending.unwrap_or(false));
        } else if c.is_control() || is_invisible(c) {
            continue;
        } else {
            if let Some(tab) = pending.take() {
                if !out.is_empty() {
                    out.push(if tab { '\t' } else { ' ' });
                }
            }
            out.push(c);
        }
    }
    out
}

/// Zero-width and formatting characters that carry no text (soft hyphen, BOM, joiners).
fn is_invisible(c: char) -> bool {
    matches!(c, '\u{00AD}' | '\u{200B}'..='\u{200F}' | '\u{2060}'..='\u{2064}' | '\u{FEFF}')
}

/// Tells whether text looks like what a font without a usable character map produces:
/// replacement characters, private-use code points, or too few letters and digits among the
/// visible characters. Short texts are never judged. Meant for PDF pages: elsewhere the text is
/// the author's own, not a font's mapping, and tables of figures would be misjudged.
pub fn looks_garbled(text: &str) -> bool {
    let mut visible = 0usize;
    let mut bad = 0usize;
    let mut alnum = 0usize;
    for c in text.chars() {
        if c.is_whitespace() {
            continue;
        }
        visible += 1;
        if c == '\u{FFFD}' || ('\u{E000}'..='\u{F8FF}').contains(&c) || c.is_control() {
            bad += 1;
        } else if c.is_alphanumeric() {
            alnum += 1;
        }
    }
    if visible < 40 {
        return false;
    }
    let bad_share = bad as f64 / visible as f64;
    let alnum_share = alnum as f64 / visible as f64;
    bad_share > 0.25 || alnum_share < 0.45
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_and_odd_spaces_are_removed() {
        let raw = "Hello\u{0007}\u{00A0}\u{00A0}wor\u{00AD}ld \r\n\r\n\r\n\tnext\u{200B} line  ";
        assert_eq!(clean_text(raw), "Hello world\n\nnext line");
    }

    #[test]
    fn a_tab_between_cells_survives_cleaning() {
        assert_eq!(clean_text("a \t b\tc"), "a\tb\tc");
    }

    #[test]
    fn prose_is_not_garbled_and_symbol_soup_is() {
        let prose = "The quarterly revenue grew by eleven percent, driven by strong demand in Asia.";
        assert!(!looks_garbled(prose));
        let soup = "#$%& '()* +,-./ :;<=> ?@[\\] ^_`{| }~!\" #$%& '()* +,-./ :;<=> ?@[\\] ^_`{|";
        assert!(looks_garbled(soup));
        let pua = "\u{E012}".repeat(50);
        assert!(looks_garbled(&pua));
    }
}
