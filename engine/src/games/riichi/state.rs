//! The game state machine: one hand from the deal to its settlement (spec §3–§12), and the game
//! flow between hands (§13).
//!
//! Tiles are Tenhou ids 0–135 (kind = id / 4). The red fives are ids 16, 52, 88 (and 53 with four
//! red fives); with `aka_dora = 0` they are plain fives. Flowers are ids 136–143: they never enter
//! a hand's tiles or counts (a held flower is a bit of `Player::flowers_held`), so the hand
//! evaluator never sees them. The wall is §3.3's linear model over the set's N tiles (136, or 108
//! with three players, plus the flowers): `wall[0..dead]` is the live wall (deal from 0..13n, draws
//! from 13n on), `wall[dead..N]` the dead wall: R replacement tiles (4 for kans, one per flower,
//! four more for the sanma Norths), then the dora indicator and its ura, then each kan indicator
//! and its ura.

use super::actions::{Action, Decider, Point};
use super::agari;
use super::rules::*;
use super::scoring::{self, Score, WinInput};
use super::shanten;
use super::tiles::{dora_successor, Counts, Kind, Meld, MeldKind, Tile, KINDS, YAOCHU};
use super::yaku::{Situation, Yaku};

/// Seats of the arrays; three-player games leave the last one unused (`State::n`).
pub const SEATS: usize = 4;
pub const NONE: u8 = u8::MAX;
/// First flower id.
pub const FLOWER: u8 = 136;
/// Tiles of the largest set: 136 plus 8 flowers.
pub const MAX_TILES: usize = 144;
/// The North kind (sanma nukidora).
const NORTH: Kind = 30;
/// The marked 白 of local yaku `shiro_pocchi` (the first 白).
pub const POCCHI: u8 = 124;

/// An exposed meld (ankan included). `tiles[..n]`; `called` is the tile taken from `from`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MeldRec {
    pub kind: MeldKind,
    pub tiles: [u8; 4],
    pub n: u8,
    pub called: u8,
    pub from: u8,
}

impl MeldRec {
    pub fn base(&self) -> Kind {
        self.tiles[..usize::from(self.n)].iter().map(|&t| t / 4).min().unwrap_or(0)
    }
}

#[derive(Debug, Clone)]
pub struct Player {
    /// Concealed tiles (ids), in no particular order.
    pub hand: Vec<u8>,
    pub counts: Counts,
    pub melds: Vec<MeldRec>,
    pub river: Vec<u8>,
    /// Bit per kind of every own discard (discard furiten).
    pub river_kinds: u64,
    /// Some discard of this player was called (no nagashi mangan).
    pub river_called: bool,
    /// Some discard was not a terminal or honor.
    pub river_simple: bool,
    pub riichi: bool,
    pub double_riichi: bool,
    pub ippatsu: bool,
    pub temp_furiten: bool,
    pub riichi_furiten: bool,
    /// Bit per kind that completes the 13-tile hand (kept current outside the own turn).
    pub waits: u64,
    pub discarded: bool,
    /// Kinds the next discard may not be (kuikae), bit per kind.
    pub kuikae: u64,
    /// Seat liable for a yakuman of this player (pao), per liable yakuman.
    pub pao_daisangen: u8,
    pub pao_daisuushii: u8,
    pub pao_suukantsu: u8,
    pub points: i64,
    /// The accepted riichi was a foul (furiten_riichi = chombo, kara_riichi_chombo), not yet shown.
    pub foul: bool,
    /// アガリ放棄 (chombo_payment = hand_forfeit): no call, kan or win for the rest of the hand.
    pub forfeit: bool,
    /// The riichi is open (local yaku `open_riichi`): the hand is shown.
    pub open_riichi: bool,
    /// Flowers in the hand (bit per flower id − 136): never part of `hand` or `counts`.
    pub flowers_held: u8,
    /// Tiles extracted (flowers and sanma Norths), in order.
    pub nuki: Vec<u8>,
}

impl Default for Player {
    /// Without allocations: `deal` builds each hand's players on this, keeping the vectors of the
    /// previous hand.
    fn default() -> Self {
        Player {
            hand: Vec::new(),
            counts: [0; KINDS],
            melds: Vec::new(),
            river: Vec::new(),
            river_kinds: 0,
            river_called: false,
            river_simple: false,
            riichi: false,
            double_riichi: false,
            ippatsu: false,
            temp_furiten: false,
            riichi_furiten: false,
            waits: 0,
            discarded: false,
            kuikae: 0,
            pao_daisangen: NONE,
            pao_daisuushii: NONE,
            pao_suukantsu: NONE,
            points: 0,
            foul: false,
            forfeit: false,
            open_riichi: false,
            flowers_held: 0,
            nuki: Vec::new(),
        }
    }
}

impl Player {
    pub fn closed(&self) -> bool {
        self.melds.iter().all(|m| m.kind == MeldKind::Ankan)
    }

    fn take(&mut self, id: u8) {
        if id >= FLOWER {
            self.flowers_held |= 1 << (id - FLOWER);
            return;
        }
        self.hand.push(id);
        self.counts[usize::from(id / 4)] += 1;
    }

    fn remove(&mut self, id: u8) -> bool {
        match self.hand.iter().position(|&t| t == id) {
            Some(i) => {
                self.hand.swap_remove(i);
                self.counts[usize::from(id / 4)] -= 1;
                true
            }
            None => false,
        }
    }

    fn furiten(&self) -> bool {
        self.temp_furiten || self.riichi_furiten || self.river_kinds & self.waits != 0
    }
}

/// Position in the wall of the `k`-th tile (0–12) dealt to the `i`-th seat from the dealer, with
/// `n` seats (§3.3): three passes of four tiles to each seat, then one each.
pub fn dealt_at(n: usize, i: usize, k: usize) -> usize {
    if k < 12 {
        (k / 4) * 4 * n + i * 4 + k % 4
    } else {
        12 * n + i
    }
}

/// Bit mask of the kinds that complete `c` (a 3n+1-tile concealed part; kinds held four times
/// cannot be drawn and are not waits).
pub fn wait_mask(c: &Counts) -> u64 {
    // Most hands are not ready: one shanten lookup settles them.
    if shanten::shanten(c) != 0 {
        return 0;
    }
    match super::accept::accepting(c) {
        (0, mask) => mask,
        _ => 0,
    }
}

/// How a hand ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Tsumo = 0,
    Ron = 1,
    Exhaustive = 2,
    Nagashi = 3,
    Kyuushu = 4,
    SuuchaRiichi = 5,
    SuufonRenda = 6,
    Suukaikan = 7,
    Sanchahou = 8,
    /// A foul shown (§12.4): the hand is void and replayed.
    Chombo = 9,
}

impl Outcome {
    pub const NAMES: [&'static str; 10] =
        ["tsumo", "ron", "exhaustive", "nagashi", "kyuushu", "suucha_riichi", "suufon_renda", "suukaikan", "sanchahou", "chombo"];

    pub fn abortive(self) -> bool {
        matches!(self as u8, 4..=8)
    }
}

/// One win of a hand.
#[derive(Debug, Clone)]
pub struct WinRec {
    pub seat: u8,
    /// The discarder; the winner for a tsumo.
    pub from: u8,
    pub score: Score,
    /// Seat that paid under pao (NONE if none).
    pub pao: u8,
}

/// What a hand did.
#[derive(Debug, Clone)]
pub struct HandResult {
    pub outcome: Outcome,
    pub wins: Vec<WinRec>,
    /// Point changes of the hand (deposits included: a riichi stick is −1000 to its player).
    pub deltas: [i64; SEATS],
    /// Tenpai at an exhaustive draw, bit per seat.
    pub tenpai: u8,
    pub riichi: u8,
    /// Seats with an open call.
    pub open: u8,
    pub nagashi: u8,
    /// Discards made in the hand when it ended.
    pub turn: u32,
    /// The wareme seat (NONE without wareme).
    pub wareme: u8,
    /// Seats whose foul was shown in the hand (chombo), bit per seat.
    pub chombo: u8,
    /// Tenpai seats that claimed noten at the exhaustive draw (allow_noten_declaration), bit per seat.
    pub noten_declared: u8,
    /// Tiles each seat extracted (flowers, sanma Norths).
    pub nuki: [u8; SEATS],
}

impl HandResult {
    /// A hand that ended with `outcome` and nothing else yet (play_hand fills in the rest).
    fn of(outcome: Outcome) -> Self {
        HandResult {
            outcome,
            wins: Vec::new(),
            deltas: [0; SEATS],
            tenpai: 0,
            riichi: 0,
            open: 0,
            nagashi: 0,
            turn: 0,
            wareme: NONE,
            chombo: 0,
            noten_declared: 0,
            nuki: [0; SEATS],
        }
    }
}

/// One logged event (rule `event_log_every`). `kind`: 0 draw, 1 replacement draw, 2 discard,
/// 3 riichi discard, 4 chi, 5 pon, 6 daiminkan, 7 ankan, 8 kakan, 9 tsumo, 10 ron (declared),
/// 11 dora indicator revealed, 12 kyuushu kyuuhai, 13 foul shown (chombo), 14 noten claimed at a draw,
/// 15 riichi opened, 16 nuki (flower or North extracted), 17 a tile dealt (each seat's starting
/// tiles, after the first dora indicator, at the start of the hand), 18 a tile of the hand put
/// into a meld (after its call event), 19 an ura dora indicator (turned over for a riichi win).
/// `tile`: the tile id (the called tile of a call, kind × 4 for an ankan), 255 for none.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Event {
    pub seat: u8,
    pub kind: u8,
    pub tile: u8,
}

