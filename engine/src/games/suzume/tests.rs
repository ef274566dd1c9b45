//! The spec's test vectors (§14), driven through the engine's own scoring, legality and payment
//! code, plus invariants over many random games.

use super::actions::{ron_win, tsumo_win, Action, Point, View, WinKind};
use super::batch::{play, play_game, BatchRows};
use super::hand::{self, Parts, Yakuman};
use super::rules::{Floor, MultiRon, MultiRonOrder, Rules};
use super::scoring::{self, parse_tiles, score_hand, Hand, Tables, Tile};
use super::strategies::{DiscardRule, Knobs, Native, Policy};
use super::Suzume;
use crate::decide::{Fault, Player};
use crate::game::{Batch, Seating};
use crate::options::{Options, Validate};
use crate::table::Table;
use serde_json::json;

fn rules() -> Rules {
    Rules::default()
}

fn parts(hand: &str, dora: &str, dealer: bool, rules: &Rules) -> Option<Parts> {
    let win = parse_tiles("hand", hand, &[]).unwrap()[0].notation();
    score_hand(hand, &win, Some(dora), dealer, rules).unwrap().parts
}

fn base(hand: &str, dora: &str) -> u16 {
    parts(hand, dora, false, &rules()).unwrap().base
}

#[test]
fn sz_1_and_2_sets_red_dora_tanyao_and_dealer_bonus() {
    let p = parts("2345r55", "3", false, &rules()).unwrap();
    assert_eq!((p.set_points, p.red, p.dora, p.tanyao, p.chanta), (3, 1, 1, 1, 0));
    assert_eq!((p.base, p.score, p.legal), (6, 6, true));
    let d = parts("2345r55", "3", true, &rules()).unwrap();
    assert_eq!(d.score, 8);
    let mut pts = [40i64; 4];
    scoring::settle_ron(&mut pts, 1, &[(0, d.score)], &rules());
    assert_eq!(pts, [48, 32, 40, 40]);
    assert_eq!(scoring::tsumo_share(d.score, 4, rules().tsumo_rounding), 3);
}

#[test]
fn sz_3_minimum_excludes_the_dealer_bonus() {
    let p = parts("234678", "9", false, &rules()).unwrap();
    assert_eq!((p.base, p.legal), (3, false));
    assert!(!parts("234678", "9", true, &rules()).unwrap().legal);
    let beginner = Rules { min_points: 0, ..rules() };
    assert_eq!(parts("234678", "9", false, &beginner).unwrap().score, 3);
    let d = parts("234678", "9", true, &beginner).unwrap();
    assert_eq!((d.score, d.legal), (5, true));
}

#[test]
fn sz_4_chun_is_red_by_default() {
    let p = parts("CCC123", "5", false, &rules()).unwrap();
    assert_eq!((p.red, p.chanta, p.base), (3, 2, 8));
    let no_chun = Rules { red_includes_chun: false, ..rules() };
    assert_eq!(parts("CCC123", "5", false, &no_chun).unwrap().base, 5);
}

#[test]
fn sz_5_and_6_exactly_the_minimum() {
    let p = parts("123999", "4", false, &rules()).unwrap();
    assert_eq!((p.base, p.chanta, p.legal), (5, 2, true));
    let p = parts("3333r45", "8", false, &rules()).unwrap();
    assert_eq!((p.base, p.red, p.tanyao, p.legal), (5, 1, 1, true));
    // A 9 (or a 1) rules tanyao out; found by the differential test below.
    let p = parts("66r678r9r", "3", false, &rules()).unwrap();
    assert_eq!((p.tanyao, p.chanta, p.base), (0, 0, 6));
}

#[test]
fn sz_7_to_12_yakuman_replace_bonuses_but_keep_sets() {
    let p = parts("FFF234", "2", false, &rules()).unwrap();
    assert_eq!((p.yakuman, p.base, p.dora, p.tanyao), (Yakuman::AllGreen, 13, 0, 0));
    assert_eq!(parts("FFF234", "2", true, &rules()).unwrap().score, 15);
    let p = parts("FFF2r34", "7", false, &rules()).unwrap();
    assert_eq!((p.yakuman, p.base, p.red, p.chanta, p.tanyao, p.legal), (Yakuman::None, 4, 1, 0, 0, false));
    let p = parts("111CCC", "C", false, &rules()).unwrap();
    assert_eq!((p.yakuman, p.base, p.red, p.dora), (Yakuman::Chinyao, 19, 0, 0));
    assert_eq!(base("999FFF", "1"), 19);
    let p = parts("1r2r3r4r5r6r", "5", false, &rules()).unwrap();
    assert_eq!((p.yakuman, p.base), (Yakuman::SuperRed, 22));
    assert_eq!(parts("1r2r3r4r5r6r", "5", true, &rules()).unwrap().score, 24);
    assert_eq!(parts("7r8r9rCCC", "9", false, &rules()).unwrap().base, 23);
}

