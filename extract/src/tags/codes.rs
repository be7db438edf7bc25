//! Identifiers a document prints about its issuer: ISIN, CIN, ISBN, and evidence of a listing.
//!
//! Each code is checked beyond its shape where the standard allows it (check digits, country and
//! state codes), so a part number or a reference that happens to have the right length is not
//! taken for an identifier.

use regex::Regex;
use std::sync::LazyLock;

/// More codes than this on a card say nothing useful; the first ones found are kept.
pub(super) const MAX_CODES: usize = 5;

/// ISO 3166-1 alpha-2 codes, plus `XS` (international securities) and `EU`, which ISINs also use.
/// Checking the prefix rejects most twelve-character codes that pass the check digit by chance.
const ISIN_COUNTRIES: &str = "\
    AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ \
    BR BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM \
    DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS \
    GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN \
    KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ \
    MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM \
    PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV \
    SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI \
    VN VU WF WS YE YT ZA ZM ZW XS EU";

/// State and union-territory codes used in CINs, old and new (`OR`/`OD`, `TG`/`TS`, `UR`/`UK`/`UT`).
const CIN_STATES: &str = "AN AP AR AS BR CH CG CT DD DL DN GA GJ HP HR JH JK KA KL LA LD MH ML \
    MN MP MZ NL OD OR PB PY RJ SK TG TN TR TS TZ UK UP UR UT WB";

/// Company classes in a CIN: public, private, government, state government, foreign, guarantee,
/// not-for-profit, unlimited and one-person companies.
const CIN_CLASSES: &str = "PLC PTC GOI SGC FTC FLC GAP GAT NPL ULL ULT OPC";

static ISIN: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\b[A-Z]{2}[A-Z0-9]{9}[0-9]\b").expect("valid regex"));

static CIN: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\b([LU])[0-9]{5}([A-Z]{2})([0-9]{4})([A-Z]{3})[0-9]{6}\b").expect("valid regex"));

/// An ISBN is only read after its label: bare digit runs are too often phone or account numbers.
static ISBN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\bISBN(?:-1[03])?:?[ \t]*([0-9](?:[ \-]?[0-9]){8,11}[ \-]?[0-9Xx])\b").expect("valid regex")
});

/// Exchange codes and listing statements. Matches preceded by a negation or a modal ("not",
/// "to be") are discarded by [`is_listed`], since an offer document says its shares are
/// *proposed to be* listed.
static LISTING: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(?:(?:BSE|NSE)[ \t]*(?:scrip[ \t]*)?(?:code|symbol|id)|scrip[ \t]*(?:code|id|symbol)|listed[ \t]+(?:on|with|at)[ \t]+(?:the[ \t]+)?(?:BSE|NSE|NYSE|Nasdaq|National[ \t]+Stock[ \t]+Exchange|Bombay[ \t]+Stock[ \t]+Exchange|New[ \t]+York[ \t]+Stock[ \t]+Exchange|London[ \t]+Stock[ \t]+Exchange|(?:[a-z]+[ \t]+){0,2}stock[ \t]+exchanges?))\b|[(,][ \t]*(?:NYSE|NASDAQ|Nasdaq|NSE|BSE|LSE)[ \t]*:[ \t]*[A-Z0-9][A-Z0-9.&\-]*",
    )
    .expect("valid regex")
});

static NEGATED: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i)\b(?:not|never|yet|be|been|being)[ \t]*$").expect("valid regex"));

/// Signs that a document follows Indian conventions: Indian regulators and exchanges, rupee
/// amounts, crores and lakhs. Decides how a bare "quarter ended 30 June" maps to a fiscal quarter.
static INDIAN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b(?:BSE|NSE|SEBI|INR)\b|₹|\bRs\.?[ \t]?[0-9]|\b(?:[Cc]rores?|[Ll]akhs?)\b").expect("valid regex")
});

/// Returns the distinct ISINs in `text` whose check digit is valid, in order of appearance.
pub(super) fn isins(text: &str) -> Vec<String> {
    distinct(ISIN.find_iter(text).map(|m| m.as_str()).filter(|c| is_valid_isin(c)))
}

/// Tells whether `code` is an ISIN: a known country prefix, nine characters with at least one
/// digit, and a check digit that verifies.
pub(super) fn is_valid_isin(code: &str) -> bool {
    let bytes = code.as_bytes();
    if bytes.len() != 12 || !bytes.iter().all(|b| b.is_ascii_digit() || b.is_ascii_uppercase()) {
        return false;
    }
    let known_country = ISIN_COUNTRIES.split_whitespace().any(|c| c == &code[..2]);
    let has_digit = bytes[2..11].iter().any(u8::is_ascii_digit);
    let check = u32::from(bytes[11] - b'0');
    known_country && has_digit && isin_check_digit(&code[..11]) == check
}

