//! No hidden information reaches a strategy. At the decision points of every built-in Suzume-jong
//! strategy (every knob script in `strategies/suzume/`), everything the deciding seat cannot see is
//! dealt again at random from the tiles it has not seen: the order of the stock and the other
//! seats' tiles (each keeping its number). Everything the seat has seen stays: its own tiles, every
//! discard and the dora. The seat's view must come out the same, and so must its decision.

use super::actions::{Action, Point};
use super::batch::{play_game, BatchRows};
use super::rules::Rules;
use super::scoring::{Tile, MAX_PLAYERS};
use super::state::{Event, Listen, Seat, Table};
use super::strategies::{Knobs, Native, Policy};
use crate::decide::Player;
use crate::game::Seating;
use crate::options::Options;
use crate::rng::Key;
use crate::testing::builtin;
use serde_json::json;

/// Sampled decision points each built-in strategy must reach.
const SAMPLES: u64 = 10_000;

/// `table` with everything `seat` cannot see dealt again by `key`: the undrawn stock and the other
/// seats' tiles, shuffled together.
fn redealt(table: &Table, seat: usize, reds: bool, key: Key) -> Table {
    let mut t = table.clone();
    let others: Vec<usize> = (0..t.n).filter(|&o| o != seat).collect();
    let next = t.stock.next;
    let mut pool: Vec<Tile> = t.stock.tiles[next..].to_vec();
    for &o in &others {
        pool.extend_from_slice(&t.seats[o].tiles[..t.seats[o].len]);
    }
    key.stream().shuffle(&mut pool);
    let mut pool = pool.into_iter();
    for slot in &mut t.stock.tiles[next..] {
        *slot = pool.next().unwrap();
    }
    for &o in &others {
        let len = t.seats[o].len;
        let mut s = Seat { tiles: [Tile(0); 6], len: 0, state: 0, red: 0, waits: 0 };
        for _ in 0..len {
            s.add(pool.next().unwrap(), reds);
        }
        s.refresh_waits();
        t.seats[o] = s;
    }
    t
}

/// What the sampling saw.
#[derive(Default)]
struct Tally {
    /// Decision points sampled, per strategy.
    samples: Vec<u64>,
    /// Samples per point kind: tsumo, discard, ron.
    points: [u64; 3],
    /// Samples whose redeal changed the next draw or another seat's tiles.
    changed: u64,
    total: u64,
}

/// Checks every decision point of the games it listens to.
struct Sampler {
    /// The policies of the built-in strategies under the rules being played, by name.
    policies: Vec<(String, Policy)>,
    /// The strategy of each seat in the game being played.
    seats: [usize; MAX_PLAYERS],
    /// Whether the rules being played have red copies.
    reds: bool,
    tally: Tally,
}

impl Listen for Sampler {
    fn hear(&mut self, _: u64, _: usize, _: Event, _: Tile) {}

    fn probe(&mut self, table: &Table, seat: usize, own: &Seat, points: &[i64], point: Point, legal: &[Action]) {
        let strategy = self.seats[seat];
        let (name, policy) = &self.policies[strategy];
        let t = &mut self.tally;
        t.total += 1;
        t.samples[strategy] += 1;
        t.points[match point {
            Point::Tsumo { .. } => 0,
            Point::Discard => 1,
            Point::Ron { .. } => 2,
        }] += 1;
        // A fresh player with the same key decides each time.
        let key = Key::new(t.total);
        let decide = |table: &Table| Native::new(policy, key).decide(&table.view(seat, own, points), point, legal).unwrap();
        let view = table.view(seat, own, points);
        let decision = decide(table);
        let other = redealt(table, seat, self.reds, key);
        let next = table.stock.next;
        t.changed += u64::from(
            (next < table.stock.tiles.len() && other.stock.tiles[next] != table.stock.tiles[next])
                || (0..table.n).any(|o| o != seat && other.seats[o].tiles != table.seats[o].tiles),
        );
        assert_eq!(other.view(seat, own, points), view, "{name}, seat {seat} at {point:?}: the view changed with hidden tiles");
        assert_eq!(decide(&other), decision, "{name}, seat {seat} at {point:?}: the decision changed with hidden tiles");
    }
}

#[test]
fn hidden_tiles_never_change_a_builtin_strategys_view_or_decision() {
    let strategies: Vec<(String, Knobs)> = builtin("suzume");
    assert!(strategies.len() >= 7, "{} built-in strategies", strategies.len());
    let k = strategies.len();
    // Red tiles and dora on and off, two to five players, the last discard ronnable or not.
    let rule_sets: Vec<Rules> = [
        json!({}),
        json!({"red_tiles": false, "dora": false, "laps": 2}),
        json!({"last_discard_ron": false, "mistake_rate": 0.1, "laps": 2}),
        json!({"furiten": false, "min_points": 0, "laps": 1}),
    ]
    .iter()
    .map(|o| Rules::from_json(o).unwrap())
    .collect();
    let mut sampler =
        Sampler { policies: Vec::new(), seats: [0; MAX_PLAYERS], reds: true, tally: Tally { samples: vec![0; k], ..Tally::default() } };
    let mut game = 0u64;
    while sampler.tally.samples.iter().any(|&s| s < SAMPLES) {
        let rules = &rule_sets[(game % 4) as usize];
        let n = 2 + (game % 7 % 4) as usize;
        // Every strategy meets every other, at every seat.
        let lineup: Vec<usize> = (0..n).map(|s| (game as usize + s * (1 + game as usize / k)) % k).collect();
        sampler.seats[..n].copy_from_slice(&lineup);
        sampler.reds = rules.red_tiles;
        sampler.policies = strategies.iter().map(|(name, knobs)| (name.clone(), Policy::new(knobs.clone(), rules.clone()))).collect();
        let policies: Vec<Policy> = lineup.iter().map(|&i| sampler.policies[i].1.clone()).collect();
        let seating = Seating::new(game, n as u8, false);
        play_game(rules, &policies, 23, seating, &mut [], &mut sampler, &mut BatchRows::default()).unwrap();
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
