//! One hand of Hong Kong mahjong, from the dice and the deal to a win, an exhaustive draw or a
//! false win (spec §3-§6): the keys of its chance, the table, the own turn (a self-drawn win,
//! kongs, the discard) and the hand's record. The wall, the deal and the draws are in `wall.rs`, a
//! discard and the claims on it in `claims.rs`.
//!
//! Tiles are physical ids: `kind * 4 + copy` for the 136 suit and honour tiles, then 136-139 the
//! flowers 1-4 and 140-143 the seasons 1-4.

use super::actions::{Action, Claim, Legal, Point, View};
use super::claims::{claim, discard_winners, settle_discard, Won};
use super::hand::{evaluate, Hand, HkMeld, Replacement, Value, WinContext};
use super::rules::{ChanceRecipe, EarthlyHand, Rules};
use super::scoring::{bao_payer, false_win, payments, Claimed};
use super::wall::{build_wall, DEAD_WALL};
use super::HongKong;
use crate::decide::{ask, Player, PlayerError};
use crate::games::riichi::tiles::{Counts, Kind, MeldKind, KINDS};
use crate::games::riichi::{accept, shanten};
use crate::rng::{Key, Stream};

/// Key tags (ASCII), keyed seed / tag / deal / hand (then the seat, for a strategy's draws), as in
/// the other games.
pub const TAG_WALL: u64 = 0x484B_5741_4C4C; // "HKWALL"
pub const TAG_DICE: u64 = 0x484B_4449_4345; // "HKDICE"
pub const TAG_STRATEGY: u64 = 0x484B_5354_5241; // "HKSTRA"
pub const TAG_MISTAKE: u64 = 0x484B_4D49_5354; // "HKMIST"

/// The keys of one hand's chance: the wall's shuffle, the three dice that break it, the random
/// choices of each seat's strategy and mistake injection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HandKeys {
    pub wall: Key,
    pub dice: Key,
    pub strategy: Key,
    pub mistake: Key,
}

impl HandKeys {
    /// Hand `hand` of deal `deal` under experiment seed `seed`: with `named`, each key is
    /// `seed / TAG / deal / hand`; with `numeric` (the recipe of earlier releases) it is
    /// `seed / deal / hand / n` with n = 1 wall, 2 dice, 3 strategy, 4 mistake.
    pub fn new(recipe: ChanceRecipe, seed: u64, deal: u64, hand: u64) -> Self {
        let root = Key::new(seed);
        let [wall, dice, strategy, mistake] = match recipe {
            ChanceRecipe::Named => [TAG_WALL, TAG_DICE, TAG_STRATEGY, TAG_MISTAKE].map(|tag| root.with(tag).with(deal).with(hand)),
            ChanceRecipe::Numeric => {
                let key = root.with(deal).with(hand);
                [1, 2, 3, 4].map(|n| key.with(n))
            }
        };
        HandKeys { wall, dice, strategy, mistake }
    }

    /// The random choices of seat `seat`'s strategy.
    pub fn strategy(&self, seat: u8) -> Stream {
        self.strategy.with(u64::from(seat)).stream()
    }
}

/// The answers of a yes/no point.
pub(super) const YES_NO: [Action; 2] = [Action::Pass, Action::Win];

/// A winner: its seat, the hand and circumstances it won with, and their value.
#[derive(Debug, Clone, PartialEq)]
pub struct Winner {
    pub seat: u8,
    pub hand: Hand,
    pub ctx: WinContext,
    pub value: Value,
    /// The 包 guarantor who pays this win alone (the `bao` option), if any.
    pub liable: Option<u8>,
}

/// How a hand ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    Draw,
    /// `discarder` for a discard win or a robbed kong.
    Win {
        winners: Vec<Winner>,
        discarder: Option<u8>,
        robbed: bool,
    },
    FalseWin {
        offender: u8,
    },
}

