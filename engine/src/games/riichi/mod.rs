//! Riichi mahjong (spec: `docs/rules/riichi.md`): the hand evaluator (tiles, shanten, win
//! decomposition, yaku, fu and points) and the game engine in the template's module shape:
//!
//! - `rules.rs`: every house rule of §15 (scoring and game flow) and the presets of §15.7;
//! - `wall.rs`: the keyed walls and dice, the deal, the dead wall and the dora;
//! - `state.rs`: one hand, from the first draw to its end (draws, the own turn, kans, riichi,
//!   furiten, wins and draws);
//! - `claims.rs`: a discard and its response window (calls with priority, rons, chankan);
//! - `actions.rs`: the decision points, the legal actions and the [`actions::View`] a player
//!   decides from ([`crate::decide`]);
//! - `scoring.rs`: settlement (win payments, pao, noten, nagashi, chombo, uma and oka); the value
//!   of a winning hand is the evaluator's (`hand.rs`);
//! - `strategies.rs`: strategy knobs and the native policy; `discard.rs`: the discard it chooses;
//! - `batch.rs`: `impl Game`, the game flow between hands and the tables.
//!
//! Keyed chance. The wall of a hand is `seed/TAG_WALL/deal/round/honba[/repeat]` (round = the index
//! of the hand's dealer rotation, so a wall never repeats within a game; `repeat` counts replays
//! after a chombo and is left out when 0); duplicate tables and rule variants that reach the same
//! (round, honba) play the same wall; the dealer's dice (for `wareme`) are
//! `seed/TAG_DICE/deal/round/honba[/repeat]`. Random strategy choices use
//! `seed/TAG_STRATEGY/deal/seat`, drawn by a per-seat decision counter.

pub mod accept;
pub mod actions;
pub mod agari;
pub mod batch;
mod claims;
pub mod competence;
pub mod defense;
mod discard;
pub mod fu;
pub mod hand;
pub mod plan;
pub mod replay;
pub mod rules;
pub mod scoring;
pub mod shanten;
pub mod show;
pub mod state;
pub mod strategies;
pub mod tiles;
pub mod wall;
pub mod yaku;

#[cfg(test)]
mod hidden;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod vectors;

/// The game marker type registered in [`crate::games::registry`].
pub struct Riichi;

/// Key tags (ASCII).
pub const TAG_WALL: u64 = 0x5249_5741_4c4c_0000; // "RIWALL"
pub const TAG_STRATEGY: u64 = 0x5249_5354_5241_5400; // "RISTRAT"
pub const TAG_DICE: u64 = 0x5249_4449_4345_0000; // "RIDICE"
