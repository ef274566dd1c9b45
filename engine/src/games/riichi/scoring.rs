//! Settlement (spec §11–§13): what each hand's end pays — wins with honba and riichi sticks, pao
//! (責任払い), wareme, the exhaustive draw's noten payments and nagashi mangan, chombo — and the
//! end of the game: leftover sticks, yakitori, uma and oka. The value of a winning hand itself is
//! the hand evaluator's (`hand.rs`).

use super::actions::{Action, Point};
use super::hand::{self, Score, WinInput};
use super::rules::*;
use super::state::{bit, EventKind, MeldRec, Progress, State, FLOWER, POCCHI, SEATS};
use super::tiles::{Kind, Meld, MeldKind, Tile, KINDS};
use super::yaku::{Situation, Yaku};
use super::Riichi;
use crate::decide::{Fault, Player, PlayerError};
use crate::game::ranks;

crate::code_enum! {
    /// How a hand ended: the `hands.outcome` codes.
    pub enum Outcome {
        Tsumo = "tsumo",
        Ron = "ron",
        Exhaustive = "exhaustive_draw",
        Nagashi = "nagashi_mangan",
        Kyuushu = "kyuushu_kyuuhai",
        SuuchaRiichi = "suucha_riichi",
        SuufonRenda = "suufon_renda",
        Suukaikan = "suukaikan",
        Sanchahou = "sanchahou",
        /// A foul shown (§12.4): the hand is void and replayed.
        Chombo = "chombo",
    }
}

impl Outcome {
    pub fn abortive(self) -> bool {
        matches!(self as u8, 4..=8)
    }
}

/// One win of a hand.
#[derive(Debug, Clone)]
pub struct WinRec {
    pub seat: u8,
    /// The discarder; the winner for a tsumo.
    pub from: u8,
    pub score: Score,
    /// Seat that paid under pao.
    pub pao: Option<u8>,
}

/// What a hand did.
#[derive(Debug, Clone)]
pub struct HandResult {
    pub outcome: Outcome,
    pub wins: Vec<WinRec>,
    /// Point changes of the hand (deposits included: a riichi stick is −1000 to its player).
    pub deltas: [i64; SEATS],
    /// Tenpai at an exhaustive draw, bit per seat.
    pub tenpai: u8,
    pub riichi: u8,
    /// Seats with an open call.
    pub open: u8,
    pub nagashi: u8,
    /// Discards made in the hand when it ended.
    pub turn: u32,
    /// The wareme seat (none without wareme).
    pub wareme: Option<u8>,
    /// Seats whose foul was shown in the hand (chombo), bit per seat.
    pub chombo: u8,
    /// Tenpai seats that claimed noten at the exhaustive draw (allow_noten_declaration), bit per seat.
    pub noten_declared: u8,
    /// Tiles each seat extracted (flowers, sanma Norths).
    pub nuki: [u8; SEATS],
}

impl HandResult {
    /// A hand that ended with `outcome` and nothing else yet (play_hand fills in the rest).
    fn of(outcome: Outcome) -> Self {
        HandResult {
            outcome,
            wins: Vec::new(),
            deltas: [0; SEATS],
            tenpai: 0,
            riichi: 0,
            open: 0,
            nagashi: 0,
            turn: 0,
            wareme: None,
            chombo: 0,
            noten_declared: 0,
            nuki: [0; SEATS],
        }
    }
}

/// The meld `m` of `seat` (of `n` seats) as the hand evaluator takes it: the called tile first,
/// and the relative seat it came from.
pub fn scored_meld(rules: &Rules, m: &MeldRec, seat: usize, n: usize) -> Meld {
    let tile = |id: u8| Tile { kind: id / 4, red: rules.is_red(id) };
    let mut tiles: Vec<Tile> = Vec::with_capacity(4);
    if let Some(called) = m.called {
        tiles.push(tile(called));
    }
    let mut skipped = false;
    for &t in &m.tiles[..usize::from(m.n)] {
        if m.called == Some(t) && !skipped {
            skipped = true;
            continue;
        }
        tiles.push(tile(t));
    }
    // Relative seat: 1 下家, 2 対面, 3 上家 (with three players the left seat is 上家).
    let rel = (usize::from(m.from) + n - seat) % n;
    let from = if m.kind == MeldKind::Ankan {
        0
    } else if rel == n - 1 {
        3
    } else {
        rel as u8
    };
    Meld { kind: m.kind, tiles, from }
}

