//! Competence under the rules: how often a strategy's ready hands cannot win legally.
//!
//! Each lineup slot's native player is watched through the decision contract (it decides exactly
//! as in a run, from its own view: the watcher only reads the discard chosen). After each of its
//! discards that leaves the hand ready, the hand evaluator judges, from the seat's view, whether
//! some wait wins legally by ron or tsumo under the rules (the least han, kuitan, sakizuke,
//! kansaki; riichi counted when the hand is in riichi or declares it with this discard; chance
//! yaku and furiten aside, as `plan.rs`). A ready hand that cannot is yakuless; it was avoidable
//! when another legal discard of that turn (riichi counted where offered) would have left a ready
//! hand that can. Counted per hand (a seat's hand is ready, yakuless, avoidably yakuless if it was
//! at any of its discards) and per discard.

use super::actions::{wait_mask, Action, Point, View};
use super::batch::play_one;
use super::plan::Plan;
use super::rules::Rules;
use super::strategies::{Knobs, Native};
use super::{Riichi, TAG_STRATEGY};
use crate::decide::{Fault, Player, PlayerError};
use crate::game::{Batch, Seating};
use crate::rng::Key;
use std::ops::AddAssign;

/// What one lineup slot's ready hands were.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// Hands in which the slot discarded at least once.
    pub hands: u64,
    /// Hands ready after some own discard.
    pub ready_hands: u64,
    /// Hands ready without a legal win after some own discard.
    pub yakuless_hands: u64,
    /// Hands ready without a legal win where another discard of that turn kept a legal one.
    pub avoidable_hands: u64,
    /// Own discards.
    pub discards: u64,
    /// Own discards after which the hand was ready.
    pub ready_discards: u64,
    /// Of which without a legal win.
    pub yakuless_discards: u64,
    /// Of which another discard of that turn would have left a legal ready hand.
    pub avoidable_discards: u64,
}

impl AddAssign for Tally {
    fn add_assign(&mut self, o: Tally) {
        self.hands += o.hands;
        self.ready_hands += o.ready_hands;
        self.yakuless_hands += o.yakuless_hands;
        self.avoidable_hands += o.avoidable_hands;
        self.discards += o.discards;
        self.ready_discards += o.ready_discards;
        self.yakuless_discards += o.yakuless_discards;
        self.avoidable_discards += o.avoidable_discards;
    }
}

/// A native player whose discards are judged (see the module doc).
struct Watched<'k> {
    native: Native<'k>,
    tally: Tally,
    /// The hand being played (round, honba, repeat) and what it was so far: ready, yakuless,
    /// avoidably yakuless.
    hand: Option<(u32, u32, u32)>,
    seen: [bool; 3],
}

impl Watched<'_> {
    fn close_hand(&mut self) {
        let [ready, yakuless, avoidable] = self.seen;
        self.tally.ready_hands += u64::from(ready);
        self.tally.yakuless_hands += u64::from(yakuless);
        self.tally.avoidable_hands += u64::from(avoidable);
        self.seen = [false; 3];
    }

    fn judge(&mut self, v: &View<'_>, legal: &[Action], tile: u8, riichi: bool) {
        let hand = (v.progress.round, v.progress.honba, v.progress.repeat);
        if self.hand != Some(hand) {
            self.close_hand();
            self.hand = Some(hand);
            self.tally.hands += 1;
        }
        self.tally.discards += 1;
        let plan = Plan::new(v);
        let in_riichi = v.seats[v.seat].riichi;
        let ready_legal = |tile: u8, riichi: bool| {
            let mut c = v.own.counts;
            c[usize::from(tile / 4)] -= 1;
            let waits = wait_mask(&c);
            (waits != 0, waits != 0 && plan.legal_win(&c, waits, in_riichi || riichi))
        };
        let (ready, legal_win) = ready_legal(tile, riichi);
        if !ready {
            return;
        }
        self.seen[0] = true;
        self.tally.ready_discards += 1;
        if legal_win {
            return;
        }
        self.seen[1] = true;
        self.tally.yakuless_discards += 1;
        // A riichi that would be a foul is no way to a legal win.
        let other = legal.iter().any(|&a| {
            matches!(a, Action::Discard { tile, riichi } if (!riichi || !super::plan::foul_riichi(v, usize::from(tile / 4))) && ready_legal(tile, riichi).1)
        });
        if other {
            self.seen[2] = true;
            self.tally.avoidable_discards += 1;
        }
    }
}

impl Player<Riichi> for Watched<'_> {
    fn decide(&mut self, v: &View<'_>, point: Point, legal: &[Action]) -> Result<Action, Fault> {
        let chosen = self.native.decide(v, point, legal)?;
        if let (Point::Turn { .. }, Action::Discard { tile, riichi }) = (point, chosen) {
            self.judge(v, legal, tile, riichi);
        }
        Ok(chosen)
    }
}

/// Plays `batch` as a run plays it (the same games, decisions and keys) and returns each lineup
/// slot's [`Tally`].
pub fn audit(rules: &Rules, lineup: &[Knobs], batch: &Batch) -> Result<Vec<Tally>, PlayerError> {
    let n = rules.seats();
    let mut state = super::state::State::new(rules);
    let mut tallies = vec![Tally::default(); lineup.len()];
    let root = Key::new(batch.seed);
    for game in batch.games() {
        let seating = Seating::new(game, n as u8, batch.duplicate);
        let seat_of = |slot: usize| (0..n).find(|&s| usize::from(seating.player(s as u8)) == slot).expect("every slot is seated");
        // The key play_one gives the seat's native player: decisions are those of a run.
        let mut watched: Vec<Watched> = (0..lineup.len())
            .map(|slot| Watched {
                native: Native::new(&lineup[slot], root.with(TAG_STRATEGY).with(seating.deal).with(seat_of(slot) as u64)),
                tally: Tally::default(),
                hand: None,
                seen: [false; 3],
            })
            .collect();
        let mut outside: Vec<Option<&mut dyn Player<Riichi>>> = watched.iter_mut().map(|w| Some(w as &mut dyn Player<Riichi>)).collect();
        play_one(&mut state, lineup, batch.seed, &seating, &mut outside)?;
        drop(outside);
        for (slot, mut w) in watched.into_iter().enumerate() {
            w.close_hand();
            tallies[slot] += w.tally;
        }
    }
    Ok(tallies)
}