/// The game between hands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// Hands of dealer rotation: dealer = round % n, round wind = (round / n) % 4 (n seats).
    pub round: u32,
    pub honba: u32,
    pub sticks: u32,
    /// Replays of this (round, honba) after a chombo (A42); 0 otherwise.
    pub repeat: u32,
}

pub struct State<'r> {
    pub rules: &'r Rules,
    /// Seats at the table (3 or 4); `p[n..]` is unused.
    pub n: usize,
    pub p: [Player; SEATS],
    /// The set's tiles in wall order (`rules.tile_count()` of them).
    pub wall: [u8; MAX_TILES],
    /// Start of the dead wall (122 in the default game).
    pub dead: usize,
    /// Replacement tiles at the front of the dead wall.
    pub replacements: usize,
    pub live_next: usize,
    /// Exclusive end of the live wall: `dead` − replacement draws.
    pub live_end: usize,
    pub rinshan_drawn: usize,
    pub kans: u8,
    /// Seat of each kan, in order.
    pub kan_seats: [u8; 4],
    pub dora_shown: usize,
    pub pending_dora: u8,
    pub progress: Progress,
    pub dealer: u8,
    /// No call (ankan included) yet in this hand.
    pub uninterrupted: bool,
    pub discards: u32,
    /// Visible kinds: rivers, exposed meld tiles, dora indicators; with three players the absent
    /// 2m–8m count as all seen (no copy is left to draw).
    pub seen: Counts,
    /// Dora indicators shown that point at each kind (flower indicators at none).
    pub dora_count: Counts,
    /// Discard kinds that passed since each seat's riichi (genbutsu for folding), bit per kind.
    pub safe_after_riichi: [u64; SEATS],
    first_winds: u8,
    /// The wareme seat of this hand (NONE without wareme).
    pub wareme: u8,
    /// Events of the hand, when logging (`None` otherwise).
    pub events: Option<Vec<Event>>,
    /// The discarder of a daiminkan whose replacement tile the caller is playing (NONE otherwise).
    daiminkan_from: u8,
    suukaikan_pending: bool,
    riichi_declared: u8,
    /// Seats whose foul has been shown in this hand.
    chombo: u8,
    /// The kind the marked 白 stands for in the tsumo now offered to the player who drew it.
    pocchi_as: Option<Kind>,
    legal: Vec<Action>,
}

fn bit(k: Kind) -> u64 {
    1 << k
}

/// A tile offered to ron outside a discard.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Robbed {
    /// An added kan (chankan).
    Kakan,
    /// An ankan (kokushi only).
    Ankan,
    /// An extracted sanma North (`sanma_north_ron`; no chankan yaku).
    Nuki,
}

/// Plays a hand's decisions.
enum Next {
    Draw { seat: usize, rinshan: bool },
    AfterCall { seat: usize },
}

impl<'r> State<'r> {
    pub fn new(rules: &'r Rules) -> Self {
        let dead = rules.tile_count() - 10 - rules.replacement_tiles();
        State {
            rules,
            n: rules.seats(),
            p: Default::default(),
            wall: [0; MAX_TILES],
            dead,
            replacements: rules.replacement_tiles(),
            live_next: 13 * rules.seats(),
            live_end: dead,
            rinshan_drawn: 0,
            kans: 0,
            kan_seats: [NONE; 4],
            dora_shown: 1,
            pending_dora: 0,
            progress: Progress { round: 0, honba: 0, sticks: 0, repeat: 0 },
            dealer: 0,
            uninterrupted: true,
            discards: 0,
            seen: [0; KINDS],
            dora_count: [0; KINDS],
            safe_after_riichi: [0; SEATS],
            first_winds: 0,
            daiminkan_from: NONE,
            wareme: NONE,
            events: None,
            suukaikan_pending: false,
            riichi_declared: 0,
            chombo: 0,
            pocchi_as: None,
            legal: Vec::with_capacity(40),
        }
    }

    pub fn is_red(&self, id: u8) -> bool {
        match self.rules.aka_dora {
            0 => false,
            3 => matches!(id, 16 | 52 | 88),
            _ => matches!(id, 16 | 52 | 53 | 88),
        }
    }

    pub fn tile(&self, id: u8) -> Tile {
        Tile { kind: id / 4, red: self.is_red(id) }
    }

    pub fn round_wind(&self) -> Kind {
        27 + ((self.progress.round / self.n as u32) % 4) as u8
    }

    pub fn seat_wind(&self, seat: usize) -> Kind {
        27 + ((seat + self.n - usize::from(self.dealer)) % self.n) as u8
    }

    /// The seat `i` (< n) places after `seat` in turn order (no division on the hot path).
    #[inline]
    fn after(&self, seat: usize, i: usize) -> usize {
        let s = seat + i;
        if s >= self.n {
            s - self.n
        } else {
            s
        }
    }

    /// Position in the wall of the `i`-th dora indicator (its ura is the next one).
    pub fn indicator_at(&self, i: usize) -> usize {
        self.dead + self.replacements + 2 * i
    }

    /// Position in the wall of the `i`-th replacement tile: the front of the dead wall, then (with
    /// a replenished dead wall) the tiles each replacement draw took in from the end of the live
    /// wall, in the order taken.
    pub fn rinshan_at(&self, i: usize) -> usize {
        if i < self.replacements {
            self.dead + i
        } else {
            self.dead - 1 - (i - self.replacements)
        }
    }

    pub fn live_remaining(&self) -> usize {
        self.live_end.saturating_sub(self.live_next)
    }

    /// Starts a game: everyone at the starting points, East 1.
    pub fn start_game(&mut self) {
        self.progress = Progress { round: 0, honba: 0, sticks: 0, repeat: 0 };
        let n = self.n;
        for p in &mut self.p[..n] {
            p.points = i64::from(self.rules.starting_points);
        }
    }

    /// Deals a hand from `wall` (the set's ids in wall order; `rules.tile_count()` of them) at
    /// `progress`.
    pub fn deal(&mut self, wall: &[u8], progress: Progress) {
        self.wall[..wall.len()].copy_from_slice(wall);
        self.progress = progress;
        self.dealer = (progress.round % self.n as u32) as u8;
        for p in &mut self.p {
            let points = p.points;
            let mut hand = std::mem::take(&mut p.hand);
            let mut melds = std::mem::take(&mut p.melds);
            let mut river = std::mem::take(&mut p.river);
            let mut nuki = std::mem::take(&mut p.nuki);
            hand.clear();
            melds.clear();
            river.clear();
            nuki.clear();
            *p = Player { hand, melds, river, nuki, points, ..Default::default() };
        }
        let d = usize::from(self.dealer);
        let n = self.n;
        // In the order of the deal (hands keep their tiles in the order taken).
        for first in [0, 4, 8, 12] {
            for i in 0..n {
                for k in first..(first + 4).min(13) {
                    self.p[(d + i) % n].take(wall[dealt_at(n, i, k)]);
                }
            }
        }
        for p in &mut self.p[..n] {
            p.waits = wait_mask(&p.counts);
        }
        self.live_next = 13 * n;
        self.live_end = self.dead;
        self.rinshan_drawn = 0;
        self.kans = 0;
        self.kan_seats = [NONE; 4];
        self.dora_shown = 1;
        self.pending_dora = 0;
        self.uninterrupted = true;
        self.discards = 0;
        self.seen = [0; KINDS];
        if n == 3 {
            self.seen[1..8].fill(4);
        }
        self.dora_count = [0; KINDS];
        self.show_indicator(wall[self.indicator_at(0)]);
        self.safe_after_riichi = [0; SEATS];
        self.first_winds = 0;
        self.daiminkan_from = NONE;
        self.wareme = NONE;
        let first_indicator = wall[self.indicator_at(0)];
        if let Some(ev) = &mut self.events {
            ev.clear();
            // The hand's start, so that a log alone rebuilds every hand (`simharness show`, export).
            ev.push(Event { seat: NONE, kind: 11, tile: first_indicator });
            for (s, p) in self.p[..n].iter().enumerate() {
                let flowers = (0..8).filter(|f| p.flowers_held >> f & 1 != 0).map(|f| FLOWER + f);
                ev.extend(p.hand.iter().copied().chain(flowers).map(|tile| Event { seat: s as u8, kind: 17, tile }));
            }
        }
        self.suukaikan_pending = false;
        self.riichi_declared = 0;
        self.chombo = 0;
    }

    /// The dealer's dice (sum 2–12) of the dealt hand: under `wareme`, they break the wall of seat
    /// dealer + sum − 1 (counting the dealer as 1).
    pub fn roll(&mut self, sum: u8) {
        if self.rules.wareme {
            self.wareme = ((usize::from(self.dealer) + usize::from(sum) + self.n - 1) % self.n) as u8;
        }
    }

    /// A tile became visible (flowers are not tracked).
    fn see(&mut self, id: u8) {
        if id < FLOWER {
            self.seen[usize::from(id / 4)] += 1;
        }
    }

