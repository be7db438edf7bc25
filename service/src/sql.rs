//! Small pieces of the SQL the read models are queried with.

use chrono::SecondsFormat;

/// Returns the current time as the views keep times (RFC 3339, milliseconds, UTC).
pub fn now() -> String {
    chrono::Utc::now().to_rfc3339_opts(SecondsFormat::Millis, true)
}

/// Returns `$start, $start+1, ...` for `n` parameters, for an `IN (...)` list.
pub fn placeholders(start: usize, n: usize) -> String {
    (start..start + n).map(|i| format!("${i}")).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    #[test]
    fn placeholders_number_from_where_the_fixed_parameters_end() {
        assert_eq!(super::placeholders(2, 3), "$2, $3, $4");
        assert_eq!(super::placeholders(1, 1), "$1");
    }
}
