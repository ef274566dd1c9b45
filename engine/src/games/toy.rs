//! A toy game, Pig, for the tests: the proof that the contract ([`Game`] and [`Decisions`]) is the
//! whole contract. It declares its rules, knobs, tables, view and decisions and nothing else, and
//! gets configs, runs, reports and the Python strategy protocol from the harness. It is registered
//! only when the environment sets `SIMHARNESS_TOY_GAME=1` (see [`super::registry`]).
//!
//! Each turn a seat rolls a die until it holds (banking the turn's total) or rolls a 1 (losing it);
//! the first to `target` wins. Keyed chance: roll `r` of turn `t` is `seed/TAG_DICE/deal/t/r`.

use crate::decide::{ask, seat_players, Decisions, Fault, Outside, Player, PlayerError};
use crate::game::{ranks, Batch, Game, Seat, Seating};
use crate::options::Validate;
use crate::rng::Key;
use crate::table::{Rows, Table, TableSchema};
use crate::{options, player_rows, rows};

pub struct Toy;

const TAG_DICE: u64 = 0x544f_5944_4943_4500; // "TOYDICE"
const SEATS: usize = 4;

options! {
    /// Pig's rules.
    pub struct Rules {
        /// Banked points that win.
        target: u32 = 30, range(1, 1000);
    }
}
impl Validate for Rules {}

options! {
    /// Hold once the turn's total reaches `hold_at`.
    pub struct Knobs {
        /// The turn total at which to hold.
        hold_at: u32 = 15, range(1, 1000);
    }
}
impl Validate for Knobs {}

/// What a seat sees: everything (Pig hides nothing but the dice to come).
pub struct View<'a> {
    pub seat: usize,
    pub banked: &'a [u32],
    pub turn_total: u32,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Action {
    Hold,
    Roll,
}

impl Decisions for Toy {
    type View<'a> = View<'a>;
    type Point = ();
    type Action = Action;

    fn seat(view: &View<'_>) -> usize {
        view.seat
    }

    fn point_name((): ()) -> &'static str {
        "roll"
    }
}

impl Player<Toy> for Knobs {
    fn decide(&mut self, v: &View<'_>, (): (), _: &[Action]) -> Result<Action, Fault> {
        Ok(if v.turn_total >= self.hold_at { Action::Hold } else { Action::Roll })
    }
}

rows! {
    /// One row per game.
    pub struct GameRow => "games" {
        /// The game's index in the experiment.
        game: u64,
        /// The deal (keyed dice) the game was played on.
        deal: u64,
        /// Duplicate play: seat s is played by lineup slot (s + rotation) mod players.
        rotation: u8,
        /// Turns played.
        turns: u32,
    }
}

player_rows! {
    /// One row per player per game. Seat 0 rolls first; final points = players × banked − all banked.
    pub struct PlayerRow {
        /// Points banked.
        banked: u32,
    }
}

impl Game for Toy {
    const NAME: &'static str = "toy";
    const TITLE: &'static str = "Pig (a toy game for the tests)";
    const PLAYERS: (u8, u8) = (2, SEATS as u8);
    const SPEC: &'static str = "engine/src/games/toy.rs";
    type Rules = Rules;
    type Knobs = Knobs;

    fn schema() -> Vec<TableSchema> {
        vec![GameRow::schema(), PlayerRow::schema()]
    }

    fn play(rules: &Rules, lineup: &[Knobs], batch: &Batch) -> Vec<Table> {
        play_with(rules, lineup, batch, &mut []).expect("the knobs always answer a legal action")
    }

    fn show(rules: &Rules, lineup: &[Knobs], batch: &Batch) -> Vec<Table> {
        Self::play(rules, lineup, &Batch { count: 1, ..*batch })
    }

    fn show_schema() -> Vec<TableSchema> {
        Vec::new()
    }
}

/// Plays `batch` with the players of `outside` in the slots played from outside the engine.
pub fn play_with(rules: &Rules, lineup: &[Knobs], batch: &Batch, outside: &mut Outside<'_, Toy>) -> Result<Vec<Table>, PlayerError> {
    let (mut games, mut players) = (Vec::new(), Vec::new());
    let n = lineup.len();
    for game in batch.games() {
        let seating = Seating::new(game, n as u8, batch.duplicate);
        let mut natives: [Knobs; SEATS] = std::array::from_fn(|s| lineup[seating.slot(Seat::at(s % n))].clone());
        let mut seats = seat_players(&mut natives, outside, &seating);
        let mut banked = [0u32; SEATS];
        let mut turn = 0u32;
        while banked.iter().all(|&b| b < rules.target) {
            let (seat, dice) = (turn as usize % n, Key::new(batch.seed).with(TAG_DICE).with(seating.deal).with(u64::from(turn)));
            let mut total = 0;
            for roll in 0.. {
                let view = View { seat, banked: &banked[..n], turn_total: total };
                let legal = [Action::Hold, Action::Roll];
                match ask(&mut seats, &view, (), &legal).map_err(|e| e.in_game(game))? {
                    Action::Hold => break,
                    Action::Roll => match dice.with(roll).stream().die() {
                        1 => {
                            total = 0;
                            break;
                        }
                        d => total += u32::from(d),
                    },
                }
            }
            banked[seat] += total;
            turn += 1;
        }
        let all: i64 = banked[..n].iter().map(|&b| i64::from(b)).sum();
        let points: Vec<i64> = banked[..n].iter().map(|&b| n as i64 * i64::from(b) - all).collect();
        let rank = ranks(&points);
        games.push(GameRow { game, deal: seating.deal, rotation: seating.rotation, turns: turn });
        players.extend(seating.seats().map(|seat| PlayerRow {
            game,
            deal: seating.deal,
            seat,
            player: seating.player(seat),
            final_points: points[seat.index()],
            rank: rank[seat.index()],
            banked: banked[seat.index()],
        }));
    }
    Ok(vec![GameRow::table(&games), PlayerRow::table(&players)])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::Column;

    fn points(tables: &[Table]) -> Vec<i64> {
        let Column { data, .. } = tables[1].column("final_points").unwrap();
        data.chunks(8).map(|c| i64::from_le_bytes(c.try_into().unwrap())).collect()
    }

    #[test]
    fn games_are_keyed_and_zero_sum_and_a_failing_player_stops_its_game() {
        let (rules, lineup) = (Rules::default(), [Knobs { hold_at: 10 }, Knobs { hold_at: 25 }, Knobs::default()]);
        let batch = Batch { seed: 5, first_game: 0, count: 30, duplicate: true };
        let all = Toy::play(&rules, &lineup, &batch);
        assert!(points(&all).chunks(3).all(|g| g.iter().sum::<i64>() == 0));
        // A game is a pure function of (seed, game): the same alone as in its batch.
        let alone = Toy::play(&rules, &lineup, &Batch { first_game: 7, count: 1, ..batch });
        assert_eq!(points(&alone), points(&all)[21..24]);
        let err = play_with(&rules, &lineup, &batch, &mut [Some(&mut Refuses)]).unwrap_err();
        assert_eq!(err.to_string(), "game 0: a test player (seat 0) at roll");
    }

    struct Refuses;
    impl Player<Toy> for Refuses {
        fn decide(&mut self, _: &View<'_>, (): (), _: &[Action]) -> Result<Action, Fault> {
            Err(Fault::Failed("a test player".into()))
        }
    }
}
