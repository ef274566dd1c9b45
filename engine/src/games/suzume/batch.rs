//! Plays a batch of Suzume-jong games and fills the `games`, `players` and `hands` tables.

use super::actions::WinKind;
use super::hand::Yakuman;
use super::rules::{FirstDealer, Rules};
use super::scoring::MAX_PLAYERS;
use super::state::{first_dealer, play_hand, DealKeys, HandResult, HandSetup, Listen};
use super::strategies::{Knobs, Native, Natives, Policy};
use super::Suzume;
use crate::decide::{seat_players, Outside, Player, PlayerError};
use crate::game::{ranks_with, Batch, Game, Preset, Seat, Seating};
use crate::standings::Standings;
use crate::table::{Codes, Rows, Table, TableSchema};
use crate::{hand_game_rows, player_rows, rows};

hand_game_rows! {
    /// One row per game.
    pub struct GameRow {
        /// The game's index in the experiment.
        game: u64,
        /// The deal index: the key of every stock and of the first dealer (shared by duplicate tables).
        deal: u64,
        /// Duplicate play: seat `s` is played by lineup slot `(s + rotation) mod players`.
        rotation: u8,
        /// Seat of the first dealer (the wind-marker holder).
        first_dealer: u8,
        /// Hands played (laps × players): fixed by the rules.
        hands: u16,
        /// Stock draws over the game (after the deals): the game's length in turns.
        turns: u32,
        /// Hands that ended in an exhaustive draw (流局).
        draws: u16,
        /// Hands won by tsumo.
        tsumo_hands: u16,
        /// Hands won by ron (one or more winners).
        ron_hands: u16,
        /// Hands where two or more players ronned the same discard.
        multi_ron_hands: u16,
        /// Yakuman wins (every winning claim counts).
        yakuman: u16,
        /// Mistaken-win penalties (mistake injection only).
        mistakes: u16,
    }
}

player_rows! {
    /// One row per player per game. Seats are in turn order (the next player is seat + 1 mod
    /// players); final_points is the stick total at the end (no uma or oka).
    pub struct PlayerRow {
        /// Seats after the first dealer in turn order (0 = the first dealer): the seat-advantage axis.
        dealer_order: u8,
        /// Hands played (laps × players).
        hands: u16,
        /// Winning claims (tsumo + ron).
        wins: u16,
        /// Tsumo wins.
        tsumo_wins: u16,
        /// Ron wins.
        ron_wins: u16,
        /// Discards ronned by at least one player (放銃): counted once per hand.
        deal_ins: u16,
        /// Yakuman wins.
        yakuman: u16,
        /// Sum of the scores of this player's wins (dealer bonus included, before the 0-floor).
        points_scored: i64,
        /// Points actually received from wins (after the 0-floor).
        points_received: i64,
        /// Points paid as discarder on ron.
        points_dealt_in: i64,
        /// Mistaken-win penalties incurred (mistake injection only).
        mistakes: u16,
        /// Lowest point total reached during the game (after any hand).
        lowest_points: i64,
    }
}

/// The `hands.outcome` codes' names: an exhaustive draw, a tsumo, a ron.
const OUTCOMES: [&str; 3] = ["exhaustive_draw", "tsumo", "ron"];

