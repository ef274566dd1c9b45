//! Hong Kong mahjong entry points: scoring one hand.

use super::{option_error, parse_json};
use crate::game::resolve_preset;
use crate::games::hongkong::rules::{presets, Rules};
use crate::games::hongkong::scoring::{score_report, ScoreRequest};
use crate::options::OptionError;
use pyo3::prelude::*;

/// JSON report of one hand (see `scoring::score_report`); `rules` is a JSON object of rule
/// overrides on `preset`. Bad tiles, counts or options raise `ValueError((field, message))`.
#[pyfunction]
#[pyo3(signature = (hand, win, melds, self_draw, seat_wind="E", round_wind="E", flowers="", seasons="", last_tile=false, replacement=false, robbing_kong=false, heavenly=false, earthly=false, preset="default", rules="{}"))]
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
    };
    let report = score_report(&rules, &req).map_err(|e| option_error(OptionError::new(e.field, e.message)))?;
    Ok(report.to_string())
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(hongkong_score, m)?)?;
    Ok(())
}