/// The record of a hand.
#[derive(Debug, Clone)]
pub struct HandResult {
    pub outcome: Outcome,
    pub delta: [i64; 4],
    /// Live-wall draws taken.
    pub draws: u16,
    pub live_left: u8,
    pub dice: u8,
    /// Claimed sets per seat (chow, pung, exposed kong).
    pub claims: [u8; 4],
    pub bonus: [u8; 4],
    /// Complete hands under the minimum (wins refused by the rules), per seat.
    pub refused: [u16; 4],
    /// Tiles accounted for at the end: hands, melds, discards left on the table, bonus tiles
    /// and the unused wall (conservation check).
    pub tiles_accounted: u16,
    /// Every event of the hand in order when `HandSetup::log` asked for them (`simharness show`),
    /// else empty.
    pub events: Vec<HandEvent>,
}

crate::code_enum! {
    /// What happened at one moment of a hand: the `kind` codes of the `events` table of `show.rs`.
    pub enum Happening {
        Dealt = "dealt",
        Draw = "draw",
        /// A tile from the dead wall, for a bonus tile or a kong.
        Replacement = "replacement",
        Discard = "discard",
        Chow = "chow",
        Pung = "pung",
        /// An exposed kong claimed on a discard.
        Kong = "kong",
        ConcealedKong = "concealed_kong",
        /// The fourth tile added to an exposed pung.
        AddedKong = "added_kong",
        SelfDrawWin = "self_draw_win",
        DiscardWin = "discard_win",
        RobbedKongWin = "robbed_kong_win",
        /// A false win declared (mistake injection).
        FalseWin = "false_win",
    }
}

/// One event: `tile` is a kind 0-33, or 34-37 the flowers 1-4 and 38-41 the seasons 1-4; `from`
/// the seat whose discard (or added kong) was claimed or won on; `base` a chow's lowest kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HandEvent {
    pub seat: u8,
    pub what: Happening,
    pub tile: u8,
    pub from: Option<u8>,
    pub base: Kind,
}

#[derive(Clone)]
pub(super) struct Seat {
    pub(super) hand: Counts,
    pub(super) melds: Vec<HkMeld>,
    pub(super) flowers: u8,
    pub(super) seasons: u8,
    /// The sets claimed from discards, in order (for 包).
    claimed: Vec<Claimed>,
    /// The wait set of the concealed tiles it was found for (`Waits::hand`): every discard is
    /// checked for a win by three seats and every draw by one, and a seat's concealed tiles
    /// change only on its own turn, so one wait set answers all those checks.
    waits: Waits,
}

/// The kinds that complete `hand` (3n+1 concealed tiles), 0 unless it is ready.
#[derive(Clone)]
struct Waits {
    hand: Counts,
    waits: u64,
}

impl Waits {
    /// Matches no hand (no hand holds 255 tiles of a kind).
    const NONE: Waits = Waits { hand: [u8::MAX; KINDS], waits: 0 };

    fn of(hand: &Counts) -> Waits {
        let (shanten, accepting) = accept::accepting(hand);
        Waits { hand: *hand, waits: if shanten == 0 { accepting } else { 0 } }
    }
}

pub struct HandSetup<'a> {
    pub rules: &'a Rules,
    pub dealer: u8,
    pub round_wind: u8,
    /// The hand's index in its game (what players see).
    pub hand: u16,
    pub keys: HandKeys,
    /// The game's points before this hand (what players see).
    pub points: [i64; 4],
    /// Record every event (`simharness show`); native play leaves it off.
    pub log: bool,
}

/// One hand in play: the wall, from `next` (the live wall's next draw) to `end` (past the dead
/// wall's next replacement), and every seat.
#[derive(Clone)]
pub(super) struct Table<'a> {
    pub(super) rules: &'a Rules,
    pub(super) wall: Vec<u16>,
    pub(super) next: usize,
    pub(super) end: usize,
    pub(super) seats: [Seat; 4],
    visible: Counts,
    rivers: [Vec<Kind>; 4],
    discards_left: u16,
    pub(super) draws: u16,
    dealer: u8,
    round_wind: u8,
    hand: u16,
    points: [i64; 4],
    refused: [u16; 4],
    events: Option<Vec<HandEvent>>,
    /// Test seam: sees the whole table at every decision, before the player is asked (the test
    /// that hidden information never changes a decision).
    #[cfg(test)]
    pub(super) probe: ProbeSlot<'a>,
}