impl State<'_> {
    fn melds_for_score(&self, seat: usize) -> Vec<Meld> {
        self.p[seat].melds.iter().map(|m| scored_meld(self.rules, m, seat, self.n)).collect()
    }

    /// Scores `seat` winning on `win` (for a tsumo the tile is already in the hand).
    pub fn score_win(&self, seat: usize, win: u8, tsumo: bool, rinshan: bool, chankan: bool) -> Result<Score, String> {
        self.score_at(seat, win, tsumo, rinshan, chankan, self.live_next >= self.live_end)
    }

    /// [`State::score_win`] with the last-tile situation (haitei/houtei) given.
    fn score_at(&self, seat: usize, win: u8, tsumo: bool, rinshan: bool, chankan: bool, last: bool) -> Result<Score, String> {
        let p = &self.p[seat];
        let h = &self.hidden[seat];
        // A tsumo on the marked 白 as a wild tile: it is the kind it stands for.
        let pocchi = self.pocchi_as.filter(|_| tsumo && win == POCCHI);
        let as_tile = |t: u8| match pocchi {
            Some(k) if t == POCCHI => Tile { kind: k, red: false },
            _ => self.tile(t),
        };
        let mut hand: Vec<Tile> = h.hand.iter().map(|&t| as_tile(t)).collect();
        if !tsumo {
            hand.push(self.tile(win));
        }
        let first = self.uninterrupted && !p.discarded;
        let dealer = seat == usize::from(self.dealer);
        let situation = Situation {
            tsumo,
            riichi: p.riichi && !p.double_riichi,
            double_riichi: p.double_riichi,
            ippatsu: p.riichi && p.ippatsu,
            haitei: tsumo && last && !rinshan,
            houtei: !tsumo && last && !chankan,
            rinshan,
            chankan,
            tenhou: tsumo && first && dealer,
            chiihou: tsumo && first && !dealer,
            renhou: !tsumo && first && !dealer && self.rules.renhou != Renhou::Off,
            open_riichi: p.open_riichi,
            pocchi: pocchi.is_some(),
            round_wind: self.round_wind(),
            seat_wind: self.seat_wind(seat),
        };
        let (dora, ura) = self.indicators();
        let input = WinInput {
            hand,
            win: Some(as_tile(win)),
            melds: self.melds_for_score(seat),
            situation,
            dora,
            ura,
            honba: self.progress.honba,
            deposits: self.progress.sticks,
            nukidora: self.nukidora(seat),
            flower_yaku: self.flower_yaku(seat),
        };
        hand::score(&input, self.rules).map_err(|e| e.to_string())
    }

    /// Han of the all-flowers yaku for `seat` (rule `flower_all_yaku_han`; 0 if not earned).
    fn flower_yaku(&self, seat: usize) -> u8 {
        let f = usize::from(self.rules.flowers);
        if f == 0 || self.rules.flower_all_yaku_han == 0 {
            return 0;
        }
        let own = self.p[seat].nuki.iter().filter(|&&t| t >= FLOWER).count();
        if own == f {
            self.rules.flower_all_yaku_han
        } else {
            0
        }
    }

    pub(super) fn set_pao(&mut self, caller: usize, from: usize, kind: MeldKind) {
        let rule = self.rules.pao;
        if rule.is_empty() || kind == MeldKind::Chi {
            return;
        }
        let p = &mut self.p[caller];
        let sets = |f: fn(Kind) -> bool| p.melds.iter().filter(|m| m.kind != MeldKind::Chi && f(m.base())).count();
        let dragons = sets(super::tiles::is_dragon);
        let winds = sets(super::tiles::is_wind);
        let last = p.melds.last().map(|m| m.base()).unwrap_or(0);
        if rule.contains(Pao::Daisangen) && dragons == 3 && super::tiles::is_dragon(last) {
            p.pao_daisangen = Some(from as u8);
        }
        if rule.contains(Pao::Daisuushii) && winds == 4 && super::tiles::is_wind(last) {
            p.pao_daisuushii = Some(from as u8);
        }
        if rule.contains(Pao::Suukantsu) && kind == MeldKind::Daiminkan && p.melds.iter().filter(|m| m.kind.is_kan()).count() == 4 {
            p.pao_suukantsu = Some(from as u8);
        }
    }

    fn transfer(&mut self, from: usize, to: usize, amount: u32) {
        self.p[from].points -= i64::from(amount);
        self.p[to].points += i64::from(amount);
    }

    /// A hand payment: `base` doubled when the wareme seat pays or receives it, plus `honba`.
    fn pay(&mut self, from: usize, to: usize, base: u32, honba: u32) {
        let wareme = self.wareme.map(usize::from);
        let factor = if wareme == Some(from) || wareme == Some(to) { 2 } else { 1 };
        self.transfer(from, to, base * factor + honba);
    }

    /// Pays the wins of `seats` (in order from the discarder) on `tile`.
    pub(super) fn settle_wins(
        &mut self,
        seats: &[usize],
        from: usize,
        tile: u8,
        tsumo: bool,
        rinshan: bool,
        chankan: bool,
    ) -> Result<HandResult, PlayerError> {
        let mut wins = Vec::with_capacity(seats.len());
        let honba = self.progress.honba;
        if self.events.is_some() && self.rules.ura_dora && seats.iter().any(|&w| self.p[w].riichi) {
            for id in self.indicator_ids().1 {
                self.log(None, EventKind::UraIndicator, Some(id));
            }
        }
        for (i, &w) in seats.iter().enumerate() {
            // A declared win that does not score is an illegal declaration (the legal actions
            // offer only wins that score).
            let score = self.score_win(w, tile, tsumo, rinshan, chankan).map_err(|e| PlayerError {
                game: None,
                seat: w,
                point: if tsumo { "turn" } else { "response" },
                fault: Fault::Illegal(format!("the declared win does not score: {e}")),
            })?;
            let honba_w = if i == 0 || self.rules.multi_ron_honba == MultiRonHonba::EachWinner { honba } else { 0 };
            let dealer = w == usize::from(self.dealer);
            let (liable, mult) = self.pao_of(w, &score);
            let liable_basic = 8000 * u32::from(mult);
            // Dealing into an open riichi while not in riichi pays at least a yakuman.
            let basic = if !tsumo && self.p[w].open_riichi && !self.p[from].riichi { score.basic.max(8000) } else { score.basic };
            let rest_basic = basic - if liable.is_some() { liable_basic } else { 0 };
            let hv = self.rules.honba_value;
            if let Some(l) = self.daiminkan_from.filter(|_| tsumo && rinshan && self.rules.pao_daiminkan_rinshan) {
                self.pay_normal(w, usize::from(l), score.basic, dealer, false, honba_w);
                wins.push(WinRec { seat: w as u8, from: from as u8, score, pao: Some(l) });
                continue;
            }
            if let Some(l) = liable.map(usize::from).filter(|&l| tsumo || l != from) {
                let value = hand::payments(liable_basic, dealer, false, 0, 0, self.rules).1.ron;
                if tsumo {
                    self.pay(l, w, value, honba_w * hv);
                    if rest_basic > 0 {
                        self.pay_normal(w, from, rest_basic, dealer, true, 0);
                    }
                } else {
                    self.pay(l, w, value / 2, 0);
                    self.pay(from, w, value / 2, honba_w * hv);
                    if rest_basic > 0 {
                        self.pay_normal(w, from, rest_basic, dealer, false, 0);
                    }
                }
            } else {
                // No pao, or the liable seat dealt in: it pays the whole ron as the discarder.
                self.pay_normal(w, from, basic, dealer, tsumo, honba_w);
            }
            wins.push(WinRec { seat: w as u8, from: from as u8, score, pao: liable });
        }
        let first = seats[0];
        let sticks = self.progress.sticks * self.rules.riichi_deposit;
        self.p[first].points += i64::from(sticks);
        self.progress.sticks = 0;
        Ok(HandResult { wins, ..HandResult::of(if tsumo { Outcome::Tsumo } else { Outcome::Ron }) })
    }

    fn pay_normal(&mut self, w: usize, from: usize, basic: u32, dealer: bool, tsumo: bool, honba: u32) {
        // Base amounts and the honba bonus apart: wareme doubles only the former.
        let (_, pay) = hand::payments(basic, dealer, tsumo, 0, 0, self.rules);
        let hv = self.rules.honba_value;
        if !tsumo {
            self.pay(from, w, pay.ron, honba * hv);
            return;
        }
        let honba_each = hand::tsumo_honba(honba, self.rules);
        for s in 0..self.n {
            if s == w {
                continue;
            }
            let amount = if s == usize::from(self.dealer) { pay.tsumo_dealer } else { pay.tsumo_non_dealer };
            self.pay(s, w, amount, honba_each);
        }
    }

    /// The seat liable for a yakuman of `w`'s win and the multiplier of the liable part.
    fn pao_of(&self, w: usize, score: &Score) -> (Option<u8>, u8) {
        let p = &self.p[w];
        for &(yaku, seat) in &[(Yaku::Daisangen, p.pao_daisangen), (Yaku::Daisuushii, p.pao_daisuushii), (Yaku::Suukantsu, p.pao_suukantsu)]
        {
            if seat.is_some() {
                if let Some(&(_, m)) = score.yaku(self.rules).iter().find(|(y, _)| *y == yaku) {
                    if score.yakuman > 0 && !self.rules.yakuman_as_13_han {
                        return (seat, m);
                    }
                }
            }
        }
        (None, 0)
    }

    fn tenpai_at_draw(&self, seat: usize) -> bool {
        let p = &self.p[seat];
        let h = &self.hidden[seat];
        if h.waits == 0 || p.forfeit {
            return false;
        }
        if !self.rules.keishiki_tenpai && !p.closed() {
            let id = |k: usize| (k * 4 + 3) as u8; // never a red five
            let yaku = (0..KINDS).any(|k| h.waits & bit(k as u8) != 0 && self.score_at(seat, id(k), false, false, false, false).is_ok());
            if !yaku {
                return false;
            }
        }
        match self.rules.karaten {
            Karaten::AlwaysTenpai => true,
            Karaten::OwnFourIsNoten | Karaten::AnyDeadWaitIsNoten => {
                let any = self.rules.karaten == Karaten::AnyDeadWaitIsNoten;
                (0..KINDS).any(|k| {
                    h.waits & bit(k as u8) != 0 && {
                        let used = if any { h.counts[k] + self.seen[k] } else { h.counts[k] + self.exposed_own(seat, k) };
                        used < 4
                    }
                })
            }
        }
    }

    /// Copies of kind `k` in `seat`'s melds (counted in both `own` and `seen`).
    pub(super) fn exposed_own(&self, seat: usize, k: usize) -> u8 {
        self.p[seat].melds.iter().map(|m| m.tiles[..usize::from(m.n)].iter().filter(|&&t| usize::from(t / 4) == k).count() as u8).sum()
    }

    /// A foul of the seats of `offenders` is shown (§12.4). Under hand_forfeit they may no longer
    /// call or win and the hand goes on (`None`); otherwise the hand ends void with the penalty and
    /// is replayed (A42): this hand's riichi sticks go back to their players.
    pub(super) fn chombo(&mut self, offenders: u8) -> Option<HandResult> {
        self.chombo |= offenders;
        for s in (0..SEATS).filter(|&s| offenders & (1 << s) != 0) {
            self.log(Some(s as u8), EventKind::Chombo, None);
        }
        let rule = self.rules.chombo_payment;
        if rule == ChomboPayment::HandForfeit {
            for s in (0..SEATS).filter(|&s| offenders & (1 << s) != 0) {
                self.p[s].forfeit = true;
            }
            return None;
        }
        let deposit = i64::from(self.rules.riichi_deposit);
        for s in 0..SEATS {
            if self.p[s].riichi {
                self.p[s].points += deposit;
                self.progress.sticks -= 1;
            }
        }
        for o in (0..SEATS).filter(|&s| offenders & (1 << s) != 0) {
            // A mangan paid the other way round (not doubled by wareme, A46), or 3000 to each.
            let (_, mangan) = hand::payments(2000, o == usize::from(self.dealer), true, 0, 0, self.rules);
            for s in (0..self.n).filter(|&s| s != o) {
                let amount = match rule {
                    ChomboPayment::Mangan if s == usize::from(self.dealer) => mangan.tsumo_dealer,
                    ChomboPayment::Mangan => mangan.tsumo_non_dealer,
                    ChomboPayment::ThreeThousandAll => 3000,
                    ChomboPayment::PointsDeduction | ChomboPayment::HandForfeit => 0,
                };
                self.transfer(o, s, amount);
            }
        }
        Some(self.abort(Outcome::Chombo))
    }

    pub(super) fn exhaustive_draw(&mut self, d: &mut dyn Player<Riichi>) -> Result<HandResult, PlayerError> {
        let n = self.n;
        // Riichi hands are shown at the tenpai check, and with them a foul riichi.
        let fouls = (0..n).filter(|&s| self.hidden[s].foul && !self.p[s].forfeit).fold(0u8, |m, s| m | 1 << s);
        if fouls != 0 {
            if let Some(r) = self.chombo(fouls) {
                return Ok(r);
            }
        }
        let mut tenpai = 0u8;
        for s in 0..n {
            if self.tenpai_at_draw(s) {
                tenpai |= 1 << s;
            }
        }
        // 聴牌隠し: the seats show their hands in turn order from the dealer, and a tenpai player
        // not in riichi may claim noten instead, knowing only what the seats before it showed.
        let mut noten_declared = 0u8;
        if self.rules.allow_noten_declaration {
            let mut shown = 0u8;
            for i in 0..n {
                let s = (usize::from(self.dealer) + i) % n;
                if tenpai & (1 << s) != 0 && !self.p[s].riichi && self.ask_yes(d, s, Point::Noten { shown }, Action::DeclareNoten)? {
                    tenpai &= !(1 << s);
                    noten_declared |= 1 << s;
                    self.log_action(s, Action::DeclareNoten, None);
                }
                shown |= tenpai & (1 << s);
            }
        }
        let mut nagashi = 0u8;
        if self.rules.nagashi_mangan != Nagashi::Off {
            for s in 0..n {
                if !self.p[s].river_simple && !self.p[s].river_called && !self.p[s].forfeit {
                    nagashi |= 1 << s;
                }
            }
        }
        let outcome = if nagashi != 0 {
            for s in 0..n {
                if nagashi & (1 << s) != 0 {
                    let dealer = s == usize::from(self.dealer);
                    let honba = if self.rules.nagashi_mangan == Nagashi::AsWin { self.progress.honba } else { 0 };
                    self.pay_normal(s, s, 2000, dealer, true, honba);
                }
            }
            if self.rules.nagashi_mangan == Nagashi::AsWin {
                let first = (0..n).map(|i| (usize::from(self.dealer) + i) % n).find(|&s| nagashi & (1 << s) != 0).unwrap_or(0);
                let sticks = self.progress.sticks * self.rules.riichi_deposit;
                self.p[first].points += i64::from(sticks);
                self.progress.sticks = 0;
            }
            Outcome::Nagashi
        } else {
            let pay = noten_payments(self.rules, tenpai);
            for (p, x) in self.p.iter_mut().zip(pay) {
                p.points += x;
            }
            Outcome::Exhaustive
        };
        Ok(HandResult { tenpai, nagashi, noten_declared, ..HandResult::of(outcome) })
    }

    pub(super) fn abort(&mut self, outcome: Outcome) -> HandResult {
        HandResult::of(outcome)
    }
}

