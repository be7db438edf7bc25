//! Reading a generated answer as it streams (`assistant::stream`): server-sent-event lines,
//! citation marks and sentences come out the same however the bytes are cut into chunks, and no
//! input panics. The first bytes of the input choose the cuts; the rest is the stream.

use assistant::stream::{Citations, Cut, Lines, Piece, Sentences};

pub fn check(data: &[u8]) {
    let Some((&cuts, stream)) = data.split_first() else { return };
    let chunks = chunked(stream, cuts);

    // Lines: the same lines, or an error either way.
    let whole = lines_of(&[stream]);
    let pieces = lines_of(&chunks);
    assert_eq!(whole.is_ok(), pieces.is_ok(), "a chunking changed whether the stream is UTF-8");
    if let (Ok(whole), Ok(pieces)) = (&whole, &pieces) {
        assert_eq!(whole, pieces, "a chunking changed the lines");
    }

    // Citation marks and sentences, over the text: cut only at character boundaries, as the
    // engine hands on decoded text.
    let text = String::from_utf8_lossy(stream);
    let text_chunks = chunked_str(&text, cuts);
    let (whole_pieces, whole_cuts) = read(&[&text]);
    let (chunk_pieces, chunk_cuts) = read(&text_chunks);
    assert_eq!(whole_pieces, chunk_pieces, "a chunking changed the citation marks of {text:?}");
    assert_eq!(whole_cuts, chunk_cuts, "a chunking changed the sentences of {text:?}");
    if !text.contains('[') {
        assert_eq!(plain(&whole_pieces), text, "text without brackets was changed");
        assert!(whole_pieces.len() <= 1, "text without brackets was read as marks");
    }
}

fn lines_of(chunks: &[&[u8]]) -> Result<Vec<String>, String> {
    let mut lines = Lines::default();
    let mut out = Vec::new();
    for chunk in chunks {
        out.extend(lines.push(chunk)?);
    }
    out.extend(lines.finish()?);
    Ok(out)
}

/// The pieces with neighbouring text merged (where a cut falls is not a difference), and the
/// sentences.
fn read(chunks: &[&str]) -> (Vec<Piece>, Vec<Cut>) {
    let mut marks = Citations::default();
    let mut sentences = Sentences::default();
    let mut pieces: Vec<Piece> = Vec::new();
    let mut cuts = Vec::new();
    let mut take = |got: Vec<Piece>, pieces: &mut Vec<Piece>, cuts: &mut Vec<Cut>| {
        for piece in got {
            match &piece {
                Piece::Text(text) => cuts.extend(sentences.text(text)),
                Piece::Cite(numbers) => cuts.extend(sentences.cite(numbers.clone())),
            }
            match (pieces.last_mut(), piece) {
                (Some(Piece::Text(before)), Piece::Text(text)) => before.push_str(&text),
                (_, piece) => pieces.push(piece),
            }
        }
    };
    for chunk in chunks {
        take(marks.push(chunk), &mut pieces, &mut cuts);
    }
    take(marks.finish(), &mut pieces, &mut cuts);
    cuts.extend(sentences.finish());
    (pieces, cuts)
}

fn plain(pieces: &[Piece]) -> String {
    pieces.iter().filter_map(|p| if let Piece::Text(t) = p { Some(t.as_str()) } else { None }).collect()
}

/// Cuts `bytes` at lengths drawn from `seed`, so one input byte picks a chunking.
fn chunked(bytes: &[u8], seed: u8) -> Vec<&[u8]> {
    let mut out = Vec::new();
    let mut rest = bytes;
    let mut state = u32::from(seed) | 0x100;
    while !rest.is_empty() {
        state = state.wrapping_mul(1_103_515_245).wrapping_add(12_345);
        let len = ((state >> 16) as usize % 7 + 1).min(rest.len());
        let (head, tail) = rest.split_at(len);
        out.push(head);
        rest = tail;
    }
    out
}

fn chunked_str(text: &str, seed: u8) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    let mut state = u32::from(seed) | 0x100;
    while !rest.is_empty() {
        state = state.wrapping_mul(1_103_515_245).wrapping_add(12_345);
        let mut len = ((state >> 16) as usize % 7 + 1).min(rest.len());
        while !rest.is_char_boundary(len) {
            len += 1;
        }
        let (head, tail) = rest.split_at(len);
        out.push(head);
        rest = tail;
    }
    out
}
