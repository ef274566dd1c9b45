//! House rules of Mahjong sugoroku: every option of the spec's catalogue (§13) plus the choices the
//! spec leaves open (§15), each with the spec's recommended default.
//!
//! The table `layout` (Gの字) is deliberately absent: only the order of the squares matters and the
//! engine shuffles it uniformly, so a layout option could not change a single result.

use crate::game::{Preset, Ties};
use crate::options::{OptionError, Validate};
use crate::{option_enum, options};
use serde_json::json;

option_enum! {
    /// Which kind a tile flipped at setup makes dora (S1).
    pub enum DoraMode {
        /// The flipped tile's own kind (the source's "ドラの7p").
        SelfKind = "self",
        /// The next kind, as riichi indicators: 9→1 in a suit, 北→東, 中→白.
        Next = "next",
    }
}

option_enum! {
    /// Which single payments the payout cap limits (S9).
    pub enum CapScope {
        /// Only receipts from square effects (pinzu, gold 5p, pochi).
        Receipts = "receipts",
        /// Receipts and payments of square effects, including the red-5m lap penalty (§10).
        SquareEffects = "square-effects",
        /// Every per-player amount: also the rest penalty, the opening-pochi payment and the
        /// end-of-game transfers (winner bonus, each pair's distance payment, rest chips).
        Everything = "everything",
    }
}

option_enum! {
    /// How outstanding rests are limited (§8).
    pub enum RestRule {
        /// At most `rest_cap_base` rests outstanding; the excess is dropped.
        Max10 = "max10",
        /// At most `rest_penalty_cap` rests; every excess rest costs `rest_penalty` to each
        /// opponent, and at the end each rest chip pays `rest_chip_value` to the winner.
        Penalty4 = "penalty4",
    }
}

option_enum! {
    /// What a forward move past the goal does (§5).
    pub enum Overshoot {
        /// Bounce back by the excess ("余った数だけ戻る"); a bounce past the start stops at the start (S5).
        Bounce = "bounce",
        /// The move is void: the piece stays where it is (a common children's-sugoroku rule).
        Stay = "stay",
        /// The piece reaches the goal anyway (no exact landing needed).
        Finish = "finish",
    }
}

option_enum! {
    /// Where a manzu chain that would cycle forever stops (§5, S4). The stop square's effect is not applied.
    pub enum LoopRule {
        /// On the highest-numbered manzu square of the cycle ("ゴールに近いほうのマンズ", the source).
        NearestGoal = "nearest-goal",
        /// On the square where the repetition is detected (the first manzu of the cycle to be
        /// landed on twice): the literal "stop when you come back" reading.
        RepeatSquare = "repeat-square",
    }
}

option_enum! {
    /// Whether an optional extra roll is allowed, forced or forbidden (§13 `pinzoro_reroll`, `sixzoro_reroll`).
    pub enum RollPermission {
        /// The player chooses (strategy knob).
        Optional = "optional",
        /// The roll is always taken, whatever the strategy says.
        Always = "always",
        /// The roll is never taken.
        Never = "never",
    }
}

option_enum! {
    /// What 1-1 and 6-6 mean on the 6-zoro extra roll (S7).
    pub enum ExtraRoll {
        /// A full new roll: 1-1 and 6-6 trigger the pinzoro and 6-zoro procedures again.
        Full = "full",
        /// The sum moves forward; doubles have no special effect.
        Plain = "plain",
    }
}

option_enum! {
    /// What a 1-1 on the pinzoro back re-roll means (S6).
    pub enum PinzoroDoubles {
        /// Nothing special: move back 2 like any other sum.
        Plain = "plain",
        /// Move back 2 and the pinzoro repeats: another optional back re-roll.
        Again = "again",
    }
}

