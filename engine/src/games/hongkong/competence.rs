//! Competence under the rules: how often a strategy's ready hands cannot win legally.
//!
//! Each lineup slot's native player is watched through the decision contract (it decides exactly
//! as in a run, with the same keyed random stream, from its own view: the watcher only reads the
//! discard chosen). After each of its discards that leaves the hand ready, the hand evaluator
//! judges, from the seat's view, whether some wait wins legally by a discard or a self-draw under
//! the rules (the minimum fan, bonus tiles not counted; chance fan such as the last tile or a
//! replacement aside, as `plan.rs`). A ready hand that cannot is under the minimum; it was
//! avoidable when another legal discard of that turn would have left a ready hand that can.
//! Counted per hand (a seat's hand is ready, cannot win, avoidably cannot win if it was so after
//! any of its discards) and per discard. The unrelated hands (limit hands that no strategy aims
//! for) do not count as ready.

use super::actions::{Action, Point, View};
use super::batch::{play_game_with, Tables};
use super::plan::Planner;
use super::rules::Rules;
use super::strategies::{Bot, Knobs};
use super::HongKong;
use crate::decide::{Fault, Player, PlayerError};
use crate::game::{Batch, Seating};
use crate::games::riichi::tiles::KINDS;
use std::cell::RefCell;
use std::ops::AddAssign;

/// What one lineup slot's ready hands were.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// Hands in which the slot discarded at least once.
    pub hands: u64,
    /// Hands ready after some own discard.
    pub ready_hands: u64,
    /// Hands ready without a legal win after some own discard.
    pub cannot_win_hands: u64,
    /// Hands ready without a legal win where another discard of that turn kept a legal one.
    pub avoidable_hands: u64,
    /// Own discards.
    pub discards: u64,
    /// Own discards after which the hand was ready.
    pub ready_discards: u64,
    /// Of which without a legal win.
    pub cannot_win_discards: u64,
    /// Of which another discard of that turn would have left a legal ready hand.
    pub avoidable_discards: u64,
}

impl AddAssign for Tally {
    fn add_assign(&mut self, o: Tally) {
        self.hands += o.hands;
        self.ready_hands += o.ready_hands;
        self.cannot_win_hands += o.cannot_win_hands;
        self.avoidable_hands += o.avoidable_hands;
        self.discards += o.discards;
        self.ready_discards += o.ready_discards;
        self.cannot_win_discards += o.cannot_win_discards;
        self.avoidable_discards += o.avoidable_discards;
    }
}

/// A native player of one hand whose discards are judged (see the module doc) into its slot's
/// tally.
struct Watched<'t> {
    bot: Bot<'t>,
    tally: &'t RefCell<Tally>,
    /// What this hand was so far: discarded, ready, cannot win, avoidably cannot win.
    seen: [bool; 4],
}

impl Watched<'_> {
    fn judge(&mut self, v: &View<'_>, kind: u8) {
        let mut t = self.tally.borrow_mut();
        let mut mark = |i: usize, hands: &mut u64| {
            if !self.seen[i] {
                self.seen[i] = true;
                *hands += 1;
            }
        };
        mark(0, &mut t.hands);
        t.discards += 1;
        let plan = Planner::new(v, 0, 0);
        let after = |k: usize| {
            let mut c = *v.concealed;
            c[k] -= 1;
            plan.ready(&c)
        };
        let (ready, legal) = after(usize::from(kind));
        if !ready {
            return;
        }
        mark(1, &mut t.ready_hands);
        t.ready_discards += 1;
        if legal {
            return;
        }
        mark(2, &mut t.cannot_win_hands);
        t.cannot_win_discards += 1;
        if (0..KINDS).any(|k| k != usize::from(kind) && v.concealed[k] > 0 && after(k).1) {
            mark(3, &mut t.avoidable_hands);
            t.avoidable_discards += 1;
        }
    }
}

impl Player<HongKong> for Watched<'_> {
    fn decide(&mut self, v: &View<'_>, point: Point, legal: &[Action]) -> Result<Action, Fault> {
        let chosen = self.bot.decide(v, point, legal)?;
        if let Action::Discard(kind) = chosen {
            self.judge(v, kind);
        }
        Ok(chosen)
    }
}

/// Plays `batch` as a run plays it (the same games, decisions and keys) and returns each lineup
/// slot's [`Tally`].
pub fn audit(rules: &Rules, lineup: &[Knobs], batch: &Batch) -> Result<Vec<Tally>, PlayerError> {
    let tallies: Vec<RefCell<Tally>> = lineup.iter().map(|_| RefCell::default()).collect();
    let native = |slot: usize, rng| Watched { bot: Bot { knobs: &lineup[slot], rng }, tally: &tallies[slot], seen: [false; 4] };
    for g in batch.games() {
        let mut out = Tables::default();
        play_game_with(rules, batch.seed, Seating::new(g, 4, batch.duplicate), &mut [], &mut out, None, &native)?;
    }
    Ok(tallies.into_iter().map(RefCell::into_inner).collect())
}
