//! No hidden information reaches a strategy. At decision points of every built-in sugoroku strategy
//! (every knob script in `strategies/sugoroku/`), everything the deciding seat cannot see is dealt
//! again at random from what it has not seen: the tiles under the face-down course squares are
//! shuffled among those squares (so the counts of unseen tiles stay as the seat knows them), and
//! the decision is asked again through a table whose dice to come are keyed by another seed.
//! Everything the seat has seen stays: the face-up squares, the dora, every piece, its points,
//! rests and pending multiplier. The seat's view must come out the same, and so must its decision.

use super::actions::{Decision, Driver, Point, View};
use super::batch::{natives, Tabletop};
use super::rules::{self, Rules};
use super::state::{State, MAX_PLAYERS};
use super::strategies::{Knobs, Native};
use super::{Sugoroku, TAG_SETUP};
use crate::decide::{seat_players, Player, PlayerError, Seats};
use crate::game::{Preset, Seating};
use crate::options::Options;
use crate::rng::Key;
use crate::testing::builtin;
use serde_json::json;

/// Sampled decision points each built-in strategy must reach.
const SAMPLES: u64 = 10_000;

/// `state` with the tiles of its face-down squares shuffled among them by `key`.
fn redealt<'r>(state: &State<'r>, key: Key) -> State<'r> {
    let mut s = state.clone();
    let down: Vec<usize> = (1..=usize::from(s.len)).filter(|&sq| !s.is_up(sq)).collect();
    let mut tiles: Vec<u8> = down.iter().map(|&sq| s.course[sq]).collect();
    key.stream().shuffle(&mut tiles);
    for (&sq, t) in down.iter().zip(tiles) {
        s.course[sq] = t;
    }
    s
}

/// What the sampling saw.
#[derive(Default)]
struct Tally {
    /// Decision points sampled, per strategy.
    samples: Vec<u64>,
    /// Samples per decision, by its code − 1.
    points: [u64; 5],
    /// Samples whose redeal changed the tile under the first face-down square ahead of the seat.
    changed: u64,
    total: u64,
}

/// The batch's table of one game, checking every decision it is asked before answering it.
struct Sampler<'p> {
    table: Tabletop<'p>,
    /// The seats' native players, to ask again.
    natives: [Native<'p>; MAX_PLAYERS],
    /// The built-in strategies, and the one of each seat (an index).
    strategies: &'p [(String, Knobs)],
    seats: [usize; MAX_PLAYERS],
    seating: Seating,
    tally: &'p mut Tally,
}

impl Sampler<'_> {
    /// The decision of the seat's native player at `point` in `state`, asked through a table whose
    /// dice are keyed by `dice`.
    fn ask(&self, state: &State<'_>, seat: usize, point: Point, dice: Key) -> Result<bool, Box<PlayerError>> {
        let mut players = [self.natives[seat]; MAX_PLAYERS];
        let seats = Seats(players.each_mut().map(|p| p as &mut dyn Player<Sugoroku>));
        Tabletop::new(dice, &self.seating, seats).decide(state, seat, point)
    }
}

impl Driver for Sampler<'_> {
    type Error = Box<PlayerError>;

    fn dice(&mut self, seat: usize, turn: u32, roll: u32) -> Option<(u8, u8)> {
        self.table.dice(seat, turn, roll)
    }

    fn decide(&mut self, state: &State<'_>, seat: usize, point: Point) -> Result<bool, Box<PlayerError>> {
        let taken = self.table.decide(state, seat, point)?;
        let t = &mut *self.tally;
        t.total += 1;
        t.samples[self.seats[seat]] += 1;
        let kind = point.decision as usize;
        t.points[kind] += 1;
        let view: View<'_> = state.view(seat);
        let ahead = (usize::from(state.players[seat].pos) + 1..usize::from(state.goal)).find(|&sq| !state.is_up(sq));
        // The offsets are rare: each is dealt again more often.
        let redeals = if matches!(point.decision, Decision::PinzoroOffset | Decision::SixzoroOffset) { 10 } else { 1 };
        let key = Key::new(t.total);
        let mut changed = false;
        for r in 0..redeals {
            let other = redealt(state, key.with(r));
            changed |= ahead.is_some_and(|sq| other.course[sq] != state.course[sq]);
            let name = &self.strategies[self.seats[seat]].0;
            assert_eq!(other.view(seat), view, "{name}, seat {seat} at {point:?}: the view changed with hidden tiles");
            let again = self.ask(&other, seat, point, key.with(r).with(1))?;
            assert_eq!(again, taken, "{name}, seat {seat} at {point:?}: the decision changed with hidden tiles or dice");
        }
        self.tally.changed += u64::from(changed);
        Ok(taken)
    }
}

/// The rule sets played, each asking G-D4 at every round (so that every seat often decides) and
/// every roll optional: the defaults, and the addendum with 1-1 again on the back re-roll.
fn rule_sets() -> [Rules; 2] {
    let every_round = json!({"agreement_distance": 136});
    let mut addendum = every_round.clone();
    addendum["pinzoro_reroll_doubles"] = json!("again");
    let preset = |p: &str| rules::presets().into_iter().find(|q: &Preset| q.name == p).unwrap().overrides;
    let mut r = preset("addendum");
    r.as_object_mut().unwrap().extend(addendum.as_object().unwrap().clone());
    [Rules::from_json(&every_round).unwrap(), Rules::from_json(&r).unwrap()]
}

#[test]
fn hidden_tiles_and_dice_never_change_a_builtin_strategys_view_or_decision() {
    let strategies: Vec<(String, Knobs)> = builtin("sugoroku");
    assert!(strategies.len() >= 6, "{} built-in strategies", strategies.len());
    let k = strategies.len();
    let mut tally = Tally { samples: vec![0; k], ..Tally::default() };
    let rule_sets = rule_sets();
    let root = Key::new(23);
    let mut game = 0u64;
    while tally.samples.iter().any(|&s| s < SAMPLES) {
        let rules = &rule_sets[(game / 4 % 2) as usize];
        let n = 2 + (game % 4) as usize;
        // Every strategy meets every other, at every seat.
        let seats: [usize; MAX_PLAYERS] = std::array::from_fn(|s| (game as usize / 8 + s * (1 + game as usize / (8 * k))) % k);
        let lineup: Vec<Knobs> = seats[..n].iter().map(|&i| strategies[i].1.clone()).collect();
        let seating = Seating::new(game, n as u8, false);
        let mut players = natives(&lineup, root, &seating);
        let copies = players;
        let table = Tabletop::new(root, &seating, seat_players(&mut players, &mut [], &seating));
        let mut sampler = Sampler { table, natives: copies, strategies: &strategies, seats, seating, tally: &mut tally };
        let mut state = State::new(rules, n);
        state.deal(root.with(TAG_SETUP).with(game));
        state.play(&mut sampler).unwrap();
        game += 1;
    }
    for ((name, _), n) in strategies.iter().zip(&tally.samples) {
        assert!(*n >= SAMPLES, "{name}: {n} decision points");
    }
    // Every decision point was met, and the redeals did hide something.
    assert!(tally.points.iter().all(|&n| n > 0), "samples per decision: {:?}", tally.points);
    assert!(tally.changed * 10 >= tally.total * 8, "{} of {} redeals changed the next face-down tile", tally.changed, tally.total);
}
