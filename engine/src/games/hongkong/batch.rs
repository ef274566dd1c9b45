//! Plays a batch of Hong Kong mahjong games (four rounds of dealer rotation, §6) and fills the
//! `games`, `players` and `hands` tables.

use super::hand::Limit;
use super::rules::Rules;
use super::state::{play_hand, HandKeys, HandResult, HandSetup, Outcome};
use super::strategies::{Bot, Knobs};
use super::HongKong;
use crate::decide::{seat_players, Outside, PlayerError};
use crate::game::{ranks_with, Batch, Game, Preset, Seat, Seating};
use crate::standings::Standings;
use crate::table::{Rows, Table, TableSchema};
use crate::{hand_game_rows, player_rows, rows};

hand_game_rows! {
    /// One row per game.
    pub struct GameRow {
        /// The game's index in the experiment.
        game: u64,
        /// The deal index: the key of every wall and die (shared by duplicate tables).
        deal: u64,
        /// Duplicate play: seat `s` is played by lineup slot `(s + rotation) mod 4`.
        rotation: u8,
        /// Hands played (at least 16, the dealer keeping the deal on a dealer win or a draw,
        /// unless a bust ends the game).
        hands: u16,
        /// Hands that ended in an exhaustive draw.
        draws: u16,
        /// Hands won by self-draw.
        self_draws: u16,
        /// Hands won on a discard or a robbed kong.
        discard_wins: u16,
        /// Limit-hand wins.
        limit_hands: u16,
        /// False wins (mistake injection).
        false_wins: u16,
        /// Live-wall draws over the game.
        turns: u32,
        /// The game reached `max_hands` before the North round ended.
        truncated: bool,
        /// A player's points fell below zero and `bust_ends_game` ended the game there.
        bust: bool,
    }
}

player_rows! {
    /// One row per player per game. Seat 0 is the first East (dealer); seats are in turn order.
    /// final_points is `starting_points` plus the sum of the game's payments.
    pub struct PlayerRow {
        /// Winning hands.
        wins: u16,
        /// Self-drawn wins.
        self_draw_wins: u16,
        /// Discards (or added kongs) won on by another player.
        deal_ins: u16,
        /// Claimed sets (chow, pung, exposed kong).
        claims: u16,
        /// Sum of the fan of this player's wins (limit hands count as max_fan).
        fan: u32,
        /// Limit-hand wins.
        limit_hands: u16,
        /// Complete hands not allowed to win under the minimum fan.
        refused: u16,
        /// False wins (mistake injection).
        false_wins: u16,
    }
}

crate::code_enum! {
    /// How a hand ended: the `hands.outcome` codes.
    pub enum Ending {
        Draw = "exhaustive_draw",
        SelfDraw = "self_draw",
        DiscardWin = "discard_win",
        /// A win by robbing a kong.
        RobbedKong = "robbed_kong",
        /// A false win declared (mistake injection).
        FalseWin = "false_win",
    }
}

rows! {
    /// One row per hand; a discard won by several players (`multi_win = "all"`) has one row per
    /// winner (`claim` 0, 1, ... in turn order from the discarder; the deltas are on claim 0,
    /// zero on the others). Fan items are a bit mask: bit i = item i of kong, all_chows,
    /// all_pungs, self_draw, last_tile, replacement, robbing_kong, dragon_pung, small_dragons,
    /// seat_wind, round_wind, no_bonus, own_bonus, bonus_set, full_flush, seven_pairs,
    /// half_flush, mixed_terminals, concealed, seven_flowers.
    pub struct HandRow => "hands" {
        /// The game's index in the experiment.
        game: u64,
        /// The deal index.
        deal: u64,
        /// Hand index within the game (0-based).
        hand: u16,
        /// Index of this winner within the hand.
        claim: u8,
        /// Prevailing wind 0-3 (E S W N).
        round_wind: u8,
        /// The dealer's seat.
        dealer: u8,
        /// Sum of the three dice that broke the wall.
        dice: u8,
        /// How the hand ended.
        outcome: Ending,
        /// The winner's (or false winner's) seat, -1 for a draw.
        winner: i8,
        /// The winner's lineup slot, -1 for a draw.
        winner_player: i8,
        /// The discarder's (kong-maker's) seat on a discard win, else -1.
        discarder: i8,
        /// The discarder's lineup slot, else -1.
        discarder_player: i8,
        /// The 包 guarantor who paid this win alone (rule `bao`), else -1.
        liable: i8,
        /// Winners of the hand (0 draw, 2+ only under multi_win = "all").
        winners: u8,
        /// Total fan, bonus tiles included (max_fan for a limit hand).
        fan: u8,
        /// Fan counted toward the minimum (bonus tiles excluded).
        counted_fan: u8,
        /// Fan from bonus tiles.
        bonus_fan: u8,
        /// The multiplier (base points of the fan table: 1, 2, 4, ..., 64 under `default`).
        base: u32,
        /// Limit hand: -1 none, else its index in four_concealed_pungs, big_three_dragons,
        /// small_four_winds, big_four_winds, all_honours, all_terminals, nine_gates,
        /// thirteen_orphans, four_kongs, jade_dragon, ruby_dragon, pearl_dragon, heavenly_hand,
        /// earthly_hand, thirteen_unrelated, fourteen_unrelated, all_unrelated, eight_flowers,
        /// kong_on_kong.
        limit: i8,
        /// Fan items of the win (bit mask, see the table's description).
        items: u32,
        /// The winner's bonus tiles (flowers + seasons).
        bonus_tiles: u8,
        /// The winner's claimed sets.
        claims: u8,
        /// Claimed sets of all players in the hand.
        all_claims: u8,
        /// Live-wall draws in the hand.
        draws: u16,
        /// Live tiles left at the end.
        live_left: u8,
        /// Complete hands refused under the minimum in this hand (all players).
        refused: u16,
        /// Point change of seat 0 (on claim 0).
        delta_0: i32,
        /// Point change of seat 1.
        delta_1: i32,
        /// Point change of seat 2.
        delta_2: i32,
        /// Point change of seat 3.
        delta_3: i32,
        /// Tiles accounted for at the end of the hand (hands, melds, discards, bonus tiles, wall):
        /// always the tile set's size.
        tiles: u16,
    }
}

