//! One hand from the deal to its end (spec §5–§12): the seats' tiles and melds, draws, the own
//! turn (tsumo, kans with their replacement draws, nuki, kyuushu, the discard), riichi, furiten
//! and the event log. The wall and dora are in `wall.rs`, a discard and its response window
//! (calls with priority, rons, chankan) in `claims.rs`, the legal actions in `actions.rs`, every
//! payment in `scoring.rs`, and the game flow between hands in `batch.rs`.
//!
//! Tiles are Tenhou ids 0–135 (kind = id / 4). The red fives are ids 16, 52, 88 (and 53 with four
//! red fives); with `aka_dora = 0` they are plain fives. Flowers are ids 136–143: they never enter
//! a hand's tiles or counts (a held flower is a bit of `Player::flowers_held`), so the hand
//! evaluator never sees them.

use super::actions::{Action, Point};
use super::rules::*;
use super::scoring::{HandResult, Outcome};
use super::tiles::{Counts, Kind, MeldKind, Tile, KINDS};
use super::Riichi;
use crate::decide::{Fault, Player, PlayerError};

/// Seats of the arrays; three-player games leave the last one unused (`State::n`).
pub const SEATS: usize = 4;
/// First flower id.
pub const FLOWER: u8 = 136;
/// Tiles of the largest set: 136 plus 8 flowers.
pub const MAX_TILES: usize = 144;
/// The marked 白 of local yaku `shiro_pocchi` (the first 白).
pub const POCCHI: u8 = 124;

/// An exposed meld (ankan included). `tiles[..n]`; `called` is the tile taken from `from` (none
/// for an ankan).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MeldRec {
    pub kind: MeldKind,
    pub tiles: [u8; 4],
    pub n: u8,
    pub called: Option<u8>,
    pub from: u8,
}

impl MeldRec {
    pub fn base(&self) -> Kind {
        self.tiles[..usize::from(self.n)].iter().map(|&t| t / 4).min().unwrap_or(0)
    }
}

/// A seat as every seat sees it: melds, river, riichi, points, extracted tiles. What only the seat
/// itself knows is its [`Concealed`] part.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seat {
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
    pub discarded: bool,
    /// Seat liable for a yakuman of this player (pao), per liable yakuman.
    pub pao_daisangen: Option<u8>,
    pub pao_daisuushii: Option<u8>,
    pub pao_suukantsu: Option<u8>,
    pub points: i64,
    /// アガリ放棄 (chombo_payment = hand_forfeit): no call, kan or win for the rest of the hand.
    pub forfeit: bool,
    /// The riichi is open (local yaku `open_riichi`): the concealed tiles are shown.
    pub open_riichi: bool,
    /// Tiles extracted (flowers and sanma Norths), in order.
    pub nuki: Vec<u8>,
}

impl Default for Seat {
    /// Without allocations: `deal` builds each hand's seats on this, keeping the vectors of the
    /// previous hand.
    fn default() -> Self {
        Seat {
            melds: Vec::new(),
            river: Vec::new(),
            river_kinds: 0,
            river_called: false,
            river_simple: false,
            riichi: false,
            double_riichi: false,
            ippatsu: false,
            discarded: false,
            pao_daisangen: None,
            pao_daisuushii: None,
            pao_suukantsu: None,
            points: 0,
            forfeit: false,
            open_riichi: false,
            nuki: Vec::new(),
        }
    }
}

impl Seat {
    pub fn closed(&self) -> bool {
        self.melds.iter().all(|m| m.kind == MeldKind::Ankan)
    }
}

/// What only the seat itself knows: its concealed tiles and what follows from them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Concealed {
    /// Concealed tiles (ids), in no particular order.
    pub hand: Vec<u8>,
    pub counts: Counts,
    /// Bit per kind that completes the 13-tile hand (kept current outside the own turn).
    pub waits: u64,
    pub temp_furiten: bool,
    pub riichi_furiten: bool,
    /// Kinds the next discard may not be (kuikae), bit per kind.
    pub kuikae: u64,
    /// The accepted riichi was a foul (furiten_riichi = chombo, kara_riichi_chombo), not yet shown.
    pub foul: bool,
    /// Flowers in the hand (bit per flower id − 136): never part of `hand` or `counts`.
    pub flowers_held: u8,
}

