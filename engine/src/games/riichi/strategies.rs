//! Strategy knobs and the native policy that turns them into decisions.
//!
//! Every built-in strategy is a knob set: `efficiency` (discard to the lowest shanten, then the
//! most unseen accepting tiles), with ron, tsumo, riichi, calls, kans, nagashi pursuit and folding
//! each switchable, and
//! `random` (a uniform legal action).
//!
//! Folding (`fold = "riichi"`): once an opponent is in riichi, unless the player is ready with at
//! least `push_ukeire` unseen winning tiles, it discards the safest tile by the tiers of
//! [`defense::tier`]; ties go to the more efficient discard. The discard itself is chosen in
//! `discard.rs`.

use super::accept::after_discards;
use super::actions::{Action, Point, View};
use super::defense;
use super::discard::{choose, prospects, Guard};
use super::plan::{self, Plan};
use super::shanten;
use super::state::{MeldRec, SEATS};
use super::tiles::{is_yaochu, Counts, Kind, MeldKind, KINDS};
use super::Riichi;
use crate::decide::{Fault, Player};
use crate::options::Validate;
use crate::rng::Key;
use crate::{option_enum, options};

option_enum! {
    /// The policy family.
    pub enum Policy { Efficiency = "efficiency", Random = "random" }
}

option_enum! {
    /// When a closed ready hand declares riichi.
    pub enum RiichiPolicy {
        /// Always, when legal (riichi is declared with the most efficient discard).
        Always = "always",
        /// Never (damaten).
        Never = "never",
        /// Only with at least `riichi_good_wait` unseen winning tiles.
        GoodWait = "good_wait",
        /// Unless the hand wins by ron already with at least `dama_han` han (dora included): then
        /// dama, which a riichi would tell everyone.
        Value = "value",
    }
}

option_enum! {
    /// Which kans to declare (closed, added and open).
    pub enum KanPolicy {
        Never = "never",
        /// A closed or added kan that leaves the shanten and the unseen accepting tiles no worse
        /// than the best discard would (under riichi: every kan the rules offer, since
        /// riichi_ankan already keeps the waits); an open kan only into a hand already open, with
        /// the same test against the hand as it stands.
        Safe = "safe",
        /// Every kan offered.
        Always = "always",
    }
}

option_enum! {
    /// Which discards to call (pon, chi; kans are the `kan` knob's).
    pub enum CallPolicy {
        Never = "never",
        /// Pon a value honor (dragon, seat or round wind) pair; once a value meld is down, any pon
        /// or chi that lowers shanten.
        Yakuhai = "yakuhai",
        /// Any pon or chi that lowers shanten and keeps a yaku in reach (a value honor, or all
        /// simples with kuitan).
        Any = "any",
    }
}

option_enum! {
    /// Under allow_noten_declaration: when a tenpai player not in riichi claims noten at an
    /// exhaustive draw.
    pub enum NotenDeclaration {
        Never = "never",
        /// The dealer of the last scheduled hand (or an extension hand) whose noten claim passes
        /// the deal and so ends the game with them in sole first place after the noten payments,
        /// whichever of the seats that have not shown yet are tenpai (the dealer shows first and
        /// sees no other hand), unless declaring tenpai would surely end it already by
        /// tenpai_yame. A non-dealer's claim never moves the deal, so never.
        WhenItEndsGameOnTop = "when_it_ends_game_on_top",
        /// Every time (a floor: gives up noten payments for nothing).
        Always = "always",
    }
}

option_enum! {
    /// What makes the player fold.
    pub enum FoldTrigger {
        Never = "never",
        /// Once an opponent is in riichi, fold unless ready with `push_ukeire` unseen winning tiles.
        Riichi = "riichi",
        /// Against a riichi, push or fold by hand value against danger (`defense.rs`).
        Value = "value",
    }
}

