//! The discard a strategy's knobs choose on its turn: the kind with (under a danger guard) the
//! least danger, then the lowest shanten (one more where the hand loses its yaku path under
//! `yaku_plan`), the most unseen accepting tiles and the least value kept back; ukeire is weighed
//! only where it decides, on the accepting-tile sets of `accept.rs`.

use super::accept::{accepting, accepting_after_kind, accepting_bounds, after_discards, Bits};
use super::actions::{Action, View};
use super::defense;
use super::plan::{self, Plan};
use super::shanten;
use super::state::SEATS;
use super::strategies::{is_value_honor, FoldTrigger, Knobs, RiichiPolicy};
use super::tiles::{Counts, Kind, KINDS};

/// Unseen tiles that lower the shanten of the 3n+1 hand `c`.
pub fn ukeire(c: &Counts, unseen: &Counts) -> u32 {
    let (_, mask) = accepting(c);
    (0..KINDS).filter(|&j| mask >> j & 1 == 1).map(|j| u32::from(unseen[j])).sum()
}

/// The sum of `unseen[k]` over the kinds `k` in `mask` (`unseen` zero-padded to 48 kinds),
/// without a branch per kind: a loop over the set bits mispredicts its exit on most hands.
#[cfg(all(target_arch = "x86_64", target_feature = "ssse3"))]
fn weighted_count(mask: u64, unseen: &[u8; 48]) -> u32 {
    use std::arch::x86_64::*;
    // SAFETY: SSSE3 is enabled at compile time (the cfg above); the loads stay inside `unseen`.
    unsafe {
        // Lanes 0–7 test bits 0–7 of a 16-bit chunk, lanes 8–15 bits 8–15.
        let spread = _mm_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1);
        let select = _mm_set1_epi64x(0x8040_2010_0804_0201_u64 as i64);
        let mut sum = _mm_setzero_si128();
        for i in 0..3 {
            let bits = _mm_shuffle_epi8(_mm_set1_epi16((mask >> (16 * i)) as u16 as i16), spread);
            let on = _mm_cmpeq_epi8(_mm_and_si128(bits, select), select);
            let n = _mm_loadu_si128(unseen.as_ptr().add(16 * i).cast());
            sum = _mm_add_epi64(sum, _mm_sad_epu8(_mm_and_si128(n, on), _mm_setzero_si128()));
        }
        (_mm_cvtsi128_si32(sum) + _mm_extract_epi16::<4>(sum)) as u32
    }
}

/// The sum of `unseen[k]` over the kinds `k` in `mask`.
#[cfg(not(all(target_arch = "x86_64", target_feature = "ssse3")))]
fn weighted_count(mask: u64, unseen: &[u8; 48]) -> u32 {
    let mut sum = 0u32;
    let mut bits = mask;
    while bits != 0 {
        sum += u32::from(unseen[bits.trailing_zeros() as usize]);
        bits &= bits - 1;
    }
    sum
}

/// Value of keeping a tile of kind `k`: dora, value honors held in pairs.
fn value(v: &View<'_>, k: usize) -> u32 {
    let dora = u32::from(v.dora_count[k]) * 2;
    let pair = k >= 27 && v.own.counts[k] >= 2 && is_value_honor(v, k as Kind);
    dora + if pair { 3 } else { 0 }
}

/// What limits a discard's danger: nothing, the safest tile (`fold = "riichi"`), or a danger up
/// to which the most efficient tile is played (`fold = "value"`).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Guard {
    None,
    Safest,
    Limit(u16),
}

/// Shanten and unseen accepting tiles of the 3n+1 hand `c` (ukeire only when ready or near).
pub(super) fn prospects(c: &Counts, unseen: &Counts) -> (i8, std::cmp::Reverse<u32>) {
    (shanten::shanten(c), std::cmp::Reverse(ukeire(c, unseen)))
}

/// Sort key of a discard, least first, in one integer: danger, shanten (one more for a hand that
/// loses its yaku path under `yaku_plan`), ukeire (more first), the value kept back, and the kind
/// (higher first: honors). Ukeire (at most 136) and value (under 20) fit a byte each.
fn discard_key(danger: u16, shanten: i8, ukeire: u32, value: u32, kind: usize) -> u64 {
    let byte = |x: u32| u64::from(x.min(255));
    u64::from(danger) << 32 | u64::from(shanten as u8 ^ 0x80) << 24 | (255 - byte(ukeire)) << 16 | byte(value) << 8 | (63 - kind as u64)
}

/// The ukeire field of a [`discard_key`].
const UKEIRE: u64 = 0xFF << 16;