/// What [`Table::probe`] is called with: the table, the deciding seat, the seat answered, the
/// point, the win on offer and the legal actions.
#[cfg(test)]
pub(super) type Probe<'a> = dyn FnMut(&Table<'_>, u8, u8, Point, Option<&Value>, &[Action]) + 'a;

/// The probe of a table; a copy of the table has none.
#[cfg(test)]
#[derive(Default)]
pub(super) struct ProbeSlot<'a>(pub Option<&'a mut Probe<'a>>);

#[cfg(test)]
impl Clone for ProbeSlot<'_> {
    fn clone(&self) -> Self {
        ProbeSlot(None)
    }
}

pub(super) fn kind_of(id: u16) -> Option<Kind> {
    (id < 136).then_some((id / 4) as Kind)
}

impl Table<'_> {
    /// Writes an event down when the hand is logged.
    pub(super) fn note(&mut self, seat: u8, what: Happening, tile: u8, from: Option<u8>) {
        self.note_meld(seat, what, tile, from, tile);
    }

    fn note_meld(&mut self, seat: u8, what: Happening, tile: u8, from: Option<u8>, base: Kind) {
        if let Some(ev) = &mut self.events {
            ev.push(HandEvent { seat, what, tile, from, base });
        }
    }

    pub(super) fn live(&self) -> usize {
        self.end - DEAD_WALL - self.next
    }

    /// What seat `s` sees while seat `turn` draws, discards or adds to a kong, with the value of
    /// the win on offer at a win point.
    pub(super) fn view<'t>(&'t self, s: u8, turn: u8, win: Option<&'t Value>) -> View<'t> {
        let seat = &self.seats[usize::from(s)];
        View {
            rules: self.rules,
            seat: s,
            dealer: self.dealer,
            round_wind: self.round_wind,
            hand: self.hand,
            turn,
            concealed: &seat.hand,
            melds: &seat.melds,
            all_melds: std::array::from_fn(|i| self.seats[i].melds.as_slice()),
            exposed: std::array::from_fn(|i| self.seats[i].melds.iter().filter(|m| m.kind != MeldKind::Ankan).count() as u8),
            visible: &self.visible,
            rivers: &self.rivers,
            bonus: std::array::from_fn(|i| (self.seats[i].flowers, self.seats[i].seasons)),
            points: self.points,
            live: self.live().min(255) as u8,
            win,
        }
    }

    /// Asks seat `s`'s player (answering seat `turn`) at `point` among `legal`, refusing an
    /// answer outside it.
    pub(super) fn ask(
        &mut self,
        players: &mut dyn Player<HongKong>,
        s: u8,
        turn: u8,
        point: Point,
        win: Option<&Value>,
        legal: &[Action],
    ) -> Result<Action, PlayerError> {
        #[cfg(test)]
        if let Some(probe) = self.probe.0.take() {
            probe(self, s, turn, point, win, legal);
            self.probe.0 = Some(probe);
        }
        ask(players, &self.view(s, turn, win), point, legal)
    }

    /// `last_tile`: the win is on the last live-wall tile or the discard that follows it (F6).
    pub(super) fn context(&self, s: u8, self_draw: bool, last_tile: bool) -> WinContext {
        let seat = &self.seats[usize::from(s)];
        WinContext {
            self_draw,
            seat_wind: (s + 4 - self.dealer) % 4,
            round_wind: self.round_wind,
            flowers: seat.flowers,
            seasons: seat.seasons,
            last_tile,
            ..WinContext::default()
        }
    }

    /// Whether `win` completes `hand` less that tile (the standard form, seven pairs or thirteen
    /// orphans, as the shanten tables see them), from seat `s`'s wait set of those tiles.
    fn completes(&mut self, s: u8, hand: &Counts, win: Kind) -> bool {
        let mut before = *hand;
        before[usize::from(win)] -= 1;
        let waits = &mut self.seats[usize::from(s)].waits;
        if waits.hand != before {
            *waits = Waits::of(&before);
        }
        waits.waits >> win & 1 == 1
    }

    /// The legal win of seat `s` holding `hand` (winning kind included); a complete hand under
    /// the minimum is counted as refused.
    pub(super) fn win_value(&mut self, s: u8, hand: &Counts, win: Kind, ctx: &WinContext) -> Option<Winner> {
        // Cheap rejection: the wait set covers every shape but the unrelated hands, the
        // bonus-tile wins and seven pairs with four of a kind.
        let flower_win = ctx.flowers.count_ones() + ctx.seasons.count_ones() >= 7;
        if !flower_win && !self.rules.seven_pairs_allow_four && !self.completes(s, hand, win) {
            let seat = &self.seats[usize::from(s)];
            if !(seat.melds.is_empty() && self.rules.unrelated_hands && super::hand::unrelated(hand).is_some()) {
                return None;
            }
        }
        let seat = &self.seats[usize::from(s)];
        let h = Hand { concealed: *hand, melds: seat.melds.clone(), win };
        let v = evaluate(self.rules, &h, ctx)?;
        if v.legal(self.rules) {
            let liable = bao_payer(self.rules, &seat.claimed, &v);
            Some(Winner { seat: s, hand: h, ctx: *ctx, value: v, liable })
        } else {
            self.refused[usize::from(s)] += 1;
            None
        }
    }

    fn discard_from(&mut self, s: u8, k: Kind) {
        let seat = &mut self.seats[usize::from(s)];
        debug_assert!(seat.hand[usize::from(k)] > 0);
        // A native player has just weighed this discard: its wait set is at hand.
        let waits = accept::known_waits_after(&seat.hand, usize::from(k));
        seat.hand[usize::from(k)] -= 1;
        if let Some(waits) = waits {
            seat.waits = Waits { hand: seat.hand, waits };
        }
        self.visible[usize::from(k)] += 1;
        self.rivers[usize::from(s)].push(k);
        self.discards_left += 1;
        self.note(s, Happening::Discard, k, None);
    }

    fn accounted(&self) -> u16 {
        let seats: u32 = self
            .seats
            .iter()
            .map(|s| {
                let melds: u32 = s.melds.iter().map(|m| m.tiles().count() as u32).sum();
                s.hand.iter().map(|&n| u32::from(n)).sum::<u32>() + melds + s.flowers.count_ones() + s.seasons.count_ones()
            })
            .sum();
        (seats + u32::from(self.discards_left) + (self.end - self.next) as u32) as u16
    }
}

