//! `impl Game`: plays a batch of games with keyed walls and fills the `games`, `players` and
//! `hands` tables.

use super::actions::{Action, Point};
use super::rules::{self, Extension, ExtensionMax, GameLength, Nagashi, RenchanOnDraw, Rules, Uma, Yame};
use super::scoring::{sashi, HandResult, Outcome};
use super::state::{Event, EventKind, Progress, State, MAX_TILES, SEATS};
use super::strategies::{Knobs, Native};
use super::wall::{dice, wall};
use super::yaku::Yaku;
use super::{Riichi, TAG_STRATEGY};
use crate::decide::{seat_players, Outside, Player, PlayerError};
use crate::game::{ranks, Batch, Game, Preset, Seat, Seating};
use crate::options::OptionError;
use crate::rng::Key;
use crate::standings::Standings;
use crate::table::{Codes, Rows, Table, TableSchema};
use crate::{hand_game_rows, player_rows, rows};

hand_game_rows! {
    /// One row per game.
    pub struct GameRow {
        /// The game's index in the experiment.
        game: u64,
        /// The deal (keyed walls) the game was played on; equals `game` unless duplicate play.
        deal: u64,
        /// Duplicate play: seat s is played by lineup slot (s + rotation) mod players; 0 otherwise.
        rotation: u8,
        /// Hands played.
        hands: u32,
        /// Round index of the last hand: dealer = round mod players, round wind = round / players (0 = East).
        last_round: u32,
        /// The game ended by tobi (a player ran out of points).
        busted: bool,
        /// Hands were played beyond the scheduled rounds (西入 etc.).
        extended: bool,
        /// Riichi sticks left on the table at the end (before the leftover rule).
        leftover_sticks: u32,
    }
}

player_rows! {
    /// One row per player per game. Seat 0 is the first dealer (起家), and ties in rank are broken by
    /// seat order from it; final_points include leftover deposits and yakitori. Counts are per game;
    /// rates are counts over `hands`.
    pub struct PlayerRow {
        /// Final score in thousands: (points − return_points)/1000 + uma + oka (shared on ties under tie_break = split), minus chombo_deduction/1000 per chombo under chombo_payment = points_deduction.
        score: f64,
        /// Hands played in the game.
        hands: u32,
        /// Hands won (ron or tsumo).
        wins: u32,
        /// Of which by tsumo.
        tsumo_wins: u32,
        /// Hands in which this player's discard was ronned (放銃).
        deal_ins: u32,
        /// Hands in which the player declared riichi (accepted).
        riichi: u32,
        /// Hands in which the player made an open call (副露).
        call_hands: u32,
        /// Sum of the winning hands' values (points before honba and deposits).
        win_points: i64,
        /// Sum of what the player paid on deal-ins (honba included).
        deal_in_points: i64,
        /// Exhaustive draws played.
        draws: u32,
        /// Exhaustive draws at which the player was tenpai.
        tenpai_draws: u32,
        /// Yakuman wins.
        yakuman: u32,
        /// Chombo committed (fouls shown: furiten_riichi = chombo, kara_riichi_chombo).
        chombo: u32,
        /// Tiles extracted as nukidora (flowers, sanma Norths).
        nuki: u32,
        /// Out of points when the game ended, by the tobi rule (below zero; at or below zero under
        /// tobi = zero_or_below).
        busted: bool,
    }
}

rows! {
    /// One row per hand.
    pub struct HandRow => "hands" {
        /// The game's index in the experiment.
        game: u64,
        /// The deal the game was played on.
        deal: u64,
        /// Hand number within the game (0 = first).
        hand: u32,
        /// Round index: dealer = round mod players, round wind = round / players mod 4 (0 East, 1 South, 2 West, 3 North).
        round: u32,
        /// Honba at the start of the hand.
        honba: u32,
        /// Replays of this round and honba after a chombo (0 = first play).
        repeat: u32,
        /// Dealer seat.
        #[codes = Codes::Seat]
        dealer: u8,
        /// How the hand ended (chombo: the hand is void and replayed).
        outcome: Outcome,
        /// Winners, bit per seat.
        #[codes = Codes::Seats]
        winners: u8,
        /// Seat whose discard was ronned; -1 otherwise.
        #[codes = Codes::Seat]
        discarder: i8,
        /// Han of the first winner (13 per yakuman).
        han: u8,
        /// Fu of the first winner.
        fu: u8,
        /// Value of the first winner's hand (before honba and deposits).
        points: u32,
        /// Yaku of the first winner, bit per yaku.
        #[codes = Codes::Bits(Yaku::NAMES)]
        yaku: u64,
        /// Seats in riichi, bit per seat.
        #[codes = Codes::Seats]
        riichi: u8,
        /// Seats with an open call, bit per seat.
        #[codes = Codes::Seats]
        open: u8,
        /// Seats tenpai at an exhaustive draw, bit per seat.
        #[codes = Codes::Seats]
        tenpai: u8,
        /// Tenpai seats that claimed noten at the exhaustive draw (allow_noten_declaration), bit per seat.
        #[codes = Codes::Seats]
        noten_declared: u8,
        /// Seats whose foul was shown (chombo; under hand_forfeit the hand went on), bit per seat.
        #[codes = Codes::Seats]
        chombo: u8,
        /// Discards made in the hand when it ended (the turn of the win).
        turn: u16,
        /// The wareme seat (rule `wareme`); -1 without.
        #[codes = Codes::Seat]
        wareme: i8,
        /// Point change of seat 0 (riichi sticks included).
        delta_0: i32,
        /// Point change of seat 1.
        delta_1: i32,
        /// Point change of seat 2.
        delta_2: i32,
        /// Point change of seat 3 (0 with three players).
        delta_3: i32,
    }
}

