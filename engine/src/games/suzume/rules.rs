//! House rules of Suzume-jong (spec §11 and the ambiguities of §12). Defaults are the spec's
//! recommended defaults; the number of players is the lineup's length.

use super::hand::max_base;
use crate::game::{Preset, Ties};
use crate::options::{OptionError, Validate};
use crate::{option_enum, options};
use serde_json::json;

option_enum! {
    /// How a tsumo score is divided among the payers.
    pub enum Rounding { Ceil = "ceil", Floor = "floor" }
}

option_enum! {
    /// What happens when a payer cannot pay in full.
    pub enum Floor { Zero = "zero", Negative = "negative" }
}

option_enum! {
    /// Who wins when several players ron one discard.
    pub enum MultiRon { All = "all", HeadBump = "head_bump" }
}

option_enum! {
    /// In which order the discarder pays several ron winners (matters only at the 0-floor).
    pub enum MultiRonOrder { Turn = "turn", Highest = "highest" }
}

option_enum! {
    /// Who deals the first hand.
    pub enum FirstDealer { Random = "random", Seat0 = "seat0" }
}

options! {
    /// Suzume-jong house rules.
    pub struct Rules {
        /// Minimum base (dealer bonus excluded) for a legal win (最低5点); 0 is the beginner rule.
        min_points: u16 = 5, range(0, 100);
        /// Points each player starts with (初期得点).
        starting_points: u32 = 40, range(0, 100000);
        /// Dealer laps: the game is `laps × players` hands (親が4周).
        laps: u32 = 4, range(1, 64);
        /// Points added when the dealer wins (親のあがりボーナス); not counted toward the minimum.
        dealer_bonus: u16 = 2, range(0, 100);
        /// The dealer bonus also applies to yakuman wins (ambiguity A2).
        dealer_bonus_on_yakuman: bool = true;
        /// The set has one red copy of each number 1-9. Off: all number copies are plain (no red
        /// bonus from numbers; All Green may use any copy of 2/3/4/6/8; Super Red is unreachable).
        red_tiles: bool = true;
        /// 中 counts as a red tile for the red bonus (ambiguity A1); Super Red always includes 中.
        red_includes_chun: bool = true;
        /// Points per red tile in a non-yakuman hand (0 switches the red bonus off).
        red_value: u16 = 1, range(0, 20);
        /// A tile is flipped as dora at the start of each hand (out of play). Off: no flip, and the
        /// stock is one tile larger.
        dora: bool = true;
        /// Points per tile of the dora's kind in a non-yakuman hand.
        dora_value: u16 = 1, range(0, 20);
        /// Tanyao bonus (all tiles 2-8).
        tanyao_value: u16 = 1, range(0, 20);
        /// Chanta bonus (each set holds a 1, 9, 發 or 中).
        chanta_value: u16 = 2, range(0, 20);
        /// All Green yakuman value; 0: not a yakuman (the hand scores its bonuses).
        all_green_value: u16 = 10, range(0, 100);
        /// Chinyao yakuman value; 0: not a yakuman.
        chinyao_value: u16 = 15, range(0, 100);
        /// Super Red yakuman value; 0: not a yakuman.
        super_red_value: u16 = 20, range(0, 100);
        /// Ron is forbidden on a kind in one's own discard row (フリテン).
        furiten: bool = true;
        /// Tsumo payment per payer: ceil or floor of score / (players − 1) (端数は切り上げ).
        tsumo_rounding: Rounding = Rounding::Ceil;
        /// Several players may ron one discard: `all` win (source) or `head_bump` (only the first
        /// in turn order from the discarder; not in the source).
        multi_ron: MultiRon = MultiRon::All;
        /// Order in which the discarder pays several ron winners: `turn` order from its right
        /// neighbour (source) or `highest` score first (ties in turn order).
        multi_ron_order: MultiRonOrder = MultiRonOrder::Turn;
        /// Payers pay down to `zero` and the rest is forgiven (source), or go `negative`.
        payment_floor: Floor = Floor::Zero;
        /// The final discard of a hand (after the last stock tile was drawn) may be ronned (A3).
        last_discard_ron: bool = true;
        /// Who deals first: uniformly `random` (source: じゃんけん) or `seat0`.
        first_dealer: FirstDealer = FirstDealer::Random;
        /// Mistake injection (§9): probability that a player, after drawing a tile that does not
        /// make a legal win, declares tsumo anyway. 0: strategies never make mistakes.
        mistake_rate: f64 = 0.0, range(0, 1);
        /// Mistaken-win penalty paid to each other player (1人2点ずつ).
        mistake_penalty: u16 = 2, range(0, 100);
        /// Equal final points: `shared` (source: 同点1位なら勝利を分かち合しましょう, tied players share
        /// the rank) or `seat_order` (the lower seat ranks first).
        ties: Ties = Ties::Shared;
    }
}

impl Validate for Rules {
    fn validate(&self) -> Result<(), OptionError> {
        if self.multi_ron == MultiRon::HeadBump && self.multi_ron_order != MultiRonOrder::Turn {
            return Err(OptionError::new(
                "multi_ron+multi_ron_order",
                "with multi_ron = \"head_bump\" only one player wins a discard, so there is no payment order to choose; leave multi_ron_order at \"turn\"",
            ));
        }
        if self.starting_points == 0 && self.payment_floor == Floor::Zero {
            return Err(OptionError::new(
                "starting_points+payment_floor",
                "with 0 starting points and payments floored at zero nobody can ever pay; expected starting_points > 0 or payment_floor = \"negative\"",
            ));
        }
        let best = max_base(self);
        if self.min_points > best {
            return Err(OptionError::new(
                "min_points",
                format!(
                    "no hand can reach {} under these rules (the best possible base is {best}); expected at most {best}",
                    self.min_points
                ),
            ));
        }
        Ok(())
    }
}

pub fn presets() -> Vec<Preset> {
    vec![
        Preset {
            name: "beginner",
            doc: "The source's beginner rule: the 5-point minimum is ignored (なれるまでは…無視して遊んでもかまいません).",
            overrides: json!({"min_points": 0}),
        },
        Preset {
            name: "no-bonus",
            doc: "Only sets and yakuman score: no red, dora, tanyao or chanta bonus and no minimum.",
            overrides: json!({"min_points": 0, "red_value": 0, "dora": false, "tanyao_value": 0, "chanta_value": 0}),
        },
    ]
}
