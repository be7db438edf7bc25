//! Topics as centroids in embedding space.
//!
//! A topic starts from its description (and, optionally, a few example texts): their embeddings'
//! weighted mean is its anchor. The user's feedback moves it Rocchio-style: the centroid is
//! `α·anchor + β·mean(more like this) − γ·mean(less like this)`, renormalised. An item's score for
//! a topic is the cosine of its embedding with the centroid, optionally measured from a background
//! point (the mean embedding of the corpus), which removes what every item shares and separates
//! topics better. An item belongs to the best topic when that score reaches the threshold and
//! beats the runner-up by the margin; otherwise to none of them.
//!
//! Adapted to a corpus without labels ([`TopicModel::adapt`], then
//! [`TopicModel::discriminate`]), the best topic is chosen by a linear discriminant with one
//! covariance shared by all topics, fitted to the corpus items the topics take in: directions in
//! which every topic's items vary alike count less than the cosine gives them. A topic with
//! enough examples is two classes of that discriminant, one per kind of example. The threshold
//! stays a cosine with the chosen topic's centroid, so "none of these" keeps its meaning.
//!
//! A topic's [`TopicRule`] is a weight vector and a bias: re-applying it to stored embeddings is
//! one dot product per item, with no model.

use crate::{dot, normalize, Embedder, Error, Result, DIM};

/// Weight of the original definition in a refined centroid (Rocchio's α).
pub const ALPHA: f32 = 1.0;
/// Weight of the "more like this" items (β).
pub const BETA: f32 = 0.75;
/// Weight of the "less like this" items (γ).
pub const GAMMA: f32 = 0.25;
/// Shrinkage of the shared covariance toward a multiple of the identity in
/// [`TopicModel::discriminate`]: 384 dimensions from a few thousand items need it. Chosen on the
/// even rows of AG News test (0.05, 0.2 and 0.5 tried; docs/topics.md).
pub const SHRINK: f64 = 0.2;
/// How many examples a topic's description counts as in its anchor (and in the discriminant's
/// topic means), unless [`TopicModel::description_weight`] says otherwise. With 32 examples the
/// examples still make 4/5 of the anchor, but a few atypical ones cannot pull the topic far from
/// what its description says (8 and 16 alike on the even rows of AG News test; docs/topics.md).
pub const DESCRIPTION_WEIGHT: f32 = 8.0;
/// Classes per topic in [`TopicModel::discriminate`] when the topic has [`SPLIT_EXAMPLES`]
/// examples or more: its examples are split in two groups, each a class of the discriminant with
/// its own mean, and the topic scores as the better of the two. A topic is often two kinds of
/// item (science news: space and health as well as computers), which one mean per topic
/// represents badly; the examples show the kinds, and the unlabelled items then fill them in.
pub const SUBCLASSES: usize = 2;
/// Examples a topic needs before its examples are split into [`SUBCLASSES`] (4 per class).
pub const SPLIT_EXAMPLES: usize = 4 * SUBCLASSES;

#[derive(Debug, Clone)]
struct Topic {
    key: String,
    /// Weighted sum of the description's and the examples' embeddings, and the sum of weights.
    anchor: Vec<f32>,
    anchor_weight: f32,
    more: Vec<f32>,
    more_n: u32,
    less: Vec<f32>,
    less_n: u32,
    /// Mean of the corpus items last assigned to the topic by [`TopicModel::adapt`], if any.
    adapted: Option<Vec<f32>>,
    /// The description's and examples' embeddings, each with its weight: they join the corpus
    /// items assigned to the topic when [`TopicModel::discriminate`] estimates its mean.
    defined: Vec<(Vec<f32>, f32)>,
    /// Unit vector scored against (after the background is taken off).
    centroid: Vec<f32>,
    /// `centroid · background`, subtracted from every score.
    bias: f32,
}

/// Topics and how an item is assigned to one of them, or to none.
#[derive(Debug, Clone)]
pub struct TopicModel {
    topics: Vec<Topic>,
    /// Lowest score that counts as a match.
    pub threshold: f32,
    /// How far the best topic must lead the second for an item to be assigned.
    pub margin: f32,
    /// How many examples a description counts as in the anchor ([`DESCRIPTION_WEIGHT`] unless
    /// changed before [`define`](Self::define)).
    pub description_weight: f32,
    background: Option<Vec<f32>>,
    /// Per class, the weights and bias of the linear discriminant that chooses the best topic
    /// (a topic scores as its best class), once [`discriminate`](Self::discriminate) fitted one;
    /// any change to the topics drops it (back to the nearest centroid).
    discriminant: Option<Vec<(Vec<f32>, f32)>>,
    /// The topic of each of the discriminant's classes (a topic with enough examples has
    /// [`SUBCLASSES`]).
    classes: Vec<usize>,
}

/// One topic's rule over stored embeddings: `weights · x − bias ≥ threshold`.
#[derive(Debug, Clone)]
pub struct TopicRule {
    pub key: String,
    pub weights: Vec<f32>,
    pub bias: f32,
    pub threshold: f32,
}

impl TopicRule {
    /// The rule's score for one embedding.
    #[inline]
    pub fn score(&self, embedding: &[f32]) -> f32 {
        dot(&self.weights, embedding) - self.bias
    }

    pub fn matches(&self, embedding: &[f32]) -> bool {
        self.score(embedding) >= self.threshold
    }

    /// The positions of the matching embeddings in `stored`, [`DIM`] floats each, end to end.
    pub fn apply(&self, stored: &[f32]) -> Vec<u32> {
        stored.chunks_exact(DIM).enumerate().filter(|(_, e)| self.matches(e)).map(|(i, _)| i as u32).collect()
    }
}

