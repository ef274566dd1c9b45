//! The spec's test vectors (§16) on constructed courses, run through the engine's own movement,
//! resolution and settlement code; invariants over many random games; determinism of keyed chance.

use super::actions::{Action, Decision, Driver, Point, RollKind, View, LEGAL};
use super::scoring::distance_share;
use super::state::{End, State, GOLD_5P, GOLD_5S, POCHI, RED_5M, RED_5P, RED_5S};
use super::strategies::Native;
use super::*;
use crate::decide::{Fault, Player, PlayerError};
use crate::game::{Batch, Game};
use crate::options::Options;
use crate::rng::Key;
use crate::table::Table;
use serde_json::{json, Value};
use std::convert::Infallible;

// Plain tile ids (kind numbers).
const fn m(n: u8) -> u8 {
    n - 1
}
const fn p(n: u8) -> u8 {
    n + 8
}
const fn s(n: u8) -> u8 {
    n + 17
}
const EAST: u8 = 27;
const SOUTH: u8 = 28;
const WEST: u8 = 29;
const NORTH: u8 = 30;
const WHITE: u8 = 31;
const GREEN: u8 = 32;
const RED: u8 = 33;

fn col<'t>(t: &'t Table, name: &str) -> &'t [u8] {
    &t.column(name).unwrap_or_else(|| panic!("no column {name}")).data
}

fn i64s(t: &Table, name: &str) -> Vec<i64> {
    col(t, name).chunks(8).map(|c| i64::from_le_bytes(c.try_into().unwrap())).collect()
}

fn rules(overrides: Value) -> Rules {
    let r = Rules::from_json(&overrides).unwrap();
    crate::options::Validate::validate(&r).unwrap();
    r
}

/// A constructed game: every square holds `fill`, nothing is dora, everything face down, all
/// pieces at the start with M = 1.
fn course(rules: &Rules, n: usize, fill: u8) -> State<'_> {
    let mut st = State::new(rules, n);
    st.deal(Key::new(0));
    st.dora = [0; 34];
    st.unseen = [0; 40];
    for sq in 1..=usize::from(st.len) {
        st.course[sq] = fill;
    }
    st.unseen[usize::from(fill)] = st.len;
    st
}

/// Turns every course square face up.
fn reveal(st: &mut State<'_>) {
    let len = usize::from(st.len);
    st.face[1..=len].copy_from_slice(&st.course[1..=len]);
}

fn put(st: &mut State<'_>, sq: u8, id: u8) {
    st.unseen[usize::from(st.course[usize::from(sq)])] -= 1;
    st.course[usize::from(sq)] = id;
    st.unseen[usize::from(id)] += 1;
}

/// Puts seat 0 one square before `sq` and moves it one square forward onto it.
fn land(st: &mut State<'_>, sq: u8) {
    st.players[0].pos = sq - 1;
    st.move_piece(0, 1, state::Dir::Forward);
}

fn points(st: &State<'_>) -> Vec<i64> {
    st.players[..st.n].iter().map(|p| p.points).collect()
}

/// Fixed dice and fixed answers per decision.
struct Script {
    dice: Vec<(u8, u8)>,
    rolled: usize,
    answer: fn(Decision) -> bool,
}

impl Script {
    fn new(dice: &[(u8, u8)], answer: fn(Decision) -> bool) -> Self {
        Script { dice: dice.to_vec(), rolled: 0, answer }
    }
}

impl Driver for Script {
    type Error = Infallible;
    fn dice(&mut self, _: usize, _: u32, _: u32) -> Option<(u8, u8)> {
        self.rolled += 1;
        Some(self.dice[self.rolled - 1])
    }
    fn decide(&mut self, _: &State<'_>, _: usize, point: Point) -> Result<bool, Infallible> {
        Ok((self.answer)(point.decision))
    }
}

fn yes(_: Decision) -> bool {
    true
}
fn no(_: Decision) -> bool {
    false
}

// ---- §16.1 vectors from the source ----

#[test]
fn sg_src_1_dora_7p_and_21_9p_and_22_5s() {
    let r = Rules::default();
    let mut st = course(&r, 4, SOUTH);
    put(&mut st, 10, p(7));
    st.dora[usize::from(p(7))] = 1;
    land(&mut st, 10);
    assert_eq!(points(&st), [42, -14, -14, -14]);
    put(&mut st, 20, p(9));
    land(&mut st, 20);
    assert_eq!(points(&st), [42 + 27, -23, -23, -23]);
    put(&mut st, 30, s(5));
    land(&mut st, 30);
    assert_eq!(points(&st), [69 - 15, -18, -18, -18]);
}

#[test]
fn sg_src_2_w_dora_8s() {
    let r = Rules::default();
    let mut st = course(&r, 4, SOUTH);
    put(&mut st, 10, s(8));
    st.dora[usize::from(s(8))] = 2;
    land(&mut st, 10);
    assert_eq!(points(&st), [-96, 32, 32, 32]);
}

