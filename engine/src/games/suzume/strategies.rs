//! Strategy knobs and the policy that turns them into decisions (spec §13).
//!
//! The spec's strategies are knob combinations (scripts in `strategies/suzume/`):
//! S1 fastest = defaults; S2 max-points = `discard = "max_points"`, `min_win_score = 8`;
//! S3 tsumo-only = `ron = false`; S4 defensive = `fold = true` (plus `ready_streak`, a public
//! tell the spec does not use); S5 dealer-push =
//! max-points with `min_win_score = 6` and `dealer_fastest = true`; bonus-pusher = defensive whose
//! dealer pushes when `dealer_bonus` reaches `dealer_push_bonus`; S0 random = `discard = "random"`;
//! rule-aware = fastest with `plan = "rules"` (hand planning toward the minimum, `plan.rs`).

use super::actions::{Action, Point, View, WinKind};
use super::hand::{self, Parts};
use super::plan;
use super::rules::Rules;
use super::scoring::{Shape, Tables, Tile, CHUN, KINDS, MAX_PLAYERS, TARGETS};
use super::Suzume;
use crate::decide::{Fault, Player};
use crate::options::Validate;
use crate::rng::{Key, Stream};
use crate::{option_enum, options};

option_enum! {
    /// How the discard is chosen when not folding.
    pub enum DiscardRule {
        /// S1: minimise the distance to a win, then maximise the winning/improving tiles.
        Fastest = "fastest",
        /// S2: among near-fastest discards, maximise the best reachable hand value.
        MaxPoints = "max_points",
        /// S0: a uniformly random tile of the six.
        Random = "random"
    }
}

option_enum! {
    /// Whether the discard reads the rules (`plan.rs`).
    pub enum Plan {
        /// Distance and tile counts only.
        Off = "off",
        /// A discard that leaves no path to a hand reaching the rules' minimum counts as one tile
        /// further from a win; a ready hand counts only its legal waits.
        Rules = "rules"
    }
}

options! {
    /// Suzume-jong strategy knobs.
    pub struct Knobs {
        /// Discard rule when attacking.
        discard: DiscardRule = DiscardRule::Fastest;
        /// Declare ron when legal (false: the spec's S3 NeverRon).
        ron: bool = true;
        /// Declare tsumo when legal (false only makes sense for experiments on declining).
        tsumo: bool = true;
        /// Declare a win only if its score (dealer bonus included) is at least this (S2's T).
        min_win_score: u16 = 0, range(0, 100);
        /// Accept any legal win once the stock holds at most one tile per player (S2's last
        /// go-around).
        relax_last_lap: bool = true;
        /// max_points: consider discards whose distance is at most this much above the fastest.
        value_slack: u8 = 1, range(0, 4);
        /// max_points: take a slower discard only if its best reachable score is at least this
        /// much higher.
        value_gain: u16 = 5, range(0, 100);
        /// S4 Fold: stop attacking when far from a win late in the hand; discard the tiles the
        /// most opponents cannot ron.
        fold: bool = false;
        /// Fold once the stock is at most this many tiles per player (S4's S = 2N).
        fold_stock_per_player: u8 = 2, range(0, 20);
        /// Keep attacking while the distance to a win is at most this (1 = ready).
        fold_need: u8 = 1, range(0, 6);
        /// With `fold`: also fold, whatever the stock, once an opponent has discarded the tile it
        /// just drew this many turns in a row (ツモ切り, a public sign of a ready hand), preferring
        /// tiles that opponent cannot ron. 0 ignores the sign.
        ready_streak: u8 = 0, range(0, 20);
        /// S5: as dealer, discard like `fastest` and accept every legal win.
        dealer_fastest: bool = false;
        /// Dealer push gated by the bonus in play: when the rules' `dealer_bonus` is at least this,
        /// the dealer discards like `fastest`, accepts every legal win and never folds; below it
        /// the other knobs play as written. 0: off.
        dealer_push_bonus: u16 = 0, range(0, 100);
        /// Hand planning by the rules (`off`: today's play): `rules` steers discards toward a
        /// hand that reaches the minimum base (`min_points`) under the rules' scoring table.
        plan: Plan = Plan::Off;
    }
}

