//! Cards, hand readings (§5), yaku and han (§6.1-§6.3), the points table (§6.5), payments (§6.6)
//! and settlement (§8).
//!
//! Suits are ignored (A1), so a hand is a count per kind: ranks 1-9 (kinds 0-8), the winds
//! T J Q K (kinds 9-12) and the Joker (kind 13). Every function here works on those counts, which
//! is also what the exact enumeration in `tests.rs` walks.

use super::rules::{DoubleRiichi, Rules};
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

/// A trio (§5.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Trio {
    /// Three of one rank.
    Triplet(u8),
    /// Three consecutive ranks within 1-9, from its lowest.
    Sequence(u8),
}

impl Trio {
    fn kinds(self) -> [u8; 3] {
        match self {
            Trio::Triplet(k) => [k; 3],
            Trio::Sequence(k) => [k, k + 1, k + 2],
        }
    }

    /// Holds a 1 or a 9.
    fn terminal(self) -> bool {
        self.kinds().into_iter().any(is_terminal)
    }

    /// Holds a 1, a 9 or an honour.
    fn outside(self) -> bool {
        self.kinds().into_iter().any(|k| is_terminal(k) || is_honour(k))
    }

    pub fn notation(self) -> String {
        self.kinds().into_iter().map(kind_name).collect()
    }
}

/// One way to read 8 cards as a win (§5).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reading {
    /// A pair and two trios.
    Standard { pair: u8, trios: [Trio; 2] },
    /// Four pairs of different ranks.
    FourPairs([u8; 4]),
    /// The seven kokushi kinds with `pair` doubled.
    Kokushi { pair: u8 },
}

impl Reading {
    pub fn notation(&self) -> String {
        let pair = |k: u8| format!("{0}{0}", kind_name(k));
        match *self {
            Reading::Standard { pair: p, trios } => format!("{} {} {}", pair(p), trios[0].notation(), trios[1].notation()),
            Reading::FourPairs(p) => p.map(pair).join(" "),
            Reading::Kokushi { pair: p } => {
                KOKUSHI.iter().map(|&k| if k == p { pair(k) } else { kind_name(k).to_string() }).collect::<Vec<_>>().join(" ")
            }
        }
    }
}

/// Every standard split of `c` (any count per rank, so a shape with a fifth copy is read too, as
/// A16's tenpai needs); a Joker in the counts rules the shape out.
fn standard(c: &Counts, out: &mut Vec<Reading>) {
    if c[usize::from(JOKER)] > 0 {
        return;
    }
    for pair in 0..13u8 {
        if c[usize::from(pair)] < 2 {
            continue;
        }
        let mut rest = *c;
        rest[usize::from(pair)] -= 2;
        two_trios(&mut rest, 0, &mut Trios { trios: [Trio::Triplet(0); 2], len: 0 }, &mut |t| {
            out.push(Reading::Standard { pair, trios: t })
        });
    }
}

/// The trios of a split in progress: at most two (6 cards), kept on the stack because every
/// reading of every wait of every hand goes through here.
struct Trios {
    trios: [Trio; 2],
    len: usize,
}

/// Splits `c` (6 cards) into trios, the lowest remaining rank first, calling `found` per split.
fn two_trios(c: &mut Counts, from: usize, trios: &mut Trios, found: &mut impl FnMut([Trio; 2])) {
    let Some(k) = (from..13).find(|&k| c[k] > 0) else {
        found(trios.trios);
        return;
    };
    if c[k] >= 3 {
        c[k] -= 3;
        trios.trios[trios.len] = Trio::Triplet(k as u8);
        trios.len += 1;
        two_trios(c, k, trios, found);
        trios.len -= 1;
        c[k] += 3;
    }
    if k <= 6 && c[k + 1] > 0 && c[k + 2] > 0 {
        c[k..k + 3].iter_mut().for_each(|n| *n -= 1);
        trios.trios[trios.len] = Trio::Sequence(k as u8);
        trios.len += 1;
        two_trios(c, k, trios, found);
        trios.len -= 1;
        c[k..k + 3].iter_mut().for_each(|n| *n += 1);
    }
}

