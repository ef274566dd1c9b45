//! Strategy knobs, the §12 helpers (shanten7, waits, improving cards) and the policy.
//!
//! The spec's strategies are knob combinations (scripts in `strategies/trump/`):
//! T1 always-riichi = defaults; T2 dama = `riichi = false`; T3 fold-on-riichi = `fold = true`;
//! T4 tsumo-only = `riichi = false`, `ron = false`; T5 kokushi-hunter = `kokushi_hunt = true`;
//! T6 max-han = `min_han = 3`; random = `discard = "random"`; rule-aware = `plan = "rules"` (T1
//! preferring a tenpai discard that can win by ron under the rules, `plan.rs`). A seat plays its
//! knobs as a [`Native`] player, deciding from its [`View`] alone.

use super::actions::{Action, Point, View};
use super::hand::{waits, Value};
use super::plan::{self, Ron};
use super::rules::Rules;
use super::scoring::{is_honour, is_terminal, Counts, JOKER, KINDS, KOKUSHI};
use super::Trump;
use crate::decide::{Fault, Player};
use crate::options::Validate;
use crate::rng::Stream;
use crate::{option_enum, options};
use std::sync::OnceLock;

option_enum! {
    /// How the discard is chosen when not folding.
    pub enum DiscardRule {
        /// Minimise shanten7, then maximise the live improving cards (T1).
        Fastest = "fastest",
        /// A uniformly random card of the eight.
        Random = "random"
    }
}

option_enum! {
    /// Whether the discard reads the rules (`plan.rs`).
    pub enum Plan {
        /// Shanten and live cards only.
        Off = "off",
        /// Among tenpai discards, one that can win by ron under the rules comes first, and riichi
        /// is declared where it is what makes ron legal.
        Rules = "rules"
    }
}

options! {
    /// Trump mahjong strategy knobs.
    pub struct Knobs {
        /// Discard rule when attacking.
        discard: DiscardRule = DiscardRule::Fastest;
        /// Declare riichi at the first tenpai when legal (T1); false: never (T2 dama).
        riichi: bool = true;
        /// Declare ron when legal (false: T4 tsumo-only).
        ron: bool = true;
        /// Declare tsumo when legal.
        tsumo: bool = true;
        /// Decline wins worth fewer han than this (T6's k; 0: take every win) ...
        min_han: u8 = 0, range(0, 32);
        /// ... unless at most this many live cards remain.
        min_han_relax_live: u8 = 3, range(0, 24);
        /// Keep a Joker while the kokushi shanten is at most this (T1: 2).
        keep_joker_shanten: u8 = 2, range(0, 7);
        /// T5: hunt kokushi (keep every Joker with at least `kokushi_kinds` kokushi kinds held,
        /// discard for kokushi while its shanten is at most `kokushi_shanten`).
        kokushi_hunt: bool = false;
        /// T5: kokushi kinds held (Jokers included) from which Jokers are kept.
        kokushi_kinds: u8 = 4, range(1, 7);
        /// T5: the kokushi shanten up to which discards aim at kokushi.
        kokushi_shanten: u8 = 3, range(0, 7);
        /// T3: after an opponent's riichi, discard the safest card unless tenpai with at least
        /// `fold_min_live` live winning cards; never declare riichi after an opponent's.
        fold: bool = false;
        /// T3: live winning cards that justify pushing on against a riichi.
        fold_min_live: u8 = 4, range(0, 32);
        /// Planning by the rules (`off`: today's play): `rules` prefers a tenpai discard that can
        /// win by ron (a yaku on the wait or riichi, not furiten, 完全先付け) and declares riichi
        /// where it is what makes ron legal, even with `riichi = false`.
        plan: Plan = Plan::Off;
    }
}

impl Validate for Knobs {}

