//! PyO3 entry points of the Riichi game engine beyond the generic batch: replay of recorded hands,
//! and batches in which some lineup slots are Python strategies.
//!
//! The Python strategy protocol: an object with `decide(view: dict, legal: list[tuple]) -> int`,
//! called only at decision points that offer a choice, returning the index of the chosen legal
//! action. Actions are tuples: `("discard", tile, riichi)`, `("tsumo",)`, `("ankan", kind)`,
//! `("kakan", tile)`, `("kyuushu",)`, `("pass",)`, `("ron",)`, `("pon", (t1, t2))`,
//! `("chi", (t1, t2))`, `("kan",)`, `("nuki", tile)`, with Tenhou tile ids (kind = id // 4;
//! flowers 136–143). A Python strategy is a [`Player`] like the native ones and sees what its
//! seat's [`View`] holds; the points the protocol does not ask (a noten claim, an open riichi,
//! yame) are answered by the slot's knobs. The view holds `seat`,
//! `point` ("turn" or "response"), `after_call`, `from` and `tile` (responses), `hand`, `melds`
//! (per seat: lists of (type, tiles)), `rivers`, `riichi`, `points`, `nuki` (extracted tiles per
//! seat), `dora_indicators`, `round`,
//! `honba`, `sticks`, `dealer`, `live_remaining` and `shanten` (of the own hand).

use super::{chosen_index, option_error, parse_json, PySlots, Slotted};
use crate::decide::{Fault, Outside, Player, PlayerError};
use crate::game::Batch;
use crate::games::riichi::actions::{Action, Point, View};
use crate::games::riichi::batch::play_tables;
use crate::games::riichi::rules::Rules;
use crate::games::riichi::show::show_with;
use crate::games::riichi::strategies::{knob_answer, Knobs};
use crate::games::riichi::{replay, rules, shanten, Riichi};
use crate::options::OptionError;
use crate::table::Table;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};
use std::cell::RefCell;

/// Replays one recorded hand (JSON, see `games::riichi::replay`) under the rules of `preset` with
/// `overrides` (JSON object); returns the engine's result as JSON.
#[pyfunction]
fn riichi_replay_hand(preset: &str, overrides: &str, hand: &str) -> PyResult<String> {
    let rules = rules::resolve(preset, &parse_json("rules", overrides)?).map_err(option_error)?;
    let hand = parse_json("hand", hand)?;
    replay::replay_hand(&rules, &hand).map(|v| v.to_string()).map_err(|e| option_error(OptionError::new("hand", e)))
}

/// A lineup slot played by a Python object: it asks through the batch's [`PySlots`], which all
/// the slots' players share (one at a time: a table's decisions come one after another).
struct PyPlayer<'s, 'py, 'k> {
    slots: &'s RefCell<PySlots<'py>>,
    slot: u8,
    knobs: &'k Knobs,
}

fn action_tuple<'py>(py: Python<'py>, a: Action) -> PyResult<Bound<'py, PyTuple>> {
    Ok(match a {
        Action::Discard { tile, riichi } => ("discard", tile, riichi).into_pyobject(py)?.into_any(),
        Action::Tsumo => ("tsumo",).into_pyobject(py)?.into_any(),
        Action::Ankan { kind } => ("ankan", kind).into_pyobject(py)?.into_any(),
        Action::Kakan { tile } => ("kakan", tile).into_pyobject(py)?.into_any(),
        Action::Kyuushu => ("kyuushu",).into_pyobject(py)?.into_any(),
        Action::Pass => ("pass",).into_pyobject(py)?.into_any(),
        Action::Ron => ("ron",).into_pyobject(py)?.into_any(),
        Action::Pon { tiles } => ("pon", (tiles[0], tiles[1])).into_pyobject(py)?.into_any(),
        Action::Chi { tiles } => ("chi", (tiles[0], tiles[1])).into_pyobject(py)?.into_any(),
        Action::Daiminkan => ("kan",).into_pyobject(py)?.into_any(),
        Action::Nuki { tile } => ("nuki", tile).into_pyobject(py)?.into_any(),
        // Never offered to a Python strategy: its knobs answer those points.
        Action::DeclareNoten => ("noten",).into_pyobject(py)?.into_any(),
        Action::OpenRiichi => ("open",).into_pyobject(py)?.into_any(),
        Action::Yame => ("yame",).into_pyobject(py)?.into_any(),
    }
    .cast_into::<PyTuple>()?)
}

