//! The spec's test vectors (§10.4 F1–F10, §18 TV-1…TV-26 that concern one hand's value) and
//! hand-worked 高点法 cases.

use super::hand::{request, score, Limit, Score, ScoreError};
use super::rules::Rules;
use super::yaku::Yaku;
use serde_json::{json, Value};

fn sc(v: Value) -> Result<Score, ScoreError> {
    let (w, r) = request(&v, &Rules::default()).unwrap_or_else(|e| panic!("{v}: {e}"));
    score(&w, &r)
}

fn ok(v: Value) -> Score {
    sc(v.clone()).unwrap_or_else(|e| panic!("{v}: {e}"))
}

fn with(mut base: Value, extra: Value) -> Value {
    for (k, x) in extra.as_object().unwrap() {
        base[k] = x.clone();
    }
    base
}

fn names(s: &Score) -> Vec<&'static str> {
    Yaku::from_mask(s.yaku_mask).map(Yaku::name).collect()
}

fn tv1() -> Value {
    json!({"hand": "23567m345p678s22p", "win": "4m", "seat_wind": "S"})
}

#[test]
fn tv1_pinfu_tanyao_and_the_cheap_end() {
    let s = ok(tv1());
    assert_eq!((s.han, s.fu, s.points), (2, 30, 2000));
    assert_eq!(names(&s), ["pinfu", "tanyao"]);
    let s = ok(with(tv1(), json!({"win": "1m"})));
    assert_eq!((s.han, s.fu, s.points), (1, 30, 1000), "TV-1b");
}

#[test]
fn tv2_tv3_riichi_tsumo() {
    let s = ok(with(tv1(), json!({"riichi": true, "tsumo": true})));
    assert_eq!((s.han, s.fu, s.points), (4, 20, 5200), "F1: pinfu tsumo is 20 fu");
    assert_eq!((s.payments.tsumo_non_dealer, s.payments.tsumo_dealer), (1300, 2600));
    let s = ok(with(tv1(), json!({"riichi": true, "tsumo": true, "seat_wind": "E"})));
    assert_eq!((s.points, s.payments.tsumo_non_dealer), (7800, 2600));
    let s = ok(with(tv1(), json!({"win": "1m", "riichi": true, "tsumo": true, "ippatsu": true, "dora": "4m", "ura": "7s"})));
    assert_eq!((s.han, s.limit, s.dora, s.ura), (6, Limit::Haneman, 1, 1));
    assert_eq!((s.payments.tsumo_non_dealer, s.payments.tsumo_dealer), (3000, 6000), "TV-3");
}

#[test]
fn tv4_chiitoitsu() {
    let hand = json!({"hand": "11m44p77s22z55z99s3m", "win": "3m", "seat_wind": "S"});
    let s = ok(hand.clone());
    assert_eq!((s.han, s.fu, s.points), (2, 25, 1600), "F3");
    assert_eq!(ok(with(hand.clone(), json!({"seat_wind": "E"}))).points, 2400);
    let s = ok(with(hand.clone(), json!({"riichi": true, "tsumo": true})));
    assert_eq!((s.han, s.fu, s.payments.tsumo_non_dealer, s.payments.tsumo_dealer), (4, 25, 1600, 3200), "TV-4b");
    let s = ok(with(hand, json!({"riichi": true, "tsumo": true, "seat_wind": "E"})));
    assert_eq!(s.payments.tsumo_non_dealer, 3200);
}

#[test]
fn f4_tv5_riichi_only_50_fu() {
    let s = ok(json!({"hand": "111m46p234s678s22z", "win": "5p", "seat_wind": "S", "riichi": true}));
    assert_eq!((s.han, s.fu, s.points), (1, 50, 1600));
}

