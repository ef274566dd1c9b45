//! No hidden information reaches a strategy. At decision points of every built-in Riichi strategy
//! (every knob script in `strategies/riichi/`), everything the deciding seat cannot see is dealt
//! again at random from the tiles it has not seen: the order of the undrawn live wall, the dead
//! wall (replacement tiles and the ura and unrevealed kan indicators), the other seats' concealed
//! tiles and held flowers (each keeping its number of tiles) and their concealed flags (furiten,
//! a foul riichi). Everything the seat has seen stays: its own hand, every river, meld and
//! extracted tile, the shown indicators, the hands shown by an open riichi or at a draw. The
//! seat's view must come out the same, and so must its decision.
//!
//! A point's payload (the discard answered, the tenpai shown so far at a draw) is kept as asked:
//! the engine fills it from the public record.

use super::actions::{wait_mask, Action, Point};
use super::batch::play_game;
use super::rules::{self, Rules};
use super::state::{Concealed, State, FLOWER, SEATS};
use super::strategies::{Knobs, Native};
use super::wall::{dice, wall};
use super::Riichi;
use crate::decide::{Player, Seats};
use crate::rng::Key;
use crate::testing::builtin;
use serde_json::json;
use std::cell::RefCell;
use std::rc::Rc;

/// Sampled decision points each built-in strategy must reach.
const SAMPLES: u64 = 10_000;

/// `state` with everything `seat` cannot see dealt again by `key` (see the module doc); the seats
/// of `shown` have shown their hands.
fn redealt<'r>(state: &State<'r>, seat: usize, shown: u8, key: Key) -> State<'r> {
    let mut s = state.clone();
    let n_tiles = s.rules.tile_count();
    // Wall positions whose tile the seat has not seen: neither drawn nor a revealed indicator.
    let mut seen = vec![false; n_tiles];
    seen[..s.live_next].fill(true);
    for i in 0..s.rinshan_drawn {
        seen[s.rinshan_at(i)] = true;
    }
    for i in 0..s.dora_shown {
        seen[s.indicator_at(i)] = true;
    }
    let positions: Vec<usize> = (0..n_tiles).filter(|&i| !seen[i]).collect();
    let others: Vec<usize> = (0..s.n).filter(|&o| o != seat && !s.p[o].open_riichi && shown >> o & 1 == 0).collect();
    let mut pool: Vec<u8> = positions.iter().map(|&i| s.wall[i]).collect();
    for &o in &others {
        let h = &s.hidden[o];
        pool.extend(h.hand.iter().copied().chain((0..8u8).filter(|f| h.flowers_held >> f & 1 == 1).map(|f| FLOWER + f)));
    }
    let mut stream = key.stream();
    stream.shuffle(&mut pool);
    let mut pool = pool.into_iter();
    for &i in &positions {
        s.wall[i] = pool.next().unwrap();
    }
    for &o in &others {
        let size = s.hidden[o].hand.len() + s.hidden[o].flowers_held.count_ones() as usize;
        let mut h = Concealed::default();
        for _ in 0..size {
            h.take(pool.next().unwrap());
        }
        h.waits = wait_mask(&h.counts);
        h.temp_furiten = stream.below(2) == 1;
        h.riichi_furiten = s.p[o].riichi && stream.below(2) == 1;
        h.foul = s.p[o].riichi && stream.below(2) == 1;
        s.hidden[o] = h;
    }
    s
}

/// What the sampling saw.
#[derive(Default)]
struct Tally {
    /// Decision points sampled, per strategy.
    samples: Vec<u64>,
    /// Samples per point kind: turn, response, noten, open riichi, yame.
    points: [u64; 5],
    /// Samples whose redeal changed the next live draw or another seat's concealed tiles.
    changed: u64,
    total: u64,
}

struct Sampler {
    strategies: Vec<(String, Knobs)>,
    /// The strategy of each seat in the game being played.
    seats: [usize; SEATS],
    tally: Tally,
}

