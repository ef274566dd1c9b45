//! Decision points (§12) and the interface through which a game asks for dice and decisions.
//!
//! The game state never draws chance or consults a strategy itself: it asks a [`Driver`]. The
//! batch's driver reads keyed dice and the seat's strategy; the greedy strategy's lookahead runs
//! the same state code with a driver that injects one dice outcome and declines everything else.

use super::state::State;

/// The optional choices of the game. Each question is "take the option?"; `false` is the default
/// of the rules (no extra roll, no offset, no agreement).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    /// G-D1: after the pinzoro back-2 landing, roll again and move back by the sum?
    PinzoroReroll,
    /// G-D2: after the 6-zoro 12-square landing, roll again?
    ExtraRoll,
    /// G-D3 after a pinzoro: the landing was a wind; cancel one rest instead of the back re-roll?
    PinzoroOffset,
    /// G-D3 after a 6-zoro: the landing was a wind; cancel one rest instead of the extra roll?
    SixzoroOffset,
    /// G-D4: every piece is near the goal; agree to end the game now without settlement?
    AgreeEnd,
}

impl Decision {
    /// A stable number for keying random decisions.
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

/// Where in the game a decision is asked: the seat's own turn number (rounds for G-D4) and the
/// roll number within that turn, so that a random strategy can key its choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DecisionPoint {
    pub decision: Decision,
    pub turn: u32,
    pub roll: u32,
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
    pub fn at(self, decision: Decision) -> DecisionPoint {
        DecisionPoint { decision, turn: self.turn, roll: self.roll }
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

/// Supplies dice and answers decisions.
pub trait Driver {
    /// Two dice for `seat`'s roll number `roll` of its turn number `turn`; `None` stops the
    /// sequence without rolling (used by lookaheads that ignore further randomness).
    fn dice(&mut self, seat: usize, turn: u32, roll: u32) -> Option<(u8, u8)>;
    /// Whether `seat` takes the option at `point`.
    fn decide(&mut self, state: &State<'_>, seat: usize, point: DecisionPoint) -> bool;
    /// Called by [`State::play`] after each turn (a rest served included): the hook through which
    /// `show` records the game turn by turn.
    fn turn_done(&mut self, _state: &State<'_>, _seat: usize) {}
}
