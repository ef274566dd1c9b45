//! The cards of one hand (§3) and, below, one hand from the deal to a win or an exhaustive draw.
//!
//! Keyed chance: hand `h` of deal `d` shuffles its 54 cards lazily under (seed, WALL, d, h), with
//! `h` counting the hands that were not voided and `/r` added for the `r`-th replay of a hand
//! voided by a chombo (`batch::hand_key`). The first 21 draws are the hands (7 each, the dealer
//! first), the next 9 the dead wall (top first), and the live stack is read on from there: draw `i`
//! is a pure function of the key and `i`, whatever the strategies or rule variants do, so variants
//! and duplicate tables see the same cards. Mistakes read (seed, MISTAKE, d, h[/r]), one draw per
//! draw that does not win.

use super::scoring::{Card, CARDS, JOKER};
use crate::rng::{Key, Stream};

pub const TAG_WALL: u64 = 0x5452_5741_4C4C; // "TRWALL"
pub const TAG_DEALER: u64 = 0x5452_4445_414C; // "TRDEAL"
pub const TAG_STRATEGY: u64 = 0x5452_5354_5241; // "TRSTRA"
pub const TAG_MISTAKE: u64 = 0x5452_4D49_5354; // "TRMIST"

pub const HAND: usize = 7;
pub const DEAD: usize = 9;
pub const LIVE: usize = 24;

/// The 54 cards of one hand: a lazily shuffled deck.
#[cfg_attr(test, derive(Clone))]
pub struct Wall {
    cards: [Card; CARDS],
    next: usize,
    stream: Stream,
    /// The dead wall, top first.
    pub dead: [Card; DEAD],
    /// Dead-wall cards turned from the top (indicators and Jokers moved out of play, A4).
    top: usize,
    /// Replacements taken from the bottom (A6).
    bottom: usize,
}

impl Wall {
    /// Deals: returns the wall with the 3 hands of 7 (index 0 the dealer's) taken.
    pub fn deal(key: Key) -> (Self, [[Card; HAND]; 3]) {
        let mut w =
            Wall { cards: std::array::from_fn(|i| Card(i as u8)), next: 0, stream: key.stream(), dead: [Card(0); DEAD], top: 0, bottom: 0 };
        let hands = std::array::from_fn(|_| std::array::from_fn(|_| w.take()));
        w.dead = std::array::from_fn(|_| w.take());
        (w, hands)
    }

    fn take(&mut self) -> Card {
        let j = self.next + self.stream.below((CARDS - self.next) as u64) as usize;
        self.cards.swap(self.next, j);
        self.next += 1;
        self.cards[self.next - 1]
    }

    /// Live cards left.
    pub fn live(&self) -> usize {
        CARDS - self.next
    }

    /// Draws from the live stack (the caller checks [`Wall::live`]).
    pub fn draw(&mut self) -> Card {
        self.take()
    }

    /// Turns the next indicator from the top of the dead wall; Jokers turned on the way go out of
    /// play (A4). Returns the indicator and the Jokers moved out; `None` when the dead wall is
    /// exhausted by replacements.
    pub fn indicator(&mut self) -> Option<(Card, u8)> {
        let mut jokers = 0;
        while self.top + self.bottom < DEAD {
            let c = self.dead[self.top];
            self.top += 1;
            if c.kind() != JOKER {
                return Some((c, jokers));
            }
            jokers += 1;
        }
        None
    }

    /// A replacement for a set-aside Joker, from the bottom of the dead wall (A6).
    pub fn replacement(&mut self) -> Option<Card> {
        (self.top + self.bottom < DEAD).then(|| {
            self.bottom += 1;
            self.dead[DEAD - self.bottom]
        })
    }

    /// Dead-wall cards turned from the top: indicators and Jokers put out of play.
    pub fn turned(&self) -> &[Card] {
        &self.dead[..self.top]
    }

