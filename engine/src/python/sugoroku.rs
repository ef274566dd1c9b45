//! PyO3 entry point for sugoroku batches in which some lineup slots are Python strategies.
//!
//! The protocol (documented for analysts in `simharness/games/sugoroku/python.py`): an object
//! with `decide(view: dict) -> bool`, asked only where the rules leave a choice (G-D1…G-D4), and
//! answering whether to take the option. Dice are drawn exactly as in a native batch, so a Python
//! slot meets the same luck as the knobs it replaces.

use super::{PySlots, Slotted};
use crate::game::Batch;
use crate::games::sugoroku::actions::{Decision, DecisionPoint};
use crate::games::sugoroku::batch::{play_tables, Hook};
use crate::games::sugoroku::show::show_with;
use crate::games::sugoroku::state::State;
use crate::games::sugoroku::{Rules, Sugoroku};
use crate::options::Options;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

struct PyHook<'py> {
    slots: PySlots<'py>,
    /// The batch's rule set, one dict shared by every view.
    rules: Bound<'py, PyAny>,
}

fn decision_name(d: Decision) -> &'static str {
    match d {
        Decision::PinzoroReroll => "pinzoro_reroll",
        Decision::ExtraRoll => "extra_roll",
        Decision::PinzoroOffset => "pinzoro_offset",
        Decision::SixzoroOffset => "sixzoro_offset",
        Decision::AgreeEnd => "agree_end",
    }
}

/// What every player sees at the table: the face-up course, the dora, every piece, points, rests
/// and pending multipliers. Face-down squares are `None`; their tiles are counted in `unseen`.
fn view<'py>(py: Python<'py>, rules: &Bound<'py, PyAny>, s: &State<'_>, seat: usize, point: DecisionPoint) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("seat", seat)?;
    d.set_item("decision", decision_name(point.decision))?;
    d.set_item("turn", point.turn)?;
    d.set_item("roll", point.roll)?;
    let ps = &s.players[..s.n];
    d.set_item("positions", ps.iter().map(|p| p.pos).collect::<Vec<_>>())?;
    d.set_item("points", ps.iter().map(|p| p.points).collect::<Vec<_>>())?;
    d.set_item("rests", ps.iter().map(|p| p.rests).collect::<Vec<_>>())?;
    d.set_item("multipliers", ps.iter().map(|p| p.mult).collect::<Vec<_>>())?;
    d.set_item("goal", s.goal)?;
    let course: Vec<Option<u8>> =
        (0..=usize::from(s.goal)).map(|sq| (sq > 0 && sq < usize::from(s.goal) && s.up[sq]).then(|| s.course[sq])).collect();
    d.set_item("course", course)?;
    // Counts as u16 so that they reach Python as lists of ints, not bytes.
    d.set_item("dora", s.dora.iter().map(|&c| u16::from(c)).collect::<Vec<_>>())?;
    d.set_item("unseen", s.unseen.iter().map(|&c| u16::from(c)).collect::<Vec<_>>())?;
    d.set_item("round", s.stats.rounds)?;
    d.set_item("turns", s.stats.turns)?;
    d.set_item("settlement", s.projected_settlement(seat))?;
    d.set_item("rules", rules)?;
    Ok(d)
}

impl Hook for PyHook<'_> {
    fn decide(&mut self, slot: u8, s: &State<'_>, seat: usize, point: DecisionPoint) -> Option<Result<bool, String>> {
        let rules = &self.rules;
        let name = decision_name(point.decision);
        let args = |py| PyTuple::new(py, [view(py, rules, s, seat, point)?]);
        // Only a real bool: a truthy int or string is more likely a bug than an answer.
        let answer = |r: &Bound<'_, PyAny>| {
            r.extract::<bool>().map_err(|_| {
                let shown = r.repr().map_or_else(|_| "?".to_owned(), |r| r.to_string());
                PyTypeError::new_err(format!("decide() returned {shown} at {name}; expected True or False"))
            })
        };
        let answer = self.slots.decide(slot, seat, name, args, answer)?;
        // The slots keep the strategy's exception; the engine stops the batch after this game.
        Some(answer.ok_or_else(|| format!("Python strategy of lineup slot {slot} failed")))
    }
}

impl<'py> Slotted<'py> for PyHook<'py> {
    fn slots(&mut self) -> &mut PySlots<'py> {
        &mut self.slots
    }
}

python_entry_points!(
    Sugoroku,
    play_python,
    |slots: PySlots<'py>, rules: &Rules| {
        let rules = slots.py.import("json")?.call_method1("loads", (rules.to_json().to_string(),))?;
        Ok(PyHook { slots, rules })
    },
    play_tables,
    show_with
);