impl Validate for Knobs {
    fn validate(&self) -> Result<(), crate::options::OptionError> {
        if !self.tsumo && !self.ron {
            return Err(crate::options::OptionError::new(
                "tsumo+ron",
                "a strategy that declares neither tsumo nor ron can never win; expected at least one true",
            ));
        }
        Ok(())
    }
}

/// Per target: the red sets its best reachable score was last computed for, and that score.
type Memo = [((u16, u16), u16); TARGETS];

/// A strategy ready to play: knobs plus the rules it plays under (for hand values).
#[derive(Debug, Clone)]
pub struct Policy {
    pub knobs: Knobs,
    pub rules: Rules,
    /// With `plan = "rules"` under a minimum that binds: what the plan reads of the rules.
    reach: Option<plan::Reach>,
}

/// One discard candidate: the first tile of each distinct (kind, red) in the hand.
#[derive(Debug, Clone, Copy)]
struct Candidate {
    index: usize,
    kind: u8,
    need: u8,
    ukeire: u16,
    safe: u8,
    keep: u8,
}

impl Candidate {
    /// S1's order packed into one integer: lower need, more ukeire, safer, lower keep value,
    /// lower kind. Smaller is better.
    fn fastest_key(&self) -> u64 {
        u64::from(self.need) << 40
            | u64::from(u16::MAX - self.ukeire) << 24
            | u64::from(u8::MAX - self.safe) << 16
            | u64::from(self.keep) << 8
            | u64::from(self.kind)
    }
}

/// A seat played by its knobs: the policy, deciding from the view only, and the stream of its
/// random discards.
pub struct Native<'p> {
    policy: &'p Policy,
    /// The deal's strategy key: hand `h` of seat `s` discards at random from `key/h/s`.
    key: Key,
    /// The hand whose stream `rng` is, once the seat has discarded at random in it.
    rng: Option<(u64, Stream)>,
}

impl<'p> Native<'p> {
    pub fn new(policy: &'p Policy, key: Key) -> Self {
        Native { policy, key, rng: None }
    }

    /// A uniformly random tile of the hand, from the seat's stream of this hand (started at its
    /// first random discard of the hand, so that only random strategies pay for it).
    fn random(&mut self, view: &View) -> usize {
        let hand = view.hand_index;
        if self.rng.as_ref().is_none_or(|(h, _)| *h != hand) {
            self.rng = Some((hand, self.key.with(hand).with(view.seat as u64).stream()));
        }
        let (_, rng) = self.rng.as_mut().expect("set above");
        rng.below(view.hand.len() as u64) as usize
    }
}

/// The native players of a table whose every seat plays its knobs, by seat: asked without dynamic
/// dispatch (the common case, and the one whose speed matters).
pub struct Natives<'p>(pub [Native<'p>; MAX_PLAYERS]);

impl Player<Suzume> for Natives<'_> {
    #[inline(always)]
    fn decide(&mut self, view: &View<'_>, point: Point, legal: &[Action]) -> Result<Action, Fault> {
        self.0[view.seat].decide(view, point, legal)
    }
}

impl Player<Suzume> for Native<'_> {
    #[inline(always)]
    fn decide(&mut self, view: &View<'_>, point: Point, _: &[Action]) -> Result<Action, Fault> {
        let p = self.policy;
        Ok(match point {
            Point::Tsumo { win } => {
                if p.accept_win(view, &win, WinKind::Tsumo) {
                    Action::Tsumo
                } else {
                    Action::Pass
                }
            }
            Point::Ron { win } => {
                if p.accept_win(view, &win, WinKind::Ron) {
                    Action::Ron
                } else {
                    Action::Pass
                }
            }
            Point::Discard => {
                let index = p.discard(view).unwrap_or_else(|| self.random(view));
                Action::Discard(view.hand[index])
            }
        })
    }
}

impl Policy {
    pub fn new(knobs: Knobs, rules: Rules) -> Self {
        let reach = (knobs.plan == Plan::Rules && plan::binds(&rules)).then(|| plan::Reach::new(&rules));
        Policy { knobs, rules, reach }
    }

    fn attacking_fast(&self, view: &View) -> bool {
        (self.knobs.dealer_fastest || self.bonus_push(view)) && view.seat == view.dealer
    }