    /// Dead-wall cards not yet turned or taken.
    pub fn dead_left(&self) -> &[Card] {
        &self.dead[self.top..DEAD - self.bottom]
    }

    /// Live cards not yet drawn.
    pub fn live_left(&self) -> &[Card] {
        &self.cards[self.next..]
    }

    /// The cards no seat has seen: the live cards not yet drawn and the dead-wall cards not yet
    /// turned or taken (the hidden-information test deals them again).
    #[cfg(test)]
    pub(super) fn unseen_mut(&mut self) -> (&mut [Card], &mut [Card]) {
        (&mut self.cards[self.next..], &mut self.dead[self.top..DEAD - self.bottom])
    }
}

use super::actions::{after_discards, Action, Legal, Point, View};
use super::hand::{self, Riichi, Situation, Value};
use super::rules::{Furiten, MultiRon, Rules};
use super::scoring::pack_counts;
use super::scoring::{self, dora_of, Counts, KINDS, PLAYERS};
use super::strategies::Table7;
use super::Trump;
use crate::decide::{ask, Player, PlayerError};

/// Hears what happens in a hand besides the decisions (`simharness show`): native play hears
/// nothing ([`Silent`]).
pub trait Log {
    /// Hears every card dealt, drawn, set aside, turned or discarded and every win; `seat` is
    /// [`NO_SEAT`] for a dead-wall card turned up.
    fn record(&mut self, hand: u16, seat: usize, event: Event, card: Card);
    /// Hears each win's value and what each seat pays `winner` for it (sticks apart).
    fn won(&mut self, hand: u16, winner: usize, value: &Value, pay: &[i64; PLAYERS]);
    /// Test seam: sees the whole table at every decision, before the player is asked with `view`
    /// (the test that hidden information never changes a decision).
    #[cfg(test)]
    fn asked(&mut self, _table: &Table<'_>, _view: &View<'_>, _point: Point, _legal: &[Action]) {}
}

/// The seat of an event that belongs to no seat (a dead-wall card turned up).
pub const NO_SEAT: usize = 255;

crate::code_enum! {
    /// What [`Log::record`] hears: the `kind` codes of the `events` table of `show.rs`.
    pub enum Event {
        /// A card dealt to the seat.
        Dealt = "dealt",
        /// The dora indicator turned up from the dead wall.
        Dora = "dora",
        /// A Joker turned up as an indicator and put out of play (A4).
        JokerOut = "joker_out",
        /// A card drawn from the live stack.
        Draw = "draw",
        /// A Joker set aside by the seat (D1/D6).
        SetAside = "set_aside",
        /// A replacement drawn from the bottom of the dead wall for a Joker set aside.
        Replacement = "replacement",
        /// A card discarded.
        Discard = "discard",
        /// A card discarded with a riichi declaration (the stick goes to the pool).
        Riichi = "riichi",
        /// The riichi declaration discard was ronned (A12), or the hand was voided by a chombo: the
        /// declaration never stood, the stick returns.
        RiichiVoid = "riichi_void",
        /// The card completing the hand declared as a tsumo win.
        Tsumo = "tsumo",
        /// The discard claimed for a ron win.
        Ron = "ron",
        /// The ura-dora indicator turned up for a riichi winner.
        Ura = "ura",
        /// A false tsumo declared on the card just drawn (mistake injection, `mistake_rate`): the hand
        /// is void, its riichi sticks return and the offender pays `chombo_penalty` to each opponent.
        Chombo = "chombo",
    }
}

/// Hears nothing: native play.
pub struct Silent;

impl Log for Silent {
    #[inline(always)]
    fn record(&mut self, _: u16, _: usize, _: Event, _: Card) {}
    #[inline(always)]
    fn won(&mut self, _: u16, _: usize, _: &Value, _: &[i64; PLAYERS]) {}
}

