//! Hand value (spec §7.7, §11): every interpretation of a winning hand is scored and the one that
//! pays the most is kept (高点法); then limits, payments, honba and riichi sticks.

use super::agari::{self, Set, SetKind, Wait};
use super::fu;
use super::rules::{ChiitoitsuFu, Renhou, Rules, SanmaTsumo, SanmaTsumoHonba};
use super::shanten;
use super::tiles::{counts_of, dora_successor, Counts, Kind, Meld, MeldKind, Tile, KINDS};
use super::yaku::{self, HandFacts, Interpretation, Situation, Yaku, YakuSet};
use crate::options::OptionError;
use std::fmt;

/// A winning hand as the caller describes it.
#[derive(Debug, Clone, Default)]
pub struct WinInput {
    /// Concealed tiles, with or without the winning tile (13 − 3k or 14 − 3k tiles for k melds).
    pub hand: Vec<Tile>,
    pub win: Option<Tile>,
    pub melds: Vec<Meld>,
    pub situation: Situation,
    /// Dora and ura indicators (tiles, not the dora they point at).
    pub dora: Vec<Tile>,
    pub ura: Vec<Tile>,
    pub honba: u32,
    /// Riichi sticks on the table that the winner collects (this hand's included).
    pub deposits: u32,
    /// Nukidora han: extracted flowers or sanma Norths, the flower-indicator bonus included
    /// (spec §1.4, §14).
    pub nukidora: u8,
    /// Han of the all-flowers yaku (rule `flower_all_yaku_han`) when the winner earned it: yaku
    /// han (they count toward `min_han`), named by the yaku `all_flowers`.
    pub flower_yaku: u8,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limit {
    None,
    Mangan,
    Haneman,
    Baiman,
    Sanbaiman,
    KazoeYakuman,
    Yakuman,
}

impl Limit {
    pub const NAMES: [&'static str; 7] = ["", "mangan", "haneman", "baiman", "sanbaiman", "kazoe_yakuman", "yakuman"];

    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    Standard,
    Chiitoitsu,
    Kokushi,
}

/// Who pays what. Amounts include the honba bonus; riichi sticks are only in `received`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Payments {
    /// Ron: what the discarder pays.
    pub ron: u32,
    /// Tsumo: what the dealer pays (0 when the winner is the dealer).
    pub tsumo_dealer: u32,
    /// Tsumo: what each non-dealer pays.
    pub tsumo_non_dealer: u32,
    /// Everything the winner receives: payments, honba and riichi sticks.
    pub received: u32,
}

/// The value of a winning hand.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Score {
    /// Han including dora (13 per yakuman for a yakuman hand).
    pub han: u32,
    pub fu: u32,
    /// The yaku that count ([`Score::yaku`] gives their han).
    pub yaku_mask: u64,
    /// Total yakuman multiplier (0 = not a yakuman hand).
    pub yakuman: u8,
    /// Dora, red fives and ura dora that count (all 0 in a yakuman hand).
    pub dora: u8,
    pub aka: u8,
    pub ura: u8,
    /// Nukidora han that count.
    pub nuki: u8,
    pub limit: Limit,
    /// Basic points (fu × 2^(han+2), or the limit's).
    pub basic: u32,
    /// What the winner receives before honba and riichi sticks.
    pub points: u32,
    pub payments: Payments,
    pub form: Form,
    pub wait: Option<Wait>,
    pub closed: bool,
    pub dealer: bool,
    pub tsumo: bool,
}

/// Why a hand cannot be scored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ScoreError {
    /// The input is malformed or contradictory (names the field).
    Input(OptionError),
    /// The hand is well-formed but does not win (incomplete, or no yaku).
    NoWin(String),
}

impl fmt::Display for ScoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScoreError::Input(e) => e.fmt(f),
            ScoreError::NoWin(m) => f.write_str(m),
        }
    }
}

fn input(field: &str, message: impl Into<String>) -> ScoreError {
    ScoreError::Input(OptionError::new(field, message))
}

fn ceil100(x: u32) -> u32 {
    x.div_ceil(100) * 100
}

