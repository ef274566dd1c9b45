//! Engine-alone throughput of the reference experiment (hanchan, Tenhou preset, four efficiency
//! players, the config's seed): `cargo run --release --example riichi_speed [games]`. The benchmark
//! script `benchmarks/riichi_game.py` reports the same through Python and the whole pipeline.
use simharness_engine::game::{Batch, Game};
use simharness_engine::games::riichi::{rules, strategies::Knobs, Riichi};

fn main() {
    let games: u64 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(500);
    let rules = rules::resolve("tenhou", &serde_json::json!({})).expect("tenhou preset");
    let lineup = vec![Knobs::default(); 4];
    let batch = |first_game, count| Batch { seed: 20261121, first_game, count, duplicate: false };
    // The evaluator's tables are built once per process, as in a run: not timed.
    Riichi::play(&rules, &lineup, &batch(games, 1));
    let t = std::time::Instant::now();
    let tables = Riichi::play(&rules, &lineup, &batch(0, games));
    let dt = t.elapsed().as_secs_f64();
    // FNV-1a over every column: equal digests before and after a change mean the same games.
    let digest = tables
        .iter()
        .flat_map(|t| &t.columns)
        .flat_map(|c| &c.data)
        .fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3));
    println!("{games} hanchan, {} hands in {dt:.2}s: {:.0} hanchan/s, digest {digest:016x}", tables[2].rows, games as f64 / dt);
}
