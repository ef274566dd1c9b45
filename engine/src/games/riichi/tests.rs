//! Invariants of the game engine over many seeded games: tiles conserved, points plus deposits
//! conserved, illegal actions refused, furiten respected, games ending by the rules.

use super::actions::{Action, Point, View};
use super::batch::{play_game, scheduled, GameLog};
use super::rules::{self, Rules};
use super::scoring::{final_scores, HandResult, Outcome};
use super::state::{Progress, State, FLOWER, MAX_TILES, SEATS};
use super::strategies::{knob_answer, Knobs, Native, Policy};
use super::wall::{dice, wall};
use super::Riichi;
use crate::decide::{Fault, Player, Seats};
use crate::game::{Batch, Game};
use crate::rng::Key;
use serde_json::json;
use std::cell::Cell;
use std::rc::Rc;

/// The native players of a table's four seats, seat `s` with `lineup[s]` and key `key(s)`.
fn natives<'k>(lineup: [&'k Knobs; SEATS], key: impl Fn(usize) -> Key) -> [Native<'k>; SEATS] {
    std::array::from_fn(|s| Native::new(lineup[s], key(s)))
}

/// The native players of `natives` seated at one table.
fn seated<'a, 'k>(natives: &'a mut [Native<'k>; SEATS]) -> Seats<'a, Riichi, SEATS> {
    Seats(natives.each_mut().map(|n| n as &mut dyn Player<Riichi>))
}

/// The seats' native players; counts the tiles they extract and, when `reckless`, declares riichi
/// with every discard that allows it, fouls included (what no native does).
struct Checker<'k> {
    inner: [Native<'k>; SEATS],
    nuki: u64,
    reckless: bool,
}

/// Every tile of the set (136 or 108, plus the flowers) is exactly once in a hand (held flowers
/// included), a river, a meld, the extracted tiles or the undrawn wall.
fn tiles_conserved(s: &State<'_>) {
    let mut seen = [0u8; MAX_TILES];
    let mut add = |id: u8| seen[usize::from(id)] += 1;
    for (p, h) in s.p[..s.n].iter().zip(&s.hidden) {
        h.hand.iter().copied().for_each(&mut add);
        p.river.iter().copied().for_each(&mut add);
        p.nuki.iter().copied().for_each(&mut add);
        (0..8).filter(|i| h.flowers_held >> i & 1 == 1).for_each(|i| add(FLOWER + i));
        for m in &p.melds {
            m.tiles[..usize::from(m.n)].iter().copied().for_each(&mut add);
        }
    }
    let n_tiles = s.rules.tile_count();
    // Replacement draws beyond the dead wall's own (a replenished dead wall) took the tiles just
    // before it, in order.
    let taken_in = s.rinshan_drawn.saturating_sub(s.replacements);
    s.wall[s.live_next..s.dead - taken_in].iter().copied().for_each(&mut add);
    s.wall[s.dead + s.rinshan_drawn.min(s.replacements)..n_tiles].iter().copied().for_each(&mut add);
    for p in &s.p[..s.n] {
        for m in &p.melds {
            if let Some(called) = m.called {
                seen[usize::from(called)] -= 1;
            }
        }
    }
    let sanma = s.rules.players == 3;
    let in_set = |id: usize| {
        let id = id as u8;
        if id >= FLOWER {
            id < FLOWER + s.rules.flowers
        } else {
            !(sanma && (4..32).contains(&id))
        }
    };
    let total: usize = seen.iter().map(|&c| usize::from(c)).sum();
    assert_eq!(total, n_tiles, "tile count");
    assert!(seen.iter().enumerate().all(|(id, &c)| c == u8::from(in_set(id))), "tiles not conserved: {seen:?}");
    for (p, h) in s.p[..s.n].iter().zip(&s.hidden) {
        let n = h.hand.len() + 3 * p.melds.len() + h.flowers_held.count_ones() as usize;
        assert!(n == 13 || n == 14, "hand size {n}");
        let counts: usize = h.counts.iter().map(|&c| usize::from(c)).sum();
        assert_eq!(counts, h.hand.len());
        assert!(h.hand.iter().all(|&t| t < FLOWER), "a flower among the hand tiles");
    }
    let most = s.replacements + if s.rules.sanma_dead_wall == rules::SanmaDeadWall::Replenished14 { 4 } else { 0 };
    assert!(s.rinshan_drawn <= most);
    assert!(s.live_end + taken_in <= s.dead, "a replacement tile taken in from the live wall is still live");
}

/// Checks the state at every decision (through the state's probe): tiles and points conserved,
/// ron never offered in furiten, no second riichi. Counts the ron offers in `rons`.
fn check_every_decision(rons: Rc<Cell<u64>>) -> Box<super::state::Probe> {
    Box::new(move |s: &State<'_>, seat: usize, point: Point, legal: &[Action]| {
        tiles_conserved(s);
        let total: i64 = s.p.iter().map(|p| p.points).sum::<i64>() + i64::from(s.progress.sticks) * i64::from(s.rules.riichi_deposit);
        assert_eq!(total, s.n as i64 * i64::from(s.rules.starting_points), "points plus deposits");
        if legal.contains(&Action::Ron) {
            rons.set(rons.get() + 1);
            let (p, h) = (&s.p[seat], &s.hidden[seat]);
            assert!(p.river_kinds & h.waits == 0 && !h.temp_furiten && !h.riichi_furiten, "ron offered in furiten");
            if let Point::Response { tile, .. } = point {
                assert!(h.waits & (1 << (tile / 4)) != 0);
            }
        }
        if let Point::Turn { .. } = point {
            if s.p[seat].riichi {
                assert!(legal.iter().all(|a| !matches!(a, Action::Discard { riichi: true, .. })));
            }
        }
    })
}

impl Player<Riichi> for Checker<'_> {
    fn decide(&mut self, v: &View<'_>, point: Point, legal: &[Action]) -> Result<Action, Fault> {
        let a = self.inner[v.seat].decide(v, point, legal)?;
        if let Action::Nuki { tile } = a {
            assert!(tile >= FLOWER || (v.rules.north_nuki() && tile / 4 == 30), "nuki of {tile}");
            self.nuki += 1;
        }
        let riichi = match a {
            Action::Discard { tile, .. } => Some(Action::Discard { tile, riichi: true }),
            _ => None,
        };
        Ok(match riichi {
            Some(r) if self.reckless && legal.contains(&r) => r,
            _ => a,
        })
    }
}

fn knobs(policy: Policy) -> Knobs {
    Knobs { policy, ..Knobs::default() }
}

/// What [`run_checked`] saw: hands, ron offers, tiles extracted, and hands of every outcome.
#[derive(Default)]
struct Seen {
    hands: u64,
    ron_offers: u64,
    nuki: u64,
    outcomes: [u64; 16],
    logs: Vec<GameLog>,
}

