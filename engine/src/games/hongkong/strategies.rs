//! Strategy knobs and the policy that turns them into decisions (spec §12).
//!
//! The spec's strategies are knob combinations (scripts in `strategies/hongkong/`):
//! H1 chicken-fast = defaults; H2 concealed = `claims = "never"`; H3 pung-hunter =
//! `claims = "pung_only"`, `discard = "pungs"`; H4 defensive = `defend = true`, `min_win_fan = 1`;
//! H5 self-draw-only = `claims = "never"`, `win_on_discard = false`; H6 min-fan(k) =
//! `min_win_fan = k`, `discard = "value"`; random = `discard = "random"`, `claims = "random"`.
//! rule-aware = `fan_plan = "rules"`: chicken-fast planning its hand toward a legal win under the
//! minimum fan (`plan.rs`).

use super::actions::{held, Action, Claim, Point, View};
use super::hand::{HkMeld, Value};
use super::plan::{shanten_of, Planner};
use super::HongKong;
use crate::decide::{Fault, Player};
use crate::games::riichi::tiles::{is_honor, is_terminal, Counts, Kind, MeldKind, KINDS};
use crate::games::riichi::{accept, shanten};
use crate::options::Validate;
use crate::rng::Stream;
use crate::{option_enum, options};

option_enum! {
    /// How the discard is chosen.
    pub enum DiscardRule {
        /// H1: minimise shanten, then maximise ukeire; isolated honours first.
        Fastest = "fastest",
        /// H3: minimise the all-pungs shanten (keep pairs and pungs, break chows first).
        Pungs = "pungs",
        /// H6: as fastest, but keep honour pairs and the dominant suit (flush potential).
        Value = "value",
        /// A uniformly random tile of the hand.
        Random = "random"
    }
}

option_enum! {
    /// Which claims on discards to make.
    pub enum ClaimRule {
        /// H1: pung, kong or chow whenever it lowers shanten.
        Shanten = "shanten",
        /// H3: pung or kong when it lowers shanten, never chow.
        PungOnly = "pung_only",
        /// H2, H5: never claim except to win.
        Never = "never",
        /// Each legal claim with probability 1/2.
        Random = "random"
    }
}

option_enum! {
    /// Whether discards and claims plan for the minimum fan.
    pub enum FanPlan {
        /// No planning: the discard and claim rules alone.
        Off = "off",
        /// Under a minimum fan, discards and claims minimise the shanten toward a hand that
        /// reaches it (`plan.rs`): a flush, all pungs, seven pairs, all chows, value-honour pungs, the
        /// concealed hand, as the rules value them; a ready hand without a legal win counts as
        /// one tile further from ready.
        Rules = "rules"
    }
}

options! {
    /// Hong Kong mahjong strategy knobs.
    pub struct Knobs {
        /// Discard rule.
        discard: DiscardRule = DiscardRule::Fastest;
        /// Claim rule.
        claims: ClaimRule = ClaimRule::Shanten;
        /// Win on another player's discard (false: H5 self-draw only).
        win_on_discard: bool = true;
        /// Decline wins under this fan (bonus tiles excluded; limit hands always taken): H6's k.
        min_win_fan: u8 = 0, range(0, 13);
        /// Take any legal win once the live wall holds at most this many tiles (H6: 8).
        relax_live: u8 = 8, range(0, 144);
        /// Declare kongs that do not slow the hand.
        kongs: bool = true;
        /// H4: fold against a threat (no claims, safest discards while not ready).
        defend: bool = false;
        /// Threat: an opponent with at least this many exposed melds.
        threat_melds: u8 = 3, range(1, 4);
        /// Threat late in the hand: at most this many live tiles ...
        threat_live: u8 = 20, range(0, 144);
        /// ... and an opponent with at least this many exposed melds.
        threat_late_melds: u8 = 2, range(1, 4);
        /// Plan discards and claims for the rules' minimum fan (`rule-aware`).
        fan_plan: FanPlan = FanPlan::Off;
        /// With `fan_plan`: shanten added to a target won by self-draw only (a fan short).
        plan_self_draw_cost: u8 = 2, range(0, 8);
        /// With `fan_plan`: shanten added to seven pairs (single waits, no claim but the win).
        plan_pairs_cost: u8 = 2, range(0, 8);
    }
}

impl Validate for Knobs {}

fn sets_needed(v: &View) -> usize {
    4 - v.melds.len().min(4)
}

