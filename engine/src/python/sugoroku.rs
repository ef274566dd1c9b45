//! The sugoroku Python strategy protocol (documented for analysts in
//! `simharness/games/sugoroku/python.py`): an object with `decide(view: dict) -> bool`, asked only
//! where the rules leave a choice (G-D1…G-D4), answering whether to take the option (`True`:
//! [`Action::Take`], `False`: [`Action::Pass`]; there is no list of legal actions). A Python
//! strategy is a [`Player`](crate::decide::Player) like the native ones: its view is built from
//! the seat's [`View`] alone, so it sees the face-up course, the dora, every piece, points, rests
//! and pending multipliers, and never a face-down tile or the dice to come. Dice are drawn exactly
//! as in a native batch, so a Python slot meets the same luck as the knobs it replaces.

use super::protocol::{Items, Protocol, Tuples};
use crate::decide::{Outside, PlayerError};
use crate::game::Batch;
use crate::games::sugoroku::actions::{Action, Point, View};
use crate::games::sugoroku::batch::play_tables;
use crate::games::sugoroku::show::show_with;
use crate::games::sugoroku::{Knobs, Rules, Sugoroku};
use crate::options::Options;
use crate::table::Table;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyList;

/// The view: the face-down squares (and the start and the goal) are `None` in `course`; their
/// tiles are counted in `unseen`.
fn items<'py>(rules: &Bound<'py, PyAny>, v: &View<'_>, point: Point, out: &mut Items<'py>) -> PyResult<()> {
    out.item("seat", || Ok(v.seat))?;
    out.item("decision", || Ok(point.decision.label()))?;
    out.item("turn", || Ok(point.turn))?;
    out.item("roll", || Ok(point.roll))?;
    let ps = v.players;
    out.item("positions", || Ok(ps.iter().map(|p| p.pos).collect::<Vec<_>>()))?;
    out.item("points", || Ok(ps.iter().map(|p| p.points).collect::<Vec<_>>()))?;
    out.item("rests", || Ok(ps.iter().map(|p| p.rests).collect::<Vec<_>>()))?;
    out.item("multipliers", || Ok(ps.iter().map(|p| p.mult).collect::<Vec<_>>()))?;
    out.item("goal", || Ok(v.goal))?;
    out.item("course", || Ok((0..=usize::from(v.goal)).map(|sq| v.tile(sq)).collect::<Vec<_>>()))?;
    // Counts as u16 so that they reach Python as lists of ints, not bytes.
    out.item("dora", || Ok(v.dora.iter().map(|&c| u16::from(c)).collect::<Vec<_>>()))?;
    out.item("unseen", || Ok(v.unseen.iter().map(|&c| u16::from(c)).collect::<Vec<_>>()))?;
    out.item("round", || Ok(v.stats.rounds))?;
    out.item("turns", || Ok(v.stats.turns))?;
    out.item("settlement", || Ok(v.projected_settlement()))?;
    out.item("rules", || Ok(rules.clone()))?;
    Ok(())
}

impl Protocol for Sugoroku {
    /// The batch's rule set, one dict shared by every view.
    type Context<'py> = Bound<'py, PyAny>;

    fn context<'py>(py: Python<'py>, rules: &Rules) -> PyResult<Bound<'py, PyAny>> {
        py.import("json")?.call_method1("loads", (rules.to_json().to_string(),))
    }

    fn items<'py>(
        _: Python<'py>,
        rules: &Bound<'py, PyAny>,
        v: &View<'_>,
        point: Point,
        _: &[Action],
        out: &mut Items<'py>,
    ) -> PyResult<()> {
        items(rules, v, point, out)
    }

    /// `decide(view)` alone: the answer is a bool, not an index.
    fn legal<'py>(_: Python<'py>, _: Point, _: &[Action], _: &Tuples<'py, Action>) -> PyResult<Option<Bound<'py, PyList>>> {
        Ok(None)
    }

    /// Only a real bool: a truthy int or string is more likely a bug than an answer.
    fn chosen(answer: &Bound<'_, PyAny>, point: Point, legal: &[Action]) -> PyResult<usize> {
        let take = answer.extract::<bool>().map_err(|_| {
            let shown = answer.repr().map_or_else(|_| "?".to_owned(), |r| r.to_string());
            PyTypeError::new_err(format!("decide() returned {shown} at {}; expected True or False", point.decision.label()))
        })?;
        let action = if take { Action::Take } else { Action::Pass };
        Ok(legal.iter().position(|&a| a == action).expect("every sugoroku decision offers both answers"))
    }

    fn play_with(rules: &Rules, lineup: &[Knobs], batch: &Batch, outside: &mut Outside<'_, Sugoroku>) -> Result<Vec<Table>, PlayerError> {
        play_tables(rules, lineup, batch, outside)
    }

    fn show_with(rules: &Rules, lineup: &[Knobs], batch: &Batch, outside: &mut Outside<'_, Sugoroku>) -> Result<Vec<Table>, PlayerError> {
        show_with(rules, lineup, batch, outside)
    }
}
