//! No hidden information reaches a strategy. At decision points of every built-in Hong Kong
//! strategy (every knob script in `strategies/hongkong/`), everything the deciding seat cannot see
//! is dealt again at random from the tiles it has not seen: the order of the undrawn wall (the
//! live wall and the dead wall that replacements come from, bonus tiles included) and the other
//! seats' concealed tiles (each keeping its number of tiles; a bonus tile is never concealed).
//! Everything the seat has seen stays: its own hand, every river, meld and bonus tile, the
//! points, the size of the live wall, the win on offer. The seat's view must come out the same,
//! and so must its decision.

use super::actions::{Action, Point};
use super::hand::Value;
use super::rules::{presets, Rules};
use super::state::{kind_of, play_hand_probed, HandKeys, HandSetup, Table};
use super::strategies::{Bot, Knobs};
use super::HongKong;
use crate::decide::{Player, Seats};
use crate::game::resolve_preset;
use crate::games::riichi::tiles::{Counts, KINDS};
use crate::rng::Key;
use crate::testing::builtin;
use serde_json::json;

/// Decision points each built-in strategy must reach.
const SAMPLES: u64 = 10_000;

/// Every third decision point is checked: a hand's points are alike, and the hands are many.
const EVERY: u64 = 3;

/// `t` with everything `seat` cannot see dealt again by `key` (see the module doc).
fn redealt<'r>(t: &Table<'r>, seat: u8, key: Key) -> Table<'r> {
    let mut o = t.clone();
    let others = (0..4).filter(|&s| s != usize::from(seat));
    let undrawn = t.next..t.end;
    let (mut tiles, bonus): (Vec<u16>, Vec<u16>) = t.wall[undrawn.clone()].iter().partition(|&&id| kind_of(id).is_some());
    // A concealed tile's copy is never shown, so any id of its kind stands for it.
    for s in others.clone() {
        tiles.extend((0..KINDS as u16).flat_map(|k| std::iter::repeat_n(k * 4, usize::from(t.seats[s].hand[usize::from(k)]))));
    }
    let mut stream = key.stream();
    stream.shuffle(&mut tiles);
    let mut tiles = tiles.into_iter();
    for s in others {
        let size: u8 = t.seats[s].hand.iter().sum();
        let mut hand: Counts = [0; KINDS];
        for id in tiles.by_ref().take(usize::from(size)) {
            hand[id as usize / 4] += 1;
        }
        o.seats[s].hand = hand;
    }
    let mut wall: Vec<u16> = tiles.chain(bonus).collect();
    stream.shuffle(&mut wall);
    o.wall[undrawn].copy_from_slice(&wall);
    o
}

/// What the sampling saw.
#[derive(Default)]
struct Tally {
    /// Decision points checked, per strategy.
    samples: Vec<u64>,
    /// Checks per point kind: self-draw, win on a discard, claim, kong, discard.
    points: [u64; 5],
    /// Checks whose redeal changed the next draw or another seat's concealed tiles.
    changed: u64,
    checked: u64,
    /// Decision points met (checked or not).
    met: u64,
}

struct Sampler {
    strategies: Vec<(String, Knobs)>,
    /// The strategy of each seat in the hand being played.
    seats: [usize; 4],
    tally: Tally,
}

impl Sampler {
    /// Checks one decision point of seat `seat` (answering seat `turn`): its view and its
    /// strategy's decision are the same after a redeal.
    fn check(&mut self, t: &Table<'_>, seat: u8, turn: u8, point: Point, win: Option<&Value>, legal: &[Action]) {
        let tally = &mut self.tally;
        tally.met += 1;
        if !tally.met.is_multiple_of(EVERY) {
            return;
        }
        let strategy = self.seats[usize::from(seat)];
        let (name, knobs) = &self.strategies[strategy];
        tally.checked += 1;
        tally.samples[strategy] += 1;
        tally.points[match point {
            Point::SelfDraw { .. } => 0,
            Point::WinOn { .. } => 1,
            Point::Claim { .. } => 2,
            Point::Kong => 3,
            Point::Discard => 4,
        }] += 1;
        // A fresh player with the same random stream decides each time.
        let key = Key::new(tally.checked);
        let decide = |t: &Table<'_>| Bot { knobs, rng: key.stream() }.decide(&t.view(seat, turn, win), point, legal).unwrap();
        let view = t.view(seat, turn, win);
        let decision = decide(t);
        let other = redealt(t, seat, key.with(1));
        let next = |w: &Table<'_>| (t.next < t.end).then(|| kind_of(w.wall[t.next]));
        tally.changed +=
            u64::from(next(&other) != next(t) || (0..4).any(|s| s != usize::from(seat) && other.seats[s].hand != t.seats[s].hand));
        assert_eq!(other.view(seat, turn, win), view, "{name}, seat {seat} at {point:?}: the view changed with hidden tiles");
        assert_eq!(decide(&other), decision, "{name}, seat {seat} at {point:?}: the decision changed with hidden tiles");
    }
}

/// The rule sets played: the default table with the 136-tile set (no bonus tiles), `old_style`
/// (144 tiles) with any fan allowed, so that wins are offered often, and `old_style` itself, whose
/// 3-fan minimum `rule-aware` plans for.
fn rule_sets() -> [Rules; 3] {
    [
        resolve_preset(&presets(), "default", &json!({"tile_set": 136})).unwrap(),
        resolve_preset(&presets(), "old_style", &json!({"min_fan": 0})).unwrap(),
        resolve_preset(&presets(), "old_style", &json!({})).unwrap(),
    ]
}

#[test]
fn hidden_tiles_never_change_a_builtin_strategys_view_or_decision() {
    let strategies: Vec<(String, Knobs)> = builtin("hongkong");
    assert!(strategies.len() >= 7, "{} built-in strategies", strategies.len());
    let k = strategies.len();
    let mut sampler = Sampler { strategies: strategies.clone(), seats: [0; 4], tally: Tally { samples: vec![0; k], ..Tally::default() } };
    let rule_sets = rule_sets();
    let mut h = 0u64;
    while sampler.tally.samples.iter().any(|&s| s < SAMPLES) {
        let rules = &rule_sets[(h % 3) as usize];
        // Every strategy meets every other, at every seat.
        let lineup: [usize; 4] = std::array::from_fn(|s| (h as usize / 3 + s * (1 + h as usize / (3 * k))) % k);
        sampler.seats = lineup;
        let keys = HandKeys::new(rules.chance_recipe, 23, h, 0);
        let mut natives: [Bot; 4] = std::array::from_fn(|s| Bot { knobs: &strategies[lineup[s]].1, rng: keys.strategy(s as u8) });
        let mut players = Seats::<HongKong, 4>(natives.each_mut().map(|n| n as &mut dyn Player<HongKong>));
        let setup = HandSetup { rules, dealer: (h % 4) as u8, round_wind: (h / 4 % 4) as u8, hand: 0, keys, points: [0; 4], log: false };
        play_hand_probed(&setup, &mut players, &mut |t, seat, turn, point, win, legal| sampler.check(t, seat, turn, point, win, legal))
            .unwrap();
        h += 1;
    }
    let t = &sampler.tally;
    for ((name, _), n) in strategies.iter().zip(&t.samples) {
        assert!(*n >= SAMPLES, "{name}: {n} decision points");
    }
    // Every kind of decision point was met, and the redeals did hide something.
    assert!(t.points.iter().all(|&n| n > 0), "checks per point kind: {:?}", t.points);
    assert!(t.changed * 10 >= t.checked * 9, "{} of {} redeals changed the next draw or another hand", t.changed, t.checked);
}
