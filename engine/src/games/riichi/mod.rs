//! Riichi mahjong (spec: `rules/riichi.md`): tiles, shanten, win decomposition, yaku, fu and
//! points. The game loop (state, actions, strategies, batch) comes later; until then Riichi is not
//! in the game registry, and this tree is the hand evaluator that the scorer CLI and the Python
//! API use.

pub mod shanten;
pub mod tiles;
pub mod agari;
pub mod fu;
pub mod rules;
pub mod scoring;
pub mod yaku;

#[cfg(test)]
mod vectors;