impl Sampler {
    /// Checks one decision point: the view and the decision of the seat's strategy are the same
    /// after every redeal.
    fn check(&mut self, state: &State<'_>, seat: usize, point: Point, legal: &[Action]) {
        let strategy = self.seats[seat];
        let (name, knobs) = &self.strategies[strategy];
        let t = &mut self.tally;
        t.total += 1;
        let (kind, shown) = match point {
            Point::Turn { .. } => (0, 0),
            Point::Response { .. } => (1, 0),
            // The hands shown tenpai before this seat at the draw are public.
            Point::Noten { shown } => (2, shown),
            Point::OpenRiichi => (3, 0),
            Point::Yame => (4, 0),
        };
        t.points[kind] += 1;
        t.samples[strategy] += 1;
        // A fresh player with the same key and decision count decides each time.
        let (key, counter) = (Key::new(t.total), t.total);
        let decide = |s: &State<'_>| Native { knobs, key, counter }.decide(&s.view(seat), point, legal).unwrap();
        let view = state.view(seat);
        let decision = decide(state);
        // The yes/no points are rare: each is dealt again more often.
        let redeals = if kind >= 2 { 20 } else { 1 };
        let mut changed = false;
        for r in 0..redeals {
            let other = redealt(state, seat, shown, key.with(r));
            changed |= (state.live_next < state.live_end && other.wall[state.live_next] != state.wall[state.live_next])
                || (0..state.n).any(|o| o != seat && other.hidden[o].hand != state.hidden[o].hand);
            assert_eq!(other.view(seat), view, "{name}, seat {seat} at {point:?}: the view changed with hidden tiles");
            assert_eq!(decide(&other), decision, "{name}, seat {seat} at {point:?}: the decision changed with hidden tiles");
        }
        t.changed += u64::from(changed);
    }
}

/// The rule sets played: four players with every decision point on (open riichi, noten claims,
/// yame by choice), and three players with flowers and the North as nukidora.
fn rule_sets() -> [Rules; 2] {
    let choice = json!({"allow_noten_declaration": true, "agari_yame": "choice", "tenpai_yame": "choice", "game_length": "tonpuu"});
    let mut four = choice.clone();
    four["local_yaku"] = json!(["open_riichi"]);
    let mut three = choice;
    three["flowers"] = json!(4);
    [rules::resolve("default", &four).unwrap(), rules::resolve("sanma", &three).unwrap()]
}

#[test]
fn hidden_tiles_never_change_a_builtin_strategys_view_or_decision() {
    let strategies: Vec<(String, Knobs)> = builtin("riichi");
    assert!(strategies.len() >= 10, "{} built-in strategies", strategies.len());
    let k = strategies.len();
    let sampler = Rc::new(RefCell::new(Sampler {
        strategies: strategies.clone(),
        seats: [0; SEATS],
        tally: Tally { samples: vec![0; k], ..Tally::default() },
    }));
    let rule_sets = rule_sets();
    let root = Key::new(23);
    let mut game = 0u64;
    while sampler.borrow().tally.samples.iter().any(|&s| s < SAMPLES) {
        let rules = &rule_sets[(game % 2) as usize];
        // Every strategy meets every other, at every seat.
        let lineup: [usize; SEATS] = std::array::from_fn(|s| (game as usize / 2 + s * (1 + game as usize / (2 * k))) % k);
        sampler.borrow_mut().seats = lineup;
        let mut state = State::new(rules);
        let probe = Rc::clone(&sampler);
        state.probe.0 = Some(Box::new(move |s: &State<'_>, seat: usize, point: Point, legal: &[Action]| {
            probe.borrow_mut().check(s, seat, point, legal);
        }));
        let mut natives: [Native; SEATS] = std::array::from_fn(|s| Native::new(&strategies[lineup[s]].1, root.with(game).with(s as u64)));
        let mut players = Seats::<Riichi, SEATS>(natives.each_mut().map(|n| n as &mut dyn Player<Riichi>));
        play_game(&mut state, &mut players, &mut |p| (wall(root, game, p, rules), dice(root, game, p))).unwrap();
        game += 1;
    }
    let s = sampler.borrow();
    let t = &s.tally;
    for ((name, _), n) in strategies.iter().zip(&t.samples) {
        assert!(*n >= SAMPLES, "{name}: {n} decision points");
    }
    // Every kind of decision point was met, and the redeals did hide something.
    assert!(t.points.iter().all(|&n| n > 0), "samples per point kind: {:?}", t.points);
    assert!(t.changed * 10 >= t.total * 9, "{} of {} redeals changed the next draw or another hand", t.changed, t.total);
}
