//! No hidden information reaches a strategy. At every decision of every built-in Trump mahjong
//! strategy (every knob script in `strategies/trump/`), everything the deciding seat cannot see is
//! dealt again at random from the cards it has not seen: the order of the live stack, the dead-wall
//! cards not yet turned or taken (the replacements and the ura-dora indicator to come), the other
//! seats' cards (each keeping its number of cards) and their furiten flags. Everything the seat has
//! seen stays: its own hand, every discard, the dora indicator, the Jokers set aside or out of
//! play, the riichi declarations and the points. The seat's view must come out the same, and so
//! must its decision.
//!
//! A point's payload (the value of the win offered) and the legal actions are kept as asked: the
//! engine computes them from the seat's own cards and the public record.

use super::actions::{after_discards, Action, Point, View};
use super::batch::{play_game, Rows3};
use super::hand::{Riichi, Value};
use super::rules::{Furiten, MultiRon, Rules};
use super::scoring::{Card, PLAYERS};
use super::state::{Event, Log, Table};
use super::strategies::{Knobs, Native, Policy};
use crate::decide::Player;
use crate::game::{Seat, Seating};
use crate::rng::Key;
use crate::testing::builtin;

/// Sampled decision points each built-in strategy must reach.
const SAMPLES: u64 = 10_000;

/// `table` with everything `seat` cannot see dealt again by `key` (see the module doc).
fn redealt<'a>(table: &Table<'a>, seat: usize, key: Key) -> Table<'a> {
    let mut t = table.clone();
    let others = (0..PLAYERS).filter(|&o| o != seat);
    let (live, dead) = t.wall.unseen_mut();
    let mut pool: Vec<Card> = live.iter().chain(dead.iter()).copied().collect();
    for o in others.clone() {
        pool.extend_from_slice(&t.seats[o].cards[..t.seats[o].len]);
    }
    let mut stream = key.stream();
    stream.shuffle(&mut pool);
    let mut pool = pool.into_iter();
    let (live, dead) = t.wall.unseen_mut();
    for c in live.iter_mut().chain(dead.iter_mut()) {
        *c = pool.next().unwrap();
    }
    for o in others {
        let s = &mut t.seats[o];
        let len = s.len;
        (s.len, s.counts) = (0, Default::default());
        for _ in 0..len {
            s.add(pool.next().unwrap());
        }
        s.furiten_temp = stream.below(2) == 1;
        s.furiten_riichi = s.riichi != Riichi::None && stream.below(2) == 1;
    }
    t
}

/// What the sampling saw.
#[derive(Default)]
struct Tally {
    /// Decision points sampled, per strategy.
    samples: Vec<u64>,
    /// Samples per point kind: keep a Joker, tsumo, discard, ron.
    points: [u64; 4],
    /// Samples whose redeal changed the next live draw or another seat's cards.
    changed: u64,
    total: u64,
}

/// Hears every decision of a game and checks it (the state's test seam, [`Log::asked`]).
struct Sampler {
    strategies: Vec<(String, Knobs)>,
    /// The policies of the game being played, by seat, and their strategies' indices.
    policies: Vec<Policy>,
    seats: [usize; PLAYERS],
    tally: Tally,
}

