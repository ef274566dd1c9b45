//! Competence under the rules (`crate::competence`): how often a strategy's ready hands cannot win
//! legally. Each lineup slot's native player is watched through the decision contract (it decides
//! exactly as in a run, from its own view: the watcher only reads the discard chosen). After each
//! of its discards that leaves the hand ready, the plan's judgement (`plan.rs`, from the seat's
//! view) says whether some wait completes a hand that reaches the minimum base; a ready hand with
//! none cannot win at all (furiten forbids only ron). It was avoidable when another tile of that
//! turn's hand would have left a ready hand with a legal wait.

use super::actions::{Action, Point, View};
use super::batch::{play_game, BatchRows};
use super::plan::{Left, Reach};
use super::rules::Rules;
use super::state::DealKeys;
use super::strategies::{Knobs, Native, Policy};
use super::Suzume;
use crate::competence::{Tally, Watch};
use crate::decide::{Fault, Player, PlayerError};
use crate::game::{Batch, Seating};

/// A native player whose discards are judged (see the module doc).
struct Watched<'p> {
    native: Native<'p>,
    reach: &'p Reach,
    /// Hands identified by their index in the game.
    watch: Watch<u64>,
}

impl Player<Suzume> for Watched<'_> {
    fn decide(&mut self, v: &View<'_>, point: Point, legal: &[Action]) -> Result<Action, Fault> {
        let chosen = self.native.decide(v, point, legal)?;
        if let (Point::Discard, Action::Discard(tile)) = (point, chosen) {
            let index = v.hand.iter().position(|&t| t == tile).expect("a tile of the hand");
            let left = Left::after(v, index);
            let ready = super::scoring::Tables::get().five(left.s5).0 == 1;
            let reach = self.reach;
            let other = || (0..v.hand.len()).any(|i| Left::after(v, i).legal_waits(reach) != 0);
            self.watch.discard(v.hand_index, ready, || left.legal_waits(reach) == 0, other);
        }
        Ok(chosen)
    }
}

/// Plays `batch` as a run plays it (the same games, decisions and keys) and returns each lineup
/// slot's [`Tally`].
pub fn audit(rules: &Rules, lineup: &[Knobs], batch: &Batch) -> Result<Vec<Tally>, PlayerError> {
    let policies: Vec<Policy> = lineup.iter().map(|k| Policy::new(k.clone(), rules.clone())).collect();
    let reach = Reach::new(rules);
    let n = lineup.len() as u8;
    let mut tallies = vec![Tally::default(); lineup.len()];
    for game in batch.games() {
        let seating = Seating::new(game, n, batch.duplicate);
        // The key play_game gives every native player: decisions are those of a run.
        let key = DealKeys::new(batch.seed, seating.deal).strategy;
        let mut watched: Vec<Watched> =
            policies.iter().map(|policy| Watched { native: Native::new(policy, key), reach: &reach, watch: Watch::default() }).collect();
        let mut outside: Vec<Option<&mut dyn Player<Suzume>>> = watched.iter_mut().map(|w| Some(w as &mut dyn Player<Suzume>)).collect();
        play_game(rules, &policies, batch.seed, seating, &mut outside, &mut (), &mut BatchRows::default())?;
        drop(outside);
        for (tally, mut w) in tallies.iter_mut().zip(watched) {
            w.watch.close();
            *tally += w.watch.tally;
        }
    }
    Ok(tallies)
}
