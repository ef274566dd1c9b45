//! Hand planning by the rules (knob `fan_plan`): which hands can still win legally under the
//! minimum fan, and how far the hand is from one.
//!
//! A target is a shape with the fan it guarantees under the rules played: a suit (any, half flush
//! in one suit, full flush in one suit), a form (standard sets, all pungs, seven pairs, all chows
//! where its fan is a part of the minimum, as with the concealed hand under `old_style`) and the
//! value honours forced to be pungs (dragons, the seat wind, the round wind), each worth its fan
//! under the rules; melded value pungs and kongs count, and the concealed-hand fan while no set is
//! claimed. A target reaching the minimum fan counts its distance; one a fan short counts it plus
//! one, since only a self-draw (1 fan) wins it. Each target's distance is exact for its shape (the
//! shanten tables on the tiles it may use, an honour forced to a pung adding its missing copies,
//! all pungs and seven pairs counted from pairs and pungs, a pung or pair of a kind whose copies
//! are all in sight being out of reach). Bonus tiles never count toward the minimum, and limit
//! hands are not aimed for. A hand with no target in reach can win only by chance fan: it counts
//! as far from ready as any hand can be from a target, so that no claim trades the last target for
//! speed. Once a discard leaves the hand ready, the hand evaluator itself judges
//! whether some wait wins legally by a discard or a self-draw (chance fan, such as the last tile
//! or a replacement, aside).
//!
//! Everything is read from the seat's `View`: its own tiles, every visible tile and the rules.

use std::cell::RefCell;

use super::actions::View;
use super::hand::{evaluate, kong_fan, Hand, HkMeld, WinContext};
use super::rules::Rules;
use crate::games::riichi::tiles::{is_honor, Counts, Kind, MeldKind, EAST, HAKU, KINDS};
use crate::games::riichi::{accept, shanten};

/// The tiles a target may use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Suit {
    Any,
    /// One suit and the honours.
    Half(u8),
    /// One suit only.
    Full(u8),
}

impl Suit {
    fn allows(self, k: Kind) -> bool {
        match self {
            Suit::Any => true,
            Suit::Half(s) => is_honor(k) || k / 9 == s,
            Suit::Full(s) => !is_honor(k) && k / 9 == s,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Form {
    Standard,
    Pungs,
    Pairs,
    /// Four chows and any pair (all chows).
    Chows,
}

/// One target: its shape, the first `forced` value honours of the plan's list as pungs, and the
/// extra distance of a target a fan short (won by self-draw only).
#[derive(Debug, Clone, Copy)]
struct Target {
    suit: Suit,
    form: Form,
    forced: usize,
    penalty: i8,
}

/// What a hand with no target in reach adds to its plain shanten: it wins only by chance fan, so
/// it is never nearer than a hand still 8 tiles from its farthest target (8: the most a standard
/// hand can be from ready), and a claim or a discard never trades a target for speed.
const DEAD: i8 = 8;

/// Most targets: 7 suits × 4 forms × (full and self-draw-only).
const MOST: usize = 56;

/// The planning of one seat's hand, with a set it weighs claiming.
pub struct Planner<'v> {
    rules: &'v Rules,
    melds: &'v [HkMeld],
    claim: Option<HkMeld>,
    visible: &'v Counts,
    ctx: WinContext,
    /// Fan of each kind as a pung for this seat (value honours), 0 for the others.
    honour_fan: [u8; KINDS],
    /// Shanten added to a target won by self-draw only, and to seven pairs.
    self_draw_cost: i8,
    pairs_cost: i8,
}

impl<'v> Planner<'v> {
    /// The planning of `v`'s seat; `self_draw_cost` and `pairs_cost` are added to the distance of
    /// a target won by self-draw only and of seven pairs (their wins come slower).
    pub fn new(v: &View<'v>, self_draw_cost: i8, pairs_cost: i8) -> Self {
        let seat_wind = (v.seat + 4 - v.dealer) % 4;
        let mut honour_fan = [0u8; KINDS];
        for f in &mut honour_fan[usize::from(HAKU)..] {
            *f = 1;
        }
        honour_fan[usize::from(EAST + seat_wind)] += 1;
        if v.rules.round_wind_pung {
            honour_fan[usize::from(EAST + v.round_wind)] += 1;
        }
        let (flowers, seasons) = v.bonus[usize::from(v.seat)];
        let ctx = WinContext { seat_wind, round_wind: v.round_wind, flowers, seasons, ..WinContext::default() };
        Planner { rules: v.rules, melds: v.melds, claim: None, visible: v.visible, ctx, honour_fan, self_draw_cost, pairs_cost }
    }

    /// The same planning with `meld` claimed.
    pub fn with_claim(&self, meld: HkMeld) -> Planner<'v> {
        Planner { claim: Some(meld), ..*self }
    }

    /// The fan a win needs.
    pub fn needed(&self) -> u8 {
        self.rules.min_fan
    }

    fn all_melds(&self) -> impl Iterator<Item = &HkMeld> + '_ {
        self.melds.iter().chain(self.claim.as_ref())
    }