/// Payments of a hand, riichi sticks of the hand aside: a single tsumo without pao or wareme
/// takes from each other seat its share of the evaluator's payments (`sanma_tsumo` with three
/// players); an exhaustive draw splits the noten total between tenpai and noten seats (§12.2, §14).
fn check_payments(s: &State<'_>, dealer: u8, r: &HandResult) {
    let stick = |seat: usize| i64::from(r.riichi >> seat & 1) * i64::from(s.rules.riichi_deposit);
    if let (Outcome::Tsumo, [w]) = (r.outcome, r.wins.as_slice()) {
        if w.pao.is_none() && r.wareme.is_none() {
            let pay = &w.score.payments;
            for seat in (0..s.n).filter(|&x| x != usize::from(w.seat)) {
                let share = if seat == usize::from(dealer) { pay.tsumo_dealer } else { pay.tsumo_non_dealer };
                assert_eq!(r.deltas[seat] + stick(seat), -i64::from(share), "tsumo payer {seat} of {:?}", w.score.payments);
            }
        }
    }
    if r.outcome != Outcome::Exhaustive {
        return;
    }
    let n = s.n;
    let total = i64::from(if n == 3 { s.rules.sanma_noten_total } else { s.rules.noten_bappu_total });
    let t = i64::from(r.tenpai.count_ones());
    for seat in 0..n {
        let tenpai = r.tenpai >> seat & 1 == 1;
        let want = match t {
            0 => 0,
            t if t == n as i64 => 0,
            t if tenpai => total / t,
            t => -total / (n as i64 - t),
        };
        assert_eq!(r.deltas[seat] + stick(seat), want, "seat {seat}, tenpai mask {:b}", r.tenpai);
    }
}

fn run_checked(rules: &Rules, lineup: [&Knobs; 4], games: u64) -> (u64, u64, Vec<GameLog>) {
    run_checked_with(rules, lineup, games, false)
}

fn run_checked_with(rules: &Rules, lineup: [&Knobs; 4], games: u64, reckless: bool) -> (u64, u64, Vec<GameLog>) {
    let seen = run_checked_full(rules, lineup, games, reckless);
    (seen.hands, seen.ron_offers, seen.logs)
}

fn run_checked_full(rules: &Rules, lineup: [&Knobs; 4], games: u64, reckless: bool) -> Seen {
    let mut state = State::new(rules);
    let root = Key::new(7);
    let mut seen = Seen::default();
    let mut hands = 0;
    let mut logs = Vec::new();
    let rons = Rc::new(Cell::new(0));
    state.probe.0 = Some(check_every_decision(rons.clone()));
    for g in 0..games {
        let mut d = Checker { inner: natives(lineup, |s| root.with(99).with(g).with(s as u64)), nuki: 0, reckless };
        let log = play_game(&mut state, &mut d, &mut |p| (wall(root, g, p, rules), dice(root, g, p))).unwrap();
        hands += log.hands.len() as u64;
        for (_, dealer, r) in &log.hands {
            check_payments(&state, *dealer, r);
            seen.outcomes[r.outcome as usize] += 1;
        }
        seen.nuki += d.nuki;
        let sum: i64 = log.final_points.iter().sum();
        assert_eq!(sum, state.n as i64 * i64::from(rules.starting_points), "final points including leftover deposits");
        assert_eq!(log.final_points[state.n..].iter().sum::<i64>(), 0, "an empty seat has no points");
        // The game ended by the rules: tobi, or the last hand was all-last or an extension hand.
        let (last, _, _) = log.hands.last().unwrap();
        let busted = state.p.iter().any(|p| p.points < 0);
        assert!(busted || last.round + 1 >= scheduled(rules), "game {g} ended early at round {}", last.round);
        assert!(log.hands.len() < 200);
        logs.push(log);
    }
    seen.hands = hands;
    seen.ron_offers = rons.get();
    seen.logs = logs;
    seen
}

#[test]
fn random_and_efficient_games_keep_every_invariant() {
    let rules = rules::resolve("tenhou", &json!({})).unwrap();
    let random = knobs(Policy::Random);
    let eff = knobs(Policy::Efficiency);
    let (hands, rons, _) = run_checked(&rules, [&random, &random, &random, &random], 30);
    assert!(hands > 200 && rons > 0, "{hands} hands, {rons} ron offers");
    let (hands, rons, _) = run_checked(&rules, [&eff, &random, &eff, &random], 30);
    assert!(hands > 200 && rons > 20, "{hands} hands, {rons} ron offers");
    let caller = Knobs { calls: super::strategies::CallPolicy::Any, fold: super::strategies::FoldTrigger::Riichi, ..Knobs::default() };
    let loose = rules::resolve("default", &json!({"multi_ron": "all_win", "tobi": "off", "kuikae": "allowed", "aka_dora": 4})).unwrap();
    run_checked(&loose, [&caller, &eff, &caller, &random], 20);
    // Inflation: wareme, yakitori (an odd 10001 so that its shares do not divide evenly), tonpuu.
    let inflated = rules::resolve("inflation", &json!({"yakitori": 10001, "game_length": "tonpuu"})).unwrap();
    run_checked(&inflated, [&caller, &eff, &random, &eff], 20);
}

/// A decider that answers an illegal action is refused with an error.
struct Cheater;

impl Player<Riichi> for Cheater {
    fn decide(&mut self, v: &View<'_>, point: Point, legal: &[Action]) -> Result<Action, Fault> {
        Ok(match point {
            // A tile the player does not hold.
            Point::Turn { .. } => {
                let t = (0..136u8).find(|t| !v.own.hand.contains(t)).unwrap();
                Action::Discard { tile: t, riichi: false }
            }
            _ => legal[0],
        })
    }
}

#[test]
fn illegal_actions_are_refused() {
    let rules = Rules::default();
    let mut state = State::new(&rules);
    state.start_game();
    let root = Key::new(1);
    let w = wall(root, 0, state.progress, &rules);
    state.deal(&w, state.progress);
    let err = state.play_hand(&mut Cheater).unwrap_err();
    assert!(matches!(&err.fault, Fault::Illegal(what) if what.contains("not legal") || what.contains("not in the hand")), "{err}");
    assert_eq!((err.seat, err.point), (0, "turn"));
}

#[test]
fn batches_are_deterministic_and_fill_the_tables() {
    let rules = rules::resolve("tenhou", &json!({})).unwrap();
    let lineup = vec![Knobs::default(); 4];
    let batch = Batch { seed: 3, first_game: 0, count: 8, duplicate: true };
    let a = super::Riichi::play(&rules, &lineup, &batch);
    let b = super::Riichi::play(&rules, &lineup, &batch);
    assert_eq!(a, b);
    // Split batches give the same rows as one batch.
    let first = super::Riichi::play(&rules, &lineup, &Batch { count: 4, ..batch });
    assert_eq!(first[0].rows, 4);
    assert_eq!(first[1].column("final_points").unwrap().data, {
        let col = a[1].column("final_points").unwrap();
        col.data[..col.data.len() / 2].to_vec()
    });
    // Four identical strategies at the four duplicate tables of one deal: same result per seat.
    let pts = a[1].column("final_points").unwrap();
    let read = |i: usize| i64::from_le_bytes(pts.data[i * 8..i * 8 + 8].try_into().unwrap());
    for g in 1..4 {
        for s in 0..4 {
            assert_eq!(read(s), read(g * 4 + s));
        }
    }
}

#[test]
fn bad_rule_combinations_are_rejected() {
    let r = rules::resolve("default", &json!({"starting_points": 35000, "return_points": 30000}));
    assert_eq!(r.unwrap_err().field, "oka+return_points");
    assert_eq!(rules::resolve("default", &json!({"multi_ron": "triple"})).unwrap_err().field, "multi_ron");
    assert_eq!(rules::resolve("default", &json!({"west_extension": true})).unwrap_err().field, "west_extension");
}

