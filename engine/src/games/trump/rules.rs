//! House rules of Trump mahjong (spec §11 and the ambiguities of §13). Defaults are the spec's
//! recommended defaults; the game is for exactly three players (§2).

use crate::game::Preset;
use crate::options::{OptionError, Validate};
use crate::{option_enum, options};
use serde_json::json;

option_enum! {
    /// Furiten (§11): none, or the standard riichi-mahjong restrictions.
    pub enum Furiten { Off = "off", Standard = "standard" }
}

option_enum! {
    /// Who wins when several players ron one discard (A8).
    pub enum MultiRon {
        /// Only the first claimant in turn order after the discarder (頭ハネ).
        HeadBump = "head_bump",
        /// Every claimant wins and is paid separately.
        Double = "double"
    }
}

option_enum! {
    /// How double riichi's 2 han relate to riichi's 1 (A9).
    pub enum DoubleRiichi {
        /// Double riichi replaces riichi: 2 han in total.
        Replace = "replace",
        /// Double riichi comes on top of riichi: 3 han in total.
        Add = "add"
    }
}

options! {
    /// Trump mahjong house rules.
    pub struct Rules {
        /// Furiten (§11): `off` (source: beginners may ignore it) or `standard` (own discards,
        /// temporary after passing a win, permanent after riichi).
        furiten: Furiten = Furiten::Off;
        /// 完全先付け (§11): ron only with riichi or when every wait gives a hand yaku (#5-#15).
        kanzen_sakizuke: bool = false;
        /// Players (人数は3人が適当): other counts are not specified.
        players: u8 = 3, range(3, 3);
        /// Points each player starts with (35点ずつ).
        starting_points: u32 = 35, range(1, 100000);
        /// Points the non-top players settle against (40点から); the top's oka is 3 × (return − start).
        return_points: u32 = 40, range(0, 100000);
        /// Dealer laps: 1 = East only, 3 = East, South and West (東・南・西まわし).
        rounds: u8 = 3, range(1, 3);
        /// A player at 0 points or fewer after a hand ends the game (0点になると試合終了).
        end_on_zero: bool = true;
        /// Points put on the table with a riichi declaration (場に1点).
        riichi_cost: u32 = 1, range(0, 1000);
        /// The dealer's win is worth this many times the table value (2倍).
        dealer_multiplier: u32 = 2, range(1, 10);
        /// Han above this count score as this many (A14: the table's last column, 14 → 32 points).
        han_cap: u8 = 14, range(1, 14);
        /// Several players ronning one discard: `head_bump` (A8) or `double`.
        multi_ron: MultiRon = MultiRon::HeadBump;
        /// A Joker may be kept in hand for kokushi (外に出さずに). Off: every Joker is set aside,
        /// so kokushi cannot be made.
        joker_keep_allowed: bool = true;
        /// Double riichi `replace`s riichi (2 han in total, A9) or is `add`ed to it (3).
        double_riichi_stacks: DoubleRiichi = DoubleRiichi::Replace;
        /// チンイツ (2 han) for a hand of number cards only, as the source and §6.1 #13 define it
        /// ("1～9だけのカードで作る役"). Off: the reading of the spec's derived vectors (§14.3),
        /// which never award it to their all-number hands.
        chinitsu: bool = true;
        /// A Joker held in a kokushi hand adds a han like a set-aside one (A5).
        held_joker_han: bool = true;
        /// A safety stop, not in the source: the game ends after this many hands even if dealers
        /// keep the deal (a dealer who neither wins nor loses tenpai could otherwise deal forever).
        max_hands: u16 = 200, range(1, 10000);
        /// The 24th live card's discard may be ronned (§7).
        last_discard_ron: bool = true;
        /// Mistake injection, not in the source (§9): probability that a player, after a draw
        /// that does not win, declares tsumo anyway (a false win, chombo). 0 = no mistakes.
        mistake_rate: f64 = 0.0, range(0, 1);
        /// Points a chombo's offender pays each opponent (§9's optional penalty, not in the
        /// source); the hand is void and replayed by the same dealer. Acts only with
        /// mistake_rate > 0, the one way a chombo happens.
        chombo_penalty: u32 = 4, range(0, 1000);
    }
}

impl Validate for Rules {
    fn validate(&self) -> Result<(), OptionError> {
        if self.riichi_cost > self.starting_points {
            return Err(OptionError::new(
                "riichi_cost+starting_points",
                format!(
                    "a riichi costs {} but players start with {}; expected riichi_cost <= starting_points",
                    self.riichi_cost, self.starting_points
                ),
            ));
        }
        Ok(())
    }
}

pub fn presets() -> Vec<Preset> {
    vec![Preset {
        name: "strict",
        doc: "The house rules the source says many groups use: furiten and 完全先付け on (このあたりでは…採用していることが多い).",
        overrides: json!({"furiten": "standard", "kanzen_sakizuke": true}),
    }]
}
