//! Which tiles lower a hand's shanten, fast: the hot loop of every efficiency discard and of the
//! wait sets the engine keeps after each discard.
//!
//! Adding a tile changes only its own suit's pattern, so the other three suits' distance vectors
//! (shanten tables) are combined once per suit and each candidate tile costs one table lookup and
//! one final min-plus step; seven pairs and thirteen orphans are updated in O(1) from pair and kind
//! counts. The result equals testing `shanten(c + j) < shanten(c)` for every kind `j` (a test
//! checks this on random hands).

use super::shanten::{combine, suit_index, tables, Dist, POW5};
use super::tiles::{is_yaochu, Counts, KINDS, YAOCHU};


#[inline]
fn finish(rest: &Dist, d: &Dist, melds: usize) -> i8 {
    let mut best = u8::MAX;
    for m1 in 0..=melds {
        let m2 = melds - m1;
        best = best.min(rest[m1 * 2] + d[m2 * 2 + 1]).min(rest[m1 * 2 + 1] + d[m2 * 2]);
    }
    best as i8 - 1
}

/// The four suits' distance vectors of `c`, their table indices, and for each suit the
/// combination of the other three.
struct Suits {
    idx: [usize; 4],
    d: [&'static Dist; 4],
    rest: [Dist; 4],
    melds: usize,
}

impl Suits {
    fn new(c: &Counts, melds: usize) -> Self {
        let t = tables();
        let idx = [suit_index(c, 0, 9), suit_index(c, 9, 9), suit_index(c, 18, 9), suit_index(c, 27, 7)];
        let d = [&t.suit[idx[0]], &t.suit[idx[1]], &t.suit[idx[2]], &t.honor[idx[3]]];
        Self::of(idx, d, melds)
    }

    fn of(idx: [usize; 4], d: [&'static Dist; 4], melds: usize) -> Self {
        let ab = combine(d[0], d[1], melds);
        let cd = combine(d[2], d[3], melds);
        let rest = [combine(&cd, d[1], melds), combine(&cd, d[0], melds), combine(&ab, d[3], melds), combine(&ab, d[2], melds)];
        Suits { idx, d, rest, melds }
    }

    /// Standard-form shanten with suit `b`'s pattern index moved to `idx`.
    #[inline]
    fn with(&self, b: usize, idx: usize) -> i8 {
        let t = tables();
        let nd = if b == 3 { &t.honor[idx] } else { &t.suit[idx] };
        finish(&self.rest[b], nd, self.melds)
    }

    fn standard(&self) -> i8 {
        finish(&self.rest[3], self.d[3], self.melds)
    }
}

/// Pair and kind counts for seven pairs and thirteen orphans.
struct Special {
    pairs: i8,
    kinds: i8,
    y_kinds: i8,
    y_pair: bool,
}

impl Special {
    fn new(c: &Counts) -> Self {
        Special {
            pairs: c.iter().filter(|&&x| x >= 2).count() as i8,
            kinds: c.iter().filter(|&&x| x >= 1).count() as i8,
            y_kinds: YAOCHU.iter().filter(|&&k| c[usize::from(k)] >= 1).count() as i8,
            y_pair: YAOCHU.iter().any(|&k| c[usize::from(k)] >= 2),
        }
    }

    fn shanten(pairs: i8, kinds: i8, y_kinds: i8, y_pair: bool) -> i8 {
        (6 - pairs + (7 - kinds).max(0)).min(13 - y_kinds - i8::from(y_pair))
    }

    /// Seven-pairs/orphans shanten after adding one tile of kind `j` (held `n` times).
    fn plus(&self, j: usize, n: u8) -> i8 {
        let y = is_yaochu(j as u8);
        Self::shanten(
            self.pairs + i8::from(n == 1),
            self.kinds + i8::from(n == 0),
            self.y_kinds + i8::from(y && n == 0),
            self.y_pair || (y && n == 1),
        )
    }