impl TopicModel {
    /// No topics yet; `threshold` is the lowest score that counts as a match.
    pub fn new(threshold: f32) -> Self {
        Self {
            topics: Vec::new(),
            threshold,
            margin: 0.0,
            description_weight: DESCRIPTION_WEIGHT,
            background: None,
            discriminant: None,
            classes: Vec::new(),
        }
    }

    /// Adds (or redefines) a topic from its description's embedding and its examples' embeddings.
    /// Feedback given to an earlier definition of the same key is dropped.
    pub fn define(&mut self, key: &str, description: &[f32], examples: &[Vec<f32>]) -> Result<()> {
        check(description)?;
        let mut anchor: Vec<f32> = description.iter().map(|x| x * self.description_weight).collect();
        for e in examples {
            check(e)?;
            anchor.iter_mut().zip(e).for_each(|(a, x)| *a += x);
        }
        let topic = Topic {
            key: key.to_string(),
            anchor,
            anchor_weight: self.description_weight + examples.len() as f32,
            more: vec![0.0; DIM],
            more_n: 0,
            less: vec![0.0; DIM],
            less_n: 0,
            adapted: None,
            defined: std::iter::once((description.to_vec(), self.description_weight))
                .chain(examples.iter().map(|e| (e.clone(), 1.0)))
                .collect(),
            centroid: Vec::new(),
            bias: 0.0,
        };
        match self.topics.iter().position(|t| t.key == key) {
            Some(i) => self.topics[i] = topic,
            None => self.topics.push(topic),
        }
        let i = self.topics.iter().position(|t| t.key == key).expect("just added");
        self.refresh(i);
        Ok(())
    }

    /// Embeds the description and examples, then [`define`](Self::define)s the topic.
    pub fn describe(&mut self, embedder: &Embedder, key: &str, description: &str, examples: &[&str]) -> Result<()> {
        let mut texts = vec![description];
        texts.extend_from_slice(examples);
        let mut vectors = embedder.embed(&texts)?;
        let description = vectors.remove(0);
        self.define(key, &description, &vectors)
    }

    /// Measures scores from `mean` (the corpus's mean embedding) instead of the origin; `None`
    /// measures from the origin again.
    pub fn set_background(&mut self, mean: Option<Vec<f32>>) -> Result<()> {
        if let Some(m) = &mean {
            check(m)?;
        }
        self.background = mean;
        for i in 0..self.topics.len() {
            self.refresh(i);
        }
        Ok(())
    }

    /// Adapts the topics to a corpus without labels: each round assigns every item to its topic
    /// (as [`classify`](Self::classify) does) and adds each topic's assigned mean to its centroid
    /// with weight 1 (anchor and feedback keep theirs). The definitions stay the source: a round
    /// starts from them, not from the previous round's centroids, and a topic no item falls in
    /// keeps its definition.
    pub fn adapt(&mut self, corpus: &[Vec<f32>], rounds: usize) {
        for _ in 0..rounds {
            let mut sums = vec![vec![0f32; DIM]; self.topics.len()];
            let mut counts = vec![0u32; self.topics.len()];
            for e in corpus {
                if let Some((key, _)) = self.classify(e) {
                    let i = self.topics.iter().position(|t| t.key == key).expect("a topic's key");
                    sums[i].iter_mut().zip(e).for_each(|(s, x)| *s += x);
                    counts[i] += 1;
                }
            }
            for (i, (mut sum, n)) in sums.into_iter().zip(counts).enumerate() {
                self.topics[i].adapted = (n > 0).then(|| {
                    sum.iter_mut().for_each(|x| *x /= n as f32);
                    sum
                });
                self.refresh(i);
            }
        }
    }

    /// Fits the linear discriminant that then chooses each item's best topic, to a corpus
    /// without labels: `rounds` times, every item is classified (as [`classify`](Self::classify)
    /// does: items about none of the topics are left out), each class's mean is taken over its
    /// items and its share of the topic's description and examples, and one covariance of the
    /// items around their classes' means is shared by all classes (shrunk by [`SHRINK`]); a
    /// class's weights are that covariance's inverse times its mean, and a topic scores as its
    /// best class. A topic is one class, or [`SUBCLASSES`] when it has [`SPLIT_EXAMPLES`]
    /// examples or more: its examples are then split into groups by 2-means, each group a class,
    /// and an item the topic takes joins the class whose examples it is nearest (from the second
    /// round, the class that scores it highest). A class no item falls in keeps its definition as
    /// its mean. Nothing changes when no item is classified or the covariance is degenerate.
    ///
    /// The cost is about `DIM² / 2` multiply-adds per corpus item and round: callers pass a
    /// sample of a large corpus.
    pub fn discriminate(&mut self, corpus: &[Vec<f32>], rounds: usize) {
        // Per class: its topic, and the unit vector that places the topic's items among its
        // classes before a discriminant over these classes exists; the definitions, per class.
        let (mut classes, mut seeds) = (Vec::new(), Vec::new());
        let mut defined: Vec<(&[f32], f32, usize)> = Vec::new();
        for (t, topic) in self.topics.iter().enumerate() {
            let (description, weight) = &topic.defined[0];
            let examples: Vec<&[f32]> = topic.defined.iter().skip(1).map(|(e, _)| e.as_slice()).collect();
            if examples.len() < SPLIT_EXAMPLES {
                defined.extend(topic.defined.iter().map(|(e, w)| (e.as_slice(), *w, classes.len())));
                classes.push(t);
                seeds.push(topic.centroid.clone());
                continue;
            }
            let first = classes.len();
            for group in split(&examples, SUBCLASSES) {
                defined.extend(group.iter().map(|&j| (examples[j], 1.0, classes.len())));
                classes.push(t);
                seeds.push(unit_mean(group.iter().map(|&j| examples[j])));
            }
            let nearest = nearest(first..classes.len(), |c| dot(&seeds[c], description));
            defined.push((description.as_slice(), *weight, nearest));
        }
        for _ in 0..rounds {
            let mut items: Vec<(&[f32], f32, usize)> = Vec::new();
            for e in corpus {
                if let Some((key, _)) = self.classify(e) {
                    let t = self.index(key).expect("a topic's key");
                    let own = (0..classes.len()).filter(|c| classes[*c] == t);
                    let class = match &self.discriminant {
                        Some(d) if self.classes == classes => nearest(own, |c| dot(&d[c].0, e) + d[c].1),
                        _ => nearest(own, |c| dot(&seeds[c], e)),
                    };
                    items.push((e, 1.0, class));
                }
            }
            if items.is_empty() {
                return;
            }
            items.extend(defined.iter().copied());
            match linear_discriminant(&items, classes.len(), SHRINK) {
                Some(d) => {
                    self.discriminant = Some(d);
                    self.classes = classes.clone();
                }
                None => return,
            }
        }
    }

