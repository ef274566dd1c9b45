//! Cards, payments (§6.6), settlement (§8) and the `score trump` command's report; the value of a
//! winning hand is in `hand.rs`.
//!
//! Suits are ignored (A1), so a hand is a count per kind: ranks 1-9 (kinds 0-8), the winds
//! T J Q K (kinds 9-12) and the Joker (kind 13). Every function on cards works on those counts,
//! which is also what the exact enumeration in `tests.rs` walks.

use super::hand::{ron, tsumo, Riichi, Situation, Yaku, YAKU};
use super::rules::Rules;
use crate::options::OptionError;

/// Kinds: 13 ranks and the Joker.
pub const KINDS: usize = 14;
pub const JOKER: u8 = 13;
/// The 54 cards: ids 0-51 are 4 copies of each rank, 52 and 53 the Jokers.
pub const CARDS: usize = 54;
pub const PLAYERS: usize = 3;
/// The winds: East = T (10), South = J, West = Q, North = K.
pub const EAST: u8 = 9;
pub const NORTH: u8 = 12;

pub type Counts = [u8; KINDS];

/// One physical card.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Card(pub u8);

impl Card {
    pub fn kind(self) -> u8 {
        if self.0 >= 52 {
            JOKER
        } else {
            self.0 / 4
        }
    }
}

/// The spec's notation of a kind: `1`-`9`, `T`, `J`, `Q`, `K`, `X`.
pub fn kind_name(kind: u8) -> char {
    b"123456789TJQKX"[usize::from(kind)] as char
}

pub fn is_terminal(kind: u8) -> bool {
    kind == 0 || kind == 8
}

pub fn is_honour(kind: u8) -> bool {
    (EAST..=NORTH).contains(&kind)
}

/// Kinds of kokushi: 1, 9, the four winds and the Joker.
pub const KOKUSHI: [u8; 7] = [0, 8, 9, 10, 11, 12, JOKER];

/// Copies of a kind in the deck.
pub fn copies(kind: u8) -> u8 {
    if kind == JOKER {
        2
    } else {
        4
    }
}

/// The dora from its indicator: the next rank within 1-9 or within T-K (§6.3). A Joker never
/// indicates (A4: the game replaces it).
pub fn dora_of(indicator: u8) -> Option<u8> {
    match indicator {
        0..=7 => Some(indicator + 1),
        8 => Some(0),
        9..=11 => Some(indicator + 1),
        12 => Some(EAST),
        _ => None,
    }
}

/// Parses cards in the spec's notation run together (`1123TTX`); `field` names the input in errors.
pub fn parse_kinds(field: &str, text: &str) -> Result<Vec<u8>, OptionError> {
    text.chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| {
            "123456789TJQKX"
                .find(c.to_ascii_uppercase())
                .map(|k| k as u8)
                .ok_or_else(|| OptionError::new(field, format!("unknown card '{c}' in \"{text}\"; expected 1-9, T, J, Q, K or X (Joker)")))
        })
        .collect()
}

/// Counts packed 4 bits per kind (kind 0 in the low bits): adding a card of kind `k` adds `1 << 4k`.
/// Every count is below 16. Eight counts at a time are folded into nibbles in three steps rather
/// than one shift per kind: the engine packs at every draw, discard and ron window.
pub fn pack_counts(c: &Counts) -> u64 {
    fn nibbles(bytes: [u8; 8]) -> u64 {
        let x = u64::from_le_bytes(bytes);
        let x = (x | x >> 4) & 0x00FF_00FF_00FF_00FF;
        let x = (x | x >> 8) & 0x0000_FFFF_0000_FFFF;
        (x | x >> 16) & 0xFFFF_FFFF
    }
    let (mut low, mut high) = ([0u8; 8], [0u8; 8]);
    low.copy_from_slice(&c[..8]);
    high[..KINDS - 8].copy_from_slice(&c[8..]);
    nibbles(low) | nibbles(high) << 32
}

