//! The wall (spec §3.3) and the dora (§4): the keyed shuffle of a hand's tiles, the deal, the
//! dead wall's replacement draws (after a kan or a nuki, each of which shortens the live wall) and
//! indicators, and the dora they make (kan dora, ura dora, nukidora).
//!
//! The wall is §3.3's linear model over the set's N tiles (136, or 108 with three players, plus
//! the flowers): `wall[0..dead]` is the live wall (deal from 0..13n, draws from 13n on),
//! `wall[dead..N]` the dead wall: R replacement tiles (4 for kans, one per flower, four more for
//! the sanma Norths), then the dora indicator and its ura, then each kan indicator and its ura.

use super::actions::wait_mask;
use super::rules::{KanDoraTiming, Rules};
use super::state::{Concealed, Event, EventKind, Progress, Seat, State, FLOWER, MAX_TILES, SEATS};
use super::tiles::{dora_successor, Kind, Tile, KINDS};
use super::{TAG_DICE, TAG_WALL};
use crate::rng::Key;

/// The North kind (sanma nukidora).
pub(super) const NORTH: Kind = 30;

/// The key of one hand's chance under `tag`: the deal, the round index, the honba and, for a hand
/// replayed after a chombo, the replay count (absent for the first play, so that walls without
/// chombo stay those of (deal, round, honba)).
fn hand_key(root: Key, tag: u64, deal: u64, progress: Progress) -> Key {
    let k = root.with(tag).with(deal).with(u64::from(progress.round)).with(u64::from(progress.honba));
    if progress.repeat > 0 {
        k.with(u64::from(progress.repeat))
    } else {
        k
    }
}

/// The wall of one hand: a pure function of the seed, the deal, the round index, the honba and
/// the replay count. The set's `rules.tile_count()` ids (without 2m–8m for three players, flowers
/// last) are shuffled in the first entries; the default set shuffles exactly as it always has.
pub fn wall(root: Key, deal: u64, progress: Progress, rules: &Rules) -> [u8; MAX_TILES] {
    let mut w = tile_set(rules);
    let n = rules.tile_count();
    hand_key(root, TAG_WALL, deal, progress).stream().shuffle(&mut w[..n]);
    w
}

/// The set's tile ids in id order (the first `rules.tile_count()` entries).
pub fn tile_set(rules: &Rules) -> [u8; MAX_TILES] {
    let mut w: [u8; MAX_TILES] = std::array::from_fn(|i| i as u8);
    if rules.players == 3 {
        // No 2m–8m (ids 4–31): the rest moves down, flowers included.
        w.copy_within(32.., 4);
    }
    w
}

