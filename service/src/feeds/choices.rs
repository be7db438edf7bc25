//! Builder choices.
