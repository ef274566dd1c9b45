//! `simharness._engine`: the thin PyO3 layer. Metadata crosses as JSON strings, results as raw
//! column buffers; game-specific entry points (hand scoring, shanten) live in submodules.
//!
//! Errors about user input become `ValueError((field, message))` so that the Python side can say
//! which file and which field were wrong.

use crate::game::{Batch, Game, GameApi, Registered};
use crate::games;
use crate::options::OptionError;
use crate::table::Table;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};
use serde_json::Value;
use std::marker::PhantomData;

/// A game's two Python-strategy entry points, `<game>_play_batch_python` and `<game>_show_python`,
/// through the game module's `with_python` (which checks the lineup, plays with a hook that calls
/// the Python objects, and raises a failing strategy's exception, of its own type, naming the game
/// and slot) with its `play_tables` and `show_with`. Defined before the game modules that use it.
macro_rules! python_entry_points {
    ($play:ident, $show:ident) => {
        /// Plays a batch like `play_batch(game, ...)` with `strategies[slot]` (a Python object or
        /// None) deciding for that lineup slot instead of its knobs. Holds the GIL throughout.
        #[pyfunction]
        #[pyo3(signature = (rules, lineup, strategies, seed, first_game, count, duplicate=false))]
        #[allow(clippy::too_many_arguments)]
        fn $play<'py>(
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

        /// Game `game` played again alone with its events (`simharness show`), with Python
        /// strategies in the slots whose `strategies` entry is an object.
        #[pyfunction]
        #[pyo3(signature = (rules, lineup, strategies, seed, game, duplicate=false))]
        fn $show<'py>(
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
    };
}

mod hongkong;
mod riichi;
mod riichi_game;
mod sugoroku;
mod suzume;
mod trump;

pub(crate) fn option_error(e: OptionError) -> PyErr {
    PyValueError::new_err((e.field, e.message))
}

pub(crate) fn parse_json(field: &str, text: &str) -> PyResult<Value> {
    serde_json::from_str(text).map_err(|e| option_error(OptionError::new(field, format!("invalid JSON: {e}"))))
}

/// The rules and knob sets of a batch in which some lineup slots are Python strategies, checked
/// as `play_batch` checks them, with one `strategies` entry (an object or None) per slot.
pub(crate) fn checked_python_batch<G: Game>(rules: &str, lineup: &str, strategies: usize) -> PyResult<(G::Rules, Vec<G::Knobs>)> {
    let Value::Array(lineup) = parse_json("lineup", lineup)? else {
        return Err(option_error(OptionError::new("lineup", "expected a list of knob tables")));
    };
    let (rules, knobs) = Registered::<G>(PhantomData).checked(&parse_json("rules", rules)?, &lineup).map_err(option_error)?;
    if strategies != knobs.len() {
        let msg = format!("expected one entry (object or None) per lineup slot: {}, got {strategies}", knobs.len());
        return Err(option_error(OptionError::new("strategies", msg)));
    }
    Ok((rules, knobs))
}

/// A Python strategy's failure, told where it happened (`context`: game, slot, decision): the
/// same exception type as `cause`, so that callers can catch what the strategy raised, with the
/// original (and its traceback) as the cause.
pub(crate) fn strategy_error(py: Python<'_>, context: &str, cause: PyErr) -> PyErr {
    let err = PyErr::from_type(cause.get_type(py), format!("{context}: {cause}"));
    err.set_cause(py, Some(cause));
    err
}

/// The Python objects of a batch's lineup slots (`None` for a slot that plays its knobs) and the
/// first failure among them: the part of the card and tile games' hooks that asks
/// `decide(view, legal)`.
pub(crate) struct PySlots<'py> {
    py: Python<'py>,
    objects: Vec<Option<Bound<'py, PyAny>>>,
    error: Option<PyErr>,
}

impl<'py> PySlots<'py> {
    pub fn new(py: Python<'py>, objects: Vec<Option<Bound<'py, PyAny>>>) -> Self {
        PySlots { py, objects, error: None }
    }

    /// Whether lineup slot `slot` is played by a Python object.
    pub fn claims(&self, slot: u8) -> bool {
        self.objects.get(usize::from(slot)).is_some_and(Option::is_some)
    }