/// Every reading of 8 cards (empty: not a winning shape).
pub fn readings(c: &Counts) -> Vec<Reading> {
    let mut out = Vec::new();
    standard(c, &mut out);
    if c[usize::from(JOKER)] == 0 && c.iter().all(|&n| n == 0 || n == 2) {
        let mut pairs = (0..13u8).filter(|&k| c[usize::from(k)] == 2);
        out.push(Reading::FourPairs(std::array::from_fn(|_| pairs.next().unwrap_or(0))));
    }
    let kokushi = KOKUSHI.iter().all(|&k| c[usize::from(k)] >= 1) && (0..13).all(|k| KOKUSHI.contains(&k) || c[usize::from(k)] == 0);
    if kokushi {
        if let Some(&pair) = KOKUSHI.iter().find(|&&k| c[usize::from(k)] == 2) {
            out.push(Reading::Kokushi { pair });
        }
    }
    out
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

/// The kinds that complete the 7 cards `c` into a winning shape (by shape only: a fifth copy of a
/// rank counts, A16), as a bit mask; a kokushi wait counts only with a Joker held (A16).
pub fn waits(c: &Counts) -> u16 {
    let mut mask = 0;
    for k in 0..KINDS as u8 {
        let mut d = *c;
        d[usize::from(k)] += 1;
        if d[usize::from(JOKER)] > 2 {
            continue;
        }
        let rs = readings(&d);
        let ok = rs.iter().any(|r| !matches!(r, Reading::Kokushi { .. }) || c[usize::from(JOKER)] > 0);
        if ok {
            mask |= 1 << k;
        }
    }
    mask
}

/// Yaku of §6.1 (and the bits of the `hands` table's `yaku` column: bit = the discriminant).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Yaku {
    Riichi = 0,
    Ippatsu,
    DoubleRiichi,
    Tsumo,
    SeatWind,
    RoundWind,
    Tanyao,
    Pinfu,
    Iipeikou,
    Chanta,
    Junchan,
    Toitoi,
    Honroutou,
    Suutoitsu,
    Chinitsu,
    Tsuiisou,
    Kokushi,
    /// Tenhou (dealer tsumo), chiihou (child tsumo) on the first draw, renhou (ron before it).
    Tenhou,
}

pub const YAKU: [Yaku; 18] = [
    Yaku::Riichi,
    Yaku::Ippatsu,
    Yaku::DoubleRiichi,
    Yaku::Tsumo,
    Yaku::SeatWind,
    Yaku::RoundWind,
    Yaku::Tanyao,
    Yaku::Pinfu,
    Yaku::Iipeikou,
    Yaku::Chanta,
    Yaku::Junchan,
    Yaku::Toitoi,
    Yaku::Honroutou,
    Yaku::Suutoitsu,
    Yaku::Chinitsu,
    Yaku::Tsuiisou,
    Yaku::Kokushi,
    Yaku::Tenhou,
];

impl Yaku {
    pub fn name(self) -> &'static str {
        [
            "riichi",
            "ippatsu",
            "double_riichi",
            "tsumo",
            "seat_wind",
            "round_wind",
            "tanyao",
            "pinfu",
            "iipeikou",
            "chanta",
            "junchan",
            "toitoi",
            "honroutou",
            "suutoitsu",
            "chinitsu",
            "tsuiisou",
            "kokushi",
            "tenhou",
        ][self as usize]
    }

    pub fn bit(self) -> u32 {
        1 << self as u32
    }

    pub fn han(self, rules: &Rules) -> u8 {
        match self {
            Yaku::DoubleRiichi if rules.double_riichi_stacks == DoubleRiichi::Add => 3,
            Yaku::DoubleRiichi | Yaku::Chanta | Yaku::Toitoi | Yaku::Honroutou | Yaku::Suutoitsu | Yaku::Chinitsu => 2,
            Yaku::Junchan => 3,
            Yaku::Tsuiisou | Yaku::Tenhou => 4,
            Yaku::Kokushi => 8,
            _ => 1,
        }
    }

    /// The hand yaku (#5-#15) that 完全先付け asks of every wait.
    pub fn is_hand_yaku(self) -> bool {
        (Yaku::SeatWind as u8..=Yaku::Kokushi as u8).contains(&(self as u8))
    }
}

/// Bits of the hand yaku (#5-#15).
pub const HAND_YAKU: u32 = {
    let mut m = 0;
    let mut i = Yaku::SeatWind as u32;
    while i <= Yaku::Kokushi as u32 {
        m |= 1 << i;
        i += 1;
    }
    m
};

/// Riichi state of the winner.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Riichi {
    #[default]
    None,
    Single,
    /// Declared on the first draw (§6.1 #3).
    Double,
}

