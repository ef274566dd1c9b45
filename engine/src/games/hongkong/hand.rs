//! Hand evaluation (spec §8): every reading of a winning hand (standard sets and pair, seven
//! pairs, thirteen orphans, the unrelated hands, the bonus-tile wins), its fan items or limit
//! hand, and the reading with the largest base (§8.5). Tile kinds, melds and the set
//! decomposition are Riichi's (the same 34 kinds).

use super::rules::{BaseTable, FlowerSetMode, KongFan, LastTileScope, ReplacementScope, Rules, SpecialCombine};
use crate::games::riichi::agari::{for_each_decomposition, is_chiitoitsu, is_kokushi};
use crate::games::riichi::tiles::{is_honor, is_terminal, is_yaochu, Counts, Kind, Meld, MeldKind, EAST, HAKU, HATSU, KINDS};

pub const CHUN: Kind = 33;

/// An additive fan item (§8.1, §11). The discriminant is the item's bit in the logged mask.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FanItem {
    Kong,
    AllChows,
    AllPungs,
    SelfDraw,
    LastTile,
    Replacement,
    RobbingKong,
    DragonPung,
    SmallDragons,
    SeatWind,
    RoundWind,
    NoBonus,
    OwnBonus,
    BonusSet,
    FullFlush,
    SevenPairs,
    HalfFlush,
    MixedTerminals,
    Concealed,
    SevenFlowers,
}

impl FanItem {
    pub const NAMES: [&'static str; 20] = [
        "kong",
        "all_chows",
        "all_pungs",
        "self_draw",
        "last_tile",
        "replacement",
        "robbing_kong",
        "dragon_pung",
        "small_dragons",
        "seat_wind",
        "round_wind",
        "no_bonus",
        "own_bonus",
        "bonus_set",
        "full_flush",
        "seven_pairs",
        "half_flush",
        "mixed_terminals",
        "concealed",
        "seven_flowers",
    ];

    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }

    /// Bonus-tile items do not count toward the minimum (§8.1).
    pub fn is_bonus(self) -> bool {
        matches!(self, FanItem::NoBonus | FanItem::OwnBonus | FanItem::BonusSet)
    }
}

/// A limit (64-point) hand (§8.3 #3-#19 and the old-style limits).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limit {
    FourConcealedPungs,
    BigDragons,
    SmallWinds,
    BigWinds,
    AllHonours,
    AllTerminals,
    NineGates,
    ThirteenOrphans,
    FourKongs,
    Jade,
    Ruby,
    Pearl,
    Heavenly,
    Earthly,
    ThirteenUnrelated,
    FourteenUnrelated,
    AllUnrelated,
    EightFlowers,
    KongOnKong,
}

impl Limit {
    pub const NAMES: [&'static str; 19] = [
        "four_concealed_pungs",
        "big_three_dragons",
        "small_four_winds",
        "big_four_winds",
        "all_honours",
        "all_terminals",
        "nine_gates",
        "thirteen_orphans",
        "four_kongs",
        "jade_dragon",
        "ruby_dragon",
        "pearl_dragon",
        "heavenly_hand",
        "earthly_hand",
        "thirteen_unrelated",
        "fourteen_unrelated",
        "all_unrelated",
        "eight_flowers",
        "kong_on_kong",
    ];

    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }
}

/// How the winning tile came.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Replacement {
    None,
    Kong,
    Bonus,
}

/// Everything about a win besides the tiles. Winds are 0-3 (E S W N); `flowers`/`seasons` bit
/// i = bonus tile i+1.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WinContext {
    pub self_draw: bool,
    pub seat_wind: u8,
    pub round_wind: u8,
    pub flowers: u8,
    pub seasons: u8,
    pub last_tile: bool,
    pub replacement: Replacement,
    pub robbing_kong: bool,
    pub heavenly: bool,
    pub earthly: bool,
    pub kong_on_kong: bool,
}

impl WinContext {
    /// A plain win on a discard by East in the East round, with no bonus tile and no circumstance.
    pub const DISCARD: WinContext = WinContext {
        self_draw: false,
        seat_wind: 0,
        round_wind: 0,
        flowers: 0,
        seasons: 0,
        last_tile: false,
        replacement: Replacement::None,
        robbing_kong: false,
        heavenly: false,
        earthly: false,
        kong_on_kong: false,
    };
}

impl Default for WinContext {
    fn default() -> Self {
        Self::DISCARD
    }
}

