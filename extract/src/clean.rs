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

/// Returns a document property (author, title, subject, keywords, ...) as worth showing, or
/// `None` when it says nothing: empty, a placeholder ("unknown", "untitled"), or a Perl reference
/// printed by mistake (`ARRAY(0x2c7cf020)`), which some PDF producers write for lists.
pub fn metadata_value(raw: &str) -> Option<String> {
    let value = drop_replacements(&clean_text(raw)).trim().to_string();
    let lower = value.to_lowercase();
    let placeholder = matches!(
        lower.as_str(),
        "" | "unknown"
            | "untitled"
            | "none"
            | "null"
            | "undefined"
            | "n/a"
            | "na"
            | "-"
            | "anonymous"
            | "author"
            | "title"
    );
    if placeholder || is_perl_reference(&value) {
        return None;
    }
    Some(value)
}

/// [`metadata_value`] for a title, which office converters also prefix with their own name
/// ("Microsoft Word - Annual Report.docx"): the prefix and the file extension go, the name stays.
pub fn title_value(raw: &str) -> Option<String> {
    let value = metadata_value(raw)?;
    const CONVERTERS: &[&str] = &["Microsoft Word - ", "Microsoft PowerPoint - ", "Microsoft Excel - "];
    match CONVERTERS.iter().find_map(|prefix| value.strip_prefix(prefix)) {
        Some(rest) => metadata_value(strip_extension(rest)),
        None => Some(value),
    }
}

/// `ARRAY(0x55d0c8a3e2a8)`, `HASH(0x...)` and the like: what Perl prints for a reference.
fn is_perl_reference(value: &str) -> bool {
    let Some((kind, rest)) = value.split_once("(0x") else { return false };
    let Some(address) = rest.strip_suffix(')') else { return false };
    matches!(kind, "ARRAY" | "HASH" | "SCALAR" | "CODE" | "REF" | "GLOB")
        && !address.is_empty()
        && address.chars().all(|c| c.is_ascii_hexdigit())
}

/// Drops a short trailing extension of letters and digits ("report.docx" → "report").
fn strip_extension(name: &str) -> &str {
    match name.rsplit_once('.') {
        Some((stem, ext))
            if !stem.trim().is_empty()
                && (1..=5).contains(&ext.len())
                && ext.chars().all(|c| c.is_ascii_alphanumeric())
                && ext.chars().any(|c| c.is_ascii_alphabetic()) =>
        {
            stem
        }
        _ => name,
    }
}

/// A title made from an uploaded file's name, for documents that carry none: the extension
/// dropped, percent-escapes decoded where they are valid UTF-8, underscores and runs of spaces
/// read as one space ("Annual_Report%202024.pdf" → "Annual Report 2024"). Falls back to the name
/// as given when nothing would be left.
pub fn title_from_file_name(file_name: &str) -> String {
    let decoded = percent_decode(strip_extension(file_name.trim()));
    let spaced: String = decoded.chars().map(|c| if c == '_' { ' ' } else { c }).collect();
    let title = clean_line(&spaced).trim().to_string();
    if title.is_empty() {
        file_name.to_string()
    } else {
        title
    }
}

/// Tells whether a title was made by a machine rather than written for a reader: an EDGAR
/// accession number ("0000764478-23-000041"), a file name ("aapl-20240928.htm",
/// "d817127d10k"), or a string of codes such as a ticker, a form and a period ("ADBE 10-K FY22",
/// "FORM 10-Q"). A title with a word of six or more letters, or any lower-case word, is a
/// reader's ("Annual Report 2024", "Apple Inc. 10-K").
pub fn is_machine_title(title: &str) -> bool {
    let title = title.trim();
    if title.is_empty() {
        return true;
    }
    let one_token = !title.contains(char::is_whitespace);
    if one_token && (title.contains(|c: char| c.is_ascii_digit()) || title.contains('_')) {
        return true;
    }
    title.split_whitespace().all(|token| {
        let letters: Vec<char> = token.chars().filter(|c| c.is_alphabetic()).collect();
        letters.len() < 6 && letters.iter().all(|c| c.is_uppercase())
    })
}

/// Decodes `%XX` escapes; the name stays as given when the escapes are not valid UTF-8.
fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let (Some(h), Some(l)) = (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8(out).unwrap_or_else(|_| s.to_string())
}

/// Removes U+FFFD, the replacement character a decoder leaves where bytes made no character:
/// it is never the author's text, only noise in search tokens and on screen.
pub fn drop_replacements(text: &str) -> String {
    if !text.contains('\u{FFFD}') {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\u{FFFD}' {
            out.push(c);
            continue;
        }
        // "a \u{FFFD} b" loses the character, not the words' separation, and gains no double space.
        if out.ends_with(' ') && chars.peek() == Some(&' ') {
            chars.next();
        }
    }
    out
}

