//! Hybrid ranking: a search's keyword (BM25) ranking fused with the documents' embeddings.
//!
//! The index ranks the documents that match a query by BM25. When the caller holds an embedding
//! of the documents (the service embeds every document's title and opening with the offline
//! MiniLM model), [`SearchIndex::search_ranked`] re-orders the first [`POOL`] documents of that
//! ranking by a weighted sum of two scores, each standardised over the pool: the document's BM25
//! score and the similarity of its embedding to the query's ([`fuse`]).
//!
//! Why re-order the keyword pool rather than add the nearest vectors of the whole store: what is
//! shown is still what matches (the count, the tabs, the highlights and the pages agree), access
//! and filters stay the index's business, and a page past the pool goes on in keyword order with
//! nothing shown twice or left out. The price: a document that holds none of the query's words is
//! never brought in by its embedding (docs/architecture.md gives the figures).

use std::collections::HashMap;

use crate::query::{ranks_by_words, Found, Hit, Request, SearchError, Sort, MAX_PAGE};
use crate::SearchIndex;

/// How many documents of the keyword ranking are re-ordered.
pub const POOL: usize = 200;
/// The keyword score's weight in the fused score; the embedding similarity weighs the rest.
///
/// Chosen on SciFact (`needl-bench --only search`) with the even-numbered test queries and checked
/// on the odd ones: nDCG@10 on the odd half 0.728 against 0.705 for reciprocal-rank fusion
/// (k = 60), which this replaced; 0.3 to 0.5 all gave 0.728 there. Standardising (z-scores) rather
/// than scaling each score to 0..1 changed little at the best weight and much less away from it.
pub const KEYWORD_WEIGHT: f32 = 0.3;

/// The documents' embeddings, held by the caller.
pub trait Similarity: Send + Sync {
    /// The cosine similarity of each of `deeplinks` to `query`, in order; `None` for a document
    /// without an embedding yet. `None` in all when the query cannot be embedded, and the keyword
    /// ranking then stands.
    fn similarities(&self, query: &str, deeplinks: &[String]) -> Option<Vec<Option<f32>>>;
}

/// The keyword ranking (positions `0..keyword.len()`, best first, with their BM25 scores) fused
/// with the documents' `similarities` to the query: the positions, best first. Each score is
/// standardised over the documents that have one (how many standard deviations above the mean),
/// so neither BM25's unbounded scale nor the narrow band cosine similarities fall in decides
/// alone, and the two are summed with [`KEYWORD_WEIGHT`]. A document without an embedding takes
/// its keyword score's place there too, so it neither gains nor loses for having none; ties keep
/// the keyword order.
pub fn fuse(keyword: &[f32], similarities: &[Option<f32>]) -> Vec<usize> {
    let n = keyword.len().min(similarities.len());
    let keyword = standardised(&keyword[..n].iter().map(|&s| Some(s)).collect::<Vec<_>>());
    let dense = standardised(&similarities[..n]);
    let score: Vec<f32> = (0..n)
        .map(|i| {
            let k = keyword[i].unwrap_or(0.0);
            KEYWORD_WEIGHT * k + (1.0 - KEYWORD_WEIGHT) * dense[i].unwrap_or(k)
        })
        .collect();
    let mut order: Vec<usize> = (0..n).collect();
    // Stable: equal scores keep the keyword order.
    order.sort_by(|&a, &b| score[b].total_cmp(&score[a]));
    order
}

/// Each value as standard deviations from the mean of those present; 0 for all when they do not
/// vary (one document, or all alike), so that score then decides nothing.
fn standardised(values: &[Option<f32>]) -> Vec<Option<f32>> {
    let present: Vec<f32> = values.iter().flatten().copied().filter(|v| v.is_finite()).collect();
    if present.is_empty() {
        return vec![None; values.len()];
    }
    let mean = present.iter().sum::<f32>() / present.len() as f32;
    let spread = (present.iter().map(|v| (v - mean).powi(2)).sum::<f32>() / present.len() as f32).sqrt();
    values
        .iter()
        .map(|v| v.filter(|v| v.is_finite()).map(|v| if spread > f32::EPSILON { (v - mean) / spread } else { 0.0 }))
        .collect()
}

