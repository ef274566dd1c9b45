//! PyO3 entry points of the Riichi game engine beyond the generic batch: replay of recorded hands,
//! and batches in which some lineup slots are Python strategies.
//!
//! The Python strategy protocol: an object with `decide(view: dict, legal: list[tuple]) -> int`,
//! called only at decision points that offer a choice, returning the index of the chosen legal
//! action. Actions are tuples: `("discard", tile, riichi)`, `("tsumo",)`, `("ankan", kind)`,
//! `("kakan", tile)`, `("kyuushu",)`, `("pass",)`, `("ron",)`, `("pon", (t1, t2))`,
//! `("chi", (t1, t2))`, `("kan",)`, `("nuki", tile)`, with Tenhou tile ids (kind = id // 4;
//! flowers 136–143). The view holds `seat`,
//! `point` ("turn" or "response"), `after_call`, `from` and `tile` (responses), `hand`, `melds`
//! (per seat: lists of (type, tiles)), `rivers`, `riichi`, `points`, `nuki` (extracted tiles per
//! seat), `dora_indicators`, `round`,
//! `honba`, `sticks`, `dealer`, `live_remaining` and `shanten` (of the own hand).

use super::{chosen_index, option_error, parse_json, PySlots, Slotted};
use crate::game::Batch;
use crate::games::riichi::actions::{Action, Point};
use crate::games::riichi::batch::{play_tables, Hook};
use crate::games::riichi::rules::Rules;
use crate::games::riichi::show::show_with;
use crate::games::riichi::state::{Player, State};
use crate::games::riichi::strategies::Knobs;
use crate::games::riichi::{replay, rules, shanten, Riichi};
use crate::options::OptionError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};

/// Replays one recorded hand (JSON, see `games::riichi::replay`) under the rules of `preset` with
/// `overrides` (JSON object); returns the engine's result as JSON.
#[pyfunction]
fn riichi_replay_hand(preset: &str, overrides: &str, hand: &str) -> PyResult<String> {
    let rules = rules::resolve(preset, &parse_json("rules", overrides)?).map_err(option_error)?;
    let hand = parse_json("hand", hand)?;
    replay::replay_hand(&rules, &hand).map(|v| v.to_string()).map_err(|e| option_error(OptionError::new("hand", e)))
}

struct PyHook<'py> {
    slots: PySlots<'py>,
}

fn action_tuple<'py>(py: Python<'py>, a: Action) -> PyResult<Bound<'py, PyTuple>> {
    Ok(match a {
        Action::Discard { tile, riichi } => ("discard", tile, riichi).into_pyobject(py)?.into_any(),
        Action::Tsumo => ("tsumo",).into_pyobject(py)?.into_any(),
        Action::Ankan { kind } => ("ankan", kind).into_pyobject(py)?.into_any(),
        Action::Kakan { tile } => ("kakan", tile).into_pyobject(py)?.into_any(),
        Action::Kyuushu => ("kyuushu",).into_pyobject(py)?.into_any(),
        Action::Pass => ("pass",).into_pyobject(py)?.into_any(),
        Action::Ron => ("ron",).into_pyobject(py)?.into_any(),
        Action::Pon { tiles } => ("pon", (tiles[0], tiles[1])).into_pyobject(py)?.into_any(),
        Action::Chi { tiles } => ("chi", (tiles[0], tiles[1])).into_pyobject(py)?.into_any(),
        Action::Daiminkan => ("kan",).into_pyobject(py)?.into_any(),
        Action::Nuki { tile } => ("nuki", tile).into_pyobject(py)?.into_any(),
    }
    .cast_into::<PyTuple>()?)
}

