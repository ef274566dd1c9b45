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

/// A pattern's distances as looked up: bytes 0–4 = no pair with m = 0–4 melds, bytes 8–12 = with
/// the pair; the rest is padding that never wins a minimum. One aligned 16-byte entry is one cache
/// line access and one SSE2 register.
#[derive(Clone, Copy)]
#[repr(C, align(16))]
pub(crate) struct Entry(pub(crate) [u8; 16]);

const PAD: u8 = 0x3F;

impl Entry {
    fn from_dist(d: &Dist) -> Entry {
        let mut e = [PAD; 16];
        for m in 0..5 {
            e[m] = d[m * 2];
            e[8 + m] = d[m * 2 + 1];
        }
        Entry(e)
    }
}

pub(crate) struct Tables {
    pub(crate) suit: Vec<Entry>,
    pub(crate) honor: Vec<Entry>,
}

pub(crate) const POW5: [usize; 10] = [1, 5, 25, 125, 625, 3125, 15625, 78125, 390625, 1953125];

pub(crate) fn tables() -> &'static Tables {
    static T: OnceLock<Tables> = OnceLock::new();
    T.get_or_init(|| Tables {
        suit: huge_pages(build(9, true).iter().map(Entry::from_dist)),
        honor: huge_pages(build(7, false).iter().map(Entry::from_dist)),
    })
}

/// Collects a lookup table into memory that the kernel is asked, before it is first touched, to
/// back with 2 MB pages. The tables (~90 MB) are read at random: with 4 kB pages nearly every
/// lookup also misses the TLB, and a page walk costs about as much as the cache miss itself.
pub(crate) fn huge_pages<T>(items: impl ExactSizeIterator<Item = T>) -> Vec<T> {
    let mut v = Vec::with_capacity(items.len());
    #[cfg(target_os = "linux")]
    {
        use std::ffi::{c_int, c_void};
        extern "C" {
            fn madvise(addr: *mut c_void, len: usize, advice: c_int) -> c_int;
        }
        const MADV_HUGEPAGE: c_int = 14;
        let start = (v.as_ptr() as usize).next_multiple_of(4096);
        let end = (v.as_ptr() as usize + v.capacity() * std::mem::size_of::<T>()) & !4095;
        if end > start {
            // SAFETY: the range lies inside the vector's own allocation and the advice changes
            // only how the kernel backs it; a refusal (no THP support) leaves ordinary pages.
            unsafe { madvise(start as *mut c_void, end - start, MADV_HUGEPAGE) };
        }
    }
    v.extend(items);
    v
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
            next_pattern(&mut digits);
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

/// Advances the base-5 digits (tile counts per kind) of a pattern index to the next index, so
/// that table builders walk every pattern without dividing each index again.
pub(crate) fn next_pattern(digits: &mut [u8]) {
    let mut i = 0;
    while digits[i] == 4 {
        digits[i] = 0;
        i += 1;
    }
    digits[i] += 1;
}

#[inline]
pub(crate) fn suit_index(c: &Counts, base: usize, n: usize) -> usize {
    let mut idx = 0;
    for i in (0..n).rev() {
        idx = idx * 5 + usize::from(c[base + i]);
    }
    idx
}

/// Min-plus combination of two parts: entry (m, p) of the result is the best split of m melds
/// and p pairs between `a` and `b`.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn combine<const M: usize>(a: &Entry, b: &Entry) -> Entry {
    use std::arch::x86_64::*;
    // SAFETY: SSE2 is part of the x86_64 baseline; loads and stores are of aligned 16-byte entries.
    unsafe {
        let bv = _mm_load_si128(b.0.as_ptr().cast());
        // [b with pair | b without pair]: to add a's pair part to b's no-pair part.
        let swapped = _mm_shuffle_epi32::<0b01_00_11_10>(bv);
        let no_lane0 = _mm_set_epi64x(0, -1);
        let mut out = _mm_set1_epi8(-1);
        macro_rules! step {
            ($m1:literal, $bits:literal) => {
                if M + 1 > $m1 {
                    // Bytes below m1 are shifted-in zeros: make them lose every minimum.
                    let low = _mm_set1_epi64x(((1u128 << (8 * $m1)) - 1) as i64 & 0x3F3F_3F3F_3F3F_3F3F);
                    let shifted = _mm_or_si128(_mm_slli_epi64::<$bits>(bv), low);
                    let shifted_sw = _mm_or_si128(_mm_slli_epi64::<$bits>(swapped), low);
                    let c0 = _mm_adds_epu8(shifted, _mm_set1_epi8(a.0[$m1] as i8));
                    let c1 = _mm_or_si128(_mm_adds_epu8(shifted_sw, _mm_set1_epi8(a.0[8 + $m1] as i8)), no_lane0);
                    out = _mm_min_epu8(out, _mm_min_epu8(c0, c1));
                }
            };
        }
        step!(0, 0);
        step!(1, 8);
        step!(2, 16);
        step!(3, 24);
        step!(4, 32);
        let mut e = Entry([0; 16]);
        _mm_store_si128(e.0.as_mut_ptr().cast(), out);
        e
    }
}

