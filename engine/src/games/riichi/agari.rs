//! Winning shapes (spec §7.1): every decomposition of a complete hand into sets and a pair, the
//! wait each placement of the winning tile implies (§10.3.3), seven pairs and thirteen orphans.

use super::shanten;
use super::tiles::{is_yaochu, Counts, Kind, KINDS, YAOCHU};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SetKind {
    Sequence,
    Triplet,
    Kan,
}

/// A set of the winning hand. `concealed` is false for called melds and for a triplet completed
/// by ron (spec §9.1); `called` marks the exposed melds (ankan included).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Set {
    pub kind: SetKind,
    pub base: Kind,
    pub concealed: bool,
    pub called: bool,
}

impl Set {
    pub fn is_set(&self) -> bool {
        self.kind != SetKind::Sequence
    }

    /// Whether the set holds a terminal or honor.
    pub fn has_yaochu(&self) -> bool {
        match self.kind {
            SetKind::Sequence => self.base.is_multiple_of(9) || self.base % 9 == 6,
            _ => is_yaochu(self.base),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wait {
    Ryanmen,
    Kanchan,
    Penchan,
    Tanki,
    Shanpon,
}

/// The concealed part of a standard-form hand: a pair and `n` sets (the rest are called melds).
#[derive(Debug, Clone, Copy)]
pub struct Decomposition {
    pub pair: Kind,
    pub sets: [Set; 4],
    pub n: usize,
}

/// Every way to split concealed counts into `melds` sets plus one pair.
pub fn decompositions(c: &Counts, melds: usize, out: &mut Vec<Decomposition>) {
    out.clear();
    for_each_decomposition(c, melds, &mut |d| out.push(*d));
}

/// Calls `visit` with every way to split concealed counts into `melds` sets plus one pair.
pub fn for_each_decomposition(c: &Counts, melds: usize, visit: &mut impl FnMut(&Decomposition)) {
    let mut h = *c;
    // The pair sits in the one suit whose tile count is 2 mod 3; every other suit is 0 mod 3.
    let suit_tiles = |s: usize| c[s * 9..(s * 9 + 9).min(KINDS)].iter().map(|&x| u32::from(x)).sum::<u32>();
    let rest: [u32; 4] = std::array::from_fn(|s| suit_tiles(s) % 3);
    let Some(pair_suit) = rest.iter().position(|&r| r == 2) else { return };
    if rest.iter().filter(|&&r| r != 0).count() != 1 {
        return;
    }
    let held = |h: &Counts| (0..KINDS).fold(0u64, |m, k| m | u64::from(h[k] > 0) << k);
    for pair in pair_suit * 9..(pair_suit * 9 + 9).min(KINDS) {
        if h[pair] < 2 {
            continue;
        }
        h[pair] -= 2;
        let mut d =
            Decomposition { pair: pair as Kind, sets: [Set { kind: SetKind::Sequence, base: 0, concealed: true, called: false }; 4], n: 0 };
        let mask = held(&h);
        split(&mut h, mask, melds, &mut d, visit);
        h[pair] += 2;
    }
}

/// `held` has bit k set while `h[k] > 0`; the lowest held kind must start a set.
fn split(h: &mut Counts, held: u64, melds: usize, d: &mut Decomposition, visit: &mut impl FnMut(&Decomposition)) {
    if held == 0 {
        if d.n == melds {
            visit(d);
        }
        return;
    }
    if d.n == melds {
        return;
    }
    let i = held.trailing_zeros() as usize;
    let update = |h: &Counts, held: u64, ks: &[usize]| ks.iter().fold(held, |m, &k| if h[k] > 0 { m | 1 << k } else { m & !(1 << k) });
    if h[i] >= 3 {
        h[i] -= 3;
        d.sets[d.n] = Set { kind: SetKind::Triplet, base: i as Kind, concealed: true, called: false };
        d.n += 1;
        split(h, update(h, held, &[i]), melds, d, visit);
        d.n -= 1;
        h[i] += 3;
    }
    if i < 27 && i % 9 <= 6 && h[i + 1] > 0 && h[i + 2] > 0 {
        h[i] -= 1;
        h[i + 1] -= 1;
        h[i + 2] -= 1;
        d.sets[d.n] = Set { kind: SetKind::Sequence, base: i as Kind, concealed: true, called: false };
        d.n += 1;
        split(h, update(h, held, &[i, i + 1, i + 2]), melds, d, visit);
        d.n -= 1;
        h[i] += 1;
        h[i + 1] += 1;
        h[i + 2] += 1;
    }
}

/// The wait implied by completing `set` with the winning kind `win` (which it must contain).
pub fn wait_of(set: &Set, win: Kind) -> Wait {
    match set.kind {
        SetKind::Sequence => match win - set.base {
            1 => Wait::Kanchan,
            0 if set.base % 9 == 6 => Wait::Penchan,
            2 if set.base.is_multiple_of(9) => Wait::Penchan,
            _ => Wait::Ryanmen,
        },
        _ => Wait::Shanpon,
    }
}

/// Seven distinct pairs (or, with `same_pairs`, four of a kind as two pairs) of a 14-tile hand.
pub fn is_chiitoitsu(c: &Counts, same_pairs: bool) -> bool {
    let mut pairs = 0;
    for &n in c {
        match n {
            0 => {}
            2 => pairs += 1,
            4 if same_pairs => pairs += 2,
            _ => return false,
        }
    }
    pairs == 7
}

pub fn is_kokushi(c: &Counts) -> bool {
    shanten::kokushi(c) == -1 && c.iter().map(|&n| u32::from(n)).sum::<u32>() == 14
}

/// Kokushi won on the 13-sided wait: the 13 tiles before the win are one of each orphan.
pub fn is_kokushi13(c: &Counts, win: Kind) -> bool {
    is_kokushi(c) && c[usize::from(win)] == 2 && YAOCHU.iter().all(|&k| k == win || c[usize::from(k)] == 1)
}

/// Kinds that complete a 3n+1-tile concealed hand (any shape, yaku or not; spec §7.5).
pub fn waits(c: &Counts) -> Vec<Kind> {
    let n: usize = c.iter().map(|&x| usize::from(x)).sum();
    let mut h = *c;
    let mut out = Vec::new();
    for k in 0..KINDS {
        if h[k] >= 4 {
            continue;
        }
        h[k] += 1;
        let complete = shanten::standard(&h, (n + 1) / 3) == -1 || (n == 13 && (is_chiitoitsu(&h, false) || is_kokushi(&h)));
        if complete {
            out.push(k as Kind);
        }
        h[k] -= 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::tiles::{counts_of, parse_tiles};
    use super::*;

    fn counts(s: &str) -> Counts {
        counts_of(&parse_tiles(s).unwrap())
    }

    #[test]
    fn all_decompositions_are_found() {
        let mut out = Vec::new();
        decompositions(&counts("111222333m456p77s"), 4, &mut out);
        assert_eq!(out.len(), 2, "triplets or three identical sequences");
        decompositions(&counts("11223344556677m"), 4, &mut out);
        assert_eq!(out.len(), 3);
        decompositions(&counts("123m456p789s1122z"), 4, &mut out);
        assert!(out.is_empty());
        decompositions(&counts("22m"), 0, &mut out);
        assert_eq!(out.len(), 1);
    }

    #[test]
    fn waits_and_wait_kinds() {
        let k = |s: &str| parse_tiles(s).unwrap()[0].kind;
        assert_eq!(waits(&counts("1112345678999m")), (0..9).collect::<Vec<_>>());
        assert_eq!(waits(&counts("19m19p19s1234567z")).len(), 13);
        assert_eq!(waits(&counts("2345m")), vec![k("2m"), k("5m")]);
        let s = |b: &str| Set { kind: SetKind::Sequence, base: k(b), concealed: true, called: false };
        assert_eq!(wait_of(&s("1m"), k("3m")), Wait::Penchan);
        assert_eq!(wait_of(&s("7m"), k("7m")), Wait::Penchan);
        assert_eq!(wait_of(&s("2m"), k("2m")), Wait::Ryanmen);
        assert_eq!(wait_of(&s("2m"), k("3m")), Wait::Kanchan);
        assert!(is_kokushi13(&counts("119m19p19s1234567z"), k("1m")));
        assert!(!is_kokushi13(&counts("119m19p19s1234567z"), k("9m")));
    }
}