    pub fn sets_needed(&self) -> usize {
        4 - self.all_melds().count().min(4)
    }

    /// Whether some wait of the 3n+1-tile concealed part `c` completes a hand, and whether one
    /// wins legally by a discard or a self-draw (the hand evaluator, from the seat's view).
    pub fn ready(&self, c: &Counts) -> (bool, bool) {
        let (sh, waits) = accept::accepting(c);
        if sh != 0 {
            return (false, false);
        }
        let melds: Vec<HkMeld> = self.all_melds().copied().collect();
        let mut ready = false;
        for w in accept::Bits(waits) {
            let mut h = *c;
            h[w] += 1;
            let hand = Hand { concealed: h, melds: melds.clone(), win: w as Kind };
            // A self-draw adds its fan to every reading of a discard win, so a wait that wins
            // legally on a discard wins legally by a self-draw: the self-draw alone decides.
            if let Some(value) = evaluate(self.rules, &hand, &WinContext { self_draw: true, ..self.ctx }) {
                if value.legal(self.rules) {
                    return (true, true);
                }
                ready = true;
            }
        }
        (ready, false)
    }

    /// Copies of kind `k` the seat may still get: 4 less its own and every visible copy.
    fn unseen(&self, c: &Counts, k: usize) -> u8 {
        4u8.saturating_sub(c[k] + self.visible[k])
    }

    /// The value honours that may be forced to pungs (held, not melded, enough copies unseen),
    /// fewest missing copies first, then the most fan.
    fn honours(&self, c: &Counts) -> ([Kind; 7], usize) {
        let mut out = [0 as Kind; 7];
        let mut n = 0;
        for k in usize::from(EAST)..KINDS {
            if self.honour_fan[k] > 0 && c[k] > 0 && c[k].min(3) + self.unseen(c, k) >= 3 {
                out[n] = k as Kind;
                n += 1;
            }
        }
        out[..n].sort_by_key(|&k| (3 - c[usize::from(k)].min(3), std::cmp::Reverse(self.honour_fan[usize::from(k)])));
        (out, n)
    }

    /// The targets compatible with the melds, each reaching the minimum (or one fan short).
    fn targets(&self, honours: &[Kind]) -> ([Target; MOST], usize) {
        let r = self.rules;
        let mut chow = false;
        let mut pung = false;
        let mut suits = 0u8;
        let mut melded = 0u8;
        let mut kongs = 0u8;
        let mut melds = 0usize;
        let mut closed = true;
        for m in self.all_melds() {
            melds += 1;
            chow |= m.kind == MeldKind::Chi;
            pung |= m.kind != MeldKind::Chi;
            closed &= m.kind == MeldKind::Ankan;
            suits |= if is_honor(m.base) { 8 } else { 1 << (m.base / 9) };
            if m.kind != MeldKind::Chi {
                melded += self.honour_fan[usize::from(m.base)];
            }
            kongs += u8::from(m.kind.is_kan());
        }
        let base = melded + kong_fan(r, kongs) + if closed { r.concealed_fan } else { 0 };
        let mut suit_list = [Suit::Any; 7];
        let mut n_suits = 1;
        for s in 0..3u8 {
            if r.half_flush_fan > 0 && suits & !(8 | 1 << s) == 0 {
                suit_list[n_suits] = Suit::Half(s);
                n_suits += 1;
            }
            if r.full_flush_fan > 0 && suits & !(1 << s) == 0 {
                suit_list[n_suits] = Suit::Full(s);
                n_suits += 1;
            }
        }
        let needed = self.needed();
        let mut out = [Target { suit: Suit::Any, form: Form::Standard, forced: 0, penalty: 0 }; MOST];
        let mut n = 0;
        for &suit in &suit_list[..n_suits] {
            let suit_fan = match suit {
                Suit::Any => 0,
                Suit::Half(_) => r.half_flush_fan,
                Suit::Full(_) => r.full_flush_fan,
            };
            for form in [Form::Standard, Form::Pungs, Form::Pairs, Form::Chows] {
                let form_fan = match form {
                    Form::Standard => 0,
                    Form::Pungs if !chow => r.all_pungs_fan,
                    Form::Pairs if melds == 0 && r.seven_pairs_fan > 0 => r.seven_pairs_fan,
                    // All chows only as a part of the minimum (with the concealed hand under
                    // `old_style`): where it reaches it alone (min_fan 1) draws are rare already,
                    // and its shanten would take the planning over its cost bound.
                    Form::Chows if !pung && (1..needed).contains(&r.all_chows_fan) => r.all_chows_fan,
                    _ => continue,
                };
                let mut fan = base + suit_fan + form_fan;

                // Forcing more honours only adds distance: the fewest that reach the minimum,
                // and those that reach it a fan short (for a self-draw).
                let usable = if matches!(form, Form::Pairs | Form::Chows) || matches!(suit, Suit::Full(_)) {
                    0
                } else {
                    honours.len().min(4 - melds.min(4))
                };
                let mut forced = 0;
                let mut short = false;
                loop {
                    let slow = if form == Form::Pairs { self.pairs_cost } else { 0 };
                    if fan >= needed {
                        if !dominated(&out[..n], suit, form, forced, slow) {
                            out[n] = Target { suit, form, forced, penalty: slow };
                            n += 1;
                        }
                        break;
                    }
                    if fan + 1 >= needed && !short {
                        short = true;
                        if !dominated(&out[..n], suit, form, forced, slow + self.self_draw_cost) {
                            out[n] = Target { suit, form, forced, penalty: slow + self.self_draw_cost };
                            n += 1;
                        }
                    }
                    if forced == usable {
                        break;
                    }
                    fan += self.honour_fan[usize::from(honours[forced])];
                    forced += 1;
                }
            }
        }
        (out, n)
    }

