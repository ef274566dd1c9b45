//! Which tiles lower a hand's shanten, fast: the hot loop of every efficiency discard and of the
//! wait sets the engine keeps after each discard.
//!
//! The standard form's distance is a min-plus combination of four per-suit distance vectors (one
//! entry per target: m melds, p pairs). Adding a tile changes only its own suit, by at most one,
//! so a tile lowers the hand's distance exactly when some *optimal* split of the targets over the
//! suits gives its suit a target whose distance that tile lowers. A second per-suit table holds,
//! for every pattern and target, the mask of such tiles; a hand's accepting set is the union of
//! those masks over the targets on an optimal split, found from each suit's distance plus the
//! combination of the other three. Seven pairs and thirteen orphans are updated in O(1) from pair
//! and kind counts. The result equals testing `shanten(c + j) < shanten(c)` for every kind `j` (a
//! test checks this against brute force on random hands).

use super::shanten::{combine, huge_pages, next_pattern, suit_index, summary, tables, Entry, Summary, POW5};
use super::tiles::{Counts, KINDS, YAOCHU};
use std::cell::RefCell;
use std::sync::OnceLock;

/// Per pattern and target (entry byte `8p + m`), the tiles of the suit (bit r) whose addition
/// lowers that target's distance (only where the pattern holds fewer than four of the tile).
struct Improve {
    suit: Vec<Row>,
    honor: Vec<Row>,
}

/// One pattern's improving tiles per target. Aligned so that a row never straddles two cache
/// lines (a large allocation starts 16 bytes into a page): one miss per row, and one prefetch.
#[repr(C, align(32))]
struct Row([u16; 16]);

fn improve() -> &'static Improve {
    static T: OnceLock<Improve> = OnceLock::new();
    T.get_or_init(|| {
        let t = tables();
        Improve { suit: build_improve(&t.suit, 9), honor: build_improve(&t.honor, 7) }
    })
}

fn build_improve(dist: &[Entry], n: usize) -> Vec<Row> {
    // The base-5 digits of h, advanced with h.
    let mut digits = [0u8; 9];
    huge_pages((0..dist.len()).map(|h| {
        if h > 0 {
            next_pattern(&mut digits);
        }
        let mut row = Row([0u16; 16]);
        for (r, &step) in POW5[..n].iter().enumerate() {
            if digits[r] >= 4 {
                continue;
            }
            // Branch-free over the 16 bytes so that the loop vectorises.
            for (bits, (&up, &here)) in row.0.iter_mut().zip(dist[h + step].0.iter().zip(&dist[h].0)) {
                *bits |= u16::from(up < here) << r;
            }
        }
        row
    }))
}

/// Min-plus combination of two parts for `melds` melds (the evaluator's SIMD step per meld count).
#[inline]
fn comb(a: &Entry, b: &Entry, melds: usize) -> Entry {
    match melds {
        4 => combine::<4>(a, b),
        3 => combine::<3>(a, b),
        2 => combine::<2>(a, b),
        1 => combine::<1>(a, b),
        _ => combine::<0>(a, b),
    }
}

/// The low (`i` = 0) or high half of an entry as a u64, byte k = entry byte 8i + k.
#[cfg(not(all(target_arch = "x86_64", target_feature = "ssse3")))]
#[inline]
fn half(e: &Entry, i: usize) -> u64 {
    u64::from_le_bytes(e.0[8 * i..8 * i + 8].try_into().expect("8 bytes"))
}

/// 0x80 in each zero byte of `x`, 0 elsewhere (exact: no carry crosses a byte).
#[cfg(not(all(target_arch = "x86_64", target_feature = "ssse3")))]
#[inline]
fn zero_bytes(x: u64) -> u64 {
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    !(((x & LOW7) + LOW7) | x | LOW7)
}

/// Per meld count, the byte shuffle that aligns a suit's entry with the entry of the other suits
/// it adds to on a split of `melds` melds and the pair: lane m (no pair) takes the other byte
/// 8 + melds − m (with the pair), lane 8 + m takes byte melds − m; lanes above `melds` take zero.
#[cfg(all(target_arch = "x86_64", target_feature = "ssse3"))]
const SHUFFLE: [[u8; 16]; 5] = {
    let mut t = [[0x80u8; 16]; 5];
    let mut melds = 0;
    while melds < 5 {
        let mut m = 0;
        while m <= melds {
            t[melds][m] = (8 + melds - m) as u8;
            t[melds][8 + m] = (melds - m) as u8;
            m += 1;
        }
        melds += 1;
    }
    t
};

