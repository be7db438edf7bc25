//! Offline sentence embeddings and the topic classification AI feeds use.
//!
//! - [`Embedder`]: all-MiniLM-L6-v2 (a 6-layer BERT, 384 dimensions) on the CPU with candle, its
//!   own WordPiece tokenizer; texts in, L2-normalised vectors out, so a dot product is a cosine.
//! - [`topics`]: a [`TopicModel`] of one centroid per topic (two for a topic given eight examples
//!   or more), built from a description and example texts, refined by "more like this / less like
//!   this" feedback, and the [`TopicRule`] that re-applies a topic to stored embeddings (one dot
//!   product per centroid and item, no model).
//! - [`store`]: the [`VectorStore`] of documents' embeddings, computed once at ingest, and the
//!   [`Selection`] of its rows one classifier takes, kept up to date without a full pass.
//!
//! The weights are optional for the product: [`locate`] says where they are, if anywhere, and
//! callers fall back to the keyword taxonomy when it says nothing.

pub mod store;
pub mod topics;

use std::path::{Path, PathBuf};

use candle_core::{DType, Device, Tensor};
use candle_nn::VarBuilder;
use candle_transformers::models::bert::{BertModel, Config};
use tokenizers::{PaddingParams, PaddingStrategy, Tokenizer, TruncationParams};

pub use store::{Selection, VectorStore};
pub use topics::{TopicModel, TopicRule};

/// Dimensions of an embedding.
pub const DIM: usize = 384;
/// Tokens per text, counting `[CLS]` and `[SEP]`; the rest of a longer text is not read.
pub const MAX_TOKENS: usize = 256;
/// Texts per forward pass: memory grows with batch × length², and 32 of 256 tokens stay small.
pub const BATCH: usize = 32;
/// The environment variable that names the model's folder.
pub const MODEL_ENV: &str = "NEEDL_EMBEDDING_MODEL";
/// The files a model folder holds.
pub const MODEL_FILES: [&str; 3] = ["model.safetensors", "tokenizer.json", "config.json"];

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("embedding model file {0} is missing or unreadable: {1}")]
    File(PathBuf, String),
    #[error("embedding model: {0}")]
    Model(#[from] candle_core::Error),
    #[error("tokenizer: {0}")]
    Tokenizer(String),
    #[error("topic model: {0}")]
    Topic(String),
}

pub type Result<T> = std::result::Result<T, Error>;

/// The folder `scripts/setup` fetches the model into: `$XDG_CACHE_HOME/needl/models/all-minilm-l6-v2`
/// (`~/.cache/...` without XDG_CACHE_HOME).
pub fn default_model_dir() -> Option<PathBuf> {
    let cache = match std::env::var_os("XDG_CACHE_HOME").filter(|v| !v.is_empty()) {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(std::env::var_os("HOME")?).join(".cache"),
    };
    Some(cache.join("needl/models/all-minilm-l6-v2"))
}

/// Where the model is: the folder given, else `NEEDL_EMBEDDING_MODEL`, else the setup's cache
/// folder; `None` when the chosen folder lacks one of [`MODEL_FILES`]. A folder given explicitly
/// (or by the variable) is never replaced by the cache folder, so a typo is not hidden.
pub fn locate(explicit: Option<&Path>) -> Option<PathBuf> {
    let dir = match explicit {
        Some(dir) => dir.to_path_buf(),
        None => match std::env::var_os(MODEL_ENV).filter(|v| !v.is_empty()) {
            Some(dir) => PathBuf::from(dir),
            None => default_model_dir()?,
        },
    };
    MODEL_FILES.iter().all(|f| dir.join(f).is_file()).then_some(dir)
}

/// all-MiniLM-L6-v2 on the CPU.
pub struct Embedder {
    model: BertModel,
    tokenizer: Tokenizer,
    device: Device,
}

impl Embedder {
    /// Loads `model.safetensors`, `tokenizer.json` and `config.json` from `dir`.
    pub fn load(dir: &Path) -> Result<Self> {
        let read = |name: &str| {
            let path = dir.join(name);
            std::fs::read(&path).map_err(|e| Error::File(path, e.to_string()))
        };
        let config: Config = serde_json::from_slice(&read("config.json")?)
            .map_err(|e| Error::File(dir.join("config.json"), e.to_string()))?;
        let mut tokenizer =
            Tokenizer::from_bytes(read("tokenizer.json")?).map_err(|e| Error::Tokenizer(e.to_string()))?;
        // The bundled tokenizer pads and truncates to 128 tokens: read up to MAX_TOKENS instead,
        // and pad only to the longest text of each batch.
        tokenizer
            .with_truncation(Some(TruncationParams { max_length: MAX_TOKENS, ..Default::default() }))
            .map_err(|e| Error::Tokenizer(e.to_string()))?;
        tokenizer.with_padding(Some(PaddingParams { strategy: PaddingStrategy::BatchLongest, ..Default::default() }));
        let device = Device::Cpu;
        let weights = read("model.safetensors")?;
        let vb = VarBuilder::from_slice_safetensors(&weights, DType::F32, &device)?;
        let model = BertModel::load(vb, &config)?;
        Ok(Self { model, tokenizer, device })
    }

