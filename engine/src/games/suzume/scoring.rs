//! Tiles, hand shapes (spec §5), payments (§7, §9) and the `score` command's report; the value of
//! a complete hand is in `hand.rs`.
//!
//! A hand's kinds are tracked as an index into a table of every multiset of at most 6 tiles over
//! the 11 kinds (about 12,000 of them), with precomputed add/remove transitions. The engine keeps
//! that index per player, so checking a win, the distance to a win or the winning tiles is a table
//! read; the red copies and the dora only enter through [`value`], which both the engine and the
//! `score` command use.

use super::hand::{value, Parts, Yakuman};
use super::rules::{Floor, MultiRonOrder, Rounding, Rules};
use crate::options::OptionError;
use std::sync::OnceLock;

/// Kinds: 0..=8 are the numbers 1..=9, then 發 and 中.
pub const KINDS: usize = 11;
pub const HATSU: u8 = 9;
pub const CHUN: u8 = 10;
/// 11 kinds × 4 copies.
pub const TILES: usize = 44;
pub const MAX_PLAYERS: usize = 5;
/// Complete shapes: 7 sequences and 11 triplets make 171 pairs, 11 of which need 6 of a kind.
pub const TARGETS: usize = 160;

/// One physical tile, `0..44`: kind `id / 4`, copy `id % 4`; copy 0 of a number is its red copy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Tile(pub u8);

impl Tile {
    pub fn kind(self) -> u8 {
        self.0 >> 2
    }
    /// The red copy of a number (1r..9r). 中 is handled by the rules (`red_includes_chun`).
    pub fn is_red_number(self) -> bool {
        self.0 < 36 && self.0 & 3 == 0
    }
    /// The spec's notation: `3`, `3r`, `F`, `C`.
    pub fn notation(self) -> String {
        match self.kind() {
            HATSU => "F".into(),
            CHUN => "C".into(),
            k if self.is_red_number() => format!("{}r", k + 1),
            k => format!("{}", k + 1),
        }
    }
}

pub fn kind_name(kind: u8) -> String {
    match kind {
        HATSU => "F".into(),
        CHUN => "C".into(),
        k => format!("{}", k + 1),
    }
}

/// A set of the winning shape: a sequence starting at a number kind, or a triplet of a kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Set {
    Sequence(u8),
    Triplet(u8),
}

impl Set {
    fn all() -> impl Iterator<Item = Set> {
        (0..7).map(Set::Sequence).chain((0..KINDS as u8).map(Set::Triplet))
    }
    fn add_to(self, counts: &mut [u8; KINDS]) {
        match self {
            Set::Sequence(s) => (s..s + 3).for_each(|k| counts[usize::from(k)] += 1),
            Set::Triplet(k) => counts[usize::from(k)] += 3,
        }
    }
    /// Contains a terminal or honour (1, 9, 發, 中): the chanta condition for one set.
    fn has_terminal(self) -> bool {
        match self {
            Set::Sequence(s) => s == 0 || s == 6,
            Set::Triplet(k) => k == 0 || k >= 8,
        }
    }
    pub fn points(self) -> u8 {
        match self {
            Set::Sequence(_) => 1,
            Set::Triplet(_) => 2,
        }
    }
    pub fn notation(self) -> String {
        match self {
            Set::Sequence(s) => (s..s + 3).map(kind_name).collect(),
            Set::Triplet(k) => kind_name(k).repeat(3),
        }
    }
}

/// A complete shape: two sets whose tiles use no kind more than 4 times (the spec's `targets`).
#[derive(Debug, Clone, Copy)]
pub struct Target {
    pub sets: [Set; 2],
    pub counts: [u8; KINDS],
    /// The kinds it uses (bit per kind), for loops over at most 4 kinds instead of 11.
    pub kinds: u16,
}

/// The shape of a complete hand: its split into two sets. Every complete 6-tile multiset has
/// exactly one split (a test checks it), so the spec's "highest-scoring split" (A5) never has to
/// choose.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shape {
    pub sets: [Set; 2],
}

