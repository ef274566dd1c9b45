//! The value of a complete hand (spec §6): its sets' points, red tiles and dora, tanyao and
//! chanta, the yakuman of §6.3, the dealer bonus, and the minimum it is checked against.

use super::rules::Rules;
use super::scoring::{Shape, Tables, CHUN, HATSU, KINDS};

/// Yakuman of §6.3. At most one applies to a hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Yakuman {
    None = 0,
    AllGreen = 1,
    Chinyao = 2,
    SuperRed = 3,
}

impl Yakuman {
    /// The names by code, for the logged `yakuman` column's labels.
    pub const NAMES: [&'static str; 4] = ["none", "all_green", "chinyao", "super_red"];

    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }
}

/// Every part of a complete hand's value (§6.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Parts {
    pub shape: Shape,
    pub set_points: u16,
    /// Red bonus points (0 on a yakuman).
    pub red: u16,
    pub dora: u16,
    pub tanyao: u16,
    pub chanta: u16,
    pub yakuman: Yakuman,
    pub yakuman_points: u16,
    pub dealer_bonus: u16,
    /// What the minimum is checked against: everything but the dealer bonus.
    pub base: u16,
    /// What the winner is paid: base + dealer bonus.
    pub score: u16,
    /// base ≥ `min_points`.
    pub legal: bool,
}

/// Kinds whose tiles are green-only in their non-red copies: 2, 3, 4, 6, 8, 發.
pub const GREEN: u16 = 1 << 1 | 1 << 2 | 1 << 3 | 1 << 5 | 1 << 7 | 1 << 9;
/// 1, 9, 發, 中.
const TERMINALS: u16 = 1 | 1 << 8 | 1 << 9 | 1 << 10;
/// 2..8.
const SIMPLES: u16 = 0b1111_1110;

/// The value of a complete hand: `counts` its kinds, `red` a bit per number kind whose red copy it
/// holds, `dora` the kind of the flipped tile (None when the rules flip none).
pub fn value(shape: Shape, counts: &[u8; KINDS], red: u16, dora: Option<u8>, dealer: bool, rules: &Rules) -> Parts {
    let present: u16 = (0..KINDS).filter(|&k| counts[k] > 0).fold(0, |m, k| m | 1 << k);
    value_of(shape, counts, present, red, dora, dealer, rules)
}

/// [`value`] for a caller that already knows the kinds present (a bit per kind).
pub fn value_of(shape: Shape, counts: &[u8; KINDS], present: u16, red: u16, dora: Option<u8>, dealer: bool, rules: &Rules) -> Parts {
    let numbers = 6 - u32::from(counts[usize::from(HATSU)]) - u32::from(counts[usize::from(CHUN)]);
    let yakuman = if present & !GREEN == 0 && red == 0 && rules.all_green_value > 0 {
        Yakuman::AllGreen
    } else if present & !TERMINALS == 0 && rules.chinyao_value > 0 {
        Yakuman::Chinyao
    } else if counts[usize::from(HATSU)] == 0 && red.count_ones() == numbers && rules.super_red_value > 0 {
        Yakuman::SuperRed
    } else {
        Yakuman::None
    };
    let set_points = u16::from(shape.set_points());
    let mut p = Parts {
        shape,
        set_points,
        red: 0,
        dora: 0,
        tanyao: 0,
        chanta: 0,
        yakuman,
        yakuman_points: 0,
        dealer_bonus: 0,
        base: 0,
        score: 0,
        legal: false,
    };
    match yakuman {
        Yakuman::AllGreen => p.yakuman_points = rules.all_green_value,
        Yakuman::Chinyao => p.yakuman_points = rules.chinyao_value,
        Yakuman::SuperRed => p.yakuman_points = rules.super_red_value,
        Yakuman::None => {
            let chun = if rules.red_includes_chun { u32::from(counts[usize::from(CHUN)]) } else { 0 };
            p.red = (red.count_ones() + chun) as u16 * rules.red_value;
            p.dora = dora.map_or(0, |d| u16::from(counts[usize::from(d)]) * rules.dora_value);
            if present & !SIMPLES == 0 {
                p.tanyao = rules.tanyao_value;
            }
            if shape.chanta() {
                p.chanta = rules.chanta_value;
            }
        }
    }
    p.base = p.set_points + p.red + p.dora + p.tanyao + p.chanta + p.yakuman_points;
    p.legal = p.base >= rules.min_points;
    if dealer && (yakuman == Yakuman::None || rules.dealer_bonus_on_yakuman) {
        p.dealer_bonus = rules.dealer_bonus;
    }
    p.score = p.base + p.dealer_bonus;
    p
}

/// The largest base any hand can reach under `rules` (for rejecting a minimum nobody can meet).
pub fn max_base(rules: &Rules) -> u16 {
    let t = Tables::get();
    let mut best = 0;
    for target in &t.targets {
        let shape = Shape { sets: target.sets };
        let all_red = if rules.red_tiles { (0..9).filter(|&k| target.counts[k] > 0).fold(0u16, |m, k| m | 1 << k) } else { 0 };
        for red in [0, all_red] {
            for dora in 0..KINDS as u8 {
                best = best.max(value(shape, &target.counts, red, Some(dora), false, rules).base);
            }
        }
    }
    best
}