impl Sampler {
    fn check(&mut self, table: &Table<'_>, view: &View<'_>, point: Point, legal: &[Action]) {
        let seat = view.seat;
        let (name, _) = &self.strategies[self.seats[seat]];
        let t = &mut self.tally;
        t.total += 1;
        let kind = match point {
            Point::KeepJoker => 0,
            Point::Tsumo(_) => 1,
            Point::Discard => 2,
            Point::Ron(_) => 3,
        };
        t.points[kind] += 1;
        t.samples[self.seats[seat]] += 1;
        // The view's hand is the seat's own (and at a ron, the discard).
        let own = &table.seats[seat];
        assert_eq!(&view.hand[..own.len], &own.cards[..own.len], "{name}, seat {seat} at {point:?}: the hand is not the seat's");
        // A fresh player with the same key decides each time.
        let (policy, key) = (&self.policies[seat], Key::new(t.total));
        let decide = |v: &View<'_>| Native { policy, rng: key.stream() }.decide(v, point, legal).unwrap();
        let decision = decide(view);
        let after = view.after.map(|_| after_discards(&view.counts));
        // The yes/no points are rarer: each is dealt again more often.
        let redeals = if kind == 2 { 1 } else { 10 };
        let mut changed = false;
        for r in 0..redeals {
            let other = redealt(table, seat, key.with(r));
            let next = |t: &Table<'_>| (t.wall.live() > 0).then(|| t.wall.clone().draw());
            changed |= next(&other) != next(table) || (0..PLAYERS).any(|o| o != seat && other.seats[o].cards != table.seats[o].cards);
            let seen = View { after: after.as_ref(), ..other.view(seat, view.hand, view.counts, view.points, view.pool) };
            assert_eq!(&seen, view, "{name}, seat {seat} at {point:?}: the view changed with hidden cards");
            assert_eq!(decide(&seen), decision, "{name}, seat {seat} at {point:?}: the decision changed with hidden cards");
        }
        t.changed += u64::from(changed);
    }
}

impl Log for Sampler {
    fn record(&mut self, _: u16, _: usize, _: Event, _: Card) {}

    fn won(&mut self, _: u16, _: usize, _: &Value, _: &[i64; PLAYERS]) {}

    fn asked(&mut self, table: &Table<'_>, view: &View<'_>, point: Point, legal: &[Action]) {
        self.check(table, view, point, legal);
    }
}

#[test]
fn hidden_cards_never_change_a_builtin_strategys_view_or_decision() {
    let strategies: Vec<(String, Knobs)> = builtin("trump");
    assert!(strategies.len() >= 7, "{} built-in strategies", strategies.len());
    let k = strategies.len();
    // The default rules, and furiten with 完全先付け and double ron (rons declined make furiten).
    let strict = Rules { furiten: Furiten::Standard, kanzen_sakizuke: true, multi_ron: MultiRon::Double, ..Rules::default() };
    let rule_sets = [Rules::default(), strict];
    let mut sampler = Sampler {
        strategies: strategies.clone(),
        policies: Vec::new(),
        seats: [0; PLAYERS],
        tally: Tally { samples: vec![0; k], ..Tally::default() },
    };
    let mut game = 0u64;
    while sampler.tally.samples.iter().any(|&s| s < SAMPLES) {
        let rules = &rule_sets[(game % 2) as usize];
        // Every strategy meets every other, at every seat.
        let lineup: [usize; PLAYERS] = std::array::from_fn(|s| (game as usize / 2 + s * (1 + game as usize / (2 * k))) % k);
        let policies: Vec<Policy> = lineup.iter().map(|&i| Policy::new(strategies[i].1.clone(), rules.clone())).collect();
        let seating = Seating::new(game, PLAYERS as u8, false);
        sampler.seats = std::array::from_fn(|s| lineup[seating.slot(Seat::at(s))]);
        sampler.policies = seating.seats().map(|seat| policies[seating.slot(seat)].clone()).collect();
        play_game(rules, &policies, 23, seating, &mut [], &mut sampler, &mut Rows3::default()).unwrap();
        game += 1;
    }
    let t = &sampler.tally;
    for ((name, _), n) in strategies.iter().zip(&t.samples) {
        assert!(*n >= SAMPLES, "{name}: {n} decision points");
    }
    // Every kind of decision point was met, and the redeals did hide something.
    assert!(t.points.iter().all(|&n| n > 0), "samples per point kind: {:?}", t.points);
    assert!(t.changed * 10 >= t.total * 9, "{} of {} redeals changed the next draw or another hand", t.changed, t.total);
}
