//! Strategy knobs and the policy that turns them into decisions (§12, §14).
//!
//! The source calls the game's skill "真ゼロ" (truly zero); these knobs let a designer test that:
//! each decision point G-D1…G-D4 can be taken always, never, at random or by the one-step
//! expected-value lookahead of K4. A strategy is a [`Player<Sugoroku>`](Player) ([`Native`]) and
//! decides from the seat's [`View`] alone.

use super::actions::{Action, Decision, Driver, Point, RollKind, Rolls, View};
use super::rules::RollPermission;
use super::state::{self, Effect, End, State, FACE_DOWN, MAX_PLAYERS, TILE_IDS};
use super::Sugoroku;
use crate::decide::{Fault, Player};
use crate::options::Validate;
use crate::rng::Key;
use crate::{option_enum, options};
use std::convert::Infallible;

option_enum! {
    /// How a decision point is answered.
    pub enum Choice {
        /// Always take the option.
        Always = "always",
        /// Never take it.
        Never = "never",
        /// Take it when the one-step expected value says so (K4).
        Greedy = "greedy",
        /// Take it with the decision's probability knob.
        Random = "random",
    }
}

options! {
    /// Knobs of a sugoroku strategy. The defaults are K1 (naive dice play).
    pub struct Knobs {
        /// G-D1: the optional back re-roll after a pinzoro.
        pinzoro_reroll: Choice = Choice::Always;
        /// G-D2: the optional extra roll after a 6-zoro.
        sixzoro_reroll: Choice = Choice::Always;
        /// G-D3: cancel one rest (相殺) instead of the extra roll when a pinzoro or 6-zoro lands on a wind.
        offset: Choice = Choice::Never;
        /// G-D4: agree to end the game early (no settlement) when every piece is near the goal.
        agree_end: Choice = Choice::Never;
        /// Probability of the back re-roll when pinzoro_reroll = random.
        pinzoro_reroll_p: f64 = 0.5, range(0, 1);
        /// Probability of the extra roll when sixzoro_reroll = random.
        sixzoro_reroll_p: f64 = 0.5, range(0, 1);
        /// Probability of offsetting when offset = random.
        offset_p: f64 = 0.5, range(0, 1);
        /// Probability of agreeing when agree_end = random.
        agree_end_p: f64 = 0.5, range(0, 1);
        /// Greedy: points one square toward the goal is worth (1 = the 総馬身 rate).
        square_value: f64 = 1.0, range(0, 1000);
        /// Greedy: points one rest costs (about one turn's value).
        rest_value: f64 = 3.0, range(0, 1000);
    }
}

impl Validate for Knobs {}

/// A seat played by its knobs: `key` is the seat's strategy key (its own tag, never the dice keys).
#[derive(Debug, Clone, Copy)]
pub struct Native<'k> {
    pub knobs: &'k Knobs,
    pub key: Key,
}

impl Player<Sugoroku> for Native<'_> {
    fn decide(&mut self, view: &View<'_>, point: Point, _: &[Action]) -> Result<Action, Fault> {
        Ok(if takes(self.knobs, view, point, self.key) { Action::Take } else { Action::Pass })
    }
}

/// Whether the seat of `view`, playing `knobs`, takes the option at `point`.
fn takes(knobs: &Knobs, view: &View<'_>, point: Point, key: Key) -> bool {
    let (choice, p) = match point.decision {
        Decision::PinzoroReroll => (knobs.pinzoro_reroll, knobs.pinzoro_reroll_p),
        Decision::ExtraRoll => (knobs.sixzoro_reroll, knobs.sixzoro_reroll_p),
        Decision::PinzoroOffset | Decision::SixzoroOffset => (knobs.offset, knobs.offset_p),
        Decision::AgreeEnd => (knobs.agree_end, knobs.agree_end_p),
    };
    match choice {
        Choice::Always => true,
        Choice::Never => false,
        Choice::Random => key.with(point.decision.code()).with(u64::from(point.turn)).with(u64::from(point.roll)).stream().unit() < p,
        Choice::Greedy => greedy(knobs, view, point),
    }
}