rows! {
    /// Event-level log of sampled games (rule `event_log_every`; empty when off).
    pub struct EventRow => "events" {
        /// The game's index in the experiment.
        game: u64,
        /// The deal the game was played on.
        deal: u64,
        /// Hand number within the game (0 = first).
        hand: u32,
        /// Order of the event within the hand.
        seq: u16,
        /// Seat acting; 255 for a dora indicator.
        #[codes = Codes::Seat]
        seat: u8,
        /// What happened (see `EventKind`).
        kind: EventKind,
        /// Tenhou tile id (kind = id / 4; flowers 136–143; the called tile of a call, kind × 4 for an ankan); 255 = none.
        tile: u8,
    }
}

/// Everything one game produced.
pub struct GameLog {
    pub hands: Vec<(Progress, u8, HandResult)>,
    /// (hand, events of the hand) when logging.
    pub events: Vec<(u32, Vec<Event>)>,
    pub final_points: [i64; SEATS],
    pub score: [f64; SEATS],
    pub busted: bool,
    /// The seats out of points when the game ended (before leftover sticks and yakitori move).
    pub bust_seats: [bool; SEATS],
    pub leftover: u32,
    /// Hands scheduled before extensions.
    pub scheduled: u32,
    /// The riichi stick's value (to tell deal-in payments from a discarder's own stick).
    pub deposit: u32,
}

/// Plays a whole game from East 1 with `d` deciding; walls and dice come from `wall_of`.
pub fn play_game(
    state: &mut State<'_>,
    d: &mut dyn Player<Riichi>,
    wall_of: &mut dyn FnMut(Progress) -> ([u8; MAX_TILES], u8),
) -> Result<GameLog, PlayerError> {
    state.start_game();
    let mut hands = Vec::new();
    let mut events = Vec::new();
    loop {
        let progress = state.progress;
        let (w, dice) = wall_of(progress);
        state.deal(&w[..state.rules.tile_count()], progress);
        state.roll(dice);
        let r = state.play_hand(d)?;
        if let Some(ev) = &state.events {
            events.push((hands.len() as u32, ev.clone()));
        }
        let dealer = state.dealer;
        let over = state.advance(&r, d)?;
        hands.push((progress, dealer, r));
        if over {
            break;
        }
    }
    let bust_seats: [bool; SEATS] = std::array::from_fn(|s| s < state.n && state.rules.tobi.busts(state.p[s].points));
    let busted = bust_seats.contains(&true);
    let rules = state.rules;
    let leftover = state.progress.sticks;
    let (points, score) = super::scoring::settle_game(rules, std::array::from_fn(|i| state.p[i].points), leftover, &hands);
    let scheduled = scheduled(rules);
    Ok(GameLog { hands, events, final_points: points, score, busted, bust_seats, leftover, scheduled, deposit: rules.riichi_deposit })
}

/// Hands a game schedules before extensions (one wind round = n dealer rotations).
pub fn scheduled(rules: &Rules) -> u32 {
    let n = rules.seats() as u32;
    match rules.game_length {
        GameLength::Ikkyoku => 1,
        GameLength::Tonpuu => n,
        GameLength::Hanchan => 2 * n,
        GameLength::Iichan => 4 * n,
    }
}

/// Whether `points` (seats beyond the rules' ignored) end the game by tobi.
pub fn busted_at(rules: &Rules, points: &[i64; SEATS]) -> bool {
    points[..rules.seats()].iter().any(|&p| rules.tobi.busts(p))
}

