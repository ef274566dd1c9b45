//! The contract between a game and the harness.
//!
//! A game implements [`Game`] with typed rules and strategy knobs; the blanket [`GameApi`]
//! implementation turns it into the object-safe, JSON-in/columns-out interface that the registry
//! and the Python layer use, so adding a game touches no harness code.

use crate::options::{OptionError, OptionSpec, Options, Validate};
use crate::table::{Table, TableSchema};
use serde_json::{json, Value};

/// A named base rule set. Every game has the preset `default` (the spec's recommended defaults)
/// implicitly; `overrides` are applied on top of the defaults.
#[derive(Debug, Clone)]
pub struct Preset {
    pub name: &'static str,
    pub doc: &'static str,
    pub overrides: Value,
}

/// A range of games to play.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Batch {
    pub seed: u64,
    pub first_game: u64,
    pub count: u64,
    /// Duplicate play: each deal is played once per seat rotation of the lineup (see [`Seating`]).
    pub duplicate: bool,
}

impl Batch {
    pub fn games(&self) -> std::ops::Range<u64> {
        self.first_game..self.first_game + self.count
    }
}

/// A seat at the table, in turn order from the first game's seat 0. Seats and lineup slots are
/// both small numbers that index arrays and fill `u8` columns; the type keeps one from standing in
/// for the other and holds the conversions between the two widths in one place.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Seat(pub u8);

impl Seat {
    /// The seat at array index `index` (every game seats at most a handful of players).
    pub fn at(index: usize) -> Seat {
        debug_assert!(index < usize::from(u8::MAX), "seat {index}");
        Seat(index as u8)
    }

    pub fn index(self) -> usize {
        usize::from(self.0)
    }
}

impl crate::table::Cell for Seat {
    const DTYPE: &'static str = "uint8";
    fn put(self, out: &mut [u8]) {
        out[0] = self.0;
    }
}

/// Who sits where in one game.
///
/// Without duplicate play, game `g` is deal `g` and seat `s` is played by lineup slot `s`. With
/// duplicate play and `n` players, games `n·d .. n·d + n - 1` all play deal `d` (the same keyed
/// walls and dice), rotation `r = g mod n`, and seat `s` is played by lineup slot `(s + r) mod n`:
/// every strategy meets the same luck from every seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Seating {
    pub game: u64,
    pub deal: u64,
    pub rotation: u8,
    pub players: u8,
}

impl Seating {
    pub fn new(game: u64, players: u8, duplicate: bool) -> Self {
        if duplicate {
            let n = u64::from(players);
            Seating { game, deal: game / n, rotation: (game % n) as u8, players }
        } else {
            Seating { game, deal: game, rotation: 0, players }
        }
    }

    /// Every seat of the game, in turn order.
    pub fn seats(&self) -> impl Iterator<Item = Seat> {
        (0..self.players).map(Seat)
    }

    /// The lineup slot that plays `seat`, as the tables store it.
    pub fn player(&self, seat: Seat) -> u8 {
        (seat.0 + self.rotation) % self.players
    }

    /// The lineup slot that plays `seat`, as an index into the lineup.
    pub fn slot(&self, seat: Seat) -> usize {
        usize::from(self.player(seat))
    }

    /// The seat that lineup slot `slot` plays.
    pub fn seat_of(&self, slot: usize) -> Seat {
        let n = usize::from(self.players);
        Seat::at((slot % n + n - usize::from(self.rotation)) % n)
    }
}

crate::option_enum! {
    /// How equal final points rank: `shared` gives tied players the same rank (1, 1, 3: tied
    /// players share first place, and the report counts each a fraction of a win); `seat_order`
    /// breaks the tie by seat (lower seat first), as in Riichi's convention.
    pub enum Ties { Shared = "shared", SeatOrder = "seat_order" }
}

/// Ranks from final points: 1 is best; equal points are broken by seat order (lower seat first),
/// as in Riichi's convention. Returns the rank of each seat.
pub fn ranks(points: &[i64]) -> Vec<u8> {
    ranks_with(points, Ties::SeatOrder)
}

/// Ranks from final points under `ties`; a game whose source shares ties takes this as a rule
/// option. Returns the rank of each seat.
pub fn ranks_with(points: &[i64], ties: Ties) -> Vec<u8> {
    let mut order: Vec<usize> = (0..points.len()).collect();
    order.sort_by(|&a, &b| points[b].cmp(&points[a]).then(a.cmp(&b)));
    let mut rank = vec![0u8; points.len()];
    for (r, &seat) in order.iter().enumerate() {
        let shared = ties == Ties::Shared && r > 0 && points[order[r - 1]] == points[seat];
        rank[seat] = if shared { rank[order[r - 1]] } else { r as u8 + 1 };
    }
    rank
}