options! {
    /// Knobs of a Riichi strategy. The defaults are the `efficiency` strategy.
    pub struct Knobs {
        /// efficiency or random (uniform over the legal actions).
        policy: Policy = Policy::Efficiency;
        /// Declare ron when legal.
        ron: bool = true;
        /// Declare tsumo when legal.
        tsumo: bool = true;
        /// Riichi policy of a closed ready hand.
        riichi: RiichiPolicy = RiichiPolicy::Always;
        /// good_wait riichi: least unseen winning tiles.
        riichi_good_wait: u8 = 5, range(0, 40);
        /// Call policy.
        calls: CallPolicy = CallPolicy::Never;
        /// Kan policy (closed, added and open kans).
        kan: KanPolicy = KanPolicy::Safe;
        /// Pursue nagashi mangan when the hand is hopeless: while every discard so far is a
        /// terminal or honor and none was called, a hand at `nagashi_shanten` or worse discards
        /// only terminals and honors (the most efficient of them) when it holds one.
        nagashi: bool = false;
        /// nagashi: the shanten (after the best discard) from which the hand counts as hopeless.
        nagashi_shanten: u8 = 2, range(1, 8);
        /// Fold trigger.
        fold: FoldTrigger = FoldTrigger::Never;
        /// A ready hand with at least this many unseen winning tiles pushes instead of folding.
        push_ukeire: u8 = 6, range(0, 40);
        /// fold = value: the han (dora included) from which a hand one tile from ready pushes
        /// against a non-dealer riichi as a non-dealer.
        push_han: u8 = 4, range(0, 13);
        /// riichi = value: the han by ron (dora included) from which a ready hand stays dama.
        dama_han: u8 = 4, range(1, 13);
        /// Plan the hand by the rules (`plan.rs`): discards and calls keep a path to a legal
        /// win under the rules' least han, kuitan, sakizuke and kansaki; a ready hand without
        /// one counts as one tile further from ready.
        yaku_plan: bool = false;
        /// With `yaku_plan`: the least han in reach (yaku and dora) for a call that does not make
        /// the hand ready.
        call_value: u8 = 0, range(0, 13);
        /// Among equally efficient discards, keep dora, red fives and value-honor pairs.
        keep_value: bool = true;
        /// Declare 九種九牌 when offered.
        kyuushu: bool = true;
        /// Under agari_yame/tenpai_yame = choice: stop the game when the dealer is in first place.
        yame: bool = true;
        /// Under allow_noten_declaration: when a tenpai hand claims noten at an exhaustive draw.
        noten_declaration: NotenDeclaration = NotenDeclaration::Never;
        /// Under local yaku open_riichi: declare every riichi open (one more han, a yakuman from a
        /// player not in riichi who deals in; native players never discard into a shown wait when
        /// another discard exists).
        open_riichi: bool = false;
        /// Sanma nukidora: keep Norths as ordinary tiles instead of extracting them (flowers are
        /// always extracted: a held flower can only cost a tile).
        keep_north: bool = false;
    }
}

impl Validate for Knobs {}

/// A seat's native player: its knobs, and its key for random choices (drawn by a per-seat
/// decision counter).
pub struct Native<'k> {
    pub knobs: &'k Knobs,
    pub key: Key,
    pub counter: u64,
}

impl<'k> Native<'k> {
    pub fn new(knobs: &'k Knobs, key: Key) -> Self {
        Native { knobs, key, counter: 0 }
    }
}

impl Player<Riichi> for Native<'_> {
    fn decide(&mut self, v: &View<'_>, point: Point, legal: &[Action]) -> Result<Action, Fault> {
        let k = self.knobs;
        let tile = match point {
            Point::Turn { .. } => None,
            Point::Response { from, tile, .. } => Some((from, tile)),
            Point::Noten { .. } | Point::OpenRiichi | Point::Yame => return Ok(knob_answer(k, v, point).unwrap_or(Action::Pass)),
        };
        self.counter += 1;
        if k.policy == Policy::Random {
            let i = self.key.draw(self.counter) % legal.len() as u64;
            return Ok(legal[i as usize]);
        }
        Ok(match tile {
            None => turn(k, v, legal),
            Some((from, tile)) => respond(k, v, from, tile, legal),
        })
    }
}

