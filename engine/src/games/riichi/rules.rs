//! Every Riichi house rule in one options struct: what a hand is worth (spec §15.2, §15.3, §15.5)
//! and the game flow — calls, riichi, draws, rotation, end and settlement (§15.1, §15.4) — with the
//! presets of §15.7. The hand evaluator reads the scoring rules; the game loop reads the rest.

use crate::game::{resolve_preset, Preset};
use crate::options::{OptionError, Set, Validate};
use crate::{option_enum, options};
use serde_json::json;

option_enum! {
    /// Value of 人和 (a non-dealer's ron before their first draw).
    pub enum Renhou { Off = "off", Yakuman = "yakuman", Mangan = "mangan", Baiman = "baiman" }
}

option_enum! {
    /// Local yaku that `local_yaku` can switch on (spec §9.8, A50).
    pub enum LocalYaku {
        Daisharin = "daisharin",
        KagaHyakumangoku = "kaga_hyakumangoku",
        OpenRiichi = "open_riichi",
        ShiroPocchi = "shiro_pocchi",
    }
}

option_enum! {
    /// Whether pinfu can be won by tsumo (ピンヅモ).
    pub enum PinfuTsumo { Allowed = "allowed", NoPinfu = "no_pinfu" }
}

option_enum! {
    /// Seven pairs: 2 han 25 fu, or the old 1 han 50 fu.
    pub enum ChiitoitsuFu { Fu25 = "25", Fu50Han1 = "50fu_1han" }
}

option_enum! {
    /// Number of scheduled rounds (§13.1).
    pub enum GameLength { Ikkyoku = "ikkyoku", Tonpuu = "tonpuu", Hanchan = "hanchan", Iichan = "iichan" }
}

option_enum! {
    /// Several players ron the same discard (§7.6).
    pub enum MultiRon { DoubleOkTripleAbort = "double_ok_triple_abort", AllWin = "all_win", Atamahane = "atamahane" }
}

option_enum! {
    /// Who gets the honba bonus in a multiple ron.
    pub enum MultiRonHonba { NearestOnly = "nearest_only", EachWinner = "each_winner" }
}

option_enum! {
    /// When running out of points ends the game (§13.3).
    pub enum Tobi { BelowZero = "below_zero", ZeroOrBelow = "zero_or_below", Off = "off" }
}

impl Tobi {
    /// Whether a player holding `points` has run out under this rule: the one test for ending the
    /// game and for logging who busted, so `zero_or_below` counts a player at exactly 0 in both.
    pub fn busts(self, points: i64) -> bool {
        match self {
            Tobi::BelowZero => points < 0,
            Tobi::ZeroOrBelow => points <= 0,
            Tobi::Off => false,
        }
    }
}

option_enum! {
    /// Extension rounds when nobody reaches the target after all-last (§13.4).
    pub enum Extension { Off = "off", SuddenDeath = "sudden_death", FullRound = "full_round" }
}

option_enum! {
    /// How far the game may extend (§13.4).
    pub enum ExtensionMax { OneRound = "one_round", TwoRounds = "two_rounds", ReturnEast = "return_east" }
}

option_enum! {
    /// Agari-yame / tenpai-yame (§13.4). `choice` is answered by the dealer's strategy knob
    /// `yame` (native strategies stop when in first place, as `auto_if_top`).
    pub enum Yame { Off = "off", Choice = "choice", AutoIfTop = "auto_if_top" }
}

option_enum! {
    /// Dealer rotation at an exhaustive draw (§13.2).
    pub enum RenchanOnDraw {
        Tenpai = "tenpai",
        EastNotenPassesSouthKeeps = "east_noten_passes_south_keeps",
        AlwaysPass = "always_pass",
        AlwaysKeep = "always_keep",
    }
}

option_enum! {
    /// Deposits still on the table at the end of the game.
    pub enum LeftoverDeposits { ToTop = "to_top", Vanish = "vanish" }
}

option_enum! {
    /// Rounding of the final score (in thousands).
    pub enum FinalRounding { None = "none", Nearest1000 = "nearest_1000" }
}