/// A game, typed. See `engine/src/games/sugoroku` for the module shape every game follows.
pub trait Game: Sync + Send + 'static {
    /// The name used in configs and on the command line.
    const NAME: &'static str;
    const TITLE: &'static str;
    /// Inclusive range of player counts (the lineup's length).
    const PLAYERS: (u8, u8);
    /// Where the rules come from.
    const SPEC: &'static str;

    type Rules: Options + Validate;
    type Knobs: Options + Validate;

    fn presets() -> Vec<Preset> {
        Vec::new()
    }

    /// The rules of `preset` with `overrides`, validated. A game whose defaults depend on other
    /// options (Riichi's on `players`) fills them in here.
    fn resolve(preset: &str, overrides: &Value) -> Result<Self::Rules, OptionError> {
        resolve_preset(&Self::presets(), preset, overrides)
    }

    /// The player count these rules need (inclusive range); [`Game::PLAYERS`] unless the rules
    /// fix it.
    fn players(_rules: &Self::Rules) -> (u8, u8) {
        Self::PLAYERS
    }

    /// The tables a batch returns. Every game has `games` (first columns `game`, `deal`,
    /// `rotation`) and `players` (first columns `game`, `deal`, `seat`, `player`, `final_points`,
    /// `rank`); a game may add more tables (e.g. `hands`).
    fn schema() -> Vec<TableSchema>;

    /// Plays `batch` with one knob set per lineup slot; the lineup is already checked against
    /// [`Game::players`].
    fn play(rules: &Self::Rules, lineup: &[Self::Knobs], batch: &Batch) -> Vec<Table>;

    /// The `show` contract: the first game of `batch` played again alone (chance is keyed, so it
    /// is the same game as in any batch) with everything that happened in it: the tables of
    /// [`Game::play`] for that game plus the game's event tables (documented in its `show.rs`),
    /// from which `simharness/games/<game>/show.py` draws the page.
    fn show(rules: &Self::Rules, lineup: &[Self::Knobs], batch: &Batch) -> Vec<Table>;

    /// The tables [`Game::show`] adds to those of [`Game::schema`], documented like them (coded
    /// columns carry their labels, which `show.py` reads instead of copies of the engine's codes).
    fn show_schema() -> Vec<TableSchema>;
}

/// The object-safe face of a [`Game`], with JSON options.
pub trait GameApi: Sync + Send {
    fn info(&self) -> Value;
    fn rule_specs(&self) -> Vec<OptionSpec>;
    fn knob_specs(&self) -> Vec<OptionSpec>;
    fn presets(&self) -> Vec<Preset>;
    fn schema(&self) -> Vec<TableSchema>;
    fn show_schema(&self) -> Vec<TableSchema>;
    /// The complete rule set for a preset plus overrides, validated.
    fn resolve_rules(&self, preset: &str, overrides: &Value) -> Result<Value, OptionError>;
    /// The complete knob set for overrides of the defaults, validated.
    fn resolve_knobs(&self, knobs: &Value) -> Result<Value, OptionError>;
    fn play(&self, rules: &Value, lineup: &[Value], batch: &Batch) -> Result<Vec<Table>, OptionError>;
    /// [`Game::show`] with JSON options.
    fn show(&self, rules: &Value, lineup: &[Value], batch: &Batch) -> Result<Vec<Table>, OptionError>;
}

/// The rule set of `preset` (`default` = the declared defaults) with `overrides`, validated.
/// Also used by hand evaluators that are not yet a registered [`Game`].
pub fn resolve_preset<R: Options + Validate>(presets: &[Preset], preset: &str, overrides: &Value) -> Result<R, OptionError> {
    let base = if preset == "default" {
        R::default()
    } else {
        let p = presets.iter().find(|p| p.name == preset).ok_or_else(|| {
            let mut names = vec!["default"];
            names.extend(presets.iter().map(|p| p.name));
            OptionError::new("preset", format!("unknown preset \"{preset}\"; expected one of: {}", names.join(", ")))
        })?;
        R::from_json(&p.overrides)?
    };
    let rules = base.with_overrides(overrides)?;
    rules.validate()?;
    Ok(rules)
}

pub struct Registered<G: Game>(pub std::marker::PhantomData<G>);

