//! Tables read back from a PDF page's positioned lines.
//!
//! A PDF keeps no tables, only text placed on the page; MuPDF gives each run of text that sits
//! apart from its neighbours as a line of its own, so a table's cells arrive as lines side by
//! side. The lines are grouped into visual rows (boxes that overlap vertically), and a table is a
//! run of at least [`MIN_ROWS`] consecutive rows of two or more cells, close together, whose
//! cells line up in columns (their horizontal extents overlap from row to row). Two columns of
//! running prose also sit side by side, so a candidate whose cells read as sentences rather than
//! as labels and figures is not taken.

use serde::{Deserialize, Serialize};

use crate::Page;

/// Rows a table has at least (a header and two rows, or three rows).
pub const MIN_ROWS: usize = 3;

/// One table found on a page: its rows of cells, the first row as printed (often the header).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Table {
    pub page: u32,
    /// Rows of the same width; an empty string where a row has no cell in a column.
    pub rows: Vec<Vec<String>>,
}

#[derive(Debug, Clone)]
struct Cell {
    text: String,
    x0: f32,
    x1: f32,
    y0: f32,
    y1: f32,
}

/// The tables of every page.
pub fn tables(pages: &[Page]) -> Vec<Table> {
    pages.iter().flat_map(page_tables).collect()
}

/// The tables of one page, top to bottom.
pub fn page_tables(page: &Page) -> Vec<Table> {
    let rows = visual_rows(page);
    let mut found = Vec::new();
    let mut run: Vec<Vec<Cell>> = Vec::new();
    let mut flush = |run: &mut Vec<Vec<Cell>>| {
        if run.len() >= MIN_ROWS {
            if let Some(rows) = grid(run) {
                found.push(Table { page: page.number, rows });
            }
        }
        run.clear();
    };
    for row in rows {
        let tabular = row.len() >= 2;
        let close = run.last().is_some_and(|last: &Vec<Cell>| {
            let height = line_height(last).max(line_height(&row)).max(1.0);
            top(&row) - bottom(last) <= 2.5 * height
        });
        if tabular && (run.is_empty() || close) {
            run.push(row);
        } else if tabular {
            flush(&mut run);
            run.push(row);
        } else {
            flush(&mut run);
        }
    }
    flush(&mut run);
    found
}

fn top(row: &[Cell]) -> f32 {
    row.iter().map(|c| c.y0).fold(f32::MAX, f32::min)
}

fn bottom(row: &[Cell]) -> f32 {
    row.iter().map(|c| c.y1).fold(f32::MIN, f32::max)
}

fn line_height(row: &[Cell]) -> f32 {
    let mut heights: Vec<f32> = row.iter().map(|c| c.y1 - c.y0).collect();
    heights.sort_by(f32::total_cmp);
    heights.get(heights.len() / 2).copied().unwrap_or(0.0)
}

/// The page's lines grouped into rows (lines whose boxes overlap vertically by half the smaller
/// height), top to bottom, each row's cells left to right.
fn visual_rows(page: &Page) -> Vec<Vec<Cell>> {
    let mut cells: Vec<Cell> = page
        .blocks
        .iter()
        .filter(|b| !b.text.trim().is_empty())
        .map(|b| Cell { text: b.text.trim().to_string(), x0: b.bbox[0], y0: b.bbox[1], x1: b.bbox[2], y1: b.bbox[3] })
        .collect();
    cells.sort_by(|a, b| (a.y0 + a.y1).total_cmp(&(b.y0 + b.y1)));
    let mut rows: Vec<Vec<Cell>> = Vec::new();
    for cell in cells {
        let joins = rows.last().is_some_and(|row| {
            let (t, b) = (top(row), bottom(row));
            let overlap = cell.y1.min(b) - cell.y0.max(t);
            overlap >= 0.5 * (cell.y1 - cell.y0).min(b - t)
        });
        if joins {
            rows.last_mut().expect("joins a row").push(cell);
        } else {
            rows.push(vec![cell]);
        }
    }
    for row in &mut rows {
        row.sort_by(|a, b| a.x0.total_cmp(&b.x0));
    }
    rows
}

/// The rows laid out on columns, or `None` when the cells do not line up as a table.
fn grid(run: &[Vec<Cell>]) -> Option<Vec<Vec<String>>> {
    // Columns: horizontal extents of the cells, merged wherever they overlap.
    let mut spans: Vec<(f32, f32)> = run.iter().flatten().map(|c| (c.x0, c.x1)).collect();
    spans.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut columns: Vec<(f32, f32)> = Vec::new();
    for (x0, x1) in spans {
        match columns.last_mut() {
            Some(last) if x0 <= last.1 => last.1 = last.1.max(x1),
            _ => columns.push((x0, x1)),
        }
    }
    if columns.len() < 2 {
        return None;
    }
    let mut rows: Vec<Vec<String>> = Vec::with_capacity(run.len());
    for row in run {
        let mut cells = vec![String::new(); columns.len()];
        for cell in row {
            let column = columns.iter().position(|(x0, x1)| cell.x0 >= *x0 && cell.x0 <= *x1).unwrap_or(0);
            if !cells[column].is_empty() {
                cells[column].push(' ');
            }
            cells[column].push_str(&cell.text);
        }
        rows.push(cells);
    }
    // Most rows fill at least two columns.
    let filled = rows.iter().filter(|r| r.iter().filter(|c| !c.is_empty()).count() >= 2).count();
    if filled * 10 < rows.len() * 8 {
        return None;
    }
    looks_tabular(&rows).then_some(rows)
}