#[test]
fn sg_src_3_w_dora_east_and_sg_3_sg_4_rest_cap() {
    let r = Rules::default();
    let mut st = course(&r, 4, SOUTH);
    put(&mut st, 10, EAST);
    st.dora[usize::from(EAST)] = 2;
    land(&mut st, 10);
    assert_eq!(st.players[0].rests, 4);
    // SG-3: M = 4 on a W-dora 南 → 16 → capped at 10.
    st.dora[usize::from(SOUTH)] = 2;
    st.players[0].rests = 0;
    st.players[0].mult = 4;
    land(&mut st, 20);
    assert_eq!(st.players[0].rests, 10);
    // SG-4: 8 rests + a plain 北 → 9.
    put(&mut st, 30, NORTH);
    st.players[0].rests = 8;
    land(&mut st, 30);
    assert_eq!(st.players[0].rests, 9);
}

#[test]
fn sg_src_4_triple_dora_white_and_sg_11_dora_green() {
    let r = Rules::default();
    let mut st = course(&r, 4, SOUTH);
    put(&mut st, 10, WHITE);
    st.dora[usize::from(WHITE)] = 3;
    land(&mut st, 10);
    assert_eq!(st.players[0].mult, 16);
    let mut st = course(&r, 4, SOUTH);
    put(&mut st, 10, GREEN);
    st.dora[usize::from(GREEN)] = 1;
    land(&mut st, 10);
    assert_eq!(st.players[0].mult, 4);
}

#[test]
fn sg_src_5_green_then_w_dora_red_5m_is_8_laps() {
    let r = Rules::default();
    let mut st = course(&r, 4, SOUTH);
    put(&mut st, 10, GREEN);
    put(&mut st, 40, RED_5M);
    st.dora[usize::from(m(5))] = 2;
    land(&mut st, 10);
    assert_eq!(st.players[0].mult, 2);
    land(&mut st, 40);
    assert_eq!(st.players[0].pos, 0);
    assert_eq!(points(&st), [-630, 210, 210, 210]);
    assert_eq!(st.players[0].mult, 1);
}

#[test]
fn sg_src_6_pochi_dora_green_dora_8p_cap_variants() {
    for (overrides, each) in [(json!({}), 500), (json!({"payout_cap": "none"}), 640), (json!({"progressive_over_cap": true}), 546)] {
        let r = rules(overrides);
        let mut st = course(&r, 4, SOUTH);
        put(&mut st, 10, POCHI);
        put(&mut st, 20, GREEN);
        put(&mut st, 30, p(8));
        st.dora[usize::from(GREEN)] = 1;
        st.dora[usize::from(p(8))] = 1;
        land(&mut st, 10);
        assert_eq!(points(&st), [150, -50, -50, -50]);
        assert_eq!(st.players[0].mult, 10);
        land(&mut st, 20);
        assert_eq!(st.players[0].mult, 40);
        land(&mut st, 30);
        assert_eq!(points(&st), [150 + 3 * each, -50 - each, -50 - each, -50 - each]);
    }
}

#[test]
fn sg_src_7_pochi_then_pochi() {
    let r = Rules::default();
    let mut st = course(&r, 4, SOUTH);
    put(&mut st, 100, POCHI);
    put(&mut st, 110, POCHI);
    // White dora never touches the pochi.
    st.dora[usize::from(WHITE)] = 2;
    land(&mut st, 100);
    land(&mut st, 110);
    assert_eq!(points(&st), [150 + 1500, -550, -550, -550]);
    assert_eq!(st.players[0].mult, 10);
}

#[test]
fn sg_src_8_gold_5p_dora_and_9_red_fives_and_sg_15_gold_5s() {
    let r = rules(json!({"gold_5s": 1}));
    let mut st = course(&r, 4, SOUTH);
    put(&mut st, 10, GOLD_5P);
    st.dora[usize::from(p(5))] = 1;
    land(&mut st, 10);
    assert_eq!(points(&st), [300, -100, -100, -100]);
    let mut st = course(&r, 4, SOUTH);
    put(&mut st, 10, RED_5P);
    put(&mut st, 20, RED_5S);
    land(&mut st, 10);
    assert_eq!(points(&st), [30, -10, -10, -10]);
    land(&mut st, 20);
    assert_eq!(points(&st), [0, 0, 0, 0]);
    let mut st = course(&r, 4, SOUTH);
    put(&mut st, 10, GOLD_5S);
    st.dora[usize::from(s(5))] = 1;
    land(&mut st, 10);
    assert_eq!(points(&st), [-300, 100, 100, 100]);
}

#[test]
fn sg_src_10_and_11_red_5m_laps() {
    let r = Rules::default();
    let mut st = course(&r, 4, SOUTH);
    put(&mut st, 10, RED_5M);
    st.dora[usize::from(m(5))] = 1;
    land(&mut st, 10);
    assert_eq!((st.players[0].pos, points(&st)), (0, vec![-90, 30, 30, 30]));
    let mut st = course(&r, 4, SOUTH);
    put(&mut st, 5, RED);
    put(&mut st, 10, RED_5M);
    st.dora[usize::from(m(5))] = 1;
    land(&mut st, 5);
    land(&mut st, 10);
    assert_eq!((st.players[0].pos, points(&st)), (0, vec![-270, 90, 90, 90]));
    // No dora, no pending multiplier: one lap, free.
    let mut st = course(&r, 4, SOUTH);
    put(&mut st, 10, RED_5M);
    land(&mut st, 10);
    assert_eq!((st.players[0].pos, points(&st)), (0, vec![0, 0, 0, 0]));
}

