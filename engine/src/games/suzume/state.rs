//! One hand (局) from the deal to a win or an exhaustive draw (spec §3-§5, §7-§9).
//!
//! The stock has no order in the physical game (tiles are drawn at random from a spread), so a
//! hand reads its tiles by a lazy Fisher-Yates shuffle of the 44 tiles under the key
//! (seed, WALL, deal, hand): draw `i` is a pure function of that key and `i`, whatever the rules
//! or the strategies do. Every variant of an experiment therefore sees the same tiles in the same
//! order.

use super::actions::{ron_win, tsumo_win, Action, Point, View, WinKind};
use super::hand::Parts;
use super::rules::{MultiRon, Rules};
use super::scoring::{self, State, Tables, Tile, KINDS, MAX_PLAYERS, TILES};
use super::Suzume;
use crate::decide::{ask_index, Player, PlayerError};
use crate::rng::{Key, Stream};

/// Key tags (per game, per purpose): tiles, first dealer, strategy randomness, mistakes.
pub const TAG_WALL: u64 = 0x535A_5741_4C4C; // "SZWALL"
pub const TAG_DEALER: u64 = 0x535A_4445_414C; // "SZDEAL"
pub const TAG_STRATEGY: u64 = 0x535A_5354_5241; // "SZSTRA"
pub const TAG_MISTAKE: u64 = 0x535A_4D49_5354; // "SZMIST"

/// The stock: a lazily shuffled set of the 44 tiles.
#[derive(Clone)]
pub(super) struct Stock {
    pub(super) tiles: [Tile; TILES],
    /// Tiles drawn so far: `tiles[..next]` in draw order.
    pub(super) next: usize,
    stream: Stream,
}

impl Stock {
    pub fn new(key: Key) -> Self {
        Stock { tiles: std::array::from_fn(|i| Tile(i as u8)), next: 0, stream: key.stream() }
    }

    pub fn draw(&mut self) -> Tile {
        let j = self.next + self.stream.below((TILES - self.next) as u64) as usize;
        self.tiles.swap(self.next, j);
        self.next += 1;
        self.tiles[self.next - 1]
    }

    pub fn left(&self) -> usize {
        TILES - self.next
    }
}

/// One seat's concealed tiles.
#[derive(Debug, Clone, Copy)]
pub struct Seat {
    pub(super) tiles: [Tile; 6],
    pub(super) len: usize,
    pub(super) state: State,
    pub(super) red: u16,
    /// With 5 tiles: the kinds that complete the hand (a fast filter before the win checks).
    pub(super) waits: u16,
}

impl Seat {
    /// `reds`: whether the set has red copies (rule `red_tiles`); without them a red copy is plain.
    pub(super) fn add(&mut self, t: Tile, reds: bool) {
        self.tiles[self.len] = t;
        self.len += 1;
        self.state = Tables::get().add(self.state, t.kind());
        if reds && t.is_red_number() {
            self.red |= 1 << t.kind();
        }
    }

    fn remove(&mut self, index: usize) -> Tile {
        let t = self.tiles[index];
        self.len -= 1;
        self.tiles[index] = self.tiles[self.len];
        let tables = Tables::get();
        let (need, improve) = tables.five_after(self.state, t.kind());
        self.waits = if need == 1 { improve } else { 0 };
        self.state = tables.remove(self.state, t.kind());
        if t.is_red_number() {
            self.red &= !(1 << t.kind());
        }
        t
    }

    /// After the deal (a discard sets `waits` itself).
    pub(super) fn refresh_waits(&mut self) {
        let (need, improve) = Tables::get().five(self.state);
        self.waits = if need == 1 { improve } else { 0 };
    }
}

/// One win of a hand.
#[derive(Debug, Clone, Copy)]
pub struct Win {
    pub seat: u8,
    pub parts: Parts,
    /// Points actually received (less than `parts.score` when payers hit the 0-floor).
    pub received: i64,
}