#[test]
fn f5_f6_tv6_open_yakuhai() {
    let hand = json!({"hand": "567p789s8s", "win": "8s", "melds": ["pon:777z", "chi:234m"], "seat_wind": "S"});
    let s = ok(hand.clone());
    assert_eq!((s.han, s.fu, s.points), (1, 30, 1000));
    let s = ok(with(hand.clone(), json!({"tsumo": true})));
    assert_eq!((s.fu, s.payments.tsumo_non_dealer, s.payments.tsumo_dealer), (30, 300, 500), "F6: 28 → 30");
    // TV-9: the same hand as dealer.
    assert_eq!(ok(with(hand.clone(), json!({"seat_wind": "E"}))).payments.ron, 1500);
    assert_eq!(ok(with(hand.clone(), json!({"seat_wind": "E", "tsumo": true}))).payments.tsumo_non_dealer, 500);
    // TV-10: 3 han 30 fu with 2 honba.
    let s = ok(with(hand, json!({"tsumo": true, "dora": "4p6p", "honba": 2})));
    assert_eq!((s.han, s.fu), (3, 30));
    assert_eq!((s.payments.tsumo_non_dealer, s.payments.tsumo_dealer), (1200, 2200));
    let s = ok(with(tv1(), json!({"dora": "4m", "honba": 2})));
    assert_eq!((s.han, s.fu, s.points, s.payments.ron), (3, 30, 3900, 4500));
}

#[test]
fn f7_tv7_kuitan() {
    let hand = json!({"hand": "567p345s66s67p", "win": "5p", "melds": ["chi:234m"], "seat_wind": "S"});
    let s = ok(hand.clone());
    assert_eq!((s.han, s.fu, s.points), (1, 30, 1000));
    assert_eq!(names(&s), ["tanyao"]);
    let e = sc(with(hand, json!({"rule_overrides": {"kuitan": false}}))).unwrap_err();
    assert!(matches!(&e, ScoreError::NoWin(m) if m.starts_with("no yaku")), "{e}");
}

#[test]
fn f8_f9_tv8_tv25_shousangen_and_kiriage() {
    let hand = json!({"hand": "77z234p78m", "win": "6m", "melds": ["pon:555z", "pon:666z"], "seat_wind": "S"});
    let s = ok(hand.clone());
    assert_eq!((s.han, s.fu, s.points), (4, 30, 7700));
    assert_eq!(names(&s), ["yakuhai_haku", "yakuhai_hatsu", "shousangen"]);
    assert_eq!(ok(with(hand.clone(), json!({"rule_overrides": {"kiriage_mangan": true}}))).points, 8000);
    let s = ok(with(hand, json!({"tsumo": true})));
    assert_eq!((s.han, s.fu, s.payments.tsumo_non_dealer, s.payments.tsumo_dealer), (4, 40, 2000, 4000));
}

#[test]
fn f10_two_ankan_and_a_round_wind_pair() {
    let s = ok(json!({"hand": "234m567p1z", "win": "1z", "melds": ["ankan:9999s", "ankan:4444z"],
                      "seat_wind": "S", "riichi": true}));
    assert_eq!((s.han, s.fu, s.points), (1, 100, 3200));
}

#[test]
fn tv11_deposits_and_honba_go_to_the_winner() {
    let s = ok(with(tv1(), json!({"deposits": 3, "honba": 1})));
    assert_eq!((s.points, s.payments.ron, s.payments.received), (2000, 2300, 5300));
}

#[test]
fn tv12_yakuman_payments_and_doubles() {
    let dsg = json!({"hand": "555666777z234m1p", "win": "1p", "seat_wind": "S"});
    let s = ok(dsg.clone());
    assert_eq!((s.yakuman, s.points, s.limit), (1, 32000, Limit::Yakuman));
    assert_eq!(names(&s), ["daisangen"]);
    let s = ok(with(dsg.clone(), json!({"tsumo": true})));
    assert_eq!((s.payments.tsumo_non_dealer, s.payments.tsumo_dealer), (8000, 16000));
    assert_eq!(ok(with(dsg.clone(), json!({"seat_wind": "E"}))).points, 48000);
    assert_eq!(ok(with(dsg, json!({"seat_wind": "E", "tsumo": true}))).payments.tsumo_non_dealer, 16000);
    let k13 = json!({"hand": "19m19p19s1234567z", "win": "5z", "seat_wind": "S"});
    assert_eq!(ok(k13.clone()).points, 64000, "TV-12b");
    assert_eq!(ok(with(k13, json!({"rule_overrides": {"double_kokushi13": false}}))).points, 32000);
    let s = ok(json!({"hand": "555666777z2z", "win": "2z", "melds": ["pon:111z"], "seat_wind": "S"}));
    assert_eq!((s.yakuman, s.points), (2, 64000), "TV-12c: daisangen + tsuuiisou");
    let s = ok(
        json!({"hand": "555666777z2z", "win": "2z", "melds": ["pon:111z"], "seat_wind": "S", "rule_overrides": {"yakuman_stacking": false}}),
    );
    assert_eq!(s.points, 32000);
}