fn view<'py>(py: Python<'py>, s: &State<'_>, seat: usize, point: Point) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("seat", seat)?;
    match point {
        Point::Turn { after_call } => {
            d.set_item("point", "turn")?;
            d.set_item("after_call", after_call)?;
        }
        Point::Response { from, tile, kan } => {
            d.set_item("point", "response")?;
            d.set_item("from", from)?;
            d.set_item("tile", tile)?;
            d.set_item("kan", kan)?;
        }
    }
    // Tile lists as u16 so that they reach Python as lists of ints, not bytes.
    let ids = |v: &[u8]| v.iter().map(|&t| u16::from(t)).collect::<Vec<u16>>();
    let mut hand = ids(&s.p[seat].hand);
    hand.sort_unstable();
    d.set_item("hand", hand)?;
    let seated = &s.p[..s.n];
    let melds = PyList::empty(py);
    for p in seated {
        let ms: Vec<(&str, Vec<u16>)> = p.melds.iter().map(|m| (m.kind.name(), ids(&m.tiles[..usize::from(m.n)]))).collect();
        melds.append(ms)?;
    }
    d.set_item("melds", melds)?;
    d.set_item("rivers", seated.iter().map(|p| ids(&p.river)).collect::<Vec<_>>())?;
    d.set_item("riichi", seated.iter().map(|p| p.riichi).collect::<Vec<_>>())?;
    // An open riichi (local yaku open_riichi) shows its concealed tiles to everyone.
    let shown = |p: &Player| {
        p.open_riichi.then(|| {
            let mut h = ids(&p.hand);
            h.sort_unstable();
            h
        })
    };
    d.set_item("open_hands", seated.iter().map(shown).collect::<Vec<_>>())?;
    d.set_item("points", seated.iter().map(|p| p.points).collect::<Vec<_>>())?;
    d.set_item("nuki", seated.iter().map(|p| ids(&p.nuki)).collect::<Vec<_>>())?;
    d.set_item("dora_indicators", ids(&s.indicator_ids().0))?;
    d.set_item("round", s.progress.round)?;
    d.set_item("honba", s.progress.honba)?;
    d.set_item("sticks", s.progress.sticks)?;
    d.set_item("dealer", s.dealer)?;
    d.set_item("live_remaining", s.live_remaining())?;
    d.set_item("shanten", shanten::shanten(&s.p[seat].counts))?;
    Ok(d)
}

impl Hook for PyHook<'_> {
    fn decide(&mut self, slot: u8, s: &State<'_>, seat: usize, point: Point, legal: &[Action]) -> Option<Result<Action, String>> {
        let at = match point {
            Point::Turn { .. } => "turn",
            Point::Response { .. } => "response",
        };
        let args = |py| {
            let options = PyList::empty(py);
            for &a in legal {
                options.append(action_tuple(py, a)?)?;
            }
            PyTuple::new(py, [view(py, s, seat, point)?.into_any(), options.into_any()])
        };
        let answer = self.slots.decide(slot, seat, at, args, |r| chosen_index(r, legal.len()))?;
        // A failure stops the game at once; the slots keep the strategy's exception.
        Some(answer.map(|i| legal[i]).ok_or_else(|| format!("Python strategy of lineup slot {slot} failed")))
    }
}

impl<'py> Slotted<'py> for PyHook<'py> {
    fn slots(&mut self) -> &mut PySlots<'py> {
        &mut self.slots
    }
}

python_entry_points!(
    Riichi,
    riichi_play_batch_python,
    riichi_show_python,
    |slots, _: &Rules| Ok(PyHook { slots }),
    |rules: &Rules, lineup: &[Knobs], batch: &Batch, hook: &mut PyHook<'_>| play_tables(rules, lineup, batch, hook),
    |rules: &Rules, lineup: &[Knobs], batch: &Batch, hook: &mut PyHook<'_>| show_with(rules, lineup, batch, hook)
);

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(riichi_replay_hand, m)?)?;
    m.add_function(wrap_pyfunction!(riichi_play_batch_python, m)?)?;
    m.add_function(wrap_pyfunction!(riichi_show_python, m)?)?;
    Ok(())
}
