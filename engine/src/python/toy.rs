//! The test-only toy game's Python strategy protocol: `decide(view, legal) -> int` with the view
//! `{"seat", "banked", "turn_total"}` and the actions `("hold",)`, `("roll",)`.

use super::protocol::{legal_list, Items, Protocol, Tuples};
use crate::decide::{Outside, PlayerError};
use crate::game::Batch;
use crate::games::toy::{play_with, Action, Knobs, Rules, Toy, View};
use crate::table::Table;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};

impl Protocol for Toy {
    type Context<'py> = ();

    fn context(_: Python<'_>, _: &Rules) -> PyResult<()> {
        Ok(())
    }

    fn items<'py>(_: Python<'py>, (): &(), v: &View<'_>, (): (), _: &[Action], out: &mut Items<'py>) -> PyResult<()> {
        out.item("seat", || Ok(v.seat))?;
        out.item("banked", || Ok(v.banked))?;
        out.item("turn_total", || Ok(v.turn_total))
    }

    fn legal<'py>(py: Python<'py>, (): (), legal: &[Action], _: &Tuples<'py, Action>) -> PyResult<Option<Bound<'py, PyList>>> {
        let name = |a: &Action| if *a == Action::Hold { "hold" } else { "roll" };
        legal_list(py, legal.iter().map(|a| PyTuple::new(py, [name(a)])))
    }

    fn play_with(rules: &Rules, lineup: &[Knobs], batch: &Batch, outside: &mut Outside<'_, Toy>) -> Result<Vec<Table>, PlayerError> {
        play_with(rules, lineup, batch, outside)
    }

    fn show_with(rules: &Rules, lineup: &[Knobs], batch: &Batch, outside: &mut Outside<'_, Toy>) -> Result<Vec<Table>, PlayerError> {
        play_with(rules, lineup, &Batch { count: 1, ..*batch }, outside)
    }
}