/// Without 形式聴牌, an open ready hand with no yaku is noten at an exhaustive draw: on the first
/// hand of each game (identical play under both rules) the tenpai seats shrink to a subset, and
/// some open hands drop out.
#[test]
fn keishiki_tenpai_off_drops_open_hands_without_yaku() {
    let caller = Knobs { calls: super::strategies::CallPolicy::Any, ..Knobs::default() };
    let lineup = vec![caller; 4];
    let batch = Batch { seed: 9, first_game: 0, count: 300, duplicate: false };
    let first_hands = |rules: &Rules| {
        let t = super::Riichi::play(rules, &lineup, &batch);
        let hands = &t[2];
        let col = |name: &str| hands.column(name).unwrap().data.clone();
        let (hand, outcome, tenpai) = (col("hand"), col("outcome"), col("tenpai"));
        let mut out = Vec::new();
        for i in 0..hands.rows {
            if u32::from_le_bytes(hand[i * 4..i * 4 + 4].try_into().unwrap()) == 0 && outcome[i] == 2 {
                out.push(tenpai[i]);
            }
        }
        out
    };
    let formal = first_hands(&rules::resolve("tenhou", &json!({})).unwrap());
    let strict = first_hands(&rules::resolve("tenhou", &json!({"keishiki_tenpai": false})).unwrap());
    assert_eq!(formal.len(), strict.len());
    assert!(formal.len() > 20);
    assert!(formal.iter().zip(&strict).all(|(f, s)| f & s == *s));
    assert!(formal.iter().zip(&strict).any(|(f, s)| f != s));
}

/// Wareme doubles every hand payment to or from the broken-wall seat, and nothing else. Checked on
/// the first hand of each game (identical play under both rules) when it is a single win at 0
/// honba with no riichi stick on the table.
#[test]
fn wareme_doubles_the_broken_wall_seats_payments() {
    let lineup = vec![Knobs { riichi: super::strategies::RiichiPolicy::Never, ..Knobs::default() }; 4];
    let batch = Batch { seed: 4, first_game: 0, count: 150, duplicate: false };
    let hands = |rules: &Rules| {
        let t = super::Riichi::play(rules, &lineup, &batch);
        let h = &t[2];
        let col = |name: &str| h.column(name).unwrap().data.clone();
        let (hand, outcome, winners, wareme) = (col("hand"), col("outcome"), col("winners"), col("wareme"));
        let deltas: Vec<Vec<u8>> = (0..4).map(|s| col(&format!("delta_{s}"))).collect();
        let mut out = Vec::new();
        for i in 0..h.rows {
            let first = u32::from_le_bytes(hand[i * 4..i * 4 + 4].try_into().unwrap()) == 0;
            if first && outcome[i] <= 1 && winners[i].count_ones() == 1 {
                let d: [i64; 4] = std::array::from_fn(|s| i64::from(i32::from_le_bytes(deltas[s][i * 4..i * 4 + 4].try_into().unwrap())));
                out.push((outcome[i], winners[i].trailing_zeros() as usize, wareme[i] as i8, d));
            }
        }
        out
    };
    let plain = hands(&rules::resolve("tenhou", &json!({})).unwrap());
    let doubled = hands(&rules::resolve("tenhou", &json!({"wareme": true})).unwrap());
    assert_eq!(plain.len(), doubled.len());
    assert!(plain.len() > 40);
    let mut seen_double = 0;
    for ((outcome, winner, none, a), (_, _, w, b)) in plain.iter().zip(&doubled) {
        assert_eq!(*none, -1);
        let w = usize::try_from(*w).expect("a wareme seat");
        for s in 0..4 {
            let payer_side = s != *winner;
            // A payer's amount doubles if it or the winner is the wareme seat.
            let factor = if payer_side && (s == w || *winner == w) { 2 } else { 1 };
            if payer_side && a[s] != 0 {
                assert_eq!(b[s], a[s] * factor, "outcome {outcome}, winner {winner}, wareme {w}: {a:?} vs {b:?}");
                seen_double += usize::from(factor == 2);
            }
        }
        assert_eq!(b.iter().sum::<i64>(), 0);
    }
    assert!(seen_double > 10);
}

/// Three players and flowers (§1.4, §14) over many seeded games: every invariant of the four-player
/// games (the set's 108 or 136 + F tiles conserved, points plus deposits conserved, noten payments,
/// the game ending by the rules), with tiles actually extracted, no chi with three players and
/// no four-wind or four-riichi abort.
#[test]
fn sanma_and_flower_games_keep_every_invariant() {
    let random = knobs(Policy::Random);
    let eff = knobs(Policy::Efficiency);
    let caller = Knobs { calls: super::strategies::CallPolicy::Any, fold: super::strategies::FoldTrigger::Riichi, ..Knobs::default() };
    let sanma = rules::resolve("sanma", &json!({})).unwrap();
    let seen = run_checked_full(&sanma, [&eff, &random, &caller, &eff], 40, false);
    assert!(seen.hands > 250 && seen.ron_offers > 20 && seen.nuki > 100, "{} hands, {} nuki", seen.hands, seen.nuki);
    assert_eq!(seen.outcomes[Outcome::SuufonRenda as usize] + seen.outcomes[Outcome::SuuchaRiichi as usize], 0);
    assert!(seen.outcomes[Outcome::Exhaustive as usize] > 10);
    // Sanma with flowers, payments by marudori, North as a guest wind, tonpuu.
    for over in [
        json!({"flowers": 8, "sanma_tsumo": "marudori", "sanma_north_ron": true}),
        json!({"sanma_north": "guest_wind", "sanma_tsumo": "seppan", "game_length": "tonpuu", "tobi": "zero_or_below"}),
        json!({"flowers": 4, "sanma_tsumo": "senten_kafu", "flower_all_yaku_han": 1, "multi_ron": "all_win"}),
        json!({"sanma_north": "shared_wind", "kansaki": true, "atozuke": false}),
    ] {
        let r = rules::resolve("sanma", &over).unwrap();
        let seen = run_checked_full(&r, [&caller, &random, &eff, &eff], 20, false);
        assert!(seen.hands > 60, "{over}: {} hands", seen.hands);
        assert_eq!(seen.nuki > 0, r.flowers > 0 || r.north_nuki(), "{over}: {} nuki", seen.nuki);
    }
    // Sanma with fouls (reckless riichi), noten claims and flowers: chombo payments among three.
    let fouls = rules::resolve(
        "sanma",
        &json!({"furiten_riichi": "chombo", "kara_riichi_chombo": true, "flowers": 4,
                                                "allow_noten_declaration": true, "tobi": "off"}),
    )
    .unwrap();
    let seen = run_checked_full(&fouls, [&eff, &random, &caller, &eff], 20, true);
    assert!(seen.outcomes[Outcome::Chombo as usize] > 0 && seen.nuki > 0);
    // Tenhou's three-player rules: the replenished 14-tile dead wall (replacement draws beyond the
    // fourth come from the tiles taken in from the live wall), kans by kan-happy.
    let tenhou = rules::resolve("tenhou_sanma", &json!({})).unwrap();
    let kans = Knobs { kan: super::strategies::KanPolicy::Always, ..knobs(Policy::Efficiency) };
    let seen = run_checked_full(&tenhou, [&kans, &random, &caller, &eff], 40, false);
    assert!(seen.hands > 250 && seen.nuki > 100, "{} hands, {} nuki", seen.hands, seen.nuki);
    // Four players with flowers.
    for flowers in [4u64, 8] {
        let r = rules::resolve("tenhou", &json!({"flowers": flowers})).unwrap();
        let seen = run_checked_full(&r, [&eff, &random, &caller, &random], 20, false);
        assert!(seen.hands > 100 && seen.nuki > 10 * flowers, "{} hands, {} nuki", seen.hands, seen.nuki);
    }
}

