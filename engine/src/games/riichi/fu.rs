//! Fu (spec §10.2–10.3) of one standard-form interpretation.

use super::agari::{SetKind, Wait};
use super::rules::Rules;
use super::tiles::{is_dragon, is_yaochu};
use super::yaku::{Interpretation, Situation};

/// Fu before rounding, and after: `(raw, rounded)`. Pinfu and seven pairs are fixed and handled
/// by the caller; `closed` is the menzen status (ankan keeps it).
pub fn standard(i: &Interpretation, s: &Situation, closed: bool, pinfu: bool, rules: &Rules) -> (u32, u32) {
    if pinfu {
        let fu = if s.tsumo { 20 } else { 30 };
        return (fu, fu);
    }
    let mut fu = 20;
    if closed && !s.tsumo {
        fu += 10;
    }
    if s.tsumo && (rules.rinshan_tsumo_fu || !s.rinshan) {
        fu += 2;
    }
    for x in &i.sets {
        let base = match x.kind {
            SetKind::Sequence => continue,
            SetKind::Triplet => 2,
            SetKind::Kan => 8,
        };
        let concealed = if x.concealed { 2 } else { 1 };
        let yaochu = if is_yaochu(x.base) { 2 } else { 1 };
        fu += base * concealed * yaochu;
    }
    // Under sanma shared_wind North is everyone's value wind: its pair scores as a seat wind's.
    let seat = i.pair == s.seat_wind || (i.pair == 30 && rules.north_value());
    let round = i.pair == s.round_wind;
    fu += match (seat, round) {
        (true, true) => u32::from(rules.double_wind_pair_fu),
        (true, false) | (false, true) => 2,
        _ if is_dragon(i.pair) => 2,
        _ => 0,
    };
    if matches!(i.wait, Wait::Kanchan | Wait::Penchan | Wait::Tanki) {
        fu += 2;
    }
    if !closed && fu == 20 {
        fu = u32::from(rules.open_no_fu_min);
    }
    (fu, fu.div_ceil(10) * 10)
}