    /// A hash of everything that decides how an item is classified (keys, centroids,
    /// discriminant, threshold and margin): two models with the same fingerprint classify alike,
    /// so a classification of stored items can be kept under it.
    pub fn fingerprint(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        let floats = |h: &mut std::collections::hash_map::DefaultHasher, v: &[f32]| {
            v.iter().for_each(|x| x.to_bits().hash(h));
        };
        for t in &self.topics {
            t.key.hash(&mut h);
            floats(&mut h, &t.centroid);
            t.bias.to_bits().hash(&mut h);
        }
        for (w, b) in self.discriminant.iter().flatten() {
            floats(&mut h, w);
            b.to_bits().hash(&mut h);
        }
        self.classes.hash(&mut h);
        self.threshold.to_bits().hash(&mut h);
        self.margin.to_bits().hash(&mut h);
        h.finish()
    }

    /// Whether [`discriminate`](Self::discriminate) fitted a discriminant that is still in use.
    pub fn is_discriminant(&self) -> bool {
        self.discriminant.is_some()
    }

    /// "More like this" (`more = true`) or "less like this" for an item's embedding.
    pub fn feedback(&mut self, key: &str, embedding: &[f32], more: bool) -> Result<()> {
        check(embedding)?;
        let i = self.index(key)?;
        let t = &mut self.topics[i];
        let (sum, n) = if more { (&mut t.more, &mut t.more_n) } else { (&mut t.less, &mut t.less_n) };
        sum.iter_mut().zip(embedding).for_each(|(s, x)| *s += x);
        *n += 1;
        self.refresh(i);
        Ok(())
    }

    /// The topics' keys, in the order scores are given.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.topics.iter().map(|t| t.key.as_str())
    }

    /// One score per topic, in [`keys`](Self::keys) order.
    /// The discriminant's scores once [`discriminate`](Self::discriminate) fitted one, else the
    /// cosines with the centroids.
    pub fn scores(&self, embedding: &[f32]) -> Vec<f32> {
        match &self.discriminant {
            Some(_) => (0..self.topics.len()).map(|i| self.score(i, embedding)).collect(),
            None => self.cosines(embedding),
        }
    }

    /// One cosine per topic with its centroid (from the background, if set), in
    /// [`keys`](Self::keys) order: what the threshold is compared with.
    pub fn cosines(&self, embedding: &[f32]) -> Vec<f32> {
        self.topics.iter().map(|t| dot(&t.centroid, embedding) - t.bias).collect()
    }

    fn cosine(&self, i: usize, embedding: &[f32]) -> f32 {
        dot(&self.topics[i].centroid, embedding) - self.topics[i].bias
    }

    fn score(&self, i: usize, embedding: &[f32]) -> f32 {
        match &self.discriminant {
            Some(d) => d
                .iter()
                .zip(&self.classes)
                .filter(|(_, t)| **t == i)
                .map(|((w, b), _)| dot(w, embedding) + b)
                .fold(f32::MIN, f32::max),
            None => self.cosine(i, embedding),
        }
    }

    /// The best topic (its index in [`keys`](Self::keys)) and score, whatever the threshold.
    pub fn best(&self, embedding: &[f32]) -> Option<(usize, f32)> {
        self.scores(embedding).into_iter().enumerate().max_by(|a, b| a.1.total_cmp(&b.1))
    }

    /// The topic an item belongs to, or `None` for none of them (below the threshold, or too
    /// close to the runner-up).
    /// The score returned is the cosine with the topic's centroid.
    pub fn classify(&self, embedding: &[f32]) -> Option<(&str, f32)> {
        let scores = self.scores(embedding);
        let (best, score) = scores.iter().copied().enumerate().max_by(|a, b| a.1.total_cmp(&b.1))?;
        let second = scores.iter().enumerate().filter(|(i, _)| *i != best).map(|(_, s)| *s).fold(f32::MIN, f32::max);
        let cosine = self.cosine(best, embedding);
        (cosine >= self.threshold && score - second >= self.margin).then(|| (self.topics[best].key.as_str(), cosine))
    }

    /// Whether `embedding` is classified (as [`classify`](Self::classify) does) into one of the
    /// topics whose positions in [`keys`](Self::keys) are `wanted`. Allocates nothing: it runs
    /// once per stored item when a feed's topics are re-applied.
    pub fn classified_into(&self, embedding: &[f32], wanted: &[usize]) -> bool {
        let (mut best, mut first, mut second) = (usize::MAX, f32::MIN, f32::MIN);
        for i in 0..self.topics.len() {
            let s = self.score(i, embedding);
            if s > first {
                (second, first, best) = (first, s, i);
            } else if s > second {
                second = s;
            }
        }
        best != usize::MAX
            && wanted.contains(&best)
            && first - second >= self.margin
            && self.cosine(best, embedding) >= self.threshold
    }

    /// The rows of `stored` ([`DIM`] floats each, end to end) classified into one of the topics
    /// `wanted` (positions in [`keys`](Self::keys)): a changed topic re-applied to everything
    /// stored, with no model run.
    pub fn select(&self, stored: &[f32], wanted: &[usize]) -> Vec<u32> {
        stored
            .chunks_exact(DIM)
            .enumerate()
            .filter(|(_, e)| self.classified_into(e, wanted))
            .map(|(i, _)| i as u32)
            .collect()
    }

    /// The rule that re-applies one topic to stored embeddings, with the model's threshold.
    pub fn rule(&self, key: &str) -> Result<TopicRule> {
        let t = &self.topics[self.index(key)?];
        Ok(TopicRule { key: t.key.clone(), weights: t.centroid.clone(), bias: t.bias, threshold: self.threshold })
    }

    fn index(&self, key: &str) -> Result<usize> {
        self.topics.iter().position(|t| t.key == key).ok_or_else(|| Error::Topic(format!("no topic {key}")))
    }

    fn refresh(&mut self, i: usize) {
        self.discriminant = None;
        let t = &mut self.topics[i];
        let mut c: Vec<f32> = t.anchor.iter().map(|x| ALPHA * x / t.anchor_weight).collect();
        if t.more_n > 0 {
            c.iter_mut().zip(&t.more).for_each(|(c, x)| *c += BETA * x / t.more_n as f32);
        }
        if t.less_n > 0 {
            c.iter_mut().zip(&t.less).for_each(|(c, x)| *c -= GAMMA * x / t.less_n as f32);
        }
        if let Some(adapted) = &t.adapted {
            c.iter_mut().zip(adapted).for_each(|(c, x)| *c += x);
        }
        if let Some(bg) = &self.background {
            c.iter_mut().zip(bg).for_each(|(c, b)| *c -= b);
        }
        normalize(&mut c);
        t.bias = self.background.as_ref().map_or(0.0, |bg| dot(&c, bg));
        t.centroid = c;
    }
}

