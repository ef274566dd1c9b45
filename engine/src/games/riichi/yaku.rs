//! Yaku and yakuman (spec §9) of one interpretation of a winning hand.

use super::agari::{SetKind, Wait};
use super::rules::{LocalYaku, PinfuTsumo, Renhou, Rules};
use super::tiles::{is_dragon, is_green, is_honor, is_terminal, is_wind, is_yaochu, Counts, Kind, HATSU};

macro_rules! yaku_list {
    ($( $v:ident = $name:literal, $closed:literal, $open:literal; )*) => {
        /// Every yaku and yakuman. Regular yaku carry (closed han, open han; 0 = not open);
        /// yakuman carry their multiplier in `han` terms of 13 (see [`Yaku::yakuman`]).
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        #[repr(u8)]
        pub enum Yaku { $( $v ),* }

        impl Yaku {
            pub const ALL: &'static [Yaku] = &[$( Yaku::$v ),*];
            /// The names of [`Yaku::ALL`], in order: bit `i` of a yaku mask is `NAMES[i]`.
            pub const NAMES: &'static [&'static str] = &[$( $name ),*];
            const TABLE: &'static [(&'static str, u8, u8)] = &[$( ($name, $closed, $open) ),*];
        }
    };
}

yaku_list! {
    Riichi = "riichi", 1, 0;
    DoubleRiichi = "double_riichi", 2, 0;
    Ippatsu = "ippatsu", 1, 0;
    MenzenTsumo = "menzen_tsumo", 1, 0;
    Haitei = "haitei", 1, 1;
    Houtei = "houtei", 1, 1;
    Rinshan = "rinshan", 1, 1;
    Chankan = "chankan", 1, 1;
    Haku = "yakuhai_haku", 1, 1;
    Hatsu = "yakuhai_hatsu", 1, 1;
    Chun = "yakuhai_chun", 1, 1;
    SeatWind = "seat_wind", 1, 1;
    RoundWind = "round_wind", 1, 1;
    Pinfu = "pinfu", 1, 0;
    Iipeikou = "iipeikou", 1, 0;
    Tanyao = "tanyao", 1, 1;
    Toitoi = "toitoi", 2, 2;
    Sanankou = "sanankou", 2, 2;
    Ittsu = "ittsu", 2, 1;
    SanshokuDoujun = "sanshoku_doujun", 2, 1;
    SanshokuDoukou = "sanshoku_doukou", 2, 2;
    Chanta = "chanta", 2, 1;
    Honroutou = "honroutou", 2, 2;
    Shousangen = "shousangen", 2, 2;
    Sankantsu = "sankantsu", 2, 2;
    Chiitoitsu = "chiitoitsu", 2, 0;
    Junchan = "junchan", 3, 2;
    Ryanpeikou = "ryanpeikou", 3, 0;
    Honitsu = "honitsu", 3, 2;
    Chinitsu = "chinitsu", 6, 5;
    RenhouMangan = "renhou", 0, 0;
    Kokushi = "kokushi", 1, 0;
    Kokushi13 = "kokushi_13_sided", 2, 0;
    Suuankou = "suuankou", 1, 0;
    SuuankouTanki = "suuankou_tanki", 2, 0;
    Daisangen = "daisangen", 1, 1;
    Shousuushii = "shousuushii", 1, 1;
    Daisuushii = "daisuushii", 2, 2;
    Tsuuiisou = "tsuuiisou", 1, 1;
    Chinroutou = "chinroutou", 1, 1;
    Ryuuiisou = "ryuuiisou", 1, 1;
    Chuuren = "chuuren", 1, 0;
    JunseiChuuren = "junsei_chuuren", 2, 0;
    Suukantsu = "suukantsu", 1, 1;
    Tenhou = "tenhou", 1, 0;
    Chiihou = "chiihou", 1, 0;
    Renhou = "renhou_yakuman", 1, 0;
    Daisharin = "daisharin", 1, 0;
    KagaHyakumangoku = "kaga_hyakumangoku", 1, 1;
    OpenRiichi = "open_riichi", 1, 0;
    ShiroPocchi = "shiro_pocchi", 0, 0;
    NorthWind = "yakuhai_north", 1, 1;
    AllFlowers = "all_flowers", 0, 0;
}

/// The yakuman: declared from kokushi to kaga_hyakumangoku (the local regular yaku come after).
const YAKUMAN_BITS: u64 = (Yaku::KagaHyakumangoku.bit() << 1) - Yaku::Kokushi.bit();