/// No chi with three players: a sanma batch's event log holds pons but never a chi.
#[test]
fn sanma_has_no_chi() {
    let caller = Knobs { calls: super::strategies::CallPolicy::Any, ..Knobs::default() };
    let rules = rules::resolve("sanma", &json!({"event_log_every": 1})).unwrap();
    let t = super::Riichi::play(
        &rules,
        &[caller.clone(), caller.clone(), caller],
        &Batch { seed: 5, first_game: 0, count: 10, duplicate: false },
    );
    let kinds = &t[3].column("kind").unwrap().data;
    assert_eq!(kinds.iter().filter(|&&k| k == 4).count(), 0, "chi");
    assert!(kinds.iter().filter(|&&k| k == 5).count() > 10, "pon");
    assert!(kinds.iter().filter(|&&k| k == 16).count() > 10, "nuki");
}

/// Deals `wall` (natural order but for `swaps`) and returns the state.
fn dealt<'r>(rules: &'r Rules, swaps: &[(usize, usize)]) -> State<'r> {
    let mut state = State::new(rules);
    state.start_game();
    let mut w: Vec<u8> = wall(Key::new(0), 0, state.progress, rules)[..rules.tile_count()].to_vec();
    w.sort_unstable();
    for &(a, b) in swaps {
        w.swap(a, b);
    }
    state.deal(&w, state.progress);
    state
}

/// §1.4 rule 4, hand-worked: with a flower as dora indicator every other extracted flower is worth
/// one more; a flower ura indicator adds as much for a riichi winner. §14 B: an indicator pointing
/// at North (West) makes each extracted North one more dora.
#[test]
fn nukidora_with_flower_and_north_indicators() {
    // 4 players, 4 flowers: N = 140, R = 8, dead wall 122..140, dora indicator at 130, ura at 131.
    let r = rules::resolve("default", &json!({"flowers": 4})).unwrap();
    let mut s = dealt(&r, &[(130, 136), (131, 137)]);
    assert_eq!((s.dead, s.replacements), (122, 8));
    assert_eq!(s.indicator_ids(), (vec![136], vec![137]));
    assert!(s.indicators().0.is_empty(), "a flower indicator points at no tile kind");
    s.p[0].nuki = vec![138, 139];
    assert_eq!(s.nukidora(0), 2 + 2, "each of 2 extracted flowers +1, and +1 for the flower indicator");
    s.p[0].riichi = true;
    assert_eq!(s.nukidora(0), 2 + 2 + 2, "and +1 each for the flower ura indicator");
    s.p[1].nuki = vec![137];
    assert_eq!(s.nukidora(1), 1 + 1);
    assert_eq!(s.nukidora(2), 0);
    // Sanma: 108 tiles, R = 8, dead wall 90..108, dora indicator at 98. In the sorted sanma set,
    // index 0–3 are 1m, 4–7 9m, then 1p.. (36 per suit minus 28 for manzu); West (kind 29) is
    // ids 116–119 = index 116 − 28 = 88.
    let r = rules::resolve("sanma", &json!({})).unwrap();
    let mut s = dealt(&r, &[(98, 88)]);
    assert_eq!((s.n, s.dead, s.replacements, s.live_next, s.live_remaining()), (3, 90, 8, 39, 51));
    assert_eq!(s.dora_indicator(0), 29);
    s.p[2].nuki = vec![120, 121];
    assert_eq!(s.nukidora(2), 4, "2 Norths extracted, each also a dora under a West indicator");
    // The deal: 13 tiles each to the three seats, 2m–8m absent (and so never unseen).
    assert!(s.hidden[..3].iter().all(|h| h.hand.len() == 13 && h.counts[1..8].iter().all(|&c| c == 0)));
    assert!(s.seen[1..8].iter().all(|&c| c == 4));
    assert!(s.hidden[3].hand.is_empty());
    // Tenhou's dead wall: 14 tiles (R = 4, indicators from 98), live wall 39..94 (55 draws); the
    // fifth replacement tile is the one the first replacement draw took in (position 93).
    let r = rules::resolve("tenhou_sanma", &json!({})).unwrap();
    let s = dealt(&r, &[]);
    assert_eq!((s.dead, s.replacements, s.live_remaining(), s.indicator_at(0)), (94, 4, 55, 98));
    assert_eq!((0..8).map(|i| s.rinshan_at(i)).collect::<Vec<_>>(), [94, 95, 96, 97, 93, 92, 91, 90]);
}

/// Duplicate play with three players rotates the lineup through three seatings of one deal, and
/// the tables hold three player rows per game; four strategies for a three-player rule set are
/// refused naming `players`.
#[test]
fn sanma_batches_rotate_three_seatings() {
    use crate::games::registry;
    let rules = rules::resolve("sanma", &json!({})).unwrap();
    let lineup = vec![Knobs::default(); 3];
    let t = super::Riichi::play(&rules, &lineup, &Batch { seed: 11, first_game: 0, count: 6, duplicate: true });
    assert_eq!((t[0].rows, t[1].rows), (6, 18));
    assert_eq!(t[0].column("rotation").unwrap().data, [0, 1, 2, 0, 1, 2]);
    let pts = t[1].column("final_points").unwrap();
    let read = |i: usize| i64::from_le_bytes(pts.data[i * 8..i * 8 + 8].try_into().unwrap());
    // Identical strategies at the three tables of one deal: the same result per seat.
    for g in 1..3 {
        for s in 0..3 {
            assert_eq!(read(s), read(g * 3 + s));
        }
    }
    assert_eq!((0..3).map(read).sum::<i64>(), 105_000);
    let api = registry().into_iter().find(|g| g.info()["name"] == "riichi").unwrap();
    let four = vec![json!({}); 4];
    let err = api.play(&json!({"players": 3}), &four, &Batch { seed: 1, first_game: 0, count: 1, duplicate: false }).unwrap_err();
    assert_eq!(err.field, "players");
    assert!(err.message.contains("takes 3 players"), "{}", err.message);
}