/// The yes/no points' legal actions, yes first.
const KEEP: [Action; 2] = [Action::Keep, Action::SetAside];
const TSUMO: [Action; 2] = [Action::Tsumo, Action::Pass];
const RON: [Action; 2] = [Action::Ron, Action::Pass];

/// One player's cards and status in a hand.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Seat {
    pub(super) cards: [Card; 8],
    pub(super) len: usize,
    pub(super) counts: Counts,
    aside: u8,
    pub(super) riichi: Riichi,
    /// The discard that declared `riichi`.
    riichi_card: Card,
    ippatsu: bool,
    drawn: bool,
    /// Furiten rule 2 (until the own next discard) and rule 3 (after riichi, for the hand).
    pub(super) furiten_temp: bool,
    pub(super) furiten_riichi: bool,
}

impl Seat {
    pub(super) fn add(&mut self, c: Card) {
        self.cards[self.len] = c;
        self.len += 1;
        self.counts[usize::from(c.kind())] += 1;
    }

    fn remove(&mut self, index: usize) -> Card {
        let c = self.cards[index];
        self.len -= 1;
        self.cards.copy_within(index + 1..=self.len, index);
        self.counts[usize::from(c.kind())] -= 1;
        c
    }
}

/// One win of a hand.
#[derive(Debug, Clone, Copy)]
pub struct Win {
    pub seat: u8,
    pub value: Value,
    /// The winner's 8 cards and the circumstances: enough to score the win again.
    pub counts: Counts,
    pub situation: Situation,
    /// Riichi sticks collected (points).
    pub sticks: i64,
}

/// How a hand ended.
#[derive(Debug, Clone, Copy, Default)]
pub struct HandResult {
    /// Winners: one for tsumo or head-bump ron, up to two for double ron (turn order).
    pub wins: [Option<Win>; 2],
    pub tsumo: bool,
    pub discarder: Option<u8>,
    /// Live draws taken when it ended.
    pub turn: u16,
    /// The dealer keeps the deal (won, or tenpai at the exhaustive draw).
    pub dealer_keeps: bool,
    pub dealer_tenpai: bool,
    /// Per seat: declared riichi (and it stood), Jokers set aside.
    pub riichi: [bool; PLAYERS],
    pub jokers: [u8; PLAYERS],
    /// Jokers that came up as an indicator and went out of play (A4).
    pub indicator_jokers: u8,
    /// The seat that declared a false tsumo (chombo): the hand is void and replayed.
    pub chombo: Option<u8>,
}

/// The context of one hand.
pub struct HandSetup<'a> {
    pub rules: &'a Rules,
    pub dealer: usize,
    pub round_wind: u8,
    /// Hand index within the game (what the event log is keyed by).
    pub hand: u16,
    pub wall: Key,
    /// Mistake injection: one draw per draw that does not win, while `mistake_rate` > 0.
    pub mistakes: Key,
}

/// The whole table of one hand: what the engine knows, of which each seat's [`View`] shows it
/// its own part and the public part.
#[cfg_attr(test, derive(Clone))]
pub struct Table<'a> {
    pub(super) setup: &'a HandSetup<'a>,
    pub(super) seats: [Seat; PLAYERS],
    pub(super) wall: Wall,
    seen: [u8; KINDS],
    discarded: [u16; PLAYERS],
    after_riichi: [u16; PLAYERS],
    dora: Option<u8>,
    /// The ura-dora once turned (`Some(None)`: the dead wall had no card left for it): one
    /// indicator per hand, so both riichi winners of a double ron read the same card (A6).
    ura: Option<Option<u8>>,
    river: Pile<LIVE>,
    /// Jokers set aside.
    out: Pile<2>,
}

/// Cards that left the hands (the river, the Jokers set aside), kept on the stack: a hand
/// allocates nothing.
#[cfg_attr(test, derive(Clone))]
struct Pile<const N: usize> {
    cards: [Card; N],
    len: usize,
}