pub fn schema() -> Vec<TableSchema> {
    vec![GameRow::schema(), PlayerRow::schema(), HandRow::schema()]
}

fn limit_index(l: Option<Limit>) -> i8 {
    l.map_or(-1, |l| l as i8)
}

/// Plays one game with the lineup's knobs, or the players of `outside` for the slots played from
/// outside the engine (seat `s` is played by `seating.player(s)`); `shown` (for `simharness
/// show`) receives each hand's result with its events. A player's error stops the game.
pub fn play_game(
    rules: &Rules,
    lineup: &[Knobs],
    seed: u64,
    seating: Seating,
    outside: &mut Outside<'_, HongKong>,
    out: &mut Tables,
    mut shown: Option<&mut Vec<HandResult>>,
) -> Result<(), PlayerError> {
    let mut points = [rules.starting_points; 4];
    let mut game = GameRow { game: seating.game, deal: seating.deal, rotation: seating.rotation, ..Default::default() };
    let mut stats: [PlayerRow; 4] = std::array::from_fn(|s| PlayerRow {
        game: seating.game,
        deal: seating.deal,
        seat: Seat::at(s),
        player: seating.player(Seat::at(s)),
        ..Default::default()
    });
    let (mut dealer, mut round) = (0u8, 0u8);
    let mut h = 0u16;
    let mut standings = Standings::new(4);
    while round < 4 {
        if h >= rules.max_hands {
            game.truncated = true;
            break;
        }
        let keys = HandKeys::new(rules.chance_recipe, seed, seating.deal, u64::from(h));
        let mut natives: [Bot; 4] = std::array::from_fn(|s| {
            let seat = Seat::at(s);
            Bot { knobs: &lineup[seating.slot(seat)], rng: keys.strategy(seat.0) }
        });
        let mut players = seat_players(&mut natives, outside, &seating);
        let log = shown.is_some();
        let r = play_hand(&HandSetup { rules, dealer, round_wind: round, hand: h, keys, points, log }, &mut players)
            .map_err(|e| e.in_game(seating.game))?;
        record(&r, h, dealer, round, &seating, &mut game, &mut stats, &mut out.hands);
        // A false win is no win (the metrics count outcomes 1-3).
        let dealer_won = matches!(&r.outcome, Outcome::Win { winners, .. } if winners.iter().any(|w| w.seat == dealer));
        standings.hand(&r.delta, usize::from(dealer), dealer_won);
        for (p, d) in points.iter_mut().zip(r.delta) {
            *p += d;
        }
        let dealer_stays = match &r.outcome {
            Outcome::Draw | Outcome::FalseWin { .. } => true,
            Outcome::Win { winners, .. } => winners.iter().any(|w| w.seat == dealer),
        };
        if !dealer_stays {
            dealer = (dealer + 1) % 4;
            if dealer == 0 {
                round += 1;
            }
        }
        if let Some(v) = shown.as_deref_mut() {
            v.push(r);
        }
        h += 1;
        if rules.bust_ends_game && points.iter().any(|&p| p < 0) {
            game.bust = true;
            break;
        }
    }
    game.hands = h;
    let rank = ranks_with(&points, rules.ties);
    game.set_facts(&standings.facts(&rank));
    out.games.push(game);
    for s in 0..4 {
        stats[s].final_points = points[s];
        stats[s].rank = rank[s];
        out.players.push(stats[s]);
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn record(
    r: &HandResult,
    h: u16,
    dealer: u8,
    round: u8,
    seating: &Seating,
    game: &mut GameRow,
    stats: &mut [PlayerRow; 4],
    hands: &mut Vec<HandRow>,
) {
    let slot = |s: u8| seating.player(Seat(s)) as i8;
    game.turns += u32::from(r.draws);
    for (s, st) in stats.iter_mut().enumerate() {
        st.claims += u16::from(r.claims[s]);
        st.refused += r.refused[s];
    }
    let row = HandRow {
        game: seating.game,
        deal: seating.deal,
        hand: h,
        round_wind: round,
        dealer,
        dice: r.dice,
        outcome: Ending::Draw,
        winner: -1,
        winner_player: -1,
        discarder: -1,
        discarder_player: -1,
        liable: -1,
        limit: -1,
        all_claims: r.claims.iter().sum(),
        draws: r.draws,
        live_left: r.live_left,
        refused: r.refused.iter().sum(),
        delta_0: r.delta[0] as i32,
        delta_1: r.delta[1] as i32,
        delta_2: r.delta[2] as i32,
        delta_3: r.delta[3] as i32,
        tiles: r.tiles_accounted,
        ..Default::default()
    };
    match &r.outcome {
        Outcome::Draw => {
            game.draws += 1;
            hands.push(row);
        }
        Outcome::FalseWin { offender } => {
            game.false_wins += 1;
            stats[usize::from(*offender)].false_wins += 1;
            hands.push(HandRow { outcome: Ending::FalseWin, winner: *offender as i8, winner_player: slot(*offender), ..row });
        }
        Outcome::Win { winners, discarder, robbed } => {
            match discarder {
                None => game.self_draws += 1,
                Some(d) => {
                    game.discard_wins += 1;
                    stats[usize::from(*d)].deal_ins += 1;
                }
            }
            for (i, win) in winners.iter().enumerate() {
                let (w, v) = (&win.seat, &win.value);
                let st = &mut stats[usize::from(*w)];
                st.wins += 1;
                st.fan += u32::from(v.fan);
                if discarder.is_none() {
                    st.self_draw_wins += 1;
                }
                if v.limit.is_some() {
                    st.limit_hands += 1;
                    game.limit_hands += 1;
                }
                let zero = i > 0;
                hands.push(HandRow {
                    claim: i as u8,
                    outcome: if discarder.is_none() {
                        Ending::SelfDraw
                    } else if *robbed {
                        Ending::RobbedKong
                    } else {
                        Ending::DiscardWin
                    },
                    winner: *w as i8,
                    winner_player: slot(*w),
                    discarder: discarder.map_or(-1, |d| d as i8),
                    discarder_player: discarder.map_or(-1, slot),
                    liable: win.liable.map_or(-1, |s| s as i8),
                    winners: winners.len() as u8,
                    fan: v.fan,
                    counted_fan: v.counted_fan,
                    bonus_fan: v.fan - v.counted_fan,
                    base: v.base as u32,
                    limit: limit_index(v.limit),
                    items: v.item_mask(),
                    bonus_tiles: r.bonus[usize::from(*w)],
                    claims: r.claims[usize::from(*w)],
                    delta_0: if zero { 0 } else { row.delta_0 },
                    delta_1: if zero { 0 } else { row.delta_1 },
                    delta_2: if zero { 0 } else { row.delta_2 },
                    delta_3: if zero { 0 } else { row.delta_3 },
                    ..row
                });
            }
        }
    }
}

/// The rows of a batch.
#[derive(Default)]
pub struct Tables {
    pub games: Vec<GameRow>,
    pub players: Vec<PlayerRow>,
    pub hands: Vec<HandRow>,
}

impl Tables {
    pub fn tables(&self) -> Vec<Table> {
        vec![GameRow::table(&self.games), PlayerRow::table(&self.players), HandRow::table(&self.hands)]
    }
}

pub fn play(rules: &Rules, lineup: &[Knobs], batch: &Batch) -> Vec<Table> {
    play_tables(rules, lineup, batch, &mut []).expect("native strategies only choose legal actions")
}

/// Plays a batch with the players of `outside` in the slots played from outside the engine; the
/// first player error stops it.
pub fn play_tables(rules: &Rules, lineup: &[Knobs], batch: &Batch, outside: &mut Outside<'_, HongKong>) -> Result<Vec<Table>, PlayerError> {
    let mut out = Tables::default();
    for g in batch.games() {
        play_game(rules, lineup, batch.seed, Seating::new(g, 4, batch.duplicate), outside, &mut out, None)?;
    }
    Ok(out.tables())
}

impl Game for HongKong {
    const NAME: &'static str = "hongkong";
    const TITLE: &'static str = "Hong Kong mahjong (香港麻雀)";
    const PLAYERS: (u8, u8) = (4, 4);
    const SPEC: &'static str = "docs/rules/hongkong.md";
    type Rules = Rules;
    type Knobs = Knobs;

    fn presets() -> Vec<Preset> {
        super::rules::presets()
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