/// Basic points and the limit reached for a hand of `han` and `fu` (spec §11.2–11.4).
pub fn basic_points(han: u32, fu: u32, yakuman: u8, rules: &Rules) -> (u32, Limit) {
    if yakuman > 0 {
        return (8000 * u32::from(yakuman), Limit::Yakuman);
    }
    match han {
        13.. if rules.kazoe_yakuman => (8000, Limit::KazoeYakuman),
        11.. => (6000, Limit::Sanbaiman),
        8.. => (4000, Limit::Baiman),
        6.. => (3000, Limit::Haneman),
        5.. => (2000, Limit::Mangan),
        _ => {
            let b = fu << (han + 2);
            if b >= 2000 || (rules.kiriage_mangan && b == 1920) {
                (2000, Limit::Mangan)
            } else {
                (b, Limit::None)
            }
        }
    }
}

/// Rounds to the nearest 100, halves up (四捨五入).
fn round100(x: u32) -> u32 {
    (x + 50) / 100 * 100
}

/// What each payer of a tsumo adds for the honba: a third of the honba bonus, or half of it with
/// three players under `seppan` and `marudori`, whose tsumo pays the full value, or under
/// `sanma_tsumo_honba = half`.
pub fn tsumo_honba(honba: u32, rules: &Rules) -> u32 {
    let half = rules.sanma_tsumo_honba == SanmaTsumoHonba::Half || matches!(rules.sanma_tsumo, SanmaTsumo::Seppan | SanmaTsumo::Marudori);
    let shares = if rules.players == 3 && half { 2 } else { 3 };
    honba * rules.honba_value / shares
}

/// Three-player tsumo shares (§14 E): (dealer's share, each non-dealer's share) without honba.
fn sanma_tsumo(basic: u32, dealer: bool, rules: &Rules) -> (u32, u32) {
    let (d, n) = if dealer { (0, ceil100(2 * basic)) } else { (ceil100(2 * basic), ceil100(basic)) };
    match rules.sanma_tsumo {
        SanmaTsumo::TsumoSon => (d, n),
        SanmaTsumo::SentenKafu => (if dealer { 0 } else { d + 1000 }, n + 1000),
        // The absent North would pay a non-dealer's share: each payer takes half of it.
        SanmaTsumo::Seppan => {
            let half = round100(n / 2);
            (if dealer { 0 } else { d + half }, n + half)
        }
        SanmaTsumo::Marudori => {
            let ron = ceil100(basic * if dealer { 6 } else { 4 });
            if dealer {
                (0, round100(ron / 2))
            } else {
                (round100(ron * 2 / 3), round100(ron / 3))
            }
        }
    }
}

/// Payments for `basic` points (spec §11.5–11.6; three players: §14 E).
pub fn payments(basic: u32, dealer: bool, tsumo: bool, honba: u32, deposits: u32, rules: &Rules) -> (u32, Payments) {
    let mut p = Payments::default();
    let points;
    if !tsumo {
        points = ceil100(basic * if dealer { 6 } else { 4 });
        p.ron = points + honba * rules.honba_value;
    } else if rules.players == 3 {
        let (d, n) = sanma_tsumo(basic, dealer, rules);
        let each = tsumo_honba(honba, rules);
        points = d + if dealer { 2 * n } else { n };
        if !dealer {
            p.tsumo_dealer = d + each;
        }
        p.tsumo_non_dealer = n + each;
        p.received = points + 2 * each + deposits * rules.riichi_deposit;
        return (points, p);
    } else if dealer {
        let each = ceil100(2 * basic);
        points = 3 * each;
        p.tsumo_non_dealer = each + honba * rules.honba_value / 3;
    } else {
        let (d, n) = (ceil100(2 * basic), ceil100(basic));
        points = d + 2 * n;
        p.tsumo_dealer = d + honba * rules.honba_value / 3;
        p.tsumo_non_dealer = n + honba * rules.honba_value / 3;
    }
    p.received = points + honba * rules.honba_value + deposits * rules.riichi_deposit;
    (points, p)
}

/// One scored reading of the hand.
#[derive(Clone, Copy)]
struct Candidate {
    y: YakuSet,
    fu: u32,
    form: Form,
    wait: Option<Wait>,
    kansaki_ok: bool,
}

