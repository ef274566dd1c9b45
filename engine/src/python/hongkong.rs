//! Hong Kong mahjong entry points: scoring one hand, and batches in which some lineup slots are
//! Python strategies (the protocol is documented in `simharness/games/hongkong/python.py`).

use super::{option_error, parse_json, PySlots, Slotted};
use crate::game::{resolve_preset, Batch};
use crate::games::hongkong::actions::{Claim, Decision, Hook, View};
use crate::games::hongkong::batch::play_tables;
use crate::games::hongkong::hand::{HkMeld, Limit, Value};
use crate::games::hongkong::rules::{presets, Rules};
use crate::games::hongkong::scoring::{score_report, ScoreRequest};
use crate::games::hongkong::show::show_with;
use crate::games::hongkong::strategies::Knobs;
use crate::games::hongkong::HongKong;
use crate::games::riichi::tiles::{Counts, MeldKind, KINDS};
use crate::options::OptionError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use std::cell::RefCell;

/// JSON report of one hand (see `scoring::score_report`); `rules` is a JSON object of rule
/// overrides on `preset`. Bad tiles, counts or options raise `ValueError((field, message))`.
#[pyfunction]
#[pyo3(signature = (hand, win, melds, self_draw, seat_wind="E", round_wind="E", flowers="", seasons="", last_tile=false, replacement=false, robbing_kong=false, heavenly=false, earthly=false, kong_on_kong=false, preset="default", rules="{}"))]
#[allow(clippy::too_many_arguments)]
fn hongkong_score(
    hand: &str,
    win: &str,
    melds: Vec<String>,
    self_draw: bool,
    seat_wind: &str,
    round_wind: &str,
    flowers: &str,
    seasons: &str,
    last_tile: bool,
    replacement: bool,
    robbing_kong: bool,
    heavenly: bool,
    earthly: bool,
    kong_on_kong: bool,
    preset: &str,
    rules: &str,
) -> PyResult<String> {
    let rules: Rules = resolve_preset(&presets(), preset, &parse_json("rules", rules)?).map_err(option_error)?;
    let req = ScoreRequest {
        hand,
        win,
        melds: &melds,
        self_draw,
        seat_wind,
        round_wind,
        flowers,
        seasons,
        last_tile,
        replacement,
        robbing_kong,
        heavenly,
        earthly,
        kong_on_kong,
    };
    let report = score_report(&rules, &req).map_err(|e| option_error(OptionError::new(e.field, e.message)))?;
    Ok(report.to_string())
}

/// Python strategies for some lineup slots (`PySlots`; in a cell, since Hong Kong's hook is
/// shared by the seats); the first failure is kept and stops the batch.
struct PyHook<'py> {
    slots: RefCell<PySlots<'py>>,
}

/// Kinds as u16 so that they reach Python as lists of ints, not bytes.
fn kinds(c: &Counts) -> Vec<u16> {
    (0..KINDS as u16).flat_map(|k| std::iter::repeat_n(k, usize::from(c[usize::from(k)]))).collect()
}

fn numbers(bits: u8) -> Vec<u8> {
    (1..=4).filter(|n| bits >> (n - 1) & 1 == 1).collect()
}

fn melds<'py>(py: Python<'py>, ms: &[HkMeld]) -> PyResult<Bound<'py, PyList>> {
    let out = PyList::empty(py);
    for m in ms {
        let name = match m.kind {
            MeldKind::Chi => "chow",
            MeldKind::Pon => "pung",
            MeldKind::Ankan => "concealed_kong",
            _ => "kong",
        };
        out.append((name, m.tiles().map(u16::from).collect::<Vec<u16>>()))?;
    }
    Ok(out)
}

fn win<'py>(py: Python<'py>, v: &Value) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("fan", v.fan)?;
    d.set_item("counted_fan", v.counted_fan)?;
    d.set_item("base", v.base)?;
    d.set_item("limit", v.limit.map(Limit::name))?;
    d.set_item("items", v.items.iter().map(|&(i, f)| (i.name(), f)).collect::<Vec<_>>())?;
    Ok(d)
}