    pub fn failed(&self) -> bool {
        self.error.is_some()
    }

    /// Asks slot `slot`'s object (at `seat`) to choose among `legal` (`(name,)` or `(name, id)` for
    /// an action naming a tile or card) at decision `point`; `None` when the slot plays its knobs.
    /// A failure (building the view, the call, a bad index) is kept and answers 0, a placeholder,
    /// as does every later question: the batch stops at the end of the game.
    pub fn ask(
        &mut self,
        slot: u8,
        seat: usize,
        point: &str,
        view: impl FnOnce(Python<'py>) -> PyResult<Bound<'py, PyDict>>,
        legal: &[(&str, Option<u16>)],
    ) -> Option<usize> {
        let obj = self.objects.get(usize::from(slot))?.as_ref()?;
        if self.error.is_some() {
            return Some(0);
        }
        let list = PyList::empty(self.py);
        for &(name, id) in legal {
            // Appending a fresh tuple of str and int to a fresh list cannot fail.
            let _ = match id {
                Some(i) => list.append((name, i)),
                None => list.append((name,)),
            };
        }
        let answer = view(self.py).and_then(|view| obj.call_method1("decide", (view, list))).and_then(|r| chosen_index(&r, legal.len()));
        Some(answer.unwrap_or_else(|e| {
            self.error = Some(strategy_error(self.py, &format!("Python strategy of lineup slot {slot} (seat {seat}) at {point}"), e));
            0
        }))
    }

    /// The tables of a batch that `play_tables` returned, or, when it stopped, the failure.
    pub fn finish(mut self, tables: Option<Vec<Table>>) -> PyResult<Bound<'py, PyDict>> {
        match tables {
            Some(tables) => tables_to_python(self.py, &tables),
            None => Err(self.error.take().unwrap_or_else(|| pyo3::exceptions::PyRuntimeError::new_err("a Python strategy failed"))),
        }
    }
}

/// The index a protocol's `decide(view, legal)` returned, checked against `legal`'s length.
pub(crate) fn chosen_index(answer: &Bound<'_, PyAny>, len: usize) -> PyResult<usize> {
    let i: usize = answer.extract().map_err(|_| {
        let shown = answer.repr().map_or_else(|_| "?".to_owned(), |r| r.to_string());
        PyTypeError::new_err(format!("decide() returned {shown}; expected an int index"))
    })?;
    if i < len {
        Ok(i)
    } else {
        Err(PyValueError::new_err(format!("decide() returned {i}; expected an index below {len}")))
    }
}

fn game(name: &str) -> PyResult<Box<dyn GameApi>> {
    games::find(name).ok_or_else(|| {
        let known: Vec<String> = games::registry().iter().map(|g| g.info()["name"].as_str().unwrap_or("").to_owned()).collect();
        option_error(OptionError::new("game", format!("unknown game \"{name}\"; expected one of: {}", known.join(", "))))
    })
}

/// JSON list of the games: name, title, player range, spec.
#[pyfunction]
fn games_json() -> String {
    Value::Array(games::registry().iter().map(|g| g.info()).collect()).to_string()
}

/// JSON list of a game's house-rule options.
#[pyfunction]
fn rule_options_json(name: &str) -> PyResult<String> {
    Ok(Value::Array(game(name)?.rule_specs().iter().map(|s| s.to_json()).collect()).to_string())
}

/// JSON list of a game's strategy knobs.
#[pyfunction]
fn knob_options_json(name: &str) -> PyResult<String> {
    Ok(Value::Array(game(name)?.knob_specs().iter().map(|s| s.to_json()).collect()).to_string())
}

/// JSON list of a game's rule presets: name, doc, overrides.
#[pyfunction]
fn presets_json(name: &str) -> PyResult<String> {
    let presets = game(name)?.presets();
    let list = presets.iter().map(|p| serde_json::json!({"name": p.name, "doc": p.doc, "overrides": p.overrides})).collect();
    Ok(Value::Array(list).to_string())
}

/// JSON list of the tables a game's batches return, with column docs.
#[pyfunction]
fn schema_json(name: &str) -> PyResult<String> {
    Ok(Value::Array(game(name)?.schema().iter().map(|t| t.to_json()).collect()).to_string())
}

