//! PyO3 entry points of the Riichi game engine beyond the generic batch: replay of recorded hands,
//! and batches in which some lineup slots are Python strategies.
//!
//! The Python strategy protocol: an object with `decide(view: dict, legal: list[tuple]) -> int`,
//! called only at decision points that offer a choice, returning the index of the chosen legal
//! action. Actions are tuples: `("discard", tile, riichi)`, `("tsumo",)`, `("ankan", kind)`,
//! `("kakan", tile)`, `("kyuushu",)`, `("pass",)`, `("ron",)`, `("pon", (t1, t2))`,
//! `("chi", (t1, t2))`, `("kan",)`, `("nuki", tile)`, with Tenhou tile ids (kind = id // 4;
//! flowers 136–143). A Python strategy is a [`Player`] like the native ones and sees what its
//! seat's [`View`] holds; the points the protocol does not ask (a noten claim, an open riichi,
//! yame) are answered by the slot's knobs. The view holds `seat`,
//! `point` ("turn" or "response"), `after_call`, `from` and `tile` (responses), `hand`, `melds`
//! (per seat: lists of (type, tiles)), `rivers`, `riichi`, `points`, `nuki` (extracted tiles per
//! seat), `dora_indicators`, `round`,
//! `honba`, `sticks`, `dealer`, `live_remaining`, `shanten` (of the own hand) and `shanten_after`
//! (bytes, one per legal action: the shanten after that discard, 255 for any other action).

use super::protocol::{legal_list, Items, Protocol, Tuples};
use super::{option_error, parse_json};
use crate::decide::{Outside, PlayerError};
use crate::game::Batch;
use crate::games::riichi::actions::{Action, Point, View};
use crate::games::riichi::batch::play_tables;
use crate::games::riichi::rules::Rules;
use crate::games::riichi::show::show_with;
use crate::games::riichi::strategies::{knob_answer, Knobs};
use crate::games::riichi::{accept, replay, rules, shanten, Riichi};
use crate::options::OptionError;
use crate::table::Table;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyTuple};

/// Replays one recorded hand (JSON, see `games::riichi::replay`) under the rules of `preset` with
/// `overrides` (JSON object); returns the engine's result as JSON.
#[pyfunction]
fn riichi_replay_hand(preset: &str, overrides: &str, hand: &str) -> PyResult<String> {
    let rules = rules::resolve(preset, &parse_json("rules", overrides)?).map_err(option_error)?;
    let hand = parse_json("hand", hand)?;
    replay::replay_hand(&rules, &hand).map(|v| v.to_string()).map_err(|e| option_error(OptionError::new("hand", e)))
}

/// `shanten_after` of an action that is no discard.
const NOT_A_DISCARD: u8 = 255;

fn action_tuple<'py>(py: Python<'py>, a: Action) -> PyResult<Bound<'py, PyTuple>> {
    Ok(match a {
        Action::Discard { tile, riichi } => (intern!(py, "discard"), tile, riichi).into_pyobject(py)?.into_any(),
        Action::Tsumo => (intern!(py, "tsumo"),).into_pyobject(py)?.into_any(),
        Action::Ankan { kind } => (intern!(py, "ankan"), kind).into_pyobject(py)?.into_any(),
        Action::Kakan { tile } => (intern!(py, "kakan"), tile).into_pyobject(py)?.into_any(),
        Action::Kyuushu => (intern!(py, "kyuushu"),).into_pyobject(py)?.into_any(),
        Action::Pass => (intern!(py, "pass"),).into_pyobject(py)?.into_any(),
        Action::Ron => (intern!(py, "ron"),).into_pyobject(py)?.into_any(),
        Action::Pon { tiles } => (intern!(py, "pon"), (tiles[0], tiles[1])).into_pyobject(py)?.into_any(),
        Action::Chi { tiles } => (intern!(py, "chi"), (tiles[0], tiles[1])).into_pyobject(py)?.into_any(),
        Action::Daiminkan => (intern!(py, "kan"),).into_pyobject(py)?.into_any(),
        Action::Nuki { tile } => (intern!(py, "nuki"), tile).into_pyobject(py)?.into_any(),
        // Never offered to a Python strategy: its knobs answer those points.
        Action::DeclareNoten => (intern!(py, "noten"),).into_pyobject(py)?.into_any(),
        Action::OpenRiichi => (intern!(py, "open"),).into_pyobject(py)?.into_any(),
        Action::Yame => (intern!(py, "yame"),).into_pyobject(py)?.into_any(),
    }
    .cast_into::<PyTuple>()?)
}

