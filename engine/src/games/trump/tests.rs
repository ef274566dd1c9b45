//! The spec's test vectors (§14) driven through the engine's readings, yaku, legality, payments and
//! settlement, and the exact enumeration of 7- and 8-card sets against keyed deals.

use super::hand::*;
use super::rules::{DoubleRiichi, Furiten, MultiRon, Rules};
use super::scoring::*;
use crate::options::{Options, Validate};
use serde_json::json;

fn rules() -> Rules {
    Rules::default()
}

/// The rules the §14.3 vectors assume: they never award chinitsu to their all-number hands,
/// although §6.1 #13 and the source do (see `chinitsu_on_every_all_number_vector_hand`).
fn spec() -> Rules {
    Rules { chinitsu: false, ..rules() }
}

/// The §14.3 defaults: East round, winner South (a child), indicator K (dora T), ron.
fn q<'a>(hand: &'a str, win: &'a str) -> Query<'a> {
    Query { hand, win, ron: true, indicator: Some("K"), ..Default::default() }
}

fn score(q: &Query, rules: &Rules) -> Result<Value, Illegal> {
    let (held, s, discards) = parse_query(q, rules).unwrap();
    if q.ron {
        ron(&held, &s, discards, rules)
    } else {
        let mut c = held;
        c[usize::from(s.win)] += 1;
        tsumo(&c, &s, rules)
    }
}

fn han(q: &Query) -> (u8, u16) {
    let v = score(q, &spec()).unwrap();
    (v.han, v.points)
}

fn has(v: &Value, y: Yaku) -> bool {
    v.yaku & y.bit() != 0
}

fn counts(cards: &str) -> Counts {
    let mut c = [0u8; KINDS];
    for k in parse_kinds("hand", cards).unwrap() {
        c[usize::from(k)] += 1;
    }
    c
}

#[test]
fn tr_src_1_2_deal_and_stake() {
    assert_eq!(3 * 7 + 9 + 24, CARDS);
    assert_eq!(24 / 3, 8);
    assert_eq!(rules().starting_points, 5 + 5 * 2 + 10 * 2);
}

#[test]
fn tr_src_3_to_6_source_totals() {
    // Honroutou (with a 1/9) and tsuiisou: 6 han either way.
    let v = score(&q("111999K", "K"), &spec()).unwrap();
    assert!(has(&v, Yaku::Honroutou) && has(&v, Yaku::Toitoi) && has(&v, Yaku::Chanta));
    assert_eq!(v.yaku_han, 6);
    let v = score(&Query { round_wind: Some("J"), seat_wind: Some("Q"), indicator: Some("9"), ..q("JJTTTKK", "K") }, &spec()).unwrap();
    assert_eq!((v.yaku_han, has(&v, Yaku::Tsuiisou), has(&v, Yaku::Toitoi), has(&v, Yaku::Chanta)), (6, true, true, false));
    // Junchan replaces chanta: 3 in all.
    let v = score(&q("1112379", "8"), &spec()).unwrap();
    assert_eq!((v.yaku_han, has(&v, Yaku::Junchan), has(&v, Yaku::Chanta)), (3, true, false));
    // The East trio for the East seat in the East round: 2 han.
    let v = score(&Query { dealer: true, indicator: Some("1"), ..q("TT23455", "T") }, &spec()).unwrap();
    assert_eq!((v.yaku & (Yaku::SeatWind.bit() | Yaku::RoundWind.bit()), v.yaku_han), (Yaku::SeatWind.bit() | Yaku::RoundWind.bit(), 2));
}

#[test]
fn tr_src_7_han_to_points() {
    let table = [1, 2, 4, 8, 8, 12, 12, 16, 16, 16, 24, 24, 24, 32];
    for (i, &p) in table.iter().enumerate() {
        assert_eq!(points_of(i as u8 + 1, 14), p, "{} han", i + 1);
    }
    assert_eq!(points_of(20, 14), 32);
    assert_eq!(points_of(20, 13), 24);
}

#[test]
fn tr_src_8_dora_from_indicator() {
    let d = |i: &str| kind_name(dora_of(parse_kinds("i", i).unwrap()[0]).unwrap());
    assert_eq!([d("9"), d("K"), d("5"), d("Q")], ['1', 'T', '6', 'K']);
    assert_eq!(dora_of(JOKER), None);
}

fn pay(p: u16, winner: usize, discarder: Option<usize>) -> [i64; 3] {
    payments(p, winner, 0, discarder, &spec())
}

#[test]
fn tr_p1_to_p8_payments() {
    assert_eq!(pay(4, 1, Some(2)), [0, 0, 4]);
    assert_eq!(pay(4, 1, None), [4, 0, 2]);
    assert_eq!(pay(1, 1, None), [1, 0, 1]);
    assert_eq!(pay(8, 2, None), [8, 4, 0]);
    assert_eq!(pay(12, 1, None), [12, 0, 6]);
    assert_eq!(pay(2, 0, Some(1)), [0, 4, 0]);
    assert_eq!(pay(2, 0, None), [0, 2, 2]);
    assert_eq!(pay(32, 0, None), [0, 32, 32]);
}

#[test]
fn tr_h1_h2_pinfu_source_example() {
    for w in ["4", "7"] {
        let v = score(&q("8812356", w), &spec()).unwrap();
        assert!(has(&v, Yaku::Pinfu) && !has(&v, Yaku::Tanyao), "{w}");
        assert_eq!((v.han, v.points), (1, 1));
    }
}

