//! Replay of a recorded hand: the engine plays the recorded wall with every decision taken from
//! the record, refusing any recorded action it does not find legal, and reports what it computed
//! (outcome, wins, point changes, the next hand's state) for comparison with the record.
//!
//! A hand arrives as JSON: `round`, `honba`, `sticks`, `points` (4 seats), `wall` (136 Tenhou ids
//! in the §3.3 order) and `actions`, each an object with `t` one of `discard` (`who`, `tile`,
//! `riichi`), `pon`/`chi` (`who`, `tiles`: the two own tiles), `kan` (`who`: daiminkan), `ankan`
//! (`who`, `kind`), `kakan` (`who`, `tile`), `tsumo` (`who`), `ron` (`who`, `from`), `kyuushu`
//! (`who`) or `ron3` (every player able to ron does: 三家和). The result holds the hand's `events`
//! as the `events` table logs them (`[seat, kind, tile]`).

use super::actions::{Action, Decider, Point};
use super::rules::Rules;
use super::state::{Outcome, Progress, State, SEATS};
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

impl Decider for Script {
    fn decide(&mut self, s: &State<'_>, seat: usize, point: Point, legal: &[Action]) -> Result<Action, String> {
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
                other => Err(format!("seat {seat} is to act after {} discards but the record's next action is {other:?}", s.discards)),
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
                        if !legal.iter().any(|&l| same_call(s, l, a)) {
                            return Err(format!("{} is not legal; legal: {legal:?}", here(a)));
                        }
                        self.next += 1;
                        return Ok(a);
                    }
                }
                Ok(Action::Pass)
            }
        }
    }
}

/// Calls compare by the red/plain make-up of the own tiles, not by tile ids.
fn same_call(s: &State<'_>, a: Action, b: Action) -> bool {
    let norm = |t: [u8; 2]| {
        let mut v = t.map(|x| if s.is_red(x) { 200 + x / 4 } else { x / 4 });
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

fn parse_action(v: &Value) -> Result<Rec, String> {
    let t = field(v, "t")?.as_str().ok_or("`t` must be a string")?;
    if t == "ron3" {
        return Ok(Rec::Ron3);
    }
    let who = uint(v, "who")? as u8;
    if usize::from(who) >= SEATS {
        return Err(format!("`who` must be a seat 0–3, got {who}"));
    }
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
        "kyuushu" => Action::Kyuushu,
        "tsumo" => return Ok(Rec::Ron(who, who)),
        "ron" => return Ok(Rec::Ron(who, uint(v, "from")? as u8)),
        other => return Err(format!("unknown action `{other}`")),
    };
    Ok(Rec::Act(who, a))
}

/// Plays one recorded hand. The error of a malformed request is `Err`; an action the engine
/// refuses is reported in the result (`error`).
pub fn replay_hand(rules: &Rules, hand: &Value) -> Result<Value, String> {
    if rules.players != 4 || rules.flowers != 0 {
        return Err("replay takes four-player hands without flowers (rules players = 4, flowers = 0)".into());
    }
    let wall_v = field(hand, "wall")?.as_array().ok_or("`wall` must be a list")?;
    if wall_v.len() != 136 {
        return Err(format!("`wall` must hold 136 tiles, got {}", wall_v.len()));
    }
    let mut wall = [0u8; 136];
    let mut seen = [false; 136];
    for (i, x) in wall_v.iter().enumerate() {
        let t = x.as_u64().filter(|&t| t < 136).ok_or("`wall` holds tile ids 0–135")? as usize;
        if seen[t] {
            return Err(format!("`wall` holds tile {t} twice"));
        }
        seen[t] = true;
        wall[i] = t as u8;
    }
    let points = field(hand, "points")?.as_array().ok_or("`points` must be a list")?;
    let recs =
        field(hand, "actions")?.as_array().ok_or("`actions` must be a list")?.iter().map(parse_action).collect::<Result<Vec<_>, _>>()?;
    let progress = Progress {
        round: uint(hand, "round")? as u32,
        honba: uint(hand, "honba")? as u32,
        sticks: uint(hand, "sticks")? as u32,
        repeat: 0,
    };
    let mut state = State::new(rules);
    for (s, p) in state.p.iter_mut().enumerate() {
        p.points = points.get(s).and_then(Value::as_i64).ok_or("`points` must hold 4 integers")?;
    }
    state.events = Some(Vec::new());
    state.deal(&wall, progress);
    let mut script = Script { recs, next: 0 };
    let r = match state.play_hand(&mut script) {
        Ok(r) => r,
        Err(e) => return Ok(json!({"error": e})),
    };
    let wins: Vec<Value> = r
        .wins
        .iter()
        .map(|w| {
            json!({
                "seat": w.seat, "from": w.from, "han": w.score.han, "fu": w.score.fu, "points": w.score.points,
                "yaku": w.score.yaku(rules).iter().map(|(y, h)| json!([y.name(), h])).collect::<Vec<_>>(),
                "dora": w.score.dora, "aka": w.score.aka, "ura": w.score.ura, "yakuman": w.score.yakuman,
                "pao": if w.pao == super::state::NONE { Value::Null } else { json!(w.pao) },
            })
        })
        .collect();
    let unplayed = script.recs.len() - script.next;
    // The hand as the `events` table logs it ([seat, kind, tile]), for exporters.
    let events: Vec<Value> = state.events.take().unwrap_or_default().iter().map(|e| json!([e.seat, e.kind, e.tile])).collect();
    let points_after: Vec<i64> = state.p.iter().map(|p| p.points).collect();
    let over = state.advance(&r, &mut |s| s.dealer_is_top());
    Ok(json!({
        "error": if unplayed > 0 && !matches!(r.outcome, Outcome::Ron | Outcome::Sanchahou) {
            json!(format!("the hand ended ({}) with {unplayed} recorded actions left", Outcome::NAMES[r.outcome as usize]))
        } else { Value::Null },
        "outcome": Outcome::NAMES[r.outcome as usize],
        "wins": wins,
        "deltas": r.deltas,
        "points": points_after,
        "tenpai": r.tenpai,
        "nagashi": r.nagashi,
        "next": {"round": state.progress.round, "honba": state.progress.honba, "sticks": state.progress.sticks},
        "game_over": over,
        "events": events,
    }))
}