fn view<'py>(py: Python<'py>, v: &View, decision: &Decision) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let (point, tile) = match *decision {
        Decision::SelfDraw { value, tile } => {
            d.set_item("win", win(py, value)?)?;
            ("tsumo", Some(tile))
        }
        Decision::WinOn { value, tile } => {
            d.set_item("win", win(py, value)?)?;
            ("ron", Some(tile))
        }
        Decision::Claim { tile, .. } => ("claim", Some(tile)),
        Decision::Kong { .. } => ("kong", None),
        Decision::Discard => ("discard", None),
    };
    d.set_item("point", point)?;
    d.set_item("tile", tile.map(u16::from))?;
    d.set_item("from", v.turn)?;
    d.set_item("seat", v.seat)?;
    d.set_item("dealer", v.dealer)?;
    d.set_item("round_wind", v.round_wind)?;
    d.set_item("seat_wind", (v.seat + 4 - v.dealer) % 4)?;
    d.set_item("hand", kinds(v.concealed))?;
    let all = PyList::empty(py);
    for ms in v.all_melds {
        all.append(melds(py, ms)?)?;
    }
    d.set_item("melds", all)?;
    d.set_item("rivers", v.rivers.iter().map(|r| r.iter().map(|&k| u16::from(k)).collect::<Vec<u16>>()).collect::<Vec<_>>())?;
    d.set_item("visible", v.visible.iter().map(|&n| u16::from(n)).collect::<Vec<u16>>())?;
    d.set_item("flowers", v.bonus.map(|b| numbers(b.0)))?;
    d.set_item("seasons", v.bonus.map(|b| numbers(b.1)))?;
    d.set_item("points", v.points)?;
    d.set_item("live", v.live)?;
    Ok(d)
}

/// The choices of `decision` as the protocol's `legal` entries: `(name,)` or `(name, kind)`.
fn legal(v: &View, decision: &Decision) -> Vec<(&'static str, Option<u16>)> {
    match *decision {
        Decision::SelfDraw { .. } => vec![("tsumo", None), ("pass", None)],
        Decision::WinOn { .. } => vec![("ron", None), ("pass", None)],
        Decision::Claim { legal, .. } => legal
            .iter()
            .map(|c| match *c {
                Claim::Kong => ("kong", None),
                Claim::Pung => ("pung", None),
                Claim::Chow { base } => ("chow", Some(u16::from(base))),
            })
            .chain([("pass", None)])
            .collect(),
        Decision::Kong { legal } => legal.iter().map(|&k| ("kong", Some(u16::from(k)))).chain([("pass", None)]).collect(),
        Decision::Discard => (0..KINDS as u16).filter(|&k| v.concealed[usize::from(k)] > 0).map(|k| ("discard", Some(k))).collect(),
    }
}

impl Hook for PyHook<'_> {
    fn decide(&self, slot: u8, v: &View, decision: &Decision) -> Option<usize> {
        let point = match decision {
            Decision::SelfDraw { .. } => "tsumo",
            Decision::WinOn { .. } => "ron",
            Decision::Claim { .. } => "claim",
            Decision::Kong { .. } => "kong",
            Decision::Discard => "discard",
        };
        self.slots.borrow_mut().ask(slot, usize::from(v.seat), point, |py| view(py, v, decision), &legal(v, decision))
    }

    fn failed(&self) -> bool {
        self.slots.borrow().failed()
    }
}

impl<'py> Slotted<'py> for PyHook<'py> {
    fn slots(&mut self) -> &mut PySlots<'py> {
        self.slots.get_mut()
    }
}

python_entry_points!(
    HongKong,
    play_python,
    |slots, _: &Rules| Ok(PyHook { slots: RefCell::new(slots) }),
    |rules: &Rules, lineup: &[Knobs], batch: &Batch, hook: &mut PyHook<'_>| play_tables(rules, lineup, batch, Some(&*hook)),
    |rules: &Rules, lineup: &[Knobs], batch: &Batch, hook: &mut PyHook<'_>| show_with(rules, lineup, batch, Some(&*hook))
);

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(hongkong_score, m)?)
}