/// Byte-wise minimum of two u64s whose bytes are all below 0x80 (no borrow crosses a byte).
#[cfg(not(all(target_arch = "x86_64", target_feature = "ssse3")))]
#[inline]
fn min_bytes(a: u64, b: u64) -> u64 {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let a_ge_b = ((((a | HIGH) - b) & HIGH) >> 7) * 0xFF;
    (b & a_ge_b) | (a & !a_ge_b)
}

/// Shanten of `melds` melds and the pair split between `rest` and `d`: the least
/// `rest[m] + d[8 + melds − m]` or `rest[8 + m] + d[melds − m]` over m ≤ melds. All at once in
/// u64 halves (SWAR): byte-reversing a half of `d` and shifting it aligns byte m with melds − m.
/// The live sums are true distances (each part at most 14 tiles), so every byte stays below 0x80
/// and no carry crosses a byte; the other bytes are set to 0x7F, above any live sum.
#[cfg(not(all(target_arch = "x86_64", target_feature = "ssse3")))]
#[inline]
fn finish(rest: &Entry, d: &Entry, melds: usize) -> i8 {
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    let melds = melds.min(4);
    let shift = 8 * (7 - melds);
    let live = (1u64 << (8 * (melds + 1))) - 1;
    let no_pair = ((half(rest, 0) + (half(d, 1).swap_bytes() >> shift)) & live) | (LOW7 & !live);
    let pair = ((half(rest, 1) + (half(d, 0).swap_bytes() >> shift)) & live) | (LOW7 & !live);
    let mut m = min_bytes(no_pair, pair);
    m = min_bytes(m, m >> 32);
    m = min_bytes(m, m >> 16);
    m = min_bytes(m, m >> 8);
    (m & 0xFF) as i8 - 1
}

/// The SSSE3 form of the SWAR version above: one byte shuffle aligns the split, then a byte-wise
/// minimum over the register (lanes off the split are saturated to 0xFF first).
#[cfg(all(target_arch = "x86_64", target_feature = "ssse3"))]
#[inline]
fn finish(rest: &Entry, d: &Entry, melds: usize) -> i8 {
    use std::arch::x86_64::*;
    // SAFETY: SSSE3 is enabled at compile time (the cfg above); the loads are of 16-byte entries.
    unsafe {
        let shuffle = _mm_loadu_si128(SHUFFLE[melds.min(4)].as_ptr().cast());
        let d = _mm_shuffle_epi8(_mm_load_si128(d.0.as_ptr().cast()), shuffle);
        let off = _mm_cmplt_epi8(shuffle, _mm_setzero_si128());
        let mut m = _mm_or_si128(_mm_adds_epu8(_mm_load_si128(rest.0.as_ptr().cast()), d), off);
        m = _mm_min_epu8(m, _mm_srli_si128::<8>(m));
        m = _mm_min_epu8(m, _mm_srli_si128::<4>(m));
        m = _mm_min_epu8(m, _mm_srli_si128::<2>(m));
        m = _mm_min_epu8(m, _mm_srli_si128::<1>(m));
        (_mm_cvtsi128_si32(m) & 0xFF) as i8 - 1
    }
}

/// The four suits' distance vectors of a hand, their table indices, and for each suit the
/// combination of the other three.
struct Suits {
    idx: [usize; 4],
    d: [&'static Entry; 4],
    rest: [Entry; 4],
    melds: usize,
}

fn dist(b: usize, idx: usize) -> &'static Entry {
    let t = tables();
    if b == 3 {
        &t.honor[idx]
    } else {
        &t.suit[idx]
    }
}