/// The dealer's dice sum of one hand (used by `wareme`): keyed like the wall, with its own tag.
pub fn dice(root: Key, deal: u64, progress: Progress) -> u8 {
    let mut st = hand_key(root, TAG_DICE, deal, progress).stream();
    st.die() + st.die()
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

impl State<'_> {
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

    /// A tile became visible (flowers are not tracked).
    pub(super) fn see(&mut self, id: u8) {
        if id < FLOWER {
            self.seen[usize::from(id / 4)] += 1;
        }
    }

    /// A dora indicator was turned face up.
    fn show_indicator(&mut self, id: u8) {
        self.dora_ids[self.dora_shown - 1] = id;
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

    pub(super) fn reveal_dora(&mut self) {
        if self.rules.kan_dora && self.dora_shown < 5 {
            self.dora_shown += 1;
            let id = self.wall[self.indicator_at(self.dora_shown - 1)];
            self.show_indicator(id);
            self.log(None, EventKind::DoraIndicator, Some(id));
        }
    }

    pub(super) fn reveal_pending(&mut self) {
        while self.pending_dora > 0 {
            self.pending_dora -= 1;
            self.reveal_dora();
        }
    }

    pub(super) fn open_kan_dora(&mut self) {
        match self.rules.kan_dora_timing {
            KanDoraTiming::Classic => self.pending_dora += 1,
            KanDoraTiming::Immediate => self.reveal_dora(),
        }
    }

    /// Deals a hand from `wall` (the set's ids in wall order; `rules.tile_count()` of them) at
    /// `progress`.
    pub fn deal(&mut self, wall: &[u8], progress: Progress) {
        self.wall[..wall.len()].copy_from_slice(wall);
        self.progress = progress;
        self.dealer = (progress.round % self.n as u32) as u8;
        for (p, h) in self.p.iter_mut().zip(&mut self.hidden) {
            let points = p.points;
            let mut hand = std::mem::take(&mut h.hand);
            let mut melds = std::mem::take(&mut p.melds);
            let mut river = std::mem::take(&mut p.river);
            let mut nuki = std::mem::take(&mut p.nuki);
            hand.clear();
            melds.clear();
            river.clear();
            nuki.clear();
            *p = Seat { melds, river, nuki, points, ..Default::default() };
            *h = Concealed { hand, ..Default::default() };
        }
        let d = usize::from(self.dealer);
        let n = self.n;
        // In the order of the deal (hands keep their tiles in the order taken).
        for first in [0, 4, 8, 12] {
            for i in 0..n {
                for k in first..(first + 4).min(13) {
                    self.hidden[(d + i) % n].take(wall[dealt_at(n, i, k)]);
                }
            }
        }
        for h in &mut self.hidden[..n] {
            h.waits = wait_mask(&h.counts);
        }
        self.live_next = 13 * n;
        self.live_end = self.dead;
        self.rinshan_drawn = 0;
        self.kans = 0;
        self.kan_seats = [0; 4];
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
        self.daiminkan_from = None;
        self.wareme = None;
        let first_indicator = wall[self.indicator_at(0)];
        if let Some(ev) = &mut self.events {
            ev.clear();
            // The hand's start, so that a log alone rebuilds every hand (`simharness show`, export).
            ev.push(Event { seat: None, kind: EventKind::DoraIndicator, tile: Some(first_indicator) });
            for (s, h) in self.hidden[..n].iter().enumerate() {
                let flowers = (0..8).filter(|f| h.flowers_held >> f & 1 != 0).map(|f| FLOWER + f);
                ev.extend(h.hand.iter().copied().chain(flowers).map(|tile| Event {
                    seat: Some(s as u8),
                    kind: EventKind::Dealt,
                    tile: Some(tile),
                }));
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
            self.wareme = Some(((usize::from(self.dealer) + usize::from(sum) + self.n - 1) % self.n) as u8);
        }
    }

    pub(super) fn declare_kan(&mut self, seat: usize) {
        self.reveal_pending();
        // Only the replacement tile of the daiminkan itself falls under pao_daiminkan_rinshan.
        self.daiminkan_from = None;
        self.kan_seats[usize::from(self.kans)] = seat as u8;
        self.kans += 1;
        self.live_end -= 1;
        self.uninterrupted = false;
        self.clear_ippatsu();
        if self.kans == 4 && self.rules.abort_suukaikan && self.kan_seats[1..].iter().any(|&s| s != self.kan_seats[0]) {
            self.suukaikan_pending = true;
        }
    }

    pub(super) fn draw_rinshan(&mut self, seat: usize) -> u8 {
        let id = self.wall[self.rinshan_at(self.rinshan_drawn)];
        self.rinshan_drawn += 1;
        self.hidden[seat].take(id);
        self.log(Some(seat as u8), EventKind::ReplacementDraw, Some(id));
        id
    }

    /// Sets a flower or North aside (§1.4, §14 B): like a kan it takes a replacement tile and
    /// shortens the live wall, and it breaks the first go-around, but not ippatsu.
    pub(super) fn extract(&mut self, seat: usize, tile: u8) {
        let p = &mut self.p[seat];
        let h = &mut self.hidden[seat];
        if tile >= FLOWER {
            h.flowers_held &= !(1 << (tile - FLOWER));
        } else {
            h.remove(tile);
        }
        p.nuki.push(tile);
        self.see(tile);
        self.daiminkan_from = None;
        if self.live_end > self.live_next {
            self.live_end -= 1;
        }
        self.uninterrupted = false;
    }
}