#[test]
fn tr_h3_iipeikou_not_pinfu_but_four_pairs_scores_higher() {
    // The spec expects 1 han from JJ / 345 / 345, but the same 8 cards are also JJ 33 44 55,
    // four pairs, and §5.4 takes the highest reading: suutoitsu 2.
    let (held, s, _) = parse_query(&q("JJ34535", "4"), &spec()).unwrap();
    let mut c = held;
    c[usize::from(s.win)] += 1;
    let vs = values(&c, &s, &spec());
    let standard = vs.iter().find(|v| matches!(v.reading, Reading::Standard { .. })).unwrap();
    assert_eq!((standard.yaku, standard.han), (Yaku::Iipeikou.bit(), 1));
    let v = score(&q("JJ34535", "4"), &spec()).unwrap();
    assert_eq!((v.yaku, v.han, v.points), (Yaku::Suutoitsu.bit(), 2, 2));
}

#[test]
fn tr_h4_to_h8_shapes() {
    assert_eq!(han(&q("9912 3KK", "9")), (2, 2));
    let v = score(&q("99123KK", "K"), &spec()).unwrap();
    assert_eq!((v.yaku, v.points), (Yaku::Chanta.bit(), 2));
    let v = score(&q("1112379", "8"), &spec()).unwrap();
    assert!(!has(&v, Yaku::Pinfu));
    assert_eq!((v.han, v.points), (3, 4));
    let v = score(&q("22111KK", "2"), &spec()).unwrap();
    assert_eq!((v.yaku, v.points), (Yaku::Toitoi.bit(), 2));
    let v = score(&q("11338JJ", "8"), &spec()).unwrap();
    assert_eq!((v.yaku, v.points), (Yaku::Suutoitsu.bit(), 2));
}

#[test]
fn tr_h9_four_of_a_kind_is_not_two_pairs() {
    assert_eq!(score(&Query { ron: false, ..q("1133888", "8") }, &spec()), Err(Illegal::Incomplete));
    assert!(readings(&counts("11338888")).is_empty());
}

#[test]
fn tr_h10_h11_six_han_hands() {
    let h10 = Query { round_wind: Some("J"), seat_wind: Some("Q"), indicator: Some("9"), ..q("JJTTTKK", "K") };
    assert_eq!(han(&h10), (6, 12));
    assert_eq!(han(&Query { indicator: Some("5"), ..q("111999K", "K") }), (6, 12));
}

#[test]
fn tr_h12_h13_kokushi_and_the_discarded_joker() {
    let v = score(&q("11TJQKX", "9"), &spec()).unwrap();
    assert!(has(&v, Yaku::Kokushi));
    assert_eq!((v.jokers, v.dora, v.han, v.points), (1, 1, 10, 16));
    let uncounted = Rules { held_joker_han: false, ..spec() };
    let v = score(&q("11TJQKX", "9"), &uncounted).unwrap();
    assert_eq!((v.han, v.points), (9, 16));
    assert_eq!(score(&q("11TJQK9", "X"), &spec()), Err(Illegal::JokerKokushi));
    // A tsumo of the Joker completes it.
    assert!(has(&score(&Query { ron: false, ..q("11TJQK9", "X") }, &spec()).unwrap(), Yaku::Kokushi));
}

#[test]
fn tr_h14_h15_single_wait_vs_two_sided() {
    let v = score(&q("2346785", "5"), &spec()).unwrap();
    assert_eq!((v.yaku, v.points), (Yaku::Tanyao.bit(), 1));
    let v = score(&q("2346755", "8"), &spec()).unwrap();
    assert_eq!((v.yaku, v.points), (Yaku::Tanyao.bit() | Yaku::Pinfu.bit(), 2));
}

#[test]
fn tr_h16_h17_dora_is_not_a_yaku() {
    assert_eq!(score(&q("123456T", "T"), &spec()), Err(Illegal::NoYaku));
    let t = score(&Query { ron: false, ..q("123456T", "T") }, &spec()).unwrap();
    assert_eq!((t.yaku, t.dora, t.han, t.points), (Yaku::Tsumo.bit(), 2, 3, 4));
    assert_eq!(payments(t.points, 1, 0, None, &spec()), [4, 0, 2]);
    let r = score(&Query { riichi: true, ..q("123456T", "T") }, &spec()).unwrap();
    assert_eq!((r.yaku, r.han, r.points), (Yaku::Riichi.bit(), 3, 4));
}

#[test]
fn tr_h18_tenhou_with_tsumo() {
    let v = score(&Query { ron: false, dealer: true, first_turn: true, ..q("1112345", "5") }, &spec()).unwrap();
    assert_eq!((v.yaku, v.han, v.points), (Yaku::Tenhou.bit() | Yaku::Tsumo.bit(), 5, 8));
    assert_eq!(payments(v.points, 0, 0, None, &spec()), [0, 8, 8]);
}

#[test]
fn tr_h19_riichi_tsumo_dora_and_joker() {
    let h = Query { ron: false, riichi: true, indicator: Some("4"), ura_indicator: Some("8"), jokers: 1, ..q("12355QQ", "Q") };
    let v = score(&h, &spec()).unwrap();
    assert_eq!((v.yaku, v.dora, v.ura, v.jokers, v.han, v.points), (Yaku::Riichi.bit() | Yaku::Tsumo.bit(), 2, 0, 1, 5, 8));
    assert_eq!(payments(v.points, 1, 0, None, &spec()), [8, 0, 4]);
}

#[test]
fn tr_h20_h21_kanzen_sakizuke() {
    let on = Rules { kanzen_sakizuke: true, ..spec() };
    let mask = |cards: &str| parse_kinds("w", cards).unwrap().into_iter().fold(0u16, |m, k| m | 1 << k);
    assert_eq!(waits(&counts("3456777")), mask("23568"));
    for w in ["2", "3", "5", "6", "8"] {
        assert!(score(&q("3456777", w), &on).is_ok(), "{w}");
    }
    let off = spec();
    assert_eq!(han(&q("2345 5JJ", "J")), (1, 1));
    assert_eq!(score(&q("23455JJ", "5"), &off), Err(Illegal::NoYaku));
    assert_eq!(score(&q("23455JJ", "J"), &on), Err(Illegal::Sakizuke));
    assert_eq!(score(&q("23455JJ", "5"), &on), Err(Illegal::NoYaku));
    for w in ["5", "J"] {
        assert!(score(&Query { ron: false, ..q("23455JJ", w) }, &on).is_ok());
    }
    // Riichi lifts the restriction.
    assert!(score(&Query { riichi: true, ..q("23455JJ", "J") }, &on).is_ok());
}