/// The ISIN check digit: letters become two digits (A = 10 ... Z = 35), then the Luhn sum is
/// taken, doubling every second digit from the right.
fn isin_check_digit(body: &str) -> u32 {
    let digits: Vec<u32> = body
        .chars()
        .flat_map(|c| {
            let value = c.to_digit(36).unwrap_or(0);
            if value >= 10 {
                vec![value / 10, value % 10]
            } else {
                vec![value]
            }
        })
        .collect();
    let sum: u32 = digits.iter().rev().enumerate().map(|(i, &d)| if i % 2 == 0 { luhn_double(d) } else { d }).sum();
    (10 - sum % 10) % 10
}

fn luhn_double(digit: u32) -> u32 {
    let doubled = digit * 2;
    if doubled > 9 {
        doubled - 9
    } else {
        doubled
    }
}

/// Returns the distinct Corporate Identification Numbers in `text`, in order of appearance.
/// A CIN has no check digit, so its parts are checked instead: a known state, a plausible year
/// of incorporation and a known company class.
pub(super) fn cins(text: &str) -> Vec<String> {
    let valid = CIN.captures_iter(text).filter_map(|caps| {
        let state = caps.get(2)?.as_str();
        let year: u32 = caps.get(3)?.as_str().parse().ok()?;
        let class = caps.get(4)?.as_str();
        let ok = CIN_STATES.split_whitespace().any(|s| s == state)
            && (1850..=2099).contains(&year)
            && CIN_CLASSES.split_whitespace().any(|c| c == class);
        ok.then(|| caps.get(0).map(|m| m.as_str()))?
    });
    distinct(valid)
}

/// Returns the distinct labelled ISBNs in `text` (digits only) whose check digit is valid.
pub(super) fn isbns(text: &str) -> Vec<String> {
    let compact = ISBN.captures_iter(text).filter_map(|caps| {
        let digits: String = caps[1].chars().filter(|c| c.is_ascii_alphanumeric()).collect();
        is_valid_isbn(&digits).then_some(digits.to_ascii_uppercase())
    });
    distinct_owned(compact)
}

fn is_valid_isbn(digits: &str) -> bool {
    let values: Vec<u32> =
        digits.chars().map(|c| if c == 'X' || c == 'x' { 10 } else { c.to_digit(10).unwrap_or(99) }).collect();
    if values.iter().any(|&v| v > 10) {
        return false;
    }
    match values.len() {
        // ISBN-10: weights 10..1, sum divisible by 11; X (10) only as the check digit.
        10 => {
            values[..9].iter().all(|&v| v < 10)
                && values.iter().zip((1..=10).rev()).map(|(v, w)| v * w).sum::<u32>() % 11 == 0
        }
        // ISBN-13: weights 1,3,1,3..., sum divisible by 10.
        13 => {
            values.iter().all(|&v| v < 10)
                && values.iter().zip([1, 3].into_iter().cycle()).map(|(v, w)| v * w).sum::<u32>() % 10 == 0
        }
        _ => false,
    }
}

/// Tells whether the text shows a listing: a listed-company CIN (it starts with `L`), an exchange
/// scrip code or symbol, a ticker such as "(NYSE: MMM)" or "(BSE: 532540, NSE: TCS)", or a
/// statement that the shares are listed on an exchange.
pub(super) fn is_listed(text: &str, cins: &[String]) -> bool {
    cins.iter().any(|c| c.starts_with('L'))
        || LISTING.find_iter(text).any(|m| !NEGATED.is_match(&text[m.start().saturating_sub(24)..m.start()]))
}

/// Tells whether the text follows Indian conventions (see [`INDIAN`]), or carries an Indian ISIN
/// or any CIN.
pub(super) fn is_indian(text: &str, isins: &[String], cins: &[String]) -> bool {
    !cins.is_empty() || isins.iter().any(|i| i.starts_with("IN")) || INDIAN.is_match(text)
}

fn distinct<'a>(codes: impl Iterator<Item = &'a str>) -> Vec<String> {
    distinct_owned(codes.map(str::to_string))
}

