//! A discard and its response window: calls with priority (a ron before any call, a pon or kan
//! before a chi), multiple rons and their abort, the riichi that a ron on its declaration tile
//! voids, else its deposit and the four-riichi, four-wind and four-kan aborts, and kuikae after a
//! call; and the ron window on a kan tile (chankan, kokushi on an ankan, a robbed sanma North).
//! Passing a winning tile makes the seat furiten.

use super::actions::{wait_mask, Action, Point};
use super::rules::*;
use super::scoring::{HandResult, Outcome};
use super::state::{bit, EventKind, MeldRec, Next, Robbed, State, SEATS};
use super::tiles::MeldKind;
use super::Riichi;
use crate::decide::{Player, PlayerError};

impl State<'_> {
    /// The ron window on a kan tile (chankan, or kokushi on an ankan). Returns the settled hand if
    /// robbed.
    pub(super) fn kan_window(
        &mut self,
        d: &mut dyn Player<Riichi>,
        seat: usize,
        tile: u8,
        kind: Robbed,
    ) -> Result<Option<HandResult>, PlayerError> {
        let mut rons = Vec::new();
        let mut passed = Vec::new();
        for i in 1..self.n {
            let s = self.after(seat, i);
            if self.hidden[s].waits & bit(tile / 4) == 0 {
                continue;
            }
            self.response_actions(s, seat, tile, Some(kind));
            let a =
                if self.legal.len() > 1 { self.ask(d, s, Point::Response { from: seat as u8, tile, kan: true })? } else { Action::Pass };
            if a == Action::Ron {
                rons.push(s);
            } else if kind != Robbed::Ankan || self.legal.contains(&Action::Ron) {
                passed.push(s);
            }
        }
        if rons.is_empty() {
            for s in passed {
                self.pass_furiten(s);
            }
            return Ok(None);
        }
        self.resolve_rons(&rons, seat, tile, kind != Robbed::Nuki).map(Some)
    }

    fn pass_furiten(&mut self, s: usize) {
        let p = &mut self.p[s];
        let h = &mut self.hidden[s];
        h.temp_furiten = true;
        if p.riichi {
            h.riichi_furiten = true;
        }
    }

    fn resolve_rons(&mut self, rons: &[usize], from: usize, tile: u8, chankan: bool) -> Result<HandResult, PlayerError> {
        let winners = match (self.rules.multi_ron, rons.len()) {
            (MultiRon::DoubleOkTripleAbort, 3) => return Ok(self.abort(Outcome::Sanchahou)),
            (MultiRon::Atamahane, _) => &rons[..1],
            _ => rons,
        };
        for &w in winners {
            self.log_action(w, Action::Ron, Some(tile));
        }
        self.settle_wins(winners, from, tile, false, false, chankan)
    }

    /// A discard and its response window. Sets `next` unless the hand ends.
    pub(super) fn discard(
        &mut self,
        d: &mut dyn Player<Riichi>,
        seat: usize,
        tile: u8,
        riichi: bool,
        next: &mut Next,
    ) -> Result<Option<HandResult>, PlayerError> {
        let k = tile / 4;
        {
            let first_turn = self.uninterrupted && !self.p[seat].discarded;
            let p = &mut self.p[seat];
            let h = &mut self.hidden[seat];
            // The view of the hand's discards that chose this discard usually knows the waits.
            let waits = super::accept::known_waits_after(&h.counts, usize::from(k));
            h.remove(tile);
            p.river.push(tile);
            p.river_kinds |= bit(k);
            if !super::tiles::is_yaochu(k) {
                p.river_simple = true;
            }
            h.temp_furiten = false;
            h.kuikae = 0;
            self.daiminkan_from = None;
            if p.riichi {
                p.ippatsu = false;
            }
            h.waits = waits.unwrap_or_else(|| wait_mask(&h.counts));
            if riichi {
                self.riichi_declared = seat as u8 + 1;
                if first_turn && self.rules.double_riichi {
                    self.p[seat].double_riichi = true;
                }
            }
            // 四風連打: the first four discards of an uninterrupted hand are one wind.
            if self.discards == 0 && self.uninterrupted && super::tiles::is_wind(k) {
                self.first_winds = k;
            } else if !(self.uninterrupted && self.discards < 4 && self.first_winds == k) {
                self.first_winds = 0;
            }
            self.p[seat].discarded = true;
        }
        self.discards += 1;
        self.seen[usize::from(k)] += 1;
        self.reveal_pending();
        // Responses, from the discarder's 下家 on.
        let mut rons: Vec<usize> = Vec::new();
        let mut call: Option<(usize, Action)> = None;
        let mut passers: u8 = 0;
        for i in 1..self.n {
            let s = self.after(seat, i);
            self.response_actions(s, seat, tile, None);
            if self.legal.len() == 1 {
                if self.hidden[s].waits & bit(k) != 0 {
                    passers |= 1 << s;
                }
                continue;
            }
            let a = self.ask(d, s, Point::Response { from: seat as u8, tile, kan: false })?;
            match a {
                Action::Ron => rons.push(s),
                Action::Pass => {}
                a => {
                    let better = match call {
                        None => true,
                        Some((_, Action::Chi { .. })) => !matches!(a, Action::Chi { .. }),
                        Some(_) => false,
                    };
                    if better {
                        call = Some((s, a));
                    }
                }
            }
            if a != Action::Ron && self.hidden[s].waits & bit(k) != 0 {
                passers |= 1 << s;
            }
        }
        if !rons.is_empty() {
            if self.riichi_declared == seat as u8 + 1 {
                // A ronned declaration tile voids the riichi (§8.2).
                self.riichi_declared = 0;
                self.p[seat].double_riichi = false;
            }
            return self.resolve_rons(&rons, seat, tile, false).map(Some);
        }
        for s in 0..SEATS {
            if passers & (1 << s) != 0 {
                self.pass_furiten(s);
            }
            if self.p[s].riichi {
                self.safe_after_riichi[s] |= bit(k);
            }
        }
        if self.riichi_declared == seat as u8 + 1 {
            self.riichi_declared = 0;
            let p = &mut self.p[seat];
            p.riichi = true;
            p.ippatsu = self.rules.ippatsu;
            p.points -= i64::from(self.rules.riichi_deposit);
            self.progress.sticks += 1;
            self.safe_after_riichi[seat] = 0;
            let p = &self.p[seat];
            let h = &self.hidden[seat];
            self.hidden[seat].foul = self.riichi_foul(&h.counts, p.river_kinds, None);
            if self.rules.local_yaku.contains(LocalYaku::OpenRiichi) && self.ask_yes(d, seat, Point::OpenRiichi, Action::OpenRiichi)? {
                self.p[seat].open_riichi = true;
                self.log_action(seat, Action::OpenRiichi, None);
            }
            if self.rules.abort_suucha_riichi && self.n == 4 && self.p.iter().all(|p| p.riichi) {
                return Ok(Some(self.abort(Outcome::SuuchaRiichi)));
            }
        }
        if self.rules.abort_suufon_renda && self.n == 4 && self.discards == 4 && self.uninterrupted && self.first_winds != 0 {
            return Ok(Some(self.abort(Outcome::SuufonRenda)));
        }
        if self.suukaikan_pending {
            return Ok(Some(self.abort(Outcome::Suukaikan)));
        }
        let Some((caller, action)) = call else {
            *next = Next::Draw { seat: self.after(seat, 1), rinshan: false };
            return Ok(None);
        };
        self.log_action(caller, action, Some(tile));
        self.p[seat].river_called = true;
        self.uninterrupted = false;
        self.clear_ippatsu();
        let own: Vec<u8> = match action {
            Action::Pon { tiles } | Action::Chi { tiles } => tiles.to_vec(),
            _ => self.hidden[caller].hand.iter().copied().filter(|&t| t / 4 == k).collect(),
        };
        let mut tiles = [0u8; 4];
        tiles[0] = tile;
        for (i, &t) in own.iter().enumerate() {
            self.hidden[caller].remove(t);
            self.log(Some(caller as u8), EventKind::IntoMeld, Some(t));
            self.seen[usize::from(t / 4)] += 1;
            tiles[i + 1] = t;
        }
        let kind = match action {
            Action::Pon { .. } => MeldKind::Pon,
            Action::Chi { .. } => MeldKind::Chi,
            _ => MeldKind::Daiminkan,
        };
        self.p[caller].melds.push(MeldRec { kind, tiles, n: own.len() as u8 + 1, called: Some(tile), from: seat as u8 });
        self.set_pao(caller, seat, kind);
        match action {
            Action::Pon { tiles } | Action::Chi { tiles } => {
                self.hidden[caller].kuikae = self.kuikae_mask(tile, tiles, kind == MeldKind::Chi);
                *next = Next::AfterCall { seat: caller };
            }
            _ => {
                self.declare_kan(caller);
                self.open_kan_dora();
                self.daiminkan_from = Some(seat as u8);
                *next = Next::Draw { seat: caller, rinshan: true };
            }
        }
        Ok(None)
    }
}