rows! {
    /// One row per hand outcome: an exhaustive draw is one row with `claims = 0`; a tsumo is one
    /// row; a ron with several winners is one row per winner (`claim` 0, 1, ... in turn order from
    /// the discarder, all with the same `hand`), so per-hand rates count `claim == 0` rows.
    pub struct HandRow => "hands" {
        /// The game's index in the experiment.
        game: u64,
        /// The deal index.
        deal: u64,
        /// Hand index within the game (0-based; hand h is dealt by seat (first_dealer + h) mod players).
        hand: u16,
        /// Index of this winning claim within the hand (0 for the first or only row).
        claim: u8,
        /// Number of winners of the hand (0 = exhaustive draw, 2+ = multiple ron).
        claims: u8,
        /// The dealer's seat.
        dealer: u8,
        /// How the hand ended: 0 = exhaustive draw, 1 = tsumo, 2 = ron.
        #[codes = Codes::Labels(&OUTCOMES)]
        outcome: u8,
        /// The winner's seat, -1 for a draw.
        winner: i8,
        /// The winner's lineup slot, -1 for a draw.
        winner_player: i8,
        /// The discarder's seat on ron, else -1.
        discarder: i8,
        /// The discarder's lineup slot on ron, else -1.
        discarder_player: i8,
        /// Stock draws taken in the hand when it ended (the turn of the win).
        turn: u16,
        /// Tiles left in the stock when it ended.
        stock_left: u8,
        /// Set points (sequence 1, triplet 2 each).
        set_points: u16,
        /// Sequences in the winning hand (0, 1 or 2).
        sequences: u8,
        /// Red-tile bonus points (0 on yakuman).
        red: u16,
        /// Dora bonus points (0 on yakuman).
        dora: u16,
        /// Tanyao bonus points.
        tanyao: u16,
        /// Chanta bonus points.
        chanta: u16,
        /// Yakuman: 0 none, 1 All Green, 2 Chinyao, 3 Super Red.
        #[codes = Codes::Labels(&Yakuman::NAMES)]
        yakuman: u8,
        /// Yakuman points.
        yakuman_points: u16,
        /// Dealer bonus points.
        dealer_bonus: u16,
        /// Base (checked against the minimum): points minus dealer bonus.
        base: u16,
        /// The hand's score: what the winner is owed (tsumo: split among payers).
        points: u16,
        /// Points actually received after rounding and the 0-floor.
        received: i64,
        /// Point change of seat 0 over the whole hand, on the hand's first row (`claim` 0; 0 on
        /// the other claims' rows), so that summing a game's rows gives the running standings.
        delta_0: i32,
        /// Point change of seat 1 (see `delta_0`).
        delta_1: i32,
        /// Point change of seat 2 (see `delta_0`; 0 with fewer players).
        delta_2: i32,
        /// Point change of seat 3 (see `delta_0`; 0 with fewer players).
        delta_3: i32,
        /// Point change of seat 4 (see `delta_0`; 0 with fewer players).
        delta_4: i32,
    }
}

pub fn schema() -> Vec<TableSchema> {
    vec![GameRow::schema(), PlayerRow::schema(), HandRow::schema()]
}

pub fn presets() -> Vec<Preset> {
    super::rules::presets()
}

/// The rows of a batch.
#[derive(Default)]
pub struct BatchRows {
    pub games: Vec<GameRow>,
    pub players: Vec<PlayerRow>,
    pub hands: Vec<HandRow>,
}

/// Plays one game and appends its rows; the players of `outside` decide for the lineup slots
/// played from outside the engine, the policies for the others; `listen` hears every event.
pub fn play_game(
    rules: &Rules,
    policies: &[Policy],
    seed: u64,
    seating: Seating,
    outside: &mut Outside<'_, Suzume>,
    listen: &mut impl Listen,
    rows: &mut BatchRows,
) -> Result<(), PlayerError> {
    let n = usize::from(seating.players);
    let slot = |s: usize| seating.slot(Seat::at(s % n));
    let first = match rules.first_dealer {
        FirstDealer::Random => first_dealer(seed, seating.deal, n),
        FirstDealer::Seat0 => 0,
    };
    let keys = DealKeys::new(seed, seating.deal);
    let mut natives: [Native; MAX_PLAYERS] = std::array::from_fn(|s| Native::new(&policies[slot(s)], keys.strategy));
    if outside.iter().all(Option::is_none) {
        return play_seated(rules, seating, first, keys, &mut Natives(natives), listen, rows);
    }
    let mut players = seat_players(&mut natives, outside, &seating);
    play_seated(rules, seating, first, keys, &mut players, listen, rows)
}