/// Whether the game is over when the deal passes after hand `round` with `points` (no tobi;
/// seats beyond the rules' ignored).
pub fn over_when_deal_passes(rules: &Rules, round: u32, points: &[i64; SEATS]) -> bool {
    let sched = scheduled(rules);
    let n = rules.seats() as u32;
    if rules.game_length == GameLength::Ikkyoku {
        return true;
    }
    if round + 1 < sched {
        return false;
    }
    if rules.extension == Extension::Off {
        return true;
    }
    if rules.extension == Extension::FullRound && round >= sched && round % n != n - 1 {
        return false;
    }
    if points[..rules.seats()].iter().any(|&p| p >= i64::from(rules.return_points)) {
        return true;
    }
    let limit = match rules.extension_max {
        ExtensionMax::OneRound => sched + n,
        ExtensionMax::TwoRounds => sched + 2 * n,
        // 返り東 repeats; 64 further hands bound a game that would otherwise never end.
        ExtensionMax::ReturnEast => sched + 64,
    };
    round + 1 >= limit
}

/// Whether `dealer` is in sole first place with `points` (ties broken by seat order; the first
/// `n` seats).
pub fn dealer_is_top(points: &[i64; SEATS], dealer: u8, n: usize) -> bool {
    crate::game::ranks(&points[..n])[usize::from(dealer)] == 1
}

/// The game flow between hands (§13): renchan, honba, the end of the game.
impl State<'_> {
    /// Whether the dealer keeps the deal after `r`.
    pub fn dealer_keeps(&self, r: &HandResult) -> bool {
        let dealer = self.dealer;
        match r.outcome {
            Outcome::Tsumo | Outcome::Ron => r.wins.iter().any(|w| w.seat == dealer),
            Outcome::Chombo => true,
            Outcome::Nagashi if self.rules.nagashi_mangan == Nagashi::AsWin => r.nagashi & (1 << dealer) != 0,
            Outcome::Exhaustive | Outcome::Nagashi => {
                let tenpai = r.tenpai & (1 << dealer) != 0;
                match self.rules.renchan_on_draw {
                    RenchanOnDraw::Tenpai => tenpai,
                    RenchanOnDraw::EastNotenPassesSouthKeeps => tenpai || self.progress.round >= self.n as u32,
                    RenchanOnDraw::AlwaysPass => false,
                    RenchanOnDraw::AlwaysKeep => true,
                }
            }
            _ => self.rules.abortive_draw_renchan,
        }
    }

    fn points(&self) -> [i64; SEATS] {
        self.p.each_ref().map(|p| p.points)
    }

    /// Advances `progress` past hand `r` (§13.2, §13.4). Returns true when the game is over. The
    /// dealer's player answers [`Point::Yame`] under `agari_yame`/`tenpai_yame = choice`.
    pub fn advance(&mut self, r: &HandResult, d: &mut dyn Player<Riichi>) -> Result<bool, PlayerError> {
        let rules = self.rules;
        if r.outcome == Outcome::Chombo {
            // The same hand again, on a new wall (A42); only a payment that busts someone ends it.
            self.progress.repeat += 1;
            return Ok(busted_at(rules, &self.points()));
        }
        self.progress.repeat = 0;
        let keeps = self.dealer_keeps(r);
        let round = self.progress.round;
        let dealer_won = r.wins.iter().any(|w| w.seat == self.dealer);
        let won =
            matches!(r.outcome, Outcome::Tsumo | Outcome::Ron) || (r.outcome == Outcome::Nagashi && rules.nagashi_mangan == Nagashi::AsWin);
        // Honba: +1 after a dealer win and after any draw; reset after a win without the dealer.
        if won && !keeps {
            self.progress.honba = 0;
        } else {
            self.progress.honba += 1;
        }
        if !keeps {
            self.progress.round += 1;
        }
        if busted_at(rules, &self.points()) {
            return Ok(true);
        }
        if !keeps {
            return Ok(over_when_deal_passes(rules, round, &self.points()));
        }
        let sched = scheduled(rules);
        if rules.game_length == GameLength::Ikkyoku {
            return Ok(true);
        }
        let target = i64::from(rules.return_points);
        let extension_on = rules.extension != Extension::Off;
        if round + 1 < sched {
            return Ok(false);
        }
        let in_extension = round >= sched;
        let rule = if dealer_won {
            rules.agari_yame
        } else if matches!(r.outcome, Outcome::Exhaustive | Outcome::Nagashi) {
            rules.tenpai_yame
        } else {
            Yame::Off
        };
        let n = self.n as u32;
        if rules.extension == Extension::FullRound && in_extension && round % n != n - 1 {
            return Ok(false);
        }
        Ok(match rule {
            Yame::Off => false,
            Yame::AutoIfTop => self.dealer_is_top() && (!extension_on || self.p[usize::from(self.dealer)].points >= target),
            Yame::Choice => self.ask_yes(d, usize::from(self.dealer), Point::Yame, Action::Yame)?,
        })
    }

    /// The dealer is in sole first place (ties broken by seat order).
    pub fn dealer_is_top(&self) -> bool {
        dealer_is_top(&self.points(), self.dealer, self.n)
    }
}

