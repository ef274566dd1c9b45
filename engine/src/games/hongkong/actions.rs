//! Decision points (spec §10), what a player sees when deciding, and the hook through which a
//! lineup slot's decisions can come from outside the engine (Python strategies).

use super::hand::{HkMeld, Value};
use crate::games::riichi::tiles::{Counts, Kind};

/// A claim on another player's discard (H-D6), in priority order after the win.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Claim {
    Kong,
    Pung,
    /// A chow using the discard and the two kinds starting at `base`.
    Chow {
        base: Kind,
    },
}

/// What the deciding player sees: its own tiles and melds, the table's public state.
pub struct View<'a> {
    pub seat: u8,
    pub dealer: u8,
    /// Prevailing wind 0-3 (E S W N).
    pub round_wind: u8,
    /// The seat whose draw, discard or kong is being answered (the deciding seat on its turn).
    pub turn: u8,
    pub concealed: &'a Counts,
    pub melds: &'a [HkMeld],
    /// Every seat's melds (concealed kongs included: they are declared face up).
    pub all_melds: [&'a [HkMeld]; 4],
    /// Number of exposed melds of every seat (for the threat rule, §12).
    pub exposed: [u8; 4],
    /// Every tile kind visible to this player (discards, exposed melds) besides its own hand.
    pub visible: &'a Counts,
    /// Every seat's discards of this hand in order, claimed ones included.
    pub rivers: &'a [Vec<Kind>; 4],
    /// Every seat's flowers and seasons (bit n-1 = number n).
    pub bonus: [(u8, u8); 4],
    /// Points of every seat before this hand (the game's payments so far).
    pub points: [i64; 4],
    /// Tiles left in the live wall.
    pub live: u8,
}

/// A decision point and the choices it offers. The order of the choices is the order a hook's
/// answer indexes: a win or a pass, each legal claim then a pass, each legal kong then a pass,
/// each held kind (lowest first) to discard.
pub enum Decision<'a> {
    /// H-D2: declare a self-drawn win on `tile`: [win, pass].
    SelfDraw { value: &'a Value, tile: Kind },
    /// H-D6/H-D7: win on `tile` discarded (or added to a kong) by `view.turn`: [win, pass].
    WinOn { value: &'a Value, tile: Kind },
    /// H-D6: claim `tile` discarded by `view.turn`: `legal` then a pass.
    Claim { tile: Kind, legal: &'a [Claim] },
    /// H-D3/H-D4: declare a kong of one of `legal` (four in hand, or the fourth tile of an
    /// exposed pung) on one's own turn, then a pass.
    Kong { legal: &'a [Kind] },
    /// H-D5/H-D8: discard one of the held kinds.
    Discard,
}

/// Decisions from outside the engine for some lineup slots.
pub trait Hook {
    /// The index of lineup slot `slot`'s choice among `decision`'s choices, or None when that
    /// slot plays its knobs.
    fn decide(&self, slot: u8, view: &View, decision: &Decision) -> Option<usize>;
    /// Whether a decision failed (the batch then stops at the end of the game).
    fn failed(&self) -> bool;
}
