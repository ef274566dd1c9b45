//! The game state and its transitions: setup (dora, course, opening pochi), turns, movement,
//! square effects and manzu chains (§2–§8, the reference algorithm of §6.4).
//!
//! The state is a fixed-size value (no heap), reused across the games of a batch and cheap to make
//! from a seat's view for the greedy strategy's lookahead ([`State::seen_by`]). The dealt `course`
//! is hidden from the players, who see `face`.

use super::actions::{Decision, Driver, Point, RollKind, Rolls, View};
use super::rules::{DoraMode, ExtraRoll, LoopRule, Overshoot, PinzoroDoubles, RestRule, RollPermission, Rules};
use super::scoring::Source;
use crate::rng::Key;

pub const MAX_PLAYERS: usize = 5;
/// Tiles in a set.
pub const TILES: usize = 136;
/// Plain kinds: 0–8 manzu 1–9, 9–17 pinzu, 18–26 souzu, 27–30 東南西北, 31 白, 32 發, 33 中.
pub const KINDS: usize = 34;
pub const RED_5M: u8 = 34;
pub const RED_5P: u8 = 35;
pub const GOLD_5P: u8 = 36;
pub const RED_5S: u8 = 37;
pub const GOLD_5S: u8 = 38;
pub const POCHI: u8 = 39;
/// Tile identities: the 34 plain kinds and the special tiles. A blue 5p has no rule of its own
/// and is a plain 5p (kind 13).
pub const TILE_IDS: usize = 40;
/// A face-down square in [`State::face`] (no tile id).
pub const FACE_DOWN: u8 = u8::MAX;
const FIVE_M: u8 = 4;
const FIVE_P: u8 = 13;
const FIVE_S: u8 = 22;
const WHITE: u8 = 31;
/// Multipliers saturate here so that even uncapped scores stay far inside i64; reaching it takes
/// about eight consecutive triple-dora dragon landings.
pub const MULT_CEILING: u64 = 1 << 32;

/// The kind a tile counts as for dora (red, gold and pochi tiles are their plain kind, §1.1).
pub fn kind(id: u8) -> u8 {
    match id {
        RED_5M => FIVE_M,
        RED_5P | GOLD_5P => FIVE_P,
        RED_5S | GOLD_5S => FIVE_S,
        POCHI => WHITE,
        k => k,
    }
}

/// The kind a flipped tile of kind `k` makes dora.
fn dora_target(k: u8, mode: DoraMode) -> u8 {
    match mode {
        DoraMode::SelfKind => k,
        DoraMode::Next => match k {
            0..=26 => k - k % 9 + (k % 9 + 1) % 9,
            27..=30 => 27 + (k - 27 + 1) % 4,
            _ => 31 + (k - 31 + 1) % 3,
        },
    }
}

/// What landing on a tile does, before multipliers (§4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    /// Manzu: move n more squares (backward during a pinzoro sequence).
    Move(u8),
    /// Red 5m: back to start, extra laps cost `lap_penalty` to each.
    RedFiveM,
    /// Receive this many points from each opponent.
    Receive(u16),
    /// Pay this many points to each opponent.
    Pay(u16),
    /// A wind: one rest.
    Rest,
    /// A plain dragon: the next landing's effect ×2.
    Dragon,
    /// 白ポッチ: receive 50 × pending from each; the next landing ×10. Never dora.
    Pochi,
}

impl Effect {
    pub fn of(id: u8) -> Effect {
        match id {
            0..=8 => Effect::Move(id + 1),
            9..=17 => Effect::Receive(u16::from(id - 8)),
            18..=26 => Effect::Pay(u16::from(id - 17)),
            27..=30 => Effect::Rest,
            31..=33 => Effect::Dragon,
            RED_5M => Effect::RedFiveM,
            RED_5P => Effect::Receive(10),
            GOLD_5P => Effect::Receive(50),
            RED_5S => Effect::Pay(10),
            GOLD_5S => Effect::Pay(50),
            _ => Effect::Pochi,
        }
    }
}

/// Direction of a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dir {
    Forward,
    Back,
}

/// How the game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum End {
    /// Still running.
    #[default]
    Running,
    /// A piece landed exactly on the goal.
    Goal,
    /// `max_turns` player-turns were played (early end, no settlement).
    MaxTurns,
    /// Every player agreed to end (G-D4, early end, no settlement).
    Agreement,
}