#[test]
fn yakuman_values_are_options_and_zero_disables_them() {
    let r = Rules { all_green_value: 0, chinyao_value: 30, super_red_value: 0, ..rules() };
    let p = parts("FFF234", "2", false, &r).unwrap();
    // Scored as a plain hand: triplet 2 + sequence 1 + dora 1 (no tanyao: 發).
    assert_eq!((p.yakuman, p.base), (Yakuman::None, 4));
    assert_eq!(base_with("111CCC", "5", &r), 34);
    let p = parts("1r2r3r4r5r6r", "5", false, &r).unwrap();
    assert_eq!((p.yakuman, p.red, p.dora, p.base), (Yakuman::None, 6, 1, 9));
    let no_bonus_on_yakuman = Rules { dealer_bonus_on_yakuman: false, ..rules() };
    assert_eq!(parts("FFF234", "2", true, &no_bonus_on_yakuman).unwrap().score, 13);
}

fn base_with(hand: &str, dora: &str, r: &Rules) -> u16 {
    parts(hand, dora, false, r).unwrap().base
}

#[test]
fn sz_22_dora_is_the_flipped_tile_itself() {
    let p = parts("FFF789", "F", false, &rules()).unwrap();
    assert_eq!((p.yakuman, p.dora, p.chanta, p.base), (Yakuman::None, 3, 2, 8));
}

#[test]
fn sz_23_no_wraparound_and_no_honour_sequences() {
    assert!(parts("891234", "5", false, &rules()).is_none());
    assert!(parts("FCF123", "5", false, &rules()).is_none());
    assert!(parts("912345", "5", false, &rules()).is_none());
}

fn hand5(text: &str) -> (u16, u16) {
    let h = Hand { tiles: parse_tiles("hand", text, &[]).unwrap() };
    (Tables::get().state_of(&h.counts()), h.red_mask())
}

fn kinds(text: &str) -> u16 {
    parse_tiles("d", text, &[]).unwrap().iter().fold(0, |m, t| m | 1 << t.kind())
}

#[test]
fn sz_13_and_src_2_furiten_on_own_discards() {
    let (s, red) = hand5("45r645");
    let own = kinds("3");
    let six = Tile(5 * 4 + 1);
    let p = ron_win(s, red, six, own, Some(5), false, &rules()).unwrap();
    assert_eq!((p.red, p.dora, p.tanyao, p.base), (1, 2, 1, 6));
    let red3 = Tile(2 * 4);
    let plain3 = Tile(2 * 4 + 1);
    assert!(ron_win(s, red, red3, own, Some(5), false, &rules()).is_none());
    assert!(ron_win(s, red, plain3, own, Some(5), false, &rules()).is_none());
    let (s6, red6) = hand5("45r6453");
    assert_eq!(tsumo_win(s6, red6, Some(5), false, &rules()).unwrap().base, 5);
    let off = Rules { furiten: false, ..rules() };
    assert!(ron_win(s, red, plain3, own, Some(5), false, &off).is_some());
    // The wait of a ready hand is what the discard policies count as winning tiles.
    assert_eq!(Tables::get().five(s), (1, kinds("36")));
}

#[test]
fn src_1_and_sz_14_to_17_tsumo_payments() {
    let r = rules();
    let mut pts = [40i64; 4];
    assert_eq!(scoring::settle_tsumo(&mut pts, 0, 7, &r), 9);
    assert_eq!(pts, [49, 37, 37, 37]);
    let mut pts = [40i64; 5];
    assert_eq!(scoring::settle_tsumo(&mut pts, 2, 13, &r), 16);
    let mut pts = [40i64; 2];
    assert_eq!(scoring::settle_tsumo(&mut pts, 1, 6, &r), 6);
    let mut pts = [40i64; 3];
    assert_eq!(scoring::settle_tsumo(&mut pts, 0, 6 + r.dealer_bonus, &r), 8);
    assert_eq!(pts, [48, 36, 36]);
    let mut pts = [40i64, 20, 1, 10];
    assert_eq!(scoring::settle_tsumo(&mut pts, 0, 9, &r), 7);
    assert_eq!(pts, [47, 17, 0, 7]);
    let floor = Rules { tsumo_rounding: super::rules::Rounding::Floor, ..rules() };
    assert_eq!(scoring::tsumo_share(7, 4, floor.tsumo_rounding), 2);
    let negative = Rules { payment_floor: Floor::Negative, ..rules() };
    let mut pts = [40i64, 20, 1, 10];
    assert_eq!(scoring::settle_tsumo(&mut pts, 0, 9, &negative), 9);
    assert_eq!(pts[2], -2);
}

#[test]
fn sz_18_and_19_multiple_ron_paid_in_turn_order() {
    // D = seat 0; A = seat 1 (D's right neighbour), B = seat 2.
    let r = rules();
    let mut pts = [5i64, 40, 40, 40];
    let got = scoring::settle_ron(&mut pts, 0, &[(1, 6), (2, 8)], &r);
    assert_eq!((got[0], got[1]), (5, 0));
    assert_eq!(pts, [0, 45, 40, 40]);
    let mut pts = [30i64, 40, 40, 40];
    scoring::settle_ron(&mut pts, 0, &[(1, 6), (2, 8)], &r);
    assert_eq!(pts, [16, 46, 48, 40]);
    let highest = Rules { multi_ron_order: MultiRonOrder::Highest, ..rules() };
    let mut pts = [5i64, 40, 40, 40];
    let got = scoring::settle_ron(&mut pts, 0, &[(1, 6), (2, 8)], &highest);
    assert_eq!((got[0], got[1]), (0, 5));
}

