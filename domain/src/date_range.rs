//! Date-range shorthands of search and feeds: `1d`, `1w`, `1M`, `3M`, `6M`, `1y`, `2y`, `3y` (a
//! number and a unit: d days, w weeks, M calendar months, y calendar years), ending now.

use chrono::{DateTime, Duration, Months, Utc};

/// The spec's answer to anything that is not a number and a unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("Wrong shorthand")]
pub struct WrongShorthand;

/// Returns the range `shorthand` names, ending at `now`.
pub fn range(shorthand: &str, now: DateTime<Utc>) -> Result<(DateTime<Utc>, DateTime<Utc>), WrongShorthand> {
    let mut chars = shorthand.chars();
    let (Some(digit), Some(unit), None) = (chars.next(), chars.next(), chars.next()) else {
        return Err(WrongShorthand);
    };
    let n = digit.to_digit(10).filter(|n| *n > 0).ok_or(WrongShorthand)?;
    let start = match unit {
        'd' => now.checked_sub_signed(Duration::days(n.into())),
        'w' => now.checked_sub_signed(Duration::weeks(n.into())),
        'M' => now.checked_sub_months(Months::new(n)),
        'y' => now.checked_sub_months(Months::new(12 * n)),
        _ => None,
    }
    .ok_or(WrongShorthand)?;
    Ok((start, now))
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn at(y: i32, m: u32, d: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(y, m, d, 12, 0, 0).unwrap()
    }

    #[test]
    fn each_shorthand_of_the_spec_ends_now_and_starts_where_it_says() {
        let now = at(2026, 3, 31);
        let start = |s: &str| range(s, now).unwrap().0;
        assert_eq!(start("1d"), at(2026, 3, 30));
        assert_eq!(start("1w"), at(2026, 3, 24));
        assert_eq!(start("1M"), at(2026, 2, 28), "a calendar month back, clamped to the month's end");
        assert_eq!(start("3M"), at(2025, 12, 31));
        assert_eq!(start("6M"), at(2025, 9, 30));
        assert_eq!(start("1y"), at(2025, 3, 31));
        assert_eq!(start("2y"), at(2024, 3, 31));
        assert_eq!(start("3y"), at(2023, 3, 31));
        assert_eq!(range("1d", now).unwrap().1, now);
    }

    #[test]
    fn anything_else_is_a_wrong_shorthand() {
        for bad in ["", "1", "d", "10d", "1m", "1Y", "0d", "x1", "1d ", "1 d", "١d"] {
            assert_eq!(range(bad, at(2026, 1, 1)).unwrap_err().to_string(), "Wrong shorthand", "{bad:?}");
        }
    }
}