/// Plays one hand, asking `players` for every seat's decisions.
pub fn play_hand(setup: &HandSetup, players: &mut dyn Player<HongKong>) -> Result<HandResult, PlayerError> {
    play(setup, players, |_| {})
}

/// [`play_hand`] with `probe` seeing the table at every decision.
#[cfg(test)]
pub(super) fn play_hand_probed(
    setup: &HandSetup,
    players: &mut dyn Player<HongKong>,
    probe: &mut Probe<'_>,
) -> Result<HandResult, PlayerError> {
    play(setup, players, |t| t.probe.0 = Some(probe))
}

/// Plays one hand on the table that `seam` has seen once dealt.
fn play<'a>(
    setup: &HandSetup<'a>,
    players: &mut dyn Player<HongKong>,
    seam: impl FnOnce(&mut Table<'a>),
) -> Result<HandResult, PlayerError> {
    let rules = setup.rules;
    let (wall, dice) = build_wall(rules, &setup.keys);
    let end = wall.len();
    let seat = || Seat { hand: [0; KINDS], melds: Vec::new(), flowers: 0, seasons: 0, claimed: Vec::new(), waits: Waits::NONE };
    let mut t = Table {
        rules,
        wall,
        next: 0,
        end,
        seats: [seat(), seat(), seat(), seat()],
        visible: [0; KINDS],
        rivers: Default::default(),
        discards_left: 0,
        draws: 0,
        dealer: setup.dealer,
        round_wind: setup.round_wind,
        hand: setup.hand,
        points: setup.points,
        refused: [0; 4],
        events: setup.log.then(Vec::new),
        #[cfg(test)]
        probe: ProbeSlot::default(),
    };
    seam(&mut t);
    t.deal(setup.dealer);
    let mut mistakes = setup.keys.mistake.stream();
    let result = |t: &Table, outcome: Outcome, delta: [i64; 4], dice: u8| HandResult {
        outcome,
        delta,
        draws: t.draws,
        live_left: t.live().min(255) as u8,
        dice,
        claims: std::array::from_fn(|s| t.seats[s].claimed.len() as u8),
        bonus: std::array::from_fn(|s| (t.seats[s].flowers.count_ones() + t.seats[s].seasons.count_ones()) as u8),
        refused: t.refused,
        tiles_accounted: t.accounted(),
        events: t.events.clone().unwrap_or_default(),
    };
    let mut cur = setup.dealer;
    // The kind just drawn by `cur` and how (None: no draw this turn, as after a pung or chow).
    let mut drawn: Option<(Kind, Replacement)> = None;
    // F6 (§8.1) is the last *live-wall* tile and the discard right after it: a replacement from
    // the dead wall that empties the live wall (through the replenishment of §3) is not it, nor
    // is a discard made after a claim on the last discard.
    let took_last_live = |t: &Table, drawn: Option<(Kind, Replacement)>| t.live() == 0 && matches!(drawn, Some((_, Replacement::None)));
    let mut first_turn = true;
    let mut kong_chain = 0u8;
    let mut any_claim = false;
    loop {
        // Own turn: win, kongs, then a discard.
        let s = usize::from(cur);
        if drawn.is_some() || first_turn {
            let win = drawn.map_or_else(|| (0..KINDS as Kind).rev().find(|&k| t.seats[s].hand[usize::from(k)] > 0).unwrap_or(0), |d| d.0);
            let mut ctx = t.context(cur, true, took_last_live(&t, drawn));
            ctx.replacement = drawn.map_or(Replacement::None, |d| d.1);
            ctx.heavenly = first_turn && cur == setup.dealer;
            // The riichi-style 地和 is a win on the first draw itself, not on a kong's replacement.
            ctx.earthly =
                rules.earthly_hand_def == EarthlyHand::Riichi && !any_claim && t.draws <= 3 && cur != setup.dealer && kong_chain == 0;
            ctx.kong_on_kong = kong_chain >= 2;
            let hand = t.seats[s].hand;
            if let Some(w) = t.win_value(cur, &hand, win, &ctx) {
                if t.ask(players, cur, cur, Point::SelfDraw { tile: win }, Some(&w.value), &YES_NO)? == Action::Win {
                    t.note(cur, Happening::SelfDrawWin, win, None);
                    let d = payments(rules, setup.dealer, cur, None, w.liable, w.value.base);
                    return Ok(result(&t, Outcome::Win { winners: vec![w], discarder: None, robbed: false }, whole(d), dice));
                }
            } else if rules.mistake_rate > 0.0 && drawn.is_some() && (mistakes.next_u64() as f64) < rules.mistake_rate * 2f64.powi(64) {
                t.note(cur, Happening::FalseWin, win, None);
                return Ok(result(&t, Outcome::FalseWin { offender: cur }, whole(false_win(rules, cur)), dice));
            }
            // Kongs: four in hand, or the fourth tile of an exposed pung.
            let seat = &t.seats[s];
            let added = seat.melds.iter().filter(|m| m.kind == MeldKind::Pon && seat.hand[usize::from(m.base)] > 0);
            // Four in hand: among the kinds held twice or more, a few at most.
            let pairs = shanten::summary(&seat.hand).pairs;
            let fours = accept::Bits(pairs).filter(|&k| seat.hand[k] == 4).fold(0u64, |b, k| b | 1 << k);
            let kongs = added.fold(fours, |b, m| b | 1 << m.base);
            if kongs != 0 && t.live() > 0 {
                let mut legal = Legal::per_kind(kongs, Action::Kong);
                legal.push(Action::Pass);
                if let Action::Kong(k) = t.ask(players, cur, cur, Point::Kong, None, legal.as_slice())? {
                    let added = t.seats[s].hand[usize::from(k)] < 4;
                    let what = if added { Happening::AddedKong } else { Happening::ConcealedKong };
                    t.note(cur, what, k, None);
                    if added {
                        // Robbing the kong (§5.3): others may win on the added tile.
                        let winners = discard_winners(&mut t, players, cur, k, Won::RobbedKong)?;
                        if !winners.is_empty() {
                            return Ok(settle_discard(&mut t, winners, cur, true, setup.dealer, dice, &result));
                        }
                        let seat = &mut t.seats[s];
                        seat.hand[usize::from(k)] -= 1;
                        let m = seat.melds.iter_mut().find(|m| m.kind == MeldKind::Pon && m.base == k).expect("checked above");
                        m.kind = MeldKind::Daiminkan;
                    } else {
                        t.seats[s].hand[usize::from(k)] = 0;
                        t.seats[s].melds.push(HkMeld { kind: MeldKind::Ankan, base: k });
                    }
                    t.visible[usize::from(k)] += if added { 1 } else { 4 };
                    let Some(id) = t.draw_replacement() else { break };
                    let Some((k, _)) = t.draw_for(cur, id, Happening::Replacement) else { break };
                    drawn = Some((k, Replacement::Kong));
                    kong_chain += 1;
                    first_turn = false;
                    continue;
                }
            }
        }
        first_turn = false;
        kong_chain = 0;
        let last_discard = took_last_live(&t, drawn);
        let legal = Legal::discards(&t.seats[s].hand);
        let Action::Discard(k) = t.ask(players, cur, cur, Point::Discard, None, legal.as_slice())? else {
            unreachable!("a discard point offers discards only, and ask refuses anything else")
        };
        t.discard_from(cur, k);
        let dealer_first = cur == setup.dealer && t.draws == 0 && !any_claim;
        let earthly = rules.earthly_hand_def == EarthlyHand::Hk && dealer_first;
        let winners = discard_winners(&mut t, players, cur, k, Won::Discard { earthly, last: last_discard })?;
        if !winners.is_empty() {
            return Ok(settle_discard(&mut t, winners, cur, false, setup.dealer, dice, &result));
        }
        let Some((c, cl)) = claim(&mut t, players, cur, k)? else {
            // No claim: the next player draws.
            cur = (cur + 1) % 4;
            let Some(id) = t.draw_live() else { break };
            let Some((k, replaced)) = t.draw_for(cur, id, Happening::Draw) else { break };
            drawn = Some((k, if replaced { Replacement::Bonus } else { Replacement::None }));
            continue;
        };
        any_claim = true;
        t.discards_left -= 1;
        t.visible[usize::from(k)] -= 1;
        let seat = &mut t.seats[usize::from(c)];
        seat.hand[usize::from(k)] += 1;
        let meld = match cl {
            Claim::Kong => HkMeld { kind: MeldKind::Daiminkan, base: k },
            Claim::Pung => HkMeld { kind: MeldKind::Pon, base: k },
            Claim::Chow { base } => HkMeld { kind: MeldKind::Chi, base },
        };
        seat.claimed.push(Claimed { base: meld.base, chow: meld.kind == MeldKind::Chi, from: cur });
        for x in meld.tiles() {
            seat.hand[usize::from(x)] -= 1;
            t.visible[usize::from(x)] += 1;
        }
        t.seats[usize::from(c)].melds.push(meld);
        let what = match cl {
            Claim::Kong => Happening::Kong,
            Claim::Pung => Happening::Pung,
            Claim::Chow { .. } => Happening::Chow,
        };
        t.note_meld(c, what, k, Some(cur), meld.base);
        cur = c;
        drawn = None;
        if cl == Claim::Kong {
            let Some(id) = t.draw_replacement() else { break };
            let Some((k, _)) = t.draw_for(cur, id, Happening::Replacement) else { break };
            drawn = Some((k, Replacement::Kong));
            kong_chain = 1;
        }
    }
    Ok(result(&t, Outcome::Draw, [0; 4], dice))
}

/// Point changes as whole points (the rules ensure payments are whole, see `Rules::validate`).
pub(super) fn whole(d: [f64; 4]) -> [i64; 4] {
    d.map(|x| x.round() as i64)
}