/// [`play_game`] with `players` seated.
fn play_seated(
    rules: &Rules,
    seating: Seating,
    first: usize,
    keys: DealKeys,
    players: &mut impl Player<Suzume>,
    listen: &mut impl Listen,
    rows: &mut BatchRows,
) -> Result<(), PlayerError> {
    let n = usize::from(seating.players);
    let mut points = [i64::from(rules.starting_points); MAX_PLAYERS];
    let points = &mut points[..n];
    let mut game =
        GameRow { game: seating.game, deal: seating.deal, rotation: seating.rotation, first_dealer: first as u8, ..Default::default() };
    let mut stats: [PlayerRow; MAX_PLAYERS] = std::array::from_fn(|s| PlayerRow {
        game: seating.game,
        deal: seating.deal,
        seat: Seat::at(s),
        player: seating.player(Seat::at(s % n)),
        dealer_order: ((s + n - first) % n) as u8,
        lowest_points: i64::from(rules.starting_points),
        ..Default::default()
    });
    let count = rules.laps as usize * n;
    let mut standings = Standings::new(n);
    for h in 0..count {
        let dealer = (first + h) % n;
        let setup = HandSetup { rules, dealer, keys, hand: h as u64 };
        let before: [i64; MAX_PLAYERS] = std::array::from_fn(|s| points.get(s).copied().unwrap_or(0));
        let r = play_hand(&setup, players, listen, points).map_err(|e| e.in_game(seating.game))?;
        let delta: [i64; MAX_PLAYERS] = std::array::from_fn(|s| points.get(s).map_or(0, |&p| p - before[s]));
        record(&r, h, dealer, delta, &seating, &mut game, &mut stats, &mut rows.hands);
        let dealer_won = r.kind.is_some() && r.wins.iter().flatten().any(|w| usize::from(w.seat) == dealer);
        standings.hand(&delta, dealer, dealer_won);
        for (s, &p) in points.iter().enumerate() {
            stats[s].lowest_points = stats[s].lowest_points.min(p);
        }
    }
    game.hands = count as u16;
    let rank = ranks_with(points, rules.ties);
    game.set_facts(&standings.facts(&rank));
    rows.games.push(game);
    for s in 0..n {
        stats[s].final_points = points[s];
        stats[s].rank = rank[s];
        stats[s].hands = count as u16;
        rows.players.push(stats[s]);
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn record(
    r: &HandResult,
    h: usize,
    dealer: usize,
    delta: [i64; MAX_PLAYERS],
    seating: &Seating,
    game: &mut GameRow,
    stats: &mut [PlayerRow; MAX_PLAYERS],
    hands: &mut Vec<HandRow>,
) {
    let slot = |seat: u8| seating.player(Seat(seat)) as i8;
    game.turns += u32::from(r.turn);
    let mut row = HandRow {
        game: seating.game,
        deal: seating.deal,
        hand: h as u16,
        dealer: dealer as u8,
        winner: -1,
        winner_player: -1,
        discarder: r.discarder.map_or(-1, |d| d as i8),
        discarder_player: r.discarder.map_or(-1, slot),
        turn: r.turn,
        stock_left: r.stock_left,
        delta_0: delta[0] as i32,
        delta_1: delta[1] as i32,
        delta_2: delta[2] as i32,
        delta_3: delta[3] as i32,
        delta_4: delta[4] as i32,
        ..Default::default()
    };
    for (s, &m) in r.mistakes.iter().enumerate() {
        stats[s].mistakes += u16::from(m);
        game.mistakes += u16::from(m);
    }
    let claims = r.wins.iter().flatten().count();
    match r.kind {
        None => {
            game.draws += 1;
            hands.push(row);
            return;
        }
        Some(WinKind::Tsumo) => game.tsumo_hands += 1,
        Some(WinKind::Ron) => {
            game.ron_hands += 1;
            if claims > 1 {
                game.multi_ron_hands += 1;
            }
            let d = usize::from(r.discarder.unwrap_or(0));
            stats[d].deal_ins += 1;
        }
    }
    row.claims = claims as u8;
    row.outcome = if r.kind == Some(WinKind::Tsumo) { 1 } else { 2 };
    for (i, w) in r.wins.iter().flatten().enumerate() {
        let p = &w.parts;
        let s = &mut stats[usize::from(w.seat)];
        s.wins += 1;
        match r.kind {
            Some(WinKind::Tsumo) => s.tsumo_wins += 1,
            _ => s.ron_wins += 1,
        }
        s.points_scored += i64::from(p.score);
        s.points_received += w.received;
        if let Some(d) = r.discarder {
            stats[usize::from(d)].points_dealt_in += w.received;
        }
        let yakuman = p.yakuman as u8;
        if yakuman > 0 {
            stats[usize::from(w.seat)].yakuman += 1;
            game.yakuman += 1;
        }
        hands.push(HandRow {
            claim: i as u8,
            winner: w.seat as i8,
            winner_player: slot(w.seat),
            set_points: p.set_points,
            sequences: p.shape.sets.iter().filter(|s| matches!(s, super::scoring::Set::Sequence(_))).count() as u8,
            red: p.red,
            dora: p.dora,
            tanyao: p.tanyao,
            chanta: p.chanta,
            yakuman,
            yakuman_points: p.yakuman_points,
            dealer_bonus: p.dealer_bonus,
            base: p.base,
            points: p.score,
            received: w.received,
            // The hand's point changes sit on its first row only.
            ..if i == 0 { row } else { HandRow { delta_0: 0, delta_1: 0, delta_2: 0, delta_3: 0, delta_4: 0, ..row } }
        });
    }
}

pub fn play(rules: &Rules, lineup: &[Knobs], batch: &Batch) -> Vec<Table> {
    play_tables(rules, lineup, batch, &mut []).expect("the native policies never fail")
}

/// Plays `batch` with the players of `outside` deciding for the lineup slots played from outside
/// the engine.
pub fn play_tables(rules: &Rules, lineup: &[Knobs], batch: &Batch, outside: &mut Outside<'_, Suzume>) -> Result<Vec<Table>, PlayerError> {
    let rows = play_rows(rules, lineup, batch, outside, &mut ())?;
    Ok(vec![GameRow::table(&rows.games), PlayerRow::table(&rows.players), HandRow::table(&rows.hands)])
}

/// The rows of `batch` played with the players of `outside`; `listen` hears every event.
pub fn play_rows(
    rules: &Rules,
    lineup: &[Knobs],
    batch: &Batch,
    outside: &mut Outside<'_, Suzume>,
    listen: &mut impl Listen,
) -> Result<BatchRows, PlayerError> {
    let policies: Vec<Policy> = lineup.iter().map(|k| Policy::new(k.clone(), rules.clone())).collect();
    let n = lineup.len() as u8;
    let count = batch.count as usize;
    let mut rows = BatchRows {
        games: Vec::with_capacity(count),
        players: Vec::with_capacity(count * usize::from(n)),
        hands: Vec::with_capacity(count * usize::from(n) * rules.laps as usize),
    };
    for g in batch.games() {
        play_game(rules, &policies, batch.seed, Seating::new(g, n, batch.duplicate), outside, listen, &mut rows)?;
    }
    Ok(rows)
}

impl Game for Suzume {
    const NAME: &'static str = "suzume";
    const TITLE: &'static str = "Suzume-jong (すずめ雀)";
    const PLAYERS: (u8, u8) = (2, 5);
    const SPEC: &'static str = "docs/rules/suzume.md";
    type Rules = Rules;
    type Knobs = Knobs;

    fn presets() -> Vec<Preset> {
        presets()
    }
    fn schema() -> Vec<TableSchema> {
        schema()
    }
    fn play(rules: &Rules, lineup: &[Knobs], batch: &Batch) -> Vec<Table> {
        play(rules, lineup, batch)
    }
    fn show(rules: &Rules, lineup: &[Knobs], batch: &Batch) -> Vec<Table> {
        super::show::show(rules, lineup, batch)
    }

    fn show_schema() -> Vec<TableSchema> {
        super::show::schema()
    }
}
