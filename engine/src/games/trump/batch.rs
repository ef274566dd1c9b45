//! Plays a batch of Trump mahjong games and fills the `games`, `players` and `hands` tables.

use super::hand::{Riichi, Yaku};
use super::rules::Rules;
use super::scoring::{pack_counts, settle, EAST, PLAYERS};
use super::state::{play_hand, HandResult, HandSetup, Log, Silent, TAG_DEALER, TAG_MISTAKE, TAG_STRATEGY, TAG_WALL};
use super::strategies::{Knobs, Native, Policy};
use super::Trump;
use crate::decide::{seat_players, Outside, PlayerError};
use crate::game::{Batch, Game, Preset, Seat, Seating};
use crate::rng::Key;
use crate::standings::Standings;
use crate::table::{Rows, Table, TableSchema};
use crate::{hand_game_rows, player_rows, rows};

hand_game_rows! {
    /// One row per game.
    pub struct GameRow {
        /// The game's index in the experiment.
        game: u64,
        /// The deal index: the key of every wall and of the first dealer (shared by duplicate tables).
        deal: u64,
        /// Duplicate play: seat `s` is played by lineup slot `(s + rotation) mod 3`.
        rotation: u8,
        /// Seat of the first dealer.
        first_dealer: u8,
        /// Hands played.
        hands: u16,
        /// Live draws over the game.
        turns: u32,
        /// Hands that ended in an exhaustive draw (流局).
        draws: u16,
        /// Hands won by tsumo.
        tsumo_hands: u16,
        /// Hands won by ron.
        ron_hands: u16,
        /// Hands after which the dealer kept the deal (won, or tenpai at the draw).
        dealer_keeps: u16,
        /// The game ended because a player reached 0 points or fewer (§8).
        bust: bool,
        /// The game hit the `max_hands` safety stop.
        stopped: bool,
        /// Riichi sticks left on the table at the end (removed, A13).
        sticks_left: i64,
        /// Hands voided by a false tsumo (chombo, mistake injection) and replayed.
        chombos: u16,
    }
}

player_rows! {
    /// One row per player per game. Seats are in turn order (the next player is seat + 1 mod 3);
    /// final_points is the settled result (§8: points − return for the non-top, the top takes the
    /// rest; zero-sum), rank 1 the top (ties by seat order from the first dealer, A17).
    pub struct PlayerRow {
        /// Seats after the first dealer in turn order (0 = the first dealer).
        dealer_order: u8,
        /// Points at the end, before settlement.
        points: i64,
        /// Winning claims (tsumo + ron).
        wins: u16,
        /// Tsumo wins.
        tsumo_wins: u16,
        /// Ron wins.
        ron_wins: u16,
        /// Discards ronned (放銃).
        deal_ins: u16,
        /// Riichi declarations that stood.
        riichi: u16,
        /// Wins with riichi.
        riichi_wins: u16,
        /// Sum of han over wins.
        han: u32,
        /// Jokers set aside over the game.
        jokers: u16,
        /// Kokushi wins.
        kokushi: u16,
        /// Hands dealt by this seat.
        dealt: u16,
        /// Lowest point total after any hand.
        lowest_points: i64,
        /// False tsumo declared (chombo, mistake injection).
        chombo: u16,
    }
}

crate::code_enum! {
    /// How a hand ended: the `hands.outcome` codes.
    pub enum Outcome {
        Draw = "exhaustive_draw",
        Tsumo = "tsumo",
        Ron = "ron",
        /// A false tsumo: the hand is void and replayed by the same dealer.
        Chombo = "chombo",
    }
}