    /// Distance of the concealed part `c` to `t` in shanten (−1 complete), penalty included.
    fn distance(&self, c: &Counts, t: &Target, honours: &[Kind]) -> i8 {
        let mut r = *c;
        for (k, n) in r.iter_mut().enumerate() {
            if !t.suit.allows(k as Kind) {
                *n = 0;
            }
        }
        let mut need = self.sets_needed();
        let mut missing = 0i8;
        for &k in &honours[..t.forced] {
            let k = usize::from(k);
            missing += 3 - r[k].min(3) as i8;
            r[k] = 0;
            need -= 1;
        }
        let form = match t.form {
            Form::Standard => shanten::standard(&r, need),
            Form::Pungs => self.pung_shanten(c, &r, need, t.suit),
            Form::Pairs => self.pair_shanten(c, &r, t.suit),
            Form::Chows => chow_shanten(&r, need),
        };
        form + missing + t.penalty
    }

    /// Shanten of `need` pungs and a pair from the tiles `r` (of the hand `c`) of kinds `suit`
    /// allows, a kind whose missing copies are in sight never counting.
    fn pung_shanten(&self, c: &Counts, r: &Counts, need: usize, suit: Suit) -> i8 {
        // Kinds by the copies a pung of them lacks (0-3), then the best pair among the rest.
        let mut by_cost = [0u64; 4];
        for k in 0..KINDS {
            if suit.allows(k as Kind) && r[k].min(3) + self.unseen(c, k) >= 3 {
                by_cost[usize::from(3 - r[k].min(3))] |= 1 << k;
            }
        }
        let mut left = need;
        let mut dist = 0i8;
        let mut chosen = 0u64;
        for (cost, &kinds) in by_cost.iter().enumerate() {
            for k in accept::Bits(kinds).take(left) {
                chosen |= 1 << k;
                dist += cost as i8;
                left -= 1;
            }
        }
        if left > 0 {
            return i8::MAX / 2;
        }
        let pair = (0..KINDS)
            .filter(|&k| chosen >> k & 1 == 0 && suit.allows(k as Kind) && r[k].min(2) + self.unseen(c, k) >= 2)
            .map(|k| 2 - r[k].min(2) as i8)
            .min()
            .unwrap_or(i8::MAX / 2);
        dist + pair - 1
    }

    /// Shanten of seven distinct pairs from the tiles `r` of kinds `suit` allows.
    fn pair_shanten(&self, c: &Counts, r: &Counts, suit: Suit) -> i8 {
        let pairs = (0..KINDS).filter(|&k| r[k] >= 2).count() as i8;
        let singles = (0..KINDS).filter(|&k| r[k] == 1 && self.unseen(c, k) >= 1).count() as i8;
        let fresh = (0..KINDS).filter(|&k| r[k] == 0 && suit.allows(k as Kind) && self.unseen(c, k) >= 2).count() as i8;
        let lack = 7 - pairs;
        if singles + fresh < lack {
            return i8::MAX / 2;
        }
        lack + (lack - singles).max(0) - 1
    }

