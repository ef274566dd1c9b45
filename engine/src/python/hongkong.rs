//! Hong Kong mahjong entry points: scoring one hand, and the Python strategy protocol (documented
//! in `simharness/games/hongkong/python.py`): an object with `decide(view: dict, legal: list) ->
//! int`, asked at every decision point of spec §10 for the seats of its lineup slot, as a
//! [`Player`](crate::decide::Player) like the native knobs, from the seat's [`View`] alone.
//! `legal` lists `("tsumo",)`/`("ron",)` before `("pass",)` at a win, each claim (`("kong",)`,
//! `("pung",)`, `("chow", base)`) then `("pass",)`, each `("kong", kind)` then `("pass",)`, and
//! one `("discard", kind)` per held kind, lowest first; the view dict is built in [`view`].

use super::protocol::{chosen_index, legal_list, Items, Protocol, Tuples};
use super::{option_error, parse_json};
use crate::decide::{Outside, PlayerError};
use crate::game::{resolve_preset, Batch};
use crate::games::hongkong::actions::{Action, Claim, Point, View};
use crate::games::hongkong::batch::play_tables;
use crate::games::hongkong::hand::{HkMeld, Limit, Value};
use crate::games::hongkong::rules::{presets, Rules};
use crate::games::hongkong::scoring::{score_report, ScoreRequest};
use crate::games::hongkong::show::show_with;
use crate::games::hongkong::strategies::{shanten_after, ukeire, Knobs};
use crate::games::hongkong::HongKong;
use crate::games::riichi::accept;
use crate::games::riichi::tiles::{Counts, MeldKind, KINDS};
use crate::options::OptionError;
use crate::table::Table;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyTuple};

/// JSON report of one hand (see `scoring::score_report`); `rules` is a JSON object of rule
/// overrides on `preset`. Bad tiles, counts or options raise `ValueError((field, message))`.
#[pyfunction]
#[pyo3(signature = (hand, win, melds, self_draw, seat_wind="E", round_wind="E", flowers="", seasons="", last_tile=false, replacement=false, robbing_kong=false, heavenly=false, earthly=false, kong_on_kong=false, preset="default", rules="{}"))]
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
    kong_on_kong: bool,
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
        kong_on_kong,
    };
    let report = score_report(&rules, &req).map_err(|e| option_error(OptionError::new(e.field, e.message)))?;
    Ok(report.to_string())
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

/// The protocol's view: the point, its tile and (at a win) the win on offer, then the seat's
/// view.
fn items<'py>(py: Python<'py>, v: &View<'_>, point: Point, legal: &[Action], out: &mut Items<'py>) -> PyResult<()> {
    if let Some(value) = v.win {
        out.item("win", || win(py, value))?;
    }
    let tile = match point {
        Point::SelfDraw { tile } | Point::WinOn { tile } | Point::Claim { tile } => Some(tile),
        Point::Kong | Point::Discard => None,
    };
    out.item("point", || Ok(point.name()))?;
    out.item("tile", || Ok(tile.map(u16::from)))?;
    out.item("from", || Ok(v.turn))?;
    out.item("seat", || Ok(v.seat))?;
    out.item("dealer", || Ok(v.dealer))?;
    out.item("round_wind", || Ok(v.round_wind))?;
    out.item("seat_wind", || Ok((v.seat + 4 - v.dealer) % 4))?;
    out.item("hand", || Ok(kinds(v.concealed)))?;
    out.item("melds", || {
        let all = PyList::empty(py);
        for ms in v.all_melds {
            all.append(melds(py, ms)?)?;
        }
        Ok(all)
    })?;
    out.item("rivers", || Ok(v.rivers.iter().map(|r| r.iter().map(|&k| u16::from(k)).collect::<Vec<u16>>()).collect::<Vec<_>>()))?;
    out.item("visible", || Ok(v.visible.iter().map(|&n| u16::from(n)).collect::<Vec<u16>>()))?;
    out.item("flowers", || Ok(v.bonus.map(|b| numbers(b.0))))?;
    out.item("seasons", || Ok(v.bonus.map(|b| numbers(b.1))))?;
    out.item("points", || Ok(v.points))?;
    out.item("live", || Ok(v.live))?;
    // One byte per action, in the order of the protocol's `legal`.
    let listed = |f: &dyn Fn(&Action) -> u8| {
        let bytes: Vec<u8> = if is_win(point) { legal.iter().rev().map(f).collect() } else { legal.iter().map(f).collect() };
        PyBytes::new(py, &bytes)
    };
    out.item("shanten_after", || {
        Ok(listed(&|&a| match shanten_after(v, point, a) {
            i8::MAX => NONE,
            s => s as u8,
        }))
    })?;
    out.item("ukeire_after", || {
        let discards = legal.iter().fold(0u64, |m, a| if let Action::Discard(k) = *a { m | 1 << k } else { m });
        let accepting = accept::accepting_after(v.concealed, discards);
        Ok(listed(&|&a| match a {
            // At most 4 copies of 34 kinds: a byte holds it.
            Action::Discard(k) => ukeire(v, k, accepting[usize::from(k)]) as u8,
            _ => NONE,
        }))
    })?;
    Ok(())
}