fn distinct_owned(codes: impl Iterator<Item = String>) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    for code in codes {
        if !found.contains(&code) {
            found.push(code);
            if found.len() == MAX_CODES {
                break;
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn real_isins_verify_and_are_found_once_each_in_order() {
        for code in ["US0378331005", "INE002A01018", "GB0002634946", "DE000BAY0017"] {
            assert!(is_valid_isin(code), "{code}");
        }
        let text = "ISIN: INE002A01018 (equity). Apple Inc. (ISIN US0378331005); \
                    again INE002A01018.";
        assert_eq!(isins(text), ["INE002A01018", "US0378331005"]);
    }

    #[test]
    fn an_isin_with_a_wrong_check_digit_is_rejected() {
        assert!(!is_valid_isin("INE002A01019"));
        assert!(!is_valid_isin("US0378331006"));
        assert!(isins("ISIN: INE002A01017").is_empty());
    }

    #[test]
    fn random_twelve_character_codes_are_not_isins() {
        // All shaped like ISINs. ZZ... and QQ... carry a valid check digit but no country
        // has those codes; IN...9 verifies but has no digit in its body; the last two fail
        // the check digit (US1234567899 would pass).
        let text = "Ref ZZ1234567895, part QQ0000000000, batch INABCDEFGHI9, \
                    order AB12CD34EF56, invoice US1234567890.";
        assert!(isins(text).is_empty(), "{:?}", isins(text));
        assert!(!is_valid_isin("INE002A0101"));
        assert!(!is_valid_isin("ine002a01018"));
    }

    #[test]
    fn an_isin_inside_a_longer_token_is_not_read() {
        assert!(isins("XINE002A01018 and INE002A010185").is_empty());
    }

    #[test]
    fn at_most_five_isins_are_kept() {
        let text = "US0378331005 INE002A01018 GB0002634946 DE000BAY0017 US5949181045 \
                    INE009A01021";
        assert_eq!(isins(text).len(), MAX_CODES);
    }

    #[test]
    fn a_well_formed_cin_is_found_and_malformed_ones_are_not() {
        let text = "CIN: L17110MH1973PLC019786 | Regd. Office: Mumbai";
        assert_eq!(cins(text), ["L17110MH1973PLC019786"]);
        // Unknown state XX, a year from the future, an unknown class, a wrong leading letter.
        let bad = "L17110XX1973PLC019786 L17110MH2973PLC019786 L17110MH1973ABC019786 \
                   K17110MH1973PLC019786 U7499MH2011PTC21689";
        assert!(cins(bad).is_empty(), "{:?}", cins(bad));
    }

    #[test]
    fn listing_is_read_from_a_listed_cin_a_scrip_code_or_a_ticker() {
        assert!(is_listed("", &["L17110MH1973PLC019786".to_string()]));
        assert!(!is_listed("", &["U74999MH2011PTC216895".to_string()]));
        assert!(is_listed("BSE Scrip Code: 500325\nNSE Symbol: RELIANCE", &[]));
        assert!(is_listed("3M Company (NYSE: MMM) today reported", &[]));
        assert!(is_listed("Tata Consultancy Services (BSE: 532540, NSE: TCS) reported", &[]));
        assert!(!is_listed("The NSE: a history of Indian markets", &[]));
        assert!(is_listed("The equity shares are listed on BSE and NSE.", &[]));
    }

    #[test]
    fn shares_that_are_not_or_not_yet_listed_do_not_make_a_listing() {
        let drhp = "The Equity Shares offered are proposed to be listed on the BSE and NSE.";
        assert!(!is_listed(drhp, &[]));
        assert!(!is_listed("Its shares are not listed on any stock exchange.", &[]));
        assert!(!is_listed("The items listed on page 4 of the annexure.", &[]));
    }

    #[test]
    fn labelled_isbns_are_checked_and_compacted() {
        let text = "ISBN 978-3-16-148410-0\nISBN-10: 0-306-40615-2\nISBN: 978-3-16-148410-1";
        assert_eq!(isbns(text), ["9783161484100", "0306406152"]);
        assert!(isbns("Call 978-3-16-148410-0 today").is_empty());
    }

    #[test]
    fn indian_conventions_are_recognised() {
        assert!(is_indian("Revenue of ₹ 1,234 crore", &[], &[]));
        assert!(is_indian("Revenue rose to Rs. 500 lakh", &[], &[]));
        assert!(is_indian("", &["INE002A01018".to_string()], &[]));
        assert!(!is_indian("Revenue of $7.7 billion in Q1", &["US0378331005".to_string()], &[]));
    }
}
