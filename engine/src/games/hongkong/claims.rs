//! A discard and the claims on it (spec §4, §5.3): the wins declared on a discard or on the tile
//! added to a pung (robbing the kong), one or all of them (`multi_win`), and their settlement;
//! else the pung, kong or chow that takes the discard by priority.

use super::actions::{Action, Claim, Legal, Point};
use super::hand::WinContext;
use super::rules::MultiWin;
use super::scoring::payments;
use super::state::{whole, HandResult, Happening, Outcome, Table, Winner, YES_NO};
use super::HongKong;
use crate::decide::{Player, PlayerError};
use crate::games::riichi::tiles::Kind;

/// The claim that takes discard `k` of seat `from`, if any: pung or kong by anyone, else chow
/// by the next player (§4), each asked in turn order from the discarder.
pub(super) fn claim(t: &mut Table, players: &mut dyn Player<HongKong>, from: u8, k: Kind) -> Result<Option<(u8, Claim)>, PlayerError> {
    let mut answers = [(0, Claim::Pung); 3];
    let mut answered = 0;
    for i in 1..4u8 {
        let c = (from + i) % 4;
        let n = t.seats[usize::from(c)].hand[usize::from(k)];
        let mut legal = Legal::new();
        if n >= 3 && t.live() > 0 {
            legal.push(Action::Claim(Claim::Kong));
        }
        if n >= 2 {
            legal.push(Action::Claim(Claim::Pung));
        }
        if i == 1 && k < 27 {
            let h = &t.seats[usize::from(c)].hand;
            for base in k.saturating_sub(2)..=k {
                if base / 9 == k / 9 && base % 9 <= 6 && (base..base + 3).all(|x| x == k || h[usize::from(x)] > 0) {
                    legal.push(Action::Claim(Claim::Chow { base }));
                }
            }
        }
        if legal.as_slice().is_empty() {
            continue;
        }
        legal.push(Action::Pass);
        if let Action::Claim(cl) = t.ask(players, c, from, Point::Claim { tile: k }, None, legal.as_slice())? {
            answers[answered] = (c, cl);
            answered += 1;
        }
    }
    Ok(pick_claim(&answers[..answered]))
}

/// The claim that takes a discard (§4 priority: pung = kong > chow) among the answers, given in
/// turn order from the discarder (only the next seat can offer a chow, and only one seat can
/// hold the two or three copies a pung or kong needs).
pub fn pick_claim(answers: &[(u8, Claim)]) -> Option<(u8, Claim)> {
    answers.iter().find(|(_, c)| !matches!(c, Claim::Chow { .. })).or(answers.first()).copied()
}

/// The winners among the seats that declared a win on one discard, given in turn order from the
/// discarder: the first (head-bump, A23) or all.
pub fn pick_winners<T>(mut declared: Vec<T>, multi: MultiWin) -> Vec<T> {
    if multi == MultiWin::HeadBump {
        declared.truncate(1);
    }
    declared
}

/// How another player's tile came to be won on.
#[derive(Clone, Copy)]
pub(super) enum Won {
    /// A discard: the dealer's first (地和 under `earthly_hand_def = hk`), or the one right after
    /// the last live-wall tile (F6).
    Discard { earthly: bool, last: bool },
    /// The tile added to an exposed pung (搶槓; a kong needs a live tile, so never the last).
    RobbedKong,
}

/// Seats that win on `tile` from `from` (a discard, or a robbed kong), in turn order; one or all
/// per `multi_win`.
pub(super) fn discard_winners(
    t: &mut Table,
    players: &mut dyn Player<HongKong>,
    from: u8,
    tile: Kind,
    how: Won,
) -> Result<Vec<Winner>, PlayerError> {
    let mut out = Vec::new();
    for i in 1..4u8 {
        let c = (from + i) % 4;
        let mut hand = t.seats[usize::from(c)].hand;
        hand[usize::from(tile)] += 1;
        let ctx = match how {
            Won::Discard { earthly, last } => WinContext { earthly, ..t.context(c, false, last) },
            Won::RobbedKong => WinContext { robbing_kong: true, ..t.context(c, false, false) },
        };
        if let Some(w) = t.win_value(c, &hand, tile, &ctx) {
            if t.ask(players, c, from, Point::WinOn { tile }, Some(&w.value), &YES_NO)? == Action::Win {
                out.push(w);
            }
        }
    }
    Ok(pick_winners(out, t.rules.multi_win))
}

pub(super) fn settle_discard(
    t: &mut Table,
    winners: Vec<Winner>,
    from: u8,
    robbed: bool,
    dealer: u8,
    dice: u8,
    result: &impl Fn(&Table, Outcome, [i64; 4], u8) -> HandResult,
) -> HandResult {
    let mut delta = [0f64; 4];
    for w in &winners {
        let what = if robbed { Happening::RobbedKongWin } else { Happening::DiscardWin };
        t.note(w.seat, what, w.hand.win, Some(from));
        let d = payments(t.rules, dealer, w.seat, Some(from), w.liable, w.value.base);
        for s in 0..4 {
            delta[s] += d[s];
        }
    }
    result(t, Outcome::Win { winners, discarder: Some(from), robbed }, whole(delta), dice)
}
