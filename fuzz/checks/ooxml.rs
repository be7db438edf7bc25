//! Word, Excel and PowerPoint packages (`extract::ooxml`): any bytes give pages or an
//! `ExtractError`, never a panic, with the zip caps (here small, so bombs are cheap to find)
//! holding.

use extract::ooxml::{extract_ooxml, ZipLimits};

#[path = "pages.rs"]
mod pages;

pub fn check(data: &[u8]) {
    let limits = ZipLimits {
        max_part_bytes: 4 << 20,
        max_total_bytes: 8 << 20,
        max_declared_bytes: 16 << 20,
        max_ratio: 200,
        max_entries: 200,
        max_cells: 20_000,
    };
    for looks_like_office in [true, false] {
        if let Ok(out) = extract_ooxml(data, limits.clone(), looks_like_office) {
            pages::assert_sound(&out.pages, usize::MAX);
            let text: usize = out.pages.iter().map(|p| p.text.len()).sum();
            assert!(
                text as u64 <= limits.max_total_bytes,
                "{text} bytes of text from at most {} inflated",
                limits.max_total_bytes
            );
        }
    }
}
