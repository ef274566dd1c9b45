//! The registry of games. Each game is one module tree with the same shape:
//! `rules.rs` (house-rule options and presets), `state.rs` (the game state and its transitions),
//! `actions.rs` (decision points and legal actions), `scoring.rs` (payments and settlement),
//! `strategies.rs` (strategy knobs and the built-in policies), `batch.rs` (the [`Game`] impl that
//! plays a batch and fills the tables) and `mod.rs` (re-exports).
//!
//! [`Game`]: crate::game::Game

use crate::game::{GameApi, Registered};

pub mod sugoroku;
pub mod suzume;

pub mod riichi;

pub mod hongkong;

/// Every game, in the order `simharness games` lists them.
pub fn registry() -> Vec<Box<dyn GameApi>> {
    vec![
        Box::new(Registered::<sugoroku::Sugoroku>(std::marker::PhantomData)),
        Box::new(Registered::<suzume::Suzume>(std::marker::PhantomData)),
        Box::new(Registered::<riichi::Riichi>(std::marker::PhantomData)),
        Box::new(Registered::<hongkong::HongKong>(std::marker::PhantomData)),
    ]
}

/// The game called `name`.
pub fn find(name: &str) -> Option<Box<dyn GameApi>> {
    registry().into_iter().find(|g| g.info()["name"] == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The columns every game shares, so that statistics work on any game's logs.
    #[test]
    fn every_game_has_the_common_tables() {
        for g in registry() {
            let schema = g.schema();
            let cols = |t: &str| -> Vec<(&str, &str)> {
                let table = schema.iter().find(|s| s.name == t).unwrap_or_else(|| panic!("{} lacks {t}", g.info()));
                table.columns.iter().map(|c| (c.name, c.dtype)).collect()
            };
            assert_eq!(cols("games")[..3], [("game", "uint64"), ("deal", "uint64"), ("rotation", "uint8")]);
            assert_eq!(
                cols("players")[..6],
                [
                    ("game", "uint64"),
                    ("deal", "uint64"),
                    ("seat", "uint8"),
                    ("player", "uint8"),
                    ("final_points", "int64"),
                    ("rank", "uint8")
                ]
            );
        }
    }
}