impl<const N: usize> Pile<N> {
    fn new() -> Self {
        Pile { cards: [Card(0); N], len: 0 }
    }

    fn push(&mut self, c: Card) {
        self.cards[self.len] = c;
        self.len += 1;
    }

    fn as_slice(&self) -> &[Card] {
        &self.cards[..self.len]
    }
}

impl Table<'_> {
    /// What `seat` sees when it decides holding `hand` (its cards, or at D5 its cards and the
    /// discard) counted by `counts`.
    pub(super) fn view<'b>(&'b self, seat: usize, hand: &'b [Card], counts: Counts, points: &'b [i64; PLAYERS], pool: i64) -> View<'b> {
        View {
            seat,
            dealer: self.setup.dealer,
            hand,
            counts,
            seen: &self.seen,
            discarded: &self.discarded,
            discarded_after_riichi: &self.after_riichi,
            riichi: std::array::from_fn(|p| self.seats[p].riichi != Riichi::None),
            aside: std::array::from_fn(|p| self.seats[p].aside),
            dora: self.dora,
            seat_wind: self.seat_wind(seat),
            round_wind: self.setup.round_wind,
            live: self.wall.live(),
            points,
            pool,
            after: None,
        }
    }

    /// Asks the player of `view`'s seat for one of `legal` at `point`.
    fn ask(
        &self,
        players: &mut dyn Player<Trump>,
        _log: &mut impl Log,
        view: &View<'_>,
        point: Point,
        legal: &[Action],
    ) -> Result<Action, PlayerError> {
        #[cfg(test)]
        _log.asked(self, view, point, legal);
        ask(players, view, point, legal)
    }

    fn seat_wind(&self, seat: usize) -> u8 {
        scoring::EAST + ((seat + PLAYERS - self.setup.dealer) % PLAYERS) as u8
    }

    fn situation(&self, seat: usize, win: u8, tsumo: bool, first_turn: bool) -> Situation {
        let s = &self.seats[seat];
        Situation {
            win,
            tsumo,
            riichi: s.riichi,
            ippatsu: s.ippatsu,
            first_turn,
            dealer: seat == self.setup.dealer,
            seat_wind: self.seat_wind(seat),
            round_wind: self.setup.round_wind,
            dora: self.dora,
            ura: None,
            jokers_aside: s.aside,
        }
    }

    /// Turns the next indicator up (`event`: the dora or the ura-dora), telling `log` of it and of
    /// the Jokers turned on the way; `None` when the dead wall is exhausted (see [`Wall::indicator`]).
    fn indicator(&mut self, log: &mut impl Log, event: Event) -> Option<(Card, u8)> {
        let before = self.wall.turned().len();
        let turned = self.wall.indicator();
        for &c in &self.wall.turned()[before..] {
            log.record(self.setup.hand, NO_SEAT, if c.kind() == JOKER { Event::JokerOut } else { event }, c);
        }
        turned
    }

    /// Handles Jokers in `seat`'s hand (D1, D6): set aside (mandatory after riichi or when the
    /// rules forbid keeping) and replaced from the dead wall, again while replacements are Jokers.
    fn jokers(
        &mut self,
        seat: usize,
        players: &mut dyn Player<Trump>,
        log: &mut impl Log,
        points: &[i64; PLAYERS],
        pool: i64,
    ) -> Result<(), PlayerError> {
        loop {
            let s = self.seats[seat];
            // After riichi only the card just drawn is looked at: a Joker kept before riichi stays
            // in the hand (A5), a drawn one must be set aside (§4.2).
            let i = if s.riichi == Riichi::None {
                s.cards[..s.len].iter().position(|c| c.kind() == JOKER)
            } else {
                (s.len > 0 && s.cards[s.len - 1].kind() == JOKER).then(|| s.len - 1)
            };
            let Some(i) = i else { return Ok(()) };
            if s.riichi == Riichi::None && self.setup.rules.joker_keep_allowed {
                let view = self.view(seat, &s.cards[..s.len], s.counts, points, pool);
                if self.ask(players, log, &view, Point::KeepJoker, &KEEP)? == Action::Keep {
                    return Ok(());
                }
            }
            let Some(r) = self.wall.replacement() else { return Ok(()) };
            let j = self.seats[seat].remove(i);
            log.record(self.setup.hand, seat, Event::SetAside, j);
            log.record(self.setup.hand, seat, Event::Replacement, r);
            self.out.push(j);
            self.seats[seat].aside += 1;
            self.seats[seat].add(r);
        }
    }
}