option_enum! {
    /// Ties in the final ranking: by seat order from the first dealer, or shared uma and oka.
    pub enum TieBreak { SeatOrder = "seat_order", Split = "split" }
}

option_enum! {
    /// Placement bonus (§13.5): rank(uma_2nd, uma_1st); sinking (沈みウマ, the JPML table by how
    /// many players finish at or above return_points); sashi (差しウマ: of lineup players 1 and 2
    /// the lower-ranked pays the other `side_bet`); binta (配給原点ビンタ: every player pays every
    /// higher-ranked one `side_bet`, twice that from below starting_points to at or above it); none.
    pub enum Uma { Rank = "rank", Sinking = "sinking", Sashi = "sashi", Binta = "binta", None = "none" }
}

option_enum! {
    /// Nagashi mangan (§12.2 step 1).
    pub enum Nagashi { Off = "off", AsDrawBonus = "as_draw_bonus", AsWin = "as_win" }
}

option_enum! {
    /// A yakuman with liability payments (§11.8).
    pub enum Pao { Daisangen = "daisangen", Daisuushii = "daisuushii", Suukantsu = "suukantsu" }
}

option_enum! {
    /// When a kan of an open kind reveals its indicator (§3.6).
    pub enum KanDoraTiming { Classic = "classic", Immediate = "immediate" }
}

option_enum! {
    /// Restriction on the discard right after a call (§6.4).
    pub enum Kuikae { Forbidden = "forbidden", SameTileOnly = "same_tile_only", Allowed = "allowed" }
}

option_enum! {
    /// Ankan while in riichi (§8.4).
    pub enum RiichiAnkan { Forbidden = "forbidden", WaitUnchanged = "wait_unchanged", Strict = "strict" }
}

option_enum! {
    /// Penalty of a chombo (§12.4).
    pub enum ChomboPayment {
        Mangan = "mangan",
        ThreeThousandAll = "3000_all",
        PointsDeduction = "points_deduction",
        HandForfeit = "hand_forfeit",
    }
}

option_enum! {
    /// Riichi while furiten (§7.5, §15.4).
    pub enum FuritenRiichi { Allowed = "allowed", Chombo = "chombo" }
}

option_enum! {
    /// Dead waits at an exhaustive draw (§12.2 step 2).
    pub enum Karaten { OwnFourIsNoten = "own_four_is_noten", AlwaysTenpai = "always_tenpai", AnyDeadWaitIsNoten = "any_dead_wait_is_noten" }
}

option_enum! {
    /// The North tile with three players (§14 B): extracted as a bonus tile (nukidora), a wind
    /// that is no one's value tile (guest_wind), or a value wind for everyone (shared_wind: a
    /// North set is 1 han for each player, a North pair 2 fu and no pinfu).
    pub enum SanmaNorth { Nukidora = "nukidora", GuestWind = "guest_wind", SharedWind = "shared_wind" }
}

option_enum! {
    /// Payment of a tsumo with three players (§14 E).
    pub enum SanmaTsumo { TsumoSon = "tsumo_son", SentenKafu = "senten_kafu", Seppan = "seppan", Marudori = "marudori" }
}

option_enum! {
    /// The honba bonus of a tsumo with three players: by the payment method (a third of
    /// `honba_value` from each payer, as with four players less the absent North's share; half
    /// under seppan and marudori, whose tsumo pays the full value), or half from each payer
    /// always (Tenhou: 200 per honba, 100 from each payer).
    pub enum SanmaTsumoHonba { ByMethod = "by_method", Half = "half" }
}

option_enum! {
    /// The dead wall with three players and nukidora: `separate_18` (the source's: 18 tiles, 8
    /// replacement tiles, 4 of them for the Norths) or `replenished_14` (Tenhou's: 14 tiles, 4
    /// replacement tiles, kept at 14 by taking the last live tile in after each replacement
    /// draw; the fifth to eighth replacement tiles are those taken in).
    pub enum SanmaDeadWall { Separate18 = "separate_18", Replenished14 = "replenished_14" }
}

