//! Hong Kong mahjong (香港麻雀): 144 or 136 tiles, fan and base points (`rules/hongkong.md`).
//!
//! - `rules.rs`: the house-rule catalogue of §11 with the settlement options, presets `default`
//!   and `old_style`;
//! - `hand.rs`: hand evaluation — every reading, fan items, limit hands, the fan → multiplier
//!   tables (§8);
//! - `scoring.rs`: payments (responsibility, 包, false wins) and hand parsing for `score hongkong`.
//!
//! Tile kinds, melds and the set decomposition are Riichi's (`riichi::tiles`, `riichi::agari`):
//! the 34 kinds are the same.

pub mod hand;
pub mod rules;
pub mod scoring;

#[cfg(test)]
mod tests;

pub use rules::Rules;
