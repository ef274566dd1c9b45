//! Replay of a recorded hand: the engine plays the recorded wall with every decision taken from
//! the record, refusing any recorded action it does not find legal, and reports what it computed
//! (outcome, wins, point changes, the next hand's state) for comparison with the record.
//!
//! A hand arrives as JSON: `round` (the engine's: dealer rotations), `honba`, `sticks`, `points`
//! (one per seat), the tiles as recorded — `hands` (each seat's 13 dealt Tenhou ids, by absolute
//! seat), `draws` (the live wall's tiles in the order drawn), `rinshan` (the replacement tiles in
//! the order drawn), `dora` and `ura` (indicators) — and `actions`, each an object with `t` one of
//! `discard` (`who`, `tile`, `riichi`), `pon`/`chi` (`who`, `tiles`: the two own tiles), `kan`
//! (`who`: daiminkan), `ankan` (`who`, `kind`), `kakan` (`who`, `tile`), `nuki` (`who`, `tile`:
//! a flower or sanma North set aside), `tsumo` (`who`), `ron` (`who`, `from`), `kyuushu` (`who`)
//! or `ron3` (every player able to ron does: 三家和). The engine puts the recorded tiles where its
//! own wall layout (§3.3, `rules`) has them and the set's other tiles in id order. The result
//! holds the hand's `events` as the `events` table logs them (`[seat, kind, tile]`).

use super::actions::{Action, Point, View};
use super::rules::Rules;
use super::scoring::Outcome;
use super::state::{Progress, State};
use super::strategies::{knob_answer, Knobs};
use super::wall::{dealt_at, tile_set};
use super::Riichi;
use crate::decide::{Fault, Player};
use serde_json::{json, Value};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Rec {
    Act(u8, Action),
    Ron(u8, u8),
    Ron3,
}

struct Script {
    recs: Vec<Rec>,
    next: usize,
}

impl Script {
    fn peek(&self) -> Option<Rec> {
        self.recs.get(self.next).copied()
    }

    /// The recorded rons that follow (a multiple ron is several `ron` records in a row).
    fn rons(&self) -> impl Iterator<Item = Rec> + '_ {
        self.recs[self.next..].iter().copied().take_while(|r| matches!(r, Rec::Ron(..) | Rec::Ron3))
    }
}

impl Player<Riichi> for Script {
    fn decide(&mut self, v: &View<'_>, point: Point, legal: &[Action]) -> Result<Action, Fault> {
        let seat = v.seat;
        let here = |a: Action| format!("{a:?} by seat {seat}");
        match point {
            Point::Turn { .. } => match self.peek() {
                Some(Rec::Act(who, a)) if usize::from(who) == seat && !a.is_call() => {
                    self.next += 1;
                    Ok(a)
                }
                Some(Rec::Ron(who, from)) if who == from && usize::from(who) == seat => {
                    self.next += 1;
                    Ok(Action::Tsumo)
                }
                other => Err(Fault::Illegal(format!(
                    "seat {seat} is to act after {} discards but the record's next action is {other:?}",
                    v.discards
                ))),
            },
            Point::Response { from, .. } => {
                for r in self.rons() {
                    match r {
                        Rec::Ron(who, f) if usize::from(who) == seat && f == from => return Ok(Action::Ron),
                        Rec::Ron3 if legal.contains(&Action::Ron) => return Ok(Action::Ron),
                        _ => {}
                    }
                }
                if let Some(Rec::Act(who, a)) = self.peek() {
                    if usize::from(who) == seat && a.is_call() {
                        if !legal.iter().any(|&l| same_call(v, l, a)) {
                            return Err(Fault::Illegal(format!("{} is not legal; legal: {legal:?}", here(a))));
                        }
                        self.next += 1;
                        return Ok(a);
                    }
                }
                Ok(Action::Pass)
            }
            // What a record does not hold (a noten claim, an open riichi, yame) is answered as the
            // default knobs answer it.
            Point::Noten { .. } | Point::OpenRiichi | Point::Yame => Ok(knob_answer(&Knobs::default(), v, point).unwrap_or(Action::Pass)),
        }
    }
}

/// Calls compare by the red/plain make-up of the own tiles, not by tile ids.
fn same_call(v: &View<'_>, a: Action, b: Action) -> bool {
    let norm = |t: [u8; 2]| {
        let mut v = t.map(|x| if v.is_red(x) { 200 + x / 4 } else { x / 4 });
        v.sort_unstable();
        v
    };
    match (a, b) {
        (Action::Pon { tiles: x }, Action::Pon { tiles: y }) | (Action::Chi { tiles: x }, Action::Chi { tiles: y }) => norm(x) == norm(y),
        _ => a == b,
    }
}