#[test]
fn sg_src_12_manzu_chain_into_red_5m() {
    let r = Rules::default();
    let mut st = course(&r, 4, SOUTH);
    put(&mut st, 30, m(8));
    put(&mut st, 38, m(4));
    put(&mut st, 46, RED_5M);
    st.dora[usize::from(m(4))] = 1;
    st.dora[usize::from(m(5))] = 1;
    land(&mut st, 30);
    assert_eq!(st.players[0].pos, 0);
    assert_eq!(points(&st), [-90, 30, 30, 30]);
    assert!(st.is_up(30) && st.is_up(38) && st.is_up(46));
}

#[test]
fn sg_src_13_loop_stops_on_the_manzu_nearest_the_goal() {
    for (loop_rule, stop) in [("nearest-goal", 114), ("repeat-square", 112)] {
        let r = rules(json!({"loop_rule": loop_rule}));
        let mut st = course(&r, 4, SOUTH);
        assert_eq!(st.goal, 117);
        put(&mut st, 112, m(2));
        put(&mut st, 114, m(8));
        land(&mut st, 112);
        assert_eq!(st.players[0].pos, stop, "{loop_rule}");
        assert_eq!(st.stats.loops, 1);
        assert_eq!(st.stats.goal_bounces, 1);
        assert_eq!(st.players[0].rests, 0, "the stop square has no effect");
    }
}

#[test]
fn a_square_revisited_with_another_multiplier_is_not_a_loop() {
    // (111, M=2): the 2m moves 4 to the 8m at 115, which bounces back to 111. (111, M=1) is a new
    // state, so the 2m now moves 2 to the 1p at 113 and the chain ends there, without a loop.
    let r = Rules::default();
    let mut st = course(&r, 4, SOUTH);
    put(&mut st, 111, m(2));
    put(&mut st, 115, m(8));
    put(&mut st, 113, p(1));
    st.players[0].mult = 2;
    land(&mut st, 111);
    assert_eq!((st.players[0].pos, st.stats.loops), (113, 0));
    assert_eq!(points(&st), [3, -1, -1, -1]);
}

#[test]
fn sg_src_14_15_rest_penalty() {
    let r = rules(json!({"rest_rule": "penalty4"}));
    let mut st = course(&r, 4, SOUTH);
    put(&mut st, 10, EAST);
    st.dora[usize::from(EAST)] = 1;
    st.players[0].mult = 4;
    land(&mut st, 10);
    assert_eq!((st.players[0].rests, points(&st)), (4, vec![-120, 40, 40, 40]));
    for (scope, each) in [("square-effects", 600), ("everything", 500)] {
        let r = rules(json!({"rest_rule": "penalty4", "cap_scope": scope}));
        let mut st = course(&r, 4, SOUTH);
        put(&mut st, 10, WEST);
        st.dora[usize::from(WEST)] = 3;
        st.players[0].mult = 8;
        land(&mut st, 10);
        assert_eq!((st.players[0].rests, points(&st)), (4, vec![-3 * each, each, each, each]), "{scope}");
    }
}

#[test]
fn sg_src_16_17_progressive_receipts() {
    let r = rules(json!({"progressive_over_cap": true}));
    for (mult, each) in [(24, 733), (40, 1000)] {
        let mut st = course(&r, 4, SOUTH);
        put(&mut st, 10, POCHI);
        st.players[0].mult = mult; // the pochi receives 50 × 24 = 1200, 50 × 40 = 2000
        land(&mut st, 10);
        assert_eq!(points(&st), [3 * each, -each, -each, -each]);
        assert_eq!(st.stats.capped_payments, 1);
    }
    // Payments stay hard-capped.
    let mut st = course(&r, 4, SOUTH);
    put(&mut st, 10, s(9));
    st.players[0].mult = 200;
    land(&mut st, 10);
    assert_eq!(points(&st), [-1500, 500, 500, 500]);
}

/// Seat 0 wins from 110 with a 7; the others stand `others` squares from the goal.
fn finish(st: &mut State<'_>, others: &[u8]) {
    for (i, &d) in others.iter().enumerate() {
        st.players[i + 1].pos = st.goal - d;
    }
    st.players[0].pos = st.goal - 7;
    let mut dice = Script::new(&[(3, 4)], no);
    let Ok(()) = st.turn(0, &mut dice);
    assert_eq!(st.winner, Some(0));
    assert_eq!(st.end, End::Goal);
    st.settle();
}

#[test]
fn sg_src_18_and_sg_14_settlement() {
    let r = rules(json!({"winner_bonus": 0}));
    let mut st = course(&r, 4, SOUTH);
    finish(&mut st, &[5, 10, 60]);
    assert_eq!(points(&st), [75, 55, 35, -165]);
    let r = Rules::default();
    let mut st = course(&r, 4, SOUTH);
    finish(&mut st, &[5, 10, 60]);
    assert_eq!(points(&st), [165, 25, 5, -195]);
    assert_eq!(st.players[3].bonus, -30);
    assert_eq!(st.players[3].distance_settlement, -165);
    let d = [0, 5, 10, 60];
    let shares: Vec<i64> = (0..4).map(|i| distance_share(1, &d, i)).collect();
    assert_eq!(shares, [75, 55, 35, -165]);
}