/// Shanten of the all-pungs form (spec §12 H3).
fn pung_shanten(c: &Counts, need: usize) -> i8 {
    let t = c.iter().filter(|&&n| n >= 3).count().min(need);
    let p = c.iter().filter(|&&n| n == 2).count().min(need + 1 - t);
    (2 * need) as i8 - 2 * t as i8 - p as i8
}

/// The policy of one seat for one hand: a [`Player`] deciding from the seat's [`View`] alone.
pub struct Bot<'a> {
    pub knobs: &'a Knobs,
    pub rng: Stream,
}

impl Bot<'_> {
    fn wants(&self, v: &View, value: &Value) -> bool {
        value.limit.is_some() || value.counted_fan >= self.knobs.min_win_fan || v.live <= self.knobs.relax_live
    }

    /// The planner of this seat when the knobs plan for a minimum fan the rules set.
    fn planner<'v>(&self, v: &View<'v>) -> Option<Planner<'v>> {
        let k = self.knobs;
        (k.fan_plan == FanPlan::Rules && v.rules.min_fan > 0).then(|| Planner::new(v, k.plan_self_draw_cost as i8, k.plan_pairs_cost as i8))
    }

    fn threatened(&self, v: &View) -> Option<u8> {
        let k = self.knobs;
        (0..4u8).filter(|&p| p != v.seat).find(|&p| {
            let e = v.exposed[usize::from(p)];
            e >= k.threat_melds || v.live <= k.threat_live && e >= k.threat_late_melds
        })
    }

    /// Best discard shanten of a 3n+2 hand.
    fn best_after_discard(c: &Counts) -> i8 {
        accept::after_discards(c).into_iter().min().unwrap_or(i8::MAX)
    }

    fn safest(v: &View, p: u8) -> Kind {
        let rank = |k: Kind| -> u32 {
            let seen = v.visible[usize::from(k)];
            if v.rivers[usize::from(p)].iter().rev().take(3).any(|&r| r == k) {
                0
            } else if is_honor(k) && seen >= 3 {
                1
            } else if is_terminal(k) && seen >= 3 {
                2
            } else if is_honor(k) {
                3
            } else if is_terminal(k) {
                4
            } else {
                5 + u32::from(4 - seen.min(4))
            }
        };
        (0..KINDS as Kind).filter(|&k| v.concealed[usize::from(k)] > 0).min_by_key(|&k| rank(k)).unwrap_or(0)
    }
}

impl Player<HongKong> for Bot<'_> {
    fn decide(&mut self, v: &View<'_>, point: Point, legal: &[Action]) -> Result<Action, Fault> {
        let yes = |win: bool| if win { Action::Win } else { Action::Pass };
        // The engine offers a win point only with the win's value in the view.
        let value = || v.win.ok_or_else(|| Fault::Failed("a native strategy asked to win without the win's value".into()));
        Ok(match point {
            Point::SelfDraw { .. } => yes(self.wants(v, value()?)),
            Point::WinOn { .. } => yes(self.knobs.win_on_discard && self.wants(v, value()?)),
            Point::Claim { tile } => self.claim(v, tile, legal).map_or(Action::Pass, Action::Claim),
            Point::Kong => self.kong(v, legal).map_or(Action::Pass, Action::Kong),
            Point::Discard => Action::Discard(self.discard(v)),
        })
    }
}

/// The claims among `legal` actions, in order.
fn claims(legal: &[Action]) -> impl Iterator<Item = Claim> + '_ {
    legal.iter().filter_map(|a| match *a {
        Action::Claim(c) => Some(c),
        _ => None,
    })
}

