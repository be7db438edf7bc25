//! Stored document embeddings: one [`DIM`]-float vector per document key (its deeplink), kept in
//! memory as one matrix and on disk as an append-only file beside the search index.
//!
//! Why a file and not a table: re-applying a changed topic must read every stored vector (1M
//! documents are 1.5 GB of f32), which only memory answers within seconds; the file is what fills
//! that memory at start, read front to back. It is derived data like the search index: deleting
//! it makes the server embed every document again.
//!
//! The file is a header (`NEEDLVEC`, then the dimension as a little-endian u32) and records of a
//! u32 key length, the key's UTF-8 bytes and [`DIM`] little-endian f32. A later record of a key
//! replaces an earlier one. A record cut short by a crash is dropped (and cut off the file) when
//! the file is opened again.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Read, Write};
use std::path::Path;

use crate::{Error, Result, TopicModel, DIM};

const MAGIC: &[u8; 8] = b"NEEDLVEC";
const HEADER: usize = 12;

/// Document embeddings by key, in memory, backed by an append-only file (or by nothing).
#[derive(Default)]
pub struct VectorStore {
    file: Option<File>,
    /// Row `i` is `matrix[i * DIM..(i + 1) * DIM]`, the vector of `keys[i]`.
    matrix: Vec<f32>,
    keys: Vec<String>,
    rows: HashMap<String, u32>,
    /// How many stored vectors were replaced by a later one: rows only ever grow at the end
    /// otherwise, so a classification of the first rows stays valid while this stays the same.
    replaced: u64,
}

impl VectorStore {
    /// A store that keeps nothing on disk (tests, benchmarks).
    pub fn in_memory() -> VectorStore {
        VectorStore::default()
    }

    /// Opens (or creates) the store's file and reads every vector into memory.
    pub fn open(path: &Path) -> Result<VectorStore> {
        let err = |e: std::io::Error| Error::File(path.to_path_buf(), e.to_string());
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(err)?;
        }
        let mut file = OpenOptions::new().read(true).append(true).create(true).open(path).map_err(err)?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes).map_err(err)?;
        let mut store = VectorStore::default();
        if bytes.is_empty() {
            let mut header = MAGIC.to_vec();
            header.extend_from_slice(&(DIM as u32).to_le_bytes());
            file.write_all(&header).map_err(err)?;
        } else if bytes.len() < HEADER || &bytes[..8] != MAGIC || bytes[8..12] != (DIM as u32).to_le_bytes() {
            return Err(Error::File(path.to_path_buf(), "not a vector store of this dimension".into()));
        } else {
            let good = store.read_records(&bytes[HEADER..]);
            if HEADER + good < bytes.len() {
                file.set_len((HEADER + good) as u64).map_err(err)?;
            }
        }
        store.file = Some(file);
        Ok(store)
    }

    /// Reads whole records from `bytes` into memory; returns how many bytes they took.
    fn read_records(&mut self, bytes: &[u8]) -> usize {
        let mut at = 0;
        loop {
            let Some(len) = bytes.get(at..at + 4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize) else {
                return at;
            };
            let end = at + 4 + len + DIM * 4;
            if end > bytes.len() {
                return at;
            }
            let Ok(key) = std::str::from_utf8(&bytes[at + 4..at + 4 + len]) else { return at };
            let vector: Vec<f32> = bytes[at + 4 + len..end]
                .chunks_exact(4)
                .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect();
            self.put(key, &vector);
            at = end;
        }
    }

    fn put(&mut self, key: &str, vector: &[f32]) {
        match self.rows.get(key) {
            Some(&row) => {
                let at = row as usize * DIM;
                self.matrix[at..at + DIM].copy_from_slice(vector);
                self.replaced += 1;
            }
            None => {
                self.rows.insert(key.to_string(), self.keys.len() as u32);
                self.keys.push(key.to_string());
                self.matrix.extend_from_slice(vector);
            }
        }
    }

    /// Stores vectors (replacing any earlier vector of the same key): written to the file and
    /// flushed before memory changes, so what is in memory is on disk.
    pub fn insert(&mut self, items: &[(String, Vec<f32>)]) -> Result<()> {
        for (key, vector) in items {
            if vector.len() != DIM {
                return Err(Error::Topic(format!("an embedding has {} dimensions, not {DIM}", vector.len())));
            }
            if key.len() > u32::MAX as usize {
                return Err(Error::Topic("a key is too long".into()));
            }
        }
        if let Some(file) = &self.file {
            let mut out = BufWriter::new(file);
            let io = |e: std::io::Error| Error::Topic(format!("writing stored embeddings: {e}"));
            for (key, vector) in items {
                out.write_all(&(key.len() as u32).to_le_bytes()).map_err(io)?;
                out.write_all(key.as_bytes()).map_err(io)?;
                for x in vector {
                    out.write_all(&x.to_le_bytes()).map_err(io)?;
                }
            }
            out.flush().map_err(io)?;
        }
        for (key, vector) in items {
            self.put(key, vector);
        }
        Ok(())
    }

    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// How many vectors were replaced since the store was opened (see [`len`](Self::len)):
    /// while it stays the same, rows `0..len` keep their vectors and new ones are appended.
    pub fn replaced(&self) -> u64 {
        self.replaced
    }

    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    pub fn contains(&self, key: &str) -> bool {
        self.rows.contains_key(key)
    }

    /// The stored vector of `key`.
    pub fn get(&self, key: &str) -> Option<&[f32]> {
        let at = *self.rows.get(key)? as usize * DIM;
        Some(&self.matrix[at..at + DIM])
    }

    /// Every vector end to end, row `i` that of [`key`](Self::key)`(i)`.
    pub fn matrix(&self) -> &[f32] {
        &self.matrix
    }

    pub fn key(&self, row: u32) -> &str {
        &self.keys[row as usize]
    }
}