/// `players = 3` brings the sanma defaults unless set; explicit values win; bad counts name the field.
#[test]
fn sanma_defaults_follow_players() {
    let r = rules::resolve("default", &json!({"players": 3})).unwrap();
    assert_eq!((r.starting_points, r.return_points, r.uma_1st, r.uma_2nd), (35000, 40000, 15, 0));
    let r = rules::resolve("sanma", &json!({"starting_points": 40000, "uma_1st": 20})).unwrap();
    assert_eq!((r.starting_points, r.return_points, r.uma_1st, r.uma_2nd), (40000, 40000, 20, 0));
    assert_eq!(rules::resolve("default", &json!({})).unwrap().starting_points, 25000);
    assert_eq!(rules::resolve("default", &json!({"players": 2})).unwrap_err().field, "players");
    assert_eq!(rules::resolve("default", &json!({"flowers": 3})).unwrap_err().field, "flowers");
    // 3-place uma with oka: 40000 − 35000 = 5000 × 3 = +15 to the top.
    let pts = [60000, 30000, 15000, 0];
    let sc = final_scores(&rules::resolve("sanma", &json!({})).unwrap(), &pts);
    assert_eq!(sc, [20.0 + 15.0 + 15.0, -10.0, -25.0 - 15.0, 0.0]);
}

/// §13.5's other uma kinds, hand-worked. Sinking (JPML, 30000 start = return, so no oka): two
/// players stay at or above 30000 → +8/+4/−4/−8. Binta (25000/30000, oka 20, stake 5): each lower
/// rank pays each higher one 5, or 10 from below 25000 to at or above it. Sashi: only lineup
/// players 1 and 2 settle 5 between them.
#[test]
fn sinking_binta_and_sashi_uma() {
    let r = |o: serde_json::Value| rules::resolve("default", &o).unwrap();
    let sinking = r(json!({"uma": "sinking", "starting_points": 30000, "return_points": 30000}));
    assert_eq!(final_scores(&sinking, &[45000, 32000, 23000, 20000]), [15.0 + 8.0, 2.0 + 4.0, -7.0 - 4.0, -10.0 - 8.0]);
    assert_eq!(final_scores(&sinking, &[50000, 29000, 21000, 20000]), [20.0 + 12.0, -1.0 - 1.0, -9.0 - 3.0, -10.0 - 8.0]);
    // 1st: +5 from 2nd (at 28000, not below the start), +10 from 3rd and 4th; 2nd: +10 +10 −5; 3rd:
    // +5 from 4th (3rd is below the start itself) −10 −10; 4th: −10 −10 −5.
    let binta = r(json!({"uma": "binta"}));
    assert_eq!(final_scores(&binta, &[40000, 28000, 20000, 12000]), [10.0 + 20.0 + 25.0, -2.0 + 15.0, -10.0 - 15.0, -18.0 - 25.0]);
    let split = r(json!({"uma": "binta", "tie_break": "split"}));
    // Split ties: no bet between tied players, the top two share the oka (10 each) and each takes
    // 10 from each of the bottom two.
    assert_eq!(final_scores(&split, &[30000, 30000, 20000, 20000]), [30.0, 30.0, -30.0, -30.0]);
    let sashi = r(json!({"uma": "sashi", "side_bet": 7}));
    let pts = [40000, 28000, 20000, 12000];
    let mut sc = final_scores(&sashi, &pts);
    assert_eq!(sc, [10.0 + 20.0, -2.0, -10.0, -18.0], "no rank uma");
    super::scoring::sashi(&sashi, &mut sc, &pts, 3, 1);
    assert_eq!(sc, [30.0, -2.0 + 7.0, -10.0, -18.0 - 7.0]);
    assert_eq!(rules::resolve("sanma", &json!({"uma": "sinking"})).unwrap_err().field, "uma+players");
}

/// A sanma wall with the given dealt hands (dealer = seat 0), live draws from `L[39]` on and
/// replacement tiles; every other position holds the set's remaining tiles in id order.
fn sanma_wall(rules: &Rules, hands: [&str; 3], draws: &str, replacements: &str) -> Vec<u8> {
    let n = rules.tile_count();
    let mut pool: Vec<u8> = wall(Key::new(0), 0, Progress { round: 0, honba: 0, sticks: 0, repeat: 0 }, rules)[..n].to_vec();
    pool.sort_unstable();
    let mut w = vec![u8::MAX; n];
    let mut place = |pos: usize, text: &str, w: &mut Vec<u8>| {
        let t = super::tiles::parse_tile(text).unwrap();
        let i = pool.iter().position(|&id| id / 4 == t.kind).unwrap_or_else(|| panic!("no {text} left"));
        w[pos] = pool.remove(i);
    };
    let names = |text: &str| super::tiles::parse_tiles(text).unwrap().into_iter().map(|t| t.name()).collect::<Vec<_>>();
    for (seat, hand) in hands.iter().enumerate() {
        let positions = (0..3).flat_map(|pass| (0..4).map(move |j| pass * 12 + seat * 4 + j)).chain([36 + seat]);
        for (pos, name) in positions.zip(names(hand)) {
            place(pos, &name, &mut w);
        }
    }
    for (i, name) in names(draws).iter().enumerate() {
        place(39 + i, name, &mut w);
    }
    let dead = n - 10 - rules.replacement_tiles();
    for (i, name) in names(replacements).iter().enumerate() {
        place(dead + i, name, &mut w);
    }
    for slot in w.iter_mut().filter(|s| **s == u8::MAX) {
        *slot = pool.remove(0);
    }
    w
}

/// Plays one hand with `script` choosing each action from the legal list.
struct Scripted<F: FnMut(&View<'_>, &[Action]) -> Action>(F);

impl<F: FnMut(&View<'_>, &[Action]) -> Action> Player<Riichi> for Scripted<F> {
    fn decide(&mut self, v: &View<'_>, _: Point, legal: &[Action]) -> Result<Action, Fault> {
        let a = (self.0)(v, legal);
        assert!(legal.contains(&a), "seat {}: {a:?} not in {legal:?}", v.seat);
        Ok(a)
    }
}

fn discard_kind(legal: &[Action], name: &str) -> Action {
    let k = super::tiles::parse_tile(name).unwrap().kind;
    *legal
        .iter()
        .find(|a| matches!(a, Action::Discard { tile, riichi: false } if tile / 4 == k))
        .unwrap_or_else(|| panic!("no discard of {name} in {legal:?}"))
}

/// §14 B, hand-worked: the dealer extracts North on the first turn and wins on the replacement
/// tile — rinshan and menzen tsumo, one nukidora, but no tenhou (the extraction broke the first
/// go-around). With `sanma_north_ron`, the player waiting on North rons the extracted tile
/// instead (no chankan yaku).
#[test]
fn sanma_north_extraction_rinshan_and_north_ron() {
    let hands = ["123456789s55p7p4z", "123p456p789p111s4z", "1m9m2p4p6p8p3s5s7s9s6z6z7z"];
    for north_ron in [false, true] {
        let rules = rules::resolve("sanma", &json!({"aka_dora": 0, "sanma_north_ron": north_ron})).unwrap();
        let w = sanma_wall(&rules, hands, "8p", "9p");
        let mut state = State::new(&rules);
        state.start_game();
        state.deal(&w, state.progress);
        let mut d = Scripted(|v: &View<'_>, legal: &[Action]| {
            let seat = v.seat;
            if legal.contains(&Action::Ron) {
                return Action::Ron;
            }
            if legal.contains(&Action::Tsumo) {
                assert!(!v.uninterrupted, "the extraction broke the first go-around");
                return Action::Tsumo;
            }
            if let Some(&a) = legal.iter().find(|a| matches!(a, Action::Nuki { .. })) {
                assert_eq!(seat, 0);
                return a;
            }
            panic!("unexpected decision of seat {seat}: {legal:?}");
        });
        let r = state.play_hand(&mut d).unwrap();
        let win = &r.wins[0];
        let names: Vec<&str> = win.score.yaku(&rules).iter().map(|(y, _)| y.name()).collect();
        if north_ron {
            assert_eq!((r.outcome, win.seat, win.from), (Outcome::Ron, 1, 0));
            assert!(names.contains(&"ittsu") && !names.contains(&"chankan"), "{names:?}");
            assert!(state.p[0].nuki.is_empty());
        } else {
            assert_eq!((r.outcome, win.seat), (Outcome::Tsumo, 0));
            assert!(names.contains(&"rinshan") && names.contains(&"menzen_tsumo") && !names.contains(&"tenhou"), "{names:?}");
            assert_eq!(win.score.nuki, 1);
            assert_eq!(state.p[0].nuki.len(), 1);
            assert_eq!(state.live_end, state.dead - 1, "the extraction shortened the live wall");
        }
    }
}