#[test]
fn sz_20_mistaken_win_penalty() {
    let mut pts = [40i64; 4];
    scoring::settle_mistake(&mut pts, 1, &rules());
    assert_eq!(pts, [42, 34, 42, 42]);
    let mut pts = [40i64, 3, 40, 40];
    scoring::settle_mistake(&mut pts, 1, &rules());
    assert_eq!(pts, [40, 0, 42, 41], "paid from the offender's right until 0");
}

fn knobs(v: serde_json::Value) -> Knobs {
    Knobs::from_json(&v).unwrap()
}

fn run(rules: &Rules, lineup: &[Knobs], games: u64, seed: u64) -> BatchRows {
    let policies: Vec<Policy> = lineup.iter().map(|k| Policy::new(k.clone(), rules.clone())).collect();
    let mut l = BatchRows::default();
    for g in 0..games {
        let seating = Seating::new(g, lineup.len() as u8, false);
        play_game(rules, &policies, seed, seating, &mut [], &mut (), &mut l).unwrap();
    }
    l
}

#[test]
fn sz_21_stock_size_and_src_3_game_length_and_dealer_rotation() {
    let never = knobs(json!({"min_win_score": 100, "relax_last_lap": false}));
    for n in 2..=5usize {
        let l = run(&rules(), &vec![never.clone(); n], 3, 5);
        assert_eq!(l.hands.len(), 3 * 4 * n);
        for (i, h) in l.hands.iter().enumerate() {
            let g = &l.games[i / (4 * n)];
            assert_eq!(h.claims, 0);
            assert_eq!(usize::from(h.turn), 44 - 5 * n - 1, "every stock tile is drawn");
            assert_eq!(usize::from(h.dealer), (usize::from(g.first_dealer) + usize::from(h.hand)) % n);
        }
        assert!(l.players.iter().all(|p| p.final_points == 40));
    }
    let no_dora = Rules { dora: false, ..rules() };
    let l = run(&no_dora, &vec![never; 4], 1, 5);
    assert_eq!(l.hands[0].turn, 24);
}

#[test]
fn dealer_passes_even_when_the_dealer_wins() {
    let l = run(&rules(), &vec![Knobs::default(); 4], 30, 1);
    let dealer_wins = l.hands.iter().filter(|h| h.winner >= 0 && h.winner == h.dealer as i8).count();
    assert!(dealer_wins > 0);
    for g in &l.games {
        let hands: Vec<_> = l.hands.iter().filter(|h| h.game == g.game && h.claim == 0).collect();
        assert_eq!(hands.len(), 16);
        for h in hands {
            assert_eq!(usize::from(h.dealer), (usize::from(g.first_dealer) + usize::from(h.hand)) % 4);
        }
    }
}

fn lineups(n: usize) -> Vec<Vec<Knobs>> {
    let all = [
        json!({}),
        json!({"discard": "max_points", "min_win_score": 8}),
        json!({"ron": false}),
        json!({"fold": true}),
        json!({"discard": "random"}),
        json!({"discard": "max_points", "min_win_score": 6, "dealer_fastest": true}),
    ];
    (0..3).map(|shift| (0..n).map(|s| knobs(all[(s + shift * 2) % all.len()].clone())).collect()).collect()
}