#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
pub(crate) fn combine<const M: usize>(a: &Entry, b: &Entry) -> Entry {
    combine_portable::<M>(a, b)
}

/// [`combine`] without SIMD: what targets other than x86_64 run, and what tests on x86_64
/// compare the SIMD form with, so that every machine plays the same games.
#[cfg(any(test, not(target_arch = "x86_64")))]
#[inline(always)]
fn combine_portable<const M: usize>(a: &Entry, b: &Entry) -> Entry {
    let mut out = [u8::MAX; 16];
    for m in 0..=M {
        for m1 in 0..=m {
            let m2 = m - m1;
            out[m] = out[m].min(a.0[m1] + b.0[m2]);
            out[8 + m] = out[8 + m].min(a.0[m1] + b.0[8 + m2]).min(a.0[8 + m1] + b.0[m2]);
        }
    }
    Entry(out)
}

#[inline(always)]
fn standard_m<const M: usize>(c: &Counts) -> i8 {
    let t = tables();
    let m = &t.suit[suit_index(c, 0, 9)];
    let p = &t.suit[suit_index(c, 9, 9)];
    let s = &t.suit[suit_index(c, 18, 9)];
    let z = &t.honor[suit_index(c, 27, 7)];
    let (mp, sz) = (combine::<M>(m, p), combine::<M>(s, z));
    // Only entry (M melds, pair) of the last combination is needed.
    let mut best = u8::MAX;
    for m1 in 0..=M {
        best = best.min(mp.0[m1] + sz.0[8 + M - m1]).min(mp.0[8 + m1] + sz.0[M - m1]);
    }
    best as i8 - 1
}

/// Shanten of the standard form (melds + pair) for a concealed hand needing `melds` melds
/// (4 minus the called melds). −1 = complete.
#[inline]
pub fn standard(c: &Counts, melds: usize) -> i8 {
    // One specialised body per meld count so that the combination loops unroll.
    match melds {
        4 => standard_m::<4>(c),
        3 => standard_m::<3>(c),
        2 => standard_m::<2>(c),
        1 => standard_m::<1>(c),
        _ => standard_m::<0>(c),
    }
}

/// Per-kind summary of a hand: tile count and bit masks (bit k = kind k) of the kinds held and
/// of those held at least twice.
#[derive(Clone, Copy)]
pub(crate) struct Summary {
    pub(crate) tiles: u32,
    pub(crate) held: u64,
    pub(crate) pairs: u64,
}

#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn summary(c: &Counts) -> Summary {
    use std::arch::x86_64::*;
    // SAFETY: SSE2 is part of the x86_64 baseline; the two unaligned loads stay inside `c`.
    unsafe {
        let lo = _mm_loadu_si128(c.as_ptr().cast());
        let hi = _mm_loadu_si128(c.as_ptr().add(16).cast());
        let zero = _mm_setzero_si128();
        let sum = |v: __m128i| {
            let s = _mm_sad_epu8(v, zero);
            (_mm_cvtsi128_si32(s) + _mm_extract_epi16::<4>(s)) as u32
        };
        let mask = |v: __m128i, min: i8| _mm_movemask_epi8(_mm_cmpgt_epi8(v, _mm_set1_epi8(min - 1))) as u32 as u64;
        let (c32, c33) = (c[32], c[33]);
        Summary {
            tiles: sum(lo) + sum(hi) + u32::from(c32) + u32::from(c33),
            held: mask(lo, 1) | mask(hi, 1) << 16 | u64::from(c32 >= 1) << 32 | u64::from(c33 >= 1) << 33,
            pairs: mask(lo, 2) | mask(hi, 2) << 16 | u64::from(c32 >= 2) << 32 | u64::from(c33 >= 2) << 33,
        }
    }
}