    /// A dora indicator was turned face up.
    fn show_indicator(&mut self, id: u8) {
        self.see(id);
        if id < FLOWER {
            self.dora_count[usize::from(dora_successor(id / 4, self.rules.players))] += 1;
        }
    }

    /// Ids of the dora indicators shown, and of the ura indicators under them (flowers included).
    pub fn indicator_ids(&self) -> (Vec<u8>, Vec<u8>) {
        let dora = (0..self.dora_shown).map(|i| self.wall[self.indicator_at(i)]).collect();
        let ura_n = if self.rules.kan_ura { self.dora_shown } else { 1 };
        let ura = (0..ura_n).map(|i| self.wall[self.indicator_at(i) + 1]).collect();
        (dora, ura)
    }

    /// Dora indicators shown, and the ura indicators under them, as the hand evaluator takes them:
    /// a flower indicator points at no tile kind (its bonus is in [`State::nukidora`]).
    pub fn indicators(&self) -> (Vec<Tile>, Vec<Tile>) {
        let tiles = |n: usize, offset: usize| {
            (0..n).map(|i| self.wall[self.indicator_at(i) + offset]).filter(|&id| id < FLOWER).map(|id| self.tile(id)).collect()
        };
        let ura_n = if self.rules.kan_ura { self.dora_shown } else { 1 };
        (tiles(self.dora_shown, 0), tiles(ura_n, 1))
    }

    /// Kind of the `i`-th dora indicator (0 = the first); a flower is a kind beyond 33.
    pub fn dora_indicator(&self, i: usize) -> Kind {
        self.wall[self.indicator_at(i)] / 4
    }

    /// Nukidora han of `seat` (§1.4, §14): one per extracted tile; each flower indicator (ura too
    /// for a riichi winner) adds one per other extracted flower, and each indicator pointing at
    /// North one per extracted North (the North counts as a tile of its kind).
    pub fn nukidora(&self, seat: usize) -> u8 {
        let p = &self.p[seat];
        if p.nuki.is_empty() {
            return 0;
        }
        let (dora, ura) = self.indicator_ids();
        let ura_counts = p.riichi && self.rules.ura_dora;
        let norths = p.nuki.iter().filter(|&&t| t < FLOWER).count();
        let mut han = p.nuki.len();
        for &ind in dora.iter().chain(if ura_counts { ura.iter() } else { [].iter() }) {
            if ind >= FLOWER {
                han += p.nuki.iter().filter(|&&t| t >= FLOWER && t != ind).count();
            } else if dora_successor(ind / 4, self.rules.players) == NORTH {
                han += norths;
            }
        }
        han.min(usize::from(u8::MAX)) as u8
    }

    fn reveal_dora(&mut self) {
        if self.rules.kan_dora && self.dora_shown < 5 {
            self.dora_shown += 1;
            let id = self.wall[self.indicator_at(self.dora_shown - 1)];
            self.show_indicator(id);
            self.log(NONE, 11, id);
        }
    }

    #[inline]
    fn log(&mut self, seat: u8, kind: u8, tile: u8) {
        if let Some(ev) = &mut self.events {
            ev.push(Event { seat, kind, tile });
        }
    }

    fn reveal_pending(&mut self) {
        while self.pending_dora > 0 {
            self.pending_dora -= 1;
            self.reveal_dora();
        }
    }

    fn melds_for_score(&self, seat: usize) -> Vec<Meld> {
        self.p[seat]
            .melds
            .iter()
            .map(|m| {
                let mut tiles: Vec<Tile> = Vec::with_capacity(4);
                if m.called != NONE {
                    tiles.push(self.tile(m.called));
                }
                let mut skipped = false;
                for &t in &m.tiles[..usize::from(m.n)] {
                    if t == m.called && !skipped {
                        skipped = true;
                        continue;
                    }
                    tiles.push(self.tile(t));
                }
                // Relative seat: 1 下家, 2 対面, 3 上家 (with three players the left seat is 上家).
                let rel = (usize::from(m.from) + self.n - seat) % self.n;
                let from = if m.kind == MeldKind::Ankan {
                    0
                } else if rel == self.n - 1 {
                    3
                } else {
                    rel as u8
                };
                Meld { kind: m.kind, tiles, from }
            })
            .collect()
    }

    /// Scores `seat` winning on `win` (for a tsumo the tile is already in the hand).
    pub fn score_win(&self, seat: usize, win: u8, tsumo: bool, rinshan: bool, chankan: bool) -> Result<Score, String> {
        self.score_at(seat, win, tsumo, rinshan, chankan, self.live_next >= self.live_end)
    }

    /// [`State::score_win`] with the last-tile situation (haitei/houtei) given.
    fn score_at(&self, seat: usize, win: u8, tsumo: bool, rinshan: bool, chankan: bool, last: bool) -> Result<Score, String> {
        let p = &self.p[seat];
        // A tsumo on the marked 白 as a wild tile: it is the kind it stands for.
        let pocchi = self.pocchi_as.filter(|_| tsumo && win == POCCHI);
        let as_tile = |t: u8| match pocchi {
            Some(k) if t == POCCHI => Tile { kind: k, red: false },
            _ => self.tile(t),
        };
        let mut hand: Vec<Tile> = p.hand.iter().map(|&t| as_tile(t)).collect();
        if !tsumo {
            hand.push(self.tile(win));
        }
        let first = self.uninterrupted && !p.discarded;
        let dealer = seat == usize::from(self.dealer);
        let situation = Situation {
            tsumo,
            riichi: p.riichi && !p.double_riichi,
            double_riichi: p.double_riichi,
            ippatsu: p.riichi && p.ippatsu,
            haitei: tsumo && last && !rinshan,
            houtei: !tsumo && last && !chankan,
            rinshan,
            chankan,
            tenhou: tsumo && first && dealer,
            chiihou: tsumo && first && !dealer,
            renhou: !tsumo && first && !dealer && self.rules.renhou != Renhou::Off,
            open_riichi: p.open_riichi,
            pocchi: pocchi.is_some(),
            round_wind: self.round_wind(),
            seat_wind: self.seat_wind(seat),
        };
        let (dora, ura) = self.indicators();
        let input = WinInput {
            hand,
            win: Some(as_tile(win)),
            melds: self.melds_for_score(seat),
            situation,
            dora,
            ura,
            honba: self.progress.honba,
            deposits: self.progress.sticks,
            nukidora: self.nukidora(seat),
            flower_yaku: self.flower_yaku(seat),
        };
        scoring::score(&input, self.rules).map_err(|e| e.to_string())
    }

    /// Han of the all-flowers yaku for `seat` (rule `flower_all_yaku_han`; 0 if not earned).
    fn flower_yaku(&self, seat: usize) -> u8 {
        let f = usize::from(self.rules.flowers);
        if f == 0 || self.rules.flower_all_yaku_han == 0 {
            return 0;
        }
        let own = self.p[seat].nuki.iter().filter(|&&t| t >= FLOWER).count();
        if own == f {
            self.rules.flower_all_yaku_han
        } else {
            0
        }
    }

    /// Whether `seat` may ron `tile`: the wait and furiten test inline (it settles nearly every
    /// response), the rest out of line.
    #[inline(always)]
    fn can_ron(&self, seat: usize, tile: u8, chankan: bool, ankan: bool) -> bool {
        let p = &self.p[seat];
        if p.waits & bit(tile / 4) == 0 || p.furiten() || p.forfeit {
            return false;
        }
        self.can_ron_waiting(seat, tile, chankan, ankan)
    }

    #[inline(never)]
    fn can_ron_waiting(&self, seat: usize, tile: u8, chankan: bool, ankan: bool) -> bool {
        let p = &self.p[seat];
        if ankan {
            let mut c = p.counts;
            c[usize::from(tile / 4)] += 1;
            if !(self.rules.kokushi_rob_ankan && p.melds.is_empty() && agari::is_kokushi(&c)) {
                return false;
            }
        }
        self.score_win(seat, tile, false, false, chankan).is_ok()
    }

    /// Pushes one discard per distinct (kind, red) of the hand, minus `forbidden` kinds.
    fn push_discards(&mut self, seat: usize, forbidden: u64, riichi_ok: bool) {
        let after = if riichi_ok { super::accept::after_discards(&self.p[seat].counts) } else { [i8::MAX; KINDS] };
        let mut done = 0u64;
        let mut red_done = 0u64;
        let n = self.p[seat].hand.len();
        for i in 0..n {
            let id = self.p[seat].hand[i];
            let k = id / 4;
            if forbidden & bit(k) != 0 {
                continue;
            }
            let red = self.is_red(id);
            let seen = if red { &mut red_done } else { &mut done };
            if *seen & bit(k) != 0 {
                continue;
            }
            *seen |= bit(k);
            self.legal.push(Action::Discard { tile: id, riichi: false });
            if after[usize::from(k)] == 0 && self.riichi_wait_after(seat, usize::from(k)) {
                self.legal.push(Action::Discard { tile: id, riichi: true });
            }
        }
    }