fn view<'py>(py: Python<'py>, v: &View<'_>, point: Point) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("seat", v.seat)?;
    d.set_item("point", point.name())?;
    match point {
        Point::Turn { after_call } => d.set_item("after_call", after_call)?,
        Point::Response { from, tile, kan } => {
            d.set_item("from", from)?;
            d.set_item("tile", tile)?;
            d.set_item("kan", kan)?;
        }
        Point::Noten { .. } | Point::OpenRiichi | Point::Yame => {}
    }
    // Tile lists as u16 so that they reach Python as lists of ints, not bytes.
    let ids = |v: &[u8]| v.iter().map(|&t| u16::from(t)).collect::<Vec<u16>>();
    let sorted = |v: &[u8]| {
        let mut h = ids(v);
        h.sort_unstable();
        h
    };
    d.set_item("hand", sorted(&v.own.hand))?;
    let seated = &v.seats[..v.n];
    let melds = PyList::empty(py);
    for p in seated {
        let ms: Vec<(&str, Vec<u16>)> = p.melds.iter().map(|m| (m.kind.name(), ids(&m.tiles[..usize::from(m.n)]))).collect();
        melds.append(ms)?;
    }
    d.set_item("melds", melds)?;
    d.set_item("rivers", seated.iter().map(|p| ids(&p.river)).collect::<Vec<_>>())?;
    d.set_item("riichi", seated.iter().map(|p| p.riichi).collect::<Vec<_>>())?;
    // An open riichi (local yaku open_riichi) shows its concealed tiles to everyone.
    d.set_item("open_hands", v.shown[..v.n].iter().map(|s| s.map(|s| sorted(s.hand))).collect::<Vec<_>>())?;
    d.set_item("points", seated.iter().map(|p| p.points).collect::<Vec<_>>())?;
    d.set_item("nuki", seated.iter().map(|p| ids(&p.nuki)).collect::<Vec<_>>())?;
    d.set_item("dora_indicators", ids(v.dora_indicators))?;
    d.set_item("round", v.progress.round)?;
    d.set_item("honba", v.progress.honba)?;
    d.set_item("sticks", v.progress.sticks)?;
    d.set_item("dealer", v.dealer)?;
    d.set_item("live_remaining", v.live_remaining)?;
    d.set_item("shanten", shanten::shanten(&v.own.counts))?;
    Ok(d)
}

impl Player<Riichi> for PyPlayer<'_, '_, '_> {
    fn decide(&mut self, v: &View<'_>, point: Point, legal: &[Action]) -> Result<Action, Fault> {
        if let Some(a) = knob_answer(self.knobs, v, point) {
            return Ok(a);
        }
        let args = |py| {
            let options = PyList::empty(py);
            for &a in legal {
                options.append(action_tuple(py, a)?)?;
            }
            PyTuple::new(py, [view(py, v, point)?.into_any(), options.into_any()])
        };
        let answer = self.slots.borrow_mut().decide(self.slot, v.seat, point.name(), args, |r| chosen_index(r, legal.len()));
        // A failure stops the game at once; the slots keep the strategy's exception, told where.
        answer.flatten().map(|i| legal[i]).ok_or_else(|| Fault::Failed(format!("Python strategy of lineup slot {}", self.slot)))
    }
}

/// Riichi's hook: the slots behind a cell, so that each Python slot's [`PyPlayer`] can ask
/// through them while the batch holds the players.
impl<'py> Slotted<'py> for RefCell<PySlots<'py>> {
    fn slots(&mut self) -> &mut PySlots<'py> {
        self.get_mut()
    }
}

/// Plays `batch` through `play` (a batch or a shown game) with a [`PyPlayer`] in each slot that
/// `slots` claims.
fn with_players(
    rules: &Rules,
    lineup: &[Knobs],
    batch: &Batch,
    slots: &RefCell<PySlots<'_>>,
    play: impl FnOnce(&Rules, &[Knobs], &Batch, &mut Outside<'_, Riichi>) -> Result<Vec<Table>, PlayerError>,
) -> Result<Vec<Table>, String> {
    let mut players: Vec<Option<PyPlayer>> = lineup
        .iter()
        .enumerate()
        .map(|(slot, knobs)| {
            let slot = slot as u8;
            slots.borrow().claims(slot).then_some(PyPlayer { slots, slot, knobs })
        })
        .collect();
    let mut outside: Vec<Option<&mut dyn Player<Riichi>>> = players.iter_mut().map(|p| p.as_mut().map(|p| p as _)).collect();
    play(rules, lineup, batch, &mut outside).map_err(|e| e.to_string())
}

python_entry_points!(
    Riichi,
    riichi_play_batch_python,
    riichi_show_python,
    |slots, _: &Rules| Ok(RefCell::new(slots)),
    |rules, lineup, batch, slots| with_players(rules, lineup, batch, slots, play_tables),
    |rules, lineup, batch, slots| with_players(rules, lineup, batch, slots, show_with)
);

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(riichi_replay_hand, m)?)?;
    m.add_function(wrap_pyfunction!(riichi_play_batch_python, m)?)?;
    m.add_function(wrap_pyfunction!(riichi_show_python, m)?)?;
    Ok(())
}
