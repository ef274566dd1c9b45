//! [`Game::show`](crate::game::Game::show) of Suzume-jong: one game played again with every event
//! heard ([`Listen`]). Besides `games`, `players` and `hands` (which carry each win's scoring
//! breakdown) of that game it returns `events`: every tile dealt, the dora, every draw and
//! discard and every win declared, in order.

use super::batch::{play_rows, GameRow, HandRow, PlayerRow};
use super::rules::Rules;
use super::scoring::Tile;
use super::state::{Event, Listen};
use super::strategies::Knobs;
use super::Suzume;
use crate::decide::{Outside, PlayerError};
use crate::game::Batch;
use crate::rows;
use crate::table::{Rows, Table, TableSchema};

rows! {
    /// Every event of the shown game, in order.
    pub struct EventRow => "events" {
        /// Hand index within the game.
        hand: u16,
        /// Order of the event within the game.
        seq: u32,
        /// The seat; 255 for the dora indicator.
        seat: u8,
        /// What happened (a mistake is a mistaken win declared, its penalty paid).
        kind: Event,
        /// Tile id 0–43: kind id / 4 (0–8 the numbers 1–9 of souzu, 9 hatsu, 10 chun), copy id % 4; copy 0 of a number is its red copy.
        tile: u8,
    }
}

impl Listen for Vec<EventRow> {
    fn hear(&mut self, hand: u64, seat: usize, event: Event, tile: Tile) {
        let seq = self.len() as u32;
        self.push(EventRow { hand: hand as u16, seq, seat: seat as u8, kind: event, tile: tile.0 });
    }
}

/// The tables a show adds to those of a batch ([`Game::show_schema`]).
///
/// [`Game::show_schema`]: crate::game::Game::show_schema
pub fn schema() -> Vec<TableSchema> {
    vec![EventRow::schema()]
}

/// The first game of `batch`, played alone with its events.
pub fn show(rules: &Rules, lineup: &[Knobs], batch: &Batch) -> Vec<Table> {
    show_with(rules, lineup, batch, &mut []).expect("the native policies never fail")
}

/// [`show`] with the players of `outside` deciding for the lineup slots played from outside the
/// engine (Python strategies).
pub fn show_with(rules: &Rules, lineup: &[Knobs], batch: &Batch, outside: &mut Outside<'_, Suzume>) -> Result<Vec<Table>, PlayerError> {
    let mut events = Vec::new();
    let rows = play_rows(rules, lineup, &Batch { count: 1, ..*batch }, outside, &mut events)?;
    Ok(vec![GameRow::table(&rows.games), PlayerRow::table(&rows.players), HandRow::table(&rows.hands), EventRow::table(&events)])
}