rows! {
    /// One row per hand outcome: an exhaustive draw or a chombo is one row with `claims = 0`; a double ron
    /// two rows (`claim` 0 and 1, in turn order from the discarder), so per-hand rates count
    /// `claim == 0` rows. The winner's 8 cards and situation are logged so a win can be re-scored.
    pub struct HandRow => "hands" {
        /// The game's index in the experiment.
        game: u64,
        /// The deal index.
        deal: u64,
        /// Hand index within the game (0-based).
        hand: u16,
        /// Index of this winning claim within the hand.
        claim: u8,
        /// Winners of the hand (0 = exhaustive draw).
        claims: u8,
        /// The dealer's seat.
        dealer: u8,
        /// Round: 0 East (10), 1 South (J), 2 West (Q).
        round: u8,
        /// How the hand ended; on a chombo (a false tsumo: the hand is void and replayed by the
        /// same dealer) `offender` paid `chombo_penalty` to each opponent.
        outcome: Outcome,
        /// The winner's seat, -1 for a draw.
        winner: i8,
        /// The winner's lineup slot, -1 for a draw.
        winner_player: i8,
        /// The discarder's seat on ron, else -1.
        discarder: i8,
        /// The discarder's lineup slot on ron, else -1.
        discarder_player: i8,
        /// Live draws taken when the hand ended.
        turn: u16,
        /// Han of the win (yaku, dora, ura-dora and Jokers).
        han: u8,
        /// Han from yaku alone.
        yaku_han: u8,
        /// The table value P (§6.5), before the dealer's multiplier.
        points: u16,
        /// Yaku bits: 1 riichi, 2 ippatsu, 4 double riichi, 8 tsumo, 16 seat wind, 32 round wind,
        /// 64 tanyao, 128 pinfu, 256 iipeikou, 512 chanta, 1024 junchan, 2048 toitoi, 4096
        /// honroutou, 8192 suutoitsu, 16384 chinitsu, 32768 tsuiisou, 65536 kokushi, 131072
        /// tenhou/chiihou/renhou.
        yaku: u32,
        /// Dora cards in the win.
        dora: u8,
        /// Ura-dora cards in the win.
        ura: u8,
        /// Jokers counted for the win.
        jokers: u8,
        /// Riichi sticks (points) the winner collected.
        sticks: i64,
        /// Sticks on the table after the hand.
        pool: i64,
        /// Per seat: a riichi that stood in this hand.
        riichi_0: bool,
        /// See `riichi_0`.
        riichi_1: bool,
        /// See `riichi_0`.
        riichi_2: bool,
        /// The dealer was tenpai at an exhaustive draw.
        dealer_tenpai: bool,
        /// The dealer keeps the deal.
        dealer_keeps: bool,
        /// The winner's 8 cards, 4 bits per kind (1-9, T, J, Q, K, Joker from the low bits).
        cards: u64,
        /// Kind of the winning card (0-8 = 1-9, 9-12 = T-K, 13 Joker), -1 for a draw.
        win_kind: i8,
        /// The winner's riichi: 0 none, 1 riichi, 2 double riichi.
        riichi_kind: u8,
        /// Ippatsu window open at the win.
        ippatsu: bool,
        /// Win on the first draw (tenhou/chiihou) or ron before it (renhou).
        first_turn: bool,
        /// The winner's seat wind and the round wind (kinds 9-11).
        seat_wind: u8,
        /// See `seat_wind`.
        round_wind: u8,
        /// Dora and ura-dora kinds, -1 if none.
        dora_kind: i8,
        /// See `dora_kind` (-1 without riichi).
        ura_kind: i8,
        /// Jokers the winner had set aside.
        jokers_aside: u8,
        /// The seat that declared a false tsumo (chombo), else -1.
        offender: i8,
        /// The offender's lineup slot, else -1.
        offender_player: i8,
        /// Replays of this hand after a chombo (0 = first play): part of its wall's key.
        repeat: u16,
        /// Point change of seat 0 over the hand, sticks included (on the first row only).
        delta_0: i32,
        /// See `delta_0`.
        delta_1: i32,
        /// See `delta_0`.
        delta_2: i32,
    }
}

pub fn schema() -> Vec<TableSchema> {
    vec![GameRow::schema(), PlayerRow::schema(), HandRow::schema()]
}

pub fn presets() -> Vec<Preset> {
    super::rules::presets()
}

/// The first dealer of a game: keyed by the deal, so duplicate tables and variants agree.
pub fn first_dealer(seed: u64, deal: u64) -> usize {
    Key::new(seed).with(TAG_DEALER).with(deal).stream().below(PLAYERS as u64) as usize
}

/// The key of a hand: `base/stood` (`stood` counts the hands of the game that were not voided)
/// and `/repeat` for the replays of a voided hand, left out when 0 so that a game without a
/// chombo keeps its walls, and the hands after a replay read the walls they read without the chombo.
fn hand_key(base: Key, stood: u16, repeat: u16) -> Key {
    let k = base.with(u64::from(stood));
    if repeat > 0 {
        k.with(u64::from(repeat))
    } else {
        k
    }
}

/// The rows of one game.
#[derive(Default)]
pub struct Rows3 {
    pub games: Vec<GameRow>,
    pub players: Vec<PlayerRow>,
    pub hands: Vec<HandRow>,
}