/// Total cards of `c`.
pub fn total(c: &Counts) -> usize {
    c.iter().map(|&n| usize::from(n)).sum()
}

/// Payments of a win of table value `p` (§6.6), as (payer seat, amount) with the winner's total.
/// Children pay half of the dealer's due, rounded up; the dealer pays `multiplier / 2` times the
/// child's due on a child's tsumo (P with the source's ×2).
pub fn payments(p: u16, winner: usize, dealer: usize, discarder: Option<usize>, rules: &Rules) -> [i64; PLAYERS] {
    let p = i64::from(p);
    let m = i64::from(rules.dealer_multiplier);
    let mut out = [0i64; PLAYERS];
    match discarder {
        Some(d) => out[d] = if winner == dealer { m * p } else { p },
        None => {
            for (seat, o) in out.iter_mut().enumerate() {
                if seat == winner {
                    continue;
                }
                *o = if winner == dealer || seat == dealer { (m * p + 1) / 2 } else { (p + 1) / 2 };
            }
        }
    }
    out
}

/// Final scores (§8): non-top players `points − return`, the top the negated sum of the others
/// (zero-sum); ties for top go to the first in seat order from the first dealer (A17).
pub fn settle(points: &[i64; PLAYERS], first_dealer: usize, rules: &Rules) -> [i64; PLAYERS] {
    let order = |s: usize| (s + PLAYERS - first_dealer) % PLAYERS;
    let top = (0..PLAYERS).max_by(|&a, &b| points[a].cmp(&points[b]).then(order(b).cmp(&order(a)))).unwrap_or(0);
    let mut out = [0i64; PLAYERS];
    for s in 0..PLAYERS {
        if s != top {
            out[s] = points[s] - i64::from(rules.return_points);
        }
    }
    out[top] = -out.iter().sum::<i64>();
    out
}

/// One hand to score, as the `score trump` command takes it.
#[derive(Debug, Clone, Default)]
pub struct Query<'a> {
    /// The 7 held cards (`X` for a kept Joker).
    pub hand: &'a str,
    pub win: &'a str,
    pub ron: bool,
    pub riichi: bool,
    pub double_riichi: bool,
    pub ippatsu: bool,
    pub first_turn: bool,
    pub dealer: bool,
    /// `T`, `J` or `Q`; default `J` (South), or `T` for the dealer.
    pub seat_wind: Option<&'a str>,
    /// `T`, `J` or `Q`; default `T` (East round).
    pub round_wind: Option<&'a str>,
    pub indicator: Option<&'a str>,
    pub ura_indicator: Option<&'a str>,
    /// Jokers set aside (0-2; wider here so that a wrong count is reported, not wrapped).
    pub jokers: i64,
    /// Kinds in the player's own discards (furiten).
    pub discards: &'a str,
}

fn one_kind(field: &str, text: &str) -> Result<u8, OptionError> {
    match parse_kinds(field, text)?[..] {
        [k] => Ok(k),
        _ => Err(OptionError::new(field, format!("expected one card, got \"{text}\""))),
    }
}

fn wind(field: &str, text: Option<&str>, default: u8) -> Result<u8, OptionError> {
    let Some(text) = text else { return Ok(default) };
    let k = one_kind(field, text)?;
    if !(EAST..=EAST + 2).contains(&k) {
        return Err(OptionError::new(field, format!("expected T, J or Q (K is never a seat or round wind), got \"{text}\"")));
    }
    Ok(k)
}

fn indicator(field: &str, text: Option<&str>) -> Result<Option<u8>, OptionError> {
    let Some(text) = text else { return Ok(None) };
    let k = one_kind(field, text)?;
    if k == JOKER {
        return Err(OptionError::new(
            field,
            "a Joker never indicates (A4: the next dead-wall card is turned instead); expected 1-9, T, J, Q or K",
        ));
    }
    Ok(Some(k))
}

