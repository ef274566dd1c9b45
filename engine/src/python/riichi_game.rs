//! PyO3 entry points of the Riichi game engine beyond the generic batch: replay of recorded hands.

use super::{option_error, parse_json};
use crate::games::riichi::{replay, rules};
use crate::options::OptionError;
use pyo3::prelude::*;

/// Replays one recorded hand (JSON, see `games::riichi::replay`) under the rules of `preset` with
/// `overrides` (JSON object); returns the engine's result as JSON.
#[pyfunction]
fn riichi_replay_hand(preset: &str, overrides: &str, hand: &str) -> PyResult<String> {
    let rules = rules::resolve(preset, &parse_json("rules", overrides)?).map_err(option_error)?;
    let hand = parse_json("hand", hand)?;
    replay::replay_hand(&rules, &hand).map(|v| v.to_string()).map_err(|e| option_error(OptionError::new("hand", e)))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(riichi_replay_hand, m)?)?;
    Ok(())
}
