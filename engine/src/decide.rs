//! The decision contract: how a game asks a player to decide.
//!
//! The five games grew five ways of asking (a `Driver` with a `Hook`, a `Decider` that saw the
//! whole state, a `Hook` per decision kind answering `Option`, a `Player` with one method per
//! decision), and with them five failure models and, in Riichi, native strategies that received
//! the omniscient game state. For a harness whose numbers compare strategies, what a strategy can
//! see is part of the experiment, so the contract fixes it in types:
//!
//! - A game declares its [`Decisions`]: the [`View`](Decisions::View) a seat decides from (its
//!   own concealed part and everything public, built by the engine at each decision from the
//!   parts of the state that are public; it holds no reference to the wall or to another seat's
//!   concealed tiles, so a strategy cannot read them: that does not compile), the decision
//!   [`Point`](Decisions::Point)s and the [`Action`](Decisions::Action)s. Every decision is "one
//!   of these legal actions at this point": a yes/no question is a point whose legal list holds
//!   its two answers (the engine's order is the game's: `[pass, win]` in Hong Kong, `[tsumo,
//!   pass]` in Trump mahjong, the order its Python protocol has always offered, so that a
//!   strategy's index means what it meant), so there is one method, not one per decision kind,
//!   and a new decision adds a point, not a trait method.
//! - Native strategies, Python strategies and test scripts all implement one trait, [`Player`],
//!   over the view. A player answers for the seat the view names; [`Seats`] seats several
//!   players at one table (the knobs' native players, and the lineup slots played from outside
//!   the engine), so the engine asks one `&mut dyn Player` and never knows who answers.
//! - One failure model: a player that cannot answer returns a [`Fault`] (what went wrong, typed),
//!   and the engine refuses an answer outside the legal list with [`Fault::Illegal`], never
//!   playing it; either stops the game as a [`PlayerError`] naming the seat and the point (and,
//!   from the batch, the game). There is no `Option` meaning "failed" and no bare `String`.
//!
//! Every game is on the contract (`games/<game>/actions.rs`), and the Python protocol is one
//! generic entry point (`python/protocol.rs`): a Python object is a [`Player`] whose view and actions
//! the game turns into the dict and tuples of its protocol.

use crate::game::{Seat, Seating};
use std::fmt;

/// What a game declares about its decisions.
pub trait Decisions {
    /// What one seat may know at a decision: its own concealed part and everything public.
    type View<'a>;
    /// Where a decision is asked (and about what).
    type Point: Copy + fmt::Debug;
    /// One choice; a decision point offers a non-empty list of them.
    type Action: Copy + fmt::Debug + PartialEq;

    /// The seat that decides from `view`.
    fn seat(view: &Self::View<'_>) -> usize;

    /// A short name of `point` (`turn`, `response`, …) for messages and protocols.
    fn point_name(point: Self::Point) -> &'static str;
}

/// A player: anything that chooses actions from a view — a native strategy, a Python strategy, a
/// test script.
pub trait Player<G: Decisions> {
    /// One of `legal` (never empty) for the seat of `view` at `point`. An action that is not in
    /// `legal` is refused by the engine ([`Fault::Illegal`]), never played.
    fn decide(&mut self, view: &G::View<'_>, point: G::Point, legal: &[G::Action]) -> Result<G::Action, Fault>;
}

/// Why a player's decision could not be played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fault {
    /// The answer is not one of the legal actions: what was answered and what was legal.
    Illegal(String),
    /// The player could not answer (a Python strategy raised, or returned no valid index): the
    /// player's own description, e.g. `Python strategy of lineup slot 1`.
    Failed(String),
}

/// A [`Fault`] where it happened: the game stops with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerError {
    /// The game of the batch, once the batch knows it.
    pub game: Option<u64>,
    pub seat: usize,
    /// The decision point's name ([`Decisions::point_name`]).
    pub point: &'static str,
    pub fault: Fault,
}

impl PlayerError {
    pub fn new<G: Decisions>(seat: usize, point: G::Point, fault: Fault) -> Self {
        PlayerError { game: None, seat, point: G::point_name(point), fault }
    }

    /// The error in game `game` of a batch.
    pub fn in_game(self, game: u64) -> Self {
        PlayerError { game: Some(game), ..self }
    }
}

impl fmt::Display for PlayerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(g) = self.game {
            write!(f, "game {g}: ")?;
        }
        let (seat, point) = (self.seat, self.point);
        match &self.fault {
            Fault::Illegal(what) => write!(f, "seat {seat} at {point}: {what}"),
            Fault::Failed(who) => write!(f, "{who} (seat {seat}) at {point}"),
        }
    }
}

impl std::error::Error for PlayerError {}

/// Asks `player` for one of `legal` at `point` and refuses an answer outside the list: the usual
/// way for a game to ask (a game whose actions have equivalent spellings, as Riichi's tile ids,
/// checks its own way).
pub fn ask<G: Decisions>(
    player: &mut (impl Player<G> + ?Sized),
    view: &G::View<'_>,
    point: G::Point,
    legal: &[G::Action],
) -> Result<G::Action, PlayerError> {
    ask_index(player, view, point, legal).map(|i| legal[i])
}

