//! Hand planning by the rules (knob `yaku_plan`): which hands can still win legally under the
//! rules played — the least han of yaku (`min_han`, `ryanhan_shibari`), open tanyao (`kuitan`),
//! sakizuke and kansaki — judged by the hand evaluator itself once the hand is ready, and by a
//! cheap reachability test of the common open yaku before that.
//!
//! A hand's yaku path, from the seat's view only:
//! - ready: some wait wins legally by ron or tsumo (the evaluator, with riichi when the hand is in
//!   or will declare riichi; chance yaku — haitei, houtei, rinshan, chankan — and furiten aside);
//! - closed and not ready: riichi and menzen tsumo are always in reach;
//! - open and not ready: the han in reach from value honors (melds, and pairs that a pon or a draw
//!   can complete), tanyao (with kuitan, every meld simple), half flush and all triplets, each
//!   counted when the concealed tiles off its path are at most the shanten + 1 (the draws still to
//!   come can replace them), reach the han the rules require now.

use super::actions::{Action, View};
use super::hand::{self, WinInput};
use super::scoring::scored_meld;
use super::state::MeldRec;
use super::tiles::{is_yaochu, Counts, Kind, MeldKind, Tile, KINDS};
use super::yaku::Situation;

/// The seat's hand as planned: its view, with a meld it is weighing calling.
#[derive(Clone, Copy)]
pub struct Plan<'v, 'a> {
    pub v: &'v View<'a>,
    pub call: Option<MeldRec>,
}

impl<'v, 'a> Plan<'v, 'a> {
    pub fn new(v: &'v View<'a>) -> Self {
        Plan { v, call: None }
    }