#[test]
fn sg_src_19_opening_pochi_redeals_and_multiplies() {
    let r = rules(json!({"opening_pochi": true}));
    let mut st = State::new(&r, 4);
    let (mut once, mut twice) = (false, false);
    for deal in 0..2000u64 {
        st.deal(Key::new(11).with(deal));
        let pts = points(&st);
        assert_eq!(pts.iter().sum::<i64>(), 0);
        let flippers: Vec<usize> = (0..4).filter(|&i| st.players[i].opening_pochi_flips > 0).collect();
        match st.stats.redeals {
            0 => assert_eq!(pts, [0, 0, 0, 0]),
            1 => {
                once = true;
                let f = flippers[0];
                assert_eq!(flippers.len(), 1);
                assert_eq!(pts[f], -150);
                assert_eq!(st.players[f].mult, 10);
                // The flipper's first landing is ×10: a plain 1p receives 10 from each.
                let before = pts[f];
                st.course[30] = p(1);
                st.dora = [0; 34];
                st.players[f].pos = 29;
                st.move_piece(f, 1, state::Dir::Forward);
                assert_eq!(st.players[f].points - before, 30);
            }
            2 if flippers.len() == 2 => {
                twice = true;
                let second = (0..4).find(|&i| st.players[i].mult == 100).unwrap();
                let first = flippers.into_iter().find(|&i| i != second).unwrap();
                assert_eq!(pts[second], -1500 + 50);
                assert_eq!(pts[first], -150 + 500);
                assert_eq!(st.players[first].mult, 1, "a later reset voids the earlier ×10");
            }
            _ => {}
        }
    }
    assert!(once && twice);
}

#[test]
fn sg_src_20_course_length() {
    let r = Rules::default();
    let st = State::new(&r, 4);
    assert_eq!((st.len, st.goal), (116, 117));
    let r = rules(json!({"dora_count": 40}));
    assert_eq!(State::new(&r, 4).goal, 97);
}

// ---- §16.2 derived vectors ----

#[test]
fn sg_1_bounce_and_sg_2_goal() {
    let r = Rules::default();
    let mut st = course(&r, 4, p(1));
    st.players[0].pos = 110;
    let Ok(()) = st.turn(0, &mut Script::new(&[(4, 5)], no));
    assert_eq!(st.players[0].pos, 115);
    assert_eq!(st.stats.goal_bounces, 1);
    st.players[0].pos = 110;
    let Ok(()) = st.turn(0, &mut Script::new(&[(3, 4)], no));
    assert_eq!((st.players[0].pos, st.winner), (117, Some(0)));
    // Other overshoot rules.
    for (rule, pos, winner) in [("stay", 110, None), ("finish", 117, Some(0))] {
        let r = rules(json!({"overshoot": rule}));
        let mut st = course(&r, 4, p(1));
        st.players[0].pos = 110;
        let Ok(()) = st.turn(0, &mut Script::new(&[(4, 5)], no));
        assert_eq!((st.players[0].pos, st.winner), (pos, winner), "{rule}");
    }
}

#[test]
fn sg_5_pinzoro_to_start_ends_the_turn() {
    let r = Rules::default();
    let mut st = course(&r, 4, p(1));
    st.players[0].pos = 1;
    let mut dice = Script::new(&[(1, 1), (3, 3)], yes);
    let Ok(()) = st.turn(0, &mut dice);
    assert_eq!((st.players[0].pos, dice.rolled, st.players[0].back_rerolls), (0, 1, 0));
}

#[test]
fn sg_6_pinzoro_manzu_run_backward() {
    let r = Rules::default();
    for (answer, pos, rolled) in [(no as fn(Decision) -> bool, 45, 1), (yes, 40, 2)] {
        let mut st = course(&r, 4, p(1));
        put(&mut st, 48, m(3));
        st.players[0].pos = 50;
        let mut dice = Script::new(&[(1, 1), (2, 3)], answer);
        let Ok(()) = st.turn(0, &mut dice);
        assert_eq!((st.players[0].pos, dice.rolled), (pos, rolled));
    }
    // With pinzoro_manzu_back off the 3m moves forward.
    let r = rules(json!({"pinzoro_manzu_back": false}));
    let mut st = course(&r, 4, p(1));
    put(&mut st, 48, m(3));
    st.players[0].pos = 50;
    let Ok(()) = st.turn(0, &mut Script::new(&[(1, 1)], no));
    assert_eq!(st.players[0].pos, 51);
}

#[test]
fn sg_7_sixzoro_offset() {
    let r = Rules::default();
    let mut st = course(&r, 4, p(1));
    put(&mut st, 32, EAST);
    st.players[0].pos = 20;
    let mut dice = Script::new(&[(6, 6), (2, 3)], yes);
    let Ok(()) = st.turn(0, &mut dice);
    assert_eq!((st.players[0].pos, st.players[0].rests, dice.rolled), (32, 0, 1));
    let mut st = course(&r, 4, p(1));
    put(&mut st, 32, EAST);
    st.players[0].pos = 20;
    let mut dice = Script::new(&[(6, 6), (2, 3)], |d| d != Decision::SixzoroOffset);
    let Ok(()) = st.turn(0, &mut dice);
    assert_eq!((st.players[0].pos, st.players[0].rests, dice.rolled), (37, 1, 2));
    // The rest is served on the next turn.
    let Ok(()) = st.turn(0, &mut Script::new(&[], no));
    assert_eq!((st.players[0].rests, st.players[0].rests_served), (0, 1));
}

