//! Choosing which candidate passages an answer reads: maximal marginal relevance over tf-idf term
//! vectors, so that five passages say five things rather than one thing five times, with a cap
//! per document so that one long document cannot crowd out the rest.

use std::collections::HashMap;

/// A passage as the selection sees it.
pub struct Item<'a> {
    /// Relevance in [0, 1].
    pub relevance: f32,
    /// The document it belongs to: at most `per_document` items of one are kept.
    pub document: &'a str,
    pub terms: &'a [String],
}

/// How the selection trades relevance against novelty.
#[derive(Debug, Clone, Copy)]
pub struct Diversity {
    /// How many items to keep.
    pub keep: usize,
    /// At most this many items of one document.
    pub per_document: usize,
    /// Weight of relevance against novelty (1.0: relevance only). 0.7 is the usual MMR choice:
    /// novelty breaks near-ties, it does not promote weak passages over strong ones.
    pub lambda: f32,
    /// Items at least this similar (cosine) to one already kept are dropped as near-duplicates
    /// (the same wire story in two feeds, a repeated disclaimer).
    pub duplicate: f32,
}

/// Indexes of the chosen items, in the order chosen (most relevant first).
pub fn select(items: &[Item<'_>], diversity: Diversity) -> Vec<usize> {
    let vectors = vectors(items);
    let mut chosen: Vec<usize> = Vec::new();
    let mut per_document: HashMap<&str, usize> = HashMap::new();
    let mut open: Vec<usize> = (0..items.len()).collect();
    while chosen.len() < diversity.keep && !open.is_empty() {
        let mut best: Option<(usize, f32)> = None;
        open.retain(|&i| {
            let full = per_document.get(items[i].document).copied().unwrap_or(0) >= diversity.per_document;
            let similarity = chosen.iter().map(|&j| cosine(&vectors[i], &vectors[j])).fold(0.0f32, f32::max);
            if full || similarity >= diversity.duplicate {
                return false;
            }
            let score = diversity.lambda * items[i].relevance - (1.0 - diversity.lambda) * similarity;
            if best.is_none_or(|(_, b)| score > b) {
                best = Some((i, score));
            }
            true
        });
        let Some((i, _)) = best else { break };
        chosen.push(i);
        *per_document.entry(items[i].document).or_default() += 1;
        open.retain(|&j| j != i);
    }
    chosen
}

type Vector = HashMap<String, f32>;

/// Unit-length tf-idf vectors, idf taken over the items themselves.
fn vectors(items: &[Item<'_>]) -> Vec<Vector> {
    let mut df: HashMap<&str, f32> = HashMap::new();
    for item in items {
        let mut seen: Vec<&str> = item.terms.iter().map(String::as_str).collect();
        seen.sort_unstable();
        seen.dedup();
        for t in seen {
            *df.entry(t).or_default() += 1.0;
        }
    }
    let n = items.len() as f32;
    items
        .iter()
        .map(|item| {
            let mut tf: HashMap<String, f32> = HashMap::new();
            for t in item.terms {
                *tf.entry(t.clone()).or_default() += 1.0;
            }
            let mut v: Vector =
                tf.into_iter().map(|(t, f)| (t.clone(), (1.0 + f.ln()) * (1.0 + n / df[t.as_str()]).ln())).collect();
            let norm = v.values().map(|w| w * w).sum::<f32>().sqrt();
            if norm > 0.0 {
                v.values_mut().for_each(|w| *w /= norm);
            }
            v
        })
        .collect()
}

fn cosine(a: &Vector, b: &Vector) -> f32 {
    let (small, large) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    small.iter().filter_map(|(t, w)| large.get(t).map(|x| w * x)).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn terms(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn a_near_duplicate_gives_way_to_a_less_relevant_passage_that_says_something_new() {
        let a = terms("steel tariff raise cost carmaker price");
        let b = terms("steel tariff raise cost carmaker price warn");
        let c = terms("steel tariff retaliation europe export");
        let items = [
            Item { relevance: 1.0, document: "x", terms: &a },
            Item { relevance: 0.95, document: "y", terms: &b },
            Item { relevance: 0.8, document: "z", terms: &c },
        ];
        let diversity = Diversity { keep: 2, per_document: 2, lambda: 0.7, duplicate: 0.9 };
        assert_eq!(select(&items, diversity), vec![0, 2]);
    }

    #[test]
    fn no_document_gets_more_than_its_share() {
        let t = [terms("a b"), terms("c d"), terms("e f"), terms("g h")];
        let items: Vec<Item> = t
            .iter()
            .enumerate()
            .map(|(i, t)| Item { relevance: 1.0 - i as f32 * 0.1, document: if i < 3 { "x" } else { "y" }, terms: t })
            .collect();
        let diversity = Diversity { keep: 4, per_document: 2, lambda: 0.7, duplicate: 0.9 };
        assert_eq!(select(&items, diversity), vec![0, 1, 3]);
    }
}
