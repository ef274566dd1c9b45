//! Suzume-jong entry points: scoring one hand, and batches in which some lineup slots are Python
//! strategies.
//!
//! The Python strategy protocol (documented in `simharness/games/suzume/python.py`): an object
//! with `decide(view: dict, legal: list[tuple]) -> int`, asked at every decision point of spec §10
//! (`point` "tsumo" = D1, "discard" = D2, "ron" = D3) and returning the index of the chosen
//! action: `("tsumo",)`/`("pass",)`, `("discard", tile)` per tile in hand, `("ron",)`/`("pass",)`.
//! A Python strategy is a [`Player`](crate::decide::Player) like the native ones: its view dict is
//! built from the seat's [`View`] and the point (the value of the win on offer), nothing else.

use super::protocol::{legal_list, Items, Protocol, Tuples};
use super::{option_error, parse_json};
use crate::decide::{Outside, PlayerError};
use crate::game::Batch;
use crate::games::suzume::actions::{Action, Point, View};
use crate::games::suzume::batch::play_tables;
use crate::games::suzume::hand::Parts;
use crate::games::suzume::scoring::{score_report, Tables, Tile, KINDS};
use crate::games::suzume::show::show_with;
use crate::games::suzume::{Knobs, Rules, Suzume};
use crate::options::{Options, Validate};
use crate::table::Table;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyTuple};

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

/// Tile ids as u16 so that they reach Python as lists of ints, not bytes.
fn ids(tiles: &[Tile]) -> Vec<u16> {
    tiles.iter().map(|t| u16::from(t.0)).collect()
}

fn kinds_of(mask: u16) -> Vec<u16> {
    (0..16).filter(|k| mask & (1 << k) != 0).collect()
}

/// What a seat sees at a decision (the protocol's view, `simharness/games/suzume/python.py`).
fn items<'py>(py: Python<'py>, red_tiles: bool, v: &View, point: Point, legal: &[Action], out: &mut Items<'py>) -> PyResult<()> {
    out.item("point", || Ok(point.name()))?;
    out.item("seat", || Ok(v.seat))?;
    out.item("players", || Ok(v.players))?;
    out.item("dealer", || Ok(v.dealer))?;
    out.item("hand", || Ok(ids(v.hand)))?;
    out.item("tile", || Ok(v.hand.last().map(|t| u16::from(t.0))))?;
    let n = v.players;
    if let Point::Ron { .. } = point {
        out.item("from", || Ok((v.dealer + v.river.len() - 1) % n))?;
    }
    out.item("rivers", || {
        let mut rivers = vec![Vec::new(); n];
        for (i, t) in v.river.iter().enumerate() {
            rivers[(v.dealer + i) % n].push(u16::from(t.0));
        }
        Ok(rivers)
    })?;
    out.item("streak", || Ok(v.streak[..n].iter().map(|&s| u16::from(s)).collect::<Vec<_>>()))?;
    out.item("dora", || Ok(v.dora))?;
    out.item("red_seen", || Ok(kinds_of(v.seen_red)))?;
    out.item("red_tiles", || Ok(red_tiles))?;
    out.item("stock", || Ok(v.stock))?;
    out.item("points", || Ok(v.points))?;
    if let Point::Tsumo { win } | Point::Ron { win } = point {
        out.item("win", || win_dict(py, &win))?;
    }
    // One byte per legal action, from the engine's table of the hand's discards (S1's measures).
    let per_discard = |f: &dyn Fn(u8, u8, u16) -> u8| {
        let bytes: Vec<u8> = legal
            .iter()
            .map(|a| match *a {
                Action::Discard(t) => {
                    let (need, improving) = Tables::get().five_after(v.state, t.kind());
                    f(t.kind(), need, improving)
                }
                _ => NONE,
            })
            .collect();
        PyBytes::new(py, &bytes)
    };
    out.item("need_after", || Ok(per_discard(&|_, need, _| need)))?;
    out.item("ukeire_after", || {
        let unseen = v.unseen();
        Ok(per_discard(&|_, _, improving| (0..KINDS).filter(|&k| improving >> k & 1 == 1).map(|k| unseen[k]).sum()))
    })?;
    out.item("safe", || Ok(per_discard(&|kind, _, _| v.safe_count(kind))))?;
    Ok(())
}

/// `need_after`, `ukeire_after` and `safe` of an action that is no discard.
const NONE: u8 = 255;

/// The value of the win on offer, part by part.
fn win_dict<'py>(py: Python<'py>, p: &Parts) -> PyResult<Bound<'py, PyDict>> {
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
    Ok(w)
}

fn action_tuple<'py>(py: Python<'py>, a: Action) -> PyResult<Bound<'py, PyTuple>> {
    match a {
        Action::Tsumo => PyTuple::new(py, [intern!(py, "tsumo")]),
        Action::Ron => PyTuple::new(py, [intern!(py, "ron")]),
        Action::Pass => PyTuple::new(py, [intern!(py, "pass")]),
        Action::Discard(t) => Ok((intern!(py, "discard"), u16::from(t.0)).into_pyobject(py)?),
    }
}

impl Protocol for Suzume {
    /// Whether the rule set has red copies: the one rule the view shows.
    type Context<'py> = bool;

    fn context(_: Python<'_>, rules: &Rules) -> PyResult<bool> {
        Ok(rules.red_tiles)
    }

    fn items<'py>(py: Python<'py>, &red_tiles: &bool, v: &View<'_>, point: Point, legal: &[Action], out: &mut Items<'py>) -> PyResult<()> {
        items(py, red_tiles, v, point, legal, out)
    }

    fn legal<'py>(py: Python<'py>, _: Point, legal: &[Action], tuples: &Tuples<'py, Action>) -> PyResult<Option<Bound<'py, PyList>>> {
        legal_list(py, legal.iter().map(|&a| tuples.get(a, || action_tuple(py, a))))
    }

    fn play_with(rules: &Rules, lineup: &[Knobs], batch: &Batch, outside: &mut Outside<'_, Suzume>) -> Result<Vec<Table>, PlayerError> {
        play_tables(rules, lineup, batch, outside)
    }

    fn show_with(rules: &Rules, lineup: &[Knobs], batch: &Batch, outside: &mut Outside<'_, Suzume>) -> Result<Vec<Table>, PlayerError> {
        show_with(rules, lineup, batch, outside)
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(suzume_score, m)?)
}