#[test]
fn tr_h22_furiten_covers_the_whole_wait() {
    let f = Rules { furiten: Furiten::Standard, ..spec() };
    for w in ["2", "5"] {
        assert_eq!(score(&Query { discards: "8", ..q("2346755", w) }, &f), Err(Illegal::Furiten), "{w}");
        assert!(score(&Query { discards: "8", ..q("2346755", w) }, &spec()).is_ok());
    }
    assert!(score(&Query { ron: false, discards: "8", ..q("2346755", "5") }, &f).is_ok());
}

#[test]
fn tr_s1_to_s3_settlement() {
    assert_eq!(settle(&[60, 30, 15], 0, &spec()), [35, -10, -25]);
    assert_eq!(settle(&[60, 29, 15], 0, &spec()), [36, -11, -25]);
    assert_eq!(settle(&[48, 42, 15], 0, &spec()), [23, 2, -25]);
    // A17: a tie for top goes to the first in seat order from the first dealer.
    assert_eq!(settle(&[40, 40, 25], 1, &spec()), [-0, 15, -15]);
    assert_eq!(settle(&[40, 40, 25], 0, &spec()), [15, 0, -15]);
}

#[test]
fn double_riichi_replaces_or_adds() {
    let h = Query { double_riichi: true, ..q("123456T", "T") };
    assert_eq!(score(&h, &spec()).unwrap().yaku_han, 2);
    let add = Rules { double_riichi_stacks: DoubleRiichi::Add, ..spec() };
    assert_eq!(score(&h, &add).unwrap().yaku_han, 3);
}

#[test]
fn renhou_makes_a_ron_legal() {
    let v = score(&Query { first_turn: true, ..q("123456T", "T") }, &spec()).unwrap();
    assert_eq!((v.yaku, v.han), (Yaku::Tenhou.bit(), 6));
}

#[test]
fn edge_waits_and_wrap_around_are_not_pinfu_or_trios() {
    // 12 waiting on 3 and 89 on 7 are edge waits.
    for (hand, win) in [("4445612", "3"), ("2223489", "7")] {
        let v = score(&Query { ron: false, ..q(hand, win) }, &spec()).unwrap();
        assert!(matches!(v.reading, Reading::Standard { .. }) && !has(&v, Yaku::Pinfu), "{hand}+{win}");
    }
    // 8-9-T and 9-1-2 are no trios.
    assert!(readings(&counts("5512389T")).is_empty());
    assert!(readings(&counts("55912345")).is_empty());
}

#[test]
fn bad_hands_are_errors_naming_the_field() {
    let err = |q: Query| parse_query(&q, &spec()).unwrap_err();
    assert_eq!(err(q("123456", "7")).field, "hand");
    assert_eq!(err(q("1234567Z", "7")).field, "hand");
    assert!(err(q("1111234", "1")).message.contains("5 copies of 1"), "{}", err(q("1111234", "1")).message);
    assert!(err(Query { jokers: 1, ..q("XX12345", "6") }).message.contains("Jokers"));
    assert_eq!(err(q("1234567", "77")).field, "win");
    assert_eq!(err(Query { seat_wind: Some("K"), ..q("1234567", "7") }).field, "seat_wind");
    assert_eq!(err(Query { indicator: Some("X"), ..q("1234567", "7") }).field, "indicator");
    assert_eq!(err(Query { ippatsu: true, ..q("1234567", "7") }).field, "ippatsu");
    assert_eq!(err(Query { dealer: true, seat_wind: Some("J"), ..q("1234567", "7") }).field, "seat_wind");
}

#[test]
fn situations_the_game_cannot_reach_are_errors_naming_the_inputs_that_clash() {
    let err = |q: Query, rules: &Rules| parse_query(&q, rules).unwrap_err().field;
    let tsumo = Query { ron: false, ..q("8812356", "4") };
    // Riichi is declared with a discard; a first-turn win comes before the first discard.
    assert_eq!(err(Query { riichi: true, first_turn: true, ..tsumo }, &spec()), "riichi+first_turn");
    let double = Query { double_riichi: true, ippatsu: true, first_turn: true, ..tsumo };
    assert_eq!(err(double, &spec()), "double_riichi+first_turn");
    // The dealer draws first, so never rons before the first draw (no renhou).
    assert_eq!(err(Query { dealer: true, first_turn: true, ..q("8812356", "4") }, &spec()), "ron+dealer+first_turn");
    assert_eq!(err(Query { first_turn: true, discards: "9", ..tsumo }, &spec()), "discards+first_turn");
    assert_eq!(err(Query { discards: "88", ..q("8812356", "8") }, &spec()), "discards");
    // Without joker_keep_allowed every Joker is set aside at once: none held, discarded or won on.
    let no_keep = Rules { joker_keep_allowed: false, ..spec() };
    assert_eq!(err(Query { ron: false, ..q("11TJQKX", "9") }, &no_keep), "hand");
    assert_eq!(err(Query { ron: false, ..q("11TJQK9", "X") }, &no_keep), "win");
    assert_eq!(err(Query { discards: "X", ..q("8812356", "4") }, &no_keep), "discards");
    assert!(parse_query(&Query { jokers: 2, ..q("8812356", "4") }, &no_keep).is_ok());
    for jokers in [-1, 3, 255, 257] {
        assert_eq!(err(Query { jokers, ..q("8812356", "4") }, &spec()), "jokers", "{jokers}");
    }
    // What the game does reach: tenhou, chiihou, renhou (a child), double riichi with ippatsu.
    for ok in [
        Query { dealer: true, first_turn: true, ..tsumo },
        Query { first_turn: true, ..tsumo },
        Query { first_turn: true, ..q("8812356", "4") },
        Query { riichi: true, double_riichi: true, ippatsu: true, ..tsumo },
        Query { ron: false, first_turn: true, ..q("11TJQKX", "9") },
    ] {
        assert!(parse_query(&ok, &spec()).is_ok(), "{ok:?}");
    }
}

