//! Hong Kong mahjong entry points: scoring one hand, and batches in which some lineup slots are
//! Python strategies (the protocol is documented in `simharness/games/hongkong/python.py`).

use super::{checked_python_batch, chosen_index, option_error, parse_json, strategy_error, tables_to_python};
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
use crate::table::Table;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use std::cell::RefCell;

/// JSON report of one hand (see `scoring::score_report`); `rules` is a JSON object of rule
/// overrides on `preset`. Bad tiles, counts or options raise `ValueError((field, message))`.
#[pyfunction]
#[pyo3(signature = (hand, win, melds, self_draw, seat_wind="E", round_wind="E", flowers="", seasons="", last_tile=false, replacement=false, robbing_kong=false, heavenly=false, earthly=false, preset="default", rules="{}"))]
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
    };
    let report = score_report(&rules, &req).map_err(|e| option_error(OptionError::new(e.field, e.message)))?;
    Ok(report.to_string())
}

/// Python strategies for some lineup slots; the first failure is kept and stops the batch.
struct PyHook<'py> {
    py: Python<'py>,
    objects: Vec<Option<Bound<'py, PyAny>>>,
    error: RefCell<Option<PyErr>>,
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

fn legal<'py>(py: Python<'py>, v: &View, decision: &Decision) -> PyResult<Bound<'py, PyList>> {
    let out = PyList::empty(py);
    match *decision {
        Decision::SelfDraw { .. } => {
            out.append(("tsumo",))?;
            out.append(("pass",))?;
        }
        Decision::WinOn { .. } => {
            out.append(("ron",))?;
            out.append(("pass",))?;
        }
        Decision::Claim { legal, .. } => {
            for c in legal {
                match *c {
                    Claim::Kong => out.append(("kong",))?,
                    Claim::Pung => out.append(("pung",))?,
                    Claim::Chow { base } => out.append(("chow", u16::from(base)))?,
                }
            }
            out.append(("pass",))?;
        }
        Decision::Kong { legal } => {
            for &k in legal {
                out.append(("kong", u16::from(k)))?;
            }
            out.append(("pass",))?;
        }
        Decision::Discard => {
            for k in (0..KINDS as u16).filter(|&k| v.concealed[usize::from(k)] > 0) {
                out.append(("discard", k))?;
            }
        }
    }
    Ok(out)
}

impl Hook for PyHook<'_> {
    fn decide(&self, slot: u8, v: &View, decision: &Decision) -> Option<usize> {
        let obj = self.objects.get(usize::from(slot))?.as_ref()?;
        if self.failed() {
            // After a failure every decision of a Python slot is a placeholder until the game ends.
            return Some(0);
        }
        let py = self.py;
        let answer = legal(py, v, decision).and_then(|legal| {
            let len = legal.len();
            let r = obj.call_method1("decide", (view(py, v, decision)?, legal))?;
            chosen_index(&r, len)
        });
        match answer {
            Ok(i) => Some(i),
            Err(e) => {
                let point = match decision {
                    Decision::SelfDraw { .. } => "tsumo",
                    Decision::WinOn { .. } => "ron",
                    Decision::Claim { .. } => "claim",
                    Decision::Kong { .. } => "kong",
                    Decision::Discard => "discard",
                };
                let context = format!("Python strategy of lineup slot {slot} (seat {}) at {point}", v.seat);
                *self.error.borrow_mut() = Some(strategy_error(py, &context, e));
                Some(0)
            }
        }
    }

    fn failed(&self) -> bool {
        self.error.borrow().is_some()
    }
}

python_entry_points!(hongkong_play_batch_python, hongkong_show_python);

/// Checks the lineup and plays `batch` through `play` (a batch or a shown game) with the Python
/// objects deciding for their slots; `None` from `play` raises the strategy's exception.
fn with_python<'py>(
    py: Python<'py>,
    rules: &str,
    lineup: &str,
    strategies: Vec<Option<Bound<'py, PyAny>>>,
    batch: Batch,
    play: impl FnOnce(&Rules, &[Knobs], &Batch, Option<&dyn Hook>) -> Option<Vec<Table>>,
) -> PyResult<Bound<'py, PyDict>> {
    let (rules, lineup) = checked_python_batch::<HongKong>(rules, lineup, strategies.len())?;
    let hook = PyHook { py, objects: strategies, error: RefCell::new(None) };
    match play(&rules, &lineup, &batch, Some(&hook)) {
        Some(tables) => tables_to_python(py, &tables),
        None => Err(hook.error.take().unwrap_or_else(|| pyo3::exceptions::PyRuntimeError::new_err("a Python strategy failed"))),
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(hongkong_score, m)?)?;
    m.add_function(wrap_pyfunction!(hongkong_play_batch_python, m)?)?;
    m.add_function(wrap_pyfunction!(hongkong_show_python, m)?)
}