/// The hand after validation: counts and facts shared by every interpretation.
struct Prepared {
    facts: HandFacts,
    /// Called melds as sets, in input order (the first `n_called`).
    called: [Set; 4],
    n_called: usize,
    /// Every tile with kans as four, for dora.
    dora_counts: Counts,
    reds: u8,
}

fn prepare(w: &WinInput, s: &Situation, rules: &Rules) -> Result<Prepared, ScoreError> {
    let win = w.win.ok_or_else(|| input("win", "the winning tile is required"))?;
    for (field, inds) in [("dora", &w.dora), ("ura", &w.ura)] {
        if inds.len() > 5 {
            return Err(input(field, format!("at most 5 indicators (one plus four kan dora), got {}", inds.len())));
        }
    }
    let k = w.melds.len();
    if k > 4 {
        return Err(input("melds", format!("at most 4 melds, got {k}")));
    }
    let mut concealed = counts_of(&w.hand);
    let mut reds = w.hand.iter().filter(|t| t.red).count() as u8;
    match w.hand.len() + 3 * k {
        13 => {
            concealed[usize::from(win.kind)] += 1;
            reds += u8::from(win.red);
        }
        14 => {
            if concealed[usize::from(win.kind)] == 0 {
                return Err(input("win", format!("the hand has 14 tiles but no {} (the winning tile)", win.name())));
            }
        }
        n => {
            return Err(input(
                "hand",
                format!(
                    "expected {} concealed tiles with {k} meld(s) (13 − 3·melds, or 14 − 3·melds with the winning tile), got {}",
                    13 - 3 * k,
                    n - 3 * k
                ),
            ))
        }
    }
    let mut dora_counts = concealed;
    let mut called = [Set { kind: SetKind::Sequence, base: 0, concealed: false, called: true }; 4];
    let mut first_call = None;
    for (i, m) in w.melds.iter().enumerate() {
        for t in &m.tiles {
            dora_counts[usize::from(t.kind)] += 1;
        }
        reds += m.reds();
        let kind = match m.kind {
            MeldKind::Chi => SetKind::Sequence,
            MeldKind::Pon => SetKind::Triplet,
            _ => SetKind::Kan,
        };
        if m.kind.is_open() && first_call.is_none() {
            first_call = Some(i);
        }
        called[i] = Set { kind, base: m.base(), concealed: m.kind == MeldKind::Ankan, called: true };
    }
    if let Some(kind) = (0..KINDS).find(|&i| dora_counts[i] > 4) {
        let name = Tile { kind: kind as Kind, red: false }.name();
        return Err(input("hand", format!("{} copies of {name} in the hand and melds; there are only 4", dora_counts[kind])));
    }
    let closed = w.melds.iter().all(|m| !m.kind.is_open());
    let facts =
        HandFacts { all: dora_counts, concealed, win: win.kind, closed, no_melds: k == 0, first_call, situation_mask: 0, tile_mask: 0 }
            .with_masks(s, rules);
    Ok(Prepared { facts, called, n_called: k, dora_counts, reds })
}