    /// The least distance over the targets of the hand `c` (3n+1 or 3n+2 tiles; for 3n+2, the
    /// distance after the best discard), or `None` when no target is in reach.
    fn best(&self, c: &Counts) -> Option<i8> {
        let (honours, h) = self.honours(c);
        let (targets, n) = self.targets(&honours[..h]);
        let dist = self.distances(c, &targets[..n], &honours[..h]);
        dist[..n].iter().copied().min()
    }

    /// The distance of `c` to each target, `i8::MAX` for those that cannot be among the nearest:
    /// a target's distance is at least the plain shanten plus its penalty (its tiles and forced
    /// pungs are one way to a complete hand), so it is computed only while that bound does not
    /// exceed the nearest so far (the nearest and every target at its distance are exact).
    fn distances(&self, c: &Counts, targets: &[Target], honours: &[Kind]) -> [i8; MOST] {
        let plain = shanten_of(c, self.sets_needed());
        let mut dist = [i8::MAX; MOST];
        let mut nearest = i8::MAX;
        for (d, t) in dist.iter_mut().zip(targets) {
            if plain + t.penalty <= nearest {
                *d = self.distance(c, t, honours);
                nearest = nearest.min(*d);
            }
        }
        dist
    }

    /// The planned shanten of the 3n+1-tile concealed part `c`: 0 when ready with a legal win,
    /// else the distance to the nearest target, at least the plain shanten, and one more for a
    /// ready hand without a legal win; no target in reach counts the plain shanten plus [`DEAD`].
    pub fn now(&self, c: &Counts) -> i8 {
        let plain = shanten_of(c, self.sets_needed());
        let d = self.best(c);
        planned(plain, d, || self.ready(c).1)
    }

    /// The planned shanten after each discard of the 3n+2-tile concealed part `c`, given the
    /// plain shanten after each (`after`, as `accept::after_discards`); `i8::MAX` for kinds not
    /// held. Only the targets nearest for `c` are weighed for each discard.
    pub fn after_discards(&self, c: &Counts, after: &[i8; KINDS]) -> [i8; KINDS] {
        let (honours, h) = self.honours(c);
        let honours = &honours[..h];
        let (targets, n) = self.targets(honours);
        // The melds already reach the minimum: every win is legal, the plain shanten is the plan.
        if targets[..n].iter().any(|t| t.suit == Suit::Any && t.form == Form::Standard && t.forced == 0 && t.penalty == 0) {
            return *after;
        }
        let dist = self.distances(c, &targets[..n], honours);
        let nearest = dist[..n].iter().copied().min();
        let mut out = [i8::MAX; KINDS];
        for x in (0..KINDS).filter(|&x| c[x] > 0) {
            let mut rest = *c;
            rest[x] -= 1;
            // No discard brings a target nearer than `best` (the distance after the best discard),
            // so the first target that keeps it ends the search.
            let d = nearest.map(|best| {
                let mut d = i8::MAX;
                for t in (0..n).filter(|&i| dist[i] == best).map(|i| &targets[i]) {
                    // A tile the target does not use leaves its distance as it is.
                    d = d.min(if t.suit.allows(x as Kind) { self.distance(&rest, t, honours) } else { best });
                    if d <= best {
                        break;
                    }
                }
                d
            });
            out[x] = planned(after[x], d, || self.ready(&rest).1);
        }
        out
    }

    /// The least planned shanten after a discard of the 3n+2-tile concealed part `c`.
    pub fn best_after_discard(&self, c: &Counts) -> i8 {
        let after = accept::after_discards(c);
        let plain = after.iter().copied().min().unwrap_or(i8::MAX);
        // Away from ready, the nearest target bounds every discard from below; readiness needs
        // the evaluator.
        match self.best(c) {
            Some(d) if d > 0 && plain > 0 => d.max(plain),
            _ => self.after_discards(c, &after).into_iter().min().unwrap_or(i8::MAX),
        }
    }
}

