//! Story clusters: the same story from several feeds, or an item and its later update, folded
//! into one story so a feed can show it once ("+3 sources").
//!
//! A tour:
//! - [`text`]: readable text to lowercase words without markup, entities or punctuation, and
//!   word shingles; everything hashed as it is read.
//! - [`signature`]: [`Signature::of`]`(title, text)`, a MinHash signature of the text's 3-word
//!   shingles plus small sketches of the title's content words and of all the content words,
//!   and the weekdays it names; deterministic (fixed seeds) and stored as bytes or hex, so it is
//!   computed once per document.
//! - [`index`]: [`StoryIndex`], LSH buckets over the signatures and lists under a few content
//!   words: an insert finds the earlier items the new one repeats or rewrites in time independent
//!   of the index size, and returns the story it joins or starts. It counts how many items hold
//!   each word, so a rewrite by another outlet is recognised by the rare words (names, figures)
//!   it shares. A time window keeps old items out, so unrelated stories do not chain.
//! - [`eval`]: pair precision and recall of a clustering against labelled pairs, and the
//!   realistic edits the constructed pairs are made with.
//!
//! It depends on nothing: the service stores the signatures and rebuilds the index from them,
//! the bench measures it.

pub mod eval;
pub mod index;
pub mod signature;
pub mod text;

pub use index::{Placement, StoryIndex, StoryParams, StoryView};
pub use signature::{Signature, SignatureError, Similarity, Weekdays, SIGNATURE_BYTES};