impl Yaku {
    pub fn name(self) -> &'static str {
        Self::TABLE[self as usize].0
    }

    pub fn is_yakuman(self) -> bool {
        YAKUMAN_BITS & self.bit() != 0
    }

    /// Han of a regular yaku (0 if it does not exist in an open hand).
    pub fn han(self, closed: bool) -> u8 {
        let (_, c, o) = Self::TABLE[self as usize];
        if closed {
            c
        } else {
            o
        }
    }

    /// Multiplier of a yakuman under `rules` (the double forms only when their option is on).
    pub fn yakuman(self, rules: &Rules) -> u8 {
        let double = match self {
            Yaku::Kokushi13 => rules.double_kokushi13,
            Yaku::SuuankouTanki => rules.double_suuankou_tanki,
            Yaku::Daisuushii => rules.double_daisuushii,
            Yaku::JunseiChuuren => rules.double_junsei_chuuren,
            _ => false,
        };
        if double {
            2
        } else {
            1
        }
    }

    pub const fn bit(self) -> u64 {
        1 << (self as u8)
    }

    /// The yaku of a bit mask, in declaration order.
    pub fn from_mask(mut mask: u64) -> impl Iterator<Item = Yaku> {
        std::iter::from_fn(move || {
            let bit = mask.trailing_zeros() as usize;
            mask &= mask.wrapping_sub(1);
            Yaku::ALL.get(bit).copied()
        })
    }
}

/// How the hand was won and the table situation (spec §9.3's situational yaku are flags).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Situation {
    pub tsumo: bool,
    pub riichi: bool,
    pub double_riichi: bool,
    pub ippatsu: bool,
    pub haitei: bool,
    pub houtei: bool,
    pub rinshan: bool,
    pub chankan: bool,
    pub tenhou: bool,
    pub chiihou: bool,
    pub renhou: bool,
    /// The riichi was declared open (local yaku `open_riichi`: one more han).
    pub open_riichi: bool,
    /// A tsumo on the marked 白 as a wild tile (local yaku `shiro_pocchi`: a marker, no han).
    pub pocchi: bool,
    /// Round wind kind (27 = East …).
    pub round_wind: Kind,
    /// Seat wind kind; East is the dealer.
    pub seat_wind: Kind,
}

impl Situation {
    pub fn dealer(&self) -> bool {
        self.seat_wind == 27
    }
}

/// What one interpretation's yaku come to.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct YakuSet {
    pub mask: u64,
    /// Han of the regular yaku (0 when a yakuman is present, unless yakuman count as 13 han).
    pub han: u8,
    /// Sum of yakuman multipliers (stacking) or the largest (no stacking).
    pub yakuman: u8,
}

/// Facts about the whole hand that do not depend on the decomposition.
pub struct HandFacts {
    /// Every tile of the hand: concealed (with the winning tile) and melds (a kan's four).
    pub all: Counts,
    /// Concealed tiles including the winning tile.
    pub concealed: Counts,
    pub win: Kind,
    /// No open meld (ankan keeps the hand closed).
    pub closed: bool,
    /// No meld at all.
    pub no_melds: bool,
    /// Index of the first open meld among the sets of an interpretation (for kansaki).
    pub first_call: Option<usize>,
    /// Yaku of the situation (riichi, tsumo, haitei, ...), the same for every reading.
    pub situation_mask: u64,
    /// Yaku of the tiles alone (tanyao, flushes, honroutou, all-tile yakuman).
    pub tile_mask: u64,
}

impl HandFacts {
    /// Fills the masks that do not depend on the reading.
    pub fn with_masks(mut self, s: &Situation, rules: &Rules) -> Self {
        let (mut sit, mut tiles) = (0, 0);
        situation_yaku(s, &self, rules, &mut sit);
        tile_yaku(&self, rules, &mut tiles);
        (self.situation_mask, self.tile_mask) = (sit, tiles);
        self
    }
}

/// One standard-form interpretation: four sets (called ones included), the pair and the wait.
pub struct Interpretation {
    pub sets: [super::agari::Set; 4],
    pub pair: Kind,
    pub wait: Wait,
}

/// Yaku that depend only on the tiles, not on the decomposition (tanyao, flushes, honroutou and
/// the all-tiles yakuman); used by every form.
/// Bit mask of the kinds for which a (const) predicate holds.
macro_rules! kinds_where {
    ($pred:path) => {{
        let mut m = 0u64;
        let mut k = 0;
        while k < 34 {
            if $pred(k) {
                m |= 1 << k;
            }
            k += 1;
        }
        m
    }};
}

