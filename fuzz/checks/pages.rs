//! What every extractor promises of its pages, whatever the file.

use extract::Page;

/// Pages are numbered 1, 2, 3, ..., there are at most `max_pages`, and every size and box is a
/// finite number a viewer can scale.
pub fn assert_sound(pages: &[Page], max_pages: usize) {
    assert!(pages.len() <= max_pages, "{} pages, over the cap of {max_pages}", pages.len());
    for (i, page) in pages.iter().enumerate() {
        assert_eq!(page.number as usize, i + 1, "pages out of order");
        assert!(page.width.is_finite() && page.height.is_finite(), "a page size that is not a number");
        for block in &page.blocks {
            assert!(block.bbox.iter().all(|v| v.is_finite()), "a line box that is not a number: {:?}", block.bbox);
        }
        assert!(!page.text.contains('\0'), "a NUL character in page text");
    }
}
