//! The wall (spec §3): the keyed shuffle of a hand's tiles, broken where the three dice say
//! (§3.2); the deal and the replacement of the bonus tiles it exposes (§3.4, §3.5); draws. The
//! live wall is drawn from the break and replacements come from the other end, so the 14-tile dead
//! wall keeps its size while each replacement shortens the live wall by one (the spec's
//! replenishment, §3.3).

use super::rules::Rules;
use super::state::{kind_of, HandKeys, Happening, Table};
use crate::games::riichi::tiles::Kind;
use crate::rng::Stream;

pub const DEAD_WALL: usize = 14;

/// The wall owner of a three-dice sum, counted counter-clockwise from East as 1 (§3.2, HK-S1).
pub fn wall_owner(sum: u8) -> u8 {
    (sum + 3) % 4
}

/// Tiles in play: 144 or 136.
pub fn tile_count(rules: &Rules) -> usize {
    usize::from(rules.tile_set)
}

/// The event code of physical tile `id`: its kind, or 34-41 for the bonus tiles.
fn code(id: u16) -> u8 {
    kind_of(id).unwrap_or_else(|| (id - 136 + 34) as u8)
}

impl Table<'_> {
    /// Deals every seat its tiles, from the dealer round.
    pub(super) fn deal(&mut self, dealer: u8) {
        let order: [u8; 4] = std::array::from_fn(|i| (dealer + i as u8) % 4);
        // The deal (§3.4): 4 tiles three times round, then the dealer 2 and the others 1.
        for _ in 0..3 {
            for &s in &order {
                for _ in 0..4 {
                    let id = self.wall[self.next];
                    self.next += 1;
                    self.note(s, Happening::Dealt, code(id), None);
                    self.take(s, id);
                }
            }
        }
        for &s in &order {
            for _ in 0..if s == dealer { 2 } else { 1 } {
                let id = self.wall[self.next];
                self.next += 1;
                self.note(s, Happening::Dealt, code(id), None);
                self.take(s, id);
            }
        }
        // Bonus tiles were exposed as dealt; replace them in seat order until nobody is short (§3.5).
        loop {
            let mut any = false;
            for &s in &order {
                let st = &self.seats[usize::from(s)];
                let held: u8 = st.hand.iter().sum::<u8>() + 3 * st.melds.len() as u8;
                let want = if s == dealer { 14 } else { 13 };
                for _ in held..want {
                    let id = self.draw_replacement().expect("the deal leaves the live wall full");
                    self.note(s, Happening::Replacement, code(id), None);
                    self.take(s, id);
                    any = true;
                }
            }
            if !any {
                break;
            }
        }
    }

    /// Gives tile `id` to seat `s`: a bonus tile is exposed (true), any other goes to the hand.
    fn take(&mut self, s: u8, id: u16) -> bool {
        let seat = &mut self.seats[usize::from(s)];
        match kind_of(id) {
            Some(k) => {
                seat.hand[usize::from(k)] += 1;
                false
            }
            None if id < 140 => {
                seat.flowers |= 1 << (id - 136);
                true
            }
            None => {
                seat.seasons |= 1 << (id - 140);
                true
            }
        }
    }

    /// Draws from the live wall (None when it is empty).
    pub(super) fn draw_live(&mut self) -> Option<u16> {
        (self.live() > 0).then(|| {
            self.next += 1;
            self.draws += 1;
            self.wall[self.next - 1]
        })
    }

    /// A replacement from the dead wall (None when the live wall cannot replenish it).
    pub(super) fn draw_replacement(&mut self) -> Option<u16> {
        (self.live() > 0).then(|| {
            self.end -= 1;
            self.wall[self.end]
        })
    }

    /// Draws for seat `s` (`id` came as `how`, then replacements for bonus tiles); returns the
    /// kind kept and whether it came as a bonus replacement, or None if the wall ran out.
    pub(super) fn draw_for(&mut self, s: u8, mut id: u16, how: Happening) -> Option<(Kind, bool)> {
        let mut replaced = false;
        self.note(s, how, code(id), None);
        while self.take(s, id) {
            id = self.draw_replacement()?;
            self.note(s, Happening::Replacement, code(id), None);
            replaced = true;
        }
        kind_of(id).map(|k| (k, replaced))
    }
}

/// Shuffles the tiles of hand `key` and breaks the wall where the dice say (§3.2).
pub(super) fn build_wall(rules: &Rules, keys: &HandKeys) -> (Vec<u16>, u8) {
    let n = tile_count(rules);
    let mut wall: Vec<u16> = (0..n as u16).collect();
    let mut st: Stream = keys.wall.stream();
    for i in (1..n).rev() {
        let j = st.below(i as u64 + 1) as usize;
        wall.swap(i, j);
    }
    let mut dice = keys.dice.stream();
    let sum: u8 = (0..3).map(|_| dice.below(6) as u8 + 1).sum();
    // Each wall is n/4 tiles; the break is `sum` stacks into the owner's wall.
    let start = (usize::from(wall_owner(sum)) * n / 4 + 2 * usize::from(sum)) % n;
    wall.rotate_left(start);
    (wall, sum)
}