#[test]
fn sixzoro_extra_roll_is_a_full_roll_unless_plain() {
    // 6-6, then an extra 6-6: full = another 6-zoro (and its extra roll 2-3); plain = 12 forward.
    for (rule, pos) in [("full", 20 + 12 + 12 + 5), ("plain", 20 + 12 + 12)] {
        let r = rules(json!({"sixzoro_extra_roll": rule}));
        let mut st = course(&r, 4, p(1));
        st.players[0].pos = 20;
        let mut dice = Script::new(&[(6, 6), (6, 6), (2, 3)], yes);
        let Ok(()) = st.turn(0, &mut dice);
        assert_eq!(st.players[0].pos, pos, "{rule}");
    }
}

#[test]
fn pinzoro_reroll_doubles_again_allows_another_back_roll() {
    for (rule, pos, rolled) in [("plain", 50 - 2 - 2, 2), ("again", 50 - 2 - 2 - 5, 3)] {
        let r = rules(json!({"pinzoro_reroll_doubles": rule}));
        let mut st = course(&r, 4, p(1));
        st.players[0].pos = 50;
        let mut dice = Script::new(&[(1, 1), (1, 1), (2, 3)], yes);
        let Ok(()) = st.turn(0, &mut dice);
        assert_eq!((st.players[0].pos, dice.rolled), (pos, rolled), "{rule}");
    }
}

#[test]
fn forced_and_forbidden_rolls_override_the_strategy() {
    let r = rules(json!({"pinzoro_reroll": "never", "sixzoro_reroll": "always"}));
    let mut st = course(&r, 4, p(1));
    st.players[0].pos = 50;
    let mut dice = Script::new(&[(1, 1), (2, 3)], yes);
    let Ok(()) = st.turn(0, &mut dice);
    assert_eq!((st.players[0].pos, dice.rolled), (48, 1));
    let mut dice = Script::new(&[(6, 6), (2, 3)], no);
    let Ok(()) = st.turn(0, &mut dice);
    assert_eq!((st.players[0].pos, dice.rolled), (48 + 12 + 5, 2));
}

#[test]
fn sg_8_rest_chips_pay_the_winner() {
    let r = rules(json!({"rest_rule": "penalty4", "winner_bonus": 0, "distance_rate": 0}));
    let mut st = course(&r, 4, SOUTH);
    st.players[2].rests = 3;
    finish(&mut st, &[5, 10, 60]);
    assert_eq!(points(&st), [60, 0, -60, 0]);
    assert_eq!(st.players[2].rest_chips, -60);
}

#[test]
fn sg_9_10_pending_multiplier_is_consumed_by_the_next_landing() {
    let r = Rules::default();
    let mut st = course(&r, 4, SOUTH);
    put(&mut st, 10, p(6));
    st.players[0].mult = 2;
    land(&mut st, 10);
    assert_eq!((points(&st), st.players[0].mult), (vec![36, -12, -12, -12], 1));
    let mut st = course(&r, 4, SOUTH);
    put(&mut st, 30, m(3));
    put(&mut st, 36, p(1));
    st.players[0].mult = 2;
    land(&mut st, 30);
    assert_eq!((st.players[0].pos, points(&st)), (36, vec![3, -1, -1, -1]));
}

#[test]
fn sg_12_dragons_stack_and_sg_13_hard_cap() {
    let r = Rules::default();
    let mut st = course(&r, 4, SOUTH);
    put(&mut st, 10, GREEN);
    put(&mut st, 20, RED);
    put(&mut st, 30, s(9));
    for sq in [10, 20, 30] {
        land(&mut st, sq);
    }
    assert_eq!(points(&st), [-108, 36, 36, 36]);
    let mut st = course(&r, 4, SOUTH);
    put(&mut st, 30, s(9));
    st.dora[usize::from(s(9))] = 2;
    st.players[0].mult = 40;
    land(&mut st, 30);
    assert_eq!(points(&st), [-1500, 500, 500, 500]);
    assert_eq!(st.stats.largest_payment, 500);
    // cap_scope = receipts leaves payments uncapped.
    let r = rules(json!({"cap_scope": "receipts"}));
    let mut st = course(&r, 4, SOUTH);
    put(&mut st, 30, s(9));
    st.dora[usize::from(s(9))] = 2;
    st.players[0].mult = 40;
    land(&mut st, 30);
    assert_eq!(points(&st), [-4320, 1440, 1440, 1440]);
}

#[test]
fn sg_16_early_end_settles_nothing() {
    let r = rules(json!({"max_turns": 6}));
    let t = Sugoroku::play(&r, &[Knobs::default(), Knobs::default(), Knobs::default()], &batch(0, 50, false));
    let games = &t[0];
    assert!(col(games, "winner").iter().all(|&w| w as i8 == -1));
    assert!(col(games, "early_end").iter().all(|&e| e == 1));
    let players = &t[1];
    assert_eq!(i64s(players, "final_points"), i64s(players, "points_before_settlement"));
    assert!(i64s(players, "settlement").iter().all(|&x| x == 0));
}

