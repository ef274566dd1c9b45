//! One hand (局) from the deal to a win or an exhaustive draw (spec §3-§5, §7-§9).
//!
//! The stock has no order in the physical game (tiles are drawn at random from a spread), so a
//! hand reads its tiles by a lazy Fisher-Yates shuffle of the 44 tiles under the key
//! (seed, WALL, deal, hand): draw `i` is a pure function of that key and `i`, whatever the rules
//! or the strategies do. Every variant of an experiment therefore sees the same tiles in the same
//! order.

use super::actions::{ron_win, tsumo_win, View, WinKind};
use super::rules::{MultiRon, Rules};
use super::scoring::{self, Parts, State, Tables, Tile, KINDS, MAX_PLAYERS, TILES};
use super::strategies::Policy;
use crate::rng::{Key, Stream};

/// Key tags (per game, per purpose): tiles, first dealer, strategy randomness, mistakes.
pub const TAG_WALL: u64 = 0x535A_5741_4C4C; // "SZWALL"
pub const TAG_DEALER: u64 = 0x535A_4445_414C; // "SZDEAL"
pub const TAG_STRATEGY: u64 = 0x535A_5354_5241; // "SZSTRA"
pub const TAG_MISTAKE: u64 = 0x535A_4D49_5354; // "SZMIST"