/// How a hand ended.
#[derive(Debug, Clone, Copy)]
pub struct HandResult {
    /// `None` for an exhaustive draw.
    pub kind: Option<WinKind>,
    /// The winners: one for tsumo, one or more for ron (in turn order from the discarder).
    pub wins: [Option<Win>; MAX_PLAYERS - 1],
    pub discarder: Option<u8>,
    /// Stock draws taken in the hand when it ended (the winning draw or discard included).
    pub turn: u16,
    pub stock_left: u8,
    /// Mistaken wins per seat (mistake injection).
    pub mistakes: [u8; MAX_PLAYERS],
}

/// The keys of one deal (seed and deal index), refined per hand by the hand index.
#[derive(Debug, Clone, Copy)]
pub struct DealKeys {
    wall: Key,
    /// Refined by hand and seat: the stream of a seat's random discards (the native players').
    pub strategy: Key,
    mistake: Key,
}

impl DealKeys {
    pub fn new(seed: u64, deal: u64) -> Self {
        let key = Key::new(seed);
        DealKeys {
            wall: key.with(TAG_WALL).with(deal),
            strategy: key.with(TAG_STRATEGY).with(deal),
            mistake: key.with(TAG_MISTAKE).with(deal),
        }
    }
}

/// Hears everything that happens in a hand: how `show` logs a game. Native play hears with `()`,
/// which compiles away.
pub trait Listen {
    /// `seat` is [`NO_SEAT`] for the dora indicator.
    fn hear(&mut self, hand: u64, seat: usize, event: Event, tile: Tile);

    /// The hidden-information test's probe: `seat` is asked at `point` with `own` as its tiles.
    #[cfg(test)]
    fn probe(&mut self, _table: &Table, _seat: usize, _own: &Seat, _points: &[i64], _point: Point, _legal: &[Action]) {}
}

impl Listen for () {
    #[inline(always)]
    fn hear(&mut self, _: u64, _: usize, _: Event, _: Tile) {}
}

/// The seat of an event that belongs to no seat (the dora indicator).
pub const NO_SEAT: usize = u8::MAX as usize;

crate::code_enum! {
    /// What [`Listen::hear`] hears: the `kind` codes of the `events` table of `show.rs`.
    pub enum Event {
        /// A tile dealt to the seat.
        Dealt = "dealt",
        /// The dora indicator turned up.
        Dora = "dora",
        /// A tile drawn.
        Draw = "draw",
        /// A tile discarded.
        Discard = "discard",
        /// The drawn tile declared as a tsumo win.
        Tsumo = "tsumo",
        /// The discarded tile claimed for a ron win.
        Ron = "ron",
        /// A mistaken win declared (mistake injection): the seat pays the penalty.
        Mistake = "mistake",
    }
}

/// The context of one hand.
pub struct HandSetup<'a> {
    pub rules: &'a Rules,
    pub dealer: usize,
    pub keys: DealKeys,
    pub hand: u64,
}

/// The table during one hand: the stock and the seats' tiles (hidden) and everything public.
#[derive(Clone)]
pub struct Table {
    pub(super) stock: Stock,
    pub(super) seats: [Seat; MAX_PLAYERS],
    pub(super) n: usize,
    pub(super) dealer: usize,
    pub(super) hand: u64,
    /// Copies of each kind visible: every discard and the dora tile.
    pub(super) seen: [u8; KINDS],
    pub(super) seen_red: u16,
    pub(super) dora_tile: Option<Tile>,
    pub(super) dora: Option<u8>,
    pub(super) discarded: [u16; MAX_PLAYERS],
    /// Every discard in order: discard `i` is by seat `(dealer + i) % n` (no calls interrupt the
    /// turn order), so this is every river.
    pub(super) river: [Tile; TILES],
    pub(super) river_len: usize,
    pub(super) streak: [u8; MAX_PLAYERS],
}