/// Asks for a table row ahead of its use: the rows of one decision are independent random reads
/// of large tables, and issuing them together overlaps their cache misses.
#[inline(always)]
fn prefetch<T>(row: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch of a valid reference has no effect on memory or on program semantics.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>((row as *const T).cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = row;
}

fn indices(c: &Counts) -> [usize; 4] {
    [suit_index(c, 0, 9), suit_index(c, 9, 9), suit_index(c, 18, 9), suit_index(c, 27, 7)]
}

impl Suits {
    fn of(idx: [usize; 4], melds: usize) -> Self {
        Self::with_pairs(idx, melds).0
    }

    /// [`of`](Self::of), with the combinations of suits 0 and 1 and of suits 2 and 3 on the way.
    fn with_pairs(idx: [usize; 4], melds: usize) -> (Self, [Entry; 2]) {
        let t = tables();
        let d = [&t.suit[idx[0]], &t.suit[idx[1]], &t.suit[idx[2]], &t.honor[idx[3]]];
        let ab = comb(d[0], d[1], melds);
        let cd = comb(d[2], d[3], melds);
        let rest = [comb(&cd, d[1], melds), comb(&cd, d[0], melds), comb(&ab, d[3], melds), comb(&ab, d[2], melds)];
        (Suits { idx, d, rest, melds }, [ab, cd])
    }

    fn standard(&self) -> i8 {
        finish(&self.rest[3], self.d[3], self.melds)
    }

    /// Kinds that lower the standard-form shanten `std`: the improving tiles of every suit target
    /// on an optimal split.
    fn accept_mask(&self, std: i8) -> u64 {
        (0..4).fold(0, |mask, b| mask | suit_accept(self.d[b], &self.rest[b], self.melds, std, || row(b, self.idx[b])) << (9 * b))
    }
}

/// The improving-tile row of pattern `idx` of suit `b`.
fn row(b: usize, idx: usize) -> &'static Row {
    let imp = improve();
    if b == 3 {
        &imp.honor[idx]
    } else {
        &imp.suit[idx]
    }
}

/// The tiles of one suit (bit r = rank r) that lower a hand's standard-form shanten `std`: the
/// improving tiles (`row`) of the suit's targets on an optimal split, where the suit has the
/// distances `d` and the other three suits combined have `rest`. The SSSE3 form of the SWAR
/// version below: one byte shuffle aligns the other suits' entry m' = melds − m, 1 − p with this
/// suit's (m, p) for all ten targets at once, and the improving-tile row is OR-ed over the hit
/// targets without a branch per target.
#[cfg(all(target_arch = "x86_64", target_feature = "ssse3"))]
#[inline(always)]
fn suit_accept(d: &Entry, rest: &Entry, melds: usize, std: i8, row: impl FnOnce() -> &'static Row) -> u64 {
    use std::arch::x86_64::*;
    // SAFETY: SSSE3 is enabled at compile time (the cfg above); every load is of a 16-byte entry
    // or of the two halves of a 32-byte improving-tile row.
    unsafe {
        let shuffle = _mm_loadu_si128(SHUFFLE[melds.min(4)].as_ptr().cast());
        let live = _mm_cmpgt_epi8(shuffle, _mm_set1_epi8(-1));
        let goal = _mm_set1_epi8(std + 1);
        // The targets of this suit on an optimal split that a tile could still lower: m melds and
        // p pairs here (distance > 0) and the rest elsewhere, summing to the goal.
        let d = _mm_load_si128(d.0.as_ptr().cast());
        let rest = _mm_shuffle_epi8(_mm_load_si128(rest.0.as_ptr().cast()), shuffle);
        let on = _mm_cmpeq_epi8(_mm_adds_epu8(d, rest), goal);
        let on = _mm_and_si128(_mm_andnot_si128(_mm_cmpeq_epi8(d, _mm_setzero_si128()), on), live);
        if _mm_movemask_epi8(on) == 0 {
            return 0;
        }
        // Only now is the improving-tile row read (a cache miss in a large table).
        let row = row();
        let lo = _mm_and_si128(_mm_load_si128(row.0.as_ptr().cast()), _mm_unpacklo_epi8(on, on));
        let hi = _mm_and_si128(_mm_load_si128(row.0.as_ptr().add(8).cast()), _mm_unpackhi_epi8(on, on));
        let mut bits = _mm_or_si128(lo, hi);
        bits = _mm_or_si128(bits, _mm_srli_si128::<8>(bits));
        bits = _mm_or_si128(bits, _mm_srli_si128::<4>(bits));
        bits = _mm_or_si128(bits, _mm_srli_si128::<2>(bits));
        _mm_cvtsi128_si32(bits) as u64 & 0x1FF
    }
}

