//! Shanten (向聴数) by table lookup, exact, and ukeire (tiles that lower it).
//!
//! The standard form uses per-suit tables: for every pattern of counts in one suit (base-5 index,
//! 5^9 patterns; 5^7 for honors) the fewest tiles that must be *added* to hold `m` melds and `p`
//! pairs, for m ≤ 4, p ≤ 1 (surplus tiles cost nothing). A hand's distance to a complete shape is
//! the min-plus combination of its four suits, and shanten = distance − 1; this is exact because a
//! hand can always trade surplus tiles for missing ones one at a time. The tables are built once,
//! lazily, in well under a second: `d(h) = 0` if some complete sub-pattern fits in `h`, otherwise
//! `1 + min_i d(h + e_i)` (adding one missing tile of the best target brings it one step closer).

use super::tiles::{Counts, KINDS, YAOCHU};
use std::sync::OnceLock;

/// Targets per pattern: index `m * 2 + p`.
const TARGETS: usize = 10;
pub(crate) type Dist = [u8; TARGETS];

pub(crate) struct Tables {
    pub(crate) suit: Vec<Dist>,
    pub(crate) honor: Vec<Dist>,
}

pub(crate) const POW5: [usize; 10] = [1, 5, 25, 125, 625, 3125, 15625, 78125, 390625, 1953125];

pub(crate) fn tables() -> &'static Tables {
    static T: OnceLock<Tables> = OnceLock::new();
    T.get_or_init(|| Tables { suit: build(9, true), honor: build(7, false) })
}

/// Builds the distance table of a suit with `n` kinds (`sequences` false for honors).
fn build(n: usize, sequences: bool) -> Vec<Dist> {
    let size = POW5[n];
    // Bit t of fits[h]: some pattern of target t (m melds, p pairs) fits inside h.
    let mut fits = vec![0u16; size];
    // Every complete pattern: m ≤ 4 melds (sequences and triplets) and p ≤ 1 pair.
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for k in 0..n {
        groups.push(vec![k, k, k]);
    }
    if sequences {
        for k in 0..n - 2 {
            groups.push(vec![k, k + 1, k + 2]);
        }
    }
    fn add(h: &mut [u8], tiles: &[usize]) -> bool {
        for &k in tiles {
            h[k] += 1;
        }
        tiles.iter().all(|&k| h[k] <= 4)
    }
    fn index(h: &[u8]) -> usize {
        h.iter().enumerate().map(|(i, &c)| usize::from(c) * POW5[i]).sum()
    }
    // Melds as non-decreasing group indices, so each multiset is visited once.
    fn visit(h: &mut [u8], groups: &[Vec<usize>], first: usize, m: usize, fits: &mut [u16], n: usize) {
        fits[index(h)] |= 1 << (m * 2);
        for k in 0..n {
            let mut with_pair = h.to_vec();
            if add(&mut with_pair, &[k, k]) {
                fits[index(&with_pair)] |= 1 << (m * 2 + 1);
            }
        }
        if m == 4 {
            return;
        }
        for g in first..groups.len() {
            let mut next = h.to_vec();
            if add(&mut next, &groups[g]) {
                visit(&mut next, groups, g, m + 1, fits, n);
            }
        }
    }
    visit(&mut vec![0u8; n], &groups, 0, 0, &mut fits, n);
    // Propagate upwards: a pattern fits in h if it fits in h minus one tile.
    let mut digits = vec![0u8; n];
    for h in 0..size {
        if h > 0 {
            let mut i = 0;
            while digits[i] == 4 {
                digits[i] = 0;
                i += 1;
            }
            digits[i] += 1;
        }
        let mut f = fits[h];
        for i in 0..n {
            if digits[i] > 0 {
                f |= fits[h - POW5[i]];
            }
        }
        fits[h] = f;
    }
    let mut dist = vec![[0u8; TARGETS]; size];
    for h in (0..size).rev() {
        let mut d = [u8::MAX; TARGETS];
        for (t, slot) in d.iter_mut().enumerate() {
            if fits[h] >> t & 1 == 1 {
                *slot = 0;
            }
        }
        if d.contains(&u8::MAX) {
            for i in 0..n {
                if (h / POW5[i]) % 5 < 4 {
                    let up = &dist[h + POW5[i]];
                    for t in 0..TARGETS {
                        d[t] = d[t].min(up[t].saturating_add(1));
                    }
                }
            }
        }
        dist[h] = d;
    }
    dist
}

#[inline]
pub(crate) fn suit_index(c: &Counts, base: usize, n: usize) -> usize {
    let mut idx = 0;
    for i in (0..n).rev() {
        idx = idx * 5 + usize::from(c[base + i]);
    }
    idx
}

#[inline]
pub(crate) fn combine(a: &Dist, b: &Dist, melds: usize) -> Dist {
    let mut out = [u8::MAX; TARGETS];
    for m in 0..=melds {
        for m1 in 0..=m {
            let m2 = m - m1;
            out[m * 2] = out[m * 2].min(a[m1 * 2] + b[m2 * 2]);
            out[m * 2 + 1] = out[m * 2 + 1].min(a[m1 * 2] + b[m2 * 2 + 1]).min(a[m1 * 2 + 1] + b[m2 * 2]);
        }
    }
    out
}

