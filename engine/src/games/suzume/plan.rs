//! Hand planning by the rules (knob `plan = "rules"`): which hands can still win legally under the
//! rules played. Suzume-jong has no yaku; what makes a complete hand illegal is the minimum base
//! (`min_points`, §5.4: the dealer bonus does not count), which the hand reaches through the
//! scoring table: triplets, red tiles, the dora, tanyao, chanta and the yakuman, each at the
//! rules' value. A ready hand whose every wait completes a hand under the minimum cannot win at
//! all (furiten only forbids ron: tsumo stays, so it never makes a wait unwinnable).
//!
//! From the seat's view only:
//! - a wait of a ready hand wins legally when the hand it completes reaches the minimum with its
//!   plain copy, or with its red copy while that copy is neither held nor seen;
//! - a hand further from ready keeps a path when one of its nearest complete shapes reaches the
//!   minimum, each missing number drawn as its red copy when that copy is neither held nor seen
//!   (as `max_points`' reachable score; copies left to draw are not counted, which keeps the
//!   judgement a table read in the common case).

use super::actions::View;
use super::hand::{value, value_of, Yakuman, GREEN};
use super::rules::Rules;
use super::scoring::{Shape, State, Tables, HATSU, KINDS};

/// What the plan knows of one complete shape under the rules.
#[derive(Debug, Clone, Copy)]
struct ShapeReach {
    /// Its base with no red tile, per dora kind (index 11: no dora).
    base: [u16; KINDS + 1],
    /// What each red number adds to `base` (0 on a yakuman), when `monotone`.
    step: u16,
    /// Its base is `base` plus `step` per red number: it can be neither All Green, which wants no
    /// red tile, nor Super Red, which replaces the bonuses.
    monotone: bool,
    /// A bit per dora kind: the minimum is reached with no red tile, or with every number red.
    ceiling: u16,
}

/// What the plan reads of the rules, precomputed once per rule set: per complete shape its
/// [`ShapeReach`], and per 5-tile hand (a bit per dora kind) whether some nearest shape reaches
/// the minimum without a red tile, or could with them.
#[derive(Debug, Clone)]
pub struct Reach {
    pub rules: Rules,
    shapes: Vec<ShapeReach>,
    plain: Vec<u16>,
    hope: Vec<u16>,
}

impl Reach {
    pub fn new(rules: &Rules) -> Self {
        let tables = Tables::get();
        let min = rules.min_points;
        let shapes: Vec<ShapeReach> = tables
            .targets
            .iter()
            .map(|t| {
                let all_red = if rules.red_tiles { t.kinds & 0x1FF } else { 0 };
                let base =
                    |red: u16, d: usize| value(Shape { sets: t.sets }, &t.counts, red, (d < KINDS).then_some(d as u8), false, rules).base;
                let bits = |ok: &dyn Fn(usize) -> bool| (0..=KINDS).filter(|&d| ok(d)).fold(0u16, |m, d| m | 1 << d);
                let green = t.kinds & !GREEN == 0;
                let super_red = t.counts[usize::from(HATSU)] == 0 && t.counts[..9].iter().all(|&c| c <= 1);
                let plain: [u16; KINDS + 1] = std::array::from_fn(|d| base(0, d));
                let yakuman = value(Shape { sets: t.sets }, &t.counts, 0, None, false, rules).yakuman != Yakuman::None;
                ShapeReach {
                    base: plain,
                    step: if yakuman { 0 } else { rules.red_value },
                    monotone: !green && !super_red,
                    ceiling: bits(&|d| plain[d].max(base(all_red, d)) >= min),
                }
            })
            .collect();
        let bits = |of: &dyn Fn(&ShapeReach) -> u16| -> Vec<u16> {
            (0..tables.states()).map(|s| tables.nearest(s as State).iter().fold(0, |m, &i| m | of(&shapes[usize::from(i)]))).collect()
        };
        let plain = bits(&|r| (0..=KINDS).filter(|&d| r.base[d] >= min).fold(0, |m, d| m | 1 << d));
        let hope = bits(&|r| r.ceiling);
        Reach { rules: rules.clone(), shapes, plain, hope }
    }
}

/// The bit of a dora kind in the [`Reach`] masks.
fn dora_bit(dora: Option<u8>) -> u16 {
    1 << dora.map_or(KINDS, usize::from)
}

/// The seat's hand after discarding one tile: its kinds, red copies and what it knows.
#[derive(Debug, Clone, Copy)]
pub struct Left<'v, 'a> {
    pub view: &'v View<'a>,
    /// The 5-tile state left.
    pub s5: State,
    /// A bit per number kind whose red copy is still held.
    pub red: u16,
}

impl<'v, 'a> Left<'v, 'a> {
    /// The hand left by discarding `view.hand[index]`.
    pub fn after(view: &'v View<'a>, index: usize) -> Self {
        let t = view.hand[index];
        let red = if t.is_red_number() { view.red & !(1 << t.kind()) } else { view.red };
        Left { view, s5: Tables::get().remove(view.state, t.kind()), red }
    }