#[test]
fn agreement_ends_when_all_agree_near_the_goal() {
    let r = Rules::default();
    let mut st = course(&r, 3, SOUTH);
    for (i, pos) in [100u8, 95, 110].into_iter().enumerate() {
        st.players[i].pos = pos;
    }
    let Ok(()) = st.play(&mut Script::new(&[], yes));
    assert_eq!((st.end, st.stats.turns), (End::Agreement, 0));
    // One piece farther than 24 squares: not offered; with the option off: never offered.
    for (pos, overrides) in [(90u8, json!({})), (110, json!({"agreement_end": false}))] {
        let r = rules(overrides);
        let mut st = course(&r, 3, SOUTH);
        st.players[0].pos = pos;
        st.players[1].pos = 110;
        st.players[2].pos = 110;
        let mut dice = Script::new(&[(3, 4), (3, 4)], yes);
        let Ok(()) = st.play(&mut dice);
        assert_eq!(st.end, End::Goal);
    }
}

#[test]
fn dora_mode_next_marks_the_following_kind() {
    let r = rules(json!({"dora_mode": "next"}));
    let mut st = State::new(&r, 4);
    for deal in 0..50 {
        st.deal(Key::new(3).with(deal));
        assert_eq!(st.dora.iter().map(|&d| u32::from(d)).sum::<u32>(), 20);
    }
    // Indicators: 9m → 1m, 北 → 東, 中 → 白 (checked through the deal's counting).
    let self_mode = Rules::default();
    let mut a = State::new(&self_mode, 4);
    let mut b = State::new(&r, 4);
    a.deal(Key::new(5));
    b.deal(Key::new(5));
    for k in 0..34usize {
        let prev = match k {
            0..=26 => k - k % 9 + (k % 9 + 8) % 9,
            27..=30 => 27 + (k - 27 + 3) % 4,
            _ => 31 + (k - 31 + 2) % 3,
        };
        assert_eq!(b.dora[k], a.dora[prev], "kind {k}");
    }
}

// ---- greedy lookahead ----

/// Whether `knobs` take the option at `point` for the seat of `view`.
fn takes(knobs: &Knobs, view: &View<'_>, point: Point) -> bool {
    Native { knobs, key: Key::new(1) }.decide(view, point, &LEGAL) == Ok(Action::Take)
}

#[test]
fn greedy_values_a_known_course_exactly() {
    let r = Rules::default();
    let k = Knobs::default();
    let point = Point { decision: Decision::PinzoroReroll, turn: 0, roll: 0 };
    // All 9p face up: moving back s squares receives 27: EV = 27 − E[s] = 20.
    let mut st = course(&r, 4, p(9));
    reveal(&mut st);
    st.players[0].pos = 60;
    let ev = strategies::roll_value(&k, &st.view(0), RollKind::PinzoroBack, point);
    assert!((ev - 20.0).abs() < 1e-9, "{ev}");
    // All face down, unseen {9p, 9s}: the landing's expected points are 0, so EV = −7.
    let mut st = course(&r, 4, p(9));
    st.unseen = [0; 40];
    st.unseen[usize::from(p(9))] = 1;
    st.unseen[usize::from(s(9))] = 1;
    st.players[0].pos = 60;
    let ev = strategies::roll_value(&k, &st.view(0), RollKind::PinzoroBack, point);
    assert!((ev + 7.0).abs() < 1e-9, "{ev}");
    let greedy = Knobs::from_json(&json!({"pinzoro_reroll": "greedy"})).unwrap();
    assert!(!takes(&greedy, &st.view(0), point));
    // Unseen {1p, 2m}: the 1p gives 3 − s; the 2m moves back 2 more onto another face-down
    // square, which is not expanded: −s − 2. EV = ½(3 − 7) + ½(−7 − 2) = −6.5.
    st.unseen = [0; 40];
    st.unseen[usize::from(p(1))] = 1;
    st.unseen[usize::from(m(2))] = 1;
    let ev = strategies::roll_value(&k, &st.view(0), RollKind::PinzoroBack, point);
    assert!((ev + 6.5).abs() < 1e-9, "{ev}");
    // A pending ×2 doubles the 1p only (the 2m's move is doubled but stays face-down): ½(6 − 7) + ½(−11).
    st.players[0].mult = 2;
    let ev = strategies::roll_value(&k, &st.view(0), RollKind::PinzoroBack, point);
    assert!((ev + 6.0).abs() < 1e-9, "{ev}");
}

#[test]
fn greedy_offsets_only_when_the_rest_is_worth_more_than_the_roll() {
    let r = Rules::default();
    let greedy = Knobs::from_json(&json!({"offset": "greedy"})).unwrap();
    let point = Point { decision: Decision::PinzoroOffset, turn: 0, roll: 0 };
    // Behind the piece: all 9s (a back roll loses 27 + 7 squares) or all 9p (gains 27 − 7).
    for (fill, offsets) in [(s(9), true), (p(9), false)] {
        let mut st = course(&r, 4, fill);
        put(&mut st, 48, EAST);
        reveal(&mut st);
        st.players[0].pos = 48;
        st.players[0].rests = 1;
        assert_eq!(takes(&greedy, &st.view(0), point), offsets);
    }
}

#[test]
fn greedy_agrees_to_end_only_when_behind_in_the_race() {
    let r = Rules::default();
    let greedy = Knobs::from_json(&json!({"agree_end": "greedy"})).unwrap();
    let point = Point { decision: Decision::AgreeEnd, turn: 0, roll: 0 };
    let mut st = course(&r, 3, SOUTH);
    reveal(&mut st);
    for (i, pos) in [95u8, 112, 113].into_iter().enumerate() {
        st.players[i].pos = pos;
    }
    // Seat 0 would pay 17 + 18 = 35 in the settlement; a roll is worth at most 12 − 3 squares.
    assert!(takes(&greedy, &st.view(0), point));
    assert!(!takes(&greedy, &st.view(2), point));
}

