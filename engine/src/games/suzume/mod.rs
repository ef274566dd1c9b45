//! Suzume-jong (すずめ雀): 44 tiles, 5-tile hands, two sets to win (`docs/rules/suzume.md`).
//!
//! - `rules.rs`: the house-rule catalogue of §11, the ambiguities of §12 as options, presets and
//!   contradictions;
//! - `scoring.rs`: tiles, the precomputed hand-state tables, payments (§7, §9) and the `score`
//!   command's report;
//! - `hand.rs`: the value of a complete hand (§6);
//! - `actions.rs`: the decision contract ([`crate::decide`]): the points D1-D3, their actions,
//!   the `View` a player decides from, legal tsumo and ron;
//! - `state.rs`: one hand from the deal to a win or an exhaustive draw;
//! - `strategies.rs`: knobs, the policy (S0-S5 of §13 are knob combinations) and the native
//!   `Player`;
//! - `plan.rs`: hand planning by the rules (knob `plan`): a path to a hand that reaches the
//!   minimum base;
//! - `competence.rs`: per lineup slot, ready hands without a legal win (`suzume_audit`);
//! - `batch.rs`: `impl Game`, the dealer rotation over `laps × players` hands and the tables;
//!   `play_tables` seats players from outside the engine (Python strategies,
//!   `python/suzume.rs`) in some lineup slots;
//! - `hidden.rs` (tests): no hidden tile changes a built-in strategy's view or decision.
//!
//! Keyed chance. Hand `h` of deal `d` draws its tiles from `seed/TAG_WALL/d/h` (a lazy shuffle:
//! draw `i` is fixed whatever happens before it), the first dealer is `seed/TAG_DEALER/d`, random
//! discards of seat `s` read `seed/TAG_STRATEGY/d/h/s` and mistake injection
//! `seed/TAG_MISTAKE/d/h`. Rule variants and duplicate tables therefore see the same tiles.
//!
//! Seats are numbered in turn order (the next player is `seat + 1`); the first dealer is drawn at
//! random (じゃんけん) or seat 0 (`first_dealer`), so the seat-advantage axis is `dealer_order`.

pub mod actions;
pub mod batch;
pub mod competence;
pub mod hand;
pub mod plan;
pub mod rules;
pub mod scoring;
pub mod show;
pub mod state;
pub mod strategies;

#[cfg(test)]
mod hidden;
#[cfg(test)]
mod tests;

pub use rules::Rules;
pub use strategies::Knobs;

/// The game marker type; `impl Game` is in `batch.rs`.
pub struct Suzume;