impl Game for Riichi {
    const NAME: &'static str = "riichi";
    const TITLE: &'static str = "Riichi mahjong (立直麻雀)";
    const PLAYERS: (u8, u8) = (3, 4);
    const SPEC: &'static str = "docs/rules/riichi.md";

    type Rules = Rules;
    type Knobs = Knobs;

    fn presets() -> Vec<Preset> {
        rules::presets()
    }

    fn resolve(preset: &str, overrides: &serde_json::Value) -> Result<Rules, OptionError> {
        rules::resolve(preset, overrides)
    }

    fn players(rules: &Rules) -> (u8, u8) {
        (rules.players, rules.players)
    }

    fn schema() -> Vec<TableSchema> {
        vec![GameRow::schema(), PlayerRow::schema(), HandRow::schema(), EventRow::schema()]
    }

    fn play(rules: &Rules, lineup: &[Knobs], batch: &Batch) -> Vec<Table> {
        play_tables(rules, lineup, batch, &mut []).expect("native strategies only choose legal actions")
    }

    fn show(rules: &Rules, lineup: &[Knobs], batch: &Batch) -> Vec<Table> {
        super::show::show(rules, lineup, batch)
    }

    fn show_schema() -> Vec<TableSchema> {
        super::show::schema()
    }
}

/// Plays `batch` and returns its tables. `outside[slot]` is the player of a lineup slot played
/// from outside the engine (a Python strategy); the other slots play their knobs.
pub fn play_tables(rules: &Rules, lineup: &[Knobs], batch: &Batch, outside: &mut Outside<'_, Riichi>) -> Result<Vec<Table>, PlayerError> {
    let mut state = State::new(rules);
    let mut games = Vec::with_capacity(batch.count as usize);
    let n = rules.seats();
    let mut players = Vec::with_capacity(batch.count as usize * n);
    let mut hand_rows = Vec::with_capacity(batch.count as usize * 10);
    let mut event_rows = Vec::new();
    for game in batch.games() {
        let every = u64::from(rules.event_log_every);
        state.events = (every > 0 && game % every == 0).then(Vec::new);
        let seating = Seating::new(game, n as u8, batch.duplicate);
        let log = play_one(&mut state, lineup, batch.seed, &seating, outside)?;
        push_rows(&log, &seating, n, &mut games, &mut players, &mut hand_rows);
        event_rows.extend(event_rows_of(&log, &seating));
    }
    Ok(vec![GameRow::table(&games), PlayerRow::table(&players), HandRow::table(&hand_rows), EventRow::table(&event_rows)])
}

/// Plays the game of `seating` with the keyed walls, dice and strategy randomness of `seed`:
/// the same game whether it is played in a batch or alone (`show`). Each seat is played by its
/// lineup slot's player from `outside`, or else by its knobs.
pub fn play_one(
    state: &mut State<'_>,
    lineup: &[Knobs],
    seed: u64,
    seating: &Seating,
    outside: &mut Outside<'_, Riichi>,
) -> Result<GameLog, PlayerError> {
    let rules = state.rules;
    let root = Key::new(seed);
    let mut natives: [Native; SEATS] = std::array::from_fn(|s| {
        let slot = seating.slot(Seat::at(s % usize::from(seating.players)));
        Native::new(&lineup[slot], root.with(TAG_STRATEGY).with(seating.deal).with(s as u64))
    });
    let mut players = seat_players(&mut natives, outside, seating);
    let mut log = play_game(state, &mut players, &mut |p| (wall(root, seating.deal, p, rules), dice(root, seating.deal, p)))
        .map_err(|e| e.in_game(seating.game))?;
    if rules.uma == Uma::Sashi {
        sashi(rules, &mut log.score, &log.final_points, seating.seat_of(0).index(), seating.seat_of(1).index());
    }
    Ok(log)
}