/// The knobs' answer at the yes/no points that a knob decides whatever the policy: a noten claim
/// (`noten_declaration`), an open riichi (`open_riichi`) and yame (`yame`, when the dealer is in
/// first place). `None` at a turn or a response. Python strategies' slots answer these points by
/// their knobs too.
pub fn knob_answer(k: &Knobs, v: &View<'_>, point: Point) -> Option<Action> {
    let (yes, action) = match point {
        Point::Turn { .. } | Point::Response { .. } => return None,
        Point::Noten { shown } => (
            match k.noten_declaration {
                NotenDeclaration::Never => false,
                NotenDeclaration::Always => true,
                NotenDeclaration::WhenItEndsGameOnTop => noten_ends_game_on_top(k, v, shown),
            },
            Action::DeclareNoten,
        ),
        Point::OpenRiichi => (k.open_riichi, Action::OpenRiichi),
        Point::Yame => (k.yame && super::batch::dealer_is_top(&v.points(), v.dealer, v.n), Action::Yame),
    };
    Some(if yes { action } else { Action::Pass })
}

/// The `when_it_ends_game_on_top` test (see [`NotenDeclaration`]) with the tenpai `shown` so far.
fn noten_ends_game_on_top(k: &Knobs, v: &View<'_>, shown: u8) -> bool {
    let (rules, seat, round) = (v.rules, v.seat, v.progress.round);
    // Only where tenpai keeps the deal and noten passes it does the claim change anything.
    let noten_passes = match rules.renchan_on_draw {
        super::rules::RenchanOnDraw::Tenpai => true,
        super::rules::RenchanOnDraw::EastNotenPassesSouthKeeps => round < v.n as u32,
        super::rules::RenchanOnDraw::AlwaysPass | super::rules::RenchanOnDraw::AlwaysKeep => false,
    };
    if seat != usize::from(v.dealer) || round + 1 < super::batch::scheduled(rules) || !noten_passes {
        return false;
    }
    let points = v.points();
    let after = |mask: u8| -> [i64; SEATS] {
        let pay = super::scoring::noten_payments(rules, mask);
        std::array::from_fn(|i| points[i] + pay[i])
    };
    let top = |pts: &[i64; SEATS]| crate::game::ranks(&pts[..v.n])[seat] == 1;
    // The claim ends the game with the seat on top, and tenpai would end it by yame, when the
    // others' tenpai is `others`.
    let claim_wins = |others: u8| {
        let noten = after(others);
        top(&noten) && (super::batch::busted_at(rules, &noten) || super::batch::over_when_deal_passes(rules, round, &noten))
    };
    let yame_ends = |others: u8| {
        let tenpai_pts = after(others | 1 << seat);
        top(&tenpai_pts)
            && match rules.tenpai_yame {
                super::rules::Yame::Off => false,
                super::rules::Yame::Choice => k.yame,
                super::rules::Yame::AutoIfTop => {
                    rules.extension == super::rules::Extension::Off || tenpai_pts[seat] >= i64::from(rules.return_points)
                }
            }
    };
    // Every tenpai the seats after this one in turn order may show.
    let turn = |s: usize| (s + v.n - usize::from(v.dealer)) % v.n;
    let unknown = (0..v.n).filter(|&o| turn(o) > turn(seat)).fold(0u8, |m, o| m | 1 << o);
    let worlds: Vec<u8> = (0..=unknown).filter(|&x| x & !unknown == 0).map(|x| shown | x).collect();
    worlds.iter().all(|&w| claim_wins(w)) && !worlds.iter().all(|&w| yame_ends(w))
}

pub(super) fn is_value_honor(v: &View<'_>, k: Kind) -> bool {
    k >= 31 || k == v.round_wind() || k == v.seat_wind(v.seat) || (k == 30 && v.rules.north_value())
}

