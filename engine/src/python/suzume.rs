//! Suzume-jong entry points: scoring one hand.

use super::{option_error, parse_json};
use crate::games::suzume::scoring::score_report;
use crate::games::suzume::Rules;
use crate::options::{Options, Validate};
use pyo3::prelude::*;

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

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(suzume_score, m)?)
}