/// An exposed (or declared concealed) meld: chow (`base` = its lowest kind), pung or kong.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HkMeld {
    pub kind: MeldKind,
    pub base: Kind,
}

impl HkMeld {
    pub fn of(m: &Meld) -> HkMeld {
        // An added kong is an exposed kong for scoring; only the concealed kong stays concealed.
        let kind = if m.kind == MeldKind::Kakan { MeldKind::Daiminkan } else { m.kind };
        HkMeld { kind, base: m.base() }
    }

    pub fn tiles(&self) -> impl Iterator<Item = Kind> + '_ {
        let chow = self.kind == MeldKind::Chi;
        let n = if self.kind.is_kan() { 4 } else { 3 };
        (0..n).map(move |i| if chow { self.base + i } else { self.base })
    }
}

/// A hand to score: the concealed tiles with the winning tile, the exposed melds, the winning kind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hand {
    pub concealed: Counts,
    pub melds: Vec<HkMeld>,
    pub win: Kind,
}

/// The value of one reading: its items (with their fan) or its limit hand.
#[derive(Debug, Clone, PartialEq)]
pub struct Value {
    pub items: Vec<(FanItem, u8)>,
    pub limit: Option<Limit>,
    /// Total fan (bonus items included); for a limit hand, `max_fan`.
    pub fan: u8,
    /// Fan that counts toward the minimum.
    pub counted_fan: u8,
    /// The multiplier from the base table.
    pub base: f64,
}

impl Value {
    /// Bit mask of the items (bit = `FanItem as u32`).
    pub fn item_mask(&self) -> u32 {
        self.items.iter().fold(0, |m, &(i, _)| m | 1 << i as u32)
    }

    /// Whether the reading meets the minimum (§8.5).
    pub fn legal(&self, rules: &Rules) -> bool {
        self.limit.is_some() || self.counted_fan >= rules.min_fan
    }
}

/// Multiplier of `fan` (capped at `max_fan`) under the rule's table (§8.2; settlement README).
pub fn multiplier(rules: &Rules, fan: u8) -> f64 {
    let f = fan.min(rules.max_fan);
    match rules.base_table {
        BaseTable::FanLaak => f64::from(match f {
            0..=3 => 1u32 << f,
            4..=6 => 16,
            7..=9 => 32,
            _ => 64,
        }),
        BaseTable::HalfSpicy => {
            if f <= 4 {
                f64::from(1u32 << f)
            } else {
                // 16, 24, 32, 48, 64, ...: odd steps are 1.5 times the step before.
                let p = f64::from(1u32 << (f / 2 + 2));
                if f % 2 == 1 {
                    p * 1.5
                } else {
                    p
                }
            }
        }
        BaseTable::Spicy => 2f64.powi(i32::from(f)),
    }
}

/// One set of a standard reading.
#[derive(Debug, Clone, Copy)]
struct Set {
    chow: bool,
    base: Kind,
    kong: bool,
    /// Not claimed (a concealed kong counts as concealed).
    concealed: bool,
}

fn wind_kind(w: u8) -> Kind {
    EAST + w
}

/// The suits (bit 0-2) and whether honours appear among `kinds`.
fn suits_of(kinds: impl Iterator<Item = Kind>) -> (u8, bool) {
    kinds.fold((0, false), |(s, h), k| if is_honor(k) { (s, true) } else { (s | 1 << (k / 9), h) })
}

/// Items every reading shares: flushes, win method, bonus tiles.
fn common_items(rules: &Rules, ctx: &WinContext, all: &Counts, closed: bool, out: &mut Vec<(FanItem, u8)>) {
    let (suits, honours) = suits_of((0..KINDS as Kind).filter(|&k| all[usize::from(k)] > 0));
    if suits.count_ones() == 1 {
        if honours {
            out.push((FanItem::HalfFlush, rules.half_flush_fan));
        } else {
            out.push((FanItem::FullFlush, rules.full_flush_fan));
        }
    }
    if closed {
        out.push((FanItem::Concealed, rules.concealed_fan));
    }
    if ctx.self_draw {
        out.push((FanItem::SelfDraw, 1));
    }
    if ctx.last_tile && (ctx.self_draw || rules.last_tile_scope == LastTileScope::DrawAndDiscard) {
        out.push((FanItem::LastTile, 1));
    }
    let replacement = match ctx.replacement {
        Replacement::None => false,
        Replacement::Kong => true,
        Replacement::Bonus => rules.replacement_scope == ReplacementScope::Any,
    };
    if replacement {
        out.push((FanItem::Replacement, 1));
    }
    if ctx.robbing_kong {
        out.push((FanItem::RobbingKong, 1));
    }
    bonus_items(rules, ctx, out);
}