impl Bot<'_> {
    fn claim(&mut self, v: &View, tile: Kind, legal: &[Action]) -> Option<Claim> {
        let k = self.knobs;
        if k.defend && self.threatened(v).is_some() {
            return None;
        }
        let allowed = |c: &Claim| match k.claims {
            ClaimRule::Never => false,
            ClaimRule::PungOnly => !matches!(c, Claim::Chow { .. }),
            ClaimRule::Shanten | ClaimRule::Random => true,
        };
        if k.claims == ClaimRule::Random {
            return claims(legal).find(|_| self.rng.below(2) == 0);
        }
        if let Some(plan) = self.planner(v) {
            return planned_claim(&plan, v, tile, legal, allowed);
        }
        let point = Point::Claim { tile };
        // The hand's shanten (`shanten_after` of a pass) with the kinds that lower it: a pung or
        // chow leaves at least the shanten of the hand with the tile (its set is one way to use
        // the tile, and a tile less never lowers a shanten), so only a tile that lowers the hand can
        // make one worth claiming, and the claim's own shanten is not computed otherwise.
        let (now, lowering) = accept::accepting(v.concealed);
        let lowers = lowering >> tile & 1 == 1;
        claims(legal).filter(allowed).find(|&c| {
            if c == Claim::Kong {
                shanten_after(v, point, Action::Claim(c)) <= now
            } else {
                lowers && shanten_after(v, point, Action::Claim(c)) < now
            }
        })
    }

    fn kong(&self, v: &View, legal: &[Action]) -> Option<Kind> {
        if !self.knobs.kongs {
            return None;
        }
        let now = shanten_after(v, Point::Kong, Action::Pass);
        let mut kinds = legal.iter().filter_map(|a| match *a {
            Action::Kong(k) => Some(k),
            _ => None,
        });
        kinds.find(|&k| shanten_after(v, Point::Kong, Action::Kong(k)) <= now)
    }

    fn discard(&mut self, v: &View) -> Kind {
        let c = v.concealed;
        let held = held(c);
        let k = self.knobs;
        if k.discard == DiscardRule::Random {
            let i = self.rng.below(u64::from(held.count_ones()));
            return kinds_in(held).nth(i as usize).unwrap_or(0);
        }
        if k.defend {
            if let Some(p) = self.threatened(v) {
                if Self::best_after_discard(c) >= 1 {
                    return Self::safest(v, p);
                }
            }
        }
        let need = sets_needed(v);
        let after = accept::after_discards(c);
        let suit_count = |s: u8| (0..9).map(|i| u32::from(c[usize::from(s * 9 + i)])).sum::<u32>();
        let dominant = (0..3u8).max_by_key(|&s| suit_count(s)).unwrap_or(0);
        // (primary shanten, secondary shanten, value penalty) of each candidate: lowest wins,
        // then the most unseen tiles that improve the hand, then honours before terminals
        // before middle tiles, then the lowest kind.
        let planned = self.planner(v).map(|plan| plan.after_discards(c, &after));
        let key = |x: Kind| {
            let s = after[usize::from(x)];
            // A ready hand without a legal win wins no tie on its plain shanten.
            if let Some(p) = &planned {
                let p = p[usize::from(x)];
                return (p, if s == 0 && p > 0 { p } else { s }, 0);
            }
            let (primary, secondary) = if k.discard == DiscardRule::Pungs {
                let mut h = *c;
                h[usize::from(x)] -= 1;
                (pung_shanten(&h, need).min(s + 1), s)
            } else {
                (s, 0)
            };
            let penalty = if k.discard == DiscardRule::Value {
                u8::from(is_honor(x) && c[usize::from(x)] >= 2) + u8::from(!is_honor(x) && x / 9 == dominant)
            } else {
                0
            };
            (primary, secondary, penalty)
        };
        let mut want = 0u64;
        let mut top = (i8::MAX, i8::MAX, u8::MAX);
        for x in kinds_in(held) {
            let kx = key(x);
            if kx < top {
                (top, want) = (kx, 0);
            }
            if kx == top {
                want |= 1 << x;
            }
        }
        if want.count_ones() == 1 {
            return want.trailing_zeros() as Kind;
        }
        best_ukeire(v, want, &after)
    }
}

/// Among the discards `want` (held, tied on the discard key), the one with the most ukeire, then
/// honours before terminals before middle tiles, then the lowest kind. `after` is the shanten
/// after each discard.
///
/// An accepting set costs a few hundred instructions per candidate, and a turn ties several: the
/// candidates are weighed best bound first (the ukeire of a superset of their accepting sets, see
/// [`Supersets`]), and those whose bound cannot beat the best found are never computed.
fn best_ukeire(v: &View, want: u64, after: &[i8; KINDS]) -> Kind {
    let c = v.concealed;
    // (ukeire, preference) in one integer, preference in the low 16 bits: honours (2) before
    // terminals (1) before middle tiles (0), then the lowest kind.
    let rank = |ukeire: u32, x: Kind| {
        let order = if is_honor(x) {
            2
        } else if is_terminal(x) {
            1
        } else {
            0
        };
        u64::from(ukeire) << 16 | order << 8 | u64::from(u8::MAX - x)
    };
    let kind = |rank: u64| u8::MAX - (rank & 0xFF) as Kind;
    let supersets = Supersets::new(c);
    let unseen = Unseen::new(v);
    let mut bounds = [0u64; KINDS];
    let mut n = 0;
    for x in kinds_in(want) {
        let top = supersets.of(x, after[usize::from(x)]).map_or(u32::MAX, |s| unseen.after(x, s));
        bounds[n] = rank(top, x);
        n += 1;
    }
    let bounds = &mut bounds[..n];
    bounds.sort_unstable_by(|a, b| b.cmp(a));
    let mut best = 0;
    for &bound in bounds.iter() {
        if bound < best {
            break;
        }
        let x = kind(bound);
        best = best.max(rank(unseen.after(x, accept::accepting_after_kind(c, usize::from(x))), x));
    }
    kind(best)
}