#[test]
fn tv16b_red_five_and_dora() {
    let s = ok(json!({"hand": "234m340p567p33s67s", "win": "8s", "seat_wind": "S", "dora": "4p"}));
    assert_eq!((s.dora, s.aka), (2, 1));
    let s = ok(json!({"hand": "234m340p567p33s67s", "win": "8s", "seat_wind": "S", "dora": "4p",
                      "rule_overrides": {"aka_dora": 0}}));
    assert_eq!((s.dora, s.aka), (2, 0));
}

#[test]
fn tv20_ryanhan_shibari() {
    let hand = json!({"hand": "111m46p234s678s22z", "win": "5p", "seat_wind": "S", "riichi": true, "dora": "9m9m",
                      "honba": 5, "rule_overrides": {"ryanhan_shibari": true}});
    let e = sc(hand.clone()).unwrap_err();
    assert!(e.to_string().contains("only 1 han of yaku; 2 required"), "{e}");
    assert!(sc(with(hand, json!({"honba": 4}))).is_ok());
}

#[test]
fn tv26_kazoe_yakuman() {
    let hand = json!({"hand": "1111223456789m", "win": "2m", "seat_wind": "S", "riichi": true, "dora": "9m"});
    let s = ok(hand.clone());
    assert_eq!((s.han, s.limit, s.points), (13, Limit::KazoeYakuman, 32000));
    let s = ok(with(hand, json!({"rule_overrides": {"kazoe_yakuman": false}})));
    assert_eq!((s.limit, s.points), (Limit::Sanbaiman, 24000));
}

#[test]
fn koutenhou_picks_the_reading_that_pays_most() {
    // Three triplets (sanankou, 50 fu) beat three identical sequences (iipeikou, 40 fu).
    let s = ok(json!({"hand": "222333444m678p9s", "win": "9s", "seat_wind": "S"}));
    assert_eq!((s.han, s.fu, s.points), (2, 50, 3200));
    assert_eq!(names(&s), ["sanankou"]);
    // Ryanpeikou beats seven pairs.
    let s = ok(json!({"hand": "223344m667788p5s", "win": "5s", "seat_wind": "S"}));
    assert_eq!(names(&s), ["tanyao", "ryanpeikou"]);
    assert_eq!(s.points, 8000);
    // Pinfu + iipeikou (a two-sided reading) beats the pair-wait reading.
    let s = ok(json!({"hand": "112233m456p789s5p", "win": "5p", "seat_wind": "S", "riichi": true}));
    assert!(names(&s).contains(&"iipeikou"));
    // A triplet completed by ron is open: tsumo sanankou, ron toitoi only... shanpon.
    let s = ok(json!({"hand": "111m222p333s44z55z", "win": "5z", "seat_wind": "S", "tsumo": true}));
    assert_eq!(s.yaku(&Rules::default()), [(Yaku::Suuankou, 1)]);
    let s = ok(json!({"hand": "111m222p333s44z55z", "win": "5z", "seat_wind": "S"}));
    assert_eq!(names(&s), ["yakuhai_haku", "toitoi", "sanankou"]);
}

#[test]
fn errors_say_why() {
    let e = sc(json!({"hand": "123m456p789s1234z", "win": "5z"})).unwrap_err();
    assert!(e.to_string().starts_with("not a complete hand"), "{e}");
    let e = sc(json!({"hand": "567p789s8s", "win": "8s", "melds": ["pon:777z", "chi:234m"], "riichi": true})).unwrap_err();
    assert!(matches!(&e, ScoreError::Input(o) if o.field == "riichi"), "{e}");
    let e = sc(json!({"hand": "11111m456p789s11z", "win": "1z"})).unwrap_err();
    assert!(matches!(&e, ScoreError::Input(o) if o.field == "hand"), "{e}");
    assert!(request(&json!({"hand": "1m", "win": "1m", "tsumoo": true}), &Rules::default()).is_err());
}

#[test]
fn atozuke_off_rejects_kataagari() {
    // 23m waits on 1m (no tanyao) and 4m (tanyao) in an open hand.
    let hand = json!({"hand": "23m567p345s66s", "win": "4m", "melds": ["chi:678p"], "seat_wind": "S"});
    assert_eq!(ok(hand.clone()).points, 1000);
    let e = sc(with(hand, json!({"rule_overrides": {"atozuke": false}}))).unwrap_err();
    assert!(e.to_string().contains("1m"), "{e}");
}