    /// One unit vector per text, in order. Texts are batched by length, so a batch pads little.
    pub fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>> {
        let mut order: Vec<usize> = (0..texts.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(texts[i].len()));
        let mut out = vec![Vec::new(); texts.len()];
        for chunk in order.chunks(BATCH) {
            let batch: Vec<&str> = chunk.iter().map(|&i| texts[i]).collect();
            for (i, v) in chunk.iter().zip(self.embed_batch(&batch)?) {
                out[*i] = v;
            }
        }
        Ok(out)
    }

    /// The embedding of one text.
    pub fn embed_one(&self, text: &str) -> Result<Vec<f32>> {
        Ok(self.embed(&[text])?.remove(0))
    }

    fn embed_batch(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>> {
        let encodings =
            self.tokenizer.encode_batch(texts.to_vec(), true).map_err(|e| Error::Tokenizer(e.to_string()))?;
        let n = encodings.len();
        let len = encodings.first().map_or(0, |e| e.get_ids().len());
        let mut ids = Vec::with_capacity(n * len);
        let mut mask = Vec::with_capacity(n * len);
        for e in &encodings {
            ids.extend_from_slice(e.get_ids());
            mask.extend_from_slice(e.get_attention_mask());
        }
        let ids = Tensor::from_vec(ids, (n, len), &self.device)?;
        let mask = Tensor::from_vec(mask, (n, len), &self.device)?;
        // One segment: token types are all zero.
        let types = ids.zeros_like()?;
        let hidden = self.model.forward(&ids, &types, Some(&mask))?; // (n, len, DIM)
                                                                     // Mean of the real tokens' states (padding masked out), then unit length.
        let mask = mask.to_dtype(DType::F32)?.unsqueeze(2)?; // (n, len, 1)
        let summed = hidden.broadcast_mul(&mask)?.sum(1)?; // (n, DIM)
        let counts = mask.sum(1)?.clamp(1e-9, f64::MAX)?; // (n, 1)
        let pooled = summed.broadcast_div(&counts)?;
        let mut rows = pooled.to_vec2::<f32>()?;
        for row in &mut rows {
            normalize(row);
        }
        Ok(rows)
    }
}

/// Scales `v` to unit length (a zero vector stays zero).
pub fn normalize(v: &mut [f32]) {
    let norm = dot(v, v).sqrt();
    if norm > 0.0 {
        v.iter_mut().for_each(|x| *x /= norm);
    }
}

/// The dot product: the cosine of two unit vectors.
#[inline]
pub fn dot(a: &[f32], b: &[f32]) -> f32 {
    // Eight running sums the compiler keeps in vector registers.
    let mut acc = [0f32; 8];
    let (ca, cb) = (a.chunks_exact(8), b.chunks_exact(8));
    let tail: f32 = ca.remainder().iter().zip(cb.remainder()).map(|(x, y)| x * y).sum();
    for (x, y) in ca.zip(cb) {
        for (acc, (x, y)) in acc.iter_mut().zip(x.iter().zip(y)) {
            *acc += x * y;
        }
    }
    acc.iter().sum::<f32>() + tail
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dot_and_normalize() {
        let mut v: Vec<f32> = (0..19).map(|i| i as f32 - 4.0).collect();
        let naive: f32 = v.iter().map(|x| x * x).sum();
        assert!((dot(&v, &v) - naive).abs() < 1e-3);
        normalize(&mut v);
        assert!((dot(&v, &v) - 1.0).abs() < 1e-5);
        let mut zero = vec![0f32; 5];
        normalize(&mut zero);
        assert_eq!(zero, vec![0f32; 5]);
    }

    #[test]
    fn locate_requires_every_file() {
        let dir = std::env::temp_dir().join(format!("needl-embed-locate-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for f in &MODEL_FILES[1..] {
            std::fs::write(dir.join(f), b"{}").unwrap();
        }
        assert_eq!(locate(Some(&dir)), None, "the weights are missing");
        std::fs::write(dir.join(MODEL_FILES[0]), b"x").unwrap();
        assert_eq!(locate(Some(&dir)), Some(dir.clone()));
        assert!(Embedder::load(&dir).is_err(), "unreadable files are an error, not a panic");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