/// §1.4 rule 7 / A36: an extraction does not cancel ippatsu. Seat 1 declares riichi on its first
/// discard, the dealer then extracts a North and discards seat 1's winning tile: riichi + ippatsu.
#[test]
fn nuki_keeps_ippatsu() {
    let rules = rules::resolve("sanma", &json!({"aka_dora": 0})).unwrap();
    let hands = ["1m9m1p3p5p7p9p2s4s6s8s6z7z", "123p456p789p1122s", "1m9m9p2p4p6p8p3s5s7s9s7z7z"];
    let w = sanma_wall(&rules, hands, "5z3z6z4z", "2s");
    let mut state = State::new(&rules);
    state.start_game();
    state.deal(&w, state.progress);
    let mut turn = 0;
    let mut d = Scripted(|v: &View<'_>, legal: &[Action]| {
        if legal.contains(&Action::Ron) {
            return Action::Ron;
        }
        if legal[0] == Action::Pass {
            return Action::Pass;
        }
        turn += 1;
        match (turn, v.seat) {
            (1, 0) => discard_kind(legal, "5z"),
            (2, 1) => *legal.iter().find(|a| matches!(a, Action::Discard { riichi: true, tile } if tile / 4 == 29)).unwrap(),
            (3, 2) => discard_kind(legal, "6z"),
            (4, 0) => *legal.iter().find(|a| matches!(a, Action::Nuki { .. })).unwrap(),
            (5, 0) => {
                assert!(v.seats[1].riichi && v.seats[1].ippatsu, "ippatsu survives the extraction");
                assert!(!v.uninterrupted);
                discard_kind(legal, "2s")
            }
            other => panic!("unexpected turn {other:?}: {legal:?}"),
        }
    });
    let r = state.play_hand(&mut d).unwrap();
    let names: Vec<&str> = r.wins[0].score.yaku(&rules).iter().map(|(y, _)| y.name()).collect();
    assert_eq!((r.outcome, r.wins[0].seat, r.wins[0].from), (Outcome::Ron, 1, 0));
    // Riichi on the first go-around is double riichi.
    assert!(names.contains(&"double_riichi") && names.contains(&"ippatsu") && names.contains(&"ittsu"), "{names:?}");
}

/// A hand with a wait among its own discards, and one whose waits are all in view.
#[test]
fn riichi_fouls_are_furiten_and_empty_waits_from_the_own_view() {
    let kinds = |text: &str| super::tiles::counts_of(&super::tiles::parse_tiles(text).unwrap());
    let k = |text: &str| super::tiles::parse_tile(text).unwrap().kind;
    // 123m456p789s + 11z 22z: waits 東 and 南.
    let c = kinds("123m456p789s1122z");
    let plain = Rules::default();
    let furiten = rules::resolve("default", &json!({"furiten_riichi": "chombo"})).unwrap();
    let kara = rules::resolve("default", &json!({"kara_riichi_chombo": true})).unwrap();
    let river = 1u64 << k("1z") | 1 << k("9m");
    for (rules, furiten_foul) in [(&plain, false), (&furiten, true), (&kara, false)] {
        let state = State::new(rules);
        assert_eq!(state.riichi_foul(&c, river, None), furiten_foul);
        assert!(!state.riichi_foul(&c, 1 << k("9m"), None));
    }
    // Two 東 and two 南 held: all four of each in view once two of each are seen elsewhere; the
    // discard about to be made counts as seen.
    let mut state = State::new(&kara);
    state.seen[usize::from(k("1z"))] = 2;
    state.seen[usize::from(k("2z"))] = 1;
    assert!(!state.riichi_foul(&c, 0, None));
    assert!(state.riichi_foul(&c, 0, Some(k("2z"))));
    state.seen[usize::from(k("2z"))] = 2;
    assert!(state.riichi_foul(&c, 0, None));
    // 2222m345p678s999s waits only on a fifth 2m: no wait at all, an empty-wait riichi with nothing
    // in view.
    let dead = kinds("2222m345p678s999s");
    assert_eq!(super::actions::wait_mask(&dead), 0);
    assert!(State::new(&kara).riichi_foul(&dead, 0, None));
    assert!(!State::new(&furiten).riichi_foul(&dead, 0, None));
}

/// Hand-worked chombo payments: (offender is dealer, payment) → what the offender pays in total and
/// what the dealer and each other non-dealer receive.
fn chombo_deltas(dealer: usize, offenders: u8, payment: &str) -> [i64; 4] {
    let mut d = [0i64; 4];
    for o in (0..4).filter(|&o| offenders >> o & 1 == 1) {
        for s in (0..4).filter(|&s| s != o) {
            let amount = match payment {
                "mangan" if o == dealer || s == dealer => 4000,
                "mangan" => 2000,
                "3000_all" => 3000,
                _ => 0,
            };
            d[o] -= amount;
            d[s] += amount;
        }
    }
    d
}