    /// `dealer_push_bonus`: the bonus at stake makes this dealer push.
    fn bonus_push(&self, view: &View) -> bool {
        let k = &self.knobs;
        view.seat == view.dealer && k.dealer_push_bonus > 0 && self.rules.dealer_bonus >= k.dealer_push_bonus
    }

    /// D1/D3: declare this legal win?
    pub fn accept_win(&self, view: &View, parts: &Parts, kind: WinKind) -> bool {
        let allowed = match kind {
            WinKind::Tsumo => self.knobs.tsumo,
            WinKind::Ron => self.knobs.ron,
        };
        allowed
            && (parts.score >= self.knobs.min_win_score
                || self.attacking_fast(view)
                || (self.knobs.relax_last_lap && view.stock <= view.players))
    }

    /// D2: the index in `view.hand` of the tile to discard; `None` for a uniformly random tile
    /// (S0), which the [`Native`] player draws from its seat's stream.
    pub fn discard(&self, view: &View) -> Option<usize> {
        let k = &self.knobs;
        let ready = if k.fold { view.ready_opponents(k.ready_streak) } else { 0 };
        let folding_possible =
            k.fold && !self.bonus_push(view) && (ready != 0 || view.stock <= usize::from(k.fold_stock_per_player) * view.players);
        let rule = if self.attacking_fast(view) { DiscardRule::Fastest } else { k.discard };
        if rule == DiscardRule::Random && !folding_possible {
            return None;
        }
        let tables = Tables::get();
        let mut after = [0u32; KINDS];
        let mut min_need = u8::MAX;
        for &e in tables.discards(view.state).iter().take_while(|&&e| e != u32::MAX) {
            after[(e >> 24) as usize] = e;
            min_need = min_need.min((e >> 16) as u8);
        }
        // Kinds whose red copy goes first (the plan's; else the plain copy, of lower keep value).
        let mut red_first = 0u16;
        if let Some(reach) = &self.reach {
            (min_need, red_first) = plan::steer(view, reach, &mut after);
        }
        let folding = folding_possible && min_need > k.fold_need;
        // S1 ranks by need first, so only the kinds of least need are candidates; when there is
        // one such kind, its plain copy (lower keep value) is the choice without counting tiles.
        let fastest = rule == DiscardRule::Fastest && !folding;
        let mut fastest_kinds = 0u16;
        if fastest {
            for (kind, &e) in after.iter().enumerate() {
                if e != 0 && (e >> 16) as u8 == min_need {
                    fastest_kinds |= 1 << kind;
                }
            }
            if fastest_kinds.count_ones() == 1 {
                let kind = fastest_kinds.trailing_zeros() as u8;
                let mut of_kind = view.hand.iter().enumerate().filter(|(_, t)| t.kind() == kind);
                let first = of_kind.clone().next().map_or(0, |(i, _)| i);
                let red = |t: &Tile| t.is_red_number() && view.red & (1 << kind) != 0;
                return Some(of_kind.find(|(_, t)| red(t) == (red_first & 1 << kind != 0)).map_or(first, |(i, _)| i));
            }
        }
        let unseen = view.unseen();
        // Bit planes of the unseen counts (plane j: kinds with more than j unseen copies), so
        // that the unseen copies of a set of kinds are four popcounts.
        let mut planes = [0u16; 4];
        for (k, &u) in unseen.iter().enumerate() {
            for plane in planes.iter_mut().take(usize::from(u)) {
                *plane |= 1 << k;
            }
        }
        let mut cands = [Candidate { index: 0, kind: 0, need: 0, ukeire: 0, safe: 0, keep: 0 }; 6];
        let mut len = 0;
        let mut done = 0u32; // bit per (kind, red) already seen
        for (i, t) in view.hand.iter().enumerate() {
            let kind = t.kind();
            let red = view.red & (1 << kind) != 0 && t.is_red_number();
            let bit = 1u32 << (kind * 2 + u8::from(red));
            if done & bit != 0 || (fastest && fastest_kinds & (1 << kind) == 0) {
                continue;
            }
            done |= bit;
            let e = after[usize::from(kind)];
            let improve = e as u16;
            let ukeire = planes.iter().map(|&p| (p & improve).count_ones() as u16).sum();
            let keep = u8::from(red != (red_first & 1 << kind != 0)) + u8::from(Some(kind) == view.dora) + u8::from(kind == CHUN);
            cands[len] = Candidate { index: i, kind, need: (e >> 16) as u8, ukeire, safe: view.safe_count(kind), keep };
            len += 1;
        }
        let cands = &cands[..len];
        if folding {
            let safest = cands.iter().min_by_key(|c| {
                let vs_ready = view.safe_against(ready, c.kind);
                (std::cmp::Reverse(vs_ready), std::cmp::Reverse(c.safe), unseen[usize::from(c.kind)], c.fastest_key())
            });
            return Some(safest.map_or(0, |c| c.index));
        }
        match rule {
            DiscardRule::Random => None,
            DiscardRule::Fastest => Some(cands.iter().min_by_key(|c| c.fastest_key()).map_or(0, |c| c.index)),
            DiscardRule::MaxPoints => Some(self.max_points(view, cands, &unseen, min_need)),
        }
    }

