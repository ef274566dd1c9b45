//! House rules of Hong Kong mahjong (spec §11, the ambiguities of §14) and the settlement options
//! of the reference records (`tests/data/hongkong/settlement/`). Defaults are the spec's
//! recommended defaults; the preset `old_style` is the common Hong Kong table that
//! `faan-old-style.jsonl` follows.

use crate::game::{Preset, Ties};
use crate::options::{OptionError, Validate};
use crate::{option_enum, options};
use serde_json::json;

option_enum! {
    /// What the kong item (F1) is worth: one fan per kong, one fan for any number, or nothing.
    pub enum KongFan { PerKong = "per_kong", Once = "once", Zero = "zero" }
}

option_enum! {
    /// A complete set of four flowers (or seasons) scores its fan in place of its own-seat tile
    /// (`replace`, the subset principle, A9) or on top of it (`add`).
    pub enum FlowerSetMode { Replace = "replace", Add = "add" }
}

option_enum! {
    /// F6 on the self-draw of the last live-wall tile only (`draw_only`) or also on the discard
    /// that follows it. Never on a replacement from the dead wall, even one that empties the live
    /// wall, nor on a discard made after a claim on the last discard (§8.1 F6).
    pub enum LastTileScope { DrawAndDiscard = "draw_and_discard", DrawOnly = "draw_only" }
}

option_enum! {
    /// F7 on any replacement draw (after a kong or a bonus tile) or after a kong only (A28).
    pub enum ReplacementScope { Any = "any", KongOnly = "kong_only" }
}

option_enum! {
    /// How full flush and seven pairs combine with other fan (§8.3): additive fan, or the
    /// larger of the special's own value and the rest's.
    pub enum SpecialCombine { Fan = "fan", Max = "max" }
}

option_enum! {
    /// Fan → multiplier: the seed's fan-laak bands (1, 2, 4, 8, 16×3, 32×3, 64),
    /// half-spicy (半辣上: 1, 2, 4, 8, 16, 24, 32, 48, ...) or spicy (辣辣上: 2^fan).
    pub enum BaseTable { FanLaak = "fan_laak", HalfSpicy = "half_spicy", Spicy = "spicy" }
}

option_enum! {
    /// Who pays a discard win: half responsibility (半銃: the discarder one portion, the two
    /// others half a portion each; the seed's table) or full (全銃: the discarder two portions).
    pub enum Responsibility { Half = "half", Full = "full" }
}

option_enum! {
    /// When 包 liability applies: never, or when a player's discard was claimed for the winner's
    /// third exposed set of dragons, third (or fourth) exposed set of winds, or fourth exposed set
    /// of one suit, and the hand won is the one that set made possible (big three dragons,
    /// four winds, full flush).
    pub enum Bao { Off = "off", ThirdSet = "third_set" }
}

option_enum! {
    /// What a false win (詐糊) costs: nothing beyond the void hand (the seed, A20), or the offender
    /// pays every other player a self-drawn win at the maximum fan (the reference records).
    pub enum FalseWinPenalty { None = "none", LimitEach = "limit_each" }
}

option_enum! {
    /// Several wins on one discard: only the first in turn order from the discarder (the
    /// source, A23), or all of them.
    pub enum MultiWin { HeadBump = "head_bump", All = "all" }
}

option_enum! {
    /// 地和: a non-dealer's win on the dealer's first discard (`hk`), or a non-dealer's
    /// self-draw on its first draw (a bonus tile's replacement included, a kong's not) with no
    /// claim before (`riichi`).
    pub enum EarthlyHand { Hk = "hk", Riichi = "riichi" }
}

option_enum! {
    /// How chance is keyed (see `state::HandKeys`): `named`, the recipe of every game (seed / ASCII
    /// tag / deal / hand), or `numeric`, Hong Kong's recipe before it (seed / deal / hand / tags
    /// 1-4), which plays the walls, dice and random choices of runs made before the change.
    pub enum ChanceRecipe { Named = "named", Numeric = "numeric" }
}

