"""Type stubs of the Rust engine (``engine/src/python/``), for type checkers and editors.

Metadata crosses as JSON strings, results as raw columns: a table is ``(rows, columns)`` with each
column ``(name, numpy dtype, little-endian bytes)``. A wrong input raises ``ValueError((field,
message))``. ``tests/test_engine_stubs.py`` holds this file to the module's real signatures.
"""

from collections.abc import Iterator, Mapping
from typing import Any, Protocol

__version__: str

Columns = list[tuple[str, str, bytes]]
Tables = dict[str, tuple[int, Columns]]
RowError = tuple[int, str, str]

class _Cancel(Protocol):
    def is_set(self) -> bool: ...

class _View(Mapping[str, Any]):
    """The view a Python strategy's ``decide`` receives: a read-only mapping whose values are built
    when first read (registered as a ``collections.abc.Mapping``)."""

    def __getitem__(self, key: str) -> Any: ...
    def __iter__(self) -> Iterator[str]: ...
    def __len__(self) -> int: ...
    def copy(self) -> dict[str, Any]: ...

# The games and their catalogues (JSON).
def games_json() -> str: ...
def rule_options_json(name: str) -> str: ...
def knob_options_json(name: str) -> str: ...
def presets_json(name: str) -> str: ...
def schema_json(name: str) -> str: ...
def show_schema_json(name: str) -> str: ...
def resolve_rules(name: str, preset: str, overrides: str) -> str: ...
def resolve_knobs(name: str, knobs: str) -> str: ...
def python_games() -> list[str]: ...

# Playing: `rules` a JSON object, `lineup` a JSON list of knob sets (one per lineup slot).
def play_batch(
    name: str, rules: str, lineup: str, seed: int, first_game: int, count: int, duplicate: bool = False
) -> Tables: ...
def show_game(
    name: str, rules: str, lineup: str, seed: int, game: int, duplicate: bool = False
) -> Tables: ...
def play_batch_python(
    game: str,
    rules: str,
    lineup: str,
    strategies: list[Any | None],
    seed: int,
    first_game: int,
    count: int,
    duplicate: bool = False,
    cancel: _Cancel | None = None,
) -> Tables: ...
def show_python(
    game: str,
    rules: str,
    lineup: str,
    strategies: list[Any | None],
    seed: int,
    index: int,
    duplicate: bool = False,
) -> Tables: ...
def interrupt_python_strategies() -> int: ...

# Riichi: hands in MPSZ, results as JSON.
def riichi_catalogue_json() -> str: ...
def riichi_resolve_rules(preset: str, overrides: str) -> str: ...
def riichi_replay_hand(preset: str, overrides: str, hand: str) -> str: ...
def riichi_score(request: str, preset: str, overrides: str) -> str: ...
def riichi_score_batch(
    requests: str, preset: str, overrides: str
) -> tuple[list[tuple[str, str, bytes]], list[RowError]]: ...
def riichi_score_arrays(
    n: int,
    tiles: bytes,
    win: bytes,
    melds: bytes,
    flags: bytes,
    round_wind: bytes,
    seat_wind: bytes,
    dora: bytes,
    ura: bytes,
    honba: bytes,
    deposits: bytes,
    preset: str,
    overrides: str,
) -> tuple[list[tuple[str, str, bytes]], list[RowError]]: ...
def riichi_shanten(hand: str) -> int: ...
def riichi_shanten_forms(hand: str) -> tuple[int, int | None, int | None]: ...
def riichi_shanten_counts(data: bytes) -> bytes: ...
def riichi_shanten_hands(hands: list[str]) -> bytes: ...
def riichi_ukeire(hand: str, visible: str = "") -> list[tuple[str, int]]: ...
def riichi_tiles(hand: str) -> list[str]: ...
def riichi_waits(hand: str) -> list[str]: ...

# The other games' hand scoring: a JSON report of one hand.
def suzume_score(
    hand: str,
    win: str,
    ron: bool = False,
    dealer: bool = False,
    dora: str | None = None,
    players: int = 4,
    rules: str = "{}",
) -> str: ...
def hongkong_score(
    hand: str,
    win: str,
    melds: list[str],
    self_draw: bool,
    seat_wind: str = "E",
    round_wind: str = "E",
    flowers: str = "",
    seasons: str = "",
    last_tile: bool = False,
    replacement: bool = False,
    robbing_kong: bool = False,
    heavenly: bool = False,
    earthly: bool = False,
    kong_on_kong: bool = False,
    preset: str = "default",
    rules: str = "{}",
) -> str: ...
def trump_score(
    hand: str,
    win: str,
    ron: bool = False,
    riichi: bool = False,
    double_riichi: bool = False,
    ippatsu: bool = False,
    first_turn: bool = False,
    dealer: bool = False,
    seat_wind: str | None = None,
    round_wind: str | None = None,
    indicator: str | None = None,
    ura_indicator: str | None = None,
    jokers: int = 0,
    discards: str = "",
    rules: str = "{}",
) -> str: ...
def trump_yaku_names() -> list[str]: ...
def competence_audit(
    name: str, rules: str, lineup: str, seed: int, first_game: int, count: int, duplicate: bool = False
) -> list[dict[str, int]]: ...
