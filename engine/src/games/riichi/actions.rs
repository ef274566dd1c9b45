//! Decision points and legal actions (spec §5–§8): what a seat may do on its own turn (discards,
//! riichi, tsumo, kans, nuki, kyuushu) and in the response window (ron, chankan, pon, chi,
//! daiminkan), with kuikae, furiten and the riichi fouls; and what a seat sees when it decides.
//!
//! Riichi on the decision contract ([`crate::decide`]): the engine asks a
//! [`Player<Riichi>`](Player) at each decision point with the seat's [`View`] and the complete
//! list of legal actions, and accepts only one of them: an answer that is not in the list is a
//! [`Fault::Illegal`], never silently played. A seat decides on its own turn (after a draw or a
//! call), in the response window after a discard or an added kan, and at three yes/no points
//! decided by knobs in the built-in strategies: a noten claim at an exhaustive draw, showing an
//! accepted riichi, and the dealer's yame.

use super::agari;
use super::rules::*;
use super::shanten;
use super::state::{bit, Concealed, Progress, Robbed, Seat, State, FLOWER, POCCHI, SEATS};
use super::tiles::{Counts, Kind, MeldKind, KINDS, YAOCHU};
use super::wall::NORTH;
use super::Riichi;
use crate::decide::{Decisions, Fault, Player, PlayerError};

/// One action. Tiles are Tenhou ids 0–135 (kind = id / 4; flowers 136–143); a red five is a
/// distinct id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    /// Discard the tile; `riichi` declares riichi with it.
    Discard {
        tile: u8,
        riichi: bool,
    },
    Tsumo,
    /// Concealed kan of four tiles of `kind`.
    Ankan {
        kind: u8,
    },
    /// Add the tile `tile` to the own pon of its kind.
    Kakan {
        tile: u8,
    },
    /// 九種九牌 abortive draw.
    Kyuushu,
    /// Let the discard (or kan tile) pass.
    Pass,
    Ron,
    /// Pon with these two tiles from the hand.
    Pon {
        tiles: [u8; 2],
    },
    /// Chi with these two tiles from the hand.
    Chi {
        tiles: [u8; 2],
    },
    /// Open kan on the discard with the three tiles of its kind in the hand.
    Daiminkan,
    /// Set aside a flower (id 136+) or a sanma North (nukidora) and draw a replacement tile.
    Nuki {
        tile: u8,
    },
    /// At [`Point::Noten`]: claim noten though tenpai.
    DeclareNoten,
    /// At [`Point::OpenRiichi`]: show the hand.
    OpenRiichi,
    /// At [`Point::Yame`]: end the game.
    Yame,
}

impl Action {
    /// A call on a discard (pon, chi, daiminkan).
    pub fn is_call(self) -> bool {
        matches!(self, Action::Pon { .. } | Action::Chi { .. } | Action::Daiminkan)
    }
}

/// Where a decision is asked. The yes/no points offer `[Pass, yes]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Point {
    /// The seat's own turn; `after_call` = right after a chi or pon (discard only).
    Turn { after_call: bool },
    /// A discard by `from`; `kan` = the tile of an added kan (chankan) or of an ankan (kokushi).
    Response { from: u8, tile: u8, kan: bool },
    /// Under `allow_noten_declaration`, at an exhaustive draw: the seat, tenpai and not in riichi,
    /// may claim noten ([`Action::DeclareNoten`]). The seats show in turn order from the dealer;
    /// `shown` holds those before this one that showed tenpai (bit per seat; the others before it
    /// are noten, those after it have not shown yet).
    Noten { shown: u8 },
    /// Under local yaku `open_riichi`: the seat's riichi has just been accepted; it may show the
    /// hand (オープンリーチ, [`Action::OpenRiichi`]).
    OpenRiichi,
    /// Under `agari_yame`/`tenpai_yame = choice`, after the hand: the dealer may end the game
    /// ([`Action::Yame`]).
    Yame,
}

impl Point {
    /// The point's name in messages and in the Python protocol's view (`point`).
    pub fn name(self) -> &'static str {
        match self {
            Point::Turn { .. } => "turn",
            Point::Response { .. } => "response",
            Point::Noten { .. } => "noten",
            Point::OpenRiichi => "open_riichi",
            Point::Yame => "yame",
        }
    }
}