/// The discard kind with (under a `guard`) the least danger, then the lowest shanten, the most
/// unseen accepting tiles, the least value kept back and the highest kind (honors first); with
/// its real shanten and ukeire.
pub(super) fn choose(k: &Knobs, v: &View<'_>, legal: &[Action], guard: Guard) -> (usize, i8, u32) {
    let fold = guard != Guard::None;
    let c = v.own.counts;
    // Ukeire decides ties, and the good_wait riichi and push-or-fold choices; without those, a
    // single possible discard (as under riichi) needs no evaluation at all.
    let need_uk = k.riichi == RiichiPolicy::GoodWait || k.fold != FoldTrigger::Never;
    // The candidates are a set of kinds (every choice below is order-free), bit per kind.
    let plain = legal.iter().fold(0u64, |m, a| match *a {
        Action::Discard { tile, riichi: false } => m | 1 << (tile / 4),
        _ => m,
    });
    if plain.count_ones() == 1 && !need_uk {
        let only = plain.trailing_zeros() as usize;
        let ready = legal.iter().any(|a| matches!(*a, Action::Discard { tile, riichi: true } if usize::from(tile / 4) == only));
        return (only, if ready { 0 } else { i8::MAX }, 0);
    }
    let after = after_discards(&c);
    // The waits of an open riichi are shown: never discard into them while another kind is legal.
    let shown = (0..SEATS).filter(|&o| o != v.seat).filter_map(|o| v.shown[o]).fold(0u64, |m, h| m | h.waits);
    let cands = if plain & !shown != 0 { plain & !shown } else { plain };
    let mut eff = after;
    let mut min_shanten = Bits(cands).map(|kind| after[kind]).min().unwrap_or(i8::MAX);
    // A closed hand under the least han of 1 with atozuke always has menzen tsumo.
    let plan = Some(Plan::new(v)).filter(|plan| k.yaku_plan && (!plan.closed() || plan.needed() > 1 || !v.rules.atozuke));
    if let Some(plan) = &plan {
        // A lost path costs one shanten: a discard two or more beyond the best never comes
        // first, and keeps its plain shanten.
        let best = min_shanten;
        for kind in Bits(cands) {
            if after[kind] <= best + 1 {
                eff[kind] = planned_shanten(plan, k, legal, kind, after[kind]);
            }
        }
        min_shanten = Bits(cands).map(|kind| eff[kind]).min().unwrap_or(i8::MAX);
    }
    let mut dangers = [0u16; KINDS];
    match guard {
        Guard::None => {}
        Guard::Safest => {
            for kind in Bits(cands) {
                dangers[kind] = u16::from(defense::tier(v, kind));
            }
        }
        Guard::Limit(limit) => {
            let unseen = v.unseen();
            for kind in Bits(cands) {
                let d = defense::danger(v, &unseen, kind);
                dangers[kind] = if d <= limit { 0 } else { d };
            }
        }
    }
    // Candidates that can be chosen: the least danger, and the lowest shanten unless folding.
    // Unguarded (most turns), every danger is 0.
    let want = if fold {
        let least = Bits(cands).map(|kind| dangers[kind]).min().unwrap_or(0);
        Bits(cands).fold(0u64, |m, kind| m | u64::from(dangers[kind] <= least) << kind)
    } else {
        Bits(cands).fold(0u64, |m, kind| m | u64::from(eff[kind] <= min_shanten) << kind)
    };
    // Ukeire is weighed only where it decides: the candidates go best bound first (a superset of
    // each one's accepting set bounds its ukeire), and one whose bound cannot beat the best so far
    // is never weighed.
    let weigh = want.count_ones() > 1 || need_uk;
    let mut unseen48 = [0u8; 48];
    let mut supersets = [0; KINDS];
    let mut bound = None;
    if weigh {
        unseen48[..KINDS].copy_from_slice(&v.unseen());
        bound = accepting_bounds(&c, want, &mut supersets);
    }
    let most = |kind: usize| match bound {
        Some(s) if after[kind] == s => weighted_count(supersets[kind], &unseen48),
        _ => u32::MAX,
    };
    let value_of = |kind: usize| if k.keep_value { value(v, kind) } else { 0 };
    let mut order = [0u64; 14];
    let mut n = 0;
    for kind in Bits(want) {
        order[n] = discard_key(dangers[kind], eff[kind], if weigh { most(kind) } else { 0 }, value_of(kind), kind);
        n += 1;
    }
    order[..n].sort_unstable();
    let (mut best, mut best_uk) = (*order[..n].first().expect("a turn always offers a discard") | UKEIRE, 0);
    for &least in &order[..n] {
        if least > best {
            break;
        }
        let kind = 63 - (least & 0x3F) as usize;
        let uk = if weigh { weighted_count(accepting_after_kind(&c, kind), &unseen48) } else { 0 };
        let key = least & !UKEIRE | (255 - u64::from(uk)) << 16;
        if key < best {
            (best, best_uk) = (key, uk);
        }
    }
    let kind = 63 - (best & 0x3F) as usize;
    (kind, after[kind], best_uk)
}

/// The shanten after discarding `kind` (`sh`), one more when the hand left has no yaku path
/// (`plan.rs`); riichi counts when the hand is in riichi or could declare it with this discard.
fn planned_shanten(plan: &Plan<'_, '_>, k: &Knobs, legal: &[Action], kind: usize, sh: i8) -> i8 {
    let v = plan.v;
    let mut rest = v.own.counts;
    rest[kind] -= 1;
    let riichi = v.seats[v.seat].riichi || (k.riichi != RiichiPolicy::Never && plan::riichi_offered(v, legal, kind));
    sh + i8::from(!plan.has_path(&rest, sh, riichi))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weighted_count_sums_the_masked_kinds() {
        let mut unseen = [0u8; 48];
        for (k, n) in unseen[..KINDS].iter_mut().enumerate() {
            *n = (k % 5) as u8;
        }
        for i in 1..200u64 {
            let mask = i.wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(i as u32) & ((1 << KINDS) - 1);
            let want: u32 = (0..KINDS).filter(|&k| mask >> k & 1 == 1).map(|k| u32::from(unseen[k])).sum();
            assert_eq!(weighted_count(mask, &unseen), want, "{mask:#x}");
        }
    }
}