/// The circumstances of a win, beyond the 8 cards.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Situation {
    /// The kind of the winning card.
    pub win: u8,
    pub tsumo: bool,
    pub riichi: Riichi,
    pub ippatsu: bool,
    /// Tsumo on one's first draw, or ron before it (#16).
    pub first_turn: bool,
    pub dealer: bool,
    pub seat_wind: u8,
    pub round_wind: u8,
    /// Dora kinds (from the indicator), and the ura-dora kind (counted with riichi only).
    pub dora: Option<u8>,
    pub ura: Option<u8>,
    /// Jokers set aside by the winner.
    pub jokers_aside: u8,
}

/// The value of one reading.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Value {
    pub reading: Reading,
    /// Bits of [`Yaku`].
    pub yaku: u32,
    pub yaku_han: u8,
    pub dora: u8,
    pub ura: u8,
    /// Jokers owned (set aside, plus held ones under `held_joker_han`).
    pub jokers: u8,
    pub han: u8,
    /// The table value P (§6.5), before the dealer's multiplier.
    pub points: u16,
}

/// The §6.5 table: han → points, with han above `cap` scored as `cap` (A14).
pub fn points_of(han: u8, cap: u8) -> u16 {
    match han.min(cap) {
        0 => 0,
        1 => 1,
        2 => 2,
        3 => 4,
        4..=5 => 8,
        6..=7 => 12,
        8..=10 => 16,
        11..=13 => 24,
        _ => 32,
    }
}

/// Whether the sequence `t` completed by the winning kind `w` was a two-sided wait (§6.2): the
/// partial `n, n+1` with ranks 2 ≤ n ≤ 7 (kinds 1-6) and `w` one outside it.
fn two_sided(t: Trio, w: u8) -> bool {
    match t {
        Trio::Sequence(s) => (w == s && (1..=6).contains(&(s + 1))) || (w == s + 2 && (1..=6).contains(&s)),
        Trio::Triplet(_) => false,
    }
}

/// The yaku of `reading` for the 8 cards `c`.
fn yaku_of(reading: &Reading, c: &Counts, s: &Situation, rules: &Rules) -> u32 {
    let mut y = 0u32;
    let mut add = |yaku: Yaku, on: bool| {
        if on {
            y |= yaku.bit();
        }
    };
    add(Yaku::Riichi, s.riichi == Riichi::Single);
    add(Yaku::DoubleRiichi, s.riichi == Riichi::Double);
    add(Yaku::Ippatsu, s.ippatsu && s.riichi != Riichi::None);
    add(Yaku::Tsumo, s.tsumo);
    add(Yaku::Tenhou, s.first_turn);
    let present = |f: fn(u8) -> bool| (0..KINDS as u8).filter(|&k| c[usize::from(k)] > 0).all(f);
    let has = |f: fn(u8) -> bool| (0..KINDS as u8).any(|k| c[usize::from(k)] > 0 && f(k));
    let shape_yaku = !matches!(reading, Reading::Kokushi { .. });
    add(Yaku::Tanyao, shape_yaku && present(|k| (1..=7).contains(&k)));
    add(Yaku::Chinitsu, rules.chinitsu && shape_yaku && present(|k| k <= 8));
    add(Yaku::Tsuiisou, shape_yaku && present(is_honour));
    match *reading {
        Reading::Standard { pair, trios } => {
            let value_wind = |k: u8| k == s.seat_wind || k == s.round_wind;
            for t in trios {
                if let Trio::Triplet(k) = t {
                    add(Yaku::SeatWind, k == s.seat_wind);
                    add(Yaku::RoundWind, k == s.round_wind);
                }
            }
            let sequences = trios.iter().all(|t| matches!(t, Trio::Sequence(_)));
            add(Yaku::Pinfu, sequences && !value_wind(pair) && trios.iter().any(|&t| two_sided(t, s.win)));
            add(Yaku::Iipeikou, sequences && trios[0] == trios[1]);
            let toitoi = trios.iter().all(|t| matches!(t, Trio::Triplet(_)));
            add(Yaku::Toitoi, toitoi);
            let has_terminal = has(is_terminal);
            let pair_terminal = is_terminal(pair);
            let junchan = !has(is_honour) && pair_terminal && trios.iter().all(|t| t.terminal());
            let chanta = has_terminal && (pair_terminal || is_honour(pair)) && trios.iter().all(|t| t.outside());
            add(Yaku::Junchan, junchan);
            add(Yaku::Chanta, chanta && !junchan);
            add(Yaku::Honroutou, toitoi && has_terminal && present(|k| is_terminal(k) || is_honour(k)));
        }
        Reading::FourPairs(_) => add(Yaku::Suutoitsu, true),
        Reading::Kokushi { .. } => add(Yaku::Kokushi, true),
    }
    y
}