options! {
    /// Rules of Riichi mahjong: scoring, calls, draws, game flow and settlement.
    pub struct Rules {
        /// Minimum han from yaku (dora excluded) to win (一翻縛り).
        min_han: u8 = 1, range(1, 13);
        /// 二翻縛り: from `ryanhan_shibari_from` honba on, at least 2 han from yaku.
        ryanhan_shibari: bool = false;
        /// Honba from which `ryanhan_shibari` applies.
        ryanhan_shibari_from: u8 = 5, range(1, 100);
        /// Tanyao counts in an open hand (喰いタン).
        kuitan: bool = true;
        /// 後付け: a hand may win when its only yaku comes from the winning tile or the way of
        /// winning, and on the tiles of a multi-sided wait that give a yaku (片アガリ). When false,
        /// every tile of the wait must give a yaku other than haitei, houtei, rinshan and chankan.
        atozuke: bool = true;
        /// 完全先付け (ナシナシ): as `atozuke = false`, and the first call must be part of a yaku.
        kansaki: bool = false;
        /// The ippatsu yaku exists.
        ippatsu: bool = true;
        /// The double riichi yaku exists (otherwise a first-turn riichi is a plain riichi).
        double_riichi: bool = true;
        /// Value of renhou (人和).
        renhou: Renhou = Renhou::Off;
        /// Kokushi on the 13-sided wait is a double yakuman.
        double_kokushi13: bool = true;
        /// Suuankou on a pair wait is a double yakuman.
        double_suuankou_tanki: bool = false;
        /// Daisuushii is a double yakuman.
        double_daisuushii: bool = false;
        /// Junsei chuuren (9-sided wait) is a double yakuman.
        double_junsei_chuuren: bool = false;
        /// Several yakuman in one hand add up (otherwise the hand is one yakuman, or the largest
        /// double).
        yakuman_stacking: bool = true;
        /// Yakuman count as a plain 13 han each and combine with other yaku and dora.
        yakuman_as_13_han: bool = false;
        /// 13+ han of regular yaku and dora pay as one yakuman (数え役満); otherwise sanbaiman.
        kazoe_yakuman: bool = true;
        /// 4 han 30 fu and 3 han 60 fu pay as mangan (切り上げ満貫).
        kiriage_mangan: bool = false;
        /// Ryuuiisou needs 發.
        ryuuiisou_requires_hatsu: bool = false;
        /// Seven honor pairs count as tsuuiisou.
        tsuuiisou_chiitoitsu: bool = true;
        /// Four of a kind counts as two pairs of seven pairs.
        chiitoitsu_same_pairs: bool = false;
        /// Local yaku (spec §9.8, definitions in docs/riichi-scoring.md): daisharin (大車輪, yakuman:
        /// closed 22334455667788p), kaga_hyakumangoku (加賀百万石, yakuman: characters and honors
        /// only, the characters' numbers summing to ≥ 100), open_riichi (オープンリーチ: a riichi
        /// with the hand shown, one more han; a player not in riichi who deals into it pays a
        /// yakuman; strategy knob `open_riichi`), shiro_pocchi (白ポッチ: the marked 白, tile id
        /// 124, drawn by a player in riichi may complete the hand by tsumo as any tile).
        local_yaku: Set<LocalYaku> = Set::EMPTY;
        /// Number of red fives in the set (0, 3 or 4 = 3 plus a second 0p); with 0, red fives in a
        /// hand count as plain fives.
        aka_dora: u8 = 3, range(0, 4);
        /// Riichi winners count ura indicators.
        ura_dora: bool = true;
        /// Bonus per honba: a ron pays it all, a tsumo a third from each payer.
        honba_value: u32 = 300, range(0, 100000);
        /// Value of a riichi stick on the table.
        riichi_deposit: u32 = 1000, range(0, 100000);
        /// Fu of a pair of the wind that is both seat and round wind (2 or 4).
        double_wind_pair_fu: u8 = 4, range(2, 4);
        /// A rinshan win gets the +2 tsumo fu.
        rinshan_tsumo_fu: bool = true;
        /// Whether a tsumo can have pinfu.
        pinfu_tsumo: PinfuTsumo = PinfuTsumo::Allowed;
        /// Fu and han of seven pairs.
        chiitoitsu_fu: ChiitoitsuFu = ChiitoitsuFu::Fu25;
        /// Fu of an open hand with no fu beyond the base 20 (喰い平和形): 20 or 30.
        open_no_fu_min: u8 = 30, range(20, 30);
        /// Scheduled rounds: ikkyoku (East 1 only), tonpuu (East), hanchan (East, South), iichan.
        game_length: GameLength = GameLength::Hanchan;
        /// Starting points of each player.
        starting_points: u32 = 25000, range(0, 1000000);
        /// Baseline of final scores, oka and the extension target.
        return_points: u32 = 30000, range(0, 1000000);
        /// First place gets (return_points − starting_points) × 4 (オカ).
        oka: bool = true;
        /// Kind of placement bonus; `uma_1st`/`uma_2nd` are the values of `rank`.
        uma: Uma = Uma::Rank;
        /// Uma (thousands) for 1st (+) and 4th (−): rank(uma_2nd, uma_1st); 0/0 = no uma.
        uma_1st: u32 = 20, range(0, 1000);
        /// Uma (thousands) for 2nd (+) and 3rd (−).
        uma_2nd: u32 = 10, range(0, 1000);
        /// Stake (thousands) of one side bet under uma = sashi or binta (the source gives no amount).
        side_bet: u32 = 5, range(0, 1000);
        /// Ties in the final ranking.
        tie_break: TieBreak = TieBreak::SeatOrder;
        /// When running out of points ends the game.
        tobi: Tobi = Tobi::BelowZero;
        /// Extension rounds (西入) when nobody reaches return_points after all-last.
        extension: Extension = Extension::SuddenDeath;
        /// How many extension rounds at most.
        extension_max: ExtensionMax = ExtensionMax::OneRound;
        /// The all-last dealer who wins ends the game (auto_if_top: when in sole first place).
        agari_yame: Yame = Yame::AutoIfTop;
        /// The all-last dealer who is tenpai at an exhaustive draw ends the game.
        tenpai_yame: Yame = Yame::AutoIfTop;
        /// Dealer rotation at an exhaustive draw (always_pass = ノーテン親流れ of every draw).
        renchan_on_draw: RenchanOnDraw = RenchanOnDraw::Tenpai;
        /// The dealer keeps the deal after an abortive draw.
        abortive_draw_renchan: bool = true;
        /// Deposits on the table at the end of the game.
        leftover_deposits: LeftoverDeposits = LeftoverDeposits::ToTop;
        /// Total noten payment at an exhaustive draw.
        noten_bappu_total: u32 = 3000, range(0, 100000);
        /// Rounding of final scores.
        final_rounding: FinalRounding = FinalRounding::None;
        /// 割れ目: the player whose wall the dealer's dice break (seat dealer + sum − 1) has every
        /// hand payment to or from them doubled (honba, noten payments and deposits are not).
        wareme: bool = false;
        /// Penalty a player who never won pays, shared by the players who won (0 = off).
        yakitori: u32 = 0, range(0, 1000000);
        /// Nagashi mangan.
        nagashi_mangan: Nagashi = Nagashi::AsDrawBonus;
        /// Yakuman with liability payments (包): the player who fed the completing call pays.
        pao: Set<Pao> = Set::EMPTY.with(Pao::Daisangen).with(Pao::Daisuushii).with(Pao::Suukantsu);
        /// A kokushi hand may rob an ankan.
        kokushi_rob_ankan: bool = true;
        /// Each kan reveals a kan-dora indicator.
        kan_dora: bool = true;
        /// Kan-dora indicators have ura indicators.
        kan_ura: bool = true;
        /// When an open kan reveals its indicator.
        kan_dora_timing: KanDoraTiming = KanDoraTiming::Classic;
        /// Restriction on the discard after a call.
        kuikae: Kuikae = Kuikae::Forbidden;
        /// Kakan may use a matching tile already in hand, not only the drawn one.
        kakan_from_hand: bool = true;
        /// Several players ron the same tile.
        multi_ron: MultiRon = MultiRon::DoubleOkTripleAbort;
        /// Who gets the honba bonus in a multiple ron.
        multi_ron_honba: MultiRonHonba = MultiRonHonba::NearestOnly;
        /// Points needed to declare riichi.
        riichi_min_points: u32 = 1000, range(0, 1000000);
        /// Live tiles needed to declare riichi.
        riichi_min_tiles: u8 = 4, range(1, 70);
        /// Ankan while in riichi.
        riichi_ankan: RiichiAnkan = RiichiAnkan::WaitUnchanged;
        /// Abortive draw: four riichi.
        abort_suucha_riichi: bool = true;
        /// Abortive draw: four same winds in the first go-around.
        abort_suufon_renda: bool = true;
        /// Abortive draw: nine terminal/honor kinds on the first turn (a strategy decision).
        abort_kyuushu: bool = true;
        /// Abortive draw: four kans by two or more players.
        abort_suukaikan: bool = true;
        /// Dead waits at an exhaustive draw.
        karaten: Karaten = Karaten::OwnFourIsNoten;
        /// Output, not a house rule: log every event (draws, discards, calls, wins, dora) of the
        /// games whose index is a multiple of this into the `events` table (0 = off).
        event_log_every: u32 = 0, range(0, 1000000000);
        /// 形式聴牌: a ready hand without a yaku counts as tenpai at an exhaustive draw. When false,
        /// an open hand needs a wait that wins by ron without chance yaku (a closed hand always has
        /// menzen tsumo).
        keishiki_tenpai: bool = true;
        /// A rinshan tsumo right after a daiminkan is paid entirely by the player whose discard was
        /// called, as a ron.
        pao_daiminkan_rinshan: bool = false;
        /// Penalty of a chombo (§12.4). mangan: a non-dealer offender pays 4000 to the dealer and
        /// 2000 to each other player, a dealer 4000 to each; 3000_all: 3000 to each; both then void
        /// the hand. points_deduction: the hand is void and `chombo_deduction` comes off the
        /// offender's final score. After these three the hand is replayed with the same dealer and
        /// honba on a new wall, and its riichi sticks go back to their players (A42). hand_forfeit
        /// (アガリ放棄): the hand goes on, the offender may no longer call, kan or win and is noten
        /// at an exhaustive draw. A foul exists only through furiten_riichi = chombo and
        /// kara_riichi_chombo, and is found when the offender's hand is shown: at their tsumo, or
        /// at the tenpai check of an exhaustive draw.
        chombo_payment: ChomboPayment = ChomboPayment::Mangan;
        /// Points (on the final-points scale; 20000 = 20.0 of score) deducted from the offender's
        /// final score per chombo under chombo_payment = points_deduction; the table points and the
        /// ranking are unchanged.
        chombo_deduction: u32 = 20000, range(0, 1000000);
        /// Riichi while furiten (a wait among the own discards once the declaration tile passes):
        /// allowed, or a chombo when the hand is shown.
        furiten_riichi: FuritenRiichi = FuritenRiichi::Allowed;
        /// 空リーチ: a riichi whose every wait is used up from the player's own view when the
        /// declaration tile passes (own hand, rivers, melds, dora indicators) is a chombo when the
        /// hand is shown (at the exhaustive draw). Never fires with the local yaku shiro_pocchi,
        /// whose marked 白 completes any riichi hand. The chombo options are accepted without a
        /// foul rule (and then have no effect) so that a grid can switch the foul alone.
        kara_riichi_chombo: bool = false;
        /// At an exhaustive draw a tenpai player not in riichi may claim noten (a strategy choice,
        /// knob `noten_declaration`; the dealer answers first); otherwise tenpai is automatic.
        allow_noten_declaration: bool = false;
        /// 4 = yonma; 3 = sanma (三麻, §14): 108 tiles without 2m–8m, three seats and three hands
        /// per wind round, no chi, 1m indicator → 9m dora, no four-wind or four-riichi abort. With
        /// 3, `starting_points`, `return_points`, `uma_1st` and `uma_2nd` default to 35000, 40000,
        /// 15 and 0 unless the preset or the config sets them.
        players: u8 = 4, range(3, 4);
        /// Flowers (花牌) in the set: 0, 4 or 8 unique bonus tiles, extracted on the own turn for
        /// +1 dora and a replacement draw (§1.4); the dead wall grows by as many tiles.
        flowers: u8 = 0, range(0, 8);
        /// Han of the yaku for winning with every flower of the set extracted by oneself (0 = off).
        flower_all_yaku_han: u8 = 0, range(0, 13);
        /// With players = 3: what North is (nukidora: extracted for +1 dora; dead wall 18).
        sanma_north: SanmaNorth = SanmaNorth::Nukidora;
        /// With players = 3: how a tsumo is paid.
        sanma_tsumo: SanmaTsumo = SanmaTsumo::TsumoSon;
        /// With players = 3: total noten payment at an exhaustive draw.
        sanma_noten_total: u32 = 2000, range(0, 100000);
        /// With players = 3 and nukidora: a North being extracted may be ronned (like chankan).
        sanma_north_ron: bool = false;
        /// With players = 3: the honba bonus of a tsumo (by_method or half from each payer).
        sanma_tsumo_honba: SanmaTsumoHonba = SanmaTsumoHonba::ByMethod;
        /// With players = 3 and nukidora: the dead wall (separate_18 or Tenhou's replenished_14).
        sanma_dead_wall: SanmaDeadWall = SanmaDeadWall::Separate18;
    }
}