/// The turn action the knobs choose.
fn turn(k: &Knobs, v: &View<'_>, legal: &[Action]) -> Action {
    // `matches!` tests the tag alone; `contains` compares whole actions (every turn, ~14 of them).
    if k.tsumo && legal.iter().any(|a| matches!(a, Action::Tsumo)) {
        return Action::Tsumo;
    }
    if k.kyuushu && legal.iter().any(|a| matches!(a, Action::Kyuushu)) {
        return Action::Kyuushu;
    }
    // Extraction is offered only with flowers or the sanma North as nukidora.
    if v.rules.nuki() {
        if let Some(&nuki) = legal.iter().find(|a| matches!(a, Action::Nuki { tile } if *tile >= super::state::FLOWER || !k.keep_north)) {
            return nuki;
        }
    }
    if let Some(kan) = turn_kan(k, v, legal) {
        return kan;
    }
    let nagashi = nagashi_discards(k, v, legal);
    let legal = nagashi.as_deref().unwrap_or(legal);
    let (kind, sh, uk) = choose(k, v, legal, Guard::None);
    let guard = match k.fold {
        _ if !threatened(v) => Guard::None,
        FoldTrigger::Never => Guard::None,
        FoldTrigger::Riichi if sh == 0 && uk >= u32::from(k.push_ukeire) => Guard::None,
        FoldTrigger::Riichi => Guard::Safest,
        FoldTrigger::Value => {
            let han = hand_value(v, kind, sh);
            match defense::push_limit(v, sh, uk, han, k.push_ukeire, k.push_han) {
                defense::ALL => Guard::None,
                limit => Guard::Limit(limit),
            }
        }
    };
    if guard != Guard::None {
        let (kind, sh, uk) = choose(k, v, legal, guard);
        return pick_discard(k, v, legal, kind, sh, uk);
    }
    pick_discard(k, v, legal, kind, sh, uk)
}

/// An opponent is in riichi and the seat is not.
fn threatened(v: &View<'_>) -> bool {
    !v.seats[v.seat].riichi && (0..SEATS).any(|o| o != v.seat && v.seats[o].riichi)
}

/// Red fives among the seat's own tiles (concealed and melded).
fn reds(v: &View<'_>) -> u32 {
    let melded = v.seats[v.seat].melds.iter().flat_map(|m| m.tiles[..usize::from(m.n)].iter());
    v.own.hand.iter().chain(melded).filter(|&&t| v.is_red(t)).count() as u32
}

/// Dora held: the indicators' dora among the seat's own tiles, and red fives.
fn dora_held(v: &View<'_>) -> u32 {
    let melded = v.seats[v.seat].melds.iter().flat_map(|m| m.tiles[..usize::from(m.n)].iter().map(|&t| usize::from(t / 4)));
    let own: u32 = (0..KINDS).map(|k| u32::from(v.dora_count[k]) * u32::from(v.own.counts[k])).sum();
    own + melded.map(|k| u32::from(v.dora_count[k])).sum::<u32>() + reds(v)
}

/// The hand's value in han after discarding `kind` (shanten `sh` then): a ready hand's best ron
/// (riichi counted when closed), else the dora held and the yaku in reach (riichi when closed).
fn hand_value(v: &View<'_>, kind: usize, sh: i8) -> u32 {
    let plan = Plan::new(v);
    let mut c = v.own.counts;
    c[kind] -= 1;
    let closed = plan.closed();
    if sh == 0 {
        if let Some(han) = plan.ron_han(&c, super::actions::wait_mask(&c), closed) {
            return han + reds(v);
        }
    }
    dora_held(v) + if closed { 1 } else { u32::from(plan.open_han(&c, sh)) }
}

/// The closed or added kan the `kan` knob declares on this turn, if any.
fn turn_kan(k: &Knobs, v: &View<'_>, legal: &[Action]) -> Option<Action> {
    let mut kans = legal.iter().copied().filter(|a| matches!(a, Action::Ankan { .. } | Action::Kakan { .. }));
    let p = &v.seats[v.seat];
    match k.kan {
        KanPolicy::Never => None,
        KanPolicy::Always => kans.next(),
        KanPolicy::Safe if p.riichi => kans.next(),
        KanPolicy::Safe => {
            let first = kans.next()?;
            let c = v.own.counts;
            let un = v.unseen();
            let after = after_discards(&c);
            let best_sh = (0..KINDS).filter(|&d| c[d] > 0).map(|d| after[d]).min()?;
            let best = (0..KINDS)
                .filter(|&d| c[d] > 0 && after[d] == best_sh)
                .map(|d| {
                    let mut cd = c;
                    cd[d] -= 1;
                    prospects(&cd, &un)
                })
                .min()?;
            std::iter::once(first).chain(kans).find(|&a| {
                let mut ck = c;
                match a {
                    Action::Ankan { kind } => ck[usize::from(kind)] -= 4,
                    Action::Kakan { tile } => ck[usize::from(tile / 4)] -= 1,
                    _ => return false,
                }
                prospects(&ck, &un) <= best
            })
        }
    }
}