/// The tiles of one suit that lower a hand's standard-form shanten `std` (see the SSSE3 form).
#[cfg(not(all(target_arch = "x86_64", target_feature = "ssse3")))]
#[inline(always)]
fn suit_accept(d: &Entry, rest: &Entry, melds: usize, std: i8, row: impl FnOnce() -> &'static Row) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let goal = ONES * u64::from((std + 1) as u8);
    let melds = melds.min(4);
    // Byte m (m ≤ melds) of the eight-byte halves below is target m of this suit.
    let live = ((1u64 << (8 * (melds + 1))) - 1) & (ONES << 7);
    // The targets of this suit on an optimal split that a tile could still lower: m melds and p
    // pairs here (distance > 0) and melds − m, 1 − p in the other suits, summing to the goal. All
    // eight values of m at once in a u64 (SWAR): byte-reversing the other suits' half and shifting
    // it aligns byte m with melds − m. No byte carries into the next: distances and padding are
    // below 0x40, the other suits' entries up to `melds` below 0x80, and the bytes shifted in are
    // zero.
    let (d0, d1) = (half(d, 0), half(d, 1));
    let shift = 8 * (7 - melds);
    let r1 = half(rest, 1).swap_bytes() >> shift;
    let r0 = half(rest, 0).swap_bytes() >> shift;
    let no_pair = zero_bytes((d0 + r1) ^ goal) & !zero_bytes(d0) & live;
    let pair = zero_bytes((d1 + r0) ^ goal) & !zero_bytes(d1) & live;
    if no_pair | pair == 0 {
        return 0;
    }
    // Only now is the improving-tile row read (a cache miss in a large table).
    let row = row();
    let mut bits = 0u16;
    for (mut on, base) in [(no_pair, 0), (pair, 8)] {
        while on != 0 {
            bits |= row.0[base + on.trailing_zeros() as usize / 8];
            on &= on - 1;
        }
    }
    u64::from(bits)
}

/// Terminal and honor kinds, bit per kind.
const Y_MASK: u64 = {
    let mut m = 0u64;
    let mut i = 0;
    while i < YAOCHU.len() {
        m |= 1 << YAOCHU[i];
        i += 1;
    }
    m
};

const ALL: u64 = (1 << KINDS) - 1;

/// Seven pairs and thirteen orphans from bit masks of the kinds held once and at least twice.
#[derive(Clone, Copy)]
struct Special {
    ones: u64,
    twos: u64,
}

impl Special {
    fn new(s: &Summary) -> Self {
        Special { ones: s.held & !s.pairs, twos: s.pairs }
    }

    fn chiitoi(&self) -> i8 {
        let kinds = (self.ones | self.twos).count_ones() as i8;
        6 - self.twos.count_ones() as i8 + (7 - kinds).max(0)
    }

    fn kokushi(&self) -> i8 {
        13 - ((self.ones | self.twos) & Y_MASK).count_ones() as i8 - i8::from(self.twos & Y_MASK != 0)
    }

    fn shanten(&self) -> i8 {
        self.chiitoi().min(self.kokushi())
    }

    /// Kinds whose addition lowers the special-form shanten (each form moves by at most one).
    fn lowering(&self) -> u64 {
        let held = self.ones | self.twos;
        let sp = self.shanten();
        let mut mask = 0;
        if self.chiitoi() == sp {
            mask |= self.ones | if held.count_ones() < 7 { ALL & !held } else { 0 };
        }
        if self.kokushi() == sp {
            mask |= Y_MASK & !held | if self.twos & Y_MASK == 0 { Y_MASK & self.ones } else { 0 };
        }
        mask
    }

    /// The masks after removing one tile of kind `j`, held `n` times.
    fn without(&self, j: usize, n: u8) -> Special {
        let b = 1u64 << j;
        match n {
            1 => Special { ones: self.ones & !b, twos: self.twos },
            2 => Special { ones: self.ones | b, twos: self.twos & !b },
            _ => *self,
        }
    }
}

/// The shanten and accepting set of the hand `c` whose suits are `suits`; `special` holds its
/// seven-pairs/orphans counts when those forms count.
fn accept_of(suits: &Suits, special: Option<&Special>) -> (i8, u64) {
    let std = suits.standard();
    let sp = special.map_or(i8::MAX, Special::shanten);
    let base = std.min(sp);
    let mut mask = if std == base { suits.accept_mask(std) } else { 0 };
    // A special form lowers the shanten only if it is already optimal (a tile moves it by one).
    if let Some(x) = special.filter(|_| sp == base) {
        mask |= x.lowering();
    }
    (base, mask)
}