impl Shape {
    pub fn set_points(&self) -> u8 {
        self.sets[0].points() + self.sets[1].points()
    }
    pub fn chanta(&self) -> bool {
        self.sets.iter().all(|s| s.has_terminal())
    }
}

/// A state index into [`Tables`]: a multiset of kinds with at most 6 tiles.
pub type State = u16;
const NONE: State = u16::MAX;

/// What the game loop reads about one state, in one cache line: a draw reads the row of the
/// 5-tile hand (add), a discard the row of the 6-tile hand (counts, remove) and then the `five`
/// word of the new 5-tile hand, which is the row the next draw reads.
#[derive(Debug, Clone, Copy)]
#[repr(C, align(64))]
struct Row {
    add: [State; KINDS],
    remove: [State; KINDS],
    /// For 5-tile states: the spec's `need` (6 − best overlap with a target; 1 = ready) in bits
    /// 16.., and the kinds whose draw lowers `need` (for a ready hand: the winning kinds) in bits
    /// 0..16.
    five: u32,
    counts: [u8; KINDS],
}

/// Precomputed facts about every multiset of at most 6 tiles.
pub struct Tables {
    rows: Vec<Row>,
    /// For 6-tile states: the winning split, if any.
    shape: Vec<Option<Shape>>,
    /// For 6-tile states (indexed from `six_base`): for each kind in the hand, `kind << 24 |` the
    /// `five` word of the hand without one tile of it; unused slots are `u32::MAX`. A discard
    /// decision reads one row instead of one row per candidate.
    six: Vec<[u32; 6]>,
    six_base: usize,
    /// For 5-tile states: the indices of the targets at distance `need` (the nearest complete
    /// shapes), as ranges `nearest_at[s]..nearest_at[s + 1]` of `nearest`.
    nearest: Vec<u8>,
    /// Per entry of `nearest`: the kinds the target holds more of than the state (a bit each).
    missing: Vec<u16>,
    nearest_at: Vec<u32>,
    pub targets: Vec<Target>,
}

