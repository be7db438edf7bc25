//! The embedder against reference values computed independently (a NumPy forward pass over the
//! same weights, `embed/tests/reference.py`). Skipped, with a message, when the model is absent
//! (`scripts/setup` fetches it; `NEEDL_EMBEDDING_MODEL` points elsewhere).

use embed::{dot, Embedder, TopicModel, DIM};

const TEXTS: [&str; 3] = [
    "The central bank raised interest rates by 50 basis points to curb inflation.",
    "Acme Corp agreed to acquire Widget Inc for $2 billion in cash.",
    "The striker scored twice as the home side won the cup final.",
];
/// First eight components of each text's embedding, from reference.py.
const FIRST8: [[f32; 8]; 3] = [
    [0.013594, -0.014819, -0.068913, 0.009941, 0.034136, 0.002208, -0.043451, 0.040619],
    [-0.100558, -0.003205, 0.033332, -0.008029, -0.018599, -0.061455, 0.118986, 0.064086],
    [0.046952, 0.059571, -0.063111, 0.067044, 0.093509, 0.077570, 0.092719, 0.099363],
];
/// Cosines (0,1), (0,2), (1,2), from reference.py.
const COSINES: [f32; 3] = [0.129446, -0.045656, 0.002403];

fn embedder() -> Option<Embedder> {
    match embed::locate(None) {
        Some(dir) => Some(Embedder::load(&dir).expect("the located model loads")),
        None => {
            eprintln!("SKIPPED: no embedding model (run scripts/setup, or set NEEDL_EMBEDDING_MODEL)");
            None
        }
    }
}

#[test]
fn matches_the_reference_forward_pass() {
    let Some(e) = embedder() else { return };
    // Batched with a long padded neighbour: padding must not change a text's embedding.
    let long = "word ".repeat(400);
    let mut texts = TEXTS.to_vec();
    texts.push(&long);
    let vectors = e.embed(&texts).unwrap();
    assert_eq!(vectors.len(), 4);
    for (v, want) in vectors.iter().zip(FIRST8) {
        assert_eq!(v.len(), DIM);
        assert!((dot(v, v) - 1.0).abs() < 1e-5, "unit length");
        for (got, want) in v.iter().zip(want) {
            assert!((got - want).abs() < 1e-5, "component {got} vs reference {want}");
        }
    }
    let pairs = [(0, 1), (0, 2), (1, 2)];
    for ((i, j), want) in pairs.into_iter().zip(COSINES) {
        assert!((dot(&vectors[i], &vectors[j]) - want).abs() < 1e-5);
    }
    // Alone, unpadded: the same vector.
    let alone = e.embed_one(TEXTS[1]).unwrap();
    assert!(dot(&alone, &vectors[1]) > 0.99999);
    // Longer than 256 tokens: the text is truncated, not rejected.
    assert_eq!(vectors[3].len(), DIM);
    assert!(e.embed(&[]).unwrap().is_empty());
}

#[test]
fn classifies_finance_topics_from_descriptions() {
    let Some(e) = embedder() else { return };
    let mut m = TopicModel::new(0.2);
    m.describe(&e, "macro", "Inflation, interest rates, central banks, growth and trade policy", &[]).unwrap();
    m.describe(&e, "mergers", "Acquisitions, mergers, takeovers and stake sales", &[]).unwrap();
    m.describe(&e, "dividends", "Dividends declared, buybacks and share repurchases", &[]).unwrap();
    let v = e.embed(&TEXTS).unwrap();
    assert_eq!(m.classify(&v[0]).map(|c| c.0), Some("macro"));
    assert_eq!(m.classify(&v[1]).map(|c| c.0), Some("mergers"));
    assert_eq!(m.classify(&v[2]), None, "a football report is none of these");
}