/// Supersets of the accepting sets after the discards of a 3n+2-tile hand `c`, without computing
/// them: a kind that lowers the hand left, c − x + j, below its shanten s lowers it through the
/// standard form or a special one (seven pairs, thirteen orphans: a full closed hand only).
/// - The standard form: c − x + j ⊂ c + j and one more tile never adds to a distance, so the
///   standard shanten of c + j is below s too. Where c's own standard shanten is s, j is in c's
///   standard accepting set; above s, no tile brings c − x + j below s (a tile lowers a shanten
///   by one at most); below s there is no bound.
/// - Seven pairs: a kind held once in c − x, or any kind while it holds fewer than seven kinds
///   (no bound); thirteen orphans: no bound (rarely the nearest form).
struct Supersets {
    /// `accept::accepting_bound`: the best discards' shanten and a superset for each discard
    /// leaving it (the special forms cannot matter there); else c's standard shanten and
    /// standard accepting set, found when first asked.
    bound: Option<(i8, u64)>,
    standard: std::cell::OnceCell<(i8, u64)>,
    hand: Counts,
    closed: bool,
}

/// Every kind: no bound.
const ALL: u64 = (1 << KINDS) - 1;

impl Supersets {
    fn new(c: &Counts) -> Self {
        let closed = c.iter().map(|&n| u32::from(n)).sum::<u32>() == 14;
        Supersets { bound: accept::accepting_bound(c), standard: std::cell::OnceCell::new(), hand: *c, closed }
    }

    /// A superset of the accepting set after discarding `x`, which leaves shanten `s`; None for
    /// no bound.
    fn of(&self, x: Kind, s: i8) -> Option<u64> {
        if let Some((best, superset)) = self.bound {
            // The bound holds for the discards leaving `best` and leaves the discarded kind out.
            return (best == s).then_some(superset & !(1 << x));
        }
        // `accepting` on the 3n+2 tiles: the standard form's shanten and accepting set (the
        // special forms count for 13 tiles only), as `accepting_bound` finds them.
        let &(standard, accepting) = self.standard.get_or_init(|| accept::accepting(&self.hand));
        let mut set = match standard.cmp(&s) {
            std::cmp::Ordering::Equal => accepting,
            std::cmp::Ordering::Greater => 0,
            std::cmp::Ordering::Less => return None,
        };
        if self.closed {
            let mut rest = self.hand;
            rest[usize::from(x)] -= 1;
            if shanten::kokushi(&rest) <= s {
                return None;
            }
            if shanten::chiitoitsu(&rest) <= s {
                let kinds = shanten::summary(&rest);
                if kinds.held.count_ones() < 7 {
                    return None;
                }
                set |= kinds.held & !kinds.pairs;
            }
        }
        Some(set & ALL)
    }
}

/// The shanten the concealed hand is left with by `action` at `point`, as H1 measures it: after a
/// discard; after a claim (a pung's or chow's with its best discard, a kong's before its
/// replacement draw); after a kong of one's own; the hand's own after passing a claim, and with its
/// best discard after passing a kong. `i8::MAX` at a win point. The native policy's claims and
/// kongs compare these, and the Python protocol shows them (`shanten_after`).
pub fn shanten_after(v: &View, point: Point, action: Action) -> i8 {
    let c = v.concealed;
    let melds = v.melds.len();
    match (point, action) {
        (Point::Discard, Action::Discard(k)) => accept::after_discards(c)[usize::from(k)],
        (Point::Claim { tile }, Action::Claim(claim)) => {
            let (h, _) = after_claim(c, tile, claim);
            if claim == Claim::Kong {
                shanten_of(&h, 3 - melds)
            } else {
                Bot::best_after_discard(&h)
            }
        }
        (Point::Claim { .. }, Action::Pass) => shanten_of(c, 4 - melds),
        (Point::Kong, Action::Kong(k)) => {
            let mut h = *c;
            let n = h[usize::from(k)];
            h[usize::from(k)] = 0;
            let after_melds = if n == 4 { melds + 1 } else { melds };
            shanten_of(&h, 4 - after_melds)
        }
        (Point::Kong, Action::Pass) => Bot::best_after_discard(c),
        _ => i8::MAX,
    }
}