impl Rules {
    /// Seats at the table (3 or 4).
    pub fn seats(&self) -> usize {
        usize::from(self.players)
    }

    /// Three players with North as nukidora.
    pub fn north_nuki(&self) -> bool {
        self.players == 3 && self.sanma_north == SanmaNorth::Nukidora
    }

    /// Three players with North a value wind for everyone (`shared_wind`).
    pub fn north_value(&self) -> bool {
        self.players == 3 && self.sanma_north == SanmaNorth::SharedWind
    }

    /// Tiles in the set: 136 (108 with three players) plus the flowers.
    pub fn tile_count(&self) -> usize {
        (if self.players == 3 { 108 } else { 136 }) + usize::from(self.flowers)
    }

    /// Replacement tiles at the front of the dead wall: 4 for kans, plus one per flower, plus four
    /// for the sanma Norths (§3.3, §14) unless the dead wall is replenished from the live wall.
    pub fn replacement_tiles(&self) -> usize {
        4 + usize::from(self.flowers) + if self.north_nuki() && self.sanma_dead_wall == SanmaDeadWall::Separate18 { 4 } else { 0 }
    }

    /// Tiles can be set aside (flowers, or the sanma North as nukidora).
    pub fn nuki(&self) -> bool {
        self.flowers > 0 || self.north_nuki()
    }