/// Tiles conserved (checked by the engine's debug assertion in every hand), points conserved,
/// nobody below zero, the per-player stats agree with the hand rows.
#[test]
fn invariants_over_random_games() {
    let variants = [
        json!({}),
        json!({"min_points": 0, "red_includes_chun": false}),
        json!({"multi_ron": "head_bump", "furiten": false, "dealer_bonus": 5}),
        json!({"multi_ron_order": "highest", "starting_points": 8, "tsumo_rounding": "floor"}),
        json!({"mistake_rate": 0.05, "red_tiles": false, "dora": false, "last_discard_ron": false}),
        json!({"first_dealer": "seat0", "laps": 2, "all_green_value": 0, "super_red_value": 40}),
    ];
    let mut mistakes = 0;
    let mut last_discard_rons = 0;
    for (vi, v) in variants.iter().enumerate() {
        let r = Rules::from_json(v).unwrap();
        r.validate().unwrap();
        for n in 2..=5usize {
            for lineup in lineups(n) {
                let l = run(&r, &lineup, 40, 100 + vi as u64);
                mistakes += l.games.iter().map(|g| u32::from(g.mistakes)).sum::<u32>();
                last_discard_rons += l.hands.iter().filter(|h| h.outcome == 2 && h.stock_left == 0).count();
                for g in &l.games {
                    let ps: Vec<_> = l.players.iter().filter(|p| p.game == g.game).collect();
                    let total: i64 = ps.iter().map(|p| p.final_points).sum();
                    assert_eq!(total, n as i64 * i64::from(r.starting_points), "variant {v}");
                    assert!(ps.iter().all(|p| p.lowest_points >= 0), "variant {v}");
                    let hs: Vec<_> = l.hands.iter().filter(|h| h.game == g.game).collect();
                    let wins: u16 = ps.iter().map(|p| p.wins).sum();
                    assert_eq!(usize::from(wins), hs.iter().filter(|h| h.claims > 0).count());
                    assert_eq!(usize::from(g.draws), hs.iter().filter(|h| h.claims == 0).count());
                    assert_eq!(hs.iter().filter(|h| h.claim == 0).count(), r.laps as usize * n);
                    let turns: u32 = hs.iter().filter(|h| h.claim == 0).map(|h| u32::from(h.turn)).sum();
                    assert_eq!(g.turns, turns);
                    for h in &hs {
                        assert!(h.claims == 0 || h.base >= r.min_points, "illegal win logged: {h:?}");
                        let owed = if h.outcome == 1 {
                            scoring::tsumo_share(h.points, n, r.tsumo_rounding) * (n as i64 - 1)
                        } else {
                            i64::from(h.points)
                        };
                        assert!(h.received <= owed, "{h:?}");
                        assert!(r.multi_ron == MultiRon::All || h.claims <= 1);
                        assert!(r.last_discard_ron || !(h.outcome == 2 && h.stock_left == 0), "A3 off: {h:?}");
                    }
                    assert!(r.mistake_rate > 0.0 || g.mistakes == 0);
                    // Points move only by wins and mistakes: received − dealt-in − tsumo payments.
                    let received: i64 = ps.iter().map(|p| p.points_received).sum();
                    let dealt: i64 = ps.iter().map(|p| p.points_dealt_in).sum();
                    let ron_received: i64 = hs.iter().filter(|h| h.outcome == 2).map(|h| h.received).sum();
                    assert_eq!(dealt, ron_received);
                    assert!(received >= dealt);
                }
            }
        }
    }
    assert!(mistakes > 0, "mistake injection happens");
    assert!(last_discard_rons > 0, "the final discard is ronned sometimes (A3)");
}

#[test]
fn negative_floor_conserves_points_and_can_go_below_zero() {
    let r = Rules { payment_floor: Floor::Negative, starting_points: 5, ..rules() };
    let l = run(&r, &vec![knobs(json!({"discard": "max_points"})); 4], 40, 9);
    let below = l.players.iter().filter(|p| p.lowest_points < 0).count();
    assert!(below > 0);
    for g in &l.games {
        let total: i64 = l.players.iter().filter(|p| p.game == g.game).map(|p| p.final_points).sum();
        assert_eq!(total, 20);
    }
}

#[test]
fn multiple_ron_happens_and_is_logged_one_row_per_winner() {
    let r = Rules { min_points: 0, ..rules() };
    let l = run(&r, &vec![Knobs::default(); 5], 300, 3);
    let multi: Vec<_> = l.hands.iter().filter(|h| h.claims > 1).collect();
    assert!(!multi.is_empty());
    for h in multi {
        let same: Vec<_> = l.hands.iter().filter(|x| x.game == h.game && x.hand == h.hand).collect();
        assert_eq!(same.len(), usize::from(h.claims));
        assert!(same.iter().all(|x| x.discarder == h.discarder && x.outcome == 2));
    }
}

fn concat(parts: &[Vec<Table>]) -> Vec<Table> {
    let mut out = parts[0].clone();
    for p in &parts[1..] {
        for (t, more) in out.iter_mut().zip(p) {
            t.rows += more.rows;
            for (c, m) in t.columns.iter_mut().zip(&more.columns) {
                c.data.extend_from_slice(&m.data);
            }
        }
    }
    out
}

#[test]
fn batches_are_deterministic_and_independent_of_splitting() {
    let r = rules();
    let lineup = lineups(4).remove(1);
    for duplicate in [false, true] {
        let whole = play(&r, &lineup, &Batch { seed: 77, first_game: 0, count: 24, duplicate });
        let split = concat(&[
            play(&r, &lineup, &Batch { seed: 77, first_game: 0, count: 8, duplicate }),
            play(&r, &lineup, &Batch { seed: 77, first_game: 8, count: 16, duplicate }),
        ]);
        assert_eq!(whole, split);
        assert_eq!(whole, play(&r, &lineup, &Batch { seed: 77, first_game: 0, count: 24, duplicate }));
        assert_ne!(whole, play(&r, &lineup, &Batch { seed: 78, first_game: 0, count: 24, duplicate }));
    }
}

/// Variants see the same tiles: a rule that changes no decision before the first win leaves the
/// first hand's ending turn unchanged, and duplicate tables of one deal share their first dealer.
#[test]
fn variants_and_duplicate_tables_share_keyed_chance() {
    let lineup = vec![Knobs::default(); 4];
    let a = run(&rules(), &lineup, 20, 4);
    let b = run(&Rules { dealer_bonus: 7, ..rules() }, &lineup, 20, 4);
    let turns = |l: &BatchRows| l.hands.iter().filter(|h| h.hand == 0).map(|h| (h.game, h.turn, h.winner)).collect::<Vec<_>>();
    assert_eq!(turns(&a), turns(&b));
    let mut l = BatchRows::default();
    let policies: Vec<Policy> = lineup.iter().map(|k| Policy::new(k.clone(), rules())).collect();
    for g in 0..8 {
        play_game(&rules(), &policies, 4, Seating::new(g, 4, true), &mut [], &mut (), &mut l).unwrap();
    }
    assert!(l.games[..4].iter().all(|g| g.first_dealer == l.games[0].first_dealer && g.deal == 0));
    // Same knobs on every seat: rotating the lineup changes nothing.
    assert_eq!(turns(&BatchRows { hands: l.hands.iter().filter(|h| h.game < 4).copied().collect(), ..l })[..1].len(), 1);
}

