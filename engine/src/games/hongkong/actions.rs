//! Decision points (spec §10), their actions, and what a player sees when deciding.
//!
//! Hong Kong mahjong on the decision contract ([`crate::decide`]): at each point the engine asks
//! one [`Player<HongKong>`](crate::decide::Player) with the deciding seat's [`View`] and the
//! complete list of legal actions, and refuses an answer outside it. The win points are yes/no
//! questions (`[Pass, Win]`); a claim offers each legal claim then `Pass`, a kong each legal kind
//! then `Pass`, a discard each held kind, lowest first.

use super::hand::{HkMeld, Value};
use super::rules::Rules;
use super::HongKong;
use crate::decide::Decisions;
use crate::games::riichi::shanten;
use crate::games::riichi::tiles::{Counts, Kind};

/// A claim on another player's discard (H-D6), in priority order after the win.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Claim {
    Kong,
    Pung,
    /// A chow using the discard and the two kinds starting at `base`.
    Chow {
        base: Kind,
    },
}

/// Where a decision is asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Point {
    /// H-D2: declare a self-drawn win on `tile` (the view holds its value): `[Pass, Win]`.
    SelfDraw { tile: Kind },
    /// H-D6/H-D7: win on `tile` discarded (or added to a kong) by `view.turn` (the view holds its
    /// value): `[Pass, Win]`.
    WinOn { tile: Kind },
    /// H-D6: claim `tile` discarded by `view.turn`: each legal [`Action::Claim`], then `Pass`.
    Claim { tile: Kind },
    /// H-D3/H-D4: declare a kong (four in hand, or the fourth tile of an exposed pung) on one's
    /// own turn: each legal [`Action::Kong`], then `Pass`.
    Kong,
    /// H-D5/H-D8: discard one of the held kinds.
    Discard,
}

impl Point {
    /// The point's name in messages and in the Python protocol's view (`point`).
    pub fn name(self) -> &'static str {
        match self {
            Point::SelfDraw { .. } => "tsumo",
            Point::WinOn { .. } => "ron",
            Point::Claim { .. } => "claim",
            Point::Kong => "kong",
            Point::Discard => "discard",
        }
    }
}

/// One choice at a decision point.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    /// Decline the win, the claim or the kong.
    Pass,
    /// Declare the win on offer.
    Win,
    Claim(Claim),
    /// A kong of this kind.
    Kong(Kind),
    /// Discard a tile of this kind.
    Discard(Kind),
}

impl Decisions for HongKong {
    type View<'a> = View<'a>;
    type Point = Point;
    type Action = Action;

    fn seat(view: &View<'_>) -> usize {
        usize::from(view.seat)
    }

    fn point_name(point: Point) -> &'static str {
        point.name()
    }
}

/// The most actions a point offers: a discard, one per kind of a hand of 14 tiles (a claim offers
/// at most six, a kong five).
const MOST: usize = 14;

/// The legal actions of one decision point, without allocating.
pub struct Legal {
    actions: [Action; MOST],
    len: usize,
}

impl Legal {
    pub fn new() -> Self {
        Legal { actions: [Action::Pass; MOST], len: 0 }
    }

    pub fn push(&mut self, a: Action) {
        self.actions[self.len] = a;
        self.len += 1;
    }

    pub fn as_slice(&self) -> &[Action] {
        &self.actions[..self.len]
    }

    /// `action` of each kind of `kinds` (bit k for kind k), lowest first.
    pub fn per_kind(kinds: u64, action: impl Fn(Kind) -> Action) -> Self {
        let mut legal = Legal::new();
        let mut rest = kinds;
        while rest != 0 {
            legal.push(action(rest.trailing_zeros() as Kind));
            rest &= rest - 1;
        }
        legal
    }

    /// A discard of each held kind, lowest first.
    pub fn discards(hand: &Counts) -> Self {
        Legal::per_kind(held(hand), Action::Discard)
    }
}

/// The kinds of `hand`, a bit per kind.
pub fn held(hand: &Counts) -> u64 {
    // The shanten tables' summary finds it in a few vector instructions; asked at every discard.
    shanten::summary(hand).held
}

impl Default for Legal {
    fn default() -> Self {
        Legal::new()
    }
}

/// What the deciding seat may know: its own concealed tiles and everything public. It holds no
/// reference to the wall (live or dead) or to another seat's concealed tiles, so no strategy can
/// read them:
///
/// ```
/// use simharness_engine::games::hongkong::actions::View;
/// fn own_tiles(v: &View<'_>) -> u8 {
///     v.concealed.iter().sum::<u8>() + 3 * v.melds.len() as u8
/// }
/// ```
///
/// ```compile_fail
/// use simharness_engine::games::hongkong::actions::View;
/// fn next_draw(v: &View<'_>) -> u16 {
///     v.wall[0]
/// }
/// ```
///
/// ```compile_fail
/// use simharness_engine::games::hongkong::actions::View;
/// fn left_hand(v: &View<'_>) -> u8 {
///     v.hands[usize::from(v.seat + 3) % 4][0]
/// }
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct View<'a> {
    /// The rules played (public: what a legal win needs, what each fan is worth).
    pub rules: &'a Rules,
    pub seat: u8,
    pub dealer: u8,
    /// Prevailing wind 0-3 (E S W N).
    pub round_wind: u8,
    /// The hand's index in its game.
    pub hand: u16,
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
    /// At a win point, the value of the win on offer (the own hand with the winning tile).
    pub win: Option<&'a Value>,
}