/// Reckless players declare riichi with any legal discard, furiten or not: under furiten_riichi =
/// chombo and kara_riichi_chombo they commit fouls, found at their tsumo or at the draw. Each
/// payment rule is checked hand by hand; a voided hand is replayed at the same round and honba on
/// a new wall with this hand's riichi sticks returned.
#[test]
fn chombo_voids_and_replays_the_hand_or_forfeits_it() {
    let eff = knobs(Policy::Efficiency);
    let root = Key::new(7);
    for payment in ["mangan", "3000_all", "points_deduction", "hand_forfeit"] {
        let rules = rules::resolve(
            "default",
            &json!({"furiten_riichi": "chombo", "kara_riichi_chombo": true, "chombo_payment": payment, "tobi": "off"}),
        )
        .unwrap();
        let (_, _, logs) = run_checked_with(&rules, [&eff; 4], 40, true);
        let mut chombos = 0;
        for (g, log) in logs.iter().enumerate() {
            for (i, (progress, dealer, r)) in log.hands.iter().enumerate() {
                assert_eq!(r.chombo & !r.riichi, 0, "only a riichi can be a foul");
                if r.chombo == 0 {
                    assert_eq!(progress.repeat > 0, i > 0 && log.hands[i - 1].2.outcome == Outcome::Chombo);
                    continue;
                }
                chombos += 1;
                if payment == "hand_forfeit" {
                    assert_ne!(r.outcome, Outcome::Chombo);
                    assert!(r.wins.iter().all(|w| r.chombo >> w.seat & 1 == 0));
                    assert_eq!(r.tenpai & r.chombo, 0, "a forfeited hand is noten");
                    continue;
                }
                assert_eq!(r.outcome, Outcome::Chombo);
                assert_eq!(r.deltas, chombo_deltas(usize::from(*dealer), r.chombo, payment), "game {g} hand {i}");
                if let Some((next, _, _)) = log.hands.get(i + 1) {
                    assert_eq!(
                        (next.round, next.honba, next.sticks, next.repeat),
                        (progress.round, progress.honba, progress.sticks, progress.repeat + 1)
                    );
                    assert_ne!(wall(root, g as u64, *next, &rules), wall(root, g as u64, *progress, &rules));
                }
            }
            if payment == "points_deduction" {
                let n: [f64; 4] = std::array::from_fn(|s| log.hands.iter().filter(|h| h.2.chombo >> s & 1 == 1).count() as f64);
                let plain = final_scores(&rules, &log.final_points);
                assert_eq!(log.score, std::array::from_fn(|s| plain[s] - 20.0 * n[s]));
            }
        }
        assert!(chombos >= 3, "{payment}: {chombos} chombo");
    }
    // The native policy stays dama rather than commit a foul.
    let rules = rules::resolve("nashi_nashi", &json!({"kara_riichi_chombo": true})).unwrap();
    let (_, _, logs) = run_checked(&rules, [&eff; 4], 30);
    assert!(logs.iter().all(|l| l.hands.iter().all(|h| h.2.chombo == 0)));
}

/// `when_it_ends_game_on_top`: hand-worked all-last positions (South 4: round 7, dealer seat 3). The
/// dealer shows first: the claim must end the game on top whichever other seats are tenpai.
#[test]
fn the_all_last_dealer_on_top_claims_noten_to_end_the_game() {
    use super::strategies::NotenDeclaration;
    let k = Knobs { noten_declaration: NotenDeclaration::WhenItEndsGameOnTop, ..Knobs::default() };
    let yame_off = rules::resolve("default", &json!({"allow_noten_declaration": true, "tenpai_yame": "off"})).unwrap();
    let yame_auto = rules::resolve("default", &json!({"allow_noten_declaration": true})).unwrap();
    let claims = |rules: &Rules, round: u32, points: [i64; 4]| {
        let mut state = State::new(rules);
        let p = super::state::Progress { round, honba: 0, sticks: 0, repeat: 0 };
        state.deal(&wall(Key::new(1), 0, p, rules)[..136], p);
        for (s, &x) in points.iter().enumerate() {
            state.p[s].points = x;
        }
        knob_answer(&k, &state.view(usize::from(state.dealer)), Point::Noten { shown: 0 }) == Some(Action::DeclareNoten)
    };
    // At 40000: after the claim the dealer pays at most 3000 (all three others tenpai) and stays on
    // top, the deal passes, someone has 30000: over.
    assert!(claims(&yame_off, 7, [30000, 20000, 10000, 40000]));
    // Tenpai-yame ends it whatever the others show, with the noten payments on top.
    assert!(!claims(&yame_auto, 7, [30000, 20000, 10000, 40000]));
    // Not all-last (South 3: round 6, dealer seat 2).
    assert!(!claims(&yame_off, 6, [30000, 20000, 40000, 10000]));
    // Should seat 0 be tenpai, the claim gives it +3000 (33500) and costs the dealer 1000 (30000).
    // A dealer that saw seat 0's hand (noten) would claim; the dealer shows first and cannot.
    assert!(!claims(&yame_off, 7, [30500, 20000, 18500, 31000]));
    // Nobody at 30000: the game goes into the West round, so the deal passing ends nothing.
    assert!(!claims(&yame_off, 7, [27000, 24000, 20000, 29000]));
    // When the deal never passes at a draw, or always does, the claim changes nothing.
    for rule in ["always_keep", "always_pass"] {
        let r =
            rules::resolve("default", &json!({"allow_noten_declaration": true, "tenpai_yame": "off", "renchan_on_draw": rule})).unwrap();
        assert!(!claims(&r, 7, [30000, 20000, 10000, 40000]), "{rule}");
    }
    // The default knob never claims.
    assert_eq!(knob_answer(&Knobs::default(), &State::new(&yame_off).view(0), Point::Noten { shown: 0 }), Some(Action::Pass));
}

/// With every tenpai hand claiming noten, the tenpai of a draw is what it was without the option
/// minus the claims, and riichi hands never claim (first hands of each game: identical play).
#[test]
fn noten_claims_remove_tenpai_hands_at_the_draw() {
    use super::strategies::NotenDeclaration;
    let rules = rules::resolve("default", &json!({"allow_noten_declaration": true})).unwrap();
    let batch = Batch { seed: 5, first_game: 0, count: 120, duplicate: false };
    let first_draws = |k: Knobs| {
        let t = super::Riichi::play(&rules, &vec![k; 4], &batch);
        let h = &t[2];
        let col = |name: &str| h.column(name).unwrap().data.clone();
        let (hand, outcome, tenpai, claimed, riichi) = (col("hand"), col("outcome"), col("tenpai"), col("noten_declared"), col("riichi"));
        (0..h.rows)
            .filter(|&i| u32::from_le_bytes(hand[i * 4..i * 4 + 4].try_into().unwrap()) == 0 && outcome[i] == 2)
            .map(|i| (tenpai[i], claimed[i], riichi[i]))
            .collect::<Vec<_>>()
    };
    let damaten = Knobs { riichi: super::strategies::RiichiPolicy::GoodWait, ..Knobs::default() };
    let auto = first_draws(damaten.clone());
    let claiming = first_draws(Knobs { noten_declaration: NotenDeclaration::Always, ..damaten });
    assert_eq!(auto.len(), claiming.len());
    assert!(auto.len() > 10);
    for ((t0, c0, _), (t1, c1, r1)) in auto.iter().zip(&claiming) {
        assert_eq!((*c0, t1 & c1), (0, 0));
        assert_eq!(*t1 | c1, *t0);
        assert_eq!(*t1 & !r1, 0, "only riichi hands stay tenpai");
    }
    assert!(claiming.iter().any(|(_, c, _)| *c != 0));
}

/// Plays `games` games with event logs under `rules` and returns the logs.
fn logged_games(rules: &Rules, lineup: [&Knobs; 4], games: u64) -> Vec<GameLog> {
    let mut state = State::new(rules);
    let root = Key::new(21);
    (0..games)
        .map(|g| {
            state.events = Some(Vec::new());
            let mut players = natives(lineup, |s| root.with(98).with(g).with(s as u64));
            play_game(&mut state, &mut seated(&mut players), &mut |p| (wall(root, g, p, rules), dice(root, g, p))).unwrap()
        })
        .collect()
}