    fn melds(&self) -> impl Iterator<Item = &MeldRec> + '_ {
        self.v.seats[self.v.seat].melds.iter().chain(self.call.as_ref())
    }

    /// No open meld (closed kans keep a hand closed).
    pub fn closed(&self) -> bool {
        self.melds().all(|m| m.kind == MeldKind::Ankan)
    }

    /// Han of yaku a win needs now.
    pub fn needed(&self) -> u8 {
        hand::min_han(self.v.rules, self.v.progress.honba)
    }

    /// Han of the value honor `k` as a set for this seat (double winds 2), 0 for others.
    pub fn honor_han(&self, k: Kind) -> u8 {
        let v = self.v;
        if k < 27 {
            return 0;
        }
        if k >= 31 {
            return 1;
        }
        let north = k == 30 && v.rules.north_value();
        u8::from(k == v.round_wind()) + u8::from(k == v.seat_wind(v.seat)) + u8::from(north)
    }

    /// The evaluator's input for a win on `win` with the concealed part `c` (3n+1 tiles, without
    /// the winning tile), red fives as plain tiles.
    fn input(&self, c: &Counts, win: Kind, tsumo: bool, riichi: bool, dora: bool) -> WinInput {
        let v = self.v;
        let p = &v.seats[v.seat];
        let mut tiles = Vec::with_capacity(14);
        for (k, &n) in c.iter().enumerate() {
            tiles.extend(std::iter::repeat_n(Tile { kind: k as Kind, red: false }, usize::from(n)));
        }
        let win = Tile { kind: win, red: false };
        tiles.push(win);
        let situation = Situation {
            tsumo,
            riichi: riichi && !p.double_riichi,
            double_riichi: riichi && p.double_riichi,
            open_riichi: p.open_riichi,
            round_wind: v.round_wind(),
            seat_wind: v.seat_wind(v.seat),
            ..Situation::default()
        };
        let indicators = if dora {
            v.dora_indicators.iter().filter(|&&t| t < 136).map(|&t| Tile { kind: t / 4, red: false }).collect()
        } else {
            Vec::new()
        };
        WinInput {
            hand: tiles,
            win: Some(win),
            melds: self.melds().map(|m| scored_meld(v.rules, m, v.seat, v.n)).collect(),
            situation,
            dora: indicators,
            ura: Vec::new(),
            honba: v.progress.honba,
            deposits: 0,
            nukidora: 0,
            flower_yaku: 0,
        }
    }

    /// Whether the ready hand `c` (3n+1 tiles, waits `waits`) wins legally on some wait by ron or
    /// by tsumo, `riichi` counted.
    pub fn legal_win(&self, c: &Counts, waits: u64, riichi: bool) -> bool {
        let rules = self.v.rules;
        // Menzen tsumo is a yaku of every closed hand.
        if self.closed() && self.needed() <= 1 + u8::from(riichi) && rules.atozuke {
            return true;
        }
        // Value honor sets melded are yaku on every wait.
        let melded: u8 = self.melds().filter(|m| m.kind != MeldKind::Chi).map(|m| self.honor_han(m.base())).sum();
        if melded >= self.needed() && rules.atozuke && !rules.kansaki {
            return true;
        }
        // A tsumo adds a yaku only to a closed hand (chance yaku aside).
        let ways: &[bool] = if self.closed() { &[false, true] } else { &[false] };
        (0..KINDS)
            .filter(|&k| waits >> k & 1 == 1)
            .any(|k| ways.iter().any(|&tsumo| hand::score(&self.input(c, k as Kind, tsumo, riichi, false), rules).is_ok()))
    }

    /// The most han (dora included) a ron on some wait of the ready hand `c` gives, or `None` when
    /// no ron wins legally.
    pub fn ron_han(&self, c: &Counts, waits: u64, riichi: bool) -> Option<u32> {
        (0..KINDS)
            .filter(|&k| waits >> k & 1 == 1)
            .filter_map(|k| hand::score(&self.input(c, k as Kind, false, riichi, true), self.v.rules).ok())
            .map(|s| s.han)
            .max()
    }

    /// The han of open yaku in reach of the open hand `c` (3n+1 concealed tiles) at shanten `sh`
    /// (see the module doc).
    pub fn open_han(&self, c: &Counts, sh: i8) -> u8 {
        let rules = self.v.rules;
        let allow = u32::try_from(sh.max(0)).unwrap_or(0) + 1;
        let tiles = |m: &MeldRec| m.tiles[..usize::from(m.n)].iter().map(|&t| t / 4).collect::<Vec<Kind>>();
        let mut value = 0u8;
        let mut melds = 0usize;
        let mut simple = rules.kuitan;
        let mut triplets = true;
        // Suits of the melds (bit per suit), and whether a meld holds an honor.
        let mut suits = 0u8;
        for m in self.melds() {
            melds += 1;
            let ks = tiles(m);
            let base = m.base();
            if m.kind != MeldKind::Chi {
                value += self.honor_han(base);
            } else {
                triplets = false;
            }
            simple &= ks.iter().all(|&k| !is_yaochu(k));
            if base < 27 {
                suits |= 1 << (base / 9);
            }
        }
        let count = |f: &dyn Fn(usize) -> bool| (0..KINDS).filter(|&k| f(k)).map(|k| u32::from(c[k])).sum::<u32>();
        value += (27..KINDS).filter(|&k| c[k] >= 2).map(|k| self.honor_han(k as Kind)).sum::<u8>();
        let tanyao = u8::from(simple && count(&|k| is_yaochu(k as Kind)) <= allow);
        let flush = (0..3u8).filter(|&s| suits & !(1 << s) == 0).any(|s| count(&|k| k < 27 && k / 9 != usize::from(s)) <= allow);
        let pairs = (0..KINDS).filter(|&k| c[k] >= 2).count();
        let toitoi = triplets && pairs > 4 - melds.min(4);
        let extra = 2 * u8::from(toitoi);
        (value + 2 * u8::from(flush) + extra).max(tanyao + extra)
    }

    /// Whether the 3n+1-tile concealed part `c` at shanten `sh` keeps a yaku path (see the module
    /// doc); `riichi`: the hand is in riichi or declares it with this discard.
    pub fn has_path(&self, c: &Counts, sh: i8, riichi: bool) -> bool {
        if sh == 0 {
            return self.legal_win(c, super::actions::wait_mask(c), riichi);
        }
        self.closed() || self.open_han(c, sh) >= self.needed()
    }
}

/// Whether riichi with a discard of `kind` would be a foul under the rules (then the native policy
/// stays dama: it never commits a chombo by choice).
pub fn foul_riichi(v: &View<'_>, kind: usize) -> bool {
    let p = &v.seats[v.seat];
    let mut c = v.own.counts;
    c[kind] -= 1;
    v.riichi_foul(&c, p.river_kinds | 1 << kind, Some(kind as Kind))
}

/// Whether `legal` offers riichi with a discard of `kind` that is no foul.
pub fn riichi_offered(v: &View<'_>, legal: &[Action], kind: usize) -> bool {
    legal.iter().any(|a| matches!(*a, Action::Discard { tile, riichi: true } if usize::from(tile / 4) == kind)) && !foul_riichi(v, kind)
}