const YAOCHU_KINDS: u64 = kinds_where!(is_yaochu);
const TERMINAL_KINDS: u64 = kinds_where!(is_terminal);
const HONOR_KINDS: u64 = kinds_where!(is_honor);
const GREEN_KINDS: u64 = kinds_where!(is_green);
const SUIT_KINDS: [u64; 3] = [0x1FF, 0x1FF << 9, 0x1FF << 18];

fn tile_yaku(f: &HandFacts, rules: &Rules, mask: &mut u64) {
    let held = (0..34).fold(0u64, |m, k| m | u64::from(f.all[k] > 0) << k);
    let subset = |of: u64| held & !of == 0;
    if held & YAOCHU_KINDS == 0 && (f.closed || rules.kuitan) {
        *mask |= Yaku::Tanyao.bit();
    }
    if SUIT_KINDS.iter().filter(|&&s| held & s != 0).count() == 1 {
        *mask |= if held & HONOR_KINDS != 0 { Yaku::Honitsu.bit() } else { Yaku::Chinitsu.bit() };
    }
    if subset(YAOCHU_KINDS) && held & HONOR_KINDS != 0 && held & TERMINAL_KINDS != 0 {
        *mask |= Yaku::Honroutou.bit();
    }
    if subset(HONOR_KINDS) {
        *mask |= Yaku::Tsuuiisou.bit();
    }
    if subset(TERMINAL_KINDS) {
        *mask |= Yaku::Chinroutou.bit();
    }
    if subset(GREEN_KINDS) && (!rules.ryuuiisou_requires_hatsu || f.all[usize::from(HATSU)] > 0) {
        *mask |= Yaku::Ryuuiisou.bit();
    }
    // 加賀百万石: characters (and honors) only, the characters' numbers summing to 100 or more.
    if rules.local_yaku.contains(LocalYaku::KagaHyakumangoku)
        && subset(SUIT_KINDS[0] | HONOR_KINDS)
        && (0..9).map(|n| u32::from(f.all[n]) * (n as u32 + 1)).sum::<u32>() >= 100
    {
        *mask |= Yaku::KagaHyakumangoku.bit();
    }
}

fn situation_yaku(s: &Situation, f: &HandFacts, rules: &Rules, mask: &mut u64) {
    if s.double_riichi && rules.double_riichi {
        *mask |= Yaku::DoubleRiichi.bit();
    } else if s.riichi || s.double_riichi {
        *mask |= Yaku::Riichi.bit();
    }
    if s.open_riichi && (s.riichi || s.double_riichi) && rules.local_yaku.contains(LocalYaku::OpenRiichi) {
        *mask |= Yaku::OpenRiichi.bit();
    }
    if s.pocchi && rules.local_yaku.contains(LocalYaku::ShiroPocchi) {
        *mask |= Yaku::ShiroPocchi.bit();
    }
    if s.ippatsu && rules.ippatsu {
        *mask |= Yaku::Ippatsu.bit();
    }
    if s.tsumo && f.closed {
        *mask |= Yaku::MenzenTsumo.bit();
    }
    for (flag, y) in [(s.haitei, Yaku::Haitei), (s.houtei, Yaku::Houtei), (s.rinshan, Yaku::Rinshan), (s.chankan, Yaku::Chankan)] {
        if flag {
            *mask |= y.bit();
        }
    }
    if s.tenhou {
        *mask |= Yaku::Tenhou.bit();
    }
    if s.chiihou {
        *mask |= Yaku::Chiihou.bit();
    }
    if s.renhou {
        match rules.renhou {
            Renhou::Off => {}
            Renhou::Yakuman => *mask |= Yaku::Renhou.bit(),
            Renhou::Mangan | Renhou::Baiman => *mask |= Yaku::RenhouMangan.bit(),
        }
    }
}

/// Sums han and yakuman of a mask, applying precedence (§9.4): a yakuman voids regular yaku.
fn total(mut mask: u64, closed: bool, rules: &Rules) -> YakuSet {
    // Higher yaku replace lower ones.
    for (hi, lo) in [
        (Yaku::Ryanpeikou, Yaku::Iipeikou),
        (Yaku::Junchan, Yaku::Chanta),
        (Yaku::Chinitsu, Yaku::Honitsu),
        (Yaku::Honroutou, Yaku::Chanta),
        (Yaku::Honroutou, Yaku::Junchan),
        (Yaku::Kokushi13, Yaku::Kokushi),
        (Yaku::SuuankouTanki, Yaku::Suuankou),
        (Yaku::JunseiChuuren, Yaku::Chuuren),
    ] {
        if mask & hi.bit() != 0 {
            mask &= !lo.bit();
        }
    }
    let yakuman_bits = mask & YAKUMAN_BITS;
    let multipliers = Yaku::from_mask(yakuman_bits).map(|y| y.yakuman(rules));
    let ym = if rules.yakuman_stacking { multipliers.sum() } else { multipliers.max().unwrap_or(0) };
    if ym > 0 && !rules.yakuman_as_13_han {
        return YakuSet { mask: yakuman_bits, han: 0, yakuman: ym };
    }
    let han = Yaku::from_mask(mask & !yakuman_bits).map(|y| y.han(closed)).sum::<u8>() + 13 * ym;
    YakuSet { mask, han, yakuman: if rules.yakuman_as_13_han { 0 } else { ym } }
}