/// Per 7-card multiset: shanten by the standard and four-pairs shapes, by kokushi, the kinds that
/// lower each, and the waits (§12's helpers, precomputed once for all 73,775 multisets).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Info {
    pub normal: i8,
    pub kokushi: i8,
    pub improve_normal: u16,
    pub improve_kokushi: u16,
    pub waits: u16,
}

use super::scoring::pack_counts as pack;

/// An open-addressing table of every 7-card multiset.
pub struct Table7 {
    keys: Vec<u64>,
    infos: Vec<Info>,
}

const BITS: u32 = 17;

fn slot(key: u64) -> usize {
    (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - BITS)) as usize
}

impl Table7 {
    pub fn get() -> &'static Table7 {
        static T: OnceLock<Table7> = OnceLock::new();
        T.get_or_init(Table7::build)
    }

    fn find(&self, key: u64) -> usize {
        let mask = (1 << BITS) - 1;
        let mut i = slot(key);
        while self.keys[i] != key && self.keys[i] != u64::MAX {
            i = (i + 1) & mask;
        }
        i
    }

    /// The info of 7 cards given packed.
    pub fn info(&self, key: u64) -> Info {
        self.infos[self.find(key)]
    }

    fn build() -> Table7 {
        let mut t = Table7 { keys: vec![u64::MAX; 1 << BITS], infos: vec![Info::default(); 1 << BITS] };
        let mut all = Vec::new();
        sevens(0, 7, &mut [0; KINDS], &mut all);
        for c in &all {
            let i = t.find(pack(c));
            t.keys[i] = pack(c);
            t.infos[i] =
                Info { normal: standard_shanten(c).min(pairs_shanten(c)), kokushi: kokushi_shanten(c), waits: waits(c), ..Info::default() };
        }
        for c in &all {
            let here = t.info(pack(c));
            let (mut normal, mut kokushi) = (0u16, 0u16);
            for k in 0..KINDS {
                if c[k] >= super::scoring::copies(k as u8) {
                    continue;
                }
                let mut d = *c;
                d[k] += 1;
                let (mut bn, mut bk) = (i8::MAX, i8::MAX);
                for j in 0..KINDS {
                    if d[j] == 0 {
                        continue;
                    }
                    d[j] -= 1;
                    let o = t.info(pack(&d));
                    (bn, bk) = (bn.min(o.normal), bk.min(o.kokushi));
                    d[j] += 1;
                }
                normal |= u16::from(bn < here.normal) << k;
                kokushi |= u16::from(bk < here.kokushi) << k;
            }
            let i = t.find(pack(c));
            // At tenpai the improving cards are the winning ones.
            t.infos[i].improve_normal = if here.normal == 0 { here.waits } else { normal };
            t.infos[i].improve_kokushi = if here.kokushi == 0 { kokushi_waits(c) } else { kokushi };
        }
        t
    }
}

fn sevens(k: usize, left: u8, c: &mut Counts, out: &mut Vec<Counts>) {
    if k == KINDS {
        if left == 0 {
            out.push(*c);
        }
        return;
    }
    for m in 0..=left.min(super::scoring::copies(k as u8)) {
        c[k] = m;
        sevens(k + 1, left - m, c, out);
    }
    c[k] = 0;
}

