//! The cards of one hand (§3) and, below, one hand from the deal to a win or an exhaustive draw.
//!
//! Keyed chance: hand `h` of deal `d` shuffles its 54 cards lazily under (seed, WALL, d, h). The
//! first 21 draws are the hands (7 each, the dealer first), the next 9 the dead wall (top first),
//! and the live stack is read on from there: draw `i` is a pure function of the key and `i`,
//! whatever the strategies or rule variants do, so variants and duplicate tables see the same cards.

use super::scoring::{Card, CARDS, JOKER};
use crate::rng::{Key, Stream};

pub const TAG_WALL: u64 = 0x5452_5741_4C4C; // "TRWALL"
pub const TAG_DEALER: u64 = 0x5452_4445_414C; // "TRDEAL"
pub const TAG_STRATEGY: u64 = 0x5452_5354_5241; // "TRSTRA"

pub const HAND: usize = 7;
pub const DEAD: usize = 9;
pub const LIVE: usize = 24;

/// The 54 cards of one hand: a lazily shuffled deck.
pub struct Wall {
    cards: [Card; CARDS],
    next: usize,
    stream: Stream,
    /// The dead wall, top first.
    pub dead: [Card; DEAD],
    /// Dead-wall cards turned from the top (indicators and Jokers moved out of play, A4).
    top: usize,
    /// Replacements taken from the bottom (A6).
    bottom: usize,
}

impl Wall {
    /// Deals: returns the wall with the 3 hands of 7 (index 0 the dealer's) taken.
    pub fn deal(key: Key) -> (Self, [[Card; HAND]; 3]) {
        let mut w =
            Wall { cards: std::array::from_fn(|i| Card(i as u8)), next: 0, stream: key.stream(), dead: [Card(0); DEAD], top: 0, bottom: 0 };
        let hands = std::array::from_fn(|_| std::array::from_fn(|_| w.take()));
        w.dead = std::array::from_fn(|_| w.take());
        (w, hands)
    }

    fn take(&mut self) -> Card {
        let j = self.next + self.stream.below((CARDS - self.next) as u64) as usize;
        self.cards.swap(self.next, j);
        self.next += 1;
        self.cards[self.next - 1]
    }

    /// Live cards left.
    pub fn live(&self) -> usize {
        CARDS - self.next
    }

    /// Draws from the live stack (the caller checks [`Wall::live`]).
    pub fn draw(&mut self) -> Card {
        self.take()
    }

    /// Turns the next indicator from the top of the dead wall; Jokers turned on the way go out of
    /// play (A4). Returns the indicator and the Jokers moved out; `None` when the dead wall is
    /// exhausted by replacements.
    pub fn indicator(&mut self) -> Option<(Card, u8)> {
        let mut jokers = 0;
        while self.top + self.bottom < DEAD {
            let c = self.dead[self.top];
            self.top += 1;
            if c.kind() != JOKER {
                return Some((c, jokers));
            }
            jokers += 1;
        }
        None
    }

    /// A replacement for a set-aside Joker, from the bottom of the dead wall (A6).
    pub fn replacement(&mut self) -> Option<Card> {
        (self.top + self.bottom < DEAD).then(|| {
            self.bottom += 1;
            self.dead[DEAD - self.bottom]
        })
    }

    /// Dead-wall cards not yet turned or taken.
    pub fn dead_left(&self) -> &[Card] {
        &self.dead[self.top..DEAD - self.bottom]
    }

    /// Live cards not yet drawn.
    pub fn live_left(&self) -> &[Card] {
        &self.cards[self.next..]
    }
}