/// An open riichi is one more han; a ron on a discard by a player not in riichi pays a yakuman
/// (32000, a dealer 48000, plus honba), one by a player in riichi the hand's value. Random players
/// discard into the shown waits; efficient players never do while another discard is legal.
#[test]
fn open_riichi_deal_ins_pay_a_yakuman() {
    use super::yaku::Yaku;
    let rules = rules::resolve("default", &json!({"local_yaku": ["open_riichi"], "tobi": "off"})).unwrap();
    let opener = Knobs { open_riichi: true, ..Knobs::default() };
    let random = knobs(Policy::Random);
    let eff = knobs(Policy::Efficiency);
    let mut penalties = 0;
    for (lineup, random_seats) in [([&opener, &random, &opener, &random], 0b1010u8), ([&opener, &eff, &opener, &eff], 0)] {
        for log in logged_games(&rules, lineup, 40) {
            for (progress, dealer, r) in &log.hands {
                let [w] = r.wins.as_slice() else { continue };
                if r.outcome != Outcome::Ron || w.score.yaku_mask & Yaku::OpenRiichi.bit() == 0 {
                    continue;
                }
                let from = usize::from(w.from);
                if r.riichi >> from & 1 == 1 {
                    assert_eq!(-r.deltas[from], i64::from(w.score.payments.ron) + 1000, "normal value and the own stick");
                    continue;
                }
                assert_eq!(random_seats >> from & 1, 1, "an efficient player dealt into a shown wait");
                let yakuman = if w.seat == *dealer { 48000 } else { 32000 };
                assert_eq!(-r.deltas[from], yakuman.max(i64::from(w.score.points)) + 300 * i64::from(progress.honba));
                penalties += 1;
            }
        }
    }
    assert!(penalties >= 2, "{penalties} yakuman deal-ins");
}

/// The marked 白 (id 124) drawn in riichi completes the hand by tsumo as any tile: every win with
/// the shiro_pocchi marker is a riichi tsumo whose last draw was tile 124.
#[test]
fn shiro_pocchi_is_a_wild_tsumo_for_riichi_hands() {
    use super::yaku::Yaku;
    let rules = rules::resolve("default", &json!({"local_yaku": ["shiro_pocchi"]})).unwrap();
    let eff = knobs(Policy::Efficiency);
    let mut wins = 0;
    for log in logged_games(&rules, [&eff; 4], 60) {
        for (i, (_, _, r)) in log.hands.iter().enumerate() {
            let Some(w) = r.wins.iter().find(|w| w.score.yaku_mask & Yaku::ShiroPocchi.bit() != 0) else { continue };
            assert_eq!((r.outcome, r.riichi >> w.seat & 1), (Outcome::Tsumo, 1));
            let events = &log.events.iter().find(|(h, _)| *h as usize == i).unwrap().1;
            let last_draw = events.iter().rev().find(|e| e.kind <= super::state::EventKind::ReplacementDraw).unwrap();
            assert_eq!((last_draw.seat, last_draw.tile), (Some(w.seat), Some(super::state::POCCHI)));
            wins += 1;
        }
    }
    assert!(wins >= 2, "{wins} pocchi wins");
}

/// §8.3/§8.5: a wait held entirely in the player's own closed kan is no wait. The dealer holds
/// 2222s 13s 123p 456p 99p, declares the ankan of 2s and draws 7z: discarding 7z leaves 13s
/// waiting on 2s alone, all four in the kan, which is noten at a draw under the default karaten,
/// so no riichi is offered; under karaten = always_tenpai the same wait is tenpai and riichi is.
#[test]
fn riichi_needs_a_wait_not_held_in_the_own_kan() {
    for (karaten, offered) in [("own_four_is_noten", false), ("any_dead_wait_is_noten", false), ("always_tenpai", true)] {
        let rules = rules::resolve("sanma", &json!({"aka_dora": 0, "karaten": karaten})).unwrap();
        let hands = ["2222s13s123p456p9p", "1m9m1p3p5p7p9p3s4s6s8s6z7z", "1m9m9p2p4p6p8p3s5s7s9s7z7z"];
        let w = sanma_wall(&rules, hands, "9p", "7z");
        let mut state = State::new(&rules);
        state.start_game();
        state.deal(&w, state.progress);
        let mut seen_riichi = None;
        let mut d = Scripted(|v: &View<'_>, legal: &[Action]| {
            if v.seat != 0 || legal[0] == Action::Pass {
                return legal[0];
            }
            if let Some(&kan) = legal.iter().find(|a| matches!(a, Action::Ankan { .. })) {
                return kan;
            }
            if seen_riichi.is_none() {
                let k = super::tiles::parse_tile("7z").unwrap().kind;
                seen_riichi = Some(legal.iter().any(|a| matches!(a, Action::Discard { riichi: true, tile } if tile / 4 == k)));
                return discard_kind(legal, "7z");
            }
            legal[0]
        });
        state.play_hand(&mut d).unwrap();
        assert_eq!(seen_riichi, Some(offered), "karaten = {karaten}");
    }
}

/// `calls = any` (call-happy) chis only into a hand that keeps a yaku in reach: a chi of 1-2m on a
/// 3m can never be tanyao, so with no value honor it passes; 2-4m on the same 3m keeps tanyao open.
#[test]
fn call_happy_never_chis_terminals_for_tanyao() {
    let rules = Rules::default();
    let caller = Knobs { calls: super::strategies::CallPolicy::Any, ..Knobs::default() };
    for (hand, chi, takes) in [("12m456p678p34s77s1z", "12m", false), ("24m456p678p34s77s1z", "24m", true)] {
        let mut state = State::new(&rules);
        state.start_game();
        let ids = |text: &str| -> Vec<u8> {
            let mut used = [0u8; 34];
            super::tiles::parse_tiles(text)
                .unwrap()
                .iter()
                .map(|t| {
                    let k = usize::from(t.kind);
                    used[k] += 1;
                    (k * 4 + usize::from(used[k])) as u8
                })
                .collect()
        };
        let held = ids(hand);
        state.hidden[1].hand = held.clone();
        state.hidden[1].counts = super::tiles::counts_of(&super::tiles::parse_tiles(hand).unwrap());
        let own = ids(chi);
        let legal = [Action::Pass, Action::Chi { tiles: [own[0], own[1]] }];
        let mut native = Native::new(&caller, Key::new(0));
        let a = native.decide(&state.view(1), Point::Response { from: 0, tile: 8, kan: false }, &legal).unwrap();
        assert_eq!(a == legal[1], takes, "{hand} chi {chi}: {a:?}");
    }
}

/// Tenhou's three-player settlement (`tenhou_sanma`): the real record 2014091101gm-00b9-0000-5ca6b487
/// ends at 59200 / 22800 / 23000 with `owari` 54.0 / −37.0 / −17.0: 40000 returned, oka 15, uma
/// +20 / 0 / −20, each player's points rounded to a thousand (Tenhou rounds; the preset keeps
/// `final_rounding = none`, which gives 54.2 / −37.2 / −17.0).
#[test]
fn tenhou_sanma_final_scores_match_a_real_record() {
    let points = [59200, 22800, 23000, 0];
    let rules = rules::resolve("tenhou_sanma", &json!({})).unwrap();
    let exact = final_scores(&rules, &points);
    assert!(exact[..3].iter().zip([54.2, -37.2, -17.0]).all(|(a, b)| (a - b).abs() < 1e-9), "{exact:?}");
    let rounded = rules::resolve("tenhou_sanma", &json!({"final_rounding": "nearest_1000"})).unwrap();
    assert_eq!(final_scores(&rounded, &points)[..3], [54.0, -37.0, -17.0]);
}