/// The shanten of `c` (a 3n+1-tile concealed part) and the bit mask of the kinds whose addition
/// lowers it. With shanten 0 the mask is the wait set (kinds held four times excluded). On a
/// 3n+2-tile part it is the standard form's (n melds and the pair), which Hong Kong's discard reads
/// as a bound: the special forms count for 13 tiles only.
pub fn accepting(c: &Counts) -> (i8, u64) {
    let s = summary(c);
    let n = s.tiles as usize;
    let suits = Suits::of(indices(c), (n / 3).min(4));
    // Seven pairs and thirteen orphans count for a full closed hand (13 tiles, 14 with the tile).
    let special = (n == 13).then(|| Special::new(&s));
    accept_of(&suits, special.as_ref())
}

/// A 3n+2-tile hand seen for its discards: each suit's distances, the combinations of suit pairs
/// and of the three suits beside each suit (a discard changes one suit, so these are shared by
/// every candidate), and the shanten after each discard.
struct Discards {
    hand: Counts,
    sum: Summary,
    suits: Suits,
    /// pair[x][y]: suits x < y combined, where bit 4x + y of `paired` is set. Suits 0–1 and 2–3
    /// come with the view; the four mixed pairs are combined when an accepting set needs them
    /// (discards from one or two suits need only some).
    pair: [[Entry; 4]; 4],
    paired: u16,
    /// Per suit, the last discard's distances there and the tiles of the other suits that then
    /// lower the hand: discards of different kinds often leave the suit the same distances (two
    /// isolated honors, say), and so the other suits the same accepting tiles.
    last: [Option<(Entry, u64)>; 4],
    /// The seven-pairs/orphans shanten of a 14-tile hand (`i8::MAX` otherwise): no discard lowers
    /// it, so a discard whose standard shanten is below it has no special-form accepting tiles.
    floor: i8,
    after: [i8; KINDS],
    /// The accepting set after each discard in `known`.
    masks: [u64; KINDS],
    known: u64,
    /// Accepting sets of recent hands left by a discard, by their suit patterns (kept from turn to
    /// turn): the hand a seat keeps is, on its next turn, the hand less the tile it draws, so
    /// discarding that tile asks again for a set weighed the turn before.
    recent: Box<[Recent; RECENT]>,
}

/// Slots of [`Discards::recent`]: a seat's last kept hand must outlive the three other seats'
/// turns between its own.
const RECENT: usize = 64;

/// A hand's suit patterns (its counts, one to one) and its accepting set.
#[derive(Clone, Copy)]
struct Recent {
    key: [u32; 4],
    mask: u64,
}

impl Recent {
    /// The slot of a hand: a multiplicative hash of its patterns.
    fn slot(key: &[u32; 4]) -> usize {
        let h = key[0] ^ key[1].rotate_left(8) ^ key[2].rotate_left(16) ^ key[3].rotate_left(24);
        (h.wrapping_mul(0x9E37_79B1) >> (32 - RECENT.trailing_zeros())) as usize
    }
}

impl Discards {
    /// A view that matches no hand (no hand holds 255 tiles of a kind), to be [`reset`](Self::reset).
    fn empty() -> Self {
        Discards {
            hand: [u8::MAX; KINDS],
            sum: Summary { tiles: 0, held: 0, pairs: 0 },
            suits: Suits::of([0; 4], 0),
            pair: [[Entry([0; 16]); 4]; 4],
            paired: 0,
            last: [None; 4],
            floor: i8::MAX,
            after: [i8::MAX; KINDS],
            masks: [0; KINDS],
            known: 0,
            // No hand has these patterns (each suit's index is below 5^9).
            recent: Box::new([Recent { key: [u32::MAX; 4], mask: 0 }; RECENT]),
        }
    }