/// The North kind: with three players under `sanma_north = shared_wind` a value wind for all.
const NORTH: Kind = 30;

fn is_value_honor(k: Kind, s: &Situation, rules: &Rules) -> bool {
    is_dragon(k) || k == s.seat_wind || k == s.round_wind || (k == NORTH && rules.north_value())
}

/// Yaku of a standard-form interpretation.
pub fn standard(i: &Interpretation, f: &HandFacts, s: &Situation, rules: &Rules) -> YakuSet {
    let mut mask = f.situation_mask | f.tile_mask;
    let seqs = i.sets.iter().filter(|x| x.kind == SetKind::Sequence);
    let mut seq_bases = [0u8; 27];
    for x in seqs.clone() {
        seq_bases[usize::from(x.base)] += 1;
    }
    let n_seq = seqs.count();
    let mut set_bases = [false; 34];
    let (mut dragons, mut winds, mut concealed_sets, mut kans) = (0, 0, 0, 0);
    for x in i.sets.iter().filter(|x| x.is_set()) {
        set_bases[usize::from(x.base)] = true;
        dragons += usize::from(is_dragon(x.base));
        winds += usize::from(is_wind(x.base));
        concealed_sets += usize::from(x.concealed);
        kans += usize::from(x.kind == SetKind::Kan);
        match x.base {
            31 => mask |= Yaku::Haku.bit(),
            32 => mask |= Yaku::Hatsu.bit(),
            33 => mask |= Yaku::Chun.bit(),
            _ => {}
        }
        if x.base == s.seat_wind {
            mask |= Yaku::SeatWind.bit();
        }
        if x.base == s.round_wind {
            mask |= Yaku::RoundWind.bit();
        }
    }
    if f.closed {
        let ryanmen = i.wait == Wait::Ryanmen;
        let tsumo_ok = !(s.tsumo && rules.pinfu_tsumo == PinfuTsumo::NoPinfu);
        if n_seq == 4 && ryanmen && !is_value_honor(i.pair, s, rules) && tsumo_ok {
            mask |= Yaku::Pinfu.bit();
        }
        match seq_bases.iter().map(|&c| c / 2).sum::<u8>() {
            0 => {}
            1 => mask |= Yaku::Iipeikou.bit(),
            _ => mask |= Yaku::Ryanpeikou.bit(),
        }
    }
    if n_seq == 0 {
        mask |= Yaku::Toitoi.bit();
    }
    match concealed_sets {
        3 => mask |= Yaku::Sanankou.bit(),
        4 => mask |= if i.wait == Wait::Tanki { Yaku::SuuankouTanki.bit() } else { Yaku::Suuankou.bit() },
        _ => {}
    }
    match kans {
        3 => mask |= Yaku::Sankantsu.bit(),
        4 => mask |= Yaku::Suukantsu.bit(),
        _ => {}
    }
    for s0 in [0usize, 9, 18] {
        if seq_bases[s0] > 0 && seq_bases[s0 + 3] > 0 && seq_bases[s0 + 6] > 0 {
            mask |= Yaku::Ittsu.bit();
        }
    }
    for n in 0..9 {
        if seq_bases[n] > 0 && seq_bases[9 + n] > 0 && seq_bases[18 + n] > 0 {
            mask |= Yaku::SanshokuDoujun.bit();
        }
        if set_bases[n] && set_bases[9 + n] && set_bases[18 + n] {
            mask |= Yaku::SanshokuDoukou.bit();
        }
    }
    if n_seq > 0 && is_yaochu(i.pair) && i.sets.iter().all(|x| x.has_yaochu()) {
        let honors = is_honor(i.pair) || i.sets.iter().any(|x| is_honor(x.base));
        mask |= if honors { Yaku::Chanta.bit() } else { Yaku::Junchan.bit() };
    }
    if dragons == 2 && is_dragon(i.pair) {
        mask |= Yaku::Shousangen.bit();
    }
    if dragons == 3 {
        mask |= Yaku::Daisangen.bit();
    }
    if winds == 4 {
        mask |= Yaku::Daisuushii.bit();
    } else if winds == 3 && is_wind(i.pair) {
        mask |= Yaku::Shousuushii.bit();
    }
    // shared_wind: a North set is 1 han of yakuhai for everyone.
    if rules.north_value() && set_bases[usize::from(NORTH)] {
        mask |= Yaku::NorthWind.bit();
    }
    closed_shape_yakuman(f, rules, &mut mask);
    total(mask, f.closed, rules)
}