fn field<'v>(v: &'v Value, key: &str) -> Result<&'v Value, String> {
    v.get(key).ok_or_else(|| format!("missing `{key}`"))
}

fn uint(v: &Value, key: &str) -> Result<u64, String> {
    field(v, key)?.as_u64().ok_or_else(|| format!("`{key}` must be a non-negative integer"))
}

fn tile(v: &Value, key: &str) -> Result<u8, String> {
    let t = uint(v, key)?;
    if t < 136 {
        Ok(t as u8)
    } else {
        Err(format!("`{key}` must be a tile id 0–135, got {t}"))
    }
}

fn parse_action(v: &Value, seats: usize) -> Result<Rec, String> {
    let t = field(v, "t")?.as_str().ok_or("`t` must be a string")?;
    if t == "ron3" {
        return Ok(Rec::Ron3);
    }
    let who = uint(v, "who")?;
    if who >= seats as u64 {
        return Err(format!("`who` must be a seat 0–{}, got {who}", seats - 1));
    }
    let who = who as u8;
    let pair = || -> Result<[u8; 2], String> {
        let a = field(v, "tiles")?.as_array().ok_or("`tiles` must be a list")?;
        match a.as_slice() {
            [x, y] => Ok([x.as_u64().unwrap_or(999) as u8, y.as_u64().unwrap_or(999) as u8]),
            _ => Err("`tiles` must hold the two own tiles".into()),
        }
    };
    let a = match t {
        "discard" => Action::Discard { tile: tile(v, "tile")?, riichi: v.get("riichi").and_then(Value::as_bool).unwrap_or(false) },
        "pon" => Action::Pon { tiles: pair()? },
        "chi" => Action::Chi { tiles: pair()? },
        "kan" => Action::Daiminkan,
        "ankan" => Action::Ankan { kind: uint(v, "kind")? as u8 },
        "kakan" => Action::Kakan { tile: tile(v, "tile")? },
        "nuki" => Action::Nuki { tile: tile(v, "tile")? },
        "kyuushu" => Action::Kyuushu,
        "tsumo" => return Ok(Rec::Ron(who, who)),
        "ron" => return Ok(Rec::Ron(who, uint(v, "from")? as u8)),
        other => return Err(format!("unknown action `{other}`")),
    };
    Ok(Rec::Act(who, a))
}

/// A list of tile ids; `what` names it in errors.
fn id_list(list: &Value, what: &str) -> Result<Vec<u8>, String> {
    let list = list.as_array().ok_or_else(|| format!("`{what}` must be a list"))?;
    list.iter()
        .map(|x| x.as_u64().filter(|&t| t < 256).map(|t| t as u8).ok_or_else(|| format!("`{what}` holds tile ids, got {x}")))
        .collect()
}

fn ids(v: &Value, key: &str) -> Result<Vec<u8>, String> {
    id_list(field(v, key)?, key)
}

/// The wall the engine deals from, with the recorded tiles where its layout draws them. A tile
/// outside the set, a tile recorded twice or more tiles than the layout has room for is `Err`.
fn build_wall(state: &State<'_>, dealer: usize, hand: &Value) -> Result<Vec<u8>, String> {
    let rules = state.rules;
    let (n, count) = (state.n, rules.tile_count());
    let set = &tile_set(rules)[..count];
    let mut wall: Vec<Option<u8>> = vec![None; count];
    let mut used = [false; 256];
    let mut place = |pos: usize, id: u8, what: &str| -> Result<(), String> {
        if !set.contains(&id) {
            return Err(format!("{what}: tile {id} is not in the set of these rules ({count} tiles)"));
        }
        if used[usize::from(id)] {
            return Err(format!("{what}: tile {id} is recorded twice"));
        }
        match wall.get_mut(pos) {
            Some(slot @ None) => *slot = Some(id),
            _ => return Err(format!("{what}: the wall of these rules has no room for tile {id} (position {pos})")),
        }
        used[usize::from(id)] = true;
        Ok(())
    };
    let hands = field(hand, "hands")?.as_array().ok_or("`hands` must be a list")?;
    if hands.len() != n {
        return Err(format!("`hands` must hold {n} hands (one per seat), got {}", hands.len()));
    }
    for (seat, h) in hands.iter().enumerate() {
        let tiles = id_list(h, &format!("hands[{seat}]"))?;
        if tiles.len() != 13 {
            return Err(format!("hands[{seat}] must hold 13 tiles, got {}", tiles.len()));
        }
        for (k, &id) in tiles.iter().enumerate() {
            place(dealt_at(n, (seat + n - dealer) % n, k), id, &format!("hands[{seat}]"))?;
        }
    }
    for (j, id) in ids(hand, "draws")?.into_iter().enumerate() {
        if 13 * n + j >= state.dead {
            return Err(format!("draws: {} live draws, the live wall of these rules holds {}", j + 1, state.dead - 13 * n));
        }
        place(13 * n + j, id, "draws")?;
    }
    for (j, id) in ids(hand, "rinshan")?.into_iter().enumerate() {
        place(state.rinshan_at(j), id, "rinshan")?;
    }
    for (j, id) in ids(hand, "dora")?.into_iter().enumerate() {
        place(state.indicator_at(j), id, "dora")?;
    }
    for (j, id) in ids(hand, "ura")?.into_iter().enumerate() {
        place(state.indicator_at(j) + 1, id, "ura")?;
    }
    let mut rest = set.iter().copied().filter(|&id| !used[usize::from(id)]);
    Ok(wall.into_iter().map(|t| t.or_else(|| rest.next()).expect("as many tiles as places")).collect())
}