#[test]
fn bad_options_are_errors_naming_the_field() {
    assert_eq!(Rules::from_json(&json!({"furiten": "on"})).unwrap_err().field, "furiten");
    assert_eq!(Rules::from_json(&json!({"rounds": 4})).unwrap_err().field, "rounds");
    assert_eq!(Rules::from_json(&json!({"multi_ron": "triple"})).unwrap_err().field, "multi_ron");
    let r = Rules::from_json(&json!({"starting_points": 1, "riichi_cost": 2})).unwrap();
    assert_eq!(r.validate().unwrap_err().field, "riichi_cost+starting_points");
    assert_eq!(Rules::from_json(&json!({"multi_ron": "double"})).unwrap().multi_ron, MultiRon::Double);
    for bad in [json!({"mistake_rate": -0.1}), json!({"mistake_rate": 1.5}), json!({"mistake_rate": "often"})] {
        assert_eq!(Rules::from_json(&bad).unwrap_err().field, "mistake_rate", "{bad}");
    }
    for bad in [json!({"chombo_penalty": -4}), json!({"chombo_penalty": 2.5}), json!({"chombo_penalty": 1001})] {
        assert_eq!(Rules::from_json(&bad).unwrap_err().field, "chombo_penalty", "{bad}");
    }
}

#[test]
fn the_report_has_the_documented_fields() {
    let r = score_report(&Query { ron: false, ..q("2346755", "8") }, &spec()).unwrap();
    assert_eq!(r["legal"], true);
    assert_eq!(r["han"], 3);
    assert_eq!(r["points"], 4);
    assert_eq!(r["payments"]["dealer"], 4);
    assert_eq!(r["payments"]["other_child"], 2);
    assert_eq!(r["payments"]["total"], 6);
    let r = score_report(&q("123456T", "T"), &spec()).unwrap();
    assert_eq!((r["legal"].as_bool(), r["reason"].as_str().unwrap().contains("yaku")), (Some(false), true));
}

#[test]
fn chinitsu_on_every_all_number_vector_hand() {
    for (hand, win) in
        [("8812356", "4"), ("8812356", "7"), ("1112379", "8"), ("22111KK", "2"), ("2346785", "5"), ("2346755", "8"), ("3456777", "5")]
    {
        let a = score(&q(hand, win), &spec()).unwrap();
        let b = score(&q(hand, win), &rules()).unwrap();
        let numbers = !hand.contains('K');
        assert_eq!(has(&b, Yaku::Chinitsu), numbers, "{hand}+{win}");
        assert_eq!(b.han, a.han + if numbers { 2 } else { 0 }, "{hand}+{win}");
    }
}

/// Every count vector of `n` cards the deck allows (at most 4 per rank, 2 Jokers), with the number
/// of card sets it stands for (the product of binomials per kind).
fn multisets(n: u8) -> Vec<(Counts, u128)> {
    fn walk(k: usize, left: u8, c: &mut Counts, w: u128, out: &mut Vec<(Counts, u128)>) {
        if k == KINDS {
            if left == 0 {
                out.push((*c, w));
            }
            return;
        }
        let choose = |n: u128, r: u128| (0..r).fold(1u128, |acc, i| acc * (n - i) / (i + 1));
        for m in 0..=left.min(copies(k as u8)) {
            c[k] = m;
            walk(k + 1, left - m, c, w * choose(u128::from(copies(k as u8)), u128::from(m)), out);
        }
        c[k] = 0;
    }
    let mut out = Vec::new();
    walk(0, n, &mut [0; KINDS], 1, &mut out);
    out
}

/// Winning shapes built up rather than split down (the independent side of the enumeration): every
/// pair plus two trios (up to `max` copies per rank), every four distinct pairs, every kokushi.
struct Shapes {
    standard: std::collections::HashSet<Counts>,
    pairs: std::collections::HashSet<Counts>,
    kokushi: std::collections::HashSet<Counts>,
}

impl Shapes {
    fn build(max: u8) -> Self {
        let mut groups: Vec<Vec<u8>> = (0..13).map(|k| vec![k; 3]).collect();
        groups.extend((0..7).map(|k| vec![k, k + 1, k + 2]));
        let mut standard = std::collections::HashSet::new();
        for p in 0..13u8 {
            for (i, a) in groups.iter().enumerate() {
                for b in &groups[i..] {
                    let mut c = [0u8; KINDS];
                    for &k in [p, p].iter().chain(a).chain(b) {
                        c[usize::from(k)] += 1;
                    }
                    if c.iter().all(|&n| n <= max) {
                        standard.insert(c);
                    }
                }
            }
        }
        let mut pairs = std::collections::HashSet::new();
        for m in 0u16..1 << 13 {
            if m.count_ones() == 4 {
                pairs.insert(std::array::from_fn(|k| if k < 13 && m & (1 << k) != 0 { 2 } else { 0 }));
            }
        }
        let kokushi = KOKUSHI
            .iter()
            .map(|&p| {
                let mut c = [0u8; KINDS];
                for &k in &KOKUSHI {
                    c[usize::from(k)] = 1 + u8::from(k == p);
                }
                c
            })
            .collect();
        Shapes { standard, pairs, kokushi }
    }
}

/// Exact probabilities of dealt shapes, as numerators over C(54, 8) and C(54, 7).
#[derive(Debug, Default, PartialEq)]
struct Exact {
    standard: u128,
    pairs: u128,
    kokushi: u128,
    win: u128,
    tenpai: u128,
}