/// `shanten_after` and `ukeire_after` of an action they do not apply to.
const NONE: u8 = 255;

/// Whether `point` is a win, whose protocol lists the win before the pass (the engine's yes/no
/// points list `[Pass, Win]`).
fn is_win(point: Point) -> bool {
    matches!(point, Point::SelfDraw { .. } | Point::WinOn { .. })
}

/// An action as the protocol's `legal` entry at `point`: `(name,)` or `(name, kind)`.
fn action_tuple<'py>(py: Python<'py>, point: Point, a: Action) -> PyResult<Bound<'py, PyTuple>> {
    let (name, kind) = match a {
        Action::Pass => ("pass", None),
        Action::Win => (point.name(), None),
        Action::Claim(Claim::Kong) => ("kong", None),
        Action::Claim(Claim::Pung) => ("pung", None),
        Action::Claim(Claim::Chow { base }) => ("chow", Some(base)),
        Action::Kong(k) => ("kong", Some(k)),
        Action::Discard(k) => ("discard", Some(k)),
    };
    match kind {
        Some(k) => PyTuple::new(py, [name.into_pyobject(py)?.into_any(), u16::from(k).into_pyobject(py)?.into_any()]),
        None => PyTuple::new(py, [name]),
    }
}

impl Protocol for HongKong {
    type Context<'py> = ();

    fn context(_: Python<'_>, _: &Rules) -> PyResult<()> {
        Ok(())
    }

    fn items<'py>(py: Python<'py>, (): &(), v: &View<'_>, point: Point, legal: &[Action], out: &mut Items<'py>) -> PyResult<()> {
        items(py, v, point, legal, out)
    }

    fn legal<'py>(py: Python<'py>, point: Point, legal: &[Action], tuples: &Tuples<'py, Action>) -> PyResult<Option<Bound<'py, PyList>>> {
        // A win's tuple is named by its point (tsumo or ron): not one per action.
        let tuple = |&a: &Action| if a == Action::Win { action_tuple(py, point, a) } else { tuples.get(a, || action_tuple(py, point, a)) };
        if is_win(point) {
            legal_list(py, legal.iter().rev().map(tuple))
        } else {
            legal_list(py, legal.iter().map(tuple))
        }
    }

    fn chosen(answer: &Bound<'_, PyAny>, point: Point, legal: &[Action]) -> PyResult<usize> {
        let i = chosen_index(answer, legal.len())?;
        Ok(if is_win(point) { legal.len() - 1 - i } else { i })
    }

    fn play_with(rules: &Rules, lineup: &[Knobs], batch: &Batch, outside: &mut Outside<'_, HongKong>) -> Result<Vec<Table>, PlayerError> {
        play_tables(rules, lineup, batch, outside)
    }

    fn show_with(rules: &Rules, lineup: &[Knobs], batch: &Batch, outside: &mut Outside<'_, HongKong>) -> Result<Vec<Table>, PlayerError> {
        show_with(rules, lineup, batch, outside)
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(hongkong_score, m)?)
}
