//! PDF extraction (`extract::pdf`, MuPDF underneath): any bytes give pages or an
//! `ExtractError`. A crash inside MuPDF is contained by the extraction worker process in the
//! product; here it is a finding.

use extract::pdf::extract_pdf;

#[path = "pages.rs"]
mod pages;

const MAX_PAGES: u32 = 8;

pub fn check(data: &[u8]) {
    if let Ok(out) = extract_pdf(data.to_vec(), MAX_PAGES) {
        pages::assert_sound(&out.pages, MAX_PAGES as usize);
    }
}
