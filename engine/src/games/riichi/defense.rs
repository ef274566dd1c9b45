//! Danger of a discard, from the seat's view only: the tiers of `fold = "riichi"` ([`tier`]) and
//! pushing or folding by hand value against danger (knob `fold = "value"`).
//!
//! Danger of a discard against one riichi player: how many ways a wait on it can still be made
//! from the tiles this seat cannot see. Each wait shape on the tile counts the product of the
//! unseen copies of the tiles that would form it — a two-sided wait (両面) fully, an edge (辺張) or
//! closed (嵌張) wait half, a pair wait (双碰) by the pairs of the tile left, a single wait (単騎)
//! by its copies — so that genbutsu (the tile in their river, or passed since their riichi) is 0,
//! suji removes the two-sided shape it protects, kabe (all four of a neighbour visible) and
//! one-chance (three visible) remove or shrink the shapes through that neighbour, and an honor
//! with every other copy visible is 0. Against several riichi players the dangers add up.
//!
//! Whether to push: a ready hand with a wide wait or a valuable hand pushes every tile; a ready
//! hand of little value, or a one-away hand of at least `push_han` han with more than a third of
//! the wall left, discards the most efficient tile up to a moderate danger; any other hand
//! folds (the least dangerous tile, efficiency breaking ties). A dealer's riichi, or being the
//! dealer oneself, moves each bar by a han.

use super::actions::View;
use super::state::SEATS;
use super::tiles::Counts;

/// Danger at or below which a moderate push discards (about: a suji tile, a kabe'd or one-chance
/// tile, an honor with two copies left).
pub const MODERATE: u16 = 6;
/// A push without limit.
pub const ALL: u16 = u16::MAX;

/// Danger of discarding `k` against every seat in riichi (0 when no one is).
pub fn danger(v: &View<'_>, unseen: &Counts, k: usize) -> u16 {
    (0..SEATS)
        .filter(|&o| o != v.seat && v.seats[o].riichi)
        .map(|o| {
            let safe = v.seats[o].river_kinds | v.safe_after_riichi[o];
            against(unseen, safe, k)
        })
        .sum()
}

/// Danger of `k` against one player whose safe kinds are `safe` (see the module doc).
fn against(unseen: &Counts, safe: u64, k: usize) -> u16 {
    if safe >> k & 1 == 1 {
        return 0;
    }
    let u = |j: usize| u16::from(unseen[j]);
    let same = u(k) * u(k).saturating_sub(1) + u(k);
    if k >= 27 {
        return same;
    }
    let r = k % 9;
    let g = |j: usize| safe >> j & 1 == 1;
    let mut d = same;
    // Two tiles below: 両面 (k-2, k-1) waits k-3 and k, 辺張 12 waits 3.
    if r >= 2 {
        let shape = u(k - 2) * u(k - 1);
        d += match r {
            2 => shape / 2,
            _ if g(k - 3) => 0,
            _ => shape,
        };
    }
    // Two tiles above: 両面 (k+1, k+2) waits k and k+3, 辺張 89 waits 7.
    if r <= 6 {
        let shape = u(k + 1) * u(k + 2);
        d += match r {
            6 => shape / 2,
            _ if g(k + 3) => 0,
            _ => shape,
        };
    }
    // 嵌張 (k-1, k+1).
    if (1..=7).contains(&r) {
        d += u(k - 1) * u(k + 1) / 2;
    }
    d
}

/// How far the seat pushes: the danger up to which it plays its most efficient discard (0: fold
/// to the safest tile). `sh` and `uk` are the best discard's shanten and unseen accepting tiles,
/// `han` the hand's value in han (dora included).
pub fn push_limit(v: &View<'_>, sh: i8, uk: u32, han: u32, push_ukeire: u8, push_han: u8) -> u16 {
    let dealer_riichi = (0..SEATS).any(|o| o != v.seat && v.seats[o].riichi && o == usize::from(v.dealer));
    let dealer = v.seat == usize::from(v.dealer);
    // In the last scheduled hand only the placement is left to play for.
    let last = v.progress.round + 1 >= super::batch::scheduled(v.rules);
    let top = crate::game::ranks(&v.points()[..v.n])[v.seat] == 1;
    let bar = 1 + i64::from(dealer_riichi) - i64::from(dealer) + i64::from(last && top) - i64::from(last && !top);
    let han = i64::from(han);
    match sh {
        0 if uk >= u32::from(push_ukeire) || han >= 2 + bar => ALL,
        0 => MODERATE,
        1 if han + 1 >= i64::from(push_han) + bar && v.live_remaining >= 24 => MODERATE,
        _ => 0,
    }
}

