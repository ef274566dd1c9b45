//! Trump mahjong (トランプ麻雀): 54 playing cards, suits ignored, three players, 7-card hands,
//! no calls, riichi (`docs/rules/trump.md`).
//!
//! - `rules.rs`: the house-rule catalogue of §11 and the ambiguities of §13 as options;
//! - `scoring.rs`: cards, payments and settlement, the `score` command's report;
//! - `hand.rs`: the value of a winning hand: readings (§5), yaku and han (§6), whether a win may be
//!   declared;
//! - `state.rs`: the keyed wall and one hand from the deal to a win or an exhaustive draw, asking
//!   the seats' players at each decision;
//! - `actions.rs`: the decision contract (`impl Decisions`): the decision points D1-D6, their
//!   actions and what a player sees (`View`);
//! - `strategies.rs`: knobs, the §12 helpers (shanten7, waits, improving cards, precomputed for
//!   every 7-card multiset) and the policy (T1-T6 and random are knob combinations), played as a
//!   `Player<Trump>`;
//! - `plan.rs`: planning by the rules (knob `plan`): which ready hands can win by ron;
//! - `competence.rs`: per lineup slot, ready hands that cannot win by ron (`trump_audit`);
//! - `batch.rs`: `impl Game`, dealer rotation over three laps, bust end, settlement and the tables;
//!   `play_tables` seats players from outside the engine (Python strategies, `python/trump.rs`)
//!   in some slots;
//! - `show.rs`: one game played again with its event log and payments (`simharness show`);
//! - `tests.rs`: the spec's vectors (§14), the exact enumeration of dealt hands and invariants;
//! - `hidden.rs`: the test that no hidden information reaches a built-in strategy.
//!
//! Keyed chance. Hand `h` of deal `d` shuffles its cards under `seed/TAG_WALL/d/h[/r]` (`h` counts
//! the hands not voided, `r` the replays after a chombo and is left out when 0), the first dealer
//! is `seed/TAG_DEALER/d`, random decisions of seat `s` read `seed/TAG_STRATEGY/d/h[/r]/s` and
//! injected mistakes `seed/TAG_MISTAKE/d/h[/r]`.

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
pub struct Trump;