/// The rows of a [`VectorStore`] one classifier selects, kept between reads: reading again
/// classifies only the rows appended since, and everything again only after a stored vector was
/// replaced. Keep one per classifier (say, by [`TopicModel::fingerprint`] and the topics wanted).
#[derive(Debug, Clone, Default)]
pub struct Selection {
    /// Rows `0..rows` have been classified.
    rows: usize,
    /// The store's [`VectorStore::replaced`] then.
    replaced: u64,
    selected: Vec<u32>,
}

impl Selection {
    /// Brings the selection up to date with `store` for `model`'s topics `wanted` (always the
    /// same model and topics for one selection); returns how many rows it classified.
    pub fn update(&mut self, store: &VectorStore, model: &TopicModel, wanted: &[usize]) -> usize {
        if self.replaced != store.replaced() || self.rows > store.len() {
            *self = Selection::default();
        }
        let from = self.rows;
        let new = model.select(&store.matrix()[from * DIM..], wanted);
        self.selected.extend(new.into_iter().map(|r| r + from as u32));
        self.rows = store.len();
        self.replaced = store.replaced();
        self.rows - from
    }

    /// The rows selected, in store order.
    pub fn rows(&self) -> &[u32] {
        &self.selected
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh folder of its own for one test.
    fn tempdir(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("needl-embed-store-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn unit(i: usize) -> Vec<f32> {
        let mut v = vec![0.0; DIM];
        v[i % DIM] = 1.0;
        v
    }

    #[test]
    fn vectors_survive_reopening_and_a_later_record_wins() {
        let dir = tempdir("reopen");
        let path = dir.join("vectors/embeddings.bin");
        {
            let mut store = VectorStore::open(&path).unwrap();
            assert!(store.is_empty());
            store.insert(&[("a".into(), unit(1)), ("b".into(), unit(2))]).unwrap();
            assert_eq!(store.replaced(), 0);
            store.insert(&[("a".into(), unit(3))]).unwrap();
            assert_eq!(store.replaced(), 1, "a replaced vector is counted");
            assert_eq!(store.len(), 2);
            assert_eq!(store.get("a"), Some(&unit(3)[..]));
        }
        let store = VectorStore::open(&path).unwrap();
        assert_eq!(store.len(), 2);
        assert_eq!(store.get("a"), Some(&unit(3)[..]));
        assert_eq!(store.get("b"), Some(&unit(2)[..]));
        assert_eq!(store.get("c"), None);
        assert_eq!(store.matrix().len(), 2 * DIM);
        assert_eq!(store.key(1), "b");
    }

    #[test]
    fn a_selection_classifies_only_what_was_appended_until_a_vector_is_replaced() {
        let mut model = TopicModel::new(0.5);
        model.define("one", &unit(1), &[]).unwrap();
        model.define("two", &unit(2), &[]).unwrap();
        let mut store = VectorStore::in_memory();
        store.insert(&[("a".into(), unit(1)), ("b".into(), unit(2)), ("c".into(), unit(1))]).unwrap();
        let mut selection = Selection::default();
        assert_eq!(selection.update(&store, &model, &[0]), 3);
        assert_eq!(selection.rows(), [0, 2]);
        assert_eq!(selection.update(&store, &model, &[0]), 0, "nothing new: nothing classified");
        store.insert(&[("d".into(), unit(1)), ("e".into(), unit(2))]).unwrap();
        assert_eq!(selection.update(&store, &model, &[0]), 2, "only the appended rows");
        assert_eq!(selection.rows(), [0, 2, 3]);
        // "a" now belongs to the other topic: everything is classified again.
        store.insert(&[("a".into(), unit(2))]).unwrap();
        assert_eq!(selection.update(&store, &model, &[0]), 5);
        assert_eq!(selection.rows(), [2, 3]);
    }

    #[test]
    fn a_record_cut_short_is_dropped_and_the_store_goes_on() {
        let dir = tempdir("cut");
        let path = dir.join("embeddings.bin");
        VectorStore::open(&path).unwrap().insert(&[("a".into(), unit(1)), ("b".into(), unit(2))]).unwrap();
        let full = std::fs::metadata(&path).unwrap().len();
        // A crash in the middle of the second record.
        OpenOptions::new().write(true).open(&path).unwrap().set_len(full - 100).unwrap();
        let mut store = VectorStore::open(&path).unwrap();
        assert_eq!(store.len(), 1);
        assert!(store.contains("a") && !store.contains("b"));
        store.insert(&[("b".into(), unit(5))]).unwrap();
        let store = VectorStore::open(&path).unwrap();
        assert_eq!(store.get("b"), Some(&unit(5)[..]), "written after the cut, read back whole");
    }

    #[test]
    fn refuses_another_file_and_wrong_dimensions() {
        let dir = tempdir("other");
        let path = dir.join("other.bin");
        std::fs::write(&path, b"something else entirely").unwrap();
        assert!(VectorStore::open(&path).is_err());
        let mut store = VectorStore::in_memory();
        assert!(store.insert(&[("a".into(), vec![1.0; 3])]).is_err());
        assert!(store.is_empty(), "nothing stored when one item is refused");
    }
}