#[test]
fn kansaki_needs_the_first_call_in_a_yaku() {
    let rules = json!({"atozuke": false, "kansaki": true});
    let chi_first = json!({"hand": "567p789s8s", "win": "8s", "melds": ["chi:234m", "pon:777z"], "seat_wind": "S",
                           "rule_overrides": rules});
    let e = sc(chi_first.clone()).unwrap_err();
    assert!(e.to_string().contains("first call"), "{e}");
    assert_eq!(ok(with(chi_first, json!({"melds": ["pon:777z", "chi:234m"]}))).points, 1000);
}

#[test]
fn local_and_counting_rules() {
    // 大車輪 (off by default: ryanpeikou + chinitsu + tanyao + pinfu-free reading).
    let hand = json!({"hand": "2233445566778p8p", "win": "8p", "seat_wind": "S"});
    let s = ok(hand.clone());
    assert_eq!((s.yakuman, s.limit), (0, Limit::Sanbaiman), "{:?}", names(&s));
    let s = ok(with(hand, json!({"rule_overrides": {"local_yaku": ["daisharin"]}})));
    assert_eq!((names(&s), s.points), (vec!["daisharin"], 32000));
    // 加賀百万石: 34m 999m 888m 789m 77m sums to 96; 5m makes 101 (yakuman), 2m 98 (chinitsu only).
    let kaga = json!({"rule_overrides": {"local_yaku": ["kaga_hyakumangoku"]}});
    let hand = json!({"hand": "34m999m888m789m77m", "win": "5m", "seat_wind": "S"});
    assert_eq!(ok(hand.clone()).yakuman, 0);
    let s = ok(with(hand.clone(), kaga.clone()));
    assert_eq!((names(&s), s.points), (vec!["kaga_hyakumangoku"], 32000));
    let s = ok(with(with(hand, json!({"win": "2m"})), kaga.clone()));
    assert_eq!((s.yakuman, names(&s).contains(&"chinitsu")), (0, true));
    // The same shape in pinzu is only chinitsu.
    assert_eq!(ok(with(json!({"hand": "34p999p888p789p77p", "win": "5p", "seat_wind": "S"}), kaga.clone())).yakuman, 0);
    // Honitsu counts; a kan counts four tiles: 9999 + 8888 + 777 + 456 = 104 with a 東 pair, but with
    // two pons instead of the kans 87.
    let open = json!({"hand": "56m11z", "win": "4m", "seat_wind": "S", "melds": ["kan:9999m@1", "kan:8888m@2", "pon:777m@3"]});
    let s = ok(with(open.clone(), kaga.clone()));
    assert_eq!((names(&s), s.points), (vec!["kaga_hyakumangoku"], 32000));
    let pons = with(open, json!({"melds": ["pon:999m@1", "pon:888m@2", "pon:777m@3"]}));
    assert_eq!(ok(with(pons, kaga)).yakuman, 0);
    // Open riichi: one han on top of riichi (TV-2 tsumo: riichi, open, tsumo, pinfu, tanyao = 5 han
    // → mangan 2000/4000) and of double riichi (TV-1 ron: 2 + 1 + pinfu + tanyao = 5 han → 8000);
    // without the local yaku the flag adds nothing (TV-2: 1300/2600; 4 han 30 fu: 7700).
    let open = json!({"rule_overrides": {"local_yaku": ["open_riichi"]}});
    let tv2 = with(tv1(), json!({"riichi": true, "tsumo": true, "open_riichi": true}));
    let s = ok(with(tv2.clone(), open.clone()));
    assert_eq!((s.han, s.points, names(&s)), (5, 8000, vec!["riichi", "menzen_tsumo", "pinfu", "tanyao", "open_riichi"]));
    assert_eq!(ok(tv2).points, 5200);
    let double = with(tv1(), json!({"double_riichi": true, "open_riichi": true}));
    assert_eq!((ok(with(double.clone(), open.clone())).han, ok(double).points), (5, 7700));
    let e = sc(with(tv1(), json!({"open_riichi": true}))).unwrap_err();
    assert!(e.to_string().contains("open riichi needs riichi"), "{e}");
    // Yakuman as 13 han: daisangen 13 + three dragons 3 + sanankou 2 + dora 1 → kazoe yakuman.
    let dsg = json!({"hand": "555666777z234m1p", "win": "1p", "seat_wind": "S", "dora": "1m",
                     "rule_overrides": {"yakuman_as_13_han": true}});
    let s = ok(dsg);
    assert_eq!((s.han, s.yakuman, s.limit, s.points), (19, 0, Limit::KazoeYakuman, 32000));
    // Double wind pair: 4 fu by default, 2 under the option (EMA-style).
    let pair = json!({"hand": "222m567p678s345s1z", "win": "1z", "seat_wind": "E", "tsumo": true});
    assert_eq!(ok(pair.clone()).fu, 40, "20 + 2 + 4 + 4 + 2 = 32 → 40");
    assert_eq!(ok(with(pair, json!({"rule_overrides": {"double_wind_pair_fu": 2}}))).fu, 30, "30");
    // Seven pairs as 1 han 50 fu.
    let s = ok(json!({"hand": "11m44p77s22z55z99s3m", "win": "3m", "seat_wind": "S",
                      "rule_overrides": {"chiitoitsu_fu": "50fu_1han"}}));
    assert_eq!((s.han, s.fu, s.points), (1, 50, 1600));
}