impl Tables {
    pub fn get() -> &'static Tables {
        static T: OnceLock<Tables> = OnceLock::new();
        T.get_or_init(Tables::build)
    }

    fn build() -> Tables {
        let mut counts: Vec<[u8; KINDS]> = vec![[0; KINDS]];
        let mut index = std::collections::HashMap::new();
        index.insert([0u8; KINDS], 0 as State);
        let mut frontier = vec![0usize];
        for _ in 0..6 {
            let mut next = Vec::new();
            for &s in &frontier {
                for k in 0..KINDS {
                    let mut c = counts[s];
                    if c[k] == 4 {
                        continue;
                    }
                    c[k] += 1;
                    if let std::collections::hash_map::Entry::Vacant(e) = index.entry(c) {
                        e.insert(counts.len() as State);
                        next.push(counts.len());
                        counts.push(c);
                    }
                }
            }
            frontier = next;
        }
        let n = counts.len();
        let mut add = vec![[NONE; KINDS]; n];
        let mut remove = vec![[NONE; KINDS]; n];
        for (s, c) in counts.iter().enumerate() {
            for (k, (up, down)) in add[s].iter_mut().zip(remove[s].iter_mut()).enumerate() {
                let mut d = *c;
                if d[k] < 4 {
                    d[k] += 1;
                    if let Some(&t) = index.get(&d) {
                        *up = t;
                    }
                }
                let mut d = *c;
                if d[k] > 0 {
                    d[k] -= 1;
                    *down = index[&d];
                }
            }
        }
        let mut targets = Vec::new();
        let sets: Vec<Set> = Set::all().collect();
        for (i, &a) in sets.iter().enumerate() {
            for &b in &sets[i..] {
                let mut c = [0u8; KINDS];
                a.add_to(&mut c);
                b.add_to(&mut c);
                if c.iter().all(|&x| x <= 4) {
                    let kinds = (0..KINDS).filter(|&k| c[k] > 0).fold(0, |m, k| m | 1 << k);
                    targets.push(Target { sets: [a, b], counts: c, kinds });
                }
            }
        }
        let mut shape = vec![None; n];
        for t in &targets {
            shape[usize::from(index[&t.counts])] = Some(Shape { sets: t.sets });
        }
        let size = |c: &[u8; KINDS]| c.iter().map(|&x| usize::from(x)).sum::<usize>();
        let mut need = vec![u8::MAX; n];
        for (s, c) in counts.iter().enumerate() {
            if size(c) == 5 {
                let overlap = targets.iter().map(|t| (0..KINDS).map(|k| c[k].min(t.counts[k])).sum::<u8>()).max().unwrap_or(0);
                need[s] = 6 - overlap;
            }
        }
        let mut improve = vec![0u16; n];
        for (s, c) in counts.iter().enumerate() {
            if size(c) != 5 {
                continue;
            }
            for (k, &s6) in add[s].iter().enumerate() {
                if s6 == NONE {
                    continue;
                }
                let s6 = usize::from(s6);
                let need6 = if shape[s6].is_some() {
                    0
                } else {
                    remove[s6].iter().filter(|&&d| d != NONE).map(|&d| need[usize::from(d)]).min().unwrap_or(u8::MAX)
                };
                if need6 < need[s] {
                    improve[s] |= 1 << k;
                }
            }
        }
        let five: Vec<u32> = need.iter().zip(&improve).map(|(&n, &i)| u32::from(n) << 16 | u32::from(i)).collect();
        let six_base = counts.iter().position(|c| size(c) == 6).unwrap_or(n);
        let six = (six_base..n)
            .map(|s| {
                let mut row = [u32::MAX; 6];
                let present = (0..KINDS).filter(|&k| remove[s][k] != NONE);
                for (slot, k) in row.iter_mut().zip(present) {
                    *slot = (k as u32) << 24 | five[usize::from(remove[s][k])];
                }
                row
            })
            .collect();
        let mut nearest = Vec::new();
        let mut missing = Vec::new();
        let mut nearest_at = vec![0u32];
        for (s, c) in counts.iter().enumerate() {
            if size(c) == 5 {
                let overlap = |t: &Target| (0..KINDS).map(|k| c[k].min(t.counts[k])).sum::<u8>();
                for (i, t) in targets.iter().enumerate().filter(|(_, t)| 6 - overlap(t) == need[s]) {
                    nearest.push(i as u8);
                    missing.push((0..KINDS).filter(|&k| t.counts[k] > c[k]).fold(0, |m, k| m | 1 << k));
                }
            }
            nearest_at.push(nearest.len() as u32);
        }
        let rows = (0..n).map(|s| Row { add: add[s], remove: remove[s], five: five[s], counts: counts[s] }).collect();
        Tables { rows, shape, six, six_base, nearest, missing, nearest_at, targets }
    }

    /// How many states there are.
    pub fn states(&self) -> usize {
        self.rows.len()
    }
    #[inline]
    pub fn add(&self, s: State, kind: u8) -> State {
        self.rows[usize::from(s)].add[usize::from(kind)]
    }
    #[inline]
    pub fn remove(&self, s: State, kind: u8) -> State {
        self.rows[usize::from(s)].remove[usize::from(kind)]
    }
    /// For a 5-tile state: the indices in `targets` of the complete shapes at distance `need`.
    pub fn nearest(&self, s5: State) -> &[u8] {
        let s = usize::from(s5);
        &self.nearest[self.nearest_at[s] as usize..self.nearest_at[s + 1] as usize]
    }
    /// [`Tables::nearest`] with, per target, the kinds it holds more of than `s5` (a bit each).
    pub fn nearest_missing(&self, s5: State) -> impl Iterator<Item = (u8, u16)> + '_ {
        let s = usize::from(s5);
        let range = self.nearest_at[s] as usize..self.nearest_at[s + 1] as usize;
        self.nearest[range.clone()].iter().copied().zip(self.missing[range].iter().copied())
    }
    /// Tiles of each kind in state `s`.
    #[inline]
    pub fn counts(&self, s: State) -> &[u8; KINDS] {
        &self.rows[usize::from(s)].counts
    }
    #[inline]
    pub fn shape(&self, s6: State) -> Option<Shape> {
        self.shape[usize::from(s6)]
    }
    /// For a 6-tile state: per kind held, `kind << 24 | need << 16 | improving kinds` of the hand
    /// after discarding one tile of that kind (see [`Tables::five`]); unused slots are `u32::MAX`.
    #[inline]
    pub fn discards(&self, s6: State) -> &[u32; 6] {
        &self.six[usize::from(s6) - self.six_base]
    }

    /// [`Tables::five`] of the hand left by discarding one `kind` from the 6-tile state `s6`,
    /// read from the row a discard decision has just read (no new cache line).
    #[inline]
    pub fn five_after(&self, s6: State, kind: u8) -> (u8, u16) {
        let e = self.discards(s6).iter().copied().find(|&e| (e >> 24) as u8 == kind).unwrap_or(u32::MAX);
        ((e >> 16) as u8, e as u16)
    }

    /// `need` and the improving kinds of a 5-tile state.
    #[inline]
    pub fn five(&self, s5: State) -> (u8, u16) {
        let w = self.rows[usize::from(s5)].five;
        ((w >> 16) as u8, w as u16)
    }
    /// The state of a multiset given by its counts (at most 6 tiles, at most 4 of a kind).
    pub fn state_of(&self, counts: &[u8; KINDS]) -> State {
        let mut s = 0;
        for (k, &c) in counts.iter().enumerate() {
            for _ in 0..c {
                s = self.add(s, k as u8);
            }
        }
        s
    }
}