/// The held cards and the situation of `q`, checked: 7 cards, one winning card, at most 4 copies of
/// a rank and 2 Jokers over the hand, the win, the set-aside Jokers, the indicators and the own
/// discards, and no situation the game cannot reach (a field `a+b` names the inputs that clash).
pub fn parse_query(q: &Query, rules: &Rules) -> Result<(Counts, Situation, u16), OptionError> {
    let cards = parse_kinds("hand", q.hand)?;
    if cards.len() != 7 {
        return Err(OptionError::new("hand", format!("expected 7 cards, got {} in \"{}\"", cards.len(), q.hand)));
    }
    let win = one_kind("win", q.win)?;
    let mut held = [0u8; KINDS];
    for &k in &cards {
        held[usize::from(k)] += 1;
    }
    let (dora_ind, ura_ind) = (indicator("indicator", q.indicator)?, indicator("ura_indicator", q.ura_indicator)?);
    let discarded = parse_kinds("discards", q.discards)?;
    let jokers = u8::try_from(q.jokers)
        .ok()
        .filter(|&n| n <= copies(JOKER))
        .ok_or_else(|| OptionError::new("jokers", format!("expected 0 to 2 Jokers set aside, got {}", q.jokers)))?;
    let mut all = held;
    all[usize::from(win)] += 1;
    all[usize::from(JOKER)] += jokers;
    for k in dora_ind.iter().chain(&ura_ind) {
        all[usize::from(*k)] += 1;
    }
    too_many("hand", &all, "hand, win, set-aside and indicators")?;
    for &k in &discarded {
        all[usize::from(k)] += 1;
    }
    too_many("discards", &all, "hand, win, set-aside, indicators and own discards")?;
    let joker_in = [("hand", held[usize::from(JOKER)] > 0), ("win", win == JOKER), ("discards", discarded.contains(&JOKER))];
    if let Some((field, _)) = joker_in.into_iter().find(|&(_, joker)| joker && !rules.joker_keep_allowed) {
        return Err(OptionError::new(
            field,
            "a Joker (X) here, but with joker_keep_allowed off every Joker is set aside as it comes (§4.3), \
             so none is held, discarded or won on; set-aside Jokers are counted by jokers",
        ));
    }
    let riichi = match (q.riichi, q.double_riichi) {
        (_, true) => Riichi::Double,
        (true, false) => Riichi::Single,
        _ => Riichi::None,
    };
    if q.ippatsu && riichi == Riichi::None {
        return Err(OptionError::new(
            "ippatsu",
            "ippatsu is a win within one go-around of a riichi declaration, so it needs riichi or double_riichi",
        ));
    }
    if q.ura_indicator.is_some() && riichi == Riichi::None {
        return Err(OptionError::new("ura_indicator", "ura-dora is turned only for a riichi winner"));
    }
    if q.first_turn {
        // A first-turn win is a tsumo on the first draw (tenhou, chiihou) or a ron before it
        // (renhou, §6.1 #16): the winner has not discarded yet.
        match riichi {
            Riichi::Single => {
                return Err(OptionError::new(
                    "riichi+first_turn",
                    "riichi is declared with a discard, and a first-turn win comes before the winner's first discard",
                ))
            }
            Riichi::Double => {
                return Err(OptionError::new(
                    "double_riichi+first_turn",
                    "double riichi is declared with the discard after the first draw, so the win comes after the first turn",
                ))
            }
            Riichi::None => {}
        }
        if q.ron && q.dealer {
            return Err(OptionError::new(
                "ron+dealer+first_turn",
                "renhou is a ron before the winner's first draw, but the dealer draws first, so no discard comes before it \
                 (the dealer's first-turn win is tenhou, a tsumo)",
            ));
        }
        if !discarded.is_empty() {
            return Err(OptionError::new("discards+first_turn", "a first-turn win comes before the winner's first discard"));
        }
    }
    let seat_wind = wind("seat_wind", q.seat_wind, if q.dealer { EAST } else { EAST + 1 })?;
    if q.dealer != (seat_wind == EAST) {
        return Err(OptionError::new("seat_wind", "the dealer sits East (T) and only the dealer does"));
    }
    let s = Situation {
        win,
        tsumo: !q.ron,
        riichi,
        ippatsu: q.ippatsu,
        first_turn: q.first_turn,
        dealer: q.dealer,
        seat_wind,
        round_wind: wind("round_wind", q.round_wind, EAST)?,
        dora: dora_ind.and_then(dora_of),
        ura: ura_ind.and_then(dora_of),
        jokers_aside: jokers,
    };
    let discards = discarded.into_iter().fold(0u16, |m, k| m | 1 << k);
    Ok((held, s, discards))
}

