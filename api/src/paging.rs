//! Paging of list endpoints: `?page=N&limit=M`, checked in one place.
//!
//! Every list that pages takes [`Paging`] (or [`PageNumber`] where the page size is fixed) as an
//! extractor next to its own query. Both bound the page so that `page * limit` fits an `i64`
//! with room to spare, and answer anything else (a huge page, a negative one, a word) with the
//! same `bad_page` error naming the allowed range.

use axum::extract::{FromRequestParts, Query};
use axum::http::request::Parts;
use serde::Deserialize;
use utoipa::openapi::path::{Parameter, ParameterIn};
use utoipa::IntoParams;

use crate::error::AppError;

/// The last page a list answers. With at most [`MAX_LIMIT`] a page the offset stays under
/// 10^7, far from overflowing and cheap enough for the database to skip to.
pub const MAX_PAGE: i64 = 100_000;
/// The most items one page holds.
pub const MAX_LIMIT: i64 = 100;
/// The page size when the request names none.
pub const DEFAULT_LIMIT: i64 = 20;

/// A checked page request: `page` in `0..=MAX_PAGE`, `limit` in `1..=MAX_LIMIT`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Paging {
    pub page: i64,
    pub limit: i64,
}

impl Paging {
    /// Returns how many items come before this page.
    pub fn offset(self) -> i64 {
        self.page * self.limit
    }

    /// Returns the checked paging of the raw `page` and `limit` values, defaults for absent ones.
    pub fn parse(page: Option<&str>, limit: Option<&str>) -> Result<Self, AppError> {
        let page = parse_page(page)?;
        let limit = match limit {
            None => DEFAULT_LIMIT,
            Some(raw) => whole_number_in(raw, 1, MAX_LIMIT)
                .ok_or_else(|| bad_page(format!("limit must be a whole number between 1 and {MAX_LIMIT}")))?,
        };
        Ok(Self { page, limit })
    }
}

/// The page number of a list with a fixed page size, checked like [`Paging`]'s.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageNumber(pub i64);

fn bad_page(message: String) -> AppError {
    AppError::bad_request("bad_page", message)
}

fn parse_page(raw: Option<&str>) -> Result<i64, AppError> {
    match raw {
        None => Ok(0),
        Some(raw) => whole_number_in(raw, 0, MAX_PAGE)
            .ok_or_else(|| bad_page(format!("page must be a whole number between 0 and {MAX_PAGE}"))),
    }
}

/// Returns `raw` as a number when it is a plain whole number within `min..=max`. Digits only
/// (an optional sign aside), so `1e3`, `0x10` and `+-1` are refused rather than guessed at.
fn whole_number_in(raw: &str, min: i64, max: i64) -> Option<i64> {
    // Parsing into i128 takes any i64 and then some, so a number past i64 is "out of range", not
    // "not a number"; longer digit strings fail to parse and are refused the same way.
    raw.trim().parse::<i128>().ok().filter(|n| (i128::from(min)..=i128::from(max)).contains(n)).map(|n| n as i64)
}

/// The two query fields as sent, so that a wrong value is answered by this module, not by the
/// query deserializer's generic message. Also describes them in the OpenAPI document (whose
/// bounds repeat [`MAX_PAGE`] and [`MAX_LIMIT`]: attributes take literals only).
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
struct RawPaging {
    /// Page number from 0 to 100000.
    #[param(value_type = Option<i64>, minimum = 0, maximum = 100_000)]
    page: Option<String>,
    /// Page size, 1 to 100 (default 20).
    #[param(value_type = Option<i64>, minimum = 1, maximum = 100)]
    limit: Option<String>,
}

/// Just the page field, for [`PageNumber`].
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
struct RawPage {
    /// Page number from 0 to 100000.
    #[param(value_type = Option<i64>, minimum = 0, maximum = 100_000)]
    page: Option<String>,
}

impl<S: Send + Sync> FromRequestParts<S> for Paging {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let Query(raw) = Query::<RawPaging>::from_request_parts(parts, state).await?;
        Paging::parse(raw.page.as_deref(), raw.limit.as_deref())
    }
}

impl<S: Send + Sync> FromRequestParts<S> for PageNumber {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let Query(raw) = Query::<RawPage>::from_request_parts(parts, state).await?;
        Ok(PageNumber(parse_page(raw.page.as_deref())?))
    }
}

impl IntoParams for Paging {
    fn into_params(parameter_in_provider: impl Fn() -> Option<ParameterIn>) -> Vec<Parameter> {
        RawPaging::into_params(parameter_in_provider)
    }
}

impl IntoParams for PageNumber {
    fn into_params(parameter_in_provider: impl Fn() -> Option<ParameterIn>) -> Vec<Parameter> {
        RawPage::into_params(parameter_in_provider)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(page: Option<&str>, limit: Option<&str>) -> Result<(i64, i64), String> {
        Paging::parse(page, limit).map(|p| (p.page, p.limit)).map_err(|e| format!("{} {}", e.code, e.message))
    }

    #[test]
    fn absent_values_take_the_first_page_of_twenty() {
        assert_eq!(parsed(None, None), Ok((0, DEFAULT_LIMIT)));
        assert_eq!(parsed(Some("3"), Some("50")), Ok((3, 50)));
    }

    #[test]
    fn pages_out_of_range_or_not_numbers_are_refused_with_the_range() {
        let page_error = format!("bad_page page must be a whole number between 0 and {MAX_PAGE}");
        for page in ["-1", "100001", "9223372036854775807", "9223372036854775808", "1e3", "two", "", "0x10"] {
            assert_eq!(parsed(Some(page), None), Err(page_error.clone()), "{page:?}");
        }
        let limit_error = format!("bad_page limit must be a whole number between 1 and {MAX_LIMIT}");
        for limit in ["0", "101", "-5", "many"] {
            assert_eq!(parsed(None, Some(limit)), Err(limit_error.clone()), "{limit:?}");
        }
    }

    #[test]
    fn the_largest_offset_fits_with_room_to_spare() {
        let last = Paging::parse(Some(&MAX_PAGE.to_string()), Some(&MAX_LIMIT.to_string())).unwrap();
        assert_eq!(last.offset(), MAX_PAGE * MAX_LIMIT);
        assert!(MAX_PAGE.checked_mul(MAX_LIMIT + 1).is_some());
    }
}