    /// The same after removing one tile of kind `j` from a hand holding it `n` times (`others`
    /// tells whether another yaochu kind is held twice).
    fn minus(&self, j: usize, n: u8, other_y_pair: bool) -> i8 {
        let y = is_yaochu(j as u8);
        Self::shanten(
            self.pairs - i8::from(n == 2),
            self.kinds - i8::from(n == 1),
            self.y_kinds - i8::from(y && n == 1),
            if y && n == 2 { other_y_pair } else { self.y_pair },
        )
    }
}

fn tiles(c: &Counts) -> usize {
    c.iter().map(|&x| usize::from(x)).sum()
}

/// The shanten of `c` (a 3n+1-tile concealed part) and the bit mask of the kinds whose addition
/// lowers it. With shanten 0 the mask is the wait set (kinds held four times excluded).
pub fn accepting(c: &Counts) -> (i8, u64) {
    let n = tiles(c);
    let suits = Suits::new(c, (n / 3).min(4));
    // Seven pairs and thirteen orphans count for a full closed hand (13 tiles, 14 with the tile).
    let special = (n == 13).then(|| Special::new(c));
    let mut base = suits.standard();
    if let Some(sp) = &special {
        base = base.min(Special::shanten(sp.pairs, sp.kinds, sp.y_kinds, sp.y_pair));
    }
    let mut mask = 0u64;
    for j in 0..KINDS {
        let (b, r) = (j / 9, j % 9);
        {
            if c[j] >= 4 {
                continue;
            }
            // A tile with no held tile of its kind or within two of it in its suit forms no group
            // with the hand: it cannot lower the standard shanten (this skips a table lookup).
            let mut s = if near(c, j) { suits.with(b, suits.idx[b] + POW5[r]) } else { base + 1 };
            if let Some(sp) = &special {
                if s >= base {
                    s = s.min(sp.plus(j, c[j]));
                }
            }
            if s < base {
                mask |= 1 << j;
            }
        }
    }
    (base, mask)
}

fn dist(b: usize, idx: usize) -> &'static Dist {
    let t = tables();
    if b == 3 { &t.honor[idx] } else { &t.suit[idx] }
}

#[inline]
fn near(c: &Counts, j: usize) -> bool {
    let (b, r) = (j / 9, j % 9);
    c[j] > 0 || (b < 3 && ((r >= 1 && c[j - 1] > 0) || (r >= 2 && c[j - 2] > 0) || (r <= 7 && c[j + 1] > 0) || (r <= 6 && c[j + 2] > 0)))
}

/// For each kind `k` in `want` (held in the 3n+2-tile part `c`): the mask of kinds that lower the
/// shanten of `c` minus `k` — [`accepting`] for every candidate discard at once, sharing the table
/// lookups of the suits a discard leaves unchanged.
pub fn accepting_after(c: &Counts, want: u64) -> [u64; KINDS] {
    let n = tiles(c);
    let melds = ((n - 1) / 3).min(4);
    let t = tables();
    let idx = [suit_index(c, 0, 9), suit_index(c, 9, 9), suit_index(c, 18, 9), suit_index(c, 27, 7)];
    let d = [&t.suit[idx[0]], &t.suit[idx[1]], &t.suit[idx[2]], &t.honor[idx[3]]];
    let mut plus: [Option<&'static Dist>; KINDS] = [None; KINDS];
    let mut out = [0u64; KINDS];
    let mut h = *c;
    for k in 0..KINDS {
        if want >> k & 1 == 0 || c[k] == 0 {
            continue;
        }
        h[k] -= 1;
        let (a, rk) = (k / 9, k % 9);
        let ia = idx[a] - POW5[rk];
        let mut idx13 = idx;
        idx13[a] = ia;
        let mut d13 = d;
        d13[a] = dist(a, ia);
        let suits = Suits::of(idx13, d13, melds);
        let special = (n == 14).then(|| Special::new(&h));
        let mut base = suits.standard();
        if let Some(sp) = &special {
            base = base.min(Special::shanten(sp.pairs, sp.kinds, sp.y_kinds, sp.y_pair));
        }
        let mut mask = 0u64;
        for j in 0..KINDS {
            if h[j] >= 4 {
                continue;
            }
            let (b, r) = (j / 9, j % 9);
            let mut s = if near(&h, j) {
                let nd = if b == a {
                    dist(a, ia + POW5[r])
                } else {
                    *plus[j].get_or_insert_with(|| dist(b, idx[b] + POW5[r]))
                };
                finish(&suits.rest[b], nd, melds)
            } else {
                base + 1
            };
            if let Some(sp) = &special {
                if s >= base {
                    s = s.min(sp.plus(j, h[j]));
                }
            }
            if s < base {
                mask |= 1 << j;
            }
        }
        out[k] = mask;
        h[k] += 1;
    }
    out
}

/// Shanten after discarding each kind from the 3n+2-tile part `c` (`i8::MAX` for kinds not held).
pub fn after_discards(c: &Counts) -> [i8; KINDS] {
    let n = tiles(c);
    let suits = Suits::new(c, ((n - 1) / 3).min(4));
    let special = (n == 14).then(|| Special::new(c));
    let y_pairs = YAOCHU.iter().filter(|&&k| c[usize::from(k)] >= 2).count();
    let mut out = [i8::MAX; KINDS];
    for (j, slot) in out.iter_mut().enumerate() {
        if c[j] == 0 {
            continue;
        }
        let (b, r) = (j / 9, j % 9);
        let mut s = suits.with(b, suits.idx[b] - POW5[r]);
        if let Some(sp) = &special {
            let other_y_pair = y_pairs > 1;
            s = s.min(sp.minus(j, c[j], other_y_pair));
        }
        *slot = s;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::shanten::shanten;
    use super::*;
    use crate::rng::Key;

    #[test]
    fn equals_brute_force_on_random_hands() {
        let mut checked = 0;
        for g in 0..4000u64 {
            let mut ids: Vec<u8> = (0..136).collect();
            let mut st = Key::new(5).with(g).stream();
            st.shuffle(&mut ids);
            // 13, 10, 7, 4 and 1 tiles: closed and open hands.
            let n = [13, 13, 13, 10, 7, 4, 1][(g % 7) as usize];
            let mut c = [0u8; KINDS];
            for &t in &ids[..n] {
                c[usize::from(t / 4)] += 1;
            }
            let base = shanten(&c);
            let mut want = 0u64;
            for j in 0..KINDS {
                if c[j] < 4 {
                    c[j] += 1;
                    if shanten(&c) < base {
                        want |= 1 << j;
                    }
                    c[j] -= 1;
                }
            }
            assert_eq!(accepting(&c), (base, want), "{c:?}");
            // With one more tile: the shanten after each discard.
            let extra = usize::from(ids[n] / 4);
            if c[extra] < 4 {
                c[extra] += 1;
                let got = after_discards(&c);
                for j in 0..KINDS {
                    if c[j] > 0 {
                        c[j] -= 1;
                        assert_eq!(got[j], shanten(&c), "discard {j} of {c:?}");
                        let masks = accepting_after(&{ let mut d = c; d[j] += 1; d }, 1 << j);
                        assert_eq!(masks[j], accepting(&c).1, "accepting after discarding {j}");
                        c[j] += 1;
                    }
                }
            }
            checked += 1;
        }
        assert_eq!(checked, 4000);
    }
}