impl Default for Concealed {
    fn default() -> Self {
        Concealed {
            hand: Vec::new(),
            counts: [0; KINDS],
            waits: 0,
            temp_furiten: false,
            riichi_furiten: false,
            kuikae: 0,
            foul: false,
            flowers_held: 0,
        }
    }
}

impl Concealed {
    pub(super) fn take(&mut self, id: u8) {
        if id >= FLOWER {
            self.flowers_held |= 1 << (id - FLOWER);
            return;
        }
        self.hand.push(id);
        self.counts[usize::from(id / 4)] += 1;
    }

    pub(super) fn remove(&mut self, id: u8) -> bool {
        match self.hand.iter().position(|&t| t == id) {
            Some(i) => {
                self.hand.swap_remove(i);
                self.counts[usize::from(id / 4)] -= 1;
                true
            }
            None => false,
        }
    }

    /// Furiten with own discards of kinds `river_kinds`.
    pub(super) fn furiten(&self, river_kinds: u64) -> bool {
        self.temp_furiten || self.riichi_furiten || river_kinds & self.waits != 0
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
    /// None for the table's own events (a dora indicator turned over).
    pub seat: Option<u8>,
    pub kind: EventKind,
    /// None for an event without a tile (a tsumo, kyuushu, a noten claim, open riichi).
    pub tile: Option<u8>,
}

impl Event {
    /// The seat and tile as the `events` table stores them: 255 for none.
    pub fn stored(&self) -> (u8, u8) {
        (self.seat.unwrap_or(u8::MAX), self.tile.unwrap_or(u8::MAX))
    }
}

crate::code_enum! {
    /// What an event of the `events` table is (its `kind` column holds the code).
    pub enum EventKind {
        Draw = "draw",
        ReplacementDraw = "replacement_draw",
        Discard = "discard",
        RiichiDiscard = "riichi_discard",
        Chi = "chi",
        Pon = "pon",
        Daiminkan = "daiminkan",
        Ankan = "ankan",
        Kakan = "kakan",
        Tsumo = "tsumo",
        /// Declared.
        Ron = "ron",
        /// Revealed; the first one opens the hand.
        DoraIndicator = "dora_indicator",
        Kyuushu = "kyuushu",
        /// A foul shown (chombo).
        Chombo = "chombo",
        /// Noten claimed at a draw.
        NotenClaimed = "noten_claimed",
        /// Riichi opened (open_riichi).
        OpenRiichi = "open_riichi",
        /// A flower or North extracted.
        Nuki = "nuki",
        /// A tile of a seat's starting hand, after the first indicator.
        Dealt = "dealt",
        /// A tile of the hand put into a meld, after its call (chi, pon, daiminkan, ankan).
        IntoMeld = "into_meld",
        /// Turned over for a riichi win, before the win.
        UraIndicator = "ura_indicator",
    }
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

impl Progress {
    /// The round wind with `n` seats.
    pub fn round_wind(&self, n: usize) -> Kind {
        27 + ((self.round / n as u32) % 4) as u8
    }

    /// The seat wind of `seat` with `n` seats.
    pub fn seat_wind(&self, seat: usize, n: usize) -> Kind {
        27 + ((seat + n - (self.round as usize % n)) % n) as u8
    }
}

#[derive(Clone)]
pub struct State<'r> {
    pub rules: &'r Rules,
    /// Seats at the table (3 or 4); `p[n..]` is unused.
    pub n: usize,
    /// The seats as everyone sees them.
    pub p: [Seat; SEATS],
    /// Each seat's concealed part: never in another seat's view.
    pub hidden: [Concealed; SEATS],
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
    /// Seat of each kan, in order (`..kans`).
    pub kan_seats: [u8; 4],
    pub dora_shown: usize,
    /// Ids of the dora indicators shown (`..dora_shown`).
    pub dora_ids: [u8; 5],
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
    pub(super) first_winds: u8,
    /// The wareme seat of this hand (none without wareme).
    pub wareme: Option<u8>,
    /// Events of the hand, when logging (`None` otherwise).
    pub events: Option<Vec<Event>>,
    /// The discarder of a daiminkan whose replacement tile the caller is playing.
    pub(super) daiminkan_from: Option<u8>,
    pub(super) suukaikan_pending: bool,
    pub(super) riichi_declared: u8,
    /// Seats whose foul has been shown in this hand.
    pub(super) chombo: u8,
    /// The kind the marked 白 stands for in the tsumo now offered to the player who drew it.
    pub(super) pocchi_as: Option<Kind>,
    pub(super) legal: Vec<Action>,
    /// Test seam: sees the whole state at every decision, before the player is asked (invariant
    /// checks, and the test that hidden information never changes a decision).
    #[cfg(test)]
    pub(super) probe: ProbeSlot,
}

/// What [`State::probe`] is called with: the state, the deciding seat, the point, the legal actions.
#[cfg(test)]
pub(super) type Probe = dyn FnMut(&State<'_>, usize, Point, &[Action]);

/// The probe of a state; a copy of the state has none.
#[cfg(test)]
#[derive(Default)]
pub(super) struct ProbeSlot(pub Option<Box<Probe>>);

#[cfg(test)]
impl Clone for ProbeSlot {
    fn clone(&self) -> Self {
        ProbeSlot(None)
    }
}

pub(super) fn bit(k: Kind) -> u64 {
    1 << k
}

/// A tile offered to ron outside a discard.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Robbed {
    /// An added kan (chankan).
    Kakan,
    /// An ankan (kokushi only).
    Ankan,
    /// An extracted sanma North (`sanma_north_ron`; no chankan yaku).
    Nuki,
}

/// Plays a hand's decisions.
pub(super) enum Next {
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
            hidden: Default::default(),
            wall: [0; MAX_TILES],
            dead,
            replacements: rules.replacement_tiles(),
            live_next: 13 * rules.seats(),
            live_end: dead,
            rinshan_drawn: 0,
            kans: 0,
            kan_seats: [0; 4],
            dora_shown: 1,
            dora_ids: [0; 5],
            pending_dora: 0,
            progress: Progress { round: 0, honba: 0, sticks: 0, repeat: 0 },
            dealer: 0,
            uninterrupted: true,
            discards: 0,
            seen: [0; KINDS],
            dora_count: [0; KINDS],
            safe_after_riichi: [0; SEATS],
            first_winds: 0,
            daiminkan_from: None,
            wareme: None,
            events: None,
            suukaikan_pending: false,
            riichi_declared: 0,
            chombo: 0,
            pocchi_as: None,
            legal: Vec::with_capacity(40),
            #[cfg(test)]
            probe: ProbeSlot::default(),
        }
    }

    pub fn is_red(&self, id: u8) -> bool {
        self.rules.is_red(id)
    }

    pub fn tile(&self, id: u8) -> Tile {
        Tile { kind: id / 4, red: self.is_red(id) }
    }

    pub fn round_wind(&self) -> Kind {
        self.progress.round_wind(self.n)
    }

    pub fn seat_wind(&self, seat: usize) -> Kind {
        self.progress.seat_wind(seat, self.n)
    }

    /// The seat `i` (< n) places after `seat` in turn order (no division on the hot path).
    #[inline]
    pub(super) fn after(&self, seat: usize, i: usize) -> usize {
        let s = seat + i;
        if s >= self.n {
            s - self.n
        } else {
            s
        }
    }

    /// Starts a game: everyone at the starting points, East 1.
    pub fn start_game(&mut self) {
        self.progress = Progress { round: 0, honba: 0, sticks: 0, repeat: 0 };
        let n = self.n;
        for p in &mut self.p[..n] {
            p.points = i64::from(self.rules.starting_points);
        }
    }

    #[inline]
    pub(super) fn log(&mut self, seat: Option<u8>, kind: EventKind, tile: Option<u8>) {
        if let Some(ev) = &mut self.events {
            ev.push(Event { seat, kind, tile });
        }
    }

    /// Logs `action` of `seat`; `called` is the tile a call or ron takes.
    pub(super) fn log_action(&mut self, seat: usize, action: Action, called: Option<u8>) {
        if self.events.is_none() {
            return;
        }
        let (kind, tile) = match action {
            Action::Discard { tile, riichi: false } => (EventKind::Discard, Some(tile)),
            Action::Discard { tile, riichi: true } => (EventKind::RiichiDiscard, Some(tile)),
            Action::Chi { .. } => (EventKind::Chi, called),
            Action::Pon { .. } => (EventKind::Pon, called),
            Action::Daiminkan => (EventKind::Daiminkan, called),
            Action::Ankan { kind } => (EventKind::Ankan, Some(kind * 4)),
            Action::Kakan { tile } => (EventKind::Kakan, Some(tile)),
            Action::Tsumo => (EventKind::Tsumo, None),
            Action::Ron => (EventKind::Ron, called),
            Action::Kyuushu => (EventKind::Kyuushu, None),
            Action::Nuki { tile } => (EventKind::Nuki, Some(tile)),
            Action::DeclareNoten => (EventKind::NotenClaimed, None),
            Action::OpenRiichi => (EventKind::OpenRiichi, None),
            Action::Pass | Action::Yame => return,
        };
        self.log(Some(seat as u8), kind, tile);
    }

    pub(super) fn clear_ippatsu(&mut self) {
        for p in &mut self.p {
            p.ippatsu = false;
        }
    }

    /// Plays one hand to its end with `d` choosing every action, and settles it.
    pub fn play_hand(&mut self, d: &mut dyn Player<Riichi>) -> Result<HandResult, PlayerError> {
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

    fn run_hand(&mut self, d: &mut dyn Player<Riichi>) -> Result<HandResult, PlayerError> {
        let mut next = Next::Draw { seat: usize::from(self.dealer), rinshan: false };
        loop {
            let (seat, drawn, mut rinshan) = match next {
                Next::Draw { seat, rinshan: false } => {
                    if self.live_next >= self.live_end {
                        return self.exhaustive_draw(d);
                    }
                    let id = self.wall[self.live_next];
                    self.live_next += 1;
                    self.hidden[seat].take(id);
                    self.log(Some(seat as u8), EventKind::Draw, Some(id));
                    (seat, Some(id), false)
                }
                Next::Draw { seat, rinshan: true } => (seat, Some(self.draw_rinshan(seat)), true),
                Next::AfterCall { seat } => (seat, None, false),
            };
            let mut drawn = drawn;
            // The own turn: tsumo, kans (each followed by a replacement draw), or a discard.
            let (tile, riichi) = loop {
                self.turn_actions(seat, drawn, rinshan);
                let point = Point::Turn { after_call: drawn.is_none() };
                let action = self.ask(d, seat, point)?;
                match action {
                    Action::Tsumo => {
                        // Showing the hand shows a foul riichi: a chombo instead of the win.
                        if self.hidden[seat].foul {
                            match self.chombo(1 << seat) {
                                Some(r) => return Ok(r),
                                None => continue,
                            }
                        }
                        let Some(win) = drawn else { unreachable!("tsumo is offered only on a drawn tile") };
                        return self.settle_wins(&[seat], seat, win, true, rinshan, false);
                    }
                    Action::Kyuushu => return Ok(self.abort(Outcome::Kyuushu)),
                    Action::Ankan { kind } => {
                        let ids: Vec<u8> = self.hidden[seat].hand.iter().copied().filter(|&t| t / 4 == kind).collect();
                        if self.rules.kokushi_rob_ankan {
                            if let Some(r) = self.kan_window(d, seat, ids[0], Robbed::Ankan)? {
                                return Ok(r);
                            }
                        }
                        let mut tiles = [0u8; 4];
                        for (i, &t) in ids.iter().enumerate() {
                            self.hidden[seat].remove(t);
                            self.log(Some(seat as u8), EventKind::IntoMeld, Some(t));
                            tiles[i] = t;
                        }
                        self.p[seat].melds.push(MeldRec { kind: MeldKind::Ankan, tiles, n: 4, called: None, from: seat as u8 });
                        self.seen[usize::from(kind)] += 4;
                        self.declare_kan(seat);
                        self.reveal_dora();
                    }
                    Action::Kakan { tile } => {
                        if let Some(r) = self.kan_window(d, seat, tile, Robbed::Kakan)? {
                            return Ok(r);
                        }
                        self.hidden[seat].remove(tile);
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
                    other => {
                        return Err(PlayerError::new::<Riichi>(seat, point, Fault::Illegal(format!("{other:?} is not a turn action"))))
                    }
                }
                drawn = Some(self.draw_rinshan(seat));
                rinshan = true;
            };
            if let Some(r) = self.discard(d, seat, tile, riichi, &mut next)? {
                return Ok(r);
            }
        }
    }
}