/// Plays one hand, each decision asked of `players`, and settles its payments into `points` and
/// the riichi `pool`; a player's error stops it.
pub fn play_hand(
    setup: &HandSetup,
    players: &mut dyn Player<Trump>,
    log: &mut impl Log,
    points: &mut [i64; PLAYERS],
    pool: &mut i64,
) -> Result<HandResult, PlayerError> {
    let rules = setup.rules;
    let (wall, hands) = Wall::deal(setup.wall);
    let mut t = Table {
        setup,
        seats: [Seat::default(); PLAYERS],
        wall,
        seen: [0; KINDS],
        discarded: [0; PLAYERS],
        after_riichi: [0; PLAYERS],
        dora: None,
        ura: None,
        river: Pile::new(),
        out: Pile::new(),
    };
    let mut result = HandResult::default();
    for (i, hand) in hands.iter().enumerate() {
        let s = (setup.dealer + i) % PLAYERS;
        for &c in hand {
            t.seats[s].add(c);
            log.record(setup.hand, s, Event::Dealt, c);
        }
    }
    if let Some((ind, jokers)) = t.indicator(log, Event::Dora) {
        t.dora = dora_of(ind.kind());
        t.seen[usize::from(ind.kind())] += 1;
        t.seen[usize::from(JOKER)] += jokers;
        result.indicator_jokers = jokers;
    }
    let mut mistakes = setup.mistakes.stream();
    for i in 0..PLAYERS {
        t.jokers((setup.dealer + i) % PLAYERS, players, log, points, *pool)?;
    }
    let mut turn = setup.dealer;
    'hand: while t.wall.live() > 0 {
        let first = !t.seats[turn].drawn;
        t.seats[turn].drawn = true;
        let c = t.wall.draw();
        log.record(setup.hand, turn, Event::Draw, c);
        result.turn += 1;
        t.seats[turn].add(c);
        t.jokers(turn, players, log, points, *pool)?;
        let me = t.seats[turn];
        let win_kind = me.cards[me.len - 1].kind();
        // D2: a complete hand after the draw.
        let s = t.situation(turn, win_kind, true, first);
        // The table's waits of the 7 cards besides the last drawn one filter out most draws.
        // (A kept Joker completing kokushi is not among the waits of a hand without one, A16.)
        let ready =
            win_kind == JOKER || Table7::get().info(pack_counts(&me.counts) - (1u64 << (4 * win_kind))).waits & (1 << win_kind) != 0;
        let value = ready.then(|| hand::tsumo(&me.counts, &s, rules).ok()).flatten();
        if let Some(value) = value {
            let view = t.view(turn, &me.cards[..me.len], me.counts, points, *pool);
            if t.ask(players, log, &view, Point::Tsumo(value), &TSUMO)? == Action::Tsumo {
                log.record(setup.hand, turn, Event::Tsumo, me.cards[me.len - 1]);
                let win = t.settle(turn, me.counts, s, None, points, pool, log);
                result.wins[0] = Some(win);
                result.tsumo = true;
                break 'hand;
            }
        } else if rules.mistake_rate > 0.0 && (mistakes.next_u64() as f64) < rules.mistake_rate * 2f64.powi(64) {
            log.record(setup.hand, turn, Event::Chombo, me.cards[me.len - 1]);
            t.chombo(turn, log, points, pool);
            result.chombo = Some(turn as u8);
            break 'hand;
        }
        // D3/D4: the discard; after riichi, the card drawn.
        let seat = &mut t.seats[turn];
        seat.ippatsu = false;
        seat.furiten_temp = false;
        let (card, riichi) = if me.riichi != Riichi::None {
            (me.cards[me.len - 1], false)
        } else {
            let riichi_legal = points[turn] >= i64::from(rules.riichi_cost) && t.wall.live() >= 1;
            let after = after_discards(&me.counts);
            let view = View { after: Some(&after), ..t.view(turn, &me.cards[..me.len], me.counts, points, *pool) };
            let legal = Legal::discards(view.hand, &after, riichi_legal);
            let Action::Discard { card, riichi } = t.ask(players, log, &view, Point::Discard, legal.as_slice())? else {
                unreachable!("every legal action at a discard is a discard")
            };
            (card, riichi)
        };
        let index = me.cards[..me.len].iter().position(|&c| c == card).expect("a legal discard is in the hand");
        t.seats[turn].remove(index);
        let kind = card.kind();
        log.record(setup.hand, turn, if riichi { Event::Riichi } else { Event::Discard }, card);
        if riichi {
            let seat = &mut t.seats[turn];
            seat.riichi = if first { Riichi::Double } else { Riichi::Single };
            seat.riichi_card = card;
            seat.ippatsu = true;
            points[turn] -= i64::from(rules.riichi_cost);
            *pool += i64::from(rules.riichi_cost);
        } else if t.seats[turn].riichi != Riichi::None {
            t.after_riichi[turn] |= 1 << kind;
        }
        t.river.push(card);
        t.seen[usize::from(kind)] += 1;
        t.discarded[turn] |= 1 << kind;
        // D5: the ron window.
        if t.wall.live() > 0 || rules.last_discard_ron {
            let mut claims = [None; 2];
            let mut n = 0;
            for i in 1..PLAYERS {
                let p = (turn + i) % PLAYERS;
                let s = t.seats[p];
                if Table7::get().info(pack_counts(&s.counts)).waits & (1 << kind) == 0 {
                    continue;
                }
                let mut c8 = s.counts;
                c8[usize::from(kind)] += 1;
                let sit = t.situation(p, kind, false, !s.drawn);
                let legal = if s.furiten_temp || s.furiten_riichi { None } else { hand::ron(&s.counts, &sit, t.discarded[p], rules).ok() };
                let yes = match legal {
                    Some(value) => {
                        let mut hand = s.cards;
                        hand[7] = card;
                        let view = t.view(p, &hand, c8, points, *pool);
                        t.ask(players, log, &view, Point::Ron(value), &RON)? == Action::Ron
                    }
                    None => false,
                };
                if yes && (n == 0 || rules.multi_ron == MultiRon::Double) {
                    claims[n] = Some((p, c8, sit));
                    n += 1;
                } else if !yes && rules.furiten == Furiten::Standard {
                    t.seats[p].furiten_temp = true;
                    t.seats[p].furiten_riichi |= s.riichi != Riichi::None;
                }
            }
            if n > 0 {
                if riichi {
                    // A12: the declaration discard was ronned, so the riichi never stood.
                    t.seats[turn].riichi = Riichi::None;
                    points[turn] += i64::from(rules.riichi_cost);
                    *pool -= i64::from(rules.riichi_cost);
                }
                for (i, claim) in claims.iter().take(n).enumerate() {
                    let (p, c8, sit) = claim.expect("claimed");
                    log.record(setup.hand, p, Event::Ron, card);
                    result.wins[i] = Some(t.settle(p, c8, sit, Some(turn), points, pool, log));
                }
                if riichi {
                    // Told after the wins that void it (the stick was returned before the payments).
                    log.record(setup.hand, turn, Event::RiichiVoid, card);
                }
                result.discarder = Some(turn as u8);
                break 'hand;
            }
        }
        turn = (turn + 1) % PLAYERS;
    }
    let dealer = setup.dealer;
    result.dealer_tenpai = result.wins[0].is_none() && result.chombo.is_none() && {
        let s = &t.seats[dealer];
        s.len == 7 && hand::waits(&s.counts) != 0
    };
    result.dealer_keeps = result.dealer_tenpai || result.wins.iter().flatten().any(|w| usize::from(w.seat) == dealer);
    for p in 0..PLAYERS {
        result.riichi[p] = t.seats[p].riichi != Riichi::None;
        result.jokers[p] = t.seats[p].aside;
    }
    debug_assert!(t.conserved(), "cards not conserved");
    Ok(result)
}

