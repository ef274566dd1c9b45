//! [`Game::show`](crate::game::Game::show) of Suzume-jong: one game played again with every event
//! heard through [`Hook::record`]. Besides `games`, `players` and `hands` (which carry each win's
//! scoring breakdown) of that game it returns `events`: every tile dealt, the dora, every draw and
//! discard and every win declared, in order.

use super::actions::{View, WinKind};
use super::rules::Rules;
use super::scoring::Parts;
use super::scoring::Tile;
use super::state::{Event, Hook, NoHook};
use super::strategies::Knobs;
use crate::game::Batch;
use crate::rows;
use crate::table::{Rows, Table};

rows! {
    /// Every event of the shown game, in order.
    pub struct EventRow => "events" {
        /// Hand index within the game.
        hand: u16,
        /// Order of the event within the game.
        seq: u32,
        /// The seat; 255 for the dora indicator.
        seat: u8,
        /// 0 dealt, 1 dora indicator, 2 draw, 3 discard, 4 tsumo, 5 ron, 6 mistaken win (penalty paid).
        kind: u8,
        /// Tile id 0–43: kind id / 4 (0–8 the numbers 1–9 of souzu, 9 hatsu, 10 chun), copy id % 4; copy 0 of a number is its red copy.
        tile: u8,
    }
}

/// Leaves the decisions to `inner` (no slot for native play); writes down what it hears.
struct Recorder<'h, H: Hook> {
    inner: &'h mut H,
    events: Vec<EventRow>,
}

impl<H: Hook> Hook for Recorder<'_, H> {
    fn accept_win(&mut self, slot: u8, view: &View, parts: &Parts, kind: WinKind) -> Option<bool> {
        self.inner.accept_win(slot, view, parts, kind)
    }

    fn discard(&mut self, slot: u8, view: &View) -> Option<usize> {
        self.inner.discard(slot, view)
    }

    fn failed(&self) -> bool {
        self.inner.failed()
    }

    fn record(&mut self, hand: u64, seat: usize, event: Event, tile: Tile) {
        let seq = self.events.len() as u32;
        self.events.push(EventRow { hand: hand as u16, seq, seat: seat as u8, kind: event as u8, tile: tile.0 });
    }
}

/// The first game of `batch`, played alone with its events.
pub fn show(rules: &Rules, lineup: &[Knobs], batch: &Batch) -> Vec<Table> {
    show_with(rules, lineup, batch, &mut NoHook).expect("the native policies never fail")
}

/// [`show`] with `hook` deciding for the slots it claims (Python strategies); `None` once the
/// hook has failed.
pub fn show_with<H: Hook>(rules: &Rules, lineup: &[Knobs], batch: &Batch, hook: &mut H) -> Option<Vec<Table>> {
    let mut rec = Recorder { inner: hook, events: Vec::new() };
    let mut tables = super::batch::play_tables(rules, lineup, &Batch { count: 1, ..*batch }, &mut rec)?;
    tables.push(EventRow::table(&rec.events));
    Some(tables)
}