fn check_situation(w: &WinInput, closed: bool) -> Result<(), ScoreError> {
    let s = &w.situation;
    let has_kan = w.melds.iter().any(|m| m.kind.is_kan());
    let first_turn = s.tenhou || s.chiihou || s.renhou;
    let rules: [(bool, &str, &str); 16] = [
        ((s.riichi || s.double_riichi) && !closed, "riichi", "riichi needs a closed hand (only ankan melds)"),
        (s.open_riichi && !(s.riichi || s.double_riichi), "open_riichi", "open riichi needs riichi"),
        (s.ippatsu && !(s.riichi || s.double_riichi), "ippatsu", "ippatsu needs riichi"),
        (s.haitei && !s.tsumo, "haitei", "haitei is a tsumo on the last tile"),
        (s.houtei && s.tsumo, "houtei", "houtei is a ron on the last discard"),
        (s.rinshan && !s.tsumo, "rinshan", "rinshan is a tsumo"),
        (s.rinshan && !has_kan && w.nukidora == 0, "rinshan", "rinshan needs a kan among the melds or an extracted tile (nukidora)"),
        (s.rinshan && s.haitei, "rinshan", "a replacement tile is never haitei"),
        (s.chankan && s.tsumo, "chankan", "chankan is a ron"),
        (s.chankan && s.houtei, "chankan", "a robbed kan tile is never houtei"),
        (first_turn && (s.riichi || s.double_riichi), "riichi", "no riichi before a first-turn win"),
        (s.tenhou && !(s.dealer() && s.tsumo && w.melds.is_empty()), "tenhou", "tenhou is the dealer's tsumo with no meld"),
        (s.chiihou && (s.dealer() || !s.tsumo || !w.melds.is_empty()), "chiihou", "chiihou is a non-dealer's tsumo with no meld"),
        (s.renhou && (s.dealer() || s.tsumo || !w.melds.is_empty()), "renhou", "renhou is a non-dealer's ron with no meld"),
        (!(27..31).contains(&s.round_wind), "round_wind", "expected a wind (E, S, W, N)"),
        (!(27..31).contains(&s.seat_wind), "seat_wind", "expected a wind (E, S, W, N)"),
    ];
    for (bad, field, message) in rules {
        if bad {
            return Err(input(field, message));
        }
    }
    Ok(())
}

/// Calls `visit` with every reading of the hand, its yaku and fu.
fn candidates(p: &Prepared, s: &Situation, rules: &Rules, visit: &mut impl FnMut(Candidate)) {
    let f = &p.facts;
    if f.no_melds {
        if agari::is_kokushi(&f.concealed) {
            let y = yaku::kokushi(f, rules, agari::is_kokushi13(&f.concealed, f.win));
            visit(Candidate { y, fu: if s.tsumo { 30 } else { 40 }, form: Form::Kokushi, wait: None, kansaki_ok: true });
        }
        if agari::is_chiitoitsu(&f.concealed, rules.chiitoitsu_same_pairs) {
            let y = yaku::chiitoitsu(f, rules);
            let fu = if rules.chiitoitsu_fu == ChiitoitsuFu::Fu50Han1 { 50 } else { 25 };
            visit(Candidate { y, fu, form: Form::Chiitoitsu, wait: Some(Wait::Tanki), kansaki_ok: true });
        }
    }
    let called = &p.called[..p.n_called];
    agari::for_each_decomposition(&f.concealed, 4 - called.len(), &mut |d| {
        let mut sets = [d.sets[0]; 4];
        sets[..called.len()].copy_from_slice(called);
        sets[called.len()..].copy_from_slice(&d.sets[..d.n]);
        // Each place the winning tile can sit gives one interpretation; identical sets give the same.
        let mut slots = [(None, Wait::Tanki); 5];
        let mut n_slots = 0;
        if d.pair == f.win {
            n_slots = 1;
        }
        for (j, x) in sets.iter().enumerate().skip(called.len()) {
            let holds = match x.kind {
                SetKind::Sequence => (x.base..x.base + 3).contains(&f.win),
                _ => x.base == f.win,
            };
            if holds && !slots[..n_slots].iter().any(|&(o, _)| o.is_some_and(|o: usize| sets[o] == *x)) {
                slots[n_slots] = (Some(j), agari::wait_of(x, f.win));
                n_slots += 1;
            }
        }
        for &(slot, wait) in &slots[..n_slots] {
            let mut sets = sets;
            if let Some(j) = slot {
                if !s.tsumo && sets[j].kind == SetKind::Triplet {
                    sets[j].concealed = false;
                }
            }
            let i = Interpretation { sets, pair: d.pair, wait };
            let y = yaku::standard(&i, f, s, rules);
            let pinfu = y.mask & Yaku::Pinfu.bit() != 0;
            let (_, fu) = fu::standard(&i, s, f.closed, pinfu, rules);
            let kansaki_ok = !rules.kansaki || f.first_call.is_none_or(|c| yaku::first_call_in_yaku(&i, c, &y, s, rules));
            visit(Candidate { y, fu, form: Form::Standard, wait: Some(wait), kansaki_ok });
        }
    });
}