fn items<'py>(py: Python<'py>, v: &View<'_>, point: Point, legal: &[Action], out: &mut Items<'py>) -> PyResult<()> {
    out.item("seat", || Ok(v.seat))?;
    out.item("point", || Ok(point.name()))?;
    match point {
        Point::Turn { after_call } => out.item("after_call", || Ok(after_call))?,
        Point::Response { from, tile, kan } => {
            out.item("from", || Ok(from))?;
            out.item("tile", || Ok(tile))?;
            out.item("kan", || Ok(kan))?;
        }
        Point::Noten { .. } | Point::OpenRiichi | Point::Yame => {}
    }
    // Tile lists as u16 so that they reach Python as lists of ints, not bytes.
    let ids = |v: &[u8]| v.iter().map(|&t| u16::from(t)).collect::<Vec<u16>>();
    let sorted = |v: &[u8]| {
        let mut h = ids(v);
        h.sort_unstable();
        h
    };
    out.item("hand", || Ok(sorted(&v.own.hand)))?;
    let seated = &v.seats[..v.n];
    out.item("melds", || {
        let melds = PyList::empty(py);
        for p in seated {
            let ms: Vec<(&str, Vec<u16>)> = p.melds.iter().map(|m| (m.kind.name(), ids(&m.tiles[..usize::from(m.n)]))).collect();
            melds.append(ms)?;
        }
        Ok(melds)
    })?;
    out.item("rivers", || Ok(seated.iter().map(|p| ids(&p.river)).collect::<Vec<_>>()))?;
    out.item("riichi", || Ok(seated.iter().map(|p| p.riichi).collect::<Vec<_>>()))?;
    // An open riichi (local yaku open_riichi) shows its concealed tiles to everyone.
    out.item("open_hands", || Ok(v.shown[..v.n].iter().map(|s| s.map(|s| sorted(s.hand))).collect::<Vec<_>>()))?;
    out.item("points", || Ok(seated.iter().map(|p| p.points).collect::<Vec<_>>()))?;
    out.item("nuki", || Ok(seated.iter().map(|p| ids(&p.nuki)).collect::<Vec<_>>()))?;
    out.item("dora_indicators", || Ok(ids(v.dora_indicators)))?;
    out.item("round", || Ok(v.progress.round))?;
    out.item("honba", || Ok(v.progress.honba))?;
    out.item("sticks", || Ok(v.progress.sticks))?;
    out.item("dealer", || Ok(v.dealer))?;
    out.item("live_remaining", || Ok(v.live_remaining))?;
    out.item("shanten", || Ok(shanten::shanten(&v.own.counts)))?;
    out.item("shanten_after", || {
        // The engine's table of every discard's shanten, which its own turn has usually built.
        let after = accept::after_discards(&v.own.counts);
        let of = |a: &Action| match *a {
            Action::Discard { tile, .. } => after[usize::from(tile / 4)] as u8,
            _ => NOT_A_DISCARD,
        };
        Ok(PyBytes::new(py, &legal.iter().map(of).collect::<Vec<u8>>()))
    })?;
    Ok(())
}

impl Protocol for Riichi {
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

    fn knob_answer(knobs: &Knobs, v: &View<'_>, point: Point, _: &[Action]) -> Option<Action> {
        knob_answer(knobs, v, point)
    }

    fn play_with(rules: &Rules, lineup: &[Knobs], batch: &Batch, outside: &mut Outside<'_, Riichi>) -> Result<Vec<Table>, PlayerError> {
        play_tables(rules, lineup, batch, outside)
    }

    fn show_with(rules: &Rules, lineup: &[Knobs], batch: &Batch, outside: &mut Outside<'_, Riichi>) -> Result<Vec<Table>, PlayerError> {
        show_with(rules, lineup, batch, outside)
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(riichi_replay_hand, m)?)?;
    Ok(())
}
