//! simharness engine: the rules, hand evaluation, game loops and built-in strategies of every game
//! the harness plays, as plain Rust. The optional `python` feature adds the PyO3 layer
//! (`simharness._engine`) that plays batches and returns columns.

pub mod competence;
pub mod decide;
pub mod game;
pub mod games;
pub mod options;
pub mod rng;
pub mod standings;
pub mod table;
#[cfg(test)]
pub(crate) mod testing;

#[cfg(feature = "python")]
mod python;