    /// Whether tile id `id` is a red five: ids 16, 52, 88 (and 53 with four red fives).
    pub fn is_red(&self, id: u8) -> bool {
        match self.aka_dora {
            0 => false,
            3 => matches!(id, 16 | 52 | 88),
            _ => matches!(id, 16 | 52 | 53 | 88),
        }
    }
}

/// Defaults that follow `players = 3` (§14, A37) where neither the preset nor the overrides set
/// them: 35000 start, 40000 return, 3-place uma +15 / 0 / −15.
const SANMA_DEFAULTS: [(&str, u32); 4] = [("starting_points", 35000), ("return_points", 40000), ("uma_1st", 15), ("uma_2nd", 0)];

impl Validate for Rules {
    fn validate(&self) -> Result<(), OptionError> {
        if !matches!(self.aka_dora, 0 | 3 | 4) {
            return Err(OptionError::new("aka_dora", format!("expected 0, 3 or 4, got {}", self.aka_dora)));
        }
        if !matches!(self.double_wind_pair_fu, 2 | 4) {
            return Err(OptionError::new("double_wind_pair_fu", format!("expected 2 or 4, got {}", self.double_wind_pair_fu)));
        }
        if !matches!(self.open_no_fu_min, 20 | 30) {
            return Err(OptionError::new("open_no_fu_min", format!("expected 20 or 30, got {}", self.open_no_fu_min)));
        }
        if self.return_points < self.starting_points && self.oka {
            return Err(OptionError::new(
                "oka+return_points",
                format!("oka needs return_points ≥ starting_points ({} < {})", self.return_points, self.starting_points),
            ));
        }
        if self.riichi_min_points < self.riichi_deposit && self.riichi_min_points > 0 {
            return Err(OptionError::new(
                "riichi_min_points+riichi_deposit",
                "riichi_min_points must be at least riichi_deposit (a player cannot post more than they hold)",
            ));
        }
        if !matches!(self.players, 3 | 4) {
            return Err(OptionError::new("players", format!("expected 3 or 4, got {}", self.players)));
        }
        if self.uma == Uma::Sinking && self.players != 4 {
            return Err(OptionError::new("uma+players", "uma = \"sinking\" uses the JPML table, which is for 4 players"));
        }
        if !matches!(self.flowers, 0 | 4 | 8) {
            return Err(OptionError::new("flowers", format!("expected 0, 4 or 8, got {}", self.flowers)));
        }
        if self.north_nuki() && self.sanma_dead_wall == SanmaDeadWall::Replenished14 && self.flowers > 0 {
            return Err(OptionError::new(
                "sanma_dead_wall+flowers",
                "sanma_dead_wall = \"replenished_14\" is Tenhou's dead wall, which has no flowers; use separate_18 with flowers",
            ));
        }
        if self.kansaki && self.atozuke {
            return Err(OptionError::new("kansaki+atozuke", "kansaki (完全先付け) excludes atozuke; set atozuke = false"));
        }
        Ok(())
    }
}