/// The full, validated rule set (JSON) for a preset plus overrides (JSON object).
#[pyfunction]
fn resolve_rules(name: &str, preset: &str, overrides: &str) -> PyResult<String> {
    let overrides = parse_json("rules", overrides)?;
    Ok(game(name)?.resolve_rules(preset, &overrides).map_err(option_error)?.to_string())
}

/// The full, validated knob set (JSON) for knob overrides (JSON object).
#[pyfunction]
fn resolve_knobs(name: &str, knobs: &str) -> PyResult<String> {
    let knobs = parse_json("knobs", knobs)?;
    Ok(game(name)?.resolve_knobs(&knobs).map_err(option_error)?.to_string())
}

pub(crate) fn tables_to_python<'py>(py: Python<'py>, tables: &[Table]) -> PyResult<Bound<'py, PyDict>> {
    let out = PyDict::new(py);
    for t in tables {
        let cols = PyList::empty(py);
        for c in &t.columns {
            cols.append((c.name, c.dtype, PyBytes::new(py, &c.data)))?;
        }
        out.set_item(t.name, (t.rows, cols))?;
    }
    Ok(out)
}

/// Plays games `first_game .. first_game + count` and returns
/// `{table: (rows, [(column, numpy dtype, little-endian bytes), ...])}`.
/// `rules` is a complete rule set (JSON object), `lineup` a JSON list of knob sets, one per player.
/// The GIL is released while the games run.
#[pyfunction]
#[pyo3(signature = (name, rules, lineup, seed, first_game, count, duplicate=false))]
#[allow(clippy::too_many_arguments)]
fn play_batch<'py>(
    py: Python<'py>,
    name: &str,
    rules: &str,
    lineup: &str,
    seed: u64,
    first_game: u64,
    count: u64,
    duplicate: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let g = game(name)?;
    let rules = parse_json("rules", rules)?;
    let lineup = match parse_json("lineup", lineup)? {
        Value::Array(v) => v,
        _ => return Err(option_error(OptionError::new("lineup", "expected a list of knob tables"))),
    };
    let batch = Batch { seed, first_game, count, duplicate };
    let tables = py.detach(|| g.play(&rules, &lineup, &batch)).map_err(option_error)?;
    tables_to_python(py, &tables)
}

/// Game `game` of an experiment played again alone with every event logged (`Game::show`):
/// the tables of `play_batch` for that game plus the game's event tables.
#[pyfunction]
#[pyo3(signature = (name, rules, lineup, seed, game, duplicate=false))]
fn show_game<'py>(
    py: Python<'py>,
    name: &str,
    rules: &str,
    lineup: &str,
    seed: u64,
    game: u64,
    duplicate: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let g = self::game(name)?;
    let rules = parse_json("rules", rules)?;
    let Value::Array(lineup) = parse_json("lineup", lineup)? else {
        return Err(option_error(OptionError::new("lineup", "expected a list of knob tables")));
    };
    let batch = Batch { seed, first_game: game, count: 1, duplicate };
    let tables = py.detach(|| g.show(&rules, &lineup, &batch)).map_err(option_error)?;
    tables_to_python(py, &tables)
}

#[pymodule]
#[pyo3(name = "_engine")]
fn engine_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(games_json, m)?)?;
    m.add_function(wrap_pyfunction!(rule_options_json, m)?)?;
    m.add_function(wrap_pyfunction!(knob_options_json, m)?)?;
    m.add_function(wrap_pyfunction!(presets_json, m)?)?;
    m.add_function(wrap_pyfunction!(schema_json, m)?)?;
    m.add_function(wrap_pyfunction!(resolve_rules, m)?)?;
    m.add_function(wrap_pyfunction!(resolve_knobs, m)?)?;
    m.add_function(wrap_pyfunction!(play_batch, m)?)?;
    m.add_function(wrap_pyfunction!(show_game, m)?)?;
    riichi::register(m)?;
    suzume::register(m)?;
    trump::register(m)?;
    riichi_game::register(m)?;
    sugoroku::register(m)?;
    hongkong::register(m)?;
    Ok(())
}
