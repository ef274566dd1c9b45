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
pub mod trump;

pub mod hongkong;

pub mod toy;

/// Every game, in the order `simharness games` lists them; the test-only [`toy`] game last, when
/// the environment sets `SIMHARNESS_TOY_GAME=1`.
pub fn registry() -> Vec<Box<dyn GameApi>> {
    let mut games: Vec<Box<dyn GameApi>> = vec![
        Box::new(Registered::<sugoroku::Sugoroku>(std::marker::PhantomData)),
        Box::new(Registered::<suzume::Suzume>(std::marker::PhantomData)),
        Box::new(Registered::<riichi::Riichi>(std::marker::PhantomData)),
        Box::new(Registered::<hongkong::HongKong>(std::marker::PhantomData)),
        Box::new(Registered::<trump::Trump>(std::marker::PhantomData)),
    ];
    if std::env::var_os("SIMHARNESS_TOY_GAME").is_some_and(|v| v == "1") {
        games.push(Box::new(Registered::<toy::Toy>(std::marker::PhantomData)));
    }
    games
}

/// The game called `name`.
pub fn find(name: &str) -> Option<Box<dyn GameApi>> {
    registry().into_iter().find(|g| g.info()["name"] == name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Batch;
    use serde_json::json;

    /// The show contract: a game played alone with its events is the game of the batch (same
    /// `games` and `players` rows), so a page can be checked against a run's logs.
    #[test]
    fn every_shown_game_is_the_game_of_the_batch() {
        for g in registry() {
            let rules = g.resolve_rules("default", &json!({})).unwrap();
            let players = g.info()["max_players"].as_u64().unwrap().min(4) as usize;
            let lineup = vec![g.resolve_knobs(&json!({})).unwrap(); players];
            let batch = Batch { seed: 9, first_game: 0, count: 4, duplicate: true };
            let played = g.play(&rules, &lineup, &batch).unwrap();
            let shown = g.show(&rules, &lineup, &Batch { first_game: 2, count: 1, ..batch }).unwrap();
            for name in ["games", "players"] {
                let rows = |tables: &[crate::table::Table]| {
                    let t = tables.iter().find(|t| t.name == name).unwrap().clone();
                    let per_row: Vec<usize> = t.columns.iter().map(|c| c.data.len() / t.rows).collect();
                    (t, per_row)
                };
                let (all, width) = rows(&played);
                let (one, _) = rows(&shown);
                assert_eq!(one.rows * 4, all.rows, "{name}");
                for (c, w) in one.columns.iter().zip(&width) {
                    let part = &all.column(c.name).unwrap().data[2 * one.rows * w..3 * one.rows * w];
                    assert_eq!(c.data, part, "{} {name}.{}", g.info()["name"], c.name);
                }
            }
        }
    }

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
