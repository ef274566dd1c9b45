//! [`Game::show`](crate::game::Game::show) of sugoroku: one game played again, recorded turn by
//! turn. Besides `games` and `players` of that game it returns `course` (the tile on each square and
//! the turn it was turned face up), `dora` (the dora count per kind), `positions` (every seat's
//! piece, points, rests and pending multiplier after the deal, turn 0, and after each turn), `rolls`
//! (every roll of the dice, in order) and `decisions` (every option asked, and the answer).

use super::actions::{Decision, Driver, Point};
use super::batch::{natives, settle_rows, GameRow, PlayerRow, Tabletop};
use super::rules::Rules;
use super::state::{State, KINDS};
use super::strategies::Knobs;
use super::{Sugoroku, TAG_SETUP};
use crate::decide::{seat_players, Outside, PlayerError};
use crate::game::{Batch, Seating};
use crate::rng::Key;
use crate::rows;
use crate::table::{Rows, Table, TableSchema};

rows! {
    /// One row per course square.
    pub struct SquareRow => "course" {
        /// Square 1..=course_length (0 is the start, course_length + 1 the goal).
        square: u8,
        /// Tile id: 0–33 the plain kinds (0–8 manzu 1–9, 9–17 pinzu, 18–26 souzu, 27–30 East South West North, 31 white, 32 green, 33 red dragon), 34 red 5m, 35 red 5p, 36 gold 5p, 37 red 5s, 38 gold 5s, 39 pochi.
        tile: u8,
        /// The turn after which the square was face up (0 = never turned).
        revealed: u32,
    }
}

rows! {
    /// The dora: how many flipped tiles make each kind dora.
    pub struct DoraRow => "dora" {
        /// Plain kind 0–33.
        kind: u8,
        /// Dora count of the kind (> 0 only).
        count: u8,
    }
}

rows! {
    /// Every seat after the deal (turn 0) and after each turn.
    pub struct PositionRow => "positions" {
        /// Turns played so far (every seat's turns, rests included).
        turn: u32,
        /// The seat whose turn it was (255 at turn 0).
        mover: u8,
        /// The seat described.
        seat: u8,
        /// Its piece: 0 start, course_length + 1 goal.
        pos: u8,
        /// Its points before the end settlement.
        points: i64,
        /// Rests it still has to serve.
        rests: u32,
        /// The multiplier pending for its next landing.
        mult: u64,
    }
}

rows! {
    /// Every roll of the dice.
    pub struct RollRow => "rolls" {
        /// The turn it belongs to (1 = the first turn).
        turn: u32,
        /// The seat rolling.
        seat: u8,
        /// Roll number within the turn (0 = the turn's roll; then pinzoro and 6-zoro rolls).
        roll: u32,
        /// The first die.
        die1: u8,
        /// The second die.
        die2: u8,
    }
}

rows! {
    /// Every option asked (G-D1…G-D4) and the answer.
    pub struct DecisionRow => "decisions" {
        /// The turn it was asked in (for G-D4, the turn about to start).
        turn: u32,
        /// The seat asked.
        seat: u8,
        /// The option: the pinzoro back re-roll, the 6-zoro extra roll, the offset after a pinzoro
        /// or after a 6-zoro, or agreeing to end the game.
        decision: Decision,
        /// Whether the seat took the option.
        taken: bool,
    }
}

/// The batch's driver, with everything it hands out and every turn's outcome written down.
struct Recorder<'d, D: Driver> {
    inner: &'d mut D,
    turn: u32,
    positions: Vec<PositionRow>,
    rolls: Vec<RollRow>,
    decisions: Vec<DecisionRow>,
    revealed: Vec<u32>,
}