#[test]
fn every_complete_hand_has_exactly_one_split() {
    let t = Tables::get();
    let mut seen = std::collections::HashMap::new();
    for target in &t.targets {
        *seen.entry(target.counts).or_insert(0) += 1;
    }
    assert!(seen.values().all(|&c| c == 1));
    // 7 sequences and 11 triplets: 18·19/2 pairs minus the 11 six-of-a-kind pairs.
    assert_eq!(t.targets.len(), 18 * 19 / 2 - 11);
    assert_eq!(t.targets.len(), scoring::TARGETS);
}

#[test]
fn every_yakuman_is_reachable_in_play() {
    // Constructed 5-tile hands one tile from each yakuman, completed by the engine's own tsumo and
    // ron checks (the paths the game loop takes).
    let r = rules();
    for (hand, draw, yakuman, base) in [
        ("FFF23", Tile(3 * 4 + 1), Yakuman::AllGreen, 13),
        ("111CC", Tile(10 * 4 + 3), Yakuman::Chinyao, 19),
        ("1r2r3r4r5r", Tile(5 * 4), Yakuman::SuperRed, 22),
    ] {
        let (s, red) = hand5(hand);
        let p = ron_win(s, red, draw, 0, Some(0), false, &r).unwrap();
        assert_eq!((p.yakuman, p.base), (yakuman, base), "{hand}");
        let s6 = Tables::get().add(s, draw.kind());
        let red6 = if draw.is_red_number() { red | 1 << draw.kind() } else { red };
        assert_eq!(tsumo_win(s6, red6, Some(0), true, &r).unwrap().score, base + 2);
    }
    // And they occur in random play, logged with their code.
    let l = run(&Rules { min_points: 0, ..r }, &vec![knobs(json!({"discard": "max_points", "min_win_score": 10})); 4], 300, 2);
    let codes: std::collections::HashSet<u8> = l.hands.iter().map(|h| h.yakuman).collect();
    assert!(codes.contains(&1) && codes.contains(&2), "{codes:?}");
}

#[test]
fn strategies_decide_as_specified() {
    let r = rules();
    let policy = Policy::new(Knobs::default(), r.clone());
    let hand = parse_tiles("hand", "45r645C", &[]).unwrap();
    let h = Hand { tiles: hand.clone() };
    let state = Tables::get().state_of(&h.counts());
    let seen = [0u8; 11];
    let discarded = [0u16; 5];
    let view = super::actions::View {
        seat: 1,
        players: 4,
        dealer: 0,
        hand_index: 0,
        hand: &hand,
        state,
        red: h.red_mask(),
        seen: &seen,
        seen_red: 0,
        discarded: &discarded,
        streak: &[0; 5],
        dora: Some(5),
        river: &[],
        stock: 10,
        points: &[40, 40, 40, 40],
    };
    assert_eq!(hand[policy.discard(&view).unwrap()].kind(), 10, "fastest keeps the ready 4-5-6 shape");
    let p =
        tsumo_win(Tables::get().state_of(&Hand { tiles: parse_tiles("h", "45r6456", &[]).unwrap() }.counts()), 1 << 4, Some(5), false, &r)
            .unwrap();
    let picky = Policy::new(knobs(json!({"min_win_score": 8, "relax_last_lap": true})), r.clone());
    assert!(!picky.accept_win(&view, &p, WinKind::Tsumo));
    assert!(picky.accept_win(&super::actions::View { stock: 4, ..view }, &p, WinKind::Tsumo));
    let tsumo_only = Policy::new(knobs(json!({"ron": false})), r.clone());
    assert!(!tsumo_only.accept_win(&view, &p, WinKind::Ron) && tsumo_only.accept_win(&view, &p, WinKind::Tsumo));
    // Folding: far from a win late in the hand, throw the tile the most opponents discarded.
    let far = parse_tiles("hand", "159FC3", &[]).unwrap();
    let fh = Hand { tiles: far.clone() };
    let discarded = [kinds("9"), kinds("9"), 0, kinds("9C"), 0];
    let fold = Policy::new(knobs(json!({"fold": true})), r.clone());
    let fview =
        super::actions::View { hand: &far, state: Tables::get().state_of(&fh.counts()), red: 0, discarded: &discarded, stock: 8, ..view };
    assert_eq!(far[fold.discard(&fview).unwrap()].kind(), 8);
    assert_ne!(far[policy.discard(&fview).unwrap()].kind(), 8, "the fastest rule does not fold");
    // Early in the hand S4 attacks; the tsumogiri sign makes it fold against the signalling seat
    // (seat 2 has discarded a 1, seats 0 and 3 have discarded 9s).
    let discarded = [kinds("9"), 0, kinds("1"), kinds("9"), 0];
    let early = super::actions::View { stock: 20, discarded: &discarded, ..fview };
    assert_ne!(far[fold.discard(&early).unwrap()].kind(), 0);
    let signal = Policy::new(knobs(json!({"fold": true, "ready_streak": 3})), r.clone());
    assert_ne!(far[signal.discard(&early).unwrap()].kind(), 0, "no opponent shows the sign yet");
    let showing = super::actions::View { streak: &[0, 0, 3, 1, 0], ..early };
    assert_eq!(far[signal.discard(&showing).unwrap()].kind(), 0, "safe against the seat showing the sign");
    let random = Policy::new(knobs(json!({"discard": "random"})), r);
    assert_eq!(random.discard(&view), None, "the player draws a random discard");
    let mut player = Native::new(&random, crate::rng::Key::new(1));
    let legal: Vec<Action> = hand.iter().map(|&t| Action::Discard(t)).collect();
    let picks: std::collections::HashSet<Action> = (0..200).map(|_| player.decide(&view, Point::Discard, &legal).unwrap()).collect();
    assert_eq!(picks.len(), 6);
    assert_eq!(Knobs::default().discard, DiscardRule::Fastest);
}