pub(super) fn event_rows_of<'a>(log: &'a GameLog, seating: &'a Seating) -> impl Iterator<Item = EventRow> + 'a {
    log.events.iter().flat_map(move |(hand, events)| {
        events.iter().enumerate().map(move |(seq, e)| {
            let (seat, tile) = e.stored();
            EventRow { game: seating.game, deal: seating.deal, hand: *hand, seq: seq as u16, seat, kind: e.kind, tile }
        })
    })
}

pub(super) fn push_rows(
    log: &GameLog,
    seating: &Seating,
    n: usize,
    games: &mut Vec<GameRow>,
    players: &mut Vec<PlayerRow>,
    hand_rows: &mut Vec<HandRow>,
) {
    // The players' rows, counted up hand by hand (the end-of-game columns are filled in last).
    let mut tally: [PlayerRow; SEATS] = std::array::from_fn(|s| PlayerRow {
        game: seating.game,
        deal: seating.deal,
        seat: Seat::at(s),
        player: seating.player(Seat::at(s)),
        ..Default::default()
    });
    let mut standings = Standings::new(n);
    for (i, (progress, dealer, r)) in log.hands.iter().enumerate() {
        // The dealer among the winners (the `winners` column), whatever the outcome.
        standings.hand(&r.deltas, usize::from(*dealer), r.wins.iter().any(|w| w.seat == *dealer));
        for (s, t) in tally.iter_mut().enumerate() {
            t.riichi += u32::from(r.riichi >> s & 1);
            t.call_hands += u32::from(r.open >> s & 1);
            t.chombo += u32::from(r.chombo >> s & 1);
            t.nuki += u32::from(r.nuki[s]);
            if matches!(r.outcome, Outcome::Exhaustive | Outcome::Nagashi) {
                t.draws += 1;
                t.tenpai_draws += u32::from(r.tenpai >> s & 1);
            }
        }
        let mut winners = 0u8;
        let mut discarder = -1i8;
        for w in &r.wins {
            let s = usize::from(w.seat);
            winners |= 1 << s;
            let t = &mut tally[s];
            t.wins += 1;
            t.win_points += i64::from(w.score.points);
            t.yakuman += u32::from(w.score.yakuman > 0);
            if r.outcome == Outcome::Tsumo {
                t.tsumo_wins += 1;
            } else {
                discarder = w.from as i8;
            }
        }
        if discarder >= 0 {
            let d = discarder as usize;
            tally[d].deal_ins += 1;
            // The deal-in payment, without the discarder's own riichi stick.
            let stick = i64::from(r.riichi >> d & 1) * i64::from(log.deposit);
            tally[d].deal_in_points -= (r.deltas[d] + stick).min(0);
        }
        let first = r.wins.first();
        hand_rows.push(HandRow {
            game: seating.game,
            deal: seating.deal,
            hand: i as u32,
            round: progress.round,
            honba: progress.honba,
            repeat: progress.repeat,
            dealer: *dealer,
            outcome: r.outcome,
            winners,
            discarder,
            han: first.map_or(0, |w| w.score.han.min(255) as u8),
            fu: first.map_or(0, |w| w.score.fu as u8),
            points: first.map_or(0, |w| w.score.points),
            yaku: first.map_or(0, |w| w.score.yaku_mask),
            riichi: r.riichi,
            open: r.open,
            tenpai: r.tenpai,
            noten_declared: r.noten_declared,
            chombo: r.chombo,
            turn: r.turn as u16,
            wareme: r.wareme.map_or(-1, |s| s as i8),
            delta_0: r.deltas[0] as i32,
            delta_1: r.deltas[1] as i32,
            delta_2: r.deltas[2] as i32,
            delta_3: r.deltas[3] as i32,
        });
    }
    let rank = ranks(&log.final_points[..n]);
    for (s, t) in tally.into_iter().enumerate().take(n) {
        players.push(PlayerRow {
            final_points: log.final_points[s],
            rank: rank[s],
            score: log.score[s],
            hands: log.hands.len() as u32,
            busted: log.bust_seats[s],
            ..t
        });
    }
    let last = log.hands.last().map_or(0, |h| h.0.round);
    let mut game = GameRow {
        game: seating.game,
        deal: seating.deal,
        rotation: seating.rotation,
        hands: log.hands.len() as u32,
        last_round: last,
        busted: log.busted,
        extended: log.hands.iter().any(|(p, _, _)| p.round >= log.scheduled),
        leftover_sticks: log.leftover,
        ..Default::default()
    };
    game.set_facts(&standings.facts(&rank));
    games.push(game);
}