/// Whether the cells read as a table's (labels and figures) rather than as running prose set in
/// columns: short cells, or many figures.
fn looks_tabular(rows: &[Vec<String>]) -> bool {
    let cells: Vec<&String> = rows.iter().flatten().filter(|c| !c.is_empty()).collect();
    if cells.is_empty() {
        return false;
    }
    let words = cells.iter().map(|c| c.split_whitespace().count()).sum::<usize>() as f32 / cells.len() as f32;
    let figures = cells.iter().filter(|c| c.chars().any(|ch| ch.is_ascii_digit())).count() as f32 / cells.len() as f32;
    let sentences = cells.iter().filter(|c| c.split_whitespace().count() >= 8).count() as f32 / cells.len() as f32;
    // A column that is mostly sentences is running text beside something else (a chart's labels,
    // a listing), not a table's column.
    let width = rows.first().map_or(0, Vec::len);
    let prose_column = (0..width).any(|c| {
        let column: Vec<&String> = rows.iter().map(|r| &r[c]).filter(|t| !t.is_empty()).collect();
        let long = column.iter().filter(|t| t.split_whitespace().count() >= 7).count();
        !column.is_empty() && long * 2 >= column.len()
    });
    sentences < 0.3 && !prose_column && (words <= 4.0 || figures >= 0.3)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Block;

    fn line(text: &str, x0: f32, y0: f32) -> Block {
        let width = text.chars().count() as f32 * 5.0;
        Block { text: text.into(), bbox: [x0, y0, x0 + width, y0 + 10.0] }
    }

    fn page(blocks: Vec<Block>) -> Page {
        Page { number: 4, text: String::new(), blocks, width: 612.0, height: 792.0, garbled: false }
    }

    #[test]
    fn cells_side_by_side_become_a_table_and_prose_around_it_does_not() {
        let mut blocks = vec![line("Results of operations for the year were strong across the group.", 72.0, 60.0)];
        let rows = [
            ("", "2024", "2023"),
            ("Revenue", "4,200", "3,750"),
            ("Net income", "610", "540"),
            ("Dividend per share", "0.40", "0.35"),
        ];
        for (i, (label, a, b)) in rows.iter().enumerate() {
            let y = 100.0 + i as f32 * 14.0;
            if !label.is_empty() {
                blocks.push(line(label, 72.0, y));
            }
            // Figures right-aligned: their left edges differ, their extents overlap.
            blocks.push(line(a, 300.0 - a.len() as f32 * 5.0 + 20.0, y));
            blocks.push(line(b, 400.0 - b.len() as f32 * 5.0 + 20.0, y));
        }
        blocks.push(line("The figures above are audited and restated for the merger.", 72.0, 200.0));
        let found = page_tables(&page(blocks));
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].page, 4);
        assert_eq!(
            found[0].rows,
            vec![
                vec!["".to_string(), "2024".into(), "2023".into()],
                vec!["Revenue".into(), "4,200".into(), "3,750".into()],
                vec!["Net income".into(), "610".into(), "540".into()],
                vec!["Dividend per share".into(), "0.40".into(), "0.35".into()],
            ]
        );
    }

    #[test]
    fn two_columns_of_running_text_are_not_a_table() {
        let left = "The company grew its orchards across the northern region this year while";
        let right = "prices eased in the second half as supply recovered from the earlier frost";
        let blocks: Vec<Block> = (0..8)
            .flat_map(|i| {
                let y = 100.0 + i as f32 * 12.0;
                [line(left, 50.0, y), Block { text: right.into(), bbox: [320.0, y, 560.0, y + 10.0] }]
            })
            .collect();
        assert!(page_tables(&page(blocks)).is_empty());
    }

    #[test]
    fn rows_far_apart_are_separate_runs_and_short_runs_are_dropped() {
        let mut blocks = Vec::new();
        for (i, y) in [100.0, 114.0, 400.0, 414.0].iter().enumerate() {
            blocks.push(line(&format!("Item {i}"), 72.0, *y));
            blocks.push(line(&format!("{}", i * 10), 300.0, *y));
        }
        assert!(page_tables(&page(blocks)).is_empty(), "two rows are not a table");
    }
}

#[cfg(test)]
mod real {
    use std::io::Write;
    use std::path::Path;

    use crate::Input;

    /// A real paper from `../shared/data` (absent on a fresh clone: then this test says so and
    /// passes): its benchmark table is read whole, and the chart beside running text on the next
    /// page is not taken for one.
    #[test]
    fn a_real_papers_table_is_read_whole_and_a_chart_beside_prose_is_not() {
        let path = Path::new(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../shared/data/docs/pdf/research/pdfjs__tracemonkey.pdf"
        ));
        if !path.is_file() {
            let _ = writeln!(std::io::stderr(), "skipped: ../shared/data/docs not found");
            return;
        }
        let extracted = crate::extract_file(&Input::path(path)).unwrap();
        let found = super::tables(&extracted.pages);
        let benchmark = found.iter().find(|t| t.page == 12).expect("the table on page 12");
        assert_eq!(benchmark.rows.len(), 27, "{:?}", benchmark.rows);
        assert_eq!(benchmark.rows[0].len(), 10);
        assert_eq!(benchmark.rows[0][1..4], ["Loops", "Trees", "Traces"]);
        assert_eq!(benchmark.rows[1], ["3d-cube", "25", "27", "29", "3", "0", "1.1", "1.1", "1.2", "2.20x"]);
        assert!(found.iter().all(|t| t.page != 13), "{found:?}");
        let _ = writeln!(
            std::io::stderr(),
            "tracemonkey: {} tables on pages {:?}",
            found.len(),
            found.iter().map(|t| t.page).collect::<Vec<_>>()
        );
    }
}