/// One player's piece, pending effects, points and counters.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Player {
    /// 0 = start, 1..=L course squares, L + 1 = goal.
    pub pos: u8,
    /// The pending multiplier for the next landing (1 = none).
    pub mult: u64,
    pub rests: u32,
    pub points: i64,
    /// Turns in which this player rolled (its dice are keyed by this number).
    pub turns_played: u32,
    pub rests_served: u32,
    pub pinzoro: u32,
    pub sixzoro: u32,
    pub back_rerolls: u32,
    pub extra_rolls: u32,
    pub offsets: u32,
    pub red5m_returns: u32,
    pub pochi_landings: u32,
    pub opening_pochi_flips: u32,
    pub max_mult: u64,
    /// End-of-game transfers (§9), filled by `settle`.
    pub bonus: i64,
    pub distance_settlement: i64,
    pub rest_chips: i64,
}

/// Counters of one game.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Stats {
    pub turns: u32,
    pub rounds: u32,
    pub goal_bounces: u32,
    pub loops: u32,
    pub redeals: u32,
    pub largest_payment: i64,
    pub capped_payments: u32,
    pub revealed: u32,
}

/// The whole game.
#[derive(Debug, Clone)]
pub struct State<'r> {
    pub rules: &'r Rules,
    pub n: usize,
    /// Course length L; the goal is position L + 1.
    pub len: u8,
    pub goal: u8,
    /// The tile set to deal from (special tiles already in place of plain copies).
    set: [u8; TILES],
    /// Copies of each tile id in `set`.
    set_counts: [u8; TILE_IDS],
    /// Tile id on each course square 1..=L (index 0 is the start), face down or up: hidden from
    /// the players, who see [`State::face`].
    pub course: [u8; TILES + 1],
    /// The course as the players see it: the tile of each face-up square, [`FACE_DOWN`] for the
    /// others. Kept beside `course` so that a seat's [`View`] can borrow it whole.
    pub face: [u8; TILES + 1],
    /// Dora count per kind.
    pub dora: [u8; KINDS],
    /// Course tiles still face down, per tile id (the greedy lookahead's prior).
    pub unseen: [u8; TILE_IDS],
    pub players: [Player; MAX_PLAYERS],
    pub end: End,
    pub winner: Option<usize>,
    pub stats: Stats,
    /// Lookahead mode: a face-down square stops resolution instead of being flipped (a lookahead's
    /// state, [`State::seen_by`], does not know its tile).
    pub preview: bool,
    /// In lookahead mode, the face-down square the piece stopped on (0 = none) and the direction
    /// manzu would move from it.
    pub hidden_stop: u8,
    pub hidden_dir: Dir,
    /// Scratch for `resolve`: the squares of the current manzu chain (kept here so that no
    /// buffer is cleared per landing).
    chain: [u8; TILES + 2],
}

impl<'r> State<'r> {
    /// A state for `n` players; call [`State::deal`] before each game.
    pub fn new(rules: &'r Rules, n: usize) -> Self {
        assert!((1..=MAX_PLAYERS).contains(&n), "player count is checked by the harness");
        let mut set = [0u8; TILES];
        for (i, t) in set.iter_mut().enumerate() {
            *t = (i / 4) as u8;
        }
        // Copy c of kind k sits at index 4k + c; special tiles take the copies from the top down.
        let mut next_copy = [3usize; KINDS];
        let specials = [
            (RED_5M, rules.red_5m),
            (RED_5P, rules.red_5p),
            (GOLD_5P, rules.gold_5p),
            (RED_5S, rules.red_5s),
            (GOLD_5S, rules.gold_5s),
            (POCHI, rules.pochi_count),
        ];
        for (id, count) in specials {
            let k = usize::from(kind(id));
            for _ in 0..count {
                set[4 * k + next_copy[k]] = id;
                next_copy[k] -= 1;
            }
        }
        let mut set_counts = [0u8; TILE_IDS];
        for &t in &set {
            set_counts[usize::from(t)] += 1;
        }
        let len = (TILES - rules.dora_count as usize) as u8;
        State {
            rules,
            n,
            len,
            goal: len + 1,
            set,
            set_counts,
            course: [0; TILES + 1],
            face: [FACE_DOWN; TILES + 1],
            dora: [0; KINDS],
            unseen: [0; TILE_IDS],
            players: [Player::default(); MAX_PLAYERS],
            end: End::Running,
            winner: None,
            stats: Stats::default(),
            preview: false,
            hidden_stop: 0,
            hidden_dir: Dir::Forward,
            chain: [0; TILES + 2],
        }
    }