/// Whether the `kan` knob takes an open kan (daiminkan) on a discard of `kind`.
fn open_kan(k: &Knobs, v: &View<'_>, kind: usize) -> bool {
    let p = &v.seats[v.seat];
    match k.kan {
        KanPolicy::Never => false,
        KanPolicy::Always => true,
        KanPolicy::Safe => {
            // A closed hand keeps riichi and menzen yaku: opening it is the call policy's choice.
            if p.closed() {
                return false;
            }
            let un = v.unseen();
            let mut ck = v.own.counts;
            ck[kind] -= 3;
            prospects(&ck, &un) <= prospects(&v.own.counts, &un)
        }
    }
}

/// Under `nagashi`: the legal discards restricted to terminals and honors, when the hand is
/// hopeless, nagashi is still alive and such a discard exists.
fn nagashi_discards(k: &Knobs, v: &View<'_>, legal: &[Action]) -> Option<Vec<Action>> {
    let p = &v.seats[v.seat];
    if !k.nagashi || p.riichi || p.river_simple || p.river_called || v.rules.nagashi_mangan == super::rules::Nagashi::Off {
        return None;
    }
    let c = v.own.counts;
    let after = after_discards(&c);
    let best = (0..KINDS).filter(|&d| c[d] > 0).map(|d| after[d]).min()?;
    if best < k.nagashi_shanten as i8 {
        return None;
    }
    let yaochu: Vec<Action> =
        legal.iter().copied().filter(|a| matches!(a, Action::Discard { tile, riichi: false } if is_yaochu(tile / 4))).collect();
    (!yaochu.is_empty()).then_some(yaochu)
}

/// The legal discard of `kind` (plain before red when keeping value), as riichi if the knobs say so.
fn pick_discard(k: &Knobs, v: &View<'_>, legal: &[Action], kind: usize, sh: i8, uk: u32) -> Action {
    let want_riichi = sh == 0
        && match k.riichi {
            RiichiPolicy::Always => true,
            RiichiPolicy::Never => false,
            RiichiPolicy::GoodWait => uk >= u32::from(k.riichi_good_wait),
            RiichiPolicy::Value => !dama(k, v, kind),
        }
        && !plan::foul_riichi(v, kind);
    let mut chosen: Option<Action> = None;
    for &a in legal {
        if let Action::Discard { tile, riichi } = a {
            if usize::from(tile / 4) != kind || (riichi && !want_riichi) {
                continue;
            }
            let better = match chosen {
                None => true,
                Some(Action::Discard { tile: t0, riichi: r0 }) => {
                    (riichi && !r0) || (riichi == r0 && k.keep_value && v.is_red(t0) && !v.is_red(tile))
                }
                Some(_) => false,
            };
            if better {
                chosen = Some(a);
            }
        }
    }
    chosen.expect("the chosen kind is a legal discard")
}

/// Under `riichi = "value"`: the ready hand left by discarding `kind` wins by ron with at least
/// `dama_han` han (dora and red fives included) without riichi.
fn dama(k: &Knobs, v: &View<'_>, kind: usize) -> bool {
    let mut c = v.own.counts;
    c[kind] -= 1;
    let han = Plan::new(v).ron_han(&c, super::actions::wait_mask(&c), false);
    han.is_some_and(|h| h + reds(v) >= u32::from(k.dama_han))
}