impl Table<'_> {
    /// Pays the win of `seat` with the 8 cards `counts` and collects the sticks if it declared riichi.
    #[allow(clippy::too_many_arguments)]
    fn settle(
        &mut self,
        seat: usize,
        counts: Counts,
        mut s: Situation,
        discarder: Option<usize>,
        points: &mut [i64; PLAYERS],
        pool: &mut i64,
        log: &mut impl Log,
    ) -> Win {
        let rules = self.setup.rules;
        if s.riichi != Riichi::None {
            if self.ura.is_none() {
                self.ura = Some(self.indicator(log, Event::Ura).and_then(|(c, _)| dora_of(c.kind())));
            }
            s.ura = self.ura.flatten();
        }
        let value = hand::best(&counts, &s, rules).expect("a declared win is complete");
        let pay = scoring::payments(value.points, seat, self.setup.dealer, discarder, rules);
        log.won(self.setup.hand, seat, &value, &pay);
        for (p, &amount) in pay.iter().enumerate() {
            points[p] -= amount;
            points[seat] += amount;
        }
        let sticks = if s.riichi != Riichi::None { std::mem::take(pool) } else { 0 };
        points[seat] += sticks;
        Win { seat: seat as u8, value, counts, situation: s, sticks }
    }

    /// A false tsumo by `offender` voids the hand: this hand's riichi sticks go back to their
    /// declarers (their declarations never stood, as in riichi mahjong's chombo; `log` hears
    /// each as [`Event::RiichiVoid`] of its declaration discard) and the offender pays
    /// `chombo_penalty` to each opponent.
    fn chombo(&mut self, offender: usize, log: &mut impl Log, points: &mut [i64; PLAYERS], pool: &mut i64) {
        let cost = i64::from(self.setup.rules.riichi_cost);
        for (p, seat) in self.seats.iter_mut().enumerate().filter(|(_, s)| s.riichi != Riichi::None) {
            seat.riichi = Riichi::None;
            points[p] += cost;
            *pool -= cost;
            log.record(self.setup.hand, p, Event::RiichiVoid, seat.riichi_card);
        }
        let penalty = i64::from(self.setup.rules.chombo_penalty);
        for p in (0..PLAYERS).filter(|&p| p != offender) {
            points[p] += penalty;
            points[offender] -= penalty;
        }
    }

    /// Every one of the 54 cards is in exactly one place: a hand, the river, set aside, turned
    /// from the dead wall (indicators and Jokers out of play), the dead wall or the live stack.
    pub fn conserved(&self) -> bool {
        let places = self
            .seats
            .iter()
            .flat_map(|s| &s.cards[..s.len])
            .chain(self.river.as_slice())
            .chain(self.out.as_slice())
            .chain(self.wall.turned())
            .chain(self.wall.dead_left())
            .chain(self.wall.live_left());
        let (mut union, mut count) = (0u64, 0);
        for card in places {
            union |= 1 << card.0;
            count += 1;
        }
        union == (1 << CARDS) - 1 && count == CARDS
    }
}