/// §12 standard shanten, exact for hands with Jokers too: `7 − kept`, where `kept` is the most
/// cards a split keeps: its M trios, T partials (M + T ≤ 2), P head pair, and as many floating
/// cards as seeds for the missing groups. With floating cards to spare this is §12's
/// `4 − 2M − T − P`; a Joker floats but seeds nothing (it cannot be in a standard hand), so
/// `X QQQ KKK` is 1, not 0.
pub fn standard_shanten(c: &Counts) -> i8 {
    /// The achievable (M, T) with at most `left` blocks among ranks `from..`, as bits `3M + T`.
    fn blocks(c: &mut [u8; 13], from: usize, left: u8) -> u16 {
        let Some(k) = (from..13).find(|&k| c[k] > 0) else { return 1 };
        if left == 0 {
            return 1;
        }
        let saved = c[k];
        c[k] = 0;
        let mut mask = blocks(c, k + 1, left);
        c[k] = saved;
        let shapes: [(&[usize], u16, bool); 5] =
            [(&[0, 0, 0], 3, true), (&[0, 0], 1, true), (&[0, 1, 2], 3, k <= 6), (&[0, 1], 1, k <= 7), (&[0, 2], 1, k <= 6)];
        for (offsets, shift, allowed) in shapes {
            let mut need = [0u8; 3];
            offsets.iter().for_each(|&o| need[o] += 1);
            if !allowed || (0..3).any(|o| need[o] > 0 && c[k + o] < need[o]) {
                continue;
            }
            offsets.iter().for_each(|&o| c[k + o] -= 1);
            mask |= blocks(c, k, left - 1) << shift;
            offsets.iter().for_each(|&o| c[k + o] += 1);
        }
        mask
    }
    let n: i8 = c[..13].iter().map(|&x| x as i8).sum();
    let kept = |mask: u16, pair: i8| {
        (0..9)
            .filter(|&b| mask & (1 << b) != 0 && b / 3 + b % 3 <= 2)
            .map(|b| {
                let (m, t) = ((b / 3) as i8, (b % 3) as i8);
                let used = 3 * m + 2 * t + 2 * pair;
                used + (n - used).min(3 - m - t - pair)
            })
            .max()
            .unwrap_or(0)
    };
    let mut r: [u8; 13] = std::array::from_fn(|k| c[k]);
    let mut best = kept(blocks(&mut r, 0, 2), 0);
    for p in 0..13 {
        if r[p] >= 2 {
            r[p] -= 2;
            best = best.max(kept(blocks(&mut r, 0, 2), 1));
            r[p] += 2;
        }
    }
    7 - best
}

/// Four pairs: `3 − pairs`, plus the ranks still missing for four different ones.
pub fn pairs_shanten(c: &Counts) -> i8 {
    let pairs = (0..13).filter(|&k| c[k] >= 2).count() as i8;
    let kinds = (0..13).filter(|&k| c[k] > 0).count() as i8;
    3 - pairs.min(4) + (4 - kinds).max(0)
}

/// §12 kokushi shanten: `7 − kinds − (1 if one is held twice)`, Jokers held counting.
pub fn kokushi_shanten(c: &Counts) -> i8 {
    let kinds = KOKUSHI.iter().filter(|&&k| c[usize::from(k)] > 0).count() as i8;
    let pair = KOKUSHI.iter().any(|&k| c[usize::from(k)] >= 2);
    7 - kinds - i8::from(pair)
}

/// The kinds that complete a kokushi-tenpai 7 (with or without a Joker held: a Joker drawn is kept).
fn kokushi_waits(c: &Counts) -> u16 {
    KOKUSHI
        .iter()
        .filter(|&&k| {
            let mut d = *c;
            d[usize::from(k)] += 1;
            d[usize::from(JOKER)] <= 2 && kokushi_shanten(&d) == -1
        })
        .fold(0, |m, &k| m | 1 << k)
}

/// A strategy: knobs applied to views.
#[derive(Debug, Clone)]
pub struct Policy {
    pub knobs: Knobs,
    pub rules: Rules,
}

/// A seat played by its knobs in one hand: the policy, and the seat's keyed stream of random
/// decisions in this hand (`seed/TAG_STRATEGY/d/h[/r]/s`).
pub struct Native<'a> {
    pub policy: &'a Policy,
    pub rng: Stream,
}

