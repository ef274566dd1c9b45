//! Engine-alone throughput of the reference experiment (hanchan, Tenhou preset, four efficiency
//! players): `cargo run --release --example riichi_speed [games]`. The benchmark script
//! `benchmarks/riichi_game.py` reports the same through Python and the whole pipeline.
use simharness_engine::game::{Batch, Game};
use simharness_engine::games::riichi::{rules, strategies::Knobs, Riichi};

fn main() {
    let games: u64 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(500);
    let rules = rules::resolve("tenhou", &serde_json::json!({})).expect("tenhou preset");
    let lineup = vec![Knobs::default(); 4];
    let t = std::time::Instant::now();
    let tables = Riichi::play(&rules, &lineup, &Batch { seed: 1, first_game: 0, count: games, duplicate: false });
    let dt = t.elapsed().as_secs_f64();
    println!("{games} hanchan, {} hands in {dt:.2}s: {:.0} hanchan/s", tables[2].rows, games as f64 / dt);
}
