//! Decision points and legal actions (spec §5).
//!
//! The engine asks a [`Decider`] at two kinds of decision point: its own turn (after a draw or a
//! call) and the response window after a discard or an added kan. It offers the complete list of
//! legal actions and accepts only one of them: a decider's answer that is not in the list is an
//! error, never silently played.

use super::state::State;

/// One action. Tiles are Tenhou ids 0–135 (kind = id / 4; flowers 136–143); a red five is a
/// distinct id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Discard the tile; `riichi` declares riichi with it.
    Discard {
        tile: u8,
        riichi: bool,
    },
    Tsumo,
    /// Concealed kan of four tiles of `kind`.
    Ankan {
        kind: u8,
    },
    /// Add the tile `tile` to the own pon of its kind.
    Kakan {
        tile: u8,
    },
    /// 九種九牌 abortive draw.
    Kyuushu,
    /// Let the discard (or kan tile) pass.
    Pass,
    Ron,
    /// Pon with these two tiles from the hand.
    Pon {
        tiles: [u8; 2],
    },
    /// Chi with these two tiles from the hand.
    Chi {
        tiles: [u8; 2],
    },
    /// Open kan on the discard with the three tiles of its kind in the hand.
    Daiminkan,
    /// Set aside a flower (id 136+) or a sanma North (nukidora) and draw a replacement tile.
    Nuki {
        tile: u8,
    },
}

impl Action {
    /// A call on a discard (pon, chi, daiminkan).
    pub fn is_call(self) -> bool {
        matches!(self, Action::Pon { .. } | Action::Chi { .. } | Action::Daiminkan)
    }
}

/// Where a decision is asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Point {
    /// The seat's own turn; `after_call` = right after a chi or pon (discard only).
    Turn { after_call: bool },
    /// A discard by `from`; `kan` = the tile of an added kan (chankan) or of an ankan (kokushi).
    Response { from: u8, tile: u8, kan: bool },
}

/// Chooses actions for the seats of one table.
pub trait Decider {
    /// Picks one of `legal` (never empty) for `seat` at `point`. Returning an action that is not in
    /// `legal` stops the hand with an error.
    fn decide(&mut self, state: &State<'_>, seat: usize, point: Point, legal: &[Action]) -> Result<Action, String>;

    /// Under `allow_noten_declaration`: whether tenpai `seat` (not in riichi) claims noten at the
    /// exhaustive draw; `tenpai` holds every seat's tenpai as it stands (bit per seat).
    fn declare_noten(&mut self, _state: &State<'_>, _seat: usize, _tenpai: u8) -> bool {
        false
    }

    /// Under local yaku `open_riichi`: whether `seat`, whose riichi has just been accepted, shows
    /// the hand (オープンリーチ).
    fn open_riichi(&mut self, _state: &State<'_>, _seat: usize) -> bool {
        false
    }
}
