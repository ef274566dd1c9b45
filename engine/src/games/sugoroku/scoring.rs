//! Payments, caps and the end-of-game settlement (§9, §10). Every transfer moves the same amount
//! from payers to receivers, so points always sum to zero.

use super::rules::{CapScope, RestRule, Rules};
use super::state::{End, State};

/// Where a payment comes from, which decides whether the payout cap applies (`cap_scope`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// A square effect: pinzu, souzu, gold, pochi, red-5m lap penalty.
    Square,
    /// The rest-penalty payment (penalty4).
    RestPenalty,
    /// The opening-pochi payment (S15).
    OpeningPochi,
    /// Winner bonus, distance settlement, rest chips.
    Settlement,
}

/// The amount actually moved per opponent for a nominal per-opponent amount `x ≥ 0`, and whether
/// the cap reduced it (§10, S9). Receipts above the cap are taxed instead of cut under
/// `progressive_over_cap` (floor of a third of the excess).
pub fn capped(rules: &Rules, x: i64, receipt: bool, source: Source) -> (i64, bool) {
    let Some(cap) = rules.payout_cap else { return (x, false) };
    let cap = i64::from(cap);
    let applies = match rules.cap_scope {
        CapScope::Everything => true,
        CapScope::SquareEffects => source == Source::Square,
        CapScope::Receipts => source == Source::Square && receipt,
    };
    if !applies || x <= cap {
        return (x, false);
    }
    if receipt && rules.progressive_over_cap {
        (cap + (x - cap) / 3, true)
    } else {
        (cap, true)
    }
}

/// A player's share of the distance settlement (総馬身) for the given distances to the goal:
/// `rate · (Σ d_j − N · d_i)`, the sum of what every farther player pays and every nearer player
/// receives (§9.3).
pub fn distance_share(rate: i64, distances: &[i64], i: usize) -> i64 {
    let total: i64 = distances.iter().sum();
    rate * (total - distances.len() as i64 * distances[i])
}

impl State<'_> {
    /// Moves `amount` (nominal, per opponent) between `seat` and every other player: `seat`
    /// receives it from each if positive, pays it to each if negative. Returns the capped amount.
    pub fn transfer(&mut self, seat: usize, amount: i64, source: Source) -> i64 {
        let (x, was_capped) = capped(self.rules, amount.abs(), amount > 0, source);
        let signed = if amount > 0 { x } else { -x };
        for (j, p) in self.players[..self.n].iter_mut().enumerate() {
            if j != seat {
                p.points -= signed;
            }
        }
        self.players[seat].points += signed * (self.n as i64 - 1);
        self.stats.largest_payment = self.stats.largest_payment.max(x);
        self.stats.capped_payments += u32::from(was_capped);
        signed
    }

    /// A transfer of `x ≥ 0` from `payer` to `payee` at the end of the game.
    fn pay(&mut self, payer: usize, payee: usize, x: i64) -> i64 {
        // End transfers are hard-capped (if at all): the progressive tax is for square receipts.
        let (x, _) = capped(self.rules, x, false, Source::Settlement);
        self.players[payer].points -= x;
        self.players[payee].points += x;
        x
    }

    /// End-of-game transfers after a win (§9): winner bonus, distance settlement and (penalty4)
    /// rest chips. An early end settles nothing (S14). Records each part per player.
    pub fn settle(&mut self) {
        let Some(w) = self.winner else { return };
        if self.end != End::Goal {
            return;
        }
        let n = self.n;
        let bonus = i64::from(self.rules.winner_bonus);
        for j in (0..n).filter(|&j| j != w) {
            let x = self.pay(j, w, bonus);
            self.players[j].bonus -= x;
            self.players[w].bonus += x;
        }
        // Pairwise, so that a cap (cap_scope = everything) applies to each pair's payment.
        let rate = i64::from(self.rules.distance_rate);
        for i in 0..n {
            for j in i + 1..n {
                let (di, dj) = (self.distance(i), self.distance(j));
                let (far, near) = if di > dj { (i, j) } else { (j, i) };
                let x = self.pay(far, near, rate * (di - dj).abs());
                self.players[far].distance_settlement -= x;
                self.players[near].distance_settlement += x;
            }
        }
        if self.rules.rest_rule == RestRule::Penalty4 {
            let chip = i64::from(self.rules.rest_chip_value);
            for j in (0..n).filter(|&j| j != w) {
                let x = self.pay(j, w, chip * i64::from(self.players[j].rests));
                self.players[j].rest_chips -= x;
                self.players[w].rest_chips += x;
            }
        }
    }

    /// Squares from `seat`'s piece to the goal (S13: the start is G away).
    pub fn distance(&self, seat: usize) -> i64 {
        i64::from(self.goal - self.players[seat].pos)
    }

    /// What `seat` would get from the distance settlement if the race were decided now.
    pub fn projected_settlement(&self, seat: usize) -> i64 {
        let mut d = [0i64; super::state::MAX_PLAYERS];
        for (i, x) in d[..self.n].iter_mut().enumerate() {
            *x = self.distance(i);
        }
        distance_share(i64::from(self.rules.distance_rate), &d[..self.n], seat)
    }
}