impl Decisions for Riichi {
    type View<'a> = View<'a>;
    type Point = Point;
    type Action = Action;

    fn seat(view: &View<'_>) -> usize {
        view.seat
    }

    fn point_name(point: Point) -> &'static str {
        point.name()
    }
}

/// The concealed tiles of a seat whose riichi is open (shown to everyone), and their waits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shown<'a> {
    pub hand: &'a [u8],
    pub waits: u64,
}

/// What one seat may know when it decides: its own concealed part and everything public. It holds
/// no reference to the wall (the dead wall and ura indicators included) or to another seat's
/// concealed tiles, so no strategy can read them:
///
/// ```
/// use simharness_engine::games::riichi::actions::View;
/// fn own_tiles(v: &View<'_>) -> usize {
///     v.own.hand.len() + v.seats[v.seat].melds.len() * 3
/// }
/// ```
///
/// ```compile_fail
/// use simharness_engine::games::riichi::actions::View;
/// fn next_draw(v: &View<'_>) -> u8 {
///     v.wall[0]
/// }
/// ```
///
/// ```compile_fail
/// use simharness_engine::games::riichi::actions::View;
/// fn left_hand(v: &View<'_>) -> usize {
///     v.hidden[(v.seat + 3) % 4].hand.len()
/// }
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct View<'a> {
    pub rules: &'a Rules,
    /// The deciding seat.
    pub seat: usize,
    /// Seats at the table (3 or 4).
    pub n: usize,
    /// The deciding seat's concealed part.
    pub own: &'a Concealed,
    /// Every seat as everyone sees it (melds, river, riichi, points, extracted tiles).
    pub seats: &'a [Seat; SEATS],
    /// The hands shown by an open riichi (local yaku `open_riichi`); `None` for the other seats.
    pub shown: [Option<Shown<'a>>; SEATS],
    pub progress: Progress,
    pub dealer: u8,
    /// Visible copies of each kind: rivers, exposed melds, dora indicators (with three players
    /// the absent 2m–8m count as seen).
    pub seen: &'a Counts,
    /// Dora indicators shown that point at each kind.
    pub dora_count: &'a Counts,
    /// Ids of the dora indicators shown (flowers included).
    pub dora_indicators: &'a [u8],
    /// Discard kinds that passed since each seat's riichi, bit per kind.
    pub safe_after_riichi: &'a [u64; SEATS],
    pub live_remaining: usize,
    /// Discards made in the hand.
    pub discards: u32,
    /// No call (ankan included) yet in this hand.
    pub uninterrupted: bool,
    /// The wareme seat (none without wareme).
    pub wareme: Option<u8>,
}