/// Noten payments (§12.2 step 3; `sanma_noten_total` with three players, §14) of each seat
/// when the seats of `tenpai` are tenpai.
pub fn noten_payments(rules: &Rules, tenpai: u8) -> [i64; SEATS] {
    let (n, t) = (rules.seats() as u32, tenpai.count_ones());
    if !(1..n).contains(&t) {
        return [0; SEATS];
    }
    let total = if n == 3 { rules.sanma_noten_total } else { rules.noten_bappu_total };
    let (gain, loss) = (i64::from(total / t), i64::from(total / (n - t)));
    std::array::from_fn(|s| {
        if s >= rules.seats() {
            0
        } else if tenpai & (1 << s) != 0 {
            gain
        } else {
            -loss
        }
    })
}

/// The end of a game (§13.5) from the seats' `points` and the riichi sticks left on the table:
/// the leftover sticks to the top under `leftover_deposits = to_top`, yakitori, then the final
/// scores (uma, oka, chombo deductions). Returns the final points and the scores.
pub fn settle_game(
    rules: &Rules,
    mut points: [i64; SEATS],
    leftover: u32,
    hands: &[(Progress, u8, HandResult)],
) -> ([i64; SEATS], [f64; SEATS]) {
    let n = rules.seats();
    let rank = ranks(&points[..n]);
    if rules.leftover_deposits == LeftoverDeposits::ToTop {
        let top = (0..n).find(|&i| rank[i] == 1).unwrap_or(0);
        points[top] += i64::from(leftover * rules.riichi_deposit);
    }
    if rules.yakitori > 0 {
        let winners: Vec<bool> = (0..n).map(|s| hands.iter().any(|(_, _, r)| r.wins.iter().any(|w| usize::from(w.seat) == s))).collect();
        let n_win = winners.iter().filter(|&&w| w).count() as i64;
        if (1..n as i64).contains(&n_win) {
            let pot = i64::from(rules.yakitori) * (n as i64 - n_win);
            // An indivisible remainder goes to the first winner in seat order: points stay conserved.
            let first = winners.iter().position(|&w| w).unwrap_or(0);
            points[first] += pot % n_win;
            for s in 0..n {
                points[s] += if winners[s] { pot / n_win } else { -i64::from(rules.yakitori) };
            }
        }
    }
    let mut score = final_scores(rules, &points);
    if rules.chombo_payment == ChomboPayment::PointsDeduction {
        for (_, _, r) in hands {
            for (s, x) in score.iter_mut().enumerate() {
                *x -= f64::from(r.chombo >> s & 1) * f64::from(rules.chombo_deduction) / 1000.0;
            }
        }
    }
    (points, score)
}

