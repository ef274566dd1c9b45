//! Trump mahjong entry points: scoring one hand, and batches in which some lineup slots are Python
//! strategies.
//!
//! The Python strategy protocol (documented in `simharness/games/trump/python.py`): an object with
//! `decide(view: dict, legal: list[tuple]) -> int`, asked at the decision points of spec §10
//! (`point` "joker" = D1/D6, "tsumo" = D2, "discard" = D3/D4, "ron" = D5) and returning the index
//! of the chosen action: `("keep",)`/`("set_aside",)`, `("tsumo",)`/`("pass",)`, `("discard", card)`
//! per card in hand and, when riichi is legal, `("riichi", card)` per card whose discard leaves a
//! tenpai hand, `("ron",)`/`("pass",)`. A Python strategy is a [`Player<Trump>`](crate::decide::Player)
//! like the native ones: the view dict and the legal tuples are built from the seat's [`View`], the
//! point and its legal [`Action`]s alone.

use super::protocol::{legal_list, Items, Protocol, Tuples};
use super::{option_error, parse_json};
use crate::decide::{Outside, PlayerError};
use crate::game::Batch;
use crate::games::trump::actions::{Action, Point, View};
use crate::games::trump::batch::play_tables;
use crate::games::trump::hand::YAKU;
use crate::games::trump::scoring::{score_report, Query};
use crate::games::trump::show::show_with;
use crate::games::trump::{Knobs, Rules, Trump};
use crate::options::{Options, Validate};
use crate::table::Table;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyTuple};

/// JSON report of one hand's value (see `scoring::score_report`); `rules` is a JSON object of rule
/// overrides. Bad cards, counts or options raise `ValueError((field, message))`.
#[pyfunction]
#[pyo3(signature = (hand, win, ron=false, riichi=false, double_riichi=false, ippatsu=false, first_turn=false, dealer=false,
    seat_wind=None, round_wind=None, indicator=None, ura_indicator=None, jokers=0, discards="", rules="{}"))]
#[allow(clippy::too_many_arguments)]
fn trump_score(
    hand: &str,
    win: &str,
    ron: bool,
    riichi: bool,
    double_riichi: bool,
    ippatsu: bool,
    first_turn: bool,
    dealer: bool,
    seat_wind: Option<&str>,
    round_wind: Option<&str>,
    indicator: Option<&str>,
    ura_indicator: Option<&str>,
    jokers: i64,
    discards: &str,
    rules: &str,
) -> PyResult<String> {
    let rules = Rules::from_json(&parse_json("rules", rules)?).map_err(option_error)?;
    rules.validate().map_err(option_error)?;
    let q = Query {
        hand,
        win,
        ron,
        riichi,
        double_riichi,
        ippatsu,
        first_turn,
        dealer,
        seat_wind,
        round_wind,
        indicator,
        ura_indicator,
        jokers,
        discards,
    };
    Ok(score_report(&q, &rules).map_err(option_error)?.to_string())
}

fn kinds_of(mask: u16) -> Vec<u16> {
    (0..14).filter(|k| mask & (1 << k) != 0).collect()
}

/// `shanten_after` of an action that is no discard.
const NOT_A_DISCARD: u8 = 255;

