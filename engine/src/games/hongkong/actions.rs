//! Decision points (spec §10) and what a player sees when deciding.

use super::hand::HkMeld;
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
    pub concealed: &'a Counts,
    pub melds: &'a [HkMeld],
    /// Number of exposed melds of every seat (for the threat rule, §12).
    pub exposed: [u8; 4],
    /// Every tile kind visible to this player (discards, exposed melds) besides its own hand.
    pub visible: &'a Counts,
    /// The last three discards of each seat (most recent last; 255 = none).
    pub recent: &'a [[Kind; 3]; 4],
    /// Tiles left in the live wall.
    pub live: u8,
}