    /// Whether the ready hand left by discarding a `kind` keeps a wait that counts as tenpai at an
    /// exhaustive draw (§8.3: a riichi hand is tenpai at the draw; §8.5: no noten riichi). The wait
    /// is the one [`State::tenpai_at_draw`] judges: under `karaten = own_four_is_noten` (and
    /// `any_dead_wait_is_noten`) a kind whose four tiles the player holds, closed kans included,
    /// is no wait. Kinds seen elsewhere make an empty-wait riichi, governed by kara_riichi_chombo.
    fn riichi_wait_after(&self, seat: usize, kind: usize) -> bool {
        let p = &self.p[seat];
        if p.melds.is_empty() || self.rules.karaten == Karaten::AlwaysTenpai {
            // A kind held four times in the hand alone is no wait already (wait_mask).
            return true;
        }
        let mut c = p.counts;
        c[kind] -= 1;
        let waits = wait_mask(&c);
        (0..KINDS).any(|k| waits & bit(k as u8) != 0 && c[k] + self.exposed_own(seat, k) < 4)
    }

    fn kan_allowed(&self) -> bool {
        self.kans < 4 && self.live_remaining() >= 1 && !self.suukaikan_pending
    }

    /// The extraction offered after a draw: a held flower (even after the haitei draw: a flower
    /// can be neither kept in play nor discarded), else a North under sanma nukidora while live
    /// tiles remain — under riichi only the North just drawn.
    fn nuki_action(&self, seat: usize, drawn: u8) -> Option<Action> {
        let p = &self.p[seat];
        if p.flowers_held != 0 {
            return Some(Action::Nuki { tile: FLOWER + p.flowers_held.trailing_zeros() as u8 });
        }
        if self.live_remaining() == 0 || !self.rules.north_nuki() || p.counts[usize::from(NORTH)] == 0 {
            return None;
        }
        if p.riichi {
            return (drawn / 4 == NORTH).then_some(Action::Nuki { tile: drawn });
        }
        p.hand.iter().find(|&&t| t / 4 == NORTH).map(|&tile| Action::Nuki { tile })
    }

    /// Legal actions of `seat`'s own turn; `drawn` is the tile just drawn (none after a call).
    fn turn_actions(&mut self, seat: usize, drawn: Option<u8>, rinshan: bool) {
        self.legal.clear();
        let Some(drawn) = drawn else {
            let forbidden = self.p[seat].kuikae;
            self.push_discards(seat, forbidden, false);
            return;
        };
        let p = &self.p[seat];
        if p.forfeit {
            // A flower cannot be discarded: it is extracted even by a player out of the hand.
            let a = if drawn >= FLOWER { self.nuki_action(seat, drawn) } else { None };
            self.legal.push(a.unwrap_or(Action::Discard { tile: drawn, riichi: false }));
            return;
        }
        // On a wall draw the waits kept since the last discard are those of the hand before the
        // draw; after a kan they are stale.
        let complete = if rinshan { shanten::shanten(&p.counts) == -1 } else { p.waits & bit(drawn / 4) != 0 };
        self.pocchi_as = None;
        if complete && self.score_win(seat, drawn, true, rinshan, false).is_ok() {
            self.legal.push(Action::Tsumo);
        } else if drawn == POCCHI && p.riichi && self.rules.local_yaku.contains(LocalYaku::ShiroPocchi) {
            self.offer_pocchi(seat, rinshan);
        }
        if self.rules.nuki() {
            if let Some(a) = self.nuki_action(seat, drawn) {
                self.legal.push(a);
            }
        }
        let p = &self.p[seat];
        if self.rules.abort_kyuushu && self.uninterrupted && !p.discarded {
            let kinds = YAOCHU.iter().filter(|&&k| p.counts[usize::from(k)] > 0).count();
            if kinds >= 9 {
                self.legal.push(Action::Kyuushu);
            }
        }
        if self.kan_allowed() {
            if p.riichi {
                let k = drawn / 4;
                if drawn < FLOWER && p.counts[usize::from(k)] == 4 && self.riichi_ankan_ok(seat, k) {
                    self.legal.push(Action::Ankan { kind: k });
                }
            } else {
                for k in 0..KINDS as u8 {
                    if p.counts[usize::from(k)] == 4 {
                        self.legal.push(Action::Ankan { kind: k });
                    }
                }
                for m in &p.melds {
                    if m.kind != MeldKind::Pon {
                        continue;
                    }
                    let k = m.base();
                    if let Some(&t) = p.hand.iter().find(|&&t| t / 4 == k) {
                        let t = if drawn / 4 == k { drawn } else { t };
                        if self.rules.kakan_from_hand || t == drawn {
                            self.legal.push(Action::Kakan { tile: t });
                        }
                    }
                }
            }
        }
        if p.riichi {
            // A drawn flower is extracted (offered above), never discarded.
            if drawn < FLOWER {
                self.legal.push(Action::Discard { tile: drawn, riichi: false });
            }
            return;
        }
        let riichi_ok = p.closed()
            && p.points >= i64::from(self.rules.riichi_min_points)
            && p.points >= i64::from(self.rules.riichi_deposit)
            && self.live_remaining() >= usize::from(self.rules.riichi_min_tiles);
        // No shanten test here: a riichi discard needs a ready hand after it, which no hand above
        // shanten 0 has, and the policy asks for the same after_discards next.
        self.push_discards(seat, 0, riichi_ok);
    }

    /// Offers a tsumo with the marked 白 as the wait that pays the most (高点法), if any wins.
    fn offer_pocchi(&mut self, seat: usize, rinshan: bool) {
        let mut best: Option<(u32, Kind)> = None;
        for k in 0..KINDS as Kind {
            if self.p[seat].waits & bit(k) == 0 {
                continue;
            }
            self.pocchi_as = Some(k);
            if let Ok(score) = self.score_win(seat, POCCHI, true, rinshan, false) {
                if best.is_none_or(|(points, _)| score.points > points) {
                    best = Some((score.points, k));
                }
            }
        }
        self.pocchi_as = best.map(|(_, k)| k);
        if best.is_some() {
            self.legal.push(Action::Tsumo);
        }
    }

    fn riichi_ankan_ok(&self, seat: usize, k: Kind) -> bool {
        let p = &self.p[seat];
        match self.rules.riichi_ankan {
            RiichiAnkan::Forbidden => false,
            rule => {
                let mut c = p.counts;
                c[usize::from(k)] = 0;
                if wait_mask(&c) != p.waits {
                    return false;
                }
                if rule == RiichiAnkan::Strict {
                    // Every reading of every winning hand must hold the kind as a triplet.
                    let mut before = p.counts;
                    before[usize::from(k)] -= 1;
                    let melds = 4 - p.melds.len();
                    let mut decs = Vec::new();
                    for w in 0..KINDS {
                        if p.waits & bit(w as u8) == 0 {
                            continue;
                        }
                        let mut h = before;
                        h[w] += 1;
                        agari::decompositions(&h, melds, &mut decs);
                        let triplet =
                            |d: &agari::Decomposition| d.sets[..d.n].iter().any(|s| s.kind == agari::SetKind::Triplet && s.base == k);
                        if decs.is_empty() || !decs.iter().all(triplet) {
                            return false;
                        }
                    }
                }
                true
            }
        }
    }

    /// Kinds forbidden after calling `tile` with `own` (kuikae, §6.4).
    fn kuikae_mask(&self, tile: u8, own: [u8; 2], chi: bool) -> u64 {
        let k = tile / 4;
        match self.rules.kuikae {
            Kuikae::Allowed => 0,
            Kuikae::SameTileOnly => bit(k),
            Kuikae::Forbidden => {
                let mut m = bit(k);
                if chi {
                    let (a, b) = (own[0] / 4, own[1] / 4);
                    let (lo, hi) = (a.min(b), a.max(b));
                    if lo == k + 1 && hi == k + 2 && k % 9 <= 5 {
                        m |= bit(k + 3);
                    }
                    if hi + 1 == k && lo + 2 == k && k % 9 >= 3 {
                        m |= bit(k - 3);
                    }
                }
                m
            }
        }
    }

    /// Whether the caller keeps a legal discard after calling with `own`.
    fn call_keeps_discard(&self, seat: usize, own: &[u8], forbidden: u64) -> bool {
        let p = &self.p[seat];
        let mut c = p.counts;
        for &t in own {
            c[usize::from(t / 4)] -= 1;
        }
        (0..KINDS).any(|k| c[k] > 0 && forbidden & bit(k as u8) == 0)
    }