#[test]
fn nukidora_count_as_dora_not_as_yaku() {
    let s = ok(with(tv1(), json!({"nukidora": 2})));
    assert_eq!((s.han, s.nuki, s.points), (4, 2, 7700));
    let e = sc(json!({"hand": "123m456p789s1122z", "win": "2z", "nukidora": 3})).unwrap_err();
    assert!(e.to_string().starts_with("no yaku"), "{e}");
}

/// §14 E, hand-worked with three players: 1 han 30 fu (basic 240) and a mangan (basic 2000) by
/// tsumo under each payment method. `(dealer pays, other non-dealer pays, total)` for a non-dealer
/// win, `(each non-dealer pays, total)` for a dealer win.
#[test]
fn sanma_tsumo_payment_methods() {
    use super::hand::payments;
    let rules = |method: &str| super::rules::resolve("sanma", &json!({"sanma_tsumo": method})).unwrap();
    let non_dealer = |r: &Rules, basic: u32| {
        let (points, p) = payments(basic, false, true, 0, 0, r);
        (p.tsumo_dealer, p.tsumo_non_dealer, points)
    };
    let dealer = |r: &Rules, basic: u32| {
        let (points, p) = payments(basic, true, true, 0, 0, r);
        (p.tsumo_non_dealer, points)
    };
    // ツモ損: the 4-player shares without North's: 500/300 and 500 all.
    let r = rules("tsumo_son");
    assert_eq!(non_dealer(&r, 240), (500, 300, 800));
    assert_eq!(dealer(&r, 240), (500, 1000));
    assert_eq!(non_dealer(&r, 2000), (4000, 2000, 6000));
    assert_eq!(dealer(&r, 2000), (4000, 8000));
    // 千点加符: +1000 from each payer.
    let r = rules("senten_kafu");
    assert_eq!(non_dealer(&r, 240), (1500, 1300, 2800));
    assert_eq!(dealer(&r, 240), (1500, 3000));
    assert_eq!(non_dealer(&r, 2000), (5000, 3000, 8000));
    // 折半: North's share halved and rounded to 100 (300/2 = 150 → 200; 500/2 = 250 → 300).
    let r = rules("seppan");
    assert_eq!(non_dealer(&r, 240), (700, 500, 1200));
    assert_eq!(dealer(&r, 240), (800, 1600));
    assert_eq!(non_dealer(&r, 2000), (5000, 3000, 8000));
    assert_eq!(dealer(&r, 2000), (6000, 12000));
    // 丸取り: the ron value split 2:1 (non-dealer win) or 1:1 (dealer win), each rounded to 100:
    // 1000 → 667/333 → 700/300; 1500 → 750 → 800 each; 8000 → 5333/2667 → 5300/2700.
    let r = rules("marudori");
    assert_eq!(non_dealer(&r, 240), (700, 300, 1000));
    assert_eq!(dealer(&r, 240), (800, 1600));
    assert_eq!(non_dealer(&r, 2000), (5300, 2700, 8000));
    assert_eq!(dealer(&r, 2000), (6000, 12000));
    // Honba: a third of 300 per payer (ツモ損), half of it where North's share is redistributed.
    assert_eq!(payments(240, false, true, 2, 1, &rules("tsumo_son")).1.received, 800 + 400 + 1000);
    assert_eq!(payments(240, false, true, 2, 0, &rules("marudori")).1.tsumo_dealer, 700 + 300);
    // Tenhou (as in its record 2014091101gm-00b9-0000-5ca6b487, East 1-3): honba 200, 100 from each
    // tsumo payer, 200 per honba on a ron. A mangan tsumo at 3 honba: 4000 + 300 and 2000 + 300.
    let tenhou = super::rules::resolve("tenhou_sanma", &json!({})).unwrap();
    let (_, p) = payments(2000, false, true, 3, 1, &tenhou);
    assert_eq!((p.tsumo_dealer, p.tsumo_non_dealer, p.received), (4300, 2300, 6000 + 600 + 1000));
    assert_eq!(payments(2000, false, false, 3, 0, &tenhou).1.ron, 8000 + 600);
    // Four players unchanged: 300/500.
    assert_eq!(non_dealer(&Rules::default(), 240), (500, 300, 1100));
}