fn bonus_items(rules: &Rules, ctx: &WinContext, out: &mut Vec<(FanItem, u8)>) {
    let bonus = rules.has_bonus_tiles();
    if ctx.flowers == 0 && ctx.seasons == 0 {
        if bonus || rules.no_flower_bonus_136 {
            out.push((FanItem::NoBonus, 1));
        }
        return;
    }
    let own = 1u8 << ctx.seat_wind;
    let (mut own_fan, mut sets) = (0, 0);
    for group in [ctx.flowers, ctx.seasons] {
        if group == 0xF {
            sets += 1;
            if rules.flower_set_mode == FlowerSetMode::Add {
                own_fan += 1;
            }
        } else if group & own != 0 {
            own_fan += 1;
        }
    }
    if own_fan > 0 {
        out.push((FanItem::OwnBonus, own_fan));
    }
    if sets > 0 {
        out.push((FanItem::BonusSet, sets * rules.flower_set_fan));
    }
}

pub(super) fn kong_fan(rules: &Rules, kongs: u8) -> u8 {
    match rules.kong_fan {
        KongFan::PerKong => kongs,
        KongFan::Once => u8::from(kongs > 0),
        KongFan::Zero => 0,
    }
}

/// Fan items or limit hand of one standard reading.
fn standard(
    rules: &Rules,
    ctx: &WinContext,
    sets: &[Set],
    pair: Kind,
    closed: bool,
    all: &Counts,
    win: Kind,
) -> (Vec<(FanItem, u8)>, Option<Limit>) {
    let pungs: Vec<&Set> = sets.iter().filter(|s| !s.chow).collect();
    let kongs = sets.iter().filter(|s| s.kong).count() as u8;
    let has = |k: Kind| pungs.iter().any(|s| s.base == k);
    let dragons = (HAKU..=CHUN).filter(|&k| has(k)).count();
    let winds = (EAST..HAKU).filter(|&k| has(k)).count();
    let all_pungs = pungs.len() == 4;
    let one_suit_pungs = |suit: u8, dragon: Kind| {
        all_pungs
            && has(dragon)
            && dragons == 1
            && pair / 9 == suit
            && !is_honor(pair)
            && pungs.iter().all(|s| s.base == dragon || s.base / 9 == suit && !is_honor(s.base))
    };
    let limit = if dragons == 3 {
        Some(Limit::BigDragons)
    } else if winds == 4 {
        Some(Limit::BigWinds)
    } else if winds == 3 && (EAST..HAKU).contains(&pair) {
        Some(Limit::SmallWinds)
    } else if all_pungs && is_honor(pair) && pungs.iter().all(|s| is_honor(s.base)) {
        Some(Limit::AllHonours)
    } else if all_pungs && is_terminal(pair) && pungs.iter().all(|s| is_terminal(s.base)) {
        Some(Limit::AllTerminals)
    } else if kongs == 4 {
        Some(Limit::FourKongs)
    } else if all_pungs && ctx.self_draw && pungs.iter().all(|s| s.concealed) {
        Some(Limit::FourConcealedPungs)
    } else if closed && nine_gates(all, win) {
        Some(Limit::NineGates)
    } else if rules.jade_ruby_pearl && one_suit_pungs(2, HATSU) {
        Some(Limit::Jade)
    } else if rules.jade_ruby_pearl && one_suit_pungs(0, CHUN) {
        Some(Limit::Ruby)
    } else if rules.jade_ruby_pearl && one_suit_pungs(1, HAKU) {
        Some(Limit::Pearl)
    } else {
        None
    };
    let mut items = Vec::new();
    let k = kong_fan(rules, kongs);
    if k > 0 {
        items.push((FanItem::Kong, k));
    }
    if sets.iter().all(|s| s.chow) {
        items.push((FanItem::AllChows, rules.all_chows_fan));
    }
    if all_pungs {
        items.push((FanItem::AllPungs, rules.all_pungs_fan));
    }
    let small_dragons = dragons == 2 && (HAKU..=CHUN).contains(&pair);
    if small_dragons {
        let pungs_fan = if rules.small_dragons_total { 0 } else { 2 };
        items.push((FanItem::SmallDragons, rules.small_dragons_fan + pungs_fan));
    } else if dragons > 0 {
        items.push((FanItem::DragonPung, dragons as u8));
    }
    if has(wind_kind(ctx.seat_wind)) {
        items.push((FanItem::SeatWind, 1));
    }
    if rules.round_wind_pung && has(wind_kind(ctx.round_wind)) {
        items.push((FanItem::RoundWind, 1));
    }
    if all_pungs && is_yaochu(pair) && pungs.iter().all(|s| is_yaochu(s.base)) {
        items.push((FanItem::MixedTerminals, rules.mixed_terminals_fan));
    }
    common_items(rules, ctx, all, closed, &mut items);
    (items, limit)
}