    /// Legal responses of `seat` to `tile` discarded by `from` (or added, ankan'd or extracted
    /// when `kan`).
    fn response_actions(&mut self, seat: usize, from: usize, tile: u8, kan: Option<Robbed>) {
        self.legal.clear();
        self.legal.push(Action::Pass);
        let chankan = kan == Some(Robbed::Kakan);
        if self.can_ron(seat, tile, chankan, kan == Some(Robbed::Ankan)) {
            self.legal.push(Action::Ron);
        }
        if kan.is_some() || self.p[seat].riichi || self.p[seat].forfeit || self.live_remaining() == 0 {
            return;
        }
        let k = tile / 4;
        let ku = usize::from(k);
        let mut options: Vec<Action> = Vec::new();
        let p = &self.p[seat];
        // One option per distinct red/plain combination of the hand tiles used.
        let variants = |kind: u8| -> Vec<u8> {
            let mut v: Vec<u8> = Vec::new();
            for &t in &p.hand {
                if t / 4 == kind && !v.iter().any(|&u| self.is_red(u) == self.is_red(t)) {
                    v.push(t);
                }
            }
            v
        };
        if p.counts[ku] >= 2 {
            let ids: Vec<u8> = p.hand.iter().copied().filter(|&t| t / 4 == k).collect();
            let forbidden = self.kuikae_mask(tile, [tile, tile], false);
            let mut pairs: Vec<[u8; 2]> = Vec::new();
            for i in 0..ids.len() {
                for j in i + 1..ids.len() {
                    let pair = [ids[i], ids[j]];
                    let reds = |q: &[u8; 2]| q.iter().filter(|&&t| self.is_red(t)).count();
                    if !pairs.iter().any(|o| reds(o) == reds(&pair)) {
                        pairs.push(pair);
                    }
                }
            }
            for pair in pairs {
                if self.call_keeps_discard(seat, &pair, forbidden) {
                    options.push(Action::Pon { tiles: pair });
                }
            }
            if p.counts[ku] == 3 && self.kan_allowed() {
                options.push(Action::Daiminkan);
            }
        }
        if self.n == 4 && seat == (from + 1) % SEATS && k < 27 {
            let r = i16::from(k % 9);
            for (a, b) in [(-2i16, -1i16), (-1, 1), (1, 2)] {
                if r + a < 0 || r + b > 8 {
                    continue;
                }
                let (ka, kb) = ((i16::from(k) + a) as u8, (i16::from(k) + b) as u8);
                if p.counts[usize::from(ka)] == 0 || p.counts[usize::from(kb)] == 0 {
                    continue;
                }
                for &ta in &variants(ka) {
                    for &tb in &variants(kb) {
                        let own = [ta, tb];
                        let forbidden = self.kuikae_mask(tile, own, true);
                        if self.call_keeps_discard(seat, &own, forbidden) {
                            options.push(Action::Chi { tiles: own });
                        }
                    }
                }
            }
        }
        self.legal.extend(options);
    }

    fn ask(&mut self, d: &mut dyn Decider, seat: usize, point: Point) -> Result<Action, String> {
        let legal = std::mem::take(&mut self.legal);
        let chosen = d.decide(self, seat, point, &legal);
        self.legal = legal;
        let chosen = chosen?;
        let norm = |a: Action| -> Action {
            let n = |t: u8| if self.is_red(t) { 200 + t / 4 } else { t / 4 };
            match a {
                Action::Discard { tile, riichi } => Action::Discard { tile: n(tile), riichi },
                Action::Kakan { tile } => Action::Kakan { tile: n(tile) },
                // Norths are equal; each flower is unique.
                Action::Nuki { tile } if tile < FLOWER => Action::Nuki { tile: n(tile) },
                Action::Pon { tiles } | Action::Chi { tiles } => {
                    let mut t = [n(tiles[0]), n(tiles[1])];
                    t.sort_unstable();
                    if matches!(a, Action::Pon { .. }) {
                        Action::Pon { tiles: t }
                    } else {
                        Action::Chi { tiles: t }
                    }
                }
                other => other,
            }
        };
        // An action taken from the legal list (as every native policy does) names held tiles; any
        // other must match one up to equivalent tile ids.
        if !self.legal.contains(&chosen) {
            let c = norm(chosen);
            if !self.legal.iter().any(|&l| norm(l) == c) {
                return Err(format!("seat {seat}: {chosen:?} is not legal at {point:?}; legal: {:?}", self.legal));
            }
            // The tiles the decider named must be held (ids, not just kinds).
            let held = |t: u8| self.p[seat].hand.contains(&t);
            let ok = match chosen {
                Action::Discard { tile, .. } | Action::Kakan { tile } | Action::Nuki { tile } => held(tile),
                Action::Pon { tiles } | Action::Chi { tiles } => held(tiles[0]) && held(tiles[1]) && tiles[0] != tiles[1],
                _ => true,
            };
            if !ok {
                return Err(format!("seat {seat}: {chosen:?} names a tile that is not in the hand"));
            }
        }
        // A response (call or ron) is logged only once priority has made it take effect
        // (`log_call`, `resolve_rons`): a chi beaten by a pon or a ron never happened.
        if let Point::Turn { .. } = point {
            self.log_action(seat, chosen, NONE);
        }
        Ok(chosen)
    }

    /// Logs `action` of `seat`; `called` is the tile a call or ron takes.
    fn log_action(&mut self, seat: usize, action: Action, called: u8) {
        if self.events.is_none() {
            return;
        }
        let (kind, tile) = match action {
            Action::Discard { tile, riichi } => (2 + u8::from(riichi), tile),
            Action::Chi { .. } => (4, called),
            Action::Pon { .. } => (5, called),
            Action::Daiminkan => (6, called),
            Action::Ankan { kind } => (7, kind * 4),
            Action::Kakan { tile } => (8, tile),
            Action::Tsumo => (9, NONE),
            Action::Ron => (10, called),
            Action::Kyuushu => (12, NONE),
            Action::Nuki { tile } => (16, tile),
            Action::Pass => return,
        };
        self.log(seat as u8, kind, tile);
    }

    fn clear_ippatsu(&mut self) {
        for p in &mut self.p {
            p.ippatsu = false;
        }
    }

    fn declare_kan(&mut self, seat: usize) {
        self.reveal_pending();
        // Only the replacement tile of the daiminkan itself falls under pao_daiminkan_rinshan.
        self.daiminkan_from = NONE;
        self.kan_seats[usize::from(self.kans)] = seat as u8;
        self.kans += 1;
        self.live_end -= 1;
        self.uninterrupted = false;
        self.clear_ippatsu();
        if self.kans == 4 && self.rules.abort_suukaikan && self.kan_seats.iter().any(|&s| s != self.kan_seats[0]) {
            self.suukaikan_pending = true;
        }
    }

    fn draw_rinshan(&mut self, seat: usize) -> u8 {
        let id = self.wall[self.rinshan_at(self.rinshan_drawn)];
        self.rinshan_drawn += 1;
        self.p[seat].take(id);
        self.log(seat as u8, 1, id);
        id
    }

    /// Plays one hand to its end with `d` choosing every action, and settles it.
    pub fn play_hand(&mut self, d: &mut dyn Decider) -> Result<HandResult, String> {
        let start: [i64; SEATS] = std::array::from_fn(|i| self.p[i].points);
        let mut result = self.run_hand(d)?;
        result.riichi = (0..self.n).filter(|&i| self.p[i].riichi).fold(0, |m, i| m | 1 << i);
        result.open = (0..self.n).filter(|&i| !self.p[i].closed()).fold(0, |m, i| m | 1 << i);
        result.turn = self.discards;
        result.wareme = self.wareme;
        result.chombo = self.chombo;
        result.nuki = std::array::from_fn(|i| self.p[i].nuki.len() as u8);
        result.deltas = std::array::from_fn(|i| self.p[i].points - start[i]);
        Ok(result)
    }

    fn run_hand(&mut self, d: &mut dyn Decider) -> Result<HandResult, String> {
        let mut next = Next::Draw { seat: usize::from(self.dealer), rinshan: false };
        loop {
            let (seat, drawn, mut rinshan) = match next {
                Next::Draw { seat, rinshan: false } => {
                    if self.live_next >= self.live_end {
                        return Ok(self.exhaustive_draw(d));
                    }
                    let id = self.wall[self.live_next];
                    self.live_next += 1;
                    self.p[seat].take(id);
                    self.log(seat as u8, 0, id);
                    (seat, Some(id), false)
                }
                Next::Draw { seat, rinshan: true } => (seat, Some(self.draw_rinshan(seat)), true),
                Next::AfterCall { seat } => (seat, None, false),
            };
            let mut drawn = drawn;
            // The own turn: tsumo, kans (each followed by a replacement draw), or a discard.
            let (tile, riichi) = loop {
                self.turn_actions(seat, drawn, rinshan);
                let action = self.ask(d, seat, Point::Turn { after_call: drawn.is_none() })?;
                match action {
                    Action::Tsumo => {
                        // Showing the hand shows a foul riichi: a chombo instead of the win.
                        if self.p[seat].foul {
                            match self.chombo(1 << seat) {
                                Some(r) => return Ok(r),
                                None => continue,
                            }
                        }
                        let win = drawn.unwrap_or(NONE);
                        return self.settle_wins(&[seat], seat, win, true, rinshan, false);
                    }
                    Action::Kyuushu => return Ok(self.abort(Outcome::Kyuushu)),
                    Action::Ankan { kind } => {
                        let ids: Vec<u8> = self.p[seat].hand.iter().copied().filter(|&t| t / 4 == kind).collect();
                        if self.rules.kokushi_rob_ankan {
                            if let Some(r) = self.kan_window(d, seat, ids[0], Robbed::Ankan)? {
                                return Ok(r);
                            }
                        }
                        let mut tiles = [0u8; 4];
                        for (i, &t) in ids.iter().enumerate() {
                            self.p[seat].remove(t);
                            self.log(seat as u8, 18, t);
                            tiles[i] = t;
                        }
                        self.p[seat].melds.push(MeldRec { kind: MeldKind::Ankan, tiles, n: 4, called: NONE, from: seat as u8 });
                        self.seen[usize::from(kind)] += 4;
                        self.declare_kan(seat);
                        self.reveal_dora();
                    }
                    Action::Kakan { tile } => {
                        if let Some(r) = self.kan_window(d, seat, tile, Robbed::Kakan)? {
                            return Ok(r);
                        }
                        self.p[seat].remove(tile);
                        let k = tile / 4;
                        let m =
                            self.p[seat].melds.iter_mut().find(|m| m.kind == MeldKind::Pon && m.base() == k).expect("kakan needs its pon");
                        m.kind = MeldKind::Kakan;
                        m.tiles[3] = tile;
                        m.n = 4;
                        self.seen[usize::from(k)] += 1;
                        self.declare_kan(seat);
                        self.open_kan_dora();
                    }
                    Action::Nuki { tile } => {
                        if tile < FLOWER && self.rules.sanma_north_ron {
                            if let Some(r) = self.kan_window(d, seat, tile, Robbed::Nuki)? {
                                return Ok(r);
                            }
                        }
                        self.extract(seat, tile);
                    }
                    Action::Discard { tile, riichi } => break (tile, riichi),
                    other => return Err(format!("{other:?} is not a turn action")),
                }
                drawn = Some(self.draw_rinshan(seat));
                rinshan = true;
            };
            if let Some(r) = self.discard(d, seat, tile, riichi, &mut next)? {
                return Ok(r);
            }
        }
    }