options! {
    /// House rules of Mahjong sugoroku (麻雀すごろく).
    pub struct Rules {
        /// Dora flipped at setup and removed from the course (ドラを20枚めくる); the course has 136 − D squares.
        dora_count: u32 = 20, range(0, 40);
        /// Which kind a flipped dora tile makes dora: `self` (its own kind, S1) or `next` (riichi indicator).
        dora_mode: DoraMode = DoraMode::SelfKind;
        /// Largest amount one effect moves per opponent (1回で動くマックスの点数); "none" for no cap.
        payout_cap: Option<u32> = Some(500), range(1, 1_000_000);
        /// もらい上限突破: a receipt above the cap counts cap + floor(excess / 3); payments stay hard-capped.
        progressive_over_cap: bool = false;
        /// Which single payments the cap limits: receipts / square-effects / everything (S9).
        cap_scope: CapScope = CapScope::SquareEffects;
        /// Rest limit: `max10` (at most rest_cap_base rests) or `penalty4` (休みペナルティ, 8/1 addendum).
        rest_rule: RestRule = RestRule::Max10;
        /// Most rests outstanding under rest_rule = max10 (休みは最大10回).
        rest_cap_base: u32 = 10, range(1, 1000);
        /// Most rests outstanding under rest_rule = penalty4 (休みの上限は4回).
        rest_penalty_cap: u32 = 4, range(0, 1000);
        /// Under penalty4: points paid to each opponent per rest above the cap (1回につき10点オール).
        rest_penalty: u32 = 10, range(0, 100_000);
        /// Under penalty4: points each outstanding rest chip pays the winner at the end (チップの枚数×20点).
        rest_chip_value: u32 = 20, range(0, 100_000);
        /// 開幕白ポッチ: a pochi flipped as dora costs its flipper 50 × 10^(k−1) to each and re-deals;
        /// the flipper starts the new deal with a pending ×10^k (k = consecutive occurrences, S15).
        opening_pochi: bool = false;
        /// Red 5m tiles (return to start), each replacing a plain 5m.
        red_5m: u32 = 1, range(0, 2);
        /// Red 5p tiles (receive 10 from each), each replacing a plain 5p.
        red_5p: u32 = 1, range(0, 2);
        /// Red 5s tiles (pay 10 to each), each replacing a plain 5s.
        red_5s: u32 = 1, range(0, 2);
        /// Gold 5p tiles (金牌: receive 50 from each, doubled by dora), each replacing a plain 5p.
        gold_5p: u32 = 1, range(0, 2);
        /// Gold 5s tiles (pay 50 to each, doubled by dora), each replacing a plain 5s.
        gold_5s: u32 = 0, range(0, 2);
        /// 白ポッチ tiles (receive 50 × pending from each; next landing ×10; never dora), each replacing a plain 白.
        pochi_count: u32 = 1, range(1, 4);
        /// Blue 5p tiles (青5p). The source gives no effect: a blue 5p plays as a plain 5p, so this
        /// changes nothing but is kept so that a physical set can be described (and checked against the 5p copies).
        blue_5p: u32 = 0, range(0, 1);
        /// Points the winner receives from each opponent (優勝者は全員から30点オール).
        winner_bonus: u32 = 30, range(0, 100_000);
        /// Points paid to each opponent per red-5m lap beyond the first (1周あたり30点オール).
        lap_penalty: u32 = 30, range(0, 100_000);
        /// Points per square of distance in the end settlement (総馬身 ×1点).
        distance_rate: u32 = 1, range(0, 1000);
        /// Player-turns (every seat's turn, rests included) after which the game ends early without settlement.
        max_turns: u32 = 2000, range(1, 1_000_000);
        /// Whether the early end by agreement (例外, G-D4) is offered at all.
        agreement_end: bool = true;
        /// G-D4 is offered at the start of a round once every piece is at most this many squares from the goal.
        agreement_distance: u32 = 24, range(0, 136);
        /// What a forward move past the goal does: bounce (source) / stay / finish.
        overshoot: Overshoot = Overshoot::Bounce;
        /// Where a cycling manzu chain stops: nearest-goal (source) / repeat-square.
        loop_rule: LoopRule = LoopRule::NearestGoal;
        /// Whether manzu move the piece backward during the whole pinzoro sequence (この間に止まったマンズはすべて「戻る」).
        pinzoro_manzu_back: bool = true;
        /// The pinzoro back re-roll (G-D1): optional (strategy) / always / never.
        pinzoro_reroll: RollPermission = RollPermission::Optional;
        /// What a 1-1 on the pinzoro back re-roll means: plain (S6) / again (another optional re-roll).
        pinzoro_reroll_doubles: PinzoroDoubles = PinzoroDoubles::Plain;
        /// The 6-zoro extra roll (G-D2): optional (strategy) / always / never.
        sixzoro_reroll: RollPermission = RollPermission::Optional;
        /// What the 6-zoro extra roll is: full (1-1 and 6-6 act again, S7) / plain (the sum moves forward).
        sixzoro_extra_roll: ExtraRoll = ExtraRoll::Full;
        /// Whether a pinzoro or 6-zoro landing on a wind may cancel one rest instead of the extra roll (相殺, G-D3).
        offset_allowed: bool = true;
        /// Stake conversion only (お気持ち: 1点 = rate 気持ちポイント); no effect on play.
        rate: u32 = 10, range(5, 30);
        /// Equal final scores (spec silent; the game's winner is who reaches the goal): `shared`
        /// (tied players share the rank, so no seat gains from the tie) or `seat_order` (the lower
        /// seat ranks first).
        ties: Ties = Ties::Shared;
    }
}

