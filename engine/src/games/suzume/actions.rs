//! Decision points (spec §10), their actions and what a player may look at when taking them.
//!
//! Suzume-jong on the decision contract ([`crate::decide`]): the engine asks a
//! [`Player<Suzume>`](crate::decide::Player) at each [`Point`] with the seat's [`View`] and the
//! list of legal [`Action`]s. D1 ([`Point::Tsumo`]): after one's own draw with a legal win, `[Tsumo,
//! Pass]`. D2 ([`Point::Discard`]): which of the 6 tiles to discard, one `Discard` per tile of
//! `view.hand` in the same order. D3 ([`Point::Ron`]): after an opponent's discard that one may
//! legally ron, `[Ron, Pass]`.

use super::hand::{value, Parts};
use super::rules::Rules;
use super::scoring::{Tables, Tile, KINDS, MAX_PLAYERS};
use super::Suzume;
use crate::decide::Decisions;

/// Where a decision is asked; a win on offer carries its value (what the seat's own hand and the
/// public dora make it worth).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Point {
    /// D1: one's own draw completes a legal win worth `win`: `[Tsumo, Pass]`.
    Tsumo { win: Parts },
    /// D2: one `Discard` per tile of the hand, in the hand's order.
    Discard,
    /// D3: the latest discard (the last tile of `view.hand`) completes a legal win worth `win`:
    /// `[Ron, Pass]`.
    Ron { win: Parts },
}

impl Point {
    /// The point's name in messages and in the Python protocol's view (`point`).
    pub fn name(self) -> &'static str {
        match self {
            Point::Tsumo { .. } => "tsumo",
            Point::Discard => "discard",
            Point::Ron { .. } => "ron",
        }
    }
}

/// One action.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    /// Declare the tsumo win on offer.
    Tsumo,
    /// Declare the ron win on offer.
    Ron,
    /// Decline the win on offer.
    Pass,
    /// Discard this tile of the hand.
    Discard(Tile),
}

impl Decisions for Suzume {
    type View<'a> = View<'a>;
    type Point = Point;
    type Action = Action;

    fn seat(view: &View<'_>) -> usize {
        view.seat
    }

    fn point_name(point: Point) -> &'static str {
        point.name()
    }
}

/// The information of §10 for one player at one decision: its own tiles and everything public.
/// It holds no reference to the stock or to another seat's tiles, so no strategy can read them:
///
/// ```
/// use simharness_engine::games::suzume::actions::View;
/// fn tiles_out(v: &View<'_>) -> usize {
///     v.hand.len() + v.river.len()
/// }
/// ```
///
/// ```compile_fail
/// use simharness_engine::games::suzume::actions::View;
/// fn next_draw(v: &View<'_>) -> u8 {
///     v.stock_tiles[0].0
/// }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct View<'a> {
    pub seat: usize,
    pub players: usize,
    pub dealer: usize,
    /// The hand's index within the game (public: everyone knows which hand is played).
    pub hand_index: u64,
    /// The player's tiles: 6 at D1/D2 (after the draw), 6 at D3 (the 5 held plus the discard).
    pub hand: &'a [Tile],
    /// The kind multiset of `hand` (an index into [`Tables`]).
    pub state: u16,
    /// A bit per number kind whose red copy is in `hand`.
    pub red: u16,
    /// Copies of each kind visible on the table: every discard row and the dora tile.
    pub seen: &'a [u8; KINDS],
    /// A bit per number kind whose red copy is visible on the table.
    pub seen_red: u16,
    /// Per seat, a bit per kind in that seat's discard row (furiten and safety).
    pub discarded: &'a [u16; MAX_PLAYERS],
    /// Per seat, how many of its latest discards in a row were the tile it had just drawn
    /// (ツモ切り, seen at the table): a public hint that the hand is ready.
    pub streak: &'a [u8; MAX_PLAYERS],
    /// The dora kind, if the rules flip one.
    pub dora: Option<u8>,
    /// Every discard of the hand in order; discard `i` is by seat `(dealer + i) % players`.
    pub river: &'a [Tile],
    /// Tiles left in the stock.
    pub stock: usize,
    pub points: &'a [i64],
}

impl View<'_> {
    /// The spec's `unseen(k)` for every kind: copies neither in the player's hand nor on the
    /// table.
    pub fn unseen(&self) -> [u8; KINDS] {
        let held = Tables::get().counts(self.state);
        std::array::from_fn(|k| 4u8.saturating_sub(self.seen[k] + held[k]))
    }

    /// A bit per number kind whose red copy could still be drawn (none without red tiles).
    pub fn red_unseen(&self, red_tiles: bool) -> u16 {
        if red_tiles {
            !(self.seen_red | self.red) & 0x1FF
        } else {
            0
        }
    }

    /// Opponents whose tsumogiri streak is at least `streak` (none when `streak` is 0), as a
    /// seat mask.
    pub fn ready_opponents(&self, streak: u8) -> u8 {
        if streak == 0 {
            return 0;
        }
        (0..self.players).filter(|&p| p != self.seat && self.streak[p] >= streak).fold(0, |m, p| m | 1 << p)
    }

    /// How many of the opponents in the seat mask `seats` cannot ron `kind`.
    pub fn safe_against(&self, seats: u8, kind: u8) -> u8 {
        (0..self.players).filter(|&p| seats & (1 << p) != 0 && self.discarded[p] & (1 << kind) != 0).count() as u8
    }

    /// The spec's `safe_vs` summed over opponents: how many cannot ron `kind` (it is in their
    /// discard row, so they are furiten on it).
    #[inline]
    pub fn safe_count(&self, kind: u8) -> u8 {
        let all: u16 = self.discarded[..self.players].iter().map(|&d| (d >> kind) & 1).sum();
        (all - ((self.discarded[self.seat] >> kind) & 1)) as u8
    }
}

/// A win a player may declare (D1 or D3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WinKind {
    Tsumo,
    Ron,
}

/// D1: the value of a tsumo on the 6-tile hand `state`/`red`, if it is a legal win (two sets and
/// the minimum of §5.4).
pub fn tsumo_win(state: u16, red: u16, dora: Option<u8>, dealer: bool, rules: &Rules) -> Option<Parts> {
    let tables = Tables::get();
    tables.shape(state).map(|shape| value(shape, tables.counts(state), red, dora, dealer, rules)).filter(|p| p.legal)
}

/// D3: the value of a ron on `tile` by the 5-tile hand `state`/`red` whose owner's discard row
/// holds the kinds `own_discards`, if it is a legal win (shape, furiten of §5.3, minimum).
pub fn ron_win(state: u16, red: u16, tile: Tile, own_discards: u16, dora: Option<u8>, dealer: bool, rules: &Rules) -> Option<Parts> {
    let kind = tile.kind();
    if rules.furiten && own_discards & (1 << kind) != 0 {
        return None;
    }
    let state = Tables::get().add(state, kind);
    let red = if rules.red_tiles && tile.is_red_number() { red | 1 << kind } else { red };
    tsumo_win(state, red, dora, dealer, rules)
}