impl<G: Game> Registered<G> {
    fn rules(&self, preset: &str, overrides: &Value) -> Result<G::Rules, OptionError> {
        G::resolve(preset, overrides)
    }

    fn knobs(&self, knobs: &Value) -> Result<G::Knobs, OptionError> {
        let k = G::Knobs::from_json(knobs)?;
        k.validate()?;
        Ok(k)
    }

    /// The rules (overrides of the defaults) and the lineup's knob sets, validated, the player
    /// count checked against [`Game::players`]: what [`Game::play`] may assume, also for engine
    /// entry points that play a game's batch with hooks.
    pub fn checked(&self, rules: &Value, lineup: &[Value]) -> Result<(G::Rules, Vec<G::Knobs>), OptionError> {
        let rules = self.rules("default", rules)?;
        let (lo, hi) = G::players(&rules);
        if lineup.len() < usize::from(lo) || lineup.len() > usize::from(hi) {
            let range = if lo == hi { format!("{lo}") } else { format!("{lo} to {hi}") };
            return Err(OptionError::new("players", format!("{} takes {range} players under these rules, got {}", G::NAME, lineup.len())));
        }
        let knobs = lineup.iter().map(|k| self.knobs(k)).collect::<Result<Vec<_>, _>>()?;
        Ok((rules, knobs))
    }
}

impl<G: Game> GameApi for Registered<G> {
    fn info(&self) -> Value {
        json!({
            "name": G::NAME,
            "title": G::TITLE,
            "min_players": G::PLAYERS.0,
            "max_players": G::PLAYERS.1,
            "spec": G::SPEC,
        })
    }

    fn rule_specs(&self) -> Vec<OptionSpec> {
        G::Rules::specs()
    }

    fn knob_specs(&self) -> Vec<OptionSpec> {
        G::Knobs::specs()
    }

    fn presets(&self) -> Vec<Preset> {
        G::presets()
    }

    fn schema(&self) -> Vec<TableSchema> {
        G::schema()
    }

    fn show_schema(&self) -> Vec<TableSchema> {
        G::show_schema()
    }

    fn resolve_rules(&self, preset: &str, overrides: &Value) -> Result<Value, OptionError> {
        Ok(self.rules(preset, overrides)?.to_json())
    }

    fn resolve_knobs(&self, knobs: &Value) -> Result<Value, OptionError> {
        Ok(self.knobs(knobs)?.to_json())
    }

    fn play(&self, rules: &Value, lineup: &[Value], batch: &Batch) -> Result<Vec<Table>, OptionError> {
        let (rules, knobs) = self.checked(rules, lineup)?;
        Ok(G::play(&rules, &knobs, batch))
    }

    fn show(&self, rules: &Value, lineup: &[Value], batch: &Batch) -> Result<Vec<Table>, OptionError> {
        let (rules, knobs) = self.checked(rules, lineup)?;
        Ok(G::show(&rules, &knobs, batch))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn duplicate_seating_rotates_the_lineup_over_one_deal() {
        let seats: Vec<_> = (8..12).map(|g| Seating::new(g, 4, true)).collect();
        assert!(seats.iter().all(|s| s.deal == 2));
        assert_eq!(seats.iter().map(|s| s.player(Seat(0))).collect::<Vec<_>>(), [0, 1, 2, 3]);
        assert_eq!(seats[1].player(Seat(3)), 0);
        let plain = Seating::new(9, 4, false);
        assert_eq!((plain.deal, plain.player(Seat(2))), (9, 2));
    }

    #[test]
    fn seat_of_inverts_player() {
        for g in 0..10 {
            let seating = Seating::new(g, 5, true);
            for seat in seating.seats() {
                assert_eq!(seating.seat_of(seating.slot(seat)), seat);
            }
        }
    }

    #[test]
    fn ranks_break_ties_by_seat() {
        assert_eq!(ranks(&[10, 30, 10, -5]), [2, 1, 3, 4]);
    }

    #[test]
    fn shared_ranks_give_tied_players_one_rank_and_skip_the_next() {
        assert_eq!(ranks_with(&[10, 30, 10, -5], Ties::Shared), [2, 1, 2, 4]);
        assert_eq!(ranks_with(&[7, 7, 7], Ties::Shared), [1, 1, 1]);
        assert_eq!(ranks_with(&[5, 9, 9, 1, 1], Ties::Shared), [3, 1, 1, 4, 4]);
        assert_eq!(ranks_with(&[5, 9, 9], Ties::SeatOrder), ranks(&[5, 9, 9]));
    }
}