// ---- invariants and determinism over whole games ----

fn batch(first: u64, count: u64, duplicate: bool) -> Batch {
    Batch { seed: 20261120, first_game: first, count, duplicate }
}

fn lineup(n: usize, scripts: &[Value]) -> Vec<Knobs> {
    (0..n).map(|i| Knobs::from_json(&scripts[i % scripts.len()]).unwrap()).collect()
}

#[test]
fn invariants_over_random_games() {
    let variants = [
        json!({}),
        json!({"payout_cap": "none", "dora_count": 40, "dora_mode": "next"}),
        json!({"opening_pochi": true, "rest_rule": "penalty4", "progressive_over_cap": true, "cap_scope": "everything"}),
        json!({"overshoot": "stay", "loop_rule": "repeat-square", "sixzoro_extra_roll": "plain",
               "pinzoro_reroll_doubles": "again", "gold_5s": 2, "pochi_count": 3, "max_turns": 60}),
        json!({"dora_count": 0, "red_5m": 2, "overshoot": "finish", "distance_rate": 3, "winner_bonus": 100}),
    ];
    let scripts = [
        json!({}),
        json!({"offset": "always", "agree_end": "always"}),
        json!({"pinzoro_reroll": "random", "sixzoro_reroll": "random", "offset": "random", "agree_end": "random"}),
        json!({"pinzoro_reroll": "greedy", "sixzoro_reroll": "greedy", "offset": "greedy", "agree_end": "greedy"}),
    ];
    for (v, overrides) in variants.iter().enumerate() {
        let r = rules(overrides.clone());
        for n in 2..=5 {
            let t = Sugoroku::play(&r, &lineup(n, &scripts), &batch(0, 600, false));
            let (games, players) = (&t[0], &t[1]);
            assert_eq!((games.rows, players.rows), (600, 600 * n));
            let finals = i64s(players, "final_points");
            let before = i64s(players, "points_before_settlement");
            let parts: Vec<i64> = ["winner_bonus", "settlement", "rest_chips"]
                .iter()
                .map(|c| i64s(players, c))
                .fold(before, |acc, x| acc.iter().zip(&x).map(|(a, b)| a + b).collect());
            assert_eq!(parts, finals, "variant {v}: final = parts");
            let dist = col(players, "goal_distance");
            for (g, chunk) in finals.chunks(n).enumerate() {
                assert_eq!(chunk.iter().sum::<i64>(), 0, "variant {v}, {n} players, game {g}");
                let winner = col(games, "winner")[g] as i8;
                let early = col(games, "early_end")[g];
                assert_eq!(winner == -1, early != 0, "exactly one winner or an early end");
                if winner >= 0 {
                    assert_eq!(dist[g * n + winner as usize], 0);
                    assert_eq!(dist[g * n..g * n + n].iter().filter(|&&d| d == 0).count(), 1);
                }
                let turns = u32::from_le_bytes(col(games, "turns")[4 * g..4 * g + 4].try_into().unwrap());
                assert!(turns <= r.max_turns);
            }
        }
    }
}

#[test]
fn every_deal_accounts_for_136_tiles() {
    let r = rules(json!({"red_5p": 2, "gold_5p": 1, "blue_5p": 1, "gold_5s": 2, "pochi_count": 2}));
    let mut st = State::new(&r, 4);
    for deal in 0..300 {
        st.deal(Key::new(9).with(deal));
        let mut per_kind = [0u32; 34];
        let mut specials = [0u32; 40];
        for sq in 1..=usize::from(st.len) {
            per_kind[usize::from(state::kind(st.course[sq]))] += 1;
            specials[usize::from(st.course[sq])] += 1;
        }
        for (k, (&c, &d)) in per_kind.iter().zip(&st.dora).enumerate() {
            assert_eq!(c + u32::from(d), 4, "kind {k}");
        }
        assert_eq!(st.unseen.iter().map(|&u| u32::from(u)).sum::<u32>(), u32::from(st.len));
        assert!(specials[usize::from(RED_5P)] <= 2 && specials[usize::from(POCHI)] <= 2);
        // Playing the game only turns tiles over.
        let Ok(()) = st.play(&mut Script::new(&[(3, 4); 4000], no));
        let up = (1..=usize::from(st.len)).filter(|&sq| st.is_up(sq)).count() as u32;
        assert_eq!(up + st.unseen.iter().map(|&u| u32::from(u)).sum::<u32>(), u32::from(st.len));
        assert_eq!(up, st.stats.revealed);
    }
}

fn concat(a: &Table, b: &Table) -> Vec<(String, Vec<u8>)> {
    a.columns.iter().zip(&b.columns).map(|(x, y)| (x.name.to_string(), [x.data.clone(), y.data.clone()].concat())).collect()
}