/// The danger tier of discarding `k` for `fold = "riichi"`, safest first, against one riichi
/// player: 0 genbutsu (in their river, or passed since their riichi); 1 honor with 3 copies
/// visible; 2 honor with 2 visible, or a suji terminal (1/9 whose suji partner 4/6 is genbutsu);
/// 3 suji 2, 3, 7, 8; 4 other honor, or nakasuji 4–6 (both partners genbutsu); 6 non-suji
/// terminal; 7 non-suji 2, 3, 7, 8; 8 non-suji 4–6. Against several riichi players the worst tier
/// counts.
pub fn tier(v: &View<'_>, k: usize) -> u8 {
    let mut worst = 0;
    for o in 0..SEATS {
        if o == v.seat || !v.seats[o].riichi {
            continue;
        }
        let safe = v.seats[o].river_kinds | v.safe_after_riichi[o];
        let g = |j: usize| safe & (1 << j) != 0;
        let d = if g(k) {
            0
        } else if k >= 27 {
            match v.seen[k] {
                3.. => 1,
                2 => 2,
                _ => 4,
            }
        } else {
            let r = k % 9;
            let lo = r >= 3 && g(k - 3);
            let hi = r <= 5 && g(k + 3);
            match r {
                0 | 8 => {
                    if lo || hi {
                        2
                    } else {
                        6
                    }
                }
                1 | 2 | 6 | 7 => {
                    let suji = if r <= 2 { hi } else { lo };
                    if suji {
                        3
                    } else {
                        7
                    }
                }
                _ => {
                    if lo && hi {
                        4
                    } else {
                        8
                    }
                }
            }
        };
        worst = worst.max(d);
    }
    worst
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::riichi::tiles::KINDS;

    const FRESH: Counts = [4; KINDS];

    #[test]
    fn wait_shapes_count_the_unseen_tiles_that_form_them() {
        // 5m (kind 4) with nothing seen: pair and single waits 4·3 + 4, two-sided 34m and 67m 16
        // each, closed 46m 16 / 2.
        assert_eq!(against(&FRESH, 0, 4), 16 + 16 + 16 + 8);
        // Genbutsu.
        assert_eq!(against(&FRESH, 1 << 4, 4), 0);
        // Suji: 2m in the river removes 34m (which would wait on 2m too); 8m removes 67m.
        assert_eq!(against(&FRESH, 1 << 1, 4), 16 + 16 + 8);
        assert_eq!(against(&FRESH, 1 << 1 | 1 << 7, 4), 16 + 8);
        // Kabe: every 6m visible leaves no 67m and no 46m; one-chance: one 6m left.
        let mut kabe = FRESH;
        kabe[5] = 0;
        assert_eq!(against(&kabe, 0, 4), 16 + 16);
        kabe[5] = 1;
        assert_eq!(against(&kabe, 0, 4), 16 + 16 + 4 + 2);
        // 1m: only 23m (suji 4m) and its own pair and single waits; 3m: the edge wait 12m halved.
        assert_eq!(against(&FRESH, 0, 0), 16 + 16);
        assert_eq!(against(&FRESH, 1 << 3, 0), 16);
        assert_eq!(against(&FRESH, 0, 2), 16 + 8 + 16 + 8);
        // An honor: pair and single waits only; none left unseen is safe.
        let mut honor = FRESH;
        honor[31] = 1;
        assert_eq!(against(&honor, 0, 31), 1);
        honor[31] = 0;
        assert_eq!(against(&honor, 0, 31), 0);
    }
}
