//! `impl Game`: plays a batch with keyed chance and fills the `games` and `players` tables.

use super::actions::{Action, Driver, Point, LEGAL};
use super::rules::{self, Rules};
use super::state::{End, State, MAX_PLAYERS};
use super::strategies::{Knobs, Native};
use super::{Sugoroku, TAG_DICE, TAG_SETUP, TAG_STRATEGY};
use crate::decide::{seat_players, Outside, Player, PlayerError, Seats};
use crate::game::{ranks_with, Batch, Game, Preset, Seating};
use crate::rng::Key;
use crate::table::{Rows, Table, TableSchema};
use crate::{player_rows, rows};

rows! {
    /// One row per game.
    pub struct GameRow => "games" {
        /// The game's index in the experiment.
        game: u64,
        /// The deal (keyed course, dora and dice) the game was played on; equals `game` unless duplicate play.
        deal: u64,
        /// Duplicate play: seat s is played by lineup slot (s + rotation) mod players; 0 otherwise.
        rotation: u8,
        /// Seat that landed exactly on the goal; -1 if the game ended early (no winner).
        winner: i8,
        /// 0 = a goal, 1 = max_turns reached, 2 = ended by agreement (G-D4). 1 and 2 settle nothing.
        early_end: u8,
        /// Player-turns played, rest turns included.
        turns: u32,
        /// Rounds begun (seat 0 moves first in every round).
        rounds: u32,
        /// Forward moves that overshot the goal, whatever the overshoot rule then did (bounce, stay, finish).
        goal_bounces: u32,
        /// Manzu chains stopped by the loop rule (§5).
        loops: u32,
        /// Re-deals caused by an opening pochi (S15).
        redeals: u32,
        /// Largest amount one in-game payment moved per opponent, after the cap (end settlement excluded).
        largest_single_payment: i64,
        /// In-game payments reduced by the payout cap (or taxed by the progressive rule).
        capped_payments: u32,
        /// Pinzoro (1-1) procedures over all players.
        pinzoro: u32,
        /// 6-zoro (6-6) procedures over all players.
        sixzoro: u32,
        /// Rests cancelled by offset (相殺) over all players.
        offsets: u32,
        /// Course squares turned face up during the game.
        revealed: u32,
        /// Course length (136 − dora_count); the goal is position course_length + 1.
        course_length: u8,
    }
}

player_rows! {
    /// One row per player per game. Seat = turn order: seat 0 moves first. final_points =
    /// points_before_settlement + winner_bonus + settlement + rest_chips; a game's players sum to zero.
    pub struct PlayerRow {
        /// Points from square effects, rest penalties and opening-pochi payments, before the end settlement.
        points_before_settlement: i64,
        /// Winner bonus received (winner) or paid (others); 0 after an early end.
        winner_bonus: i64,
        /// Distance settlement (総馬身) received or paid; 0 after an early end.
        settlement: i64,
        /// Rest chips (penalty4) received by the winner or paid by resting players; 0 otherwise.
        rest_chips: i64,
        /// Position at the end: 0 = start, course_length + 1 = goal.
        final_position: u8,
        /// Squares from the goal at the end.
        goal_distance: u8,
        /// Turns in which the player rolled.
        turns_played: u32,
        /// Turns skipped for rests.
        rests_served: u32,
        /// Rests still outstanding at the end.
        rests_left: u32,
        /// Pinzoro (1-1) procedures.
        pinzoro: u32,
        /// 6-zoro (6-6) procedures.
        sixzoro: u32,
        /// Pinzoro back re-rolls taken (G-D1).
        back_rerolls: u32,
        /// 6-zoro extra rolls taken (G-D2).
        extra_rolls: u32,
        /// Rests cancelled by offset (G-D3).
        offsets: u32,
        /// Landings on a red 5m (back to start).
        red5m_returns: u32,
        /// Landings on a pochi.
        pochi_landings: u32,
        /// Pochi this player flipped as dora under opening_pochi.
        opening_pochi_flips: u32,
        /// Largest pending multiplier the player held.
        max_multiplier: u64,
    }
}