/// Tenhou's rules beyond the defaults, shared by its four- and three-player presets.
fn tenhou() -> serde_json::Value {
    json!({"double_kokushi13": false, "kokushi_rob_ankan": false, "pao": ["daisangen", "daisuushii"], "tenpai_yame": "off"})
}

/// The named rule sets of spec §15.7 that touch scoring.
pub fn presets() -> Vec<Preset> {
    vec![
        Preset { name: "source_default", doc: "The spec's defaults (§15).", overrides: json!({}) },
        Preset {
            name: "tenhou",
            doc: "Tenhou: red fives, kuitan, no double yakuman for a single hand, stacking on; agari-yame but no \
                  tenpai-yame (a Tenhou game plays on after an all-last draw with the tenpai dealer on top).",
            overrides: tenhou(),
        },
        Preset {
            name: "tenhou_sanma",
            doc: "Tenhou's three-player game: the tenhou preset with players = 3, North nukidora (a North may be \
                  ronned as it is set aside), tsumo-son, honba 200 (100 from each tsumo payer), the 14-tile \
                  replenished dead wall, 35000 start / 40000 return, uma +20/0/−20.",
            overrides: {
                let mut o = tenhou();
                o.as_object_mut().expect("an object").extend(
                    json!({"players": 3, "sanma_north_ron": true, "honba_value": 200, "sanma_tsumo_honba": "half",
                           "sanma_dead_wall": "replenished_14", "uma_1st": 20, "uma_2nd": 0})
                    .as_object()
                    .expect("an object")
                    .clone(),
                );
                o
            },
        },
        Preset { name: "ari_ari", doc: "Kuitan on, atozuke on (= the defaults).", overrides: json!({}) },
        Preset { name: "nashi_ari", doc: "No open tanyao.", overrides: json!({"kuitan": false}) },
        Preset {
            name: "nashi_nashi",
            doc: "完先: no kuitan, no atozuke, first call part of a yaku, 2 han minimum, furiten riichi is a chombo, \
                  no red fives, no wareme.",
            overrides: json!({"kuitan": false, "atozuke": false, "kansaki": true, "min_han": 2, "furiten_riichi": "chombo",
                              "aka_dora": 0, "wareme": false}),
        },
        Preset {
            name: "inflation",
            doc: "Four red fives, wareme, yakitori 10000 and kiriage mangan.",
            overrides: json!({"aka_dora": 4, "kiriage_mangan": true, "yakitori": 10000, "wareme": true}),
        },
        Preset {
            name: "mleague_like",
            doc: "M-League's stated parts: uma 10-30 and shared uma on ties.",
            overrides: json!({"uma_1st": 30, "uma_2nd": 10, "tie_break": "split"}),
        },
        Preset {
            name: "sanma",
            doc: "Three players (§14): North nukidora, tsumo-son, 35000 start / 40000 return, uma +15/0/−15.",
            overrides: json!({"players": 3}),
        },
        Preset {
            name: "ema",
            doc: "EMA-style: no red fives, kiriage mangan, no kazoe yakuman, no double or stacked yakuman, \
                  2 fu for a double-wind pair.",
            overrides: json!({"aka_dora": 0, "kiriage_mangan": true, "kazoe_yakuman": false,
                              "double_kokushi13": false, "yakuman_stacking": false, "double_wind_pair_fu": 2}),
        },
    ]
}