#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
pub(crate) fn summary(c: &Counts) -> Summary {
    summary_portable(c)
}

/// [`summary`] without SIMD (see [`combine_portable`]).
#[cfg(any(test, not(target_arch = "x86_64")))]
#[inline(always)]
fn summary_portable(c: &Counts) -> Summary {
    let mut s = Summary { tiles: 0, held: 0, pairs: 0 };
    for (k, &x) in c.iter().enumerate() {
        s.tiles += u32::from(x);
        s.held |= u64::from(x >= 1) << k;
        s.pairs |= u64::from(x >= 2) << k;
    }
    s
}

const YAOCHU_MASK: u64 = {
    let mut m = 0u64;
    let mut i = 0;
    while i < YAOCHU.len() {
        m |= 1 << YAOCHU[i];
        i += 1;
    }
    m
};

#[inline(always)]
fn chiitoitsu_of(s: &Summary) -> i8 {
    6 - s.pairs.count_ones() as i8 + (7 - s.held.count_ones() as i8).max(0)
}

#[inline(always)]
fn kokushi_of(s: &Summary) -> i8 {
    13 - (s.held & YAOCHU_MASK).count_ones() as i8 - i8::from(s.pairs & YAOCHU_MASK != 0)
}

/// Shanten of seven pairs (distinct kinds): 6 − pairs, plus one for each kind short of seven.
pub fn chiitoitsu(c: &Counts) -> i8 {
    chiitoitsu_of(&summary(c))
}

/// Shanten of thirteen orphans.
pub fn kokushi(c: &Counts) -> i8 {
    kokushi_of(&summary(c))
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
    let s = summary(c);
    if s.tiles >= 13 {
        standard_m::<4>(c).min(chiitoitsu_of(&s)).min(kokushi_of(&s))
    } else {
        standard(c, s.tiles as usize / 3)
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

    /// The SIMD forms equal the portable ones that other targets run, on real table entries and
    /// random hands (a difference would make results depend on the machine).
    #[test]
    fn simd_forms_equal_the_portable_ones() {
        let t = tables();
        let mut st = crate::rng::Key::new(3).stream();
        let mut distinct = std::collections::BTreeSet::new();
        for _ in 0..20_000 {
            let a = &t.suit[st.below(t.suit.len() as u64) as usize];
            let b = if st.below(2) == 0 {
                &t.suit[st.below(t.suit.len() as u64) as usize]
            } else {
                &t.honor[st.below(t.honor.len() as u64) as usize]
            };
            // Only entries (m ≤ M, without / with pair) are defined.
            let (x, y) = (combine::<4>(a, b).0, combine_portable::<4>(a, b).0);
            assert_eq!((x[..5].to_vec(), x[8..13].to_vec()), (y[..5].to_vec(), y[8..13].to_vec()));
            distinct.insert(x[4]);
            let (x, y) = (combine::<2>(a, b).0, combine_portable::<2>(a, b).0);
            assert_eq!((x[..3].to_vec(), x[8..11].to_vec()), (y[..3].to_vec(), y[8..11].to_vec()));
            let mut c: Counts = [0; 34];
            for _ in 0..14 {
                let k = st.below(34) as usize;
                c[k] = (c[k] + 1).min(4);
            }
            let (x, y) = (summary(&c), summary_portable(&c));
            assert_eq!((x.tiles, x.held, x.pairs), (y.tiles, y.held, y.pairs));
        }
        assert!(distinct.len() > 3, "the sample must reach varied distances: {distinct:?}");
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

    /// The 40,000 hands of `tests/data/riichi/shanten` (standard, kokushi, chiitoitsu shanten).
    #[test]
    fn shanten_testdata() {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/data/riichi/shanten");
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