    /// Makes this the view of `c`, in place: the view is about a kilobyte, and a turn builds one.
    fn reset(&mut self, c: &Counts) {
        let sum = summary(c);
        let n = sum.tiles as usize;
        let idx = indices(c);
        // Per suit, its tables and the kinds held there (bit r = rank r).
        let (t, imp) = (tables(), improve());
        let suit = |b: usize| {
            let held = sum.held >> (9 * b) & 0x1FF;
            if b == 3 {
                (&t.honor[..], &imp.honor[..], held)
            } else {
                (&t.suit[..], &imp.suit[..], held)
            }
        };
        // Every row this view may read: the hand's suits and each discard's, distances and
        // improving tiles. Asked for at once, their misses overlap instead of coming in three
        // rounds (the suits, then the discards' distances, then the accepting sets' rows).
        for (b, &i) in idx.iter().enumerate() {
            let (dist, rows, held) = suit(b);
            prefetch(&dist[i]);
            prefetch(&rows[i]);
            for r in Bits(held) {
                prefetch(&dist[i - POW5[r]]);
                prefetch(&rows[i - POW5[r]]);
            }
        }
        let (suits, [ab, cd]) = Suits::with_pairs(idx, ((n - 1) / 3).min(4));
        let special = (n == 14).then(|| Special::new(&sum));
        // Removing a tile never lowers the seven-pairs or orphans shanten: where the 14-tile value
        // is no better than the standard form's, the special forms cannot change the minimum.
        let special_floor = special.as_ref().map_or(i8::MAX, Special::shanten);
        self.after = [i8::MAX; KINDS];
        for (b, &i) in idx.iter().enumerate() {
            let (dist, _, held) = suit(b);
            for r in Bits(held) {
                let j = 9 * b + r;
                let mut s = finish(&suits.rest[b], &dist[i - POW5[r]], suits.melds);
                if let Some(sp) = special.as_ref().filter(|_| special_floor < s) {
                    s = s.min(sp.without(j, c[j]).shanten());
                }
                self.after[j] = s;
            }
        }
        self.hand = *c;
        self.sum = sum;
        self.suits = suits;
        (self.pair[0][1], self.pair[2][3]) = (ab, cd);
        self.paired = 1 << 1 | 1 << (4 * 2 + 3);
        self.last = [None; 4];
        self.floor = special_floor;
        self.known = 0;
    }

    /// Suits x < y combined.
    fn pair(&mut self, x: usize, y: usize) -> &Entry {
        let bit = 1 << (4 * x + y);
        if self.paired & bit == 0 {
            self.pair[x][y] = comb(self.suits.d[x], self.suits.d[y], self.suits.melds);
            self.paired |= bit;
        }
        &self.pair[x][y]
    }

    /// The accepting set after discarding `k` (held): [`accepting`] of c − k, suit by suit. The
    /// other three suits combined are c's for k's own suit; each other suit needs the combination
    /// of the two remaining ones with k's suit after the discard.
    fn mask(&mut self, k: usize) -> u64 {
        if self.known & 1 << k != 0 {
            return self.masks[k];
        }
        let melds = self.suits.melds;
        let a = k / 9;
        let i = self.suits.idx[a] - POW5[k % 9];
        // The set is a function of the hand left, c − k, alone.
        let mut key = self.suits.idx.map(|x| x as u32);
        key[a] = i as u32;
        let slot = Recent::slot(&key);
        if self.recent[slot].key == key {
            self.masks[k] = self.recent[slot].mask;
            self.known |= 1 << k;
            return self.masks[k];
        }
        let da = dist(a, i);
        let std = finish(&self.suits.rest[a], da, melds);
        // A special form counts only where it can be as low as the standard form.
        let special = (self.floor <= std).then(|| Special::new(&self.sum).without(k, self.hand[k]));
        let sp = special.as_ref().map_or(i8::MAX, Special::shanten);
        let base = std.min(sp);
        let mut mask = 0;
        if std == base {
            let others = match self.last[a] {
                Some((e, others)) if e.0 == da.0 => others,
                _ => {
                    let [x, y, z] = OTHERS[a];
                    let mut others = 0;
                    for (b, (p, q)) in [(x, (y, z)), (y, (x, z)), (z, (x, y))] {
                        let rest = comb(self.pair(p, q), da, melds);
                        let idx = self.suits.idx[b];
                        others |= suit_accept(self.suits.d[b], &rest, melds, std, || row(b, idx)) << (9 * b);
                    }
                    self.last[a] = Some((*da, others));
                    others
                }
            };
            mask = others | suit_accept(da, &self.suits.rest[a], melds, std, || row(a, i)) << (9 * a);
        }
        // A special form lowers the shanten only if it is already optimal (a tile moves it by one).
        if let Some(x) = special.filter(|_| sp == base) {
            mask |= x.lowering();
        }
        self.masks[k] = mask;
        self.known |= 1 << k;
        self.recent[slot] = Recent { key, mask };
        mask
    }

    /// For each kind in `want` (held): the accepting set after discarding it.
    fn accepting(&mut self, want: u64) -> [u64; KINDS] {
        let mut masks = [0; KINDS];
        for k in Bits(want & self.sum.held) {
            masks[k] = self.mask(k);
        }
        masks
    }