/// The least han of yaku a win needs at `honba` (`min_han`, raised to 2 by `ryanhan_shibari`).
pub fn min_han(rules: &Rules, honba: u32) -> u8 {
    if rules.ryanhan_shibari && honba >= u32::from(rules.ryanhan_shibari_from) {
        rules.min_han.max(2)
    } else {
        rules.min_han
    }
}

fn enough_yaku(y: &YakuSet, extra: u8, need: u8) -> bool {
    y.yakuman > 0 || y.han + extra >= need || y.mask & Yaku::RenhouMangan.bit() != 0
}

/// Scores a winning hand, choosing the interpretation that pays the most.
pub fn score(w: &WinInput, rules: &Rules) -> Result<Score, ScoreError> {
    let p = prepare(w, &w.situation, rules)?;
    check_situation(w, p.facts.closed)?;
    let best = best_candidate(&p, &w.situation, w, rules)?;
    if !rules.atozuke {
        check_sakizuke(&p, w, rules)?;
    }
    Ok(finish(&p, w, rules, best))
}

struct Valued {
    c: Candidate,
    han: u32,
    basic: u32,
    limit: Limit,
    dora: (u8, u8, u8, u8),
}

fn best_candidate(p: &Prepared, s: &Situation, w: &WinInput, rules: &Rules) -> Result<Valued, ScoreError> {
    let need = min_han(rules, w.honba);
    let count = |inds: &[Tile]| inds.iter().map(|t| p.dora_counts[usize::from(dora_successor(t.kind, rules.players))]).sum::<u8>();
    let dora = count(&w.dora);
    let ura = if (s.riichi || s.double_riichi) && rules.ura_dora { count(&w.ura) } else { 0 };
    let aka = if rules.aka_dora > 0 { p.reds } else { 0 };
    let mut best: Option<Valued> = None;
    let mut most_yaku_han = 0;
    let mut complete = false;
    candidates(p, s, rules, &mut |c| {
        complete = true;
        most_yaku_han = most_yaku_han.max(c.y.han + w.flower_yaku);
        if !enough_yaku(&c.y, w.flower_yaku, need) || !c.kansaki_ok {
            return;
        }
        let counted = if c.y.yakuman > 0 { (0, 0, 0, 0) } else { (dora, aka, ura, w.nukidora) };
        let flower = if c.y.yakuman > 0 { 0 } else { w.flower_yaku };
        let han = u32::from(c.y.han + flower) + u32::from(counted.0 + counted.1 + counted.2) + u32::from(counted.3);
        let (mut basic, mut limit) = basic_points(han, c.fu, c.y.yakuman, rules);
        if c.y.mask & Yaku::RenhouMangan.bit() != 0 {
            let (b, l) = if rules.renhou == Renhou::Baiman { (4000, Limit::Baiman) } else { (2000, Limit::Mangan) };
            if b > basic {
                (basic, limit) = (b, l);
            }
        }
        let mut c = c;
        if flower > 0 {
            // The all-flowers yaku's han come from the rule; the bit names it in the yaku column.
            c.y.mask |= Yaku::AllFlowers.bit();
        }
        let v = Valued { c, han, basic, limit, dora: counted };
        if best.as_ref().is_none_or(|b| (v.basic, v.han, v.c.fu) > (b.basic, b.han, b.c.fu)) {
            best = Some(v);
        }
    });
    if !complete {
        let n = shanten::shanten(&p.facts.concealed);
        return Err(ScoreError::NoWin(format!("not a complete hand: shanten {n} with the winning tile")));
    }
    best.ok_or_else(|| {
        ScoreError::NoWin(if most_yaku_han == 0 {
            "no yaku: the hand is complete but has no yaku (dora do not count)".to_owned()
        } else if most_yaku_han < need {
            format!("only {most_yaku_han} han of yaku; {need} required (dora do not count)")
        } else {
            "kansaki: the first call is not part of a yaku".to_owned()
        })
    })
}

