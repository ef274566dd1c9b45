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
use crate::competence::{Tally, Watch};
use crate::decide::{Fault, Player, PlayerError};
use crate::game::{Batch, Seating};
use crate::rng::Key;

/// A native player whose discards are judged (see the module doc).
struct Watched<'k> {
    native: Native<'k>,
    /// Hands identified by (round, honba, repeat).
    watch: Watch<(u32, u32, u32)>,
}

impl Watched<'_> {
    fn judge(&mut self, v: &View<'_>, legal: &[Action], tile: u8, riichi: bool) {
        let hand = (v.progress.round, v.progress.honba, v.progress.repeat);
        let plan = Plan::new(v);
        let in_riichi = v.seats[v.seat].riichi;
        let ready_legal = |tile: u8, riichi: bool| {
            let mut c = v.own.counts;
            c[usize::from(tile / 4)] -= 1;
            let waits = wait_mask(&c);
            (waits != 0, waits != 0 && plan.legal_win(&c, waits, in_riichi || riichi))
        };
        let (ready, legal_win) = ready_legal(tile, riichi);
        // A riichi that would be a foul is no way to a legal win.
        let other = || {
            legal.iter().any(|&a| {
                matches!(a, Action::Discard { tile, riichi } if (!riichi || !super::plan::foul_riichi(v, usize::from(tile / 4))) && ready_legal(tile, riichi).1)
            })
        };
        self.watch.discard(hand, ready, || !legal_win, other);
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
        // The key play_one gives the seat's native player: decisions are those of a run.
        let mut watched: Vec<Watched> = (0..lineup.len())
            .map(|slot| Watched {
                native: Native::new(&lineup[slot], root.with(TAG_STRATEGY).with(seating.deal).with(u64::from(seating.seat_of(slot).0))),
                watch: Watch::default(),
            })
            .collect();
        let mut outside: Vec<Option<&mut dyn Player<Riichi>>> = watched.iter_mut().map(|w| Some(w as &mut dyn Player<Riichi>)).collect();
        play_one(&mut state, lineup, batch.seed, &seating, &mut outside)?;
        drop(outside);
        for (slot, mut w) in watched.into_iter().enumerate() {
            w.watch.close();
            tallies[slot] += w.watch.tally;
        }
    }
    Ok(tallies)
}
