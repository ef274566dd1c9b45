//! The test-only toy game's Python strategy protocol: `decide(view, legal) -> int` with the view
//! `{"seat", "banked", "turn_total"}` and the actions `("hold",)`, `("roll",)`.

use super::{view_and_legal, Protocol};
use crate::decide::{Outside, PlayerError};
use crate::game::Batch;
use crate::games::toy::{play_with, Action, Knobs, Rules, Toy, View};
use crate::table::Table;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

impl Protocol for Toy {
    type Context<'py> = ();

    fn context(_: Python<'_>, _: &Rules) -> PyResult<()> {
        Ok(())
    }

    fn arguments<'py>(py: Python<'py>, (): &(), v: &View<'_>, (): (), legal: &[Action]) -> PyResult<Bound<'py, PyTuple>> {
        let view = PyDict::new(py);
        view.set_item("seat", v.seat)?;
        view.set_item("banked", v.banked)?;
        view.set_item("turn_total", v.turn_total)?;
        let name = |a: &Action| if *a == Action::Hold { "hold" } else { "roll" };
        view_and_legal(py, view, legal.iter().map(|a| PyTuple::new(py, [name(a)])))
    }

    fn play_with(rules: &Rules, lineup: &[Knobs], batch: &Batch, outside: &mut Outside<'_, Toy>) -> Result<Vec<Table>, PlayerError> {
        play_with(rules, lineup, batch, outside)
    }

    fn show_with(rules: &Rules, lineup: &[Knobs], batch: &Batch, outside: &mut Outside<'_, Toy>) -> Result<Vec<Table>, PlayerError> {
        play_with(rules, lineup, &Batch { count: 1, ..*batch }, outside)
    }
}