/// A hand of tiles written in the spec's notation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hand {
    pub tiles: Vec<Tile>,
}

impl Hand {
    pub fn counts(&self) -> [u8; KINDS] {
        let mut c = [0u8; KINDS];
        for t in &self.tiles {
            c[usize::from(t.kind())] += 1;
        }
        c
    }
    pub fn red_mask(&self) -> u16 {
        self.tiles.iter().filter(|t| t.is_red_number()).fold(0, |m, t| m | 1 << t.kind())
    }
}

/// Parses tiles like `1r2r3rCCC` (digits 1-9, `r` after a digit for its red copy, `F`, `C`),
/// giving each a distinct physical copy; `taken` are copies already used elsewhere (e.g. by the
/// hand when parsing the dora). `field` names the input in errors.
pub fn parse_tiles(field: &str, text: &str, taken: &[Tile]) -> Result<Vec<Tile>, OptionError> {
    let mut out: Vec<Tile> = Vec::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let (kind, red) = match c {
            '1'..='9' => {
                let red = chars.get(i + 1) == Some(&'r');
                if red {
                    i += 1;
                }
                (c as u8 - b'1', red)
            }
            'F' => (HATSU, false),
            'C' => (CHUN, false),
            _ => {
                return Err(OptionError::new(
                    field,
                    format!("unexpected {c:?} at position {}; expected digits 1-9 (each optionally followed by r for its red copy), F (發) or C (中)", i + 1),
                ))
            }
        };
        i += 1;
        let used = |id: u8| out.iter().chain(taken).any(|t| t.0 == id);
        let base = kind * 4;
        let copies: &[u8] = if red {
            &[0]
        } else if kind < 9 {
            &[1, 2, 3]
        } else {
            &[0, 1, 2, 3]
        };
        let free = copies.iter().map(|&c| base + c).find(|&id| !used(id));
        match free {
            Some(id) => out.push(Tile(id)),
            None if red => return Err(OptionError::new(field, format!("only one red {} exists, got more", kind + 1))),
            None => {
                let what = if kind < 9 {
                    format!("non-red {} (3 copies exist besides the red one)", kind + 1)
                } else {
                    format!("{} (4 copies exist)", kind_name(kind))
                };
                return Err(OptionError::new(field, format!("too many copies of {what}")));
            }
        }
    }
    Ok(out)
}

