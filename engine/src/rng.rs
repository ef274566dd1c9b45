//! Keyed chance.
//!
//! Every wall, shuffle and die roll is a pure function of a key built from the experiment seed and
//! the coordinates of the event (game, hand, player, turn, ...) plus a draw index. No running stream
//! is shared between games, so results do not depend on the order in which games are played, on
//! chunking or on the number of workers, and rule variants and duplicate tables that ask for the
//! same coordinates see the same luck (common random numbers).
//!
//! The generator is counter-based: draw `i` of key `k` is `mix(k + (i + 1) * GAMMA)`, SplitMix64's
//! output function, which passes BigCrush as a counter-based generator.

const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A point in the tree of chance: the experiment seed refined by event coordinates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Key(u64);

impl Key {
    pub fn new(seed: u64) -> Self {
        Key(mix(seed ^ 0x5348_4152_4E45_5353)) // "SHARNESS": keeps seed 0 away from the zero key
    }

    /// Refines the key by one coordinate. `Key::new(s).with(a).with(b)` differs from
    /// `Key::new(s).with(b).with(a)`: coordinates are ordered.
    #[must_use]
    pub fn with(self, coordinate: u64) -> Self {
        Key(mix(self.0.wrapping_add(GAMMA) ^ mix(coordinate.wrapping_add(0xD1B5_4A32_D192_ED03))))
    }

    /// The `index`-th 64-bit draw of this key.
    pub fn draw(self, index: u64) -> u64 {
        mix(self.0.wrapping_add(index.wrapping_add(1).wrapping_mul(GAMMA)))
    }

    /// A sequential reader over this key's draws, starting at draw 0.
    pub fn stream(self) -> Stream {
        Stream { key: self, index: 0 }
    }
}

/// Reads a key's draws in order; draw `i` is always the same number whoever reads it.
#[derive(Debug, Clone)]
pub struct Stream {
    key: Key,
    index: u64,
}

impl Stream {
    pub fn next_u64(&mut self) -> u64 {
        let v = self.key.draw(self.index);
        self.index += 1;
        v
    }

    /// How many draws have been read so far.
    pub fn position(&self) -> u64 {
        self.index
    }

    /// Uniform integer in `0..n` (Lemire's multiply-and-reject, unbiased). `n` must be positive.
    pub fn below(&mut self, n: u64) -> u64 {
        debug_assert!(n > 0);
        let mut m = u128::from(self.next_u64()) * u128::from(n);
        // The threshold is below n, so a low word of at least n is always accepted; the division
        // is only paid in the rare case that needs it (same draws, same results).
        if (m as u64) < n {
            let threshold = n.wrapping_neg() % n;
            while (m as u64) < threshold {
                m = u128::from(self.next_u64()) * u128::from(n);
            }
        }
        (m >> 64) as u64
    }

    /// Uniform float in `[0, 1)` with 53 random bits.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// One six-sided die, 1..=6.
    pub fn die(&mut self) -> u8 {
        self.below(6) as u8 + 1
    }

    /// Fisher-Yates shuffle.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_coordinates_same_draws() {
        let a = Key::new(7).with(3).with(11);
        let b = Key::new(7).with(3).with(11);
        assert_eq!(a.stream().next_u64(), b.stream().next_u64());
        assert_eq!(a.draw(5), b.draw(5));
    }

    #[test]
    fn coordinates_are_ordered_and_distinct() {
        let k = Key::new(7);
        assert_ne!(k.with(1).with(2), k.with(2).with(1));
        assert_ne!(k.with(0), k);
        assert_ne!(Key::new(0).with(0), Key::new(1).with(0));
    }

    #[test]
    fn stream_reads_keyed_draws() {
        let k = Key::new(42).with(9);
        let mut s = k.stream();
        s.next_u64();
        assert_eq!(s.position(), 1);
        assert_eq!(s.next_u64(), k.draw(1));
    }

    #[test]
    fn dice_are_uniform() {
        let mut s = Key::new(1).stream();
        let mut counts = [0u32; 6];
        let n = 60_000;
        for _ in 0..n {
            counts[usize::from(s.die() - 1)] += 1;
        }
        // chi-squared with 5 degrees of freedom; 20.5 is the 0.999 quantile
        let e = f64::from(n) / 6.0;
        let chi2: f64 = counts.iter().map(|&c| (f64::from(c) - e).powi(2) / e).sum();
        assert!(chi2 < 20.5, "chi2 = {chi2}, counts = {counts:?}");
    }

    #[test]
    fn shuffle_is_a_permutation_and_position_uniform() {
        let mut hits = [0u32; 5];
        for g in 0..20_000u64 {
            let mut v = [0, 1, 2, 3, 4];
            Key::new(3).with(g).stream().shuffle(&mut v);
            let mut sorted = v;
            sorted.sort_unstable();
            assert_eq!(sorted, [0, 1, 2, 3, 4]);
            hits[v.iter().position(|&x| x == 0).unwrap()] += 1;
        }
        for h in hits {
            assert!((3700..4300).contains(&h), "{hits:?}");
        }
    }
}