/// The exact enumeration, checked multiset by multiset against the independently built shapes.
fn exact() -> (Exact, u128, u128) {
    let physical = Shapes::build(4);
    let mut e = Exact::default();
    let (mut all8, mut all7) = (0u128, 0u128);
    for (c, w) in multisets(8) {
        all8 += w;
        let rs = readings(&c);
        let forms = (
            rs.iter().any(|r| matches!(r, Reading::Standard { .. })),
            rs.iter().any(|r| matches!(r, Reading::FourPairs(_))),
            rs.iter().any(|r| matches!(r, Reading::Kokushi { .. })),
        );
        assert_eq!(forms, (physical.standard.contains(&c), physical.pairs.contains(&c), physical.kokushi.contains(&c)), "{c:?}");
        e.standard += w * u128::from(forms.0);
        e.pairs += w * u128::from(forms.1);
        e.kokushi += w * u128::from(forms.2);
        e.win += w * u128::from(!rs.is_empty());
    }
    // A16: shape tenpai, a fifth copy of a rank counts, a kokushi wait only with a Joker held.
    let shape = Shapes::build(5);
    for (c, w) in multisets(7) {
        all7 += w;
        let independent = (0..KINDS).any(|k| {
            let mut d = c;
            d[k] += 1;
            shape.standard.contains(&d) || shape.pairs.contains(&d) || (c[usize::from(JOKER)] > 0 && shape.kokushi.contains(&d))
        });
        let tenpai = waits(&c) != 0;
        assert_eq!(tenpai, independent, "{c:?}");
        e.tenpai += w * u128::from(tenpai);
    }
    (e, all8, all7)
}

/// The numbers in `docs/trump.md` (§ "Exact dealt-hand probabilities").
#[test]
fn exact_enumeration_of_8_and_7_card_sets() {
    let (e, all8, all7) = exact();
    assert_eq!((all8, all7), (1_040_465_790, 177_100_560));
    // Worked by hand: kokushi is 6 doubled ranks × C(4,2) × 4^5 × 2 Jokers + the Joker pair × 4^6.
    assert_eq!(e.kokushi, 6 * 6 * 1024 * 2 + 4096);
    assert_eq!(e, Exact { standard: 3_768_212, pairs: 926_640, kokushi: 77_824, win: 4_689_732, tenpai: 8_778_496 });
    eprintln!("{e:?} / {all8}, tenpai / {all7}");
    for (name, n, d) in [
        ("standard", e.standard, all8),
        ("four pairs", e.pairs, all8),
        ("kokushi", e.kokushi, all8),
        ("any win", e.win, all8),
        ("tenpai", e.tenpai, all7),
    ] {
        eprintln!("{name}: {n} / {d} = {:.8}", n as f64 / d as f64);
    }
}

/// The engine's deals agree with the exact numbers: over 10^6 keyed deals, the dealer's 7 cards
/// (tenpai) and those plus the first live card (a winning shape, by form), each within its
/// binomial 99.9% interval. The evaluator runs once per distinct multiset (memoised by counts).
#[test]
fn dealt_hands_agree_with_the_exact_enumeration() {
    use super::state::{Wall, TAG_WALL};
    use crate::rng::Key;
    use std::collections::HashMap;
    let (e, all8, all7) = exact();
    let n = 1_000_000u64;
    let (mut forms8, mut tenpai7): (HashMap<u64, [bool; 4]>, HashMap<u64, bool>) = (HashMap::new(), HashMap::new());
    let mut hits = [0u64; 5];
    let key = Key::new(12).with(TAG_WALL);
    for d in 0..n {
        let (mut wall, hands) = Wall::deal(key.with(d).with(0));
        let mut c = [0u8; KINDS];
        for card in hands[0] {
            c[usize::from(card.kind())] += 1;
        }
        hits[4] += u64::from(*tenpai7.entry(pack_counts(&c)).or_insert_with(|| waits(&c) != 0));
        c[usize::from(wall.draw().kind())] += 1;
        let f = forms8.entry(pack_counts(&c)).or_insert_with(|| {
            let rs = readings(&c);
            [
                rs.iter().any(|r| matches!(r, Reading::Standard { .. })),
                rs.iter().any(|r| matches!(r, Reading::FourPairs(_))),
                rs.iter().any(|r| matches!(r, Reading::Kokushi { .. })),
                !rs.is_empty(),
            ]
        });
        for (h, &on) in hits.iter_mut().zip(f.iter()) {
            *h += u64::from(on);
        }
    }
    let exact = [(e.standard, all8), (e.pairs, all8), (e.kokushi, all8), (e.win, all8), (e.tenpai, all7)];
    for (i, (&h, &(num, den))) in hits.iter().zip(&exact).enumerate() {
        let p = num as f64 / den as f64;
        let half = 3.2905 * (p * (1.0 - p) / n as f64).sqrt();
        let got = h as f64 / n as f64;
        assert!((got - p).abs() <= half, "form {i}: {got} outside {p} ± {half}");
    }
}

/// Packing is 4 bits per kind, kind 0 lowest, for every count a hand can hold (and up to 15).
#[test]
fn packed_counts_hold_each_kind_in_its_nibble() {
    let mut stream = crate::rng::Key::new(7).stream();
    for _ in 0..10_000 {
        let c: Counts = std::array::from_fn(|_| stream.below(16) as u8);
        let packed = pack_counts(&c);
        assert!((0..KINDS).all(|k| (packed >> (4 * k)) & 15 == u64::from(c[k])) && packed >> (4 * KINDS) == 0, "{c:?}: {packed:#x}");
    }
}

mod games {
    use super::super::batch::{play, play_game, HandRow, Outcome, Rows3};
    use super::super::state::Silent;
    use super::super::strategies::{DiscardRule, Knobs, Policy};
    use super::*;
    use crate::game::{Batch, Seating};
    use crate::table::Table;