/// The weights and bias per topic of the linear discriminant of weighted items `(embedding,
/// weight, topic)` under one covariance shared by all `topics` (equal priors): topic `t` scores
/// `wₜ·x + bₜ` with `wₜ = Σ⁻¹μₜ` and `bₜ = −½ μₜ·Σ⁻¹μₜ`. `Σ` is the items' weighted covariance
/// around their topics' means, shrunk toward `trace(Σ)/DIM · I` by `shrink`. `None` when a topic
/// has no item or `Σ` is not positive definite.
fn linear_discriminant(items: &[(&[f32], f32, usize)], topics: usize, shrink: f64) -> Option<Vec<(Vec<f32>, f32)>> {
    let mut means = vec![vec![0f64; DIM]; topics];
    let mut mass = vec![0f64; topics];
    for (e, w, t) in items {
        means[*t].iter_mut().zip(e.iter()).for_each(|(m, x)| *m += *w as f64 * *x as f64);
        mass[*t] += *w as f64;
    }
    if mass.iter().any(|m| *m <= 0.0) {
        return None;
    }
    for (m, n) in means.iter_mut().zip(&mass) {
        m.iter_mut().for_each(|x| *x /= n);
    }
    // The upper triangle of the scatter around the topics' means.
    let mut cov = vec![0f64; DIM * DIM];
    let mut r = vec![0f64; DIM];
    for (e, w, t) in items {
        r.iter_mut().zip(e.iter().zip(&means[*t])).for_each(|(r, (x, m))| *r = *x as f64 - m);
        let w = *w as f64;
        for i in 0..DIM {
            let ri = w * r[i];
            cov[i * DIM + i..(i + 1) * DIM].iter_mut().zip(&r[i..]).for_each(|(c, rj)| *c += ri * rj);
        }
    }
    let total: f64 = mass.iter().sum();
    let trace = (0..DIM).map(|i| cov[i * DIM + i]).sum::<f64>() / total / DIM as f64;
    for i in 0..DIM {
        for j in i..DIM {
            let v = cov[i * DIM + j] / total * (1.0 - shrink) + if i == j { shrink * trace } else { 0.0 };
            cov[i * DIM + j] = v;
            cov[j * DIM + i] = v;
        }
    }
    let l = cholesky(&cov)?;
    Some(
        means
            .iter()
            .map(|m| {
                let w = cholesky_solve(&l, m);
                let b = -0.5 * w.iter().zip(m).map(|(a, b)| a * b).sum::<f64>();
                (w.into_iter().map(|x| x as f32).collect(), b as f32)
            })
            .collect(),
    )
}

