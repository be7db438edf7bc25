//! SEC filings: the form a report is filed on, read from its cover page.
//!
//! A filing's cover is printed the same way by every filer: "UNITED STATES / SECURITIES AND
//! EXCHANGE COMMISSION / Washington, D.C. 20549 / FORM 10-K", then the period, the registrant's
//! exact name and its identifiers. The form is read only from a line that holds the form and
//! nothing else, on a first page that names the Commission, so a letter that mentions "our Form
//! 10-K" is not taken for one.

use regex::Regex;
use std::sync::LazyLock;

/// The forms a line may name: periodic and current reports of domestic and foreign issuers,
/// registration statements and proxy statements, each optionally amended ("/A").
static FORM_LINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?im)^[ \t]*form[ \t]+(?P<form>10-KT?|10-QT?|8-K|20-F|40-F|6-K|11-K|S-1|S-3|S-4|S-8|F-1|F-3|F-4|DEF[ \t]*14A|DEFA14A|N-CSR)(?P<amended>[ \t]*/[ \t]*A)?[ \t]*$",
    )
    .expect("valid regex")
});

static COMMISSION: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i)\bsecurities[ \t\n]+and[ \t\n]+exchange[ \t\n]+commission\b").expect("valid regex"));

/// Returns the form the cover names ("10-K", "10-Q/A", "DEF 14A"), upper case with single
/// spaces, when the first page names the Commission and has a line that is only "FORM ...".
pub(super) fn sec_form(head: &str) -> Option<String> {
    if !COMMISSION.is_match(head) {
        return None;
    }
    let c = FORM_LINE.captures(head)?;
    let form = c["form"].to_uppercase();
    let form = if let Some(rest) = form.strip_prefix("DEF").filter(|r| r.trim_start().starts_with("14A")) {
        format!("DEF {}", rest.trim_start())
    } else {
        form
    };
    Some(if c.name("amended").is_some() { format!("{form}/A") } else { form })
}

/// Tells whether a form is an annual report (its period is a fiscal year).
pub(super) fn is_annual(form: &str) -> bool {
    matches!(form.trim_end_matches("/A"), "10-K" | "10-KT" | "20-F" | "40-F" | "11-K" | "N-CSR")
}

/// Tells whether a form reports an event on a date (its period is the date of the report).
pub(super) fn is_current_report(form: &str) -> bool {
    matches!(form.trim_end_matches("/A"), "8-K" | "6-K")
}

#[cfg(test)]
mod tests {
    use super::*;

    const COVER: &str = "UNITED STATES\nSECURITIES AND EXCHANGE COMMISSION\nWashington, D.C. 20549\n\n{FORM}\n\
(Mark One)\n☒ ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934\n";

    fn cover(form_line: &str) -> String {
        COVER.replace("{FORM}", form_line)
    }

    #[test]
    fn the_form_is_read_from_its_own_line_on_a_cover_that_names_the_commission() {
        assert_eq!(sec_form(&cover("FORM 10-K")).as_deref(), Some("10-K"));
        assert_eq!(sec_form(&cover("  Form 10-Q  ")).as_deref(), Some("10-Q"));
        assert_eq!(sec_form(&cover("FORM 8-K/A")).as_deref(), Some("8-K/A"));
        assert_eq!(sec_form(&cover("FORM 20-F")).as_deref(), Some("20-F"));
        assert_eq!(sec_form(&cover("SCHEDULE 14A\nFORM DEF14A")).as_deref(), Some("DEF 14A"));
    }

    #[test]
    fn a_mention_of_a_form_in_running_text_or_without_the_commission_is_not_a_form() {
        assert_eq!(sec_form(&cover("as described in our Form 10-K for the year")), None);
        assert_eq!(sec_form(&cover("FORM 10-K405 EXHIBIT")), None);
        assert_eq!(sec_form("Quarterly letter\nFORM 10-Q\nDear shareholders"), None);
    }

    #[test]
    fn annual_and_current_reports_are_told_apart_amended_or_not() {
        assert!(is_annual("10-K") && is_annual("10-K/A") && is_annual("20-F"));
        assert!(!is_annual("10-Q") && !is_annual("8-K"));
        assert!(is_current_report("8-K") && is_current_report("6-K/A"));
        assert!(!is_current_report("10-Q"));
    }
}