/// Chuuren and daisharin: closed shapes with no meld at all, read from the concealed counts.
fn closed_shape_yakuman(f: &HandFacts, rules: &Rules, mask: &mut u64) {
    if !f.no_melds {
        return;
    }
    let c = &f.concealed;
    for s0 in [0usize, 9, 18] {
        let suit_tiles: u8 = c[s0..s0 + 9].iter().sum();
        if suit_tiles != 14 {
            continue;
        }
        const SHAPE: [u8; 9] = [3, 1, 1, 1, 1, 1, 1, 1, 3];
        if (0..9).all(|n| c[s0 + n] >= SHAPE[n]) {
            let pure = (0..9).all(|n| c[s0 + n] - u8::from(usize::from(f.win) == s0 + n) == SHAPE[n]);
            *mask |= if pure { Yaku::JunseiChuuren.bit() } else { Yaku::Chuuren.bit() };
        }
        if rules.local_yaku.contains(LocalYaku::Daisharin)
            && s0 == 9
            && (0..9).all(|n| c[s0 + n] == if (1..8).contains(&n) { 2 } else { 0 })
        {
            *mask |= Yaku::Daisharin.bit();
        }
    }
}

/// Yaku of the seven-pairs reading.
pub fn chiitoitsu(f: &HandFacts, rules: &Rules) -> YakuSet {
    let mut mask = Yaku::Chiitoitsu.bit() | f.situation_mask | f.tile_mask;
    if !rules.tsuuiisou_chiitoitsu {
        mask &= !Yaku::Tsuuiisou.bit();
    }
    closed_shape_yakuman(f, rules, &mut mask);
    let mut y = total(mask, true, rules);
    if rules.chiitoitsu_fu == super::rules::ChiitoitsuFu::Fu50Han1 && y.mask & Yaku::Chiitoitsu.bit() != 0 {
        y.han -= 1;
    }
    y
}

/// Yaku of the thirteen-orphans reading.
pub fn kokushi(f: &HandFacts, rules: &Rules, thirteen_sided: bool) -> YakuSet {
    let mask = if thirteen_sided { Yaku::Kokushi13.bit() } else { Yaku::Kokushi.bit() };
    total(mask | f.situation_mask, true, rules)
}

/// Whether the first open meld (kansaki's 第一副露) is part of a yaku of this interpretation.
pub fn first_call_in_yaku(i: &Interpretation, set: usize, y: &YakuSet, s: &Situation, rules: &Rules) -> bool {
    let m = &i.sets[set];
    let has = |yaku: Yaku| y.mask & yaku.bit() != 0;
    let whole_hand = [Yaku::Tanyao, Yaku::Toitoi, Yaku::Honitsu, Yaku::Chinitsu, Yaku::Chanta, Yaku::Junchan, Yaku::Honroutou];
    if y.yakuman > 0 || whole_hand.iter().any(|&w| has(w)) {
        return true;
    }
    if m.is_set() {
        let value = match m.base {
            31 => has(Yaku::Haku),
            32 => has(Yaku::Hatsu),
            33 => has(Yaku::Chun),
            _ => false,
        } || (m.base == s.seat_wind && has(Yaku::SeatWind))
            || (m.base == s.round_wind && has(Yaku::RoundWind))
            || (m.base == NORTH && rules.north_value());
        let doukou = has(Yaku::SanshokuDoukou) && !is_honor(m.base);
        let kans = has(Yaku::Sankantsu) && m.kind == SetKind::Kan;
        return value || doukou || kans || (has(Yaku::Shousangen) && is_dragon(m.base));
    }
    let sanshoku = has(Yaku::SanshokuDoujun)
        && [0u8, 9, 18].iter().all(|&s0| i.sets.iter().any(|x| x.kind == SetKind::Sequence && x.base == s0 + m.base % 9));
    let s0 = m.base / 9 * 9;
    let ittsu = has(Yaku::Ittsu)
        && matches!(m.base % 9, 0 | 3 | 6)
        && [0u8, 3, 6].iter().all(|&d| i.sets.iter().any(|x| x.kind == SetKind::Sequence && x.base == s0 + d));
    sanshoku || ittsu
}