/// (points − return)/1000 + uma + oka per seat (§13.5). With three players the rank uma is
/// +uma_1st / +uma_2nd / −(uma_1st + uma_2nd) (+15 / 0 / −15 by default) and oka is
/// (return − start) × 3; seat 3 stays 0. `sashi` needs the lineup and is added by [`sashi`].
pub fn final_scores(rules: &Rules, points: &[i64; SEATS]) -> [f64; SEATS] {
    let n = rules.seats();
    let rank = ranks(&points[..n]);
    let (a, b) = (f64::from(rules.uma_2nd), f64::from(rules.uma_1st));
    let oka = if rules.oka { f64::from(rules.return_points - rules.starting_points) * n as f64 / 1000.0 } else { 0.0 };
    let mut bonus = match rules.uma {
        Uma::Rank if n == 3 => [b, a, -a - b, 0.0],
        Uma::Rank => [b, a, -a, -b],
        // JPML (§13.5): those who sink below the baseline pay 12 in all, by how many stay above.
        Uma::Sinking => match (0..n).filter(|&s| points[s] >= i64::from(rules.return_points)).count() {
            1 => [12.0, -1.0, -3.0, -8.0],
            2 => [8.0, 4.0, -4.0, -8.0],
            3 => [8.0, 3.0, 1.0, -12.0],
            _ => [0.0; SEATS],
        },
        Uma::Sashi | Uma::Binta | Uma::None => [0.0; SEATS],
    };
    bonus[0] += oka;
    let tied = |s: usize, o: usize| rules.tie_break == TieBreak::Split && points[o] == points[s];
    let mut out = [0.0; SEATS];
    for s in 0..n {
        let (sum, shared) =
            (0..n).filter(|&o| o == s || tied(s, o)).fold((0.0, 0.0), |(x, k), o| (x + bonus[usize::from(rank[o] - 1)], k + 1.0));
        let bonus_s = sum / shared;
        let mut raw = (points[s] - i64::from(rules.return_points)) as f64 / 1000.0;
        if rules.final_rounding == FinalRounding::Nearest1000 {
            raw = raw.round();
        }
        out[s] = raw + bonus_s;
    }
    if rules.uma == Uma::Binta {
        let start = i64::from(rules.starting_points);
        for hi in 0..n {
            for lo in (0..n).filter(|&lo| rank[hi] < rank[lo] && !tied(hi, lo)) {
                let doubled = points[lo] < start && points[hi] >= start;
                let stake = f64::from(rules.side_bet) * if doubled { 2.0 } else { 1.0 };
                out[hi] += stake;
                out[lo] -= stake;
            }
        }
    }
    out
}

/// 差しウマ under `uma = sashi`: of the seats `a` and `b` (lineup players 1 and 2), the lower-ranked
/// pays the other `side_bet` (nothing on a tie under tie_break = split).
pub fn sashi(rules: &Rules, score: &mut [f64; SEATS], points: &[i64; SEATS], a: usize, b: usize) {
    let rank = ranks(&points[..rules.seats()]);
    if rules.tie_break == TieBreak::Split && points[a] == points[b] {
        return;
    }
    let (hi, lo) = if rank[a] < rank[b] { (a, b) } else { (b, a) };
    score[hi] += f64::from(rules.side_bet);
    score[lo] -= f64::from(rules.side_bet);
}