impl<D: Driver> Recorder<'_, D> {
    fn snapshot(&mut self, state: &State<'_>, mover: u8) {
        for (seat, p) in state.players[..state.n].iter().enumerate() {
            self.positions.push(PositionRow {
                turn: self.turn,
                mover,
                seat: seat as u8,
                pos: p.pos,
                points: p.points,
                rests: p.rests,
                mult: p.mult,
            });
        }
        for (sq, r) in self.revealed.iter_mut().enumerate().skip(1) {
            if *r == 0 && state.is_up(sq) {
                *r = self.turn;
            }
        }
    }
}

impl<D: Driver> Driver for Recorder<'_, D> {
    type Error = D::Error;

    fn dice(&mut self, seat: usize, turn: u32, roll: u32) -> Option<(u8, u8)> {
        let d = self.inner.dice(seat, turn, roll)?;
        self.rolls.push(RollRow { turn: self.turn + 1, seat: seat as u8, roll, die1: d.0, die2: d.1 });
        Some(d)
    }

    fn decide(&mut self, state: &State<'_>, seat: usize, point: Point) -> Result<bool, D::Error> {
        let taken = self.inner.decide(state, seat, point)?;
        self.decisions.push(DecisionRow { turn: self.turn + 1, seat: seat as u8, decision: point.decision, taken });
        Ok(taken)
    }

    fn turn_done(&mut self, state: &State<'_>, seat: usize) {
        self.turn += 1;
        self.snapshot(state, seat as u8);
    }
}

/// The tables a show adds to those of a batch ([`Game::show_schema`]).
///
/// [`Game::show_schema`]: crate::game::Game::show_schema
pub fn schema() -> Vec<TableSchema> {
    vec![SquareRow::schema(), DoraRow::schema(), PositionRow::schema(), RollRow::schema(), DecisionRow::schema()]
}

/// The first game of `batch`, played alone and recorded turn by turn.
pub fn show(rules: &Rules, lineup: &[Knobs], batch: &Batch) -> Vec<Table> {
    show_with(rules, lineup, batch, &mut []).expect("native strategies never fail")
}

/// [`show`] with the players of `outside` in the slots played from outside the engine (Python
/// strategies).
pub fn show_with(rules: &Rules, lineup: &[Knobs], batch: &Batch, outside: &mut Outside<'_, Sugoroku>) -> Result<Vec<Table>, PlayerError> {
    let n = lineup.len();
    let seating = Seating::new(batch.first_game, n as u8, batch.duplicate);
    let root = Key::new(batch.seed);
    let mut state = State::new(rules, n);
    let mut natives = natives(lineup, root, &seating);
    let seats = seat_players(&mut natives, outside, &seating);
    let mut table = Tabletop::new(root, &seating, seats);
    state.deal(root.with(TAG_SETUP).with(seating.deal));
    let mut rec = Recorder {
        inner: &mut table,
        turn: 0,
        positions: Vec::new(),
        rolls: Vec::new(),
        decisions: Vec::new(),
        revealed: vec![0; usize::from(state.len) + 1],
    };
    rec.snapshot(&state, u8::MAX);
    state.play(&mut rec).map_err(|e| (*e).in_game(seating.game))?;
    let Recorder { positions, rolls, decisions, revealed, .. } = rec;
    let course: Vec<SquareRow> = (1..=state.len)
        .map(|sq| SquareRow { square: sq, tile: state.course[usize::from(sq)], revealed: revealed[usize::from(sq)] })
        .collect();
    let dora: Vec<DoraRow> = (0..KINDS).filter(|&k| state.dora[k] > 0).map(|k| DoraRow { kind: k as u8, count: state.dora[k] }).collect();
    let (mut games, mut players) = (Vec::new(), Vec::new());
    settle_rows(&mut state, &seating, &mut games, &mut players);
    Ok(vec![
        GameRow::table(&games),
        PlayerRow::table(&players),
        SquareRow::table(&course),
        DoraRow::table(&dora),
        PositionRow::table(&positions),
        RollRow::table(&rolls),
        DecisionRow::table(&decisions),
    ])
}