/// Pays `amount` from `from` to `to`; with the 0-floor a payer pays only down to 0 (§7).
/// Returns what was actually paid.
pub fn pay(points: &mut [i64], from: usize, to: usize, amount: i64, floor: Floor) -> i64 {
    let paid = match floor {
        Floor::Zero => amount.min(points[from].max(0)),
        Floor::Negative => amount,
    };
    points[from] -= paid;
    points[to] += paid;
    paid
}

/// What each payer owes on a tsumo of `score` with `n` players.
pub fn tsumo_share(score: u16, n: usize, rounding: Rounding) -> i64 {
    let (s, d) = (i64::from(score), n as i64 - 1);
    match rounding {
        Rounding::Ceil => (s + d - 1) / d,
        Rounding::Floor => s / d,
    }
}

/// Settles a tsumo by `winner`; returns what the winner received.
pub fn settle_tsumo(points: &mut [i64], winner: usize, score: u16, rules: &Rules) -> i64 {
    let n = points.len();
    let share = tsumo_share(score, n, rules.tsumo_rounding);
    (1..n).map(|i| pay(points, (winner + i) % n, winner, share, rules.payment_floor)).sum()
}

/// Settles ron claims on one discard. `claims` are (seat, score) in turn order from the
/// discarder's right neighbour; the discarder pays them one at a time in the rule's order.
/// Returns what each claim received, in the order of `claims`.
pub fn settle_ron(points: &mut [i64], discarder: usize, claims: &[(usize, u16)], rules: &Rules) -> [i64; MAX_PLAYERS] {
    let mut order: [usize; MAX_PLAYERS] = [0, 1, 2, 3, 4];
    let order = &mut order[..claims.len()];
    if rules.multi_ron_order == MultiRonOrder::Highest {
        // Stable: equal scores keep turn order.
        order.sort_by_key(|&i| std::cmp::Reverse(claims[i].1));
    }
    let mut received = [0i64; MAX_PLAYERS];
    for &i in order.iter() {
        let (seat, score) = claims[i];
        received[i] = pay(points, discarder, seat, i64::from(score), rules.payment_floor);
    }
    received
}

/// The mistaken-win penalty (§9): the offender pays `mistake_penalty` to every other player in
/// turn order from its right neighbour, floored like any payment.
pub fn settle_mistake(points: &mut [i64], offender: usize, rules: &Rules) {
    let n = points.len();
    for i in 1..n {
        pay(points, offender, (offender + i) % n, i64::from(rules.mistake_penalty), rules.payment_floor);
    }
}

/// A hand scored from the spec's notation (the `score` command).
#[derive(Debug, Clone)]
pub struct Scored {
    pub hand: Vec<Tile>,
    pub win: Tile,
    pub dora: Option<Tile>,
    /// The value, or `None` when the 6 tiles are not two sets.
    pub parts: Option<Parts>,
}