#[test]
fn batching_does_not_change_results() {
    let r = rules(json!({"opening_pochi": true}));
    let l = lineup(
        4,
        &[json!({}), json!({"pinzoro_reroll": "random", "offset": "random"}), json!({"sixzoro_reroll": "greedy", "offset": "greedy"})],
    );
    for duplicate in [false, true] {
        let whole = Sugoroku::play(&r, &l, &batch(0, 100, duplicate));
        let a = Sugoroku::play(&r, &l, &batch(0, 48, duplicate));
        let b = Sugoroku::play(&r, &l, &batch(48, 52, duplicate));
        for t in 0..2 {
            let joined = concat(&a[t], &b[t]);
            let expected: Vec<(String, Vec<u8>)> = whole[t].columns.iter().map(|c| (c.name.to_string(), c.data.clone())).collect();
            assert_eq!(joined, expected);
        }
    }
}

#[test]
fn duplicate_tables_give_each_seat_the_same_dice() {
    // With identical strategies every rotation of a deal is the same game seat by seat.
    let r = Rules::default();
    let l = lineup(4, &[json!({})]);
    let t = Sugoroku::play(&r, &l, &batch(0, 40, true));
    let finals = i64s(&t[1], "final_points");
    for deal in finals.chunks(16) {
        for rotation in deal.chunks(4).skip(1) {
            assert_eq!(rotation, &deal[..4]);
        }
    }
    // Different players in the seats still see the seat's dice: a strategy that never re-rolls
    // only diverges from naive in games with a pinzoro.
    let mixed = lineup(4, &[json!({}), json!({"pinzoro_reroll": "never"})]);
    let t2 = Sugoroku::play(&r, &mixed, &batch(0, 40, true));
    let pinzoro = col(&t2[0], "pinzoro");
    let same = i64s(&t2[1], "final_points");
    for g in 0..40 {
        if pinzoro[4 * g] == 0 {
            assert_eq!(same[4 * g..4 * g + 4], finals[4 * g..4 * g + 4], "game {g}");
        }
    }
}

#[test]
fn rule_variants_share_the_dice() {
    // The cap changes points but never movement: positions and turns match game by game.
    let l = lineup(4, &[json!({})]);
    let a = Sugoroku::play(&Rules::default(), &l, &batch(0, 300, false));
    let b = Sugoroku::play(&rules(json!({"payout_cap": "none", "winner_bonus": 0})), &l, &batch(0, 300, false));
    assert_eq!(col(&a[0], "turns"), col(&b[0], "turns"));
    assert_eq!(col(&a[1], "final_position"), col(&b[1], "final_position"));
    assert_ne!(i64s(&a[1], "final_points"), i64s(&b[1], "final_points"));
}

#[test]
fn random_choices_never_move_the_dice() {
    let r = Rules::default();
    let always = lineup(4, &[json!({})]);
    let coin1 = lineup(
        4,
        &[json!({"pinzoro_reroll": "random", "pinzoro_reroll_p": 1.0,
        "sixzoro_reroll": "random", "sixzoro_reroll_p": 1.0, "offset": "random", "offset_p": 0.0})],
    );
    let a = Sugoroku::play(&r, &always, &batch(0, 200, false));
    let b = Sugoroku::play(&r, &coin1, &batch(0, 200, false));
    assert_eq!(a, b);
}

/// Plays one lineup slot from outside the engine with the greedy policy, or fails at its
/// `fail_at`-th decision.
struct GreedySlot {
    knobs: Knobs,
    asked: u32,
    fail_at: Option<u32>,
}

impl Player<Sugoroku> for GreedySlot {
    fn decide(&mut self, view: &View<'_>, point: Point, legal: &[Action]) -> Result<Action, Fault> {
        self.asked += 1;
        if self.fail_at == Some(self.asked) {
            return Err(Fault::Failed("a test slot".into()));
        }
        Native { knobs: &self.knobs, key: Key::new(0) }.decide(view, point, legal)
    }
}

#[test]
fn an_outside_player_plays_the_games_its_knobs_would() {
    // Slot 2 is greedy natively; an outside player decides for it (as greedy) while its knobs say naive.
    let r = rules(json!({"opening_pochi": true}));
    let greedy = json!({"pinzoro_reroll": "greedy", "sixzoro_reroll": "greedy", "offset": "greedy", "agree_end": "greedy"});
    let native = lineup(4, &[json!({}), json!({"offset": "always"}), greedy.clone(), json!({})]);
    let mut outside_lineup = native.clone();
    outside_lineup[2] = Knobs::default();
    for duplicate in [false, true] {
        let mut slot = GreedySlot { knobs: Knobs::from_json(&greedy).unwrap(), asked: 0, fail_at: None };
        let played = batch::play_tables(&r, &outside_lineup, &batch(0, 200, duplicate), &mut [None, None, Some(&mut slot), None]).unwrap();
        assert_eq!(played, Sugoroku::play(&r, &native, &batch(0, 200, duplicate)));
        assert!(slot.asked > 0);
        assert_ne!(played, Sugoroku::play(&r, &outside_lineup, &batch(0, 200, duplicate)), "the outside answers must matter");
    }
    let mut failing = GreedySlot { knobs: Knobs::default(), asked: 0, fail_at: Some(3) };
    let err = batch::play_tables(&r, &outside_lineup, &batch(5, 200, false), &mut [None, None, Some(&mut failing), None]).unwrap_err();
    assert!(matches!(err, PlayerError { game: Some(_), fault: Fault::Failed(_), .. }), "{err}");
    assert!(err.to_string().starts_with("game ") && err.to_string().contains(": a test slot (seat "), "{err}");
    assert_eq!(failing.asked, 3, "the game stops at the failure");
}
