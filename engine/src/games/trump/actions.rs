//! Decision points (spec §10), their actions and what a player may look at when taking them.
//!
//! D1 a Joker enters the hand: keep it or set it aside; D2 a complete hand after the draw: tsumo or
//! decline; D3 the discard; D4 riichi with it; D5 ron or pass on a discard that completes the hand;
//! D6 (a kept Joker set aside later) is D1 asked again on each own turn.
//!
//! Trump mahjong on the decision contract ([`crate::decide`]): the engine asks a
//! [`Player<Trump>`](crate::decide::Player) at each point with the seat's [`View`] and the complete
//! list of legal actions ([`Legal`]), and plays only one of them. The yes/no points offer the yes
//! first (`[Keep, SetAside]`, `[Tsumo, Pass]`, `[Ron, Pass]`), in the order of the Python protocol.

use super::hand::{Riichi, Situation, Value};
use super::scoring::{pack_counts, Card, Counts, KINDS, PLAYERS};
use super::strategies::{Info, Table7};
use super::Trump;
use crate::decide::Decisions;

/// Where a decision is asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Point {
    /// D1/D6: keep the Joker in hand (for kokushi)?
    KeepJoker,
    /// D2: declare this tsumo, worth this?
    Tsumo(Value),
    /// D3/D4: which card to discard, with or without riichi.
    Discard,
    /// D5: declare this ron (the discard is the last card of the view's hand), worth this?
    Ron(Value),
}

impl Point {
    /// The point's name in messages and in the Python protocol's view (`point`).
    pub fn name(self) -> &'static str {
        match self {
            Point::KeepJoker => "joker",
            Point::Tsumo(_) => "tsumo",
            Point::Discard => "discard",
            Point::Ron(_) => "ron",
        }
    }
}

/// One choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    /// At [`Point::KeepJoker`].
    Keep,
    SetAside,
    /// At [`Point::Tsumo`].
    Tsumo,
    /// At [`Point::Ron`].
    Ron,
    /// Decline the win.
    Pass,
    /// At [`Point::Discard`]: discard the card (an id of the hand), declaring riichi with it.
    Discard {
        card: Card,
        riichi: bool,
    },
}

impl Decisions for Trump {
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

/// The legal actions of one point, in a fixed array: a discard offers at most 8 discards and 8
/// riichi declarations, and no decision allocates.
pub struct Legal {
    actions: [Action; 16],
    len: usize,
}

impl Legal {
    /// The actions of a yes/no point.
    pub fn yes_no(yes: Action, no: Action) -> Self {
        let mut actions = [Action::Pass; 16];
        (actions[0], actions[1]) = (yes, no);
        Legal { actions, len: 2 }
    }

    /// D3/D4: discarding each card of `hand`, in the hand's order, then, when `riichi` is legal,
    /// declaring riichi with each card whose discard leaves a tenpai hand (by `after`, see
    /// [`after_discards`]).
    pub fn discards(hand: &[Card], after: &[Info; KINDS], riichi: bool) -> Self {
        let mut l = Legal { actions: [Action::Pass; 16], len: hand.len() };
        for (a, &card) in l.actions.iter_mut().zip(hand) {
            *a = Action::Discard { card, riichi: false };
        }
        if riichi {
            for &card in hand.iter().filter(|c| after[usize::from(c.kind())].waits != 0) {
                l.actions[l.len] = Action::Discard { card, riichi: true };
                l.len += 1;
            }
        }
        l
    }

    pub fn as_slice(&self) -> &[Action] {
        &self.actions[..self.len]
    }
}

/// By kind held in `counts` (8 cards), §12's helpers of the 7 cards left by discarding one of it;
/// the default for the kinds not held. Computed once per discard: the engine reads the tenpai
/// discards from it, and a strategy may too.
pub fn after_discards(counts: &Counts) -> [Info; KINDS] {
    let (table, key) = (Table7::get(), pack_counts(counts));
    let mut after = [Info::default(); KINDS];
    for k in (0..KINDS).filter(|&k| counts[k] > 0) {
        after[k] = table.info(key - (1u64 << (4 * k)));
    }
    after
}

/// The information of §10 for one player at one decision: its own hand and everything public. It
/// holds no reference to the wall (the live stack, the dead wall and the ura-dora to come) or to
/// another seat's cards, so no strategy can read them:
///
/// ```
/// use simharness_engine::games::trump::actions::View;
/// fn jokers_held(v: &View<'_>) -> u8 {
///     v.counts[13]
/// }
/// ```
///
/// ```compile_fail
/// use simharness_engine::games::trump::actions::View;
/// fn next_draw(v: &View<'_>) -> u8 {
///     v.wall.draw().0
/// }
/// ```
///
/// ```compile_fail
/// use simharness_engine::games::trump::actions::View;
/// fn next_hand(v: &View<'_>) -> usize {
///     v.seats[(v.seat + 1) % 3].cards.len()
/// }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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
    /// At D3/D4 (else `None`): [`after_discards`] of the hand.
    pub after: Option<&'a [Info; KINDS]>,
}

impl View<'_> {
    /// The circumstances of a win the seat might make later, as far as its view tells them: no
    /// ippatsu, first turn or ura-dora (unknowable now, and a strategy must not count on them);
    /// the winning kind is set per wait.
    pub fn situation(&self, tsumo: bool, riichi: Riichi) -> Situation {
        Situation {
            win: 0,
            tsumo,
            riichi,
            ippatsu: false,
            first_turn: false,
            dealer: self.seat == self.dealer,
            seat_wind: self.seat_wind,
            round_wind: self.round_wind,
            dora: self.dora,
            ura: None,
            jokers_aside: self.aside[self.seat],
        }
    }

    /// The spec's `live(r)` for every kind: copies neither in the player's hand nor visible.
    pub fn unseen(&self) -> [u8; KINDS] {
        std::array::from_fn(|k| super::scoring::copies(k as u8).saturating_sub(self.seen[k] + self.counts[k]))
    }
}