/// Shanten of `need` chows and a pair from the tiles `r`: the fewest tiles missing, less one, as
/// the standard shanten counts them.
pub(super) fn chow_shanten(r: &Counts, need: usize) -> i8 {
    let [a, b, c] = [0, 9, 18].map(|s| chow_missing(&r[s..s + 9]));
    // Honours only make the pair.
    let honour_pair = 2 - r[usize::from(EAST)..].iter().max().map_or(0, |&n| n.min(2));
    // The first two suits together, then the third with the honours for `need` chows and a pair.
    let mut ab = [[u8::MAX; 2]; 5];
    for (m1, x) in a.iter().enumerate().take(need + 1) {
        for (m2, y) in b.iter().enumerate().take(need + 1 - m1) {
            let o = &mut ab[m1 + m2];
            o[0] = o[0].min(x[0].saturating_add(y[0]));
            o[1] = o[1].min(x[0].saturating_add(y[1])).min(x[1].saturating_add(y[0]));
        }
    }
    let complete = (0..=need)
        .map(|m| {
            let (x, y) = (ab[m], c[need - m]);
            let pair = y[1].min(y[0].saturating_add(honour_pair));
            x[1].saturating_add(y[0]).min(x[0].saturating_add(pair))
        })
        .min()
        .unwrap_or(u8::MAX);
    i8::try_from(complete).map_or(i8::MAX / 2, |n| n - 1)
}

/// The fewest tiles missing from one suit's `counts` for m chows (0-4), with a pair if q,
/// remembered per thread in a direct-mapped cache small enough to stay in the core's cache
/// (a hand's suits recur at every discard weighed, and from turn to turn).
fn chow_missing(counts: &[Kind]) -> [[u8; 2]; 5] {
    const BITS: u32 = 14;
    type Slot = (u32, [[u8; 2]; 5]);
    thread_local! {
        static KNOWN: RefCell<Vec<Slot>> = const { RefCell::new(Vec::new()) };
    }
    // The base-5 index plus one (0: an empty slot).
    let key = counts.iter().fold(0u32, |k, &n| k * 5 + u32::from(n)) + 1;
    let slot = (key.wrapping_mul(0x9E37_79B1) >> (32 - BITS)) as usize;
    KNOWN.with_borrow_mut(|known| {
        if known.is_empty() {
            *known = vec![(0, [[0; 2]; 5]); 1 << BITS];
        }
        let entry = &mut known[slot];
        if entry.0 != key {
            *entry = (key, chow_missing_of(counts));
        }
        entry.1
    })
}

/// [`chow_missing`] computed: positions in order, carrying the chows begun at the two before.
fn chow_missing_of(counts: &[Kind]) -> [[u8; 2]; 5] {
    // best[(a, b, m, q)]: a chows begun two positions back, b one back, m begun in all.
    let mut best = [[[[u8::MAX; 2]; 5]; 5]; 5];
    best[0][0][0][0] = 0;
    for (i, &have) in counts.iter().enumerate() {
        let mut next = [[[[u8::MAX; 2]; 5]; 5]; 5];
        for (a, by_b) in best.iter().enumerate() {
            for (b, by_m) in by_b.iter().enumerate().take(5 - a) {
                for (m, by_q) in by_m.iter().enumerate().skip(a + b) {
                    for (q, &cost) in by_q.iter().enumerate() {
                        if cost == u8::MAX {
                            continue;
                        }
                        let most = if i < 7 { 4 - m } else { 0 };
                        for x in 0..=most {
                            for p in 0..2 - q {
                                let demand = (a + b + x + 2 * p) as u8;
                                let o = &mut next[b][x][m + x][q + p];
                                *o = (*o).min(cost + demand.saturating_sub(have));
                            }
                        }
                    }
                }
            }
        }
        best = next;
    }
    best[0][0]
}

/// Whether a target is dominated by one among `prev` whose tiles and form allow every hand it
/// allows, with no more forced honours and no more cost: such a target is never nearer.
fn dominated(prev: &[Target], suit: Suit, form: Form, forced: usize, penalty: i8) -> bool {
    let wider_suit = |o: Suit| o == suit || o == Suit::Any || matches!((o, suit), (Suit::Half(a), Suit::Full(b)) if a == b);
    let wider_form = |o: Form| o == form || o == Form::Standard && matches!(form, Form::Pungs | Form::Chows);
    prev.iter().any(|o| wider_suit(o.suit) && wider_form(o.form) && o.forced <= forced && o.penalty <= penalty)
}

/// The planned shanten of a 3n+1-tile hand of plain shanten `plain` and distance `d` to its
/// nearest target (see [`Planner::now`]); `legal` tells whether a ready hand wins legally.
fn planned(plain: i8, d: Option<i8>, legal: impl FnOnce() -> bool) -> i8 {
    match d {
        _ if plain == 0 && legal() => 0,
        None => plain + DEAD,
        Some(d) => d.max(plain).max(1) + i8::from(plain == 0),
    }
}

/// Shanten of concealed counts needing `sets` sets (seven pairs and thirteen orphans with no meld).
pub fn shanten_of(c: &Counts, sets: usize) -> i8 {
    if sets == 4 {
        shanten::shanten(c)
    } else {
        shanten::standard(c, sets)
    }
}