    /// The shanten `s` of the best discards and, for each kind `k` in `want` (held) whose discard
    /// leaves `s`, a superset of the accepting set after discarding it, if the standard form alone
    /// decides. A tile that lowers the hand left, c − k + j, lowers the whole hand c as well (one
    /// more tile never adds to a distance, and c's distance is s + 1): the superset is c's own
    /// accepting set in the suits other than k's. In k's own suit it is exact, and cheap: the
    /// other three suits combined are c's, so no combination is needed, only k's suit's
    /// distances after the discard. Seven pairs and orphans move by a tile at a time, so they
    /// matter only where c's special shanten is at most s.
    /// The best discards' shanten and one superset of the accepting set after each of them.
    fn bound(&self) -> Option<(i8, u64)> {
        let best = self.after.iter().copied().min()?;
        let std = self.suits.standard();
        let special = (self.sum.tiles == 14).then(|| Special::new(&self.sum).shanten());
        (std == best && std >= 0 && special.is_none_or(|sp| sp > best)).then(|| (best, self.suits.accept_mask(std)))
    }

    fn bounds(&self, want: u64, supersets: &mut [u64; KINDS]) -> Option<i8> {
        let (best, superset) = self.bound()?;
        for k in Bits(want & self.sum.held) {
            if self.after[k] != best {
                continue;
            }
            let a = k / 9;
            let i = self.suits.idx[a] - POW5[k % 9];
            let own = suit_accept(dist(a, i), &self.suits.rest[a], self.suits.melds, best, || row(a, i));
            supersets[k] = superset & !(0x1FF << (9 * a)) | own << (9 * a);
        }
        Some(best)
    }
}

/// The three suits other than each suit.
const OTHERS: [[usize; 3]; 4] = [[1, 2, 3], [0, 2, 3], [0, 1, 3], [0, 1, 2]];

/// The set bits of a kind mask, lowest first.
pub struct Bits(pub u64);

impl Iterator for Bits {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let k = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(k)
    }
}

thread_local! {
    /// The last hand asked about its discards: a turn asks for the same hand several times (the
    /// engine for its riichi discards, the policy for the shanten, then the accepting sets).
    static LAST: RefCell<Option<Discards>> = const { RefCell::new(None) };
}

/// `a == b` in three loads each instead of a call to `memcmp`: asked several times a turn.
#[inline]
fn same_hand(a: &Counts, b: &Counts) -> bool {
    let word = |c: &Counts, i: usize| u128::from_ne_bytes(c[16 * i..16 * i + 16].try_into().expect("16 bytes"));
    word(a, 0) == word(b, 0) && word(a, 1) == word(b, 1) && a[32..] == b[32..]
}

fn with_discards<R>(c: &Counts, f: impl FnOnce(&mut Discards) -> R) -> R {
    LAST.with(|last| {
        let mut last = last.borrow_mut();
        let d = last.get_or_insert_with(Discards::empty);
        if !same_hand(&d.hand, c) {
            d.reset(c);
        }
        f(d)
    })
}

/// The wait set (see [`accepting`]; 0 unless ready) of the 3n+2-tile part `c` minus a tile of kind
/// `k`, if this turn's view of `c`'s discards is at hand (a native policy chose the discard).
pub fn known_waits_after(c: &Counts, k: usize) -> Option<u64> {
    LAST.with(|last| match last.borrow_mut().as_mut() {
        Some(d) if same_hand(&d.hand, c) => Some(if d.after[k] == 0 { d.mask(k) } else { 0 }),
        _ => None,
    })
}

/// Shanten after discarding each kind from the 3n+2-tile part `c` (`i8::MAX` for kinds not held).
pub fn after_discards(c: &Counts) -> [i8; KINDS] {
    with_discards(c, |d| d.after)
}

/// For each kind `k` in `want` (held in the 3n+2-tile part `c`): the accepting set of `c` minus
/// `k` — [`accepting`] for every candidate discard.
pub fn accepting_after(c: &Counts, want: u64) -> [u64; KINDS] {
    with_discards(c, |d| d.accepting(want))
}

/// For the 3n+2-tile part `c`: the shanten `s` of its best discards and, in `supersets[k]` for
/// each kind `k` in `want` (held) whose discard leaves `s`, a superset of the accepting set after
/// discarding it; `None` where seven pairs or orphans could be in play.
pub fn accepting_bounds(c: &Counts, want: u64, supersets: &mut [u64; KINDS]) -> Option<i8> {
    with_discards(c, |d| d.bounds(want, supersets))
}

