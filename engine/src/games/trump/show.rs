//! [`Game::show`](crate::game::Game::show) of Trump mahjong: one game played again with every event
//! heard through [`Log::record`] and every win through [`Log::won`]. Besides `games`,
//! `players` and `hands` (which carry each win's yaku, han and points) of that game it returns
//! `events` (every card dealt, turned, drawn, set aside and discarded, riichi and wins, in order),
//! `win_yaku` (each win's yaku and their han) and `payments` (who paid each winner how much).

use super::hand::{Value, YAKU};
use super::rules::Rules;
use super::scoring::{Card, PLAYERS};
use super::state::{Event, Log};
use super::strategies::Knobs;
use super::Trump;
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
        /// The seat; 255 for a card turned up from the dead wall.
        seat: u8,
        /// What happened: a Joker turned up as an indicator is put out of play (`joker_out`), a
        /// Joker set aside is replaced from the dead wall (`replacement`); `riichi` is a discard
        /// declaring riichi, `riichi_void` a declaration that never stood (its discard was ronned,
        /// or a chombo voided the hand; the card is the declaration discard); `ura` the ura-dora
        /// indicator; `chombo` a false tsumo on the card just drawn (mistake injection: the hand is
        /// void, its riichi sticks return and the offender pays `chombo_penalty` to each opponent).
        kind: Event,
        /// Card id 0–53: kind id / 4 (0–8 the ranks 1–9, 9–12 T J Q K), copy id % 4 (its suit on
        /// the page); 52 and 53 the Jokers.
        card: u8,
    }
}

rows! {
    /// Every yaku of each win with its han (dora, ura-dora and Jokers are counted in `hands`).
    pub struct WinYakuRow => "win_yaku" {
        /// Hand index within the game.
        hand: u16,
        /// The winner's seat.
        winner: u8,
        /// The yaku: its bit in `hands.yaku` (0 riichi, 1 ippatsu, ..., 17 tenhou/chiihou/renhou).
        yaku: u8,
        /// Its han under the game's rules.
        han: u8,
    }
}

rows! {
    /// What each seat paid each win (riichi sticks apart: `hands.sticks`), in the order of the wins.
    pub struct PaymentRow => "payments" {
        /// Hand index within the game.
        hand: u16,
        /// The winner's seat.
        winner: u8,
        /// The paying seat.
        payer: u8,
        /// Points paid.
        points: i64,
    }
}

/// Writes down what it hears.
struct Recorder<'h> {
    rules: &'h Rules,
    events: Vec<EventRow>,
    yaku: Vec<WinYakuRow>,
    payments: Vec<PaymentRow>,
}

impl Log for Recorder<'_> {
    fn record(&mut self, hand: u16, seat: usize, event: Event, card: Card) {
        let seq = self.events.len() as u32;
        self.events.push(EventRow { hand, seq, seat: seat as u8, kind: event, card: card.0 });
    }

    fn won(&mut self, hand: u16, winner: usize, value: &Value, pay: &[i64; PLAYERS]) {
        for y in YAKU.iter().filter(|y| value.yaku & y.bit() != 0) {
            self.yaku.push(WinYakuRow { hand, winner: winner as u8, yaku: *y as u8, han: y.han(self.rules) });
        }
        for (payer, &points) in pay.iter().enumerate().filter(|(_, &p)| p != 0) {
            self.payments.push(PaymentRow { hand, winner: winner as u8, payer: payer as u8, points });
        }
    }
}

/// The tables a show adds to those of a batch ([`Game::show_schema`]).
///
/// [`Game::show_schema`]: crate::game::Game::show_schema
pub fn schema() -> Vec<TableSchema> {
    vec![EventRow::schema(), WinYakuRow::schema(), PaymentRow::schema()]
}

/// The first game of `batch`, played alone with its events.
pub fn show(rules: &Rules, lineup: &[Knobs], batch: &Batch) -> Vec<Table> {
    show_with(rules, lineup, batch, &mut []).expect("the knobs always answer a legal action")
}

/// [`show`] with the players of `outside` in the slots played from outside the engine (Python
/// strategies); a player's error stops it.
pub fn show_with(rules: &Rules, lineup: &[Knobs], batch: &Batch, outside: &mut Outside<'_, Trump>) -> Result<Vec<Table>, PlayerError> {
    let mut rec = Recorder { rules, events: Vec::new(), yaku: Vec::new(), payments: Vec::new() };
    let mut tables = super::batch::play_logged(rules, lineup, &Batch { count: 1, ..*batch }, outside, &mut rec)?;
    tables.push(EventRow::table(&rec.events));
    tables.push(WinYakuRow::table(&rec.yaku));
    tables.push(PaymentRow::table(&rec.payments));
    Ok(tables)
}