/// `k` groups of `vectors` by spherical k-means (10 rounds), started from the vector farthest
/// from their mean and then, each, from the vector farthest from the groups so far: deterministic.
fn split(vectors: &[&[f32]], k: usize) -> Vec<Vec<usize>> {
    let mean = unit_mean(vectors.iter().copied());
    let farthest = |from: &[Vec<f32>]| {
        (0..vectors.len())
            .min_by(|a, b| {
                let near = |i: usize| from.iter().map(|c| dot(c, vectors[i])).fold(f32::MIN, f32::max);
                near(*a).total_cmp(&near(*b))
            })
            .expect("vectors")
    };
    let mut centres = vec![vectors[farthest(&[mean])].to_vec()];
    while centres.len() < k {
        centres.push(vectors[farthest(&centres)].to_vec());
    }
    let mut groups = vec![Vec::new(); k];
    for _ in 0..10 {
        groups = vec![Vec::new(); k];
        for (i, v) in vectors.iter().enumerate() {
            let c = (0..k).max_by(|a, b| dot(&centres[*a], v).total_cmp(&dot(&centres[*b], v))).expect("k > 0");
            groups[c].push(i);
        }
        for (c, g) in centres.iter_mut().zip(&groups) {
            if !g.is_empty() {
                *c = unit_mean(g.iter().map(|&i| vectors[i]));
            }
        }
    }
    groups.retain(|g| !g.is_empty());
    groups
}

/// The candidate of highest `score` (the last of equals); panics on no candidate.
fn nearest(candidates: impl Iterator<Item = usize>, score: impl Fn(usize) -> f32) -> usize {
    candidates.max_by(|a, b| score(*a).total_cmp(&score(*b))).expect("a candidate")
}

/// The mean of unit vectors, scaled to unit length.
fn unit_mean<'a>(vectors: impl Iterator<Item = &'a [f32]>) -> Vec<f32> {
    let mut m = vec![0f32; DIM];
    vectors.for_each(|v| m.iter_mut().zip(v).for_each(|(m, x)| *m += x));
    normalize(&mut m);
    m
}

/// The lower factor `L` of `a = L·Lᵀ` (`DIM × DIM`, row-major), or `None` when `a` is not
/// positive definite.
fn cholesky(a: &[f64]) -> Option<Vec<f64>> {
    let mut l = vec![0f64; DIM * DIM];
    for i in 0..DIM {
        for j in 0..=i {
            let s = a[i * DIM + j] - (0..j).map(|k| l[i * DIM + k] * l[j * DIM + k]).sum::<f64>();
            if i == j {
                if s <= 0.0 || !s.is_finite() {
                    return None;
                }
                l[i * DIM + i] = s.sqrt();
            } else {
                l[i * DIM + j] = s / l[j * DIM + j];
            }
        }
    }
    Some(l)
}

/// `x` with `L·Lᵀ·x = b`.
fn cholesky_solve(l: &[f64], b: &[f64]) -> Vec<f64> {
    let mut z = vec![0f64; DIM];
    for i in 0..DIM {
        z[i] = (b[i] - (0..i).map(|k| l[i * DIM + k] * z[k]).sum::<f64>()) / l[i * DIM + i];
    }
    let mut x = vec![0f64; DIM];
    for i in (0..DIM).rev() {
        x[i] = (z[i] - (i + 1..DIM).map(|k| l[k * DIM + i] * x[k]).sum::<f64>()) / l[i * DIM + i];
    }
    x
}

/// The mean of embeddings (the background of [`TopicModel::set_background`]).
pub fn mean(embeddings: &[Vec<f32>]) -> Vec<f32> {
    let mut m = vec![0.0; DIM];
    for e in embeddings {
        m.iter_mut().zip(e).for_each(|(m, x)| *m += x);
    }
    let n = embeddings.len().max(1) as f32;
    m.iter_mut().for_each(|x| *x /= n);
    m
}

fn check(v: &[f32]) -> Result<()> {
    if v.len() != DIM {
        return Err(Error::Topic(format!("an embedding has {} dimensions, not {DIM}", v.len())));
    }
    Ok(())
}

/// How AI topics are measured on AG News test (4 topics), in one place: `needl-bench --only
/// topics` and the measuring test `embed/tests/topics_ag_news.rs` both call it, so a figure
/// measured over cached embeddings is the bench's figure.
///
/// The protocol: one description per topic ([`TOPICS`], written once, before the first run, and
/// not tuned on the data); [`EXAMPLES`] examples per topic drawn at random ([`draw`], seeds
/// `0..DRAWS`) and left out of the score; every model adapted to the unlabelled corpus as the
/// server adapts it ([`fit`]). Accuracies are reported over all scored rows, over the even rows
/// (on which methods and settings are chosen) and over the odd rows (held out from that choice).
pub mod eval {
    use super::TopicModel;

    /// AG News's labels 1-4 and one description each.
    pub const TOPICS: [(&str, &str); 4] = [
        ("world", "World news: international politics, governments, elections, wars, conflicts and diplomacy between countries."),
        ("sports", "Sports news: games, matches, teams, players, coaches, leagues, championships and scores."),
        ("business", "Business news: companies, markets, stocks, earnings, the economy, oil prices, trade and corporate deals."),
        ("scitech", "Science and technology news: computers, software, the internet, space, research, gadgets and technology companies."),
    ];
    /// Examples per topic.
    pub const EXAMPLES: usize = 32;
    /// Random draws of the examples (seeds `0..DRAWS`).
    pub const DRAWS: u64 = 5;
    /// Rounds of [`TopicModel::adapt`] over the corpus's unlabelled embeddings.
    pub const ADAPT_ROUNDS: usize = 2;
    /// Rounds of [`TopicModel::discriminate`], as the server fits them.
    pub const DISCRIMINANT_ROUNDS: usize = 3;