/// [`ask`] answering where the chosen action is in `legal`: for a game whose legal list follows
/// the order of something it holds (the tiles of a hand), so that it need not search again.
/// Inlined, so that a native player's answer is checked without a call.
#[inline(always)]
pub fn ask_index<G: Decisions>(
    player: &mut (impl Player<G> + ?Sized),
    view: &G::View<'_>,
    point: G::Point,
    legal: &[G::Action],
) -> Result<usize, PlayerError> {
    let seat = G::seat(view);
    let chosen = player.decide(view, point, legal).map_err(|fault| PlayerError::new::<G>(seat, point, fault))?;
    legal
        .iter()
        .position(|&a| a == chosen)
        .ok_or_else(|| PlayerError::new::<G>(seat, point, Fault::Illegal(format!("{chosen:?} is not legal; legal: {legal:?}"))))
}

/// The players of the lineup slots played from outside the engine (Python strategies), by slot:
/// `None` for a slot that plays its knobs. Native play has none (`&mut []`).
pub type Outside<'p, G> = [Option<&'p mut dyn Player<G>>];

/// The players of one table, by seat: each decision goes to the player of the deciding seat.
pub struct Seats<'a, G: Decisions, const N: usize>(pub [&'a mut dyn Player<G>; N]);

impl<G: Decisions, const N: usize> Player<G> for Seats<'_, G, N> {
    fn decide(&mut self, view: &G::View<'_>, point: G::Point, legal: &[G::Action]) -> Result<G::Action, Fault> {
        self.0[G::seat(view)].decide(view, point, legal)
    }
}

/// The players of a game's seats: each seated seat is played by its lineup slot
/// (`seating.slot`), whose player is `outside[slot]` when the slot is played from outside the
/// engine (a Python strategy), else the seat's `native` player (its knobs). Seats beyond
/// `seating.players` (a game's fixed-size arrays) keep their native players.
pub fn seat_players<'a, G: Decisions, P: Player<G>, const N: usize>(
    natives: &'a mut [P; N],
    outside: &'a mut Outside<'_, G>,
    seating: &Seating,
) -> Seats<'a, G, N> {
    let mut claimed: Vec<Option<&'a mut dyn Player<G>>> = outside.iter_mut().map(|o| o.as_deref_mut().map(|p| p as _)).collect();
    let mut seat = 0;
    Seats(natives.each_mut().map(|native| {
        let s = seat;
        seat += 1;
        let seated = s < usize::from(seating.players);
        let from_outside = if seated { claimed.get_mut(seating.slot(Seat::at(s))).and_then(Option::take) } else { None };
        from_outside.unwrap_or(native)
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A toy game: the view is the seat and a count, an action a number.
    struct Toy;

    impl Decisions for Toy {
        type View<'a> = (usize, u32);
        type Point = ();
        type Action = u32;

        fn seat(view: &(usize, u32)) -> usize {
            view.0
        }

        fn point_name((): ()) -> &'static str {
            "turn"
        }
    }

    /// Answers its own number.
    struct Fixed(u32);

    impl Player<Toy> for Fixed {
        fn decide(&mut self, _: &(usize, u32), (): (), _: &[u32]) -> Result<u32, Fault> {
            Ok(self.0)
        }
    }

    #[test]
    fn each_seat_is_asked_through_its_slot_or_its_native_player() {
        let mut natives = [Fixed(0), Fixed(1), Fixed(2), Fixed(3)];
        let mut python = Fixed(99);
        // Slot 2 is played from outside; seat s is played by slot (s + 1) mod 3 (three seated).
        let mut outside: Vec<Option<&mut dyn Player<Toy>>> = vec![None, None, Some(&mut python)];
        let mut seats = seat_players(&mut natives, &mut outside, &Seating::new(1, 3, true));
        let answers: Vec<u32> = (0..4).map(|s| seats.decide(&(s, 0), (), &[0]).unwrap()).collect();
        assert_eq!(answers, [0, 99, 2, 3], "seat 1 is slot 2; seat 3 is not seated and keeps its native player");
        // The outside player is lent per game, not taken: the next game seats it again.
        let mut natives = [Fixed(0), Fixed(1), Fixed(2), Fixed(3)];
        let mut seats = seat_players(&mut natives, &mut outside, &Seating::new(2, 3, true));
        assert_eq!(seats.decide(&(0, 0), (), &[0]), Ok(99));
    }

    #[test]
    fn an_answer_outside_the_legal_list_is_refused() {
        assert_eq!(ask::<Toy>(&mut Fixed(2), &(1, 0), (), &[1, 2]), Ok(2));
        let refused = ask::<Toy>(&mut Fixed(7), &(1, 0), (), &[1, 2]).unwrap_err();
        assert_eq!(refused.to_string(), "seat 1 at turn: 7 is not legal; legal: [1, 2]");
    }

    #[test]
    fn a_player_error_names_the_game_seat_and_point() {
        let illegal = PlayerError::new::<Toy>(2, (), Fault::Illegal("7 is not legal; legal: [1, 2]".into())).in_game(5);
        assert_eq!(illegal.to_string(), "game 5: seat 2 at turn: 7 is not legal; legal: [1, 2]");
        let failed = PlayerError::new::<Toy>(1, (), Fault::Failed("Python strategy of lineup slot 0".into()));
        assert_eq!(failed.to_string(), "Python strategy of lineup slot 0 (seat 1) at turn");
    }
}
