//! Competence under the rules (`crate::competence`): how often a strategy's ready hands cannot win
//! legally.
//!
//! Each lineup slot's native player is watched through the decision contract (it decides exactly
//! as in a run, with the same keyed random stream of each hand, from its own view: the watcher only
//! reads the discard chosen). After each of its discards that leaves the hand ready, the hand evaluator
//! judges, from the seat's view, whether some wait wins legally by a discard or a self-draw under
//! the rules (the minimum fan, bonus tiles not counted; chance fan such as the last tile or a
//! replacement aside, as `plan.rs`). A ready hand that cannot is under the minimum; it was
//! avoidable when another legal discard of that turn would have left a ready hand that can.
//! Counted per hand (a seat's hand is ready, cannot win, avoidably cannot win if it was so after
//! any of its discards) and per discard. The unrelated hands (limit hands that no strategy aims
//! for) do not count as ready.

use super::actions::{Action, Point, View};
use super::batch::{play_game, Tables};
use super::plan::Planner;
use super::rules::Rules;
use super::state::HandKeys;
use super::strategies::{Bot, Knobs};
use super::HongKong;
use crate::competence::{Tally, Watch};
use crate::decide::{Fault, Player, PlayerError};
use crate::game::{Batch, Seating};
use crate::games::riichi::tiles::KINDS;

/// A native player whose discards are judged (see the module doc), for one game.
struct Watched<'k> {
    knobs: &'k Knobs,
    seed: u64,
    deal: u64,
    /// The native player of the hand being played, by its index: a run makes one per hand, with
    /// that hand's keyed stream.
    bot: Option<(u16, Bot<'k>)>,
    /// Hands identified by their index in the game.
    watch: Watch<u16>,
}

impl Player<HongKong> for Watched<'_> {
    fn decide(&mut self, v: &View<'_>, point: Point, legal: &[Action]) -> Result<Action, Fault> {
        if self.bot.as_ref().is_none_or(|(hand, _)| *hand != v.hand) {
            let rng = HandKeys::new(v.rules.chance_recipe, self.seed, self.deal, u64::from(v.hand)).strategy(v.seat);
            self.bot = Some((v.hand, Bot { knobs: self.knobs, rng }));
        }
        let chosen = self.bot.as_mut().expect("made above").1.decide(v, point, legal)?;
        if let Action::Discard(kind) = chosen {
            let plan = Planner::new(v, 0, 0);
            let after = |k: usize| {
                let mut c = *v.concealed;
                c[k] -= 1;
                plan.ready(&c)
            };
            let (ready, legal_win) = after(usize::from(kind));
            let other = || (0..KINDS).any(|k| k != usize::from(kind) && v.concealed[k] > 0 && after(k).1);
            self.watch.discard(v.hand, ready, || !legal_win, other);
        }
        Ok(chosen)
    }
}

/// Plays `batch` as a run plays it (the same games, decisions and keys) and returns each lineup
/// slot's [`Tally`].
pub fn audit(rules: &Rules, lineup: &[Knobs], batch: &Batch) -> Result<Vec<Tally>, PlayerError> {
    let mut tallies = vec![Tally::default(); lineup.len()];
    for game in batch.games() {
        let seating = Seating::new(game, 4, batch.duplicate);
        let mut watched: Vec<Watched> = lineup
            .iter()
            .map(|knobs| Watched { knobs, seed: batch.seed, deal: seating.deal, bot: None, watch: Watch::default() })
            .collect();
        let mut outside: Vec<Option<&mut dyn Player<HongKong>>> =
            watched.iter_mut().map(|w| Some(w as &mut dyn Player<HongKong>)).collect();
        play_game(rules, lineup, batch.seed, seating, &mut outside, &mut Tables::default(), None)?;
        drop(outside);
        for (tally, mut w) in tallies.iter_mut().zip(watched) {
            w.watch.close();
            *tally += w.watch.tally;
        }
    }
    Ok(tallies)
}
