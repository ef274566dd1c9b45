"""Riichi mahjong hand tools: shanten, ukeire and hand value under named house rules.

Tiles are in MPSZ notation (``123m456p789s1122z``, ``0`` = red five). Melds are strings
``TYPE:TILES[@FROM]`` with the called tile first: ``chi:324m``, ``pon:555z@2``, ``kan:5505p@1``
(open kan), ``ankan:1111z``, ``kakan:7777s@3``; ``FROM`` is the relative seat the tile came from
(1 = 下家, 2 = 対面, 3 = 上家). The work happens in the Rust engine; the batch forms take many hands
in one call.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np

from simharness import _engine
from simharness.engine import OptionError, OptionSpec, Preset, _call


class HandNotWinning(ValueError):
    """The hand is well-formed but cannot win: incomplete, or no yaku (the message says which)."""


def _engine_call(fn: Any, *args: Any) -> Any:
    try:
        return _call(fn, *args)
    except OptionError as e:
        if e.field == "agari":
            raise HandNotWinning(e.message) from None
        raise


@cache
def _catalogue() -> dict[str, Any]:
    return json.loads(_engine.riichi_catalogue_json())


def rule_options() -> tuple[OptionSpec, ...]:
    """The scoring house rules: name, type, default, meaning."""
    out = []
    for s in _catalogue()["rules"]:
        s = dict(s)
        s["choices"] = tuple(s.get("choices", ()))
        out.append(OptionSpec(**s))
    return tuple(out)


def presets() -> tuple[Preset, ...]:
    """Named scoring rule sets (``default`` is implicit: the spec's recommended defaults)."""
    return tuple(Preset(**p) for p in _catalogue()["presets"])


def yaku_names() -> tuple[str, ...]:
    """Yaku names in bit order of :attr:`ScoreBatch.yaku_mask`."""
    return tuple(_catalogue()["yaku"])


def resolve_rules(rules: str = "tenhou", **overrides: Any) -> dict[str, Any]:
    """The complete scoring rule set of a preset plus overrides; bad keys raise OptionError."""
    return json.loads(_call(_engine.riichi_resolve_rules, rules, json.dumps(overrides)))


def shanten(hand: str) -> int:
    """Shanten of a concealed hand (best of standard form, seven pairs, thirteen orphans);
    −1 is a complete hand. 13/14 tiles, or fewer when melds were called (10/11, 7/8, ...)."""
    return int(_call(_engine.riichi_shanten, hand))


def shanten_forms(hand: str) -> tuple[int, int | None, int | None]:
    """Shanten of (standard form, seven pairs, thirteen orphans); None where a form needs 13+ tiles."""
    return _call(_engine.riichi_shanten_forms, hand)


def shanten_batch(hands: Sequence[str] | np.ndarray) -> np.ndarray:
    """Shanten of many hands in one engine call: MPSZ strings, or an ``(n, 34)`` array of tile
    counts (the fast form). Returns ``int8``; −2 marks a row with an impossible tile count."""
    if isinstance(hands, np.ndarray):
        counts = np.ascontiguousarray(hands, dtype=np.uint8)
        if counts.ndim != 2 or counts.shape[1] != 34:
            raise OptionError("hands", f"expected an (n, 34) array of tile counts, got shape {counts.shape}")
        raw = _call(_engine.riichi_shanten_counts, counts.tobytes())
    else:
        raw = _call(_engine.riichi_shanten_hands, list(hands))
    return np.frombuffer(raw, dtype=np.int8)


def ukeire(hand: str, visible: str = "") -> dict[str, int]:
    """Tiles that lower the shanten of a 3n+1-tile hand, with how many are still unseen given
    ``visible`` tiles (discards, melds, dora indicators)."""
    return dict(_call(_engine.riichi_ukeire, hand, visible))


def split_tiles(hand: str) -> list[str]:
    """The tiles of an MPSZ string, one name each (``0m`` for a red five)."""
    return list(_call(_engine.riichi_tiles, hand))


def waits(hand: str) -> list[str]:
    """Tile kinds that complete a 3n+1-tile hand, yaku or not."""
    return list(_call(_engine.riichi_waits, hand))


@dataclass(frozen=True)
class Payments:
    """Who pays what; amounts include honba, ``received`` also the riichi sticks."""

    ron: int
    tsumo_dealer: int
    tsumo_non_dealer: int
    received: int


@dataclass(frozen=True)
class HandScore:
    """The value of a winning hand under the chosen interpretation (高点法)."""

    han: int
    fu: int
    points: int
    basic: int
    yaku: tuple[tuple[str, int], ...]
    yakuman: int
    dora: int
    aka: int
    ura: int
    nuki: int
    limit: str
    form: str
    wait: str | None
    closed: bool
    dealer: bool
    tsumo: bool
    payments: Payments


def _tiles(x: Iterable[str] | str) -> list[str]:
    return [x] if isinstance(x, str) else list(x)


def score_hand(
    hand: str,
    win: str,
    *,
    tsumo: bool = False,
    riichi: bool = False,
    ippatsu: bool = False,
    melds: Iterable[str] = (),
    dora: Iterable[str] | str = (),
    ura: Iterable[str] | str = (),
    round_wind: str = "E",
    seat_wind: str = "E",
    honba: int = 0,
    deposits: int = 0,
    nukidora: int = 0,
    double_riichi: bool = False,
    haitei: bool = False,
    houtei: bool = False,
    rinshan: bool = False,
    chankan: bool = False,
    tenhou: bool = False,
    chiihou: bool = False,
    renhou: bool = False,
    open_riichi: bool = False,
    rules: str = "tenhou",
    rule_overrides: Mapping[str, Any] | None = None,
    **more_overrides: Any,
) -> HandScore:
    """Scores a winning hand.

    ``hand`` holds the concealed tiles with or without ``win``; ``dora``/``ura`` are indicator
    tiles; winds are ``E S W N`` (seat East = dealer); ``deposits`` counts riichi sticks the winner
    collects; ``nukidora`` counts extracted flowers or sanma Norths as dora han. ``rules`` is a
    preset; scoring rules are overridden by keyword or, for a rule whose name is also a flag
    (``renhou``), through ``rule_overrides``. ``open_riichi`` (with ``riichi``) scores an open
    riichi under the local yaku ``open_riichi``. Raises
    :class:`HandNotWinning` when the hand cannot win and :class:`OptionError` for bad input.
    """
    req = {
        "hand": hand, "win": win, "tsumo": tsumo, "riichi": riichi, "ippatsu": ippatsu,
        "melds": list(melds), "dora": _tiles(dora), "ura": _tiles(ura), "round_wind": round_wind,
        "seat_wind": seat_wind, "honba": honba, "deposits": deposits, "nukidora": nukidora,
        "double_riichi": double_riichi,
        "haitei": haitei, "houtei": houtei, "rinshan": rinshan, "chankan": chankan, "tenhou": tenhou,
        "chiihou": chiihou, "renhou": renhou, "open_riichi": open_riichi,
    }  # fmt: skip
    overrides = {**(rule_overrides or {}), **more_overrides}
    raw = json.loads(_engine_call(_engine.riichi_score, json.dumps(req), rules, json.dumps(overrides)))
    return _score(raw)


def _score(raw: dict[str, Any]) -> HandScore:
    raw = dict(raw)
    raw["yaku"] = tuple((name, han) for name, han in raw["yaku"])
    raw["payments"] = Payments(**raw["payments"])
    return HandScore(**raw)


@dataclass(frozen=True)
class ScoreBatch:
    """Columns for a batch of hands: one entry per request, zeros where it failed.

    ``yaku_mask`` bits follow :func:`yaku_names`; ``limit`` indexes ``("", "mangan", ...,
    "yakuman")``; ``errors`` maps the row to ``(field, message)`` (field ``agari``: does not win).
    """

    han: np.ndarray
    fu: np.ndarray
    points: np.ndarray
    yakuman: np.ndarray
    yaku_mask: np.ndarray
    dora: np.ndarray
    limit: np.ndarray
    ron: np.ndarray
    tsumo_dealer: np.ndarray
    tsumo_non_dealer: np.ndarray
    errors: dict[int, tuple[str, str]]

    def __len__(self) -> int:
        return len(self.han)


def score_batch(
    requests: Iterable[Mapping[str, Any]], rules: str = "tenhou", **rule_overrides: Any
) -> ScoreBatch:
    """Scores many hands in one engine call. Each request has the keyword arguments of
    :func:`score_hand` (``hand``, ``win``, ``melds``, flags, ...), and may carry its own ``rules``
    preset and ``rule_overrides``. Failures do not stop the batch: see :attr:`ScoreBatch.errors`."""
    text = json.dumps([dict(r) for r in requests])
    return _batch(_call(_engine.riichi_score_batch, text, rules, json.dumps(rule_overrides)))


def _batch(raw: tuple[list[tuple[str, str, bytes]], list[tuple[int, str, str]]]) -> ScoreBatch:
    cols, errors = raw
    arrays = {
        name: np.frombuffer(data, dtype=np.dtype(dtype).newbyteorder("<")) for name, dtype, data in cols
    }
    return ScoreBatch(**arrays, errors={row: (field, msg) for row, field, msg in errors})


def flag_bits() -> dict[str, int]:
    """Bit of each situational flag in the ``flags`` column of :func:`score_arrays`."""
    return {name: 1 << i for i, name in enumerate(_catalogue()["flags"])}


def _column(name: str, value: np.ndarray | None, n: int, width: int, dtype: str, fill: int) -> bytes:
    shape = (n, width) if width > 1 else (n,)
    if value is None:
        return np.full(shape, fill, dtype=dtype).tobytes()
    arr = np.asarray(value)
    if arr.shape != shape:
        raise OptionError(name, f"expected shape {shape}, got {arr.shape}")
    return np.ascontiguousarray(arr, dtype=np.dtype(dtype).newbyteorder("<")).tobytes()


def score_arrays(
    tiles: np.ndarray,
    win: np.ndarray,
    *,
    melds: np.ndarray | None = None,
    flags: np.ndarray | None = None,
    round_wind: np.ndarray | None = None,
    seat_wind: np.ndarray | None = None,
    dora: np.ndarray | None = None,
    ura: np.ndarray | None = None,
    honba: np.ndarray | None = None,
    deposits: np.ndarray | None = None,
    rules: str = "tenhou",
    **rule_overrides: Any,
) -> ScoreBatch:
    """Scores many hands given as arrays, the fast batch form (no per-hand Python work).

    ``tiles`` (n, 14): concealed tile ids 0–135 (``kind * 4 + copy``; 16, 52, 88 are the red fives)
    including the winning tile, −1 for none; ``win`` (n,): the winning tile id; ``melds`` (n, 4):
    Tenhou meld codes (:meth:`simharness.games.riichi.mjlog.Meld.make`), −1 for none; ``flags`` (n,):
    situational flags as bits (:func:`flag_bits`); ``round_wind``/``seat_wind`` (n,): 0–3 = E S W N
    (default E, i.e. the dealer); ``dora``/``ura`` (n, 5): indicator ids, −1 for none;
    ``honba``/``deposits`` (n,).
    """
    n = len(win)
    raw = _call(
        _engine.riichi_score_arrays,
        n,
        _column("tiles", tiles, n, 14, "int16", -1),
        _column("win", win, n, 1, "int16", -1),
        _column("melds", melds, n, 4, "int32", -1),
        _column("flags", flags, n, 1, "uint16", 0),
        _column("round_wind", round_wind, n, 1, "uint8", 0),
        _column("seat_wind", seat_wind, n, 1, "uint8", 0),
        _column("dora", dora, n, 5, "int16", -1),
        _column("ura", ura, n, 5, "int16", -1),
        _column("honba", honba, n, 1, "uint16", 0),
        _column("deposits", deposits, n, 1, "uint16", 0),
        rules,
        json.dumps(rule_overrides),
    )
    return _batch(raw)


def format_score(s: HandScore) -> str:
    """A human-readable account of a hand's value."""
    lines = []
    if s.yakuman:
        lines.append(f"{'yakuman' if s.yakuman == 1 else f'{s.yakuman}x yakuman'}")
    else:
        lines.append(f"{s.han} han {s.fu} fu" + (f"  ({s.limit})" if s.limit else ""))
    for name, han in s.yaku:
        lines.append(f"  {name:<18} {f'x{han}' if s.yakuman else f'{han} han'}")
    if not s.yakuman:
        for label, n in (("dora", s.dora), ("aka", s.aka), ("ura", s.ura), ("nukidora", s.nuki)):
            if n:
                lines.append(f"  {label:<18} {n} han")
    who = "dealer" if s.dealer else "non-dealer"
    p = s.payments
    if not s.tsumo:
        lines.append(f"{s.points} points ({who} ron): the discarder pays {p.ron}")
    elif s.dealer:
        lines.append(f"{s.points} points (dealer tsumo): {p.tsumo_non_dealer} all")
    else:
        lines.append(
            f"{s.points} points (non-dealer tsumo): {p.tsumo_non_dealer} / {p.tsumo_dealer} (dealer)"
        )
    lines.append(f"winner receives {p.received} (with honba and riichi sticks)")
    return "\n".join(lines)
