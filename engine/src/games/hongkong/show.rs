//! [`Game::show`](crate::game::Game::show) of Hong Kong mahjong: one game played again with
//! `HandSetup::log` on, so that `play_hand` writes down every event (off in native play: the
//! log is `None` and nothing is pushed). Besides `games`, `players` and `hands` of that game it
//! returns `events` (every tile dealt, drawn, replaced, discarded, claimed or made into a kong,
//! and every win declared, in order), `wins` (one row per win with its payments, 包 included) and
//! `win_items` (the fan of each item of each win).

use super::batch::{play_game, HandRow, Tables};
use super::rules::Rules;
use super::scoring::payments;
use super::state::{HandResult, Happening, Outcome};
use super::strategies::Knobs;
use super::HongKong;
use crate::decide::{Outside, PlayerError};
use crate::game::{Batch, Seating};
use crate::rows;
use crate::table::{Rows, Table, TableSchema};

rows! {
    /// Every event of the shown game, in order.
    pub struct EventRow => "events" {
        /// Hand index within the game.
        hand: u16,
        /// Order of the event within the game.
        seq: u32,
        /// The acting seat.
        seat: u8,
        /// What happened (a replacement is drawn from the dead wall, for a bonus tile or a kong;
        /// a kong is an exposed kong claimed on a discard).
        kind: Happening,
        /// Tile kind 0-33 (1-9 characters, dots, bamboo, then E S W N, white, green, red), or
        /// 34-37 flowers 1-4 and 38-41 seasons 1-4.
        tile: u8,
        /// The seat whose discard (or added kong) was claimed or won on, else -1.
        from: i8,
        /// A chow's lowest kind; the tile for the other events.
        base: u8,
    }
}

rows! {
    /// One row per win of the shown game.
    pub struct WinRow => "wins" {
        /// Hand index within the game.
        hand: u16,
        /// Index of this winner within the hand (as in `hands.claim`).
        claim: u8,
        /// The winner's seat.
        seat: u8,
        /// The discarder (or kong-maker) on a discard win, else -1.
        from: i8,
        /// Total fan (max_fan for a limit hand).
        fan: u8,
        /// Fan counted toward the minimum.
        counted_fan: u8,
        /// The multiplier of the fan table.
        base: u32,
        /// Limit hand index as in `hands.limit`, -1 none.
        limit: i8,
        /// The 包 guarantor who paid this win alone, else -1.
        liable: i8,
        /// This win's payment to (+) or from (-) seat 0.
        pay_0: i32,
        /// ... seat 1.
        pay_1: i32,
        /// ... seat 2.
        pay_2: i32,
        /// ... seat 3.
        pay_3: i32,
    }
}

rows! {
    /// The fan items of each win of the shown game.
    pub struct WinItemRow => "win_items" {
        /// Hand index within the game.
        hand: u16,
        /// Index of the winner within the hand.
        claim: u8,
        /// The item's bit in `hands.items`.
        item: u8,
        /// Its fan.
        fan: u8,
    }
}

/// The tables a show adds to those of a batch ([`Game::show_schema`]).
///
/// [`Game::show_schema`]: crate::game::Game::show_schema
pub fn schema() -> Vec<TableSchema> {
    vec![EventRow::schema(), WinRow::schema(), WinItemRow::schema()]
}

/// The first game of `batch` played alone with its events.
pub fn show(rules: &Rules, lineup: &[Knobs], batch: &Batch) -> Vec<Table> {
    show_with(rules, lineup, batch, &mut []).expect("native strategies only choose legal actions")
}

/// [`show`] with the players of `outside` in the slots played from outside the engine (Python
/// strategies); a player's error stops it.
pub fn show_with(rules: &Rules, lineup: &[Knobs], batch: &Batch, outside: &mut Outside<'_, HongKong>) -> Result<Vec<Table>, PlayerError> {
    let mut out = Tables::default();
    let mut results: Vec<HandResult> = Vec::new();
    let seating = Seating::new(batch.first_game, 4, batch.duplicate);
    play_game(rules, lineup, batch.seed, seating, outside, &mut out, Some(&mut results))?;
    let (mut events, mut wins, mut items) = (Vec::new(), Vec::new(), Vec::new());
    for (h, r) in results.iter().enumerate() {
        let hand = h as u16;
        for e in &r.events {
            let seq = events.len() as u32;
            let from = e.from.map_or(-1, |f| f as i8);
            events.push(EventRow { hand, seq, seat: e.seat, kind: e.what, tile: e.tile, from, base: e.base });
        }
        let Outcome::Win { winners, discarder, .. } = &r.outcome else { continue };
        let dealer = out.hands.iter().find(|row: &&HandRow| row.hand == hand).map_or(0, |row| row.dealer);
        for (claim, w) in winners.iter().enumerate() {
            let claim = claim as u8;
            let pay = payments(rules, dealer, w.seat, *discarder, w.liable, w.value.base).map(|x| x.round() as i32);
            wins.push(WinRow {
                hand,
                claim,
                seat: w.seat,
                from: discarder.map_or(-1, |d| d as i8),
                fan: w.value.fan,
                counted_fan: w.value.counted_fan,
                base: w.value.base as u32,
                limit: w.value.limit.map_or(-1, |l| l as i8),
                liable: w.liable.map_or(-1, |l| l as i8),
                pay_0: pay[0],
                pay_1: pay[1],
                pay_2: pay[2],
                pay_3: pay[3],
            });
            items.extend(w.value.items.iter().map(|&(i, fan)| WinItemRow { hand, claim, item: i as u8, fan }));
        }
    }
    let mut tables = out.tables();
    tables.extend([EventRow::table(&events), WinRow::table(&wins), WinItemRow::table(&items)]);
    Ok(tables)
}
