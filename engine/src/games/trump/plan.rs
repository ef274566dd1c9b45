//! Planning by the rules (knob `plan = "rules"`): which ready hands can win by ron under the rules
//! played. Trump mahjong has no calls, so tsumo is always a yaku and every ready hand may win by
//! tsumo; what the rules take away is ron: a ron needs a yaku or riichi (§5.3), under 完全先付け
//! (`kanzen_sakizuke`) every wait must give a hand yaku unless in riichi, and under standard
//! furiten no wait may be among one's own discards (the discard being made included). The ruling
//! is `hand::ron`'s, from the seat's view after the discard: its 7 cards, its discards, its
//! winds, the dora and its Jokers set aside; after the last live card's discard no ron comes
//! unless `last_discard_ron`. Copies left to win on are not counted (a wait whose every copy is
//! seen still counts), as in the engine's own tenpai.

use super::actions::View;
use super::hand::{self, Riichi, Situation};
use super::rules::Rules;
use super::scoring::KINDS;

/// Whether discarding a card of `kind` from `view`'s hand leaves a hand (ready on `waits`) that can
/// win by ron on some wait, declaring riichi with the discard or not.
pub fn ron_legal(view: &View<'_>, rules: &Rules, kind: u8, waits: u16, riichi: bool) -> bool {
    // The discard of the last live card may be ronned only under `last_discard_ron` (§7); the
    // hand ends after it, so no later ron comes either.
    if view.live == 0 && !rules.last_discard_ron {
        return false;
    }
    let mut held = view.counts;
    held[usize::from(kind)] -= 1;
    let discards = view.discarded[view.seat] | 1 << kind;
    let situation = view.situation(false, if riichi { Riichi::Single } else { Riichi::None });
    (0..KINDS as u8).filter(|&w| waits & 1 << w != 0).any(|win| hand::ron(&held, &Situation { win, ..situation }, discards, rules).is_ok())
}

/// How the plan judges a tenpai discard: ron stays legal without riichi, only with it (when the
/// rules let the seat declare it now), or not at all.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Ron {
    Dama,
    WithRiichi,
    Never,
}

/// The plan's judgement of discarding a card of `kind` leaving a hand ready on `waits` (see
/// [`Ron`]); riichi is considered only when `riichi_legal`. A declaration makes a ron legal exactly
/// when the hand is not furiten, which dama's legality implies, so dama is asked first.
pub fn judge(view: &View<'_>, rules: &Rules, kind: u8, waits: u16, riichi_legal: bool) -> Ron {
    if ron_legal(view, rules, kind, waits, false) {
        Ron::Dama
    } else if riichi_legal && ron_legal(view, rules, kind, waits, true) {
        Ron::WithRiichi
    } else {
        Ron::Never
    }
}