/// The value of every reading of the 8 cards `c` won under `s`.
pub fn values(c: &Counts, s: &Situation, rules: &Rules) -> Vec<Value> {
    let count = |k: Option<u8>| k.map_or(0, |k| c[usize::from(k)]);
    let dora = count(s.dora);
    let ura = if s.riichi == Riichi::None { 0 } else { count(s.ura) };
    let held = if rules.held_joker_han { c[usize::from(JOKER)] } else { 0 };
    let jokers = s.jokers_aside + held;
    readings(c)
        .into_iter()
        .map(|reading| {
            let yaku = yaku_of(&reading, c, s, rules);
            let yaku_han: u8 = YAKU.iter().filter(|y| yaku & y.bit() != 0).map(|y| y.han(rules)).sum();
            let han = yaku_han + dora + ura + jokers;
            Value { reading, yaku, yaku_han, dora, ura, jokers, han, points: points_of(han, rules.han_cap) }
        })
        .collect()
}

/// The highest reading (§5.4: most han, then most points; the first found on a tie).
pub fn best(c: &Counts, s: &Situation, rules: &Rules) -> Option<Value> {
    values(c, s, rules).into_iter().reduce(|a, b| if (b.han, b.points) > (a.han, a.points) { b } else { a })
}

/// Why a completed hand may not be declared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Illegal {
    /// The 8 cards are no winning shape.
    Incomplete,
    /// Ron with no yaku and no riichi (§5.3).
    NoYaku,
    /// Ron on a discarded Joker completing kokushi (§4.3).
    JokerKokushi,
    /// Under 完全先付け a wait gives no hand yaku (§11).
    Sakizuke,
    /// A wait is in the player's own discards (furiten rule 1, §11).
    Furiten,
}

impl Illegal {
    pub fn reason(self) -> &'static str {
        match self {
            Illegal::Incomplete => "the 8 cards are not a winning shape (a pair and two trios, four pairs or kokushi)",
            Illegal::NoYaku => "a ron needs a yaku or riichi; dora and Jokers are not yaku",
            Illegal::JokerKokushi => "a discarded Joker cannot complete kokushi",
            Illegal::Sakizuke => "完全先付け: some wait gives no hand yaku, so ron needs riichi",
            Illegal::Furiten => "furiten: a wait is among the player's own discards",
        }
    }
}

/// Whether a ron on `win` by the 7 cards `held` may be declared (§5.3, furiten rule 1 and
/// 完全先付け of §11; the time-bound furiten rules are the game's), and its value. `discards` is
/// a bit per kind in the player's own discards.
pub fn ron(held: &Counts, s: &Situation, discards: u16, rules: &Rules) -> Result<Value, Illegal> {
    let mut c = *held;
    c[usize::from(s.win)] += 1;
    // With a Joker among the 8 only kokushi can be read (§5.1, §5.2).
    if s.win == JOKER {
        return Err(if readings(&c).is_empty() { Illegal::Incomplete } else { Illegal::JokerKokushi });
    }
    let v = best(&c, s, rules).ok_or(Illegal::Incomplete)?;
    if v.yaku == 0 {
        return Err(Illegal::NoYaku);
    }
    let wait = waits(held) & possible(held);
    if rules.furiten == super::rules::Furiten::Standard && wait & discards != 0 {
        return Err(Illegal::Furiten);
    }
    if rules.kanzen_sakizuke && s.riichi == Riichi::None && !every_wait_has_hand_yaku(held, wait, s, rules) {
        return Err(Illegal::Sakizuke);
    }
    Ok(v)
}

/// Kinds of which a copy could still come (fewer held than exist).
pub fn possible(held: &Counts) -> u16 {
    (0..KINDS as u8).filter(|&k| held[usize::from(k)] < copies(k)).fold(0, |m, k| m | 1 << k)
}

fn every_wait_has_hand_yaku(held: &Counts, wait: u16, s: &Situation, rules: &Rules) -> bool {
    (0..KINDS as u8).filter(|k| wait & (1 << k) != 0).all(|k| {
        let mut c = *held;
        c[usize::from(k)] += 1;
        let s = Situation { win: k, ..*s };
        values(&c, &s, rules).iter().any(|v| v.yaku & HAND_YAKU != 0)
    })
}

/// Whether a tsumo completing `c` (8 cards) may be declared: any winning shape (tsumo is a yaku).
pub fn tsumo(c: &Counts, s: &Situation, rules: &Rules) -> Result<Value, Illegal> {
    best(c, s, rules).ok_or(Illegal::Incomplete)
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