/// For the 3n+2-tile part `c`: the shanten `s` of its best discards and one superset of the
/// accepting set after every discard of kind `k` that leaves `s`, once `k` is taken out (looser
/// than [`accepting_bounds`]' per kind); `None` where seven pairs or orphans could be in play.
pub fn accepting_bound(c: &Counts) -> Option<(i8, u64)> {
    with_discards(c, |d| d.bound())
}

/// The accepting set of `c` minus a held `k` (one kind of [`accepting_after`]).
pub fn accepting_after_kind(c: &Counts, k: usize) -> u64 {
    with_discards(c, |d| d.mask(k))
}

#[cfg(test)]
mod tests {
    use super::super::shanten::{shanten, standard};
    use super::*;
    use crate::rng::Key;

    fn brute(c: &mut Counts) -> (i8, u64) {
        let base = shanten(c);
        let mut mask = 0u64;
        for j in 0..KINDS {
            if c[j] < 4 {
                c[j] += 1;
                if shanten(c) < base {
                    mask |= 1 << j;
                }
                c[j] -= 1;
            }
        }
        (base, mask)
    }

    #[test]
    fn equals_brute_force_on_random_hands() {
        let (mut checked, mut bounded) = (0, 0);
        for g in 0..3000u64 {
            let mut ids: Vec<u8> = (0..136).collect();
            let mut st = Key::new(5).with(g).stream();
            st.shuffle(&mut ids);
            // 13, 10, 7, 4 and 1 tiles: closed and open hands; every third hand leans to one suit
            // and pairs, where seven pairs and ready hands are common.
            let n = [13, 13, 13, 10, 7, 4, 1][(g % 7) as usize];
            let mut c = [0u8; KINDS];
            let pool: Vec<u8> = if g % 3 == 0 { ids.iter().copied().filter(|&t| t / 4 < 9 || t / 4 >= 27).collect() } else { ids };
            for &t in &pool[..n] {
                c[usize::from(t / 4)] += 1;
            }
            assert_eq!(accepting(&c), brute(&mut c), "{c:?}");
            // With one more tile: the shanten after each discard, and each discard's accepting set.
            let extra = usize::from(pool[n] / 4);
            if c[extra] < 4 {
                c[extra] += 1;
                let got = after_discards(&c);
                if n == 13 {
                    // A 14-tile part: the standard form's shanten and the kinds that lower it.
                    let std = standard(&c, 4);
                    let mut lowering = 0u64;
                    for j in 0..KINDS {
                        if c[j] < 4 {
                            c[j] += 1;
                            if standard(&c, 4) < std {
                                lowering |= 1 << j;
                            }
                            c[j] -= 1;
                        }
                    }
                    assert_eq!(accepting(&c), (std, lowering), "{c:?}");
                }
                let mut supersets = [0; KINDS];
                let bound = accepting_bounds(&c, u64::MAX, &mut supersets);
                let loose = accepting_bound(&c);
                assert_eq!(loose.map(|(s, _)| s), bound, "{c:?}");
                let masks = accepting_after(&c, u64::MAX);
                for j in 0..KINDS {
                    if c[j] > 0 {
                        assert_eq!(accepting_after_kind(&c, j), masks[j]);
                        if let Some(s) = bound.filter(|&s| got[j] == s) {
                            bounded += 1;
                            assert_eq!(masks[j] & !supersets[j], 0, "bound after discarding {j} of {c:?} at {s}");
                            let (_, union) = loose.unwrap_or_default();
                            assert_eq!(supersets[j] & !union, 0, "the one bound holds each kind's: {j} of {c:?}");
                            let suit = 0x1FF << (9 * (j / 9));
                            assert_eq!(masks[j] & suit, supersets[j] & suit, "own suit after discarding {j} of {c:?}");
                        }
                        c[j] -= 1;
                        assert_eq!(got[j], shanten(&c), "discard {j} of {c:?}");
                        assert_eq!(masks[j], brute(&mut c).1, "accepting after discarding {j} of {c:?}");
                        c[j] += 1;
                    }
                }
            }
            checked += 1;
        }
        assert_eq!(checked, 3000);
        assert!(bounded > 1000, "{bounded} discards under a bound");
    }
}