#[test]
fn max_points_prefers_value_when_the_gain_is_large() {
    // 1r 2r 3r 4r 5r + 9: the fastest discard keeps any two sequences; max-points aims at Super Red
    // by throwing the 9 and keeping the reds.
    let r = rules();
    let hand = parse_tiles("hand", "1r2r3r4r5r9", &[]).unwrap();
    let h = Hand { tiles: hand.clone() };
    let seen = [0u8; 11];
    let discarded = [0u16; 5];
    let view = super::actions::View {
        seat: 1,
        players: 4,
        dealer: 0,
        hand_index: 0,
        hand: &hand,
        state: Tables::get().state_of(&h.counts()),
        red: h.red_mask(),
        seen: &seen,
        seen_red: 0,
        discarded: &discarded,
        streak: &[0; 5],
        dora: Some(10),
        river: &[],
        stock: 15,
        points: &[40, 40, 40, 40],
    };
    let mp = Policy::new(knobs(json!({"discard": "max_points"})), r);
    assert_eq!(hand[mp.discard(&view).unwrap()].kind(), 8);
}

#[test]
fn contradictions_and_bad_values_are_rejected() {
    let e = Rules::from_json(&json!({"multi_ron": "head_bump", "multi_ron_order": "highest"})).unwrap().validate().unwrap_err();
    assert_eq!(e.field, "multi_ron+multi_ron_order");
    let e = Rules::from_json(&json!({"min_points": 60})).unwrap().validate().unwrap_err();
    assert_eq!(e.field, "min_points");
    assert!(e.message.contains("best possible base is 23"), "{}", e.message);
    assert_eq!(Rules::from_json(&json!({"mistake_rate": 2})).unwrap_err().field, "mistake_rate");
    assert_eq!(Knobs::from_json(&json!({"ron": false, "tsumo": false})).unwrap().validate().unwrap_err().field, "tsumo+ron");
}

#[test]
fn bad_hands_get_clear_errors() {
    let r = rules();
    let err = |h: &str, w: &str, d: Option<&str>| score_hand(h, w, d, false, &r).unwrap_err();
    let e = err("12345X", "1", None);
    assert_eq!(e.field, "hand");
    assert!(e.message.contains("'X' at position 6"), "{}", e.message);
    assert!(err("12345", "1", None).message.contains("expected 6 tiles, got 5"));
    assert!(err("1r1r2345", "1", None).message.contains("only one red 1"));
    assert!(err("1111FF", "1", None).message.contains("too many copies of non-red 1"));
    assert_eq!(err("123456", "7", None).field, "win");
    assert_eq!(err("FFFFC1", "F", Some("F")).field, "dora");
    assert!(score_hand("FFFF23", "F", None, false, &r).unwrap().parts.is_none());
}