/// H1's ukeire of discarding `x`: the unseen copies of the kinds in `accepting` (those that lower
/// the shanten of the hand left), counted in the hand after the discard (the discarded tile is not
/// yet seen).
pub fn ukeire(v: &View, x: Kind, accepting: u64) -> u32 {
    Unseen::new(v).after(x, accepting)
}

/// The unseen copies of each kind for the deciding seat (4 less its concealed and visible copies)
/// as three bit planes (bit i of each count), so that the copies of a set of kinds are three
/// popcounts: a discard weighs the ukeire of several candidates and the bounds of all of them.
struct Unseen<'a> {
    planes: [u64; 3],
    concealed: &'a Counts,
    visible: &'a Counts,
}

impl<'a> Unseen<'a> {
    fn new(v: &View<'a>) -> Self {
        let mut planes = [0u64; 3];
        for j in 0..KINDS {
            let n = 4u8.saturating_sub(v.concealed[j] + v.visible[j]);
            for (i, plane) in planes.iter_mut().enumerate() {
                *plane |= u64::from(n >> i & 1) << j;
            }
        }
        Unseen { planes, concealed: v.concealed, visible: v.visible }
    }

    /// The unseen copies of the kinds in `kinds` once `x` is discarded (one more copy of `x`).
    fn after(&self, x: Kind, kinds: u64) -> u32 {
        let held = self.planes.iter().enumerate().map(|(i, p)| (kinds & p).count_ones() << i).sum::<u32>();
        if kinds >> x & 1 == 0 {
            return held;
        }
        let x = usize::from(x);
        let n = |c: u8| u32::from(4u8.saturating_sub(c + self.visible[x]));
        held - n(self.concealed[x]) + n(self.concealed[x] - 1)
    }
}

/// The concealed tiles after claiming `tile` for `claim`, and the set claimed.
fn after_claim(c: &Counts, tile: Kind, claim: Claim) -> (Counts, HkMeld) {
    let mut h = *c;
    h[usize::from(tile)] += 1;
    let meld = match claim {
        Claim::Kong => HkMeld { kind: MeldKind::Daiminkan, base: tile },
        Claim::Pung => HkMeld { kind: MeldKind::Pon, base: tile },
        Claim::Chow { base } => HkMeld { kind: MeldKind::Chi, base },
    };
    for k in meld.tiles() {
        h[usize::from(k)] -= 1;
    }
    (h, meld)
}

/// Under `fan_plan`: the allowed claim that brings the hand nearest to a legal win (`plan.rs`),
/// if it brings it nearer than passing (a kong: if it keeps the distance, as the plain rule).
fn planned_claim(plan: &Planner, v: &View, tile: Kind, legal: &[Action], allowed: impl Fn(&Claim) -> bool) -> Option<Claim> {
    let now = plan.now(v.concealed);
    let mut best: Option<(i8, Claim)> = None;
    for c in claims(legal).filter(allowed) {
        let (h, meld) = after_claim(v.concealed, tile, c);
        let bar = if c == Claim::Kong { now } else { now - 1 };
        // The planned shanten is never below the plain one: a claim the plain shanten rules out
        // needs no planning.
        let sets = plan.sets_needed().saturating_sub(1);
        let plain = if c == Claim::Kong { shanten_of(&h, sets) } else { Bot::best_after_discard(&h) };
        if plain > bar {
            continue;
        }
        let claimed = plan.with_claim(meld);
        let after = if c == Claim::Kong { claimed.now(&h) } else { claimed.best_after_discard(&h) };
        if after <= bar && best.is_none_or(|(b, _)| after < b) {
            best = Some((after, c));
        }
    }
    best.map(|(_, c)| c)
}

/// The kinds in a bit mask, lowest first.
fn kinds_in(mask: u64) -> impl Iterator<Item = Kind> {
    accept::Bits(mask).map(|k| k as Kind)
}