/// `atozuke = false`: every tile of the wait must give a yaku without haitei, houtei, rinshan or
/// chankan (no 片アガリ, no chance-yaku-only wins).
fn check_sakizuke(p: &Prepared, w: &WinInput, rules: &Rules) -> Result<(), ScoreError> {
    let mut before = p.facts.concealed;
    before[usize::from(p.facts.win)] -= 1;
    let mut s = w.situation;
    (s.haitei, s.houtei, s.rinshan, s.chankan) = (false, false, false, false);
    for k in agari::waits(&before) {
        let mut other = w.clone();
        other.hand = Vec::new();
        for (kind, &n) in before.iter().enumerate() {
            other.hand.extend(std::iter::repeat_n(Tile { kind: kind as Kind, red: false }, usize::from(n)));
        }
        other.win = Some(Tile { kind: k, red: false });
        let q = prepare(&other, &s, rules)?;
        if let Err(ScoreError::NoWin(why)) = best_candidate(&q, &s, &other, rules) {
            let name = Tile { kind: k, red: false }.name();
            return Err(ScoreError::NoWin(format!("atozuke is off and winning on {name} would not count: {why}")));
        }
    }
    Ok(())
}

fn finish(p: &Prepared, w: &WinInput, rules: &Rules, v: Valued) -> Score {
    let s = &w.situation;
    let (points, pay) = payments(v.basic, s.dealer(), s.tsumo, w.honba, w.deposits, rules);
    let han = if v.c.y.yakuman > 0 { 13 * u32::from(v.c.y.yakuman) } else { v.han };
    Score {
        han,
        fu: v.c.fu,
        yaku_mask: v.c.y.mask,
        yakuman: v.c.y.yakuman,
        dora: v.dora.0,
        aka: v.dora.1,
        ura: v.dora.2,
        nuki: v.dora.3,
        limit: v.limit,
        basic: v.basic,
        points,
        payments: pay,
        form: v.c.form,
        wait: v.c.wait,
        closed: p.facts.closed,
        dealer: s.dealer(),
        tsumo: s.tsumo,
    }
}

impl Score {
    /// The yaku with their han under `rules` (the rules the hand was scored with); for a yakuman,
    /// its multiplier. Renhou as a mangan or baiman shows 0 han: it sets a minimum value instead.
    pub fn yaku(&self, rules: &Rules) -> Vec<(Yaku, u8)> {
        Yaku::from_mask(self.yaku_mask)
            .map(|y| {
                let han = if y.is_yakuman() {
                    y.yakuman(rules)
                } else if y == Yaku::Chiitoitsu && rules.chiitoitsu_fu == ChiitoitsuFu::Fu50Han1 {
                    1
                } else {
                    y.han(self.closed)
                };
                (y, han)
            })
            .collect()
    }
}

fn wind(field: &str, v: &serde_json::Value) -> Result<Kind, ScoreError> {
    let text = v.as_str().ok_or_else(|| input(field, format!("expected E, S, W or N, got {v}")))?;
    match text.trim() {
        "E" | "e" | "east" | "1z" => Ok(27),
        "S" | "s" | "south" | "2z" => Ok(28),
        "W" | "w" | "west" | "3z" => Ok(29),
        "N" | "n" | "north" | "4z" => Ok(30),
        _ => Err(input(field, format!("expected E, S, W or N, got \"{text}\""))),
    }
}

fn tiles_field(field: &str, v: &serde_json::Value) -> Result<Vec<Tile>, ScoreError> {
    let parse = |s: &str| super::tiles::parse_tiles(s).map_err(|e| input(field, e));
    match v {
        serde_json::Value::String(s) => parse(s),
        serde_json::Value::Array(items) => {
            let mut out = Vec::new();
            for x in items {
                out.extend(parse(x.as_str().ok_or_else(|| input(field, format!("expected tiles in MPSZ, got {x}")))?)?);
            }
            Ok(out)
        }
        serde_json::Value::Null => Ok(Vec::new()),
        _ => Err(input(field, format!("expected tiles in MPSZ notation, got {v}"))),
    }
}