/// Plays one recorded hand. The error of a malformed request is `Err`; a hand whose tiles do not
/// fit the wall of these rules, or an action the engine refuses, is reported in the result
/// (`error`).
pub fn replay_hand(rules: &Rules, hand: &Value) -> Result<Value, String> {
    let n = rules.seats();
    let points = field(hand, "points")?.as_array().ok_or("`points` must be a list")?;
    if points.len() != n {
        return Err(format!("`points` must hold {n} integers (one per seat), got {}", points.len()));
    }
    let recs = field(hand, "actions")?
        .as_array()
        .ok_or("`actions` must be a list")?
        .iter()
        .map(|a| parse_action(a, n))
        .collect::<Result<Vec<_>, _>>()?;
    let progress = Progress {
        round: uint(hand, "round")? as u32,
        honba: uint(hand, "honba")? as u32,
        sticks: uint(hand, "sticks")? as u32,
        repeat: 0,
    };
    let mut state = State::new(rules);
    for (p, v) in state.p.iter_mut().zip(points) {
        p.points = v.as_i64().ok_or("`points` must hold integers")?;
    }
    let wall = match build_wall(&state, progress.round as usize % n, hand) {
        Ok(w) => w,
        Err(e) => return Ok(json!({"error": format!("the recorded tiles do not fit the wall: {e}")})),
    };
    state.events = Some(Vec::new());
    state.deal(&wall, progress);
    let mut script = Script { recs, next: 0 };
    let r = match state.play_hand(&mut script) {
        Ok(r) => r,
        Err(e) => return Ok(json!({"error": e.to_string()})),
    };
    let wins: Vec<Value> = r
        .wins
        .iter()
        .map(|w| {
            json!({
                "seat": w.seat, "from": w.from, "han": w.score.han, "fu": w.score.fu, "points": w.score.points,
                "yaku": w.score.yaku(rules).iter().map(|(y, h)| json!([y.name(), h])).collect::<Vec<_>>(),
                "dora": w.score.dora, "aka": w.score.aka, "ura": w.score.ura, "nuki": w.score.nuki, "yakuman": w.score.yakuman,
                "pao": w.pao,
            })
        })
        .collect();
    let unplayed = script.recs.len() - script.next;
    // The hand as the `events` table logs it ([seat, kind, tile]), for exporters.
    let events: Vec<Value> = state
        .events
        .take()
        .unwrap_or_default()
        .iter()
        .map(|e| {
            let (seat, tile) = e.stored();
            json!([seat, e.kind as u8, tile])
        })
        .collect();
    let points_after: Vec<i64> = state.p[..n].iter().map(|p| p.points).collect();
    let over = match state.advance(&r, &mut script) {
        Ok(over) => over,
        Err(e) => return Ok(json!({"error": e.to_string()})),
    };
    Ok(json!({
        "error": if unplayed > 0 && !matches!(r.outcome, Outcome::Ron | Outcome::Sanchahou) {
            json!(format!("the hand ended ({}) with {unplayed} recorded actions left", r.outcome.label()))
        } else { Value::Null },
        "outcome": r.outcome.label(),
        "wins": wins,
        "deltas": &r.deltas[..n],
        "points": points_after,
        "tenpai": r.tenpai,
        "nagashi": r.nagashi,
        "next": {"round": state.progress.round, "honba": state.progress.honba, "sticks": state.progress.sticks},
        "game_over": over,
        "events": events,
    }))
}
