//! Sentiment of finance text, for the badge on cards (flag `doc_sentiment_analysis`).
//!
//! A lexicon written for this product from the way filings, results and market news word good and
//! bad news: words that read as positive or negative for a company or its investors ("beat",
//! "upgrade", "record" against "miss", "impairment", "default"). General-purpose sentiment words
//! mislead on such text ("liability", "tax", "cost" are neutral in a filing), so they are not in
//! it. A negation ("not", "no", "never", "without", "n't") up to three words before a term turns it
//! over. The score is (positive - negative) / (positive + negative), from -1 to 1; fewer than two
//! terms, or a score within ±0.2, is neutral. It reads only the card's title and summary, so it is
//! a hint about a headline, not an analysis of the whole document.

use serde::{Deserialize, Serialize};

const POSITIVE: &[&str] = &[
    "accelerate",
    "accelerated",
    "accelerating",
    "accretive",
    "advance",
    "advanced",
    "advances",
    "approval",
    "approved",
    "beat",
    "beats",
    "boost",
    "boosted",
    "bullish",
    "expand",
    "expanded",
    "expands",
    "expansion",
    "exceed",
    "exceeded",
    "exceeds",
    "gain",
    "gained",
    "gains",
    "grew",
    "grow",
    "growing",
    "grows",
    "growth",
    "higher",
    "improve",
    "improved",
    "improvement",
    "improves",
    "jump",
    "jumped",
    "jumps",
    "outperform",
    "outperformed",
    "positive",
    "profitable",
    "profitability",
    "rally",
    "rallied",
    "rebound",
    "rebounded",
    "record",
    "recover",
    "recovered",
    "recovery",
    "rise",
    "rises",
    "rising",
    "robust",
    "rose",
    "soar",
    "soared",
    "soars",
    "strong",
    "stronger",
    "strongest",
    "surge",
    "surged",
    "surges",
    "surpass",
    "surpassed",
    "upgrade",
    "upgraded",
    "upbeat",
    "upside",
    "win",
    "wins",
    "won",
    "dividend",
    "buyback",
    "raised",
    "raises",
    "optimistic",
    "resilient",
    "momentum",
];

const NEGATIVE: &[&str] = &[
    "bankrupt",
    "bankruptcy",
    "bearish",
    "breach",
    "cut",
    "cuts",
    "decline",
    "declined",
    "declines",
    "declining",
    "default",
    "defaulted",
    "deficit",
    "delay",
    "delayed",
    "delays",
    "deteriorate",
    "deteriorated",
    "deterioration",
    "downgrade",
    "downgraded",
    "drop",
    "dropped",
    "drops",
    "fall",
    "fallen",
    "falling",
    "falls",
    "fell",
    "fraud",
    "impairment",
    "impairments",
    "investigation",
    "lawsuit",
    "layoff",
    "layoffs",
    "litigation",
    "lose",
    "loses",
    "losing",
    "loss",
    "losses",
    "lost",
    "lower",
    "miss",
    "missed",
    "misses",
    "negative",
    "penalty",
    "plunge",
    "plunged",
    "plunges",
    "recall",
    "recession",
    "restatement",
    "shortfall",
    "slump",
    "slumped",
    "slowdown",
    "slower",
    "sank",
    "sink",
    "sinks",
    "tumble",
    "tumbled",
    "tumbles",
    "warn",
    "warned",
    "warning",
    "warns",
    "weak",
    "weaker",
    "weakness",
    "writedown",
    "write-down",
    "probe",
    "sanction",
    "sanctions",
    "insolvency",
    "volatile",
    "volatility",
    "downturn",
    "headwinds",
    "pessimistic",
];

const NEGATIONS: &[&str] = &["not", "no", "never", "without", "neither", "nor", "hardly", "barely"];

/// How many words after a negation it still turns over.
const NEGATION_REACH: usize = 3;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum Label {
    Positive,
    Negative,
    #[default]
    Neutral,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Sentiment {
    pub label: Label,
    /// From -1 (all negative terms) to 1 (all positive).
    pub score: f32,
}

fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '-'))
        .filter(|w| !w.is_empty())
        .map(|w| w.trim_matches(|c| c == '\'' || c == '-').to_lowercase())
        .filter(|w| !w.is_empty())
        .collect()
}

/// The sentiment of `text` by the lexicon.
pub fn judge(text: &str) -> Sentiment {
    let (mut positive, mut negative) = (0u32, 0u32);
    let mut negated_for = 0usize;
    for word in words(text) {
        let negation = NEGATIONS.contains(&word.as_str()) || word.ends_with("n't");
        let polarity = if POSITIVE.contains(&word.as_str()) {
            Some(true)
        } else if NEGATIVE.contains(&word.as_str()) {
            Some(false)
        } else {
            None
        };
        if let Some(good) = polarity {
            if good != (negated_for > 0) {
                positive += 1;
            } else {
                negative += 1;
            }
        }
        negated_for = if negation { NEGATION_REACH } else { negated_for.saturating_sub(1) };
    }
    let total = positive + negative;
    let score = if total == 0 { 0.0 } else { (positive as f32 - negative as f32) / total as f32 };
    let label = if total < 2 || score.abs() <= 0.2 {
        Label::Neutral
    } else if score > 0.0 {
        Label::Positive
    } else {
        Label::Negative
    };
    Sentiment { label, score: (score * 100.0).round() / 100.0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn label(text: &str) -> Label {
        judge(text).label
    }

    #[test]
    fn headlines_read_as_an_analyst_reads_them() {
        assert_eq!(label("Acme beats estimates as revenue surges to a record"), Label::Positive);
        assert_eq!(label("Acme misses forecasts; shares plunge on weak guidance"), Label::Negative);
        assert_eq!(label("Acme files its annual report"), Label::Neutral);
        assert_eq!(label("Board approves dividend and share buyback after strong quarter"), Label::Positive);
        assert_eq!(label("Regulator opens investigation into accounting fraud; auditor warns"), Label::Negative);
    }

    #[test]
    fn a_negation_turns_the_next_words_over() {
        assert_eq!(label("Margins did not improve and growth was not strong"), Label::Negative);
        assert_eq!(label("No impairment and no losses this year"), Label::Positive);
        assert_eq!(label("The company hasn't missed a payment; no default"), Label::Positive);
    }

    #[test]
    fn one_term_alone_or_a_balance_is_neutral() {
        assert_eq!(label("Shares rise"), Label::Neutral, "one word is too little to go on");
        assert_eq!(label("Revenue rose but profit fell"), Label::Neutral);
        let mixed = judge("Revenue growth strong; losses widen and outlook weak");
        assert_eq!(mixed.label, Label::Neutral);
        assert!(mixed.score.abs() <= 0.2);
    }

    #[test]
    fn filing_words_that_only_sound_bad_are_not_counted() {
        assert_eq!(label("Liabilities, tax and cost of revenue are reported in note 7"), Label::Neutral);
        assert_eq!(judge("").score, 0.0);
    }
}