    fn column<T: Copy>(t: &Table, name: &str, size: usize, f: fn(&[u8]) -> T) -> Vec<T> {
        t.column(name).unwrap_or_else(|| panic!("{name}")).data.chunks(size).map(f).collect()
    }

    fn random() -> Knobs {
        Knobs { discard: DiscardRule::Random, ..Knobs::default() }
    }

    fn rows(rules: &Rules, lineup: &[Knobs], games: std::ops::Range<u64>) -> Rows3 {
        let policies: Vec<Policy> = lineup.iter().map(|k| Policy::new(k.clone(), rules.clone())).collect();
        let mut out = Rows3::default();
        for g in games {
            play_game(rules, &policies, 5, Seating::new(g, 3, false), &mut [], &mut Silent, &mut out).unwrap();
        }
        out
    }

    /// Points are conserved hand by hand (sticks on the table included), settlements are zero-sum,
    /// every logged win re-scores to its logged han, and (debug builds) every hand checks that
    /// its 54 cards are each in exactly one place.
    fn invariants(rules: &Rules, lineup: &[Knobs], games: std::ops::Range<u64>) -> Rows3 {
        let out = rows(rules, lineup, games);
        let start = i64::from(rules.starting_points);
        let mut pool_before = 0;
        for h in &out.hands {
            if h.hand == 0 && h.claim == 0 {
                pool_before = 0;
            }
            if h.claim == 0 {
                assert_eq!(i64::from(h.delta_0 + h.delta_1 + h.delta_2) + h.pool - pool_before, 0, "{h:?}");
                pool_before = h.pool;
            }
            if h.outcome == Outcome::Tsumo || h.outcome == Outcome::Ron {
                let mut c = [0u8; KINDS];
                (0..KINDS).for_each(|k| c[k] = ((h.cards >> (4 * k)) & 15) as u8);
                let s = Situation {
                    win: h.win_kind as u8,
                    tsumo: h.outcome == Outcome::Tsumo,
                    riichi: [Riichi::None, Riichi::Single, Riichi::Double][usize::from(h.riichi_kind)],
                    ippatsu: h.ippatsu,
                    first_turn: h.first_turn,
                    dealer: h.winner as u8 == h.dealer,
                    seat_wind: h.seat_wind,
                    round_wind: h.round_wind,
                    dora: (h.dora_kind >= 0).then_some(h.dora_kind as u8),
                    ura: (h.ura_kind >= 0).then_some(h.ura_kind as u8),
                    jokers_aside: h.jokers_aside,
                };
                let v = best(&c, &s, rules).unwrap_or_else(|| panic!("logged win does not score: {h:?}"));
                assert_eq!((v.han, v.yaku, v.points), (h.han, h.yaku, h.points), "{h:?}");
                assert!(v.yaku != 0 || h.outcome == Outcome::Tsumo);
            }
        }
        for (g, p) in out.games.iter().zip(out.players.chunks(3)) {
            assert_eq!(p.iter().map(|r| r.final_points).sum::<i64>(), 0);
            assert_eq!(p.iter().map(|r| r.points).sum::<i64>() + g.sticks_left, 3 * start);
            assert!(g.bust || g.stopped || g.hands >= 9 * u16::from(rules.rounds) / 3);
        }
        out
    }

    #[test]
    fn random_games_keep_every_invariant() {
        let out = invariants(&rules(), &[random(), random(), random()], 0..100_000);
        let wins = out.hands.iter().filter(|h| h.outcome != Outcome::Draw).count();
        assert!(wins > 300_000, "{wins} wins");
    }

    #[test]
    fn strategy_games_keep_every_invariant_under_house_rules() {
        let t = |f: fn(&mut Knobs)| {
            let mut k = Knobs::default();
            f(&mut k);
            k
        };
        let lineups = [
            [Knobs::default(), t(|k| k.riichi = false), t(|k| k.fold = true)],
            [t(|k| k.kokushi_hunt = true), t(|k| k.min_han = 3), t(|k| (k.riichi, k.ron) = (false, false))],
        ];
        let strict = Rules { furiten: Furiten::Standard, kanzen_sakizuke: true, multi_ron: MultiRon::Double, ..rules() };
        for rules in [rules(), strict, Rules { double_riichi_stacks: DoubleRiichi::Add, joker_keep_allowed: false, ..rules() }] {
            for lineup in &lineups {
                let out = invariants(&rules, lineup, 0..300);
                assert!(out.hands.iter().any(|h| h.riichi_kind > 0) || !lineup.iter().any(|k| k.riichi));
            }
        }
    }

    /// A kept Joker that completes kokushi wins by tsumo (it is not among the A16 waits of a hand
    /// without a Joker), and after riichi a Joker kept before stays in the hand: only the drawn
    /// card may be set aside (§4.2, A5), so riichi kokushi hands also win by tsumo on a later draw.
    #[test]
    fn kokushi_hunters_win_on_a_drawn_joker_and_keep_jokers_through_riichi() {
        let hunter = Knobs { kokushi_hunt: true, ..Knobs::default() };
        let out = invariants(&rules(), &[hunter.clone(), hunter.clone(), hunter], 0..3000);
        let kokushi: Vec<_> = out.hands.iter().filter(|h| h.yaku & Yaku::Kokushi.bit() != 0).collect();
        assert!(kokushi.iter().any(|h| h.win_kind == JOKER as i8 && h.outcome == Outcome::Tsumo), "{} kokushi wins", kokushi.len());
        let held = |h: &&&HandRow| (h.cards >> (4 * JOKER)) & 15 > 0;
        assert!(kokushi.iter().filter(held).any(|h| h.riichi_kind > 0 && h.outcome == Outcome::Tsumo && h.win_kind != JOKER as i8));
    }