    /// The hand left by discarding a tile of `kind`: a plain copy when one is held (the copy every
    /// built-in discard rule gives up first), else the red one.
    pub fn after_kind(view: &'v View<'a>, kind: u8) -> Self {
        let plain = view.hand.iter().position(|t| t.kind() == kind && !(t.is_red_number() && view.red & 1 << kind != 0));
        let index = plain.or_else(|| view.hand.iter().position(|t| t.kind() == kind)).expect("the kind is held");
        Self::after(view, index)
    }

    /// Whether the complete shape `i` reaches the minimum with the red copies held, or with the
    /// red copies `missing` (of numbers still to draw, neither held nor seen) added.
    fn legal(&self, reach: &Reach, i: u8, missing: u16) -> bool {
        let r = &reach.shapes[usize::from(i)];
        let t = &Tables::get().targets[usize::from(i)];
        let red = self.red & t.kinds & 0x1FF;
        if r.monotone {
            let reds = (red | missing).count_ones() as u16;
            return r.base[self.view.dora.map_or(KINDS, usize::from)] + reds * r.step >= reach.rules.min_points;
        }
        if r.ceiling & dora_bit(self.view.dora) == 0 {
            return false;
        }
        let v = self.view;
        let shape = Shape { sets: t.sets };
        let legal = |red: u16| value_of(shape, &t.counts, t.kinds, red, v.dora, false, &reach.rules).legal;
        legal(red) || (missing & !red != 0 && legal(red | missing))
    }

    /// The kinds whose draw completes this ready hand into a legal win (none when it is not
    /// ready, or when every wait completes a hand under the minimum).
    pub fn legal_waits(&self, reach: &Reach) -> u16 {
        let tables = Tables::get();
        let (need, _) = tables.five(self.s5);
        if need != 1 {
            return 0;
        }
        let red_free = self.view.red_unseen(reach.rules.red_tiles) & !self.red;
        let mut waits = 0u16;
        for (i, wait) in tables.nearest_missing(self.s5) {
            if waits & wait == 0 && self.legal(reach, i, red_free & wait) {
                waits |= wait;
            }
        }
        waits
    }

    /// Whether some nearest complete shape of this hand (not ready) reaches the minimum (see the
    /// module doc).
    pub fn has_path(&self, reach: &Reach) -> bool {
        let d = dora_bit(self.view.dora);
        let s = usize::from(self.s5);
        if reach.plain[s] & d != 0 {
            return true;
        }
        if reach.hope[s] & d == 0 {
            return false;
        }
        let red_free = self.view.red_unseen(reach.rules.red_tiles) & !self.red;
        Tables::get().nearest_missing(self.s5).any(|(i, missing)| self.legal(reach, i, red_free & missing))
    }
}

/// Whether the minimum can make a complete hand illegal: every hand has at least two sets' worth
/// (2 points), so at or below that planning changes nothing.
pub fn binds(rules: &Rules) -> bool {
    rules.min_points > 2
}

/// Steers the discard entries `after` (per kind held: `need << 16 | improving kinds`, 0 for kinds
/// not held) toward a legal win: a discard that leaves a ready hand without a legal wait, or a
/// hand with no nearest shape that can reach the minimum, counts as one tile further from a win
/// (and improves nothing); a ready hand's improving kinds become its legal waits. Only the kinds
/// that can still be the least need are judged (a kind two tiles behind stays behind). Returns
/// the least need and the kinds whose red copy must go rather than the plain one (All Green wants
/// no red tile).
pub fn steer(view: &View<'_>, reach: &Reach, after: &mut [u32; KINDS]) -> (u8, u16) {
    let raw = |e: u32| (e >> 16) as u8;
    let least = after.iter().filter(|&&e| e != 0).map(|&e| raw(e)).min().unwrap_or(u8::MAX);
    let mut red_first = 0u16;
    for level in [least, least + 1] {
        let mut kept = false;
        for (kind, e) in after.iter_mut().enumerate() {
            if *e == 0 || raw(*e) != level {
                continue;
            }
            let judge = |left: Left<'_, '_>| {
                if level == 1 {
                    let waits = left.legal_waits(reach);
                    (waits != 0).then_some(waits)
                } else {
                    left.has_path(reach).then_some(*e as u16)
                }
            };
            let k = kind as u8;
            let mut improve = judge(Left::after_kind(view, k));
            let both = view.red & 1 << k != 0 && Tables::get().counts(view.state)[kind] >= 2;
            if improve.is_none() && both {
                let red = view.hand.iter().position(|t| t.kind() == k && t.is_red_number()).expect("the red copy is held");
                improve = judge(Left::after(view, red));
                red_first |= u16::from(improve.is_some()) << k;
            }
            let (need, improve) = improve.map_or((level + 1, 0), |i| (level, i));
            kept |= need == level;
            *e = (kind as u32) << 24 | u32::from(need) << 16 | u32::from(improve);
        }
        if kept {
            break;
        }
    }
    (after.iter().filter(|&&e| e != 0).map(|&e| raw(e)).min().unwrap_or(u8::MAX), red_first)
}