    /// S2: the best discard of each distance level by reachable score; a slower level wins only
    /// when it gains at least `value_gain`.
    fn max_points(&self, view: &View, cands: &[Candidate], unseen: &[u8; KINDS], min_need: u8) -> usize {
        let mut memo: Memo = [((u16::MAX, u16::MAX), 0); TARGETS];
        let mut chosen: Option<(u16, &Candidate)> = None;
        for level in min_need..=min_need.saturating_add(self.knobs.value_slack) {
            let best = cands
                .iter()
                .filter(|c| c.need == level)
                .map(|c| (self.best_reachable(view, c, unseen, &mut memo), c))
                .min_by_key(|(score, c)| (std::cmp::Reverse(*score), c.fastest_key()));
            if let Some((score, c)) = best {
                match chosen {
                    None => chosen = Some((score, c)),
                    Some((s, _)) if score >= s + self.knobs.value_gain => chosen = Some((score, c)),
                    _ => {}
                }
            }
        }
        chosen.map_or(0, |(_, c)| c.index)
    }

    /// The spec's `best_reachable_score`: the highest score of a complete hand at the distance
    /// `need` from the hand left by discarding `c` (its nearest targets), drawing only unseen copies. A missing number
    /// is assumed drawn as its red copy when that copy is unseen, or plain (whichever scores more).
    fn best_reachable(&self, view: &View, c: &Candidate, unseen: &[u8; KINDS], memo: &mut Memo) -> u16 {
        let tables = Tables::get();
        let red_unseen = view.red_unseen(self.rules.red_tiles);
        let s5 = tables.remove(view.state, c.kind);
        let held = tables.counts(s5);
        let discarded_red = view.hand[c.index].is_red_number() && view.red & (1 << c.kind) != 0;
        let held_red = if discarded_red { view.red & !(1 << c.kind) } else { view.red };
        let dealer = view.seat == view.dealer;
        let mut best = 0;
        for &i in tables.nearest(s5) {
            let (t, slot) = (&tables.targets[usize::from(i)], &mut memo[usize::from(i)]);
            let mut feasible = true;
            let mut red_missing = 0u16;
            let mut kinds = t.kinds;
            while kinds != 0 {
                let k = kinds.trailing_zeros() as u8;
                kinds &= kinds - 1;
                let want = t.counts[usize::from(k)];
                let have = held[usize::from(k)].min(want);
                if want > have {
                    feasible &= want - have <= unseen[usize::from(k)];
                    red_missing |= red_unseen & (1 << k);
                }
            }
            if !feasible {
                continue;
            }
            // The value depends on the candidate only through these two red sets, which most
            // candidates share: reuse the last one computed for this target.
            let red = held_red & t.kinds & 0x1FF;
            let key = (red, red | red_missing);
            if slot.0 != key {
                let shape = Shape { sets: t.sets };
                let score = [key.0, key.1]
                    .iter()
                    .map(|&r| hand::value_of(shape, &t.counts, t.kinds, r, view.dora, dealer, &self.rules))
                    .filter(|p| p.legal)
                    .map(|p| p.score)
                    .max()
                    .unwrap_or(0);
                *slot = (key, score);
            }
            best = best.max(slot.1);
        }
        best
    }
}