/// 九蓮寶燈: the 13 tiles before the win are 1112345678999 of one suit (A13).
fn nine_gates(all: &Counts, win: Kind) -> bool {
    if is_honor(win) || all[usize::from(win)] == 0 {
        return false;
    }
    let s = usize::from(win / 9) * 9;
    if all.iter().map(|&n| usize::from(n)).sum::<usize>() != 14 || all[s..s + 9].iter().map(|&n| usize::from(n)).sum::<usize>() != 14 {
        return false;
    }
    let mut before = *all;
    before[usize::from(win)] -= 1;
    before[s..s + 9] == [3, 1, 1, 1, 1, 1, 1, 1, 3]
}

/// The unrelated hands (§8.4): 14 concealed tiles.
pub fn unrelated(c: &Counts) -> Option<Limit> {
    let honours: u8 = c[27..].iter().sum();
    // Every unrelated hand holds at least five honours (checked first: the engine asks about
    // every hand it cannot otherwise rule out).
    if honours < 5 {
        return None;
    }
    let suited = |s: usize| c[s * 9..s * 9 + 9].iter().sum::<u8>();
    // Distinct suited kinds of one suit, pairwise at least 3 apart.
    let spread = |s: usize| {
        let held: Vec<usize> = (0..9).filter(|&i| c[s * 9 + i] > 0).collect();
        held.windows(2).all(|w| w[1] - w[0] >= 3)
    };
    let pairs = c.iter().filter(|&&n| n == 2).count();
    if c.iter().any(|&n| n > 2) || pairs > 1 {
        return None;
    }
    if (0..3).all(|s| suited(s) == 3 && spread(s)) && honours == 5 {
        return Some(if pairs == 0 { Limit::FourteenUnrelated } else { Limit::ThirteenUnrelated });
    }
    // All unrelated: the 7 honours once each, each suit's tiles from one class {147, 258, 369},
    // the three suits in three different classes.
    if pairs == 0 && c[27..].iter().all(|&n| n == 1) {
        let mut classes = 0u8;
        for s in 0..3 {
            let held: Vec<usize> = (0..9).filter(|&i| c[s * 9 + i] > 0).collect();
            let &first = held.first()?;
            if held.iter().any(|&i| i % 3 != first % 3) || classes & 1 << (first % 3) != 0 {
                return None;
            }
            classes |= 1 << (first % 3);
        }
        return Some(Limit::AllUnrelated);
    }
    None
}

/// The checked tiles of a hand: all 34-kind counts (concealed and melds) and whether no set was
/// claimed.
fn totals(hand: &Hand) -> (Counts, bool) {
    let mut all = hand.concealed;
    for m in &hand.melds {
        for k in m.tiles() {
            all[usize::from(k)] += 1;
        }
    }
    (all, hand.melds.iter().all(|m| m.kind == MeldKind::Ankan))
}

fn meld_set(m: &HkMeld) -> Set {
    Set { chow: m.kind == MeldKind::Chi, base: m.base, kong: m.kind.is_kan(), concealed: m.kind == MeldKind::Ankan }
}

