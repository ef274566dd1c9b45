//! [`Game::show`](crate::game::Game::show) of Riichi: one game played again with every event
//! logged. Besides `games`, `players` and `hands` of that game it returns `events` (the table of
//! rule `event_log_every`, which starts each hand with its first dora indicator and the dealt
//! tiles, so that every hand can be rebuilt), `wins` (one row per win, with the scoring
//! breakdown) and `win_yaku` (the han of each yaku of each win).

use super::batch::{event_rows_of, play_one, push_rows, EventRow, GameRow, HandRow, PlayerRow};
use super::rules::Rules;
use super::state::State;
use super::strategies::Knobs;
use super::Riichi;
use crate::decide::{Outside, PlayerError};
use crate::game::{Batch, Seating};
use crate::rows;
use crate::table::{Rows, Table, TableSchema};

rows! {
    /// One row per win of the shown game.
    pub struct WinRow => "wins" {
        /// Hand number within the game (0 = first).
        hand: u32,
        /// The winner's seat.
        seat: u8,
        /// The discarder's seat; the winner's own for a tsumo.
        from: u8,
        /// Han including dora (13 per yakuman).
        han: u32,
        /// Fu.
        fu: u32,
        /// The hand's value before honba and deposits.
        points: u32,
        /// Yakuman multiplier (0 = not a yakuman hand).
        yakuman: u8,
        /// Dora that count.
        dora: u8,
        /// Red fives that count.
        aka: u8,
        /// Ura dora that count.
        ura: u8,
        /// Nukidora that count.
        nuki: u8,
        /// 0 none, 1 mangan, 2 haneman, 3 baiman, 4 sanbaiman, 5 kazoe yakuman, 6 yakuman.
        limit: u8,
        /// Seat that paid under pao; -1 if none.
        pao: i8,
    }
}

rows! {
    /// The yaku of each win of the shown game.
    pub struct WinYakuRow => "win_yaku" {
        /// Hand number within the game.
        hand: u32,
        /// The winner's seat.
        seat: u8,
        /// The yaku's bit in the `hands.yaku` mask (its name: `yaku_names()[yaku]`).
        yaku: u8,
        /// Its han (13 per yakuman multiple).
        han: u8,
    }
}

/// The tables a show adds to those of a batch ([`Game::show_schema`]).
///
/// [`Game::show_schema`]: crate::game::Game::show_schema
pub fn schema() -> Vec<TableSchema> {
    vec![WinRow::schema(), WinYakuRow::schema()]
}

/// The first game of `batch`, played alone with its events, wins and yaku.
pub fn show(rules: &Rules, lineup: &[Knobs], batch: &Batch) -> Vec<Table> {
    show_with(rules, lineup, batch, &mut []).expect("native strategies only choose legal actions")
}

/// [`show`] with the players of `outside` for the lineup slots played from outside the engine
/// (Python strategies).
pub fn show_with(rules: &Rules, lineup: &[Knobs], batch: &Batch, outside: &mut Outside<'_, Riichi>) -> Result<Vec<Table>, PlayerError> {
    let n = rules.seats();
    let seating = Seating::new(batch.first_game, n as u8, batch.duplicate);
    let mut state = State::new(rules);
    state.events = Some(Vec::new());
    let log = play_one(&mut state, lineup, batch.seed, &seating, outside)?;
    let (mut games, mut players, mut hands) = (Vec::new(), Vec::new(), Vec::new());
    push_rows(&log, &seating, n, &mut games, &mut players, &mut hands);
    let events: Vec<EventRow> = event_rows_of(&log, &seating).collect();
    let mut wins = Vec::new();
    let mut yaku = Vec::new();
    for (hand, (_, _, r)) in log.hands.iter().enumerate() {
        let hand = hand as u32;
        for w in &r.wins {
            let s = &w.score;
            wins.push(WinRow {
                hand,
                seat: w.seat,
                from: w.from,
                han: s.han,
                fu: s.fu,
                points: s.points,
                yakuman: s.yakuman,
                dora: s.dora,
                aka: s.aka,
                ura: s.ura,
                nuki: s.nuki,
                limit: s.limit as u8,
                pao: w.pao.map_or(-1, |s| s as i8),
            });
            yaku.extend(s.yaku(rules).into_iter().map(|(y, han)| WinYakuRow { hand, seat: w.seat, yaku: y as u8, han }));
        }
    }
    Ok(vec![
        GameRow::table(&games),
        PlayerRow::table(&players),
        HandRow::table(&hands),
        EventRow::table(&events),
        WinRow::table(&wins),
        WinYakuRow::table(&yaku),
    ])
}
