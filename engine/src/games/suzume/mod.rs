//! Suzume-jong (すずめ雀): 44 tiles, 5-tile hands, two sets to win. Spec: `rules/suzume.md`.

pub mod actions;
pub mod batch;
pub mod rules;
pub mod scoring;
pub mod state;
pub mod strategies;

#[cfg(test)]
mod tests;

pub use rules::Rules;
pub use strategies::Knobs;

/// The game marker type; `impl Game` is in `batch.rs`.
pub struct Suzume;