    /// Sets up a game: shuffles the set with `setup.with(attempt)`, flips the dora and lays the
    /// course, re-dealing on an opening pochi (S15; attempt k follows k consecutive ones). Dora tile `i` counts as flipped by seat
    /// `i mod n` (each player flips an equal share, §2).
    pub fn deal(&mut self, setup: Key) {
        self.players = [Player { mult: 1, max_mult: 1, ..Player::default() }; MAX_PLAYERS];
        self.end = End::Running;
        self.winner = None;
        self.stats = Stats::default();
        let d = self.rules.dora_count as usize;
        let mut consecutive = 0u32;
        let tiles = loop {
            let mut tiles = self.set;
            setup.with(u64::from(consecutive)).stream().shuffle(&mut tiles);
            if !self.rules.opening_pochi || !tiles[..d].contains(&POCHI) {
                break tiles;
            }
            consecutive += 1;
            self.stats.redeals += 1;
            let factor = 10u64.saturating_pow(consecutive - 1).min(MULT_CEILING);
            // The reset voids any earlier flipper's ×10: only this deal's flippers carry a multiplier.
            for p in &mut self.players[..self.n] {
                p.mult = 1;
            }
            for i in (0..d).filter(|&i| tiles[i] == POCHI) {
                let seat = i % self.n;
                self.transfer(seat, -((50 * factor) as i64), Source::OpeningPochi);
                let p = &mut self.players[seat];
                p.opening_pochi_flips += 1;
                p.mult = (factor * 10).min(MULT_CEILING);
                p.max_mult = p.max_mult.max(p.mult);
            }
        };
        self.dora = [0; KINDS];
        for &t in &tiles[..d] {
            self.dora[usize::from(dora_target(kind(t), self.rules.dora_mode))] += 1;
        }
        // Unseen = the whole set minus the dora: a pass over the 20 dora, not the 116 course tiles.
        self.unseen = self.set_counts;
        for &t in &tiles[..d] {
            self.unseen[usize::from(t)] -= 1;
        }
        self.course[1..=tiles.len() - d].copy_from_slice(&tiles[d..]);
        self.face = [FACE_DOWN; TILES + 1];
    }