    /// Sets a flower or North aside (§1.4, §14 B): like a kan it takes a replacement tile and
    /// shortens the live wall, and it breaks the first go-around, but not ippatsu.
    fn extract(&mut self, seat: usize, tile: u8) {
        let p = &mut self.p[seat];
        if tile >= FLOWER {
            p.flowers_held &= !(1 << (tile - FLOWER));
        } else {
            p.remove(tile);
        }
        p.nuki.push(tile);
        self.see(tile);
        self.daiminkan_from = NONE;
        if self.live_end > self.live_next {
            self.live_end -= 1;
        }
        self.uninterrupted = false;
    }

    fn open_kan_dora(&mut self) {
        match self.rules.kan_dora_timing {
            KanDoraTiming::Classic => self.pending_dora += 1,
            KanDoraTiming::Immediate => self.reveal_dora(),
        }
    }

    /// The ron window on a kan tile (chankan, or kokushi on an ankan). Returns the settled hand if
    /// robbed.
    fn kan_window(&mut self, d: &mut dyn Decider, seat: usize, tile: u8, kind: Robbed) -> Result<Option<HandResult>, String> {
        let mut rons = Vec::new();
        let mut passed = Vec::new();
        for i in 1..self.n {
            let s = self.after(seat, i);
            if self.p[s].waits & bit(tile / 4) == 0 {
                continue;
            }
            self.response_actions(s, seat, tile, Some(kind));
            let a =
                if self.legal.len() > 1 { self.ask(d, s, Point::Response { from: seat as u8, tile, kan: true })? } else { Action::Pass };
            if a == Action::Ron {
                rons.push(s);
            } else if kind != Robbed::Ankan || self.legal.contains(&Action::Ron) {
                passed.push(s);
            }
        }
        if rons.is_empty() {
            for s in passed {
                self.pass_furiten(s);
            }
            return Ok(None);
        }
        self.resolve_rons(&rons, seat, tile, kind != Robbed::Nuki).map(Some)
    }

    fn pass_furiten(&mut self, s: usize) {
        let p = &mut self.p[s];
        p.temp_furiten = true;
        if p.riichi {
            p.riichi_furiten = true;
        }
    }

    fn resolve_rons(&mut self, rons: &[usize], from: usize, tile: u8, chankan: bool) -> Result<HandResult, String> {
        let winners = match (self.rules.multi_ron, rons.len()) {
            (MultiRon::DoubleOkTripleAbort, 3) => return Ok(self.abort(Outcome::Sanchahou)),
            (MultiRon::Atamahane, _) => &rons[..1],
            _ => rons,
        };
        for &w in winners {
            self.log_action(w, Action::Ron, tile);
        }
        self.settle_wins(winners, from, tile, false, false, chankan)
    }

    /// A discard and its response window. Sets `next` unless the hand ends.
    fn discard(&mut self, d: &mut dyn Decider, seat: usize, tile: u8, riichi: bool, next: &mut Next) -> Result<Option<HandResult>, String> {
        let k = tile / 4;
        {
            let first_turn = self.uninterrupted && !self.p[seat].discarded;
            let p = &mut self.p[seat];
            // The view of the hand's discards that chose this discard usually knows the waits.
            let waits = super::accept::known_waits_after(&p.counts, usize::from(k));
            p.remove(tile);
            p.river.push(tile);
            p.river_kinds |= bit(k);
            if !super::tiles::is_yaochu(k) {
                p.river_simple = true;
            }
            p.temp_furiten = false;
            p.kuikae = 0;
            self.daiminkan_from = NONE;
            if p.riichi {
                p.ippatsu = false;
            }
            p.waits = waits.unwrap_or_else(|| wait_mask(&p.counts));
            if riichi {
                self.riichi_declared = seat as u8 + 1;
                if first_turn && self.rules.double_riichi {
                    self.p[seat].double_riichi = true;
                }
            }
            // 四風連打: the first four discards of an uninterrupted hand are one wind.
            if self.discards == 0 && self.uninterrupted && super::tiles::is_wind(k) {
                self.first_winds = k;
            } else if !(self.uninterrupted && self.discards < 4 && self.first_winds == k) {
                self.first_winds = 0;
            }
            self.p[seat].discarded = true;
        }
        self.discards += 1;
        self.seen[usize::from(k)] += 1;
        self.reveal_pending();
        // Responses, from the discarder's 下家 on.
        let mut rons: Vec<usize> = Vec::new();
        let mut call: Option<(usize, Action)> = None;
        let mut passers: u8 = 0;
        for i in 1..self.n {
            let s = self.after(seat, i);
            self.response_actions(s, seat, tile, None);
            if self.legal.len() == 1 {
                if self.p[s].waits & bit(k) != 0 {
                    passers |= 1 << s;
                }
                continue;
            }
            let a = self.ask(d, s, Point::Response { from: seat as u8, tile, kan: false })?;
            match a {
                Action::Ron => rons.push(s),
                Action::Pass => {}
                a => {
                    let better = match call {
                        None => true,
                        Some((_, Action::Chi { .. })) => !matches!(a, Action::Chi { .. }),
                        Some(_) => false,
                    };
                    if better {
                        call = Some((s, a));
                    }
                }
            }
            if a != Action::Ron && self.p[s].waits & bit(k) != 0 {
                passers |= 1 << s;
            }
        }
        if !rons.is_empty() {
            if self.riichi_declared == seat as u8 + 1 {
                // A ronned declaration tile voids the riichi (§8.2).
                self.riichi_declared = 0;
                self.p[seat].double_riichi = false;
            }
            return self.resolve_rons(&rons, seat, tile, false).map(Some);
        }
        for s in 0..SEATS {
            if passers & (1 << s) != 0 {
                self.pass_furiten(s);
            }
            if self.p[s].riichi {
                self.safe_after_riichi[s] |= bit(k);
            }
        }
        if self.riichi_declared == seat as u8 + 1 {
            self.riichi_declared = 0;
            let p = &mut self.p[seat];
            p.riichi = true;
            p.ippatsu = self.rules.ippatsu;
            p.points -= i64::from(self.rules.riichi_deposit);
            self.progress.sticks += 1;
            self.safe_after_riichi[seat] = 0;
            let p = &self.p[seat];
            self.p[seat].foul = self.riichi_foul(&p.counts, p.river_kinds, None);
            if self.rules.local_yaku.contains(LocalYaku::OpenRiichi) {
                self.p[seat].open_riichi = d.open_riichi(self, seat);
                if self.p[seat].open_riichi {
                    self.log(seat as u8, 15, NONE);
                }
            }
            if self.rules.abort_suucha_riichi && self.n == 4 && self.p.iter().all(|p| p.riichi) {
                return Ok(Some(self.abort(Outcome::SuuchaRiichi)));
            }
        }
        if self.rules.abort_suufon_renda && self.n == 4 && self.discards == 4 && self.uninterrupted && self.first_winds != 0 {
            return Ok(Some(self.abort(Outcome::SuufonRenda)));
        }
        if self.suukaikan_pending {
            return Ok(Some(self.abort(Outcome::Suukaikan)));
        }
        let Some((caller, action)) = call else {
            *next = Next::Draw { seat: self.after(seat, 1), rinshan: false };
            return Ok(None);
        };
        self.log_action(caller, action, tile);
        self.p[seat].river_called = true;
        self.uninterrupted = false;
        self.clear_ippatsu();
        let own: Vec<u8> = match action {
            Action::Pon { tiles } | Action::Chi { tiles } => tiles.to_vec(),
            _ => self.p[caller].hand.iter().copied().filter(|&t| t / 4 == k).collect(),
        };
        let mut tiles = [0u8; 4];
        tiles[0] = tile;
        for (i, &t) in own.iter().enumerate() {
            self.p[caller].remove(t);
            self.log(caller as u8, 18, t);
            self.seen[usize::from(t / 4)] += 1;
            tiles[i + 1] = t;
        }
        let kind = match action {
            Action::Pon { .. } => MeldKind::Pon,
            Action::Chi { .. } => MeldKind::Chi,
            _ => MeldKind::Daiminkan,
        };
        self.p[caller].melds.push(MeldRec { kind, tiles, n: own.len() as u8 + 1, called: tile, from: seat as u8 });
        self.set_pao(caller, seat, kind);
        match action {
            Action::Pon { tiles } | Action::Chi { tiles } => {
                self.p[caller].kuikae = self.kuikae_mask(tile, tiles, kind == MeldKind::Chi);
                *next = Next::AfterCall { seat: caller };
            }
            _ => {
                self.declare_kan(caller);
                self.open_kan_dora();
                self.daiminkan_from = seat as u8;
                *next = Next::Draw { seat: caller, rinshan: true };
            }
        }
        Ok(None)
    }

