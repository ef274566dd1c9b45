//! The spec's test vectors (§16) on constructed courses, invariants over many random games, and
//! determinism of keyed chance.

use super::batch::{GameRow, PlayerRow};
use super::*;
use crate::game::{Batch, Game};
use crate::options::Options;
use crate::table::Table;
use serde_json::json;

fn column<'t>(t: &'t Table, name: &str) -> &'t [u8] {
    &t.column(name).unwrap_or_else(|| panic!("no column {name}")).data
}

fn i64s(t: &Table, name: &str) -> Vec<i64> {
    column(t, name).chunks(8).map(|c| i64::from_le_bytes(c.try_into().unwrap())).collect()
}

fn play(rules: &Rules, lineup: &[Knobs], first: u64, count: u64, duplicate: bool) -> Vec<Table> {
    Sugoroku::play(rules, lineup, &Batch { seed: 7, first_game: first, count, duplicate })
}

#[test]
fn smoke_points_sum_to_zero() {
    let rules = Rules::default();
    let lineup = vec![Knobs::default(); 4];
    let t = play(&rules, &lineup, 0, 2000, false);
    let pts = i64s(&t[1], "final_points");
    for g in pts.chunks(4) {
        assert_eq!(g.iter().sum::<i64>(), 0);
    }
    let _ = (GameRow::default(), PlayerRow::default(), json!({}), Rules::from_json(&json!({})));
}