    /// What `seat` sees of the game: everything but the face-down tiles.
    pub fn view(&self, seat: usize) -> View<'_> {
        View {
            rules: self.rules,
            seat,
            players: &self.players[..self.n],
            face: &self.face,
            goal: self.goal,
            dora: &self.dora,
            unseen: &self.unseen,
            stats: &self.stats,
        }
    }

    /// The game as `view`'s seat sees it, for a lookahead: its course holds no tile the seat has
    /// not seen (the face-down squares are [`FACE_DOWN`]), so it is in lookahead mode (`preview`)
    /// and stops on them, and it cannot deal. The game is running (a seat decides only then).
    pub fn seen_by(view: &View<'r>) -> Self {
        let n = view.players.len();
        let mut players = [Player::default(); MAX_PLAYERS];
        players[..n].copy_from_slice(view.players);
        State {
            rules: view.rules,
            n,
            len: view.goal - 1,
            goal: view.goal,
            set: [0; TILES],
            set_counts: [0; TILE_IDS],
            course: *view.face,
            face: *view.face,
            dora: *view.dora,
            unseen: *view.unseen,
            players,
            end: End::Running,
            winner: None,
            stats: *view.stats,
            preview: true,
            hidden_stop: 0,
            hidden_dir: Dir::Forward,
            chain: [0; TILES + 2],
        }
    }

    /// Whether square `sq` is face up.
    pub fn is_up(&self, sq: usize) -> bool {
        self.face[sq] != FACE_DOWN
    }

    /// Plays the game to its end: rounds of turns from seat 0 (seats are numbered in turn order),
    /// with the G-D4 agreement offered at the start of each round when all pieces are near the goal.
    /// A player's error stops the game at once.
    pub fn play<D: Driver>(&mut self, driver: &mut D) -> Result<(), D::Error> {
        loop {
            if self.agreement_offered() && self.all_agree(driver)? {
                self.end = End::Agreement;
                return Ok(());
            }
            self.stats.rounds += 1;
            for seat in 0..self.n {
                if self.stats.turns >= self.rules.max_turns {
                    self.end = End::MaxTurns;
                    return Ok(());
                }
                self.turn(seat, driver)?;
                driver.turn_done(self, seat);
                if self.winner.is_some() {
                    return Ok(());
                }
            }
        }
    }

    /// G-D4: asks the seats in order until one declines.
    fn all_agree<D: Driver>(&self, driver: &mut D) -> Result<bool, D::Error> {
        let point = Point { decision: Decision::AgreeEnd, turn: self.stats.rounds, roll: 0 };
        for seat in 0..self.n {
            if !driver.decide(self, seat, point)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    fn agreement_offered(&self) -> bool {
        self.rules.agreement_end && self.players[..self.n].iter().all(|p| u32::from(self.goal - p.pos) <= self.rules.agreement_distance)
    }

    /// One turn of `seat` (§3): serve a rest, or roll.
    pub fn turn<D: Driver>(&mut self, seat: usize, driver: &mut D) -> Result<(), D::Error> {
        self.stats.turns += 1;
        let p = &mut self.players[seat];
        if p.rests > 0 {
            p.rests -= 1;
            p.rests_served += 1;
            return Ok(());
        }
        let mut rolls = Rolls { turn: p.turns_played, roll: 0 };
        p.turns_played += 1;
        match driver.dice(seat, rolls.turn, 0) {
            Some(dice) => self.roll_action(seat, RollKind::Turn, dice, &mut rolls, driver),
            None => Ok(()),
        }
    }

    /// Applies a roll of the given kind: the turn's ordinary roll (with the pinzoro and 6-zoro
    /// procedures of §7), the pinzoro back re-roll, or the 6-zoro extra roll. Further rolls of
    /// the turn are drawn through `rolls`.
    pub fn roll_action<D: Driver>(
        &mut self,
        seat: usize,
        kind: RollKind,
        dice: (u8, u8),
        rolls: &mut Rolls,
        driver: &mut D,
    ) -> Result<(), D::Error> {
        match kind {
            RollKind::PinzoroBack => return self.pinzoro_back(seat, dice, rolls, driver),
            RollKind::SixzoroExtra if self.rules.sixzoro_extra_roll == ExtraRoll::Plain => {
                self.move_piece(seat, u64::from(dice.0 + dice.1), Dir::Forward);
                return Ok(());
            }
            _ => {}
        }
        // A full roll; a 6-zoro's extra roll may be a full roll again (S7), hence the loop.
        let mut dice = dice;
        loop {
            if dice == (1, 1) {
                self.players[seat].pinzoro += 1;
                self.move_piece(seat, 2, Dir::Back);
                if self.winner.is_some()
                    || self.players[seat].pos == 0
                    || self.offset(seat, rolls.at(Decision::PinzoroOffset), driver)?
                    || !self.permitted(seat, self.rules.pinzoro_reroll, rolls.at(Decision::PinzoroReroll), driver)?
                {
                    return Ok(());
                }
                return match rolls.next(seat, driver) {
                    Some(dice) => self.pinzoro_back(seat, dice, rolls, driver),
                    None => Ok(()),
                };
            }
            if dice != (6, 6) {
                self.move_piece(seat, u64::from(dice.0 + dice.1), Dir::Forward);
                return Ok(());
            }
            self.players[seat].sixzoro += 1;
            self.move_piece(seat, 12, Dir::Forward);
            if self.winner.is_some()
                || self.offset(seat, rolls.at(Decision::SixzoroOffset), driver)?
                || !self.permitted(seat, self.rules.sixzoro_reroll, rolls.at(Decision::ExtraRoll), driver)?
            {
                return Ok(());
            }
            self.players[seat].extra_rolls += 1;
            match rolls.next(seat, driver) {
                Some(d) if self.rules.sixzoro_extra_roll == ExtraRoll::Full => dice = d,
                Some((a, b)) => {
                    self.move_piece(seat, u64::from(a + b), Dir::Forward);
                    return Ok(());
                }
                None => return Ok(()),
            }
        }
    }

    /// The pinzoro back re-roll (§7.1 step 3), repeated on 1-1 under `pinzoro_reroll_doubles = again`.
    fn pinzoro_back<D: Driver>(&mut self, seat: usize, dice: (u8, u8), rolls: &mut Rolls, driver: &mut D) -> Result<(), D::Error> {
        let mut dice = dice;
        loop {
            self.players[seat].back_rerolls += 1;
            self.move_piece(seat, u64::from(dice.0 + dice.1), Dir::Back);
            if self.winner.is_some()
                || self.players[seat].pos == 0
                || dice != (1, 1)
                || self.rules.pinzoro_reroll_doubles != PinzoroDoubles::Again
                || !self.permitted(seat, self.rules.pinzoro_reroll, rolls.at(Decision::PinzoroReroll), driver)?
            {
                return Ok(());
            }
            match rolls.next(seat, driver) {
                Some(d) => dice = d,
                None => return Ok(()),
            }
        }
    }

    /// Asks for an optional roll unless the rules force or forbid it.
    fn permitted<D: Driver>(&self, seat: usize, permission: RollPermission, point: Point, driver: &mut D) -> Result<bool, D::Error> {
        match permission {
            RollPermission::Always => Ok(true),
            RollPermission::Never => Ok(false),
            RollPermission::Optional => driver.decide(self, seat, point),
        }
    }

    /// G-D3 (S8): if the move ended on a (face-up) wind, the player may cancel one rest instead of
    /// the extra roll. Returns whether it did.
    fn offset<D: Driver>(&mut self, seat: usize, point: Point, driver: &mut D) -> Result<bool, D::Error> {
        let p = self.players[seat];
        let on_wind = p.pos > 0 && p.pos < self.goal && Effect::of(self.face[usize::from(p.pos)]) == Effect::Rest;
        if !self.rules.offset_allowed || !on_wind || p.rests == 0 || !driver.decide(self, seat, point)? {
            return Ok(false);
        }
        let p = &mut self.players[seat];
        p.rests -= 1;
        p.offsets += 1;
        Ok(true)
    }

    /// Where a move of `s` squares from `pos` ends (§5); `None` if the move is void
    /// (`overshoot = stay`). Forward moves that overshoot bounce once and stop at the start (S5).
    fn step(&mut self, pos: u8, s: u64, dir: Dir) -> Option<u8> {
        let pos = u64::from(pos);
        let goal = u64::from(self.goal);
        let t = match dir {
            Dir::Back => pos.saturating_sub(s),
            Dir::Forward => {
                let t = pos.saturating_add(s);
                if t <= goal {
                    t
                } else {
                    self.stats.goal_bounces += 1;
                    match self.rules.overshoot {
                        Overshoot::Bounce => (2 * goal).saturating_sub(t),
                        Overshoot::Stay => return None,
                        Overshoot::Finish => goal,
                    }
                }
            }
        };
        Some(t as u8)
    }

    /// Moves a piece and resolves where it stops (`move` of §6.4).
    pub fn move_piece(&mut self, seat: usize, s: u64, dir: Dir) {
        let Some(t) = self.step(self.players[seat].pos, s, dir) else { return };
        self.players[seat].pos = t;
        if t == self.goal {
            self.win(seat);
        } else if t > 0 {
            let manzu = if dir == Dir::Back && self.rules.pinzoro_manzu_back { Dir::Back } else { Dir::Forward };
            self.resolve(seat, manzu);
        }
    }

    fn win(&mut self, seat: usize) {
        self.winner = Some(seat);
        self.end = End::Goal;
    }

    /// Resolves the square under `seat`'s piece, following manzu chains (`resolve` of §6.4).
    /// `manzu` is the direction manzu move in (backward during a pinzoro sequence).
    pub fn resolve(&mut self, seat: usize, manzu: Dir) {
        // Loop detection (§5): the spec records (square, pending multiplier) of every manzu
        // landing. Only a chain's first landing can carry a multiplier other than 1 (manzu consume
        // it and set none), so the squares and the first multiplier identify every pair.
        let mut chain_len = 0usize;
        let mut first_mult = 1u64;
        loop {
            let sq = self.players[seat].pos;
            let at = usize::from(sq);
            let mut id = self.face[at];
            if id == FACE_DOWN {
                if self.preview {
                    self.hidden_stop = sq;
                    self.hidden_dir = manzu;
                    return;
                }
                id = self.course[at];
                self.face[at] = id;
                self.unseen[usize::from(id)] -= 1;
                self.stats.revealed += 1;
            }
            let m_prev = self.players[seat].mult;
            self.players[seat].mult = 1;
            let dora = if id == POCHI { 0 } else { self.dora[usize::from(kind(id))] };
            let m_eff = m_prev.saturating_mul(1 << dora).min(MULT_CEILING);
            match Effect::of(id) {
                Effect::Move(n) => {
                    let skip_first = usize::from(first_mult != 1);
                    if m_prev == 1 && chain_len > skip_first {
                        if let Some(i) = self.chain[skip_first..chain_len].iter().position(|&s| s == sq) {
                            return self.stop_loop(seat, skip_first + i, chain_len);
                        }
                    }
                    if chain_len == 0 {
                        first_mult = m_prev;
                    }
                    self.chain[chain_len] = sq;
                    chain_len += 1;
                    let Some(t) = self.step(sq, u64::from(n) * m_eff, manzu) else { return };
                    self.players[seat].pos = t;
                    if t == self.goal {
                        self.win(seat);
                        return;
                    }
                    if t == 0 {
                        return;
                    }
                }
                Effect::RedFiveM => return self.red_five_m(seat, m_eff),
                Effect::Receive(v) => {
                    self.transfer(seat, i64::from(v) * m_eff as i64, Source::Square);
                    return;
                }
                Effect::Pay(v) => {
                    self.transfer(seat, -(i64::from(v) * m_eff as i64), Source::Square);
                    return;
                }
                Effect::Rest => {
                    self.add_rests(seat, m_eff);
                    return;
                }
                Effect::Dragon => {
                    self.set_mult(seat, m_eff.saturating_mul(2).min(MULT_CEILING));
                    return;
                }
                Effect::Pochi => return self.pochi(seat, m_prev),
            }
        }
    }

    // The rare outcomes of `resolve` live out of line (`#[cold]`) so that its hot loop, which
    // the greedy lookahead runs about 80 times per decision, keeps fewer registers live.

    /// A manzu chain came back to the square at `chain[from]` (§5): stop per `loop_rule`.
    #[cold]
    fn stop_loop(&mut self, seat: usize, from: usize, chain_len: usize) {
        let sq = self.chain[from];
        let stop = match self.rules.loop_rule {
            LoopRule::NearestGoal => self.chain[from..chain_len].iter().copied().max().unwrap_or(sq),
            LoopRule::RepeatSquare => sq,
        };
        self.players[seat].pos = stop;
        self.stats.loops += 1;
    }

    /// Red 5m: back to the start; every lap the multiplier adds costs `lap_penalty`.
    #[cold]
    fn red_five_m(&mut self, seat: usize, m_eff: u64) {
        let p = &mut self.players[seat];
        p.pos = 0;
        p.red5m_returns += 1;
        if m_eff > 1 {
            let laps = (m_eff - 1) as i64;
            self.transfer(seat, -(i64::from(self.rules.lap_penalty) * laps), Source::Square);
        }
    }

    /// 白ポッチ: 50 × the pending multiplier from each, and ×10 on the next landing.
    #[cold]
    fn pochi(&mut self, seat: usize, m_prev: u64) {
        self.players[seat].pochi_landings += 1;
        self.transfer(seat, 50 * m_prev as i64, Source::Square);
        self.set_mult(seat, 10);
    }

    fn set_mult(&mut self, seat: usize, m: u64) {
        let p = &mut self.players[seat];
        p.mult = m;
        p.max_mult = p.max_mult.max(m);
    }

    /// A wind's rests (§8), under the chosen rest rule.
    fn add_rests(&mut self, seat: usize, m_eff: u64) {
        let total = u64::from(self.players[seat].rests) + m_eff;
        let cap = match self.rules.rest_rule {
            RestRule::Max10 => u64::from(self.rules.rest_cap_base),
            RestRule::Penalty4 => {
                let cap = u64::from(self.rules.rest_penalty_cap);
                if total > cap {
                    let excess = (total - cap) as i64;
                    self.transfer(seat, -(i64::from(self.rules.rest_penalty) * excess), Source::RestPenalty);
                }
                cap
            }
        };
        self.players[seat].rests = total.min(cap) as u32;
    }
}