/// K4: compare the one-step expected values of the options (§14).
fn greedy(knobs: &Knobs, view: &View<'_>, point: Point) -> bool {
    let ev = |kind| roll_value(knobs, view, kind, point);
    // What an offset gives up: the roll, if the player would (or must) take it.
    let forgone = |permission, kind| match permission {
        RollPermission::Always => ev(kind),
        RollPermission::Never => 0.0,
        RollPermission::Optional => ev(kind).max(0.0),
    };
    match point.decision {
        Decision::PinzoroReroll => ev(RollKind::PinzoroBack) > 0.0,
        Decision::ExtraRoll => ev(RollKind::SixzoroExtra) > 0.0,
        Decision::PinzoroOffset => knobs.rest_value > forgone(view.rules.pinzoro_reroll, RollKind::PinzoroBack),
        Decision::SixzoroOffset => knobs.rest_value > forgone(view.rules.sixzoro_reroll, RollKind::SixzoroExtra),
        // Ending now forfeits the settlement the race would bring and the next roll's value.
        Decision::AgreeEnd => view.projected_settlement() as f64 + ev(RollKind::Turn) < 0.0,
    }
}

/// The lookahead's driver: no further dice, every nested option declined.
struct Lookahead;

impl Driver for Lookahead {
    type Error = Infallible;
    fn dice(&mut self, _: usize, _: u32, _: u32) -> Option<(u8, u8)> {
        None
    }
    fn decide(&mut self, _: &State<'_>, _: usize, _: Point) -> Result<bool, Infallible> {
        Ok(false)
    }
}

/// Expected value for the seat of `view` of taking a roll of `kind` now, over the 36 dice
/// outcomes. Outcomes are grouped by sum: a sum of 2 or 12 can only be 1-1 or 6-6, and no other
/// double is special.
pub fn roll_value(knobs: &Knobs, view: &View<'_>, kind: RollKind, point: Point) -> f64 {
    // One scratch state for all outcomes, made of what the seat sees. A lookahead never turns a
    // tile over (it stops on face-down squares), so restoring the players and counters resets it.
    let seat = view.seat;
    let mut c = State::seen_by(view);
    let then = &view.players[seat];
    let start = Moment::of(&c, seat);
    let unseen = Unseen::of(view);
    let mut stayers = Stayers::default();
    let mut total = 0.0;
    for sum in 2u8..=12 {
        let ways = 6 - (i32::from(sum) - 7).abs();
        let a = sum.saturating_sub(6).max(1);
        restore(&mut c, &start);
        let mut rolls = Rolls { turn: point.turn, roll: point.roll + 1 };
        let Ok(()) = c.roll_action(seat, kind, (a, sum - a), &mut rolls, &mut Lookahead);
        let v = if c.hidden_stop == 0 {
            value(knobs, &mut c, then, seat)
        } else {
            expectation(knobs, &mut c, then, seat, &unseen, &mut stayers)
        };
        total += f64::from(ways) / 36.0 * v;
    }
    total
}

/// What a lookahead changes and reads back. Only `seat` moves, and of its player only the
/// position, pending multiplier, rests and points are ever read (the rest are counters, only
/// written); the others change only in points (transfers) and, if `seat` wins, in their
/// settlement records, which nothing in the lookahead reads. The course is left as found, and the
/// game counters (`stats`) are only written, never read, so the scratch state's may drift.
/// Restoring runs once per tile per outcome, so it copies this much and no more.
struct Moment {
    seat: usize,
    pos: u8,
    mult: u64,
    rests: u32,
    points: [i64; MAX_PLAYERS],
    end: End,
    winner: Option<usize>,
}

impl Moment {
    fn of(s: &State<'_>, seat: usize) -> Self {
        let p = &s.players[seat];
        Moment {
            seat,
            pos: p.pos,
            mult: p.mult,
            rests: p.rests,
            points: std::array::from_fn(|j| s.players[j].points),
            end: s.end,
            winner: s.winner,
        }
    }
}

fn restore(c: &mut State<'_>, m: &Moment) {
    for (p, &points) in c.players.iter_mut().zip(&m.points) {
        p.points = points;
    }
    let p = &mut c.players[m.seat];
    (p.pos, p.mult, p.rests) = (m.pos, m.mult, m.rests);
    c.end = m.end;
    c.winner = m.winner;
    c.hidden_stop = 0;
}

