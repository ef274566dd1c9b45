//! The value of a winning hand: its readings (§5), yaku and han (§6.1-§6.3), the points table
//! (§6.5), and whether a win may be declared (a ron's yaku, furiten rule 1 and 完全先付け, §5.3
//! and §11). Like every function on cards, these work on the counts per kind of `scoring.rs`.

use super::rules::{DoubleRiichi, Rules};
use super::scoring::{copies, is_honour, is_terminal, kind_name, Counts, JOKER, KINDS, KOKUSHI};

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