/// An independent reading of §5.1 and §6 on physical tiles: try every split of the 6 tiles into
/// two groups of 3, score each valid split by the spec's formula, keep the best.
fn reference_score(tiles: &[Tile; 6], dora: u8, dealer: bool) -> Option<(u16, bool)> {
    let is_set = |g: [Tile; 3]| {
        let mut k = g.map(Tile::kind);
        k.sort_unstable();
        (k[0] == k[1] && k[1] == k[2]) || (k[2] < 9 && k[1] == k[0] + 1 && k[2] == k[1] + 1)
    };
    let yao = |k: u8| k == 0 || k >= 8;
    let mut best: Option<(u16, bool)> = None;
    for mask in 0u32..64 {
        if mask.count_ones() != 3 || mask & 1 == 0 {
            continue;
        }
        let (a, b): (Vec<Tile>, Vec<Tile>) =
            (0..6).map(|i| (mask >> i & 1 == 1, tiles[i])).fold((vec![], vec![]), |mut acc, (inside, t)| {
                if inside {
                    acc.0.push(t)
                } else {
                    acc.1.push(t)
                }
                acc
            });
        let (a, b) = ([a[0], a[1], a[2]], [b[0], b[1], b[2]]);
        if !is_set(a) || !is_set(b) {
            continue;
        }
        let pts = |g: [Tile; 3]| if g[0].kind() == g[1].kind() { 2u16 } else { 1 };
        let sets = pts(a) + pts(b);
        let red = |t: &Tile| t.is_red_number() || t.kind() == 10;
        let all_green = tiles.iter().all(|t| [1, 2, 3, 5, 7, 9].contains(&t.kind()) && !t.is_red_number());
        let chinyao = tiles.iter().all(|t| yao(t.kind()));
        let super_red = tiles.iter().all(red);
        let base = if all_green {
            sets + 10
        } else if chinyao {
            sets + 15
        } else if super_red {
            sets + 20
        } else {
            let n_red = tiles.iter().filter(|t| red(t)).count() as u16;
            let n_dora = tiles.iter().filter(|t| t.kind() == dora).count() as u16;
            let tanyao = u16::from(tiles.iter().all(|t| (1..=7).contains(&t.kind())));
            let chanta = if a.iter().any(|t| yao(t.kind())) && b.iter().any(|t| yao(t.kind())) { 2 } else { 0 };
            sets + n_red + n_dora + tanyao + chanta
        };
        let score = base + if dealer { 2 } else { 0 };
        if best.is_none_or(|(s, _)| score > s) {
            best = Some((score, base >= 5));
        }
    }
    best
}

#[test]
fn engine_scoring_agrees_with_an_independent_reference() {
    let t = Tables::get();
    let mut stream = crate::rng::Key::new(99).stream();
    let mut wins = 0;
    for i in 0..40_000u32 {
        // Half random hands, half hands built on a random complete shape (so that wins are common).
        let mut ids: Vec<u8> = (0..44).collect();
        stream.shuffle(&mut ids);
        let tiles: [Tile; 6] = if i % 2 == 0 {
            std::array::from_fn(|j| Tile(ids[j]))
        } else {
            let target = &t.targets[stream.below(t.targets.len() as u64) as usize];
            let mut picked = Vec::new();
            for k in 0..11u8 {
                let mut copies: Vec<u8> = ids.iter().copied().filter(|id| id / 4 == k).collect();
                copies.truncate(usize::from(target.counts[usize::from(k)]));
                picked.extend(copies.into_iter().map(Tile));
            }
            std::array::from_fn(|j| picked[j])
        };
        let dora = stream.below(11) as u8;
        let dealer = stream.below(2) == 1;
        let h = Hand { tiles: tiles.to_vec() };
        let s = t.state_of(&h.counts());
        let engine = t.shape(s).map(|shape| hand::value(shape, &h.counts(), h.red_mask(), Some(dora), dealer, &rules()));
        let reference = reference_score(&tiles, dora, dealer);
        assert_eq!(engine.map(|p| (p.score, p.legal)), reference, "{:?} dora {dora} dealer {dealer} {engine:?}", tiles.map(Tile::notation));
        assert_eq!(tsumo_win(s, h.red_mask(), Some(dora), dealer, &rules()).map(|p| p.score), reference.filter(|r| r.1).map(|r| r.0));
        wins += usize::from(reference.is_some());
    }
    assert!(wins > 15_000, "{wins}");
}

/// Two sets by recursive removal from the lowest kind: a different algorithm from the tables.
fn two_sets(c: &mut [u8; 11], sets: u8) -> bool {
    let Some(k) = c.iter().position(|&x| x > 0) else { return sets == 2 };
    if c[k] >= 3 {
        c[k] -= 3;
        let ok = two_sets(c, sets + 1);
        c[k] += 3;
        if ok {
            return true;
        }
    }
    if k + 2 < 9 && c[k + 1] > 0 && c[k + 2] > 0 {
        (k..k + 3).for_each(|i| c[i] -= 1);
        let ok = two_sets(c, sets + 1);
        (k..k + 3).for_each(|i| c[i] += 1);
        return ok;
    }
    false
}

#[test]
fn ready_hands_and_their_waits_agree_with_a_recursive_check() {
    let t = Tables::get();
    let mut stream = crate::rng::Key::new(5).stream();
    let mut ready = 0;
    for _ in 0..20_000 {
        let mut ids: Vec<u8> = (0..44).collect();
        stream.shuffle(&mut ids);
        let mut c = [0u8; 11];
        ids[..5].iter().for_each(|&id| c[usize::from(id / 4)] += 1);
        let s = t.state_of(&c);
        let mut waits = 0u16;
        for k in 0..11 {
            if c[k] < 4 {
                c[k] += 1;
                if two_sets(&mut c, 0) {
                    waits |= 1 << k;
                }
                c[k] -= 1;
            }
        }
        let (need, improve) = t.five(s);
        assert_eq!(need == 1, waits != 0, "{c:?}");
        if need == 1 {
            assert_eq!(improve, waits, "{c:?}");
            ready += 1;
        }
        for k in 0..11u8 {
            let s6 = t.add(s, k);
            if s6 != u16::MAX {
                assert_eq!(t.five_after(s6, k), t.five(s), "the row of a 6-tile hand knows its 5-tile hands");
            }
        }
        // Drawing an improving kind and throwing the best tile really lowers the distance.
        for k in 0..11u8 {
            if improve & (1 << k) != 0 && need > 1 {
                let s6 = t.add(s, k);
                let best = t.discards(s6).iter().take_while(|&&e| e != u32::MAX).map(|&e| (e >> 16) as u8).min();
                assert_eq!(best, Some(need - 1), "{c:?} + {k}");
            }
        }
    }
    assert!(ready > 500, "{ready}");
}

