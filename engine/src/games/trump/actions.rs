//! Decision points (spec §10) and what a player may look at when taking them.
//!
//! D1 a Joker enters the hand: keep it or set it aside; D2 a complete hand after the draw: tsumo or
//! decline; D3 the discard; D4 riichi with it; D5 ron or pass on a discard that completes the hand;
//! D6 (a kept Joker set aside later) is D1 asked again on each own turn. A [`View`] holds only
//! public information plus the player's own hand.

use super::scoring::{Card, Counts, KINDS, PLAYERS};

/// One decision, as a hook or a policy is asked it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Point {
    /// D1/D6: keep the Joker in hand (for kokushi)?
    KeepJoker,
    /// D2: declare this tsumo?
    Tsumo,
    /// D3/D4: which card to discard, with or without riichi.
    Discard,
    /// D5: declare this ron?
    Ron,
}

/// The information of §10 for one player at one decision.
#[derive(Debug, Clone, Copy)]
pub struct View<'a> {
    pub seat: usize,
    pub dealer: usize,
    /// The player's cards (8 after a draw, 7 plus the discard at D5).
    pub hand: &'a [Card],
    pub counts: Counts,
    /// Copies of each kind visible: every discard, the dora indicator and Jokers out of play.
    pub seen: &'a [u8; KINDS],
    /// Per seat, a bit per kind in its discards, and per seat the kinds it discarded after riichi.
    pub discarded: &'a [u16; PLAYERS],
    pub discarded_after_riichi: &'a [u16; PLAYERS],
    /// Per seat: declared riichi.
    pub riichi: [bool; PLAYERS],
    /// Per seat: Jokers set aside.
    pub aside: [u8; PLAYERS],
    pub dora: Option<u8>,
    pub seat_wind: u8,
    pub round_wind: u8,
    /// Cards left in the live stack.
    pub live: usize,
    pub points: &'a [i64; PLAYERS],
    /// Riichi sticks on the table (points).
    pub pool: i64,
}

impl View<'_> {
    /// The spec's `live(r)` for every kind: copies neither in the player's hand nor visible.
    pub fn unseen(&self) -> [u8; KINDS] {
        std::array::from_fn(|k| super::scoring::copies(k as u8).saturating_sub(self.seen[k] + self.counts[k]))
    }
}
