//! Competence under the rules (`crate::competence`): how often a strategy's ready hands cannot win
//! by ron. Trump mahjong has no calls, so every ready hand may win by tsumo (a yaku); the rules
//! take away ron (`plan.rs`: no yaku without riichi, 完全先付け, furiten). Each lineup slot's
//! native player is watched through the decision contract (it decides exactly as in a run, from
//! its own view: the watcher only reads the discard chosen). After each of its discards that
//! leaves the hand tenpai, `hand::ron`'s ruling on each wait, from the seat's view and with the
//! riichi declared by that discard, says whether some wait can win by ron; it was avoidable when
//! another card of that turn, discarded with riichi where the rules allowed one or without, kept
//! a tenpai hand that can.
//!
//! A player seated from outside the engine does not see the hand's keyed stream of random
//! decisions, so a slot with `discard = "random"` plays other random choices than in a run; the
//! competence table seats none.

use super::actions::{Action, Point, View};
use super::batch::{play_game, Rows3};
use super::plan::{judge, ron_legal, Ron};
use super::rules::Rules;
use super::state::{Silent, TAG_STRATEGY};
use super::strategies::{Knobs, Native, Policy};
use super::Trump;
use crate::competence::{Tally, Watch};
use crate::decide::{Fault, Player, PlayerError};
use crate::game::{Batch, Seating};
use crate::rng::Key;

/// A native player whose discards are judged (see the module doc).
struct Watched<'p> {
    native: Native<'p>,
    /// Hands in which the seat discarded, counted from its first own discard (none made yet).
    hand: u64,
    watch: Watch<u64>,
}

impl Player<Trump> for Watched<'_> {
    fn decide(&mut self, v: &View<'_>, point: Point, legal: &[Action]) -> Result<Action, Fault> {
        let chosen = self.native.decide(v, point, legal)?;
        if let (Point::Discard, Action::Discard { card, riichi }) = (point, chosen) {
            self.hand += u64::from(v.discarded[v.seat] == 0);
            let after = v.after.expect("a discard view carries the shapes after each discard");
            let rules = &self.native.policy.rules;
            let riichi_legal = legal.len() > v.hand.len();
            let waits = after[usize::from(card.kind())].waits;
            let cannot = || !ron_legal(v, rules, card.kind(), waits, riichi);
            let other = || {
                v.hand.iter().any(|c| {
                    let w = after[usize::from(c.kind())].waits;
                    w != 0 && judge(v, rules, c.kind(), w, riichi_legal) != Ron::Never
                })
            };
            self.watch.discard(self.hand, waits != 0, cannot, other);
        }
        Ok(chosen)
    }
}

/// Plays `batch` as a run plays it (the same games, decisions and keys; see the module doc for
/// random discards) and returns each lineup slot's [`Tally`].
pub fn audit(rules: &Rules, lineup: &[Knobs], batch: &Batch) -> Result<Vec<Tally>, PlayerError> {
    let policies: Vec<Policy> = lineup.iter().map(|k| Policy::new(k.clone(), rules.clone())).collect();
    let mut tallies = vec![Tally::default(); lineup.len()];
    for game in batch.games() {
        let seating = Seating::new(game, lineup.len() as u8, batch.duplicate);
        let key = Key::new(batch.seed).with(TAG_STRATEGY).with(seating.deal);
        let mut watched: Vec<Watched> = policies
            .iter()
            .enumerate()
            .map(|(slot, policy)| Watched {
                native: Native { policy, rng: key.with(slot as u64).stream() },
                hand: 0,
                watch: Watch::default(),
            })
            .collect();
        let mut outside: Vec<Option<&mut dyn Player<Trump>>> = watched.iter_mut().map(|w| Some(w as &mut dyn Player<Trump>)).collect();
        play_game(rules, &policies, batch.seed, seating, &mut outside, &mut Silent, &mut Rows3::default()).map_err(|e| e.in_game(game))?;
        drop(outside);
        for (tally, mut w) in tallies.iter_mut().zip(watched) {
            w.watch.close();
            *tally += w.watch.tally;
        }
    }
    Ok(tallies)
}