options! {
    /// Hong Kong mahjong house rules.
    pub struct Rules {
        /// 144 tiles with flowers and seasons, or 136 without.
        tile_set: u16 = 144, range(136, 144);
        /// Minimum fan of a legal win, bonus-tile fan excluded (limit hands always qualify).
        min_fan: u8 = 0, range(0, 13);
        /// 對對糊 all pungs (F3): mahjongtime 3, Mahjong Club 2.
        all_pungs_fan: u8 = 3, range(0, 13);
        /// 平糊 all chows (F2).
        all_chows_fan: u8 = 1, range(0, 13);
        /// The kong item (F1, A5).
        kong_fan: KongFan = KongFan::PerKong;
        /// +1 for a pung of the round wind, besides the seat wind (A7).
        round_wind_pung: bool = true;
        /// 小三元 small three dragons: its fan.
        small_dragons_fan: u8 = 4, range(0, 13);
        /// 小三元 counts in total, replacing the two dragon pungs' fan (A8); off: added to them.
        small_dragons_total: bool = true;
        /// A complete set of four flowers or four seasons (F15).
        flower_set_fan: u8 = 2, range(0, 13);
        /// How a complete set combines with its own-seat tile (A9).
        flower_set_mode: FlowerSetMode = FlowerSetMode::Replace;
        /// F13 (no bonus tile) also in a 136-tile game, where every hand would get it (A10).
        no_flower_bonus_136: bool = false;
        /// F6 scope (A27).
        last_tile_scope: LastTileScope = LastTileScope::DrawAndDiscard;
        /// F7 scope (A28).
        replacement_scope: ReplacementScope = ReplacementScope::Any;
        /// How the 16-point hands combine with other fan (A11).
        special_combine: SpecialCombine = SpecialCombine::Fan;
        /// 清一色 full flush (F17): mahjongtime 6, Mahjong Club 4, old style 7.
        full_flush_fan: u8 = 6, range(0, 13);
        /// 混一色 half flush (F19): absent from the seed (0); mahjongtime 3, Mahjong Club 2.
        half_flush_fan: u8 = 0, range(0, 13);
        /// 七對子 seven pairs (F18); 0: seven pairs is not a winning hand.
        seven_pairs_fan: u8 = 4, range(0, 13);
        /// Four identical tiles count as two pairs of seven pairs (A12).
        seven_pairs_allow_four: bool = false;
        /// 混么九 mixed terminals: pungs of terminals and honours only (not in the seed: 0).
        mixed_terminals_fan: u8 = 0, range(0, 13);
        /// 門前清 concealed hand (no claimed set; not in the seed: 0).
        concealed_fan: u8 = 0, range(0, 13);
        /// 十三不靠 / 十四不靠 / 全不靠, the unrelated hands (§8.4).
        unrelated_hands: bool = true;
        /// Jade, Ruby and Pearl dragons (§8.3 #12-#14).
        jade_ruby_pearl: bool = true;
        /// 地和 definition (A16).
        earthly_hand_def: EarthlyHand = EarthlyHand::Hk;
        /// 槓上槓自摸: a self-draw on the replacement of a kong made on a kong's replacement is a
        /// limit hand (old style); off: scored as a replacement win.
        kong_on_kong_limit: bool = false;
        /// 八仙過海: holding all eight bonus tiles wins at once at the limit (the variant, A25): a
        /// win on one's own draw, never on another player's tile.
        all_flowers_instant_win: bool = false;
        /// 花糊: holding seven bonus tiles wins at once, on one's own draw, with this fan (0: not a
        /// win).
        seven_flowers_fan: u8 = 0, range(0, 13);
        /// Fan → multiplier table.
        base_table: BaseTable = BaseTable::FanLaak;
        /// Maximum fan (M): more counts as this, and a limit hand is worth the table at it
        /// (fan-laak at 10 = 64 points, the seed's limit).
        max_fan: u8 = 10, range(1, 20);
        /// Points of one multiplier unit (B). A portion is base_points × multiplier: a self-draw
        /// costs each other player a portion. The seed's table is base_points 2 with half
        /// responsibility (discarder 2b, others b, self-draw 2b each).
        base_points: f64 = 2.0, range(0, 1000000);
        /// Share of a discard win (§8.2).
        responsibility: Responsibility = Responsibility::Half;
        /// The discarder also pays the other two's shares (Wikipedia's high-risk rule).
        discarder_pays_all: bool = false;
        /// The dealer pays and collects double (A29).
        dealer_double: bool = false;
        /// 包 liability: the guarantor pays a discard win's two portions, or a self-draw's three,
        /// alone. Off by default: the seed's table (§8.2) has no 包, only the shares of §8.2;
        /// `old_style` (the common table of the settlement records) turns it on.
        bao: Bao = Bao::Off;
        /// 詐糊 false-win penalty (A20).
        false_win_penalty: FalseWinPenalty = FalseWinPenalty::None;
        /// Several wins on one discard (A23).
        multi_win: MultiWin = MultiWin::HeadBump;
        /// Mistake injection: probability that a player, after a draw that does not win,
        /// declares a (false) win anyway.
        mistake_rate: f64 = 0.0, range(0, 1);
        /// Points every player starts with (§7: unbounded scores from 0 by default, A21).
        starting_points: i64 = 0, range(0, 1000000);
        /// The game ends as soon as a player's points fall below zero (A21's option; needs
        /// starting_points above 0).
        bust_ends_game: bool = false;
        /// How equal final points rank (the spec has no placement: §7). `shared`: tied players
        /// share the rank, and a tie for first shares the game's win; `seat_order`: the lower
        /// seat ranks first.
        ties: Ties = Ties::Shared;
        /// Hands after which a game is cut (the dealer keeps the deal on draws, so a game has no
        /// fixed length; not in the spec). A cut game is logged `truncated`.
        max_hands: u16 = 256, range(16, 10000);
        /// How walls, dice, random strategy choices and mistakes are keyed: `named` (seed, ASCII
        /// tag, deal, hand, as in every game) or `numeric` (seed, deal, hand, tag 1-4: the recipe of
        /// earlier releases, to replay their runs). Not a rule of the game: the two deal other walls
        /// from the same distribution.
        #[chance = true]
        chance_recipe: ChanceRecipe = ChanceRecipe::Named;
    }
}