/// More cards of a kind in `all` than the deck has, as an error on `field` (`counted` says which
/// cards `all` holds).
fn too_many(field: &str, all: &Counts, counted: &str) -> Result<(), OptionError> {
    match (0..KINDS as u8).find(|&k| all[usize::from(k)] > copies(k)) {
        None => Ok(()),
        Some(k) => {
            let what = if k == JOKER { "Jokers".to_string() } else { format!("copies of {}", kind_name(k)) };
            Err(OptionError::new(field, format!("{} {what} ({counted}), but the deck has only {}", all[usize::from(k)], copies(k))))
        }
    }
}

/// The value of a win (or why it is not one) and its payments, as JSON: `legal`, `reason`, `han`,
/// `points` (P of §6.5), `yaku` (name, han), `dora`, `ura`, `jokers`, `reading` and `payments`
/// (`dealer`/`child`/`discarder` with amounts, and the winner's `total`).
pub fn score_report(q: &Query, rules: &Rules) -> Result<serde_json::Value, OptionError> {
    use serde_json::json;
    let (held, s, discards) = parse_query(q, rules)?;
    let result = if q.ron {
        ron(&held, &s, discards, rules)
    } else {
        let mut c = held;
        c[usize::from(s.win)] += 1;
        tsumo(&c, &s, rules)
    };
    let v = match result {
        Ok(v) => v,
        Err(e) => return Ok(json!({"legal": false, "reason": e.reason(), "han": 0, "points": 0, "yaku": [], "payments": {}})),
    };
    let yaku: Vec<_> = YAKU
        .iter()
        .filter(|y| v.yaku & y.bit() != 0)
        .map(|&y| {
            let name = match (y, s.tsumo, s.dealer) {
                (Yaku::Tenhou, false, _) => "renhou",
                (Yaku::Tenhou, true, false) => "chiihou",
                _ => y.name(),
            };
            json!({"name": name, "han": y.han(rules)})
        })
        .collect();
    // Seats: 0 the dealer, the winner 0 or 1, the discarder of a ron the dealer when the winner is a child.
    let (winner, discarder) = if s.dealer { (0, Some(1)) } else { (1, Some(0)) };
    let pay = payments(v.points, winner, 0, discarder.filter(|_| !s.tsumo), rules);
    let mut payments = serde_json::Map::new();
    if s.tsumo {
        if s.dealer {
            payments.insert("each_child".into(), pay[1].into());
        } else {
            payments.insert("dealer".into(), pay[0].into());
            payments.insert("other_child".into(), pay[2].into());
        }
    } else {
        payments.insert("discarder".into(), pay.iter().sum::<i64>().into());
    }
    payments.insert("total".into(), pay.iter().sum::<i64>().into());
    Ok(json!({
        "legal": true,
        "han": v.han,
        "points": v.points,
        "yaku": yaku,
        "yaku_han": v.yaku_han,
        "dora": v.dora,
        "ura": v.ura,
        "jokers": v.jokers,
        "reading": v.reading.notation(),
        "payments": payments,
    }))
}
