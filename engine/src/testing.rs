//! Test support shared by the games' tests.

use crate::options::Options;
use serde_json::{json, Map, Value};
use std::path::PathBuf;

/// The built-in strategies of `game`: the `[knobs]` of every script in `strategies/<game>/` (a
/// Python strategy's script has none and is left out), by name, in name order.
pub fn builtin<K: Options>(game: &str) -> Vec<(String, K)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../strategies").join(game);
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        if text.lines().any(|l| l.starts_with("python")) {
            continue;
        }
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let knobs = K::from_json(&knob_table(&text)).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        out.push((name, knobs));
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// The `[knobs]` table of a strategy script (`key = value` lines of strings, booleans, integers
/// and decimals).
fn knob_table(script: &str) -> Value {
    let mut knobs = Map::new();
    let mut lines = script.lines().map(str::trim).skip_while(|l| *l != "[knobs]").skip(1);
    for line in lines.by_ref().take_while(|l| !l.starts_with('[')) {
        let Some((key, value)) = line.split_once('=') else { continue };
        let value = value.split(" #").next().unwrap_or(value).trim();
        let parsed = match value {
            "true" | "false" => json!(value == "true"),
            v if v.starts_with('"') => json!(v.trim_matches('"')),
            v => {
                v.parse::<i64>().map(|i| json!(i)).unwrap_or_else(|_| json!(v.parse::<f64>().unwrap_or_else(|_| panic!("knob value {v}"))))
            }
        };
        knobs.insert(key.trim().to_owned(), parsed);
    }
    Value::Object(knobs)
}

#[cfg(test)]
mod tests {
    use super::builtin;
    use crate::games::{hongkong, riichi, sugoroku, suzume, trump};

    /// Each game's hidden-information test samples its built-in strategies: every script's knobs
    /// must parse here as the config loader parses them.
    #[test]
    fn every_builtin_script_of_every_game_parses() {
        let counts = [
            builtin::<sugoroku::Knobs>("sugoroku").len(),
            builtin::<suzume::Knobs>("suzume").len(),
            builtin::<riichi::strategies::Knobs>("riichi").len(),
            builtin::<hongkong::Knobs>("hongkong").len(),
            builtin::<trump::Knobs>("trump").len(),
        ];
        assert!(counts.iter().all(|&n| n >= 6), "built-in strategies per game: {counts:?}");
    }
}