/// Decides for one lineup slot with its own policy, as a Python strategy would.
struct Slot {
    policy: Policy,
    asked: usize,
    fail: bool,
}

impl Player<Suzume> for Slot {
    fn decide(&mut self, view: &View<'_>, point: Point, legal: &[Action]) -> Result<Action, Fault> {
        self.asked += 1;
        if self.fail {
            return Err(Fault::Failed("a test player".into()));
        }
        Native::new(&self.policy, crate::rng::Key::new(0)).decide(view, point, legal)
    }
}

/// Answers a tile it does not hold.
struct Cheat;

impl Player<Suzume> for Cheat {
    fn decide(&mut self, view: &View<'_>, _: Point, legal: &[Action]) -> Result<Action, Fault> {
        let held = |t: &Tile| view.hand.contains(t);
        Ok(legal
            .iter()
            .find(|a| !matches!(a, Action::Discard(_)))
            .copied()
            .unwrap_or(Action::Discard((0..44).map(Tile).find(|t| !held(t)).unwrap())))
    }
}

#[test]
fn an_outside_player_decides_its_slot_and_leaves_the_keyed_tiles_alone() {
    use super::batch::play_tables;
    let r = rules();
    let picky = knobs(json!({"min_win_score": 8}));
    let random = knobs(json!({"discard": "random"}));
    for duplicate in [false, true] {
        let batch = Batch { seed: 5, first_game: 2, count: 9, duplicate };
        let native = play(&r, &[Knobs::default(), picky.clone(), Knobs::default()], &batch);
        // Slot 1's knobs say random; the outside player decides it as `picky` and must be what plays.
        let mut slot = Slot { policy: Policy::new(picky.clone(), r.clone()), asked: 0, fail: false };
        let outside =
            play_tables(&r, &[Knobs::default(), random.clone(), Knobs::default()], &batch, &mut [None, Some(&mut slot), None]).unwrap();
        assert_eq!(native, outside);
        assert!(slot.asked > 9 * 12 * 3, "every decision of the slot went to its player");
    }
    let mut failing = Slot { policy: Policy::new(Knobs::default(), r.clone()), asked: 0, fail: true };
    let batch = Batch { seed: 5, first_game: 3, count: 3, duplicate: false };
    let err = play_tables(&r, &[Knobs::default(), Knobs::default()], &batch, &mut [Some(&mut failing), None]).unwrap_err();
    assert_eq!(failing.asked, 1, "the game stops at the first failure");
    assert_eq!((err.game, err.point, err.fault), (Some(3), "discard", Fault::Failed("a test player".into())));
    // A tile that is not in the hand is refused, never played.
    let err = play_tables(&r, &[Knobs::default(), Knobs::default()], &batch, &mut [None, Some(&mut Cheat)]).unwrap_err();
    assert!(matches!(err.fault, Fault::Illegal(ref what) if what.contains("is not legal")), "{err}");
}

#[test]
fn the_plan_counts_only_the_waits_that_reach_the_minimum() {
    // No red tiles, no dora: 111 + 123 is worth 2 + 1 + chanta 2 = 5 (legal), 111 + 234 only 3.
    let r = Rules { red_tiles: false, dora: false, ..rules() };
    let reach = super::plan::Reach::new(&r);
    let hand = parse_tiles("hand", "111239", &[]).unwrap();
    let h = Hand { tiles: hand.clone() };
    let (seen, discarded) = ([0u8; 11], [0u16; 5]);
    let view = View {
        seat: 1,
        players: 4,
        dealer: 0,
        hand_index: 0,
        hand: &hand,
        state: Tables::get().state_of(&h.counts()),
        red: 0,
        seen: &seen,
        seen_red: 0,
        discarded: &discarded,
        streak: &[0; 5],
        dora: None,
        river: &[],
        stock: 10,
        points: &[40, 40, 40, 40],
    };
    let left = super::plan::Left::after(&view, 5);
    assert_eq!(Tables::get().five(left.s5), (1, 1 << 0 | 1 << 3), "discarding 9 waits on 1 and 4");
    assert_eq!(left.legal_waits(&reach), 1 << 0, "only 1 reaches 5 points");
    // Under the 6-point minimum neither does; without one both do.
    assert_eq!(left.legal_waits(&super::plan::Reach::new(&Rules { min_points: 6, ..r.clone() })), 0);
    assert_eq!(left.legal_waits(&super::plan::Reach::new(&Rules { min_points: 0, ..r })), 1 << 0 | 1 << 3);
}
