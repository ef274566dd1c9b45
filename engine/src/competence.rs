//! Competence under the rules, what every game's audit shares (`games/<game>/competence.rs`): a
//! lineup slot's native player is watched through the decision contract, and after each of its
//! discards the game judges, from the seat's view, whether the hand is ready, whether no wait of it
//! wins legally under the rules (no yaku, under the minimum value), and whether that was avoidable
//! (another legal discard of that turn left a ready hand that wins legally). This module counts
//! those judgements per hand and per discard.

use std::ops::AddAssign;

/// What one lineup slot's ready hands were.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// Hands in which the slot discarded at least once.
    pub hands: u64,
    /// Hands ready after some own discard.
    pub ready_hands: u64,
    /// Hands ready without a legal win after some own discard (Riichi's name: no yaku).
    pub yakuless_hands: u64,
    /// Hands ready without a legal win where another discard of that turn kept a legal one.
    pub avoidable_hands: u64,
    /// Own discards.
    pub discards: u64,
    /// Own discards after which the hand was ready.
    pub ready_discards: u64,
    /// Of which without a legal win.
    pub yakuless_discards: u64,
    /// Of which another discard of that turn would have left a legal ready hand.
    pub avoidable_discards: u64,
}

impl Tally {
    /// Every count by its name (the keys of the audits' Python dicts).
    pub fn fields(&self) -> [(&'static str, u64); 8] {
        [
            ("hands", self.hands),
            ("ready_hands", self.ready_hands),
            ("yakuless_hands", self.yakuless_hands),
            ("avoidable_hands", self.avoidable_hands),
            ("discards", self.discards),
            ("ready_discards", self.ready_discards),
            ("yakuless_discards", self.yakuless_discards),
            ("avoidable_discards", self.avoidable_discards),
        ]
    }
}

impl AddAssign for Tally {
    fn add_assign(&mut self, o: Tally) {
        self.hands += o.hands;
        self.ready_hands += o.ready_hands;
        self.yakuless_hands += o.yakuless_hands;
        self.avoidable_hands += o.avoidable_hands;
        self.discards += o.discards;
        self.ready_discards += o.ready_discards;
        self.yakuless_discards += o.yakuless_discards;
        self.avoidable_discards += o.avoidable_discards;
    }
}

/// One slot's judged discards, hand by hand; `H` identifies the hand being played.
#[derive(Debug, Clone, Default)]
pub struct Watch<H> {
    pub tally: Tally,
    hand: Option<H>,
    /// What the hand being played was so far: ready, without a legal win, avoidably so.
    seen: [bool; 3],
}

impl<H: PartialEq> Watch<H> {
    /// Counts one own discard of hand `hand`: `ready` after it, `cannot_win` (asked only when
    /// ready) no wait wins legally, `avoidable` (asked only then) another discard kept a legal
    /// ready hand.
    pub fn discard(&mut self, hand: H, ready: bool, cannot_win: impl FnOnce() -> bool, avoidable: impl FnOnce() -> bool) {
        if self.hand.as_ref() != Some(&hand) {
            self.close();
            self.hand = Some(hand);
            self.tally.hands += 1;
        }
        self.tally.discards += 1;
        if !ready {
            return;
        }
        self.seen[0] = true;
        self.tally.ready_discards += 1;
        if !cannot_win() {
            return;
        }
        self.seen[1] = true;
        self.tally.yakuless_discards += 1;
        if avoidable() {
            self.seen[2] = true;
            self.tally.avoidable_discards += 1;
        }
    }

    /// Counts the hand being played (call once its game is over).
    pub fn close(&mut self) {
        let [ready, yakuless, avoidable] = self.seen;
        self.tally.ready_hands += u64::from(ready);
        self.tally.yakuless_hands += u64::from(yakuless);
        self.tally.avoidable_hands += u64::from(avoidable);
        self.seen = [false; 3];
    }
}
