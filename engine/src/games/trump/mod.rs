//! Trump mahjong (トランプ麻雀): 54 playing cards, suits ignored, three players, 7-card hands,
//! no calls, riichi (`rules/trump.md`).
//!
//! - `rules.rs`: the house-rule catalogue of §11 and the ambiguities of §13 as options;
//! - `scoring.rs`: cards, readings (§5), yaku and han (§6), payments and settlement, the `score`
//!   command's report;
//! - `tests.rs`: the spec's vectors (§14) and the exact enumeration of dealt hands.

pub mod rules;
pub mod scoring;
pub mod state;

#[cfg(test)]
mod tests;

pub use rules::Rules;