/// Plays one game; appends its rows. Each seat is played by its slot's knobs, or by the player of
/// `outside` when the slot is played from outside the engine; `log` hears what happens.
pub fn play_game(
    rules: &Rules,
    policies: &[Policy],
    seed: u64,
    seating: Seating,
    outside: &mut Outside<'_, Trump>,
    log: &mut impl Log,
    out: &mut Rows3,
) -> Result<(), PlayerError> {
    let slots: [u8; PLAYERS] = std::array::from_fn(|s| seating.player(Seat::at(s)));
    let by_seat: [&Policy; PLAYERS] = std::array::from_fn(|s| &policies[usize::from(slots[s])]);
    let first = first_dealer(seed, seating.deal);
    let start = i64::from(rules.starting_points);
    let mut points = [start; PLAYERS];
    let mut pool = 0i64;
    let mut game =
        GameRow { game: seating.game, deal: seating.deal, rotation: seating.rotation, first_dealer: first as u8, ..Default::default() };
    let mut stats: [PlayerRow; PLAYERS] = std::array::from_fn(|s| PlayerRow {
        game: seating.game,
        deal: seating.deal,
        seat: Seat::at(s),
        player: slots[s],
        dealer_order: ((s + PLAYERS - first) % PLAYERS) as u8,
        lowest_points: start,
        ..Default::default()
    });
    let key = Key::new(seed);
    let [wall, strategy, mistakes] = [TAG_WALL, TAG_STRATEGY, TAG_MISTAKE].map(|tag| key.with(tag).with(seating.deal));
    let (mut moves, mut h, mut stood, mut repeat) = (0usize, 0u16, 0u16, 0u16);
    let laps = usize::from(rules.rounds) * PLAYERS;
    let mut standings = Standings::new(PLAYERS);
    while moves < laps {
        if h >= rules.max_hands {
            game.stopped = true;
            break;
        }
        let dealer = (first + moves) % PLAYERS;
        let round = (moves / PLAYERS) as u8;
        let setup = HandSetup {
            rules,
            dealer,
            round_wind: EAST + round,
            hand: h,
            wall: hand_key(wall, stood, repeat),
            mistakes: hand_key(mistakes, stood, repeat),
        };
        let strategy = hand_key(strategy, stood, repeat);
        let mut natives: [Native; PLAYERS] = std::array::from_fn(|s| Native { policy: by_seat[s], rng: strategy.with(s as u64).stream() });
        let mut players = seat_players(&mut natives, outside, &seating);
        let before = points;
        let r = play_hand(&setup, &mut players, log, &mut points, &mut pool)?;
        let delta: [i64; PLAYERS] = std::array::from_fn(|s| points[s] - before[s]);
        stats[dealer].dealt += 1;
        record(&r, h, repeat, dealer, round, delta, pool, &slots, &seating, &mut game, &mut stats, &mut out.hands);
        // A chombo voids the hand: no win.
        let dealer_won = r.chombo.is_none() && r.wins.iter().flatten().any(|w| usize::from(w.seat) == dealer);
        standings.hand(&delta, dealer, dealer_won);
        for (s, &p) in points.iter().enumerate() {
            stats[s].lowest_points = stats[s].lowest_points.min(p);
        }
        h += 1;
        if r.chombo.is_some() {
            // The same hand again, same dealer, on a new wall.
            repeat += 1;
        } else {
            (stood, repeat) = (stood + 1, 0);
            if !r.dealer_keeps {
                moves += 1;
            }
        }
        if rules.end_on_zero && points.iter().any(|&p| p <= 0) {
            game.bust = true;
            break;
        }
    }
    game.hands = h;
    game.sticks_left = pool;
    let finals = settle(&points, first, rules);
    let order = |s: usize| (s + PLAYERS - first) % PLAYERS;
    for (s, row) in stats.iter_mut().enumerate() {
        let above = (0..PLAYERS).filter(|&o| (points[o], std::cmp::Reverse(order(o))) > (points[s], std::cmp::Reverse(order(s)))).count();
        (row.rank, row.final_points, row.points) = (above as u8 + 1, finals[s], points[s]);
    }
    let rank = stats.map(|row| row.rank);
    game.set_facts(&standings.facts(&rank));
    out.games.push(game);
    out.players.extend(stats);
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn record(
    r: &HandResult,
    h: u16,
    repeat: u16,
    dealer: usize,
    round: u8,
    delta: [i64; PLAYERS],
    pool: i64,
    slots: &[u8; PLAYERS],
    seating: &Seating,
    game: &mut GameRow,
    stats: &mut [PlayerRow; PLAYERS],
    hands: &mut Vec<HandRow>,
) {
    game.turns += u32::from(r.turn);
    game.dealer_keeps += u16::from(r.dealer_keeps);
    for (s, row) in stats.iter_mut().enumerate() {
        row.riichi += u16::from(r.riichi[s]);
        row.jokers += u16::from(r.jokers[s]);
    }
    let row = HandRow {
        game: seating.game,
        deal: seating.deal,
        hand: h,
        repeat,
        dealer: dealer as u8,
        round,
        outcome: Outcome::Draw,
        winner: -1,
        winner_player: -1,
        discarder: r.discarder.map_or(-1, |d| d as i8),
        discarder_player: r.discarder.map_or(-1, |d| slots[usize::from(d)] as i8),
        turn: r.turn,
        pool,
        riichi_0: r.riichi[0],
        riichi_1: r.riichi[1],
        riichi_2: r.riichi[2],
        dealer_tenpai: r.dealer_tenpai,
        dealer_keeps: r.dealer_keeps,
        win_kind: -1,
        dora_kind: -1,
        ura_kind: -1,
        offender: -1,
        offender_player: -1,
        delta_0: delta[0] as i32,
        delta_1: delta[1] as i32,
        delta_2: delta[2] as i32,
        ..Default::default()
    };
    if let Some(o) = r.chombo {
        game.chombos += 1;
        stats[usize::from(o)].chombo += 1;
        hands.push(HandRow { outcome: Outcome::Chombo, offender: o as i8, offender_player: slots[usize::from(o)] as i8, ..row });
        return;
    }
    let claims = r.wins.iter().flatten().count();
    if claims == 0 {
        game.draws += 1;
        hands.push(row);
        return;
    }
    if r.tsumo {
        game.tsumo_hands += 1;
    } else {
        game.ron_hands += 1;
        stats[usize::from(r.discarder.unwrap_or(0))].deal_ins += 1;
    }
    for (i, w) in r.wins.iter().flatten().enumerate() {
        let v = &w.value;
        let s = &mut stats[usize::from(w.seat)];
        s.wins += 1;
        if r.tsumo {
            s.tsumo_wins += 1;
        } else {
            s.ron_wins += 1;
        }
        s.han += u32::from(v.han);
        s.riichi_wins += u16::from(w.situation.riichi != Riichi::None);
        s.kokushi += u16::from(v.yaku & Yaku::Kokushi.bit() != 0);
        let sit = &w.situation;
        let base = if i == 0 { row } else { HandRow { delta_0: 0, delta_1: 0, delta_2: 0, ..row } };
        hands.push(HandRow {
            claim: i as u8,
            claims: claims as u8,
            outcome: if r.tsumo { Outcome::Tsumo } else { Outcome::Ron },
            winner: w.seat as i8,
            winner_player: slots[usize::from(w.seat)] as i8,
            han: v.han,
            yaku_han: v.yaku_han,
            points: v.points,
            yaku: v.yaku,
            dora: v.dora,
            ura: v.ura,
            jokers: v.jokers,
            sticks: w.sticks,
            cards: pack_counts(&w.counts),
            win_kind: sit.win as i8,
            riichi_kind: match sit.riichi {
                Riichi::None => 0,
                Riichi::Single => 1,
                Riichi::Double => 2,
            },
            ippatsu: sit.ippatsu,
            first_turn: sit.first_turn,
            seat_wind: sit.seat_wind,
            round_wind: sit.round_wind,
            dora_kind: sit.dora.map_or(-1, |k| k as i8),
            ura_kind: sit.ura.map_or(-1, |k| k as i8),
            jokers_aside: sit.jokers_aside,
            ..base
        });
    }
}

pub fn play(rules: &Rules, lineup: &[Knobs], batch: &Batch) -> Vec<Table> {
    play_tables(rules, lineup, batch, &mut []).expect("the knobs always answer a legal action")
}

/// Plays `batch` with the players of `outside` in the slots played from outside the engine; a
/// player's error stops it, naming the game.
pub fn play_tables(rules: &Rules, lineup: &[Knobs], batch: &Batch, outside: &mut Outside<'_, Trump>) -> Result<Vec<Table>, PlayerError> {
    play_logged(rules, lineup, batch, outside, &mut Silent)
}

/// [`play_tables`] with `log` hearing what happens.
pub(super) fn play_logged(
    rules: &Rules,
    lineup: &[Knobs],
    batch: &Batch,
    outside: &mut Outside<'_, Trump>,
    log: &mut impl Log,
) -> Result<Vec<Table>, PlayerError> {
    let policies: Vec<Policy> = lineup.iter().map(|k| Policy::new(k.clone(), rules.clone())).collect();
    let mut out = Rows3::default();
    for g in batch.games() {
        let seating = Seating::new(g, PLAYERS as u8, batch.duplicate);
        play_game(rules, &policies, batch.seed, seating, outside, log, &mut out).map_err(|e| e.in_game(g))?;
    }
    Ok(vec![GameRow::table(&out.games), PlayerRow::table(&out.players), HandRow::table(&out.hands)])
}

impl Game for Trump {
    const NAME: &'static str = "trump";
    const TITLE: &'static str = "Trump mahjong (トランプ麻雀)";
    const PLAYERS: (u8, u8) = (3, 3);
    const SPEC: &'static str = "docs/rules/trump.md";
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