    /// TR-P9, TR-P10 and TR-S4 in played games (a riichi player against two dama players, so
    /// that sticks stay on the table): a riichi ron winner takes the hand payment, every stick on
    /// the table and their own back; a winner without riichi leaves the sticks where they are; a
    /// player at 0 points or fewer ends the game after that hand, and no game ends so otherwise.
    #[test]
    fn tr_p9_p10_s4_the_stick_pool_and_the_bust_in_played_games() {
        let dama = Knobs { riichi: false, ..Knobs::default() };
        let out = invariants(&rules(), &[Knobs::default(), dama.clone(), dama], 0..3000);
        let (mut p9, mut p10, mut pool_before) = (0, 0, 0);
        for h in out.hands.iter().filter(|h| h.claim == 0) {
            if h.hand == 0 {
                pool_before = 0;
            }
            let delta = [h.delta_0, h.delta_1, h.delta_2].map(i64::from);
            let riichi = [h.riichi_0, h.riichi_1, h.riichi_2];
            let posted = riichi.iter().filter(|&&r| r).count() as i64;
            if h.outcome == Outcome::Ron && h.claims == 1 {
                let (w, d) = (h.winner as usize, h.discarder as usize);
                let pay = i64::from(h.points) * if w == usize::from(h.dealer) { 2 } else { 1 };
                if riichi[w] {
                    assert_eq!((delta[w], h.sticks, h.pool), (pay + pool_before + posted - 1, pool_before + posted, 0), "{h:?}");
                    if w != usize::from(h.dealer) && h.points == 1 && pool_before == 2 && posted == 1 {
                        assert_eq!((delta[w], delta[d]), (3, -1), "TR-P9 {h:?}");
                        p9 += 1;
                    }
                } else {
                    assert_eq!((delta[w], h.sticks, h.pool), (pay, 0, pool_before + posted), "{h:?}");
                    p10 += usize::from(pool_before + posted > 0);
                }
            }
            pool_before = h.pool;
        }
        assert!(p9 > 0 && p10 > 0, "TR-P9 seen {p9} times, TR-P10 {p10} times");
        assert!(busts_end_games(&out, &rules()) > 0);
    }

    /// A player at 0 points or fewer after a hand ends the game after that hand (§8), and no game
    /// ends so otherwise: the running totals rebuilt from the hands' deltas. Returns the busts.
    fn busts_end_games(out: &Rows3, rules: &Rules) -> usize {
        let mut busts = 0;
        for g in &out.games {
            let mut points = [i64::from(rules.starting_points); 3];
            let hands: Vec<_> = out.hands.iter().filter(|h| h.game == g.game && h.claim == 0).collect();
            for (i, h) in hands.iter().enumerate() {
                points[0] += i64::from(h.delta_0);
                points[1] += i64::from(h.delta_1);
                points[2] += i64::from(h.delta_2);
                let bust = points.iter().any(|&p| p <= 0);
                assert_eq!(bust, g.bust && i + 1 == hands.len(), "game {} hand {i}", g.game);
            }
            busts += usize::from(g.bust);
        }
        busts
    }

    /// Mistake injection (§9's optional chombo, `mistake_rate`): every invariant holds (cards
    /// conserved in debug builds, points and sticks hand by hand, zero-sum settlements); a chombo
    /// changes the points by exactly `chombo_penalty` from the offender to each opponent (this
    /// hand's riichi sticks go back, so the pool is the one before the hand); the next hand is its
    /// replay (same dealer and round, `repeat` + 1) unless the penalty busted a player or the safety
    /// stop came; a bust ends the game as §8 says; the counts of `games` and `players` agree.
    #[test]
    fn a_chombo_pays_the_penalty_and_the_same_dealer_replays_the_hand() {
        let lineup = [Knobs::default(), Knobs { riichi: false, ..Knobs::default() }, random()];
        for penalty in [4, 0, 9] {
            let rules = Rules { mistake_rate: 0.02, chombo_penalty: penalty, max_hands: 30, ..rules() };
            let out = invariants(&rules, &lineup, 0..1000);
            let firsts: Vec<&HandRow> = out.hands.iter().filter(|h| h.claim == 0).collect();
            let (mut chombos, mut replays, mut pool_before) = (0, 0, 0);
            let mut by_seat = [[0u16; 3]; 1000];
            for (i, h) in firsts.iter().enumerate() {
                if h.hand == 0 {
                    pool_before = 0;
                }
                let next = firsts.get(i + 1).filter(|n| n.game == h.game);
                let delta = [h.delta_0, h.delta_1, h.delta_2].map(i64::from);
                let g = &out.games[h.game as usize];
                if h.outcome != Outcome::Chombo {
                    assert_eq!((h.offender, h.offender_player), (-1, -1), "{h:?}");
                    pool_before = h.pool;
                    continue;
                }
                chombos += 1;
                let o = h.offender as usize;
                by_seat[h.game as usize][o] += 1;
                let p = i64::from(penalty);
                assert_eq!(delta, std::array::from_fn(|s| if s == o { -2 * p } else { p }), "{h:?}");
                assert_eq!((h.pool, h.claims, h.winner, h.discarder, h.dealer_keeps), (pool_before, 0, -1, -1, false), "{h:?}");
                assert!(!(h.riichi_0 || h.riichi_1 || h.riichi_2), "{h:?}");
                match next {
                    Some(n) => {
                        assert_eq!((n.hand, n.dealer, n.round, n.repeat), (h.hand + 1, h.dealer, h.round, h.repeat + 1), "{n:?}");
                        replays += 1;
                    }
                    None => assert!(g.bust || g.stopped, "game {} ends on a chombo: {g:?}", h.game),
                }
            }
            for w in firsts.windows(2).filter(|w| w[0].game == w[1].game && w[0].outcome != Outcome::Chombo) {
                assert_eq!(w[1].repeat, 0, "{:?}", w[1]);
            }
            assert!(chombos > 1000 && replays > 0, "{chombos} chombos, {replays} replays");
            assert_eq!(out.games.iter().map(|g| usize::from(g.chombos)).sum::<usize>(), chombos);
            for p in &out.players {
                assert_eq!(p.chombo, by_seat[p.game as usize][p.seat.index()], "{p:?}");
            }
            let busts = busts_end_games(&out, &rules);
            assert!(busts > 0 && out.games.iter().all(|g| g.hands <= 30));
        }
    }