/// A whole sanma hand through the evaluator: menzen tsumo 1 han 30 fu (closed 999m triplet), and
/// TV-16's sanma successor: a 1m indicator makes 9m the dora.
#[test]
fn sanma_hand_and_1m_indicator() {
    let hand = json!({"hand": "23p456p789s999m55s", "win": "1p", "tsumo": true, "seat_wind": "S",
                      "rule_overrides": {"players": 3, "sanma_tsumo": "seppan"}});
    let s = ok(hand.clone());
    assert_eq!((s.han, s.fu, s.points), (1, 30, 1200));
    assert_eq!((s.payments.tsumo_dealer, s.payments.tsumo_non_dealer), (700, 500));
    let s = ok(with(hand.clone(), json!({"dora": "1m"})));
    assert_eq!((s.dora, s.han), (3, 4));
    // With four players the same indicator points at 2m.
    let four = with(hand, json!({"dora": "1m", "rule_overrides": {}}));
    assert_eq!(ok(four).dora, 0);
}

/// The all-flowers yaku (rule `flower_all_yaku_han`) counts as yaku han: it lets a hand without
/// another yaku win and adds its han; nukidora alone never does.
#[test]
fn all_flowers_yaku_counts_toward_min_han() {
    let v = json!({"hand": "123m456p789s1122z", "win": "2z", "nukidora": 4});
    let (mut w, r) = super::hand::request(&v, &Rules::default()).unwrap();
    assert!(score(&w, &r).is_err());
    w.flower_yaku = 2;
    let s = score(&w, &r).unwrap();
    assert_eq!((s.han, s.nuki, names(&s)), (6, 4, vec!["all_flowers"]));
}

/// §14 B `sanma_north`: under `shared_wind` a North set is 1 han for everyone and a North pair is a
/// value pair (2 fu, no pinfu); under `guest_wind` North is no one's value tile.
#[test]
fn sanma_north_shared_and_guest_wind() {
    let rules = |north: &str| json!({"players": 3, "sanma_north": north});
    let triplet = json!({"hand": "123p456p78s444z55s", "win": "9s", "seat_wind": "S"});
    let s = ok(with(triplet.clone(), json!({"rule_overrides": rules("shared_wind")})));
    assert_eq!((s.han, s.fu, s.points), (1, 40, 1300), "30 + 8 (closed honor triplet) → 40 fu");
    assert_eq!(names(&s), vec!["yakuhai_north"]);
    let e = sc(with(triplet, json!({"rule_overrides": rules("guest_wind")}))).unwrap_err();
    assert!(e.to_string().starts_with("no yaku"), "{e}");
    let pair = json!({"hand": "123p456p789s23s44z", "win": "1s", "seat_wind": "S"});
    let s = ok(with(pair.clone(), json!({"rule_overrides": rules("guest_wind")})));
    assert_eq!((names(&s), s.fu, s.points), (vec!["pinfu"], 30, 1000));
    let e = sc(with(pair.clone(), json!({"rule_overrides": rules("shared_wind")}))).unwrap_err();
    assert!(e.to_string().starts_with("no yaku"), "{e}");
    let s = ok(with(pair, json!({"rule_overrides": rules("shared_wind"), "tsumo": true, "riichi": true})));
    assert_eq!((names(&s), s.fu), (vec!["riichi", "menzen_tsumo"], 30), "20 + 2 tsumo + 2 value pair → 30");
}