impl Player<Trump> for Native<'_> {
    fn decide(&mut self, view: &View<'_>, point: Point, legal: &[Action]) -> Result<Action, Fault> {
        let p = self.policy;
        let yes = |yes: bool, a: Action| if yes { a } else { Action::Pass };
        Ok(match point {
            Point::KeepJoker => {
                if p.keep_joker(&view.counts) {
                    Action::Keep
                } else {
                    Action::SetAside
                }
            }
            Point::Tsumo(value) => yes(p.accept_win(view, &value, true), Action::Tsumo),
            Point::Ron(value) => yes(p.accept_win(view, &value, false), Action::Ron),
            Point::Discard => {
                // The discards come first, one per card, then riichi with each tenpai discard.
                let riichi_legal = legal.len() > view.hand.len();
                let after = view.after.expect("a discard view carries the shapes after each discard");
                let (i, riichi) = p.discard(view, after, &mut self.rng, riichi_legal);
                Action::Discard { card: view.hand[i], riichi }
            }
        })
    }
}

/// The §12 safety order against riichi players, safest first (0), with more visible copies first.
fn danger(view: &View, kind: u8, riichi: u8, furiten: bool) -> u32 {
    let seen = u32::from(view.seen[usize::from(kind)]);
    let safe_vs = |p: usize| {
        let d = if furiten { view.discarded[p] } else { view.discarded_after_riichi[p] };
        d & (1 << kind) != 0
    };
    let class = if (0..3).filter(|p| riichi & (1 << p) != 0).all(safe_vs) {
        0
    } else if is_honour(kind) && seen >= 3 {
        1
    } else if is_honour(kind) || kind == JOKER {
        2
    } else if is_terminal(kind) {
        3
    } else if kind == 1 || kind == 7 {
        4
    } else {
        5
    };
    class * 8 + (7 - seen.min(7))
}

impl Policy {
    pub fn new(knobs: Knobs, rules: Rules) -> Self {
        Policy { knobs, rules }
    }

    fn kokushi_allowed(&self) -> bool {
        self.rules.joker_keep_allowed
    }

    /// D1/D6: keep a Joker in hand (`counts` includes it)?
    pub fn keep_joker(&self, counts: &Counts) -> bool {
        if !self.kokushi_allowed() {
            return false;
        }
        if self.knobs.kokushi_hunt {
            let kinds = KOKUSHI.iter().filter(|&&k| counts[usize::from(k)] > 0).count();
            return kinds >= usize::from(self.knobs.kokushi_kinds);
        }
        // 8 cards with the Joker: the best kokushi shanten after a discard.
        let mut best = i8::MAX;
        let mut d = *counts;
        for j in (0..KINDS).filter(|&j| counts[j] > 0 && j != usize::from(JOKER)) {
            d[j] -= 1;
            best = best.min(kokushi_shanten(&d));
            d[j] += 1;
        }
        best <= self.knobs.keep_joker_shanten as i8
    }

    /// D2/D5: declare this legal win?
    pub fn accept_win(&self, view: &View, value: &Value, tsumo: bool) -> bool {
        let k = &self.knobs;
        let allowed = if tsumo { k.tsumo } else { k.ron };
        allowed && (value.han >= k.min_han || view.live <= usize::from(k.min_han_relax_live))
    }