impl SearchIndex {
    /// [`search`](Self::search), with the first [`POOL`] documents re-ordered by [`fuse`] when
    /// `similarity` is given and the request ranks by words (plain words, by relevance, best
    /// first). The count, highlights and scores are the keyword search's; only the order of the
    /// pool changes, and pages past it are the keyword search's own.
    pub fn search_ranked(&self, req: &Request, similarity: Option<&dyn Similarity>) -> Result<Found, SearchError> {
        let Some(similarity) = similarity else { return self.search(req) };
        if req.sort != Sort::Relevance || !req.descending || !ranks_by_words(&req.q, req.exact) || req.offset >= POOL {
            return self.search(req);
        }
        let (ranked, count) = self.ranking(req, POOL)?;
        let (deeplinks, scores): (Vec<String>, Vec<f32>) = ranked.into_iter().unzip();
        let Some(similarities) = similarity.similarities(&req.q, &deeplinks) else { return self.search(req) };
        if similarities.len() != deeplinks.len() {
            return self.search(req);
        }
        let order = fuse(&scores, &similarities);
        let end = req.offset + req.limit.clamp(1, MAX_PAGE);
        let page: Vec<String> =
            order.iter().skip(req.offset).take(end - req.offset).map(|&i| deeplinks[i].clone()).collect();
        let mut hits = Vec::with_capacity(page.len());
        if !page.is_empty() {
            // The page's documents with their highlights, put in the fused order.
            let mut one = req.clone();
            one.deeplinks = page.clone();
            one.offset = 0;
            one.limit = page.len();
            let mut found: HashMap<String, Hit> =
                self.search(&one)?.hits.into_iter().map(|h| (h.deeplink.clone(), h)).collect();
            hits.extend(page.iter().filter_map(|d| found.remove(d)));
        }
        // A page that runs past the pool goes on in keyword order.
        if end > deeplinks.len() && count > deeplinks.len() {
            let mut rest = req.clone();
            rest.offset = deeplinks.len().max(req.offset);
            rest.limit = end - rest.offset;
            hits.extend(self.search(&rest)?.hits);
        }
        Ok(Found { hits, count })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_two_scores_decide_together_and_a_missing_embedding_is_neutral() {
        let keyword = [9.0, 8.0, 7.0, 6.0];
        // The orders agree: nothing moves.
        assert_eq!(fuse(&keyword, &[Some(0.9), Some(0.8), Some(0.7), Some(0.6)]), vec![0, 1, 2, 3]);
        // The last by keywords is by far the most similar: it comes first, and the others, about
        // as similar as each other, keep their keyword order.
        assert_eq!(fuse(&keyword, &[Some(0.30), Some(0.31), Some(0.32), Some(0.9)]), vec![3, 0, 1, 2]);
        // Without embeddings the keyword order stands, and so it does where similarities do not vary.
        assert_eq!(fuse(&keyword, &[None, None, None, None]), vec![0, 1, 2, 3]);
        assert_eq!(fuse(&keyword, &[Some(0.5); 4]), vec![0, 1, 2, 3]);
        // A document without an embedding keeps its keyword standing (first, here), while the
        // more similar of the other two passes the less similar.
        assert_eq!(fuse(&[2.0, 1.0, 0.0], &[None, Some(0.1), Some(0.9)]), vec![0, 2, 1]);
        assert!(fuse(&[], &[]).is_empty());
        assert_eq!(fuse(&[3.0], &[Some(0.2)]), vec![0]);
    }

    #[test]
    fn a_large_keyword_score_is_weighed_by_its_distance_from_the_rest_not_its_size() {
        // One keyword score far above the rest (a rare word matched) keeps first place against a
        // slightly more similar document; the scale of BM25 itself changes nothing.
        let similarities = [Some(0.50), Some(0.52), Some(0.30), Some(0.31)];
        let order = fuse(&[30.0, 5.0, 4.0, 3.0], &similarities);
        assert_eq!(order[0], 0);
        let scaled: Vec<f32> = [30.0, 5.0, 4.0, 3.0].iter().map(|s| s * 100.0).collect();
        assert_eq!(fuse(&scaled, &similarities), order);
    }
}
