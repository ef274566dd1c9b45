//! Suzume-jong entry points: scoring one hand, and batches in which some lineup slots are Python
//! strategies.
//!
//! The Python strategy protocol (documented in `simharness/games/suzume_python.py`): an object
//! with `decide(view: dict, legal: list[tuple]) -> int`, asked at the decision points of spec §10
//! (`point` "tsumo" = D1, "discard" = D2, "ron" = D3) and returning the index of the chosen
//! action: `("tsumo",)`/`("pass",)`, `("discard", tile)` per tile in hand, `("ron",)`/`("pass",)`.

use super::{checked_python_batch, chosen_index, option_error, parse_json, strategy_error, tables_to_python};
use crate::game::Batch;
use crate::games::suzume::actions::{View, WinKind};
use crate::games::suzume::batch::play_tables;
use crate::games::suzume::scoring::{score_report, Parts, Tile};
use crate::games::suzume::show::show_with;
use crate::games::suzume::state::Hook;
use crate::games::suzume::{Knobs, Rules, Suzume};
use crate::options::{Options, Validate};
use crate::table::Table;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

/// JSON report of one hand's value (see `scoring::score_report`); `rules` is a JSON object of rule
/// overrides. Bad tiles, counts or options raise `ValueError((field, message))`.
#[pyfunction]
#[pyo3(signature = (hand, win, ron=false, dealer=false, dora=None, players=4, rules="{}"))]
#[allow(clippy::too_many_arguments)]
fn suzume_score(hand: &str, win: &str, ron: bool, dealer: bool, dora: Option<&str>, players: i64, rules: &str) -> PyResult<String> {
    let rules = Rules::from_json(&parse_json("rules", rules)?).map_err(option_error)?;
    rules.validate().map_err(option_error)?;
    Ok(score_report(hand, win, ron, dora, dealer, players, &rules).map_err(option_error)?.to_string())
}

struct PyHook<'py> {
    py: Python<'py>,
    objects: Vec<Option<Bound<'py, PyAny>>>,
    red_tiles: bool,
    error: Option<PyErr>,
}

/// Tile ids as u16 so that they reach Python as lists of ints, not bytes.
fn ids(tiles: &[Tile]) -> Vec<u16> {
    tiles.iter().map(|t| u16::from(t.0)).collect()
}

fn kinds_of(mask: u16) -> Vec<u16> {
    (0..16).filter(|k| mask & (1 << k) != 0).collect()
}

impl<'py> PyHook<'py> {
    fn view(&self, v: &View, point: &str, win: Option<&Parts>) -> PyResult<Bound<'py, PyDict>> {
        let py = self.py;
        let d = PyDict::new(py);
        d.set_item("point", point)?;
        d.set_item("seat", v.seat)?;
        d.set_item("players", v.players)?;
        d.set_item("dealer", v.dealer)?;
        d.set_item("hand", ids(v.hand))?;
        d.set_item("tile", v.hand.last().map(|t| u16::from(t.0)))?;
        let n = v.players;
        let mut rivers = vec![Vec::new(); n];
        for (i, t) in v.river.iter().enumerate() {
            rivers[(v.dealer + i) % n].push(u16::from(t.0));
        }
        if point == "ron" {
            d.set_item("from", (v.dealer + v.river.len() - 1) % n)?;
        }
        d.set_item("rivers", rivers)?;
        d.set_item("streak", v.streak[..n].iter().map(|&s| u16::from(s)).collect::<Vec<_>>())?;
        d.set_item("dora", v.dora)?;
        d.set_item("red_seen", kinds_of(v.seen_red))?;
        d.set_item("red_tiles", self.red_tiles)?;
        d.set_item("stock", v.stock)?;
        d.set_item("points", v.points)?;
        if let Some(p) = win {
            let w = PyDict::new(py);
            w.set_item("score", p.score)?;
            w.set_item("base", p.base)?;
            w.set_item("set_points", p.set_points)?;
            w.set_item("red", p.red)?;
            w.set_item("dora", p.dora)?;
            w.set_item("tanyao", p.tanyao)?;
            w.set_item("chanta", p.chanta)?;
            w.set_item("yakuman", p.yakuman.name())?;
            w.set_item("yakuman_points", p.yakuman_points)?;
            w.set_item("dealer_bonus", p.dealer_bonus)?;
            d.set_item("win", w)?;
        }
        Ok(d)
    }

    /// Asks slot `slot`'s object; `None` when the slot plays its knobs. After a failure every
    /// claimed decision is a placeholder (the batch stops at the end of the game).
    fn ask(&mut self, slot: u8, v: &View, point: &str, win: Option<&Parts>, legal: Bound<'py, PyList>) -> Option<usize> {
        let obj = self.objects.get(usize::from(slot))?.as_ref()?;
        if self.error.is_some() {
            return Some(0);
        }
        let len = legal.len();
        let answer =
            self.view(v, point, win).and_then(|view| obj.call_method1("decide", (view, legal))).and_then(|r| chosen_index(&r, len));
        match answer {
            Ok(i) => Some(i),
            Err(e) => {
                self.error =
                    Some(strategy_error(self.py, &format!("Python strategy of lineup slot {slot} (seat {}) at {point}", v.seat), e));
                Some(0)
            }
        }
    }

    fn legal(&self, items: &[(&str, Option<u16>)]) -> Bound<'py, PyList> {
        let list = PyList::empty(self.py);
        for &(name, tile) in items {
            // Appending a fresh tuple of str and int to a fresh list cannot fail.
            let _ = match tile {
                Some(t) => list.append((name, t)),
                None => list.append((name,)),
            };
        }
        list
    }
}

