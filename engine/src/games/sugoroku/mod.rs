//! Mahjong sugoroku (麻雀すごろく): a dice race along a course of face-down mahjong tiles
//! (`docs/rules/sugoroku.md`). This module tree is the template every game follows:
//!
//! - `rules.rs`: the house-rule options (§13 and the open choices of §15), presets, contradictions;
//! - `state.rs`: setup, turns, movement and square effects (the reference algorithm of §6.4);
//! - `actions.rs`: the decision contract ([`crate::decide`]): the decision points G-D1…G-D4, the
//!   actions and the seat's [`actions::View`] (no face-down tile, no dice to come), and the
//!   [`actions::Driver`] through which the state gets dice and asks the players;
//! - `scoring.rs`: caps, transfers and the end settlement;
//! - `strategies.rs`: strategy knobs and the native player of the policies (always / never /
//!   random / greedy);
//! - `batch.rs`: `impl Game`, keyed chance per game, the seats' players and the tables;
//! - `show.rs`: one game recorded turn by turn; `hidden.rs` (tests): no hidden information
//!   reaches a strategy.
//!
//! Keyed chance. The course and dora of deal `d` come from `seed/TAG_SETUP/d/attempt` (attempt > 0
//! only after an opening-pochi re-deal); the dice of seat `s` from
//! `seed/TAG_DICE/d/s/(t << 32 | r)` (one uniform draw of 36 gives both dice), where `t` counts the turns in which `s` rolled (rest turns excluded)
//! and `r` the rolls within that turn. A player's k-th roll is therefore the same in every rule
//! variant and at every duplicate table, however rests and the other players' luck fall.
//! Random strategy choices use `seed/TAG_STRATEGY/d/s/decision/t/r`.
//!
//! Turn order. Seats are numbered in turn order: seat 0 always moves first. The source picks
//! the first player by じゃんけん; here that luck is the seat itself, which duplicate play rotates
//! over the lineup (and the `players` table reports by seat, so first-mover advantage is visible).

//! Choices where the spec is silent (each a rule option where it could matter):
//! - rests: a player's turn number for the dice counts only turns in which it rolled;
//! - `max_turns` counts every seat's turn, rest turns included;
//! - G-D4 is asked of every seat at the start of a round; all must agree;
//! - opening pochi: dora tile `i` is flipped by seat `i mod n`; a re-deal voids an earlier
//!   flipper's ×10 (the game it was for never started); payments are capped only under
//!   `cap_scope = everything`;
//! - multipliers saturate at 2^32 ([`state::MULT_CEILING`]) so that uncapped points stay in i64;
//! - the progressive tax generalises §10's 500 to whatever `payout_cap` is;
//! - end transfers are paid pairwise, so `cap_scope = everything` caps each pair's payment.

pub mod actions;
pub mod batch;
pub mod rules;
pub mod scoring;
pub mod show;
pub mod state;
pub mod strategies;

pub use rules::Rules;
pub use state::State;
pub use strategies::Knobs;

/// The game marker type registered in [`crate::games::registry`].
pub struct Sugoroku;

/// Key tags (ASCII): course and dora, dice, strategy randomness.
pub const TAG_SETUP: u64 = 0x5347_5345_5455_5000; // "SGSETUP"
pub const TAG_DICE: u64 = 0x5347_4449_4345_0000; // "SGDICE"
pub const TAG_STRATEGY: u64 = 0x5347_5354_5241_5400; // "SGSTRAT"

#[cfg(test)]
mod hidden;
#[cfg(test)]
mod tests;
