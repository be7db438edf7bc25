//! Hybrid ranking: a search's keyword (BM25) ranking fused with the documents' embeddings.
//!
//! The index ranks the documents that match a query by BM25. When the caller holds an embedding
//! of the documents (the service embeds every document's title and opening with the offline
//! MiniLM model), [`SearchIndex::search_ranked`] re-orders the first [`POOL`] documents of that
//! ranking by reciprocal-rank fusion of two orders: the keyword order, and the same documents'
//! order by how similar their embeddings are to the query's.
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
/// Reciprocal-rank fusion's constant: a document at rank `r` of an order scores `1 / (K + r)`.
/// 60 is the method's usual value; it was not tuned here.
pub const RRF_K: f32 = 60.0;

/// The documents' embeddings, held by the caller.
pub trait Similarity: Send + Sync {
    /// The cosine similarity of each of `deeplinks` to `query`, in order; `None` for a document
    /// without an embedding yet. `None` in all when the query cannot be embedded, and the keyword
    /// ranking then stands.
    fn similarities(&self, query: &str, deeplinks: &[String]) -> Option<Vec<Option<f32>>>;
}

/// The keyword order (positions `0..similarities.len()`) fused with the order by `similarities`:
/// the positions, best first. A document without an embedding counts its keyword rank twice, so
/// it neither gains nor loses for having none; ties keep the keyword order.
pub fn fuse(similarities: &[Option<f32>]) -> Vec<usize> {
    let mut by_similarity: Vec<usize> = (0..similarities.len()).filter(|&i| similarities[i].is_some()).collect();
    // Most similar first; equal similarities in keyword order (the sort is stable).
    by_similarity.sort_by(|&a, &b| similarities[b].unwrap_or(0.0).total_cmp(&similarities[a].unwrap_or(0.0)));
    let mut dense_rank = vec![None; similarities.len()];
    for (rank, &i) in by_similarity.iter().enumerate() {
        dense_rank[i] = Some(rank + 1);
    }
    let score = |i: usize| {
        let keyword = i + 1;
        let dense = dense_rank[i].unwrap_or(keyword);
        // Summed in one order whatever the ranks' order, so that ranks (1, 4) and (4, 1) tie
        // exactly and the tie goes to the keyword order.
        let (low, high) = (keyword.min(dense), keyword.max(dense));
        1.0 / (RRF_K + low as f32) + 1.0 / (RRF_K + high as f32)
    };
    let mut order: Vec<usize> = (0..similarities.len()).collect();
    order.sort_by(|&a, &b| score(b).total_cmp(&score(a)));
    order
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
        let deeplinks: Vec<String> = ranked.into_iter().map(|(deeplink, _)| deeplink).collect();
        let Some(similarities) = similarity.similarities(&req.q, &deeplinks) else { return self.search(req) };
        if similarities.len() != deeplinks.len() {
            return self.search(req);
        }
        let order = fuse(&similarities);
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
    fn agreement_between_the_orders_decides_and_a_missing_embedding_is_neutral() {
        // Keyword order a, b, c, d; by similarity d, c, b, a. a (ranks 1 and 4) and d (4 and 1)
        // tie, and the tie keeps the keyword order; a first place in either order outweighs two
        // middle places (b: 2 and 3).
        assert_eq!(fuse(&[Some(0.1), Some(0.2), Some(0.3), Some(0.4)]), vec![0, 3, 1, 2]);
        // Two documents that swap places between the orders tie: the keyword order stands.
        assert_eq!(fuse(&[Some(0.2), Some(0.9), Some(0.1)]), vec![0, 1, 2]);
        // The keyword runner-up, the most similar, passes the keyword winner, the least similar.
        assert_eq!(fuse(&[Some(0.1), Some(0.9), Some(0.5)]), vec![1, 0, 2]);
        // Without embeddings the keyword order stands.
        assert_eq!(fuse(&[None, None, None]), vec![0, 1, 2]);
        // A document without one keeps its place against one whose orders agree with its.
        assert_eq!(fuse(&[None, Some(0.5)]), vec![0, 1]);
        assert!(fuse(&[]).is_empty());
    }

    #[test]
    fn a_document_far_down_the_keyword_order_rises_only_as_far_as_the_fusion_says() {
        // 50 documents; the last by keywords is by far the most similar.
        let mut similarities: Vec<Option<f32>> = (0..50).map(|i| Some(0.5 - i as f32 * 0.001)).collect();
        similarities[49] = Some(0.99);
        let order = fuse(&similarities);
        let at = order.iter().position(|&i| i == 49).unwrap();
        // 1/(60+50) + 1/(60+1) beats every document whose two ranks are both past about 20.
        assert!((15..30).contains(&at), "rose to {at}");
        assert_eq!(order[0], 0);
    }
}