/// The best value of the hand (§8.5: largest base, then largest fan), or `None` when no reading
/// wins. Legality against the minimum is [`Value::legal`]; a hand whose best reading is under the
/// minimum may still have another reading that is not, so the best *legal* reading is chosen
/// when there is one.
pub fn evaluate(rules: &Rules, hand: &Hand, ctx: &WinContext) -> Option<Value> {
    let mut best: Option<(Value, u16)> = None;
    let mut consider = |items: Vec<(FanItem, u8)>, limit: Option<Limit>, special: u8| {
        // §8.5 counts F for every reading, a limit hand's too (its items are still the ones
        // that apply), so that a limit reading and a capped one tie on the base and the larger
        // F is logged rather than whichever reading the search met first.
        let fan: u16 = items.iter().map(|&(_, f)| u16::from(f)).sum();
        let v = value(rules, items, limit, special);
        if best.as_ref().is_none_or(|(b, bf)| (v.legal(rules), v.base, fan) > (b.legal(rules), b.base, *bf)) {
            best = Some((v, fan));
        }
    };
    let (all, closed) = totals(hand);
    let bonus_count = (ctx.flowers.count_ones() + ctx.seasons.count_ones()) as u8;
    // The bonus-tile wins are instant wins on one's own draw (§8.3 V, A25), never on another
    // player's tile.
    if rules.has_bonus_tiles() && ctx.self_draw {
        if bonus_count == 8 && rules.all_flowers_instant_win {
            consider(Vec::new(), Some(Limit::EightFlowers), 0);
        }
        if bonus_count == 7 && rules.seven_flowers_fan > 0 {
            consider(vec![(FanItem::SevenFlowers, rules.seven_flowers_fan)], None, 0);
        }
    }
    let whole_hand_limit = if ctx.heavenly {
        Some(Limit::Heavenly)
    } else if ctx.earthly {
        Some(Limit::Earthly)
    } else if ctx.kong_on_kong && ctx.self_draw && rules.kong_on_kong_limit {
        Some(Limit::KongOnKong)
    } else {
        None
    };
    let melds: Vec<Set> = hand.melds.iter().map(meld_set).collect();
    let need = 4 - melds.len().min(4);
    for_each_decomposition(&hand.concealed, need, &mut |d| {
        let mut sets = melds.clone();
        for s in &d.sets[..d.n] {
            let chow = s.kind == crate::games::riichi::agari::SetKind::Sequence;
            // Concealed in hand; four concealed pungs also needs the self-draw, so a pung
            // completed by a discard never reaches it.
            sets.push(Set { chow, base: s.base, kong: false, concealed: true });
        }
        let (items, limit) = standard(rules, ctx, &sets, d.pair, closed, &all, hand.win);
        consider(items, whole_hand_limit.or(limit), 0);
    });
    let n: u8 = hand.concealed.iter().sum();
    if hand.melds.is_empty() && n == 14 {
        if is_kokushi(&hand.concealed) {
            consider(Vec::new(), Some(whole_hand_limit.unwrap_or(Limit::ThirteenOrphans)), 0);
        }
        if rules.seven_pairs_fan > 0 && is_chiitoitsu(&hand.concealed, rules.seven_pairs_allow_four) {
            let mut items = vec![(FanItem::SevenPairs, rules.seven_pairs_fan)];
            common_items(rules, ctx, &all, true, &mut items);
            consider(items, whole_hand_limit, rules.seven_pairs_fan);
        }
        if rules.unrelated_hands {
            if let Some(l) = unrelated(&hand.concealed) {
                consider(Vec::new(), Some(whole_hand_limit.unwrap_or(l)), 0);
            }
        }
    }
    best.map(|(v, _)| v)
}

/// Totals a reading. `special` is the fan of a 16-point hand item under `special_combine = max`
/// (seven pairs; full flush is found among the items).
fn value(rules: &Rules, mut items: Vec<(FanItem, u8)>, limit: Option<Limit>, special: u8) -> Value {
    items.retain(|&(_, f)| f > 0);
    if let Some(l) = limit {
        return Value {
            items: Vec::new(),
            limit: Some(l),
            fan: rules.max_fan,
            counted_fan: rules.max_fan,
            base: multiplier(rules, rules.max_fan),
        };
    }
    let fan: u8 = items.iter().map(|&(_, f)| f).sum();
    let counted_fan = items.iter().filter(|(i, _)| !i.is_bonus()).map(|&(_, f)| f).sum();
    let special = special.max(items.iter().find(|(i, _)| *i == FanItem::FullFlush).map_or(0, |&(_, f)| f));
    let base = if rules.special_combine == SpecialCombine::Max && special > 0 {
        multiplier(rules, special).max(multiplier(rules, fan - special))
    } else {
        multiplier(rules, fan)
    };
    Value { items, limit: None, fan, counted_fan, base }
}
