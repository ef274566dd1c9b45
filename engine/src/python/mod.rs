//! `simharness._engine`: the thin PyO3 layer. Metadata crosses as JSON strings, results as raw
//! column buffers; the Python strategy protocol is `protocol.rs`, and game-specific entry points
//! (hand scoring, shanten) and each game's protocol live in the other submodules.
//!
//! Errors about user input become `ValueError((field, message))` so that the Python side can say
//! which file and which field were wrong.

use crate::decide::PlayerError;
use crate::game::{Batch, Game, GameApi, Registered};
use crate::games;
use crate::games::riichi::Riichi;
use crate::games::{hongkong::HongKong, suzume::Suzume, trump::Trump};
use crate::options::OptionError;
use crate::table::Table;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};
use serde_json::Value;
use std::marker::PhantomData;

mod hongkong;
mod protocol;
mod riichi;
mod riichi_game;
mod sugoroku;
mod suzume;
mod toy;
mod trump;

pub(crate) fn option_error(e: OptionError) -> PyErr {
    PyValueError::new_err((e.field, e.message))
}

pub(crate) fn parse_json(field: &str, text: &str) -> PyResult<Value> {
    serde_json::from_str(text).map_err(|e| option_error(OptionError::new(field, format!("invalid JSON: {e}"))))
}

/// A game's competence audit (`crate::competence`): the ready hands of each lineup slot that
/// cannot win legally, over games `first_game .. first_game + count` of `rules` (JSON object of
/// overrides of the defaults) with `lineup` (JSON list of knob sets), played as `play_batch` plays
/// them and checked as it checks them: one dict of counts per lineup slot. The GIL is released
/// while the games run.
#[pyfunction]
#[pyo3(signature = (name, rules, lineup, seed, first_game, count, duplicate=false))]
#[allow(clippy::too_many_arguments)]
fn competence_audit<'py>(
    py: Python<'py>,
    name: &str,
    rules: &str,
    lineup: &str,
    seed: u64,
    first_game: u64,
    count: u64,
    duplicate: bool,
) -> PyResult<Bound<'py, PyList>> {
    let batch = Batch { seed, first_game, count, duplicate };
    let args = (rules, lineup);
    match name {
        Riichi::NAME => audit_py::<Riichi>(py, args, batch, games::riichi::competence::audit),
        Suzume::NAME => audit_py::<Suzume>(py, args, batch, games::suzume::competence::audit),
        HongKong::NAME => audit_py::<HongKong>(py, args, batch, games::hongkong::competence::audit),
        Trump::NAME => audit_py::<Trump>(py, args, batch, games::trump::competence::audit),
        other => Err(PyValueError::new_err(format!(
            "no competence audit for game \"{other}\"; expected one of: {}, {}, {}, {}",
            Riichi::NAME,
            Suzume::NAME,
            HongKong::NAME,
            Trump::NAME
        ))),
    }
}

fn audit_py<'py, G: Game>(
    py: Python<'py>,
    (rules, lineup): (&str, &str),
    batch: Batch,
    audit: impl Fn(&G::Rules, &[G::Knobs], &Batch) -> Result<Vec<crate::competence::Tally>, PlayerError> + Send + Sync,
) -> PyResult<Bound<'py, PyList>>
where
    G::Rules: Sync,
    G::Knobs: Sync,
{
    let Value::Array(lineup) = parse_json("lineup", lineup)? else {
        return Err(option_error(OptionError::new("lineup", "expected a list of knob tables")));
    };
    let (rules, knobs) = Registered::<G>(PhantomData).checked(&parse_json("rules", rules)?, &lineup).map_err(option_error)?;
    let tallies = py.detach(|| audit(&rules, &knobs, &batch)).map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
    let out = PyList::empty(py);
    for t in tallies {
        let d = PyDict::new(py);
        for (name, value) in t.fields() {
            d.set_item(name, value)?;
        }
        out.append(d)?;
    }
    Ok(out)
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

/// JSON list of the tables a game's show adds to those of its batches, with column docs.
#[pyfunction]
fn show_schema_json(name: &str) -> PyResult<String> {
    Ok(Value::Array(game(name)?.show_schema().iter().map(|t| t.to_json()).collect()).to_string())
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
    m.add_function(wrap_pyfunction!(show_schema_json, m)?)?;
    m.add_function(wrap_pyfunction!(resolve_rules, m)?)?;
    m.add_function(wrap_pyfunction!(resolve_knobs, m)?)?;
    m.add_function(wrap_pyfunction!(play_batch, m)?)?;
    m.add_function(wrap_pyfunction!(competence_audit, m)?)?;
    m.add_function(wrap_pyfunction!(show_game, m)?)?;
    m.add_function(wrap_pyfunction!(protocol::interrupt_python_strategies, m)?)?;
    m.add_function(wrap_pyfunction!(protocol::python_games, m)?)?;
    m.add_function(wrap_pyfunction!(protocol::play_batch_python, m)?)?;
    m.add_function(wrap_pyfunction!(protocol::show_python, m)?)?;
    m.add_class::<protocol::View>()?;
    riichi::register(m)?;
    suzume::register(m)?;
    trump::register(m)?;
    riichi_game::register(m)?;
    hongkong::register(m)?;
    Ok(())
}