impl Hook for PyHook<'_> {
    fn accept_win(&mut self, slot: u8, view: &View, parts: &Parts, kind: WinKind) -> Option<bool> {
        self.objects.get(usize::from(slot))?.as_ref()?;
        let (point, name) = match kind {
            WinKind::Tsumo => ("tsumo", "tsumo"),
            WinKind::Ron => ("ron", "ron"),
        };
        let legal = self.legal(&[(name, None), ("pass", None)]);
        self.ask(slot, view, point, Some(parts), legal).map(|i| i == 0)
    }

    fn discard(&mut self, slot: u8, view: &View) -> Option<usize> {
        self.objects.get(usize::from(slot))?.as_ref()?;
        let items: Vec<(&str, Option<u16>)> = view.hand.iter().map(|t| ("discard", Some(u16::from(t.0)))).collect();
        let legal = self.legal(&items);
        self.ask(slot, view, "discard", None, legal)
    }

    fn failed(&self) -> bool {
        self.error.is_some()
    }
}

/// Plays a batch like `play_batch("suzume", ...)` with `strategies[slot]` (a Python object or
/// None) deciding for that lineup slot instead of its knobs. Holds the GIL throughout.
#[pyfunction]
#[pyo3(signature = (rules, lineup, strategies, seed, first_game, count, duplicate=false))]
#[allow(clippy::too_many_arguments)]
fn suzume_play_batch_python<'py>(
    py: Python<'py>,
    rules: &str,
    lineup: &str,
    strategies: Vec<Option<Bound<'py, PyAny>>>,
    seed: u64,
    first_game: u64,
    count: u64,
    duplicate: bool,
) -> PyResult<Bound<'py, PyDict>> {
    with_python(py, rules, lineup, strategies, Batch { seed, first_game, count, duplicate }, play_tables)
}

/// Game `game` played again alone with its events (`simharness show`), with Python strategies
/// in the slots whose `strategies` entry is an object.
#[pyfunction]
#[pyo3(signature = (rules, lineup, strategies, seed, game, duplicate=false))]
fn suzume_show_python<'py>(
    py: Python<'py>,
    rules: &str,
    lineup: &str,
    strategies: Vec<Option<Bound<'py, PyAny>>>,
    seed: u64,
    game: u64,
    duplicate: bool,
) -> PyResult<Bound<'py, PyDict>> {
    with_python(py, rules, lineup, strategies, Batch { seed, first_game: game, count: 1, duplicate }, show_with)
}

/// Checks the lineup and plays `batch` through `play` (a batch or a shown game) with the Python
/// objects deciding for their slots; `None` from `play` raises the strategy's exception.
fn with_python<'py>(
    py: Python<'py>,
    rules: &str,
    lineup: &str,
    strategies: Vec<Option<Bound<'py, PyAny>>>,
    batch: Batch,
    play: impl FnOnce(&Rules, &[Knobs], &Batch, &mut PyHook<'py>) -> Option<Vec<Table>>,
) -> PyResult<Bound<'py, PyDict>> {
    let (rules, lineup) = checked_python_batch::<Suzume>(rules, lineup, strategies.len())?;
    let mut hook = PyHook { py, objects: strategies, red_tiles: rules.red_tiles, error: None };
    match play(&rules, &lineup, &batch, &mut hook) {
        Some(tables) => tables_to_python(py, &tables),
        None => Err(hook.error.take().unwrap_or_else(|| pyo3::exceptions::PyRuntimeError::new_err("a Python strategy failed"))),
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(suzume_score, m)?)?;
    m.add_function(wrap_pyfunction!(suzume_play_batch_python, m)?)?;
    m.add_function(wrap_pyfunction!(suzume_show_python, m)?)
}