/// Joins words hyphenated across line ends, in place: when a line ends in a letter and `-` and
/// the next starts with a lowercase letter, the next line's first word moves up to complete the
/// word ("Lan-" + "guages are" → "Languages" + "are"). Moving the word, rather than merging the
/// lines, keeps every line's text a piece of the page's text in order, so each line keeps its
/// own box; a line left empty is for the caller to drop. A hyphen inside a line ("well-known")
/// is never touched.
pub fn join_hyphenated_lines(lines: &mut [String]) {
    for i in 1..lines.len() {
        let (before, after) = lines.split_at_mut(i);
        let (previous, next) = (&mut before[i - 1], &mut after[0]);
        let Some(stem) = previous.strip_suffix('-') else { continue };
        if !stem.chars().next_back().is_some_and(char::is_alphabetic) {
            continue;
        }
        if !next.chars().next().is_some_and(char::is_lowercase) {
            continue;
        }
        let word_end = next.find(char::is_whitespace).unwrap_or(next.len());
        let stem_len = stem.len();
        let word = next[..word_end].to_string();
        previous.truncate(stem_len);
        previous.push_str(&word);
        *next = next[word_end..].trim_start().to_string();
    }
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

    #[test]
    fn placeholder_and_perl_reference_properties_are_dropped() {
        assert_eq!(metadata_value("ARRAY(0x2c7cf020)"), None);
        assert_eq!(metadata_value(" HASH(0x55d0c8a3e2a8) "), None);
        assert_eq!(metadata_value("Unknown"), None);
        assert_eq!(metadata_value("untitled"), None);
        assert_eq!(metadata_value(" \u{FFFD}\t "), None);
        assert_eq!(metadata_value("Acme Research"), Some("Acme Research".into()));
        // A real value that merely mentions a pattern is kept.
        assert_eq!(metadata_value("ARRAY(0xZZ) studies"), Some("ARRAY(0xZZ) studies".into()));
    }

    #[test]
    fn an_office_converter_prefix_leaves_the_documents_own_title() {
        assert_eq!(title_value("Microsoft Word - Annual Report 2019.docx"), Some("Annual Report 2019".into()));
        assert_eq!(title_value("Microsoft Word - Untitled.doc"), None);
        assert_eq!(title_value("Working Paper No. 12"), Some("Working Paper No. 12".into()));
    }

    #[test]
    fn a_file_name_becomes_a_title_with_spaces_and_no_extension() {
        assert_eq!(title_from_file_name("Annual_Report%202024.pdf"), "Annual Report 2024");
        assert_eq!(title_from_file_name("q3  results__final.docx"), "q3 results final");
        assert_eq!(title_from_file_name("notes"), "notes");
        assert_eq!(title_from_file_name("100%.txt"), "100%");
        assert_eq!(title_from_file_name(".pdf"), ".pdf");
    }

    #[test]
    fn replacement_characters_are_dropped_without_doubling_spaces() {
        assert_eq!(drop_replacements("caf\u{FFFD} au lait \u{FFFD} now"), "caf au lait now");
        assert_eq!(drop_replacements("clean"), "clean");
    }

    #[test]
    fn accession_numbers_file_names_and_strings_of_codes_are_machine_titles() {
        for title in ["0000764478-23-000041", "aapl-20240928.htm", "d817127d10k", "ADBE 10-K FY22", "FORM 10-Q", "  "] {
            assert!(is_machine_title(title), "{title:?}");
        }
        for title in ["Annual Report 2024", "Apple Inc. 10-K", "ANNUAL REPORT", "Board minutes", "Q3 results"] {
            assert!(!is_machine_title(title), "{title:?}");
        }
    }

    #[test]
    fn a_word_broken_at_a_line_end_is_joined_and_compounds_are_kept() {
        let mut lines: Vec<String> = ["Programming Lan-", "guages are well-known tools for", "re-", "search"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        join_hyphenated_lines(&mut lines);
        assert_eq!(lines, ["Programming Languages", "are well-known tools for", "research", ""]);
    }

    #[test]
    fn a_hyphen_before_a_capital_a_digit_or_a_space_is_not_a_break() {
        let original = ["North-", "South trade", "pages 10-", "12 and", "see -", "below"];
        let mut lines: Vec<String> = original.iter().map(|s| s.to_string()).collect();
        join_hyphenated_lines(&mut lines);
        assert_eq!(lines, original);
    }
}