/// The seats' native players of the game of `seating`: each plays its lineup slot's knobs with its
/// own strategy key (never the dice keys). Seats beyond the lineup are never asked.
pub(super) fn natives<'k>(lineup: &'k [Knobs], root: Key, seating: &Seating) -> [Native<'k>; MAX_PLAYERS] {
    let mut natives = [Native { knobs: &lineup[0], key: root }; MAX_PLAYERS];
    let strategy = root.with(TAG_STRATEGY).with(seating.deal);
    for (native, seat) in natives.iter_mut().zip(seating.seats()) {
        *native = Native { knobs: &lineup[seating.slot(seat)], key: strategy.with(u64::from(seat.0)) };
    }
    natives
}

/// One game's table: dice from `(deal, seat, (the seat's rolling-turn number, roll number in the
/// turn))` and decisions from the seats' players.
pub(super) struct Tabletop<'p> {
    dice: [Key; MAX_PLAYERS],
    players: Seats<'p, Sugoroku, MAX_PLAYERS>,
}

impl<'p> Tabletop<'p> {
    /// The table of the game of `seating`, keyed by its deal, with the players of the seats.
    pub(super) fn new(root: Key, seating: &Seating, players: Seats<'p, Sugoroku, MAX_PLAYERS>) -> Self {
        let mut dice = [root; MAX_PLAYERS];
        let deal = root.with(TAG_DICE).with(seating.deal);
        for (seat, key) in dice[..usize::from(seating.players)].iter_mut().enumerate() {
            *key = deal.with(seat as u64);
        }
        Tabletop { dice, players }
    }
}

impl Driver for Tabletop<'_> {
    /// Boxed, so that the state code's results (one per turn) stay one register wide.
    type Error = Box<PlayerError>;

    fn dice(&mut self, seat: usize, turn: u32, roll: u32) -> Option<(u8, u8)> {
        // One coordinate for (turn, roll) and one uniform draw of 36 for both dice: half the mixing.
        let k = self.dice[seat].with(u64::from(turn) << 32 | u64::from(roll));
        let x = k.stream().below(36) as u8;
        Some((x / 6 + 1, x % 6 + 1))
    }

    /// Both actions are legal at every point, so no answer needs refusing ([`crate::decide::ask`]
    /// would check each against [`LEGAL`] for nothing, on the hot path of a batch).
    fn decide(&mut self, state: &State<'_>, seat: usize, point: Point) -> Result<bool, Box<PlayerError>> {
        match self.players.decide(&state.view(seat), point, &LEGAL) {
            Ok(action) => Ok(action == Action::Take),
            Err(fault) => Err(Box::new(PlayerError::new::<Sugoroku>(seat, point, fault))),
        }
    }
}

impl Game for Sugoroku {
    const NAME: &'static str = "sugoroku";
    const TITLE: &'static str = "Mahjong sugoroku (麻雀すごろく)";
    const PLAYERS: (u8, u8) = (2, 5);
    const SPEC: &'static str = "docs/rules/sugoroku.md";

    type Rules = Rules;
    type Knobs = Knobs;

    fn presets() -> Vec<Preset> {
        rules::presets()
    }

    fn schema() -> Vec<TableSchema> {
        vec![GameRow::schema(), PlayerRow::schema()]
    }

    fn play(rules: &Rules, lineup: &[Knobs], batch: &Batch) -> Vec<Table> {
        play_tables(rules, lineup, batch, &mut []).expect("native strategies never fail")
    }

    fn show(rules: &Rules, lineup: &[Knobs], batch: &Batch) -> Vec<Table> {
        super::show::show(rules, lineup, batch)
    }

    fn show_schema() -> Vec<TableSchema> {
        super::show::schema()
    }
}