    fn set_pao(&mut self, caller: usize, from: usize, kind: MeldKind) {
        let rule = self.rules.pao;
        if rule.is_empty() || kind == MeldKind::Chi {
            return;
        }
        let p = &mut self.p[caller];
        let sets = |f: fn(Kind) -> bool| p.melds.iter().filter(|m| m.kind != MeldKind::Chi && f(m.base())).count();
        let dragons = sets(super::tiles::is_dragon);
        let winds = sets(super::tiles::is_wind);
        let last = p.melds.last().map(|m| m.base()).unwrap_or(0);
        if rule.contains(Pao::Daisangen) && dragons == 3 && super::tiles::is_dragon(last) {
            p.pao_daisangen = from as u8;
        }
        if rule.contains(Pao::Daisuushii) && winds == 4 && super::tiles::is_wind(last) {
            p.pao_daisuushii = from as u8;
        }
        if rule.contains(Pao::Suukantsu) && kind == MeldKind::Daiminkan && p.melds.iter().filter(|m| m.kind.is_kan()).count() == 4 {
            p.pao_suukantsu = from as u8;
        }
    }

    fn abort(&mut self, outcome: Outcome) -> HandResult {
        HandResult::of(outcome)
    }

    fn transfer(&mut self, from: usize, to: usize, amount: u32) {
        self.p[from].points -= i64::from(amount);
        self.p[to].points += i64::from(amount);
    }

    /// A hand payment: `base` doubled when the wareme seat pays or receives it, plus `honba`.
    fn pay(&mut self, from: usize, to: usize, base: u32, honba: u32) {
        let w = usize::from(self.wareme);
        let factor = if from == w || to == w { 2 } else { 1 };
        self.transfer(from, to, base * factor + honba);
    }

    /// Pays the wins of `seats` (in order from the discarder) on `tile`.
    fn settle_wins(
        &mut self,
        seats: &[usize],
        from: usize,
        tile: u8,
        tsumo: bool,
        rinshan: bool,
        chankan: bool,
    ) -> Result<HandResult, String> {
        let mut wins = Vec::with_capacity(seats.len());
        let honba = self.progress.honba;
        if self.events.is_some() && self.rules.ura_dora && seats.iter().any(|&w| self.p[w].riichi) {
            for id in self.indicator_ids().1 {
                self.log(NONE, 19, id);
            }
        }
        for (i, &w) in seats.iter().enumerate() {
            let score = self.score_win(w, tile, tsumo, rinshan, chankan)?;
            let honba_w = if i == 0 || self.rules.multi_ron_honba == MultiRonHonba::EachWinner { honba } else { 0 };
            let dealer = w == usize::from(self.dealer);
            let (liable, mult) = self.pao_of(w, &score);
            let liable_basic = 8000 * u32::from(mult);
            // Dealing into an open riichi while not in riichi pays at least a yakuman.
            let basic = if !tsumo && self.p[w].open_riichi && !self.p[from].riichi { score.basic.max(8000) } else { score.basic };
            let rest_basic = basic - if liable != NONE { liable_basic } else { 0 };
            let hv = self.rules.honba_value;
            if tsumo && rinshan && self.rules.pao_daiminkan_rinshan && self.daiminkan_from != NONE {
                let l = usize::from(self.daiminkan_from);
                self.pay_normal(w, l, score.basic, dealer, false, honba_w);
                wins.push(WinRec { seat: w as u8, from: from as u8, score, pao: l as u8 });
                continue;
            }
            if liable == NONE || (!tsumo && liable == from as u8) {
                self.pay_normal(w, from, basic, dealer, tsumo, honba_w);
            } else {
                let l = usize::from(liable);
                let value = scoring::payments(liable_basic, dealer, false, 0, 0, self.rules).1.ron;
                if tsumo {
                    self.pay(l, w, value, honba_w * hv);
                    if rest_basic > 0 {
                        self.pay_normal(w, from, rest_basic, dealer, true, 0);
                    }
                } else {
                    self.pay(l, w, value / 2, 0);
                    self.pay(from, w, value / 2, honba_w * hv);
                    if rest_basic > 0 {
                        self.pay_normal(w, from, rest_basic, dealer, false, 0);
                    }
                }
            }
            wins.push(WinRec { seat: w as u8, from: from as u8, score, pao: liable });
        }
        let first = seats[0];
        let sticks = self.progress.sticks * self.rules.riichi_deposit;
        self.p[first].points += i64::from(sticks);
        self.progress.sticks = 0;
        Ok(HandResult { wins, ..HandResult::of(if tsumo { Outcome::Tsumo } else { Outcome::Ron }) })
    }

    fn pay_normal(&mut self, w: usize, from: usize, basic: u32, dealer: bool, tsumo: bool, honba: u32) {
        // Base amounts and the honba bonus apart: wareme doubles only the former.
        let (_, pay) = scoring::payments(basic, dealer, tsumo, 0, 0, self.rules);
        let hv = self.rules.honba_value;
        if !tsumo {
            self.pay(from, w, pay.ron, honba * hv);
            return;
        }
        let honba_each = scoring::tsumo_honba(honba, self.rules);
        for s in 0..self.n {
            if s == w {
                continue;
            }
            let amount = if s == usize::from(self.dealer) { pay.tsumo_dealer } else { pay.tsumo_non_dealer };
            self.pay(s, w, amount, honba_each);
        }
    }

    /// The seat liable for a yakuman of `w`'s win and the multiplier of the liable part.
    fn pao_of(&self, w: usize, score: &Score) -> (u8, u8) {
        let p = &self.p[w];
        for &(yaku, seat) in &[(Yaku::Daisangen, p.pao_daisangen), (Yaku::Daisuushii, p.pao_daisuushii), (Yaku::Suukantsu, p.pao_suukantsu)]
        {
            if seat != NONE {
                if let Some(&(_, m)) = score.yaku(self.rules).iter().find(|(y, _)| *y == yaku) {
                    if score.yakuman > 0 && !self.rules.yakuman_as_13_han {
                        return (seat, m);
                    }
                }
            }
        }
        (NONE, 0)
    }

    fn tenpai_at_draw(&self, seat: usize) -> bool {
        let p = &self.p[seat];
        if p.waits == 0 || p.forfeit {
            return false;
        }
        if !self.rules.keishiki_tenpai && !p.closed() {
            let id = |k: usize| (k * 4 + 3) as u8; // never a red five
            let yaku = (0..KINDS).any(|k| p.waits & bit(k as u8) != 0 && self.score_at(seat, id(k), false, false, false, false).is_ok());
            if !yaku {
                return false;
            }
        }
        match self.rules.karaten {
            Karaten::AlwaysTenpai => true,
            Karaten::OwnFourIsNoten | Karaten::AnyDeadWaitIsNoten => {
                let any = self.rules.karaten == Karaten::AnyDeadWaitIsNoten;
                (0..KINDS).any(|k| {
                    p.waits & bit(k as u8) != 0 && {
                        let used = if any { p.counts[k] + self.seen[k] } else { p.counts[k] + self.exposed_own(seat, k) };
                        used < 4
                    }
                })
            }
        }
    }

    /// Copies of kind `k` in `seat`'s melds (counted in both `own` and `seen`).
    fn exposed_own(&self, seat: usize, k: usize) -> u8 {
        self.p[seat].melds.iter().map(|m| m.tiles[..usize::from(m.n)].iter().filter(|&&t| usize::from(t / 4) == k).count() as u8).sum()
    }