impl Validate for Rules {
    fn validate(&self) -> Result<(), OptionError> {
        let copies = [
            ("red_5m", self.red_5m, "5m"),
            ("red_5p+gold_5p+blue_5p", self.red_5p + self.gold_5p + self.blue_5p, "5p"),
            ("red_5s+gold_5s", self.red_5s + self.gold_5s, "5s"),
        ];
        for (field, n, kind) in copies {
            if n > 4 {
                return Err(OptionError::new(field, format!("{n} special {kind} tiles, but a set has only 4 copies of {kind}")));
            }
        }
        if self.progressive_over_cap && self.payout_cap.is_none() {
            return Err(OptionError::new(
                "progressive_over_cap+payout_cap",
                "progressive_over_cap taxes receipts above the payout cap, so it needs a payout_cap (not \"none\")",
            ));
        }
        if self.opening_pochi && self.dora_count == 0 {
            return Err(OptionError::new(
                "opening_pochi+dora_count",
                "opening_pochi acts on a pochi flipped as dora, so it needs dora_count of at least 1",
            ));
        }
        Ok(())
    }
}

/// Named rule sets beyond `default` (the spec's recommended defaults, which are also the basic
/// rules as the source group played them: cap 500, max10 rests).
pub fn presets() -> Vec<Preset> {
    vec![
        Preset {
            name: "addendum",
            doc: "The source's 8/1 additional rules (追加特殊ルール) all on: opening pochi, rest penalty, progressive cap",
            overrides: json!({"opening_pochi": true, "rest_rule": "penalty4", "progressive_over_cap": true}),
        },
        Preset { name: "no-cap", doc: "No payout cap: every multiplier chain pays in full", overrides: json!({"payout_cap": "none"}) },
        Preset {
            name: "yuzu",
            doc: "The set at 麻雀遊図 (Mitaka) in the source's photos: red fives, a blue 5p and the pochi",
            overrides: json!({"blue_5p": 1}),
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::Options;

    #[test]
    fn contradictions_name_the_fields() {
        let r = Rules::from_json(&json!({"red_5p": 2, "gold_5p": 2, "blue_5p": 1})).unwrap();
        assert_eq!(r.validate().unwrap_err().field, "red_5p+gold_5p+blue_5p");
        let r = Rules::from_json(&json!({"payout_cap": "none", "progressive_over_cap": true})).unwrap();
        assert_eq!(r.validate().unwrap_err().field, "progressive_over_cap+payout_cap");
        let r = Rules::from_json(&json!({"opening_pochi": true, "dora_count": 0})).unwrap();
        assert!(r.validate().is_err());
        assert!(Rules::default().validate().is_ok());
        for p in presets() {
            Rules::from_json(&p.overrides).unwrap().validate().unwrap();
        }
    }
}