/// Scores 6 tiles (`hand`, notation of [`parse_tiles`]) that include the winning tile `win`,
/// with the flipped tile `dora` (must be a copy not in the hand). Errors name the field.
pub fn score_hand(hand: &str, win: &str, dora: Option<&str>, dealer: bool, rules: &Rules) -> Result<Scored, OptionError> {
    let tiles = parse_tiles("hand", hand, &[])?;
    if tiles.len() != 6 {
        return Err(OptionError::new("hand", format!("expected 6 tiles, got {} in {hand:?}", tiles.len())));
    }
    let win_tile = match parse_tiles("win", win, &[])?.as_slice() {
        [t] => *t,
        other => return Err(OptionError::new("win", format!("expected one tile, got {} in {win:?}", other.len()))),
    };
    let win_tile = *tiles
        .iter()
        .find(|t| t.kind() == win_tile.kind() && t.is_red_number() == win_tile.is_red_number())
        .ok_or_else(|| OptionError::new("win", format!("the winning tile {win} must be one of the hand's tiles ({hand})")))?;
    let dora = match dora {
        None => None,
        Some(d) => match parse_tiles("dora", d, &tiles)?.as_slice() {
            [t] => Some(*t),
            other => return Err(OptionError::new("dora", format!("expected one tile, got {} in {d:?}", other.len()))),
        },
    };
    if dora.is_some() && !rules.dora {
        return Err(OptionError::new("dora", "the rules flip no dora (dora = false)"));
    }
    let h = Hand { tiles: tiles.clone() };
    let counts = h.counts();
    let red = if rules.red_tiles { h.red_mask() } else { 0 };
    let t = Tables::get();
    let parts = t.shape(t.state_of(&counts)).map(|shape| value(shape, &counts, red, dora.map(Tile::kind), dealer, rules));
    Ok(Scored { hand: tiles, win: win_tile, dora, parts })
}

/// The `score` command's report: the hand, whether it wins and why not, the points and every
/// part, and who pays what (tsumo: each of the `players − 1` others; ron: the discarder).
pub fn score_report(
    hand: &str,
    win: &str,
    ron: bool,
    dora: Option<&str>,
    dealer: bool,
    players: i64,
    rules: &Rules,
) -> Result<serde_json::Value, OptionError> {
    use serde_json::json;
    if !(2..=5).contains(&players) {
        return Err(OptionError::new("players", format!("expected 2 to 5 players, got {players}")));
    }
    let players = players as u8;
    let s = score_hand(hand, win, dora, dealer, rules)?;
    let mut out = json!({
        "hand": s.hand.iter().map(|t| t.notation()).collect::<Vec<_>>(),
        "win": s.win.notation(),
        "win_type": if ron { "ron" } else { "tsumo" },
        "dealer": dealer,
        "players": players,
        "dora": s.dora.map(Tile::notation),
    });
    let Some(p) = s.parts else {
        out["legal"] = json!(false);
        out["reason"] = json!("not a winning shape: the 6 tiles do not split into two sets (sequences of 3 consecutive numbers or triplets; 發 and 中 make no sequences, 9-1 does not wrap)");
        out["points"] = json!(0);
        return Ok(out);
    };
    out["legal"] = json!(p.legal);
    out["reason"] = if p.legal {
        serde_json::Value::Null
    } else {
        json!(format!(
            "under the minimum: base {} < min_points {} (the dealer bonus does not count toward the minimum)",
            p.base, rules.min_points
        ))
    };
    out["points"] = json!(p.score);
    out["base"] = json!(p.base);
    out["sets"] = p
        .shape
        .sets
        .iter()
        .map(|set| {
            let kind = if matches!(set, Set::Sequence(_)) { "sequence" } else { "triplet" };
            json!({"tiles": set.notation(), "kind": kind, "points": set.points()})
        })
        .collect();
    out["set_points"] = json!(p.set_points);
    out["red"] = json!(p.red);
    out["dora_points"] = json!(p.dora);
    out["tanyao"] = json!(p.tanyao);
    out["chanta"] = json!(p.chanta);
    out["yakuman"] = if p.yakuman == Yakuman::None { serde_json::Value::Null } else { json!(p.yakuman.name()) };
    out["yakuman_points"] = json!(p.yakuman_points);
    out["dealer_bonus"] = json!(p.dealer_bonus);
    if p.legal {
        out["payments"] = if ron {
            json!({"discarder": p.score, "total": p.score})
        } else {
            let each = tsumo_share(p.score, usize::from(players), rules.tsumo_rounding);
            json!({"each": each, "payers": players - 1, "total": each * i64::from(players - 1)})
        };
    }
    Ok(out)
}