    fn exhaustive_draw(&mut self, d: &mut dyn Decider) -> HandResult {
        let n = self.n;
        // Riichi hands are shown at the tenpai check, and with them a foul riichi.
        let fouls = (0..n).filter(|&s| self.p[s].foul && !self.p[s].forfeit).fold(0u8, |m, s| m | 1 << s);
        if fouls != 0 {
            if let Some(r) = self.chombo(fouls) {
                return r;
            }
        }
        let mut tenpai = 0u8;
        for s in 0..n {
            if self.tenpai_at_draw(s) {
                tenpai |= 1 << s;
            }
        }
        // 聴牌隠し: a tenpai player not in riichi may claim noten, dealer first.
        let mut noten_declared = 0u8;
        if self.rules.allow_noten_declaration {
            for i in 0..n {
                let s = (usize::from(self.dealer) + i) % n;
                if tenpai & (1 << s) != 0 && !self.p[s].riichi && d.declare_noten(self, s, tenpai) {
                    tenpai &= !(1 << s);
                    noten_declared |= 1 << s;
                    self.log(s as u8, 14, NONE);
                }
            }
        }
        let mut nagashi = 0u8;
        if self.rules.nagashi_mangan != Nagashi::Off {
            for s in 0..n {
                if !self.p[s].river_simple && !self.p[s].river_called && !self.p[s].forfeit {
                    nagashi |= 1 << s;
                }
            }
        }
        let outcome = if nagashi != 0 {
            for s in 0..n {
                if nagashi & (1 << s) != 0 {
                    let dealer = s == usize::from(self.dealer);
                    let honba = if self.rules.nagashi_mangan == Nagashi::AsWin { self.progress.honba } else { 0 };
                    self.pay_normal(s, s, 2000, dealer, true, honba);
                }
            }
            if self.rules.nagashi_mangan == Nagashi::AsWin {
                let first = (0..n).map(|i| (usize::from(self.dealer) + i) % n).find(|&s| nagashi & (1 << s) != 0).unwrap_or(0);
                let sticks = self.progress.sticks * self.rules.riichi_deposit;
                self.p[first].points += i64::from(sticks);
                self.progress.sticks = 0;
            }
            Outcome::Nagashi
        } else {
            let pay = self.noten_payments(tenpai);
            for (p, x) in self.p.iter_mut().zip(pay) {
                p.points += x;
            }
            Outcome::Exhaustive
        };
        HandResult { tenpai, nagashi, noten_declared, ..HandResult::of(outcome) }
    }

    /// Noten payments (§12.2 step 3; `sanma_noten_total` with three players, §14) of each seat
    /// when the seats of `tenpai` are tenpai.
    pub fn noten_payments(&self, tenpai: u8) -> [i64; SEATS] {
        let (n, t) = (self.n as u32, tenpai.count_ones());
        if !(1..n).contains(&t) {
            return [0; SEATS];
        }
        let total = if n == 3 { self.rules.sanma_noten_total } else { self.rules.noten_bappu_total };
        let (gain, loss) = (i64::from(total / t), i64::from(total / (n - t)));
        std::array::from_fn(|s| {
            if s >= self.n {
                0
            } else if tenpai & (1 << s) != 0 {
                gain
            } else {
                -loss
            }
        })
    }

    /// Whether a riichi on the 13 tiles `c` with own discard kinds `river` is a foul under the
    /// rules: furiten (furiten_riichi = chombo), or every wait used up from the player's own view —
    /// own hand, everything visible, and `extra` (a discard about to be made) — (kara_riichi_chombo).
    pub fn riichi_foul(&self, c: &Counts, river: u64, extra: Option<Kind>) -> bool {
        let furiten = self.rules.furiten_riichi == FuritenRiichi::Chombo;
        if !furiten && !self.rules.kara_riichi_chombo {
            return false;
        }
        let waits = wait_mask(c);
        if furiten && river & waits != 0 {
            return true;
        }
        self.rules.kara_riichi_chombo
            && !(0..KINDS).any(|k| waits & bit(k as u8) != 0 && c[k] + self.seen[k] + u8::from(extra == Some(k as Kind)) < 4)
    }

    /// A foul of the seats of `offenders` is shown (§12.4). Under hand_forfeit they may no longer
    /// call or win and the hand goes on (`None`); otherwise the hand ends void with the penalty and
    /// is replayed (A42): this hand's riichi sticks go back to their players.
    fn chombo(&mut self, offenders: u8) -> Option<HandResult> {
        self.chombo |= offenders;
        for s in (0..SEATS).filter(|&s| offenders & (1 << s) != 0) {
            self.log(s as u8, 13, NONE);
        }
        let rule = self.rules.chombo_payment;
        if rule == ChomboPayment::HandForfeit {
            for s in (0..SEATS).filter(|&s| offenders & (1 << s) != 0) {
                self.p[s].forfeit = true;
            }
            return None;
        }
        let deposit = i64::from(self.rules.riichi_deposit);
        for s in 0..SEATS {
            if self.p[s].riichi {
                self.p[s].points += deposit;
                self.progress.sticks -= 1;
            }
        }
        for o in (0..SEATS).filter(|&s| offenders & (1 << s) != 0) {
            // A mangan paid the other way round (not doubled by wareme, A46), or 3000 to each.
            let (_, mangan) = scoring::payments(2000, o == usize::from(self.dealer), true, 0, 0, self.rules);
            for s in (0..self.n).filter(|&s| s != o) {
                let amount = match rule {
                    ChomboPayment::Mangan if s == usize::from(self.dealer) => mangan.tsumo_dealer,
                    ChomboPayment::Mangan => mangan.tsumo_non_dealer,
                    ChomboPayment::ThreeThousandAll => 3000,
                    ChomboPayment::PointsDeduction | ChomboPayment::HandForfeit => 0,
                };
                self.transfer(o, s, amount);
            }
        }
        Some(self.abort(Outcome::Chombo))
    }

    /// Hands a game schedules before extensions (one wind round = n dealer rotations).
    pub fn scheduled(&self) -> u32 {
        let n = self.n as u32;
        match self.rules.game_length {
            GameLength::Ikkyoku => 1,
            GameLength::Tonpuu => n,
            GameLength::Hanchan => 2 * n,
            GameLength::Iichan => 4 * n,
        }
    }

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

    fn busted(&self) -> bool {
        self.busted_at(&self.p.each_ref().map(|p| p.points))
    }

    /// Whether `points` (seats beyond `n` ignored) end the game by tobi.
    pub fn busted_at(&self, points: &[i64; SEATS]) -> bool {
        points[..self.n].iter().any(|&p| self.rules.tobi.busts(p))
    }

    /// Advances `progress` past hand `r` (§13.2, §13.4). Returns true when the game is over.
    /// `yame` answers the dealer's choice under `agari_yame`/`tenpai_yame = choice`.
    pub fn advance(&mut self, r: &HandResult, yame: &mut dyn FnMut(&State<'_>) -> bool) -> bool {
        if r.outcome == Outcome::Chombo {
            // The same hand again, on a new wall (A42); only a payment that busts someone ends it.
            self.progress.repeat += 1;
            return self.busted();
        }
        self.progress.repeat = 0;
        let keeps = self.dealer_keeps(r);
        let round = self.progress.round;
        let dealer_won = r.wins.iter().any(|w| w.seat == self.dealer);
        let won = matches!(r.outcome, Outcome::Tsumo | Outcome::Ron)
            || (r.outcome == Outcome::Nagashi && self.rules.nagashi_mangan == Nagashi::AsWin);
        // Honba: +1 after a dealer win and after any draw; reset after a win without the dealer.
        if won && !keeps {
            self.progress.honba = 0;
        } else {
            self.progress.honba += 1;
        }
        if !keeps {
            self.progress.round += 1;
        }
        if self.busted() {
            return true;
        }
        if !keeps {
            return self.over_when_deal_passes(round, &self.p.each_ref().map(|p| p.points));
        }
        let sched = self.scheduled();
        if self.rules.game_length == GameLength::Ikkyoku {
            return true;
        }
        let target = i64::from(self.rules.return_points);
        let extension_on = self.rules.extension != Extension::Off;
        if round + 1 < sched {
            return false;
        }
        let in_extension = round >= sched;
        let rule = if dealer_won {
            self.rules.agari_yame
        } else if matches!(r.outcome, Outcome::Exhaustive | Outcome::Nagashi) {
            self.rules.tenpai_yame
        } else {
            Yame::Off
        };
        let n = self.n as u32;
        let applies = !(self.rules.extension == Extension::FullRound && in_extension && round % n != n - 1);
        applies
            && match rule {
                Yame::Off => false,
                Yame::AutoIfTop => self.dealer_is_top() && (!extension_on || self.p[usize::from(self.dealer)].points >= target),
                Yame::Choice => yame(self),
            }
    }

    /// Whether the game is over when the deal passes after hand `round` with `points` (no tobi;
    /// seats beyond `n` ignored).
    pub fn over_when_deal_passes(&self, round: u32, points: &[i64; SEATS]) -> bool {
        let sched = self.scheduled();
        let n = self.n as u32;
        if self.rules.game_length == GameLength::Ikkyoku {
            return true;
        }
        if round + 1 < sched {
            return false;
        }
        if self.rules.extension == Extension::Off {
            return true;
        }
        if self.rules.extension == Extension::FullRound && round >= sched && round % n != n - 1 {
            return false;
        }
        if points[..self.n].iter().any(|&p| p >= i64::from(self.rules.return_points)) {
            return true;
        }
        let limit = match self.rules.extension_max {
            ExtensionMax::OneRound => sched + n,
            ExtensionMax::TwoRounds => sched + 2 * n,
            // 返り東 repeats; 64 further hands bound a game that would otherwise never end.
            ExtensionMax::ReturnEast => sched + 64,
        };
        round + 1 >= limit
    }

    /// The dealer is in sole first place (ties broken by seat order).
    pub fn dealer_is_top(&self) -> bool {
        let pts: Vec<i64> = self.p[..self.n].iter().map(|p| p.points).collect();
        crate::game::ranks(&pts)[usize::from(self.dealer)] == 1
    }
}