/// The stock: a lazily shuffled set of the 44 tiles.
pub struct Stock {
    tiles: [Tile; TILES],
    next: usize,
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

#[derive(Debug, Clone, Copy)]
struct Seat {
    tiles: [Tile; 6],
    len: usize,
    state: State,
    red: u16,
    /// With 5 tiles: the kinds that complete the hand (a fast filter before the win checks).
    waits: u16,
}

impl Seat {
    /// `reds`: whether the set has red copies (rule `red_tiles`); without them a red copy is plain.
    fn add(&mut self, t: Tile, reds: bool) {
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
    fn refresh_waits(&mut self) {
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
    strategy: Key,
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

/// Decisions taken outside the seats' policies (a Python strategy) for the lineup slots it
/// claims; `None` lets the slot's policy decide. Native play uses [`NoHook`], which compiles away.
pub trait Hook {
    /// D1/D3: declare the win `parts` of `view.seat`, played by lineup slot `slot`?
    fn accept_win(&mut self, slot: u8, view: &View, parts: &Parts, kind: WinKind) -> Option<bool>;
    /// D2: the index in `view.hand` of the tile to discard.
    fn discard(&mut self, slot: u8, view: &View) -> Option<usize>;
    /// The hook has failed (its own error says why): the batch stops after the current game.
    fn failed(&self) -> bool {
        false
    }
    /// Hears everything that happens in hand `hand` (`seat` is [`NO_SEAT`] for the dora): how
    /// `show` logs a game. The default ignores it, so native play pays nothing.
    #[inline(always)]
    fn record(&mut self, _hand: u64, _seat: usize, _event: Event, _tile: Tile) {}
}

/// The seat of an event that belongs to no seat (the dora indicator).
pub const NO_SEAT: usize = u8::MAX as usize;

/// What [`Hook::record`] hears.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    /// A tile dealt to the seat.
    Dealt = 0,
    /// The dora indicator turned up.
    Dora = 1,
    /// A tile drawn.
    Draw = 2,
    /// A tile discarded.
    Discard = 3,
    /// The drawn tile declared as a tsumo win.
    Tsumo = 4,
    /// The discarded tile claimed for a ron win.
    Ron = 5,
    /// A mistaken win declared (mistake injection): the seat pays the penalty.
    Mistake = 6,
}

/// Every decision by the seats' policies.
pub struct NoHook;

impl Hook for NoHook {
    #[inline(always)]
    fn accept_win(&mut self, _: u8, _: &View, _: &Parts, _: WinKind) -> Option<bool> {
        None
    }
    #[inline(always)]
    fn discard(&mut self, _: u8, _: &View) -> Option<usize> {
        None
    }
}

/// The context of one hand.
pub struct HandSetup<'a> {
    pub rules: &'a Rules,
    pub policies: &'a [&'a Policy],
    /// Per seat, the lineup slot playing it (what a [`Hook`] is told).
    pub slots: [u8; MAX_PLAYERS],
    pub dealer: usize,
    pub keys: DealKeys,
    pub hand: u64,
}

/// Plays one hand and settles its payments into `points`.
pub fn play_hand(setup: &HandSetup, hook: &mut impl Hook, points: &mut [i64]) -> HandResult {
    let rules = setup.rules;
    let n = points.len();
    let tables = Tables::get();
    let mut stock = Stock::new(setup.keys.wall.with(setup.hand));
    let strategy_key = setup.keys.strategy.with(setup.hand);
    let mut rng: [Stream; MAX_PLAYERS] = std::array::from_fn(|s| strategy_key.with(s as u64).stream());
    let mut mistakes_rng = setup.keys.mistake.with(setup.hand).stream();

    let mut seats = [Seat { tiles: [Tile(0); 6], len: 0, state: 0, red: 0, waits: 0 }; MAX_PLAYERS];
    for i in 0..n {
        let s = (setup.dealer + i) % n;
        for _ in 0..5 {
            let t = stock.draw();
            hook.record(setup.hand, s, Event::Dealt, t);
            seats[s].add(t, rules.red_tiles);
        }
        seats[s].refresh_waits();
    }
    let red_of = |t: Tile| rules.red_tiles && t.is_red_number();
    let mut seen = [0u8; KINDS];
    let mut seen_red = 0u16;
    let dora_tile = rules.dora.then(|| stock.draw());
    let dora = if let Some(t) = dora_tile {
        hook.record(setup.hand, NO_SEAT, Event::Dora, t);
        seen[usize::from(t.kind())] += 1;
        if red_of(t) {
            seen_red |= 1 << t.kind();
        }
        Some(t.kind())
    } else {
        None
    };
    let mut discarded = [0u16; MAX_PLAYERS];
    let mut discard_ids = 0u64;
    // Every discard in order: discard `i` is by seat `(dealer + i) % n` (no calls interrupt the
    // turn order), so this is every river.
    let mut river = [Tile(0); TILES];
    let mut river_len = 0;
    let mut streak = [0u8; MAX_PLAYERS];
    let mut result =
        HandResult { kind: None, wins: [None; MAX_PLAYERS - 1], discarder: None, turn: 0, stock_left: 0, mistakes: [0; MAX_PLAYERS] };
    let mut turn = setup.dealer;
    loop {
        if stock.left() == 0 {
            break;
        }
        let t = stock.draw();
        hook.record(setup.hand, turn, Event::Draw, t);
        result.turn += 1;
        let ready = seats[turn].waits & (1 << t.kind()) != 0;
        seats[turn].add(t, rules.red_tiles);
        let me = seats[turn];
        let win = if ready { tsumo_win(me.state, me.red, dora, turn == setup.dealer, rules) } else { None };
        if win.is_none() && rules.mistake_rate > 0.0 && mistakes_rng.unit() < rules.mistake_rate {
            hook.record(setup.hand, turn, Event::Mistake, t);
            scoring::settle_mistake(points, turn, rules);
            result.mistakes[turn] += 1;
        }
        let view = View {
            seat: turn,
            players: n,
            dealer: setup.dealer,
            hand: &me.tiles[..me.len],
            state: me.state,
            red: me.red,
            seen: &seen,
            seen_red,
            discarded: &discarded,
            streak: &streak,
            dora,
            river: &river[..river_len],
            stock: stock.left(),
            points,
        };
        if let Some(parts) = win {
            let slot = setup.slots[turn];
            if hook
                .accept_win(slot, &view, &parts, WinKind::Tsumo)
                .unwrap_or_else(|| setup.policies[turn].accept_win(&view, &parts, WinKind::Tsumo))
            {
                hook.record(setup.hand, turn, Event::Tsumo, t);
                let received = scoring::settle_tsumo(points, turn, parts.score, rules);
                result.kind = Some(WinKind::Tsumo);
                result.wins[0] = Some(Win { seat: turn as u8, parts, received });
                result.stock_left = stock.left() as u8;
                break;
            }
        }
        let index = hook.discard(setup.slots[turn], &view).unwrap_or_else(|| setup.policies[turn].discard(&view, &mut rng[turn]));
        let tile = seats[turn].remove(index);
        hook.record(setup.hand, turn, Event::Discard, tile);
        river[river_len] = tile;
        river_len += 1;
        let kind = tile.kind();
        seen[usize::from(kind)] += 1;
        if red_of(tile) {
            seen_red |= 1 << kind;
        }
        discarded[turn] |= 1 << kind;
        discard_ids |= 1 << tile.0;
        let tsumogiri = kind == t.kind() && red_of(tile) == red_of(t);
        streak[turn] = if tsumogiri { streak[turn].saturating_add(1) } else { 0 };

        if stock.left() > 0 || rules.last_discard_ron {
            let mut claims = [(0usize, 0u16); MAX_PLAYERS];
            let mut parts_of = [None; MAX_PLAYERS];
            let mut count = 0;
            for i in 1..n {
                let p = (turn + i) % n;
                let s = seats[p];
                if s.waits & (1 << kind) == 0 {
                    continue;
                }
                let Some(parts) = ron_win(s.state, s.red, tile, discarded[p], dora, p == setup.dealer, rules) else {
                    continue;
                };
                let mut hand = s.tiles;
                hand[5] = tile;
                let view = View {
                    seat: p,
                    players: n,
                    dealer: setup.dealer,
                    hand: &hand,
                    state: tables.add(s.state, kind),
                    red: if red_of(tile) { s.red | 1 << kind } else { s.red },
                    seen: &seen,
                    seen_red,
                    discarded: &discarded,
                    streak: &streak,
                    dora,
                    river: &river[..river_len],
                    stock: stock.left(),
                    points,
                };
                if hook
                    .accept_win(setup.slots[p], &view, &parts, WinKind::Ron)
                    .unwrap_or_else(|| setup.policies[p].accept_win(&view, &parts, WinKind::Ron))
                {
                    hook.record(setup.hand, p, Event::Ron, tile);
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
                result.stock_left = stock.left() as u8;
                break;
            }
        }
        turn = (turn + 1) % n;
    }
    debug_assert!(
        conserved(&seats[..n], discard_ids, &stock, dora_tile),
        "tiles not conserved: hands {:?}, discards {discard_ids:#x}, stock left {}",
        &seats[..n],
        stock.left()
    );
    result
}

/// Every one of the 44 tiles is in exactly one place: a hand, a discard row, the stock or the
/// dora slot.
fn conserved(seats: &[Seat], discard_ids: u64, stock: &Stock, dora: Option<Tile>) -> bool {
    let places = seats.iter().flat_map(|s| &s.tiles[..s.len]).chain(&stock.tiles[stock.next..]).chain(dora.as_ref()).map(|t| 1u64 << t.0);
    let (mut union, mut count) = (discard_ids, discard_ids.count_ones());
    for bit in places {
        union |= bit;
        count += 1;
    }
    union == (1u64 << TILES) - 1 && count == TILES as u32
}

/// The first dealer of a game: keyed by the deal, so duplicate tables and variants agree.
pub fn first_dealer(seed: u64, deal: u64, players: usize) -> usize {
    Key::new(seed).with(TAG_DEALER).with(deal).stream().below(players as u64) as usize
}