/// The rules of `preset` (or `default`) with JSON overrides, validated; with `players = 3`, the
/// sanma defaults fill the options that neither the preset nor the overrides set.
pub fn resolve(preset: &str, overrides: &serde_json::Value) -> Result<Rules, OptionError> {
    let all = presets();
    let preset_over = all.iter().find(|p| p.name == preset).map(|p| &p.overrides);
    let given = |key: &str| overrides.get(key).or_else(|| preset_over.and_then(|o| o.get(key)));
    if given("players").and_then(|v| v.as_u64()) == Some(3) {
        if let Some(obj) = overrides.as_object() {
            let mut filled = obj.clone();
            for (key, value) in SANMA_DEFAULTS {
                if given(key).is_none() {
                    filled.insert(key.to_owned(), json!(value));
                }
            }
            return resolve_preset(&all, preset, &serde_json::Value::Object(filled));
        }
    }
    resolve_preset(&all, preset, overrides)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_resolve_and_bad_keys_name_the_key() {
        for p in presets() {
            resolve(p.name, &json!({})).unwrap();
        }
        assert!(!resolve("tenhou", &json!({})).unwrap().double_kokushi13);
        assert!(!resolve("nashi_nashi", &json!({})).unwrap().kuitan);
        assert_eq!(resolve("default", &json!({"kuitan": 1})).unwrap_err().field, "kuitan");
        assert_eq!(resolve("default", &json!({"kuitann": false})).unwrap_err().field, "kuitann");
        assert_eq!(resolve("default", &json!({"aka_dora": 2})).unwrap_err().field, "aka_dora");
        assert_eq!(resolve("tenho", &json!({})).unwrap_err().field, "preset");
        assert_eq!(resolve("default", &json!({"kansaki": true})).unwrap_err().field, "kansaki+atozuke");
        assert_eq!(resolve("nashi_nashi", &json!({})).unwrap().furiten_riichi, FuritenRiichi::Chombo);
        let pao = |preset: &str, o: serde_json::Value| resolve(preset, &o).unwrap().pao;
        assert!([Pao::Daisangen, Pao::Daisuushii, Pao::Suukantsu].iter().all(|&y| pao("default", json!({})).contains(y)));
        assert!(!pao("tenhou", json!({})).contains(Pao::Suukantsu) && pao("tenhou", json!({})).contains(Pao::Daisuushii));
        assert!(pao("default", json!({"pao": []})).is_empty());
        assert_eq!(pao("default", json!({"pao": ["suukantsu"]})), Set::EMPTY.with(Pao::Suukantsu));
        assert_eq!(resolve("default", &json!({"pao": "all"})).unwrap_err().field, "pao");
        let e = resolve("default", &json!({"local_yaku": ["daisharin", "sanrenkou"]})).unwrap_err();
        assert_eq!(e.field, "local_yaku");
        assert!(e.message.starts_with("unknown member \"sanrenkou\""), "{}", e.message);
    }
}