    /// (label 0-3, "title. description") of each row of AG News's `ag_news_test.csv` (a header,
    /// then `label,title,description`, fields quoted when they hold a comma or a quote).
    pub fn labelled_rows(csv: &str) -> Result<Vec<(usize, String)>, String> {
        let mut out = Vec::new();
        for (i, record) in csv_records(csv).into_iter().enumerate().skip(1) {
            let [label, title, text] =
                <[String; 3]>::try_from(record).map_err(|r| format!("AG News row {i} has {} fields", r.len()))?;
            let label: usize = label.trim().parse().map_err(|e| format!("AG News row {i}: label {label:?}: {e}"))?;
            if !(1..=4).contains(&label) {
                return Err(format!("AG News row {i} has label {label}"));
            }
            // The corpus writes line breaks as backslashes.
            out.push((label - 1, format!("{title}. {}", text.replace('\\', " "))));
        }
        Ok(out)
    }

    /// Records of a CSV text (RFC 4180: `""` in a quoted field is a quote; line breaks may be
    /// quoted). Here because `embed` depends on nothing that reads CSV.
    fn csv_records(text: &str) -> Vec<Vec<String>> {
        let (mut records, mut record, mut field, mut quoted) = (Vec::new(), Vec::new(), String::new(), false);
        let mut chars = text.chars().peekable();
        while let Some(c) = chars.next() {
            match (quoted, c) {
                (true, '"') if chars.peek() == Some(&'"') => {
                    field.push('"');
                    chars.next();
                }
                (true, '"') => quoted = false,
                (true, c) => field.push(c),
                (false, '"') => quoted = true,
                (false, ',') => record.push(std::mem::take(&mut field)),
                (false, '\n') => {
                    record.push(std::mem::take(&mut field));
                    records.push(std::mem::take(&mut record));
                }
                (false, '\r') => {}
                (false, c) => field.push(c),
            }
        }
        if !field.is_empty() || !record.is_empty() {
            record.push(field);
            records.push(record);
        }
        records
    }