/// Plays `batch` with the players of `outside` in the slots played from outside the engine and
/// returns its tables. Dice and native decisions are keyed exactly as in a native batch, so an
/// outside player meets the same luck as the knobs it replaces.
pub fn play_tables(rules: &Rules, lineup: &[Knobs], batch: &Batch, outside: &mut Outside<'_, Sugoroku>) -> Result<Vec<Table>, PlayerError> {
    let n = lineup.len();
    let mut state = State::new(rules, n);
    let mut games = Vec::with_capacity(batch.count as usize);
    let mut players = Vec::with_capacity(batch.count as usize * n);
    let root = Key::new(batch.seed);
    for game in batch.games() {
        let seating = Seating::new(game, n as u8, batch.duplicate);
        let mut natives = natives(lineup, root, &seating);
        let seats = seat_players(&mut natives, outside, &seating);
        state.deal(root.with(TAG_SETUP).with(seating.deal));
        state.play(&mut Tabletop::new(root, &seating, seats)).map_err(|e| (*e).in_game(game))?;
        settle_rows(&mut state, &seating, &mut games, &mut players);
    }
    Ok(vec![GameRow::table(&games), PlayerRow::table(&players)])
}

/// Settles the played game in `state` and pushes its `games` row and `players` rows.
pub(super) fn settle_rows(state: &mut State<'_>, seating: &Seating, games: &mut Vec<GameRow>, players: &mut Vec<PlayerRow>) {
    let n = state.n;
    let game = seating.game;
    let accumulated: [i64; MAX_PLAYERS] = std::array::from_fn(|i| state.players[i].points);
    state.settle();
    games.push(game_row(state, seating));
    let finals: [i64; MAX_PLAYERS] = std::array::from_fn(|i| state.players[i].points);
    let rank = ranks_with(&finals[..n], state.rules.ties);
    for (seat, p) in seating.seats().zip(&state.players[..n]) {
        players.push(PlayerRow {
            game,
            deal: seating.deal,
            seat,
            player: seating.player(seat),
            final_points: p.points,
            rank: rank[seat.index()],
            points_before_settlement: accumulated[seat.index()],
            winner_bonus: p.bonus,
            settlement: p.distance_settlement,
            rest_chips: p.rest_chips,
            final_position: p.pos,
            goal_distance: state.goal - p.pos,
            turns_played: p.turns_played,
            rests_served: p.rests_served,
            rests_left: p.rests,
            pinzoro: p.pinzoro,
            sixzoro: p.sixzoro,
            back_rerolls: p.back_rerolls,
            extra_rolls: p.extra_rolls,
            offsets: p.offsets,
            red5m_returns: p.red5m_returns,
            pochi_landings: p.pochi_landings,
            opening_pochi_flips: p.opening_pochi_flips,
            max_multiplier: p.max_mult,
        });
    }
}

fn game_row(state: &State<'_>, seating: &Seating) -> GameRow {
    let ps = &state.players[..state.n];
    let total = |f: fn(&super::state::Player) -> u32| ps.iter().map(f).sum();
    GameRow {
        game: seating.game,
        deal: seating.deal,
        rotation: seating.rotation,
        winner: state.winner.map_or(-1, |w| w as i8),
        early_end: match state.end {
            End::MaxTurns => 1,
            End::Agreement => 2,
            End::Goal | End::Running => 0,
        },
        turns: state.stats.turns,
        rounds: state.stats.rounds,
        goal_bounces: state.stats.goal_bounces,
        loops: state.stats.loops,
        redeals: state.stats.redeals,
        largest_single_payment: state.stats.largest_payment,
        capped_payments: state.stats.capped_payments,
        pinzoro: total(|p| p.pinzoro),
        sixzoro: total(|p| p.sixzoro),
        offsets: total(|p| p.offsets),
        revealed: state.stats.revealed,
        course_length: state.len,
    }
}