/// The keys of a scoring request (see [`request`]).
pub const REQUEST_KEYS: &[&str] = &[
    "hand",
    "win",
    "melds",
    "tsumo",
    "riichi",
    "double_riichi",
    "ippatsu",
    "haitei",
    "houtei",
    "rinshan",
    "chankan",
    "tenhou",
    "chiihou",
    "renhou",
    "open_riichi",
    "dora",
    "ura",
    "round_wind",
    "seat_wind",
    "honba",
    "deposits",
    "nukidora",
    "rules",
    "rule_overrides",
];

/// A scoring request from JSON: `hand` and `win` in MPSZ, `melds` as meld strings
/// ([`Meld::parse`]), flags as booleans, `dora`/`ura` indicator tiles, winds as `E S W N`,
/// `honba`, `deposits`; `rules` (a preset) and `rule_overrides` (an object) replace `base` when
/// given. Unknown keys and bad values are errors naming the key.
pub fn request(v: &serde_json::Value, base: &Rules) -> Result<(WinInput, Rules), ScoreError> {
    let obj = v.as_object().ok_or_else(|| input("request", "expected an object with at least hand and win"))?;
    let mut w = WinInput { situation: Situation { round_wind: 27, seat_wind: 27, ..Situation::default() }, ..WinInput::default() };
    let mut preset = None;
    let mut overrides = None;
    for (key, value) in obj {
        let flag = || value.as_bool().ok_or_else(|| input(key, format!("expected true or false, got {value}")));
        let count = || {
            value
                .as_u64()
                .filter(|&n| n <= 65535)
                .map(|n| n as u32)
                .ok_or_else(|| input(key, format!("expected an integer from 0 to 65535, got {value}")))
        };
        let s = &mut w.situation;
        match key.as_str() {
            "hand" => w.hand = tiles_field(key, value)?,
            "win" => {
                let t = tiles_field(key, value)?;
                if t.len() != 1 {
                    return Err(input(key, format!("expected one tile, got {value}")));
                }
                w.win = Some(t[0]);
            }
            "melds" => {
                let items: Vec<&str> = match value {
                    serde_json::Value::Array(a) => a.iter().map(|x| x.as_str().unwrap_or("?")).collect(),
                    serde_json::Value::String(s) => s.split_whitespace().collect(),
                    _ => return Err(input(key, "expected a list of melds such as \"pon:555z\"")),
                };
                w.melds = items.iter().map(|m| Meld::parse(m).map_err(|e| input(key, e))).collect::<Result<_, _>>()?;
            }
            "tsumo" => s.tsumo = flag()?,
            "riichi" => s.riichi = flag()?,
            "double_riichi" => s.double_riichi = flag()?,
            "ippatsu" => s.ippatsu = flag()?,
            "haitei" => s.haitei = flag()?,
            "houtei" => s.houtei = flag()?,
            "rinshan" => s.rinshan = flag()?,
            "chankan" => s.chankan = flag()?,
            "tenhou" => s.tenhou = flag()?,
            "chiihou" => s.chiihou = flag()?,
            "renhou" => s.renhou = flag()?,
            "open_riichi" => s.open_riichi = flag()?,
            "dora" => w.dora = tiles_field(key, value)?,
            "ura" => w.ura = tiles_field(key, value)?,
            "round_wind" => s.round_wind = wind(key, value)?,
            "seat_wind" => s.seat_wind = wind(key, value)?,
            "honba" => w.honba = count()?,
            "deposits" => w.deposits = count()?,
            "nukidora" => w.nukidora = count()?.try_into().ok().filter(|&n| n <= 8).ok_or_else(|| input(key, "expected 0 to 8"))?,
            "rules" => preset = Some(value.as_str().ok_or_else(|| input(key, "expected a preset name"))?),
            "rule_overrides" => overrides = Some(value),
            other => return Err(ScoreError::Input(crate::options::unknown_key(other, REQUEST_KEYS))),
        }
    }
    if w.hand.is_empty() {
        return Err(input("hand", "the concealed tiles are required"));
    }
    let rules = if preset.is_some() || overrides.is_some() {
        let empty = serde_json::json!({});
        super::rules::resolve(preset.unwrap_or("default"), overrides.unwrap_or(&empty)).map_err(ScoreError::Input)?
    } else {
        base.clone()
    };
    Ok((w, rules))
}