    /// The rows drawn as examples, per topic: the first `per_topic` rows of each label in an
    /// order shuffled by `seed` (Fisher-Yates over SplitMix64, written out so the draw needs no
    /// random-number crate and is the same wherever it runs).
    pub fn draw(labels: &[usize], topics: usize, per_topic: usize, seed: u64) -> Vec<Vec<usize>> {
        let mut state = seed;
        let mut next = || {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        let mut order: Vec<usize> = (0..labels.len()).collect();
        for i in (1..order.len()).rev() {
            let j = (next() % (i as u64 + 1)) as usize;
            order.swap(i, j);
        }
        let mut pools = vec![Vec::new(); topics];
        for i in order {
            if pools[labels[i]].len() < per_topic {
                pools[labels[i]].push(i);
            }
        }
        pools
    }

    /// A model of the [`TOPICS`] from their descriptions' embeddings and each topic's examples,
    /// scoring from `background` if given, with no threshold (every item gets its best topic).
    pub fn build(
        descriptions: &[Vec<f32>],
        examples: &[Vec<Vec<f32>>],
        background: Option<Vec<f32>>,
    ) -> crate::Result<TopicModel> {
        let mut model = TopicModel::new(f32::MIN);
        for (((key, _), d), ex) in TOPICS.iter().zip(descriptions).zip(examples) {
            model.define(key, d, ex)?;
        }
        model.set_background(background)?;
        Ok(model)
    }

    /// The model adapted to the unlabelled corpus as the server adapts it: [`ADAPT_ROUNDS`] of
    /// [`TopicModel::adapt`], then [`DISCRIMINANT_ROUNDS`] of [`TopicModel::discriminate`].
    pub fn fit(model: &mut TopicModel, corpus: &[Vec<f32>]) {
        model.adapt(corpus, ADAPT_ROUNDS);
        model.discriminate(corpus, DISCRIMINANT_ROUNDS);
    }

    /// Accuracy and macro-F1 of the best topic over the rows `over` (labels `0..4`).
    pub fn score(model: &TopicModel, vectors: &[Vec<f32>], labels: &[usize], over: &[usize]) -> (f64, f64) {
        let mut confusion = [[0usize; 4]; 4];
        for &i in over {
            let predicted = model.best(&vectors[i]).map_or(0, |b| b.0);
            confusion[labels[i]][predicted] += 1;
        }
        let correct: usize = (0..4).map(|t| confusion[t][t]).sum();
        let f1: f64 = (0..4)
            .map(|t| {
                let tp = confusion[t][t] as f64;
                let predicted: usize = (0..4).map(|r| confusion[r][t]).sum();
                let actual: usize = confusion[t].iter().sum();
                if tp == 0.0 {
                    0.0
                } else {
                    let (p, r) = (tp / predicted as f64, tp / actual as f64);
                    2.0 * p * r / (p + r)
                }
            })
            .sum::<f64>()
            / 4.0;
        (correct as f64 / over.len() as f64, f1)
    }

    /// The even rows of `over` (where methods are chosen) and the odd rows (held out).
    pub fn halves(over: &[usize]) -> (Vec<usize>, Vec<usize>) {
        over.iter().partition(|i| *i % 2 == 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A unit vector along axis `i`, tilted a little toward axis `j`.
    fn axis(i: usize, j: usize, tilt: f32) -> Vec<f32> {
        let mut v = vec![0.0; DIM];
        v[i] = 1.0;
        v[j] += tilt;
        normalize(&mut v);
        v
    }

    fn model() -> TopicModel {
        let mut m = TopicModel::new(0.3);
        m.define("results", &axis(0, 5, 0.0), &[]).unwrap();
        m.define("mergers", &axis(1, 5, 0.0), &[]).unwrap();
        m
    }

    #[test]
    fn classifies_by_nearest_centroid_or_none() {
        let m = model();
        assert_eq!(m.classify(&axis(0, 1, 0.2)).map(|c| c.0), Some("results"));
        assert_eq!(m.classify(&axis(1, 0, 0.2)).map(|c| c.0), Some("mergers"));
        // Far from both: none of these.
        assert_eq!(m.classify(&axis(7, 0, 0.1)), None);
        let mut strict = m.clone();
        strict.margin = 0.2;
        // Halfway between the two: best is above the threshold but does not lead by the margin.
        assert_eq!(strict.classify(&axis(0, 1, 1.0)), None);
        assert!(m.classify(&axis(0, 1, 1.0)).is_some());
    }

    #[test]
    fn examples_pull_the_centroid() {
        let mut m = model();
        let item = axis(0, 9, 1.2); // closer to axis 9 than to axis 0
        assert_eq!(m.classify(&item).map(|c| c.0), Some("results"));
        let before = m.scores(&item)[0];
        m.define("results", &axis(0, 5, 0.0), &[axis(9, 0, 0.0), axis(9, 0, 0.1)]).unwrap();
        assert!(m.scores(&item)[0] > before, "examples along axis 9 raise its score");
    }

    #[test]
    fn feedback_refines_a_topic() {
        let mut m = model();
        let stray = axis(7, 0, 0.2);
        let rule = m.rule("results").unwrap();
        assert!(!rule.matches(&stray));
        m.feedback("results", &axis(7, 0, 0.3), true).unwrap();
        m.feedback("results", &axis(7, 0, 0.4), true).unwrap();
        assert!(m.rule("results").unwrap().matches(&stray), "more like this widens the topic");
        // Less like this pushes it back out.
        for _ in 0..3 {
            m.feedback("results", &stray, false).unwrap();
        }
        let pushed = m.scores(&stray)[0];
        let mut only_more = model();
        only_more.feedback("results", &axis(7, 0, 0.3), true).unwrap();
        only_more.feedback("results", &axis(7, 0, 0.4), true).unwrap();
        assert!(pushed < only_more.scores(&stray)[0]);
        // Other topics are untouched, and unknown topics are an error.
        assert_eq!(m.rule("mergers").unwrap().weights, model().rule("mergers").unwrap().weights);
        assert!(m.feedback("nope", &stray, true).is_err());
        assert!(m.define("bad", &[1.0, 0.0], &[]).is_err());
    }

    #[test]
    fn adapting_to_a_corpus_follows_where_its_items_are() {
        let mut m = model();
        // The corpus's "results" items sit between axis 0 and axis 9; one far item is none.
        let corpus: Vec<Vec<f32>> =
            (0..20).map(|i| axis(0, 9, 0.8 + i as f32 * 0.02)).chain([axis(1, 0, 0.1), axis(30, 0, 0.0)]).collect();
        let probe = axis(9, 0, 0.2); // mostly axis 9: not a match before
        assert!(m.scores(&probe)[0] < m.threshold);
        let mergers = m.rule("mergers").unwrap().weights;
        m.adapt(&corpus, 2);
        assert!(m.scores(&probe)[0] >= m.threshold, "the topic moved toward its items");
        let moved = m.rule("mergers").unwrap().weights;
        assert!(dot(&mergers, &moved) > 0.99, "one item along its own axis barely moves mergers");
        // No corpus item for a topic: its definition stands.
        let mut lonely = model();
        lonely.adapt(&corpus[..20], 1);
        assert_eq!(lonely.rule("mergers").unwrap().weights, model().rule("mergers").unwrap().weights);
    }

    /// Two topics along axes 0 and 1 whose items spread alike along axes 0 and 2 together
    /// (noise shared by both topics, as what every news item shares): the nearest centroid
    /// mistakes the far-spread items, the discriminant fitted without labels does not.
    #[test]
    fn a_discriminant_fitted_without_labels_discounts_shared_spread() {
        let shared = axis(0, 2, 1.0);
        let item = |topic: usize, k: usize| {
            let spread = (k % 41) as f32 / 10.0 - 2.0; // -2.0 ..= 2.0
            let mut v = vec![0.0; DIM];
            v[topic] = 1.0;
            v.iter_mut().zip(&shared).for_each(|(v, s)| *v += spread * s);
            v[3 + k % 5] += 0.05; // a little of everything else
            normalize(&mut v);
            v
        };
        let corpus: Vec<(usize, Vec<f32>)> = (0..400).map(|k| (k % 2, item(k % 2, k / 2))).collect();
        let mut m = TopicModel::new(f32::MIN);
        m.define("a", &axis(0, 5, 0.0), &[]).unwrap();
        m.define("b", &axis(1, 5, 0.0), &[]).unwrap();
        let errors = |m: &TopicModel| corpus.iter().filter(|(t, e)| m.best(e).map(|b| b.0) != Some(*t)).count();
        let before = errors(&m);
        assert!(before > 40, "the nearest centroid errs on the far-spread items ({before})");
        let vectors: Vec<Vec<f32>> = corpus.iter().map(|(_, e)| e.clone()).collect();
        m.discriminate(&vectors, 3);
        assert!(m.is_discriminant());
        let after = errors(&m);
        assert!(after * 4 < before, "the discriminant errs less: {after} against {before}");
        // select and classify agree with the discriminant's choice.
        let flat: Vec<f32> = vectors.iter().flatten().copied().collect();
        let chosen: Vec<u32> = vectors
            .iter()
            .enumerate()
            .filter(|(_, e)| m.classify(e).is_some_and(|(k, _)| k == "b"))
            .map(|(i, _)| i as u32)
            .collect();
        assert_eq!(m.select(&flat, &[1]), chosen);
    }

    /// Two topics, each of two kinds of item on either side of what the topics share (axis 5):
    /// "a" along ±axis 0, "b" along ±axis 1; 7 items in 10 lean a little toward their own
    /// topic's description (axes 7, 8), the others toward the other's. One mean per topic sits
    /// on axis 5 for both kinds, and no single linear score per topic tells the kinds apart; with
    /// enough examples each topic becomes two classes, one per kind, and the discriminant gets
    /// (nearly) every item right.
    #[test]
    fn a_topic_with_enough_examples_is_split_into_its_kinds() {
        let item = |topic: usize, sign: f32, k: usize| {
            let mut v = vec![0.0; DIM];
            v[topic] = sign * (0.8 + (k % 5) as f32 * 0.1);
            v[5] = 1.0;
            v[if (k % 10 < 7) == (topic == 0) { 7 } else { 8 }] = 0.1;
            v[10 + k % 7] += 0.2; // a little of everything else
            normalize(&mut v);
            v
        };
        let sign = |k: usize| if k % 2 == 0 { 1.0 } else { -1.0 };
        let corpus: Vec<(usize, Vec<f32>)> = (0..400).map(|k| (k % 2, item(k % 2, sign(k / 2), k / 4))).collect();
        let vectors: Vec<Vec<f32>> = corpus.iter().map(|(_, e)| e.clone()).collect();
        let fitted = |n: usize| {
            let mut m = TopicModel::new(f32::MIN);
            for (t, key) in ["a", "b"].into_iter().enumerate() {
                let examples: Vec<Vec<f32>> = (0..n).map(|k| item(t, sign(k), k)).collect();
                m.define(key, &axis(5, 7 + t, 0.5), &examples).unwrap();
            }
            m.discriminate(&vectors, 3);
            corpus.iter().filter(|(t, e)| m.best(e).map(|b| b.0) != Some(*t)).count()
        };
        let (few, enough) = (fitted(SPLIT_EXAMPLES - 2), fitted(SPLIT_EXAMPLES));
        assert!(few > 80, "one class per topic cannot tell the kinds apart ({few} errors of 400)");
        assert!(enough < 20, "two classes per topic can ({enough} errors of 400)");
    }

    #[test]
    fn split_finds_the_groups() {
        let vectors: Vec<Vec<f32>> =
            (0..12).map(|i| axis(if i % 3 == 0 { 2 } else { 4 }, 9, i as f32 * 0.02)).collect();
        let refs: Vec<&[f32]> = vectors.iter().map(Vec::as_slice).collect();
        let mut groups = split(&refs, 2);
        groups.sort();
        assert_eq!(groups, vec![vec![0, 3, 6, 9], vec![1, 2, 4, 5, 7, 8, 10, 11]]);
    }

    #[test]
    fn the_threshold_stays_a_cosine_and_changes_drop_the_discriminant() {
        let mut m = model();
        let corpus: Vec<Vec<f32>> = (0..40).map(|i| axis(i % 2, 5 + i % 3, 0.1 + (i % 7) as f32 * 0.1)).collect();
        m.discriminate(&corpus, 2);
        assert!(m.is_discriminant());
        // Far from both topics: none of them, whatever the discriminant's scores.
        assert_eq!(m.classify(&axis(7, 0, 0.1)), None);
        let (key, cosine) = m.classify(&axis(0, 1, 0.2)).unwrap();
        assert_eq!(key, "results");
        assert!((cosine - m.cosines(&axis(0, 1, 0.2))[0]).abs() < 1e-6, "the score given is the cosine");
        let fitted = m.fingerprint();
        assert_eq!(fitted, m.clone().fingerprint());
        m.feedback("results", &axis(0, 9, 0.5), true).unwrap();
        assert!(!m.is_discriminant(), "feedback changes the topics: back to the centroids");
        assert_ne!(m.fingerprint(), fitted);
        assert_ne!(m.fingerprint(), model().fingerprint());
        // No item above the threshold: nothing is fitted.
        let mut strict = model();
        strict.threshold = 0.99;
        strict.discriminate(&[axis(7, 0, 0.0)], 2);
        assert!(!strict.is_discriminant());
    }

    #[test]
    fn rule_over_stored_embeddings_equals_classifier_scores() {
        let mut m = model();
        m.set_background(Some(axis(5, 0, 0.0).iter().map(|x| x * 0.3).collect())).unwrap();
        let items: Vec<Vec<f32>> = (0..50).map(|i| axis(i % 3, 5 + i % 7, (i % 5) as f32 * 0.3)).collect();
        let flat: Vec<f32> = items.iter().flatten().copied().collect();
        let rule = m.rule("results").unwrap();
        let expected: Vec<u32> =
            items.iter().enumerate().filter(|(_, e)| m.scores(e)[0] >= m.threshold).map(|(i, _)| i as u32).collect();
        assert!(!expected.is_empty() && expected.len() < items.len());
        assert_eq!(rule.apply(&flat), expected);
    }

    #[test]
    fn select_over_stored_embeddings_equals_classify() {
        let mut m = model();
        m.define("other", &axis(2, 5, 0.0), &[]).unwrap();
        m.margin = 0.05;
        let items: Vec<Vec<f32>> = (0..60).map(|i| axis(i % 4, 5 + i % 7, (i % 5) as f32 * 0.4)).collect();
        let flat: Vec<f32> = items.iter().flatten().copied().collect();
        let wanted = [0, 2]; // results and other
        let expected: Vec<u32> = items
            .iter()
            .enumerate()
            .filter(|(_, e)| m.classify(e).is_some_and(|(k, _)| k == "results" || k == "other"))
            .map(|(i, _)| i as u32)
            .collect();
        assert!(!expected.is_empty() && expected.len() < items.len());
        assert_eq!(m.select(&flat, &wanted), expected);
        assert!(m.select(&flat, &[]).is_empty());
    }
}