/// Shanten of the standard form (melds + pair) for a concealed hand needing `melds` melds
/// (4 minus the called melds). −1 = complete.
#[inline]
pub fn standard(c: &Counts, melds: usize) -> i8 {
    let t = tables();
    let m = &t.suit[suit_index(c, 0, 9)];
    let p = &t.suit[suit_index(c, 9, 9)];
    let s = &t.suit[suit_index(c, 18, 9)];
    let z = &t.honor[suit_index(c, 27, 7)];
    let mp = combine(m, p, melds);
    let sz = combine(s, z, melds);
    let mut best = u8::MAX;
    for m1 in 0..=melds {
        let m2 = melds - m1;
        best = best.min(mp[m1 * 2] + sz[m2 * 2 + 1]).min(mp[m1 * 2 + 1] + sz[m2 * 2]);
    }
    best as i8 - 1
}

/// Shanten of seven pairs (distinct kinds): 6 − pairs, plus one for each kind short of seven.
pub fn chiitoitsu(c: &Counts) -> i8 {
    let pairs = c.iter().filter(|&&n| n >= 2).count() as i8;
    let kinds = c.iter().filter(|&&n| n >= 1).count() as i8;
    6 - pairs + (7 - kinds).max(0)
}

/// Shanten of thirteen orphans.
pub fn kokushi(c: &Counts) -> i8 {
    let kinds = YAOCHU.iter().filter(|&&k| c[usize::from(k)] >= 1).count() as i8;
    let pair = YAOCHU.iter().any(|&k| c[usize::from(k)] >= 2);
    13 - kinds - i8::from(pair)
}

/// The number of melds the concealed part must still form, from its tile count (13/14 → 4,
/// 10/11 → 3, …), or an error for a count that no legal hand has.
pub fn melds_needed(tiles: usize) -> Result<usize, String> {
    if tiles == 0 || tiles > 14 || tiles.is_multiple_of(3) {
        return Err(format!("a concealed hand has 1, 2, 4, 5, 7, 8, 10, 11, 13 or 14 tiles, got {tiles}"));
    }
    Ok(tiles / 3)
}

/// The lowest shanten over the standard form and, for a full closed hand, seven pairs and thirteen
/// orphans. `c` holds the concealed tiles only.
#[inline]
pub fn shanten(c: &Counts) -> i8 {
    let n: usize = c.iter().map(|&x| usize::from(x)).sum();
    let s = standard(c, (n / 3).min(4));
    if n >= 13 {
        s.min(chiitoitsu(c)).min(kokushi(c))
    } else {
        s
    }
}

/// Tiles that lower the shanten of a 3n+1-tile hand, with how many of each are left unseen
/// (4 minus the copies in the hand and in `visible`).
pub fn ukeire(c: &Counts, visible: &Counts) -> Vec<(u8, u8)> {
    let base = shanten(c);
    let mut out = Vec::new();
    let mut h = *c;
    for k in 0..KINDS {
        if h[k] >= 4 {
            continue;
        }
        h[k] += 1;
        if shanten(&h) < base {
            let left = 4u8.saturating_sub(c[k] + visible[k]);
            out.push((k as u8, left));
        }
        h[k] -= 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::tiles::{counts_of, parse_tiles};
    use super::*;
    use std::path::PathBuf;

    fn counts(s: &str) -> Counts {
        counts_of(&parse_tiles(s).unwrap())
    }

    #[test]
    fn melds_needed_from_tile_count() {
        let got: Vec<usize> = [14, 13, 11, 10, 8, 7, 5, 4, 2, 1].iter().map(|&n| melds_needed(n).unwrap()).collect();
        assert_eq!(got, [4, 4, 3, 3, 2, 2, 1, 1, 0, 0]);
        assert!(melds_needed(12).is_err());
    }

    #[test]
    fn hand_worked_examples() {
        assert_eq!(shanten(&counts("123m456p789s1122z")), 0);
        assert_eq!(shanten(&counts("123m456p789s11222z")), -1);
        assert_eq!(shanten(&counts("19m19p19s1234567z")), 0);
        assert_eq!(shanten(&counts("119m19p19s1234567z")), -1);
        assert_eq!(shanten(&counts("1122m3344p5566s7z")), 0);
        // Four copies cannot be two pairs of seven pairs, nor the pair plus a fifth tile.
        assert_eq!(chiitoitsu(&counts("1111m2233p4455s66z")), 1);
        assert_eq!(standard(&counts("1111m"), 1), 1);
        assert_eq!(standard(&counts("11m"), 0), -1);
        assert_eq!(shanten(&counts("147m258p369s1234z")), 6);
        let uk: Vec<u8> = ukeire(&counts("23m456p789s11z"), &counts("1m")).iter().map(|x| x.1).collect();
        assert_eq!(uk, [3, 4]);
    }

    /// The 40,000 hands of `testdata/riichi/shanten` (standard, kokushi, chiitoitsu shanten).
    #[test]
    fn shanten_testdata() {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/testdata/riichi/shanten");
        let mut checked = 0;
        for name in ["p_normal_10000.txt", "p_hon_10000.txt", "p_tin_10000.txt", "p_koku_10000.txt"] {
            let text = std::fs::read_to_string(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
            for line in text.lines().filter(|l| !l.trim().is_empty()) {
                let v: Vec<i32> = line.split_whitespace().map(|x| x.parse().unwrap()).collect();
                let mut c = [0u8; KINDS];
                for &k in &v[..14] {
                    c[k as usize] += 1;
                }
                let got = [standard(&c, 4), kokushi(&c), chiitoitsu(&c)];
                assert_eq!(got.map(i32::from), [v[14], v[15], v[16]], "{name}: {line}");
                checked += 1;
            }
        }
        assert_eq!(checked, 40_000);
    }
}