fn respond(k: &Knobs, v: &View<'_>, from: u8, tile: u8, legal: &[Action]) -> Action {
    if k.ron && legal.iter().any(|a| matches!(a, Action::Ron)) {
        return Action::Ron;
    }
    if legal.iter().any(|a| matches!(a, Action::Daiminkan)) && open_kan(k, v, usize::from(tile / 4)) {
        return Action::Daiminkan;
    }
    if k.calls == CallPolicy::Never || legal.len() == 1 {
        return Action::Pass;
    }
    if k.yaku_plan {
        return planned_call(k, v, from, tile, legal);
    }
    let p = &v.seats[v.seat];
    let now = shanten::shanten(&v.own.counts);
    let kind = tile / 4;
    let value_meld = p.melds.iter().any(|m| m.kind != super::tiles::MeldKind::Chi && m.base() >= 27 && is_value_honor(v, m.base()));
    let simple_so_far =
        v.rules.kuitan && p.melds.iter().all(|m| (0..usize::from(m.n)).all(|i| !is_yaochu(m.tiles[i] / 4))) && !is_yaochu(kind);
    let mut best: Option<(i8, Action)> = None;
    for &a in legal {
        let own = match a {
            Action::Pon { tiles } | Action::Chi { tiles } => tiles,
            _ => continue,
        };
        let mut c = v.own.counts;
        for t in own {
            c[usize::from(t / 4)] -= 1;
        }
        let after = shanten::shanten(&c);
        let value_pon = matches!(a, Action::Pon { .. }) && kind >= 27 && is_value_honor(v, kind);
        // Tanyao needs the meld's own tiles simple too: a chi of 1-2 on a 3 opens a hand that
        // can no longer have it.
        let all_simple = simple_so_far && own.iter().all(|&t| !is_yaochu(t / 4));
        let ok = match k.calls {
            CallPolicy::Never => false,
            CallPolicy::Yakuhai => value_pon || (value_meld && after < now),
            CallPolicy::Any => after < now && (value_pon || value_meld || all_simple || has_value_pair(v, &c)),
        };
        if ok && best.is_none_or(|(b, _)| after < b) {
            best = Some((after, a));
        }
    }
    best.map_or(Action::Pass, |(_, a)| a)
}

/// Under `yaku_plan`: the pon or chi (allowed by `calls`) that brings the hand nearest to ready
/// while keeping a yaku path (`plan.rs`), if it brings it nearer than passing; under kansaki a
/// first call only as a value pon; with `call_value`, a call that does not make the hand ready
/// only with that many han in reach (yaku and dora). Facing a riichi under `fold = "value"`,
/// only a call that makes the hand ready.
fn planned_call(k: &Knobs, v: &View<'_>, from: u8, tile: u8, legal: &[Action]) -> Action {
    let plan = Plan::new(v);
    let p = &v.seats[v.seat];
    let kind = tile / 4;
    let now = shanten::shanten(&v.own.counts);
    let now = now + i8::from(!plan.has_path(&v.own.counts, now, p.riichi));
    let value_meld = p.melds.iter().any(|m| m.kind != MeldKind::Chi && plan.honor_han(m.base()) > 0);
    let first = p.melds.iter().all(|m| m.kind == MeldKind::Ankan);
    let dora = dora_held(v) + u32::from(v.dora_count[usize::from(kind)]) + u32::from(v.is_red(tile));
    let only_ready = k.fold == FoldTrigger::Value && threatened(v);
    let mut best: Option<(i8, Action)> = None;
    for &a in legal {
        let (own, meld) = match a {
            Action::Pon { tiles } => (tiles, MeldKind::Pon),
            Action::Chi { tiles } => (tiles, MeldKind::Chi),
            _ => continue,
        };
        let value_pon = meld == MeldKind::Pon && plan.honor_han(kind) > 0;
        if (v.rules.kansaki && first && !value_pon) || (k.calls == CallPolicy::Yakuhai && !value_pon && !value_meld) {
            continue;
        }
        let mut c = v.own.counts;
        for t in own {
            c[usize::from(t / 4)] -= 1;
        }
        // A lost path only adds to the shanten: a call that does not lower it below `now` is out.
        if shanten::shanten(&c) >= now {
            continue;
        }
        let called = Plan { v, call: Some(MeldRec { kind: meld, tiles: [tile, own[0], own[1], 0], n: 3, called: Some(tile), from }) };
        let after = after_discards(&c);
        let Some((sh, d)) = (0..KINDS)
            .filter(|&d| c[d] > 0)
            .map(|d| {
                let mut rest = c;
                rest[d] -= 1;
                (after[d] + i8::from(!called.has_path(&rest, after[d], false)), d)
            })
            .min()
        else {
            continue;
        };
        let mut rest = c;
        rest[d] -= 1;
        let worth = || u32::from(called.open_han(&rest, sh)) + dora;
        let ok = sh < now && (sh == 0 || (!only_ready && worth() >= u32::from(k.call_value)));
        if ok && best.is_none_or(|(b, _)| sh < b) {
            best = Some((sh, a));
        }
    }
    best.map_or(Action::Pass, |(_, a)| a)
}

fn has_value_pair(v: &View<'_>, c: &Counts) -> bool {
    (27..KINDS).any(|k| c[k] >= 2 && is_value_honor(v, k as Kind))
}