impl Table {
    /// What the seat holding `own` sees (its tiles, at a ron with the discard added as the last).
    pub(super) fn view<'a>(&'a self, seat: usize, own: &'a Seat, points: &'a [i64]) -> View<'a> {
        View {
            seat,
            players: self.n,
            dealer: self.dealer,
            hand_index: self.hand,
            hand: &own.tiles[..own.len],
            state: own.state,
            red: own.red,
            seen: &self.seen,
            seen_red: self.seen_red,
            discarded: &self.discarded,
            streak: &self.streak,
            dora: self.dora,
            river: &self.river[..self.river_len],
            stock: self.stock.left(),
            points,
        }
    }

    /// Every one of the 44 tiles is in exactly one place: a hand, a discard row, the stock or the
    /// dora slot.
    fn conserved(&self) -> bool {
        let seats = &self.seats[..self.n];
        let places = seats
            .iter()
            .flat_map(|s| &s.tiles[..s.len])
            .chain(&self.river[..self.river_len])
            .chain(&self.stock.tiles[self.stock.next..])
            .chain(self.dora_tile.as_ref())
            .map(|t| 1u64 << t.0);
        let (mut union, mut count) = (0u64, 0u32);
        for bit in places {
            union |= bit;
            count += 1;
        }
        union == (1u64 << TILES) - 1 && count == TILES as u32
    }
}

/// Asks the player of the seat holding `own` at `point`: the index of its choice in `legal`.
#[inline(always)]
fn decide(
    player: &mut (impl Player<Suzume> + ?Sized),
    listen: &mut impl Listen,
    table: &Table,
    (seat, own): (usize, &Seat),
    points: &[i64],
    point: Point,
    legal: &[Action],
) -> Result<usize, PlayerError> {
    #[cfg(test)]
    listen.probe(table, seat, own, points, point, legal);
    #[cfg(not(test))]
    let _ = listen;
    ask_index(player, &table.view(seat, own, points), point, legal)
}

/// The discards of a hand: one per tile, in the hand's order.
fn discards(own: &Seat) -> [Action; 6] {
    std::array::from_fn(|i| Action::Discard(own.tiles[i]))
}

