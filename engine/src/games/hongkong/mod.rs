//! Hong Kong mahjong (香港麻雀): 144 or 136 tiles, fan and base points (`docs/rules/hongkong.md`).
//!
//! - `rules.rs`: the house-rule catalogue of §11 with the settlement options, presets `default`
//!   and `old_style`;
//! - `hand.rs`: hand evaluation — every reading, fan items, limit hands, the fan → multiplier
//!   tables (§8);
//! - `scoring.rs`: payments (responsibility, 包, false wins) and hand parsing for `score hongkong`;
//! - `actions.rs`: the decision contract ([`crate::decide`]): the decision points of §10, their
//!   actions, and the `View` a seat decides from (own tiles and everything public);
//! - `wall.rs`: the keyed wall broken by the dice, the deal with bonus replacements, draws and
//!   replacements;
//! - `state.rs`: one hand from the dice to a win, an exhaustive draw or a false win;
//! - `claims.rs`: a discard and the claims on it: wins on it or on a robbed kong, then pung, kong
//!   or chow by priority;
//! - `strategies.rs`: knobs and the native player (H1-H6 and random of §12 are knob
//!   combinations);
//! - `plan.rs`: hand planning toward a legal win under the minimum fan (knob `fan_plan`);
//! - `competence.rs`: the audit of ready hands that cannot win legally (`hongkong_audit`);
//! - `batch.rs`: `impl Game`, the dealer rotation over four rounds and the tables;
//! - `show.rs`: one game played again with every event (`simharness show`).
//!
//! Keyed chance (`state::HandKeys`). Hand `h` of deal `d` shuffles its wall from
//! `seed/TAG_WALL/d/h`, rolls its dice from `seed/TAG_DICE/d/h`, random strategy choices of seat
//! `s` read `seed/TAG_STRATEGY/d/h/s` and mistake injection `seed/TAG_MISTAKE/d/h` (ASCII tags
//! `HKWALL`, `HKDICE`, `HKSTRA`, `HKMIST`, in the order of the other games): rule variants and
//! duplicate tables see the same walls, and results never depend on the number of workers. The
//! rule option `chance_recipe = "numeric"` keys `seed/d/h/n` (n = 1-4 in that order), the recipe
//! of earlier releases, so that their runs can be played again.
//!
//! Tile kinds, melds and the set decomposition are Riichi's (`riichi::tiles`, `riichi::agari`):
//! the 34 kinds are the same.

pub mod actions;
pub mod batch;
pub mod claims;
pub mod competence;
pub mod hand;
pub mod plan;
pub mod rules;
pub mod scoring;
pub mod show;
pub mod state;
pub mod strategies;
pub mod wall;

#[cfg(test)]
mod hidden;
#[cfg(test)]
mod tests;

pub use rules::Rules;
pub use strategies::Knobs;

/// The game marker type; `impl Game` is in `batch.rs`.
pub struct HongKong;
