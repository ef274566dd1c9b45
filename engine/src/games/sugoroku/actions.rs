//! Decision points (§12), what a seat sees when it decides, and the [`Driver`] through which the
//! game state gets its dice and asks its players.
//!
//! Sugoroku on the decision contract ([`crate::decide`]): every decision is an optional choice of
//! the rules, a yes/no question asked with the legal list [`LEGAL`] (`[Pass, Take]`, pass being
//! the rules' default), and a player decides from the seat's [`View`]: everything at the table is
//! public except the tiles of the face-down course squares and the dice to come, and the view
//! holds neither.
//!
//! The game state never draws chance or consults a player itself: it asks a [`Driver`]. The
//! batch's driver reads keyed dice and asks the seats' players through [`crate::decide::ask`]; the
//! greedy strategy's lookahead runs the same state code with a driver that injects one dice
//! outcome and declines everything else.

use super::rules::Rules;
use super::scoring::distance_share;
use super::state::{self, State, Stats, FACE_DOWN, KINDS, TILES, TILE_IDS};
use super::Sugoroku;
use crate::decide::Decisions;

crate::code_enum! {
    /// The optional choices of the game. Each question is "take the option?"; [`Action::Pass`] is
    /// the default of the rules (no extra roll, no offset, no agreement). The label is the
    /// decision's name in messages, in the Python protocol's view (`decision`) and in the show's
    /// `decisions` table.
    pub enum Decision {
        /// G-D1: after the pinzoro back-2 landing, roll again and move back by the sum?
        PinzoroReroll = "pinzoro_reroll",
        /// G-D2: after the 6-zoro 12-square landing, roll again?
        ExtraRoll = "extra_roll",
        /// G-D3 after a pinzoro: the landing was a wind; cancel one rest instead of the back re-roll?
        PinzoroOffset = "pinzoro_offset",
        /// G-D3 after a 6-zoro: the landing was a wind; cancel one rest instead of the extra roll?
        SixzoroOffset = "sixzoro_offset",
        /// G-D4: every piece is near the goal; agree to end the game now without settlement?
        AgreeEnd = "agree_end",
    }
}

impl Decision {
    /// A stable number for keying random decisions (a key, not the column code: it never changes).
    pub fn code(self) -> u64 {
        match self {
            Decision::PinzoroReroll => 1,
            Decision::ExtraRoll => 2,
            Decision::PinzoroOffset => 3,
            Decision::SixzoroOffset => 4,
            Decision::AgreeEnd => 5,
        }
    }
}

/// Where in the game a decision is asked: the decision, the seat's own turn number (rounds for
/// G-D4) and the roll number within that turn, so that a random strategy can key its choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Point {
    pub decision: Decision,
    pub turn: u32,
    pub roll: u32,
}

/// The answer to a decision point's question.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Decline the option (the rules' default).
    Pass,
    /// Take the option.
    Take,
}

/// The legal actions of every decision point.
pub const LEGAL: [Action; 2] = [Action::Pass, Action::Take];

impl Decisions for Sugoroku {
    type View<'a> = View<'a>;
    type Point = Point;
    type Action = Action;

    fn seat(view: &View<'_>) -> usize {
        view.seat
    }

    fn point_name(point: Point) -> &'static str {
        point.decision.label()
    }
}

/// What one seat may know when it decides: the whole table but the tiles of the face-down course
/// squares (of those it knows only how many of each tile id are left, [`View::unseen`]) and the
/// dice to come, which are in no part of the game state. It holds no reference to the course, so
/// no strategy can read a face-down tile:
///
/// ```
/// use simharness_engine::games::sugoroku::actions::View;
/// fn next_square(v: &View<'_>) -> u8 {
///     v.face[usize::from(v.players[v.seat].pos) + 1]
/// }
/// ```
///
/// ```compile_fail
/// use simharness_engine::games::sugoroku::actions::View;
/// fn next_square(v: &View<'_>) -> u8 {
///     v.course[usize::from(v.players[v.seat].pos) + 1]
/// }
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct View<'a> {
    pub rules: &'a Rules,
    /// The deciding seat.
    pub seat: usize,
    /// Every seated player's piece, pending multiplier, rests, points and counters.
    pub players: &'a [state::Player],
    /// The course as it lies: the tile id of each face-up square 1..goal, [`FACE_DOWN`] for the
    /// others (and for the start).
    pub face: &'a [u8; TILES + 1],
    /// The goal's position (course length + 1).
    pub goal: u8,
    /// Dora count per kind.
    pub dora: &'a [u8; KINDS],
    /// Course tiles still face down, per tile id.
    pub unseen: &'a [u8; TILE_IDS],
    /// The game's counters (turns and rounds played, ...).
    pub stats: &'a Stats,
}

impl View<'_> {
    /// What the deciding seat would get from the distance settlement if the race were decided now.
    pub fn projected_settlement(&self) -> i64 {
        let mut d = [0i64; state::MAX_PLAYERS];
        for (x, p) in d.iter_mut().zip(self.players) {
            *x = i64::from(self.goal - p.pos);
        }
        distance_share(i64::from(self.rules.distance_rate), &d[..self.players.len()], self.seat)
    }

    /// The tile of face-up square `sq`, `None` for a face-down square, the start and the goal.
    pub fn tile(&self, sq: usize) -> Option<u8> {
        self.face.get(sq).copied().filter(|&t| t != FACE_DOWN)
    }
}

/// Where a turn stands in its keyed dice: the seat's rolling-turn number and the number of the
/// last roll made in it (0 = the turn's first roll).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rolls {
    pub turn: u32,
    pub roll: u32,
}

impl Rolls {
    /// The decision point `decision` at this moment of the turn.
    pub fn at(self, decision: Decision) -> Point {
        Point { decision, turn: self.turn, roll: self.roll }
    }

    /// The turn's next roll.
    pub fn next<D: Driver>(&mut self, seat: usize, driver: &mut D) -> Option<(u8, u8)> {
        self.roll += 1;
        driver.dice(seat, self.turn, self.roll)
    }
}

/// What a roll decision does when it is taken (the "yes" branch), so that a lookahead can apply it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RollKind {
    /// A turn's ordinary roll: 1-1 and 6-6 start their procedures.
    Turn,
    /// The pinzoro back re-roll: move back by the sum.
    PinzoroBack,
    /// The 6-zoro extra roll: a full roll or a plain forward move, per `sixzoro_extra_roll`.
    SixzoroExtra,
}

/// What the game state asks of the world outside its rules: dice, and the seats' decisions.
pub trait Driver {
    /// Why a decision could not be answered (a player's error; a lookahead never fails).
    type Error;
    /// Two dice for `seat`'s roll number `roll` of its turn number `turn`; `None` stops the
    /// sequence without rolling (used by lookaheads that ignore further randomness).
    fn dice(&mut self, seat: usize, turn: u32, roll: u32) -> Option<(u8, u8)>;
    /// Whether `seat` takes the option at `point` (the batch asks the seat's player with
    /// [`State::view`]).
    fn decide(&mut self, state: &State<'_>, seat: usize, point: Point) -> Result<bool, Self::Error>;
    /// Called by [`State::play`] after each turn (a rest served included): the hook through which
    /// `show` records the game turn by turn.
    fn turn_done(&mut self, _state: &State<'_>, _seat: usize) {}
}
