//! House rules that change what a hand is worth (spec §15.2, §15.3, §15.5) and their presets
//! (§15.7). Rules of the game flow (draws, rotation, settlement) join this struct with the game loop.

use crate::game::{resolve_preset, Preset};
use crate::options::{OptionError, Validate};
use crate::{option_enum, options};
use serde_json::json;

option_enum! {
    /// Value of 人和 (a non-dealer's ron before their first draw).
    pub enum Renhou { Off = "off", Yakuman = "yakuman", Mangan = "mangan", Baiman = "baiman" }
}

option_enum! {
    /// Whether pinfu can be won by tsumo (ピンヅモ).
    pub enum PinfuTsumo { Allowed = "allowed", NoPinfu = "no_pinfu" }
}

option_enum! {
    /// Seven pairs: 2 han 25 fu, or the old 1 han 50 fu.
    pub enum ChiitoitsuFu { Fu25 = "25", Fu50Han1 = "50fu_1han" }
}

options! {
    /// Scoring rules of Riichi mahjong.
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
        /// Local yakuman 大車輪: closed 22334455667788p (spec §9.8, common definition).
        daisharin: bool = false;
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
    }
}

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
        if self.kansaki && self.atozuke {
            return Err(OptionError::new("kansaki+atozuke", "kansaki (完全先付け) excludes atozuke; set atozuke = false"));
        }
        Ok(())
    }
}

/// The named rule sets of spec §15.7 that touch scoring.
pub fn presets() -> Vec<Preset> {
    vec![
        Preset { name: "source_default", doc: "The spec's defaults (§15).", overrides: json!({}) },
        Preset {
            name: "tenhou",
            doc: "Tenhou: red fives, kuitan, no double yakuman for a single hand, stacking on.",
            overrides: json!({"double_kokushi13": false}),
        },
        Preset { name: "ari_ari", doc: "Kuitan on, atozuke on (= the defaults).", overrides: json!({}) },
        Preset { name: "nashi_ari", doc: "No open tanyao.", overrides: json!({"kuitan": false}) },
        Preset {
            name: "nashi_nashi",
            doc: "完先: no kuitan, no atozuke, first call part of a yaku, 2 han minimum, no red fives.",
            overrides: json!({"kuitan": false, "atozuke": false, "kansaki": true, "min_han": 2, "aka_dora": 0}),
        },
        Preset {
            name: "inflation",
            doc: "Four red fives and kiriage mangan.",
            overrides: json!({"aka_dora": 4, "kiriage_mangan": true}),
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

/// The rules of `preset` (or `default`) with JSON overrides, validated.
pub fn resolve(preset: &str, overrides: &serde_json::Value) -> Result<Rules, OptionError> {
    resolve_preset(&presets(), preset, overrides)
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
    }
}