/// What a seat sees at a decision (the protocol's view, `simharness/games/trump/python.py`).
fn items<'py>(py: Python<'py>, v: &View<'_>, point: Point, legal: &[Action], out: &mut Items<'py>) -> PyResult<()> {
    out.item("point", || Ok(point.name()))?;
    out.item("seat", || Ok(v.seat))?;
    out.item("dealer", || Ok(v.dealer))?;
    out.item("hand", || Ok(v.hand.iter().map(|c| u16::from(c.0)).collect::<Vec<_>>()))?;
    out.item("card", || Ok(v.hand.last().map(|c| u16::from(c.0))))?;
    out.item("seen", || Ok(v.seen.to_vec()))?;
    out.item("discarded", || Ok(v.discarded.iter().map(|&m| kinds_of(m)).collect::<Vec<_>>()))?;
    out.item("discarded_after_riichi", || Ok(v.discarded_after_riichi.iter().map(|&m| kinds_of(m)).collect::<Vec<_>>()))?;
    out.item("riichi", || Ok(v.riichi.to_vec()))?;
    out.item("jokers_aside", || Ok(v.aside.to_vec()))?;
    out.item("dora", || Ok(v.dora))?;
    out.item("seat_wind", || Ok(v.seat_wind))?;
    out.item("round_wind", || Ok(v.round_wind))?;
    out.item("live", || Ok(v.live))?;
    out.item("points", || Ok(v.points.to_vec()))?;
    out.item("pool", || Ok(v.pool))?;
    out.item("shanten_after", || {
        // The engine's §12 helpers of each discard, which it built for this decision.
        let of = |a: &Action| match (a, v.after) {
            (Action::Discard { card, .. }, Some(after)) => after[usize::from(card.kind())].normal as u8,
            _ => NOT_A_DISCARD,
        };
        Ok(PyBytes::new(py, &legal.iter().map(of).collect::<Vec<u8>>()))
    })?;
    if let Point::Tsumo(value) | Point::Ron(value) = point {
        out.item("win", || {
            let w = PyDict::new(py);
            w.set_item("han", value.han)?;
            w.set_item("points", value.points)?;
            w.set_item("yaku", YAKU.iter().filter(|y| value.yaku & y.bit() != 0).map(|y| y.name()).collect::<Vec<_>>())?;
            w.set_item("dora", value.dora)?;
            w.set_item("jokers", value.jokers)?;
            Ok(w)
        })?;
    }
    Ok(())
}

/// An action as the protocol's tuple: a card as its id.
fn action_tuple(py: Python<'_>, a: Action) -> PyResult<Bound<'_, PyTuple>> {
    match a {
        Action::Keep => (intern!(py, "keep"),).into_pyobject(py),
        Action::SetAside => (intern!(py, "set_aside"),).into_pyobject(py),
        Action::Tsumo => (intern!(py, "tsumo"),).into_pyobject(py),
        Action::Ron => (intern!(py, "ron"),).into_pyobject(py),
        Action::Pass => (intern!(py, "pass"),).into_pyobject(py),
        Action::Discard { card, riichi } => {
            (if riichi { intern!(py, "riichi") } else { intern!(py, "discard") }, u16::from(card.0)).into_pyobject(py)
        }
    }
}

impl Protocol for Trump {
    type Context<'py> = ();

    fn context(_: Python<'_>, _: &Rules) -> PyResult<()> {
        Ok(())
    }

    fn items<'py>(py: Python<'py>, (): &(), v: &View<'_>, point: Point, legal: &[Action], out: &mut Items<'py>) -> PyResult<()> {
        items(py, v, point, legal, out)
    }

    fn legal<'py>(py: Python<'py>, _: Point, legal: &[Action], tuples: &Tuples<'py, Action>) -> PyResult<Option<Bound<'py, PyList>>> {
        legal_list(py, legal.iter().map(|&a| tuples.get(a, || action_tuple(py, a))))
    }

    fn play_with(rules: &Rules, lineup: &[Knobs], batch: &Batch, outside: &mut Outside<'_, Trump>) -> Result<Vec<Table>, PlayerError> {
        play_tables(rules, lineup, batch, outside)
    }

    fn show_with(rules: &Rules, lineup: &[Knobs], batch: &Batch, outside: &mut Outside<'_, Trump>) -> Result<Vec<Table>, PlayerError> {
        show_with(rules, lineup, batch, outside)
    }
}

/// The yaku names in bit order of `hands.yaku` and `win_yaku.yaku` (the engine's `Yaku::name`).
#[pyfunction]
fn trump_yaku_names() -> Vec<&'static str> {
    let mut names = vec![""; YAKU.len()];
    for y in YAKU {
        names[y as usize] = y.name();
    }
    names
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(trump_score, m)?)?;
    m.add_function(wrap_pyfunction!(trump_yaku_names, m)?)
}
