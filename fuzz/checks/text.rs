//! Plain text, markdown and HTML uploads (`extract::text`): any bytes, in any encoding, give
//! one sound page of text, never a panic.

use extract::text::{extract_html, extract_plain};

#[path = "pages.rs"]
mod pages;

pub fn check(data: &[u8]) {
    for out in [extract_plain(data, false), extract_plain(data, true), extract_html(data)] {
        pages::assert_sound(&out.pages, 1);
    }
}