/// Plays one hand with `player` deciding for every seat and settles its payments into `points`.
pub fn play_hand(
    setup: &HandSetup,
    player: &mut (impl Player<Suzume> + ?Sized),
    listen: &mut impl Listen,
    points: &mut [i64],
) -> Result<HandResult, PlayerError> {
    let rules = setup.rules;
    let n = points.len();
    let mut mistakes_rng = setup.keys.mistake.with(setup.hand).stream();
    let mut t = Table {
        stock: Stock::new(setup.keys.wall.with(setup.hand)),
        seats: [Seat { tiles: [Tile(0); 6], len: 0, state: 0, red: 0, waits: 0 }; MAX_PLAYERS],
        n,
        dealer: setup.dealer,
        hand: setup.hand,
        seen: [0; KINDS],
        seen_red: 0,
        dora_tile: None,
        dora: None,
        discarded: [0; MAX_PLAYERS],
        river: [Tile(0); TILES],
        river_len: 0,
        streak: [0; MAX_PLAYERS],
    };
    for i in 0..n {
        let s = (setup.dealer + i) % n;
        for _ in 0..5 {
            let tile = t.stock.draw();
            listen.hear(setup.hand, s, Event::Dealt, tile);
            t.seats[s].add(tile, rules.red_tiles);
        }
        t.seats[s].refresh_waits();
    }
    let red_of = |tile: Tile| rules.red_tiles && tile.is_red_number();
    if rules.dora {
        let tile = t.stock.draw();
        listen.hear(setup.hand, NO_SEAT, Event::Dora, tile);
        t.seen[usize::from(tile.kind())] += 1;
        if red_of(tile) {
            t.seen_red |= 1 << tile.kind();
        }
        t.dora_tile = Some(tile);
        t.dora = Some(tile.kind());
    }
    let dora = t.dora;
    let mut result =
        HandResult { kind: None, wins: [None; MAX_PLAYERS - 1], discarder: None, turn: 0, stock_left: 0, mistakes: [0; MAX_PLAYERS] };
    let mut turn = setup.dealer;
    loop {
        if t.stock.left() == 0 {
            break;
        }
        let drawn = t.stock.draw();
        listen.hear(setup.hand, turn, Event::Draw, drawn);
        result.turn += 1;
        let ready = t.seats[turn].waits & (1 << drawn.kind()) != 0;
        t.seats[turn].add(drawn, rules.red_tiles);
        let me = t.seats[turn];
        let win = if ready { tsumo_win(me.state, me.red, dora, turn == setup.dealer, rules) } else { None };
        if win.is_none() && rules.mistake_rate > 0.0 && mistakes_rng.unit() < rules.mistake_rate {
            listen.hear(setup.hand, turn, Event::Mistake, drawn);
            scoring::settle_mistake(points, turn, rules);
            result.mistakes[turn] += 1;
        }
        if let Some(parts) = win {
            let offer = [Action::Tsumo, Action::Pass];
            if offer[decide(player, listen, &t, (turn, &me), points, Point::Tsumo { win: parts }, &offer)?] == Action::Tsumo {
                listen.hear(setup.hand, turn, Event::Tsumo, drawn);
                let received = scoring::settle_tsumo(points, turn, parts.score, rules);
                result.kind = Some(WinKind::Tsumo);
                result.wins[0] = Some(Win { seat: turn as u8, parts, received });
                result.stock_left = t.stock.left() as u8;
                break;
            }
        }
        let legal = discards(&me);
        let legal = &legal[..me.len];
        // `legal` is in the hand's order.
        let index = decide(player, listen, &t, (turn, &me), points, Point::Discard, legal)?;
        let tile = t.seats[turn].remove(index);
        listen.hear(setup.hand, turn, Event::Discard, tile);
        t.river[t.river_len] = tile;
        t.river_len += 1;
        let kind = tile.kind();
        t.seen[usize::from(kind)] += 1;
        if red_of(tile) {
            t.seen_red |= 1 << kind;
        }
        t.discarded[turn] |= 1 << kind;
        let tsumogiri = kind == drawn.kind() && red_of(tile) == red_of(drawn);
        t.streak[turn] = if tsumogiri { t.streak[turn].saturating_add(1) } else { 0 };

        if t.stock.left() > 0 || rules.last_discard_ron {
            let mut claims = [(0usize, 0u16); MAX_PLAYERS];
            let mut parts_of = [None; MAX_PLAYERS];
            let mut count = 0;
            for i in 1..n {
                let p = (turn + i) % n;
                let s = &t.seats[p];
                if s.waits & (1 << kind) == 0 {
                    continue;
                }
                let Some(parts) = ron_win(s.state, s.red, tile, t.discarded[p], dora, p == setup.dealer, rules) else {
                    continue;
                };
                let mut own = *s;
                own.add(tile, rules.red_tiles);
                let offer = [Action::Ron, Action::Pass];
                if offer[decide(player, listen, &t, (p, &own), points, Point::Ron { win: parts }, &offer)?] == Action::Ron {
                    listen.hear(setup.hand, p, Event::Ron, tile);
                    claims[count] = (p, parts.score);
                    parts_of[count] = Some(parts);
                    count += 1;
                    if rules.multi_ron == MultiRon::HeadBump {
                        break;
                    }
                }
            }
            if count > 0 {
                let received = scoring::settle_ron(points, turn, &claims[..count], rules);
                for i in 0..count {
                    result.wins[i] = parts_of[i].map(|parts| Win { seat: claims[i].0 as u8, parts, received: received[i] });
                }
                result.kind = Some(WinKind::Ron);
                result.discarder = Some(turn as u8);
                result.stock_left = t.stock.left() as u8;
                break;
            }
        }
        turn = (turn + 1) % n;
    }
    debug_assert!(
        t.conserved(),
        "tiles not conserved: hands {:?}, discards {:?}, stock left {}",
        &t.seats[..n],
        &t.river[..t.river_len],
        t.stock.left()
    );
    Ok(result)
}

/// The first dealer of a game: keyed by the deal, so duplicate tables and variants agree.
pub fn first_dealer(seed: u64, deal: u64, players: usize) -> usize {
    Key::new(seed).with(TAG_DEALER).with(deal).stream().below(players as u64) as usize
}