impl View<'_> {
    pub fn is_red(&self, id: u8) -> bool {
        self.rules.is_red(id)
    }

    pub fn round_wind(&self) -> Kind {
        self.progress.round_wind(self.n)
    }

    pub fn seat_wind(&self, seat: usize) -> Kind {
        self.progress.seat_wind(seat, self.n)
    }

    /// Copies of each kind neither in the own hand nor visible.
    pub fn unseen(&self) -> Counts {
        std::array::from_fn(|k| 4u8.saturating_sub(self.own.counts[k] + self.seen[k]))
    }

    /// [`riichi_foul`] from this seat's view.
    pub fn riichi_foul(&self, c: &Counts, river: u64, extra: Option<Kind>) -> bool {
        riichi_foul(self.rules, self.seen, c, river, extra)
    }

    /// Every seat's points.
    pub fn points(&self) -> [i64; SEATS] {
        self.seats.each_ref().map(|p| p.points)
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

/// Whether a riichi on the 13 tiles `c` with own discard kinds `river` is a foul under the
/// rules: furiten (furiten_riichi = chombo), or every wait used up from the player's own view —
/// own hand, everything visible (`seen`), and `extra` (a discard about to be made) — (kara_riichi_chombo).
pub fn riichi_foul(rules: &Rules, seen: &Counts, c: &Counts, river: u64, extra: Option<Kind>) -> bool {
    let furiten = rules.furiten_riichi == FuritenRiichi::Chombo;
    if !furiten && !rules.kara_riichi_chombo {
        return false;
    }
    let waits = wait_mask(c);
    if furiten && river & waits != 0 {
        return true;
    }
    rules.kara_riichi_chombo && !(0..KINDS).any(|k| waits & bit(k as u8) != 0 && c[k] + seen[k] + u8::from(extra == Some(k as Kind)) < 4)
}

/// The kinds 5m, 5p and 5s, bit per kind.
const FIVES: u64 = 1 << 4 | 1 << 13 | 1 << 22;

impl State<'_> {
    /// Whether `seat` may ron `tile`: the wait and furiten test inline (it settles nearly every
    /// response), the rest out of line.
    #[inline(always)]
    fn can_ron(&self, seat: usize, tile: u8, chankan: bool, ankan: bool) -> bool {
        let p = &self.p[seat];
        let h = &self.hidden[seat];
        if h.waits & bit(tile / 4) == 0 || h.furiten(p.river_kinds) || p.forfeit {
            return false;
        }
        self.can_ron_waiting(seat, tile, chankan, ankan)
    }

    #[inline(never)]
    fn can_ron_waiting(&self, seat: usize, tile: u8, chankan: bool, ankan: bool) -> bool {
        let p = &self.p[seat];
        let h = &self.hidden[seat];
        if ankan {
            let mut c = h.counts;
            c[usize::from(tile / 4)] += 1;
            if !(self.rules.kokushi_rob_ankan && p.melds.is_empty() && agari::is_kokushi(&c)) {
                return false;
            }
        }
        self.score_win(seat, tile, false, false, chankan).is_ok()
    }

    /// Pushes one discard per distinct (kind, red) of the hand, minus `forbidden` kinds.
    fn push_discards(&mut self, seat: usize, forbidden: u64, riichi_ok: bool) {
        let after = if riichi_ok { super::accept::after_discards(&self.hidden[seat].counts) } else { [i8::MAX; KINDS] };
        let mut done = 0u64;
        let mut red_done = 0u64;
        let n = self.hidden[seat].hand.len();
        for i in 0..n {
            let id = self.hidden[seat].hand[i];
            let k = id / 4;
            if forbidden & bit(k) != 0 {
                continue;
            }
            // Only fives can be red: the rules are asked about those alone.
            let red = FIVES & bit(k) != 0 && self.is_red(id);
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
        let h = &self.hidden[seat];
        if p.melds.is_empty() || self.rules.karaten == Karaten::AlwaysTenpai {
            // A kind held four times in the hand alone is no wait already (wait_mask).
            return true;
        }
        let mut c = h.counts;
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
        let h = &self.hidden[seat];
        if h.flowers_held != 0 {
            return Some(Action::Nuki { tile: FLOWER + h.flowers_held.trailing_zeros() as u8 });
        }
        if self.live_remaining() == 0 || !self.rules.north_nuki() || h.counts[usize::from(NORTH)] == 0 {
            return None;
        }
        if p.riichi {
            return (drawn / 4 == NORTH).then_some(Action::Nuki { tile: drawn });
        }
        h.hand.iter().find(|&&t| t / 4 == NORTH).map(|&tile| Action::Nuki { tile })
    }

    /// Legal actions of `seat`'s own turn; `drawn` is the tile just drawn (none after a call).
    pub(super) fn turn_actions(&mut self, seat: usize, drawn: Option<u8>, rinshan: bool) {
        self.legal.clear();
        let Some(drawn) = drawn else {
            let forbidden = self.hidden[seat].kuikae;
            self.push_discards(seat, forbidden, false);
            return;
        };
        let p = &self.p[seat];
        let h = &self.hidden[seat];
        if p.forfeit {
            // A flower cannot be discarded: it is extracted even by a player out of the hand.
            let a = if drawn >= FLOWER { self.nuki_action(seat, drawn) } else { None };
            self.legal.push(a.unwrap_or(Action::Discard { tile: drawn, riichi: false }));
            return;
        }
        // On a wall draw the waits kept since the last discard are those of the hand before the
        // draw; after a kan they are stale.
        let complete = if rinshan { shanten::shanten(&h.counts) == -1 } else { h.waits & bit(drawn / 4) != 0 };
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
        let h = &self.hidden[seat];
        if self.rules.abort_kyuushu && self.uninterrupted && !p.discarded {
            let kinds = YAOCHU.iter().filter(|&&k| h.counts[usize::from(k)] > 0).count();
            if kinds >= 9 {
                self.legal.push(Action::Kyuushu);
            }
        }
        if self.kan_allowed() {
            if p.riichi {
                let k = drawn / 4;
                if drawn < FLOWER && h.counts[usize::from(k)] == 4 && self.riichi_ankan_ok(seat, k) {
                    self.legal.push(Action::Ankan { kind: k });
                }
            } else {
                // Only kinds held twice or more can be quads: a few, not all 34, every turn.
                for k in super::accept::Bits(shanten::summary(&h.counts).pairs) {
                    if h.counts[k] == 4 {
                        self.legal.push(Action::Ankan { kind: k as Kind });
                    }
                }
                for m in &p.melds {
                    if m.kind != MeldKind::Pon {
                        continue;
                    }
                    let k = m.base();
                    if let Some(&t) = h.hand.iter().find(|&&t| t / 4 == k) {
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
            if self.hidden[seat].waits & bit(k) == 0 {
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
        let h = &self.hidden[seat];
        match self.rules.riichi_ankan {
            RiichiAnkan::Forbidden => false,
            rule => {
                let mut c = h.counts;
                c[usize::from(k)] = 0;
                if wait_mask(&c) != h.waits {
                    return false;
                }
                if rule == RiichiAnkan::Strict {
                    // Every reading of every winning hand must hold the kind as a triplet.
                    let mut before = h.counts;
                    before[usize::from(k)] -= 1;
                    let melds = 4 - p.melds.len();
                    let mut decs = Vec::new();
                    for w in 0..KINDS {
                        if h.waits & bit(w as u8) == 0 {
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
    pub(super) fn kuikae_mask(&self, tile: u8, own: [u8; 2], chi: bool) -> u64 {
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

    /// Legal responses of `seat` to `tile` discarded by `from` (or added, ankan'd or extracted
    /// when `kan`).
    pub(super) fn response_actions(&mut self, seat: usize, from: usize, tile: u8, kan: Option<Robbed>) {
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
        let h = &self.hidden[seat];
        // Kinds held after the call's own tiles leave: the caller must keep a legal discard.
        let keeps = |own: [u8; 2], forbidden: u64| {
            let mut left = shanten::summary(&h.counts).held;
            for (i, &t) in own.iter().enumerate() {
                let j = usize::from(t / 4);
                let used = 1 + u8::from(i == 1 && own[0] / 4 == t / 4);
                if h.counts[j] <= used {
                    left &= !(1 << j);
                }
            }
            left & !forbidden != 0
        };
        // Filled before the pushes: `legal` is borrowed mutably only then. At most three pons
        // (by red count), a daiminkan and 3 × 2 × 2 chis.
        let mut options = [Action::Pass; 16];
        let mut n = 0;
        if h.counts[ku] >= 2 {
            // One pon per distinct number of red fives among the two hand tiles used.
            let mut ids = [0u8; 4];
            let mut m = 0;
            for &t in h.hand.iter().filter(|&&t| t / 4 == k) {
                ids[m] = t;
                m += 1;
            }
            let forbidden = self.kuikae_mask(tile, [tile, tile], false);
            let mut reds_done = 0u8;
            for i in 0..m {
                for j in i + 1..m {
                    let pair = [ids[i], ids[j]];
                    let reds = u8::from(self.is_red(pair[0])) + u8::from(self.is_red(pair[1]));
                    if reds_done & 1 << reds == 0 {
                        reds_done |= 1 << reds;
                        if keeps(pair, forbidden) {
                            options[n] = Action::Pon { tiles: pair };
                            n += 1;
                        }
                    }
                }
            }
            if h.counts[ku] == 3 && self.kan_allowed() {
                options[n] = Action::Daiminkan;
                n += 1;
            }
        }
        if self.n == 4 && seat == (from + 1) % SEATS && k < 27 {
            // One tile per distinct red/plain variant of `kind` in the hand, in hand order.
            let variants = |kind: u8| -> ([u8; 2], usize) {
                let (mut v, mut m) = ([0u8; 2], 0);
                for &t in &h.hand {
                    if t / 4 == kind && !v[..m].iter().any(|&u| self.is_red(u) == self.is_red(t)) {
                        v[m] = t;
                        m += 1;
                    }
                }
                (v, m)
            };
            let r = i16::from(k % 9);
            for (a, b) in [(-2i16, -1i16), (-1, 1), (1, 2)] {
                if r + a < 0 || r + b > 8 {
                    continue;
                }
                let (ka, kb) = ((i16::from(k) + a) as u8, (i16::from(k) + b) as u8);
                if h.counts[usize::from(ka)] == 0 || h.counts[usize::from(kb)] == 0 {
                    continue;
                }
                let ((va, na), (vb, nb)) = (variants(ka), variants(kb));
                for &ta in &va[..na] {
                    for &tb in &vb[..nb] {
                        let own = [ta, tb];
                        if keeps(own, self.kuikae_mask(tile, own, true)) {
                            options[n] = Action::Chi { tiles: own };
                            n += 1;
                        }
                    }
                }
            }
        }
        self.legal.extend_from_slice(&options[..n]);
    }

    /// [`riichi_foul`] with what is visible now.
    pub fn riichi_foul(&self, c: &Counts, river: u64, extra: Option<Kind>) -> bool {
        riichi_foul(self.rules, &self.seen, c, river, extra)
    }

    /// What `seat` may know now: the only way a player sees the state.
    pub fn view(&self, seat: usize) -> View<'_> {
        View {
            rules: self.rules,
            seat,
            n: self.n,
            own: &self.hidden[seat],
            seats: &self.p,
            // Only the local yaku open_riichi shows a hand.
            shown: if self.rules.local_yaku.contains(LocalYaku::OpenRiichi) {
                std::array::from_fn(|o| {
                    let h = &self.hidden[o];
                    self.p[o].open_riichi.then_some(Shown { hand: &h.hand, waits: h.waits })
                })
            } else {
                [None; SEATS]
            },
            progress: self.progress,
            dealer: self.dealer,
            seen: &self.seen,
            dora_count: &self.dora_count,
            dora_indicators: &self.dora_ids[..self.dora_shown],
            safe_after_riichi: &self.safe_after_riichi,
            live_remaining: self.live_remaining(),
            discards: self.discards,
            uninterrupted: self.uninterrupted,
            wareme: self.wareme,
        }
    }

    /// Asks `seat` the yes/no question of `point`: `[Pass, yes]`.
    pub(super) fn ask_yes(&mut self, d: &mut dyn Player<Riichi>, seat: usize, point: Point, yes: Action) -> Result<bool, PlayerError> {
        self.legal.clear();
        self.legal.extend([Action::Pass, yes]);
        Ok(self.ask(d, seat, point)? == yes)
    }

    /// Asks `seat`'s player to choose among `self.legal` at `point`, and refuses an answer that is
    /// not legal.
    pub(super) fn ask(&mut self, d: &mut dyn Player<Riichi>, seat: usize, point: Point) -> Result<Action, PlayerError> {
        let legal = std::mem::take(&mut self.legal);
        #[cfg(test)]
        if let Some(mut probe) = self.probe.0.take() {
            probe(self, seat, point, &legal);
            self.probe.0 = Some(probe);
        }
        let chosen = d.decide(&self.view(seat), point, &legal);
        self.legal = legal;
        let illegal = |what: String| PlayerError::new::<Riichi>(seat, point, Fault::Illegal(what));
        let chosen = chosen.map_err(|fault| PlayerError::new::<Riichi>(seat, point, fault))?;
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
                return Err(illegal(format!("{chosen:?} is not legal; legal: {:?}", self.legal)));
            }
            // The tiles the decider named must be held (ids, not just kinds).
            let held = |t: u8| self.hidden[seat].hand.contains(&t);
            let ok = match chosen {
                Action::Discard { tile, .. } | Action::Kakan { tile } | Action::Nuki { tile } => held(tile),
                Action::Pon { tiles } | Action::Chi { tiles } => held(tiles[0]) && held(tiles[1]) && tiles[0] != tiles[1],
                _ => true,
            };
            if !ok {
                return Err(illegal(format!("{chosen:?} names a tile that is not in the hand")));
            }
        }
        // A response (call or ron) is logged only once priority has made it take effect
        // (`log_call`, `resolve_rons`): a chi beaten by a pon or a ron never happened.
        if let Point::Turn { .. } = point {
            self.log_action(seat, chosen, None);
        }
        Ok(chosen)
    }
}