    /// With `mistake_rate = 1` every draw that does not win is a chombo, so no hand that stands
    /// is played past its first non-winning draw: without a penalty the safety stop ends every
    /// game that no first-draw tsumo moves on; with the default penalty every game busts, one
    /// without a tsumo after exactly 5 hands (the dealer draws first and pays 2 × 4 per chombo:
    /// 35 − 4 × 8 = 3 points left after 4, −5 after 5).
    #[test]
    fn the_safety_stop_and_the_bust_hold_when_every_draw_is_a_mistake() {
        let lineup = [Knobs::default(), Knobs::default(), Knobs::default()];
        let free = rows(&Rules { mistake_rate: 1.0, chombo_penalty: 0, max_hands: 20, ..rules() }, &lineup, 0..200);
        assert!(free.games.iter().all(|g| g.hands <= 20 && (g.stopped || g.bust)));
        assert!(free.games.iter().filter(|g| g.stopped && g.hands == 20).count() > 150);
        let paid = rows(&Rules { mistake_rate: 1.0, max_hands: 20, ..rules() }, &lineup, 0..200);
        assert!(paid.games.iter().all(|g| g.bust));
        let no_win: Vec<_> = paid.games.iter().filter(|g| g.tsumo_hands == 0).collect();
        assert!(no_win.len() > 150 && no_win.iter().all(|g| (g.hands, g.chombos) == (5, 5)));
    }

    /// The mistakes have their own keyed stream and the replays their own walls (the key gains
    /// the repeat count only when it is above 0): a game without a chombo is the game played
    /// without mistakes, row for row, and a game with one is that game up to the first chombo.
    /// Without mistakes `chombo_penalty` changes nothing.
    #[test]
    fn games_without_a_chombo_are_the_games_without_mistakes() {
        let lineup = [Knobs::default(), Knobs { fold: true, ..Knobs::default() }, random()];
        let base = rows(&rules(), &lineup, 0..500);
        let mistakes = rows(&Rules { mistake_rate: 0.005, ..rules() }, &lineup, 0..500);
        let (mut clean, mut prefixes) = (0, 0);
        for g in &base.games {
            let hands = |out: &Rows3| -> Vec<HandRow> { out.hands.iter().filter(|h| h.game == g.game).copied().collect() };
            let (b, m) = (hands(&base), hands(&mistakes));
            let first = m.iter().position(|h| h.outcome == Outcome::Chombo);
            match first {
                None => {
                    assert_eq!(b, m, "game {}", g.game);
                    assert_eq!(*g, mistakes.games[g.game as usize]);
                    clean += 1;
                }
                Some(i) => {
                    assert_eq!(b[..i], m[..i], "game {}", g.game);
                    prefixes += usize::from(i > 0);
                }
            }
        }
        assert!(clean > 100 && prefixes > 100, "{clean} games without a chombo, {prefixes} with hands before one");
        let penalty = rows(&Rules { chombo_penalty: 9, ..rules() }, &lineup, 0..500);
        assert!(penalty.hands == base.hands && penalty.players == base.players && penalty.games == base.games);
    }

    /// With and without mistake injection (which must give chombos to check anything).
    #[test]
    fn same_seed_same_tables_whatever_the_chunking() {
        let lineup = [Knobs::default(), random(), Knobs { fold: true, ..Knobs::default() }];
        for rules in [rules(), Rules { mistake_rate: 0.02, ..rules() }] {
            let whole = play(&rules, &lineup, &Batch { seed: 9, first_game: 0, count: 40, duplicate: false });
            let a = play(&rules, &lineup, &Batch { seed: 9, first_game: 0, count: 17, duplicate: false });
            let b = play(&rules, &lineup, &Batch { seed: 9, first_game: 17, count: 23, duplicate: false });
            for t in 0..3 {
                for c in &whole[t].columns {
                    let joined: Vec<u8> = [&a[t], &b[t]].iter().flat_map(|x| x.column(c.name).unwrap().data.clone()).collect();
                    assert_eq!(c.data, joined, "{}.{}", whole[t].name, c.name);
                }
            }
            let bust = column(&whole[0], "bust", 1, |b| b[0] != 0);
            assert!(bust.len() == 40);
            let chombos: u32 = column(&whole[0], "chombos", 2, |b| u32::from(u16::from_le_bytes([b[0], b[1]]))).iter().sum();
            assert_eq!(chombos > 0, rules.mistake_rate > 0.0, "{chombos} chombos");
        }
    }
}

/// §12's shanten7 at 0 is exactly the shape tenpai of the engine's waits, over every 7-card
/// multiset; the one difference is kokushi waiting on a Joker not yet held, which A16 does not
/// count as tenpai but a strategy plays for (a drawn Joker is kept).
#[test]
fn shanten_zero_is_tenpai_for_every_seven_card_multiset() {
    use super::strategies::{kokushi_shanten, Table7};
    let table = Table7::get();
    for (c, _) in multisets(7) {
        let i = table.info(pack_counts(&c));
        assert_eq!(i.waits, waits(&c), "{c:?}");
        let kokushi_without_joker = i.kokushi == 0 && c[usize::from(JOKER)] == 0;
        assert_eq!(i.normal.min(i.kokushi) == 0, i.waits != 0 || kokushi_without_joker, "{c:?}");
        assert!(i.normal >= 0 && i.kokushi == kokushi_shanten(&c));
    }
    // Hand-worked: 1 2 4 7 T J K is 3 from a standard hand (two partials and no pair).
    assert_eq!(table.info(pack_counts(&counts("1247TJK"))).normal, 3);
    assert_eq!(table.info(pack_counts(&counts("1133557"))).normal, 0);
}