impl Validate for Rules {
    fn validate(&self) -> Result<(), OptionError> {
        if self.tile_set != 136 && self.tile_set != 144 {
            return Err(OptionError::new("tile_set", format!("expected 144 or 136, got {}", self.tile_set)));
        }
        if self.no_flower_bonus_136 && self.has_bonus_tiles() {
            return Err(OptionError::new(
                "no_flower_bonus_136",
                "applies to the 136-tile set only; expected tile_set = 136 or no_flower_bonus_136 = false",
            ));
        }
        if !self.has_bonus_tiles() && (self.all_flowers_instant_win || self.seven_flowers_fan > 0) {
            return Err(OptionError::new(
                "tile_set",
                "136 tiles have no bonus tiles, so all_flowers_instant_win and seven_flowers_fan cannot apply; expected tile_set = 144",
            ));
        }
        // The game logs whole points: the smallest share (half a portion under half
        // responsibility, a portion otherwise; multipliers are whole) must be whole.
        let share = match self.responsibility {
            Responsibility::Half => self.base_points / 2.0,
            Responsibility::Full => self.base_points,
        };
        if share.fract() != 0.0 {
            return Err(OptionError::new(
                "base_points",
                format!(
                    "{} makes payments of fractions of a point; expected a whole number (even under responsibility = \"half\")",
                    self.base_points
                ),
            ));
        }
        if self.bust_ends_game && self.starting_points == 0 {
            return Err(OptionError::new(
                "bust_ends_game",
                "with starting_points = 0 the first payment ends the game; expected starting_points > 0 or bust_ends_game = false",
            ));
        }
        if self.min_fan > self.max_fan {
            return Err(OptionError::new(
                "min_fan",
                format!("a minimum of {} fan is above max_fan = {}; expected min_fan <= max_fan", self.min_fan, self.max_fan),
            ));
        }
        Ok(())
    }
}

impl Rules {
    /// Whether the set has the 8 flowers and seasons (144 tiles).
    pub fn has_bonus_tiles(&self) -> bool {
        self.tile_set == 144
    }
}

pub fn presets() -> Vec<Preset> {
    vec![Preset {
        name: "old_style",
        doc: "The common Hong Kong (old style) table of faan-old-style.jsonl: 3-faan minimum, 13-faan maximum, half-spicy multipliers with full responsibility, 清一色 7, 混一色 3, 小三元 5 in total, 混么 1, 門前清 1, no kong fan, 槓上槓自摸, 花糊 3, 八仙過海 and 包 on the third set.",
        overrides: json!({
            "min_fan": 3, "max_fan": 13, "base_table": "half_spicy", "base_points": 1.0, "responsibility": "full",
            "full_flush_fan": 7, "half_flush_fan": 3, "small_dragons_fan": 5, "mixed_terminals_fan": 1,
            "concealed_fan": 1, "kong_fan": "zero", "kong_on_kong_limit": true, "seven_flowers_fan": 3,
            "all_flowers_instant_win": true, "false_win_penalty": "limit_each", "bao": "third_set",
        }),
    }]
}