/// The still-face-down tile ids, in id order, split by whether they move the piece on (manzu,
/// red 5m) or leave it where it landed. A lookahead never turns a tile over, so the split is made
/// once per roll instead of scanning every id for every outcome.
struct Unseen {
    ids: [u8; TILE_IDS],
    movers: usize,
    len: usize,
}

impl Unseen {
    fn of(view: &View<'_>) -> Self {
        let mut u = Unseen { ids: [0; TILE_IDS], movers: 0, len: 0 };
        let (mut stayers, mut n) = ([0u8; TILE_IDS], 0);
        for id in (0..TILE_IDS as u8).filter(|&id| view.unseen[usize::from(id)] > 0) {
            if moves(id) {
                u.ids[u.movers] = id;
                u.movers += 1;
            } else {
                stayers[n] = id;
                n += 1;
            }
        }
        u.len = u.movers + n;
        u.ids[u.movers..u.len].copy_from_slice(&stayers[..n]);
        u
    }

    fn movers(&self) -> &[u8] {
        &self.ids[..self.movers]
    }

    fn stayers(&self) -> &[u8] {
        &self.ids[self.movers..self.len]
    }
}

fn moves(id: u8) -> bool {
    matches!(Effect::of(id), Effect::Move(_) | Effect::RedFiveM)
}

/// Tiles that leave the piece where it landed change points and rests by amounts that depend
/// only on the pending multiplier and the rests at the landing, not on the square: their summed
/// change is computed once per such pair.
#[derive(Default)]
struct Stayers {
    key: Option<(u64, u32)>,
    count: u32,
    delta: f64,
}

/// The expected value of an outcome that stopped on a face-down square: the average over the
/// still-unseen tiles of resolving that square one step (further face-down squares are not
/// expanded). Leaves the course as it found it.
fn expectation(knobs: &Knobs, c: &mut State<'_>, then: &state::Player, seat: usize, unseen: &Unseen, stayers: &mut Stayers) -> f64 {
    let (sq, dir) = (usize::from(c.hidden_stop), c.hidden_dir);
    let landing = Moment::of(c, seat);
    let at_landing = value(knobs, c, then, seat);
    let (mult, rests, points) = (landing.mult, landing.rests, landing.points[seat]);
    // Resolves the landing square as if tile `id` lay there, from the landing.
    let resolve_as = |c: &mut State<'_>, id: u8| {
        let k = c.unseen[usize::from(id)];
        restore(c, &landing);
        c.face[sq] = id;
        c.unseen[usize::from(id)] -= 1;
        c.resolve(seat, dir);
        c.unseen[usize::from(id)] += 1;
        k
    };
    let key = Some((mult, rests));
    if stayers.key != key {
        *stayers = Stayers { key, ..Stayers::default() };
        for &id in unseen.stayers() {
            let k = resolve_as(c, id);
            let after = c.players[seat];
            let delta = (after.points - points) as f64 - knobs.rest_value * (f64::from(after.rests) - f64::from(rests));
            stayers.delta += f64::from(k) * delta;
            stayers.count += u32::from(k);
        }
    }
    let mut movers = 0.0;
    let mut count = 0u32;
    for &id in unseen.movers() {
        let k = resolve_as(c, id);
        movers += f64::from(k) * value(knobs, c, then, seat);
        count += u32::from(k);
    }
    c.face[sq] = FACE_DOWN;
    let total = movers + stayers.delta + f64::from(stayers.count) * at_landing;
    total / f64::from((count + stayers.count).max(1))
}

/// Value = Δ own points (with the settlement if the move wins) + square_value × Δ squares toward
/// the goal − rest_value × Δ rests (§14 K4), from `then` (the seat's player at the decision).
/// Settles `c` if `seat` won.
fn value(knobs: &Knobs, c: &mut State<'_>, then: &state::Player, seat: usize) -> f64 {
    c.settle();
    let now = &c.players[seat];
    (now.points - then.points) as f64 + knobs.square_value * (f64::from(now.pos) - f64::from(then.pos))
        - knobs.rest_value * (f64::from(now.rests) - f64::from(then.rests))
}