    /// D3/D4: the index in `view.hand` of the card to discard, and whether to declare riichi
    /// (`riichi_legal` says whether the rules allow one with some tenpai discard); `after` is
    /// [`after_discards`](super::actions::after_discards) of the hand.
    pub fn discard(&self, view: &View, after: &[Info; KINDS], rng: &mut Stream, riichi_legal: bool) -> (usize, bool) {
        let k = &self.knobs;
        let opponents_riichi = (0..3).filter(|&p| p != view.seat && view.riichi[p]).fold(0u8, |m, p| m | 1 << p);
        let unseen = view.unseen();
        let live_of = |mask: u16| -> u32 { (0..KINDS).filter(|&j| mask & (1 << j) != 0).map(|j| u32::from(unseen[j])).sum() };
        let info_after = |kind: u8| after[usize::from(kind)];
        let kokushi_on = self.kokushi_allowed() && (k.kokushi_hunt || view.counts[usize::from(JOKER)] > 0);
        let shanten = |i: &Info| if kokushi_on { i.normal.min(i.kokushi) } else { i.normal };
        let improve = |i: &Info| {
            if !kokushi_on {
                i.improve_normal
            } else if k.kokushi_hunt && i.kokushi <= k.kokushi_shanten as i8 {
                i.improve_kokushi
            } else {
                let s = shanten(i);
                (if i.normal == s { i.improve_normal } else { 0 }) | (if i.kokushi == s { i.improve_kokushi } else { 0 })
            }
        };
        let hunting = |i: &Info| k.kokushi_hunt && kokushi_on && i.kokushi <= k.kokushi_shanten as i8;
        let kinds = || (0..KINDS as u8).filter(|&j| view.counts[usize::from(j)] > 0);
        let index_of = |kind: u8| view.hand.iter().position(|c| c.kind() == kind).unwrap_or(0);
        if k.discard == DiscardRule::Random {
            let i = rng.below(view.hand.len() as u64) as usize;
            let tenpai = info_after(view.hand[i].kind()).waits != 0;
            return (i, riichi_legal && k.riichi && tenpai);
        }
        let folding = k.fold && opponents_riichi != 0;
        if folding {
            // Push on only from tenpai with enough live winning cards.
            let push = kinds().any(|j| {
                let i = info_after(j);
                i.waits != 0 && live_of(i.waits) >= u32::from(k.fold_min_live)
            });
            if !push {
                let furiten = self.rules.furiten == super::rules::Furiten::Standard;
                let kind = kinds().min_by_key(|&j| (danger(view, j, opponents_riichi, furiten), j)).unwrap_or(0);
                return (index_of(kind), false);
            }
        }
        // The plan's judgement of each tenpai discard (`Ron::Dama` when the plan is off); a seat
        // that declares riichi anyway asks only whether riichi makes ron legal.
        let ron = |j: u8| {
            let waits = info_after(j).waits;
            if k.plan == Plan::Off || waits == 0 {
                Ron::Dama
            } else if k.riichi && riichi_legal && !folding {
                if plan::ron_legal(view, &self.rules, j, waits, true) {
                    Ron::WithRiichi
                } else {
                    Ron::Never
                }
            } else {
                plan::judge(view, &self.rules, j, waits, riichi_legal)
            }
        };
        let key = |j: u8| {
            let i = info_after(j);
            let s = if hunting(&i) { i.kokushi } else { shanten(&i) };
            let han = if k.min_han > 0 && i.waits != 0 { self.best_wait_han(view, j, i.waits) } else { 0 };
            // A tenpai discard that cannot win by ron still wins by tsumo: it stays tenpai, after
            // every one that can (only the tenpai discards are judged: s is 0 for them alone).
            let never = s == 0 && ron(j) == Ron::Never;
            (s, never, u32::MAX - live_of(improve(&i)), u8::MAX - han, j)
        };
        let kind = kinds().min_by_key(|&j| key(j)).unwrap_or(0);
        let tenpai = info_after(kind).waits != 0;
        let declare = k.riichi || (k.plan == Plan::Rules && ron(kind) == Ron::WithRiichi);
        let riichi = riichi_legal && declare && tenpai && !folding;
        (index_of(kind), riichi)
    }

    /// T6: the most han among the tsumo wins the 7 cards left after discarding `kind` wait on.
    fn best_wait_han(&self, view: &View, kind: u8, waits: u16) -> u8 {
        let mut c = view.counts;
        c[usize::from(kind)] -= 1;
        let s = view.situation(true, super::hand::Riichi::None);
        (0..KINDS as u8)
            .filter(|&w| waits & (1 << w) != 0)
            .filter_map(|w| {
                let mut d = c;
                d[usize::from(w)] += 1;
                super::hand::best(&d, &super::hand::Situation { win: w, ..s }, &self.rules).map(|v| v.han)
            })
            .max()
            .unwrap_or(0)
    }
}
